/*
 * Private to the payload.decoded check: finding encoded blobs in text and
 * decoding them. Split from the check so the decoders can be tested on their
 * own and the check file reads as policy (what to flag), not as byte
 * twiddling.
 *
 * The scanner is the hot path: it runs over every scanned string of every
 * tool, and almost no honest text contains a candidate, so it is one pass of
 * table lookups that only stops on runs of at least PD_MIN_RUN base64
 * characters or on backslash-x escapes. Everything after that (probing,
 * decoding) runs only on the rare candidates.
 */
#ifndef MV_CHECKS_PAYLOAD_DECODE_H
#define MV_CHECKS_PAYLOAD_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

/* Minimum sizes: shorter runs are ordinary words, not blobs worth decoding.
 * 11 base64 characters carry 8 bytes, the length of the shortest command
 * worth catching ("rm -rf ~"); hex needs 16 digits for the same. */
#define PD_MIN_RUN 11 /* base64 characters (padding not counted) */
#define PD_MIN_HEX 16 /* hex digits */
#define PD_MIN_XESC 8 /* consecutive \xNN escapes */
#define PD_PROBE_BYTES 12

typedef enum pd_kind {
    PD_RUN = 0,  /* a run of the base64 (standard + url-safe) alphabet; hex and base32 are
                    subsets. Also pieces of one blob split by single spaces. */
    PD_XESC,     /* consecutive \xNN escapes */
    PD_ESC,      /* a cluster of string-literal escapes: \xNN, \uNNNN, \u{N}, \NNN octal */
    PD_PCT,      /* a token holding URL percent escapes (%XX, %uXXXX) */
    PD_ENT,      /* a cluster of HTML character references (&#NN; &#xNN; &name;) */
    PD_CODES,    /* a list of character codes: fromCharCode(..), [..], chr(..)+chr(..) */
    PD_PAIRS,    /* hex pairs separated by one repeated byte: "63 75 72 6c" */
    PD_JOIN,     /* quoted pieces glued by +, ., .., ||, ',' or juxtaposition */
    PD_ROT13,    /* a line holding a ROT13-rotated command word */
    PD_REVERSED, /* a line holding a command word written backwards */
    PD_WIDE,     /* a run of fullwidth ASCII forms (U+FF01-U+FF5E, U+3000) */
    PD_BITS,     /* binary octets separated by one repeated byte: "01100011 01110101" */
    PD_A85,      /* Adobe Ascii85 between <~ and ~> */
    PD_CAESAR,   /* a line of prose under a Caesar shift other than 13 (round 10) */
    PD_B85       /* a bare base85 token: Ascii85, Z85 or RFC 1924 without <~ ~> (round 11) */
} pd_kind;

/* A piece of text that may be an encoded blob. */
typedef struct pd_candidate {
    pd_kind kind;
    size_t start;   /* extent in the scanned text, including padding and */
    size_t end;     /* the line breaks of a wrapped (PEM-like) blob */
    bool wrapped;   /* spans line breaks */
    bool pwsh_flag; /* follows a PowerShell -EncodedCommand / -enc / -e switch */
} pd_candidate;

/* Called for each candidate in text order; a non-zero return stops the scan
 * and is returned by pd_scan. */
typedef int (*pd_visit)(void *ctx, const pd_candidate *c);

int pd_scan(const char *text, size_t len, pd_visit visit, void *ctx);

/* What pd_scan_ex needs besides the text: the automaton of ROT13-rotated
 * and reversed command words that marks the lines worth rotating or
 * reversing. Immutable once built; shared by threads. */
typedef struct pd_scanner pd_scanner;

int pd_scanner_new(pd_scanner **out, const mv_allocator *a);
void pd_scanner_free(pd_scanner *s);

/* The scanners' prefilters (bytes that cannot start or end anything
 * skipped eight at a time or by a table, a line's start found without
 * reading back over it) only skip work that provably finds nothing: the
 * candidates and findings are the same with them off. `full` turns them
 * off; the differential test (test_payload_prefilter.c) compares both
 * ways. Engines never set it; set it before the scanner is shared. */
void pd_scanner_set_full(pd_scanner *s, bool full);
bool pd_scanner_full(const pd_scanner *s);

/* pd_scan plus the ROT13 and reversed-text candidates (sc may be NULL:
 * then exactly pd_scan). Candidates of one kind come in text order; kinds
 * come one after the other (PD_JOIN twice: joins of double-quoted pieces,
 * then of single-quoted ones, each in text order). */
int pd_scan_ex(const pd_scanner *sc, const char *text, size_t len, pd_visit visit, void *ctx);

