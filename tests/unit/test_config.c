/*
 * Unit tests of client config discovery (src/config): a fake HOME, project,
 * system folder and APPDATA with configs of every client (copied from
 * tests/unit/data/config/discover), and per-format positive cases and hard
 * negatives: comments only where the client accepts them, malformed TOML
 * and YAML with line and column, duplicate keys, wrong types, placeholders
 * and NEEDS_INPUT, disabled servers, overrides, caps, files that are not
 * regular files, format detection, and canary strings proving that no env
 * or header value reaches a reason, a description or an error.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fail_alloc.h"
#include "mcpvet/buf.h"
#include "mcpvet/config.h"

/* ------------------------------------------------------------- helpers */

static char g_tmp[512];

static void mkdirs(const char *path) {
    char buf[4096];
    int n = snprintf(buf, sizeof(buf), "%s", path);
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0700);
            *p = '/';
        }
    }
    mkdir(buf, 0700);
}

static void write_at(const char *path, const char *data, size_t len) {
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
        mkdirs(dir);
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    if (len > 0 && fwrite(data, 1, len, f) != len)
        fail_msg("short write %s", path);
    fclose(f);
}

/* tmp/rel with `data`; returns the full path in a static buffer. */
static const char *put(const char *rel, const char *data) {
    static char path[1024];
    snprintf(path, sizeof(path), "%s/%s", g_tmp, rel);
    write_at(path, data, strlen(data));
    return path;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static int setup_tmp(void **state) {
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(g_tmp, sizeof(g_tmp), "%s/mcpvet-config-XXXXXX", base && *base ? base : "/tmp");
    if (mkdtemp(g_tmp) == NULL)
        return -1;
    return 0;
}

static int teardown_tmp(void **state) {
    (void)state;
    nftw(g_tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

/* Copy the fixture tree into tmp, replacing @PROJECT@ with tmp/project. */
static const char *g_src_root;
static char g_project[600];

static int copy_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    char dst[1200];
    snprintf(dst, sizeof(dst), "%s%s", g_tmp, p + strlen(g_src_root));
    if (flag == FTW_D) {
        mkdirs(dst);
        return 0;
    }
    if (flag != FTW_F)
        return 0;
    FILE *f = fopen(p, "rb");
    if (f == NULL)
        return -1;
    char buf[16384];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char out[20000];
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (strncmp(buf + i, "@PROJECT@", 9) == 0) {
            o += (size_t)snprintf(out + o, sizeof(out) - o, "%s", g_project);
            i += 9;
        } else {
            out[o++] = buf[i++];
        }
    }
    write_at(dst, out, o);
    return 0;
}

static void copy_fixture(void) {
    static char src[1024];
    const char *root = getenv("MCPVET_SOURCE_DIR");
    snprintf(src, sizeof(src), "%s/tests/unit/data/config/discover", root ? root : ".");
    g_src_root = src;
    snprintf(g_project, sizeof(g_project), "%s/project", g_tmp);
    if (nftw(src, copy_one, 16, FTW_PHYS) != 0)
        fail_msg("cannot copy the fixture tree %s", src);
}

/* A fake environment: NAME=VALUE pairs. */
typedef struct fake_env {
    const char *const *pairs;
} fake_env;

static const char *fake_getenv(void *arg, const char *name) {
    const fake_env *fe = arg;
    for (size_t i = 0; fe->pairs != NULL && fe->pairs[i] != NULL; i += 2)
        if (strcmp(fe->pairs[i], name) == 0)
            return fe->pairs[i + 1];
    return NULL;
}

static fake_env g_fe;
static char g_home[600], g_sys[600], g_appdata[600];

static mv_config_env make_env(const char *const *pairs) {
    mv_config_env e;
    memset(&e, 0, sizeof(e));
    snprintf(g_home, sizeof(g_home), "%s/home", g_tmp);
    snprintf(g_sys, sizeof(g_sys), "%s/system", g_tmp);
    snprintf(g_project, sizeof(g_project), "%s/project", g_tmp);
    e.home = g_home;
    e.cwd = g_project;
    e.system_dir = g_sys;
    g_fe.pairs = pairs;
    e.getenv_fn = fake_getenv;
    e.getenv_arg = &g_fe;
    return e;
}

static const mv_server_config *find(const mv_config_set *set, const char *client,
                                    const char *name) {
    const mv_server_config *hit = NULL;
    for (size_t i = 0; i < set->n_servers; i++)
        if (strcmp(set->servers[i].client, client) == 0 &&
            strcmp(set->servers[i].name, name) == 0) {
            if (hit != NULL)
                fail_msg("%s/%s listed twice", client, name);
            hit = &set->servers[i];
        }
    if (hit == NULL)
        fail_msg("server %s/%s not found", client, name);
    return hit;
}

static size_t count(const mv_config_set *set, const char *client, const char *name) {
    size_t n = 0;
    for (size_t i = 0; i < set->n_servers; i++)
        n += strcmp(set->servers[i].client, client) == 0 && strcmp(set->servers[i].name, name) == 0;
    return n;
}

static const char *env_val(const mv_server_config *s, const char *name) {
    for (size_t i = 0; i < s->n_env; i++)
        if (strcmp(s->env[i].name, name) == 0)
            return s->env[i].value;
    return NULL;
}

static const char *hdr_val(const mv_server_config *s, const char *name) {
    for (size_t i = 0; i < s->n_headers; i++)
        if (strcmp(s->headers[i].name, name) == 0)
            return s->headers[i].value;
    return NULL;
}

static void expect_reason(const mv_server_config *s, mv_server_readiness r, const char *part) {
    if (s->readiness != r)
        fail_msg("%s: readiness %s, expected %s (reason: %s)", s->name,
                 mv_server_readiness_name(s->readiness), mv_server_readiness_name(r),
                 s->readiness_reason ? s->readiness_reason : "none");
    if (part == NULL) {
        if (r == MV_SERVER_READY)
            assert_null(s->readiness_reason);
        return;
    }
    assert_non_null(s->readiness_reason);
    if (strstr(s->readiness_reason, part) == NULL)
        fail_msg("%s: reason '%s' lacks '%s'", s->name, s->readiness_reason, part);
}

static void no_canary(const char *s, const char *what) {
    if (s != NULL && strstr(s, "CANARY") != NULL)
        fail_msg("a secret reached %s: %s", what, s);
}

/* Every printable part of a set is canary-free. */
static void set_no_canary(const mv_config_set *set) {
    for (size_t i = 0; i < set->n_servers; i++) {
        const mv_server_config *s = &set->servers[i];
        mv_buf b;
        mv_buf_init(&b, NULL);
        assert_int_equal(mv_config_describe(&b, s), MV_OK);
        no_canary(b.data, "a description");
        no_canary(s->readiness_reason, "a reason");
        mv_buf_release(&b);
    }
    for (size_t i = 0; i < set->n_files; i++)
        no_canary(set->files[i].error, "a file error");
}

static mv_config_set *discover(const mv_config_env *env) {
    mv_config_set *set = NULL;
    mv_error err;
    mv_error_clear(&err);
    int rc = mv_config_discover(&set, env, &err);
    if (rc != MV_OK)
        fail_msg("discover: %d %s", rc, err.message);
    assert_non_null(set);
    return set;
}

/* Load `text` written to tmp/name (forcing `client` when non-NULL). */
static int load_text(mv_config_set **set, const char *name, const char *text, const char *client,
                     const mv_config_env *env, mv_error *err) {
    const char *path = put(name, text);
    mv_error_clear(err);
    *set = NULL;
    int rc = mv_config_load_file(set, path, client, env, err);
    if (rc != MV_OK)
        assert_null(*set);
    return rc;
}

static mv_config_set *load_ok(const char *name, const char *text, const char *client,
                              const mv_config_env *env) {
    mv_config_set *set = NULL;
    mv_error err;
    int rc = load_text(&set, name, text, client, env, &err);
    if (rc != MV_OK)
        fail_msg("load %s failed (%d): %s:%d:%d: %s", name, rc, err.source, err.line, err.column,
                 err.message);
    assert_int_equal(set->n_files, 1);
    assert_int_equal(set->files[0].status, MV_OK);
    set_no_canary(set);
    return set;
}

/* Expect a load failure `code` at line:col with `part` in the message. */
static void load_fail(const char *name, const char *text, const char *client, int code, int line,
                      int col, const char *part) {
    mv_config_env env = make_env(NULL);
    mv_config_set *set = NULL;
    mv_error err;
    int rc = load_text(&set, name, text, client, &env, &err);
    if (rc != code)
        fail_msg("%s: expected %d, got %d (%s) for:\n%s", name, code, rc, err.message, text);
    assert_int_equal(err.code, code);
    if (line >= 0 && (err.line != line || err.column != col))
        fail_msg("%s: expected %d:%d, got %d:%d (%s) for:\n%s", name, line, col, err.line,
                 err.column, err.message, text);
    if (part != NULL && strstr(err.message, part) == NULL)
        fail_msg("%s: message '%s' lacks '%s'", name, err.message, part);
    assert_true(strstr(err.source, name) != NULL);
    no_canary(err.message, "an error message");
}

/* ------------------------------------------------------------ discovery */

static const char *const FULL_ENV[] = {"CURSOR_TOKEN",
                                       "tok-CANARY-cursor",
                                       "CODEX_TOKEN",
                                       "CANARY-codex-bearer",
                                       "CODEX_ORG",
                                       "CANARY-org",
                                       "GEMINI_KEY",
                                       "CANARY-gemini-key",
                                       "KIRO_VAR",
                                       "kv",
                                       "CC_TOKEN",
                                       "CANARY-cc-token",
                                       NULL};

static void test_discover_every_client(void **state) {
    (void)state;
    copy_fixture();
    mv_config_env env = make_env(FULL_ENV);
    mv_config_set *set = discover(&env);

    /* 24 files (no APPDATA given), none failed. */
    assert_int_equal(set->n_files, 24);
    for (size_t i = 0; i < set->n_files; i++) {
        if (set->files[i].status != MV_OK)
            fail_msg("%s: %s", set->files[i].path, set->files[i].error);
        assert_null(set->files[i].error);
    }
    assert_int_equal(set->n_servers, 39);
    size_t sum = 0;
    for (size_t i = 0; i < set->n_files; i++)
        sum += set->files[i].n_servers;
    assert_int_equal(sum, set->n_servers);

    /* Claude Desktop (Linux and macOS folders) */
    const mv_server_config *s = find(set, "claude-desktop", "cd-fs");
    assert_int_equal(s->transport, MV_TRANSPORT_STDIO);
    assert_string_equal(s->command, "npx");
    assert_int_equal(s->n_args, 3);
    assert_string_equal(s->args[2], "/tmp");
    assert_string_equal(env_val(s, "API_KEY"), "CANARY-desktop-env");
    assert_string_equal(s->scope, "user");
    assert_true(strstr(s->config_path, "home/.config/Claude/claude_desktop_config.json") != NULL);
    assert_int_equal(s->line, 3);
    assert_int_equal(s->column, 5);
    expect_reason(s, MV_SERVER_READY, NULL);
    find(set, "claude-desktop", "mac-claude");
    assert_int_equal(count(set, "claude-desktop", "win-claude"), 0);

    /* Claude Code: user < project < local */
    s = find(set, "claude-code", "cc-shared");
    assert_string_equal(s->command, "local-cmd");
    assert_string_equal(s->scope, "local");
    assert_non_null(s->overrides_path);
    assert_true(strstr(s->overrides_path, "project/.mcp.json") != NULL);
    s = find(set, "claude-code", "cc-proj");
    assert_string_equal(s->command, "/opt/tools/server");
    assert_string_equal(s->raw_command, "${TOOLS_DIR:-/opt/tools}/server");
    assert_string_equal(s->args[1], "CANARY-cc-token");
    assert_string_equal(s->raw_args[1], "${CC_TOKEN}");
    assert_string_equal(env_val(s, "LEVEL"), "info");
    expect_reason(s, MV_SERVER_READY, NULL);
    s = find(set, "claude-code", "cc-local");
    assert_int_equal(s->transport, MV_TRANSPORT_HTTP);
    assert_string_equal(s->url, "https://local.example/mcp");
    assert_string_equal(hdr_val(s, "Authorization"), "Bearer CANARY-claude-local");
    assert_int_equal(s->line, 12);
    assert_int_equal(s->column, 9);
    assert_int_equal(find(set, "claude-code", "cc-sse")->transport, MV_TRANSPORT_SSE);
    find(set, "claude-code", "cc-user");
    assert_int_equal(count(set, "claude-code", "cc-elsewhere"), 0);

    /* Cursor: both levels kept */
    assert_int_equal(count(set, "cursor", "cur-user"), 2);
    s = find(set, "cursor", "cur-proj");
    char want[1200];
    snprintf(want, sizeof(want), "%s/bin/server", g_project);
    assert_string_equal(s->command, want);
    assert_string_equal(s->args[0], g_home);
    assert_string_equal(s->raw_command, "${workspaceFolder}/bin/server");

    /* VS Code: user mcp.json (JSONC), legacy settings, workspace, devcontainer */
    s = find(set, "vscode", "vs-user");
    snprintf(want, sizeof(want), "%s/srv.js", g_home);
    assert_string_equal(s->args[0], want);
    expect_reason(find(set, "vscode", "vs-input"), MV_SERVER_NEEDS_INPUT, "${input:api-key}");
    assert_string_equal(find(set, "vscode", "vs-legacy")->command, "uvx");
    assert_int_equal(find(set, "vscode", "vs-ws")->transport, MV_TRANSPORT_SSE);
    s = find(set, "vscode", "vs-dev");
    assert_string_equal(s->command, "docker");
    assert_string_equal(s->scope, "workspace");

    /* Windsurf: serverUrl, disabled */
    s = find(set, "windsurf", "ws-remote");
    assert_int_equal(s->transport, MV_TRANSPORT_HTTP);
    assert_string_equal(s->url, "https://windsurf.example/mcp");
    expect_reason(find(set, "windsurf", "ws-off"), MV_SERVER_DISABLED, "disabled: true");

    /* Gemini: httpUrl = HTTP, url = SSE, $VAR, system wins */
    s = find(set, "gemini", "gm-user");
    assert_int_equal(s->transport, MV_TRANSPORT_HTTP);
    assert_int_equal(s->n_include_tools, 2);
    assert_string_equal(s->include_tools[1], "reader");
    assert_int_equal(s->n_exclude_tools, 1);
    s = find(set, "gemini", "gm-sse");
    assert_int_equal(s->transport, MV_TRANSPORT_SSE);
    assert_string_equal(hdr_val(s, "K"), "CANARY-gemini-key");
    s = find(set, "gemini", "gm-local");
    snprintf(want, sizeof(want), "%s/./servers", g_project);
    assert_string_equal(s->cwd, want);
    s = find(set, "gemini", "gm-shared");
    assert_string_equal(s->command, "system-gemini");
    assert_string_equal(s->scope, "system");
    assert_true(strstr(s->overrides_path, "project/.gemini/settings.json") != NULL);

    /* Codex: bearer, headers, tool filters, project layered over user */
    s = find(set, "codex", "cx-remote");
    assert_int_equal(s->transport, MV_TRANSPORT_HTTP);
    assert_string_equal(hdr_val(s, "Authorization"), "Bearer CANARY-codex-bearer");
    assert_string_equal(hdr_val(s, "X-Team"), "CANARY-codex-header");
    assert_string_equal(hdr_val(s, "X-Org"), "CANARY-org");
    assert_int_equal(s->n_include_tools, 1);
    assert_string_equal(s->exclude_tools[0], "delete");
    expect_reason(s, MV_SERVER_READY, NULL);
    s = find(set, "codex", "cx-gh");
    assert_int_equal(s->line, 5);
    assert_int_equal(s->column, 1);
    s = find(set, "codex", "cx-layer");
    expect_reason(s, MV_SERVER_DISABLED, "enabled = false");
    assert_string_equal(s->command, "layer-cmd");
    assert_string_equal(env_val(s, "MODE"), "user");
    assert_string_equal(env_val(s, "EXTRA"), "project");
    assert_string_equal(s->scope, "project");
    assert_true(strstr(s->overrides_path, "home/.codex/config.toml") != NULL);

    /* Zed: both command forms, an extension entry, url, enabled = false */
    assert_string_equal(find(set, "zed", "zed-old")->command, "/usr/bin/old-srv");
    assert_string_equal(find(set, "zed", "zed-old")->args[0], "run");
    assert_string_equal(env_val(find(set, "zed", "zed-custom"), "Z"), "1");
    expect_reason(find(set, "zed", "zed-ext"), MV_SERVER_INVALID, "extension");
    assert_int_equal(find(set, "zed", "zed-remote")->transport, MV_TRANSPORT_HTTP);
    expect_reason(find(set, "zed", "zed-off"), MV_SERVER_DISABLED, "enabled = false");

    /* Cline (extension and CLI) */
    find(set, "cline", "cl-ext");
    assert_int_equal(find(set, "cline", "cl-cli")->transport, MV_TRANSPORT_HTTP);
    expect_reason(find(set, "cline", "cl-off"), MV_SERVER_DISABLED, NULL);

    /* Continue: YAML list, block files */
    s = find(set, "continue", "co-yaml");
    assert_int_equal(s->n_args, 3);
    expect_reason(s, MV_SERVER_NEEDS_INPUT, "${{ secrets.SQLITE_TOKEN }}");
    assert_int_equal(s->line, 6);
    assert_int_equal(find(set, "continue", "co-http")->transport, MV_TRANSPORT_HTTP);
    find(set, "continue", "co-block");
    find(set, "continue", "co-json");

    /* Kiro: workspace overrides user, disabledTools */
    s = find(set, "kiro", "ki-shared");
    assert_string_equal(s->command, "workspace-kiro");
    assert_non_null(s->overrides_path);
    s = find(set, "kiro", "ki-user");
    assert_string_equal(env_val(s, "V"), "kv");
    assert_string_equal(s->exclude_tools[0], "rm");
    expect_reason(find(set, "kiro", "ki-off"), MV_SERVER_DISABLED, NULL);

    /* Discovery order: client table order. */
    const char *const *ids = mv_config_client_ids();
    size_t last = 0;
    for (size_t i = 0; i < set->n_servers; i++) {
        size_t k = 0;
        while (ids[k] != NULL && strcmp(ids[k], set->servers[i].client) != 0)
            k++;
        assert_non_null(ids[k]);
        assert_true(k >= last);
        last = k;
    }
    set_no_canary(set);
    mv_config_set_free(set);
}

static void test_discover_needs_input(void **state) {
    (void)state;
    copy_fixture();
    mv_config_env env = make_env(NULL);
    mv_config_set *set = discover(&env);
    expect_reason(find(set, "claude-code", "cc-proj"), MV_SERVER_NEEDS_INPUT,
                  "${CC_TOKEN} is not set (args[1])");
    expect_reason(find(set, "gemini", "gm-sse"), MV_SERVER_NEEDS_INPUT, "$GEMINI_KEY");
    expect_reason(find(set, "gemini", "gm-local"), MV_SERVER_NEEDS_INPUT, "${GEMINI_KEY}");
    expect_reason(find(set, "kiro", "ki-user"), MV_SERVER_NEEDS_INPUT, "${KIRO_VAR}");
    expect_reason(find(set, "codex", "cx-remote"), MV_SERVER_NEEDS_INPUT, "CODEX_");
    const mv_server_config *s = NULL;
    for (size_t i = 0; i < set->n_servers; i++)
        if (strcmp(set->servers[i].name, "cur-user") == 0 &&
            set->servers[i].transport == MV_TRANSPORT_HTTP)
            s = &set->servers[i];
    assert_non_null(s);
    expect_reason(s, MV_SERVER_NEEDS_INPUT, "${env:CURSOR_TOKEN}");
    /* The value as written is kept, unresolved. */
    assert_string_equal(hdr_val(s, "Authorization"), "Bearer ${env:CURSOR_TOKEN}");
    /* TOOLS_DIR and LEVEL are unset: their defaults apply. */
    s = find(set, "claude-code", "cc-proj");
    assert_string_equal(s->command, "/opt/tools/server");
    set_no_canary(set);
    mv_config_set_free(set);
}

static void test_discover_windows_appdata(void **state) {
    (void)state;
    copy_fixture();
    mv_config_env env = make_env(FULL_ENV);
    snprintf(g_appdata, sizeof(g_appdata), "%s/appdata", g_tmp);
    env.appdata = g_appdata;
    mv_config_set *set = discover(&env);
    assert_int_equal(set->n_files, 27);
    const mv_server_config *s = find(set, "claude-desktop", "win-claude");
    assert_string_equal(s->command, "C:\\Tools\\srv.exe");
    assert_true(strstr(s->config_path, "appdata/Claude/claude_desktop_config.json") != NULL);
    find(set, "vscode", "win-vscode");
    find(set, "zed", "win-zed");
    mv_config_set_free(set);
}

static void test_discover_empty_home(void **state) {
    (void)state;
    put("home/.keep", "");
    mv_config_env env = make_env(NULL);
    mv_config_set *set = discover(&env);
    assert_int_equal(set->n_servers, 0);
    assert_int_equal(set->n_files, 0);
    mv_config_set_free(set);
}

/* A broken, a FIFO and a folder in place of configs: recorded, the rest read. */
static void test_discover_broken_files(void **state) {
    (void)state;
    put("home/.config/Claude/claude_desktop_config.json",
        "{\"mcpServers\": {\"ok\": {\"command\": \"x\"}}}");
    put("home/.cursor/mcp.json", "{\n  // comments are not JSON\n  \"mcpServers\": {}\n}");
    char fifo[1024];
    snprintf(fifo, sizeof(fifo), "%s/home/.kiro/settings", g_tmp);
    mkdirs(fifo);
    strcat(fifo, "/mcp.json");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/home/.codeium/windsurf/mcp_config.json", g_tmp);
    mkdirs(dir);
    put("home/.gemini/settings.json", "{\"mcpServers\": []}");
    mv_config_env env = make_env(NULL);
    time_t t0 = time(NULL);
    mv_config_set *set = discover(&env);
    assert_true(time(NULL) - t0 < 30); /* the FIFO did not block */
    find(set, "claude-desktop", "ok");
    assert_int_equal(set->n_servers, 1);
    int seen = 0;
    for (size_t i = 0; i < set->n_files; i++) {
        const mv_config_file *f = &set->files[i];
        if (strcmp(f->client, "cursor") == 0) {
            assert_int_equal(f->status, MV_EPARSE);
            assert_true(strstr(f->error, "/home/.cursor/mcp.json:2:3: ") != NULL);
            seen++;
        } else if (strcmp(f->client, "kiro") == 0) {
            assert_int_equal(f->status, MV_EIO);
            assert_true(strstr(f->error, "not a regular file") != NULL);
            seen++;
        } else if (strcmp(f->client, "windsurf") == 0) {
            assert_int_equal(f->status, MV_EIO);
            assert_true(strstr(f->error, "not a regular file") != NULL);
            seen++;
        } else if (strcmp(f->client, "gemini") == 0) {
            assert_int_equal(f->status, MV_EPARSE);
            assert_true(strstr(f->error, "settings.json:1:2: mcpServers must be an object") !=
                        NULL);
            seen++;
        }
    }
    assert_int_equal(seen, 4);
    mv_config_set_free(set);
}

/* A project folder that is HOME: each file is read once. */
static void test_discover_project_is_home(void **state) {
    (void)state;
    put("home/.cursor/mcp.json", "{\"mcpServers\": {\"c\": {\"command\": \"x\"}}}");
    put("home/.kiro/settings/mcp.json", "{\"mcpServers\": {\"k\": {\"command\": \"x\"}}}");
    mv_config_env env = make_env(NULL);
    env.cwd = g_home;
    mv_config_set *set = discover(&env);
    assert_int_equal(set->n_files, 2);
    assert_int_equal(set->n_servers, 2);
    mv_config_set_free(set);
}

/* ------------------------------------------------------- JSON / JSONC */

static void test_jsonc_only_where_accepted(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    const char *jsonc =
        "{\n"
        "  // servers\n"
        "  \"servers\": {\n"
        "    \"a\": {\"type\": \"http\", \"url\": \"https://h//x/*y*/\",}, /* c */\n"
        "  },\n"
        "}\n";
    mv_config_set *set = load_ok("mcp.json", jsonc, "vscode", &env);
    /* Comment markers inside strings are text. */
    assert_string_equal(set->servers[0].url, "https://h//x/*y*/");
    assert_int_equal(set->servers[0].line, 4);
    assert_int_equal(set->servers[0].column, 5);
    mv_config_set_free(set);

    const char *zed = "{\"context_servers\": {\"z\": {\"command\": \"x\",},},}";
    set = load_ok("settings.json", zed, "zed", &env);
    assert_int_equal(set->n_servers, 1);
    mv_config_set_free(set);
    set = load_ok("settings.json", "{/* x */ \"mcpServers\": {}, // y\n}", "gemini", &env);
    assert_int_equal(set->n_servers, 0);
    mv_config_set_free(set);

    /* Strict clients: a comment or a trailing comma is an error at its place. */
    static const char *const strict[] = {"claude-desktop", "claude-code", "cursor",  "windsurf",
                                         "cline",          "kiro",        "generic", NULL};
    for (size_t i = 0; strict[i] != NULL; i++) {
        load_fail("c.json", "{\n  // no\n  \"mcpServers\": {}\n}", strict[i], MV_EPARSE, 2, 3,
                  "invalid JSON");
        load_fail("c.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\",}}}", strict[i],
                  MV_EPARSE, 1, 38, "invalid JSON");
    }
    /* Unterminated block comment (JSONC client). */
    load_fail("u.json", "{\"servers\": {}}\n\n  /* open", "vscode", MV_EPARSE, 3, 3,
              "unterminated");
}

static void test_json_negatives(void **state) {
    (void)state;
    /* Duplicate key, at the duplicate. */
    load_fail("d.json",
              "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\", \"env\": {\"K\": \"CANARY-1\",\n"
              "    \"K\": \"CANARY-2\"}}}}",
              "cursor", MV_EPARSE, 3, 5, "duplicate object key");
    /* Duplicate server names are duplicate keys too. */
    load_fail("d2.json", "{\"mcpServers\": {\"a\": {}, \"a\": {}}}", "claude-desktop", MV_EPARSE, 1,
              26, "duplicate");
    /* Invalid UTF-8 and raw control characters, never echoing the value. */
    load_fail("u8.json", "{\"mcpServers\": {\"a\": {\"env\": {\"K\": \"CANARY\xff\"}}}}", "cursor",
              MV_EPARSE, 1, 43, "invalid UTF-8");
    load_fail("cc.json", "{\"mcpServers\": {\"a\": {\"env\": {\"K\": \"CANARY\x01\"}}}}", "cursor",
              MV_EPARSE, 1, 43, "control character");
    load_fail("tr.json", "{\"mcpServers\": {}} x", "cursor", MV_EPARSE, 1, 20, NULL);
    /* The server map of the wrong type. */
    load_fail("m.json", "{\n \"mcpServers\": [1]}", "cursor", MV_EPARSE, 2, 2,
              "mcpServers must be an object, found an array");
    load_fail("top.json", "[1]", "cursor", MV_EPARSE, 1, 1, "must hold an object");
    load_fail("s.json", "{\"servers\": \"x\"}", "vscode", MV_EPARSE, 1, 13, "servers must be");
    load_fail("e.json", "", "cursor", MV_EPARSE, 1, 1, NULL);
}

/* Wrong types and incomplete entries: the server is INVALID, the file fine. */
static void test_invalid_entries(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    const char *text =
        "{\"mcpServers\": {\n"
        "\"args-type\": {\"command\": \"x\", \"args\": \"-y\"},\n"
        "\"arg-num\": {\"command\": \"x\", \"args\": [\"a\", 1]},\n"
        "\"env-num\": {\"command\": \"x\", \"env\": {\"PORT\": 8080, \"K\": \"CANARY-e\"}},\n"
        "\"cmd-num\": {\"command\": 5},\n"
        "\"bad-type\": {\"type\": \"websocket\", \"url\": \"https://x\"},\n"
        "\"stdio-no-cmd\": {\"type\": \"stdio\", \"url\": \"https://x\"},\n"
        "\"http-no-url\": {\"type\": \"http\", \"command\": \"x\"},\n"
        "\"nothing\": {\"env\": {\"K\": \"CANARY-n\"}},\n"
        "\"string\": \"npx server\",\n"
        "\"dis-type\": {\"command\": \"x\", \"disabled\": \"yes\"},\n"
        "\"scheme\": {\"url\": \"file:///etc/passwd\"},\n"
        "\"nul\": {\"command\": \"a\\u0000b\"},\n"
        "\"empty\": {\"command\": \"\"},\n"
        "\"hdr\": {\"url\": \"https://x\", \"headers\": {\"A\": [\"CANARY-h\"]}},\n"
        "\"ok\": {\"command\": \"x\", \"args\": [], \"env\": {}}\n"
        "}}";
    mv_config_set *set = load_ok("mcp_config.json", text, "windsurf", &env);
    assert_int_equal(set->n_servers, 15);
    expect_reason(find(set, "windsurf", "args-type"), MV_SERVER_INVALID,
                  "args must be an array of strings, found a string");
    expect_reason(find(set, "windsurf", "arg-num"), MV_SERVER_INVALID,
                  "args[1] must be a string, found an integer");
    expect_reason(find(set, "windsurf", "env-num"), MV_SERVER_INVALID,
                  "env \"PORT\" must be a string, found an integer");
    expect_reason(find(set, "windsurf", "cmd-num"), MV_SERVER_INVALID, "command must be a string");
    expect_reason(find(set, "windsurf", "bad-type"), MV_SERVER_INVALID,
                  "unknown type \"websocket\"");
    expect_reason(find(set, "windsurf", "stdio-no-cmd"), MV_SERVER_INVALID,
                  "type stdio needs a command");
    expect_reason(find(set, "windsurf", "http-no-url"), MV_SERVER_INVALID, "type http needs a url");
    expect_reason(find(set, "windsurf", "nothing"), MV_SERVER_INVALID, "no command or url");
    expect_reason(find(set, "windsurf", "string"), MV_SERVER_INVALID,
                  "must be an object, found a string");
    expect_reason(find(set, "windsurf", "dis-type"), MV_SERVER_INVALID,
                  "disabled must be a boolean");
    expect_reason(find(set, "windsurf", "scheme"), MV_SERVER_INVALID, "http:// or https://");
    expect_reason(find(set, "windsurf", "nul"), MV_SERVER_INVALID, "NUL");
    expect_reason(find(set, "windsurf", "empty"), MV_SERVER_INVALID, "empty");
    expect_reason(find(set, "windsurf", "hdr"), MV_SERVER_INVALID,
                  "header \"A\" must be a string, found an array");
    expect_reason(find(set, "windsurf", "ok"), MV_SERVER_READY, NULL);
    assert_int_equal(find(set, "windsurf", "ok")->line, 16);
    mv_config_set_free(set);
}

/* ------------------------------------------------------------- TOML */

static void test_toml_subset(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    const char *text = "\xEF\xBB\xBF# comment with \xc3\xa9\n"
                       "model = 'o3'  # trailing\n"
                       "n1 = +1_000\nn2 = 0xDEAD_beef\nn3 = 0o755\nn4 = 0b1010\nn5 = -0\n"
                       "f1 = 3.14\nf2 = -1e-3\nf3 = 6.02E+23\nf4 = inf\nf5 = -nan\nf6 = 1_000.5\n"
                       "flags = [true, false]\n"
                       "nested = [[1, 2], ['a', \"b\"], [], {x = 1}]\n"
                       "[[profiles]]\nname = \"one\"\n[[profiles]]\nname = \"two\"\n"
                       "[profiles.sub]\nk = 1\n"
                       "[mcp_servers]\n"
                       "dotted.command = \"dot\"\n"
                       "dotted.args = [ ]\n"
                       "[mcp_servers.\"quoted name\"]\n"
                       "command = \"\"\"\n"
                       "multi\\\n"
                       "    line\"\"\"\n"
                       "args = [\n"
                       "  \"\\u00e9\\t\\\"q\\\"\\\\\",  # comment in an array\n"
                       "  '''lit\\eral''',\n"
                       "  \"\\U0001F600\",\n"
                       "  \"\"\"a\"\"\"\",\n"
                       "]\n"
                       "env = { A = \"1\", b.c = \"ignored-nested\" }\n"
                       "cwd = \"/srv\"\r\n"
                       "[ mcp_servers . 'lit' ]\n"
                       "url = \"https://x/mcp\"\n"
                       "http_headers.X-A = \"v\"\n";
    mv_config_set *set = load_ok("config.toml", text, NULL, &env);
    assert_int_equal(set->n_servers, 3);
    const mv_server_config *s = find(set, "codex", "dotted");
    assert_string_equal(s->command, "dot");
    assert_int_equal(s->n_args, 0);
    s = find(set, "codex", "quoted name");
    assert_string_equal(s->command, "multiline");
    assert_int_equal(s->n_args, 4);
    assert_string_equal(s->args[0], "\xc3\xa9\t\"q\"\\");
    assert_string_equal(s->args[1], "lit\\eral");
    assert_string_equal(s->args[2], "\xf0\x9f\x98\x80");
    assert_string_equal(s->args[3], "a\"");
    assert_string_equal(s->cwd, "/srv");
    /* b.c is a table inside env: the entry is invalid, not guessed. */
    expect_reason(s, MV_SERVER_INVALID, "env \"b\" must be a string, found an object");
    assert_int_equal(s->line, 25);
    assert_int_equal(s->column, 1);
    s = find(set, "codex", "lit");
    assert_string_equal(s->url, "https://x/mcp");
    assert_string_equal(hdr_val(s, "X-A"), "v");
    mv_config_set_free(set);
}

static void test_toml_negatives(void **state) {
    (void)state;
    static const struct {
        const char *text;
        int line, col;
        const char *part;
    } cases[] = {
        {"a = 1\na = 2\n", 2, 1, "duplicate key"},
        {"[t]\n[t]\n", 2, 1, "defined twice"},
        {"t = 1\n[t]\n", 2, 1, "defined twice"},
        {"[t]\nx.y = 1\n[t.x]\n", 3, 1, "defined twice"},
        {"[a.b]\nc = 1\n[a]\nb.d = 2\n", 4, 1, "dotted key cannot extend"},
        {"a = {x = 1}\na.y = 2\n", 2, 1, "dotted key cannot extend"},
        {"a = {x = 1}\n[a.b]\n", 2, 2, "goes through a value"},
        {"a = [1]\n[[a]]\n", 2, 1, "not an array of tables"},
        {"[[a]]\n[a]\n", 2, 1, "defined twice"},
        {"s = \"open\n", 1, 10, "newline inside"},
        {"s = \"open", 1, 5, "unterminated string"},
        {"s = '''open\n", 1, 5, "unterminated string"},
        {"s = \"\\q\"\n", 1, 6, "invalid escape"},
        {"s = \"\\uD800\"\n", 1, 6, "not a Unicode scalar"},
        {"s = \"\\u12\"\n", 1, 6, "hex digits"},
        {"d = 1979-05-27\n", 1, 5, "dates and times"},
        {"t = 07:32:00\n", 1, 5, "dates and times"},
        {"i = 012\n", 1, 5, "leading zeros"},
        {"i = 1__0\n", 1, 5, "invalid value"},
        {"i = 1.\n", 1, 5, "invalid value"},
        {"i = 99999999999999999999\n", 1, 5, "out of range"},
        {"x = yes\n", 1, 5, "invalid value"},
        {"x = \n", 1, 5, "expected a value"},
        {"x = 1 y = 2\n", 1, 7, "end of the line"},
        {"x = {a = 1,}\n", 1, 12, "trailing comma"},
        {"x = {a = 1,\nb = 2}\n", 1, 5, "same line"},
        {"x = [1 2]\n", 1, 8, "expected ',' or ']'"},
        {"x = [1,\n", 1, 5, "unterminated array"},
        {"= 1\n", 1, 1, "expected a key"},
        {"a b = 1\n", 1, 3, "expected '='"},
        {"[a\n", 1, 3, "expected ']'"},
        {"[[a]\n", 1, 4, "expected ']]'"},
        {"\"\"\"k\"\"\" = 1\n", 1, 1, "cannot be a key"},
        {"a = 1\r\nb = 2\rc = 3\n", 2, 6, "carriage return"},
        {"# bad \x01 comment\n", 1, 7, "control character"},
        {"s = \"caf\xc3\"\n", 1, 9, "invalid UTF-8"},
        {"s = \"CANARY\x7f\"\n", 1, 12, "control character"},
        {"k = \"\\u0000\"\n\"\\u0000\" = 1\n", 2, 1, "U+0000"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        load_fail("config.toml", cases[i].text, NULL, MV_EPARSE, cases[i].line, cases[i].col,
                  cases[i].part);
    /* Nesting is capped, not recursed without bound. */
    char deep[400];
    size_t n = 0;
    n += (size_t)snprintf(deep, sizeof(deep), "x = ");
    for (int i = 0; i < 100; i++)
        deep[n++] = '[';
    deep[n] = '\0';
    load_fail("config.toml", deep, NULL, MV_EPARSE, 1, 69, "nested too deeply");
}

/* ------------------------------------------------------------- YAML */

static void test_yaml_continue(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    const char *text = "mcpServers:\n"
                       "  - name: a\n"
                       "    command: npx\n"
                       "    args: [\"-y\", 'pkg', plain]\n"
                       "    env: {K: \"v\"}\n"
                       "  - name: b\n"
                       "    type: sse\n"
                       "    url: https://b/sse\n"
                       "    requestOptions:\n"
                       "      headers: {X-K: CANARY-yaml}\n"
                       "  - command: nameless\n"
                       "  - name: a\n"
                       "    command: again\n"
                       "  - name: num\n"
                       "    command: x\n"
                       "    args: [--port, 8080]\n";
    mv_config_set *set = load_ok("config.yaml", text, NULL, &env);
    assert_int_equal(set->n_servers, 5);
    const mv_server_config *s = &set->servers[0];
    assert_string_equal(s->name, "a");
    assert_string_equal(s->args[2], "plain");
    assert_string_equal(env_val(s, "K"), "v");
    expect_reason(s, MV_SERVER_READY, NULL);
    s = &set->servers[1];
    assert_int_equal(s->transport, MV_TRANSPORT_SSE);
    assert_string_equal(hdr_val(s, "X-K"), "CANARY-yaml");
    expect_reason(&set->servers[2], MV_SERVER_INVALID, "no name");
    expect_reason(&set->servers[3], MV_SERVER_INVALID, "same name");
    expect_reason(&set->servers[4], MV_SERVER_INVALID,
                  "args[1] must be a string, found an integer");
    mv_config_set_free(set);

    load_fail("config.yaml", "base: &b {command: x}\nmcpServers:\n  - *b\n", NULL, MV_EPARSE, 3, 5,
              "aliases are not supported");
    load_fail("config.yaml", "mcpServers: []\nmcpServers: []\n", NULL, MV_EPARSE, 2, 1,
              "duplicate mapping key");
    load_fail("config.yaml", "mcpServers: !!map {}\n", NULL, MV_EPARSE, 1, 13, "tags");
    load_fail("config.yaml", "a: 1\n---\nb: 2\n", NULL, MV_EPARSE, 2, 1, "more than one");
    load_fail("config.yaml", "mcpServers: [\n", NULL, MV_EPARSE, 2, 1, "invalid YAML");
    load_fail("config.yaml", "mcpServers: {a: 1}\n", NULL, MV_EPARSE, 1, 13, "must be a list");
    load_fail("config.yaml", "? [a]\n: 1\n", NULL, MV_EPARSE, 1, 3, "keys must be scalars");
    /* A Continue block file in JSON. */
    set = load_ok("b.json", "{\"mcpServers\": {\"j\": {\"command\": \"x\"}}}", "continue", &env);
    assert_string_equal(set->servers[0].client, "continue");
    mv_config_set_free(set);
}

/* ------------------------------------------------------- placeholders */

static void test_placeholders(void **state) {
    (void)state;
    static const char *const vars[] = {"SET", "value", "EMPTY", "", "TOK", "CANARY-tok", NULL};
    mv_config_env env = make_env(vars);
    mv_config_set *set = load_ok(
        ".mcp.json",
        "{\"mcpServers\": {\n"
        "\"a\": {\"command\": \"${SET}\", \"args\": [\"${UNSET:-dflt}\", \"${EMPTY:-e}\", "
        "\"${SET:-no}\", \"$SET\", \"${not valid}\", \"${1X}\", \"x${SET}y${SET}\"]},\n"
        "\"b\": {\"command\": \"x\", \"env\": {\"T\": \"${MISSING:-CANARY-default}x${NOPE}\"}},\n"
        "\"c\": {\"url\": \"https://h/${TOK}\"}\n"
        "}}",
        NULL, &env);
    const mv_server_config *s = find(set, "claude-code", "a");
    assert_string_equal(s->command, "value");
    assert_string_equal(s->args[0], "dflt");
    assert_string_equal(s->args[1], "e");
    assert_string_equal(s->args[2], "value");
    assert_string_equal(s->args[3], "$SET");
    assert_string_equal(s->args[4], "${not valid}");
    assert_string_equal(s->args[5], "${1X}");
    assert_string_equal(s->args[6], "xvalueyvalue");
    s = find(set, "claude-code", "b");
    expect_reason(s, MV_SERVER_NEEDS_INPUT, "${NOPE} is not set (env \"T\")");
    s = find(set, "claude-code", "c");
    assert_string_equal(s->url, "https://h/CANARY-tok");
    assert_string_equal(s->raw_url, "https://h/${TOK}");
    mv_config_set_free(set);

    set = load_ok("mcp.json",
                  "{\"servers\": {\n"
                  "\"a\": {\"command\": \"${workspaceFolderBasename}${pathSeparator}${/}\"},\n"
                  "\"b\": {\"command\": \"${config:editor.x}\"},\n"
                  "\"c\": {\"command\": \"${SET}\"},\n"
                  "\"d\": {\"command\": \"x\", \"env\": {\"K\": \"${env:SET}\"}},\n"
                  "\"e\": {\"command\": \"x\", \"args\": [\"${input:odd secret\\u0001}\"]}\n"
                  "}}",
                  "vscode", &env);
    assert_string_equal(find(set, "vscode", "a")->command, "project//");
    expect_reason(find(set, "vscode", "b"), MV_SERVER_NEEDS_INPUT, "${config:editor.x}");
    expect_reason(find(set, "vscode", "c"), MV_SERVER_NEEDS_INPUT, "unknown variable ${SET}");
    assert_string_equal(env_val(find(set, "vscode", "d"), "K"), "value");
    /* A placeholder that is not a plain name is not quoted in the reason. */
    expect_reason(find(set, "vscode", "e"), MV_SERVER_NEEDS_INPUT, "a placeholder (args[0])");
    mv_config_set_free(set);

    /* Gemini: $VAR and ${VAR}, no defaults; Claude Desktop: no placeholders. */
    set = load_ok("settings.json",
                  "{\"mcpServers\": {\"g\": {\"command\": \"$SET/${SET}\", \"args\": "
                  "[\"${SET:-x}\"]}}}",
                  "gemini", &env);
    assert_string_equal(set->servers[0].command, "value/value");
    assert_string_equal(set->servers[0].args[0], "${SET:-x}");
    mv_config_set_free(set);
    set = load_ok("claude_desktop_config.json",
                  "{\"mcpServers\": {\"d\": {\"command\": \"${SET}\"}}}", NULL, &env);
    assert_string_equal(set->servers[0].command, "${SET}");
    expect_reason(&set->servers[0], MV_SERVER_READY, NULL);
    mv_config_set_free(set);
    /* Windsurf: ${env:X} only */
    set = load_ok("mcp_config.json",
                  "{\"mcpServers\": {\"w\": {\"serverUrl\": \"https://w\", \"headers\": "
                  "{\"A\": \"${env:TOK}\"}}}}",
                  NULL, &env);
    assert_string_equal(hdr_val(&set->servers[0], "A"), "CANARY-tok");
    mv_config_set_free(set);
}

static void test_env_file(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    put("project/.env", "# comment\nexport A=1\nB = \"two words\" \nC='lit'\nD=x # note\n"
                        "E=\"CANARY-a\\nb\"\n");
    put("project/bad.env", "OK=1\nthis line is CANARY-bad\n");
    mv_config_set *set =
        load_ok("mcp.json",
                "{\"servers\": {\n"
                "\"a\": {\"command\": \"x\", \"envFile\": \"${workspaceFolder}/.env\", "
                "\"env\": {\"A\": \"override\"}},\n"
                "\"b\": {\"command\": \"x\", \"envFile\": \"bad.env\"},\n"
                "\"c\": {\"command\": \"x\", \"envFile\": \"missing.env\"}\n"
                "}}",
                "vscode", &env);
    const mv_server_config *s = find(set, "vscode", "a");
    expect_reason(s, MV_SERVER_READY, NULL);
    assert_int_equal(s->n_env, 5);
    assert_string_equal(env_val(s, "A"), "override");
    assert_string_equal(env_val(s, "B"), "two words");
    assert_string_equal(env_val(s, "C"), "lit");
    assert_string_equal(env_val(s, "D"), "x");
    assert_string_equal(env_val(s, "E"), "CANARY-a\nb");
    expect_reason(find(set, "vscode", "b"), MV_SERVER_INVALID,
                  "bad.env line 2: expected NAME=VALUE");
    expect_reason(find(set, "vscode", "c"), MV_SERVER_INVALID, "cannot open");
    mv_config_set_free(set);

    /* The env files of one config share the file-size budget. */
    char envtext[121];
    memset(envtext, 'x', sizeof(envtext) - 1);
    memcpy(envtext, "A=", 2);
    envtext[sizeof(envtext) - 2] = '\n';
    envtext[sizeof(envtext) - 1] = '\0';
    put("project/big.env", envtext);
    env.limits.max_file_bytes = 200;
    set = load_ok("mcp.json",
                  "{\"servers\": {\"a\": {\"command\": \"x\", \"envFile\": \"big.env\"},\n"
                  "\"b\": {\"command\": \"x\", \"envFile\": \"big.env\"}}}",
                  "vscode", &env);
    expect_reason(find(set, "vscode", "a"), MV_SERVER_READY, NULL);
    expect_reason(find(set, "vscode", "b"), MV_SERVER_INVALID, "together exceed");
    mv_config_set_free(set);
}

/* ------------------------------------------------------ detection */

static void test_detection(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    static const struct {
        const char *name, *text, *client;
    } cases[] = {
        {"any.json", "{\"servers\": {\"a\": {\"command\": \"x\"}}}", "vscode"},
        {"any2.json", "{\"context_servers\": {\"a\": {\"command\": \"x\"}}}", "zed"},
        {"any3.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}", "generic"},
        {"any4.json", "{\"mcpServers\": {}, \"projects\": {}}", "claude-code"},
        {"any5.json", "// c\n{\"mcp\": {\"servers\": {\"a\": {\"command\": \"x\"}}}}", "vscode"},
        {"any6.json", "{\"customizations\": {\"vscode\": {\"mcp\": {\"servers\": {}}}}}", "vscode"},
        {"codex.conf", "[mcp_servers.a]\ncommand = \"x\"\n", "codex"},
        {"config.toml", "", "codex"},
        {"x.yml", "mcpServers: []\n", "continue"},
        {"claude_desktop_config.json", "{}", "claude-desktop"},
        {"mcp_config.json", "{}", "windsurf"},
        {"cline_mcp_settings.json", "{}", "cline"},
        {".mcp.json", "{}", "claude-code"},
        {"devcontainer.json", "{}", "vscode"},
        {".cursor/mcp.json", "{}", "cursor"},
        {".kiro/settings/mcp.json", "{}", "kiro"},
        {".gemini/settings.json", "{}", "gemini"},
        {"zed/settings.json", "{}", "zed"},
        {".vscode/mcp.json", "{}", "vscode"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        mv_config_set *set = load_ok(cases[i].name, cases[i].text, NULL, &env);
        if (strcmp(set->files[0].client, cases[i].client) != 0)
            fail_msg("%s: detected %s, expected %s", cases[i].name, set->files[0].client,
                     cases[i].client);
        assert_string_equal(set->files[0].scope, "file");
        mv_config_set_free(set);
    }
    /* A generic mcpServers file is strict JSON. */
    load_fail("g.json", "{\"mcpServers\": {}, // x\n}", NULL, MV_EPARSE, 1, 20, "invalid JSON");
    /* Unknown content and unknown client names. */
    load_fail("other.json", "{\"tools\": []}", NULL, MV_EINVAL, 0, 0, "not a known MCP client");
    load_fail("other.txt", "hello = world\n", NULL, MV_EINVAL, 0, 0, "not a known MCP client");
    load_fail("b.json", "{not json", NULL, MV_EPARSE, 1, 2, "invalid JSON");
    load_fail("x.json", "{}", "notepad", MV_EINVAL, 0, 0, "unknown client");
    /* --client forces the reading: Zed's key means nothing to Cursor. */
    mv_config_set *set =
        load_ok("f.json", "{\"context_servers\": {\"a\": {\"command\": \"x\"}}}", "cursor", &env);
    assert_int_equal(set->n_servers, 0);
    mv_config_set_free(set);
    /* ~/.claude.json given by hand: user and local scopes, local wins. */
    char text[1500];
    snprintf(text, sizeof(text),
             "{\"mcpServers\": {\"s\": {\"command\": \"user\"}}, \"projects\": {\"%s\": "
             "{\"mcpServers\": {\"s\": {\"command\": \"local\"}}}}}",
             g_project);
    set = load_ok(".claude.json", text, NULL, &env);
    assert_int_equal(set->n_servers, 1);
    assert_string_equal(set->servers[0].command, "local");
    assert_string_equal(set->servers[0].scope, "local");
    mv_config_set_free(set);
}

/* ------------------------------------------------------- caps, files */

static void test_caps(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    mv_config_set *set = NULL;
    mv_error err;

    env.limits.max_file_bytes = 64;
    char big[200];
    memset(big, ' ', sizeof(big) - 1);
    big[0] = '{';
    big[sizeof(big) - 3] = '}';
    big[sizeof(big) - 1] = '\0';
    assert_int_equal(load_text(&set, "big.json", big, "cursor", &env, &err), MV_ELIMIT);
    assert_non_null(strstr(err.message, "max_file_bytes limit of 64"));

    env = make_env(NULL);
    env.limits.max_servers_per_file = 2;
    assert_int_equal(load_text(&set, "n.json",
                               "{\"mcpServers\": {\"a\": {}, \"b\": {}, \"c\": {}}}", "cursor",
                               &env, &err),
                     MV_ELIMIT);
    assert_non_null(strstr(err.message, "max_servers_per_file limit of 2"));
    assert_int_equal(err.line, 1);

    env = make_env(NULL);
    env.limits.max_entries = 2;
    assert_int_equal(load_text(&set, "a.json",
                               "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": "
                               "[\"1\", \"2\", \"3\"]}}}",
                               "cursor", &env, &err),
                     MV_ELIMIT);
    assert_non_null(strstr(err.message, "args has 3 entries, over the max_entries limit of 2"));
    assert_int_equal(load_text(&set, "e.json",
                               "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": "
                               "{\"A\": \"1\", \"B\": \"2\", \"C\": \"3\"}}}}",
                               "cursor", &env, &err),
                     MV_ELIMIT);
    assert_non_null(strstr(err.message, "max_entries"));

    env = make_env(NULL);
    env.limits.max_string_bytes = 8;
    assert_int_equal(load_text(&set, "s.json",
                               "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": "
                               "{\"K\": \"CANARY-long-value\"}}}}",
                               "cursor", &env, &err),
                     MV_ELIMIT);
    assert_non_null(strstr(err.message, "max_string_bytes limit of 8"));
    no_canary(err.message, "a cap message");
    assert_int_equal(load_text(&set, "n.json",
                               "{\"mcpServers\": {\"a-very-long-name\": {\"command\": \"x\"}}}",
                               "cursor", &env, &err),
                     MV_ELIMIT);

    /* Within the caps the same files load. */
    env = make_env(NULL);
    set = load_ok("ok.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [\"1\"]}}}",
                  "cursor", &env);
    mv_config_set_free(set);
}

static void test_not_regular_files(void **state) {
    (void)state;
    mv_config_env env = make_env(NULL);
    mv_config_set *set = NULL;
    mv_error err;
    char fifo[1024];
    snprintf(fifo, sizeof(fifo), "%s/pipe.json", g_tmp);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    mv_error_clear(&err);
    time_t t0 = time(NULL);
    assert_int_equal(mv_config_load_file(&set, fifo, NULL, &env, &err), MV_EIO);
    assert_true(time(NULL) - t0 < 30);
    assert_null(set);
    assert_non_null(strstr(err.message, "not a regular file"));
    assert_int_equal(mv_config_load_file(&set, g_tmp, NULL, &env, &err), MV_EIO);
    assert_non_null(strstr(err.message, "not a regular file"));
    assert_int_equal(mv_config_load_file(&set, "/dev/null", NULL, &env, &err), MV_EIO);
    char missing[1024];
    snprintf(missing, sizeof(missing), "%s/none.json", g_tmp);
    assert_int_equal(mv_config_load_file(&set, missing, NULL, &env, &err), MV_EIO);
    assert_non_null(strstr(err.message, "cannot open"));
    assert_int_equal(mv_config_load_file(NULL, missing, NULL, &env, &err), MV_EINVAL);
    assert_int_equal(mv_config_discover(NULL, &env, &err), MV_EINVAL);
    mv_config_set_free(NULL);
}

/* -------------------------------------------------------- describe */

static void test_describe(void **state) {
    (void)state;
    static const char *const pairs[] = {"WORK_TOKEN", "CANARY-cwd-token", NULL};
    mv_config_env env = make_env(pairs);
    mv_config_set *set = load_ok(
        "mcp.json",
        "{\"servers\": {\n"
        "\"a\": {\"command\": \"my tool\", \"args\": [\"-x\", \"two words\", \"\\u001b[31mred\", "
        "\"\\u202eevil\", \"q\\\"\", \"\"], \"env\": {\"TOKEN\": \"CANARY-v\", \"B\": \"1\"}, "
        "\"cwd\": \"/srv\"},\n"
        "\"b\": {\"type\": \"http\", \"url\": \"https://h/mcp\", \"headers\": "
        "{\"Authorization\": \"Bearer CANARY-h\"}},\n"
        "\"c\": {\"type\": \"bogus\"},\n"
        "\"d\": {\"command\": \"srv\", \"cwd\": \"/w/${env:WORK_TOKEN}\"}\n"
        "}}",
        "vscode", &env);
    mv_buf b;
    mv_buf_init(&b, NULL);
    assert_int_equal(mv_config_describe(&b, find(set, "vscode", "a")), MV_OK);
    assert_string_equal(b.data, "stdio: \"my tool\" -x \"two words\" \"\\u001b[31mred\" "
                                "\"\\u202eevil\" \"q\\\"\" \"\" [env: TOKEN, B] [cwd: /srv]");
    b.len = 0;
    assert_int_equal(mv_config_describe(&b, find(set, "vscode", "b")), MV_OK);
    assert_string_equal(b.data, "http: https://h/mcp [headers: Authorization]");
    b.len = 0;
    assert_int_equal(mv_config_describe(&b, find(set, "vscode", "c")), MV_OK);
    assert_string_equal(b.data, "none:");
    /* A cwd built from an environment value is shown as written: the value
     * may be a secret (found by fuzz_config). */
    const mv_server_config *d = find(set, "vscode", "d");
    assert_string_equal(d->cwd, "/w/CANARY-cwd-token");
    assert_string_equal(d->raw_cwd, "/w/${env:WORK_TOKEN}");
    b.len = 0;
    assert_int_equal(mv_config_describe(&b, d), MV_OK);
    assert_string_equal(b.data, "stdio: srv [cwd: /w/${env:WORK_TOKEN}]");
    assert_int_equal(mv_config_describe(NULL, find(set, "vscode", "c")), MV_EINVAL);
    assert_int_equal(mv_config_describe(&b, NULL), MV_EINVAL);
    mv_buf_release(&b);
    mv_config_set_free(set);
}

/* ------------------------------------------------------------ OOM */

static void test_out_of_memory(void **state) {
    (void)state;
    copy_fixture();
    put("project/x.toml", "[mcp_servers.a]\ncommand = \"x\"\nargs = [\"1\", \"2\"]\n");
    char path[1024];
    snprintf(path, sizeof(path), "%s/project/x.toml", g_tmp);
    int ok_discover = 0, ok_load = 0;
    for (long n = 1; n < 20000 && !(ok_discover && ok_load); n++) {
        fail_alloc fa;
        mv_config_env env = make_env(FULL_ENV);
        mv_config_set *set = NULL;
        mv_error err;
        fail_alloc_init(&fa, n);
        env.alloc = &fa.allocator;
        if (!ok_discover) {
            int rc = mv_config_discover(&set, &env, &err);
            if (rc == MV_OK) {
                ok_discover = 1;
                assert_int_equal(set->n_servers, 39);
            } else {
                assert_int_equal(rc, MV_ENOMEM);
                assert_null(set);
            }
            mv_config_set_free(set);
            assert_int_equal(fa.live, 0);
        }
        fail_alloc_init(&fa, n);
        if (!ok_load) {
            set = NULL;
            int rc = mv_config_load_file(&set, path, NULL, &env, &err);
            if (rc == MV_OK)
                ok_load = 1;
            else
                assert_int_equal(rc, MV_ENOMEM);
            mv_config_set_free(set);
            assert_int_equal(fa.live, 0);
        }
    }
    assert_true(ok_discover);
    assert_true(ok_load);
}

static void test_names(void **state) {
    (void)state;
    assert_string_equal(mv_transport_name(MV_TRANSPORT_STDIO), "stdio");
    assert_string_equal(mv_transport_name(MV_TRANSPORT_HTTP), "http");
    assert_string_equal(mv_transport_name(MV_TRANSPORT_SSE), "sse");
    assert_string_equal(mv_transport_name(MV_TRANSPORT_NONE), "none");
    assert_string_equal(mv_server_readiness_name(MV_SERVER_READY), "ready");
    assert_string_equal(mv_server_readiness_name(MV_SERVER_DISABLED), "disabled");
    assert_string_equal(mv_server_readiness_name(MV_SERVER_NEEDS_INPUT), "needs_input");
    assert_string_equal(mv_server_readiness_name(MV_SERVER_INVALID), "invalid");
    const char *const *ids = mv_config_client_ids();
    size_t n = 0;
    while (ids[n] != NULL)
        n++;
    assert_int_equal(n, 11);
    assert_string_equal(ids[0], "claude-desktop");
    assert_string_equal(ids[10], "kiro");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup_tmp, teardown_tmp)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_discover_every_client),
        T(test_discover_needs_input),
        T(test_discover_windows_appdata),
        T(test_discover_empty_home),
        T(test_discover_broken_files),
        T(test_discover_project_is_home),
        T(test_jsonc_only_where_accepted),
        T(test_json_negatives),
        T(test_invalid_entries),
        T(test_toml_subset),
        T(test_toml_negatives),
        T(test_yaml_continue),
        T(test_placeholders),
        T(test_env_file),
        T(test_detection),
        T(test_caps),
        T(test_not_regular_files),
        T(test_describe),
        T(test_out_of_memory),
        T(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
