/*
 * The REST API of `mcpvet serve` (rest.h): libmicrohttpd with one thread
 * per connection (a scan is CPU- or server-bound work that must not stall
 * other connections), a cap on connections, an idle timeout per
 * connection, a whole-request deadline (httpd.h: a client trickling its
 * body cannot hold a thread), a cap on request bodies, and a graceful stop
 * on SIGTERM or SIGINT. Each request is checked in this order: Host (421), Origin (403),
 * the API key for /api/ (401), the CSRF token of a browser's POST (403),
 * the route (404) and method (405), the body (413, 400); then one call into
 * the shared operations answers it.
 *
 * The review page (src/web/, embedded at build time) is served at / and
 * /ui/ with a strict Content-Security-Policy. It fetches a per-process CSRF
 * token from GET /api/v1/csrf (key required) and sends it as X-CSRF-Token;
 * a POST that carries an Origin (every browser's does) or that header must
 * carry the right token, and its decisions are audited with actor `web`.
 * Clients that send neither (curl, scripts) are unchanged: actor `rest`.
 *
 * The key rules (constant-time compare, never printed, generated 0600)
 * and the Host/Origin checks are shared with the MCP endpoint (httpd.h).
 *
 * The checks and the answer read the request through mv_rest_view
 * (precheck on the headers, answer once the body is complete), so
 * mv_rest_handle (rest.h) runs the very same code without a socket for
 * fuzz/fuzz_rest.c.
 */
#define _GNU_SOURCE /* pthread_sigmask and friends on glibc with _POSIX_C_SOURCE */
#include "server/rest.h"

#include <errno.h>
#include "server/mhd_dl.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/evidence.h"
#include "mcpvet/report.h"
#include "server/httpd.h"

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

#define REST_MAX_SEGMENTS 8u
#define REST_MAX_EVENTS 100000u
#define REST_QUEUE_PAGE 50u
#define REST_QUEUE_MAX_PER_PAGE 1000u
#define REST_QUEUE_MAX_PAGE 1000000u
#define REST_MAX_IDS 4096u
#define REST_QUERY_TEXT_MAX 256u

/* The review page's files (generated/web_assets.c, from src/web/). */
extern const char mv_web_index_html[];
extern const size_t mv_web_index_html_len;
extern const char mv_web_app_js[];
extern const size_t mv_web_app_js_len;
extern const char mv_web_app_css[];
extern const size_t mv_web_app_css_len;

/* Nothing but this origin's own files: no inline script or style, no
 * plugins, no framing, no foreign connections. */
#define REST_CSP                                                                                   \
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "                    \
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "                 \
    "frame-ancestors 'none'"

typedef struct mv_rest_handler {
    const mv_rest_options *o;
    mv_service *svc;
    mv_httpd_key key;
    mv_httpd_hosts hosts; /* accepted Host values */
    mv_httpd_watch *watch;
    atomic_uint in_flight;
    pthread_mutex_t log_lock;
    char csrf[65]; /* per-process token of the review page (hex) */
    mv_httpd_key csrf_key;
} rest_server;

/* One request's state across the handler's calls. */
typedef struct rest_req {
    mv_buf body;
    bool too_large;
    bool answered;
    bool web; /* a POST with the right CSRF token: the review page */
    struct timespec start;
} rest_req;

/* The review page's CSRF token, compared in constant time like the key. */
static bool csrf_matches(const rest_server *s, const char *given) {
    return given != NULL && mv_httpd_key_matches(&s->csrf_key, given, strlen(given));
}

/* ------------------------------------------------------------ replies */

static void log_line(rest_server *s, const char *method, const char *url, int status,
                     const struct timespec *start) {
    if (s->o->quiet)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double ms =
        (double)(now.tv_sec - start->tv_sec) * 1e3 + (double)(now.tv_nsec - start->tv_nsec) / 1e6;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_str path = {"?", 1};
    if (a != NULL)
        mv_evidence_render(a, url, strlen(url), 512, &path, NULL);
    pthread_mutex_lock(&s->log_lock);
    fprintf(s->o->log, "mcpvet serve: %s %s %d %.1fms\n", method, path.ptr, status, ms);
    fflush(s->o->log);
    pthread_mutex_unlock(&s->log_lock);
    mv_arena_free(a);
}

static enum MHD_Result send_reply(rest_server *s, struct MHD_Connection *c, rest_req *rq,
                                  const char *method, const char *url, mv_service_reply *r,
                                  const char *allow) {
    const char *data = r->body.data != NULL ? r->body.data : "";
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(r->body.len, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", "application/json");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (r->status == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer realm=\"mcpvet\"");
    if (allow != NULL)
        MHD_add_response_header(resp, "Allow", allow);
    if (r->retry_after > 0) {
        char ra[16];
        snprintf(ra, sizeof ra, "%u", r->retry_after);
        MHD_add_response_header(resp, "Retry-After", ra);
    }
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    rq->answered = true;
    log_line(s, method, url, r->status, &rq->start);
    return ret;
}

/* ------------------------------------------------------------- routing */

/* Percent-decode in place; '+' is a space in query values only. Fails on
 * a bad escape or an encoded NUL. */
