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
 * The endpoint calls the handler for requests one at a time per session
 * (several sessions at once on different threads). So a request is sent
 * upstream and its reply is awaited in the same call: no id bookkeeping
 * beyond matching the one reply. What the server starts is relayed with
 * its ids as they were:
 *
 * - messages of a reply stream that come before the reply (progress, the
 *   server's own requests such as sampling or elicitation) are taken as
 *   they arrive (the transport's observer) and go on the POST's own event
 *   stream when the agent accepts one, else on the agent's GET stream;
 * - while the agent holds its GET stream open, the proxy holds the
 *   upstream session's GET stream open on a thread of its own and relays
 *   what comes on it (a server that offers none answers 405: the agent's
 *   stream then only carries what comes on reply streams);
 * - the agent's answers and notifications arrive outside the per-session
 *   serialisation and go upstream as POSTs of their own, so a server
 *   waiting for an answer inside a running request gets it.
 *
 * list_changed, wherever it comes from, marks the list stale for the
 * guard, so the next call lists again and a rug pull in the middle of a
 * session is caught as over stdio. A server's request with no agent
 * stream to take it is answered by the proxy (ping with an empty result,
 * anything else "method not found"). What the sessions share (the
 * approval store handle, the two engines) is used under one mutex;
 * upstream I/O happens outside it.
 *
 * Legacy HTTP+SSE upstream has one stream for everything, read only while
 * a request waits for its reply: the server's messages are relayed then,
 * and the agent's answers wait for the transport (a server that needs an
 * answer inside a request times out there).
 *
 * Header values (Authorization and the like) are secrets: they go to the
 * upstream transport only, which never prints them; nothing here logs a
 * header or a URL's userinfo or query.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    mv_arena *sarena; /* the server's message (the agent's: one per call) */
    mv_buf in;        /* the server's last message */
    mv_buf meta;      /* params._meta of the agent's last request */
    mv_buf scratch;
    char version[32]; /* the protocol version the server agreed to */
    unsigned next_internal;
    /* What the server starts, towards the agent: */
    pthread_mutex_t smu; /* get_st, the listener's state */
    void *get_st;        /* the agent's GET stream, NULL when none */
    void *post_st;       /* the running request's own stream (handler thread only) */
    mv_arena *oarena;    /* the observer's parses (handler thread only) */
    mv_arena *larena;    /* the listener's parses */
    pthread_t listener;
    bool listening;          /* the listener thread exists (smu) */
    atomic_bool stop_listen; /* the listener ends */
    pthread_mutex_t tx;      /* legacy SSE: one user of the transport at a time */
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

/* A message that expects no reply, upstream. Streamable HTTP: a POST of
 * its own (safe beside a request in flight). Legacy SSE: the transport,
 * one user at a time. Returns 0 or -1 with *fail. */
static int send_noreply(hsession *s, const char *msg, size_t len, const char *method,
                        mv_mcp_failure *fail) {
    uint64_t deadline = mv_mcp_now_ms() + s->h->o.timeout_ms;
    if (s->t->kind == MV_TRANSPORT_HTTP)
        return mv_mcp_http_post_message(s->t, msg, len, method, deadline, fail);
    mv_mcp_msg_info info = {.method = method,
                            .protocol_version = s->version[0] ? s->version : NULL,
                            .notification = true};
    pthread_mutex_lock(&s->tx);
    int rc = s->t->ops->send(s->t, msg, len, &info, deadline, fail);
    pthread_mutex_unlock(&s->tx);
    return rc;
}

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
        mv_mcp_failure fail;
        memset(&fail, 0, sizeof(fail));
        (void)send_noreply(s, b.data, b.len, NULL, &fail);
    }
    mv_buf_release(&b);
}

/*
 * A message the server started (`text`, `root` its tree in an arena of the
 * caller): a notification is noted by the guard (list_changed: the list
 * is stale) and passed on; a request is passed on, or answered by the
 * proxy when no agent stream takes it. `from_get`: it came on the GET
 * stream (never on the POST's own). The text goes on as it came, ids
 * intact.
 */
static void relay_started(hsession *s, const char *text, size_t len, const mv_jv *root,
                          bool from_get) {
    mv_proxy_http *h = s->h;
    const mv_jv *method = mv_jobject_get(root, "method");
    bool request = mv_jobject_get(root, "id") != NULL;
    mv_buf alt;
    mv_buf_init(&alt, NULL);
    if (!request) {
        lock(h);
        px_guard_notification(s->g, method);
        unlock(h);
    } else if (px_server_request_scanned(root)) {
        /* Sampling and elicitation: their text scanned per --results, as
         * over stdio (message.c). */
        lock(h);
        int r = px_guard_server_request(s->g, root, &alt);
        unlock(h);
        if (r == 1 && !alt.failed) {
            text = alt.data;
            len = alt.len;
        } else if (r != 0) {
            if (r != 2 || alt.failed) {
                mv_buf id;
                mv_buf_init(&id, NULL);
                mv_json_write(&id, mv_jobject_get(root, "id"));
                alt.len = 0;
                alt.failed = 0;
                px_write_error(&alt, id.failed ? NULL : id.data, id.len, -32603,
                               "mcpvet proxy: out of memory");
                mv_buf_release(&id);
            }
            mv_mcp_failure fail;
            memset(&fail, 0, sizeof(fail));
            if (!alt.failed)
                (void)send_noreply(s, alt.data, alt.len, NULL, &fail);
            mv_buf_release(&alt);
            return;
        }
    }
    int rc = -1;
    if (h->o.stream_send != NULL) {
        if (!from_get && s->post_st != NULL)
            rc = h->o.stream_send(s->post_st, text, len);
        if (rc != 0) {
            pthread_mutex_lock(&s->smu);
            if (s->get_st != NULL)
                rc = h->o.stream_send(s->get_st, text, len);
            pthread_mutex_unlock(&s->smu);
        }
    }
    if (rc != 0 && request)
        answer_server_request(s, root);
    mv_buf_release(&alt);
}

