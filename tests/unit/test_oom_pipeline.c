/*
 * Allocation-failure loops (the method of test_oom.c) over the two parts
 * that now allocate through the injected allocator too:
 *
 *   pipeline  mv_pipeline_new, add_document (examples/demo-snapshot.json),
 *             scan, decide into a copy of a store, and the JSON report
 *             rendered from the pipeline's report options, all with
 *             model.allocator failing (the engine is shared and built
 *             once; the store and SQLite allocate on their own, see
 *             test_oom.c for those)
 *   mcp       mv_mcp_fetch_with over a scripted transport (the session
 *             fuzz target's stdio seed: discover refused, initialize with
 *             instructions, a server ping and request, two pages of
 *             tools, prompts, resources, templates) with a configured
 *             secret to redact, mcp.allocator failing
 *
 * For every N, transient (only the Nth allocation fails) and persistent
 * (the Nth and every later one): no crash, no block of the allocator left
 * after the run's objects are freed, and either MV_ENOMEM with an error
 * record saying so (no report is rendered then) or success with exactly
 * the bytes of the run without failures. The store after a failed run
 * holds what it held before or, when the failure came after the commit,
 * exactly what the successful run leaves: never anything in between.
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

#include "mcp/transport.h"
#include "fail_alloc.h"
#include "mcpvet/pipeline.h"
#include "mcpvet/report.h"
#include "mcpvet/store.h"

/* ---------------------------------------------------------- allocator */

/* The shared counting allocator (tests/unit/support/fail_alloc.h). */
typedef fail_alloc oom;

static void oom_init(oom *o, long fail_at, bool persistent) {
    fail_alloc_init(o, fail_at);
    o->transient = !persistent;
}

/* ------------------------------------------------------------ helpers */

static const char *src_dir(void) {
    const char *d = getenv("MCPVET_SOURCE_DIR");
    return d != NULL ? d : ".";
}

static void read_file(const char *path, mv_buf *out) {
    char chunk[65536];
    FILE *f = fopen(path, "rb");
    size_t n;
    if (f == NULL)
        fail_msg("cannot open %s", path);
    out->len = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mv_buf_append(out, chunk, n);
    fclose(f);
}

static void write_file(const char *path, const mv_buf *b) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b->data, 1, b->len, f), b->len);
    assert_int_equal(fclose(f), 0);
}

static void expect_enomem(int rc, const mv_error *err, const char *what, long n) {
    if (rc != MV_ENOMEM)
        fail_msg("%s: allocation %ld failed, but the run returned %d (%s)", what, n, rc,
                 err->message);
    if (err->code != MV_ENOMEM || strstr(err->message, "out of memory") == NULL)
        fail_msg("%s: allocation %ld: the error does not say out of memory (%d: %s)", what, n,
                 err->code, err->message);
}

