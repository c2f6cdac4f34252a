/*
 * Unit tests of the SSE event parser and the reply plumbing shared by the
 * HTTP transports (src/mcp/sse_parser.c, src/mcp/http_common.c): line
 * ends of every kind, chunks split at every byte, the BOM, comments, ids,
 * field edge cases, caps; batch splitting, the id match that ends a reply
 * stream, header value encoding and the redirect policy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json/json.h"
#include "mcp/http_common.h"
#include "mcp/sse_parser.h"

/* Events rendered as "type|data|id\n" for easy comparison. */
typedef struct seen {
    mv_buf log;
    int n;
    int stop_after; /* return 1 after this many events (0: never) */
} seen;

static int record(void *arg, const mv_sse_event *ev) {
    seen *s = arg;
    mv_buf_append(&s->log, ev->type, ev->type_len);
    mv_buf_putc(&s->log, '|');
    mv_buf_append(&s->log, ev->data, ev->data_len);
    mv_buf_putc(&s->log, '|');
    mv_buf_append(&s->log, ev->id, ev->id_len);
    mv_buf_putc(&s->log, '\n');
    s->n++;
    return s->stop_after > 0 && s->n >= s->stop_after ? 1 : 0;
}

/* Parse `in` in chunks of `step` bytes (0: whole) and return the log. */
static char *parse(const char *in, size_t len, size_t step, size_t cap, int *rc_out) {
    seen s;
    memset(&s, 0, sizeof s);
    mv_buf_init(&s.log, NULL);
    mv_sse_parser *p = mv_sse_parser_new(cap, record, &s);
    assert_non_null(p);
    int rc = 0;
    if (step == 0)
        step = len > 0 ? len : 1;
    for (size_t i = 0; i < len && rc == 0; i += step)
        rc = mv_sse_parser_feed(p, in + i, len - i < step ? len - i : step);
    if (rc_out != NULL)
        *rc_out = rc;
    mv_sse_parser_free(p);
    mv_buf_putc(&s.log, '\0');
    return s.log.data;
}

/* The same result for every chunk size. */
static void expect_events(const char *in, const char *want) {
    size_t len = strlen(in);
    for (size_t step = 0; step <= len; step++) {
        int rc = -99;
        char *got = parse(in, len, step, 1 << 20, &rc);
        assert_int_equal(rc, 0);
        if (strcmp(got, want) != 0)
            fail_msg("step %zu: got [%s] want [%s]", step, got, want);
        free(got);
    }
}

static void test_line_ends(void **state) {
    (void)state;
    expect_events("data: a\n\n", "message|a|\n");
    expect_events("data: a\r\n\r\n", "message|a|\n");
    expect_events("data: a\r\r", "message|a|\n");
    expect_events("data: a\rdata: b\r\ndata: c\n\r\n", "message|a\nb\nc|\n");
    /* A CR then LF in the next chunk is one line end, not two. */
    expect_events("data: x\r\n\r\ndata: y\r\n\r\n", "message|x|\nmessage|y|\n");
}

static void test_fields(void **state) {
    (void)state;
    /* One leading space is removed, not two; no colon: empty value. */
    expect_events("data:x\n\n", "message|x|\n");
    expect_events("data:  x\n\n", "message| x|\n");
    expect_events("data\n\n", "message||\n");
    expect_events("data\ndata\n\n", "message|\n|\n");
    /* Named events, ids that persist, comments, unknown fields, retry. */
    expect_events("event: endpoint\ndata: /m?s=1\n\n", "endpoint|/m?s=1|\n");
    expect_events(": hello\nid: 7\nretry: 10\nfoo: bar\ndata: a\n\ndata: b\n\n",
                  "message|a|7\nmessage|b|7\n");
    /* The event name resets after each event. */
    expect_events("event: x\ndata: 1\n\ndata: 2\n\n", "x|1|\nmessage|2|\n");
    /* An event without data is not dispatched and its name is dropped. */
    expect_events("event: x\n\ndata: 2\n\n", "message|2|\n");
    /* "id" with NUL is ignored; an empty id clears it. */
    expect_events("id: 5\ndata: a\n\nid\ndata: b\n\n", "message|a|5\nmessage|b|\n");
    /* Field names are exact: "Data", "data2" and "dat" are unknown. */
    expect_events("Data: a\ndata2: b\ndat: c\n\n", "");
    /* A pending event at the end of the stream is discarded. */
    expect_events("data: a\n\ndata: b\n", "message|a|\n");
    /* The BOM is skipped once, at the start only. */
    expect_events("\xEF\xBB\xBF"
                  "data: a\n\n",
                  "message|a|\n");
    expect_events("\xEF\xBB"
                  "data: a\n\n",
                  "");
    expect_events("data: \xEF\xBB\xBF\n\n", "message|\xEF\xBB\xBF|\n");
}

