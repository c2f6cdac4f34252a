/*
 * libFuzzer target for the normalizer (include/mcpvet/normalize.h), the
 * view every phrase check reads: NFKC, format characters dropped, case
 * folding, quotes, contractions, letter-spaced words, look-alike letters,
 * whitespace and stemming, with a map back to raw offsets.
 *
 * The first byte picks the optional steps (stemming, despacing,
 * confusables); the rest is raw text, which may be invalid UTF-8. The
 * documented contract is checked for every input:
 *  - the output is valid UTF-8, NUL-terminated, and has no control
 *    character, no '\n' or '\t', no leading, trailing or double space;
 *  - raw_offset has len+1 entries, never decreases, stays within the raw
 *    text, and raw_offset[len] is the raw length;
 *  - the same input gives the same bytes and offsets a second time (with
 *    a second normalizer whose scratch state differs);
 *  - mv_normalize_phrase gives the same text as mv_normalize with the
 *    default steps.
 * Build and run: see fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/normalize.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static mv_normalizer *n1, *n2;

static void broken(const char *what) {
    fprintf(stderr, "fuzz_normalize: invariant broken: %s\n", what);
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    n1 = mv_normalizer_new(NULL);
    n2 = mv_normalizer_new(NULL);
    if (n1 == NULL || n2 == NULL)
        abort();
    return 0;
}

/* Length of the valid UTF-8 sequence at s[0], 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n) {
    uint32_t cp;
    size_t k;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        k = 2, cp = s[0] & 0x1f;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        k = 3, cp = s[0] & 0x0f;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        k = 4, cp = s[0] & 0x07;
    else
        return 0;
    if (k > n)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

static void check_text(const mv_norm_text *t, size_t raw_len) {
    const unsigned char *s = (const unsigned char *)t->text;
    if (t->text == NULL || t->raw_offset == NULL)
        broken("no text or no offsets");
    if (t->text[t->len] != '\0')
        broken("output not NUL-terminated");
    if (t->len > 0 && (s[0] == ' ' || s[t->len - 1] == ' '))
        broken("leading or trailing space");
    for (size_t i = 0; i < t->len;) {
        size_t k = utf8_len(s + i, t->len - i);
        if (k == 0)
            broken("output is not valid UTF-8");
        if (k == 1 && (s[i] < 0x20 || s[i] == 0x7f))
            broken("a control character in the output");
        if (k == 2 && s[i] == 0xc2 && s[i + 1] <= 0x9f)
            broken("a C1 control character in the output");
        if (s[i] == ' ' && i + 1 < t->len && s[i + 1] == ' ')
            broken("two spaces in a row");
        i += k;
    }
    if (t->raw_offset[t->len] != raw_len)
        broken("raw_offset[len] is not the raw length");
    for (size_t i = 0; i < t->len; i++) {
        if (t->raw_offset[i] > t->raw_offset[i + 1])
            broken("raw offsets decrease");
        if (t->raw_offset[i] > raw_len)
            broken("a raw offset past the text");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mv_arena *a = NULL, *b = NULL;
    mv_norm_text t1, t2;
    mv_str phrase;
    if (size < 1)
        return 0;
    unsigned flags = data[0] & (MV_NORM_STEM | MV_NORM_DESPACE | MV_NORM_CONFUSABLES);
    const char *raw = (const char *)data + 1;
    size_t len = size - 1;
    a = mv_arena_new(NULL, 0);
    b = mv_arena_new(NULL, 0);
    if (a == NULL || b == NULL)
        goto done;
    int rc = mv_normalize(n1, a, raw, len, flags, &t1);
    if (rc == MV_ENOMEM)
        goto done;
    if (rc != MV_OK)
        broken("normalize refused a short input");
    check_text(&t1, len);
    /* The other normalizer first sees different text, so stale scratch
     * state would show. */
    if (mv_normalize(n2, b, "Don't  IGNORE   these", 21, MV_NORM_DEFAULT, &t2) != MV_OK ||
        mv_normalize(n2, b, raw, len, flags, &t2) != MV_OK)
        goto done;
    if (t1.len != t2.len || memcmp(t1.text, t2.text, t1.len) != 0 ||
        memcmp(t1.raw_offset, t2.raw_offset, (t1.len + 1) * sizeof t1.raw_offset[0]) != 0)
        broken("normalizing twice gave different results");
    if (flags == MV_NORM_DEFAULT) {
        if (mv_normalize_phrase(n2, b, raw, len, &phrase) != MV_OK)
            goto done;
        if (phrase.len != t1.len || memcmp(phrase.ptr, t1.text, t1.len) != 0)
            broken("a phrase normalizes unlike tool text");
    }
done:
    mv_arena_free(a);
    mv_arena_free(b);
    return 0;
}
