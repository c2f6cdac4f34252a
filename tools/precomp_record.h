/*
 * The generator's recorder (tools/precompiled_none.c): while on, every
 * phrase normalized and every automaton built by the engine objects is kept
 * (first occurrence of each distinct key), for tools/gen_precompiled.c to
 * write out.
 */
#ifndef MV_PRECOMP_RECORD_H
#define MV_PRECOMP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rec_phrase {
    char *in, *out;
    size_t in_len, out_len;
} rec_phrase;

typedef struct rec_ac {
    uint32_t *key; /* builder content, precomp.h layout */
    size_t key_words;
    uint32_t *words; /* mv_ac_save */
    size_t n_words;
} rec_ac;

void mv_precomp_record(bool on);
/* Recorded entries in order; NULL count pointers are fine. Returns false
 * when an allocation failed while recording (the tables would be partial). */
bool mv_precomp_recorded(const rec_phrase **phrases, size_t *n_phrases, const rec_ac **acs,
                         size_t *n_acs);
void mv_precomp_record_free(void);

#endif