static void test_caps(void **state) {
    (void)state;
    int rc = 0;
    char *got;
    /* Exactly at the cap is fine (the joining LF is counted). */
    got = parse("data: 12345\n\n", strlen("data: 12345\n\n"), 1, 6, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(got, "message|12345|\n");
    free(got);
    got = parse("data: 123456\n\n", strlen("data: 123456\n\n"), 1, 6, &rc);
    assert_int_equal(rc, MV_ELIMIT);
    assert_string_equal(got, "");
    free(got);
    /* Many short data lines add up. */
    const char *three = "data: 12\ndata: 34\ndata: 56\n\n";
    got = parse(three, strlen(three), 0, 6, &rc);
    assert_int_equal(rc, MV_ELIMIT);
    free(got);
    /* Event names and ids have their own cap. */
    char big[600];
    memset(big, 'e', sizeof big);
    memcpy(big, "event: ", 7);
    big[sizeof big - 1] = '\n';
    got = parse(big, sizeof big, 0, 1 << 20, &rc);
    assert_int_equal(rc, MV_ELIMIT);
    free(got);
    /* Long comments and unknown fields cost nothing and are fine. */
    mv_buf b;
    mv_buf_init(&b, NULL);
    mv_buf_puts(&b, ":");
    for (int i = 0; i < 100000; i++)
        mv_buf_puts(&b, "xxxxxxxxxx");
    mv_buf_puts(&b, "\nunknownfieldnamethatislong");
    for (int i = 0; i < 1000; i++)
        mv_buf_puts(&b, "yyyyyyyyyy");
    mv_buf_puts(&b, ": zzz\ndata: ok\n\n");
    got = parse(b.data, b.len, 4096, 16, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(got, "message|ok|\n");
    free(got);
    mv_buf_release(&b);
    /* After an error the parser refuses more input. */
    seen s;
    memset(&s, 0, sizeof s);
    mv_buf_init(&s.log, NULL);
    mv_sse_parser *p = mv_sse_parser_new(4, record, &s);
    assert_int_equal(mv_sse_parser_feed(p, "data: 123456\n", 13), MV_ELIMIT);
    assert_int_equal(mv_sse_parser_feed(p, "\n", 1), MV_ELIMIT);
    mv_sse_parser_free(p);
    mv_buf_release(&s.log);
}

static void test_stop(void **state) {
    (void)state;
    seen s;
    memset(&s, 0, sizeof s);
    mv_buf_init(&s.log, NULL);
    s.stop_after = 1;
    mv_sse_parser *p = mv_sse_parser_new(100, record, &s);
    const char *in = "data: a\n\ndata: b\n\n";
    assert_int_equal(mv_sse_parser_feed(p, in, strlen(in)), 1);
    assert_int_equal(s.n, 1);
    assert_true(mv_sse_parser_pending(p) == 0);
    mv_sse_parser_free(p);
    mv_buf_release(&s.log);
    mv_sse_parser_free(NULL);
}

/* ------------------------------------------------------ http_common */

static int pop_str(mv_mcp_msgq *q, char **out) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    int rc = mv_mcp_msgq_pop(q, &b);
    *out = rc == 1 ? strdup(b.data) : NULL;
    mv_buf_release(&b);
    return rc;
}

static void test_batch_split(void **state) {
    (void)state;
    mv_mcp_msgq q = {0};
    mv_mcp_rpc_id want;
    bool answered = false;
    char *m;
    const char *req = "{\"jsonrpc\":\"2.0\",\"id\":\"a,]\",\"method\":\"x\"}";
    assert_int_equal(mv_mcp_rpc_id_of(&want, req, strlen(req)), 0);
    assert_int_equal(want.type, MV_JSTRING);
    const char *batch =
        " [ {\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"s\":\"],{\\\"\"}} ,\n"
        "{\"jsonrpc\":\"2.0\",\"id\":\"a,]\",\"result\":[1,[2]]} ] ";
    assert_int_equal(mv_mcp_queue_payload(&q, batch, strlen(batch), &want, &answered), 0);
    assert_true(answered);
    assert_int_equal(q.count, 2);
    assert_int_equal(pop_str(&q, &m), 1);
    assert_string_equal(m, "{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"s\":\"],{\\\"\"}}");
    free(m);
    assert_int_equal(pop_str(&q, &m), 1);
    assert_string_equal(m, "{\"jsonrpc\":\"2.0\",\"id\":\"a,]\",\"result\":[1,[2]]}");
    free(m);
    assert_int_equal(pop_str(&q, &m), 0);
    mv_mcp_rpc_id_release(&want);

    /* Numeric ids: 1 is not "1", a request with the id is not an answer. */
    const char *req1 = "{\"id\":1,\"method\":\"m\"}";
    assert_int_equal(mv_mcp_rpc_id_of(&want, req1, strlen(req1)), 0);
    answered = false;
    const char *s1 = "{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":{}}";
    assert_int_equal(mv_mcp_queue_payload(&q, s1, strlen(s1), &want, &answered), 0);
    assert_false(answered);
    const char *s2 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    assert_int_equal(mv_mcp_queue_payload(&q, s2, strlen(s2), &want, &answered), 0);
    assert_false(answered);
    const char *s3 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\"}}";
    assert_int_equal(mv_mcp_queue_payload(&q, s3, strlen(s3), &want, &answered), 0);
    assert_true(answered);
    /* Garbage is queued untouched for the caller to report; blanks are
     * dropped; an empty array is queued as it is. */
    assert_int_equal(mv_mcp_queue_payload(&q, "not json", 8, &want, &answered), 0);
    assert_int_equal(mv_mcp_queue_payload(&q, " \r\n", 3, &want, &answered), 0);
    assert_int_equal(mv_mcp_queue_payload(&q, "[]", 2, &want, &answered), 0);
    assert_int_equal(q.count, 5);
    mv_mcp_msgq_clear(&q);
    assert_int_equal(q.count, 0);
    mv_mcp_rpc_id_release(&want);
}

