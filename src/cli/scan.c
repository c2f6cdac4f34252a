/*
 * `mcpvet scan`: load tool definitions from files (tools/list results,
 * multi-server snapshots or labeled corpora), put every tool into one
 * registry, scan it and print the report. Exit codes: 0 clean, 1 a finding at
 * or above --fail-on, 2 usage or input error, 3 degraded scan.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpvet/engine.h"
#include "mcpvet/model.h"
#include "mcpvet/registry.h"
#include "mcpvet/report.h"

enum {
    OPT_SHOW_CLEAN = 256,
    OPT_DISABLE_CHECK,
    OPT_FAIL_ON,
};

void mv_cli_scan_usage(FILE *f) {
    fputs("Usage: mcpvet scan --tools FILE [--tools FILE ...] [options]\n"
          "\n"
          "Scan MCP tool definitions offline and report poisoned tools.\n"
          "FILE is a tools/list result {\"tools\":[...]}, a snapshot\n"
          "{\"servers\":[{\"name\",\"tools\"}]} or a labeled corpus; \"-\" reads stdin.\n"
          "\n"
          "Options:\n"
          "  -t, --tools FILE          input file (repeatable, at least one)\n"
          "  -s, --server NAME         server name for tools/list files; keeps only\n"
          "                            that server's tools in snapshots and corpora\n"
          "  -f, --format FORMAT       text (default), json or sarif\n"
          "      --fail-on VERDICT     review or quarantine (default): exit 1 when a\n"
          "                            tool gets this verdict or worse\n"
          "  -o, --output FILE         write the report to FILE instead of stdout\n"
          "  -j, --jobs N              worker threads (default: online cores)\n"
          "      --show-clean          text: list clean tools too\n"
          "      --disable-check ID    leave a builtin check out (repeatable)\n"
          "  -h, --help                show this help\n"
          "\n"
          "Exit codes: 0 clean, 1 finding at or above --fail-on, 2 usage or input\n"
          "error, 3 degraded scan (a check failed or a cap was hit).\n",
          f);
}

/* Report sink: the stdio stream of --output (or stdout). */
typedef struct report_file {
    FILE *f;
    int err; /* errno of the first failed write */
} report_file;

static int write_report(void *arg, const char *data, size_t len) {
    report_file *rf = arg;
    if (fwrite(data, 1, len, rf->f) != len) {
        rf->err = errno;
        return -1;
    }
    return 0;
}

/*
 * Stream the report into `path` ("-" or NULL = stdout) as it is rendered,
 * so a large report never sits in memory whole. Returns 0, or -1 after
 * printing why.
 */