/* Parse what the server started; false when it is not one strict JSON
 * object or is a response (which is not started by the server). */
static bool parse_started(mv_arena *a, const char *msg, size_t len, const mv_jv **root) {
    mv_jerror je;
    mv_arena_reset(a);
    return mv_json_parse(root, a, NULL, msg, len, &je) == MV_OK && mv_jis_object(*root) &&
           mv_jis_string(mv_jobject_get(*root, "method"));
}

/* The transport's observer: a message of a reply stream as it arrives
 * (on the handler's thread, inside send). Responses stay for exchange. */
static bool observe(void *arg, const char *msg, size_t len) {
    hsession *s = arg;
    const mv_jv *root = NULL;
    if (!parse_started(s->oarena, msg, len, &root))
        return false;
    relay_started(s, msg, len, root, false);
    return true;
}

/* A message of the upstream GET stream (on the listener's thread). */
static bool on_get_message(void *arg, const char *msg, size_t len) {
    hsession *s = arg;
    const mv_jv *root = NULL;
    if (!parse_started(s->larena, msg, len, &root)) {
        px_log(s->g, "a message on the server's event stream is not a strict JSON-RPC request or "
                     "notification; dropped");
        return true;
    }
    relay_started(s, msg, len, root, true);
    return true;
}

/* Holds the upstream GET stream open while the agent's is. A server that
 * ends it is asked again (a few times in a row at most, a second apart);
 * when it cannot be kept, the agent's stream is ended too, so the agent
 * sees the loss and may open a new one. */
