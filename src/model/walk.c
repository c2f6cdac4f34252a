/*
 * Tool builder: turns one tool object into an mv_tool. Every string an agent
 * could read -- name, title, description, every string inside the input and
 * output schemas, annotations and unknown keys -- becomes an mv_field with
 * its decoded text and a tool-relative JSON path, so checks walk one flat
 * array instead of re-walking schemas. Top-level schema properties become
 * mv_params. Caps (bytes per string, schema depth, strings per tool) are
 * recorded on the tool, never applied silently.
 *
 * Output lives in the tool set's arena. Fields, caps and the current path
 * are built in scratch vectors reused across tools and copied out once per
 * tool, so a tool costs a handful of bump allocations and no mallocs.
 */
#include "model_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* What the object or array being walked is, which decides how its keys and
 * strings are classified. */
typedef enum walk_mode {
    W_SCHEMA,     /* a (sub)schema or a value inside one */
    W_PROPS,      /* the value of "properties": keys are property names */
    W_MAP,        /* $defs, definitions, patternProperties...: keys are names */
    W_TYPE,       /* the value of "type": standard type names are boilerplate */
    W_REQUIRED,   /* the value of "required": names of sibling properties are
                     boilerplate, anything else is scanned */
    W_ANNOT_ROOT, /* the annotations object itself: standard hint keys skipped */
    W_ANNOT,      /* inside annotations */
    W_OTHER       /* inside an unknown tool key */
} walk_mode;

/* Keys in a path longer than this are cut (they stay whole in field text):
 * a path repeats every ancestor key, so unbounded keys would multiply. */
#define PATH_KEY_MAX 64u

static const mv_str empty_str = {"", 0};

static bool str_eq(const char *s, size_t n, const char *lit) {
    size_t m = strlen(lit);
    return n == m && memcmp(s, lit, n) == 0;
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn) {
    int r = memcmp(a, b, an < bn ? an : bn);
    if (r != 0)
        return r;
    return an < bn ? -1 : (an > bn ? 1 : 0);
}

/* A keyword with its length, so table searches never call strlen. */
#define KW(s)                                                                                      \
    { s, sizeof(s) - 1 }

/* True when `s` is in the byte-sorted table `tab`. */
static bool in_sorted(const mv_str *tab, size_t n_tab, const char *s, size_t n) {
    size_t lo = 0, hi = n_tab;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = cmp_bytes(s, n, tab[mid].ptr, tab[mid].len);
        if (r == 0)
            return true;
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

/* JSON Schema keywords (byte order). A schema key that is not one of these is
 * something the author invented, and an agent reads it: it is scanned. */
static const mv_str schema_keywords[] = {
    KW("$anchor"),
    KW("$comment"),
    KW("$defs"),
    KW("$dynamicAnchor"),
    KW("$dynamicRef"),
    KW("$id"),
    KW("$ref"),
    KW("$schema"),
    KW("$vocabulary"),
    KW("additionalItems"),
    KW("additionalProperties"),
    KW("allOf"),
    KW("anyOf"),
    KW("const"),
    KW("contains"),
    KW("contentEncoding"),
    KW("contentMediaType"),
    KW("contentSchema"),
    KW("default"),
    KW("definitions"),
    KW("dependencies"),
    KW("dependentRequired"),
    KW("dependentSchemas"),
    KW("deprecated"),
    KW("description"),
    KW("discriminator"),
    KW("else"),
    KW("enum"),
    KW("example"),
    KW("examples"),
    KW("exclusiveMaximum"),
    KW("exclusiveMinimum"),
    KW("format"),
    KW("if"),
    KW("items"),
    KW("maxContains"),
    KW("maxItems"),
    KW("maxLength"),
    KW("maxProperties"),
    KW("maximum"),
    KW("minContains"),
    KW("minItems"),
    KW("minLength"),
    KW("minProperties"),
    KW("minimum"),
    KW("multipleOf"),
    KW("not"),
    KW("nullable"),
    KW("oneOf"),
    KW("pattern"),
    KW("patternProperties"),
    KW("prefixItems"),
    KW("properties"),
    KW("propertyNames"),
    KW("readOnly"),
    KW("required"),
    KW("then"),
    KW("title"),
    KW("type"),
    KW("unevaluatedItems"),
    KW("unevaluatedProperties"),
    KW("uniqueItems"),
    KW("writeOnly"),
};

/* Keywords whose value maps names to schemas. */
static const mv_str map_keywords[] = {
    KW("$defs"),
    KW("definitions"),
    KW("dependencies"),
    KW("dependentRequired"),
    KW("dependentSchemas"),
    KW("patternProperties"),
};

/* The standard JSON-schema type names: boilerplate, not worth scanning. */
static const mv_str std_types[] = {
    KW("array"), KW("boolean"), KW("integer"), KW("null"), KW("number"), KW("object"), KW("string"),
};

/* MCP's standard annotation hints; other annotation keys are scanned. */
static const mv_str annotation_hints[] = {
    KW("destructiveHint"), KW("idempotentHint"), KW("openWorldHint"),
    KW("readOnlyHint"),    KW("title"),
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- scratch */

/* Grow a scratch vector to hold `need` elements; returns the (possibly moved)
 * buffer or NULL with the old buffer intact. */
static void *reserve(const mv_allocator *a, void *buf, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap)
        return buf;
    size_t ncap = *cap < 16 ? 16 : *cap;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem)
            return NULL;
        ncap *= 2;
    }
    void *p = mv_realloc(a, buf, *cap * elem, ncap * elem);
    if (p == NULL)
        return NULL;
    *cap = ncap;
    return p;
}

