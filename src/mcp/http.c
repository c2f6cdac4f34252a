/*
 * Streamable HTTP transport (MCP 2025-03-26 and later, including the
 * stateless 2026-07-28 revision): every message is one POST to the server's
 * endpoint, and the reply is either one JSON body (a message or a batch) or
 * an SSE stream scoped to that request, read until the response to the
 * request has arrived, the server closes it or the deadline passes.
 *
 * One curl easy handle is reused for every request (keep-alive) and
 * driven with curl_easy_perform: the transport has one request in flight at
 * a time, so there is nothing to multiplex. Every reply byte passes through
 * the write callback, which enforces the message and total caps and aborts
 * the transfer when one is hit, so no body is ever buffered unbounded.
 *
 * Failures after some messages of a reply were queued are deferred: send
 * succeeds, recv hands out the queued messages and then the failure, so
 * what arrived before a cap or a timeout is not lost.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/http_common.h"
#include "mcp/sse_parser.h"

/* Non-2xx bodies are read only to find a JSON-RPC error in them. */
#define ERROR_BODY_CAP (1024u * 1024u)
/* Bodies nobody reads (redirects, DELETE replies) are skipped up to this. */
#define DISCARD_CAP (64u * 1024u)
#define SESSION_ID_MAX 1024u
#define DELETE_TIMEOUT_MS 2000u
/* The first revision without sessions that wants Mcp-Method / Mcp-Name. */
#define STATELESS_VERSION "2026-07-28"

typedef struct http_t {
    mv_mcp_transport base;
    char *endpoint; /* the configured URL, or where a redirect led */
    char *configured_url;
    char origin[512]; /* of the configured URL: configured headers go only there */
    mv_mcp_headers headers;
    mv_mcp_limits lim;
    CURL *curl;
    char errbuf[CURL_ERROR_SIZE];
    uint64_t total; /* reply bytes received over the transport's life */
    char *session_id;
    char protocol_version[32];
    mv_mcp_msgq q;
    bool has_pending;
    mv_mcp_failure pending;
    /* For the proxy (mv_mcp_http_set_observer and friends): */
    mv_mcp_observer observer;
    void *observer_arg;
    pthread_mutex_t mu; /* endpoint, session_id, protocol_version vs. the side requests */
} http_t;

enum body_kind { BODY_UNKNOWN, BODY_JSON, BODY_SSE, BODY_ERROR, BODY_DISCARD };

/* One HTTP exchange. */
typedef struct xfer {
    http_t *t;
    const mv_mcp_rpc_id *want;
    bool notification;
    enum body_kind kind;
    mv_buf body;
    uint64_t discarded;
    mv_sse_parser *sse;
    bool answered;
    bool stop_ok; /* aborted on purpose: the answer arrived or the rest is not needed */
    bool failed;  /* aborted by a cap or a bad reply; `fail` says why */
    mv_mcp_failure fail;
    size_t queued; /* messages this exchange queued */
    char session_id[SESSION_ID_MAX + 1];
    size_t session_id_len;
    bool session_id_bad;
    char auth_scheme[48];
    const char *what;
} xfer;

/* Count reply bytes against the total cap. */
static bool count_bytes(xfer *x, size_t n) {
    http_t *t = x->t;
    if (!mv_mcp_count_total(&t->total, t->lim.max_total_bytes, n, &x->fail)) {
        x->failed = true;
        return false;
    }
    return true;
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *arg) {
    xfer *x = arg;
    size_t n = size * nmemb;
    const char *v;
    size_t vl;
    if (!count_bytes(x, n))
        return 0;
    if (n >= 5 && memcmp(ptr, "HTTP/", 5) == 0) {
        /* A new response (after a 1xx): forget the previous one's headers. */
        x->session_id_len = 0;
        x->session_id_bad = false;
        x->auth_scheme[0] = '\0';
    } else if (mv_mcp_header_is(ptr, n, "mcp-session-id", &v, &vl)) {
        bool ok = vl > 0 && vl <= SESSION_ID_MAX;
        for (size_t i = 0; i < vl && ok; i++)
            ok = (unsigned char)v[i] >= 0x21 && (unsigned char)v[i] <= 0x7E;
        x->session_id_bad = !ok;
        if (ok) {
            memcpy(x->session_id, v, vl);
            x->session_id[vl] = '\0';
            x->session_id_len = vl;
        }
    } else if (mv_mcp_header_is(ptr, n, "www-authenticate", &v, &vl) && x->auth_scheme[0] == '\0') {
        /* Only the scheme: parameters may carry realms and URLs. */
        size_t s = 0;
        while (s < vl && s < 32 && v[s] != ' ' && v[s] != ',')
            s++;
        mv_mcp_sanitize(x->auth_scheme, sizeof x->auth_scheme, v, s, 32);
    }
    return n;
}

