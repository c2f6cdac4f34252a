/*
 * A strict reader for the TOML that Codex's config.toml uses: tables and
 * arrays of tables, bare, quoted and dotted keys, basic and literal strings
 * (single- and multi-line) with every TOML 1.0 escape, integers (decimal,
 * hex, octal, binary, with underscores), floats, booleans, arrays (over
 * several lines, trailing comma) and inline tables, and comments. Anything
 * else (dates and times, a key defined twice, a table re-opened, bad UTF-8,
 * a control character) is an error with a line and column: a scanner must
 * never guess at what the client would read.
 *
 * The result is a cv tree. Lookups while building go through a hash of
 * (table, key), so a hostile file with many keys stays linear.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_int.h"

/* ----------------------------------------------------------------- keyset */

typedef struct cfg_keyslot {
    const void *owner;
    const char *key;
    size_t len;
    uint64_t hash;
    void *value;
} cfg_keyslot;

static uint64_t key_hash(const void *owner, const char *key, size_t len) {
    uint64_t h = 1469598103934665603ull;
    uintptr_t o = (uintptr_t)owner;
    for (size_t i = 0; i < sizeof(o); i++) {
        h ^= (unsigned char)(o >> (8 * i));
        h *= 1099511628211ull;
    }
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static cfg_keyslot *keyset_slot(const cfg_keyset *ks, const void *owner, const char *key,
                                size_t len, uint64_t h) {
    size_t mask = ks->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        cfg_keyslot *s = &ks->slots[i];
        if (s->owner == NULL)
            return s;
        if (s->hash == h && s->owner == owner && s->len == len && memcmp(s->key, key, len) == 0)
            return s;
    }
}

static int keyset_grow(cfg_keyset *ks) {
    size_t ncap = ks->cap ? ks->cap * 2 : 64;
    if (ncap > SIZE_MAX / sizeof(cfg_keyslot))
        return MV_ENOMEM;
    cfg_keyslot *old = ks->slots;
    size_t ocap = ks->cap;
    ks->slots = mv_calloc(ks->alloc, ncap, sizeof(cfg_keyslot));
    if (ks->slots == NULL) {
        ks->slots = old;
        return MV_ENOMEM;
    }
    ks->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].owner != NULL)
            *keyset_slot(ks, old[i].owner, old[i].key, old[i].len, old[i].hash) = old[i];
    mv_free(ks->alloc, old, ocap * sizeof(cfg_keyslot));
    return MV_OK;
}

/* The value stored for (owner, key), or NULL. */
static void *keyset_find(const cfg_keyset *ks, const void *owner, const char *key, size_t len) {
    if (ks->cap == 0)
        return NULL;
    cfg_keyslot *s = keyset_slot(ks, owner, key, len, key_hash(owner, key, len));
    return s->owner != NULL ? s->value : NULL;
}

static int keyset_put(cfg_keyset *ks, const void *owner, const char *key, size_t len, void *value) {
    if ((ks->n + 1) * 2 > ks->cap && keyset_grow(ks) != MV_OK)
        return MV_ENOMEM;
    uint64_t h = key_hash(owner, key, len);
    cfg_keyslot *s = keyset_slot(ks, owner, key, len, h);
    if (s->owner != NULL)
        return 1;
    s->owner = owner;
    s->key = key;
    s->len = len;
    s->hash = h;
    s->value = value;
    ks->n++;
    return 0;
}

int cfg_keyset_add(cfg_keyset *ks, const void *owner, const char *key, size_t len) {
    return keyset_put(ks, owner, key, len, (void *)owner);
}

void cfg_keyset_free(cfg_keyset *ks) {
    if (ks == NULL)
        return;
    mv_free(ks->alloc, ks->slots, ks->cap * sizeof(cfg_keyslot));
    ks->slots = NULL;
    ks->cap = ks->n = 0;
}

/* ----------------------------------------------------------------- parser */

/* Table flags (cv.flags). */
#define TF_EXPLICIT 1u /* defined by a [header] */
#define TF_IMPLICIT 2u /* created as the parent of a [header] */
#define TF_DOTTED 4u   /* created by a dotted key */
#define TF_INLINE 8u   /* an inline table, or inside one: sealed */
#define TF_AOT 16u     /* an array made by [[header]] */

typedef struct tp {
    cfg_ctx *c;
    const char *s;
    size_t len, i;
    cv *root, *cur;
    cfg_keyset keys;
    unsigned depth;
} tp;

