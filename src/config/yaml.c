/*
 * Continue's YAML configs through libyaml's event parser, built into a cv
 * tree. Events rather than libyaml's document loader so that aliases can be
 * refused outright (an alias bomb expands exponentially when walked) and
 * nesting is capped while parsing. One document only; mapping keys must be
 * scalars and unique; plain scalars follow the YAML 1.2 core schema (null,
 * booleans, integers, floats), quoted ones are strings. Tags other than
 * !!str are refused: a scanner should not guess what a custom tag means.
 */
#include <string.h>
#include <yaml.h>

#include "config/config_int.h"

typedef struct yframe {
    cv *node;
    /* mappings: the pending key (NULL while expecting a key) */
    const char *key;
    size_t key_len;
    uint32_t key_line, key_col;
} yframe;

static int fail_mark(cfg_ctx *c, yaml_mark_t m, const char *fmt, const char *what) {
    uint32_t line = (uint32_t)(m.line + 1), col = (uint32_t)(m.column + 1);
    return cfg_fail(c, MV_EPARSE, line, col, fmt, what);
}

static bool word_in(const char *s, size_t n, const char *const *words) {
    for (size_t i = 0; words[i] != NULL; i++)
        if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
            return true;
    return false;
}

static bool is_int(const char *s, size_t n) {
    size_t i = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
        for (i = 2; i < n; i++)
            if (!((s[i] >= '0' && s[i] <= '9') ||
                  (s[1] == 'x' && ((s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))))
                return false;
        return true;
    }
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    if (i == n)
        return false;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static bool is_float(const char *s, size_t n) {
    static const char *const special[] = {".inf",  "-.inf", "+.inf", ".Inf",  "-.Inf",
                                          "+.Inf", ".INF",  "-.INF", "+.INF", ".nan",
                                          ".NaN",  ".NAN",  NULL};
    if (word_in(s, n, special))
        return true;
    size_t i = 0, digits = 0;
    bool dot = false, exp = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    for (; i < n; i++) {
        char ch = s[i];
        if (ch >= '0' && ch <= '9') {
            digits++;
        } else if (ch == '.' && !dot && !exp) {
            dot = true;
        } else if ((ch == 'e' || ch == 'E') && digits > 0 && !exp) {
            exp = true;
            if (i + 1 < n && (s[i + 1] == '-' || s[i + 1] == '+'))
                i++;
            if (i + 1 >= n)
                return false;
        } else {
            return false;
        }
    }
    return digits > 0 && (dot || exp);
}

static cv *scalar(cfg_ctx *c, const yaml_event_t *ev, int *rc) {
    const char *s = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
    static const char *const trues[] = {"true", "True", "TRUE", NULL};
    static const char *const falses[] = {"false", "False", "FALSE", NULL};
    bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    cv_type t = CV_STRING;
    *rc = MV_OK;
    if (tag != NULL) {
        if (strcmp(tag, YAML_STR_TAG) != 0 && strcmp(tag, "!") != 0) {
            *rc = fail_mark(c, ev->start_mark, "%s", "YAML tags are not supported in this config");
            return NULL;
        }
        plain = false;
    }
    if (plain) {
        if (word_in(s, n, nulls))
            t = CV_NULL;
        else if (word_in(s, n, trues) || word_in(s, n, falses))
            t = CV_BOOL;
        else if (is_int(s, n))
            t = CV_INT;
        else if (is_float(s, n))
            t = CV_FLOAT;
    }
    cv *v = cv_new(c, t);
    if (v == NULL) {
        *rc = cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
        return NULL;
    }
    v->line = (uint32_t)(ev->start_mark.line + 1);
    v->col = (uint32_t)(ev->start_mark.column + 1);
    v->b = t == CV_BOOL && word_in(s, n, trues);
    v->s = mv_arena_memdup(c->arena, s != NULL ? s : "", n);
    v->len = n;
    if (v->s == NULL) {
        *rc = cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
        return NULL;
    }
    return v;
}

/* Attach a finished node to the frame below it. */
static int attach(cfg_ctx *c, cfg_keyset *keys, yframe *top, cv *v, const yaml_event_t *ev) {
    if (top->node->type == CV_ARRAY)
        return cv_push(c, top->node, v) == MV_OK ? MV_OK
                                                 : cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
    if (top->key == NULL) {
        /* v is a key: only scalars, and unique. */
        if (v->type == CV_ARRAY || v->type == CV_OBJECT || v->type == CV_DEEP)
            return fail_mark(c, ev->start_mark, "%s", "mapping keys must be scalars");
        if (memchr(v->s, '\0', v->len) != NULL)
            return fail_mark(c, ev->start_mark, "%s", "a key must not contain U+0000");
        int r = cfg_keyset_add(keys, top->node, v->s, v->len);
        if (r < 0)
            return cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
        if (r == 1)
            return fail_mark(c, ev->start_mark, "%s", "duplicate mapping key");
        top->key = v->s;
        top->key_len = v->len;
        top->key_line = v->line;
        top->key_col = v->col;
        return MV_OK;
    }
    int rc = cv_put(c, top->node, top->key, top->key_len, v, top->key_line, top->key_col, SIZE_MAX);
    top->key = NULL;
    return rc == MV_OK ? MV_OK : cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
}

int cfg_parse_yaml(cfg_ctx *c, cv **out) {
    yaml_parser_t parser;
    yaml_event_t ev;
    yframe stack[CV_MAX_DEPTH + 1];
    size_t depth = 0;
    unsigned skip = 0; /* nesting inside a too-deep container */
    cfg_keyset keys;
    bool have_ev = false, done = false;
    int docs = 0;
    cv *root = NULL;
    int rc = MV_OK;

    memset(&keys, 0, sizeof(keys));
    keys.alloc = c->alloc;
    *out = NULL;
    if (!yaml_parser_initialize(&parser))
        return cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)c->data, c->len);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    while (!done) {
        if (!yaml_parser_parse(&parser, &ev)) {
            yaml_mark_t m = parser.problem_mark;
            rc = cfg_fail(c, parser.error == YAML_MEMORY_ERROR ? MV_ENOMEM : MV_EPARSE,
                          (uint32_t)(m.line + 1), (uint32_t)(m.column + 1), "invalid YAML: %s%s%s",
                          parser.problem != NULL ? parser.problem : "syntax error",
                          parser.context != NULL ? " " : "",
                          parser.context != NULL ? parser.context : "");
            goto done;
        }
        have_ev = true;
        cv *v = NULL;
        switch (ev.type) {
        case YAML_STREAM_START_EVENT:
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1) {
                rc = fail_mark(c, ev.start_mark, "%s", "more than one YAML document in the file");
                goto done;
            }
            break;
        case YAML_DOCUMENT_END_EVENT:
            break;
        case YAML_ALIAS_EVENT:
            rc = fail_mark(c, ev.start_mark, "%s", "YAML aliases are not supported in this config");
            goto done;
        case YAML_SCALAR_EVENT:
            if (skip > 0)
                break;
            v = scalar(c, &ev, &rc);
            if (v == NULL)
                goto done;
            if (depth == 0) {
                root = v;
            } else if ((rc = attach(c, &keys, &stack[depth - 1], v, &ev)) != MV_OK) {
                goto done;
            }
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            const char *tag = ev.type == YAML_SEQUENCE_START_EVENT
                                  ? (const char *)ev.data.sequence_start.tag
                                  : (const char *)ev.data.mapping_start.tag;
            if (tag != NULL) {
                rc =
                    fail_mark(c, ev.start_mark, "%s", "YAML tags are not supported in this config");
                goto done;
            }
            if (skip > 0 || depth >= CV_MAX_DEPTH) {
                if (skip == 0) {
                    /* Keep a placeholder where the deep container was. */
                    cv *deep = cv_new(c, CV_DEEP);
                    if (deep == NULL) {
                        rc = cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
                        goto done;
                    }
                    deep->line = (uint32_t)(ev.start_mark.line + 1);
                    deep->col = (uint32_t)(ev.start_mark.column + 1);
                    if (stack[depth - 1].node->type == CV_OBJECT && stack[depth - 1].key == NULL) {
                        rc = fail_mark(c, ev.start_mark, "%s", "mapping keys must be scalars");
                        goto done;
                    }
                    if ((rc = attach(c, &keys, &stack[depth - 1], deep, &ev)) != MV_OK)
                        goto done;
                }
                skip++;
                break;
            }
            v = cv_new(c, ev.type == YAML_SEQUENCE_START_EVENT ? CV_ARRAY : CV_OBJECT);
            if (v == NULL) {
                rc = cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
                goto done;
            }
            v->line = (uint32_t)(ev.start_mark.line + 1);
            v->col = (uint32_t)(ev.start_mark.column + 1);
            if (depth > 0 && stack[depth - 1].node->type == CV_OBJECT &&
                stack[depth - 1].key == NULL) {
                rc = fail_mark(c, ev.start_mark, "%s", "mapping keys must be scalars");
                goto done;
            }
            stack[depth].node = v;
            stack[depth].key = NULL;
            depth++;
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            if (skip > 0) {
                skip--;
                break;
            }
            if (depth == 0)
                break;
            v = stack[--depth].node;
            if (depth == 0) {
                root = v;
            } else if ((rc = attach(c, &keys, &stack[depth - 1], v, &ev)) != MV_OK) {
                goto done;
            }
            break;
        case YAML_NO_EVENT:
        default:
            break;
        }
        yaml_event_delete(&ev);
        have_ev = false;
    }
    if (root == NULL) {
        root = cv_new(c, CV_NULL);
        if (root == NULL) {
            rc = cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
            goto done;
        }
        root->line = 1;
        root->col = 1;
    }
    *out = root;
done:
    if (have_ev)
        yaml_event_delete(&ev);
    yaml_parser_delete(&parser);
    cfg_keyset_free(&keys);
    return rc;
}
