/*
 * No precompiled tables: linked into the table generator itself (which
 * compiles the rules at run time), so that the engine objects' references
 * to the generated tables resolve. mv_dr_compile_builtin sees an empty
 * table and compiles; mv_normalize_phrase and mv_ac_build find nothing
 * recorded and compute. The recording hooks of precomp.h live here: the
 * generator turns recording on around the engine construction it wants
 * written out (tools/precomp_record.h).
 */
#include <stdlib.h>
#include <string.h>

#include "capability_saved.h"
#include "precomp.h"
#include "precomp_record.h"

extern const uint32_t mv_dr_precompiled_words[];
extern const size_t mv_dr_precompiled_n_words;

const uint32_t mv_dr_precompiled_words[1] = {0};
const size_t mv_dr_precompiled_n_words = 0;

const uint32_t mv_cap_precompiled_words[1] = {0};
const size_t mv_cap_precompiled_n_words = 0;

const size_t mv_pc_n_ac = 0;
const uint32_t mv_pc_ac_index[1] = {0};
const uint32_t mv_pc_ac_words[1] = {0};
const size_t mv_pc_n_phrases = 0;
const uint32_t mv_pc_phrase_index[1] = {0};
const size_t mv_pc_phrase_n_slots = 0;
const uint32_t mv_pc_phrase_slots[1] = {0};
const char mv_pc_phrase_pool[1] = {0};
const char mv_pc_utf8proc_version[] = "";
const char mv_pc_unicode_version[] = "";

static bool recording;
static bool failed;
static rec_phrase *phrases;
static size_t n_phrases, cap_phrases;
static rec_ac *acs;
static size_t n_acs, cap_acs;
/* Which phrases are recorded: an open-addressing set of phrase index + 1
 * (0 = empty), kept at most half full. The engine asks for about a million
 * normalizations while it starts; a linear search of the recorded ones made
 * the generator quadratic (2.5 minutes of memcmp on every engine change). */
static uint32_t *phrase_slots;
static size_t n_phrase_slots;

void mv_precomp_record(bool on) {
    recording = on;
}

bool mv_precomp_recording(void) {
    return recording;
}

static void *dup_bytes(const void *p, size_t n, size_t extra) {
    char *d = malloc(n + extra);
    if (d != NULL) {
        if (n > 0)
            memcpy(d, p, n);
        memset(d + n, 0, extra);
    }
    return d;
}

/* The slot that holds `in`, or the empty slot where it would go. */
static uint32_t *phrase_slot(const char *in, size_t in_len) {
    size_t mask = n_phrase_slots - 1;
    for (size_t i = (size_t)mv_pc_hash(in, in_len) & mask;; i = (i + 1) & mask) {
        uint32_t e = phrase_slots[i];
        if (e == 0 ||
            (phrases[e - 1].in_len == in_len && memcmp(phrases[e - 1].in, in, in_len) == 0))
            return &phrase_slots[i];
    }
}

/* Doubles the phrase set when the next entry would make it more than half
 * full. False when out of memory. */
static bool grow_phrase_slots(void) {
    if (2 * (n_phrases + 1) <= n_phrase_slots)
        return true;
    size_t n = n_phrase_slots ? n_phrase_slots * 2 : 4096;
    uint32_t *slots = calloc(n, sizeof(*slots));
    if (slots == NULL)
        return false;
    free(phrase_slots);
    phrase_slots = slots;
    n_phrase_slots = n;
    for (size_t p = 0; p < n_phrases; p++)
        *phrase_slot(phrases[p].in, phrases[p].in_len) = (uint32_t)(p + 1);
    return true;
}

void mv_precomp_note_phrase(const char *in, size_t in_len, const char *out, size_t out_len) {
    if (failed)
        return;
    if (!grow_phrase_slots()) {
        failed = true;
        return;
    }
    uint32_t *slot = phrase_slot(in, in_len);
    if (*slot != 0)
        return;
    if (n_phrases == cap_phrases) {
        size_t cap = cap_phrases ? cap_phrases * 2 : 1024;
        rec_phrase *p = realloc(phrases, cap * sizeof(*p));
        if (p == NULL) {
            failed = true;
            return;
        }
        phrases = p;
        cap_phrases = cap;
    }
    rec_phrase r = {dup_bytes(in, in_len, 1), dup_bytes(out, out_len, 1), in_len, out_len};
    if (r.in == NULL || r.out == NULL) {
        free(r.in);
        free(r.out);
        failed = true;
        return;
    }
    phrases[n_phrases++] = r;
    *slot = (uint32_t)n_phrases;
}

void mv_precomp_note_ac(const uint32_t *key, size_t key_words, const mv_ac *ac) {
    for (size_t i = 0; i < n_acs; i++)
        if (acs[i].key_words == key_words &&
            memcmp(acs[i].key, key, key_words * sizeof(uint32_t)) == 0)
            return;
    if (n_acs == cap_acs) {
        size_t cap = cap_acs ? cap_acs * 2 : 16;
        rec_ac *p = realloc(acs, cap * sizeof(*p));
        if (p == NULL) {
            failed = true;
            return;
        }
        acs = p;
        cap_acs = cap;
    }
    rec_ac r = {dup_bytes(key, key_words * sizeof(uint32_t), 0), key_words, NULL,
                mv_ac_saved_words(ac)};
    r.words = malloc(r.n_words * sizeof(uint32_t));
    if (r.key == NULL || r.words == NULL) {
        free(r.key);
        free(r.words);
        failed = true;
        return;
    }
    mv_ac_save(ac, r.words);
    acs[n_acs++] = r;
}

bool mv_precomp_recorded(const rec_phrase **p, size_t *np, const rec_ac **a, size_t *na) {
    *p = phrases;
    *np = n_phrases;
    *a = acs;
    *na = n_acs;
    return !failed;
}

void mv_precomp_record_free(void) {
    for (size_t i = 0; i < n_phrases; i++) {
        free(phrases[i].in);
        free(phrases[i].out);
    }
    for (size_t i = 0; i < n_acs; i++) {
        free(acs[i].key);
        free(acs[i].words);
    }
    free(phrases);
    free(acs);
    free(phrase_slots);
    phrases = NULL;
    acs = NULL;
    phrase_slots = NULL;
    n_phrases = cap_phrases = n_acs = cap_acs = n_phrase_slots = 0;
}
