/*
 * Candidate finding and decoding for the payload.decoded check (see
 * payload_decode.h). Base64 and base64url share one decoding table ('+' and
 * '-' are 62, '/' and '_' are 63): the alphabets never disagree on a
 * character, so a blob does not have to be classified before decoding, and
 * a run mixing both (a sloppy attacker) still decodes.
 */
#include "payload_decode.h"

#include <string.h>
#include <zlib.h>

#include "payload_unescape.h"

/* Character classes for the scanner, one table load per byte. */
#define C_B64 1u    /* A-Z a-z 0-9 + / - _ */
#define C_HEX 2u    /* 0-9 a-f A-F */
#define C_UPPER 4u  /* A-Z */
#define C_LOWER 8u  /* a-z */
#define C_DIGIT 16u /* 0-9 */
#define C_SEP 32u   /* + / - _ (where a blob may be glued to a word) */

static const uint8_t cls[256] = {
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0,  0, 0,  0, 0,  /* 0x00 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0,  0, 0,  0, 0,  /* 0x10 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 33, 0, 33, 0, 33, /* 0x20: + - / */
    19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 0, 0,  0, 0,  0, 0,  /* 0x30: 0-9 */
    0,  7,  7,  7,  7,  7,  7,  5,  5,  5,  5, 5,  5, 5,  5, 5,  /* 0x40: A-O */
    5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5, 0,  0, 0,  0, 33, /* 0x50: P-Z _ */
    0,  11, 11, 11, 11, 11, 11, 9,  9,  9,  9, 9,  9, 9,  9, 9,  /* 0x60: a-o */
    9,  9,  9,  9,  9,  9,  9,  9,  9,  9,  9, 0,  0, 0,  0, 0,  /* 0x70: p-z */
    /* 0x80-0xFF: none */
};

#define B64_SKIP 254u /* whitespace inside a wrapped blob */
#define B64_BAD 255u

static unsigned b64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26u;
    if (c >= '0' && c <= '9')
        return c - '0' + 52u;
    if (c == '+' || c == '-')
        return 62u;
    if (c == '/' || c == '_')
        return 63u;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
        return B64_SKIP;
    return B64_BAD;
}

static unsigned hex_value(unsigned char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10u;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10u;
    return 16u;
}

static bool is_hex(unsigned char c) {
    return (cls[c] & C_HEX) != 0;
}

/* ------------------------------------------------------------- scanning */

/* Up to two '=' of base64 padding. */
static size_t take_padding(const unsigned char *s, size_t len, size_t j) {
    size_t k = j;
    while (k < len && k - j < 2 && s[k] == '=')
        k++;
    return k;
}

/* Is the word before `at` a PowerShell -EncodedCommand switch? PowerShell
 * accepts any prefix of the parameter name ("-e", "-en", "-enc"...), the
 * "-ec" alias, and '/' instead of '-'. */
static bool after_pwsh_switch(const unsigned char *s, size_t at) {
    static const char name[] = "encodedcommand";
    size_t k = at;
    while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '"' || s[k - 1] == '\''))
        k--;
    if (k == at || k == 0)
        return false;
    size_t end = k;
    while (k > 0 && end - k < 16 && s[k - 1] != ' ' && s[k - 1] != '\t' && s[k - 1] != '\n')
        k--;
    size_t n = end - k;
    if (n < 2 || n > 15 || (s[k] != '-' && s[k] != '/'))
        return false;
    if (n == 3 && (s[k + 1] | 0x20) == 'e' && (s[k + 2] | 0x20) == 'c')
        return true;
    for (size_t i = 1; i < n; i++)
        if ((s[k + i] | 0x20) != (unsigned char)name[i - 1])
            return false;
    return true;
}

#define WRAP_MIN_LINE 16 /* wrapped blobs have long lines (PEM: 64, MIME: 76) */

/* Extend a run over line breaks when it is a wrapped blob: the previous line
 * was a full-length run ending the line, and the next line (after optional
 * indentation) consists only of alphabet characters and padding. Returns the
 * new end; *j is the end of the last run of alphabet characters. */
static size_t extend_wrapped(const unsigned char *s, size_t len, size_t *j, size_t seg, size_t end,
                             bool *wrapped) {
    while (end == *j && seg >= WRAP_MIN_LINE && *j < len && (s[*j] == '\n' || s[*j] == '\r')) {
        size_t k = *j;
        if (s[k] == '\r')
            k++;
        if (k < len && s[k] == '\n')
            k++;
        while (k < len && (s[k] == ' ' || s[k] == '\t'))
            k++;
        size_t m = k;
        while (m < len && (cls[s[m]] & C_B64))
            m++;
        if (m == k)
            break;
        size_t mend = take_padding(s, len, m);
        if (mend < len && s[mend] != '\n' && s[mend] != '\r')
            break; /* the next line is prose that starts with a word */
        *wrapped = true;
        *j = m;
        end = mend;
        seg = m - k;
    }
    return end;
}

/* Runs shorter than this are mostly words ("Investigate", "JavaScript"). A
 * short base64 blob (a "rm -rf ~" is 11 characters) mixes cases and has a
 * digit or several capitals; a capitalized or camelCase word does not. */
#define SHORT_RUN 16