void mdl_ctx_release(mdl_ctx *c) {
    mv_free(c->alloc, c->fields, c->cap_fields * sizeof(*c->fields));
    mv_free(c->alloc, c->caps, c->cap_caps * sizeof(*c->caps));
    mv_free(c->alloc, c->path, c->path_cap);
    mv_free(c->alloc, c->req, c->cap_req * sizeof(*c->req));
    mv_free(c->alloc, c->path_slots, c->path_slot_cap * sizeof(*c->path_slots));
    mv_free(c->alloc, c->paths, c->cap_paths * sizeof(*c->paths));
    c->fields = NULL;
    c->caps = NULL;
    c->path = NULL;
    c->req = NULL;
    c->path_slots = NULL;
    c->paths = NULL;
    c->cap_fields = c->cap_caps = c->path_cap = c->cap_req = 0;
    c->path_slot_cap = c->n_paths = c->cap_paths = 0;
    c->pool = NULL;
    c->pool_left = 0;
    mv_buf_release(&c->def);
}

/* ----------------------------------------------------------- strings */

#define POOL_CHUNK 16384u   /* bytes drawn from the arena at a time */
#define POOL_MAX_STRING 512 /* longer strings get their own allocation */

/* Copy `n` bytes plus a NUL terminator into the tool set's memory. */
static char *store_bytes(mdl_ctx *c, const char *s, size_t n) {
    char *p;
    if (n >= POOL_MAX_STRING)
        return mv_arena_memdup(c->arena, s, n);
    if (c->pool_left < n + 1) {
        c->pool = mv_arena_alloc(c->arena, POOL_CHUNK);
        c->pool_left = c->pool != NULL ? POOL_CHUNK : 0;
        if (c->pool == NULL)
            return NULL;
    }
    p = c->pool;
    memcpy(p, s, n);
    p[n] = '\0';
    c->pool += n + 1;
    c->pool_left -= n + 1;
    return p;
}

/* Multiply-xorshift over 8-byte words: paths are interned by it, and the
 * second pass of a slim set checks with it that it reads the bytes the
 * first pass read. */
uint64_t mdl_hash_bytes(const char *s, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, s + i, n - i);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
    }
    return h * 0x94D049BB133111EBull;
}

/* A 32-bit hash of a path. */
static uint32_t path_hash(const char *s, size_t n) {
    return (uint32_t)(mdl_hash_bytes(s, n) >> 32);
}

/* Double the slot table and re-insert every path. */
static int paths_rehash(mdl_ctx *c) {
    size_t cap = c->path_slot_cap ? 2 * c->path_slot_cap : 1024;
    if (cap > SIZE_MAX / sizeof(uint32_t) || cap > UINT32_MAX)
        return MV_ENOMEM;
    uint32_t *slots = mv_calloc(c->alloc, cap, sizeof(*slots));
    if (slots == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < c->n_paths; i++) {
        size_t k = c->paths[i].hash & (cap - 1);
        while (slots[k] != 0)
            k = (k + 1) & (cap - 1);
        slots[k] = (uint32_t)i + 1;
    }
    mv_free(c->alloc, c->path_slots, c->path_slot_cap * sizeof(*c->path_slots));
    c->path_slots = slots;
    c->path_slot_cap = cap;
    return MV_OK;
}

/* The shared copy of `s`; stored on first use. Paths are bounded by the
 * document (a path is at most PATH_KEY_MAX-quoted keys per nesting level
 * and nesting is bounded), so a uint32_t length always suffices. */
static int intern_path(mdl_ctx *c, const char *s, size_t n, mv_str *out) {
    if (n > UINT32_MAX)
        return MV_ENOMEM;
    uint32_t h = path_hash(s, n);
    if (2 * (c->n_paths + 1) > c->path_slot_cap && paths_rehash(c) != MV_OK)
        return MV_ENOMEM;
    size_t mask = c->path_slot_cap - 1, k = h & mask;
    for (; c->path_slots[k] != 0; k = (k + 1) & mask) {
        const mdl_path *e = &c->paths[c->path_slots[k] - 1];
        if (e->hash == h && e->len == n && memcmp(e->ptr, s, n) == 0) {
            *out = (mv_str){e->ptr, n};
            return MV_OK;
        }
    }
    mdl_path *p = reserve(c->alloc, c->paths, &c->cap_paths, c->n_paths + 1, sizeof(*c->paths));
    if (p == NULL)
        return MV_ENOMEM;
    c->paths = p;
    char *copy = store_bytes(c, s, n);
    if (copy == NULL)
        return MV_ENOMEM;
    c->paths[c->n_paths] = (mdl_path){copy, (uint32_t)n, h};
    c->path_slots[k] = (uint32_t)++c->n_paths;
    *out = (mv_str){copy, n};
    return MV_OK;
}

/* ---------------------------------------------------------------- paths */

static int path_reserve(mdl_ctx *c, size_t extra) {
    if (extra > SIZE_MAX - c->path_len - 1)
        return MV_ENOMEM;
    char *p = reserve(c->alloc, c->path, &c->path_cap, c->path_len + extra + 1, 1);
    if (p == NULL)
        return MV_ENOMEM;
    c->path = p;
    return MV_OK;
}

