/*
 * Tail windows of fields cut at the model's field cap (see tail.h).
 *
 * Every chunk of MV_TAIL_CHUNK bytes past the cap gets a bit mask of the
 * cue classes found in it by one Aho-Corasick pass (ASCII case folded).
 * A window is two neighbouring chunks, scored by the number of distinct
 * classes in their union, so a sentence cut by a chunk boundary still
 * counts whole. The best windows (most classes, then the earliest) with at
 * least MV_TAIL_MIN_CLASSES classes are taken, never overlapping. Honest
 * padding repeated for megabytes has a class or two per window; an
 * injected instruction has a tag or an order, a resource, a sink and often
 * secrecy, all within a few sentences.
 */
#include "tail.h"

#include <string.h>

#include "mcpvet/ac.h"

enum {
    CUE_TAG = 0,  /* pseudo-markup that frames an instruction */
    CUE_ORDER,    /* imperatives and overrides */
    CUE_SECRECY,  /* keep it from the user */
    CUE_RESOURCE, /* credentials, keys, configs, the prompt */
    CUE_SINK,     /* where data goes: URLs, uploads, parameters */
    CUE_ADDRESS,  /* words addressed to the model about tool use */
    CUE_COUNT
};

static const struct {
    uint8_t cls;
    const char *word;
} k_cues[] = {
    {CUE_TAG, "<important"},
    {CUE_TAG, "<system"},
    {CUE_TAG, "<instruction"},
    {CUE_TAG, "</"},
    {CUE_TAG, "[inst]"},
    {CUE_TAG, "<|"},
    {CUE_TAG, "<!--"},
    {CUE_TAG, "system:"},
    {CUE_TAG, "assistant:"},
    {CUE_ORDER, "ignore"},
    {CUE_ORDER, "disregard"},
    {CUE_ORDER, "forget"},
    {CUE_ORDER, "override"},
    {CUE_ORDER, "you must"},
    {CUE_ORDER, "you should"},
    {CUE_ORDER, "always "},
    {CUE_ORDER, "never "},
    {CUE_ORDER, "instead"},
    {CUE_ORDER, "do not"},
    {CUE_ORDER, "don't"},
    {CUE_ORDER, "must "},
    {CUE_ORDER, "delete"},
    {CUE_ORDER, "rm -rf"},
    {CUE_SECRECY, "tell the user"},
    {CUE_SECRECY, "mention"},
    {CUE_SECRECY, "without telling"},
    {CUE_SECRECY, "secretly"},
    {CUE_SECRECY, "silently"},
    {CUE_SECRECY, "quietly"},
    {CUE_SECRECY, "hidden"},
    {CUE_SECRECY, "reveal"},
    {CUE_SECRECY, "confidential"},
    {CUE_RESOURCE, ".ssh"},
    {CUE_RESOURCE, "id_rsa"},
    {CUE_RESOURCE, ".env"},
    {CUE_RESOURCE, "credential"},
    {CUE_RESOURCE, "password"},
    {CUE_RESOURCE, "api key"},
    {CUE_RESOURCE, "api_key"},
    {CUE_RESOURCE, "apikey"},
    {CUE_RESOURCE, "token"},
    {CUE_RESOURCE, "/etc/"},
    {CUE_RESOURCE, ".aws"},
    {CUE_RESOURCE, "mcp.json"},
    {CUE_RESOURCE, "cookie"},
    {CUE_RESOURCE, "private key"},
    {CUE_RESOURCE, "system prompt"},
    {CUE_RESOURCE, "secret"},
    {CUE_RESOURCE, "conversation"},
    {CUE_SINK, "http://"},
    {CUE_SINK, "https://"},
    {CUE_SINK, "send"},
    {CUE_SINK, "upload"},
    {CUE_SINK, "post "},
    {CUE_SINK, "forward"},
    {CUE_SINK, "exfiltrat"},
    {CUE_SINK, "curl "},
    {CUE_SINK, "wget "},
    {CUE_SINK, "webhook"},
    {CUE_SINK, "sidenote"},
    {CUE_SINK, "attach"},
    {CUE_SINK, "append"},
    {CUE_SINK, "include"},
    {CUE_SINK, "parameter"},
    {CUE_SINK, "argument"},
    {CUE_ADDRESS, "the model"},
    {CUE_ADDRESS, "the assistant"},
    {CUE_ADDRESS, "the ai "},
    {CUE_ADDRESS, "llm"},
    {CUE_ADDRESS, "you are"},
    {CUE_ADDRESS, "instructions"},
    {CUE_ADDRESS, "before using"},
    {CUE_ADDRESS, "before calling"},
    {CUE_ADDRESS, "after calling"},
    {CUE_ADDRESS, "the user"},
};