static bool short_blob(const unsigned char *s, size_t from, size_t to) {
    unsigned upper = 0, lower = 0, digit = 0;
    for (size_t i = from; i < to; i++) {
        uint8_t k = cls[s[i]];
        upper += (k & C_UPPER) != 0;
        lower += (k & C_LOWER) != 0;
        digit += (k & C_DIGIT) != 0;
    }
    return lower > 0 && upper > 0 && (digit > 0 || upper >= 3);
}

/* A short run of upper-case letters and the digits 2-7 right before '='
 * padding: a base32 blob ("OJWSALLSMYQH4===" is "rm -rf ~"). */
static bool short_base32(const unsigned char *s, size_t len, size_t from, size_t to) {
    if (to >= len || s[to] != '=')
        return false;
    for (size_t i = from; i < to; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '2' && s[i] <= '7')))
            return false;
    return true;
}

#define SPLIT_MIN_PIECE 8 /* characters of each piece of a blob split by spaces */

/* A blob cut into equal pieces separated by single spaces ("Y3VybCAt
 * ZnNTTCBo dHRwczov..."), each piece too short or too misaligned to decode
 * alone. [*st, j) is a piece; the chain is extended backwards over earlier
 * pieces of the same length (the skipping scan may land on any piece) and
 * forwards. Returns the end of the last piece (with its padding), or 0 when
 * there is no second piece. */
static size_t split_chain(const unsigned char *s, size_t len, size_t *st, size_t j) {
    size_t piece = j - *st;
    if (piece < SPLIT_MIN_PIECE || piece > 128)
        return 0;
    /* Cheap first: a neighbouring word of the same length (prose words
     * rarely have one), then the blob look of the piece. */
    bool next_same = j + 1 + piece <= len && s[j] == ' ' && (cls[s[j + piece]] & C_B64) &&
                     (j + 1 + piece == len || !(cls[s[j + 1 + piece]] & C_B64));
    bool prev_same = *st >= piece + 1 && s[*st - 1] == ' ' && (cls[s[*st - 1 - piece]] & C_B64) &&
                     (*st - 1 - piece == 0 || !(cls[s[*st - 2 - piece]] & C_B64));
    if (!next_same && !prev_same)
        return 0; /* at least two pieces of one length */
    if (!short_blob(s, *st, j))
        return 0;
    size_t first = *st;
    while (first >= piece + 1 && s[first - 1] == ' ') {
        size_t a = first - 1 - piece; /* where an equal earlier piece would start */
        bool whole = a == 0 || !(cls[s[a - 1]] & C_B64);
        for (size_t m = a; m < first - 1 && whole; m++)
            whole = (cls[s[m]] & C_B64) != 0;
        if (!whole)
            break;
        first = a;
    }
    size_t k = j, end = 0;
    while (k + 1 < len && s[k] == ' ' && (cls[s[k + 1]] & C_B64)) {
        size_t a = k + 1, e = a;
        while (e < len && (cls[s[e]] & C_B64))
            e++;
        if (e - a == piece) {
            end = k = e;
            continue;
        }
        if (e - a >= 2 && e - a < piece)
            end = take_padding(s, len, e); /* the shorter last piece */
        break;
    }
    if (end != 0 && end == k && end < len && s[end] == '=')
        end = take_padding(s, len, end);
    if (end != 0 || first != *st) {
        *st = first;
        if (end == 0)
            end = j;
    }
    return end;
}

/* A blob cut into small groups ("YmFz aCAt YyAn dGFy IGN6 ..."), pieces
 * shorter than SPLIT_MIN_PIECE that the run scanner never probes: six or
 * more space-separated groups of one length (3 to 7 characters; pairs are
 * hex, PD_PAIRS) of the
 * base64 alphabet, the last one possibly shorter and padded, at least half
 * of them with a capital letter after the first character, a digit, '+' or
 * '/' (prose words of one length, "that with from this", have none). One
 * linear pass over the field. */
#define GROUP_MIN 6u
#define GROUP_MAX_LEN 7u

