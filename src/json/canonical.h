/*
 * Canonical JSON (RFC 8785 style) of a parsed tree: the bytes a tool's pin
 * is computed over, so that key order, whitespace, escape spelling and
 * number spelling never change a pin while any change of meaning does.
 * docs/pinning.md is the normative description; in short:
 *
 *  - no whitespace; object members sorted by their keys compared as UTF-16
 *    code units (RFC 8785 section 3.2.3); array order kept;
 *  - strings: \" \\ \b \f \n \r \t as two-character escapes, other controls
 *    below U+0020 as \u00xx (lowercase hex), everything else as raw UTF-8
 *    (U+007F, U+2028 and non-characters included);
 *  - numbers: the exact decimal value of the number text, written in the
 *    ECMAScript Number-to-String layout (1, 1.0, 1e0 and 10e-1 all give 1;
 *    -0 gives 0; 1e21 gives 1e+21; 0.000001 stays, 1e-7 gives 1e-7). For
 *    every number of at most 15 significant digits in the normal double range
 *    this is byte-identical to RFC 8785; beyond that (2^53 + 1, 0.1 written
 *    with 30 digits, 1e400) RFC 8785 would round to a double and two
 *    different numbers could share a pin, so mcpvet keeps every digit
 *    instead. Pure string arithmetic: no floating point, no printf, no
 *    locale.
 *
 * Internal to mcpvet (not part of the public include/ headers).
 */
#ifndef MV_JSON_CANONICAL_H
#define MV_JSON_CANONICAL_H

#include <stddef.h>

#include "json/json.h"
#include "mcpvet/buf.h"
#include "mcpvet/common.h"

/* Append the canonical form of `v` to `b`. Scratch memory (the sorted member
 * order of each object) comes from b->alloc. Returns 0, MV_ENOMEM (b->failed
 * is then set too) or MV_EINVAL (NULL value, or a number text that is not a
 * JSON number). */
int mv_json_canonical(mv_buf *b, const mv_jv *v);

/* Append the canonical form of one JSON number given as its text (RFC 8259
 * grammar). Returns 0, MV_ENOMEM or MV_EINVAL for text outside the grammar. */
int mv_json_canonical_number(mv_buf *b, const char *text, size_t len);

/* Append `s` as a canonical JSON string (quotes included). `s` must be valid
 * UTF-8 (the parser guarantees it). */
int mv_json_canonical_string(mv_buf *b, const char *s, size_t len);

/* Compare two keys as sequences of UTF-16 code units (the canonical member
 * order). Both must be valid UTF-8. */
int mv_json_key_cmp(const char *a, size_t an, const char *b, size_t bn);

/*
 * Append `v` pretty-printed for people and line diffs: two-space indentation,
 * one member or item per line, members in tree order (a canonical tree is
 * already sorted), and every string render-safe: visible characters as
 * themselves, quote and backslash escaped, and every control, format, bidi,
 * private-use, tag or otherwise invisible character as a \uXXXX escape (a
 * surrogate pair above U+FFFF), so the text is still valid JSON and no
 * hidden character can reach a terminal. Ends without a newline. Returns 0
 * or MV_ENOMEM.
 */
int mv_json_pretty_safe(mv_buf *b, const mv_jv *v);

#endif
