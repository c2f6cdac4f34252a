/*
 * Private to payload_decode.c: the obfuscations that are not a blob of one
 * alphabet but text with escapes or a transformation laid over it (string
 * literal escapes, URL percent escapes, HTML character references, lists of
 * character codes, quoted pieces glued together, ROT13 and reversed lines).
 * Kept apart from the base64/hex scanner so each file reads as one idea.
 *
 * The scan is one pass over the bytes with a table of trigger bytes
 * ('\', '%', '&', digits, quotes); every trigger is judged by looking at a
 * few bytes around it, and whatever a candidate covers is skipped, so the
 * cost is linear in the text. ROT13 and reversed lines are found by one
 * Aho-Corasick pass over a few rotated or reversed command words.
 */
#ifndef MV_CHECKS_PAYLOAD_UNESCAPE_H
#define MV_CHECKS_PAYLOAD_UNESCAPE_H

#include "payload_decode.h"

/* Minimum number of escapes or codes that make a candidate. */
#define PU_MIN_ESCAPES 4 /* \xNN \uNNNN \NNN, %XX, &#NN; */
#define PU_MIN_CODES 6   /* character codes in a list */
#define PU_MIN_PAIRS 8   /* space-separated hex pairs */
#define PU_MIN_OCTETS 8  /* separated binary octets */

/* Candidates of the escape, percent, entity, code-list and join kinds, in
 * text order. Returns the first non-zero visit result, or 0. */
int pu_scan(const char *text, size_t len, pd_visit visit, void *ctx);

/* pu_scan with its prefilters off when `full` (pd_scanner_set_full). */
int pu_scan_opt(const char *text, size_t len, bool full, pd_visit visit, void *ctx);

/* ROT13 and reversed-line candidates (needs the scanner's automaton). */
int pu_scan_lines(const pd_scanner *sc, const char *text, size_t len, pd_visit visit, void *ctx);

/* The plan of a candidate of one of these kinds (no probing). */
void pu_plan_of(const char *text, const pd_candidate *c, pd_plan *plan);

/* Decoding of the encodings above: same contract as pd_decode. */
size_t pu_decode(const char *text, const pd_plan *p, uint8_t *out, size_t cap, bool *truncated);

/* The base85 alphabets text[from, to) fits, a bit per pd_b85_alpha. */
unsigned pu_b85_alphabets(const char *text, size_t from, size_t to);

/* Upper bound of pu_decode's output for a plan. */
size_t pu_bound(const pd_plan *p);

#endif
