/*
 * Legacy HTTP+SSE transport (MCP 2024-11-05): a long-lived GET of the
 * configured URL as an event stream, whose first `endpoint` event names
 * where to POST messages; replies and notifications come back as `message`
 * events on the GET stream.
 *
 * The GET stream and the POSTs share one curl multi handle and progress
 * together on the calling thread (no background thread to join): send
 * drives the multi handle until its POST completes, recv until a message
 * event arrives, and both stop at their deadlines. Every byte of the
 * stream passes through a write callback that enforces the message and
 * total caps; the endpoint must stay on the stream's origin, so a hostile
 * stream cannot send our messages (and configured secrets) elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/http_common.h"
#include "mcp/sse_parser.h"

#define POST_BODY_CAP (1024u * 1024u)
#define DISCARD_CAP (64u * 1024u)
#define ENDPOINT_MAX 4096u
/* Longest single wait inside the loops, so a deadline is seen promptly. */
#define POLL_SLICE_MS 250

enum body_kind { BODY_UNKNOWN, BODY_STREAM, BODY_KEEP, BODY_DISCARD };

/* One transfer (the GET stream or a POST) and what its callbacks saw. */
typedef struct leg {
    struct sse_t *t;
    CURL *h;
    bool is_get;
    bool attached; /* added to the multi handle */
    bool done;
    CURLcode rc;
    enum body_kind kind;
    mv_buf body; /* POST reply (bounded) */
    uint64_t discarded;
    bool stop_ok;
    bool failed;
    mv_mcp_failure fail;
    char auth_scheme[48];
    char errbuf[CURL_ERROR_SIZE];
    struct curl_slist *hdrs;
    char what[600];
} leg;

typedef struct sse_t {
    mv_mcp_transport base;
    char origin[512];        /* of the configured URL: configured headers go only there */
    char stream_origin[512]; /* of the GET URL after redirects */
    char *stream_url;
    char *endpoint; /* the POST URL from the endpoint event, NULL until then */
    bool endpoint_bad;
    mv_mcp_headers headers;
    mv_mcp_limits lim;
    CURLM *multi;
    leg get;
    leg post;
    mv_sse_parser *parser;
    uint64_t total;
    mv_mcp_msgq q;
    char protocol_version[32];
} sse_t;

static bool count_bytes(leg *l, size_t n) {
    sse_t *t = l->t;
    if (!mv_mcp_count_total(&t->total, t->lim.max_total_bytes, n, &l->fail)) {
        l->failed = true;
        return false;
    }
    return true;
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *arg) {
    leg *l = arg;
    size_t n = size * nmemb;
    const char *v;
    size_t vl;
    if (!count_bytes(l, n))
        return 0;
    if (n >= 5 && memcmp(ptr, "HTTP/", 5) == 0) {
        l->auth_scheme[0] = '\0';
    } else if (mv_mcp_header_is(ptr, n, "www-authenticate", &v, &vl) && l->auth_scheme[0] == '\0') {
        size_t s = 0;
        while (s < vl && s < 32 && v[s] != ' ' && v[s] != ',')
            s++;
        mv_mcp_sanitize(l->auth_scheme, sizeof l->auth_scheme, v, s, 32);
    }
    return n;
}

/* An event of the GET stream. */
static int on_event(void *arg, const mv_sse_event *ev) {
    sse_t *t = arg;
    if (ev->type_len == 8 && memcmp(ev->type, "endpoint", 8) == 0) {
        char origin[512];
        char *url;
        if (t->endpoint != NULL)
            return 0; /* the first one counts */
        if (ev->data_len == 0 || ev->data_len > ENDPOINT_MAX) {
            t->endpoint_bad = true;
            return mv_mcp_fail(&t->get.fail, MV_MCP_PROTOCOL_ERROR, 0,
                               "the endpoint event is empty or longer than %u bytes", ENDPOINT_MAX);
        }
        url = mv_mcp_url_resolve(t->stream_url, ev->data, ev->data_len);
        if (url == NULL) {
            t->endpoint_bad = true;
            return mv_mcp_fail(&t->get.fail, MV_MCP_PROTOCOL_ERROR, 0,
                               "the endpoint event is not a usable http(s) URI");
        }
        if (mv_mcp_url_origin(origin, sizeof origin, url) != 0 ||
            strcmp(origin, t->stream_origin) != 0) {
            free(url);
            t->endpoint_bad = true;
            return mv_mcp_fail(&t->get.fail, MV_MCP_PROTOCOL_ERROR, 0,
                               "the endpoint event points at another origin than %s (refused)",
                               t->stream_origin);
        }
        t->endpoint = url;
        return 0;
    }
    if (ev->type_len == 7 && memcmp(ev->type, "message", 7) == 0)
        return mv_mcp_queue_payload(&t->q, ev->data, ev->data_len, NULL, NULL);
    return 0;
}