/* Bytes a key may have and still be written as `.key` in a path. */
static const unsigned char ident_tab[256] = {
    ['$'] = 1, ['-'] = 1, ['@'] = 1, ['_'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1,
    ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1,
    ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
    ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1,
};

static bool simple_key(const char *k, size_t n) {
    if (n == 0 || n > PATH_KEY_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!ident_tab[(unsigned char)k[i]])
            return false;
    return true;
}

/* Append `.key`, or `["key"]` when the key is not a plain identifier (so a
 * path never carries dots, brackets or invisible characters ambiguously). */
static int path_push_key(mdl_ctx *c, const char *k, size_t n) {
    int rc;
    if (simple_key(k, n)) {
        rc = path_reserve(c, n + 1);
        if (rc != MV_OK)
            return rc;
        if (c->path_len > 0)
            c->path[c->path_len++] = '.';
        memcpy(c->path + c->path_len, k, n);
        c->path_len += n;
    } else {
        rc = path_reserve(c, MV_JSON_QUOTE_SIZE(PATH_KEY_MAX) + 2);
        if (rc != MV_OK)
            return rc;
        c->path[c->path_len++] = '[';
        c->path_len += mv_json_quote(c->path + c->path_len, k, n, PATH_KEY_MAX);
        c->path[c->path_len++] = ']';
    }
    c->path[c->path_len] = '\0';
    return MV_OK;
}

static int path_push_lit(mdl_ctx *c, const char *lit) {
    return path_push_key(c, lit, strlen(lit));
}

static int path_push_index(mdl_ctx *c, size_t i) {
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + i % 10);
        i /= 10;
    } while (i > 0);
    int rc = path_reserve(c, n + 2);
    if (rc != MV_OK)
        return rc;
    c->path[c->path_len++] = '[';
    while (n > 0)
        c->path[c->path_len++] = digits[--n];
    c->path[c->path_len++] = ']';
    c->path[c->path_len] = '\0';
    return MV_OK;
}

static void path_pop(mdl_ctx *c, size_t saved) {
    c->path_len = saved;
    if (c->path != NULL)
        c->path[saved] = '\0';
}

static int path_copy(mdl_ctx *c, mv_str *out) {
    if (c->path_len == 0) {
        *out = empty_str;
        return MV_OK;
    }
    return intern_path(c, c->path, c->path_len, out);
}

/* ----------------------------------------------------------- caps, text */

static int add_cap_at(mdl_ctx *c, const char *cap, uint64_t limit, uint64_t observed, mv_str where,
                      long *index_out) {
    mv_cap_hit *p = reserve(c->alloc, c->caps, &c->cap_caps, c->n_caps + 1, sizeof(*c->caps));
    if (p == NULL)
        return MV_ENOMEM;
    c->caps = p;
    if (index_out != NULL)
        *index_out = (long)c->n_caps;
    c->caps[c->n_caps++] = (mv_cap_hit){cap, limit, observed, where};
    return MV_OK;
}

/* Record a cap whose location is the current path. */
static int add_cap(mdl_ctx *c, const char *cap, uint64_t limit, uint64_t observed,
                   long *index_out) {
    mv_str where;
    int rc = path_copy(c, &where);
    if (rc != MV_OK)
        return rc;
    return add_cap_at(c, cap, limit, observed, where, index_out);
}

/* Copy a string into the arena, keeping at most max_field_bytes cut back to
 * a character boundary; a cut is recorded at the current path. With
 * `whole` non-NULL the whole string is stored (text is its prefix) and
 * *whole gets its length when it was cut (0 otherwise), so the cheap
 * whole-field checks can read past the cap. */
static int copy_text_whole(mdl_ctx *c, const char *s, size_t len, mv_str *out, uint64_t *whole) {
    size_t keep = len;
    if (len > c->lim.max_field_bytes) {
        keep = c->lim.max_field_bytes;
        /* s[keep] exists (keep < len); back off continuation bytes so the
         * kept prefix ends on a whole UTF-8 character. */
        while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
            keep--;
        int rc = add_cap(c, "field_bytes", c->lim.max_field_bytes, len, NULL);
        if (rc != MV_OK)
            return rc;
    }
    size_t stored = (whole != NULL && keep < len) ? len : keep;
    if (whole != NULL)
        *whole = keep < len ? len : 0;
    if (stored == 0) {
        *out = empty_str;
        return MV_OK;
    }
    char *p = store_bytes(c, s, stored);
    if (p == NULL)
        return MV_ENOMEM;
    *out = (mv_str){p, keep};
    return MV_OK;
}

static int copy_text(mdl_ctx *c, const char *s, size_t len, mv_str *out) {
    return copy_text_whole(c, s, len, out, NULL);
}

/* Count one scanned string; *store says whether there is room for it. The
 * first string over the cap records "fields_per_tool" (observed is filled in
 * when the tool is finished, once every string has been counted). */
static int note_string(mdl_ctx *c, bool *store) {
    c->n_strings++;
    *store = c->n_fields < c->lim.max_fields_per_tool;
    if (*store || c->fields_cap_index >= 0)
        return MV_OK;
    return add_cap(c, "fields_per_tool", c->lim.max_fields_per_tool, 0, &c->fields_cap_index);
}

static int push_field(mdl_ctx *c, mv_field_kind kind, int32_t param, mv_str text, uint64_t whole) {
    mv_str path;
    int rc = path_copy(c, &path);
    if (rc != MV_OK)
        return rc;
    mv_field *p = reserve(c->alloc, c->fields, &c->cap_fields, c->n_fields + 1, sizeof(*c->fields));
    if (p == NULL)
        return MV_ENOMEM;
    c->fields = p;
    c->fields[c->n_fields++] = (mv_field){.kind = kind,
                                          .schema = c->side,
                                          .param = param,
                                          .path = path,
                                          .text = text,
                                          .whole_len = whole};
    return MV_OK;
}

/* Emit a string that was already copied (shared with a param or the tool). */
static int emit_copied(mdl_ctx *c, mv_field_kind kind, int32_t param, mv_str text) {
    bool store;
    int rc = note_string(c, &store);
    if (rc != MV_OK || !store)
        return rc;
    return push_field(c, kind, param, text, 0);
}

/* Emit a raw string. `keep` (may be NULL) receives the copy even when the
 * field itself is dropped by the fields cap. */
