/*
 * Differential guard of the model's private JSON parser (src/model/json.c)
 * against jansson. A scanner that reads a different document than the agent
 * is blind by construction, so every change to the parser must keep it in
 * step with an independent, widely used reader: same accept/reject verdict
 * and, when both accept, the same tree (types, keys in order, string bytes
 * including NUL, array lengths, number kind and value).
 *
 * Documents come from a fixed-seed xorshift generator (so a failure is
 * reproducible from its index) that mixes valid structure with every escape
 * kind, raw and ill-formed UTF-8, control bytes, duplicate keys (also keys
 * equal only after unescaping), edge-case numbers, whitespace variants,
 * nesting near the limit, and byte-level mutations (truncation, insertion,
 * deletion, replacement, trailing garbage).
 *
 * Three differences are allowed, and only when their exact cause is proven:
 *  - overflow: the private parser validates numbers but never converts them,
 *    while jansson rejects integers outside int64 and reals beyond DBL_MAX;
 *  - depth: both limit nesting to 2048, but jansson counts a scalar inside
 *    the 2048th container as level 2049 and the private parser counts only
 *    containers;
 *  - NUL lookahead: jansson silently drops a raw NUL byte right after a
 *    number or literal ("[1\0]"), which the private parser rejects (proven
 *    by deleting the byte: both must then accept the same tree).
 * Anything else, in either direction, fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/arena.h"
#include "json/json.h"

#define N_DOCS 60000u
#define SEED 0x9E3779B97F4A7C15ull
#define JANSSON_FLAGS (JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

/* ------------------------------------------------------------ buffers */

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *s, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        char *np = realloc(b->p, cap);
        assert_non_null(np);
        b->p = np;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void puts_(buf *b, const char *s) {
    put(b, s, strlen(s));
}

static void putc_(buf *b, char c) {
    put(b, &c, 1);
}

/* --------------------------------------------------------- generator */

typedef struct gen {
    uint64_t s;
    unsigned bad; /* per-mille chance of an invalid token at each choice */
} gen;

