/*
 * Name keys (see skeleton.h): the style key that makes case and separator
 * variants meet, and the confusable skeleton that makes look-alike names
 * meet. The look-alike table is deliberately small: the letters that can
 * stand in for ASCII letters inside an identifier, which is where tool names
 * live. Compatibility forms (fullwidth, mathematical alphanumerics, ℓ, roman
 * numerals) come from utf8proc's compatibility decomposition.
 */
#include "skeleton.h"

#include <string.h>
#include <utf8proc.h>

#include "mcpvet/common.h"

typedef struct confusable {
    uint32_t cp;
    char ascii;
} confusable;

/* Sorted by code point (binary search). Each entry is a letter that renders
 * like the ASCII letter in common fonts. */
static const confusable k_confusables[] = {
    {0x0131, 'i'}, /* dotless i */
    {0x01C0, 'l'}, /* dental click */
    {0x0237, 'j'}, /* dotless j */
    {0x0251, 'a'}, /* Latin alpha */
    {0x0261, 'g'}, /* script g */
    {0x0269, 'i'}, /* Latin iota */
    {0x026A, 'i'}, /* small capital I */
    {0x037F, 'J'}, /* Greek capital yot */
    {0x0391, 'A'}, {0x0392, 'B'}, {0x0395, 'E'}, {0x0396, 'Z'}, {0x0397, 'H'}, {0x0399, 'I'},
    {0x039A, 'K'}, {0x039C, 'M'}, {0x039D, 'N'}, {0x039F, 'O'}, {0x03A1, 'P'}, {0x03A4, 'T'},
    {0x03A5, 'Y'}, {0x03A7, 'X'}, {0x03B1, 'a'}, /* alpha */
    {0x03B3, 'y'},                               /* gamma */
    {0x03B9, 'i'},                               /* iota */
    {0x03BA, 'k'},                               /* kappa */
    {0x03BD, 'v'},                               /* nu */
    {0x03BF, 'o'},                               /* omicron */
    {0x03C1, 'p'},                               /* rho */
    {0x03C4, 't'},                               /* tau */
    {0x03C5, 'u'},                               /* upsilon */
    {0x03C7, 'x'},                               /* chi */
    {0x03F2, 'c'},                               /* lunate sigma */
    {0x03F3, 'j'},                               /* yot */
    {0x03F9, 'C'},                               /* capital lunate sigma */
    {0x0405, 'S'}, {0x0406, 'I'}, {0x0408, 'J'}, {0x0410, 'A'}, {0x0412, 'B'}, {0x0415, 'E'},
    {0x041A, 'K'}, {0x041C, 'M'}, {0x041D, 'H'}, {0x041E, 'O'}, {0x0420, 'P'}, {0x0421, 'C'},
    {0x0422, 'T'}, {0x0423, 'Y'}, {0x0425, 'X'}, {0x0430, 'a'}, {0x0435, 'e'}, {0x043E, 'o'},
    {0x0440, 'p'}, {0x0441, 'c'}, {0x0443, 'y'}, {0x0445, 'x'}, {0x0455, 's'}, {0x0456, 'i'},
    {0x0458, 'j'}, {0x04AE, 'Y'}, {0x04BB, 'h'}, {0x04C0, 'I'}, {0x04CF, 'l'}, {0x0501, 'd'},
    {0x051A, 'Q'}, {0x051B, 'q'}, {0x051C, 'W'}, {0x051D, 'w'}, {0x0570, 'h'}, /* Armenian ho */
    {0x0578, 'n'},                                                             /* Armenian vo */
    {0x057D, 'u'},                                                             /* Armenian seh */
    {0x0585, 'o'},                                                             /* Armenian oh */
};