static int emit_raw(mdl_ctx *c, mv_field_kind kind, int32_t param, const char *s, size_t len,
                    mv_str *keep) {
    bool store;
    int rc = note_string(c, &store);
    if (rc != MV_OK || (!store && keep == NULL))
        return rc;
    mv_str text;
    uint64_t whole = 0;
    rc = copy_text_whole(c, s, len, &text, &whole);
    if (rc != MV_OK)
        return rc;
    if (keep != NULL)
        *keep = text;
    return store ? push_field(c, kind, param, text, whole) : MV_OK;
}

/* ------------------------------------------------------------ depth cap */

/* Nesting depth of a value (a scalar is 0). Recursion is bounded by
 * the parser's nesting limit (MV_JSON_MAX_DEPTH). */
static uint32_t nesting(const mv_jv *v) {
    uint32_t best = 0;
    if (mv_jis_object(v)) {
        for (size_t i = 0; i < v->n; i++) {
            uint32_t d = nesting(&v->u.members[i].value);
            best = d > best ? d : best;
        }
        return best + 1;
    }
    if (mv_jis_array(v)) {
        for (size_t i = 0; i < mv_jarray_size(v); i++) {
            uint32_t d = nesting(mv_jarray_get(v, i));
            best = d > best ? d : best;
        }
        return best + 1;
    }
    return 0;
}

/* A container at `depth` is past the cap: it is not walked. One record per
 * tool (the first place cut); observed is the deepest nesting found. */
static int depth_cut(mdl_ctx *c, const mv_jv *v, uint32_t depth) {
    uint64_t observed = (uint64_t)depth - 1 + nesting(v);
    if (c->depth_cap_index < 0)
        return add_cap(c, "schema_depth", c->lim.max_schema_depth, observed, &c->depth_cap_index);
    mv_cap_hit *h = &c->caps[c->depth_cap_index];
    if (observed > h->observed)
        h->observed = observed;
    return MV_OK;
}

/* ---------------------------------------------------------------- walk */

static int walk_value(mdl_ctx *c, const mv_jv *v, walk_mode mode, mv_field_kind kind,
                      uint32_t depth, int32_t param, const mv_jv *aux);

/* One member of a schema object. `props` is the object's own "properties"
 * (or NULL), used to recognise boilerplate "required" entries. */
static int walk_schema_member(mdl_ctx *c, const char *k, size_t kl, const mv_jv *v, uint32_t depth,
                              int32_t param, const mv_jv *props) {
    uint32_t child = depth + 1;
    if (str_eq(k, kl, "properties") && mv_jis_object(v))
        return walk_value(c, v, W_PROPS, MV_FIELD_SCHEMA_VALUE, child, param, NULL);
    if (mv_jis_object(v) && in_sorted(map_keywords, N_OF(map_keywords), k, kl))
        return walk_value(c, v, W_MAP, MV_FIELD_SCHEMA_VALUE, child, param, NULL);
    if (mv_jis_string(v) && (str_eq(k, kl, "description") || str_eq(k, kl, "title"))) {
        /* A top-level property's description was copied for its param:
         * share the text (depth 3 with a param is exactly that object). */
        if (depth == 3 && param >= 0 && str_eq(k, kl, "description"))
            return emit_copied(c, MV_FIELD_SCHEMA_DESCRIPTION, param, c->params[param].description);
        return emit_raw(c, MV_FIELD_SCHEMA_DESCRIPTION, param, mv_jstring(v), mv_jstring_len(v),
                        NULL);
    }
    if (str_eq(k, kl, "type"))
        return walk_value(c, v, W_TYPE, MV_FIELD_SCHEMA_VALUE, child, param, NULL);
    if (str_eq(k, kl, "required"))
        return walk_value(c, v, W_REQUIRED, MV_FIELD_SCHEMA_VALUE, child, param, props);
    if (!in_sorted(schema_keywords, N_OF(schema_keywords), k, kl)) {
        int rc = emit_raw(c, MV_FIELD_OTHER, param, k, kl, NULL);
        if (rc != MV_OK)
            return rc;
    }
    return walk_value(c, v, W_SCHEMA, MV_FIELD_SCHEMA_VALUE, child, param, NULL);
}

static int walk_object(mdl_ctx *c, const mv_jv *obj, walk_mode mode, uint32_t depth,
                       int32_t param) {
    int rc = MV_OK;
    const mv_jv *props = NULL;
    if (mode == W_TYPE || mode == W_REQUIRED)
        mode = W_SCHEMA;
    if (mode == W_SCHEMA) {
        props = mv_jobject_get(obj, "properties");
        if (!mv_jis_object(props))
            props = NULL;
    }
    /* The root schema is depth 1, so its "properties" map is the only
     * properties map at depth 2: its members are the tool's params. */
    bool top_props = mode == W_PROPS && depth == 2 && param < 0;
    uint32_t ordinal = 0;
    for (; ordinal < obj->n && rc == MV_OK; ordinal++) {
        const char *k = obj->u.members[ordinal].key;
        size_t kl = obj->u.members[ordinal].key_len;
        const mv_jv *v = &obj->u.members[ordinal].value;
        size_t saved = c->path_len;
        rc = path_push_key(c, k, kl);
        if (rc != MV_OK)
            break;
        switch (mode) {
        case W_PROPS:
            if (top_props) {
                int32_t p = (int32_t)(c->param_base + ordinal);
                assert((uint32_t)p < c->n_params);
                rc = emit_copied(c, MV_FIELD_PROPERTY_NAME, p, c->params[p].name);
                if (rc == MV_OK)
                    rc = walk_value(c, v, W_SCHEMA, MV_FIELD_SCHEMA_VALUE, depth + 1, p, NULL);
            } else {
                rc = emit_raw(c, MV_FIELD_PROPERTY_NAME, param, k, kl, NULL);
                if (rc == MV_OK)
                    rc = walk_value(c, v, W_SCHEMA, MV_FIELD_SCHEMA_VALUE, depth + 1, param, NULL);
            }
            break;
        case W_MAP:
            rc = emit_raw(c, MV_FIELD_SCHEMA_VALUE, param, k, kl, NULL);
            if (rc == MV_OK)
                rc = walk_value(c, v, W_SCHEMA, MV_FIELD_SCHEMA_VALUE, depth + 1, param, NULL);
            break;
        case W_SCHEMA:
        case W_TYPE:
        case W_REQUIRED:
            rc = walk_schema_member(c, k, kl, v, depth, param, props);
            break;
        case W_ANNOT_ROOT:
        case W_ANNOT:
            if (mode == W_ANNOT || !in_sorted(annotation_hints, N_OF(annotation_hints), k, kl))
                rc = emit_raw(c, MV_FIELD_ANNOTATION, param, k, kl, NULL);
            if (rc == MV_OK)
                rc = walk_value(c, v, W_ANNOT, MV_FIELD_ANNOTATION, depth + 1, param, NULL);
            break;
        case W_OTHER:
            rc = emit_raw(c, MV_FIELD_OTHER, param, k, kl, NULL);
            if (rc == MV_OK)
                rc = walk_value(c, v, W_OTHER, MV_FIELD_OTHER, depth + 1, param, NULL);
            break;
        }
        path_pop(c, saved);
    }
    return rc;
}

