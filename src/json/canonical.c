/*
 * Canonical JSON writer (see canonical.h and docs/pinning.md) and the
 * render-safe pretty printer the diff of two canonical definitions uses.
 * Numbers are rewritten from their text with string arithmetic only, so the
 * result never depends on the C library's float formatting or the locale.
 */
#include "json/canonical.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/writer.h"
#include "mcpvet/evidence.h"

/* ------------------------------------------------------------- numbers */

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Add the signed `delta` to the magnitude `m` (decimal digits, no leading
 * zero, strictly greater than |delta|) and append the result. Used only for
 * exponents too long for int64 arithmetic. */
static int put_big_sum(mv_buf *b, const char *m, size_t mlen, int64_t delta) {
    char *tmp = mv_alloc(b->alloc, mlen + 1);
    if (tmp == NULL) {
        b->failed = 1;
        return MV_ENOMEM;
    }
    /* tmp[0] is room for a carry; digits are right-aligned. */
    tmp[0] = '0';
    memcpy(tmp + 1, m, mlen);
    uint64_t mag = delta < 0 ? (uint64_t)(-(delta + 1)) + 1 : (uint64_t)delta;
    int carry = 0;
    for (size_t i = mlen + 1; i-- > 0 && (mag > 0 || carry != 0);) {
        int d = tmp[i] - '0';
        int step = (int)(mag % 10);
        mag /= 10;
        if (delta >= 0) {
            d += step + carry;
            carry = d / 10;
            d %= 10;
        } else {
            d -= step + carry;
            carry = d < 0;
            if (d < 0)
                d += 10;
        }
        tmp[i] = (char)('0' + d);
    }
    size_t start = 0;
    while (start < mlen && tmp[start] == '0')
        start++;
    int rc = mv_buf_append(b, tmp + start, mlen + 1 - start);
    mv_free(b->alloc, tmp, mlen + 1);
    return rc;
}

int mv_json_canonical_number(mv_buf *b, const char *text, size_t len) {
    size_t i = 0;
    bool neg = false;
    if (text == NULL || len == 0)
        return MV_EINVAL;
    if (text[i] == '-') {
        neg = true;
        i++;
    }
    /* integer part: 0 or [1-9][0-9]* */
    size_t int_start = i;
    if (i >= len || !is_digit(text[i]))
        return MV_EINVAL;
    if (text[i] == '0')
        i++;
    else
        while (i < len && is_digit(text[i]))
            i++;
    size_t int_len = i - int_start;
    size_t frac_start = i, frac_len = 0;
    if (i < len && text[i] == '.') {
        i++;
        frac_start = i;
        while (i < len && is_digit(text[i]))
            i++;
        frac_len = i - frac_start;
        if (frac_len == 0)
            return MV_EINVAL;
    }
    bool exp_neg = false;
    size_t exp_start = i, exp_len = 0;
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < len && (text[i] == '+' || text[i] == '-')) {
            exp_neg = text[i] == '-';
            i++;
        }
        exp_start = i;
        while (i < len && is_digit(text[i]))
            i++;
        exp_len = i - exp_start;
        if (exp_len == 0)
            return MV_EINVAL;
    }
    if (i != len)
        return MV_EINVAL;

        /* The significant digits are int||frac; index j of that sequence. */
#define DIGIT(j) ((j) < int_len ? text[int_start + (j)] : text[frac_start + (j)-int_len])
    size_t total = int_len + frac_len, first = 0, last = total;
    while (first < total && DIGIT(first) == '0')
        first++;
    if (first == total) /* zero, whatever its sign or exponent */
        return mv_buf_putc(b, '0');
    while (last > first && DIGIT(last - 1) == '0')
        last--;
    size_t k = last - first;

    /* value = 0.D x 10^n with n = int_len - first + exponent. */
    while (exp_len > 1 && text[exp_start] == '0') {
        exp_start++;
        exp_len--;
    }
    int64_t adj = (int64_t)int_len - (int64_t)first;
    bool big = exp_len > 17;
    int64_t n = 0;
    if (!big) {
        int64_t e = 0;
        for (size_t j = 0; j < exp_len; j++)
            e = e * 10 + (text[exp_start + j] - '0');
        n = (exp_neg ? -e : e) + adj;
    }

    if (neg)
        mv_buf_putc(b, '-');
    if (!big && (int64_t)k <= n && n <= 21) {
        for (size_t j = first; j < last; j++)
            mv_buf_putc(b, DIGIT(j));
        for (int64_t z = (int64_t)k; z < n; z++)
            mv_buf_putc(b, '0');
    } else if (!big && n > 0 && n <= 21) {
        for (size_t j = first; j < last; j++) {
            if ((int64_t)(j - first) == n)
                mv_buf_putc(b, '.');
            mv_buf_putc(b, DIGIT(j));
        }
    } else if (!big && n > -6 && n <= 0) {
        mv_buf_append(b, "0.", 2);
        for (int64_t z = 0; z < -n; z++)
            mv_buf_putc(b, '0');
        for (size_t j = first; j < last; j++)
            mv_buf_putc(b, DIGIT(j));
    } else {
        mv_buf_putc(b, DIGIT(first));
        if (k > 1) {
            mv_buf_putc(b, '.');
            for (size_t j = first + 1; j < last; j++)
                mv_buf_putc(b, DIGIT(j));
        }
        mv_buf_putc(b, 'e');
        if (!big) {
            int64_t p = n - 1;
            mv_buf_putc(b, p < 0 ? '-' : '+');
            mv_buf_put_u64(b, p < 0 ? (uint64_t)(-(p + 1)) + 1 : (uint64_t)p);
        } else {
            /* |exponent| >= 10^17 > |adj - 1|: the sign is the exponent's. */
            mv_buf_putc(b, exp_neg ? '-' : '+');
            int64_t delta = exp_neg ? -(adj - 1) : adj - 1;
            put_big_sum(b, text + exp_start, exp_len, delta);
        }
    }