typedef struct tkey {
    const char *s;
    size_t len;
    size_t off;
} tkey;

#define MAX_KEY_PARTS 32

static int fail(tp *P, size_t off, const char *fmt, const char *what) {
    uint32_t l, col;
    cfg_pos_off(P->c, off, &l, &col);
    return cfg_fail(P->c, MV_EPARSE, l, col, fmt, what);
}

static int nomem(tp *P) {
    return cfg_fail(P->c, MV_ENOMEM, 0, 0, "out of memory");
}

static bool at_end(const tp *P) {
    return P->i >= P->len;
}

static char peek(const tp *P, size_t k) {
    return P->i + k < P->len ? P->s[P->i + k] : '\0';
}

static void skip_ws(tp *P) {
    while (P->i < P->len && (P->s[P->i] == ' ' || P->s[P->i] == '\t'))
        P->i++;
}

/* Bytes 0x00-0x1F (but tab) and 0x7F are not allowed in comments or
 * strings; non-ASCII must be valid UTF-8. */
static int check_text(tp *P, size_t from, size_t to, const char *where) {
    for (size_t k = from; k < to; k++) {
        unsigned char b = (unsigned char)P->s[k];
        if ((b < 0x20 && b != '\t') || b == 0x7F)
            return fail(P, k, "control character not allowed in %s", where);
    }
    size_t bad = 0;
    if (!cfg_utf8_valid(P->s + from, to - from, &bad))
        return fail(P, from + bad, "invalid UTF-8 in %s", where);
    return MV_OK;
}

/* A comment up to (not including) the end of the line. */
static int skip_comment(tp *P) {
    if (at_end(P) || P->s[P->i] != '#')
        return MV_OK;
    size_t from = P->i;
    while (P->i < P->len && P->s[P->i] != '\n' && P->s[P->i] != '\r')
        P->i++;
    return check_text(P, from + 1, P->i, "a comment");
}

/* A newline (LF or CRLF), or end of input. 1 if one was consumed, 0 if the
 * next byte is not a newline, negative on a lone CR. */
static int eat_newline(tp *P) {
    if (at_end(P))
        return 1;
    if (P->s[P->i] == '\n') {
        P->i++;
        return 1;
    }
    if (P->s[P->i] == '\r') {
        if (peek(P, 1) == '\n') {
            P->i += 2;
            return 1;
        }
        return fail(P, P->i, "%s", "a carriage return must be followed by a line feed");
    }
    return 0;
}

/* Whitespace, comments and newlines (inside arrays). */
static int skip_ws_nl(tp *P) {
    for (;;) {
        skip_ws(P);
        int rc = skip_comment(P);
        if (rc != MV_OK)
            return rc;
        if (at_end(P))
            return MV_OK;
        rc = eat_newline(P);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return MV_OK;
    }
}

static int end_of_line(tp *P, const char *after) {
    skip_ws(P);
    int rc = skip_comment(P);
    if (rc != MV_OK)
        return rc;
    rc = eat_newline(P);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return fail(P, P->i, "expected the end of the line after %s", after);
    return MV_OK;
}

static bool is_bare(char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '-';
}

static int hexval(char ch) {
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Output buffer for decoded strings. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    const mv_allocator *a;
} sbuf;

static int sb_put(sbuf *b, const char *d, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap : 64;
        while (ncap < b->n + n + 1)
            ncap *= 2;
        char *q = mv_realloc(b->a, b->p, b->cap, ncap);
        if (q == NULL)
            return MV_ENOMEM;
        b->p = q;
        b->cap = ncap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
    b->p[b->n] = '\0';
    return MV_OK;
}

static int sb_utf8(sbuf *b, uint32_t cp) {
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return sb_put(b, u, n);
}

/*
 * A string at P->i (opening quote). Decoded into the arena: *out, *out_len.
 * `multi_ok` is false for keys (multi-line strings cannot be keys).
 */
