/*
 * Allocation-failure loops over representative runs, SQLite-style: a run is
 * made once with a counting allocator to learn how many allocations it
 * makes, then once per allocation N with the Nth one failing. Each run must
 * end cleanly: MV_ENOMEM (and an error record that says so) or success
 * with exactly the output of the run without failures; no block of the
 * injected allocator left live (LeakSanitizer covers the others in
 * `make check-sanitize`); and nothing half-done.
 *
 * Two failure modes: "transient" fails the Nth allocation only (code that
 * swallows one failure must still produce the right output), "persistent"
 * fails the Nth and every later one (an exhausted heap: cleanup paths run
 * without memory).
 *
 *   scan     model parse of examples/demo-snapshot.json, registry, the
 *            builtin engine's scan, and the text, JSON and SARIF reports
 *   engine   mv_engine_new with the builtin checks (every allocation when
 *            there are few, else an even sample, see ENGINE_SAMPLES)
 *   config   mv_config_discover over tests/unit/data/config/discover
 *   store    mv_store_open + mv_store_apply_scan on a copy of a store: after
 *            a failure the store holds exactly what it held before (the
 *            export, every tool's state and pins, the audit log)
 *
 * SQLite's and libyaml's own memory is not covered: they allocate with
 * their own allocators (see docs/reliability.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "fail_alloc.h"
#include "mcpvet/config.h"
#include "mcpvet/engine.h"
#include "mcpvet/model.h"
#include "mcpvet/registry.h"
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

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    size_t cap = 0;
    *len = 0;
    if (f == NULL)
        fail_msg("cannot open %s", path);
    for (;;) {
        if (*len + 4096 > cap) {
            cap = cap * 2 + 8192;
            p = realloc(p, cap);
            assert_non_null(p);
        }
        size_t n = fread(p + *len, 1, cap - *len - 1, f);
        if (n == 0)
            break;
        *len += n;
    }
    fclose(f);
    p[*len] = '\0';
    return p;
}

static void write_all(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A failed run must say it ran out of memory. */
static void expect_enomem(int rc, const mv_error *err, const char *what, long n) {
    if (rc != MV_ENOMEM)
        fail_msg("%s: allocation %ld failed, but the run returned %d (%s)", what, n, rc,
                 err->message);
    if (err->code != MV_ENOMEM)
        fail_msg("%s: allocation %ld: error record code %d, not MV_ENOMEM (%s)", what, n, err->code,
                 err->message);
}

static void expect_same(const mv_buf *got, const mv_buf *want, const char *what, long n) {
    if (got->len != want->len || memcmp(got->data, want->data, want->len) != 0) {
        const char *dump = getenv("OOM_DUMP"); /* a directory: write both outputs there */
        if (dump != NULL) {
            char p[1024];
            snprintf(p, sizeof p, "%s/%s-want", dump, what);
            write_all(p, want->data, want->len);
            snprintf(p, sizeof p, "%s/%s-got-%ld", dump, what, n);
            write_all(p, got->data, got->len);
        }
        fail_msg("%s: a run with allocation %ld failing succeeded with different output", what, n);
    }
}

/* --------------------------------------------------------------- scan */

/* The engine is built once (its rule tables are the slow part) with an
 * allocator that forwards to the run in progress, so a scan's allocations
 * inside the engine are counted and failed with the run's others. */
static oom *g_run;

static void *fwd_alloc(void *ctx, size_t size) {
    (void)ctx;
    return g_run != NULL ? g_run->allocator.alloc(g_run, size) : malloc(size);
}
static void *fwd_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)ctx;
    return g_run != NULL ? g_run->allocator.realloc(g_run, ptr, old_size, new_size) : realloc(ptr, new_size);
}
static void fwd_free(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    if (g_run != NULL)
        g_run->allocator.free(g_run, ptr, size);
    else
        free(ptr);
}
static const mv_allocator g_fwd = {fwd_alloc, fwd_realloc, fwd_free, NULL};

static mv_engine *g_engine;
static char *g_snapshot;
static size_t g_snapshot_len;

static int scan_run(oom *o, mv_buf *out, bool *degraded, mv_error *err);

