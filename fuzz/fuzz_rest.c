/*
 * libFuzzer target for the REST API's request handling (src/server/rest.c
 * through mv_rest_handle, the socket-free seam of rest.h): the Host,
 * Origin, API key, CSRF and Content-Length checks, routing with percent
 * decoding, query values, JSON bodies, and every operation of the shared
 * service (src/server/service.c) over a fresh copy of a template store
 * (fuzz_store_util.h) per input.
 *
 * Input: up to 8 requests separated by a line "~~~". Each is HTTP-like
 * text: "METHOD TARGET" on the first line (TARGET = path[?query]), then
 * "Name: value" headers up to an empty line, then the body. The key is
 * "fuzz-key-0123456789abcdef" (Host 127.0.0.1:8080 or localhost:8080);
 * the CSRF token is mv_rest_handler_csrf's fixed test value. Server
 * scans find no configured server (the service reads one empty config),
 * so nothing is ever started.
 *
 * Invariants: a status from 200 to 599; a body that is strict JSON (a
 * review-page file for a 200 asset); every status >= 400 carries
 * {"error":{"code":string,"message":string}}; a 405 names its Allow; a
 * request under /api/ without the right key is never answered beyond
 * 401/403/421; a wrong Host is 421; a POST with an Origin or a CSRF token
 * that is not the right token never reaches an operation; and a request
 * answered with an error leaves the store's decisions and audit log as
 * they were.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_store_util.h"
#include "json/json.h"
#include "server/rest.h"
#include "server/service.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define KEY "fuzz-key-0123456789abcdef"
#define MAX_REQUESTS 8u
#define MAX_FIELDS 32u

static char config_path[300];
static FILE *devnull;

static void broken(const char *what, const char *method, const char *url, int status) {
    fprintf(stderr, "fuzz_rest: invariant broken: %s (%s %s -> %d)\n", what, method, url, status);
    abort();
}

typedef struct field {
    char *name, *value;
} field;

typedef struct request {
    char *method, *path, *query;
    field headers[MAX_FIELDS];
    size_t n_headers;
    field args[MAX_FIELDS];
    size_t n_args;
    const char *body;
    size_t body_len;
} request;

static const char *find(const field *f, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(f[i].name, name) == 0)
            return f[i].value;
    return NULL;
}

static const char *view_header(void *ctx, const char *name) {
    const request *r = ctx;
    return find(r->headers, r->n_headers, name);
}

static const char *view_query(void *ctx, const char *name) {
    const request *r = ctx;
    return find(r->args, r->n_args, name);
}

/* Split one request's text (NUL-terminated, modified in place). */
static bool parse_request(char *text, size_t len, request *r) {
    memset(r, 0, sizeof *r);
    char *end = text + len;
    char *nl = memchr(text, '\n', len);
    char *line_end = nl != NULL ? nl : end;
    *line_end = '\0';
    char *sp = strchr(text, ' ');
    if (sp == NULL || sp == text)
        return false;
    *sp = '\0';
    r->method = text;
    r->path = sp + 1;
    char *q = strchr(r->path, '?');
    if (q != NULL) {
        *q = '\0';
        r->query = q + 1;
        for (char *p = r->query; p != NULL && *p != '\0' && r->n_args < MAX_FIELDS;) {
            char *amp = strchr(p, '&');
            if (amp != NULL)
                *amp = '\0';
            char *eq = strchr(p, '=');
            if (eq != NULL)
                *eq = '\0';
            r->args[r->n_args].name = p;
            r->args[r->n_args].value = eq != NULL ? eq + 1 : p + strlen(p);
            r->n_args++;
            p = amp != NULL ? amp + 1 : NULL;
        }
    }
    char *p = nl != NULL ? nl + 1 : end;
    while (p < end) {
        char *e = memchr(p, '\n', (size_t)(end - p));
        char *le = e != NULL ? e : end;
        if (le == p || (le == p + 1 && *p == '\r')) {
            p = e != NULL ? e + 1 : end;
            break;
        }
        *le = '\0';
        if (le > p && le[-1] == '\r')
            le[-1] = '\0';
        char *colon = strchr(p, ':');
        if (colon != NULL && r->n_headers < MAX_FIELDS) {
            *colon = '\0';
            char *v = colon + 1;
            while (*v == ' ')
                v++;
            r->headers[r->n_headers].name = p;
            r->headers[r->n_headers].value = v;
            r->n_headers++;
        }
        p = e != NULL ? e + 1 : end;
    }
    r->body = p;
    r->body_len = (size_t)(end - p);
    return true;
}

static bool has_right_key(const request *r) {
    const char *k = find(r->headers, r->n_headers, "X-API-Key");
    if (k != NULL)
        return strcmp(k, KEY) == 0;
    const char *a = find(r->headers, r->n_headers, "Authorization");
    if (a == NULL || strncasecmp(a, "Bearer ", 7) != 0)
        return false;
    a += 7;
    while (*a == ' ')
        a++;
    size_t n = strlen(a);
    while (n > 0 && a[n - 1] == ' ')
        n--;
    return n == strlen(KEY) && memcmp(a, KEY, n) == 0;
}

