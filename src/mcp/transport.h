/*
 * Private contract between the MCP client's session logic (session.c:
 * version negotiation, handshake, pagination, fallback) and its three
 * transports (stdio.c, http.c for streamable HTTP, sse.c for the legacy
 * HTTP+SSE transport). A transport moves whole JSON-RPC messages; it knows
 * nothing of methods beyond the headers it must send. Not part of the
 * public include/ headers.
 *
 * Time is a deadline in monotonic milliseconds (mv_mcp_now_ms), so a phase
 * made of several reads never waits longer in total than its budget.
 */
#ifndef MCPVET_MCP_TRANSPORT_H
#define MCPVET_MCP_TRANSPORT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/buf.h"
#include "mcpvet/config.h"
#include "mcpvet/mcp.h"

/* Monotonic clock in milliseconds (CLOCK_MONOTONIC). */
uint64_t mv_mcp_now_ms(void);

/* Why a transport operation failed. `reason` is one sentence without any
 * secret (never a header value, an env value or a URL's userinfo/query). */
typedef struct mv_mcp_failure {
    mv_mcp_status status;
    int http_status; /* HTTP status of the failed exchange, 0 when none */
    /* HTTP: the reply carried a JSON-RPC error body (a modern server's
     * UnsupportedProtocolVersion, for instance); it is in `body` then. */
    bool has_body;
    char reason[512];
} mv_mcp_failure;

/* Per-message details some transports put in headers. */
typedef struct mv_mcp_msg_info {
    const char *method;           /* "initialize", "tools/list"... (Mcp-Method) */
    const char *name;             /* Mcp-Name (a tool or prompt name), NULL when none */
    const char *protocol_version; /* MCP-Protocol-Version; NULL before one is agreed */
    bool notification;            /* no reply expected (HTTP answers 202) */
} mv_mcp_msg_info;

typedef struct mv_mcp_limits {
    uint64_t max_message_bytes;
    uint64_t max_total_bytes;
    uint32_t max_stderr_bytes;
} mv_mcp_limits;

typedef struct mv_mcp_transport mv_mcp_transport;

typedef struct mv_mcp_transport_ops {
    /*
     * Send one compact JSON-RPC message (`len` bytes, no newline inside).
     * Streamable HTTP performs the POST here and queues every message of the
     * reply (a JSON body or an SSE stream) for recv, stopping at the
     * deadline; a non-2xx reply fails with http_status set and, when the
     * body is a JSON-RPC message, that message queued and has_body set.
     * Returns 0, or -1 with *fail filled.
     */
    int (*send)(mv_mcp_transport *t, const char *msg, size_t len, const mv_mcp_msg_info *info,
                uint64_t deadline_ms, mv_mcp_failure *fail);
    /*
     * The next message from the server into *out (replacing its contents),
     * waiting until the deadline. Returns 1 with a message, 0 on timeout
     * (fail->status = MV_MCP_TIMEOUT), -1 on any other failure (closed
     * stream, cap hit, garbage framing) with *fail filled. A message over
     * max_message_bytes fails with MV_MCP_CAP_HIT and is never buffered
     * whole. Validating the message as JSON is the caller's job.
     */
    int (*recv)(mv_mcp_transport *t, mv_buf *out, uint64_t deadline_ms, mv_mcp_failure *fail);
    /*
     * End the connection: HTTP sends DELETE for a session it holds; stdio
     * closes stdin, waits briefly, then kills the whole process group and
     * reaps it. When `r` is not NULL, fill what the transport knows
     * (stderr_text/len/truncated, exit_status). Frees `t`. NULL t: no-op.
     */
    void (*close)(mv_mcp_transport *t, mv_mcp_result *r);
} mv_mcp_transport_ops;

struct mv_mcp_transport {
    const mv_mcp_transport_ops *ops;
    mv_transport kind;
};

/*
 * Start the server's command (own process group, configured args, env added
 * to the inherited environment, cwd; stdin/stdout pipes, stderr captured up
 * to the cap; every other descriptor closed in the child). A command that
 * cannot be executed fails with MV_MCP_SPAWN_FAILED.
 */
int mv_mcp_stdio_open(mv_mcp_transport **out, const mv_server_config *server,
                      const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail);

