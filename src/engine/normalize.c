/*
 * The normalizer: raw tool text -> the canonical view every phrase rule is
 * matched against, with a map from each normalized byte back to the raw
 * byte offset of the character it came from.
 *
 * Two linear passes over scratch buffers owned by the normalizer (no
 * per-call malloc once the buffers have grown):
 *
 *  A. Characters. UTF-8 is decoded (each maximal ill-formed subsequence is
 *     one U+FFFD), format and default-ignorable characters are dropped,
 *     quotes unified, non-ASCII text goes through NFKC + case folding
 *     (utf8proc), controls and every kind of whitespace become ' ' or '\n'.
 *     ASCII followed by ASCII never reaches utf8proc: one table lookup per
 *     byte. Whitespace is NOT collapsed yet, so pass B can still see the
 *     double spaces that separate the words of letter-spaced text.
 *
 *  B. Words. The text is split into chunks at whitespace. Letter-spaced
 *     runs are joined, Latin look-alike letters folded inside words that
 *     have Latin letters, contractions expanded and plain words stemmed;
 *     identifiers, paths and URLs are copied untouched. Chunks are joined by
 *     one ASCII space, leading and trailing whitespace disappears.
 *
 * The result is copied into the caller's arena at the end.
 */
#include "mcpvet/normalize.h"

#include "hash.h"
#include "normalize_chars.h"
#include "precomp.h"

#include <string.h>
#include <utf8proc.h>

#ifdef MV_STEMMER_ENGLISH_STATIC
/* Snowball's English stemmer, linked in from libstemmer.a alone: the shared
 * libstemmer carries the tables of thirty languages behind 10,800
 * relocations, and the loader's copy-on-write of their 81 pages was the
 * largest part of every start of mcpvet (see docs/performance.md). These
 * are Snowball's own generated entry points (runtime/header.h and
 * stem_UTF_8_english.h, which the package does not install); the word and
 * its length are the first and third members of the environment, exactly
 * as sb_stemmer_stem and sb_stemmer_length read them. unit.normalize checks
 * every stem against sb_stemmer_stem. */
struct SN_env {
    unsigned char *p;
    int c, l, lb, bra, ket;
    unsigned char **S;
    int *I;
};
extern struct SN_env *english_UTF_8_create_env(void);
extern void english_UTF_8_close_env(struct SN_env *z);
extern int english_UTF_8_stem(struct SN_env *z);
extern int SN_set_current(struct SN_env *z, int size, const unsigned char *s);
typedef struct SN_env mv_stemmer;

static mv_stemmer *stemmer_new(void) {
    return english_UTF_8_create_env();
}

static void stemmer_free(mv_stemmer *z) {
    english_UTF_8_close_env(z);
}

/* What sb_stemmer_stem does: NULL when out of memory. */
static const unsigned char *stemmer_stem(mv_stemmer *z, const char *w, size_t len,
                                         size_t *out_len) {
    if (SN_set_current(z, (int)len, (const unsigned char *)w) != 0) {
        z->l = 0;
        return NULL;
    }
    if (english_UTF_8_stem(z) < 0)
        return NULL;
    z->p[z->l] = 0;
    *out_len = (size_t)z->l;
    return z->p;
}
#else
#include <libstemmer.h>
typedef struct sb_stemmer mv_stemmer;

static mv_stemmer *stemmer_new(void) {
    return sb_stemmer_new("english", NULL);
}

static void stemmer_free(mv_stemmer *z) {
    sb_stemmer_delete(z);
}

static const unsigned char *stemmer_stem(mv_stemmer *z, const char *w, size_t len,
                                         size_t *out_len) {
    const sb_symbol *r = sb_stemmer_stem(z, (const sb_symbol *)w, (int)len);
    if (r != NULL)
        *out_len = (size_t)sb_stemmer_length(z);
    return r;
}
#endif

/* Inputs at or above this size are rejected: offsets are 32-bit. */
#define NORM_MAX_INPUT ((size_t)1 << 31)

/* A composition segment (a starter and the marks that follow it) is cut
 * after this many code points. UAX #15's stream-safe format bounds real text
 * to 30 non-starters; longer runs are "zalgo" noise and would otherwise make
 * canonical reordering quadratic. */
#define SEG_MAX 32

/* Longest decomposition of one code point we accept (NFKC's longest is 18). */
#define DECOMP_MAX 32

/* Words longer than this are not stemmed (no English word is; a long letter
 * run is an encoded blob or a joined letter-spaced paragraph). */
#define STEM_MAX_WORD 64

/* Cache of stems: tool text repeats words (the 5,000 real tools use about
 * 8,500 distinct words), and a hit costs one cache line instead of a Snowball
 * run (about 180 ns). Two-way set associative, one 64-byte line per set,
 * 512 KiB in all. The cache never changes results, only their cost. */
#define STEM_CACHE_SETS 8192
#define STEM_CACHE_KEY 16 /* bytes; longer words bypass the cache */
/* The cache starts at 16 KiB and grows fourfold, keeping its words, once
 * it has stored two words a set since it last grew: a small scan's words then sit on a few pages
 * instead of one fresh page each across the full 512 KiB (each first touch
 * is a page fault, about 2 to 5 us in a virtual machine). */
#define STEM_CACHE_FIRST_SETS 256

/* Cache of normalized phrase units (see mv_normalize_phrase): bounded so a
 * long-lived normalizer fed endless phrases stops caching instead of
 * growing. Hitting a bound only costs speed, never changes a result. */
#define PC_MAX_UNITS 65536
#define PC_MAX_POOL ((size_t)4 << 20)

/* Byte classes used by pass B (after folding, so only lowercase letters). */
#define K_SPACE 0x01  /* ' ' or '\n' */
#define K_LETTER 0x02 /* a-z */
#define K_IDENT 0x04  /* makes a chunk an identifier wherever it appears */
#define K_INNER 0x08  /* makes a chunk an identifier when inside its core */
#define K_WRAP 0x10   /* stripped from the ends of a chunk before analysis */
#define K_ENDP 0x20   /* may end a letter-spaced group ("e," in "i g n o r e,") */
#define K_HIGH 0x40   /* first or later byte of a non-ASCII character */
#define K_OTHER 0x80  /* any other ASCII byte: not a letter, not a space */

typedef struct nbuf {
    char *b;
    uint32_t *o;
    size_t len;
    size_t bcap; /* bytes allocated for b */
    size_t ocap; /* entries allocated for o */
} nbuf;

typedef struct stem_slot {
    uint64_t key[2]; /* the word, zero-padded; all zero = empty */
    char stem[STEM_CACHE_KEY - 1];
    uint8_t slen;
} stem_slot;

typedef struct stem_set {
    stem_slot way[2]; /* way[0] holds the word hit most recently twice */
} stem_set;

struct mv_normalizer {
    mv_allocator alloc;
    mv_stemmer *stemmer;
    unsigned flags;     /* flags of the call in progress */
    nbuf a;             /* pass A output */
    const uint32_t *ao; /* pass A offsets: a.o, or iota when pass A was a plain fold */
    uint32_t *iota;     /* iota[i] == i: the offsets of all-ASCII text */
    size_t iota_cap;
    nbuf out;  /* pass B output */
    nbuf word; /* a joined letter-spaced word */
    nbuf fold; /* a chunk after look-alike folding */
    size_t seg_len;
    utf8proc_int32_t seg[SEG_MAX];
    uint32_t seg_src[SEG_MAX];
    stem_set *cache;    /* made on first use; a set is empty until its bit in cache_live */
    size_t cache_sets;  /* sets in cache: STEM_CACHE_FIRST_SETS, growing to STEM_CACHE_SETS */
    size_t cache_words; /* words stored (misses) since the last growth: decides the next */
    uint64_t cache_live[STEM_CACHE_SETS / 64];
    bool cache_failed;            /* could not allocate it: stem without (results are the same) */
    bool phrase_mode;             /* in mv_normalize_phrase: bypass the stem cache */
    bool precomp;                 /* the phrases recorded at build time apply (precomp.h) */
    struct phrase_cache *phrases; /* mv_normalize_phrase only; made on first use */
    struct memo *memo;            /* mv_normalize results by raw text; made on first use */
    unsigned char fold_ascii[128];
    unsigned char cls[256];
};

/* ------------------------------------------------------------------ buffers */

