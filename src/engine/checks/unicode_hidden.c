/*
 * unicode.hidden (hard): invisible or direction-changing characters smuggled
 * into any scanned string. Runs on the RAW field text, never the normalized
 * view (normalization deletes exactly what this check looks for).
 *
 * Every code point that can hide or reorder text is a "candidate" of one of
 * twelve classes (zero-width, bidi control, bidi mark, TAG, private use,
 * variation selector, invisible filler, control, terminal escape, line
 * separator, other invisible format, unassigned). A candidate is then judged
 * by the base characters around it, because most of these characters have
 * honest uses that depend on context:
 *
 *   ZWJ        legit inside an emoji ZWJ sequence (pictograph/modifier/VS16
 *              before, pictograph after) or next to a letter/mark of a
 *              joining or Brahmic script (Arabic, Syriac, Mongolian, N'Ko,
 *              Devanagari ... Sinhala, Myanmar, Khmer...).
 *   ZWNJ       legit next to a joining/Brahmic-script letter (Persian
 *              "می‌خواهم", "API‌ها", Bengali, Malayalam...).
 *   ZWSP, WJ   legit next to a letter/mark of a script written without spaces
 *              (Thai, Lao, Khmer, Myanmar, Tibetan, CJK...).
 *   BOM        legit as the very first character of prose, or as a whole
 *              machine value; never in front of a name or value.
 *   LRM/RLM/ALM  legit with a right-to-left letter within 64 characters
 *              (inside RTL text or at an RTL/LTR boundary); three or more in
 *              a row never are.
 *   LRE/RLE/LRI/RLI/FSI/PDF/PDI  legit only as balanced pairs with RTL text
 *              inside or within 64 characters; LRO/RLO (Trojan Source) never.
 *   TAG        legit only in an emoji subdivision flag: U+1F3F4, a 3-6
 *              character tag subdivision id, CANCEL TAG (England, Scotland...).
 *   VS15/VS16  legit once after a pictograph, any So/Sm symbol (which covers
 *              the standardized emoji/text variants such as ™ ➡ ↔) or a keycap
 *              base 0-9 # * followed by U+20E3. VS1-VS3 legit once after a
 *              math or other symbol, a Han ideograph, CJK punctuation, Myanmar,
 *              Phags-pa or Manichaean letters and digit zero (the standardized
 *              variants). VS17-VS256 legit once after a Han ideograph
 *              (ideographic variation sequences) -- unless the selectors of
 *              the field read as text, which turns Han text into a carrier
 *              of one byte per ideograph. Mongolian FVS legit after a
 *              Mongolian letter. A selector after anything else, or after
 *              another selector, is a byte channel.
 *   Soft hyphen legit between two letters. CGJ legit before a combining mark.
 *   Hangul fillers legit only inside a conjoining jamo syllable; blank
 *              Braille legit next to other Braille patterns.
 *   Tab/LF/CR  legit everywhere except tool and property names.
 *   NBSP, narrow NBSP, thin and other spaces are not candidates at all.
 *
 * Weak classes -- zero-width, bidi marks, a single private-use glyph, a soft
 * hyphen -- appear in honest text as copy-paste debris (a trailing ZWSP, an
 * LRM from a web page, an icon-font glyph). A lone one in prose (title,
 * description, schema description, annotation) that neither splits a word
 * (word characters on both sides) nor touches another hidden character can
 * neither hide a message nor break a keyword, so it becomes an INFO signal
 * ("stray") that is reported but never changes a verdict. In identifiers and
 * machine values (tool name, property names, defaults/enums/examples) an
 * invisible character changes what the value is, so nothing is tolerated.
 *
 * One signal per class per field, with the count, the first occurrence's raw
 * offset/length and ~40 bytes of raw context (the engine escapes it). TAG,
 * variation-selector and private-use carriers and two-symbol zero-width runs
 * are decoded; a printable message escalates (critical) and becomes the
 * evidence. Three or more distinct classes in one tool also escalate.
 * Threat: tool_poisoning throughout (hidden content in a tool definition is
 * the definition of it); the decoded message shows what it was for.
 *
 * ASCII fields -- nearly all of them -- are rejected by one word-at-a-time
 * scan; fields without candidates are decoded once without allocating.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

#include "mcpvet/check.h"
#include "mcpvet/evidence.h"

/* ------------------------------------------------------------ classes */

enum {
    HC_ZERO_WIDTH = 0,
    HC_BIDI_CONTROL,
    HC_BIDI_MARK,
    HC_TAG,
    HC_PRIVATE_USE,
    HC_VARIATION,
    HC_FILLER,
    HC_CONTROL,
    HC_ESCAPE,
    HC_LINE_SEP,
    HC_FORMAT,
    HC_UNASSIGNED,
    HC_COUNT,
    HC_NONE = 0xFF
};

typedef struct class_info {
    const char *what; /* plural noun phrase for the detail sentence */
    double confidence;
} class_info;

static const class_info classes[HC_COUNT] = {
    [HC_ZERO_WIDTH] = {"zero-width character(s) splitting words or identifiers, in runs, or "
                       "outside emoji and joining-script text",
                       0.92},
    [HC_BIDI_CONTROL] = {"bidi override/embedding/isolate control(s) outside balanced "
                         "right-to-left use",
                         0.95},
    [HC_BIDI_MARK] = {"bidi mark(s) (LRM/RLM/ALM) inside words, in runs or away from "
                      "right-to-left text",
                      0.9},
    [HC_TAG] = {"Unicode TAG character(s) outside an emoji flag", 0.97},
    [HC_PRIVATE_USE] = {"private-use code point(s)", 0.9},
    [HC_VARIATION] = {"variation selector(s) not attached to an emoji or a base with "
                      "standardized variants",
                      0.93},
    [HC_FILLER] = {"invisible filler letter(s) (Hangul filler, blank Braille, Khmer inherent "
                   "vowel)",
                   0.95},
    [HC_CONTROL] = {"C0/C1 control character(s)", 0.93},
    [HC_ESCAPE] = {"ANSI/terminal escape sequence(s)", 0.97},
    [HC_LINE_SEP] = {"Unicode line/paragraph separator(s)", 0.9},
    [HC_FORMAT] = {"invisible format character(s) (soft hyphen outside a word, grapheme "
                   "joiner, invisible operator, annotation control)",
                   0.9},
    [HC_UNASSIGNED] = {"unassigned or noncharacter code point(s)", 0.9},
};

/* Judgement of one code point. */
enum {
    ST_PLAIN = 0, /* not a candidate, or not judged yet */
    ST_LEGIT,     /* candidate in a legitimate context */
    ST_WEAK,      /* weak candidate out of context: stray or suspect, decided last */
    ST_STRAY,     /* lone weak candidate at a word boundary in prose: INFO */
    ST_SUSPECT,   /* hidden character: hard signal */
    ST_INNER      /* body of a terminal escape sequence (counted with its head) */
};

typedef struct ucp {
    int32_t cp;   /* -1 for an invalid byte */
    uint32_t off; /* raw byte offset */
    uint32_t end; /* escape heads: index one past the sequence */
    uint8_t len;  /* raw byte length */
    uint8_t cls;  /* candidate class or HC_NONE */
    uint8_t st;
} ucp;

/* Limits. */
#define UH_HITS_MAX 64u         /* hit records per tool (signals are capped lower by the engine) */
#define UH_MSG_MAX 160u         /* decoded bytes kept for evidence */
#define UH_CONTEXT 40u          /* raw bytes of context each side of a hit */
#define UH_RTL_WINDOW 64u       /* code points searched for RTL text around a bidi mark */
#define UH_BIDI_DEPTH 64u       /* nesting of bidi embeddings/isolates tracked */
#define UH_ESC_STRING_MAX 4096u /* code points of an OSC/DCS string before it is cut */
#define UH_ZW_BINARY_MIN 32u    /* zero-width run length worth decoding as bits */

/* ------------------------------------------------------ script tables */

typedef struct range {
    int32_t lo, hi;
} range;