static void test_header_encoding(void **state) {
    (void)state;
    struct curl_slist *l = NULL;
    l = mv_mcp_slist_add_encoded(l, "Mcp-Name", "get_weather");
    l = mv_mcp_slist_add_encoded(l, "Mcp-Name", "caf\xc3\xa9");
    l = mv_mcp_slist_add_encoded(l, "Mcp-Name", "a\r\nX-Evil: 1");
    l = mv_mcp_slist_add_encoded(l, "Mcp-Name", " padded");
    assert_non_null(l);
    assert_string_equal(l->data, "Mcp-Name: get_weather");
    assert_string_equal(l->next->data, "Mcp-Name: =?base64?Y2Fmw6k=?=");
    assert_string_equal(l->next->next->data, "Mcp-Name: =?base64?YQ0KWC1FdmlsOiAx?=");
    assert_string_equal(l->next->next->next->data, "Mcp-Name: =?base64?IHBhZGRlZA==?=");
    curl_slist_free_all(l);
}

static void test_headers_copy(void **state) {
    (void)state;
    mv_config_kv kv[3] = {{"X-Api-Key", "secret-value-1"}, {"Accept", "text/html"}, {"Empty", ""}};
    mv_server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.headers = kv;
    cfg.n_headers = 3;
    mv_mcp_headers h;
    mv_mcp_failure f;
    memset(&f, 0, sizeof f);
    assert_int_equal(mv_mcp_headers_copy(&h, &cfg, &f), 0);
    assert_int_equal(h.n, 2); /* Accept is the transport's own */
    assert_string_equal(h.lines[0], "X-Api-Key: secret-value-1");
    assert_string_equal(h.lines[1], "Empty;");
    mv_mcp_headers_release(&h);

    mv_config_kv bad[1] = {{"X-Api-Key", "secret-value-2\r\nX-Injected: 1"}};
    cfg.headers = bad;
    cfg.n_headers = 1;
    assert_int_equal(mv_mcp_headers_copy(&h, &cfg, &f), -1);
    assert_int_equal(f.status, MV_MCP_INVALID_CONFIG);
    assert_null(strstr(f.reason, "secret-value-2"));
    assert_non_null(strstr(f.reason, "X-Api-Key"));

    mv_config_kv badname[1] = {{"X Api:Key", "v"}};
    cfg.headers = badname;
    assert_int_equal(mv_mcp_headers_copy(&h, &cfg, &f), -1);
    assert_int_equal(f.status, MV_MCP_INVALID_CONFIG);
}

