/*
 * `mcpvet scan`: collect tool definitions (tools files, or the MCP servers
 * configured in the agent clients on this machine, reached the way the
 * agent would reach them), scan them in one registry and print the report.
 * With no input arguments every well-known client config is read and every
 * server in it is started or contacted. `--list` only shows what would be
 * scanned and never starts anything.
 *
 * Exit codes: 0 clean, 1 a finding at or above --fail-on, 2 usage or input
 * error, 3 degraded scan (a check failed, a cap was hit, or a server or
 * config could not be read whole).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mcpvet/config.h"
#include "mcpvet/pipeline.h"
#include "mcpvet/report.h"
#include "mcpvet/store.h"

#define MAX_TIMEOUT_SECONDS 3600.0
#define MAX_CONCURRENCY 64u

enum {
    OPT_SHOW_CLEAN = 256,
    OPT_DISABLE_CHECK,
    OPT_FAIL_ON,
    OPT_CLIENT,
    OPT_LIST,
    OPT_TIMEOUT,
    OPT_CONCURRENCY,
    OPT_SAVE_SNAPSHOT,
    OPT_COLOR,
    OPT_STORE,
    OPT_NO_STORE,
};

void mv_cli_scan_usage(FILE *f) {
    fputs("Usage: mcpvet scan [options]                 (every configured server)\n"
          "       mcpvet scan --config FILE [options]   (the servers of one config)\n"
          "       mcpvet scan --tools FILE [options]    (tool definitions in a file)\n"
          "       mcpvet scan --list [--config FILE]    (show servers, start nothing)\n"
          "\n"
          "Scan MCP tool definitions and report poisoned tools. With no --tools\n"
          "or --config, every known agent client config on this machine is read\n"
          "(Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI,\n"
          "Codex, Zed, Cline, Continue, Kiro) and every server in it is reached.\n"
          "\n"
          "SCANNING STARTS THE CONFIGURED COMMANDS, as the agent client would, and\n"
          "connects to configured URLs with their headers. Use --list first to see\n"
          "what would run. Config secrets (env values, headers) are never printed.\n"
          "\n"
          "FILE for --tools is a tools/list result {\"tools\":[...]}, a snapshot\n"
          "{\"servers\":[{\"name\",\"tools\"}]} or a labeled corpus; \"-\" reads stdin.\n"
          "\n"
          "Options:\n"
          "  -t, --tools FILE          tool definitions file (repeatable)\n"
          "  -c, --config FILE         a client config file (repeatable; format\n"
          "                            detected from the content)\n"
          "      --client NAME         read --config files as this client's format\n"
          "  -s, --server NAME         only this server (repeatable for configs; once\n"
          "                            with --tools, where it names tools/list files'\n"
          "                            server and filters snapshots and corpora)\n"
          "      --list                print configs and servers, start nothing\n"
          "      --timeout SECONDS     per server: start-up and handshake, and each\n"
          "                            request after it (default 30)\n"
          "      --concurrency N       servers reached at once (default 4)\n"
          "      --save-snapshot FILE  write what the servers advertised as a snapshot\n"
          "                            that --tools reads back with the same verdicts\n"
          "      --store PATH          approval store (default $XDG_STATE_HOME/mcpvet/\n"
          "                            store.db, else ~/.local/state/mcpvet/store.db):\n"
          "                            used when it exists; pins every tool and shows its\n"
          "                            state (pending, approved, changed, quarantined)\n"
          "      --no-store            scan without the store\n"
          "  -f, --format FORMAT       text (default), json or sarif\n"
          "      --fail-on VERDICT     review or quarantine (default): exit 1 when a\n"
          "                            tool gets this verdict or worse; pending (needs a\n"
          "                            store): also exit 1 for tools nobody approved\n"
          "  -o, --output FILE         write the report to FILE instead of stdout\n"
          "      --color WHEN          auto (default: a terminal, unless NO_COLOR is\n"
          "                            set), always or never\n"
          "  -j, --jobs N              worker threads (default: online cores)\n"
          "      --show-clean          text: list clean tools too\n"
          "      --disable-check ID    leave a builtin check out (repeatable)\n"
          "  -h, --help                show this help\n"
          "\n"
          "Exit codes: 0 clean; 1 a finding at or above --fail-on, or (with a store)\n"
          "a tool changed since approval or quarantined, a server reached differently\n"
          "than when approved, or a pending tool with --fail-on pending; 2 usage,\n"
          "input or store error; 3 degraded scan (a check failed, a cap was hit, or a\n"
          "server or a config could not be read whole: never reported as clean).\n",
          f);
}

/* Report sink: the file descriptor of --output (or standard output),
 * written unbuffered (the report arrives in large pieces), so a streamed
 * report's spill can be copied to it in the kernel. */