static bool in_ranges(const range *r, size_t n, int32_t cp) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < r[mid].lo)
            hi = mid;
        else if (cp > r[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* Scripts whose orthography uses ZWJ/ZWNJ: cursive joining scripts (Arabic,
 * Syriac, Mandaic, N'Ko, Mongolian, Phags-pa, Manichaean, Psalter Pahlavi,
 * Hanifi Rohingya, Sogdian/Old Uyghur/Chorasmian, Adlam) and Brahmic scripts
 * (Devanagari to Sinhala, Tibetan, Myanmar, Philippine scripts, Khmer,
 * Limbu...Tai Tham, Balinese...Lepcha, Vedic, Syloti Nagri, Saurashtra,
 * Javanese, Cham, Meetei Mayek, the historic Brahmic block 11000-11DAF,
 * Kawi). Ranges are whole blocks, sorted and disjoint (binary search). */
static const range joining_scripts[] = {
    {0x0600, 0x06FF},   {0x0700, 0x074F},   {0x0750, 0x077F},   {0x07C0, 0x07FF},
    {0x0840, 0x085F},   {0x0860, 0x086F},   {0x0870, 0x08FF},   {0x0900, 0x0DFF},
    {0x0F00, 0x109F},   {0x1700, 0x17FF},   {0x1800, 0x18AF},   {0x1900, 0x1AAF},
    {0x1B00, 0x1C4F},   {0x1CD0, 0x1CFF},   {0xA800, 0xA82F},   {0xA840, 0xA87F},
    {0xA880, 0xA8FF},   {0xA900, 0xAA7F},   {0xAAE0, 0xAAFF},   {0xABC0, 0xABFF},
    {0xFB50, 0xFDFF},   {0xFE70, 0xFEFE},   {0x10AC0, 0x10AFF}, {0x10B80, 0x10BAF},
    {0x10D00, 0x10D3F}, {0x10EC0, 0x10EFF}, {0x10F30, 0x10FFF}, {0x11000, 0x11DAF},
    {0x11F00, 0x11F5F}, {0x1E900, 0x1E95F},
};

/* Scripts written without spaces between words, where ZWSP/WJ mark word
 * or line-break boundaries: Thai, Lao, Tibetan, Myanmar, Khmer, Tai Le, New
 * Tai Lue, Khmer symbols, Tai Tham, Balinese, CJK radicals...Katakana,
 * Bopomofo, CJK ideographs, Javanese, Myanmar extensions, Tai Viet, CJK
 * compatibility, halfwidth Katakana, supplementary ideographs. Sorted. */
static const range nospace_scripts[] = {
    {0x0E00, 0x0EFF}, {0x0F00, 0x0FFF}, {0x1000, 0x109F},   {0x1780, 0x17FF}, {0x1950, 0x19FF},
    {0x1A20, 0x1AAF}, {0x1B00, 0x1B7F}, {0x2E80, 0x2FDF},   {0x3040, 0x30FF}, {0x3100, 0x312F},
    {0x31A0, 0x31FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},   {0xA980, 0xA9FF}, {0xAA60, 0xAADF},
    {0xF900, 0xFAFF}, {0xFF65, 0xFF9F}, {0x20000, 0x3FFFF},
};

/* Bases that have standardized VS1-VS3 variants besides math symbols: Han
 * ideographs (CJK compatibility variants), CJK and fullwidth punctuation,
 * Myanmar, Phags-pa, Manichaean. Sorted. */
static const range vs_low_bases[] = {
    {0x1000, 0x109F}, {0x3000, 0x303F},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA840, 0xA877}, {0xA9E0, 0xA9FF},   {0xAA60, 0xAA7F},   {0xF900, 0xFAFF},
    {0xFF00, 0xFF60}, {0x10AC0, 0x10AFF}, {0x20000, 0x3FFFF},
};

/* Han ideographs: the only bases of ideographic variation sequences. */
static const range han[] = {
    {0x3400, 0x4DBF},
    {0x4E00, 0x9FFF},
    {0xF900, 0xFAFF},
    {0x20000, 0x3FFFF},
};

#define N_RANGES(t) (sizeof(t) / sizeof((t)[0]))

/* ------------------------------------------------- character predicates */

static int cat_of(int32_t cp) {
    return cp < 0 ? UTF8PROC_CATEGORY_CN : (int)utf8proc_category(cp);
}

static bool is_letter(int32_t cp) {
    if (cp >= 0 && cp < 0x80)
        return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
    int c = cat_of(cp);
    return c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO;
}

static bool is_mark(int32_t cp) {
    int c = cat_of(cp);
    return c >= UTF8PROC_CATEGORY_MN && c <= UTF8PROC_CATEGORY_ME;
}

static bool is_letter_or_mark(int32_t cp) {
    return is_letter(cp) || is_mark(cp);
}

/* Characters that belong to a word or identifier: letters, marks, numbers,
 * connector punctuation ("_"). */
static bool is_word(int32_t cp) {
    if (cp >= 0 && cp < 0x80)
        return (cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') || cp == '_';
    int c = cat_of(cp);
    return c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_PC;
}

static bool is_symbol(int32_t cp) {
    int c = cat_of(cp);
    return c == UTF8PROC_CATEGORY_SM || c == UTF8PROC_CATEGORY_SO;
}

static bool is_pictographic(int32_t cp) {
    if (cp < 0xA9)
        return false;
    int bc = utf8proc_get_property(cp)->boundclass;
    return bc == UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC || bc == UTF8PROC_BOUNDCLASS_E_ZWG;
}

static bool is_skin_tone(int32_t cp) {
    return cp >= 0x1F3FB && cp <= 0x1F3FF;
}

static bool is_rtl(int32_t cp) {
    /* Gate on the blocks that hold R/AL characters before the table lookup:
     * Hebrew..NKo..Arabic extended, presentation forms, the SMP RTL blocks. */
    if (cp < 0x590 || (cp > 0x8FF && cp < 0xFB1D) || (cp > 0xFEFE && cp < 0x10800) ||
        (cp > 0x10FFF && cp < 0x1E800) || cp > 0x1EFFF || cp == 0x61C)
        return false; /* (U+061C ALM is class AL itself: never its own context) */
    int b = utf8proc_get_property(cp)->bidi_class;
    return b == UTF8PROC_BIDI_CLASS_R || b == UTF8PROC_BIDI_CLASS_AL;
}

static bool is_mongolian_letter(int32_t cp) {
    return (cp >= 0x1820 && cp <= 0x18AA) || (cp >= 0x11660 && cp <= 0x1167F);
}

static bool is_braille_pattern(int32_t cp) {
    return cp >= 0x2801 && cp <= 0x28FF;
}

static bool is_keycap_base(int32_t cp) {
    return (cp >= '0' && cp <= '9') || cp == '#' || cp == '*';
}

static bool is_zw_bit(int32_t cp) {
    return cp == 0x200B || cp == 0x200C || cp == 0x200D || cp == 0x2060 || cp == 0xFEFF;
}

static bool is_bidi_opener(int32_t cp) {
    return (cp >= 0x202A && cp <= 0x202E && cp != 0x202C) || (cp >= 0x2066 && cp <= 0x2068);
}

static bool is_paragraph_break(int32_t cp) {
    return cp == '\n' || cp == '\r' || cp == 0x2029 || cp == 0x85 || (cp >= 0x1C && cp <= 0x1E);
}

/* Candidate class of a code point, before context. `ids`: the field is a
 * tool or property name, where even tab/LF/CR are out of place. */
static uint8_t classify(int32_t cp, bool ids) {
    if (cp < 0)
        return HC_NONE; /* invalid byte: not a character at all; the model rejects these */
    if (cp < 0x80) {
        if (cp == 0x1B)
            return HC_ESCAPE;
        if (cp == 0x7F)
            return HC_CONTROL;
        if (cp >= 0x20)
            return HC_NONE;
        if (!ids && (cp == '\t' || cp == '\n' || cp == '\r'))
            return HC_NONE;
        return HC_CONTROL;
    }
    if (cp < 0xA0)
        return (cp == 0x9B || cp == 0x9D || cp == 0x90 || cp == 0x98 || cp == 0x9E || cp == 0x9F)
                   ? HC_ESCAPE
                   : HC_CONTROL;
    if (cp < 0x2000) {
        if (cp == 0xAD || cp == 0x34F)
            return HC_FORMAT;
        if (cp == 0x61C)
            return HC_BIDI_MARK;
        if (cp == 0x115F || cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5)
            return HC_FILLER;
        if (cp == 0x180E)
            return HC_ZERO_WIDTH;
        if ((cp >= 0x180B && cp <= 0x180D) || cp == 0x180F)
            return HC_VARIATION;
        return HC_NONE;
    }
    if (cp <= 0x206F) {
        if (cp <= 0x200D)
            return cp >= 0x200B ? HC_ZERO_WIDTH : HC_NONE;
        if (cp <= 0x200F)
            return HC_BIDI_MARK;
        if (cp == 0x2028 || cp == 0x2029)
            return HC_LINE_SEP;
        if (cp >= 0x202A && cp <= 0x202E)
            return HC_BIDI_CONTROL;
        if (cp == 0x2060)
            return HC_ZERO_WIDTH;
        if (cp >= 0x2061 && cp <= 0x2064)
            return HC_FORMAT;
        if (cp == 0x2065)
            return HC_UNASSIGNED;
        if (cp >= 0x2066 && cp <= 0x2069)
            return HC_BIDI_CONTROL;
        if (cp >= 0x206A)
            return HC_FORMAT; /* deprecated shaping/swapping controls */
        return HC_NONE;
    }
    if (cp < 0xE000)
        return (cp == 0x2800 || cp == 0x3164) ? HC_FILLER : HC_NONE;
    if (cp <= 0xF8FF)
        return HC_PRIVATE_USE;
    if (cp < 0xFDD0)
        return HC_NONE;
    if (cp <= 0xFDEF)
        return HC_UNASSIGNED;
    if ((cp & 0xFFFE) == 0xFFFE)
        return HC_UNASSIGNED; /* U+xFFFE / U+xFFFF noncharacters, every plane */
    if (cp < 0x10000) {
        if (cp >= 0xFE00 && cp <= 0xFE0F)
            return HC_VARIATION;
        if (cp == 0xFEFF)
            return HC_ZERO_WIDTH;
        if (cp == 0xFFA0)
            return HC_FILLER;
        if (cp >= 0xFFF0 && cp <= 0xFFF8)
            return HC_UNASSIGNED;
        if (cp >= 0xFFF9 && cp <= 0xFFFB)
            return HC_FORMAT;
        return HC_NONE;
    }
    if (cp < 0x40000) {
        if ((cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A))
            return HC_FORMAT;
        return HC_NONE;
    }
    if (cp < 0xE0000)
        return HC_UNASSIGNED; /* planes 4-13 have no assigned characters */
    if (cp <= 0xE007F)
        return HC_TAG;
    if (cp >= 0xE0100 && cp <= 0xE01EF)
        return HC_VARIATION;
    if (cp < 0xF0000)
        return HC_UNASSIGNED; /* rest of plane 14: reserved default-ignorables */
    return HC_PRIVATE_USE;    /* planes 15 and 16 */
}

/* ------------------------------------------------------------- decoding */

/* Strict UTF-8: returns the length, or 1 with *cp = -1 for an invalid byte. */
static uint32_t utf8_next(const unsigned char *s, size_t n, int32_t *cp) {
    unsigned char b = s[0];
    int32_t c;
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    if (b >= 0xC2 && b < 0xE0 && n >= 2 && (s[1] & 0xC0) == 0x80) {
        *cp = ((int32_t)(b & 0x1F) << 6) | (s[1] & 0x3F);
        return 2;
    }
    if (b >= 0xE0 && b < 0xF0 && n >= 3 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        c = ((int32_t)(b & 0x0F) << 12) | ((int32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF)) {
            *cp = c;
            return 3;
        }
    }
    if (b >= 0xF0 && b < 0xF5 && n >= 4 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 &&
        (s[3] & 0xC0) == 0x80) {
        c = ((int32_t)(b & 0x07) << 18) | ((int32_t)(s[1] & 0x3F) << 12) |
            ((int32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        if (c >= 0x10000 && c <= 0x10FFFF) {
            *cp = c;
            return 4;
        }
    }
    *cp = -1;
    return 1;
}

/* True when any byte is >= 0x80, DEL, or a control other than an allowed
 * tab/LF/CR. Eight bytes at a time: the common all-ASCII field costs one
 * pass of a few operations per word. */
static bool needs_scan(const unsigned char *s, size_t n, bool allow_ws) {
    const uint64_t ones = 0x0101010101010101ull;
    const uint64_t highs = 0x8080808080808080ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t del = w ^ (ones * 0x7F);
        /* high bit, byte < 0x20, byte == 0x7F (exact as a whole-word test) */
        uint64_t hit =
            (w & highs) | ((w - ones * 0x20) & ~w & highs) | ((del - ones) & ~del & highs);
        if (hit == 0)
            continue;
        for (size_t k = i; k < i + 8; k++) {
            unsigned char b = s[k];
            if (b >= 0x7F || (b < 0x20 && !(allow_ws && (b == '\t' || b == '\n' || b == '\r'))))
                return true;
        }
    }
    for (; i < n; i++) {
        unsigned char b = s[i];
        if (b >= 0x7F || (b < 0x20 && !(allow_ws && (b == '\t' || b == '\n' || b == '\r'))))
            return true;
    }
    return false;
}

/* ------------------------------------------------------ field analysis */

typedef struct field_ctx {
    ucp *u;
    uint32_t n;
    bool ids;               /* tool/property name: tab/LF/CR are controls too */
    bool strict;            /* identifiers and machine values: nothing is tolerated */
    uint32_t *rtl;          /* prefix counts of RTL letters (n+1), NULL when none */
    const unsigned char *s; /* the raw bytes the code points were read from */
    size_t len;
} field_ctx;

static int32_t cp_at(const field_ctx *f, int64_t i) {
    return (i < 0 || i >= (int64_t)f->n) ? -1 : f->u[i].cp;
}

static uint8_t cls_at(const field_ctx *f, int64_t i) {
    return (i < 0 || i >= (int64_t)f->n) ? HC_NONE : f->u[i].cls;
}

/* RTL letters among code points [lo, hi). */
static bool rtl_between(const field_ctx *f, int64_t lo, int64_t hi) {
    if (f->rtl == NULL)
        return false;
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)f->n)
        hi = f->n;
    return lo < hi && f->rtl[hi] > f->rtl[lo];
}

/* Parse the terminal escape starting at `i` (ESC or a C1 introducer) and
 * return one past its end; *term gets the terminator length (BEL, ST). */
static uint32_t escape_end(const field_ctx *f, uint32_t i, uint32_t *term) {
    const ucp *u = f->u;
    uint32_t n = f->n;
    uint32_t j = i + 1;
    bool csi = false;
    *term = 0;
    if (u[i].cp == 0x1B) {
        if (j >= n)
            return j;
        int32_t d = u[j].cp;
        if (d == '[') {
            csi = true;
            j++;
        } else if (d == ']' || d == 'P' || d == 'X' || d == '^' || d == '_') {
            j++;
        } else if (d >= 0x20 && d <= 0x7E) {
            /* two-or-more-byte escape: intermediates then a final byte */
            while (j < n && u[j].cp >= 0x20 && u[j].cp <= 0x2F)
                j++;
            if (j < n && u[j].cp >= 0x30 && u[j].cp <= 0x7E)
                j++;
            return j;
        } else {
            return j; /* a bare ESC */
        }
    } else {
        csi = u[i].cp == 0x9B;
    }
    if (csi) {
        while (j < n && u[j].cp >= 0x30 && u[j].cp <= 0x3F)
            j++;
        while (j < n && u[j].cp >= 0x20 && u[j].cp <= 0x2F)
            j++;
        if (j < n && u[j].cp >= 0x40 && u[j].cp <= 0x7E)
            j++;
        return j;
    }
    /* OSC/DCS/SOS/PM/APC string, ended by BEL or ST; cut at a cap. */
    while (j < n && j - i < UH_ESC_STRING_MAX) {
        int32_t d = u[j].cp;
        if (d == 0x07 || d == 0x9C) {
            *term = 1;
            return j + 1;
        }
        if (d == 0x1B) {
            if (j + 1 < n && u[j + 1].cp == '\\') {
                *term = 2;
                return j + 2;
            }
            return j; /* another escape begins */
        }
        j++;
    }
    return j;
}

/* Round 18 (quiet18): is the sequence [i, end) one colour code given in
 * parentheses as the example of the escapes the text names just before
 * ("strips ANSI escape sequences (ESC[31m etc.)", "ANSI-escape-
 * последовательности (ESC[31m и т.п.)")? A mention, not a use: one SGR
 * parameter other than 8 (conceal) hides nothing, and the parenthesis
 * closes on a few words. */
static bool named_escape_example(const field_ctx *f, uint32_t i, uint32_t end) {
    const ucp *u = f->u;
    uint32_t params = 0;
    int32_t val = 0;
    if (f->strict || end < i + 4 || u[i].cp != 0x1B || u[i + 1].cp != '[' || u[end - 1].cp != 'm') {
        return false;
    }
    for (uint32_t k = i + 2; k + 1 < end; k++) {
        if (u[k].cp < '0' || u[k].cp > '9' || val > 200) {
            return false;
        }
        val = val * 10 + (u[k].cp - '0');
        params = 1;
    }
    if (!params || val == 8) {
        return false;
    }
    size_t o = u[i].off;
    size_t c = u[end - 1].off + 1;
    while (o > 0 && f->s[o - 1] == ' ') {
        o--;
    }
    if (o == 0 || f->s[o - 1] != '(') {
        return false;
    }
    bool closed = false;
    for (size_t k = c; k < f->len && k < c + 32 && !closed; k++) {
        closed = f->s[k] == ')';
        if (f->s[k] == 0x1B || f->s[k] == '(') {
            return false;
        }
    }
    if (!closed) {
        return false;
    }
    size_t lo = o > 48 ? o - 48 : 0;
    for (size_t k = lo; k + 4 <= o; k++) {
        if (((f->s[k] | 0x20) == 'a' && (f->s[k + 1] | 0x20) == 'n' &&
             (f->s[k + 2] | 0x20) == 's' && (f->s[k + 3] | 0x20) == 'i') ||
            (k + 6 <= o && (f->s[k] | 0x20) == 'e' && (f->s[k + 1] | 0x20) == 's' &&
             (f->s[k + 2] | 0x20) == 'c' && (f->s[k + 3] | 0x20) == 'a' &&
             (f->s[k + 4] | 0x20) == 'p' && (f->s[k + 5] | 0x20) == 'e')) {
            return true;
        }
    }
    return false;
}

static void mark_escapes(field_ctx *f) {
    for (uint32_t i = 0; i < f->n; i++) {
        ucp *c = &f->u[i];
        if (c->cls != HC_ESCAPE || c->st != ST_PLAIN)
            continue;
        uint32_t term = 0;
        uint32_t end = escape_end(f, i, &term);
        if (named_escape_example(f, i, end)) {
            c->st = ST_LEGIT;
            i = end - 1;
            continue;
        }
        c->st = ST_SUSPECT;
        c->end = end;
        for (uint32_t k = i + 1; k < end; k++) {
            ucp *b = &f->u[k];
            /* Terminators and plain bytes belong to the sequence; any other
             * hidden character inside keeps its own class. */
            if (k >= end - term || b->cls == HC_NONE) {
                b->cls = HC_ESCAPE;
                b->st = ST_INNER;
            }
        }
        i = end - 1;
    }
}

/* Emoji subdivision flags: U+1F3F4, a subdivision id in tag characters
 * (two tag letters for the region, then 1-4 tag letters/digits: "gbeng"),
 * CANCEL TAG. */
static void mark_flag_tags(field_ctx *f) {
    for (uint32_t i = 0; i + 1 < f->n; i++) {
        if (f->u[i].cp != 0x1F3F4)
            continue;
        uint32_t j = i + 1;
        while (j < f->n && j - i <= 7 &&
               ((j - i > 2 && f->u[j].cp >= 0xE0030 && f->u[j].cp <= 0xE0039) ||
                (f->u[j].cp >= 0xE0061 && f->u[j].cp <= 0xE007A)))
            j++;
        uint32_t k = j - i - 1;
        if (j < f->n && f->u[j].cp == 0xE007F && k >= 3 && k <= 6) {
            for (uint32_t m = i + 1; m <= j; m++)
                f->u[m].st = ST_LEGIT;
            i = j;
        }
    }
}

static bool isalnum_ascii(unsigned char b) {
    return (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'z');
}

/* Round 11: an isolate (LRI, RLI or FSI ... PDI) around a short run with
 * no letter (a price "₪ 199", a phone number, a date) in a field that
 * names right-to-left text or bidi isolates: the way an RTL formatter
 * keeps a number whole inside Hebrew or Arabic prose, and shows it in its
 * own documentation. With no letter inside there is no word to reorder or
 * hide; an isolate around letters, an override, or one in a field about
 * something else stays suspect. */
static bool isolated_number(const field_ctx *f, uint32_t o, uint32_t c) {
    static const char *const topic[] = {
        "rtl",   "right-to-left", "right to left", "bidi",     "isolate",   "lri",   "rli",
        "fsi",   "pdi",           "hebrew",        "arabic",   "persian",   "farsi", "urdu",
        "עברית", "العربية",       "从右到左",      "右から左", "오른쪽에서"};
    bool digit = false;
    if (f->s == NULL || c <= o + 1 || c - o > 33)
        return false;
    for (uint32_t k = o + 1; k < c; k++) {
        if (is_letter(f->u[k].cp) || f->u[k].cls != HC_NONE)
            return false;
        digit = digit || (f->u[k].cp >= '0' && f->u[k].cp <= '9');
    }
    if (!digit)
        return false;
    for (size_t t = 0; t < sizeof(topic) / sizeof(topic[0]); t++) {
        size_t tn = strlen(topic[t]);
        for (size_t k = 0; k + tn <= f->len; k++) {
            size_t m = 0;
            while (m < tn && (f->s[k + m] | ((unsigned char)topic[t][m] < 0x80 ? 0x20 : 0)) ==
                                 (unsigned char)topic[t][m])
                m++;
            if (m == tn && (k == 0 || !isalnum_ascii(f->s[k - 1])) &&
                (k + tn == f->len || !isalnum_ascii(f->s[k + tn])))
                return true;
        }
    }
    return false;
}

/* Balanced embeddings/isolates with RTL text inside or nearby are legit;
 * everything else stays unjudged and becomes suspect. Overrides never pair
 * up as legit. */
static void mark_bidi_pairs(field_ctx *f) {
    uint32_t stack[UH_BIDI_DEPTH];
    uint32_t sp = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        int32_t cp = f->u[i].cp;
        if (is_paragraph_break(cp)) {
            sp = 0;
        } else if (is_bidi_opener(cp) && f->u[i].cls == HC_BIDI_CONTROL) {
            if (sp < UH_BIDI_DEPTH)
                stack[sp++] = i;
        } else if (cp == 0x202C || cp == 0x2069) {
            bool isolate = cp == 0x2069;
            int64_t k = (int64_t)sp - 1;
            /* PDI closes the innermost isolate (and whatever is open inside
             * it); PDF closes only an embedding/override on top. */
            while (k >= 0 && isolate && f->u[stack[k]].cp < 0x2066)
                k--;
            if (k < 0 || (!isolate && f->u[stack[k]].cp >= 0x2066))
                continue;
            uint32_t o = stack[k];
            sp = (uint32_t)k;
            int32_t ocp = f->u[o].cp;
            if (ocp == 0x202D || ocp == 0x202E)
                continue;
            if (rtl_between(f, (int64_t)o - UH_RTL_WINDOW, (int64_t)i + 1 + UH_RTL_WINDOW) ||
                (isolate && isolated_number(f, o, i))) {
                f->u[o].st = ST_LEGIT;
                f->u[i].st = ST_LEGIT;
            }
        }
    }
}

