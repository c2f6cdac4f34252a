/*
 * A small unified line diff for `security diff`: the approved and current
 * canonical definitions are pretty-printed render-safe (one member per line,
 * hidden characters as \uXXXX) and compared line by line. The common prefix
 * and suffix are trimmed first (a rug pull usually touches a few lines of a
 * definition), then a longest-common-subsequence table over what is left
 * gives the edit script; past a work cap the middle is shown as replaced
 * wholesale, so a hostile definition cannot make the diff quadratic.
 */
#include <stdint.h>
#include <string.h>

#include "json/canonical.h"
#include "json/json.h"
#include "mcpvet/store.h"

/* Cells of the LCS table above which the middle is shown as replaced. */
#define DIFF_MAX_CELLS (4u * 1024 * 1024)

typedef struct line {
    const char *p;
    size_t n;
} line;

static int split(const char *s, size_t len, line **out, size_t *n, const mv_allocator *a) {
    size_t count = 0;
    *out = NULL;
    *n = 0;
    if (len == 0)
        return MV_OK;
    for (size_t i = 0; i < len; i++)
        count += s[i] == '\n';
    count += s[len - 1] != '\n';
    line *v = mv_alloc(a, count * sizeof(*v));
    if (v == NULL)
        return MV_ENOMEM;
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == '\n') {
            if (i == len && start == len)
                break;
            v[k++] = (line){s + start, i - start};
            start = i + 1;
        }
    }
    *out = v;
    *n = k;
    return MV_OK;
}