static bool host_ok(const request *r) {
    const char *h = find(r->headers, r->n_headers, "Host");
    return h != NULL &&
           (strcasecmp(h, "127.0.0.1:8080") == 0 || strcasecmp(h, "localhost:8080") == 0);
}

static void check_reply(const request *rq, const mv_service_reply *r, const char *allow,
                        const char *asset, const char *csrf) {
    const char *m = rq->method, *u = rq->path;
    int st = r->status;
    if (st < 200 || st > 599)
        broken("status out of range", m, u, st);
    if (!host_ok(rq) && st != 421)
        broken("a wrong Host was not refused with 421", m, u, st);
    if (strncmp(u, "/api/", 5) == 0 && !has_right_key(rq) && st != 401 && st != 403 && st != 421)
        broken("an /api/ request without the key got past the key check", m, u, st);
    const char *tok = find(rq->headers, rq->n_headers, "X-CSRF-Token");
    bool has_origin = find(rq->headers, rq->n_headers, "Origin") != NULL;
    if (strcmp(m, "POST") == 0 && (has_origin || tok != NULL) &&
        (tok == NULL || strcmp(tok, csrf) != 0) && st < 400)
        broken("a POST with a wrong CSRF token was served", m, u, st);
    if (st == 405 && allow == NULL)
        broken("a 405 without Allow", m, u, st);
    if (asset != NULL) {
        if (st != 200)
            broken("an asset with a status other than 200", m, u, st);
        return;
    }
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *root = NULL;
    mv_jerror je;
    if (a == NULL)
        abort();
    if (mv_json_parse(&root, a, NULL, r->body.data != NULL ? r->body.data : "", r->body.len, &je) !=
        MV_OK)
        broken("the body is not strict JSON", m, u, st);
    if (st >= 400) {
        const mv_jv *e = mv_jobject_get(root, "error");
        if (e == NULL || !mv_jis_string(mv_jobject_get(e, "code")) ||
            !mv_jis_string(mv_jobject_get(e, "message")))
            broken("an error reply without error.code and error.message", m, u, st);
    }
    mv_arena_free(a);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_init("fuzz_rest");
    snprintf(config_path, sizeof config_path, "%s/claude.json", fz_dir);
    snprintf(fz_extra[0], sizeof fz_extra[0], "%s", config_path);
    fz_write_file(config_path, "{\"mcpServers\":{}}", 17);
    devnull = fopen("/dev/null", "w");
    if (devnull == NULL)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    mv_service *svc = NULL;
    mv_rest_handler *h = NULL;
    mv_error err;
    mv_buf before, after;
    const char *cfgs[1] = {config_path};
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fz_fresh_work();
    mv_buf_init(&before, NULL);
    mv_buf_init(&after, NULL);

    mv_rest_options o;
    memset(&o, 0, sizeof o);
    o.max_body = 64 * 1024;
    o.quiet = true;
    o.log = devnull;
    o.out = devnull;
    o.service.store_path = fz_work;
    o.service.configs = cfgs;
    o.service.n_configs = 1;
    o.service.actor = MV_ACTOR_REST;
    o.service.scan_timeout_ms = 2000;
    mv_error_clear(&err);
    if (mv_service_new(&svc, &o.service, &err) != MV_OK) {
        fprintf(stderr, "fuzz_rest: service: %s\n", err.message);
        abort();
    }
    if (mv_rest_handler_new(&h, &o, svc, KEY, 8080, &err) != MV_OK)
        abort();

    char *p = text, *end = text + size;
    for (unsigned n = 0; n < MAX_REQUESTS && p < end; n++) {
        char *sep = strstr(p, "\n~~~\n");
        char *rend = sep != NULL ? sep : end;
        request rq;
        if (parse_request(p, (size_t)(rend - p), &rq)) {
            mv_rest_view v = {view_header, view_query, &rq};
            mv_service_reply r;
            const char *allow, *asset;
            size_t asset_len;
            fz_work_state(&before);
            mv_service_reply_init(&r);
            mv_rest_handle(h, &v, rq.method, rq.path, rq.body, rq.body_len, &r, &allow, &asset,
                           &asset_len);
            check_reply(&rq, &r, allow, asset, mv_rest_handler_csrf(h));
            if (r.status >= 400) {
                fz_work_state(&after);
                if (before.len != after.len || memcmp(before.data, after.data, before.len) != 0)
                    broken("a refused request changed the store", rq.method, rq.path, r.status);
            }
            mv_service_reply_release(&r);
        }
        p = sep != NULL ? sep + 5 : end;
    }
    mv_rest_handler_free(h);
    mv_service_free(svc);
    mv_buf_release(&before);
    mv_buf_release(&after);
    free(text);
    return 0;
}
