/*
 * The CI gate over an eval: overall recall at any tier, the hard-negative
 * quarantine false-positive rate, a recall floor per malicious category whose
 * check is registered, the structural contract (SC-003) and, when asked,
 * variant parity of phrase families (SC-004). Every breach becomes one
 * "GATE FAILED: ..." line naming the metric, its value and the threshold; a
 * category whose check is not registered is reported as not enforced, never
 * silently passed. A corpus that cannot measure recall or hard-negative FP is
 * a configuration error, not a pass.
 */
#include "eval_int.h"

#include <math.h>
#include <string.h>

#include "mcpvet/evidence.h"

/* Ratios are compared with a little slack so 27/30 meets 0.90 whatever the
 * rounding of either side. */
#define GATE_EPS 1e-9

typedef struct line_vec {
    const char **lines;
    size_t n, cap;
} line_vec;

typedef struct gate_ctx {
    mv_eval *ev;
    const mv_eval_gate_options *o;
    line_vec failures;
    line_vec notes;
    mv_buf line;
    bool failed; /* out of memory */
} gate_ctx;

void mv_eval_gate_options_init(mv_eval_gate_options *o) {
    if (o == NULL)
        return;
    memset(o, 0, sizeof *o);
    o->min_recall = MV_EVAL_DEFAULT_MIN_RECALL;
    o->max_fp = MV_EVAL_DEFAULT_MAX_FP;
    o->per_category = true;
    o->structural = true;
    o->structural_min_recall_quarantine = MV_EVAL_DEFAULT_STRUCTURAL_MIN_RECALL;
    o->structural_max_benign_quarantines = 0;
    o->max_variant_gap = -1.0;
    o->min_expected_quarantine_recall = -1.0;
    o->max_review_rate = -1.0;
    o->max_quarantines = -1;
    o->benign_only = false;
}

mv_str mv_eval_safe(mv_arena *arena, mv_str s, const char *empty_as, bool *failed) {
    mv_str out = MV_STR_LIT("?");
    if (s.len == 0) {
        out.ptr = empty_as;
        out.len = strlen(empty_as);
    } else if (mv_evidence_render(arena, s.ptr, s.len, MV_EVAL_NAME_CAP, &out, NULL) != MV_OK) {
        *failed = true;
        out = MV_STR_LIT("?");
    }
    return out;
}

static void put_mvstr(mv_buf *b, mv_str s) {
    mv_buf_append(b, s.ptr, s.len);
}

static void put3(mv_buf *b, double v) {
    mv_report_put_fixed(b, v, 3);
}

/* Move the line being built into `vec` (copied into the eval's arena). */
static void commit(gate_ctx *g, line_vec *vec) {
    if (g->line.failed) {
        g->failed = true;
        return;
    }
    char *copy =
        mv_arena_memdup(g->ev->arena, g->line.data != NULL ? g->line.data : "", g->line.len);
    if (vec->n == vec->cap) {
        size_t cap = vec->cap ? 2 * vec->cap : 8;
        const char **lines = mv_arena_grow(g->ev->arena, NULL, 0, cap * sizeof *lines);
        if (lines != NULL && vec->n > 0)
            memcpy(lines, vec->lines, vec->n * sizeof *lines);
        vec->lines = lines;
        vec->cap = cap;
    }
    if (copy == NULL || vec->lines == NULL) {
        g->failed = true;
        vec->n = 0;
        vec->cap = 0;
        return;
    }
    vec->lines[vec->n++] = copy;
    g->line.len = 0;
    if (g->line.data != NULL)
        g->line.data[0] = '\0';
}

static mv_str safe_name(gate_ctx *g, mv_str s) {
    return mv_eval_safe(g->ev->arena, s, "(none)", &g->failed);
}

static bool below(double value, double threshold) {
    return value + GATE_EPS < threshold;
}

static void gate_recall(gate_ctx *g) {
    const mv_eval_metrics *m = &g->ev->all.overall;
    if (!below(m->recall_any, g->o->min_recall))
        return;
    mv_buf *b = &g->line;
    mv_buf_puts(b, "GATE FAILED: recall ");
    put3(b, m->recall_any);
    mv_buf_puts(b, " < ");
    put3(b, g->o->min_recall);
    mv_buf_printf(b, " over %llu malicious entries", (unsigned long long)m->malicious);
    const char *sep = "; categories below the floor: ";
    for (size_t i = 0; i < g->ev->all.n_rows; i++) {
        const mv_eval_row *r = &g->ev->all.rows[i];
        if (r->kind != MV_EVAL_ROW_MALICIOUS || !below(r->m.recall_any, g->o->min_recall))
            continue;
        mv_buf_puts(b, sep);
        put_mvstr(b, safe_name(g, r->name));
        mv_buf_putc(b, ' ');
        put3(b, r->m.recall_any);
        if (!r->enforced)
            mv_buf_printf(b, " (check %s not registered)", r->check_id);
        else if (r->check_id != NULL && !r->check_registered)
            mv_buf_printf(b, " (check %s disabled)", r->check_id);
        sep = ", ";
    }
    commit(g, &g->failures);
}

