/*
 * Benchmark driver for the phases `mcpvet scan` runs end to end. The engine
 * reads no clock (it is pure), so the timing lives here: load one snapshot
 * and time, separately, reading the file, parsing it into tools, building
 * the registry, creating the engine (rule compilation), scanning with one
 * and with two threads, rendering the JSON report, and the cost of each
 * builtin check alone (an engine with every other builtin disabled, minus
 * an engine with no check at all, whose scan is the engine core:
 * normalization and aggregation).
 *
 * Output is "key value..." lines for bench/run.sh. Times are medians of
 * --repeat runs; single-threaded phases use this process's CPU time so a
 * busy machine inflates them less, the two-thread scan also reports wall
 * time (the only fair measure of parallel speed-up).
 *
 * With --labels (from mcpvet_bench_gen) it also prints how many injected
 * attacks of each category were flagged, and by the expected check.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcpvet/arena.h"
#include "mcpvet/buf.h"
#include "mcpvet/engine.h"
#include "mcpvet/model.h"
#include "mcpvet/registry.h"
#include "mcpvet/report.h"

#define MAX_REPEAT 64
#define N_CATEGORIES 6

static double now_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void) {
    return now_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static double wall_ms(void) {
    return now_ms(CLOCK_MONOTONIC);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what, const mv_error *err) {
    fprintf(stderr, "mcpvet_bench_engine: %s: %s\n", what,
            err != NULL && err->message[0] ? err->message : "failed");
    exit(2);
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "mcpvet_bench_engine: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL)
            die("out of memory", NULL);
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* An engine with only builtin `only` (NULL = every builtin, "" = none). */
static mv_engine *make_engine(const char *only) {
    const char *const *ids = mv_builtin_check_ids();
    const char *disabled[64];
    size_t n = 0;
    mv_engine_options o;
    mv_error err;
    mv_engine *e = NULL;
    memset(&o, 0, sizeof o);
    if (only != NULL && only[0] == '\0') {
        o.no_builtin_checks = true;
    } else if (only != NULL) {
        for (size_t i = 0; ids[i] != NULL && n < 64; i++)
            if (strcmp(ids[i], only) != 0)
                disabled[n++] = ids[i];
        o.disabled = disabled;
        o.n_disabled = n;
    }
    mv_error_clear(&err);
    if (mv_engine_new(&e, &o, &err) != MV_OK)
        die("mv_engine_new", &err);
    return e;
}

typedef struct timing {
    double prepare_ms; /* mv_scan_new: every check's prepare */
    double run_ms;     /* mv_scan_run */
} timing;

/* Median prepare and run times of `repeat` scans, on `jobs` threads. */
static timing time_scan(const mv_engine *e, const mv_registry *r, unsigned jobs, int repeat,
                        bool wall) {
    double prep[MAX_REPEAT], run[MAX_REPEAT];
    mv_error err;
    for (int i = 0; i < repeat; i++) {
        mv_scan *s = NULL;
        mv_error_clear(&err);
        double t0 = wall ? wall_ms() : cpu_ms();
        if (mv_scan_new(&s, e, r, &err) != MV_OK)
            die("mv_scan_new", &err);
        double t1 = wall ? wall_ms() : cpu_ms();
        if (mv_scan_run(s, jobs, &err) != MV_OK)
            die("mv_scan_run", &err);
        double t2 = wall ? wall_ms() : cpu_ms();
        prep[i] = t1 - t0;
        run[i] = t2 - t1;
        mv_scan_free(s);
    }
    return (timing){median(prep, repeat), median(run, repeat)};
}

static const char *const category_check[N_CATEGORIES] = {
    "unicode.hidden",       "shadowing.cross_server", "payload.decoded",
    "directive.imperative", "capability.mismatch",    "secret.embedded",
};

