/*
 * `mcpvet mcp`: an MCP server on stdio exposing one tool,
 * `quarantine_security`, over the operations the REST API uses
 * (src/server/service.h), so an agent sees the same verdicts and states
 * as `mcpvet security` and `mcpvet serve`.
 *
 * Protocol: newline-delimited JSON-RPC 2.0; initialize with version
 * negotiation (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25),
 * notifications/initialized, ping, tools/list, tools/call, and the
 * stateless 2026-07-28 server/discover with per-request _meta.
 *
 * An agent that has just read a poisoned description must not be able to
 * approve it: `approve` is refused unless allow_agent_approval is set, and
 * the refusal names the command a person runs.
 */
#ifndef MV_MCPSERVER_H
#define MV_MCPSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"
#include "server/service.h"

typedef struct mv_mcpserver_options {
    mv_service_options service;
    bool allow_agent_approval;
    size_t max_message;   /* one incoming line, 0 = 16 MiB */
    FILE *in, *out, *log; /* NULL = stdin, stdout, stderr */
} mv_mcpserver_options;

#define MV_MCPSERVER_DEFAULT_MAX_MESSAGE (16u * 1024 * 1024)

/* Serve until the input ends. Returns 0, or the store's error (err says
 * why) when the service cannot start. */
int mv_mcpserver_run(const mv_mcpserver_options *o, mv_error *err);

/* `mcpvet mcp --listen`: the same server over MCP streamable HTTP
 * (src/server/mcp_endpoint.h), one MCP session per HTTP session, all
 * sharing one service (store). The key is found as `mcpvet serve` finds
 * it (api_key_file, MCPVET_API_KEY, else the default key file, generated
 * 0600 when missing) and every request must carry it. */
typedef struct mv_mcpserver_http_options {
    const char *listen;       /* "HOST:PORT", NULL = "127.0.0.1:0" */
    bool allow_remote;        /* needed for a non-loopback address */
    const char *api_key_file; /* NULL: MCPVET_API_KEY, else the default key file */
    unsigned max_connections; /* 0 = 64 */
    unsigned idle_timeout_s;  /* 0 = 30 */
    unsigned deadline_s;      /* whole request, 0 = 300 */
    size_t max_body;          /* 0 = 16 MiB */
    unsigned grace_s;         /* shutdown: wait for requests in flight, 0 = 120 */
    bool quiet;               /* no per-request log lines */
} mv_mcpserver_http_options;

/* Serve over HTTP until SIGTERM or SIGINT (blocked in the calling thread
 * and every thread it starts), printing "mcpvet mcp: listening on URL"
 * on o->out; then let requests in flight finish and close the store.
 * Returns 0 after a clean stop, or MV_EINVAL (address, key), MV_EIO
 * (bind), the store's error, with err saying why. */
int mv_mcpserver_run_http(const mv_mcpserver_options *o, const mv_mcpserver_http_options *h,
                          mv_error *err);

/* Handle one incoming message (one line, without its newline) and append
 * the reply line (with its newline), if any, to `out`. Exposed for tests;
 * `session` is created by mv_mcpserver_session_new. */
typedef struct mv_mcpserver_session mv_mcpserver_session;
int mv_mcpserver_session_new(mv_mcpserver_session **out, mv_service *svc,
                             bool allow_agent_approval);
void mv_mcpserver_session_free(mv_mcpserver_session *s);
void mv_mcpserver_handle(mv_mcpserver_session *s, const char *line, size_t len, mv_buf *out);

/* The tool's definition as tools/list sends it (compact JSON object). */
void mv_mcpserver_tool_definition(mv_buf *out);

#endif
