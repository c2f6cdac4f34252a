/*
 * The streamed scan of a slim file (mv_model_options.slim, issue 15): the
 * real npm snapshot (6.6 MB, 100+ servers with honest name collisions and
 * near names across servers), with the shadowing corpora's originals put
 * first and their copies last (so the cross-server checks compare tools of
 * groups far apart: copied descriptions, added addresses, copied
 * parameters, typosquats), walked in runs of 256 KiB, kept slim, and
 * made full a group of runs at a time by mv_pipeline_scan_stream, gives
 * the very bytes and exit code of the whole scan (mv_pipeline_scan, the
 * file loaded full) in text, JSON and SARIF, with clean tools shown, for
 * one and two threads. mv_pipeline_scan refuses a slim set, which is how
 * the test knows the set was slim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "mcpvet/pipeline.h"
#include "mcpvet/report.h"

static void read_all(const char *path, mv_buf *out) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        assert_int_equal(mv_buf_append(out, chunk, got), MV_OK);
    fclose(f);
}

/* One server {"name": NAME-eI, "tools": [TOOL]}, compact, into `out`. */
static void put_server(mv_buf *out, const mv_jv *server, size_t i, const mv_jv *tool) {
    char name[256];
    snprintf(name, sizeof name, "%.*s-e%zu", (int)mv_jstring_len(server), mv_jstring(server), i);
    mv_jw w;
    if (out->len > 0)
        assert_int_equal(mv_buf_putc(out, ','), MV_OK);
    mv_jw_init_compact(&w, out);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "name", name);
    mv_jw_arr_begin(&w, "tools");
    mv_jw_value(&w, NULL, tool);
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    assert_int_equal(mv_jw_finish(&w), MV_OK);
}

/* The entries of a shadowing corpus as servers: each entry's peers (the
 * originals) into `first`, its own tool (the copy) into `last`. */
static void add_corpus(const char *dir, const char *name, mv_buf *first, mv_buf *last, size_t *n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus/%s", dir, name);
    mv_buf text;
    mv_buf_init(&text, NULL);
    read_all(path, &text);
    mv_arena *arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    const mv_jv *doc = NULL;
    mv_jerror je;
    assert_int_equal(mv_json_parse(&doc, arena, NULL, text.data, text.len, &je), MV_OK);
    const mv_jv *entries = mv_jobject_get(doc, "entries");
    assert_true(mv_jarray_size(entries) > 10);
    for (size_t i = 0; i < mv_jarray_size(entries); i++, (*n)++) {
        const mv_jv *e = mv_jarray_get(entries, i);
        const mv_jv *peers = mv_jobject_get(e, "peers");
        for (size_t k = 0; k < mv_jarray_size(peers); k++) {
            const mv_jv *peer = mv_jarray_get(peers, k);
            put_server(first, mv_jobject_get(peer, "server"), *n * 10 + k,
                       mv_jobject_get(peer, "tool"));
        }
        put_server(last, mv_jobject_get(e, "server"), *n * 10 + 9, mv_jobject_get(e, "tool"));
    }
    mv_arena_free(arena);
    mv_buf_release(&text);
}

static int to_buf(void *arg, const char *data, size_t len) {
    return mv_buf_append(arg, data, len);
}

/* The report and exit code of one scan of `path`. */
static int scan_file(const char *path, bool slim, unsigned jobs, mv_report_format format,
                     mv_buf *out) {
    mv_pipeline_options po;
    memset(&po, 0, sizeof po);
    po.model.jobs = jobs;
    po.model.slim = slim;
    po.model.chunk_bytes = slim ? 1u << 20 : 0; /* 0: the default, over this file */
    mv_pipeline *p = NULL;
    mv_error err;
    mv_error_clear(&err);
    assert_int_equal(mv_pipeline_new(&p, &po, &err), MV_OK);
    assert_int_equal(mv_pipeline_add_file(p, path, NULL, &err), MV_OK);
    mv_report_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = format;
    ro.show_clean = true;
    ro.jobs = jobs;
    if (slim) {
        /* only the streamed scan takes a slim set */
        assert_int_equal(mv_pipeline_scan(p, jobs, &err), MV_EINVAL);
        assert_non_null(strstr(err.message, "slim"));
        mv_error_clear(&err);
        assert_int_equal(mv_pipeline_scan_stream(p, jobs, &ro, &err), MV_OK);
    } else {
        assert_int_equal(mv_pipeline_scan(p, jobs, &err), MV_OK);
    }
    mv_pipeline_report_options(p, &ro);
    assert_int_equal(mv_pipeline_render_to(p, to_buf, out, &ro, &err), MV_OK);
    int code = mv_pipeline_exit_code(p, &ro);
    mv_pipeline_free(p);
    return code;
}

