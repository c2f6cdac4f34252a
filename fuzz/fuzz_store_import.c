/*
 * libFuzzer target for the approval store's baseline import
 * (mv_store_import, include/mcpvet/store.h): the strict parse, the shape
 * and pin checks, and the one transaction that applies a baseline.
 *
 * LLVMFuzzerInitialize builds a template store in a scratch directory:
 * server "srv" (stdio, command "cmd") with tools add (approved), echo
 * (pending), wipe (quarantined) and gone (removed), and server "other"
 * with one approved tool. Every input runs against a fresh copy of it:
 *  - a refused import changes nothing: the export, the tool list with its
 *    states and the audit log are as before;
 *  - an accepted import gives a store whose own export imports again and
 *    exports to the very same bytes (a fixed point), and the audit log
 *    only grows.
 * Seeds in fuzz/corpus_store/ are exports of that template (made with
 * `mcpvet security export`) and edited copies. Build and run: see
 * fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_store_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what) {
    fprintf(stderr, "fuzz_store_import: invariant broken: %s\n", what);
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    static const char *const names[] = {"add", "echo", "wipe", "gone"};
    static const char *const defs[] = {
        FZ_DEF("add", "Adds two numbers."), FZ_DEF("echo", "Echoes the input."),
        FZ_DEF("wipe", "Deletes everything."), FZ_DEF("gone", "Soon removed.")};
    static const mv_verdict verdicts[] = {MV_VERDICT_CLEAN, MV_VERDICT_CLEAN, MV_VERDICT_QUARANTINE,
                                          MV_VERDICT_CLEAN};
    static const char *const other_names[] = {"lookup"};
    static const char *const other_defs[] = {FZ_DEF("lookup", "Looks things up.")};
    static const mv_verdict other_verdicts[] = {MV_VERDICT_CLEAN};
    static const char *const approve[] = {"add", "gone"};
    mv_error err;
    (void)argc;
    (void)argv;
    fz_scratch("fuzz_store_import");
    mv_store *st = fz_open(fz_template, true);
    fz_scan(st, "srv", names, defs, verdicts, 4);
    fz_scan(st, "other", other_names, other_defs, other_verdicts, 1);
    mv_error_clear(&err);
    if (mv_store_approve(st, "srv", approve, 2, false, MV_ACTOR_CLI, "ok", NULL, &err) != MV_OK ||
        mv_store_approve(st, "other", NULL, 0, false, MV_ACTOR_CLI, NULL, NULL, &err) != MV_OK)
        abort();
    fz_scan(st, "srv", names, defs, verdicts, 3); /* "gone" is removed */
    const char *seed = getenv("MCPVET_FUZZ_WRITE_SEED");
    if (seed != NULL) { /* how fuzz/corpus_store_import/export.json was made */
        mv_buf e;
        mv_buf_init(&e, NULL);
        if (mv_store_export(st, &e, &err) != MV_OK)
            abort();
        fz_write_file(seed, e.data, e.len);
        mv_buf_release(&e);
    }
    mv_store_close(st);
    mv_buf_init(&fz_template_bytes, NULL);
    fz_read_file(fz_template, &fz_template_bytes);
    return 0;
}

/* Everything a refused import must leave as it was, as bytes. */
static void state_of(mv_store *st, mv_buf *out) {
    mv_store_tool_list *l = NULL;
    mv_store_event_list *ev = NULL;
    mv_store_filter f;
    mv_error err;
    memset(&f, 0, sizeof f);
    f.definitions = true;
    out->len = 0;
    if (mv_store_export(st, out, &err) != MV_OK)
        broken("export failed");
    if (mv_store_list(st, &f, &l, &err) != MV_OK)
        broken("list failed");
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_tool *t = &l->tools[i];
        mv_buf_printf(out, "\n%s/%s %s %s %s %s", t->server, t->name, mv_tool_state_name(t->state),
                      t->approved_pin != NULL ? t->approved_pin : "-",
                      t->current_pin != NULL ? t->current_pin : "-",
                      t->approved_definition != NULL ? t->approved_definition : "-");
    }
    mv_store_tool_list_free(l);
    if (mv_store_history(st, NULL, NULL, 0, &ev, &err) != MV_OK)
        broken("history failed");
    mv_buf_printf(out, "\nevents %zu", ev->n);
    mv_store_event_list_free(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mv_buf before, after, again;
    mv_error err;
    size_t n = 0;
    if (size > 65536)
        return 0;
    fz_fresh_work();
    mv_store *st = fz_open(fz_work, false);
    mv_buf_init(&before, NULL);
    mv_buf_init(&after, NULL);
    mv_buf_init(&again, NULL);
    state_of(st, &before);
    mv_error_clear(&err);
    int rc = mv_store_import(st, (const char *)data, size, "fuzz.json", MV_ACTOR_CLI, &n, &err);
    if (rc != MV_OK) {
        if (rc != err.code)
            broken("error code differs from the return value");
        if (rc != MV_EPARSE && rc != MV_EINVAL && rc != MV_ENOMEM)
            fprintf(stderr, "fuzz_store_import: unusual code %d: %s\n", rc, err.message);
        state_of(st, &after);
        if (after.len != before.len || memcmp(after.data, before.data, before.len) != 0)
            broken("a refused import changed the store");
    } else {
        mv_buf exported;
        mv_buf_init(&exported, NULL);
        if (mv_store_export(st, &exported, &err) != MV_OK)
            broken("export after an import failed");
        mv_error_clear(&err);
        if (mv_store_import(st, exported.data, exported.len, "self", MV_ACTOR_CLI, NULL, &err) !=
            MV_OK) {
            fprintf(stderr, "fuzz_store_import: %s\n", err.message);
            broken("the store's own export does not import");
        }
        if (mv_store_export(st, &again, &err) != MV_OK)
            broken("export after the re-import failed");
        if (again.len != exported.len || memcmp(again.data, exported.data, again.len) != 0)
            broken("export -> import -> export is not a fixed point");
        mv_buf_release(&exported);
    }
    mv_buf_release(&before);
    mv_buf_release(&after);
    mv_buf_release(&again);
    mv_store_close(st);
    return 0;
}
