/*
 * Bump-pointer arena. Per-tool scratch memory and parsed tool sets live in
 * arenas so a scan does a handful of allocations instead of thousands, and a
 * whole tool's worth of temporaries is released with one reset.
 */
#ifndef MCPVET_ARENA_H
#define MCPVET_ARENA_H

#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mv_arena mv_arena;

/* New arena drawing blocks of at least `block_size` bytes (0 = 64 KiB) from
 * `a` (NULL = default). Returns NULL on out-of-memory. */
mv_arena *mv_arena_new(const mv_allocator *a, size_t block_size);

/* Release every block. NULL is a no-op. */
void mv_arena_free(mv_arena *arena);

/* `size` bytes aligned to 16; NULL on out-of-memory or size overflow.
 * Memory is valid until the next reset/rewind past it or free. */
void *mv_arena_alloc(mv_arena *arena, size_t size);

/* Zeroed allocation of count*size bytes; NULL on overflow or OOM. */
void *mv_arena_calloc(mv_arena *arena, size_t count, size_t size);

/* Copy `len` bytes and append a NUL (the copy may contain NULs itself). */
char *mv_arena_memdup(mv_arena *arena, const void *src, size_t len);

/* Grow the most recent allocation `ptr` (of `old_size`) to `new_size` in
 * place when possible, else copy. NULL ptr behaves as alloc. */
void *mv_arena_grow(mv_arena *arena, void *ptr, size_t old_size, size_t new_size);

/* Forget every allocation but keep the first block for reuse. */
void mv_arena_reset(mv_arena *arena);

/* Bytes handed out since creation or the last reset. */
size_t mv_arena_used(const mv_arena *arena);

/* Save/restore points for scoped temporaries. */
typedef struct mv_arena_mark {
    void *block;
    size_t used;
    size_t total;
} mv_arena_mark;

mv_arena_mark mv_arena_save(const mv_arena *arena);
void mv_arena_rewind(mv_arena *arena, mv_arena_mark mark);

#ifdef __cplusplus
}
#endif
#endif
