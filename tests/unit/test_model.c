/*
 * Unit tests of the tool model (src/model): every accepted shape, server
 * naming, field flattening (kinds, paths, order, params), decoding of JSON
 * escapes, every error path with its line/column or JSON path, every cap,
 * out-of-memory at each allocation (with leak accounting), file and stdin
 * loading, and the real 5,049-tool registry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mcpvet/model.h"

/* ------------------------------------------------------------- helpers */

static void check_str(mv_str s, const char *want, size_t n, const char *what) {
    if (s.len != n || (n > 0 && memcmp(s.ptr, want, n) != 0))
        fail_msg("%s: expected \"%.*s\" (%zu bytes), got \"%.*s\" (%zu bytes)", what, (int)n, want,
                 n, (int)s.len, s.ptr != NULL ? s.ptr : "", s.len);
}

#define ASSERT_STR(s, lit) check_str((s), (lit), strlen(lit), #s)

static int parse_str(mv_toolset **out, const char *json, const char *source,
                     const mv_model_options *opts, mv_error *err) {
    mv_error_clear(err);
    return mv_model_parse(out, json, strlen(json), source, opts, err);
}

static mv_toolset *parse_ok(const char *json, const char *source, const mv_model_options *opts) {
    mv_toolset *set = NULL;
    mv_error err;
    int rc = parse_str(&set, json, source, opts, &err);
    if (rc != MV_OK)
        fail_msg("parse failed (%d): %s:%d:%d: %s [where %s]", rc, err.source, err.line, err.column,
                 err.message, err.where);
    assert_non_null(set);
    return set;
}

/* Parse `json` expecting failure `code` at `where` with `part` in the
 * message; *err is left for further checks. */
static void expect_fail(const char *json, const mv_model_options *opts, int code, const char *where,
                        const char *part, mv_error *err) {
    mv_toolset *set = (mv_toolset *)(uintptr_t)1; /* must be reset to NULL */
    int rc = parse_str(&set, json, "t.json", opts, err);
    if (rc != code)
        fail_msg("expected code %d, got %d (%s) for %s", code, rc, err->message, json);
    assert_null(set);
    assert_int_equal(err->code, code);
    assert_string_equal(err->source, "t.json");
    if (where != NULL)
        assert_string_equal(err->where, where);
    if (part != NULL && strstr(err->message, part) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", err->message, part);
}

static const mv_field *field_at(const mv_tool *t, const char *path, mv_field_kind kind) {
    for (uint32_t i = 0; i < t->n_fields; i++)
        if (t->fields[i].kind == kind && t->fields[i].path.len == strlen(path) &&
            memcmp(t->fields[i].path.ptr, path, t->fields[i].path.len) == 0)
            return &t->fields[i];
    return NULL;
}

static const mv_cap_hit *cap_named(const mv_tool *t, const char *name) {
    for (uint32_t i = 0; i < t->n_caps; i++)
        if (strcmp(t->caps[i].cap, name) == 0)
            return &t->caps[i];
    return NULL;
}

static char *data_path(const char *name) {
    const char *dir = getenv("MCPVET_SOURCE_DIR");
    if (dir == NULL)
        fail_msg("MCPVET_SOURCE_DIR is not set (run through ctest)");
    size_t n = strlen(dir) + strlen(name) + 64;
    char *p = malloc(n);
    assert_non_null(p);
    snprintf(p, n, "%s/tests/unit/data/model/%s", dir, name);
    return p;
}

static mv_toolset *load_ok(const char *name, const mv_model_options *opts) {
    char *path = data_path(name);
    mv_toolset *set = NULL;
    mv_error err;
    mv_error_clear(&err);
    int rc = mv_model_load_file(&set, path, opts, &err);
    if (rc != MV_OK)
        fail_msg("load %s failed: %s", path, err.message);
    free(path);
    return set;
}

/* Allocator that counts calls and live bytes and fails the Nth call. */
typedef struct test_alloc {
    size_t calls, fail_at, n_alloc, n_free;
    long long live;
} test_alloc;

static void *ta_alloc(void *ctx, size_t size) {
    test_alloc *t = ctx;
    if (++t->calls == t->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p != NULL) {
        t->n_alloc++;
        t->live += (long long)size;
    }
    return p;
}

static void *ta_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    test_alloc *t = ctx;
    if (++t->calls == t->fail_at)
        return NULL;
    void *p = realloc(ptr, new_size);
    if (p != NULL)
        t->live += (long long)new_size - (long long)old_size;
    return p;
}

static void ta_free(void *ctx, void *ptr, size_t size) {
    test_alloc *t = ctx;
    if (ptr == NULL)
        return;
    t->n_free++;
    t->live -= (long long)size;
    free(ptr);
}

/* ---------------------------------------------------------- the shapes */

static const char *TWO_TOOLS = "{\"tools\":[{\"name\":\"a\",\"description\":\"first\"},"
                               "{\"name\":\"b\"}],\"nextCursor\":\"c2\"}";

static void test_tools_list(void **state) {
    (void)state;
    mv_model_options opts = {0};
    opts.server = "github-work";
    mv_toolset *set = parse_ok(TWO_TOOLS, "x/y.json", &opts);
    assert_int_equal(set->kind, MV_INPUT_TOOLS_LIST);
    ASSERT_STR(set->source, "x/y.json");
    assert_int_equal(set->n_tools, 2);
    assert_int_equal(set->n_entries, 0);
    assert_null(set->entries);
    assert_int_equal(set->n_caps, 0);
    ASSERT_STR(set->tools[0].server, "github-work");
    ASSERT_STR(set->tools[1].server, "github-work");
    ASSERT_STR(set->tools[0].name, "a");
    ASSERT_STR(set->tools[0].description, "first");
    ASSERT_STR(set->tools[0].title, "");
    ASSERT_STR(set->tools[1].name, "b");
    ASSERT_STR(set->tools[1].description, "");
    assert_int_equal(set->tools[0].source_index, 0);
    assert_int_equal(set->tools[1].source_index, 1);
    assert_int_equal(set->tools[1].n_fields, 1);
    assert_int_equal(set->tools[1].n_params, 0);
    mv_toolset_free(set);

    set = parse_ok("{\"tools\":[]}", "e.json", NULL);
    assert_int_equal(set->kind, MV_INPUT_TOOLS_LIST);
    assert_int_equal(set->n_tools, 0);
    mv_toolset_free(set);
}

static void test_server_naming(void **state) {
    (void)state;
    static const struct {
        const char *source, *server;
    } cases[] = {
        {"/x/github.json", "github"},
        {"-", "stdin"},
        {"dir/a.b.json", "a.b"},
        {"noext", "noext"},
        {"rel/.hidden", ".hidden"},
        {"tools.json", "tools"},
        {NULL, "unnamed"},
        {"dir/", "unnamed"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        mv_toolset *set = parse_ok(TWO_TOOLS, cases[i].source, NULL);
        check_str(set->tools[0].server, cases[i].server, strlen(cases[i].server),
                  cases[i].source != NULL ? cases[i].source : "(null)");
        mv_toolset_free(set);
    }
    /* The option wins over the source name. */
    mv_model_options opts = {0};
    opts.server = "custom";
    mv_toolset *set = parse_ok(TWO_TOOLS, "/x/github.json", &opts);
    ASSERT_STR(set->tools[1].server, "custom");
    mv_toolset_free(set);
}

static void test_bare_array(void **state) {
    (void)state;
    mv_toolset *set =
        parse_ok("[{\"name\":\"a\"},{\"name\":\"b\",\"title\":\"B\"}]", "s.json", NULL);
    assert_int_equal(set->kind, MV_INPUT_TOOLS_LIST);
    assert_int_equal(set->n_tools, 2);
    ASSERT_STR(set->tools[0].server, "s");
    ASSERT_STR(set->tools[1].title, "B");
    mv_toolset_free(set);

    mv_error err;
    expect_fail("[{\"name\":\"a\"},{\"name\":7}]", NULL, MV_EPARSE, "[1].name",
                "expected a string, found number", &err);
    expect_fail("[{\"name\":\"a\"},\"b\"]", NULL, MV_EPARSE, "[1]",
                "expected a tool object, found string", &err);
}

static void test_jsonrpc(void **state) {
    (void)state;
    const char *doc = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"ping\","
                      "\"description\":\"Ping\"}],\"nextCursor\":null}}";
    mv_toolset *set = parse_ok(doc, "rpc.json", NULL);
    assert_int_equal(set->kind, MV_INPUT_TOOLS_LIST);
    assert_int_equal(set->n_tools, 1);
    ASSERT_STR(set->tools[0].name, "ping");
    ASSERT_STR(set->tools[0].server, "rpc");
    mv_toolset_free(set);

    mv_error err;
    expect_fail("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"\"}]}}", NULL,
                MV_EPARSE, "result.tools[0].name", "must not be empty", &err);
    expect_fail("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":{}}}", NULL, MV_EPARSE,
                "result.tools", "expected an array of tools, found object", &err);
    expect_fail("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resources\":[]}}", NULL, MV_EPARSE,
                "result", "no \"tools\"", &err);
    expect_fail("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}", NULL, MV_EPARSE, "result",
                "expected an object, found array", &err);
    expect_fail("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"x\"}}",
                NULL, MV_EPARSE, "error", "JSON-RPC error response", &err);
}

static void test_snapshot(void **state) {
    (void)state;
    mv_toolset *set = load_ok("snapshot.json", NULL);
    assert_int_equal(set->kind, MV_INPUT_SNAPSHOT);
    assert_int_equal(set->n_tools, 3);
    ASSERT_STR(set->tools[0].server, "github");
    ASSERT_STR(set->tools[0].name, "create_issue");
    ASSERT_STR(set->tools[1].server, "github");
    ASSERT_STR(set->tools[1].name, "list_repos");
    ASSERT_STR(set->tools[2].server, "fs");
    ASSERT_STR(set->tools[2].name, "read_file");
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(set->tools[i].source_index, i);
    /* Tools of one server share one copy of its name. */
    assert_ptr_equal(set->tools[0].server.ptr, set->tools[1].server.ptr);
    mv_toolset_free(set);

    /* A server option keeps only that server. */
    mv_model_options opts = {0};
    opts.server = "fs";
    set = load_ok("snapshot.json", &opts);
    assert_int_equal(set->n_tools, 1);
    ASSERT_STR(set->tools[0].name, "read_file");
    mv_toolset_free(set);

    mv_error err;
    opts.server = "nope";
    char *path = data_path("snapshot.json");
    mv_error_clear(&err);
    set = NULL;
    assert_int_equal(mv_model_load_file(&set, path, &opts, &err), MV_EINVAL);
    assert_null(set);
    assert_non_null(strstr(err.message, "no server named \"nope\""));
    free(path);
}

/* Snapshots written by the MCP client: prompts and resources become items
 * of their kind, server metadata is kept, and an empty snapshot is fine. */
static void test_snapshot_items_and_meta(void **state) {
    (void)state;
    const char *doc =
        "{\"servers\":[{\"name\":\"ev\",\"client\":\"cursor\",\"config\":\"/h/.cursor/mcp.json\","
        "\"transport\":\"stdio\",\"status\":\"ok\",\"protocolVersion\":\"2025-11-25\","
        "\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}],"
        "\"prompts\":[{\"name\":\"greet\",\"description\":\"Say hi\","
        "\"arguments\":[{\"name\":\"who\",\"description\":\"Person\"}]}],"
        "\"resources\":[{\"uri\":\"file:///a\",\"name\":\"a\"}],"
        "\"resourceTemplates\":[{\"uriTemplate\":\"file:///{p}\",\"name\":\"any\"}]},"
        "{\"name\":\"down\",\"status\":\"timeout\",\"reason\":\"no answer\",\"tools\":[]}]}";
    mv_toolset *set = parse_ok(doc, "snap.json", NULL);
    assert_int_equal(set->n_tools, 4);
    assert_int_equal(set->tools[0].kind, MV_ITEM_TOOL);
    assert_int_equal(set->tools[1].kind, MV_ITEM_PROMPT);
    ASSERT_STR(set->tools[1].name, "greet");
    assert_int_equal(set->tools[2].kind, MV_ITEM_RESOURCE);
    assert_int_equal(set->tools[3].kind, MV_ITEM_RESOURCE_TEMPLATE);
    /* The prompt's argument text is scanned like any other string. */
    bool found = false;
    for (uint32_t i = 0; i < set->tools[1].n_fields; i++)
        found |= set->tools[1].fields[i].text.len == 6 &&
                 memcmp(set->tools[1].fields[i].text.ptr, "Person", 6) == 0;
    assert_true(found);
    assert_int_equal(set->n_servers, 2);
    ASSERT_STR(set->servers[0].client, "cursor");
    ASSERT_STR(set->servers[0].transport, "stdio");
    ASSERT_STR(set->servers[0].protocol_version, "2025-11-25");
    assert_int_equal(set->servers[0].n_tools, 4);
    assert_int_equal(set->servers[0].counts[MV_ITEM_PROMPT], 1);
    ASSERT_STR(set->servers[1].status, "timeout");
    ASSERT_STR(set->servers[1].reason, "no answer");
    assert_int_equal(set->servers[1].n_tools, 0);
    assert_int_equal(set->servers[1].client.len, 0);
    mv_toolset_free(set);

    set = parse_ok("{\"servers\":[]}", "empty.json", NULL);
    assert_int_equal(set->n_tools, 0);
    assert_int_equal(set->n_servers, 0);
    mv_toolset_free(set);
    set = parse_ok("{\"entries\":[]}", "empty.json", NULL);
    assert_int_equal(set->n_entries, 0);
    mv_toolset_free(set);

    mv_error err;
    expect_fail("{\"servers\":[{\"name\":\"a\",\"tools\":[],\"prompts\":{}}]}", NULL, MV_EPARSE,
                "servers[0].prompts", "expected an array of prompts", &err);
    expect_fail("{\"servers\":[{\"name\":\"a\",\"tools\":[],\"status\":7}]}", NULL, MV_EPARSE,
                "servers[0].status", "expected a string", &err);
}

