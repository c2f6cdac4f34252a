/*
 * Client configuration discovery: which MCP servers the agent clients on
 * this machine (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf,
 * Gemini CLI, Codex, Zed, Cline, Continue, Kiro) are configured to start or
 * reach, read from their own config files in their own formats (JSON, JSON
 * with comments where the client accepts it, Codex's TOML subset, Continue's
 * YAML). Nothing here starts a process or opens a socket: it only reads
 * files and describes servers, so `mcpvet scan --list` is safe.
 *
 * Everything a config holds is treated as untrusted input: parse errors name
 * the file, line and column; values of env and headers are secrets and are
 * kept only to start or reach the server, never printed (mv_config_kv.value
 * must not reach a report, a log or an error message).
 */
#ifndef MCPVET_CONFIG_H
#define MCPVET_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/buf.h"
#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a server is reached. */
typedef enum mv_transport {
    MV_TRANSPORT_NONE = 0,
    MV_TRANSPORT_STDIO, /* a local command speaking newline-delimited JSON-RPC */
    MV_TRANSPORT_HTTP,  /* streamable HTTP (falls back to legacy SSE on a 4xx) */
    MV_TRANSPORT_SSE    /* the legacy HTTP+SSE transport, as configured */
} mv_transport;

/* "stdio", "http", "sse", "none". Never NULL. */
const char *mv_transport_name(mv_transport t);

/* Whether a configured server can be started or reached as it stands. */
typedef enum mv_server_readiness {
    MV_SERVER_READY = 0,   /* complete: can be started / reached */
    MV_SERVER_DISABLED,    /* disabled in the config (disabled: true, enabled = false) */
    MV_SERVER_NEEDS_INPUT, /* a placeholder the client would prompt for or could not
                              resolve (${input:...}, an unset ${env:VAR}) */
    MV_SERVER_INVALID      /* the entry is unusable (no command and no url, bad type) */
} mv_server_readiness;

/* "ready", "disabled", "needs_input", "invalid". Never NULL. */
const char *mv_server_readiness_name(mv_server_readiness r);

/* A name/value pair of env or headers. `value` is a secret. */
typedef struct mv_config_kv {
    char *name;
    char *value;
} mv_config_kv;

/* One configured server, all strings owned by the mv_config_set. */
typedef struct mv_server_config {
    char *name;            /* the configured name ("github") */
    char *client;          /* client id: "claude-desktop", "claude-code", "cursor", "vscode",
                              "windsurf", "gemini", "codex", "zed", "cline", "continue",
                              "kiro", or "generic" for --config files of no known client */
    char *config_path;     /* the file it came from */
    char *scope;           /* "user", "project", "local" (Claude Code's per-project entry in
                              ~/.claude.json), "workspace", "system", or "file" for a file
                              given to mv_config_load_file (for messages) */
    uint32_t line, column; /* where the server's entry starts in the file (1-based,
                              0 when unknown) */
    mv_transport transport;
    /* stdio. command, args, env values, cwd, url and header values have their
     * placeholders (${VAR}, ${env:NAME}, ${workspaceFolder}...) resolved; a
     * string whose placeholder could not be resolved keeps its text as
     * written (and readiness is NEEDS_INPUT). */
    char *command;
    char **args;
    size_t n_args;
    /* command, args, cwd and url as written in the file, before placeholders
     * were resolved (the same pointers when nothing was resolved). Show and
     * pin these: the resolved forms may carry values taken from the
     * environment (a token in ${TOKEN}). */
    char *raw_command;
    char **raw_args;
    char *raw_url;
    char *raw_cwd;
    mv_config_kv *env; /* added to (and overriding) the inherited environment */
    size_t n_env;
    char *cwd; /* NULL = inherit */
    /* http / sse */
    char *url;
    mv_config_kv *headers; /* sent with every request; values are secrets */
    size_t n_headers;
    /* Tool filters some clients apply (Gemini includeTools/excludeTools, Codex
     * enabled_tools/disabled_tools, Kiro disabledTools): recorded and shown;
     * the scan still scans every tool the server advertises. */
    char **include_tools;
    size_t n_include_tools;
    char **exclude_tools;
    size_t n_exclude_tools;
    /* DISABLED wins over INVALID, which wins over NEEDS_INPUT. */
    mv_server_readiness readiness;
    char *readiness_reason; /* why not ready ("needs input: ${input:api-key} (header
                               \"X-Key\")"), NULL when ready; names fields and
                               placeholders, never a value or a default */
    /* A server of the same client and name at a less specific level (user
     * config) that this one overrides is dropped; the dropped file is named
     * here for --list (NULL when nothing was overridden). */
    char *overrides_path;
    /* The entry runs its server through `mcpvet proxy` (as `mcpvet proxy
     * --install` wrote it: command mcpvet, args "proxy" ... "--" COMMAND
     * ARGS...). command/args/raw_command/raw_args are then the wrapped
     * server's, so a scan reaches the server itself and pins it under the
     * same identity the proxy uses. */
    bool proxied;
} mv_server_config;

/* A config file that was looked at. */
typedef struct mv_config_file {
    char *path;
    char *client;
    char *scope;
    int status;       /* MV_OK, or the error code that stopped reading it */
    char *error;      /* "FILE:LINE:COL: message" when status != MV_OK, else NULL
                         ("FILE: message" when no position applies) */
    size_t n_servers; /* servers taken from this file and kept (a server overridden by a
                         more specific file is counted there, not here) */
} mv_config_file;

/* Owned by the library: always obtained from mv_config_discover or
 * mv_config_load_file and released with mv_config_set_free (the set carries
 * private state after these members). */