/* A message event of the reply stream. */
static int on_event(void *arg, const mv_sse_event *ev) {
    xfer *x = arg;
    size_t before = x->t->q.count;
    int rc;
    if (ev->type_len != 7 || memcmp(ev->type, "message", 7) != 0)
        return 0;
    if (x->t->observer != NULL && x->t->observer(x->t->observer_arg, ev->data, ev->data_len))
        return 0; /* taken as it arrived */
    rc = mv_mcp_queue_payload(&x->t->q, ev->data, ev->data_len, x->want, &x->answered);
    x->queued += x->t->q.count - before;
    if (rc != 0)
        return rc;
    return x->answered ? 1 : 0;
}

/* The first body byte arrived: the status and type are known now. */
static void classify(xfer *x) {
    long status = 0;
    char *ct = NULL;
    curl_easy_getinfo(x->t->curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(x->t->curl, CURLINFO_CONTENT_TYPE, &ct);
    if (status >= 300 && status <= 399) {
        x->kind = BODY_DISCARD;
    } else if (status < 200 || status > 299) {
        x->kind = BODY_ERROR;
    } else if (mv_mcp_content_type_is(ct, "application/json")) {
        x->kind = BODY_JSON;
    } else if (mv_mcp_content_type_is(ct, "text/event-stream")) {
        x->kind = BODY_SSE;
        if (x->notification) {
            /* A notification gets no answer: nothing on this stream is
             * waited for. */
            x->kind = BODY_DISCARD;
            x->stop_ok = true;
            return;
        }
        x->sse = mv_sse_parser_new((size_t)x->t->lim.max_message_bytes, on_event, x);
        if (x->sse == NULL) {
            x->failed = true;
            mv_mcp_fail(&x->fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        }
    } else {
        char shown[64];
        mv_mcp_sanitize(shown, sizeof shown, ct != NULL ? ct : "", ct != NULL ? strlen(ct) : 0, 40);
        x->failed = true;
        mv_mcp_fail(&x->fail, MV_MCP_PROTOCOL_ERROR, (int)status,
                    "%s: HTTP %ld reply of unexpected Content-Type \"%s\"", x->what, status, shown);
    }
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *arg) {
    xfer *x = arg;
    size_t n = size * nmemb;
    int rc;
    if (x->kind == BODY_UNKNOWN)
        classify(x);
    if (x->failed || x->stop_ok || !count_bytes(x, n))
        return 0;
    switch (x->kind) {
    case BODY_DISCARD:
        x->discarded += n;
        if (x->discarded > DISCARD_CAP) {
            x->stop_ok = true;
            return 0;
        }
        return n;
    case BODY_ERROR:
        if (x->body.len + n > ERROR_BODY_CAP || x->body.len + n > x->t->lim.max_message_bytes) {
            /* Too long to be an error message worth reading. */
            x->body.len = 0;
            x->stop_ok = true;
            return 0;
        }
        break;
    case BODY_JSON:
        if (x->body.len + n > x->t->lim.max_message_bytes) {
            x->failed = true;
            mv_mcp_fail(&x->fail, MV_MCP_CAP_HIT, 0,
                        "%s: a message from the server exceeds the %llu-byte cap", x->what,
                        (unsigned long long)x->t->lim.max_message_bytes);
            return 0;
        }
        break;
    case BODY_SSE:
        rc = mv_sse_parser_feed(x->sse, ptr, n);
        if (rc > 0) {
            x->stop_ok = true;
            return 0;
        }
        if (rc == MV_ELIMIT) {
            x->failed = true;
            mv_mcp_fail(&x->fail, MV_MCP_CAP_HIT, 0,
                        "%s: an event from the server exceeds the %llu-byte message cap", x->what,
                        (unsigned long long)x->t->lim.max_message_bytes);
            return 0;
        }
        if (rc < 0) {
            x->failed = true;
            mv_mcp_fail(&x->fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory reading the stream");
            return 0;
        }
        return n;
    case BODY_UNKNOWN:
        return 0;
    }
    if (mv_buf_append(&x->body, ptr, n) != MV_OK) {
        x->failed = true;
        mv_mcp_fail(&x->fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory reading the reply");
        return 0;
    }
    return n;
}

/* The request headers of one attempt to `url`. */
static struct curl_slist *request_headers(http_t *t, const char *url, const mv_mcp_msg_info *info,
                                          bool post) {
    struct curl_slist *h = NULL;
    char origin[512];
    if (post) {
        h = mv_mcp_slist_add(h, "Content-Type", "application/json");
        if (h != NULL)
            h = mv_mcp_slist_add(h, "Accept", "application/json, text/event-stream");
    } else {
        h = mv_mcp_slist_add(h, "Accept", "application/json, text/event-stream");
    }
    /* No "Expect: 100-continue" round trip for large bodies. */
    if (h != NULL)
        h = curl_slist_append(h, "Expect:");
    /* A message says its own version (none for initialize, even after a
     * failed attempt at a newer one); the DELETE reuses the last one. */
    const char *version = info != NULL
                              ? info->protocol_version
                              : (t->protocol_version[0] != '\0' ? t->protocol_version : NULL);
    if (h != NULL && version != NULL)
        h = mv_mcp_slist_add_encoded(h, "MCP-Protocol-Version", version);
    if (h != NULL && info != NULL && version != NULL && strcmp(version, STATELESS_VERSION) >= 0) {
        if (info->method != NULL)
            h = mv_mcp_slist_add_encoded(h, "Mcp-Method", info->method);
        if (h != NULL && info->name != NULL)
            h = mv_mcp_slist_add_encoded(h, "Mcp-Name", info->name);
    }
    if (h != NULL && t->session_id != NULL)
        h = mv_mcp_slist_add(h, "Mcp-Session-Id", t->session_id);
    /* Configured headers (secrets) go to the configured origin only, never
     * to wherever a redirect points. */
    if (h != NULL && mv_mcp_url_origin(origin, sizeof origin, url) == 0 &&
        strcmp(origin, t->origin) == 0)
        h = mv_mcp_headers_append(h, &t->headers);
    return h;
}

/* Whether a non-2xx body is a JSON-RPC message worth handing over. */
static bool is_jsonrpc_body(const mv_buf *b) {
    size_t i = 0;
    while (i < b->len &&
           (b->data[i] == ' ' || b->data[i] == '\n' || b->data[i] == '\r' || b->data[i] == '\t'))
        i++;
    return i < b->len && (b->data[i] == '{' || b->data[i] == '[') &&
           strstr(b->data, "\"jsonrpc\"") != NULL;
}

/* Store a failure: deferred behind queued messages, or returned now. */
static int finish_failure(http_t *t, xfer *x, const mv_mcp_failure *f, mv_mcp_failure *fail) {
    if (x->queued > 0) {
        t->pending = *f;
        t->has_pending = true;
        return 0;
    }
    *fail = *f;
    return -1;
}

static int http_send(mv_mcp_transport *base, const char *msg, size_t len,
                     const mv_mcp_msg_info *info, uint64_t deadline_ms, mv_mcp_failure *fail) {
    http_t *t = (http_t *)base;
    mv_mcp_rpc_id want = {0};
    mv_mcp_redirects redirects = {0};
    struct curl_slist *hdrs = NULL;
    char *url = NULL;
    char what[600];
    xfer x;
    int result = -1;

    memset(&x, 0, sizeof x);
    mv_buf_init(&x.body, NULL);
    t->has_pending = false;
    if (info != NULL && info->protocol_version != NULL &&
        strlen(info->protocol_version) < sizeof t->protocol_version) {
        pthread_mutex_lock(&t->mu);
        strcpy(t->protocol_version, info->protocol_version);
        pthread_mutex_unlock(&t->mu);
    }
    if ((info == NULL || !info->notification) && mv_mcp_rpc_id_of(&want, msg, len) != 0) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    url = strdup(t->endpoint);
    if (url == NULL) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    for (;;) {
        char origin[512];
        long status = 0;
        CURLcode rc;
        if (mv_mcp_url_origin(origin, sizeof origin, url) != 0)
            snprintf(origin, sizeof origin, "the server");
        snprintf(what, sizeof what, "POST to %s", origin);
        if (mv_mcp_now_ms() >= deadline_ms) {
            mv_mcp_fail(fail, MV_MCP_TIMEOUT, 0, "%s: deadline passed before the request", what);
            goto done;
        }
        mv_sse_parser_free(x.sse);
        mv_buf_release(&x.body);
        memset(&x, 0, sizeof x);
        mv_buf_init(&x.body, NULL);
        x.t = t;
        x.want = &want;
        x.notification = info != NULL && info->notification;
        x.what = what;
        curl_slist_free_all(hdrs);
        hdrs = request_headers(t, url, info, true);
        curl_easy_reset(t->curl);
        if (hdrs == NULL || mv_mcp_curl_setup(t->curl, url, deadline_ms, true, t->errbuf) != 0 ||
            curl_easy_setopt(t->curl, CURLOPT_HTTPHEADER, hdrs) != CURLE_OK ||
            curl_easy_setopt(t->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len) != CURLE_OK ||
            curl_easy_setopt(t->curl, CURLOPT_POSTFIELDS, msg) != CURLE_OK ||
            curl_easy_setopt(t->curl, CURLOPT_HEADERFUNCTION, on_header) != CURLE_OK ||
            curl_easy_setopt(t->curl, CURLOPT_HEADERDATA, &x) != CURLE_OK ||
            curl_easy_setopt(t->curl, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
            curl_easy_setopt(t->curl, CURLOPT_WRITEDATA, &x) != CURLE_OK) {
            mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "%s: cannot set up the request", what);
            goto done;
        }
        rc = curl_easy_perform(t->curl);
        curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
        if (x.failed) {
            result = finish_failure(t, &x, &x.fail, fail);
            goto done;
        }
        if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && x.stop_ok) && status < 300) {
            mv_mcp_failure f;
            mv_mcp_fail_curl(&f, rc, what);
            if (status == 0 || rc == CURLE_COULDNT_CONNECT)
                f.http_status = 0;
            else
                f.http_status = (int)status;
            result = finish_failure(t, &x, &f, fail);
            goto done;
        }
        if (status >= 300 && status <= 399) {
            char *next = NULL;
            curl_easy_getinfo(t->curl, CURLINFO_REDIRECT_URL, &next);
            if (next == NULL) {
                mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, (int)status,
                            "%s: HTTP %ld redirect without a usable Location", what, status);
                goto done;
            }
            if (mv_mcp_redirect_check(&redirects, url, next, fail) != 0) {
                fail->http_status = (int)status;
                goto done;
            }
            free(url);
            url = strdup(next);
            if (url == NULL) {
                mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
                goto done;
            }
            continue;
        }
        if (status < 200 || status > 299) {
            mv_mcp_fail_status(fail, status, x.auth_scheme, what);
            if (x.kind == BODY_ERROR && !x.stop_ok && is_jsonrpc_body(&x.body) &&
                mv_mcp_msgq_push(&t->q, x.body.data, x.body.len) == 0)
                fail->has_body = true;
            goto done;
        }
        break;
    }
    /* 2xx */
    if (x.session_id_bad) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0,
                    "%s: the server sent an invalid Mcp-Session-Id (visible ASCII, at most %u "
                    "bytes)",
                    what, SESSION_ID_MAX);
        goto done;
    }
    if (x.session_id_len > 0 && t->session_id == NULL) {
        pthread_mutex_lock(&t->mu);
        t->session_id = strdup(x.session_id);
        pthread_mutex_unlock(&t->mu);
        if (t->session_id == NULL) {
            mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
            goto done;
        }
    }
    if (x.kind == BODY_JSON &&
        mv_mcp_queue_payload(&t->q, x.body.data, x.body.len, &want, &x.answered) != 0) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    if (strcmp(url, t->endpoint) != 0) {
        /* The redirect chain worked: go straight there from now on. */
        pthread_mutex_lock(&t->mu);
        free(t->endpoint);
        t->endpoint = url;
        pthread_mutex_unlock(&t->mu);
        url = NULL;
    }
    result = 0;