/* A server's instructions reach the model: a non-empty string becomes one
 * item of kind instructions whose description is the text; an empty or
 * null one adds nothing; anything else is an error naming the field. */
static void test_snapshot_instructions(void **state) {
    (void)state;
    const char *doc = "{\"servers\":[{\"name\":\"a\",\"instructions\":\"Call list first.\","
                      "\"tools\":[{\"name\":\"list\"}]},"
                      "{\"name\":\"b\",\"instructions\":\"\",\"tools\":[{\"name\":\"x\"}]},"
                      "{\"name\":\"c\",\"instructions\":null,\"tools\":[]}]}";
    mv_toolset *set = parse_ok(doc, "snap.json", NULL);
    assert_int_equal(set->n_tools, 3);
    assert_int_equal(set->tools[1].kind, MV_ITEM_INSTRUCTIONS);
    ASSERT_STR(set->tools[1].name, "server_instructions");
    ASSERT_STR(set->tools[1].server, "a");
    ASSERT_STR(set->tools[1].description, "Call list first.");
    assert_string_equal(mv_item_kind_name(MV_ITEM_INSTRUCTIONS), "instructions");
    assert_int_equal(set->servers[0].counts[MV_ITEM_INSTRUCTIONS], 1);
    assert_int_equal(set->servers[0].n_tools, 2);
    assert_int_equal(set->servers[1].n_tools, 1);
    assert_int_equal(set->servers[2].n_tools, 0);
    mv_toolset_free(set);

    mv_error err;
    expect_fail("{\"servers\":[{\"name\":\"a\",\"tools\":[],\"instructions\":[\"x\"]}]}", NULL,
                MV_EPARSE, "servers[0].instructions", "expected a string", &err);
}

static void test_snapshot_errors(void **state) {
    (void)state;
    mv_error err;
    /* servers[2].tools[5].name: the path names server and tool. */
    expect_fail("{\"servers\":[{\"name\":\"a\",\"tools\":[]},{\"name\":\"b\",\"tools\":[]},"
                "{\"name\":\"c\",\"tools\":[{\"name\":\"t0\"},{\"name\":\"t1\"},{\"name\":\"t2\"},"
                "{\"name\":\"t3\"},{\"name\":\"t4\"},{\"name\":5}]}]}",
                NULL, MV_EPARSE, "servers[2].tools[5].name", "expected a string, found number",
                &err);
    expect_fail("{\"servers\":{}}", NULL, MV_EPARSE, "servers",
                "expected an array of servers, found object", &err);
    expect_fail("{\"servers\":[3]}", NULL, MV_EPARSE, "servers[0]",
                "expected a server object, found number", &err);
    expect_fail("{\"servers\":[{\"tools\":[]}]}", NULL, MV_EPARSE, "servers[0]", "\"name\"", &err);
    expect_fail("{\"servers\":[{\"name\":\"\",\"tools\":[]}]}", NULL, MV_EPARSE, "servers[0].name",
                "must not be empty", &err);
    expect_fail("{\"servers\":[{\"name\":true,\"tools\":[]}]}", NULL, MV_EPARSE, "servers[0].name",
                "expected a string, found boolean", &err);
    expect_fail("{\"servers\":[{\"name\":\"a\"}]}", NULL, MV_EPARSE, "servers[0]", "\"tools\"",
                &err);
    expect_fail("{\"servers\":[{\"name\":\"a\",\"tools\":\"x\"}]}", NULL, MV_EPARSE,
                "servers[0].tools", "expected an array of tools, found string", &err);
    expect_fail("{\"servers\":[{\"name\":\"a\",\"tools\":[]},{\"name\":\"b\",\"tools\":[]},"
                "{\"name\":\"a\",\"tools\":[]}]}",
                NULL, MV_EPARSE, "servers[2].name",
                "duplicate server name \"a\" (first at servers[0])", &err);
}

static void test_corpus(void **state) {
    (void)state;
    mv_toolset *set = load_ok("corpus.json", NULL);
    assert_int_equal(set->kind, MV_INPUT_CORPUS);
    assert_int_equal(set->n_entries, 3);
    assert_int_equal(set->n_tools, 5);

    const mv_corpus_entry *e0 = &set->entries[0], *e1 = &set->entries[1], *e2 = &set->entries[2];
    ASSERT_STR(e0->id, "benign-1");
    ASSERT_STR(e0->label, "benign");
    assert_false(e0->malicious);
    ASSERT_STR(e0->category, "benign");
    ASSERT_STR(e0->resembles, "");
    ASSERT_STR(e0->variant, "");
    assert_int_equal(e0->tool, 0);
    assert_int_equal(e0->n_peers, 0);
    ASSERT_STR(set->tools[e0->tool].name, "read_file");
    ASSERT_STR(set->tools[e0->tool].server, "files");

    ASSERT_STR(e1->id, "shadow-1");
    ASSERT_STR(e1->label, "malicious");
    assert_true(e1->malicious);
    ASSERT_STR(e1->category, "shadowing");
    ASSERT_STR(e1->resembles, "send_email");
    ASSERT_STR(e1->provenance, "hand-written");
    ASSERT_STR(e1->family, "fam");
    ASSERT_STR(e1->variant, "canonical");
    assert_int_equal(e1->tool, 1);
    assert_int_equal(e1->first_peer, 2);
    assert_int_equal(e1->n_peers, 2);
    ASSERT_STR(set->tools[1].name, "get_weather");
    ASSERT_STR(set->tools[1].server, "weather");
    ASSERT_STR(set->tools[2].name, "get_forecast");
    ASSERT_STR(set->tools[2].server, "weather");
    ASSERT_STR(set->tools[3].name, "send_email");
    ASSERT_STR(set->tools[3].server, "mail");

    ASSERT_STR(e2->id, "benign-2");
    ASSERT_STR(e2->resembles, "");
    assert_int_equal(e2->tool, 4);
    assert_int_equal(e2->first_peer, 5);
    assert_int_equal(e2->n_peers, 0);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(set->tools[i].source_index, i);
    mv_toolset_free(set);

    /* A server option keeps that server's entries (with all their peers). */
    mv_model_options opts = {0};
    opts.server = "weather";
    set = load_ok("corpus.json", &opts);
    assert_int_equal(set->n_entries, 1);
    assert_int_equal(set->n_tools, 3);
    ASSERT_STR(set->entries[0].id, "shadow-1");
    assert_int_equal(set->entries[0].tool, 0);
    assert_int_equal(set->entries[0].first_peer, 1);
    assert_int_equal(set->entries[0].n_peers, 2);
    mv_toolset_free(set);
}

static void test_corpus_errors(void **state) {
    (void)state;
    mv_error err;
    expect_fail(
        "{\"entries\":[{\"id\":\"ok\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
        "\"s\",\"tool\":{\"name\":\"t\"}},{\"id\":\"bad-1\",\"label\":\"evil\",\"category\":"
        "\"c\",\"server\":\"s\",\"tool\":{\"name\":\"t\"}}]}",
        NULL, MV_EPARSE, "entries[1].label",
        "entry \"bad-1\": label must be \"malicious\" or \"benign\", found \"evil\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"Malicious\"}]}", NULL, MV_EPARSE,
                "entries[0].label", "found \"Malicious\"", &err);
    expect_fail("{\"entries\":{}}", NULL, MV_EPARSE, "entries",
                "expected an array of corpus entries, found object", &err);
    expect_fail("{\"entries\":[[]]}", NULL, MV_EPARSE, "entries[0]",
                "expected a corpus entry object, found array", &err);
    expect_fail("{\"entries\":[{\"label\":\"benign\"}]}", NULL, MV_EPARSE, "entries[0]",
                "missing required key \"id\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"\",\"label\":\"benign\"}]}", NULL, MV_EPARSE,
                "entries[0].id", "must not be empty", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\"}]}", NULL, MV_EPARSE, "entries[0]",
                "missing required key \"label\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":1}]}", NULL, MV_EPARSE, "entries[0].label",
                "expected a string, found number", &err);
    expect_fail(
        "{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"server\":\"s\",\"tool\":{\"name\":"
        "\"t\"}}]}",
        NULL, MV_EPARSE, "entries[0]", "missing required key \"category\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":null}]}", NULL,
                MV_EPARSE, "entries[0].category", "expected a string, found null", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"resembles\":"
                "2}]}",
                NULL, MV_EPARSE, "entries[0].resembles", "expected a string, found number", &err);
    expect_fail(
        "{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"tool\":{\"name\""
        ":\"t\"}}]}",
        NULL, MV_EPARSE, "entries[0]", "missing required key \"server\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\"}]}",
                NULL, MV_EPARSE, "entries[0]", "entry \"x\" has no \"tool\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":[]}]}",
                NULL, MV_EPARSE, "entries[0].tool", "expected a tool object, found array", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":{\"description\":\"d\"}}]}",
                NULL, MV_EPARSE, "entries[0].tool", "the tool has no \"name\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":{}}]}",
                NULL, MV_EPARSE, "entries[0].peers", "expected an array of peers, found object",
                &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":[\"p\"]}]}",
                NULL, MV_EPARSE, "entries[0].peers[0]", "expected a peer object, found string",
                &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":[{\"tool\":{\"name\":\"u\"}}]}]}",
                NULL, MV_EPARSE, "entries[0].peers[0]", "missing required key \"server\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":[{\"server\":\"s\"}]}]}",
                NULL, MV_EPARSE, "entries[0].peers[0]", "missing required key \"tool\"", &err);
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":[{\"server\":\"s\",\"tool\":{\"name\":"
                "\"u\"}},{\"server\":\"s\",\"tool\":{\"name\":[]}}]}]}",
                NULL, MV_EPARSE, "entries[0].peers[1].tool.name", "expected a string, found array",
                &err);
    expect_fail(
        "{\"entries\":[{\"id\":\"a\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
        "\"s\",\"tool\":{\"name\":\"t\"}},{\"id\":\"b\",\"label\":\"benign\",\"category\":"
        "\"c\",\"server\":\"s\",\"tool\":{\"name\":\"t\"}},{\"id\":\"a\",\"label\":\"benign\","
        "\"category\":\"c\",\"server\":\"s\",\"tool\":{\"name\":\"t\"}}]}",
        NULL, MV_EPARSE, "entries[2].id", "duplicate entry id \"a\" (first at entries[0])", &err);
    /* Untrusted text in messages is quoted render-safe and cut. */
    expect_fail("{\"entries\":[{\"id\":\"x\",\"label\":\"\\u001b[31mbad\\u200b\"}]}", NULL,
                MV_EPARSE, "entries[0].label", "found \"\\u001b[31mbad\\u200b\"", &err);
    assert_null(strchr(err.message, '\x1b'));
}

/* ----------------------------------------------------------- flattening */

typedef struct exp_field {
    mv_field_kind kind;
    mv_schema_side side;
    int32_t param;
    const char *path;
    const char *text;
} exp_field;

