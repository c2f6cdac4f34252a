/*
 * The eval scorecard as aligned text tables: malicious categories, hard
 * negatives by the class they resemble, clean benign, the overall line, the
 * holdout section, variant parity, optionally every entry, and the gate
 * outcome. It is printed on every run, pass or fail, so a CI log always shows
 * where the numbers stand. Corpus strings are rendered safe before printing.
 */
#include "eval_int.h"

#include <string.h>

/* ------------------------------------------------------------ text tables */

typedef struct table {
    size_t ncols;
    const bool *right; /* right-align column i */
    mv_str *cells;     /* row-major */
    size_t nrows, cap;
    mv_arena *arena;
    bool *failed;
} table;

static void table_init(table *t, size_t ncols, const bool *right, mv_arena *arena, bool *failed) {
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->right = right;
    t->arena = arena;
    t->failed = failed;
}

static void table_release(table *t) {
    mv_free(NULL, t->cells, t->cap * t->ncols * sizeof *t->cells);
    t->cells = NULL;
}

/* Start a row; returns its cells (all empty) or NULL on OOM. */
static mv_str *table_row(table *t) {
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        mv_str *cells = mv_realloc(NULL, t->cells, t->cap * t->ncols * sizeof *cells,
                                   cap * t->ncols * sizeof *cells);
        if (cells == NULL) {
            *t->failed = true;
            return NULL;
        }
        t->cells = cells;
        t->cap = cap;
    }
    mv_str *row = &t->cells[t->nrows * t->ncols];
    for (size_t i = 0; i < t->ncols; i++)
        row[i] = MV_STR_LIT("");
    t->nrows++;
    return row;
}

/* Display width: code points, which is right for everything but wide CJK. */
static size_t width_of(mv_str s) {
    size_t w = 0;
    for (size_t i = 0; i < s.len; i++)
        w += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
    return w;
}

static void pad(mv_buf *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        mv_buf_putc(b, ' ');
}

static void table_print(mv_buf *b, const table *t) {
    size_t widths[16] = {0};
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols && c < 16; c++) {
            size_t w = width_of(t->cells[r * t->ncols + c]);
            if (w > widths[c])
                widths[c] = w;
        }
    }
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols && c < 16; c++) {
            mv_str cell = t->cells[r * t->ncols + c];
            size_t gap = widths[c] - width_of(cell);
            bool last = c + 1 == t->ncols;
            if (c > 0)
                mv_buf_puts(b, "  ");
            if (t->right != NULL && t->right[c])
                pad(b, gap);
            mv_buf_append(b, cell.ptr, cell.len);
            if ((t->right == NULL || !t->right[c]) && !last)
                pad(b, gap);
        }
        /* An empty last column would leave trailing blanks. */
        while (!b->failed && b->len > 0 && b->data[b->len - 1] == ' ')
            b->data[--b->len] = '\0';
        mv_buf_putc(b, '\n');
    }
}

/* Cell text built with a scratch buffer and kept in the arena. */
static mv_str cell_from(table *t, const mv_buf *tmp) {
    mv_str out = MV_STR_LIT("?");
    char *copy =
        tmp->failed ? NULL : mv_arena_memdup(t->arena, tmp->data ? tmp->data : "", tmp->len);
    if (copy == NULL) {
        *t->failed = true;
    } else {
        out.ptr = copy;
        out.len = tmp->len;
    }
    return out;
}

static mv_str cell_u64(table *t, uint64_t v) {
    mv_buf tmp;
    mv_buf_init(&tmp, NULL);
    mv_buf_printf(&tmp, "%llu", (unsigned long long)v);
    mv_str out = cell_from(t, &tmp);
    mv_buf_release(&tmp);
    return out;
}

/* A rate, or "-" when its denominator is zero. */
static mv_str cell_rate(table *t, double v, bool defined) {
    if (!defined)
        return MV_STR_LIT("-");
    mv_buf tmp;
    mv_buf_init(&tmp, NULL);
    mv_report_put_fixed(&tmp, v, 3);
    mv_str out = cell_from(t, &tmp);
    mv_buf_release(&tmp);
    return out;
}

static mv_str cell_cstr(const char *s) {
    mv_str out = {s, strlen(s)};
    return out;
}

