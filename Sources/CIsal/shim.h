#ifndef CARESYNC_CISAL_SHIM_H
#define CARESYNC_CISAL_SHIM_H
/// Intel's ISA-L deflate (igzip): the compressor of gzip answers.
#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

/// The level buffer ISA-L's default for `level` needs (0 for level 0); the sizes are macros Swift cannot import.
static inline unsigned caresync_isal_level_buffer_size(int level) {
    switch (level) {
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    case 3: return ISAL_DEF_LVL3_DEFAULT;
    default: return 0;
    }
}

/// Whether the stream has written its end (the last block and any trailer).
static inline int caresync_isal_stream_ended(const struct isal_zstream *stream) {
    return stream->internal_state.state == ZSTATE_END;
}
#endif
