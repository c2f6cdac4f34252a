/*
 * An MCP streamable-HTTP endpoint (server side), on libmicrohttpd: the
 * transport `mcpvet mcp --listen` and `mcpvet proxy --url --listen` share.
 * It owns everything HTTP about the protocol so its users only see whole
 * JSON-RPC messages:
 *
 * - one path (default "/mcp"); POST carries one JSON-RPC message (or a
 *   batch, answered as a batch), GET answers 405 (no server-initiated
 *   stream), DELETE ends a session, anything else 405 with Allow;
 * - loopback by default; Host and Origin must name the address served
 *   (DNS rebinding), an optional bearer key compared in constant time;
 * - sessions: a successful `initialize` gets a fresh random Mcp-Session-Id
 *   (from getrandom), later requests must carry it (unknown or ended: 404,
 *   missing: 400); MCP-Protocol-Version is checked against the session's;
 * - caps: body size (413), connections, per-connection idle timeout, a
 *   whole-request deadline, concurrent requests (503 with Retry-After);
 *   a body that is not one JSON value gets a JSON-RPC parse error naming
 *   the byte offset;
 * - a reply is sent as application/json; a POST holding only
 *   notifications or responses gets 202 with no body.
 *
 * The handler runs on libmicrohttpd's worker threads, possibly several at
 * once for different sessions; calls for one session are serialised.
 */
#ifndef MV_SERVER_MCP_ENDPOINT_H
#define MV_SERVER_MCP_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"

typedef struct mv_mcp_endpoint mv_mcp_endpoint;

/* What the endpoint's user provides. `ctx` is passed back unchanged. */
typedef struct mv_mcp_endpoint_handler {
    void *ctx;
    /* A new session (after the endpoint saw an `initialize` request without
     * a session id). Sets *session to the user's per-session state. 0, or
     * a negative MV_E* (the request is answered 500 with a JSON-RPC error). */
    int (*session_open)(void *ctx, void **session);
    /* One message (compact JSON text, `len` bytes) of a session. Appends
     * the JSON-RPC reply, if the message expects one, to `reply` (no
     * newline); appends nothing for notifications and responses. */
    void (*handle)(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply);
    /* The session ended (DELETE, idle expiry, shutdown). */
    void (*session_close)(void *ctx, void *session);
} mv_mcp_endpoint_handler;

typedef struct mv_mcp_endpoint_options {
    const char *listen;          /* "HOST:PORT"; NULL = "127.0.0.1:0" (any free port) */
    bool allow_remote;           /* needed to bind anything but loopback (and a key) */
    const char *path;            /* NULL = "/mcp" */
    const char *bearer_key;      /* NULL = no key required (loopback only) */
    unsigned max_connections;    /* 0 = 64 */
    unsigned max_sessions;       /* 0 = 256; the oldest idle one is ended first */
    unsigned idle_timeout_s;     /* per connection, 0 = 30 */
    unsigned session_idle_s;     /* a session unused this long ends, 0 = 3600 */
    unsigned request_deadline_s; /* whole request incl. the handler, 0 = 300 */
    size_t max_body;             /* 0 = 16 MiB */
    FILE *log;                   /* one line per request and error; NULL = stderr */
    bool quiet;                  /* no per-request lines */
    unsigned max_requests;       /* handler calls at once, 0 = 16; more: 503 + Retry-After */
    const char *name;            /* log line prefix, NULL = "mcpvet mcp" */
    /* Instead of bearer_key: the SHA-256 of the key (32 bytes, copied), for
     * a caller that keeps no copy of the key itself. */
    const unsigned char *bearer_key_sha256;
} mv_mcp_endpoint_options;

#define MV_MCP_ENDPOINT_DEFAULT_MAX_BODY (16u * 1024 * 1024)

/* Bind and start serving in background threads. The bound address
 * ("127.0.0.1:PORT") is written to *bound (caller frees). 0, or MV_EINVAL
 * (bad address, remote bind without allow_remote or key) / MV_EIO (bind)
 * with err saying why. */
int mv_mcp_endpoint_start(mv_mcp_endpoint **out, const mv_mcp_endpoint_options *o,
                          const mv_mcp_endpoint_handler *h, char **bound, mv_error *err);

/* Stop accepting, let requests in flight finish (up to grace_s), close
 * every session, free. NULL is a no-op. */
void mv_mcp_endpoint_stop(mv_mcp_endpoint *e, unsigned grace_s);

#endif