static void test_urls(void **state) {
    (void)state;
    char o[256];
    assert_int_equal(mv_mcp_url_origin(o, sizeof o, "http://user:pw@127.0.0.1/mcp?key=s"), 0);
    assert_string_equal(o, "http://127.0.0.1:80");
    assert_int_equal(mv_mcp_url_origin(o, sizeof o, "https://Example.COM:8443/x"), 0);
    assert_string_equal(o, "https://example.com:8443");
    assert_int_equal(mv_mcp_url_origin(o, sizeof o, "ftp://127.0.0.1/"), MV_EINVAL);
    assert_int_equal(mv_mcp_url_origin(o, sizeof o, "file:///etc/passwd"), MV_EINVAL);
    assert_int_equal(mv_mcp_url_origin(o, sizeof o, "/relative"), MV_EINVAL);

    char *u = mv_mcp_url_resolve("http://127.0.0.1:9/sse", "/message?sessionId=1", 20);
    assert_string_equal(u, "http://127.0.0.1:9/message?sessionId=1");
    free(u);
    u = mv_mcp_url_resolve("http://127.0.0.1:9/a/sse", "msg", 3);
    assert_string_equal(u, "http://127.0.0.1:9/a/msg");
    free(u);
    assert_null(mv_mcp_url_resolve("http://127.0.0.1:9/sse", "file:///etc/passwd", 18));
    assert_null(mv_mcp_url_resolve("http://127.0.0.1:9/sse", "a\0b", 3));

    assert_true(mv_mcp_url_is_loopback("http://127.0.0.1:5/"));
    assert_true(mv_mcp_url_is_loopback("http://localhost/"));
    assert_true(mv_mcp_url_is_loopback("http://[::1]:8/"));
    assert_false(mv_mcp_url_is_loopback("http://127.example.com/"));
    assert_false(mv_mcp_url_is_loopback("http://10.0.0.1/"));

    assert_true(mv_mcp_content_type_is("application/json; charset=utf-8", "application/json"));
    assert_true(mv_mcp_content_type_is("Text/Event-Stream", "text/event-stream"));
    assert_false(mv_mcp_content_type_is("application/jsonx", "application/json"));
    assert_false(mv_mcp_content_type_is(NULL, "application/json"));
}

static void test_redirect_policy(void **state) {
    (void)state;
    mv_mcp_redirects r = {0};
    mv_mcp_failure f;
    assert_int_equal(mv_mcp_redirect_check(&r, "http://h/a", "http://h/b", &f), 0);
    assert_int_equal(mv_mcp_redirect_check(&r, "http://h/b", "http://h/a", &f), -1);
    assert_int_equal(f.status, MV_MCP_PROTOCOL_ERROR);
    assert_non_null(strstr(f.reason, "redirect loop"));
    mv_mcp_redirects_release(&r);

    assert_int_equal(mv_mcp_redirect_check(&r, "http://h/1", "http://h/2", &f), 0);
    assert_int_equal(mv_mcp_redirect_check(&r, "http://h/2", "https://h/3", &f), 0);
    assert_int_equal(mv_mcp_redirect_check(&r, "https://h/3", "https://h/4", &f), 0);
    assert_int_equal(mv_mcp_redirect_check(&r, "https://h/4", "https://h/5", &f), -1);
    assert_non_null(strstr(f.reason, "more than 3 redirects"));
    mv_mcp_redirects_release(&r);

    assert_int_equal(mv_mcp_redirect_check(&r, "https://h/1", "http://h/2", &f), -1);
    assert_non_null(strstr(f.reason, "https to plain http"));
    mv_mcp_redirects_release(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_ends),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_batch_split),
        cmocka_unit_test(test_header_encoding),
        cmocka_unit_test(test_headers_copy),
        cmocka_unit_test(test_urls),
        cmocka_unit_test(test_redirect_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
