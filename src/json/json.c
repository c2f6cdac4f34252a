/*
 * Strict JSON parser of the tool model (see json.h for the contract).
 *
 * Why not a general DOM library: tool text is read once, and on a registry
 * of a million tools a per-value malloc, a hash table per object and a
 * freeing walk over the tree cost more than the whole detection engine.
 * Here the parse is one forward pass without recursion. Finished values of
 * the open containers wait in one scratch stack; when a container closes,
 * its values are copied into one contiguous arena block, so the tree is a
 * few large blocks and goes away with its arena. String scanning checks
 * eight bytes at a time for the bytes that need attention (quote,
 * backslash, control, non-ASCII), and a string without escapes is not
 * copied at all.
 *
 * Duplicate keys are found as soon as the key is read for objects of up to
 * MV_JSON_INDEX_MIN members (a few comparisons: real objects are small);
 * larger objects are checked when they close, by sorting their keys, and
 * keep that sorted order as their lookup index.
 */
#include "json/json.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A finished value waiting for its container to close. */
typedef struct slot {
    mv_jm m;        /* arrays use m.value only */
    size_t key_off; /* objects: offset of the key's opening quote */
} slot;

typedef struct frame {
    size_t first; /* first slot of this container */
    bool object;
} frame;

typedef struct parser {
    const unsigned char *p0, *p, *end;
    mv_arena *arena;
    const mv_allocator *alloc;
    slot *slots;
    size_t n_slots, cap_slots;
    frame *frames;
    size_t n_frames, cap_frames;
    /* Items mode (mv_json_parse_split): the frames below this many are the
     * containers around a run of array items; the run ends with the input
     * after a value. 0 for a whole document. */
    size_t items_frames;
    /* A string with escapes is decoded here while it is read (one pass),
     * then copied into the arena at its exact length. */
    char *dec;
    size_t dec_cap;
    /* mv_json_parse_lazy: string values inside at least raw_depth
     * containers whose raw text is at least raw_min bytes and holds an
     * escape are validated, not decoded (MV_JRAW); n_raw counts them. */
    bool lazy;
    size_t raw_depth, raw_min, n_raw;
    mv_jerror *err;
} parser;

/* ------------------------------------------------------------- errors */

static int fail_at(parser *P, const unsigned char *at, const char *fmt, const char *what) {
    mv_jerror *e = P->err;
    e->code = MV_EPARSE;
    e->offset = (size_t)(at - P->p0);
    snprintf(e->message, sizeof e->message, fmt, what);
    return MV_EPARSE;
}

static int fail_nomem(parser *P) {
    P->err->code = MV_ENOMEM;
    P->err->offset = 0;
    snprintf(P->err->message, sizeof P->err->message, "out of memory while parsing JSON");
    return MV_ENOMEM;
}

/* What sits at `at`, for "expected X, found Y" (never raw input bytes). */
static const char *describe(const parser *P, const unsigned char *at, char *buf, size_t cap) {
    if (at >= P->end)
        return "end of file";
    if (*at >= 0x21 && *at < 0x7F)
        snprintf(buf, cap, "'%c'", *at);
    else
        snprintf(buf, cap, "byte 0x%02x", *at);
    return buf;
}

static int fail_expected(parser *P, const char *expected) {
    char found[32], fmt[160];
    const char *f = describe(P, P->p, found, sizeof found);
    if (P->p >= P->end) {
        snprintf(fmt, sizeof fmt, "invalid JSON: unexpected end of file, expected %s", expected);
    } else {
        snprintf(fmt, sizeof fmt, "invalid JSON: expected %s, found %s", expected, f);
    }
    return fail_at(P, P->p, "%s", fmt);
}

/* ------------------------------------------------------------- UTF-8 */

static bool is_cont(unsigned char b) {
    return (b & 0xC0) == 0x80;
}

/* Length of the well-formed UTF-8 sequence at p (lead byte >= 0x80), or 0:
 * overlong forms, encoded surrogates, code points above U+10FFFF and cut
 * sequences are ill-formed. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end, const char **why) {
    unsigned char c = p[0];
    size_t avail = (size_t)(end - p);
    *why = "cannot start a character";
    if (c < 0xC2 || c > 0xF4) {
        if (c == 0xC0 || c == 0xC1)
            *why = "starts an overlong encoding";
        return 0;
    }
    size_t n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    *why = "starts a cut sequence";
    if (avail < 2 || !is_cont(p[1]))
        return 0;
    if (n >= 3) {
        if (c == 0xE0 && p[1] < 0xA0) {
            *why = "starts an overlong encoding";
            return 0;
        }
        if (c == 0xED && p[1] >= 0xA0) {
            *why = "starts an encoded surrogate";
            return 0;
        }
        if (c == 0xF0 && p[1] < 0x90) {
            *why = "starts an overlong encoding";
            return 0;
        }
        if (c == 0xF4 && p[1] >= 0x90) {
            *why = "starts a code point above U+10FFFF";
            return 0;
        }
        if (avail < 3 || !is_cont(p[2]))
            return 0;
    }
    if (n == 4 && (avail < 4 || !is_cont(p[3])))
        return 0;
    return n;
}

static int fail_utf8(parser *P, const unsigned char *at) {
    const char *why = "";
    char msg[120];
    utf8_seq(at, P->end, &why);
    snprintf(msg, sizeof msg, "invalid UTF-8: byte 0x%02x %s", *at, why);
    P->err->utf8 = true;
    return fail_at(P, at, "%s", msg);
}

/* ------------------------------------------------------------ scratch */

static int push_slot(parser *P, slot **out) {
    if (P->n_slots == P->cap_slots) {
        size_t cap = P->cap_slots ? 2 * P->cap_slots : 256;
        if (cap > SIZE_MAX / sizeof(slot))
            return fail_nomem(P);
        slot *s = mv_realloc(P->alloc, P->slots, P->cap_slots * sizeof(slot), cap * sizeof(slot));
        if (s == NULL)
            return fail_nomem(P);
        P->slots = s;
        P->cap_slots = cap;
    }
    *out = &P->slots[P->n_slots++];
    return MV_OK;
}

static int push_frame(parser *P, bool object) {
    if (P->n_frames >= MV_JSON_MAX_DEPTH)
        return fail_at(P, P->p, "invalid JSON: %s", "nesting deeper than 2048 levels");
    if (P->n_frames == P->cap_frames) {
        size_t cap = P->cap_frames ? 2 * P->cap_frames : 32;
        frame *f =
            mv_realloc(P->alloc, P->frames, P->cap_frames * sizeof(frame), cap * sizeof(frame));
        if (f == NULL)
            return fail_nomem(P);
        P->frames = f;
        P->cap_frames = cap;
    }
    P->frames[P->n_frames++] = (frame){P->n_slots, object};
    return MV_OK;
}

/* ------------------------------------------------------------ strings */

static int hex4(const unsigned char *p, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (uint32_t)(c - 'A' + 10);
        else
            return -1;
        v = (v << 4) | d;
    }
    *out = v;
    return 0;
}

