/*
 * The checks' per-field result memo (memo.h): two open-addressing tables
 * over one byte pool. Texts are kept once and named by an id, so the
 * several checks that remember something about one field compare its bytes
 * once per tool (the engine caches the id per field) and their records are
 * keyed by the small (text id, tag, salt) instead of the text.
 */
#include "memo.h"

#include "hash.h"

#include <stdbool.h>
#include <string.h>

typedef struct fm_text {
    uint64_t hash;
    uint32_t off; /* pool offset of the bytes */
    uint32_t len;
} fm_text;

typedef struct fm_rec {
    uint64_t hash; /* of (text, tag, salt) */
    uint32_t text;
    uint32_t tag;
    uint32_t off; /* pool offset: salt bytes, then the record */
    uint32_t salt_len;
    uint32_t len;
} fm_rec;

/* One table: entries in insertion order, slots hold entry index + 1. */
typedef struct fm_table {
    void *ents;
    size_t n, cap;
    uint32_t *slots; /* power-of-two size, 0 = empty */
    size_t n_slots;
} fm_table;

struct mv_fmemo {
    const mv_allocator *alloc;
    char *pool;
    size_t pool_len, pool_cap;
    fm_table texts, recs;
    uint64_t gen;
    bool off;
};

mv_fmemo *mv_fmemo_new(const mv_allocator *a) {
    mv_fmemo *m = mv_calloc(a, 1, sizeof(*m));
    if (m != NULL)
        m->alloc = a;
    return m;
}

static void table_free(const mv_allocator *a, fm_table *t, size_t size) {
    mv_free(a, t->ents, t->cap * size);
    mv_free(a, t->slots, t->n_slots * sizeof(uint32_t));
    memset(t, 0, sizeof(*t));
}

void mv_fmemo_free(mv_fmemo *m) {
    if (m == NULL)
        return;
    mv_free(m->alloc, m->pool, m->pool_cap);
    table_free(m->alloc, &m->texts, sizeof(fm_text));
    table_free(m->alloc, &m->recs, sizeof(fm_rec));
    mv_free(m->alloc, m, sizeof(*m));
}

uint64_t mv_fmemo_generation(const mv_fmemo *m) {
    return m == NULL ? 0 : m->gen;
}

static void clear(mv_fmemo *m) {
    m->pool_len = 0;
    m->texts.n = 0;
    m->recs.n = 0;
    if (m->texts.slots != NULL)
        memset(m->texts.slots, 0, m->texts.n_slots * sizeof(uint32_t));
    if (m->recs.slots != NULL)
        memset(m->recs.slots, 0, m->recs.n_slots * sizeof(uint32_t));
    m->gen++;
}

/* Room for one more entry of `size` bytes in t (slots at most half full);
 * false when out of memory. `hash_at` reads an entry's hash. */
static bool table_room(mv_fmemo *m, fm_table *t, size_t size) {
    if (t->n + 1 > t->cap) {
        size_t want = t->cap ? t->cap * 2 : 8192;
        void *p = mv_realloc(m->alloc, t->ents, t->cap * size, want * size);
        if (p == NULL)
            return false;
        t->ents = p;
        t->cap = want;
    }
    if ((t->n + 1) * 2 > t->n_slots) {
        size_t ns = t->n_slots ? t->n_slots * 2 : 16384;
        uint32_t *s = mv_calloc(m->alloc, ns, sizeof(uint32_t));
        if (s == NULL)
            return false;
        for (size_t u = 0; u < t->n; u++) {
            /* both entry kinds start with their 64-bit hash */
            uint64_t h;
            memcpy(&h, (const char *)t->ents + u * size, sizeof(h));
            size_t k = (size_t)h & (ns - 1);
            while (s[k] != 0)
                k = (k + 1) & (ns - 1);
            s[k] = (uint32_t)(u + 1);
        }
        mv_free(m->alloc, t->slots, t->n_slots * sizeof(uint32_t));
        t->slots = s;
        t->n_slots = ns;
    }
    return true;
}

static void table_link(fm_table *t, uint64_t h) {
    size_t k = (size_t)h & (t->n_slots - 1);
    while (t->slots[k] != 0)
        k = (k + 1) & (t->n_slots - 1);
    t->slots[k] = (uint32_t)(++t->n);
}

/* Room for `need` more pool bytes, emptying the memo when it is full;
 * false when the memo is (now) off. */
static bool pool_room(mv_fmemo *m, size_t need) {
    if (m->pool_len + need > MV_FMEMO_MAX_POOL)
        clear(m);
    if (m->pool_len + need > m->pool_cap) {
        size_t want = m->pool_cap ? m->pool_cap : (size_t)256 << 10;
        while (want < m->pool_len + need)
            want *= 2;
        char *p = mv_realloc(m->alloc, m->pool, m->pool_cap, want);
        if (p == NULL) {
            m->off = true;
            return false;
        }
        m->pool = p;
        m->pool_cap = want;
    }
    return true;
}

