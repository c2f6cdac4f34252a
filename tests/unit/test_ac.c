/*
 * Aho-Corasick tests: every occurrence of every pattern is reported exactly
 * once (checked against a naive search on pseudo-random texts), in end
 * order, with case folding, overlapping and nested patterns, early stop,
 * NUL bytes and out-of-memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fail_alloc.h"
#include "mcpvet/ac.h"

typedef struct collected {
    mv_ac_match m[16384];
    size_t n;
    size_t stop_after;
} collected;

static int collect(void *ctx, const mv_ac_match *m) {
    collected *c = ctx;
    if (c->n < 16384)
        c->m[c->n++] = *m;
    return (c->stop_after != 0 && c->n >= c->stop_after) ? 7 : 0;
}

static mv_ac *build(const char *const *pats, size_t n, unsigned flags) {
    mv_ac_builder *b = mv_ac_builder_new(NULL, flags);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(mv_ac_builder_add(b, pats[i], strlen(pats[i]), (uint32_t)i), 0);
    mv_ac *ac = NULL;
    assert_int_equal(mv_ac_build(&ac, b), 0);
    mv_ac_builder_free(b);
    return ac;
}

static void test_overlapping_and_nested(void **state) {
    (void)state;
    const char *pats[] = {"he", "she", "his", "hers", "ignore previous", "previous"};
    mv_ac *ac = build(pats, 6, 0);
    static collected c;
    memset(&c, 0, sizeof(c));
    const char *text = "ushers; ignore previous";
    assert_int_equal(mv_ac_scan(ac, text, strlen(text), collect, &c), 0);
    assert_int_equal(c.n, 5);
    /* "she" and "he" end at the same place: longer first. */
    assert_int_equal(c.m[0].id, 1);
    assert_int_equal(c.m[0].start, 1);
    assert_int_equal(c.m[1].id, 0);
    assert_int_equal(c.m[1].start, 2);
    assert_int_equal(c.m[2].id, 3);
    assert_int_equal(c.m[2].end, 6);
    assert_int_equal(c.m[3].id, 4);
    assert_int_equal(c.m[4].id, 5);
    assert_int_equal(c.m[4].end, strlen(text));
    assert_int_equal(c.m[4].pattern_len, 8);
    mv_ac_free(ac);
}

static void test_casefold_and_duplicates(void **state) {
    (void)state;
    mv_ac_builder *b = mv_ac_builder_new(NULL, MV_AC_ASCII_CASEFOLD);
    assert_int_equal(mv_ac_builder_add(b, "Read_File", 9, 10), 0);
    assert_int_equal(mv_ac_builder_add(b, "read_file", 9, 11), 0);
    assert_int_equal(mv_ac_builder_add(b, "", 0, 12), MV_EINVAL);
    assert_int_equal(mv_ac_builder_count(b), 2);
    mv_ac *ac = NULL;
    assert_int_equal(mv_ac_build(&ac, b), 0);
    mv_ac_builder_free(b);
    static collected c;
    memset(&c, 0, sizeof(c));
    assert_int_equal(mv_ac_scan(ac, "call READ_FILE now", 18, collect, &c), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.m[0].id, 10); /* insertion order for equal patterns */
    assert_int_equal(c.m[1].id, 11);
    assert_int_equal(c.m[0].start, 5);
    mv_ac_free(ac);

    /* Without folding case matters; UTF-8 bytes always match exactly. */
    const char *pats[] = {"READ", "\xd0\xbe"};
    ac = build(pats, 2, 0);
    c.n = 0;
    assert_int_equal(mv_ac_scan(ac, "read READ ign\xd0\xbere", 18, collect, &c), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.m[0].start, 5);
    assert_int_equal(c.m[1].id, 1);
    mv_ac_free(ac);
}

static void test_early_stop_and_nul(void **state) {
    (void)state;
    const char *pats[] = {"a"};
    mv_ac *ac = build(pats, 1, 0);
    static collected c;
    memset(&c, 0, sizeof(c));
    c.stop_after = 2;
    assert_int_equal(mv_ac_scan(ac, "aaaa", 4, collect, &c), 7);
    assert_int_equal(c.n, 2);
    mv_ac_free(ac);

    mv_ac_builder *b = mv_ac_builder_new(NULL, 0);
    assert_int_equal(mv_ac_builder_add(b, "x\0y", 3, 1), 0);
    assert_int_equal(mv_ac_build(&ac, b), 0);
    mv_ac_builder_free(b);
    memset(&c, 0, sizeof(c));
    assert_int_equal(mv_ac_scan(ac, "x\0yx y", 6, collect, &c), 0);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.m[0].start, 0);
    /* Empty text, NULL callback. */
    assert_int_equal(mv_ac_scan(ac, NULL, 0, collect, &c), 0);
    assert_int_equal(mv_ac_scan(ac, "x\0y", 3, NULL, NULL), 0);
    mv_ac_free(ac);
}

