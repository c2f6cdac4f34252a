/*
 * Pins and the approval store: mcpvet's memory of what a person approved.
 *
 * A tool's pin is the SHA-256 of its canonical definition (docs/pinning.md:
 * the canonical JSON of name, title, description, inputSchema, outputSchema
 * and annotations, as the model writes it into mv_tool.definition when
 * mv_model_options.keep_definitions is set). A server's identity is the
 * SHA-256 of its configured name and how it is reached (transport, command,
 * arguments and working directory, or URL).
 *
 * The store is one SQLite file (WAL mode, synchronous=FULL, busy_timeout so
 * concurrent processes wait) holding servers, tools with their state and
 * pins, and an append-only audit log. Default path:
 * $XDG_STATE_HOME/mcpvet/store.db, else ~/.local/state/mcpvet/store.db
 * (directory 0700, file 0600). A file that is not an mcpvet store (not
 * SQLite, or SQLite of another application) is an error naming the path and
 * is never modified; a store written by a newer mcpvet is refused.
 *
 * States (DESIGN.md, "Pinning and the state machine"):
 *   pending      seen, never approved
 *   approved     a person approved this exact pin under this server identity
 *   changed      approved before, the definition (or the server identity)
 *                differs now -- a rug pull until approved again
 *   quarantined  a hard or dangerous finding (or a person quarantined it);
 *                approval needs force
 *   removed      no longer advertised; pins and approval are kept
 * Every transition is one transaction that also appends an audit event.
 *
 * Typical use by the pipeline after a scan:
 *     mv_store *st; mv_store_open(&st, NULL, &(mv_store_options){.create = true}, &err);
 *     mv_scan_server s = {.ident = ..., .items = items, .n_items = n};
 *     mv_store_scan_result *r;
 *     mv_store_apply_scan(st, &s, 1, now, MV_ACTOR_CLI, &r, &err);
 *     ... r->servers[0].items[i].state for the report; mv_store_scan_fails(r, false) ...
 *     mv_store_scan_result_free(r); mv_store_close(st);
 *
 * A store handle is used by one thread at a time; several processes (or
 * several handles) may use one file at once.
 */
#ifndef MCPVET_STORE_H
#define MCPVET_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/config.h"
#include "mcpvet/engine.h"
#include "mcpvet/tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- pins */

/* A SHA-256 as 64 lowercase hex digits and a NUL. */
#define MV_PIN_HEX 65

/* The members of a definition that have their own hash, in this order. */
typedef enum mv_pin_field {
    MV_PIN_NAME = 0,
    MV_PIN_TITLE,
    MV_PIN_DESCRIPTION,
    MV_PIN_INPUT_SCHEMA,
    MV_PIN_OUTPUT_SCHEMA,
    MV_PIN_ANNOTATIONS,
    MV_PIN_FIELD_COUNT
} mv_pin_field;

/* "name", "title", "description", "inputSchema", "outputSchema",
 * "annotations". Never NULL ("?" out of range). */
const char *mv_pin_field_name(mv_pin_field f);

typedef struct mv_tool_pin {
    char pin[MV_PIN_HEX];  /* SHA-256 of the canonical definition */
    char body[MV_PIN_HEX]; /* SHA-256 of the canonical definition without "name":
                              equal bodies under different names are a rename */
    /* SHA-256 of each member's canonical value; "" when the member is absent. */
    char fields[MV_PIN_FIELD_COUNT][MV_PIN_HEX];
} mv_tool_pin;

/*
 * Pin a canonical definition (mv_tool.definition). The text is parsed
 * strictly and must be exactly canonical (re-canonicalizing it gives the
 * same bytes), an object whose members are only the six pinned fields,
 * with a non-empty string "name". Returns 0, MV_EPARSE (err says what is
 * wrong), MV_EINVAL or MV_ENOMEM. `alloc` NULL = default.
 */
int mv_pin_tool(mv_tool_pin *out, const char *definition, size_t len, const mv_allocator *alloc,
                mv_error *err);