done:
    mv_sse_parser_free(x.sse);
    mv_buf_release(&x.body);
    curl_slist_free_all(hdrs);
    /* POSTFIELDS points at the caller's message: drop it with the call. */
    curl_easy_setopt(t->curl, CURLOPT_POSTFIELDS, NULL);
    mv_mcp_redirects_release(&redirects);
    mv_mcp_rpc_id_release(&want);
    free(url);
    return result;
}

static int http_recv(mv_mcp_transport *base, mv_buf *out, uint64_t deadline_ms,
                     mv_mcp_failure *fail) {
    http_t *t = (http_t *)base;
    int rc = mv_mcp_msgq_pop(&t->q, out);
    (void)deadline_ms; /* replies are read by send; nothing arrives in between */
    if (rc == 1)
        return 1;
    if (rc < 0)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
    if (t->has_pending) {
        t->has_pending = false;
        *fail = t->pending;
        return fail->status == MV_MCP_TIMEOUT ? 0 : -1;
    }
    return mv_mcp_fail(fail, MV_MCP_CLOSED, 0,
                       "the server sent no further message in reply to the request");
}

/* Best effort: tell the server the session is over. */
static void send_delete(http_t *t) {
    struct curl_slist *hdrs = NULL;
    xfer x;
    memset(&x, 0, sizeof x);
    mv_buf_init(&x.body, NULL);
    x.t = t;
    x.what = "DELETE";
    x.kind = BODY_DISCARD;
    /* The DELETE reply does not count against the caps of the scan. */
    t->lim.max_total_bytes = UINT64_MAX;
    hdrs = request_headers(t, t->endpoint, NULL, false);
    curl_easy_reset(t->curl);
    if (hdrs != NULL &&
        mv_mcp_curl_setup(t->curl, t->endpoint, mv_mcp_now_ms() + DELETE_TIMEOUT_MS, true,
                          t->errbuf) == CURLE_OK &&
        curl_easy_setopt(t->curl, CURLOPT_CUSTOMREQUEST, "DELETE") == CURLE_OK &&
        curl_easy_setopt(t->curl, CURLOPT_HTTPHEADER, hdrs) == CURLE_OK &&
        curl_easy_setopt(t->curl, CURLOPT_HEADERFUNCTION, on_header) == CURLE_OK &&
        curl_easy_setopt(t->curl, CURLOPT_HEADERDATA, &x) == CURLE_OK &&
        curl_easy_setopt(t->curl, CURLOPT_WRITEFUNCTION, on_body) == CURLE_OK &&
        curl_easy_setopt(t->curl, CURLOPT_WRITEDATA, &x) == CURLE_OK)
        (void)curl_easy_perform(t->curl);
    curl_slist_free_all(hdrs);
    mv_buf_release(&x.body);
}

