/*
 * The MCP streamable-HTTP endpoint (mcp_endpoint.h) on libmicrohttpd, one
 * thread per connection. Each request is checked in this order: Host
 * (421), Origin (403), path (404), key (401), method (405), then for a
 * POST Content-Type (415), Accept (406) and the body's size (413); the
 * body is parsed once with the project's strict JSON reader (400 with a
 * JSON-RPC parse error naming the byte offset), split into messages when
 * it is a batch, and each message goes to the user's handler re-written
 * compactly.
 *
 * Sessions live in a small table guarded by one mutex. A request holds a
 * reference to its session while it runs, and calls into one session are
 * serialised by the session's own mutex, so a DELETE or an idle expiry
 * never frees a session under a running call: the last holder closes it.
 * Session ids are 32 random bytes in hex, so they cannot be guessed; they
 * are compared in constant time all the same.
 */
#define _GNU_SOURCE /* pthread_sigmask and friends on glibc */
#include "server/mcp_endpoint.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/arena.h"
#include "mcpvet/evidence.h"
#include "server/httpd.h"
#include "store/crypto.h"

#define EP_ID_LEN 64u
#define EP_VERSION_LEN 32u
#define RPC_PARSE_ERROR (-32700)
#define RPC_INVALID_REQUEST (-32600)
#define RPC_SERVER_ERROR (-32000)
#define RPC_NO_SESSION (-32001)
#define RPC_INTERNAL (-32603)

typedef struct ep_session {
    struct ep_session *next;
    char id[EP_ID_LEN + 1];
    void *user;
    pthread_mutex_t call;             /* one handler call at a time */
    unsigned refs;                    /* requests using it (endpoint lock) */
    bool ended;                       /* out of the table; the last holder closes */
    char version[EP_VERSION_LEN + 1]; /* agreed by initialize, "" if unknown */
    time_t last_used;                 /* monotonic seconds */
    mv_mcp_stream *get_stream;        /* the open GET stream (endpoint lock) */
} ep_session;

struct mv_mcp_stream {
    mv_mcp_endpoint *e;
    mv_mcp_stream *next; /* in e->streams (endpoint lock) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    mv_buf q; /* SSE bytes waiting: [off, q.len) */
    size_t off;
    bool ended;        /* nothing more comes: the reader ends after the rest */
    bool dropped;      /* over the cap: the reader ends with an error */
    unsigned refs;     /* the reader and, for a POST, the worker (endpoint lock) */
    time_t last_msg;   /* monotonic seconds of the last message */
    time_t last_write; /* of the last bytes handed to libmicrohttpd */
    ep_session *s;     /* a GET stream's session (a reference held), else NULL */
};

struct mv_mcp_endpoint {
    mv_mcp_endpoint_options o;
    char path[256];
    mv_mcp_endpoint_handler h;
    mv_httpd_key key;
    mv_httpd_hosts hosts;
    mv_httpd_watch *watch;
    struct MHD_Daemon *d;
    pthread_mutex_t lock; /* sessions, n_sessions, busy */
    ep_session *sessions;
    size_t n_sessions;
    unsigned busy; /* requests inside the handler */
    atomic_uint in_flight;
    pthread_mutex_t log_lock;
    mv_mcp_stream *streams; /* open streams (endpoint lock) */
    unsigned n_streams;
    unsigned workers; /* streamed POSTs still running (endpoint lock) */
    pthread_cond_t workers_done;
    bool stopping;
};

/* One request's state across libmicrohttpd's calls. */
typedef struct ep_req {
    mv_buf body;
    bool too_large;
    bool answered;
    struct timespec start;
} ep_req;

static time_t mono_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec;
}

/* ------------------------------------------------------------ logging */

static void log_line(mv_mcp_endpoint *e, const char *method, int status, const ep_req *rq,
                     const char *note) {
    if (e->o.quiet)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms = (double)(now.tv_sec - rq->start.tv_sec) * 1e3 +
                (double)(now.tv_nsec - rq->start.tv_nsec) / 1e6;
    pthread_mutex_lock(&e->log_lock);
    fprintf(e->o.log, "%s: %s %s %d %.1fms%s%s\n", e->o.name, method, e->path, status, ms,
            note != NULL ? " " : "", note != NULL ? note : "");
    fflush(e->o.log);
    pthread_mutex_unlock(&e->log_lock);
}

static void mhd_log(void *cls, const char *fmt, va_list ap) {
    mv_mcp_endpoint *e = cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n > 0 && msg[n - 1] == '\n')
        msg[--n] = '\0';
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_str safe = {"?", 1};
    if (a != NULL)
        mv_evidence_render(a, msg, n, sizeof msg, &safe, NULL);
    pthread_mutex_lock(&e->log_lock);
    fprintf(e->o.log, "%s: microhttpd: %s\n", e->o.name, safe.ptr);
    fflush(e->o.log);
    pthread_mutex_unlock(&e->log_lock);
    mv_arena_free(a);
}

/* ------------------------------------------------------------ replies */

typedef struct ep_answer {
    int status;
    mv_buf body;           /* empty: no body (202, DELETE) */
    const char *allow;     /* 405 */
    unsigned retry;        /* 503: Retry-After seconds */
    const char *session;   /* a new session's id */
    const char *note;      /* for the log line */
    mv_mcp_stream *stream; /* answer as this event stream (status 200) */
} ep_answer;

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max);
static void stream_done(void *cls);

static enum MHD_Result send_answer(mv_mcp_endpoint *e, struct MHD_Connection *c, ep_req *rq,
                                   const char *method, ep_answer *an) {
    const char *data = an->body.data != NULL && !an->body.failed ? an->body.data : "";
    size_t len = an->body.failed ? 0 : an->body.len;
    struct MHD_Response *resp =
        an->stream != NULL
            ? MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, stream_read,
                                                an->stream, stream_done)
            : MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (resp == NULL) {
        if (an->stream != NULL)
            stream_done(an->stream);
        return MHD_NO;
    }
    if (an->stream != NULL)
        MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    else if (len > 0)
        MHD_add_response_header(resp, "Content-Type", "application/json");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (an->status == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer realm=\"mcpvet\"");
    if (an->allow != NULL)
        MHD_add_response_header(resp, "Allow", an->allow);
    if (an->retry > 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%u", an->retry);
        MHD_add_response_header(resp, "Retry-After", ra);
    }
    if (an->session != NULL)
        MHD_add_response_header(resp, "Mcp-Session-Id", an->session);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)an->status, resp);
    MHD_destroy_response(resp);
    rq->answered = true;
    log_line(e, method, an->status, rq, an->note);
    return ret;
}

