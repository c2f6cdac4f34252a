/*
 * Aggregator tests: the tier rules of DESIGN.md (any hard -> quarantine,
 * 1/2/3+ distinct soft checks -> low/medium/high review), distinct checks
 * counted once, agreement raising confidence and risk, order independence.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "mcpvet/aggregate.h"

static mv_signal sig(uint16_t check, mv_tier tier, double conf) {
    mv_signal s;
    memset(&s, 0, sizeof(s));
    s.check_index = check;
    s.check_id = "c";
    s.tier = tier;
    s.confidence = conf;
    s.threat = check == 1 ? MV_THREAT_EXFILTRATION : MV_THREAT_PROMPT_INJECTION;
    return s;
}

static void test_no_signals_is_clean(void **state) {
    (void)state;
    mv_aggregate_result r;
    mv_aggregate(NULL, 0, &r);
    assert_int_equal(r.verdict, MV_VERDICT_CLEAN);
    assert_int_equal(r.level, MV_LEVEL_NONE);
    assert_int_equal(r.severity, MV_SEVERITY_NONE);
    assert_int_equal(r.risk, 0);
    assert_true(r.confidence == 0.0);
    mv_signal info = sig(0, MV_TIER_INFO, 1.0);
    mv_aggregate(&info, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_CLEAN); /* info never changes a verdict */
}

static void test_soft_severity_by_distinct_checks(void **state) {
    (void)state;
    mv_signal s[4] = {sig(3, MV_TIER_SOFT, 0.5), sig(4, MV_TIER_SOFT, 0.5),
                      sig(5, MV_TIER_SOFT, 0.5), sig(6, MV_TIER_SOFT, 0.5)};
    mv_aggregate_result r1, r2, r3, r4;
    mv_aggregate(s, 1, &r1);
    mv_aggregate(s, 2, &r2);
    mv_aggregate(s, 3, &r3);
    mv_aggregate(s, 4, &r4);
    assert_int_equal(r1.verdict, MV_VERDICT_REVIEW);
    assert_int_equal(r1.level, MV_LEVEL_WARNING);
    assert_int_equal(r1.severity, MV_SEVERITY_LOW);
    assert_int_equal(r2.severity, MV_SEVERITY_MEDIUM);
    assert_int_equal(r3.severity, MV_SEVERITY_HIGH);
    assert_int_equal(r4.severity, MV_SEVERITY_HIGH);
    assert_int_equal(r3.soft_checks, 3);
    /* Agreement raises confidence and risk, capped. */
    assert_true(r2.confidence > r1.confidence);
    assert_true(r3.confidence > r2.confidence);
    assert_true(r2.risk > r1.risk);
    assert_true(r4.confidence <= 1.0);
    assert_true(r4.risk <= 69); /* review never looks like quarantine */
    assert_true(r1.risk >= 10);
    assert_true(fabs(r2.confidence - 0.75) < 1e-12);
}

static void test_same_check_counts_once(void **state) {
    (void)state;
    mv_signal s[3] = {sig(2, MV_TIER_SOFT, 0.4), sig(2, MV_TIER_SOFT, 0.6),
                      sig(2, MV_TIER_SOFT, 0.5)};
    mv_aggregate_result r;
    mv_aggregate(s, 3, &r);
    assert_int_equal(r.soft_checks, 1);
    assert_int_equal(r.severity, MV_SEVERITY_LOW);
    assert_true(fabs(r.confidence - 0.6) < 1e-12); /* the check's strongest, not a sum */
}

