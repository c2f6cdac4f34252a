/*
 * The MCP client against real MCP servers (pinned in tests/node, installed
 * by scripts/install-node-deps.sh, which `make test` runs first): the
 * reference "everything" server, the filesystem server and the memory
 * server, all over stdio. They answer server/discover with "method not
 * found", so this also proves the fallback to the initialize handshake on
 * servers nobody wrote for these tests. A missing node_modules is a
 * failure, not a skip.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "json/json.h"
#include "mcpvet/arena.h"
#include "mcpvet/mcp.h"

static char bin_dir[1024];

static int count_fds(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static int setup(void **state) {
    const char *src = getenv("MCPVET_SOURCE_DIR");
    char probe[1100];
    (void)state;
    if (src == NULL) {
        fprintf(stderr, "MCPVET_SOURCE_DIR is not set\n");
        return -1;
    }
    snprintf(bin_dir, sizeof bin_dir, "%s/tests/node/node_modules/.bin", src);
    snprintf(probe, sizeof probe, "%s/mcp-server-everything", bin_dir);
    if (access(probe, X_OK) != 0) {
        fprintf(stderr,
                "FAILED: %s is missing: run scripts/install-node-deps.sh (make test does)\n",
                probe);
        return -1;
    }
    return 0;
}

/* A strict JSON array with at least one object item. */
static size_t array_items(const mv_buf *b) {
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *v = NULL;
    mv_jerror je;
    size_t n;
    assert_true(b->len > 0);
    assert_int_equal(mv_json_parse(&v, a, NULL, b->data, b->len, &je), 0);
    assert_true(mv_jis_array(v));
    n = mv_jarray_size(v);
    for (size_t i = 0; i < n; i++)
        assert_true(mv_jis_object(mv_jarray_get(v, i)));
    mv_arena_free(a);
    return n;
}

static void fetch_real(mv_mcp_result *r, const char *server, char **args, size_t n_args,
                       mv_config_kv *env, size_t n_env) {
    char cmd[1200];
    mv_server_config cfg;
    mv_mcp_options opts;
    int fds = count_fds();
    snprintf(cmd, sizeof cmd, "%s/%s", bin_dir, server);
    memset(&cfg, 0, sizeof cfg);
    memset(&opts, 0, sizeof opts);
    cfg.name = (char *)server;
    cfg.transport = MV_TRANSPORT_STDIO;
    cfg.command = cmd;
    cfg.args = args;
    cfg.n_args = n_args;
    cfg.env = env;
    cfg.n_env = n_env;
    cfg.readiness = MV_SERVER_READY;
    opts.startup_timeout_ms = 60000; /* node on a loaded machine */
    assert_int_equal(mv_mcp_fetch(r, &cfg, &opts, NULL), 0);
    if (r->status != MV_MCP_OK)
        fail_msg("%s: %s: %s\nstderr: %s", server, mv_mcp_status_name(r->status), r->reason,
                 r->stderr_text != NULL ? r->stderr_text : "");
    assert_false(r->partial);
    assert_true(strcmp(r->protocol_version, "2024-11-05") >= 0); /* a version was agreed */
    assert_non_null(r->server_name);
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
    assert_int_equal(count_fds(), fds);
}

static void test_everything(void **state) {
    mv_mcp_result r;
    char *args[] = {"stdio"};
    (void)state;
    fetch_real(&r, "mcp-server-everything", args, 1, NULL, 0);
    assert_true(r.n_tools > 5);
    assert_int_equal(array_items(&r.tools), r.n_tools);
    assert_non_null(strstr(r.tools.data, "\"name\":\"echo\""));
    /* it announces prompts and resources */
    assert_true(r.n_prompts > 0);
    assert_int_equal(array_items(&r.prompts), r.n_prompts);
    assert_true(r.n_resources > 0);
    assert_int_equal(array_items(&r.resources), r.n_resources);
    assert_true(r.n_resource_templates > 0);
    assert_non_null(r.instructions);
    assert_true(r.instructions_len > 0);
    mv_mcp_result_free(&r);
}

static void test_filesystem(void **state) {
    mv_mcp_result r;
    char dir[] = "/tmp/mcpvet-fs-XXXXXX";
    char *args[1];
    (void)state;
    assert_non_null(mkdtemp(dir));
    args[0] = dir;
    fetch_real(&r, "mcp-server-filesystem", args, 1, NULL, 0);
    assert_true(r.n_tools > 3);
    assert_int_equal(array_items(&r.tools), r.n_tools);
    assert_non_null(strstr(r.tools.data, "\"name\":\"read_text_file\""));
    mv_mcp_result_free(&r);
    rmdir(dir);
}

static void test_memory(void **state) {
    mv_mcp_result r;
    char dir[] = "/tmp/mcpvet-mem-XXXXXX";
    char file[64];
    mv_config_kv env[1];
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/memory.jsonl", dir);
    env[0] = (mv_config_kv){"MEMORY_FILE_PATH", file};
    fetch_real(&r, "mcp-server-memory", NULL, 0, env, 1);
    assert_true(r.n_tools > 3);
    assert_int_equal(array_items(&r.tools), r.n_tools);
    assert_non_null(strstr(r.tools.data, "\"name\":\"create_entities\""));
    mv_mcp_result_free(&r);
    unlink(file);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_everything),
        cmocka_unit_test(test_filesystem),
        cmocka_unit_test(test_memory),
    };
    if (mv_mcp_global_init() != 0)
        return 1;
    int rc = cmocka_run_group_tests(tests, setup, NULL);
    mv_mcp_global_cleanup();
    return rc;
}