/* Bit (1u << field) for each field whose hash differs between a and b
 * (present in one and absent in the other counts as different). */
unsigned mv_pin_changed_fields(const mv_tool_pin *a, const mv_tool_pin *b);

/* How a server is reached. Strings are borrowed. */
typedef struct mv_server_ident {
    const char *name;      /* the configured name; required, non-empty */
    const char *transport; /* "stdio", "http", "sse", or "file" for a server read from a
                              tools file or snapshot; required */
    const char *command;   /* stdio: the command (NULL otherwise) */
    const char *const *args;
    size_t n_args;
    const char *cwd; /* stdio: working directory, NULL = inherited */
    const char *url; /* http, sse: the URL (NULL otherwise) */
} mv_server_ident;

/* Borrow a configured server's identity (strings stay owned by cfg). */
void mv_server_ident_from_config(mv_server_ident *out, const mv_server_config *cfg);

/*
 * The identity hash (SHA-256 of the canonical JSON {"args","command","cwd",
 * "name","transport","url"}, absent members left out, docs/pinning.md) and
 * a display form of how the server is reached for people: the command and
 * arguments (shell-quoted where needed; credential arguments masked as
 * "***" by the rules of mv_config_arg_mask) or the URL with any user
 * information, query and fragment replaced by "..." (they may hold tokens;
 * the hash still covers every argument and the whole URL). `display` may be
 * NULL.
 * Returns 0, MV_EINVAL (no name or transport) or MV_ENOMEM.
 */
int mv_pin_server(char out[MV_PIN_HEX], mv_buf *display, const mv_server_ident *id);

/* --------------------------------------------------------------- store */

typedef enum mv_tool_state {
    MV_STATE_NONE = 0, /* "none": not in the store (a new tool's previous state) */
    MV_STATE_PENDING,
    MV_STATE_APPROVED,
    MV_STATE_CHANGED,
    MV_STATE_QUARANTINED,
    MV_STATE_REMOVED
} mv_tool_state;

/* "none", "pending", "approved", "changed", "quarantined", "removed". */
const char *mv_tool_state_name(mv_tool_state s);
/* The state named `s`, or MV_STATE_NONE for an unknown name (or "none"). */
mv_tool_state mv_tool_state_parse(const char *s);

/* Who made a change (the audit log's "actor"). */
typedef enum mv_actor {
    MV_ACTOR_CLI = 0,
    MV_ACTOR_REST,
    MV_ACTOR_MCP,
    MV_ACTOR_PROXY,
    MV_ACTOR_WEB
} mv_actor;
/* "cli", "rest", "mcp", "proxy", "web". */
const char *mv_actor_name(mv_actor a);

typedef struct mv_store mv_store;

typedef struct mv_store_options {
    const mv_allocator *allocator; /* NULL = default; used for every allocation of the
                                      store module (SQLite's own memory is its own) */
    /* Create the file (and, for the default path, its directories) when it
     * does not exist. Off: a missing store is MV_ENOTFOUND. */
    bool create;
    uint32_t busy_timeout_ms; /* how long to wait for another process; 0 = 30000 */
    /* Clock for the timestamps of approve, quarantine, forget and import
     * (seconds since the epoch); NULL = time(). apply_scan takes its time
     * from the caller. */
    int64_t (*clock)(void *arg);
    void *clock_arg;
} mv_store_options;

#define MV_STORE_DEFAULT_BUSY_TIMEOUT_MS 30000u
/* The schema version this binary writes (PRAGMA user_version). */
#define MV_STORE_SCHEMA_VERSION 2
/* PRAGMA application_id of an mcpvet store: "mcpv". */
#define MV_STORE_APPLICATION_ID 0x6d637076

/*
 * The default store path: $XDG_STATE_HOME/mcpvet/store.db when
 * XDG_STATE_HOME is set to an absolute path, else
 * $HOME/.local/state/mcpvet/store.db. `getenv_fn` NULL = getenv. Appends to
 * `out`; returns 0, MV_EINVAL (neither variable usable) or MV_ENOMEM.
 */
