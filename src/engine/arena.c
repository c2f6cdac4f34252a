/*
 * Bump-pointer arena over a chain of blocks drawn from an mv_allocator.
 * Reset keeps the first block so a per-tool scratch arena settles at its
 * working size and stops allocating after the first few tools.
 */
#include "mcpvet/arena.h"

#include <string.h>

#define ARENA_ALIGN 16u
#define ARENA_DEFAULT_BLOCK (64u * 1024u)

typedef struct arena_block {
    struct arena_block *prev; /* older block */
    size_t size;              /* usable bytes in data[] */
    size_t used;
    max_align_t align_dummy[]; /* data follows, suitably aligned */
} arena_block;

struct mv_arena {
    const mv_allocator *alloc;
    size_t block_size;
    arena_block *head; /* newest block, allocations come from here */
    size_t total;      /* bytes handed out since creation/reset */
    void *last;        /* most recent allocation, for in-place growth */
    size_t last_size;
};

static unsigned char *block_data(arena_block *b) {
    return (unsigned char *)b->align_dummy;
}

static size_t align_up(size_t n) {
    return (n + (ARENA_ALIGN - 1)) & ~(size_t)(ARENA_ALIGN - 1);
}

mv_arena *mv_arena_new(const mv_allocator *a, size_t block_size) {
    if (a == NULL)
        a = mv_allocator_default();
    mv_arena *arena = mv_alloc(a, sizeof(*arena));
    if (arena == NULL)
        return NULL;
    memset(arena, 0, sizeof(*arena));
    arena->alloc = a;
    arena->block_size = block_size == 0 ? ARENA_DEFAULT_BLOCK : block_size;
    return arena;
}

static void free_blocks(mv_arena *arena, arena_block *stop) {
    while (arena->head != stop) {
        arena_block *b = arena->head;
        arena->head = b->prev;
        mv_free(arena->alloc, b, sizeof(*b) + b->size);
    }
}

void mv_arena_free(mv_arena *arena) {
    if (arena == NULL)
        return;
    free_blocks(arena, NULL);
    mv_free(arena->alloc, arena, sizeof(*arena));
}

static arena_block *new_block(mv_arena *arena, size_t need) {
    size_t size = arena->block_size;
    if (need > size)
        size = need;
    if (size > SIZE_MAX - sizeof(arena_block))
        return NULL;
    arena_block *b = mv_alloc(arena->alloc, sizeof(*b) + size);
    if (b == NULL)
        return NULL;
    b->prev = arena->head;
    b->size = size;
    b->used = 0;
    arena->head = b;
    return b;
}

void *mv_arena_alloc(mv_arena *arena, size_t size) {
    if (arena == NULL || size > SIZE_MAX - ARENA_ALIGN)
        return NULL;
    size_t need = align_up(size == 0 ? 1 : size);
    arena_block *b = arena->head;
    if (b == NULL || b->size - b->used < need) {
        b = new_block(arena, need);
        if (b == NULL)
            return NULL;
    }
    void *p = block_data(b) + b->used;
    b->used += need;
    arena->total += need;
    arena->last = p;
    arena->last_size = need;
    return p;
}

void *mv_arena_calloc(mv_arena *arena, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    void *p = mv_arena_alloc(arena, count * size);
    if (p != NULL)
        memset(p, 0, count * size);
    return p;
}

char *mv_arena_memdup(mv_arena *arena, const void *src, size_t len) {
    if (len == SIZE_MAX)
        return NULL;
    char *p = mv_arena_alloc(arena, len + 1);
    if (p == NULL)
        return NULL;
    if (len > 0)
        memcpy(p, src, len);
    p[len] = '\0';
    return p;
}

void *mv_arena_grow(mv_arena *arena, void *ptr, size_t old_size, size_t new_size) {
    if (ptr == NULL)
        return mv_arena_alloc(arena, new_size);
    if (new_size <= old_size)
        return ptr;
    arena_block *b = arena->head;
    if (ptr == arena->last && b != NULL && new_size <= SIZE_MAX - ARENA_ALIGN) {
        size_t need = align_up(new_size);
        size_t start = (size_t)((unsigned char *)ptr - block_data(b));
        if (need <= b->size - start) {
            arena->total += need - arena->last_size;
            b->used = start + need;
            arena->last_size = need;
            return ptr;
        }
    }
    void *p = mv_arena_alloc(arena, new_size);
    if (p != NULL)
        memcpy(p, ptr, old_size);
    return p;
}

void mv_arena_reset(mv_arena *arena) {
    if (arena == NULL || arena->head == NULL)
        return;
    /* Keep the oldest block (the first one, usually the working size). */
    while (arena->head->prev != NULL) {
        arena_block *b = arena->head;
        arena->head = b->prev;
        mv_free(arena->alloc, b, sizeof(*b) + b->size);
    }
    arena->head->used = 0;
    arena->total = 0;
    arena->last = NULL;
    arena->last_size = 0;
}

size_t mv_arena_used(const mv_arena *arena) {
    return arena == NULL ? 0 : arena->total;
}

mv_arena_mark mv_arena_save(const mv_arena *arena) {
    mv_arena_mark m = {NULL, 0, 0};
    if (arena != NULL && arena->head != NULL) {
        m.block = arena->head;
        m.used = arena->head->used;
        m.total = arena->total;
    }
    return m;
}

void mv_arena_rewind(mv_arena *arena, mv_arena_mark mark) {
    if (arena == NULL)
        return;
    free_blocks(arena, (arena_block *)mark.block);
    if (arena->head != NULL)
        arena->head->used = mark.used;
    arena->total = mark.total;
    arena->last = NULL;
    arena->last_size = 0;
}
