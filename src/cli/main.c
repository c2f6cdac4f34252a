/*
 * mcpvet's entry point: dispatch to a subcommand, or answer --help and
 * --version. Each subcommand lives in its own file and parses its own
 * options; this file only knows their names.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpvet/mcp.h"
#include "mcpvet/report.h"

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

static void usage(FILE *f) {
    fputs("mcpvet - offline scanner for poisoned MCP tool definitions\n"
          "\n"
          "Usage:\n"
          "  mcpvet scan [options]              every server the agent clients configure\n"
          "  mcpvet scan --config FILE [options]\n"
          "  mcpvet scan --tools FILE [--tools FILE ...] [options]\n"
          "  mcpvet scan --list                 show configured servers, start nothing\n"
          "  mcpvet eval --corpus FILE|DIR [--corpus FILE|DIR ...] [options]\n"
          "  mcpvet security list|approve|quarantine|diff|history|forget|export|import ...\n"
          "  mcpvet serve [--listen 127.0.0.1:PORT] [--api-key-file FILE] [options]\n"
          "  mcpvet mcp [--store PATH] [--allow-agent-approval] [--listen 127.0.0.1:PORT]\n"
          "  mcpvet proxy [options] -- COMMAND [ARGS...]\n"
          "  mcpvet proxy --install|--uninstall [--client NAME] [--dry-run]\n"
          "  mcpvet help [COMMAND]\n"
          "  mcpvet --version\n"
          "\n"
          "Commands:\n"
          "  scan   reach configured MCP servers (or read tool files) and scan what\n"
          "         they advertise; this starts the configured commands\n"
          "  eval   measure recall and false positives on a labeled corpus\n"
          "  security  review and approve pinned tools (the approval store)\n"
          "  serve  the REST API (loopback, API key): scans, states, approvals\n"
          "  mcp    an MCP server (stdio or HTTP) with the quarantine_security tool\n"
          "  proxy  run a stdio MCP server behind the guard: only approved tools reach\n"
          "         the agent, calls to others are refused; --install puts every\n"
          "         configured stdio server behind it\n"
          "\n"
          "Exit codes: 0 clean, 1 finding at or above --fail-on, 2 usage or input\n"
          "error, 3 scan degraded (a check failed or a cap was hit), 6 eval gate failed.\n"
          "Run 'mcpvet COMMAND --help' for the options of a command.\n",
          f);
}

static int help(int argc, char **argv) {
    if (argc < 2) {
        usage(stdout);
        return MV_EXIT_OK;
    }
    if (strcmp(argv[1], "scan") == 0) {
        mv_cli_scan_usage(stdout);
        return MV_EXIT_OK;
    }
    if (strcmp(argv[1], "eval") == 0) {
        mv_cli_eval_usage(stdout);
        return MV_EXIT_OK;
    }
    if (strcmp(argv[1], "security") == 0) {
        mv_cli_security_usage(stdout);
        return MV_EXIT_OK;
    }
    if (strcmp(argv[1], "serve") == 0) {
        mv_cli_serve_usage(stdout);
        return MV_EXIT_OK;
    }
    if (strcmp(argv[1], "mcp") == 0) {
        mv_cli_mcp_usage(stdout);
        return MV_EXIT_OK;
    }
    if (strcmp(argv[1], "proxy") == 0) {
        mv_cli_proxy_usage(stdout);
        return MV_EXIT_OK;
    }
    mv_cli_error("help: unknown command \"%s\"", argv[1]);
    usage(stderr);
    return MV_EXIT_USAGE;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return MV_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    /* A server that exits while we write to it must not kill mcpvet: writes
     * then fail with EPIPE and the server gets a status. */
    signal(SIGPIPE, SIG_IGN);
    /* libcurl is loaded and set up on first use (src/mcp/curl_dl.h), so a
     * scan of tools files, eval and security never pay for it. The
     * long-running servers that reach MCP servers from several threads load
     * it now, before any thread exists (the collect stage does the same
     * before its workers start, and so does the proxy's HTTP front; the
     * stdio proxy never needs it, and saves ~4 ms of start-up). */
    if ((strcmp(cmd, "serve") == 0 || strcmp(cmd, "mcp") == 0) &&
        mv_mcp_global_init() != MV_OK) {
        mv_cli_error("cannot initialise the HTTP client (libcurl)");
        return MV_EXIT_USAGE;
    }
    int code = -1;
    if (strcmp(cmd, "scan") == 0)
        code = mv_cli_scan(argc - 1, argv + 1);
    else if (strcmp(cmd, "serve") == 0)
        code = mv_cli_serve(argc - 1, argv + 1);
    else if (strcmp(cmd, "mcp") == 0)
        code = mv_cli_mcp(argc - 1, argv + 1);
    else if (strcmp(cmd, "eval") == 0)
        code = mv_cli_eval(argc - 1, argv + 1);
    else if (strcmp(cmd, "security") == 0)
        code = mv_cli_security(argc - 1, argv + 1);
    else if (strcmp(cmd, "proxy") == 0)
        code = mv_cli_proxy(argc - 1, argv + 1);
    mv_mcp_global_cleanup();
    if (code >= 0)
        return code;
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return help(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("mcpvet %s\n", MCPVET_VERSION);
        return MV_EXIT_OK;
    }
    if (cmd[0] == '-')
        mv_cli_error("unknown option \"%s\"", cmd);
    else
        mv_cli_error("unknown command \"%s\"", cmd);
    usage(stderr);
    return MV_EXIT_USAGE;
}
