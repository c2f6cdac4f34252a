/*
 * The HTTP front of `mcpvet proxy` (`--url URL --listen HOST:PORT`): the
 * guard in front of a remote MCP server. Agents reach it through the shared
 * server-side streamable-HTTP endpoint (src/server/mcp_endpoint.h, which
 * owns everything HTTP: sessions, Origin and Host checks, caps); this file
 * provides the endpoint's handler. Each agent session gets its own upstream
 * session over mcpvet's own MCP client transports (src/mcp/http.c for
 * streamable HTTP, src/mcp/sse.c for legacy HTTP+SSE) and its own guard
 * view; every message goes through the same message-level guard as the
 * stdio relay (message.c): lists filtered, calls of blocked tools answered
 * by the proxy, results scanned per --results, audit events of actor proxy.
 *
 * The endpoint calls the handler synchronously, one message of a session
 * at a time (several sessions at once on different threads). So a request
 * is sent upstream and its reply is awaited in the same call: no id
 * bookkeeping beyond matching the one reply. While waiting, the server's
 * notifications are read (list_changed marks the list stale) and requests
 * the server makes of the client are answered (ping with an empty result,
 * anything else "method not found": the endpoint has no stream towards the
 * agent). What the sessions share (the approval store handle, the two
 * engines) is used under one mutex; upstream I/O happens outside it.
 *
 * Header values (Authorization and the like) are secrets: they go to the
 * upstream transport only, which never prints them; nothing here logs a
 * header or a URL's userinfo or query.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/writer.h"
#include "mcp/transport.h"
#include "mcpvet/proxy.h"
#include "proxy/proxy_int.h"

#define INTERNAL_PREFIX "mcpvet-proxy-"
/* Messages the server sends before the reply (notifications, its own
 * requests) before the request is given up. */
#define MAX_INTERLEAVED 10000u

struct mv_proxy_http {
    mv_proxy_http_options o;
    pthread_mutex_t mu; /* the store, the engines, the counters */
    mv_store *store;
    bool own_store;
    mv_engine *engine, *results_engine;
    FILE *log;
    uint64_t blocked_calls, hidden_items, result_findings, sessions;
};

typedef struct hsession {
    mv_proxy_http *h;
    px_guard *g;
    mv_mcp_transport *t;
    mv_arena *carena, *sarena; /* the agent's message, the server's */
    mv_buf in;                 /* the server's last message */
    mv_buf meta;               /* params._meta of the agent's last request */
    mv_buf scratch;
    char version[32]; /* the protocol version the server agreed to */
    unsigned next_internal;
} hsession;

/* ------------------------------------------------------------ helpers */

static void lock(mv_proxy_http *h) {
    pthread_mutex_lock(&h->mu);
}
static void unlock(mv_proxy_http *h) {
    pthread_mutex_unlock(&h->mu);
}

static bool jstr_is(const mv_jv *v, const char *lit) {
    size_t n = strlen(lit);
    return mv_jis_string(v) && mv_jstring_len(v) == n && memcmp(mv_jstring(v), lit, n) == 0;
}

/* The match key of an id: "s" + decoded string or "n" + number text. */
static bool id_key(const mv_jv *id, mv_buf *key) {
    key->len = 0;
    key->failed = 0;
    if (mv_jis_string(id)) {
        mv_buf_putc(key, 's');
        mv_buf_append(key, mv_jstring(id), mv_jstring_len(id));
    } else if (mv_jis(id, MV_JNUMBER)) {
        mv_buf_putc(key, 'n');
        mv_buf_append(key, id->u.s, id->n);
    } else {
        return false;
    }
    return !key->failed;
}

/* A NUL-terminated copy of a short string of the tree for a header
 * (Mcp-Method, Mcp-Name), NULL when absent or too long to be one. */
static const char *small_copy(char *dst, size_t size, const char *s, size_t len) {
    if (s == NULL || len >= size || memchr(s, '\0', len) != NULL)
        return NULL;
    memcpy(dst, s, len);
    dst[len] = '\0';
    return dst;
}

/* ----------------------------------------------------------- upstream */

