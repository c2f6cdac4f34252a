/*
 * libFuzzer target for the character diff (src/store/textdiff.c) that the
 * CLI, the REST API and the review page show for a changed tool.
 *
 * The input is split at its first NUL byte into two texts a and b (no NUL:
 * the two halves). For every input:
 *  - mv_diff_text with the default caps, with tiny caps (every fallback
 *    mode in turn) and with one edit, gives spans that rebuild a and b
 *    exactly, in order, never empty, never splitting a UTF-8 sequence of
 *    valid text, and counts as kept exactly the bytes of its '=' spans;
 *  - mv_diff_permille is at most 1000, and 1000 when a equals b;
 *  - when both texts are JSON, mv_diff_definition_strings succeeds and
 *    each string's spans rebuild its two sides; mv_diff_rename_score is at
 *    most 1000. Anything else is MV_EPARSE, never a crash.
 * Build and run: see fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what) {
    fprintf(stderr, "fuzz_textdiff: invariant broken: %s\n", what);
    abort();
}

static bool cont(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

/* The spans rebuild a and b; returns the bytes kept. */
static size_t rebuild(const mv_text_diff *d, const char *a, size_t alen, const char *b, size_t blen,
                      bool check_utf8) {
    size_t ia = 0, ib = 0, same = 0;
    for (size_t i = 0; i < d->n; i++) {
        const mv_diff_span *s = &d->spans[i];
        if (s->text.len == 0)
            broken("an empty span");
        if (s->op != '=' && s->op != '-' && s->op != '+')
            broken("an unknown span op");
        if (s->op != '+') {
            if (ia + s->text.len > alen || memcmp(a + ia, s->text.ptr, s->text.len) != 0)
                broken("spans do not rebuild a");
            ia += s->text.len;
        }
        if (s->op != '-') {
            if (ib + s->text.len > blen || memcmp(b + ib, s->text.ptr, s->text.len) != 0)
                broken("spans do not rebuild b");
            ib += s->text.len;
        }
        if (s->op == '=')
            same += s->text.len;
        if (check_utf8 && cont((unsigned char)s->text.ptr[0]))
            broken("a span starts inside a UTF-8 sequence");
    }
    if (ia != alen || ib != blen)
        broken("spans stop short of the texts");
    if (same != d->same)
        broken("same does not count the kept bytes");
    return same;
}

/* Valid UTF-8 (the parser guarantees it for tool text). */
static bool utf8_ok(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (k == 0 || i + k > n)
            return false;
        for (size_t j = 1; j < k; j++)
            if (!cont((unsigned char)s[i + j]))
                return false;
        i += k;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *in = (const char *)data;
    const char *nul = memchr(in, '\0', size);
    size_t alen = nul != NULL ? (size_t)(nul - in) : size / 2;
    const char *a = in, *b = in + alen + (nul != NULL);
    size_t blen = size - alen - (nul != NULL);
    bool check_utf8 = utf8_ok(a, alen) && utf8_ok(b, blen);
    mv_arena *ar = mv_arena_new(NULL, 0);
    if (ar == NULL)
        return 0;
    const mv_diff_limits lims[] = {{0, 0}, {3, 40}, {1, 1}};
    for (size_t k = 0; k < sizeof lims / sizeof lims[0]; k++) {
        mv_text_diff d;
        if (mv_diff_text(&d, ar, a, alen, b, blen, k == 0 ? NULL : &lims[k], NULL) != MV_OK)
            broken("mv_diff_text failed");
        if (d.mode > MV_DIFF_WHOLE)
            broken("an unknown mode");
        rebuild(&d, a, alen, b, blen, check_utf8);
        unsigned pm = mv_diff_permille(&d, alen, blen);
        if (pm > 1000)
            broken("similarity above 1000");
        if (alen == blen && memcmp(a, b, alen) == 0 && pm != 1000)
            broken("equal texts are not identical");
    }
    mv_definition_diff *dd = NULL;
    int rc = mv_diff_definition_strings(&dd, a, alen, b, blen, NULL);
    if (rc == MV_OK) {
        for (size_t i = 0; i < dd->n; i++) {
            const mv_diff_string *s = &dd->strings[i];
            if (s->change != '~' && s->change != '+' && s->change != '-')
                broken("an unknown change");
            rebuild(&s->diff, s->a.ptr, s->a.len, s->b.ptr, s->b.len, true);
        }
        unsigned pm = 0;
        if (mv_diff_rename_score(&pm, a, alen, b, blen, NULL) != MV_OK || pm > 1000)
            broken("the rename score of two JSON texts");
    } else if (rc != MV_EPARSE) {
        broken("mv_diff_definition_strings failed");
    }
    mv_definition_diff_free(dd);
    mv_arena_free(ar);
    return 0;
}