static bool group_mixed(const unsigned char *s, size_t a, size_t e) {
    for (size_t k = a; k < e; k++) {
        unsigned char c = s[k];
        if ((k > a && c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '/')
            return true;
    }
    return false;
}

/* The next chain of small groups at or after *at (see above): true with
 * the candidate in *out and *at moved past it, false at the end. pd_scan
 * merges these with the runs so that candidates of one kind come in text
 * order, as pd_visit promises. */
/* Can a chain of GROUP_MIN groups have its second group right after the
 * space at s[k]? That group is a whole word of 3 to GROUP_MAX_LEN blob
 * characters, and the groups after it (the last one may be shorter) each
 * follow a space, so with L its length, s[k + m(L + 1)] is a space for
 * m = 1 to GROUP_MIN - 2; the first of these is the next space after k,
 * `next` (len when none), so L = next - k - 1 and the word is read only
 * when the spaces are all there. False proves that next_group finds no
 * chain from this space; nor from a later space of the chain it would
 * have built and rejected from here (each such start reads the same
 * groups from a later one, so fewer of them). */
static bool group_possible(const unsigned char *s, size_t len, size_t k, size_t next) {
    if (next >= len || next - k - 1 < 3 || next - k - 1 > GROUP_MAX_LEN)
        return false;
    size_t piece = next - k - 1;
    for (size_t m = 2; m <= GROUP_MIN - 2; m++) {
        size_t sp = k + m * (piece + 1);
        if (sp >= len || s[sp] != ' ')
            return false;
    }
    for (size_t e = k + 1; e < next; e++)
        if (!(cls[s[e]] & C_B64))
            return false;
    return true;
}

/* The first space at or after `from` (len: none), by memchr, remembered:
 * next_group asks for the space after the one it stands on, then for the
 * one it stands on next, which is the same. */
typedef struct space_cursor {
    size_t lo;  /* the last search started here... */
    size_t pos; /* ...and found this (len: none) */
} space_cursor;

static size_t space_from(const unsigned char *s, size_t len, size_t from, space_cursor *c) {
    if (from >= c->lo && from <= c->pos)
        return c->pos;
    const unsigned char *p = from < len ? memchr(s + from, ' ', len - from) : NULL;
    c->lo = from;
    c->pos = p != NULL ? (size_t)(p - s) : len;
    return c->pos;
}

static bool next_group(const unsigned char *s, size_t len, bool full, size_t *at,
                       pd_candidate *out) {
    size_t k = *at;
    space_cursor sc = {1, 0}; /* nothing remembered (lo > pos) */
    /* From space to space (memchr): a chain needs a word of 3-7 blob
     * characters right before a space and one of the same length after. */
    while (k < len) {
        if (!full) {
            k = space_from(s, len, k, &sc);
            if (k >= len)
                break;
            if (!group_possible(s, len, k, space_from(s, len, k + 1, &sc))) {
                k++;
                continue;
            }
        } else {
            const unsigned char *p = memchr(s + k, ' ', len - k);
            if (p == NULL)
                break;
            k = (size_t)(p - s);
        }
        size_t i = k;
        while (i > 0 && k - i <= GROUP_MAX_LEN && (cls[s[i - 1]] & C_B64))
            i--;
        size_t piece = k - i;
        bool start = piece >= 3 && piece <= GROUP_MAX_LEN && (i == 0 || !(cls[s[i - 1]] & C_B64)) &&
                     k + 1 + piece <= len;
        for (size_t m = k + 1; start && m < k + 1 + piece; m++)
            start = (cls[s[m]] & C_B64) != 0;
        if (!start || (k + 1 + piece < len && (cls[s[k + 1 + piece]] & C_B64))) {
            k++;
            continue;
        }
        size_t e = k;
        size_t first = i, groups = 1, mixed = group_mixed(s, i, e), end = e;
        while (end + 1 < len && s[end] == ' ' && (cls[s[end + 1]] & C_B64)) {
            size_t a = end + 1, b = a;
            while (b < len && (cls[s[b]] & C_B64))
                b++;
            if (b - a == piece) {
                groups++;
                mixed += group_mixed(s, a, b);
                end = b;
                continue;
            }
            if (b - a < piece && b < len && s[b] == '=') {
                groups++;
                end = take_padding(s, len, b);
            }
            break;
        }
        if (end < len && s[end] == '=')
            end = take_padding(s, len, end);
        if (groups >= GROUP_MIN && 2 * mixed >= groups) {
            pd_candidate cand = {PD_RUN, first, end, true, false};
            *out = cand;
            *at = end;
            return true;
        }
        k = end > k ? end : k + 1;
    }
    *at = len;
    return false;
}

static int scan_opt(const char *text, size_t len, bool full, pd_visit visit, void *ctx);

/*
 * Runs first, then the escape-like kinds (payload_unescape.c). Runs are
 * found by skipping: any run of at least PD_MIN_RUN characters that starts
 * in [i, i + PD_MIN_RUN) covers position i + PD_MIN_RUN - 1, so when that
 * byte is not in the alphabet the whole window is skipped, and otherwise
 * only the word around it is examined. Prose is mostly short words, so
 * most bytes are never looked at.
 */
int pd_scan(const char *text, size_t len, pd_visit visit, void *ctx) {
    return scan_opt(text, len, false, visit, ctx);
}

static int scan_opt(const char *text, size_t len, bool full, pd_visit visit, void *ctx) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    int rc = 0;
    /* Chains of small groups, merged with the runs by start. */
    size_t group_at = 0;
    pd_candidate group;
    bool have_group = next_group(s, len, full, &group_at, &group);
    /* Invariant: i == 0 or s[i - 1] is not in the alphabet, or i is the end
     * of the previous candidate, so a run found from i starts at or after i. */
    while (i + PD_MIN_RUN <= len) {
        size_t probe = i + PD_MIN_RUN - 1;
        if (!(cls[s[probe]] & C_B64)) {
            i = probe + 1;
            continue;
        }
        size_t st = probe;
        while (st > i && (cls[s[st - 1]] & C_B64))
            st--;
        size_t j = probe + 1;
        while (j < len && (cls[s[j]] & C_B64))
            j++;
        size_t chain = ((j < len && s[j] == ' ') || (st > 0 && s[st - 1] == ' '))
                           ? split_chain(s, len, &st, j)
                           : 0;
        if (chain == 0 && (j - st < PD_MIN_RUN || (j - st < SHORT_RUN && !short_blob(s, st, j) &&
                                                   !short_base32(s, len, st, j)))) {
            i = j + 1;
            continue;
        }
        pd_candidate cand = {PD_RUN, st, j, false, false};
        size_t end;
        if (chain != 0) {
            end = chain;
            cand.wrapped = true; /* spaces inside: the decoders skip them */
        } else {
            end = take_padding(s, len, j);
            end = extend_wrapped(s, len, &j, j - st, end, &cand.wrapped);
        }
        cand.end = end;
        cand.pwsh_flag = after_pwsh_switch(s, st);
        while (have_group && group.start < cand.start) {
            if ((rc = visit(ctx, &group)) != 0)
                goto done;
            have_group = next_group(s, len, full, &group_at, &group);
        }
        rc = visit(ctx, &cand);
        if (rc != 0)
            goto done;
        i = end;
    }
    while (have_group) {
        if ((rc = visit(ctx, &group)) != 0)
            goto done;
        have_group = next_group(s, len, full, &group_at, &group);
    }
    rc = pu_scan_opt(text, len, full, visit, ctx);
done:
    return rc;
}