static bool percent_decode(char *s, bool plus_space) {
    char *w = s;
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '%') {
            int hi = p[1], lo = hi != '\0' ? p[2] : '\0';
            char hx[3] = {(char)hi, (char)lo, '\0'};
            char *end = NULL;
            if (hi == '\0' || lo == '\0' ||
                !((hi >= '0' && hi <= '9') || (hi >= 'a' && hi <= 'f') || (hi >= 'A' && hi <= 'F')))
                return false;
            long v = strtol(hx, &end, 16);
            if (*end != '\0' || v == 0)
                return false;
            *w++ = (char)v;
            p += 2;
        } else if (*p == '+' && plus_space) {
            *w++ = ' ';
        } else {
            *w++ = *p;
        }
    }
    *w = '\0';
    return true;
}

/* MHD unescapes the whole path by default, which would turn an encoded
 * "/" in a tool name into a separator: keep the raw text and decode each
 * segment (and each query value) after splitting. */
static size_t keep_escapes(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls;
    (void)c;
    return strlen(s);
}

/* A query value, decoded, copied into `a` (NULL when absent or bad). */
static const char *query(const mv_rest_view *view, mv_arena *a, const char *name, bool *bad) {
    const char *v = view->query(view->ctx, name);
    if (v == NULL)
        return NULL;
    char *copy = mv_arena_memdup(a, v, strlen(v) + 1);
    if (copy == NULL || !percent_decode(copy, true)) {
        *bad = true;
        return NULL;
    }
    return copy;
}

typedef enum route {
    R_NONE = 0,
    R_HEALTH,
    R_OPENAPI,
    R_SCAN,
    R_SERVERS,
    R_SERVER_SCAN,
    R_TOOLS,
    R_TOOL,
    R_DIFF,
    R_APPROVE,
    R_QUARANTINE,
    R_EVENTS,
    R_QUEUE,
    R_CSRF,
    R_TOOL_ID,
    R_DIFF_ID,
    R_APPROVE_IDS,
    R_QUARANTINE_IDS,
    R_UI_INDEX,
    R_UI_JS,
    R_UI_CSS
} route;

typedef struct route_match {
    route r;
    const char *allow; /* the one method the route takes */
    const char *server, *tool;
    const char *id; /* /tools/{id}: the id as given (checked by dispatch) */
} route_match;

/* Split the raw path into decoded segments and name the route. Returns
 * false for a path with a bad escape (400). */
static bool match_route(route_match *m, mv_arena *a, const char *url) {
    char *seg[REST_MAX_SEGMENTS + 1];
    size_t n = 0;
    memset(m, 0, sizeof *m);
    if (url[0] != '/')
        return true;
    char *copy = mv_arena_memdup(a, url, strlen(url) + 1);
    if (copy == NULL)
        return false;
    for (char *p = copy + 1;;) {
        char *slash = strchr(p, '/');
        if (n == REST_MAX_SEGMENTS)
            return true; /* too deep: no route */
        seg[n++] = p;
        if (slash == NULL)
            break;
        *slash = '\0';
        p = slash + 1;
    }
    for (size_t i = 0; i < n; i++)
        if (!percent_decode(seg[i], false))
            return false;
#define IS(i, s) (strcmp(seg[i], s) == 0)
    if (n == 1 && IS(0, "healthz")) {
        m->r = R_HEALTH;
        m->allow = "GET";
        return true;
    }
    if ((n == 1 && IS(0, "")) || (n == 2 && IS(0, "ui") && (IS(1, "") || IS(1, "index.html"))))
        m->r = R_UI_INDEX, m->allow = "GET";
    else if (n == 2 && IS(0, "ui") && IS(1, "app.js"))
        m->r = R_UI_JS, m->allow = "GET";
    else if (n == 2 && IS(0, "ui") && IS(1, "app.css"))
        m->r = R_UI_CSS, m->allow = "GET";
    if (m->r != R_NONE)
        return true;
    if (n < 3 || !IS(0, "api") || !IS(1, "v1"))
        return true;
    if (n == 3 && IS(2, "openapi.json"))
        m->r = R_OPENAPI, m->allow = "GET";
    else if (n == 3 && IS(2, "scan"))
        m->r = R_SCAN, m->allow = "POST";
    else if (n == 3 && IS(2, "servers"))
        m->r = R_SERVERS, m->allow = "GET";
    else if (n == 3 && IS(2, "events"))
        m->r = R_EVENTS, m->allow = "GET";
    else if (n == 3 && IS(2, "queue"))
        m->r = R_QUEUE, m->allow = "GET";
    else if (n == 3 && IS(2, "csrf"))
        m->r = R_CSRF, m->allow = "GET";
    else if (n == 3 && IS(2, "approve"))
        m->r = R_APPROVE_IDS, m->allow = "POST";
    else if (n == 3 && IS(2, "quarantine"))
        m->r = R_QUARANTINE_IDS, m->allow = "POST";
    else if (n == 4 && IS(2, "tools") && seg[3][0] != '\0')
        m->r = R_TOOL_ID, m->allow = "GET", m->id = seg[3];
    else if (n == 5 && IS(2, "tools") && seg[3][0] != '\0' && IS(4, "diff"))
        m->r = R_DIFF_ID, m->allow = "GET", m->id = seg[3];
    else if (n >= 5 && IS(2, "servers") && seg[3][0] != '\0') {
        m->server = seg[3];
        if (n == 5 && IS(4, "scan"))
            m->r = R_SERVER_SCAN, m->allow = "POST";
        else if (n == 5 && IS(4, "tools"))
            m->r = R_TOOLS, m->allow = "GET";
        else if (n == 5 && IS(4, "approve"))
            m->r = R_APPROVE, m->allow = "POST";
        else if (n == 5 && IS(4, "quarantine"))
            m->r = R_QUARANTINE, m->allow = "POST";
        else if (n == 6 && IS(4, "tools") && seg[5][0] != '\0')
            m->r = R_TOOL, m->allow = "GET", m->tool = seg[5];
        else if (n == 7 && IS(4, "tools") && seg[5][0] != '\0' && IS(6, "diff"))
            m->r = R_DIFF, m->allow = "GET", m->tool = seg[5];
    }
#undef IS
    return true;
}