int mv_store_default_path(mv_buf *out, const char *(*getenv_fn)(void *arg, const char *name),
                          void *getenv_arg);

/*
 * Open (and with opts->create, create) the store at `path` (NULL = the
 * default path). Creates a new file 0600, and the default path's missing
 * directories 0700. Migrates an older schema forward in one transaction.
 * Errors name the path: MV_ENOTFOUND (missing, create off), MV_ECORRUPT
 * (not SQLite, SQLite of another application, or failing SQLite's checks;
 * the file is left untouched), MV_EUNSUPPORTED (written by a newer mcpvet),
 * MV_EIO, MV_ENOMEM. On failure *out is NULL.
 */
int mv_store_open(mv_store **out, const char *path, const mv_store_options *opts, mv_error *err);

/* Close the handle. NULL is a no-op. */
void mv_store_close(mv_store *st);

/* The path the store was opened with. */
const char *mv_store_path(const mv_store *st);

/* One advertised item of a scanned server. */
typedef struct mv_scan_item {
    mv_str name;
    mv_item_kind kind;
    mv_str definition;  /* canonical definition (mv_tool.definition), required */
    mv_verdict verdict; /* MV_VERDICT_QUARANTINE = a hard or dangerous finding */
    mv_str findings;    /* JSON summary of the findings, stored as given (shown by
                           `security approve` and `list --format json`); may be empty */
    /* Pin on first use (the proxy's tofu policy): an item the store has
     * never seen, that this scan decides pending and whose name no item of
     * another kind of the server carries (stored in any state, or in this
     * scan), is recorded approved at once, exactly as a following
     * mv_store_approve of its name would record it (approved pin,
     * definition and identity; a second event, pending -> approved, at the
     * scan's time, with mv_scan_server.pin_reason, after the scan's other
     * events). Anything else is left to the caller. */
    bool pin_if_new;
} mv_scan_item;

typedef struct mv_scan_server {
    mv_server_ident ident;
    const mv_scan_item *items;
    size_t n_items;
    /* The list is incomplete (a cap stopped it): tools missing from it are
     * not marked removed. A server that could not be scanned at all must not
     * be passed. */
    bool partial;
    const char *pin_reason; /* reason of the pin_if_new approvals; NULL = "approved" */
} mv_scan_server;

/* What one scan did to one item. */
typedef struct mv_store_item_result {
    mv_tool_state state;     /* after the scan */
    mv_tool_state previous;  /* before; MV_STATE_NONE for a new tool */
    unsigned changed_fields; /* mv_pin_changed_fields against the approved definition;
                                0 when never approved or unchanged */
    mv_str renamed_from;     /* a vanished tool of this server with the same body, else
                                empty (the tool is still new: pending or quarantined) */
    bool pinned;             /* pinned on first use (mv_scan_item.pin_if_new): state is
                                approved */
} mv_store_item_result;

typedef struct mv_store_server_result {
    mv_str name;
    bool new_server;             /* first time in the store */
    bool identity_changed;       /* its identity differs from the one stored before this scan:
                                    every approved tool became changed */
    mv_str previous_reached;     /* display form of the previous identity when changed */
    mv_store_item_result *items; /* parallel to mv_scan_server.items */
    size_t n_items;
    mv_str *removed; /* tools this scan marked removed */
    size_t n_removed;
} mv_store_server_result;

typedef struct mv_store_scan_result {
    mv_store_server_result *servers; /* parallel to the servers passed in */
    size_t n_servers;
    size_t n_transitions; /* events appended */
    mv_arena *arena;      /* owns everything above */
} mv_store_scan_result;