static void test_any_hard_quarantines(void **state) {
    (void)state;
    mv_signal h = sig(0, MV_TIER_HARD, 0.9);
    mv_aggregate_result r;
    mv_aggregate(&h, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(r.level, MV_LEVEL_DANGEROUS);
    assert_int_equal(r.severity, MV_SEVERITY_HIGH);
    assert_true(r.risk >= 70);

    h.critical = true;
    mv_aggregate(&h, 1, &r);
    assert_int_equal(r.severity, MV_SEVERITY_CRITICAL);

    /* A low-confidence hard signal still quarantines, risk floor 70. */
    mv_signal weak = sig(0, MV_TIER_HARD, 0.1);
    mv_aggregate(&weak, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(r.risk, 70);

    /* Hard plus an agreeing soft check: critical, more confident. */
    mv_signal hs[2] = {sig(0, MV_TIER_HARD, 0.9), sig(1, MV_TIER_SOFT, 0.5)};
    mv_aggregate_result both;
    mv_aggregate(hs, 2, &both);
    assert_int_equal(both.severity, MV_SEVERITY_CRITICAL);
    assert_true(both.confidence > 0.9);
    assert_int_equal(both.hard_checks, 1);
    assert_int_equal(both.soft_checks, 1);
    assert_int_equal(both.threat, MV_THREAT_PROMPT_INJECTION); /* the hard signal's threat */
}

static mv_signal fsig(uint16_t check, double conf, uint32_t facets, mv_threat threat) {
    mv_signal s = sig(check, MV_TIER_SOFT, conf);
    s.facets = facets;
    s.threat = threat;
    return s;
}

/* One uncorroborated instruction stays review; corroboration quarantines. */
static void test_dangerous_needs_corroboration(void **state) {
    (void)state;
    mv_aggregate_result r;
    mv_signal one =
        fsig(0, 0.8, MV_FACET_INSTRUCTION | MV_FACET_HIDDEN, MV_THREAT_PROMPT_INJECTION);
    mv_aggregate(&one, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    assert_null(r.danger_class);
    assert_int_equal(r.danger_basis, 0);

    /* a sensitive resource from another check, no instruction: review */
    mv_signal res = fsig(1, 0.8, MV_FACET_SENSITIVE, MV_THREAT_EXFILTRATION);
    mv_signal sink = fsig(2, 0.7, MV_FACET_SINK, MV_THREAT_EXFILTRATION);
    mv_signal two[2] = {res, sink};
    mv_aggregate(two, 2, &r);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    assert_null(r.danger_class);

    /* hidden instruction + sensitive resource: critical, hidden class */
    mv_signal hs[2] = {one, res};
    mv_aggregate(hs, 2, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(r.level, MV_LEVEL_DANGEROUS);
    assert_int_equal(r.severity, MV_SEVERITY_CRITICAL);
    assert_string_equal(r.danger_class, MV_DANGER_HIDDEN);
    assert_int_equal(r.danger_basis, MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_SENSITIVE);
    assert_true(r.risk >= 70);

    /* plain instruction + data sink: injection class, high */
    mv_signal plain = fsig(0, 0.7, MV_FACET_INSTRUCTION, MV_THREAT_PROMPT_INJECTION);
    mv_signal ps[2] = {plain, sink};
    mv_aggregate(ps, 2, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(r.severity, MV_SEVERITY_HIGH);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);

    char buf0[128];
    /* a self-corroborating exfiltration flow */
    mv_signal flow =
        fsig(0, 0.85, MV_FACET_INSTRUCTION | MV_FACET_EXFIL | MV_FACET_SENSITIVE | MV_FACET_SINK,
             MV_THREAT_EXFILTRATION);
    mv_aggregate(&flow, 1, &r);
    assert_string_equal(r.danger_class, MV_DANGER_EXFILTRATION);
    assert_true(r.danger_basis & MV_DANGER_BASIS_EXFIL);

    /* two instruction families agree */
    mv_signal other = fsig(0, 0.6, MV_FACET_INSTRUCTION, MV_THREAT_PROMPT_INJECTION);
    mv_signal fam[2] = {plain, other};
    mv_aggregate(fam, 2, &r);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    assert_int_equal(r.danger_basis, MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_FAMILIES);

    /* a destructive order outside the tool's job does not stand alone: one
     * uncorroborated soft signal stays review (honest API documentation
     * such as "send [] to remove all keys" reads like such an order) */
    mv_signal scope =
        fsig(0, 0.6, MV_FACET_INSTRUCTION | MV_FACET_OUTSCOPE, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&scope, 1, &r);
    assert_null(r.danger_class);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    /* ... with other evidence it is named among what agreed */
    mv_signal scoped_sink[2] = {scope, sink};
    mv_aggregate(scoped_sink, 2, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(r.danger_basis,
                     MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_SINK | MV_DANGER_BASIS_OUTSCOPE);
    /* ... and the facet without an instruction is nothing */
    mv_signal lone = fsig(0, 0.6, MV_FACET_OUTSCOPE, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&lone, 1, &r);
    assert_null(r.danger_class);

    /* an addressed order (mood, out-of-job action and object agree in one
     * passage) corroborates itself; with the outscope facet both are named */
    mv_signal order = fsig(0, 0.75, MV_FACET_INSTRUCTION | MV_FACET_OUTSCOPE | MV_FACET_ADDRESSED,
                           MV_THREAT_TOOL_POISONING);
    mv_aggregate(&order, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    assert_int_equal(r.danger_basis, MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_ORDER |
                                         MV_DANGER_BASIS_OUTSCOPE);
    /* a hidden order is the hidden class */
    mv_signal hide = fsig(0, 0.6, MV_FACET_INSTRUCTION | MV_FACET_HIDDEN | MV_FACET_ADDRESSED,
                          MV_THREAT_TOOL_POISONING);
    mv_aggregate(&hide, 1, &r);
    assert_string_equal(r.danger_class, MV_DANGER_HIDDEN);
    /* ... but the facet without an instruction, or below the floor, is nothing */
    mv_signal bare = fsig(0, 0.75, MV_FACET_ADDRESSED, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&bare, 1, &r);
    assert_null(r.danger_class);
    mv_signal faint =
        fsig(0, 0.4, MV_FACET_INSTRUCTION | MV_FACET_ADDRESSED, MV_THREAT_PROMPT_INJECTION);
    mv_aggregate(&faint, 1, &r);
    assert_null(r.danger_class);
    assert_string_equal(mv_danger_basis_text(MV_DANGER_BASIS_ORDER, buf0, sizeof(buf0)),
                        "addressed order outside the tool's job");

    /* below the confidence floor nothing corroborates */
    mv_signal weak = fsig(0, 0.4, MV_FACET_INSTRUCTION, MV_THREAT_PROMPT_INJECTION);
    mv_signal ws[2] = {weak, res};
    mv_aggregate(ws, 2, &r);
    assert_null(r.danger_class);

    char buf[128];
    assert_string_equal(
        mv_danger_basis_text(MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_SINK, buf, sizeof(buf)),
        "instruction to the model + data sink");
}

/* The learned wording model corroborates another check, never itself. */
static void test_learned_wording_needs_another_check(void **state) {
    (void)state;
    mv_aggregate_result r;
    mv_signal learned = fsig(7, 0.9, MV_FACET_LEARNED, MV_THREAT_TOOL_POISONING);
    /* alone, however confident: review */
    mv_aggregate(&learned, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    assert_null(r.danger_class);
    /* twice from the same check is still one opinion */
    mv_signal twice[2] = {learned, fsig(7, 0.8, MV_FACET_LEARNED, MV_THREAT_TOOL_POISONING)};
    mv_aggregate(twice, 2, &r);
    assert_null(r.danger_class);
    /* beside a plain soft signal of another check (no facets): dangerous,
     * of the injection class, and the basis names the agreement */
    mv_signal reach = fsig(2, 0.6, 0, MV_THREAT_PROMPT_INJECTION);
    mv_signal pair[2] = {reach, learned};
    mv_aggregate(pair, 2, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_int_equal(r.level, MV_LEVEL_DANGEROUS);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    assert_int_equal(r.danger_basis, MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_LEARNED);
    /* the other check's exfiltration threat names the class */
    mv_signal flow = fsig(2, 0.6, MV_FACET_SENSITIVE, MV_THREAT_EXFILTRATION);
    mv_signal ex[2] = {learned, flow};
    mv_aggregate(ex, 2, &r);
    assert_string_equal(r.danger_class, MV_DANGER_EXFILTRATION);
    assert_int_equal(r.danger_basis, MV_DANGER_BASIS_INSTRUCTION | MV_DANGER_BASIS_LEARNED);
    /* a hidden instruction stays the hidden class */
    mv_signal hide = fsig(0, 0.6, MV_FACET_INSTRUCTION | MV_FACET_HIDDEN, MV_THREAT_TOOL_POISONING);
    mv_signal hl[2] = {hide, learned};
    mv_aggregate(hl, 2, &r);
    assert_string_equal(r.danger_class, MV_DANGER_HIDDEN);
    /* below the confidence floor on either side nothing agrees */
    mv_signal faint = fsig(2, 0.4, 0, MV_THREAT_PROMPT_INJECTION);
    mv_signal fp[2] = {faint, learned};
    mv_aggregate(fp, 2, &r);
    assert_null(r.danger_class);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    mv_signal unsure = fsig(7, 0.45, MV_FACET_LEARNED, MV_THREAT_TOOL_POISONING);
    mv_signal up[2] = {reach, unsure};
    mv_aggregate(up, 2, &r);
    assert_null(r.danger_class);
    /* an info signal of another check is no opinion */
    mv_signal note = sig(3, MV_TIER_INFO, 1.0);
    mv_signal ln[2] = {learned, note};
    mv_aggregate(ln, 2, &r);
    assert_null(r.danger_class);
    /* in one field, a window and another check's evidence far apart are
     * two separate opinions (an honest enum list of 5 KB); close by, or in
     * different fields, they agree */
    mv_signal lw = learned, other = reach;
    lw.field = other.field = 3;
    lw.offset = 900;
    lw.length = 90;
    other.offset = 5000;
    other.length = 60;
    mv_signal far[2] = {other, lw};
    mv_aggregate(far, 2, &r);
    assert_null(r.danger_class);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    other.offset = 990 + 400; /* exactly the limit after the window */
    mv_signal edge[2] = {other, lw};
    mv_aggregate(edge, 2, &r);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    other.offset = 990 + 401;
    mv_signal past[2] = {other, lw};
    mv_aggregate(past, 2, &r);
    assert_null(r.danger_class);
    other.offset = 400; /* before the window, 500 bytes clear of it */
    other.length = 0;
    mv_signal before[2] = {lw, other};
    mv_aggregate(before, 2, &r);
    assert_null(r.danger_class);
    other.offset = 800;
    other.length = 200; /* overlapping */
    mv_signal over[2] = {lw, other};
    mv_aggregate(over, 2, &r);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    other.field = 4; /* another field: an order split across fields */
    other.offset = 5000;
    mv_signal split[2] = {lw, other};
    mv_aggregate(split, 2, &r);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    char buf[160];
    assert_string_equal(mv_danger_basis_text(MV_DANGER_BASIS_LEARNED, buf, sizeof(buf)),
                        "learned attack wording agreeing with another check");
}

/* Round 16: the learned signal carrying a structural fact of the tool (an
 * outside destination nobody chose, a destructive command as code) is two
 * opinions; without the fact it stays review. */
static void test_learned_with_structure(void **state) {
    (void)state;
    mv_aggregate_result r;
    mv_signal s = fsig(7, 0.9, MV_FACET_LEARNED | MV_FACET_FIXED_SINK, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&s, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_string_equal(r.danger_class, MV_DANGER_EXFILTRATION);
    assert_true(r.danger_basis & MV_DANGER_BASIS_SINK);
    assert_true(r.danger_basis & MV_DANGER_BASIS_LEARNED);
    s = fsig(7, 0.9, MV_FACET_LEARNED | MV_FACET_DESTROY_CODE, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&s, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_QUARANTINE);
    assert_string_equal(r.danger_class, MV_DANGER_INJECTION);
    assert_true(r.danger_basis & MV_DANGER_BASIS_OUTSCOPE);
    /* below the dangerous level's confidence, or without the learned facet */
    s = fsig(7, 0.4, MV_FACET_LEARNED | MV_FACET_FIXED_SINK, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&s, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
    s = fsig(7, 0.9, MV_FACET_LEARNED, MV_THREAT_TOOL_POISONING);
    mv_aggregate(&s, 1, &r);
    assert_int_equal(r.verdict, MV_VERDICT_REVIEW);
}

static void test_order_independent_and_clamped(void **state) {
    (void)state;
    mv_signal a[3] = {sig(0, MV_TIER_SOFT, 0.3), sig(1, MV_TIER_SOFT, 0.7),
                      sig(2, MV_TIER_SOFT, 0.55)};
    mv_signal b[3] = {a[2], a[0], a[1]};
    mv_aggregate_result ra, rb;
    mv_aggregate(a, 3, &ra);
    mv_aggregate(b, 3, &rb);
    assert_int_equal(ra.verdict, rb.verdict);
    assert_int_equal(ra.severity, rb.severity);
    assert_int_equal(ra.threat, rb.threat);
    assert_int_equal(ra.risk, rb.risk);
    assert_true(ra.confidence == rb.confidence); /* bit-identical, not just close */
    double odd[3] = {1.7, -2.0, NAN};
    assert_true(mv_combine_confidence(odd, 3) == 1.0);
    double half[2] = {0.5, 0.5};
    assert_true(fabs(mv_combine_confidence(half, 2) - 0.75) < 1e-12);
    assert_true(mv_combine_confidence(NULL, 0) == 0.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_signals_is_clean),
        cmocka_unit_test(test_soft_severity_by_distinct_checks),
        cmocka_unit_test(test_same_check_counts_once),
        cmocka_unit_test(test_any_hard_quarantines),
        cmocka_unit_test(test_order_independent_and_clamped),
        cmocka_unit_test(test_dangerous_needs_corroboration),
        cmocka_unit_test(test_learned_wording_needs_another_check),
        cmocka_unit_test(test_learned_with_structure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
