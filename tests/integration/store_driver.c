/*
 * Test driver for tests/integration/security.sh: applies one "scan" of a
 * tools file to a store the way the pipeline will (model with canonical
 * definitions, then mv_store_apply_scan), without the engine: the verdict
 * of each tool comes from the command line, so the test decides exactly
 * which tool is quarantined. Prints each tool's state with
 * mv_cli_security_print_states and exits 1 when the scan must fail a CI
 * run (quarantined, changed, identity changed), else 0; 2 on errors.
 *
 * Usage: mcpvet_store_driver STORE SERVER COMMAND TOOLS.json [QUARANTINED-TOOL...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "mcpvet/model.h"
#include "mcpvet/store.h"

int main(int argc, char **argv) {
    if (argc < 5) {
        fputs("usage: mcpvet_store_driver STORE SERVER COMMAND TOOLS.json [QUARANTINED...]\n",
              stderr);
        return 2;
    }
    mv_error err;
    mv_toolset *set = NULL;
    mv_model_options mo = {.keep_definitions = true, .server = argv[2]};
    mv_error_clear(&err);
    if (mv_model_load_file(&set, argv[4], &mo, &err) != MV_OK) {
        mv_cli_print_error(&err, argv[4]);
        return 2;
    }
    mv_scan_item *items = calloc(set->n_tools + 1, sizeof(*items));
    if (items == NULL)
        return 2;
    for (size_t i = 0; i < set->n_tools; i++) {
        const mv_tool *t = &set->tools[i];
        items[i].name = t->name;
        items[i].kind = t->kind;
        items[i].definition = t->definition;
        items[i].verdict = MV_VERDICT_CLEAN;
        for (int k = 5; k < argc; k++)
            if (strlen(argv[k]) == t->name.len && memcmp(argv[k], t->name.ptr, t->name.len) == 0) {
                items[i].verdict = MV_VERDICT_QUARANTINE;
                items[i].findings =
                    MV_STR_LIT("[{\"check\":\"unicode.hidden\",\"severity\":\"critical\","
                               "\"evidence\":\"zero-width space in the description\"}]");
            }
    }
    mv_scan_server sv = {.ident = {.name = argv[2], .transport = "stdio", .command = argv[3]},
                         .items = items,
                         .n_items = set->n_tools};
    mv_store *st = NULL;
    mv_store_options so = {.create = true};
    mv_store_scan_result *r = NULL;
    int code = 2;
    if (mv_store_open(&st, argv[1], &so, &err) != MV_OK ||
        mv_store_apply_scan(st, &sv, 1, (int64_t)time(NULL), MV_ACTOR_CLI, &r, &err) != MV_OK) {
        mv_cli_print_error(&err, argv[1]);
    } else {
        mv_cli_security_print_states(stdout, &sv, r);
        code = mv_store_scan_fails(r, false) ? 1 : 0;
    }
    mv_store_scan_result_free(r);
    mv_store_close(st);
    mv_toolset_free(set);
    free(items);
    return code;
}
