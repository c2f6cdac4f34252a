/*
 * Parser and compiler of the directive.imperative rule files (see
 * directive_rules.h and the header comment of src/engine/rules/
 * directive_en.rules for the format): templates are expanded, every phrase
 * is normalized with the tool-text normalizer, equal phrases become one
 * term, and all terms go into one Aho-Corasick automaton.
 *
 * Compiling the builtin rules expands ~13,500 phrases into a ~65,000-state
 * automaton, so the build does it once (tools/gen_precompiled.c) and the
 * engine normally starts from the saved result (mv_dr_save / mv_dr_load at
 * the end of this file); compiling at start-up remains the fallback and the
 * reference the saved tables are tested against.
 *
 * Work vectors use the engine allocator and are released at the end; the
 * compiled tables are copied into an arena owned by the result.
 */
#include "directive_rules.h"

#include <assert.h>
#include <string.h>
#include <utf8proc.h>

#include "mcpvet/normalize.h"
#include "rules_data.h"

#define EXPAND_MAX 4096 /* expansions of one template */
#define PHRASE_MAX 512  /* bytes of one expanded phrase */
#define SET_MAX 64
#define SPLIT_LIMIT 48 /* a template part expanding to more becomes several slots */
#define MIN_PIECE 4    /* ...but no piece shorter than this many bytes */

/* ------------------------------------------------------------ utilities */

/* Letters, digits and marks are word characters, except the scripts that
 * are written without spaces (CJK, kana, Hangul, and Thai, Lao, Myanmar and
 * Khmer, whose words run together up to a phrase end): a phrase in those
 * scripts is matched without word boundaries. */
bool mv_dr_is_word_cp(uint32_t cp) {
    bool r;
    if (cp < 0x80) {
        r = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    } else if ((cp >= 0x0E00 && cp <= 0x0EFF) || (cp >= 0x1000 && cp <= 0x109F) ||
               (cp >= 0x1780 && cp <= 0x17FF) || (cp >= 0x2E80 && cp <= 0x9FFF) ||
               (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
               (cp >= 0xFF66 && cp <= 0xFFDC) || cp >= 0x20000) {
        r = false;
    } else {
        utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);
        r = (c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_ME) || c == UTF8PROC_CATEGORY_ND;
    }
    return r;
}

typedef struct vec {
    void *p;
    size_t n;
    size_t cap;
    size_t elem;
} vec;

static void *vec_push(const mv_allocator *a, vec *v) {
    void *slot = NULL;
    if (v->n == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 64;
        void *np = mv_realloc(a, v->p, v->cap * v->elem, ncap * v->elem);
        if (np == NULL) {
            goto done;
        }
        v->p = np;
        v->cap = ncap;
    }
    slot = (char *)v->p + v->n * v->elem;
    memset(slot, 0, v->elem);
    v->n++;
done:
    return slot;
}

static void vec_free(const mv_allocator *a, vec *v) {
    mv_free(a, v->p, v->cap * v->elem);
    v->p = NULL;
    v->n = v->cap = 0;
}

typedef struct use_rec {
    uint32_t term;
    uint32_t rule;
    uint32_t slot;
} use_rec;

typedef struct set_def {
    const char *name;
    size_t name_len;
    size_t first; /* into compiler.set_items */
    size_t count;
} set_def;

typedef enum section { S_NONE = 0, S_FAMILY, S_CONTEXT, S_SET, S_WORDS } section;

typedef struct compiler {
    const mv_allocator *a;
    unsigned opts; /* MV_DR_* compile options */
    mv_arena *arena;
    mv_normalizer *norm;
    mv_arena *tmp; /* normalizer output, reset per phrase */
    mv_error *err;
    vec families;  /* mv_dr_family */
    vec rules;     /* mv_dr_rule */
    vec terms;     /* mv_dr_term (text: see term_ptrs) */
    vec term_ptrs; /* const char *: each term's text while compiling */
    vec uses;      /* use_rec */
    vec sets;      /* set_def */
    vec set_items; /* const char * (arena strings, raw expanded phrases) */
    vec negation;  /* const char * normalized */
    vec stops;
    vec setup;
    uint32_t *hash; /* term index + 1, 0 = empty */
    size_t hash_cap;
    /* parser position */
    const char *file;
    uint32_t line;
    section sec;
    int cur_family;
    uint32_t ctx_roles;
    vec *cur_words;
    int cur_set;
} compiler;

static int fail(compiler *c, const char *what, const char *s, size_t len) {
    if (len > 80) {
        len = 80;
    }
    return mv_error_set(c->err, MV_EPARSE, "%s:%u: %s: %.*s", c->file, (unsigned)c->line, what,
                        (int)len, s != NULL ? s : "");
}

static bool str_eq(const char *s, size_t len, const char *lit) {
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

static void trim(const char **s, size_t *len) {
    while (*len > 0 && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 &&
           ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t' || (*s)[*len - 1] == '\r')) {
        (*len)--;
    }
}

/* Parse "0.65" without strtod (which depends on the locale). */
static bool parse_conf(const char *s, size_t len, double *out) {
    double v = 0.0;
    double scale = 1.0;
    bool dot = false;
    bool digits = false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.' && !dot) {
            dot = true;
        } else if (s[i] >= '0' && s[i] <= '9') {
            digits = true;
            if (dot) {
                scale /= 10.0;
                v += (s[i] - '0') * scale;
            } else {
                v = v * 10.0 + (s[i] - '0');
            }
        } else {
            return false;
        }
    }
    *out = v;
    return digits && v >= 0.0 && v <= 1.0;
}

static bool parse_uint(const char *s, size_t len, unsigned *out) {
    unsigned v = 0;
    bool ok = len > 0 && len <= 3;
    for (size_t i = 0; i < len && ok; i++) {
        ok = s[i] >= '0' && s[i] <= '9';
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return ok;
}

/* ------------------------------------------------------------- terms */

/* Eight bytes at a time: 13,000 phrases are interned per engine. The value
 * only places terms in the table; it never decides an order. */
static uint64_t hash_bytes(const char *s, size_t len) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    for (; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * 0x100000001B3u;
    }
    h ^= h >> 29;
    return h;
}

/* ASCII bytes a plain term (words only) may hold, besides letters and
 * digits; any non-ASCII byte may appear. */
static bool plain_byte(unsigned char ch) {
    return ch >= 0x80 || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == ' ' ||
           ch == '\'' || ch == '-';
}

static int hash_grow(compiler *c) {
    size_t ncap = c->hash_cap ? c->hash_cap * 2 : 1024;
    uint32_t *nh = mv_calloc(c->a, ncap, sizeof(*nh));
    const mv_dr_term *terms = c->terms.p;
    const char *const *texts = c->term_ptrs.p;
    int rc = MV_OK;
    if (nh == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < c->terms.n; i++) {
        size_t k = hash_bytes(texts[i], terms[i].len) & (ncap - 1);
        while (nh[k] != 0) {
            k = (k + 1) & (ncap - 1);
        }
        nh[k] = (uint32_t)(i + 1);
    }
    mv_free(c->a, c->hash, c->hash_cap * sizeof(*c->hash));
    c->hash = nh;
    c->hash_cap = ncap;
done:
    return rc;
}

static uint32_t first_cp(const char *s, size_t len) {
    utf8proc_int32_t cp = 0;
    utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len, &cp);
    return cp < 0 ? 0 : (uint32_t)cp;
}

static uint32_t last_cp(const char *s, size_t len) {
    size_t j = len - 1;
    while (j > 0 && len - j < 4 && ((unsigned char)s[j] & 0xC0) == 0x80) {
        j--;
    }
    return first_cp(s + j, len - j);
}

