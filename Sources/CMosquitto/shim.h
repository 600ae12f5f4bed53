#ifndef WAYMARK_CMOSQUITTO_SHIM_H
#define WAYMARK_CMOSQUITTO_SHIM_H

// libmosquitto (Debian's libmosquitto-dev): the MQTT client the OwnTracks MQTT mode uses.
#include <mosquitto.h>

#endif
