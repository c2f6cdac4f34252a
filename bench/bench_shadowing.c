/*
 * Scaling benchmark of shadowing.cross_server's name indexes (issue 10,
 * section 3): the typosquat deletion neighbourhood must stay linear in the
 * registry size. Builds registries of N synthetic tools in memory, every
 * name distinct (the worst case for the name index: nothing collapses into
 * twins), with a few planted typosquats that copy their victim's text, and
 * times an engine with only this check: prepare (the indexes) and the scan
 * (every tool's inspect), as CPU time per tool. Also prints whether every
 * planted squat was found and nothing else was flagged.
 *
 * Usage: mcpvet_bench_shadowing [N ...]   (default 10000 100000 1000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcpvet/arena.h"
#include "mcpvet/engine.h"
#include "mcpvet/registry.h"

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *const verbs[] = {"get",    "list",   "create", "update",  "delete", "search",
                                    "export", "import", "sync",   "archive", "fetch",  "render"};
static const char *const nouns[] = {
    "invoice", "customer", "project",  "ticket",   "report",   "dataset",   "pipeline",
    "channel", "document", "contract", "shipment", "campaign", "warehouse", "employee",
    "payment", "calendar", "message",  "branch",   "release",  "incident",  "playbook"};
#define NV (sizeof(verbs) / sizeof(verbs[0]))
#define NN (sizeof(nouns) / sizeof(nouns[0]))

static char *dup_text(mv_arena *a, const char *s) {
    return mv_arena_memdup(a, s, strlen(s));
}

static mv_tool *make_tool(mv_arena *a, const char *server, const char *name, const char *desc) {
    mv_tool *t = mv_arena_calloc(a, 1, sizeof(mv_tool));
    mv_field *f = mv_arena_calloc(a, 2, sizeof(mv_field));
    if (t == NULL || f == NULL)
        return NULL;
    t->server = (mv_str){dup_text(a, server), strlen(server)};
    t->name = (mv_str){dup_text(a, name), strlen(name)};
    t->description = (mv_str){dup_text(a, desc), strlen(desc)};
    f[0] = (mv_field){.kind = MV_FIELD_NAME, .param = -1, .path = {"name", 4}, .text = t->name};
    f[1] = (mv_field){.kind = MV_FIELD_DESCRIPTION,
                      .param = -1,
                      .path = {"description", 11},
                      .text = t->description};
    t->fields = f;
    t->n_fields = 2;
    return t;
}

/* The i-th name: verb_noun_noun plus a base-26 word, all distinct. */
static void name_of(size_t i, char *out, size_t cap) {
    char word[8];
    size_t k = 0, v = i;
    do {
        word[k++] = (char)('a' + v % 26);
        v /= 26;
    } while (v > 0 && k < 7);
    word[k] = '\0';
    snprintf(out, cap, "%s_%s_%s_%s", verbs[i % NV], nouns[(i / NV) % NN], nouns[(i / 7) % NN],
             word);
}

static int run(size_t n) {
    int rc = 1;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_registry *r = mv_registry_new(NULL);
    mv_engine *e = NULL;
    mv_scan *s = NULL;
    if (a == NULL || r == NULL)
        goto done;
    char server[32], name[96], desc[160];
    for (size_t i = 0; i < n; i++) {
        snprintf(server, sizeof server, "srv%zu", i / 10);
        name_of(i, name, sizeof name);
        snprintf(desc, sizeof desc, "Tool %zu: %s the %s records of the %s service.", i,
                 verbs[i % NV], nouns[(i / NV) % NN], nouns[(i / 7) % NN]);
        mv_tool *t = make_tool(a, server, name, desc);
        if (t == NULL || mv_registry_add(r, t) != 0)
            goto done;
    }
    /* planted: one letter of the second word deleted, the text copied */
    size_t planted = 4, victims[4] = {n / 5, 2 * n / 5, 3 * n / 5, 4 * n / 5};
    for (size_t k = 0; k < planted; k++) {
        size_t i = victims[k];
        name_of(i, name, sizeof name);
        char *second = strchr(name, '_') + 1;
        memmove(second + 2, second + 3, strlen(second + 3) + 1); /* "invoice" -> "invice" */
        snprintf(desc, sizeof desc, "Tool %zu: %s the %s records of the %s service.", i,
                 verbs[i % NV], nouns[(i / NV) % NN], nouns[(i / 7) % NN]);
        snprintf(server, sizeof server, "evil%zu", k);
        mv_tool *t = make_tool(a, server, name, desc);
        if (t == NULL || mv_registry_add(r, t) != 0)
            goto done;
    }
    if (mv_registry_freeze(r) != 0)
        goto done;
    const char *const others[] = {"unicode.hidden", "payload.decoded", "directive.imperative",
                                  "capability.mismatch", "secret.embedded"};
    mv_engine_options o;
    memset(&o, 0, sizeof(o));
    o.disabled = others;
    o.n_disabled = sizeof(others) / sizeof(others[0]);
    mv_error err;
    if (mv_engine_new(&e, &o, &err) != 0)
        goto done;
    double t0 = cpu_ms();
    if (mv_scan_new(&s, e, r, &err) != 0)
        goto done;
    double t1 = cpu_ms();
    if (mv_scan_run(s, 1, &err) != 0)
        goto done;
    double t2 = cpu_ms();
    size_t total = n + planted, flagged = 0, found = 0;
    for (size_t i = 0; i < total; i++) {
        const mv_finding *f = mv_scan_finding(s, i);
        if (f->verdict != MV_VERDICT_CLEAN)
            flagged++;
        if (i >= n && f->verdict == MV_VERDICT_QUARANTINE)
            found++;
    }
    printf("shadowing %8zu tools  prepare %9.1f ms (%6.3f us/tool)  inspect %9.1f ms (%6.3f "
           "us/tool)  squats %zu/%zu  other flagged %zu  degraded %s\n",
           total, t1 - t0, (t1 - t0) * 1e3 / (double)total, t2 - t1,
           (t2 - t1) * 1e3 / (double)total, found, planted, flagged - found,
           mv_scan_coverage(s)->degraded ? "yes" : "no");
    rc = 0;
done:
    mv_scan_free(s);
    mv_engine_free(e);
    mv_registry_free(r);
    mv_arena_free(a);
    return rc;
}

int main(int argc, char **argv) {
    static const size_t defaults[] = {10000, 100000, 1000000};
    int rc = 0;
    if (argc < 2) {
        for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]) && rc == 0; i++)
            rc = run(defaults[i]);
    } else {
        for (int i = 1; i < argc && rc == 0; i++)
            rc = run((size_t)strtoull(argv[i], NULL, 10));
    }
    if (rc != 0)
        fprintf(stderr, "mcpvet_bench_shadowing: failed\n");
    return rc;
}
