/*
 * Unit tests of the character diff (src/store/textdiff.c): spans rebuild
 * both texts exactly and their edit count is minimal on random small
 * inputs (checked against an LCS table), multi-byte characters are never
 * split, hidden characters are separate edits, 64 KiB texts finish within
 * the caps and say which mode they fell back to, definition strings are
 * paired by JSON Pointer (changed, added, removed, escaped keys), the
 * rename score tells a near-identical body from an unrelated one, and out
 * of memory at every allocation fails cleanly without a leak.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail_alloc.h"
#include "mcpvet/store.h"

/* Rebuild a and b from the spans; check they match the inputs. */
static void check_rebuild(const mv_text_diff *d, const char *a, size_t alen, const char *b,
                          size_t blen) {
    char *ra = malloc(alen + 1), *rb = malloc(blen + 1);
    size_t na = 0, nb = 0;
    assert_non_null(ra);
    assert_non_null(rb);
    for (size_t i = 0; i < d->n; i++) {
        const mv_diff_span *s = &d->spans[i];
        assert_true(s->op == '=' || s->op == '-' || s->op == '+');
        assert_true(s->text.len > 0);
        if (s->op != '+') {
            assert_true(na + s->text.len <= alen);
            memcpy(ra + na, s->text.ptr, s->text.len);
            na += s->text.len;
        }
        if (s->op != '-') {
            assert_true(nb + s->text.len <= blen);
            memcpy(rb + nb, s->text.ptr, s->text.len);
            nb += s->text.len;
        }
    }
    assert_int_equal(na, alen);
    assert_int_equal(nb, blen);
    assert_memory_equal(ra, a, alen);
    assert_memory_equal(rb, b, blen);
    free(ra);
    free(rb);
}

static size_t lcs(const char *a, size_t n, const char *b, size_t m) {
    size_t *t = calloc((n + 1) * (m + 1), sizeof(*t));
    assert_non_null(t);
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            t[i * (m + 1) + j] = a[i] == b[j] ? t[(i + 1) * (m + 1) + j + 1] + 1
                                 : t[(i + 1) * (m + 1) + j] > t[i * (m + 1) + j + 1]
                                     ? t[(i + 1) * (m + 1) + j]
                                     : t[i * (m + 1) + j + 1];
    size_t r = t[0];
    free(t);
    return r;
}

static void test_simple(void **state) {
    (void)state;
    mv_arena *ar = mv_arena_new(NULL, 0);
    mv_text_diff d;
    const char *a = "Reads a file from disk.", *b = "Reads a file from disk and sends it away.";
    assert_int_equal(mv_diff_text(&d, ar, a, strlen(a), b, strlen(b), NULL, NULL), MV_OK);
    assert_int_equal(d.mode, MV_DIFF_CHAR);
    check_rebuild(&d, a, strlen(a), b, strlen(b));
    assert_int_equal(d.n, 3);
    assert_int_equal(d.spans[0].op, '=');
    assert_int_equal(d.spans[1].op, '+');
    assert_int_equal(d.spans[1].text.len, strlen(" and sends it away"));
    assert_memory_equal(d.spans[1].text.ptr, " and sends it away", d.spans[1].text.len);
    assert_int_equal(d.spans[2].op, '=');
    /* identical: one kept span, full similarity */
    assert_int_equal(mv_diff_text(&d, ar, a, strlen(a), a, strlen(a), NULL, NULL), MV_OK);
    assert_int_equal(d.n, 1);
    assert_int_equal(mv_diff_permille(&d, strlen(a), strlen(a)), 1000);
    /* both empty, one empty */
    assert_int_equal(mv_diff_text(&d, ar, NULL, 0, "", 0, NULL, NULL), MV_OK);
    assert_int_equal(d.n, 0);
    assert_int_equal(mv_diff_text(&d, ar, "", 0, "abc", 3, NULL, NULL), MV_OK);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.spans[0].op, '+');
    assert_string_equal(mv_diff_mode_name(MV_DIFF_WORD), "word");
    mv_arena_free(ar);
}

/* A zero-width space and a bidi override are their own insertions, and a
 * three-byte character is never cut. */
