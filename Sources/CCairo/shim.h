#ifndef WAYMARK_CCAIRO_SHIM_H
#define WAYMARK_CCAIRO_SHIM_H

/* cairo's image surfaces and PNG output: the export's pictures. */
#include <cairo.h>

#endif
