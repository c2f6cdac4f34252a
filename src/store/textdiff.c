/*
 * Character-level diffs of the strings inside two tool definitions (a
 * changed description, a changed schema string) and the similarity score
 * that tells a near-identical rename from an unrelated remove and add. The
 * CLI (`security diff`), the REST API and the review page all show what
 * this file computes, so they cannot disagree.
 *
 * The core is Myers' O((N+M)D) greedy diff over tokens. A tool's text is
 * attacker-controlled and may be 64 KiB long, so every run has two caps:
 * the edit distance D (the trace kept for backtracking is (D+1)^2 cells)
 * and the token comparisons made. Past a cap the same texts are tried again
 * with coarser tokens -- code points, then words, then lines -- and past
 * the last the texts are shown as replaced whole. The result names the mode
 * that fit, so a reader is told when the diff is coarser than characters.
 * Common prefix and suffix are trimmed before any of it: a rug pull usually
 * edits a few words of a long text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/canonical.h"
#include "json/json.h"
#include "mcpvet/store.h"

#define TD_DEFAULT_MAX_EDITS 1024u
#define TD_DEFAULT_MAX_WORK (16u * 1024 * 1024)
/* Texts longer than this skip the token modes: lines at most. */
#define TD_MAX_TOKEN_TEXT (1024u * 1024)
/* Leaves collected per definition, strings diffed per definition. */
#define TD_MAX_LEAVES 8192u
#define TD_MAX_DIFFED 256u
/* Bytes of all strings of one definition diffed with the full caps; past
 * it the rest get one edit each (in effect whole), so a hostile definition
 * of many long strings costs linear time, not 256 capped diffs. */
#define TD_BUDGET_BYTES (1024u * 1024)
/* Equal runs shorter than this (in tokens) between two changes are folded
 * into the change: "a[-b-]{+c+}d[-e-]{+f+}" reads worse than "[-abde-]". */
#define TD_MIN_KEEP 3u

const char *mv_diff_mode_name(mv_diff_mode m) {
    switch (m) {
    case MV_DIFF_CHAR:
        return "char";
    case MV_DIFF_WORD:
        return "word";
    case MV_DIFF_LINE:
        return "line";
    case MV_DIFF_WHOLE:
        return "whole";
    }
    return "?";
}

/* ------------------------------------------------------------- tokens */

typedef struct tok {
    uint32_t off, len, hash;
} tok;

typedef struct toks {
    tok *v;
    size_t n, cap;
    const mv_allocator *alloc;
} toks;

/* Length of the UTF-8 sequence at s (1 for an invalid lead byte, so any
 * byte string tokenizes). */
