/*
 * Registry tests: exact-name index with ids in insertion order, server
 * interning, membership, life-cycle errors and out-of-memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fail_alloc.h"
#include "mcpvet/registry.h"
#include "tool_builder.h"

static void test_index_by_name_and_server(void **state) {
    (void)state;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_registry *r = mv_registry_new(NULL);
    const char *servers[] = {"github", "gitlab", "github", "fs", "gitlab"};
    const char *names[] = {"create_pull_request", "create_pull_request", "list_issues", "read_file",
                           "create_pull_request"};
    for (int i = 0; i < 5; i++)
        assert_int_equal(mv_registry_add(r, tb_tool(a, servers[i], names[i], NULL)), 0);
    assert_false(mv_registry_frozen(r));
    assert_int_equal(mv_registry_freeze(r), 0);
    assert_int_equal(mv_registry_freeze(r), 0); /* idempotent */
    assert_true(mv_registry_frozen(r));
    assert_int_equal(mv_registry_add(r, tb_tool(a, "x", "y", NULL)), MV_EINVAL);

    assert_int_equal(mv_registry_count(r), 5);
    assert_int_equal(mv_registry_name_count(r), 3);
    size_t n;
    const uint32_t *ids = mv_registry_find_name(r, "create_pull_request", 19, &n);
    assert_int_equal(n, 3);
    assert_int_equal(ids[0], 0);
    assert_int_equal(ids[1], 1);
    assert_int_equal(ids[2], 4);
    assert_true(mv_registry_has_name(r, "read_file", 9));
    assert_false(mv_registry_has_name(r, "read_fil", 8));
    assert_false(mv_registry_has_name(r, "Read_file", 9)); /* exact bytes only */
    assert_null(mv_registry_find_name(r, "nope", 4, &n));
    assert_int_equal(n, 0);

    assert_int_equal(mv_registry_server_count(r), 3);
    assert_int_equal(mv_registry_tool_server(r, 0), 0);
    assert_int_equal(mv_registry_tool_server(r, 2), 0);
    assert_int_equal(mv_registry_tool_server(r, 4), 1);
    mv_str s = mv_registry_server_name(r, 2);
    assert_int_equal(s.len, 2);
    assert_memory_equal(s.ptr, "fs", 2);
    assert_null(mv_registry_server_name(r, 3).ptr);
    assert_null(mv_registry_tool(r, 5));
    assert_int_equal(mv_registry_tool_server(r, 5), UINT32_MAX);
    mv_registry_free(r);
    mv_registry_free(NULL);
    mv_arena_free(a);
}

static void test_many_tools(void **state) {
    (void)state;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_registry *r = mv_registry_new(NULL);
    for (int i = 0; i < 20000; i++) {
        char name[32], server[32];
        snprintf(name, sizeof(name), "tool_%d", i % 5000);
        snprintf(server, sizeof(server), "server_%d", i / 5000);
        assert_int_equal(mv_registry_add(r, tb_tool(a, server, name, NULL)), 0);
    }
    assert_int_equal(mv_registry_freeze(r), 0);
    assert_int_equal(mv_registry_name_count(r), 5000);
    assert_int_equal(mv_registry_server_count(r), 4);
    size_t n;
    const uint32_t *ids = mv_registry_find_name(r, "tool_17", 7, &n);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ids[i], 17 + 5000 * i);
    mv_registry_free(r);
    mv_arena_free(a);
}

static void test_empty_registry_and_nul_names(void **state) {
    (void)state;
    mv_registry *r = mv_registry_new(NULL);
    assert_int_equal(mv_registry_freeze(r), 0);
    assert_int_equal(mv_registry_count(r), 0);
    assert_false(mv_registry_has_name(r, "x", 1));
    mv_registry_free(r);

    mv_arena *a = mv_arena_new(NULL, 0);
    r = mv_registry_new(NULL);
    mv_tool *t = tb_tool(a, "s", "ab", NULL);
    t->name = (mv_str){"a\0b", 3}; /* names may contain NUL */
    assert_int_equal(mv_registry_add(r, t), 0);
    assert_int_equal(mv_registry_freeze(r), 0);
    assert_true(mv_registry_has_name(r, "a\0b", 3));
    assert_false(mv_registry_has_name(r, "a", 1));
    mv_registry_free(r);
    mv_arena_free(a);
}

static void test_out_of_memory(void **state) {
    (void)state;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_tool *tools[100];
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof(name), "t%d", i % 10);
        tools[i] = tb_tool(a, i % 3 ? "x" : "y", name, NULL);
    }
    bool ok = false;
    for (long n = 1; n < 100 && !ok; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_registry *r = mv_registry_new(&fa.allocator);
        int rc = r == NULL ? MV_ENOMEM : 0;
        for (int i = 0; rc == 0 && i < 100; i++)
            rc = mv_registry_add(r, tools[i]);
        if (rc == 0)
            rc = mv_registry_freeze(r);
        if (rc == 0) {
            ok = true;
            assert_true(mv_registry_has_name(r, "t3", 2));
        } else {
            assert_int_equal(rc, MV_ENOMEM);
            assert_false(mv_registry_frozen(r));
        }
        mv_registry_free(r);
        assert_int_equal(fa.live, 0);
    }
    assert_true(ok);
    mv_arena_free(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_by_name_and_server),
        cmocka_unit_test(test_many_tools),
        cmocka_unit_test(test_empty_registry_and_nul_names),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
