/*
 * The project's one JSON reader (the tool model, the MCP client, client
 * configs and the store all use it): a strict RFC 8259 parser that builds a compact,
 * read-only tree in an arena. It replaces a general-purpose DOM because the
 * model reads every tool definition once and throws the tree away: values
 * are 16 bytes laid out contiguously per container, strings without escapes
 * point straight into the input, and the tree is released with its arena.
 *
 * Strictness (a scanner and an agent must never read two different
 * documents): invalid UTF-8 (overlong forms, encoded surrogates, cut
 * sequences, code points above U+10FFFF), unpaired \u surrogate escapes,
 * raw control characters in strings, duplicate object keys (compared after
 * escapes are decoded, so "\u0070" equals "p"), "\u0000" inside a key,
 * anything after the top-level value and a top-level value that is not an
 * object or array are all errors with the byte offset of the culprit.
 * "\u0000" inside a string value is kept. Nesting is limited to
 * MV_JSON_MAX_DEPTH; the parser itself uses no recursion.
 *
 * Internal to mcpvet (not part of the public include/ headers).
 */
#ifndef MCPVET_JSON_JSON_H
#define MCPVET_JSON_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

#define MV_JSON_MAX_DEPTH 2048u

typedef enum mv_jtype {
    MV_JNULL = 0,
    MV_JFALSE,
    MV_JTRUE,
    MV_JNUMBER, /* validated, never converted: the model only needs the type */
    MV_JSTRING,
    MV_JARRAY,
    MV_JOBJECT
} mv_jtype;

/* Only from mv_json_parse_lazy: a string value validated exactly as
 * mv_json_parse validates strings but not decoded; `u.s` and `n` are its
 * raw text between the quotes, escapes still in (decode it with
 * mv_json_raw_decode). Not a string to mv_jis_string and mv_jstring: a
 * caller that reads it must ask for it. Outside the enum on purpose: no
 * reader of mv_json_parse's trees ever meets it. */
#define MV_JRAW 7u

typedef struct mv_jm mv_jm;

/* One value. `n` is the byte length of a string or number, the item count
 * of an array, the member count of an object. */
typedef struct mv_jv {
    uint32_t type; /* mv_jtype */
    uint32_t n;
    union {
        const char *s;              /* string (decoded) or number text */
        const struct mv_jv *items; /* array */
        const mv_jm *members;      /* object, in document order */
    } u;
} mv_jv;

/* One object member. Keys never contain NUL. */
struct mv_jm {
    const char *key;
    uint32_t key_len;
    mv_jv value;
};

/* Objects with more members than this also carry a key-sorted index, so a
 * lookup in a hostile 100,000-key object is a binary search. */
#define MV_JSON_INDEX_MIN 32u

/* A parse failure: `offset` is the byte offset of the culprit (the start of
 * the offending token, the bad byte, the duplicate key's opening quote, or
 * the input length for a premature end). */
typedef struct mv_jerror {
    int code;       /* MV_EPARSE, MV_ENOMEM */
    bool utf8;      /* an invalid UTF-8 error */
    bool dup_key;   /* a duplicate key: offset is its opening quote */
    size_t key_len; /* dup_key: raw (still escaped) key bytes after the quote */
    size_t offset;
    char message[400];
} mv_jerror;

/*
 * Parse `len` bytes into a tree allocated from `arena`; strings without
 * escapes borrow from `data`, which must outlive the tree. Scratch memory
 * comes from `alloc` and is released before returning. Returns 0 with *out
 * set, or MV_EPARSE / MV_ENOMEM with *err filled.
 */
int mv_json_parse(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc, const char *data,
                   size_t len, mv_jerror *err);

/*
 * A lazy parse, for a reader that passes most of a message on as bytes
 * (the proxy's relay): exactly mv_json_parse's validation, errors and
 * offsets, and the same tree, except that a string value (never a key)
 * inside at least `depth` containers whose raw text is at least `min_len`
 * bytes and holds an escape is left undecoded, as an MV_JRAW value. Its
 * escapes, UTF-8 and control bytes are checked all the same, so a document
 * one parse refuses the other refuses too. `n_raw` (out) counts the raw
 * values: 0 means the tree is the one mv_json_parse gives.
 */
typedef struct mv_json_lazy {
    size_t depth;
    size_t min_len;
    size_t n_raw;
} mv_json_lazy;

int mv_json_parse_lazy(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc,
                       const char *data, size_t len, mv_json_lazy *lazy, mv_jerror *err);

/* Decode the raw text of an MV_JRAW value (`src`, `len` = its u.s and n)
 * into dst, which holds len + MV_JSON_RAW_SLACK bytes (the decoded text is
 * never longer than len; the rest is room for whole 16-byte stores) and
 * does not overlap src. Returns the decoded length: the bytes mv_json_parse
 * gives for that string. Only for text the parser validated. */
#define MV_JSON_RAW_SLACK 16u
size_t mv_json_raw_decode(char *dst, const char *src, size_t len);

