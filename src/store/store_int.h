/*
 * Private interface between the parts of the approval store: opening and
 * the schema (store.c), applying scans (scan.c), decisions and queries
 * (ops.c), baseline export and import (baseline.c). The contract is
 * include/mcpvet/store.h.
 */
#ifndef MV_STORE_INT_H
#define MV_STORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "mcpvet/store.h"
#include "sqlite_dl.h" /* <sqlite3.h>, its functions loaded on first use */

/* The statements mv_store_apply_scan runs for every tool, prepared on the
 * first scan and kept with the handle (scan.c): preparing them cost as
 * much as the writes of a small scan. Reset after each use, so they hold
 * no lock between calls. */
typedef struct st_scan_stmts {
    sqlite3_stmt *sel_server, *ins_server, *upd_identity, *upd_seen, *sel_tools, *ins_tool,
        *upd_tool, *upd_light, *upd_touch, *upd_state, *sel_approved;
} st_scan_stmts;

struct mv_store {
    sqlite3 *db;
    char *path;
    size_t path_size;
    const mv_allocator *alloc;
    uint32_t busy_ms;
    int64_t (*clock)(void *arg);
    void *clock_arg;
    sqlite3_stmt *event_stmt; /* the audit log insert, prepared once */
    st_scan_stmts scan;       /* all NULL until the first scan */
    /* mv_store_batch_begin was called: one outer transaction is open and
     * every operation's own transaction is a savepoint inside it. */
    bool batch;
};

/* SHA-256 of `len` bytes as lowercase hex (pin.c). Returns 0 or MV_ENOMEM
 * (the only way the digest fails). */
int st_sha256_hex(char out[MV_PIN_HEX], const void *data, size_t len);

/* Current time from the injected clock (seconds since the epoch). */
int64_t st_now(const mv_store *st);

/* Turn a failed SQLite call into an MV_E* code with a message naming the
 * store path and `what` was being done. Returns the code. */
int st_fail(mv_store *st, mv_error *err, int sqlrc, const char *what);

/* Run SQL without results. */
int st_exec(mv_store *st, const char *sql, mv_error *err);

/* BEGIN IMMEDIATE (the write lock up front, so a busy store is waited for
 * by the busy handler instead of failing at the first write) / COMMIT /
 * ROLLBACK (never fails the caller; errors are ignored). Inside a batch
 * (mv_store_batch_begin) they are SAVEPOINT / RELEASE / ROLLBACK TO: an
 * operation still succeeds or fails whole, and the batch commits once. */
int st_begin(mv_store *st, mv_error *err);
int st_commit(mv_store *st, mv_error *err);
void st_rollback(mv_store *st);

/* Finalize the kept scan statements (mv_store_close). */
void st_scan_stmts_free(mv_store *st);

/* Prepare a statement; NULL on error (err filled, *rc set). */
sqlite3_stmt *st_prepare(mv_store *st, const char *sql, int *rc, mv_error *err);

/* Bind helpers: NULL text binds NULL. */
int st_bind_text(sqlite3_stmt *s, int i, const char *text);
int st_bind_textn(sqlite3_stmt *s, int i, const char *text, size_t len);

/* Column text copied into `arena` (NULL stays NULL); sets *oom on failure. */
const char *st_col_dup(mv_arena *arena, sqlite3_stmt *s, int col, bool *oom);

/* Append one audit event. `old_state`/`new_state` MV_STATE_NONE = NULL;
 * tool.ptr NULL = a server-level event. */
int st_event(mv_store *st, int64_t time, mv_actor actor, const char *server, const char *kind,
             mv_str tool, mv_tool_state old_state, mv_tool_state new_state, const char *old_pin,
             const char *new_pin, const char *reason, mv_error *err);

/* Item kinds as stored ("tool", "prompt", ...) and back; -1 when unknown. */
int st_kind_parse(const char *s);

/* The state machine of a scan (docs/pinning.md, "State machine"). */
typedef struct st_decide_in {
    mv_tool_state state;    /* stored state, MV_STATE_NONE for a new tool */
    mv_tool_state previous; /* stored state before removal (state == removed) */
    bool has_approval;      /* an approved pin exists */
    bool match;             /* the scanned pin and server identity are the approved ones */
    bool forced;            /* that approval was forced past a quarantine */
    bool manual_quarantine; /* a person quarantined it */
    bool quarantine;        /* this scan's verdict is quarantine */
} st_decide_in;

mv_tool_state st_decide(const st_decide_in *in);

#endif