/* 1 for bytes a string may contain without a closer look. */
static const unsigned char plain_tab[256] = {
#define R8(v) v, v, v, v, v, v, v, v
    R8(0), R8(0), R8(0), R8(0),                                    /* 0x00-0x1f: control */
    1,     1,     0,     1,     1,     1,     1,     1,     R8(1), /* 0x20-0x2f: '"' */
    R8(1), R8(1), R8(1),                                           /* 0x30-0x47 */
    R8(1), R8(1),                                                  /* 0x48-0x57 */
    1,     1,     1,     1,     0,     1,     1,     1,            /* 0x58-0x5f: '\\' */
    R8(1), R8(1), R8(1), R8(1),                                    /* 0x60-0x7f */
    R8(0), R8(0), R8(0), R8(0), R8(0), R8(0), R8(0), R8(0), R8(0),
    R8(0), R8(0), R8(0), R8(0), R8(0), R8(0), R8(0), /* 0x80-0xff */
#undef R8
};

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JSON_FIRST_BYTE(m) ((size_t)__builtin_ctzll(m) >> 3) /* lowest flagged byte */
#endif

#if defined(JSON_FIRST_BYTE) && defined(__SSE2__)
#include <emmintrin.h>
#define JSON_SSE2 1
/* Bit i set exactly when byte i of the 16 at p needs a look: '"', '\\',
 * and (one signed comparison) a control byte or any byte >= 0x80. Every
 * x86-64 CPU has SSE2; the scalar 8-byte test stays for the others. */
static inline unsigned nonplain16(const unsigned char *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i q = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i b = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i c = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c));
}
#define JSON_BLOCK 16
/* Bit i set when byte i of v is the letter of a simple escape
 * (" \\ / b f n r t), as simple_esc has them. */
static inline unsigned simple16(__m128i v) {
    __m128i a =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    __m128i c =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), _mm_cmpeq_epi8(v, _mm_set1_epi8('b')));
    __m128i d =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('f')), _mm_cmpeq_epi8(v, _mm_set1_epi8('n')));
    __m128i f =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('t')));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, c), _mm_or_si128(d, f)));
}

/* Whether every byte flagged in e (below bit 16) is a simple escape's
 * letter. Escaped quotes and "\n" are most of what JSON inside a string
 * and text with line breaks hold: two compares decide those blocks. */
static inline bool escapes_simple(__m128i v, __m128i quote, unsigned e) {
    e &= 0xFFFFu;
    unsigned qn =
        (unsigned)_mm_movemask_epi8(_mm_or_si128(quote, _mm_cmpeq_epi8(v, _mm_set1_epi8('n'))));
    return (e & ~qn) == 0 || (e & ~simple16(v)) == 0;
}
#else
#define JSON_BLOCK 8
#endif

#ifndef JSON_SSE2
/* Zero when none of the 8 bytes at p needs attention. Otherwise the
 * lowest flagged byte (in memory order on a little-endian machine) is the
 * first that does: each test flags its first true hit exactly and nothing
 * below it (a borrow only starts at a true hit); bytes above may be
 * flagged falsely. */
static uint64_t nonplain8(const unsigned char *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
    uint64_t hit = (w & HIGHS) | ((w - ONES * 0x20) & ~w) | ((q - ONES) & ~q) | ((b - ONES) & ~b);
    return hit & HIGHS;
}
#endif

/* Put code point cp as UTF-8 at o; returns the byte count. */
static size_t put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* What a simple escape's letter decodes to (0: not a simple escape). */
static const unsigned char simple_esc[256] = {
    ['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t',
};

/* Room for `need` more decoded bytes after the first `have`. */
static int dec_reserve(parser *P, size_t have, size_t need) {
    if (P->dec_cap - have >= need)
        return MV_OK;
    size_t cap = P->dec_cap ? P->dec_cap : 256;
    while (cap - have < need) {
        if (cap > SIZE_MAX / 2)
            return fail_nomem(P);
        cap *= 2;
    }
    char *d = mv_realloc(P->alloc, P->dec, P->dec_cap, cap);
    if (d == NULL)
        return fail_nomem(P);
    P->dec = d;
    P->dec_cap = cap;
    return MV_OK;
}

/* The rest of a string from its first backslash at `p` (everything from
 * `start` to `p` is plain): validated and decoded in one pass, with the
 * same checks, in the same order, as the plain part of parse_string (so
 * the first error and its offset are the same), the decoded text then
 * copied into the arena. Escape-dense text (JSON inside a string, source
 * code) is the relay's largest cost per byte; a separate validation pass
 * and decoding pass read it twice. */
static int parse_escaped(parser *P, bool key, const unsigned char *start, const unsigned char *p,
                         const char **out, uint32_t *out_len) {
    const unsigned char *end = P->end;
    size_t o = (size_t)(p - start);
    /* Room for the rest of the input (the decoded text is never longer),
     * up to 1 MiB at first: one allocation per parse for most documents.
     * 32 bytes of slack: a block of 8 or 16, or an escape's 4, always fit. */
    size_t rest = (size_t)(end - p);
    if (dec_reserve(P, 0, o + (rest < ((size_t)1 << 20) ? rest : ((size_t)1 << 20)) + 32) != MV_OK)
        return MV_ENOMEM;
    memcpy(P->dec, start, o);
    char *dec = P->dec;
    size_t cap = P->dec_cap; /* locals: the stores below cannot move them */
    for (;;) {
        if (cap - o < 32) {
            if (dec_reserve(P, o, 32) != MV_OK)
                return MV_ENOMEM;
            dec = P->dec;
            cap = P->dec_cap;
        }
        if (end - p >= JSON_BLOCK) {
            /* The block goes out whole; what follows a byte that needs a
             * look is written again. */
#ifdef JSON_SSE2
            unsigned m = nonplain16(p);
            memcpy(dec + o, p, 16);
            if (m == 0) {
                p += 16;
                o += 16;
                continue;
            }
            size_t k = (size_t)__builtin_ctz(m);
            p += k;
            o += k;
#else
            uint64_t m = nonplain8(p);
            memcpy(dec + o, p, 8);
            if (m == 0) {
                p += 8;
                o += 8;
                continue;
            }
#ifdef JSON_FIRST_BYTE
            size_t k = JSON_FIRST_BYTE(m);
            p += k;
            o += k;
#else
            while (plain_tab[*p]) {
                p++;
                o++;
            }
#endif
#endif
        } else {
            while (p < end && plain_tab[*p])
                dec[o++] = (char)*p++;
            if (p >= end) {
                P->p = p;
                return fail_expected(P, "'\"' to end the string");
            }
        }
        unsigned char c = *p;
        if (c == '"')
            break;
        if (c == '\\') {
            if (end - p < 2) {
                P->p = end;
                return fail_expected(P, "an escape sequence");
            }
            unsigned char e = p[1];
            if (simple_esc[e] != 0) {
                dec[o++] = (char)simple_esc[e];
                p += 2;
            } else if (e == 'u') {
                uint32_t cp = 0, lo = 0;
                if (end - p < 6 || hex4(p + 2, &cp) != 0)
                    return fail_at(P, p, "invalid JSON: %s",
                                   "a \\u escape needs four hexadecimal digits");
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return fail_at(P, p, "invalid JSON: %s",
                                   "a \\u escape is a low surrogate without a high one");
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &lo) != 0 ||
                        lo < 0xDC00 || lo > 0xDFFF)
                        return fail_at(P, p, "invalid JSON: %s",
                                       "a \\u escape is a high surrogate without a low one");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    p += 12;
                } else {
                    if (cp == 0 && key)
                        return fail_at(P, p, "%s",
                                       "an object key contains \\u0000, which is not supported");
                    p += 6;
                }
                o += put_utf8(dec + o, cp);
            } else {
                return fail_at(P, p, "invalid JSON: %s",
                               "invalid escape (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r "
                               "\\t \\u)");
            }
            continue;
        }
        if (c < 0x20) {
            char msg[100];
            snprintf(msg, sizeof msg,
                     "invalid JSON: control character 0x%02x inside a string (it must be escaped)",
                     c);
            return fail_at(P, p, "%s", msg);
        }
        /* c >= 0x80 */
        const char *why;
        size_t n = utf8_seq(p, end, &why);
        if (n == 0)
            return fail_utf8(P, p);
        memcpy(dec + o, p, n);
        p += n;
        o += n;
    }
    if ((uint64_t)(p - start) > UINT32_MAX)
        return fail_at(P, start - 1, "invalid JSON: %s", "a string longer than 4 GiB");
    char *buf = mv_arena_alloc(P->arena, o + 1);
    if (buf == NULL)
        return fail_nomem(P);
    memcpy(buf, dec, o);
    buf[o] = '\0';
    *out = buf;
    *out_len = (uint32_t)o;
    P->p = p + 1;
    return MV_OK;
}

