/*
 * Arena and buffer tests: alignment, growth, reset/rewind, JSON string
 * escaping, sticky out-of-memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fail_alloc.h"
#include "mcpvet/arena.h"
#include "mcpvet/buf.h"

static void test_alloc_align_and_blocks(void **state) {
    (void)state;
    mv_arena *a = mv_arena_new(NULL, 128);
    for (int i = 1; i < 300; i += 7) {
        unsigned char *p = mv_arena_alloc(a, (size_t)i);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        memset(p, 0xAB, (size_t)i);
    }
    void *big = mv_arena_alloc(a, 10000); /* larger than a block */
    assert_non_null(big);
    memset(big, 1, 10000);
    assert_null(mv_arena_alloc(a, SIZE_MAX - 4));
    assert_null(mv_arena_calloc(a, SIZE_MAX / 2, 4));
    int *z = mv_arena_calloc(a, 10, sizeof(int));
    for (int i = 0; i < 10; i++)
        assert_int_equal(z[i], 0);
    char *d = mv_arena_memdup(a, "a\0b", 3);
    assert_memory_equal(d, "a\0b\0", 4);
    mv_arena_reset(a);
    assert_int_equal(mv_arena_used(a), 0);
    mv_arena_free(a);
    mv_arena_free(NULL);
}

static void test_grow_in_place_and_rewind(void **state) {
    (void)state;
    mv_arena *a = mv_arena_new(NULL, 4096);
    char *p = mv_arena_alloc(a, 10);
    memcpy(p, "0123456789", 10);
    char *q = mv_arena_grow(a, p, 10, 100);
    assert_ptr_equal(p, q); /* last allocation grows in place */
    char *r = mv_arena_grow(a, q, 100, 100000);
    assert_memory_equal(r, "0123456789", 10);
    mv_arena_mark m = mv_arena_save(a);
    size_t used = mv_arena_used(a);
    for (int i = 0; i < 100; i++)
        assert_non_null(mv_arena_alloc(a, 1000));
    mv_arena_rewind(a, m);
    assert_int_equal(mv_arena_used(a), used);
    assert_memory_equal(r, "0123456789", 10);
    mv_arena_free(a);
}

static void test_arena_out_of_memory(void **state) {
    (void)state;
    fail_alloc fa;
    fail_alloc_init(&fa, 2);
    mv_arena *a = mv_arena_new(&fa.allocator, 64);
    assert_non_null(a);
    assert_null(mv_arena_alloc(a, 10));
    mv_arena_free(a);
    assert_int_equal(fa.live, 0);
}

static void test_buf_json_escaping(void **state) {
    (void)state;
    mv_buf b;
    mv_buf_init(&b, NULL);
    mv_buf_json_string(&b, "a\"b\\c\n\x01\x1b\xe2\x80\xa8\xff\xc3\xa9\0z", 16);
    assert_string_equal(b.data, "\"a\\\"b\\\\c\\n\\u0001\\u001b\\u2028\\ufffd\xc3\xa9\\u0000z\"");
    mv_buf_release(&b);
    mv_buf_init(&b, NULL);
    for (int i = 0; i < 1000; i++)
        mv_buf_printf(&b, "%d,", i);
    assert_int_equal(b.len, 3890);
    mv_buf_release(&b);
}

static void test_buf_sticky_failure(void **state) {
    (void)state;
    fail_alloc fa;
    fail_alloc_init(&fa, 2);
    mv_buf b;
    mv_buf_init(&b, &fa.allocator);
    assert_int_equal(mv_buf_puts(&b, "hello"), 0);
    char big[600];
    memset(big, 'x', sizeof(big));
    assert_int_equal(mv_buf_append(&b, big, sizeof(big)), MV_ENOMEM);
    assert_int_equal(mv_buf_puts(&b, "x"), MV_ENOMEM); /* sticky */
    assert_true(b.failed);
    assert_string_equal(b.data, "hello");
    mv_buf_release(&b);
    assert_int_equal(fa.live, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_align_and_blocks),
        cmocka_unit_test(test_grow_in_place_and_rewind),
        cmocka_unit_test(test_arena_out_of_memory),
        cmocka_unit_test(test_buf_json_escaping),
        cmocka_unit_test(test_buf_sticky_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