/*
 * Apply one scan (DESIGN.md state machine, docs/pinning.md): per server,
 * update the identity, each item's state, pins, verdict and findings, mark
 * tools missing from a complete list removed, detect renames, and append
 * one event per transition -- all in ONE transaction (all or nothing). An
 * item stored unchanged that is applied again at the same `now` (a client
 * listing again within a second) is not written again. The statements are
 * prepared on the first call and kept with the handle.
 * `now` is the scan time (seconds since the epoch), `actor` who scanned.
 * Pins are computed here, never taken from the caller: a definition the
 * store does not already hold under its SHA-256 is parsed strictly and must
 * be canonical (mv_pin_tool); a bad one fails the whole call (nothing is
 * written) with err->where = "servers[i].items[j]". Duplicate (kind, name) in one
 * server and one server twice are MV_EINVAL. `out` may be NULL.
 */
int mv_store_apply_scan(mv_store *st, const mv_scan_server *servers, size_t n_servers, int64_t now,
                        mv_actor actor, mv_store_scan_result **out, mv_error *err);

void mv_store_scan_result_free(mv_store_scan_result *r);

/*
 * Group several operations (apply_scan, approve, note...) into one
 * transaction, so they cost one commit (one sync to disk) instead of one
 * each: each operation still succeeds or fails whole (a savepoint inside
 * the batch), and nothing is visible to other handles before the batch
 * ends. begin: 0, MV_EINVAL (a batch is open), MV_EBUSY/MV_EIO. end with
 * commit = false discards everything done in the batch.
 */
int mv_store_batch_begin(mv_store *st, mv_error *err);
int mv_store_batch_end(mv_store *st, bool commit, mv_error *err);

/* True when the scan must fail a CI run: some item is quarantined or
 * changed, or a server's identity changed, or (fail_on_pending) some item
 * is pending. NULL is false. */
bool mv_store_scan_fails(const mv_store_scan_result *r, bool fail_on_pending);

/* A tool as the store holds it. Strings are NUL-terminated, owned by the
 * list; NULL when absent. */
typedef struct mv_store_tool {
    const char *server;
    const char *name;
    mv_item_kind kind;
    mv_tool_state state;
    mv_tool_state previous; /* removed tools: the state before removal */
    const char *approved_pin;
    const char *current_pin;
    const char *approved_definition; /* only with mv_store_filter.definitions */
    const char *current_definition;  /* only with mv_store_filter.definitions */
    unsigned changed_fields;         /* approved vs current (see mv_pin_changed_fields) */
    const char *verdict;             /* "clean", "review", "quarantine"; NULL before any scan */
    const char *findings;            /* JSON summary of the last scan, NULL when none */
    const char *renamed_from;
    bool forced;            /* the approval was forced past a quarantine */
    bool manual_quarantine; /* a person quarantined it (a scan never lifts that) */
    bool identity_changed;  /* approved under another server identity */
    int64_t first_seen, last_seen, state_since;
    /* The store's row ids of the tool and its server: short, URL-safe handles
     * for one store file. A forgotten tool's id may be given to a later one,
     * so a decision by id should also name the pin it saw. */
    int64_t id, server_id;
} mv_store_tool;

typedef struct mv_store_tool_list {
    mv_store_tool *tools; /* ordered by server, then kind, then name (bytes) */
    size_t n;
    mv_arena *arena;
} mv_store_tool_list;

typedef struct mv_store_filter {
    const char *server;  /* NULL = every server */
    const char *tool;    /* NULL = every tool (needs server) */
    mv_tool_state state; /* MV_STATE_NONE = every state */
    bool definitions;    /* also load both canonical definitions */
} mv_store_filter;

int mv_store_list(mv_store *st, const mv_store_filter *filter, mv_store_tool_list **out,
                  mv_error *err);
void mv_store_tool_list_free(mv_store_tool_list *l);

/* A page of tools by filter, for the review queue at scale: the filter,
 * order and page are applied by SQLite, so memory is one page. */
typedef struct mv_store_query {
    const char *server;   /* exact server name; NULL = every server */
    int64_t server_id;    /* the server's row id; 0 = every server */
    int64_t id;           /* one tool's row id; 0 = every tool */
    unsigned states;      /* bits (1u << mv_tool_state); 0 = pending, changed, quarantined */
    const char *verdict;  /* "clean", "review", "quarantine", "none" (never scanned); NULL = any */
    const char *text;     /* substring of the tool or server name, ASCII letters
                             case-insensitive; NULL or "" = any */
    size_t offset, limit; /* the page; limit 0 = every match */
    bool definitions;     /* also load both canonical definitions */
} mv_store_query;