static int parse_string(tp *P, bool multi_ok, const char **out, size_t *out_len) {
    char q = P->s[P->i];
    bool literal = q == '\'';
    bool multi = peek(P, 1) == q && peek(P, 2) == q;
    size_t start = P->i;
    sbuf b = {NULL, 0, 0, P->c->alloc};
    int rc = MV_OK;

    if (multi && !multi_ok) {
        rc = fail(P, start, "%s", "a multi-line string cannot be a key");
        goto done;
    }
    P->i += multi ? 3 : 1;
    if (multi) {
        /* A newline right after the opening delimiter is trimmed. */
        if (peek(P, 0) == '\n')
            P->i++;
        else if (peek(P, 0) == '\r' && peek(P, 1) == '\n')
            P->i += 2;
    }
    for (;;) {
        if (at_end(P)) {
            rc = fail(P, start, "%s", "unterminated string");
            goto done;
        }
        char ch = P->s[P->i];
        if (ch == q) {
            if (!multi) {
                P->i++;
                break;
            }
            size_t run = 0;
            while (peek(P, run) == q)
                run++;
            if (run >= 3) {
                if (run > 5) {
                    rc = fail(P, P->i, "%s", "too many quotes at the end of a multi-line string");
                    goto done;
                }
                if (sb_put(&b, P->s + P->i, run - 3) != MV_OK)
                    goto oom;
                P->i += run;
                break;
            }
            if (sb_put(&b, P->s + P->i, run) != MV_OK)
                goto oom;
            P->i += run;
            continue;
        }
        if (ch == '\n' || ch == '\r') {
            if (!multi) {
                rc = fail(P, P->i, "%s", "newline inside a single-line string");
                goto done;
            }
            if (ch == '\r' && peek(P, 1) != '\n') {
                rc = fail(P, P->i, "%s", "a carriage return must be followed by a line feed");
                goto done;
            }
            if (sb_put(&b, "\n", 1) != MV_OK)
                goto oom;
            P->i += ch == '\r' ? 2 : 1;
            continue;
        }
        if (ch == '\\' && !literal) {
            char e = peek(P, 1);
            size_t esc = P->i;
            if (multi && (e == ' ' || e == '\t' || e == '\n' || e == '\r')) {
                /* Line-ending backslash: only whitespace may follow it on
                 * its line; it eats the newline and following whitespace. */
                size_t k = P->i + 1;
                while (k < P->len && (P->s[k] == ' ' || P->s[k] == '\t'))
                    k++;
                if (k >= P->len || (P->s[k] != '\n' && P->s[k] != '\r')) {
                    rc = fail(P, esc, "%s", "invalid escape in a string");
                    goto done;
                }
                P->i = k;
                while (P->i < P->len) {
                    char w = P->s[P->i];
                    if (w == ' ' || w == '\t' || w == '\n') {
                        P->i++;
                    } else if (w == '\r' && peek(P, 1) == '\n') {
                        P->i += 2;
                    } else {
                        break;
                    }
                }
                continue;
            }
            const char *rep = NULL;
            switch (e) {
            case 'b':
                rep = "\b";
                break;
            case 't':
                rep = "\t";
                break;
            case 'n':
                rep = "\n";
                break;
            case 'f':
                rep = "\f";
                break;
            case 'r':
                rep = "\r";
                break;
            case '"':
                rep = "\"";
                break;
            case '\\':
                rep = "\\";
                break;
            case 'u':
            case 'U': {
                size_t nd = e == 'u' ? 4 : 8;
                uint32_t cp = 0;
                for (size_t k = 0; k < nd; k++) {
                    int h = hexval(peek(P, 2 + k));
                    if (h < 0) {
                        rc = fail(P, esc, "%s", "invalid \\u escape (expected hex digits)");
                        goto done;
                    }
                    cp = cp * 16 + (uint32_t)h;
                }
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    rc = fail(P, esc, "%s", "\\u escape is not a Unicode scalar value");
                    goto done;
                }
                if (sb_utf8(&b, cp) != MV_OK)
                    goto oom;
                P->i += 2 + nd;
                continue;
            }
            default:
                rc = fail(P, esc, "%s", "invalid escape in a string");
                goto done;
            }
            if (sb_put(&b, rep, 1) != MV_OK)
                goto oom;
            P->i += 2;
            continue;
        }
        /* A run of ordinary bytes. */
        size_t from = P->i;
        while (P->i < P->len) {
            char x = P->s[P->i];
            if (x == q || x == '\n' || x == '\r' || (x == '\\' && !literal))
                break;
            P->i++;
        }
        if ((rc = check_text(P, from, P->i, "a string")) != MV_OK)
            goto done;
        if (sb_put(&b, P->s + from, P->i - from) != MV_OK)
            goto oom;
    }
    if ((*out = mv_arena_memdup(P->c->arena, b.p != NULL ? b.p : "", b.n)) == NULL)
        goto oom;
    *out_len = b.n;
    goto done;