/* One of the review page's embedded files, with the security headers. */
static enum MHD_Result send_asset(rest_server *s, struct MHD_Connection *c, rest_req *rq,
                                  const char *method, const char *url, route r) {
    const char *data = mv_web_index_html, *type = "text/html; charset=utf-8";
    size_t len = mv_web_index_html_len;
    if (r == R_UI_JS)
        data = mv_web_app_js, len = mv_web_app_js_len, type = "text/javascript; charset=utf-8";
    else if (r == R_UI_CSS)
        data = mv_web_app_css, len = mv_web_app_css_len, type = "text/css; charset=utf-8";
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_PERSISTENT);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Content-Security-Policy", REST_CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "Cross-Origin-Opener-Policy", "same-origin");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    rq->answered = true;
    log_line(s, method, url, 200, &rq->start);
    return ret;
}

/* Parse a JSON object body (empty = NULL). Returns 0 or -1 (reply failed). */
static int parse_body(const rest_req *rq, mv_arena *a, const mv_jv **out, mv_service_reply *r) {
    mv_jerror je;
    *out = NULL;
    if (rq->body.len == 0)
        return 0;
    if (mv_json_parse(out, a, NULL, rq->body.data, rq->body.len, &je) != MV_OK) {
        if (je.code == MV_ENOMEM)
            mv_service_fail(r, 500, "internal", "out of memory");
        else
            mv_service_fail_json(r, rq->body.data, rq->body.len, je.offset, je.message);
        return -1;
    }
    if (!mv_jis_object(*out)) {
        mv_service_fail(r, 400, "invalid_request", "the body must be a JSON object");
        return -1;
    }
    return 0;
}

/* A boolean member: absent = false; anything but true/false is a 400. */
static int body_bool(const mv_jv *body, const char *key, bool *out, mv_service_reply *r) {
    const mv_jv *v = mv_jobject_get(body, key);
    *out = false;
    if (v == NULL)
        return 0;
    if (v->type != MV_JTRUE && v->type != MV_JFALSE) {
        mv_service_fail(r, 400, "invalid_request", "\"%s\" must be true or false", key);
        return -1;
    }
    *out = v->type == MV_JTRUE;
    return 0;
}

/* A string member: absent = NULL. Copied NUL-terminated into `a`. */
static int body_string(const mv_jv *body, mv_arena *a, const char *key, const char **out,
                       mv_service_reply *r) {
    const mv_jv *v = mv_jobject_get(body, key);
    *out = NULL;
    if (v == NULL || mv_jis_null(v))
        return 0;
    if (!mv_jis_string(v) || memchr(v->u.s, '\0', v->n) != NULL) {
        mv_service_fail(r, 400, "invalid_request", "\"%s\" must be a string", key);
        return -1;
    }
    char *c = mv_arena_memdup(a, v->u.s, v->n + 1);
    if (c == NULL) {
        mv_service_fail(r, 500, "internal", "out of memory");
        return -1;
    }
    c[v->n] = '\0';
    *out = c;
    return 0;
}

static int query_fail_on(const mv_rest_view *c, mv_arena *a, mv_verdict *out, mv_service_reply *r) {
    bool bad = false;
    const char *v = query(c, a, "fail_on", &bad);
    *out = MV_VERDICT_QUARANTINE;
    if (v != NULL && mv_report_parse_fail_on(out, v) != MV_OK)
        bad = true;
    if (bad) {
        mv_service_fail(r, 400, "invalid_request", "fail_on must be review or quarantine");
        return -1;
    }
    return 0;
}

/* A decimal count from 1 to `max`. */
static bool parse_count(const char *v, unsigned max, unsigned long *out) {
    char *end = NULL;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno != 0 || n < 1 || n > max)
        return false;
    *out = n;
    return true;
}

/* A tool id: a decimal from 1 to INT64_MAX, digits only. */
static bool parse_id(const char *v, size_t len, int64_t *out) {
    uint64_t n = 0;
    if (len == 0 || len > 19 || v[0] == '0')
        return false;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return false;
        n = n * 10 + (uint64_t)(v[i] - '0');
    }
    if (n > (uint64_t)INT64_MAX)
        return false;
    *out = (int64_t)n;
    return true;
}

/* The "tools" member of a decision by id: [{"id": N, "pin": "..."}, ...]
 * (pin optional). Returns 0, or -1 with the reply failed. */