static uint8_t judge_zero_width(const field_ctx *f, uint32_t i) {
    int32_t cp = f->u[i].cp;
    int32_t p = cp_at(f, (int64_t)i - 1), q = cp_at(f, (int64_t)i + 1);
    bool p_clear = cls_at(f, (int64_t)i - 1) == HC_NONE;
    bool q_clear = cls_at(f, (int64_t)i + 1) == HC_NONE;
    /* A byte order mark opens prose, or is a whole value (a "write a BOM"
     * default); in front of an identifier or a value it changes identity. */
    if (cp == 0xFEFF && i == 0 && (!f->strict || (!f->ids && f->n == 1)))
        return ST_LEGIT;
    if (cp == 0x200D && i > 0) {
        const ucp *pc = &f->u[i - 1];
        bool prev_emoji = is_pictographic(p) || is_skin_tone(p) || p == 0x20E3 ||
                          ((p == 0xFE0F || p == 0xE007F) && pc->st == ST_LEGIT);
        if (prev_emoji && is_pictographic(q))
            return ST_LEGIT;
    }
    if (cp == 0x200C || cp == 0x200D) {
        bool p_join =
            is_letter_or_mark(p) && in_ranges(joining_scripts, N_RANGES(joining_scripts), p);
        bool q_join =
            is_letter_or_mark(q) && in_ranges(joining_scripts, N_RANGES(joining_scripts), q);
        if ((p_join && q_clear) || (q_join && p_clear))
            return ST_LEGIT;
    }
    if (cp == 0x200B || cp == 0x2060) {
        bool p_ns =
            is_letter_or_mark(p) && in_ranges(nospace_scripts, N_RANGES(nospace_scripts), p);
        bool q_ns =
            is_letter_or_mark(q) && in_ranges(nospace_scripts, N_RANGES(nospace_scripts), q);
        if ((p_ns && q_clear) || (q_ns && p_clear))
            return ST_LEGIT;
    }
    if (cp == 0x180E && is_mongolian_letter(p) && is_mongolian_letter(q))
        return ST_LEGIT;
    return ST_WEAK;
}

static uint8_t judge_variation(const field_ctx *f, uint32_t i) {
    int32_t cp = f->u[i].cp;
    int32_t p = cp_at(f, (int64_t)i - 1);
    /* After nothing, after another selector or any hidden character: a run,
     * never a standardized sequence. */
    if (i == 0 || f->u[i - 1].cls != HC_NONE)
        return ST_SUSPECT;
    if (cp == 0xFE0E || cp == 0xFE0F) {
        if (is_pictographic(p) || is_symbol(p))
            return ST_LEGIT;
        if (is_keycap_base(p) && cp_at(f, (int64_t)i + 1) == 0x20E3)
            return ST_LEGIT;
    } else if (cp >= 0xFE00 && cp <= 0xFE02) {
        if (p == '0' || is_symbol(p) || in_ranges(vs_low_bases, N_RANGES(vs_low_bases), p))
            return ST_LEGIT;
    } else if (cp >= 0xE0100 && cp <= 0xE01EF) {
        if (in_ranges(han, N_RANGES(han), p))
            return ST_LEGIT;
    } else if (cp >= 0x180B && cp <= 0x180F) {
        if (is_mongolian_letter(p))
            return ST_LEGIT;
    }
    return ST_SUSPECT;
}

static uint8_t judge_filler(const field_ctx *f, uint32_t i) {
    int32_t cp = f->u[i].cp;
    int32_t p = cp_at(f, (int64_t)i - 1), q = cp_at(f, (int64_t)i + 1);
    if (cp == 0x115F) /* choseong filler: only before a real vowel jamo */
        return ((q >= 0x1161 && q <= 0x11A7) || (q >= 0xD7B0 && q <= 0xD7C6)) ? ST_LEGIT
                                                                              : ST_SUSPECT;
    if (cp == 0x1160) /* jungseong filler: only after a real leading consonant */
        return ((p >= 0x1100 && p <= 0x115E) || (p >= 0xA960 && p <= 0xA97C)) ? ST_LEGIT
                                                                              : ST_SUSPECT;
    return ST_SUSPECT;
}

/* A run of blank Braille is legit when Braille patterns border it. */
static uint32_t judge_braille_run(field_ctx *f, uint32_t i) {
    uint32_t e = i;
    while (e < f->n && f->u[e].cp == 0x2800)
        e++;
    bool ok = is_braille_pattern(cp_at(f, (int64_t)i - 1)) || is_braille_pattern(cp_at(f, e));
    for (uint32_t k = i; k < e; k++)
        f->u[k].st = ok ? ST_LEGIT : ST_SUSPECT;
    return e;
}