static uint64_t next(gen *g) {
    uint64_t x = g->s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    g->s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static uint32_t below(gen *g, uint32_t n) {
    return (uint32_t)(next(g) >> 33) % n;
}

static bool chance(gen *g, unsigned per_mille) {
    return below(g, 1000) < per_mille;
}

static bool bad(gen *g) {
    return chance(g, g->bad);
}

static void gen_ws(gen *g, buf *b) {
    static const char *const good[] = {" ", "\t", "\n", "\r", "  ", "\r\n"};
    static const char *const wrong[] = {"\f", "\v", "\xC2\xA0", "\xE2\x80\xA8", "\xEF\xBB\xBF"};
    uint32_t n = below(g, 4) == 0 ? below(g, 3) : 0;
    for (uint32_t i = 0; i < n; i++)
        puts_(b, good[below(g, 6)]);
    if (bad(g))
        puts_(b, wrong[below(g, 5)]);
    if (bad(g))
        putc_(b, '\0');
}

static void put_u(buf *b, uint32_t cp, bool upper) {
    char t[8];
    snprintf(t, sizeof t, upper ? "\\u%04X" : "\\u%04x", (unsigned)cp);
    puts_(b, t);
}

static void put_utf8(buf *b, uint32_t cp) {
    char o[4];
    size_t n;
    if (cp < 0x80) {
        o[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        o[0] = (char)(0xF0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    put(b, o, n);
}

/* A random non-surrogate code point of 1-4 UTF-8 bytes. */
static uint32_t random_cp(gen *g) {
    switch (below(g, 4)) {
    case 0:
        return 0x20 + below(g, 0x60);
    case 1:
        return 0x80 + below(g, 0x800 - 0x80);
    case 2: {
        uint32_t cp = 0x800 + below(g, 0x10000 - 0x800);
        return cp >= 0xD800 && cp <= 0xDFFF ? cp - 0x800 : cp;
    }
    default:
        return 0x10000 + below(g, 0x110000 - 0x10000);
    }
}

/* One piece of string content: plain text, an escape, raw UTF-8, or (at
 * the bad rate) something ill-formed. */
static void gen_piece(gen *g, buf *b) {
    static const char *const ill[] = {
        "\xC0\x80",
        "\xC1\xBF",
        "\xE0\x80\x80",
        "\xE0\x9F\xBF",
        "\xF0\x80\x80\x80",
        "\xF0\x8F\xBF\xBF",
        "\xED\xA0\x80",
        "\xED\xBF\xBF",
        "\xF4\x90\x80\x80",
        "\xF5\x80\x80\x80",
        "\xF8\x88\x80\x80",
        "\xFF",
        "\xFE",
        "\x80",
        "\xBF",
        "\xC3",
        "\xE2\x82",
        "\xF0\x9F\x98",
        "\xE2\x28\xA1",
        "\xC3\x28",
    };
    static const char *const bad_esc[] = {"\\x", "\\U0041", "\\u12", "\\u12G4", "\\'",
                                          "\\0", "\\a",     "\\",    "\\v",     "\\u{41}"};
    if (bad(g)) {
        switch (below(g, 5)) {
        case 0:
        case 1:
            puts_(b, ill[below(g, 20)]);
            return;
        case 2:
            puts_(b, bad_esc[below(g, 10)]);
            return;
        case 3: /* unpaired surrogates */
            switch (below(g, 4)) {
            case 0:
                put_u(b, 0xD800 + below(g, 0x400), below(g, 2));
                return;
            case 1:
                put_u(b, 0xDC00 + below(g, 0x400), below(g, 2));
                return;
            case 2: /* high, then a non-low escape from anywhere in the BMP */
                put_u(b, 0xD800 + below(g, 0x400), false);
                put_u(b, below(g, 2) ? 0x41 + below(g, 26) : 0xE000 + below(g, 0x2000), false);
                return;
            default:
                put_u(b, 0xDC00 + below(g, 0x400), false);
                put_u(b, 0xD800 + below(g, 0x400), false);
                return;
            }
        default:
            putc_(b, (char)below(g, 0x20)); /* raw control byte */
            return;
        }
    }
    switch (below(g, 9)) {
    case 0:
    case 1: {
        static const char *const words[] = {"a", "name", "ignore", "tool", " ", "x y", "{}", "[1]"};
        puts_(b, words[below(g, 8)]);
        return;
    }
    case 2: {
        static const char *const esc[] = {"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"};
        puts_(b, esc[below(g, 8)]);
        return;
    }
    case 3:
        put_u(b, random_cp(g) & 0xFFFF, below(g, 2)); /* may land on a surrogate: paired below */
        if ((b->p[b->len - 4] | 0x20) == 'd' && b->p[b->len - 3] >= '8') {
            /* turned into a surrogate: complete the pair so it stays valid */
            b->len -= 6;
            put_u(b, 0x4E2D, false);
        }
        return;
    case 4: { /* surrogate pair */
        uint32_t cp = 0x10000 + below(g, 0x100000);
        put_u(b, 0xD800 + ((cp - 0x10000) >> 10), below(g, 2));
        put_u(b, 0xDC00 + ((cp - 0x10000) & 0x3FF), below(g, 2));
        return;
    }
    case 5:
        put_u(b, below(g, 0x20), below(g, 2)); /* incl. \u0000 */
        return;
    case 6:
    case 7:
        put_utf8(b, random_cp(g));
        return;
    default:
        putc_(b, 0x7F);
        return;
    }
}

static void gen_string(gen *g, buf *b) {
    putc_(b, '"');
    uint32_t n = below(g, 5);
    for (uint32_t i = 0; i < n; i++)
        gen_piece(g, b);
    if (!bad(g))
        putc_(b, '"');
}

/* A key from a small pool, each character written in a random spelling,
 * so duplicates - also ones equal only after unescaping - are common. */
static void gen_key(gen *g, buf *b) {
    static const uint32_t pool[][3] = {
        {'a', 0, 0},     {'b', 0, 0},   {'p', 0, 0}, {'/', 0, 0},    {0xE9, 0, 0},
        {0x1F600, 0, 0}, {'a', 'b', 0}, {'"', 0, 0}, {'\\', 'n', 0}, {0, 0, 0}, /* "" */
    };
    if (bad(g)) {
        gen_string(g, b);
        return;
    }
    const uint32_t *k = pool[below(g, 10)];
    putc_(b, '"');
    for (size_t i = 0; i < 3 && k[i] != 0; i++) {
        uint32_t cp = k[i];
        bool escape = below(g, 2) == 0;
        if (cp == '"' || cp == '\\') {
            if (escape)
                put_u(b, cp, below(g, 2));
            else {
                putc_(b, '\\');
                putc_(b, (char)cp);
            }
        } else if (!escape) {
            put_utf8(b, cp);
        } else if (cp == '/' && below(g, 2)) {
            puts_(b, "\\/");
        } else if (cp >= 0x10000) {
            put_u(b, 0xD800 + ((cp - 0x10000) >> 10), below(g, 2));
            put_u(b, 0xDC00 + ((cp - 0x10000) & 0x3FF), below(g, 2));
        } else {
            put_u(b, cp, below(g, 2));
        }
    }
    if (bad(g))
        puts_(b, "\\u0000");
    putc_(b, '"');
}

static void gen_number(gen *g, buf *b) {
    static const char *const ok[] = {
        "0",
        "-0",
        "1",
        "-1",
        "42",
        "0.5",
        "-0.0",
        "1e5",
        "1E5",
        "1e+5",
        "1e-5",
        "1E05",
        "2.5e-3",
        "123456789",
        "1e308",
        "1e-400",
        "0e99999",
        "-1e-999",
        "1.7976931348623157e308",
        "9223372036854775807",
        "-9223372036854775808",
    };
    /* Valid lexemes jansson cannot convert: the allowed overflow difference. */
    static const char *const overflow[] = {
        "1e999",
        "-1e999",
        "1e400",
        "9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "1.8e308",
    };
    static const char *const wrong[] = {"01",  "-01", "1.",        ".5",   "-",    "+1",
                                        "1e",  "1e+", "1.e5",      "--1",  "0x10", "Infinity",
                                        "NaN", "1_0", "-Infinity", "1.5.", "00",   "-.5"};
    if (bad(g)) {
        puts_(b, wrong[below(g, sizeof wrong / sizeof *wrong)]);
        return;
    }
    if (chance(g, 30)) {
        puts_(b, overflow[below(g, sizeof overflow / sizeof *overflow)]);
        return;
    }
    if (below(g, 3) == 0) {
        puts_(b, ok[below(g, sizeof ok / sizeof *ok)]);
        return;
    }
    char t[64];
    snprintf(t, sizeof t, "%s%u", below(g, 2) ? "-" : "", below(g, 100000));
    puts_(b, t);
    if (below(g, 3) == 0) {
        snprintf(t, sizeof t, ".%u", below(g, 1000));
        puts_(b, t);
    }
    if (below(g, 4) == 0) {
        static const char *const e[] = {"e", "E", "e+", "e-", "E-"};
        snprintf(t, sizeof t, "%s%u", e[below(g, 5)], below(g, 300));
        puts_(b, t);
    }
}

static void gen_literal(gen *g, buf *b) {
    static const char *const ok[] = {"true", "false", "null"};
    static const char *const wrong[] = {"True", "nul", "fals", "nulll", "undefined", "NULL", "t"};
    if (bad(g))
        puts_(b, wrong[below(g, 7)]);
    else
        puts_(b, ok[below(g, 3)]);
}

static void gen_value(gen *g, buf *b, unsigned depth);

static void gen_container(gen *g, buf *b, unsigned depth) {
    bool obj = below(g, 2) == 0;
    putc_(b, obj ? '{' : '[');
    uint32_t n = below(g, 5);
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 || bad(g))
            putc_(b, ',');
        if (obj) {
            gen_ws(g, b);
            gen_key(g, b);
            gen_ws(g, b);
            if (!bad(g))
                putc_(b, ':');
        }
        gen_value(g, b, depth + 1);
    }
    if (n > 0 && bad(g))
        putc_(b, ','); /* trailing comma */
    gen_ws(g, b);
    if (!bad(g))
        putc_(b, obj ? '}' : ']');
}

static void gen_value(gen *g, buf *b, unsigned depth) {
    uint32_t k = depth >= 6 ? 2 + below(g, 4) : below(g, 7);
    gen_ws(g, b);
    switch (k) {
    case 0:
    case 1:
        gen_container(g, b, depth);
        break;
    case 2:
    case 3:
        gen_string(g, b);
        break;
    case 4:
        gen_number(g, b);
        break;
    default:
        gen_literal(g, b);
        break;
    }
    gen_ws(g, b);
}

/* Nesting around the 2048 limit, with or without a scalar innermost. */
static void gen_deep(gen *g, buf *b) {
    unsigned depth = MV_JSON_MAX_DEPTH - 3 + below(g, 6);
    char *closers = malloc(depth);
    assert_non_null(closers);
    for (unsigned i = 0; i < depth; i++) {
        bool obj = below(g, 3) == 0;
        puts_(b, obj ? "{\"k\":" : "[");
        closers[i] = obj ? '}' : ']';
    }
    if (below(g, 2))
        puts_(b, below(g, 2) ? "1" : "\"s\"");
    for (unsigned i = depth; i-- > 0;)
        putc_(b, closers[i]);
    free(closers);
}

static void mutate(gen *g, buf *b) {
    static const char interesting[] = {
        '"',  '\\',       '{',        '}',        '[',        ']',       ',',  ':',
        '0',  '-',        'e',        '.',        ' ',        'u',       '\0', 0x1F,
        0x7F, (char)0x80, (char)0xC0, (char)0xED, (char)0xF4, (char)0xFF};
    size_t ni = sizeof interesting;
    switch (below(g, 6)) {
    case 0: /* truncate */
        if (b->len > 0)
            b->len = below(g, (uint32_t)b->len);
        break;
    case 1: /* replace a byte */
        if (b->len > 0)
            b->p[below(g, (uint32_t)b->len)] = interesting[below(g, (uint32_t)ni)];
        break;
    case 2: /* delete a byte */
        if (b->len > 0) {
            size_t at = below(g, (uint32_t)b->len);
            memmove(b->p + at, b->p + at + 1, b->len - at - 1);
            b->len--;
        }
        break;
    case 3: { /* insert a byte */
        size_t at = below(g, (uint32_t)b->len + 1);
        putc_(b, 0);
        memmove(b->p + at + 1, b->p + at, b->len - at - 1);
        b->p[at] = interesting[below(g, (uint32_t)ni)];
        break;
    }
    default: { /* trailing content */
        static const char *const tail[] = {"x", "{}", "[]", ",", " \n", "\xEF\xBB\xBF", "//", "0"};
        uint32_t t = below(g, 9);
        if (t == 8)
            putc_(b, '\0');
        else
            puts_(b, tail[t]);
        break;
    }
    }
}

static void gen_doc(gen *g, buf *b) {
    b->len = 0;
    g->bad = below(g, 2) == 0 ? 0 : 5 + below(g, 40);
    if (chance(g, 15)) {
        gen_deep(g, b);
    } else {
        gen_ws(g, b);
        if (chance(g, 20)) {
            gen_value(g, b, 5); /* any top-level value, mostly scalars */
        } else {
            gen_container(g, b, 0);
            gen_ws(g, b);
        }
    }
    if (chance(g, 300)) {
        uint32_t n = 1 + (chance(g, 200) ? below(g, 3) : 0);
        for (uint32_t i = 0; i < n; i++)
            mutate(g, b);
    }
}

/* ---------------------------------------------------------- comparing */

typedef struct stats {
    unsigned both_accept, both_reject, allowed_overflow, allowed_depth, allowed_nul;
} stats;

/* A readable, bounded rendering of a document for failure messages. */
static const char *show(const char *p, size_t n) {
    static char out[1200];
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < sizeof out; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7F && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", c);
    }
    if (o + 8 >= sizeof out)
        memcpy(out + o, "...", 4);
    else
        out[o] = '\0';
    return out;
}

static bool lexeme_is_real(const char *s, size_t n) {
    return memchr(s, '.', n) != NULL || memchr(s, 'e', n) != NULL || memchr(s, 'E', n) != NULL;
}

/* True when jansson cannot convert this valid number lexeme. */
static bool lexeme_overflows(const char *s, size_t n) {
    char t[512];
    if (n >= sizeof t)
        return true;
    memcpy(t, s, n);
    t[n] = '\0';
    errno = 0;
    if (lexeme_is_real(s, n)) {
        double d = strtod(t, NULL);
        return errno == ERANGE && isinf(d);
    }
    (void)strtoll(t, NULL, 10);
    return errno == ERANGE;
}

/* Does the private tree hold a number jansson must refuse? */
static bool tree_has_overflow(const mv_jv *v) {
    switch (v->type) {
    case MV_JNUMBER:
        return lexeme_overflows(v->u.s, v->n);
    case MV_JARRAY:
        for (uint32_t i = 0; i < v->n; i++)
            if (tree_has_overflow(&v->u.items[i]))
                return true;
        return false;
    case MV_JOBJECT:
        for (uint32_t i = 0; i < v->n; i++)
            if (tree_has_overflow(&v->u.members[i].value))
                return true;
        return false;
    default:
        return false;
    }
}

/* Depth as jansson counts it: every value, scalars included, is a level.
 * Iterative over the leftmost-deepest path would miss siblings, so walk. */
static unsigned jansson_depth(const mv_jv *v) {
    unsigned best = 0;
    if (v->type == MV_JARRAY) {
        for (uint32_t i = 0; i < v->n; i++) {
            unsigned d = jansson_depth(&v->u.items[i]);
            best = d > best ? d : best;
        }
    } else if (v->type == MV_JOBJECT) {
        for (uint32_t i = 0; i < v->n; i++) {
            unsigned d = jansson_depth(&v->u.members[i].value);
            best = d > best ? d : best;
        }
    }
    return best + 1;
}

/* Compare trees; on the first difference write it to why and return false. */
static bool same_tree(const mv_jv *m, const json_t *j, char *why, size_t cap) {
    switch (m->type) {
    case MV_JNULL:
        if (!json_is_null(j))
            goto type;
        return true;
    case MV_JTRUE:
        if (!json_is_true(j))
            goto type;
        return true;
    case MV_JFALSE:
        if (!json_is_false(j))
            goto type;
        return true;
    case MV_JNUMBER: {
        char t[512];
        if (m->n >= sizeof t) {
            snprintf(why, cap, "number lexeme of %u bytes", m->n);
            return false;
        }
        memcpy(t, m->u.s, m->n);
        t[m->n] = '\0';
        if (lexeme_is_real(m->u.s, m->n)) {
            if (!json_is_real(j))
                goto type;
            if (strtod(t, NULL) != json_real_value(j)) {
                snprintf(why, cap, "real %s differs from jansson's %.17g", t, json_real_value(j));
                return false;
            }
        } else {
            if (!json_is_integer(j))
                goto type;
            if (strtoll(t, NULL, 10) != json_integer_value(j)) {
                snprintf(why, cap, "integer %s differs from jansson's %lld", t,
                         (long long)json_integer_value(j));
                return false;
            }
        }
        return true;
    }
    case MV_JSTRING:
        if (!json_is_string(j))
            goto type;
        if (json_string_length(j) != m->n || memcmp(json_string_value(j), m->u.s, m->n) != 0) {
            snprintf(why, cap, "string \"%s\" (%u bytes) differs from jansson's (%zu bytes)",
                     show(m->u.s, m->n), m->n, json_string_length(j));
            return false;
        }
        return true;
    case MV_JARRAY:
        if (!json_is_array(j))
            goto type;
        if (json_array_size(j) != m->n) {
            snprintf(why, cap, "array of %u items, jansson has %zu", m->n, json_array_size(j));
            return false;
        }
        for (uint32_t i = 0; i < m->n; i++)
            if (!same_tree(&m->u.items[i], json_array_get(j, i), why, cap))
                return false;
        return true;
    case MV_JOBJECT: {
        if (!json_is_object(j))
            goto type;
        if (json_object_size(j) != m->n) {
            snprintf(why, cap, "object of %u members, jansson has %zu", m->n, json_object_size(j));
            return false;
        }
        /* jansson keeps insertion order; iteration must match ours. */
        void *it = json_object_iter((json_t *)j);
        for (uint32_t i = 0; i < m->n; i++, it = json_object_iter_next((json_t *)j, it)) {
            const mv_jm *mm = &m->u.members[i];
            if (it == NULL || json_object_iter_key_len(it) != mm->key_len ||
                memcmp(json_object_iter_key(it), mm->key, mm->key_len) != 0) {
                snprintf(why, cap, "key %u \"%s\" differs from jansson's", i,
                         show(mm->key, mm->key_len));
                return false;
            }
            if (memchr(mm->key, '\0', mm->key_len) != NULL) {
                snprintf(why, cap, "key %u contains NUL", i);
                return false;
            }
            if (mv_jobject_getn(m, mm->key, mm->key_len) != &mm->value) {
                snprintf(why, cap, "lookup of key %u finds another member", i);
                return false;
            }
            if (!same_tree(&mm->value, json_object_iter_value(it), why, cap))
                return false;
        }
        return true;
    }
    default:
        snprintf(why, cap, "unknown private type %u", m->type);
        return false;
    }
type:
    snprintf(why, cap, "private type %u, jansson type %d", m->type, (int)json_typeof(j));
    return false;
}

/* jansson 2.14 loses a raw NUL byte read as lookahead after a number or a
 * literal ("[1\0]" loads as "[1]"): its one-byte push-back buffer treats NUL
 * as empty. The private parser rejects the byte, which is the safe side. */
static bool nul_after_token(const char *doc, size_t len, size_t off) {
    if (off == 0 || off >= len || doc[off] != '\0')
        return false;
    char prev = doc[off - 1];
    return (prev >= '0' && prev <= '9') || prev == 'e' || prev == 'l';
}

/* ------------------------------------------------- the lazy parse (proxy)
 *
 * mv_json_parse_lazy must refuse exactly what mv_json_parse refuses, with
 * the same error (code, offset, message, flags), and accept with the same
 * tree, except that string values it may leave raw (MV_JRAW) decode, with
 * mv_json_raw_decode, to the very bytes of the full parse's string. Every
 * document of every test below goes through both, with each lazy setting. */

static void same_lazy_tree(const mv_jv *full, const mv_jv *lazy, unsigned depth,
                           const mv_json_lazy *cfg, size_t *n_raw, unsigned index) {
    if (lazy->type == MV_JRAW) {
        if (full->type != MV_JSTRING)
            fail_msg("doc %u: a raw value where the full parse has type %u", index, full->type);
        if (depth < cfg->depth || lazy->n < cfg->min_len ||
            memchr(lazy->u.s, '\\', lazy->n) == NULL)
            fail_msg("doc %u: a raw value that should have been decoded", index);
        char *d = malloc(lazy->n + MV_JSON_RAW_SLACK);
        assert_non_null(d);
        size_t n = mv_json_raw_decode(d, lazy->u.s, lazy->n);
        if (n != full->n || (n > 0 && memcmp(d, full->u.s, n) != 0))
            fail_msg("doc %u: a raw value decodes to other bytes", index);
        free(d);
        (*n_raw)++;
        return;
    }
    if (lazy->type != full->type || lazy->n != full->n)
        fail_msg("doc %u: lazy tree differs (type %u/%u, n %u/%u)", index, lazy->type, full->type,
                 lazy->n, full->n);
    switch ((mv_jtype)full->type) {
    case MV_JSTRING:
    case MV_JNUMBER:
        if (full->n > 0 && memcmp(lazy->u.s, full->u.s, full->n) != 0)
            fail_msg("doc %u: lazy tree has other string bytes", index);
        break;
    case MV_JARRAY:
        for (uint32_t i = 0; i < full->n; i++)
            same_lazy_tree(&full->u.items[i], &lazy->u.items[i], depth + 1, cfg, n_raw, index);
        break;
    case MV_JOBJECT:
        for (uint32_t i = 0; i < full->n; i++) {
            const mv_jm *a = &full->u.members[i], *b = &lazy->u.members[i];
            if (a->key_len != b->key_len || memcmp(a->key, b->key, a->key_len) != 0)
                fail_msg("doc %u: lazy tree has another key", index);
            same_lazy_tree(&a->value, &b->value, depth + 1, cfg, n_raw, index);
        }
        if (full->n > MV_JSON_INDEX_MIN &&
            memcmp(full->u.members + full->n, lazy->u.members + lazy->n,
                   full->n * sizeof(uint32_t)) != 0)
            fail_msg("doc %u: lazy tree has another key index", index);
        break;
    default:
        break;
    }
}

static unsigned long lazy_docs, lazy_raw;

static void lazy_differential(const char *doc, size_t len, int rc, const mv_jv *root,
                              const mv_jerror *perr, unsigned index) {
    static const mv_json_lazy cfgs[] = {{0, 0, 0}, {2, 6, 0}, {3, 256, 0}};
    static mv_arena *arena;
    if (arena == NULL)
        arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
        mv_json_lazy cfg = cfgs[c];
        const mv_jv *lroot = NULL;
        mv_jerror lerr;
        mv_arena_reset(arena);
        int lrc = mv_json_parse_lazy(&lroot, arena, mv_allocator_default(), doc, len, &cfg, &lerr);
        if (lrc != rc)
            fail_msg("doc %u (lazy %zu): returned %d, the full parse %d\n  document: %s", index, c,
                     lrc, rc, show(doc, len));
        if (rc != MV_OK) {
            if (lerr.code != perr->code || lerr.offset != perr->offset || lerr.utf8 != perr->utf8 ||
                lerr.dup_key != perr->dup_key || lerr.key_len != perr->key_len ||
                strcmp(lerr.message, perr->message) != 0)
                fail_msg("doc %u (lazy %zu): error \"%s\" at %zu, the full parse \"%s\" at %zu\n"
                         "  document: %s",
                         index, c, lerr.message, lerr.offset, perr->message, perr->offset,
                         show(doc, len));
            continue;
        }
        size_t n_raw = 0;
        same_lazy_tree(root, lroot, 0, &cfg, &n_raw, index);
        if (n_raw != cfg.n_raw)
            fail_msg("doc %u (lazy %zu): n_raw %zu, the tree holds %zu", index, c, cfg.n_raw,
                     n_raw);
        lazy_raw += n_raw;
    }
    lazy_docs++;
}