static int body_ids(const mv_jv *body, mv_arena *a, int64_t **ids, const char ***pins, size_t *n,
                    mv_service_reply *r) {
    const mv_jv *arr = body != NULL ? mv_jobject_get(body, "tools") : NULL;
    *n = 0;
    if (arr == NULL || !mv_jis_array(arr) || arr->n == 0 || arr->n > REST_MAX_IDS) {
        mv_service_fail(r, 400, "invalid_request",
                        "the body must be {\"tools\": [{\"id\": N, \"pin\": \"...\"}, ...]} with 1 "
                        "to %u tools",
                        REST_MAX_IDS);
        return -1;
    }
    *ids = mv_arena_alloc(a, arr->n * sizeof(**ids));
    *pins = mv_arena_calloc(a, arr->n, sizeof(**pins));
    if (*ids == NULL || *pins == NULL) {
        mv_service_fail(r, 500, "internal", "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < arr->n; i++) {
        const mv_jv *e = &arr->u.items[i];
        const mv_jv *id = mv_jis_object(e) ? mv_jobject_get(e, "id") : NULL;
        const mv_jv *pin = mv_jis_object(e) ? mv_jobject_get(e, "pin") : NULL;
        if (id == NULL || id->type != MV_JNUMBER || !parse_id(id->u.s, id->n, &(*ids)[i]) ||
            (pin != NULL && !mv_jis_null(pin) &&
             (!mv_jis_string(pin) || pin->n != MV_PIN_HEX - 1))) {
            mv_service_fail(r, 400, "invalid_request",
                            "\"tools\"[%u] must be {\"id\": a positive integer, \"pin\": 64 hex "
                            "digits or null}",
                            (unsigned)i);
            return -1;
        }
        if (pin != NULL && mv_jis_string(pin)) {
            char *c = mv_arena_memdup(a, pin->u.s, pin->n + 1);
            if (c == NULL) {
                mv_service_fail(r, 500, "internal", "out of memory");
                return -1;
            }
            c[pin->n] = '\0';
            (*pins)[i] = c;
        }
    }
    *n = arr->n;
    return 0;
}

/* Answer a routed, authorized request whose body is complete. */
static void dispatch(rest_server *s, const mv_rest_view *c, const route_match *m, rest_req *rq,
                     mv_arena *a, mv_service_reply *r) {
    const mv_jv *body = NULL;
    bool bad = false;
    switch (m->r) {
    case R_HEALTH: {
        mv_jw w;
        mv_jw_init_compact(&w, &r->body);
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "status", "ok");
        mv_jw_cstr(&w, "version", MCPVET_VERSION);
        mv_jw_obj_end(&w);
        mv_jw_finish(&w);
        break;
    }
    case R_OPENAPI:
        mv_buf_append(&r->body, mv_openapi_json, mv_openapi_json_len);
        break;
    case R_SCAN: {
        mv_verdict fail_on;
        const char *server = query(c, a, "server", &bad);
        if (bad || (server != NULL && server[0] == '\0')) {
            mv_service_fail(r, 400, "invalid_request", "server must be a non-empty name");
            break;
        }
        if (query_fail_on(c, a, &fail_on, r) != 0)
            break;
        if (rq->body.len == 0) {
            mv_service_fail(r, 400, "invalid_request",
                            "the body must be a tools/list result or a snapshot");
            break;
        }
        mv_service_scan_document(s->svc, rq->body.data, rq->body.len, server, fail_on, r);
        break;
    }
    case R_SERVERS:
        mv_service_servers(s->svc, r);
        break;
    case R_SERVER_SCAN: {
        mv_verdict fail_on;
        if (query_fail_on(c, a, &fail_on, r) == 0)
            mv_service_scan_server(s->svc, m->server, fail_on, r);
        break;
    }
    case R_TOOLS: {
        const char *state = query(c, a, "state", &bad);
        mv_tool_state st = state != NULL ? mv_tool_state_parse(state) : MV_STATE_NONE;
        if (bad || (state != NULL && st == MV_STATE_NONE)) {
            mv_service_fail(r, 400, "invalid_request",
                            "state must be pending, approved, changed, quarantined or removed");
            break;
        }
        mv_service_tools(s->svc, m->server, st, false, r);
        break;
    }
    case R_TOOL:
    case R_DIFF:
        mv_service_tool(s->svc, m->server, m->tool, m->r == R_DIFF, r);
        break;
    case R_APPROVE: {
        const char **names = NULL;
        size_t n = 0;
        bool all, force;
        const char *reason;
        if (parse_body(rq, a, &body, r) != 0)
            break;
        if (body == NULL) {
            mv_service_fail(r, 400, "invalid_request",
                            "the body must be {\"tools\": [...]} or {\"all\": true}");
            break;
        }
        if (mv_service_tool_names(mv_jobject_get(body, "tools"), a, &names, &n, r) != 0 ||
            body_bool(body, "all", &all, r) != 0 || body_bool(body, "force", &force, r) != 0 ||
            body_string(body, a, "reason", &reason, r) != 0)
            break;
        mv_service_approve_by(s->svc, rq->web ? MV_ACTOR_WEB : MV_ACTOR_REST, m->server, names, n,
                              all, force,
                              reason != NULL ? reason
                              : rq->web      ? "approved on the review page"
                                             : "approved through the REST API",
                              r);
        break;
    }
    case R_QUARANTINE: {
        const char **names = NULL;
        size_t n = 0;
        const char *reason = NULL;
        if (parse_body(rq, a, &body, r) != 0)
            break;
        if (body != NULL &&
            (mv_service_tool_names(mv_jobject_get(body, "tools"), a, &names, &n, r) != 0 ||
             body_string(body, a, "reason", &reason, r) != 0))
            break;
        mv_service_quarantine_by(s->svc, rq->web ? MV_ACTOR_WEB : MV_ACTOR_REST, m->server, names,
                                 n,
                                 reason != NULL ? reason
                                 : rq->web      ? "quarantined on the review page"
                                                : "quarantined through the REST API",
                                 r);
        break;
    }
    case R_EVENTS: {
        const char *server = query(c, a, "server", &bad);
        const char *tool = query(c, a, "tool", &bad);
        const char *limit = query(c, a, "limit", &bad);
        const char *tool_id = query(c, a, "tool_id", &bad);
        int64_t tid = 0;
        unsigned long lim = 0;
        if (tool_id != NULL &&
            (server != NULL || tool != NULL || !parse_id(tool_id, strlen(tool_id), &tid)))
            bad = true;
        if (limit != NULL) {
            char *end = NULL;
            errno = 0;
            lim = strtoul(limit, &end, 10);
            if (limit[0] < '0' || limit[0] > '9' || *end != '\0' || errno != 0 || lim < 1 ||
                lim > REST_MAX_EVENTS)
                bad = true;
        }
        if (bad || (tool != NULL && server == NULL)) {
            mv_service_fail(r, 400, "invalid_request",
                            "events take server, tool (with server) or tool_id (alone), and "
                            "limit (1 to %u)",
                            REST_MAX_EVENTS);
            break;
        }
        if (tid != 0)
            mv_service_events_by_id(s->svc, tid, lim, r);
        else
            mv_service_events(s->svc, server, tool, lim, r);
        break;
    }
    case R_QUEUE: {
        const char *server = query(c, a, "server", &bad);
        const char *server_id = query(c, a, "server_id", &bad);
        const char *state = query(c, a, "state", &bad);
        const char *verdict = query(c, a, "verdict", &bad);
        const char *text = query(c, a, "q", &bad);
        const char *page = query(c, a, "page", &bad);
        const char *per_page = query(c, a, "per_page", &bad);
        const char *stext = query(c, a, "servers_q", &bad);
        const char *spage = query(c, a, "servers_page", &bad);
        const char *sper = query(c, a, "servers_per_page", &bad);
        unsigned long pg = 1, pp = REST_QUEUE_PAGE, spg = 1, spp = REST_QUEUE_PAGE;
        mv_service_queue_query qq = {.state = MV_STATE_NONE};
        if (state != NULL && state[0] != '\0') {
            qq.state = mv_tool_state_parse(state);
            if (qq.state != MV_STATE_PENDING && qq.state != MV_STATE_CHANGED &&
                qq.state != MV_STATE_QUARANTINED)
                bad = true;
        }
        if (verdict != NULL && verdict[0] != '\0') {
            if (strcmp(verdict, "clean") != 0 && strcmp(verdict, "review") != 0 &&
                strcmp(verdict, "quarantine") != 0 && strcmp(verdict, "none") != 0)
                bad = true;
            qq.verdict = verdict;
        }
        if (server_id != NULL && server_id[0] != '\0' &&
            !parse_id(server_id, strlen(server_id), &qq.server_id))
            bad = true;
        if ((text != NULL && strlen(text) > REST_QUERY_TEXT_MAX) ||
            (stext != NULL && strlen(stext) > REST_QUERY_TEXT_MAX))
            bad = true;
        if ((page != NULL && !parse_count(page, REST_QUEUE_MAX_PAGE, &pg)) ||
            (per_page != NULL && !parse_count(per_page, REST_QUEUE_MAX_PER_PAGE, &pp)) ||
            (spage != NULL && !parse_count(spage, REST_QUEUE_MAX_PAGE, &spg)) ||
            (sper != NULL && !parse_count(sper, REST_QUEUE_MAX_PER_PAGE, &spp)))
            bad = true;
        if (bad) {
            mv_service_fail(r, 400, "invalid_request",
                            "the queue takes state (pending, changed or quarantined), verdict "
                            "(clean, review, quarantine or none), server or server_id, q and "
                            "servers_q (at most %u bytes), page and servers_page (1 to %u), "
                            "per_page and servers_per_page (1 to %u)",
                            REST_QUERY_TEXT_MAX, REST_QUEUE_MAX_PAGE, REST_QUEUE_MAX_PER_PAGE);
            break;
        }
        qq.server = server != NULL && server[0] != '\0' ? server : NULL;
        qq.text = text != NULL && text[0] != '\0' ? text : NULL;
        qq.servers_text = stext != NULL && stext[0] != '\0' ? stext : NULL;
        qq.page = pg;
        qq.per_page = pp;
        qq.servers_page = spg;
        qq.servers_per_page = spp;
        mv_service_queue(s->svc, &qq, r);
        break;
    }
    case R_TOOL_ID:
    case R_DIFF_ID: {
        int64_t id;
        if (!parse_id(m->id, strlen(m->id), &id)) {
            mv_service_fail(r, 400, "invalid_request", "a tool id is a positive integer");
            break;
        }
        mv_service_tool_by_id(s->svc, id, m->r == R_DIFF_ID, r);
        break;
    }
    case R_APPROVE_IDS:
    case R_QUARANTINE_IDS: {
        int64_t *ids = NULL;
        const char **pins = NULL;
        size_t n = 0;
        bool force = false;
        const char *reason = NULL;
        bool approve = m->r == R_APPROVE_IDS;
        if (parse_body(rq, a, &body, r) != 0 || body_ids(body, a, &ids, &pins, &n, r) != 0 ||
            (approve && body_bool(body, "force", &force, r) != 0) ||
            body_string(body, a, "reason", &reason, r) != 0)
            break;
        if (reason == NULL)
            reason = approve ? (rq->web ? "approved on the review page"
                                        : "approved through the REST API")
                             : (rq->web ? "quarantined on the review page"
                                        : "quarantined through the REST API");
        mv_service_decide_ids(s->svc, rq->web ? MV_ACTOR_WEB : MV_ACTOR_REST, approve, ids, pins, n,
                              force, reason, r);
        break;
    }
    case R_CSRF: {
        mv_jw w;
        mv_jw_init_compact(&w, &r->body);
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "csrf_token", s->csrf);
        mv_jw_obj_end(&w);
        mv_jw_finish(&w);
        break;
    }
    case R_UI_INDEX:
    case R_UI_JS:
    case R_UI_CSS: /* answered by send_asset */
    case R_NONE:
        mv_service_fail(r, 404, "not_found", "no such endpoint");
        break;
    }
    if (r->body.failed)
        mv_service_fail(r, 500, "internal", "out of memory");
}