oom:
    rc = nomem(P);
done:
    mv_free(b.a, b.p, b.cap);
    return rc;
}

static int parse_key_part(tp *P, tkey *k) {
    k->off = P->i;
    if (at_end(P))
        return fail(P, P->i, "%s", "expected a key, found the end of the file");
    char ch = P->s[P->i];
    if (ch == '"' || ch == '\'') {
        int rc = parse_string(P, false, &k->s, &k->len);
        if (rc != MV_OK)
            return rc;
        if (memchr(k->s, '\0', k->len) != NULL)
            return fail(P, k->off, "%s", "a key must not contain U+0000");
        return MV_OK;
    }
    size_t from = P->i;
    while (P->i < P->len && is_bare(P->s[P->i]))
        P->i++;
    if (P->i == from)
        return fail(P, from, "%s", "expected a key (letters, digits, _ or -, or a quoted key)");
    k->s = P->s + from;
    k->len = P->i - from;
    return MV_OK;
}

/* A dotted key: parts separated by '.', whitespace allowed around dots. */
static int parse_key(tp *P, tkey *parts, size_t *n) {
    *n = 0;
    for (;;) {
        if (*n == MAX_KEY_PARTS)
            return fail(P, P->i, "%s", "a dotted key has too many parts");
        int rc = parse_key_part(P, &parts[*n]);
        if (rc != MV_OK)
            return rc;
        (*n)++;
        skip_ws(P);
        if (peek(P, 0) != '.')
            return MV_OK;
        P->i++;
        skip_ws(P);
    }
}

static cv *new_table(tp *P, uint32_t flags, size_t off) {
    cv *t = cv_new(P->c, CV_OBJECT);
    if (t != NULL) {
        t->flags = flags;
        t->off = off;
    }
    return t;
}

/* `at` is where the member is said to start: the key, or the '[' of the
 * header that defines it. */
static int insert_at(tp *P, cv *table, const tkey *k, cv *value, size_t at) {
    int r = keyset_put(&P->keys, table, k->s, k->len, value);
    if (r < 0)
        return nomem(P);
    if (r == 1)
        return fail(P, k->off, "%s", "duplicate key (a key may be defined only once)");
    if (cv_put(P->c, table, k->s, k->len, value, 0, 0, at) != MV_OK)
        return nomem(P);
    return MV_OK;
}

static int insert(tp *P, cv *table, const tkey *k, cv *value) {
    return insert_at(P, table, k, value, k->off);
}

static int parse_value(tp *P, cv **out);

