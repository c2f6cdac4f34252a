/*
 * Aho-Corasick automaton (see ac.h). Built as a trie with failure links,
 * then compiled one of two ways:
 *  - full DFA over byte classes (bytes that occur in no pattern share one
 *    class) when states x classes stays small, as for phrase rules: one
 *    table load per text byte, the "has output" bit folded into the entry
 *    (16-bit entries below 2^15 states);
 *  - hybrid for very large pattern sets (every tool name of a registry, the
 *    directive phrases): the root and its children get full 256-entry rows,
 *    deeper states keep sorted sparse edges and failure links; in addition
 *    the shallowest states (BFS order, up to MAX_PARTIAL_CELLS cells) get
 *    complete class rows, so text that stays near the root (almost all of
 *    it) costs one table load per byte, as in a full DFA, and only the
 *    rare walk deep into a long phrase follows sparse edges.
 * Scanning never allocates. A built automaton can be saved as words and
 * loaded back in place (tables precompiled at build time).
 */
#include "mcpvet/ac.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "precomp.h"

#define NO_NODE UINT32_MAX
#define DENSE_DEPTH 1 /* hybrid: states at depth <= this get a full row */
/* Full DFA when states x classes fits this many cells (16 MiB of table). */
#define MAX_DFA_CELLS (4u * 1024u * 1024u)
/* Rows of the shallow states of a larger automaton (4 MiB of 32-bit cells;
 * the directive phrases: about 20,000 of 119,000 states). */
#define MAX_PARTIAL_CELLS (1024u * 1024u)
#define DFA_OUTPUT_BIT 0x80000000u
#define DFA16_OUTPUT_BIT 0x8000u
#define DFA16_MAX_STATES 0x7FFFu

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
    /* Full DFA mode (dfa or dfa16 != NULL): next = dfa[state * n_classes +
     * cls[byte]], with DFA_OUTPUT_BIT (DFA16_OUTPUT_BIT) set when the next
     * state reports matches. Automata of fewer than 2^15 states (every rule
     * automaton) use 16-bit cells: half the table to build and to cache. */
    uint32_t *dfa;
    uint16_t *dfa16;
    size_t n_classes;
    /* States 0 .. n_rows-1 have a row (n_rows == n_nodes: full DFA). A
     * partial table (n_rows < n_nodes) always has 32-bit cells. */
    size_t n_rows;
    uint8_t cls[256];
    bool borrowed; /* tables live in caller memory (mv_ac_load): never freed */
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

/* ---- build: a temporary trie with sibling lists, then the compact form.
 *
 * The phrase automaton has ~65,000 states, so construction cost is most of
 * what engine start-up spends outside rule parsing. What keeps it cheap:
 *  - a pattern reuses the path of the previously inserted one for their
 *    common prefix (rule expansion emits neighbours that share long
 *    prefixes), and once a pattern has created a node the rest of its
 *    bytes need no child lookup (a new node has no children);
 *  - the root's children, the widest fan-out, sit in a direct table;
 *  - one breadth-first pass numbers the states, writes their compact edges
 *    and computes failure links on the compact form: a failure target is
 *    shallower, so its edges are already written when it is consulted.
 * The trie, and so the compiled automaton, is exactly the one plain
 * insertion and a separate failure pass build (same states, numbering,
 * edges and outputs). */

typedef struct tnode {
    uint32_t first_child;
    uint32_t next_sibling;
    uint32_t out_head; /* first pattern index ending here, chained by out_next */
    uint8_t byte;
} tnode;

typedef struct build_ctx {
    const mv_allocator *alloc;
    tnode *t;
    size_t n, cap;
    uint32_t *out_next;     /* per pattern: next pattern ending at the same node */
    uint32_t root_kid[256]; /* child of the root on each byte, or NO_NODE */
} build_ctx;

static uint32_t tchild(const build_ctx *bc, uint32_t node, uint8_t c) {
    if (node == 0)
        return bc->root_kid[c];
    for (uint32_t k = bc->t[node].first_child; k != NO_NODE; k = bc->t[k].next_sibling)
        if (bc->t[k].byte == c)
            return k;
    return NO_NODE;
}

/* A new child of `parent` on byte c (parent NO_NODE: the root). New
 * children are prepended: sibling order is the reverse of creation. */