static void http_close(mv_mcp_transport *base, mv_mcp_result *r) {
    http_t *t = (http_t *)base;
    (void)r; /* no process, no stderr: nothing to report */
    if (t == NULL)
        return;
    if (t->session_id != NULL && t->curl != NULL)
        send_delete(t);
    if (t->curl != NULL)
        curl_easy_cleanup(t->curl);
    mv_mcp_msgq_clear(&t->q);
    mv_mcp_headers_release(&t->headers);
    free(t->session_id);
    free(t->endpoint);
    free(t->configured_url);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

static const mv_mcp_transport_ops HTTP_OPS = {http_send, http_recv, http_close};

int mv_mcp_http_open(mv_mcp_transport **out, const mv_server_config *server,
                     const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail) {
    http_t *t = NULL;
    int rc = -1;
    (void)deadline_ms; /* connects lazily on the first send */
    *out = NULL;
    if (server == NULL || server->url == NULL || lim == NULL)
        return mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0, "no URL configured");
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
    t->base.ops = &HTTP_OPS;
    t->base.kind = MV_TRANSPORT_HTTP;
    pthread_mutex_init(&t->mu, NULL);
    t->lim = *lim;
    if (mv_mcp_url_origin(t->origin, sizeof t->origin, server->url) != 0) {
        mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0, "the URL is not an absolute http or https URL");
        goto done;
    }
    if (mv_mcp_headers_copy(&t->headers, server, fail) != 0)
        goto done;
    t->endpoint = strdup(server->url);
    t->configured_url = strdup(server->url);
    t->curl = curl_easy_init();
    if (t->endpoint == NULL || t->configured_url == NULL || t->curl == NULL) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    *out = &t->base;
    t = NULL;
    rc = 0;
