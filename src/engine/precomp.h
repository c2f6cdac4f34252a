/*
 * Start-up results made at build time (issue 15). Engine construction
 * normalizes a few thousand rule phrases and builds a handful of
 * Aho-Corasick automata from them, the same ones on every start; the build
 * runs that construction once (tools/gen_precompiled.c), records every
 * phrase and automaton it produced and links them into the binary as
 * read-only tables (generated/precompiled.{c,S,bin}). At run time
 * mv_normalize_phrase and mv_ac_build look their input up first:
 *
 *  - a phrase is found by its exact bytes and gives the recorded output
 *    (when the process runs the utf8proc the build recorded with);
 *  - an automaton is found by its builder's exact content (flags, every
 *    pattern's bytes, length and id, in order) and is loaded in place from
 *    the saved words (mv_ac_load: nothing copied, pages mapped on use).
 *
 * A lookup compares the whole key, so a hit returns exactly what the
 * computation would have returned, and anything not recorded (a changed
 * rule, a test's own patterns, a registry's tool names) is computed as
 * before. The tables are regenerated whenever an engine object changes (the
 * generator links those objects), and unit.test_startup rebuilds every
 * recorded entry from scratch and compares.
 *
 * The generator links tools/precompiled_none.c instead of the generated
 * file: empty tables, and mv_precomp_recording()/mv_precomp_note_* that
 * record. The engine binary's note functions do nothing.
 */
#ifndef MV_PRECOMP_H
#define MV_PRECOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mcpvet/ac.h"

/* Words per automaton index entry: flags, n_patterns, pool_len, key offset,
 * automaton offset, automaton words (offsets in words into mv_pc_ac_words).
 * The key is n_patterns (len, id) pairs, then the pattern bytes in order,
 * zero-padded to a word. */
#define MV_PC_AC_ENTRY 6u
/* Words per phrase index entry: input offset, input length, output offset,
 * output length (into mv_pc_phrase_pool; outputs are NUL-terminated). */
#define MV_PC_PHRASE_ENTRY 4u

extern const size_t mv_pc_n_ac;
extern const uint32_t mv_pc_ac_index[];
extern const uint32_t mv_pc_ac_words[];
extern const size_t mv_pc_n_phrases;
extern const uint32_t mv_pc_phrase_index[];
extern const size_t mv_pc_phrase_n_slots;   /* a power of two, or 0 */
extern const uint32_t mv_pc_phrase_slots[]; /* entry index + 1, 0 = empty */
extern const char mv_pc_phrase_pool[];
/* The utf8proc the phrases were normalized with: NFKC and the character
 * categories come from it at run time, so the recorded phrases are used
 * only when the library is the same version. */
extern const char mv_pc_utf8proc_version[];
extern const char mv_pc_unicode_version[];

/* Hash of a phrase, shared by the generator (which lays out the slots) and
 * the lookup: eight bytes per step. A host that hashed differently would
 * only miss and normalize, never find a wrong entry (keys are compared in
 * full). */
static inline uint64_t mv_pc_hash(const char *s, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    uint64_t t = 0;
    memcpy(&t, s + i, n - i);
    h = (h ^ t) * 0xC4CEB9FE1A85EC53u;
    h ^= h >> 29;
    return h;
}

/* True when the recorded phrases were made with this process's utf8proc
 * (mv_normalizer_new asks once). */
bool mv_precomp_phrases_usable(void);

/* The recorded normalization of phrase[0..len), or NULL. */
const char *mv_precomp_phrase(const char *phrase, size_t len, size_t *out_len);

/* True only in the generator while it records. */
bool mv_precomp_recording(void);

/* Recording hooks (no-ops in the engine binary). `key` is the builder
 * content in the layout above, starting with flags, n_patterns, pool_len. */
void mv_precomp_note_phrase(const char *in, size_t in_len, const char *out, size_t out_len);
void mv_precomp_note_ac(const uint32_t *key, size_t key_words, const mv_ac *ac);

/* ac.c internals for the generator and unit.test_startup: the builder's
 * content as key words (NULL words: just the count), and a build that never
 * consults the recorded tables. */
size_t mv_ac_builder_key(const mv_ac_builder *b, uint32_t *words);
int mv_ac_build_fresh(mv_ac **out, const mv_ac_builder *b);

#endif
