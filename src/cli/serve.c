/*
 * `mcpvet serve` (the REST API) and `mcpvet mcp` (the MCP server with the
 * quarantine_security tool): option parsing only; the servers live in
 * src/server/ and src/mcpserver/ and answer through the same operations.
 *
 * Exit codes: 0 after a clean shutdown (SIGTERM/SIGINT, or the end of
 * standard input for `mcp`); 2 bad usage, a bad key or listen address, or
 * a store that cannot be opened.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpserver/mcpserver.h"
#include "mcpvet/report.h"
#include "server/rest.h"

#define MAX_TIMEOUT_SECONDS 3600.0

enum {
    OPT_LISTEN = 256,
    OPT_KEY_FILE,
    OPT_STORE,
    OPT_CONFIG,
    OPT_ALLOW_REMOTE,
    OPT_ALLOW_HOST,
    OPT_MAX_CONNECTIONS,
    OPT_MAX_SCANS,
    OPT_MAX_BODY,
    OPT_IDLE_TIMEOUT,
    OPT_TIMEOUT,
    OPT_QUIET,
    OPT_ALLOW_APPROVAL,
    OPT_REQUEST_TIMEOUT,
};

void mv_cli_serve_usage(FILE *f) {
    fputs("Usage: mcpvet serve [--listen 127.0.0.1:PORT] [--api-key-file FILE]\n"
          "                    [--store PATH] [--config FILE]... [options]\n"
          "\n"
          "Serve the REST API (OpenAPI 3.1 at /api/v1/openapi.json): scan tool\n"
          "definitions, scan configured servers into the approval store, list,\n"
          "diff, approve and quarantine tools, read the audit log.\n"
          "\n"
          "Every request under /api/ needs the API key, as X-API-Key: KEY or\n"
          "Authorization: Bearer KEY. The key is read from --api-key-file, else\n"
          "from MCPVET_API_KEY, else from (or generated into, mode 0600) the file\n"
          "api-key beside the default store; its path is printed, never the key.\n"
          "Requests whose Host or Origin is not this server are refused.\n"
          "\n"
          "Options:\n"
          "      --listen HOST:PORT    address (default 127.0.0.1:0: a free port, printed)\n"
          "      --allow-remote        allow a non-loopback address (needs a key of yours)\n"
          "      --allow-host NAME     also accept this Host name (repeatable)\n"
          "      --api-key-file FILE   the key (created with a new key when missing)\n"
          "      --store PATH          approval store (default $XDG_STATE_HOME/mcpvet/store.db)\n"
          "  -c, --config FILE         client config naming the servers to scan (repeatable;\n"
          "                            default: every known client config)\n"
          "      --timeout SECONDS     per server scan: start-up and each request (default 30)\n"
          "      --max-scans N         scans running at once (default 4; more get 429)\n"
          "      --max-connections N   open connections (default 64)\n"
          "      --max-body BYTES      request body cap (default 16777216)\n"
          "      --idle-timeout SECONDS  close a connection idle this long (default 30)\n"
          "      --request-timeout SECONDS  cut a request (headers, body and answer)\n"
          "                            running longer than this (default 300)\n"
          "      --quiet               no request log on stderr\n"
          "  -h, --help                show this help\n",
          f);
}

void mv_cli_mcp_usage(FILE *f) {
    fputs("Usage: mcpvet mcp [--store PATH] [--config FILE]... [--allow-agent-approval]\n"
          "       mcpvet mcp --listen 127.0.0.1:PORT [--api-key-file FILE] [options]\n"
          "\n"
          "Run an MCP server on standard input and output with one tool,\n"
          "quarantine_security: list, inspect, scan_server, scan_tools, quarantine\n"
          "and approve. Add it to an agent client like any stdio server, e.g.\n"
          "  {\"mcpServers\": {\"mcpvet\": {\"command\": \"mcpvet\", \"args\": [\"mcp\"]}}}\n"
          "\n"
          "With --listen it speaks MCP streamable HTTP instead, at http://HOST:PORT/mcp\n"
          "(printed on start; port 0 picks a free one), until SIGTERM or SIGINT.\n"
          "Every request needs the key as Authorization: Bearer KEY (or X-API-Key),\n"
          "found as `mcpvet serve` finds it: --api-key-file, else MCPVET_API_KEY,\n"
          "else the file api-key beside the default store (generated, mode 0600).\n"
          "Requests whose Host or Origin is not this server are refused.\n"
          "\n"
          "Approval is a person's decision: the approve operation is refused (and\n"
          "names the `mcpvet security approve` command) unless this server was\n"
          "started with --allow-agent-approval.\n"
          "\n"
          "Options:\n"
          "      --store PATH            approval store (default $XDG_STATE_HOME/mcpvet/store.db)\n"
          "  -c, --config FILE           client config naming the servers to scan\n"
          "                              (repeatable; default: every known client config)\n"
          "      --timeout SECONDS       per server scan (default 30)\n"
          "      --allow-agent-approval  let the agent approve tools\n"
          "      --listen HOST:PORT      serve streamable HTTP on this address\n"
          "      --allow-remote          allow a non-loopback address (needs a key of yours)\n"
          "      --api-key-file FILE     the key (created with a new key when missing)\n"
          "      --max-connections N     open connections (default 64)\n"
          "      --max-body BYTES        request body cap (default 16777216)\n"
          "      --idle-timeout SECONDS  close a connection idle this long (default 30)\n"
          "      --request-timeout SECONDS  cut a request running longer (default 300)\n"
          "      --quiet                 no request log on stderr\n"
          "  -h, --help                  show this help\n",
          f);
}

typedef struct serve_args {
    mv_cli_list configs;
    mv_cli_list hosts;
    mv_rest_options rest;
    const char *http_option; /* mcp: the first option that needs --listen (its name) */
    bool allow_approval;
    bool help;
} serve_args;

