/*
 * The operations behind both servers -- the REST API (`mcpvet serve`) and
 * the MCP tool `quarantine_security` (`mcpvet mcp`) -- so the two can never
 * answer differently: each operation is one call into the shared pipeline
 * or the approval store, and writes its answer as one JSON document. REST
 * sends that document as the response body; the MCP tool returns it as the
 * tool result. Inline scans answer with exactly the report `mcpvet scan
 * --tools - --format json` prints.
 *
 * Every string taken from a tool, a server or a store (names, findings,
 * definitions, reasons) is written render-safe (mv_evidence_render or the
 * render-safe pretty printer), so a hidden character in a scanned tool
 * never reaches a browser, a terminal or a model as a live character.
 * Config secrets (env and header values) never appear in an answer.
 *
 * Thread-safe: one service is shared by every request thread. The store
 * handle is guarded by a mutex; concurrent scans are capped (a scan over
 * the cap is refused with 429 and a Retry-After, never queued without
 * bound). The detection engine is built once per service and shared by
 * every scan (it is read-only while scanning).
 */
#ifndef MV_SERVER_SERVICE_H
#define MV_SERVER_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/engine.h"
#include "mcpvet/store.h"

typedef struct mv_service_options {
    const char *store_path; /* NULL = the default store path */
    /* Client config files naming the servers a server scan may reach; none
     * = discover every known client config (as `mcpvet scan` does). */
    const char *const *configs;
    size_t n_configs;
    mv_actor actor;           /* who the audit log names: rest or mcp */
    unsigned max_scans;       /* scans running at once, 0 = 4 */
    unsigned scan_timeout_ms; /* per server: start-up and each request, 0 = 30000 */
    unsigned retry_after;     /* seconds suggested to a refused scan, 0 = 2 */
} mv_service_options;

typedef struct mv_service mv_service;

/* Open (creating when missing) the store. Returns 0, or the store's error
 * (err names the path), MV_ENOMEM. */
int mv_service_new(mv_service **out, const mv_service_options *o, mv_error *err);
/* Close the store. NULL is a no-op. No operation may run any more. */
void mv_service_free(mv_service *svc);

/* What an operation answered: an HTTP status and a JSON body, which for a
 * status >= 400 is {"error":{"code","message",...}}. */
typedef struct mv_service_reply {
    int status;
    mv_buf body;
    unsigned retry_after; /* 429/503: seconds, else 0 */
} mv_service_reply;

void mv_service_reply_init(mv_service_reply *r);
void mv_service_reply_release(mv_service_reply *r);

/* Replace the reply with an error: status, a stable code ("not_found",
 * "invalid_json"...) and a message (rendered safe). */
void mv_service_fail(mv_service_reply *r, int status, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* A JSON syntax error in a request body: 400 with the line and column of
 * `offset` in `data`. */
void mv_service_fail_json(mv_service_reply *r, const char *data, size_t len, size_t offset,
                          const char *message);

/* Line and column (1-based) of byte `offset` in `data`. */
void mv_service_position(const char *data, size_t len, size_t offset, int *line, int *column);

/* ------------------------------------------------------------ scans */

/* Scan a tools/list result or snapshot given inline (the request body):
 * the answer is the mcpvet.scan/1 report, byte for byte what `mcpvet scan
 * --tools - [--server SERVER] [--fail-on FAIL_ON] --format json` prints
 * for the same bytes. `server` may be NULL. No store is touched. */
void mv_service_scan_document(mv_service *svc, const char *data, size_t len, const char *server,
                              mv_verdict fail_on, mv_service_reply *r);

/* Reach the configured server(s) named `name`, scan what they advertise,
 * apply the scan to the store (the pipeline's decide step, one
 * transaction) and answer with the report including each tool's state.
 * 404 when no config names the server. */
void mv_service_scan_server(mv_service *svc, const char *name, mv_verdict fail_on,
                            mv_service_reply *r);

/* ------------------------------------------------------- the store */

/* {"store", "servers":[...], "configured":[...]}: what the store knows and
 * which servers the configs name (described without secrets). */
void mv_service_servers(mv_service *svc, mv_service_reply *r);

/* {"server", "tools":[...]} of one server, optionally only those in
 * `state` (MV_STATE_NONE = all). With `server` NULL every server's tools
 * (the MCP tool's `list`). `attention` keeps only pending, changed and
 * quarantined tools. 404 for an unknown server. */
void mv_service_tools(mv_service *svc, const char *server, mv_tool_state state, bool attention,
                      mv_service_reply *r);

/* One tool: its state, findings, the current definition (render-safe,
 * pretty-printed) and the diff against the approved one. 404 when unknown.
 * `diff_only` answers the REST diff endpoint (no definition text). */
void mv_service_tool(mv_service *svc, const char *server, const char *tool, bool diff_only,
                     mv_service_reply *r);

/* Approve `tools` (n == 0 with `all`) of `server`. 409 "quarantined" (with
 * the quarantined tools and their findings) when a target is quarantined
 * and `force` is false; nothing is approved then. */
void mv_service_approve(mv_service *svc, const char *server, const char *const *tools, size_t n,
                        bool all, bool force, const char *reason, mv_service_reply *r);

/* Quarantine `tools` (n == 0 = every tool) of `server` by a decision. */
void mv_service_quarantine(mv_service *svc, const char *server, const char *const *tools, size_t n,
                           const char *reason, mv_service_reply *r);

/* The same two decisions recorded under another actor than the service's
 * own (the review page's requests are audited as `web`). */
void mv_service_approve_by(mv_service *svc, mv_actor actor, const char *server,
                           const char *const *tools, size_t n, bool all, bool force,
                           const char *reason, mv_service_reply *r);
void mv_service_quarantine_by(mv_service *svc, mv_actor actor, const char *server,
                              const char *const *tools, size_t n, const char *reason,
                              mv_service_reply *r);

/* The review queue: pending, changed and quarantined tools of every
 * server, newest first, optionally of one `server` (NULL = all) and one
 * `state` (MV_STATE_NONE = all three; any other state is a 400), page
 * `page` (1-based) of `per_page`. {"total","page","per_page","pages",
 * "counts":{pending,changed,quarantined},"servers":[{name,pending,changed,
 * quarantined}],"tools":[...]}: counts and servers cover the whole queue,
 * total and tools the filtered part. */
void mv_service_queue(mv_service *svc, const char *server, mv_tool_state state, size_t page,
                      size_t per_page, mv_service_reply *r);

/* {"events":[...]} of the audit log, oldest first, at most `limit` newest
 * (0 = 1000). */
void mv_service_events(mv_service *svc, const char *server, const char *tool, size_t limit,
                       mv_service_reply *r);

/* --------------------------------------------------------- helpers */

/* Parse a "tools" member (array of strings, at most 4096; NULL = none) of
 * a request body into NUL-terminated copies allocated from `a`. Returns 0,
 * or -1 with the reply failed (400). */
struct mv_jv;
int mv_service_tool_names(const struct mv_jv *arr, mv_arena *a, const char ***names, size_t *n,
                          mv_service_reply *r);

#endif
