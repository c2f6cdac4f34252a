/*
 * PLACEHOLDER until the HTTP transports (src/mcp/http.c: streamable HTTP,
 * src/mcp/sse.c: legacy HTTP+SSE) are merged from their own branch: both
 * open calls fail with MV_MCP_CONNECT_FAILED so mv_mcp_fetch reports
 * "HTTP transport not built" for http and sse servers. Delete this file
 * when merging http.c and sse.c (they define the same two functions).
 */
#include <stdio.h>
#include <string.h>

#include "mcp/transport.h"

static int not_built(mv_mcp_transport **out, mv_mcp_failure *fail) {
    *out = NULL;
    memset(fail, 0, sizeof(*fail));
    fail->status = MV_MCP_CONNECT_FAILED;
    snprintf(fail->reason, sizeof fail->reason, "HTTP transport not built");
    return -1;
}

int mv_mcp_http_open(mv_mcp_transport **out, const mv_server_config *server,
                     const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail) {
    (void)server;
    (void)lim;
    (void)deadline_ms;
    return not_built(out, fail);
}

int mv_mcp_sse_open(mv_mcp_transport **out, const mv_server_config *server,
                    const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail) {
    (void)server;
    (void)lim;
    (void)deadline_ms;
    return not_built(out, fail);
}