static int parse_unsigned(const char *option, const char *s, unsigned long long max,
                          unsigned long long *out) {
    if (mv_cli_parse_count(option, s, max, out) != 0)
        return -1;
    if (*out == 0) {
        mv_cli_error("%s: must be at least 1", option);
        return -1;
    }
    return 0;
}

/* Returns 0, or MV_EXIT_USAGE after printing why. `mcp` limits the options
 * to those of `mcpvet mcp`. */
static int parse_args(serve_args *a, int argc, char **argv, bool mcp) {
    static const struct option longopts[] = {
        {"listen", required_argument, NULL, OPT_LISTEN},
        {"api-key-file", required_argument, NULL, OPT_KEY_FILE},
        {"store", required_argument, NULL, OPT_STORE},
        {"config", required_argument, NULL, 'c'},
        {"allow-remote", no_argument, NULL, OPT_ALLOW_REMOTE},
        {"allow-host", required_argument, NULL, OPT_ALLOW_HOST},
        {"max-connections", required_argument, NULL, OPT_MAX_CONNECTIONS},
        {"max-scans", required_argument, NULL, OPT_MAX_SCANS},
        {"max-body", required_argument, NULL, OPT_MAX_BODY},
        {"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
        {"request-timeout", required_argument, NULL, OPT_REQUEST_TIMEOUT},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"allow-agent-approval", no_argument, NULL, OPT_ALLOW_APPROVAL},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *cmd = mcp ? "mcp" : "serve";
    unsigned long long v;
    double secs;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":c:h", longopts, NULL)) != -1) {
        bool serve_only = c == OPT_ALLOW_HOST || c == OPT_MAX_SCANS;
        bool http = c == OPT_LISTEN || c == OPT_KEY_FILE || c == OPT_ALLOW_REMOTE ||
                    c == OPT_MAX_CONNECTIONS || c == OPT_MAX_BODY || c == OPT_IDLE_TIMEOUT ||
                    c == OPT_QUIET || c == OPT_REQUEST_TIMEOUT;
        for (size_t i = 0;
             mcp && http && c != OPT_LISTEN && a->http_option == NULL && longopts[i].name != NULL;
             i++)
            if (longopts[i].val == c)
                a->http_option = longopts[i].name;
        if ((mcp && serve_only) || (!mcp && c == OPT_ALLOW_APPROVAL)) {
            mv_cli_error("%s: unknown option \"%s\"", cmd, argv[optind - 1]);
            return MV_EXIT_USAGE;
        }
        switch (c) {
        case OPT_LISTEN:
            a->rest.listen = optarg;
            break;
        case OPT_KEY_FILE:
            a->rest.api_key_file = optarg;
            break;
        case OPT_STORE:
            a->rest.service.store_path = optarg;
            break;
        case 'c':
            if (mv_cli_list_add(&a->configs, optarg) != 0)
                goto oom;
            break;
        case OPT_ALLOW_REMOTE:
            a->rest.allow_remote = true;
            break;
        case OPT_ALLOW_HOST:
            if (mv_cli_list_add(&a->hosts, optarg) != 0)
                goto oom;
            break;
        case OPT_MAX_CONNECTIONS:
            if (parse_unsigned(mcp ? "mcp: --max-connections" : "serve: --max-connections", optarg,
                               4096, &v) != 0)
                return MV_EXIT_USAGE;
            a->rest.max_connections = (unsigned)v;
            break;
        case OPT_MAX_SCANS:
            if (parse_unsigned("serve: --max-scans", optarg, 256, &v) != 0)
                return MV_EXIT_USAGE;
            a->rest.service.max_scans = (unsigned)v;
            break;
        case OPT_MAX_BODY:
            if (parse_unsigned(mcp ? "mcp: --max-body" : "serve: --max-body", optarg,
                               1024ull * 1024 * 1024, &v) != 0)
                return MV_EXIT_USAGE;
            a->rest.max_body = (size_t)v;
            break;
        case OPT_IDLE_TIMEOUT:
            if (mv_cli_parse_seconds(mcp ? "mcp: --idle-timeout" : "serve: --idle-timeout", optarg,
                                     MAX_TIMEOUT_SECONDS, &secs) != 0)
                return MV_EXIT_USAGE;
            a->rest.timeout_s = secs < 1.0 ? 1u : (unsigned)secs;
            break;
        case OPT_REQUEST_TIMEOUT:
            if (mv_cli_parse_seconds(mcp ? "mcp: --request-timeout" : "serve: --request-timeout",
                                     optarg, MAX_TIMEOUT_SECONDS, &secs) != 0)
                return MV_EXIT_USAGE;
            a->rest.deadline_s = secs < 1.0 ? 1u : (unsigned)secs;
            break;
        case OPT_TIMEOUT:
            if (mv_cli_parse_seconds(mcp ? "mcp: --timeout" : "serve: --timeout", optarg,
                                     MAX_TIMEOUT_SECONDS, &secs) != 0)
                return MV_EXIT_USAGE;
            a->rest.service.scan_timeout_ms = (unsigned)(secs * 1000.0 + 0.5);
            break;
        case OPT_QUIET:
            a->rest.quiet = true;
            break;
        case OPT_ALLOW_APPROVAL:
            a->allow_approval = true;
            break;
        case 'h':
            a->help = true;
            return 0;
        case ':':
            mv_cli_error("%s: option %s needs a value", cmd, argv[optind - 1]);
            return MV_EXIT_USAGE;
        default:
            mv_cli_error("%s: unknown option \"%s\"", cmd, argv[optind - 1]);
            return MV_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        mv_cli_error("%s: unexpected argument \"%s\"", cmd, argv[optind]);
        return MV_EXIT_USAGE;
    }
    if (mcp && a->http_option != NULL && a->rest.listen == NULL) {
        mv_cli_error("mcp: --%s needs --listen (it only applies to the HTTP transport)",
                     a->http_option);
        return MV_EXIT_USAGE;
    }
    a->rest.service.configs = (const char *const *)a->configs.items;
    a->rest.service.n_configs = a->configs.n;
    a->rest.allowed_hosts = (const char *const *)a->hosts.items;
    a->rest.n_allowed_hosts = a->hosts.n;
    return 0;
oom:
    mv_cli_error("out of memory");
    return MV_EXIT_USAGE;
}