/* Parse the string whose opening quote is at P->p. Keys may not contain
 * U+0000 (they could not be told apart from a shorter key downstream). */
static int parse_string(parser *P, bool key, const char **out, uint32_t *out_len) {
    const unsigned char *start = P->p + 1, *p = start, *end = P->end;
    for (;;) {
#ifdef JSON_SSE2
        while (end - p >= 16) {
            unsigned m = nonplain16(p);
            if (m == 0) {
                p += 16;
                continue;
            }
            p += __builtin_ctz(m); /* exact: no byte loop below */
            break;
        }
#else
        while (end - p >= 8) {
            uint64_t m = nonplain8(p);
            if (m == 0) {
                p += 8;
                continue;
            }
#ifdef JSON_FIRST_BYTE
            p += JSON_FIRST_BYTE(m); /* no byte loop below */
#endif
            break;
        }
#endif
        while (p < end && plain_tab[*p])
            p++;
        if (p >= end) {
            P->p = p;
            return fail_expected(P, "'\"' to end the string");
        }
        unsigned char c = *p;
        if (c == '"')
            break;
        if (c == '\\') /* the rest is read and decoded in one pass */
            return parse_escaped(P, key, start, p, out, out_len);
        if (c < 0x20) {
            char msg[100];
            snprintf(msg, sizeof msg,
                     "invalid JSON: control character 0x%02x inside a string (it must be escaped)",
                     c);
            return fail_at(P, p, "%s", msg);
        }
        /* c >= 0x80 */
        const char *why;
        size_t n = utf8_seq(p, end, &why);
        if (n == 0)
            return fail_utf8(P, p);
        p += n;
    }
    if ((uint64_t)(p - start) > UINT32_MAX)
        return fail_at(P, start - 1, "invalid JSON: %s", "a string longer than 4 GiB");
    size_t len = (size_t)(p - start);
    const char *s = (const char *)start;
    *out = s;
    *out_len = (uint32_t)len;
    P->p = p + 1;
    return MV_OK;
}

/* ------------------------------------------------ strings left undecoded */

/* One byte of a string that needs a look (flagged by the block test or
 * not plain_tab): the checks of parse_string and parse_escaped, in their
 * order and with their messages, without writing anything. Returns 1 at
 * the closing quote (*pp stays on it), 0 with *pp past the byte or the
 * escape, or the error. */
static inline int raw_special(parser *P, const unsigned char **pp, const unsigned char **esc) {
    const unsigned char *p = *pp, *end = P->end;
    unsigned char c = *p;
    if (c == '"')
        return 1;
    if (c == '\\') {
        if (*esc == NULL)
            *esc = p;
        if (end - p < 2) {
            P->p = end;
            return fail_expected(P, "an escape sequence");
        }
        unsigned char e = p[1];
        if (simple_esc[e] != 0) {
            *pp = p + 2;
            return 0;
        }
        if (e != 'u')
            return fail_at(P, p, "invalid JSON: %s",
                           "invalid escape (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r "
                           "\\t \\u)");
        uint32_t cp = 0, lo = 0;
        if (end - p < 6 || hex4(p + 2, &cp) != 0)
            return fail_at(P, p, "invalid JSON: %s", "a \\u escape needs four hexadecimal digits");
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return fail_at(P, p, "invalid JSON: %s",
                           "a \\u escape is a low surrogate without a high one");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &lo) != 0 ||
                lo < 0xDC00 || lo > 0xDFFF)
                return fail_at(P, p, "invalid JSON: %s",
                               "a \\u escape is a high surrogate without a low one");
            *pp = p + 12;
        } else {
            *pp = p + 6; /* values only: "\u0000" is kept */
        }
        return 0;
    }
    if (c < 0x20) {
        char msg[100];
        snprintf(msg, sizeof msg,
                 "invalid JSON: control character 0x%02x inside a string (it must be escaped)", c);
        return fail_at(P, p, "%s", msg);
    }
    const char *why;
    size_t n = utf8_seq(p, end, &why);
    if (n == 0)
        return fail_utf8(P, p);
    *pp = p + n;
    return 0;
}

/* A string value of a lazy parse, its opening quote at P->p: validated
 * to its closing quote with exactly the errors parse_string would give
 * (same checks, same order, same offsets), then given as parse_string
 * gives it (no escape, or shorter than raw_min: parse_escaped decodes it
 * from its first backslash) or left raw (*raw set). Escape-dense text is
 * where the relay spends its time: with SSE2 every flagged byte of a
 * 16-byte block is handled from one mask, with no reload and no store
 * per escape. */
static int parse_string_lazy(parser *P, const char **out, uint32_t *out_len, bool *raw) {
    const unsigned char *start = P->p + 1, *p = start, *end = P->end, *esc = NULL;
    int r = 0;
    *raw = false;
#ifdef JSON_SSE2
    /* Up to the first byte that needs a look, the loop of parse_string:
     * plain text (prose) costs what it costs there. */
    while (end - p >= 16 && nonplain16(p) == 0)
        p += 16;
#endif
    for (;;) {
#ifdef JSON_SSE2
        while (end - p >= 16) {
            const unsigned char *b = p;
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)b);
            unsigned bs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
            __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
            unsigned qc = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(quote, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))));
            unsigned m = bs | qc;
            if (m == 0) {
                p += 16;
                continue;
            }
            /* Every backslash alone (none right after another) and followed
             * by a simple escape's letter: the escapes of the block are
             * valid at once, and what is left to look at is the first quote,
             * control or non-ASCII byte not escaped. A backslash in the
             * last byte escapes the byte after the block (b[16], checked
             * alone), and the next block starts after that. */
            unsigned e = bs << 1;
            if ((bs & e) == 0 && escapes_simple(v, quote, e) &&
                (e < 0x10000u || (end - b > 16 && simple_esc[b[16]] != 0))) {
                unsigned sp = qc & ~e;
                unsigned before = sp != 0 ? (1u << __builtin_ctz(sp)) - 1 : 0xFFFFu;
                if (esc == NULL && (bs & before) != 0)
                    esc = b + __builtin_ctz(bs);
                if (sp == 0) {
                    p = b + (e >> 16) + 16;
                    continue;
                }
                p = b + __builtin_ctz(sp);
                if ((r = raw_special(P, &p, &esc)) != 0)
                    goto scanned;
                continue;
            }
            for (;;) {
                const unsigned char *q = b + __builtin_ctz(m);
                size_t k;
                if (*q == '\\' && end - q >= 2 && simple_esc[q[1]] != 0) {
                    /* the common case, inline: a two-byte escape */
                    if (esc == NULL)
                        esc = q;
                    k = (size_t)(q - b) + 2;
                } else {
                    p = q;
                    if ((r = raw_special(P, &p, &esc)) != 0)
                        goto scanned;
                    k = (size_t)(p - b);
                }
                if (k >= 16) {
                    p = b + k; /* an escape or a character ran past the block */
                    break;
                }
                m &= ~0u << k;
                if (m == 0) {
                    p = b + 16;
                    break;
                }
            }
        }