static size_t cp_len(const unsigned char *s, size_t left) {
    size_t n = s[0] < 0x80         ? 1
               : (s[0] >> 5) == 6  ? 2
               : (s[0] >> 4) == 14 ? 3
               : (s[0] >> 3) == 30 ? 4
                                   : 1;
    if (n > left)
        return 1;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

static bool is_word_byte(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c >= 0x80;
}

static bool is_space_byte(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int push(toks *t, size_t off, size_t len, const char *s) {
    if (t->n == t->cap) {
        size_t ncap = t->cap == 0 ? 64 : 2 * t->cap;
        tok *g = mv_realloc(t->alloc, t->v, t->cap * sizeof(*g), ncap * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        t->v = g;
        t->cap = ncap;
    }
    uint32_t h = 2166136261u; /* FNV-1a: a cheap filter before memcmp */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[off + i]) * 16777619u;
    t->v[t->n++] = (tok){(uint32_t)off, (uint32_t)len, h};
    return MV_OK;
}

static int tokenize(toks *t, const char *text, size_t len, mv_diff_mode mode) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    int rc = MV_OK;
    while (i < len && rc == MV_OK) {
        size_t n = 1;
        if (mode == MV_DIFF_CHAR) {
            n = cp_len(s + i, len - i);
        } else if (mode == MV_DIFF_WORD) {
            if (is_word_byte(s[i])) {
                while (i + n < len && is_word_byte(s[i + n]))
                    n++;
            } else if (is_space_byte(s[i])) {
                while (i + n < len && is_space_byte(s[i + n]))
                    n++;
            } else {
                n = cp_len(s + i, len - i);
            }
        } else {
            const unsigned char *nl = memchr(s + i, '\n', len - i);
            n = nl != NULL ? (size_t)(nl - (s + i)) + 1 : len - i;
        }
        rc = push(t, i, n, text);
        i += n;
    }
    return rc;
}

/* ---------------------------------------------------------------- Myers */

typedef struct run {
    size_t a, b, n; /* an equal run of n tokens at a in A and b in B */
} run;

typedef struct td_ctx {
    const char *a, *b;
    const tok *ta, *tb;
    size_t max_edits, max_work;
    const mv_allocator *alloc;
} td_ctx;

static bool tok_eq(const td_ctx *c, size_t i, size_t j) {
    const tok *x = &c->ta[i], *y = &c->tb[j];
    return x->hash == y->hash && x->len == y->len &&
           memcmp(c->a + x->off, c->b + y->off, x->len) == 0;
}

/*
 * Equal runs of A[a0..a1) and B[b0..b1), in order, appended to *runs.
 * Returns MV_OK, MV_ENOMEM, or 1 when a cap was hit (nothing appended).
 */
static int myers(const td_ctx *c, size_t a0, size_t a1, size_t b0, size_t b1, run **runs,
                 size_t *n_runs, size_t *cap_runs) {
    size_t n = a1 - a0, m = b1 - b0;
    size_t max_d = n + m < c->max_edits ? n + m : c->max_edits;
    /* trace[d*d + (k + d)] = furthest x on diagonal k after d edits. */
    size_t trace_cells = (max_d + 1) * (max_d + 1);
    int32_t *trace = NULL, *v = NULL;
    size_t v_cells = 2 * max_d + 3, work = 0;
    int rc = 1;
    ptrdiff_t found_d = -1;
    /* Only as much trace as the edits need: grown as d rises. */
    size_t trace_have = 0;
    v = mv_calloc(c->alloc, v_cells, sizeof(*v));
    if (v == NULL)
        return MV_ENOMEM;
    const ptrdiff_t off = (ptrdiff_t)max_d + 1;
    for (size_t d = 0; d <= max_d; d++) {
        size_t need = (d + 1) * (d + 1);
        if (need > trace_have) {
            size_t nh = trace_have == 0 ? 64 : trace_have;
            while (nh < need)
                nh *= 2;
            if (nh > trace_cells)
                nh = trace_cells;
            int32_t *g = mv_realloc(c->alloc, trace, trace_have * sizeof(*g), nh * sizeof(*g));
            if (g == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            trace = g;
            trace_have = nh;
        }
        ptrdiff_t D = (ptrdiff_t)d;
        for (ptrdiff_t k = -D; k <= D; k += 2) {
            ptrdiff_t x;
            if (k == -D || (k != D && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1]; /* down: an insertion from B */
            else
                x = v[off + k - 1] + 1; /* right: a deletion from A */
            ptrdiff_t y = x - k;
            while ((size_t)x < n && y >= 0 && (size_t)y < m &&
                   tok_eq(c, a0 + (size_t)x, b0 + (size_t)y)) {
                x++;
                y++;
                work++;
            }
            work++;
            v[off + k] = (int32_t)x;
            trace[d * d + (size_t)(k + D)] = (int32_t)x;
            if ((size_t)x >= n && y >= 0 && (size_t)y >= m) {
                found_d = D;
                break;
            }
        }
        if (found_d >= 0 || work > c->max_work)
            break;
    }
    if (found_d < 0)
        goto done; /* a cap: rc stays 1 */
    /* Backtrack from (n, m): step d came from diagonal pk of step d - 1
     * by one edit, then followed a snake (an equal run) to (x, y). Runs
     * come out last first. */
    size_t first = *n_runs, x = n, y = m;
    for (ptrdiff_t d = found_d; d >= 0; d--) {
        ptrdiff_t k = (ptrdiff_t)x - (ptrdiff_t)y;
        size_t sx = 0, px = 0, py = 0;
        if (d > 0) {
            const int32_t *pv = trace + (size_t)((d - 1) * (d - 1)) + (d - 1);
            bool down = k == -d || (k != d && pv[k - 1] < pv[k + 1]);
            ptrdiff_t pk = down ? k + 1 : k - 1;
            px = (size_t)pv[pk];
            py = (size_t)((ptrdiff_t)px - pk);
            sx = down ? px : px + 1;
        }
        if (x > sx) {
            if (*n_runs == *cap_runs) {
                size_t nc = *cap_runs == 0 ? 16 : 2 * *cap_runs;
                run *g = mv_realloc(c->alloc, *runs, *cap_runs * sizeof(*g), nc * sizeof(*g));
                if (g == NULL) {
                    rc = MV_ENOMEM;
                    goto done;
                }
                *runs = g;
                *cap_runs = nc;
            }
            size_t sy = (size_t)((ptrdiff_t)sx - k);
            (*runs)[(*n_runs)++] = (run){a0 + sx, b0 + sy, x - sx};
        }
        x = px;
        y = py;
    }
    /* reverse into document order */
    for (size_t i = first, j = *n_runs; i + 1 < j; i++, j--) {
        run t = (*runs)[i];
        (*runs)[i] = (*runs)[j - 1];
        (*runs)[j - 1] = t;
    }
    rc = MV_OK;
done:
    mv_free(c->alloc, v, v_cells * sizeof(*v));
    mv_free(c->alloc, trace, trace_have * sizeof(*trace));
    return rc;
}

/* ---------------------------------------------------------------- spans */

typedef struct span_buf {
    mv_diff_span *v;
    size_t n, cap;
    const mv_allocator *alloc;
} span_buf;

static int add_span(span_buf *s, char op, const char *p, size_t len) {
    if (len == 0)
        return MV_OK;
    if (s->n > 0 && s->v[s->n - 1].op == op &&
        s->v[s->n - 1].text.ptr + s->v[s->n - 1].text.len == p) {
        s->v[s->n - 1].text.len += len;
        return MV_OK;
    }
    if (s->n == s->cap) {
        size_t nc = s->cap == 0 ? 16 : 2 * s->cap;
        mv_diff_span *g = mv_realloc(s->alloc, s->v, s->cap * sizeof(*g), nc * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        s->v = g;
        s->cap = nc;
    }
    s->v[s->n++] = (mv_diff_span){op, {p, len}};
    return MV_OK;
}

/* Byte offset of token i (the text length past the last). */
static size_t tok_off(const toks *t, size_t i, size_t text_len) {
    return i < t->n ? t->v[i].off : text_len;
}

/* Diff with one tokenization. Returns MV_OK, MV_ENOMEM or 1 (a cap). */
static int diff_mode(span_buf *out, size_t *same, const char *a, size_t alen, const char *b,
                     size_t blen, mv_diff_mode mode, const mv_diff_limits *lim,
                     const mv_allocator *alloc) {
    toks ta = {.alloc = alloc}, tb = {.alloc = alloc};
    run *runs = NULL;
    size_t n_runs = 0, cap_runs = 0;
    int rc = tokenize(&ta, a, alen, mode);
    if (rc == MV_OK)
        rc = tokenize(&tb, b, blen, mode);
    if (rc != MV_OK)
        goto done;
    td_ctx c = {a, b, ta.v, tb.v, lim->max_edits, lim->max_work, alloc};
    size_t na = ta.n, nb = tb.n, pre = 0, suf = 0;
    while (pre < na && pre < nb && tok_eq(&c, pre, pre))
        pre++;
    while (suf < na - pre && suf < nb - pre && tok_eq(&c, na - 1 - suf, nb - 1 - suf))
        suf++;
    if (pre > 0) {
        cap_runs = 16;
        runs = mv_alloc(alloc, cap_runs * sizeof(*runs));
        if (runs == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        runs[n_runs++] = (run){0, 0, pre};
    }
    if ((rc = myers(&c, pre, na - suf, pre, nb - suf, &runs, &n_runs, &cap_runs)) != MV_OK)
        goto done;
    if (suf > 0) {
        if (n_runs == cap_runs) {
            size_t nc = cap_runs == 0 ? 16 : 2 * cap_runs;
            run *g = mv_realloc(alloc, runs, cap_runs * sizeof(*g), nc * sizeof(*g));
            if (g == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            runs = g;
            cap_runs = nc;
        }
        runs[n_runs++] = (run){na - suf, nb - suf, suf};
    }
    /* Fold short equal runs between changes into the change around them. */
    size_t keep = 0;
    for (size_t i = 0; i < n_runs; i++) {
        run r = runs[i];
        bool at_start = r.a == 0 && r.b == 0;
        bool at_end = r.a + r.n == na && r.b + r.n == nb;
        if (mode != MV_DIFF_LINE && r.n < TD_MIN_KEEP && !at_start && !at_end)
            continue;
        if (keep > 0 && runs[keep - 1].a + runs[keep - 1].n == r.a &&
            runs[keep - 1].b + runs[keep - 1].n == r.b) {
            runs[keep - 1].n += r.n;
            continue;
        }
        runs[keep++] = r;
    }
    n_runs = keep;
    size_t ai = 0, bi = 0;
    *same = 0;
    for (size_t i = 0; i <= n_runs && rc == MV_OK; i++) {
        size_t ra = i < n_runs ? runs[i].a : na, rb = i < n_runs ? runs[i].b : nb;
        size_t da = tok_off(&ta, ai, alen), ea = tok_off(&ta, ra, alen);
        size_t db = tok_off(&tb, bi, blen), eb = tok_off(&tb, rb, blen);
        rc = add_span(out, '-', a + da, ea - da);
        if (rc == MV_OK)
            rc = add_span(out, '+', b + db, eb - db);
        if (rc != MV_OK || i == n_runs)
            break;
        size_t s0 = tok_off(&ta, ra, alen), s1 = tok_off(&ta, ra + runs[i].n, alen);
        rc = add_span(out, '=', a + s0, s1 - s0);
        *same += s1 - s0;
        ai = ra + runs[i].n;
        bi = rb + runs[i].n;
    }
done:
    mv_free(alloc, ta.v, ta.cap * sizeof(*ta.v));
    mv_free(alloc, tb.v, tb.cap * sizeof(*tb.v));
    mv_free(alloc, runs, cap_runs * sizeof(*runs));
    return rc;
}

int mv_diff_text(mv_text_diff *out, mv_arena *arena, const char *a, size_t alen, const char *b,
                 size_t blen, const mv_diff_limits *limits, const mv_allocator *alloc) {
    mv_diff_limits lim = {TD_DEFAULT_MAX_EDITS, TD_DEFAULT_MAX_WORK};
    span_buf sb = {.alloc = alloc};
    int rc = MV_OK;
    memset(out, 0, sizeof(*out));
    if (limits != NULL && limits->max_edits > 0)
        lim.max_edits = limits->max_edits;
    if (limits != NULL && limits->max_work > 0)
        lim.max_work = limits->max_work;
    if (a == NULL)
        a = "", alen = 0;
    if (b == NULL)
        b = "", blen = 0;
    mv_diff_mode mode = alen + blen > TD_MAX_TOKEN_TEXT ? MV_DIFF_LINE : MV_DIFF_CHAR;
    for (;; mode++) {
        sb.n = 0;
        out->same = 0;
        if (mode == MV_DIFF_WHOLE) {
            rc = add_span(&sb, '-', a, alen);
            if (rc == MV_OK)
                rc = add_span(&sb, '+', b, blen);
            break;
        }
        rc = diff_mode(&sb, &out->same, a, alen, b, blen, mode, &lim, alloc);
        if (rc != 1)
            break;
    }
    if (rc != MV_OK)
        goto done;
    out->mode = mode;
    out->n = sb.n;
    if (sb.n > 0) {
        out->spans = mv_arena_alloc(arena, sb.n * sizeof(*sb.v));
        if (out->spans == NULL)
            rc = MV_ENOMEM;
        else
            memcpy(out->spans, sb.v, sb.n * sizeof(*sb.v));
    }
done:
    mv_free(alloc, sb.v, sb.cap * sizeof(*sb.v));
    if (rc != MV_OK)
        memset(out, 0, sizeof(*out));
    return rc;
}

unsigned mv_diff_permille(const mv_text_diff *d, size_t alen, size_t blen) {
    if (alen + blen == 0)
        return 1000;
    return (unsigned)((2000u * (unsigned long long)d->same) / (alen + blen));
}

/* ------------------------------------------------- definition strings */

typedef struct leaf {
    const char *path;
    size_t path_len;
    const char *s;
    size_t n;
} leaf;

typedef struct leaves {
    leaf *v;
    size_t n, cap;
    bool truncated;
    mv_arena *arena;
} leaves;

/* Append the JSON Pointer escape of a key (~ as ~0, / as ~1). */
static void put_ptr_seg(mv_buf *b, const char *k, size_t n) {
    mv_buf_putc(b, '/');
    for (size_t i = 0; i < n; i++) {
        if (k[i] == '~')
            mv_buf_puts(b, "~0");
        else if (k[i] == '/')
            mv_buf_puts(b, "~1");
        else
            mv_buf_putc(b, k[i]);
    }
}

static int collect(leaves *L, mv_buf *path, const mv_jv *v, unsigned depth) {
    int rc = MV_OK;
    if (L->truncated)
        return MV_OK;
    if (v->type == MV_JSTRING) {
        if (L->n == TD_MAX_LEAVES) {
            L->truncated = true;
            return MV_OK;
        }
        if (L->n == L->cap) {
            size_t nc = L->cap == 0 ? 32 : 2 * L->cap;
            leaf *g = mv_arena_grow(L->arena, L->v, L->cap * sizeof(*g), nc * sizeof(*g));
            if (g == NULL)
                return MV_ENOMEM;
            L->v = g;
            L->cap = nc;
        }
        char *p = mv_arena_memdup(L->arena, path->data != NULL ? path->data : "", path->len + 1);
        if (p == NULL)
            return MV_ENOMEM;
        p[path->len] = '\0';
        L->v[L->n++] = (leaf){p, path->len, v->u.s, v->n};
        return MV_OK;
    }
    if (depth > MV_JSON_MAX_DEPTH || (v->type != MV_JOBJECT && v->type != MV_JARRAY))
        return MV_OK;
    for (uint32_t i = 0; i < v->n && rc == MV_OK; i++) {
        size_t mark = path->len;
        const mv_jv *child;
        if (v->type == MV_JOBJECT) {
            put_ptr_seg(path, v->u.members[i].key, v->u.members[i].key_len);
            child = &v->u.members[i].value;
        } else {
            mv_buf_printf(path, "/%u", (unsigned)i);
            child = &v->u.items[i];
        }
        if (path->failed)
            return MV_ENOMEM;
        rc = collect(L, path, child, depth + 1);
        path->len = mark;
    }
    return rc;
}

static int leaf_cmp(const leaf *x, const leaf *y) {
    size_t n = x->path_len < y->path_len ? x->path_len : y->path_len;
    int c = memcmp(x->path, y->path, n);
    return c != 0 ? c : x->path_len < y->path_len ? -1 : x->path_len > y->path_len ? 1 : 0;
}

static int leaf_qcmp(const void *x, const void *y) {
    return leaf_cmp(x, y);
}

static int parse_leaves(leaves *L, mv_arena *arena, const char *text, size_t len,
                        const mv_allocator *alloc) {
    const mv_jv *doc = NULL;
    mv_jerror je;
    mv_buf path;
    int rc;
    if (text == NULL || len == 0)
        return MV_OK;
    if (mv_json_parse(&doc, arena, alloc, text, len, &je) != MV_OK)
        return je.code == MV_ENOMEM ? MV_ENOMEM : MV_EPARSE;
    mv_buf_init(&path, alloc);
    rc = collect(L, &path, doc, 0);
    mv_buf_release(&path);
    if (rc == MV_OK && L->n > 1)
        qsort(L->v, L->n, sizeof(*L->v), leaf_qcmp);
    return rc;
}

int mv_diff_definition_strings(mv_definition_diff **out, const char *a, size_t alen, const char *b,
                               size_t blen, const mv_allocator *alloc) {
    int rc = MV_OK;
    *out = NULL;
    mv_arena *arena = mv_arena_new(alloc, 0);
    mv_definition_diff *d = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*d)) : NULL;
    if (d == NULL) {
        mv_arena_free(arena);
        return MV_ENOMEM;
    }
    d->arena = arena;
    leaves la = {.arena = arena}, lb = {.arena = arena};
    if ((rc = parse_leaves(&la, arena, a, alen, alloc)) != MV_OK ||
        (rc = parse_leaves(&lb, arena, b, blen, alloc)) != MV_OK)
        goto done;
    d->truncated = la.truncated || lb.truncated;
    size_t cap = 0, i = 0, j = 0, spent = 0;
    while (i < la.n || j < lb.n) {
        int c = i == la.n ? 1 : j == lb.n ? -1 : leaf_cmp(&la.v[i], &lb.v[j]);
        const leaf *x = c <= 0 ? &la.v[i] : NULL, *y = c >= 0 ? &lb.v[j] : NULL;
        i += c <= 0;
        j += c >= 0;
        if (x != NULL && y != NULL && x->n == y->n && memcmp(x->s, y->s, x->n) == 0)
            continue;
        if (d->n == TD_MAX_DIFFED) {
            d->truncated = true;
            break;
        }
        if (d->n == cap) {
            size_t nc = cap == 0 ? 8 : 2 * cap;
            mv_diff_string *g = mv_arena_grow(arena, d->strings, cap * sizeof(*g), nc * sizeof(*g));
            if (g == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            d->strings = g;
            cap = nc;
        }
        mv_diff_string *s = &d->strings[d->n++];
        memset(s, 0, sizeof(*s));
        const leaf *p = x != NULL ? x : y;
        s->path = (mv_str){p->path, p->path_len};
        s->change = x == NULL ? '+' : y == NULL ? '-' : '~';
        s->a = x != NULL ? (mv_str){x->s, x->n} : (mv_str){"", 0};
        s->b = y != NULL ? (mv_str){y->s, y->n} : (mv_str){"", 0};
        mv_diff_limits tight = {.max_edits = 1, .max_work = 1};
        spent += s->a.len + s->b.len;
        rc = mv_diff_text(&s->diff, arena, s->a.ptr, s->a.len, s->b.ptr, s->b.len,
                          spent > TD_BUDGET_BYTES ? &tight : NULL, alloc);
        if (rc != MV_OK)
            goto done;
    }
done:
    if (rc != MV_OK) {
        mv_arena_free(arena);
        return rc;
    }
    *out = d;
    return MV_OK;
}

void mv_definition_diff_free(mv_definition_diff *d) {
    if (d != NULL)
        mv_arena_free(d->arena);
}

/* The canonical text of a definition without its "name" member. */
static int body_text(mv_buf *out, mv_arena *arena, const char *s, size_t len,
                     const mv_allocator *alloc) {
    const mv_jv *doc = NULL;
    mv_jerror je;
    if (s == NULL || len == 0)
        return MV_OK;
    if (mv_json_parse(&doc, arena, alloc, s, len, &je) != MV_OK)
        return je.code == MV_ENOMEM ? MV_ENOMEM : MV_EPARSE;
    if (!mv_jis_object(doc))
        return mv_json_canonical(out, doc);
    for (uint32_t i = 0; i < doc->n; i++) {
        const mv_jm *m = &doc->u.members[i];
        if (m->key_len == 4 && memcmp(m->key, "name", 4) == 0)
            continue;
        mv_json_canonical_string(out, m->key, m->key_len);
        mv_buf_putc(out, ':');
        int rc = mv_json_canonical(out, &m->value);
        if (rc != MV_OK)
            return rc;
        mv_buf_putc(out, '\n');
    }
    return out->failed ? MV_ENOMEM : MV_OK;
}

int mv_diff_rename_score(unsigned *permille, const char *a, size_t alen, const char *b, size_t blen,
                         const mv_allocator *alloc) {
    mv_buf ba, bb;
    mv_text_diff td;
    mv_arena *arena = mv_arena_new(alloc, 0);
    int rc = MV_ENOMEM;
    *permille = 0;
    mv_buf_init(&ba, alloc);
    mv_buf_init(&bb, alloc);
    if (arena == NULL)
        goto done;
    if ((rc = body_text(&ba, arena, a, alen, alloc)) != MV_OK ||
        (rc = body_text(&bb, arena, b, blen, alloc)) != MV_OK)
        goto done;
    rc = mv_diff_text(&td, arena, ba.data, ba.len, bb.data, bb.len, NULL, alloc);
    if (rc == MV_OK)
        *permille = mv_diff_permille(&td, ba.len, bb.len);
done:
    mv_buf_release(&ba);
    mv_buf_release(&bb);
    mv_arena_free(arena);
    return rc;
}
