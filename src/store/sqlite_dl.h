/*
 * SQLite, loaded on first use. A scan of a tools file without a store, eval
 * and most commands never open the approval store, yet linking libsqlite3
 * made every start of mcpvet map it and bind its ~1,600 symbol relocations
 * (the library is built with BIND_NOW): a fifth of the instructions of a
 * 20-tool scan. This header includes <sqlite3.h> for the types and
 * constants and routes every SQLite function the store calls through a
 * table filled by dlopen("libsqlite3.so.0") the first time one is called
 * (thread-safe, once). When the library cannot be loaded, sqlite3_open_v2
 * fails with SQLITE_CANTOPEN and a message saying so, and the other calls
 * fail without touching their arguments. Include this instead of
 * <sqlite3.h> (src/store/store_int.h does).
 */
#ifndef MV_SQLITE_DL_H
#define MV_SQLITE_DL_H

#include <sqlite3.h>

typedef struct mv_sqlite_fns {
    __typeof__(sqlite3_open_v2) *open_v2;
    __typeof__(sqlite3_close_v2) *close_v2;
    __typeof__(sqlite3_extended_result_codes) *extended_result_codes;
    __typeof__(sqlite3_busy_timeout) *busy_timeout;
    __typeof__(sqlite3_errstr) *errstr;
    __typeof__(sqlite3_errmsg) *errmsg;
    __typeof__(sqlite3_exec) *exec;
    __typeof__(sqlite3_get_autocommit) *get_autocommit;
    __typeof__(sqlite3_last_insert_rowid) *last_insert_rowid;
    __typeof__(sqlite3_prepare_v2) *prepare_v2;
    __typeof__(sqlite3_prepare_v3) *prepare_v3;
    __typeof__(sqlite3_step) *step;
    __typeof__(sqlite3_reset) *reset;
    __typeof__(sqlite3_clear_bindings) *clear_bindings;
    __typeof__(sqlite3_finalize) *finalize;
    __typeof__(sqlite3_bind_int) *bind_int;
    __typeof__(sqlite3_bind_int64) *bind_int64;
    __typeof__(sqlite3_bind_null) *bind_null;
    __typeof__(sqlite3_bind_text) *bind_text;
    __typeof__(sqlite3_bind_text64) *bind_text64;
    __typeof__(sqlite3_column_int) *column_int;
    __typeof__(sqlite3_column_int64) *column_int64;
    __typeof__(sqlite3_column_text) *column_text;
    __typeof__(sqlite3_column_bytes) *column_bytes;
} mv_sqlite_fns;

/* The table: SQLite's functions once loaded, or failing stand-ins when it
 * could not be. Never NULL. */
const mv_sqlite_fns *mv_sqlite(void);
/* True once SQLite has been loaded (loads it if needed). */
int mv_sqlite_ready(void);

#define sqlite3_open_v2 (mv_sqlite()->open_v2)
#define sqlite3_close_v2 (mv_sqlite()->close_v2)
#define sqlite3_extended_result_codes (mv_sqlite()->extended_result_codes)
#define sqlite3_busy_timeout (mv_sqlite()->busy_timeout)
#define sqlite3_errstr (mv_sqlite()->errstr)
#define sqlite3_errmsg (mv_sqlite()->errmsg)
#define sqlite3_exec (mv_sqlite()->exec)
#define sqlite3_get_autocommit (mv_sqlite()->get_autocommit)
#define sqlite3_last_insert_rowid (mv_sqlite()->last_insert_rowid)
#define sqlite3_prepare_v2 (mv_sqlite()->prepare_v2)
#define sqlite3_prepare_v3 (mv_sqlite()->prepare_v3)
#define sqlite3_step (mv_sqlite()->step)
#define sqlite3_reset (mv_sqlite()->reset)
#define sqlite3_clear_bindings (mv_sqlite()->clear_bindings)
#define sqlite3_finalize (mv_sqlite()->finalize)
#define sqlite3_bind_int (mv_sqlite()->bind_int)
#define sqlite3_bind_int64 (mv_sqlite()->bind_int64)
#define sqlite3_bind_null (mv_sqlite()->bind_null)
#define sqlite3_bind_text (mv_sqlite()->bind_text)
#define sqlite3_bind_text64 (mv_sqlite()->bind_text64)
#define sqlite3_column_int (mv_sqlite()->column_int)
#define sqlite3_column_int64 (mv_sqlite()->column_int64)
#define sqlite3_column_text (mv_sqlite()->column_text)
#define sqlite3_column_bytes (mv_sqlite()->column_bytes)

#endif