done:
    http_close(t != NULL ? &t->base : NULL, NULL);
    return rc;
}

/* ------------------------------------------- side requests (the proxy)
 *
 * The HTTP front of `mcpvet proxy` relays what the server starts: the
 * messages of a reply stream as they arrive (the observer, called from
 * inside send), the session's GET stream (listen, on a thread of its own)
 * and the client's answers and notifications, which must reach the server
 * while a request is still in flight on the transport's own handle (a
 * server that asks the client for a sampling inside a tools/call waits
 * for that answer before it replies). The side requests use handles of
 * their own and a snapshot of the session taken under the lock. */

void mv_mcp_http_set_observer(mv_mcp_transport *base, mv_mcp_observer fn, void *arg) {
    if (base == NULL || base->kind != MV_TRANSPORT_HTTP)
        return;
    http_t *t = (http_t *)base;
    t->observer = fn;
    t->observer_arg = arg;
}

typedef struct side {
    http_t *t;
    char *url;
    char *sid;
    char version[32];
    const char *method; /* Mcp-Method of a POST (stateless revision), or NULL */
    bool get;
    long status;
    uint64_t discarded;
    mv_sse_parser *parser;
    mv_mcp_observer cb;
    void *cb_arg;
    const atomic_bool *stop;
    bool failed;
    mv_mcp_failure fail;
    char errbuf[CURL_ERROR_SIZE];
} side;

