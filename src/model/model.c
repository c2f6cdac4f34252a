/*
 * Tool model, document level: strict JSON parsing (json.c: duplicate keys
 * and invalid UTF-8 rejected), recognition of the accepted shapes (tools/list
 * result, bare tool array, JSON-RPC response, multi-server snapshot, labeled
 * corpus), corpus entry validation, error reporting with line/column or a
 * JSON path, and reading files or standard input under the document cap.
 * Each tool object is handed to walk.c, which flattens it.
 */
#define _DEFAULT_SOURCE /* madvise and MAP_ANONYMOUS on glibc with _POSIX_C_SOURCE */
#include "model_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* Shown when a document matches none of the shapes. */
#define SHAPES_SENTENCE                                                                            \
    "expected a tools/list result {\"tools\":[...]}, a JSON-RPC response whose \"result\" is "     \
    "one, a bare array of tools, a snapshot {\"servers\":[{\"name\":...,\"tools\":[...]}]} or "    \
    "a corpus {\"entries\":[...]}"

#define QUOTE_SRC 48             /* source bytes of untrusted text shown in messages */
#define FIRST_READ (64 * 1024)   /* bytes of the first read of a file or stream */
#define MDL_PARSE_THREADS_MAX 16 /* threads parsing one document */

/* ------------------------------------------------------------- errors */

static void format_where(char *dst, size_t cap, const mdl_loc *loc, const char *rel) {
    size_t o = 0;
    dst[0] = '\0';
    for (unsigned i = 0; loc != NULL && i < loc->n; i++) {
        const mdl_seg *s = &loc->seg[i];
        int w;
        if (s->key[0] != '\0')
            w = snprintf(dst + o, cap - o, "%s%s", o > 0 ? "." : "", s->key);
        else
            w = 0;
        if (w < 0 || (size_t)w >= cap - o)
            return;
        o += (size_t)w;
        if (s->index >= 0) {
            w = snprintf(dst + o, cap - o, "[%lld]", (long long)s->index);
            if (w < 0 || (size_t)w >= cap - o)
                return;
            o += (size_t)w;
        }
    }
    if (rel != NULL)
        snprintf(dst + o, cap - o, "%s%s", o > 0 ? "." : "", rel);
}

int mdl_fail(mdl_ctx *c, int code, const mdl_loc *loc, const char *rel, const char *fmt, ...) {
    c->err_set = true;
    if (c->err == NULL)
        return code;
    mv_error_clear(c->err);
    c->err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->message, sizeof(c->err->message), fmt, ap);
    va_end(ap);
    format_where(c->err->where, sizeof(c->err->where), loc, rel);
    return code;
}

/* Turn a parser error into mv_error: the parser knows the byte offset of
 * the culprit; line and column (in characters, 1-based) are only worked out
 * here, when there is an error to report. */
static int json_fail(mdl_ctx *c, const mv_jerror *je, const char *data, size_t len) {
    size_t off = je->offset <= len ? je->offset : len;
    int line = 1;
    size_t line_start = 0;
    for (const char *p = data, *end = data + off; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            break;
        line++;
        line_start = (size_t)(nl - data) + 1;
        p = nl + 1;
    }
    size_t chars = 0;
    for (size_t i = line_start; i < off; i++)
        chars += ((unsigned char)data[i] & 0xC0) != 0x80;
    int rc = mdl_fail(c, je->code, NULL, NULL, "%s", je->message);
    if (c->err != NULL && je->code == MV_EPARSE) {
        c->err->line = line;
        c->err->column = chars + 1 > (size_t)INT32_MAX ? INT32_MAX : (int)(chars + 1);
        c->err->offset = off;
    }
    return rc;
}

/* ------------------------------------------------------------- helpers */

static mdl_loc loc_make(const char *key, int64_t index) {
    mdl_loc l;
    memset(&l, 0, sizeof(l));
    l.seg[0] = (mdl_seg){key, index};
    l.n = 1;
    return l;
}

static mdl_loc loc_add(const mdl_loc *base, const char *key, int64_t index) {
    mdl_loc l = *base;
    if (l.n < MDL_LOC_MAX)
        l.seg[l.n++] = (mdl_seg){key, index};
    return l;
}

static bool mvstr_eq(mv_str a, mv_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static int arena_str(mdl_ctx *c, const char *s, size_t n, mv_str *out) {
    if (n == 0) {
        *out = (mv_str){"", 0};
        return MV_OK;
    }
    char *p = mv_arena_memdup(c->arena, s, n);
    if (p == NULL)
        return MV_ENOMEM;
    *out = (mv_str){p, n};
    return MV_OK;
}

enum { STR_OPTIONAL = 0, STR_REQUIRED = 1, STR_NONEMPTY = 2 };

/* A string member of `obj` (borrowed from jansson). Absent or null gives
 * MV_STR_NULL for optional members. */
static int get_string(mdl_ctx *c, const mv_jv *obj, const char *key, int flags, const mdl_loc *loc,
                      mv_str *out) {
    const mv_jv *v = mv_jobject_get(obj, key);
    *out = MV_STR_NULL;
    if (v == NULL || (mv_jis_null(v) && !(flags & STR_REQUIRED)))
        return (flags & STR_REQUIRED)
                   ? mdl_fail(c, MV_EPARSE, loc, NULL, "missing required key \"%s\"", key)
                   : MV_OK;
    if (!mv_jis_string(v))
        return mdl_fail(c, MV_EPARSE, loc, key, "expected a string, found %s", mv_json_type(v));
    if ((flags & STR_NONEMPTY) && mv_jstring_len(v) == 0)
        return mdl_fail(c, MV_EPARSE, loc, key, "\"%s\" must not be empty", key);
    *out = (mv_str){mv_jstring(v), mv_jstring_len(v)};
    return MV_OK;
}

static const mv_jv *get_array(mdl_ctx *c, const mv_jv *obj, const char *key, const mdl_loc *loc,
                              const char *what, int *rc) {
    const mv_jv *v = mv_jobject_get(obj, key);
    *rc = MV_OK;
    if (v == NULL) {
        *rc = mdl_fail(c, MV_EPARSE, loc, NULL, "missing required key \"%s\"", key);
        return NULL;
    }
    if (!mv_jis_array(v)) {
        *rc = mdl_fail(c, MV_EPARSE, loc, key, "expected an array of %s, found %s", what,
                       mv_json_type(v));
        return NULL;
    }
    return v;
}

/* Name + position, sorted to find duplicates without a hash table. */
typedef struct named {
    mv_str name;
    size_t index;
} named;

static int cmp_named(const void *a, const void *b) {
    const named *x = a, *y = b;
    size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
    int r = n > 0 ? memcmp(x->name.ptr, y->name.ptr, n) : 0;
    if (r != 0)
        return r;
    if (x->name.len != y->name.len)
        return x->name.len < y->name.len ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/* Find the duplicate whose second occurrence comes first in the document.
 * Returns true and the two positions when there is one. */
static bool find_duplicate(named *v, size_t n, size_t *first, size_t *second) {
    bool found = false;
    if (n < 2) /* also keeps a NULL array (no servers) away from qsort */
        return false;
    qsort(v, n, sizeof(*v), cmp_named);
    for (size_t i = 0; i + 1 < n; i++) {
        if (!mvstr_eq(v[i].name, v[i + 1].name))
            continue;
        /* v[i+1] is the second occurrence only when v[i] starts its run. */
        if (i > 0 && mvstr_eq(v[i - 1].name, v[i].name))
            continue;
        if (!found || v[i + 1].index < *second) {
            *first = v[i].index;
            *second = v[i + 1].index;
            found = true;
        }
    }
    return found;
}

/* Server name for a tools/list document: the option, else the source's
 * base name without its last extension ("-" is standard input). */
static mv_str derive_server(const char *source) {
    if (source == NULL || source[0] == '\0')
        return MV_STR_LIT("unnamed");
    if (strcmp(source, "-") == 0)
        return MV_STR_LIT("stdin");
    const char *base = strrchr(source, '/');
    base = base != NULL ? base + 1 : source;
    const char *dot = strrchr(base, '.');
    size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n == 0)
        return MV_STR_LIT("unnamed");
    return (mv_str){base, n};
}

/* --------------------------------------------------------------- shapes */

/* Queue the first `keep` items of `arr` as items of `kind` (build.c builds
 * them, in batches). */
static int build_tools(mdl_ctx *c, mv_toolset *set, const mv_jv *arr, const mdl_loc *base,
                       const char *key, mv_str server, size_t keep, const char *cap_where,
                       mv_item_kind kind) {
    size_t n = mv_jarray_size(arr);
    for (size_t i = 0; i < keep; i++) {
        mdl_loc loc = loc_add(base, key, (int64_t)i);
        mdl_extra_cap cap = {"tools_per_server", c->lim.max_tools_per_server, n, cap_where};
        bool last_over = i + 1 == keep && n > keep;
        int rc = mdl_build_queue(c, mv_jarray_get(arr, i), &loc, server, last_over ? &cap : NULL,
                                 kind, (uint32_t)set->n_tools);
        set->n_tools++;
        if (rc != MV_OK)
            return rc;
    }
    return MV_OK;
}

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

/* Shape 1: `arr` is the tools array found at base.key. */
static int parse_tools_list(mdl_ctx *c, mv_toolset *set, const mv_jv *arr, const mdl_loc *base,
                            const char *key, const char *source, const mv_model_options *opts) {
    mv_str server;
    int rc;
    if (!mv_jis_array(arr))
        return mdl_fail(c, MV_EPARSE, base, key, "expected an array of tools, found %s",
                        mv_json_type(arr));
    set->kind = MV_INPUT_TOOLS_LIST;
    mv_str name = opts != NULL && opts->server != NULL
                      ? (mv_str){opts->server, strlen(opts->server)}
                      : derive_server(source);
    if ((rc = arena_str(c, name.ptr, name.len, &server)) != MV_OK)
        return rc;
    size_t keep = min_size(mv_jarray_size(arr), c->lim.max_tools_per_server);
    if (keep > 0) {
        set->tools = mv_arena_calloc(c->arena, keep, sizeof(*set->tools));
        if (set->tools == NULL)
            return MV_ENOMEM;
    }
    return build_tools(c, set, arr, base, key, server, keep, "tools", MV_ITEM_TOOL);
}

/* The lists of a snapshot server and the item kind each one holds. */
static const struct {
    const char *key;
    mv_item_kind kind;
} item_lists[] = {
    {"tools", MV_ITEM_TOOL},
    {"prompts", MV_ITEM_PROMPT},
    {"resources", MV_ITEM_RESOURCE},
    {"resourceTemplates", MV_ITEM_RESOURCE_TEMPLATE},
};
#define ITEM_LISTS (sizeof item_lists / sizeof item_lists[0])

/* Optional metadata of a snapshot server: where it came from and how it
 * was reached (written by `mcpvet scan --save-snapshot`). */
static int parse_server_meta(mdl_ctx *c, const mv_jv *s, const mdl_loc *loc, mv_str name,
                             mv_server_meta *meta) {
    static const char *const keys[] = {"client", "config", "transport",
                                       "status", "reason", "protocolVersion"};
    mv_str *dst[] = {&meta->client, &meta->config, &meta->transport,
                     &meta->status, &meta->reason, &meta->protocol_version};
    memset(meta, 0, sizeof(*meta));
    meta->name = name;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        mv_str raw;
        int rc = get_string(c, s, keys[i], STR_OPTIONAL, loc, &raw);
        if (rc == MV_OK && raw.ptr != NULL)
            rc = arena_str(c, raw.ptr, raw.len, dst[i]);
        if (rc != MV_OK)
            return rc;
    }
    return MV_OK;
}

