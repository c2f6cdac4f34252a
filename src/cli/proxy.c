/*
 * `mcpvet proxy`: the runtime guard in front of one stdio MCP server
 * (src/proxy/, include/mcpvet/proxy.h), written into an agent client's
 * config in place of the server's command; and `mcpvet proxy --install` /
 * `--uninstall`, which rewrite the discovered client configs so every stdio
 * server runs through it (and back).
 *
 * stdout is the protocol channel: nothing but the relayed JSON-RPC is ever
 * written there while proxying; the proxy's own lines go to stderr or
 * --log FILE.
 *
 * Exit codes: 0 the session ended (the agent or the server closed it);
 * 1 the server ended the session before the agent did (its exit is logged);
 * 2 bad usage, or the server could not be started.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mcpvet/config.h"
#include "mcpvet/proxy.h"
#include "mcpvet/report.h"

#define MAX_TIMEOUT_SECONDS 86400.0

void mv_cli_proxy_usage(FILE *f) {
    fputs("Usage: mcpvet proxy [options] [--] COMMAND [ARGS...]\n"
          "       mcpvet proxy [options] --url URL --listen 127.0.0.1:PORT\n"
          "       mcpvet proxy [options] --config FILE --name NAME [--listen ADDR]\n"
          "       mcpvet proxy --install [--client NAME] [--config FILE]... [--dry-run]\n"
          "       mcpvet proxy --uninstall [--client NAME] [--config FILE]... [--dry-run]\n"
          "\n"
          "Run an MCP stdio server behind a guard: put `mcpvet proxy --name NAME -- `\n"
          "in front of the server's command in the agent's config (or let --install\n"
          "do it). Replies to tools/list, prompts/list and resources/list are scanned\n"
          "and checked against the approval store, and only allowed items reach the\n"
          "agent; so do the server's instructions in the initialize reply (item\n"
          "server_instructions: left out of the reply unless allowed); a call to a\n"
          "tool that is not allowed is answered with an error that says why and how\n"
          "to approve it; everything else passes unchanged.\n"
          "\n"
          "Options:\n"
          "      --policy tofu|strict|audit\n"
          "                        tofu (default): approved tools pass, a new tool\n"
          "                        without a quarantine verdict is pinned on first use;\n"
          "                        strict: only approved tools pass; audit: nothing is\n"
          "                        blocked, what would be is logged\n"
          "      --results warn|strip|block\n"
          "                        what to do with a tool result that carries hidden\n"
          "                        characters or an encoded payload: log it (default),\n"
          "                        remove the hidden characters, or withhold the result\n"
          "      --name NAME       the server's name in the store (default: the\n"
          "                        command's base name)\n"
          "      --store PATH      approval store (default $XDG_STATE_HOME/mcpvet/store.db)\n"
          "      --log FILE        append the proxy's log lines to FILE (default stderr)\n"
          "      --timeout SECONDS answer requests in flight with an error when the\n"
          "                        server is silent this long (default 300)\n"
          "      --max-message BYTES  longest message either way (default 16777216)\n"
          "      --scan-queue N    under --results warn a result is passed on at once\n"
          "                        and scanned by a worker thread; at most N results\n"
          "                        (and 32 MiB of their text) wait for it (default 4096);\n"
          "                        when full, a result is scanned on the relay's thread\n"
          "                        after it was passed on, never skipped; 0: no worker\n"
          "      --config FILE     with --name: take the server from this client config\n"
          "                        (its identity in the store is the one `mcpvet scan`\n"
          "                        gives that entry; a remote entry brings its URL and\n"
          "                        headers; a stdio entry runs its command when none is\n"
          "                        given after --)\n"
          "\n",
          f);
    fputs("Remote servers (the guard as a streamable-HTTP server):\n"
          "      --url URL         the remote MCP server\n"
          "      --transport http|sse  how to reach it: streamable HTTP (default) or\n"
          "                        legacy HTTP+SSE\n"
          "      --header 'NAME: VALUE'  sent upstream with every request (repeatable;\n"
          "                        values are never logged; prefer --config for tokens,\n"
          "                        command lines are visible to other users)\n"
          "      --listen HOST:PORT  where agents connect (loopback only; default\n"
          "                        127.0.0.1:0, the bound address is logged); the\n"
          "                        endpoint path is /mcp\n"
          "      --max-streams N   event streams open at once towards agents (GET\n"
          "                        streams and streamed replies; default 32)\n"
          "      --stream-queue BYTES  what may wait to be written on one stream; a\n"
          "                        client that stops reading is dropped (default\n"
          "                        4194304)\n"
          "\n"
          "Install:\n"
          "      --install         rewrite every discovered client config so its stdio\n"
          "                        servers run through `mcpvet proxy` (backup next to\n"
          "                        each file as FILE.mcpvet-backup; comments and other\n"
          "                        keys stay; already wrapped entries are left alone)\n"
          "      --uninstall       undo it (byte for byte when the file was not edited\n"
          "                        since)\n"
          "      --client NAME     only this client's configs (or the format of --config)\n"
          "      --config FILE     this config file instead of discovery (repeatable)\n"
          "      --dry-run         show what would change, write nothing\n"
          "  (--policy, --results and --store given with --install are written into\n"
          "   every rewritten entry)\n"
          "\n"
          "Exit codes: 0 the session ended; 1 the server ended it first; 2 bad usage\n"
          "or the server could not be started. --install/--uninstall: 0 done, 1 some\n"
          "file could not be handled, 2 bad usage.\n",
          f);
}

/* The stop channel of the stdio relay: the signal handler writes a byte
 * (write is async-signal-safe), mv_proxy_run polls the read end. */