static int scan_setup(void **state) {
    char path[1024];
    mv_error err;
    mv_engine_options eo;
    (void)state;
    snprintf(path, sizeof path, "%s/examples/demo-snapshot.json", src_dir());
    g_snapshot = read_all(path, &g_snapshot_len);
    memset(&eo, 0, sizeof eo);
    eo.allocator = &g_fwd;
    if (mv_engine_new(&g_engine, &eo, &err) != MV_OK)
        return -1;
    /* secret.embedded compiles a pattern on the first scan that needs it,
     * and the code then belongs to the engine (freed with it): one scan
     * first, so every counted run allocates the same blocks and frees all
     * of them. A failed first-use compile is covered by
     * unit.test_patterns_secrets (test_out_of_memory). */
    oom warm;
    oom_init(&warm, 0, false);
    mv_buf out;
    mv_buf_init(&out, &warm.allocator);
    bool degraded = false;
    int rc = scan_run(&warm, &out, &degraded, &err);
    mv_buf_release(&out);
    return rc == MV_OK ? 0 : -1;
}

static int scan_teardown(void **state) {
    (void)state;
    mv_engine_free(g_engine);
    free(g_snapshot);
    return 0;
}

/*
 * Parse, scan and render all three formats into *out with every module
 * allocating through `o` (the engine's scan-time allocations too).
 * Returns 0 or an error code with *err filled.
 */
static int scan_run(oom *o, mv_buf *out, bool *degraded, mv_error *err) {
    static const mv_report_format formats[] = {MV_REPORT_TEXT, MV_REPORT_JSON, MV_REPORT_SARIF};
    mv_model_options mo;
    mv_toolset *set = NULL;
    mv_registry *reg = NULL;
    mv_scan *s = NULL;
    int rc;
    memset(&mo, 0, sizeof mo);
    mo.allocator = &o->allocator;
    mv_error_clear(err);
    g_run = o;
    rc = mv_model_parse(&set, g_snapshot, g_snapshot_len, "demo-snapshot.json", &mo, err);
    if (rc != MV_OK)
        goto done;
    reg = mv_registry_new(&o->allocator);
    if (reg == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "registry: out of memory");
        goto done;
    }
    for (size_t i = 0; i < set->n_tools && rc == MV_OK; i++)
        rc = mv_registry_add(reg, &set->tools[i]);
    if (rc == MV_OK)
        rc = mv_registry_freeze(reg);
    if (rc != MV_OK) {
        mv_error_set(err, rc, "registry: %s", mv_strerror(rc));
        goto done;
    }
    rc = mv_scan_new(&s, g_engine, reg, err);
    if (rc == MV_OK)
        rc = mv_scan_run(s, 1, err);
    if (rc == MV_OK) {
        /* A check that ran out of memory is isolated like any failing
         * check: the scan is then degraded and must never exit clean. */
        *degraded = mv_scan_coverage(s)->degraded;
        if (*degraded && mv_report_exit_code(s, MV_VERDICT_QUARANTINE) == MV_EXIT_OK)
            fail_msg("a degraded scan exits 0");
    }
    for (size_t f = 0; rc == MV_OK && f < 3; f++) {
        mv_report_options ro;
        memset(&ro, 0, sizeof ro);
        ro.format = formats[f];
        ro.version = "oom";
        ro.show_clean = true;
        ro.engine = g_engine;
        rc = mv_report_render(out, s, &ro, err);
    }
done:
    mv_scan_free(s);
    mv_registry_free(reg);
    mv_toolset_free(set);
    g_run = NULL;
    return rc;
}