#endif
        while (p < end && plain_tab[*p])
            p++;
        if (p >= end) {
            P->p = p;
            return fail_expected(P, "'\"' to end the string");
        }
        if ((r = raw_special(P, &p, &esc)) != 0)
            break;
    }
scanned:
    if (r < 0)
        return r;
    if ((uint64_t)(p - start) > UINT32_MAX)
        return fail_at(P, start - 1, "invalid JSON: %s", "a string longer than 4 GiB");
    size_t len = (size_t)(p - start);
    if (esc != NULL && len < P->raw_min)
        return parse_escaped(P, false, start, esc, out, out_len);
    *raw = esc != NULL;
    P->n_raw += esc != NULL;
    *out = (const char *)start;
    *out_len = (uint32_t)len;
    P->p = p + 1;
    return MV_OK;
}

size_t mv_json_raw_decode(char *dst, const char *src, size_t len) {
    const unsigned char *p = (const unsigned char *)src, *end = p + len;
    size_t o = 0;
    while (p < end) {
#ifdef JSON_SSE2
        if (end - p >= 16) {
            /* A block goes out whole; from a backslash on it is written
             * again (dst has MV_JSON_RAW_SLACK bytes past the text). */
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
            _mm_storeu_si128((__m128i *)(void *)(dst + o), v);
            if (m == 0) {
                p += 16;
                o += 16;
                continue;
            }
            size_t k = (size_t)__builtin_ctz(m);
            p += k;
            o += k;
        } else
#endif
        {
            while (p < end && *p != '\\')
                dst[o++] = (char)*p++;
            if (p >= end)
                break;
        }
        unsigned char e = p[1];
        if (e != 'u') {
            dst[o++] = (char)simple_esc[e];
            p += 2;
            continue;
        }
        uint32_t cp = 0, lo = 0;
        (void)hex4(p + 2, &cp);
        p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            (void)hex4(p + 2, &lo);
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
        }
        o += put_utf8(dst + o, cp);
    }
    return o;
}

/* ------------------------------------------------------------ scalars */

static int parse_number(parser *P, mv_jv *v) {
    const unsigned char *s = P->p, *p = s, *end = P->end;
    if (p < end && *p == '-')
        p++;
    if (p < end && *p == '0') {
        p++;
    } else if (p < end && *p >= '1' && *p <= '9') {
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    } else {
        return fail_at(P, s, "invalid JSON: %s", "invalid number");
    }
    if (p < end && *p == '.') {
        p++;
        if (p >= end || *p < '0' || *p > '9')
            return fail_at(P, s, "invalid JSON: %s", "invalid number (digits must follow '.')");
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || *p < '0' || *p > '9')
            return fail_at(P, s, "invalid JSON: %s", "invalid number (bad exponent)");
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    if ((uint64_t)(p - s) > UINT32_MAX)
        return fail_at(P, s, "invalid JSON: %s", "a number longer than 4 GiB");
    *v = (mv_jv){MV_JNUMBER, (uint32_t)(p - s), {.s = (const char *)s}};
    P->p = p;
    return MV_OK;
}

static int parse_literal(parser *P, mv_jv *v) {
    static const struct {
        const char *text;
        size_t len;
        mv_jtype type;
    } lits[] = {{"true", 4, MV_JTRUE}, {"false", 5, MV_JFALSE}, {"null", 4, MV_JNULL}};
    for (size_t i = 0; i < 3; i++) {
        if ((size_t)(P->end - P->p) >= lits[i].len &&
            memcmp(P->p, lits[i].text, lits[i].len) == 0) {
            *v = (mv_jv){(uint32_t)lits[i].type, 0, {.s = NULL}};
            P->p += lits[i].len;
            return MV_OK;
        }
    }
    return fail_at(P, P->p, "invalid JSON: %s", "invalid literal (expected true, false or null)");
}

static void skip_ws(parser *P) {
    const unsigned char *p = P->p, *end = P->end;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    P->p = p;
}

/* --------------------------------------------------------- containers */

static bool key_eq(const mv_jm *a, const char *k, size_t n) {
    return a->key_len == n && (n == 0 || (a->key[0] == k[0] && memcmp(a->key, k, n) == 0));
}

static int cmp_key(const char *a, size_t an, const char *b, size_t bn) {
    int r = memcmp(a, b, an < bn ? an : bn);
    if (r != 0)
        return r;
    return an < bn ? -1 : (an > bn ? 1 : 0);
}

typedef struct sort_key {
    const char *key;
    uint32_t len;
    uint32_t index;
} sort_key;

