/*
 * Registry snapshot: the tools of every server scanned together, with an
 * exact-name index (open addressing over distinct names, each with the
 * ascending list of tool ids) and interned server names. Built once by
 * freeze, then read-only and safe to share between threads. Hash order
 * never leaks out: lookups return ids in insertion order.
 */
#include "mcpvet/registry.h"

#include <string.h>

/* String -> dense id table, ids in order of first insertion. */
typedef struct intern_table {
    uint32_t *slots; /* id+1, 0 = empty */
    size_t n_slots;  /* power of two */
    mv_str *keys;    /* by id */
    uint64_t *hashes;
    size_t count;
} intern_table;

struct mv_registry {
    const mv_allocator *alloc;
    const mv_tool **tools;
    size_t n_tools, cap_tools;
    bool frozen;
    unsigned jobs; /* threads prepare may use (0 = 1) */
    intern_table names;
    intern_table servers;
    uint32_t *tool_server; /* server id per tool */
    uint32_t *name_start;  /* per name id: first position in name_ids */
    uint32_t *name_count;
    uint32_t *name_ids; /* tool ids grouped by name, ascending inside a group */
};

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static void intern_release(const mv_allocator *a, intern_table *t) {
    mv_free(a, t->slots, t->n_slots * sizeof(*t->slots));
    mv_free(a, t->keys, t->count * sizeof(*t->keys));
    mv_free(a, t->hashes, t->count * sizeof(*t->hashes));
    memset(t, 0, sizeof(*t));
}

/* Size the table for up to `max_keys` keys. */
static int intern_init(const mv_allocator *a, intern_table *t, size_t max_keys) {
    size_t n = 16;
    while (n < max_keys * 2 + 1)
        n *= 2;
    t->slots = mv_calloc(a, n, sizeof(*t->slots));
    t->keys = mv_calloc(a, max_keys + 1, sizeof(*t->keys));
    t->hashes = mv_calloc(a, max_keys + 1, sizeof(*t->hashes));
    t->n_slots = n;
    t->count = 0;
    if (t->slots == NULL || t->keys == NULL || t->hashes == NULL)
        return MV_ENOMEM;
    return MV_OK;
}

static int64_t intern_find(const intern_table *t, const char *s, size_t n, uint64_t h,
                           size_t *slot) {
    size_t mask = t->n_slots - 1;
    size_t i = (size_t)h & mask;
    while (t->slots[i] != 0) {
        uint32_t id = t->slots[i] - 1;
        if (t->hashes[id] == h && t->keys[id].len == n &&
            (n == 0 || memcmp(t->keys[id].ptr, s, n) == 0)) {
            *slot = i;
            return id;
        }
        i = (i + 1) & mask;
    }
    *slot = i;
    return -1;
}

/* Insert (table sized in advance, so it never fills). Returns the id. */
static uint32_t intern_add(intern_table *t, mv_str key) {
    uint64_t h = hash_bytes(key.ptr, key.len);
    size_t slot;
    int64_t id = intern_find(t, key.ptr, key.len, h, &slot);
    if (id >= 0)
        return (uint32_t)id;
    uint32_t nid = (uint32_t)t->count++;
    t->keys[nid] = key;
    t->hashes[nid] = h;
    t->slots[slot] = nid + 1;
    return nid;
}

mv_registry *mv_registry_new(const mv_allocator *a) {
    if (a == NULL)
        a = mv_allocator_default();
    mv_registry *r = mv_calloc(a, 1, sizeof(*r));
    if (r != NULL)
        r->alloc = a;
    return r;
}

static void release_index(mv_registry *r) {
    size_t names = r->names.count;
    intern_release(r->alloc, &r->names);
    intern_release(r->alloc, &r->servers);
    mv_free(r->alloc, r->tool_server, r->n_tools * sizeof(uint32_t));
    mv_free(r->alloc, r->name_start, (names + 1) * sizeof(uint32_t));
    mv_free(r->alloc, r->name_count, (names + 1) * sizeof(uint32_t));
    mv_free(r->alloc, r->name_ids, r->n_tools * sizeof(uint32_t));
    r->tool_server = r->name_start = r->name_count = r->name_ids = NULL;
}

void mv_registry_free(mv_registry *r) {
    if (r == NULL)
        return;
    release_index(r);
    mv_free(r->alloc, r->tools, r->cap_tools * sizeof(*r->tools));
    mv_free(r->alloc, r, sizeof(*r));
}