static inline int tnew(build_ctx *bc, uint32_t parent, uint8_t c, uint32_t *out) {
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
    uint32_t id = (uint32_t)bc->n++;
    tnode *n = &bc->t[id];
    n->first_child = NO_NODE;
    n->out_head = NO_NODE;
    n->byte = c;
    n->next_sibling = NO_NODE;
    if (parent != NO_NODE) {
        n->next_sibling = bc->t[parent].first_child;
        bc->t[parent].first_child = id;
        if (parent == 0)
            bc->root_kid[c] = id;
    }
    *out = id;
    return MV_OK;
}

static inline uint32_t find_edge(const mv_ac *ac, const ac_node *n, uint8_t c);

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
    if (n_classes > 255)
        return MV_OK; /* cannot happen with fewer than 255 distinct bytes */
    size_t n_rows = ac->n_nodes;
    if (n_rows > MAX_DFA_CELLS / n_classes)
        n_rows = MAX_PARTIAL_CELLS / n_classes; /* too big: rows for the shallow states */
    for (int c = 0; c < 256; c++)
        ac->cls[c] = class_of_folded[ac->fold[c]];
    bool narrow = n_rows == ac->n_nodes && ac->n_nodes <= DFA16_MAX_STATES;
    size_t cells = n_rows * n_classes;
    uint32_t *dfa = NULL;
    uint16_t *dfa16 = NULL;
    if (narrow)
        dfa16 = mv_alloc(ac->alloc, cells * sizeof(uint16_t));
    else
        dfa = mv_alloc(ac->alloc, cells * sizeof(uint32_t));
    if (dfa == NULL && dfa16 == NULL)
        return MV_ENOMEM;
    /* Row of a state = row of its failure target, overridden by its own
     * edges. BFS order makes the failure target's row ready first; the
     * output bit depends only on the target, so copied entries keep it.
     * A failure target is shallower, so within the first n_rows too. */
    for (size_t st = 0; st < n_rows; st++) {
        const ac_node *n = &ac->nodes[st];
        if (narrow) {
            uint16_t *row = dfa16 + st * n_classes;
            if (st == 0)
                memset(row, 0, n_classes * sizeof(uint16_t));
            else
                memcpy(row, dfa16 + (size_t)n->fail * n_classes, n_classes * sizeof(uint16_t));
        } else {
            uint32_t *row = dfa + st * n_classes;
            if (st == 0)
                memset(row, 0, n_classes * sizeof(uint32_t));
            else
                memcpy(row, dfa + (size_t)n->fail * n_classes, n_classes * sizeof(uint32_t));
        }
        for (uint32_t e = 0; e < n->n_edges; e++) {
            uint32_t target = ac->edge_targets[n->edge_start + e];
            const ac_node *t = &ac->nodes[target];
            bool reports = t->out_count > 0 || t->dict != NO_NODE;
            size_t cell = st * n_classes + class_of_folded[ac->edge_bytes[n->edge_start + e]];
            if (narrow)
                dfa16[cell] = (uint16_t)(target | (reports ? DFA16_OUTPUT_BIT : 0));
            else
                dfa[cell] = target | (reports ? DFA_OUTPUT_BIT : 0);
        }
    }
    ac->dfa = dfa;
    ac->dfa16 = dfa16;
    ac->n_classes = n_classes;
    ac->n_rows = n_rows;
    return MV_OK;
}

