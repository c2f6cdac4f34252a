/*
 * The runtime guard (`mcpvet proxy`): sits between an agent and one stdio
 * MCP server, relays JSON-RPC both ways and keeps what the approval store
 * does not allow away from the agent.
 *
 *   tools/list, prompts/list, resources/list, resources/templates/list
 *       replies are scanned (the shared pipeline), applied to the store as
 *       actor "proxy", and only the items the policy allows are passed on
 *   tools/call of a tool that is not allowed
 *       answered by the proxy with an error result saying why and how a
 *       person approves it; it never reaches the server
 *   notifications/tools/list_changed
 *       passed on; the next call first lists the tools again, so a rug pull
 *       in the middle of a session is caught even if the agent never lists
 *   tools/call results (and prompts/get, resources/read)
 *       text content scanned for hidden characters and decoded payloads;
 *       under --results warn on a worker thread after the result was
 *       passed on (a bounded queue: scan_queue below)
 *   sampling/createMessage, elicitation/create (requests of the server)
 *       their text scanned the same way (warn: logged; strip; block:
 *       the server gets an error, the agent nothing)
 *   everything else
 *       passed on byte for byte
 *
 * Robustness: every message is capped (over the cap: refused with an error,
 * never truncated), strict JSON only (a message two parsers could read
 * differently is refused), requests in flight are answered with an error
 * when the server exits, crashes or stays silent past the timeout, and the
 * relay ends when either side closes. A store that cannot be used fails
 * closed (audit fails open).
 */
#ifndef MCPVET_PROXY_H
#define MCPVET_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/store.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mv_server_config;

typedef enum mv_proxy_policy {
    MV_PROXY_TOFU = 0, /* approved pass; a new tool that is not quarantined is pinned on
                          first use (approved by actor proxy) and passes; changed and
                          quarantined are blocked */
    MV_PROXY_STRICT,   /* only approved items pass */
    MV_PROXY_AUDIT     /* nothing is blocked; what would be is logged */
} mv_proxy_policy;

typedef enum mv_proxy_results {
    MV_PROXY_RESULTS_WARN = 0, /* log a finding, pass the result unchanged */
    MV_PROXY_RESULTS_STRIP,    /* remove hidden characters, mark the result */
    MV_PROXY_RESULTS_BLOCK     /* replace a result with a finding by an error result */
} mv_proxy_results;

/* "tofu", "strict", "audit" / "warn", "strip", "block"; parse: 0 or -1. */
const char *mv_proxy_policy_name(mv_proxy_policy p);
int mv_proxy_policy_parse(mv_proxy_policy *out, const char *s);
const char *mv_proxy_results_name(mv_proxy_results r);
int mv_proxy_results_parse(mv_proxy_results *out, const char *s);

#define MV_PROXY_DEFAULT_MAX_MESSAGE (16ull * 1024 * 1024)
#define MV_PROXY_DEFAULT_TIMEOUT_MS 300000u
#define MV_PROXY_DEFAULT_LIST_TIMEOUT_MS 30000u
/* Results under --results warn waiting for the scan worker at most (and
 * at most MV_PROXY_SCAN_QUEUE_BYTES of their text, one result of any size
 * always fits): the bytes bound the memory, the count only many small
 * results (a job costs ~100 bytes besides its text); a loaded machine can
 * keep the worker off a CPU for tens of milliseconds. When the queue is
 * full the next result is scanned on the relay's thread as before (after
 * it was passed on), never skipped. */
#define MV_PROXY_DEFAULT_SCAN_QUEUE 4096
#define MV_PROXY_SCAN_QUEUE_BYTES (32u * 1024 * 1024)

