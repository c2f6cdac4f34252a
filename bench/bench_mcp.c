/*
 * Benchmark driver for the MCP client's own overhead: fetch from the
 * fixture server (tests/fixtures/servers/mcp_fixture.py) once with all
 * tools on one page and once spread over many pages, and report this
 * process's CPU time (RUSAGE_SELF: the client only, not the server, which
 * is a child) per fetch, per tools/list message and per tool (an upper
 * bound: the one-page fetch's CPU time over its tools), plus wall
 * time. Medians of --repeat runs.
 *
 * The per-message figure is the difference between the paged and the
 * one-page fetch divided by the extra messages, so the fixed costs of a
 * fetch (spawn, handshake, close) and the per-tool costs cancel out.
 *
 * Usage: mcpvet_bench_mcp [--tools N] [--pages P] [--repeat R] [--era legacy|modern]
 * (MCPVET_SOURCE_DIR, default ".", locates the fixture). Output is
 * "key value" lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "mcpvet/mcp.h"

#define MAX_REPEAT 64

static double cpu_ms(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median CPU and wall ms of `repeat` fetches of `tools` tools in pages of
 * `page_size` (0: one page). Returns 0, or 1 when a fetch failed. */
static int run(const char *python, const char *script, const char *era, int tools, int page_size,
               int repeat, double *cpu, double *wall) {
    char count[16], size[16];
    char *args[] = {(char *)script, "--era",       (char *)era, "--tool-count",
                    count,          "--page-size", size};
    mv_server_config cfg;
    mv_mcp_options opts;
    double c[MAX_REPEAT], w[MAX_REPEAT];
    snprintf(count, sizeof count, "%d", tools);
    snprintf(size, sizeof size, "%d", page_size);
    memset(&cfg, 0, sizeof cfg);
    memset(&opts, 0, sizeof opts);
    cfg.name = "bench";
    cfg.transport = MV_TRANSPORT_STDIO;
    cfg.command = (char *)python;
    cfg.args = args;
    cfg.n_args = sizeof args / sizeof args[0];
    cfg.readiness = MV_SERVER_READY;
    opts.max_pages = 100000;
    for (int i = 0; i < repeat; i++) {
        mv_mcp_result r;
        double c0 = cpu_ms(), w0 = wall_ms();
        if (mv_mcp_fetch(&r, &cfg, &opts, NULL) != 0 || r.status != MV_MCP_OK ||
            r.n_tools != (size_t)tools) {
            fprintf(stderr, "bench_mcp: fetch failed: %s: %s\n", mv_mcp_status_name(r.status),
                    r.reason);
            mv_mcp_result_free(&r);
            return 1;
        }
        c[i] = cpu_ms() - c0;
        w[i] = wall_ms() - w0;
        mv_mcp_result_free(&r);
    }
    *cpu = median(c, repeat);
    *wall = median(w, repeat);
    return 0;
}

int main(int argc, char **argv) {
    const char *src = getenv("MCPVET_SOURCE_DIR");
    const char *era = "legacy";
    int tools = 1000, pages = 100, repeat = 5;
    char script[1024];
    const char *python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    double cpu1, wall1, cpuN, wallN;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tools") == 0 && i + 1 < argc)
            tools = atoi(argv[++i]);
        else if (strcmp(argv[i], "--pages") == 0 && i + 1 < argc)
            pages = atoi(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--era") == 0 && i + 1 < argc)
            era = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--tools N] [--pages P] [--repeat R] [--era E]\n", argv[0]);
            return 2;
        }
    }
    if (tools < 1 || pages < 2 || pages > tools || repeat < 1 || repeat > MAX_REPEAT) {
        fprintf(stderr, "bench_mcp: need 1 <= tools, 2 <= pages <= tools, 1 <= repeat <= %d\n",
                MAX_REPEAT);
        return 2;
    }
    snprintf(script, sizeof script, "%s/tests/fixtures/servers/mcp_fixture.py",
             src != NULL ? src : ".");
    if (mv_mcp_global_init() != 0)
        return 1;
    if (run(python, script, era, tools, 0, repeat, &cpu1, &wall1) != 0 ||
        run(python, script, era, tools, (tools + pages - 1) / pages, repeat, &cpuN, &wallN) != 0)
        return 1;
    mv_mcp_global_cleanup();
    int actual_pages = (tools + (tools + pages - 1) / pages - 1) / ((tools + pages - 1) / pages);
    printf("tools %d\n", tools);
    printf("pages %d\n", actual_pages);
    printf("fetch_one_page_cpu_ms %.3f\n", cpu1);
    printf("fetch_one_page_wall_ms %.3f\n", wall1);
    printf("fetch_paged_cpu_ms %.3f\n", cpuN);
    printf("fetch_paged_wall_ms %.3f\n", wallN);
    printf("per_tool_cpu_us %.3f\n", cpu1 * 1e3 / tools);
    printf("per_message_cpu_us %.3f\n",
           actual_pages > 1 ? (cpuN - cpu1) * 1e3 / (actual_pages - 1) : 0.0);
    return 0;
}