static int nbuf_grow(mv_normalizer *n, nbuf *b, size_t need) {
    int rc = MV_OK;
    size_t cap = b->bcap < b->ocap ? b->bcap : b->ocap;
    size_t want = cap ? cap : 256;
    if (need > SIZE_MAX / (2 * sizeof(uint32_t))) {
        rc = MV_ENOMEM; /* only reachable where size_t is 32 bits */
        goto done;
    }
    while (want < need) {
        want *= 2;
    }
    if (b->bcap < want) {
        char *nb = mv_realloc(&n->alloc, b->b, b->bcap, want);
        if (nb == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        b->b = nb;
        b->bcap = want;
    }
    if (b->ocap < want) {
        uint32_t *no =
            mv_realloc(&n->alloc, b->o, b->ocap * sizeof(uint32_t), want * sizeof(uint32_t));
        if (no == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        b->o = no;
        b->ocap = want;
    }
done:
    return rc;
}

/* Make room for `extra` more entries. */
static inline int nbuf_reserve(mv_normalizer *n, nbuf *b, size_t extra) {
    size_t need = b->len + extra;
    int rc = MV_OK;
    if (need > b->bcap || need > b->ocap) {
        rc = nbuf_grow(n, b, need);
    }
    return rc;
}

static void nbuf_release(mv_normalizer *n, nbuf *b) {
    if (b->b != NULL) {
        mv_free(&n->alloc, b->b, b->bcap);
    }
    if (b->o != NULL) {
        mv_free(&n->alloc, b->o, b->ocap * sizeof(uint32_t));
    }
    b->b = NULL;
    b->o = NULL;
    b->len = b->bcap = b->ocap = 0;
}

/* Callers reserve first. */
static inline void nbuf_put(nbuf *b, char c, uint32_t off) {
    b->b[b->len] = c;
    b->o[b->len] = off;
    b->len++;
}

static inline void nbuf_append(nbuf *b, const char *s, const uint32_t *o, size_t len) {
    char *db = b->b + b->len;
    uint32_t *dofs = b->o + b->len;
    if (len <= 16) {
        /* Words are short: a loop beats two library calls. */
        for (size_t i = 0; i < len; i++) {
            db[i] = s[i];
            dofs[i] = o[i];
        }
    } else {
        memcpy(db, s, len);
        memcpy(dofs, o, len * sizeof(uint32_t));
    }
    b->len += len;
}

/* ------------------------------------------------------------------- tables */

static void init_tables(mv_normalizer *n) {
    static const char ident[] = "0123456789_/\\@~=$%&|^#";
    static const char inner[] = ".:()[]{}<>";
    static const char wrap[] = "()[]{}<>\"'*,.;:!?";
    static const char endp[] = ",.;:!?";
    for (unsigned c = 0; c < 128; c++) {
        unsigned char f = (unsigned char)c;
        if (c >= 'A' && c <= 'Z') {
            f = (unsigned char)(c + ('a' - 'A'));
        } else if (c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            f = '\n'; /* line breaks also separate letter-spaced words */
        } else if (c < 0x20 || c == 0x7F) {
            f = ' '; /* tab and every other control */
        } else if (c == '`') {
            f = '\'';
        }
        n->fold_ascii[c] = f;
    }
    for (unsigned c = 128; c < 256; c++) {
        n->cls[c] = K_HIGH;
    }
    for (unsigned c = 0; c < 128; c++) {
        n->cls[c] = K_OTHER;
    }
    n->cls[' '] = n->cls['\n'] = K_SPACE;
    for (unsigned c = 'a'; c <= 'z'; c++) {
        n->cls[c] = K_LETTER;
    }
    for (const char *p = ident; *p; p++) {
        n->cls[(unsigned char)*p] |= K_IDENT;
    }
    for (const char *p = inner; *p; p++) {
        n->cls[(unsigned char)*p] |= K_INNER;
    }
    for (const char *p = wrap; *p; p++) {
        n->cls[(unsigned char)*p] |= K_WRAP;
    }
    for (const char *p = endp; *p; p++) {
        n->cls[(unsigned char)*p] |= K_ENDP;
    }
}

/* ------------------------------------------------------------------- UTF-8 */

/* Decode one character of untrusted input at s[i] (i < len). An ill-formed
 * sequence yields U+FFFD and consumes its maximal valid prefix (at least one
 * byte), as Unicode recommends, so one bad byte never eats good text. */
static size_t decode_raw(const unsigned char *s, size_t len, size_t i, uint32_t *cp) {
    unsigned char c = s[i];
    size_t need = 0;
    size_t k = 1;
    uint32_t v = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    *cp = 0xFFFD;
    if (c < 0x80) {
        *cp = c;
        goto done;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
        v = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        v = c & 0x0Fu;
        lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlongs */
        hi = c == 0xED ? 0x9F : 0xBF; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        v = c & 0x07u;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
    } else {
        goto done; /* stray continuation byte, C0/C1 or F5..FF */
    }
    for (size_t j = 1; j <= need; j++) {
        unsigned char b;
        if (i + j >= len) {
            goto done;
        }
        b = s[i + j];
        if (j == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) {
            goto done;
        }
        v = (v << 6) | (b & 0x3Fu);
        k = j + 1;
    }
    *cp = v;
done:
    return k;
}

/* Decode one character of our own (valid) UTF-8 at s[i]. */
static inline size_t decode_ok(const char *str, size_t i, uint32_t *cp) {
    const unsigned char *s = (const unsigned char *)str + i;
    size_t k = 1;
    if (s[0] < 0x80) {
        *cp = s[0];
    } else if (s[0] < 0xE0) {
        *cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3Fu);
        k = 2;
    } else if (s[0] < 0xF0) {
        *cp = ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3Fu);
        k = 3;
    } else {
        *cp = ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
              ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3Fu);
        k = 4;
    }
    return k;
}

