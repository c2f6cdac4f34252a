/*
 * The shared list of sensitive resources, read from the embedded
 * sensitive_resources.rules (see sensitive.h). The file is in the directive
 * rule format restricted to plain phrases under [set SENS_<CLASS>]
 * headers, so this reader only needs to split lines; [context] sections
 * and comments are skipped.
 */
#include "sensitive.h"

#include <string.h>

#include "mcpvet/ac.h"
#include "rules_data.h"

struct mv_sensitive {
    const mv_allocator *a;
    mv_ac *ac;
    mv_str *cls; /* per phrase id */
    mv_str *phrase;
    size_t n;
};

static mv_str trim(const char *s, const char *e) {
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    return (mv_str){s, (size_t)(e - s)};
}

int mv_sensitive_each(int (*cb)(void *ctx, mv_str cls, mv_str phrase), void *ctx) {
    const char *data = NULL;
    size_t len = 0;
    int rc = MV_OK;
    if (mv_rules_find("sensitive_resources", &data, &len) != 0)
        return MV_ECHECK;
    const char *p = data;
    const char *end = data + len;
    mv_str cls = MV_STR_NULL;
    bool in_set = false;
    static const char head[] = "[set SENS_";
    while (p < end && rc == MV_OK) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl != NULL ? nl : end;
        mv_str line = trim(p, le);
        p = nl != NULL ? nl + 1 : end;
        if (line.len == 0 || line.ptr[0] == '#')
            continue;
        if (line.ptr[0] == '[') {
            in_set = line.len > sizeof(head) && memcmp(line.ptr, head, sizeof(head) - 1) == 0 &&
                     line.ptr[line.len - 1] == ']';
            if (in_set)
                cls = (mv_str){line.ptr + sizeof(head) - 1, line.len - sizeof(head)};
            continue;
        }
        if (in_set)
            rc = cb(ctx, cls, line);
    }
    return rc;
}

typedef struct build_ctx {
    mv_sensitive *s;
    mv_ac_builder *b;
    size_t cap;
    bool count_only;
} build_ctx;

static int add_entry(void *p, mv_str cls, mv_str phrase) {
    build_ctx *c = p;
    if (c->count_only) {
        c->cap++;
        return MV_OK;
    }
    if (c->s->n >= c->cap)
        return MV_ECHECK;
    c->s->cls[c->s->n] = cls;
    c->s->phrase[c->s->n] = phrase;
    int rc = mv_ac_builder_add(c->b, phrase.ptr, phrase.len, (uint32_t)c->s->n);
    c->s->n++;
    return rc;
}

int mv_sensitive_new(mv_sensitive **out, const mv_allocator *a) {
    int rc = MV_ENOMEM;
    build_ctx c = {NULL, NULL, 0, true};
    mv_sensitive *s = NULL;
    *out = NULL;
    rc = mv_sensitive_each(add_entry, &c);
    if (rc != MV_OK)
        goto done;
    rc = MV_ENOMEM;
    s = mv_alloc(a, sizeof(*s));
    if (s == NULL)
        goto done;
    memset(s, 0, sizeof(*s));
    s->a = a;
    s->cls = mv_alloc(a, (c.cap + 1) * sizeof(*s->cls));
    s->phrase = mv_alloc(a, (c.cap + 1) * sizeof(*s->phrase));
    c.b = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    if (s->cls == NULL || s->phrase == NULL || c.b == NULL)
        goto done;
    c.s = s;
    c.count_only = false;
    rc = mv_sensitive_each(add_entry, &c);
    if (rc == MV_OK)
        rc = mv_ac_build(&s->ac, c.b);
    if (rc == MV_OK) {
        *out = s;
        s = NULL;
    }
done:
    mv_ac_builder_free(c.b);
    if (s != NULL) {
        s->n = c.cap;
        mv_sensitive_free(s);
    }
    return rc;
}

void mv_sensitive_free(mv_sensitive *s) {
    if (s == NULL)
        return;
    size_t cap = s->n + 1;
    mv_ac_free(s->ac);
    if (s->cls != NULL)
        mv_free(s->a, s->cls, cap * sizeof(*s->cls));
    if (s->phrase != NULL)
        mv_free(s->a, s->phrase, cap * sizeof(*s->phrase));
    mv_free(s->a, s, sizeof(*s));
}

typedef struct find_ctx {
    const mv_sensitive *s;
    mv_sensitive_hit *hit;
    bool found;
} find_ctx;

static int on_hit(void *p, const mv_ac_match *m) {
    find_ctx *f = p;
    f->hit->cls = f->s->cls[m->id];
    f->hit->phrase = f->s->phrase[m->id];
    f->hit->start = m->start;
    f->hit->end = m->end;
    f->found = true;
    return 1; /* stop at the first */
}

bool mv_sensitive_find(const mv_sensitive *s, const char *text, size_t len, mv_sensitive_hit *hit) {
    find_ctx f = {s, hit, false};
    if (s == NULL || s->ac == NULL || text == NULL || hit == NULL)
        return false;
    mv_ac_scan(s->ac, text, len, on_hit, &f);
    return f.found;
}
