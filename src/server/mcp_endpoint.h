/*
 * An MCP streamable-HTTP endpoint (server side), on libmicrohttpd: the
 * transport `mcpvet mcp --listen` and `mcpvet proxy --url --listen` share.
 * It owns everything HTTP about the protocol so its users only see whole
 * JSON-RPC messages:
 *
 * - one path (default "/mcp"); POST carries one JSON-RPC message (or a
 *   batch, answered as a batch), DELETE ends a session, anything else 405
 *   with Allow; GET answers 405 unless the user takes streams (below);
 * - streams (when the handler has stream_open): GET with the session's id
 *   opens the session's event stream for messages the server starts
 *   (one per session: a second one is 409), and a POST holding requests
 *   from a client that accepts text/event-stream is answered as an event
 *   stream, so messages that belong to the request (progress, the
 *   server's own requests) reach the client before the reply. Each stream
 *   has a byte cap on what waits to be written (a client that stops
 *   reading is dropped, with a log line), a keep-alive comment when
 *   quiet, an idle limit, and a cap on streams at once (503). No event
 *   ids are sent, so clients do not try to resume (Last-Event-ID);
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

/* An event stream towards a client (see streams above). */
typedef struct mv_mcp_stream mv_mcp_stream;

/* Queue one message (compact JSON text without a newline inside, or with
 * newlines between tokens only) on the stream as one event. Thread-safe.
 * 0; MV_ENOTFOUND when the stream has ended (the client left, idle limit,
 * shutdown); MV_ELIMIT when the message would take the bytes waiting over
 * the stream's cap: the stream is dropped then (logged) and refuses every
 * later message. */
int mv_mcp_stream_send(mv_mcp_stream *st, const char *msg, size_t len);

/* End the stream: the client gets what is queued, then the end of the
 * response (it may open a new one). Thread-safe; until stream_close. */
void mv_mcp_stream_end(mv_mcp_stream *st);

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
    /* Optional (NULL: no streams, GET answers 405). The session's GET
     * stream opened / ended. `st` may be used from any thread until
     * stream_close for it has returned. */
    void (*stream_open)(void *ctx, void *session, mv_mcp_stream *st);
    void (*stream_close)(void *ctx, void *session, mv_mcp_stream *st);
    /* Optional, used instead of `handle` when set: `st` is the POST's own
     * stream (NULL when the reply is plain JSON) for messages that belong
     * to this request and go before its reply. Messages that expect no
     * reply (notifications, responses to the server's requests) are
     * passed with st NULL and without the session's call lock, so an
     * answer the server waits for inside a running request gets through;
     * the handler must take them on any thread. */
    void (*handle_streamed)(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply,
                            mv_mcp_stream *st);
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
    /* Streams (used only when the handler has stream_open): */
    unsigned max_streams;      /* open at once (GET and POST), 0 = 32; more: 503 */
    size_t stream_queue_bytes; /* waiting to be written per stream, 0 = 4 MiB */
    unsigned keepalive_s;      /* a comment after this many quiet seconds, 0 = 15 */
    unsigned stream_idle_s;    /* a GET stream without a message ends, 0 = session_idle_s */
    /* Refuse a batch when the session's protocol version is 2025-06-18 or
     * later (the revision that removed JSON-RPC batching). */
    bool batches_by_version;
} mv_mcp_endpoint_options;

#define MV_MCP_ENDPOINT_DEFAULT_MAX_BODY (16u * 1024 * 1024)

/* Bind and start serving in background threads. `name` and `log` are
 * kept and must outlive the endpoint; everything else is copied or only
 * read here. The bound address
 * ("127.0.0.1:PORT") is written to *bound (caller frees). 0, or MV_EINVAL
 * (bad address, remote bind without allow_remote or key) / MV_EIO (bind)
 * with err saying why. */
int mv_mcp_endpoint_start(mv_mcp_endpoint **out, const mv_mcp_endpoint_options *o,
                          const mv_mcp_endpoint_handler *h, char **bound, mv_error *err);

/* Stop accepting, let requests in flight finish (up to grace_s), close
 * every session, free. NULL is a no-op. */
void mv_mcp_endpoint_stop(mv_mcp_endpoint *e, unsigned grace_s);

#endif