/*
 * Tools matching q, newest state first (state_since), ties by server, kind
 * and name (bytes): a stable order. *total (may be NULL) is the number of
 * matches ignoring offset and limit. Returns 0, MV_EINVAL or the store's
 * error.
 */
int mv_store_query_tools(mv_store *st, const mv_store_query *q, mv_store_tool_list **out,
                         size_t *total, mv_error *err);

typedef struct mv_store_queue_server {
    const char *name;
    int64_t id; /* the server's row id */
    size_t pending, changed, quarantined;
} mv_store_queue_server;

typedef struct mv_store_queue_counts {
    size_t pending, changed, quarantined; /* every server */
    size_t n_servers_total;               /* servers with queued tools matching server_text */
    mv_store_queue_server *servers;       /* the requested page of those, by name */
    size_t n;
    mv_arena *arena;
} mv_store_queue_counts;

/* Counts of the review queue (pending, changed, quarantined tools) in all
 * and per server; the servers whose name contains server_text (ASCII
 * case-insensitive; NULL = all) are paged by offset and limit (0 = all). */
int mv_store_queue_summary(mv_store *st, const char *server_text, size_t offset, size_t limit,
                           mv_store_queue_counts **out, mv_error *err);
void mv_store_queue_counts_free(mv_store_queue_counts *q);

/* The old half of a rename: a removed tool of the same server and kind,
 * either recorded as renamed_from at scan time (same body: exact) or the
 * most alike of the 32 most recently removed with a rename score of at
 * least MV_RENAME_PERMILLE. */
typedef struct mv_store_rename {
    mv_store_tool_list *from; /* NULL: no rename; else one tool, definitions loaded */
    unsigned permille;
    bool exact;
} mv_store_rename;

/* Look for the rename `t` is the new half of (t needs its definitions;
 * only a tool never approved and not removed can be one). Returns 0 (with
 * out->from NULL when there is none) or the store's error. */
int mv_store_find_rename(mv_store *st, const mv_store_tool *t, mv_store_rename *out, mv_error *err);
void mv_store_rename_release(mv_store_rename *r);

/* A server as the store holds it. */
typedef struct mv_store_server {
    const char *name;
    const char *identity;
    const char *transport;
    const char *reached;          /* display form (mv_pin_server) */
    const char *previous_reached; /* before the last identity change, NULL if none */
    int64_t first_seen, last_seen;
    size_t n_tools;
    bool identity_changed; /* some approval was made under another identity */
} mv_store_server;

typedef struct mv_store_server_list {
    mv_store_server *servers; /* by name */
    size_t n;
    mv_arena *arena;
} mv_store_server_list;

int mv_store_servers(mv_store *st, mv_store_server_list **out, mv_error *err);
void mv_store_server_list_free(mv_store_server_list *l);

typedef struct mv_store_approve_result {
    size_t n_approved;  /* tools that moved to approved */
    size_t n_unchanged; /* already approved at this pin */
    /* Quarantined targets: refused without force (nothing was changed then),
     * approved with force. With findings, for printing. */
    mv_store_tool_list *quarantined;
} mv_store_approve_result;

/*
 * Approve the current definition of `tools` (n_tools names; n_tools == 0 =
 * every tool of the server that is not removed) of `server`. All or
 * nothing: when a target is quarantined and `force` is false nothing is
 * approved and MV_EQUARANTINED is returned with res->quarantined listing
 * them (and their findings). Unknown server or tool, or a removed tool
 * named explicitly: MV_ENOTFOUND. `reason` may be NULL. `res` may be NULL;
 * when given it must be released with mv_store_approve_result_release.
 */
int mv_store_approve(mv_store *st, const char *server, const char *const *tools, size_t n_tools,
                     bool force, mv_actor actor, const char *reason, mv_store_approve_result *res,
                     mv_error *err);