static void test_flatten(void **state) {
    (void)state;
    static const exp_field want[] = {
        {MV_FIELD_NAME, MV_SCHEMA_NONE, -1, "name", "search"},
        {MV_FIELD_TITLE, MV_SCHEMA_NONE, -1, "title", "Search"},
        {MV_FIELD_DESCRIPTION, MV_SCHEMA_NONE, -1, "description", "Find files"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, -1, "inputSchema.$schema",
         "http://json-schema.org/draft-07/schema#"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_INPUT, 0, "inputSchema.properties.query", "query"},
        {MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_INPUT, 0,
         "inputSchema.properties.query.description", "What to find"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 0, "inputSchema.properties.query.default",
         "*.txt"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 0, "inputSchema.properties.query.examples[0]",
         "a"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 0, "inputSchema.properties.query.examples[1]",
         "b"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 0, "inputSchema.properties.query.pattern", "^x"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 0, "inputSchema.properties.query.format", "uri"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_INPUT, 1, "inputSchema.properties.mode", "mode"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 1, "inputSchema.properties.mode.enum[0]", "fast"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 1, "inputSchema.properties.mode.enum[1]", "deep"},
        {MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_INPUT, 1, "inputSchema.properties.mode.title",
         "Mode"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_INPUT, 2, "inputSchema.properties.opts", "opts"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_INPUT, 2, "inputSchema.properties.opts.properties.depth",
         "depth"},
        {MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_INPUT, 2,
         "inputSchema.properties.opts.properties.depth.description", "How deep"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 2, "inputSchema.properties.opts.required[1]",
         "ghost"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_INPUT, 3, "inputSchema.properties.list", "list"},
        {MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_INPUT, 3,
         "inputSchema.properties.list.items.anyOf[0].description", "s"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 3,
         "inputSchema.properties.list.items.anyOf[1].type", "custom-type"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_INPUT, 4, "inputSchema.properties.c", "c"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, 4, "inputSchema.properties.c.const", "x"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, -1, "inputSchema.required[1]", "not_a_prop"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, -1, "inputSchema.$defs.Thing", "Thing"},
        {MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_INPUT, -1, "inputSchema.$defs.Thing.description",
         "a thing"},
        {MV_FIELD_OTHER, MV_SCHEMA_INPUT, -1, "inputSchema.x-note", "x-note"},
        {MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT, -1, "inputSchema.x-note", "hidden"},
        {MV_FIELD_PROPERTY_NAME, MV_SCHEMA_OUTPUT, 5, "outputSchema.properties.result", "result"},
        {MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_OUTPUT, 5,
         "outputSchema.properties.result.description", "The result"},
        {MV_FIELD_ANNOTATION, MV_SCHEMA_NONE, -1, "annotations.title", "Search tool"},
        {MV_FIELD_ANNOTATION, MV_SCHEMA_NONE, -1, "annotations.x-extra", "x-extra"},
        {MV_FIELD_ANNOTATION, MV_SCHEMA_NONE, -1, "annotations.x-extra", "note"},
        {MV_FIELD_OTHER, MV_SCHEMA_NONE, -1, "vendor", "vendor"},
        {MV_FIELD_OTHER, MV_SCHEMA_NONE, -1, "vendor.k", "k"},
        {MV_FIELD_OTHER, MV_SCHEMA_NONE, -1, "vendor.k", "v"},
        {MV_FIELD_OTHER, MV_SCHEMA_NONE, -1, "vendor.n", "n"},
        {MV_FIELD_OTHER, MV_SCHEMA_NONE, -1, "_meta.m", "m"},
        {MV_FIELD_OTHER, MV_SCHEMA_NONE, -1, "_meta.m", "meta"},
    };
    mv_toolset *set = load_ok("flatten.json", NULL);
    assert_int_equal(set->n_tools, 1);
    const mv_tool *t = &set->tools[0];
    ASSERT_STR(t->server, "flatten");
    ASSERT_STR(t->name, "search");
    ASSERT_STR(t->title, "Search");
    ASSERT_STR(t->description, "Find files");
    assert_int_equal(t->n_caps, 0);
    assert_int_equal(t->n_fields, sizeof(want) / sizeof(want[0]));
    for (uint32_t i = 0; i < t->n_fields; i++) {
        const mv_field *f = &t->fields[i];
        char what[64];
        snprintf(what, sizeof(what), "field %u", i);
        check_str(f->path, want[i].path, strlen(want[i].path), what);
        check_str(f->text, want[i].text, strlen(want[i].text), what);
        if (f->kind != want[i].kind || f->schema != want[i].side || f->param != want[i].param)
            fail_msg("field %u (%s): kind %d/%d side %d/%d param %d/%d", i, want[i].path, f->kind,
                     want[i].kind, f->schema, want[i].side, f->param, want[i].param);
    }
    /* The name/description of a property and its param share one copy. */
    assert_ptr_equal(t->fields[0].text.ptr, t->name.ptr);
    assert_ptr_equal(t->fields[2].text.ptr, t->description.ptr);
    assert_ptr_equal(t->fields[4].text.ptr, t->params[0].name.ptr);
    assert_ptr_equal(t->fields[5].text.ptr, t->params[0].description.ptr);

    static const struct {
        const char *name, *type, *desc;
        mv_schema_side side;
        bool required, has_enum;
    } params[] = {
        {"query", "string", "What to find", MV_SCHEMA_INPUT, true, false},
        {"mode", "string", "", MV_SCHEMA_INPUT, false, true},
        {"opts", "object", "", MV_SCHEMA_INPUT, false, false},
        {"list", "array", "", MV_SCHEMA_INPUT, false, false},
        {"c", "", "", MV_SCHEMA_INPUT, false, true},
        {"result", "string", "The result", MV_SCHEMA_OUTPUT, false, false},
    };
    assert_int_equal(t->n_params, 6);
    for (uint32_t i = 0; i < 6; i++) {
        const mv_param *p = &t->params[i];
        check_str(p->name, params[i].name, strlen(params[i].name), "param name");
        check_str(p->type, params[i].type, strlen(params[i].type), params[i].name);
        check_str(p->description, params[i].desc, strlen(params[i].desc), params[i].name);
        assert_int_equal(p->schema, params[i].side);
        assert_int_equal(p->required, params[i].required);
        assert_int_equal(p->has_enum, params[i].has_enum);
    }
    mv_toolset_free(set);
}

static void test_snake_case_and_types(void **state) {
    (void)state;
    mv_toolset *set =
        parse_ok("{\"tools\":[{\"name\":\"s\",\"input_schema\":{\"properties\":{\"x\":{\"type\":"
                 "\"custom\",\"description\":\"X\"},\"n\":{\"type\":[\"null\"]},\"k\":{\"type\":"
                 "7}},\"required\":[\"k\"]},\"output_schema\":{\"properties\":{\"y\":{\"type\":[\""
                 "null\",\"integer\"]}}},\"annotations\":null,\"title\":null}]}",
                 "s.json", NULL);
    const mv_tool *t = &set->tools[0];
    assert_int_equal(t->n_params, 4);
    ASSERT_STR(t->params[0].name, "x");
    ASSERT_STR(t->params[0].type, "custom");
    ASSERT_STR(t->params[0].description, "X");
    ASSERT_STR(t->params[1].type, "");
    ASSERT_STR(t->params[2].type, "");
    assert_true(t->params[2].required);
    assert_false(t->params[0].required);
    ASSERT_STR(t->params[3].name, "y");
    ASSERT_STR(t->params[3].type, "integer");
    assert_int_equal(t->params[3].schema, MV_SCHEMA_OUTPUT);
    ASSERT_STR(t->title, "");

    const mv_field *f = field_at(t, "input_schema.properties.x", MV_FIELD_PROPERTY_NAME);
    assert_non_null(f);
    assert_int_equal(f->schema, MV_SCHEMA_INPUT);
    assert_int_equal(f->param, 0);
    /* A non-standard type is scanned; standard ones are boilerplate. */
    f = field_at(t, "input_schema.properties.x.type", MV_FIELD_SCHEMA_VALUE);
    assert_non_null(f);
    ASSERT_STR(f->text, "custom");
    assert_null(field_at(t, "input_schema.properties.n.type[0]", MV_FIELD_SCHEMA_VALUE));
    f = field_at(t, "output_schema.properties.y", MV_FIELD_PROPERTY_NAME);
    assert_non_null(f);
    assert_int_equal(f->schema, MV_SCHEMA_OUTPUT);
    assert_int_equal(f->param, 3);
    mv_toolset_free(set);

    mv_error err;
    expect_fail("{\"tools\":[{\"name\":\"s\",\"inputSchema\":{},\"input_schema\":{}}]}", NULL,
                MV_EPARSE, "tools[0]", "both \"inputSchema\" and \"input_schema\"", &err);
    expect_fail("{\"tools\":[{\"name\":\"s\",\"output_schema\":{},\"outputSchema\":null}]}", NULL,
                MV_EPARSE, "tools[0]", "both \"outputSchema\" and \"output_schema\"", &err);
}

static void test_escapes_decoded(void **state) {
    (void)state;
    mv_toolset *set = parse_ok(
        "{\"tools\":[{\"name\":\"na\\u0000me\",\"description\":\"a\\u0000b\\u200bc\\ud83d\\ude00\","
        "\"inputSchema\":{\"properties\":{\"p\":{\"default\":\"x\\u0000\"}}}}]}",
        "e.json", NULL);
    const mv_tool *t = &set->tools[0];
    check_str(t->name, "na\0me", 5, "name with NUL");
    check_str(t->description,
              "a\0b\xe2\x80\x8b"
              "c\xf0\x9f\x98\x80",
              11, "description");
    const mv_field *f = field_at(t, "inputSchema.properties.p.default", MV_FIELD_SCHEMA_VALUE);
    assert_non_null(f);
    check_str(f->text, "x\0", 2, "default");
    mv_toolset_free(set);
}

/* An integer array that reads as text (String.fromCharCode's data as a
 * JSON value) becomes one field at the array's path; numbers that are
 * sizes, ports, years, bytes of a binary header or too few stay silent. */
static void test_code_arrays(void **state) {
    (void)state;
    mv_toolset *set = parse_ok(
        "{\"tools\":[{\"name\":\"t\",\"description\":\"d\",\"inputSchema\":{\"properties\":{"
        "\"a\":{\"default\":[114,109,32,45,114,102,32,126]},"
        "\"b\":{\"examples\":[[99,117,114,108,32,104,116,116,112]]},"
        "\"c\":{\"enum\":[10,20,30,40,50,60,70,80,90,100,110,120]},"
        "\"d\":{\"default\":[114,109,32,45,114,102,32]},"
        "\"e\":{\"default\":[137,80,78,71,13,10,26,10,0,0]},"
        "\"f\":{\"default\":[114,109,32,45,114,102,32,126.5]},"
        "\"g\":{\"default\":[114,109,32,45,114,102,32,-1]},"
        "\"h\":{\"default\":[1990,1995,2000,2005,2010,2015,2020,2025]},"
        "\"i\":{\"default\":[50,40,30,20,10,60,65,55,45]}"
        "}},\"annotations\":{\"x-init\":[101,118,97,108,40,97,116,111,98]}}]}",
        "codes.json", NULL);
    const mv_tool *t = &set->tools[0];
    const mv_field *f = field_at(t, "inputSchema.properties.a.default", MV_FIELD_SCHEMA_VALUE);
    assert_non_null(f);
    ASSERT_STR(f->text, "[114, 109, 32, 45, 114, 102, 32, 126]");
    f = field_at(t, "inputSchema.properties.b.examples[0]", MV_FIELD_SCHEMA_VALUE);
    assert_non_null(f);
    ASSERT_STR(f->text, "[99, 117, 114, 108, 32, 104, 116, 116, 112]");
    /* The annotation's key is a field at the same path; its value is next. */
    f = field_at(t, "annotations.x-init", MV_FIELD_ANNOTATION);
    assert_non_null(f);
    ASSERT_STR(f->text, "x-init");
    assert_true(f + 1 < t->fields + t->n_fields);
    ASSERT_STR(f[1].text, "[101, 118, 97, 108, 40, 97, 116, 111, 98]");
    static const char *const silent[] = {
        "inputSchema.properties.c.enum",    /* page sizes: ascending */
        "inputSchema.properties.d.default", /* seven codes */
        "inputSchema.properties.e.default", /* a PNG header: 137 and 0 */
        "inputSchema.properties.f.default", /* a fraction */
        "inputSchema.properties.g.default", /* a sign */
        "inputSchema.properties.h.default", /* years: ascending, no letters */
        "inputSchema.properties.i.default", /* one letter in nine */
    };
    for (size_t i = 0; i < sizeof silent / sizeof silent[0]; i++)
        if (field_at(t, silent[i], MV_FIELD_SCHEMA_VALUE) != NULL)
            fail_msg("%s became a field", silent[i]);
    mv_toolset_free(set);
}

static void test_paths_of_odd_keys(void **state) {
    (void)state;
    char doc[1024];
    char longkey[101];
    memset(longkey, 'k', 100);
    longkey[100] = '\0';
    snprintf(
        doc, sizeof(doc),
        "{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"properties\":{\"a.b\":{},\"sp ace\":{},"
        "\"zw\\u200b\":{},\"q\\\"uote\":{},\"%s\":{},\"\":{},\"ok_key-1$\":{\"items\":[{"
        "\"enum\":[\"e\"]}]}}}, \"we ird\":\"v\"}]}",
        longkey);
    mv_toolset *set = parse_ok(doc, "p.json", NULL);
    const mv_tool *t = &set->tools[0];
    assert_non_null(field_at(t, "inputSchema.properties[\"a.b\"]", MV_FIELD_PROPERTY_NAME));
    assert_non_null(field_at(t, "inputSchema.properties[\"sp ace\"]", MV_FIELD_PROPERTY_NAME));
    const mv_field *f =
        field_at(t, "inputSchema.properties[\"zw\\u200b\"]", MV_FIELD_PROPERTY_NAME);
    assert_non_null(f);
    check_str(f->text, "zw\xe2\x80\x8b", 5, "zero-width key");
    assert_non_null(field_at(t, "inputSchema.properties[\"q\\\"uote\"]", MV_FIELD_PROPERTY_NAME));
    char want[200];
    snprintf(want, sizeof(want), "inputSchema.properties[\"%.64s\"...]", longkey);
    f = field_at(t, want, MV_FIELD_PROPERTY_NAME);
    assert_non_null(f);
    assert_int_equal(f->text.len, 100); /* the text itself is whole */
    assert_non_null(field_at(t, "inputSchema.properties[\"\"]", MV_FIELD_PROPERTY_NAME));
    f = field_at(t, "inputSchema.properties.ok_key-1$.items[0].enum[0]", MV_FIELD_SCHEMA_VALUE);
    assert_non_null(f);
    assert_int_equal(f->param, 6);
    f = field_at(t, "[\"we ird\"]", MV_FIELD_OTHER);
    assert_non_null(f);
    ASSERT_STR(f->text, "we ird");
    f = field_at(t, "[\"we ird\"]", MV_FIELD_SCHEMA_VALUE);
    assert_null(f);
    /* Both the key and the value of an unknown tool key are scanned. */
    assert_int_equal(t->fields[t->n_fields - 1].kind, MV_FIELD_OTHER);
    ASSERT_STR(t->fields[t->n_fields - 1].text, "v");
    mv_toolset_free(set);
}

