/*
 * JSON-RPC 2.0 over one MCP transport, as the client side of a session
 * needs it: send a request and wait for the response with the same id,
 * while answering what the server asks meanwhile (ping gets an empty
 * result, any other request "method not found"), skipping notifications
 * and rejecting anything else: text that is not JSON, JSON that is not a
 * JSON-RPC message, a response to a request that was never sent. Every
 * failure names the method it happened in and quotes at most a short
 * render-safe prefix of what the server sent.
 *
 * Private to src/mcp (client.c drives it; tests reach it through
 * mv_mcp_fetch with fixture servers).
 */
#ifndef MCPVET_MCP_SESSION_H
#define MCPVET_MCP_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcp/transport.h"

#define MV_RPC_METHOD_NOT_FOUND (-32601)
/* UnsupportedProtocolVersionError of 2026-07-28. The published schema uses
 * -32022; an earlier draft's example used -32004. -32022 is recognised
 * alone, and any code whose data carries a "supported" list of versions. */
#define MV_RPC_UNSUPPORTED_VERSION (-32022)
#define MV_RPC_UNSUPPORTED_VERSION_DRAFT (-32004)

typedef struct mv_rpc {
    mv_mcp_transport *t;
    const mv_allocator *alloc; /* buffers and arena (NULL = default) */
    mv_arena *arena; /* the tree of the last message */
    mv_buf in, out;
    uint64_t next_id;
    /* Requests given up on (a probe that timed out): late answers to them
     * are skipped instead of being taken for protocol errors. */
    uint64_t abandoned[4];
    unsigned n_abandoned;
    uint64_t received; /* bytes of every message received */
    uint64_t max_total;
    /* Agreed protocol version for transports that send it as a header
     * (NULL before one is agreed). Borrowed. */
    const char *version;
    uint32_t notifications;   /* skipped */
    uint32_t server_requests; /* answered */
} mv_rpc;

typedef enum mv_rpc_kind {
    MV_RPC_RESULT = 0, /* the server answered with a result object */
    MV_RPC_ERROR,      /* the server answered with a JSON-RPC error */
    MV_RPC_FAILED      /* no answer: transport failure, timeout, garbage, cap */
} mv_rpc_kind;

/* What became of one request. Trees point into the session's buffers and
 * stay valid until its next call. */
typedef struct mv_rpc_reply {
    mv_rpc_kind kind;
    const mv_jv *result; /* RESULT: an object */
    /* ERROR */
    bool has_code;
    long long code;
    const char *message; /* may be NULL */
    size_t message_len;
    const mv_jv *data; /* may be NULL */
    /* HTTP status of the exchange when the transport reported a failed one
     * (a JSON-RPC error can come with an HTTP 400), else 0. */
    int http_status;
    mv_mcp_failure fail; /* FAILED: status and reason; ERROR: a ready reason */
} mv_rpc_reply;

/* Writes the members of a request's "params" object (may be NULL). */
typedef void (*mv_rpc_params_fn)(mv_jw *w, void *arg);

/* Returns 0 or MV_ENOMEM. `t` may be NULL and set later. */
int mv_rpc_init(mv_rpc *r, mv_mcp_transport *t, uint64_t max_total, const mv_allocator *a);
void mv_rpc_release(mv_rpc *r);

/*
 * Send `method` and wait until its response arrives or `deadline_ms`.
 * The outcome is in *rep (a failure is not an error return). Returns 0, or
 * MV_ENOMEM when building or parsing ran out of memory.
 */
int mv_rpc_call(mv_rpc *r, const char *method, mv_rpc_params_fn params, void *arg,
                uint64_t deadline_ms, mv_rpc_reply *rep);

/* A send the transport refused (*fail filled). Positive: MV_ENOMEM is -1,
 * so -1 here would read as out of memory and fail a whole fetch. */
#define MV_RPC_SEND_FAILED 1

/* Send a notification. Returns 0, MV_RPC_SEND_FAILED with *fail filled, or
 * MV_ENOMEM. */
int mv_rpc_notify(mv_rpc *r, const char *method, mv_rpc_params_fn params, void *arg,
                  uint64_t deadline_ms, mv_mcp_failure *fail);

/* Give up on the last request sent: a late response to it is skipped. */
void mv_rpc_abandon_last(mv_rpc *r);

/* Whether an error reply is UnsupportedProtocolVersionError; *supported is
 * then its data.supported array (may be NULL when the data is absent). */
bool mv_rpc_is_unsupported_version(const mv_rpc_reply *rep, const mv_jv **supported);

#endif