/*
 * For a relay that multiplexes the server with other descriptors in its own
 * poll() loop (mcpvet proxy): the started server's stdin (write end),
 * stdout and stderr (read ends), all non-blocking, still owned by the
 * transport (close() closes them). Any pointer may be NULL. Returns 0, or
 * -1 when `t` is not a stdio transport. The caller then does its own reads
 * and writes and must not mix them with send/recv on the same transport.
 */
int mv_mcp_stdio_fds(mv_mcp_transport *t, int *in_fd, int *out_fd, int *err_fd);

/* The stdio transport's framing over descriptors the caller opened (no
 * child: tests and fuzz/fuzz_stdio.c feed it from a pipe). `out_fd` is
 * read, `in_fd` written, `err_fd` drained (-1 for none); the transport
 * owns and closes them. 0 or MV_ENOMEM. */
int mv_mcp_stdio_adopt(mv_mcp_transport **out, int in_fd, int out_fd, int err_fd,
                       const mv_mcp_limits *lim);

/* Close only the server's stdin (an MCP server's cue to exit), keeping its
 * output readable; close() later waits for the exit and reaps the group.
 * Idempotent; a no-op for other transports. */
void mv_mcp_stdio_close_input(mv_mcp_transport *t);

/* Streamable HTTP to server->url with server->headers. Connects lazily on
 * the first send. Follows at most a few redirects (a loop fails with
 * MV_MCP_PROTOCOL_ERROR); 401/403 fail with MV_MCP_AUTH_REQUIRED. */
int mv_mcp_http_open(mv_mcp_transport **out, const mv_server_config *server,
                     const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail);

/* Streamable HTTP, for the proxy's HTTP front, which relays what the
 * server starts. A message callback: `msg` (len bytes, one event's data,
 * not validated) valid during the call. For the observer, true means the
 * message was taken and is not queued for recv. */
typedef bool (*mv_mcp_observer)(void *arg, const char *msg, size_t len);

/* Hand every message of a reply stream to `fn` as it arrives, inside
 * send (before the reply is complete). The observer must take only
 * messages that are not responses. No-op on other transports. */
void mv_mcp_http_set_observer(mv_mcp_transport *t, mv_mcp_observer fn, void *arg);

/* POST one message that expects no reply (a notification, an answer to a
 * server's request; `method` its method or NULL) on a handle of its own,
 * with the session's id and version: safe while another thread is inside
 * send on `t`. 0, or -1 with *fail (a non-2xx status, a transport
 * failure). */
int mv_mcp_http_post_message(mv_mcp_transport *t, const char *msg, size_t len, const char *method,
                             uint64_t deadline_ms, mv_mcp_failure *fail);

/* Open the session's GET event stream and hand each message to `cb`
 * until the server ends it (0), *stop turns true (0, checked about once a
 * second), the server offers no stream (1: HTTP 405) or it fails (-1 and
 * *fail). Events are capped at the transport's message cap. Blocking: run
 * it on a thread of its own. `connect_deadline_ms` bounds the connect. */
int mv_mcp_http_listen(mv_mcp_transport *t, mv_mcp_observer cb, void *arg, const atomic_bool *stop,
                       uint64_t connect_deadline_ms, mv_mcp_failure *fail);

/* Legacy HTTP+SSE: GET server->url as an event stream and wait for the
 * `endpoint` event (resolved against the URL, same origin only); send then
 * POSTs to that endpoint and replies arrive on the stream. */
int mv_mcp_sse_open(mv_mcp_transport **out, const mv_server_config *server,
                    const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail);

/*
 * Opens a transport of `kind` for `server`, as the three functions above
 * do. mv_mcp_fetch uses those; tests and the session fuzz target
 * (fuzz/fuzz_session.c) pass their own to drive the whole session logic
 * (negotiation, fallback, pagination, caps) over a fake transport.
 */
typedef int (*mv_mcp_open_fn)(void *arg, mv_mcp_transport **out, mv_transport kind,
                              const mv_server_config *server, const mv_mcp_limits *lim,
                              uint64_t deadline_ms, mv_mcp_failure *fail);

/* mv_mcp_fetch with every transport opened by `open` (NULL = the real
 * ones). Same contract otherwise. */
int mv_mcp_fetch_with(mv_mcp_result *out, const mv_server_config *server,
                      const mv_mcp_options *opts, mv_mcp_open_fn open, void *open_arg,
                      mv_error *err);

#endif