/* Byte length of the (valid) character whose lead byte is s[i]. */
static inline size_t char_len(const char *s, size_t i) {
    unsigned char c = (unsigned char)s[i];
    return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

static size_t encode_utf8(uint32_t cp, char *out) {
    size_t k = 0;
    if (cp < 0x80) {
        out[k++] = (char)cp;
    } else if (cp < 0x800) {
        out[k++] = (char)(0xC0 | (cp >> 6));
        out[k++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[k++] = (char)(0xE0 | (cp >> 12));
        out[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[k++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[k++] = (char)(0xF0 | (cp >> 18));
        out[k++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[k++] = (char)(0x80 | (cp & 0x3F));
    }
    return k;
}

/* Little-endian targets build stem-cache keys with fixed-size loads. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NORM_LITTLE_ENDIAN 1
#else
#define NORM_LITTLE_ENDIAN 0
#endif

static inline uint64_t load64(const char *p) {
    uint64_t x;
    memcpy(&x, p, sizeof(x));
    return x;
}

/* ------------------------------------------------------ pass A: characters */

/* Append one code point of the NFKC/case-folded stream to pass A output. */
static int emit_cp(mv_normalizer *n, uint32_t cp, uint32_t off) {
    nbuf *a = &n->a;
    int rc = nbuf_reserve(n, a, 4);
    int space;
    uint32_t q;
    if (rc != MV_OK) {
        goto done;
    }
    if (cp < 0x80) {
        nbuf_put(a, (char)n->fold_ascii[cp], off);
        goto done;
    }
    if (mv_normchar_ignorable(cp)) {
        goto done; /* NFKC can map a visible character to a filler (U+FFA0) */
    }
    space = mv_normchar_space(cp);
    if (space != 0) {
        nbuf_put(a, (char)space, off);
        goto done;
    }
    q = mv_normchar_quote(cp);
    if (q != cp) {
        nbuf_put(a, (char)q, off);
        goto done;
    }
    {
        char tmp[4];
        size_t k = encode_utf8(cp, tmp);
        for (size_t j = 0; j < k; j++) {
            nbuf_put(a, tmp[j], off);
        }
    }
done:
    return rc;
}

/* Whether a decomposed code point starts a new composition segment: a
 * starter that nothing before it can compose with. */
static bool seg_starts(uint32_t cp) {
    const utf8proc_property_t *p;
    bool result = true;
    if (cp >= 0x80) {
        p = utf8proc_get_property((utf8proc_int32_t)cp);
        if (p->combining_class != 0) {
            result = false;
        } else if (p->comb_index != UINT16_MAX && (p->comb_index & 0x8000u)) {
            result = false; /* ccc 0 but composes with a preceding character */
        } else if ((cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 && cp <= 0x11C2)) {
            result = false; /* Hangul vowel/trailing jamo (composed algorithmically) */
        }
    }
    return result;
}

/* Canonically order and compose the pending segment, then emit it. Output
 * code point k maps to the raw offset of source code point min(k, len-1):
 * composition only shrinks a segment, so offsets stay non-decreasing and a
 * composed character maps to the first raw character it came from. */
static int seg_flush(mv_normalizer *n) {
    size_t len = n->seg_len;
    utf8proc_ssize_t m = (utf8proc_ssize_t)len;
    int rc = MV_OK;
    n->seg_len = 0;
    if (len > 1) {
        for (size_t i = 1; i < len; i++) {
            utf8proc_int32_t x = n->seg[i];
            int cx = utf8proc_get_property(x)->combining_class;
            size_t j = i;
            if (cx == 0) {
                continue;
            }
            while (j > 0) {
                int cy = utf8proc_get_property(n->seg[j - 1])->combining_class;
                if (cy <= cx) {
                    break;
                }
                n->seg[j] = n->seg[j - 1];
                j--;
            }
            n->seg[j] = x;
        }
        m = utf8proc_normalize_utf32(n->seg, (utf8proc_ssize_t)len,
                                     (utf8proc_option_t)(UTF8PROC_COMPOSE | UTF8PROC_STABLE));
        if (m < 0) {
            m = (utf8proc_ssize_t)len; /* cannot happen for valid code points; keep as is */
        }
    }
    for (size_t k = 0; k < (size_t)m && rc == MV_OK; k++) {
        rc = emit_cp(n, (uint32_t)n->seg[k], n->seg_src[k < len ? k : len - 1]);
    }
    return rc;
}

static int seg_push(mv_normalizer *n, uint32_t cp, uint32_t off) {
    int rc = MV_OK;
    if (n->seg_len > 0 && (n->seg_len == SEG_MAX || seg_starts(cp))) {
        rc = seg_flush(n);
    }
    if (rc == MV_OK) {
        n->seg[n->seg_len] = (utf8proc_int32_t)cp;
        n->seg_src[n->seg_len] = off;
        n->seg_len++;
    }
    return rc;
}

/* One source character on the slow path (non-ASCII, or ASCII followed by
 * non-ASCII so that a following combining mark can compose with it). */
static int slow_char(mv_normalizer *n, uint32_t cp, uint32_t off) {
    utf8proc_int32_t d[DECOMP_MAX];
    utf8proc_ssize_t m;
    int boundclass = 0;
    int rc = MV_OK;
    uint32_t q;
    if (cp < 0x80) {
        rc = seg_push(n, n->fold_ascii[cp], off);
        goto done;
    }
    if (mv_normchar_ignorable(cp)) {
        goto done; /* dropped before composition: "e<ZWJ><U+0301>" still composes */
    }
    q = mv_normchar_quote(cp);
    if (q != cp) {
        rc = seg_push(n, q, off);
        goto done;
    }
    m = utf8proc_decompose_char(
        (utf8proc_int32_t)cp, d, DECOMP_MAX,
        (utf8proc_option_t)(UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_DECOMPOSE), &boundclass);
    if (m < 1 || m > DECOMP_MAX) {
        d[0] = 0xFFFD;
        m = 1;
    } else if (m > 1 && d[0] == ' ' && mv_normchar_space(cp) == 0) {
        /* Spacing accents (U+00A8 ¨, U+02DC ˜ ...) decompose to space + mark,
         * which would split a word in two; keep the symbol itself. */
        d[0] = (utf8proc_int32_t)cp;
        m = 1;
    }
    for (utf8proc_ssize_t k = 0; k < m && rc == MV_OK; k++) {
        rc = seg_push(n, (uint32_t)d[k], off);
    }
done:
    return rc;
}

/* Whether every byte of raw[0, len) is ASCII. */
static bool all_ascii(const unsigned char *raw, size_t len) {
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        acc |= load64((const char *)raw + i) | load64((const char *)raw + i + 8) |
               load64((const char *)raw + i + 16) | load64((const char *)raw + i + 24);
    }
    for (; i + 8 <= len; i += 8) {
        acc |= load64((const char *)raw + i);
    }
    for (; i < len; i++) {
        acc |= raw[i];
    }
    return (acc & 0x8080808080808080ull) == 0;
}

static inline void store64(char *p, uint64_t x) {
    memcpy(p, &x, sizeof(x));
}

/* Make iota cover [0, need). */
static int iota_reserve(mv_normalizer *n, size_t need) {
    int rc = MV_OK;
    if (need > n->iota_cap) {
        size_t want = n->iota_cap ? n->iota_cap : 4096;
        uint32_t *ni;
        while (want < need) {
            want *= 2;
        }
        ni =
            mv_realloc(&n->alloc, n->iota, n->iota_cap * sizeof(uint32_t), want * sizeof(uint32_t));
        if (ni == NULL) {
            rc = MV_ENOMEM;
        } else {
            for (size_t i = n->iota_cap; i < want; i++) {
                ni[i] = (uint32_t)i;
            }
            n->iota = ni;
            n->iota_cap = want;
        }
    }
    return rc;
}

/* Fold eight ASCII bytes (as fold_ascii does one). A word without
 * controls, DEL or '`' only needs its capitals lowered, which SWAR does
 * exactly for ASCII bytes (no byte carries into the next); anything else
 * goes through the table byte by byte. */
static inline void fold8(const mv_normalizer *n, const unsigned char *src, char *dst) {
    const uint64_t ones = 0x0101010101010101ull;
    const uint64_t highs = ones * 0x80u;
    uint64_t x = load64((const char *)src);
    uint64_t bq = x ^ (ones * '`');
    uint64_t del = x ^ (ones * 0x7Fu);
    uint64_t special =
        (((x - ones * 0x20u) & ~x) | ((bq - ones) & ~bq) | ((del - ones) & ~del)) & highs;
    if (special != 0) {
        for (unsigned j = 0; j < 8; j++) {
            dst[j] = (char)n->fold_ascii[src[j]];
        }
    } else {
        uint64_t ge_a = (x + ones * (0x80u - 'A')) & highs;
        uint64_t gt_z = (x + ones * (0x80u - 'Z' - 1)) & highs;
        store64(dst, x | ((ge_a & ~gt_z) >> 2));
    }
}

/*
 * Pass A of all-ASCII text (most tool text): nothing can compose, so it is
 * the per-byte fold of the general path, and offset i is i, read from the
 * shared iota array instead of being written. Eight bytes at a time
 * (fold8).
 */
static int pass_a_ascii(mv_normalizer *n, const unsigned char *raw, size_t len) {
    nbuf *a = &n->a;
    size_t i = 0;
    int rc;
    a->len = 0;
    rc = nbuf_reserve(n, a, len + 8);
    if (rc == MV_OK) {
        rc = iota_reserve(n, len + 8);
    }
    if (rc != MV_OK) {
        goto done;
    }
    for (; i + 8 <= len; i += 8) {
        fold8(n, raw + i, a->b + i);
    }
    for (; i < len; i++) {
        a->b[i] = (char)n->fold_ascii[raw[i]];
    }
    a->len = len;
    memset(a->b + len, ' ', 8); /* pass B's sentinel spaces */
    n->ao = n->iota;
done:
    return rc;
}

static int pass_a(mv_normalizer *n, const unsigned char *raw, size_t len) {
    nbuf *a = &n->a;
    size_t i = 0;
    int rc = MV_OK;
    if (all_ascii(raw, len)) {
        rc = pass_a_ascii(n, raw, len);
        goto done;
    }
    rc = iota_reserve(n, len + 8); /* the fast path below copies offsets from it */
    if (rc != MV_OK) {
        goto done;
    }
    a->len = 0;
    n->seg_len = 0;
    while (i < len) {
        if (raw[i] < 0x80 && (i + 1 == len || raw[i + 1] < 0x80)) {
            /* Fast path: ASCII followed by ASCII cannot compose with anything. */
            size_t k;
            char *ob;
            uint32_t *oo;
            if (n->seg_len > 0) {
                rc = seg_flush(n);
                if (rc != MV_OK) {
                    goto done;
                }
            }
            rc = nbuf_reserve(n, a, len - i);
            if (rc != MV_OK) {
                goto done;
            }
            ob = a->b + a->len;
            oo = a->o + a->len;
            k = 0;
            do {
                /* Eight at a time while the next nine bytes are ASCII (each
                 * of the eight is then followed by ASCII): most tool text. */
                if (i + 9 <= len &&
                    ((load64((const char *)raw + i) | load64((const char *)raw + i + 1)) &
                     0x8080808080808080ull) == 0) {
                    fold8(n, raw + i, ob + k);
                    memcpy(oo + k, n->iota + i, 8 * sizeof(uint32_t));
                    k += 8;
                    i += 8;
                    continue; /* re-checks byte i before the next step */
                }
                ob[k] = (char)n->fold_ascii[raw[i]];
                oo[k] = (uint32_t)i;
                k++;
                i++;
            } while (i < len && raw[i] < 0x80 && (i + 1 == len || raw[i + 1] < 0x80));
            a->len += k;
        } else {
            uint32_t cp;
            size_t adv = decode_raw(raw, len, i, &cp);
            rc = slow_char(n, cp, (uint32_t)i);
            if (rc != MV_OK) {
                goto done;
            }
            i += adv;
        }
    }
    if (n->seg_len > 0) {
        rc = seg_flush(n);
        if (rc != MV_OK) {
            goto done;
        }
    }
    /* Sentinel spaces (not counted in len) end pass B's chunk scans without
     * bound checks. */
    rc = nbuf_reserve(n, a, 8);
    if (rc == MV_OK) {
        memset(a->b + a->len, ' ', 8);
    }
    n->ao = a->o; /* only now: reserving may have moved it */
done:
    return rc;
}

/* ----------------------------------------------------------- pass B: words */

/* The word w[0..len) (len <= 16) as two zero-padded words. On little-endian
 * targets overlapping fixed-size loads replace a variable-length memcpy
 * (a third of the cost of a cache hit). */
static inline void load_key(uint64_t key[2], const char *w, size_t len) {
#if NORM_LITTLE_ENDIAN
    if (len >= 8) {
        key[0] = load64(w);
        key[1] = len > 8 ? load64(w + len - 8) >> (8 * (16 - len)) : 0;
    } else if (len >= 4) {
        uint32_t lo;
        uint32_t hi;
        memcpy(&lo, w, 4);
        memcpy(&hi, w + len - 4, 4);
        key[0] = (uint64_t)lo | ((uint64_t)hi << (8 * (len - 4)));
        key[1] = 0;
    } else {
        key[0] = 0;
        for (size_t i = 0; i < len; i++) {
            key[0] |= (uint64_t)(unsigned char)w[i] << (8 * i);
        }
        key[1] = 0;
    }
#else
    key[0] = key[1] = 0;
    memcpy(key, w, len);
#endif
}

/* The stem cache is made on the first stem of tool text. Normalizers that
 * only ever see rule phrases (every check's init) never touch it: their
 * distinct words rarely repeat once mv_normalize_phrase caches whole units,
 * and 512 KiB of fresh pages per normalizer was a visible part of engine
 * start-up. Sets are cleared on first use for the same reason. */
static size_t stem_set_of(const uint64_t key[2], size_t sets) {
    uint64_t h = (key[0] * 0x9E3779B97F4A7C15u) ^ (key[1] * 0xC2B2AE3D27D4EB4Fu);
    return (size_t)(h >> 40) & (sets - 1);
}

/* Move the cache's words into one four times larger, at most
 * STEM_CACHE_SETS (a failed allocation
 * keeps the small one: only speed depends on the cache). */
static void stem_cache_grow(mv_normalizer *n) {
    size_t old_sets = n->cache_sets;
    size_t sets = old_sets * 4 < STEM_CACHE_SETS ? old_sets * 4 : STEM_CACHE_SETS;
    stem_set *old = n->cache;
    stem_set *c = mv_alloc(&n->alloc, sets * sizeof(stem_set));
    if (c == NULL) {
        n->cache_words = 0;
        return;
    }
    uint64_t live[STEM_CACHE_SETS / 64];
    memcpy(live, n->cache_live, sizeof(live));
    memset(n->cache_live, 0, sizeof(n->cache_live));
    n->cache = c;
    n->cache_sets = sets;
    n->cache_words = 0;
    for (unsigned w = 0; w < 2; w++) {
        for (size_t i = 0; i < old_sets; i++) {
            if (!(live[i >> 6] & ((uint64_t)1 << (i & 63))))
                continue;
            const stem_slot *slot = &old[i].way[w];
            if (slot->key[0] == 0 && slot->key[1] == 0)
                continue;
            size_t si = stem_set_of(slot->key, sets);
            uint64_t bit = (uint64_t)1 << (si & 63);
            if (!(n->cache_live[si >> 6] & bit)) {
                memset(&c[si], 0, sizeof(c[si]));
                n->cache_live[si >> 6] |= bit;
            }
            stem_slot *to = &c[si].way[0];
            if (to->key[0] != 0 || to->key[1] != 0)
                to = &c[si].way[1];
            if (to->key[0] == 0 && to->key[1] == 0) {
                *to = *slot;
                n->cache_words++;
            }
        }
    }
    mv_free(&n->alloc, old, old_sets * sizeof(stem_set));
}

static bool stem_cache_ready(mv_normalizer *n) {
    if (n->phrase_mode)
        return false;
    if (n->cache == NULL && !n->cache_failed) {
        n->cache = mv_alloc(&n->alloc, STEM_CACHE_FIRST_SETS * sizeof(stem_set));
        n->cache_failed = n->cache == NULL;
        n->cache_sets = STEM_CACHE_FIRST_SETS;
    } else if (n->cache != NULL && n->cache_sets < STEM_CACHE_SETS &&
               n->cache_words >= 2 * n->cache_sets) {
        stem_cache_grow(n);
    }
    return n->cache != NULL;
}

/* Snowball stem of a lowercase Latin word, through the cache. */
static int stem_lookup(mv_normalizer *n, const char *w, size_t len, const char **stem,
                       size_t *slen) {
    stem_set *set = NULL;
    uint64_t key[2] = {0, 0};
    const unsigned char *r;
    int rc = MV_OK;
    if (len <= STEM_CACHE_KEY && stem_cache_ready(n)) {
        load_key(key, w, len);
        size_t si = stem_set_of(key, n->cache_sets);
        uint64_t bit = (uint64_t)1 << (si & 63);
        set = &n->cache[si];
        if (!(n->cache_live[si >> 6] & bit)) {
            memset(set, 0, sizeof(*set)); /* first use of this set */
            n->cache_live[si >> 6] |= bit;
        }
        if (set->way[0].key[0] == key[0] && set->way[0].key[1] == key[1]) {
            *stem = set->way[0].stem;
            *slen = set->way[0].slen;
            goto done;
        }
        if (set->way[1].key[0] == key[0] && set->way[1].key[1] == key[1]) {
            /* Promote: a word seen twice outranks one seen once. */
            stem_slot t = set->way[0];
            set->way[0] = set->way[1];
            set->way[1] = t;
            *stem = set->way[0].stem;
            *slen = set->way[0].slen;
            goto done;
        }
    }
    r = stemmer_stem(n->stemmer, w, len, slen);
    if (r == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    *stem = (const char *)r;
    if (set != NULL && *slen < STEM_CACHE_KEY) {
        /* New words go to the second way so rare words cannot evict the
         * frequent ones. */
        n->cache_words++;
        memcpy(set->way[1].key, key, sizeof(key));
        set->way[1].slen = (uint8_t)*slen;
        memcpy(set->way[1].stem, r, *slen);
        *stem = set->way[1].stem;
    }
done:
    return rc;
}

/* Whether every letter of a word is Latin (marks may follow them). */
static bool word_is_latin(const char *w, size_t len) {
    bool result = true;
    size_t i = 0;
    while (i < len && result) {
        uint32_t cp;
        i += decode_ok(w, i, &cp);
        if (cp >= 0x80 && !mv_normchar_is_latin(cp)) {
            utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
            result = cat >= UTF8PROC_CATEGORY_MN && cat <= UTF8PROC_CATEGORY_ME;
        }
    }
    return result;
}

/* Emit one word (a maximal letter run of a plain chunk), stemmed when it is
 * a Latin word. Stem byte k maps to the raw offset of word byte k (Snowball
 * stems are prefixes of the word, up to a replaced final letter such as
 * "happy" -> "happi"); bytes past the end of the word map to its last byte. */
static int emit_word(mv_normalizer *n, const char *w, const uint32_t *o, size_t len, bool ascii) {
    nbuf *out = &n->out;
    const char *stem = NULL;
    size_t slen = 0;
    int rc = MV_OK;
    if (!(n->flags & MV_NORM_STEM) || len < 3 || len > STEM_MAX_WORD ||
        (!ascii && !word_is_latin(w, len))) {
        nbuf_append(out, w, o, len);
        goto done;
    }
    rc = stem_lookup(n, w, len, &stem, &slen);
    if (rc != MV_OK) {
        goto done;
    }
    if (slen > len) {
        rc = nbuf_reserve(n, out, slen - len);
        if (rc != MV_OK) {
            goto done;
        }
    }
    {
        char *db = out->b + out->len;
        uint32_t *dofs = out->o + out->len;
        for (size_t k = 0; k < slen; k++) {
            db[k] = stem[k];
            dofs[k] = o[k < len ? k : len - 1];
        }
        out->len += slen;
    }
done:
    return rc;
}

/* Emit a word the normalizer made up (contraction expansion), every byte
 * mapped to `off`; it is stemmed like typed text so that "don't" and "do
 * not" stay identical whatever the stemmer does. */
static int emit_made_word(mv_normalizer *n, const char *w, uint32_t off) {
    uint32_t o[8];
    size_t len = strlen(w);
    for (size_t k = 0; k < len; k++) {
        o[k] = off;
    }
    return emit_word(n, w, o, len, true);
}

/* Letter run starting at s[i] (a letter or mark), returns its end. *ascii is
 * cleared when the run has non-ASCII characters. */
static size_t letter_run(const mv_normalizer *n, const char *s, size_t len, size_t i, bool *ascii) {
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (n->cls[c] & K_LETTER) {
            i++;
        } else if (c >= 0x80) {
            uint32_t cp;
            size_t k = decode_ok(s, i, &cp);
            if (!mv_normchar_is_wordchar(cp)) {
                break;
            }
            *ascii = false;
            i += k;
        } else {
            break;
        }
    }
    return i;
}

static bool is_letter_at(const mv_normalizer *n, const char *s, size_t i) {
    unsigned char c = (unsigned char)s[i];
    bool result = (n->cls[c] & K_LETTER) != 0;
    if (c >= 0x80) {
        uint32_t cp;
        decode_ok(s, i, &cp);
        result = mv_normchar_is_wordchar(cp);
    }
    return result;
}

static bool run_is(const char *s, size_t len, const char *lit) {
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* The word a contraction suffix ('re, 'll, 've, 'm, 'd) stands for, or NULL. */
static const char *suffix_word(const char *suf, size_t len) {
    const char *made = NULL;
    if (run_is(suf, len, "re")) {
        made = "are";
    } else if (run_is(suf, len, "ll")) {
        made = "will";
    } else if (run_is(suf, len, "ve")) {
        made = "have";
    } else if (run_is(suf, len, "m")) {
        made = "am";
    } else if (run_is(suf, len, "d")) {
        made = "would";
    }
    return made;
}

/* Contraction at s[a..b) ' s[b+1..c): when the suffix is one we expand,
 * emit the expansion and set *expanded. Words are letter runs, so
 * "user's", "l'utilisateur" or "o'clock" never match. */
static int contraction(mv_normalizer *n, const char *s, const uint32_t *o, size_t a, size_t b,
                       size_t c, bool ascii, bool *expanded) {
    const char *suf = s + b + 1;
    size_t slen = c - b - 1;
    size_t wlen = b - a;
    uint32_t apos = o[b];
    const char *made = NULL;
    const char *base = NULL; /* replacement for the word before "n't" */
    size_t keep = wlen;      /* bytes of the word kept when base is NULL */
    int rc = MV_OK;
    *expanded = false;
    if (run_is(suf, slen, "t") && wlen >= 2 && s[b - 1] == 'n') {
        made = "not";
        if (run_is(s + a, wlen, "can")) {
            keep = wlen; /* "can't" -> "can not", not "ca not" */
        } else if (run_is(s + a, wlen, "won")) {
            base = "will";
        } else if (run_is(s + a, wlen, "shan")) {
            base = "shall";
        } else if (run_is(s + a, wlen, "ain")) {
            base = "is";
        } else {
            keep = wlen - 1;
        }
    } else {
        made = suffix_word(suf, slen);
    }
    if (made == NULL) {
        goto done;
    }
    *expanded = true;
    if (base != NULL) {
        rc = emit_made_word(n, base, o[a]);
    } else {
        rc = emit_word(n, s + a, o + a, keep, ascii);
    }
    if (rc == MV_OK) {
        nbuf_put(&n->out, ' ', apos);
        rc = emit_made_word(n, made, apos);
    }
done:
    return rc;
}

/* The core of a plain chunk: letter runs are words (contractions expanded,
 * stemmed), everything else is copied. */
static int emit_words(mv_normalizer *n, const char *s, const uint32_t *o, size_t len) {
    nbuf *out = &n->out;
    size_t i = 0;
    int rc = MV_OK;
    while (i < len && rc == MV_OK) {
        bool ascii = true;
        bool expanded = false;
        size_t j;
        if (!is_letter_at(n, s, i)) {
            size_t k = char_len(s, i);
            nbuf_append(out, s + i, o + i, k);
            i += k;
            continue;
        }
        j = letter_run(n, s, len, i, &ascii);
        if (j + 1 < len && s[j] == '\'' && is_letter_at(n, s, j + 1)) {
            bool sascii = true;
            size_t c = letter_run(n, s, len, j + 1, &sascii);
            if (sascii) {
                rc = contraction(n, s, o, i, j, c, ascii, &expanded);
            }
            /* Stacked suffixes: "mustn't've" -> "must not have". */
            while (expanded && rc == MV_OK && c + 1 < len && s[c] == '\'' &&
                   is_letter_at(n, s, c + 1)) {
                bool more_ascii = true;
                size_t d = letter_run(n, s, len, c + 1, &more_ascii);
                const char *made = more_ascii ? suffix_word(s + c + 1, d - c - 1) : NULL;
                if (made == NULL) {
                    break;
                }
                nbuf_put(out, ' ', o[c]);
                rc = emit_made_word(n, made, o[c]);
                c = d;
            }
            if (expanded) {
                i = c;
                continue;
            }
        }
        if (run_is(s + i, j - i, "cannot")) {
            /* "cannot" is "can not"/"can't": one more variant that must meet */
            rc = emit_word(n, s + i, o + i, 3, true);
            if (rc == MV_OK) {
                nbuf_put(out, ' ', o[i + 3]);
                rc = emit_word(n, s + i + 3, o + i + 3, 3, true);
            }
        } else {
            rc = emit_word(n, s + i, o + i, j - i, ascii);
        }
        i = j;
    }
    return rc;
}

/* Emit ASCII letter `base` (replacing the look-alike at s[i]) with the
 * combining marks that follow it, recomposed: "о" + U+0301 must become "ó"
 * exactly as "o" + U+0301 does in pass A. The dot above of "i̇" (from "İ")
 * is part of the look-alike and dropped. *at advances past the marks. */
static int fold_with_marks(mv_normalizer *n, const char *s, const uint32_t *o, size_t *at, size_t j,
                           char base) {
    nbuf *f = &n->fold;
    utf8proc_int32_t cps[SEG_MAX];
    uint32_t src[SEG_MAX];
    size_t i = *at;
    size_t k = 1;
    utf8proc_ssize_t m;
    uint32_t cp;
    int rc;
    cps[0] = base;
    src[0] = o[i];
    i += char_len(s, i);
    while (i < j && k < SEG_MAX) {
        size_t w = decode_ok(s, i, &cp);
        utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
        if (cat < UTF8PROC_CATEGORY_MN || cat > UTF8PROC_CATEGORY_ME) {
            break;
        }
        if (!(cp == 0x0307 && (base == 'i' || base == 'j'))) {
            cps[k] = (utf8proc_int32_t)cp;
            src[k] = o[i];
            k++;
        }
        i += w;
    }
    m = k > 1 ? utf8proc_normalize_utf32(cps, (utf8proc_ssize_t)k, UTF8PROC_COMPOSE) : 1;
    if (m < 1) {
        m = (utf8proc_ssize_t)k;
    }
    rc = nbuf_reserve(n, f, 4 * (size_t)m);
    for (size_t x = 0; x < (size_t)m && rc == MV_OK; x++) {
        char tmp[4];
        size_t w = encode_utf8((uint32_t)cps[x], tmp);
        for (size_t y = 0; y < w; y++) {
            nbuf_put(f, tmp[y], src[x < k ? x : k - 1]);
        }
    }
    *at = i;
    return rc;
}

/* Fold Latin look-alikes inside letter runs that contain a Latin letter.
 * Writes the folded chunk to n->fold. */
static int fold_confusables(mv_normalizer *n, const char *s, const uint32_t *o, size_t len) {
    nbuf *f = &n->fold;
    size_t i = 0;
    int rc;
    f->len = 0;
    rc = nbuf_reserve(n, f, len);
    while (rc == MV_OK && i < len) {
        bool has_latin = false;
        bool has_fold = false;
        size_t j = i;
        if (!is_letter_at(n, s, i)) {
            size_t k = char_len(s, i);
            nbuf_append(f, s + i, o + i, k);
            i += k;
            continue;
        }
        while (j < len) {
            uint32_t cp;
            size_t k = decode_ok(s, j, &cp);
            if (!mv_normchar_is_wordchar(cp)) {
                break;
            }
            if (mv_normchar_is_latin(cp)) {
                has_latin = true;
            }
            if (cp >= 0x80 && (mv_normchar_confusable(cp) != 0 || cp == 0x0307)) {
                has_fold = true;
            }
            j += k;
        }
        if (!has_latin || !has_fold) {
            nbuf_append(f, s + i, o + i, j - i);
            i = j;
            continue;
        }
        while (rc == MV_OK && i < j) {
            uint32_t cp;
            size_t k = decode_ok(s, i, &cp);
            char latin = cp >= 0x80 ? mv_normchar_confusable(cp) : 0;
            uint32_t next = 0;
            if (latin == 0 && (cp == 'i' || cp == 'j') && i + k < j) {
                decode_ok(s, i + k, &next);
                latin = next == 0x0307 ? (char)cp : 0;
            }
            if (latin != 0) {
                rc = fold_with_marks(n, s, o, &i, j, latin);
            } else {
                nbuf_append(f, s + i, o + i, k);
                i += k;
            }
        }
    }
    return rc;
}

/* An identifier, path or URL: copied untouched instead of being split into
 * words. `core` is the chunk without its wrapping punctuation. */
static bool core_is_identifier(const mv_normalizer *n, const char *core, size_t len) {
    bool result = core[0] == '-'; /* command-line flags */
    for (size_t i = 0; i < len && !result; i++) {
        result = (n->cls[(unsigned char)core[i]] & (K_IDENT | K_INNER)) != 0;
    }
    return result;
}

/* Leetspeak: digits standing for letters inside a word ("1gn0re",
 * "prev10us", "p4ssw0rd", "s3cr3t"). A core qualifies when it has only
 * ASCII letters and the digits 0 1 3 4 5 7, at least four bytes, two
 * letters, and a digit with letters on both sides (not only a plural
 * "s": "mp3s"): versions ("v1.2"), units ("10ms"), "python3", "ipv4",
 * hashes with other digits ("a9f8")
 * and identifiers with '_' or '-' stay as written. 1 reads as l after a
 * vowel or another 1 ("a11", "fi1e"), as i otherwise ("1gn0re"). Writes the
 * letters into buf (same length) and returns true. */
#define LEET_MAX 40
static bool deleet(const char *s, size_t len, char *buf) {
    size_t letters = 0;
    bool interior = false;
    if (len < 4 || len > LEET_MAX) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (letter) {
            letters++;
            continue;
        }
        if (c != '0' && c != '1' && c != '3' && c != '4' && c != '5' && c != '7') {
            return false;
        }
        if (!interior && letters > 0) {
            /* letters after this digit, up to the next digit: a lone
             * plural "s" ("mp3s") does not make it a word */
            size_t k = i + 1;
            while (k < len && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z'))) {
                k++;
            }
            interior = k - i - 1 >= 2 || (k - i - 1 == 1 && (s[i + 1] | 0x20) != 's');
        }
    }
    if (letters < 2 || !interior) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        char prev = i > 0 ? (char)(s[i - 1] | 0x20) : '\0';
        switch (c) {
        case '0':
            c = 'o';
            break;
        case '1':
            c = (prev == 'a' || prev == 'e' || prev == 'i' || prev == 'o' || prev == 'u' ||
                 (i > 0 && s[i - 1] == '1') || (i + 1 < len && s[i + 1] == '1'))
                    ? 'l'
                    : 'i';
            break;
        case '3':
            c = 'e';
            break;
        case '4':
            c = 'a';
            break;
        case '5':
            c = 's';
            break;
        case '7':
            c = 't';
            break;
        default:
            break;
        }
        buf[i] = c;
    }
    return true;
}

/*
 * One whitespace-free chunk: "(don't", "instructions.", "~/.ssh/id_rsa",
 * "<important>". Wrapping punctuation is stripped from both ends and copied;
 * the core is an identifier (copied untouched) when it holds a digit, one of
 * _ / \ @ ~ = $ % & | ^ #, an inner . : ( ) [ ] { } < >, or starts with '-';
 * otherwise its letter runs are words.
 */
static int emit_chunk(mv_normalizer *n, const char *s, const uint32_t *o, size_t len, unsigned acc,
                      uint32_t space_off) {
    nbuf *out = &n->out;
    size_t cs = 0;
    size_t ce = len;
    int rc = MV_OK;
    if ((acc & K_HIGH) && (n->flags & MV_NORM_CONFUSABLES)) {
        rc = fold_confusables(n, s, o, len);
        if (rc != MV_OK) {
            goto done;
        }
        s = n->fold.b;
        o = n->fold.o;
        len = ce = n->fold.len;
    }
    if (out->len > 0) {
        nbuf_put(out, ' ', space_off);
    }
    if (acc == K_LETTER && !run_is(s, len, "cannot")) {
        /* The common case: one plain ASCII word. */
        rc = emit_word(n, s, o, len, true);
        goto done;
    }
    while (cs < ce && (n->cls[(unsigned char)s[cs]] & K_WRAP)) {
        cs++;
    }
    while (ce > cs && (n->cls[(unsigned char)s[ce - 1]] & K_WRAP)) {
        ce--;
    }
    nbuf_append(out, s, o, cs);
    if (cs < ce) {
        size_t i = cs;
        while (i < ce && (n->cls[(unsigned char)s[i]] & K_LETTER)) {
            i++;
        }
        char leet[LEET_MAX];
        if (i == ce && !run_is(s + cs, ce - cs, "cannot")) {
            rc = emit_word(n, s + cs, o + cs, ce - cs, true); /* "word," "(word)" */
        } else if (deleet(s + cs, ce - cs, leet)) {
            rc = emit_words(n, leet, o + cs, ce - cs);
        } else if (core_is_identifier(n, s + cs, ce - cs)) {
            nbuf_append(out, s + cs, o + cs, ce - cs);
        } else {
            rc = emit_words(n, s + cs, o + cs, ce - cs);
        }
        if (rc != MV_OK) {
            goto done;
        }
    }
    nbuf_append(out, s + ce, o + ce, len - ce);
done:
    return rc;
}

/* A chunk that is one letter, optionally followed by group-ending
 * punctuation ("e,"). Returns the letter's byte length, 0 otherwise. */
static size_t single_letter(const mv_normalizer *n, const char *s, size_t p, size_t q) {
    size_t k = 0;
    unsigned char c = (unsigned char)s[p];
    if (n->cls[c] & K_LETTER) {
        k = 1;
    } else if (c >= 0x80) {
        uint32_t cp;
        k = decode_ok(s, p, &cp);
        utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
        if (cat < UTF8PROC_CATEGORY_LU || cat > UTF8PROC_CATEGORY_LO) {
            k = 0;
        }
    }
    for (size_t i = p + k; i < q && k > 0; i++) {
        if (!(n->cls[(unsigned char)s[i]] & K_ENDP)) {
            k = 0;
        }
    }
    return k;
}

/* End of the chunk starting at p; *acc collects the classes of its bytes.
 * Pass A leaves sentinel spaces after the text, so no bound check. */
static size_t chunk_end(const mv_normalizer *n, const char *s, size_t p, unsigned *acc) {
    unsigned f = 0;
    for (;;) {
        unsigned c = n->cls[(unsigned char)s[p]];
        if (c & K_SPACE) {
            break;
        }
        f |= c;
        p++;
    }
    *acc = f;
    return p;
}

static size_t gap_end(const mv_normalizer *n, const char *s, size_t len, size_t p) {
    while (p < len && (n->cls[(unsigned char)s[p]] & K_SPACE)) {
        p++;
    }
    return p;
}

/*
 * Letter-spaced text starting at the single-letter chunk at p. Single
 * letters separated by exactly one space form a group; groups separated by
 * a wider gap, a line break or group-ending punctuation form a phrase. The
 * phrase is joined (each group becomes one word) when a group has >= 4
 * letters or two groups have >= 3: "i g n o r e  a l l" -> "ignore all",
 * while "a b testing", "x y z axes" and "Plan B" stay as written.
 * Returns the end of the phrase in *next.
 */
static int despace(mv_normalizer *n, size_t p, uint32_t space_off, size_t *next) {
    const char *s = n->a.b;
    const uint32_t *o = n->ao;
    size_t len = n->a.len;
    size_t pos = p;
    size_t end = p;
    size_t group = 0;
    size_t n_ge3 = 0;
    bool join = false;
    int rc = MV_OK;
    for (;;) {
        unsigned acc;
        size_t q = chunk_end(n, s, pos, &acc);
        size_t k = single_letter(n, s, pos, q);
        size_t r;
        if (k == 0) {
            break;
        }
        group++;
        end = q;
        r = gap_end(n, s, len, q);
        if (pos + k < q || r == len || r - q != 1 || s[q] != ' ') {
            join = join || group >= 4;
            n_ge3 += group >= 3;
            group = 0;
        }
        if (r == len) {
            break;
        }
        pos = r;
    }
    join = join || group >= 4 || n_ge3 + (group >= 3) >= 2;
    pos = p;
    if (!join) {
        /* Emit the whole phrase now: restarting inside it could only find a
         * sub-phrase that does not qualify either, at quadratic cost. */
        while (pos < end && rc == MV_OK) {
            unsigned acc;
            size_t q = chunk_end(n, s, pos, &acc);
            rc = emit_chunk(n, s + pos, o + pos, q - pos, acc, space_off);
            pos = gap_end(n, s, len, q);
            if (pos < len) {
                space_off = o[q];
            }
        }
        goto done;
    }
    {
        nbuf *w = &n->word;
        uint32_t word_off = space_off;
        unsigned word_acc = 0;
        w->len = 0;
        while (pos < end && rc == MV_OK) {
            unsigned acc;
            size_t q = chunk_end(n, s, pos, &acc);
            size_t k = single_letter(n, s, pos, q);
            size_t r = gap_end(n, s, len, q);
            rc = nbuf_reserve(n, w, q - pos);
            if (rc != MV_OK) {
                break;
            }
            if (w->len == 0) {
                word_off = space_off;
                word_acc = 0;
            }
            nbuf_append(w, s + pos, o + pos, q - pos);
            word_acc |= acc;
            if (pos + k < q || r >= end || r - q != 1 || s[q] != ' ') {
                rc = emit_chunk(n, w->b, w->o, w->len, word_acc, word_off);
                w->len = 0;
            }
            space_off = o[q < len ? q : len - 1];
            pos = r;
        }
    }
done:
    *next = end;
    return rc;
}

static int pass_b(mv_normalizer *n) {
    const char *s = n->a.b;
    const uint32_t *o = n->ao;
    const unsigned char *cls = n->cls;
    size_t len = n->a.len;
    nbuf *out = &n->out;
    bool despace_on = (n->flags & MV_NORM_DESPACE) != 0;
    bool stem_on = (n->flags & MV_NORM_STEM) != 0;
    size_t p = 0;
    int rc;
    out->len = 0;
    /* The output is at most 3 times pass A: a stacked "'d" -> " would" is the
     * widest expansion, a chunk's separating space comes from its gap, joined
     * and folded chunks are never longer than their source, and a stem never
     * outgrows its word (emit_word reserves more if one ever did). */
    rc = nbuf_reserve(n, out, 3 * len + 16);
    while (rc == MV_OK) {
        size_t gs = p;
        size_t mark;
        size_t w;
        size_t q;
        size_t wl;
        unsigned acc = 0;
        while (p < len && (cls[(unsigned char)s[p]] & K_SPACE)) {
            p++;
        }
        if (p >= len) {
            break;
        }
        /* Copy the chunk while classifying it (the sentinel spaces after the
         * text end the loop): a plain lowercase word, the common case, is
         * then done but for its stem. Anything else is rolled back and takes
         * the general path. */
        mark = out->len;
        if (mark > 0) {
            nbuf_put(out, ' ', o[gs]);
        }
        w = out->len;
        for (q = p;; q++) {
            unsigned char c = (unsigned char)s[q];
            unsigned k = cls[c];
            if (k & K_SPACE) {
                break;
            }
            out->b[w + (q - p)] = (char)c;
            out->o[w + (q - p)] = o[q];
            acc |= k;
        }
        wl = q - p;
        if (acc == K_LETTER && !(despace_on && wl == 1) && !run_is(s + p, wl, "cannot")) {
            out->len = w + wl;
            if (stem_on && wl >= 3 && wl <= STEM_MAX_WORD) {
                const char *stem = NULL;
                size_t slen = 0;
                rc = stem_lookup(n, out->b + w, wl, &stem, &slen);
                if (rc == MV_OK && slen <= wl) {
                    /* Offsets are already those of word byte k. */
                    memcpy(out->b + w, stem, slen);
                    out->len = w + slen;
                } else if (rc == MV_OK) {
                    out->len = mark;
                    rc = emit_chunk(n, s + p, o + p, wl, acc, o[gs]);
                }
            }
            p = q;
            continue;
        }
        out->len = mark;
        if (despace_on && (wl == 1 || (acc & (K_ENDP | K_HIGH))) && single_letter(n, s, p, q) > 0) {
            rc = despace(n, p, o[gs], &p);
        } else {
            rc = emit_chunk(n, s + p, o + p, wl, acc, o[gs]);
            p = q;
        }
    }
    return rc;
}

/* ------------------------------------------------------------ phrase cache */

/*
 * Rule phrases come from templates: "(ignore|disregard) (all|any) previous
 * (instructions|rules)" expands to eight phrases made of seven distinct
 * words, and the same sets are expanded into many rules. Normalizing every
 * expansion from scratch was most of the engine's start-up, so
 * mv_normalize_phrase normalizes each distinct unit once and joins cached
 * results.
 *
 * Why this is exact: pass B treats every whitespace-separated chunk on its
 * own, except letter-spaced text, where a maximal run of single-letter
 * chunks ("i g n o r e", also a lone "a") is decided and emitted as a whole
 * and never reaches past the first chunk that is not a single letter. So a
 * unit is either one ordinary chunk or one such run (with its inner
 * whitespace, which decides the grouping), and pass B of the whole text is
 * the pass B results of its units joined by one space, as long as no unit
 * comes out empty (none can; a unit that did would send the phrase down
 * the uncached path). Pass A output is the cache key: for ASCII text pass A
 * is a per-byte fold, done here without the general machinery.
 */
typedef struct pc_unit {
    uint64_t hash;
    uint32_t key; /* offsets into the pool */
    uint32_t klen;
    uint32_t val;
    uint32_t vlen;
} pc_unit;

typedef struct phrase_cache {
    char *pool; /* keys and values */
    size_t pool_len, pool_cap;
    pc_unit *units;
    size_t n_units, units_cap;
    uint32_t *slots; /* unit index + 1, 0 = empty; power-of-two size */
    size_t n_slots;
    char *text; /* pass A output of the phrase in progress */
    size_t text_cap;
    char *res; /* the joined result */
    size_t res_cap;
} phrase_cache;

static void pc_free(mv_normalizer *n) {
    phrase_cache *pc = n->phrases;
    if (pc != NULL) {
        mv_free(&n->alloc, pc->pool, pc->pool_cap);
        mv_free(&n->alloc, pc->units, pc->units_cap * sizeof(pc_unit));
        mv_free(&n->alloc, pc->slots, pc->n_slots * sizeof(uint32_t));
        mv_free(&n->alloc, pc->text, pc->text_cap);
        mv_free(&n->alloc, pc->res, pc->res_cap);
        mv_free(&n->alloc, pc, sizeof(*pc));
        n->phrases = NULL;
    }
}

/* Grow a byte buffer to hold `need` bytes. */
static int pc_reserve(mv_normalizer *n, char **buf, size_t *cap, size_t need) {
    int rc = MV_OK;
    if (need > *cap) {
        size_t want = *cap ? *cap : 256;
        char *nb;
        while (want < need) {
            want *= 2;
        }
        nb = mv_realloc(&n->alloc, *buf, *cap, want);
        if (nb == NULL) {
            rc = MV_ENOMEM;
        } else {
            *buf = nb;
            *cap = want;
        }
    }
    return rc;
}

static uint64_t pc_hash(const char *s, size_t len) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        h = (h ^ load64(s + i)) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    for (; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * 0x100000001B3u;
    }
    h ^= h >> 29;
    return h;
}

static int pc_rehash(mv_normalizer *n, phrase_cache *pc) {
    size_t ns = pc->n_slots ? pc->n_slots * 2 : 4096;
    uint32_t *nt = mv_calloc(&n->alloc, ns, sizeof(uint32_t));
    int rc = MV_OK;
    if (nt == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    for (size_t u = 0; u < pc->n_units; u++) {
        size_t k = (size_t)pc->units[u].hash & (ns - 1);
        while (nt[k] != 0) {
            k = (k + 1) & (ns - 1);
        }
        nt[k] = (uint32_t)(u + 1);
    }
    mv_free(&n->alloc, pc->slots, pc->n_slots * sizeof(uint32_t));
    pc->slots = nt;
    pc->n_slots = ns;
done:
    return rc;
}

/* Pass B of one unit alone: the unit becomes the whole pass A text. The
 * offsets are zero (phrases have no offset map). */
static int pc_pass_b(mv_normalizer *n, const char *s, size_t len) {
    nbuf *a = &n->a;
    int rc;
    a->len = 0;
    rc = nbuf_reserve(n, a, len + 8);
    if (rc == MV_OK) {
        memcpy(a->b, s, len);
        memset(a->o, 0, len * sizeof(uint32_t));
        n->ao = a->o;
        memset(a->b + len, ' ', 8); /* pass B's sentinel spaces */
        a->len = len;
        n->flags = MV_NORM_DEFAULT;
        n->phrase_mode = true;
        rc = pass_b(n);
        n->phrase_mode = false;
    }
    return rc;
}

/* The normalized form of one unit: from the cache, or computed (and cached
 * while the cache has room) into *val and *vlen; the pointer stays valid until
 * the next call. */
static int pc_unit_get(mv_normalizer *n, phrase_cache *pc, const char *s, size_t len,
                       const char **val, size_t *vlen) {
    uint64_t h = pc_hash(s, len);
    size_t k = 0;
    pc_unit *u;
    int rc = MV_OK;
    if (pc->n_slots > 0) {
        k = (size_t)h & (pc->n_slots - 1);
        while (pc->slots[k] != 0) {
            const pc_unit *e = &pc->units[pc->slots[k] - 1];
            if (e->hash == h && e->klen == len && memcmp(pc->pool + e->key, s, len) == 0) {
                *val = pc->pool + e->val;
                *vlen = e->vlen;
                goto done;
            }
            k = (k + 1) & (pc->n_slots - 1);
        }
    }
    rc = pc_pass_b(n, s, len);
    if (rc != MV_OK) {
        goto done;
    }
    *val = n->out.b;
    *vlen = n->out.len;
    if (pc->n_units >= PC_MAX_UNITS || pc->pool_len + len + n->out.len > PC_MAX_POOL) {
        goto done; /* full: compute without caching */
    }
    if ((pc->n_units + 1) * 2 > pc->n_slots) {
        rc = pc_rehash(n, pc);
        if (rc != MV_OK) {
            goto done;
        }
        k = (size_t)h & (pc->n_slots - 1);
        while (pc->slots[k] != 0) {
            k = (k + 1) & (pc->n_slots - 1);
        }
    }
    if (pc->n_units == pc->units_cap) {
        size_t cap = pc->units_cap ? pc->units_cap * 2 : 1024;
        pc_unit *nu = mv_realloc(&n->alloc, pc->units, pc->units_cap * sizeof(pc_unit),
                                 cap * sizeof(pc_unit));
        if (nu == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        pc->units = nu;
        pc->units_cap = cap;
    }
    rc = pc_reserve(n, &pc->pool, &pc->pool_cap, pc->pool_len + len + n->out.len);
    if (rc != MV_OK) {
        goto done;
    }
    u = &pc->units[pc->n_units];
    u->hash = h;
    u->key = (uint32_t)pc->pool_len;
    u->klen = (uint32_t)len;
    memcpy(pc->pool + pc->pool_len, s, len);
    pc->pool_len += len;
    u->val = (uint32_t)pc->pool_len;
    u->vlen = (uint32_t)n->out.len;
    memcpy(pc->pool + pc->pool_len, n->out.b, n->out.len);
    pc->pool_len += n->out.len;
    pc->slots[k] = (uint32_t)(++pc->n_units);
    *val = pc->pool + u->val;
    *vlen = u->vlen;
done:
    return rc;
}

/* Is s[p..q) a single letter (optionally with group-ending punctuation), the
 * chunk that starts or continues a letter-spaced run? single_letter, with
 * the ASCII case inline. */
static inline bool pc_single(const mv_normalizer *n, const char *s, size_t p, size_t q) {
    bool r;
    unsigned char c = (unsigned char)s[p];
    if (c < 0x80) {
        r = (n->cls[c] & K_LETTER) != 0;
        for (size_t i = p + 1; i < q && r; i++) {
            r = (n->cls[(unsigned char)s[i]] & K_ENDP) != 0;
        }
    } else {
        r = single_letter(n, s, p, q) > 0;
    }
    return r;
}

/* Normalize a phrase through the unit cache into pc->res. *ok is false when
 * a unit came out empty: the caller then takes the uncached path. */
static int pc_normalize(mv_normalizer *n, phrase_cache *pc, const char *raw, size_t len,
                        size_t *out_len, bool *ok) {
    const unsigned char *cls = n->cls;
    const char *t;
    size_t tl;
    size_t rl = 0;
    size_t i = 0;
    size_t j = 0;
    int rc = MV_OK;
    *ok = true;
    rc = pc_reserve(n, &pc->text, &pc->text_cap, len);
    if (rc != MV_OK) {
        goto done;
    }
    for (; j < len && (unsigned char)raw[j] < 0x80; j++) {
        pc->text[j] = (char)n->fold_ascii[(unsigned char)raw[j]];
    }
    tl = len;
    if (j < len) {
        n->flags = MV_NORM_DEFAULT;
        rc = pass_a(n, (const unsigned char *)raw, len);
        if (rc == MV_OK) {
            rc = pc_reserve(n, &pc->text, &pc->text_cap, n->a.len);
        }
        if (rc != MV_OK) {
            goto done;
        }
        memcpy(pc->text, n->a.b, n->a.len);
        tl = n->a.len;
    }
    t = pc->text;
    while (rc == MV_OK) {
        size_t q;
        size_t e;
        const char *v = NULL;
        size_t vl = 0;
        while (i < tl && (cls[(unsigned char)t[i]] & K_SPACE)) {
            i++;
        }
        if (i >= tl) {
            break;
        }
        for (q = i; q < tl && !(cls[(unsigned char)t[q]] & K_SPACE); q++) {
        }
        e = q;
        if (pc_single(n, t, i, q)) {
            for (;;) {
                size_t g = e;
                size_t q2;
                while (g < tl && (cls[(unsigned char)t[g]] & K_SPACE)) {
                    g++;
                }
                if (g >= tl) {
                    break;
                }
                for (q2 = g; q2 < tl && !(cls[(unsigned char)t[q2]] & K_SPACE); q2++) {
                }
                if (!pc_single(n, t, g, q2)) {
                    break;
                }
                e = q2;
            }
        }
        rc = pc_unit_get(n, pc, t + i, e - i, &v, &vl);
        if (rc != MV_OK) {
            break;
        }
        if (vl == 0) {
            *ok = false;
            break;
        }
        rc = pc_reserve(n, &pc->res, &pc->res_cap, rl + 1 + vl);
        if (rc != MV_OK) {
            break;
        }
        if (rl > 0) {
            pc->res[rl++] = ' ';
        }
        memcpy(pc->res + rl, v, vl);
        rl += vl;
        i = e;
    }
done:
    *out_len = rl;
    return rc;
}

/* ------------------------------------------------------------ result memo */

/*
 * Tool text repeats: the same parameter descriptions across a server's
 * tools, the same server configured in several clients, deployment
 * variants, forks and gateways (59% of the string bytes of the npm
 * snapshot, 51% of the docker registry, 69% of the bench registry are
 * exact repeats of an earlier string). mv_normalize is a pure function of
 * (text, flags), so each normalizer remembers its recent results by the
 * raw bytes and a repeat costs a hash, a compare and a copy instead of
 * both passes. The raw text is kept in the pool and compared in full on a
 * hit: a hash collision can only cost a miss. The pool is bounded; when it
 * is full it is emptied and refilled, and an allocation failure only turns
 * the memo off. None of this can change a result.
 */
#define MEMO_MAX_TEXT ((size_t)64 << 10) /* longer inputs are not remembered */
#define MEMO_MAX_POOL ((size_t)8 << 20)
#define MEMO_MAX_ENTRIES ((size_t)1 << 16)

typedef struct memo_ent {
    uint64_t hash;
    uint32_t raw;  /* pool offset of the raw bytes */
    uint32_t len;  /* raw length */
    uint32_t text; /* pool offset of the result text, then its offsets */
    uint32_t olen;
    unsigned flags;
} memo_ent;

typedef struct memo {
    char *pool;
    size_t pool_len, pool_cap;
    memo_ent *ents;
    size_t n, ents_cap;
    uint32_t *slots; /* entry index + 1, 0 = empty; power-of-two size */
    size_t n_slots;
    bool off; /* an allocation failed: stop remembering */
} memo;

static void memo_free(mv_normalizer *n) {
    memo *m = n->memo;
    if (m != NULL) {
        mv_free(&n->alloc, m->pool, m->pool_cap);
        mv_free(&n->alloc, m->ents, m->ents_cap * sizeof(memo_ent));
        mv_free(&n->alloc, m->slots, m->n_slots * sizeof(uint32_t));
        mv_free(&n->alloc, m, sizeof(*m));
        n->memo = NULL;
    }
}

static uint64_t memo_hash(const char *s, size_t len, unsigned flags) {
    return mv_hash_bytes(0x9E3779B97F4A7C15u ^ ((uint64_t)len << 8) ^ flags, s, len);
}

static const memo_ent *memo_find(const memo *m, const char *raw, size_t len, unsigned flags,
                                 uint64_t h) {
    const memo_ent *found = NULL;
    if (m != NULL && m->n_slots > 0) {
        size_t k = (size_t)h & (m->n_slots - 1);
        while (m->slots[k] != 0 && found == NULL) {
            const memo_ent *e = &m->ents[m->slots[k] - 1];
            if (e->hash == h && e->len == len && e->flags == flags &&
                memcmp(m->pool + e->raw, raw, len) == 0) {
                found = e;
            }
            k = (k + 1) & (m->n_slots - 1);
        }
    }
    return found;
}

/* Grow an array to hold `need` elements of `size` bytes; false on failure. */
static bool memo_grow(mv_normalizer *n, void **arr, size_t *cap, size_t need, size_t size,
                      size_t first) {
    bool ok = true;
    if (need > *cap) {
        size_t want = *cap ? *cap : first;
        void *na;
        while (want < need) {
            want *= 2;
        }
        na = mv_realloc(&n->alloc, *arr, *cap * size, want * size);
        if (na == NULL) {
            ok = false;
        } else {
            *arr = na;
            *cap = want;
        }
    }
    return ok;
}

static void memo_clear(memo *m) {
    m->pool_len = 0;
    m->n = 0;
    if (m->slots != NULL) {
        memset(m->slots, 0, m->n_slots * sizeof(uint32_t));
    }
}

/* Remember the result in n->out for raw[0, len). Never fails. */
static void memo_put(mv_normalizer *n, const char *raw, size_t len, unsigned flags, uint64_t h) {
    memo *m = n->memo;
    size_t olen = n->out.len;
    size_t need = len + olen + olen * sizeof(uint32_t);
    memo_ent *e;
    size_t k;
    if (m == NULL) {
        m = n->memo = mv_calloc(&n->alloc, 1, sizeof(memo));
        if (m == NULL) {
            return; /* tried again on the next call: the memo is optional */
        }
    }
    if (m->off || need > MEMO_MAX_POOL / 4) {
        return;
    }
    if (m->pool_len + need > MEMO_MAX_POOL || m->n >= MEMO_MAX_ENTRIES) {
        memo_clear(m);
    }
    if (!memo_grow(n, (void **)&m->pool, &m->pool_cap, m->pool_len + need, 1, (size_t)256 << 10) ||
        !memo_grow(n, (void **)&m->ents, &m->ents_cap, m->n + 1, sizeof(memo_ent), 4096)) {
        m->off = true;
        return;
    }
    if ((m->n + 1) * 2 > m->n_slots) {
        size_t ns = m->n_slots ? m->n_slots * 2 : 8192;
        uint32_t *nt = mv_calloc(&n->alloc, ns, sizeof(uint32_t));
        if (nt == NULL) {
            m->off = true;
            return;
        }
        for (size_t u = 0; u < m->n; u++) {
            k = (size_t)m->ents[u].hash & (ns - 1);
            while (nt[k] != 0) {
                k = (k + 1) & (ns - 1);
            }
            nt[k] = (uint32_t)(u + 1);
        }
        mv_free(&n->alloc, m->slots, m->n_slots * sizeof(uint32_t));
        m->slots = nt;
        m->n_slots = ns;
    }
    e = &m->ents[m->n];
    e->hash = h;
    e->len = (uint32_t)len;
    e->flags = flags;
    e->olen = (uint32_t)olen;
    e->raw = (uint32_t)m->pool_len;
    memcpy(m->pool + m->pool_len, raw, len);
    m->pool_len += len;
    e->text = (uint32_t)m->pool_len;
    memcpy(m->pool + m->pool_len, n->out.b, olen);
    m->pool_len += olen;
    memcpy(m->pool + m->pool_len, n->out.o, olen * sizeof(uint32_t));
    m->pool_len += olen * sizeof(uint32_t);
    k = (size_t)h & (m->n_slots - 1);
    while (m->slots[k] != 0) {
        k = (k + 1) & (m->n_slots - 1);
    }
    m->slots[k] = (uint32_t)(++m->n);
}

/* --------------------------------------------------------------------- API */

mv_normalizer *mv_normalizer_new(const mv_allocator *a) {
    mv_normalizer *n = NULL;
    mv_normalizer *result = NULL;
    if (a == NULL) {
        a = mv_allocator_default();
    }
    n = mv_alloc(a, sizeof(*n));
    if (n == NULL) {
        goto done;
    }
    memset(n, 0, sizeof(*n));
    n->alloc = *a;
    n->precomp = mv_precomp_phrases_usable();
    init_tables(n);
    /* Start the scratch buffers at a size that fits typical tool text, so
     * steady-state scanning never allocates. */
    if (nbuf_grow(n, &n->a, 4096) != MV_OK || nbuf_grow(n, &n->out, 8192) != MV_OK ||
        nbuf_grow(n, &n->fold, 256) != MV_OK || nbuf_grow(n, &n->word, 256) != MV_OK) {
        goto done;
    }
    /* libstemmer allocates with malloc; it cannot use our allocator. */
    n->stemmer = stemmer_new();
    if (n->stemmer == NULL) {
        goto done;
    }
    result = n;
    n = NULL;
done:
    mv_normalizer_free(n);
    return result;
}

void mv_normalizer_free(mv_normalizer *n) {
    if (n != NULL) {
        mv_allocator a = n->alloc;
        if (n->stemmer != NULL) {
            stemmer_free(n->stemmer);
        }
        nbuf_release(n, &n->a);
        nbuf_release(n, &n->out);
        nbuf_release(n, &n->fold);
        nbuf_release(n, &n->word);
        if (n->iota != NULL) {
            mv_free(&a, n->iota, n->iota_cap * sizeof(uint32_t));
        }
        if (n->cache != NULL) {
            mv_free(&a, n->cache, n->cache_sets * sizeof(stem_set));
        }
        pc_free(n);
        memo_free(n);
        mv_free(&a, n, sizeof(*n));
    }
}

/* Both passes; the result is left in n->out. */
static int run(mv_normalizer *n, const char *raw, size_t len, unsigned flags) {
    int rc = MV_OK;
    n->flags = flags;
    rc = pass_a(n, (const unsigned char *)raw, len);
    if (rc == MV_OK) {
        rc = pass_b(n);
    }
    return rc;
}

int mv_normalize(mv_normalizer *n, mv_arena *arena, const char *raw, size_t len, unsigned flags,
                 mv_norm_text *out) {
    char *text = NULL;
    uint32_t *offs = NULL;
    size_t olen;
    uint64_t h = 0;
    const memo_ent *hit = NULL;
    const char *src_text;
    const void *src_offs;
    int rc = MV_OK;
    if (n == NULL || arena == NULL || out == NULL || (raw == NULL && len > 0) ||
        len >= NORM_MAX_INPUT) {
        rc = MV_EINVAL;
        goto done;
    }
    if (len > 0 && len <= MEMO_MAX_TEXT) {
        h = memo_hash(raw, len, flags);
        hit = memo_find(n->memo, raw, len, flags, h);
    }
    if (hit != NULL) {
        src_text = n->memo->pool + hit->text;
        src_offs = n->memo->pool + hit->text + hit->olen;
        olen = hit->olen;
    } else {
        rc = run(n, len > 0 ? raw : "", len, flags);
        if (rc != MV_OK) {
            goto done;
        }
        if (len > 0 && len <= MEMO_MAX_TEXT) {
            memo_put(n, raw, len, flags, h);
        }
        src_text = n->out.b;
        src_offs = n->out.o;
        olen = n->out.len;
    }
    text = mv_arena_alloc(arena, olen + 1);
    offs = text ? mv_arena_alloc(arena, (olen + 1) * sizeof(uint32_t)) : NULL;
    if (offs == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    memcpy(text, src_text, olen);
    text[olen] = '\0';
    memcpy(offs, src_offs, olen * sizeof(uint32_t));
    offs[olen] = (uint32_t)len;
    out->text = text;
    out->len = olen;
    out->raw_offset = offs;
done:
    return rc;
}

int mv_normalize_phrase(mv_normalizer *n, mv_arena *arena, const char *phrase, size_t len,
                        mv_str *out) {
    char *text = NULL;
    const char *res;
    size_t rlen = 0;
    bool cached = true;
    int rc = MV_OK;
    if (n == NULL || arena == NULL || out == NULL || (phrase == NULL && len > 0) ||
        len >= NORM_MAX_INPUT) {
        rc = MV_EINVAL;
        goto done;
    }
    /* Every phrase of the builtin rules was normalized at build time
     * (precomp.h): the recorded output, in read-only memory. */
    res = n->precomp ? mv_precomp_phrase(len > 0 ? phrase : "", len, &rlen) : NULL;
    if (res != NULL) {
        out->ptr = res;
        out->len = rlen;
        goto done;
    }
    if (n->phrases == NULL) {
        n->phrases = mv_calloc(&n->alloc, 1, sizeof(phrase_cache));
        if (n->phrases == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
    }
    rc = pc_normalize(n, n->phrases, len > 0 ? phrase : "", len, &rlen, &cached);
    if (rc != MV_OK) {
        goto done;
    }
    res = n->phrases->res;
    if (!cached) {
        rc = run(n, len > 0 ? phrase : "", len, MV_NORM_DEFAULT);
        if (rc != MV_OK) {
            goto done;
        }
        res = n->out.b;
        rlen = n->out.len;
    }
    text = mv_arena_memdup(arena, rlen > 0 ? res : "", rlen);
    if (text == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    out->ptr = text;
    out->len = rlen;
    if (mv_precomp_recording()) {
        mv_precomp_note_phrase(len > 0 ? phrase : "", len, text, rlen);
    }
done:
    return rc;
}