#undef DIGIT
    return b->failed ? MV_ENOMEM : MV_OK;
}

/* ------------------------------------------------------------- strings */

/* Decode one UTF-8 sequence at s[*i]. Valid input is assumed (the parser
 * guarantees it); a stray byte is taken as its own value, with *bad set, so
 * the function stays total. */
static uint32_t decode_cp(const unsigned char *s, size_t n, size_t *i, bool *bad) {
    uint32_t c = s[*i];
    size_t need = c < 0xC0 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    *bad = c >= 0x80 && need == 0;
    if (need == 0 || need >= n - *i) {
        *bad = c >= 0x80;
        (*i)++;
        return c;
    }
    uint32_t cp = c & (0x3Fu >> need);
    for (size_t k = 1; k <= need; k++) {
        if ((s[*i + k] & 0xC0) != 0x80) {
            *bad = true;
            (*i)++;
            return c;
        }
        cp = (cp << 6) | (s[*i + k] & 0x3Fu);
    }
    *i += need + 1;
    return cp;
}

static uint32_t next_cp(const unsigned char *s, size_t n, size_t *i) {
    bool bad;
    return decode_cp(s, n, i, &bad);
}

int mv_json_key_cmp(const char *a, size_t an, const char *b, size_t bn) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t i = 0, j = 0;
    while (i < an && j < bn) {
        if (x[i] < 0x80 && y[j] < 0x80) {
            if (x[i] != y[j])
                return x[i] < y[j] ? -1 : 1;
            i++;
            j++;
            continue;
        }
        uint32_t ca = next_cp(x, an, &i), cb = next_cp(y, bn, &j);
        if (ca == cb)
            continue;
        /* First UTF-16 unit: a high surrogate for code points above U+FFFF,
         * which sorts them below U+E000..U+FFFF. */
        uint32_t ua = ca < 0x10000 ? ca : 0xD800 + ((ca - 0x10000) >> 10);
        uint32_t ub = cb < 0x10000 ? cb : 0xD800 + ((cb - 0x10000) >> 10);
        if (ua != ub)
            return ua < ub ? -1 : 1;
        return ca < cb ? -1 : 1; /* same high surrogate: low ones keep order */
    }
    if (i < an)
        return 1;
    if (j < bn)
        return -1;
    return 0;
}

static const char hex_lower[] = "0123456789abcdef";

int mv_json_canonical_string(mv_buf *b, const char *s, size_t len) {
    mv_buf_putc(b, '"');
    size_t run = 0; /* start of the pending run of bytes copied as they are */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        mv_buf_append(b, s + run, i - run);
        run = i + 1;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '"':
            esc[1] = '"';
            break;
        case '\\':
            esc[1] = '\\';
            break;
        case '\b':
            esc[1] = 'b';
            break;
        case '\f':
            esc[1] = 'f';
            break;
        case '\n':
            esc[1] = 'n';
            break;
        case '\r':
            esc[1] = 'r';
            break;
        case '\t':
            esc[1] = 't';
            break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex_lower[c >> 4];
            esc[5] = hex_lower[c & 15];
            n = 6;
            break;
        }
        mv_buf_append(b, esc, n);
    }
    mv_buf_append(b, s + run, len - run);
    return mv_buf_putc(b, '"');
}

/* -------------------------------------------------------------- values */

static int cmp_member(const void *pa, const void *pb) {
    const mv_jm *a = *(const mv_jm *const *)pa, *b = *(const mv_jm *const *)pb;
    return mv_json_key_cmp(a->key, a->key_len, b->key, b->key_len);
}