int pd_scan_ex(const pd_scanner *sc, const char *text, size_t len, pd_visit visit, void *ctx) {
    int rc = scan_opt(text, len, pd_scanner_full(sc), visit, ctx);
    if (rc == 0 && sc != NULL)
        rc = pu_scan_lines(sc, text, len, visit, ctx);
    return rc;
}

/* ------------------------------------------------------------- decoding */

/* ROT13 of a letter; other bytes unchanged. */
static unsigned char rot13_byte(unsigned char c) {
    if ((c >= 'a' && c <= 'm') || (c >= 'A' && c <= 'M'))
        return (unsigned char)(c + 13);
    if ((c >= 'n' && c <= 'z') || (c >= 'N' && c <= 'Z'))
        return (unsigned char)(c - 13);
    return c;
}

/* The base64 character at step i of [from, to) as the encoder wrote it:
 * as it stands, rotated back by ROT13, or read from the end (round 11). */
static unsigned char b64_char_at(const unsigned char *s, size_t from, size_t to, size_t i,
                                 pd_encoding enc) {
    if (enc == PD_ENC_B64_REV)
        return s[to - 1 - (i - from)];
    if (enc == PD_ENC_B64_ROT13)
        return rot13_byte(s[i]);
    return s[i];
}

static size_t decode_base64(const unsigned char *s, size_t from, size_t to, pd_encoding enc,
                            uint8_t *out, size_t cap, bool *truncated) {
    uint32_t acc = 0;
    unsigned have = 0;
    size_t n = 0;
    *truncated = false;
    for (size_t i = from; i < to; i++) {
        unsigned v = b64_value(b64_char_at(s, from, to, i, enc));
        if (v == B64_SKIP)
            continue;
        if (v == B64_BAD)
            break; /* '=' padding or the end of the blob */
        acc = (acc << 6) | v;
        have++;
        if (have == 4) {
            uint8_t b[3] = {(uint8_t)(acc >> 16), (uint8_t)(acc >> 8), (uint8_t)acc};
            for (int k = 0; k < 3; k++) {
                if (n == cap) {
                    *truncated = true;
                    return n;
                }
                out[n++] = b[k];
            }
            acc = 0;
            have = 0;
        }
    }
    /* A final group of 2 or 3 characters carries 1 or 2 bytes; 1 carries none. */
    if (have >= 2) {
        uint8_t b[2];
        size_t nb = have - 1;
        if (have == 2) {
            b[0] = (uint8_t)(acc >> 4);
        } else {
            b[0] = (uint8_t)(acc >> 10);
            b[1] = (uint8_t)(acc >> 2);
        }
        for (size_t k = 0; k < nb; k++) {
            if (n == cap) {
                *truncated = true;
                return n;
            }
            out[n++] = b[k];
        }
    }
    return n;
}

static size_t decode_hex(const unsigned char *s, size_t from, size_t to, uint8_t *out, size_t cap,
                         bool *truncated) {
    size_t n = 0;
    unsigned hi = 16;
    *truncated = false;
    for (size_t i = from; i < to; i++) {
        unsigned v = hex_value(s[i]);
        if (v == 16) {
            if (s[i] == '\n' || s[i] == '\r' || s[i] == ' ' || s[i] == '\t')
                continue;
            break;
        }
        if (hi == 16) {
            hi = v;
            continue;
        }
        if (n == cap) {
            *truncated = true;
            return n;
        }
        out[n++] = (uint8_t)(hi << 4 | v);
        hi = 16;
    }
    return n;
}

static size_t decode_xesc(const unsigned char *s, size_t from, size_t to, uint8_t *out, size_t cap,
                          bool *truncated) {
    size_t n = 0;
    size_t i = from;
    *truncated = false;
    while (i < to) {
        while (i < to && s[i] == '\\')
            i++;
        if (i + 3 > to || (s[i] | 0x20) != 'x')
            break;
        if (n == cap) {
            *truncated = true;
            return n;
        }
        out[n++] = (uint8_t)(hex_value(s[i + 1]) << 4 | hex_value(s[i + 2]));
        i += 3;
    }
    return n;
}

/* RFC 4648 base32, either letter case (one case per blob is checked by the
 * probe); '=' padding ends the blob, whitespace is skipped. */
static unsigned b32_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= '2' && c <= '7')
        return c - '2' + 26u;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
        return B64_SKIP;
    return B64_BAD;
}