static uint8_t judge_bidi_mark(const field_ctx *f, uint32_t i) {
    if (!rtl_between(f, (int64_t)i - UH_RTL_WINDOW, (int64_t)i + 1 + UH_RTL_WINDOW))
        return ST_WEAK;
    /* Honest RTL text never needs three marks in a row. */
    int run = 1;
    for (int64_t k = (int64_t)i - 1; k >= 0 && k >= (int64_t)i - 2; k--) {
        if (f->u[k].cls != HC_BIDI_MARK)
            break;
        run++;
    }
    for (int64_t k = (int64_t)i + 1; k < (int64_t)f->n && k <= (int64_t)i + 2; k++) {
        if (f->u[k].cls != HC_BIDI_MARK)
            break;
        run++;
    }
    return run >= 3 ? ST_SUSPECT : ST_LEGIT;
}

static uint8_t judge_format(const field_ctx *f, uint32_t i) {
    int32_t cp = f->u[i].cp;
    int32_t p = cp_at(f, (int64_t)i - 1), q = cp_at(f, (int64_t)i + 1);
    if (cp == 0xAD) /* soft hyphen: a hyphenation point between two letters */
        return (is_letter_or_mark(p) && is_letter(q)) ? ST_LEGIT : ST_WEAK;
    if (cp == 0x34F) /* grapheme joiner: blocks reordering of a following mark */
        return (is_letter_or_mark(p) && is_mark(q)) ? ST_LEGIT : ST_SUSPECT;
    return ST_SUSPECT;
}

static void judge_all(field_ctx *f) {
    for (uint32_t i = 0; i < f->n; i++) {
        ucp *c = &f->u[i];
        if (c->cls == HC_NONE || c->st != ST_PLAIN)
            continue;
        switch (c->cls) {
        case HC_ZERO_WIDTH:
            c->st = judge_zero_width(f, i);
            break;
        case HC_VARIATION:
            c->st = judge_variation(f, i);
            break;
        case HC_FILLER:
            if (c->cp == 0x2800)
                i = judge_braille_run(f, i) - 1;
            else
                c->st = judge_filler(f, i);
            break;
        case HC_BIDI_MARK:
            c->st = judge_bidi_mark(f, i);
            break;
        case HC_FORMAT:
            c->st = judge_format(f, i);
            break;
        case HC_PRIVATE_USE:
            c->st = ST_WEAK;
            break;
        default: /* controls, escapes, unpaired bidi controls, TAGs, separators... */
            c->st = ST_SUSPECT;
            break;
        }
    }
}

static bool hiddenish(const field_ctx *f, int64_t i) {
    if (i < 0 || i >= (int64_t)f->n)
        return false;
    uint8_t st = f->u[i].st;
    return f->u[i].cls != HC_NONE && st != ST_LEGIT && st != ST_PLAIN;
}

/* Nearest code point in direction `dir` that is not a legitimately attached
 * candidate (VS16 of an emoji, a joiner...), or -1 at the edge. */
static int32_t base_near(const field_ctx *f, int64_t i, int dir) {
    int64_t j = i + dir;
    while (j >= 0 && j < (int64_t)f->n && f->u[j].cls != HC_NONE && f->u[j].st == ST_LEGIT)
        j += dir;
    return cp_at(f, j);
}

#define UH_QUOTE_REACH 40u /* bytes from a documented example to its quotes */
#define UH_NAME_REACH 160u /* bytes from a documented example to its code point */

static bool quote_byte(unsigned char b) {
    return b == '"' || b == '\'' || b == '`';
}

/* A zero-width character shown as a documented example: inside quotes on
 * its line ("pass<ZWSP>word") and its code point spelled out near it
 * ("reports U+200B at index 4") in a field about invisible characters, as
 * an invisible-character scanner writes its own documentation. Splitting the word is then the
 * example's point: the character is a stray (review, hard with any other signal), not a broken
 * keyword. */
static bool documented_example(const field_ctx *f, uint32_t i) {
    const ucp *c = &f->u[i];
    if (f->s == NULL || c->cp > 0xFFFF)
        return false;
    size_t at = c->off, end = (size_t)c->off + c->len;
    bool before = false, after = false, colon = false;
    for (size_t k = at; k > 0 && at - k < UH_QUOTE_REACH && !before; k--) {
        if (f->s[k - 1] == '\n')
            break;
        before = quote_byte(f->s[k - 1]);
        /* round 10: a sample after a colon on its line ("inserts ZWSP
         * (U+200B): 스마트<ZWSP>홈") is shown like a quoted one (below:
         * only between non-Latin letters) */
        colon = colon || f->s[k - 1] == ':';
    }
    for (size_t k = end; k < f->len && k - end < UH_QUOTE_REACH && !after; k++) {
        if (f->s[k] == '\n')
            break;
        after = quote_byte(f->s[k]);
    }
    /* the colon form only between letters of scripts written without a
     * Latin keyword to hide (a line-break hint between Hangul or CJK
     * characters); a Latin word split after a colon stays hard */
    if (colon && !(at > 0 && f->s[at - 1] >= 0x80 && end < f->len && f->s[end] >= 0x80))
        colon = false;
    if ((!before || !after) && !colon)
        return false;
    char want[7];
    static const char hex[] = "0123456789ABCDEF";
    want[0] = 'U';
    want[1] = '+';
    for (int d = 0; d < 4; d++)
        want[2 + d] = hex[(c->cp >> (12 - 4 * d)) & 0xF];
    /* The field is about invisible characters. */
    /* round 10: the topic in the languages of directive_world.rules */
    static const char *const topic[] = {
        "invisible",      "zero width", "zero-width",   "hidden character", "unicode",
        "zwsp",           "zwj",        "zwnj",         "unsichtbar",       "invisibl",
        "nicht sichtbar", "onzichtba",  "osynlig",      "niewidoczn",       "neviditeln",
        "невидим",        "görünmez",   "tak terlihat", "vô hình",          "不可见",
        "看不见",         "見えない",   "不可視",       "보이지 않",        "줄바꿈"};
    bool about = false;
    for (size_t t = 0; t < sizeof(topic) / sizeof(topic[0]) && !about; t++) {
        size_t tn = strlen(topic[t]);
        for (size_t k = 0; k + tn <= f->len && !about; k++) {
            size_t m = 0;
            while (m < tn && (f->s[k + m] | 0x20) == (unsigned char)topic[t][m])
                m++;
            about = m == tn;
        }
    }
    if (!about)
        return false;
    size_t lo = at > UH_NAME_REACH ? at - UH_NAME_REACH : 0;
    size_t hi = end + UH_NAME_REACH < f->len ? end + UH_NAME_REACH : f->len;
    for (size_t k = lo; k + 6 <= hi; k++) {
        size_t m = 0;
        while (m < 6) {
            unsigned char b = f->s[k + m];
            if (b >= 'a' && b <= 'f')
                b = (unsigned char)(b - 32);
            if (b == 'u')
                b = 'U';
            if (b != (unsigned char)want[m])
                break;
            m++;
        }
        if (m == 6)
            return true;
    }
    return false;
}

/* Round 7: bidi controls shown as a documented example. Every suspect bidi
 * control of the field stands inside a short `code span` on its line, and
 * the field spells out bidi code points or names the attack ("U+202E",
 * "bidi", "Trojan Source"), as a bidi checker documents what it finds. A
 * span of at most UH_SPAN_MAX bytes has no room for a reordered order;
 * the controls become strays: review, and hard when any other check
 * agrees. Controls outside a code span, or in a field that does not
 * document them, stay hard. */
#define UH_SPAN_MAX 120u

static bool span_around(const field_ctx *f, size_t at) {
    size_t ticks = 0, open = 0;
    size_t k = at;
    while (k > 0 && f->s[k - 1] != '\n') {
        if (f->s[k - 1] == '`') {
            if (ticks++ == 0)
                open = k - 1;
        }
        k--;
    }
    if (ticks % 2 == 0)
        return false;
    for (size_t e = at; e < f->len && f->s[e] != '\n'; e++)
        if (f->s[e] == '`')
            return e - open <= UH_SPAN_MAX;
    return false;
}

/* Round 12: or inside a short quoted sample on its line ('invoice<RLO>
 * exe.pdf', "report<RLO>fdp.exe"), as a bidi cleaner shows the file names
 * it unmasks: the quotes open after a non-word byte and close before one,
 * at most UH_QUOTE_REACH bytes either side of the control. */
static bool quoted_around(const field_ctx *f, size_t at) {
    for (size_t k = at; k > 0 && at - k < UH_QUOTE_REACH; k--) {
        unsigned char q = f->s[k - 1];
        if (q == '\n')
            return false;
        if (q != '"' && q != '\'')
            continue;
        if (k >= 2 && isalnum_ascii(f->s[k - 2]))
            return false; /* an apostrophe ("it's") */
        for (size_t e = at; e < f->len && e - at < UH_QUOTE_REACH && f->s[e] != '\n'; e++)
            if (f->s[e] == q)
                return e + 1 >= f->len || !isalnum_ascii(f->s[e + 1]);
        return false;
    }
    return false;
}

static bool documents_bidi(const field_ctx *f) {
    static const char *const cue[] = {"u+202", "u+206", "bidi", "trojan source", "trojan-source"};
    for (size_t c = 0; c < sizeof(cue) / sizeof(cue[0]); c++) {
        size_t cn = strlen(cue[c]);
        for (size_t k = 0; k + cn <= f->len; k++) {
            size_t m = 0;
            while (m < cn && (f->s[k + m] | 0x20) == (unsigned char)cue[c][m])
                m++;
            if (m == cn)
                return true;
        }
    }
    return false;
}

static void documented_bidi(field_ctx *f) {
    bool any = false;
    if (f->strict || f->s == NULL)
        return;
    for (uint32_t i = 0; i < f->n; i++) {
        const ucp *c = &f->u[i];
        if (c->cls != HC_BIDI_CONTROL || c->st != ST_SUSPECT)
            continue;
        if (!span_around(f, c->off) && !quoted_around(f, c->off))
            return;
        any = true;
    }
    if (!any || !documents_bidi(f))
        return;
    for (uint32_t i = 0; i < f->n; i++)
        if (f->u[i].cls == HC_BIDI_CONTROL && f->u[i].st == ST_SUSPECT)
            f->u[i].st = ST_STRAY;
}

/* Round 12: a zero-width character shown right after its own name, alone
 * between brackets or quotes ("ZWNJ (<ZWNJ>)", "zero-width space
 * '<ZWSP>'", "U+200D \"<ZWJ>\""): a font or shaping test naming what it
 * exercises. One character carries nothing; a run, or a name farther than
 * UH_OWN_NAME_REACH bytes before the opening mark, stays judged. */
#define UH_OWN_NAME_REACH 24u
static bool named_sample(const field_ctx *f, uint32_t i) {
    const ucp *c = &f->u[i];
    static const struct {
        int32_t cp;
        const char *name;
    } names[] = {{0x200B, "zwsp"},
                 {0x200B, "zero width space"},
                 {0x200B, "zero-width space"},
                 {0x200C, "zwnj"},
                 {0x200C, "non-joiner"},
                 {0x200C, "non joiner"},
                 {0x200D, "zwj"},
                 {0x200D, "zero width joiner"},
                 {0x200D, "zero-width joiner"},
                 {0x2060, "word joiner"},
                 {0xFEFF, "bom"},
                 {0x00AD, "soft hyphen"}};
    if (f->s == NULL || c->off == 0 || (size_t)c->off + c->len >= f->len)
        return false;
    unsigned char open = f->s[c->off - 1], close = f->s[c->off + c->len];
    if (!((open == '(' && close == ')') || (open == '[' && close == ']') ||
          ((open == '"' || open == '\'' || open == '`') && close == open)))
        return false;
    size_t at = c->off - 1;
    size_t lo = at > UH_OWN_NAME_REACH ? at - UH_OWN_NAME_REACH : 0;
    char hexname[7] = {'u', '+', 0, 0, 0, 0, 0};
    static const char hex[] = "0123456789abcdef";
    for (int d = 0; d < 4; d++)
        hexname[2 + d] = hex[(c->cp >> (12 - 4 * d)) & 0xF];
    for (size_t k = lo; k < at; k++) {
        for (size_t t = 0; t <= sizeof(names) / sizeof(names[0]); t++) {
            const char *w = t < sizeof(names) / sizeof(names[0]) ? names[t].name : hexname;
            if (t < sizeof(names) / sizeof(names[0]) && names[t].cp != c->cp)
                continue;
            size_t wn = strlen(w), m = 0;
            while (m < wn && k + m < at && (f->s[k + m] | 0x20) == (unsigned char)w[m])
                m++;
            if (m == wn && c->cp <= 0xFFFF)
                return true;
        }
    }
    return false;
}

