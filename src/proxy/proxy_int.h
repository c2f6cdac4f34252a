/*
 * Internals of the runtime guard (include/mcpvet/proxy.h), shared by
 * frame.c (newline-delimited framing over non-blocking descriptors: a line
 * reader that refuses over-cap lines without buffering them, a write queue,
 * and a lenient id finder for messages that cannot be parsed), guard.c
 * (scanning lists and results, the store, the policy and the per-session
 * view of what is allowed) and proxy.c (the poll() loop and the JSON-RPC
 * bookkeeping).
 */
#ifndef MCPVET_PROXY_INT_H
#define MCPVET_PROXY_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "mcpvet/buf.h"
#include "mcpvet/engine.h"
#include "mcpvet/proxy.h"
#include "mcpvet/store.h"

/* ---------------------------------------------------------------- frame */

/* Bytes of an over-cap line kept to find its id. */
#define PX_PREFIX 4096u

typedef struct px_reader {
    int fd;
    char *buf;
    size_t start, len, cap; /* unconsumed bytes are buf[start, start+len) */
    size_t scanned;         /* bytes after start known to hold no newline */
    uint64_t max;           /* longest accepted line */
    bool eof;
    bool skipping;          /* discarding the rest of an over-cap line */
    uint64_t total;         /* bytes read */
    char prefix[PX_PREFIX]; /* the start of the last over-cap line */
    size_t prefix_len;
} px_reader;

enum { PX_NONE = 0, PX_LINE = 1, PX_OVERSIZE = 2, PX_END = 3 };

void px_reader_init(px_reader *r, int fd, uint64_t max);
void px_reader_free(px_reader *r);
/* One read(): 1 when bytes came, 0 at end of file (eof set), -1 on an error
 * (errno), or 1 with nothing read when it would block. */
int px_reader_fill(px_reader *r);
/* The next complete line (without "\n" or "\r\n"; blank lines skipped):
 * PX_LINE with line and len valid until the next fill; PX_OVERSIZE once per
 * over-cap line, as soon as it is known (its start is in r->prefix; the
 * rest is discarded as it arrives); PX_NONE when no whole line is buffered
 * yet; PX_END at end of file with nothing left. */
int px_reader_next(px_reader *r, const char **line, size_t *len);

typedef struct px_queue {
    int fd;
    char *buf;
    size_t start, len, cap;
    bool broken; /* a write failed: the other side is gone */
} px_queue;

void px_queue_init(px_queue *q, int fd);
void px_queue_free(px_queue *q);
/* Append one message and its newline. 0 or MV_ENOMEM. */
int px_queue_push(px_queue *q, const char *msg, size_t len);
/* The same, but when nothing is waiting and `now`, first write what the
 * descriptor takes straight from `msg` (no copy into the queue); only
 * the rest is queued. A failed write sets broken. 0 or MV_ENOMEM. */
int px_queue_send(px_queue *q, const char *msg, size_t len, bool now);
/* Write what the descriptor takes now. 0, or -1 when the other side is gone
 * (broken set). */
int px_queue_flush(px_queue *q);

/* The top-level "id" of a JSON object that could not be parsed whole (an
 * over-cap prefix, a message with a duplicate key): its JSON text (a number
 * or a string, at most 256 bytes) into out, re-checked by the strict
 * parser. false when none is found. */
bool px_find_id(const char *s, size_t len, mv_buf *out);

/* ------------------------------------------------- the relay, without I/O */

/* The relay's message handling (proxy.c) without its poll() loop or a
 * server process, for fuzz/fuzz_proxy.c and tests: each line is handled
 * exactly as the loop handles a line read from that side, and what would
 * be written to each side waits in its queue until taken. The options are
 * those of mv_proxy_run (argv names the store identity; nothing is
 * started). */
typedef struct px_session px_session;
int px_session_new(px_session **out, const mv_proxy_options *o, mv_error *err);
void px_session_free(px_session *s);
void px_session_client_line(px_session *s, const char *line, size_t len);
void px_session_server_line(px_session *s, const char *line, size_t len);
/* An over-cap message whose first `len` bytes are `prefix`. */
void px_session_oversize(px_session *s, const char *prefix, size_t len, bool from_client);
/* Wait for the result scans still pending and record them (their log
 * lines and audit events), as the relay does before it ends. */
