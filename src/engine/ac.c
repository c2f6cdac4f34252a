/*
 * Aho-Corasick automaton (see ac.h). Built as a trie with failure links,
 * then compiled one of two ways:
 *  - full DFA over byte classes (bytes that occur in no pattern share one
 *    class) when states x classes stays small, as for phrase rules: one
 *    table load per text byte, the "has output" bit folded into the entry;
 *  - hybrid for very large pattern sets (every tool name of a registry):
 *    the root and its children get full 256-entry rows, deeper states keep
 *    sorted sparse edges and failure links.
 * Scanning never allocates.
 */
#include "mcpvet/ac.h"

#include <string.h>

#define NO_NODE UINT32_MAX
#define DENSE_DEPTH 1 /* hybrid: states at depth <= this get a full row */
/* Full DFA when states x classes fits this many cells (16 MiB of table). */
#define MAX_DFA_CELLS (4u * 1024u * 1024u)
#define DFA_OUTPUT_BIT 0x80000000u

typedef struct pattern {
    size_t offset; /* into the builder's byte pool */
    uint32_t len;
    uint32_t id;
} pattern;

struct mv_ac_builder {
    const mv_allocator *alloc;
    unsigned flags;
    char *pool;
    size_t pool_len, pool_cap;
    pattern *patterns;
    size_t n_patterns, cap_patterns;
};

typedef struct ac_node {
    uint32_t edge_start; /* into edge_bytes/edge_targets */
    uint32_t n_edges;
    uint32_t fail;
    uint32_t dict;      /* nearest state on the failure chain with outputs */
    uint32_t out_start; /* into out_patterns */
    uint32_t out_count;
    uint32_t dense; /* row index into dense_rows, or NO_NODE */
    uint32_t depth;
} ac_node;

struct mv_ac {
    const mv_allocator *alloc;
    unsigned flags;
    ac_node *nodes;
    size_t n_nodes;
    uint8_t *edge_bytes;
    uint32_t *edge_targets;
    size_t n_edges;
    uint32_t *dense_rows; /* n_dense * 256 */
    size_t n_dense;
    uint32_t *out_ids; /* pattern ids */
    uint32_t *out_lens;
    size_t n_out;
    uint8_t fold[256];
    /* Full DFA mode (dfa != NULL): next = dfa[state * n_classes + cls[byte]],
     * with DFA_OUTPUT_BIT set when the next state reports matches. */
    uint32_t *dfa;
    size_t n_classes;
    uint8_t cls[256];
};

static void init_fold(uint8_t fold[256], unsigned flags) {
    for (int c = 0; c < 256; c++)
        fold[c] = (uint8_t)c;
    if (flags & MV_AC_ASCII_CASEFOLD)
        for (int c = 'A'; c <= 'Z'; c++)
            fold[c] = (uint8_t)(c - 'A' + 'a');
}

mv_ac_builder *mv_ac_builder_new(const mv_allocator *a, unsigned flags) {
    if (a == NULL)
        a = mv_allocator_default();
    mv_ac_builder *b = mv_calloc(a, 1, sizeof(*b));
    if (b != NULL) {
        b->alloc = a;
        b->flags = flags;
    }
    return b;
}

void mv_ac_builder_free(mv_ac_builder *b) {
    if (b == NULL)
        return;
    mv_free(b->alloc, b->pool, b->pool_cap);
    mv_free(b->alloc, b->patterns, b->cap_patterns * sizeof(*b->patterns));
    mv_free(b->alloc, b, sizeof(*b));
}

int mv_ac_builder_add(mv_ac_builder *b, const char *p, size_t len, uint32_t id) {
    if (b == NULL || p == NULL || len == 0 || len > UINT32_MAX / 2 ||
        b->n_patterns >= UINT32_MAX / 4)
        return MV_EINVAL;
    if (b->pool_len + len > b->pool_cap) {
        size_t cap = b->pool_cap == 0 ? 4096 : b->pool_cap;
        while (cap < b->pool_len + len)
            cap *= 2;
        char *np = mv_realloc(b->alloc, b->pool, b->pool_cap, cap);
        if (np == NULL)
            return MV_ENOMEM;
        b->pool = np;
        b->pool_cap = cap;
    }
    if (b->n_patterns == b->cap_patterns) {
        size_t cap = b->cap_patterns == 0 ? 64 : b->cap_patterns * 2;
        pattern *np =
            mv_realloc(b->alloc, b->patterns, b->cap_patterns * sizeof(*np), cap * sizeof(*np));
        if (np == NULL)
            return MV_ENOMEM;
        b->patterns = np;
        b->cap_patterns = cap;
    }
    memcpy(b->pool + b->pool_len, p, len);
    b->patterns[b->n_patterns++] = (pattern){b->pool_len, (uint32_t)len, id};
    b->pool_len += len;
    return MV_OK;
}