static int write_report_file(const char *path, const mv_scan *scan,
                             const mv_report_options *ropts) {
    bool to_stdout = path == NULL || strcmp(path, "-") == 0;
    const char *name = to_stdout ? "<stdout>" : path;
    report_file rf = {to_stdout ? stdout : fopen(path, "wb"), 0};
    mv_error err;
    int rc = -1;
    mv_error_clear(&err);
    if (rf.f == NULL) {
        mv_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
        goto done;
    }
    int r = mv_report_render_to(write_report, &rf, scan, ropts, &err);
    if (r == MV_EIO) {
        mv_cli_error("%s: write failed: %s", name, strerror(rf.err));
        goto done;
    }
    if (r != MV_OK) {
        mv_cli_error("scan: %s", err.message[0] ? err.message : "cannot render the report");
        goto done;
    }
    if (fflush(rf.f) != 0) {
        mv_cli_error("%s: write failed: %s", name, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (rf.f != NULL && !to_stdout && fclose(rf.f) != 0 && rc == 0) {
        mv_cli_error("%s: write failed: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

typedef struct scan_args {
    mv_cli_list tools;
    mv_cli_list disabled;
    const char *server;
    const char *output;
    mv_report_format format;
    mv_verdict fail_on;
    unsigned jobs;
    bool show_clean;
    bool help;
} scan_args;

/* Returns 0, or an exit code (MV_EXIT_USAGE) after printing why. */
static int parse_args(scan_args *a, int argc, char **argv) {
    static const struct option longopts[] = {
        {"tools", required_argument, NULL, 't'},
        {"server", required_argument, NULL, 's'},
        {"format", required_argument, NULL, 'f'},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"output", required_argument, NULL, 'o'},
        {"jobs", required_argument, NULL, 'j'},
        {"show-clean", no_argument, NULL, OPT_SHOW_CLEAN},
        {"disable-check", required_argument, NULL, OPT_DISABLE_CHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:s:f:o:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (mv_cli_list_add(&a->tools, optarg) != 0)
                goto oom;
            break;
        case 's':
            a->server = optarg;
            break;
        case 'f':
            if (mv_report_parse_format(&a->format, optarg) != 0) {
                mv_cli_error("scan: --format must be text, json or sarif, not \"%s\"", optarg);
                return MV_EXIT_USAGE;
            }
            break;
        case OPT_FAIL_ON:
            if (mv_report_parse_fail_on(&a->fail_on, optarg) != 0) {
                mv_cli_error("scan: --fail-on must be review or quarantine, not \"%s\"", optarg);
                return MV_EXIT_USAGE;
            }
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'j':
            if (mv_cli_parse_jobs("scan: --jobs", optarg, &a->jobs) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_SHOW_CLEAN:
            a->show_clean = true;
            break;
        case OPT_DISABLE_CHECK:
            if (mv_cli_list_add(&a->disabled, optarg) != 0)
                goto oom;
            break;
        case 'h':
            a->help = true;
            return 0;
        case ':':
            mv_cli_error("scan: option %s needs a value", argv[optind - 1]);
            mv_cli_scan_usage(stderr);
            return MV_EXIT_USAGE;
        default:
            mv_cli_error("scan: unknown option \"%s\"", argv[optind - 1]);
            mv_cli_scan_usage(stderr);
            return MV_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        mv_cli_error("scan: unexpected argument \"%s\" (input files go after --tools)",
                     argv[optind]);
        mv_cli_scan_usage(stderr);
        return MV_EXIT_USAGE;
    }
    if (a->tools.n == 0) {
        mv_cli_error("scan: no input; give at least one --tools FILE");
        mv_cli_scan_usage(stderr);
        return MV_EXIT_USAGE;
    }
    return 0;
oom:
    mv_cli_error("out of memory");
    return MV_EXIT_USAGE;
}

int mv_cli_scan(int argc, char **argv) {
    scan_args a;
    mv_toolset **sets = NULL;
    const char **sources = NULL;
    mv_engine *engine = NULL;
    mv_registry *reg = NULL;
    mv_scan *scan = NULL;
    mv_error err;
    size_t n_tools = 0;
    int code = MV_EXIT_USAGE;

    memset(&a, 0, sizeof a);
    a.fail_on = MV_VERDICT_QUARANTINE;
    a.jobs = mv_cli_default_jobs();
    mv_error_clear(&err);

    int rc = parse_args(&a, argc, argv);
    if (rc != 0 || a.help) {
        if (a.help)
            mv_cli_scan_usage(stdout);
        code = a.help ? MV_EXIT_OK : rc;
        goto done;
    }

    sets = calloc(a.tools.n, sizeof *sets);
    if (sets == NULL)
        goto oom;
    mv_model_options mopts;
    memset(&mopts, 0, sizeof mopts);
    mopts.server = a.server;
    for (size_t i = 0; i < a.tools.n; i++) {
        mv_error_clear(&err);
        if (mv_model_load_file(&sets[i], a.tools.items[i], &mopts, &err) != MV_OK) {
            mv_cli_print_error(&err, a.tools.items[i]);
            goto done;
        }
        n_tools += sets[i]->n_tools;
    }
    if (n_tools == 0 && a.server != NULL) {
        mv_cli_error("scan: no tools of server \"%s\" in the input", a.server);
        goto done;
    }

    mv_engine_options eopts;
    memset(&eopts, 0, sizeof eopts);
    eopts.disabled = (const char *const *)a.disabled.items;
    eopts.n_disabled = a.disabled.n;
    mv_error_clear(&err);
    if (mv_engine_new(&engine, &eopts, &err) != MV_OK) {
        mv_cli_error("scan: %s", err.message[0] ? err.message : mv_strerror(err.code));
        goto done;
    }

    reg = mv_registry_new(NULL);
    sources = calloc(n_tools + 1, sizeof *sources);
    if (reg == NULL || sources == NULL)
        goto oom;
    size_t next = 0;
    for (size_t i = 0; i < a.tools.n; i++) {
        for (size_t t = 0; t < sets[i]->n_tools; t++, next++) {
            if (mv_registry_add(reg, &sets[i]->tools[t]) != MV_OK) {
                mv_cli_error("scan: too many tools");
                goto done;
            }
            sources[next] = a.tools.items[i];
        }
    }
    mv_error_clear(&err);
    if (mv_registry_freeze(reg) != MV_OK || mv_scan_new(&scan, engine, reg, &err) != MV_OK ||
        mv_scan_run(scan, a.jobs, &err) != MV_OK) {
        mv_cli_error("scan: %s", err.message[0] ? err.message : "out of memory");
        goto done;
    }

    mv_report_options ropts;
    memset(&ropts, 0, sizeof ropts);
    ropts.format = a.format;
    ropts.fail_on = a.fail_on;
    ropts.sources = sources;
    ropts.n_sources = n_tools;
    ropts.show_clean = a.show_clean;
    ropts.engine = engine;
    ropts.jobs = a.jobs;
    if (write_report_file(a.output, scan, &ropts) != 0)
        goto done;
    code = mv_report_exit_code(scan, a.fail_on);
    goto done;
oom:
    mv_cli_error("out of memory");
done:
    mv_scan_free(scan);
    mv_registry_free(reg);
    mv_engine_free(engine);
    for (size_t i = 0; sets != NULL && i < a.tools.n; i++)
        mv_toolset_free(sets[i]);
    free(sets);
    free(sources);
    mv_cli_list_free(&a.tools);
    mv_cli_list_free(&a.disabled);
    return code;
}
