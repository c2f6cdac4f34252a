/*
 * Word folding shared by the checks that read raw text against word lists
 * of their own (model_note.c, reply_reach.c): a case fold that keeps byte
 * offsets close to the raw text's, and the word-start test their lists use.
 * Inline: both sit in per-byte loops.
 */
#ifndef MV_WORD_FOLD_H
#define MV_WORD_FOLD_H

#include <stdbool.h>
#include <stddef.h>

/* Fold raw[0, n) into out (room for n bytes): ASCII, Latin-1, Greek and
 * Cyrillic capitals to lower case, the typographic apostrophe to "'" (one
 * byte: the output may be shorter). Returns the folded length. */
static inline size_t mv_word_fold(const char *raw, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)raw[i];
        unsigned char d = i + 1 < n ? (unsigned char)raw[i + 1] : 0;
        unsigned char e = i + 2 < n ? (unsigned char)raw[i + 2] : 0;
        if (c >= 'A' && c <= 'Z') {
            out[o++] = (char)(c + 32);
        } else if (c == 0xE2 && d == 0x80 && (e == 0x98 || e == 0x99)) {
            out[o++] = '\'';
            i += 2;
        } else if (c == 0xC3 && d >= 0x80 && d <= 0x9E && d != 0x97) {
            out[o++] = (char)c;
            out[o++] = (char)(d + 0x20);
            i++;
        } else if (c == 0xCE && d >= 0x91 && d <= 0x9F) {
            out[o++] = (char)0xCE;
            out[o++] = (char)(d + 0x20);
            i++;
        } else if (c == 0xCE && d >= 0xA0 && d <= 0xA9) {
            out[o++] = (char)0xCF;
            out[o++] = (char)(d - 0x20);
            i++;
        } else if (c == 0xD0 && d >= 0x90 && d <= 0x9F) {
            out[o++] = (char)0xD0;
            out[o++] = (char)(d + 0x20);
            i++;
        } else if (c == 0xD0 && d >= 0xA0 && d <= 0xAF) {
            out[o++] = (char)0xD1;
            out[o++] = (char)(d - 0x20);
            i++;
        } else if (c == 0xD0 && d >= 0x80 && d <= 0x8F) {
            out[o++] = (char)0xD1;
            out[o++] = (char)(d + 0x10);
            i++;
        } else {
            out[o++] = (char)c;
        }
    }
    return o;
}

/* Is the character ending before t[i] a letter of a script written with
 * spaces (an ASCII letter or digit, or a two-byte letter)? */
static inline bool mv_letter_before(const char *t, size_t i) {
    if (i == 0) {
        return false;
    }
    unsigned char c = (unsigned char)t[i - 1];
    if (c < 0x80) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
    size_t k = i - 1;
    while (k > 0 && ((unsigned char)t[k] & 0xC0) == 0x80) {
        k--;
    }
    return (unsigned char)t[k] >= 0xC3 && (unsigned char)t[k] < 0xE0;
}

#endif