/* A JSON-RPC error without id as the whole body. */
static void rpc_error_body(mv_buf *b, int code, const char *message) {
    mv_jw w;
    b->len = 0;
    mv_jw_init_compact(&w, b);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "jsonrpc", "2.0");
    mv_jw_null(&w, "id");
    mv_jw_obj_begin(&w, "error");
    mv_jw_int(&w, "code", code);
    mv_jw_cstr(&w, "message", message);
    mv_jw_obj_end(&w);
    mv_jw_obj_end(&w);
    mv_jw_finish(&w);
}

static enum MHD_Result send_error(mv_mcp_endpoint *e, struct MHD_Connection *c, ep_req *rq,
                                  const char *method, int status, int code, const char *message,
                                  const char *allow, unsigned retry) {
    ep_answer an;
    memset(&an, 0, sizeof an);
    mv_buf_init(&an.body, NULL);
    an.status = status;
    an.allow = allow;
    an.retry = retry;
    rpc_error_body(&an.body, code, message);
    enum MHD_Result ret = send_answer(e, c, rq, method, &an);
    mv_buf_release(&an.body);
    return ret;
}

/* ----------------------------------------------------------- sessions */

static void session_free(mv_mcp_endpoint *e, ep_session *s) {
    if (e->h.session_close != NULL)
        e->h.session_close(e->h.ctx, s->user);
    pthread_mutex_destroy(&s->call);
    mv_crypto_wipe(s->id, sizeof s->id);
    free(s);
}

/* Take `s` out of the table (endpoint lock held). Returns true when no
 * request holds it, so the caller closes it after unlocking. */
static bool session_unlink(mv_mcp_endpoint *e, ep_session *s) {
    for (ep_session **p = &e->sessions; *p != NULL; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            e->n_sessions--;
            break;
        }
    }
    s->next = NULL;
    s->ended = true;
    return s->refs == 0;
}

/* End idle sessions (endpoint lock held); those to close are chained on
 * *closing. With `room`, also end the least recently used idle session
 * when the table is full. Returns false when it is full of busy ones. */
static bool sweep(mv_mcp_endpoint *e, bool room, ep_session **closing) {
    time_t now = mono_now();
    for (ep_session **p = &e->sessions; *p != NULL;) {
        ep_session *s = *p;
        if (s->refs == 0 && now - s->last_used >= (time_t)e->o.session_idle_s) {
            *p = s->next;
            e->n_sessions--;
            s->ended = true;
            s->next = *closing;
            *closing = s;
            continue;
        }
        p = &s->next;
    }
    if (!room || e->n_sessions < e->o.max_sessions)
        return true;
    ep_session *oldest = NULL;
    for (ep_session *s = e->sessions; s != NULL; s = s->next)
        if (s->refs == 0 && (oldest == NULL || s->last_used < oldest->last_used))
            oldest = s;
    if (oldest == NULL)
        return false;
    session_unlink(e, oldest);
    oldest->next = *closing;
    *closing = oldest;
    return true;
}

static void close_chain(mv_mcp_endpoint *e, ep_session *chain) {
    while (chain != NULL) {
        ep_session *next = chain->next;
        session_free(e, chain);
        chain = next;
    }
}

/* Find a live session by id and take a reference (NULL: unknown). */
static ep_session *session_get(mv_mcp_endpoint *e, const char *id) {
    ep_session *found = NULL, *closing = NULL;
    size_t n = strlen(id);
    pthread_mutex_lock(&e->lock);
    sweep(e, false, &closing);
    for (ep_session *s = e->sessions; s != NULL && found == NULL; s = s->next)
        if (n == EP_ID_LEN && mv_crypto_equal(s->id, id, EP_ID_LEN))
            found = s;
    if (found != NULL) {
        found->refs++;
        found->last_used = mono_now();
    }
    pthread_mutex_unlock(&e->lock);
    close_chain(e, closing);
    return found;
}

static void session_put(mv_mcp_endpoint *e, ep_session *s) {
    pthread_mutex_lock(&e->lock);
    s->refs--;
    s->last_used = mono_now();
    bool close = s->ended && s->refs == 0;
    pthread_mutex_unlock(&e->lock);
    if (close)
        session_free(e, s);
}

/* The handler-call cap: true when this request may call in. */
static bool busy_enter(mv_mcp_endpoint *e) {
    pthread_mutex_lock(&e->lock);
    bool ok = e->busy < e->o.max_requests;
    if (ok)
        e->busy++;
    pthread_mutex_unlock(&e->lock);
    return ok;
}

static void busy_leave(mv_mcp_endpoint *e) {
    pthread_mutex_lock(&e->lock);
    e->busy--;
    pthread_mutex_unlock(&e->lock);
}

/* ------------------------------------------------------------ streams */

/* A new stream, registered, with one reference (the reader's); NULL when
 * the endpoint is at its stream cap, stopping, or out of memory. */
static mv_mcp_stream *stream_new(mv_mcp_endpoint *e, ep_session *s) {
    mv_mcp_stream *st = calloc(1, sizeof *st);
    pthread_condattr_t ca;
    if (st == NULL)
        return NULL;
    st->e = e;
    st->s = s;
    mv_buf_init(&st->q, NULL);
    pthread_mutex_init(&st->mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&st->cv, &ca);
    pthread_condattr_destroy(&ca);
    st->last_msg = st->last_write = mono_now();
    st->refs = 1;
    pthread_mutex_lock(&e->lock);
    bool ok = !e->stopping && e->n_streams < e->o.max_streams;
    if (ok) {
        st->next = e->streams;
        e->streams = st;
        e->n_streams++;
    }
    pthread_mutex_unlock(&e->lock);
    if (!ok) {
        pthread_cond_destroy(&st->cv);
        pthread_mutex_destroy(&st->mu);
        free(st);
        return NULL;
    }
    return st;
}

