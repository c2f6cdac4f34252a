/*
 * The eval scorecard as JSON, schema "mcpvet.eval/1" (docs/json-output.md).
 * Same content as the text scorecard; rates whose denominator is zero are
 * null rather than a misleading 0. Member order is fixed, numbers are
 * formatted without locale, corpus strings are rendered safe.
 */
#include "eval_int.h"

#include "json/writer.h"

typedef struct json_ctx {
    mv_jw w;
    const mv_eval *ev;
    mv_arena *arena;
    bool *failed;
} json_ctx;

static void rate(mv_jw *w, const char *key, double v, bool defined) {
    if (defined)
        mv_jw_fixed(w, key, v, 3);
    else
        mv_jw_null(w, key);
}

static void put_metrics(json_ctx *x, const char *key, const mv_eval_metrics *m) {
    mv_jw *w = &x->w;
    mv_jw_obj_begin(w, key);
    mv_jw_uint(w, "entries", m->entries);
    mv_jw_uint(w, "malicious", m->malicious);
    mv_jw_uint(w, "caught_any", m->caught_any);
    mv_jw_uint(w, "caught_quarantine", m->caught_quarantine);
    rate(w, "recall_any", m->recall_any, m->malicious > 0);
    rate(w, "recall_quarantine", m->recall_quarantine, m->malicious > 0);
    mv_jw_uint(w, "expected_quarantine", m->expected_quarantine);
    mv_jw_uint(w, "caught_expected_quarantine", m->caught_expected_quarantine);
    rate(w, "recall_expected_quarantine", m->recall_expected_quarantine,
         m->expected_quarantine > 0);
    mv_jw_uint(w, "hard_negatives", m->hard_negatives);
    mv_jw_uint(w, "hard_negative_fp_any", m->hn_fp_any);
    mv_jw_uint(w, "hard_negative_fp_quarantine", m->hn_fp_quarantine);
    rate(w, "hard_negative_fp_rate_any", m->hn_fp_rate_any, m->hard_negatives > 0);
    rate(w, "hard_negative_fp_rate_quarantine", m->hn_fp_rate_quarantine, m->hard_negatives > 0);
    mv_jw_uint(w, "benign", m->benign);
    mv_jw_uint(w, "benign_fp_any", m->benign_fp_any);
    mv_jw_uint(w, "benign_fp_quarantine", m->benign_fp_quarantine);
    rate(w, "benign_fp_rate_any", m->benign_fp_rate_any, m->benign > 0);
    rate(w, "benign_fp_rate_quarantine", m->benign_fp_rate_quarantine, m->benign > 0);
    rate(w, "precision", m->precision, mv_eval_has_precision(m));
    rate(w, "f1", m->f1, mv_eval_has_precision(m) && m->malicious > 0);
    mv_jw_uint(w, "degraded", m->degraded);
    mv_jw_obj_end(w);
}

static void put_rows(json_ctx *x, const mv_eval_section *sec, mv_eval_row_kind kind,
                     const char *key, const char *name_key) {
    mv_jw *w = &x->w;
    mv_jw_arr_begin(w, key);
    for (size_t i = 0; i < sec->n_rows; i++) {
        const mv_eval_row *r = &sec->rows[i];
        if (r->kind != kind)
            continue;
        mv_jw_obj_begin(w, NULL);
        mv_jw_str(w, name_key, mv_eval_safe(x->arena, r->name, "", x->failed));
        if (kind == MV_EVAL_ROW_MALICIOUS) {
            mv_jw_cstr(w, "check", r->check_id);
            mv_jw_bool(w, "check_registered", r->check_registered);
            mv_jw_bool(w, "enforced", r->enforced);
        }
        put_metrics(x, "metrics", &r->m);
        mv_jw_obj_end(w);
    }
    mv_jw_arr_end(w);
}

static void put_section_body(json_ctx *x, const mv_eval_section *sec) {
    put_metrics(x, "overall", &sec->overall);
    put_rows(x, sec, MV_EVAL_ROW_MALICIOUS, "categories", "category");
    put_rows(x, sec, MV_EVAL_ROW_HARD_NEGATIVE, "hard_negatives", "resembles");
    put_rows(x, sec, MV_EVAL_ROW_BENIGN, "benign", "category");
}

static void put_parity(json_ctx *x) {
    mv_jw *w = &x->w;
    mv_jw_arr_begin(w, "parity");
    for (size_t i = 0; i < x->ev->n_parity; i++) {
        const mv_eval_parity *p = &x->ev->parity[i];
        mv_jw_obj_begin(w, NULL);
        mv_jw_str(w, "family", mv_eval_safe(x->arena, p->family, "", x->failed));
        mv_jw_str(w, "variant", mv_eval_safe(x->arena, p->variant, "", x->failed));
        mv_jw_uint(w, "entries", p->total);
        mv_jw_uint(w, "caught_any", p->caught_any);
        mv_jw_uint(w, "caught_quarantine", p->caught_quarantine);
        rate(w, "recall_any", p->recall_any, p->total > 0);
        mv_jw_obj_end(w);
    }
    mv_jw_arr_end(w);
}