/* -------------------------------------------------------------- sections */

typedef struct text_ctx {
    mv_buf *b;
    const mv_eval *ev;
    mv_arena *arena;
    bool *failed;
} text_ctx;

static mv_str safe(text_ctx *x, mv_str s, const char *empty_as) {
    return mv_eval_safe(x->arena, s, empty_as, x->failed);
}

static void malicious_cells(table *t, mv_str *row, const mv_eval_metrics *m) {
    row[2] = cell_u64(t, m->malicious);
    row[3] = cell_u64(t, m->caught_any);
    row[4] = cell_u64(t, m->caught_quarantine);
    row[5] = cell_rate(t, m->recall_any, m->malicious > 0);
    row[6] = cell_rate(t, m->recall_quarantine, m->malicious > 0);
}

static void put_malicious(text_ctx *x, const mv_eval_section *sec) {
    static const bool right[] = {false, false, true, true, true, true, true, false};
    static const char *const head[] = {"Malicious category", "check",  "entries",   "any",
                                       "quarantine",         "recall", "recall(q)", "gate"};
    table t;
    table_init(&t, 8, right, x->arena, x->failed);
    mv_str *row = table_row(&t);
    for (size_t i = 0; row != NULL && i < 8; i++)
        row[i] = cell_cstr(head[i]);
    for (size_t i = 0; i < sec->n_rows; i++) {
        const mv_eval_row *r = &sec->rows[i];
        if (r->kind != MV_EVAL_ROW_MALICIOUS || (row = table_row(&t)) == NULL)
            continue;
        row[0] = safe(x, r->name, "(none)");
        row[1] = cell_cstr(r->check_id != NULL ? r->check_id : "-");
        malicious_cells(&t, row, &r->m);
        row[7] = cell_cstr(r->enforced ? "enforced" : "not enforced (check not registered)");
    }
    if ((row = table_row(&t)) != NULL) {
        row[0] = cell_cstr("(all malicious)");
        malicious_cells(&t, row, &sec->overall);
    }
    table_print(x->b, &t);
    table_release(&t);
}

static void fp_cells(table *t, mv_str *row, uint64_t n, uint64_t fp, uint64_t fpq) {
    row[1] = cell_u64(t, n);
    row[2] = cell_u64(t, fp);
    row[3] = cell_u64(t, fpq);
    row[4] = cell_rate(t, n > 0 ? (double)fp / (double)n : 0.0, n > 0);
    row[5] = cell_rate(t, n > 0 ? (double)fpq / (double)n : 0.0, n > 0);
}

static void put_negatives(text_ctx *x, const mv_eval_section *sec, mv_eval_row_kind kind) {
    static const bool right[] = {false, true, true, true, true, true};
    const char *head[] = {kind == MV_EVAL_ROW_HARD_NEGATIVE ? "Hard negatives (resembles)"
                                                            : "Clean benign category",
                          "entries",
                          "fp",
                          "fp(q)",
                          "fp rate",
                          "fp rate(q)"};
    table t;
    table_init(&t, 6, right, x->arena, x->failed);
    mv_str *row = table_row(&t);
    for (size_t i = 0; row != NULL && i < 6; i++)
        row[i] = cell_cstr(head[i]);
    for (size_t i = 0; i < sec->n_rows; i++) {
        const mv_eval_row *r = &sec->rows[i];
        if (r->kind != kind || (row = table_row(&t)) == NULL)
            continue;
        row[0] = safe(x, r->name, "(unspecified)");
        if (kind == MV_EVAL_ROW_HARD_NEGATIVE)
            fp_cells(&t, row, r->m.hard_negatives, r->m.hn_fp_any, r->m.hn_fp_quarantine);
        else
            fp_cells(&t, row, r->m.benign, r->m.benign_fp_any, r->m.benign_fp_quarantine);
    }
    if ((row = table_row(&t)) != NULL) {
        const mv_eval_metrics *m = &sec->overall;
        if (kind == MV_EVAL_ROW_HARD_NEGATIVE) {
            row[0] = cell_cstr("(all hard negatives)");
            fp_cells(&t, row, m->hard_negatives, m->hn_fp_any, m->hn_fp_quarantine);
        } else {
            row[0] = cell_cstr("(all clean benign)");
            fp_cells(&t, row, m->benign, m->benign_fp_any, m->benign_fp_quarantine);
        }
    }
    table_print(x->b, &t);
    table_release(&t);
}