/* Answer a request the server made of the client. */
static void answer_server_request(hsession *s, const mv_jv *root) {
    const mv_jv *id = mv_jobject_get(root, "id");
    mv_buf b;
    mv_buf_init(&b, NULL);
    if (jstr_is(mv_jobject_get(root, "method"), "ping")) {
        mv_buf_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
        mv_json_write(&b, id);
        mv_buf_puts(&b, ",\"result\":{}}");
    } else {
        mv_buf id_text;
        mv_buf_init(&id_text, NULL);
        mv_json_write(&id_text, id);
        px_write_error(&b, id_text.data, id_text.len, -32601,
                       "mcpvet proxy: requests of the server cannot reach the client over the "
                       "HTTP front");
        mv_buf_release(&id_text);
    }
    if (!b.failed) {
        mv_mcp_msg_info info = {.method = NULL,
                                .protocol_version = s->version[0] ? s->version : NULL,
                                .notification = true};
        mv_mcp_failure fail;
        memset(&fail, 0, sizeof(fail));
        (void)s->t->ops->send(s->t, b.data, b.len, &info, mv_mcp_now_ms() + 10000, &fail);
    }
    mv_buf_release(&b);
}

/*
 * Send one message upstream; for a request (`want` not NULL) wait for the
 * reply with that id, whose text is then in s->in and tree in *root. The
 * server's notifications and requests meanwhile are handled. Returns 0, or
 * -1 with a reason (no secret: the transport's reasons never hold one).
 */
static int exchange(hsession *s, const char *msg, size_t len, const mv_mcp_msg_info *info,
                    const mv_buf *want, uint64_t deadline, const mv_jv **root, char *why,
                    size_t why_size) {
    mv_mcp_failure fail;
    mv_buf key;
    int rc = -1;
    memset(&fail, 0, sizeof(fail));
    mv_buf_init(&key, NULL);
    *root = NULL;
    bool queued_error = false;
    if (s->t->ops->send(s->t, msg, len, info, deadline, &fail) != 0) {
        if (!fail.has_body || want == NULL) {
            snprintf(why, why_size, "%s", fail.reason);
            goto done;
        }
        queued_error = true; /* a JSON-RPC error body of a non-2xx reply */
    }
    if (want == NULL) {
        rc = 0;
        goto done;
    }
    for (unsigned n = 0; n < MAX_INTERLEAVED; n++) {
        int r = s->t->ops->recv(s->t, &s->in, deadline, &fail);
        if (r != 1) {
            snprintf(why, why_size, "%s",
                     queued_error ? "the server refused the request" : fail.reason);
            goto done;
        }
        const mv_jv *v = NULL;
        mv_jerror je;
        mv_arena_reset(s->sarena);
        if (mv_json_parse(&v, s->sarena, NULL, s->in.data, s->in.len, &je) != MV_OK ||
            !mv_jis_object(v)) {
            snprintf(why, why_size,
                     "the server's reply is not one strict JSON object (refused: duplicate "
                     "keys or invalid UTF-8 could be read differently downstream)");
            goto done;
        }
        const mv_jv *method = mv_jobject_get(v, "method");
        const mv_jv *id = mv_jobject_get(v, "id");
        if (method != NULL && id == NULL) {
            lock(s->h);
            px_guard_notification(s->g, method);
            unlock(s->h);
            continue;
        }
        if (method != NULL) {
            answer_server_request(s, v);
            continue;
        }
        if (id != NULL && id_key(id, &key) && key.len == want->len &&
            memcmp(key.data, want->data, key.len) == 0) {
            *root = v;
            rc = 0;
            goto done;
        }
        /* A reply to nothing this session is waiting for: dropped. */
    }
    snprintf(why, why_size, "the server sent too many messages without answering");
done:
    mv_buf_release(&key);
    return rc;
}