/* Flagged attacks per category, from the generator's labels. */
static void report_detection(const mv_scan *s, const char *labels) {
    FILE *f = fopen(labels, "rb");
    if (f == NULL) {
        fprintf(stderr, "mcpvet_bench_engine: %s: %s\n", labels, strerror(errno));
        exit(2);
    }
    size_t n = mv_scan_finding_count(s);
    unsigned char *is_attack = calloc(n + 1, 1);
    unsigned long total[N_CATEGORIES] = {0}, any[N_CATEGORIES] = {0}, exact[N_CATEGORIES] = {0};
    char line[1024];
    while (fgets(line, sizeof line, f) != NULL) {
        char *tab = strrchr(line, '\t');
        if (tab == NULL)
            continue;
        unsigned long idx = strtoul(line, NULL, 10);
        tab[strcspn(tab, "\r\n")] = '\0';
        int cat = -1;
        for (int c = 0; c < N_CATEGORIES; c++)
            if (strcmp(tab + 1, category_check[c]) == 0)
                cat = c;
        if (cat < 0 || idx >= n)
            continue;
        is_attack[idx] = 1;
        total[cat]++;
        const mv_finding *fd = mv_scan_finding(s, idx);
        if (fd->verdict == MV_VERDICT_CLEAN)
            continue;
        any[cat]++;
        for (uint32_t k = 0; k < fd->n_checks; k++)
            if (strcmp(fd->checks[k], category_check[cat]) == 0)
                exact[cat]++;
    }
    fclose(f);
    for (int c = 0; c < N_CATEGORIES; c++)
        printf("detect %s %lu %lu %lu\n", category_check[c], total[c], any[c], exact[c]);
    unsigned long benign = 0, review = 0, quarantine = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_attack[i])
            continue;
        benign++;
        mv_verdict v = mv_scan_finding(s, i)->verdict;
        review += v == MV_VERDICT_REVIEW;
        quarantine += v == MV_VERDICT_QUARANTINE;
    }
    printf("benign %lu review %lu quarantine %lu\n", benign, review, quarantine);
    free(is_attack);
}

