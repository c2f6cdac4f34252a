/*
 * The relay of `mcpvet proxy` (include/mcpvet/proxy.h): one poll() loop over
 * the agent's stdin and stdout and the server's stdin, stdout and stderr,
 * no threads. Messages are whole lines (frame.c); each is parsed strictly
 * once to learn what it is, and passed on as the same bytes unless the
 * guard (guard.c) has to rewrite or answer it.
 *
 * Bookkeeping: every request of the agent is remembered by id until its
 * reply comes, so list replies are found among interleaved notifications
 * and out-of-order replies, and so every request still in flight is
 * answered with a JSON-RPC error when the server exits, stays silent past
 * the timeout or sends a reply over the cap. A reply to no request in
 * flight is dropped (a server must not answer a request before it is
 * asked). The proxy's own requests (tools/list before deciding a call when
 * the session has no current list) use string ids "mcpvet-proxy-PID-N" and
 * are never passed on.
 *
 * Messages that are not strict JSON (duplicate keys, invalid UTF-8) are
 * refused both ways: a lenient reader downstream could see another message
 * than the one the guard checked.
 *
 * The parse is lazy (mv_json_parse_lazy, strict all the same): a long
 * escaped string value inside three containers or more (a tool's
 * arguments, a result's text) is validated but not decoded, since the
 * relay passes it on as bytes; a result's raw text is decoded by the
 * guard where it is scanned (the worker, under --results warn). What
 * reads deeper than that (a list the guard filters, an initialize result,
 * a batch of the server, the proxy's own tools/list) gets the full tree
 * (full_tree).
 */

#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcp/transport.h"
#include "mcpvet/proxy.h"
#include "proxy/proxy_int.h"

/* Requests of the agent in flight at once; more are refused. */
#define MAX_INFLIGHT 4096u
/* Calls held while the proxy lists the tools. */
#define MAX_HELD 1024u
/* Stop reading a side while the queue towards the other holds this much. */
#define QUEUE_HIGH (4u * 1024 * 1024)
/* After the agent closes its side: how long the server gets to finish. */
#define DRAIN_MS 2000u
/* After the server ends: how long the last replies get to reach the agent. */
#define FLUSH_MS 5000u
/* Log lines about garbage from the server before they are only counted. */
#define GARBAGE_LOG_MAX 10u

#define INTERNAL_PREFIX "mcpvet-proxy-"

/* Lazy parse: string values at this depth (a member of params or result
 * is at 2) and this raw length or more, with escapes, stay raw. The
 * length keeps every short string (a type, a method, an id) decoded;
 * what the relay itself reads is at depth 1 or 2. */
#define LAZY_DEPTH 3u
#define LAZY_MIN 256u

typedef struct inflight {
    char *key; /* "n<number text>" or "s<decoded string>" */
    size_t key_len;
    char *id; /* the id as JSON text */
    size_t id_len;
    px_request rq; /* rq.name is owned (a copy) */
} inflight;

typedef struct held {
    char *line;
    size_t len;
} held;

typedef struct px {
    const mv_proxy_options *o;
    px_guard *g;
    mv_mcp_transport *t;
    int srv_in, srv_out, srv_err;
    px_reader cr, sr;
    px_queue cq, sq;
    inflight *fl;
    size_t n_fl, cap_fl;
    held *hq;
    size_t n_hq;
    /* the proxy's own tools/list */
    bool refreshing, refresh_first;
    char refresh_id[64];
    unsigned refresh_pages, next_internal;
    uint64_t refresh_deadline;
    mv_buf meta; /* params._meta of the agent's last request (2026-07-28 needs it) */
    uint64_t last_server_activity;
    bool client_eof, server_eof, input_closed, done;
    uint64_t drain_deadline;
    unsigned garbage;
    /* Parse trees of the message being handled, one arena per side: a
     * server reply can replay held calls of the agent while its own tree
     * is still in use. */
    mv_arena *arena, *carena;
    mv_buf out;
    mv_proxy_outcome *outcome;
    int server_status;
    bool full_parse; /* tests: every message parsed whole (px_session_full_parse) */
} px;

/* One message, strictly: lazily (see the top of the file) unless a test
 * asked for the full parse to compare with. */
static int parse_message(const px *p, mv_arena *arena, const char *line, size_t len,
                         const mv_jv **root, mv_json_lazy *lazy, mv_jerror *je) {
    lazy->depth = LAZY_DEPTH;
    lazy->min_len = LAZY_MIN;
    lazy->n_raw = 0;
    if (p->full_parse)
        return mv_json_parse(root, arena, NULL, line, len, je);
    return mv_json_parse_lazy(root, arena, NULL, line, len, lazy, je);
}

/* ------------------------------------------------------------- replies */

static void send_client(px *p, const char *msg, size_t len) {
    if (px_queue_send(&p->cq, msg, len, true) != MV_OK)
        px_log(p->g, "out of memory: a message for the agent was lost");
    p->outcome->messages_out++;
}

static void reply_error(px *p, const char *id, size_t id_len, int code, const char *message) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    px_write_error(&b, id, id_len, code, message);
    if (!b.failed)
        send_client(p, b.data, b.len);
    mv_buf_release(&b);
}

static void reply_blocked(px *p, const char *id, size_t id_len, const char *text) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    px_write_blocked(&b, id, id_len, text);
    if (!b.failed)
        send_client(p, b.data, b.len);
    mv_buf_release(&b);
}

/* ------------------------------------------------------------ ids */

/* The tracking key and JSON text of an id; false for ids that are not a
 * string or a number (not tracked). */
static bool id_of(const mv_jv *id, mv_buf *key, mv_buf *json) {
    key->len = 0;
    json->len = 0;
    if (mv_jis_string(id)) {
        mv_buf_putc(key, 's');
        mv_buf_append(key, mv_jstring(id), mv_jstring_len(id));
        mv_buf_json_string(json, mv_jstring(id), mv_jstring_len(id));
    } else if (mv_jis(id, MV_JNUMBER)) {
        mv_buf_putc(key, 'n');
        mv_buf_append(key, id->u.s, id->n);
        mv_buf_append(json, id->u.s, id->n);
    } else {
        return false;
    }
    return !key->failed && !json->failed;
}

