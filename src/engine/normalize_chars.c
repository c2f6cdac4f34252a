/*
 * Code-point tables of the normalizer: ignorable characters, quote
 * unification, whitespace classes, Latin letters and Latin look-alikes.
 * The tables are deliberately small and explicit: every entry is a decision
 * a reviewer can check against the code chart. Only called for non-ASCII
 * text, so a binary search is plenty fast.
 */
#include "normalize_chars.h"

#include <stddef.h>
#include <utf8proc.h>

bool mv_normchar_ignorable(uint32_t cp) {
    bool result = false;
    if (cp > 0x10FFFF) {
        result = false;
    } else {
        const utf8proc_property_t *p = utf8proc_get_property((utf8proc_int32_t)cp);
        /* utf8proc's ignorable bit is Default_Ignorable_Code_Point for
         * assigned characters (soft hyphen, CGJ, variation selectors, Hangul
         * fillers); unassigned default-ignorable ranges are listed here so a
         * future Unicode version cannot smuggle text past the view. */
        result = p->category == UTF8PROC_CATEGORY_CF || p->ignorable || cp == 0x2065 ||
                 (cp >= 0xFFF0 && cp <= 0xFFF8) || (cp >= 0xE0000 && cp <= 0xE0FFF);
    }
    return result;
}

uint32_t mv_normchar_quote(uint32_t cp) {
    uint32_t result = cp;
    switch (cp) {
    case 0x0060: /* ` grave accent (also markdown code spans) */
    case 0x00B4: /* ´ acute accent */
    case 0x02BC: /* ʼ modifier letter apostrophe */
    case 0x2018: /* ‘ */
    case 0x2019: /* ’ */
    case 0x201A: /* ‚ */
    case 0x201B: /* ‛ */
    case 0x2032: /* ′ prime */
    case 0x2035: /* ‵ reversed prime */
    case 0xFF07: /* ＇ fullwidth apostrophe */
        result = '\'';
        break;
    case 0x00AB: /* « */
    case 0x00BB: /* » */
    case 0x201C: /* “ */
    case 0x201D: /* ” */
    case 0x201E: /* „ */
    case 0x201F: /* ‟ */
    case 0x2033: /* ″ double prime */
    case 0x2036: /* ‶ reversed double prime */
    case 0x2039: /* ‹ single guillemets: quotes, never apostrophes */
    case 0x203A: /* › */
    case 0x300C: /* 「 */
    case 0x300D: /* 」 */
    case 0x300E: /* 『 */
    case 0x300F: /* 』 */
    case 0x301D: /* 〝 */
    case 0x301E: /* 〞 */
    case 0x301F: /* 〟 */
    case 0xFF02: /* ＂ fullwidth quotation mark */
        result = '"';
        break;
    default:
        break;
    }
    return result;
}

int mv_normchar_space(uint32_t cp) {
    int result = 0;
    if (cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
        result = '\n';
    } else if (cp < 0xA0) {
        result = cp >= 0x80 ? ' ' : 0; /* C1 controls become a space */
    } else if (cp <= 0x10FFFF) {
        utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
        if (cat == UTF8PROC_CATEGORY_ZS) {
            result = ' ';
        } else if (cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP) {
            result = '\n';
        } else if (cat == UTF8PROC_CATEGORY_CC) {
            result = ' ';
        }
    }
    return result;
}

bool mv_normchar_is_wordchar(uint32_t cp) {
    bool result = false;
    if (cp < 0x80) {
        result = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    } else if (cp <= 0x10FFFF) {
        utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
        result = (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_ME);
    }
    return result;
}

bool mv_normchar_is_latin(uint32_t cp) {
    bool result = false;
    if (cp < 0x80) {
        result = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
    } else if ((cp >= 0x00C0 && cp <= 0x02AF) || /* Latin-1 letters .. IPA */
               (cp >= 0x1D00 && cp <= 0x1D7F) || /* phonetic extensions, small capitals */
               (cp >= 0x1E00 && cp <= 0x1EFF) || /* Latin extended additional */
               (cp >= 0x2C60 && cp <= 0x2C7F) || (cp >= 0xA720 && cp <= 0xA7FF) ||
               (cp >= 0xAB30 && cp <= 0xAB6F)) {
        utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);
        result = cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
    }
    return result;
}

/* Look-alikes after case folding. Capital forms fold to these lowercase
 * letters first, so the twin is chosen by what the capital looks like when
 * the lowercase does not resemble anything (Cyrillic "в" from "В" -> 'b',
 * "н" from "Н" -> 'h'); Greek "ν" and "υ" keep their lowercase twins 'v'
 * and 'u' because lowercase substitution is the common trick. */
typedef struct confusable {
    uint32_t cp;
    char latin;
} confusable;

