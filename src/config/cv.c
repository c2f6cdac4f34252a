/*
 * The config value tree (cv) shared by every format reader, positions
 * (byte offset to line and column), the first-error record, and the JSON
 * readers: strict JSON through the project's one parser (src/json), and
 * JSON with comments for the clients that accept it, done as a pre-pass
 * that blanks comments and trailing commas with spaces so byte offsets
 * (and so every line and column) stay those of the file as written.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config/config_int.h"
#include "json/json.h"

/* ------------------------------------------------------------------ tree */

cv *cv_new(cfg_ctx *c, cv_type t) {
    cv *v = mv_arena_calloc(c->arena, 1, sizeof(*v));
    if (v == NULL)
        return NULL;
    v->type = t;
    v->off = SIZE_MAX;
    return v;
}

/* Grow an arena array by doubling; the old block is simply left behind (at
 * most half of what an array ever takes). */
static void *grow(cfg_ctx *c, void *old, size_t n, size_t *cap, size_t elem) {
    if (n < *cap)
        return old;
    size_t ncap = *cap ? *cap * 2 : 4;
    if (ncap > SIZE_MAX / elem)
        return NULL;
    void *p = mv_arena_alloc(c->arena, ncap * elem);
    if (p == NULL)
        return NULL;
    if (n > 0)
        memcpy(p, old, n * elem);
    *cap = ncap;
    return p;
}

int cv_push(cfg_ctx *c, cv *arr, cv *item) {
    size_t cap = arr->cap;
    cv **items = grow(c, arr->items, arr->n, &cap, sizeof(*items));
    if (items == NULL)
        return MV_ENOMEM;
    arr->items = items;
    arr->cap = cap;
    arr->items[arr->n++] = item;
    return MV_OK;
}

int cv_put(cfg_ctx *c, cv *obj, const char *key, size_t key_len, cv *value, uint32_t line,
           uint32_t col, size_t off) {
    size_t cap = obj->cap;
    cv_member *m = grow(c, obj->members, obj->n, &cap, sizeof(*m));
    if (m == NULL)
        return MV_ENOMEM;
    obj->members = m;
    obj->cap = cap;
    cv_member *x = &obj->members[obj->n++];
    x->key = key;
    x->key_len = key_len;
    x->value = value;
    x->line = line;
    x->col = col;
    x->off = off;
    return MV_OK;
}