typedef struct mv_config_set {
    mv_server_config *servers; /* in discovery order: client table order, then file order */
    size_t n_servers;
    mv_config_file *files; /* every existing file that was read (missing files are not listed) */
    size_t n_files;
} mv_config_set;

/*
 * Caps on what one config file may hold; over a cap the file is refused
 * with MV_ELIMIT and a message naming the limit. Zero members take the
 * defaults given here.
 */
typedef struct mv_config_limits {
    uint64_t max_file_bytes;       /* 16 MiB: a config file, an envFile */
    uint32_t max_servers_per_file; /* 1024 */
    uint32_t max_entries;          /* 1024: args, env, headers, tool filters of one server */
    uint32_t max_string_bytes;     /* 65536: one name, value, argument or key */
    uint32_t max_files;            /* 256: files read from one folder
                                      (.continue/mcpServers/) */
} mv_config_limits;

#define MV_CONFIG_DEFAULT_MAX_FILE_BYTES (16u * 1024 * 1024)
#define MV_CONFIG_DEFAULT_MAX_SERVERS 1024u
#define MV_CONFIG_DEFAULT_MAX_ENTRIES 1024u
#define MV_CONFIG_DEFAULT_MAX_STRING 65536u
#define MV_CONFIG_DEFAULT_MAX_FILES 256u

/*
 * Where to look and how to resolve placeholders. Tests point `home` at a
 * temporary folder. NULL members take the process's values (HOME,
 * XDG_CONFIG_HOME, APPDATA, CODEX_HOME, the current directory, getenv),
 * except that when `home` is given, xdg_config_home defaults to
 * HOME/.config, codex_home to HOME/.codex and appdata to none, so a fake
 * HOME never mixes with the real machine's configs. Every Linux, macOS and
 * Windows location is tried (docs/clients.md lists them).
 */
typedef struct mv_config_env {
    const char *home;
    const char *xdg_config_home;
    const char *appdata;    /* Windows-style config root, when set */
    const char *codex_home; /* $CODEX_HOME */
    const char *cwd;        /* project root for project-level files (.mcp.json...) */
    const char *system_dir; /* root prefix for system files like /etc/gemini-cli ("" = /) */
    /* Environment lookup for ${VAR}, ${env:VAR}; NULL = getenv. Returns NULL
     * when the variable is unset. */
    const char *(*getenv_fn)(void *arg, const char *name);
    void *getenv_arg;
    mv_config_limits limits;   /* zero members = defaults */
    const mv_allocator *alloc; /* NULL = default (libyaml allocates on its own) */
} mv_config_env;

/*
 * Find every known client config under `env` (NULL = the process's values)
 * and read all of them. A file
 * that cannot be parsed is recorded in files[] with its error and the others
 * are still read (the caller decides whether that degrades the scan).
 * Returns 0 or MV_ENOMEM. *out is always a valid set on 0.
 */
int mv_config_discover(mv_config_set **out, const mv_config_env *env, mv_error *err);

/*
 * Read one file. `client` forces the format ("cursor", "codex"...,
 * "generic" for a strict-JSON `mcpServers` file); NULL detects it from the
 * file name (config.toml, *.yaml, claude_desktop_config.json, .mcp.json,
 * .cursor/mcp.json...) and then the content (`servers` = VS Code,
 * `context_servers` = Zed, `mcpServers` = generic, or Claude Code with
 * `projects`, `mcp` or `customizations` = VS Code settings or devcontainer,
 * `[mcp_servers]` TOML = Codex). Servers get scope "file" ("local" for the
 * projects[cwd] entries of a ~/.claude.json). Returns 0, MV_EIO,
 * MV_EPARSE (err has file, line and column), MV_EINVAL (unknown client
 * name, or content of no known format) or MV_ENOMEM.
 */
int mv_config_load_file(mv_config_set **out, const char *path, const char *client,
                        const mv_config_env *env, mv_error *err);

/* Known client ids, NULL-terminated, in discovery order ("generic" is not
 * listed: it is accepted by mv_config_load_file for a plain `mcpServers`
 * file of no known client). */
const char *const *mv_config_client_ids(void);

/*
 * Append one line saying how `s` is started or reached, safe to print:
 * "stdio: npx -y @scope/server [env: API_KEY, DEBUG] [cwd: /srv]" or
 * "http: https://host/mcp [headers: Authorization]". It uses raw_command,
 * raw_args, raw_cwd and raw_url (placeholders as written, never resolved
 * values),
 * lists env and header NAMES only (never values), quotes arguments that hold
 * spaces, quotes or anything but printable ASCII as JSON strings with
 * \uXXXX escapes (so no terminal escape or invisible character is
 * printed), and shows at most 512 bytes of any one string. Arguments that
 * look like credentials are masked as "***" (the value after a flag named
 * like --token or --api-key, "--key=..." forms, long one-word values mixing
 * letters and digits), and a URL loses its user info, query and fragment.
 * No newline is appended. Returns 0, MV_EINVAL (NULL argument) or MV_ENOMEM.
 */
int mv_config_describe(mv_buf *out, const mv_server_config *s);

/* How an argument of a configured command may be shown to people (the
 * rules of mv_config_describe, shared with the store's display of how a
 * server is reached): MV_ARG_MASK hides it whole (it follows a flag named
 * like a credential, "--api-key VALUE", or is a long token-like word),
 * MV_ARG_MASK_VALUE keeps "--flag=" and hides what follows
 * ("--token=VALUE"). `prev` is the argument before it, NULL for the first. */
typedef enum mv_arg_mask { MV_ARG_SHOW = 0, MV_ARG_MASK, MV_ARG_MASK_VALUE } mv_arg_mask;
mv_arg_mask mv_config_arg_mask(const char *prev, const char *arg);

void mv_config_set_free(mv_config_set *set);

#ifdef __cplusplus
}
#endif
#endif