void mv_store_approve_result_release(mv_store_approve_result *res);

/* Quarantine `tools` (n_tools == 0 = every tool that is not removed) by a
 * person's decision: a later scan never lifts it; approval needs force.
 * *n_changed (may be NULL) counts tools that changed state. MV_ENOTFOUND as
 * for approve. */
int mv_store_quarantine(mv_store *st, const char *server, const char *const *tools, size_t n_tools,
                        mv_actor actor, const char *reason, size_t *n_changed, mv_error *err);

/* Forget a tool (or with tool NULL a whole server and its tools): its pins
 * and approval are deleted; the audit log keeps its history and records the
 * forget. MV_ENOTFOUND when nothing matches. */
int mv_store_forget(mv_store *st, const char *server, const char *tool, mv_actor actor,
                    const char *reason, mv_error *err);

/*
 * Append an audit event that changes no state: a decision an entry point
 * took on its own (the proxy leaving a tool out of a list, refusing a
 * call, finding hidden text in a tool's result). `tool` with a NULL ptr is
 * a server-level event; `kind` is then ignored. The event has no old or new
 * state and no pins; `reason` (required) says what was decided and why.
 * The server need not be in the store. One statement, durable on return.
 * Returns 0, MV_EINVAL or the store's error (err names the store path).
 */
int mv_store_note(mv_store *st, const char *server, mv_item_kind kind, mv_str tool, mv_actor actor,
                  const char *reason, mv_error *err);

/* One audit event. */
typedef struct mv_store_event {
    int64_t id;
    int64_t time;
    const char *actor;
    const char *server;
    const char *tool;                  /* NULL for server-level events */
    const char *kind;                  /* NULL for server-level events */
    const char *old_state, *new_state; /* NULL when none ("none") */
    const char *old_pin, *new_pin;
    const char *reason;
} mv_store_event;

typedef struct mv_store_event_list {
    mv_store_event *events; /* oldest first */
    size_t n;
    mv_arena *arena;
} mv_store_event_list;

/* Events of `server` (NULL = all) and `tool` (NULL = all), oldest first; at
 * most `limit` of the newest (0 = all). */
int mv_store_history(mv_store *st, const char *server, const char *tool, size_t limit,
                     mv_store_event_list **out, mv_error *err);
void mv_store_event_list_free(mv_store_event_list *l);

/* Write the pinned baseline (every approval: server identity, tool, pin and
 * approved canonical definition; format in docs/pinning.md) to `out`. */
int mv_store_export(mv_store *st, mv_buf *out, mv_error *err);

/*
 * Import a baseline (`source` names it in messages and the audit log):
 * parsed strictly, every pin re-computed from its definition and compared,
 * then applied in one transaction: each tool gets that approval; a tool not
 * in the store is created approved; a stored tool whose current pin differs
 * becomes changed (quarantined and removed tools keep their state). Any
 * error changes nothing (err names the JSON path). *n_tools (may be NULL)
 * counts imported approvals.
 */
int mv_store_import(mv_store *st, const char *data, size_t len, const char *source, mv_actor actor,
                    size_t *n_tools, mv_error *err);

/* ---------------------------------------------------------------- diff */

/*
 * A unified line diff (3 lines of context) of two canonical definitions,
 * each first pretty-printed render-safe (hidden characters as \uXXXX
 * escapes), labelled "--- label_a" / "+++ label_b". An empty or NULL side
 * is an empty text. Identical texts append nothing. Returns 0, MV_EPARSE (a
 * side is not JSON) or MV_ENOMEM.
 */
int mv_diff_definitions(mv_buf *out, const char *a, size_t alen, const char *b, size_t blen,
                        const char *label_a, const char *label_b, const mv_allocator *alloc);

/* A unified diff of two texts split at '\n' (Myers' algorithm, with a cap on
 * the work: past it the whole texts are shown as replaced). */
