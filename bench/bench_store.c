/*
 * Approval store benchmark (bench/run.sh): the cost of updating the store
 * after a scan of N tools and of approving N tools, on a real SQLite file
 * (WAL, synchronous=FULL) in a temporary directory. Each run uses a fresh
 * store; reports the median wall time of several runs for: the first scan
 * (N new tools), a rescan with nothing changed (the common case), a rescan
 * where every tool changed, and `approve --all` of N tools.
 *
 * Usage: mcpvet_bench_store [--tools N] [--runs R] [--dir DIR]
 * Output: "key value" lines (seconds), for run.sh to tabulate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mcpvet/store.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* N realistic-sized canonical definitions; `variant` changes every one. */
static void make_items(mv_scan_item *items, char **defs, char (*names)[32], size_t n, int variant) {
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], 32, "tool_%06zu", i);
        free(defs[i]);
        defs[i] = malloc(1024);
        snprintf(defs[i], 1024,
                 "{\"annotations\":{\"readOnlyHint\":true},\"description\":\"Tool %zu of the "
                 "benchmark server, variant %d: reads a resource and returns its content as "
                 "text.\",\"inputSchema\":{\"properties\":{\"limit\":{\"default\":10,"
                 "\"description\":\"Maximum number of items\",\"type\":\"integer\"},\"path\":"
                 "{\"description\":\"Path of the resource\",\"type\":\"string\"}},"
                 "\"required\":[\"path\"],\"type\":\"object\"},\"name\":\"%s\"}",
                 i, variant, names[i]);
        items[i] = (mv_scan_item){.name = {names[i], strlen(names[i])},
                                  .kind = MV_ITEM_TOOL,
                                  .definition = {defs[i], strlen(defs[i])},
                                  .verdict = MV_VERDICT_CLEAN};
    }
}

int main(int argc, char **argv) {
    size_t n = 10000;
    int runs = 5;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--tools") == 0)
            n = (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--dir") == 0)
            base = argv[i + 1];
    }
    if (n == 0 || runs < 1 || runs > 100) {
        fputs("usage: mcpvet_bench_store [--tools N] [--runs R] [--dir DIR]\n", stderr);
        return 2;
    }
    char dir[512];
    snprintf(dir, sizeof(dir), "%s/mcpvet-bench-store-XXXXXX", base);
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 2;
    }
    mv_scan_item *items = calloc(n, sizeof(*items));
    char **defs = calloc(n, sizeof(*defs));
    char(*names)[32] = calloc(n, 32);
    double first[100], same[100], changed[100], approve[100];
    int code = 0;
    for (int r = 0; r < runs && code == 0; r++) {
        char path[600];
        snprintf(path, sizeof(path), "%s/store-%d.db", dir, r);
        mv_store *st = NULL;
        mv_error err;
        mv_store_options o = {.create = true};
        mv_scan_server sv = {.ident = {.name = "bench", .transport = "stdio", .command = "bench"},
                             .items = items,
                             .n_items = n};
        if (mv_store_open(&st, path, &o, &err) != MV_OK) {
            fprintf(stderr, "bench_store: %s\n", err.message);
            code = 2;
            break;
        }
        make_items(items, defs, names, n, 0);
        double t0 = now_s();
        int rc = mv_store_apply_scan(st, &sv, 1, 1, MV_ACTOR_CLI, NULL, &err);
        double t1 = now_s();
        if (rc == MV_OK)
            rc = mv_store_approve(st, "bench", NULL, 0, false, MV_ACTOR_CLI, NULL, NULL, &err);
        double t2 = now_s();
        if (rc == MV_OK)
            rc = mv_store_apply_scan(st, &sv, 1, 2, MV_ACTOR_CLI, NULL, &err);
        double t3 = now_s();
        make_items(items, defs, names, n, 1);
        double t4 = now_s();
        if (rc == MV_OK)
            rc = mv_store_apply_scan(st, &sv, 1, 3, MV_ACTOR_CLI, NULL, &err);
        double t5 = now_s();
        if (rc != MV_OK) {
            fprintf(stderr, "bench_store: %s\n", err.message);
            code = 2;
        }
        first[r] = t1 - t0;
        approve[r] = t2 - t1;
        same[r] = t3 - t2;
        changed[r] = t5 - t4;
        mv_store_close(st);
        unlink(path);
    }
    if (code == 0) {
        printf("tools %zu\nruns %d\n", n, runs);
        printf("apply_first_s %.4f\n", median(first, runs));
        printf("apply_unchanged_s %.4f\n", median(same, runs));
        printf("apply_all_changed_s %.4f\n", median(changed, runs));
        printf("approve_all_s %.4f\n", median(approve, runs));
    }
    for (size_t i = 0; i < n; i++)
        free(defs[i]);
    free(defs);
    free(names);
    free(items);
    rmdir(dir);
    return code;
}