static void scan_loop(bool persistent) {
    mv_buf want, got;
    mv_error err;
    oom o;
    oom_init(&o, 0, false);
    mv_buf_init(&want, &o.allocator);
    bool degraded = false;
    assert_int_equal(scan_run(&o, &want, &degraded, &err), MV_OK);
    assert_false(degraded);
    long total = o.calls;
    mv_buf copy;
    mv_buf_init(&copy, NULL);
    mv_buf_append(&copy, want.data, want.len);
    mv_buf_release(&want);
    assert_int_equal(o.live, 0);
    assert_true(total > 50); /* every module really allocates through it */
    long n_degraded = 0;
    for (long n = 1; n <= total; n++) {
        oom_init(&o, n, persistent);
        mv_buf_init(&got, &o.allocator);
        degraded = false;
        int rc = scan_run(&o, &got, &degraded, &err);
        if (got.failed && rc == MV_OK)
            fail_msg("scan: allocation %ld: the report buffer failed, the run succeeded", n);
        if (rc == MV_OK && degraded)
            n_degraded++;
        else if (rc == MV_OK)
            expect_same(&got, &copy, "scan", n);
        else
            expect_enomem(rc, &err, "scan", n);
        mv_buf_release(&got);
        if (o.live != 0)
            fail_msg("scan: allocation %ld failing left %ld blocks", n, o.live);
    }
    fprintf(stderr, "scan (%s): %ld allocations, %ld runs degraded by a failing check\n",
            persistent ? "persistent" : "transient", total, n_degraded);
    mv_buf_release(&copy);
}

static void test_scan_transient(void **state) {
    (void)state;
    scan_loop(false);
}

static void test_scan_persistent(void **state) {
    (void)state;
    scan_loop(true);
}

/* ------------------------------------------------------------- engine */

/* Engine start-up allocates few large tables; sample evenly past this. */
#define ENGINE_SAMPLES 400

/* The text report of the demo snapshot scanned by `e` (default allocator
 * for everything but the engine's own, disarmed, allocator); returns
 * whether the scan was degraded by a failed check (exit code 3). */
static bool scan_with(const mv_engine *e, mv_buf *text) {
    mv_toolset *set = NULL;
    mv_registry *reg = NULL;
    mv_scan *s = NULL;
    mv_error err;
    mv_report_options ro;
    bool degraded;
    assert_int_equal(
        mv_model_parse(&set, g_snapshot, g_snapshot_len, "demo-snapshot.json", NULL, &err), MV_OK);
    reg = mv_registry_new(NULL);
    assert_non_null(reg);
    for (size_t i = 0; i < set->n_tools; i++)
        assert_int_equal(mv_registry_add(reg, &set->tools[i]), MV_OK);
    assert_int_equal(mv_registry_freeze(reg), MV_OK);
    assert_int_equal(mv_scan_new(&s, e, reg, &err), MV_OK);
    assert_int_equal(mv_scan_run(s, 1, &err), MV_OK);
    degraded = mv_scan_coverage(s)->checks_failed > 0;
    if (degraded)
        assert_int_not_equal(mv_report_exit_code(s, MV_VERDICT_QUARANTINE), MV_EXIT_OK);
    memset(&ro, 0, sizeof ro);
    ro.version = "oom";
    ro.show_clean = true;
    text->len = 0;
    assert_int_equal(mv_report_render(text, s, &ro, &err), MV_OK);
    mv_scan_free(s);
    mv_registry_free(reg);
    mv_toolset_free(set);
    return degraded;
}

static void test_engine_new(void **state) {
    (void)state;
    oom o;
    mv_engine *e = NULL;
    mv_error err;
    mv_engine_options eo;
    memset(&eo, 0, sizeof eo);
    oom_init(&o, 0, false);
    eo.allocator = &o.allocator;
    assert_int_equal(mv_engine_new(&e, &eo, &err), MV_OK);
    size_t checks = mv_engine_check_count(e);
    mv_buf want, got;
    mv_buf_init(&want, NULL);
    mv_buf_init(&got, NULL);
    o.paused = true;
    assert_false(scan_with(e, &want));
    mv_engine_free(e);
    assert_int_equal(o.live, 0);
    long total = o.calls;
    long step = total > ENGINE_SAMPLES ? total / ENGINE_SAMPLES : 1;
    long degraded = 0;
    fprintf(stderr, "engine: %ld allocations, every %ld tried\n", total, step);
    for (int persistent = 0; persistent < 2; persistent++) {
        for (long n = 1; n <= total; n += step) {
            oom_init(&o, n, persistent != 0);
            eo.allocator = &o.allocator;
            mv_error_clear(&err);
            e = NULL;
            int rc = mv_engine_new(&e, &eo, &err);
            if (rc == MV_OK) {
                /* A builtin whose init fails is recorded, not fatal
                 * (engine.h): the engine lists every check, and a scan
                 * with it is degraded, never clean; or the failure was
                 * absorbed and the scan is exactly the normal one. */
                assert_int_equal(mv_engine_check_count(e), checks);
                o.paused = true;
                if (scan_with(e, &got))
                    degraded++;
                else
                    expect_same(&got, &want, "engine", n); /* e.g. PCRE2 JIT refused */
            } else {
                expect_enomem(rc, &err, "engine", n);
                assert_null(e);
            }
            mv_engine_free(e);
            if (o.live != 0)
                fail_msg("engine: allocation %ld failing left %ld blocks", n, o.live);
        }
    }
    fprintf(stderr, "engine: %ld runs built an engine with a failed check, scans degraded\n",
            degraded);
    mv_buf_release(&want);
    mv_buf_release(&got);
}

