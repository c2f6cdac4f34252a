/*
 * Whole fields without a blind spot (issue 10, section 5). The model keeps
 * the whole string of a field longer than its field cap, but the costly
 * checks (normalization, phrase rules, secret patterns, mentions) read only
 * the first max_field_bytes. The cheap linear checks (hidden characters,
 * encoded blobs) read the whole string themselves; for the costly ones this
 * module picks, in one linear pass over the part past the cap, the few
 * windows that look like an instruction (a tag, an order, secrecy, a
 * sensitive resource, a sink, words addressed to the model), and the
 * engine hands those windows to every check as extra fields.
 *
 * The cue words only choose where to look; they never decide a verdict.
 * Pure: no I/O, bounded work (one Aho-Corasick pass over the tail, then a
 * pass over chunk scores), deterministic.
 */
#ifndef MV_ENGINE_TAIL_H
#define MV_ENGINE_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

#define MV_TAIL_CHUNK 2048u   /* bytes per scored chunk; a window is two chunks */
#define MV_TAIL_WINDOWS 4u    /* windows taken per cut field */
#define MV_TAIL_MIN_CLASSES 2 /* distinct cue classes a window needs */

typedef struct mv_tail mv_tail;

/* Build / free the cue automaton. Returns 0 or MV_ENOMEM. */
int mv_tail_new(mv_tail **out, const mv_allocator *a);
void mv_tail_free(mv_tail *t);

typedef struct mv_tail_window {
    uint64_t start, end; /* byte range in the whole string */
} mv_tail_window;

/* Windows worth the costly checks in text[from, len) (from = the cap):
 * at most MV_TAIL_WINDOWS, in text order, on character boundaries. Sets
 * *n, and *capped when another qualifying window was left out by the
 * limit. Scratch memory from `arena` (released before returning).
 * Returns 0 or MV_ENOMEM. */
int mv_tail_windows(const mv_tail *t, mv_arena *arena, const char *text, size_t len, size_t from,
                    mv_tail_window *out, uint32_t *n, bool *capped);

#endif