int mv_diff_lines(mv_buf *out, const char *a, size_t alen, const char *b, size_t blen,
                  const char *label_a, const char *label_b, unsigned context,
                  const mv_allocator *alloc);

/* --------------------------------------------------- character diffs */

/* How finely a text diff could be computed within its caps: code points,
 * words (runs of letters and digits, runs of spaces, single other
 * characters), lines, or the whole text shown as replaced. */
typedef enum mv_diff_mode {
    MV_DIFF_CHAR = 0,
    MV_DIFF_WORD,
    MV_DIFF_LINE,
    MV_DIFF_WHOLE
} mv_diff_mode;

/* "char", "word", "line", "whole". */
const char *mv_diff_mode_name(mv_diff_mode m);

/* One piece of a text diff: '=' kept (text from a), '-' deleted (from a),
 * '+' inserted (from b). Text is raw (borrowed from the inputs): render it
 * safe before showing it. Pieces never split a UTF-8 sequence. */
typedef struct mv_diff_span {
    char op;
    mv_str text;
} mv_diff_span;

typedef struct mv_text_diff {
    mv_diff_span *spans; /* in order; deletions before insertions in each change */
    size_t n;
    mv_diff_mode mode; /* the finest mode that fit in the caps */
    size_t same;       /* bytes kept */
} mv_text_diff;

/* Caps of one diff; 0 = default (1024 edits, 16 Mi token comparisons). A
 * mode past either cap falls back to the next coarser one. */
typedef struct mv_diff_limits {
    size_t max_edits;
    size_t max_work;
} mv_diff_limits;

/*
 * Diff text a against b (Myers' algorithm on code points; past the caps on
 * words, then lines, then whole). Spans are allocated from `arena`, scratch
 * memory from `alloc` (NULL = default); time is O((N + M) * max_edits) and
 * scratch memory O(N + M + max_edits^2) at most. NULL texts are empty.
 * Returns 0 or MV_ENOMEM (*out is then zeroed).
 */
int mv_diff_text(mv_text_diff *out, mv_arena *arena, const char *a, size_t alen, const char *b,
                 size_t blen, const mv_diff_limits *limits, const mv_allocator *alloc);

/* 2 * kept / (alen + blen), in thousandths (1000 = identical). */
unsigned mv_diff_permille(const mv_text_diff *d, size_t alen, size_t blen);

/* One string of a definition that differs: at the same JSON Pointer
 * (RFC 6901, raw key bytes) in both ('~'), only in a ('-') or only in b
 * ('+'; the missing side is empty). */
typedef struct mv_diff_string {
    mv_str path; /* "/description", "/inputSchema/properties/path/description" */
    char change;
    mv_str a, b; /* raw decoded strings */
    mv_text_diff diff;
} mv_diff_string;

typedef struct mv_definition_diff {
    mv_diff_string *strings; /* ordered by path (bytes) */
    size_t n;
    bool truncated; /* more than 8192 strings in a side, or more than 256 differ */
    mv_arena *arena;
} mv_definition_diff;

/*
 * Every string (object member values and array items, at any depth) that
 * differs between two definitions (canonical or any JSON; empty or NULL =
 * no strings), each with its character diff. Returns 0, MV_EPARSE or
 * MV_ENOMEM. Free with mv_definition_diff_free (NULL is a no-op).
 */
int mv_diff_definition_strings(mv_definition_diff **out, const char *a, size_t alen, const char *b,
                               size_t blen, const mv_allocator *alloc);
void mv_definition_diff_free(mv_definition_diff *d);

/* How alike two definitions are once their "name" members are left out,
 * in thousandths (mv_diff_permille of their canonical bodies). A tool
 * removed and one added with a score of at least MV_RENAME_PERMILLE is
 * shown as a rename. Returns 0, MV_EPARSE or MV_ENOMEM. */
#define MV_RENAME_PERMILLE 900u
int mv_diff_rename_score(unsigned *permille, const char *a, size_t alen, const char *b, size_t blen,
                         const mv_allocator *alloc);

#ifdef __cplusplus
}
#endif
#endif