cv_member *cv_get_member(const cv *obj, const char *key, size_t key_len) {
    if (obj == NULL || obj->type != CV_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (obj->members[i].key_len == key_len && memcmp(obj->members[i].key, key, key_len) == 0)
            return &obj->members[i];
    return NULL;
}

const cv *cv_get(const cv *obj, const char *key) {
    cv_member *m = cv_get_member(obj, key, strlen(key));
    return m != NULL ? m->value : NULL;
}

const char *cv_type_name(const cv *v) {
    switch (v != NULL ? v->type : CV_NULL) {
    case CV_BOOL:
        return "a boolean";
    case CV_INT:
        return "an integer";
    case CV_FLOAT:
        return "a number";
    case CV_STRING:
        return "a string";
    case CV_ARRAY:
        return "an array";
    case CV_OBJECT:
        return "an object";
    case CV_DEEP:
        return "a value nested too deeply";
    case CV_NULL:
    default:
        return "null";
    }
}

/* ------------------------------------------------------------- positions */

void cfg_pos_off(cfg_ctx *c, size_t off, uint32_t *line, uint32_t *col) {
    *line = 0;
    *col = 0;
    if (off == SIZE_MAX || c->data == NULL || off > c->len)
        return;
    if (c->cur_line == 0 || off < c->cur_off) {
        c->cur_off = 0;
        c->cur_line = 1;
        c->cur_col = 1;
    }
    for (size_t i = c->cur_off; i < off; i++) {
        unsigned char b = (unsigned char)c->data[i];
        if (b == '\n') {
            if (c->cur_line < UINT32_MAX)
                c->cur_line++;
            c->cur_col = 1;
        } else if ((b & 0xC0) != 0x80 && c->cur_col < UINT32_MAX) {
            c->cur_col++;
        }
    }
    c->cur_off = off;
    *line = c->cur_line;
    *col = c->cur_col;
}

void cfg_pos(cfg_ctx *c, const cv *v, uint32_t *line, uint32_t *col) {
    *line = 0;
    *col = 0;
    if (v == NULL)
        return;
    if (v->line != 0) {
        *line = v->line;
        *col = v->col;
        return;
    }
    cfg_pos_off(c, v->off, line, col);
}

void cfg_pos_member(cfg_ctx *c, const cv_member *m, uint32_t *line, uint32_t *col) {
    *line = 0;
    *col = 0;
    if (m == NULL)
        return;
    if (m->line != 0) {
        *line = m->line;
        *col = m->col;
        return;
    }
    if (m->off != SIZE_MAX) {
        cfg_pos_off(c, m->off, line, col);
        return;
    }
    cfg_pos(c, m->value, line, col);
}

int cfg_fail(cfg_ctx *c, int code, uint32_t line, uint32_t col, const char *fmt, ...) {
    if (c->code != 0)
        return code;
    va_list ap;
    c->code = code;
    c->line = line;
    c->col = col;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
    va_end(ap);
    return code;
}

/* ------------------------------------------------------------------ UTF-8 */

bool cfg_utf8_valid(const char *s, size_t len, size_t *bad) {
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        unsigned char b = *p;
        if (b < 0x80) {
            p++;
            continue;
        }
        size_t n = b >= 0xC2 && b <= 0xDF   ? 2
                   : b >= 0xE0 && b <= 0xEF ? 3
                   : b >= 0xF0 && b <= 0xF4 ? 4
                                            : 0;
        bool ok = n != 0 && (size_t)(end - p) >= n;
        for (size_t i = 1; ok && i < n; i++)
            ok = (p[i] & 0xC0) == 0x80;
        if (ok && n == 3)
            ok = !(b == 0xE0 && p[1] < 0xA0) && !(b == 0xED && p[1] >= 0xA0);
        if (ok && n == 4)
            ok = !(b == 0xF0 && p[1] < 0x90) && !(b == 0xF4 && p[1] >= 0x90);
        if (!ok) {
            if (bad != NULL)
                *bad = (size_t)((const char *)p - s);
            return false;
        }
        p += n;
    }
    return true;
}

/* ------------------------------------------------------------------- JSON */

typedef struct conv {
    cfg_ctx *c;
    const char *base; /* the parsed buffer: pointers into it give offsets */
    size_t len;
} conv;

static size_t offset_of(const conv *k, const char *p, size_t back) {
    if (p == NULL || p < k->base || p > k->base + k->len)
        return SIZE_MAX;
    size_t off = (size_t)(p - k->base);
    return off >= back ? off - back : SIZE_MAX;
}

static cv *convert(conv *k, const mv_jv *j, unsigned depth) {
    cfg_ctx *c = k->c;
    cv *v = NULL;
    switch ((mv_jtype)j->type) {
    case MV_JNULL:
        return cv_new(c, CV_NULL);
    case MV_JFALSE:
    case MV_JTRUE:
        v = cv_new(c, CV_BOOL);
        if (v != NULL)
            v->b = j->type == MV_JTRUE;
        return v;
    case MV_JNUMBER:
        v = cv_new(c, memchr(j->u.s, '.', j->n) || memchr(j->u.s, 'e', j->n) ||
                              memchr(j->u.s, 'E', j->n)
                          ? CV_FLOAT
                          : CV_INT);
        if (v != NULL) {
            v->s = j->u.s;
            v->len = j->n;
            v->off = offset_of(k, j->u.s, 0);
        }
        return v;
    case MV_JSTRING:
        v = cv_new(c, CV_STRING);
        if (v != NULL) {
            v->s = j->u.s;
            v->len = j->n;
            /* Unescaped strings point into the text, just after the quote. */
            v->off = offset_of(k, j->u.s, 1);
        }
        return v;
    case MV_JARRAY:
    case MV_JOBJECT:
        break;
    }
    if (depth >= CV_MAX_DEPTH)
        return cv_new(c, CV_DEEP);
    if (j->type == MV_JARRAY) {
        v = cv_new(c, CV_ARRAY);
        if (v == NULL)
            return NULL;
        for (uint32_t i = 0; i < j->n; i++) {
            cv *item = convert(k, &j->u.items[i], depth + 1);
            if (item == NULL || cv_push(c, v, item) != MV_OK)
                return NULL;
        }
        return v;
    }
    v = cv_new(c, CV_OBJECT);
    if (v == NULL)
        return NULL;
    for (uint32_t i = 0; i < j->n; i++) {
        const mv_jm *m = &j->u.members[i];
        cv *item = convert(k, &m->value, depth + 1);
        if (item == NULL)
            return NULL;
        size_t off = offset_of(k, m->key, 1);
        if (item->off == SIZE_MAX && item->type != CV_STRING)
            item->off = off;
        if (cv_put(c, v, m->key, m->key_len, item, 0, 0, off) != MV_OK)
            return NULL;
    }
    return v;
}