/* The checks made on the headers alone, before any body is read: Host,
 * Origin, the API key, the CSRF token and Content-Length. Returns true to
 * go on; false with `r` failed. Sets rq->web for the review page's POST. */
static bool precheck(rest_server *s, const mv_rest_view *v, const char *method, const char *url,
                     rest_req *rq, mv_service_reply *r) {
    const char *host = v->header(v->ctx, "Host");
    if (!mv_httpd_host_allowed(&s->hosts, host)) {
        mv_service_fail(r, 421, "misdirected", "the Host header does not name this server");
        return false;
    }
    const char *origin = v->header(v->ctx, "Origin");
    if (origin != NULL && !mv_httpd_origin_allowed(&s->hosts, origin)) {
        mv_service_fail(r, 403, "forbidden_origin", "requests from another origin are refused");
        return false;
    }
    if (strncmp(url, "/api/", 5) == 0 && !mv_httpd_key_in_headers(&s->key, v->header, v->ctx)) {
        mv_service_fail(r, 401, "unauthorized",
                        "a valid API key is required (X-API-Key or Authorization: Bearer)");
        return false;
    }
    /* A browser's POST always carries Origin: then (or whenever the header
     * is sent) the CSRF token must be right. Checked after the key, so the
     * token is no oracle for an unauthenticated caller. */
    const char *token = v->header(v->ctx, "X-CSRF-Token");
    if (strcmp(method, "POST") == 0 && (origin != NULL || token != NULL)) {
        if (!csrf_matches(s, token)) {
            mv_service_fail(r, 403, "csrf",
                            "a POST from a browser needs the X-CSRF-Token header "
                            "(GET /api/v1/csrf)");
            return false;
        }
        rq->web = true;
    }
    const char *cl = v->header(v->ctx, "Content-Length");
    if (cl != NULL && strtoull(cl, NULL, 10) > (unsigned long long)s->o->max_body) {
        mv_service_fail(r, 413, "too_large", "the request body is larger than %zu bytes",
                        s->o->max_body);
        return false;
    }
    return true;
}

