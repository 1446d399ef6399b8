#ifndef CARESYNC_CMALLOC_SHIM_H
#define CARESYNC_CMALLOC_SHIM_H
/// Glibc's Swift module leaves out <malloc.h>: the executable tunes the allocator with mallopt.
#include <malloc.h>
#endif
