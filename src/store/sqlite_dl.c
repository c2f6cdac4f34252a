/*
 * Loads SQLite on first use (see sqlite_dl.h): dlopen and one dlsym per
 * function the store calls, once, under pthread_once. Until then, and for
 * good when the library cannot be loaded, the table holds stand-ins that
 * fail: opening a store then reports that SQLite is missing instead of the
 * process failing to start.
 */
#include "sqlite_dl.h"
#include "platform/dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

static const char missing[] = "SQLite (libsqlite3.so.0) could not be loaded";

static int none_open_v2(const char *path, sqlite3 **db, int flags, const char *vfs) {
    (void)path;
    (void)flags;
    (void)vfs;
    if (db != NULL)
        *db = NULL;
    return SQLITE_CANTOPEN;
}
static int none_db_int(sqlite3 *db) {
    (void)db;
    return SQLITE_MISUSE;
}
static int none_db_int_int(sqlite3 *db, int v) {
    (void)db;
    (void)v;
    return SQLITE_MISUSE;
}
static const char *none_errstr(int rc) {
    (void)rc;
    return missing;
}
static const char *none_errmsg(sqlite3 *db) {
    (void)db;
    return missing;
}
static int none_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
                     void *arg, char **msg) {
    (void)db;
    (void)sql;
    (void)cb;
    (void)arg;
    if (msg != NULL)
        *msg = NULL;
    return SQLITE_MISUSE;
}
static sqlite3_int64 none_last_insert_rowid(sqlite3 *db) {
    (void)db;
    return 0;
}
static int none_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **stmt,
                           const char **tail) {
    (void)db;
    (void)sql;
    (void)n;
    if (stmt != NULL)
        *stmt = NULL;
    if (tail != NULL)
        *tail = NULL;
    return SQLITE_MISUSE;
}
static int none_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned int flags,
                           sqlite3_stmt **stmt, const char **tail) {
    (void)flags;
    return none_prepare_v2(db, sql, n, stmt, tail);
}
static int none_stmt(sqlite3_stmt *s) {
    (void)s;
    return SQLITE_MISUSE;
}
static int none_finalize(sqlite3_stmt *s) {
    (void)s;
    return SQLITE_OK; /* finalizing NULL is harmless in SQLite too */
}
static int none_bind_int(sqlite3_stmt *s, int i, int v) {
    (void)s;
    (void)i;
    (void)v;
    return SQLITE_MISUSE;
}
static int none_bind_int64(sqlite3_stmt *s, int i, sqlite3_int64 v) {
    (void)s;
    (void)i;
    (void)v;
    return SQLITE_MISUSE;
}
static int none_bind_null(sqlite3_stmt *s, int i) {
    (void)s;
    (void)i;
    return SQLITE_MISUSE;
}
static int none_bind_text(sqlite3_stmt *s, int i, const char *t, int n, void (*d)(void *)) {
    (void)s;
    (void)i;
    (void)t;
    (void)n;
    (void)d;
    return SQLITE_MISUSE;
}
static int none_bind_text64(sqlite3_stmt *s, int i, const char *t, sqlite3_uint64 n,
                            void (*d)(void *), unsigned char enc) {
    (void)s;
    (void)i;
    (void)t;
    (void)n;
    (void)d;
    (void)enc;
    return SQLITE_MISUSE;
}
static int none_column_int(sqlite3_stmt *s, int i) {
    (void)s;
    (void)i;
    return 0;
}
static sqlite3_int64 none_column_int64(sqlite3_stmt *s, int i) {
    (void)s;
    (void)i;
    return 0;
}
static const unsigned char *none_column_text(sqlite3_stmt *s, int i) {
    (void)s;
    (void)i;
    return NULL;
}

static const mv_sqlite_fns stand_ins = {
    .open_v2 = none_open_v2,
    .close_v2 = none_db_int,
    .extended_result_codes = none_db_int_int,
    .busy_timeout = none_db_int_int,
    .errstr = none_errstr,
    .errmsg = none_errmsg,
    .exec = none_exec,
    .get_autocommit = none_db_int,
    .last_insert_rowid = none_last_insert_rowid,
    .prepare_v2 = none_prepare_v2,
    .prepare_v3 = none_prepare_v3,
    .step = none_stmt,
    .reset = none_stmt,
    .clear_bindings = none_stmt,
    .finalize = none_finalize,
    .bind_int = none_bind_int,
    .bind_int64 = none_bind_int64,
    .bind_null = none_bind_null,
    .bind_text = none_bind_text,
    .bind_text64 = none_bind_text64,
    .column_int = none_column_int,
    .column_int64 = none_column_int64,
    .column_text = none_column_text,
    .column_bytes = none_column_int,
};

static mv_sqlite_fns loaded;
static const mv_sqlite_fns *active = &stand_ins;
static int ready;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define SYM(field, name) mv_dl_sym(lib, name, &loaded.field, sizeof(loaded.field))

static void load(void) {
    void *lib = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        return;
    int bad = SYM(open_v2, "sqlite3_open_v2") | SYM(close_v2, "sqlite3_close_v2") |
              SYM(extended_result_codes, "sqlite3_extended_result_codes") |
              SYM(busy_timeout, "sqlite3_busy_timeout") | SYM(errstr, "sqlite3_errstr") |
              SYM(errmsg, "sqlite3_errmsg") | SYM(exec, "sqlite3_exec") |
              SYM(get_autocommit, "sqlite3_get_autocommit") |
              SYM(last_insert_rowid, "sqlite3_last_insert_rowid") |
              SYM(prepare_v2, "sqlite3_prepare_v2") | SYM(prepare_v3, "sqlite3_prepare_v3") |
              SYM(step, "sqlite3_step") | SYM(reset, "sqlite3_reset") |
              SYM(clear_bindings, "sqlite3_clear_bindings") | SYM(finalize, "sqlite3_finalize") |
              SYM(bind_int, "sqlite3_bind_int") | SYM(bind_int64, "sqlite3_bind_int64") |
              SYM(bind_null, "sqlite3_bind_null") | SYM(bind_text, "sqlite3_bind_text") |
              SYM(bind_text64, "sqlite3_bind_text64") | SYM(column_int, "sqlite3_column_int") |
              SYM(column_int64, "sqlite3_column_int64") | SYM(column_text, "sqlite3_column_text") |
              SYM(column_bytes, "sqlite3_column_bytes");
    /* Stays loaded for the life of the process (handles may be open). */
    if (bad != 0)
        return;
    active = &loaded;
    ready = 1;
}

const mv_sqlite_fns *mv_sqlite(void) {
    pthread_once(&load_once, load);
    return active;
}

int mv_sqlite_ready(void) {
    pthread_once(&load_once, load);
    return ready;
}
