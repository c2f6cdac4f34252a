/*
 * Evidence render-safety: nothing invisible or terminal-active survives,
 * escapes cannot be faked, output is capped on a character boundary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mcpvet/evidence.h"

static mv_arena *arena;

static int setup(void **state) {
    (void)state;
    arena = mv_arena_new(NULL, 0);
    return arena == NULL;
}

static int teardown(void **state) {
    (void)state;
    mv_arena_free(arena);
    return 0;
}

static void expect_render(const char *raw, size_t len, size_t max, const char *want, bool trunc) {
    mv_str out;
    bool truncated = !trunc;
    assert_int_equal(mv_evidence_render(arena, raw, len, max, &out, &truncated), 0);
    assert_int_equal(out.len, strlen(want));
    assert_memory_equal(out.ptr, want, out.len);
    assert_int_equal(out.ptr[out.len], '\0');
    assert_int_equal(truncated, trunc);
    assert_true(out.len <= max);
}

#define R(raw, want) expect_render(raw, sizeof(raw) - 1, 200, want, false)

static void test_plain_text_unchanged(void **state) {
    (void)state;
    R("Read a file from disk.", "Read a file from disk.");
    R("caf\xc3\xa9 \xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
      "caf\xc3\xa9 \xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82");
    R("\xe2\x9d\xa4", "\xe2\x9d\xa4");         /* heart without VS16 is visible */
    R("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"); /* emoji */
    R("", "");
}

static void test_terminal_escapes_never_pass(void **state) {
    (void)state;
    R("\x1b[31mred\x1b[0m", "\\u001B[31mred\\u001B[0m");
    R("\x1b]8;;https://x.example\x07link", "\\u001B]8;;https://x.example\\u0007link");
    R("a\xc2\x9b"
      "2J",
      "a\\u009B2J"); /* C1 CSI */
    R("a\x7f", "a\\u007F");
    R("line1\nline2\tx\r", "line1\\nline2\\tx\\r");
    R("nul\0byte", "nul\\u0000byte");
}

static void test_invisible_and_bidi_escaped(void **state) {
    (void)state;
    R("ig\xe2\x80\x8bnore", "ig\\u200Bnore"); /* ZWSP */
    R("a\xe2\x80\xae"
      "evil",
      "a\\u202Eevil");                                   /* RLO */
    R("x\xe2\x81\xa6y\xe2\x81\xa9", "x\\u2066y\\u2069"); /* isolates */
    R("\xf3\xa0\x81\x81", "\\u{E0041}");                 /* TAG A */
    R("\xef\xb8\x8f", "\\uFE0F");                        /* VS16 alone */
    R("\xe3\x85\xa4", "\\u3164");                        /* Hangul filler */
    R("\xee\x80\x80", "\\uE000");                        /* private use */
    R("a\xc2\xa0"
      "b",
      "a\\u00A0b");               /* NBSP made visible */
    R("\xe2\x80\xa8", "\\u2028"); /* line separator */
    R("soft\xc2\xadhyphen", "soft\\u00ADhyphen");
    R("\xef\xbb\xbf", "\\uFEFF");
}

static void test_escapes_cannot_be_faked(void **state) {
    (void)state;
    /* A literal backslash-u in the text must look different from a real ZWSP. */
    R("ig\\u200Bnore", "ig\\\\u200Bnore");
}

static void test_invalid_utf8(void **state) {
    (void)state;
    R("a\xff"
      "b",
      "a\\xFFb");
    R("\xc3", "\\xC3");                   /* truncated sequence */
    R("\xed\xa0\x80", "\\xED\\xA0\\x80"); /* surrogate encoded in UTF-8 */
    R("\xc0\xaf", "\\xC0\\xAF");          /* overlong */
}

static void test_length_cap(void **state) {
    (void)state;
    char long_text[100];
    memset(long_text, 'a', sizeof(long_text));
    expect_render(long_text, sizeof(long_text), 20, "aaaaaaaaaaaaaaaaa...", true);
    /* Exactly fitting text is not truncated. */
    expect_render(long_text, 20, 20, "aaaaaaaaaaaaaaaaaaaa", false);
    /* Never cut inside a multi-byte character or an escape. */
    const char cyr[] =
        "\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0";
    expect_render(cyr, sizeof(cyr) - 1, 16, "\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0\xd0\xb0...",
                  true);
    const char zw[] = "\xe2\x80\x8b\xe2\x80\x8b\xe2\x80\x8b\xe2\x80\x8b";
    expect_render(zw, sizeof(zw) - 1, 16, "\\u200B\\u200B...", true);
}

/* Reference renderer, one character at a time, written independently of the
 * library's fast paths: the library must produce exactly the same bytes. */
