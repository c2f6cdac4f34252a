/*
 * Engine tests: check ordering and isolation (a failing check never aborts
 * the scan, SC-005), caps recorded, deterministic output for any number of
 * threads, evidence made render-safe, out-of-memory paths.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fail_alloc.h"
#include "mcpvet/buf.h"
#include "mcpvet/engine.h"
#include "tool_builder.h"

/* ------------------------------------------------------- test checks */

static bool desc_contains(const mv_tool *t, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= t->description.len; i++)
        if (memcmp(t->description.ptr + i, needle, n) == 0)
            return true;
    return false;
}

/* Soft signal on tools whose description mentions "soft". */
static int inspect_soft(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    if (!desc_contains(t, "soft"))
        return 0;
    mv_signal_spec s = {MV_TIER_SOFT,       MV_THREAT_PROMPT_INJECTION,   0.6, false, 1, 0, 4,
                        MV_STR_LIT("soft"), MV_STR_LIT("soft word seen"), 0};
    return mv_emit(out, &s);
}
static const mv_check check_soft = {"test.soft", MV_TIER_SOFT, NULL,        NULL,
                                    NULL,        NULL,         inspect_soft};

/* A second, independent soft check on "also". */
static int inspect_also(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    if (!desc_contains(t, "also"))
        return 0;
    mv_signal_spec s = {MV_TIER_SOFT,       MV_THREAT_EXFILTRATION,  0.5, false, 1, 0, 4,
                        MV_STR_LIT("also"), MV_STR_LIT("also seen"), 0};
    return mv_emit(out, &s);
}
static const mv_check check_also = {"test.also", MV_TIER_SOFT, NULL,        NULL,
                                    NULL,        NULL,         inspect_also};

/* Hard signal on "hard"; emits several signals in reverse order. */
static int inspect_hard(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    if (!desc_contains(t, "hard"))
        return 0;
    for (int i = 2; i >= 0; i--) {
        mv_signal_spec s = {MV_TIER_HARD,
                            MV_THREAT_TOOL_POISONING,
                            0.9,
                            false,
                            1,
                            (uint32_t)(10 * i),
                            1,
                            MV_STR_LIT("h\x1b[31mx"),
                            MV_STR_LIT("hard thing"),
                            0};
        int rc = mv_emit(out, &s);
        if (rc != 0)
            return rc;
    }
    return 0;
}
static const mv_check check_hard = {"test.hard", MV_TIER_HARD, NULL,        NULL,
                                    NULL,        NULL,         inspect_hard};

/* Emits a signal, then fails on tools whose description mentions "boom". */
static int inspect_boom(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    mv_signal_spec s = {MV_TIER_HARD,          MV_THREAT_MALICIOUS_CODE,        1.0, true, 0, 0, 0,
                        MV_STR_LIT("partial"), MV_STR_LIT("must be discarded"), 0};
    if (!desc_contains(t, "boom"))
        return 0;
    mv_emit(out, &s);
    return MV_ECHECK;
}
static const mv_check check_boom = {"test.boom", MV_TIER_HARD, NULL,        NULL,
                                    NULL,        NULL,         inspect_boom};

static int init_fails(const mv_allocator *a, void **state) {
    (void)a;
    (void)state;
    return MV_ECHECK;
}
static int inspect_never(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    (void)t;
    (void)out;
    fail_msg("inspect must not run when init failed");
    return 0;
}
static const mv_check check_bad_init = {"test.bad_init", MV_TIER_HARD, init_fails, NULL, NULL, NULL,
                                        inspect_never};

static int prepare_fails(void *st, const mv_registry *r, const mv_allocator *a, void **rs) {
    (void)st;
    (void)r;
    (void)a;
    (void)rs;
    return MV_ENOMEM;
}
static const mv_check check_bad_prepare = {"test.bad_prepare", MV_TIER_HARD, NULL,         NULL,
                                           prepare_fails,      NULL,         inspect_never};

/* Emits far more signals than the cap allows. */
static int inspect_flood(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    (void)t;
    for (int i = 0; i < 100; i++) {
        mv_signal_spec s = {MV_TIER_SOFT,    MV_THREAT_UNCATEGORIZED, 0.3, false, 0, (uint32_t)i, 1,
                            MV_STR_LIT("x"), MV_STR_LIT("flood"),     0};
        int rc = mv_emit(out, &s);
        if (rc != 0)
            return rc;
    }
    return 0;
}
static const mv_check check_flood = {"test.flood", MV_TIER_SOFT, NULL,         NULL,
                                     NULL,         NULL,         inspect_flood};