/* Weak candidates: a lone one at a word boundary in prose is a stray. */
static void settle_weak(field_ctx *f) {
    for (uint32_t i = 0; i < f->n; i++) {
        ucp *c = &f->u[i];
        if (c->st != ST_WEAK)
            continue;
        bool run = hiddenish(f, (int64_t)i - 1) || hiddenish(f, (int64_t)i + 1);
        bool splits = is_word(base_near(f, i, -1)) && is_word(base_near(f, i, +1));
        if (splits && !f->strict && !run && c->cls == HC_ZERO_WIDTH && documented_example(f, i))
            splits = false;
        if (!f->strict && !run && named_sample(f, i)) {
            c->st = ST_LEGIT;
            continue;
        }
        c->st = (f->strict || run || splits) ? ST_SUSPECT : ST_STRAY;
    }
    /* Legit zero-width/selector/mark characters touching a suspect one of
     * the same class join its run (so a binary channel decodes whole). */
    for (uint32_t i = 1; i < f->n; i++) {
        ucp *c = &f->u[i];
        if (c->st == ST_LEGIT && f->u[i - 1].st == ST_SUSPECT && f->u[i - 1].cls == c->cls &&
            (c->cls == HC_ZERO_WIDTH || c->cls == HC_VARIATION || c->cls == HC_BIDI_MARK))
            c->st = ST_SUSPECT;
    }
    for (uint32_t i = f->n; i-- > 1;) {
        ucp *c = &f->u[i - 1];
        if (c->st == ST_LEGIT && f->u[i].st == ST_SUSPECT && f->u[i].cls == c->cls &&
            (c->cls == HC_ZERO_WIDTH || c->cls == HC_VARIATION || c->cls == HC_BIDI_MARK))
            c->st = ST_SUSPECT;
    }
}

/* ------------------------------------------------------------ messages */

/* Mostly printable text: >= 4 characters, >= 85% visible (or whitespace),
 * valid UTF-8, and at least two letters. */
static bool printable_message(const unsigned char *b, size_t len) {
    size_t total = 0, ok = 0, letters = 0;
    size_t i = 0;
    while (i < len) {
        int32_t cp;
        uint32_t k = utf8_next(b + i, len - i, &cp);
        total++;
        if (cp >= 0 && (mv_evidence_is_visible(cp) || cp == '\t' || cp == '\n' || cp == '\r'))
            ok++;
        if (cp >= 0 && is_letter(cp))
            letters++;
        i += k;
    }
    return total >= 4 && ok * 100 >= total * 85 && letters >= 2;
}

typedef struct hit {
    uint32_t field;
    uint8_t cls;
    bool info;      /* tolerated strays only */
    bool decoded;   /* msg holds a decoded message */
    uint32_t count; /* occurrences (escape sequences count once) */
    uint32_t units; /* carrier characters decoded */
    uint32_t off;   /* raw offset/length of the first occurrence or decoded run */
    uint32_t len;
    uint32_t msg_len;
    char msg[UH_MSG_MAX];
} hit;

static void keep_message(hit *h, const unsigned char *b, size_t len, uint32_t units) {
    size_t n = len < UH_MSG_MAX ? len : UH_MSG_MAX;
    if (n < len)
        while (n > 0 && (b[n] & 0xC0) == 0x80)
            n--; /* cut on a character boundary */
    memcpy(h->msg, b, n);
    h->msg_len = (uint32_t)n;
    h->decoded = true;
    h->units = units;
}

/* Raw span of the suspect run of class `cls` that starts at index i. */
static void run_span(const field_ctx *f, uint32_t i, uint32_t *off, uint32_t *len) {
    const ucp *u = f->u;
    uint32_t e = i + 1;
    if (u[i].cls == HC_ESCAPE)
        e = u[i].end > i ? u[i].end : i + 1;
    else
        while (e < f->n && u[e].st == ST_SUSPECT && u[e].cls == u[i].cls)
            e++;
    *off = u[i].off;
    *len = u[e - 1].off + u[e - 1].len - u[i].off;
}

/* Decode the carriers of class `cls` in field order into buf; returns the
 * byte count and the number of carrier characters. */
static size_t decode_class(const field_ctx *f, uint8_t cls, unsigned char *buf, uint32_t *units) {
    size_t k = 0;
    *units = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        const ucp *c = &f->u[i];
        if (c->st != ST_SUSPECT || c->cls != cls)
            continue;
        int32_t cp = c->cp;
        if (cls == HC_TAG) {
            if (cp < 0xE0020 || cp > 0xE007E)
                continue; /* language tag, cancel tag, reserved */
            buf[k++] = (unsigned char)(cp - 0xE0000);
        } else if (cls == HC_VARIATION) {
            if (cp >= 0xFE00 && cp <= 0xFE0F)
                buf[k++] = (unsigned char)(cp - 0xFE00);
            else if (cp >= 0xE0100)
                buf[k++] = (unsigned char)(cp - 0xE0100 + 16);
            else
                continue; /* Mongolian selectors carry no byte */
        } else {          /* private use: ASCII offset from the start of the area */
            int32_t base = cp <= 0xF8FF ? 0xE000 : (cp >= 0x100000 ? 0x100000 : 0xF0000);
            int32_t v = cp - base;
            buf[k++] = (unsigned char)(v <= 0x7E ? v : 0x01);
        }
        (*units)++;
    }
    return k;
}

/* Ideographic variation selectors are legit one per Han ideograph, but a
 * Han text whose selectors spell readable text is a byte channel (one byte
 * per visible ideograph). Honest IVS use picks the first few selectors of a
 * collection (bytes 16-35 here), which never read as text. */
static int check_ivs_channel(mv_arena *scratch, field_ctx *f) {
    uint32_t legit = 0;
    for (uint32_t i = 0; i < f->n; i++)
        legit += f->u[i].st == ST_LEGIT && f->u[i].cp >= 0xE0100 && f->u[i].cp <= 0xE01EF;
    if (legit < 4)
        return MV_OK;
    unsigned char *buf = mv_arena_alloc(scratch, legit + 1);
    if (buf == NULL)
        return MV_ENOMEM;
    size_t k = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        int32_t cp = f->u[i].cp;
        if (f->u[i].cls == HC_VARIATION && cp >= 0xE0100 && cp <= 0xE01EF && f->u[i].st == ST_LEGIT)
            buf[k++] = (unsigned char)(cp - 0xE0100 + 16);
    }
    if (printable_message(buf, k))
        for (uint32_t i = 0; i < f->n; i++)
            if (f->u[i].cls == HC_VARIATION && f->u[i].cp >= 0xE0100 && f->u[i].st == ST_LEGIT)
                f->u[i].st = ST_SUSPECT;
    return MV_OK;
}

/* Two-symbol zero-width runs (e.g. ZWSP=0, ZWNJ=1) read as bits, MSB first;
 * the lower code point is tried as 0, then as 1. */
static bool decode_zw_binary(const field_ctx *f, unsigned char *buf, hit *h) {
    bool found = false;
    for (uint32_t i = 0; i < f->n && !found;) {
        if (f->u[i].st != ST_SUSPECT || !is_zw_bit(f->u[i].cp)) {
            i++;
            continue;
        }
        uint32_t e = i;
        int32_t a = f->u[i].cp, b = -1;
        bool two = true;
        while (e < f->n && f->u[e].st == ST_SUSPECT && is_zw_bit(f->u[e].cp)) {
            int32_t cp = f->u[e].cp;
            if (cp != a && b < 0)
                b = cp;
            else if (cp != a && cp != b)
                two = false;
            e++;
        }
        uint32_t len = e - i;
        if (two && b >= 0 && len >= UH_ZW_BINARY_MIN) {
            int32_t zero = a < b ? a : b;
            for (int pol = 0; pol < 2 && !found; pol++) {
                size_t nbytes = len / 8;
                for (size_t byte = 0; byte < nbytes; byte++) {
                    unsigned v = 0;
                    for (uint32_t bit = 0; bit < 8; bit++) {
                        bool one = f->u[i + byte * 8 + bit].cp != zero;
                        v = (v << 1) | (unsigned)(pol ? !one : one);
                    }
                    buf[byte] = (unsigned char)v;
                }
                if (printable_message(buf, nbytes)) {
                    keep_message(h, buf, nbytes, len);
                    h->off = f->u[i].off;
                    h->len = f->u[e - 1].off + f->u[e - 1].len - f->u[i].off;
                    found = true;
                }
            }
        }
        i = e;
    }
    return found;
}

/* Append a hit, or count it as dropped when the table is full. */
static hit *new_hit(hit *hits, uint32_t *n_hits, uint32_t *dropped) {
    if (*n_hits >= UH_HITS_MAX) {
        (*dropped)++;
        return NULL;
    }
    hit *h = &hits[(*n_hits)++];
    memset(h, 0, sizeof(*h));
    return h;
}

#define UH_DOC_CPS 8u

typedef struct tool_acc {
    hit *hits;
    uint32_t n_hits;
    uint32_t dropped;
    uint32_t hard_mask; /* classes with a hard hit anywhere in the tool */
    /* Round 9: code points the tool's description or title spells out
     * ("U+200B"), and whether the field being read is a schema example
     * (see documented_sample). */
    int32_t doc_cps[UH_DOC_CPS];
    uint32_t n_doc;
    bool sample_field;
    /* round 24 (quiet24): doc_cps[k] opens a range that doc_cps[k + 1]
     * closes ("U+E000–U+E0FF") */
    bool doc_range[UH_DOC_CPS];
} tool_acc;

/* Round 9: example values of a tool that documents hidden characters. A
 * scanner or cleaner of invisible characters shows what it handles in its
 * schema's `examples` ("Acme<ZWSP> Corp", "<BOM>Name") and spells the
 * code points out in its description ("removes zero-width spaces
 * (U+200B) and BOMs (U+FEFF)"). A zero-width character, soft hyphen or
 * bidi mark whose code point the description or title names, alone (no
 * run), in an `examples` value, is one stray: review, hard with any other
 * signal, and hard again when more than UH_STRAY_SOFT_MAX are in the
 * tool. Channels that carry text (TAG, variation selectors, private use)
 * and runs are never samples. */
static bool is_examples_field(const mv_field *fl) {
    static const char key[] = ".examples";
    const char *p = fl->path.ptr;
    size_t n = fl->path.len, kn = sizeof(key) - 1;
    for (size_t i = 0; i + kn <= n; i++)
        if (memcmp(p + i, key, kn) == 0 && (i + kn == n || p[i + kn] == '['))
            return true;
    return false;
}

static int hex_val(unsigned char b) {
    if (b >= '0' && b <= '9')
        return b - '0';
    b |= 0x20;
    return b >= 'a' && b <= 'f' ? b - 'a' + 10 : -1;
}

/* Round 24 (quiet24): does a range dash follow t[k] and another "U+"
 * come right after it ("U+E000–U+E0FF", "U+E000 - U+E0FF",
 * "U+E000..U+E0FF", "U+E000 to U+E0FF", "U+E000〜U+E0FF")? */
static bool range_dash(const unsigned char *t, size_t n, size_t k) {
    static const char *const dash[] = {"\xE2\x80\x93",
                                       "\xE2\x80\x94",
                                       "\xE3\x80\x9C",
                                       "\xEF\xBD\x9E",
                                       "..",
                                       "-",
                                       "~",
                                       "to",
                                       "bis",
                                       "a",
                                       "\xC3\xA0"};
    while (k < n && t[k] == ' ')
        k++;
    for (size_t d = 0; d < sizeof dash / sizeof dash[0]; d++) {
        size_t l = strlen(dash[d]);
        if (k + l > n || memcmp(t + k, dash[d], l) != 0)
            continue;
        size_t j = k + l;
        while (j < n && t[j] == ' ')
            j++;
        if (j + 2 <= n && (t[j] == 'U' || t[j] == 'u') && t[j + 1] == '+')
            return true;
    }
    return false;
}

