/*
 * The streamable-HTTP MCP endpoint (src/server/mcp_endpoint.h) as a client
 * sees it: the real endpoint (libmicrohttpd) on a random 127.0.0.1 port,
 * driven with libcurl. The handler behind it is a small recorder written
 * here (the quarantine_security server behind it is covered by
 * tests/integration/mcp_http.sh): it echoes each request's method and a
 * per-session call count, so tests can tell sessions apart, and counts
 * opened and closed sessions.
 *
 * Covered: the session life cycle (initialize, id header, 404 after
 * DELETE, 400 without id, idle eviction at the cap), 202 for notifications
 * and responses, batches, the JSON-RPC parse error with its byte offset,
 * 413, 405/406/415, Host/Origin refusal, the key, MCP-Protocol-Version,
 * the concurrency cap (503 + Retry-After) and the whole-request deadline
 * (a client trickling its headers is cut). Streams, with a second handler
 * that takes them: GET refusals (406, 400, 404, 409 for a second stream,
 * 503 over the stream cap), what the handler sends reaching the GET
 * stream, a POST answered as an event stream (the handler's message
 * before the reply, a newline between tokens as two data lines), batches
 * by protocol version, DELETE and shutdown ending streams, an answer
 * handed over while a request of its session runs, and a client that
 * never reads dropped at the queue cap.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "server/mcp_endpoint.h"

#define KEY "endpoint-test-key-0123456789"
#define INIT "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"

/* ------------------------------------------------------ the recorder */

static atomic_int opened, closed;
static atomic_int blocked_in; /* a "block" call is waiting */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static bool gate_open;

typedef struct rec_session {
    int calls;
} rec_session;

static int rec_open(void *ctx, void **session) {
    (void)ctx;
    rec_session *s = calloc(1, sizeof *s);
    *session = s;
    if (s == NULL)
        return MV_ENOMEM;
    atomic_fetch_add(&opened, 1);
    return MV_OK;
}

static void rec_close(void *ctx, void *session) {
    (void)ctx;
    free(session);
    atomic_fetch_add(&closed, 1);
}