static void gate_hard_negatives(gate_ctx *g) {
    const mv_eval_metrics *m = &g->ev->all.overall;
    if (m->hn_fp_rate_quarantine <= g->o->max_fp + GATE_EPS)
        return;
    mv_buf *b = &g->line;
    mv_buf_puts(b, "GATE FAILED: hard-negative quarantine FP rate ");
    put3(b, m->hn_fp_rate_quarantine);
    mv_buf_puts(b, " > ");
    put3(b, g->o->max_fp);
    mv_buf_printf(b, " (%llu of %llu hard negatives quarantined)",
                  (unsigned long long)m->hn_fp_quarantine, (unsigned long long)m->hard_negatives);
    commit(g, &g->failures);
}

static void gate_categories(gate_ctx *g) {
    for (size_t i = 0; i < g->ev->all.n_rows; i++) {
        const mv_eval_row *r = &g->ev->all.rows[i];
        if (r->kind != MV_EVAL_ROW_MALICIOUS)
            continue;
        mv_buf *b = &g->line;
        if (!r->enforced) {
            mv_buf_puts(b, "category ");
            put_mvstr(b, safe_name(g, r->name));
            mv_buf_printf(b, " not enforced (check %s not registered): recall ", r->check_id);
            put3(b, r->m.recall_any);
            commit(g, &g->notes);
            continue;
        }
        if (!g->o->per_category || !below(r->m.recall_any, g->o->min_recall))
            continue;
        mv_buf_puts(b, "GATE FAILED: category ");
        put_mvstr(b, safe_name(g, r->name));
        mv_buf_puts(b, " recall ");
        put3(b, r->m.recall_any);
        mv_buf_puts(b, " < ");
        put3(b, g->o->min_recall);
        mv_buf_printf(b, " (%llu of %llu caught", (unsigned long long)r->m.caught_any,
                      (unsigned long long)r->m.malicious);
        if (r->check_id != NULL)
            mv_buf_printf(b, "; check %s)", r->check_id);
        else
            mv_buf_puts(b, "; no mapped check)");
        commit(g, &g->failures);
    }
}

/* Entries labeled expected=quarantine must be quarantined at this rate. */
static void gate_expected(gate_ctx *g) {
    const mv_eval_metrics *m = &g->ev->all.overall;
    if (g->o->min_expected_quarantine_recall < 0.0 || m->expected_quarantine == 0 ||
        !below(m->recall_expected_quarantine, g->o->min_expected_quarantine_recall))
        return;
    mv_buf *b = &g->line;
    mv_buf_puts(b, "GATE FAILED: recall at quarantine of entries expected to be quarantined ");
    put3(b, m->recall_expected_quarantine);
    mv_buf_puts(b, " < ");
    put3(b, g->o->min_expected_quarantine_recall);
    mv_buf_printf(b, " (%llu of %llu quarantined)",
                  (unsigned long long)m->caught_expected_quarantine,
                  (unsigned long long)m->expected_quarantine);
    commit(g, &g->failures);
}

static void gate_structural(gate_ctx *g) {
    bool any_registered = false;
    static const char *const structural[] = {"unicode_smuggling", "shadowing", "decoded_payload"};
    for (size_t k = 0; k < sizeof structural / sizeof structural[0]; k++) {
        const char *check = mv_eval_category_check(structural[k], strlen(structural[k]));
        any_registered = any_registered || mv_eval_check_registered(g->ev, check);
    }
    for (size_t i = 0; i < g->ev->all.n_rows; i++) {
        const mv_eval_row *r = &g->ev->all.rows[i];
        if (r->kind != MV_EVAL_ROW_MALICIOUS ||
            !mv_eval_category_structural(r->name.ptr, r->name.len) || !r->enforced)
            continue;
        if (!below(r->m.recall_quarantine, g->o->structural_min_recall_quarantine))
            continue;
        mv_buf *b = &g->line;
        mv_buf_puts(b, "GATE FAILED: structural category ");
        put_mvstr(b, safe_name(g, r->name));
        mv_buf_puts(b, " recall at quarantine tier ");
        put3(b, r->m.recall_quarantine);
        mv_buf_puts(b, " < ");
        put3(b, g->o->structural_min_recall_quarantine);
        mv_buf_printf(b, " (%llu of %llu quarantined; check %s; SC-003)",
                      (unsigned long long)r->m.caught_quarantine,
                      (unsigned long long)r->m.malicious, r->check_id);
        commit(g, &g->failures);
    }
    const mv_eval_metrics *m = &g->ev->all.overall;
    uint64_t quarantined = m->hn_fp_quarantine + m->benign_fp_quarantine;
    if (any_registered && quarantined > g->o->structural_max_benign_quarantines) {
        mv_buf_printf(&g->line,
                      "GATE FAILED: %llu benign or hard-negative %s quarantined, at most %llu "
                      "allowed (SC-003)",
                      (unsigned long long)quarantined, quarantined == 1 ? "entry" : "entries",
                      (unsigned long long)g->o->structural_max_benign_quarantines);
        commit(g, &g->failures);
    }
}