/* Every JSON-Schema keyword, annotation hint and known tool key is
 * structure, not text: none may surface as a scanned key. (This also proves
 * the model's sorted keyword tables are really sorted.) */
static void test_keywords_not_scanned(void **state) {
    (void)state;
    static const char *const keywords[] = {
        "$anchor",
        "$comment",
        "$dynamicAnchor",
        "$dynamicRef",
        "$id",
        "$ref",
        "$schema",
        "$vocabulary",
        "additionalItems",
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "contains",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "default",
        "deprecated",
        "description",
        "discriminator",
        "else",
        "enum",
        "example",
        "examples",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "if",
        "items",
        "maxContains",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minContains",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "multipleOf",
        "not",
        "nullable",
        "oneOf",
        "pattern",
        "prefixItems",
        "propertyNames",
        "readOnly",
        "required",
        "then",
        "title",
        "type",
        "unevaluatedItems",
        "unevaluatedProperties",
        "uniqueItems",
        "writeOnly",
        "properties",
        "$defs",
        "definitions",
        "dependencies",
        "dependentRequired",
        "dependentSchemas",
        "patternProperties",
    };
    char doc[4096];
    size_t len =
        (size_t)snprintf(doc, sizeof(doc), "{\"tools\":[{\"name\":\"k\",\"inputSchema\":{");
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
        len += (size_t)snprintf(doc + len, sizeof(doc) - len, "%s\"%s\":1", i > 0 ? "," : "",
                                keywords[i]);
    len += (size_t)snprintf(doc + len, sizeof(doc) - len,
                            ",\"x-custom\":1},\"annotations\":{\"title\":1,\"readOnlyHint\":true,"
                            "\"destructiveHint\":false,\"idempotentHint\":true,"
                            "\"openWorldHint\":false,\"z-hint\":1},\"_meta\":{},\"icons\":[],"
                            "\"title\":null,\"description\":null,\"outputSchema\":null,"
                            "\"zz\":1}]}");
    assert_true(len < sizeof(doc));
    mv_toolset *set = parse_ok(doc, "k.json", NULL);
    const mv_tool *t = &set->tools[0];
    /* name, then only the three invented keys. */
    assert_int_equal(t->n_fields, 4);
    ASSERT_STR(t->fields[1].path, "inputSchema.x-custom");
    assert_int_equal(t->fields[1].kind, MV_FIELD_OTHER);
    ASSERT_STR(t->fields[2].path, "annotations.z-hint");
    assert_int_equal(t->fields[2].kind, MV_FIELD_ANNOTATION);
    ASSERT_STR(t->fields[3].path, "zz");
    assert_int_equal(t->fields[3].kind, MV_FIELD_OTHER);
    mv_toolset_free(set);
}

/* --------------------------------------------------------------- errors */

static void test_syntax_errors(void **state) {
    (void)state;
    mv_error err;
    expect_fail("{\"tools\":[\n  {\"name\":\"a\",}\n]}", NULL, MV_EPARSE, "",
                "invalid JSON: ", &err);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 15);

    expect_fail("{\"tools\":[", NULL, MV_EPARSE, "", "end of file", &err);
    assert_int_equal(err.line, 1);
    expect_fail("42", NULL, MV_EPARSE, "", "invalid JSON", &err);
    expect_fail("{\"tools\":[]} trailing", NULL, MV_EPARSE, "", "end of file expected", &err);

    /* Empty input is its own clear error. */
    mv_toolset *set = (mv_toolset *)(uintptr_t)1;
    mv_error_clear(&err);
    assert_int_equal(mv_model_parse(&set, "", 0, "t.json", NULL, &err), MV_EPARSE);
    assert_null(set);
    assert_string_equal(err.message, "the document is empty");
    assert_string_equal(err.source, "t.json");
}

static void test_utf8_errors(void **state) {
    (void)state;
    mv_error err;
    expect_fail("{\"tools\":[{\"name\":\"a\",\n\"description\":\"ab\xff\"}]}", NULL, MV_EPARSE, "",
                "invalid UTF-8", &err);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 18);
    assert_int_equal(err.offset, 40);
    assert_non_null(strstr(err.message, "0xff"));
    /* Overlong encoding of '/', an encoded surrogate, a cut sequence. */
    expect_fail("{\"tools\":[{\"name\":\"\xc0\xaf\"}]}", NULL, MV_EPARSE, "", "invalid UTF-8",
                &err);
    assert_int_equal(err.line, 1);
    expect_fail("{\"tools\":[{\"name\":\"\xed\xa0\x80\"}]}", NULL, MV_EPARSE, "", "invalid UTF-8",
                &err);
    expect_fail("{\"tools\":[{\"name\":\"\xe2\x80\"}]}", NULL, MV_EPARSE, "", "invalid UTF-8",
                &err);
    /* A raw control character inside a string is not JSON. */
    const char raw_nul[] = "{\"tools\":[{\"name\":\"a\0b\"}]}";
    mv_toolset *set = NULL;
    mv_error_clear(&err);
    assert_int_equal(mv_model_parse(&set, raw_nul, sizeof(raw_nul) - 1, "t.json", NULL, &err),
                     MV_EPARSE);
    assert_null(set);
    assert_int_equal(err.line, 1);
    assert_true(err.column > 0);
}

static void test_duplicate_keys(void **state) {
    (void)state;
    mv_error err;
    /* Inside a tool: scanner and agent could read different descriptions. */
    expect_fail("{\"tools\":[{\"name\":\"a\",\n  \"description\":\"x\", \"description\":\"y\"}]}",
                NULL, MV_EPARSE, "", "duplicate object key \"description\"", &err);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 22);
    assert_int_equal(err.offset, 44);
    /* Elsewhere: the top level. */
    expect_fail("{\"tools\":[], \"tools\":[]}", NULL, MV_EPARSE, "",
                "duplicate object key \"tools\"", &err);
    assert_int_equal(err.line, 1);
    assert_int_equal(err.column, 14);
    assert_int_equal(err.offset, 13);
    /* Deep inside a schema, and spelled differently (same decoded key). */
    expect_fail("{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"properties\":{\"p\":{},\n"
                "\"\\u0070\":{}}}}]}",
                NULL, MV_EPARSE, "", "duplicate object key \"\\\\u0070\"", &err);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 1);
    /* In a snapshot server object. */
    expect_fail("{\"servers\":[{\"name\":\"a\",\"name\":\"b\",\"tools\":[]}]}", NULL, MV_EPARSE, "",
                "duplicate object key \"name\"", &err);
    /* NUL inside a key cannot be represented: rejected, not truncated. */
    expect_fail("{\"tools\":[{\"name\":\"a\",\"x\\u0000y\":1}]}", NULL, MV_EPARSE, "", "\\u0000",
                &err);
}

/* Objects past the parser's small-object limit (32 members) find their
 * duplicates by sorting and answer lookups from a sorted index. */
static void test_large_objects(void **state) {
    (void)state;
    char doc[4096];
    size_t n = 0;
    n += (size_t)snprintf(doc + n, sizeof(doc) - n,
                          "{\"tools\":[{\"name\":\"t\",\"inputSchema\":{\"properties\":{");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(doc + n, sizeof(doc) - n, "%s\"p%02d\":{}", i ? "," : "", 39 - i);
    n += (size_t)snprintf(doc + n, sizeof(doc) - n,
                          "},\"required\":[\"p00\",\"p39\",\"p17\",\"nope\"]}}]}");
    assert_true(n < sizeof(doc));
    mv_toolset *set = parse_ok(doc, "big.json", NULL);
    const mv_tool *t = &set->tools[0];
    assert_int_equal(t->n_params, 40);
    ASSERT_STR(t->params[0].name, "p39");
    assert_true(t->params[0].required);
    assert_true(t->params[22].required); /* p17 */
    assert_false(t->params[1].required);
    /* Required names that are properties are boilerplate; "nope" is not. */
    assert_non_null(field_at(t, "inputSchema.required[3]", MV_FIELD_SCHEMA_VALUE));
    assert_null(field_at(t, "inputSchema.required[0]", MV_FIELD_SCHEMA_VALUE));
    assert_null(field_at(t, "inputSchema.required[1]", MV_FIELD_SCHEMA_VALUE));
    mv_toolset_free(set);

    /* A duplicate past member 32 (of member 3), and two later ones: the
     * error names the one met first in the document. */
    mv_error err;
    n = 0;
    n += (size_t)snprintf(doc + n, sizeof(doc) - n, "{\"tools\":[],\"x\":{");
    for (int i = 0; i < 40; i++) {
        int k = i == 35 ? 3 : i == 38 ? 36 : i == 39 ? 37 : i;
        n += (size_t)snprintf(doc + n, sizeof(doc) - n, "%s\n\"k%d\":%d", i ? "," : "", k, i);
    }
    n += (size_t)snprintf(doc + n, sizeof(doc) - n, "}}");
    expect_fail(doc, NULL, MV_EPARSE, "", "duplicate object key \"k3\"", &err);
    assert_int_equal(err.line, 37);
    assert_int_equal(err.column, 1);
    assert_int_equal(doc[err.offset], '"');
    assert_int_equal(doc[err.offset + 1], 'k');
    assert_int_equal(doc[err.offset + 2], '3');
    /* The same keys without the duplicates parse. */
    n = 0;
    n += (size_t)snprintf(doc + n, sizeof(doc) - n, "{\"tools\":[],\"x\":{");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(doc + n, sizeof(doc) - n, "%s\"k%d\":%d", i ? "," : "", i, i);
    n += (size_t)snprintf(doc + n, sizeof(doc) - n, "}}");
    set = parse_ok(doc, "big.json", NULL);
    mv_toolset_free(set);
}

/* Grammar details of the strict parser: numbers, literals, escapes and
 * surrogates, nesting, and strings whose special bytes fall at every
 * position of the eight-byte scanning window. */
static void test_json_grammar(void **state) {
    (void)state;
    mv_error err;
    static const char *const bad[] = {
        "{\"tools\":[],\"n\":01}",
        "{\"tools\":[],\"n\":1.}",
        "{\"tools\":[],\"n\":-}",
        "{\"tools\":[],\"n\":.5}",
        "{\"tools\":[],\"n\":1e}",
        "{\"tools\":[],\"n\":+1}",
        "{\"tools\":[],\"n\":tru}",
        "{\"tools\":[],\"n\":nulll}",
        "{\"tools\":[1,]}",
        "{\"tools\":[],}",
        "{\"tools\" []}",
        "{tools:[]}",
        "{\"tools\":[],\"s\":\"\\x\"}",
        "{\"tools\":[],\"s\":\"\\u12g4\"}",
        "{\"tools\":[],\"s\":\"\\ud800\"}",
        "{\"tools\":[],\"s\":\"\\udc00\\ud800\"}",
        "{\"tools\":[],\"s\":\"\\ud800\\u0041\"}",
        "{\"tools\":[],\"s\":\"\xf4\x90\x80\x80\"}",
        "{\"tools\":[],\"s\":\"\xf0\x80\x80\xaf\"}",
        "{\"tools\":[],\"s\":\"abc",
        "{\"tools\":[],\"s\":\"\\",
        "\xef\xbb\xbf{\"tools\":[]}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        expect_fail(bad[i], NULL, MV_EPARSE, "", NULL, &err);
        assert_int_equal(err.line, 1);
        assert_true(err.column >= 1);
    }
    mv_toolset *set = parse_ok("{\"tools\":[{\"name\":\"n\",\"x-n\":[-0.5e+10,0,1E-3,-0,12.25,"
                               "true,false,null,\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"]}]}",
                               "g.json", NULL);
    const mv_field *f = field_at(&set->tools[0], "x-n[8]", MV_FIELD_OTHER);
    assert_non_null(f);
    check_str(f->text, "/\b\f\n\r\t\"\\", 8, "simple escapes");
    mv_toolset_free(set);

    /* Nesting: deep but within the limit parses (the walk records its own
     * depth cap); past 2048 levels it is an error, without recursion. */
    enum { DEPTH = 3000 };
    static char deep[2 * DEPTH + 64];
    size_t depth = DEPTH, len = 0, prefix;
    len = prefix = (size_t)sprintf(deep, "{\"tools\":[{\"name\":\"d\",\"x\":");
    memset(deep + len, '[', depth);
    memset(deep + len + depth, ']', depth);
    len += 2 * depth;
    memcpy(deep + len, "}]}", 4);
    expect_fail(deep, NULL, MV_EPARSE, "", "nesting", &err);
    /* Three levels are open before "x"; the bracket opening level 2049. */
    assert_int_equal(err.column, (int)(prefix + 2048 - 3 + 1));
    len = (size_t)sprintf(deep, "{\"tools\":[{\"name\":\"d\",\"x\":");
    memset(deep + len, '[', 2000);
    memset(deep + len + 2000, ']', 2000);
    memcpy(deep + len + 4000, "}]}", 4);
    set = parse_ok(deep, "deep.json", NULL);
    assert_non_null(cap_named(&set->tools[0], "schema_depth"));
    mv_toolset_free(set);

    /* Each special byte at each position of a 16-byte window. */
    static const struct {
        const char *json, *text;
        size_t len;
    } specials[] = {
        {"\\\"", "\"", 1},
        {"\\\\", "\\", 1},
        {"\\u00e9", "\xc3\xa9", 2},
        {"\xc3\xa9", "\xc3\xa9", 2},
        {"\\ud83d\\ude00", "\xf0\x9f\x98\x80", 4},
        {"\\u0000", "\0", 1},
        {"\x7f", "\x7f", 1},
    };
    for (size_t k = 0; k < sizeof(specials) / sizeof(specials[0]); k++) {
        for (size_t pos = 0; pos < 16; pos++) {
            char doc[256], want[64];
            size_t wl = 0;
            memset(want, 'a', pos);
            wl = pos;
            memcpy(want + wl, specials[k].text, specials[k].len);
            wl += specials[k].len;
            memcpy(want + wl, "bcdefghijklmnop", 15);
            wl += 15;
            snprintf(doc, sizeof(doc),
                     "{\"tools\":[{\"name\":\"s\",\"description\":\"%.*s%sbcdefghijklmnop\"}]}",
                     (int)pos, "aaaaaaaaaaaaaaaa", specials[k].json);
            set = parse_ok(doc, "w.json", NULL);
            check_str(set->tools[0].description, want, wl, "window");
            mv_toolset_free(set);
        }
    }
    /* A raw control character or a bad byte at each position is an error
     * pointing at it. */
    for (size_t pos = 0; pos < 16; pos++) {
        static const char bytes[] = {'\x01', '\x1f', '\xff', '\x80'};
        for (size_t b = 0; b < sizeof(bytes); b++) {
            char doc[256];
            int pre = snprintf(doc, sizeof(doc), "{\"tools\":[{\"name\":\"s\",\"description\":\"");
            memset(doc + pre, 'a', pos);
            doc[pre + (int)pos] = bytes[b];
            snprintf(doc + pre + pos + 1, sizeof(doc) - (size_t)pre - pos - 1, "xyzxyzxyzxyz\"}]}");
            expect_fail(doc, NULL, MV_EPARSE, "", NULL, &err);
            assert_int_equal(err.offset, (size_t)pre + pos);
            assert_int_equal(err.column, pre + (int)pos + 1);
        }
    }
}