static void rec_handle(void *ctx, void *session, const char *msg, size_t len, mv_buf *reply) {
    rec_session *s = session;
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *m = NULL;
    mv_jerror je;
    (void)ctx;
    s->calls++;
    if (mv_json_parse(&m, a, NULL, msg, len, &je) != MV_OK)
        goto done;
    const mv_jv *id = mv_jobject_get(m, "id");
    const mv_jv *method = mv_jobject_get(m, "method");
    if (id == NULL || !mv_jis_string(method))
        goto done; /* notification or response: no reply */
    char mname[64];
    snprintf(mname, sizeof mname, "%.*s", (int)(method->n < 60 ? method->n : 60), method->u.s);
    if (strcmp(mname, "block") == 0) {
        pthread_mutex_lock(&gate_lock);
        atomic_store(&blocked_in, 1);
        while (!gate_open)
            pthread_cond_wait(&gate_cond, &gate_lock);
        pthread_mutex_unlock(&gate_lock);
    }
    mv_buf idtext;
    mv_buf_init(&idtext, NULL);
    mv_json_write(&idtext, id);
    if (strcmp(mname, "initialize") == 0 &&
        mv_jobject_get(mv_jobject_get(m, "params"), "refuse") != NULL)
        mv_buf_printf(reply,
                      "{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"error\":{\"code\":-32602,"
                      "\"message\":\"refused\"}}\n",
                      (int)idtext.len, idtext.data);
    else if (strcmp(mname, "initialize") == 0)
        mv_buf_printf(reply,
                      "{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":{\"protocolVersion\":"
                      "\"2025-06-18\"}}\n",
                      (int)idtext.len, idtext.data);
    else
        mv_buf_printf(reply,
                      "{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":{\"method\":\"%s\",\"n\":%d}}\n",
                      (int)idtext.len, idtext.data, mname, s->calls);
    mv_buf_release(&idtext);
done:
    mv_arena_free(a);
}

static const mv_mcp_endpoint_handler recorder = {
    .ctx = NULL, .session_open = rec_open, .handle = rec_handle, .session_close = rec_close};

/* ---------------------------------------------------------- a server */

typedef struct server {
    mv_mcp_endpoint *ep;
    char url[128];
    char host[64]; /* "127.0.0.1:PORT" */
    FILE *log;
} server;

static void start(server *s, mv_mcp_endpoint_options *o) {
    mv_error err;
    char *bound = NULL;
    memset(&err, 0, sizeof err);
    s->log = tmpfile();
    assert_non_null(s->log);
    o->log = s->log;
    atomic_store(&opened, 0);
    atomic_store(&closed, 0);
    assert_int_equal(mv_mcp_endpoint_start(&s->ep, o, &recorder, &bound, &err), MV_OK);
    assert_non_null(bound);
    assert_int_equal(strncmp(bound, "127.0.0.1:", 10), 0);
    snprintf(s->host, sizeof s->host, "%s", bound);
    snprintf(s->url, sizeof s->url, "http://%s/mcp", bound);
    free(bound);
}

static void stop(server *s) {
    mv_mcp_endpoint_stop(s->ep, 5);
    s->ep = NULL;
    fclose(s->log);
}

/* The endpoint's log so far, NUL-terminated, into `out`. The server's
 * threads write to the same stream at any moment, so the stream's position
 * is never moved: a line written between a rewind and a seek back to the
 * end would land at offset 0 and be overwritten by the next. pread reads
 * the file beside the stream. */
static void read_log(server *s, char *out, size_t cap) {
    fflush(s->log);
    ssize_t n = pread(fileno(s->log), out, cap - 1, 0);
    out[n > 0 ? n : 0] = '\0';
}

/* The log once it holds `needle`, waiting up to 10 s: the server's thread
 * may close a connection before it writes the line saying why. */
static bool wait_log(server *s, char *out, size_t cap, const char *needle) {
    for (int i = 0; i < 1000; i++) {
        read_log(s, out, cap);
        if (strstr(out, needle) != NULL)
            return true;
        struct timespec tick = {0, 10000000L};
        nanosleep(&tick, NULL);
    }
    return false;
}

/* -------------------------------------------------------- the client */

typedef struct reply {
    long status;
    mv_buf body;
    mv_buf headers;
} reply;

static size_t on_data(char *p, size_t size, size_t n, void *arg) {
    mv_buf_append(arg, p, size * n);
    return size * n;
}

/* One request: method, optional session id, body (NULL = none), then extra
 * header lines, NULL-terminated. The default headers are a well-behaved
 * client's: JSON content type and both Accept types. */
static void request(reply *r, const server *s, const char *path, const char *method,
                    const char *session, const char *body, ...) {
    CURL *c = curl_easy_init();
    struct curl_slist *h = NULL;
    char url[256], hdr[256];
    va_list ap;
    assert_non_null(c);
    memset(r, 0, sizeof *r);
    mv_buf_init(&r->body, NULL);
    mv_buf_init(&r->headers, NULL);
    snprintf(url, sizeof url, "http://%s%s", s->host, path != NULL ? path : "/mcp");
    bool own_type = false, own_accept = false;
    va_start(ap, body);
    for (const char *x; (x = va_arg(ap, const char *)) != NULL;) {
        own_type = own_type || strncasecmp(x, "Content-Type:", 13) == 0;
        own_accept = own_accept || strncasecmp(x, "Accept:", 7) == 0;
        h = curl_slist_append(h, x);
    }
    va_end(ap);
    if (!own_type)
        h = curl_slist_append(h, "Content-Type: application/json");
    if (!own_accept)
        h = curl_slist_append(h, "Accept: application/json, text/event-stream");
    h = curl_slist_append(h, "Expect:");
    if (session != NULL) {
        snprintf(hdr, sizeof hdr, "Mcp-Session-Id: %s", session);
        h = curl_slist_append(h, hdr);
    }
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r->body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &r->headers);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
    if (body != NULL) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    assert_int_equal(curl_easy_perform(c), CURLE_OK);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
    mv_buf_putc(&r->body, '\0');
    r->body.len--;
    mv_buf_putc(&r->headers, '\0');
    r->headers.len--;
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
}

/* POST(reply, server, session, body[, extra header lines]) */
#define POST(r, s, sid, ...) request(r, s, NULL, "POST", sid, __VA_ARGS__, NULL)

static void reply_free(reply *r) {
    mv_buf_release(&r->body);
    mv_buf_release(&r->headers);
}

/* A response header's value (case-insensitive name) into out; false when
 * absent. */
static bool header(const reply *r, const char *name, char *out, size_t cap) {
    const char *p = r->headers.data;
    size_t nl = strlen(name);
    while (p != NULL && *p != '\0') {
        if (strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
            const char *v = p + nl + 1;
            while (*v == ' ')
                v++;
            size_t n = strcspn(v, "\r\n");
            if (n >= cap)
                n = cap - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return true;
        }
        p = strchr(p, '\n');
        if (p != NULL)
            p++;
    }
    return false;
}

/* The JSON-RPC error code of a body without id (the HTTP-level errors). */
static long rpc_code(const reply *r) {
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *doc = NULL;
    mv_jerror je;
    long code = 0;
    assert_int_equal(mv_json_parse(&doc, a, NULL, r->body.data, r->body.len, &je), 0);
    assert_true(mv_jis_null(mv_jobject_get(doc, "id")));
    const mv_jv *c = mv_jobject_get(mv_jobject_get(doc, "error"), "code");
    assert_true(mv_jis(c, MV_JNUMBER));
    code = strtol(c->u.s, NULL, 10);
    mv_arena_free(a);
    return code;
}

/* initialize and return the new session id (64 hex digits) in `sid`. */
static void open_session(const server *s, char *sid, size_t cap) {
    reply r;
    POST(&r, s, NULL, INIT);
    assert_int_equal(r.status, 200);
    assert_true(header(&r, "Mcp-Session-Id", sid, cap));
    assert_int_equal(strlen(sid), 64);
    assert_int_equal(strspn(sid, "0123456789abcdef"), 64);
    assert_non_null(strstr(r.body.data, "\"protocolVersion\":\"2025-06-18\""));
    reply_free(&r);
}

/* -------------------------------------------------------------- tests */

static void test_session_life_cycle(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char sid[128], sid2[128], v[64];
    reply r;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    start(&s, &o);

    open_session(&s, sid, sizeof sid);
    open_session(&s, sid2, sizeof sid2);
    assert_string_not_equal(sid, sid2);
    assert_int_equal(atomic_load(&opened), 2);

    /* A request in the session: its own call count (initialize was 1). */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}");
    assert_int_equal(r.status, 200);
    assert_true(header(&r, "Content-Type", v, sizeof v));
    assert_string_equal(v, "application/json");
    assert_false(header(&r, "Mcp-Session-Id", v, sizeof v));
    assert_string_equal(r.body.data,
                        "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"method\":\"tools/list\","
                        "\"n\":2}}");
    reply_free(&r);

    /* A notification and a response: 202, no body. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    assert_int_equal(r.status, 202);
    assert_int_equal(r.body.len, 0);
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
    assert_int_equal(r.status, 202);
    assert_int_equal(r.body.len, 0);
    reply_free(&r);
    /* Both reached the handler: the next call is the fifth. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body.data, "\"n\":5"));
    reply_free(&r);

    /* Without a session id: 400; an unknown one: 404. */
    POST(&r, &s, NULL, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32000);
    reply_free(&r);
    POST(&r, &s, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
         "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    assert_int_equal(r.status, 404);
    assert_int_equal(rpc_code(&r), -32001);
    reply_free(&r);
    /* initialize with a session id is refused (it starts a new one). */
    POST(&r, &s, sid, INIT);
    assert_int_equal(r.status, 400);
    reply_free(&r);

    /* DELETE ends it: 404 afterwards, the other session lives on. */
    request(&r, &s, NULL, "DELETE", NULL, NULL, NULL);
    assert_int_equal(r.status, 400);
    reply_free(&r);
    request(&r, &s, NULL, "DELETE", sid, NULL, NULL);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    assert_int_equal(atomic_load(&closed), 1);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
    assert_int_equal(r.status, 404);
    reply_free(&r);
    request(&r, &s, NULL, "DELETE", sid, NULL, NULL);
    assert_int_equal(r.status, 404);
    reply_free(&r);
    POST(&r, &s, sid2, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body.data, "\"n\":2"));
    reply_free(&r);

    /* An initialize the handler refuses opens no session. */
    POST(&r, &s, NULL,
         "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"refuse\":1}}");
    assert_int_equal(r.status, 200);
    assert_false(header(&r, "Mcp-Session-Id", v, sizeof v));
    assert_non_null(strstr(r.body.data, "\"error\""));
    reply_free(&r);
    assert_int_equal(atomic_load(&opened), 3);
    assert_int_equal(atomic_load(&closed), 2);

    stop(&s); /* closes the session still open */
    assert_int_equal(atomic_load(&closed), 3);
}

