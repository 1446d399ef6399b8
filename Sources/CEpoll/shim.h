#ifndef CARESYNC_CEPOLL_SHIM_H
#define CARESYNC_CEPOLL_SHIM_H
/// Glibc's Swift module leaves out <sys/epoll.h> and <sys/eventfd.h>: the HTTP event loops wait on an epoll set and
/// are woken from other threads through an eventfd in it.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