static void stream_unref(mv_mcp_stream *st) {
    mv_mcp_endpoint *e = st->e;
    pthread_mutex_lock(&e->lock);
    bool last = --st->refs == 0;
    if (last) {
        for (mv_mcp_stream **p = &e->streams; *p != NULL; p = &(*p)->next)
            if (*p == st) {
                *p = st->next;
                e->n_streams--;
                break;
            }
    }
    pthread_mutex_unlock(&e->lock);
    if (!last)
        return;
    mv_buf_release(&st->q);
    pthread_cond_destroy(&st->cv);
    pthread_mutex_destroy(&st->mu);
    free(st);
}

/* Nothing more will come: the reader ends once the rest is written. */
static void stream_end(mv_mcp_stream *st) {
    pthread_mutex_lock(&st->mu);
    st->ended = true;
    pthread_cond_broadcast(&st->cv);
    pthread_mutex_unlock(&st->mu);
}

/* Frame one message as an event. Line breaks can only sit between JSON
 * tokens, so each line becomes a data line and the client's join with
 * "\n" gives back the same JSON value. */
static void frame_event(mv_buf *q, const char *msg, size_t len) {
    mv_buf_puts(q, "event: message\n");
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && msg[j] != '\n' && msg[j] != '\r')
            j++;
        if (j > i) {
            mv_buf_puts(q, "data: ");
            mv_buf_append(q, msg + i, j - i);
            mv_buf_putc(q, '\n');
        }
        i = j + 1;
    }
    mv_buf_putc(q, '\n');
}

/* `force`: the POST's own reply, which is bounded by the handler and
 * must not be lost to the cap. */
static int stream_push(mv_mcp_stream *st, const char *msg, size_t len, bool force) {
    mv_mcp_endpoint *e = st->e;
    int rc = MV_OK;
    bool drop = false;
    size_t waiting = 0;
    pthread_mutex_lock(&st->mu);
    if (st->ended || st->dropped) {
        rc = MV_ENOTFOUND;
        goto done;
    }
    waiting = st->q.len - st->off;
    if (!force && waiting + len + 32 > e->o.stream_queue_bytes) {
        st->dropped = true;
        drop = true;
        rc = MV_ELIMIT;
        pthread_cond_broadcast(&st->cv);
        goto done;
    }
    if (st->off > 0 && st->off >= st->q.len / 2) {
        memmove(st->q.data, st->q.data + st->off, st->q.len - st->off);
        st->q.len -= st->off;
        st->off = 0;
    }
    size_t before = st->q.len;
    frame_event(&st->q, msg, len);
    if (st->q.failed) {
        st->q.len = before;
        st->q.failed = 0;
        rc = MV_ENOMEM;
        goto done;
    }
    st->last_msg = mono_now();
    pthread_cond_broadcast(&st->cv);
done:
    pthread_mutex_unlock(&st->mu);
    if (drop) {
        pthread_mutex_lock(&e->log_lock);
        fprintf(e->o.log,
                "%s: a client does not read its event stream (%zu bytes waiting, cap %zu); the "
                "stream is dropped\n",
                e->o.name, waiting, e->o.stream_queue_bytes);
        fflush(e->o.log);
        pthread_mutex_unlock(&e->log_lock);
    }
    return rc;
}

int mv_mcp_stream_send(mv_mcp_stream *st, const char *msg, size_t len) {
    if (st == NULL)
        return MV_ENOTFOUND;
    return stream_push(st, msg, len, false);
}

void mv_mcp_stream_end(mv_mcp_stream *st) {
    if (st != NULL)
        stream_end(st);
}

/* libmicrohttpd asks for the next bytes of a stream. With a thread per
 * connection, waiting here only holds this connection's own thread. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max) {
    mv_mcp_stream *st = cls;
    mv_mcp_endpoint *e = st->e;
    ssize_t n = 0;
    (void)pos;
    pthread_mutex_lock(&st->mu);
    for (;;) {
        if (st->dropped) {
            n = MHD_CONTENT_READER_END_WITH_ERROR;
            break;
        }
        if (st->q.len > st->off) {
            size_t k = st->q.len - st->off;
            if (k > max)
                k = max;
            memcpy(buf, st->q.data + st->off, k);
            st->off += k;
            if (st->off == st->q.len)
                st->q.len = st->off = 0;
            st->last_write = mono_now();
            n = (ssize_t)k;
            break;
        }
        if (st->ended) {
            n = MHD_CONTENT_READER_END_OF_STREAM;
            break;
        }
        time_t now = mono_now();
        if (st->s != NULL && now - st->last_msg >= (time_t)e->o.stream_idle_s) {
            st->ended = true; /* idle: the client may open a new one */
            continue;
        }
        if (now - st->last_write >= (time_t)e->o.keepalive_s) {
            static const char ka[] = ": keep-alive\n\n";
            if (max < sizeof ka - 1) {
                n = 0;
                break;
            }
            memcpy(buf, ka, sizeof ka - 1);
            st->last_write = now;
            n = (ssize_t)(sizeof ka - 1);
            break;
        }
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&st->cv, &st->mu, &until);
    }
    pthread_mutex_unlock(&st->mu);
    return n;
}

/* The reader's side is over (the response was destroyed). */
static void stream_done(void *cls) {
    mv_mcp_stream *st = cls;
    mv_mcp_endpoint *e = st->e;
    ep_session *s = st->s;
    stream_end(st);
    if (s != NULL) {
        /* The user lets go first, so a new GET of the session (possible
         * once get_stream is clear) never meets this stream's close. */
        if (e->h.stream_close != NULL)
            e->h.stream_close(e->h.ctx, s->user, st);
        pthread_mutex_lock(&e->lock);
        if (s->get_stream == st)
            s->get_stream = NULL;
        pthread_mutex_unlock(&e->lock);
    }
    stream_unref(st);
    if (s != NULL)
        session_put(e, s);
}