static bool differential(mv_arena *arena, const char *doc, size_t len, unsigned index, stats *st);

/* Parse with both; fail the test on any difference that is not one of the
 * two allowed ones. Returns the private verdict (true = accepted). */
static bool differential(mv_arena *arena, const char *doc, size_t len, unsigned index, stats *st) {
    const mv_jv *root = NULL;
    mv_jerror perr;
    json_error_t jerr;
    char why[1500];
    mv_arena_reset(arena);
    int rc = mv_json_parse(&root, arena, mv_allocator_default(), doc, len, &perr);
    json_t *j = json_loadb(doc, len, JANSSON_FLAGS, &jerr);
    bool ours = rc == MV_OK;
    lazy_differential(doc, len, rc, root, &perr, index);

    if (rc != MV_OK && rc != MV_EPARSE)
        fail_msg("doc %u: private parser returned %d", index, rc);
    if (!ours && perr.offset > len)
        fail_msg("doc %u: error offset %zu beyond %zu bytes", index, perr.offset, len);
    if (ours && j != NULL) {
        if (!same_tree(root, j, why, sizeof why))
            fail_msg("doc %u: trees differ: %s\n  document: %s", index, why, show(doc, len));
        st->both_accept++;
    } else if (!ours && j == NULL) {
        st->both_reject++;
    } else if (ours) {
        bool overflow_msg = strstr(jerr.text, "too big") != NULL ||
                            strstr(jerr.text, "real number overflow") != NULL;
        bool depth_msg = strstr(jerr.text, "maximum parsing depth") != NULL;
        if (overflow_msg && tree_has_overflow(root)) {
            st->allowed_overflow++;
        } else if (depth_msg && jansson_depth(root) > JSON_PARSER_MAX_DEPTH) {
            st->allowed_depth++;
        } else {
            fail_msg("doc %u: private parser accepts, jansson rejects (%s at %d)\n  document: %s",
                     index, jerr.text, jerr.position, show(doc, len));
        }
    } else if (nul_after_token(doc, len, perr.offset)) {
        /* Proof: without that byte both must accept the same tree. */
        char *copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, doc, perr.offset);
        memcpy(copy + perr.offset, doc + perr.offset + 1, len - perr.offset - 1);
        stats inner = {0};
        differential(arena, copy, len - 1, index, &inner);
        free(copy);
        if (inner.both_accept + inner.allowed_nul != 1)
            fail_msg("doc %u: jansson accepts a NUL byte at %zu for another reason\n  document: %s",
                     index, perr.offset, show(doc, len));
        st->allowed_nul++;
    } else {
        fail_msg("doc %u: private parser rejects (%s at %zu), jansson accepts\n  document: %s",
                 index, perr.message, perr.offset, show(doc, len));
    }
    json_decref(j);
    return ours;
}