/* ------------------------------------------------------- code arrays */

#define CODE_ARRAY_MIN 8u /* "rm -rf ~" is eight codes */

/* The value of a plain decimal integer that could be a character code,
 * or -1: digits only (no sign, fraction or exponent), at most 0x10FFFF. */
static long char_code(const mv_jv *v) {
    if (v->type != MV_JNUMBER || v->n == 0 || v->n > 7)
        return -1;
    long code = 0;
    for (uint32_t i = 0; i < v->n; i++) {
        char ch = v->u.s[i];
        if (ch < '0' || ch > '9')
            return -1;
        code = code * 10 + (ch - '0');
    }
    return code <= 0x10FFFF ? code : -1;
}

/* An array of integers that reads as text: String.fromCharCode's data
 * written as a JSON value ([114, 109, 32, 45, ...]) rather than inside a
 * string. Every code is printable (or tab, newline, return), at least one
 * in three is a letter or a space, and the codes are not in ascending
 * order, so lists of sizes, ports or years do not qualify. */
static bool is_code_array(const mv_jv *v) {
    size_t n = mv_jarray_size(v), texty = 0;
    bool ascending = true;
    long prev = -1;
    if (n < CODE_ARRAY_MIN)
        return false;
    for (size_t i = 0; i < n; i++) {
        long code = char_code(mv_jarray_get(v, i));
        if (code < 0 || (code < 32 && code != 9 && code != 10 && code != 13) ||
            (code > 126 && code < 160))
            return false;
        if (code == ' ' || (code >= 'A' && code <= 'Z') || (code >= 'a' && code <= 'z'))
            texty++;
        ascending = ascending && code >= prev;
        prev = code;
    }
    return !ascending && texty * 3 >= n;
}

/* The tool model keeps strings, so a code array would be invisible to
 * every check: it is emitted once, at the array's path, as its own JSON
 * text ("[114, 109, ...]"), which the payload check decodes like any code
 * list written in prose. */
static int emit_code_array(mdl_ctx *c, const mv_jv *v, mv_field_kind kind, int32_t param) {
    mv_buf text;
    mv_buf_init(&text, c->alloc);
    int rc = mv_buf_putc(&text, '[');
    size_t n = mv_jarray_size(v);
    for (size_t i = 0; i < n && rc == MV_OK; i++) {
        const mv_jv *item = mv_jarray_get(v, i);
        if (i > 0)
            rc = mv_buf_puts(&text, ", ");
        if (rc == MV_OK)
            rc = mv_buf_append(&text, item->u.s, item->n);
    }
    if (rc == MV_OK)
        rc = mv_buf_putc(&text, ']');
    if (rc == MV_OK)
        rc = emit_raw(c, kind, param, text.data, text.len, NULL);
    mv_buf_release(&text);
    return rc;
}

/* Walk one value. `depth` is the nesting of `v` itself when it is a
 * container (a schema root is 1); containers past max_schema_depth are cut.
 * `kind` classifies strings; `aux` is the sibling "properties" map for
 * W_REQUIRED. */
static int walk_value(mdl_ctx *c, const mv_jv *v, walk_mode mode, mv_field_kind kind,
                      uint32_t depth, int32_t param, const mv_jv *aux) {
    int rc = MV_OK;
    switch ((mv_jtype)v->type) {
    case MV_JSTRING: {
        const char *s = mv_jstring(v);
        size_t n = mv_jstring_len(v);
        if (mode == W_TYPE && in_sorted(std_types, N_OF(std_types), s, n))
            break;
        if (mode == W_REQUIRED && aux != NULL && mv_jobject_getn(aux, s, n) != NULL)
            break;
        rc = emit_raw(c, kind, param, s, n, NULL);
        break;
    }
    case MV_JARRAY: {
        if (depth > c->lim.max_schema_depth) {
            rc = depth_cut(c, v, depth);
            break;
        }
        walk_mode elem = mode;
        if (mode == W_PROPS || mode == W_MAP)
            elem = W_SCHEMA;
        else if (mode == W_ANNOT_ROOT)
            elem = W_ANNOT;
        if (is_code_array(v)) {
            rc = emit_code_array(c, v, kind, param);
            break; /* numbers alone emit nothing */
        }
        size_t n = mv_jarray_size(v);
        for (size_t i = 0; i < n && rc == MV_OK; i++) {
            size_t saved = c->path_len;
            rc = path_push_index(c, i);
            if (rc == MV_OK)
                rc = walk_value(c, mv_jarray_get(v, i), elem, kind, depth + 1, param, aux);
            path_pop(c, saved);
        }
        break;
    }
    case MV_JOBJECT:
        if (depth > c->lim.max_schema_depth)
            rc = depth_cut(c, v, depth);
        else
            rc = walk_object(c, v, mode, depth, param);
        break;
    default:
        break;
    }
    return rc;
}

