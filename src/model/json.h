/*
 * The model's JSON reader: a strict RFC 8259 parser that builds a compact,
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
 * MDL_JSON_MAX_DEPTH; the parser itself uses no recursion.
 *
 * Private to src/model.
 */
#ifndef MCPVET_MODEL_JSON_H
#define MCPVET_MODEL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

#define MDL_JSON_MAX_DEPTH 2048u

typedef enum mdl_jtype {
    MDL_JNULL = 0,
    MDL_JFALSE,
    MDL_JTRUE,
    MDL_JNUMBER, /* validated, never converted: the model only needs the type */
    MDL_JSTRING,
    MDL_JARRAY,
    MDL_JOBJECT
} mdl_jtype;

typedef struct mdl_jm mdl_jm;

/* One value. `n` is the byte length of a string or number, the item count
 * of an array, the member count of an object. */
typedef struct mdl_jv {
    uint32_t type; /* mdl_jtype */
    uint32_t n;
    union {
        const char *s;              /* string (decoded) or number text */
        const struct mdl_jv *items; /* array */
        const mdl_jm *members;      /* object, in document order */
    } u;
} mdl_jv;

/* One object member. Keys never contain NUL. */
struct mdl_jm {
    const char *key;
    uint32_t key_len;
    mdl_jv value;
};

/* Objects with more members than this also carry a key-sorted index, so a
 * lookup in a hostile 100,000-key object is a binary search. */
#define MDL_JSON_INDEX_MIN 32u

/* A parse failure: `offset` is the byte offset of the culprit (the start of
 * the offending token, the bad byte, the duplicate key's opening quote, or
 * the input length for a premature end). */
typedef struct mdl_jerror {
    int code;       /* MV_EPARSE, MV_ENOMEM */
    bool utf8;      /* an invalid UTF-8 error */
    bool dup_key;   /* a duplicate key: offset is its opening quote */
    size_t key_len; /* dup_key: raw (still escaped) key bytes after the quote */
    size_t offset;
    char message[400];
} mdl_jerror;

/*
 * Parse `len` bytes into a tree allocated from `arena`; strings without
 * escapes borrow from `data`, which must outlive the tree. Scratch memory
 * comes from `alloc` and is released before returning. Returns 0 with *out
 * set, or MV_EPARSE / MV_ENOMEM with *err filled.
 */
int mdl_json_parse(const mdl_jv **out, mv_arena *arena, const mv_allocator *alloc, const char *data,
                   size_t len, mdl_jerror *err);

/* Accessors; like the DOM they replace they accept NULL and wrong types
 * (giving NULL, 0 or false) so shape checks stay short. */
static inline bool mdl_jis(const mdl_jv *v, mdl_jtype t) {
    return v != NULL && v->type == (uint32_t)t;
}
static inline bool mdl_jis_object(const mdl_jv *v) {
    return mdl_jis(v, MDL_JOBJECT);
}
static inline bool mdl_jis_array(const mdl_jv *v) {
    return mdl_jis(v, MDL_JARRAY);
}
static inline bool mdl_jis_string(const mdl_jv *v) {
    return mdl_jis(v, MDL_JSTRING);
}
static inline bool mdl_jis_null(const mdl_jv *v) {
    return mdl_jis(v, MDL_JNULL);
}
static inline size_t mdl_jarray_size(const mdl_jv *v) {
    return mdl_jis_array(v) ? v->n : 0;
}
static inline const mdl_jv *mdl_jarray_get(const mdl_jv *v, size_t i) {
    return mdl_jis_array(v) && i < v->n ? &v->u.items[i] : NULL;
}
static inline size_t mdl_jobject_size(const mdl_jv *v) {
    return mdl_jis_object(v) ? v->n : 0;
}
static inline const char *mdl_jstring(const mdl_jv *v) {
    return mdl_jis_string(v) ? v->u.s : NULL;
}
static inline size_t mdl_jstring_len(const mdl_jv *v) {
    return mdl_jis_string(v) ? v->n : 0;
}

/* Member `key` (`len` bytes) of an object, or NULL. */
const mdl_jv *mdl_jobject_getn(const mdl_jv *obj, const char *key, size_t len);
/* The same with a NUL-terminated key (inline: literal keys cost no strlen). */
static inline const mdl_jv *mdl_jobject_get(const mdl_jv *obj, const char *key) {
    return mdl_jobject_getn(obj, key, strlen(key));
}

#endif
