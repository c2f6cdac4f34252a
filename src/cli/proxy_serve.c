/*
 * `mcpvet proxy --url URL --listen HOST:PORT`: the HTTP front of the guard
 * (src/proxy/http.c) served by the shared streamable-HTTP endpoint
 * (src/server/mcp_endpoint.h) until SIGINT or SIGTERM. The bound address
 * is logged ("listening on http://127.0.0.1:PORT/mcp"), so `--listen
 * 127.0.0.1:0` works for scripts that read the log.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpvet/config.h"
#include "mcpvet/proxy.h"
#include "mcpvet/report.h"
#include "server/mcp_endpoint.h"

/* The endpoint's stream calls, for the proxy (which sees streams as
 * opaque pointers: it does not link the server). */
static int stream_send(void *st, const char *msg, size_t len) {
    return mv_mcp_stream_send(st, msg, len);
}
static void stream_end(void *st) {
    mv_mcp_stream_end(st);
}
static void on_message(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply,
                       mv_mcp_stream *st) {
    mv_proxy_http_handle_streamed(ctx, session, msg, len, reply, st);
}
static void on_stream_open(void *ctx, void *session, mv_mcp_stream *st) {
    mv_proxy_http_stream_open(ctx, session, st);
}
static void on_stream_close(void *ctx, void *session, mv_mcp_stream *st) {
    mv_proxy_http_stream_close(ctx, session, st);
}

int mv_cli_proxy_serve(const mv_proxy_http_options *opts, const char *listen, FILE *log) {
    mv_proxy_http_options copy = *opts;
    const mv_proxy_http_options *o = &copy;
    copy.stream_send = stream_send;
    copy.stream_end = stream_end;
    mv_proxy_http *h = NULL;
    mv_mcp_endpoint *ep = NULL;
    char *bound = NULL;
    mv_error err;
    int code = MV_EXIT_USAGE;
    FILE *lf = log != NULL ? log : stderr;
    sigset_t set, old;
    /* Every thread (libmicrohttpd's too) inherits the mask; the main thread
     * takes the signals with sigwait. */
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    mv_error_clear(&err);
    if (mv_proxy_http_new(&h, o, &err) != MV_OK) {
        mv_cli_error("proxy: %s", err.message);
        goto done;
    }
    mv_mcp_endpoint_options eo;
    memset(&eo, 0, sizeof(eo));
    eo.listen = listen;
    eo.log = lf;
    eo.quiet = true;
    eo.name = "mcpvet proxy";
    /* The upstream request gives up first, so the agent gets its error. */
    eo.request_deadline_s =
        (o->timeout_ms != 0 ? o->timeout_ms : MV_PROXY_DEFAULT_TIMEOUT_MS) / 1000 + 15;
    eo.max_body = (size_t)o->max_message_bytes;
    eo.batches_by_version = true;
    eo.max_streams = o->max_streams;
    eo.stream_queue_bytes = o->stream_queue_bytes;
    mv_mcp_endpoint_handler hd = {.ctx = h,
                                  .session_open = mv_proxy_http_session_open,
                                  .handle = mv_proxy_http_handle,
                                  .session_close = mv_proxy_http_session_close,
                                  .stream_open = on_stream_open,
                                  .stream_close = on_stream_close,
                                  .handle_streamed = on_message};
    mv_error_clear(&err);
    if (mv_mcp_endpoint_start(&ep, &eo, &hd, &bound, &err) != MV_OK) {
        mv_cli_error("proxy: cannot listen on %s: %s", listen, err.message);
        goto done;
    }
    /* The URL is logged as its origin only: it may carry a token. */
    fprintf(lf, "mcpvet proxy \"%s\": listening on http://%s/mcp (%s upstream)\n", o->server->name,
            bound, o->server->transport == MV_TRANSPORT_SSE ? "sse" : "http");
    fflush(lf);
    for (;;) {
        int sig = 0;
        if (sigwait(&set, &sig) == 0 && sig != SIGPIPE)
            break;
    }
    fprintf(lf, "mcpvet proxy \"%s\": stopping\n", o->server->name);
    fflush(lf);
    code = MV_EXIT_OK;
done:
    mv_mcp_endpoint_stop(ep, 5);
    if (h != NULL) {
        mv_proxy_outcome out;
        mv_proxy_http_counts(h, &out);
        if (code == MV_EXIT_OK)
            fprintf(lf,
                    "mcpvet proxy \"%s\": %llu call(s) blocked, %llu item(s) left out, %llu "
                    "result(s) with findings\n",
                    o->server->name, (unsigned long long)out.blocked_calls,
                    (unsigned long long)out.hidden_items, (unsigned long long)out.result_findings);
    }
    mv_proxy_http_free(h);
    free(bound);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return code;
}
