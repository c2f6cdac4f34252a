/*
 * Aho-Corasick multi-pattern matcher: every phrase of every rule family, or
 * every tool name of a registry, is found in one left-to-right pass over the
 * text, in time linear in the text plus the matches. Replaces regex
 * alternations (no backtracking, no per-pattern passes).
 *
 * Build once (mv_ac_builder -> mv_ac), then scan any number of texts from
 * any number of threads: a built automaton is immutable.
 */
#ifndef MCPVET_AC_H
#define MCPVET_AC_H

#include <stdbool.h>
#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mv_ac mv_ac;
typedef struct mv_ac_builder mv_ac_builder;

/* Match ASCII letters case-insensitively (patterns and text). Other bytes,
 * including UTF-8, match exactly. */
#define MV_AC_ASCII_CASEFOLD (1u << 0)

/* New builder; NULL allocator = default. NULL on out-of-memory. */
mv_ac_builder *mv_ac_builder_new(const mv_allocator *a, unsigned flags);
void mv_ac_builder_free(mv_ac_builder *b);

/* Add a pattern (bytes, may contain NUL; empty patterns are rejected) with
 * a caller-chosen id reported on each match. The same bytes may be added
 * with several ids. Returns 0, MV_ENOMEM, MV_EINVAL (empty, too many). */
int mv_ac_builder_add(mv_ac_builder *b, const char *pattern, size_t len, uint32_t id);

/* Number of patterns added so far. */
size_t mv_ac_builder_count(const mv_ac_builder *b);

/* Compile the automaton. The builder stays valid (and may be freed).
 * Returns 0, MV_ENOMEM, MV_EINVAL. */
int mv_ac_build(mv_ac **out, const mv_ac_builder *b);
void mv_ac_free(mv_ac *ac);

/* A match: pattern `id` occupies text[start, end). */
typedef struct mv_ac_match {
    uint32_t id;
    uint32_t pattern_len;
    size_t start;
    size_t end;
} mv_ac_match;

/* Called for each match in order of `end`, then of decreasing length for
 * equal ends. Return 0 to continue, non-zero to stop the scan (that value is
 * returned by mv_ac_scan). */
typedef int (*mv_ac_callback)(void *ctx, const mv_ac_match *m);

/* Scan `len` bytes. Returns 0 when the text was fully scanned, or the
 * callback's non-zero value. */
int mv_ac_scan(const mv_ac *ac, const char *text, size_t len, mv_ac_callback cb, void *ctx);

/* Statistics for benchmarks: states and memory in bytes. */
size_t mv_ac_state_count(const mv_ac *ac);
size_t mv_ac_memory(const mv_ac *ac);

/*
 * Saved automata, for tables computed at build time: an automaton written as
 * 32-bit words and used again straight from them (no construction, no copy).
 *
 * mv_ac_saved_words gives the number of words mv_ac_save writes. mv_ac_load
 * makes an automaton whose tables are the borrowed `words` (they must
 * outlive it; mv_ac_free then releases only the handle); NULL allocator =
 * default. The words must come from mv_ac_save of this version on a host of
 * the same byte order: the header is checked (format, version, byte order,
 * sizes adding up to n_words), the tables are trusted. Returns 0, MV_ENOMEM,
 * or MV_EINVAL (NULL arguments, not such words).
 */
size_t mv_ac_saved_words(const mv_ac *ac);
void mv_ac_save(const mv_ac *ac, uint32_t *words);
int mv_ac_load(mv_ac **out, const mv_allocator *a, const uint32_t *words, size_t n_words);

/* Whether two automata are identical: same states in the same numbering,
 * edges, outputs and tables (so they report the same matches). */
bool mv_ac_equal(const mv_ac *x, const mv_ac *y);

#ifdef __cplusplus
}
#endif
#endif