static void put_gate(json_ctx *x) {
    mv_jw *w = &x->w;
    const mv_eval_gate *g = &x->ev->gate;
    if (!g->ran) {
        mv_jw_null(w, "gate");
        return;
    }
    mv_jw_obj_begin(w, "gate");
    mv_jw_bool(w, "passed", g->passed);
    mv_jw_fixed(w, "min_recall", g->options.min_recall, 3);
    mv_jw_fixed(w, "max_fp", g->options.max_fp, 3);
    mv_jw_bool(w, "per_category", g->options.per_category);
    mv_jw_bool(w, "structural", g->options.structural);
    mv_jw_fixed(w, "structural_min_recall_quarantine", g->options.structural_min_recall_quarantine,
                3);
    mv_jw_uint(w, "structural_max_benign_quarantines",
               g->options.structural_max_benign_quarantines);
    if (g->options.min_expected_quarantine_recall >= 0.0)
        mv_jw_fixed(w, "min_expected_quarantine_recall", g->options.min_expected_quarantine_recall,
                    3);
    else
        mv_jw_null(w, "min_expected_quarantine_recall");
    if (g->options.max_variant_gap >= 0.0)
        mv_jw_fixed(w, "max_variant_gap", g->options.max_variant_gap, 3);
    else
        mv_jw_null(w, "max_variant_gap");
    if (g->options.max_review_rate >= 0.0)
        mv_jw_fixed(w, "max_review_rate", g->options.max_review_rate, 3);
    else
        mv_jw_null(w, "max_review_rate");
    if (g->options.max_quarantines >= 0)
        mv_jw_int(w, "max_quarantines", g->options.max_quarantines);
    else
        mv_jw_null(w, "max_quarantines");
    mv_jw_bool(w, "benign_only", g->options.benign_only);
    mv_jw_cstr(w, "message", g->message);
    mv_jw_arr_begin(w, "failures");
    for (size_t i = 0; i < g->n_failures; i++)
        mv_jw_cstr(w, NULL, g->failures[i]);
    mv_jw_arr_end(w);
    mv_jw_arr_begin(w, "notes");
    for (size_t i = 0; i < g->n_notes; i++)
        mv_jw_cstr(w, NULL, g->notes[i]);
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
}

static void put_entries(json_ctx *x) {
    mv_jw *w = &x->w;
    mv_jw_arr_begin(w, "entries");
    for (size_t i = 0; i < x->ev->n_entries; i++) {
        const mv_eval_entry *en = &x->ev->entries[i];
        mv_arena_mark mark = mv_arena_save(x->arena);
        mv_jw_obj_begin(w, NULL);
        mv_jw_str(w, "id", mv_eval_safe(x->arena, en->id, "", x->failed));
        mv_jw_str(w, "label", mv_eval_safe(x->arena, en->label, "", x->failed));
        mv_jw_str(w, "category", mv_eval_safe(x->arena, en->category, "", x->failed));
        if (en->resembles.len > 0)
            mv_jw_str(w, "resembles", mv_eval_safe(x->arena, en->resembles, "", x->failed));
        else
            mv_jw_null(w, "resembles");
        if (en->expected.len > 0)
            mv_jw_str(w, "expected", mv_eval_safe(x->arena, en->expected, "", x->failed));
        else
            mv_jw_null(w, "expected");
        mv_jw_str(w, "server", mv_eval_safe(x->arena, en->server, "", x->failed));
        mv_jw_str(w, "tool", mv_eval_safe(x->arena, en->tool, "", x->failed));
        mv_jw_bool(w, "holdout", en->holdout);
        mv_jw_cstr(w, "verdict", mv_verdict_name(en->verdict));
        mv_jw_cstr(w, "severity", mv_severity_name(en->severity));
        mv_jw_fixed(w, "confidence", en->confidence, 3);
        mv_jw_int(w, "risk", en->risk);
        mv_jw_arr_begin(w, "signals");
        for (uint32_t k = 0; k < en->n_checks; k++)
            mv_jw_cstr(w, NULL, en->checks[k]);
        mv_jw_arr_end(w);
        mv_jw_bool(w, "degraded", en->degraded);
        mv_jw_obj_end(w);
        mv_arena_rewind(x->arena, mark);
    }
    mv_jw_arr_end(w);
}

int mv_eval_render_json(mv_buf *out, const mv_eval *ev, const mv_eval_render_options *o,
                        mv_arena *arena, bool *failed) {
    json_ctx x;
    x.ev = ev;
    x.arena = arena;
    x.failed = failed;
    mv_jw *w = &x.w;
    mv_jw_init(w, out);
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "schema", "mcpvet.eval/1");
    mv_jw_cstr(w, "version", o->version != NULL ? o->version : MCPVET_VERSION);
    mv_jw_cstr(w, "mode", mv_eval_mode_name(ev->mode));
    mv_jw_arr_begin(w, "checks");
    for (size_t i = 0; i < ev->n_check_ids; i++)
        mv_jw_cstr(w, NULL, ev->check_ids[i]);
    mv_jw_arr_end(w);
    mv_jw_uint(w, "sources", ev->n_sources);
    mv_jw_uint(w, "entries_total", ev->n_entries);
    mv_jw_uint(w, "degraded_entries", ev->degraded_entries);
    mv_jw_bool(w, "degraded", ev->degraded);
    put_section_body(&x, &ev->all);
    if (ev->has_holdout) {
        mv_jw_obj_begin(w, "holdout");
        put_section_body(&x, &ev->holdout);
        mv_jw_obj_end(w);
    } else {
        mv_jw_null(w, "holdout");
    }
    put_parity(&x);
    put_gate(&x);
    if (o->per_entry)
        put_entries(&x);
    mv_jw_obj_end(w);
    return mv_jw_finish(w);
}
