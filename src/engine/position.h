/*
 * Position classifier: is a phrase found in tool text addressed to the model
 * (an instruction), or is it quoted, given as an example, listed as
 * something a security tool detects, or put after an "Example:" label?
 * Phrase checks (directive.imperative, capability.mismatch) find a match,
 * then ask this module how much the match should count.
 *
 * The classifier looks at structure, not at a fixed byte window:
 *  - quotes must be balanced and must enclose the whole phrase; apostrophes
 *    inside words ("user's", "it's") are not quotes, and a lone stray quote
 *    (a leftover JSON quote) never encloses anything;
 *  - a descriptive cue ("such as", "e.g.", "detects", "attackers write")
 *    counts only when it governs the phrase: it comes before the phrase in
 *    the same sentence, close enough, and no new clause ("then", "also",
 *    "you must"...) starts in between. Words after the phrase (its object,
 *    "... ignore previous instructions") never make it descriptive;
 *  - labels ("Example:", "Sample response:") govern the rest of their
 *    sentence, or the line that follows a label line;
 *  - schema `examples` values and fenced code blocks are example positions.
 *
 * Pure and stateless: no allocation, no I/O. Cue words are kept in the
 * normalized (stemmed) form the normalizer produces; a unit test checks each
 * of them against mv_normalize_phrase so they cannot drift apart.
 */
#ifndef MV_POSITION_H
#define MV_POSITION_H

#include <stdbool.h>
#include "mcpvet/common.h"
#include "mcpvet/normalize.h"
#include "mcpvet/tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a phrase is (not) in instruction position. Stable order. */
typedef enum mv_position_cue {
    MV_POS_INSTRUCTION = 0, /* no cue: addressed to the model */
    MV_POS_QUOTED,          /* enclosed in balanced quotes, backticks or a code span */
    MV_POS_CODE_BLOCK,      /* inside a fenced ``` code block */
    MV_POS_EXAMPLE_INTRO,   /* governed by "such as", "e.g.", "for example", "like"... */
    MV_POS_DETECTION_LIST,  /* governed by "detects", "flags", "scans for", "blocks"... */
    MV_POS_LABEL,           /* after "Example:", "Sample response:" ... */
    MV_POS_SCHEMA_EXAMPLE,  /* the field is a schema `examples`/`example` value */
    MV_POS_ATTACKER,        /* describes what attackers write */
    MV_POS_CUE_COUNT
} mv_position_cue;

/* Weight of each cue (the multiplier a phrase check applies). */
#define MV_POS_WEIGHT_INSTRUCTION 1.0
#define MV_POS_WEIGHT_QUOTED 0.30
#define MV_POS_WEIGHT_QUOTED_LONG 0.70 /* quoted, but a whole paragraph */
#define MV_POS_WEIGHT_CODE_BLOCK 0.45
#define MV_POS_WEIGHT_EXAMPLE_INTRO 0.35
#define MV_POS_WEIGHT_DETECTION_LIST 0.30
#define MV_POS_WEIGHT_LABEL 0.30
#define MV_POS_WEIGHT_SCHEMA_EXAMPLE 0.35
#define MV_POS_WEIGHT_ATTACKER 0.25

/* The text a phrase was found in. `raw` is the field's raw text and `norm`
 * its normalized view (mv_normalize with MV_NORM_DEFAULT); `norm` may cover
 * a prefix of `raw` when the engine capped it. `kind` and `path` describe the
 * field (path may be empty). All borrowed. */
/* Sentences already found in one text (perf17): a query inside one of
 * them is answered without walking. The caller owns it, zeroed, and must
 * keep it with the very raw/norm it was filled from. */
#define MV_SENT_CACHE 8
typedef struct mv_sent_cache {
    size_t s[MV_SENT_CACHE], e[MV_SENT_CACHE];
    unsigned n, next;
} mv_sent_cache;

typedef struct mv_position_text {
    mv_str raw;
    const mv_norm_text *norm;
    mv_field_kind kind;
    mv_str path;
    mv_sent_cache *sents; /* optional (NULL: every query walks) */
} mv_position_text;

typedef struct mv_position {
    double weight;       /* in (0, 1]; 1 = instruction position */
    mv_position_cue cue; /* the cue with the lowest weight, or MV_POS_INSTRUCTION */
    const char *reason;  /* static, short: "quoted", "after 'such as'", ... */
    size_t cue_offset;   /* normalized offset of the cue (or opening quote), 0 if none */
} mv_position;

/*
 * Classify the phrase occupying normalized bytes [start, end) of `t`.
 * Always fills `out` (an out-of-range span is clamped). Runs in time linear
 * in the sentence around the phrase, plus one scan of the text before it for
 * code fences (bounded by the field size).
 */
void mv_position_classify(mv_position *out, const mv_position_text *t, size_t start, size_t end);

/* How line breaks count when looking for sentence ends. */
typedef enum mv_position_lines {
    MV_POS_LINES_IGNORE = 0, /* only punctuation ends a sentence */
    MV_POS_LINES_BLANK,      /* a blank line also ends one (hard-wrapped text) */
    MV_POS_LINES_ANY         /* every line break ends one */
} mv_position_lines;

/* Is the space at normalized index i a sentence boundary? Punctuation
 * . ! ? ; (possibly followed by a closing quote or bracket) ends a sentence
 * unless the word before the dot is an abbreviation ("e.g.", "etc.") or a
 * single letter; line breaks count as `lines` says. Index i that is not a
 * space is never a boundary (the ideographic full stop is handled by
 * mv_position_sentence). */
bool mv_position_is_boundary(const mv_position_text *t, size_t i, mv_position_lines lines);

/* Bounds [*start, *end) of the sentence holding normalized offset pos, with
 * every line break ending a sentence. Each side looks at most 600 bytes
 * away from pos. */
void mv_position_sentence(const mv_position_text *t, size_t pos, size_t *start, size_t *end);

/* Stable short name of a cue ("instruction", "quoted", ...). */
const char *mv_position_cue_name(mv_position_cue cue);

/* The classifier's cue vocabulary, for tests: entry i as the plain phrase a
 * person would write and the normalized form the classifier compares with.
 * Returns false when i is out of range. */
bool mv_position_vocabulary(size_t i, mv_str *plain, mv_str *normalized);

#ifdef __cplusplus
}
#endif
#endif