static int side_take(http_t *t, side *sd) {
    pthread_mutex_lock(&t->mu);
    sd->t = t;
    sd->url = strdup(t->endpoint);
    sd->sid = t->session_id != NULL ? strdup(t->session_id) : NULL;
    snprintf(sd->version, sizeof sd->version, "%s", t->protocol_version);
    bool ok = sd->url != NULL && (t->session_id == NULL || sd->sid != NULL);
    pthread_mutex_unlock(&t->mu);
    return ok ? 0 : -1;
}

static void side_release(side *sd) {
    free(sd->url);
    free(sd->sid);
    mv_sse_parser_free(sd->parser);
}

static int side_event(void *arg, const mv_sse_event *ev) {
    side *sd = arg;
    if (ev->type_len == 7 && memcmp(ev->type, "message", 7) == 0 && ev->data_len > 0)
        (void)sd->cb(sd->cb_arg, ev->data, ev->data_len);
    return 0;
}

static size_t side_body(char *ptr, size_t size, size_t nmemb, void *arg) {
    side *sd = arg;
    size_t n = size * nmemb;
    if (sd->parser != NULL) {
        int rc = mv_sse_parser_feed(sd->parser, ptr, n);
        if (rc < 0) {
            sd->failed = true;
            mv_mcp_fail(&sd->fail, rc == MV_ELIMIT ? MV_MCP_CAP_HIT : MV_MCP_PROTOCOL_ERROR, 0,
                        rc == MV_ELIMIT ? "an event of the server's stream exceeds the message cap"
                                        : "out of memory reading the server's stream");
            return 0;
        }
        return n;
    }
    sd->discarded += n;
    return sd->discarded > DISCARD_CAP ? 0 : n;
}

static int side_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un) {
    side *sd = arg;
    (void)dt;
    (void)dn;
    (void)ut;
    (void)un;
    return sd->stop != NULL && atomic_load(sd->stop) ? 1 : 0;
}

static struct curl_slist *side_headers(const side *sd) {
    struct curl_slist *h = NULL;
    char origin[512];
    if (sd->get) {
        h = mv_mcp_slist_add(h, "Accept", "text/event-stream");
    } else {
        h = mv_mcp_slist_add(h, "Content-Type", "application/json");
        if (h != NULL)
            h = mv_mcp_slist_add(h, "Accept", "application/json, text/event-stream");
    }
    if (h != NULL)
        h = curl_slist_append(h, "Expect:");
    if (h != NULL && sd->version[0] != '\0')
        h = mv_mcp_slist_add_encoded(h, "MCP-Protocol-Version", sd->version);
    if (h != NULL && sd->method != NULL && strcmp(sd->version, STATELESS_VERSION) >= 0)
        h = mv_mcp_slist_add_encoded(h, "Mcp-Method", sd->method);
    if (h != NULL && sd->sid != NULL)
        h = mv_mcp_slist_add(h, "Mcp-Session-Id", sd->sid);
    if (h != NULL && mv_mcp_url_origin(origin, sizeof origin, sd->url) == 0 &&
        strcmp(origin, sd->t->origin) == 0)
        h = mv_mcp_headers_append(h, &sd->t->headers);
    return h;
}