static void test_protocol_version_header(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char sid[128];
    reply r;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    start(&s, &o);
    open_session(&s, sid, sizeof sid);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
         "MCP-Protocol-Version: 2025-06-18");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
         "MCP-Protocol-Version: 2025-03-26");
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body.data, "2025-06-18"));
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
         "MCP-Protocol-Version: bogus");
    assert_int_equal(r.status, 400);
    reply_free(&r);
    stop(&s);
}

static void test_bodies_and_batches(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char sid[128];
    reply r;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    o.max_body = 1024;
    start(&s, &o);
    open_session(&s, sid, sizeof sid);

    /* Not JSON: a parse error naming the byte offset. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,");
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32700);
    assert_non_null(strstr(r.body.data, "at byte 24"));
    reply_free(&r);
    POST(&r, &s, sid, "{\"id\":1,\"id\":2}"); /* duplicate key: strict reader */
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32700);
    reply_free(&r);
    POST(&r, &s, sid, "");
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32700);
    reply_free(&r);
    POST(&r, &s, NULL, "not json"); /* parse errors come before session checks */
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32700);
    reply_free(&r);
    POST(&r, &s, sid, "[]");
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32600);
    reply_free(&r);
    POST(&r, &s, sid, "[1,2]");
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32600);
    reply_free(&r);
    POST(&r, &s, sid, "42"); /* the reader takes an object or array only */
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32700);
    reply_free(&r);

    /* A batch: answered as a batch, in order, notifications skipped. */
    POST(&r, &s, sid,
         "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},"
         "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
         "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"b\"}]");
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body.data,
                        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"method\":\"a\",\"n\":2}},"
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"method\":\"b\",\"n\":4}}]");
    reply_free(&r);
    POST(&r, &s, sid,
         "[{\"jsonrpc\":\"2.0\",\"method\":\"n1\"},{\"jsonrpc\":\"2.0\",\"method\":\"n2\"}]");
    assert_int_equal(r.status, 202);
    assert_int_equal(r.body.len, 0);
    reply_free(&r);
    POST(&r, &s, NULL, "[" INIT "]");
    assert_int_equal(r.status, 400);
    reply_free(&r);

    /* Over the cap: 413, whether announced or not. */
    char big[2048];
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
           strlen("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
    POST(&r, &s, sid, big);
    assert_int_equal(r.status, 413);
    reply_free(&r);
    POST(&r, &s, sid, big, "Transfer-Encoding: chunked");
    assert_int_equal(r.status, 413);
    reply_free(&r);
    big[1000] = '\0'; /* under the cap: fine */
    POST(&r, &s, sid, big);
    assert_int_equal(r.status, 200);
    reply_free(&r);

    /* Methods, media types, paths. */
    request(&r, &s, NULL, "GET", sid, NULL, NULL);
    assert_int_equal(r.status, 405);
    char allow[64];
    assert_true(header(&r, "Allow", allow, sizeof allow));
    assert_string_equal(allow, "POST, DELETE");
    reply_free(&r);
    request(&r, &s, NULL, "PUT", sid, "{}", NULL);
    assert_int_equal(r.status, 405);
    reply_free(&r);
    request(&r, &s, "/other", "POST", sid, "{}", NULL);
    assert_int_equal(r.status, 404);
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
         "Content-Type: text/plain");
    assert_int_equal(r.status, 415);
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Accept: text/html");
    assert_int_equal(r.status, 406);
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
         "Content-Type: application/json; charset=utf-8", "Accept: application/json");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    stop(&s);
}