/* ------------------------------------------------------------- tests */

static void test_generated_documents(void **state) {
    (void)state;
    mv_arena *arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    gen g = {SEED, 0};
    buf b = {0};
    stats st = {0};
    for (unsigned i = 0; i < N_DOCS; i++) {
        gen_doc(&g, &b);
        differential(arena, b.p, b.len, i, &st);
    }
    /* The generator must keep exercising every outcome, or the guard
     * would silently weaken. */
    print_message("json differential: %u docs, %u both accept, %u both reject, %u overflow, "
                  "%u depth, %u NUL\n",
                  N_DOCS, st.both_accept, st.both_reject, st.allowed_overflow, st.allowed_depth,
                  st.allowed_nul);
    assert_true(st.both_accept >= N_DOCS / 4);
    assert_true(st.both_reject >= N_DOCS / 4);
    assert_true(st.allowed_overflow >= 50);
    assert_true(st.allowed_depth >= 10);
    assert_true(st.allowed_nul >= 10);
    free(b.p);
    mv_arena_free(arena);
}

/* Strings dense with escapes, each escape (and a raw UTF-8 character, a
 * raw control byte, an early quote) after plain runs of every length
 * 0-17 and at every offset from the document's start: the string
 * scanner and the escape decoder jump over 8 bytes at a time to the first
 * byte that needs attention, and must land on it exactly. */