/* The "U+XXXX" code points of a field, up to UH_DOC_CPS in the tool. */
static void doc_code_points(const mv_field *fl, tool_acc *acc) {
    mv_str w = mv_field_whole(fl);
    const unsigned char *t = (const unsigned char *)w.ptr;
    /* memchr for the '+' keeps this cheap on every description */
    for (const unsigned char *q = memchr(t, '+', w.len); q != NULL && acc->n_doc < UH_DOC_CPS;
         q = (size_t)(q - t) + 1 < w.len ? memchr(q + 1, '+', w.len - (size_t)(q - t) - 1) : NULL) {
        size_t i = (size_t)(q - t);
        if (i == 0 || i + 5 > w.len || (t[i - 1] != 'U' && t[i - 1] != 'u'))
            continue;
        i--;
        int32_t cp = 0;
        size_t k = i + 2, d = 0;
        for (; k < w.len && d < 6 && hex_val(t[k]) >= 0; k++, d++)
            cp = cp * 16 + hex_val(t[k]);
        if (d >= 4 && d <= 5) {
            acc->doc_range[acc->n_doc] = range_dash(t, w.len, k);
            acc->doc_cps[acc->n_doc++] = cp;
        }
    }
}

static bool documented_cp(const tool_acc *acc, int32_t cp) {
    for (uint32_t k = 0; k < acc->n_doc; k++)
        if (acc->doc_cps[k] == cp)
            return true;
    return false;
}

/* Round 24 (quiet24): a code point the description names, or one inside
 * a range it names ("glyphs in the Private Use Area U+E000–U+E0FF"). */
static bool documented_in_range(const tool_acc *acc, int32_t cp) {
    for (uint32_t k = 0; k < acc->n_doc; k++)
        if (acc->doc_cps[k] == cp || (acc->doc_range[k] && k + 1 < acc->n_doc &&
                                      acc->doc_cps[k] <= cp && cp <= acc->doc_cps[k + 1]))
            return true;
    return false;
}

/* Round 24 (quiet24): a machine value that is one private-use glyph and
 * nothing else, inside the area the tool's description or title declares
 * (an icon font's glyph picked from an enum). One code point carries no
 * message and splits no word; a run, a glyph glued to text or one outside
 * the declared area is still read as hidden. */
static bool declared_glyph_value(const mv_field *fl, mv_str whole, const tool_acc *acc) {
    if (fl->kind != MV_FIELD_SCHEMA_VALUE || acc->n_doc == 0 || whole.len < 3 || whole.len > 4)
        return false;
    utf8proc_int32_t cp = -1;
    utf8proc_ssize_t l =
        utf8proc_iterate((const utf8proc_uint8_t *)whole.ptr, (utf8proc_ssize_t)whole.len, &cp);
    return l == (utf8proc_ssize_t)whole.len && cp >= 0 && classify(cp, true) == HC_PRIVATE_USE &&
           documented_in_range(acc, cp);
}

static void documented_samples(field_ctx *f, const tool_acc *acc) {
    for (uint32_t i = 0; i < f->n; i++) {
        ucp *c = &f->u[i];
        if (c->st != ST_SUSPECT ||
            (c->cls != HC_ZERO_WIDTH && c->cls != HC_BIDI_MARK && c->cp != 0xAD) ||
            hiddenish(f, (int64_t)i - 1) || hiddenish(f, (int64_t)i + 1) ||
            !documented_cp(acc, c->cp))
            continue;
        c->st = ST_STRAY;
    }
}

/* The hit of class `cls` in a field, found or added: chunks of one field
 * add up into one hit per class. */
static hit *field_hit(tool_acc *acc, uint32_t field, uint8_t cls, bool *fresh) {
    *fresh = false;
    for (uint32_t i = acc->n_hits; i > 0; i--) {
        hit *h = &acc->hits[i - 1];
        if (h->field != field)
            break; /* hits of one field are contiguous */
        if (h->cls == cls)
            return h;
    }
    hit *h = new_hit(acc->hits, &acc->n_hits, &acc->dropped);
    if (h != NULL) {
        h->field = field;
        h->cls = cls;
        h->info = true;
        *fresh = true;
    }
    return h;
}

/* Analyse text[0, len) -- a chunk of a field starting at byte `base` of it
 * -- counting only code points whose offset lies in [lo, hi): the rest is
 * context on either side so that a chunk boundary changes no judgement. */