static int parse_number_or_word(tp *P, cv **out) {
    size_t from = P->i;
    while (P->i < P->len) {
        char ch = P->s[P->i];
        if (is_bare(ch) || ch == '+' || ch == '.' || ch == ':')
            P->i++;
        else
            break;
    }
    const char *t = P->s + from;
    size_t n = P->i - from;
    if (n == 0)
        return fail(P, from, "%s", "expected a value");
    if ((n == 4 && memcmp(t, "true", 4) == 0) || (n == 5 && memcmp(t, "false", 5) == 0)) {
        cv *v = cv_new(P->c, CV_BOOL);
        if (v == NULL)
            return nomem(P);
        v->b = n == 4;
        v->off = from;
        *out = v;
        return MV_OK;
    }
    /* Dates and times: digits then '-' at 4 or ':' at 2. */
    if ((n >= 5 && t[4] == '-' && t[0] >= '0' && t[0] <= '9') ||
        (n >= 3 && t[2] == ':' && t[0] >= '0' && t[0] <= '9'))
        return fail(P, from, "%s", "dates and times are not supported in this config");
    const char *p = t, *end = t + n;
    bool neg = false, sign = false;
    if (p < end && (*p == '+' || *p == '-')) {
        neg = *p == '-';
        sign = true;
        p++;
    }
    (void)neg;
    if ((size_t)(end - p) == 3 && (memcmp(p, "inf", 3) == 0 || memcmp(p, "nan", 3) == 0)) {
        cv *v = cv_new(P->c, CV_FLOAT);
        if (v == NULL)
            return nomem(P);
        v->s = t;
        v->len = n;
        v->off = from;
        *out = v;
        return MV_OK;
    }
    int base = 10;
    if (!sign && end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'o' || p[1] == 'b')) {
        base = p[1] == 'x' ? 16 : p[1] == 'o' ? 8 : 2;
        p += 2;
    }
    /* Digits with single underscores between them. */
    bool is_float = false, prev_digit = false;
    size_t ndig = 0;
    const char *q = p;
    const char *bad_at = NULL;
    bool in_exp = false, exp_digits = false, frac_digits = true;
    for (; q < end; q++) {
        char ch = *q;
        int d = hexval(ch);
        bool digit = d >= 0 && d < base && (base == 16 || (ch >= '0' && ch <= '9'));
        if (digit) {
            prev_digit = true;
            ndig++;
            if (in_exp)
                exp_digits = true;
            if (is_float && !in_exp)
                frac_digits = true;
            continue;
        }
        if (ch == '_' && prev_digit && q + 1 < end && hexval(q[1]) >= 0) {
            prev_digit = false;
            continue;
        }
        if (base == 10 && ch == '.' && prev_digit && !is_float && !in_exp) {
            is_float = true;
            frac_digits = false;
            prev_digit = false;
            continue;
        }
        if (base == 10 && (ch == 'e' || ch == 'E') && prev_digit && !in_exp) {
            is_float = true;
            in_exp = true;
            prev_digit = false;
            if (q + 1 < end && (q[1] == '+' || q[1] == '-'))
                q++;
            continue;
        }
        bad_at = q;
        break;
    }
    if (bad_at != NULL || ndig == 0 || !prev_digit || (in_exp && !exp_digits) || !frac_digits)
        return fail(P, from, "%s",
                    "invalid value (expected a string, number, boolean, array or inline table)");
    /* No leading zeros in decimal integers or integer parts. */
    if (base == 10 && p[0] == '0' && end - p > 1 && p[1] >= '0' && p[1] <= '9')
        return fail(P, from, "%s", "leading zeros are not allowed in numbers");
    if (base == 10 && p[0] == '0' && end - p > 1 && p[1] == '_')
        return fail(P, from, "%s", "leading zeros are not allowed in numbers");
    if (!is_float) {
        /* Range check: must fit a signed 64-bit integer. */
        char digits[80];
        size_t k = 0;
        if (neg)
            digits[k++] = '-';
        for (const char *x = p; x < end && k + 1 < sizeof(digits); x++)
            if (*x != '_')
                digits[k++] = *x;
        digits[k] = '\0';
        if ((size_t)(end - p) >= sizeof(digits) - 2)
            return fail(P, from, "%s", "integer out of range");
        errno = 0;
        char *stop = NULL;
        long long val = strtoll(digits, &stop, base);
        (void)val;
        if (errno == ERANGE || stop == NULL || *stop != '\0')
            return fail(P, from, "%s", "integer out of range");
    }
    cv *v = cv_new(P->c, is_float ? CV_FLOAT : CV_INT);
    if (v == NULL)
        return nomem(P);
    v->s = t;
    v->len = n;
    v->off = from;
    *out = v;
    return MV_OK;
}

static int parse_array(tp *P, cv **out) {
    size_t open = P->i;
    cv *arr = cv_new(P->c, CV_ARRAY);
    if (arr == NULL)
        return nomem(P);
    arr->off = open;
    P->i++;
    int rc;
    for (;;) {
        if ((rc = skip_ws_nl(P)) != MV_OK)
            return rc;
        if (at_end(P))
            return fail(P, open, "%s", "unterminated array");
        if (P->s[P->i] == ']') {
            P->i++;
            break;
        }
        cv *item = NULL;
        if ((rc = parse_value(P, &item)) != MV_OK)
            return rc;
        if (cv_push(P->c, arr, item) != MV_OK)
            return nomem(P);
        if ((rc = skip_ws_nl(P)) != MV_OK)
            return rc;
        if (at_end(P))
            return fail(P, open, "%s", "unterminated array");
        if (P->s[P->i] == ',') {
            P->i++;
            continue;
        }
        if (P->s[P->i] == ']') {
            P->i++;
            break;
        }
        return fail(P, P->i, "%s", "expected ',' or ']' in an array");
    }
    *out = arr;
    return MV_OK;
}