/* ------------------------------------------------------------- config */

static const char *no_env(void *arg, const char *name) {
    (void)arg;
    (void)name;
    return NULL;
}

/* Discover the fixture tree (read in place) with `alloc`; every server
 * described, one per line, into *out. */
static int discover_run(const mv_allocator *alloc, mv_buf *out, mv_error *err) {
    char home[1024], appdata[1024], sys[1024], project[1024];
    mv_config_env env;
    mv_config_set *set = NULL;
    const char *root = src_dir();
    snprintf(home, sizeof home, "%s/tests/unit/data/config/discover/home", root);
    snprintf(appdata, sizeof appdata, "%s/tests/unit/data/config/discover/appdata", root);
    snprintf(sys, sizeof sys, "%s/tests/unit/data/config/discover/system", root);
    snprintf(project, sizeof project, "%s/tests/unit/data/config/discover/project", root);
    memset(&env, 0, sizeof env);
    env.home = home;
    env.appdata = appdata;
    env.system_dir = sys;
    env.cwd = project;
    env.getenv_fn = no_env;
    env.alloc = alloc;
    mv_error_clear(err);
    int rc = mv_config_discover(&set, &env, err);
    if (rc != MV_OK) {
        if (set != NULL)
            fail_msg("config: a failed discovery returned a set");
        return rc;
    }
    for (size_t i = 0; i < set->n_servers; i++) {
        mv_config_describe(out, &set->servers[i]);
        mv_buf_printf(out, " [%s %s]\n", set->servers[i].client,
                      mv_server_readiness_name(set->servers[i].readiness));
    }
    for (size_t i = 0; i < set->n_files; i++)
        mv_buf_printf(out, "file %s %d\n", set->files[i].path, set->files[i].status);
    mv_config_set_free(set);
    return MV_OK;
}

static void test_config_discover(void **state) {
    (void)state;
    oom o;
    mv_buf want, got;
    mv_error err;
    oom_init(&o, 0, false);
    mv_buf_init(&want, NULL);
    assert_int_equal(discover_run(&o.allocator, &want, &err), MV_OK);
    assert_int_equal(o.live, 0);
    long total = o.calls;
    assert_true(total > 50);
    assert_non_null(strstr(want.data, "[claude-desktop ready]"));
    for (int persistent = 0; persistent < 2; persistent++) {
        for (long n = 1; n <= total; n++) {
            oom_init(&o, n, persistent != 0);
            mv_buf_init(&got, NULL);
            int rc = discover_run(&o.allocator, &got, &err);
            if (rc == MV_OK)
                expect_same(&got, &want, "config", n);
            else
                expect_enomem(rc, &err, "config", n);
            mv_buf_release(&got);
            if (o.live != 0)
                fail_msg("config: allocation %ld failing left %ld blocks", n, o.live);
        }
    }
    fprintf(stderr, "config: %ld allocations\n", total);
    mv_buf_release(&want);
}

/* -------------------------------------------------------------- store */

static char g_dir[256], g_template[320], g_work[320];
static bool g_with_sqlite; /* also fail SQLite's allocations */