static int cmp_sort_key(const void *a, const void *b) {
    const sort_key *x = a, *y = b;
    int r = cmp_key(x->key, x->len, y->key, y->len);
    if (r != 0)
        return r;
    return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/* Raw (still escaped) length of the key whose opening quote is at off. */
static size_t raw_key_len(const parser *P, size_t off) {
    const unsigned char *p = P->p0 + off + 1;
    while (p < P->end && *p != '"')
        p += *p == '\\' ? 2 : 1;
    return (size_t)(p - (P->p0 + off + 1));
}

static int fail_dup(parser *P, size_t key_off) {
    char q[MV_JSON_QUOTE_SIZE(48)], msg[MV_JSON_QUOTE_SIZE(48) + 32];
    size_t raw = raw_key_len(P, key_off);
    mv_json_quote(q, (const char *)P->p0 + key_off + 1, raw, 48);
    snprintf(msg, sizeof msg, "duplicate object key %s", q);
    P->err->dup_key = true;
    P->err->key_len = raw;
    return fail_at(P, P->p0 + key_off, "%s", msg);
}

/* The object of the top frame is complete: check a large one for duplicate
 * keys and give it its sorted index, copy its members out, pop it. */
static int close_object(parser *P, mv_jv *v) {
    frame *f = &P->frames[P->n_frames - 1];
    size_t n = P->n_slots - f->first;
    /* No slot was ever pushed for "{}" first in a document: slots is NULL. */
    slot *s = n > 0 ? &P->slots[f->first] : NULL;
    mv_jm *members = NULL;
    sort_key *keys = NULL;
    int rc = MV_OK;
    if (n > UINT32_MAX)
        return fail_at(P, P->p, "invalid JSON: %s", "an object with more than 2^32 members");
    if (n > 0) {
        size_t index_bytes = n > MV_JSON_INDEX_MIN ? n * sizeof(uint32_t) : 0;
        members = mv_arena_alloc(P->arena, n * sizeof(*members) + index_bytes);
        if (members == NULL)
            return fail_nomem(P);
        for (size_t i = 0; i < n; i++)
            members[i] = s[i].m;
    }
    if (n > MV_JSON_INDEX_MIN) {
        keys = mv_alloc(P->alloc, n * sizeof(*keys));
        if (keys == NULL)
            return fail_nomem(P);
        for (size_t i = 0; i < n; i++)
            keys[i] = (sort_key){s[i].m.key, s[i].m.key_len, (uint32_t)i};
        qsort(keys, n, sizeof(*keys), cmp_sort_key);
        /* The duplicate reported is the one met first in the document: the
         * second member of some run of equal keys, the earliest of those. */
        size_t best = SIZE_MAX;
        for (size_t i = 0; i + 1 < n; i++) {
            if (cmp_key(keys[i].key, keys[i].len, keys[i + 1].key, keys[i + 1].len) != 0)
                continue;
            if (i > 0 && cmp_key(keys[i - 1].key, keys[i - 1].len, keys[i].key, keys[i].len) == 0)
                continue;
            if (keys[i + 1].index < best)
                best = keys[i + 1].index;
        }
        if (best != SIZE_MAX) {
            rc = fail_dup(P, s[best].key_off);
        } else {
            uint32_t *index = (uint32_t *)(members + n);
            for (size_t i = 0; i < n; i++)
                index[i] = keys[i].index;
        }
        mv_free(P->alloc, keys, n * sizeof(*keys));
    }
    if (rc == MV_OK) {
        *v = (mv_jv){MV_JOBJECT, (uint32_t)n, {.members = members}};
        P->n_slots = f->first;
        P->n_frames--;
    }
    return rc;
}

static int close_array(parser *P, mv_jv *v) {
    frame *f = &P->frames[P->n_frames - 1];
    size_t n = P->n_slots - f->first;
    mv_jv *items = NULL;
    if (n > UINT32_MAX)
        return fail_at(P, P->p, "invalid JSON: %s", "an array with more than 2^32 items");
    if (n > 0) {
        items = mv_arena_alloc(P->arena, n * sizeof(*items));
        if (items == NULL)
            return fail_nomem(P);
        const slot *s = &P->slots[f->first];
        for (size_t i = 0; i < n; i++)
            items[i] = s[i].m.value;
    }
    *v = (mv_jv){MV_JARRAY, (uint32_t)n, {.items = items}};
    P->n_slots = f->first;
    P->n_frames--;
    return MV_OK;
}

/* Read the key at P->p (an opening quote is required), check it against
 * the earlier keys of a small object, and push its slot. */
static int read_key(parser *P) {
    if (P->p >= P->end || *P->p != '"')
        return fail_expected(P, "a string key");
    size_t off = (size_t)(P->p - P->p0);
    const char *k = NULL;
    uint32_t kl = 0;
    int rc = parse_string(P, true, &k, &kl);
    if (rc != MV_OK)
        return rc;
    const frame *f = &P->frames[P->n_frames - 1];
    size_t count = P->n_slots - f->first;
    if (count < MV_JSON_INDEX_MIN) {
        for (size_t i = f->first; i < P->n_slots; i++)
            if (key_eq(&P->slots[i].m, k, kl))
                return fail_dup(P, off);
    }
    slot *s;
    if ((rc = push_slot(P, &s)) != MV_OK)
        return rc;
    s->m.key = k;
    s->m.key_len = kl;
    s->m.value = (mv_jv){MV_JNULL, 0, {.s = NULL}};
    s->key_off = off;
    skip_ws(P);
    if (P->p >= P->end || *P->p != ':')
        return fail_expected(P, "':' after the key");
    P->p++;
    skip_ws(P);
    return MV_OK;
}

/* ---------------------------------------------------------------- API */

enum { S_VALUE, S_AFTER_VALUE };

/* The one pass: P->p is at the first byte of a value; on return *out is
 * the top-level value (or, in items mode, the run's items are the slots of
 * the innermost given frame). */
static int run(parser *P, mv_jv *out) {
    int rc = MV_OK;
    mv_jv v = {MV_JNULL, 0, {.s = NULL}};
    int state = S_VALUE;
    for (;;) {
        if (state == S_VALUE) {
            /* P->p is at the first byte of a value. */
            unsigned char c = P->p < P->end ? *P->p : 0;
            if (c == '{' || c == '[') {
                if ((rc = push_frame(P, c == '{')) != MV_OK)
                    goto done;
                P->p++;
                skip_ws(P);
                if (P->p < P->end && *P->p == (c == '{' ? '}' : ']')) {
                    P->p++;
                    rc = c == '{' ? close_object(P, &v) : close_array(P, &v);
                    if (rc != MV_OK)
                        goto done;
                    state = S_AFTER_VALUE;
                } else if (c == '{' && (rc = read_key(P)) != MV_OK) {
                    goto done;
                }
                continue;
            }
            if (P->p >= P->end) {
                rc = fail_expected(P, "a value");
            } else if (c == '"') {
                const char *s = NULL;
                uint32_t n = 0;
                bool raw = false;
                if (P->lazy && P->n_frames >= P->raw_depth)
                    rc = parse_string_lazy(P, &s, &n, &raw);
                else
                    rc = parse_string(P, false, &s, &n);
                v = (mv_jv){raw ? MV_JRAW : (uint32_t)MV_JSTRING, n, {.s = s}};
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                rc = parse_number(P, &v);
            } else if (c == 't' || c == 'f' || c == 'n') {
                rc = parse_literal(P, &v);
            } else {
                rc = fail_expected(P, "a value");
            }
            if (rc != MV_OK)
                goto done;
            state = S_AFTER_VALUE;
            continue;
        }

        /* S_AFTER_VALUE: v is finished; hand it to its container. */
        if (P->n_frames == 0)
            break;
        frame *f = &P->frames[P->n_frames - 1];
        if (f->object) {
            P->slots[P->n_slots - 1].m.value = v;
        } else {
            slot *s;
            if ((rc = push_slot(P, &s)) != MV_OK)
                goto done;
            s->m.value = v;
        }
        skip_ws(P);
        if (P->n_frames == P->items_frames) {
            /* Items mode: the run ends after a value or goes on after a comma. */
            if (P->p >= P->end)
                break;
            if (*P->p != ',') {
                rc = fail_expected(P, "','");
                goto done;
            }
            P->p++;
            skip_ws(P);
            state = S_VALUE;
            continue;
        }
        unsigned char c = P->p < P->end ? *P->p : 0;
        if (P->p < P->end && c == ',') {
            P->p++;
            skip_ws(P);
            if (f->object && (rc = read_key(P)) != MV_OK)
                goto done;
            state = S_VALUE;
        } else if (P->p < P->end && c == (f->object ? '}' : ']')) {
            P->p++;
            rc = f->object ? close_object(P, &v) : close_array(P, &v);
            if (rc != MV_OK)
                goto done;
        } else {
            rc = fail_expected(P, f->object ? "',' or '}'" : "',' or ']'");
            goto done;
        }
    }
    *out = v;
done:
    return rc;
}

static int parse_doc(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc,
                     const char *data, size_t len, mv_json_lazy *lazy, mv_jerror *err) {
    parser P;
    int rc = MV_OK;
    mv_jv v = {MV_JNULL, 0, {.s = NULL}};
    mv_jv *root = NULL;

    memset(&P, 0, sizeof P);
    memset(err, 0, sizeof *err);
    if (data == NULL) /* an empty buffer that never held a byte: no NULL + 0 */
        data = "";
    P.p0 = P.p = (const unsigned char *)data;
    P.end = P.p0 + len;
    P.arena = arena;
    P.alloc = alloc;
    P.err = err;
    if (lazy != NULL) {
        P.lazy = true;
        P.raw_depth = lazy->depth;
        P.raw_min = lazy->min_len;
        lazy->n_raw = 0;
    }
    *out = NULL;

    skip_ws(&P);
    if (P.p >= P.end || (*P.p != '{' && *P.p != '[')) {
        rc = fail_expected(&P, "'{' or '[' at the top level");
        goto done;
    }
    if ((rc = run(&P, &v)) != MV_OK)
        goto done;
    skip_ws(&P);
    if (P.p < P.end) {
        char found[32];
        rc = fail_at(&P, P.p,
                     "invalid JSON: end of file expected after the top-level value, "
                     "found %s",
                     describe(&P, P.p, found, sizeof found));
        goto done;
    }
    root = mv_arena_alloc(arena, sizeof(*root));
    if (root == NULL) {
        rc = fail_nomem(&P);
        goto done;
    }
    *root = v;
    *out = root;
    if (lazy != NULL)
        lazy->n_raw = P.n_raw;

done:
    mv_free(alloc, P.slots, P.cap_slots * sizeof(slot));
    mv_free(alloc, P.frames, P.cap_frames * sizeof(frame));
    mv_free(alloc, P.dec, P.dec_cap);
    return rc;
}

int mv_json_parse(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc, const char *data,
                  size_t len, mv_jerror *err) {
    return parse_doc(out, arena, alloc, data, len, NULL, err);
}

int mv_json_parse_lazy(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc,
                       const char *data, size_t len, mv_json_lazy *lazy, mv_jerror *err) {
    return parse_doc(out, arena, alloc, data, len, lazy, err);
}

/* ------------------------------------------------- split parse (threads) */

/* The split parse cuts the largest array at the top of the document into
 * runs of items, parses each run on its own thread with the same pass
 * (items mode: the frames around the array are pushed first, so nesting is
 * counted as in the whole document), parses the rest of the document with
 * "[]" in the array's place, and puts the items in. Each piece is parsed
 * strictly and the pieces join at the document's own '[', commas and ']',
 * so when every piece parses the whole document is valid and its tree is
 * the one mv_json_parse builds. When anything fails, the document is
 * parsed again in one pass, which reports the very error (and offset) a
 * plain mv_json_parse gives. */

#define SPLIT_MIN_BYTES (256u * 1024u) /* smaller documents: one pass */
#define SPLIT_MAX_PIECES 64u

static const unsigned char *split_ws(const unsigned char *p, const unsigned char *end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* p at an opening quote: the byte after the closing one, or NULL. Only
 * quotes and the backslashes before them matter here; the parse checks the
 * rest. */
static const unsigned char *split_string(const unsigned char *p, const unsigned char *end) {
    const unsigned char *from = p + 1;
    for (;;) {
        const unsigned char *q = memchr(from, '"', (size_t)(end - from));
        if (q == NULL)
            return NULL;
        const unsigned char *b = q;
        while (b > from && b[-1] == '\\')
            b--;
        if (((size_t)(q - b) & 1u) == 0)
            return q + 1;
        from = q + 1;
    }
}

/* p at the first byte of a value: the byte after it, or NULL when the
 * document does not look like JSON here (the one-pass parse will say why). */
static const unsigned char *split_value(const unsigned char *p, const unsigned char *end) {
    size_t depth = 0;
    while (p < end) {
        unsigned char c = *p;
        if (c == '"') {
            p = split_string(p, end);
            if (p == NULL)
                return NULL;
        } else if (c == '{' || c == '[') {
            depth++;
            p++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return NULL;
            depth--;
            p++;
        } else {
            p++;
            if (depth == 0) /* a number or literal: up to its end */
                while (p < end && *p != ',' && *p != ']' && *p != '}' && *p != ' ' && *p != '\n' &&
                       *p != '\r' && *p != '\t')
                    p++;
        }
        if (depth == 0)
            return p;
    }
    return NULL;
}

typedef struct split_piece {
    parser P;
    size_t begin, end; /* the run's bytes */
    size_t depth;      /* frames around the run */
    const mv_jv *items;
    size_t n_items;
    mv_jerror err;
    int rc;
    pthread_t thread;
} split_piece;

static void *split_piece_main(void *arg) {
    split_piece *k = arg;
    parser *P = &k->P;
    mv_jv unused;
    int rc = MV_OK;
    for (size_t i = 0; i < k->depth && rc == MV_OK; i++)
        rc = push_frame(P, false);
    P->items_frames = k->depth;
    P->p = P->p0 + k->begin;
    P->end = P->p0 + k->end;
    skip_ws(P);
    if (rc == MV_OK)
        rc = run(P, &unused);
    if (rc == MV_OK) {
        size_t first = P->frames[k->depth - 1].first;
        k->n_items = P->n_slots - first;
        mv_jv *items = mv_arena_alloc(P->arena, k->n_items * sizeof(*items));
        if (items == NULL) {
            rc = fail_nomem(P);
        } else {
            for (size_t i = 0; i < k->n_items; i++)
                items[i] = P->slots[first + i].m.value;
            k->items = items;
        }
    }
    mv_free(P->alloc, P->slots, P->cap_slots * sizeof(slot));
    mv_free(P->alloc, P->frames, P->cap_frames * sizeof(frame));
    mv_free(P->alloc, P->dec, P->dec_cap);
    P->slots = NULL;
    P->frames = NULL;
    P->dec = NULL;
    k->rc = rc;
    return NULL;
}

/* The commas between the items of one array, in order, as the cut loop
 * of split_plan meets them (so the cuts can be chosen without walking the
 * array a second time). `ok` false: not known (too many, no memory, or a
 * shape the item walk does not follow): split_plan walks the array again. */
typedef struct split_commas {
    const mv_allocator *alloc;
    size_t *at;
    size_t n, cap, max;
    bool ok;
    bool *nomem; /* set when growing failed: the plan then fails too */
} split_commas;
/* Also when a run's bytes are many items: one comma per 256 bytes of the
 * document at most, else the array is walked again (bounded memory). */
#define SPLIT_COMMAS_PER 256u

static bool commas_push(split_commas *c, size_t at) {
    if (c->n == c->cap) {
        size_t cap = c->cap < 256 ? 256 : 2 * c->cap;
        if (cap > c->max)
            cap = c->max;
        if (c->n == cap)
            return false;
        size_t *g = mv_realloc(c->alloc, c->at, c->cap * sizeof(*g), cap * sizeof(*g));
        if (g == NULL) {
            /* Reported, not walked around: a plan either holds or fails
             * with MV_ENOMEM, so no allocation failure goes unseen. */
            *c->nomem = true;
            return false;
        }
        c->at = g;
        c->cap = cap;
    }
    c->at[c->n++] = at;
    return true;
}

/* p at the '[' of an array: the byte after it, or NULL as split_value
 * says. On the way, the commas between its items go into `c` (c->ok when
 * the walk met exactly what split_plan's cut loop would). */
static const unsigned char *split_array(const unsigned char *d, const unsigned char *p,
                                        const unsigned char *end, split_commas *c) {
    const unsigned char *v = p;
    c->n = 0;
    c->ok = c->max > 0;
    p = split_ws(p + 1, end);
    bool closed = false;
    while (c->ok && p < end) {
        if (*p == ']') {
            closed = true;
            break;
        }
        p = split_value(p, end);
        if (p == NULL)
            break;
        p = split_ws(p, end);
        if (p >= end || (*p != ',' && *p != ']'))
            break;
        if (*p == ',') {
            if (!commas_push(c, (size_t)(p - d)))
                break;
            p = split_ws(p + 1, end);
        }
    }
    if (closed)
        return p + 1;
    /* Anything else: the array as a whole, its cuts found again later. */
    c->ok = false;
    return split_value(v, end);
}

/* Where to cut: the largest array that is the document or a member of the
 * top-level object, and the commas that split its items into `pieces`
 * runs of about equal size. Returns the number of runs (0: do not split;
 * *nomem also set when memory ran out). The array's commas are kept as it
 * is skipped, so it is walked once. */
static size_t split_plan(const unsigned char *d, size_t len, size_t pieces, size_t *member,
                         size_t *arr_begin, size_t *arr_end, size_t *cuts, size_t *depth,
                         const mv_allocator *alloc, bool *nomem) {
    const unsigned char *end = d + len, *p = split_ws(d, end);
    const unsigned char *best = NULL, *best_end = NULL;
    size_t best_member = 0, n = 0;
    *nomem = false;
    /* The commas of the array being skipped and of the best one so far. */
    split_commas cur = {alloc, NULL, 0, 0, len / SPLIT_COMMAS_PER + 1024, false, nomem};
    split_commas kept = cur;
    if (p >= end)
        goto done;
    if (*p == '[') {
        best = p;
        best_end = split_array(d, p, end, &cur);
        split_commas t = kept;
        kept = cur;
        cur = t;
        *depth = 1;
    } else if (*p == '{') {
        size_t m = 0;
        p = split_ws(p + 1, end);
        while (p < end && *p == '"') {
            p = split_string(p, end);
            if (p == NULL)
                goto done;
            p = split_ws(p, end);
            if (p >= end || *p != ':')
                goto done;
            p = split_ws(p + 1, end);
            const unsigned char *v = p;
            p = *v == '[' ? split_array(d, v, end, &cur) : split_value(p, end);
            if (p == NULL)
                goto done;
            if (*v == '[' && (best == NULL || p - v > best_end - best)) {
                best = v;
                best_end = p;
                best_member = m;
                split_commas t = kept;
                kept = cur;
                cur = t;
            }
            m++;
            p = split_ws(p, end);
            if (p < end && *p == ',')
                p = split_ws(p + 1, end);
            else
                break;
        }
        *depth = 2;
    }
    if (best == NULL || best_end == NULL || (size_t)(best_end - best) < SPLIT_MIN_BYTES)
        goto done;
    /* Commas between items, taken when a run has its share of bytes. */
    size_t share = (size_t)(best_end - best) / pieces;
    const unsigned char *run_start = best + 1;
    n = 1;
    if (kept.ok) {
        for (size_t k = 0; k < kept.n && n < pieces; k++) {
            if (kept.at[k] - (size_t)(run_start - d) >= share) {
                cuts[n - 1] = kept.at[k];
                run_start = d + kept.at[k] + 1;
                n++;
            }
        }
    } else {
        p = split_ws(best + 1, best_end);
        while (p < best_end - 1 && n < pieces) {
            p = split_value(p, best_end);
            if (p == NULL) {
                n = 0;
                goto done;
            }
            p = split_ws(p, best_end);
            if (p >= best_end || *p != ',')
                break;
            if ((size_t)(p - run_start) >= share) {
                cuts[n - 1] = (size_t)(p - d);
                run_start = p + 1;
                n++;
            }
            p = split_ws(p + 1, best_end);
        }
    }
    *member = best_member;
    *arr_begin = (size_t)(best - d);
    *arr_end = (size_t)(best_end - d);
done:
    mv_free(alloc, cur.at, cur.cap * sizeof(*cur.at));
    mv_free(alloc, kept.at, kept.cap * sizeof(*kept.at));
    return *nomem ? 0 : n;
}

/* The split parse proper; MV_EPARSE or MV_ENOMEM (any failure) sends the
 * caller to the one-pass parse. */
static int split_parse(const mv_jv **out, mv_arena *arena, mv_arena *const *more, size_t n_more,
                       const mv_allocator *alloc, const char *data, size_t len, mv_jerror *err) {
    size_t cuts[SPLIT_MAX_PIECES], member = 0, ab = 0, ae = 0, depth = 0;
    size_t want = n_more + 1 > SPLIT_MAX_PIECES ? SPLIT_MAX_PIECES : n_more + 1;
    const unsigned char *d = (const unsigned char *)data;
    bool nomem = false;
    size_t n = split_plan(d, len, want, &member, &ab, &ae, cuts, &depth, alloc, &nomem);
    split_piece *ks = NULL;
    char *outer = NULL;
    int rc = nomem ? MV_ENOMEM : MV_EPARSE;
    if (n < 2)
        goto done;
    ks = mv_calloc(alloc, n, sizeof(*ks));
    if (ks == NULL)
        goto done;
    for (size_t i = 0; i < n; i++) {
        split_piece *k = &ks[i];
        k->P.p0 = d;
        k->P.arena = i == 0 ? arena : more[i - 1];
        k->P.alloc = alloc;
        k->P.err = &k->err;
        k->begin = i == 0 ? ab + 1 : cuts[i - 1] + 1;
        k->end = i + 1 < n ? cuts[i] : ae - 1;
        k->depth = depth;
    }
    size_t started = 0;
    for (size_t i = 1; i < n; i++) {
        if (pthread_create(&ks[i].thread, NULL, split_piece_main, &ks[i]) != 0)
            break;
        started = i;
    }
    split_piece_main(&ks[0]);
    for (size_t i = started + 1; i < n; i++)
        split_piece_main(&ks[i]);
    /* The rest of the document, with "[]" where the array was. */
    size_t outer_len = ab + 2 + (len - ae);
    outer = mv_arena_alloc(arena, outer_len + 1);
    const mv_jv *root = NULL;
    int orc = MV_ENOMEM;
    if (outer != NULL) {
        memcpy(outer, data, ab);
        outer[ab] = '[';
        outer[ab + 1] = ']';
        memcpy(outer + ab + 2, data + ae, len - ae);
        outer[outer_len] = '\0';
        orc = mv_json_parse(&root, arena, alloc, outer, outer_len, err);
    }
    for (size_t i = 1; i <= started; i++)
        pthread_join(ks[i].thread, NULL);
    if (orc != MV_OK)
        goto done;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (ks[i].rc != MV_OK)
            goto done;
        total += ks[i].n_items;
    }
    mv_jv *hole = (mv_jv *)(uintptr_t)root;
    if (depth == 2) {
        if (!mv_jis_object(root) || member >= root->n)
            goto done;
        hole = (mv_jv *)(uintptr_t)&root->u.members[member].value;
    }
    if (!mv_jis_array(hole) || hole->n != 0 || total > UINT32_MAX)
        goto done;
    mv_jv *items = mv_arena_alloc(arena, total * sizeof(*items));
    if (items == NULL)
        goto done;
    for (size_t i = 0, at = 0; i < n; at += ks[i].n_items, i++)
        memcpy(items + at, ks[i].items, ks[i].n_items * sizeof(*items));
    *hole = (mv_jv){MV_JARRAY, (uint32_t)total, {.items = items}};
    *out = root;
    rc = MV_OK;
done:
    mv_free(alloc, ks, n * sizeof(*ks));
    return rc;
}

/* ----------------------------------------- chunked parse (the model) */

int mv_json_chunks_plan(mv_json_chunks *out, const mv_allocator *alloc, const char *data,
                        size_t len, size_t run_bytes) {
    memset(out, 0, sizeof *out);
    if (data == NULL || run_bytes == 0)
        return MV_EPARSE;
    size_t pieces = len / run_bytes + 1;
    if (pieces < 2)
        return MV_EPARSE;
    size_t *cuts = mv_calloc(alloc, pieces, sizeof(*cuts));
    if (cuts == NULL)
        return MV_ENOMEM;
    size_t member = 0, ab = 0, ae = 0, depth = 0;
    bool nomem = false;
    size_t n = split_plan((const unsigned char *)data, len, pieces, &member, &ab, &ae, cuts, &depth,
                          alloc, &nomem);
    if (n < 2) {
        mv_free(alloc, cuts, pieces * sizeof(*cuts));
        return nomem ? MV_ENOMEM : MV_EPARSE;
    }
    out->member = member;
    out->depth = depth;
    out->arr_begin = ab;
    out->arr_end = ae;
    out->cuts = cuts;
    out->cap_cuts = pieces;
    out->n = n;
    return MV_OK;
}

void mv_json_chunks_free(mv_json_chunks *c, const mv_allocator *alloc) {
    if (c == NULL)
        return;
    mv_free(alloc, c->cuts, c->cap_cuts * sizeof(*c->cuts));
    memset(c, 0, sizeof *c);
}

int mv_json_chunks_outer(const mv_jv **out, mv_arena *arena, const mv_allocator *alloc,
                         const char *data, size_t len, const mv_json_chunks *c, mv_jerror *err) {
    size_t ab = c->arr_begin, ae = c->arr_end;
    size_t outer_len = ab + 2 + (len - ae);
    char *outer = mv_arena_alloc(arena, outer_len + 1);
    const mv_jv *root = NULL;
    *out = NULL;
    if (outer == NULL)
        return MV_ENOMEM;
    memcpy(outer, data, ab);
    outer[ab] = '[';
    outer[ab + 1] = ']';
    memcpy(outer + ab + 2, data + ae, len - ae);
    outer[outer_len] = '\0';
    int rc = mv_json_parse(&root, arena, alloc, outer, outer_len, err);
    if (rc != MV_OK)
        return rc;
    const mv_jv *hole = root;
    if (c->depth == 2)
        hole =
            mv_jis_object(root) && c->member < root->n ? &root->u.members[c->member].value : NULL;
    if (!mv_jis_array(hole) || hole->n != 0)
        return MV_EPARSE;
    *out = root;
    return MV_OK;
}

int mv_json_chunks_items(const mv_jv **items, size_t *n_items, mv_arena *const *arenas,
                         size_t count, const mv_allocator *alloc, const char *data,
                         const mv_json_chunks *c, size_t first, mv_jerror *err) {
    int rc = MV_EPARSE;
    split_piece *ks = NULL;
    *items = NULL;
    *n_items = 0;
    if (count == 0 || first + count > c->n)
        return MV_EPARSE;
    ks = mv_calloc(alloc, count, sizeof(*ks));
    if (ks == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < count; i++) {
        size_t r = first + i;
        split_piece *k = &ks[i];
        k->P.p0 = (const unsigned char *)data;
        k->P.arena = arenas[i];
        k->P.alloc = alloc;
        k->P.err = &k->err;
        k->begin = r == 0 ? c->arr_begin + 1 : c->cuts[r - 1] + 1;
        k->end = r + 1 < c->n ? c->cuts[r] : c->arr_end - 1;
        k->depth = c->depth;
    }
    size_t started = 0;
    for (size_t i = 1; i < count; i++) {
        if (pthread_create(&ks[i].thread, NULL, split_piece_main, &ks[i]) != 0)
            break;
        started = i;
    }
    split_piece_main(&ks[0]);
    for (size_t i = started + 1; i < count; i++)
        split_piece_main(&ks[i]);
    for (size_t i = 1; i <= started; i++)
        pthread_join(ks[i].thread, NULL);
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (ks[i].rc != MV_OK) {
            *err = ks[i].err;
            rc = ks[i].rc;
            goto done;
        }
        total += ks[i].n_items;
    }
    rc = MV_ENOMEM;
    mv_jv *all = mv_arena_alloc(arenas[0], (total + 1) * sizeof(*all));
    if (all == NULL)
        goto done;
    for (size_t i = 0, at = 0; i < count; at += ks[i].n_items, i++)
        if (ks[i].n_items > 0)
            memcpy(all + at, ks[i].items, ks[i].n_items * sizeof(*all));
    *items = all;
    *n_items = total;
    rc = MV_OK;
done:
    mv_free(alloc, ks, count * sizeof(*ks));
    return rc;
}