size_t mv_ac_builder_count(const mv_ac_builder *b) {
    return b == NULL ? 0 : b->n_patterns;
}

/* ---- build: a temporary trie with sibling lists, then the compact form. */

typedef struct tnode {
    uint32_t first_child;
    uint32_t next_sibling;
    uint32_t fail;
    uint32_t out_head; /* first pattern index ending here, chained by out_next */
    uint32_t n_out;
    uint32_t depth;
    uint8_t byte;
} tnode;

typedef struct build_ctx {
    const mv_allocator *alloc;
    tnode *t;
    size_t n, cap;
    uint32_t *out_next; /* per pattern: next pattern ending at the same node */
} build_ctx;

static uint32_t tchild(const build_ctx *bc, uint32_t node, uint8_t c) {
    for (uint32_t k = bc->t[node].first_child; k != NO_NODE; k = bc->t[k].next_sibling)
        if (bc->t[k].byte == c)
            return k;
    return NO_NODE;
}

static int tnew(build_ctx *bc, uint32_t *out) {
    if (bc->n == bc->cap) {
        size_t cap = bc->cap == 0 ? 1024 : bc->cap * 2;
        if (cap > UINT32_MAX / 2)
            return MV_EINVAL;
        tnode *p = mv_realloc(bc->alloc, bc->t, bc->cap * sizeof(*p), cap * sizeof(*p));
        if (p == NULL)
            return MV_ENOMEM;
        bc->t = p;
        bc->cap = cap;
    }
    tnode *n = &bc->t[bc->n];
    memset(n, 0, sizeof(*n));
    n->first_child = n->next_sibling = n->out_head = NO_NODE;
    n->fail = 0;
    *out = (uint32_t)bc->n++;
    return MV_OK;
}

/* Compile the full DFA when it is small enough; otherwise keep the hybrid.
 * States are in BFS order, so a state's failure target (shallower) has its
 * row complete before the state copies from it. */
static int build_dfa(mv_ac *ac) {
    bool used[256] = {false};
    for (size_t e = 0; e < ac->n_edges; e++)
        used[ac->edge_bytes[e]] = true;
    size_t n_classes = 1; /* class 0: bytes that occur in no pattern */
    uint8_t class_of_folded[256] = {0};
    for (int c = 0; c < 256; c++)
        if (used[c])
            class_of_folded[c] = (uint8_t)n_classes++;
    if (n_classes > 255 || ac->n_nodes > MAX_DFA_CELLS / n_classes)
        return MV_OK; /* too big: the hybrid serves */
    for (int c = 0; c < 256; c++)
        ac->cls[c] = class_of_folded[ac->fold[c]];
    uint32_t *dfa = mv_alloc(ac->alloc, ac->n_nodes * n_classes * sizeof(uint32_t));
    if (dfa == NULL)
        return MV_ENOMEM;
    /* Row of a state = row of its failure target, overridden by its own
     * edges. BFS order makes the failure target's row ready first; the
     * output bit depends only on the target, so copied entries keep it. */
    for (size_t st = 0; st < ac->n_nodes; st++) {
        const ac_node *n = &ac->nodes[st];
        uint32_t *row = dfa + st * n_classes;
        if (st == 0)
            memset(row, 0, n_classes * sizeof(uint32_t));
        else
            memcpy(row, dfa + (size_t)n->fail * n_classes, n_classes * sizeof(uint32_t));
        for (uint32_t e = 0; e < n->n_edges; e++) {
            uint32_t target = ac->edge_targets[n->edge_start + e];
            const ac_node *t = &ac->nodes[target];
            bool reports = t->out_count > 0 || t->dict != NO_NODE;
            row[class_of_folded[ac->edge_bytes[n->edge_start + e]]] =
                target | (reports ? DFA_OUTPUT_BIT : 0);
        }
    }
    ac->dfa = dfa;
    ac->n_classes = n_classes;
    return MV_OK;
}