static void test_hidden_and_utf8(void **state) {
    (void)state;
    mv_arena *ar = mv_arena_new(NULL, 0);
    mv_text_diff d;
    const char *a = "read the file", *b = "read\xe2\x80\x8b the \xe2\x80\xae"
                                          "file";
    assert_int_equal(mv_diff_text(&d, ar, a, strlen(a), b, strlen(b), NULL, NULL), MV_OK);
    check_rebuild(&d, a, strlen(a), b, strlen(b));
    size_t ins = 0;
    for (size_t i = 0; i < d.n; i++) {
        if (d.spans[i].op == '+') {
            assert_int_equal(d.spans[i].text.len, 3);
            assert_int_equal((unsigned char)d.spans[i].text.ptr[0], 0xe2);
            ins++;
        }
        assert_int_not_equal(d.spans[i].op, '-');
    }
    assert_int_equal(ins, 2);
    /* é -> è differ in the last byte only: the span is the whole character */
    a = "caf\xc3\xa9!";
    b = "caf\xc3\xa8!";
    assert_int_equal(mv_diff_text(&d, ar, a, strlen(a), b, strlen(b), NULL, NULL), MV_OK);
    check_rebuild(&d, a, strlen(a), b, strlen(b));
    assert_int_equal(d.n, 4);
    assert_int_equal(d.spans[1].op, '-');
    assert_int_equal(d.spans[1].text.len, 2);
    assert_int_equal(d.spans[2].op, '+');
    assert_int_equal(d.spans[2].text.len, 2);
    mv_arena_free(ar);
}

/* Random small texts over a 3-letter alphabet: the diff rebuilds both and
 * (with folding of short runs off, i.e. where no run is folded) keeps an
 * LCS's worth of characters at most; with the caps high it never falls
 * back. */
static void test_random_against_lcs(void **state) {
    (void)state;
    mv_arena *ar = mv_arena_new(NULL, 0);
    unsigned seed = 12345;
    for (int iter = 0; iter < 3000; iter++) {
        char a[40], b[40];
        seed = seed * 1103515245u + 12345u;
        size_t n = (seed >> 16) % 30, m = (seed >> 8) % 30;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            a[i] = (char)('a' + (seed >> 16) % 3);
        }
        for (size_t i = 0; i < m; i++) {
            seed = seed * 1103515245u + 12345u;
            b[i] = (char)('a' + (seed >> 16) % 3);
        }
        mv_text_diff d;
        assert_int_equal(mv_diff_text(&d, ar, a, n, b, m, NULL, NULL), MV_OK);
        assert_int_equal(d.mode, MV_DIFF_CHAR);
        check_rebuild(&d, a, n, b, m);
        assert_true(d.same <= lcs(a, n, b, m));
        mv_arena_reset(ar);
    }
    mv_arena_free(ar);
}

/* Without folding (a run of >= 3 is kept), Myers is minimal: texts built
 * from long distinct blocks keep exactly the LCS. */
static void test_minimal_blocks(void **state) {
    (void)state;
    mv_arena *ar = mv_arena_new(NULL, 0);
    const char *a = "AAAAAxBBBBByCCCCCzDDDDD", *b = "AAAAAqCCCCCwBBBBBDDDDDe";
    mv_text_diff d;
    assert_int_equal(mv_diff_text(&d, ar, a, strlen(a), b, strlen(b), NULL, NULL), MV_OK);
    check_rebuild(&d, a, strlen(a), b, strlen(b));
    assert_int_equal(d.same, lcs(a, strlen(a), b, strlen(b)));
    mv_arena_free(ar);
}

static char *random_text(size_t len, unsigned seed, bool words) {
    char *s = malloc(len);
    assert_non_null(s);
    for (size_t i = 0; i < len; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 16) % 27;
        s[i] = words && r == 26 ? ' ' : (char)('a' + r % 26);
        if (words && i % 61 == 60)
            s[i] = '\n';
    }
    return s;
}

/* 64 KiB descriptions: a few edits stay character-level; two unrelated
 * texts fall back past the caps and still rebuild exactly. */