int mv_json_parse_split(const mv_jv **out, mv_arena *arena, mv_arena *const *more, size_t n_more,
                        const mv_allocator *alloc, const char *data, size_t len, mv_jerror *err) {
    *out = NULL;
    if (n_more > 0 && data != NULL && len >= SPLIT_MIN_BYTES &&
        split_parse(out, arena, more, n_more, alloc, data, len, err) == MV_OK) {
        memset(err, 0, sizeof *err);
        return MV_OK;
    }
    return mv_json_parse(out, arena, alloc, data, len, err);
}

const mv_jv *mv_jobject_getn(const mv_jv *obj, const char *key, size_t len) {
    if (!mv_jis_object(obj))
        return NULL;
    const mv_jm *m = obj->u.members;
    size_t n = obj->n;
    if (n <= MV_JSON_INDEX_MIN) {
        for (size_t i = 0; i < n; i++)
            if (key_eq(&m[i], key, len))
                return &m[i].value;
        return NULL;
    }
    const uint32_t *index = (const uint32_t *)(m + n);
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const mv_jm *x = &m[index[mid]];
        int r = cmp_key(key, len, x->key, x->key_len);
        if (r == 0)
            return &x->value;
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

const char *mv_json_type(const mv_jv *v) {
    if (mv_jis_raw(v))
        return "string";
    switch (v != NULL ? (mv_jtype)v->type : MV_JNULL) {
    case MV_JOBJECT:
        return "object";
    case MV_JARRAY:
        return "array";
    case MV_JSTRING:
        return "string";
    case MV_JNUMBER:
        return "number";
    case MV_JTRUE:
    case MV_JFALSE:
        return "boolean";
    case MV_JNULL:
        return "null";
    }
    return "unknown";
}

/* Decode one UTF-8 sequence; invalid input yields the byte itself. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
    unsigned char b = s[0];
    size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    if (b < 0x80 || len > n || (b & 0xC0) == 0x80 || b >= 0xF8) {
        *cp = b;
        return 1;
    }
    uint32_t v = b & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = b;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return len;
}

static size_t put_u(char *dst, uint32_t u) {
    static const char hex[] = "0123456789abcdef";
    dst[0] = '\\';
    dst[1] = 'u';
    dst[2] = hex[(u >> 12) & 0xF];
    dst[3] = hex[(u >> 8) & 0xF];
    dst[4] = hex[(u >> 4) & 0xF];
    dst[5] = hex[u & 0xF];
    return 6;
}

size_t mv_json_quote(char *dst, const char *s, size_t len, size_t max_src) {
    const unsigned char *u = (const unsigned char *)s;
    size_t end = len, o = 0, i = 0;
    bool cut = len > max_src;
    if (cut) {
        end = max_src;
        while (end > 0 && (u[end] & 0xC0) == 0x80)
            end--;
    }
    dst[o++] = '"';
    while (i < end) {
        unsigned char b = u[i];
        if (b == '"' || b == '\\') {
            dst[o++] = '\\';
            dst[o++] = (char)b;
            i++;
        } else if (b >= 0x20 && b < 0x7F) {
            dst[o++] = (char)b;
            i++;
        } else {
            uint32_t cp;
            i += utf8_decode(u + i, end - i, &cp);
            if (cp > 0xFFFF) {
                cp -= 0x10000;
                o += put_u(dst + o, 0xD800 + (cp >> 10));
                o += put_u(dst + o, 0xDC00 + (cp & 0x3FF));
            } else {
                o += put_u(dst + o, cp);
            }
        }
    }
    dst[o++] = '"';
    if (cut) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
    return o;
}