/* The answer to a request whose body is complete: the route's reply in
 * `r` (with the Allow header's value in *allow for a 405), or one of the
 * review page's files (*asset set, r untouched). */
static void answer(rest_server *s, const mv_rest_view *v, const char *method, const char *url,
                   rest_req *rq, mv_service_reply *r, const char **allow, route *asset) {
    mv_arena *a = NULL;
    route_match m;
    *allow = NULL;
    *asset = R_NONE;
    if (rq->too_large) {
        mv_service_fail(r, 413, "too_large", "the request body is larger than %zu bytes",
                        s->o->max_body);
        goto done;
    }
    a = mv_arena_new(NULL, 0);
    if (a == NULL || rq->body.failed) {
        mv_service_fail(r, 500, "internal", "out of memory");
    } else if (!match_route(&m, a, url)) {
        mv_service_fail(r, 400, "invalid_request", "the path has a bad percent escape");
    } else if (m.r == R_NONE) {
        mv_service_fail(r, 404, "not_found", "no such endpoint");
    } else if (strcmp(method, m.allow) != 0) {
        mv_service_fail(r, 405, "method_not_allowed", "this endpoint takes %s only", m.allow);
        *allow = m.allow;
    } else if (m.r == R_UI_INDEX || m.r == R_UI_JS || m.r == R_UI_CSS) {
        *asset = m.r;
    } else {
        dispatch(s, v, &m, rq, a, r);
    }
done:
    mv_arena_free(a);
}