static void test_slim_stream_identical(void **state) {
    (void)state;
    const char *dir = getenv("MCPVET_SOURCE_DIR");
    if (dir == NULL)
        fail_msg("MCPVET_SOURCE_DIR is not set (run through ctest)");
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus/real/npm_servers.snapshot.json", dir);
    mv_buf npm, first, last, doc;
    mv_buf_init(&npm, NULL);
    mv_buf_init(&first, NULL);
    mv_buf_init(&last, NULL);
    mv_buf_init(&doc, NULL);
    read_all(path, &npm);
    size_t n = 0;
    static const char *const corpora[] = {"shadowing.json", "shadowing_typosquat.json",
                                          "redteam_shadowing.json"};
    for (size_t k = 0; k < sizeof corpora / sizeof corpora[0]; k++)
        add_corpus(dir, corpora[k], &first, &last, &n);
    /* the originals right after "servers": [, the copies before its ] */
    const char *servers = strstr(npm.data, "\"servers\"");
    assert_non_null(servers);
    const char *lb = strchr(servers, '[');
    const char *rb = strrchr(npm.data, ']');
    assert_true(lb != NULL && rb != NULL && rb > lb);
    size_t a = (size_t)(lb - npm.data) + 1, b = (size_t)(rb - npm.data);
    mv_buf_append(&doc, npm.data, a);
    mv_buf_append(&doc, first.data, first.len);
    mv_buf_putc(&doc, ',');
    mv_buf_append(&doc, npm.data + a, b - a);
    mv_buf_putc(&doc, ',');
    mv_buf_append(&doc, last.data, last.len);
    mv_buf_append(&doc, npm.data + b, npm.len - b);
    assert_false(doc.failed);
    char file[] = "/tmp/mcpvet-test-slim-XXXXXX";
    int fd = mkstemp(file);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, doc.data, doc.len), (ssize_t)doc.len);
    close(fd);

    static const mv_report_format formats[] = {MV_REPORT_JSON, MV_REPORT_SARIF, MV_REPORT_TEXT};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        mv_buf whole, slim;
        mv_buf_init(&whole, NULL);
        int want = scan_file(file, false, 1, formats[f], &whole);
        assert_true(whole.len > 100000);
        if (formats[f] == MV_REPORT_JSON) {
            /* the copies are caught: the test compares real cross-server work */
            size_t hits = 0;
            for (const char *q = whole.data; (q = strstr(q, "shadowing.cross_server")) != NULL; q++)
                hits++;
            assert_true(hits > 50);
            assert_non_null(strstr(whole.data, "send_mesage"));
        }
        for (unsigned jobs = 1; jobs <= 2; jobs++) {
            mv_buf_init(&slim, NULL);
            int got = scan_file(file, true, jobs, formats[f], &slim);
            assert_int_equal(got, want);
            assert_int_equal(slim.len, whole.len);
            assert_memory_equal(slim.data, whole.data, whole.len);
            mv_buf_release(&slim);
        }
        mv_buf_release(&whole);
    }
    unlink(file);
    mv_buf_release(&npm);
    mv_buf_release(&first);
    mv_buf_release(&last);
    mv_buf_release(&doc);
}

/* perf22: value_prefix tests the buffer's room itself and calls
 * mv_buf_reserve only when it may have to grow. A buffer growing from
 * empty through many doublings writes the same bytes as one reserved
 * large from the start, and a failed buffer takes no more bytes. */
static void write_doc(mv_buf *b) {
    mv_jw w;
    mv_jw_init(&w, b);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_arr_begin(&w, "items_with_a_key_longer_than_the_fast_path_copies_at_once");
    for (unsigned k = 0; k < 2000; k++) {
        mv_jw_obj_begin(&w, NULL);
        mv_jw_uint(&w, "index", k);
        mv_jw_cstr(&w, k % 3 == 0 ? "key \"quoted\"" : "name", "value");
        mv_jw_bool(&w, "ok", k % 2 == 0);
        mv_jw_obj_end(&w);
    }
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
}

static void test_perf22_writer_growth(void **state) {
    (void)state;
    mv_buf grown, big, failed;
    mv_buf_init(&grown, NULL);
    mv_buf_init(&big, NULL);
    mv_buf_init(&failed, NULL);
    assert_int_equal(mv_buf_reserve(&big, 1u << 20), MV_OK);
    write_doc(&grown);
    write_doc(&big);
    assert_false(grown.failed);
    assert_true(grown.len > 60000);
    assert_int_equal(grown.len, big.len);
    assert_memory_equal(grown.data, big.data, big.len);
    assert_non_null(strstr(grown.data, "\"key \\\"quoted\\\"\": \"value\""));
    failed.failed = 1;
    write_doc(&failed);
    assert_int_equal(failed.len, 0);
    mv_buf_release(&grown);
    mv_buf_release(&big);
    mv_buf_release(&failed);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slim_stream_identical),
        cmocka_unit_test(test_perf22_writer_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