/* Recursion is bounded by the parser's MV_JSON_MAX_DEPTH. */
int mv_json_canonical(mv_buf *b, const mv_jv *v) {
    int rc = MV_OK;
    if (v == NULL)
        return MV_EINVAL;
    switch ((mv_jtype)v->type) {
    case MV_JNULL:
    case MV_JFALSE:
    case MV_JTRUE:
        mv_json_write_literal(b, v);
        break;
    case MV_JNUMBER:
        rc = mv_json_canonical_number(b, v->u.s, v->n);
        break;
    case MV_JSTRING:
        mv_json_canonical_string(b, v->u.s, v->n);
        break;
    case MV_JARRAY:
        mv_buf_putc(b, '[');
        for (uint32_t i = 0; i < v->n && rc == MV_OK; i++) {
            if (i > 0)
                mv_buf_putc(b, ',');
            rc = mv_json_canonical(b, &v->u.items[i]);
        }
        mv_buf_putc(b, ']');
        break;
    case MV_JOBJECT: {
        const mv_jm **order = NULL;
        if (v->n > 0) {
            order = mv_alloc(b->alloc, (size_t)v->n * sizeof(*order));
            if (order == NULL) {
                b->failed = 1;
                return MV_ENOMEM;
            }
            for (uint32_t i = 0; i < v->n; i++)
                order[i] = &v->u.members[i];
            qsort(order, v->n, sizeof(*order), cmp_member);
        }
        mv_buf_putc(b, '{');
        for (uint32_t i = 0; i < v->n && rc == MV_OK; i++) {
            if (i > 0)
                mv_buf_putc(b, ',');
            mv_json_canonical_string(b, order[i]->key, order[i]->key_len);
            mv_buf_putc(b, ':');
            rc = mv_json_canonical(b, &order[i]->value);
        }
        mv_buf_putc(b, '}');
        mv_free(b->alloc, order, (size_t)v->n * sizeof(*order));
        break;
    }
    default:
        rc = MV_EINVAL;
        break;
    }
    if (rc == MV_OK && b->failed)
        rc = MV_ENOMEM;
    return rc;
}

/* ------------------------------------------------------------- pretty */

static void put_u_escape(mv_buf *b, uint32_t unit) {
    char e[6] = {'\\',
                 'u',
                 hex_lower[(unit >> 12) & 15],
                 hex_lower[(unit >> 8) & 15],
                 hex_lower[(unit >> 4) & 15],
                 hex_lower[unit & 15]};
    mv_buf_append(b, e, 6);
}

static void pretty_string(mv_buf *b, const char *s, size_t len) {
    const unsigned char *u = (const unsigned char *)s;
    mv_buf_putc(b, '"');
    for (size_t i = 0; i < len;) {
        size_t start = i;
        bool bad;
        uint32_t cp = decode_cp(u, len, &i, &bad);
        switch (cp) {
        case '"':
            mv_buf_append(b, "\\\"", 2);
            continue;
        case '\\':
            mv_buf_append(b, "\\\\", 2);
            continue;
        case '\n':
            mv_buf_append(b, "\\n", 2);
            continue;
        case '\t':
            mv_buf_append(b, "\\t", 2);
            continue;
        case '\r':
            mv_buf_append(b, "\\r", 2);
            continue;
        default:
            break;
        }
        if (bad) {
            /* never a raw invalid byte: shown as its value */
            put_u_escape(b, cp);
        } else if (cp >= 0x20 && cp != 0x7F && (cp < 0x80 || mv_evidence_is_visible((int32_t)cp))) {
            mv_buf_append(b, s + start, i - start);
        } else if (cp >= 0x10000 && cp <= 0x10FFFF) {
            put_u_escape(b, 0xD800 + ((cp - 0x10000) >> 10));
            put_u_escape(b, 0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            put_u_escape(b, cp & 0xFFFF);
        }
    }
    mv_buf_putc(b, '"');
}

static void pretty_indent(mv_buf *b, unsigned depth) {
    mv_buf_putc(b, '\n');
    for (unsigned i = 0; i < depth; i++)
        mv_buf_append(b, "  ", 2);
}

static void pretty_value(mv_buf *b, const mv_jv *v, unsigned depth) {
    switch ((mv_jtype)v->type) {
    case MV_JNULL:
    case MV_JFALSE:
    case MV_JTRUE:
        mv_json_write_literal(b, v);
        break;
    case MV_JNUMBER:
        mv_buf_append(b, v->u.s, v->n);
        break;
    case MV_JSTRING:
        pretty_string(b, v->u.s, v->n);
        break;
    case MV_JARRAY:
        if (v->n == 0) {
            mv_buf_append(b, "[]", 2);
            break;
        }
        mv_buf_putc(b, '[');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i > 0)
                mv_buf_putc(b, ',');
            pretty_indent(b, depth + 1);
            pretty_value(b, &v->u.items[i], depth + 1);
        }
        pretty_indent(b, depth);
        mv_buf_putc(b, ']');
        break;
    case MV_JOBJECT:
        if (v->n == 0) {
            mv_buf_append(b, "{}", 2);
            break;
        }
        mv_buf_putc(b, '{');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i > 0)
                mv_buf_putc(b, ',');
            pretty_indent(b, depth + 1);
            pretty_string(b, v->u.members[i].key, v->u.members[i].key_len);
            mv_buf_append(b, ": ", 2);
            pretty_value(b, &v->u.members[i].value, depth + 1);
        }
        pretty_indent(b, depth);
        mv_buf_putc(b, '}');
        break;
    }
}

int mv_json_pretty_safe(mv_buf *b, const mv_jv *v) {
    if (v == NULL)
        return MV_EINVAL;
    pretty_value(b, v, 0);
    return b->failed ? MV_ENOMEM : MV_OK;
}