/* One side request; the reply's status in sd->status. */
static int side_perform(side *sd, CURL *c, const char *msg, size_t len, uint64_t deadline_ms,
                        mv_mcp_failure *fail) {
    struct curl_slist *hdrs = side_headers(sd);
    char origin[512], what[600];
    int rc = -1;
    if (mv_mcp_url_origin(origin, sizeof origin, sd->url) != 0)
        snprintf(origin, sizeof origin, "the server");
    snprintf(what, sizeof what, "%s to %s", sd->get ? "GET" : "POST", origin);
    if (hdrs == NULL ||
        mv_mcp_curl_setup(c, sd->url, deadline_ms, !sd->get, sd->errbuf) != CURLE_OK ||
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs) != CURLE_OK ||
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, side_body) != CURLE_OK ||
        curl_easy_setopt(c, CURLOPT_WRITEDATA, sd) != CURLE_OK ||
        curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L) != CURLE_OK ||
        curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, side_progress) != CURLE_OK ||
        curl_easy_setopt(c, CURLOPT_XFERINFODATA, sd) != CURLE_OK ||
        (!sd->get &&
         (curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len) != CURLE_OK ||
          curl_easy_setopt(c, CURLOPT_POSTFIELDS, msg) != CURLE_OK))) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "%s: cannot set up the request", what);
        goto done;
    }
    if (sd->get) {
        /* The stream's type is known only with the headers: parse from
         * the first byte and let a non-stream reply fail the parse
         * harmlessly (its status decides). */
        sd->parser = mv_sse_parser_new((size_t)sd->t->lim.max_message_bytes, side_event, sd);
        if (sd->parser == NULL) {
            mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
            goto done;
        }
    }
    CURLcode cr = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &sd->status);
    if (sd->failed) {
        *fail = sd->fail;
        goto done;
    }
    if (cr == CURLE_ABORTED_BY_CALLBACK && sd->stop != NULL && atomic_load(sd->stop)) {
        rc = 0; /* stopped on purpose */
        goto done;
    }
    if (cr != CURLE_OK && !(cr == CURLE_WRITE_ERROR && sd->discarded > DISCARD_CAP)) {
        mv_mcp_fail_curl(fail, cr, what);
        fail->http_status = (int)sd->status;
        goto done;
    }
    if (sd->status < 200 || sd->status > 299) {
        mv_mcp_fail_status(fail, sd->status, NULL, what);
        goto done;
    }
    rc = 0;
done:
    curl_slist_free_all(hdrs);
    return rc;
}

int mv_mcp_http_post_message(mv_mcp_transport *base, const char *msg, size_t len,
                             const char *method, uint64_t deadline_ms, mv_mcp_failure *fail) {
    side sd;
    CURL *c = NULL;
    int rc = -1;
    memset(&sd, 0, sizeof sd);
    sd.method = method;
    if (base == NULL || base->kind != MV_TRANSPORT_HTTP)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "not a streamable HTTP transport");
    if (side_take((http_t *)base, &sd) != 0 || (c = curl_easy_init()) == NULL) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    rc = side_perform(&sd, c, msg, len, deadline_ms, fail);
done:
    if (c != NULL)
        curl_easy_cleanup(c);
    side_release(&sd);
    return rc;
}

int mv_mcp_http_listen(mv_mcp_transport *base, mv_mcp_observer cb, void *arg,
                       const atomic_bool *stop, uint64_t connect_deadline_ms,
                       mv_mcp_failure *fail) {
    side sd;
    CURL *c = NULL;
    int rc = -1;
    memset(&sd, 0, sizeof sd);
    if (base == NULL || base->kind != MV_TRANSPORT_HTTP || cb == NULL)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "not a streamable HTTP transport");
    sd.get = true;
    sd.cb = cb;
    sd.cb_arg = arg;
    sd.stop = stop;
    if (side_take((http_t *)base, &sd) != 0 || (c = curl_easy_init()) == NULL) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    rc = side_perform(&sd, c, NULL, 0, connect_deadline_ms, fail);
    if (rc != 0 && sd.status == 405)
        rc = 1; /* the server offers no stream */
done:
    if (c != NULL)
        curl_easy_cleanup(c);
    side_release(&sd);
    return rc;
}
