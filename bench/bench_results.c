/*
 * Instructions of the proxy's scan of one tool result, without the proxy:
 * an engine with only unicode.hidden and payload.decoded (the proxy's
 * results engine, guard.c results_engine_new) scans the text of FILE as
 * one result piece REPEAT times. Run under callgrind twice, with REPEAT 1
 * and 3: half the difference is the cost of one scan, free of start-up
 * (docs/performance.md, "The result scan's prefilters"):
 *
 *   valgrind --tool=callgrind build/mcpvet_bench_results FILE 1
 *   valgrind --tool=callgrind build/mcpvet_bench_results FILE 3
 *
 * The texts of bench/proxy_bench.py's kinds are written by
 * `python3 bench/proxy_bench.py --text KIND SIZE > FILE`. Prints the
 * number of findings of the last scan (a check that the text was read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcpvet/arena.h"
#include "mcpvet/engine.h"
#include "mcpvet/registry.h"

#define MAX_TEXT (1u << 20)

static int scan_once(const mv_engine *e, mv_arena *arena, const char *text, size_t len,
                     size_t *findings) {
    mv_registry *reg = mv_registry_new(NULL);
    mv_scan *scan = NULL;
    mv_error err;
    int rc = MV_ENOMEM;
    mv_arena_reset(arena);
    mv_tool *t = mv_arena_calloc(arena, 1, sizeof(*t));
    mv_field *f = mv_arena_calloc(arena, 2, sizeof(*f));
    if (reg == NULL || t == NULL || f == NULL)
        goto done;
    t->server = MV_STR_LIT("result");
    t->name = MV_STR_LIT("r0");
    t->description = (mv_str){text, len};
    t->kind = MV_ITEM_TOOL;
    f[0] = (mv_field){.kind = MV_FIELD_NAME,
                      .schema = MV_SCHEMA_NONE,
                      .param = -1,
                      .path = MV_STR_LIT("name"),
                      .text = t->name};
    f[1] = (mv_field){.kind = MV_FIELD_DESCRIPTION,
                      .schema = MV_SCHEMA_NONE,
                      .param = -1,
                      .path = MV_STR_LIT("description"),
                      .text = t->description};
    t->fields = f;
    t->n_fields = 2;
    if ((rc = mv_registry_add(reg, t)) != MV_OK || (rc = mv_registry_freeze(reg)) != MV_OK ||
        (rc = mv_scan_new(&scan, e, reg, &err)) != MV_OK ||
        (rc = mv_scan_run(scan, 1, &err)) != MV_OK)
        goto done;
    *findings = mv_scan_finding_count(scan);
done:
    mv_scan_free(scan);
    mv_registry_free(reg);
    return rc;
}

int main(int argc, char **argv) {
    int status = 1;
    char *text = NULL;
    mv_engine *e = NULL;
    mv_arena *arena = NULL;
    if (argc != 3) {
        fprintf(stderr, "usage: mcpvet_bench_results FILE REPEAT\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    text = malloc(MAX_TEXT);
    if (in == NULL || text == NULL) {
        fprintf(stderr, "mcpvet_bench_results: cannot read %s\n", argv[1]);
        if (in != NULL)
            fclose(in);
        goto done;
    }
    size_t len = fread(text, 1, MAX_TEXT, in);
    fclose(in);
    int repeat = atoi(argv[2]);
    const char *const *ids = mv_builtin_check_ids();
    const char *off[32];
    size_t n = 0;
    for (size_t i = 0; ids[i] != NULL && n < 32; i++)
        if (strcmp(ids[i], "unicode.hidden") != 0 && strcmp(ids[i], "payload.decoded") != 0)
            off[n++] = ids[i];
    mv_engine_options eo = {.disabled = off, .n_disabled = n};
    eo.limits.max_normalize_bytes = 1; /* as the proxy's results engine */
    mv_error err;
    arena = mv_arena_new(NULL, 0);
    if (arena == NULL || mv_engine_new(&e, &eo, &err) != MV_OK) {
        fprintf(stderr, "mcpvet_bench_results: cannot build the engine\n");
        goto done;
    }
    size_t findings = 0;
    for (int r = 0; r < repeat; r++) {
        if (scan_once(e, arena, text, len, &findings) != MV_OK) {
            fprintf(stderr, "mcpvet_bench_results: the scan failed\n");
            goto done;
        }
    }
    printf("findings %zu\n", findings);
    status = 0;
done:
    mv_engine_free(e);
    mv_arena_free(arena);
    free(text);
    return status;
}