/* The proxy's own tools/list, every page, before a call is decided. */
static void refresh(hsession *s) {
    mv_proxy_http *h = s->h;
    bool first = true;
    unsigned pages = 0;
    mv_buf req, want;
    mv_buf_init(&req, NULL);
    mv_buf_init(&want, NULL);
    const char *cursor = NULL;
    size_t cursor_len = 0;
    for (;;) {
        char id[64];
        snprintf(id, sizeof id, INTERNAL_PREFIX "%u", ++s->next_internal);
        req.len = 0;
        px_write_list_request(&req, id, cursor, cursor_len, &s->meta);
        want.len = 0;
        mv_buf_putc(&want, 's');
        mv_buf_puts(&want, id);
        if (req.failed || want.failed) {
            lock(h);
            px_guard_list_failed(s->g, PX_TOOLS, "out of memory");
            unlock(h);
            break;
        }
        mv_mcp_msg_info info = {.method = "tools/list",
                                .protocol_version = s->version[0] ? s->version : NULL};
        const mv_jv *root = NULL;
        char why[600];
        if (exchange(s, req.data, req.len, &info, &want, mv_mcp_now_ms() + h->o.list_timeout_ms,
                     &root, why, sizeof why) != 0) {
            lock(h);
            px_guard_list_failed(s->g, PX_TOOLS, why);
            unlock(h);
            break;
        }
        const mv_jv *next = NULL;
        lock(h);
        int r = px_guard_refresh_reply(s->g, root, first, &pages, &next);
        unlock(h);
        first = false;
        if (r != 1)
            break;
        /* The cursor lives in the server's tree: copy it before the next
         * exchange reuses the arena. */
        s->scratch.len = 0;
        mv_buf_append(&s->scratch, mv_jstring(next), mv_jstring_len(next));
        if (s->scratch.failed) {
            lock(h);
            px_guard_list_failed(s->g, PX_TOOLS, "out of memory");
            unlock(h);
            break;
        }
        cursor = s->scratch.data;
        cursor_len = s->scratch.len;
    }
    mv_buf_release(&req);
    mv_buf_release(&want);
}

/* ------------------------------------------------------------ handler */

int mv_proxy_http_session_open(void *ctx, void **session) {
    mv_proxy_http *h = ctx;
    hsession *s = calloc(1, sizeof(*s));
    mv_error err;
    int rc = MV_ENOMEM;
    *session = NULL;
    if (s == NULL)
        return MV_ENOMEM;
    s->h = h;
    mv_buf_init(&s->in, NULL);
    mv_buf_init(&s->meta, NULL);
    mv_buf_init(&s->scratch, NULL);
    s->carena = mv_arena_new(NULL, 16 * 1024);
    s->sarena = mv_arena_new(NULL, 16 * 1024);
    if (s->carena == NULL || s->sarena == NULL)
        goto fail;
    px_guard_config gc;
    memset(&gc, 0, sizeof(gc));
    gc.policy = h->o.policy;
    gc.results = h->o.results;
    gc.name = h->o.server->name;
    mv_server_ident_from_config(&gc.ident, h->o.server);
    gc.store = h->store;
    gc.store_path = h->o.store_path;
    gc.engine = h->engine;
    gc.results_engine = h->results_engine;
    gc.log = h->log;
    gc.clock = h->o.clock;
    gc.clock_arg = h->o.clock_arg;
    mv_error_clear(&err);
    lock(h);
    rc = px_guard_new(&s->g, &gc, &err);
    if (rc == MV_OK)
        h->sessions++;
    unlock(h);
    if (rc != MV_OK)
        goto fail;
    mv_mcp_limits lim = {.max_message_bytes = h->o.max_message_bytes,
                         .max_total_bytes = UINT64_MAX,
                         .max_stderr_bytes = 0};
    mv_mcp_failure fail;
    memset(&fail, 0, sizeof(fail));
    uint64_t deadline = mv_mcp_now_ms() + h->o.list_timeout_ms;
    int tr = h->o.server->transport == MV_TRANSPORT_SSE
                 ? mv_mcp_sse_open(&s->t, h->o.server, &lim, deadline, &fail)
                 : mv_mcp_http_open(&s->t, h->o.server, &lim, deadline, &fail);
    if (tr != 0) {
        px_log(s->g, "cannot reach the server: %s", fail.reason);
        rc = MV_EIO;
        goto fail;
    }
    *session = s;
    return MV_OK;
fail:
    mv_proxy_http_session_close(h, s);
    return rc;
}

void mv_proxy_http_session_close(void *ctx, void *session) {
    mv_proxy_http *h = ctx;
    hsession *s = session;
    if (s == NULL)
        return;
    if (s->t != NULL)
        s->t->ops->close(s->t, NULL); /* DELETE of the upstream session */
    if (s->g != NULL) {
        lock(h);
        uint64_t b, hi, r;
        px_guard_counts(s->g, &b, &hi, &r);
        h->blocked_calls += b;
        h->hidden_items += hi;
        h->result_findings += r;
        px_guard_free(s->g);
        unlock(h);
    }
    mv_arena_free(s->carena);
    mv_arena_free(s->sarena);
    mv_buf_release(&s->in);
    mv_buf_release(&s->meta);
    mv_buf_release(&s->scratch);
    free(s);
}