static void test_tool_shape_errors(void **state) {
    (void)state;
    mv_error err;
    expect_fail("{\"tools\":{}}", NULL, MV_EPARSE, "tools",
                "expected an array of tools, found object", &err);
    expect_fail("{\"tools\":[1]}", NULL, MV_EPARSE, "tools[0]",
                "expected a tool object, found number", &err);
    expect_fail("{\"tools\":[{\"description\":\"d\"}]}", NULL, MV_EPARSE, "tools[0]",
                "the tool has no \"name\"", &err);
    expect_fail("{\"tools\":[{\"name\":\"\"}]}", NULL, MV_EPARSE, "tools[0].name",
                "must not be empty", &err);
    expect_fail("{\"tools\":[{\"name\":null}]}", NULL, MV_EPARSE, "tools[0].name",
                "expected a string, found null", &err);
    expect_fail("{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\",\"description\":5}]}", NULL,
                MV_EPARSE, "tools[1].description", "expected a string, found number", &err);
    expect_fail("{\"tools\":[{\"name\":\"a\",\"title\":[]}]}", NULL, MV_EPARSE, "tools[0].title",
                "expected a string, found array", &err);
    expect_fail("{\"tools\":[{\"name\":\"a\",\"inputSchema\":[]}]}", NULL, MV_EPARSE,
                "tools[0].inputSchema", "expected an object, found array", &err);
    expect_fail("{\"tools\":[{\"name\":\"a\",\"input_schema\":\"x\"}]}", NULL, MV_EPARSE,
                "tools[0].input_schema", "expected an object, found string", &err);
    expect_fail("{\"tools\":[{\"name\":\"a\",\"outputSchema\":1}]}", NULL, MV_EPARSE,
                "tools[0].outputSchema", "expected an object, found number", &err);
    expect_fail("{\"tools\":[{\"name\":\"a\",\"annotations\":\"x\"}]}", NULL, MV_EPARSE,
                "tools[0].annotations", "expected an object, found string", &err);
    expect_fail("{\"foo\":1}", NULL, MV_EPARSE, "", "tools/list", &err);
    assert_non_null(strstr(err.message, "snapshot"));
    assert_non_null(strstr(err.message, "corpus"));
    assert_non_null(strstr(err.message, "bare array"));
    expect_fail("{\"tools\":[],\"servers\":[]}", NULL, MV_EPARSE, "", "ambiguous", &err);
}

static void test_invalid_arguments(void **state) {
    (void)state;
    mv_error err;
    mv_error_clear(&err);
    assert_int_equal(mv_model_parse(NULL, "{}", 2, "x", NULL, &err), MV_EINVAL);
    mv_toolset *set = (mv_toolset *)(uintptr_t)1;
    assert_int_equal(mv_model_parse(&set, NULL, 3, "x", NULL, &err), MV_EINVAL);
    assert_null(set);
    mv_model_options opts = {0};
    opts.server = "";
    assert_int_equal(parse_str(&set, TWO_TOOLS, "x", &opts, &err), MV_EINVAL);
    assert_null(set);
    assert_int_equal(mv_model_load_file(&set, NULL, NULL, &err), MV_EINVAL);
    /* A NULL error record is allowed. */
    assert_int_equal(mv_model_parse(&set, "[", 1, "x", NULL, NULL), MV_EPARSE);
    assert_null(set);
    mv_toolset_free(NULL);
}

static void test_document_limit(void **state) {
    (void)state;
    mv_model_options opts = {0};
    opts.limits.max_document_bytes = 20;
    mv_error err;
    /* Checked before parsing: even invalid JSON over the cap is ELIMIT. */
    expect_fail("{\"tools\":[{\"name\":\"abcdefgh\"}]", &opts, MV_ELIMIT, "",
                "max_document_bytes limit of 20 bytes", &err);
    assert_non_null(strstr(err.message, "30 bytes"));
    assert_int_equal(err.line, 0);
    /* At the cap exactly it parses. */
    mv_toolset *set = NULL;
    const char *twenty = "{\"tools\":[{\"name\":\"a\"}]}";
    opts.limits.max_document_bytes = strlen(twenty);
    assert_int_equal(parse_str(&set, twenty, "t.json", &opts, &err), MV_OK);
    mv_toolset_free(set);
}

/* ----------------------------------------------------------------- caps */

static void test_cap_field_bytes(void **state) {
    (void)state;
    mv_model_options opts = {0};
    opts.limits.max_field_bytes = 10;
    /* é straddles byte 10 of the description; the emoji straddles it in the
     * title; the name and a param description are plain ASCII. */
    mv_toolset *set =
        parse_ok("{\"tools\":[{\"name\":\"n123456789XYZ\",\"title\":\"abcdefgh\xf0\x9f\x98\x80\","
                 "\"description\":\"abcdefghi\xc3\xa9xyz\",\"inputSchema\":{\"properties\":{\"p\":{"
                 "\"description\":\"0123456789AB\"}}}}]}",
                 "c.json", &opts);
    const mv_tool *t = &set->tools[0];
    ASSERT_STR(t->name, "n123456789");
    ASSERT_STR(t->title, "abcdefgh");
    ASSERT_STR(t->description, "abcdefghi");
    ASSERT_STR(t->params[0].description, "0123456789");
    const mv_field *f =
        field_at(t, "inputSchema.properties.p.description", MV_FIELD_SCHEMA_DESCRIPTION);
    assert_non_null(f);
    ASSERT_STR(f->text, "0123456789");
    /* One record per cut string (the shared param text is not counted twice). */
    assert_int_equal(t->n_caps, 4);
    assert_int_equal(set->n_caps, 4);
    static const struct {
        const char *where;
        uint64_t observed;
    } want[] = {
        {"name", 13},
        {"title", 12},
        {"description", 14},
        {"inputSchema.properties.p.description", 12},
    };
    for (int i = 0; i < 4; i++) {
        assert_string_equal(t->caps[i].cap, "field_bytes");
        assert_int_equal(t->caps[i].limit, 10);
        assert_int_equal(t->caps[i].observed, want[i].observed);
        check_str(t->caps[i].where, want[i].where, strlen(want[i].where), "cap where");
    }
    mv_toolset_free(set);

    /* At the cap exactly nothing is recorded. */
    set = parse_ok("{\"tools\":[{\"name\":\"0123456789\"}]}", "c.json", &opts);
    assert_int_equal(set->n_caps, 0);
    ASSERT_STR(set->tools[0].name, "0123456789");
    mv_toolset_free(set);
}

static void test_cap_schema_depth(void **state) {
    (void)state;
    mv_model_options opts = {0};
    opts.limits.max_schema_depth = 3;
    mv_toolset *set = parse_ok(
        "{\"tools\":[{\"name\":\"d\",\"inputSchema\":{\"type\":\"object\",\"properties\":{"
        "\"a\":{\"type\":\"object\",\"properties\":{\"b\":{\"description\":\"deep\"}}},"
        "\"e\":{\"items\":{\"items\":{\"items\":{\"description\":\"deeper\"}}}}},"
        "\"description\":\"root\"}},"
        "{\"name\":\"o\",\"vendor\":{\"x\":{\"y\":{\"z\":{\"w\":\"deep\"}}}, \"s\":\"shallow\"}},"
        "{\"name\":\"ok\",\"inputSchema\":{\"properties\":{\"a\":{\"default\":\"v\"}}}}]}",
        "d.json", &opts);
    const mv_tool *t = &set->tools[0];
    assert_int_equal(t->n_caps, 1);
    assert_string_equal(t->caps[0].cap, "schema_depth");
    assert_int_equal(t->caps[0].limit, 3);
    ASSERT_STR(t->caps[0].where, "inputSchema.properties.a.properties");
    assert_int_equal(t->caps[0].observed, 6); /* the deepest branch, e.items.items.items */
    assert_int_equal(t->n_fields, 4);
    assert_non_null(field_at(t, "inputSchema.properties.a", MV_FIELD_PROPERTY_NAME));
    assert_non_null(field_at(t, "inputSchema.properties.e", MV_FIELD_PROPERTY_NAME));
    assert_non_null(field_at(t, "inputSchema.description", MV_FIELD_SCHEMA_DESCRIPTION));
    assert_null(field_at(t, "inputSchema.properties.a.properties.b", MV_FIELD_PROPERTY_NAME));
    /* Params do not depend on the walk depth. */
    assert_int_equal(t->n_params, 2);
    ASSERT_STR(t->params[0].type, "object");

    /* Unknown keys are bounded the same way. */
    const mv_tool *o = &set->tools[1];
    assert_int_equal(o->n_caps, 1);
    ASSERT_STR(o->caps[0].where, "vendor.x.y.z");
    assert_int_equal(o->caps[0].observed, 4);
    assert_non_null(field_at(o, "vendor.s", MV_FIELD_OTHER));
    assert_null(field_at(o, "vendor.x.y.z.w", MV_FIELD_OTHER));

    /* Exactly at the cap: walked, nothing recorded. */
    const mv_tool *ok = &set->tools[2];
    assert_int_equal(ok->n_caps, 0);
    assert_non_null(field_at(ok, "inputSchema.properties.a.default", MV_FIELD_SCHEMA_VALUE));
    assert_int_equal(set->n_caps, 2);
    mv_toolset_free(set);
}

static void test_cap_fields_per_tool(void **state) {
    (void)state;
    mv_model_options opts = {0};
    opts.limits.max_fields_per_tool = 3;
    mv_toolset *set = parse_ok(
        "{\"tools\":[{\"name\":\"f\",\"description\":\"d\",\"inputSchema\":{\"properties\":{"
        "\"p1\":{\"description\":\"x\"},\"p2\":{},\"p3\":{}}}},{\"name\":\"g\",\"title\":\"T\"}]}",
        "f.json", &opts);
    const mv_tool *t = &set->tools[0];
    assert_int_equal(t->n_fields, 3);
    assert_int_equal(t->fields[2].kind, MV_FIELD_PROPERTY_NAME);
    assert_int_equal(t->n_caps, 1);
    assert_string_equal(t->caps[0].cap, "fields_per_tool");
    assert_int_equal(t->caps[0].limit, 3);
    assert_int_equal(t->caps[0].observed, 6);
    ASSERT_STR(t->caps[0].where, "inputSchema.properties.p1.description");
    /* Params are complete even when their fields were dropped. */
    assert_int_equal(t->n_params, 3);
    ASSERT_STR(t->params[0].description, "x");
    ASSERT_STR(t->params[2].name, "p3");
    assert_int_equal(set->tools[1].n_caps, 0);
    mv_toolset_free(set);

    opts.limits.max_fields_per_tool = 1;
    set = parse_ok("{\"tools\":[{\"name\":\"g\",\"title\":\"T\",\"description\":\"D\"}]}", "f.json",
                   &opts);
    t = &set->tools[0];
    assert_int_equal(t->n_fields, 1);
    ASSERT_STR(t->fields[0].text, "g");
    ASSERT_STR(t->title, "T"); /* the tool still knows its title */
    ASSERT_STR(t->description, "D");
    assert_int_equal(t->caps[0].observed, 3);
    mv_toolset_free(set);
}