static inflight *find_fl(px *p, const char *key, size_t len) {
    for (size_t i = 0; i < p->n_fl; i++)
        if (p->fl[i].key_len == len && memcmp(p->fl[i].key, key, len) == 0)
            return &p->fl[i];
    return NULL;
}

static void drop_fl(px *p, inflight *f) {
    free(f->key);
    free(f->id);
    free((char *)(uintptr_t)f->rq.name);
    *f = p->fl[--p->n_fl];
}

static char *dupmem(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d != NULL) {
        if (n > 0)
            memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int add_fl(px *p, const mv_buf *key, const mv_buf *json, const px_request *rq) {
    if (p->n_fl == p->cap_fl) {
        size_t cap = p->cap_fl ? 2 * p->cap_fl : 16;
        inflight *g = realloc(p->fl, cap * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        p->fl = g;
        p->cap_fl = cap;
    }
    inflight *f = &p->fl[p->n_fl];
    memset(f, 0, sizeof(*f));
    f->key = dupmem(key->data, key->len);
    f->key_len = key->len;
    f->id = dupmem(json->data, json->len);
    f->id_len = json->len;
    f->rq = *rq;
    f->rq.name = rq->name != NULL ? dupmem(rq->name, rq->name_len) : NULL;
    if (f->key == NULL || f->id == NULL || (rq->name != NULL && f->rq.name == NULL)) {
        free(f->key);
        free(f->id);
        free((char *)(uintptr_t)f->rq.name);
        return MV_ENOMEM;
    }
    p->n_fl++;
    return MV_OK;
}

/* Answer every request in flight with an error (the server is gone or
 * silent), and every held call. */
static void fail_inflight(px *p, int code, const char *why) {
    while (p->n_fl > 0) {
        inflight *f = &p->fl[p->n_fl - 1];
        reply_error(p, f->id, f->id_len, code, why);
        drop_fl(p, f);
    }
}

/* ------------------------------------------------------------ the lists */

/* Strings of the tree are not NUL-terminated: compare with the length. */
static bool jstr_is(const mv_jv *v, const char *lit) {
    size_t n = strlen(lit);
    return mv_jis_string(v) && mv_jstring_len(v) == n && memcmp(mv_jstring(v), lit, n) == 0;
}

static void send_server(px *p, const char *msg, size_t len) {
    if (px_queue_send(&p->sq, msg, len, p->t != NULL && !p->input_closed) != MV_OK)
        px_log(p->g, "out of memory: a message for the server was lost");
}

/* Ask the server for (the next page of) its tools. */
static void refresh_request(px *p, const char *cursor, size_t cursor_len) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    snprintf(p->refresh_id, sizeof p->refresh_id, INTERNAL_PREFIX "%ld-%u", (long)getpid(),
             ++p->next_internal);
    px_write_list_request(&b, p->refresh_id, cursor, cursor_len, &p->meta);
    if (!b.failed)
        send_server(p, b.data, b.len);
    mv_buf_release(&b);
    p->refresh_deadline = mv_mcp_now_ms() + p->o->list_timeout_ms;
}

static void start_refresh(px *p) {
    if (p->refreshing)
        return;
    p->refreshing = true;
    p->refresh_first = true;
    p->refresh_pages = 0;
    refresh_request(p, NULL, 0);
}

static void handle_client_message(px *p, const char *line, size_t len, bool replay);

static void release_held(px *p) {
    held *hq = p->hq;
    size_t n = p->n_hq;
    p->hq = NULL;
    p->n_hq = 0;
    for (size_t i = 0; i < n; i++) {
        handle_client_message(p, hq[i].line, hq[i].len, true);
        free(hq[i].line);
    }
    free(hq);
}

static void refresh_done(px *p, const char *failure) {
    p->refreshing = false;
    p->refresh_id[0] = '\0';
    if (failure != NULL)
        px_guard_list_failed(p->g, PX_TOOLS, failure);
    release_held(p);
}

/* ------------------------------------------------------- agent -> server */

static void track_and_forward(px *p, const char *line, size_t len, const mv_buf *key,
                              const mv_buf *json, const px_request *rq) {
    if (p->sq.broken || p->input_closed) {
        reply_error(p, json->data, json->len, -32000,
                    "mcpvet proxy: the server no longer reads its input");
        return;
    }
    if (add_fl(p, key, json, rq) != MV_OK) {
        reply_error(p, json->data, json->len, -32603, "mcpvet proxy: out of memory");
        return;
    }
    send_server(p, line, len);
}

static bool hold(px *p, const char *line, size_t len) {
    if (p->n_hq >= MAX_HELD)
        return false;
    held *g = realloc(p->hq, (p->n_hq + 1) * sizeof(*g));
    if (g == NULL)
        return false;
    p->hq = g;
    p->hq[p->n_hq].line = dupmem(line, len);
    p->hq[p->n_hq].len = len;
    if (p->hq[p->n_hq].line == NULL)
        return false;
    p->n_hq++;
    return true;
}

static void handle_client_batch(px *p, const char *line, size_t len, const mv_jv *root) {
    /* Batches (2025-03-26 only) are passed on as they are unless they hold
     * something the guard must see; those are refused whole. */
    mv_buf key, json;
    bool guarded = false;
    mv_buf_init(&key, NULL);
    mv_buf_init(&json, NULL);
    for (size_t i = 0; i < mv_jarray_size(root) && !guarded; i++)
        guarded = px_method_guarded(mv_jobject_get(mv_jarray_get(root, i), "method"));
    if (guarded) {
        mv_buf b;
        mv_buf_init(&b, NULL);
        mv_buf_putc(&b, '[');
        bool any = false;
        for (size_t i = 0; i < mv_jarray_size(root); i++) {
            const mv_jv *e = mv_jarray_get(root, i);
            if (mv_jobject_get(e, "method") == NULL || !id_of(mv_jobject_get(e, "id"), &key, &json))
                continue;
            mv_buf_printf(&b,
                          "%s{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32600,"
                          "\"message\":\"mcpvet proxy: a batch holding a guarded method "
                          "(tools/call, a list, prompts/get, resources/read, initialize) is "
                          "not relayed; send them one by one\"}}",
                          any ? "," : "", json.data);
            any = true;
        }
        mv_buf_putc(&b, ']');
        if (any && !b.failed)
            send_client(p, b.data, b.len);
        mv_buf_release(&b);
        px_log(p->g, "refused a batch from the agent that holds guarded methods");
    } else {
        px_request other;
        memset(&other, 0, sizeof(other));
        for (size_t i = 0; i < mv_jarray_size(root); i++) {
            const mv_jv *e = mv_jarray_get(root, i);
            if (mv_jobject_get(e, "method") != NULL &&
                id_of(mv_jobject_get(e, "id"), &key, &json) && p->n_fl < MAX_INFLIGHT)
                add_fl(p, &key, &json, &other);
        }
        send_server(p, line, len);
    }
    mv_buf_release(&key);
    mv_buf_release(&json);
}

static void handle_client_message(px *p, const char *line, size_t len, bool replay) {
    const mv_jv *root = NULL;
    mv_jerror je;
    mv_buf key, json;
    mv_buf_init(&key, NULL);
    mv_buf_init(&json, NULL);
    mv_json_lazy lazy;
    mv_arena_reset(p->carena);
    /* Lazy: nothing below reads a string deeper than params' members
     * (params._meta is written with mv_json_write, which decodes). */
    if (parse_message(p, p->carena, line, len, &root, &lazy, &je) != MV_OK) {
        mv_buf id;
        mv_buf_init(&id, NULL);
        bool has_id = px_find_id(line, len, &id);
        char msg[600];
        snprintf(msg, sizeof msg, "Parse error: mcpvet proxy accepts strict JSON only (%s)",
                 je.message);
        reply_error(p, has_id ? id.data : NULL, id.len, -32700, msg);
        px_log(p->g, "refused a message from the agent that is not strict JSON (%s)", je.message);
        mv_buf_release(&id);
        goto done;
    }
    if (mv_jis_array(root)) {
        handle_client_batch(p, line, len, root);
        goto done;
    }
    const mv_jv *method = mv_jobject_get(root, "method");
    const mv_jv *idv = mv_jobject_get(root, "id");
    /* What the guard decides or rewrites must be a request it can track:
     * a tools/call sent as a notification or with an id that is no
     * string or number (null, true, an object) would otherwise pass
     * undecided, and a lenient server may still run it. */
    if (px_method_guarded(method) && (idv == NULL || !id_of(idv, &key, &json))) {
        if (idv != NULL)
            reply_error(p, NULL, 0, -32600,
                        "mcpvet proxy: a request the guard decides needs an id that is a "
                        "string or a number");
        px_log(p->g, "refused a %.*s from the agent without a usable id",
               (int)mv_jstring_len(method), mv_jstring(method));
        goto done;
    }
    if (!mv_jis_string(method) || idv == NULL) {
        /* A notification or a reply to the server's request. */
        send_server(p, line, len);
        goto done;
    }
    if (!id_of(idv, &key, &json)) {
        send_server(p, line, len); /* an id the server will refuse */
        goto done;
    }
    if (p->n_fl >= MAX_INFLIGHT) {
        reply_error(p, json.data, json.len, -32000, "mcpvet proxy: too many requests in flight");
        goto done;
    }
    const mv_jv *params = mv_jobject_get(root, "params");
    const mv_jv *meta = mv_jobject_get(params, "_meta");
    if (mv_jis_object(meta) && mv_jobject_get(meta, "io.modelcontextprotocol/protocolVersion")) {
        p->meta.len = 0;
        mv_json_write(&p->meta, meta);
    }
    px_request rq;
    const char *bad = NULL;
    int code = px_request_classify(method, params, &rq, &bad);
    if (code != 0) {
        reply_error(p, json.data, json.len, code, bad);
        goto done;
    }
    if (rq.kind == PX_RQ_CALL) {
        if (px_guard_is_stale(p->g, PX_TOOLS) && !replay) {
            /* No current list: list first, then decide. */
            if (!hold(p, line, len)) {
                reply_error(p, json.data, json.len, -32000, "mcpvet proxy: too many calls waiting");
                goto done;
            }
            start_refresh(p);
            goto done;
        }
        const char *why = px_guard_call(p->g, rq.name, rq.name_len);
        if (why != NULL) {
            reply_blocked(p, json.data, json.len, why);
            goto done;
        }
    }
    track_and_forward(p, line, len, &key, &json, &rq);
done:
    mv_buf_release(&key);
    mv_buf_release(&json);
}

static void handle_client_line(px *p, const char *line, size_t len) {
    p->outcome->messages_in++;
    handle_client_message(p, line, len, false);
}

/* ------------------------------------------------------- server -> agent */

/* The tree of the server's message being handled with every string
 * decoded, for what reads deeper than the lazy parse decodes: `root`
 * itself when the lazy parse left nothing raw, else the message parsed
 * again (it parsed strictly once already, so only memory can fail: NULL).
 * The arena keeps the lazy tree: its values stay valid. */
static const mv_jv *full_tree(px *p, const char *line, size_t len, const mv_jv *root, bool lazy) {
    const mv_jv *full = NULL;
    mv_jerror je;
    if (!lazy)
        return root;
    if (mv_json_parse(&full, p->arena, NULL, line, len, &je) != MV_OK)
        return NULL;
    return full;
}

static void handle_refresh_reply(px *p, const mv_jv *root) {
    const mv_jv *next = NULL;
    int r = px_guard_refresh_reply(p->g, root, p->refresh_first, &p->refresh_pages, &next);
    p->refresh_first = false;
    if (r == 1) {
        refresh_request(p, mv_jstring(next), mv_jstring_len(next));
        return;
    }
    /* A failure was recorded by the guard. */
    p->refreshing = false;
    p->refresh_id[0] = '\0';
    release_held(p);
}

/* `lazy`: root may hold raw values (mv_json_parse_lazy). */
static void handle_reply(px *p, const char *line, size_t len, const mv_jv *root, const mv_jv *idv,
                         bool lazy, bool *emitted) {
    mv_buf key, json;
    mv_buf_init(&key, NULL);
    mv_buf_init(&json, NULL);
    *emitted = false;
    if (mv_jis_string(idv) && mv_jstring_len(idv) > strlen(INTERNAL_PREFIX) &&
        memcmp(mv_jstring(idv), INTERNAL_PREFIX, strlen(INTERNAL_PREFIX)) == 0) {
        if (p->refreshing && jstr_is(idv, p->refresh_id)) {
            const mv_jv *full = full_tree(p, line, len, root, lazy);
            if (full != NULL)
                handle_refresh_reply(p, full);
            else
                refresh_done(p, "out of memory");
        }
        goto done; /* a late reply to an abandoned request of the proxy */
    }
    inflight *f = id_of(idv, &key, &json) ? find_fl(p, key.data, key.len) : NULL;
    if (f == NULL) {
        px_log(p->g, "dropped a reply from the server to no request in flight");
        goto done;
    }
    inflight fl = *f;
    p->fl[f - p->fl] = p->fl[--p->n_fl]; /* taken out; fl owns its strings now */
    p->out.len = 0;
    p->out.failed = 0;
    /* A list and an initialize result are read through (every tool's
     * text); a result's texts are read raw or not (guard.c decodes them
     * where they are scanned); any other reply is not read. */
    if (fl.rq.kind == PX_RQ_LIST || fl.rq.kind == PX_RQ_INIT) {
        root = full_tree(p, line, len, root, lazy);
        if (root == NULL) {
            reply_error(p, fl.id, fl.id_len, -32603, "mcpvet proxy: out of memory");
            free(fl.key);
            free(fl.id);
            free((char *)(uintptr_t)fl.rq.name);
            *emitted = true;
            goto done;
        }
    }
    /* --results warn never alters a result: the agent gets it first, and
     * its scan (which only logs and notes) is queued for the guard's
     * worker thread, so it delays neither this result nor the next
     * message (a scan of a 64 KB text costs more than the rest of the
     * round trip; guard.c, "Results off the relay's thread"). The relay's
     * own loop only; a session without descriptors (px_session) hands its
     * queue out after the call. */
    bool early =
        p->cq.fd >= 0 && p->o->results == MV_PROXY_RESULTS_WARN &&
        (fl.rq.kind == PX_RQ_CALL || fl.rq.kind == PX_RQ_PROMPT || fl.rq.kind == PX_RQ_READ);
    if (early)
        send_client(p, line, len); /* written now when the agent's pipe takes it */
    int r = px_guard_reply(p->g, &fl.rq, root, &p->out);
    if (early) {
        if (r < 0)
            px_log(p->g, "out of memory: a result was passed on unscanned");
        *emitted = true;
    } else if (r == 1 && !p->out.failed) {
        send_client(p, p->out.data, p->out.len);
        *emitted = true;
    } else if (r < 0) {
        reply_error(p, fl.id, fl.id_len, -32603, "mcpvet proxy: out of memory");
        *emitted = true;
    }
    if (!*emitted)
        send_client(p, line, len);
    *emitted = true;
    free(fl.key);
    free(fl.id);
    free((char *)(uintptr_t)fl.rq.name);
done:
    mv_buf_release(&key);
    mv_buf_release(&json);
}

/* A request of the server for the agent's client: sampling and
 * elicitation have their text scanned per --results first (under warn the
 * agent gets it before the scan, as a result); a refused one gets an error
 * back instead of reaching the agent. */
static void relay_server_request(px *p, const char *line, size_t len, const mv_jv *root) {
    bool early = p->cq.fd >= 0 && p->o->results == MV_PROXY_RESULTS_WARN;
    if (early)
        send_client(p, line, len);
    p->out.len = 0;
    p->out.failed = 0;
    int r = px_guard_server_request(p->g, root, &p->out);
    if (early) {
        if (r < 0)
            px_log(p->g, "out of memory: a request of the server was passed on unscanned");
    } else if (r == 1 && !p->out.failed) {
        send_client(p, p->out.data, p->out.len);
    } else if (r == 2 && !p->out.failed) {
        send_server(p, p->out.data, p->out.len);
    } else if (r != 0) {
        /* Not known to be clean: refused (strip and block fail closed). */
        mv_buf id;
        mv_buf_init(&id, NULL);
        mv_json_write(&id, mv_jobject_get(root, "id"));
        p->out.len = 0;
        p->out.failed = 0;
        px_write_error(&p->out, id.failed ? NULL : id.data, id.len, -32603,
                       "mcpvet proxy: out of memory");
        if (!p->out.failed)
            send_server(p, p->out.data, p->out.len);
        mv_buf_release(&id);
        px_log(p->g, "out of memory: a request of the server was refused");
    } else {
        send_client(p, line, len);
    }
}

static void garbage(px *p, const char *what) {
    if (++p->garbage <= GARBAGE_LOG_MAX)
        px_log(p->g, "dropped a message from the server: %s%s", what,
               p->garbage == GARBAGE_LOG_MAX ? " (further ones are not logged)" : "");
}

static void handle_server_line(px *p, const char *line, size_t len) {
    const mv_jv *root = NULL;
    mv_jerror je;
    mv_json_lazy lazy;
    mv_arena_reset(p->arena);
    p->last_server_activity = mv_mcp_now_ms();
    if (parse_message(p, p->arena, line, len, &root, &lazy, &je) != MV_OK) {
        /* If it names a request in flight, that request gets an error. */
        mv_buf id, key, json;
        mv_buf_init(&id, NULL);
        mv_buf_init(&key, NULL);
        mv_buf_init(&json, NULL);
        const mv_jv *doc = NULL;
        if (px_find_id(line, len, &id) &&
            mv_json_parse(&doc, p->arena, NULL, id.data, id.len, &je) != MV_OK) {
            /* a bare number or string is not a document: wrap it */
            mv_buf w;
            mv_buf_init(&w, NULL);
            mv_buf_putc(&w, '[');
            mv_buf_append(&w, id.data, id.len);
            mv_buf_putc(&w, ']');
            const mv_jv *arr = NULL;
            if (mv_json_parse(&arr, p->arena, NULL, w.data, w.len, &je) == MV_OK &&
                id_of(mv_jarray_get(arr, 0), &key, &json)) {
                inflight *f = find_fl(p, key.data, key.len);
                if (f != NULL) {
                    reply_error(p, f->id, f->id_len, -32603,
                                "mcpvet proxy: the server's reply is not strict JSON "
                                "(refused: duplicate keys or invalid UTF-8 could be read "
                                "differently downstream)");
                    drop_fl(p, f);
                }
            }
            mv_buf_release(&w);
        }
        mv_buf_release(&id);
        mv_buf_release(&key);
        mv_buf_release(&json);
        garbage(p, "not strict JSON");
        return;
    }
    if (mv_jis_array(root)) {
        /* A batch: each element on its own, each passed on as its own line
         * (a reply the guard rewrites cannot stay inside the batch). Its
         * elements are written and read as the full tree has them. */
        root = full_tree(p, line, len, root, lazy.n_raw > 0);
        if (root == NULL) {
            garbage(p, "out of memory");
            return;
        }
        bool plain = true;
        for (size_t i = 0; i < root->n && plain; i++) {
            const mv_jv *e = &root->u.items[i];
            const mv_jv *m = mv_jobject_get(e, "method");
            if (m == NULL || px_server_request_scanned(e))
                plain = false;
        }
        for (size_t i = 0; i < root->n && plain; i++)
            px_guard_notification(p->g, mv_jobject_get(&root->u.items[i], "method"));
        if (plain) {
            send_client(p, line, len);
            return;
        }
        mv_buf el;
        mv_buf_init(&el, NULL);
        for (size_t i = 0; i < root->n; i++) {
            const mv_jv *e = &root->u.items[i];
            el.len = 0;
            mv_json_write(&el, e);
            if (el.failed)
                break;
            if (mv_jobject_get(e, "method") != NULL) {
                if (mv_jobject_get(e, "id") == NULL) {
                    px_guard_notification(p->g, mv_jobject_get(e, "method"));
                    send_client(p, el.data, el.len);
                } else {
                    relay_server_request(p, el.data, el.len, e);
                }
                continue;
            }
            /* Re-parse the element on its own: handle_reply needs its tree
             * and bytes; the batch's arena is kept (no reset). */
            const mv_jv *sub = NULL;
            bool emitted;
            if (mv_json_parse(&sub, p->arena, NULL, el.data, el.len, &je) == MV_OK)
                handle_reply(p, el.data, el.len, sub, mv_jobject_get(sub, "id"), false, &emitted);
        }
        mv_buf_release(&el);
        return;
    }
    const mv_jv *method = mv_jobject_get(root, "method");
    if (method != NULL) {
        if (mv_jobject_get(root, "id") != NULL) {
            relay_server_request(p, line, len, root);
            return;
        }
        px_guard_notification(p->g, method);
        send_client(p, line, len);
        return;
    }
    const mv_jv *idv = mv_jobject_get(root, "id");
    if (idv == NULL) {
        garbage(p, "neither a request, a notification nor a reply");
        return;
    }
    bool emitted;
    handle_reply(p, line, len, root, idv, lazy.n_raw > 0, &emitted);
}

/* An over-cap message: refused, and the request it answers (or asks) gets
 * an error when its id can be read from its start. */
static void oversize(px *p, const px_reader *r, bool from_client) {
    mv_buf id;
    mv_buf_init(&id, NULL);
    bool has_id = px_find_id(r->prefix, r->prefix_len, &id);
    char msg[300];
    snprintf(msg, sizeof msg,
             "mcpvet proxy: a message %s is longer than %llu bytes (refused, not "
             "truncated)",
             from_client ? "from the agent" : "from the server",
             (unsigned long long)p->o->max_message_bytes);
    px_log(p->g, "%s", msg + strlen("mcpvet proxy: "));
    if (from_client) {
        reply_error(p, has_id ? id.data : NULL, id.len, -32600, msg);
    } else if (has_id) {
        mv_buf key, json;
        mv_buf_init(&key, NULL);
        mv_buf_init(&json, NULL);
        mv_buf w;
        mv_buf_init(&w, NULL);
        mv_buf_putc(&w, '[');
        mv_buf_append(&w, id.data, id.len);
        mv_buf_putc(&w, ']');
        const mv_jv *arr = NULL;
        mv_jerror je;
        mv_arena_reset(p->arena);
        if (mv_json_parse(&arr, p->arena, NULL, w.data, w.len, &je) == MV_OK &&
            id_of(mv_jarray_get(arr, 0), &key, &json)) {
            inflight *f = find_fl(p, key.data, key.len);
            if (f != NULL) {
                reply_error(p, f->id, f->id_len, -32000, msg);
                drop_fl(p, f);
            } else if (p->refreshing && json.len == strlen(p->refresh_id) + 2 &&
                       memcmp(json.data + 1, p->refresh_id, json.len - 2) == 0) {
                refresh_done(p, "the tools/list reply is over the message cap");
            }
        }
        mv_buf_release(&w);
        mv_buf_release(&key);
        mv_buf_release(&json);
    }
    mv_buf_release(&id);
}

/* ---------------------------------------------------------------- loop */

static void read_side(px *p, bool client) {
    px_reader *r = client ? &p->cr : &p->sr;
    int fr = px_reader_fill(r);
    if (fr < 0) {
        px_log(p->g, "cannot read from the %s: %s", client ? "agent" : "server", strerror(errno));
        r->eof = true;
    }
    for (;;) {
        const char *line;
        size_t len;
        int k = px_reader_next(r, &line, &len);
        if (k == PX_LINE) {
            if (client)
                handle_client_line(p, line, len);
            else
                handle_server_line(p, line, len);
        } else if (k == PX_OVERSIZE) {
            oversize(p, r, client);
        } else {
            if (k == PX_END) {
                if (client)
                    p->client_eof = true;
                else
                    p->server_eof = true;
            }
            break;
        }
    }
}

static void copy_stderr(px *p) {
    char buf[65536];
    ssize_t n = read(p->srv_err, buf, sizeof buf);
    if (n > 0) {
        ssize_t off = 0;
        while (off < n) {
            ssize_t w = write(STDERR_FILENO, buf + off, (size_t)(n - off));
            if (w <= 0)
                break; /* best effort: a full stderr loses the server's log */
            off += w;
        }
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
        p->srv_err = -1;
    }
}

static void set_nonblock_pipe(int fd) {
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return;
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void server_ended(px *p) {
    mv_mcp_result r;
    memset(&r, 0, sizeof(r));
    r.exit_status = -1;
    p->t->ops->close(p->t, &r);
    p->t = NULL;
    p->server_status = r.exit_status;
    free(r.stderr_text);
    char why[200];
    if (r.exit_status >= 0 && r.exit_status < 128)
        snprintf(why, sizeof why, "mcpvet proxy: the server exited (status %d) before answering",
                 r.exit_status);
    else if (r.exit_status >= 128)
        snprintf(why, sizeof why,
                 "mcpvet proxy: the server was killed by signal %d before "
                 "answering",
                 r.exit_status - 128);
    else
        snprintf(why, sizeof why, "mcpvet proxy: the server closed its output before answering");
    if (!p->client_eof)
        px_log(p->g, "%s", why + strlen("mcpvet proxy: "));
    if (p->refreshing)
        refresh_done(p, "the server ended");
    fail_inflight(p, -32000, why);
}

static void run_loop(px *p) {
    uint64_t flush_until = 0;
    for (;;) {
        uint64_t now = mv_mcp_now_ms();
        /* Ends. */
        if (p->cq.broken) {
            if (!p->client_eof)
                px_log(p->g, "the agent closed its side");
            p->outcome->client_closed = !p->outcome->server_exited;
            break;
        }
        if (p->server_eof && p->t != NULL) {
            p->outcome->server_exited = !p->client_eof;
            server_ended(p);
            flush_until = now + FLUSH_MS;
        }
        if (p->t == NULL && (p->cq.len == 0 || now >= flush_until))
            break;
        if (p->client_eof && !p->input_closed && p->sq.len == 0 && p->t != NULL) {
            p->outcome->client_closed = !p->outcome->server_exited;
            mv_mcp_stdio_close_input(p->t);
            p->input_closed = true;
            p->drain_deadline = now + DRAIN_MS;
        }
        if (p->input_closed && p->t != NULL && now >= p->drain_deadline)
            break;
        /* Timers. */
        if (p->refreshing && now >= p->refresh_deadline) {
            char why[120];
            snprintf(why, sizeof why, "no answer to tools/list within %u ms",
                     p->o->list_timeout_ms);
            refresh_done(p, why);
        }
        if (p->n_fl > 0 && p->t != NULL && now >= p->last_server_activity + p->o->timeout_ms) {
            char why[200];
            snprintf(why, sizeof why,
                     "mcpvet proxy: the server sent nothing for %u s; the request is abandoned",
                     p->o->timeout_ms / 1000);
            px_log(p->g, "%s", why + strlen("mcpvet proxy: "));
            fail_inflight(p, -32001, why);
        }
        px_queue_flush(&p->cq);
        if (p->sq.len > 0 && !p->input_closed && px_queue_flush(&p->sq) != 0)
            px_log(p->g, "the server no longer reads its input");

        struct pollfd pf[7];
        int idx[7] = {-1, -1, -1, -1, -1, -1, -1};
        nfds_t n = 0;
        if (!p->client_eof && p->sq.len < QUEUE_HIGH && p->n_hq < MAX_HELD) {
            idx[0] = (int)n;
            pf[n++] = (struct pollfd){p->o->client_in, POLLIN, 0};
        }
        if (p->t != NULL && !p->server_eof && p->cq.len < QUEUE_HIGH) {
            idx[1] = (int)n;
            pf[n++] = (struct pollfd){p->srv_out, POLLIN, 0};
        }
        if (p->t != NULL && p->srv_err >= 0) {
            idx[2] = (int)n;
            pf[n++] = (struct pollfd){p->srv_err, POLLIN, 0};
        }
        if (p->cq.len > 0) {
            idx[3] = (int)n;
            pf[n++] = (struct pollfd){p->o->client_out, POLLOUT, 0};
        }
        if (p->t != NULL && p->sq.len > 0 && !p->sq.broken && !p->input_closed) {
            idx[4] = (int)n;
            pf[n++] = (struct pollfd){p->srv_in, POLLOUT, 0};
        }
        /* Finished result scans to record (their log lines and audit
         * events are written on this thread), and the CLI's stop signal. */
        int scans_fd = px_guard_scans_fd(p->g);
        if (scans_fd >= 0) {
            idx[5] = (int)n;
            pf[n++] = (struct pollfd){scans_fd, POLLIN, 0};
        }
        if (p->o->stop_fd > 0) {
            idx[6] = (int)n;
            pf[n++] = (struct pollfd){p->o->stop_fd, POLLIN, 0};
        }
        uint64_t wake = now + 1000;
        if (p->refreshing && p->refresh_deadline < wake)
            wake = p->refresh_deadline;
        if (p->n_fl > 0 && p->last_server_activity + p->o->timeout_ms < wake)
            wake = p->last_server_activity + p->o->timeout_ms;
        if (p->input_closed && p->drain_deadline < wake)
            wake = p->drain_deadline;
        if (p->t == NULL && flush_until < wake)
            wake = flush_until;
        int timeout = wake > now ? (int)(wake - now) : 0;
        if (n == 0 && p->t == NULL)
            break;
        int r = poll(pf, n, timeout);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            px_log(p->g, "poll failed: %s", strerror(errno));
            break;
        }
        if (idx[6] >= 0 && pf[idx[6]].revents != 0) {
            px_log(p->g, "stopping: told to by a signal");
            p->outcome->stopped = true;
            break;
        }
        if (idx[5] >= 0 && pf[idx[5]].revents != 0)
            px_guard_scans_collect(p->g);
        if (idx[2] >= 0 && pf[idx[2]].revents != 0)
            copy_stderr(p);
        if (idx[1] >= 0 && pf[idx[1]].revents != 0)
            read_side(p, false);
        if (idx[0] >= 0 && pf[idx[0]].revents != 0)
            read_side(p, true);
        if (idx[3] >= 0 && (pf[idx[3]].revents & (POLLERR | POLLHUP)) != 0 &&
            (pf[idx[3]].revents & POLLOUT) == 0)
            p->cq.broken = true;
    }
}

/* What a relay needs besides its descriptors: the parse arenas and the
 * guard (with its store). `o` has its defaults filled in. */
static int px_setup(px *p, const mv_proxy_options *o, mv_proxy_outcome *out, mv_error *err) {
    p->o = o;
    p->outcome = out;
    p->server_status = -1;
    mv_buf_init(&p->meta, NULL);
    mv_buf_init(&p->out, NULL);
    p->arena = mv_arena_new(NULL, 64 * 1024);
    p->carena = mv_arena_new(NULL, 64 * 1024);
    if (p->arena == NULL || p->carena == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");

    px_guard_config gc;
    memset(&gc, 0, sizeof(gc));
    gc.policy = o->policy;
    gc.results = o->results;
    gc.name = o->name;
    gc.ident.name = o->name;
    gc.ident.transport = "stdio";
    gc.ident.command = o->argv[0];
    gc.ident.args = o->argv + 1;
    gc.ident.n_args = o->argc - 1;
    if (o->config != NULL) {
        mv_server_ident_from_config(&gc.ident, o->config);
        gc.ident.name = o->name;
    }
    gc.store = o->store;
    gc.store_path = o->store_path;
    gc.log = o->log;
    gc.clock = o->clock;
    gc.clock_arg = o->clock_arg;
    gc.scan_queue = o->scan_queue > 0 ? o->scan_queue : 0;
    gc.lock = NULL; /* finished scans are recorded on the relay's thread */
    return px_guard_new(&p->g, &gc, err);
}

static void px_teardown(px *p) {
    for (size_t i = 0; i < p->n_hq; i++)
        free(p->hq[i].line);
    free(p->hq);
    while (p->n_fl > 0)
        drop_fl(p, &p->fl[p->n_fl - 1]);
    free(p->fl);
    if (p->t != NULL)
        p->t->ops->close(p->t, NULL);
    px_reader_free(&p->cr);
    px_reader_free(&p->sr);
    px_queue_free(&p->cq);
    px_queue_free(&p->sq);
    px_guard_free(p->g);
    mv_buf_release(&p->meta);
    mv_buf_release(&p->out);
    mv_arena_free(p->arena);
    mv_arena_free(p->carena);
}

static void fill_defaults(mv_proxy_options *o) {
    if (o->max_message_bytes == 0)
        o->max_message_bytes = MV_PROXY_DEFAULT_MAX_MESSAGE;
    if (o->timeout_ms == 0)
        o->timeout_ms = MV_PROXY_DEFAULT_TIMEOUT_MS;
    if (o->list_timeout_ms == 0)
        o->list_timeout_ms = MV_PROXY_DEFAULT_LIST_TIMEOUT_MS;
    if (o->scan_queue == 0)
        o->scan_queue = MV_PROXY_DEFAULT_SCAN_QUEUE;
}

/* ------------------------------------------- without a loop (proxy_int.h) */

struct px_session {
    px p;
    mv_proxy_options o;
    mv_proxy_outcome outcome;
};

int px_session_new(px_session **out, const mv_proxy_options *opts, mv_error *err) {
    px_session *s = calloc(1, sizeof(*s));
    int rc;
    *out = NULL;
    if (s == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    s->o = *opts;
    fill_defaults(&s->o);
    px_reader_init(&s->p.cr, -1, s->o.max_message_bytes);
    px_reader_init(&s->p.sr, -1, s->o.max_message_bytes);
    px_queue_init(&s->p.cq, -1);
    px_queue_init(&s->p.sq, -1);
    if ((rc = px_setup(&s->p, &s->o, &s->outcome, err)) != MV_OK) {
        px_teardown(&s->p);
        free(s);
        return rc;
    }
    s->p.last_server_activity = mv_mcp_now_ms();
    *out = s;
    return MV_OK;
}

void px_session_free(px_session *s) {
    if (s == NULL)
        return;
    px_teardown(&s->p);
    free(s);
}

void px_session_client_line(px_session *s, const char *line, size_t len) {
    handle_client_line(&s->p, line, len);
}

void px_session_server_line(px_session *s, const char *line, size_t len) {
    handle_server_line(&s->p, line, len);
}

void px_session_oversize(px_session *s, const char *prefix, size_t len, bool from_client) {
    px_reader r;
    px_reader_init(&r, -1, s->o.max_message_bytes);
    r.prefix_len = len < PX_PREFIX ? len : PX_PREFIX;
    memcpy(r.prefix, prefix, r.prefix_len);
    oversize(&s->p, &r, from_client);
}

void px_session_settle(px_session *s) {
    px_guard_scans_finish(s->p.g);
}

void px_session_take(px_session *s, bool to_client, mv_buf *out) {
    px_queue *q = to_client ? &s->p.cq : &s->p.sq;
    if (q->len > 0)
        mv_buf_append(out, q->buf + q->start, q->len);
    q->start = 0;
    q->len = 0;
}

void px_session_full_parse(px_session *s) {
    s->p.full_parse = true;
}

const char *px_session_refresh_id(const px_session *s) {
    return s->p.refreshing ? s->p.refresh_id : NULL;
}

/* ---------------------------------------------------------------- entry */

static const char *const policy_names[] = {"tofu", "strict", "audit"};
static const char *const results_names[] = {"warn", "strip", "block"};

const char *mv_proxy_policy_name(mv_proxy_policy v) {
    return (unsigned)v < 3 ? policy_names[v] : "?";
}
int mv_proxy_policy_parse(mv_proxy_policy *out, const char *s) {
    for (int i = 0; i < 3; i++)
        if (s != NULL && strcmp(s, policy_names[i]) == 0) {
            *out = (mv_proxy_policy)i;
            return 0;
        }
    return -1;
}
const char *mv_proxy_results_name(mv_proxy_results v) {
    return (unsigned)v < 3 ? results_names[v] : "?";
}
int mv_proxy_results_parse(mv_proxy_results *out, const char *s) {
    for (int i = 0; i < 3; i++)
        if (s != NULL && strcmp(s, results_names[i]) == 0) {
            *out = (mv_proxy_results)i;
            return 0;
        }
    return -1;
}

int mv_proxy_run(const mv_proxy_options *opts, mv_proxy_outcome *out, mv_error *err) {
    px p;
    mv_proxy_options o;
    mv_proxy_outcome dummy;
    int rc = MV_OK;
    memset(&p, 0, sizeof(p));
    if (out == NULL)
        out = &dummy;
    memset(out, 0, sizeof(*out));
    out->server_status = -1;
    if (opts == NULL || opts->name == NULL || opts->name[0] == '\0' || opts->argv == NULL ||
        opts->argc == 0 || opts->argv[0] == NULL)
        return mv_error_set(err, MV_EINVAL, "the proxy needs a server name and a command");
    o = *opts;
    fill_defaults(&o);
#ifdef __GLIBC__
    /* Every result scan allocates and frees a few hundred KiB (the
     * engine's per-scan arenas). With glibc's defaults that memory went
     * back to the kernel after each call and was faulted in again on the
     * next one (three brk calls and ~2 page faults per round trip, more
     * than the relay's own work on small messages). A long-running relay
     * keeps up to 8 MiB of freed heap instead; blocks of 4 MiB and more
     * (large messages) are still mapped and unmapped on their own. */
    mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 8 * 1024 * 1024);
#endif
    /* A write to a side that went away must fail with EPIPE, not kill the
     * process: SIGPIPE is blocked in this thread for the session and any
     * that became pending is consumed before the mask is restored. */
    sigset_t pipe_set, old_mask;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
    if ((rc = px_setup(&p, &o, out, err)) != MV_OK)
        goto done;

    /* The server, started like the MCP client starts one (own process
     * group, only stdin/stdout/stderr inherited). */
    mv_server_config sc;
    memset(&sc, 0, sizeof(sc));
    sc.name = (char *)(uintptr_t)o.name;
    sc.transport = MV_TRANSPORT_STDIO;
    sc.command = (char *)(uintptr_t)o.argv[0];
    sc.args = (char **)(uintptr_t)(o.argv + 1);
    sc.n_args = o.argc - 1;
    mv_mcp_limits lim = {.max_message_bytes = o.max_message_bytes,
                         .max_total_bytes = UINT64_MAX,
                         .max_stderr_bytes = 0};
    mv_mcp_failure fail;
    memset(&fail, 0, sizeof(fail));
    if (mv_mcp_stdio_open(&p.t, &sc, &lim, mv_mcp_now_ms() + 1000, &fail) != 0) {
        rc = mv_error_set(err, MV_EIO, "%s", fail.reason);
        px_log(p.g, "%s", fail.reason);
        goto done;
    }
    mv_mcp_stdio_fds(p.t, &p.srv_in, &p.srv_out, &p.srv_err);
    set_nonblock_pipe(o.client_in);
    set_nonblock_pipe(o.client_out);
    set_nonblock_pipe(STDERR_FILENO);
    px_reader_init(&p.cr, o.client_in, o.max_message_bytes);
    px_reader_init(&p.sr, p.srv_out, o.max_message_bytes);
    px_queue_init(&p.cq, o.client_out);
    px_queue_init(&p.sq, p.srv_in);
    p.last_server_activity = mv_mcp_now_ms();

    run_loop(&p);

    /* Whatever is still in flight gets its answer before the relay ends. */
    if (p.t != NULL) {
        if (p.refreshing)
            refresh_done(&p, "the session ended");
        fail_inflight(&p, -32000, "mcpvet proxy: the session ended before the server answered");
        mv_mcp_result r;
        memset(&r, 0, sizeof(r));
        p.t->ops->close(p.t, &r);
        p.t = NULL;
        p.server_status = r.exit_status;
        free(r.stderr_text);
    }
    if (!p.cq.broken && p.cq.len > 0) {
        uint64_t until = mv_mcp_now_ms() + 1000;
        while (p.cq.len > 0 && !p.cq.broken && mv_mcp_now_ms() < until) {
            struct pollfd pf = {o.client_out, POLLOUT, 0};
            if (poll(&pf, 1, 100) > 0)
                px_queue_flush(&p.cq);
        }
    }
    /* Scans still pending are finished and logged before the relay ends
     * (a side closed, or a stop signal). */
    px_guard_scans_finish(p.g);
    out->server_status = p.server_status;
    px_scan_stats ss;
    px_guard_scan_stats(p.g, &ss);
    out->results_scanned_behind = ss.queued;
    out->results_scanned_inline = ss.inline_full;
    if (ss.inline_full > 0)
        px_log(p.g,
               "the result scanner fell behind: %llu of %llu results under --results warn were "
               "scanned on the relay's thread (--scan-queue %d)",
               (unsigned long long)ss.inline_full, (unsigned long long)(ss.inline_full + ss.queued),
               o.scan_queue);
    px_guard_counts(p.g, &out->blocked_calls, &out->hidden_items, &out->result_findings);
done:
    px_teardown(&p);
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    return rc;
}