/* -------------------------------------------------------------- params */

static int cmp_str(const void *a, const void *b) {
    const mv_str *x = a, *y = b;
    return cmp_bytes(x->ptr, x->len, y->ptr, y->len);
}

/* Sort the schema's "required" names once so each param is a binary search
 * (a hostile schema with huge lists stays O(n log n)). */
static int collect_required(mdl_ctx *c, const mv_jv *schema) {
    c->n_req = 0;
    const mv_jv *req = mv_jobject_get(schema, "required");
    if (!mv_jis_array(req))
        return MV_OK;
    size_t n = mv_jarray_size(req);
    if (n == 0)
        return MV_OK;
    mv_str *p = reserve(c->alloc, c->req, &c->cap_req, n, sizeof(*c->req));
    if (p == NULL)
        return MV_ENOMEM;
    c->req = p;
    for (size_t i = 0; i < n; i++) {
        const mv_jv *s = mv_jarray_get(req, i);
        if (mv_jis_string(s))
            c->req[c->n_req++] = (mv_str){mv_jstring(s), mv_jstring_len(s)};
    }
    qsort(c->req, c->n_req, sizeof(*c->req), cmp_str);
    return MV_OK;
}

static bool is_required(const mdl_ctx *c, const char *k, size_t kl) {
    mv_str key = {k, kl};
    return c->n_req > 0 && bsearch(&key, c->req, c->n_req, sizeof(*c->req), cmp_str) != NULL;
}

static int param_type(mdl_ctx *c, const mv_jv *type, mv_str *out) {
    const mv_jv *t = NULL;
    if (mv_jis_string(type)) {
        t = type;
    } else if (mv_jis_array(type)) {
        /* ["string","null"] is how schemas spell "optional string". */
        for (size_t i = 0; i < mv_jarray_size(type) && t == NULL; i++) {
            const mv_jv *e = mv_jarray_get(type, i);
            if (mv_jis_string(e) && !str_eq(mv_jstring(e), mv_jstring_len(e), "null"))
                t = e;
        }
    }
    if (t == NULL) {
        *out = empty_str;
        return MV_OK;
    }
    const char *s = mv_jstring(t);
    size_t n = mv_jstring_len(t);
    for (size_t i = 0; i < N_OF(std_types); i++) {
        if (n == std_types[i].len && memcmp(s, std_types[i].ptr, n) == 0) {
            *out = std_types[i];
            return MV_OK;
        }
    }
    size_t saved = c->path_len;
    int rc = path_push_lit(c, "type");
    if (rc == MV_OK)
        rc = copy_text(c, s, n, out);
    path_pop(c, saved);
    return rc;
}

/* A boolean or number as an mv_fixed_value (MV_FIXED_NONE for others). */
static uint8_t fixed_value(const mv_jv *v) {
    if (v == NULL)
        return MV_FIXED_NONE;
    if (mv_jis(v, MV_JTRUE))
        return MV_FIXED_TRUE;
    if (mv_jis(v, MV_JFALSE))
        return MV_FIXED_FALSE;
    if (!mv_jis(v, MV_JNUMBER))
        return MV_FIXED_NONE;
    /* a validated number is zero when no digit is 1-9 before an exponent */
    for (size_t i = 0; i < v->n && v->u.s[i] != 'e' && v->u.s[i] != 'E'; i++)
        if (v->u.s[i] >= '1' && v->u.s[i] <= '9')
            return MV_FIXED_NUMBER;
    return MV_FIXED_ZERO;
}

/* Round 21: the boolean or number a property's schema fixes: its const,
 * the one value of its enum, else its default (the checks read strings as
 * fields; these only here). */
static void param_fixed(const mv_jv *v, mv_param *p) {
    const mv_jv *e = mv_jobject_get(v, "enum");
    uint8_t f = fixed_value(mv_jobject_get(v, "const"));
    if (f == MV_FIXED_NONE && mv_jis_array(e) && mv_jarray_size(e) == 1)
        f = fixed_value(mv_jarray_get(e, 0));
    p->fixed_const = f != MV_FIXED_NONE;
    if (f == MV_FIXED_NONE)
        f = fixed_value(mv_jobject_get(v, "default"));
    p->fixed = f;
}

/* Fill params[base..] from the schema's top-level properties. Runs before
 * the walk so params are complete even when the depth cap cuts the walk;
 * the walk then shares the name and description copies. */