static int analyse_chunk(mv_arena *scratch, const unsigned char *s, size_t len, size_t base,
                         size_t lo, size_t hi, uint32_t field_index, bool ids, bool strict,
                         tool_acc *acc) {
    int rc = MV_OK;
    field_ctx f;
    memset(&f, 0, sizeof(f));
    f.ids = ids;
    f.strict = strict;
    f.s = s;
    f.len = len;

    /* Pass 0: count code points; stop early when nothing is a candidate. */
    uint32_t n = 0;
    bool any = false, has_rtl = false;
    for (size_t i = 0; i < len;) {
        int32_t cp;
        /* printable ASCII is one code point, never a candidate, never RTL */
        if (s[i] >= 0x20 && s[i] < 0x7F) {
            i++;
            n++;
            continue;
        }
        i += utf8_next(s + i, len - i, &cp);
        n++;
        if (!any && classify(cp, ids) != HC_NONE)
            any = true;
        if (!has_rtl && is_rtl(cp))
            has_rtl = true;
    }
    if (!any)
        goto done;

    f.u = mv_arena_alloc(scratch, (size_t)n * sizeof(ucp));
    if (f.u == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    f.n = n;
    bool has_bidi_ctrl = false, has_flag = false, has_ivs = false;
    uint32_t k = 0;
    for (size_t i = 0; i < len; k++) {
        ucp *c = &f.u[k];
        int32_t cp;
        uint32_t l = utf8_next(s + i, len - i, &cp);
        c->cp = cp;
        c->off = (uint32_t)i;
        c->len = (uint8_t)l;
        c->end = 0;
        c->cls = classify(cp, ids);
        c->st = ST_PLAIN;
        has_bidi_ctrl |= c->cls == HC_BIDI_CONTROL;
        has_flag |= cp == 0x1F3F4;
        has_ivs |= cp >= 0xE0100 && cp <= 0xE01EF;
        i += l;
    }
    if (has_rtl) {
        f.rtl = mv_arena_alloc(scratch, ((size_t)n + 1) * sizeof(uint32_t));
        if (f.rtl == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        f.rtl[0] = 0;
        for (uint32_t i = 0; i < n; i++)
            f.rtl[i + 1] = f.rtl[i] + (is_rtl(f.u[i].cp) ? 1u : 0u);
    }

    mark_escapes(&f);
    if (has_flag)
        mark_flag_tags(&f);
    if (has_bidi_ctrl)
        mark_bidi_pairs(&f);
    judge_all(&f);
    settle_weak(&f);
    if (has_bidi_ctrl)
        documented_bidi(&f);
    if (acc->sample_field && acc->n_doc > 0)
        documented_samples(&f, acc);
    if (has_ivs) {
        rc = check_ivs_channel(scratch, &f);
        if (rc != MV_OK)
            goto done;
    }

    /* Tally per class. */
    uint32_t count[HC_COUNT] = {0}, strays[HC_COUNT] = {0};
    uint32_t first[HC_COUNT], first_stray[HC_COUNT];
    for (int c = 0; c < HC_COUNT; c++)
        first[c] = first_stray[c] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        const ucp *c = &f.u[i];
        if (c->off < lo || c->off >= hi)
            continue; /* context of a neighbouring chunk */
        if (c->st == ST_SUSPECT) {
            if (count[c->cls]++ == 0)
                first[c->cls] = i;
        } else if (c->st == ST_STRAY) {
            if (strays[c->cls]++ == 0)
                first_stray[c->cls] = i;
        }
    }

    unsigned char *buf = NULL;
    for (uint8_t c = 0; c < HC_COUNT; c++) {
        if (count[c] == 0 && strays[c] == 0)
            continue;
        if (count[c] > 0)
            acc->hard_mask |= 1u << c;
        bool fresh = false;
        hit *h = field_hit(acc, field_index, c, &fresh);
        if (h == NULL)
            continue;
        bool was_info = h->info;
        if (count[c] > 0 && was_info) {
            /* the first suspect occurrence locates the hit; strays of an
             * earlier chunk are counted in with it */
            uint32_t off = 0, l = 0;
            run_span(&f, first[c], &off, &l);
            h->off = (uint32_t)(off + base);
            h->len = l;
            h->count = count[c] + (fresh ? 0 : h->count);
            h->info = false;
        } else if (count[c] > 0) {
            h->count += count[c];
        } else if (was_info) {
            if (fresh) {
                uint32_t off = 0, l = 0;
                run_span(&f, first_stray[c], &off, &l);
                h->off = (uint32_t)(off + base);
                h->len = l;
            }
            h->count += strays[c];
        } else {
            continue; /* strays next to suspects of the class: the suspects speak */
        }
        if (h->info || h->decoded ||
            (c != HC_TAG && c != HC_VARIATION && c != HC_PRIVATE_USE && c != HC_ZERO_WIDTH))
            continue;
        if (buf == NULL) {
            buf = mv_arena_alloc(scratch, n + 1);
            if (buf == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
        }
        if (c == HC_ZERO_WIDTH) {
            if (decode_zw_binary(&f, buf, h))
                h->off = (uint32_t)(h->off + base);
        } else {
            uint32_t units = 0;
            size_t blen = decode_class(&f, c, buf, &units);
            if (printable_message(buf, blen))
                keep_message(h, buf, blen, units);
        }
    }
done:
    return rc;
}

/* Fields are analysed in chunks of UH_CHUNK bytes, each with UH_MARGIN
 * bytes of context on either side, so that the work space stays bounded
 * (16 bytes per code point of one chunk) whatever the length of the whole
 * field: a field of 50 MB is one linear pass. A field up to UH_CHUNK is
 * one chunk without margins, exactly as before. Chunks without a byte that
 * could be a candidate are skipped by the word-at-a-time test. */
#define UH_CHUNK 65536u
#define UH_MARGIN 256u

static size_t back_to_char(const unsigned char *s, size_t i) {
    while (i > 0 && (s[i] & 0xC0) == 0x80)
        i--;
    return i;
}

static int analyse_field(mv_arena *scratch, const mv_field *fl, uint32_t field_index, bool ids,
                         bool strict, tool_acc *acc) {
    mv_str whole = mv_field_whole(fl);
    const unsigned char *s = (const unsigned char *)whole.ptr;
    size_t len = whole.len;
    int rc = MV_OK;
    if (len <= UH_CHUNK)
        return analyse_chunk(scratch, s, len, 0, 0, len, field_index, ids, strict, acc);
    for (size_t cs = 0; cs < len && rc == MV_OK;) {
        size_t ce = cs + UH_CHUNK < len ? back_to_char(s, cs + UH_CHUNK) : len;
        if (ce <= cs)
            ce = len;
        size_t ws = cs > UH_MARGIN ? back_to_char(s, cs - UH_MARGIN) : 0;
        size_t we = ce + UH_MARGIN < len ? back_to_char(s, ce + UH_MARGIN) : len;
        if (needs_scan(s + cs, ce - cs, !ids)) {
            mv_arena_mark mark = mv_arena_save(scratch);
            rc = analyse_chunk(scratch, s + ws, we - ws, ws, cs - ws, ce - ws, field_index, ids,
                               strict, acc);
            mv_arena_rewind(scratch, mark);
        }
        cs = ce;
    }
    return rc;
}

/* ------------------------------------------------------------- emission */

static const char *decoded_label(uint8_t cls) {
    switch (cls) {
    case HC_TAG:
        return "TAG-character";
    case HC_VARIATION:
        return "variation-selector";
    case HC_PRIVATE_USE:
        return "private-use";
    default:
        return "zero-width binary";
    }
}

/* Zero-width and private-use strays are never clean (the MCP spec: hidden
 * characters never appear in a legitimate human-readable description);
 * bidi marks and soft hyphens off a word stay informational debris. */
static bool stray_counts(uint8_t cls) {
    /* bidi controls are strays only as documented examples (review) */
    return cls == HC_ZERO_WIDTH || cls == HC_PRIVATE_USE || cls == HC_BIDI_CONTROL;
}

/* Strays that are only reviewed: one or two in the whole tool. */
#define UH_STRAY_SOFT_MAX 2u

static int emit_hit(const mv_tool *tool, const hit *h, uint32_t n_classes, uint32_t strays,
                    mv_emitter *out) {
    const mv_field *fl = &tool->fields[h->field];
    bool escalated = !h->info && n_classes >= 3;
    char detail[240];
    char evidence[UH_MSG_MAX + 32];
    mv_signal_spec s;
    memset(&s, 0, sizeof(s));
    s.threat = MV_THREAT_TOOL_POISONING;
    s.field = (int32_t)h->field;
    s.offset = h->off;
    s.length = h->len;

    if (h->info && stray_counts(h->cls)) {
        const char *what = h->cls == HC_PRIVATE_USE  ? "private-use character(s)"
                           : h->cls == HC_BIDI_CONTROL ? "bidi control(s) in a documented code example"
                                                       : "zero-width character(s)";
        /* a documented bidi example is one example, however many
         * controls it shows */
        if (strays > UH_STRAY_SOFT_MAX && h->cls != HC_BIDI_CONTROL) {
            s.tier = MV_TIER_HARD;
            s.confidence = 0.85;
            snprintf(detail, sizeof(detail),
                     "%u stray %s in prose, %u in this tool: invisible characters never belong "
                     "in a tool description",
                     h->count, what, strays);
        } else {
            /* One or two beside spaces, splitting nothing and decoding to
             * nothing: review, and hard when another check corroborates. */
            s.tier = MV_TIER_SOFT;
            s.confidence = 0.5;
            snprintf(detail, sizeof(detail),
                     "%u stray %s beside a space in prose: invisible characters never belong in "
                     "a tool description (hard when another signal in the tool agrees)",
                     h->count, what);
        }
    } else if (h->info) {
        s.tier = MV_TIER_INFO;
        s.confidence = 0.2;
        snprintf(detail, sizeof(detail),
                 "%u stray %s at a word boundary in prose: tolerated as copy-paste debris",
                 h->count, h->cls == HC_BIDI_MARK ? "bidi mark(s)" : "soft hyphen(s)");
    } else if (h->decoded) {
        s.tier = MV_TIER_HARD;
        s.confidence = 0.99;
        s.critical = true;
        snprintf(detail, sizeof(detail),
                 "%s run of %u invisible characters decodes to a hidden message%s",
                 decoded_label(h->cls), h->units,
                 escalated ? "; the tool also mixes 3 or more hidden-character classes" : "");
    } else {
        s.tier = MV_TIER_HARD;
        s.confidence = escalated ? 0.98 : classes[h->cls].confidence;
        s.critical = escalated;
        if (escalated)
            snprintf(detail, sizeof(detail),
                     "%u %s (one of %u hidden-character classes in this tool)", h->count,
                     classes[h->cls].what, n_classes);
        else
            snprintf(detail, sizeof(detail), "%u %s", h->count, classes[h->cls].what);
    }

    if (h->decoded) {
        static const char prefix[] = "decoded hidden text: ";
        memcpy(evidence, prefix, sizeof(prefix) - 1);
        memcpy(evidence + sizeof(prefix) - 1, h->msg, h->msg_len);
        s.evidence = (mv_str){evidence, sizeof(prefix) - 1 + h->msg_len};
    } else {
        /* ~40 raw bytes each side, cut on character boundaries. */
        mv_str whole = mv_field_whole(fl);
        const unsigned char *t = (const unsigned char *)whole.ptr;
        size_t tl = whole.len;
        size_t a = h->off > UH_CONTEXT ? h->off - UH_CONTEXT : 0;
        size_t b = (size_t)h->off + h->len + UH_CONTEXT;
        if (b > tl)
            b = tl;
        while (a < h->off && (t[a] & 0xC0) == 0x80)
            a++;
        while (b > (size_t)h->off + h->len && b < tl && (t[b] & 0xC0) == 0x80)
            b--;
        s.evidence = (mv_str){fl->text.ptr + a, b - a};
    }
    s.detail = (mv_str){detail, strlen(detail)};
    if (h->info && stray_counts(h->cls) && s.tier == MV_TIER_SOFT)
        return mv_emit_corroborable(out, &s);
    return mv_emit(out, &s);
}

/* ------------------------------------------------------ mixed-script words */

/* Cyrillic and Greek letters that look like Latin ones. */
static bool latin_lookalike(int32_t cp) {
    static const int32_t set[] = {0x0391, 0x0392, 0x0395, 0x0396, 0x0397, 0x0399, 0x039A, 0x039C,
                                  0x039D, 0x039F, 0x03A1, 0x03A4, 0x03A5, 0x03A7, 0x03BF, 0x0405,
                                  0x0406, 0x0408, 0x0410, 0x0412, 0x0415, 0x041A, 0x041C, 0x041D,
                                  0x041E, 0x0420, 0x0421, 0x0422, 0x0423, 0x0425, 0x0430, 0x0435,
                                  0x043E, 0x0440, 0x0441, 0x0443, 0x0445, 0x0455, 0x0456, 0x0458,
                                  0x04BB, 0x04CF, 0x0501, 0x051B, 0x051D};
    size_t lo = 0, hi = sizeof(set) / sizeof(set[0]);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (set[mid] == cp)
            return true;
        if (set[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The Latin letter a look-alike stands for (lower case), or 0. */
static char latin_of(int32_t cp) {
    static const struct {
        int32_t cp;
        char c;
    } map[] = {{0x0391, 'a'}, {0x0392, 'b'}, {0x0395, 'e'}, {0x0396, 'z'}, {0x0397, 'h'},
               {0x0399, 'i'}, {0x039A, 'k'}, {0x039C, 'm'}, {0x039D, 'n'}, {0x039F, 'o'},
               {0x03A1, 'p'}, {0x03A4, 't'}, {0x03A5, 'y'}, {0x03A7, 'x'}, {0x03BF, 'o'},
               {0x0405, 's'}, {0x0406, 'i'}, {0x0408, 'j'}, {0x0410, 'a'}, {0x0412, 'b'},
               {0x0415, 'e'}, {0x041A, 'k'}, {0x041C, 'm'}, {0x041D, 'h'}, {0x041E, 'o'},
               {0x0420, 'p'}, {0x0421, 'c'}, {0x0422, 't'}, {0x0423, 'y'}, {0x0425, 'x'},
               {0x0430, 'a'}, {0x0435, 'e'}, {0x043E, 'o'}, {0x0440, 'p'}, {0x0441, 'c'},
               {0x0443, 'y'}, {0x0445, 'x'}, {0x0455, 's'}, {0x0456, 'i'}, {0x0458, 'j'},
               {0x04BB, 'h'}, {0x04CF, 'l'}, {0x0501, 'd'}, {0x051B, 'q'}, {0x051D, 'w'}};
    if (cp < 0x80)
        return cp >= 'A' && cp <= 'Z' ? (char)(cp + 32) : (char)cp;
    for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
        if (map[k].cp == cp)
            return map[k].c;
    return 0;
}

#define UH_SKEL_MAX 64u

/* The Latin skeleton of t[0, n) (look-alikes read as the letters they
 * imitate, lower case); 0 when a letter has no Latin reading or it is too
 * long. */
static size_t latin_skeleton(const unsigned char *t, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        int32_t cp = -1;
        uint32_t l = utf8_next(t + i, n - i, &cp);
        char c = latin_of(cp);
        if (c == 0 || o + 1 >= UH_SKEL_MAX)
            return 0;
        out[o++] = c;
        i += l;
    }
    return o;
}

/* Round 7: does the skeleton name a server of the registry, as a whole
 * name or one of its words of four or more letters ("gіthub" for
 * "github-mcp", "fіlesystem" for "filesystem")? A look-alike letter in a
 * server's name is impersonation, not a keyboard slip. */
static bool names_a_server(const mv_registry *r, const mv_tool *tool, const char *k, size_t kn) {
    if (kn < 4)
        return false;
    size_t ns = r != NULL ? mv_registry_server_count(r) : 0;
    for (size_t sidx = 0; sidx <= ns; sidx++) {
        mv_str sv = sidx < ns ? mv_registry_server_name(r, sidx) : tool->server;
        for (size_t i = 0; i < sv.len;) {
            size_t j = i;
            while (j < sv.len && (((unsigned char)sv.ptr[j] | 0x20) >= 'a') &&
                   (((unsigned char)sv.ptr[j] | 0x20) <= 'z'))
                j++;
            if (j - i == kn) {
                size_t m = 0;
                while (m < kn && ((unsigned char)sv.ptr[i + m] | 0x20) == (unsigned char)k[m])
                    m++;
                if (m == kn)
                    return true;
            }
            i = j < sv.len ? j + 1 : j;
        }
    }
    return false;
}

/* Does the word at t[w0] stand in the host part of a URL ("https://" then
 * no '/' before it) or after the '@' of an address, within its token? */
static bool in_host(const unsigned char *t, size_t w0) {
    size_t lim = w0 > 256 ? w0 - 256 : 0;
    for (size_t i = w0; i > lim; i--) {
        unsigned char c = t[i - 1];
        if (c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == '(' || c == '<')
            return false;
        if (c == '@')
            return i >= 2 && t[i - 2] > ' ';
        if (c == '/')
            return i >= 3 && t[i - 2] == '/' && t[i - 3] == ':';
    }
    return false;
}

/* Round 9: is the word [w0, i) part of a quoted token ("'pаypal.example'",
 * "`micrоsoft.com/login`")? The token runs to the nearest space on each
 * side within UH_QUOTE_REACH bytes and must open and close with a quote,
 * as a sample written in documentation does. */
static bool quoted_token(const unsigned char *t, size_t n, size_t w0, size_t i) {
    size_t a = w0, b = i;
    while (a > 0 && w0 - a < UH_QUOTE_REACH && !quote_byte(t[a - 1]) && t[a - 1] > ' ')
        a--;
    while (b < n && b - i < UH_QUOTE_REACH && !quote_byte(t[b]) && t[b] > ' ')
        b++;
    return a > 0 && b < n && quote_byte(t[a - 1]) && quote_byte(t[b]);
}

typedef struct mixed_words {
    uint32_t count;
    int32_t field; /* first word's field, -1 when none */
    uint32_t off, len;
} mixed_words;

/* Words that mix Latin letters with Cyrillic or Greek look-alikes
 * ("сollесt", "АWЅ"): a phrase spelled to look English to a reader and the
 * model while no ASCII matcher sees its words. Honest Russian or Greek text
 * writes whole words in one script; a Latin product name is a word of its
 * own. Separators (spaces, hyphens, punctuation) end a word. */
static void count_mixed(const mv_registry *reg, const mv_tool *tool, const mv_field *fl,
                        uint32_t field, mixed_words *mw) {
    mv_str whole = mv_field_whole(fl);
    const unsigned char *t = (const unsigned char *)whole.ptr;
    size_t n = whole.len;
    bool any = false;
    for (size_t i = 0; i + 1 < n && !any;) {
        /* eight bytes at a time past words without a two-byte lead byte
         * (110xxxxx): the fields read here are mostly ASCII with a dash or
         * a quote, or CJK text (three-byte leads) */
        if (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, t + i, 8);
            if ((w & (w << 1) & ~(w << 2) & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        any = (t[i] == 0xCE || t[i] == 0xCF || t[i] == 0xD0 || t[i] == 0xD1 || t[i] == 0xD3 ||
               t[i] == 0xD4 || t[i] == 0xD2) &&
              (t[i + 1] & 0xC0) == 0x80;
        i++;
    }
    if (!any)
        return;
    /* Text about homoglyphs quotes its examples ("'ignоre' (with a
     * Cyrillic о)"): a quoted word there is documentation. Looked up only
     * when a quoted mixed word is met. */
    static const char *const topic[] = {"cyrillic", "homoglyph", "look-alike", "lookalike",
                                        "confusable"};
    int about = -1; /* unknown */
    size_t w0 = 0;
    bool latin = false, look = false;
    for (size_t i = 0; i <= n;) {
        int32_t cp = -1;
        uint32_t l = 1;
        if (i < n)
            l = utf8_next(t + i, n - i, &cp);
        bool letter = cp >= 0 && (is_letter(cp) || is_mark(cp));
        if (!letter) {
            bool quoted = latin && look && quoted_token(t, n, w0, i);
            if (quoted && about < 0) {
                about = 0;
                for (size_t k = 0; k < sizeof(topic) / sizeof(topic[0]) && about == 0; k++) {
                    size_t tn = strlen(topic[k]);
                    for (size_t q = 0; q + tn <= n && about == 0; q++) {
                        size_t m = 0;
                        while (m < tn && (t[q + m] | 0x20) == (unsigned char)topic[k][m])
                            m++;
                        about = m == tn;
                    }
                }
            }
            quoted = quoted && about == 1;
            if (latin && look && !quoted) {
                /* In a URL's host or an e-mail domain a look-alike letter
                 * is the homoglyph domain itself, never a keyboard slip:
                 * one such word is enough (counted twice). */
                bool host = in_host(t, w0);
                if (!host) {
                    char k[UH_SKEL_MAX];
                    size_t kn = latin_skeleton(t + w0, i - w0, k);
                    host = kn > 0 && names_a_server(reg, tool, k, kn);
                }
                if (mw->count++ == 0) {
                    mw->field = (int32_t)field;
                    mw->off = (uint32_t)w0;
                    mw->len = (uint32_t)(i - w0);
                }
                mw->count += host;
            }
            latin = look = false;
            i += l;
            w0 = i;
            continue;
        }
        latin = latin || (cp < 0x80);
        look = look || latin_lookalike(cp);
        i += l;
    }
}

static int emit_mixed(const mv_tool *tool, const mixed_words *mw, mv_emitter *out) {
    const mv_field *fl = &tool->fields[mw->field];
    char detail[200];
    mv_signal_spec s;
    memset(&s, 0, sizeof(s));
    s.threat = MV_THREAT_TOOL_POISONING;
    s.field = mw->field;
    s.offset = mw->off;
    s.length = mw->len;
    s.tier = MV_TIER_HARD;
    s.confidence = 0.9;
    snprintf(detail, sizeof(detail),
             "%u word(s) mix Latin letters with Cyrillic or Greek look-alikes: text spelled to "
             "read as English while hiding its words from matchers",
             mw->count);
    s.detail = (mv_str){detail, strlen(detail)};
    mv_str whole = mv_field_whole(fl);
    size_t a = mw->off > UH_CONTEXT ? mw->off - UH_CONTEXT : 0;
    size_t b = (size_t)mw->off + mw->len + UH_CONTEXT;
    if (b > whole.len)
        b = whole.len;
    while (a < mw->off && ((unsigned char)whole.ptr[a] & 0xC0) == 0x80)
        a++;
    while (b > (size_t)mw->off + mw->len && b < whole.len &&
           ((unsigned char)whole.ptr[b] & 0xC0) == 0x80)
        b--;
    s.evidence = (mv_str){whole.ptr + a, b - a};
    return mv_emit(out, &s);
}

/* Round 7: the tool's own server name mixes Latin letters with look-alikes
 * and reads as another server's name ("fіlesystem" beside "filesystem"):
 * the server impersonates that one. */
static int server_lookalike(const mv_registry *reg, const mv_tool *tool, mv_emitter *out) {
    const unsigned char *t = (const unsigned char *)tool->server.ptr;
    size_t n = tool->server.len;
    bool latin = false, look = false;
    /* every look-alike is a Greek or Cyrillic letter: lead bytes CE-D4 */
    bool lead = false;
    for (size_t i = 0; i < n && !lead; i++)
        lead = t[i] >= 0xCE && t[i] <= 0xD4;
    if (!lead)
        return MV_OK;
    for (size_t i = 0; i < n;) {
        int32_t cp = -1;
        uint32_t l = utf8_next(t + i, n - i, &cp);
        latin = latin || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
        look = look || latin_lookalike(cp);
        i += l;
    }
    if (!latin || !look || reg == NULL)
        return MV_OK;
    char k[UH_SKEL_MAX];
    size_t kn = 0;
    /* the skeleton of the whole name, separators kept as they are */
    for (size_t i = 0; i < n && kn + 1 < UH_SKEL_MAX;) {
        int32_t cp = -1;
        uint32_t l = utf8_next(t + i, n - i, &cp);
        char c = latin_of(cp);
        if (c == 0)
            return MV_OK;
        k[kn++] = c;
        i += l;
    }
    size_t ns = mv_registry_server_count(reg);
    for (size_t sidx = 0; sidx < ns; sidx++) {
        mv_str sv = mv_registry_server_name(reg, sidx);
        if (sv.len != kn || (sv.len == n && memcmp(sv.ptr, t, n) == 0))
            continue;
        size_t m = 0;
        while (m < kn && ((unsigned char)sv.ptr[m] | 0x20) == (unsigned char)(k[m] | 0x20))
            m++;
        if (m < kn)
            continue;
        char detail[200];
        snprintf(detail, sizeof(detail),
                 "server name mixes Latin letters with Cyrillic or Greek look-alikes and reads "
                 "as the name of server '%.*s': a server impersonating another",
                 (int)(sv.len > 64 ? 64 : sv.len), sv.ptr);
        mv_signal_spec s;
        memset(&s, 0, sizeof(s));
        s.threat = MV_THREAT_TOOL_POISONING;
        s.tier = MV_TIER_HARD;
        s.confidence = 0.95;
        s.critical = true;
        s.field = -1;
        s.evidence = tool->server;
        s.detail = (mv_str){detail, strlen(detail)};
        return mv_emit(out, &s);
    }
    return MV_OK;
}

static bool is_ids_kind(mv_field_kind k) {
    return k == MV_FIELD_NAME || k == MV_FIELD_PROPERTY_NAME;
}

/* analyse_field through the per-field memo: a field's hits depend on its
 * text, its kind and, in a documented sample, the code points the tool
 * documents (the salt). The kept bytes are the hard classes the field
 * added and its hits; a field that dropped hits is not kept, and a replay
 * that would overflow the hit array is computed instead. */
static int analyse_field_memo(const mv_inspect_ctx *ctx, mv_emitter *out, const mv_field *fl,
                              uint32_t i, bool ids, bool strict, tool_acc *acc) {
    int32_t salt[1 + UH_DOC_CPS];
    uint32_t n_salt = 1;
    salt[0] = acc->sample_field ? 1 : 0;
    for (uint32_t k = 0; acc->sample_field && k < acc->n_doc; k++)
        salt[n_salt++] = acc->doc_cps[k];
    mv_memo memo;
    int hit_rc =
        mv_memo_peek(out, i, 0, (mv_str){(const char *)salt, n_salt * sizeof(int32_t)}, &memo);
    if (hit_rc == 1 && memo.len >= sizeof(uint32_t) &&
        (memo.len - sizeof(uint32_t)) % sizeof(hit) == 0 &&
        acc->n_hits + (memo.len - sizeof(uint32_t)) / sizeof(hit) <= UH_HITS_MAX) {
        size_t n = (memo.len - sizeof(uint32_t)) / sizeof(hit);
        uint32_t mask;
        memcpy(&mask, memo.data, sizeof(mask));
        acc->hard_mask |= mask;
        if (n > 0)
            memcpy(&acc->hits[acc->n_hits], (const char *)memo.data + sizeof(mask),
                   n * sizeof(hit));
        for (size_t k = 0; k < n; k++)
            acc->hits[acc->n_hits + k].field = i;
        acc->n_hits += (uint32_t)n;
        int rc = mv_memo_replay(out, &memo);
        return rc < 0 ? rc : MV_OK;
    }
    /* Per-field temporaries are released before the next field. */
    mv_arena_mark mark = mv_arena_save(ctx->scratch);
    uint32_t n0 = acc->n_hits, mask0 = acc->hard_mask, dropped0 = acc->dropped;
    acc->hard_mask = 0;
    int rc = analyse_field(ctx->scratch, fl, i, ids, strict, acc);
    uint32_t mask = acc->hard_mask;
    acc->hard_mask |= mask0;
    if (rc == MV_OK && memo.active && acc->dropped == dropped0) {
        size_t n = acc->n_hits - n0;
        size_t bytes = sizeof(mask) + n * sizeof(hit);
        char *keep = mv_arena_alloc(ctx->scratch, bytes);
        if (keep != NULL) {
            memcpy(keep, &mask, sizeof(mask));
            if (n > 0)
                memcpy(keep + sizeof(mask), &acc->hits[n0], n * sizeof(hit));
            mv_memo_keep(out, &memo, keep, bytes);
        }
    }
    mv_arena_rewind(ctx->scratch, mark);
    return rc;
}

static int uh_inspect(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    int rc = MV_OK;
    tool_acc acc;
    memset(&acc, 0, sizeof(acc));
    mixed_words mw = {0, -1, 0, 0};
    for (uint32_t i = 0; i < tool->n_fields; i++)
        if (tool->fields[i].kind == MV_FIELD_DESCRIPTION || tool->fields[i].kind == MV_FIELD_TITLE)
            doc_code_points(&tool->fields[i], &acc);
    for (uint32_t i = 0; i < tool->n_fields; i++) {
        const mv_field *fl = &tool->fields[i];
        bool ids = is_ids_kind(fl->kind);
        bool strict = ids || fl->kind == MV_FIELD_SCHEMA_VALUE;
        mv_str whole = mv_field_whole(fl);
        /* A value that is one ZERO WIDTH SPACE and nothing else is a
         * separator (a word segmenter's default break marker, UAX #14):
         * it carries no message and splits nothing. */
        if (fl->kind == MV_FIELD_SCHEMA_VALUE && whole.len == 3 &&
            memcmp(whole.ptr, "\xE2\x80\x8B", 3) == 0)
            continue;
        if (declared_glyph_value(fl, whole, &acc))
            continue;
        if (whole.len == 0 || fl->window_of != 0 ||
            !needs_scan((const unsigned char *)whole.ptr, whole.len, !ids))
            continue; /* windows of a cut field: the whole field is read here */
        /* Names are the impersonation check's (confusable names). */
        if (!ids)
            count_mixed(ctx->registry, tool, fl, i, &mw);
        if (acc.hits == NULL) {
            acc.hits = mv_arena_alloc(ctx->scratch, UH_HITS_MAX * sizeof(hit));
            if (acc.hits == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
        }
        acc.sample_field =
            fl->kind == MV_FIELD_SCHEMA_VALUE && acc.n_doc > 0 && is_examples_field(fl);
        rc = analyse_field_memo(ctx, out, fl, i, ids, strict, &acc);
        if (rc != MV_OK)
            goto done;
    }
    rc = server_lookalike(ctx->registry, tool, out);
    if (rc != MV_OK)
        goto done;
    /* One mixed word is a slip of the keyboard layout; two or more are
     * written that way. */
    if (mw.count >= 2) {
        rc = emit_mixed(tool, &mw, out);
        if (rc != MV_OK)
            goto done;
    }
    if (acc.n_hits == 0)
        goto done;
    if (acc.dropped > 0)
        mv_emit_cap(out, "unicode_hidden_hits", UH_HITS_MAX, (uint64_t)acc.n_hits + acc.dropped);

    uint32_t n_classes = 0;
    for (uint32_t m = acc.hard_mask; m != 0; m &= m - 1)
        n_classes++;
    uint32_t strays = 0;
    for (uint32_t i = 0; i < acc.n_hits; i++)
        if (acc.hits[i].info && stray_counts(acc.hits[i].cls) &&
            acc.hits[i].cls != HC_BIDI_CONTROL)
            strays += acc.hits[i].count;
    /* Decoded messages first, so the per-tool signal cap keeps them. */
    for (int pass = 0; pass < 3 && rc == MV_OK; pass++) {
        for (uint32_t i = 0; i < acc.n_hits && rc == MV_OK; i++) {
            const hit *h = &acc.hits[i];
            int want = h->decoded ? 0 : (h->info ? 2 : 1);
            if (want == pass)
                rc = emit_hit(tool, h, n_classes, strays, out);
        }
    }
done:
    return rc;
}

const mv_check mv_check_unicode_hidden = {
    "unicode.hidden", MV_TIER_HARD, NULL, NULL, NULL, NULL, uh_inspect,
};