static int lookup_confusable(uint32_t cp) {
    size_t lo = 0, hi = sizeof(k_confusables) / sizeof(k_confusables[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k_confusables[mid].cp == cp)
            return (unsigned char)k_confusables[mid].ascii;
        if (k_confusables[mid].cp < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Characters that render as nothing: they vanish from the skeleton. */
static bool is_invisible(uint32_t cp) {
    if (cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0)
        return true;
    if ((cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF))
        return true;
    return utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_CF;
}

/* Dashes that imitate the ASCII hyphen separator. */
static bool is_dash(uint32_t cp) {
    return (cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212 || cp == 0xFE63;
}

static bool is_separator(unsigned char c) {
    return c == '_' || c == '-' || c == '.' || c == ' ';
}

static bool is_lower(unsigned char c) {
    return c >= 'a' && c <= 'z';
}

static bool is_upper(unsigned char c) {
    return c >= 'A' && c <= 'Z';
}

static bool is_alpha(unsigned char c) {
    return is_lower(c) || is_upper(c);
}

typedef struct out_buf {
    char *p;
    size_t len;
    bool overflow;
} out_buf;

static void put_byte(out_buf *o, char c) {
    if (o->len >= MV_NAME_KEY_MAX) {
        o->overflow = true;
        return;
    }
    o->p[o->len++] = c;
}

static void put_cp(out_buf *o, uint32_t cp) {
    utf8proc_uint8_t tmp[4];
    utf8proc_ssize_t n = utf8proc_encode_char((utf8proc_int32_t)cp, tmp);
    for (utf8proc_ssize_t i = 0; i < n; i++)
        put_byte(o, (char)tmp[i]);
}

typedef void (*mark_fn)(void *ctx, uint32_t offset, uint32_t len, uint32_t cp);

/*
 * First pass: fold every non-ASCII character to what it imitates, keeping
 * case. A character counts as a look-alike (mark_fn is called) when it was
 * dropped or came out as pure ASCII; characters that stay non-ASCII (CJK,
 * accented letters whose decomposition keeps the accent) are not marks.
 */
static void fold_chars(out_buf *o, const char *name, size_t len, mark_fn mark, void *ctx) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x80) {
            put_byte(o, (char)c);
            i++;
            continue;
        }
        utf8proc_int32_t cp = 0;
        utf8proc_ssize_t n =
            utf8proc_iterate((const utf8proc_uint8_t *)name + i, (utf8proc_ssize_t)(len - i), &cp);
        if (n <= 0) {
            put_byte(o, (char)c); /* invalid byte: kept, never meets ASCII */
            i++;
            continue;
        }
        uint32_t ucp = (uint32_t)cp;
        bool ascii_only = true;
        if (is_invisible(ucp)) {
            /* dropped */
        } else if (is_dash(ucp)) {
            put_byte(o, '-');
        } else {
            int conf = lookup_confusable(ucp);
            if (conf >= 0) {
                put_byte(o, (char)conf);
            } else {
                utf8proc_int32_t seq[32];
                int bound = 0;
                utf8proc_ssize_t k = utf8proc_decompose_char(
                    cp, seq, 32, (utf8proc_option_t)(UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT), &bound);
                if (k <= 0 || k > 32) {
                    seq[0] = cp;
                    k = 1;
                }
                for (utf8proc_ssize_t j = 0; j < k; j++) {
                    uint32_t d = (uint32_t)seq[j];
                    int dc = d < 0x80 ? (int)d : lookup_confusable(d);
                    if (dc >= 0) {
                        put_byte(o, (char)dc);
                    } else if (is_dash(d)) {
                        put_byte(o, '-');
                    } else if (!is_invisible(d)) {
                        put_cp(o, d);
                        ascii_only = false;
                    }
                }
            }
        }
        if (ascii_only && mark != NULL)
            mark(ctx, (uint32_t)i, (uint32_t)n, ucp);
        i += (size_t)n;
    }
}

int mv_name_style_key(char *out, size_t *out_len, const char *s, size_t len) {
    out_buf o = {out, 0, false};
    for (size_t i = 0; i < len && !o.overflow; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_separator(c))
            continue;
        put_byte(&o, (char)(is_upper(c) ? c + ('a' - 'A') : c));
    }
    *out_len = o.overflow ? 0 : o.len;
    return o.overflow ? MV_ELIMIT : 0;
}

int mv_name_skeleton(char *out, size_t *out_len, const char *name, size_t len,
                     bool capital_i_as_l) {
    char folded[MV_NAME_KEY_MAX];
    out_buf f = {folded, 0, false};
    int rc = 0;
    *out_len = 0;
    fold_chars(&f, name, len, NULL, NULL);
    if (f.overflow) {
        rc = MV_ELIMIT;
        goto done;
    }
    /* Case, digits and separators; then "rn" -> "m" and "vv" -> "w" in place. */
    size_t n = 0;
    for (size_t i = 0; i < f.len; i++) {
        unsigned char c = (unsigned char)folded[i];
        if (is_separator(c))
            continue;
        if (c == 'I')
            c = capital_i_as_l ? 'l' : 'i';
        else if (is_upper(c))
            c = (unsigned char)(c + ('a' - 'A'));
        if (c == '0')
            c = 'o';
        else if (c == '1')
            c = 'l';
        out[n++] = (char)c;
    }
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] == 'r' && i + 1 < n && out[i + 1] == 'n') {
            out[w++] = 'm';
            i++;
        } else if (out[i] == 'v' && i + 1 < n && out[i + 1] == 'v') {
            out[w++] = 'w'; /* "vv" reads as "w": get_vveather */
            i++;
        } else {
            out[w++] = out[i];
        }
    }
    *out_len = w;
done:
    return rc;
}

static bool all_ascii(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] >= 0x80)
            return false;
    return true;
}