uint32_t mv_fmemo_text(mv_fmemo *m, const char *text, size_t len, bool *repeat) {
    *repeat = false;
    if (m == NULL || m->off || len > MV_FMEMO_MAX_TEXT)
        return MV_FMEMO_NONE;
    uint64_t h = mv_hash_bytes(mv_fmemo_hash_start(len), text, len);
    fm_table *t = &m->texts;
    if (t->n_slots > 0) {
        size_t k = (size_t)h & (t->n_slots - 1);
        for (; t->slots[k] != 0; k = (k + 1) & (t->n_slots - 1)) {
            fm_text *e = (fm_text *)t->ents + (t->slots[k] - 1);
            if (e->hash != h || e->len != len)
                continue;
            if (e->off != MV_FMEMO_NONE) {
                if (memcmp(m->pool + e->off, text, len) != 0)
                    continue;
                *repeat = true;
                return t->slots[k] - 1;
            }
            /* Seen once, by its hash only (a short text): keep the bytes
             * from now on. The first text may have been another one with
             * the same hash, but it had no record (mv_fmemo_put refuses a
             * text whose bytes were not kept), so nothing of it is
             * replayed for this one. */
            uint32_t id = t->slots[k] - 1;
            uint64_t gen = m->gen;
            if (!pool_room(m, len))
                return MV_FMEMO_NONE;
            if (gen != m->gen)
                break; /* emptied to make room: insert afresh below */
            e->off = (uint32_t)m->pool_len;
            if (len > 0)
                memcpy(m->pool + m->pool_len, text, len);
            m->pool_len += len;
            *repeat = true;
            return id;
        }
    }
    if (t->n >= MV_FMEMO_MAX_ENTRIES || m->recs.n >= MV_FMEMO_MAX_ENTRIES)
        clear(m);
    /* A text long enough to get records at first sight keeps its bytes
     * now, so a later text with the same hash is told apart by them; a
     * shorter one costs a hash and no copy until it is seen again. */
    bool keep = len >= MV_FMEMO_KEEP_FIRST;
    if (keep && !pool_room(m, len))
        return MV_FMEMO_NONE;
    if (!table_room(m, t, sizeof(fm_text))) {
        m->off = true;
        return MV_FMEMO_NONE;
    }
    fm_text *e = (fm_text *)t->ents + t->n;
    e->hash = h;
    e->off = MV_FMEMO_NONE;
    e->len = (uint32_t)len;
    if (keep) {
        e->off = (uint32_t)m->pool_len;
        memcpy(m->pool + m->pool_len, text, len);
        m->pool_len += len;
    }
    table_link(t, h);
    return (uint32_t)(t->n - 1);
}

static uint64_t rec_hash(uint32_t text, uint32_t tag, const void *salt, size_t salt_len) {
    uint64_t h = ((uint64_t)text << 32 | tag) * 0x9E3779B97F4A7C15u;
    return mv_hash_bytes(h ^ (h >> 31) ^ (uint64_t)salt_len * 0x9E3779B97F4A7C15u, salt, salt_len);
}

const void *mv_fmemo_get(const mv_fmemo *m, uint32_t text, uint32_t tag, const void *salt,
                         size_t salt_len, size_t *len) {
    const fm_table *t = m != NULL ? &m->recs : NULL;
    if (t == NULL || t->n_slots == 0 || text == MV_FMEMO_NONE)
        return NULL;
    uint64_t h = rec_hash(text, tag, salt, salt_len);
    for (size_t k = (size_t)h & (t->n_slots - 1); t->slots[k] != 0;
         k = (k + 1) & (t->n_slots - 1)) {
        const fm_rec *e = (const fm_rec *)t->ents + (t->slots[k] - 1);
        if (e->hash == h && e->text == text && e->tag == tag && e->salt_len == salt_len &&
            (salt_len == 0 || memcmp(m->pool + e->off, salt, salt_len) == 0)) {
            *len = e->len;
            return m->pool + e->off + e->salt_len;
        }
    }
    return NULL;
}

void mv_fmemo_put(mv_fmemo *m, uint64_t gen, uint32_t text, uint32_t tag, const void *salt,
                  size_t salt_len, const void *rec, size_t len) {
    if (m == NULL || m->off || gen != m->gen || text >= m->texts.n ||
        salt_len + len > MV_FMEMO_MAX_POOL / 8)
        return;
    /* Only a text whose bytes are kept may have records: a text known by
     * its hash alone could be any text with that hash. */
    if (((const fm_text *)m->texts.ents)[text].off == MV_FMEMO_NONE)
        return;
    if (m->recs.n >= MV_FMEMO_MAX_ENTRIES || m->pool_len + salt_len + len > MV_FMEMO_MAX_POOL) {
        clear(m); /* the text id is gone with it: keep the next ones */
        return;
    }
    if (!pool_room(m, salt_len + len) || !table_room(m, &m->recs, sizeof(fm_rec))) {
        m->off = true;
        return;
    }
    uint64_t h = rec_hash(text, tag, salt, salt_len);
    fm_rec *e = (fm_rec *)m->recs.ents + m->recs.n;
    e->hash = h;
    e->text = text;
    e->tag = tag;
    e->off = (uint32_t)m->pool_len;
    e->salt_len = (uint32_t)salt_len;
    e->len = (uint32_t)len;
    if (salt_len > 0)
        memcpy(m->pool + m->pool_len, salt, salt_len);
    if (len > 0)
        memcpy(m->pool + m->pool_len + salt_len, rec, len);
    m->pool_len += salt_len + len;
    table_link(&m->recs, h);
}
