/* The floor of the feed benchmark: SQLite reading the rows the feed hands out, from C, with the server's own
 * query (samples and tombstones merged by seq, pages of 5,000), every column fetched as the server fetches it.
 *   cc -O2 bench/api/read-rows.c -lsqlite3 -o read-rows && ./read-rows caresync.sqlite pull
 * Prints the seconds of one walk and the rows read. */
#include <sqlite3.h>
#include <stdio.h>
#include <time.h>

static const char *feed =
    "SELECT 0, seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value"
    "  FROM samples INDEXED BY samples_feed WHERE patient = ?1 AND seq > ?2"
    " UNION ALL "
    "SELECT 1, seq, uuid, type, NULL, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms, NULL"
    "  FROM tombstones INDEXED BY tombstones_feed WHERE patient = ?1 AND seq > ?2"
    " ORDER BY 2 LIMIT ?3";

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: read-rows DATABASE PATIENT\n"); return 2; }
    sqlite3 *db;
    sqlite3_stmt *page;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA cache_size = -16384", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, feed, -1, &page, NULL) != SQLITE_OK) {
        fprintf(stderr, "read-rows: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    double started = now();
    long rows = 0, checksum = 0;
    sqlite3_int64 after = 0;
    for (;;) {  /* one read transaction per page, as the server reads */
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        sqlite3_bind_text(page, 1, argv[2], -1, SQLITE_STATIC);
        sqlite3_bind_int64(page, 2, after);
        sqlite3_bind_int(page, 3, 5001);
        int n = 0;
        while (sqlite3_step(page) == SQLITE_ROW && ++n <= 5000) {
            after = sqlite3_column_int64(page, 1);
            checksum += sqlite3_column_bytes(page, 2) + (sqlite3_column_blob(page, 2) != NULL);
            static const int texts[] = {3, 7, 9, 10};  /* type, sync_id, source, metadata */
            for (int i = 0; i < 4; i++) {
                checksum += sqlite3_column_text(page, texts[i]) != NULL;
                checksum += sqlite3_column_bytes(page, texts[i]);
            }
            checksum += (long)sqlite3_column_double(page, 4) + sqlite3_column_int64(page, 5) + sqlite3_column_int64(page, 6);
            checksum += sqlite3_column_type(page, 8) + sqlite3_column_type(page, 11);
            rows++;
        }
        sqlite3_reset(page);
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        if (n <= 5000) break;
    }
    printf("%.3f %ld %ld\n", now() - started, rows, checksum & 1);
    sqlite3_finalize(page);
    sqlite3_close(db);
    return 0;
}