/* Forward a message that expects no reply (a notification, or the
 * agent's answer to a server request). */
static void forward_only(hsession *s, const char *msg, size_t len, const mv_jv *method) {
    char m[128];
    mv_mcp_msg_info info = {.method = method != NULL ? small_copy(m, sizeof m, mv_jstring(method),
                                                                  mv_jstring_len(method))
                                                     : NULL,
                            .protocol_version = s->version[0] ? s->version : NULL,
                            .notification = true};
    const mv_jv *root = NULL;
    char why[600];
    if (exchange(s, msg, len, &info, NULL, mv_mcp_now_ms() + s->h->o.timeout_ms, &root, why,
                 sizeof why) != 0)
        px_log(s->g, "a notification could not be sent to the server: %s", why);
}

void mv_proxy_http_handle(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply) {
    mv_proxy_http *h = ctx;
    hsession *s = session;
    const mv_jv *root = NULL;
    mv_jerror je;
    mv_buf idt;
    mv_buf want;
    size_t reply_start = reply->len;
    mv_buf_init(&idt, NULL);
    mv_buf_init(&want, NULL);
    mv_arena_reset(s->carena);
    if (mv_json_parse(&root, s->carena, NULL, msg, len, &je) != MV_OK) {
        char m[600];
        snprintf(m, sizeof m, "Parse error: mcpvet proxy accepts strict JSON only (%s)",
                 je.message);
        px_write_error(reply, NULL, 0, -32700, m);
        goto done;
    }
    if (!mv_jis_object(root)) {
        px_write_error(reply, NULL, 0, -32600,
                       "mcpvet proxy: send JSON-RPC messages one by one, not as a batch");
        goto done;
    }
    const mv_jv *method = mv_jobject_get(root, "method");
    const mv_jv *idv = mv_jobject_get(root, "id");
    if (!mv_jis_string(method) || idv == NULL) {
        forward_only(s, msg, len, method);
        goto done;
    }
    mv_json_write(&idt, idv);
    if (!id_key(idv, &want) || idt.failed) {
        px_write_error(reply, idt.failed ? NULL : idt.data, idt.len, -32600,
                       "mcpvet proxy: a request id must be a string or a number");
        goto done;
    }
    const mv_jv *params = mv_jobject_get(root, "params");
    const mv_jv *meta = mv_jobject_get(params, "_meta");
    if (mv_jis_object(meta) && mv_jobject_get(meta, "io.modelcontextprotocol/protocolVersion")) {
        s->meta.len = 0;
        mv_json_write(&s->meta, meta);
    }
    px_request rq;
    const char *bad = NULL;
    int code = px_request_classify(method, params, &rq, &bad);
    if (code != 0) {
        px_write_error(reply, idt.data, idt.len, code, bad);
        goto done;
    }
    if (rq.kind == PX_RQ_CALL) {
        lock(h);
        bool stale = px_guard_is_stale(s->g, PX_TOOLS);
        unlock(h);
        if (stale)
            refresh(s);
        lock(h);
        const char *why = px_guard_call(s->g, rq.name, rq.name_len);
        if (why != NULL)
            px_write_blocked(reply, idt.data, idt.len, why);
        unlock(h);
        if (why != NULL)
            goto done;
    }
    char mname[128], tname[256];
    mv_mcp_msg_info info = {
        .method = small_copy(mname, sizeof mname, mv_jstring(method), mv_jstring_len(method)),
        .name = rq.kind == PX_RQ_CALL || rq.kind == PX_RQ_PROMPT
                    ? small_copy(tname, sizeof tname, rq.name, rq.name_len)
                    : NULL,
        .protocol_version = rq.kind == PX_RQ_INIT || !s->version[0] ? NULL : s->version};
    const mv_jv *rr = NULL;
    char why[600];
    if (exchange(s, msg, len, &info, &want, mv_mcp_now_ms() + h->o.timeout_ms, &rr, why,
                 sizeof why) != 0) {
        char m[700];
        snprintf(m, sizeof m, "mcpvet proxy: the server did not answer: %s", why);
        px_log(s->g, "%s", m + strlen("mcpvet proxy: "));
        px_write_error(reply, idt.data, idt.len, -32000, m);
        goto done;
    }
    if (rq.kind == PX_RQ_INIT) {
        const mv_jv *v = mv_jobject_get(mv_jobject_get(rr, "result"), "protocolVersion");
        bool ok =
            mv_jis_string(v) && mv_jstring_len(v) > 0 && mv_jstring_len(v) < sizeof s->version;
        for (size_t i = 0; ok && i < mv_jstring_len(v); i++)
            ok = mv_jstring(v)[i] > 0x20 && mv_jstring(v)[i] < 0x7f;
        if (ok) {
            memcpy(s->version, mv_jstring(v), mv_jstring_len(v));
            s->version[mv_jstring_len(v)] = '\0';
        }
    }
    lock(h);
    int r = px_guard_reply(s->g, &rq, rr, reply);
    unlock(h);
    if (r < 0 || reply->failed) {
        reply->len = reply_start;
        reply->failed = 0;
        px_write_error(reply, idt.data, idt.len, -32603, "mcpvet proxy: out of memory");
    } else if (r == 0) {
        mv_buf_append(reply, s->in.data, s->in.len);
    }
done:
    mv_buf_release(&idt);
    mv_buf_release(&want);
}

