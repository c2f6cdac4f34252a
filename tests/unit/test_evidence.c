/*
 * Evidence render-safety: nothing invisible or terminal-active survives,
 * escapes cannot be faked, output is capped on a character boundary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
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
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
