#ifndef PREPUSH_CSQLITE_SHIM_H
#define PREPUSH_CSQLITE_SHIM_H
#include <sqlite3.h>
#include <time.h>

/// Leaves the checkpoint to SQLite's automatic one (every 1,000 pages of WAL) instead of doing it,
/// with an fsync of the database, each time the last connection closes: a push records one run and
/// closes. `sqlite3_db_config` takes variadic arguments, which Swift cannot pass.
static inline int prepush_sqlite3_skip_checkpoint_on_close(sqlite3 *db) {
#ifdef SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
#else
    return SQLITE_OK;
#endif
}

/// The history is a file a stage can write (it lives under .git/prepush): a connection to it runs
/// no trigger and no view, refuses writes to the schema and to pages through SQL, and treats every
/// SQL function in the schema as untrusted. Returns SQLITE_OK, or the first failure.
static inline int prepush_sqlite3_distrust_schema(sqlite3 *db) {
    int result = SQLITE_OK;
#ifdef SQLITE_DBCONFIG_ENABLE_TRIGGER
    if (result == SQLITE_OK) result = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
#endif
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
    if (result == SQLITE_OK) result = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)0);
#endif
#ifdef SQLITE_DBCONFIG_DEFENSIVE
    if (result == SQLITE_OK) result = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    if (result == SQLITE_OK) result = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
#endif
    return result;
}

/// Called by SQLite every few thousand steps of a statement: non-zero (past the deadline, seconds
/// on the monotonic clock, that `deadline` points to) interrupts the statement.
static inline int prepush_sqlite3_past_deadline(void *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9 > *(const double *)deadline;
}

/// Ends any statement of `db` still running past `*deadline`: no file can make prepush spin.
static inline void prepush_sqlite3_watch_deadline(sqlite3 *db, double *deadline) {
    sqlite3_progress_handler(db, 10000, prepush_sqlite3_past_deadline, deadline);
}

/// Seconds on the monotonic clock.
static inline double prepush_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}
#endif