/*
 * The same tree as mv_json_parse, parsed on 1 + n_more threads: the largest
 * array at the top of the document (the document itself or a member of the
 * top-level object: a snapshot's "servers", a list's "tools") is cut
 * between items and the runs are parsed at once, thread k + 1 allocating
 * from more[k] (the tree lives in all the arenas: they must outlive it).
 * Small documents (under 256 KiB), n_more == 0 and anything unusual take
 * the one pass. Errors are exactly mv_json_parse's: a document that fails
 * anywhere is parsed again in one pass, which reports it.
 */
int mv_json_parse_split(const mv_jv **out, mv_arena *arena, mv_arena *const *more, size_t n_more,
                        const mv_allocator *alloc, const char *data, size_t len, mv_jerror *err);

/*
 * Chunked parsing, for a caller that consumes a large document's biggest
 * array a few runs at a time and drops each run's tree before the next
 * (the tool model at a million tools). The plan cuts that array (as
 * mv_json_parse_split picks it) between items into runs of about
 * `run_bytes`; mv_json_chunks_outer parses the rest of the document with
 * "[]" in the array's place; mv_json_chunks_items parses the runs
 * [first, first + count) on `count` threads (run first + k into
 * arenas[k]) and gives their items in order (the array in arenas[0]).
 * Strings without escapes borrow from `data`. A failure of any piece says
 * nothing exact about the document: the caller parses it again in one
 * pass (mv_json_parse) for the real error. Plan: 0 with n >= 2 runs,
 * MV_EPARSE when there is nothing to cut, MV_ENOMEM.
 */
typedef struct mv_json_chunks {
    size_t member;             /* depth 2: index of the array's member in the top-level object */
    size_t depth;              /* 1: the document is the array; 2: a member of the top object */
    size_t arr_begin, arr_end; /* the array's '[' and the byte after its ']' */
    size_t *cuts;              /* the commas between runs (n - 1) */
    size_t cap_cuts;
    size_t n; /* runs */
} mv_json_chunks;

int mv_json_chunks_plan(mv_json_chunks *out, const mv_allocator *alloc, const char *data,
                        size_t len, size_t run_bytes);
void mv_json_chunks_free(mv_json_chunks *c, const mv_allocator *alloc);
int mv_json_chunks_outer(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc,
                         const char *data, size_t len, const mv_json_chunks *c, mv_jerror *err);
int mv_json_chunks_items(const mv_jv **items, size_t *n_items, mv_arena *const *arenas,
                         size_t count, const mv_allocator *alloc, const char *data,
                         const mv_json_chunks *c, size_t first, mv_jerror *err);

/* Accessors; like the DOM they replace they accept NULL and wrong types
 * (giving NULL, 0 or false) so shape checks stay short. */
static inline bool mv_jis(const mv_jv *v, mv_jtype t) {
    return v != NULL && v->type == (uint32_t)t;
}
static inline bool mv_jis_object(const mv_jv *v) {
    return mv_jis(v, MV_JOBJECT);
}
static inline bool mv_jis_array(const mv_jv *v) {
    return mv_jis(v, MV_JARRAY);
}
static inline bool mv_jis_string(const mv_jv *v) {
    return mv_jis(v, MV_JSTRING);
}
static inline bool mv_jis_raw(const mv_jv *v) {
    return v != NULL && v->type == MV_JRAW;
}
static inline bool mv_jis_null(const mv_jv *v) {
    return mv_jis(v, MV_JNULL);
}
static inline size_t mv_jarray_size(const mv_jv *v) {
    return mv_jis_array(v) ? v->n : 0;
}
static inline const mv_jv *mv_jarray_get(const mv_jv *v, size_t i) {
    return mv_jis_array(v) && i < v->n ? &v->u.items[i] : NULL;
}
static inline size_t mv_jobject_size(const mv_jv *v) {
    return mv_jis_object(v) ? v->n : 0;
}
static inline const char *mv_jstring(const mv_jv *v) {
    return mv_jis_string(v) ? v->u.s : NULL;
}
static inline size_t mv_jstring_len(const mv_jv *v) {
    return mv_jis_string(v) ? v->n : 0;
}

/* Member `key` (`len` bytes) of an object, or NULL. */
const mv_jv *mv_jobject_getn(const mv_jv *obj, const char *key, size_t len);
/* The same with a NUL-terminated key (inline: literal keys cost no strlen). */
static inline const mv_jv *mv_jobject_get(const mv_jv *obj, const char *key) {
    return mv_jobject_getn(obj, key, strlen(key));
}

/* JSON type name for "expected ..., found X" messages ("number", ...). */
const char *mv_json_type(const mv_jv *v);

/* Worst-case output of mv_json_quote for `max_src` source bytes. */
#define MV_JSON_QUOTE_SIZE(max_src) (6 * (max_src) + 10)

/*
 * Write `s` as a double-quoted, render-safe string into dst: printable ASCII
 * kept, quote and backslash escaped, everything else as \uXXXX (surrogate
 * pairs above U+FFFF). At most `max_src` source bytes are shown (cut on a
 * character boundary) and a cut is marked by "..." after the closing quote.
 * dst must hold MV_JSON_QUOTE_SIZE(max_src) bytes; returns the length written
 * (dst is NUL-terminated).
 */
size_t mv_json_quote(char *dst, const char *s, size_t len, size_t max_src);

#endif