void px_session_settle(px_session *s);
/* Append what waits for the agent (to_client) or the server to `out` and
 * empty that queue. */
void px_session_take(px_session *s, bool to_client, mv_buf *out);
/* Parse every message whole (mv_json_parse) instead of lazily: the
 * relay as it was, for tests that compare the two. */
void px_session_full_parse(px_session *s);
/* The id of the proxy's own tools/list in flight, NULL when none. */
const char *px_session_refresh_id(const px_session *s);

/* ------------------------------------------------------------- the guard */

/* The lists the guard rewrites, in the store's item kinds. The server's
 * instructions (initialize's result) are decided as a list of at most one
 * item (kind MV_ITEM_INSTRUCTIONS, named "server_instructions") so they go
 * through the same scan, store and policy; they are no method's list, so
 * they come after the PX_METHOD_LISTS lists a request can ask for. */
typedef enum px_list {
    PX_TOOLS = 0,
    PX_PROMPTS,
    PX_RESOURCES,
    PX_TEMPLATES,
    PX_INSTRUCTIONS,
    PX_LIST_COUNT
} px_list;

/* The lists a "x/list" request names (tools .. resource templates). */
#define PX_METHOD_LISTS 4

/* The key of the list in a result ("tools", "prompts", "resources",
 * "resourceTemplates", "instructions") and its method ("initialize" for the
 * instructions). */
const char *px_list_key(px_list l);
const char *px_list_method(px_list l);
mv_item_kind px_list_kind(px_list l);

/* What the session knows about one advertised item. */
typedef struct px_entry {
    char *name;
    size_t name_len;
    bool allowed;
    bool audit_only; /* allowed only because the policy is audit */
    mv_tool_state state;
    bool needs_force; /* quarantined: approval needs --force */
    char *reason;     /* why it is blocked (NULL when allowed) */
    char *definition; /* canonical definition (for fail-closed comparisons) */
    size_t definition_len;
} px_entry;

typedef struct px_view {
    px_entry *v; /* sorted by name (bytes) */
    size_t n;
    bool known; /* a whole list was seen this session */
} px_view;

void px_view_free(px_view *view);
const px_entry *px_view_find(const px_view *view, const char *name, size_t len);

typedef struct px_guard px_guard;

typedef struct px_guard_config {
    mv_proxy_policy policy;
    mv_proxy_results results;
    const char *name;
    mv_server_ident ident;
    mv_store *store; /* borrowed, or NULL */
    /* Engines shared by several guards (the HTTP front's sessions), borrowed;
     * NULL = the guard makes its own (px_guard_engines_new). */
    mv_engine *engine, *results_engine;
    const char *store_path; /* to open when store is NULL */
    FILE *log;
    int64_t (*clock)(void *arg);
    void *clock_arg;
    /* Results under --results warn are scanned off the front's thread
     * (see "Results off the relay's thread" in guard.c): at most this many
     * wait for the scan worker (<= 0: none; every result is scanned where
     * it is handled, before it is passed on). */
    int scan_queue;
    /* Who records a finished scan (its log line, audit event, counter):
     * NULL (the stdio relay): the front's own thread, in
     * px_guard_scans_collect (px_guard_scans_fd says when); not NULL (the
     * HTTP front): the worker itself, holding this mutex, which the front
     * holds around every guard call that may touch the store. */
    pthread_mutex_t *lock;
} px_guard_config;

/* The two engines a guard uses: every check (lists) and only
 * unicode.hidden and payload.decoded (results). 0 or a negative MV_E*. */
int px_guard_engines_new(mv_engine **lists, mv_engine **results, mv_error *err);

int px_guard_new(px_guard **out, const px_guard_config *cfg, mv_error *err);
void px_guard_free(px_guard *g);

