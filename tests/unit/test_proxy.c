/*
 * Unit tests of the proxy's pieces that need no server: the line reader
 * (partial lines, CRLF, blank lines, a last line without newline, an
 * over-cap line refused at once and skipped to its end while the next
 * message survives), the write queue, the lenient id finder used for
 * messages that cannot be parsed, and the policy/results names; and,
 * through the loop-free px_session, that a tools/call the guard cannot
 * track (a notification, an id that is null, true or an object) never
 * reaches the server. The relay itself is tested end to end with real
 * servers in tests/integration/proxy.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "proxy/proxy_int.h"

/* A pipe with `text` written and (when `close_w`) the write end closed. */
static int pipe_with(const char *text, size_t len, bool close_w, int *wfd) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    if (len > 0)
        assert_int_equal(write(fds[1], text, len), (ssize_t)len);
    if (close_w) {
        close(fds[1]);
        *wfd = -1;
    } else {
        *wfd = fds[1];
    }
    return fds[0];
}

static void test_reader_lines(void **state) {
    (void)state;
    const char *in = "{\"a\":1}\r\n\n   \n{\"b\":2}\n{\"c\":3}";
    int w;
    int fd = pipe_with(in, strlen(in), true, &w);
    px_reader r;
    px_reader_init(&r, fd, 1024);
    const char *line;
    size_t len;
    assert_int_equal(px_reader_fill(&r), 1);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_LINE);
    assert_int_equal(len, 7); /* the \r is not part of the message */
    assert_memory_equal(line, "{\"a\":1}", 7);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_LINE); /* blank lines skipped */
    assert_memory_equal(line, "{\"b\":2}", 7);
    /* the last message has no newline: only at end of file is it whole */
    assert_int_equal(px_reader_next(&r, &line, &len), PX_NONE);
    assert_int_equal(px_reader_fill(&r), 0);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_LINE);
    assert_memory_equal(line, "{\"c\":3}", 7);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_END);
    px_reader_free(&r);
    close(fd);
}

static void test_reader_partial(void **state) {
    (void)state;
    int w;
    int fd = pipe_with("{\"par", 5, false, &w);
    px_reader r;
    px_reader_init(&r, fd, 1024);
    const char *line;
    size_t len;
    assert_int_equal(px_reader_fill(&r), 1);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_NONE);
    /* nothing more to read now: fill does not block */
    assert_int_equal(px_reader_fill(&r), 1);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_NONE);
    assert_int_equal(write(w, "tial\":1}\n", 9), 9);
    assert_int_equal(px_reader_fill(&r), 1);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_LINE);
    assert_int_equal(len, 13);
    assert_memory_equal(line, "{\"partial\":1}", 13);
    close(w);
    assert_int_equal(px_reader_fill(&r), 0);
    assert_int_equal(px_reader_next(&r, &line, &len), PX_END);
    px_reader_free(&r);
    close(fd);
}

static void test_reader_oversize(void **state) {
    (void)state;
    /* A line of 300 KB against a 1 KiB cap, then a good one. */
    size_t big = 300000;
    char *buf = malloc(big + 64);
    assert_non_null(buf);
    memcpy(buf, "{\"id\":42,\"x\":\"", 14);
    memset(buf + 14, 'a', big - 14);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    px_reader r;
    px_reader_init(&r, fds[0], 1024);
    const char *line;
    size_t len;
    size_t off = 0;
    int oversize = 0, lines = 0;
    bool tail_written = false;
    for (int round = 0; round < 100000 && lines == 0; round++) {
        if (off < big) {
            ssize_t n = write(fds[1], buf + off, big - off);
            if (n > 0)
                off += (size_t)n;
        } else if (!tail_written) {
            assert_int_equal(write(fds[1], "\"}\n{\"ok\":1}\n", 12), 12);
            tail_written = true;
        }
        px_reader_fill(&r);
        int k;
        while ((k = px_reader_next(&r, &line, &len)) != PX_NONE) {
            if (k == PX_OVERSIZE) {
                oversize++;
                /* refused early: the buffer never held the whole line */
                assert_true(r.cap < 200000);
                mv_buf id;
                mv_buf_init(&id, NULL);
                assert_true(px_find_id(r.prefix, r.prefix_len, &id));
                assert_string_equal(id.data, "42");
                mv_buf_release(&id);
            } else if (k == PX_LINE) {
                lines++;
                assert_int_equal(len, 8);
                assert_memory_equal(line, "{\"ok\":1}", 8);
            }
        }
    }
    assert_int_equal(oversize, 1);
    assert_int_equal(lines, 1);
    px_reader_free(&r);
    close(fds[0]);
    close(fds[1]);
    free(buf);
}

static void test_queue(void **state) {
    (void)state;
    signal(SIGPIPE, SIG_IGN); /* as mcpvet's main does */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    px_queue q;
    px_queue_init(&q, fds[1]);
    assert_int_equal(px_queue_push(&q, "{\"a\":1}", 7), MV_OK);
    assert_int_equal(px_queue_push(&q, "{\"b\":2}", 7), MV_OK);
    assert_int_equal(px_queue_flush(&q), 0);
    assert_int_equal(q.len, 0);
    char got[32] = {0};
    assert_int_equal(read(fds[0], got, sizeof got), 16);
    assert_string_equal(got, "{\"a\":1}\n{\"b\":2}\n");
    close(fds[0]);
    /* the reader is gone: the queue is broken, not the process */
    assert_int_equal(px_queue_push(&q, "x", 1), MV_OK);
    assert_int_equal(px_queue_flush(&q), -1);
    assert_true(q.broken);
    px_queue_free(&q);
    close(fds[1]);
}