int main(int argc, char **argv) {
    const char *path = NULL, *labels = NULL;
    int repeat = 5, startup_runs = 21;
    bool per_check = true;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tools") == 0 && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "--labels") == 0 && i + 1 < argc)
            labels = argv[++i];
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-per-check") == 0)
            per_check = false;
        else {
            fputs("usage: mcpvet_bench_engine --tools FILE [--labels FILE] [--repeat N] "
                  "[--no-per-check]\n",
                  stderr);
            return 2;
        }
    }
    if (path == NULL || repeat < 1 || repeat > MAX_REPEAT) {
        fputs("mcpvet_bench_engine: --tools FILE is required, --repeat is 1..64\n", stderr);
        return 2;
    }
    mv_error err;

    /* Engine start-up: rule compilation of every builtin check. */
    double startup[64];
    for (int i = 0; i < startup_runs; i++) {
        double t0 = wall_ms();
        mv_engine *e = make_engine(NULL);
        startup[i] = wall_ms() - t0;
        mv_engine_free(e);
    }
    printf("engine_new_ms %.3f\n", median(startup, startup_runs));
    {
        const char *const *ids = mv_builtin_check_ids();
        for (size_t i = 0; ids[i] != NULL; i++) {
            double t[64];
            for (int k = 0; k < 7; k++) {
                double t0 = wall_ms();
                mv_engine *e = make_engine(ids[i]);
                t[k] = wall_ms() - t0;
                mv_engine_free(e);
            }
            printf("init %s %.3f\n", ids[i], median(t, 7));
        }
    }

    double t0 = wall_ms();
    size_t len = 0;
    char *data = read_file(path, &len);
    printf("read_ms %.3f\n", wall_ms() - t0);
    printf("input_bytes %zu\n", len);

    /* Parse: median over the repeats; the last tool set is kept. */
    mv_toolset *set = NULL;
    double parse[MAX_REPEAT];
    int parse_runs = repeat < 3 ? repeat : 3;
    for (int i = 0; i < parse_runs; i++) {
        mv_toolset_free(set);
        set = NULL;
        mv_error_clear(&err);
        double c0 = cpu_ms();
        if (mv_model_parse(&set, data, len, path, NULL, &err) != MV_OK)
            die("mv_model_parse", &err);
        parse[i] = cpu_ms() - c0;
    }
    printf("parse_ms %.3f\n", median(parse, parse_runs));
    free(data);

    size_t text = 0, fields = 0;
    for (size_t i = 0; i < set->n_tools; i++) {
        const mv_tool *t = &set->tools[i];
        fields += t->n_fields;
        for (uint32_t f = 0; f < t->n_fields; f++)
            text += t->fields[f].text.len;
    }
    printf("tools %zu\n", set->n_tools);
    printf("fields %zu\n", fields);
    printf("text_bytes %zu\n", text);
    printf("toolset_bytes %zu\n", mv_arena_used(set->arena));

    double c0 = cpu_ms();
    mv_registry *reg = mv_registry_new(NULL);
    if (reg == NULL)
        die("out of memory", NULL);
    for (size_t i = 0; i < set->n_tools; i++)
        if (mv_registry_add(reg, &set->tools[i]) != MV_OK)
            die("mv_registry_add", NULL);
    if (mv_registry_freeze(reg) != MV_OK)
        die("mv_registry_freeze", NULL);
    printf("registry_ms %.3f\n", cpu_ms() - c0);
    printf("servers %zu\n", mv_registry_server_count(reg));
    printf("names %zu\n", mv_registry_name_count(reg));

    mv_engine *all = make_engine(NULL);
    timing t1 = time_scan(all, reg, 1, repeat, false);
    printf("scan1_prepare_ms %.3f\n", t1.prepare_ms);
    printf("scan1_run_ms %.3f\n", t1.run_ms);
    timing w1 = time_scan(all, reg, 1, repeat, true);
    timing w2 = time_scan(all, reg, 2, repeat, true);
    printf("scan1_wall_ms %.3f\n", w1.prepare_ms + w1.run_ms);
    printf("scan2_wall_ms %.3f\n", w2.prepare_ms + w2.run_ms);

    /* Render the JSON report of one scan (the last step of `mcpvet scan`). */
    mv_scan *s = NULL;
    mv_error_clear(&err);
    if (mv_scan_new(&s, all, reg, &err) != MV_OK || mv_scan_run(s, 1, &err) != MV_OK)
        die("scan", &err);
    double render[MAX_REPEAT];
    size_t report_bytes = 0;
    for (int i = 0; i < parse_runs; i++) {
        mv_buf b;
        mv_buf_init(&b, NULL);
        mv_report_options ro;
        memset(&ro, 0, sizeof ro);
        ro.format = MV_REPORT_JSON;
        ro.engine = all;
        double r0 = cpu_ms();
        if (mv_report_render(&b, s, &ro, &err) != MV_OK)
            die("mv_report_render", &err);
        render[i] = cpu_ms() - r0;
        report_bytes = b.len;
        mv_buf_release(&b);
    }
    printf("render_ms %.3f\n", median(render, parse_runs));
    printf("report_bytes %zu\n", report_bytes);
    mv_scan_summary sum = mv_scan_summarize(s);
    printf("summary clean %llu review %llu quarantine %llu\n", (unsigned long long)sum.clean,
           (unsigned long long)sum.review, (unsigned long long)sum.quarantine);
    if (labels != NULL)
        report_detection(s, labels);
    mv_scan_free(s);

    if (per_check) {
        mv_engine *none = make_engine("");
        timing base = time_scan(none, reg, 1, repeat, false);
        double per_tool = 1e6 / (double)(set->n_tools ? set->n_tools : 1);
        printf("check core %.1f %.1f\n", base.prepare_ms * per_tool, base.run_ms * per_tool);
        mv_engine_free(none);
        const char *const *ids = mv_builtin_check_ids();
        for (size_t i = 0; ids[i] != NULL; i++) {
            mv_engine *one = make_engine(ids[i]);
            timing t = time_scan(one, reg, 1, repeat, false);
            printf("check %s %.1f %.1f\n", ids[i], (t.prepare_ms - base.prepare_ms) * per_tool,
                   (t.run_ms - base.run_ms) * per_tool);
            mv_engine_free(one);
        }
    }
    mv_engine_free(all);
    mv_registry_free(reg);
    mv_toolset_free(set);
    return 0;
}