/* xorshift: deterministic pseudo-random test data. */
static uint32_t rng = 12345;
static uint32_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void test_matches_naive_search(void **state) {
    (void)state;
    for (int round = 0; round < 30; round++) {
        char pats[60][8];
        const char *pp[60];
        size_t np = 1 + next_rand() % 60;
        for (size_t i = 0; i < np; i++) {
            size_t len = 1 + next_rand() % 6;
            for (size_t k = 0; k < len; k++)
                pats[i][k] = (char)('a' + next_rand() % 3);
            pats[i][len] = '\0';
            pp[i] = pats[i];
        }
        mv_ac *ac = build(pp, np, 0);
        char text[300];
        for (size_t k = 0; k < sizeof(text); k++)
            text[k] = (char)('a' + next_rand() % 4);
        static collected c;
        memset(&c, 0, sizeof(c));
        assert_int_equal(mv_ac_scan(ac, text, sizeof(text), collect, &c), 0);
        size_t expected = 0;
        for (size_t i = 0; i < np; i++) {
            size_t len = strlen(pats[i]);
            for (size_t s = 0; s + len <= sizeof(text); s++) {
                if (memcmp(text + s, pats[i], len) != 0)
                    continue;
                expected++;
                bool found = false;
                for (size_t m = 0; m < c.n && !found; m++)
                    found = c.m[m].id == i && c.m[m].start == s;
                assert_true(found);
            }
        }
        assert_int_equal(c.n, expected);
        for (size_t m = 1; m < c.n; m++)
            assert_true(c.m[m - 1].end <= c.m[m].end);
        mv_ac_free(ac);
    }
}

/* Large sets use the hybrid form (sparse edges + failure links) instead of
 * the full DFA; both forms must report exactly what a naive search finds. */
static void test_hybrid_form_matches_naive_search(void **state) {
    (void)state;
    enum { NP = 150000, PLEN = 7, TLEN = 4000 };
    static char pats[NP][PLEN + 1];
    mv_ac_builder *b = mv_ac_builder_new(NULL, 0);
    for (size_t i = 0; i < NP; i++) {
        for (size_t k = 0; k < PLEN; k++)
            pats[i][k] = (char)('a' + next_rand() % 26);
        size_t len = 3 + i % (PLEN - 2);
        pats[i][len] = '\0';
        assert_int_equal(mv_ac_builder_add(b, pats[i], len, (uint32_t)i), 0);
    }
    mv_ac *ac = NULL;
    assert_int_equal(mv_ac_build(&ac, b), 0);
    mv_ac_builder_free(b);
    /* The full DFA would need > 4M cells here, so this is the hybrid form. */
    assert_true(mv_ac_state_count(ac) * 27 > 4u * 1024u * 1024u);
    static char text[TLEN];
    for (size_t k = 0; k < TLEN; k++)
        text[k] = (char)('a' + next_rand() % 26);
    static collected c;
    memset(&c, 0, sizeof(c));
    assert_int_equal(mv_ac_scan(ac, text, TLEN, collect, &c), 0);
    size_t expected = 0;
    for (size_t i = 0; i < NP; i++) {
        size_t len = strlen(pats[i]);
        for (size_t s = 0; s + len <= TLEN; s++)
            if (memcmp(text + s, pats[i], len) == 0)
                expected++;
    }
    assert_true(expected > 10);
    assert_int_equal(c.n, expected);
    for (size_t m = 0; m < c.n; m++)
        assert_memory_equal(text + c.m[m].start, pats[c.m[m].id], c.m[m].pattern_len);
    mv_ac_free(ac);
}

static void test_large_pattern_set(void **state) {
    (void)state;
    mv_ac_builder *b = mv_ac_builder_new(NULL, MV_AC_ASCII_CASEFOLD);
    char name[32];
    for (uint32_t i = 0; i < 50000; i++) {
        int n = snprintf(name, sizeof(name), "tool_%u_x", i);
        assert_int_equal(mv_ac_builder_add(b, name, (size_t)n, i), 0);
    }
    mv_ac *ac = NULL;
    assert_int_equal(mv_ac_build(&ac, b), 0);
    mv_ac_builder_free(b);
    assert_true(mv_ac_state_count(ac) > 50000);
    assert_true(mv_ac_memory(ac) > 0);
    static collected c;
    memset(&c, 0, sizeof(c));
    const char *text = "use TOOL_4242_X then tool_49999_x";
    assert_int_equal(mv_ac_scan(ac, text, strlen(text), collect, &c), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.m[0].id, 4242);
    assert_int_equal(c.m[1].id, 49999);
    mv_ac_free(ac);
}

static void test_out_of_memory(void **state) {
    (void)state;
    bool ok = false;
    for (long n = 1; n < 200 && !ok; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_ac_builder *b = mv_ac_builder_new(&fa.allocator, 0);
        int rc = b == NULL ? MV_ENOMEM : 0;
        const char *pats[] = {"ignore", "previous", "instructions", "ignition"};
        for (int i = 0; rc == 0 && i < 4; i++)
            rc = mv_ac_builder_add(b, pats[i], strlen(pats[i]), (uint32_t)i);
        mv_ac *ac = NULL;
        if (rc == 0)
            rc = mv_ac_build(&ac, b);
        if (rc == 0) {
            ok = true;
            static collected c;
            memset(&c, 0, sizeof(c));
            mv_ac_scan(ac, "ignore previous", 15, collect, &c);
            assert_int_equal(c.n, 2);
        } else {
            assert_int_equal(rc, MV_ENOMEM);
            assert_null(ac);
        }
        mv_ac_free(ac);
        mv_ac_builder_free(b);
        assert_int_equal(fa.live, 0);
    }
    assert_true(ok);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overlapping_and_nested),
        cmocka_unit_test(test_casefold_and_duplicates),
        cmocka_unit_test(test_early_stop_and_nul),
        cmocka_unit_test(test_matches_naive_search),
        cmocka_unit_test(test_hybrid_form_matches_naive_search),
        cmocka_unit_test(test_large_pattern_set),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