static const confusable CONFUSABLES[] = {
    {0x0131, 'i'}, /* ı dotless i */
    {0x0237, 'j'}, /* ȷ dotless j */
    {0x0251, 'a'}, /* ɑ latin alpha */
    {0x0261, 'g'}, /* ɡ script g */
    {0x0262, 'g'}, /* ɢ small capital g */
    {0x0269, 'i'}, /* ɩ latin iota */
    {0x026A, 'i'}, /* ɪ small capital i */
    {0x0274, 'n'}, /* ɴ small capital n */
    {0x0280, 'r'}, /* ʀ small capital r */
    {0x028F, 'y'}, /* ʏ small capital y */
    {0x0299, 'b'}, /* ʙ small capital b */
    {0x029C, 'h'}, /* ʜ small capital h */
    {0x029F, 'l'}, /* ʟ small capital l */
    {0x03B1, 'a'}, /* α */
    {0x03B2, 'b'}, /* β (Β) */
    {0x03B3, 'y'}, /* γ */
    {0x03B5, 'e'}, /* ε (Ε) */
    {0x03B6, 'z'}, /* ζ (Ζ) */
    {0x03B7, 'h'}, /* η (Η) */
    {0x03B9, 'i'}, /* ι (Ι) */
    {0x03BA, 'k'}, /* κ (Κ) */
    {0x03BC, 'm'}, /* μ (Μ) */
    {0x03BD, 'v'}, /* ν */
    {0x03BF, 'o'}, /* ο (Ο) */
    {0x03C1, 'p'}, /* ρ (Ρ) */
    {0x03C4, 't'}, /* τ (Τ) */
    {0x03C5, 'u'}, /* υ */
    {0x03C7, 'x'}, /* χ (Χ) */
    {0x03C9, 'w'}, /* ω */
    {0x03F2, 'c'}, /* ϲ lunate sigma */
    {0x03F3, 'j'}, /* ϳ yot */
    {0x0430, 'a'}, /* а */
    {0x0432, 'b'}, /* в (В) */
    {0x0433, 'r'}, /* г */
    {0x0435, 'e'}, /* е */
    {0x043A, 'k'}, /* к (К) */
    {0x043C, 'm'}, /* м (М) */
    {0x043D, 'h'}, /* н (Н) */
    {0x043E, 'o'}, /* о */
    {0x0440, 'p'}, /* р */
    {0x0441, 'c'}, /* с */
    {0x0442, 't'}, /* т (Т) */
    {0x0443, 'y'}, /* у */
    {0x0445, 'x'}, /* х */
    {0x044C, 'b'}, /* ь */
    {0x0455, 's'}, /* ѕ */
    {0x0456, 'i'}, /* і */
    {0x0458, 'j'}, /* ј */
    {0x0461, 'w'}, /* ѡ */
    {0x0475, 'v'}, /* ѵ */
    {0x04BB, 'h'}, /* һ */
    {0x04CF, 'l'}, /* ӏ palochka */
    {0x0501, 'd'}, /* ԁ */
    {0x051B, 'q'}, /* ԛ */
    {0x051D, 'w'}, /* ԝ */
    {0x0566, 'q'}, /* զ armenian */
    {0x0570, 'h'}, /* հ */
    {0x0578, 'n'}, /* ո */
    {0x057D, 'u'}, /* ս */
    {0x0581, 'g'}, /* ց */
    {0x0585, 'o'}, /* օ */
    {0x1D00, 'a'}, /* ᴀ small capitals */
    {0x1D04, 'c'}, /* ᴄ */
    {0x1D05, 'd'}, /* ᴅ */
    {0x1D07, 'e'}, /* ᴇ */
    {0x1D0A, 'j'}, /* ᴊ */
    {0x1D0B, 'k'}, /* ᴋ */
    {0x1D0D, 'm'}, /* ᴍ */
    {0x1D0F, 'o'}, /* ᴏ */
    {0x1D18, 'p'}, /* ᴘ */
    {0x1D1B, 't'}, /* ᴛ */
    {0x1D1C, 'u'}, /* ᴜ */
    {0x1D20, 'v'}, /* ᴠ */
    {0x1D21, 'w'}, /* ᴡ */
    {0x1D22, 'z'}, /* ᴢ */
    {0xA731, 's'}, /* ꜱ small capital s */
};

char mv_normchar_confusable(uint32_t cp) {
    size_t lo = 0;
    size_t hi = sizeof(CONFUSABLES) / sizeof(CONFUSABLES[0]);
    char result = 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (CONFUSABLES[mid].cp == cp) {
            result = CONFUSABLES[mid].latin;
            break;
        }
        if (CONFUSABLES[mid].cp < cp) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return result;
}