static void test_escape_dense_strings(void **state) {
    (void)state;
    static const char *const marks[] = {
        "\\\"",     "\\\\",         "\\/",  "\\n", "\\t", "\\u00e9", "\\ud83d\\ude00",
        "\xc3\xa9", "\xe2\x82\xac", "\x01", "\"",  "\\x", "\xff"};
    mv_arena *arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    buf b = {0};
    stats st = {0};
    unsigned index = 0;
    for (size_t lead = 0; lead < 9; lead++) {
        for (size_t run = 0; run < 18; run++) {
            for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
                b.len = 0;
                puts_(&b, "[");
                for (size_t k = 0; k < lead; k++)
                    putc_(&b, ' ');
                putc_(&b, '"');
                for (int rep = 0; rep < 4; rep++) {
                    for (size_t k = 0; k < run; k++)
                        putc_(&b, (char)('a' + (k + (size_t)rep) % 26));
                    puts_(&b, marks[(m + (size_t)rep) % (sizeof(marks) / sizeof(marks[0]))]);
                }
                puts_(&b, "tail\"]");
                differential(arena, b.p, b.len, index++, &st);
            }
        }
    }
    assert_true(st.both_accept > 500);
    assert_true(st.both_reject > 500);
    free(b.p);
    mv_arena_free(arena);
}

typedef struct tricky {
    const char *doc;
    size_t len;     /* 0 = strlen */
    int verdict;    /* 1 accepted by both, 0 rejected by both, 2 allowed overflow,
                       3 allowed NUL lookahead (rejected by the private parser) */
    const char *s0; /* when accepted: first string found (decoded), or NULL */
    size_t s0_len;
} tricky;

#define T(d, v)                                                                                    \
    { d, sizeof(d) - 1, v, NULL, 0 }
#define TS(d, s)                                                                                   \
    { d, sizeof(d) - 1, 1, s, sizeof(s) - 1 }

static const mv_jv *first_string(const mv_jv *v) {
    if (v->type == MV_JSTRING)
        return v;
    for (uint32_t i = 0; i < v->n && (v->type == MV_JARRAY || v->type == MV_JOBJECT); i++) {
        const mv_jv *c =
            first_string(v->type == MV_JARRAY ? &v->u.items[i] : &v->u.members[i].value);
        if (c != NULL)
            return c;
    }
    return NULL;
}