static void classify(leg *l) {
    long status = 0;
    char *ct = NULL;
    curl_easy_getinfo(l->h, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(l->h, CURLINFO_CONTENT_TYPE, &ct);
    if (!l->is_get) {
        l->kind = BODY_KEEP; /* a POST reply: kept (bounded) for a JSON-RPC error */
    } else if (status < 200 || status > 299) {
        l->kind = BODY_DISCARD;
    } else if (mv_mcp_content_type_is(ct, "text/event-stream")) {
        l->kind = BODY_STREAM;
    } else {
        char shown[64];
        mv_mcp_sanitize(shown, sizeof shown, ct != NULL ? ct : "", ct != NULL ? strlen(ct) : 0, 40);
        l->failed = true;
        mv_mcp_fail(&l->fail, MV_MCP_PROTOCOL_ERROR, (int)status,
                    "%s: HTTP %ld reply of Content-Type \"%s\", not an event stream", l->what,
                    status, shown);
    }
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *arg) {
    leg *l = arg;
    size_t n = size * nmemb;
    int rc;
    if (l->kind == BODY_UNKNOWN)
        classify(l);
    if (l->failed || l->stop_ok || !count_bytes(l, n))
        return 0;
    switch (l->kind) {
    case BODY_STREAM:
        rc = mv_sse_parser_feed(l->t->parser, ptr, n);
        if (rc == MV_ELIMIT) {
            l->failed = true;
            mv_mcp_fail(&l->fail, MV_MCP_CAP_HIT, 0,
                        "%s: an event from the server exceeds the %llu-byte message cap", l->what,
                        (unsigned long long)l->t->lim.max_message_bytes);
            return 0;
        }
        if (rc != 0) {
            l->failed = true;
            if (!l->t->endpoint_bad)
                mv_mcp_fail(&l->fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory reading the stream");
            return 0;
        }
        return n;
    case BODY_KEEP:
        if (l->body.len + n > POST_BODY_CAP || l->body.len + n > l->t->lim.max_message_bytes) {
            l->body.len = 0;
            l->stop_ok = true;
            return 0;
        }
        if (mv_buf_append(&l->body, ptr, n) != MV_OK) {
            l->failed = true;
            mv_mcp_fail(&l->fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
            return 0;
        }
        return n;
    case BODY_DISCARD:
        l->discarded += n;
        if (l->discarded > DISCARD_CAP) {
            l->stop_ok = true;
            return 0;
        }
        return n;
    case BODY_UNKNOWN:
        break;
    }
    return 0;
}

/* Detach and forget a leg's transfer state, keeping its easy handle. */
static void leg_reset(leg *l) {
    if (l->attached) {
        curl_multi_remove_handle(l->t->multi, l->h);
        l->attached = false;
    }
    curl_slist_free_all(l->hdrs);
    l->hdrs = NULL;
    mv_buf_release(&l->body);
    l->done = false;
    l->rc = CURLE_OK;
    l->kind = BODY_UNKNOWN;
    l->discarded = 0;
    l->stop_ok = false;
    l->failed = false;
    l->auth_scheme[0] = '\0';
    memset(&l->fail, 0, sizeof l->fail);
}

/* Configure and attach a transfer to `url`. */
static int leg_start(leg *l, const char *url, uint64_t deadline_ms, const mv_mcp_msg_info *info,
                     const char *msg, size_t len) {
    sse_t *t = l->t;
    struct curl_slist *h = NULL;
    char origin[512];
    const char *version;
    leg_reset(l);
    if (mv_mcp_url_origin(origin, sizeof origin, url) != 0)
        snprintf(origin, sizeof origin, "the server");
    snprintf(l->what, sizeof l->what, "%s %s", l->is_get ? "event stream from" : "POST to", origin);
    if (l->is_get) {
        h = mv_mcp_slist_add(h, "Accept", "text/event-stream");
    } else {
        h = mv_mcp_slist_add(h, "Content-Type", "application/json");
        if (h != NULL)
            h = mv_mcp_slist_add(h, "Accept", "application/json, text/event-stream");
        if (h != NULL)
            h = curl_slist_append(h, "Expect:");
    }
    version = info != NULL && info->protocol_version != NULL ? info->protocol_version : NULL;
    if (h != NULL && version != NULL)
        h = mv_mcp_slist_add_encoded(h, "MCP-Protocol-Version", version);
    if (h != NULL && strcmp(origin, t->origin) == 0)
        h = mv_mcp_headers_append(h, &t->headers);
    l->hdrs = h;
    curl_easy_reset(l->h);
    if (h == NULL || mv_mcp_curl_setup(l->h, url, deadline_ms, !l->is_get, l->errbuf) != 0 ||
        curl_easy_setopt(l->h, CURLOPT_HTTPHEADER, h) != CURLE_OK ||
        curl_easy_setopt(l->h, CURLOPT_HEADERFUNCTION, on_header) != CURLE_OK ||
        curl_easy_setopt(l->h, CURLOPT_HEADERDATA, l) != CURLE_OK ||
        curl_easy_setopt(l->h, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
        curl_easy_setopt(l->h, CURLOPT_WRITEDATA, l) != CURLE_OK ||
        curl_easy_setopt(l->h, CURLOPT_PRIVATE, l) != CURLE_OK)
        return -1;
    if (!l->is_get &&
        (curl_easy_setopt(l->h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len) != CURLE_OK ||
         curl_easy_setopt(l->h, CURLOPT_POSTFIELDS, msg) != CURLE_OK))
        return -1;
    if (curl_multi_add_handle(t->multi, l->h) != CURLM_OK)
        return -1;
    l->attached = true;
    return 0;
}

/* Let every transfer progress; wait (at most until the deadline) only
 * when this round brought nothing new for the caller to look at. */
static void drive(sse_t *t, uint64_t deadline_ms) {
    int running = 0, left = 0;
    size_t queued = t->q.count;
    bool had_endpoint = t->endpoint != NULL, progress = false;
    CURLMsg *m;
    curl_multi_perform(t->multi, &running);
    while ((m = curl_multi_info_read(t->multi, &left)) != NULL) {
        leg *l = NULL;
        if (m->msg != CURLMSG_DONE)
            continue;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&l);
        if (l == NULL)
            continue;
        l->done = true;
        l->rc = m->data.result;
        progress = true;
    }
    if (progress || t->q.count != queued || (t->endpoint != NULL) != had_endpoint ||
        t->get.failed || t->post.failed || mv_mcp_now_ms() >= deadline_ms)
        return;
    long wait = mv_mcp_ms_left(deadline_ms);
    curl_multi_poll(t->multi, NULL, 0, wait > POLL_SLICE_MS ? POLL_SLICE_MS : (int)wait, NULL);
}

/* Why the GET stream is over (it is done, or failed in a callback). */
static void stream_failure(sse_t *t, mv_mcp_failure *fail) {
    long status = 0;
    if (t->get.failed) {
        *fail = t->get.fail;
        return;
    }
    curl_easy_getinfo(t->get.h, CURLINFO_RESPONSE_CODE, &status);
    if (status != 0 && (status < 200 || status > 299)) {
        mv_mcp_fail_status(fail, status, t->get.auth_scheme, t->get.what);
        return;
    }
    if (t->get.rc != CURLE_OK && !(t->get.rc == CURLE_WRITE_ERROR && t->get.stop_ok)) {
        mv_mcp_fail_curl(fail, t->get.rc, t->get.what);
        if (fail->status == MV_MCP_CLOSED)
            snprintf(fail->reason, sizeof fail->reason,
                     "%.300s: the server closed the event stream", t->get.what);
        return;
    }
    mv_mcp_fail(fail, MV_MCP_CLOSED, 0, "%.300s: the server closed the event stream", t->get.what);
}

static int sse_send(mv_mcp_transport *base, const char *msg, size_t len,
                    const mv_mcp_msg_info *info, uint64_t deadline_ms, mv_mcp_failure *fail) {
    sse_t *t = (sse_t *)base;
    leg *p = &t->post;
    long status = 0;
    int result = -1;
    if (t->get.failed || t->endpoint == NULL) {
        stream_failure(t, fail);
        return -1;
    }
    if (leg_start(p, t->endpoint, deadline_ms, info, msg, len) != 0) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "%s: cannot set up the request", p->what);
        goto done;
    }
    while (!p->done && !p->failed && mv_mcp_now_ms() < deadline_ms)
        drive(t, deadline_ms);
    if (p->failed) {
        *fail = p->fail;
        goto done;
    }
    if (!p->done) {
        mv_mcp_fail(fail, MV_MCP_TIMEOUT, 0, "%s: no reply before the deadline", p->what);
        goto done;
    }
    curl_easy_getinfo(p->h, CURLINFO_RESPONSE_CODE, &status);
    if (p->rc != CURLE_OK && !(p->rc == CURLE_WRITE_ERROR && p->stop_ok) && status == 0) {
        mv_mcp_fail_curl(fail, p->rc, p->what);
        goto done;
    }
    if (status >= 300 && status <= 399) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, (int)status,
                    "%s: HTTP %ld redirect of a message POST (not followed)", p->what, status);
        goto done;
    }
    if (status < 200 || status > 299) {
        mv_mcp_fail_status(fail, status, p->auth_scheme, p->what);
        if (!p->stop_ok && p->body.len > 0 && p->body.data[0] == '{' &&
            strstr(p->body.data, "\"jsonrpc\"") != NULL &&
            mv_mcp_msgq_push(&t->q, p->body.data, p->body.len) == 0)
            fail->has_body = true;
        goto done;
    }
    result = 0;