static size_t decode_base32(const unsigned char *s, size_t from, size_t to, uint8_t *out,
                            size_t cap, bool *truncated) {
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t n = 0;
    *truncated = false;
    for (size_t i = from; i < to; i++) {
        unsigned v = b32_value(s[i]);
        if (v == B64_SKIP)
            continue;
        if (v == B64_BAD)
            break;
        acc = (acc << 5) | v;
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            if (n == cap) {
                *truncated = true;
                return n;
            }
            out[n++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return n;
}

size_t pd_decoded_bound(const pd_plan *p) {
    size_t span = p->to > p->from ? p->to - p->from : 0;
    switch (p->enc) {
    case PD_ENC_HEX:
        return span / 2 + 1;
    case PD_ENC_XESC:
        return span / 4 + 1;
    case PD_ENC_BASE32:
        return span / 8 * 5 + 5;
    case PD_ENC_BASE64:
    case PD_ENC_BASE64URL:
    case PD_ENC_B64_ROT13:
    case PD_ENC_B64_REV:
        return span / 4 * 3 + 3;
    default:
        return pu_bound(p);
    }
}

size_t pd_decode(const char *text, const pd_plan *p, uint8_t *out, size_t cap, bool *truncated) {
    const unsigned char *s = (const unsigned char *)text;
    switch (p->enc) {
    case PD_ENC_HEX:
        return decode_hex(s, p->from, p->to, out, cap, truncated);
    case PD_ENC_XESC:
        return decode_xesc(s, p->from, p->to, out, cap, truncated);
    case PD_ENC_BASE32:
        return decode_base32(s, p->from, p->to, out, cap, truncated);
    case PD_ENC_BASE64:
    case PD_ENC_BASE64URL:
    case PD_ENC_B64_ROT13:
    case PD_ENC_B64_REV:
        return decode_base64(s, p->from, p->to, p->enc, out, cap, truncated);
    default:
        return pu_decode(text, p, out, cap, truncated);
    }
}

/* --------------------------------------------------------- compression */

pd_pack pd_pack_of(const uint8_t *p, size_t n) {
    if (n >= 3 && p[0] == 0x1F && p[1] == 0x8B && p[2] == 8)
        return PD_PACK_GZIP;
    /* zlib: deflate with a window of at most 32 KiB, header checksum, no
     * preset dictionary. */
    if (n >= 2 && (p[0] & 0x0F) == 8 && (p[0] >> 4) <= 7 && ((p[0] << 8) | p[1]) % 31 == 0 &&
        (p[1] & 0x20) == 0)
        return PD_PACK_ZLIB;
    return PD_PACK_NONE;
}

static voidpf arena_zalloc(voidpf opaque, uInt items, uInt size) {
    if (size != 0 && items > (uInt)-1 / size)
        return Z_NULL;
    return mv_arena_alloc(opaque, (size_t)items * size);
}

static void arena_zfree(voidpf opaque, voidpf address) {
    (void)opaque; /* the arena is rewound by the caller */
    (void)address;
}

size_t pd_inflate(const uint8_t *in, size_t n, uint8_t *out, size_t cap, bool *truncated,
                  mv_arena *alloc) {
    z_stream z;
    size_t produced = 0;
    *truncated = false;
    if (n == 0 || n > (uInt)-1 || cap == 0)
        return 0;
    memset(&z, 0, sizeof(z));
    z.zalloc = arena_zalloc;
    z.zfree = arena_zfree;
    z.opaque = alloc;
    /* 15 + 32: a 32 KiB window, gzip or zlib header detected by zlib. */
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return 0;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = cap > (uInt)-1 ? (uInt)-1 : (uInt)cap;
    int zr = inflate(&z, Z_FINISH);
    produced = (size_t)(z.next_out - out);
    if (zr == Z_BUF_ERROR && z.avail_out == 0)
        *truncated = true; /* more output than the room given */
    else if (zr != Z_STREAM_END && zr != Z_BUF_ERROR)
        produced = zr == Z_DATA_ERROR ? 0 : produced;
    inflateEnd(&z);
    return produced;
}

/* ----------------------------------------------------------- text tests */

/* Length of a well-formed UTF-8 sequence at p (2..4), or 0. A sequence cut
 * by the end of the buffer counts as well-formed when `partial_ok`. */
static size_t utf8_seq(const uint8_t *p, size_t n, bool partial_ok) {
    uint8_t c = p[0];
    size_t need;
    if (c >= 0xC2 && c <= 0xDF)
        need = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        need = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        need = 4;
    else
        return 0;
    for (size_t k = 1; k < need; k++) {
        if (k >= n)
            return partial_ok ? n : 0;
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    }
    return need;
}

static bool printable_ascii(uint8_t c) {
    return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

/* Bytes that are not printable text. */
static size_t count_bad(const uint8_t *p, size_t n, bool partial_ok) {
    size_t bad = 0;
    size_t i = 0;
    while (i < n) {
        if (printable_ascii(p[i])) {
            i++;
            continue;
        }
        size_t k = p[i] >= 0x80 ? utf8_seq(p + i, n - i, partial_ok) : 0;
        if (k == 0) {
            bad++;
            i++;
        } else {
            i += k;
        }
    }
    return bad;
}

bool pd_is_text(const uint8_t *p, size_t n) {
    if (n < 4)
        return false;
    size_t allowed = n / 20 > 0 ? n / 20 : 1;
    return count_bad(p, n, false) <= allowed;
}

bool pd_is_utf16le(const uint8_t *p, size_t n) {
    if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
        p += 2; /* byte order mark */
        n -= 2;
    }
    size_t units = n / 2;
    if (units < 4)
        return false;
    size_t high_zero = 0;
    size_t low_printable = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (p[i + 1] == 0)
            high_zero++;
        if (printable_ascii(p[i]) || p[i] >= 0x80)
            low_printable++;
    }
    return high_zero * 10 >= units * 9 && low_printable * 10 >= units * 9;
}

size_t pd_utf16le_to_utf8(const uint8_t *in, size_t n, uint8_t *out) {
    size_t o = 0;
    size_t i = (n >= 2 && in[0] == 0xFF && in[1] == 0xFE) ? 2 : 0; /* no BOM in the text */
    while (i + 1 < n) {
        uint32_t u = (uint32_t)in[i] | (uint32_t)in[i + 1] << 8;
        i += 2;
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < n) {
            uint32_t lo = (uint32_t)in[i] | (uint32_t)in[i + 1] << 8;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                i += 2;
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            } else {
                u = '?';
            }
        } else if (u >= 0xD800 && u <= 0xDFFF) {
            u = '?';
        }
        if (u < 0x80) {
            out[o++] = (uint8_t)u;
        } else if (u < 0x800) {
            out[o++] = (uint8_t)(0xC0 | u >> 6);
            out[o++] = (uint8_t)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            out[o++] = (uint8_t)(0xE0 | u >> 12);
            out[o++] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
            out[o++] = (uint8_t)(0x80 | (u & 0x3F));
        } else {
            /* Two UTF-16 units (4 input bytes) give 4 output bytes. */
            out[o++] = (uint8_t)(0xF0 | u >> 18);
            out[o++] = (uint8_t)(0x80 | ((u >> 12) & 0x3F));
            out[o++] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
            out[o++] = (uint8_t)(0x80 | (u & 0x3F));
        }
    }
    return o;
}