int mv_ac_build_fresh(mv_ac **out, const mv_ac_builder *b) {
    int rc = MV_OK;
    mv_ac *ac = NULL;
    uint32_t *queue = NULL, *new_index = NULL, *path = NULL;
    size_t max_len = 0;
    build_ctx bc;
    if (out == NULL || b == NULL)
        return MV_EINVAL;
    *out = NULL;
    memset(&bc, 0, sizeof(bc));
    bc.alloc = b->alloc;
    for (size_t pi = 0; pi < b->n_patterns; pi++)
        if (b->patterns[pi].len > max_len)
            max_len = b->patterns[pi].len;
    uint8_t fold[256];
    init_fold(fold, b->flags);
    for (int c = 0; c < 256; c++)
        bc.root_kid[c] = NO_NODE;

    /* A trie has at most one node per pattern byte, and shared prefixes
     * make it far smaller: start at half the bytes (the doubling in tnew
     * covers the rest) so the usual build never copies the node array. */
    bc.cap = b->pool_len / 2 + 1024;
    if (bc.cap > ((size_t)1 << 20))
        bc.cap = (size_t)1 << 20;
    bc.t = mv_alloc(b->alloc, bc.cap * sizeof(*bc.t));
    bc.out_next = mv_alloc(b->alloc, (b->n_patterns + 1) * sizeof(uint32_t));
    path = mv_alloc(b->alloc, (max_len + 1) * sizeof(uint32_t));
    if (bc.t == NULL || bc.out_next == NULL || path == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    uint32_t root;
    if ((rc = tnew(&bc, NO_NODE, 0, &root)) != MV_OK)
        goto done;

    /* 1. Trie. Patterns sharing a node keep insertion order in their chain
     * (built by prepending in reverse). path[d] is the node at depth d+1 on
     * the previously inserted pattern's path. */
    const uint8_t *prev = NULL;
    uint32_t prev_len = 0;
    for (size_t pi = b->n_patterns; pi-- > 0;) {
        const pattern *p = &b->patterns[pi];
        const uint8_t *bytes = (const uint8_t *)b->pool + p->offset;
        uint32_t i = 0;
        uint32_t node = root;
        uint32_t common = p->len < prev_len ? p->len : prev_len;
        while (i < common && fold[bytes[i]] == fold[prev[i]])
            i++;
        if (i > 0)
            node = path[i - 1];
        for (; i < p->len; i++) {
            uint32_t next = tchild(&bc, node, fold[bytes[i]]);
            if (next == NO_NODE)
                break;
            path[i] = next;
            node = next;
        }
        /* From the first missing byte on, every node is new. */
        for (; i < p->len; i++) {
            if ((rc = tnew(&bc, node, fold[bytes[i]], &node)) != MV_OK)
                goto done;
            path[i] = node;
        }
        prev = bytes;
        prev_len = p->len;
        bc.out_next[pi] = bc.t[node].out_head;
        bc.t[node].out_head = (uint32_t)pi;
    }

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
    _Static_assert(DENSE_DEPTH == 1, "dense states are the root and its children");
    size_t n_dense = 1; /* the root and its children */
    for (uint32_t v = bc.t[root].first_child; v != NO_NODE; v = bc.t[v].next_sibling)
        n_dense++;
    ac->n_dense = n_dense;
    /* Every entry below is written (no zeroing pass over megabytes); the
     * spare last entries keep the arrays non-empty. */
    queue = mv_alloc(b->alloc, bc.n * sizeof(uint32_t));
    new_index = mv_alloc(b->alloc, bc.n * sizeof(uint32_t));
    ac->nodes = mv_alloc(b->alloc, bc.n * sizeof(*ac->nodes));
    ac->edge_bytes = mv_alloc(b->alloc, ac->n_edges + 1);
    ac->edge_targets = mv_alloc(b->alloc, (ac->n_edges + 1) * sizeof(uint32_t));
    ac->dense_rows = mv_alloc(b->alloc, n_dense * 256 * sizeof(uint32_t));
    ac->out_ids = mv_alloc(b->alloc, (ac->n_out + 1) * sizeof(uint32_t));
    ac->out_lens = mv_alloc(b->alloc, (ac->n_out + 1) * sizeof(uint32_t));
    if (queue == NULL || new_index == NULL || ac->nodes == NULL || ac->edge_bytes == NULL ||
        ac->edge_targets == NULL || ac->dense_rows == NULL || ac->out_ids == NULL ||
        ac->out_lens == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    ac->edge_bytes[ac->n_edges] = 0;
    ac->edge_targets[ac->n_edges] = 0;
    ac->out_ids[ac->n_out] = 0;
    ac->out_lens[ac->n_out] = 0;

    /* 2. Breadth-first pass: state k of the automaton is queue[k] (root =
     * 0). A state's failure link is set when its parent is dequeued, from
     * the compact edges of shallower states. */
    size_t qlen = 0;
    uint32_t edge_pos = 0, out_pos = 0;
    queue[qlen++] = root;
    new_index[root] = 0;
    ac->nodes[0].fail = 0;
    ac->nodes[0].depth = 0;
    for (size_t qi = 0; qi < qlen; qi++) {
        const tnode *tn = &bc.t[queue[qi]];
        ac_node *n = &ac->nodes[qi];
        n->dense = qi < n_dense ? (uint32_t)qi : NO_NODE;
        n->out_start = out_pos;
        for (uint32_t pi = tn->out_head; pi != NO_NODE; pi = bc.out_next[pi]) {
            ac->out_ids[out_pos] = b->patterns[pi].id;
            ac->out_lens[out_pos] = b->patterns[pi].len;
            out_pos++;
        }
        n->out_count = out_pos - n->out_start;
        /* Edges sorted by byte (insertion sort: lists are short). */
        n->edge_start = edge_pos;
        for (uint32_t v = tn->first_child; v != NO_NODE; v = bc.t[v].next_sibling) {
            uint8_t c = bc.t[v].byte;
            uint32_t sv = (uint32_t)qlen++;
            queue[sv] = v;
            new_index[v] = sv;
            ac_node *child = &ac->nodes[sv];
            child->depth = n->depth + 1;
            if (qi == 0) {
                child->fail = 0;
            } else {
                uint32_t f = n->fail;
                uint32_t target;
                for (;;) {
                    if (f == 0) {
                        uint32_t k = bc.root_kid[c];
                        target = k != NO_NODE ? new_index[k] : 0;
                        break;
                    }
                    target = find_edge(ac, &ac->nodes[f], c);
                    if (target != NO_NODE)
                        break;
                    f = ac->nodes[f].fail;
                }
                child->fail = target;
            }
            uint32_t k = edge_pos++;
            while (k > n->edge_start && ac->edge_bytes[k - 1] > c) {
                ac->edge_bytes[k] = ac->edge_bytes[k - 1];
                ac->edge_targets[k] = ac->edge_targets[k - 1];
                k--;
            }
            ac->edge_bytes[k] = c;
            ac->edge_targets[k] = sv;
        }
        n->n_edges = edge_pos - n->edge_start;
    }
    /* Dictionary links: BFS order guarantees the fail target is done first. */
    ac->nodes[0].dict = NO_NODE;
    for (size_t i = 1; i < ac->n_nodes; i++) {
        const ac_node *f = &ac->nodes[ac->nodes[i].fail];
        ac->nodes[i].dict = f->out_count > 0 ? ac->nodes[i].fail : f->dict;
    }
    /* Dense rows (the first n_dense states): full transition function
     * (failure resolved); a child of the root fails to the root, whose row
     * is complete first. */
    for (size_t i = 0; i < n_dense; i++) {
        ac_node *n = &ac->nodes[i];
        uint32_t *row = ac->dense_rows + i * 256;
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
    mv_free(bc.alloc, path, (max_len + 1) * sizeof(uint32_t));
    if (rc != MV_OK) {
        mv_ac_free(ac);
        ac = NULL;
    }
    *out = ac;
    return rc;
}

/* ---- recorded automata (precomp.h) */

size_t mv_ac_builder_key(const mv_ac_builder *b, uint32_t *w) {
    size_t n = 3 + 2 * b->n_patterns + (b->pool_len + 3) / 4;
    if (w != NULL) {
        w[0] = b->flags;
        w[1] = (uint32_t)b->n_patterns;
        w[2] = (uint32_t)b->pool_len;
        for (size_t i = 0; i < b->n_patterns; i++) {
            w[3 + 2 * i] = b->patterns[i].len;
            w[4 + 2 * i] = b->patterns[i].id;
        }
        uint32_t *pool = w + 3 + 2 * b->n_patterns;
        if (b->pool_len % 4 != 0)
            pool[b->pool_len / 4] = 0;
        if (b->pool_len > 0)
            memcpy(pool, b->pool, b->pool_len);
    }
    return n;
}

/* The recorded automaton of exactly this builder content, loaded in place:
 * *found false when there is none (or its words do not load). Patterns sit
 * in the pool in insertion order, so comparing (len, id) pairs and the
 * pool compares every pattern. */
static int find_recorded(mv_ac **out, const mv_ac_builder *b, bool *found) {
    int rc = MV_OK;
    *found = false;
    for (size_t e = 0; e < mv_pc_n_ac && !*found; e++) {
        const uint32_t *ix = mv_pc_ac_index + e * MV_PC_AC_ENTRY;
        if (ix[0] != b->flags || ix[1] != b->n_patterns || ix[2] != b->pool_len)
            continue;
        const uint32_t *k = mv_pc_ac_words + ix[3];
        size_t i = 0;
        while (i < b->n_patterns && k[2 * i] == b->patterns[i].len &&
               k[2 * i + 1] == b->patterns[i].id)
            i++;
        if (i < b->n_patterns ||
            (b->pool_len > 0 && memcmp(k + 2 * b->n_patterns, b->pool, b->pool_len) != 0))
            continue;
        rc = mv_ac_load(out, b->alloc, mv_pc_ac_words + ix[4], ix[5]);
        if (rc == MV_EINVAL) {
            rc = MV_OK; /* damaged words: build instead */
            *out = NULL;
            break;
        }
        *found = rc == MV_OK;
    }
    return rc;
}

int mv_ac_build(mv_ac **out, const mv_ac_builder *b) {
    int rc = MV_OK;
    bool found = false;
    if (out == NULL || b == NULL)
        return MV_EINVAL;
    *out = NULL;
    rc = find_recorded(out, b, &found);
    if (rc != MV_OK || found)
        goto done;
    rc = mv_ac_build_fresh(out, b);
    if (rc == MV_OK && mv_precomp_recording()) {
        size_t n = mv_ac_builder_key(b, NULL);
        uint32_t *key = mv_alloc(b->alloc, n * sizeof(uint32_t));
        if (key != NULL) {
            mv_ac_builder_key(b, key);
            mv_precomp_note_ac(key, n, *out);
            mv_free(b->alloc, key, n * sizeof(uint32_t));
        }
    }
done:
    return rc;
}

void mv_ac_free(mv_ac *ac) {
    if (ac == NULL)
        return;
    if (ac->borrowed) {
        mv_free(ac->alloc, ac, sizeof(*ac));
        return;
    }
    mv_free(ac->alloc, ac->nodes, ac->n_nodes * sizeof(*ac->nodes));
    mv_free(ac->alloc, ac->edge_bytes, ac->n_edges + 1);
    mv_free(ac->alloc, ac->edge_targets, (ac->n_edges + 1) * sizeof(uint32_t));
    mv_free(ac->alloc, ac->dense_rows, ac->n_dense * 256 * sizeof(uint32_t));
    mv_free(ac->alloc, ac->out_ids, (ac->n_out + 1) * sizeof(uint32_t));
    mv_free(ac->alloc, ac->out_lens, (ac->n_out + 1) * sizeof(uint32_t));
    mv_free(ac->alloc, ac->dfa, ac->n_rows * ac->n_classes * sizeof(uint32_t));
    mv_free(ac->alloc, ac->dfa16, ac->n_rows * ac->n_classes * sizeof(uint16_t));
    mv_free(ac->alloc, ac, sizeof(*ac));
}

static inline uint32_t find_edge(const mv_ac *ac, const ac_node *n, uint8_t c) {
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

/* One full-table step on text byte s[i]; reports the outputs of the state
 * it enters. A macro so that the unrolled loops below stay one body. */
#define DFA_STEP(TABLE, BIT, I)                                                                    \
    do {                                                                                           \
        uint32_t next_ = (TABLE)[(size_t)state * n_classes + cls[s[(I)]]];                         \
        state = next_ & ~(uint32_t)(BIT);                                                          \
        if (next_ & (BIT)) {                                                                       \
            int r_ = report(ac, state, (I) + 1, cb, ctx);                                          \
            if (r_ != 0)                                                                           \
                return r_;                                                                         \
        }                                                                                          \
    } while (0)

/* Four bytes per round: the loop's own compare and increment are paid once
 * per four steps (callers check cb != NULL). */
static int scan_dfa(const mv_ac *ac, const unsigned char *s, size_t len, mv_ac_callback cb,
                    void *ctx) {
    const uint32_t *dfa = ac->dfa;
    const uint8_t *cls = ac->cls;
    size_t n_classes = ac->n_classes;
    uint32_t state = 0;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        DFA_STEP(dfa, DFA_OUTPUT_BIT, i);
        DFA_STEP(dfa, DFA_OUTPUT_BIT, i + 1);
        DFA_STEP(dfa, DFA_OUTPUT_BIT, i + 2);
        DFA_STEP(dfa, DFA_OUTPUT_BIT, i + 3);
    }
    for (; i < len; i++)
        DFA_STEP(dfa, DFA_OUTPUT_BIT, i);
    return 0;
}

static int scan_dfa16(const mv_ac *ac, const unsigned char *s, size_t len, mv_ac_callback cb,
                      void *ctx) {
    const uint16_t *dfa = ac->dfa16;
    const uint8_t *cls = ac->cls;
    size_t n_classes = ac->n_classes;
    uint32_t state = 0;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        DFA_STEP(dfa, DFA16_OUTPUT_BIT, i);
        DFA_STEP(dfa, DFA16_OUTPUT_BIT, i + 1);
        DFA_STEP(dfa, DFA16_OUTPUT_BIT, i + 2);
        DFA_STEP(dfa, DFA16_OUTPUT_BIT, i + 3);
    }
    for (; i < len; i++)
        DFA_STEP(dfa, DFA16_OUTPUT_BIT, i);
    return 0;
}

#undef DFA_STEP

/* The transition of a state without a row (rare: deep states). */
static uint32_t deep_step(const mv_ac *ac, uint32_t state, unsigned char byte) {
    const uint32_t *dfa = ac->dfa;
    size_t n_classes = ac->n_classes;
    uint32_t n_rows = (uint32_t)ac->n_rows;
    uint8_t c = ac->fold[byte];
    uint32_t st = state;
    uint32_t next;
    for (;;) {
        const ac_node *n = &ac->nodes[st];
        uint32_t t = find_edge(ac, n, c);
        if (t != NO_NODE) {
            const ac_node *tn = &ac->nodes[t];
            next = t | (tn->out_count > 0 || tn->dict != NO_NODE ? DFA_OUTPUT_BIT : 0);
            break;
        }
        st = n->fail;
        if (st < n_rows) {
            next = dfa[(size_t)st * n_classes + ac->cls[byte]];
            break;
        }
    }
    return next;
}

#define PARTIAL_STEP(I)                                                                            \
    do {                                                                                           \
        uint32_t next_ = state < n_rows ? dfa[(size_t)state * n_classes + cls[s[(I)]]]             \
                                        : deep_step(ac, state, s[(I)]);                            \
        state = next_ & ~DFA_OUTPUT_BIT;                                                           \
        if (next_ & DFA_OUTPUT_BIT) {                                                              \
            int r_ = report(ac, state, (I) + 1, cb, ctx);                                          \
            if (r_ != 0)                                                                           \
                return r_;                                                                         \
        }                                                                                          \
    } while (0)

/* Partial table: a state with a row takes one load; a deeper state tries
 * its own sparse edges, then follows failure links until an edge matches or
 * a state with a row answers (failure targets are shallower, so one does).
 * Four bytes per round, as scan_dfa. */
static int scan_partial(const mv_ac *ac, const unsigned char *s, size_t len, mv_ac_callback cb,
                        void *ctx) {
    const uint32_t *dfa = ac->dfa;
    const uint8_t *cls = ac->cls;
    size_t n_classes = ac->n_classes;
    uint32_t n_rows = (uint32_t)ac->n_rows;
    uint32_t state = 0;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        PARTIAL_STEP(i);
        PARTIAL_STEP(i + 1);
        PARTIAL_STEP(i + 2);
        PARTIAL_STEP(i + 3);
    }
    for (; i < len; i++)
        PARTIAL_STEP(i);
    return 0;
}

#undef PARTIAL_STEP

int mv_ac_scan(const mv_ac *ac, const char *text, size_t len, mv_ac_callback cb, void *ctx) {
    if (ac == NULL || (text == NULL && len > 0) || cb == NULL)
        return 0; /* without a callback a scan has no effect */
    const unsigned char *s = (const unsigned char *)text;
    if (ac->dfa16 != NULL)
        return scan_dfa16(ac, s, len, cb, ctx);
    if (ac->dfa != NULL)
        return ac->n_rows == ac->n_nodes ? scan_dfa(ac, s, len, cb, ctx)
                                         : scan_partial(ac, s, len, cb, ctx);
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
           ac->n_rows * ac->n_classes * (ac->dfa16 != NULL ? sizeof(uint16_t) : sizeof(uint32_t));
}

/* ---- saved automata
 *
 * Layout (32-bit words): a header, then each table as it is in memory, so a
 * loaded automaton points into the words instead of copying them.
 *   magic, version, byte-order probe, flags, n_nodes, n_edges, n_dense,
 *   n_out, n_classes (0: no DFA rows), bytes per DFA cell (0, 2 or 4),
 *   total words, n_rows (states with a DFA row), fold (64 words),
 *   cls (64 words),
 *   nodes (8 words each), edge_targets (n_edges + 1), out_ids (n_out + 1),
 *   out_lens (n_out + 1), dense_rows (n_dense * 256),
 *   DFA (n_rows * n_classes cells, padded to a word),
 *   edge_bytes (n_edges + 1, padded to a word).
 */
#define AC_SAVE_MAGIC 0x4D564143u /* "CAVM" */
#define AC_SAVE_VERSION 2u
#define AC_SAVE_HEADER 12u

/* Bytes 0, 1, 2, 3 stored as one word: a host with the other byte order
 * reads a different word and rejects the tables. */
static const uint8_t ac_probe[4] = {0, 1, 2, 3};

_Static_assert(sizeof(ac_node) == 8 * sizeof(uint32_t), "ac_node is saved as 8 words");

static size_t saved_words(size_t n_nodes, size_t n_edges, size_t n_dense, size_t n_out,
                          size_t n_classes, size_t cell, size_t n_rows) {
    return AC_SAVE_HEADER + 128 + n_nodes * 8 + (n_edges + 1) + 2 * (n_out + 1) + n_dense * 256 +
           (n_rows * n_classes * cell + 3) / 4 + (n_edges + 4) / 4;
}

static size_t dfa_cell(const mv_ac *ac) {
    return ac->dfa16 != NULL ? 2 : ac->dfa != NULL ? 4 : 0;
}

size_t mv_ac_saved_words(const mv_ac *ac) {
    size_t cell = dfa_cell(ac);
    return saved_words(ac->n_nodes, ac->n_edges, ac->n_dense, ac->n_out, cell ? ac->n_classes : 0,
                       cell, cell ? ac->n_rows : 0);
}

/* Copy `bytes` to w, zero-padded to whole words; returns the next word. */
static uint32_t *put(uint32_t *w, const void *src, size_t bytes) {
    if (bytes % 4 != 0)
        w[bytes / 4] = 0;
    if (bytes > 0)
        memcpy(w, src, bytes);
    return w + (bytes + 3) / 4;
}

void mv_ac_save(const mv_ac *ac, uint32_t *words) {
    size_t cell = dfa_cell(ac);
    size_t n_classes = cell ? ac->n_classes : 0;
    size_t total = mv_ac_saved_words(ac);
    uint32_t *w = words;
    *w++ = AC_SAVE_MAGIC;
    *w++ = AC_SAVE_VERSION;
    memcpy(w++, ac_probe, 4);
    *w++ = ac->flags;
    *w++ = (uint32_t)ac->n_nodes;
    *w++ = (uint32_t)ac->n_edges;
    *w++ = (uint32_t)ac->n_dense;
    *w++ = (uint32_t)ac->n_out;
    *w++ = (uint32_t)n_classes;
    *w++ = (uint32_t)cell;
    *w++ = (uint32_t)total;
    *w++ = (uint32_t)(cell ? ac->n_rows : 0);
    w = put(w, ac->fold, 256);
    w = put(w, ac->cls, 256);
    w = put(w, ac->nodes, ac->n_nodes * sizeof(ac_node));
    w = put(w, ac->edge_targets, (ac->n_edges + 1) * sizeof(uint32_t));
    w = put(w, ac->out_ids, (ac->n_out + 1) * sizeof(uint32_t));
    w = put(w, ac->out_lens, (ac->n_out + 1) * sizeof(uint32_t));
    w = put(w, ac->dense_rows, ac->n_dense * 256 * sizeof(uint32_t));
    w = put(w, cell == 2 ? (const void *)ac->dfa16 : (const void *)ac->dfa,
            (cell ? ac->n_rows : 0) * n_classes * cell);
    w = put(w, ac->edge_bytes, ac->n_edges + 1);
    assert((size_t)(w - words) == total);
}

int mv_ac_load(mv_ac **out, const mv_allocator *a, const uint32_t *words, size_t n_words) {
    int rc = MV_OK;
    mv_ac *ac = NULL;
    if (out == NULL || words == NULL) {
        rc = MV_EINVAL;
        goto done;
    }
    *out = NULL;
    if (a == NULL)
        a = mv_allocator_default();
    /* The header must say this format, this host's byte order, and sizes
     * that add up to exactly n_words. */
    if (n_words < AC_SAVE_HEADER + 128 || words[0] != AC_SAVE_MAGIC ||
        words[1] != AC_SAVE_VERSION || memcmp(&words[2], ac_probe, 4) != 0 || words[4] == 0 ||
        words[4] > UINT32_MAX / 256 || words[5] + 1 != words[4] || words[6] == 0 ||
        words[6] > words[4] || words[7] > UINT32_MAX / 4 || words[8] > 255 ||
        !(words[9] == 0 || words[9] == 2 || words[9] == 4) || (words[9] == 0) != (words[8] == 0) ||
        (words[9] == 2 && words[4] > DFA16_MAX_STATES) || words[10] != n_words ||
        words[11] > words[4] || (words[9] == 0) != (words[11] == 0) ||
        (words[9] == 2 && words[11] != words[4]) ||
        saved_words(words[4], words[5], words[6], words[7], words[8], words[9], words[11]) !=
            n_words) {
        rc = MV_EINVAL;
        goto done;
    }
    ac = mv_calloc(a, 1, sizeof(*ac));
    if (ac == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    ac->alloc = a;
    ac->borrowed = true;
    ac->flags = words[3];
    ac->n_nodes = words[4];
    ac->n_edges = words[5];
    ac->n_dense = words[6];
    ac->n_out = words[7];
    ac->n_classes = words[8];
    size_t cell = words[9];
    ac->n_rows = words[11];
    const uint32_t *w = words + AC_SAVE_HEADER;
    memcpy(ac->fold, w, 256);
    w += 64;
    memcpy(ac->cls, w, 256);
    w += 64;
    /* The tables are never written after construction: pointing the
     * (mutable-typed) fields at read-only words is safe. */
    ac->nodes = (ac_node *)(uintptr_t)w;
    w += ac->n_nodes * 8;
    ac->edge_targets = (uint32_t *)(uintptr_t)w;
    w += ac->n_edges + 1;
    ac->out_ids = (uint32_t *)(uintptr_t)w;
    w += ac->n_out + 1;
    ac->out_lens = (uint32_t *)(uintptr_t)w;
    w += ac->n_out + 1;
    ac->dense_rows = (uint32_t *)(uintptr_t)w;
    w += ac->n_dense * 256;
    if (cell == 2)
        ac->dfa16 = (uint16_t *)(uintptr_t)w;
    else if (cell == 4)
        ac->dfa = (uint32_t *)(uintptr_t)w;
    w += (ac->n_rows * ac->n_classes * cell + 3) / 4;
    ac->edge_bytes = (uint8_t *)(uintptr_t)w;
    *out = ac;
done:
    return rc;
}

bool mv_ac_equal(const mv_ac *x, const mv_ac *y) {
    if (x == NULL || y == NULL)
        return x == y;
    size_t cell = dfa_cell(x);
    size_t cells = cell ? x->n_rows * x->n_classes : 0;
    return x->flags == y->flags && x->n_nodes == y->n_nodes && x->n_edges == y->n_edges &&
           x->n_dense == y->n_dense && x->n_out == y->n_out && cell == dfa_cell(y) &&
           (cell == 0 || (x->n_classes == y->n_classes && x->n_rows == y->n_rows)) &&
           memcmp(x->fold, y->fold, 256) == 0 && (cell == 0 || memcmp(x->cls, y->cls, 256) == 0) &&
           memcmp(x->nodes, y->nodes, x->n_nodes * sizeof(ac_node)) == 0 &&
           memcmp(x->edge_bytes, y->edge_bytes, x->n_edges) == 0 &&
           memcmp(x->edge_targets, y->edge_targets, x->n_edges * sizeof(uint32_t)) == 0 &&
           memcmp(x->out_ids, y->out_ids, x->n_out * sizeof(uint32_t)) == 0 &&
           memcmp(x->out_lens, y->out_lens, x->n_out * sizeof(uint32_t)) == 0 &&
           memcmp(x->dense_rows, y->dense_rows, x->n_dense * 256 * sizeof(uint32_t)) == 0 &&
           (cell != 2 || memcmp(x->dfa16, y->dfa16, cells * sizeof(uint16_t)) == 0) &&
           (cell != 4 || memcmp(x->dfa, y->dfa, cells * sizeof(uint32_t)) == 0);
}