/* ------------------------------------------------------------ messages */

static bool str_is(const mv_jv *v, const char *s) {
    return mv_jis_string(v) && v->n == strlen(s) && memcmp(v->u.s, s, v->n) == 0;
}

/* A request: a method and an id (anything else expects no reply). */
static bool is_request(const mv_jv *msg) {
    return mv_jobject_get(msg, "method") != NULL && mv_jobject_get(msg, "id") != NULL;
}

/* Hand one message to the session's handler; its reply (if any) is
 * appended to `out`, separated by a comma from an earlier one. `st` is
 * the POST's own stream, or NULL. */
static void call_one(mv_mcp_endpoint *e, ep_session *s, const mv_jv *msg, mv_buf *scratch,
                     mv_buf *reply, mv_buf *out, size_t *n_replies, mv_mcp_stream *st) {
    scratch->len = 0;
    reply->len = 0;
    mv_json_write(scratch, msg);
    if (scratch->failed) {
        rpc_error_body(reply, RPC_INTERNAL, "out of memory");
    } else if (e->h.handle_streamed != NULL) {
        bool request = is_request(msg);
        if (request)
            pthread_mutex_lock(&s->call);
        e->h.handle_streamed(e->h.ctx, s->user, scratch->data, scratch->len, reply,
                             request ? st : NULL);
        if (request)
            pthread_mutex_unlock(&s->call);
    } else {
        pthread_mutex_lock(&s->call);
        e->h.handle(e->h.ctx, s->user, scratch->data, scratch->len, reply);
        pthread_mutex_unlock(&s->call);
    }
    size_t len = reply->len;
    while (len > 0 && (reply->data[len - 1] == '\n' || reply->data[len - 1] == '\r'))
        len--;
    if (len == 0 || reply->failed)
        return;
    if (*n_replies > 0)
        mv_buf_putc(out, ',');
    mv_buf_append(out, reply->data, len);
    (*n_replies)++;
}

/* The version an initialize result agreed on, into s->version. */
static void take_version(ep_session *s, const mv_jv *reply) {
    const mv_jv *v = mv_jobject_get(mv_jobject_get(reply, "result"), "protocolVersion");
    if (mv_jis_string(v) && v->n <= EP_VERSION_LEN && memchr(v->u.s, '\0', v->n) == NULL) {
        memcpy(s->version, v->u.s, v->n);
        s->version[v->n] = '\0';
    }
}

/* initialize: a new session, kept only when the handler's answer is a
 * result (an error reply is sent without a session). */
static void post_initialize(mv_mcp_endpoint *e, const mv_jv *msg, mv_arena *a, ep_answer *an,
                            ep_session **held) {
    ep_session *s = NULL, *closing = NULL;
    mv_buf scratch, reply;
    size_t n = 0;
    mv_buf_init(&scratch, NULL);
    mv_buf_init(&reply, NULL);
    pthread_mutex_lock(&e->lock);
    bool room = sweep(e, true, &closing);
    pthread_mutex_unlock(&e->lock);
    close_chain(e, closing);
    if (!room) {
        an->status = 503;
        an->retry = 5;
        rpc_error_body(&an->body, RPC_SERVER_ERROR, "too many sessions are in use; retry later");
        goto done;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL || !mv_httpd_random_hex(s->id, sizeof s->id)) {
        free(s);
        s = NULL;
        an->status = 500;
        rpc_error_body(&an->body, RPC_INTERNAL, "cannot create a session");
        goto done;
    }
    pthread_mutex_init(&s->call, NULL);
    s->refs = 1;
    s->last_used = mono_now();
    if (e->h.session_open != NULL && e->h.session_open(e->h.ctx, &s->user) != MV_OK) {
        pthread_mutex_destroy(&s->call);
        free(s);
        s = NULL;
        an->status = 500;
        rpc_error_body(&an->body, RPC_INTERNAL, "the server cannot open a session");
        goto done;
    }
    an->body.len = 0;
    call_one(e, s, msg, &scratch, &reply, &an->body, &n, NULL);
    const mv_jv *tree = NULL;
    mv_jerror je;
    bool ok = n > 0 && !an->body.failed &&
              mv_json_parse(&tree, a, NULL, an->body.data, an->body.len, &je) == MV_OK &&
              mv_jobject_get(tree, "result") != NULL;
    an->status = n > 0 ? 200 : 202;
    if (!ok) {
        s->ended = true; /* never entered the table */
        an->note = "(initialize refused)";
        goto done;
    }
    take_version(s, tree);
    pthread_mutex_lock(&e->lock);
    s->next = e->sessions;
    e->sessions = s;
    e->n_sessions++;
    pthread_mutex_unlock(&e->lock);
    an->session = s->id; /* valid while the caller holds the reference */
    *held = s;
    an->note = "(new session)";
done:
    mv_buf_release(&scratch);
    mv_buf_release(&reply);
    if (s != NULL && s->ended)
        session_free(e, s);
}

/* A POST answered as an event stream: its messages are handled on a
 * thread of their own while libmicrohttpd writes what they emit. */
typedef struct ep_job {
    mv_mcp_endpoint *e;
    ep_session *s;     /* a reference held */
    mv_mcp_stream *st; /* a reference held */
    mv_arena *a;
    const mv_jv *root;
    bool batch;
} ep_job;