/* ---------------------------------------------------------- life cycle */

int mv_proxy_http_new(mv_proxy_http **out, const mv_proxy_http_options *o, mv_error *err) {
    mv_proxy_http *h = NULL;
    int rc;
    *out = NULL;
    if (o == NULL || o->server == NULL || o->server->name == NULL || o->server->name[0] == '\0' ||
        o->server->url == NULL ||
        (o->server->transport != MV_TRANSPORT_HTTP && o->server->transport != MV_TRANSPORT_SSE))
        return mv_error_set(err, MV_EINVAL,
                            "the HTTP proxy needs a server name and an http or sse URL");
    h = calloc(1, sizeof(*h));
    if (h == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    h->o = *o;
    if (h->o.max_message_bytes == 0)
        h->o.max_message_bytes = MV_PROXY_DEFAULT_MAX_MESSAGE;
    if (h->o.timeout_ms == 0)
        h->o.timeout_ms = MV_PROXY_DEFAULT_TIMEOUT_MS;
    if (h->o.list_timeout_ms == 0)
        h->o.list_timeout_ms = MV_PROXY_DEFAULT_LIST_TIMEOUT_MS;
    h->log = o->log != NULL ? o->log : stderr;
    pthread_mutex_init(&h->mu, NULL);
    if ((rc = mv_mcp_global_init()) != MV_OK) {
        free(h);
        return mv_error_set(err, rc, "cannot initialise libcurl");
    }
    if ((rc = px_guard_engines_new(&h->engine, &h->results_engine, err)) != MV_OK) {
        mv_proxy_http_free(h);
        return rc;
    }
    h->store = o->store;
    if (h->store == NULL) {
        /* One handle for every session. A store that cannot be opened now
         * is retried by each session's guard, which fails closed. */
        mv_error serr;
        mv_error_clear(&serr);
        mv_store_options so = {.create = true, .clock = o->clock, .clock_arg = o->clock_arg};
        if (mv_store_open(&h->store, o->store_path, &so, &serr) == MV_OK)
            h->own_store = true;
        else
            h->store = NULL;
    }
    *out = h;
    return MV_OK;
}

void mv_proxy_http_free(mv_proxy_http *h) {
    if (h == NULL)
        return;
    if (h->own_store)
        mv_store_close(h->store);
    mv_engine_free(h->engine);
    mv_engine_free(h->results_engine);
    pthread_mutex_destroy(&h->mu);
    mv_mcp_global_cleanup();
    free(h);
}

void mv_proxy_http_counts(mv_proxy_http *h, mv_proxy_outcome *out) {
    memset(out, 0, sizeof(*out));
    out->server_status = -1;
    lock(h);
    out->blocked_calls = h->blocked_calls;
    out->hidden_items = h->hidden_items;
    out->result_findings = h->result_findings;
    unlock(h);
}
