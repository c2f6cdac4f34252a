/*
 * Per-code-point decisions of the normalizer (private to src/engine):
 * which characters vanish, which become a space or a line break, which
 * quotes are unified, which letters count as Latin and which non-Latin
 * letters are Latin look-alikes. Kept apart from normalize.c so the tables
 * can be read and reviewed on their own. Pure lookups, no state.
 */
#ifndef MV_NORMALIZE_CHARS_H
#define MV_NORMALIZE_CHARS_H

#include <stdbool.h>
#include <stdint.h>

/* Default-ignorable or format (Cf) code point: dropped from the view.
 * Covers ZWSP/ZWJ/ZWNJ, bidi controls, word joiner, BOM, soft hyphen, TAG
 * characters, variation selectors, the combining grapheme joiner and the
 * Hangul fillers. */
bool mv_normchar_ignorable(uint32_t cp);

/* Quote unification, applied to the raw code point before NFKC (NFKC would
 * otherwise turn U+00B4 into space + accent and U+2033 into two primes).
 * Returns '\'' or '"' for a quote-like character, else cp unchanged. */
uint32_t mv_normchar_quote(uint32_t cp);

/* Whitespace class of a non-ASCII code point after NFKC: '\n' for line and
 * paragraph separators and NEL, ' ' for other spaces and C1 controls, 0 when
 * the code point is not whitespace. */
int mv_normchar_space(uint32_t cp);

/* Letter (general category L*) or combining mark (M*): the characters that
 * make up a word. */
bool mv_normchar_is_wordchar(uint32_t cp);

/* Letter of the Latin script (ASCII letters included). */
bool mv_normchar_is_latin(uint32_t cp);

/* Lowercase ASCII letter a Latin look-alike folds to (Cyrillic "о" -> 'o',
 * Greek "ο" -> 'o', small capital "ᴏ" -> 'o', dotless "ı" -> 'i'), or 0. */
char mv_normchar_confusable(uint32_t cp);

#endif