/* Mark every table inside an inline table as sealed. */
static void seal(cv *v, unsigned depth) {
    if (v == NULL || depth > CV_MAX_DEPTH)
        return;
    if (v->type == CV_OBJECT) {
        v->flags |= TF_INLINE;
        for (size_t i = 0; i < v->n; i++)
            seal(v->members[i].value, depth + 1);
    } else if (v->type == CV_ARRAY) {
        for (size_t i = 0; i < v->n; i++)
            seal(v->items[i], depth + 1);
    }
}

static int assign(tp *P, cv *table, const tkey *parts, size_t n, cv *value);

static int parse_inline_table(tp *P, cv **out) {
    size_t open = P->i;
    cv *t = new_table(P, TF_DOTTED, open);
    if (t == NULL)
        return nomem(P);
    P->i++;
    skip_ws(P);
    int rc;
    if (peek(P, 0) == '}') {
        P->i++;
        t->flags = TF_INLINE;
        *out = t;
        return MV_OK;
    }
    for (;;) {
        tkey parts[MAX_KEY_PARTS];
        size_t n = 0;
        skip_ws(P);
        if (at_end(P) || P->s[P->i] == '\n' || P->s[P->i] == '\r')
            return fail(P, open, "%s", "an inline table must be closed on the same line");
        if ((rc = parse_key(P, parts, &n)) != MV_OK)
            return rc;
        skip_ws(P);
        if (peek(P, 0) != '=')
            return fail(P, P->i, "%s", "expected '=' after a key");
        P->i++;
        skip_ws(P);
        cv *val = NULL;
        if ((rc = parse_value(P, &val)) != MV_OK)
            return rc;
        if ((rc = assign(P, t, parts, n, val)) != MV_OK)
            return rc;
        skip_ws(P);
        if (at_end(P) || P->s[P->i] == '\n' || P->s[P->i] == '\r')
            return fail(P, open, "%s", "an inline table must be closed on the same line");
        if (P->s[P->i] == ',') {
            P->i++;
            skip_ws(P);
            if (peek(P, 0) == '}')
                return fail(P, P->i, "%s", "trailing comma in an inline table");
            continue;
        }
        if (P->s[P->i] == '}') {
            P->i++;
            break;
        }
        return fail(P, P->i, "%s", "expected ',' or '}' in an inline table");
    }
    seal(t, 0);
    *out = t;
    return MV_OK;
}

static int parse_value(tp *P, cv **out) {
    if (at_end(P))
        return fail(P, P->i, "%s", "expected a value, found the end of the file");
    if (P->depth >= CV_MAX_DEPTH)
        return fail(P, P->i, "%s", "values are nested too deeply");
    char ch = P->s[P->i];
    int rc;
    P->depth++;
    if (ch == '"' || ch == '\'') {
        size_t off = P->i;
        const char *s = NULL;
        size_t n = 0;
        rc = parse_string(P, true, &s, &n);
        if (rc == MV_OK) {
            cv *v = cv_new(P->c, CV_STRING);
            if (v == NULL) {
                rc = nomem(P);
            } else {
                v->s = s;
                v->len = n;
                v->off = off;
                *out = v;
            }
        }
    } else if (ch == '[') {
        rc = parse_array(P, out);
    } else if (ch == '{') {
        rc = parse_inline_table(P, out);
    } else {
        rc = parse_number_or_word(P, out);
    }
    P->depth--;
    return rc;
}

/* Walk (creating) the dotted-key tables of parts[0..n-1) under `table`,
 * then insert the value under the last part. */
static int assign(tp *P, cv *table, const tkey *parts, size_t n, cv *value) {
    cv *t = table;
    for (size_t k = 0; k + 1 < n; k++) {
        cv *next = keyset_find(&P->keys, t, parts[k].s, parts[k].len);
        if (next == NULL) {
            next = new_table(P, TF_DOTTED, parts[k].off);
            if (next == NULL)
                return nomem(P);
            int rc = insert(P, t, &parts[k], next);
            if (rc != MV_OK)
                return rc;
        } else if (next->type != CV_OBJECT || (next->flags & TF_INLINE) ||
                   !(next->flags & TF_DOTTED)) {
            return fail(P, parts[k].off, "%s",
                        "a dotted key cannot extend a value or a table defined elsewhere");
        }
        t = next;
    }
    return insert(P, t, &parts[n - 1], value);
}