/* Records an own cap and clamps odd confidences. */
static int inspect_capper(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)ctx;
    (void)t;
    mv_emit_cap(out, "test_candidates", 8, 9);
    mv_signal_spec s = {MV_TIER_INFO,       MV_THREAT_UNCATEGORIZED, NAN, false, -1, 0, 0,
                        MV_STR_LIT("info"), MV_STR_LIT("note"),      0};
    return mv_emit(out, &s);
}
static const mv_check check_capper = {"test.capper", MV_TIER_INFO, NULL,          NULL,
                                      NULL,          NULL,         inspect_capper};

/* Checks see the normalized view of every field. */
static int inspect_norm(const mv_inspect_ctx *ctx, const mv_tool *t, mv_emitter *out) {
    (void)out;
    assert_int_equal(ctx->norm[0].len, t->fields[0].text.len); /* ASCII name, no change */
    if (t->n_fields > 1 && strstr(ctx->norm[1].text, "do not tell") != NULL) {
        mv_signal_spec s = {MV_TIER_SOFT,
                            MV_THREAT_PROMPT_INJECTION,
                            0.7,
                            false,
                            1,
                            ctx->norm[1].raw_offset[0],
                            0,
                            MV_STR_LIT("n"),
                            MV_STR_LIT("normalized match"),
                            0};
        return mv_emit(out, &s);
    }
    return 0;
}
static const mv_check check_norm = {"test.norm", MV_TIER_SOFT, NULL,        NULL,
                                    NULL,        NULL,         inspect_norm};

/* ------------------------------------------------------------ fixture */

typedef struct fixture {
    mv_arena *arena;
    mv_registry *registry;
    mv_engine *engine;
    mv_scan *scan;
} fixture;

static void fixture_tools(fixture *f, const char *const *descs, size_t n) {
    f->arena = mv_arena_new(NULL, 0);
    f->registry = mv_registry_new(NULL);
    assert_non_null(f->arena);
    assert_non_null(f->registry);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof(name), "tool_%zu", i);
        mv_tool *t = tb_tool(f->arena, i % 2 ? "beta" : "alpha", name, descs[i]);
        assert_int_equal(mv_registry_add(f->registry, t), 0);
    }
    assert_int_equal(mv_registry_freeze(f->registry), 0);
}