static void test_host_origin_and_key(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char sid[128], v[128], hdr[160];
    reply r;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    o.bearer_key = KEY;
    start(&s, &o);

    POST(&r, &s, NULL, INIT);
    assert_int_equal(r.status, 401);
    assert_true(header(&r, "WWW-Authenticate", v, sizeof v));
    reply_free(&r);
    POST(&r, &s, NULL, INIT, "Authorization: Bearer " KEY "x");
    assert_int_equal(r.status, 401);
    reply_free(&r);
    POST(&r, &s, NULL, INIT, "X-API-Key: endpoint-test-key");
    assert_int_equal(r.status, 401);
    reply_free(&r);
    assert_int_equal(atomic_load(&opened), 0);
    POST(&r, &s, NULL, INIT, "Authorization: Bearer " KEY);
    assert_int_equal(r.status, 200);
    assert_true(header(&r, "Mcp-Session-Id", sid, sizeof sid));
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "X-API-Key: " KEY);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    /* The session id alone is no key. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_int_equal(r.status, 401);
    reply_free(&r);

    /* DNS rebinding: a foreign Host or Origin is refused, even with the key. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "X-API-Key: " KEY,
         "Host: evil.example:80");
    assert_int_equal(r.status, 421);
    reply_free(&r);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "X-API-Key: " KEY,
         "Origin: http://evil.example");
    assert_int_equal(r.status, 403);
    reply_free(&r);
    snprintf(hdr, sizeof hdr, "Origin: https://%s", s.host);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "X-API-Key: " KEY, hdr);
    assert_int_equal(r.status, 403);
    reply_free(&r);
    snprintf(hdr, sizeof hdr, "Origin: http://%s", s.host);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "X-API-Key: " KEY, hdr);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    snprintf(hdr, sizeof hdr, "Host: localhost:%s", strchr(s.host, ':') + 1);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "X-API-Key: " KEY, hdr);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    stop(&s);
}

static void test_start_refusals(void **state) {
    mv_mcp_endpoint_options o;
    mv_mcp_endpoint *ep = NULL;
    mv_error err;
    char *bound = NULL;
    (void)state;
    memset(&o, 0, sizeof o);
    memset(&err, 0, sizeof err);
    o.log = stderr;
    o.listen = "0.0.0.0:0";
    assert_int_equal(mv_mcp_endpoint_start(&ep, &o, &recorder, &bound, &err), MV_EINVAL);
    assert_null(ep);
    assert_null(bound);
    assert_non_null(strstr(err.message, "--allow-remote"));
    o.allow_remote = true; /* still no key */
    assert_int_equal(mv_mcp_endpoint_start(&ep, &o, &recorder, &bound, &err), MV_EINVAL);
    assert_null(ep);
    o.listen = "127.0.0.1:0";
    o.bearer_key = "short";
    assert_int_equal(mv_mcp_endpoint_start(&ep, &o, &recorder, &bound, &err), MV_EINVAL);
    o.bearer_key = NULL;
    o.listen = "nonsense";
    assert_int_equal(mv_mcp_endpoint_start(&ep, &o, &recorder, &bound, &err), MV_EINVAL);
    o.listen = "example.com:80"; /* no DNS */
    assert_int_equal(mv_mcp_endpoint_start(&ep, &o, &recorder, &bound, &err), MV_EINVAL);
    mv_mcp_endpoint_stop(NULL, 0);
}