bool mv_name_has_capital_i(const char *name, size_t len) {
    if (all_ascii(name, len))
        return memchr(name, 'I', len) != NULL; /* folding leaves ASCII alone */
    char folded[MV_NAME_KEY_MAX];
    out_buf f = {folded, 0, false};
    fold_chars(&f, name, len, NULL, NULL);
    return memchr(folded, 'I', f.len) != NULL;
}

static void note_mark(mv_name_marks *m, uint32_t offset, uint32_t len, uint32_t cp) {
    if (m->first_offset == UINT32_MAX || offset < m->first_offset) {
        m->first_offset = offset;
        m->first_len = len;
        m->first_cp = cp;
    }
}

static void on_nonascii_mark(void *ctx, uint32_t offset, uint32_t len, uint32_t cp) {
    mv_name_marks *m = ctx;
    m->nonascii++;
    m->score += MV_MARK_NONASCII;
    note_mark(m, offset, len, cp);
}

void mv_name_marks_of(mv_name_marks *out, const char *name, size_t len) {
    memset(out, 0, sizeof(*out));
    out->first_offset = UINT32_MAX;
    if (!all_ascii(name, len)) {
        char folded[MV_NAME_KEY_MAX];
        out_buf f = {folded, 0, false};
        fold_chars(&f, name, len, on_nonascii_mark, out);
    }

    const unsigned char *s = (const unsigned char *)name;
    bool snake = memchr(name, '_', len) != NULL || memchr(name, '-', len) != NULL;
    size_t uppers = 0;
    for (size_t i = 0; i < len; i++)
        uppers += is_upper(s[i]);
    size_t letters = 0; /* ASCII letters immediately before position i */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        bool next_alpha = i + 1 < len && is_alpha(s[i + 1]);
        bool next_end = i + 1 >= len || is_separator(s[i + 1]);
        if ((c == '0' || c == '1') && letters >= 2 && (next_alpha || (next_end && letters >= 3))) {
            /* a digit inside a word, not a version suffix like v1 or s3 */
            out->digits++;
            out->score += MV_MARK_DIGIT;
            note_mark(out, (uint32_t)i, 1, c);
        } else if (c == 'I' && i > 0 && is_lower(s[i - 1]) && i + 1 < len && is_lower(s[i + 1]) &&
                   (snake || uppers == 1)) {
            /* an upper-case I where the name's style has no humps */
            out->capital_i++;
            out->score += MV_MARK_CAPITAL_I;
            note_mark(out, (uint32_t)i, 1, c);
        } else if ((c == 'r' && i + 1 < len && s[i + 1] == 'n') ||
                   (c == 'v' && i + 1 < len && s[i + 1] == 'v')) {
            /* letter pairs that read as one letter: rn as m, vv as w */
            out->rn++;
            out->score += MV_MARK_RN;
            note_mark(out, (uint32_t)i, 2, c);
        }
        letters = is_alpha(c) ? letters + 1 : 0;
    }
}

bool mv_name_is_identifier(const char *name, size_t len) {
    if (len < 3)
        return false;
    const unsigned char *s = (const unsigned char *)name;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9'))
            return true;
        if (i > 0 && is_lower(s[i - 1]) && is_upper(c))
            return true;
    }
    return false;
}

mv_name_style mv_name_style_of(const char *name, size_t len) {
    const unsigned char *s = (const unsigned char *)name;
    size_t upper = 0, lower = 0, underscores = 0, hyphens = 0, spaces = 0;
    bool irregular = len == 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c >= 0x80)
            return MV_STYLE_OTHER;
        upper += is_upper(c);
        lower += is_lower(c);
        underscores += c == '_';
        hyphens += c == '-';
        spaces += c == ' ';
        if (is_separator(c) && (i == 0 || i + 1 == len || is_separator(s[i - 1])))
            irregular = true; /* leading, trailing or doubled */
    }
    size_t kinds = (underscores > 0) + (hyphens > 0) + (spaces > 0);
    size_t seps = underscores + hyphens + spaces;
    if (irregular || kinds > 1 || (seps > 0 && upper > 0 && lower > 0))
        return MV_STYLE_IRREGULAR;
    if (seps > 0)
        return upper > 0 ? MV_STYLE_UPPER
                         : (hyphens > 0 || spaces > 0 ? MV_STYLE_KEBAB : MV_STYLE_SNAKE);
    if (len > 0 && is_upper(s[0]))
        return MV_STYLE_UPPER;
    if (upper > 0)
        return MV_STYLE_CAMEL;
    return memchr(name, '.', len) != NULL ? MV_STYLE_SNAKE : MV_STYLE_FLAT;
}

int mv_name_style_rank(mv_name_style style) {
    switch (style) {
    case MV_STYLE_IRREGULAR:
        return 0;
    case MV_STYLE_UPPER:
        return 1;
    case MV_STYLE_KEBAB:
    case MV_STYLE_CAMEL:
        return 2;
    default:
        return 3;
    }
}