static void test_cap_tools_per_server(void **state) {
    (void)state;
    mv_model_options opts = {0};
    opts.limits.max_tools_per_server = 2;
    mv_toolset *set = parse_ok("{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}",
                               "t.json", &opts);
    assert_int_equal(set->n_tools, 2);
    assert_int_equal(set->tools[0].n_caps, 0);
    assert_int_equal(set->tools[1].n_caps, 1);
    const mv_cap_hit *h = cap_named(&set->tools[1], "tools_per_server");
    assert_non_null(h);
    assert_int_equal(h->limit, 2);
    assert_int_equal(h->observed, 3);
    ASSERT_STR(h->where, "tools");
    assert_int_equal(set->n_caps, 1);
    mv_toolset_free(set);

    /* Exactly at the cap: nothing dropped, nothing recorded. */
    set = parse_ok("{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"}]}", "t.json", &opts);
    assert_int_equal(set->n_tools, 2);
    assert_int_equal(set->n_caps, 0);
    mv_toolset_free(set);

    /* Per server in a snapshot; a dropped tool is not even validated. */
    set = parse_ok("{\"servers\":[{\"name\":\"x\",\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"},"
                   "{\"name\":7}]},{\"name\":\"y\",\"tools\":[{\"name\":\"c\"}]}]}",
                   "s.json", &opts);
    assert_int_equal(set->n_tools, 3);
    assert_non_null(cap_named(&set->tools[1], "tools_per_server"));
    ASSERT_STR(set->tools[2].server, "y");
    assert_int_equal(set->tools[2].n_caps, 0);
    assert_int_equal(set->n_caps, 1);
    mv_toolset_free(set);

    /* A corpus entry and its peers form one registry. */
    set =
        parse_ok("{\"entries\":[{\"id\":\"e\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                 "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":[{\"server\":\"s\",\"tool\":{\"name\":"
                 "\"p1\"}},{\"server\":\"s\",\"tool\":{\"name\":\"p2\"}},{\"server\":\"s\",\"tool\""
                 ":{\"name\":\"p3\"}}]}]}",
                 "c.json", &opts);
    assert_int_equal(set->n_tools, 2);
    assert_int_equal(set->entries[0].n_peers, 1);
    h = cap_named(&set->tools[1], "tools_per_server");
    assert_non_null(h);
    assert_int_equal(h->observed, 4);
    ASSERT_STR(h->where, "peers");
    mv_toolset_free(set);

    opts.limits.max_tools_per_server = 1;
    set =
        parse_ok("{\"entries\":[{\"id\":\"e\",\"label\":\"benign\",\"category\":\"c\",\"server\":"
                 "\"s\",\"tool\":{\"name\":\"t\"},\"peers\":[{\"server\":\"s\",\"tool\":{\"name\":"
                 "\"p1\"}}]}]}",
                 "c.json", &opts);
    assert_int_equal(set->n_tools, 1);
    assert_int_equal(set->entries[0].n_peers, 0);
    assert_non_null(cap_named(&set->tools[0], "tools_per_server"));
    mv_toolset_free(set);
}

/* -------------------------------------------------------- out of memory */

/* A document well over one arena block, with caps hit, so failures land
 * in the middle of walking, in cap records and in scratch growth. */
static char *make_big_doc(size_t n_tools, size_t *len_out) {
    size_t cap = n_tools * 700 + 256, len = 0;
    char *doc = malloc(cap);
    assert_non_null(doc);
    len += (size_t)snprintf(doc + len, cap - len, "{\"servers\":[");
    for (size_t s = 0; s < 2; s++) {
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"name\":\"srv%zu\",\"tools\":[",
                                s > 0 ? "," : "", s);
        for (size_t i = 0; i < n_tools / 2; i++) {
            len += (size_t)snprintf(
                doc + len, cap - len,
                "%s{\"name\":\"tool_%zu\",\"description\":\"%0300zu \xc3\xa9\","
                "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"p\":{\"type\":\"string\","
                "\"description\":\"param "
                "%zu\",\"enum\":[\"a\",\"b\"]},\"q\":{\"type\":[\"integer\","
                "\"null\"]}},\"required\":[\"p\",\"zz\"]},\"annotations\":{\"title\":\"T\"},"
                "\"x-extra\":{\"k\":[\"v1\",{\"d\":{\"e\":\"deep\"}}]}}",
                i > 0 ? "," : "", i, i, i);
            assert_true(len < cap);
        }
        len += (size_t)snprintf(doc + len, cap - len, "]}");
    }
    len += (size_t)snprintf(doc + len, cap - len, "]}");
    assert_true(len < cap);
    *len_out = len;
    return doc;
}

static void oom_loop(const char *doc, size_t len, const mv_model_options *base) {
    mv_toolset *ref = NULL;
    mv_error err;
    mv_error_clear(&err);
    assert_int_equal(mv_model_parse(&ref, doc, len, "oom.json", base, &err), MV_OK);
    size_t n;
    for (n = 1; n < 100000; n++) {
        test_alloc ta = {0};
        ta.fail_at = n;
        mv_allocator a = {ta_alloc, ta_realloc, ta_free, &ta};
        mv_model_options opts = *base;
        opts.allocator = &a;
        mv_toolset *set = (mv_toolset *)(uintptr_t)1;
        mv_error_clear(&err);
        int rc = mv_model_parse(&set, doc, len, "oom.json", &opts, &err);
        if (rc == MV_OK) {
            assert_true(ta.calls < n); /* nothing failed */
            assert_int_equal(set->n_tools, ref->n_tools);
            assert_int_equal(set->n_caps, ref->n_caps);
            mv_toolset_free(set);
            assert_int_equal(ta.n_alloc, ta.n_free);
            assert_int_equal(ta.live, 0);
            break;
        }
        if (rc != MV_ENOMEM)
            fail_msg("allocation %zu: rc %d (%s)", n, rc, err.message);
        assert_null(set);
        assert_int_equal(err.code, MV_ENOMEM);
        assert_string_equal(err.source, "oom.json");
        if (ta.n_alloc != ta.n_free || ta.live != 0)
            fail_msg("allocation %zu failed: %zu allocs, %zu frees, %lld bytes live", n, ta.n_alloc,
                     ta.n_free, ta.live);
    }
    assert_true(n > 3); /* the loop really failed several allocations */
    assert_true(n < 100000);
    mv_toolset_free(ref);
}

static void test_out_of_memory(void **state) {
    (void)state;
    size_t len;
    char *doc = make_big_doc(400, &len);
    assert_true(len > 3 * 64 * 1024);
    mv_model_options opts = {0};
    opts.limits.max_field_bytes = 200;
    opts.limits.max_schema_depth = 3;
    oom_loop(doc, len, &opts);
    opts.limits.max_fields_per_tool = 5;
    oom_loop(doc, len, &opts);
    free(doc);

    char *path = data_path("corpus.json");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    mv_model_options plain = {0};
    oom_loop(buf, n, &plain);
    const char *flat = "[{\"name\":\"a\",\"inputSchema\":{\"properties\":{\"x\":{}},\"required\":"
                       "[\"x\"]}}]";
    oom_loop(flat, strlen(flat), &plain);

    /* Loading: the read buffer comes from the allocator too. */
    for (size_t k = 1; k < 1000; k++) {
        test_alloc ta = {0};
        ta.fail_at = k;
        mv_allocator a = {ta_alloc, ta_realloc, ta_free, &ta};
        mv_model_options opts2 = {0};
        opts2.allocator = &a;
        mv_toolset *set = NULL;
        mv_error err;
        int rc = mv_model_load_file(&set, path, &opts2, &err);
        if (rc == MV_OK) {
            mv_toolset_free(set);
            assert_int_equal(ta.live, 0);
            assert_true(k > 1);
            break;
        }
        assert_int_equal(rc, MV_ENOMEM);
        assert_null(set);
        assert_int_equal(ta.live, 0);
        assert_int_equal(ta.n_alloc, ta.n_free);
    }
    free(path);
}

/* ---------------------------------------------------------------- files */

static void test_load_errors(void **state) {
    (void)state;
    mv_toolset *set = (mv_toolset *)(uintptr_t)1;
    mv_error err;
    mv_error_clear(&err);
    assert_int_equal(mv_model_load_file(&set, "/nonexistent/x.json", NULL, &err), MV_EIO);
    assert_null(set);
    assert_string_equal(err.message,
                        "cannot open '/nonexistent/x.json': No such file or directory");
    assert_string_equal(err.source, "/nonexistent/x.json");

    const char *dir = getenv("MCPVET_SOURCE_DIR");
    assert_non_null(dir);
    mv_error_clear(&err);
    assert_int_equal(mv_model_load_file(&set, dir, NULL, &err), MV_EIO);
    assert_null(set);
    assert_non_null(strstr(err.message, "cannot read"));
    assert_non_null(strstr(err.message, "it is a directory, not a regular file"));

    /* A FIFO nobody writes to and an endless device are refused at once
     * instead of hanging or reading forever. */
    char fifo[] = "/tmp/mcpvet-fifo-XXXXXX";
    int tmpfd = mkstemp(fifo);
    assert_true(tmpfd >= 0);
    close(tmpfd);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    mv_error_clear(&err);
    assert_int_equal(mv_model_load_file(&set, fifo, NULL, &err), MV_EIO);
    assert_non_null(strstr(err.message, "it is a FIFO, not a regular file"));
    unlink(fifo);
    mv_error_clear(&err);
    assert_int_equal(mv_model_load_file(&set, "/dev/zero", NULL, &err), MV_EIO);
    assert_non_null(strstr(err.message, "it is a device"));
    assert_null(set);

    /* Over the document cap: refused from the file size, before reading. */
    char *path = data_path("flatten.json");
    mv_model_options opts = {0};
    opts.limits.max_document_bytes = 100;
    mv_error_clear(&err);
    assert_int_equal(mv_model_load_file(&set, path, &opts, &err), MV_ELIMIT);
    assert_null(set);
    assert_non_null(strstr(err.message, "over the max_document_bytes limit of 100 bytes"));
    assert_string_equal(err.source, path);

    /* Parse errors from a file carry the file name. */
    opts.limits.max_document_bytes = 0;
    char *bad = data_path("snapshot.json");
    opts.server = "";
    mv_error_clear(&err);
    assert_int_equal(mv_model_load_file(&set, bad, &opts, &err), MV_EINVAL);
    assert_string_equal(err.source, bad);
    free(bad);
    free(path);
}

/* Point standard input at a pipe holding `data`; returns the saved fd. */
static int stdin_from(const char *data, size_t len) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_true(len < 4096); /* fits in the pipe buffer */
    assert_int_equal(write(fds[1], data, len), (ssize_t)len);
    close(fds[1]);
    int saved = dup(0);
    assert_true(saved >= 0);
    assert_true(dup2(fds[0], 0) == 0);
    close(fds[0]);
    clearerr(stdin);
    return saved;
}

static void stdin_restore(int saved) {
    dup2(saved, 0);
    close(saved);
    clearerr(stdin);
}

static void test_load_stdin(void **state) {
    (void)state;
    int saved = stdin_from(TWO_TOOLS, strlen(TWO_TOOLS));
    mv_toolset *set = NULL;
    mv_error err;
    mv_error_clear(&err);
    int rc = mv_model_load_file(&set, "-", NULL, &err);
    stdin_restore(saved);
    assert_int_equal(rc, MV_OK);
    assert_int_equal(set->n_tools, 2);
    ASSERT_STR(set->tools[0].server, "stdin");
    ASSERT_STR(set->source, "-");
    mv_toolset_free(set);

    /* A stream has no size up front: the cap is enforced while reading. */
    saved = stdin_from(TWO_TOOLS, strlen(TWO_TOOLS));
    mv_model_options opts = {0};
    opts.limits.max_document_bytes = 20;
    mv_error_clear(&err);
    rc = mv_model_load_file(&set, "-", &opts, &err);
    stdin_restore(saved);
    assert_int_equal(rc, MV_ELIMIT);
    assert_null(set);
    assert_non_null(strstr(err.message, "larger than the max_document_bytes limit of 20 bytes"));
    assert_string_equal(err.source, "<stdin>");

    /* Errors in stdin documents name "<stdin>". */
    saved = stdin_from("{\"tools\":[1]}", 13);
    mv_error_clear(&err);
    rc = mv_model_load_file(&set, "-", NULL, &err);
    stdin_restore(saved);
    assert_int_equal(rc, MV_EPARSE);
    assert_string_equal(err.source, "<stdin>");
    assert_string_equal(err.where, "tools[0]");
}

/* --------------------------------------------- tools built on threads */