static void *listener_main(void *arg) {
    hsession *s = arg;
    mv_proxy_http *h = s->h;
    unsigned failures = 0;
    while (!atomic_load(&s->stop_listen)) {
        mv_mcp_failure fail;
        memset(&fail, 0, sizeof fail);
        uint64_t t0 = mv_mcp_now_ms();
        int rc = mv_mcp_http_listen(s->t, on_get_message, s, &s->stop_listen,
                                    t0 + h->o.list_timeout_ms, &fail);
        if (atomic_load(&s->stop_listen))
            break;
        if (rc == 1) {
            px_log(s->g, "the server offers no event stream (GET: 405); only messages of reply "
                         "streams reach the agent");
            break;
        }
        if (rc < 0)
            px_log(s->g, "the server's event stream failed: %s", fail.reason);
        failures = mv_mcp_now_ms() - t0 > 10000 ? 1 : failures + 1;
        if (failures >= 3 || (rc < 0 && fail.http_status == 404)) {
            px_log(s->g, "the server's event stream cannot be kept open; the agent's is ended");
            pthread_mutex_lock(&s->smu);
            if (s->get_st != NULL && h->o.stream_end != NULL)
                h->o.stream_end(s->get_st);
            pthread_mutex_unlock(&s->smu);
            break;
        }
        for (int i = 0; i < 10 && !atomic_load(&s->stop_listen); i++) {
            struct timespec nap = {0, 100 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    return NULL;
}

/* Stop and join the listener (never under smu). */
static void listener_stop(hsession *s) {
    pthread_mutex_lock(&s->smu);
    bool running = s->listening;
    s->listening = false;
    pthread_mutex_unlock(&s->smu);
    if (!running)
        return;
    atomic_store(&s->stop_listen, true);
    pthread_join(s->listener, NULL);
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
    bool sse = s->t->kind != MV_TRANSPORT_HTTP;
    if (sse)
        pthread_mutex_lock(&s->tx);
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
        if (mv_jis_string(method)) {
            relay_started(s, s->in.data, s->in.len, v, false);
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
    if (sse)
        pthread_mutex_unlock(&s->tx);
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
    pthread_mutex_init(&s->smu, NULL);
    pthread_mutex_init(&s->tx, NULL);
    atomic_init(&s->stop_listen, false);
    s->sarena = mv_arena_new(NULL, 16 * 1024);
    s->oarena = mv_arena_new(NULL, 4 * 1024);
    s->larena = mv_arena_new(NULL, 4 * 1024);
    if (s->sarena == NULL || s->oarena == NULL || s->larena == NULL)
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
    /* Results under --results warn are scanned by a worker of the
     * session's guard, which records each finding holding h->mu, the
     * mutex this file holds around every guard call (guard.c, "Results
     * off the relay's thread"). */
    gc.scan_queue = h->o.scan_queue == 0  ? MV_PROXY_DEFAULT_SCAN_QUEUE
                    : h->o.scan_queue < 0 ? 0
                                          : h->o.scan_queue;
    gc.lock = &h->mu;
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
    mv_mcp_http_set_observer(s->t, observe, s);
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
    listener_stop(s); /* normally done when the agent's stream closed */
    if (s->t != NULL)
        s->t->ops->close(s->t, NULL); /* DELETE of the upstream session */
    if (s->g != NULL) {
        /* Pending scans first, without h->mu: the worker records each one
         * holding it. No request of this session runs any more, so none
         * is queued meanwhile. */
        px_guard_scans_finish(s->g);
        lock(h);
        uint64_t b, hi, r;
        px_guard_counts(s->g, &b, &hi, &r);
        h->blocked_calls += b;
        h->hidden_items += hi;
        h->result_findings += r;
        px_guard_free(s->g);
        unlock(h);
    }
    mv_arena_free(s->sarena);
    mv_arena_free(s->oarena);
    mv_arena_free(s->larena);
    pthread_mutex_destroy(&s->smu);
    pthread_mutex_destroy(&s->tx);
    mv_buf_release(&s->in);
    mv_buf_release(&s->meta);
    mv_buf_release(&s->scratch);
    free(s);
}

/* Forward a message that expects no reply (a notification, or the
 * agent's answer to a server request). May run beside a request of the
 * same session. */
static void forward_only(hsession *s, const char *msg, size_t len, const mv_jv *method) {
    char m[128];
    mv_mcp_failure fail;
    memset(&fail, 0, sizeof fail);
    const char *mname =
        method != NULL ? small_copy(m, sizeof m, mv_jstring(method), mv_jstring_len(method)) : NULL;
    if (send_noreply(s, msg, len, mname, &fail) != 0)
        px_log(s->g, "a %s could not be sent to the server: %s",
               method != NULL ? "notification" : "response", fail.reason);
}

static void handle_request(mv_proxy_http *h, hsession *s, const char *msg, size_t len,
                           const mv_jv *root, mv_buf *reply);

void mv_proxy_http_handle(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply) {
    mv_proxy_http_handle_streamed(ctx, session, msg, len, reply, NULL);
}

void mv_proxy_http_handle_streamed(void *ctx, void *session, const char *msg, size_t len,
                                   mv_buf *reply, void *stream) {
    mv_proxy_http *h = ctx;
    hsession *s = session;
    /* One strict parse per message, in an arena of this call: a message
     * that expects no reply may arrive while a request of the session is
     * running (requests are serialised per session, nothing else is). */
    mv_arena *a = mv_arena_new(NULL, 16 * 1024);
    const mv_jv *root = NULL;
    mv_jerror je;
    if (a == NULL)
        return;
    if (mv_json_parse(&root, a, NULL, msg, len, &je) != MV_OK || !mv_jis_object(root)) {
        px_log(s->g, "a message of the agent that is not strict JSON was not passed on");
    } else if (!mv_jis_string(mv_jobject_get(root, "method")) ||
               mv_jobject_get(root, "id") == NULL) {
        /* A notification, or the agent's answer to a server request. */
        forward_only(s, msg, len, mv_jobject_get(root, "method"));
    } else {
        s->post_st = stream;
        handle_request(h, s, msg, len, root, reply);
        s->post_st = NULL;
    }
    mv_arena_free(a);
}

void mv_proxy_http_stream_open(void *ctx, void *session, void *stream) {
    mv_proxy_http *h = ctx;
    hsession *s = session;
    listener_stop(s); /* a stream before this one */
    pthread_mutex_lock(&s->smu);
    s->get_st = stream;
    bool start = s->t->kind == MV_TRANSPORT_HTTP;
    if (start) {
        atomic_store(&s->stop_listen, false);
        s->listening = pthread_create(&s->listener, NULL, listener_main, s) == 0;
        if (!s->listening)
            px_log(s->g, "cannot start the thread for the server's event stream");
    }
    pthread_mutex_unlock(&s->smu);
    (void)h;
}

void mv_proxy_http_stream_close(void *ctx, void *session, void *stream) {
    hsession *s = session;
    (void)ctx;
    pthread_mutex_lock(&s->smu);
    if (s->get_st == stream)
        s->get_st = NULL;
    pthread_mutex_unlock(&s->smu);
    listener_stop(s);
}

/* A request of the agent (`root` its tree: an object with a string method
 * and an id), its reply appended to `reply`. */
static void handle_request(mv_proxy_http *h, hsession *s, const char *msg, size_t len,
                           const mv_jv *root, mv_buf *reply) {
    mv_buf idt;
    mv_buf want;
    size_t reply_start = reply->len;
    mv_buf_init(&idt, NULL);
    mv_buf_init(&want, NULL);
    const mv_jv *method = mv_jobject_get(root, "method");
    const mv_jv *idv = mv_jobject_get(root, "id");
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
