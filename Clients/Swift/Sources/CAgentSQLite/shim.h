#ifndef CARESYNC_AGENT_SQLITE_SHIM_H
#define CARESYNC_AGENT_SQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import.
static inline sqlite3_destructor_type caresync_agent_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
