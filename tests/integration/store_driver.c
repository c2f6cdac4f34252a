/*
 * Test driver for tests/integration/security.sh: applies one "scan" of a
 * tools file to a store the way the pipeline will (model with canonical
 * definitions, then mv_store_apply_scan), without the engine: the verdict
 * of each tool comes from the command line, so the test decides exactly
 * which tool is quarantined. Prints each tool's state (one line each) and
 * exits 1 when the scan must fail a CI
 * run (quarantined, changed, identity changed), else 0; 2 on errors.
 *
 * Usage: mcpvet_store_driver STORE SERVER COMMAND TOOLS.json [QUARANTINED-TOOL...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "mcpvet/arena.h"
#include "mcpvet/evidence.h"
#include "mcpvet/model.h"
#include "mcpvet/store.h"

#define NAME_CAP 256u
#define TEXT_CAP 2048u

/* Render-safe copy of tool- or server-supplied text. */
static const char *safe(mv_arena *a, const char *s, size_t len, size_t cap) {
    mv_str out = {NULL, 0};
    if (s == NULL)
        return "";
    if (mv_evidence_render(a, s, len, cap, &out, NULL) != MV_OK)
        return "?";
    return out.ptr;
}

static void put_fields(mv_buf *b, unsigned bits) {
    bool first = true;
    for (int k = 0; k < MV_PIN_FIELD_COUNT; k++) {
        if (!(bits & (1u << k)))
            continue;
        mv_buf_puts(b, first ? "" : ", ");
        mv_buf_puts(b, mv_pin_field_name((mv_pin_field)k));
        first = false;
    }
}

/* One line per item with its state (what changed, renames, removals, a
 * changed server identity), every name rendered safe. */
static void print_states(FILE *f, const mv_scan_server *servers,
                                  const mv_store_scan_result *r) {
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf b;
    mv_buf_init(&b, NULL);
    for (size_t i = 0; a != NULL && r != NULL && i < r->n_servers; i++) {
        const mv_store_server_result *s = &r->servers[i];
        const char *srv = safe(a, s->name.ptr, s->name.len, NAME_CAP);
        if (s->identity_changed)
            mv_buf_printf(&b,
                          "server %s: identity changed (was %s): its approved tools need "
                          "approval again\n",
                          srv,
                          safe(a, s->previous_reached.ptr, s->previous_reached.len, TEXT_CAP));
        for (size_t j = 0; j < s->n_items; j++) {
            const mv_store_item_result *it = &s->items[j];
            const mv_scan_item *in = &servers[i].items[j];
            mv_buf_printf(&b, "%-12s %s/%s", mv_tool_state_name(it->state), srv,
                          safe(a, in->name.ptr, in->name.len, NAME_CAP));
            if (it->previous == MV_STATE_NONE)
                mv_buf_puts(&b, "  new");
            else if (it->previous != it->state)
                mv_buf_printf(&b, "  was %s", mv_tool_state_name(it->previous));
            if (it->state == MV_STATE_CHANGED && it->changed_fields != 0) {
                mv_buf_puts(&b, "; changed: ");
                put_fields(&b, it->changed_fields);
            }
            if (it->renamed_from.len > 0)
                mv_buf_printf(&b, "; renamed from %s",
                              safe(a, it->renamed_from.ptr, it->renamed_from.len, NAME_CAP));
            mv_buf_putc(&b, '\n');
        }
        for (size_t j = 0; j < s->n_removed; j++)
            mv_buf_printf(&b, "%-12s %s/%s  no longer advertised\n", "removed", srv,
                          safe(a, s->removed[j].ptr, s->removed[j].len, NAME_CAP));
    }
    if (!b.failed && b.len > 0)
        fwrite(b.data, 1, b.len, f);
    mv_buf_release(&b);
    mv_arena_free(a);
}

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
        print_states(stdout, &sv, r);
        code = mv_store_scan_fails(r, false) ? 1 : 0;
    }
    mv_store_scan_result_free(r);
    mv_store_close(st);
    mv_toolset_free(set);
    free(items);
    return code;
}