/* The request view over a libmicrohttpd connection. */
static const char *mhd_header(void *ctx, const char *name) {
    return MHD_lookup_connection_value(ctx, MHD_HEADER_KIND, name);
}

static const char *mhd_query(void *ctx, const char *name) {
    return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
    rest_server *s = cls;
    rest_req *rq = *con_cls;
    mv_rest_view v = {.header = mhd_header, .query = mhd_query, .ctx = c};
    mv_service_reply r;
    enum MHD_Result ret;
    (void)version;
    if (rq == NULL) {
        /* First call: headers only. Refuse early what needs no body. */
        rq = calloc(1, sizeof *rq);
        if (rq == NULL)
            return MHD_NO;
        mv_buf_init(&rq->body, NULL);
        clock_gettime(CLOCK_MONOTONIC, &rq->start);
        *con_cls = rq;
        atomic_fetch_add(&s->in_flight, 1);
        mv_service_reply_init(&r);
        ret = precheck(s, &v, method, url, rq, &r) ? MHD_YES
                                                   : send_reply(s, c, rq, method, url, &r, NULL);
        mv_service_reply_release(&r);
        return ret;
    }
    if (*upload_data_size > 0) {
        if (!rq->too_large && rq->body.len + *upload_data_size > s->o->max_body)
            rq->too_large = true;
        if (!rq->too_large)
            mv_buf_append(&rq->body, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (rq->answered)
        return MHD_YES;
    const char *allow;
    route asset;
    mv_service_reply_init(&r);
    answer(s, &v, method, url, rq, &r, &allow, &asset);
    if (asset != R_NONE)
        ret = send_asset(s, c, rq, method, url, asset);
    else
        ret = send_reply(s, c, rq, method, url, &r, allow);
    mv_service_reply_release(&r);
    return ret;
}

/* --------------------------------------------- without a socket (rest.h) */

/* The fixed CSRF token of a handler: tests and the fuzz target send it. */
#define REST_TEST_CSRF "0123456789abcdef0123456789abcdef"

int mv_rest_handler_new(mv_rest_handler **out, const mv_rest_options *o, mv_service *svc,
                        const char *key, unsigned port, mv_error *err) {
    rest_server *s = NULL;
    int rc = MV_OK;
    *out = NULL;
    if (key == NULL || !mv_httpd_key_valid(key, strlen(key)) || o == NULL || o->max_body == 0 ||
        o->log == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "the handler needs a valid key, max_body and log");
        goto done;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "out of memory");
        goto done;
    }
    s->o = o;
    s->svc = svc;
    pthread_mutex_init(&s->log_lock, NULL);
    mv_httpd_key_set(&s->key, key, strlen(key));
    snprintf(s->csrf, sizeof s->csrf, "%s", REST_TEST_CSRF);
    mv_httpd_key_set(&s->csrf_key, s->csrf, strlen(s->csrf));
    mv_httpd_hosts_add(&s->hosts, "127.0.0.1", port);
    mv_httpd_hosts_add(&s->hosts, "localhost", port);
    *out = s;
done:
    return rc;
}

void mv_rest_handler_free(mv_rest_handler *h) {
    if (h == NULL)
        return;
    pthread_mutex_destroy(&h->log_lock);
    free(h);
}

const char *mv_rest_handler_csrf(const mv_rest_handler *h) {
    return h->csrf;
}

void mv_rest_handle(mv_rest_handler *h, const mv_rest_view *v, const char *method, const char *url,
                    const char *body, size_t body_len, mv_service_reply *r, const char **allow,
                    const char **asset, size_t *asset_len) {
    rest_req rq;
    route ar = R_NONE;
    memset(&rq, 0, sizeof rq);
    mv_buf_init(&rq.body, NULL);
    clock_gettime(CLOCK_MONOTONIC, &rq.start);
    *allow = NULL;
    *asset = NULL;
    *asset_len = 0;
    if (!precheck(h, v, method, url, &rq, r))
        goto done;
    /* The server's rule for a body arriving in pieces, in one piece. */
    if (body_len > h->o->max_body)
        rq.too_large = true;
    else
        mv_buf_append(&rq.body, body, body_len);
    answer(h, v, method, url, &rq, r, allow, &ar);
    if (ar == R_UI_JS)
        *asset = mv_web_app_js, *asset_len = mv_web_app_js_len;
    else if (ar == R_UI_CSS)
        *asset = mv_web_app_css, *asset_len = mv_web_app_css_len;
    else if (ar != R_NONE)
        *asset = mv_web_index_html, *asset_len = mv_web_index_html_len;
    if (*asset != NULL)
        r->status = 200;
done:
    mv_buf_release(&rq.body);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    rest_server *s = cls;
    rest_req *rq = *con_cls;
    (void)toe;
    if (rq == NULL)
        return;
    mv_httpd_watch_request_done(s->watch, c);
    mv_buf_release(&rq->body);
    free(rq);
    *con_cls = NULL;
    atomic_fetch_sub(&s->in_flight, 1);
}