done:
    /* POSTFIELDS points at the caller's message: drop it with the call. */
    leg_reset(p);
    curl_easy_setopt(p->h, CURLOPT_POSTFIELDS, NULL);
    return result;
}

static int sse_recv(mv_mcp_transport *base, mv_buf *out, uint64_t deadline_ms,
                    mv_mcp_failure *fail) {
    sse_t *t = (sse_t *)base;
    for (;;) {
        int rc = mv_mcp_msgq_pop(&t->q, out);
        if (rc == 1)
            return 1;
        if (rc < 0)
            return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        if (t->get.failed || t->get.done) {
            stream_failure(t, fail);
            return -1;
        }
        if (mv_mcp_now_ms() >= deadline_ms) {
            mv_mcp_fail(fail, MV_MCP_TIMEOUT, 0, "%s: no message before the deadline", t->get.what);
            return 0;
        }
        drive(t, deadline_ms);
    }
}

static void sse_close(mv_mcp_transport *base, mv_mcp_result *r) {
    sse_t *t = (sse_t *)base;
    (void)r;
    if (t == NULL)
        return;
    if (t->get.h != NULL) {
        leg_reset(&t->get);
        curl_easy_cleanup(t->get.h);
    }
    if (t->post.h != NULL) {
        leg_reset(&t->post);
        curl_easy_cleanup(t->post.h);
    }
    if (t->multi != NULL)
        curl_multi_cleanup(t->multi);
    mv_sse_parser_free(t->parser);
    mv_mcp_msgq_clear(&t->q);
    mv_mcp_headers_release(&t->headers);
    free(t->stream_url);
    free(t->endpoint);
    free(t);
}