/* The index of the next significant byte at or after i (skipping
 * whitespace and comments), or len. Sets *bad to the start of an
 * unterminated block comment. */
static size_t skip_blank(const char *s, size_t len, size_t i, size_t *bad) {
    while (i < len) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            i++;
        } else if (ch == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (ch == '/' && i + 1 < len && s[i + 1] == '*') {
            const char *e = NULL;
            for (size_t j = i + 2; j + 1 < len; j++)
                if (s[j] == '*' && s[j + 1] == '/') {
                    e = s + j;
                    break;
                }
            if (e == NULL) {
                *bad = i;
                return len;
            }
            i = (size_t)(e - s) + 2;
        } else {
            break;
        }
    }
    return i;
}

int cfg_jsonc_blank(cfg_ctx *c, char *buf, size_t len) {
    size_t i = 0;
    while (i < len) {
        char ch = buf[i];
        if (ch == '"') {
            /* Skip the string; the strict parser judges its content. */
            i++;
            while (i < len && buf[i] != '"' && buf[i] != '\n')
                i += buf[i] == '\\' ? 2 : 1;
            i++;
        } else if (ch == '/' && i + 1 < len && (buf[i + 1] == '/' || buf[i + 1] == '*')) {
            size_t bad = SIZE_MAX;
            size_t end = skip_blank(buf, len, i, &bad);
            if (bad != SIZE_MAX) {
                uint32_t l, col;
                cfg_pos_off(c, bad, &l, &col);
                return cfg_fail(c, MV_EPARSE, l, col, "unterminated /* comment");
            }
            for (size_t j = i; j < end; j++)
                if (buf[j] != '\n' && buf[j] != '\r')
                    buf[j] = ' ';
            i = end;
        } else if (ch == ',') {
            size_t bad = SIZE_MAX;
            size_t next = skip_blank(buf, len, i + 1, &bad);
            if (next < len && (buf[next] == '}' || buf[next] == ']'))
                buf[i] = ' ';
            i++;
        } else {
            i++;
        }
    }
    return MV_OK;
}

int cfg_parse_json(cfg_ctx *c, bool comments, cv **out) {
    const char *text = c->data;
    const mv_jv *doc = NULL;
    mv_jerror je;
    *out = NULL;
    if (comments) {
        char *copy = mv_arena_memdup(c->arena, c->data, c->len);
        if (copy == NULL)
            return cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
        int rc = cfg_jsonc_blank(c, copy, c->len);
        if (rc != MV_OK)
            return rc;
        text = copy;
    }
    memset(&je, 0, sizeof(je));
    int rc = mv_json_parse(&doc, c->arena, c->alloc, text, c->len, &je);
    if (rc != MV_OK) {
        uint32_t l = 0, col = 0;
        if (je.code == MV_EPARSE)
            cfg_pos_off(c, je.offset, &l, &col);
        return cfg_fail(c, je.code == MV_ENOMEM ? MV_ENOMEM : MV_EPARSE, l, col, "%s", je.message);
    }
    conv k = {c, text, c->len};
    *out = convert(&k, doc, 0);
    if (*out == NULL)
        return cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
    (*out)->line = 1;
    (*out)->col = 1;
    return MV_OK;
}