static int stop_pipe[2] = {-1, -1};
static struct sigaction stop_old[3];
static const int stop_signals[3] = {SIGTERM, SIGINT, SIGHUP};

static void on_stop_signal(int sig) {
    int saved = errno;
    char b = (char)sig;
    if (stop_pipe[1] >= 0)
        (void)!write(stop_pipe[1], &b, 1);
    errno = saved;
}

static int stop_pipe_open(void) {
    if (pipe(stop_pipe) != 0) {
        stop_pipe[0] = stop_pipe[1] = -1;
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(stop_pipe[i], F_SETFD, FD_CLOEXEC);
        fcntl(stop_pipe[i], F_SETFL, fcntl(stop_pipe[i], F_GETFL) | O_NONBLOCK);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(stop_signals[i], &sa, &stop_old[i]);
    return 0;
}

static void stop_pipe_close(void) {
    if (stop_pipe[0] < 0)
        return;
    for (int i = 0; i < 3; i++)
        sigaction(stop_signals[i], &stop_old[i], NULL);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
}

/* The command's base name, the default server name. */
static const char *base_name(const char *cmd) {
    const char *s = strrchr(cmd, '/');
    return s != NULL && s[1] != '\0' ? s + 1 : cmd;
}

int mv_cli_proxy(int argc, char **argv) {
    const char *policy = NULL, *results = NULL, *name = NULL, *store = NULL, *log_path = NULL;
    const char *client = NULL, *url = NULL, *listen = NULL, *transport = NULL;
    mv_cli_list headers;
    mv_config_set *set = NULL;
    mv_config_kv *kv = NULL;
    mv_cli_list configs;
    bool install = false, uninstall = false, dry_run = false;
    double timeout = 0;
    unsigned long long max_message = 0, max_streams = 0, stream_queue = 0, scan_queue = 0;
    bool scan_queue_set = false;
    int first_cmd = -1, code = MV_EXIT_USAGE;
    FILE *log = NULL;
    memset(&configs, 0, sizeof(configs));
    memset(&headers, 0, sizeof(headers));

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (strcmp(a, "--") == 0) {
            first_cmd = i + 1;
            break;
        }
        if (strcmp(a, "--policy") == 0)
            slot = &policy;
        else if (strcmp(a, "--results") == 0)
            slot = &results;
        else if (strcmp(a, "--name") == 0)
            slot = &name;
        else if (strcmp(a, "--store") == 0)
            slot = &store;
        else if (strcmp(a, "--log") == 0)
            slot = &log_path;
        else if (strcmp(a, "--client") == 0)
            slot = &client;
        else if (strcmp(a, "--url") == 0)
            slot = &url;
        else if (strcmp(a, "--listen") == 0)
            slot = &listen;
        else if (strcmp(a, "--transport") == 0)
            slot = &transport;
        else if (strcmp(a, "--install") == 0)
            install = true;
        else if (strcmp(a, "--uninstall") == 0)
            uninstall = true;
        else if (strcmp(a, "--dry-run") == 0)
            dry_run = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            mv_cli_proxy_usage(stdout);
            code = MV_EXIT_OK;
            goto done;
        } else if (strcmp(a, "--config") == 0 || strcmp(a, "--timeout") == 0 ||
                   strcmp(a, "--max-message") == 0 || strcmp(a, "--header") == 0 ||
                   strcmp(a, "--max-streams") == 0 || strcmp(a, "--stream-queue") == 0 ||
                   strcmp(a, "--scan-queue") == 0) {
            if (i + 1 >= argc) {
                mv_cli_error("proxy: %s needs a value", a);
                goto done;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--config") == 0 || strcmp(a, "--header") == 0) {
                if (mv_cli_list_add(strcmp(a, "--config") == 0 ? &configs : &headers, v) != 0) {
                    mv_cli_error("out of memory");
                    goto done;
                }
            } else if (strcmp(a, "--scan-queue") == 0) {
                if (mv_cli_parse_count("proxy: --scan-queue", v, 65536, &scan_queue) != 0)
                    goto done;
                scan_queue_set = true;
            } else if (strcmp(a, "--max-streams") == 0) {
                if (mv_cli_parse_count("proxy: --max-streams", v, 4096, &max_streams) != 0)
                    goto done;
            } else if (strcmp(a, "--stream-queue") == 0) {
                if (mv_cli_parse_count("proxy: --stream-queue", v, 1ull << 30, &stream_queue) !=
                        0 ||
                    stream_queue < 1024) {
                    if (stream_queue < 1024 && stream_queue != 0)
                        mv_cli_error("proxy: --stream-queue must be at least 1024");
                    goto done;
                }
            } else if (strcmp(a, "--timeout") == 0) {
                if (mv_cli_parse_seconds("proxy: --timeout", v, MAX_TIMEOUT_SECONDS, &timeout) != 0)
                    goto done;
            } else if (mv_cli_parse_count("proxy: --max-message", v, 1ull << 30, &max_message) !=
                           0 ||
                       max_message < 1024) {
                if (max_message < 1024 && max_message != 0)
                    mv_cli_error("proxy: --max-message must be at least 1024");
                goto done;
            }
            continue;
        } else if (a[0] != '-') {
            /* The server's command starts at the first argument that is not
             * an option ("--" is optional: some clients drop it). */
            first_cmd = i;
            break;
        } else {
            mv_cli_error("proxy: unknown option \"%s\" (the server's command goes after --)", a);
            mv_cli_proxy_usage(stderr);
            goto done;
        }
        if (slot != NULL) {
            if (i + 1 >= argc) {
                mv_cli_error("proxy: %s needs a value", a);
                goto done;
            }
            *slot = argv[++i];
        }
    }

    mv_proxy_policy pol = MV_PROXY_TOFU;
    mv_proxy_results res = MV_PROXY_RESULTS_WARN;
    if (policy != NULL && mv_proxy_policy_parse(&pol, policy) != 0) {
        mv_cli_error("proxy: --policy must be tofu, strict or audit, not \"%s\"", policy);
        goto done;
    }
    if (results != NULL && mv_proxy_results_parse(&res, results) != 0) {
        mv_cli_error("proxy: --results must be warn, strip or block, not \"%s\"", results);
        goto done;
    }

    if (install || uninstall) {
        if (install && uninstall) {
            mv_cli_error("proxy: --install and --uninstall exclude each other");
            goto done;
        }
        if (first_cmd >= 0 || name != NULL || log_path != NULL || url != NULL || listen != NULL ||
            transport != NULL || headers.n > 0) {
            mv_cli_error("proxy: --%s takes no server command, --name, --log, --url, --listen, "
                         "--transport or --header",
                         install ? "install" : "uninstall");
            goto done;
        }
        mv_proxy_install_options io;
        memset(&io, 0, sizeof(io));
        io.uninstall = uninstall;
        io.dry_run = dry_run;
        io.client = client;
        io.paths = (const char *const *)configs.items;
        io.n_paths = configs.n;
        io.policy = policy;
        io.results = results;
        io.store = store;
        if (uninstall && (policy != NULL || results != NULL || store != NULL)) {
            mv_cli_error("proxy: --uninstall takes no --policy, --results or --store");
            goto done;
        }
        size_t changed = 0;
        mv_error err;
        mv_error_clear(&err);
        int rc = mv_proxy_install(&io, &changed, &err);
        if (rc == MV_OK) {
            code = MV_EXIT_OK;
        } else if (rc == MV_EUNSUPPORTED) {
            code = MV_EXIT_FINDINGS;
        } else {
            mv_cli_print_error(&err, NULL);
            code = rc == MV_EINVAL ? MV_EXIT_USAGE : MV_EXIT_FINDINGS;
        }
        goto done;
    }
    if (dry_run || client != NULL || configs.n > 1) {
        mv_cli_error("proxy: --dry-run, --client and several --config go with --install or "
                     "--uninstall");
        goto done;
    }
    /* The server from a client config: its identity, and for a remote
     * server its URL and headers. */
    const mv_server_config *entry = NULL;
    if (configs.n == 1) {
        if (name == NULL) {
            mv_cli_error("proxy: --config needs --name (the server's name in that file)");
            goto done;
        }
        mv_error cerr;
        mv_error_clear(&cerr);
        if (mv_config_load_file(&set, configs.items[0], NULL, NULL, &cerr) != MV_OK) {
            mv_cli_print_error(&cerr, NULL);
            goto done;
        }
        for (size_t i = 0; i < set->n_servers && entry == NULL; i++)
            if (strcmp(set->servers[i].name, name) == 0)
                entry = &set->servers[i];
        if (entry == NULL) {
            mv_cli_error("proxy: %s has no server named \"%s\"", configs.items[0], name);
            goto done;
        }
        if (entry->readiness == MV_SERVER_INVALID || entry->readiness == MV_SERVER_NEEDS_INPUT) {
            mv_cli_error("proxy: server \"%s\" of %s cannot be used: %s", name, configs.items[0],
                         entry->readiness_reason != NULL ? entry->readiness_reason : "?");
            goto done;
        }
        if (entry->transport != MV_TRANSPORT_STDIO && (url != NULL || headers.n > 0)) {
            mv_cli_error("proxy: the URL and headers come from --config; drop --url and --header");
            goto done;
        }
    }
    bool remote = url != NULL || (entry != NULL && entry->transport != MV_TRANSPORT_STDIO);
    if (log_path != NULL) {
        log = fopen(log_path, "a");
        if (log == NULL) {
            mv_cli_error("proxy: %s: cannot open for appending: %s", log_path, strerror(errno));
            goto done;
        }
    }
    if (remote) {
        if (first_cmd >= 0) {
            mv_cli_error("proxy: a remote server (--url) takes no command");
            goto done;
        }
        mv_server_config sc;
        memset(&sc, 0, sizeof(sc));
        if (entry != NULL) {
            sc = *entry;
        } else {
            sc.transport = MV_TRANSPORT_HTTP;
            sc.url = (char *)(uintptr_t)url;
            sc.raw_url = sc.url;
            if (transport != NULL && strcmp(transport, "sse") == 0)
                sc.transport = MV_TRANSPORT_SSE;
            else if (transport != NULL && strcmp(transport, "http") != 0) {
                mv_cli_error("proxy: --transport must be http or sse, not \"%s\"", transport);
                goto done;
            }
            if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
                mv_cli_error("proxy: --url must start with http:// or https://");
                goto done;
            }
            kv = calloc(headers.n + 1, sizeof(*kv));
            if (kv == NULL) {
                mv_cli_error("out of memory");
                goto done;
            }
            for (size_t i = 0; i < headers.n; i++) {
                char *colon = strchr(headers.items[i], ':');
                if (colon == NULL || colon == headers.items[i]) {
                    /* The value may be a secret: name the option, not the text. */
                    mv_cli_error("proxy: --header #%zu must be \"NAME: VALUE\"", i + 1);
                    goto done;
                }
                *colon = '\0';
                char *v = colon + 1;
                while (*v == ' ' || *v == '\t')
                    v++;
                kv[i].name = headers.items[i];
                kv[i].value = v;
            }
            sc.headers = kv;
            sc.n_headers = headers.n;
            sc.name = (char *)(uintptr_t)(name != NULL ? name : "remote");
        }
        if (name != NULL)
            sc.name = (char *)(uintptr_t)name;
        mv_proxy_http_options ho;
        memset(&ho, 0, sizeof(ho));
        ho.policy = pol;
        ho.results = res;
        ho.server = &sc;
        ho.store_path = store;
        ho.log = log;
        ho.max_message_bytes = max_message;
        ho.timeout_ms = timeout > 0 ? (uint32_t)(timeout * 1000.0 + 0.5) : 0;
        ho.max_streams = (unsigned)max_streams;
        ho.stream_queue_bytes = (size_t)stream_queue;
        ho.scan_queue = !scan_queue_set ? 0 : scan_queue == 0 ? -1 : (int)scan_queue;
        code = mv_cli_proxy_serve(&ho, listen != NULL ? listen : "127.0.0.1:0", log);
        goto done;
    }
    if (listen != NULL || transport != NULL || headers.n > 0 || max_streams > 0 ||
        stream_queue > 0) {
        mv_cli_error("proxy: --listen, --transport, --header, --max-streams and --stream-queue "
                     "go with --url (a remote server)");
        goto done;
    }
    const char *const *cmd_argv = NULL;
    size_t cmd_argc = 0;
    if (first_cmd >= 0 && first_cmd < argc && argv[first_cmd][0] != '\0') {
        cmd_argv = (const char *const *)(argv + first_cmd);
        cmd_argc = (size_t)(argc - first_cmd);
    } else if (entry != NULL) {
        /* The entry's own command (placeholders resolved), run from here. */
        cmd_argv = NULL;
    } else {
        mv_cli_error("proxy: give the server's command after --, e.g. mcpvet proxy -- npx -y "
                     "@modelcontextprotocol/server-everything");
        goto done;
    }
    char **own = NULL;
    if (cmd_argv == NULL) {
        own = calloc(entry->n_args + 2, sizeof(*own));
        if (own == NULL) {
            mv_cli_error("out of memory");
            goto done;
        }
        own[0] = entry->command;
        for (size_t i = 0; i < entry->n_args; i++)
            own[i + 1] = entry->args[i];
        cmd_argv = (const char *const *)own;
        cmd_argc = entry->n_args + 1;
    }
    mv_proxy_options o;
    memset(&o, 0, sizeof(o));
    o.policy = pol;
    o.results = res;
    o.name = name != NULL ? name : base_name(cmd_argv[0]);
    o.argv = cmd_argv;
    o.argc = cmd_argc;
    o.config = entry;
    o.store_path = store;
    o.client_in = 0;
    o.client_out = 1;
    o.log = log;
    o.max_message_bytes = max_message;
    o.timeout_ms = timeout > 0 ? (uint32_t)(timeout * 1000.0 + 0.5) : 0;
    o.scan_queue = !scan_queue_set ? 0 : scan_queue == 0 ? -1 : (int)scan_queue;
    if (o.name[0] == '\0') {
        free(own);
        mv_cli_error("proxy: --name must not be empty");
        goto done;
    }
    /* SIGTERM, SIGINT and SIGHUP end the session the way the agent
     * closing it does (requests in flight answered, pending result scans
     * logged, the server ended) instead of killing the relay mid-way. */
    if (stop_pipe_open() == 0)
        o.stop_fd = stop_pipe[0];
    mv_proxy_outcome out;
    mv_error err;
    mv_error_clear(&err);
    int rc = mv_proxy_run(&o, &out, &err);
    stop_pipe_close();
    free(own);
    if (rc != MV_OK) {
        mv_cli_error("proxy: %s", err.message[0] ? err.message : mv_strerror(rc));
        code = MV_EXIT_USAGE;
        goto done;
    }
    code = out.server_exited ? MV_EXIT_FINDINGS : MV_EXIT_OK;
done:
    if (log != NULL)
        fclose(log);
    mv_cli_list_free(&configs);
    mv_cli_list_free(&headers);
    mv_config_set_free(set);
    free(kv);
    return code;
}
