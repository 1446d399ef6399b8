#ifndef CARESYNC_CZLIB_SHIM_H
#define CARESYNC_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 is a macro: wrap it so Swift can call it.
static inline int caresync_deflateInit2(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(strm, level, method, windowBits, memLevel, strategy);
}

/// inflateInit2 is a macro: wrap it so Swift can call it.
static inline int caresync_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