/* The term for normalized text s (creating it), in *id. */
static int term_get(compiler *c, const char *s, size_t len, uint32_t *id) {
    size_t k;
    mv_dr_term *t;
    const char *text;
    const char **slot;
    int rc = MV_OK;
    if ((c->terms.n + 1) * 2 > c->hash_cap) {
        rc = hash_grow(c);
        if (rc != MV_OK) {
            goto done;
        }
    }
    k = hash_bytes(s, len) & (c->hash_cap - 1);
    while (c->hash[k] != 0) {
        const mv_dr_term *e = (const mv_dr_term *)c->terms.p + (c->hash[k] - 1);
        const char *et = ((const char *const *)c->term_ptrs.p)[c->hash[k] - 1];
        if (e->len == len && memcmp(et, s, len) == 0) {
            *id = c->hash[k] - 1;
            goto done;
        }
        k = (k + 1) & (c->hash_cap - 1);
    }
    text = mv_arena_memdup(c->arena, s, len);
    slot = text != NULL ? vec_push(c->a, &c->term_ptrs) : NULL;
    t = slot != NULL ? vec_push(c->a, &c->terms) : NULL;
    if (t == NULL) {
        if (slot != NULL) {
            c->term_ptrs.n--;
        }
        rc = MV_ENOMEM;
        goto done;
    }
    *slot = text;
    t->len = (uint32_t)len;
    bool plain = true;
    for (size_t i = 0; i < len; i++) {
        plain &= plain_byte((unsigned char)s[i]);
    }
    t->flags = (mv_dr_is_word_cp(first_cp(s, len)) ? MV_DR_TERM_LEFT : 0u) |
               (mv_dr_is_word_cp(last_cp(s, len)) ? MV_DR_TERM_RIGHT : 0u) |
               (plain ? MV_DR_TERM_PLAIN : 0u);
    *id = (uint32_t)(c->terms.n - 1);
    c->hash[k] = *id + 1;
done:
    return rc;
}

/* What to do with each expanded phrase. */
typedef struct sink {
    int kind; /* 0 = rule slot, 1 = context role, 2 = set item, 3 = word list */
    uint32_t rule;
    uint32_t slot;
    uint32_t roles;
    vec *words;
} sink;

static int term_attach(compiler *c, const sink *k, uint32_t id) {
    int rc = MV_OK;
    if (k->kind == 0) {
        use_rec *u = vec_push(c->a, &c->uses);
        if (u == NULL) {
            rc = MV_ENOMEM;
        } else {
            u->term = id;
            u->rule = k->rule;
            u->slot = k->slot;
        }
    } else {
        ((mv_dr_term *)c->terms.p)[id].roles |= k->roles;
    }
    return rc;
}

/* Lowercase ASCII, collapse whitespace: the form a phrase has inside an
 * identifier-like chunk, which the normalizer copies without stemming
 * ("<IMPORTANT>text" stays "<important>text"). */
static size_t literal_form(const char *s, size_t len, char *out) {
    size_t n = 0;
    bool space = false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t') {
            space = n > 0;
            continue;
        }
        if (space) {
            out[n++] = ' ';
            space = false;
        }
        out[n++] = (ch >= 'A' && ch <= 'Z') ? (char)(ch + 32) : ch;
    }
    return n;
}

/* Bytes that make a phrase markup ("<important>", "[system]", "|>"). */
static const bool markup_byte[256] = {
    ['<'] = true, ['>'] = true, ['['] = true, [']'] = true,
    ['|'] = true, ['#'] = true, ['{'] = true, ['}'] = true,
};

static bool has_markup(const char *s, size_t len) {
    bool r = false;
    for (size_t i = 0; i < len; i++) {
        r |= markup_byte[(unsigned char)s[i]];
    }
    return r;
}