static bool same(const mv_buf *a, const mv_buf *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* ----------------------------------------------------------- pipeline */

static char dir[256], store_path[300];
static mv_buf snapshot, template_db;
static mv_engine *engine;

static int64_t fixed_clock(void *arg) {
    (void)arg;
    return 1700000000;
}

static void unlink_db(void) {
    char p[320];
    unlink(store_path);
    snprintf(p, sizeof p, "%s-wal", store_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", store_path);
    unlink(p);
}

static mv_store *store_open(void) {
    mv_store *st = NULL;
    mv_error err;
    mv_store_options so = {.create = true, .clock = fixed_clock};
    if (mv_store_open(&st, store_path, &so, &err) != MV_OK)
        fail_msg("store: %s", err.message);
    return st;
}

/* The store's decisions as bytes: states, pins, the audit log's length. */
static void store_state(mv_buf *out) {
    mv_store *st = store_open();
    mv_store_tool_list *l = NULL;
    mv_store_event_list *ev = NULL;
    mv_store_filter f;
    mv_error err;
    memset(&f, 0, sizeof f);
    out->len = 0;
    assert_int_equal(mv_store_list(st, &f, &l, &err), MV_OK);
    for (size_t i = 0; i < l->n; i++)
        mv_buf_printf(out, "%s/%s %s %s %s\n", l->tools[i].server, l->tools[i].name,
                      mv_tool_state_name(l->tools[i].state),
                      l->tools[i].approved_pin != NULL ? l->tools[i].approved_pin : "-",
                      l->tools[i].current_pin);
    mv_store_tool_list_free(l);
    assert_int_equal(mv_store_history(st, NULL, NULL, 0, &ev, &err), MV_OK);
    mv_buf_printf(out, "events %zu\n", ev->n);
    mv_store_event_list_free(ev);
    mv_store_close(st);
}

static void fresh_store(void) {
    unlink_db();
    write_file(store_path, &template_db);
}

static int pipeline_setup(void **state) {
    char path[1024];
    mv_error err;
    mv_engine_options eo;
    (void)state;
    mv_buf_init(&snapshot, NULL);
    mv_buf_init(&template_db, NULL);
    snprintf(path, sizeof path, "%s/examples/demo-snapshot.json", src_dir());
    read_file(path, &snapshot);
    memset(&eo, 0, sizeof eo);
    if (mv_engine_new(&engine, &eo, &err) != MV_OK)
        return -1;
    snprintf(dir, sizeof dir, "/tmp/mcpvet-oom-pipeline.XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(store_path, sizeof store_path, "%s/store.db", dir);
    /* The template: a store that already knows one tool of the demo's
     * first server, approved, so decide has states to keep and change. */
    mv_store *st = store_open();
    mv_scan_item it = {.name = MV_STR_LIT("read_file"),
                       .definition = MV_STR_LIT("{\"name\":\"read_file\"}")};
    mv_scan_server sv = {.ident = {.name = "filesystem", .transport = "file"},
                         .items = &it,
                         .n_items = 1};
    if (mv_store_apply_scan(st, &sv, 1, 1, MV_ACTOR_CLI, NULL, &err) != MV_OK ||
        mv_store_approve(st, "filesystem", NULL, 0, false, MV_ACTOR_CLI, NULL, NULL, &err) !=
            MV_OK)
        return -1;
    mv_store_close(st);
    read_file(store_path, &template_db);
    return 0;
}

static int pipeline_teardown(void **state) {
    (void)state;
    unlink_db();
    rmdir(dir);
    mv_engine_free(engine);
    mv_buf_release(&snapshot);
    mv_buf_release(&template_db);
    return 0;
}

/* One whole run: the JSON report and the exit code into *out. */
static int pipeline_run(oom *o, mv_buf *out, mv_error *err) {
    mv_pipeline_options po;
    mv_pipeline *p = NULL;
    mv_store *st = NULL;
    int rc;
    memset(&po, 0, sizeof po);
    po.shared_engine = engine;
    po.model.allocator = &o->allocator;
    po.model.keep_definitions = true;
    mv_error_clear(err);
    if ((rc = mv_pipeline_new(&p, &po, err)) != MV_OK)
        goto done;
    if ((rc = mv_pipeline_add_document(p, snapshot.data, snapshot.len, "demo-snapshot.json", NULL,
                                       err)) != MV_OK ||
        (rc = mv_pipeline_scan(p, 1, err)) != MV_OK)
        goto done;
    st = store_open();
    if ((rc = mv_pipeline_decide(p, st, MV_ACTOR_CLI, 1700000000, err)) != MV_OK)
        goto done;
    mv_report_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = MV_REPORT_JSON;
    ro.version = "oom";
    ro.show_clean = true;
    mv_pipeline_report_options(p, &ro);
    if ((rc = mv_report_render(out, mv_pipeline_result(p), &ro, err)) != MV_OK)
        goto done;
    mv_buf_printf(out, "\nexit %d\n", mv_pipeline_exit_code(p, &ro));
    if (out->failed)
        rc = mv_error_set(err, MV_ENOMEM, "report: out of memory");
done:
    mv_store_close(st);
    mv_pipeline_free(p);
    return rc;
}

static void pipeline_loop(bool persistent) {
    mv_buf want, got, before, after_ok, now;
    mv_error err;
    oom o;
    mv_buf_init(&want, NULL);
    mv_buf_init(&before, NULL);
    mv_buf_init(&after_ok, NULL);
    mv_buf_init(&now, NULL);
    fresh_store();
    store_state(&before);
    oom_init(&o, 0, false);
    assert_int_equal(pipeline_run(&o, &want, &err), MV_OK);
    store_state(&after_ok);
    long total = o.calls;
    assert_int_equal(o.live, 0);
    assert_true(total > 20);
    assert_false(same(&before, &after_ok)); /* the run does change the store */
    long failed = 0;
    for (long n = 1; n <= total; n++) {
        fresh_store();
        oom_init(&o, n, persistent);
        mv_buf_init(&got, NULL);
        int rc = pipeline_run(&o, &got, &err);
        store_state(&now);
        if (rc == MV_OK) {
            if (!same(&got, &want))
                fail_msg("pipeline: allocation %ld failing: success with another report", n);
            if (!same(&now, &after_ok))
                fail_msg("pipeline: allocation %ld failing: success with another store", n);
        } else {
            failed++;
            expect_enomem(rc, &err, "pipeline", n);
            if (!same(&now, &before) && !same(&now, &after_ok))
                fail_msg("pipeline: allocation %ld failing left the store half-changed", n);
        }
        if (o.live != 0)
            fail_msg("pipeline: allocation %ld failing left %ld blocks", n, o.live);
        mv_buf_release(&got);
    }
    fprintf(stderr, "pipeline (%s): %ld allocations, %ld runs ended with MV_ENOMEM\n",
            persistent ? "persistent" : "transient", total, failed);
    assert_true(failed > 0);
    mv_buf_release(&want);
    mv_buf_release(&before);
    mv_buf_release(&after_ok);
    mv_buf_release(&now);
}

static void test_pipeline_transient(void **state) {
    (void)state;
    pipeline_loop(false);
}

static void test_pipeline_persistent(void **state) {
    (void)state;
    pipeline_loop(true);
}

/* ---------------------------------------------------------------- mcp */

#define SECRET "oomsecret-7Q2xV9kk"

typedef struct script {
    const char *p, *end;
    char last_id[24];
} script;

typedef struct fake {
    mv_mcp_transport base;
    script *s;
} fake;

static void remember_id(script *s, const char *msg, size_t len) {
    static const char key[] = "\"id\":";
    for (size_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(msg + i, key, sizeof key - 1) != 0)
            continue;
        size_t j = i + sizeof key - 1, k = 0;
        while (j < len && msg[j] >= '0' && msg[j] <= '9' && k + 1 < sizeof s->last_id)
            s->last_id[k++] = msg[j++];
        s->last_id[k] = '\0';
        return;
    }
}

static int fake_send(mv_mcp_transport *t, const char *msg, size_t len, const mv_mcp_msg_info *info,
                     uint64_t deadline_ms, mv_mcp_failure *fail) {
    (void)deadline_ms;
    (void)fail;
    if (info->method != NULL && !info->notification)
        remember_id(((fake *)t)->s, msg, len);
    return 0;
}

static int fake_recv(mv_mcp_transport *t, mv_buf *out, uint64_t deadline_ms, mv_mcp_failure *fail) {
    script *s = ((fake *)t)->s;
    (void)deadline_ms;
    memset(fail, 0, sizeof *fail);
    if (s->p >= s->end) {
        fail->status = MV_MCP_CLOSED;
        snprintf(fail->reason, sizeof fail->reason, "the stream closed (" SECRET ")");
        return -1;
    }
    const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
    size_t len = nl != NULL ? (size_t)(nl - s->p) : (size_t)(s->end - s->p);
    out->len = 0;
    for (size_t i = 0; i < len; i++) {
        if (len - i >= 4 && memcmp(s->p + i, "%ID%", 4) == 0) {
            mv_buf_append(out, s->last_id, strlen(s->last_id));
            i += 3;
        } else {
            mv_buf_putc(out, s->p[i]);
        }
    }
    s->p = nl != NULL ? nl + 1 : s->end;
    return out->failed ? -1 : 1;
}

static void fake_close(mv_mcp_transport *t, mv_mcp_result *r) {
    if (r != NULL) {
        static const char text[] = "debug: token=" SECRET "\n";
        r->stderr_text = malloc(sizeof text);
        if (r->stderr_text != NULL) {
            memcpy(r->stderr_text, text, sizeof text);
            r->stderr_len = sizeof text - 1;
        }
    }
    free(t);
}

static const mv_mcp_transport_ops fake_ops = {fake_send, fake_recv, fake_close};

static int fake_open(void *arg, mv_mcp_transport **out, mv_transport kind,
                     const mv_server_config *server, const mv_mcp_limits *lim, uint64_t deadline_ms,
                     mv_mcp_failure *fail) {
    fake *f = calloc(1, sizeof *f);
    (void)server;
    (void)lim;
    (void)deadline_ms;
    (void)fail;
    if (f == NULL)
        return -1;
    f->base.ops = &fake_ops;
    f->base.kind = kind;
    f->s = arg;
    *out = &f->base;
    return 0;
}

static mv_buf session_script;

/* The fetch's outcome as bytes. */
static void describe(const mv_mcp_result *r, mv_buf *out) {
    out->len = 0;
    mv_buf_printf(out, "status %d partial %d version %s\nname %s\nversion %s\n", (int)r->status,
                  (int)r->partial, r->protocol_version,
                  r->server_name != NULL ? r->server_name : "-",
                  r->server_version != NULL ? r->server_version : "-");
    mv_buf_printf(out, "instructions %zu %.*s\nreason %s\n", r->instructions_len,
                  (int)r->instructions_len, r->instructions != NULL ? r->instructions : "",
                  r->reason);
    mv_buf_printf(out, "stderr %.*s\n", (int)r->stderr_len,
                  r->stderr_text != NULL ? r->stderr_text : "");
    const mv_buf *lists[] = {&r->tools, &r->prompts, &r->resources, &r->resource_templates};
    const size_t counts[] = {r->n_tools, r->n_prompts, r->n_resources, r->n_resource_templates};
    for (size_t i = 0; i < 4; i++) {
        mv_buf_printf(out, "list %zu: ", counts[i]);
        if (lists[i]->len > 0)
            mv_buf_append(out, lists[i]->data, lists[i]->len);
        mv_buf_putc(out, '\n');
    }
}

static int mcp_run(oom *o, mv_buf *out, mv_error *err) {
    static char name[] = "oom", command[] = "oom-server", env_name[] = "API_TOKEN",
                env_value[] = SECRET;
    mv_config_kv env = {env_name, env_value};
    mv_server_config server;
    mv_mcp_options opts;
    mv_mcp_result res;
    script s;
    memset(&server, 0, sizeof server);
    server.name = name;
    server.command = command;
    server.raw_command = command;
    server.readiness = MV_SERVER_READY;
    server.transport = MV_TRANSPORT_STDIO;
    server.env = &env;
    server.n_env = 1;
    memset(&opts, 0, sizeof opts);
    opts.allocator = &o->allocator;
    opts.startup_timeout_ms = 60000;
    opts.request_timeout_ms = 60000;
    memset(&s, 0, sizeof s);
    s.p = session_script.data;
    s.end = session_script.data + session_script.len;
    mv_error_clear(err);
    int rc = mv_mcp_fetch_with(&res, &server, &opts, fake_open, &s, err);
    if (rc == MV_OK)
        describe(&res, out);
    if (rc == MV_OK && out->failed)
        rc = mv_error_set(err, MV_ENOMEM, "out of memory");
    if (rc == MV_OK && (strstr(out->data, SECRET) != NULL))
        fail_msg("mcp: the configured secret reached the result");
    mv_mcp_result_free(&res);
    return rc;
}

static int mcp_setup(void **state) {
    char path[1024];
    mv_buf raw;
    (void)state;
    mv_buf_init(&raw, NULL);
    mv_buf_init(&session_script, NULL);
    snprintf(path, sizeof path, "%s/fuzz/corpus_session/stdio_legacy_paged.txt", src_dir());
    read_file(path, &raw);
    if (raw.len < 2)
        return -1;
    mv_buf_append(&session_script, raw.data + 1, raw.len - 1); /* the first byte: options */
    mv_buf_release(&raw);
    return 0;
}

static int mcp_teardown(void **state) {
    (void)state;
    mv_buf_release(&session_script);
    return 0;
}

static void mcp_loop(bool persistent) {
    mv_buf want, got;
    mv_error err;
    oom o;
    mv_buf_init(&want, NULL);
    oom_init(&o, 0, false);
    assert_int_equal(mcp_run(&o, &want, &err), MV_OK);
    long total = o.calls;
    assert_int_equal(o.live, 0);
    assert_true(total > 10);
    assert_non_null(strstr(want.data, "status 0 ")); /* the script is a whole, good fetch */
    assert_non_null(strstr(want.data, "\"name\":\"echo\""));
    long failed = 0;
    for (long n = 1; n <= total; n++) {
        oom_init(&o, n, persistent);
        mv_buf_init(&got, NULL);
        int rc = mcp_run(&o, &got, &err);
        if (rc == MV_OK) {
            if (!same(&got, &want))
                fail_msg("mcp: allocation %ld failing: success with another result:\n%s", n,
                         got.data);
        } else {
            failed++;
            expect_enomem(rc, &err, "mcp", n);
        }
        if (o.live != 0)
            fail_msg("mcp: allocation %ld failing left %ld blocks", n, o.live);
        mv_buf_release(&got);
    }
    fprintf(stderr, "mcp (%s): %ld allocations, %ld runs ended with MV_ENOMEM\n",
            persistent ? "persistent" : "transient", total, failed);
    assert_true(failed > 0);
    mv_buf_release(&want);
}

static void test_mcp_transient(void **state) {
    (void)state;
    mcp_loop(false);
}

static void test_mcp_persistent(void **state) {
    (void)state;
    mcp_loop(true);
}

int main(void) {
    const struct CMUnitTest pipeline_tests[] = {
        cmocka_unit_test(test_pipeline_transient),
        cmocka_unit_test(test_pipeline_persistent),
    };
    const struct CMUnitTest mcp_tests[] = {
        cmocka_unit_test(test_mcp_transient),
        cmocka_unit_test(test_mcp_persistent),
    };
    int rc = cmocka_run_group_tests_name("pipeline", pipeline_tests, pipeline_setup,
                                         pipeline_teardown);
    rc |= cmocka_run_group_tests_name("mcp", mcp_tests, mcp_setup, mcp_teardown);
    return rc;
}