/* A server's `instructions` (initialize's result) reach the model like a
 * description, so a non-empty string becomes one item of kind
 * MV_ITEM_INSTRUCTIONS named "server_instructions", built from a two-member
 * object {"name": "server_instructions", "description": TEXT} made in the arena:
 * the same field walk, caps, pin and checks as any tool. */
static int build_instructions(mdl_ctx *c, mv_toolset *set, const mv_jv *s, const mdl_loc *loc,
                              mv_str server, mv_server_meta *meta) {
    static const char item_name[] = "server_instructions";
    const mv_jv *text = mv_jobject_get(s, "instructions");
    if (text == NULL || mv_jis_null(text))
        return MV_OK;
    if (!mv_jis_string(text))
        return mdl_fail(c, MV_EPARSE, loc, "instructions", "expected a string, found %s",
                        mv_json_type(text));
    if (mv_jstring_len(text) == 0)
        return MV_OK;
    mv_jm *members = mv_arena_calloc(c->arena, 2, sizeof(*members));
    mv_jv *obj = mv_arena_calloc(c->arena, 1, sizeof(*obj));
    if (members == NULL || obj == NULL)
        return MV_ENOMEM;
    members[0].key = "name";
    members[0].key_len = 4;
    members[0].value =
        (mv_jv){.type = MV_JSTRING, .n = (uint32_t)(sizeof item_name - 1), .u.s = item_name};
    members[1].key = "description";
    members[1].key_len = 11;
    members[1].value = *text;
    *obj = (mv_jv){.type = MV_JOBJECT, .n = 2, .u.members = members};
    mdl_loc here = loc_add(loc, "instructions", -1);
    int rc =
        mdl_build_queue(c, obj, &here, server, NULL, MV_ITEM_INSTRUCTIONS, (uint32_t)set->n_tools);
    set->n_tools++;
    meta->counts[MV_ITEM_INSTRUCTIONS] = 1;
    return rc;
}

/* Items a snapshot server can add (an upper bound: lists cut at the cap,
 * one for its instructions). */
static size_t server_items(const mdl_ctx *c, const mv_jv *srv) {
    size_t total = 1;
    for (size_t k = 0; k < ITEM_LISTS; k++)
        total += min_size(mv_jarray_size(mv_jobject_get(srv, item_lists[k].key)),
                          c->lim.max_tools_per_server);
    return total;
}

/* Server `i` of a snapshot: its name recorded for the duplicate check
 * (copied into `copies` when given: the chunked walk drops the tree), and
 * unless the filter leaves it out, its metadata and items queued. */
static int snapshot_server(mdl_ctx *c, mv_toolset *set, const mv_jv *s, size_t i,
                           const char *filter, named *names, size_t *n_names, bool *matched,
                           mv_arena *copies) {
    int rc;
    mdl_loc loc = loc_make("servers", (int64_t)i);
    mv_str name, server;
    const mv_jv *tools;
    if (!mv_jis_object(s))
        return mdl_fail(c, MV_EPARSE, &loc, NULL, "expected a server object, found %s",
                        mv_json_type(s));
    if ((rc = get_string(c, s, "name", STR_REQUIRED | STR_NONEMPTY, &loc, &name)) != MV_OK)
        return rc;
    if ((tools = get_array(c, s, "tools", &loc, "tools", &rc)) == NULL)
        return rc;
    mv_str kept = name;
    if (copies != NULL) {
        char *p = mv_arena_memdup(copies, name.ptr, name.len);
        if (p == NULL)
            return MV_ENOMEM;
        kept.ptr = p;
    }
    names[(*n_names)++] = (named){kept, i};
    if (filter != NULL && !mvstr_eq(name, (mv_str){filter, strlen(filter)}))
        return MV_OK;
    *matched = true;
    if ((rc = arena_str(c, name.ptr, name.len, &server)) != MV_OK)
        return rc;
    mv_server_meta *meta = &set->servers[set->n_servers++];
    if ((rc = parse_server_meta(c, s, &loc, server, meta)) != MV_OK)
        return rc;
    meta->first_tool = set->n_tools;
    size_t keep = min_size(mv_jarray_size(tools), c->lim.max_tools_per_server);
    rc = build_tools(c, set, tools, &loc, "tools", server, keep, "tools", MV_ITEM_TOOL);
    meta->counts[MV_ITEM_TOOL] = set->n_tools - meta->first_tool;
    /* Prompts and resources reach the model too (MCP client snapshots). */
    for (size_t k = 1; k < ITEM_LISTS && rc == MV_OK; k++) {
        const mv_jv *items = mv_jobject_get(s, item_lists[k].key);
        if (items == NULL || mv_jis_null(items))
            continue;
        if (!mv_jis_array(items)) {
            rc = mdl_fail(c, MV_EPARSE, &loc, item_lists[k].key,
                          "expected an array of %ss, found %s",
                          mv_item_kind_name(item_lists[k].kind), mv_json_type(items));
            break;
        }
        size_t first = set->n_tools;
        size_t kept_items = min_size(mv_jarray_size(items), c->lim.max_tools_per_server);
        rc = build_tools(c, set, items, &loc, item_lists[k].key, server, kept_items,
                         item_lists[k].key, item_lists[k].kind);
        meta->counts[item_lists[k].kind] = set->n_tools - first;
    }
    if (rc == MV_OK)
        rc = build_instructions(c, set, s, &loc, server, meta);
    meta->n_tools = set->n_tools - meta->first_tool;
    return rc;
}