static const mv_mcp_transport_ops SSE_OPS = {sse_send, sse_recv, sse_close};

/* GET the stream (following up to a few redirects) until the endpoint
 * event arrives. */
static int open_stream(sse_t *t, uint64_t deadline_ms, mv_mcp_failure *fail) {
    mv_mcp_redirects redirects = {0};
    int result = -1;
    for (;;) {
        long status = 0;
        if (mv_mcp_url_origin(t->stream_origin, sizeof t->stream_origin, t->stream_url) != 0) {
            mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0, "the URL is not an http or https URL");
            goto done;
        }
        if (leg_start(&t->get, t->stream_url, deadline_ms, NULL, NULL, 0) != 0) {
            mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "cannot set up the event stream request");
            goto done;
        }
        while (t->endpoint == NULL && !t->get.done && !t->get.failed &&
               mv_mcp_now_ms() < deadline_ms)
            drive(t, deadline_ms);
        /* With the endpoint known the transport is open; a stream that
         * failed right after it is reported by the next recv. */
        if (t->endpoint != NULL)
            break;
        if (!t->get.done && !t->get.failed) {
            mv_mcp_fail(fail, MV_MCP_TIMEOUT, 0, "%s: no endpoint event before the deadline",
                        t->get.what);
            goto done;
        }
        curl_easy_getinfo(t->get.h, CURLINFO_RESPONSE_CODE, &status);
        if (!t->get.failed && status >= 300 && status <= 399) {
            char *next = NULL, *copy;
            curl_easy_getinfo(t->get.h, CURLINFO_REDIRECT_URL, &next);
            if (next == NULL) {
                mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, (int)status,
                            "%s: HTTP %ld redirect without a usable Location", t->get.what, status);
                goto done;
            }
            if (mv_mcp_redirect_check(&redirects, t->stream_url, next, fail) != 0) {
                fail->http_status = (int)status;
                goto done;
            }
            copy = strdup(next);
            if (copy == NULL) {
                mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
                goto done;
            }
            free(t->stream_url);
            t->stream_url = copy;
            continue;
        }
        stream_failure(t, fail);
        if (!t->get.failed && fail->status == MV_MCP_CLOSED)
            snprintf(fail->reason, sizeof fail->reason,
                     "%.300s: the server closed the event stream before the endpoint event",
                     t->get.what);
        goto done;
    }
    result = 0;