typedef struct mv_proxy_options {
    mv_proxy_policy policy;
    mv_proxy_results results;
    /* The server's name in the store (required) and how it is started:
     * argv[0] is the command (searched in PATH), argv[1..argc) its
     * arguments. The store identity is (name, "stdio", command, args). */
    const char *name;
    const char *const *argv;
    size_t argc;
    /* When not NULL: the config entry the server came from (`--config`),
     * whose identity (mv_server_ident_from_config: the command and args as
     * written, cwd) replaces the one above, so the proxy pins and looks up
     * the same identity as `mcpvet scan` and `mcpvet security`. Borrowed. */
    const struct mv_server_config *config;
    /* The approval store: an open handle (borrowed), else `store_path`
     * (NULL = the default path) is opened, created when missing. */
    mv_store *store;
    const char *store_path;
    /* The agent's side: read requests from `client_in`, write to
     * `client_out` (the CLI passes 0 and 1). */
    int client_in, client_out;
    /* Log lines ("mcpvet proxy NAME: ..."), NULL = stderr. The server's own
     * stderr is copied to stderr (not to the log). */
    FILE *log;
    uint64_t max_message_bytes; /* one JSON-RPC message either way; 0 = 16 MiB */
    /* A request in flight is answered with an error when the server has
     * been silent this long (0 = 300 s); the proxy's own tools/list waits
     * list_timeout_ms (0 = 30 s). */
    uint32_t timeout_ms;
    uint32_t list_timeout_ms;
    /* Clock for the store (seconds since the epoch); NULL = time(). */
    int64_t (*clock)(void *arg);
    void *clock_arg;
    /* Results under --results warn waiting for the scan worker thread:
     * 0 = MV_PROXY_DEFAULT_SCAN_QUEUE, negative = no worker (each result
     * is scanned on the relay's thread right after it was passed on). */
    int scan_queue;
    /* When > 0 (0, the zeroed default, is never a stop channel): readable
     * means stop (the CLI's SIGTERM/SIGINT handler writes to it). The
     * session ends as when the agent closes it: requests in flight are
     * answered, pending scans are logged, the server is ended. */
    int stop_fd;
} mv_proxy_options;

/* What ended the session. */
typedef struct mv_proxy_outcome {
    bool client_closed;                 /* the agent closed its side first */
    bool server_exited;                 /* the server closed its output or exited first */
    int server_status;                  /* its exit status when known, else -1 */
    uint64_t messages_in, messages_out; /* from and to the agent */
    uint64_t blocked_calls, hidden_items, result_findings;
    bool stopped; /* ended by stop_fd */
    /* Results under --results warn scanned by the worker after they were
     * passed on, and those scanned on the relay's thread because the
     * worker's queue was full. */
    uint64_t results_scanned_behind, results_scanned_inline;
} mv_proxy_outcome;

/*
 * Start the server and relay until either side closes. Returns 0 when the
 * session ran (whatever ended it; see *out), MV_EINVAL (bad options),
 * MV_EIO (the server could not be started: err says why) or MV_ENOMEM.
 * On return the server's whole process group is gone.
 */
int mv_proxy_run(const mv_proxy_options *opts, mv_proxy_outcome *out, mv_error *err);

/* ------------------------------------------------------------ HTTP front */

/* The guard in front of a remote server (`mcpvet proxy --url URL --listen
 * HOST:PORT`). The agent's side is the shared streamable-HTTP endpoint
 * (src/server/mcp_endpoint.h): the three mv_proxy_http_session_* functions
 * below are its handler, with the mv_proxy_http handle as its ctx. Each
 * agent session gets one upstream session over mcpvet's MCP client
 * transports (streamable HTTP, or legacy HTTP+SSE) and the same guard as
 * the stdio relay. */
typedef struct mv_proxy_http mv_proxy_http;

typedef struct mv_proxy_http_options {
    mv_proxy_policy policy;
    mv_proxy_results results;
    /* The remote server (borrowed, must outlive the handle): name, transport
     * MV_TRANSPORT_HTTP or MV_TRANSPORT_SSE, url and headers (values are
     * secrets: sent upstream, never logged). The store identity is
     * mv_server_ident_from_config(server), the one `mcpvet scan` uses. */
    const struct mv_server_config *server;
    mv_store *store; /* borrowed (used under the handle's lock), else store_path */
    const char *store_path;
    FILE *log;                  /* NULL = stderr */
    uint64_t max_message_bytes; /* 0 = 16 MiB */
    uint32_t timeout_ms;        /* one upstream request; 0 = 300 s */
    uint32_t list_timeout_ms;   /* the proxy's own tools/list, connecting; 0 = 30 s */
    int64_t (*clock)(void *arg);
    void *clock_arg;
    /* The agent's event streams (the endpoint's mv_mcp_stream, opaque
     * here): queue one message (0, or negative: the stream is gone or
     * dropped) and end a stream. NULL: nothing the server starts reaches
     * the agent (answered or dropped as without streams). */
    int (*stream_send)(void *stream, const char *msg, size_t len);
    void (*stream_end)(void *stream);
    /* For the endpoint that serves the front (src/cli/proxy_serve.c):
     * streams at once (0 = 32) and bytes waiting per stream (0 = 4 MiB). */
    unsigned max_streams;
    size_t stream_queue_bytes;
    /* As mv_proxy_options.scan_queue, per agent session. */
    int scan_queue;
} mv_proxy_http_options;