static int64_t fixed_clock(void *arg) {
    (void)arg;
    return 1750000000;
}

#define DEF(name, desc)                                                                            \
    "{\"description\":\"" desc "\",\"inputSchema\":{\"properties\":{\"x\":{\"type\":"              \
    "\"string\"}},\"type\":\"object\"},\"name\":\"" name "\"}"

typedef struct item_spec {
    const char *name, *def;
    mv_verdict verdict;
} item_spec;

static int apply(mv_store *st, const item_spec *specs, size_t n, mv_buf *states, mv_error *err) {
    mv_scan_item items[8];
    mv_scan_server sv;
    mv_store_scan_result *r = NULL;
    memset(items, 0, sizeof items);
    for (size_t i = 0; i < n; i++) {
        items[i].name = (mv_str){specs[i].name, strlen(specs[i].name)};
        items[i].kind = MV_ITEM_TOOL;
        items[i].definition = (mv_str){specs[i].def, strlen(specs[i].def)};
        items[i].verdict = specs[i].verdict;
        if (specs[i].verdict == MV_VERDICT_QUARANTINE)
            items[i].findings = MV_STR_LIT("[{\"check\":\"unicode.hidden\"}]");
    }
    memset(&sv, 0, sizeof sv);
    sv.ident.name = "srv";
    sv.ident.transport = "stdio";
    sv.ident.command = "cmd";
    sv.items = items;
    sv.n_items = n;
    int rc = mv_store_apply_scan(st, &sv, 1, 1760000000, MV_ACTOR_CLI, &r, err);
    if (rc == MV_OK && states != NULL) {
        for (size_t i = 0; i < r->servers[0].n_items; i++)
            mv_buf_printf(states, "%s %s %s %u\n", specs[i].name,
                          mv_tool_state_name(r->servers[0].items[i].previous),
                          mv_tool_state_name(r->servers[0].items[i].state),
                          r->servers[0].items[i].changed_fields);
        for (size_t i = 0; i < r->servers[0].n_removed; i++)
            mv_buf_printf(states, "removed %.*s\n", (int)r->servers[0].removed[i].len,
                          r->servers[0].removed[i].ptr);
        mv_buf_printf(states, "transitions %zu\n", r->n_transitions);
    }
    mv_store_scan_result_free(r);
    return rc;
}

static mv_store *open_with(const char *path, const mv_allocator *alloc, bool create, int *rc,
                           mv_error *err) {
    mv_store *st = NULL;
    mv_store_options so;
    memset(&so, 0, sizeof so);
    so.allocator = alloc;
    so.create = create;
    so.clock = fixed_clock;
    mv_error_clear(err);
    *rc = mv_store_open(&st, path, &so, err);
    return st;
}

/* What the store holds, as bytes (opened with the default allocator). */
static void store_dump(const char *path, mv_buf *out) {
    mv_error err;
    int rc;
    mv_store *st = open_with(path, NULL, false, &rc, &err);
    mv_store_tool_list *l = NULL;
    mv_store_event_list *ev = NULL;
    mv_store_filter f;
    if (rc != MV_OK)
        fail_msg("store: reopen %s: %s", path, err.message);
    out->len = 0;
    assert_int_equal(mv_store_export(st, out, &err), MV_OK);
    memset(&f, 0, sizeof f);
    f.definitions = true;
    assert_int_equal(mv_store_list(st, &f, &l, &err), MV_OK);
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_tool *t = &l->tools[i];
        mv_buf_printf(out, "%s/%s %s %s %s %s %s %lld\n", t->server, t->name,
                      mv_tool_state_name(t->state), t->approved_pin ? t->approved_pin : "-",
                      t->current_pin ? t->current_pin : "-",
                      t->current_definition ? t->current_definition : "-",
                      t->verdict ? t->verdict : "-", (long long)t->last_seen);
    }
    mv_store_tool_list_free(l);
    assert_int_equal(mv_store_history(st, NULL, NULL, 0, &ev, &err), MV_OK);
    for (size_t i = 0; i < ev->n; i++)
        mv_buf_printf(out, "event %lld %s %s\n", (long long)ev->events[i].id,
                      ev->events[i].tool ? ev->events[i].tool : "-",
                      ev->events[i].new_state ? ev->events[i].new_state : "-");
    mv_store_event_list_free(ev);
    mv_store_close(st);
}

