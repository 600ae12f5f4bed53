#ifndef WAYMARK_CZLIB_SHIM_H
#define WAYMARK_CZLIB_SHIM_H

/* zlib's inflate, for the gzip files and zip archives `waymark import` reads. */
#include <zlib.h>

#endif
