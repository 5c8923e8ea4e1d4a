#ifndef PREPUSH_CSQLITE_SHIM_H
#define PREPUSH_CSQLITE_SHIM_H
#include <sqlite3.h>

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
#endif