static void put_rate(mv_buf *b, double v, bool defined) {
    if (defined)
        mv_report_put_fixed(b, v, 3);
    else
        mv_buf_putc(b, '-');
}

static void put_overall(text_ctx *x, const char *title, const mv_eval_metrics *m) {
    mv_buf *b = x->b;
    mv_buf_printf(b, "%s: %llu entries (%llu malicious, %llu hard negatives, %llu clean benign)\n",
                  title, (unsigned long long)m->entries, (unsigned long long)m->malicious,
                  (unsigned long long)m->hard_negatives, (unsigned long long)m->benign);
    mv_buf_puts(b, "  recall ");
    put_rate(b, m->recall_any, m->malicious > 0);
    mv_buf_puts(b, " any tier, ");
    put_rate(b, m->recall_quarantine, m->malicious > 0);
    mv_buf_puts(b, " quarantine; precision ");
    put_rate(b, m->precision, mv_eval_has_precision(m));
    mv_buf_puts(b, "; F1 ");
    put_rate(b, m->f1, mv_eval_has_precision(m) && m->malicious > 0);
    mv_buf_puts(b, "\n  hard-negative FP ");
    put_rate(b, m->hn_fp_rate_any, m->hard_negatives > 0);
    mv_buf_puts(b, " any tier, ");
    put_rate(b, m->hn_fp_rate_quarantine, m->hard_negatives > 0);
    mv_buf_puts(b, " quarantine; clean-benign FP ");
    put_rate(b, m->benign_fp_rate_any, m->benign > 0);
    mv_buf_puts(b, " any tier, ");
    put_rate(b, m->benign_fp_rate_quarantine, m->benign > 0);
    mv_buf_puts(b, " quarantine\n");
    if (m->expected_quarantine > 0) {
        mv_buf_puts(b, "  expected quarantine: recall ");
        put_rate(b, m->recall_expected_quarantine, true);
        mv_buf_printf(b, " at quarantine (%llu of %llu entries labeled expected=quarantine)\n",
                      (unsigned long long)m->caught_expected_quarantine,
                      (unsigned long long)m->expected_quarantine);
    }
    if (m->degraded > 0)
        mv_buf_printf(b, "  DEGRADED: %llu %s had a failed check or a hit cap\n",
                      (unsigned long long)m->degraded, m->degraded == 1 ? "entry" : "entries");
}

static void put_section(text_ctx *x, const mv_eval_section *sec, const char *title) {
    put_malicious(x, sec);
    mv_buf_putc(x->b, '\n');
    put_negatives(x, sec, MV_EVAL_ROW_HARD_NEGATIVE);
    mv_buf_putc(x->b, '\n');
    put_negatives(x, sec, MV_EVAL_ROW_BENIGN);
    mv_buf_putc(x->b, '\n');
    put_overall(x, title, &sec->overall);
}

static void put_parity(text_ctx *x) {
    static const bool right[] = {false, false, true, true, true};
    static const char *const head[] = {"Phrase family", "variant", "entries", "caught", "recall"};
    const mv_eval *ev = x->ev;
    if (ev->n_parity == 0)
        return;
    mv_buf_puts(x->b, "\nVariant parity (phrase_injection)\n");
    table t;
    table_init(&t, 5, right, x->arena, x->failed);
    mv_str *row = table_row(&t);
    for (size_t i = 0; row != NULL && i < 5; i++)
        row[i] = cell_cstr(head[i]);
    for (size_t i = 0; i < ev->n_parity; i++) {
        const mv_eval_parity *p = &ev->parity[i];
        if ((row = table_row(&t)) == NULL)
            continue;
        row[0] = safe(x, p->family, "(none)");
        row[1] = safe(x, p->variant, "(none)");
        row[2] = cell_u64(&t, p->total);
        row[3] = cell_u64(&t, p->caught_any);
        row[4] = cell_rate(&t, p->recall_any, p->total > 0);
    }
    table_print(x->b, &t);
    table_release(&t);
}