static void test_tricky_documents(void **state) {
    (void)state;
    static const tricky cases[] = {
        /* duplicate keys, also equal only after unescaping */
        T("{\"p\":1,\"\\u0070\":2}", 0),
        T("{\"/\":1,\"\\/\":2}", 0),
        T("{\"\\ud83d\\ude00\":1,\"\xF0\x9F\x98\x80\":2}", 0),
        T("{\"\\u00e9\":1,\"\\u00E9\":2}", 0),
        T("{\"a\":{\"b\":1},\"b\":{\"a\":1}}", 1),
        T("{\"a\":1,\"A\":2}", 1),
        /* NUL */
        T("{\"a\\u0000\":1}", 0),
        TS("[\"a\\u0000b\"]", "a\0b"),
        T("[\"a\0b\"]", 0),
        T("[]\0", 0),
        T("[1\0]", 3),
        T("[false\0]", 3),
        T("[\"a\"\0]", 0),
        /* surrogates */
        TS("[\"\\uD83D\\uDE00\"]", "\xF0\x9F\x98\x80"),
        TS("[\"\\udbff\\udfff\"]", "\xF4\x8F\xBF\xBF"),
        T("[\"\\ud800\"]", 0),
        T("[\"\\udc00\"]", 0),
        T("[\"\\ud800\\u0041\"]", 0),
        T("[\"\\ud800x\"]", 0),
        T("[\"\\udc00\\ud800\"]", 0),
        T("[\"\\ud800\\ud800\"]", 0),
        T("[\"\\ud800\\ue000\"]", 0),
        T("[\"\\udbff\\uffff\"]", 0),
        /* raw UTF-8 */
        TS("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"]", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"),
        TS("[\"\xEF\xBF\xBF\xF4\x8F\xBF\xBF\"]", "\xEF\xBF\xBF\xF4\x8F\xBF\xBF"),
        T("[\"\xC0\xAF\"]", 0),
        T("[\"\xE0\x80\xAF\"]", 0),
        T("[\"\xF0\x80\x80\xAF\"]", 0),
        T("[\"\xED\xA0\x80\"]", 0),
        T("[\"\xF4\x90\x80\x80\"]", 0),
        T("[\"\xE2\x82\"]", 0),
        T("[\"\xE2\x82", 0),
        T("[\"\x80\"]", 0),
        /* controls */
        TS("[\"\x7F\"]", "\x7F"),
        T("[\"\x1F\"]", 0),
        T("[\"\t\"]", 0),
        TS("[\"\\b\\f\\n\\r\\t\\/\\\\\\\"\"]", "\b\f\n\r\t/\\\""),
        /* numbers */
        T("[-0]", 1),
        T("[01]", 0),
        T("[1.]", 0),
        T("[.5]", 0),
        T("[-]", 0),
        T("[+1]", 0),
        T("[1e5,1E+05,1e-5,0.5e0]", 1),
        T("[1e999]", 2),
        T("[-1e999]", 2),
        T("[99999999999999999999]", 2),
        T("[1e-999]", 1),
        T("[9223372036854775807,-9223372036854775808]", 1),
        /* whitespace, top level, trailing content */
        T(" \t\r\n[ ] \n", 1),
        /* an empty object before any member (UBSan: NULL slot base, fuzzer) */
        T("{}", 1),
        T("[{}]", 1),
        T("[\f]", 0),
        T("\xEF\xBB\xBF[]", 0),
        T("[\xC2\xA0]", 0),
        T("[1] x", 0),
        T("{}{}", 0),
        T("[],", 0),
        T("", 0),
        T("   ", 0),
        T("\"a\"", 0),
        T("1", 0),
        T("null", 0),
        T("[1,]", 0),
        T("{\"a\":1,}", 0),
        T("{\"a\"}", 0),
        T("{a:1}", 0),
        T("['a']", 0),
        T("[tru]", 0),
        T("[nulll]", 0),
    };
    mv_arena *arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    stats st = {0};
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        const tricky *c = &cases[i];
        stats before = st;
        bool ours = differential(arena, c->doc, c->len, i, &st);
        if (c->verdict == 2 && st.allowed_overflow != before.allowed_overflow + 1)
            fail_msg("case %u (%s): expected the allowed overflow difference", i,
                     show(c->doc, c->len));
        if (c->verdict == 3 && st.allowed_nul != before.allowed_nul + 1)
            fail_msg("case %u (%s): expected the allowed NUL difference", i, show(c->doc, c->len));
        if (c->verdict != 2 && ours != (c->verdict == 1))
            fail_msg("case %u (%s): expected %s", i, show(c->doc, c->len),
                     c->verdict ? "accept" : "reject");
        if (c->s0 != NULL) {
            const mv_jv *root = NULL;
            mv_jerror e;
            mv_arena_reset(arena);
            assert_int_equal(mv_json_parse(&root, arena, NULL, c->doc, c->len, &e), MV_OK);
            const mv_jv *s = first_string(root);
            assert_non_null(s);
            assert_int_equal(s->n, c->s0_len);
            assert_memory_equal(s->u.s, c->s0, c->s0_len);
        }
    }
    mv_arena_free(arena);
}

/* Exactly at the limit: 2048 containers pass both; 2049 fail both; a
 * scalar inside 2048 containers is the one allowed depth difference. */
static void test_depth_limit(void **state) {
    (void)state;
    mv_arena *arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    char *doc = malloc(2 * MV_JSON_MAX_DEPTH + 8);
    assert_non_null(doc);
    stats st = {0};
    for (unsigned depth = MV_JSON_MAX_DEPTH - 1; depth <= MV_JSON_MAX_DEPTH + 1; depth++) {
        for (int scalar = 0; scalar < 2; scalar++) {
            size_t n = 0;
            memset(doc, '[', depth);
            n = depth;
            if (scalar)
                doc[n++] = '7';
            memset(doc + n, ']', depth);
            n += depth;
            stats before = st;
            bool ours = differential(arena, doc, n, depth * 2 + (unsigned)scalar, &st);
            assert_int_equal(ours, depth <= MV_JSON_MAX_DEPTH);
            bool allowed = st.allowed_depth != before.allowed_depth;
            assert_int_equal(allowed, depth == MV_JSON_MAX_DEPTH && scalar);
        }
    }
    free(doc);
    mv_arena_free(arena);
}

/* An empty buffer that never allocated (data NULL, length 0), as the MCP
 * client passes for an empty message: a clean parse error, not pointer
 * arithmetic on NULL (found by fuzz/fuzz_session.c, UBSan). */
static void test_null_empty_input(void **state) {
    (void)state;
    mv_arena *arena = mv_arena_new(NULL, 0);
    const mv_jv *v = NULL;
    mv_jerror je;
    assert_non_null(arena);
    assert_int_equal(mv_json_parse(&v, arena, NULL, NULL, 0, &je), MV_EPARSE);
    assert_null(v);
    assert_int_equal(je.offset, 0);
    mv_arena_free(arena);
}

/* ------------------------------------------ split parse (several threads) */

static void same_split_tree(const mv_jv *a, const mv_jv *b) {
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->n, b->n);
    switch ((mv_jtype)a->type) {
    case MV_JSTRING:
    case MV_JNUMBER:
        assert_memory_equal(a->n > 0 ? a->u.s : "", b->n > 0 ? b->u.s : "", a->n);
        break;
    case MV_JARRAY:
        for (uint32_t i = 0; i < a->n; i++)
            same_split_tree(&a->u.items[i], &b->u.items[i]);
        break;
    case MV_JOBJECT:
        for (uint32_t i = 0; i < a->n; i++) {
            assert_int_equal(a->u.members[i].key_len, b->u.members[i].key_len);
            assert_memory_equal(a->u.members[i].key, b->u.members[i].key,
                                a->u.members[i].key_len);
            same_split_tree(&a->u.members[i].value, &b->u.members[i].value);
        }
        if (a->n > MV_JSON_INDEX_MIN) /* the key-sorted index after the members */
            assert_memory_equal(a->u.members + a->n, b->u.members + b->n,
                                a->n * sizeof(uint32_t));
        break;
    default:
        break;
    }
}

/* A document of about 900 KB (6,000 items): a snapshot-like "servers" array whose items
 * hold every kind of value, escaped quotes and backslashes before quotes,
 * brackets and commas inside strings, and one object large enough for a
 * sorted index; members before and after it. */
static void gen_split_doc(buf *b, unsigned items) {
    char tmp[512];
    b->len = 0;
    puts_(b, " {\"meta\":{\"v\":1,\"list\":[1,2,3]},\"servers\" : [\n");
    for (unsigned i = 0; i < items; i++) {
        int n = snprintf(tmp, sizeof tmp,
                         "%s{\"name\":\"s%u\",\"tools\":[{\"name\":\"t%u\",\"description\":"
                         "\"a \\\"quoted\\\" ], {[ text, \\\\\\\\\",\"n\":-%u.5e3,\"ok\":%s,"
                         "\"x\":null,\"u\":\"\\u00e9\xc3\xa9\\ud83d\\ude00\"}]}",
                         i > 0 ? ",\n  " : "", i, i, i, i % 2 ? "true" : "false");
        put(b, tmp, (size_t)n);
        if (i == items / 2) {
            put(b, ",{", 2);
            for (unsigned k = 0; k < 40; k++) {
                n = snprintf(tmp, sizeof tmp, "%s\"k%02u\":%u", k > 0 ? "," : "", 39 - k, k);
                put(b, tmp, (size_t)n);
            }
            put(b, "}", 1);
        }
    }
    puts_(b, "\n] , \"tail\":[\"after\"]}\n");
}

