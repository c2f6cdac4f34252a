/*
 * Render-safe evidence. Tool text is attacker-controlled: printed as-is it
 * could carry terminal escapes, bidi overrides that reorder the report, or
 * invisible characters that hide what was found. Everything that is not
 * plainly visible is shown as an escape (\n, \t, \uXXXX, \u{XXXXX}, \xNN for
 * invalid bytes), backslashes are doubled so an escape cannot be faked, and
 * the output is capped on a character boundary.
 */
#include "mcpvet/evidence.h"

#include <string.h>
#include <utf8proc.h>

bool mv_evidence_is_visible(int32_t cp) {
    if (cp >= 0x20 && cp < 0x7F)
        return true;
    if (cp < 0xA0 || cp > 0x10FFFF)
        return false; /* C0, DEL, C1 */
    /* Invisible although not in an "invisible" category. */
    if ((cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF) || /* VS */
        (cp >= 0x180B && cp <= 0x180F) ||                                     /* Mongolian FVS */
        cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 ||
        cp == 0x2800 || cp == 0x17B4 || cp == 0x17B5)
        return false;
    const utf8proc_property_t *prop = utf8proc_get_property(cp);
    if (prop->ignorable)
        return false;
    switch (prop->category) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_ZS: /* only U+0020 is shown as a plain space */
        return false;
    default:
        return true;
    }
}

/* Decode one UTF-8 character; returns its length, or 0 when invalid. */
static size_t decode_utf8(const unsigned char *s, size_t n, int32_t *cp) {
    utf8proc_int32_t c;
    utf8proc_ssize_t len = utf8proc_iterate(s, (utf8proc_ssize_t)(n > 4 ? 4 : n), &c);
    if (len <= 0 || c < 0)
        return 0;
    *cp = c;
    return (size_t)len;
}

/* Write the escaped or plain form of one character into tmp; returns length. */
static size_t render_char(char *tmp, const unsigned char *src, size_t n, int32_t cp, bool valid) {
    static const char hex[] = "0123456789ABCDEF";
    if (!valid) {
        tmp[0] = '\\';
        tmp[1] = 'x';
        tmp[2] = hex[src[0] >> 4];
        tmp[3] = hex[src[0] & 15];
        return 4;
    }
    if (cp == '\\') {
        tmp[0] = '\\';
        tmp[1] = '\\';
        return 2;
    }
    if (mv_evidence_is_visible(cp)) {
        memcpy(tmp, src, n);
        return n;
    }
    switch (cp) {
    case '\n':
        memcpy(tmp, "\\n", 2);
        return 2;
    case '\t':
        memcpy(tmp, "\\t", 2);
        return 2;
    case '\r':
        memcpy(tmp, "\\r", 2);
        return 2;
    default:
        break;
    }
    size_t k = 0;
    tmp[k++] = '\\';
    tmp[k++] = 'u';
    if (cp > 0xFFFF) {
        tmp[k++] = '{';
        int digits = cp > 0xFFFFF ? 6 : 5;
        for (int d = digits - 1; d >= 0; d--)
            tmp[k++] = hex[(cp >> (4 * d)) & 15];
        tmp[k++] = '}';
    } else {
        for (int d = 3; d >= 0; d--)
            tmp[k++] = hex[(cp >> (4 * d)) & 15];
    }
    return k;
}

int mv_evidence_render(mv_arena *arena, const char *raw, size_t len, size_t max_bytes, mv_str *out,
                       bool *truncated) {
    if (arena == NULL || out == NULL || (raw == NULL && len > 0) || max_bytes < 16)
        return MV_EINVAL;
    if (truncated != NULL)
        *truncated = false;
    char *dst = mv_arena_alloc(arena, max_bytes + 1);
    if (dst == NULL)
        return MV_ENOMEM;
    const unsigned char *s = (const unsigned char *)raw;
    size_t limit = max_bytes - 3; /* room for "..." */
    size_t used = 0;
    size_t i = 0;
    size_t used_at_limit = 0; /* output length at the last char that fits in `limit` */
    bool over = false;
    while (i < len) {
        /* Fast path: a run of printable ASCII other than the backslash is
         * copied as is (most evidence is plain ASCII). */
        size_t run = i;
        while (run < len && s[run] >= 0x20 && s[run] < 0x7F && s[run] != '\\')
            run++;
        if (run > i) {
            /* Every byte of the run is a character boundary: copy what fits
             * and note the last boundary within `limit`. */
            size_t start = used;
            size_t take = run - i;
            bool fits = used + take <= max_bytes;
            if (!fits)
                take = max_bytes - used;
            memcpy(dst + used, s + i, take);
            used += take;
            if (used <= limit)
                used_at_limit = used;
            else if (start < limit)
                used_at_limit = limit;
            if (!fits) {
                over = true;
                break;
            }
            i = run;
            continue;
        }
        char tmp[16];
        int32_t cp = 0;
        size_t n = decode_utf8(s + i, len - i, &cp);
        bool valid = n > 0;
        if (!valid)
            n = 1;
        size_t k = render_char(tmp, s + i, n, cp, valid);
        if (used + k > max_bytes) {
            over = true;
            break;
        }
        memcpy(dst + used, tmp, k);
        used += k;
        if (used <= limit)
            used_at_limit = used;
        i += n;
    }
    if (over) {
        used = used_at_limit;
        memcpy(dst + used, "...", 3);
        used += 3;
        if (truncated != NULL)
            *truncated = true;
    }
    dst[used] = '\0';
    out->ptr = dst;
    out->len = used;
    return MV_OK;
}
