/*
 * The tool model on real tools: the 5,049 definitions of
 * shared/corpora/real (beside the checkout) load as a corpus with every
 * tool, name and parameter intact. A user's clone has no shared/ folder:
 * the binary then exits 77 (ctest's SKIP_RETURN_CODE), naming the path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mcpvet/model.h"

static char registry_path[4096];

static void test_real_registry(void **state) {
    (void)state;
    const char *path = registry_path;
    mv_toolset *set = NULL;
    mv_error err;
    mv_error_clear(&err);
    int rc = mv_model_load_file(&set, path, NULL, &err);
    if (rc != MV_OK)
        fail_msg("%s:%d:%d: %s [%s]", err.source, err.line, err.column, err.message, err.where);
    assert_int_equal(set->kind, MV_INPUT_CORPUS);
    assert_int_equal(set->n_entries, 5049);
    assert_int_equal(set->n_tools, 5049);
    assert_int_equal(set->n_caps, 0);
    size_t with_params = 0;
    for (size_t i = 0; i < set->n_entries; i++) {
        const mv_corpus_entry *e = &set->entries[i];
        assert_int_equal(e->tool, i);
        assert_int_equal(e->n_peers, 0);
        assert_false(e->malicious);
        const mv_tool *t = &set->tools[e->tool];
        assert_true(t->n_fields >= 1);
        assert_int_equal(t->fields[0].kind, MV_FIELD_NAME);
        assert_ptr_equal(t->fields[0].text.ptr, t->name.ptr);
        assert_true(t->name.len > 0);
        assert_true(t->server.len > 0);
        with_params += t->n_params > 0;
    }
    assert_true(with_params > 0);
    mv_toolset_free(set);
}

int main(void) {
    const char *dir = getenv("MCPVET_SOURCE_DIR");
    if (dir == NULL) {
        fprintf(stderr, "MCPVET_SOURCE_DIR is not set (run through ctest)\n");
        return 1;
    }
    snprintf(registry_path, sizeof registry_path,
             "%s/../shared/corpora/real/docker_mcp_registry.json", dir);
    if (access(registry_path, R_OK) != 0) {
        printf("SKIPPED: real-tool data not found at %s\n", registry_path);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