static void *job_main(void *arg) {
    ep_job *j = arg;
    mv_mcp_endpoint *e = j->e;
    mv_buf scratch, reply, out;
    size_t n = j->batch ? j->root->n : 1, n_replies = 0;
    mv_buf_init(&scratch, NULL);
    mv_buf_init(&reply, NULL);
    mv_buf_init(&out, NULL);
    if (j->batch)
        mv_buf_putc(&out, '[');
    for (size_t i = 0; i < n; i++)
        call_one(e, j->s, j->batch ? &j->root->u.items[i] : j->root, &scratch, &reply, &out,
                 &n_replies, j->st);
    if (j->batch)
        mv_buf_putc(&out, ']');
    if (out.failed) {
        out.len = 0;
        out.failed = 0;
        rpc_error_body(&out, RPC_INTERNAL, "out of memory");
        n_replies = 1;
    }
    if (n_replies > 0)
        (void)stream_push(j->st, out.data, out.len, true);
    stream_end(j->st);
    stream_unref(j->st);
    busy_leave(e);
    session_put(e, j->s);
    mv_arena_free(j->a);
    free(j);
    mv_buf_release(&scratch);
    mv_buf_release(&reply);
    mv_buf_release(&out);
    pthread_mutex_lock(&e->lock);
    e->workers--;
    pthread_cond_broadcast(&e->workers_done);
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* A media type list names text/event-stream. */
static bool accepts_sse(const char *accept) {
    return accept != NULL && strcasestr(accept, "text/event-stream") != NULL;
}

/* Start answering a POST of session `s` (busy slot taken) as a stream.
 * true when the job runs (it owns `a`, the busy slot and a new session
 * reference; an->stream is set), false to answer as plain JSON. */
static bool start_job(mv_mcp_endpoint *e, ep_session *s, mv_arena *a, const mv_jv *root, bool batch,
                      ep_answer *an) {
    ep_job *j = calloc(1, sizeof *j);
    mv_mcp_stream *st = j != NULL ? stream_new(e, NULL) : NULL;
    pthread_attr_t at;
    pthread_t th;
    if (st == NULL) {
        free(j);
        return false;
    }
    j->e = e;
    j->s = s;
    j->st = st;
    j->a = a;
    j->root = root;
    j->batch = batch;
    pthread_mutex_lock(&e->lock);
    st->refs++; /* the worker's */
    s->refs++;
    e->workers++;
    pthread_mutex_unlock(&e->lock);
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&th, &at, job_main, j);
    pthread_attr_destroy(&at);
    if (rc != 0) {
        pthread_mutex_lock(&e->lock);
        st->refs--;
        s->refs--;
        e->workers--;
        pthread_mutex_unlock(&e->lock);
        stream_end(st);
        stream_unref(st);
        free(j);
        return false;
    }
    an->stream = st;
    an->status = 200;
    return true;
}

/* The body of a POST: one message or a batch. Fills `an`; `*held` is the
 * session the caller must release after sending (its id is in the
 * answer's header). */