/* Logging: "mcpvet proxy NAME: message", rendered safe, one line. */
void px_log(px_guard *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The capabilities a server announced (initialize or server/discover):
 * lists it does not announce count as complete and empty. */
void px_guard_capabilities(px_guard *g, const mv_jv *capabilities);

/* One page of a list. `first` is a page requested without a cursor (it
 * starts the list over), `last` one without nextCursor. Decides every item
 * of the page: allow[i] (n_items entries) says which ones pass. A failure
 * of the scan or the store never fails the call: what is not known to be
 * allowed is blocked (audit: everything passes) and the reason is logged.
 * `internal`: a list the proxy asked for itself. Returns 0 or MV_ENOMEM. */
int px_guard_list_page(px_guard *g, px_list list, const mv_jv *items, bool first, bool last,
                       bool internal, bool *allow);

/* The session's view of a list (after its last page). */
const px_view *px_guard_view(const px_guard *g, px_list list);
/* Mark a list stale (list_changed): the next call lists again. */
void px_guard_stale(px_guard *g, px_list list);
bool px_guard_is_stale(const px_guard *g, px_list list);

/* A decision on tools/call: NULL when the call may go to the server, else
 * the error text for the agent (owned by the guard, valid until the next
 * call). Logs and records the block. */
const char *px_guard_call(px_guard *g, const char *name, size_t len);

/* A refresh failed: calls are decided without a list (blocked unless
 * audit). `why` is logged. */
void px_guard_list_failed(px_guard *g, px_list list, const char *why);

/* The replies whose text the guard scans. */
typedef enum px_result_kind {
    PX_RESULT_CALL = 0, /* tools/call: result.content[] */
    PX_RESULT_PROMPT,   /* prompts/get: result.messages[].content */
    PX_RESULT_READ,     /* resources/read: result.contents[] */
    /* Requests the server makes of the agent's client, scanned the same
     * way (px_guard_server_request): */
    PX_REQUEST_SAMPLING, /* sampling/createMessage: params.messages[].content,
                            params.systemPrompt */
    PX_REQUEST_ELICIT    /* elicitation/create: params.message */
} px_result_kind;

const char *px_result_method(px_result_kind kind);

/* Scan the text content of a tools/call, prompts/get or resources/read
 * result with the hidden-Unicode and payload checks, and apply --results
 * (under warn with a scan queue: the texts are queued for the worker and
 * 0 is returned at once; the finding is logged and noted when its scan
 * is recorded).
 * `name` is the tool or prompt name or the resource URI (for the log and
 * the audit event). Returns 0 (out untouched: pass the original), 1 (out
 * holds the replacement message for the agent), 2 (only for the requests
 * of the server under block: out holds the error reply for the server),
 * or MV_ENOMEM. `root` is
 * the tree of the whole response. */
int px_guard_result(px_guard *g, px_result_kind kind, const char *name, size_t name_len,
                    const mv_jv *root, mv_buf *out);

/* A request the server makes of the agent's client (`root` its tree) whose
 * text the guard scans like a result, per --results: sampling/createMessage
 * (its messages' text and system prompt) and elicitation/create (its
 * message). Returns 0 (pass the original bytes; under warn the scan may
 * still be pending), 1 (`out` holds the request to pass instead: hidden
 * characters removed), 2 (`out` holds the error reply for the server; the
 * agent gets nothing) or MV_ENOMEM. Other messages: 0. */
int px_guard_server_request(px_guard *g, const mv_jv *root, mv_buf *out);
/* Whether px_guard_server_request scans this message. */
bool px_server_request_scanned(const mv_jv *root);

/* The instructions of an initialize (or server/discover) result (`text`
 * the "instructions" member, NULL when there is none): decided like a list
 * of one item. *allow says whether they may reach the agent; when they may
 * not, the log line and the audit event say why and how a person approves
 * them. Returns 0 or MV_ENOMEM. */
int px_guard_instructions(px_guard *g, const mv_jv *text, bool *allow);

/* Results off the relay's thread (guard.c). A result under --results
 * warn is copied (its texts) into a bounded queue and scanned by one
 * worker thread per guard, started on the first such result; the front
 * passes the result on at once.
 *
 * px_guard_scans_fd: a descriptor that becomes readable when finished
 * scans wait to be recorded by px_guard_scans_collect (cfg.lock NULL),
 * else -1. px_guard_scans_collect: record them (log line, audit event,
 * counter) in the order the results came; never blocks on a scan.
 * px_guard_scans_finish: wait for every pending scan, record it, and stop
 * the worker (a later result starts it again); the caller must not hold
 * cfg.lock. px_guard_free finishes them too. */
int px_guard_scans_fd(const px_guard *g);
void px_guard_scans_collect(px_guard *g);
void px_guard_scans_finish(px_guard *g);
/* Results queued for the worker, results scanned inline because the
 * queue was full, and the most jobs and text bytes that ever waited. */
typedef struct px_scan_stats {
    uint64_t queued, inline_full;
    size_t peak_jobs, peak_bytes;
} px_scan_stats;
void px_guard_scan_stats(px_guard *g, px_scan_stats *out);

/* Whether the guard holds no usable store (logged once). */
bool px_guard_store_ok(const px_guard *g);

/* Counters for the outcome. */
void px_guard_counts(const px_guard *g, uint64_t *blocked_calls, uint64_t *hidden_items,
                     uint64_t *result_findings);

/* How many list scans were reused (an unchanged list: see guard.c). */
uint64_t px_guard_scan_reuses(const px_guard *g);

/* Write a JSON string of `s` (render-safe for logs is separate). */
void px_json_string(mv_buf *b, const char *s, size_t len);

/* ---------------------------------------------------- messages (message.c)
 *
 * What both fronts (the stdio relay in proxy.c and the HTTP front in
 * http.c) do with a message, so the decisions cannot drift apart: which
 * requests the guard watches, what a reply becomes, the proxy's own
 * tools/list, and the replies the proxy writes itself. */

typedef enum px_rq_kind {
    PX_RQ_OTHER = 0, /* passed on, the reply too */
    PX_RQ_LIST,      /* a list the guard filters */
    PX_RQ_CALL,      /* tools/call: decided first, the result scanned */
    PX_RQ_INIT,      /* initialize / server/discover: capabilities */
    PX_RQ_PROMPT,    /* prompts/get: the result scanned */
    PX_RQ_READ       /* resources/read: the result scanned */
} px_rq_kind;

/* What a request of the agent is. `name` points into the request's tree
 * (a tool or prompt name, a resource URI). */
typedef struct px_request {
    px_rq_kind kind;
    px_list list;
    bool first_page; /* a list page requested without a cursor */
    const char *name;
    size_t name_len;
} px_request;

/* Classify a request (`method` a string, `params` may be NULL). Returns 0,
 * or -32602 with *why set when the guard cannot decide it (tools/call
 * without a string name). */
int px_request_classify(const mv_jv *method, const mv_jv *params, px_request *rq, const char **why);

/* Whether a batch element's method is one the guard must see alone. */
bool px_method_guarded(const mv_jv *method);

/* The reply to a request: the list filtered, the result scanned, the
 * capabilities noted. Returns 0 (pass the original bytes), 1 (`out` holds
 * the message to send instead) or MV_ENOMEM. */
int px_guard_reply(px_guard *g, const px_request *rq, const mv_jv *root, mv_buf *out);

/* A notification of the server: list_changed marks the list stale (the
 * next call lists again). */
void px_guard_notification(px_guard *g, const mv_jv *method);

/* JSON-RPC messages the proxy writes itself (appended to b). `id` is JSON
 * text (NULL = null). */
void px_write_error(mv_buf *b, const char *id, size_t id_len, int code, const char *message);
void px_write_blocked(mv_buf *b, const char *id, size_t id_len, const char *text);

/* The proxy's own tools/list request with string id `id`, the cursor (may
 * be NULL) and the agent's params._meta (JSON text, may be empty). */
void px_write_list_request(mv_buf *b, const char *id, const char *cursor, size_t cursor_len,
                           const mv_buf *meta);

/* A reply to the proxy's own tools/list (page `*pages`, counted up):
 * 1 and *cursor set when another page is needed, 0 when the list is
 * complete, -1 when it failed (logged and recorded with
 * px_guard_list_failed). MV_ENOMEM is reported as a failure. */
int px_guard_refresh_reply(px_guard *g, const mv_jv *root, bool first, unsigned *pages,
                           const mv_jv **cursor);

/* Pages the proxy's own tools/list follows. */
#define PX_MAX_PAGES 100u

#endif
