/*
 * Growable byte buffer with a sticky failure flag, so report code can append
 * freely and check for out-of-memory once at the end.
 */
#include "mcpvet/buf.h"

#include <stdio.h>
#include <string.h>

void mv_buf_init(mv_buf *b, const mv_allocator *a) {
    memset(b, 0, sizeof(*b));
    b->alloc = a;
}

void mv_buf_release(mv_buf *b) {
    if (b == NULL)
        return;
    mv_free(b->alloc, b->data, b->cap);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

/* Growth path of reserve(): kept out of line so the common case (the bytes
 * fit) stays a compare and a branch in every append. */
static int grow(mv_buf *b, size_t extra) {
    if (b->failed)
        return MV_ENOMEM;
    if (extra > SIZE_MAX - b->len - 1) {
        b->failed = 1;
        return MV_ENOMEM;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return MV_OK;
    size_t cap = b->cap == 0 ? 256 : b->cap;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = mv_realloc(b->alloc, b->data, b->cap, cap);
    if (p == NULL) {
        b->failed = 1;
        return MV_ENOMEM;
    }
    b->data = p;
    b->cap = cap;
    return MV_OK;
}

/* Room for `extra` bytes plus the NUL; a failed buffer never has room
 * (grow() reports the sticky failure). cap > len always holds once data is
 * allocated, so the subtraction cannot wrap. */
static inline int reserve(mv_buf *b, size_t extra) {
    if (!b->failed && b->cap > 0 && extra < b->cap - b->len)
        return MV_OK;
    return grow(b, extra);
}

int mv_buf_reserve(mv_buf *b, size_t extra) {
    return reserve(b, extra);
}

int mv_buf_append(mv_buf *b, const void *data, size_t len) {
    int rc = reserve(b, len);
    if (rc != MV_OK)
        return rc;
    if (len > 0)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return MV_OK;
}

int mv_buf_puts(mv_buf *b, const char *s) {
    return mv_buf_append(b, s, strlen(s));
}

int mv_buf_putc(mv_buf *b, char c) {
    int rc = reserve(b, 1);
    if (rc != MV_OK)
        return rc;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
    return MV_OK;
}

int mv_buf_put_u64(mv_buf *b, uint64_t value) {
    char tmp[20]; /* UINT64_MAX has 20 digits */
    size_t n = sizeof tmp;
    do {
        tmp[--n] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    return mv_buf_append(b, tmp + n, sizeof tmp - n);
}

int mv_buf_put_i64(mv_buf *b, int64_t value) {
    if (value >= 0)
        return mv_buf_put_u64(b, (uint64_t)value);
    mv_buf_putc(b, '-');
    /* Negate in unsigned arithmetic: -INT64_MIN does not fit an int64_t. */
    return mv_buf_put_u64(b, (uint64_t)0 - (uint64_t)value);
}

int mv_buf_vprintf(mv_buf *b, const char *fmt, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        b->failed = 1;
        return MV_EINVAL;
    }
    int rc = reserve(b, (size_t)n);
    if (rc != MV_OK)
        return rc;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return MV_OK;
}

int mv_buf_printf(mv_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = mv_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static size_t utf8_valid_len(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Length of the prefix of p[0..n) that a JSON string body carries as is:
 * printable ASCII other than quote and backslash. Tool text is mostly such
 * bytes, so eight are tested at a time: a word is plain when no byte has the
 * top bit set, none is below 0x20 and none equals '"' or '\\'. The word
 * tests may report a byte that is fine (a borrow from a neighbour), never
 * miss one: the byte loop then decides. */
static uint64_t special8(const unsigned char *p) {
    const uint64_t ones = 0x0101010101010101u;
    const uint64_t highs = 0x8080808080808080u;
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t q = x ^ (ones * '"');
    uint64_t bs = x ^ (ones * '\\');
    return (x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((bs - ones) & ~bs)) & highs;
}

/* The bytes plain_prefix accepts, for its byte loop. */
#define P4(x) x, x, x, x
#define P16(x) P4(x), P4(x), P4(x), P4(x)
static const unsigned char plain_byte[256] = {
    P16(0), P16(0),                                                 /* controls */
    1,      1,      0,      P4(1),  1,      P4(1),  P4(1),          /* 0x20-0x2F: '"' */
    P16(1), P16(1),                                                 /* 0x30-0x4F */
    P4(1),  P4(1),  P4(1),  0,      1,      1,      1,              /* 0x50-0x5F: '\\' */
    P16(1), P16(1),                                                 /* 0x60-0x7F */
    P16(0), P16(0), P16(0), P16(0), P16(0), P16(0), P16(0), P16(0), /* 0x80-0xFF */
};
#undef P16
#undef P4

static size_t plain_prefix(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (n - i >= 8) {
        if (special8(p + i) != 0)
            break;
        i += 8;
    }
    /* The last partial word: one overlapping load decides it when it is
     * plain (its first bytes were already checked). */
    if (i < n && n >= 8 && n - i < 8 && special8(p + n - 8) == 0)
        return n;
    while (i < n && plain_byte[p[i]])
        i++;
    return i;
}

int mv_buf_json_string_body(mv_buf *b, const char *s, size_t len) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    /* Most strings need no escape: one reservation covers them. */
    reserve(b, len);
    while (i < len) {
        /* Copy the longest run that needs no escaping in one append. */
        size_t run = i + plain_prefix(p + i, len - i);
        if (run > i) {
            mv_buf_append(b, p + i, run - i);
            i = run;
            continue;
        }
        unsigned c = p[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            mv_buf_append(b, esc, 2);
            i++;
        } else if (c < 0x20) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            switch (c) {
            case '\n':
                mv_buf_append(b, "\\n", 2);
                break;
            case '\t':
                mv_buf_append(b, "\\t", 2);
                break;
            case '\r':
                mv_buf_append(b, "\\r", 2);
                break;
            default:
                mv_buf_append(b, esc, 6);
            }
            i++;
        } else {
            size_t n = utf8_valid_len(p + i, len - i);
            if (n == 0) {
                mv_buf_append(b, "\\ufffd", 6);
                i++;
            } else if (n == 3 && p[i] == 0xE2 && p[i + 1] == 0x80 &&
                       (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
                mv_buf_append(b, p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
                i += 3;
            } else {
                mv_buf_append(b, p + i, n);
                i += n;
            }
        }
    }
    return b->failed ? MV_ENOMEM : MV_OK;
}

int mv_buf_json_string(mv_buf *b, const char *s, size_t len) {
    if (reserve(b, len + 2) != MV_OK)
        return MV_ENOMEM;
    /* The common case, nothing to escape: quote, copy, quote in place. */
    if (plain_prefix((const unsigned char *)s, len) == len) {
        char *d = b->data + b->len;
        d[0] = '"';
        if (len > 0)
            memcpy(d + 1, s, len);
        d[len + 1] = '"';
        b->len += len + 2;
        b->data[b->len] = '\0';
        return MV_OK;
    }
    mv_buf_putc(b, '"');
    mv_buf_json_string_body(b, s, len);
    return mv_buf_putc(b, '"');
}
