#ifndef WAYMARK_CPROJ_SHIM_H
#define WAYMARK_CPROJ_SHIM_H

/* Only PROJ's geodesic API (Karney's algorithms): pure computation, no I/O. */
#include <geodesic.h>

#endif
