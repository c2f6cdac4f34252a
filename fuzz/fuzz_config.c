/*
 * libFuzzer target for the config readers: the same bytes are written to a
 * scratch file and loaded as every client's format (strict JSON, JSON with
 * comments, Codex's TOML, Continue's YAML and JSON, content detection), so
 * every reader, the placeholder resolver and the server readers see hostile
 * input. Small caps keep runs short and reach the cap paths.
 *
 * Findings: crashes, sanitizer reports, leaks, and the invariants below
 * (a result and an error together, an error code that differs from the
 * return value, a server whose strings are missing, a description that
 * fails or leaks the planted environment value).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcpvet/buf.h"
#include "mcpvet/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];

static void broken(const char *what) {
    fprintf(stderr, "fuzz_config: invariant broken: %s\n", what);
    abort();
}

/* Every variable is "set" to a canary: a resolved value must never show up
 * in a description or a reason. */
static const char *fake_getenv(void *arg, const char *name) {
    (void)arg;
    return strcmp(name, "UNSET") == 0 ? NULL : "FUZZ-SECRET-VALUE";
}

/* The scratch directory goes when the process ends (make test replays
 * this target on every run; each input's file is removed after use). */
static void remove_dir(void) {
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof(dir), "%s/mcpvet-fuzz-config-XXXXXX", tmp != NULL ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        broken("mkdtemp");
    atexit(remove_dir);
    return 0;
}

/* Whether the input itself holds the canary (then it may be shown as
 * written, like any config text). */
static int planted;

static int holds(const uint8_t *d, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(d + i, needle, k) == 0)
            return 1;
    return 0;
}

static void check_set(const mv_config_set *set) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    for (size_t i = 0; i < set->n_servers; i++) {
        const mv_server_config *s = &set->servers[i];
        if (s->name == NULL || s->client == NULL || s->config_path == NULL || s->scope == NULL)
            broken("a server without its strings");
        if ((s->readiness == MV_SERVER_READY) != (s->readiness_reason == NULL))
            broken("a reason must be given exactly when the server is not ready");
        if (s->readiness == MV_SERVER_READY && s->transport == MV_TRANSPORT_NONE)
            broken("a ready server without a transport");
        for (size_t k = 0; k < s->n_args; k++)
            if (s->args[k] == NULL || s->raw_args[k] == NULL)
                broken("a missing argument");
        b.len = 0;
        if (mv_config_describe(&b, s) != MV_OK)
            broken("describe failed");
        if (!planted && strstr(b.data, "FUZZ-SECRET") != NULL)
            broken("a resolved value reached a description");
        if (!planted && s->readiness_reason != NULL &&
            strstr(s->readiness_reason, "FUZZ-SECRET") != NULL)
            broken("a resolved value reached a reason");
    }
    mv_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const struct {
        const char *file, *client;
    } runs[] = {
        {"config.json", NULL},           {"config.json", "claude-code"},
        {"config.json", "vscode"},       {"config.json", "zed"},
        {"config.json", "windsurf"},     {"config.json", "gemini"},
        {".claude.json", "claude-code"}, {"config.toml", "codex"},
        {"config.yaml", "continue"},     {"config.json", "continue"},
        {"config.json", "cline"},        {"any.conf", NULL},
    };
    char path[512];
    planted = holds(data, size, "FUZZ-SECRET");
    for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
        snprintf(path, sizeof(path), "%s/%s", dir, runs[r].file);
        FILE *f = fopen(path, "wb");
        if (f == NULL)
            broken("cannot write the scratch file");
        if (size > 0 && fwrite(data, 1, size, f) != size)
            broken("short write");
        fclose(f);
        mv_config_env env;
        memset(&env, 0, sizeof(env));
        env.home = dir;
        env.cwd = "/fuzz/project";
        env.getenv_fn = fake_getenv;
        env.limits.max_file_bytes = 1u << 20;
        env.limits.max_servers_per_file = 64;
        env.limits.max_entries = 64;
        env.limits.max_string_bytes = 4096;
        mv_config_set *set = NULL;
        mv_error err;
        mv_error_clear(&err);
        int rc = mv_config_load_file(&set, path, runs[r].client, &env, &err);
        if (rc == MV_OK) {
            if (set == NULL)
                broken("success without a set");
            check_set(set);
            mv_config_set_free(set);
        } else {
            if (set != NULL)
                broken("failure with a set");
            if (err.code != rc)
                broken("error code differs from the return value");
            if (!planted && strstr(err.message, "FUZZ-SECRET") != NULL)
                broken("a resolved value reached an error");
        }
        unlink(path);
    }
    return 0;
}