static void remove_store(const char *path) {
    char p[400];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

static int store_setup(void **state) {
    static const item_spec first[] = {
        {"add", DEF("add", "Adds two numbers."), MV_VERDICT_CLEAN},
        {"echo", DEF("echo", "Echoes the input."), MV_VERDICT_CLEAN},
        {"wipe", DEF("wipe", "Deletes everything."), MV_VERDICT_QUARANTINE},
        {"gone", DEF("gone", "Soon removed."), MV_VERDICT_CLEAN},
    };
    static const char *const approve[] = {"add", "gone"};
    mv_error err;
    int rc;
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/mcpvet-oom-XXXXXX");
    if (mkdtemp(g_dir) == NULL)
        return -1;
    snprintf(g_template, sizeof g_template, "%s/template.db", g_dir);
    snprintf(g_work, sizeof g_work, "%s/work.db", g_dir);
    mv_store *st = open_with(g_template, NULL, true, &rc, &err);
    if (rc != MV_OK || apply(st, first, 4, NULL, &err) != MV_OK ||
        mv_store_approve(st, "srv", approve, 2, false, MV_ACTOR_CLI, "ok", NULL, &err) != MV_OK)
        return -1;
    mv_store_close(st);
    return 0;
}

static int store_teardown(void **state) {
    (void)state;
    remove_store(g_template);
    remove_store(g_work);
    rmdir(g_dir);
    return 0;
}

static void copy_template(void) {
    size_t len;
    char *data = read_all(g_template, &len);
    remove_store(g_work);
    write_all(g_work, data, len);
    free(data);
}

/* SQLite's own memory, routed to the run in progress while one is set
 * (installed in main, before SQLite initializes): the store's loops then
 * also fail every allocation SQLite makes for it. Blocks carry their size
 * in a header (xSize). */
static oom *g_sqlite_run;

#define SQL_HDR 16

static void *sql_malloc(int n) {
    if (g_sqlite_run != NULL && fail_alloc_refuse(g_sqlite_run))
        return NULL;
    char *p = malloc((size_t)n + SQL_HDR);
    if (p == NULL)
        return NULL;
    memcpy(p, &n, sizeof n);
    p[sizeof n] = g_sqlite_run != NULL; /* counted in the run's live blocks */
    if (p[sizeof n])
        g_sqlite_run->live++;
    return p + SQL_HDR;
}

static void sql_free(void *q) {
    char *p;
    if (q == NULL)
        return;
    p = (char *)q - SQL_HDR;
    if (p[sizeof(int)] && g_sqlite_run != NULL)
        g_sqlite_run->live--;
    free(p);
}

static int sql_size(void *q) {
    int n;
    memcpy(&n, (char *)q - SQL_HDR, sizeof n);
    return n;
}

static void *sql_realloc(void *q, int n) {
    if (g_sqlite_run != NULL && fail_alloc_refuse(g_sqlite_run))
        return NULL;
    char *p = realloc((char *)q - SQL_HDR, (size_t)n + SQL_HDR);
    if (p == NULL)
        return NULL;
    memcpy(p, &n, sizeof n);
    return p + SQL_HDR;
}

static int sql_roundup(int n) {
    return (n + 7) & ~7;
}

static int sql_init(void *arg) {
    (void)arg;
    return SQLITE_OK;
}

static void sql_shutdown(void *arg) {
    (void)arg;
}

static const sqlite3_mem_methods sql_methods = {sql_malloc,  sql_free, sql_realloc,  sql_size,
                                                sql_roundup, sql_init, sql_shutdown, NULL};

/* Open a copy of the template with `o` and apply the second scan: add
 * changed (a rug pull), echo unchanged, wipe still quarantined, a new
 * tool, and gone no longer advertised. */
static int store_run(oom *o, mv_buf *states, mv_error *err) {
    static const item_spec second[] = {
        {"add", DEF("add", "Adds two numbers. Also reads ~/.ssh."), MV_VERDICT_CLEAN},
        {"echo", DEF("echo", "Echoes the input."), MV_VERDICT_CLEAN},
        {"wipe", DEF("wipe", "Deletes everything."), MV_VERDICT_QUARANTINE},
        {"fresh", DEF("fresh", "A new tool."), MV_VERDICT_CLEAN},
    };
    int rc;
    copy_template();
    g_sqlite_run = g_with_sqlite ? o : NULL;
    mv_store *st = open_with(g_work, &o->allocator, false, &rc, err);
    if (rc == MV_OK) {
        rc = apply(st, second, 4, states, err);
        mv_store_close(st);
    } else if (st != NULL) {
        fail_msg("store: a failed open returned a handle");
    }
    g_sqlite_run = NULL;
    return rc;
}

static void store_loop(void) {
    oom o;
    mv_buf before, after, want_states, dump, states;
    mv_error err;
    size_t tlen;
    char *template_bytes = read_all(g_template, &tlen);
    mv_buf_init(&before, NULL);
    mv_buf_init(&after, NULL);
    mv_buf_init(&want_states, NULL);
    mv_buf_init(&dump, NULL);
    mv_buf_init(&states, NULL);
    store_dump(g_template, &before);
    oom_init(&o, 0, false);
    assert_int_equal(store_run(&o, &want_states, &err), MV_OK);
    assert_int_equal(o.live, 0);
    long total = o.calls;
    assert_true(total > 20);
    store_dump(g_work, &after);
    assert_non_null(strstr(want_states.data, "add approved changed"));
    assert_non_null(strstr(want_states.data, "removed gone"));
    assert_true(after.len != before.len || memcmp(after.data, before.data, after.len) != 0);
    for (int persistent = 0; persistent < 2; persistent++) {
        for (long n = 1; n <= total; n++) {
            oom_init(&o, n, persistent != 0);
            states.len = 0;
            int rc = store_run(&o, &states, &err);
            if (o.live != 0)
                fail_msg("store: allocation %ld failing left %ld blocks", n, o.live);
            store_dump(g_work, &dump);
            if (rc == MV_OK) {
                expect_same(&states, &want_states, "store-states", n);
                expect_same(&dump, &after, "store-after", n);
                continue;
            }
            expect_enomem(rc, &err, "store", n);
            if (strstr(err.message, "out of memory") == NULL)
                fail_msg("store: allocation %ld: message \"%s\"", n, err.message);
            /* Nothing half-done: the same logical content, and the very
             * same bytes in the database file. */
            expect_same(&dump, &before, "store-unchanged", n);
            size_t wlen;
            char *work = read_all(g_work, &wlen);
            if (wlen != tlen || memcmp(work, template_bytes, tlen) != 0)
                fail_msg("store: allocation %ld failing changed the database file", n);
            free(work);
        }
    }
    fprintf(stderr, "store%s: %ld allocations\n", g_with_sqlite ? " with SQLite" : "", total);
    free(template_bytes);
    mv_buf_release(&before);
    mv_buf_release(&after);
    mv_buf_release(&want_states);
    mv_buf_release(&dump);
    mv_buf_release(&states);
}

static void test_store_update(void **state) {
    (void)state;
    g_with_sqlite = false;
    store_loop();
}

static void test_store_update_sqlite(void **state) {
    (void)state;
    g_with_sqlite = true;
    store_loop();
    g_with_sqlite = false;
}

int main(void) {
    /* Before anything initializes SQLite. */
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &sql_methods) != SQLITE_OK) {
        fprintf(stderr, "test_oom: cannot install the SQLite allocator\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scan_transient, scan_setup, scan_teardown),
        cmocka_unit_test_setup_teardown(test_scan_persistent, scan_setup, scan_teardown),
        cmocka_unit_test_setup_teardown(test_engine_new, scan_setup, scan_teardown),
        cmocka_unit_test(test_config_discover),
        cmocka_unit_test_setup_teardown(test_store_update, store_setup, store_teardown),
        cmocka_unit_test_setup_teardown(test_store_update_sqlite, store_setup, store_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