static void post_body(mv_mcp_endpoint *e, struct MHD_Connection *c, const ep_req *rq, ep_answer *an,
                      ep_session **held) {
    mv_arena *a = mv_arena_new(NULL, 0);
    bool any_request = false;
    const mv_jv *root = NULL;
    mv_jerror je;
    mv_buf scratch, reply;
    char msg[512];
    mv_buf_init(&scratch, NULL);
    mv_buf_init(&reply, NULL);
    *held = NULL;
    an->status = 400;
    if (a == NULL) {
        an->status = 500;
        rpc_error_body(&an->body, RPC_INTERNAL, "out of memory");
        goto done;
    }
    if (rq->body.len == 0 ||
        mv_json_parse(&root, a, NULL, rq->body.data, rq->body.len, &je) != MV_OK) {
        if (rq->body.len == 0)
            snprintf(msg, sizeof msg, "Parse error: the body is empty");
        else
            snprintf(msg, sizeof msg, "Parse error at byte %zu: %s", je.offset, je.message);
        rpc_error_body(&an->body, RPC_PARSE_ERROR, msg);
        goto done;
    }
    bool batch = mv_jis_array(root);
    size_t n = batch ? root->n : 1;
    if ((!batch && !mv_jis_object(root)) || n == 0) {
        rpc_error_body(&an->body, RPC_INVALID_REQUEST,
                       "Invalid request: the body must be a JSON-RPC message or a non-empty "
                       "batch");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const mv_jv *m = batch ? &root->u.items[i] : root;
        if (!mv_jis_object(m)) {
            rpc_error_body(&an->body, RPC_INVALID_REQUEST,
                           "Invalid request: each message of a batch must be an object");
            goto done;
        }
        if (batch && str_is(mv_jobject_get(m, "method"), "initialize")) {
            rpc_error_body(&an->body, RPC_INVALID_REQUEST,
                           "Invalid request: initialize must be sent alone");
            goto done;
        }
        any_request = any_request || is_request(m);
    }
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    if (!batch && str_is(mv_jobject_get(root, "method"), "initialize")) {
        if (sid != NULL) {
            rpc_error_body(&an->body, RPC_INVALID_REQUEST,
                           "Bad Request: initialize starts a new session; send it without "
                           "Mcp-Session-Id");
            goto done;
        }
        if (!busy_enter(e)) {
            an->status = 503;
            an->retry = 1;
            rpc_error_body(&an->body, RPC_SERVER_ERROR, "the server is busy; retry later");
            goto done;
        }
        post_initialize(e, root, a, an, held);
        busy_leave(e);
        goto done;
    }
    if (sid == NULL) {
        rpc_error_body(&an->body, RPC_SERVER_ERROR,
                       "Bad Request: the Mcp-Session-Id header is required (send initialize "
                       "first)");
        goto done;
    }
    ep_session *s = session_get(e, sid);
    if (s == NULL) {
        an->status = 404;
        rpc_error_body(&an->body, RPC_NO_SESSION,
                       "Session not found: it ended or expired; send initialize again");
        goto done;
    }
    *held = s;
    const char *pv = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    if (pv != NULL && s->version[0] != '\0' && strcmp(pv, s->version) != 0) {
        snprintf(msg, sizeof msg,
                 "Bad Request: MCP-Protocol-Version does not match the version this session "
                 "agreed (%s)",
                 s->version);
        rpc_error_body(&an->body, RPC_SERVER_ERROR, msg);
        goto done;
    }
    if (batch && e->o.batches_by_version && s->version[0] != '\0' &&
        strcmp(s->version, "2025-06-18") >= 0) {
        snprintf(msg, sizeof msg,
                 "Invalid request: protocol version %s has no JSON-RPC batches (they were "
                 "allowed up to 2025-03-26); send the messages one by one",
                 s->version);
        rpc_error_body(&an->body, RPC_INVALID_REQUEST, msg);
        goto done;
    }
    if (!busy_enter(e)) {
        an->status = 503;
        an->retry = 1;
        rpc_error_body(&an->body, RPC_SERVER_ERROR, "the server is busy; retry later");
        goto done;
    }
    if (any_request && e->h.handle_streamed != NULL && e->h.stream_open != NULL &&
        accepts_sse(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept")) &&
        start_job(e, s, a, root, batch, an)) {
        a = NULL; /* the job's now */
        goto done;
    }
    size_t n_replies = 0;
    an->body.len = 0;
    if (batch)
        mv_buf_putc(&an->body, '[');
    for (size_t i = 0; i < n; i++)
        call_one(e, s, batch ? &root->u.items[i] : root, &scratch, &reply, &an->body, &n_replies,
                 NULL);
    busy_leave(e);
    if (batch)
        mv_buf_putc(&an->body, ']');
    if (an->body.failed) {
        an->status = 500;
        mv_buf_release(&an->body);
        mv_buf_init(&an->body, NULL);
        rpc_error_body(&an->body, RPC_INTERNAL, "out of memory");
    } else if (n_replies == 0) {
        an->status = 202; /* only notifications and responses */
        an->body.len = 0;
    } else {
        an->status = 200;
    }
done:
    mv_buf_release(&scratch);
    mv_buf_release(&reply);
    mv_arena_free(a);
}

/* A media type list names `type` (or a wildcard covering it). */
static bool accepts_json(const char *accept) {
    if (accept == NULL)
        return true;
    return strcasestr(accept, "application/json") != NULL || strstr(accept, "*/*") != NULL ||
           strcasestr(accept, "application/*") != NULL;
}

static bool is_json_type(const char *ct) {
    if (ct == NULL)
        return true;
    while (*ct == ' ')
        ct++;
    size_t n = strlen("application/json");
    return strncasecmp(ct, "application/json", n) == 0 &&
           (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ');
}

/* GET: the session's event stream for messages the server starts. */
static enum MHD_Result on_get(mv_mcp_endpoint *e, struct MHD_Connection *c, ep_req *rq) {
    char msg[256];
    if (!accepts_sse(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept")))
        return send_error(e, c, rq, "GET", 406, RPC_SERVER_ERROR,
                          "Not Acceptable: GET opens an event stream; accept text/event-stream",
                          NULL, 0);
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    if (sid == NULL)
        return send_error(e, c, rq, "GET", 400, RPC_SERVER_ERROR,
                          "Bad Request: the Mcp-Session-Id header is required", NULL, 0);
    ep_session *s = session_get(e, sid);
    if (s == NULL)
        return send_error(e, c, rq, "GET", 404, RPC_NO_SESSION,
                          "Session not found: it ended or expired; send initialize again", NULL, 0);
    const char *pv = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    if (pv != NULL && s->version[0] != '\0' && strcmp(pv, s->version) != 0) {
        snprintf(msg, sizeof msg,
                 "Bad Request: MCP-Protocol-Version does not match the version this session "
                 "agreed (%s)",
                 s->version);
        session_put(e, s);
        return send_error(e, c, rq, "GET", 400, RPC_SERVER_ERROR, msg, NULL, 0);
    }
    pthread_mutex_lock(&e->lock);
    bool taken = s->get_stream != NULL;
    pthread_mutex_unlock(&e->lock);
    if (taken) {
        session_put(e, s);
        return send_error(e, c, rq, "GET", 409, RPC_SERVER_ERROR,
                          "Conflict: this session already has an open event stream", NULL, 0);
    }
    mv_mcp_stream *st = stream_new(e, s); /* holds the session reference now */
    if (st == NULL) {
        session_put(e, s);
        return send_error(e, c, rq, "GET", 503, RPC_SERVER_ERROR,
                          "too many event streams are open; retry later", NULL, 5);
    }
    pthread_mutex_lock(&e->lock);
    taken = s->get_stream != NULL;
    if (!taken)
        s->get_stream = st;
    pthread_mutex_unlock(&e->lock);
    if (taken) { /* another GET won the race */
        st->s = NULL;
        stream_end(st);
        stream_unref(st);
        session_put(e, s);
        return send_error(e, c, rq, "GET", 409, RPC_SERVER_ERROR,
                          "Conflict: this session already has an open event stream", NULL, 0);
    }
    e->h.stream_open(e->h.ctx, s->user, st);
    mv_httpd_watch_exempt(e->watch, c);
    ep_answer an;
    memset(&an, 0, sizeof an);
    mv_buf_init(&an.body, NULL);
    an.status = 200;
    an.stream = st;
    an.note = "(event stream)";
    return send_answer(e, c, rq, "GET", &an);
}

/* DELETE: end the named session. */
static enum MHD_Result on_delete(mv_mcp_endpoint *e, struct MHD_Connection *c, ep_req *rq) {
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    if (sid == NULL)
        return send_error(e, c, rq, "DELETE", 400, RPC_SERVER_ERROR,
                          "Bad Request: the Mcp-Session-Id header is required", NULL, 0);
    ep_session *s = session_get(e, sid);
    if (s == NULL)
        return send_error(e, c, rq, "DELETE", 404, RPC_NO_SESSION, "Session not found", NULL, 0);
    pthread_mutex_lock(&e->lock);
    if (!s->ended)
        session_unlink(e, s);
    mv_mcp_stream *get = s->get_stream;
    if (get != NULL)
        get->refs++;
    pthread_mutex_unlock(&e->lock);
    if (get != NULL) {
        stream_end(get);
        stream_unref(get);
    }
    session_put(e, s); /* closes it unless another request still holds it */
    ep_answer an;
    memset(&an, 0, sizeof an);
    mv_buf_init(&an.body, NULL);
    an.status = 200;
    an.note = "(session ended)";
    return send_answer(e, c, rq, "DELETE", &an);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
    mv_mcp_endpoint *e = cls;
    ep_req *rq = *con_cls;
    (void)version;
    if (rq == NULL) {
        /* First call: headers only. Refuse early what needs no body. */
        rq = calloc(1, sizeof *rq);
        if (rq == NULL)
            return MHD_NO;
        mv_buf_init(&rq->body, NULL);
        clock_gettime(CLOCK_MONOTONIC, &rq->start);
        *con_cls = rq;
        atomic_fetch_add(&e->in_flight, 1);
        const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
        if (!mv_httpd_host_allowed(&e->hosts, host))
            return send_error(e, c, rq, method, 421, RPC_SERVER_ERROR,
                              "the Host header does not name this server", NULL, 0);
        const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
        if (origin != NULL && !mv_httpd_origin_allowed(&e->hosts, origin))
            return send_error(e, c, rq, method, 403, RPC_SERVER_ERROR,
                              "Forbidden: requests from another origin are refused", NULL, 0);
        if (strcmp(url, e->path) != 0)
            return send_error(e, c, rq, method, 404, RPC_SERVER_ERROR, "Not found: no such path",
                              NULL, 0);
        if (e->key.set && !mv_httpd_key_in_request(&e->key, c))
            return send_error(e, c, rq, method, 401, RPC_SERVER_ERROR,
                              "Unauthorized: a valid key is required (Authorization: Bearer KEY "
                              "or X-API-Key)",
                              NULL, 0);
        if (strcmp(method, "DELETE") == 0)
            return on_delete(e, c, rq);
        if (strcmp(method, "GET") == 0 && e->h.stream_open != NULL)
            return on_get(e, c, rq);
        if (strcmp(method, "POST") != 0)
            return send_error(e, c, rq, method, 405, RPC_SERVER_ERROR,
                              e->h.stream_open != NULL
                                  ? "Method not allowed: POST messages, GET an event stream, "
                                    "DELETE to end a session"
                                  : "Method not allowed: POST messages, DELETE to end a session "
                                    "(this server opens no stream for GET)",
                              e->h.stream_open != NULL ? "GET, POST, DELETE" : "POST, DELETE", 0);
        if (!is_json_type(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type")))
            return send_error(e, c, rq, method, 415, RPC_SERVER_ERROR,
                              "Unsupported Media Type: the body must be application/json", NULL, 0);
        if (!accepts_json(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept")))
            return send_error(e, c, rq, method, 406, RPC_SERVER_ERROR,
                              "Not Acceptable: the client must accept application/json", NULL, 0);
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (cl != NULL && strtoull(cl, NULL, 10) > (unsigned long long)e->o.max_body) {
            char m[128];
            snprintf(m, sizeof m, "the request body is larger than %zu bytes", e->o.max_body);
            return send_error(e, c, rq, method, 413, RPC_SERVER_ERROR, m, NULL, 0);
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (!rq->too_large && rq->body.len + *upload_data_size > e->o.max_body)
            rq->too_large = true;
        if (!rq->too_large)
            mv_buf_append(&rq->body, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->answered)
        return MHD_YES;
    if (rq->too_large) {
        char m[128];
        snprintf(m, sizeof m, "the request body is larger than %zu bytes", e->o.max_body);
        return send_error(e, c, rq, method, 413, RPC_SERVER_ERROR, m, NULL, 0);
    }
    if (rq->body.failed)
        return send_error(e, c, rq, method, 500, RPC_INTERNAL, "out of memory", NULL, 0);
    ep_answer an;
    ep_session *held = NULL;
    memset(&an, 0, sizeof an);
    mv_buf_init(&an.body, NULL);
    post_body(e, c, rq, &an, &held);
    if (an.session == NULL && an.status >= 500 && an.body.len == 0)
        rpc_error_body(&an.body, RPC_INTERNAL, "internal error");
    enum MHD_Result ret = send_answer(e, c, rq, method, &an);
    /* The response holds a copy of a new session's id now. */
    if (held != NULL)
        session_put(e, held);
    mv_buf_release(&an.body);
    return ret;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    mv_mcp_endpoint *e = cls;
    ep_req *rq = *con_cls;
    (void)toe;
    if (rq == NULL)
        return;
    mv_httpd_watch_request_done(e->watch, c);
    mv_buf_release(&rq->body);
    free(rq);
    *con_cls = NULL;
    atomic_fetch_sub(&e->in_flight, 1);
}

/* ------------------------------------------------------ start and stop */

int mv_mcp_endpoint_start(mv_mcp_endpoint **out, const mv_mcp_endpoint_options *opts,
                          const mv_mcp_endpoint_handler *h, char **bound, mv_error *err) {
    mv_mcp_endpoint *e = calloc(1, sizeof *e);
    mv_httpd_addr la;
    unsigned port = 0;
    int fd = -1, rc;
    *out = NULL;
    if (bound != NULL)
        *bound = NULL;
    if (e == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    pthread_mutex_init(&e->lock, NULL);
    pthread_mutex_init(&e->log_lock, NULL);
    pthread_cond_init(&e->workers_done, NULL);
    e->o = *opts;
    e->h = *h;
    if (e->o.log == NULL)
        e->o.log = stderr;
    if (e->o.name == NULL)
        e->o.name = "mcpvet mcp";
    if (e->o.max_connections == 0)
        e->o.max_connections = 64;
    if (e->o.max_sessions == 0)
        e->o.max_sessions = 256;
    if (e->o.idle_timeout_s == 0)
        e->o.idle_timeout_s = 30;
    if (e->o.session_idle_s == 0)
        e->o.session_idle_s = 3600;
    if (e->o.request_deadline_s == 0)
        e->o.request_deadline_s = 300;
    if (e->o.max_body == 0)
        e->o.max_body = MV_MCP_ENDPOINT_DEFAULT_MAX_BODY;
    if (e->o.max_requests == 0)
        e->o.max_requests = 16;
    if (e->o.max_streams == 0)
        e->o.max_streams = 32;
    if (e->o.stream_queue_bytes == 0)
        e->o.stream_queue_bytes = 4u * 1024 * 1024;
    if (e->o.keepalive_s == 0)
        e->o.keepalive_s = 15;
    if (e->o.keepalive_s >= e->o.idle_timeout_s && e->o.idle_timeout_s > 1)
        e->o.keepalive_s = e->o.idle_timeout_s / 2; /* before libmicrohttpd's idle cut */
    if (e->o.stream_idle_s == 0)
        e->o.stream_idle_s = e->o.session_idle_s;
    const char *path = e->o.path != NULL ? e->o.path : "/mcp";
    if (h->handle == NULL || path[0] != '/' || strlen(path) >= sizeof e->path) {
        rc = mv_error_set(err, MV_EINVAL, "the endpoint needs a handler and a path starting /");
        goto fail;
    }
    snprintf(e->path, sizeof e->path, "%s", path);
    if ((rc = mv_httpd_parse_listen(&la, e->o.listen != NULL ? e->o.listen : "127.0.0.1:0", err)) !=
        MV_OK)
        goto fail;
    if (!la.loopback &&
        (!e->o.allow_remote || (e->o.bearer_key == NULL && e->o.bearer_key_sha256 == NULL))) {
        rc = mv_error_set(err, MV_EINVAL,
                          "%s is not a loopback address: binding it exposes the server to the "
                          "network; that needs --allow-remote and a key of your own",
                          la.host);
        goto fail;
    }
    if (e->o.bearer_key != NULL) {
        if (!mv_httpd_key_valid(e->o.bearer_key, strlen(e->o.bearer_key))) {
            rc = mv_error_set(err, MV_EINVAL,
                              "the key must be %u to %u printable characters without spaces",
                              MV_HTTPD_KEY_MIN, MV_HTTPD_KEY_MAX);
            goto fail;
        }
        mv_httpd_key_set(&e->key, e->o.bearer_key, strlen(e->o.bearer_key));
        e->o.bearer_key = NULL; /* only the hash is kept */
    } else if (e->o.bearer_key_sha256 != NULL) {
        memcpy(e->key.hash, e->o.bearer_key_sha256, sizeof e->key.hash);
        e->key.set = true;
        e->o.bearer_key_sha256 = NULL;
    }
    if ((fd = mv_httpd_listen(&la, &port, err)) < 0) {
        rc = fd;
        fd = -1;
        goto fail;
    }
    mv_httpd_hosts_add(&e->hosts, la.host, port);
    if (la.loopback)
        mv_httpd_hosts_add(&e->hosts, "localhost", port);
    if ((rc = mv_httpd_watch_new(&e->watch, e->o.request_deadline_s, e->o.log, e->o.name, err)) !=
        MV_OK)
        goto fail;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (la.v6)
        flags |= MHD_USE_IPv6;
    e->d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, e, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, e,
        MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT, e->o.max_connections,
        MHD_OPTION_CONNECTION_TIMEOUT, e->o.idle_timeout_s, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)(64 * 1024), MHD_OPTION_NOTIFY_COMPLETED, on_completed, e,
        MHD_OPTION_NOTIFY_CONNECTION, mv_httpd_watch_notify, e->watch, MHD_OPTION_END);
    if (e->d == NULL) {
        rc = mv_error_set(err, MV_EIO, "cannot start the HTTP server");
        goto fail;
    }
    fd = -1; /* the daemon owns it */
    if (bound != NULL) {
        char b[MV_HTTPD_HOST_LEN + 16];
        snprintf(b, sizeof b, "%s:%u", la.host, port);
        *bound = strdup(b);
        if (*bound == NULL) {
            rc = mv_error_set(err, MV_ENOMEM, "out of memory");
            goto fail;
        }
    }
    *out = e;
    return MV_OK;
fail:
    if (fd >= 0)
        close(fd);
    mv_mcp_endpoint_stop(e, 0);
    return rc;
}

void mv_mcp_endpoint_stop(mv_mcp_endpoint *e, unsigned grace_s) {
    if (e == NULL)
        return;
    if (e->d != NULL) {
        MHD_socket lfd = MHD_quiesce_daemon(e->d);
        if (lfd != MHD_INVALID_SOCKET)
            close(lfd);
        /* Streams end now (their readers finish what is queued); no new
         * one opens. */
        pthread_mutex_lock(&e->lock);
        e->stopping = true;
        for (mv_mcp_stream *st = e->streams; st != NULL; st = st->next) {
            pthread_mutex_lock(&st->mu);
            st->ended = true;
            pthread_cond_broadcast(&st->cv);
            pthread_mutex_unlock(&st->mu);
        }
        pthread_mutex_unlock(&e->lock);
        struct timespec nap = {0, 20 * 1000 * 1000};
        time_t t0 = mono_now();
        while (atomic_load(&e->in_flight) > 0 && mono_now() - t0 < (time_t)grace_s)
            nanosleep(&nap, NULL);
        if (atomic_load(&e->in_flight) > 0) {
            fprintf(e->o.log, "%s: %u requests still running after %us; stopping\n", e->o.name,
                    atomic_load(&e->in_flight), grace_s);
            fflush(e->o.log);
        }
        MHD_stop_daemon(e->d);
    }
    /* Streamed POSTs finish on their own threads (bounded by the
     * handler's own deadlines, like a request in a connection thread). */
    pthread_mutex_lock(&e->lock);
    while (e->workers > 0)
        pthread_cond_wait(&e->workers_done, &e->lock);
    pthread_mutex_unlock(&e->lock);
    mv_httpd_watch_free(e->watch);
    /* No request runs any more: every session is closed now. */
    ep_session *chain = e->sessions;
    e->sessions = NULL;
    close_chain(e, chain);
    pthread_cond_destroy(&e->workers_done);
    pthread_mutex_destroy(&e->lock);
    pthread_mutex_destroy(&e->log_lock);
    free(e);
}