/* A snapshot of `n_servers` servers of `per` tools each (every tool with a
 * schema, escapes, an annotation; every 7th server with a prompt, a
 * resource and instructions). `bad_tool` >= 0 makes that tool (counted
 * over the whole document) nameless; `bad_server` >= 0 makes that server a
 * number (a shape error found by the walk). */
static char *gen_snapshot(size_t n_servers, size_t per, long bad_tool, long bad_server) {
    size_t cap = 4096 + n_servers * (per * 500 + 600), len = 0;
    char *d = malloc(cap);
    assert_non_null(d);
    long tool = 0;
    len += (size_t)snprintf(d + len, cap - len, "{\"servers\":[");
    for (size_t s = 0; s < n_servers; s++) {
        if (s > 0)
            d[len++] = ',';
        if ((long)s == bad_server) {
            len += (size_t)snprintf(d + len, cap - len, "42");
            continue;
        }
        len += (size_t)snprintf(d + len, cap - len, "{\"name\":\"srv-%zu\",\"tools\":[", s);
        for (size_t t = 0; t < per; t++, tool++) {
            char name[64];
            if (tool == bad_tool)
                snprintf(name, sizeof name, "\"nome\":\"x\",");
            else
                snprintf(name, sizeof name, "\"name\":\"tool_%zu_%zu\",", s, t);
            len += (size_t)snprintf(
                d + len, cap - len,
                "%s{%s\"description\":\"Tool %zu of server %zu reads \\u201cfiles\\u201d.\","
                "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"path_%zu\":{\"type\":"
                "\"string\",\"description\":\"where, line\\n%zu\"},\"mode\":{\"enum\":[\"a\","
                "\"b%zu\"]}},\"required\":[\"path_%zu\"]},\"annotations\":{\"title\":\"T%zu\","
                "\"readOnlyHint\":true},\"x-extra\":\"other %zu\"}",
                t > 0 ? "," : "", name, t, s, t % 5, t, t, t % 5, t, t);
        }
        len += (size_t)snprintf(d + len, cap - len, "]");
        if (s % 7 == 3)
            len += (size_t)snprintf(d + len, cap - len,
                                    ",\"prompts\":[{\"name\":\"p%zu\",\"description\":\"a "
                                    "prompt\"}],\"resources\":[{\"name\":\"r%zu\",\"uri\":"
                                    "\"file:///r\"}],\"instructions\":\"Use srv-%zu well.\"",
                                    s, s, s);
        len += (size_t)snprintf(d + len, cap - len, "}");
        assert_true(len + 1024 < cap);
    }
    len += (size_t)snprintf(d + len, cap - len, "]}");
    return d;
}

static void same_str(mv_str a, mv_str b, const char *what, size_t tool) {
    if (a.len != b.len || (a.len > 0 && memcmp(a.ptr, b.ptr, a.len) != 0))
        fail_msg("tool %zu: %s differs: \"%.*s\" / \"%.*s\"", tool, what, (int)a.len,
                 a.ptr != NULL ? a.ptr : "", (int)b.len, b.ptr != NULL ? b.ptr : "");
}

/* Every member of one tool equal (not the addresses). */
static void assert_same_tool(const mv_tool *x, const mv_tool *y, size_t i) {
    same_str(x->server, y->server, "server", i);
    same_str(x->name, y->name, "name", i);
    same_str(x->title, y->title, "title", i);
    same_str(x->description, y->description, "description", i);
    same_str(x->definition, y->definition, "definition", i);
    assert_int_equal(x->source_index, i);
    assert_int_equal(y->source_index, i);
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->n_fields, y->n_fields);
    assert_int_equal(x->n_params, y->n_params);
    assert_int_equal(x->n_caps, y->n_caps);
    for (uint32_t k = 0; k < x->n_fields; k++) {
        const mv_field *f = &x->fields[k], *g = &y->fields[k];
        assert_int_equal(f->kind, g->kind);
        assert_int_equal(f->schema, g->schema);
        assert_int_equal(f->param, g->param);
        assert_int_equal(f->whole_len, g->whole_len);
        same_str(f->path, g->path, "field path", i);
        same_str(f->text, g->text, "field text", i);
    }
    for (uint32_t k = 0; k < x->n_params; k++) {
        const mv_param *p = &x->params[k], *q = &y->params[k];
        same_str(p->name, q->name, "param name", i);
        same_str(p->type, q->type, "param type", i);
        same_str(p->description, q->description, "param description", i);
        assert_int_equal(p->schema, q->schema);
        assert_int_equal(p->required, q->required);
        assert_int_equal(p->has_enum, q->has_enum);
    }
    for (uint32_t k = 0; k < x->n_caps; k++) {
        assert_string_equal(x->caps[k].cap, y->caps[k].cap);
        assert_int_equal(x->caps[k].limit, y->caps[k].limit);
        assert_int_equal(x->caps[k].observed, y->caps[k].observed);
        same_str(x->caps[k].where, y->caps[k].where, "cap where", i);
    }
}

/* Every member of every tool, server and cap equal (not the addresses). */
static void assert_same_sets(const mv_toolset *a, const mv_toolset *b) {
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->n_tools, b->n_tools);
    assert_int_equal(a->n_servers, b->n_servers);
    assert_int_equal(a->n_caps, b->n_caps);
    for (size_t i = 0; i < a->n_servers; i++) {
        same_str(a->servers[i].name, b->servers[i].name, "server name", i);
        assert_int_equal(a->servers[i].first_tool, b->servers[i].first_tool);
        assert_int_equal(a->servers[i].n_tools, b->servers[i].n_tools);
        assert_memory_equal(a->servers[i].counts, b->servers[i].counts,
                            sizeof a->servers[i].counts);
    }
    for (size_t i = 0; i < a->n_tools; i++)
        assert_same_tool(&a->tools[i], &b->tools[i], i);
}

/* mv_model_options.jobs: the same tool set from one thread or several,
 * across batches (24,000 tools are three), with caps and every item kind. */
static void test_jobs_identical(void **state) {
    (void)state;
    static const size_t shapes[][2] = {{1, 5}, {40, 100}, {120, 200}};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        char *doc = gen_snapshot(shapes[sh][0], shapes[sh][1], -1, -1);
        mv_toolset *sets[3] = {NULL, NULL, NULL};
        for (unsigned j = 0; j < 3; j++) {
            mv_model_options o;
            memset(&o, 0, sizeof o);
            o.keep_definitions = true;
            o.limits.max_tools_per_server = 150; /* the 200-tool servers hit it */
            o.limits.max_fields_per_tool = 9;    /* so does every tool */
            o.jobs = j + 1;
            mv_error err;
            if (parse_str(&sets[j], doc, "gen.json", &o, &err) != MV_OK)
                fail_msg("jobs %u: %s at %s", j + 1, err.message, err.where);
            if (shapes[sh][0] * shapes[sh][1] >= 4000)
                assert_int_equal(sets[j]->n_more_arenas, j); /* the threads did build */
            else
                assert_int_equal(sets[j]->n_more_arenas, 0);
        }
        assert_true(sets[0]->n_caps > 0);
        assert_same_sets(sets[0], sets[1]);
        assert_same_sets(sets[0], sets[2]);
        for (unsigned j = 0; j < 3; j++)
            mv_toolset_free(sets[j]);
        free(doc);
    }
}

/* The error of a build on threads is the one a single pass reports: the
 * first failing tool in document order, before a later shape error, and
 * never a tool after a shape error. */
static void test_jobs_errors(void **state) {
    (void)state;
    static const struct {
        size_t servers, per;
        long bad_tool, bad_server;
        int code;
        const char *where;
    } cases[] = {
        {40, 100, 3000, 35, MV_EPARSE, "servers[30].tools[0]"},     /* second thread's range */
        {40, 100, 10, -1, MV_EPARSE, "servers[0].tools[10]"},       /* first range */
        {40, 100, 3999, -1, MV_EPARSE, "servers[39].tools[99]"},    /* the very last tool */
        {40, 100, 3000, 5, MV_EPARSE, "servers[5]"},                /* the shape error is first */
        {40, 100, -1, 39, MV_EPARSE, "servers[39]"},                /* after every tool */
        {120, 100, 11000, 119, MV_EPARSE, "servers[110].tools[0]"}, /* in the second batch */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *doc =
            gen_snapshot(cases[i].servers, cases[i].per, cases[i].bad_tool, cases[i].bad_server);
        mv_error errs[3];
        for (unsigned j = 0; j < 3; j++) {
            mv_model_options o;
            memset(&o, 0, sizeof o);
            o.jobs = j + 1;
            mv_toolset *set = NULL;
            int rc = parse_str(&set, doc, "gen.json", &o, &errs[j]);
            assert_int_equal(rc, cases[i].code);
            assert_null(set);
            if (strcmp(errs[j].where, cases[i].where) != 0)
                fail_msg("case %zu, jobs %u: error at %s (%s), expected at %s", i, j + 1,
                         errs[j].where, errs[j].message, cases[i].where);
        }
        for (unsigned j = 1; j < 3; j++) {
            assert_string_equal(errs[0].message, errs[j].message);
            assert_int_equal(errs[0].code, errs[j].code);
            assert_string_equal(errs[0].source, errs[j].source);
        }
        free(doc);
    }
}

/* A large snapshot walked run by run (chunk_bytes) gives the very tool set
 * of the one-pass walk, for any run size and thread count, with --server
 * too; a document that is not a plain snapshot takes the one pass. */
static void test_chunked_identical(void **state) {
    (void)state;
    static const size_t shapes[][2] = {{1, 5}, {40, 100}, {120, 30}};
    static const size_t chunks[] = {1, 3000, 50000, 400000};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        char *doc = gen_snapshot(shapes[sh][0], shapes[sh][1], -1, -1);
        for (int filtered = 0; filtered < 2; filtered++) {
            mv_model_options o;
            memset(&o, 0, sizeof o);
            o.keep_definitions = true;
            o.limits.max_tools_per_server = 80;
            o.limits.max_fields_per_tool = 9;
            o.server = filtered ? "srv-0" : NULL;
            mv_error err;
            mv_toolset *whole = NULL;
            if (parse_str(&whole, doc, "gen.json", &o, &err) != MV_OK)
                fail_msg("one pass: %s at %s", err.message, err.where);
            assert_int_equal(whole->heap_tools, 0);
            for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
                for (unsigned j = 1; j <= 3; j++) {
                    o.chunk_bytes = chunks[k];
                    o.jobs = j;
                    mv_toolset *set = NULL;
                    if (parse_str(&set, doc, "gen.json", &o, &err) != MV_OK)
                        fail_msg("chunk %zu, jobs %u: %s at %s", chunks[k], j, err.message,
                                 err.where);
                    /* Walked in runs whenever the document is over the
                     * chunk size and has two servers to cut between. */
                    bool runs = strlen(doc) > chunks[k] && shapes[sh][0] > 1;
                    assert_int_equal(set->heap_tools > 0, runs);
                    assert_same_sets(whole, set);
                    mv_toolset_free(set);
                }
            }
            mv_toolset_free(whole);
        }
        free(doc);
    }
    /* A tools list and a corpus are not walked in runs. */
    mv_model_options o;
    memset(&o, 0, sizeof o);
    o.chunk_bytes = 1;
    mv_toolset *set =
        parse_ok("{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}", "t.json", &o);
    assert_int_equal(set->n_tools, 3);
    assert_int_equal(set->heap_tools, 0);
    mv_toolset_free(set);
}

/* Out of memory anywhere in a walk in runs: MV_ENOMEM, nothing leaked. */
static void test_chunked_out_of_memory(void **state) {
    (void)state;
    char *doc = gen_snapshot(12, 20, -1, -1);
    for (unsigned j = 1; j <= 2; j++) {
        mv_model_options o;
        memset(&o, 0, sizeof o);
        o.chunk_bytes = 20000;
        o.jobs = j;
        o.keep_definitions = j == 2;
        oom_loop(doc, strlen(doc), &o);
    }
    free(doc);
}

/* A large file read by mv_model_load_file is walked in runs and its pages
 * given back behind the walk; a JSON error late in the file is still
 * reported exactly (the pages are read from the file again first). */
static void test_chunked_load(void **state) {
    (void)state;
    char path[] = "/tmp/mcpvet-test-model-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char *doc = gen_snapshot(40, 100, -1, -1);
    size_t len = strlen(doc);
    for (int broken = 0; broken < 3; broken++) {
        char *d = strdup(doc);
        assert_non_null(d);
        if (broken == 1) /* a syntax error in the last server */
            strstr(d, "\"srv-39\"")[0] = '!';
        if (broken == 2) /* invalid UTF-8 there, after a shape error up front */
            memcpy(strstr(d, "Tool 9 of server 39"), "\xC3", 1),
                memcpy(strstr(d, "\"srv-0\""), "\"\"     ", 7);
        assert_int_equal(ftruncate(fd, 0), 0);
        assert_int_equal(pwrite(fd, d, len, 0), (ssize_t)len);
        mv_model_options o;
        memset(&o, 0, sizeof o);
        mv_toolset *whole = NULL, *runs = NULL;
        mv_error e1, e2;
        mv_error_clear(&e1);
        mv_error_clear(&e2);
        int r1 = mv_model_parse(&whole, d, len, path, &o, &e1);
        o.chunk_bytes = 20000;
        o.jobs = 2;
        int r2 = mv_model_load_file(&runs, path, &o, &e2);
        assert_int_equal(r1, r2);
        if (r1 == MV_OK) {
            assert_true(runs->heap_tools > 0); /* walked in runs */
            assert_same_sets(whole, runs);
        } else {
            assert_string_equal(e1.message, e2.message);
            assert_string_equal(e1.where, e2.where);
            assert_int_equal(e1.line, e2.line);
            assert_int_equal(e1.column, e2.column);
            assert_true(e1.line > 0);
        }
        mv_toolset_free(whole);
        mv_toolset_free(runs);
        free(d);
    }
    close(fd);
    unlink(path);
    free(doc);
}