/* After every server: a repeated server name, or a filter nothing matched. */
static int snapshot_end(mdl_ctx *c, named *names, size_t n_names, bool matched,
                        const char *filter) {
    size_t first, second;
    if (find_duplicate(names, n_names, &first, &second)) {
        char q[MV_JSON_QUOTE_SIZE(QUOTE_SRC)];
        mdl_loc loc = loc_make("servers", (int64_t)second);
        mv_str nm = MV_STR_NULL;
        for (size_t k = 0; k < n_names; k++)
            if (names[k].index == second)
                nm = names[k].name;
        mv_json_quote(q, nm.ptr, nm.len, QUOTE_SRC);
        return mdl_fail(c, MV_EPARSE, &loc, "name",
                        "duplicate server name %s (first at servers[%zu])", q, first);
    }
    if (filter != NULL && !matched) {
        char q[MV_JSON_QUOTE_SIZE(QUOTE_SRC)];
        mv_json_quote(q, filter, strlen(filter), QUOTE_SRC);
        return mdl_fail(c, MV_EINVAL, NULL, NULL, "the snapshot has no server named %s", q);
    }
    return MV_OK;
}

static int parse_snapshot(mdl_ctx *c, mv_toolset *set, const mv_jv *servers, const char *filter) {
    int rc = MV_OK;
    named *names = NULL;
    size_t n = mv_jarray_size(servers), n_names = 0, total = 0;
    bool matched = false;
    mdl_loc root = {{{"", -1}}, 0};

    set->kind = MV_INPUT_SNAPSHOT;
    if (!mv_jis_array(servers))
        return mdl_fail(c, MV_EPARSE, &root, "servers", "expected an array of servers, found %s",
                        mv_json_type(servers));
    /* Upper bound of kept items, so the tool array is one allocation. */
    for (size_t i = 0; i < n; i++)
        total += server_items(c, mv_jarray_get(servers, i));
    if (n > 0) {
        set->servers = mv_arena_calloc(c->arena, n, sizeof(*set->servers));
        if (set->servers == NULL)
            return MV_ENOMEM;
    }
    if (total > 0) {
        set->tools = mv_arena_calloc(c->arena, total, sizeof(*set->tools));
        if (set->tools == NULL)
            return MV_ENOMEM;
    }
    if (n > 0) {
        names = mv_alloc(c->alloc, n * sizeof(*names));
        if (names == NULL)
            return MV_ENOMEM;
    }
    for (size_t i = 0; i < n && rc == MV_OK; i++)
        rc = snapshot_server(c, set, mv_jarray_get(servers, i), i, filter, names, &n_names,
                             &matched, NULL);
    if (rc == MV_OK)
        rc = snapshot_end(c, names, n_names, matched, filter);
    mv_free(c->alloc, names, n * sizeof(*names));
    return rc;
}

/* Grow a heap array of `size`-byte elements to hold `need` (chunked walk),
 * zeroing the elements [used, need) about to be filled: only those pages
 * are touched, not the capacity beyond. */
static int grow_heap(const mv_allocator *a, void **arr, size_t *cap, size_t used, size_t need,
                     size_t size) {
    if (need > *cap) {
        size_t ncap = *cap < 1024 ? 1024 : *cap;
        while (ncap < need)
            ncap = ncap > SIZE_MAX / 4 ? need : ncap + ncap / 2;
        if (ncap > SIZE_MAX / size)
            return MV_ENOMEM;
        void *p = mv_realloc(a, *arr, *cap * size, ncap * size);
        if (p == NULL)
            return MV_ENOMEM;
        *arr = p;
        *cap = ncap;
    }
    if (need > used)
        memset((char *)*arr + used * size, 0, (need - used) * size);
    return MV_OK;
}

/* Give back the input pages before byte `upto` (the runs before it are
 * built and their trees dropped): they no longer count in the resident
 * set. Best effort: a failing madvise leaves them where they are. */
static void input_release(mdl_input *in, size_t upto) {
    if (in == NULL)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    size_t end = upto - upto % (size_t)page;
    if (end > in->released &&
        madvise(in->buf + in->released, end - in->released, MADV_DONTNEED) == 0)
        in->released = end;
}

/* Read the given-back pages from the file again (a one-pass parse follows
 * and needs the whole document). Returns 0 or MV_EIO. */
