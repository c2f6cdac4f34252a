/*
 * libFuzzer target for the payload.decoded check's decoders
 * (src/engine/checks/payload_decode.h) and its command classifier
 * (payload_classify.h): the candidate scanner, the probe, base64 /
 * base64url / hex / \xNN decoding, the text and UTF-16LE tests, the
 * UTF-16LE transcoder, the binary magic test, and the shell-command
 * classifier over the input and over every decoded layer.
 *
 * Only the entry points of those headers are used, so the target keeps
 * working while the check's policy changes. Invariants:
 *  - candidates lie inside the text, are non-empty, and each kind comes in
 *    text order (runs first, then escape sequences: pd_scan makes two
 *    passes, although its header says "in text order");
 *  - a plan lies inside the text; decoding with the bound as cap is
 *    never truncated and writes at most the bound; decoding with a
 *    smaller cap writes a prefix of that, truncated exactly when bytes
 *    were left out;
 *  - the UTF-16LE transcoder stays in its documented output size and
 *    writes valid UTF-8;
 *  - a classification names a known class and a span inside the text.
 * Build and run: see fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/payload_classify.h"
#include "checks/payload_decode.h"
#include "rules_data.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pc_classifier *classifier;

static void broken(const char *what) {
    fprintf(stderr, "fuzz_payload: invariant broken: %s\n", what);
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    const char *rules = NULL;
    size_t len = 0;
    (void)argc;
    (void)argv;
    if (mv_rules_find("payload_commands", &rules, &len) != 0 ||
        pc_classifier_new(&classifier, NULL, rules, len, NULL) != 0)
        abort();
    return 0;
}

static bool valid_utf8(const uint8_t *s, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t k;
        uint32_t cp;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        if (s[i] >= 0xc2 && s[i] <= 0xdf)
            k = 2, cp = s[i] & 0x1f;
        else if (s[i] >= 0xe0 && s[i] <= 0xef)
            k = 3, cp = s[i] & 0x0f;
        else if (s[i] >= 0xf0 && s[i] <= 0xf4)
            k = 4, cp = s[i] & 0x07;
        else
            return false;
        if (i + k > n)
            return false;
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + j] & 0x3f);
        }
        if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += k;
    }
    return true;
}

static void classify(mv_arena *scratch, const char *text, size_t len) {
    pc_result r;
    memset(&r, 0, sizeof r);
    if (pc_classify(classifier, scratch, text, len, &r) != MV_OK)
        return;
    if ((unsigned)r.cls >= PC_CLASS_COUNT)
        broken("an unknown command class");
    if (r.cls != PC_NONE && (r.span_start > r.span_end || r.span_end > len))
        broken("a class span outside the text");
    if (pc_class_name(r.cls) == NULL)
        broken("a class without a name");
    mv_arena_reset(scratch);
}

typedef struct walk {
    const char *text;
    size_t len;
    /* Per kind (and for PD_JOIN per quote character, the last slot for
     * single quotes): pd_scan reports the kinds one after the other, each
     * in text order; joins of double-quoted pieces come before joins of
     * single-quoted ones. */
    size_t last_start[PD_B85 + 2];
    unsigned count;
    mv_arena *scratch;
} walk;

static void decoded_bytes(walk *w, const uint8_t *out, size_t n) {
    (void)pd_is_text(out, n);
    (void)pd_binary_magic(out, n);
    if (pd_is_utf16le(out, n)) {
        size_t room = 3 * (n / 2);
        uint8_t *u8 = malloc(room + 1);
        if (u8 == NULL)
            return;
        size_t m = pd_utf16le_to_utf8(out, n, u8);
        if (m > room)
            broken("UTF-16LE transcoding wrote past its bound");
        if (!valid_utf8(u8, m))
            broken("UTF-16LE transcoding wrote invalid UTF-8");
        classify(w->scratch, (const char *)u8, m);
        free(u8);
    } else {
        classify(w->scratch, (const char *)out, n);
    }
}

static int visit(void *ctx, const pd_candidate *c) {
    walk *w = ctx;
    pd_plan plan;
    if (c->start >= c->end || c->end > w->len)
        broken("a candidate outside the text or empty");
    if ((unsigned)c->kind > PD_B85)
        broken("a candidate of an unknown kind");
    size_t slot = c->kind == PD_JOIN && w->text[c->start] == '\'' ? PD_B85 + 1 : c->kind;
    if (c->start < w->last_start[slot])
        broken("candidates of one kind out of text order");
    w->last_start[slot] = c->start;
    if (++w->count > w->len)
        broken("more candidates than bytes");
    if (!pd_probe(w->text, c, &plan))
        return 0;
    if (plan.from > plan.to || plan.to > w->len)
        broken("a plan outside the text");
    size_t bound = pd_decoded_bound(&plan);
    uint8_t *full = malloc(bound + 1), *part = malloc(bound / 2 + 1);
    if (full == NULL || part == NULL)
        goto done;
    bool trunc = false;
    size_t n = pd_decode(w->text, &plan, full, bound, &trunc);
    if (n > bound)
        broken("decoding wrote past the bound");
    if (trunc)
        broken("decoding with the bound as cap was truncated");
    bool trunc2 = false;
    size_t cap = bound / 2;
    size_t m = pd_decode(w->text, &plan, part, cap, &trunc2);
    if (m > cap)
        broken("decoding wrote past the cap");
    if (memcmp(part, full, m) != 0)
        broken("a capped decode is not a prefix of the whole");
    if (trunc2 != (m < n))
        broken("truncated flag differs from what was left out");
    decoded_bytes(w, full, n);
done:
    free(full);
    free(part);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    walk w;
    memset(&w, 0, sizeof w);
    w.text = (const char *)data;
    w.len = size;
    w.scratch = mv_arena_new(NULL, 0);
    if (w.scratch == NULL)
        return 0;
    if (pd_scan(w.text, w.len, visit, &w) != 0)
        broken("pd_scan stopped though no visit asked it to");
    classify(w.scratch, w.text, w.len);
    decoded_bytes(&w, data, size);
    mv_arena_free(w.scratch);
    return 0;
}