/* A slim tool (mv_model_options.slim): what the cross-server checks read
 * of another tool is that of the full tool; nothing else is kept. */
static void assert_slim_of(const mv_tool *x, const mv_tool *full, size_t i) {
    same_str(x->server, full->server, "server", i);
    same_str(x->name, full->name, "name", i);
    same_str(x->title, full->title, "title", i);
    same_str(x->description, full->description, "description", i);
    assert_int_equal(x->source_index, i);
    assert_int_equal(x->kind, full->kind);
    assert_int_equal(x->n_fields, 0);
    assert_null(x->fields);
    assert_int_equal(x->definition.len, 0);
    assert_int_equal(x->n_params, full->n_params);
    for (uint32_t k = 0; k < x->n_params; k++) {
        same_str(x->params[k].name, full->params[k].name, "param name", i);
        assert_int_equal(x->params[k].schema, full->params[k].schema);
        assert_int_equal(x->params[k].type.len, 0);
        assert_int_equal(x->params[k].description.len, 0);
    }
    assert_int_equal(x->n_caps, full->n_caps);
    for (uint32_t k = 0; k < x->n_caps; k++) {
        assert_string_equal(x->caps[k].cap, full->caps[k].cap);
        same_str(x->caps[k].where, full->caps[k].where, "cap where", i);
    }
}

/* A slim set loaded from a file: slim tools, and each group of runs made
 * full again (in any order) is the one-pass build, for 1-3 threads and
 * with a server filter; a file changed afterwards is an error, never a
 * different tool. Only files walked in runs, without definitions, are
 * kept slim. */
static void test_slim_expand(void **state) {
    (void)state;
    char path[] = "/tmp/mcpvet-test-slim-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char *doc = gen_snapshot(40, 100, -1, -1);
    size_t len = strlen(doc);
    assert_int_equal(pwrite(fd, doc, len, 0), (ssize_t)len);
    for (unsigned j = 1; j <= 3; j++) {
        for (int filtered = 0; filtered < 2; filtered++) {
            mv_model_options o;
            memset(&o, 0, sizeof o);
            o.limits.max_tools_per_server = 80; /* caps on some tools */
            o.limits.max_fields_per_tool = 9;
            o.server = filtered ? "srv-17" : NULL;
            mv_toolset *whole = NULL, *slim = NULL;
            mv_error err;
            mv_error_clear(&err);
            assert_int_equal(mv_model_parse(&whole, doc, len, path, &o, &err), MV_OK);
            o.chunk_bytes = 20000;
            o.jobs = j;
            o.slim = true;
            assert_int_equal(mv_model_load_file(&slim, path, &o, &err), MV_OK);
            assert_true(mv_toolset_is_slim(slim));
            assert_int_equal(slim->n_tools, whole->n_tools);
            assert_int_equal(slim->n_caps, whole->n_caps);
            assert_int_equal(slim->n_servers, whole->n_servers);
            for (size_t i = 0; i < slim->n_servers; i++) {
                same_str(slim->servers[i].name, whole->servers[i].name, "server", i);
                assert_int_equal(slim->servers[i].first_tool, whole->servers[i].first_tool);
            }
            for (size_t i = 0; i < slim->n_tools; i++)
                assert_slim_of(&slim->tools[i], &whole->tools[i], i);
            /* forwards, then the first group again */
            size_t groups = 0, at = 0;
            while (at < slim->n_tools) {
                size_t b = 0, e = 0;
                assert_int_equal(mv_toolset_expand(slim, at, &b, &e, &err), MV_OK);
                assert_true(b <= at && at < e && e <= slim->n_tools);
                for (size_t i = 0; i < slim->n_tools; i++) {
                    if (i >= b && i < e)
                        assert_same_tool(&slim->tools[i], &whole->tools[i], i);
                    else
                        assert_slim_of(&slim->tools[i], &whole->tools[i], i);
                }
                at = e;
                groups++;
            }
            assert_true(filtered || groups > 3);
            size_t b = 0, e = 0;
            assert_int_equal(mv_toolset_expand(slim, 0, &b, &e, &err), MV_OK);
            assert_int_equal(b, 0);
            for (size_t i = b; i < e; i++)
                assert_same_tool(&slim->tools[i], &whole->tools[i], i);
            mv_toolset_shrink(slim);
            for (size_t i = 0; i < slim->n_tools; i++)
                assert_slim_of(&slim->tools[i], &whole->tools[i], i);
            /* past the end: an error */
            assert_int_equal(mv_toolset_expand(slim, slim->n_tools, &b, &e, &err), MV_EINVAL);
            mv_toolset_free(slim);
            mv_toolset_free(whole);
        }
    }
    /* Changed after the first pass: the same length, one byte in the last
     * server; then cut short. Both MV_EIO naming the file; the set stays
     * slim and usable. With two jobs the next group is read ahead (the
     * first while loading, the second after the first expand); expanding
     * the last group then drops that read-ahead unused and reads its own
     * bytes, so the change is seen just the same. */
    for (int change = 0; change < 4; change++) {
        mv_model_options o;
        memset(&o, 0, sizeof o);
        o.chunk_bytes = 20000;
        o.slim = true;
        o.jobs = change < 2 ? 1 : 2;
        mv_toolset *slim = NULL;
        mv_error err;
        mv_error_clear(&err);
        assert_int_equal(pwrite(fd, doc, len, 0), (ssize_t)len);
        assert_int_equal(mv_model_load_file(&slim, path, &o, &err), MV_OK);
        assert_true(mv_toolset_is_slim(slim));
        if (change % 2 == 0) {
            size_t at = (size_t)(strstr(doc, "Tool 9 of server 39") - doc);
            assert_int_equal(pwrite(fd, "X", 1, (off_t)at), 1);
        } else {
            assert_int_equal(ftruncate(fd, (off_t)(len - 3000)), 0);
        }
        size_t b = 0, e = 0, last = slim->n_tools - 1;
        assert_int_equal(mv_toolset_expand(slim, 0, &b, &e, &err), MV_OK);
        assert_true(e <= last); /* the last tool is in a later group */
        mv_error_clear(&err);
        assert_int_equal(mv_toolset_expand(slim, last, &b, &e, &err), MV_EIO);
        assert_non_null(
            strstr(err.message, change % 2 == 0 ? "changed while it was scanned" : "cannot read"));
        assert_non_null(strstr(err.message, path));
        assert_int_equal(slim->tools[last].n_fields, 0); /* still slim */
        assert_int_equal(slim->tools[0].n_fields, 0);    /* the first group shrunk */
        mv_toolset_free(slim);
    }
    /* Not slim: definitions kept, a document in memory, a small file. */
    assert_int_equal(pwrite(fd, doc, len, 0), (ssize_t)len);
    assert_int_equal(ftruncate(fd, (off_t)len), 0);
    for (int k = 0; k < 3; k++) {
        mv_model_options o;
        memset(&o, 0, sizeof o);
        o.chunk_bytes = k == 2 ? 0 : 20000;
        o.slim = true;
        o.keep_definitions = k == 0;
        mv_toolset *set = NULL;
        mv_error err;
        mv_error_clear(&err);
        assert_int_equal(k == 1 ? mv_model_parse(&set, doc, len, path, &o, &err)
                                : mv_model_load_file(&set, path, &o, &err),
                         MV_OK);
        assert_false(mv_toolset_is_slim(set));
        assert_true(set->tools[0].n_fields > 0);
        size_t b = 1, e = 0;
        assert_int_equal(mv_toolset_expand(set, 5, &b, &e, &err), MV_OK);
        assert_int_equal(b, 0);
        assert_int_equal(e, set->n_tools);
        mv_toolset_free(set);
    }
    close(fd);
    unlink(path);
    free(doc);
}

/* Errors of a document walked in runs are those of the one pass: JSON
 * errors anywhere (even after a shape error), the first failing tool,
 * shape errors, duplicate server names and an unmatched --server. */
static void test_chunked_errors(void **state) {
    (void)state;
    static const struct {
        size_t servers, per;
        long bad_tool, bad_server;
        const char *edit; /* replace the first occurrence of edit[0..] (see below) */
    } cases[] = {
        {40, 100, 3000, 35, NULL},   {40, 100, 10, -1, NULL},     {40, 100, 3999, -1, NULL},
        {40, 100, 3000, 5, NULL},    {40, 100, -1, 39, NULL},     {40, 100, -1, -1, "dupname"},
        {40, 100, -1, -1, "dupkey"}, {40, 100, 20, -1, "syntax"}, {40, 100, -1, 3, "truncate"},
        {40, 100, -1, -1, "utf8"},   {40, 100, -1, -1, "filter"},
    };
    static const size_t chunks[] = {3000, 50000};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *doc =
            gen_snapshot(cases[i].servers, cases[i].per, cases[i].bad_tool, cases[i].bad_server);
        size_t len = strlen(doc);
        const char *edit = cases[i].edit != NULL ? cases[i].edit : "";
        if (strcmp(edit, "dupname") == 0) {
            char *at = strstr(doc, "\"srv-37\"");
            memcpy(at, "\"srv-12\"", 8);
        } else if (strcmp(edit, "dupkey") == 0) {
            /* annotations {"title":"T1","title":true} in a late tool */
            char *at = strstr(strstr(doc, "Tool 1 of server 33"), "\"readOnlyHint\":true");
            memcpy(at, "\"title\":true       ", 19);
        } else if (strcmp(edit, "syntax") == 0) {
            char *at = strstr(doc, "\"srv-38\"");
            at[0] = '!';
        } else if (strcmp(edit, "truncate") == 0) {
            doc[len - 700] = '\0';
        } else if (strcmp(edit, "utf8") == 0) {
            char *at = strstr(doc, "Tool 7 of server 36");
            at[0] = (char)0xC3;
        }
        mv_error first;
        for (size_t k = 0; k < 1 + sizeof chunks / sizeof chunks[0]; k++) {
            for (unsigned j = 1; j <= 2; j++) {
                mv_model_options o;
                memset(&o, 0, sizeof o);
                o.jobs = j;
                o.chunk_bytes = k == 0 ? 0 : chunks[k - 1];
                if (strcmp(edit, "filter") == 0)
                    o.server = "srv-99";
                mv_toolset *set = NULL;
                mv_error err;
                int rc = parse_str(&set, doc, "gen.json", &o, &err);
                assert_int_not_equal(rc, MV_OK);
                assert_null(set);
                if (k == 0 && j == 1) {
                    first = err;
                    continue;
                }
                if (err.code != first.code || strcmp(err.message, first.message) != 0 ||
                    strcmp(err.where, first.where) != 0 || err.line != first.line ||
                    err.column != first.column)
                    fail_msg("case %zu (%s), chunk %zu, jobs %u: %s at %s (%d:%d), expected "
                             "%s at %s (%d:%d)",
                             i, edit, o.chunk_bytes, j, err.message, err.where, (int)err.line,
                             (int)err.column, first.message, first.where, (int)first.line,
                             (int)first.column);
            }
        }
        free(doc);
    }
}

int main(void) {
    /* Unbuffered, so a pipe swapped under fd 0 leaves nothing behind in
     * stdin's buffer for the next test. */
    setvbuf(stdin, NULL, _IONBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slim_expand),
        cmocka_unit_test(test_tools_list),
        cmocka_unit_test(test_server_naming),
        cmocka_unit_test(test_bare_array),
        cmocka_unit_test(test_jsonrpc),
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_snapshot_items_and_meta),
        cmocka_unit_test(test_snapshot_instructions),
        cmocka_unit_test(test_snapshot_errors),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_corpus_errors),
        cmocka_unit_test(test_flatten),
        cmocka_unit_test(test_snake_case_and_types),
        cmocka_unit_test(test_escapes_decoded),
        cmocka_unit_test(test_code_arrays),
        cmocka_unit_test(test_paths_of_odd_keys),
        cmocka_unit_test(test_keywords_not_scanned),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_utf8_errors),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_large_objects),
        cmocka_unit_test(test_json_grammar),
        cmocka_unit_test(test_tool_shape_errors),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_document_limit),
        cmocka_unit_test(test_cap_field_bytes),
        cmocka_unit_test(test_cap_schema_depth),
        cmocka_unit_test(test_cap_fields_per_tool),
        cmocka_unit_test(test_cap_tools_per_server),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_load_stdin),
        cmocka_unit_test(test_jobs_identical),
        cmocka_unit_test(test_jobs_errors),
        cmocka_unit_test(test_chunked_identical),
        cmocka_unit_test(test_chunked_errors),
        cmocka_unit_test(test_chunked_out_of_memory),
        cmocka_unit_test(test_chunked_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