/* 0, MV_EINVAL (no name, not an http/sse server) or MV_ENOMEM. A store that
 * cannot be opened is not an error: the sessions fail closed. */
int mv_proxy_http_new(mv_proxy_http **out, const mv_proxy_http_options *o, mv_error *err);
/* After the endpoint was stopped (every session closed). NULL: no-op. */
void mv_proxy_http_free(mv_proxy_http *h);

/* The endpoint handler. session_open connects upstream lazily (legacy SSE
 * opens its stream now) and returns 0, MV_EIO or MV_ENOMEM; handle appends
 * the reply to a request (never to a notification); session_close ends the
 * upstream session (DELETE). ctx is the mv_proxy_http handle. */
int mv_proxy_http_session_open(void *ctx, void **session);
void mv_proxy_http_handle(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply);
void mv_proxy_http_session_close(void *ctx, void *session);

/* The streaming handler (the endpoint's handle_streamed, stream_open and
 * stream_close; `stream` as mv_proxy_http_options.stream_send takes it).
 * handle_streamed is called without the session's serialisation for
 * messages that expect no reply: they go upstream on a request of their
 * own, so the server's question inside a running request gets its
 * answer. The session's GET stream gets what the server starts outside
 * requests (the proxy keeps the upstream GET stream open while it is),
 * and list_changed among them marks the list stale for the guard. */
void mv_proxy_http_handle_streamed(void *ctx, void *session, const char *msg, size_t len,
                                   mv_buf *reply, void *stream);
void mv_proxy_http_stream_open(void *ctx, void *session, void *stream);
void mv_proxy_http_stream_close(void *ctx, void *session, void *stream);

/* Counters over the sessions closed so far. */
void mv_proxy_http_counts(mv_proxy_http *h, mv_proxy_outcome *out);

/* ------------------------------------------------------------ install */

typedef struct mv_proxy_install_options {
    bool uninstall;
    bool dry_run;
    const char *client;       /* only this client's files, NULL = every client */
    const char *const *paths; /* explicit config files (with `client` as their format, or
                                 detected); none = discover */
    size_t n_paths;
    const char *self; /* the mcpvet binary the rewritten entries run; NULL = this
                         process's executable */
    /* Options written into every rewritten entry (NULL = not written). */
    const char *policy, *results, *store;
    /* Where discovery looks (tests); NULL = the process's values. */
    const struct mv_config_env *env;
    FILE *out; /* what was (or, with dry_run, would be) done; NULL = stdout */
} mv_proxy_install_options;

/*
 * Rewrite client configs so every stdio server runs through `mcpvet proxy`
 * (or, with uninstall, back). Each changed file gets a backup next to it
 * (FILE.mcpvet-backup, written once, never overwritten), edits are textual
 * (comments, order and unknown keys stay), entries already behind the proxy
 * are left alone. Uninstall restores the backup byte for byte when the file
 * is still exactly what install made of it, else unwraps the entries in
 * place. Formats: JSON and JSON with comments, Codex TOML ([mcp_servers.NAME]
 * tables), Continue YAML ("- name: NAME" items); an entry written another
 * way (an inline TOML table, a YAML flow mapping) is left alone with a
 * message. Returns 0 when every file was handled,
 * MV_EUNSUPPORTED when some file was refused (the others are done),
 * MV_EIO / MV_EPARSE (err names the file) or MV_ENOMEM.
 */
int mv_proxy_install(const mv_proxy_install_options *opts, size_t *n_changed, mv_error *err);

#ifdef __cplusplus
}
#endif
#endif