typedef struct report_file {
    int fd;
    int err; /* errno of the first failed write */
} report_file;

static int write_report(void *arg, const char *data, size_t len) {
    report_file *rf = arg;
    while (len > 0) {
        ssize_t n = write(rf->fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rf->err = n < 0 ? errno : EIO;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/*
 * Stream the report into `path` ("-" or NULL = stdout) as it is rendered,
 * so a large report never sits in memory whole. Returns 0, or -1 after
 * printing why.
 */
static int write_report_file(const char *path, const mv_pipeline *pipe,
                             const mv_report_options *ropts) {
    bool to_stdout = path == NULL || strcmp(path, "-") == 0;
    const char *name = to_stdout ? "<stdout>" : path;
    /* Anything stdio still holds for stdout goes before the report. */
    if (to_stdout)
        fflush(stdout);
    report_file rf = {
        to_stdout ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), 0};
    mv_error err;
    int rc = -1;
    mv_error_clear(&err);
    if (rf.fd < 0) {
        mv_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
        goto done;
    }
    int r = mv_pipeline_render_to_fd(pipe, rf.fd, write_report, &rf, ropts, &err);
    if (r == MV_EIO && rf.err != 0) {
        mv_cli_error("%s: write failed: %s", name, strerror(rf.err));
        goto done;
    }
    if (r != MV_OK) {
        mv_cli_error("scan: %s", err.message[0] ? err.message : "cannot render the report");
        goto done;
    }
    rc = 0;
done:
    if (rf.fd >= 0 && !to_stdout && close(rf.fd) != 0 && rc == 0) {
        mv_cli_error("%s: write failed: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

typedef enum color_when { COLOR_AUTO = 0, COLOR_ALWAYS, COLOR_NEVER } color_when;

typedef struct scan_args {
    bool security; /* `security scan`: store required, positional server names */
    const char *store;
    bool no_store;
    bool fail_on_pending;
    mv_cli_list tools;
    mv_cli_list configs;
    mv_cli_list servers;
    mv_cli_list disabled;
    const char *client;
    const char *output;
    const char *save_snapshot;
    mv_report_format format;
    mv_verdict fail_on;
    color_when color;
    double timeout;
    unsigned concurrency;
    unsigned jobs;
    bool show_clean;
    bool list;
    bool help;
} scan_args;

/* Returns 0, or an exit code (MV_EXIT_USAGE) after printing why. */
static int parse_args(scan_args *a, int argc, char **argv) {
    static const struct option longopts[] = {
        {"tools", required_argument, NULL, 't'},
        {"config", required_argument, NULL, 'c'},
        {"client", required_argument, NULL, OPT_CLIENT},
        {"server", required_argument, NULL, 's'},
        {"list", no_argument, NULL, OPT_LIST},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"concurrency", required_argument, NULL, OPT_CONCURRENCY},
        {"save-snapshot", required_argument, NULL, OPT_SAVE_SNAPSHOT},
        {"format", required_argument, NULL, 'f'},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"output", required_argument, NULL, 'o'},
        {"color", required_argument, NULL, OPT_COLOR},
        {"store", required_argument, NULL, OPT_STORE},
        {"no-store", no_argument, NULL, OPT_NO_STORE},
        {"jobs", required_argument, NULL, 'j'},
        {"show-clean", no_argument, NULL, OPT_SHOW_CLEAN},
        {"disable-check", required_argument, NULL, OPT_DISABLE_CHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:c:s:f:o:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (mv_cli_list_add(&a->tools, optarg) != 0)
                goto oom;
            break;
        case 'c':
            if (mv_cli_list_add(&a->configs, optarg) != 0)
                goto oom;
            break;
        case OPT_CLIENT:
            a->client = optarg;
            break;
        case 's':
            if (mv_cli_list_add(&a->servers, optarg) != 0)
                goto oom;
            break;
        case OPT_LIST:
            a->list = true;
            break;
        case OPT_TIMEOUT:
            if (mv_cli_parse_seconds("scan: --timeout", optarg, MAX_TIMEOUT_SECONDS, &a->timeout) !=
                0)
                return MV_EXIT_USAGE;
            break;
        case OPT_CONCURRENCY:
            if (mv_cli_parse_jobs("scan: --concurrency", optarg, &a->concurrency) != 0)
                return MV_EXIT_USAGE;
            if (a->concurrency > MAX_CONCURRENCY)
                a->concurrency = MAX_CONCURRENCY;
            break;
        case OPT_SAVE_SNAPSHOT:
            a->save_snapshot = optarg;
            break;
        case 'f':
            if (mv_report_parse_format(&a->format, optarg) != 0) {
                mv_cli_error("scan: --format must be text, json or sarif, not \"%s\"", optarg);
                return MV_EXIT_USAGE;
            }
            break;
        case OPT_FAIL_ON:
            if (strcmp(optarg, "pending") == 0) {
                a->fail_on_pending = true;
            } else if (mv_report_parse_fail_on(&a->fail_on, optarg) != 0) {
                mv_cli_error("scan: --fail-on must be review, quarantine or pending, not \"%s\"",
                             optarg);
                return MV_EXIT_USAGE;
            }
            break;
        case OPT_STORE:
            a->store = optarg;
            break;
        case OPT_NO_STORE:
            a->no_store = true;
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") == 0)
                a->color = COLOR_AUTO;
            else if (strcmp(optarg, "always") == 0)
                a->color = COLOR_ALWAYS;
            else if (strcmp(optarg, "never") == 0)
                a->color = COLOR_NEVER;
            else {
                mv_cli_error("scan: --color must be auto, always or never, not \"%s\"", optarg);
                return MV_EXIT_USAGE;
            }
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
    /* security scan SERVER...: the names select configured servers. */
    for (; a->security && optind < argc; optind++)
        if (mv_cli_list_add(&a->servers, argv[optind]) != 0)
            goto oom;
    if (optind < argc) {
        mv_cli_error("scan: unexpected argument \"%s\" (input files go after --tools or --config)",
                     argv[optind]);
        mv_cli_scan_usage(stderr);
        return MV_EXIT_USAGE;
    }
    if (a->security && a->no_store) {
        mv_cli_error("security scan: --no-store contradicts the command (use mcpvet scan)");
        return MV_EXIT_USAGE;
    }
    if (a->tools.n > 0 && a->servers.n > 1) {
        mv_cli_error("scan: --server can be given once with --tools");
        return MV_EXIT_USAGE;
    }
    if (a->list && a->tools.n > 0) {
        mv_cli_error("scan: --list shows configured servers; it does not take --tools");
        return MV_EXIT_USAGE;
    }
    if (a->client != NULL && a->configs.n == 0) {
        mv_cli_error("scan: --client applies to --config files; give --config FILE");
        return MV_EXIT_USAGE;
    }
    return 0;
oom:
    mv_cli_error("out of memory");
    return MV_EXIT_USAGE;
}

/* ------------------------------------------------------------ configs */

typedef struct config_sources {
    mv_config_set **sets;
    size_t n_sets;
    size_t file_errors; /* discovered config files that could not be read */
} config_sources;

static void config_sources_free(config_sources *cs) {
    for (size_t i = 0; i < cs->n_sets; i++)
        mv_config_set_free(cs->sets[i]);
    free(cs->sets);
    memset(cs, 0, sizeof *cs);
}

/* Load the --config files, or discover every known config when none was
 * given. A file named on the command line that cannot be read is an input
 * error (exit 2); a discovered one that cannot be read is reported and
 * makes the scan degraded. Returns 0 or an exit code after printing why. */
static int load_configs(config_sources *cs, const scan_args *a) {
    mv_error err;
    size_t n = a->configs.n > 0 ? a->configs.n : 1;
    cs->sets = calloc(n, sizeof *cs->sets);
    if (cs->sets == NULL) {
        mv_cli_error("out of memory");
        return MV_EXIT_USAGE;
    }
    if (a->configs.n == 0) {
        mv_error_clear(&err);
        if (mv_config_discover(&cs->sets[0], NULL, &err) != MV_OK) {
            mv_cli_print_error(&err, NULL);
            return MV_EXIT_USAGE;
        }
        cs->n_sets = 1;
        for (size_t i = 0; i < cs->sets[0]->n_files; i++)
            cs->file_errors += cs->sets[0]->files[i].status != MV_OK;
        return 0;
    }
    for (size_t i = 0; i < a->configs.n; i++) {
        mv_error_clear(&err);
        if (mv_config_load_file(&cs->sets[i], a->configs.items[i], a->client, NULL, &err) !=
            MV_OK) {
            mv_cli_print_error(&err, a->configs.items[i]);
            return MV_EXIT_USAGE;
        }
        cs->n_sets++;
    }
    return 0;
}

/* Every server of the sets that --server lets through. Returns 0, or an
 * exit code after printing why (a --server name that matches nothing). */
static int select_servers(const config_sources *cs, const scan_args *a,
                          const mv_server_config ***out, size_t *n_out) {
    size_t total = 0, n = 0;
    for (size_t i = 0; i < cs->n_sets; i++)
        total += cs->sets[i]->n_servers;
    const mv_server_config **v = calloc(total + 1, sizeof *v);
    if (v == NULL) {
        mv_cli_error("out of memory");
        return MV_EXIT_USAGE;
    }
    for (size_t i = 0; i < cs->n_sets; i++) {
        for (size_t k = 0; k < cs->sets[i]->n_servers; k++) {
            const mv_server_config *s = &cs->sets[i]->servers[k];
            bool keep = a->servers.n == 0;
            for (size_t f = 0; f < a->servers.n && !keep; f++)
                keep = s->name != NULL && strcmp(s->name, a->servers.items[f]) == 0;
            if (keep)
                v[n++] = s;
        }
    }
    for (size_t f = 0; a->tools.n == 0 && f < a->servers.n; f++) {
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strcmp(v[i]->name, a->servers.items[f]) == 0;
        if (!found) {
            mv_cli_error("scan: no configured server is named \"%s\" (see mcpvet scan --list)",
                         a->servers.items[f]);
            free(v);
            return MV_EXIT_USAGE;
        }
    }
    *out = v;
    *n_out = n;
    return 0;
}

/* ----------------------------------------------------------- progress */

typedef struct progress {
    bool enabled;
    bool color;
} progress;

static void on_collect(void *arg, mv_collect_event ev, const mv_server_config *s, const char *phase,
                       const mv_mcp_result *r) {
    const progress *pg = arg;
    if (!pg->enabled)
        return;
    const char *client = s->client != NULL ? s->client : "config";
    switch (ev) {
    case MV_COLLECT_STARTING:
        mv_cli_progress(pg->color, NULL, "starting", "%s (%s, %s)", s->name, client,
                        mv_transport_name(s->transport));
        break;
    case MV_COLLECT_PHASE:
        mv_cli_progress(pg->color, NULL, phase, "%s", s->name);
        break;
    case MV_COLLECT_SKIPPED:
    case MV_COLLECT_DONE: {
        bool ok = r->status == MV_MCP_OK;
        const char *color = ok ? "\x1b[32m" : r->status == MV_MCP_DISABLED ? NULL : "\x1b[1;31m";
        if (ok)
            mv_cli_progress(pg->color, color, "ok", "%s: %zu tools, %zu prompts, %zu resources "
                            "(%s, %s)", s->name, r->n_tools, r->n_prompts, r->n_resources,
                            mv_transport_name(r->transport), r->protocol_version);
        else
            mv_cli_progress(pg->color, color, mv_mcp_status_name(r->status), "%s: %s", s->name,
                            r->reason);
        break;
    }
    }
}

static bool want_color(color_when when, int fd) {
    if (when == COLOR_ALWAYS)
        return true;
    if (when == COLOR_NEVER)
        return false;
    const char *no_color = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    if (no_color != NULL && no_color[0] != '\0')
        return false;
    if (term != NULL && strcmp(term, "dumb") == 0)
        return false;
    return isatty(fd) == 1;
}

/* ------------------------------------------------------------- scan */

/* Open the store the scan uses: --store PATH (created when missing), the
 * default path when it exists (created for security scan), or none. A store
 * that exists but cannot be used is an error, never silently skipped.
 * Returns 0 (with *out NULL when there is no store to use) or an exit code
 * after printing why. */
static int open_scan_store(mv_store **out, const scan_args *a) {
    mv_store_options so;
    mv_error err;
    *out = NULL;
    if (a->no_store)
        return 0;
    memset(&so, 0, sizeof so);
    so.create = a->security || a->store != NULL;
    mv_error_clear(&err);
    int rc = mv_store_open(out, a->store, &so, &err);
    if (rc == MV_ENOTFOUND && !so.create)
        return 0; /* no store yet: scan without one */
    if (rc != MV_OK) {
        mv_cli_print_error(&err, a->store);
        return MV_EXIT_USAGE;
    }
    return 0;
}

static int scan_main(int argc, char **argv, bool security) {
    scan_args a;
    config_sources cs;
    const mv_server_config **servers = NULL;
    size_t n_servers = 0;
    mv_pipeline *pipe = NULL;
    mv_error err;
    int code = MV_EXIT_USAGE;

    mv_store *store = NULL;
    memset(&a, 0, sizeof a);
    memset(&cs, 0, sizeof cs);
    a.security = security;
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

    bool use_configs = a.configs.n > 0 || a.tools.n == 0;
    if (use_configs && (rc = load_configs(&cs, &a)) != 0) {
        code = rc;
        goto done;
    }
    if (a.list) {
        code = mv_cli_list_servers(stdout, (const mv_config_set *const *)cs.sets, cs.n_sets,
                                   want_color(a.color, STDOUT_FILENO));
        goto done;
    }
    if (use_configs && (rc = select_servers(&cs, &a, &servers, &n_servers)) != 0) {
        code = rc;
        goto done;
    }
    if (use_configs && n_servers == 0 && a.tools.n == 0) {
        if (a.configs.n > 0)
            mv_cli_error("scan: the config files name no MCP server");
        else
            mv_cli_error("scan: no MCP client configuration with a server was found on this "
                         "machine (mcpvet scan --list shows where it looked); give --tools FILE "
                         "or --config FILE");
        goto done;
    }
    if (a.save_snapshot != NULL && n_servers == 0) {
        mv_cli_error("scan: --save-snapshot saves what servers advertised; no server is scanned");
        goto done;
    }

    if (!a.list && (rc = open_scan_store(&store, &a)) != 0) {
        code = rc;
        goto done;
    }
    if (a.fail_on_pending && store == NULL) {
        mv_cli_error("scan: --fail-on pending needs an approval store (none at %s; run "
                     "mcpvet security scan first, or give --store PATH)",
                     a.store != NULL ? a.store : "the default path");
        goto done;
    }

    progress pg = {isatty(STDERR_FILENO) == 1, want_color(a.color, STDERR_FILENO)};
    mv_pipeline_options popts;
    memset(&popts, 0, sizeof popts);
    popts.engine.disabled = (const char *const *)a.disabled.items;
    popts.engine.n_disabled = a.disabled.n;
    popts.concurrency = a.concurrency;
    popts.model.keep_definitions = store != NULL; /* pins need them */
    popts.model.jobs = a.jobs;                    /* tools are built on the scan's threads */
    /* Without a store the scan is streamed (below): a large snapshot file
     * is kept slim and its runs made full as they are scanned. */
    popts.model.slim = store == NULL;
    if (a.timeout > 0) {
        popts.mcp.startup_timeout_ms = (uint32_t)(a.timeout * 1000.0 + 0.5);
        popts.mcp.request_timeout_ms = popts.mcp.startup_timeout_ms;
    }
    popts.on_collect = on_collect;
    popts.on_collect_arg = &pg;
    if (mv_pipeline_new(&pipe, &popts, &err) != MV_OK) {
        mv_cli_error("scan: %s", err.message[0] ? err.message : mv_strerror(err.code));
        goto done;
    }
    for (size_t i = 0; i < a.tools.n; i++) {
        mv_error_clear(&err);
        if (mv_pipeline_add_file(pipe, a.tools.items[i], a.servers.n > 0 ? a.servers.items[0]
                                                                          : NULL,
                                 &err) != MV_OK) {
            mv_cli_print_error(&err, a.tools.items[i]);
            goto done;
        }
    }
    if (a.tools.n > 0 && a.servers.n > 0 && mv_pipeline_tool_count(pipe) == 0) {
        mv_cli_error("scan: no tools of server \"%s\" in the input", a.servers.items[0]);
        goto done;
    }
    if (n_servers > 0) {
        mv_error_clear(&err);
        if (mv_pipeline_collect(pipe, servers, n_servers, &err) != MV_OK) {
            mv_cli_error("scan: %s", err.message[0] ? err.message : mv_strerror(err.code));
            goto done;
        }
    }
    for (size_t i = 0; i < cs.n_sets; i++) {
        for (size_t f = 0; f < cs.sets[i]->n_files; f++) {
            const mv_config_file *file = &cs.sets[i]->files[f];
            if (file->status != MV_OK)
                mv_cli_error("%s (its servers are not scanned)",
                             file->error != NULL ? file->error : file->path);
        }
    }
    if (a.save_snapshot != NULL) {
        const mv_buf *snap = mv_pipeline_snapshot(pipe);
        if (mv_cli_write_output(a.save_snapshot, snap) != 0)
            goto done;
    }
    mv_report_options ropts;
    memset(&ropts, 0, sizeof ropts);
    ropts.format = a.format;
    ropts.fail_on = a.fail_on;
    ropts.fail_on_pending = a.fail_on_pending;
    /* security scan shows every tool with its state, clean ones too. */
    ropts.show_clean = a.show_clean || a.security;
    ropts.jobs = a.jobs;
    bool to_stdout = a.output == NULL || strcmp(a.output, "-") == 0;
    ropts.color = a.format == MV_REPORT_TEXT &&
                  (a.color == COLOR_ALWAYS || (to_stdout && want_color(a.color, STDOUT_FILENO)));

    mv_error_clear(&err);
    /* Without a store nothing needs every finding at once: the report is
     * rendered as the scan goes, range by range (bounded memory). */
    int src = store != NULL ? mv_pipeline_scan(pipe, a.jobs, &err)
                            : mv_pipeline_scan_stream(pipe, a.jobs, &ropts, &err);
    if (src != MV_OK) {
        mv_cli_error("scan: %s", err.message[0] ? err.message : "out of memory");
        goto done;
    }

    if (store != NULL) {
        mv_error_clear(&err);
        if (mv_pipeline_decide(pipe, store, MV_ACTOR_CLI, (int64_t)time(NULL), &err) != MV_OK) {
            mv_cli_print_error(&err, mv_store_path(store));
            goto done;
        }
    }

    mv_pipeline_report_options(pipe, &ropts);
    if (write_report_file(a.output, pipe, &ropts) != 0)
        goto done;
    code = mv_pipeline_exit_code(pipe, &ropts);
    /* A config file that could not be read hides its servers: never clean. */
    if (code == MV_EXIT_OK && cs.file_errors > 0)
        code = MV_EXIT_DEGRADED;
done:
    mv_pipeline_free(pipe);
    mv_store_close(store);
    free(servers);
    config_sources_free(&cs);
    mv_cli_list_free(&a.tools);
    mv_cli_list_free(&a.configs);
    mv_cli_list_free(&a.servers);
    mv_cli_list_free(&a.disabled);
    return code;
}

int mv_cli_scan(int argc, char **argv) {
    return scan_main(argc, argv, false);
}

int mv_cli_security_scan(int argc, char **argv) {
    return scan_main(argc, argv, true);
}