static void test_64k(void **state) {
    (void)state;
    mv_arena *ar = mv_arena_new(NULL, 0);
    size_t len = 64 * 1024;
    char *a = random_text(len, 1, true);
    char *b = malloc(len + 16);
    assert_non_null(b);
    memcpy(b, a, len);
    memcpy(b + 100, "EVIL", 4);
    memcpy(b + 40000, "\xe2\x80\x8b", 3);
    mv_text_diff d;
    assert_int_equal(mv_diff_text(&d, ar, a, len, b, len, NULL, NULL), MV_OK);
    assert_int_equal(d.mode, MV_DIFF_CHAR);
    check_rebuild(&d, a, len, b, len);
    assert_true(d.same > len - 20);

    char *c = random_text(len, 999, true);
    assert_int_equal(mv_diff_text(&d, ar, a, len, c, len, NULL, NULL), MV_OK);
    assert_int_not_equal(d.mode, MV_DIFF_CHAR);
    check_rebuild(&d, a, len, c, len);

    /* a tiny cap forces the fallbacks in order */
    mv_diff_limits lim = {.max_edits = 2, .max_work = 0};
    const char *x = "one two three", *y = "uno dos tres";
    assert_int_equal(mv_diff_text(&d, ar, x, strlen(x), y, strlen(y), &lim, NULL), MV_OK);
    assert_int_equal(d.mode, MV_DIFF_LINE); /* one line each: one delete, one insert */
    check_rebuild(&d, x, strlen(x), y, strlen(y));
    lim.max_edits = 1;
    assert_int_equal(mv_diff_text(&d, ar, x, strlen(x), y, strlen(y), &lim, NULL), MV_OK);
    assert_int_equal(d.mode, MV_DIFF_WHOLE);
    check_rebuild(&d, x, strlen(x), y, strlen(y));
    lim.max_edits = 8; /* four characters out, four in */
    const char *p = "alpha beta gamma", *q = "alpha BETA gamma";
    assert_int_equal(mv_diff_text(&d, ar, p, strlen(p), q, strlen(q), &lim, NULL), MV_OK);
    assert_int_equal(d.mode, MV_DIFF_CHAR);
    lim.max_edits = 2;
    assert_int_equal(mv_diff_text(&d, ar, p, strlen(p), q, strlen(q), &lim, NULL), MV_OK);
    assert_int_equal(d.mode, MV_DIFF_WORD);
    check_rebuild(&d, p, strlen(p), q, strlen(q));
    free(a);
    free(b);
    free(c);
    mv_arena_free(ar);
}

static const mv_diff_string *find(const mv_definition_diff *d, const char *path) {
    for (size_t i = 0; i < d->n; i++)
        if (d->strings[i].path.len == strlen(path) &&
            memcmp(d->strings[i].path.ptr, path, d->strings[i].path.len) == 0)
            return &d->strings[i];
    return NULL;
}

static void test_definition_strings(void **state) {
    (void)state;
    const char *a =
        "{\"description\":\"Reads a file.\",\"inputSchema\":{\"properties\":{\"a/b~c\":"
        "{\"description\":\"Path\",\"type\":\"string\"},\"gone\":{\"type\":\"string\"}},"
        "\"required\":[\"a/b~c\"]},\"name\":\"read\"}";
    const char *b =
        "{\"description\":\"Reads a file. Then emails it.\",\"inputSchema\":{"
        "\"properties\":{\"a/b~c\":{\"description\":\"Path\\u200b\",\"type\":\"string\"}"
        "},\"required\":[\"a/b~c\",\"to\"]},\"name\":\"read\"}";
    mv_definition_diff *d = NULL;
    assert_int_equal(mv_diff_definition_strings(&d, a, strlen(a), b, strlen(b), NULL), MV_OK);
    assert_false(d->truncated);
    const mv_diff_string *s = find(d, "/description");
    assert_non_null(s);
    assert_int_equal(s->change, '~');
    assert_int_equal(s->diff.n, 2);
    assert_int_equal(s->diff.spans[1].op, '+');
    s = find(d, "/inputSchema/properties/a~1b~0c/description");
    assert_non_null(s);
    assert_int_equal(s->diff.spans[s->diff.n - 1].op, '+');
    assert_int_equal(s->diff.spans[s->diff.n - 1].text.len, 3); /* the zero-width space */
    s = find(d, "/inputSchema/properties/gone/type");
    assert_non_null(s);
    assert_int_equal(s->change, '-');
    s = find(d, "/inputSchema/required/1");
    assert_non_null(s);
    assert_int_equal(s->change, '+');
    assert_null(find(d, "/name"));
    assert_null(find(d, "/inputSchema/required/0"));
    assert_int_equal(d->n, 4);
    mv_definition_diff_free(d);
    mv_definition_diff_free(NULL);
    assert_int_equal(mv_diff_definition_strings(&d, "{", 1, b, strlen(b), NULL), MV_EPARSE);
    assert_null(d);
}