static void test_find_id(void **state) {
    (void)state;
    mv_buf id;
    mv_buf_init(&id, NULL);
    /* top level only, after nested "id" keys and strings holding "id" */
    const char *a = "{\"params\":{\"id\":7,\"s\":\"\\\"id\\\":9\"},\"method\":\"x\",\"id\":\"r-1\"";
    assert_true(px_find_id(a, strlen(a), &id));
    assert_string_equal(id.data, "\"r-1\"");
    const char *b = " { \"jsonrpc\" : \"2.0\" , \"id\" : -12 , \"result\":{\"pad\":\"aaaa";
    assert_true(px_find_id(b, strlen(b), &id));
    assert_string_equal(id.data, "-12");
    /* a duplicate key: the first one found (the message is refused anyway) */
    const char *c = "{\"id\":1,\"id\":2}";
    assert_true(px_find_id(c, strlen(c), &id));
    assert_string_equal(id.data, "1");
    /* hard negatives */
    const char *none[] = {
        "{\"params\":{\"id\":7}}", /* only nested */
        "[{\"id\":1}]",            /* not an object */
        "{\"id\":",                /* cut before the value */
        "{\"id\":\"unterminated",  /* cut inside the value */
        "{\"id\":{\"x\":1}}",      /* not a number or string */
        "{\"id\":01}",             /* not valid JSON */
        "{\"id\":\"\\ud800\"}",    /* an unpaired surrogate */
        "not json at all",
        "",
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_false(px_find_id(none[i], strlen(none[i]), &id));
    mv_buf_release(&id);
}

/* A store path in a fresh directory (removed by the caller). */
static void scratch_store(char *dir, size_t dsize, char *path, size_t psize) {
    snprintf(dir, dsize, "/tmp/mcpvet-proxy-session.XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, psize, "%s/store.db", dir);
}

/* Found by fuzz/fuzz_proxy.c (tests/regress/proxy/): a tools/call without
 * a usable id went to the server undecided, under every policy. */
static void test_untracked_call_refused(void **state) {
    static const char *const argv[] = {"cmd"};
    static const char *const calls[] = {
        "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"wipe\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"wipe\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"wipe\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}",
    };
    char dir[64], path[96];
    (void)state;
    scratch_store(dir, sizeof dir, path, sizeof path);
    FILE *log = fopen("/dev/null", "w");
    assert_non_null(log);
    mv_proxy_options o;
    memset(&o, 0, sizeof o);
    o.policy = MV_PROXY_STRICT;
    o.name = "srv";
    o.argv = argv;
    o.argc = 1;
    o.store_path = path;
    o.log = log;
    px_session *s = NULL;
    mv_error err;
    assert_int_equal(px_session_new(&s, &o, &err), MV_OK);
    mv_buf to_server, to_client;
    mv_buf_init(&to_server, NULL);
    mv_buf_init(&to_client, NULL);
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        to_server.len = to_client.len = 0;
        px_session_client_line(s, calls[i], strlen(calls[i]));
        px_session_take(s, false, &to_server);
        px_session_take(s, true, &to_client);
        assert_int_equal(to_server.len, 0);
        if (i == 0) {
            assert_int_equal(to_client.len, 0); /* a notification gets no answer */
        } else {
            mv_buf_putc(&to_client, '\0');
            assert_non_null(strstr(to_client.data, "\"id\":null"));
            assert_non_null(strstr(to_client.data, "-32600"));
        }
    }
    /* Hard negative: the same call with a real id is decided (blocked:
     * nothing is approved under strict) and a ping without id passes. */
    const char *ok = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    const char *note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    to_server.len = 0;
    px_session_client_line(s, ok, strlen(ok));
    px_session_client_line(s, note, strlen(note));
    px_session_take(s, false, &to_server);
    mv_buf_putc(&to_server, '\0');
    assert_non_null(strstr(to_server.data, "\"ping\""));
    assert_non_null(strstr(to_server.data, "notifications/initialized"));
    px_session_free(s);
    mv_buf_release(&to_server);
    mv_buf_release(&to_client);
    fclose(log);
    char p2[128];
    unlink(path);
    snprintf(p2, sizeof p2, "%s-wal", path);
    unlink(p2);
    snprintf(p2, sizeof p2, "%s-shm", path);
    unlink(p2);
    rmdir(dir);
}

static void test_names(void **state) {
    (void)state;
    mv_proxy_policy p;
    mv_proxy_results r;
    assert_int_equal(mv_proxy_policy_parse(&p, "strict"), 0);
    assert_int_equal(p, MV_PROXY_STRICT);
    assert_int_equal(mv_proxy_policy_parse(&p, "tofu"), 0);
    assert_int_equal(p, MV_PROXY_TOFU);
    assert_int_equal(mv_proxy_policy_parse(&p, "Strict"), -1);
    assert_int_equal(mv_proxy_policy_parse(&p, NULL), -1);
    assert_int_equal(mv_proxy_results_parse(&r, "strip"), 0);
    assert_int_equal(r, MV_PROXY_RESULTS_STRIP);
    assert_int_equal(mv_proxy_results_parse(&r, "drop"), -1);
    assert_string_equal(mv_proxy_policy_name(MV_PROXY_AUDIT), "audit");
    assert_string_equal(mv_proxy_results_name(MV_PROXY_RESULTS_BLOCK), "block");
    mv_error err;
    mv_error_clear(&err);
    mv_proxy_options o;
    memset(&o, 0, sizeof(o));
    assert_int_equal(mv_proxy_run(&o, NULL, &err), MV_EINVAL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_lines),    cmocka_unit_test(test_reader_partial),
        cmocka_unit_test(test_reader_oversize), cmocka_unit_test(test_queue),
        cmocka_unit_test(test_find_id),         cmocka_unit_test(test_names),
        cmocka_unit_test(test_untracked_call_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