bool pd_binary_magic(const uint8_t *p, size_t n) {
    static const struct {
        const char *magic;
        size_t len;
    } magics[] = {
        {"\x89PNG", 4},
        {"\xFF\xD8\xFF", 3},
        {"GIF8", 4},
        {"\x1F\x8B", 2},
        {"\x1F\x9D", 2},
        {"PK\x03\x04", 4},
        {"PK\x05\x06", 4},
        {"PK\x07\x08", 4},
        {"BZh", 3},
        {"\xFD"
         "7zXZ",
         5},
        {"\x28\xB5\x2F\xFD", 4},
        {"7z\xBC\xAF", 4},
        {"%PDF", 4},
        {"\x7F"
         "ELF",
         4},
        {"RIFF", 4},
        {"MZ\x90", 3},
        {"OggS", 4},
        {"fLaC", 4},
        {"ID3", 3},
        {"wOFF", 4},
        {"wOF2", 4},
        {"II*\x00", 4},
        {"MM\x00*", 4},
        {"\xCA\xFE\xBA\xBE", 4},
        {"SQLite format", 13},
        {"\x00\x00\x01\x00", 4},
        {"\x00\x01\x00\x00", 4},
    };
    if (n == 0)
        return false;
    /* Most probes are text: only a byte that starts some magic above goes
     * through the table (test_payload_prefilter checks every magic). */
    switch (p[0]) {
    case 0x00:
    case 0x1F:
    case 0x28:
    case '%':
    case '7':
    case 'B':
    case 'G':
    case 'I':
    case 'M':
    case 'O':
    case 'P':
    case 'R':
    case 'S':
    case 'f':
    case 'w':
    case 0x7F:
    case 0x89:
    case 0xCA:
    case 0xFD:
    case 0xFF:
        break;
    default:
        return false;
    }
    for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
        if (p[0] == (uint8_t)magics[i].magic[0] && n >= magics[i].len &&
            memcmp(p, magics[i].magic, magics[i].len) == 0)
            return true;
    return false;
}

/* ------------------------------------------------------------- probing */

/* The first decoded bytes look like the start of a command: not a binary
 * format, and either strictly printable UTF-8 or UTF-16LE ASCII text. */
static bool probe_bytes_ok(const uint8_t *b, size_t n) {
    if (n < 6)
        return false;
    if (b[1] == 0 || (b[0] == 0xFF && b[1] == 0xFE))
        return pd_is_utf16le(b, n);
    /* Fail fast: most candidates are identifiers that decode to noise. */
    size_t i = 0;
    while (i < n) {
        if (printable_ascii(b[i])) {
            i++;
            continue;
        }
        size_t k = b[i] >= 0x80 ? utf8_seq(b + i, n - i, true) : 0;
        if (k == 0)
            return false;
        i += k;
    }
    return !pd_binary_magic(b, n);
}

/* Both letter cases in the first 64 characters: base64 of text always has
 * them, while snake_case and UPPER_CASE identifiers never do. */
static bool mixed_case(const unsigned char *s, size_t from, size_t to) {
    unsigned seen = 0;
    size_t lim = to - from > 64 ? from + 64 : to;
    for (size_t i = from; i < lim && (seen & (C_UPPER | C_LOWER)) != (C_UPPER | C_LOWER); i++)
        seen |= cls[s[i]];
    return (seen & (C_UPPER | C_LOWER)) == (C_UPPER | C_LOWER);
}