static int parse_split_n(const mv_jv **out, mv_arena *arena, mv_arena **more, size_t n_more,
                         const char *d, size_t len, mv_jerror *err) {
    for (size_t i = 0; i < n_more; i++)
        mv_arena_reset(more[i]);
    mv_arena_reset(arena);
    return mv_json_parse_split(out, arena, more, n_more, NULL, d, len, err);
}

/* mv_json_parse_split builds the one-pass tree (the split really happens),
 * and on any broken document reports exactly the one-pass error. */
static void test_split_parse(void **state) {
    (void)state;
    mv_arena *one = mv_arena_new(NULL, 0), *arena = mv_arena_new(NULL, 0);
    mv_arena *more[3] = {mv_arena_new(NULL, 0), mv_arena_new(NULL, 0), mv_arena_new(NULL, 0)};
    assert_true(one != NULL && arena != NULL && more[0] != NULL && more[1] != NULL &&
                more[2] != NULL);
    buf b = {0};
    gen_split_doc(&b, 6000);
    assert_true(b.len > 600 * 1024);
    const mv_jv *ref = NULL, *got = NULL;
    mv_jerror e1, e2;
    assert_int_equal(mv_json_parse(&ref, one, NULL, b.p, b.len, &e1), MV_OK);
    for (size_t n_more = 1; n_more <= 3; n_more++) {
        assert_int_equal(parse_split_n(&got, arena, more, n_more, b.p, b.len, &e2), MV_OK);
        for (size_t i = 0; i < n_more; i++)
            assert_true(mv_arena_used(more[i]) > 0); /* each thread parsed a run */
        same_split_tree(ref, got);
    }
    /* A bare array at the top is split too. */
    buf a = {0};
    put(&a, "[", 1);
    for (unsigned i = 0; i < 40000; i++)
        put(&a, i > 0 ? ",\"item, ]\\\"\"" : "\"item, ]\\\"\"", i > 0 ? 12 : 11);
    put(&a, "]", 1);
    assert_int_equal(mv_json_parse(&ref, one, NULL, a.p, a.len, &e1), MV_OK);
    assert_int_equal(parse_split_n(&got, arena, more, 2, a.p, a.len, &e2), MV_OK);
    assert_true(mv_arena_used(more[0]) > 0);
    same_split_tree(ref, got);
    free(a.p);

    /* Broken documents: byte replacements, deletions and insertions all over
     * the document (the runs, the cuts, the parts around the array), a
     * duplicate key at the top, and nesting just at and over the limit
     * inside an item (counted with the containers around it). */
    static const char repl[] = {'"', ',', ']', '}', '[', '{', '\\', 0x01, (char)0xFF, ' ', 'x'};
    uint64_t x = SEED;
    buf m = {0};
    unsigned rejected = 0;
    for (unsigned k = 0; k < 240; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t at = (size_t)(x % b.len);
        if (k < 8) /* the first and last bytes, where the parts meet */
            at = k < 4 ? k * 7 : b.len - 1 - (k - 4) * 5;
        m.len = 0;
        put(&m, b.p, b.len);
        switch (k % 3) {
        case 0:
            m.p[at] = repl[(x >> 20) % sizeof repl];
            break;
        case 1:
            memmove(m.p + at, m.p + at + 1, m.len - at - 1);
            m.len--;
            break;
        default:
            put(&m, " ", 1);
            memmove(m.p + at + 1, m.p + at, m.len - at - 1);
            m.p[at] = repl[(x >> 20) % sizeof repl];
            break;
        }
        int r1 = mv_json_parse(&ref, one, NULL, m.p, m.len, &e1);
        int r2 = parse_split_n(&got, arena, more, 1 + k % 3, m.p, m.len, &e2);
        assert_int_equal(r1, r2);
        if (r1 == MV_OK) {
            same_split_tree(ref, got);
            continue;
        }
        rejected++;
        assert_int_equal(e1.offset, e2.offset);
        assert_string_equal(e1.message, e2.message);
        assert_int_equal(e1.utf8, e2.utf8);
        assert_int_equal(e1.dup_key, e2.dup_key);
        assert_int_equal(e1.key_len, e2.key_len);
    }
    assert_true(rejected >= 120);

    const char *top_dup = "\"tail\":[1],";
    for (unsigned variant = 0; variant < 3; variant++) {
        m.len = 0;
        if (variant == 0) { /* a second "tail" key before the array */
            put(&m, b.p, 2);
            puts_(&m, top_dup);
            put(&m, b.p + 2, b.len - 2);
        } else { /* an item nested 2046 (allowed) or 2047 levels (over) deep */
            size_t levels = variant == 1 ? MV_JSON_MAX_DEPTH - 2 : MV_JSON_MAX_DEPTH - 1;
            const char *cut = strstr(b.p, "\"servers\" : [") + 13;
            put(&m, b.p, (size_t)(cut - b.p));
            for (size_t i = 0; i < levels; i++)
                put(&m, "[", 1);
            for (size_t i = 0; i < levels; i++)
                put(&m, "]", 1);
            put(&m, ",", 1);
            put(&m, cut, b.len - (size_t)(cut - b.p));
        }
        int r1 = mv_json_parse(&ref, one, NULL, m.p, m.len, &e1);
        int r2 = parse_split_n(&got, arena, more, 2, m.p, m.len, &e2);
        assert_int_equal(r1, variant == 1 ? MV_OK : MV_EPARSE);
        assert_int_equal(r1, r2);
        if (r1 == MV_OK) {
            same_split_tree(ref, got);
        } else {
            assert_int_equal(e1.offset, e2.offset);
            assert_string_equal(e1.message, e2.message);
            assert_int_equal(e1.dup_key, e2.dup_key);
        }
    }
    free(m.p);
    free(b.p);
    for (int i = 0; i < 3; i++)
        mv_arena_free(more[i]);
    mv_arena_free(arena);
    mv_arena_free(one);
}

/* Long escape-dense strings, the relay's case (JSON or code inside a
 * string): escapes, raw UTF-8, and now and then a defect (a bad escape, a
 * cut \u, a lone surrogate, a control byte, invalid UTF-8, a cut end)
 * anywhere in a string of up to 3,000 bytes, so escapes cross the 16-byte
 * blocks of the SSE2 scan at every phase; each at depths 1 to 4. */
