/*
 * libFuzzer target for the canonical JSON writer (src/json/canonical.c),
 * the bytes every pin is a hash of, and its two siblings that turn a tree
 * back into text: the compact writer (mv_json_write) and the render-safe
 * pretty printer of `security diff` (mv_json_pretty_safe).
 *
 * Arbitrary bytes are parsed strictly; for every accepted document:
 *  - the canonical form parses back and canonicalizes to the same bytes
 *    (idempotent), and holds no whitespace outside strings;
 *  - the compact and the pretty-safe forms parse back to a tree with the
 *    same canonical form (equal meaning);
 *  - the pretty-safe form carries no raw control character but '\n', no
 *    DEL, no C1 control and no bidi or zero-width character;
 *  - the input's first number-like token canonicalizes, or is refused with
 *    MV_EINVAL, and never crashes.
 * Build and run: see fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/canonical.h"
#include "json/json.h"
#include "json/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what) {
    fprintf(stderr, "fuzz_canonical: invariant broken: %s\n", what);
    abort();
}

/* Canonical form of `text` parsed into `a`, appended to `out`. */
static void canonical_of(mv_arena *a, const char *text, size_t len, mv_buf *out, const char *what) {
    const mv_jv *v = NULL;
    mv_jerror je;
    if (mv_json_parse(&v, a, NULL, text, len, &je) != MV_OK) {
        if (je.code == MV_ENOMEM)
            return;
        fprintf(stderr, "%s: %s at %zu\n", what, je.message, je.offset);
        broken("a written form does not parse back");
    }
    if (mv_json_canonical(out, v) != MV_OK)
        broken("canonical form of a parsed tree failed");
}

/* No raw control, DEL, C1 control, bidi control or zero-width character. */
static void check_render_safe(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if ((s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7f)
            broken("a raw control character in the pretty-safe form");
        if (s[i] == 0xc2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f)
            broken("a C1 control in the pretty-safe form");
        if (s[i] == 0xe2 && i + 2 < n && s[i + 1] == 0x80 &&
            ((s[i + 2] >= 0x8b && s[i + 2] <= 0x8f) || (s[i + 2] >= 0xaa && s[i + 2] <= 0xae)))
            broken("a zero-width or bidi character in the pretty-safe form");
        if (s[i] == 0xe2 && i + 2 < n && s[i + 1] == 0x81 && s[i + 2] >= 0xa6 && s[i + 2] <= 0xa9)
            broken("a bidi isolate in the pretty-safe form");
    }
}

/* Whitespace only inside strings. */
static void check_compact(const char *s, size_t n) {
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        if (in_str) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == '"')
                in_str = false;
        } else if (s[i] == '"') {
            in_str = true;
        } else if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
            broken("whitespace outside a string in the canonical form");
        }
    }
}

/* The first run of number characters in the input, through the number
 * canonicalizer alone (it sees text the parser would refuse, too). */
static void number_alone(const char *s, size_t n) {
    size_t i = 0, j;
    mv_buf b;
    while (i < n && !(s[i] == '-' || (s[i] >= '0' && s[i] <= '9')))
        i++;
    for (j = i; j < n && j - i < 64 && strchr("+-.0123456789eE", s[j]) != NULL && s[j] != '\0'; j++)
        ;
    if (j == i)
        return;
    mv_buf_init(&b, NULL);
    int rc = mv_json_canonical_number(&b, s + i, j - i);
    if (rc != MV_OK && rc != MV_EINVAL && rc != MV_ENOMEM)
        broken("number canonicalization returned an unexpected code");
    if (rc == MV_OK && b.len == 0)
        broken("a canonical number with no digits");
    mv_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    const mv_jv *v = NULL;
    mv_jerror je;
    mv_buf c1, c2, compact, pretty, cc, cp;
    mv_arena *a = mv_arena_new(NULL, 0);
    if (a == NULL)
        return 0;
    mv_buf_init(&c1, NULL);
    mv_buf_init(&c2, NULL);
    mv_buf_init(&compact, NULL);
    mv_buf_init(&pretty, NULL);
    mv_buf_init(&cc, NULL);
    mv_buf_init(&cp, NULL);
    number_alone(text, size);
    if (mv_json_parse(&v, a, NULL, text, size, &je) != MV_OK)
        goto done;
    if (mv_json_canonical(&c1, v) != MV_OK)
        broken("canonical form of a parsed tree failed");
    check_compact(c1.data, c1.len);
    canonical_of(a, c1.data, c1.len, &c2, "canonical");
    if (c1.len != c2.len || memcmp(c1.data, c2.data, c1.len) != 0)
        broken("canonicalizing twice changed the bytes");
    mv_json_write(&compact, v);
    if (compact.failed)
        goto done;
    canonical_of(a, compact.data, compact.len, &cc, "compact");
    if (cc.len != c1.len || memcmp(cc.data, c1.data, c1.len) != 0)
        broken("the compact form means something else");
    if (mv_json_pretty_safe(&pretty, v) != MV_OK)
        goto done;
    check_render_safe((const unsigned char *)pretty.data, pretty.len);
    canonical_of(a, pretty.data, pretty.len, &cp, "pretty-safe");
    if (cp.len != c1.len || memcmp(cp.data, c1.data, c1.len) != 0)
        broken("the pretty-safe form means something else");
done:
    mv_buf_release(&c1);
    mv_buf_release(&c2);
    mv_buf_release(&compact);
    mv_buf_release(&pretty);
    mv_buf_release(&cc);
    mv_buf_release(&cp);
    mv_arena_free(a);
    return 0;
}
