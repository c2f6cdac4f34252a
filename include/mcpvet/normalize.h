/*
 * The normalized view used by phrase checks. Raw tool text is turned into a
 * canonical form in which wording variants meet: NFKC, format characters
 * dropped, case folded, quotes unified, contractions expanded ("don't" ->
 * "do not"), letter-spaced words joined ("i g n o r e" -> "ignore"), Latin
 * look-alike letters inside Latin words folded (Cyrillic "о" -> "o"),
 * whitespace collapsed and words lightly stemmed (Snowball English).
 *
 * Every normalized byte keeps the raw byte offset it came from, so evidence
 * points at the real text. Pure: no I/O, locale or global state.
 *
 * The exact rules (rule authors may rely on them):
 *  - Invalid UTF-8: each maximal ill-formed subsequence becomes U+FFFD.
 *  - Dropped: format characters (Cf: ZWSP, ZWJ, ZWNJ, bidi controls, word
 *    joiner, BOM, soft hyphen, TAG characters) and other default-ignorables
 *    (variation selectors, CGJ, Hangul fillers). "ig\u200bnore" == "ignore".
 *  - Control characters (NUL included) and every Unicode space or line break
 *    collapse with their neighbours into one ASCII space; no leading or
 *    trailing space, never '\n' or '\t' in the output.
 *  - Quotes: ‘ ’ ‚ ‛ ′ ‵ ` ´ ʼ ＇ become ' ; “ ” „ ‟ ″ ‶ « » ‹ › 「 」 『 』
 *    〝 〞 〟 ＂ become ".
 *  - Text is split at spaces into chunks. Wrapping punctuation ( ) [ ] { }
 *    < > " ' * , . ; : ! ? is peeled off both ends of a chunk and kept. The
 *    rest is an identifier, copied unchanged (after folding), when it holds
 *    a digit, one of _ / \ @ ~ = $ % & | ^ #, an inner . : ( ) [ ] { } < >,
 *    or starts with '-': "~/.ssh/id_rsa", "resolve_library_id",
 *    "https://x.example/a?b=c", "e.g", "--force", "gpt4". Otherwise its
 *    words (maximal runs of letters and marks) are processed one by one:
 *  - Contractions: n't -> " not" (can't -> "can not", won't -> "will not",
 *    shan't -> "shall not", ain't -> "is not"), 're -> " are", 'll -> " will",
 *    've -> " have", 'm -> " am", 'd -> " would", also stacked ("mustn't've"
 *    -> "must not have"); "cannot" -> "can not".
 *    's and every other apostrophe stay as written ("user's" -> "user's");
 *    "dont" without apostrophe is not expanded.
 *  - MV_NORM_STEM: Latin-script words of 3..64 bytes are replaced by their
 *    Snowball English stem ("instructions" -> "instruct"); hyphenated words
 *    are stemmed part by part ("pre-approved" -> "pre-approv"). Words with
 *    non-Latin letters (Cyrillic, Greek, CJK) are never stemmed.
 *  - MV_NORM_DESPACE: single letters separated by one space form a group;
 *    groups separated by a wider gap, a line break or , . ; : ! ? form a
 *    phrase. A phrase with a group of >= 4 letters, or with two groups of
 *    >= 3, is joined group by group: "i g n o r e  a l l" -> "ignore all".
 *    "a b testing", "x y z coordinates", "Plan B" stay as written.
 *  - MV_NORM_CONFUSABLES: in a word that has a Latin letter, Cyrillic,
 *    Greek and Armenian look-alikes, Latin small capitals and dotless i/j
 *    become their ASCII twin ("ignоre" -> "ignore", "İ" -> "i"). A word
 *    without Latin letters ("привет") is left alone.
 *  - Offsets: expanded contraction words map to the apostrophe; a stem byte
 *    maps to the word byte at the same position; a composed or NFKC-expanded
 *    character maps to the first raw character it came from.
 */
#ifndef MCPVET_NORMALIZE_H
#define MCPVET_NORMALIZE_H

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Steps that may be switched off (all on in MV_NORM_DEFAULT). NFKC, format
 * removal, case folding, quote unification, contraction expansion and
 * whitespace collapsing always run. */
#define MV_NORM_STEM (1u << 0)        /* Snowball English stemming per word */
#define MV_NORM_DESPACE (1u << 1)     /* join letter-spaced words (see above) */
#define MV_NORM_CONFUSABLES (1u << 2) /* fold Cyrillic/Greek look-alikes in Latin words */
#define MV_NORM_DEFAULT (MV_NORM_STEM | MV_NORM_DESPACE | MV_NORM_CONFUSABLES)

typedef struct mv_normalizer mv_normalizer;

/* A normalizer owns a stemmer, scratch buffers and a bounded memo of its
 * recent mv_normalize results (keyed by the raw bytes and flags; at most
 * ~11 MiB, emptied when full), so it is not thread-safe: use one per
 * thread. Returns NULL on out-of-memory. */
mv_normalizer *mv_normalizer_new(const mv_allocator *a);
void mv_normalizer_free(mv_normalizer *n);

/* Normalized text. `text` is NUL-terminated for convenience (len excludes
 * it); raw_offset has len+1 entries: raw_offset[i] is the raw byte offset of
 * the character that produced normalized byte i, raw_offset[len] is the raw
 * length. Offsets are non-decreasing. */
typedef struct mv_norm_text {
    const char *text;
    size_t len;
    const uint32_t *raw_offset;
} mv_norm_text;

/*
 * Normalize `raw` (UTF-8; invalid sequences are treated as U+FFFD) into
 * memory from `arena`. `len` must be below 2^31. Output is deterministic and
 * depends only on the input bytes and flags.
 * Returns 0, MV_ENOMEM, or MV_EINVAL (NULL arguments, oversized input).
 */
int mv_normalize(mv_normalizer *n, mv_arena *arena, const char *raw, size_t len, unsigned flags,
                 mv_norm_text *out);

/*
 * Normalize a rule phrase exactly as tool text is normalized with
 * MV_NORM_DEFAULT, so rule authors write plain phrases ("don't reveal",
 * "ignore previous instructions") and they meet the tool text byte for
 * byte. out->ptr is NUL-terminated (no offset map): arena memory, or for
 * a phrase of the builtin rules the read-only copy normalized at build time
 * (src/engine/precomp.h), which lives as long as the program.
 * Returns 0, MV_ENOMEM, or MV_EINVAL (NULL arguments, oversized input).
 */
int mv_normalize_phrase(mv_normalizer *n, mv_arena *arena, const char *phrase, size_t len,
                        mv_str *out);

#ifdef __cplusplus
}
#endif
#endif