static void gate_parity(gate_ctx *g) {
    const mv_eval *ev = g->ev;
    size_t i = 0;
    while (g->o->max_variant_gap >= 0.0 && i < ev->n_parity) {
        size_t end = i, lo = i, hi = i;
        while (end < ev->n_parity && ev->parity[end].family.len == ev->parity[i].family.len &&
               memcmp(ev->parity[end].family.ptr, ev->parity[i].family.ptr,
                      ev->parity[i].family.len) == 0) {
            if (ev->parity[end].recall_any < ev->parity[lo].recall_any)
                lo = end;
            if (ev->parity[end].recall_any > ev->parity[hi].recall_any)
                hi = end;
            end++;
        }
        double gap = ev->parity[hi].recall_any - ev->parity[lo].recall_any;
        if (gap > g->o->max_variant_gap + GATE_EPS) {
            mv_buf *b = &g->line;
            mv_buf_puts(b, "GATE FAILED: phrase family ");
            put_mvstr(b, safe_name(g, ev->parity[i].family));
            mv_buf_puts(b, " variant parity gap ");
            put3(b, gap);
            mv_buf_puts(b, " > ");
            put3(b, g->o->max_variant_gap);
            mv_buf_puts(b, " (lowest ");
            put_mvstr(b, safe_name(g, ev->parity[lo].variant));
            mv_buf_putc(b, ' ');
            put3(b, ev->parity[lo].recall_any);
            mv_buf_puts(b, ", highest ");
            put_mvstr(b, safe_name(g, ev->parity[hi].variant));
            mv_buf_putc(b, ' ');
            put3(b, ev->parity[hi].recall_any);
            mv_buf_puts(b, "; SC-004)");
            commit(g, &g->failures);
        }
        i = end;
    }
}

/* Limits over every benign entry: real tools should stay quiet. */
static void gate_benign(gate_ctx *g) {
    const mv_eval_metrics *m = &g->ev->all.overall;
    uint64_t total = m->benign + m->hard_negatives;
    uint64_t flagged = m->benign_fp_any + m->hn_fp_any;
    uint64_t quarantined = m->benign_fp_quarantine + m->hn_fp_quarantine;
    double rate = total > 0 ? (double)flagged / (double)total : 0.0;
    if (g->o->max_review_rate >= 0.0 && rate > g->o->max_review_rate + GATE_EPS) {
        mv_buf_puts(&g->line, "GATE FAILED: benign review rate ");
        put3(&g->line, rate);
        mv_buf_puts(&g->line, " > ");
        put3(&g->line, g->o->max_review_rate);
        mv_buf_printf(&g->line, " (%llu of %llu benign entries flagged)",
                      (unsigned long long)flagged, (unsigned long long)total);
        commit(g, &g->failures);
    }
    if (g->o->max_quarantines >= 0 && quarantined > (uint64_t)g->o->max_quarantines) {
        mv_buf_printf(&g->line, "GATE FAILED: %llu benign %s quarantined, at most %lld allowed",
                      (unsigned long long)quarantined, quarantined == 1 ? "entry" : "entries",
                      (long long)g->o->max_quarantines);
        commit(g, &g->failures);
    }
}

static bool bad_rate(double v) {
    return isnan(v) || v < 0.0 || v > 1.0;
}

