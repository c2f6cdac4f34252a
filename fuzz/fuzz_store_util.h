/*
 * Shared by the fuzz targets that run over an approval store (fuzz_rest,
 * fuzz_mcpserver and fuzz_proxy drive a whole service; fuzz_store_import
 * builds its own template with a removed tool): a scratch directory (in
 * /dev/shm when there is one: the store syncs every commit), a template
 * store built once with known states, a fresh copy of it per input, and
 * the store's whole state as bytes, so "nothing changed" is a comparison.
 * Header-only: each target is a single .c file (CMakeLists.txt).
 *
 * The template: server "srv" (stdio, command "cmd") with tools add
 * (approved), echo (pending) and wipe (quarantined), and server "other"
 * with lookup (approved).
 */
#ifndef FUZZ_STORE_UTIL_H
#define FUZZ_STORE_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcpvet/buf.h"
#include "mcpvet/store.h"

static char fz_dir[256], fz_template[300], fz_work[300];
static mv_buf fz_template_bytes;

static inline int64_t fz_clock(void *arg) {
    (void)arg;
    return 1750000000;
}

static inline mv_store *fz_open(const char *path, bool create) {
    mv_store *st = NULL;
    mv_error err;
    mv_store_options o;
    memset(&o, 0, sizeof o);
    o.create = create;
    o.clock = fz_clock;
    mv_error_clear(&err);
    if (mv_store_open(&st, path, &o, &err) != MV_OK) {
        fprintf(stderr, "fuzz: open %s: %s\n", path, err.message);
        abort();
    }
    return st;
}

#define FZ_DEF(name, desc)                                                                         \
    "{\"description\":\"" desc "\",\"inputSchema\":{\"properties\":{\"x\":{\"type\":"              \
    "\"string\"}},\"type\":\"object\"},\"name\":\"" name "\"}"

static inline void fz_scan(mv_store *st, const char *server, const char *const *names,
                           const char *const *defs, const mv_verdict *verdicts, size_t n) {
    mv_scan_item items[8];
    mv_scan_server sv;
    mv_error err;
    memset(items, 0, sizeof items);
    for (size_t i = 0; i < n; i++) {
        items[i].name.ptr = names[i];
        items[i].name.len = strlen(names[i]);
        items[i].kind = MV_ITEM_TOOL;
        items[i].definition.ptr = defs[i];
        items[i].definition.len = strlen(defs[i]);
        items[i].verdict = verdicts[i];
    }
    memset(&sv, 0, sizeof sv);
    sv.ident.name = server;
    sv.ident.transport = "stdio";
    sv.ident.command = "cmd";
    sv.items = items;
    sv.n_items = n;
    mv_error_clear(&err);
    if (mv_store_apply_scan(st, &sv, 1, 1700000000, MV_ACTOR_CLI, NULL, &err) != MV_OK) {
        fprintf(stderr, "fuzz: apply_scan: %s\n", err.message);
        abort();
    }
}

static inline void fz_read_file(const char *path, mv_buf *out) {
    char chunk[65536];
    FILE *f = fopen(path, "rb");
    size_t n;
    out->len = 0;
    if (f == NULL)
        abort();
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mv_buf_append(out, chunk, n);
    fclose(f);
}

static inline void fz_write_file(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        abort();
}

static inline void fz_unlink_db(const char *path) {
    char p[320];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-journal", path);
    unlink(p);
}

/* Extra files a target put in the directory, removed at exit. */
static char fz_extra[4][300];

static inline void fz_cleanup(void) {
    fz_unlink_db(fz_work);
    fz_unlink_db(fz_template);
    for (size_t i = 0; i < 4; i++)
        if (fz_extra[i][0] != '\0')
            unlink(fz_extra[i]);
    rmdir(fz_dir);
}

/* The scratch directory (removed at exit) and the paths of the template
 * and work stores in it. */
static inline void fz_scratch(const char *target) {
    const char *tmp = getenv("TMPDIR");
    if (access("/dev/shm", W_OK) == 0)
        tmp = "/dev/shm";
    snprintf(fz_dir, sizeof fz_dir, "%s/%s.XXXXXX", tmp != NULL ? tmp : "/tmp", target);
    if (mkdtemp(fz_dir) == NULL)
        abort();
    snprintf(fz_template, sizeof fz_template, "%s/template.db", fz_dir);
    snprintf(fz_work, sizeof fz_work, "%s/work.db", fz_dir);
    atexit(fz_cleanup);
}

/* The scratch directory and the template store (fz_template_bytes). */
static inline void fz_init(const char *target) {
    static const char *const names[] = {"add", "echo", "wipe"};
    static const char *const defs[] = {FZ_DEF("add", "Adds two numbers."),
                                       FZ_DEF("echo", "Echoes the input."),
                                       FZ_DEF("wipe", "Deletes everything.")};
    static const mv_verdict verdicts[] = {MV_VERDICT_CLEAN, MV_VERDICT_CLEAN,
                                          MV_VERDICT_QUARANTINE};
    static const char *const other_names[] = {"lookup"};
    static const char *const other_defs[] = {FZ_DEF("lookup", "Looks things up.")};
    static const mv_verdict other_verdicts[] = {MV_VERDICT_CLEAN};
    static const char *const approve[] = {"add"};
    mv_error err;
    fz_scratch(target);
    mv_store *st = fz_open(fz_template, true);
    fz_scan(st, "srv", names, defs, verdicts, 3);
    fz_scan(st, "other", other_names, other_defs, other_verdicts, 1);
    mv_error_clear(&err);
    if (mv_store_approve(st, "srv", approve, 1, false, MV_ACTOR_CLI, "ok", NULL, &err) != MV_OK ||
        mv_store_approve(st, "other", NULL, 0, false, MV_ACTOR_CLI, NULL, NULL, &err) != MV_OK)
        abort();
    mv_store_close(st);
    mv_buf_init(&fz_template_bytes, NULL);
    fz_read_file(fz_template, &fz_template_bytes);
}

/* A fresh copy of the template at fz_work. */
static inline void fz_fresh_work(void) {
    fz_unlink_db(fz_work);
    fz_write_file(fz_work, fz_template_bytes.data, fz_template_bytes.len);
}

/* The decisions of a store as bytes: every tool's state and pins, and the
 * number of audit events. */
static inline void fz_state(mv_store *st, mv_buf *out) {
    mv_store_tool_list *l = NULL;
    mv_store_event_list *ev = NULL;
    mv_store_filter f;
    mv_error err;
    memset(&f, 0, sizeof f);
    out->len = 0;
    if (mv_store_list(st, &f, &l, &err) != MV_OK) {
        fprintf(stderr, "fuzz: list: %s\n", err.message);
        abort();
    }
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_tool *t = &l->tools[i];
        mv_buf_printf(out, "%s/%s %s %s %s\n", t->server, t->name, mv_tool_state_name(t->state),
                      t->approved_pin != NULL ? t->approved_pin : "-",
                      t->current_pin != NULL ? t->current_pin : "-");
    }
    mv_store_tool_list_free(l);
    if (mv_store_history(st, NULL, NULL, 0, &ev, &err) != MV_OK)
        abort();
    mv_buf_printf(out, "events %zu\n", ev->n);
    mv_store_event_list_free(ev);
}

static inline void fz_work_state(mv_buf *out) {
    mv_store *st = fz_open(fz_work, false);
    fz_state(st, out);
    mv_store_close(st);
}

#endif