static int input_restore(mdl_input *in) {
    size_t at = 0;
    if (in == NULL)
        return MV_OK;
    while (at < in->released) {
        ssize_t got = pread(in->fd, in->buf + at, in->released - at, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return MV_EIO;
        at += (size_t)got;
    }
    in->released = 0;
    return MV_OK;
}

/* Bytes of runs [first, first + count): from the first run's first item
 * to the end of the last's last item. */
static void group_bytes(const mv_json_chunks *ch, size_t first, size_t count, size_t *b,
                        size_t *e) {
    size_t last = first + count - 1;
    *b = first == 0 ? ch->arr_begin + 1 : ch->cuts[first - 1] + 1;
    *e = last + 1 < ch->n ? ch->cuts[last] : ch->arr_end - 1;
}

/* Record a group of the first pass of a slim set. */
static int group_add(mdl_rewalk *rw, const mv_json_chunks *ch, const char *data, size_t first,
                     size_t count, size_t server_base, size_t tool_begin, size_t tool_end) {
    if (rw->n_groups == rw->cap_groups) {
        size_t cap = rw->cap_groups < 16 ? 16 : rw->cap_groups * 2;
        mdl_group *g =
            mv_realloc(rw->alloc, rw->groups, rw->cap_groups * sizeof(*g), cap * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        rw->groups = g;
        rw->cap_groups = cap;
    }
    mdl_group *g = &rw->groups[rw->n_groups++];
    g->first_run = first;
    g->count = count;
    g->server_base = server_base;
    g->tool_begin = tool_begin;
    g->tool_end = tool_end;
    group_bytes(ch, first, count, &g->byte_begin, &g->byte_end);
    g->hash = mdl_hash_bytes(data + g->byte_begin, g->byte_end - g->byte_begin);
    return MV_OK;
}

/*
 * A large snapshot, walked a few runs of servers at a time (mv_json_chunks):
 * the runs are parsed (on `threads` threads), their servers walked and
 * their tools built exactly as parse_snapshot does, and then their tree is
 * dropped, so the whole document's tree never exists at once. Tools and
 * servers go into heap arrays that grow (set->heap_*). A walk or build
 * error stops the walk, but the rest of the document is still parsed: any
 * JSON error anywhere sets *retry (the caller then parses the document in
 * one pass, which reports the error it would have reported). Returns the
 * first error in document order, as parse_snapshot would.
 */
static int parse_snapshot_chunked(mdl_ctx *c, mv_toolset *set, const char *data,
                                  const mv_json_chunks *ch, unsigned threads, size_t block,
                                  const char *filter, bool *retry, mdl_rewalk *rw) {
    int rc = MV_OK, walk = MV_OK;
    mv_arena *arenas[MDL_PARSE_THREADS_MAX];
    mv_arena *copies = mv_arena_new(c->alloc, 0);
    named *names = NULL;
    size_t cap_names = 0, n_names = 0, base = 0, made = 0;
    bool matched = false;
    mv_jerror je;

    *retry = false;
    set->kind = MV_INPUT_SNAPSHOT;
    if (threads < 1)
        threads = 1;
    if (threads > MDL_PARSE_THREADS_MAX)
        threads = MDL_PARSE_THREADS_MAX;
    if (copies == NULL)
        return MV_ENOMEM;
    for (; made < threads; made++) {
        arenas[made] = mv_arena_new(c->alloc, block);
        if (arenas[made] == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
    }
    for (size_t first = 0; first < ch->n; first += threads) {
        size_t count = ch->n - first < threads ? ch->n - first : threads;
        const mv_jv *items = NULL;
        size_t n = 0;
        int prc = mv_json_chunks_items(&items, &n, arenas, count, c->alloc, data, ch, first, &je);
        if (prc == MV_ENOMEM) {
            rc = MV_ENOMEM;
            goto done;
        }
        if (prc != MV_OK) {
            *retry = true;
            goto done;
        }
        size_t tools_before = set->n_tools;
        if (walk == MV_OK) {
            size_t total = 0;
            for (size_t i = 0; i < n; i++)
                total += server_items(c, &items[i]);
            if (grow_heap(c->alloc, (void **)&set->tools, &set->heap_tools, set->n_tools,
                          set->n_tools + total, sizeof(*set->tools)) != MV_OK ||
                grow_heap(c->alloc, (void **)&set->servers, &set->heap_servers, set->n_servers,
                          set->n_servers + n, sizeof(*set->servers)) != MV_OK ||
                grow_heap(c->alloc, (void **)&names, &cap_names, n_names, n_names + n,
                          sizeof(*names)) != MV_OK) {
                rc = MV_ENOMEM;
                goto done;
            }
            for (size_t i = 0; i < n && walk == MV_OK; i++)
                walk = snapshot_server(c, set, &items[i], base + i, filter, names, &n_names,
                                       &matched, copies);
            /* Build what this run queued before its tree goes: a tool
             * failing there came before the walk's own error. */
            int brc = mdl_build_flush(c);
            if (brc != MV_OK)
                walk = brc;
            if (walk == MV_OK && rw != NULL &&
                (rc = group_add(rw, ch, data, first, count, base, tools_before, set->n_tools)) !=
                    MV_OK)
                goto done;
        }
        base += n;
        for (size_t k = 0; k < count; k++)
            mv_arena_reset(arenas[k]);
        /* Those runs' bytes are done with too (tools copy their text). */
        input_release(c->input, first + count < ch->n ? ch->cuts[first + count - 1] : 0);
    }
    if (walk == MV_OK)
        walk = snapshot_end(c, names, n_names, matched, filter);
    rc = walk;
done:
    for (size_t k = 0; k < made; k++)
        mv_arena_free(arenas[k]);
    mv_arena_free(copies);
    mv_free(c->alloc, names, cap_names * sizeof(*names));
    return rc;
}

/* Entry strings copied into the arena (absent optional ones stay empty). */
static int copy_entry_strings(mdl_ctx *c, mv_corpus_entry *e, const mv_str raw[7]) {
    mv_str *dst[7] = {&e->id,     &e->category, &e->resembles, &e->provenance,
                      &e->family, &e->variant,  &e->expected};
    for (int i = 0; i < 7; i++) {
        int rc = arena_str(c, raw[i].ptr, raw[i].len, dst[i]);
        if (rc != MV_OK)
            return rc;
    }
    e->label = e->malicious ? MV_STR_LIT("malicious") : MV_STR_LIT("benign");
    return MV_OK;
}

static int parse_entry(mdl_ctx *c, mv_toolset *set, const mv_jv *e, size_t i, const char *filter,
                       named *ids, size_t *n_ids) {
    int rc;
    mdl_loc loc = loc_make("entries", (int64_t)i);
    mv_str raw[7], label, server_raw, server;
    char q[MV_JSON_QUOTE_SIZE(QUOTE_SRC)], ql[MV_JSON_QUOTE_SIZE(QUOTE_SRC)];

    if (!mv_jis_object(e))
        return mdl_fail(c, MV_EPARSE, &loc, NULL, "expected a corpus entry object, found %s",
                        mv_json_type(e));
    if ((rc = get_string(c, e, "id", STR_REQUIRED | STR_NONEMPTY, &loc, &raw[0])) != MV_OK ||
        (rc = get_string(c, e, "label", STR_REQUIRED, &loc, &label)) != MV_OK)
        return rc;
    mv_json_quote(q, raw[0].ptr, raw[0].len, QUOTE_SRC);
    bool malicious = mvstr_eq(label, MV_STR_LIT("malicious"));
    if (!malicious && !mvstr_eq(label, MV_STR_LIT("benign"))) {
        mv_json_quote(ql, label.ptr, label.len, QUOTE_SRC);
        return mdl_fail(c, MV_EPARSE, &loc, "label",
                        "entry %s: label must be \"malicious\" or \"benign\", found %s", q, ql);
    }
    if ((rc = get_string(c, e, "category", STR_REQUIRED, &loc, &raw[1])) != MV_OK ||
        (rc = get_string(c, e, "resembles", STR_OPTIONAL, &loc, &raw[2])) != MV_OK ||
        (rc = get_string(c, e, "provenance", STR_OPTIONAL, &loc, &raw[3])) != MV_OK ||
        (rc = get_string(c, e, "family", STR_OPTIONAL, &loc, &raw[4])) != MV_OK ||
        (rc = get_string(c, e, "variant", STR_OPTIONAL, &loc, &raw[5])) != MV_OK ||
        (rc = get_string(c, e, "expected", STR_OPTIONAL, &loc, &raw[6])) != MV_OK ||
        (rc = get_string(c, e, "server", STR_REQUIRED | STR_NONEMPTY, &loc, &server_raw)) != MV_OK)
        return rc;
    const mv_jv *tool = mv_jobject_get(e, "tool");
    if (tool == NULL)
        return mdl_fail(c, MV_EPARSE, &loc, NULL, "entry %s has no \"tool\"", q);
    const mv_jv *peers = mv_jobject_get(e, "peers");
    if (mv_jis_null(peers))
        peers = NULL;
    if (peers != NULL && !mv_jis_array(peers))
        return mdl_fail(c, MV_EPARSE, &loc, "peers", "expected an array of peers, found %s",
                        mv_json_type(peers));
    if (filter != NULL && !mvstr_eq(server_raw, (mv_str){filter, strlen(filter)}))
        return MV_OK;

    ids[*n_ids] = (named){raw[0], i};
    mv_corpus_entry *ent = &set->entries[set->n_entries];
    memset(ent, 0, sizeof(*ent));
    ent->malicious = malicious;
    if ((rc = copy_entry_strings(c, ent, raw)) != MV_OK ||
        (rc = arena_str(c, server_raw.ptr, server_raw.len, &server)) != MV_OK)
        return rc;

    /* The entry tool and its peers form one registry: the per-server tool
     * cap bounds them together. */
    size_t n_peers = mv_jarray_size(peers);
    size_t keep = min_size(n_peers, c->lim.max_tools_per_server - 1);
    bool over = n_peers > keep;
    mdl_extra_cap cap = {"tools_per_server", c->lim.max_tools_per_server, n_peers + 1, "peers"};
    mdl_loc tloc = loc_add(&loc, "tool", -1);
    ent->tool = (uint32_t)set->n_tools;
    rc = mdl_build_queue(c, tool, &tloc, server, over && keep == 0 ? &cap : NULL, MV_ITEM_TOOL,
                         (uint32_t)set->n_tools);
    set->n_tools++;
    if (rc != MV_OK)
        return rc;
    ent->first_peer = (uint32_t)set->n_tools;
    for (size_t p = 0; p < keep; p++) {
        const mv_jv *peer = mv_jarray_get(peers, p);
        mdl_loc ploc = loc_add(&loc, "peers", (int64_t)p);
        mv_str pserver_raw, pserver;
        if (!mv_jis_object(peer))
            return mdl_fail(c, MV_EPARSE, &ploc, NULL, "expected a peer object, found %s",
                            mv_json_type(peer));
        if ((rc = get_string(c, peer, "server", STR_REQUIRED | STR_NONEMPTY, &ploc,
                             &pserver_raw)) != MV_OK)
            return rc;
        const mv_jv *ptool = mv_jobject_get(peer, "tool");
        if (ptool == NULL)
            return mdl_fail(c, MV_EPARSE, &ploc, NULL, "missing required key \"tool\"");
        if (mvstr_eq(pserver_raw, server_raw))
            pserver = server;
        else if ((rc = arena_str(c, pserver_raw.ptr, pserver_raw.len, &pserver)) != MV_OK)
            return rc;
        mdl_loc ptloc = loc_add(&ploc, "tool", -1);
        rc = mdl_build_queue(c, ptool, &ptloc, pserver, over && p + 1 == keep ? &cap : NULL,
                             MV_ITEM_TOOL, (uint32_t)set->n_tools);
        set->n_tools++;
        if (rc != MV_OK)
            return rc;
        ent->n_peers++;
    }
    (*n_ids)++;
    set->n_entries++;
    return MV_OK;
}

static int parse_corpus(mdl_ctx *c, mv_toolset *set, const mv_jv *entries, const char *filter) {
    int rc = MV_OK;
    named *ids = NULL;
    size_t n = mv_jarray_size(entries), n_ids = 0, total = 0;
    mdl_loc root = {{{"", -1}}, 0};

    set->kind = MV_INPUT_CORPUS;
    if (!mv_jis_array(entries))
        return mdl_fail(c, MV_EPARSE, &root, "entries",
                        "expected an array of corpus entries, found %s", mv_json_type(entries));
    for (size_t i = 0; i < n; i++) {
        const mv_jv *peers = mv_jobject_get(mv_jarray_get(entries, i), "peers");
        total += 1 + min_size(mv_jarray_size(peers), c->lim.max_tools_per_server - 1);
    }
    if (n > 0) {
        set->tools = mv_arena_calloc(c->arena, total, sizeof(*set->tools));
        set->entries = mv_arena_calloc(c->arena, n, sizeof(*set->entries));
        ids = mv_alloc(c->alloc, n * sizeof(*ids));
        if (set->tools == NULL || set->entries == NULL || ids == NULL)
            rc = MV_ENOMEM;
    }
    for (size_t i = 0; i < n && rc == MV_OK; i++)
        rc = parse_entry(c, set, mv_jarray_get(entries, i), i, filter, ids, &n_ids);
    size_t first, second;
    if (rc == MV_OK && find_duplicate(ids, n_ids, &first, &second)) {
        char q[MV_JSON_QUOTE_SIZE(QUOTE_SRC)];
        mdl_loc loc = loc_make("entries", (int64_t)second);
        const mv_jv *id = mv_jobject_get(mv_jarray_get(entries, second), "id");
        mv_json_quote(q, mv_jstring(id), mv_jstring_len(id), QUOTE_SRC);
        rc = mdl_fail(c, MV_EPARSE, &loc, "id", "duplicate entry id %s (first at entries[%zu])", q,
                      first);
    }
    if (rc == MV_OK && filter != NULL && set->n_entries == 0 && n > 0) {
        char q[MV_JSON_QUOTE_SIZE(QUOTE_SRC)];
        mv_json_quote(q, filter, strlen(filter), QUOTE_SRC);
        rc = mdl_fail(c, MV_EINVAL, NULL, NULL, "the corpus has no entry for server %s", q);
    }
    mv_free(c->alloc, ids, n * sizeof(*ids));
    return rc;
}

static int parse_document(mdl_ctx *c, mv_toolset *set, const mv_jv *doc, const char *source,
                          const mv_model_options *opts) {
    const char *filter = opts != NULL ? opts->server : NULL;
    mdl_loc root = {{{"", -1}}, 0};
    if (mv_jis_array(doc))
        return parse_tools_list(c, set, doc, &root, "", source, opts);
    if (!mv_jis_object(doc))
        return mdl_fail(c, MV_EPARSE, NULL, NULL, "unrecognized document: %s", SHAPES_SENTENCE);
    const mv_jv *tools = mv_jobject_get(doc, "tools");
    const mv_jv *servers = mv_jobject_get(doc, "servers");
    const mv_jv *entries = mv_jobject_get(doc, "entries");
    int present = (tools != NULL) + (servers != NULL) + (entries != NULL);
    if (present > 1)
        return mdl_fail(c, MV_EPARSE, NULL, NULL,
                        "ambiguous document: it has more than one of \"tools\", \"servers\" and "
                        "\"entries\"");
    if (entries != NULL)
        return parse_corpus(c, set, entries, filter);
    if (servers != NULL)
        return parse_snapshot(c, set, servers, filter);
    if (tools != NULL)
        return parse_tools_list(c, set, tools, &root, "tools", source, opts);
    if (mv_jobject_get(doc, "jsonrpc") != NULL) {
        const mv_jv *result = mv_jobject_get(doc, "result");
        if (mv_jobject_get(doc, "error") != NULL)
            return mdl_fail(c, MV_EPARSE, &root, "error",
                            "the document is a JSON-RPC error response, not a tools/list result");
        if (result == NULL)
            return mdl_fail(c, MV_EPARSE, NULL, NULL, "the JSON-RPC response has no \"result\"; %s",
                            SHAPES_SENTENCE);
        if (!mv_jis_object(result))
            return mdl_fail(c, MV_EPARSE, &root, "result", "expected an object, found %s",
                            mv_json_type(result));
        mdl_loc rloc = loc_make("result", -1);
        const mv_jv *rtools = mv_jobject_get(result, "tools");
        if (rtools == NULL)
            return mdl_fail(c, MV_EPARSE, &rloc, NULL,
                            "the JSON-RPC result has no \"tools\" array (is it a tools/list "
                            "response?)");
        return parse_tools_list(c, set, rtools, &rloc, "tools", source, opts);
    }
    return mdl_fail(c, MV_EPARSE, NULL, NULL, "unrecognized document: %s", SHAPES_SENTENCE);
}

/* ------------------------------------------------------------------ API */

static mv_model_limits resolve_limits(const mv_model_options *opts) {
    mv_model_limits l = {0, 0, 0, 0, 0};
    if (opts != NULL)
        l = opts->limits;
    if (l.max_document_bytes == 0)
        l.max_document_bytes = MV_DEFAULT_MAX_DOCUMENT_BYTES;
    if (l.max_field_bytes == 0)
        l.max_field_bytes = MV_DEFAULT_MAX_FIELD_BYTES;
    if (l.max_schema_depth == 0)
        l.max_schema_depth = MV_DEFAULT_MAX_SCHEMA_DEPTH;
    if (l.max_tools_per_server == 0)
        l.max_tools_per_server = MV_DEFAULT_MAX_TOOLS_PER_SERVER;
    if (l.max_fields_per_tool == 0)
        l.max_fields_per_tool = MV_DEFAULT_MAX_FIELDS_PER_TOOL;
    return l;
}

static const mv_allocator *resolve_alloc(const mv_model_options *opts) {
    return opts != NULL && opts->allocator != NULL ? opts->allocator : mv_allocator_default();
}

static void set_source(mv_error *err, const char *source) {
    if (err == NULL)
        return;
    const char *shown = source == NULL ? "" : strcmp(source, "-") == 0 ? "<stdin>" : source;
    snprintf(err->source, sizeof(err->source), "%s", shown);
}

/* parse_chunked: the document is not a snapshot that can be walked in runs. */
#define MDL_NOT_CHUNKED 1

/* The tool set's own arena and record (as mv_model_parse makes them). */
static int new_set(mdl_ctx *c, mv_toolset **out, size_t len, const char *source,
                   size_t *block_out) {
    size_t block = len / 2;
    block = block < 64 * 1024 ? 64 * 1024 : block > 8u * 1024 * 1024 ? 8u * 1024 * 1024 : block;
    *out = NULL;
    *block_out = block;
    c->arena = mv_arena_new(c->alloc, block);
    if (c->arena == NULL)
        return MV_ENOMEM;
    mv_toolset *set = mv_arena_calloc(c->arena, 1, sizeof(*set));
    if (set == NULL)
        return MV_ENOMEM;
    set->arena = c->arena;
    set->alloc = c->alloc;
    *out = set;
    return arena_str(c, source != NULL ? source : "", source != NULL ? strlen(source) : 0,
                     &set->source);
}

/* Give back the pages wholly inside [b, e) of a slim set's mapping. */
static void rewalk_release(mdl_rewalk *rw, size_t b, size_t e) {
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    size_t pb = (b + (size_t)page - 1) / (size_t)page * (size_t)page;
    size_t pe = e - e % (size_t)page;
    if (pe > pb)
        (void)madvise(rw->buf + pb, pe - pb, MADV_DONTNEED);
}

static void rewalk_drop(mdl_rewalk *rw) {
    for (size_t i = 0; i < rw->n_held; i++)
        mv_arena_free(rw->held[i]);
    rw->n_held = 0;
}

static size_t fetch_join(mdl_rewalk *rw);
static void fetch_start(mdl_rewalk *rw, size_t gi);

static void rewalk_free(mdl_rewalk *rw) {
    if (rw == NULL)
        return;
    fetch_join(rw);
    rewalk_drop(rw);
    mv_free(rw->alloc, rw->held, rw->cap_held * sizeof(*rw->held));
    mv_free(rw->alloc, rw->saved, rw->cap_saved * sizeof(*rw->saved));
    mv_free(rw->alloc, rw->groups, rw->cap_groups * sizeof(*rw->groups));
    if (rw->source != NULL)
        mv_free(rw->alloc, rw->source, strlen(rw->source) + 1);
    if (rw->filter != NULL)
        mv_free(rw->alloc, rw->filter, strlen(rw->filter) + 1);
    mv_json_chunks_free(&rw->ch, rw->alloc);
    if (rw->buf != NULL)
        munmap(rw->buf, rw->cap);
    if (rw->fd >= 0)
        close(rw->fd);
    mv_free(rw->alloc, rw, sizeof(*rw));
}

/*
 * A snapshot larger than the chunk size, walked run by run. Returns
 * MDL_NOT_CHUNKED (nothing done, nothing kept) when the document is not a
 * plain snapshot whose "servers" array can be cut, or when any piece fails
 * to parse (the one-pass path then reports exactly what it always did);
 * else what mv_model_parse returns, with *out set on success.
 */
static int parse_chunked(mdl_ctx *c, mv_toolset **out, const char *data, size_t len,
                         const char *source, const mv_model_options *opts, unsigned jobs,
                         size_t chunk) {
    int rc = MDL_NOT_CHUNKED;
    mv_json_chunks ch;
    mv_jerror je;
    mv_arena *outer = NULL;
    const mv_jv *root = NULL;
    mv_toolset *set = NULL;
    mdl_rewalk *rw = NULL;
    bool retry = false;
    /* Runs of a quarter chunk, `jobs` of them at a time. */
    size_t run = chunk / 4 > 0 ? chunk / 4 : 1;
    int prc = mv_json_chunks_plan(&ch, c->alloc, data, len, run);
    if (prc != MV_OK)
        return prc == MV_ENOMEM ? MV_ENOMEM : MDL_NOT_CHUNKED;
    outer = mv_arena_new(c->alloc, 0);
    if (outer == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (ch.depth != 2)
        goto done;
    prc = mv_json_chunks_outer(&root, outer, c->alloc, data, len, &ch, &je);
    if (prc == MV_ENOMEM)
        rc = MV_ENOMEM;
    if (prc != MV_OK)
        goto done;
    /* Only a plain snapshot: "servers" is the array cut, and no other shape
     * member makes the document ambiguous. */
    if (!mv_jis_object(root) || ch.member >= root->n || root->u.members[ch.member].key_len != 7 ||
        memcmp(root->u.members[ch.member].key, "servers", 7) != 0 ||
        mv_jobject_get(root, "tools") != NULL || mv_jobject_get(root, "entries") != NULL)
        goto done;
    size_t block = 0;
    if ((rc = new_set(c, &set, len, source, &block)) != MV_OK ||
        (rc = mdl_build_new(c, set, opts != NULL ? opts->jobs : 1, block)) != MV_OK)
        goto failed;
    /* Slim: only from a file whose runs can be read again. */
    if (opts != NULL && opts->slim && !opts->keep_definitions && c->input != NULL) {
        rw = mv_calloc(c->alloc, 1, sizeof(*rw));
        if (rw == NULL) {
            rc = MV_ENOMEM;
            goto failed;
        }
        rw->alloc = c->alloc;
        rw->fd = -1;
        rw->cur = SIZE_MAX;
        mdl_build_slim(c);
    }
    rc = parse_snapshot_chunked(c, set, data, &ch, jobs, chunk / 2,
                                opts != NULL ? opts->server : NULL, &retry, rw);
    if (retry) {
        /* The one pass needs the whole document again. */
        rc = input_restore(c->input) == MV_OK
                 ? MDL_NOT_CHUNKED
                 : mdl_fail(c, MV_EIO, NULL, NULL, "cannot read '%s' again: %s",
                            source != NULL ? source : "", strerror(errno));
        goto failed;
    }
    int brc = mdl_build_flush(c);
    if (brc != MV_OK)
        rc = brc;
    if (rc == MV_OK)
        rc = mdl_build_adopt(c);
    if (rc != MV_OK)
        goto failed;
    for (size_t i = 0; i < set->n_tools; i++)
        set->n_caps += set->tools[i].n_caps;
    if (rw != NULL) {
        const char *filter = opts->server;
        rw->lim = c->lim;
        rw->threads = jobs;
        rw->jobs = opts->jobs;
        rw->block = chunk / 2;
        rw->tool_block = block;
        rw->source = mv_alloc(c->alloc, strlen(source != NULL ? source : "") + 1);
        rw->filter = filter != NULL ? mv_alloc(c->alloc, strlen(filter) + 1) : NULL;
        rw->fd = dup(c->input->fd);
        if (rw->source == NULL || (filter != NULL && rw->filter == NULL) || rw->fd < 0) {
            rc = MV_ENOMEM;
            goto failed;
        }
        strcpy(rw->source, source != NULL ? source : "");
        if (filter != NULL)
            strcpy(rw->filter, filter);
        /* The set takes the plan and the mapping (its pages given back as
         * the runs are read again). */
        rw->ch = ch;
        memset(&ch, 0, sizeof(ch));
        rw->buf = c->input->buf;
        rw->cap = c->input->cap;
        rw->len = c->input->len;
        c->input->adopted = true;
        input_release(c->input, c->input->len);
        set->rewalk = rw;
        /* The first group is read again while the registry is built. */
        fetch_start(rw, 0);
        rw = NULL;
    }
    *out = set;
    goto done;
failed:
    /* Nothing of the attempt survives: neither the set nor an error of a
     * walk that the one-pass parse will redo. */
    mdl_build_free(c);
    if (set != NULL)
        mv_toolset_free(set);
    else
        mv_arena_free(c->arena);
    c->arena = NULL;
    if (rc == MDL_NOT_CHUNKED) {
        c->err_set = false;
        if (c->err != NULL)
            mv_error_clear(c->err);
    }
done:
    rewalk_free(rw);
    mv_arena_free(outer);
    mv_json_chunks_free(&ch, c->alloc);
    return rc;
}

static int model_parse(mv_toolset **out, const char *data, size_t len, const char *source,
                       const mv_model_options *opts, mv_error *err, mdl_input *input) {
    int rc = MV_OK;
    const mv_jv *doc = NULL;
    mv_toolset *set = NULL;
    mv_arena *dom = NULL; /* the parsed tree, dropped once tools are built */
    mv_arena *dom_more[MDL_PARSE_THREADS_MAX - 1]; /* ... and its other threads' parts */
    size_t n_dom_more = 0;
    mv_jerror je;
    mdl_ctx c;

    memset(&c, 0, sizeof(c));
    c.err = err;
    c.alloc = resolve_alloc(opts);
    c.lim = resolve_limits(opts);
    c.keep_definitions = opts != NULL && opts->keep_definitions;
    c.input = input;
    mv_buf_init(&c.def, c.alloc);
    if (out != NULL)
        *out = NULL;
    if (out == NULL || (data == NULL && len > 0)) {
        rc = mdl_fail(&c, MV_EINVAL, NULL, NULL, "mv_model_parse needs an output and data");
        goto done;
    }
    if (opts != NULL && opts->server != NULL && opts->server[0] == '\0') {
        rc = mdl_fail(&c, MV_EINVAL, NULL, NULL, "the server name must not be empty");
        goto done;
    }
    if ((uint64_t)len > c.lim.max_document_bytes) {
        rc = mdl_fail(&c, MV_ELIMIT, NULL, NULL,
                      "the document is %zu bytes, over the max_document_bytes limit of %llu "
                      "bytes",
                      len, (unsigned long long)c.lim.max_document_bytes);
        goto done;
    }
    if (len == 0) {
        rc = mdl_fail(&c, MV_EPARSE, NULL, NULL, "the document is empty");
        if (err != NULL) {
            err->line = 1;
            err->column = 1;
        }
        goto done;
    }
    /* The tree holds 16 bytes per value plus decoded copies of escaped
     * strings; plain strings stay in `data`. */
    size_t dom_block = len / 2;
    dom_block = dom_block < 64 * 1024           ? 64 * 1024
                : dom_block > 64u * 1024 * 1024 ? 64u * 1024 * 1024
                                                : dom_block;
    dom = mv_arena_new(c.alloc, dom_block);
    if (dom == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    /* With several jobs the document is parsed on that many threads too. */
    unsigned jobs = opts != NULL && opts->jobs > 1 ? opts->jobs : 1;
    if (jobs > MDL_PARSE_THREADS_MAX)
        jobs = MDL_PARSE_THREADS_MAX;
    /* A large snapshot: walked run by run (parse_snapshot_chunked). */
    size_t chunk =
        opts != NULL && opts->chunk_bytes > 0 ? opts->chunk_bytes : MV_DEFAULT_CHUNK_BYTES;
    if (len > chunk) {
        rc = parse_chunked(&c, &set, data, len, source, opts, jobs, chunk);
        if (rc == MV_OK)
            *out = set;
        if (rc != MDL_NOT_CHUNKED)
            goto done;
        rc = MV_OK;
        set = NULL;
    }
    for (; n_dom_more + 1 < jobs; n_dom_more++) {
        dom_more[n_dom_more] = mv_arena_new(c.alloc, dom_block / jobs);
        if (dom_more[n_dom_more] == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
    }
    if (mv_json_parse_split(&doc, dom, dom_more, n_dom_more, c.alloc, data, len, &je) != MV_OK) {
        rc = json_fail(&c, &je, data, len);
        goto done;
    }
    /* Parsed tools take roughly the document's size; big blocks keep the
     * block count (and allocator calls) small. */
    size_t block = len / 2;
    block = block < 64 * 1024 ? 64 * 1024 : block > 8u * 1024 * 1024 ? 8u * 1024 * 1024 : block;
    c.arena = mv_arena_new(c.alloc, block);
    if (c.arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    set = mv_arena_calloc(c.arena, 1, sizeof(*set));
    if (set == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    set->arena = c.arena;
    if ((rc = arena_str(&c, source != NULL ? source : "", source != NULL ? strlen(source) : 0,
                        &set->source)) != MV_OK)
        goto done;
    if ((rc = mdl_build_new(&c, set, opts != NULL ? opts->jobs : 1, block)) != MV_OK)
        goto done;
    rc = parse_document(&c, set, doc, source, opts);
    /* Build what the walk queued: a tool failing there came before
     * anything the walk reported, so its error wins. */
    int brc = mdl_build_flush(&c);
    if (brc != MV_OK)
        rc = brc;
    if (rc == MV_OK)
        rc = mdl_build_adopt(&c);
    if (rc != MV_OK)
        goto done;
    for (size_t i = 0; i < set->n_tools; i++)
        set->n_caps += set->tools[i].n_caps;
    *out = set;

done:
    mdl_build_free(&c);
    mdl_ctx_release(&c);
    mv_arena_free(dom);
    for (size_t i = 0; i < n_dom_more; i++)
        mv_arena_free(dom_more[i]);
    if (rc != MV_OK) {
        if (!c.err_set)
            mdl_fail(&c, rc, NULL, NULL, "%s while building the tool model", mv_strerror(rc));
        set_source(err, source);
        mv_arena_free(c.arena);
    }
    return rc;
}

int mv_model_parse(mv_toolset **out, const char *data, size_t len, const char *source,
                   const mv_model_options *opts, mv_error *err) {
    return model_parse(out, data, len, source, opts, err, NULL);
}

void mv_toolset_free(mv_toolset *set) {
    if (set == NULL)
        return;
    if (set->rewalk != NULL) {
        mv_toolset_shrink(set);
        rewalk_free(set->rewalk);
        set->rewalk = NULL;
    }
    if (set->heap_tools > 0)
        mv_free(set->alloc, set->tools, set->heap_tools * sizeof(*set->tools));
    if (set->heap_servers > 0)
        mv_free(set->alloc, set->servers, set->heap_servers * sizeof(*set->servers));
    /* The set lives in its own arena (and the arenas of the threads that
     * built its tools, listed in it). */
    for (size_t i = 0; i < set->n_more_arenas; i++)
        mv_arena_free(set->more_arenas[i]);
    mv_arena_free(set->arena);
}

/* ---------------------------------------------------------- slim sets */

bool mv_toolset_is_slim(const mv_toolset *set) {
    return set != NULL && set->rewalk != NULL;
}

void mv_toolset_shrink(mv_toolset *set) {
    mdl_rewalk *rw = set != NULL ? set->rewalk : NULL;
    if (rw == NULL || rw->cur == SIZE_MAX)
        return;
    const mdl_group *g = &rw->groups[rw->cur];
    memcpy(set->tools + g->tool_begin, rw->saved, (g->tool_end - g->tool_begin) * sizeof(mv_tool));
    rewalk_drop(rw);
    rw->cur = SIZE_MAX;
}

/* Keep an arena of the expanded group's full tools. */
static int rewalk_hold(mdl_rewalk *rw, mv_arena *a) {
    if (a == NULL)
        return MV_OK;
    if (rw->n_held == rw->cap_held) {
        size_t cap = rw->cap_held < 8 ? 8 : rw->cap_held * 2;
        mv_arena **h = mv_realloc(rw->alloc, rw->held, rw->cap_held * sizeof(*h), cap * sizeof(*h));
        if (h == NULL) {
            mv_arena_free(a);
            return MV_ENOMEM;
        }
        rw->held = h;
        rw->cap_held = cap;
    }
    rw->held[rw->n_held++] = a;
    return MV_OK;
}

/* How reading a group's bytes again ended. */
enum { FETCH_OK, FETCH_READ_ERROR, FETCH_SHORT, FETCH_CHANGED };

/* Read a group's bytes again into the mapping and hash them; what
 * rewalk_read reports. Touches only the group's own bytes of the mapping
 * (and its pages), so it may run beside the scan of another group. */
static int fetch_group(mdl_rewalk *rw, const mdl_group *g, int *err_no) {
    size_t at = g->byte_begin;
    *err_no = 0;
    while (at < g->byte_end) {
        ssize_t got = pread(rw->fd, rw->buf + at, g->byte_end - at, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            *err_no = errno;
            return FETCH_READ_ERROR;
        }
        if (got == 0)
            return FETCH_SHORT;
        at += (size_t)got;
    }
    if (mdl_hash_bytes(rw->buf + g->byte_begin, g->byte_end - g->byte_begin) != g->hash)
        return FETCH_CHANGED;
    return FETCH_OK;
}

static void *fetch_main(void *arg) {
    mdl_rewalk *rw = arg;
    rw->fetch_state = fetch_group(rw, &rw->groups[rw->fetch_group], &rw->fetch_errno);
    return NULL;
}

/* Start reading group gi ahead, on its own thread: with more than one
 * job, the pread and the hash of the next group (a copy and page faults
 * for every byte, and otherwise the longest serial step between two
 * groups) overlap the scan of this one. Best effort: no thread, no
 * read-ahead (rewalk_read then reads as before). */
static void fetch_start(mdl_rewalk *rw, size_t gi) {
    if (rw->fetching || rw->jobs < 2 || gi >= rw->n_groups)
        return;
    rw->fetch_group = gi;
    rw->fetch_state = FETCH_OK;
    rw->fetch_errno = 0;
    rw->fetching = pthread_create(&rw->fetch_thread, NULL, fetch_main, rw) == 0;
}

/* Wait for the read-ahead; returns the group it read, or SIZE_MAX. */
static size_t fetch_join(mdl_rewalk *rw) {
    if (!rw->fetching)
        return SIZE_MAX;
    pthread_join(rw->fetch_thread, NULL);
    rw->fetching = false;
    return rw->fetch_group;
}

/* Read a group's bytes again into the mapping and check them (taking the
 * read-ahead when it read this group: the same read, the same checks). */
static int rewalk_read(mdl_rewalk *rw, size_t gi, mdl_ctx *c) {
    const mdl_group *g = &rw->groups[gi];
    int state, err_no;
    size_t ahead = fetch_join(rw);
    if (ahead == gi) {
        state = rw->fetch_state;
        err_no = rw->fetch_errno;
    } else {
        if (ahead != SIZE_MAX) /* read for nothing: give its pages back */
            rewalk_release(rw, rw->groups[ahead].byte_begin, rw->groups[ahead].byte_end);
        state = fetch_group(rw, g, &err_no);
    }
    if (state == FETCH_READ_ERROR || state == FETCH_SHORT)
        return mdl_fail(c, MV_EIO, NULL, NULL, "cannot read '%s' again: %s", rw->source,
                        state == FETCH_READ_ERROR ? strerror(err_no) : "it was cut short");
    if (state == FETCH_CHANGED)
        return mdl_fail(c, MV_EIO, NULL, NULL, "'%s' changed while it was scanned", rw->source);
    return MV_OK;
}

/* The second pass over one group: its runs parsed again, its servers
 * walked by the same code into throw-away metadata, its tools built full
 * into set->tools (their slim copies saved), every byte of it in arenas
 * held until the group is shrunk. */
static int rewalk_group(mv_toolset *set, mdl_rewalk *rw, size_t gi, mv_error *err) {
    const mdl_group *g = &rw->groups[gi];
    int rc = MV_OK;
    mv_arena *trees[MDL_PARSE_THREADS_MAX];
    size_t made = 0, n = 0, n_names = 0;
    named *names = NULL;
    mv_server_meta *metas = NULL;
    const mv_jv *items = NULL;
    bool matched = false;
    mv_jerror je;
    mdl_ctx c;
    memset(&c, 0, sizeof(c));
    c.err = err;
    c.alloc = rw->alloc;
    c.lim = rw->lim;
    mv_buf_init(&c.def, c.alloc);
    mv_toolset shadow = *set;
    size_t nt = g->tool_end - g->tool_begin;

    if ((rc = rewalk_read(rw, gi, &c)) != MV_OK)
        goto done;
    if (nt > rw->cap_saved) {
        mv_tool *sv =
            mv_realloc(rw->alloc, rw->saved, rw->cap_saved * sizeof(*sv), nt * sizeof(*sv));
        if (sv == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        rw->saved = sv;
        rw->cap_saved = nt;
    }
    for (; made < g->count; made++) {
        trees[made] = mv_arena_new(c.alloc, rw->block);
        if (trees[made] == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
    }
    c.arena = mv_arena_new(c.alloc, rw->tool_block);
    if (c.arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (mv_json_chunks_items(&items, &n, trees, g->count, c.alloc, rw->buf, &rw->ch, g->first_run,
                             &je) != MV_OK) {
        rc = mdl_fail(&c, MV_EIO, NULL, NULL, "'%s' changed while it was scanned", rw->source);
        goto done;
    }
    names = mv_calloc(c.alloc, n + 1, sizeof(*names));
    metas = mv_calloc(c.alloc, n + 1, sizeof(*metas));
    if (names == NULL || metas == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    /* The same walk as the first pass, into the same slots. */
    shadow.servers = metas;
    shadow.n_servers = 0;
    shadow.n_tools = g->tool_begin;
    shadow.heap_tools = shadow.heap_servers = 0;
    shadow.more_arenas = NULL;
    shadow.n_more_arenas = 0;
    shadow.rewalk = NULL;
    memcpy(rw->saved, set->tools + g->tool_begin, nt * sizeof(mv_tool));
    if ((rc = mdl_build_new(&c, &shadow, rw->jobs, rw->tool_block)) != MV_OK)
        goto done;
    for (size_t i = 0; i < n && rc == MV_OK; i++)
        rc = snapshot_server(&c, &shadow, &items[i], g->server_base + i, rw->filter, names,
                             &n_names, &matched, c.arena);
    int brc = mdl_build_flush(&c);
    if (rc == MV_OK)
        rc = brc;
    if (rc == MV_OK)
        rc = mdl_build_adopt(&c);
    if (rc == MV_OK && shadow.n_tools != g->tool_end)
        rc = mdl_fail(&c, MV_EIO, NULL, NULL, "'%s' changed while it was scanned", rw->source);
    for (size_t i = 0; rc == MV_OK && i < shadow.n_more_arenas; i++)
        rc = rewalk_hold(rw, shadow.more_arenas[i]);
    if (rc == MV_OK) {
        rc = rewalk_hold(rw, c.arena);
        c.arena = NULL;
    }
    if (rc == MV_OK)
        rw->cur = gi;
    else
        memcpy(set->tools + g->tool_begin, rw->saved, nt * sizeof(mv_tool));
done:
    if (rc != MV_OK) {
        rewalk_drop(rw);
        if (!c.err_set)
            mdl_fail(&c, rc, NULL, NULL, "%s while building the tool model", mv_strerror(rc));
        set_source(err, rw->source);
    }
    mdl_build_free(&c);
    mdl_ctx_release(&c);
    mv_arena_free(c.arena);
    mv_free(c.alloc, names, (n + 1) * sizeof(*names));
    mv_free(c.alloc, metas, (n + 1) * sizeof(*metas));
    for (size_t k = 0; k < made; k++)
        mv_arena_free(trees[k]);
    rewalk_release(rw, g->byte_begin, g->byte_end);
    return rc;
}

int mv_toolset_expand(mv_toolset *set, size_t tool, size_t *begin, size_t *end, mv_error *err) {
    mdl_rewalk *rw = set->rewalk;
    if (rw == NULL) {
        *begin = 0;
        *end = set->n_tools;
        return MV_OK;
    }
    /* The group holding `tool` (groups are in tool order). */
    size_t lo = 0, hi = rw->n_groups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rw->groups[mid].tool_end <= tool)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= rw->n_groups || tool < rw->groups[lo].tool_begin)
        return mv_error_set(err, MV_EINVAL, "tool %zu is in no run of the set", tool);
    *begin = rw->groups[lo].tool_begin;
    *end = rw->groups[lo].tool_end;
    if (rw->cur == lo)
        return MV_OK;
    mv_toolset_shrink(set);
    int rc = rewalk_group(set, rw, lo, err);
    if (rc == MV_OK)
        fetch_start(rw, lo + 1);
    return rc;
}

/* --------------------------------------------------------------- files */

/*
 * A large regular file, walked in runs (parse_chunked): read into pages of
 * its own (an anonymous mapping, not the file's: a file cut while mapped
 * would fault) so the walk can give back the pages of the runs it is done
 * with. Sets *handled when it did the load (rc is then the answer); when
 * the pages cannot be had or the file grew while read, the usual path
 * reads it from the start.
 */
static int load_mapped(mv_toolset **out, FILE *f, const char *path, size_t size,
                       const mv_model_options *opts, mv_error *err, mdl_ctx *lc, bool *handled) {
    int rc = MV_OK;
    size_t cap = size + 1, len = 0;
    int fd = fileno(f);
    *handled = false;
    char *buf = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return MV_OK;
    while (len < cap) {
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            *handled = true;
            rc = mdl_fail(lc, MV_EIO, NULL, NULL, "cannot read '%s': %s", path, strerror(e));
            goto done;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    if (len == cap) { /* it grew: the usual path sees how far */
        rewind(f);
        goto done;
    }
    *handled = true;
    mdl_input in = {buf, len, fd, 0, cap, false};
    rc = model_parse(out, buf, len, path, opts, err, &in);
    if (in.adopted)
        buf = NULL; /* the slim set's now (mdl_rewalk) */
done:
    if (buf != NULL)
        munmap(buf, cap);
    return rc;
}

int mv_model_load_file(mv_toolset **out, const char *path, const mv_model_options *opts,
                       mv_error *err) {
    int rc = MV_OK;
    FILE *f = NULL;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    mdl_ctx c;

    memset(&c, 0, sizeof(c));
    c.err = err;
    const mv_allocator *a = resolve_alloc(opts);
    uint64_t max = resolve_limits(opts).max_document_bytes;
    /* Reading max+1 bytes is how an over-cap stream is detected. */
    size_t limit = max >= SIZE_MAX ? SIZE_MAX - 1 : (size_t)max + 1;
    bool is_stdin = path != NULL && strcmp(path, "-") == 0;
    const char *shown = is_stdin ? "<stdin>" : path;

    if (out != NULL)
        *out = NULL;
    if (out == NULL || path == NULL) {
        rc = mdl_fail(&c, MV_EINVAL, NULL, NULL, "mv_model_load_file needs an output and a path");
        goto done;
    }
    if (is_stdin) {
        f = stdin;
    } else {
        /* Open without blocking and insist on a regular file: a FIFO with no
         * writer, a device such as /dev/zero or a directory would otherwise
         * hang or never end. Standard input ("-") is the way to pipe data. */
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        struct stat fst;
        if (fd < 0) {
            int e = errno;
            rc = mdl_fail(&c, MV_EIO, NULL, NULL, "cannot open '%s': %s", path, strerror(e));
            goto done;
        }
        if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode)) {
            const char *what = S_ISDIR(fst.st_mode)                           ? "a directory"
                               : S_ISFIFO(fst.st_mode)                        ? "a FIFO"
                               : S_ISCHR(fst.st_mode) || S_ISBLK(fst.st_mode) ? "a device"
                               : S_ISSOCK(fst.st_mode)                        ? "a socket"
                                                                              : "not a file";
            close(fd);
            rc = mdl_fail(&c, MV_EIO, NULL, NULL,
                          "cannot read '%s': it is %s, not a regular file (use '-' to read "
                          "standard input)",
                          path, what);
            goto done;
        }
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        f = fdopen(fd, "rb");
        if (f == NULL) {
            int e = errno;
            close(fd);
            rc = mdl_fail(&c, MV_EIO, NULL, NULL, "cannot open '%s': %s", path, strerror(e));
            goto done;
        }
    }
    size_t hint = FIRST_READ;
    size_t scanned = 0;   /* leading whitespace looked at */
    bool started = false; /* the first byte after it was seen */
    bool refused = false; /* ... and cannot start a document */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > max) {
            rc = mdl_fail(&c, MV_ELIMIT, NULL, NULL,
                          "'%s' is %lld bytes, over the max_document_bytes limit of %llu bytes",
                          shown, (long long)st.st_size, (unsigned long long)max);
            goto done;
        }
        /* +1 so the read that sees end-of-file needs no growth. */
        hint = (size_t)st.st_size + 1;
        size_t chunk =
            opts != NULL && opts->chunk_bytes > 0 ? opts->chunk_bytes : MV_DEFAULT_CHUNK_BYTES;
        /* An injected allocator keeps every byte in its sight: no mapping. */
        bool handled = false;
        if (!is_stdin && (opts == NULL || opts->allocator == NULL) &&
            (uint64_t)st.st_size > chunk) {
            rc = load_mapped(out, f, path, (size_t)st.st_size, opts, err, &c, &handled);
            if (handled)
                goto done;
        }
    }
    for (;;) {
        if (len == cap) {
            if (cap >= limit) {
                rc = mdl_fail(&c, MV_ELIMIT, NULL, NULL,
                              "'%s' is larger than the max_document_bytes limit of %llu bytes",
                              shown, (unsigned long long)max);
                goto done;
            }
            /* The first read is small: its first byte may already refuse
             * the input (below). Then straight to the file's size, or
             * doubling for a stream. */
            size_t ncap = cap == 0             ? (hint < FIRST_READ ? hint : FIRST_READ)
                          : cap < hint         ? hint
                          : cap > SIZE_MAX / 2 ? SIZE_MAX
                                               : cap * 2;
            if (ncap > limit)
                ncap = limit;
            char *p = mv_realloc(a, buf, cap, ncap);
            if (p == NULL) {
                rc = mdl_fail(&c, MV_ENOMEM, NULL, NULL, "out of memory reading '%s'", shown);
                goto done;
            }
            buf = p;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        /* A document starts with '{' or '[' after optional whitespace: any
         * other first byte is refused by the parser at that very offset, so
         * the rest need not be read (a 200 MB file of NUL bytes, /dev/zero
         * piped in, a binary file). */
        while (!started && scanned < len) {
            char ch = buf[scanned];
            if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
                scanned++;
                continue;
            }
            started = true;
            refused = ch != '{' && ch != '[';
        }
        if (refused)
            break;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                rc = mdl_fail(&c, MV_EIO, NULL, NULL, "cannot read '%s': %s", shown, strerror(e));
                goto done;
            }
            break;
        }
    }
    if ((uint64_t)len > max && !refused) {
        rc = mdl_fail(&c, MV_ELIMIT, NULL, NULL,
                      "'%s' is larger than the max_document_bytes limit of %llu bytes", shown,
                      (unsigned long long)max);
        goto done;
    }
    rc = mv_model_parse(out, buf, len, path, opts, err);

done:
    if (f != NULL && !is_stdin)
        fclose(f);
    mv_free(a, buf, cap);
    if (rc != MV_OK && c.err_set)
        set_source(err, path);
    return rc;
}
