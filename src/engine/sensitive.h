/*
 * The one list of sensitive resources (src/engine/rules/sensitive_resources.rules),
 * for the checks that do not compile it as directive rules: capability.mismatch
 * adds every entry to its resource classes, and payload.decoded (or any other
 * check) can ask whether decoded or raw text names one. Private to the engine.
 *
 *   mv_sensitive_each  every (class, phrase) of the list, in file order
 *   mv_sensitive_new   an automaton over the phrases, for mv_sensitive_find
 *   mv_sensitive_find  the first phrase in a text (ASCII case folded)
 *
 * Classes are the names after "SENS_" in the file, as written there (upper
 * case; compare without case): "sshkey",
 * "cloudcred", "envfile", "envvars", "mcpconfig", "keychain", "browserstore",
 * "privkey", "history", "syssecret", "convo", "sysprompt", "netsecret").
 */
#ifndef MV_SENSITIVE_H
#define MV_SENSITIVE_H

#include <stdbool.h>
#include "mcpvet/common.h"

/* Call cb for every entry; stops at and returns the first non-zero result.
 * Returns MV_ECHECK when the list is not compiled in. Strings point into
 * the embedded rule text (not NUL-terminated). */
int mv_sensitive_each(int (*cb)(void *ctx, mv_str cls, mv_str phrase), void *ctx);

typedef struct mv_sensitive mv_sensitive;

/* Build the automaton (once, e.g. in a check's init). Returns 0, MV_ENOMEM or
 * MV_ECHECK. */
int mv_sensitive_new(mv_sensitive **out, const mv_allocator *a);
void mv_sensitive_free(mv_sensitive *s);

typedef struct mv_sensitive_hit {
    mv_str cls;    /* class of the phrase */
    mv_str phrase; /* as written in the list */
    size_t start;  /* byte offsets in the searched text */
    size_t end;
} mv_sensitive_hit;

/* Earliest-ending phrase of the list in text[0, len), matched with ASCII
 * case folded (paths and names as written; no normalization). Thread-safe
 * on a built list. Returns true and fills *hit when one is found. */
bool mv_sensitive_find(const mv_sensitive *s, const char *text, size_t len, mv_sensitive_hit *hit);

#endif