done:
    mv_mcp_redirects_release(&redirects);
    return result;
}

int mv_mcp_sse_open(mv_mcp_transport **out, const mv_server_config *server,
                    const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail) {
    sse_t *t = NULL;
    int rc = -1;
    *out = NULL;
    if (server == NULL || server->url == NULL || lim == NULL)
        return mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0, "no URL configured");
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
    t->base.ops = &SSE_OPS;
    t->base.kind = MV_TRANSPORT_SSE;
    t->lim = *lim;
    t->get.t = t;
    t->get.is_get = true;
    t->post.t = t;
    mv_buf_init(&t->get.body, NULL);
    mv_buf_init(&t->post.body, NULL);
    if (mv_mcp_url_origin(t->origin, sizeof t->origin, server->url) != 0) {
        mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0, "the URL is not an absolute http or https URL");
        goto done;
    }
    if (mv_mcp_headers_copy(&t->headers, server, fail) != 0)
        goto done;
    t->stream_url = strdup(server->url);
    t->multi = curl_multi_init();
    t->get.h = curl_easy_init();
    t->post.h = curl_easy_init();
    t->parser = mv_sse_parser_new((size_t)lim->max_message_bytes, on_event, t);
    if (t->stream_url == NULL || t->multi == NULL || t->get.h == NULL || t->post.h == NULL ||
        t->parser == NULL) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        goto done;
    }
    if (open_stream(t, deadline_ms, fail) != 0)
        goto done;
    *out = &t->base;
    t = NULL;
    rc = 0;
done:
    sse_close(t != NULL ? &t->base : NULL, NULL);
    return rc;
}
