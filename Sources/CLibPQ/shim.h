#ifndef CARESYNC_CLIBPQ_SHIM_H
#define CARESYNC_CLIBPQ_SHIM_H
// Debian's libpq-dev puts the client headers under /usr/include/postgresql (pg_config --includedir).
#include <postgresql/libpq-fe.h>

/// A notice processor that drops notices ("relation already exists, skipping"): a library never prints.
static inline void caresync_pq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

/// Installs `caresync_pq_ignore_notice` on a connection.
static inline void caresync_pq_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, caresync_pq_ignore_notice, NULL);
}
#endif
