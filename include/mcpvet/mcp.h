/*
 * The MCP client: reach one configured server the way an agent client would
 * (stdio, streamable HTTP or the legacy HTTP+SSE transport), agree on a
 * protocol version, and fetch everything the server advertises to the model:
 * tools/list (following nextCursor to the end), and prompts/list and
 * resources/list when the server announces them.
 *
 * A hostile or broken server never stalls or crashes the caller: every
 * message, the whole answer, pages and items are capped, every phase has a
 * deadline, and a server that cannot be scanned ends with a status and a
 * reason instead of an error return. Secrets from the config (env values,
 * header values) are used to start or reach the server and never appear in
 * a result, a reason, the captured stderr summary or any log.
 *
 * Protocol versions known: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25
 * and 2026-07-28 (stateless: no initialize, server/discover, per-request
 * _meta). The newest is tried first; fallback follows the specification.
 */
#ifndef MCPVET_MCP_H
#define MCPVET_MCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "mcpvet/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Known protocol versions, newest first, NULL-terminated. */
const char *const *mv_mcp_protocol_versions(void);

/* Why a server could not be scanned (or MV_MCP_OK). Stable names in reports. */
typedef enum mv_mcp_status {
    MV_MCP_OK = 0,
    MV_MCP_TIMEOUT,        /* start-up, handshake or a request ran past its deadline */
    MV_MCP_SPAWN_FAILED,   /* the command could not be started */
    MV_MCP_CONNECT_FAILED, /* HTTP: connection refused, DNS, TLS */
    MV_MCP_PROTOCOL_ERROR, /* garbage, wrong JSON-RPC, unknown protocol version,
                              redirect loop, bad SSE */
    MV_MCP_SERVER_ERROR,   /* the server answered a request with a JSON-RPC error
                              or an HTTP 5xx */
    MV_MCP_AUTH_REQUIRED,  /* HTTP 401/403 (OAuth or a missing token) */
    MV_MCP_CLOSED,         /* the server closed the stream or exited before answering */
    MV_MCP_CAP_HIT,        /* a message, answer, page or item cap was hit: what was
                              fetched up to the cap is kept (partial) */
    MV_MCP_NEEDS_INPUT,    /* not started: the config needs a value (set by callers) */
    MV_MCP_DISABLED,       /* not started: disabled in the config (set by callers) */
    MV_MCP_INVALID_CONFIG  /* not started: unusable entry (set by callers) */
} mv_mcp_status;

/* "ok", "timeout", "spawn_failed", "connect_failed", "protocol_error",
 * "server_error", "auth_required", "closed", "cap_hit", "needs_input",
 * "disabled", "invalid_config". Never NULL. */
const char *mv_mcp_status_name(mv_mcp_status s);

/* Caps and deadlines. Zero members take the defaults below. */
typedef struct mv_mcp_options {
    uint32_t startup_timeout_ms;  /* spawn/connect + handshake, default 30000 */
    uint32_t request_timeout_ms;  /* each request after the handshake, default 30000 */
    uint64_t max_message_bytes;   /* one JSON-RPC message, default 16 MiB */
    uint64_t max_total_bytes;     /* everything one server sends, default 64 MiB */
    uint32_t max_pages;           /* per list method, default 100 */
    uint32_t max_items;           /* tools (prompts, resources) per server, default 10000 */
    uint32_t max_stderr_bytes;    /* stderr kept for the report, default 8192 */
    /* Force one protocol version (tests); NULL = newest first with fallback. */
    const char *protocol_version;
    /* Called (from the fetching thread) when a phase starts: "starting",
     * "handshake", "listing tools"... for live progress; may be NULL. */
    void (*progress)(void *arg, const mv_server_config *server, const char *phase);
    void *progress_arg;
    /* The client's own memory: the session's buffers and parse arena and
     * the result's lists and strings (but stderr_text, which the stdio
     * transport makes with malloc). The transports' pipes and libcurl use
     * the process allocator. NULL = default. Used from the fetching
     * thread: thread-safe when fetches run concurrently. */
    const mv_allocator *allocator;
} mv_mcp_options;

#define MV_MCP_DEFAULT_STARTUP_TIMEOUT_MS 30000u
#define MV_MCP_DEFAULT_REQUEST_TIMEOUT_MS 30000u
#define MV_MCP_DEFAULT_MAX_MESSAGE_BYTES (16ull * 1024 * 1024)
#define MV_MCP_DEFAULT_MAX_TOTAL_BYTES (64ull * 1024 * 1024)
#define MV_MCP_DEFAULT_MAX_PAGES 100u
#define MV_MCP_DEFAULT_MAX_ITEMS 10000u
#define MV_MCP_DEFAULT_MAX_STDERR_BYTES 8192u

/* What one server advertised. Owned; release with mv_mcp_result_free. */
typedef struct mv_mcp_result {
    mv_mcp_status status;
    char reason[512];           /* one sentence when status != OK, may also explain a
                                   partial fetch; never holds a secret */
    mv_transport transport;     /* the transport it ended up with (HTTP may fall back
                                   to SSE) */
    char protocol_version[16];  /* agreed version, "" when none was agreed */
    char *server_name;          /* serverInfo.name, NULL when not given */
    char *server_version;       /* serverInfo.version, NULL when not given */
    char *instructions;         /* the server's "instructions" (they reach the model
                                   too), NULL when none */
    size_t instructions_len;    /* bytes of instructions (it may contain U+0000) */
    /* Compact JSON arrays of the items exactly as the server sent them (all
     * pages concatenated): "[{...},{...}]". Empty (len 0) when the server
     * does not announce that list or it was not fetched. */
    mv_buf tools;
    mv_buf prompts;
    mv_buf resources;
    mv_buf resource_templates; /* resources/templates/list, fetched with resources */
    size_t n_tools, n_prompts, n_resources, n_resource_templates;
    /* The lists are incomplete: a cap stopped one early (status
     * MV_MCP_CAP_HIT), or another failure (a cursor loop, a timeout, the
     * server exiting) ended the fetch after items were kept. Always false
     * with MV_MCP_OK. */
    bool partial;
    /* stdio: the server's stderr, the first max_stderr_bytes of it, and the
     * exit status (-1 when still running when it was killed or unknown). */
    char *stderr_text; /* malloc'd (the process allocator) */
    size_t stderr_len;
    bool stderr_truncated;
    int exit_status;
    uint64_t elapsed_ms; /* wall time of the whole fetch */
    /* mv_mcp_options.allocator of the fetch: where the strings and lists
     * came from (mv_mcp_result_free gives them back there). */
    const mv_allocator *allocator;
} mv_mcp_result;

/*
 * Reach `server` and fetch its lists into *out (which the call initializes).
 * A server that cannot be scanned is not an error: the call returns 0 with
 * out->status saying why. Returns MV_EINVAL (a server that is not READY, or
 * NULL arguments) or MV_ENOMEM; *out is then still safe to free.
 * On return no child process, descriptor or thread of this call is left
 * (the stdio server's whole process group is killed and reaped).
 * Thread-safe: callers fetch several servers concurrently.
 */
int mv_mcp_fetch(mv_mcp_result *out, const mv_server_config *server, const mv_mcp_options *opts,
                 mv_error *err);

void mv_mcp_result_free(mv_mcp_result *r);

/* Process-wide set-up for the HTTP transports (curl_global_init); call once
 * from main before any thread starts. Returns 0 or MV_ENOMEM. */
int mv_mcp_global_init(void);
void mv_mcp_global_cleanup(void);

#ifdef __cplusplus
}
#endif
#endif