/* Alphabet characters (not whitespace, not padding) in [from, to). */
static size_t b64_chars(const unsigned char *s, size_t from, size_t to, size_t enough) {
    size_t n = 0;
    for (size_t i = from; i < to && n < enough; i++)
        if (cls[s[i]] & C_B64)
            n++;
    return n;
}

/* Decode the first bytes of a plan and judge them. Bytes under a byte
 * encoding that start like gzip or zlib data are accepted as compressed
 * (p->pack set): what they hold is judged after inflating. */
static bool try_plan(const unsigned char *s, pd_plan *p) {
    uint8_t buf[PD_PROBE_BYTES];
    bool truncated;
    size_t n = pd_decode((const char *)s, p, buf, sizeof(buf), &truncated);
    p->pack = PD_PACK_NONE;
    /* Not under a twisted base64 (probe_twisted): two bytes of noise pass
     * a zlib header check one time in a few hundred, and compressed data
     * under a second disguise is no encoder's habit. */
    if (p->enc == PD_ENC_BASE64 || p->enc == PD_ENC_BASE64URL || p->enc == PD_ENC_BASE32 ||
        p->enc == PD_ENC_HEX) {
        pd_pack pk = pd_pack_of(buf, n);
        if (pk != PD_PACK_NONE) {
            p->pack = (uint8_t)pk;
            return true;
        }
    }
    return probe_bytes_ok(buf, n);
}

/* Decide hex or base64 for text[from, to) and probe it. `hex_from` is the
 * first position after which the run is all hex digits (and whitespace). */
static bool probe_at(const unsigned char *s, size_t from, size_t to, size_t hex_from, size_t hex_to,
                     bool b64_ok, pd_plan *plan) {
    if (from >= hex_from) {
        size_t digits = b64_chars(s, from, hex_to, (size_t)-1);
        if (digits < PD_MIN_HEX)
            return false;
        pd_plan p = {PD_ENC_HEX, from, hex_to, 0, false, false, false, 0, 0, false};
        if (try_plan(s, &p)) {
            *plan = p;
            return true;
        }
        /* An odd count may hide one glued digit in front. */
        if (digits % 2 == 1) {
            p.from = from + 1;
            if (try_plan(s, &p)) {
                *plan = p;
                return true;
            }
        }
        return false;
    }
    if (!b64_ok || b64_chars(s, from, to, PD_MIN_RUN) < PD_MIN_RUN || !mixed_case(s, from, to))
        return false;
    pd_plan p = {PD_ENC_BASE64, from, to, 0, false, false, false, 0, 0, false};
    if (!try_plan(s, &p))
        return false;
    for (size_t i = from; i < to; i++) {
        if (s[i] == '-' || s[i] == '_') {
            p.enc = PD_ENC_BASE64URL;
            break;
        }
        if (s[i] == '=')
            break;
    }
    *plan = p;
    return true;
}

/* A run that is base32: one letter case, digits 2-7 only, and at least
 * 16 characters or '=' padding. */
static bool base32_run(const unsigned char *s, size_t from, size_t to, bool padded) {
    unsigned seen = 0;
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        unsigned char c = s[i];
        if (c == '\n' || c == '\r' || c == ' ' || c == '\t')
            continue;
        if (c >= '2' && c <= '7') {
            n++;
            continue;
        }
        if (!(cls[c] & (C_UPPER | C_LOWER)))
            return false;
        seen |= cls[c];
        n++;
    }
    bool one_case = (seen & (C_UPPER | C_LOWER)) != (C_UPPER | C_LOWER);
    return one_case && (n >= 16 || (padded && n >= 8));
}

static bool probe_run(const unsigned char *s, const pd_candidate *c, pd_plan *plan);

/* Round 11: base64 hidden once more by a cheap twist, ROT13 over its
 * letters or the whole string reversed, so it no longer decodes as it
 * stands. Tried only on long mixed-case runs (an order needs more than
 * TWIST_MIN characters; camelCase identifiers are shorter) after the
 * plain probe failed; the decoded text is confirmed like any other. A
 * reversed blob starts at the run's end, so only that alignment is tried
 * (its padding, now in front, is not part of the run). */
#define TWIST_MIN 24u
#define TWIST_DIGITS 32u

/* The first bytes a twisted plan decodes to start a line of words or a
 * command: printable, with a space or a character beyond ASCII among
 * them. Noise that happens to be printable rarely has either. */
static bool twisted_words(const unsigned char *s, const pd_plan *p) {
    uint8_t buf[PD_PROBE_BYTES];
    bool truncated;
    size_t n = pd_decode((const char *)s, p, buf, sizeof(buf), &truncated);
    for (size_t i = 0; i < n; i++)
        if (buf[i] == ' ' || buf[i] >= 0x80)
            return true;
    return false;
}