static int parse_header(tp *P) {
    size_t open = P->i;
    bool aot = peek(P, 1) == '[';
    P->i += aot ? 2 : 1;
    skip_ws(P);
    tkey parts[MAX_KEY_PARTS];
    size_t n = 0;
    int rc = parse_key(P, parts, &n);
    if (rc != MV_OK)
        return rc;
    skip_ws(P);
    if (peek(P, 0) != ']' || (aot && peek(P, 1) != ']'))
        return fail(P, P->i, "%s", aot ? "expected ']]' to close the header" : "expected ']'");
    P->i += aot ? 2 : 1;
    if ((rc = end_of_line(P, "a table header")) != MV_OK)
        return rc;
    cv *t = P->root;
    for (size_t k = 0; k + 1 < n; k++) {
        cv *next = keyset_find(&P->keys, t, parts[k].s, parts[k].len);
        if (next == NULL) {
            next = new_table(P, TF_IMPLICIT, parts[k].off);
            if (next == NULL)
                return nomem(P);
            if ((rc = insert(P, t, &parts[k], next)) != MV_OK)
                return rc;
        } else if (next->type == CV_ARRAY && (next->flags & TF_AOT) && next->n > 0) {
            next = next->items[next->n - 1];
        } else if (next->type != CV_OBJECT || (next->flags & TF_INLINE)) {
            return fail(P, parts[k].off, "%s", "a table header goes through a value");
        }
        t = next;
    }
    const tkey *last = &parts[n - 1];
    cv *found = keyset_find(&P->keys, t, last->s, last->len);
    if (aot) {
        if (found == NULL) {
            found = cv_new(P->c, CV_ARRAY);
            if (found == NULL)
                return nomem(P);
            found->flags = TF_AOT;
            found->off = open;
            if ((rc = insert_at(P, t, last, found, open)) != MV_OK)
                return rc;
        } else if (found->type != CV_ARRAY || !(found->flags & TF_AOT)) {
            return fail(P, open, "%s", "[[header]] names a key that is not an array of tables");
        }
        cv *elem = new_table(P, TF_EXPLICIT, open);
        if (elem == NULL || cv_push(P->c, found, elem) != MV_OK)
            return nomem(P);
        P->cur = elem;
        return MV_OK;
    }
    if (found == NULL) {
        found = new_table(P, TF_EXPLICIT, open);
        if (found == NULL)
            return nomem(P);
        if ((rc = insert_at(P, t, last, found, open)) != MV_OK)
            return rc;
    } else if (found->type == CV_OBJECT && found->flags == TF_IMPLICIT) {
        found->flags = TF_EXPLICIT;
        found->off = open;
    } else {
        return fail(P, open, "%s", "table defined twice (or the key already has a value)");
    }
    P->cur = found;
    return MV_OK;
}

int cfg_parse_toml(cfg_ctx *c, cv **out) {
    tp P;
    int rc = MV_OK;
    memset(&P, 0, sizeof(P));
    P.c = c;
    P.s = c->data;
    P.len = c->len;
    P.keys.alloc = c->alloc;
    *out = NULL;
    P.root = new_table(&P, TF_EXPLICIT, 0);
    if (P.root == NULL) {
        rc = nomem(&P);
        goto done;
    }
    P.root->line = 1;
    P.root->col = 1;
    P.cur = P.root;
    /* A UTF-8 byte order mark is allowed at the very start. */
    if (P.len >= 3 && memcmp(P.s, "\xEF\xBB\xBF", 3) == 0)
        P.i = 3;
    for (;;) {
        if ((rc = skip_ws_nl(&P)) != MV_OK)
            goto done;
        if (at_end(&P))
            break;
        if (P.s[P.i] == '[') {
            if ((rc = parse_header(&P)) != MV_OK)
                goto done;
            continue;
        }
        tkey parts[MAX_KEY_PARTS];
        size_t n = 0;
        if ((rc = parse_key(&P, parts, &n)) != MV_OK)
            goto done;
        skip_ws(&P);
        if (peek(&P, 0) != '=') {
            rc = fail(&P, P.i, "%s", "expected '=' after a key");
            goto done;
        }
        P.i++;
        skip_ws(&P);
        cv *val = NULL;
        if ((rc = parse_value(&P, &val)) != MV_OK)
            goto done;
        if ((rc = assign(&P, P.cur, parts, n, val)) != MV_OK)
            goto done;
        if ((rc = end_of_line(&P, "a value")) != MV_OK)
            goto done;
    }
    *out = P.root;
done:
    cfg_keyset_free(&P.keys);
    return rc;
}