static void fixture_engine(fixture *f, const mv_check *const *checks, size_t n,
                           const mv_engine_limits *limits) {
    mv_engine_options o;
    memset(&o, 0, sizeof(o));
    o.no_builtin_checks = true;
    if (limits != NULL)
        o.limits = *limits;
    mv_error err;
    assert_int_equal(mv_engine_new(&f->engine, &o, &err), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(mv_engine_add_check(f->engine, checks[i], &err), 0);
}

static void fixture_run(fixture *f, unsigned jobs) {
    mv_error err;
    assert_int_equal(mv_scan_new(&f->scan, f->engine, f->registry, &err), 0);
    assert_int_equal(mv_scan_run(f->scan, jobs, &err), 0);
}

static void fixture_free(fixture *f) {
    mv_scan_free(f->scan);
    mv_engine_free(f->engine);
    mv_registry_free(f->registry);
    mv_arena_free(f->arena);
    memset(f, 0, sizeof(*f));
}

/* Serialise everything a scan produced, to compare runs byte for byte. */
static void dump_scan(const mv_scan *s, mv_buf *b) {
    for (size_t i = 0; i < mv_scan_finding_count(s); i++) {
        const mv_finding *fd = mv_scan_finding(s, i);
        mv_buf_printf(b, "%u %s %s %s %.6f %d [", fd->tool_index, mv_verdict_name(fd->verdict),
                      mv_severity_name(fd->severity), mv_threat_name(fd->threat), fd->confidence,
                      fd->risk);
        for (uint32_t k = 0; k < fd->n_signals; k++) {
            const mv_signal *sg = &fd->signals[k];
            mv_buf_printf(b, "(%s %s %d %u %.*s %.*s)", sg->check_id, mv_tier_name(sg->tier),
                          sg->field, sg->offset, (int)sg->evidence.len, sg->evidence.ptr,
                          (int)sg->detail.len, sg->detail.ptr);
        }
        mv_buf_puts(b, "]\n");
    }
    const mv_coverage *c = mv_scan_coverage(s);
    mv_buf_printf(b, "cov %u %u %u %llu %u\n", c->checks_total, c->checks_run, c->checks_failed,
                  (unsigned long long)c->check_failures, c->n_caps);
    for (uint32_t k = 0; k < c->n_caps; k++)
        mv_buf_printf(b, "cap %s %lld\n", c->caps[k].cap, (long long)c->caps[k].tool_index);
}

/* --------------------------------------------------------------- tests */

static void test_verdicts_follow_tiers(void **state) {
    (void)state;
    static const char *const descs[] = {"plain text", "a soft word", "a soft word also",
                                        "hard evidence", "hard and soft"};
    const mv_check *checks[] = {&check_hard, &check_soft, &check_also};
    fixture f = {0};
    fixture_tools(&f, descs, 5);
    fixture_engine(&f, checks, 3, NULL);
    fixture_run(&f, 1);

    assert_int_equal(mv_scan_finding_count(f.scan), 5);
    const mv_finding *clean = mv_scan_finding(f.scan, 0);
    assert_int_equal(clean->verdict, MV_VERDICT_CLEAN);
    assert_int_equal(clean->risk, 0);
    assert_int_equal(clean->n_signals, 0);

    const mv_finding *one_soft = mv_scan_finding(f.scan, 1);
    assert_int_equal(one_soft->verdict, MV_VERDICT_REVIEW);
    assert_int_equal(one_soft->severity, MV_SEVERITY_LOW);
    assert_int_equal(one_soft->level, MV_LEVEL_WARNING);

    const mv_finding *two_soft = mv_scan_finding(f.scan, 2);
    assert_int_equal(two_soft->verdict, MV_VERDICT_REVIEW);
    assert_int_equal(two_soft->severity, MV_SEVERITY_MEDIUM);
    assert_true(two_soft->confidence > one_soft->confidence);
    assert_true(two_soft->risk > one_soft->risk);
    assert_int_equal(two_soft->n_checks, 2);
    /* Contributing checks in engine order. */
    assert_string_equal(two_soft->checks[0], "test.soft");
    assert_string_equal(two_soft->checks[1], "test.also");

    const mv_finding *hard = mv_scan_finding(f.scan, 3);
    assert_int_equal(hard->verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(hard->level, MV_LEVEL_DANGEROUS);
    assert_int_equal(hard->severity, MV_SEVERITY_HIGH);
    assert_int_equal(hard->threat, MV_THREAT_TOOL_POISONING);
    /* Signals come out sorted by offset although emitted in reverse. */
    assert_int_equal(hard->n_signals, 3);
    assert_int_equal(hard->signals[0].offset, 0);
    assert_int_equal(hard->signals[1].offset, 10);
    assert_int_equal(hard->signals[2].offset, 20);
    /* Evidence is render-safe: no raw ESC. */
    assert_null(memchr(hard->signals[0].evidence.ptr, 0x1b, hard->signals[0].evidence.len));
    assert_memory_equal(hard->signals[0].evidence.ptr, "h\\u001B[31mx", 12);
    assert_string_equal(hard->signals[0].field_path.ptr, "description");

    const mv_finding *both = mv_scan_finding(f.scan, 4);
    assert_int_equal(both->verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(both->severity, MV_SEVERITY_CRITICAL); /* two checks agree */
    assert_true(both->risk >= hard->risk);

    const mv_coverage *c = mv_scan_coverage(f.scan);
    assert_int_equal(c->checks_total, 3);
    assert_int_equal(c->checks_run, 3);
    assert_int_equal(c->checks_failed, 0);
    assert_false(c->degraded);

    mv_scan_summary sum = mv_scan_summarize(f.scan);
    assert_int_equal(sum.tools, 5);
    assert_int_equal(sum.clean, 1);
    assert_int_equal(sum.review, 2);
    assert_int_equal(sum.quarantine, 2);
    assert_int_equal(sum.worst, MV_VERDICT_QUARANTINE);
    assert_int_equal(sum.partial, 0);
    fixture_free(&f);
}

/* SC-005: a check that fails on one tool loses only its own signals there;
 * every tool is still scanned and the scan says it is degraded. */
static void test_failing_check_is_isolated(void **state) {
    (void)state;
    static const char *const descs[] = {"soft one", "soft boom", "hard thing", "boom hard"};
    const mv_check *checks[] = {&check_boom, &check_soft, &check_hard};
    fixture f = {0};
    fixture_tools(&f, descs, 4);
    fixture_engine(&f, checks, 3, NULL);
    fixture_run(&f, 2);

    assert_int_equal(mv_scan_finding_count(f.scan), 4);
    const mv_finding *t1 = mv_scan_finding(f.scan, 1);
    assert_int_equal(t1->verdict, MV_VERDICT_REVIEW); /* boom's hard signal discarded */
    assert_int_equal(t1->n_signals, 1);
    assert_string_equal(t1->signals[0].check_id, "test.soft");
    assert_int_equal(t1->n_failed_checks, 1);
    assert_string_equal(t1->failed_checks[0], "test.boom");

    const mv_finding *t3 = mv_scan_finding(f.scan, 3);
    assert_int_equal(t3->verdict, MV_VERDICT_QUARANTINE); /* later checks still ran */
    for (uint32_t k = 0; k < t3->n_signals; k++)
        assert_string_not_equal(t3->signals[k].check_id, "test.boom");

    assert_int_equal(mv_scan_finding(f.scan, 0)->n_failed_checks, 0);

    const mv_coverage *c = mv_scan_coverage(f.scan);
    assert_int_equal(c->tools_scanned, 4);
    assert_int_equal(c->checks_total, 3);
    assert_int_equal(c->checks_failed, 1);
    assert_int_equal(c->checks_run, 2);
    assert_int_equal(c->check_failures, 2);
    assert_string_equal(c->failed_ids[0], "test.boom");
    assert_true(c->degraded);
    mv_scan_summary sum = mv_scan_summarize(f.scan);
    assert_int_equal(sum.partial, 2); /* the two tools where test.boom failed */
    fixture_free(&f);
}

static void test_init_and_prepare_failures_are_recorded(void **state) {
    (void)state;
    static const char *const descs[] = {"soft", "plain"};
    const mv_check *checks[] = {&check_bad_init, &check_soft, &check_bad_prepare};
    fixture f = {0};
    fixture_tools(&f, descs, 2);
    fixture_engine(&f, checks, 3, NULL);
    fixture_run(&f, 1);
    const mv_coverage *c = mv_scan_coverage(f.scan);
    assert_int_equal(c->checks_failed, 2);
    assert_string_equal(c->failed_ids[0], "test.bad_init");
    assert_string_equal(c->failed_ids[1], "test.bad_prepare");
    assert_true(c->degraded);
    const mv_finding *t0 = mv_scan_finding(f.scan, 0);
    assert_int_equal(t0->verdict, MV_VERDICT_REVIEW);
    assert_int_equal(t0->n_failed_checks, 2);
    fixture_free(&f);

    /* Even an empty registry reports a check that could not start. */
    fixture g = {0};
    fixture_tools(&g, NULL, 0);
    fixture_engine(&g, checks, 1, NULL);
    fixture_run(&g, 1);
    assert_int_equal(mv_scan_coverage(g.scan)->checks_failed, 1);
    assert_true(mv_scan_coverage(g.scan)->degraded);
    fixture_free(&g);
}

static void test_caps_are_recorded(void **state) {
    (void)state;
    static const char *const descs[] = {"x", "y"};
    const mv_check *checks[] = {&check_flood, &check_capper};
    mv_engine_limits lim = {4, 0, 0, 0};
    fixture f = {0};
    fixture_tools(&f, descs, 2);
    fixture_engine(&f, checks, 2, &lim);
    fixture_run(&f, 1);
    const mv_finding *t0 = mv_scan_finding(f.scan, 0);
    assert_int_equal(t0->n_signals, 4);       /* flood stopped at the cap, capper's info dropped */
    assert_int_equal(t0->n_failed_checks, 0); /* hitting the cap is not a failure */
    assert_int_equal(t0->n_caps, 2);          /* the engine's signal cap and the check's own cap */
    const mv_coverage *c = mv_scan_coverage(f.scan);
    assert_true(c->degraded);
    assert_int_equal(c->checks_failed, 0);
    /* Per tool: signals_per_tool (engine) and test_candidates (check). */
    assert_int_equal(c->n_caps, 4);
    assert_string_equal(c->caps[0].cap, "signals_per_tool");
    assert_null(c->caps[0].check_id);
    assert_int_equal(c->caps[0].limit, 4);
    assert_string_equal(c->caps[1].cap, "test_candidates");
    assert_string_equal(c->caps[1].check_id, "test.capper");
    assert_int_equal(c->caps[1].observed, 9);
    assert_int_equal(c->caps[2].tool_index, 1);
    fixture_free(&f);
}

static void test_model_caps_degrade_the_scan(void **state) {
    (void)state;
    fixture f = {0};
    f.arena = mv_arena_new(NULL, 0);
    f.registry = mv_registry_new(NULL);
    mv_tool *t = tb_tool(f.arena, "s", "n", "d");
    static const mv_cap_hit hit = {"field_bytes", 65536, 70000, {"description", 11}};
    t->caps = &hit;
    t->n_caps = 1;
    assert_int_equal(mv_registry_add(f.registry, t), 0);
    assert_int_equal(mv_registry_freeze(f.registry), 0);
    fixture_engine(&f, NULL, 0, NULL);
    fixture_run(&f, 1);
    const mv_coverage *c = mv_scan_coverage(f.scan);
    assert_true(c->degraded);
    assert_int_equal(c->n_caps, 1);
    assert_string_equal(c->caps[0].cap, "field_bytes");
    assert_int_equal(c->caps[0].observed, 70000);
    assert_int_equal(mv_scan_finding(f.scan, 0)->n_caps, 1);
    fixture_free(&f);
}

static void test_normalize_cap_is_recorded(void **state) {
    (void)state;
    char big[300];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    const char *descs[] = {big};
    mv_engine_limits lim = {0, 0, 0, 100};
    fixture f = {0};
    fixture_tools(&f, descs, 1);
    fixture_engine(&f, NULL, 0, &lim);
    fixture_run(&f, 1);
    const mv_coverage *c = mv_scan_coverage(f.scan);
    assert_true(c->degraded);
    assert_int_equal(c->n_caps, 1);
    assert_string_equal(c->caps[0].cap, "normalize_bytes");
    assert_int_equal(c->caps[0].observed, 299);
    fixture_free(&f);
}

static void test_output_is_identical_for_any_jobs(void **state) {
    (void)state;
    enum { N = 1000 };
    static const char *const pool[] = {"plain", "soft",      "soft also",
                                       "hard",  "boom soft", "hard boom also"};
    const char *descs[N];
    for (size_t i = 0; i < N; i++)
        descs[i] = pool[(i * 7 + i / 3) % 6];
    const mv_check *checks[] = {&check_hard, &check_boom, &check_soft, &check_also, &check_capper};
    mv_buf first, other;
    mv_buf_init(&first, NULL);
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        fixture f = {0};
        fixture_tools(&f, descs, N);
        fixture_engine(&f, checks, 5, NULL);
        fixture_run(&f, jobs);
        if (jobs == 1) {
            dump_scan(f.scan, &first);
        } else {
            mv_buf_init(&other, NULL);
            dump_scan(f.scan, &other);
            assert_int_equal(first.len, other.len);
            assert_memory_equal(first.data, other.data, first.len);
            mv_buf_release(&other);
        }
        fixture_free(&f);
    }
    assert_true(first.len > 1000);
    mv_buf_release(&first);
}

static void test_checks_see_normalized_text(void **state) {
    (void)state;
    static const char *const descs[] = {"Please DON'T tell anyone", "please do tell"};
    const mv_check *checks[] = {&check_norm};
    fixture f = {0};
    fixture_tools(&f, descs, 2);
    fixture_engine(&f, checks, 1, NULL);
    fixture_run(&f, 1);
    assert_int_equal(mv_scan_finding(f.scan, 0)->verdict, MV_VERDICT_REVIEW);
    assert_int_equal(mv_scan_finding(f.scan, 1)->verdict, MV_VERDICT_CLEAN);
    fixture_free(&f);
}

static void test_bad_arguments(void **state) {
    (void)state;
    mv_error err;
    mv_engine *e = NULL;
    const char *unknown[] = {"no.such.check"};
    mv_engine_options o;
    memset(&o, 0, sizeof(o));
    o.disabled = unknown;
    o.n_disabled = 1;
    assert_int_equal(mv_engine_new(&e, &o, &err), MV_EINVAL);
    assert_null(e);
    assert_non_null(strstr(err.message, "no.such.check"));

    memset(&o, 0, sizeof(o));
    o.no_builtin_checks = true;
    assert_int_equal(mv_engine_new(&e, &o, &err), 0);
    assert_int_equal(mv_engine_add_check(e, &check_soft, &err), 0);
    assert_int_equal(mv_engine_add_check(e, &check_soft, &err), MV_EINVAL);
    assert_non_null(strstr(err.message, "duplicate"));
    mv_check no_inspect = {"x.none", MV_TIER_SOFT, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(mv_engine_add_check(e, &no_inspect, &err), MV_EINVAL);
    assert_int_equal(mv_engine_check_count(e), 1);
    assert_string_equal(mv_engine_check_id(e, 0), "test.soft");
    assert_null(mv_engine_check_id(e, 1));

    mv_registry *r = mv_registry_new(NULL);
    mv_scan *s = NULL;
    assert_int_equal(mv_scan_new(&s, e, r, &err), MV_EINVAL); /* not frozen */
    assert_null(s);
    assert_int_equal(mv_registry_freeze(r), 0);
    assert_int_equal(mv_scan_new(&s, e, r, &err), 0);
    assert_int_equal(mv_scan_run(s, 1, &err), 0);
    assert_int_equal(mv_scan_run(s, 1, &err), MV_EINVAL); /* runs once */
    mv_scan_free(s);
    mv_registry_free(r);
    mv_engine_free(e);
    mv_engine_free(NULL);
    mv_scan_free(NULL);
}

static void test_builtin_ids_and_disable(void **state) {
    (void)state;
    const char *const *ids = mv_builtin_check_ids();
    size_t n = 0;
    while (ids[n] != NULL)
        n++;
    mv_engine *e = NULL;
    mv_error err;
    assert_int_equal(mv_engine_new(&e, NULL, &err), 0);
    assert_int_equal(mv_engine_check_count(e), n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(mv_engine_check_id(e, i), ids[i]);
    mv_engine_free(e);
    if (n > 0) {
        mv_engine_options o;
        memset(&o, 0, sizeof(o));
        o.disabled = ids;
        o.n_disabled = 1;
        assert_int_equal(mv_engine_new(&e, &o, &err), 0);
        assert_int_equal(mv_engine_check_count(e), n - 1);
        for (size_t i = 0; i < n - 1; i++)
            assert_string_not_equal(mv_engine_check_id(e, i), ids[0]);
        mv_engine_free(e);
    }
}

/* Every allocation failure is reported as MV_ENOMEM and nothing leaks. */
static void test_out_of_memory(void **state) {
    (void)state;
    static const char *const descs[] = {"soft", "hard", "plain", "soft also"};
    mv_arena *arena = mv_arena_new(NULL, 0);
    mv_tool *tools[4];
    for (size_t i = 0; i < 4; i++)
        tools[i] = tb_tool(arena, "s", descs[i], descs[i]);
    bool succeeded = false;
    for (long n = 1; n < 500 && !succeeded; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_engine_options o;
        memset(&o, 0, sizeof(o));
        o.no_builtin_checks = true;
        o.allocator = &fa.allocator;
        mv_engine *e = NULL;
        mv_registry *r = NULL;
        mv_scan *s = NULL;
        mv_error err;
        int rc = mv_engine_new(&e, &o, &err);
        if (rc == 0)
            rc = mv_engine_add_check(e, &check_soft, &err);
        if (rc == 0)
            rc = mv_engine_add_check(e, &check_hard, &err);
        if (rc == 0) {
            r = mv_registry_new(&fa.allocator);
            rc = r == NULL ? MV_ENOMEM : 0;
        }
        for (size_t i = 0; rc == 0 && i < 4; i++)
            rc = mv_registry_add(r, tools[i]);
        if (rc == 0)
            rc = mv_registry_freeze(r);
        if (rc == 0)
            rc = mv_scan_new(&s, e, r, &err);
        if (rc == 0)
            rc = mv_scan_run(s, 2, &err);
        if (rc == 0) {
            succeeded = true;
            assert_int_equal(mv_scan_finding(s, 1)->verdict, MV_VERDICT_QUARANTINE);
        } else {
            assert_int_equal(rc, MV_ENOMEM);
        }
        mv_scan_free(s);
        mv_registry_free(r);
        mv_engine_free(e);
        assert_int_equal(fa.live, 0);
    }
    assert_true(succeeded);
    mv_arena_free(arena);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts_follow_tiers),
        cmocka_unit_test(test_failing_check_is_isolated),
        cmocka_unit_test(test_init_and_prepare_failures_are_recorded),
        cmocka_unit_test(test_caps_are_recorded),
        cmocka_unit_test(test_model_caps_degrade_the_scan),
        cmocka_unit_test(test_normalize_cap_is_recorded),
        cmocka_unit_test(test_output_is_identical_for_any_jobs),
        cmocka_unit_test(test_checks_see_normalized_text),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_builtin_ids_and_disable),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
