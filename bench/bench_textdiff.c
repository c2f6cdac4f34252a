/*
 * Cost of the character diff (src/store/textdiff.c) on 64 KiB texts, the
 * longest description the model keeps: a few edits (the usual rug pull),
 * two unrelated texts (every mode up to lines runs into its caps), and a
 * text against its reverse. Prints "case mode ms" with the median of R runs
 * and the scratch memory the diff allocated at its peak.
 *
 * Usage: mcpvet_bench_textdiff [--kib N] [--runs R]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcpvet/store.h"

static size_t live, peak;

static void *c_alloc(void *ctx, size_t n) {
    (void)ctx;
    live += n;
    if (live > peak)
        peak = live;
    return malloc(n);
}
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)ctx;
    live += n - o;
    if (live > peak)
        peak = live;
    return realloc(p, n);
}
static void c_free(void *ctx, void *p, size_t n) {
    (void)ctx;
    live -= p != NULL ? n : 0;
    free(p);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *words(size_t len, unsigned seed) {
    static const char *w[] = {"read",    "the", "file", "at",   "path",  "and", "return", "its",
                              "content", "as",  "text", "when", "asked", "by",  "user",   "tool"};
    char *s = malloc(len + 1);
    size_t k = 0;
    while (k < len) {
        seed = seed * 1103515245u + 12345u;
        const char *x = w[(seed >> 16) % 16];
        for (size_t i = 0; x[i] != '\0' && k < len; i++)
            s[k++] = x[i];
        if (k < len)
            s[k++] = (seed >> 8) % 11 == 0 ? '\n' : ' ';
    }
    s[len] = '\0';
    return s;
}

int main(int argc, char **argv) {
    size_t kib = 64;
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--kib") == 0)
            kib = (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
    }
    if (kib == 0 || runs < 1 || runs > 100)
        return 2;
    size_t n = kib * 1024;
    mv_allocator counting = {c_alloc, c_realloc, c_free, NULL};
    char *a = words(n, 1), *b = malloc(n + 1), *c = words(n, 77), *r = malloc(n + 1);
    memcpy(b, a, n + 1);
    for (size_t i = 0; i < 20; i++)
        b[(i * 7919) % n] = 'X'; /* twenty scattered one-character edits */
    for (size_t i = 0; i < n; i++)
        r[i] = a[n - 1 - i];
    r[n] = '\0';
    struct {
        const char *name, *x, *y;
    } cases[] = {{"20 edits", a, b}, {"unrelated", a, c}, {"reversed", a, r}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double t[100];
        mv_diff_mode mode = MV_DIFF_CHAR;
        peak = live = 0;
        for (int i = 0; i < runs; i++) {
            mv_arena *ar = mv_arena_new(NULL, 0);
            mv_text_diff d;
            double t0 = now_ms();
            if (mv_diff_text(&d, ar, cases[k].x, n, cases[k].y, n, NULL, &counting) != MV_OK)
                return 1;
            t[i] = now_ms() - t0;
            mode = d.mode;
            mv_arena_free(ar);
        }
        qsort(t, (size_t)runs, sizeof t[0], cmp);
        printf("%-10s %zu KiB  mode %-5s  median %.1f ms  max %.1f ms  peak scratch %.1f MiB\n",
               cases[k].name, kib, mv_diff_mode_name(mode), t[runs / 2], t[runs - 1],
               (double)peak / 1048576.0);
    }
    free(a);
    free(b);
    free(c);
    free(r);
    return 0;
}