static int build_params(mdl_ctx *c, const mv_jv *schema, uint32_t base) {
    const mv_jv *props = mv_jobject_get(schema, "properties");
    if (!mv_jis_object(props))
        return MV_OK;
    int rc = collect_required(c, schema);
    size_t saved = c->path_len;
    if (rc == MV_OK)
        rc = path_push_lit(c, "properties");
    uint32_t i = base;
    for (size_t m = 0; m < props->n && rc == MV_OK; m++, i++) {
        const char *k = props->u.members[m].key;
        size_t kl = props->u.members[m].key_len;
        const mv_jv *v = &props->u.members[m].value;
        mv_param *p = &c->params[i];
        size_t key_saved = c->path_len;
        assert(i < c->n_params);
        p->schema = c->side;
        p->required = is_required(c, k, kl);
        p->name = empty_str;
        p->type = empty_str;
        p->description = empty_str;
        p->has_enum = false;
        p->fixed = MV_FIXED_NONE;
        p->fixed_const = false;
        rc = path_push_key(c, k, kl);
        if (rc == MV_OK)
            rc = copy_text(c, k, kl, &p->name);
        if (rc == MV_OK && mv_jis_object(v)) {
            p->has_enum = mv_jobject_get(v, "enum") != NULL || mv_jobject_get(v, "const") != NULL;
            param_fixed(v, p);
            rc = param_type(c, mv_jobject_get(v, "type"), &p->type);
            const mv_jv *d = mv_jobject_get(v, "description");
            if (rc == MV_OK && mv_jis_string(d)) {
                size_t d_saved = c->path_len;
                rc = path_push_lit(c, "description");
                if (rc == MV_OK)
                    rc = copy_text(c, mv_jstring(d), mv_jstring_len(d), &p->description);
                path_pop(c, d_saved);
            }
        }
        path_pop(c, key_saved);
    }
    path_pop(c, saved);
    return rc;
}

/* --------------------------------------------------------------- tool */

/* Optional string member: absent or null gives empty; another type fails. */
static int opt_string(mdl_ctx *c, const mv_jv *tool, const char *key, const mdl_loc *loc,
                      const mv_jv **out) {
    const mv_jv *v = mv_jobject_get(tool, key);
    *out = NULL;
    if (v == NULL || mv_jis_null(v))
        return MV_OK;
    if (!mv_jis_string(v))
        return mdl_fail(c, MV_EPARSE, loc, key, "expected a string, found %s", mv_json_type(v));
    *out = v;
    return MV_OK;
}

/* A schema under its camelCase or snake_case key (not both). Absent or null
 * gives NULL; a non-object fails. */
static int opt_schema(mdl_ctx *c, const mv_jv *tool, const char *camel, const char *snake,
                      const mdl_loc *loc, const mv_jv **out, const char **key_out) {
    const mv_jv *a = mv_jobject_get(tool, camel);
    const mv_jv *b = mv_jobject_get(tool, snake);
    *out = NULL;
    *key_out = camel;
    if (a != NULL && b != NULL)
        return mdl_fail(c, MV_EPARSE, loc, NULL,
                        "both \"%s\" and \"%s\" are present; a tool may carry only one", camel,
                        snake);
    const mv_jv *v = a != NULL ? a : b;
    const char *key = a != NULL ? camel : snake;
    if (v == NULL || mv_jis_null(v))
        return MV_OK;
    if (!mv_jis_object(v))
        return mdl_fail(c, MV_EPARSE, loc, key, "expected an object, found %s", mv_json_type(v));
    *out = v;
    *key_out = key;
    return MV_OK;
}

static uint32_t props_count(const mv_jv *schema) {
    const mv_jv *props = schema != NULL ? mv_jobject_get(schema, "properties") : NULL;
    return mv_jis_object(props) ? (uint32_t)mv_jobject_size(props) : 0;
}

static int walk_schema(mdl_ctx *c, const mv_jv *schema, const char *key, mv_schema_side side,
                       uint32_t base) {
    size_t saved = c->path_len;
    c->side = side;
    c->param_base = base;
    int rc = path_push_lit(c, key);
    if (rc == MV_OK)
        rc = build_params(c, schema, base);
    if (rc == MV_OK)
        rc = walk_value(c, schema, W_SCHEMA, MV_FIELD_SCHEMA_VALUE, 1, -1, NULL);
    path_pop(c, saved);
    c->side = MV_SCHEMA_NONE;
    return rc;
}

/* Tool keys handled explicitly (never scanned as "other" key names). */
static const mv_str tool_keys[] = {
    KW("_meta"),         KW("annotations"),  KW("description"), KW("icons"),
    KW("inputSchema"),   KW("input_schema"), KW("name"),        KW("outputSchema"),
    KW("output_schema"), KW("title"),
};

/* Keys whose values are walked as "other" without scanning the key name:
 * standard MCP members the model has no dedicated slot for. */
static bool walked_known_key(const char *k, size_t kl) {
    return str_eq(k, kl, "_meta") || str_eq(k, kl, "icons");
}

static int walk_others(mdl_ctx *c, const mv_jv *tool) {
    int rc = MV_OK;
    for (size_t m = 0; m < tool->n && rc == MV_OK; m++) {
        const char *k = tool->u.members[m].key;
        size_t kl = tool->u.members[m].key_len;
        bool known = in_sorted(tool_keys, N_OF(tool_keys), k, kl);
        if (known && !walked_known_key(k, kl))
            continue;
        size_t saved = c->path_len;
        rc = path_push_key(c, k, kl);
        if (rc == MV_OK && !known)
            rc = emit_raw(c, MV_FIELD_OTHER, -1, k, kl, NULL);
        if (rc == MV_OK)
            rc = walk_value(c, &tool->u.members[m].value, W_OTHER, MV_FIELD_OTHER, 1, -1, NULL);
        path_pop(c, saved);
    }
    return rc;
}

static int emit_member(mdl_ctx *c, const char *key, mv_field_kind kind, const mv_jv *v,
                       mv_str *keep) {
    size_t saved = c->path_len;
    int rc = path_push_lit(c, key);
    if (rc == MV_OK)
        rc = emit_raw(c, kind, -1, mv_jstring(v), mv_jstring_len(v), keep);
    path_pop(c, saved);
    return rc;
}