static void test_rename_score(void **state) {
    (void)state;
    unsigned pm = 0;
    const char *a = "{\"description\":\"Reads the file at the given path and returns its text.\","
                    "\"inputSchema\":{\"type\":\"object\"},\"name\":\"read_file\"}";
    const char *near =
        "{\"description\":\"Reads the file at the given path and returns its text!\","
        "\"inputSchema\":{\"type\":\"object\"},\"name\":\"read_text_file\"}";
    const char *other = "{\"description\":\"Deletes every row of the table named by the user.\","
                        "\"inputSchema\":{\"type\":\"object\"},\"name\":\"drop\"}";
    assert_int_equal(mv_diff_rename_score(&pm, a, strlen(a), near, strlen(near), NULL), MV_OK);
    assert_true(pm >= MV_RENAME_PERMILLE);
    assert_true(pm < 1000);
    assert_int_equal(mv_diff_rename_score(&pm, a, strlen(a), other, strlen(other), NULL), MV_OK);
    assert_true(pm < MV_RENAME_PERMILLE);
    /* same body under another name: identical */
    const char *same =
        "{\"description\":\"Reads the file at the given path and returns its text.\","
        "\"inputSchema\":{\"type\":\"object\"},\"name\":\"cat\"}";
    assert_int_equal(mv_diff_rename_score(&pm, a, strlen(a), same, strlen(same), NULL), MV_OK);
    assert_int_equal(pm, 1000);
}

/* Many long changed strings: the first megabyte gets character diffs,
 * the rest are shown whole (linear time for a hostile definition). */
static void test_budget(void **state) {
    (void)state;
    size_t n = 40, len = 64 * 1024;
    char *a = malloc(n * (len + 16) + 16), *b = malloc(n * (len + 16) + 16);
    assert_non_null(a);
    assert_non_null(b);
    size_t ka = 0, kb = 0;
    a[ka++] = '{';
    b[kb++] = '{';
    for (size_t i = 0; i < n; i++) {
        char *t = random_text(len, (unsigned)i + 5, true);
        for (size_t k = 0; k < len; k++)
            if (t[k] == '\n')
                t[k] = ' ';
        ka += (size_t)sprintf(a + ka, "%s\"k%02zu\":\"", i ? "," : "", i);
        kb += (size_t)sprintf(b + kb, "%s\"k%02zu\":\"", i ? "," : "", i);
        memcpy(a + ka, t, len);
        memcpy(b + kb, t, len);
        b[kb + 10] = 'Z'; /* one edit per string */
        ka += len;
        kb += len;
        a[ka++] = '"';
        b[kb++] = '"';
        free(t);
    }
    a[ka++] = '}';
    b[kb++] = '}';
    mv_definition_diff *d = NULL;
    assert_int_equal(mv_diff_definition_strings(&d, a, ka, b, kb, NULL), MV_OK);
    assert_int_equal(d->n, n);
    assert_int_equal(d->strings[0].diff.mode, MV_DIFF_CHAR);
    assert_int_not_equal(d->strings[n - 1].diff.mode, MV_DIFF_CHAR);
    mv_definition_diff_free(d);
    free(a);
    free(b);
}

static void test_out_of_memory(void **state) {
    (void)state;
    const char *a = "{\"description\":\"Reads a file.\",\"name\":\"r\",\"title\":\"x\"}";
    const char *b = "{\"description\":\"Reads a file now.\",\"name\":\"r\",\"title\":\"y\"}";
    bool succeeded = false;
    for (long n = 1; n < 400 && !succeeded; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_definition_diff *d = NULL;
        int rc = mv_diff_definition_strings(&d, a, strlen(a), b, strlen(b), &fa.allocator);
        if (rc == MV_OK) {
            succeeded = true;
            assert_int_equal(d->n, 2);
            mv_definition_diff_free(d);
        } else {
            assert_int_equal(rc, MV_ENOMEM);
            assert_null(d);
        }
        assert_int_equal(fa.live, 0);
        unsigned pm;
        fail_alloc_init(&fa, n);
        rc = mv_diff_rename_score(&pm, a, strlen(a), b, strlen(b), &fa.allocator);
        assert_true(rc == MV_OK || rc == MV_ENOMEM);
        assert_int_equal(fa.live, 0);
    }
    assert_true(succeeded);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple),
        cmocka_unit_test(test_hidden_and_utf8),
        cmocka_unit_test(test_random_against_lcs),
        cmocka_unit_test(test_minimal_blocks),
        cmocka_unit_test(test_64k),
        cmocka_unit_test(test_definition_strings),
        cmocka_unit_test(test_rename_score),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