static void test_lazy_long_strings(void **state) {
    (void)state;
    static const char *const pieces[] = {"\\\"",
                                         "\\\\",
                                         "\\/",
                                         "\\b",
                                         "\\f",
                                         "\\n",
                                         "\\r",
                                         "\\t",
                                         "\\u00e9",
                                         "\\u0000",
                                         "\\uD83D\\uDE00",
                                         "\\u20AC",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80",
                                         "{\\\"id\\\":",
                                         "abc",
                                         "0123456789abcdef",
                                         " ",
                                         ","};
    static const char *const defects[] = {
        "\\x",  "\\u12",    "\\uDC00",      "\\uD800x",         "\\uD800\\u0041",
        "\x1f", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
        "\"",   "\\"};
    mv_arena *arena = mv_arena_new(NULL, 0);
    assert_non_null(arena);
    gen g = {SEED ^ 0x1234567ull, 0};
    buf b = {0};
    stats st = {0};
    unsigned long raw_before = lazy_raw;
    for (unsigned i = 0; i < 6000; i++) {
        b.len = 0;
        unsigned depth = 1 + below(&g, 4);
        for (unsigned d = 1; d < depth; d++)
            puts_(&b, d % 2 ? "{\"k\":" : "[");
        puts_(&b, "[\"");
        size_t target = below(&g, 8) == 0 ? below(&g, 40) : 100 + below(&g, 2900);
        bool defect = chance(&g, 300);
        size_t at = defect ? below(&g, (uint32_t)target + 1) : SIZE_MAX;
        size_t start = b.len;
        while (b.len - start < target) {
            if (b.len - start >= at) {
                puts_(&b, defects[below(&g, sizeof(defects) / sizeof(defects[0]))]);
                at = SIZE_MAX;
            }
            puts_(&b, pieces[below(&g, sizeof(pieces) / sizeof(pieces[0]))]);
        }
        if (!chance(&g, 20)) { /* else: cut short */
            puts_(&b, "\"]");
            for (unsigned d = depth - 1; d >= 1; d--)
                puts_(&b, d % 2 ? "}" : "]");
        }
        differential(arena, b.p, b.len, i, &st);
    }
    print_message("lazy: %lu documents parsed both ways, %lu raw values (%lu here); long "
                  "strings: %u accepted, %u refused\n",
                  lazy_docs, lazy_raw, lazy_raw - raw_before, st.both_accept, st.both_reject);
    assert_true(st.both_accept >= 2000);
    assert_true(st.both_reject >= 1000);
    assert_true(lazy_raw - raw_before >= 5000);
    free(b.p);
    mv_arena_free(arena);
}

/* ------------------------------------------------------- chunk plans */

/* A snapshot-like document: `lead` small arrays and objects, then (or
 * first) a large array of `items` servers whose sizes vary, with commas,
 * brackets and escaped quotes inside strings; `commas` gets the offset of
 * every comma between the large array's items. */
static void gen_plan_doc(buf *b, unsigned items, bool big_first, size_t *commas, size_t *n_commas,
                         size_t *arr_begin, size_t *arr_end) {
    uint64_t x = SEED;
    *n_commas = 0;
    puts_(b, "{");
    if (!big_first)
        puts_(b, "\"small\": [1, [2, 3], {\"a\": \"],[\"}], \"meta\": {\"k\": [\"x\"]},\n");
    puts_(b, "\"servers\" : ");
    *arr_begin = b->len;
    puts_(b, "[ ");
    for (unsigned i = 0; i < items; i++) {
        if (i > 0) {
            commas[(*n_commas)++] = b->len + (i % 3 == 0);
            puts_(b, i % 3 == 0 ? " ,\n  " : ",");
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        char t[96];
        snprintf(t, sizeof t, "{\"name\": \"s%u\", \"tools\": [", i);
        puts_(b, t);
        unsigned tools = 1 + (unsigned)(x % 9);
        for (unsigned k = 0; k < tools; k++) {
            snprintf(t, sizeof t, "%s{\"name\": \"t\\\", ]}%u\", \"n\": %u, \"ok\": true}",
                     k > 0 ? ", " : "", k, (unsigned)(x >> 8) % 1000);
            puts_(b, t);
        }
        puts_(b, "]}");
    }
    puts_(b, " ]");
    *arr_end = b->len;
    if (big_first)
        puts_(b, ",\n\"small\": [1, [2, 3], {\"a\": \"],[\"}]");
    puts_(b, "}\n");
}

static void test_chunk_plan(void **state) {
    (void)state;
    const unsigned sizes[] = {3000, 40000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (int first = 0; first < 2; first++) {
            buf b = {0};
            size_t *commas = malloc(sizes[si] * sizeof *commas);
            size_t n_commas = 0, ab = 0, ae = 0;
            assert_non_null(commas);
            gen_plan_doc(&b, sizes[si], first == 1, commas, &n_commas, &ab, &ae);
            const size_t runs[] = {b.len / 7, b.len / 40, 4096};
            for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
                mv_json_chunks ch;
                assert_int_equal(mv_json_chunks_plan(&ch, NULL, b.p, b.len, runs[r]), MV_OK);
                assert_int_equal(ch.depth, 2);
                assert_int_equal(ch.arr_begin, ab);
                assert_int_equal(ch.arr_end, ae);
                assert_int_equal(ch.member, first == 1 ? 0 : 2);
                /* The cuts: the first comma at or past each run's share. */
                size_t pieces = b.len / runs[r] + 1, share = (ae - ab) / pieces;
                size_t start = ab + 1, n = 1;
                for (size_t k = 0; k < n_commas && n < pieces; k++) {
                    if (commas[k] - start >= share) {
                        assert_true(n - 1 < ch.n);
                        assert_int_equal(ch.cuts[n - 1], commas[k]);
                        start = commas[k] + 1;
                        n++;
                    }
                }
                assert_int_equal(ch.n, n);
                assert_true(n > 2);
                mv_json_chunks_free(&ch, NULL);
            }
            free(commas);
            free(b.p);
        }
    }
    /* A bare array of tiny items (more commas than are kept: the array is
     * walked again) and one with a trailing comma: the same rule. */
    for (int trailing = 0; trailing < 2; trailing++) {
        buf a = {0};
        const unsigned n_items = trailing ? 3000 : 400000;
        size_t *commas = malloc((n_items + 1) * sizeof *commas), n_commas = 0;
        assert_non_null(commas);
        putc_(&a, '[');
        for (unsigned i = 0; i < n_items; i++) {
            if (i > 0) {
                commas[n_commas++] = a.len;
                putc_(&a, ',');
            }
            if (trailing) { /* few, long items: their commas are kept */
                putc_(&a, '"');
                for (unsigned k = 0; k < 300; k++)
                    putc_(&a, k % 50 == 7 ? ',' : (char)('a' + (i + k) % 26));
                putc_(&a, '"');
            } else {
                putc_(&a, (char)('0' + i % 10));
            }
        }
        if (trailing) {
            commas[n_commas++] = a.len;
            puts_(&a, ", ");
        }
        putc_(&a, ']');
        mv_json_chunks ch;
        size_t run = a.len / 9;
        assert_int_equal(mv_json_chunks_plan(&ch, NULL, a.p, a.len, run), MV_OK);
        assert_int_equal(ch.depth, 1);
        size_t pieces = a.len / run + 1, share = a.len / pieces, start = 1, n = 1;
        for (size_t k = 0; k < n_commas && n < pieces; k++) {
            if (commas[k] - start >= share) {
                assert_int_equal(ch.cuts[n - 1], commas[k]);
                start = commas[k] + 1;
                n++;
            }
        }
        assert_int_equal(ch.n, n);
        mv_json_chunks_free(&ch, NULL);
        free(commas);
        free(a.p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_dense_strings), cmocka_unit_test(test_null_empty_input),
        cmocka_unit_test(test_tricky_documents),     cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_generated_documents),  cmocka_unit_test(test_split_parse),
        cmocka_unit_test(test_lazy_long_strings),    cmocka_unit_test(test_chunk_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