int mv_eval_gate_apply(mv_eval *ev, const mv_eval_gate_options *opts, mv_error *err) {
    mv_eval_gate_options defaults;
    gate_ctx g;
    int rc = MV_EINVAL;

    memset(&g, 0, sizeof g);
    mv_buf_init(&g.line, NULL);
    if (ev == NULL) {
        mv_error_set(err, rc, "gate: no eval");
        goto done;
    }
    if (opts == NULL) {
        mv_eval_gate_options_init(&defaults);
        opts = &defaults;
    }
    if (bad_rate(opts->min_recall) || bad_rate(opts->max_fp) ||
        bad_rate(opts->structural_min_recall_quarantine) || isnan(opts->max_variant_gap) ||
        isnan(opts->max_review_rate) || opts->max_variant_gap > 1.0 ||
        isnan(opts->min_expected_quarantine_recall) || opts->min_expected_quarantine_recall > 1.0) {
        mv_error_set(err, rc, "gate: thresholds must be between 0 and 1");
        goto done;
    }
    const mv_eval_metrics *m = &ev->all.overall;
    bool benign_limits = opts->max_review_rate >= 0.0 || opts->max_quarantines >= 0;
    if (opts->max_review_rate > 1.0) {
        mv_error_set(err, rc, "gate: thresholds must be between 0 and 1");
        goto done;
    }
    if (opts->benign_only && !benign_limits) {
        mv_error_set(err, rc, "gate: a benign-only gate needs a review-rate or quarantine limit");
        goto done;
    }
    if (benign_limits && m->benign + m->hard_negatives == 0) {
        mv_error_set(err, rc,
                     "gate: the corpus has no benign entries, so the review rate cannot be "
                     "measured");
        goto done;
    }
    if (!opts->benign_only && m->malicious == 0) {
        mv_error_set(err, rc,
                     "gate: the corpus has no malicious entries, so recall cannot be measured");
        goto done;
    }
    if (!opts->benign_only && m->hard_negatives == 0) {
        mv_error_set(err, rc,
                     "gate: the corpus has no hard negatives (category \"hard_negative\"), so "
                     "the false-positive rate cannot be measured");
        goto done;
    }
    g.ev = ev;
    g.o = opts;
    if (!opts->benign_only) {
        gate_recall(&g);
        gate_hard_negatives(&g);
        gate_categories(&g);
        if (opts->structural)
            gate_structural(&g);
        gate_expected(&g);
        gate_parity(&g);
    }
    gate_benign(&g);
    if (ev->degraded) {
        mv_buf_printf(&g.line,
                      "the eval was DEGRADED: %llu %s had a failed check or a hit cap; the "
                      "numbers are partial",
                      (unsigned long long)ev->degraded_entries,
                      ev->degraded_entries == 1 ? "entry" : "entries");
        commit(&g, &g.notes);
    }
    if (g.failures.n == 0) {
        mv_buf *b = &g.line;
        mv_buf_puts(b, "GATE PASSED: ");
        if (!opts->benign_only) {
            mv_buf_puts(b, "recall ");
            put3(b, m->recall_any);
            mv_buf_puts(b, " >= ");
            put3(b, opts->min_recall);
            mv_buf_puts(b, ", hard-negative quarantine FP ");
            put3(b, m->hn_fp_rate_quarantine);
            mv_buf_puts(b, " <= ");
            put3(b, opts->max_fp);
        }
        if (benign_limits) {
            uint64_t total = m->benign + m->hard_negatives;
            mv_buf_printf(b, "%s%llu benign entries: review rate ", opts->benign_only ? "" : "; ",
                          (unsigned long long)total);
            put3(b, (double)(m->benign_fp_any + m->hn_fp_any) / (double)total);
            mv_buf_printf(b, ", %llu quarantined",
                          (unsigned long long)(m->benign_fp_quarantine + m->hn_fp_quarantine));
        }
        if (ev->degraded)
            mv_buf_puts(b, "; WARNING: the eval was DEGRADED, results are partial");
        commit(&g, &g.notes);
    }
    if (g.failed || g.line.failed) {
        rc = mv_error_set(err, MV_ENOMEM, "gate: out of memory");
        goto done;
    }
    ev->gate.ran = true;
    ev->gate.options = *opts;
    ev->gate.passed = g.failures.n == 0;
    ev->gate.failures = g.failures.lines;
    ev->gate.n_failures = g.failures.n;
    if (ev->gate.passed) {
        /* The PASSED line was committed last; it is the message, not a note. */
        ev->gate.message = g.notes.lines[g.notes.n - 1];
        g.notes.n--;
    } else {
        ev->gate.message = g.failures.lines[0];
    }
    ev->gate.notes = g.notes.lines;
    ev->gate.n_notes = g.notes.n;
    rc = MV_OK;
done:
    mv_buf_release(&g.line);
    return rc;
}
