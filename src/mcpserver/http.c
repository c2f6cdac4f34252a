/*
 * `mcpvet mcp --listen` (mcpserver.h): the quarantine_security server on
 * the streamable-HTTP endpoint. Everything HTTP (sessions, Host/Origin,
 * the key, caps, the deadline) is the endpoint's; this file only binds
 * each HTTP session to an MCP session over one shared service, and waits
 * for SIGTERM or SIGINT to stop as `mcpvet serve` does.
 */
#define _GNU_SOURCE /* pthread_sigmask and sigwait on glibc */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "mcpserver/mcpserver.h"
#include "server/httpd.h"
#include "server/mcp_endpoint.h"

typedef struct http_ctx {
    mv_service *svc;
    bool allow_approval;
} http_ctx;

static int on_open(void *ctx, void **session) {
    http_ctx *c = ctx;
    mv_mcpserver_session *s = NULL;
    int rc = mv_mcpserver_session_new(&s, c->svc, c->allow_approval);
    *session = s;
    return rc;
}

static void on_message(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply) {
    (void)ctx;
    mv_mcpserver_handle(session, msg, len, reply);
}

static void on_close(void *ctx, void *session) {
    (void)ctx;
    mv_mcpserver_session_free(session);
}

int mv_mcpserver_run_http(const mv_mcpserver_options *o, const mv_mcpserver_http_options *h,
                          mv_error *err) {
    FILE *out = o->out != NULL ? o->out : stdout;
    FILE *log = o->log != NULL ? o->log : stderr;
    mv_service_options so = o->service;
    http_ctx ctx = {NULL, o->allow_agent_approval};
    mv_mcp_endpoint *ep = NULL;
    mv_httpd_addr la;
    mv_httpd_key key;
    char *bound = NULL;
    sigset_t sigs;
    int rc;

    memset(&key, 0, sizeof key);
    so.actor = MV_ACTOR_MCP;
    if ((rc = mv_httpd_parse_listen(&la, h->listen != NULL ? h->listen : "127.0.0.1:0", err)) !=
        MV_OK)
        goto done;
    if (!la.loopback && !h->allow_remote) {
        rc = mv_error_set(err, MV_EINVAL,
                          "%s is not a loopback address: binding it exposes the server to the "
                          "network; add --allow-remote (and a key of your own) to do that",
                          la.host);
        goto done;
    }
    if ((rc = mv_httpd_key_load(&key, "mcpvet mcp", h->api_key_file, !la.loopback, out, err)) !=
        MV_OK)
        goto done;
    if ((rc = mv_service_new(&ctx.svc, &so, err)) != MV_OK)
        goto done;

    /* Every thread the endpoint starts inherits this mask: only sigwait
     * below sees the stop signals. */
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);

    mv_mcp_endpoint_options eo;
    memset(&eo, 0, sizeof eo);
    eo.listen = h->listen;
    eo.allow_remote = h->allow_remote;
    eo.bearer_key_sha256 = key.hash;
    eo.max_connections = h->max_connections;
    eo.idle_timeout_s = h->idle_timeout_s;
    eo.request_deadline_s = h->deadline_s;
    eo.max_body = h->max_body != 0 ? h->max_body : o->max_message;
    eo.log = log;
    eo.quiet = h->quiet;
    eo.name = "mcpvet mcp";
    mv_mcp_endpoint_handler hd = {
        .ctx = &ctx, .session_open = on_open, .handle = on_message, .session_close = on_close};
    if ((rc = mv_mcp_endpoint_start(&ep, &eo, &hd, &bound, err)) != MV_OK)
        goto done;
    fprintf(log, "mcpvet mcp: serving quarantine_security over streamable HTTP (store %s)%s\n",
            so.store_path != NULL ? so.store_path : "default",
            o->allow_agent_approval ? "; agents may approve" : "");
    fflush(log);
    fprintf(out, "mcpvet mcp: listening on http://%s/mcp\n", bound);
    fflush(out);

    int sig = 0;
    while (sigwait(&sigs, &sig) != 0) {
    }
    fprintf(log, "mcpvet mcp: %s: finishing requests in flight\n",
            sig == SIGINT ? "SIGINT" : "SIGTERM");
    fflush(log);
    mv_mcp_endpoint_stop(ep, h->grace_s != 0 ? h->grace_s : 120);
    ep = NULL;
    fprintf(log, "mcpvet mcp: stopped\n");
    fflush(log);
    rc = MV_OK;
done:
    mv_mcp_endpoint_stop(ep, 0);
    mv_service_free(ctx.svc);
    free(bound);
    return rc;
}