#define N_CUES (sizeof(k_cues) / sizeof(k_cues[0]))

struct mv_tail {
    const mv_allocator *alloc;
    mv_ac *ac;
};

void mv_tail_free(mv_tail *t) {
    if (t == NULL)
        return;
    mv_ac_free(t->ac);
    mv_free(t->alloc, t, sizeof(*t));
}

int mv_tail_new(mv_tail **out, const mv_allocator *a) {
    int rc = MV_ENOMEM;
    mv_ac_builder *b = NULL;
    mv_tail *t = NULL;
    *out = NULL;
    if (a == NULL)
        a = mv_allocator_default();
    t = mv_calloc(a, 1, sizeof(*t));
    if (t == NULL)
        goto done;
    t->alloc = a;
    b = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    if (b == NULL)
        goto done;
    for (size_t i = 0; i < N_CUES; i++) {
        rc = mv_ac_builder_add(b, k_cues[i].word, strlen(k_cues[i].word), (uint32_t)i);
        if (rc != MV_OK)
            goto done;
    }
    rc = mv_ac_build(&t->ac, b);
    if (rc != MV_OK)
        goto done;
    *out = t;
    t = NULL;
done:
    mv_ac_builder_free(b);
    mv_tail_free(t);
    return rc;
}

typedef struct scan {
    uint8_t *mask; /* per chunk */
    size_t from;   /* the scanned slice starts at text + from */
    size_t chunks;
} scan;

static int on_cue(void *ctx, const mv_ac_match *m) {
    scan *sc = ctx;
    size_t chunk = m->start / MV_TAIL_CHUNK;
    if (chunk < sc->chunks)
        sc->mask[chunk] |= (uint8_t)(1u << k_cues[m->id].cls);
    return 0;
}

static unsigned popcount8(uint8_t v) {
    unsigned n = 0;
    for (; v != 0; v &= (uint8_t)(v - 1))
        n++;
    return n;
}

static size_t char_start(const char *text, size_t i) {
    while (i > 0 && ((unsigned char)text[i] & 0xC0) == 0x80)
        i--;
    return i;
}

int mv_tail_windows(const mv_tail *t, mv_arena *arena, const char *text, size_t len, size_t from,
                    mv_tail_window *out, uint32_t *n, bool *capped) {
    *n = 0;
    *capped = false;
    if (t == NULL || from >= len)
        return MV_OK;
    size_t span = len - from;
    size_t chunks = (span + MV_TAIL_CHUNK - 1) / MV_TAIL_CHUNK;
    mv_arena_mark mark = mv_arena_save(arena);
    uint8_t *mask = mv_arena_calloc(arena, chunks + 1, 1);
    uint8_t *used = mv_arena_calloc(arena, chunks + 1, 1);
    if (mask == NULL || used == NULL)
        return MV_ENOMEM;
    scan sc = {mask, from, chunks};
    mv_ac_scan(t->ac, text + from, span, on_cue, &sc);
    /* Best windows first: one pass over the chunk scores per window
     * taken, and one more to tell whether the limit left one out. */
    for (uint32_t w = 0; w <= MV_TAIL_WINDOWS; w++) {
        unsigned best = 0;
        size_t at = chunks;
        for (size_t c = 0; c < chunks; c++) {
            if (used[c] || (c + 1 < chunks && used[c + 1]))
                continue;
            unsigned score = popcount8((uint8_t)(mask[c] | (c + 1 < chunks ? mask[c + 1] : 0)));
            if (score > best) {
                best = score;
                at = c;
            }
        }
        if (at == chunks || best < MV_TAIL_MIN_CLASSES)
            break;
        if (w == MV_TAIL_WINDOWS) {
            *capped = true;
            break;
        }
        used[at] = 1;
        if (at + 1 < chunks)
            used[at + 1] = 1;
        size_t s = char_start(text, from + at * (size_t)MV_TAIL_CHUNK);
        size_t e = from + (at + 2) * (size_t)MV_TAIL_CHUNK;
        e = e < len ? char_start(text, e) : len;
        out[(*n)++] = (mv_tail_window){s, e};
    }
    /* text order */
    for (uint32_t i = 1; i < *n; i++)
        for (uint32_t j = i; j > 0 && out[j - 1].start > out[j].start; j--) {
            mv_tail_window tmp = out[j];
            out[j] = out[j - 1];
            out[j - 1] = tmp;
        }
    mv_arena_rewind(arena, mark);
    return MV_OK;
}