/* How a candidate decodes. */
typedef enum pd_encoding {
    PD_ENC_BASE64 = 0,
    PD_ENC_BASE64URL, /* '-' or '_' seen */
    PD_ENC_HEX,
    PD_ENC_XESC,
    PD_ENC_BASE32,
    PD_ENC_ESC,   /* string-literal escapes, plain characters kept */
    PD_ENC_PCT,   /* percent escapes; '+' read as a space when `plus_space` */
    PD_ENC_ENT,   /* HTML character references */
    PD_ENC_CODES, /* character codes (decimal, or hex when `hex_codes`) */
    PD_ENC_JOIN,  /* the contents of the quoted pieces, concatenated */
    PD_ENC_ROT13,
    PD_ENC_REVERSED,
    PD_ENC_WIDE,   /* fullwidth forms folded to ASCII */
    PD_ENC_A85,    /* Ascii85 (base85), 'z' for four zero bytes */
    PD_ENC_CAESAR, /* letters shifted back by `shift` places */
    /* Round 11: a second, cheap layer over base64 that leaves no text to
     * decode in between: the base64 characters rotated by ROT13, or the
     * base64 string written backwards. */
    PD_ENC_B64_ROT13,
    PD_ENC_B64_REV,
    PD_ENC_B85 /* base85 in the alphabet `alpha` (pd_b85_alpha) */
} pd_encoding;

/* Base85 alphabets (PD_ENC_A85 is always Adobe's). */
typedef enum pd_b85_alpha { PD_B85_ASCII85 = 0, PD_B85_Z85, PD_B85_RFC1924 } pd_b85_alpha;

/* Compressed bytes under a byte encoding (gzip or zlib inside base64). */
typedef enum pd_pack { PD_PACK_NONE = 0, PD_PACK_GZIP, PD_PACK_ZLIB } pd_pack;

typedef struct pd_plan {
    pd_encoding enc;
    size_t from; /* decoding reads text[from, to) */
    size_t to;
    uint8_t pack;    /* pd_pack: the decoded bytes are to be inflated */
    bool plus_space; /* PD_ENC_PCT: form encoding, '+' is a space */
    bool hex_codes;  /* PD_ENC_CODES: the codes are hexadecimal */
    bool bin_codes;  /* PD_ENC_CODES: the codes are binary octets */
    uint8_t shift;   /* PD_ENC_CAESAR: the shift the text was written with (1-25) */
    uint8_t alpha;   /* PD_ENC_B85: pd_b85_alpha */
    bool oct_codes;  /* PD_ENC_CODES: the codes are octal (round 11) */
} pd_plan;

/*
 * Decide whether a candidate is worth a full decode: its first
 * PD_PROBE_BYTES decoded bytes must look like text (printable UTF-8, or
 * UTF-16LE text as PowerShell encodes it) and must not start with the magic
 * number of an image or a compressed/binary format. For runs, tries the run
 * start at the four base64 alignments, then the positions after separator
 * characters near the start (a blob glued to a word: "profile-Ym9v..."), and
 * treats an all-hex tail as hex. Fills *plan and returns true when one fits.
 */
bool pd_probe(const char *text, const pd_candidate *c, pd_plan *plan);

/* Upper bound of the decoded size of a plan (allocate this much). */
size_t pd_decoded_bound(const pd_plan *p);

/* Decode the plan into out, writing at most `cap` bytes; sets *truncated
 * when more would have followed. Returns the number of bytes written. */
size_t pd_decode(const char *text, const pd_plan *p, uint8_t *out, size_t cap, bool *truncated);

/* True when the bytes are mostly printable text: printable ASCII, tab, CR,
 * LF and well-formed UTF-8, with at most 1 byte in 20 (at least 1) outside
 * that. Empty input is not text. */
bool pd_is_text(const uint8_t *p, size_t n);

/* True when the bytes look like UTF-16LE text (PowerShell's encoding):
 * at least 4 code units, nearly every high byte zero. */
bool pd_is_utf16le(const uint8_t *p, size_t n);

/* Transcode UTF-16LE to UTF-8 (unpaired surrogates become '?'); `out` must
 * hold 3 * (n / 2) bytes. Returns the bytes written. */
size_t pd_utf16le_to_utf8(const uint8_t *in, size_t n, uint8_t *out);

/* True when the bytes start with the magic number of a binary format
 * (PNG, JPEG, GIF, gzip, zip, bzip2, xz, zstd, 7z, PDF, ELF, ...). */
bool pd_binary_magic(const uint8_t *p, size_t n);

/* PD_PACK_GZIP or PD_PACK_ZLIB when the bytes start with a gzip member
 * header (deflate method) or a valid zlib header, else PD_PACK_NONE. */
pd_pack pd_pack_of(const uint8_t *p, size_t n);

/* Inflate gzip or zlib data into out (at most cap bytes; *truncated when
 * more would follow). zlib allocates its state and window through `alloc`
 * (the caller's arena; nothing is freed). Returns the bytes written, or 0
 * when the data is not valid compressed data or memory ran out. */
size_t pd_inflate(const uint8_t *in, size_t n, uint8_t *out, size_t cap, bool *truncated,
                  mv_arena *alloc);

#endif