int mv_cli_serve(int argc, char **argv) {
    serve_args a;
    mv_error err;
    int code;
    memset(&a, 0, sizeof a);
    mv_error_clear(&err);
    code = parse_args(&a, argc, argv, false);
    if (code != 0 || a.help) {
        if (a.help)
            mv_cli_serve_usage(stdout);
        else
            mv_cli_serve_usage(stderr);
        goto done;
    }
    if (mv_rest_run(&a.rest, &err) != MV_OK) {
        mv_cli_print_error(&err, NULL);
        code = MV_EXIT_USAGE;
        goto done;
    }
    code = MV_EXIT_OK;
done:
    mv_cli_list_free(&a.configs);
    mv_cli_list_free(&a.hosts);
    return code;
}

int mv_cli_mcp(int argc, char **argv) {
    serve_args a;
    mv_error err;
    int code;
    memset(&a, 0, sizeof a);
    mv_error_clear(&err);
    code = parse_args(&a, argc, argv, true);
    if (code != 0 || a.help) {
        if (a.help)
            mv_cli_mcp_usage(stdout);
        else
            mv_cli_mcp_usage(stderr);
        goto done;
    }
    mv_mcpserver_options o;
    memset(&o, 0, sizeof o);
    o.service = a.rest.service;
    o.allow_agent_approval = a.allow_approval;
    int rc;
    if (a.rest.listen != NULL) {
        mv_mcpserver_http_options h;
        memset(&h, 0, sizeof h);
        h.listen = a.rest.listen;
        h.allow_remote = a.rest.allow_remote;
        h.api_key_file = a.rest.api_key_file;
        h.max_connections = a.rest.max_connections;
        h.idle_timeout_s = a.rest.timeout_s;
        h.deadline_s = a.rest.deadline_s;
        h.max_body = a.rest.max_body;
        h.quiet = a.rest.quiet;
        rc = mv_mcpserver_run_http(&o, &h, &err);
    } else {
        rc = mv_mcpserver_run(&o, &err);
    }
    if (rc != MV_OK) {
        mv_cli_print_error(&err, NULL);
        code = MV_EXIT_USAGE;
        goto done;
    }
    code = MV_EXIT_OK;
done:
    mv_cli_list_free(&a.configs);
    mv_cli_list_free(&a.hosts);
    return code;
}
