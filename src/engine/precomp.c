/*
 * Lookup of the phrase normalizations recorded at build time (precomp.h).
 * The automata are looked up in ac.c, which owns the builder's layout.
 */
#include "precomp.h"

#include <string.h>
#include <utf8proc.h>

bool mv_precomp_phrases_usable(void) {
    return mv_pc_phrase_n_slots > 0 && strcmp(mv_pc_utf8proc_version, utf8proc_version()) == 0 &&
           strcmp(mv_pc_unicode_version, utf8proc_unicode_version()) == 0;
}

const char *mv_precomp_phrase(const char *phrase, size_t len, size_t *out_len) {
    const char *res = NULL;
    if (mv_pc_phrase_n_slots == 0 || len > UINT32_MAX)
        return NULL;
    size_t mask = mv_pc_phrase_n_slots - 1;
    for (size_t s = (size_t)mv_pc_hash(phrase, len) & mask;; s = (s + 1) & mask) {
        uint32_t e = mv_pc_phrase_slots[s];
        if (e == 0)
            break; /* the table is never full: an empty slot ends the probe */
        const uint32_t *ix = mv_pc_phrase_index + (size_t)(e - 1) * MV_PC_PHRASE_ENTRY;
        if (ix[1] == len && memcmp(mv_pc_phrase_pool + ix[0], phrase, len) == 0) {
            res = mv_pc_phrase_pool + ix[2];
            *out_len = ix[3];
            break;
        }
    }
    return res;
}