static mv_str entry_signals(table *t, const mv_eval_entry *en) {
    if (en->n_checks == 0)
        return MV_STR_LIT("-");
    mv_buf tmp;
    mv_buf_init(&tmp, NULL);
    for (uint32_t k = 0; k < en->n_checks; k++)
        mv_buf_printf(&tmp, "%s%s", k > 0 ? "," : "", en->checks[k]);
    mv_str out = cell_from(t, &tmp);
    mv_buf_release(&tmp);
    return out;
}

static void put_entries(text_ctx *x) {
    static const bool right[] = {false, false, false, false, false, true, false};
    static const char *const head[] = {"Entry",    "label",      "category", "verdict",
                                       "severity", "confidence", "signals"};
    const mv_eval *ev = x->ev;
    mv_buf_puts(x->b, "\nPer entry\n");
    table t;
    table_init(&t, 7, right, x->arena, x->failed);
    mv_str *row = table_row(&t);
    for (size_t i = 0; row != NULL && i < 7; i++)
        row[i] = cell_cstr(head[i]);
    for (size_t i = 0; i < ev->n_entries; i++) {
        const mv_eval_entry *en = &ev->entries[i];
        if ((row = table_row(&t)) == NULL)
            continue;
        row[0] = safe(x, en->id, "(no id)");
        row[1] = safe(x, en->label, "-");
        row[2] = safe(x, en->category, "-");
        row[3] = cell_cstr(mv_verdict_name(en->verdict));
        row[4] = cell_cstr(mv_severity_name(en->severity));
        row[5] = cell_rate(&t, en->confidence, true);
        row[6] = entry_signals(&t, en);
        if (en->degraded) {
            mv_buf tmp;
            mv_buf_init(&tmp, NULL);
            mv_buf_append(&tmp, row[6].ptr, row[6].len);
            mv_buf_puts(&tmp, " (DEGRADED)");
            row[6] = cell_from(&t, &tmp);
            mv_buf_release(&tmp);
        }
    }
    table_print(x->b, &t);
    table_release(&t);
}

static void put_gate(text_ctx *x) {
    const mv_eval_gate *g = &x->ev->gate;
    if (!g->ran)
        return;
    mv_buf_putc(x->b, '\n');
    for (size_t i = 0; i < g->n_notes; i++)
        mv_buf_printf(x->b, "note: %s\n", g->notes[i]);
    if (g->passed) {
        mv_buf_printf(x->b, "%s\n", g->message);
    } else {
        for (size_t i = 0; i < g->n_failures; i++)
            mv_buf_printf(x->b, "%s\n", g->failures[i]);
    }
}

int mv_eval_render_text(mv_buf *out, const mv_eval *ev, const mv_eval_render_options *o,
                        mv_arena *arena, bool *failed) {
    text_ctx x = {out, ev, arena, failed};
    const char *version = o->version != NULL ? o->version : MCPVET_VERSION;
    mv_buf_printf(out, "mcpvet %s eval \xe2\x80\x94 %zu entries from %zu %s, mode %s\n", version,
                  ev->n_entries, ev->n_sources, ev->n_sources == 1 ? "file" : "files",
                  mv_eval_mode_name(ev->mode));
    mv_buf_printf(out, "Checks (%zu):", ev->n_check_ids);
    for (size_t i = 0; i < ev->n_check_ids; i++)
        mv_buf_printf(out, "%s %s", i > 0 ? "," : "", ev->check_ids[i]);
    mv_buf_puts(out, ev->n_check_ids == 0 ? " none\n\n" : "\n\n");
    put_section(&x, &ev->all, "Overall");
    if (ev->has_holdout) {
        mv_buf_puts(out, "\nHoldout (files under holdout/, never used to tune rules)\n");
        put_section(&x, &ev->holdout, "Holdout");
    }
    put_parity(&x);
    if (o->per_entry)
        put_entries(&x);
    if (ev->degraded)
        mv_buf_printf(out,
                      "\nDEGRADED: %llu %s had a failed check or a hit cap; the numbers are "
                      "partial.\n",
                      (unsigned long long)ev->degraded_entries,
                      ev->degraded_entries == 1 ? "entry" : "entries");
    put_gate(&x);
    return out->failed ? MV_ENOMEM : MV_OK;
}
