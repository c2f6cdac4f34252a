/*
 * libFuzzer target for the tool model: arbitrary bytes go through
 * mv_model_parse (the strict JSON parser, shape detection, field walk and
 * caps), and every accepted tool set is loaded into a registry and scanned
 * by the builtin engine, so hostile-but-valid tool text reaches every check.
 * The engine is built once in LLVMFuzzerInitialize: its rule tables are the
 * expensive part and are read-only during scans.
 *
 * Build and run: see fuzz/README.md. Crashes, sanitizer reports, leaks and
 * the invariants asserted below are findings.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcpvet/engine.h"
#include "mcpvet/model.h"
#include "mcpvet/registry.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static mv_engine *engine;

/* An invariant broken: abort so libFuzzer keeps the input. */
static void broken(const char *what) {
    fprintf(stderr, "fuzz_model: invariant broken: %s\n", what);
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    mv_error err;
    (void)argc;
    (void)argv;
    mv_error_clear(&err);
    if (mv_engine_new(&engine, NULL, &err) != MV_OK) {
        fprintf(stderr, "fuzz_model: mv_engine_new: %s\n", err.message);
        abort();
    }
    return 0;
}

static void scan(const mv_toolset *set) {
    mv_registry *reg = mv_registry_new(NULL);
    mv_scan *s = NULL;
    mv_error err;
    if (reg == NULL)
        broken("mv_registry_new");
    for (size_t i = 0; i < set->n_tools; i++)
        if (mv_registry_add(reg, &set->tools[i]) != MV_OK)
            broken("mv_registry_add of a parsed tool");
    if (mv_registry_freeze(reg) != MV_OK)
        broken("mv_registry_freeze");
    if (mv_registry_count(reg) != set->n_tools)
        broken("registry count differs from the tool set");
    mv_error_clear(&err);
    if (mv_scan_new(&s, engine, reg, &err) != MV_OK || mv_scan_run(s, 1, &err) != MV_OK)
        broken("scan of a parsed tool set failed");
    size_t n = mv_scan_finding_count(s);
    for (size_t i = 0; i < n; i++)
        if (mv_scan_finding(s, i) == NULL)
            broken("missing finding");
    (void)mv_scan_summarize(s);
    mv_scan_free(s);
    mv_registry_free(reg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mv_toolset *set = NULL;
    mv_error err;
    mv_model_options opts = {0};
    /* Small caps keep each run short while still hitting every cap path. */
    opts.limits.max_document_bytes = 1u << 20;
    opts.limits.max_field_bytes = 4096;
    opts.limits.max_tools_per_server = 64;
    opts.limits.max_fields_per_tool = 256;
    mv_error_clear(&err);
    int rc = mv_model_parse(&set, (const char *)data, size, "fuzz.json", &opts, &err);
    if (rc == MV_OK) {
        if (set == NULL)
            broken("success without a tool set");
        scan(set);
        mv_toolset_free(set);
    } else if (set != NULL) {
        broken("failure with a tool set");
    } else if (err.code != rc) {
        broken("error code differs from the return value");
    }
    return 0;
}