static void mhd_log(void *cls, const char *fmt, va_list ap) {
    rest_server *s = cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_str safe = {"?", 1};
    size_t n = strlen(msg);
    while (n > 0 && msg[n - 1] == '\n')
        msg[--n] = '\0';
    if (a != NULL)
        mv_evidence_render(a, msg, n, sizeof msg, &safe, NULL);
    pthread_mutex_lock(&s->log_lock);
    fprintf(s->o->log, "mcpvet serve: microhttpd: %s\n", safe.ptr);
    fflush(s->o->log);
    pthread_mutex_unlock(&s->log_lock);
    mv_arena_free(a);
}

/* ----------------------------------------------------------------- run */

int mv_rest_run(const mv_rest_options *opts, mv_error *err) {
    mv_rest_options o = *opts;
    rest_server s;
    mv_httpd_addr la;
    struct MHD_Daemon *d = NULL;
    int fd = -1, rc;
    unsigned port = 0;
    sigset_t sigs;

    memset(&s, 0, sizeof s);
    if (o.out == NULL)
        o.out = stdout;
    if (o.log == NULL)
        o.log = stderr;
    if (o.max_connections == 0)
        o.max_connections = 64;
    if (o.timeout_s == 0)
        o.timeout_s = 30;
    if (o.max_body == 0)
        o.max_body = MV_REST_DEFAULT_MAX_BODY;
    if (o.grace_s == 0)
        o.grace_s = 120;
    if (o.deadline_s == 0)
        o.deadline_s = MV_REST_DEFAULT_DEADLINE;
    o.service.actor = MV_ACTOR_REST;
    s.o = &o;
    pthread_mutex_init(&s.log_lock, NULL);

    if ((rc = mv_httpd_parse_listen(&la, o.listen != NULL ? o.listen : "127.0.0.1:0", err)) !=
        MV_OK)
        goto done;
    if (!la.loopback && !o.allow_remote) {
        rc = mv_error_set(err, MV_EINVAL,
                          "%s is not a loopback address: binding it exposes the API to the "
                          "network; add --allow-remote (and a key of your own) to do that",
                          la.host);
        goto done;
    }
    if ((rc = mv_httpd_key_load(&s.key, "mcpvet serve", o.api_key_file, !la.loopback, o.out,
                                err)) != MV_OK)
        goto done;
    if ((rc = mv_service_new(&s.svc, &o.service, err)) != MV_OK)
        goto done;
    if (!mv_httpd_random_hex(s.csrf, sizeof s.csrf)) {
        rc = mv_error_set(err, MV_EIO, "cannot read /dev/urandom to make a CSRF token");
        goto done;
    }
    if ((fd = mv_httpd_listen(&la, &port, err)) < 0) {
        rc = fd;
        fd = -1;
        goto done;
    }
    mv_httpd_key_set(&s.csrf_key, s.csrf, strlen(s.csrf));
    mv_httpd_hosts_add(&s.hosts, la.host, port);
    if (la.loopback)
        mv_httpd_hosts_add(&s.hosts, "localhost", port);
    for (size_t i = 0; i < o.n_allowed_hosts; i++)
        mv_httpd_hosts_add(&s.hosts, o.allowed_hosts[i], port);
    if ((rc = mv_httpd_watch_new(&s.watch, o.deadline_s, o.log, "mcpvet serve", err)) != MV_OK)
        goto done;

    /* Every thread MHD starts inherits this mask: only sigwait below sees
     * the stop signals. */
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);

    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (la.v6)
        flags |= MHD_USE_IPv6;
    d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, &s, MHD_OPTION_EXTERNAL_LOGGER, mhd_log,
                         &s, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
                         o.max_connections, MHD_OPTION_CONNECTION_TIMEOUT, o.timeout_s,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
                         MHD_OPTION_NOTIFY_COMPLETED, on_completed, &s,
                         MHD_OPTION_NOTIFY_CONNECTION, mv_httpd_watch_notify, s.watch,
                         MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL, MHD_OPTION_END);
    if (d == NULL) {
        rc = mv_error_set(err, MV_EIO, "cannot start the HTTP server");
        goto done;
    }
    fd = -1; /* the daemon owns the socket now; quiesce hands it back */
    fprintf(o.out, "mcpvet serve: listening on http://%s:%u\n", la.host, port);
    fflush(o.out);

    int sig = 0;
    while (sigwait(&sigs, &sig) != 0) {
    }
    fprintf(o.log, "mcpvet serve: %s: finishing requests in flight\n",
            sig == SIGINT ? "SIGINT" : "SIGTERM");
    fflush(o.log);
    MHD_socket lfd = MHD_quiesce_daemon(d);
    if (lfd != MHD_INVALID_SOCKET)
        close(lfd);
    struct timespec t0, now, nap = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if (atomic_load(&s.in_flight) == 0)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec >= (time_t)o.grace_s) {
            fprintf(o.log, "mcpvet serve: %u requests still running after %us; stopping\n",
                    atomic_load(&s.in_flight), o.grace_s);
            break;
        }
        nanosleep(&nap, NULL);
    }
    MHD_stop_daemon(d);
    d = NULL;
    fprintf(o.log, "mcpvet serve: stopped\n");
    rc = MV_OK;
done:
    if (d != NULL)
        MHD_stop_daemon(d);
    if (fd >= 0)
        close(fd);
    mv_httpd_watch_free(s.watch);
    mv_service_free(s.svc);
    pthread_mutex_destroy(&s.log_lock);
    return rc;
}