/* One expanded phrase: normalize, make terms, attach. */
static int phrase_emit(compiler *c, const sink *k, const char *s, size_t len) {
    mv_str nrm = MV_STR_NULL;
    uint32_t id = 0;
    int rc = MV_OK;
    bool prefix = false; /* "](http*": the phrase may run on into a word */
    char lit[PHRASE_MAX];
    if (k->kind <= 1 && len > 1 && s[len - 1] == '*') {
        prefix = true;
        len--;
    }
    if (k->kind == 2) {
        const char **item = vec_push(c->a, &c->set_items);
        if (item == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        *item = mv_arena_memdup(c->arena, s, len);
        rc = *item ? MV_OK : MV_ENOMEM;
        goto done;
    }
    mv_arena_reset(c->tmp);
    if (c->opts & MV_DR_UNCACHED) {
        mv_norm_text nt;
        rc = mv_normalize(c->norm, c->tmp, s, len, MV_NORM_DEFAULT, &nt);
        nrm.ptr = nt.text;
        nrm.len = rc == MV_OK ? nt.len : 0;
    } else {
        rc = mv_normalize_phrase(c->norm, c->tmp, s, len, &nrm);
    }
    if (rc != MV_OK) {
        goto done;
    }
    if (nrm.len == 0) {
        rc = fail(c, "phrase normalizes to nothing", s, len);
        goto done;
    }
    if (k->kind == 3) {
        const char **w = vec_push(c->a, k->words);
        if (w == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        *w = mv_arena_memdup(c->arena, nrm.ptr, nrm.len);
        rc = *w ? MV_OK : MV_ENOMEM;
        goto done;
    }
    rc = term_get(c, nrm.ptr, nrm.len, &id);
    if (rc == MV_OK) {
        rc = term_attach(c, k, id);
        if (prefix) {
            ((mv_dr_term *)c->terms.p)[id].flags &= ~MV_DR_TERM_RIGHT;
        }
    }
    if (rc == MV_OK && has_markup(s, len)) {
        size_t ll = literal_form(s, len, lit);
        if (ll > 0 && (ll != nrm.len || memcmp(lit, nrm.ptr, ll) != 0)) {
            rc = term_get(c, lit, ll, &id);
            if (rc == MV_OK) {
                rc = term_attach(c, k, id);
                if (prefix) {
                    ((mv_dr_term *)c->terms.p)[id].flags &= ~MV_DR_TERM_RIGHT;
                }
            }
        }
    }
done:
    return rc;
}

/* ---------------------------------------------------------- templates */

/* A template is literal text with (a|b|c) groups; an empty alternative
 * makes the group optional. An empty pair "()" is literal text (shell
 * code quotes it); any other parenthesis closed without a '|' is refused:
 * a one-word group would match only with its brackets around it, so the
 * line would silently never fire. */
typedef struct tseg {
    const char *s; /* text (inside the parentheses for a group) */
    size_t len;
    bool group;
    size_t from; /* range in the template, parentheses included */
    size_t to;
} tseg;

#define TSEG_MAX 24

static int expand_rec(compiler *c, const sink *k, const tseg *segs, size_t nseg, size_t i,
                      char *buf, size_t blen, size_t *count) {
    int rc = MV_OK;
    if (i == nseg) {
        if (++*count > EXPAND_MAX) {
            return fail(c, "template expands to too many phrases", buf, blen);
        }
        return phrase_emit(c, k, buf, blen);
    }
    if (!segs[i].group) {
        if (blen + segs[i].len >= PHRASE_MAX) {
            return fail(c, "phrase too long", buf, blen);
        }
        memcpy(buf + blen, segs[i].s, segs[i].len);
        return expand_rec(c, k, segs, nseg, i + 1, buf, blen + segs[i].len, count);
    }
    {
        const char *p = segs[i].s;
        const char *end = segs[i].s + segs[i].len;
        while (rc == MV_OK) {
            const char *bar = memchr(p, '|', (size_t)(end - p));
            const char *alt_end = bar ? bar : end;
            size_t al = (size_t)(alt_end - p);
            if (blen + al >= PHRASE_MAX) {
                return fail(c, "phrase too long", buf, blen);
            }
            memcpy(buf + blen, p, al);
            rc = expand_rec(c, k, segs, nseg, i + 1, buf, blen + al, count);
            if (bar == NULL) {
                break;
            }
            p = bar + 1;
        }
    }
    return rc;
}

static int parse_template(compiler *c, const char *s, size_t len, tseg *segs, size_t *nseg_out) {
    size_t nseg = 0;
    size_t i = 0;
    size_t lit = 0;
    int rc = MV_OK;
    while (i < len) {
        if (s[i] == '(') {
            const char *close = memchr(s + i, ')', len - i);
            const char *bar = memchr(s + i, '|', len - i);
            if (close != NULL && bar != NULL && bar < close) {
                const char *inner = s + i + 1;
                if (memchr(inner, '(', (size_t)(close - inner)) != NULL) {
                    rc = fail(c, "nested groups are not supported", s, len);
                    goto done;
                }
                if (nseg + 2 > TSEG_MAX) {
                    rc = fail(c, "too many groups", s, len);
                    goto done;
                }
                if (i > lit) {
                    segs[nseg++] = (tseg){s + lit, i - lit, false, lit, i};
                }
                segs[nseg++] =
                    (tseg){inner, (size_t)(close - inner), true, i, (size_t)(close - s) + 1};
                i = (size_t)(close - s) + 1;
                lit = i;
                continue;
            }
            if (close != NULL && close > s + i + 1) {
                rc = fail(c,
                          "a group needs '|' between its alternatives (write the word bare, or "
                          "(word|) if it is optional)",
                          s, len);
                goto done;
            }
        }
        i++;
    }
    if (len > lit) {
        if (nseg + 1 > TSEG_MAX) {
            rc = fail(c, "too many groups", s, len);
            goto done;
        }
        segs[nseg++] = (tseg){s + lit, len - lit, false, lit, len};
    }
done:
    *nseg_out = nseg;
    return rc;
}

static int expand(compiler *c, const sink *k, const char *s, size_t len) {
    tseg segs[TSEG_MAX];
    size_t nseg = 0;
    size_t count = 0;
    char buf[PHRASE_MAX];
    int rc = parse_template(c, s, len, segs, &nseg);
    if (rc == MV_OK) {
        rc = expand_rec(c, k, segs, nseg, 0, buf, 0, &count);
    }
    return rc;
}

static int part_emit(compiler *c, const sink *k, const char *s, size_t len);

/* ------------------------------------------------------------ splitting */

static bool blank(const char *s, size_t len) {
    bool r = true;
    for (size_t i = 0; i < len && r; i++) {
        r = s[i] == ' ' || s[i] == '\t';
    }
    return r;
}

static bool seg_has_empty(const tseg *g);

/* Shortest expansion of segments [a, b), spaces not counted. A piece that
 * can be as short as "le" or "de" would match all over ordinary text, so
 * pieces are kept at MIN_PIECE bytes or more. */
static size_t min_len(const char *s, const tseg *segs, size_t a, size_t b) {
    size_t total = 0;
    for (size_t i = a; i < b; i++) {
        const tseg *g = &segs[i];
        size_t best = SIZE_MAX;
        size_t cur = 0;
        if (!g->group) {
            for (size_t k = g->from; k < g->to; k++) {
                total += s[k] != ' ';
            }
            continue;
        }
        for (size_t k = 0; k <= g->len; k++) {
            if (k == g->len || g->s[k] == '|') {
                best = cur < best ? cur : best;
                cur = 0;
            } else {
                cur += g->s[k] != ' ';
            }
        }
        total += best;
    }
    return total;
}

/* Can segments [a, b) expand to nothing but spaces? */
static bool may_be_empty(const char *s, const tseg *segs, size_t a, size_t b) {
    bool empty = true;
    for (size_t i = a; i < b && empty; i++) {
        empty = segs[i].group ? seg_has_empty(&segs[i])
                              : blank(s + segs[i].from, segs[i].to - segs[i].from);
    }
    return empty;
}

static bool cp_is_cjk(uint32_t cp) {
    return cp >= 0x2E80 && !mv_dr_is_word_cp(cp);
}

static size_t seg_count(const tseg *g) {
    size_t n = 1;
    if (g->group) {
        for (size_t i = 0; i < g->len; i++) {
            n += g->s[i] == '|';
        }
    }
    return n;
}

static bool seg_has_empty(const tseg *g) {
    bool empty = false;
    if (g->group) {
        size_t start = 0;
        for (size_t i = 0; i <= g->len && !empty; i++) {
            if (i == g->len || g->s[i] == '|') {
                empty = i == start;
                start = i + 1;
            }
        }
    }
    return empty;
}

/* Are all alternatives of g CJK at their start (edge 0) or end (edge 1)? */
static bool seg_cjk_edge(const tseg *g, int edge) {
    size_t start = 0;
    bool all = g->len > 0;
    for (size_t i = 0; i <= g->len && all; i++) {
        if (i == g->len || (g->group && g->s[i] == '|')) {
            size_t al = i - start;
            all = al > 0 &&
                  cp_is_cjk(edge == 0 ? first_cp(g->s + start, al) : last_cp(g->s + start, al));
            start = i + 1;
        }
    }
    return all;
}

/* May a template be cut between segments a and b? At a space, or between
 * two CJK characters; never next to an optional group. */
static bool splittable(const tseg *a, const tseg *b) {
    if (seg_has_empty(a) || seg_has_empty(b)) {
        return false;
    }
    if ((!a->group && a->len > 0 && a->s[a->len - 1] == ' ') ||
        (!b->group && b->len > 0 && b->s[0] == ' ')) {
        return true;
    }
    return seg_cjk_edge(a, 1) && seg_cjk_edge(b, 0);
}

/*
 * One " ... " part of a rule. A template whose expansion would be large is
 * cut into consecutive slots with gap 0 (adjacent words), so the automaton
 * holds the pieces instead of their product: "before (using|calling|...)
 * (this|the|any) (tool|function)" becomes three small slots. Matching is
 * the same up to punctuation between the pieces.
 */
static int part_slots(compiler *c, uint32_t rid, const char *s, size_t len, unsigned gap_first) {
    tseg segs[TSEG_MAX];
    size_t cuts[TSEG_MAX + 1]; /* piece k is segs[cuts[k], cuts[k+1]) */
    size_t ncuts = 0;
    size_t nseg = 0;
    size_t cur_count = 1;
    int rc = MV_OK;
    if (len > 1 && s[0] == '$') {
        mv_dr_rule *r = (mv_dr_rule *)c->rules.p + rid;
        sink k = {0, rid, 0, 0, NULL};
        if (r->n_slots == MV_DR_MAX_SLOTS) {
            return fail(c, "too many parts", s, len);
        }
        r->gaps[r->n_slots] = (uint8_t)gap_first;
        k.slot = r->n_slots++;
        return part_emit(c, &k, s, len);
    }
    rc = parse_template(c, s, len, segs, &nseg);
    if (rc != MV_OK || nseg == 0) {
        return rc;
    }
    /* choose the cuts: keep pieces under SPLIT_LIMIT expansions where the
     * template allows a cut, never leaving a piece that can be empty */
    cuts[ncuts++] = 0;
    for (size_t i = 1; i < nseg; i++) {
        size_t cnt = seg_count(&segs[i]);
        size_t a = cuts[ncuts - 1];
        cur_count *= seg_count(&segs[i - 1]);
        if (cur_count * cnt > SPLIT_LIMIT && splittable(&segs[i - 1], &segs[i]) &&
            !may_be_empty(s, segs, a, i) && min_len(s, segs, a, i) >= MIN_PIECE &&
            min_len(s, segs, i, i + 1) >= MIN_PIECE) {
            cuts[ncuts++] = i;
            cur_count = 1;
        }
    }
    while (ncuts > 1 && (may_be_empty(s, segs, cuts[ncuts - 1], nseg) ||
                         min_len(s, segs, cuts[ncuts - 1], nseg) < MIN_PIECE)) {
        ncuts--; /* an optional tail stays with the piece before it */
    }
    cuts[ncuts] = nseg;
    for (size_t k = 0; k < ncuts && rc == MV_OK; k++) {
        size_t from = segs[cuts[k]].from;
        size_t to = segs[cuts[k + 1] - 1].to;
        mv_dr_rule *r = (mv_dr_rule *)c->rules.p + rid;
        sink sk = {0, rid, 0, 0, NULL};
        if (blank(s + from, to - from)) {
            continue; /* the space between two pieces */
        }
        if (r->n_slots == MV_DR_MAX_SLOTS) {
            return fail(c, "too many parts", s, len);
        }
        r->gaps[r->n_slots] = (uint8_t)(k == 0 ? gap_first : 0);
        sk.slot = r->n_slots++;
        rc = expand(c, &sk, s + from, to - from);
    }
    return rc;
}

/* A part or context line: "$SET" or a template. */
static int part_emit(compiler *c, const sink *k, const char *s, size_t len) {
    int rc = MV_OK;
    if (len > 1 && s[0] == '$') {
        const set_def *sets = c->sets.p;
        const char *const *items = c->set_items.p;
        bool found = false;
        for (size_t i = 0; i < c->sets.n && !found; i++) {
            if (sets[i].name_len == len - 1 && memcmp(sets[i].name, s + 1, len - 1) == 0) {
                found = true;
                for (size_t j = 0; j < sets[i].count && rc == MV_OK; j++) {
                    const char *it = items[sets[i].first + j];
                    rc = expand(c, k, it, strlen(it));
                }
            }
        }
        if (!found) {
            rc = fail(c, "unknown set", s, len);
        }
    } else {
        rc = expand(c, k, s, len);
    }
    return rc;
}

/* ------------------------------------------------------------ sections */

static int start_section(compiler *c, const char *s, size_t len) {
    const char *name;
    size_t nlen;
    int rc = MV_OK;
    /* s is "[kind name]" */
    s++;
    len -= 2;
    name = memchr(s, ' ', len);
    if (name == NULL) {
        rc = fail(c, "section needs a kind and a name", s, len);
        goto done;
    }
    nlen = len - (size_t)(name + 1 - s);
    name++;
    trim(&name, &nlen);
    c->sec = S_NONE;
    if (str_eq(s, (size_t)(name - 1 - s), "family")) {
        mv_dr_family *fams = c->families.p;
        int found = -1;
        for (size_t i = 0; i < c->families.n; i++) {
            if (str_eq(name, nlen, fams[i].id)) {
                found = (int)i;
            }
        }
        if (found < 0) {
            mv_dr_family *f = vec_push(c->a, &c->families);
            if (f == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            f->id = mv_arena_memdup(c->arena, name, nlen);
            f->label = f->id;
            f->threat = MV_THREAT_PROMPT_INJECTION;
            f->base = -1.0;
            f->gap = 4;
            if (f->id == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            found = (int)(c->families.n - 1);
        }
        c->cur_family = found;
        c->sec = S_FAMILY;
    } else if (str_eq(s, (size_t)(name - 1 - s), "context")) {
        static const struct {
            const char *name;
            uint32_t role;
        } roles[] = {
            {"object-strong", MV_DR_ROLE_OBJECT_STRONG},
            {"object-weak", MV_DR_ROLE_OBJECT_WEAK},
            {"destination", MV_DR_ROLE_DESTINATION},
            {"addressee", MV_DR_ROLE_ADDRESSEE},
            {"workflow", MV_DR_ROLE_WORKFLOW},
            {"protective", MV_DR_ROLE_PROTECTIVE},
            {"comment-close", MV_DR_ROLE_COMMENT_CLOSE},
            {"caution", MV_DR_ROLE_CAUTION},
            {"imperative", MV_DR_ROLE_IMPERATIVE},
            {"vocative", MV_DR_ROLE_VOCATIVE},
            {"weak-mood", MV_DR_ROLE_WEAK_MOOD},
            {"source", MV_DR_ROLE_SOURCE},
            {"transfer", MV_DR_ROLE_TRANSFER},
            {"sink", MV_DR_ROLE_SINK},
            {"pathref", MV_DR_ROLE_PATHREF},
            {"instrument", MV_DR_ROLE_INSTRUMENT},
            {"negator", MV_DR_ROLE_NEGATOR},
            {"target", MV_DR_ROLE_TARGET},
            {"mood", MV_DR_ROLE_MOOD},
            {"gather", MV_DR_ROLE_GATHER},
            {"destroy", MV_DR_ROLE_DESTROY},
            {"scope", MV_DR_ROLE_SCOPE},
            {"behave", MV_DR_ROLE_BEHAVE},
            {"hide", MV_DR_ROLE_HIDE},
            {"generic", MV_DR_ROLE_GENERIC},
            {"harvest", MV_DR_ROLE_HARVEST},
            {"hide-ok", MV_DR_ROLE_HIDE_OK},
            {"data", MV_DR_ROLE_DATA},
            {"self", MV_DR_ROLE_SELF},
            {"tell", MV_DR_ROLE_TELL},
            {"waiver", MV_DR_ROLE_WAIVER},
            {"withhold", MV_DR_ROLE_WITHHOLD},
        };
        c->ctx_roles = 0;
        for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
            if (str_eq(name, nlen, roles[i].name)) {
                c->ctx_roles = roles[i].role;
            }
        }
        if (c->ctx_roles == 0) {
            rc = fail(c, "unknown context role", name, nlen);
            goto done;
        }
        c->sec = S_CONTEXT;
    } else if (str_eq(s, (size_t)(name - 1 - s), "set")) {
        set_def *d;
        if (c->sets.n >= SET_MAX) {
            rc = fail(c, "too many sets", name, nlen);
            goto done;
        }
        d = vec_push(c->a, &c->sets);
        if (d == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        d->name = mv_arena_memdup(c->arena, name, nlen);
        d->name_len = nlen;
        d->first = c->set_items.n;
        if (d->name == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        c->cur_set = (int)(c->sets.n - 1);
        c->sec = S_SET;
    } else if (str_eq(s, (size_t)(name - 1 - s), "words")) {
        if (str_eq(name, nlen, "negation")) {
            c->cur_words = &c->negation;
        } else if (str_eq(name, nlen, "protective-stop")) {
            c->cur_words = &c->stops;
        } else if (str_eq(name, nlen, "setup-name")) {
            c->cur_words = &c->setup;
        } else {
            rc = fail(c, "unknown word list", name, nlen);
            goto done;
        }
        c->sec = S_WORDS;
    } else {
        rc = fail(c, "unknown section kind", s, len);
    }
done:
    return rc;
}

static int family_meta(compiler *c, const char *s, size_t len) {
    mv_dr_family *f = (mv_dr_family *)c->families.p + c->cur_family;
    const char *sp = memchr(s, ' ', len);
    const char *v;
    size_t klen;
    size_t vlen;
    int rc = MV_OK;
    if (sp == NULL) {
        rc = fail(c, "metadata needs a value", s, len);
        goto done;
    }
    klen = (size_t)(sp - s);
    v = sp + 1;
    vlen = len - klen - 1;
    trim(&v, &vlen);
    if (str_eq(s, klen, "@label")) {
        f->label = mv_arena_memdup(c->arena, v, vlen);
        rc = f->label ? MV_OK : MV_ENOMEM;
    } else if (str_eq(s, klen, "@threat")) {
        if (str_eq(v, vlen, "prompt_injection")) {
            f->threat = MV_THREAT_PROMPT_INJECTION;
        } else if (str_eq(v, vlen, "exfiltration")) {
            f->threat = MV_THREAT_EXFILTRATION;
        } else if (str_eq(v, vlen, "tool_poisoning")) {
            f->threat = MV_THREAT_TOOL_POISONING;
        } else {
            rc = fail(c, "unknown threat", v, vlen);
        }
    } else if (str_eq(s, klen, "@base")) {
        if (!parse_conf(v, vlen, &f->base)) {
            rc = fail(c, "base must be a number in [0,1]", v, vlen);
        }
    } else if (str_eq(s, klen, "@gap")) {
        if (!parse_uint(v, vlen, &f->gap)) {
            rc = fail(c, "gap must be a small number", v, vlen);
        }
    } else if (str_eq(s, klen, "@needs")) {
        if (str_eq(v, vlen, "none")) {
            f->needs = MV_DR_NEEDS_NONE;
        } else if (str_eq(v, vlen, "object")) {
            f->needs = MV_DR_NEEDS_OBJECT;
        } else if (str_eq(v, vlen, "destination")) {
            f->needs = MV_DR_NEEDS_DESTINATION;
        } else {
            rc = fail(c, "unknown need", v, vlen);
        }
    } else if (str_eq(s, klen, "@guards")) {
        f->guards = 0;
        while (vlen > 0 && rc == MV_OK) {
            const char *comma = memchr(v, ',', vlen);
            size_t wl = comma ? (size_t)(comma - v) : vlen;
            const char *w = v;
            size_t wl2 = wl;
            trim(&w, &wl2);
            if (str_eq(w, wl2, "negation")) {
                f->guards |= MV_DR_GUARD_NEGATION;
            } else if (str_eq(w, wl2, "protective")) {
                f->guards |= MV_DR_GUARD_PROTECTIVE;
            } else if (str_eq(w, wl2, "workflow")) {
                f->guards |= MV_DR_GUARD_WORKFLOW;
            } else {
                rc = fail(c, "unknown guard", w, wl2);
            }
            v += wl + (comma ? 1 : 0);
            vlen -= wl + (comma ? 1 : 0);
        }
    } else if (str_eq(s, klen, "@detector")) {
        if (str_eq(v, vlen, "tag")) {
            f->detector = MV_DR_DET_TAG;
        } else if (str_eq(v, vlen, "turn")) {
            f->detector = MV_DR_DET_TURN;
        } else if (str_eq(v, vlen, "html-comment")) {
            f->detector = MV_DR_DET_HTML_COMMENT;
        } else if (str_eq(v, vlen, "markdown-image")) {
            f->detector = MV_DR_DET_MARKDOWN_IMAGE;
        } else {
            rc = fail(c, "unknown detector", v, vlen);
        }
    } else if (str_eq(s, klen, "@mood")) {
        if (str_eq(v, vlen, "imperative")) {
            f->imperative = true;
        } else {
            rc = fail(c, "unknown mood", v, vlen);
        }
    } else {
        rc = fail(c, "unknown metadata key", s, klen);
    }
done:
    return rc;
}

/* Find " ... " (a part separator) in s; returns its offset or len. */
static size_t find_sep(const char *s, size_t len) {
    for (size_t i = 0; i + 5 <= len; i++) {
        if (memcmp(s + i, " ... ", 5) == 0) {
            return i;
        }
    }
    return len;
}

static int rule_line(compiler *c, const char *s, size_t len) {
    mv_dr_family *f = (mv_dr_family *)c->families.p + c->cur_family;
    mv_dr_rule *r;
    uint32_t rid;
    const char *opt = NULL;
    size_t optlen = 0;
    int rc = MV_OK;
    if (f->base < 0.0) {
        rc = fail(c, "family needs @base before its first rule", f->id, strlen(f->id));
        goto done;
    }
    for (size_t i = len; i >= 4; i--) {
        if (memcmp(s + i - 4, " => ", 4) == 0) {
            opt = s + i;
            optlen = len - i;
            len = i - 4;
            break;
        }
    }
    r = vec_push(c->a, &c->rules);
    if (r == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    rid = (uint32_t)(c->rules.n - 1);
    r->family = (uint32_t)c->cur_family;
    r->conf = f->base;
    r->gap = f->gap;
    r->line = c->line;
    r->file = c->file;
    if (len > 0 && s[0] == '^') {
        r->line_start = true;
        s++;
        len--;
    }
    while (optlen > 0 && rc == MV_OK) {
        const char *sp = memchr(opt, ' ', optlen);
        size_t wl = sp ? (size_t)(sp - opt) : optlen;
        double conf;
        if (wl == 0) {
            /* extra space */
        } else if (str_eq(opt, wl, "start")) {
            r->line_start = true;
        } else if (str_eq(opt, wl, "free")) {
            r->free = true;
        } else if (str_eq(opt, wl, "nominal")) {
            r->nominal = true;
        } else if (str_eq(opt, wl, "gap")) {
            const char *n = opt + wl + 1;
            size_t rest = optlen > wl + 1 ? optlen - wl - 1 : 0;
            const char *sp2 = memchr(n, ' ', rest);
            size_t nl = sp2 ? (size_t)(sp2 - n) : rest;
            if (rest == 0 || !parse_uint(n, nl, &r->gap)) {
                rc = fail(c, "gap needs a number", opt, optlen);
                goto done;
            }
            wl += 1 + nl;
        } else if (parse_conf(opt, wl, &conf)) {
            r->conf = conf;
        } else {
            rc = fail(c, "unknown rule option", opt, wl);
            goto done;
        }
        if (wl >= optlen) {
            break;
        }
        opt += wl + 1;
        optlen -= wl + 1;
    }
    trim(&s, &len);
    while (rc == MV_OK) {
        size_t sep = find_sep(s, len);
        const char *p = s;
        size_t pl = sep;
        trim(&p, &pl);
        if (pl == 0) {
            rc = fail(c, "empty part", s, len);
            goto done;
        }
        r = (mv_dr_rule *)c->rules.p + rid; /* vectors may move */
        rc = part_slots(c, rid, p, pl, r->gap);
        if (sep >= len) {
            break;
        }
        s += sep + 5;
        len -= sep + 5;
    }
done:
    return rc;
}

static int parse_line(compiler *c, const char *s, size_t len) {
    int rc = MV_OK;
    trim(&s, &len);
    /* "# text" and a lone "#" are comments; "### system:" is a phrase */
    if (len == 0 || (s[0] == '#' && (len == 1 || s[1] == ' ' || s[1] == '\t'))) {
        goto done;
    }
    if (s[0] == '[' && s[len - 1] == ']' &&
        (str_eq(s, len < 8 ? len : 8, "[family ") || str_eq(s, len < 9 ? len : 9, "[context ") ||
         str_eq(s, len < 5 ? len : 5, "[set ") || str_eq(s, len < 7 ? len : 7, "[words "))) {
        rc = start_section(c, s, len);
        goto done;
    }
    switch (c->sec) {
    case S_FAMILY:
        rc = s[0] == '@' ? family_meta(c, s, len) : rule_line(c, s, len);
        break;
    case S_CONTEXT: {
        sink k = {1, 0, 0, c->ctx_roles, NULL};
        rc = part_emit(c, &k, s, len);
        break;
    }
    case S_SET: {
        sink k = {2, 0, 0, 0, NULL};
        rc = expand(c, &k, s, len);
        ((set_def *)c->sets.p)[c->cur_set].count =
            c->set_items.n - ((set_def *)c->sets.p)[c->cur_set].first;
        break;
    }
    case S_WORDS: {
        sink k = {3, 0, 0, 0, c->cur_words};
        rc = part_emit(c, &k, s, len);
        break;
    }
    default:
        rc = fail(c, "text outside a section", s, len);
        break;
    }
done:
    return rc;
}

/* ------------------------------------------------------------- compile */

/* Single punctuation characters between spaces are what letter-spaced paths
 * and hosts ("~ / . s s h", "e x a m p l e . o r g") leave in the normalized
 * view when the normalizer cannot join them; seeing one makes the check try
 * a squeezed view of the field. Added as they are (normalizing them would
 * strip the spaces). */
static int spaced_terms(compiler *c) {
    static const char *const marks[] = {" / ", " . ", " _ ", " @ ", " ~ "};
    int rc = MV_OK;
    for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]) && rc == MV_OK; i++) {
        uint32_t id = 0;
        rc = term_get(c, marks[i], strlen(marks[i]), &id);
        if (rc == MV_OK) {
            ((mv_dr_term *)c->terms.p)[id].roles |= MV_DR_ROLE_SPACED;
        }
    }
    return rc;
}

static int words_finish(compiler *c, const vec *v, mv_dr_words *out) {
    int rc = MV_OK;
    out->n = v->n;
    out->w = mv_arena_calloc(c->arena, v->n + 1, sizeof(*out->w));
    out->len = mv_arena_calloc(c->arena, v->n + 1, sizeof(*out->len));
    if (out->w == NULL || out->len == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < v->n; i++) {
        out->w[i] = ((const char *const *)v->p)[i];
        out->len[i] = (uint32_t)strlen(out->w[i]);
    }
done:
    return rc;
}

static int finish(compiler *c, mv_dr_rules *r) {
    mv_ac_builder *b = NULL;
    const use_rec *uses = c->uses.p;
    int rc = MV_OK;
    r->n_families = c->families.n;
    r->n_rules = c->rules.n;
    r->n_terms = c->terms.n;
    r->n_uses = c->uses.n;
    r->families = (mv_dr_family *)(void *)mv_arena_memdup(c->arena, c->families.p,
                                                          c->families.n * sizeof(mv_dr_family));
    r->rules = (mv_dr_rule *)(void *)mv_arena_memdup(c->arena, c->rules.p,
                                                     c->rules.n * sizeof(mv_dr_rule));
    r->terms = (mv_dr_term *)(void *)mv_arena_memdup(c->arena, c->terms.p,
                                                     c->terms.n * sizeof(mv_dr_term));
    r->uses = mv_arena_calloc(c->arena, c->uses.n + 1, sizeof(mv_dr_use));
    if (r->families == NULL || r->rules == NULL || r->terms == NULL || r->uses == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    /* The terms' texts in one pool, each NUL-terminated, by offset. */
    {
        const char *const *texts = c->term_ptrs.p;
        size_t pool = 1;
        for (size_t i = 0; i < r->n_terms; i++) {
            pool += r->terms[i].len + 1;
        }
        char *tt = pool <= UINT32_MAX ? mv_arena_alloc(c->arena, pool) : NULL;
        if (tt == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        size_t at = 0;
        for (size_t i = 0; i < r->n_terms; i++) {
            memcpy(tt + at, texts[i], r->terms[i].len);
            tt[at + r->terms[i].len] = '\0';
            r->terms[i].text = (uint32_t)at;
            at += r->terms[i].len + 1;
        }
        tt[at] = '\0';
        r->term_text = tt;
    }
    for (size_t i = 0; i < r->n_families; i++) {
        if (r->families[i].base < 0.0) {
            rc = mv_error_set(c->err, MV_EPARSE, "family %s has no @base", r->families[i].id);
            goto done;
        }
    }
    /* group uses by term (counting sort keeps file order inside a term) */
    for (size_t i = 0; i < c->uses.n; i++) {
        r->terms[uses[i].term].n_uses++;
    }
    {
        uint32_t acc = 0;
        for (size_t t = 0; t < r->n_terms; t++) {
            r->terms[t].use_start = acc;
            acc += r->terms[t].n_uses;
            r->terms[t].n_uses = 0;
        }
    }
    for (size_t i = 0; i < c->uses.n; i++) {
        mv_dr_term *t = &r->terms[uses[i].term];
        r->uses[t->use_start + t->n_uses].rule = uses[i].rule;
        r->uses[t->use_start + t->n_uses].slot = uses[i].slot;
        t->n_uses++;
    }
    rc = words_finish(c, &c->negation, &r->negation);
    if (rc == MV_OK) {
        rc = words_finish(c, &c->stops, &r->stops);
    }
    if (rc == MV_OK) {
        rc = words_finish(c, &c->setup, &r->setup);
    }
    if (rc != MV_OK) {
        goto done;
    }
    b = mv_ac_builder_new(c->a, 0);
    if (b == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t t = 0; t < r->n_terms && rc == MV_OK; t++) {
        rc = mv_ac_builder_add(b, r->term_text + r->terms[t].text, r->terms[t].len, (uint32_t)t);
        if (r->terms[t].len > r->max_term_len) {
            r->max_term_len = r->terms[t].len;
        }
    }
    if (rc == MV_OK) {
        rc = mv_ac_build(&r->ac, b);
    }
done:
    mv_ac_builder_free(b);
    return rc;
}

int mv_dr_compile(mv_dr_rules **out, const mv_allocator *a, const mv_dr_source *src, size_t n_src,
                  mv_error *err) {
    return mv_dr_compile_ex(out, a, src, n_src, 0, err);
}

int mv_dr_compile_ex(mv_dr_rules **out, const mv_allocator *a, const mv_dr_source *src,
                     size_t n_src, unsigned opts, mv_error *err) {
    compiler c;
    mv_dr_rules *r = NULL;
    int rc = MV_OK;
    memset(&c, 0, sizeof(c));
    if (out == NULL || (src == NULL && n_src > 0)) {
        rc = MV_EINVAL;
        goto done;
    }
    *out = NULL;
    c.a = a != NULL ? a : mv_allocator_default();
    c.opts = opts;
    c.err = err;
    c.families.elem = sizeof(mv_dr_family);
    c.rules.elem = sizeof(mv_dr_rule);
    c.terms.elem = sizeof(mv_dr_term);
    c.term_ptrs.elem = sizeof(const char *);
    c.uses.elem = sizeof(use_rec);
    c.sets.elem = sizeof(set_def);
    c.set_items.elem = sizeof(const char *);
    c.negation.elem = sizeof(const char *);
    c.stops.elem = sizeof(const char *);
    c.setup.elem = sizeof(const char *);
    c.cur_family = -1;
    c.arena = mv_arena_new(c.a, 64 * 1024);
    c.tmp = mv_arena_new(c.a, 16 * 1024);
    c.norm = mv_normalizer_new(c.a);
    r = c.arena ? mv_arena_calloc(c.arena, 1, sizeof(*r)) : NULL;
    if (c.arena == NULL || c.tmp == NULL || c.norm == NULL || r == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t f = 0; f < n_src && rc == MV_OK; f++) {
        const char *p = src[f].text;
        const char *end = src[f].text + src[f].len;
        c.file = src[f].name;
        c.line = 0;
        c.sec = S_NONE;
        while (p < end && rc == MV_OK) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *le = nl ? nl : end;
            c.line++;
            rc = parse_line(&c, p, (size_t)(le - p));
            p = nl ? nl + 1 : end;
        }
    }
    if (rc == MV_OK) {
        rc = spaced_terms(&c);
    }
    if (rc == MV_OK) {
        rc = finish(&c, r);
    }
    if (rc == MV_OK) {
        r->arena = c.arena; /* r itself lives in this arena */
        c.arena = NULL;
        *out = r;
        r = NULL;
    }
done:
    if (r != NULL) {
        mv_ac_free(r->ac);
    }
    if (rc == MV_ENOMEM) {
        mv_error_set(err, MV_ENOMEM, "out of memory compiling directive rules");
    }
    vec_free(c.a, &c.families);
    vec_free(c.a, &c.rules);
    vec_free(c.a, &c.terms);
    vec_free(c.a, &c.term_ptrs);
    vec_free(c.a, &c.uses);
    vec_free(c.a, &c.sets);
    vec_free(c.a, &c.set_items);
    vec_free(c.a, &c.negation);
    vec_free(c.a, &c.stops);
    vec_free(c.a, &c.setup);
    mv_free(c.a, c.hash, c.hash_cap * sizeof(*c.hash));
    mv_normalizer_free(c.norm);
    mv_arena_free(c.tmp);
    mv_arena_free(c.arena);
    return rc;
}

static const char *const builtin_names[] = {
    "sensitive_resources", "directive_context", "directive_en",   "directive_hijack",
    "directive_intl",      "directive_order",   "directive_world"};
#define N_BUILTIN (sizeof(builtin_names) / sizeof(builtin_names[0]))

static int builtin_sources(mv_dr_source src[N_BUILTIN], mv_error *err) {
    int rc = MV_OK;
    for (size_t i = 0; i < N_BUILTIN; i++) {
        src[i].name = builtin_names[i];
        if (mv_rules_find(builtin_names[i], &src[i].text, &src[i].len) != 0) {
            rc = mv_error_set(err, MV_EINVAL, "rule file %s is not compiled in", builtin_names[i]);
            break;
        }
    }
    return rc;
}

int mv_dr_compile_builtin_runtime(mv_dr_rules **out, const mv_allocator *a, unsigned opts,
                                  mv_error *err) {
    mv_dr_source src[N_BUILTIN];
    int rc = builtin_sources(src, err);
    if (rc == MV_OK) {
        rc = mv_dr_compile_ex(out, a, src, N_BUILTIN, opts, err);
    }
    return rc;
}

static uint64_t hash_mix(uint64_t h, const void *p, size_t len) {
    uint64_t x = hash_bytes(p, len);
    return (h ^ x) * 0x9E3779B97F4A7C15u + (uint64_t)len;
}

uint64_t mv_dr_builtin_hash(void) {
    /* Bump the format string when the meaning of saved tables changes
     * without a change to their layout. */
    static const char format[] = "mcpvet directive tables 1";
    mv_dr_source src[N_BUILTIN];
    const char *uv = utf8proc_version();
    const char *un = utf8proc_unicode_version();
    uint64_t h = hash_mix(0, format, sizeof(format) - 1);
    if (builtin_sources(src, NULL) != MV_OK) {
        h = 0; /* no sources: no saved tables can match */
        goto done;
    }
    for (size_t i = 0; i < N_BUILTIN; i++) {
        h = hash_mix(h, src[i].name, strlen(src[i].name));
        h = hash_mix(h, src[i].text, src[i].len);
    }
    h = hash_mix(h, uv, strlen(uv));
    h = hash_mix(h, un, strlen(un));
done:
    return h;
}

#ifdef MCPVET_PRECOMPILED
bool mv_dr_builtin_precompiled(void) {
    mv_dr_rules *r = NULL;
    bool ok = mv_dr_load(&r, NULL, mv_dr_precompiled_words, mv_dr_precompiled_n_words,
                         mv_dr_builtin_hash(), NULL) == MV_OK;
    mv_dr_free(r);
    return ok;
}
#else
bool mv_dr_builtin_precompiled(void) {
    return false;
}
#endif

int mv_dr_compile_builtin(mv_dr_rules **out, const mv_allocator *a, mv_error *err) {
    int rc = MV_EINVAL;
#ifdef MCPVET_PRECOMPILED
    /* Tables made at build time from these very sources: no parsing,
     * normalization or automaton construction at start-up. Stale or
     * missing tables (MV_EINVAL) fall back to compiling. */
    rc = mv_dr_load(out, a, mv_dr_precompiled_words, mv_dr_precompiled_n_words,
                    mv_dr_builtin_hash(), err);
    if (rc == MV_OK || rc == MV_ENOMEM) {
        goto done;
    }
    mv_error_clear(err);
#endif
    rc = mv_dr_compile_builtin_runtime(out, a, 0, err);
#ifdef MCPVET_PRECOMPILED
done:
#endif
    return rc;
}

void mv_dr_free(mv_dr_rules *r) {
    if (r != NULL) {
        mv_ac_free(r->ac);
        mv_arena_free(r->arena); /* frees r too */
    }
}

int mv_dr_family_index(const mv_dr_rules *r, const char *id) {
    int found = -1;
    for (size_t i = 0; i < r->n_families && found < 0; i++) {
        if (strcmp(r->families[i].id, id) == 0) {
            found = (int)i;
        }
    }
    return found;
}

/* ----------------------------------------------------- saved tables
 *
 * Compiled rules as 32-bit words, so the build can compile the builtin
 * rules once and the engine start from the result (see
 * mv_dr_compile_builtin). Layout:
 *   header (SAVE_HEADER words): magic, version, source hash (2 words),
 *     n_families, n_rules, n_terms, n_uses, max_term_len, n_negation,
 *     n_stops, n_setup, text words, automaton words, total words;
 *   text: every string, NUL-terminated, referenced by byte offset;
 *   families (FAMILY_WORDS each), rules (RULE_WORDS), terms (TERM_WORDS),
 *   uses (2 words, read in place), word lists (offset and length each),
 *   the automaton (mv_ac_save, read in place).
 * Doubles are saved as their 64-bit patterns, so they come back exact.
 */
#define SAVE_MAGIC 0x52445643u /* "CVDR" */
#define SAVE_VERSION 1u
#define SAVE_HEADER 15u
#define FAMILY_WORDS 10u
#define RULE_WORDS 12u
#define TERM_WORDS 6u

_Static_assert(sizeof(mv_dr_use) == 2 * sizeof(uint32_t), "uses are read in place");
_Static_assert(MV_DR_MAX_SLOTS == 16, "rule gaps are saved as 4 words");

typedef struct saver {
    const mv_allocator *a;
    char *text;
    size_t len, cap;
} saver;

/* Append a string to the text section; its byte offset in *off. */
static int save_str(saver *sv, const char *s, size_t len, uint32_t *off) {
    int rc = MV_OK;
    if (sv->len + len + 1 > sv->cap) {
        size_t cap = sv->cap ? sv->cap : 4096;
        char *nt;
        while (cap < sv->len + len + 1) {
            cap *= 2;
        }
        nt = mv_realloc(sv->a, sv->text, sv->cap, cap);
        if (nt == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        sv->text = nt;
        sv->cap = cap;
    }
    if (sv->len + len + 1 > UINT32_MAX) {
        rc = MV_EINVAL;
        goto done;
    }
    memcpy(sv->text + sv->len, s, len);
    sv->text[sv->len + len] = '\0';
    *off = (uint32_t)sv->len;
    sv->len += len + 1;
done:
    return rc;
}

static void put_double(uint32_t *w, double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof(bits));
    w[0] = (uint32_t)bits;
    w[1] = (uint32_t)(bits >> 32);
}

static double get_double(const uint32_t *w) {
    uint64_t bits = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

static size_t words_count(const mv_dr_rules *r) {
    return r->negation.n + r->stops.n + r->setup.n;
}

int mv_dr_save(uint32_t **words_out, size_t *n_words, const mv_dr_rules *r, uint64_t hash,
               const mv_allocator *a) {
    saver sv = {a != NULL ? a : mv_allocator_default(), NULL, 0, 0};
    uint32_t *fam_str = NULL; /* id, label offsets per family */
    uint32_t *rule_file = NULL;
    uint32_t *term_text = NULL;
    uint32_t *word_text = NULL;
    uint32_t *w = NULL;
    size_t total = 0;
    size_t text_words;
    size_t ac_words;
    size_t n_w;
    int rc = MV_OK;
    if (words_out == NULL || n_words == NULL || r == NULL || r->ac == NULL) {
        rc = MV_EINVAL;
        goto done;
    }
    *words_out = NULL;
    *n_words = 0;
    n_w = words_count(r);
    fam_str = mv_calloc(sv.a, 2 * r->n_families + 1, sizeof(uint32_t));
    rule_file = mv_calloc(sv.a, r->n_rules + 1, sizeof(uint32_t));
    term_text = mv_calloc(sv.a, r->n_terms + 1, sizeof(uint32_t));
    word_text = mv_calloc(sv.a, n_w + 1, sizeof(uint32_t));
    if (fam_str == NULL || rule_file == NULL || term_text == NULL || word_text == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < r->n_families && rc == MV_OK; i++) {
        const mv_dr_family *f = &r->families[i];
        rc = save_str(&sv, f->id, strlen(f->id), &fam_str[2 * i]);
        if (rc == MV_OK) {
            rc = save_str(&sv, f->label, strlen(f->label), &fam_str[2 * i + 1]);
        }
    }
    for (size_t i = 0; i < r->n_rules && rc == MV_OK; i++) {
        const char *file = r->rules[i].file;
        if (i > 0 && strcmp(file, r->rules[i - 1].file) == 0) {
            rule_file[i] = rule_file[i - 1]; /* a file's rules are consecutive */
        } else {
            rc = save_str(&sv, file, strlen(file), &rule_file[i]);
        }
    }
    for (size_t i = 0; i < r->n_terms && rc == MV_OK; i++) {
        rc = save_str(&sv, r->term_text + r->terms[i].text, r->terms[i].len, &term_text[i]);
    }
    {
        const mv_dr_words *lists[3] = {&r->negation, &r->stops, &r->setup};
        size_t k = 0;
        for (size_t l = 0; l < 3 && rc == MV_OK; l++) {
            for (size_t i = 0; i < lists[l]->n && rc == MV_OK; i++) {
                rc = save_str(&sv, lists[l]->w[i], lists[l]->len[i], &word_text[k++]);
            }
        }
    }
    if (rc != MV_OK) {
        goto done;
    }
    text_words = (sv.len + 3) / 4;
    ac_words = mv_ac_saved_words(r->ac);
    total = SAVE_HEADER + text_words + r->n_families * FAMILY_WORDS + r->n_rules * RULE_WORDS +
            r->n_terms * TERM_WORDS + r->n_uses * 2 + n_w * 2 + ac_words;
    if (total > UINT32_MAX) {
        rc = MV_EINVAL;
        goto done;
    }
    w = mv_calloc(sv.a, total, sizeof(uint32_t));
    if (w == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    {
        uint32_t *p = w;
        *p++ = SAVE_MAGIC;
        *p++ = SAVE_VERSION;
        *p++ = (uint32_t)hash;
        *p++ = (uint32_t)(hash >> 32);
        *p++ = (uint32_t)r->n_families;
        *p++ = (uint32_t)r->n_rules;
        *p++ = (uint32_t)r->n_terms;
        *p++ = (uint32_t)r->n_uses;
        *p++ = (uint32_t)r->max_term_len;
        *p++ = (uint32_t)r->negation.n;
        *p++ = (uint32_t)r->stops.n;
        *p++ = (uint32_t)r->setup.n;
        *p++ = (uint32_t)text_words;
        *p++ = (uint32_t)ac_words;
        *p++ = (uint32_t)total;
        if (sv.len > 0) {
            memcpy(p, sv.text, sv.len);
        }
        p += text_words;
        for (size_t i = 0; i < r->n_families; i++, p += FAMILY_WORDS) {
            const mv_dr_family *f = &r->families[i];
            p[0] = fam_str[2 * i];
            p[1] = fam_str[2 * i + 1];
            p[2] = (uint32_t)f->threat;
            put_double(p + 3, f->base);
            p[5] = f->gap;
            p[6] = (uint32_t)f->needs;
            p[7] = f->guards;
            p[8] = (uint32_t)f->detector;
            p[9] = f->imperative;
        }
        for (size_t i = 0; i < r->n_rules; i++, p += RULE_WORDS) {
            const mv_dr_rule *ru = &r->rules[i];
            p[0] = ru->family;
            p[1] = ru->n_slots;
            put_double(p + 2, ru->conf);
            p[4] = ru->gap;
            memcpy(p + 5, ru->gaps, MV_DR_MAX_SLOTS);
            p[9] = (uint32_t)ru->line_start | (uint32_t)ru->free << 1 | (uint32_t)ru->nominal << 2;
            p[10] = ru->line;
            p[11] = rule_file[i];
        }
        for (size_t i = 0; i < r->n_terms; i++, p += TERM_WORDS) {
            const mv_dr_term *t = &r->terms[i];
            p[0] = term_text[i];
            p[1] = t->len;
            p[2] = t->roles;
            p[3] = t->use_start;
            p[4] = t->n_uses;
            p[5] = t->flags;
        }
        if (r->n_uses > 0) {
            memcpy(p, r->uses, r->n_uses * sizeof(mv_dr_use));
        }
        p += r->n_uses * 2;
        {
            const mv_dr_words *lists[3] = {&r->negation, &r->stops, &r->setup};
            size_t k = 0;
            for (size_t l = 0; l < 3; l++) {
                for (size_t i = 0; i < lists[l]->n; i++, k++, p += 2) {
                    p[0] = word_text[k];
                    p[1] = lists[l]->len[i];
                }
            }
        }
        mv_ac_save(r->ac, p);
        p += ac_words;
        assert((size_t)(p - w) == total);
    }
    *words_out = w;
    *n_words = total;
    w = NULL;
done:
    if (w != NULL) {
        mv_free(sv.a, w, total * sizeof(uint32_t));
    }
    mv_free(sv.a, sv.text, sv.cap);
    if (r != NULL) {
        mv_free(sv.a, fam_str, (2 * r->n_families + 1) * sizeof(uint32_t));
        mv_free(sv.a, rule_file, (r->n_rules + 1) * sizeof(uint32_t));
        mv_free(sv.a, term_text, (r->n_terms + 1) * sizeof(uint32_t));
        mv_free(sv.a, word_text, (words_count(r) + 1) * sizeof(uint32_t));
    }
    return rc;
}

/* A word list of saved (offset, length) pairs, pointing into the text. */
static int load_words(mv_arena *arena, const char *text, const uint32_t *p, size_t n,
                      mv_dr_words *out) {
    int rc = MV_OK;
    out->n = n;
    out->w = mv_arena_calloc(arena, n + 1, sizeof(*out->w));
    out->len = mv_arena_calloc(arena, n + 1, sizeof(*out->len));
    if (out->w == NULL || out->len == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        out->w[i] = text + p[2 * i];
        out->len[i] = p[2 * i + 1];
    }
done:
    return rc;
}

int mv_dr_load(mv_dr_rules **out, const mv_allocator *a, const uint32_t *words, size_t n_words,
               uint64_t hash, mv_error *err) {
    mv_arena *arena = NULL;
    mv_dr_rules *r = NULL;
    const char *text;
    const uint32_t *p;
    size_t n_fam, n_rules, n_terms, n_uses, n_neg, n_stop, n_setup, text_words, ac_words;
    int rc = MV_OK;
    if (out == NULL || (words == NULL && n_words > 0)) {
        rc = MV_EINVAL;
        goto done;
    }
    *out = NULL;
    a = a != NULL ? a : mv_allocator_default();
    /* The header must be this format, made from these sources, and add up
     * to exactly n_words; the tables themselves come from mv_dr_save of
     * the same build and are trusted. */
    if (n_words < SAVE_HEADER || words[0] != SAVE_MAGIC || words[1] != SAVE_VERSION ||
        words[2] != (uint32_t)hash || words[3] != (uint32_t)(hash >> 32) || words[14] != n_words) {
        rc = mv_error_set(err, MV_EINVAL, "precompiled directive tables do not match the rules");
        goto done;
    }
    n_fam = words[4];
    n_rules = words[5];
    n_terms = words[6];
    n_uses = words[7];
    n_neg = words[9];
    n_stop = words[10];
    n_setup = words[11];
    text_words = words[12];
    ac_words = words[13];
    if (SAVE_HEADER + text_words + n_fam * FAMILY_WORDS + n_rules * RULE_WORDS +
            n_terms * TERM_WORDS + n_uses * 2 + (n_neg + n_stop + n_setup) * 2 + ac_words !=
        n_words) {
        rc = mv_error_set(err, MV_EINVAL, "precompiled directive tables are damaged");
        goto done;
    }
    arena = mv_arena_new(a, 16 * 1024);
    r = arena ? mv_arena_calloc(arena, 1, sizeof(*r)) : NULL;
    if (r == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    r->arena = arena;
    r->n_families = n_fam;
    r->n_rules = n_rules;
    r->n_terms = n_terms;
    r->n_uses = n_uses;
    r->max_term_len = words[8];
    r->families = mv_arena_calloc(arena, n_fam + 1, sizeof(*r->families));
    r->rules = mv_arena_calloc(arena, n_rules + 1, sizeof(*r->rules));
    if (r->families == NULL || r->rules == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    text = (const char *)(words + SAVE_HEADER);
    p = words + SAVE_HEADER + text_words;
    for (size_t i = 0; i < n_fam; i++, p += FAMILY_WORDS) {
        mv_dr_family *f = &r->families[i];
        f->id = text + p[0];
        f->label = text + p[1];
        f->threat = (mv_threat)p[2];
        f->base = get_double(p + 3);
        f->gap = p[5];
        f->needs = (mv_dr_needs)p[6];
        f->guards = p[7];
        f->detector = (mv_dr_detector)p[8];
        f->imperative = p[9] != 0;
    }
    for (size_t i = 0; i < n_rules; i++, p += RULE_WORDS) {
        mv_dr_rule *ru = &r->rules[i];
        ru->family = p[0];
        ru->n_slots = p[1];
        ru->conf = get_double(p + 2);
        ru->gap = p[4];
        memcpy(ru->gaps, p + 5, MV_DR_MAX_SLOTS);
        ru->line_start = (p[9] & 1u) != 0;
        ru->free = (p[9] & 2u) != 0;
        ru->nominal = (p[9] & 4u) != 0;
        ru->line = p[10];
        ru->file = text + p[11];
    }
    /* Terms and uses are read in place: the check never writes its rule
     * tables, and a term is saved as its six words (text offsets into the
     * saved text). */
    _Static_assert(sizeof(mv_dr_term) == TERM_WORDS * sizeof(uint32_t), "terms are saved whole");
    r->terms = (mv_dr_term *)(uintptr_t)p;
    r->term_text = text;
    p += n_terms * TERM_WORDS;
    r->uses = (mv_dr_use *)(uintptr_t)p;
    p += n_uses * 2;
    rc = load_words(arena, text, p, n_neg, &r->negation);
    p += n_neg * 2;
    if (rc == MV_OK) {
        rc = load_words(arena, text, p, n_stop, &r->stops);
        p += n_stop * 2;
    }
    if (rc == MV_OK) {
        rc = load_words(arena, text, p, n_setup, &r->setup);
        p += n_setup * 2;
    }
    if (rc == MV_OK) {
        rc = mv_ac_load(&r->ac, a, p, ac_words);
        if (rc == MV_EINVAL) {
            mv_error_set(err, MV_EINVAL, "precompiled directive automaton is damaged");
        }
    }
    if (rc != MV_OK) {
        goto done;
    }
    *out = r;
    r = NULL;
    arena = NULL;
done:
    if (rc == MV_ENOMEM) {
        mv_error_set(err, MV_ENOMEM, "out of memory loading directive rules");
    }
    mv_arena_free(arena); /* frees r too */
    return rc;
}

static bool str_same(const char *x, const char *y) {
    return strcmp(x, y) == 0;
}

static bool words_same(const mv_dr_words *x, const mv_dr_words *y) {
    bool same = x->n == y->n;
    for (size_t i = 0; i < x->n && same; i++) {
        same = x->len[i] == y->len[i] && memcmp(x->w[i], y->w[i], x->len[i]) == 0;
    }
    return same;
}

bool mv_dr_equal(const mv_dr_rules *x, const mv_dr_rules *y) {
    bool same = x != NULL && y != NULL && x->n_families == y->n_families &&
                x->n_rules == y->n_rules && x->n_terms == y->n_terms && x->n_uses == y->n_uses &&
                x->max_term_len == y->max_term_len;
    for (size_t i = 0; same && i < x->n_families; i++) {
        const mv_dr_family *f = &x->families[i];
        const mv_dr_family *g = &y->families[i];
        same = str_same(f->id, g->id) && str_same(f->label, g->label) && f->threat == g->threat &&
               memcmp(&f->base, &g->base, sizeof(double)) == 0 && f->gap == g->gap &&
               f->needs == g->needs && f->guards == g->guards && f->detector == g->detector &&
               f->imperative == g->imperative;
    }
    for (size_t i = 0; same && i < x->n_rules; i++) {
        const mv_dr_rule *f = &x->rules[i];
        const mv_dr_rule *g = &y->rules[i];
        same = f->family == g->family && f->n_slots == g->n_slots &&
               memcmp(&f->conf, &g->conf, sizeof(double)) == 0 && f->gap == g->gap &&
               memcmp(f->gaps, g->gaps, sizeof(f->gaps)) == 0 && f->line_start == g->line_start &&
               f->free == g->free && f->nominal == g->nominal && f->line == g->line &&
               str_same(f->file, g->file);
    }
    for (size_t i = 0; same && i < x->n_terms; i++) {
        const mv_dr_term *f = &x->terms[i];
        const mv_dr_term *g = &y->terms[i];
        const char *ft = x->term_text + f->text;
        const char *gt = y->term_text + g->text;
        same = f->len == g->len && memcmp(ft, gt, f->len) == 0 && ft[f->len] == '\0' &&
               gt[g->len] == '\0' && f->roles == g->roles && f->use_start == g->use_start &&
               f->n_uses == g->n_uses && f->flags == g->flags;
    }
    for (size_t i = 0; same && i < x->n_uses; i++) {
        same = x->uses[i].rule == y->uses[i].rule && x->uses[i].slot == y->uses[i].slot;
    }
    return same && words_same(&x->negation, &y->negation) && words_same(&x->stops, &y->stops) &&
           words_same(&x->setup, &y->setup) && mv_ac_equal(x->ac, y->ac);
}
