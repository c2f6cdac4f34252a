/*
 * The checks' per-field result memo: a bounded store of byte records keyed
 * by a field's text (compared in full), a 32-bit tag (check, slot, field
 * kind) and a few salt bytes. One per scan worker, so it needs no lock.
 * The engine (engine.c: mv_memo_find, mv_memo_keep) decides what a record
 * holds; this file only keeps the bytes. Bounded: texts up to
 * MV_FMEMO_MAX_TEXT bytes, a pool of MV_FMEMO_MAX_POOL bytes and
 * MV_FMEMO_MAX_ENTRIES texts and records; when one is full everything is
 * dropped and the generation changes (text ids of the old generation are
 * then invalid). An allocation failure turns the memo off. A lookup can
 * only miss, never return another key's record, so nothing here can
 * change a scan's result.
 */
#ifndef MCPVET_ENGINE_MEMO_H
#define MCPVET_ENGINE_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/common.h"

#define MV_FMEMO_MAX_TEXT ((size_t)64 << 10)
#define MV_FMEMO_MAX_POOL ((size_t)16 << 20)
#define MV_FMEMO_MAX_ENTRIES ((size_t)1 << 17)
#define MV_FMEMO_NONE UINT32_MAX
/* Texts at least this long keep their bytes from their first sight and may
 * get records then; shorter ones only from their second sight. */
#define MV_FMEMO_KEEP_FIRST ((size_t)48)

/* The state the text hash (hash.h: mv_hash_bytes) starts from for a text
 * of `len` bytes; exposed for the tests that build colliding texts. */
static inline uint64_t mv_fmemo_hash_start(size_t len) {
    return 0x243F6A8885A308D3u ^ (uint64_t)len * 0x9E3779B97F4A7C15u;
}

typedef struct mv_fmemo mv_fmemo;

/* NULL when out of memory. */
mv_fmemo *mv_fmemo_new(const mv_allocator *a);
void mv_fmemo_free(mv_fmemo *m);

/* Changes whenever the memo is emptied; text ids are valid for one
 * generation. */
uint64_t mv_fmemo_generation(const mv_fmemo *m);

/* The id of text[0, len) in the current generation; MV_FMEMO_NONE when
 * the text is too long or the memo is off. Two texts get the same id only
 * when their bytes are equal. A text shorter than MV_FMEMO_KEEP_FIRST is
 * first remembered by its hash alone, so a short text seen once costs a
 * hash and no copy; records are kept only for texts whose bytes are kept.
 * *repeat is true from a text's second sight on. May empty the memo (a
 * new generation) to make room. */
uint32_t mv_fmemo_text(mv_fmemo *m, const char *text, size_t len, bool *repeat);

/* The record kept for (text id, tag, salt), or NULL; *len its size. The
 * pointer is valid until the next call that may add to the memo. */
const void *mv_fmemo_get(const mv_fmemo *m, uint32_t text, uint32_t tag, const void *salt,
                         size_t salt_len, size_t *len);

/* Keep a record for (text id of generation `gen`, tag, salt). Does nothing
 * when the generation has changed or the record
 * does not fit (the memo is then emptied for the next ones). The key must
 * not be kept already (put after a get that missed). */
void mv_fmemo_put(mv_fmemo *m, uint64_t gen, uint32_t text, uint32_t tag, const void *salt,
                  size_t salt_len, const void *rec, size_t len);

#endif