int mdl_build_tool(mdl_ctx *c, const mv_jv *tool, const mdl_loc *loc, mv_str server,
                   const mdl_extra_cap *extra, mv_tool *out) {
    int rc = MV_OK;
    const mv_jv *title = NULL, *desc = NULL, *in = NULL, *outs = NULL, *ann = NULL;
    const char *in_key = NULL, *out_key = NULL;

    if (!mv_jis_object(tool))
        return mdl_fail(c, MV_EPARSE, loc, NULL, "expected a tool object, found %s",
                        mv_json_type(tool));
    const mv_jv *name = mv_jobject_get(tool, "name");
    if (name == NULL)
        return mdl_fail(c, MV_EPARSE, loc, NULL, "the tool has no \"name\"");
    if (!mv_jis_string(name))
        return mdl_fail(c, MV_EPARSE, loc, "name", "expected a string, found %s",
                        mv_json_type(name));
    if (mv_jstring_len(name) == 0)
        return mdl_fail(c, MV_EPARSE, loc, "name", "the tool name must not be empty");
    if ((rc = opt_string(c, tool, "title", loc, &title)) != MV_OK ||
        (rc = opt_string(c, tool, "description", loc, &desc)) != MV_OK ||
        (rc = opt_schema(c, tool, "inputSchema", "input_schema", loc, &in, &in_key)) != MV_OK ||
        (rc = opt_schema(c, tool, "outputSchema", "output_schema", loc, &outs, &out_key)) != MV_OK)
        return rc;
    ann = mv_jobject_get(tool, "annotations");
    if (ann != NULL && !mv_jis_null(ann) && !mv_jis_object(ann))
        return mdl_fail(c, MV_EPARSE, loc, "annotations", "expected an object, found %s",
                        mv_json_type(ann));
    if (mv_jis_null(ann))
        ann = NULL;

    /* Per-tool state. */
    memset(out, 0, sizeof(*out));
    c->n_fields = 0;
    c->n_caps = 0;
    c->path_len = 0;
    c->n_strings = 0;
    c->fields_cap_index = -1;
    c->depth_cap_index = -1;
    c->side = MV_SCHEMA_NONE;
    c->params = NULL;
    uint32_t n_in = props_count(in), n_out = props_count(outs);
    c->n_params = n_in + n_out;
    if (c->n_params > 0) {
        c->params = mv_arena_calloc(c->arena, c->n_params, sizeof(*c->params));
        if (c->params == NULL)
            return MV_ENOMEM;
    }

    /* Fields in a fixed order: name, title, description, input schema,
     * output schema, annotations, then unknown keys in document order. */
    mv_str name_text = empty_str, title_text = empty_str, desc_text = empty_str;
    rc = emit_member(c, "name", MV_FIELD_NAME, name, &name_text);
    if (rc == MV_OK && title != NULL)
        rc = emit_member(c, "title", MV_FIELD_TITLE, title, &title_text);
    if (rc == MV_OK && desc != NULL)
        rc = emit_member(c, "description", MV_FIELD_DESCRIPTION, desc, &desc_text);
    if (rc == MV_OK && in != NULL)
        rc = walk_schema(c, in, in_key, MV_SCHEMA_INPUT, 0);
    if (rc == MV_OK && outs != NULL)
        rc = walk_schema(c, outs, out_key, MV_SCHEMA_OUTPUT, n_in);
    if (rc == MV_OK && ann != NULL) {
        size_t saved = c->path_len;
        rc = path_push_lit(c, "annotations");
        if (rc == MV_OK)
            rc = walk_value(c, ann, W_ANNOT_ROOT, MV_FIELD_ANNOTATION, 1, -1, NULL);
        path_pop(c, saved);
    }
    if (rc == MV_OK)
        rc = walk_others(c, tool);
    if (rc == MV_OK && extra != NULL)
        rc = add_cap_at(c, extra->cap, extra->limit, extra->observed,
                        (mv_str){extra->where, strlen(extra->where)}, NULL);
    if (rc != MV_OK)
        return rc;
    if (c->fields_cap_index >= 0)
        c->caps[c->fields_cap_index].observed = c->n_strings;

    /* Copy the scratch vectors out; fields[0] is the name (the cap is at
     * least 1 and the name is emitted first). */
    assert(c->n_fields >= 1 && c->fields[0].kind == MV_FIELD_NAME);
    mv_field *fields = mv_arena_alloc(c->arena, c->n_fields * sizeof(*fields));
    if (fields == NULL)
        return MV_ENOMEM;
    memcpy(fields, c->fields, c->n_fields * sizeof(*fields));
    mv_cap_hit *caps = NULL;
    if (c->n_caps > 0) {
        caps = mv_arena_alloc(c->arena, c->n_caps * sizeof(*caps));
        if (caps == NULL)
            return MV_ENOMEM;
        memcpy(caps, c->caps, c->n_caps * sizeof(*caps));
    }
    out->server = server;
    out->name = name_text;
    out->title = title_text;
    out->description = desc_text;
    out->fields = fields;
    out->n_fields = (uint32_t)c->n_fields;
    out->params = c->params;
    out->n_params = c->n_params;
    out->caps = caps;
    out->n_caps = (uint32_t)c->n_caps;
    out->source_index = c->source_index++;
    if (ann != NULL) {
        const mv_jv *ro = mv_jobject_get(ann, "readOnlyHint");
        const mv_jv *de = mv_jobject_get(ann, "destructiveHint");
        out->declared =
            (uint8_t)((ro != NULL && mv_jis(ro, MV_JTRUE) ? MV_DECLARED_READ_ONLY : 0u) |
                      (de != NULL && mv_jis(de, MV_JFALSE) ? MV_DECLARED_NOT_DESTRUCTIVE : 0u));
    }
    if (c->keep_definitions)
        return mdl_definition(c, name, title, desc, in, outs, ann, &out->definition);
    return MV_OK;
}