static bool same(const line *a, const line *b) {
    return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* Edit operations: '=' keep, '-' delete from a, '+' insert from b. */
typedef struct op {
    char kind;
    size_t ai, bi; /* line indexes (the side that applies) */
} op;

static void put_range(mv_buf *out, size_t start, size_t count) {
    /* 1-based start; an empty range names the line before it. */
    mv_buf_put_u64(out, count == 0 ? start : start + 1);
    if (count != 1) {
        mv_buf_putc(out, ',');
        mv_buf_put_u64(out, count);
    }
}

static void emit_hunks(mv_buf *out, const op *ops, size_t n_ops, const line *a, const line *b,
                       unsigned context) {
    size_t i = 0;
    while (i < n_ops) {
        while (i < n_ops && ops[i].kind == '=')
            i++;
        if (i == n_ops)
            break;
        /* The hunk spans from `context` keeps before this change to
         * `context` keeps after the last change closer than 2*context. */
        size_t start = i >= context ? i - context : 0;
        size_t end = i;
        for (;;) {
            while (end < n_ops && ops[end].kind != '=')
                end++;
            size_t keeps = 0;
            while (end + keeps < n_ops && ops[end + keeps].kind == '=')
                keeps++;
            if (end + keeps < n_ops && keeps <= 2 * context) {
                end += keeps;
                continue;
            }
            end += keeps < context ? keeps : context;
            break;
        }
        size_t a_start = 0, b_start = 0, a_count = 0, b_count = 0;
        bool a_set = false, b_set = false;
        /* Starting positions: the first line of each side in the hunk. */
        for (size_t k = start; k < end; k++) {
            if (ops[k].kind != '+' && !a_set) {
                a_start = ops[k].ai;
                a_set = true;
            }
            if (ops[k].kind != '-' && !b_set) {
                b_start = ops[k].bi;
                b_set = true;
            }
            a_count += ops[k].kind != '+';
            b_count += ops[k].kind != '-';
        }
        if (!a_set)
            a_start = ops[start].ai; /* pure insertion: the position it goes to */
        if (!b_set)
            b_start = ops[start].bi;
        mv_buf_puts(out, "@@ -");
        put_range(out, a_start, a_count);
        mv_buf_puts(out, " +");
        put_range(out, b_start, b_count);
        mv_buf_puts(out, " @@\n");
        for (size_t k = start; k < end; k++) {
            const line *l = ops[k].kind == '+' ? &b[ops[k].bi] : &a[ops[k].ai];
            mv_buf_putc(out, ops[k].kind == '=' ? ' ' : ops[k].kind);
            mv_buf_append(out, l->p, l->n);
            mv_buf_putc(out, '\n');
        }
        i = end;
    }
}

int mv_diff_lines(mv_buf *out, const char *ta, size_t alen, const char *tb, size_t blen,
                  const char *label_a, const char *label_b, unsigned context,
                  const mv_allocator *alloc) {
    int rc = MV_OK;
    line *a = NULL, *b = NULL;
    size_t na = 0, nb = 0, n_ops = 0;
    op *ops = NULL;
    uint32_t *tab = NULL;
    size_t tab_cells = 0;

    if ((rc = split(ta, alen, &a, &na, alloc)) != MV_OK ||
        (rc = split(tb, blen, &b, &nb, alloc)) != MV_OK)
        goto done;
    size_t pre = 0;
    while (pre < na && pre < nb && same(&a[pre], &b[pre]))
        pre++;
    size_t suf = 0;
    while (suf < na - pre && suf < nb - pre && same(&a[na - 1 - suf], &b[nb - 1 - suf]))
        suf++;
    if (pre == na && pre == nb)
        goto done; /* identical */
    ops = mv_alloc(alloc, (na + nb) * sizeof(*ops));
    if (ops == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t k = 0; k < pre; k++)
        ops[n_ops++] = (op){'=', k, k};
    size_t ma = na - pre - suf, mb = nb - pre - suf;
    /* A side with no lines has no array (and NULL + 0 is undefined). */
    const line *xa = a != NULL ? a + pre : NULL, *xb = b != NULL ? b + pre : NULL;
    if (ma > 0 && mb > 0 && (ma + 1) <= DIFF_MAX_CELLS / (mb + 1)) {
        /* tab[i][j] = LCS length of xa[i..] and xb[j..] */
        tab_cells = (ma + 1) * (mb + 1);
        tab = mv_calloc(alloc, tab_cells, sizeof(*tab));
        if (tab == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
#define T(i, j) tab[(i) * (mb + 1) + (j)]
        for (size_t i = ma; i-- > 0;)
            for (size_t j = mb; j-- > 0;)
                T(i, j) = same(&xa[i], &xb[j])         ? T(i + 1, j + 1) + 1
                          : T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j)
                                                       : T(i, j + 1);
        size_t i = 0, j = 0;
        while (i < ma || j < mb) {
            if (i < ma && j < mb && same(&xa[i], &xb[j])) {
                ops[n_ops++] = (op){'=', pre + i, pre + j};
                i++;
                j++;
            } else if (j < mb && (i == ma || T(i, j + 1) > T(i + 1, j))) {
                ops[n_ops++] = (op){'+', pre + i, pre + j};
                j++;
            } else {
                ops[n_ops++] = (op){'-', pre + i, pre + j};
                i++;
            }
        }
#undef T
    } else {
        for (size_t i = 0; i < ma; i++)
            ops[n_ops++] = (op){'-', pre + i, pre};
        for (size_t j = 0; j < mb; j++)
            ops[n_ops++] = (op){'+', pre + ma, pre + j};
    }
    for (size_t k = 0; k < suf; k++)
        ops[n_ops++] = (op){'=', na - suf + k, nb - suf + k};
    mv_buf_puts(out, "--- ");
    mv_buf_puts(out, label_a != NULL ? label_a : "a");
    mv_buf_puts(out, "\n+++ ");
    mv_buf_puts(out, label_b != NULL ? label_b : "b");
    mv_buf_putc(out, '\n');
    emit_hunks(out, ops, n_ops, a, b, context);
    if (out->failed)
        rc = MV_ENOMEM;

done:
    mv_free(alloc, a, na * sizeof(*a));
    mv_free(alloc, b, nb * sizeof(*b));
    mv_free(alloc, ops, (na + nb) * sizeof(*ops));
    mv_free(alloc, tab, tab_cells * sizeof(*tab));
    return rc;
}

/* Pretty, render-safe text of one canonical definition ("" when absent). */
static int pretty(mv_buf *out, const char *s, size_t len, const mv_allocator *alloc) {
    if (s == NULL || len == 0)
        return MV_OK;
    mv_arena *arena = mv_arena_new(alloc, len < 4096 ? 4096 : len);
    const mv_jv *doc = NULL;
    mv_jerror je;
    int rc;
    if (arena == NULL)
        return MV_ENOMEM;
    if (mv_json_parse(&doc, arena, alloc, s, len, &je) != MV_OK)
        rc = je.code == MV_ENOMEM ? MV_ENOMEM : MV_EPARSE;
    else if ((rc = mv_json_pretty_safe(out, doc)) == MV_OK)
        rc = mv_buf_putc(out, '\n');
    mv_arena_free(arena);
    return rc;
}

int mv_diff_definitions(mv_buf *out, const char *a, size_t alen, const char *b, size_t blen,
                        const char *label_a, const char *label_b, const mv_allocator *alloc) {
    mv_buf pa, pb;
    mv_buf_init(&pa, alloc);
    mv_buf_init(&pb, alloc);
    int rc = pretty(&pa, a, alen, alloc);
    if (rc == MV_OK)
        rc = pretty(&pb, b, blen, alloc);
    if (rc == MV_OK)
        rc = mv_diff_lines(out, pa.data, pa.len, pb.data, pb.len, label_a, label_b, 3, alloc);
    mv_buf_release(&pa);
    mv_buf_release(&pb);
    return rc;
}