static void test_session_cap(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char a[128], b[128], c[128];
    reply r;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    o.max_sessions = 2;
    start(&s, &o);
    open_session(&s, a, sizeof a);
    open_session(&s, b, sizeof b);
    POST(&r, &s, a, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"); /* a is recent */
    assert_int_equal(r.status, 200);
    reply_free(&r);
    sleep(1); /* last-use times are in seconds: make b strictly older */
    POST(&r, &s, a, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    reply_free(&r);
    open_session(&s, c, sizeof c); /* full: the least recently used (b) ends */
    assert_int_equal(atomic_load(&closed), 1);
    POST(&r, &s, b, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_int_equal(r.status, 404);
    reply_free(&r);
    POST(&r, &s, a, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    POST(&r, &s, c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    stop(&s);
    assert_int_equal(atomic_load(&closed), 3);
}

typedef struct blocked_call {
    const server *s;
    const char *sid;
    reply r;
} blocked_call;

static void *call_block(void *arg) {
    blocked_call *bc = arg;
    POST(&bc->r, bc->s, bc->sid, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"block\"}");
    return NULL;
}

static void test_concurrency_cap(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char a[128], b[128], v[32];
    reply r;
    pthread_t t;
    blocked_call bc;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    o.max_requests = 1;
    start(&s, &o);
    open_session(&s, a, sizeof a);
    open_session(&s, b, sizeof b);
    gate_open = false;
    atomic_store(&blocked_in, 0);
    memset(&bc, 0, sizeof bc);
    bc.s = &s;
    bc.sid = a;
    assert_int_equal(pthread_create(&t, NULL, call_block, &bc), 0);
    struct timespec nap = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 6000 && atomic_load(&blocked_in) == 0; i++)
        nanosleep(&nap, NULL);
    assert_int_equal(atomic_load(&blocked_in), 1);
    /* The one handler slot is taken: another session's call is refused. */
    POST(&r, &s, b, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_int_equal(r.status, 503);
    assert_true(header(&r, "Retry-After", v, sizeof v));
    assert_string_equal(v, "1");
    reply_free(&r);
    POST(&r, &s, NULL, INIT);
    assert_int_equal(r.status, 503);
    reply_free(&r);
    pthread_mutex_lock(&gate_lock);
    gate_open = true;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
    pthread_join(t, NULL);
    assert_int_equal(bc.r.status, 200);
    assert_non_null(strstr(bc.r.body.data, "\"method\":\"block\""));
    reply_free(&bc.r);
    /* Free again. */
    POST(&r, &s, b, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    stop(&s);
}

/* A client that sends its request one byte a second never looks idle to
 * libmicrohttpd; the whole-request deadline cuts it. Bounds are generous:
 * a 2 s deadline must act long before 60 bytes have trickled in. */
static void test_request_deadline(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char log[4096];
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    o.request_deadline_s = 2;
    o.idle_timeout_s = 120;
    start(&s, &o);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)atoi(strchr(s.host, ':') + 1));
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    struct timeval tv = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const char *req = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      "Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\"      ";
    size_t sent = 0, total = strlen(req);
    bool cut = false;
    while (sent < 60 && sent < total && !cut) {
        if (send(fd, req + sent, 1, MSG_NOSIGNAL) != 1) {
            cut = true;
            break;
        }
        sent++;
        char buf[64];
        ssize_t n = recv(fd, buf, sizeof buf, 0); /* waits up to 1 s */
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
            cut = true;
    }
    close(fd);
    assert_true(cut);
    assert_true(sent < 60);
    assert_true(wait_log(&s, log, sizeof log, "ran past the 2s deadline"));
    /* The server still serves. */
    char sid[128];
    open_session(&s, sid, sizeof sid);
    stop(&s);
}

/* --------------------------------------------------- streams (a handler
 * with stream_open and handle_streamed) */

static mv_mcp_stream *_Atomic get_st; /* the open GET stream, NULL when none */
static atomic_int st_opened, st_closed, flood_limited, noreply_seen;

static void sh_open(void *ctx, void *session, mv_mcp_stream *st) {
    (void)ctx;
    (void)session;
    atomic_store(&get_st, st);
    atomic_fetch_add(&st_opened, 1);
}

static void sh_close(void *ctx, void *session, mv_mcp_stream *st) {
    (void)ctx;
    (void)session;
    mv_mcp_stream *expected = st;
    atomic_compare_exchange_strong(&get_st, &expected, NULL);
    atomic_fetch_add(&st_closed, 1);
}

#define NOTE_GET "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/on-get\"}"
#define NOTE_POST "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\n\"params\":{}}"

static void sh_handle(void *ctx, void *session, const char *msg, size_t len, mv_buf *out,
                      mv_mcp_stream *st) {
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *m = NULL;
    mv_jerror je;
    mv_buf idt;
    mv_buf_init(&idt, NULL);
    (void)ctx;
    (void)session;
    if (mv_json_parse(&m, a, NULL, msg, len, &je) != MV_OK)
        goto done;
    const mv_jv *id = mv_jobject_get(m, "id");
    const mv_jv *method = mv_jobject_get(m, "method");
    if (id == NULL || !mv_jis_string(method)) {
        atomic_fetch_add(&noreply_seen, 1);
        goto done;
    }
    mv_json_write(&idt, id);
    char mname[64];
    snprintf(mname, sizeof mname, "%.*s", (int)(method->n < 60 ? method->n : 60), method->u.s);
    if (strcmp(mname, "initialize") == 0) {
        const mv_jv *v = mv_jobject_get(mv_jobject_get(m, "params"), "protocolVersion");
        mv_buf_printf(out, "{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":{\"protocolVersion\":",
                      (int)idt.len, idt.data);
        if (mv_jis_string(v))
            mv_json_write(out, v);
        else
            mv_buf_puts(out, "\"2025-06-18\"");
        mv_buf_puts(out, "}}");
        goto done;
    }
    if (strcmp(mname, "emit") == 0 && st != NULL)
        assert_int_equal(mv_mcp_stream_send(st, NOTE_POST, strlen(NOTE_POST)), MV_OK);
    if (strcmp(mname, "toget") == 0) {
        mv_mcp_stream *g = atomic_load(&get_st);
        assert_non_null(g);
        assert_int_equal(mv_mcp_stream_send(g, NOTE_GET, strlen(NOTE_GET)), MV_OK);
    }
    if (strcmp(mname, "flood") == 0) {
        char big[1100];
        memset(big, 'x', sizeof big);
        memcpy(big, "{\"pad\":\"", 8);
        memcpy(big + sizeof big - 2, "\"}", 2);
        mv_mcp_stream *g = atomic_load(&get_st);
        for (int i = 0; i < 5000 && g != NULL; i++) {
            int rc = mv_mcp_stream_send(g, big, sizeof big);
            if (rc == MV_ELIMIT) {
                atomic_fetch_add(&flood_limited, 1);
                /* Dropped: every later message is refused too. */
                assert_int_equal(mv_mcp_stream_send(g, big, sizeof big), MV_ENOTFOUND);
                break;
            }
            assert_int_equal(rc, MV_OK);
        }
    }
    if (strcmp(mname, "block") == 0) {
        pthread_mutex_lock(&gate_lock);
        atomic_store(&blocked_in, 1);
        while (!gate_open)
            pthread_cond_wait(&gate_cond, &gate_lock);
        pthread_mutex_unlock(&gate_lock);
    }
    mv_buf_printf(out, "{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":{\"method\":\"%s\"}}",
                  (int)idt.len, idt.data, mname);
done:
    mv_buf_release(&idt);
    mv_arena_free(a);
}

static const mv_mcp_endpoint_handler streamer = {.ctx = NULL,
                                                 .session_open = rec_open,
                                                 .handle = rec_handle,
                                                 .session_close = rec_close,
                                                 .stream_open = sh_open,
                                                 .stream_close = sh_close,
                                                 .handle_streamed = sh_handle};

static void start_streamer(server *s, mv_mcp_endpoint_options *o) {
    mv_error err;
    char *bound = NULL;
    memset(&err, 0, sizeof err);
    s->log = tmpfile();
    assert_non_null(s->log);
    o->log = s->log;
    atomic_store(&get_st, NULL);
    atomic_store(&st_opened, 0);
    atomic_store(&st_closed, 0);
    assert_int_equal(mv_mcp_endpoint_start(&s->ep, o, &streamer, &bound, &err), MV_OK);
    snprintf(s->host, sizeof s->host, "%s", bound);
    snprintf(s->url, sizeof s->url, "http://%s/mcp", bound);
    free(bound);
}

static void open_session_v(const server *s, const char *version, char *sid, size_t cap) {
    reply r;
    char body[256];
    snprintf(body, sizeof body,
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
             "\"protocolVersion\":\"%s\"}}",
             version);
    POST(&r, s, NULL, body);
    assert_int_equal(r.status, 200);
    assert_true(header(&r, "Mcp-Session-Id", sid, cap));
    reply_free(&r);
}

/* A GET stream over a raw socket (so the test decides when to read):
 * returns the socket after the response head was read; *status its code. */
static int raw_get(const server *s, const char *sid, int rcvbuf, int *status) {
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    unsigned port = (unsigned)atoi(strchr(s->host, ':') + 1);
    char req[512], head[2048];
    size_t n = 0;
    struct timeval tv = {20, 0};
    assert_true(fd >= 0);
    if (rcvbuf > 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    snprintf(req, sizeof req,
             "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n"
             "Mcp-Session-Id: %s\r\n\r\n",
             s->host, sid);
    assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
    /* The head, byte by byte (so nothing of the body is taken). */
    while (n < sizeof head - 1 && read(fd, head + n, 1) == 1) {
        n++;
        if (n >= 4 && memcmp(head + n - 4, "\r\n\r\n", 4) == 0)
            break;
    }
    head[n] = '\0';
    assert_true(n > 12);
    *status = atoi(head + 9);
    if (*status == 200)
        assert_non_null(strstr(head, "text/event-stream"));
    return fd;
}

/* A GET stream that should fit under the cap. A POST stream the client
 * has read to its end is released when the server's connection cleanup
 * runs, which on a loaded machine can come a little later: a 503 is
 * retried for up to five seconds. Any other status returns at once. */
static int raw_get_settled(const server *s, const char *sid, int *status) {
    struct timespec nap = {0, 20 * 1000 * 1000};
    int fd = raw_get(s, sid, 0, status);
    for (int tries = 0; *status == 503 && tries < 250; tries++) {
        close(fd);
        nanosleep(&nap, NULL);
        fd = raw_get(s, sid, 0, status);
    }
    return fd;
}

/* Read from the stream until `needle` shows up (true) or it ends. */
static bool read_until(int fd, const char *needle) {
    char buf[4096];
    mv_buf seen;
    bool found = false;
    mv_buf_init(&seen, NULL);
    for (;;) {
        ssize_t k = read(fd, buf, sizeof buf);
        if (k <= 0)
            break;
        mv_buf_append(&seen, buf, (size_t)k);
        mv_buf_putc(&seen, '\0');
        seen.len--;
        if (strstr(seen.data, needle) != NULL) {
            found = true;
            break;
        }
    }
    mv_buf_release(&seen);
    return found;
}

/* The stream ends: a read returns 0 (after the chunked terminator). */
static bool read_to_end(int fd) {
    char buf[4096];
    for (;;) {
        ssize_t k = read(fd, buf, sizeof buf);
        if (k == 0)
            return true;
        if (k < 0)
            return false;
    }
}

static char block_sid[128];

static void *blocking_post(void *arg) {
    const server *s = arg;
    reply r;
    POST(&r, s, block_sid, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"block\"}",
         "Accept: application/json");
    reply_free(&r);
    return NULL;
}

static void test_streams(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char sid[128], sid2[128], allow[64];
    reply r;
    int st = 0;
    (void)state;
    memset(&o, 0, sizeof o);
    o.quiet = true;
    o.batches_by_version = true;
    o.max_streams = 3;
    start_streamer(&s, &o);
    open_session_v(&s, "2025-03-26", sid, sizeof sid);

    /* GET refusals. */
    request(&r, &s, NULL, "GET", sid, NULL, "Accept: application/json", NULL);
    assert_int_equal(r.status, 406);
    reply_free(&r);
    request(&r, &s, NULL, "GET", NULL, NULL, "Accept: text/event-stream", NULL);
    assert_int_equal(r.status, 400);
    reply_free(&r);
    request(&r, &s, NULL, "GET", "0123", NULL, "Accept: text/event-stream", NULL);
    assert_int_equal(r.status, 404);
    reply_free(&r);
    request(&r, &s, NULL, "PUT", sid, "{}", NULL);
    assert_int_equal(r.status, 405);
    assert_true(header(&r, "Allow", allow, sizeof allow));
    assert_string_equal(allow, "GET, POST, DELETE");
    reply_free(&r);

    /* The GET stream carries what the handler sends on it. */
    int fd = raw_get(&s, sid, 0, &st);
    assert_int_equal(st, 200);
    assert_int_equal(atomic_load(&st_opened), 1);
    int fd2 = raw_get(&s, sid, 0, &st);
    assert_int_equal(st, 409); /* one per session */
    close(fd2);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"toget\"}",
         "Accept: application/json");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    assert_true(read_until(fd, "event: message\ndata: " NOTE_GET "\n\n"));

    /* A POST accepting event streams: the handler's message, then the
     * reply, as events; a newline between tokens becomes two data lines. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"emit\"}");
    assert_int_equal(r.status, 200);
    assert_true(header(&r, "Content-Type", allow, sizeof allow));
    assert_string_equal(allow, "text/event-stream");
    const char *ev1 = strstr(r.body.data, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
                                          "progress\",\ndata: \"params\":{}}\n\n");
    const char *ev2 = strstr(r.body.data, "data: {\"jsonrpc\":\"2.0\",\"id\":6,\"result\"");
    assert_non_null(ev1);
    assert_non_null(ev2);
    assert_true(ev1 < ev2);
    reply_free(&r);
    /* JSON only: a JSON reply, and the handler had no stream for it. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"emit\"}",
         "Accept: application/json");
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body.data,
                        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"method\":\"emit\"}}");
    reply_free(&r);
    /* Notifications only: 202, no stream. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}");
    assert_int_equal(r.status, 202);
    reply_free(&r);

    /* A batch (2025-03-26) streamed: one batch event, ids in order. */
    POST(&r, &s, sid,
         "[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"x\"},{\"jsonrpc\":\"2.0\",\"method\":"
         "\"n\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"y\"}]");
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body.data, "data: [{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{"
                                        "\"method\":\"x\"}},{\"jsonrpc\":\"2.0\",\"id\":2,"));
    reply_free(&r);
    /* 2025-06-18 forbids batches. */
    open_session_v(&s, "2025-06-18", sid2, sizeof sid2);
    POST(&r, &s, sid2,
         "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"},{\"jsonrpc\":\"2.0\",\"id\":2,"
         "\"method\":\"y\"}]");
    assert_int_equal(r.status, 400);
    assert_int_equal(rpc_code(&r), -32600);
    assert_non_null(strstr(r.body.data, "2025-06-18"));
    reply_free(&r);

    /* The stream cap: this GET and two more fit; the fourth is 503. */
    int fd3 = raw_get_settled(&s, sid2, &st);
    assert_int_equal(st, 200);
    char sid3[128], sid4[128];
    open_session_v(&s, "2025-03-26", sid3, sizeof sid3);
    open_session_v(&s, "2025-03-26", sid4, sizeof sid4);
    int fd4 = raw_get_settled(&s, sid3, &st);
    assert_int_equal(st, 200);
    int fd5 = raw_get(&s, sid4, 0, &st);
    assert_int_equal(st, 503);
    close(fd5);

    /* DELETE ends the session's stream. */
    request(&r, &s, NULL, "DELETE", sid3, NULL, NULL);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    assert_true(read_to_end(fd4));
    close(fd4);

    /* An answer while a request of the same session is running: it is
     * handed over at once, outside the session's call lock. */
    atomic_store(&blocked_in, 0);
    gate_open = false;
    atomic_store(&noreply_seen, 0);
    pthread_t th;
    snprintf(block_sid, sizeof block_sid, "%s", sid);
    assert_int_equal(pthread_create(&th, NULL, blocking_post, &s), 0);
    while (!atomic_load(&blocked_in)) {
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"result\":{}}");
    assert_int_equal(r.status, 202);
    assert_int_equal(atomic_load(&noreply_seen), 1);
    reply_free(&r);
    pthread_mutex_lock(&gate_lock);
    gate_open = true;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
    pthread_join(th, NULL);

    /* Shutdown ends the open streams. */
    close(fd3);
    stop(&s);
    assert_true(read_to_end(fd));
    close(fd);
    assert_int_equal(atomic_load(&st_closed), atomic_load(&st_opened));
}

/* A client that never reads its stream is dropped at the cap. */
static void test_stream_overflow(void **state) {
    server s;
    mv_mcp_endpoint_options o;
    char sid[128], logtext[8192];
    reply r;
    int st = 0;
    (void)state;
    memset(&o, 0, sizeof o);
    o.stream_queue_bytes = 16 * 1024;
    start_streamer(&s, &o);
    open_session_v(&s, "2025-03-26", sid, sizeof sid);
    int fd = raw_get(&s, sid, 4096, &st);
    assert_int_equal(st, 200);
    atomic_store(&flood_limited, 0);
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"flood\"}",
         "Accept: application/json");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    assert_int_equal(atomic_load(&flood_limited), 1);
    assert_true(wait_log(&s, logtext, sizeof logtext, "does not read its event stream"));
    /* The session goes on. */
    POST(&r, &s, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
         "Accept: application/json");
    assert_int_equal(r.status, 200);
    reply_free(&r);
    close(fd);
    stop(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_session_life_cycle),
        cmocka_unit_test(test_protocol_version_header),
        cmocka_unit_test(test_bodies_and_batches),
        cmocka_unit_test(test_host_origin_and_key),
        cmocka_unit_test(test_start_refusals),
        cmocka_unit_test(test_session_cap),
        cmocka_unit_test(test_concurrency_cap),
        cmocka_unit_test(test_request_deadline),
        cmocka_unit_test(test_streams),
        cmocka_unit_test(test_stream_overflow),
    };
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    curl_global_cleanup();
    return rc;
}
