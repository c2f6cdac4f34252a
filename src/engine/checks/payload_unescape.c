/*
 * Escape clusters, percent escapes, HTML character references, character
 * code lists, glued quoted pieces, ROT13 and reversed lines for the
 * payload.decoded check (see payload_unescape.h).
 *
 * None of these decides anything: a candidate only says "this text may
 * hide a command", and the check decodes it and asks the command
 * classifier. So the candidate rules are tuned for cost (cheap to reject,
 * never quadratic), not for precision; honest text that happens to form a
 * candidate (a URL with %20, a list of port numbers, an HTML &amp;)
 * decodes to text without a command and stays silent.
 */
#include "payload_unescape.h"

#include <string.h>

#include "mcpvet/ac.h"

/* ------------------------------------------------------------- helpers */

static int hexval(unsigned char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

static bool is_alpha(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_alnum(unsigned char c) {
    return is_digit(c) || is_alpha(c);
}

static bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Bounded output buffer. */
typedef struct obuf {
    uint8_t *p;
    size_t n, cap;
    bool full;
} obuf;

static void put_byte(obuf *o, uint8_t b) {
    if (o->n == o->cap) {
        o->full = true;
        return;
    }
    o->p[o->n++] = b;
}

/* A code point as UTF-8 (invalid ones as '?'). */
static void put_cp(obuf *o, uint32_t cp) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = '?';
    if (cp < 0x80) {
        put_byte(o, (uint8_t)cp);
    } else if (cp < 0x800) {
        put_byte(o, (uint8_t)(0xC0 | cp >> 6));
        put_byte(o, (uint8_t)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        put_byte(o, (uint8_t)(0xE0 | cp >> 12));
        put_byte(o, (uint8_t)(0x80 | ((cp >> 6) & 0x3F)));
        put_byte(o, (uint8_t)(0x80 | (cp & 0x3F)));
    } else {
        put_byte(o, (uint8_t)(0xF0 | cp >> 18));
        put_byte(o, (uint8_t)(0x80 | ((cp >> 12) & 0x3F)));
        put_byte(o, (uint8_t)(0x80 | ((cp >> 6) & 0x3F)));
        put_byte(o, (uint8_t)(0x80 | (cp & 0x3F)));
    }
}

/* Value of `n` hex digits at s[i]; -1 when one is missing. */
static long hex_digits(const unsigned char *s, size_t len, size_t i, size_t n) {
    long v = 0;
    if (i + n > len)
        return -1;
    for (size_t k = 0; k < n; k++) {
        int h = hexval(s[i + k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* ---------------------------------------------------- string-literal escapes */

typedef enum esc_type { ESC_NONE = 0, ESC_X, ESC_U, ESC_OCT, ESC_SIMPLE } esc_type;

typedef struct esc {
    esc_type type;
    size_t len;   /* bytes, backslashes included */
    uint32_t val; /* a byte (x, octal, simple) or a code point (u) */
} esc;

/* The escape starting at the backslash at s[i] (one or two backslashes, so
 * a doubly escaped "\\x41" counts). */
static esc esc_at(const unsigned char *s, size_t len, size_t i) {
    esc e = {ESC_NONE, 0, 0};
    size_t p = i;
    while (p < len && p - i < 2 && s[p] == '\\')
        p++;
    if (p == i || p >= len)
        return e;
    unsigned char c = s[p];
    long v;
    if (c == 'x' && (v = hex_digits(s, len, p + 1, 2)) >= 0) {
        e = (esc){ESC_X, p + 3 - i, (uint32_t)v};
    } else if (c == 'u' && (v = hex_digits(s, len, p + 1, 4)) >= 0) {
        e = (esc){ESC_U, p + 5 - i, (uint32_t)v};
    } else if (c == 'U' && (v = hex_digits(s, len, p + 1, 8)) >= 0) {
        e = (esc){ESC_U, p + 9 - i, (uint32_t)v};
    } else if (c == 'u' && p + 2 < len && s[p + 1] == '{') {
        size_t k = p + 2;
        v = 0;
        while (k < len && k - p - 2 < 6 && hexval(s[k]) >= 0)
            v = v * 16 + hexval(s[k++]);
        if (k > p + 2 && k < len && s[k] == '}')
            e = (esc){ESC_U, k + 1 - i, (uint32_t)v};
    } else if (c >= '0' && c <= '7') {
        /* Two or three octal digits (a lone \0 is NUL, not a character). */
        size_t k = p;
        v = 0;
        while (k < len && k - p < 3 && s[k] >= '0' && s[k] <= '7')
            v = v * 8 + (s[k++] - '0');
        if (k - p >= 2 && v <= 0xFF)
            e = (esc){ESC_OCT, k - i, (uint32_t)v};
    } else if (c == 'n' || c == 't' || c == 'r' || c == '\'' || c == '"' || c == '\\' || c == ' ') {
        uint32_t val = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        e = (esc){ESC_SIMPLE, p + 1 - i, val};
    }
    return e;
}

#define ESC_GAP                                                                                    \
    24 /* plain bytes allowed between two escapes of a cluster ("\\x63url -fsSL https\\x3a") */

/* Extent of the escape cluster starting at the backslash at i: escapes
 * with at most ESC_GAP plain bytes (no newline, no backslash) between
 * them. Counts the code escapes and whether it is a pure run of \xNN. */
static size_t esc_cluster(const unsigned char *s, size_t len, size_t i, size_t *codes,
                          bool *pure_x) {
    size_t k = i, end = i;
    *codes = 0;
    *pure_x = true;
    for (;;) {
        esc e = esc_at(s, len, k);
        if (e.type == ESC_NONE)
            break;
        if (k != end)
            *pure_x = false; /* a gap */
        if (e.type != ESC_X)
            *pure_x = false;
        if (e.type != ESC_SIMPLE)
            (*codes)++;
        k += e.len;
        end = k;
        size_t g = k;
        while (g < len && g - k < ESC_GAP && s[g] != '\\' && s[g] != '\n')
            g++;
        if (g >= len || s[g] != '\\')
            break;
        k = g;
    }
    return end;
}

/* Bytes that end the string an escape cluster belongs to. */
static bool esc_edge(unsigned char c) {
    return c == '"' || c == '\'' || c == '`' || c == '\n' || c == '\r';
}

static size_t decode_esc(const unsigned char *s, size_t from, size_t to, obuf *o) {
    size_t i = from;
    while (i < to && !o->full) {
        if (s[i] != '\\') {
            put_byte(o, s[i++]);
            continue;
        }
        esc e = esc_at(s, to, i);
        if (e.type == ESC_NONE) {
            put_byte(o, s[i++]);
            continue;
        }
        i += e.len;
        if (e.type == ESC_U) {
            uint32_t cp = e.val;
            /* A UTF-16 surrogate pair written as two \u escapes. */
            if (cp >= 0xD800 && cp <= 0xDBFF && i < to && s[i] == '\\') {
                esc lo = esc_at(s, to, i);
                if (lo.type == ESC_U && lo.val >= 0xDC00 && lo.val <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo.val - 0xDC00);
                    i += lo.len;
                }
            }
            put_cp(o, cp);
        } else {
            put_byte(o, (uint8_t)e.val); /* bytes: \xE2\x80\x8B is UTF-8 as written */
        }
    }
    return o->n;
}

/* ------------------------------------------------------- percent escapes */

/* %XX or %uXXXX at s[i]; returns its length (0 when none) and the value. */
static size_t pct_at(const unsigned char *s, size_t len, size_t i, uint32_t *val, bool *wide) {
    long v;
    *wide = false;
    if (s[i] != '%')
        return 0;
    if ((v = hex_digits(s, len, i + 1, 2)) >= 0) {
        *val = (uint32_t)v;
        return 3;
    }
    if (i + 1 < len && (s[i + 1] == 'u' || s[i + 1] == 'U') &&
        (v = hex_digits(s, len, i + 2, 4)) >= 0) {
        *val = (uint32_t)v;
        *wide = true;
        return 6;
    }
    return 0;
}

/* Bytes that end a percent-encoded token. */
static bool pct_stop(unsigned char c) {
    return is_space(c) || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '(' ||
           c == ')' || c == 0;
}

static size_t decode_pct(const unsigned char *s, size_t from, size_t to, bool plus_space, obuf *o) {
    size_t i = from;
    while (i < to && !o->full) {
        uint32_t v;
        bool wide;
        size_t n = pct_at(s, to, i, &v, &wide);
        if (n == 0) {
            put_byte(o, (plus_space && s[i] == '+') ? ' ' : s[i]);
            i++;
        } else {
            if (wide)
                put_cp(o, v);
            else
                put_byte(o, (uint8_t)v);
            i += n;
        }
    }
    return o->n;
}

/* --------------------------------------------- HTML character references */

typedef struct named_ref {
    const char *name;
    char ch;
} named_ref;

/* The references an obfuscated command needs (punctuation mostly). */
static const named_ref k_named[] = {
    {"amp", '&'},      {"lt", '<'},    {"gt", '>'},     {"quot", '"'},   {"apos", '\''},
    {"sol", '/'},      {"bsol", '\\'}, {"vert", '|'},   {"verbar", '|'}, {"colon", ':'},
    {"period", '.'},   {"tilde", '~'}, {"dollar", '$'}, {"lpar", '('},   {"rpar", ')'},
    {"num", '#'},      {"excl", '!'},  {"commat", '@'}, {"equals", '='}, {"plus", '+'},
    {"hyphen", '-'},   {"dash", '-'},  {"lowbar", '_'}, {"semi", ';'},   {"comma", ','},
    {"quest", '?'},    {"nbsp", ' '},  {"ast", '*'},    {"lsqb", '['},   {"rsqb", ']'},
    {"lcub", '{'},     {"rcub", '}'},  {"percnt", '%'}, {"grave", '`'},  {"Hat", '^'},
    {"NewLine", '\n'}, {"Tab", '\t'},
};

/* The reference at '&' s[i]: its length (0 when none), value, numeric or not. */
static size_t ent_at(const unsigned char *s, size_t len, size_t i, uint32_t *val, bool *numeric) {
    size_t k = i + 1;
    *numeric = false;
    if (k < len && s[k] == '#') {
        k++;
        bool hexnum = k < len && (s[k] == 'x' || s[k] == 'X');
        if (hexnum)
            k++;
        size_t d = k;
        uint32_t v = 0;
        while (k < len && k - d < 7 && (hexnum ? hexval(s[k]) >= 0 : is_digit(s[k]))) {
            v = v * (hexnum ? 16u : 10u) + (uint32_t)(hexnum ? hexval(s[k]) : s[k] - '0');
            k++;
        }
        if (k == d)
            return 0;
        if (k < len && s[k] == ';')
            k++;
        *val = v;
        *numeric = true;
        return k - i;
    }
    size_t d = k;
    while (k < len && k - d < 8 && is_alpha(s[k]))
        k++;
    if (k == d || k >= len || s[k] != ';')
        return 0;
    for (size_t r = 0; r < sizeof(k_named) / sizeof(k_named[0]); r++) {
        size_t n = strlen(k_named[r].name);
        if (n == k - d && memcmp(k_named[r].name, s + d, n) == 0) {
            *val = (unsigned char)k_named[r].ch;
            return k + 1 - i;
        }
    }
    return 0;
}

#define ENT_GAP 3

static size_t ent_cluster(const unsigned char *s, size_t len, size_t i, size_t *numeric_refs) {
    size_t k = i, end = i;
    *numeric_refs = 0;
    for (;;) {
        uint32_t v;
        bool num;
        size_t n = ent_at(s, len, k, &v, &num);
        if (n == 0)
            break;
        *numeric_refs += num;
        k += n;
        end = k;
        size_t g = k;
        while (g < len && g - k < ENT_GAP && s[g] != '&' && s[g] != '\n')
            g++;
        if (g >= len || s[g] != '&')
            break;
        k = g;
    }
    return end;
}

static size_t decode_ent(const unsigned char *s, size_t from, size_t to, obuf *o) {
    size_t i = from;
    while (i < to && !o->full) {
        uint32_t v;
        bool num;
        size_t n = s[i] == '&' ? ent_at(s, to, i, &v, &num) : 0;
        if (n == 0) {
            put_byte(o, s[i++]);
        } else {
            put_cp(o, v);
            i += n;
        }
    }
    return o->n;
}

/* ------------------------------------------------------ character codes */

/* Words allowed between codes: String.fromCharCode(..), chr(..)+chr(..),
 * Char(..) & Char(..), ChrW, unichr, bytes([..]). */
static bool code_word(const unsigned char *s, size_t a, size_t b) {
    static const char *const words[] = {"chr",   "char",  "chrw",   "string", "fromcharcode",
                                        "nchar", "chr$",  "unichr", "bytes",  "bytearray",
                                        "byte",  "array", "of",     "new"};
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
        size_t n = strlen(words[k]);
        if (n != b - a)
            continue;
        size_t m = 0;
        while (m < n && (s[a + m] | 0x20) == (unsigned char)words[k][m])
            m++;
        if (m == n)
            return true;
    }
    return false;
}

/* Separator between two codes starting at s[i]: punctuation, whitespace and
 * the allowed words, at most 24 bytes, ending where the next code's first
 * digit is. Returns the position of that digit, or 0 when there is none. */
static size_t code_sep(const unsigned char *s, size_t len, size_t i) {
    size_t k = i;
    while (k < len && k - i <= 24) {
        unsigned char c = s[k];
        if (is_digit(c))
            return k > i ? k : 0;
        if (is_alpha(c)) {
            size_t w = k;
            while (k < len && (is_alnum(s[k]) || s[k] == '$'))
                k++;
            if (!code_word(s, w, k))
                return 0;
            continue;
        }
        if (c == '"' || c == '\'' || c == '\\' || c == '%' || c == '&' || c == '#')
            return 0;
        k++;
    }
    return 0;
}

/* One code at s[i]: decimal or 0x-prefixed hex, ending at a non-alphanumeric
 * byte. Returns its length (0 when none). */
static size_t code_at(const unsigned char *s, size_t len, size_t i, uint32_t *val, bool *hexnum) {
    size_t k = i;
    uint32_t v = 0;
    *hexnum = false;
    if (k + 2 < len && s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X') &&
        hexval(s[k + 2]) >= 0) {
        k += 2;
        *hexnum = true;
        while (k < len && k - i < 8 && hexval(s[k]) >= 0)
            v = v * 16 + (uint32_t)hexval(s[k++]);
    } else {
        while (k < len && k - i < 7 && is_digit(s[k]))
            v = v * 10 + (uint32_t)(s[k++] - '0');
    }
    if (k == i || (k < len && (is_alnum(s[k]) || s[k] == '.' || s[k] == '_')))
        return 0;
    *val = v;
    return k - i;
}

/* A list of codes starting at the digit s[i]. Returns its end (0 when it
 * is not a list) and the number of codes. */
static size_t code_list(const unsigned char *s, size_t len, size_t i, size_t *count) {
    size_t k = i, end = i;
    *count = 0;
    for (;;) {
        uint32_t v;
        bool h;
        size_t n = code_at(s, len, k, &v, &h);
        if (n == 0 || v < 9 || v > 0x10FFFF)
            break;
        (*count)++;
        k += n;
        end = k;
        size_t next = code_sep(s, len, k);
        if (next == 0)
            break;
        k = next;
    }
    return end;
}

/* Hex pairs separated by one repeated byte ("63 75 72 6c", "63:75:72").
 * Returns the end and the number of pairs. */
static size_t pair_list(const unsigned char *s, size_t len, size_t i, size_t *count) {
    size_t k = i;
    unsigned char sep = 0;
    *count = 0;
    while (k + 2 <= len && hexval(s[k]) >= 0 && hexval(s[k + 1]) >= 0 &&
           (k + 2 == len || !is_alnum(s[k + 2]))) {
        (*count)++;
        k += 2;
        if (k >= len)
            break;
        unsigned char c = s[k];
        if (sep == 0 && (c == ' ' || c == ':' || c == ',' || c == '-'))
            sep = c;
        if (c != sep || k + 1 >= len || hexval(s[k + 1]) < 0)
            break;
        k++;
    }
    return k;
}

/* Binary octets separated by one repeated byte ("01100011 01110101",
 * "01100011-01110101"): eight bits each, nothing else in the word. Returns
 * the end and the number of octets. */
static bool octet_at(const unsigned char *s, size_t len, size_t k) {
    if (k + 8 > len || (k + 8 < len && is_alnum(s[k + 8])))
        return false;
    for (size_t j = k; j < k + 8; j++)
        if (s[j] != '0' && s[j] != '1')
            return false;
    return true;
}

static size_t bit_list(const unsigned char *s, size_t len, size_t i, size_t *count) {
    size_t k = i, end = i;
    unsigned char sep = 0;
    *count = 0;
    while (octet_at(s, len, k)) {
        (*count)++;
        k += 8;
        end = k;
        if (k >= len)
            break;
        unsigned char c = s[k];
        if (sep == 0 && (c == ' ' || c == ',' || c == '-' || c == ':'))
            sep = c;
        if (c != sep)
            break;
        k++;
    }
    return end;
}

static size_t decode_codes(const unsigned char *s, size_t from, size_t to, bool hex_pairs,
                           bool bits, bool octal, obuf *o) {
    size_t i = from;
    while (bits && i < to && !o->full) {
        if (octet_at(s, to, i)) {
            uint8_t v = 0;
            for (size_t j = i; j < i + 8; j++)
                v = (uint8_t)((v << 1) | (s[j] - '0'));
            put_byte(o, v);
            i += 8;
        } else {
            i++;
        }
    }
    /* Round 11: codes of 0x80-0xFF are bytes of UTF-8 (bytes([...]))
     * unless the list has a code above 0xFF or they do not form UTF-8:
     * then every code is a code point ("ö" is 246 in fromCharCode). */
    bool points = false;
    for (size_t k = from, prev = 0; !bits && !hex_pairs && !octal && k < to && !points;) {
        uint32_t v;
        bool h;
        size_t n =
            (is_digit(s[k]) && (k == from || !is_alnum(s[k - 1]))) ? code_at(s, to, k, &v, &h) : 0;
        if (n == 0) {
            k++;
            continue;
        }
        bool cont = v >= 0x80 && v <= 0xBF, lead = v >= 0xC0 && v <= 0xFF;
        bool want_cont = prev >= 0xC0 || (prev >= 0x80 && prev <= 0xBF);
        points = v > 0xFF || (cont && !want_cont) || (prev >= 0xC0 && !cont) || (lead && v > 0xF4);
        prev = v <= 0xFF ? v : 0;
        k += n;
    }
    while (!bits && i < to && !o->full) {
        if (hex_pairs) {
            if (hexval(s[i]) >= 0 && i + 1 < to && hexval(s[i + 1]) >= 0) {
                put_byte(o, (uint8_t)(hexval(s[i]) * 16 + hexval(s[i + 1])));
                i += 2;
            } else {
                i++;
            }
            continue;
        }
        uint32_t v;
        bool h;
        size_t n =
            (is_digit(s[i]) && (i == from || !is_alnum(s[i - 1]))) ? code_at(s, to, i, &v, &h) : 0;
        if (n == 0) {
            i++;
            continue;
        }
        if (octal) { /* the digits again, in base 8 */
            v = 0;
            for (size_t k = i; k < i + n; k++)
                v = v * 8 + (uint32_t)(s[k] - '0');
        }
        /* Codes above 0xFF are code points; below they are bytes, so a
         * list of UTF-8 bytes (bytes([...])) decodes as written. */
        if (v <= 0xFF && !(points && v >= 0x80))
            put_byte(o, (uint8_t)v);
        else
            put_cp(o, v);
        i += n;
    }
    return o->n;
}

/* ---------------------------------------------------------- glued pieces */

#define JOIN_PIECE_MAX 4096u

/* After the closing quote at s[i], the glue to the next piece: spaces, an
 * operator (+ . .. || , or nothing), spaces, the same quote. Returns the
 * position of the next opening quote, or 0. */
static size_t glue_after(const unsigned char *s, size_t len, size_t i, bool full) {
    unsigned char q = s[i];
    size_t k = i + 1;
    /* Glue starts with a space or an operator's first byte (the next
     * quote right away is no glue: k must move). Anything else ("\":",
     * "\"}") is not glue; most quotes end here. */
    if (!full &&
        (k >= len || !(is_space(s[k]) || s[k] == '+' || s[k] == ',' || s[k] == '.' || s[k] == '|')))
        return 0;
    size_t lim = k + 12 < len ? k + 12 : len;
    while (k < lim && is_space(s[k]))
        k++;
    if (k < lim && (s[k] == '+' || s[k] == ',')) {
        k++;
    } else if (k + 1 < lim &&
               ((s[k] == '.' && s[k + 1] == '.') || (s[k] == '|' && s[k + 1] == '|'))) {
        k += 2;
    } else if (k < lim && s[k] == '.') {
        k++;
    }
    while (k < lim && is_space(s[k]))
        k++;
    return (k < lim && k > i + 1 && s[k] == q) ? k : 0;
}

/* Closing quote of the piece opened at s[open], on the same line. */
static size_t piece_close(const unsigned char *s, size_t len, size_t open) {
    unsigned char q = s[open];
    for (size_t k = open + 1; k < len && k - open <= JOIN_PIECE_MAX; k++) {
        if (s[k] == '\n')
            return 0;
        if (s[k] == '\\') {
            k++; /* an escaped quote stays inside */
            continue;
        }
        if (s[k] == q)
            return k;
    }
    return 0;
}

/* Opening quote of the piece closed at s[close], on the same line. */
static size_t piece_open(const unsigned char *s, size_t close, bool *found) {
    unsigned char q = s[close];
    *found = false;
    for (size_t k = close; k > 0 && close - k < JOIN_PIECE_MAX;) {
        k--;
        if (s[k] == '\n')
            return 0;
        if (s[k] == q && (k == 0 || s[k - 1] != '\\')) {
            *found = true;
            return k;
        }
    }
    return 0;
}

static size_t decode_join(const unsigned char *s, size_t from, size_t to, obuf *o) {
    size_t i = from;
    while (i < to && !o->full) {
        unsigned char q = s[i];
        if (q != '"' && q != '\'' && q != '`') {
            i++;
            continue;
        }
        size_t c = piece_close(s, to, i);
        if (c == 0)
            break;
        for (size_t k = i + 1; k < c && !o->full; k++)
            put_byte(o, s[k]);
        i = c + 1;
    }
    return o->n;
}

/* ------------------------------------------------------------- scanning */

/*
 * One pass per kind, each driven by memchr over its rare trigger byte
 * ('\', '%', '&', a quote), and a word-at-a-time scan for digits: most
 * text has no trigger at all, and memchr skips it at vector speed. Every
 * pass resumes after what it examined, so each is linear.
 */

static int scan_esc(const unsigned char *s, size_t len, pd_visit visit, void *ctx) {
    int rc = 0;
    const unsigned char *p = memchr(s, '\\', len);
    while (p != NULL && rc == 0) {
        size_t i = (size_t)(p - s), codes = 0;
        bool pure_x = false;
        size_t end = esc_cluster(s, len, i, &codes, &pure_x);
        if (pure_x && codes >= PD_MIN_XESC) {
            pd_candidate c = {PD_XESC, i, end, false, false};
            rc = visit(ctx, &c);
        } else if (codes >= PU_MIN_ESCAPES) {
            /* Plain characters around the escapes belong to the same string
             * ("c\x75rl ... \x7c sh"): take them up to a quote or a line
             * break, at most ESC_GAP bytes each side. */
            size_t a = i, b = end;
            while (a > 0 && i - a < ESC_GAP && !esc_edge(s[a - 1]))
                a--;
            while (b < len && b - end < ESC_GAP && !esc_edge(s[b]) && s[b] != '\\')
                b++;
            /* Round 17: never cut a UTF-8 character of the prose around
             * (Cyrillic takes two bytes): a blob that starts on a
             * continuation byte fails the text test. */
            while (a < i && (s[a] & 0xC0u) == 0x80u)
                a++;
            while (b > end && b < len && (s[b] & 0xC0u) == 0x80u)
                b--;
            pd_candidate c = {PD_ESC, a, b, false, false};
            rc = visit(ctx, &c);
            /* Round 27: prose before the escapes ("Kod: \156\143...")
             * is no part of the command it hides; a word of it would
             * stand in the command's place. The escapes from the first
             * one on are read too when a space stands in front of them. */
            bool spaced = false;
            for (size_t k = a; k < i && !spaced; k++)
                spaced = s[k] == ' ';
            if (rc == 0 && spaced) {
                pd_candidate c2 = {PD_ESC, i, b, false, false};
                rc = visit(ctx, &c2);
            }
            if (b > end)
                end = b;
        }
        size_t next = end > i ? end : i + 1;
        p = next < len ? memchr(s + next, '\\', len - next) : NULL;
    }
    return rc;
}

static int scan_pct(const unsigned char *s, size_t len, pd_visit visit, void *ctx) {
    int rc = 0;
    size_t done = 0; /* tokens end here at the latest: never walk back over them */
    const unsigned char *p = memchr(s, '%', len);
    while (p != NULL && rc == 0) {
        size_t i = (size_t)(p - s), next = i + 1;
        uint32_t v;
        bool wide;
        if (pct_at(s, len, i, &v, &wide) > 0) {
            size_t a = i, b = i, escapes = 0;
            while (a > done && !pct_stop(s[a - 1]))
                a--;
            while (b < len && !pct_stop(s[b])) {
                size_t n = pct_at(s, len, b, &v, &wide);
                escapes += n > 0;
                b += n > 0 ? n : 1;
            }
            done = next = b;
            if (escapes >= PU_MIN_ESCAPES) {
                pd_candidate c = {PD_PCT, a, b, false, false};
                rc = visit(ctx, &c);
            }
        }
        p = next < len ? memchr(s + next, '%', len - next) : NULL;
    }
    return rc;
}

static int scan_ent(const unsigned char *s, size_t len, pd_visit visit, void *ctx) {
    int rc = 0;
    const unsigned char *p = memchr(s, '&', len);
    while (p != NULL && rc == 0) {
        size_t i = (size_t)(p - s), refs = 0;
        size_t end = ent_cluster(s, len, i, &refs);
        if (refs >= PU_MIN_ESCAPES) {
            pd_candidate c = {PD_ENT, i, end, false, false};
            rc = visit(ctx, &c);
        }
        size_t next = end > i ? end : i + 1;
        p = next < len ? memchr(s + next, '&', len - next) : NULL;
    }
    return rc;
}

/* Quoted pieces glued together: found from the glue ("' + '"), which is
 * rare, by a memchr per quote character. */
static int scan_join(const unsigned char *s, size_t len, unsigned char q, bool full, pd_visit visit,
                     void *ctx) {
    int rc = 0;
    size_t done = 0;
    const unsigned char *p = memchr(s, q, len);
    while (p != NULL && rc == 0) {
        size_t i = (size_t)(p - s), next = i + 1;
        size_t open2 = i >= done ? glue_after(s, len, i, full) : 0;
        bool found = false;
        size_t open1 = open2 != 0 ? piece_open(s, i, &found) : 0;
        if (found) {
            size_t end = i + 1, pieces = 1, at = open2;
            for (;;) {
                size_t close = piece_close(s, len, at);
                if (close == 0)
                    break;
                pieces++;
                end = close + 1;
                size_t nx = glue_after(s, len, close, full);
                if (nx == 0)
                    break;
                at = nx;
            }
            done = next = end;
            if (pieces >= 2) {
                pd_candidate c = {PD_JOIN, open1, end, false, false};
                rc = visit(ctx, &c);
            }
        }
        p = next < len ? memchr(s + next, q, len - next) : NULL;
    }
    return rc;
}

/* Bytes that may close a code and lead to the next one. */
static bool code_follow(unsigned char c) {
    return c == ',' || c == ')' || c == '+' || c == ']' || c == ';' || c == '|' || c == '&' ||
           c == ' ' || c == '}' || c == '.' || c == ':' || c == '-';
}

/* Lists of character codes. Digits are found eight bytes at a time; a
 * digit starts an attempt only at the start of a number that is followed
 * by list punctuation, so prose numbers ("returns 10 results") cost a
 * couple of comparisons. */
static int scan_codes(const unsigned char *s, size_t len, bool full, pd_visit visit, void *ctx) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    int rc = 0;
    size_t i = 0;
    (void)full; /* used only where the first digit's byte can be computed */
    while (i < len && rc == 0) {
        if (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            /* any byte strictly between 0x2F and 0x3A (bit-twiddling
             * "has between"; bytes >= 0x80 never match). No carry or
             * borrow crosses a byte (each byte's sums stay in 0x3A-0xCF),
             * so the flag of every byte is exact. */
            uint64_t low7 = w & (ones * 127);
            uint64_t hit = (ones * (127 + 0x3A) - low7) & ~w & (low7 + ones * (127 - 0x2F)) & highs;
            if (hit == 0) {
                i += 8;
                continue;
            }
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* Straight to the first digit: the bytes before it are not
             * digits, which the byte loop below would only step over. */
            if (!full)
                i += (size_t)__builtin_ctzll(hit) >> 3;
#endif
        }
        if (!is_digit(s[i])) {
            i++;
            continue;
        }
        size_t st = i;
        while (i < len && is_digit(s[i]))
            i++;
        if (st > 0 &&
            (is_alnum(s[st - 1]) || s[st - 1] == '.' || s[st - 1] == '_' || s[st - 1] == '-' ||
             s[st - 1] == '%' || s[st - 1] == '#' || s[st - 1] == '\\' || s[st - 1] == '&'))
            continue; /* inside a word, a version, an escape */
        if (i < len && (s[i] == 'x' || s[i] == 'X' || is_alpha(s[i])))
            i = st; /* 0x63 or a hex pair such as 6c: parsed below */
        else if (i >= len || !code_follow(s[i]) ||
                 (s[i] == ' ' && !(i + 1 < len && (is_digit(s[i + 1]) || s[i + 1] == '+' ||
                                                   s[i + 1] == ',' || s[i + 1] == '&'))))
            continue;
        size_t pairs = 0, codes = 0, octets = 0;
        size_t bend = bit_list(s, len, st, &octets);
        if (octets >= PU_MIN_OCTETS) {
            pd_candidate c = {PD_BITS, st, bend, false, false};
            rc = visit(ctx, &c);
            i = bend;
            continue;
        }
        /* Round 11: hex pairs of UTF-8 text in another script start with
         * a letter ("d0 98 d0 b3", "e4 bd a0"): step back over the pairs
         * before the first digit, so the text starts at its lead byte. */
        size_t pst = st;
        for (unsigned back = 0; back < 8 && pst >= 3; back++) {
            unsigned char sep = s[pst - 1];
            if ((sep != ' ' && sep != ':' && sep != ',' && sep != '-') || hexval(s[pst - 2]) < 0 ||
                hexval(s[pst - 3]) < 0 || (pst > 3 && is_alnum(s[pst - 4])) ||
                (pst + 2 < len && s[pst + 2] != sep))
                break;
            pst -= 3;
        }
        size_t pend = pair_list(s, len, pst, &pairs);
        if (pairs >= PU_MIN_PAIRS) {
            pd_candidate c = {PD_PAIRS, pst, pend, false, false};
            rc = visit(ctx, &c);
            i = pend;
            continue;
        }
        size_t end = code_list(s, len, st, &codes);
        if (codes >= PU_MIN_CODES) {
            pd_candidate c = {PD_CODES, st, end, false, false};
            rc = visit(ctx, &c);
        }
        i = end > st ? end : st + 1;
    }
    return rc;
}

/* ------------------------------------------------------------ Ascii85 */

#define A85_MIN 10u /* characters between the delimiters (8 decoded bytes) */

static bool a85_char(unsigned char c) {
    return (c >= '!' && c <= 'u') || c == 'z';
}

/* Adobe Ascii85 blobs "<~...~>". Only the delimited form is looked for:
 * bare base85 is every printable character and would make any text a
 * candidate. One pass: a failed blob resumes the scan where it failed. */
static int scan_a85(const unsigned char *s, size_t len, pd_visit visit, void *ctx) {
    int rc = 0;
    size_t i = 0;
    while (rc == 0 && i + 4 <= len) {
        const unsigned char *lt = memchr(s + i, '<', len - 3 - i);
        if (lt == NULL)
            break;
        i = (size_t)(lt - s);
        if (s[i + 1] != '~') {
            i++;
            continue;
        }
        size_t k = i + 2, n = 0;
        while (k + 1 < len && !(s[k] == '~' && s[k + 1] == '>') &&
               (a85_char(s[k]) || s[k] == ' ' || s[k] == '\n' || s[k] == '\r' || s[k] == '\t')) {
            n += s[k] > ' ';
            k++;
        }
        if (k + 1 < len && s[k] == '~' && s[k + 1] == '>' && n >= A85_MIN) {
            pd_candidate c = {PD_A85, i + 2, k, false, false};
            rc = visit(ctx, &c);
            k += 2;
        }
        i = k > i + 2 ? k : i + 2;
    }
    return rc;
}

/* Round 11: bare base85. The Z85 (ZeroMQ) and RFC 1924 alphabets, as
 * digit value per character (0xFF: not in the alphabet); Ascii85 is the
 * range '!'..'u'. Built once, read-only. */
static const char k_z85[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
static const char k_r1924[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

static unsigned b85_digit(unsigned char c, unsigned alpha) {
    if (alpha == PD_B85_ASCII85)
        return c >= '!' && c <= 'u' ? (unsigned)(c - '!') : 0xFFu;
    const char *a = alpha == PD_B85_Z85 ? k_z85 : k_r1924;
    const char *p = c != 0 ? strchr(a, c) : NULL;
    return p != NULL ? (unsigned)(p - a) : 0xFFu;
}

/* Groups of five characters in base 85 are four bytes, big-endian; 'z'
 * stands for four zero bytes (Ascii85 only); a last short group is padded
 * with the highest digit and gives one byte fewer than its characters.
 * Invalid input ends decoding. */
static void decode_a85(const unsigned char *s, size_t from, size_t to, unsigned alpha, obuf *o) {
    uint32_t acc = 0;
    unsigned g = 0;
    for (size_t i = from; i < to && !o->full; i++) {
        unsigned char c = s[i];
        if (c <= ' ')
            continue;
        if (c == 'z' && g == 0 && alpha == PD_B85_ASCII85) {
            for (int k = 0; k < 4; k++)
                put_byte(o, 0);
            continue;
        }
        unsigned d = b85_digit(c, alpha);
        if (d == 0xFFu)
            return;
        uint64_t next = (uint64_t)acc * 85u + (uint64_t)d;
        if (next > UINT32_MAX)
            return;
        acc = (uint32_t)next;
        if (++g == 5) {
            for (int k = 3; k >= 0; k--)
                put_byte(o, (uint8_t)(acc >> (8 * k)));
            acc = 0;
            g = 0;
        }
    }
    if (g > 1 && !o->full) {
        unsigned n = g - 1;
        uint64_t v = acc;
        for (; g < 5; g++)
            v = v * 85u + 84u;
        if (v > UINT32_MAX)
            return;
        for (unsigned k = 0; k < n; k++)
            put_byte(o, (uint8_t)(v >> (8 * (3 - k))));
    }
}

/* Bare base85 (round 11): a token of B85_MIN or more printable bytes
 * without a space that is no plain word, path or URL: it mixes letters,
 * digits and at least B85_SYMBOLS punctuation bytes that base64 does not
 * use, one byte in ten or more (base85 spends about one in five on
 * them). Found by skipping like the base64 runs: a token of B85_MIN bytes
 * covers every B85_MIN-th byte, so a space or a non-ASCII byte there
 * skips the window; prose has a space every few bytes, so almost no byte
 * is looked at. Which alphabet it is and whether it decodes to text is
 * the probe's business (pd_probe); only text that is an order counts. */
#define B85_MIN 32u
#define B85_SYMBOLS 3u

static bool b85_byte(unsigned char c) {
    return c > ' ' && c < 0x7F;
}

/* Round 27: the text just before the token names base85 ("base85",
 * "ascii85", "z85", "b85decode(" ...: letters then "85"). A sample can
 * spend fewer bytes on punctuation than the fifth the alphabet predicts
 * ("XK8dGaCL...*pU0...&EQT...@x?U": one in fourteen); named, one in
 * twenty-five is enough. */
#define B85_NAME_REACH 80u

static bool b85_named(const unsigned char *s, size_t st) {
    size_t a = st > B85_NAME_REACH ? st - B85_NAME_REACH : 0;
    for (size_t k = a + 1; k + 1 < st; k++)
        if (s[k] == '8' && s[k + 1] == '5' &&
            ((s[k - 1] | 0x20) >= 'a' && (s[k - 1] | 0x20) <= 'z'))
            return true;
    return false;
}

static int scan_b85(const unsigned char *s, size_t len, pd_visit visit, void *ctx) {
    int rc = 0;
    size_t i = 0;
    while (rc == 0 && i + B85_MIN <= len) {
        size_t probe = i + B85_MIN - 1;
        if (!b85_byte(s[probe])) {
            i = probe + 1;
            continue;
        }
        size_t st = probe;
        while (st > i && b85_byte(s[st - 1]))
            st--;
        size_t j = probe + 1;
        while (j < len && b85_byte(s[j]))
            j++;
        /* Quotes and brackets around a token belong to the text around it.
         * Both alphabets use ( and `, so a token only loses a leading one
         * that the token's last byte closes (round 15: a blob that starts
         * with "(" decoded one byte off, to noise). */
        while (st < j &&
               (s[st] == '"' || s[st] == '\'' ||
                ((s[st] == '(' || s[st] == '`') && s[j - 1] == (s[st] == '(' ? ')' : '`'))))
            st++;
        while (j > st && (s[j - 1] == '"' || s[j - 1] == '\'' || s[j - 1] == ',' ||
                          s[j - 1] == ')' || s[j - 1] == '`'))
            j--;
        unsigned sym = 0, kinds = 0;
        bool url = false;
        for (size_t k = st; k < j; k++) {
            unsigned char c = s[k];
            if (is_digit(c))
                kinds |= 1u;
            else if (c >= 'a' && c <= 'z')
                kinds |= 2u;
            else if (c >= 'A' && c <= 'Z')
                kinds |= 4u;
            else if (c != '+' && c != '/' && c != '=' && c != '-' && c != '_')
                sym++;
            if (c == ':' && k + 2 < j && s[k + 1] == '/' && s[k + 2] == '/')
                url = true;
        }
        /* Base85 spends about a fifth of its characters on punctuation;
         * a data: URI or a base64 blob behind a label has a few in all. */
        if (j - st >= B85_MIN && kinds == 7u && sym >= B85_SYMBOLS &&
            (sym * 10 >= j - st || (sym * 25 >= j - st && b85_named(s, st))) && !url &&
            !(s[st] == '<' && s[st + 1] == '~')) {
            pd_candidate c = {PD_B85, st, j, false, false};
            rc = visit(ctx, &c);
        }
        i = j + 1;
    }
    return rc;
}

/* The base85 alphabets a bare token fits, as a bit set (1 << pd_b85_alpha). */
unsigned pu_b85_alphabets(const char *text, size_t from, size_t to) {
    unsigned fits = 7u;
    for (size_t k = from; k < to && fits != 0; k++)
        for (unsigned a = 0; a < 3; a++)
            if ((fits & (1u << a)) && b85_digit((unsigned char)text[k], a) == 0xFFu)
                fits &= ~(1u << a);
    return fits;
}

int pu_scan(const char *text, size_t len, pd_visit visit, void *ctx) {
    return pu_scan_opt(text, len, false, visit, ctx);
}

int pu_scan_opt(const char *text, size_t len, bool full, pd_visit visit, void *ctx) {
    const unsigned char *s = (const unsigned char *)text;
    int rc = 0;
    /* The shortest candidate (four two-character codes and separators, or
     * four %XX) needs more bytes than names and enum values have. */
    if (len < 12)
        return 0;
    rc = scan_esc(s, len, visit, ctx);
    if (rc == 0)
        rc = scan_pct(s, len, visit, ctx);
    if (rc == 0)
        rc = scan_ent(s, len, visit, ctx);
    if (rc == 0)
        rc = scan_join(s, len, '"', full, visit, ctx);
    if (rc == 0)
        rc = scan_join(s, len, '\'', full, visit, ctx);
    if (rc == 0)
        rc = scan_codes(s, len, full, visit, ctx);
    if (rc == 0)
        rc = scan_a85(s, len, visit, ctx);
    if (rc == 0)
        rc = scan_b85(s, len, visit, ctx);
    return rc;
}

/* ------------------------------------------------ ROT13 and reversed lines */

/* Command words an obfuscated line is likely to hold, written plainly here;
 * the automaton holds their ROT13 rotation and their reversal. */
static const char *const k_line_words[] = {
    "curl ",
    "wget ",
    "bash ",
    "/dev/tcp/",
    "rm -rf",
    "nc -e",
    "id_rsa",
    ".ssh/",
    "http://",
    "https://",
    "python",
    "powershell",
    "chmod +x",
    "| sh",
    "|sh",
    "| bash",
    "base64 -d",
    "/etc/passwd",
    ".aws/",
    "invoke-expression",
    "iex(",
    "eval(",
    "exec(",
    "child_process",
    /* round 17: unlabelled reversed lines that send a file to netcat or
     * wipe traces ("cn | wodahs/cte/ tac", "odus ... derhs") */
    "| nc ",
    "/etc/shadow",
    "sudo ",
    "shred ",
};

#define LINE_REACH 1024u /* bytes each side of a trigger taken as its line */

typedef struct prose_word {
    uint64_t key;
    uint8_t kinds;
} prose_word;

#define PROSE_SLOTS 16384u /* open-addressed table of the function words (about 5,000) */

/* Directories whose ROT13 or reversed form beside a slash is the trace
 * of a rotated or reversed path (rotated_slash). */
typedef struct rot_dir {
    char s[5];
    uint8_t n;
} rot_dir;
#define K_DIRS 22u
static const rot_dir k_dirs[K_DIRS] = {
    {"qri", 3},  {"gzc", 3},  {"rgp", 3},  {"ubzr", 4}, {"ebbg", 4}, {"ova", 3},
    {"hfe", 3},  {"cebp", 4}, {".ffu", 4}, {".njf", 4}, {"ved", 3},  {"pmt", 3},
    {"cte", 3},  {"emoh", 4}, {"toor", 4}, {"nib", 3},  {"rsu", 3},  {"corp", 4},
    {"hss.", 4}, {"swa.", 4}, {"ine", 3},  {"rav", 3} /* round 17: /var (logs wiped) */};

struct pd_scanner {
    const mv_allocator *alloc;
    mv_ac *ac;
    prose_word prose[PROSE_SLOTS]; /* function words by hash (scan_prose); key 0 = empty */
    size_t n_prose;
    uint8_t prose_cls[256]; /* scan_prose's bytes: PC_ALPHA, PC_STOP or 0 (see prose_classes) */
    uint8_t dir_first[256]; /* 1 for the first byte of a k_dirs entry (rotated_slash) */
    bool full;              /* prefilters off (pd_scanner_set_full) */
};

static size_t prose_table(prose_word *t);
static void prose_classes(uint8_t *cls);

void pd_scanner_set_full(pd_scanner *s, bool full) {
    s->full = full;
}

bool pd_scanner_full(const pd_scanner *s) {
    return s != NULL && s->full;
}

/* A letter shifted forward by k places (0-25), case kept. */
static unsigned char shift_letter(unsigned char c, unsigned k) {
    if (c >= 'a' && c <= 'z')
        return (unsigned char)('a' + (c - 'a' + k) % 26);
    if (c >= 'A' && c <= 'Z')
        return (unsigned char)('A' + (c - 'A' + k) % 26);
    return c;
}

static unsigned char rot13(unsigned char c) {
    if (c >= 'a' && c <= 'z')
        return (unsigned char)('a' + (c - 'a' + 13) % 26);
    if (c >= 'A' && c <= 'Z')
        return (unsigned char)('A' + (c - 'A' + 13) % 26);
    return c;
}

void pd_scanner_free(pd_scanner *s) {
    if (s == NULL)
        return;
    mv_ac_free(s->ac);
    mv_free(s->alloc, s, sizeof(*s));
}

int pd_scanner_new(pd_scanner **out, const mv_allocator *a) {
    int rc = MV_ENOMEM;
    mv_ac_builder *b = NULL;
    pd_scanner *s = NULL;
    *out = NULL;
    if (a == NULL)
        a = mv_allocator_default();
    s = mv_calloc(a, 1, sizeof(*s));
    if (s == NULL)
        goto done;
    s->alloc = a;
    b = mv_ac_builder_new(a, MV_AC_ASCII_CASEFOLD);
    if (b == NULL)
        goto done;
    for (size_t w = 0; w < sizeof(k_line_words) / sizeof(k_line_words[0]); w++) {
        char buf[32];
        size_t n = strlen(k_line_words[w]);
        for (size_t k = 0; k < n; k++)
            buf[k] = (char)rot13((unsigned char)k_line_words[w][k]);
        rc = mv_ac_builder_add(b, buf, n, (uint32_t)(2 * w));
        if (rc != MV_OK)
            goto done;
        for (size_t k = 0; k < n; k++)
            buf[k] = k_line_words[w][n - 1 - k];
        rc = mv_ac_builder_add(b, buf, n, (uint32_t)(2 * w + 1));
        if (rc != MV_OK)
            goto done;
    }
    rc = mv_ac_build(&s->ac, b);
    if (rc != MV_OK)
        goto done;
    for (size_t d = 0; d < K_DIRS; d++)
        s->dir_first[(unsigned char)k_dirs[d].s[0]] = 1;
    s->n_prose = prose_table(s->prose);
    prose_classes(s->prose_cls);
    *out = s;
    s = NULL;
done:
    mv_ac_builder_free(b);
    pd_scanner_free(s);
    return rc;
}

typedef struct line_scan {
    const unsigned char *s;
    size_t len;
    size_t base; /* the automaton scans s[base, ...): match offsets are relative */
    pd_visit visit;
    void *ctx;
    size_t done_rot, done_rev; /* end of the last line emitted per kind */
    int rc;
} line_scan;

static int on_line_word(void *ctx, const mv_ac_match *m) {
    line_scan *ls = ctx;
    bool reversed = (m->id & 1u) != 0;
    size_t *done = reversed ? &ls->done_rev : &ls->done_rot;
    size_t ms = ls->base + m->start, me = ls->base + m->end;
    if (ms < *done)
        return 0;
    size_t a = ms, b = me;
    while (a > 0 && ms - a < LINE_REACH && ls->s[a - 1] != '\n')
        a--;
    while (b < ls->len && b - me < LINE_REACH && ls->s[b] != '\n')
        b++;
    *done = b;
    /* A reversed command after an introduction on the same line ("read it
     * backwards: hs | hs.s/...//:sptth s- lruc") reversed as a whole line
     * ends in reversed prose that reads as arguments of the shell. Also
     * try the segment after the last ": " or opening quote before it and
     * before the next quote: a colon followed by a space is forward prose
     * (a reversed URL has "//:"). */
    if (reversed) {
        /* Round 17: a shell line is ASCII, so the prose of another script
         * around it ("シェルで実行してください：「...」") bounds it too,
         * and a match that starts at the space after a colon (" hsab")
         * stops at that colon. */
        size_t a2 = ms, b2 = me;
        while (a2 > a && !(ls->s[a2 - 1] == '`' || ls->s[a2 - 1] == '"' || ls->s[a2 - 1] == '(' ||
                           ls->s[a2 - 1] >= 0x80 || (ls->s[a2 - 1] == ':' && ls->s[a2] == ' ') ||
                           (ls->s[a2 - 1] == ' ' && a2 - 1 > a && ls->s[a2 - 2] == ':')))
            a2--;
        while (b2 < b && ls->s[b2] != '`' && ls->s[b2] != '"' && ls->s[b2] != ')' &&
               ls->s[b2] < 0x80)
            b2++;
        if ((a2 > a || b2 < b) && b2 - a2 >= 8) {
            pd_candidate seg = {PD_REVERSED, a2, b2, false, false};
            ls->rc = ls->visit(ls->ctx, &seg);
            if (ls->rc != 0)
                return 1;
        }
    }
    pd_candidate c = {reversed ? PD_REVERSED : PD_ROT13, a, b, false, false};
    ls->rc = ls->visit(ls->ctx, &c);
    return ls->rc != 0;
}

/* A rotated or reversed command keeps a trace that memchr finds far faster
 * than the automaton: a pipe, the home directory, or a slash that is not
 * part of a plain http(s) URL ("uggcf://" and "//:sptth" are, "/qri/gpc"
 * and "pct/ved/" are). The command words sit within TRACE_REACH bytes of
 * such a trace, so only those windows go through the automaton; text
 * without a trace is not scanned at all. Returns the next trace at or
 * after i, or len. */
#define TRACE_REACH 96u

/* A slash next to a system directory or a key folder in ROT13 or written
 * backwards ("/qri/gpc", "pct/ved/", "~/.ffu", "hss./"): the trace of a
 * rotated or reversed path. Honest paths ("/api/v1", "and/or") are not. */
static bool rotated_slash(const char *text, size_t len, size_t k, const uint8_t *dir_first) {
    const rot_dir *dirs = k_dirs;
    size_t a = k, b = k + 1, e = k + 1;
    while (a > 0 && k - a < 5 && (is_alpha((unsigned char)text[a - 1]) || text[a - 1] == '.'))
        a--;
    while (e < len && e - b < 5 && (is_alpha((unsigned char)text[e]) || text[e] == '.'))
        e++;
    size_t before = k - a, after = e - b;
    if ((before < 3 || before > 4) && (after < 3 || after > 4))
        return false;
    /* No directory starts with the byte after the slash nor with the word
     * before it ("/api", "/orders"): most honest paths end here. */
    if (dir_first != NULL && !((after >= 3 && after <= 4 && dir_first[(unsigned char)text[b]]) ||
                               (before >= 3 && before <= 4 && dir_first[(unsigned char)text[a]])))
        return false;
    /* The first byte decides most of them: memcmp only when it agrees. */
    for (size_t d = 0; d < K_DIRS; d++) {
        if (after == dirs[d].n && text[b] == dirs[d].s[0] &&
            memcmp(text + b, dirs[d].s, after) == 0)
            return true;
        if (before == dirs[d].n && text[a] == dirs[d].s[0] &&
            memcmp(text + a, dirs[d].s, before) == 0)
            return true;
    }
    return false;
}

/* Next positions of the three trace bytes, each found once by memchr. */
typedef struct traces {
    const char *text;
    size_t len;
    size_t at[3];             /* next '|', '~', '/' at or after the cursor (len: none) */
    const uint8_t *dir_first; /* pd_scanner's; NULL with the prefilters off */
} traces;

static size_t find_from(const char *text, size_t len, size_t i, char c) {
    const char *p = i < len ? memchr(text + i, c, len - i) : NULL;
    return p != NULL ? (size_t)(p - text) : len;
}

/* The next trace at or after i, or len. */
static size_t next_trace(traces *tr, size_t i) {
    static const char marks[3] = {'|', '~', '/'};
    const char *text = tr->text;
    size_t len = tr->len;
    while (i < len) {
        size_t best = len;
        int which = -1;
        for (int k = 0; k < 3; k++) {
            if (tr->at[k] < i)
                tr->at[k] = find_from(text, len, i, marks[k]);
            if (tr->at[k] < best) {
                best = tr->at[k];
                which = k;
            }
        }
        if (which < 0)
            return len;
        size_t k = best;
        if (which != 2)
            return k;
        if (rotated_slash(text, len, k, tr->dir_first))
            return k;
        if (k + 1 < len && text[k + 1] == '/') {
            bool url = (k >= 5 && memcmp(text + k - 5, "http:", 5) == 0) ||
                       (k >= 6 && memcmp(text + k - 6, "https:", 6) == 0);
            if (!url && k >= 1 && text[k - 1] == ':')
                return k; /* "uggcf://": a scheme that is not http(s) */
            if (k + 2 < len && text[k + 2] == ':')
                return k; /* "//:sptth": a URL written backwards */
            /* the rest of a plain URL, path slashes included */
            k += 2;
            while (k < len && !is_space((unsigned char)text[k]) && text[k] != '"' &&
                   text[k] != '\'' && text[k] != ')' && text[k] != '>')
                k++;
            i = k;
            continue;
        }
        i = k + 1;
    }
    return len;
}

/* Prose in ROT13 or written backwards needs no command word: its function
 * words give it away. A line counts its whole words (ASCII letters, case
 * folded) among the commonest English ones, among their ROT13 rotations
 * ("gur", "naq", "lbh") and among their reversals ("eht", "dna", "uoy");
 * three or more rotated (reversed) ones outnumbering the plain ones make
 * the line a candidate. Plain English and other languages have a
 * rotated or reversed function word now and then, never three. One linear
 * pass; a line is cut into windows of PROSE_WINDOW bytes. */
#define PROSE_WINDOW 2048u
#define PROSE_MIN 3u

static const char *const k_plain[] = {"the",   "and",  "to",     "of",   "you",  "your", "with",
                                      "this",  "for",  "is",     "it",   "on",   "in",   "all",
                                      "every", "user", "before", "from", "send", "that"};
/* The same words rotated and reversed, in the same order; a rotation or
 * reversal that is itself an English word or an abbreviation ("no", "vs",
 * "ti") is left out (empty). */
static const char *const k_rot[] = {"gur",   "naq",  "gb",     "bs",   "lbh",  "lbhe", "jvgu",
                                    "guvf",  "sbe",  "",       "vg",   "",     "",     "nyy",
                                    "rirel", "hfre", "orsber", "sebz", "fraq", "gung"};
static const char *const k_rev[] = {"eht",   "dna",  "",       "fo",   "uoy",  "ruoy", "htiw",
                                    "siht",  "rof",  "",       "",     "",     "",     "lla",
                                    "yreve", "resu", "erofeb", "morf", "dnes", "taht"};

/* A word of at most eight ASCII letters packed into an integer (lower
 * case), so a lookup is a binary search over integers. */
static uint64_t pack_word(const unsigned char *w, size_t n) {
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned char c = w[k];
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c + 32);
        v = (v << 8) | c;
    }
    return v;
}

/* pack_word of a word of 2 to 6 letters with eight bytes readable at w:
 * the letters loaded at once, folded by `| 0x20` (for a letter exactly
 * pack_word's folding) and put first letter highest. Falls back to
 * pack_word where the byte order is not known. */
static uint64_t pack_letters(const unsigned char *w, size_t n, bool room) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (room) {
        uint64_t v;
        memcpy(&v, w, 8);
        v = (v | 0x2020202020202020ull) & ((1ull << (8 * n)) - 1);
        return __builtin_bswap64(v) >> (64 - 8 * n);
    }
#else
    (void)room;
#endif
    return pack_word(w, n);
}

enum { PW_PLAIN = 1, PW_ROT = 2, PW_REV = 4, PW_CAESAR = 8 };

/* Round 10: the same function words (of three letters or more: two-letter
 * shifts collide with abbreviations) under every Caesar shift but 0 and
 * 13, so a line written with ROT3 or ROT7 is found like a ROT13 one. */
#define CAESAR_MIN_WORD 3u
#define PROSE_CAESAR_MIN 3u
static const char *const k_caesar[] = {
    "the",    "and",  "you",  "your",  "with", "this", "for",  "all",   "every", "user",
    "before", "from", "send", "that",  "are",  "not",  "will", "when",  "then",  "call",
    "file",   "must", "any",  "after", "each", "read", "into", "ignore"};

/* Round 11: the function words of the other Latin-script languages of the
 * rules (de fr es it pt nl sv pl cs id) and more English ones, so a line
 * in ROT13, another Caesar shift or written backwards is found in those
 * languages too (an order in Italian under ROT13 has no English word to
 * give it away). Their rotations, reversals and shifts
 * are worked out when the table is built; a variant that is itself a
 * plain word of a list, or a common word of its own (k_not_variant), is
 * left out. ASCII letters only: the scanner's words are ASCII. */
static const char *const k_world[] = {
    "are",   "not",   "will",   "when",   "then",   "call",  "file",   "must",   "any",   "after",
    "each",  "read",  "into",   "ignore", "und",    "der",   "die",    "das",    "den",   "nicht",
    "mit",   "ist",   "auf",    "eine",   "alle",   "oder",  "wenn",   "dann",   "nach",  "bitte",
    "sende", "datei", "ohne",   "les",    "des",    "une",   "pour",   "que",    "dans",  "avec",
    "sur",   "est",   "pas",    "vous",   "tous",   "sans",  "toutes", "envoie", "los",   "las",
    "del",   "para",  "con",    "una",    "por",    "sin",   "todos",  "antes",  "della", "delle",
    "per",   "che",   "gli",    "tutti",  "senza",  "prima", "invia",  "com",    "uma",   "dos",
    "sem",   "envie", "het",    "een",    "van",    "niet",  "met",    "voor",   "naar",  "stuur",
    "och",   "att",   "det",    "som",    "med",    "till",  "inte",   "alla",   "utan",  "innan",
    "nie",   "jest",  "oraz",   "dla",    "przed",  "plik",  "pro",    "jako",   "nebo",  "dan",
    "yang",  "untuk", "ini",    "itu",    "dengan", "semua", "kirim",  "tanpa",  "tutte", "dell",
    "nella", "sono",  "questo", "questa", "leia",   "todas", "envia",  "kein",   "keine", "sind"};
static const char *const k_not_variant[] = {"red", "sed",  "led",  "sol",  "sal", "mes", "ein",
                                            "dem", "ella", "redo", "oben", "nhs", "ove", "ted",
                                            "ini", "alla", "ova",  "are",  "era", "per"};

static size_t prose_slot(uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 50) & (PROSE_SLOTS - 1);
}

/* Add `kinds` to the slot of a word (creating it); 1 when created. */
static size_t prose_add(prose_word *t, const unsigned char *w, size_t wn, uint8_t kinds) {
    uint64_t key = pack_word(w, wn);
    size_t j = prose_slot(key);
    size_t made = 0;
    while (t[j].key != 0 && t[j].key != key)
        j = (j + 1) & (PROSE_SLOTS - 1);
    if (t[j].key == 0) {
        t[j].key = key;
        made = 1;
    }
    t[j].kinds |= kinds;
    return made;
}

/* A variant that is itself a plain word of a list (k_plain and k_world
 * are in the table as PW_PLAIN before any variant is made) or a common
 * word of its own (k_not_variant) is no trace of a shift. One hash probe
 * per variant: comparing against the lists by string cost more than all
 * the rest of building the scanner. */
#define NOT_VARIANTS (sizeof(k_not_variant) / sizeof(k_not_variant[0]))

static bool plain_listed(const prose_word *t, const uint64_t *not_variant, const unsigned char *w,
                         size_t wn) {
    uint64_t key = pack_word(w, wn);
    size_t j = prose_slot(key);
    while (t[j].key != 0 && t[j].key != key)
        j = (j + 1) & (PROSE_SLOTS - 1);
    if (t[j].key == key && (t[j].kinds & PW_PLAIN) != 0)
        return true;
    for (size_t k = 0; k < NOT_VARIANTS; k++)
        if (not_variant[k] == key)
            return true;
    return false;
}

/* k_world: plain words, then their variants (round 11). */
static size_t world_words(prose_word *t) {
    size_t n = 0;
    const size_t count = sizeof(k_world) / sizeof(k_world[0]);
    uint64_t nv[NOT_VARIANTS];
    for (size_t k = 0; k < NOT_VARIANTS; k++)
        nv[k] = pack_word((const unsigned char *)k_not_variant[k], strlen(k_not_variant[k]));
    for (size_t k = 0; k < count; k++)
        n += prose_add(t, (const unsigned char *)k_world[k], strlen(k_world[k]), PW_PLAIN);
    for (size_t k = 0; k < count; k++) {
        size_t wn = strlen(k_world[k]);
        unsigned char w[8];
        for (unsigned sh = 1; sh < 26; sh++) {
            for (size_t q = 0; q < wn; q++)
                w[q] = shift_letter((unsigned char)k_world[k][q], sh);
            if (!plain_listed(t, nv, w, wn))
                n += prose_add(t, w, wn, sh == 13 ? PW_ROT : PW_CAESAR);
        }
        for (size_t q = 0; q < wn; q++)
            w[q] = (unsigned char)k_world[k][wn - 1 - q];
        if (!plain_listed(t, nv, w, wn))
            n += prose_add(t, w, wn, PW_REV);
    }
    return n;
}

/* The three lists in one hash table, built once with the scanner. */
static size_t prose_table(prose_word *t) {
    size_t n = 0;
    const char *const *lists[3] = {k_plain, k_rot, k_rev};
    const uint8_t kinds[3] = {PW_PLAIN, PW_ROT, PW_REV};
    memset(t, 0, PROSE_SLOTS * sizeof(*t));
    for (size_t k = 0; k < sizeof(k_caesar) / sizeof(k_caesar[0]); k++) {
        size_t wn = strlen(k_caesar[k]);
        for (unsigned sh = 1; sh < 26; sh++) {
            unsigned char w[8];
            if (sh == 13)
                continue;
            for (size_t q = 0; q < wn; q++)
                w[q] = shift_letter((unsigned char)k_caesar[k][q], sh);
            uint64_t key = pack_word(w, wn);
            size_t j = prose_slot(key);
            while (t[j].key != 0 && t[j].key != key)
                j = (j + 1) & (PROSE_SLOTS - 1);
            if (t[j].key == 0) {
                t[j].key = key;
                n++;
            }
            t[j].kinds |= PW_CAESAR;
        }
    }
    for (int l = 0; l < 3; l++) {
        for (size_t k = 0; k < sizeof(k_plain) / sizeof(k_plain[0]); k++) {
            const char *w = lists[l][k];
            size_t wn = strlen(w);
            if (wn == 0)
                continue;
            uint64_t key = pack_word((const unsigned char *)w, wn);
            size_t j = prose_slot(key);
            while (t[j].key != 0 && t[j].key != key)
                j = (j + 1) & (PROSE_SLOTS - 1);
            if (t[j].key == 0) {
                t[j].key = key;
                n++;
            }
            t[j].kinds |= kinds[l];
        }
    }
    /* after k_plain: world_words reads the plain words back (plain_listed) */
    n += world_words(t);
    return n;
}

static uint8_t prose_kinds(const prose_word *t, size_t n, uint64_t key) {
    (void)n;
    size_t j = prose_slot(key);
    while (t[j].key != 0) {
        if (t[j].key == key)
            return t[j].kinds;
        j = (j + 1) & (PROSE_SLOTS - 1);
    }
    return 0;
}

/* What scan_prose looks at in a byte: a letter (is_alpha) starts a word,
 * '\n' and ':' may end a window; any other byte is only stepped over. */
enum { PC_ALPHA = 1, PC_STOP = 2 };

static void prose_classes(uint8_t *cls) {
    for (unsigned c = 0; c < 256; c++)
        cls[c] = is_alpha((unsigned char)c) ? PC_ALPHA : (c == '\n' || c == ':') ? PC_STOP : 0;
}

static int scan_prose(const pd_scanner *sc, const unsigned char *s, size_t len, pd_visit visit,
                      void *ctx) {
    const uint8_t *pc = sc->prose_cls;
    size_t start = 0, i = 0;
    unsigned plain = 0, rot = 0, rev = 0, caesar = 0;
    int rc = 0;
    while (rc == 0 && start < len) {
        /* Bytes before the window's last one that are neither a letter
         * nor '\n' nor ':' neither end the window nor count: the loop
         * below would only step over them one by one. */
        size_t lim = len - start > PROSE_WINDOW ? start + PROSE_WINDOW : len;
        while (!sc->full && i < lim && pc[s[i]] == 0)
            i++;
        /* ": " also ends a window: "directive (ROT13): Eha ... naq ..." puts
         * the hidden line after a plain introduction whose function words
         * would outnumber it. */
        bool colon = i + 1 < len && s[i] == ':' && s[i + 1] == ' ';
        bool end = i >= len || s[i] == '\n' || colon || i - start >= PROSE_WINDOW;
        if (!end && pc[s[i]] == PC_ALPHA) {
            size_t j = i + 1;
            while (j < len && pc[s[j]] == PC_ALPHA)
                j++;
            if (j - i >= 2 && j - i <= 6) {
                uint64_t key =
                    sc->full ? pack_word(s + i, j - i) : pack_letters(s + i, j - i, len - i >= 8);
                uint8_t kinds = prose_kinds(sc->prose, sc->n_prose, key);
                plain += (kinds & PW_PLAIN) != 0;
                rot += (kinds & PW_ROT) != 0;
                rev += (kinds & PW_REV) != 0;
                caesar += (kinds & PW_CAESAR) != 0;
            }
            i = j;
            continue;
        }
        if (!end) {
            i++;
            continue;
        }
        if (rot >= PROSE_MIN && rot > plain) {
            pd_candidate c = {PD_ROT13, start, i, false, false};
            rc = visit(ctx, &c);
        }
        if (rc == 0 && rev >= PROSE_MIN && rev > plain) {
            pd_candidate c = {PD_REVERSED, start, i, false, false};
            rc = visit(ctx, &c);
        }
        if (rc == 0 && caesar >= PROSE_CAESAR_MIN && caesar > plain && caesar > rot) {
            pd_candidate c = {PD_CAESAR, start, i, false, false};
            rc = visit(ctx, &c);
        }
        plain = rot = rev = caesar = 0;
        start = i < len && (s[i] == '\n' || colon) ? i + 1 : i;
        i = start;
    }
    return rc;
}

/* A fullwidth ASCII form at s[i] (U+FF01-U+FF5E, three bytes EF BC 81 to
 * EF BD 9E) or the ideographic space U+3000 (E3 80 80): its length, with
 * the ASCII byte it stands for in *ascii. 0 when it is neither. */
static size_t wide_at(const unsigned char *s, size_t len, size_t i, uint32_t *ascii) {
    if (i + 3 > len)
        return 0;
    if (s[i] == 0xE3 && s[i + 1] == 0x80 && s[i + 2] == 0x80) {
        *ascii = ' ';
        return 3;
    }
    if (s[i] != 0xEF || (s[i + 1] != 0xBC && s[i + 1] != 0xBD) || (s[i + 2] & 0xC0) != 0x80)
        return 0;
    uint32_t cp = 0xF000u | ((uint32_t)(s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
    if (cp < 0xFF01 || cp > 0xFF5E)
        return 0;
    *ascii = cp - 0xFF01 + 0x21;
    return 3;
}

/* Commands spelled in fullwidth forms ("ｃｕｒｌ　－ｄ　＠～／．ｄｏｃｋｅｒ") read as
 * ASCII to a model and slip past ASCII matchers. A run of WIDE_MIN or more
 * fullwidth forms (ideographic and ASCII spaces inside) is a candidate;
 * CJK text with a fullwidth word or number now and then decodes to no
 * command. memchr finds the lead bytes; one linear pass. */
#define WIDE_MIN 8u

static int scan_wide(const unsigned char *s, size_t len, pd_visit visit, void *ctx) {
    size_t i = 0;
    int rc = 0;
    /* Next 0xEF and 0xE3 lead bytes, each found once by memchr. */
    size_t next_ef = 0, next_e3 = 0;
    bool have_ef = false, have_e3 = false;
    while (rc == 0 && i < len) {
        if (!have_ef || next_ef < i) {
            const unsigned char *p = memchr(s + i, 0xEF, len - i);
            next_ef = p != NULL ? (size_t)(p - s) : len;
            have_ef = true;
        }
        if (!have_e3 || next_e3 < i) {
            const unsigned char *p = memchr(s + i, 0xE3, len - i);
            next_e3 = p != NULL ? (size_t)(p - s) : len;
            have_e3 = true;
        }
        size_t st = next_ef < next_e3 ? next_ef : next_e3;
        if (st >= len)
            break;
        size_t k = st, n = 0;
        uint32_t a = 0;
        while (k < len) {
            size_t l = wide_at(s, len, k, &a);
            if (l > 0) {
                n += a != ' ';
                k += l;
            } else if (s[k] == ' ') {
                k++;
            } else {
                break;
            }
        }
        if (n >= WIDE_MIN) {
            pd_candidate c = {PD_WIDE, st, k, false, false};
            rc = visit(ctx, &c);
        }
        i = k > st ? k : st + 1;
    }
    return rc;
}

int pu_scan_lines(const pd_scanner *sc, const char *text, size_t len, pd_visit visit, void *ctx) {
    if (sc == NULL || len < 8)
        return 0;
    line_scan ls = {(const unsigned char *)text, len, 0, visit, ctx, 0, 0, 0};
    traces tr = {text, len, {0, 0, 0}, sc->full ? NULL : sc->dir_first};
    tr.at[0] = find_from(text, len, 0, '|');
    tr.at[1] = find_from(text, len, 0, '~');
    tr.at[2] = find_from(text, len, 0, '/');
    size_t t = next_trace(&tr, 0);
    while (t < len && ls.rc == 0) {
        /* one window: traces closer than two reaches are merged */
        size_t ws = t > TRACE_REACH ? t - TRACE_REACH : 0, we = t + 1;
        for (;;) {
            size_t nt = next_trace(&tr, we);
            if (nt >= len || nt > we + 2 * TRACE_REACH) {
                t = nt;
                break;
            }
            we = nt + 1;
        }
        we = we + TRACE_REACH < len ? we + TRACE_REACH : len;
        ls.base = ws;
        mv_ac_scan(sc->ac, text + ws, we - ws, on_line_word, &ls);
    }
    if (ls.rc == 0)
        ls.rc = scan_prose(sc, (const unsigned char *)text, len, visit, ctx);
    if (ls.rc == 0)
        ls.rc = scan_wide((const unsigned char *)text, len, visit, ctx);
    return ls.rc;
}

/* --------------------------------------------------------------- plans */

/* The Caesar shift most of the window's words were written with: for each
 * word of 3-6 letters, the shift that turns one of the function words
 * into it; the commonest shift wins (13 and 0 excluded; 0 when none). Only
 * candidates pay for it. */
static uint8_t caesar_shift(const unsigned char *s, size_t from, size_t to) {
    unsigned votes[26] = {0};
    size_t i = from;
    while (i < to) {
        while (i < to && !is_alpha(s[i]))
            i++;
        size_t j = i;
        while (j < to && is_alpha(s[j]))
            j++;
        size_t wn = j - i;
        const size_t nc = sizeof(k_caesar) / sizeof(k_caesar[0]);
        const size_t nw = sizeof(k_world) / sizeof(k_world[0]);
        for (size_t k = 0; wn >= CAESAR_MIN_WORD && wn <= 6 && k < nc + nw; k++) {
            const char *cw = k < nc ? k_caesar[k] : k_world[k - nc];
            if (strlen(cw) != wn)
                continue;
            unsigned sh = (unsigned)((s[i] | 0x20) - cw[0] + 26) % 26;
            size_t q = 1;
            while (q < wn && shift_letter((unsigned char)cw[q], sh) == (s[i + q] | 0x20))
                q++;
            if (q == wn)
                votes[sh]++;
        }
        i = j;
    }
    uint8_t best = 0;
    for (unsigned sh = 1; sh < 26; sh++)
        if (sh != 13 && votes[sh] > votes[best])
            best = (uint8_t)sh;
    return best;
}

/* Round 11: character codes written in base 8 ("162 155 40 55" is
 * "rm -"). Text in decimal codes has no code of 128 or more unless it
 * leaves ASCII, and its letters bring the digits 8 and 9 (a is 97, l is
 * 108); octal codes of text have neither 8 nor 9 and its letters are 141
 * to 172. So: only the digits 0-7, no 0x, every code at most 377 and one
 * of them 128 or more read as decimal. */
static bool octal_list(const unsigned char *s, size_t from, size_t to) {
    bool high = false;
    for (size_t i = from; i < to;) {
        if (!is_digit(s[i])) {
            if (s[i] == 'x' || s[i] == 'X')
                return false;
            i++;
            continue;
        }
        unsigned v = 0, nd = 0;
        while (i < to && is_digit(s[i])) {
            if (s[i] > '7' || ++nd > 3)
                return false;
            v = v * 10 + (unsigned)(s[i] - '0');
            i++;
        }
        if (v > 377)
            return false;
        high |= v >= 128;
    }
    return high;
}

void pu_plan_of(const char *text, const pd_candidate *c, pd_plan *plan) {
    const unsigned char *s = (const unsigned char *)text;
    memset(plan, 0, sizeof(*plan));
    plan->from = c->start;
    plan->to = c->end;
    switch (c->kind) {
    case PD_XESC:
        plan->enc = PD_ENC_XESC;
        break;
    case PD_PCT: {
        /* Form encoding writes spaces as '+': read them so when the token
         * has '+' and no encoded space. */
        bool plus = false, space = false;
        for (size_t i = c->start; i < c->end; i++) {
            plus |= s[i] == '+';
            if (s[i] == '%' && i + 2 < c->end && s[i + 1] == '2' && s[i + 2] == '0')
                space = true;
        }
        plan->enc = PD_ENC_PCT;
        plan->plus_space = plus && !space;
        break;
    }
    case PD_ENT:
        plan->enc = PD_ENC_ENT;
        break;
    case PD_CODES:
    case PD_PAIRS:
        plan->enc = PD_ENC_CODES;
        plan->hex_codes = c->kind == PD_PAIRS;
        plan->oct_codes = c->kind == PD_CODES && octal_list(s, c->start, c->end);
        break;
    case PD_BITS:
        plan->enc = PD_ENC_CODES;
        plan->bin_codes = true;
        break;
    case PD_JOIN:
        plan->enc = PD_ENC_JOIN;
        break;
    case PD_ROT13:
        plan->enc = PD_ENC_ROT13;
        break;
    case PD_REVERSED:
        plan->enc = PD_ENC_REVERSED;
        break;
    case PD_CAESAR:
        plan->enc = PD_ENC_CAESAR;
        plan->shift = caesar_shift(s, c->start, c->end);
        break;
    case PD_WIDE:
        plan->enc = PD_ENC_WIDE;
        break;
    case PD_A85:
        plan->enc = PD_ENC_A85;
        break;
    case PD_B85:
        plan->enc = PD_ENC_B85; /* the alphabet is the probe's choice */
        break;
    default:
        plan->enc = PD_ENC_ESC;
        break;
    }
}

size_t pu_bound(const pd_plan *p) {
    size_t span = p->to > p->from ? p->to - p->from : 0;
    switch (p->enc) {
    case PD_ENC_ESC:
    case PD_ENC_PCT:
    case PD_ENC_ENT:
        return span * 2 + 4; /* \u escapes of astral characters: 6 bytes -> 4 */
    case PD_ENC_A85:
        return span * 4 + 4; /* 'z' is four bytes */
    case PD_ENC_B85:
        return span + 4;
    default:
        return span + 4;
    }
}

/* Reverse by code points, so reversed UTF-8 text stays valid. */
static size_t decode_reversed(const unsigned char *s, size_t from, size_t to, obuf *o) {
    size_t i = to;
    while (i > from && !o->full) {
        size_t k = i - 1;
        while (k > from && (s[k] & 0xC0) == 0x80 && i - k < 4)
            k--;
        for (size_t m = k; m < i; m++)
            put_byte(o, s[m]);
        i = k;
    }
    return o->n;
}

size_t pu_decode(const char *text, const pd_plan *p, uint8_t *out, size_t cap, bool *truncated) {
    const unsigned char *s = (const unsigned char *)text;
    obuf o = {out, 0, cap, false};
    switch (p->enc) {
    case PD_ENC_ESC:
    case PD_ENC_XESC:
        decode_esc(s, p->from, p->to, &o);
        break;
    case PD_ENC_PCT:
        decode_pct(s, p->from, p->to, p->plus_space, &o);
        break;
    case PD_ENC_ENT:
        decode_ent(s, p->from, p->to, &o);
        break;
    case PD_ENC_CODES:
        decode_codes(s, p->from, p->to, p->hex_codes, p->bin_codes, p->oct_codes, &o);
        break;
    case PD_ENC_JOIN:
        decode_join(s, p->from, p->to, &o);
        break;
    case PD_ENC_ROT13:
        for (size_t i = p->from; i < p->to && !o.full; i++)
            put_byte(&o, rot13(s[i]));
        break;
    case PD_ENC_REVERSED:
        decode_reversed(s, p->from, p->to, &o);
        break;
    case PD_ENC_CAESAR:
        for (size_t i = p->from; i < p->to && !o.full; i++)
            put_byte(&o, shift_letter(s[i], (26u - p->shift % 26u) % 26u));
        break;
    case PD_ENC_A85:
        decode_a85(s, p->from, p->to, PD_B85_ASCII85, &o);
        break;
    case PD_ENC_B85:
        decode_a85(s, p->from, p->to, p->alpha, &o);
        break;
    case PD_ENC_WIDE:
        for (size_t i = p->from; i < p->to && !o.full;) {
            uint32_t cp = 0;
            size_t l = wide_at(s, p->to, i, &cp);
            if (l > 0) {
                put_byte(&o, (unsigned char)cp);
                i += l;
            } else {
                put_byte(&o, s[i++]);
            }
        }
        break;
    default:
        break;
    }
    *truncated = o.full;
    return o.n;
}