static bool probe_twisted(const unsigned char *s, const pd_candidate *c, pd_plan *plan) {
    size_t from = c->start, to = c->end;
    while (to > from && s[to - 1] == '=')
        to--;
    if (to - from < TWIST_MIN || b64_chars(s, from, to, TWIST_MIN) < TWIST_MIN ||
        !mixed_case(s, from, to))
        return false;
    /* Base64 of text spends about one character in eight on a digit
     * (ROT13 and reversing leave digits alone); camelCase paths, slugs
     * and identifiers, the long mixed-case runs of honest text, have
     * next to none. One digit per TWIST_DIGITS characters is asked. */
    {
        size_t digits = 0, lim = to - from > 96 ? from + 96 : to;
        for (size_t i = from; i < lim; i++)
            digits += s[i] >= '0' && s[i] <= '9';
        if (digits * TWIST_DIGITS < lim - from)
            return false;
    }
    /* Base64 as it stands that opens with a file signature (an image, an
     * archive) is what it looks like: no twist to undo. */
    {
        uint8_t head[PD_PROBE_BYTES];
        bool truncated;
        pd_plan plain = {PD_ENC_BASE64, from, to, 0, false, false, false, 0, 0, false};
        size_t hn = pd_decode((const char *)s, &plain, head, sizeof(head), &truncated);
        if (pd_binary_magic(head, hn) || pd_pack_of(head, hn) != PD_PACK_NONE)
            return false;
    }
    pd_plan p = {PD_ENC_B64_ROT13, from, c->end, 0, false, false, false, 0, 0, false};
    for (size_t k = 0; k < 4; k++) {
        p.from = from + k;
        if (try_plan(s, &p) && twisted_words(s, &p)) {
            *plan = p;
            return true;
        }
    }
    p.enc = PD_ENC_B64_REV;
    p.from = from;
    p.to = to;
    if (try_plan(s, &p) && twisted_words(s, &p)) {
        *plan = p;
        return true;
    }
    return false;
}

bool pd_probe(const char *text, const pd_candidate *c, pd_plan *plan) {
    const unsigned char *s = (const unsigned char *)text;
    if (c->kind == PD_B85) {
        /* Each alphabet the token fits, Ascii85 first; the first that
         * decodes to text wins. */
        unsigned fits = pu_b85_alphabets(text, c->start, c->end);
        pd_plan p;
        pu_plan_of(text, c, &p);
        for (unsigned a = 0; a < 3; a++) {
            if (!(fits & (1u << a)))
                continue;
            p.alpha = (uint8_t)a;
            if (try_plan(s, &p)) {
                *plan = p;
                return true;
            }
        }
        return false;
    }
    if (c->kind != PD_RUN) {
        pd_plan p;
        pu_plan_of(text, c, &p);
        if (!try_plan(s, &p))
            return false;
        *plan = p;
        return true;
    }
    if (probe_run(s, c, plan))
        return true;
    if (probe_twisted(s, c, plan))
        return true;
    size_t to = c->end;
    while (to > c->start && s[to - 1] == '=')
        to--;
    if (base32_run(s, c->start, to, to < c->end)) {
        pd_plan p = {PD_ENC_BASE32, c->start, c->end, 0, false, false, false, 0, 0, false};
        if (try_plan(s, &p)) {
            *plan = p;
            return true;
        }
    }
    return false;
}

static bool probe_run(const unsigned char *s, const pd_candidate *c, pd_plan *plan) {
    /* Where the all-hex tail of the run starts (padding never is hex). */
    size_t hex_to = c->end;
    while (hex_to > c->start && s[hex_to - 1] == '=')
        hex_to--;
    size_t hex_from = hex_to;
    while (hex_from > c->start &&
           (is_hex(s[hex_from - 1]) || s[hex_from - 1] == '\n' || s[hex_from - 1] == '\r' ||
            s[hex_from - 1] == ' ' || s[hex_from - 1] == '\t'))
        hex_from--;
    if (hex_to == hex_from)
        hex_from = (size_t)-1; /* no hex tail at all */
    /* A run without both letter cases (snake_case, UPPER_CASE, digits) has
     * no base64 text in it anywhere: only its hex tail is worth a look. */
    unsigned seen = 0;
    for (size_t i = c->start; i < c->end && (seen & (C_UPPER | C_LOWER)) != (C_UPPER | C_LOWER);
         i++)
        seen |= cls[s[i]];
    bool b64_ok = (seen & (C_UPPER | C_LOWER)) == (C_UPPER | C_LOWER);
    if (!b64_ok && hex_from == (size_t)-1)
        return false;

    /* The run as it stands, and shifted by one to three glued characters
     * (which also strips a "0x" in front of hex digits). Padding fixes the
     * alignment from the end, so a padded run needs only one shift. */
    size_t padded = c->end - hex_to;
    size_t only = (size_t)-1;
    if (padded > 0 && !c->wrapped)
        only = (c->end - c->start) % 4;
    for (size_t k = 0; k < 4; k++) {
        size_t from = c->start + k;
        if (only != (size_t)-1 && k != only && from < hex_from)
            continue;
        if (from >= c->end)
            break;
        if (probe_at(s, from, c->end, hex_from, hex_to, b64_ok, plan))
            return true;
        if (from >= hex_from)
            break; /* hex was tried (with its one-digit shift) */
    }
    /* A blob glued to a word with a separator: "profile-Ym9v...". */
    size_t lim = c->end - c->start > 48 ? c->start + 48 : c->end;
    for (size_t i = c->start + 1; i < lim; i++) {
        if (!(cls[s[i]] & C_SEP))
            continue;
        if (probe_at(s, i + 1, c->end, hex_from, hex_to, b64_ok, plan))
            return true;
    }
    return false;
}
