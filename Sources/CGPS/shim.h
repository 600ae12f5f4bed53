#ifndef WAYMARK_CGPS_SHIM_H
#define WAYMARK_CGPS_SHIM_H

#include <gps.h>

/// `gps_send` is C-variadic, which Swift cannot call; this fixed-arity wrapper sends one
/// already-formatted command string to gpsd.
static inline int waymark_gps_send(struct gps_data_t *data, const char *command) {
    return gps_send(data, "%s", command);
}

#endif
