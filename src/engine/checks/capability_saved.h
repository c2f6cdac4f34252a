/*
 * capability.mismatch's state saved at build time (issue 15). The check's
 * init parses three rule files and the shared sensitive list (~2M
 * instructions, most of what engine start-up had left); the build runs
 * that init once (tools/gen_precompiled.c), saves the state as words and
 * links them in. cap_init loads them (strings and tables read in place,
 * the automata from the recorded tables of precomp.h) when their header
 * matches the embedded rule files and this process's utf8proc, and parses
 * the rules otherwise. unit.test_startup compares a loaded state with a
 * parsed one field by field.
 */
#ifndef MV_CAPABILITY_SAVED_H
#define MV_CAPABILITY_SAVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/ac.h"
#include "mcpvet/common.h"

/* Index of `ac` among the recorded automata (precomp.h), UINT32_MAX when
 * it is not one of them (the save then fails). */
typedef uint32_t (*mv_cap_ac_ref)(void *ctx, const mv_ac *ac);

/* The check's init from the rule files, never from saved words. */
int mv_cap_init_runtime(const mv_allocator *a, void **state);

/* Save a state (from mv_cap_init_runtime) as words (caller frees with
 * mv_free(NULL, words, n * 4)). Returns 0, MV_ENOMEM or MV_EINVAL. */
int mv_cap_save(const void *state, mv_cap_ac_ref ref, void *ctx, uint32_t **words, size_t *n_words);

/* Load saved words (which must outlive the state). MV_EINVAL when they do
 * not match the embedded rules or this build (stale), MV_ENOMEM. */
int mv_cap_load(const mv_allocator *a, const uint32_t *words, size_t n_words, void **state);

/* Field-by-field equality of two states, automata included. */
bool mv_cap_state_equal(const void *x, const void *y);

/* Hash of the rule files the state is made from, the format and the
 * utf8proc version (the phrases are normalized). */
uint64_t mv_cap_sources_hash(void);

extern const uint32_t mv_cap_precompiled_words[];
extern const size_t mv_cap_precompiled_n_words;

#endif