int mv_registry_add(mv_registry *r, const mv_tool *tool) {
    if (r == NULL || tool == NULL || r->frozen || r->n_tools >= (size_t)INT32_MAX)
        return MV_EINVAL;
    if (r->n_tools == r->cap_tools) {
        size_t cap = r->cap_tools == 0 ? 64 : r->cap_tools * 2;
        const mv_tool **p =
            mv_realloc(r->alloc, r->tools, r->cap_tools * sizeof(*p), cap * sizeof(*p));
        if (p == NULL)
            return MV_ENOMEM;
        r->tools = p;
        r->cap_tools = cap;
    }
    r->tools[r->n_tools++] = tool;
    return MV_OK;
}

int mv_registry_freeze(mv_registry *r) {
    if (r == NULL)
        return MV_EINVAL;
    if (r->frozen)
        return MV_OK;
    int rc = MV_ENOMEM;
    size_t n = r->n_tools;
    uint32_t *name_of = NULL;
    if (intern_init(r->alloc, &r->names, n) != MV_OK ||
        intern_init(r->alloc, &r->servers, n) != MV_OK)
        goto done;
    r->tool_server = mv_calloc(r->alloc, n + 1, sizeof(uint32_t));
    r->name_ids = mv_calloc(r->alloc, n + 1, sizeof(uint32_t));
    name_of = mv_calloc(r->alloc, n + 1, sizeof(uint32_t));
    if (r->tool_server == NULL || r->name_ids == NULL || name_of == NULL)
        goto done;
    for (size_t i = 0; i < n; i++) {
        r->tool_server[i] = intern_add(&r->servers, r->tools[i]->server);
        name_of[i] = intern_add(&r->names, r->tools[i]->name);
    }
    size_t names = r->names.count;
    r->name_start = mv_calloc(r->alloc, names + 1, sizeof(uint32_t));
    r->name_count = mv_calloc(r->alloc, names + 1, sizeof(uint32_t));
    if (r->name_start == NULL || r->name_count == NULL)
        goto done;
    for (size_t i = 0; i < n; i++)
        r->name_count[name_of[i]]++;
    uint32_t pos = 0;
    for (size_t k = 0; k < names; k++) {
        r->name_start[k] = pos;
        pos += r->name_count[k];
        r->name_count[k] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t k = name_of[i];
        r->name_ids[r->name_start[k] + r->name_count[k]++] = (uint32_t)i;
    }
    r->frozen = true;
    rc = MV_OK;
done:
    mv_free(r->alloc, name_of, (n + 1) * sizeof(uint32_t));
    if (rc != MV_OK)
        release_index(r);
    return rc;
}

bool mv_registry_frozen(const mv_registry *r) {
    return r != NULL && r->frozen;
}

void mv_registry_set_jobs(mv_registry *r, unsigned jobs) {
    if (r != NULL)
        r->jobs = jobs;
}

unsigned mv_registry_jobs(const mv_registry *r) {
    return r != NULL && r->jobs > 1 ? r->jobs : 1;
}

size_t mv_registry_count(const mv_registry *r) {
    return r == NULL ? 0 : r->n_tools;
}

const mv_tool *mv_registry_tool(const mv_registry *r, size_t index) {
    return (r == NULL || index >= r->n_tools) ? NULL : r->tools[index];
}

size_t mv_registry_server_count(const mv_registry *r) {
    return (r == NULL || !r->frozen) ? 0 : r->servers.count;
}

mv_str mv_registry_server_name(const mv_registry *r, size_t server_id) {
    if (r == NULL || !r->frozen || server_id >= r->servers.count)
        return MV_STR_NULL;
    return r->servers.keys[server_id];
}

uint32_t mv_registry_tool_server(const mv_registry *r, size_t tool_index) {
    if (r == NULL || !r->frozen || tool_index >= r->n_tools)
        return UINT32_MAX;
    return r->tool_server[tool_index];
}

const uint32_t *mv_registry_find_name(const mv_registry *r, const char *name, size_t len,
                                      size_t *count) {
    *count = 0;
    if (r == NULL || !r->frozen || r->names.count == 0 || (name == NULL && len > 0))
        return NULL;
    size_t slot;
    int64_t id = intern_find(&r->names, name, len, hash_bytes(name, len), &slot);
    if (id < 0)
        return NULL;
    *count = r->name_count[id];
    return r->name_ids + r->name_start[id];
}

bool mv_registry_has_name(const mv_registry *r, const char *name, size_t len) {
    size_t count;
    mv_registry_find_name(r, name, len, &count);
    return count > 0;
}

size_t mv_registry_name_count(const mv_registry *r) {
    return (r == NULL || !r->frozen) ? 0 : r->names.count;
}
