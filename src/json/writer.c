/*
 * Streaming JSON writer (see writer.h). Deliberately tiny: callers know
 * their shapes, so the writer only tracks indentation and commas, never
 * builds a tree. Also serializes a parsed tree back to compact JSON, which
 * is how fetched tool definitions become snapshot documents.
 */
#include "json/writer.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/report.h"

void mv_jw_init(mv_jw *w, mv_buf *b) {
    memset(w, 0, sizeof *w);
    w->b = b;
}

void mv_jw_init_compact(mv_jw *w, mv_buf *b) {
    mv_jw_init(w, b);
    w->compact = true;
}

static void indent(mv_jw *w) {
    if (w->compact)
        return;
    static const char spaces[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
    size_t n = 2u * w->depth;
    if (mv_buf_reserve(w->b, n + 9) != MV_OK)
        return;
    char *d = w->b->data + w->b->len;
    *d++ = '\n';
    for (size_t k = 0; k < n; k += 8)
        memcpy(d + k, spaces, 8); /* one store each; the reservation has room */
    w->b->len += n + 1;
    w->b->data[w->b->len] = '\0';
}

/* Bytes a key may hold without JSON escaping: printable ASCII except '"'
 * and '\\' (NUL, which ends the key, is not one of them). */
#define K4(x) x, x, x, x
#define K16(x) K4(x), K4(x), K4(x), K4(x)
static const unsigned char key_plain[256] = {
    K16(0), K16(0),                                                 /* 0x00-0x1F */
    1,      1,      0,      K4(1),  1,      K4(1),  K4(1),          /* 0x20-0x2F: '"' */
    K16(1),                                                         /* 0x30-0x3F */
    K16(1),                                                         /* 0x40-0x4F */
    K4(1),  K4(1),  K4(1),  0,      1,      1,      1,              /* 0x50-0x5F: '\\' */
    K16(1),                                                         /* 0x60-0x6F */
    K4(1),  K4(1),  K4(1),  1,      1,      1,      0,              /* 0x70-0x7F: DEL */
    K16(0), K16(0), K16(0), K16(0), K16(0), K16(0), K16(0), K16(0), /* 0x80-0xFF */
};
#undef K16
#undef K4

/* Keys up to this many bytes are copied by value_prefix's fast path
 * (a multiple of four: its loop reads four bytes a round). */
#define KEY_FAST 48u
_Static_assert(KEY_FAST % 4u == 0, "value_prefix reads keys four bytes a round");

static inline void put8(char *d, const char *src) {
    memcpy(d, src, 8);
}

/* Separator, indentation and key before any value, written with a single
 * reservation: this runs for every value of a report. The indentation is
 * stored eight spaces at a time and a plain key is copied while it is
 * checked, so no library call is made; the reservation leaves room for the
 * overshoot of both. A key that is long or needs escaping is written by the
 * general path instead, with the same bytes. */
static void value_prefix(mv_jw *w, const char *key) {
    static const char spaces[8] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
    mv_buf *b = w->b;
    size_t depth = w->depth;
    if (w->compact) {
        if (depth > 0) {
            if (w->has_items[depth])
                mv_buf_putc(b, ',');
            w->has_items[depth] = true;
        }
        if (key != NULL) {
            mv_buf_json_string(b, key, strlen(key));
            mv_buf_putc(b, ':');
        }
        return;
    }
    /* mv_buf_reserve's test, here so the common case (room left) makes
     * no call; grows or fails as before otherwise. */
    size_t need = 2u * depth + KEY_FAST + 24u;
    if ((b->failed || b->cap == 0 || need >= b->cap - b->len) && mv_buf_reserve(b, need) != MV_OK)
        return;
    char *d = b->data + b->len;
    if (depth > 0) {
        if (w->has_items[depth])
            *d++ = ',';
        w->has_items[depth] = true;
        *d++ = '\n';
        for (size_t k = 0; k < 2u * depth; k += 8)
            put8(d + k, spaces);
        d += 2u * depth;
    }
    if (key != NULL) {
        size_t i = 0;
        unsigned char c;
        d[0] = '"';
        /* four bytes a round (KEY_FAST is a multiple of four); a byte is
         * read only after the one before it was plain, so never past the
         * key's NUL */
        while (i < KEY_FAST) {
            if (!key_plain[c = (unsigned char)key[i]])
                break;
            d[1 + i] = (char)c;
            if (!key_plain[c = (unsigned char)key[i + 1]]) {
                i += 1;
                break;
            }
            d[2 + i] = (char)c;
            if (!key_plain[c = (unsigned char)key[i + 2]]) {
                i += 2;
                break;
            }
            d[3 + i] = (char)c;
            if (!key_plain[c = (unsigned char)key[i + 3]]) {
                i += 3;
                break;
            }
            d[4 + i] = (char)c;
            i += 4;
        }
        if (key[i] != '\0') {
            b->len = (size_t)(d - b->data);
            mv_buf_json_string(b, key, strlen(key));
            mv_buf_append(b, ": ", 2);
            return;
        }
        d += 1 + i;
        *d++ = '"';
        *d++ = ':';
        *d++ = ' ';
    }
    b->len = (size_t)(d - b->data);
    *d = '\0';
}

static void open_container(mv_jw *w, const char *key, char c) {
    value_prefix(w, key);
    mv_buf_putc(w->b, c);
    assert(w->depth < MV_JW_MAX_DEPTH); /* the reports never nest this deep */
    w->depth++;
    w->has_items[w->depth] = false;
}

static void close_container(mv_jw *w, char c) {
    bool items = w->has_items[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (items)
        indent(w);
    mv_buf_putc(w->b, c);
}

void mv_jw_obj_begin(mv_jw *w, const char *key) {
    open_container(w, key, '{');
}

void mv_jw_obj_end(mv_jw *w) {
    close_container(w, '}');
}

void mv_jw_arr_begin(mv_jw *w, const char *key) {
    open_container(w, key, '[');
}

void mv_jw_arr_end(mv_jw *w) {
    close_container(w, ']');
}

void mv_jw_str(mv_jw *w, const char *key, mv_str value) {
    value_prefix(w, key);
    mv_buf_json_string(w->b, value.ptr != NULL ? value.ptr : "", value.ptr != NULL ? value.len : 0);
}

void mv_jw_cstr(mv_jw *w, const char *key, const char *value) {
    value_prefix(w, key);
    if (value == NULL)
        mv_buf_append(w->b, "null", 4);
    else
        mv_buf_json_string(w->b, value, strlen(value));
}

/* perf26: a value of a few bytes written in place when the buffer has
 * room for it (mv_buf_append's test, with the NUL), else by
 * mv_buf_append, which grows or fails as before: the same bytes, without
 * a call and a variable-length copy for each number, true, false and
 * null of a report. */
static inline bool room_for(const mv_buf *b, size_t n) {
    return !b->failed && b->cap > 0 && n < b->cap - b->len;
}

static inline void put_small(mv_buf *b, const char *s, size_t n) {
    if (!room_for(b, n)) {
        mv_buf_append(b, s, n);
        return;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* The decimal digits of value, written in place (mv_buf_put_u64's bytes). */
static void put_u64(mv_buf *b, uint64_t value) {
    size_t n = 1;
    for (uint64_t v = value; v >= 10; v /= 10)
        n++;
    if (!room_for(b, n)) {
        mv_buf_put_u64(b, value);
        return;
    }
    char *d = b->data + b->len;
    for (size_t k = n; k > 0; k--) {
        d[k - 1] = (char)('0' + value % 10);
        value /= 10;
    }
    b->len += n;
    b->data[b->len] = '\0';
}

void mv_jw_uint(mv_jw *w, const char *key, uint64_t value) {
    value_prefix(w, key);
    put_u64(w->b, value);
}

void mv_jw_int(mv_jw *w, const char *key, int64_t value) {
    value_prefix(w, key);
    if (value >= 0)
        put_u64(w->b, (uint64_t)value);
    else
        mv_buf_put_i64(w->b, value);
}

void mv_jw_bool(mv_jw *w, const char *key, bool value) {
    value_prefix(w, key);
    if (value)
        put_small(w->b, "true", 4);
    else
        put_small(w->b, "false", 5);
}

void mv_jw_null(mv_jw *w, const char *key) {
    value_prefix(w, key);
    put_small(w->b, "null", 4);
}

void mv_jw_fixed(mv_jw *w, const char *key, double value, unsigned decimals) {
    value_prefix(w, key);
    mv_report_put_fixed(w->b, value, decimals);
}

void mv_jw_raw(mv_jw *w, const char *key, const char *json, size_t len) {
    value_prefix(w, key);
    mv_buf_append(w->b, json, len);
}

void mv_jw_value(mv_jw *w, const char *key, const mv_jv *v) {
    value_prefix(w, key);
    mv_json_write(w->b, v);
}

void mv_json_write_literal(mv_buf *b, const mv_jv *v) {
    if (v->type == MV_JTRUE)
        mv_buf_append(b, "true", 4);
    else if (v->type == MV_JFALSE)
        mv_buf_append(b, "false", 5);
    else
        mv_buf_append(b, "null", 4);
}

/* Recursion is bounded by the parser's MV_JSON_MAX_DEPTH. */
void mv_json_write(mv_buf *b, const mv_jv *v) {
    if (v == NULL) {
        mv_buf_append(b, "null", 4);
        return;
    }
    if (mv_jis_raw(v)) {
        /* Decoded and escaped again: the bytes the decoded tree gives. */
        char *d = malloc((size_t)v->n + MV_JSON_RAW_SLACK);
        if (d == NULL) {
            b->failed = 1;
            return;
        }
        size_t n = mv_json_raw_decode(d, v->u.s, v->n);
        mv_buf_json_string(b, d, n);
        free(d);
        return;
    }
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
        mv_buf_json_string(b, v->u.s, v->n);
        break;
    case MV_JARRAY:
        mv_buf_putc(b, '[');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i > 0)
                mv_buf_putc(b, ',');
            mv_json_write(b, &v->u.items[i]);
        }
        mv_buf_putc(b, ']');
        break;
    case MV_JOBJECT:
        mv_buf_putc(b, '{');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i > 0)
                mv_buf_putc(b, ',');
            mv_buf_json_string(b, v->u.members[i].key, v->u.members[i].key_len);
            mv_buf_putc(b, ':');
            mv_json_write(b, &v->u.members[i].value);
        }
        mv_buf_putc(b, '}');
        break;
    }
}

int mv_jw_finish(mv_jw *w) {
    mv_buf_putc(w->b, '\n');
    assert(w->depth == 0); /* every container was closed */
    return w->b->failed ? MV_ENOMEM : MV_OK;
}