static size_t ref_char(char *out, const unsigned char *s, size_t n, size_t *consumed) {
    static const char hex[] = "0123456789ABCDEF";
    unsigned c = s[0];
    size_t len = c < 0x80                   ? 1
                 : (c >= 0xC2 && c <= 0xDF) ? 2
                 : (c >= 0xE0 && c <= 0xEF) ? 3
                 : (c >= 0xF0 && c <= 0xF4) ? 4
                                            : 0;
    int32_t cp = (int32_t)(len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07);
    bool valid = len > 0 && len <= n;
    for (size_t k = 1; valid && k < len; k++) {
        valid = (s[k] & 0xC0) == 0x80;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if (valid && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
                  (cp >= 0xD800 && cp <= 0xDFFF)))
        valid = false;
    if (!valid) {
        *consumed = 1;
        out[0] = '\\';
        out[1] = 'x';
        out[2] = hex[c >> 4];
        out[3] = hex[c & 15];
        return 4;
    }
    *consumed = len;
    if (cp == '\\') {
        memcpy(out, "\\\\", 2);
        return 2;
    }
    if (mv_evidence_is_visible(cp)) {
        memcpy(out, s, len);
        return len;
    }
    if (cp == '\n' || cp == '\t' || cp == '\r') {
        out[0] = '\\';
        out[1] = cp == '\n' ? 'n' : cp == '\t' ? 't' : 'r';
        return 2;
    }
    if (cp > 0xFFFF)
        return (size_t)snprintf(out, 16, "\\u{%X}", (unsigned)cp);
    return (size_t)snprintf(out, 16, "\\u%04X", (unsigned)cp);
}

static size_t ref_render(char *out, const unsigned char *s, size_t len, size_t max, bool *trunc) {
    size_t used = 0, at_limit = 0, i = 0;
    *trunc = false;
    while (i < len) {
        char tmp[16];
        size_t consumed;
        size_t k = ref_char(tmp, s + i, len - i, &consumed);
        if (used + k > max) {
            memcpy(out + at_limit, "...", 3);
            *trunc = true;
            return at_limit + 3;
        }
        memcpy(out + used, tmp, k);
        used += k;
        if (used <= max - 3)
            at_limit = used;
        i += consumed;
    }
    return used;
}

static void test_matches_reference_renderer(void **state) {
    (void)state;
    static const char *const pieces[] = {"a",
                                         "Read ",
                                         "\\",
                                         "\x1b[2J",
                                         "\xe2\x80\x8b",
                                         "\xc3\xa9",
                                         "\xf0\x9f\x98\x80",
                                         "\xff",
                                         "\n",
                                         "\xf3\xa0\x81\x81",
                                         "tool_name ",
                                         "\xd0\xbe",
                                         "\x7f",
                                         "xyz"};
    uint32_t seed = 7;
    for (int round = 0; round < 4000; round++) {
        unsigned char raw[256];
        size_t len = 0;
        int n = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 24;
        for (int k = 0; k < n; k++) {
            const char *p = pieces[((seed = seed * 1103515245u + 12345u) >> 16) % 14];
            size_t pl = strlen(p);
            if (len + pl > sizeof(raw))
                break;
            memcpy(raw + len, p, pl);
            len += pl;
        }
        size_t max = 16 + ((seed = seed * 1103515245u + 12345u) >> 16) % 80;
        char want[1024];
        bool want_trunc;
        size_t want_len = ref_render(want, raw, len, max, &want_trunc);
        mv_str got;
        bool got_trunc;
        assert_int_equal(mv_evidence_render(arena, (const char *)raw, len, max, &got, &got_trunc),
                         0);
        assert_int_equal(got_trunc, want_trunc);
        assert_int_equal(got.len, want_len);
        assert_memory_equal(got.ptr, want, want_len);
    }
}

static void test_bad_arguments(void **state) {
    (void)state;
    mv_str out;
    assert_int_equal(mv_evidence_render(arena, "x", 1, 8, &out, NULL), MV_EINVAL);
    assert_int_equal(mv_evidence_render(NULL, "x", 1, 64, &out, NULL), MV_EINVAL);
    assert_int_equal(mv_evidence_render(arena, NULL, 3, 64, &out, NULL), MV_EINVAL);
    assert_true(mv_evidence_is_visible('a'));
    assert_true(mv_evidence_is_visible(' '));
    assert_false(mv_evidence_is_visible(0x1b));
    assert_false(mv_evidence_is_visible(0x200d));
    assert_false(mv_evidence_is_visible(0x110000));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_text_unchanged),
        cmocka_unit_test(test_terminal_escapes_never_pass),
        cmocka_unit_test(test_invisible_and_bidi_escaped),
        cmocka_unit_test(test_escapes_cannot_be_faked),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_length_cap),
        cmocka_unit_test(test_matches_reference_renderer),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