int mv_ac_build(mv_ac **out, const mv_ac_builder *b) {
    int rc = MV_OK;
    mv_ac *ac = NULL;
    uint32_t *queue = NULL, *new_index = NULL;
    build_ctx bc = {b != NULL ? b->alloc : NULL, NULL, 0, 0, NULL};
    if (out == NULL || b == NULL)
        return MV_EINVAL;
    *out = NULL;
    uint8_t fold[256];
    init_fold(fold, b->flags);

    uint32_t root;
    bc.out_next = mv_calloc(b->alloc, b->n_patterns + 1, sizeof(uint32_t));
    if (bc.out_next == NULL || (rc = tnew(&bc, &root)) != MV_OK) {
        rc = rc != MV_OK ? rc : MV_ENOMEM;
        goto done;
    }
    /* 1. Trie. Patterns sharing a node keep insertion order in their chain. */
    uint32_t *tail = NULL; /* not needed: chain is built by prepending in reverse */
    (void)tail;
    for (size_t pi = b->n_patterns; pi-- > 0;) {
        const pattern *p = &b->patterns[pi];
        uint32_t node = root;
        for (uint32_t i = 0; i < p->len; i++) {
            uint8_t c = fold[(uint8_t)b->pool[p->offset + i]];
            uint32_t next = tchild(&bc, node, c);
            if (next == NO_NODE) {
                if ((rc = tnew(&bc, &next)) != MV_OK)
                    goto done;
                bc.t[next].byte = c;
                bc.t[next].depth = bc.t[node].depth + 1;
                bc.t[next].next_sibling = bc.t[node].first_child;
                bc.t[node].first_child = next;
            }
            node = next;
        }
        bc.out_next[pi] = bc.t[node].out_head;
        bc.t[node].out_head = (uint32_t)pi;
        bc.t[node].n_out++;
    }

    /* 2. Failure links in BFS order; the queue doubles as the new numbering. */
    queue = mv_alloc(b->alloc, bc.n * sizeof(uint32_t));
    new_index = mv_alloc(b->alloc, bc.n * sizeof(uint32_t));
    if (queue == NULL || new_index == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    size_t head = 0, qlen = 0;
    queue[qlen++] = root;
    while (head < qlen) {
        uint32_t u = queue[head++];
        for (uint32_t v = bc.t[u].first_child; v != NO_NODE; v = bc.t[v].next_sibling) {
            queue[qlen++] = v;
            if (u == root) {
                bc.t[v].fail = root;
                continue;
            }
            uint32_t f = bc.t[u].fail;
            uint32_t target = tchild(&bc, f, bc.t[v].byte);
            while (target == NO_NODE && f != root) {
                f = bc.t[f].fail;
                target = tchild(&bc, f, bc.t[v].byte);
            }
            bc.t[v].fail = (target != NO_NODE && target != v) ? target : root;
        }
    }
    for (size_t i = 0; i < qlen; i++)
        new_index[queue[i]] = (uint32_t)i;

    /* 3. Compact form, states numbered in BFS order (root = 0). */
    ac = mv_calloc(b->alloc, 1, sizeof(*ac));
    if (ac == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    ac->alloc = b->alloc;
    ac->flags = b->flags;
    memcpy(ac->fold, fold, sizeof(fold));
    ac->n_nodes = bc.n;
    ac->n_edges = bc.n - 1;
    ac->n_out = b->n_patterns;
    size_t n_dense = 0;
    for (size_t i = 0; i < bc.n; i++)
        if (bc.t[i].depth <= DENSE_DEPTH)
            n_dense++;
    ac->n_dense = n_dense;
    ac->nodes = mv_calloc(b->alloc, bc.n, sizeof(*ac->nodes));
    ac->edge_bytes = mv_calloc(b->alloc, ac->n_edges + 1, 1);
    ac->edge_targets = mv_calloc(b->alloc, ac->n_edges + 1, sizeof(uint32_t));
    ac->dense_rows = mv_calloc(b->alloc, n_dense * 256, sizeof(uint32_t));
    ac->out_ids = mv_calloc(b->alloc, ac->n_out + 1, sizeof(uint32_t));
    ac->out_lens = mv_calloc(b->alloc, ac->n_out + 1, sizeof(uint32_t));
    if (ac->nodes == NULL || ac->edge_bytes == NULL || ac->edge_targets == NULL ||
        ac->dense_rows == NULL || ac->out_ids == NULL || ac->out_lens == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    uint32_t edge_pos = 0, out_pos = 0, dense_pos = 0;
    for (size_t qi = 0; qi < qlen; qi++) {
        const tnode *tn = &bc.t[queue[qi]];
        ac_node *n = &ac->nodes[qi];
        n->fail = new_index[tn->fail];
        n->depth = tn->depth;
        n->dense = tn->depth <= DENSE_DEPTH ? dense_pos++ : NO_NODE;
        n->out_start = out_pos;
        n->out_count = tn->n_out;
        for (uint32_t pi = tn->out_head; pi != NO_NODE; pi = bc.out_next[pi]) {
            ac->out_ids[out_pos] = b->patterns[pi].id;
            ac->out_lens[out_pos] = b->patterns[pi].len;
            out_pos++;
        }
        /* Sparse edges sorted by byte (insertion sort: lists are short). */
        n->edge_start = edge_pos;
        for (uint32_t v = tn->first_child; v != NO_NODE; v = bc.t[v].next_sibling) {
            uint32_t k = edge_pos++;
            while (k > n->edge_start && ac->edge_bytes[k - 1] > bc.t[v].byte) {
                ac->edge_bytes[k] = ac->edge_bytes[k - 1];
                ac->edge_targets[k] = ac->edge_targets[k - 1];
                k--;
            }
            ac->edge_bytes[k] = bc.t[v].byte;
            ac->edge_targets[k] = new_index[v];
        }
        n->n_edges = edge_pos - n->edge_start;
    }
    /* Dictionary links: BFS order guarantees the fail target is done first. */
    ac->nodes[0].dict = NO_NODE;
    for (size_t i = 1; i < ac->n_nodes; i++) {
        const ac_node *f = &ac->nodes[ac->nodes[i].fail];
        ac->nodes[i].dict = f->out_count > 0 ? ac->nodes[i].fail : f->dict;
    }
    /* Dense rows: full transition function (failure resolved), BFS order so
     * a state's fail row (shallower) is complete before it is copied. */
    for (size_t i = 0; i < ac->n_nodes; i++) {
        ac_node *n = &ac->nodes[i];
        if (n->dense == NO_NODE)
            continue;
        uint32_t *row = ac->dense_rows + (size_t)n->dense * 256;
        if (i == 0) {
            for (int c = 0; c < 256; c++)
                row[c] = 0;
        } else {
            memcpy(row, ac->dense_rows + (size_t)ac->nodes[n->fail].dense * 256,
                   256 * sizeof(uint32_t));
        }
        for (uint32_t e = 0; e < n->n_edges; e++)
            row[ac->edge_bytes[n->edge_start + e]] = ac->edge_targets[n->edge_start + e];
    }
    /* With ASCII folding, upper-case text bytes use the lower-case edges. */
    if (ac->flags & MV_AC_ASCII_CASEFOLD)
        for (size_t r = 0; r < n_dense; r++)
            for (int c = 'A'; c <= 'Z'; c++)
                ac->dense_rows[r * 256 + (size_t)c] = ac->dense_rows[r * 256 + (size_t)(c + 32)];
    rc = build_dfa(ac);

done:
    mv_free(bc.alloc, bc.t, bc.cap * sizeof(*bc.t));
    mv_free(bc.alloc, bc.out_next, (b->n_patterns + 1) * sizeof(uint32_t));
    mv_free(bc.alloc, queue, bc.n * sizeof(uint32_t));
    mv_free(bc.alloc, new_index, bc.n * sizeof(uint32_t));
    if (rc != MV_OK) {
        mv_ac_free(ac);
        ac = NULL;
    }
    *out = ac;
    return rc;
}

void mv_ac_free(mv_ac *ac) {
    if (ac == NULL)
        return;
    mv_free(ac->alloc, ac->nodes, ac->n_nodes * sizeof(*ac->nodes));
    mv_free(ac->alloc, ac->edge_bytes, ac->n_edges + 1);
    mv_free(ac->alloc, ac->edge_targets, (ac->n_edges + 1) * sizeof(uint32_t));
    mv_free(ac->alloc, ac->dense_rows, ac->n_dense * 256 * sizeof(uint32_t));
    mv_free(ac->alloc, ac->out_ids, (ac->n_out + 1) * sizeof(uint32_t));
    mv_free(ac->alloc, ac->out_lens, (ac->n_out + 1) * sizeof(uint32_t));
    mv_free(ac->alloc, ac->dfa, ac->n_nodes * ac->n_classes * sizeof(uint32_t));
    mv_free(ac->alloc, ac, sizeof(*ac));
}

static uint32_t find_edge(const mv_ac *ac, const ac_node *n, uint8_t c) {
    const uint8_t *bytes = ac->edge_bytes + n->edge_start;
    uint32_t lo = 0, hi = n->n_edges;
    if (hi <= 8) {
        for (uint32_t i = 0; i < hi; i++)
            if (bytes[i] == c)
                return ac->edge_targets[n->edge_start + i];
        return NO_NODE;
    }
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (bytes[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < n->n_edges && bytes[lo] == c) ? ac->edge_targets[n->edge_start + lo] : NO_NODE;
}

static int report(const mv_ac *ac, uint32_t state, size_t end, mv_ac_callback cb, void *ctx) {
    for (uint32_t s = state; s != NO_NODE; s = ac->nodes[s].dict) {
        const ac_node *n = &ac->nodes[s];
        for (uint32_t k = 0; k < n->out_count; k++) {
            mv_ac_match m;
            m.id = ac->out_ids[n->out_start + k];
            m.pattern_len = ac->out_lens[n->out_start + k];
            m.end = end;
            m.start = end - m.pattern_len;
            int r = cb(ctx, &m);
            if (r != 0)
                return r;
        }
    }
    return 0;
}

/* One hybrid-mode transition on raw text byte c. */
static uint32_t sparse_step(const mv_ac *ac, uint32_t state, uint8_t c) {
    for (;;) {
        const ac_node *n = &ac->nodes[state];
        if (n->dense != NO_NODE)
            return ac->dense_rows[(size_t)n->dense * 256 + c];
        uint32_t next = find_edge(ac, n, ac->fold[c]);
        if (next != NO_NODE)
            return next;
        state = n->fail;
    }
}

static int scan_dfa(const mv_ac *ac, const unsigned char *s, size_t len, mv_ac_callback cb,
                    void *ctx) {
    const uint32_t *dfa = ac->dfa;
    const uint8_t *cls = ac->cls;
    size_t n_classes = ac->n_classes;
    uint32_t state = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t next = dfa[(size_t)state * n_classes + cls[s[i]]];
        state = next & ~DFA_OUTPUT_BIT;
        if ((next & DFA_OUTPUT_BIT) && cb != NULL) {
            int r = report(ac, state, i + 1, cb, ctx);
            if (r != 0)
                return r;
        }
    }
    return 0;
}

int mv_ac_scan(const mv_ac *ac, const char *text, size_t len, mv_ac_callback cb, void *ctx) {
    if (ac == NULL || (text == NULL && len > 0))
        return 0;
    const unsigned char *s = (const unsigned char *)text;
    if (ac->dfa != NULL)
        return scan_dfa(ac, s, len, cb, ctx);
    uint32_t state = 0;
    for (size_t i = 0; i < len; i++) {
        state = sparse_step(ac, state, s[i]);
        const ac_node *n = &ac->nodes[state];
        if ((n->out_count > 0 || n->dict != NO_NODE) && cb != NULL) {
            int r = report(ac, state, i + 1, cb, ctx);
            if (r != 0)
                return r;
        }
    }
    return 0;
}

size_t mv_ac_state_count(const mv_ac *ac) {
    return ac == NULL ? 0 : ac->n_nodes;
}

size_t mv_ac_memory(const mv_ac *ac) {
    if (ac == NULL)
        return 0;
    return sizeof(*ac) + ac->n_nodes * sizeof(ac_node) + ac->n_edges * 5 +
           ac->n_dense * 256 * sizeof(uint32_t) + ac->n_out * 8 +
           ac->n_nodes * ac->n_classes * sizeof(uint32_t);
}
