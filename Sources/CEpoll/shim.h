#ifndef CARESYNC_CEPOLL_SHIM_H
#define CARESYNC_CEPOLL_SHIM_H
/// Glibc's Swift module leaves out <sys/epoll.h>: the HTTP event loops need it for their epoll sets.
#include <sys/epoll.h>
#endif
