/*
 * Tests of the report module: text, JSON and SARIF renderings compared with
 * golden files (MCPVET_UPDATE_GOLDEN=1 rewrites them), render safety of
 * hostile names in every format, JSON/SARIF validity (parsed back with
 * jansson), determinism across runs and thread counts, exit codes, and the
 * locale-free number formatter.
 *
 * Scans are built from hand-made tools and an engine without builtin checks
 * plus test checks that react to markers in any field:
 *   "[H]" hard signal, "[S]" soft signal, "[I]" info signal,
 *   "[F]" the check test.fail fails on the tool, "[C]" test.cap hits a cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json/writer.h"
#include "mcpvet/buf.h"
#include "mcpvet/engine.h"
#include "mcpvet/registry.h"
#include "mcpvet/report.h"
#include "report/report_int.h"

/* ------------------------------------------------------------ test checks */

/* First occurrence of `marker` in the field, or -1. */
static long find_marker(const mv_field *f, const char *marker) {
    size_t m = strlen(marker);
    for (size_t i = 0; f->text.len >= m && i + m <= f->text.len; i++) {
        if (memcmp(f->text.ptr + i, marker, m) == 0)
            return (long)i;
    }
    return -1;
}

/* Emit one signal per field that carries `marker`; the evidence is the text
 * after the marker up to the end of the field (at most 24 bytes). */
static int emit_marked(const mv_tool *tool, mv_emitter *out, const char *marker, mv_tier tier,
                       mv_threat threat, double confidence, const char *detail) {
    for (uint32_t k = 0; k < tool->n_fields; k++) {
        const mv_field *f = &tool->fields[k];
        long at = find_marker(f, marker);
        if (at < 0)
            continue;
        size_t start = (size_t)at + 3;
        size_t len = f->text.len - start;
        if (len > 24)
            len = 24;
        mv_signal_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.tier = tier;
        spec.threat = threat;
        spec.confidence = confidence;
        spec.critical = tier == MV_TIER_HARD;
        spec.field = (int32_t)k;
        spec.offset = (uint32_t)at;
        spec.length = (uint32_t)(len + 3);
        spec.evidence = (mv_str){f->text.ptr + start, len};
        spec.detail = (mv_str){detail, strlen(detail)};
        int rc = mv_emit(out, &spec);
        if (rc != MV_OK)
            return rc;
    }
    return MV_OK;
}

static int inspect_hidden(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    (void)ctx;
    return emit_marked(tool, out, "[H]", MV_TIER_HARD, MV_THREAT_TOOL_POISONING, 0.9,
                       "Hidden marker found in the text.");
}

static int inspect_phrase(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    (void)ctx;
    return emit_marked(tool, out, "[S]", MV_TIER_SOFT, MV_THREAT_PROMPT_INJECTION, 0.6,
                       "Instruction aimed at the model.");
}

static int inspect_note(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    (void)ctx;
    return emit_marked(tool, out, "[I]", MV_TIER_INFO, MV_THREAT_UNCATEGORIZED, 0.3,
                       "Same name as a tool of another server.");
}

static int inspect_fail(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    (void)ctx;
    (void)out;
    for (uint32_t k = 0; k < tool->n_fields; k++) {
        if (find_marker(&tool->fields[k], "[F]") >= 0)
            return MV_ECHECK;
    }
    return MV_OK;
}

static int inspect_cap(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    (void)ctx;
    for (uint32_t k = 0; k < tool->n_fields; k++) {
        if (find_marker(&tool->fields[k], "[C]") >= 0) {
            mv_emit_cap(out, "test_candidates", 4, 9);
            break;
        }
    }
    return MV_OK;
}

static const mv_check check_hidden = {"test.hidden", MV_TIER_HARD, NULL,          NULL,
                                      NULL,          NULL,         inspect_hidden};
static const mv_check check_phrase = {"test.phrase", MV_TIER_SOFT, NULL,          NULL,
                                      NULL,          NULL,         inspect_phrase};
static const mv_check check_note = {"test.note", MV_TIER_INFO, NULL,        NULL,
                                    NULL,        NULL,         inspect_note};
static const mv_check check_fail = {"test.fail", MV_TIER_SOFT, NULL,        NULL,
                                    NULL,        NULL,         inspect_fail};
static const mv_check check_cap = {"test.cap", MV_TIER_SOFT, NULL, NULL, NULL, NULL, inspect_cap};

/* ------------------------------------------------------------- test tools */

/* A hand-made tool: name, description and optionally one input property. */
typedef struct test_tool {
    mv_tool tool;
    mv_field fields[4];
    mv_param param;
    char prop_path[128];
    char prop_desc_path[160];
} test_tool;

static mv_str s_of(const char *s) {
    return (mv_str){s, s != NULL ? strlen(s) : 0};
}

static void make_tool(test_tool *t, uint32_t index, const char *server, const char *name,
                      const char *description, const char *prop, const char *prop_desc) {
    memset(t, 0, sizeof *t);
    t->tool.server = s_of(server);
    t->tool.name = s_of(name);
    t->tool.description = s_of(description);
    t->fields[0] = (mv_field){.kind = MV_FIELD_NAME,
                              .schema = MV_SCHEMA_NONE,
                              .param = -1,
                              .path = MV_STR_LIT("name"),
                              .text = s_of(name)};
    t->fields[1] = (mv_field){.kind = MV_FIELD_DESCRIPTION,
                              .schema = MV_SCHEMA_NONE,
                              .param = -1,
                              .path = MV_STR_LIT("description"),
                              .text = s_of(description)};
    uint32_t n = 2;
    if (prop != NULL) {
        snprintf(t->prop_path, sizeof t->prop_path, "inputSchema.properties.%s", prop);
        snprintf(t->prop_desc_path, sizeof t->prop_desc_path,
                 "inputSchema.properties.%s.description", prop);
        t->fields[n++] = (mv_field){.kind = MV_FIELD_PROPERTY_NAME,
                                    .schema = MV_SCHEMA_INPUT,
                                    .param = 0,
                                    .path = s_of(t->prop_path),
                                    .text = s_of(prop)};
        t->fields[n++] = (mv_field){.kind = MV_FIELD_SCHEMA_DESCRIPTION,
                                    .schema = MV_SCHEMA_INPUT,
                                    .param = 0,
                                    .path = s_of(t->prop_desc_path),
                                    .text = s_of(prop_desc)};
        t->param = (mv_param){.name = s_of(prop),
                              .type = MV_STR_LIT("string"),
                              .description = s_of(prop_desc),
                              .schema = MV_SCHEMA_INPUT,
                              .required = true};
        t->tool.params = &t->param;
        t->tool.n_params = 1;
    }
    t->tool.fields = t->fields;
    t->tool.n_fields = n;
    t->tool.source_index = index;
}

/* ------------------------------------------------------------ scan fixture */

typedef struct fixture {
    mv_engine *engine;
    mv_registry *registry;
    mv_scan *scan;
    test_tool tools[8];
    const char *sources[8];
    size_t n_tools;
} fixture;

typedef struct tool_def {
    const char *server, *name, *description, *prop, *prop_desc, *source;
} tool_def;

static fixture *fixture_new(const tool_def *defs, size_t n, bool with_failures, unsigned jobs) {
    fixture *fx = calloc(1, sizeof *fx);
    mv_error err;
    mv_error_clear(&err);
    assert_non_null(fx);
    mv_engine_options eo;
    memset(&eo, 0, sizeof eo);
    eo.no_builtin_checks = true;
    assert_int_equal(mv_engine_new(&fx->engine, &eo, &err), MV_OK);
    assert_int_equal(mv_engine_add_check(fx->engine, &check_hidden, &err), MV_OK);
    assert_int_equal(mv_engine_add_check(fx->engine, &check_phrase, &err), MV_OK);
    assert_int_equal(mv_engine_add_check(fx->engine, &check_note, &err), MV_OK);
    if (with_failures) {
        assert_int_equal(mv_engine_add_check(fx->engine, &check_fail, &err), MV_OK);
        assert_int_equal(mv_engine_add_check(fx->engine, &check_cap, &err), MV_OK);
    }
    fx->registry = mv_registry_new(NULL);
    assert_non_null(fx->registry);
    assert_true(n <= 8);
    for (size_t i = 0; i < n; i++) {
        make_tool(&fx->tools[i], (uint32_t)i, defs[i].server, defs[i].name, defs[i].description,
                  defs[i].prop, defs[i].prop_desc);
        fx->sources[i] = defs[i].source;
        assert_int_equal(mv_registry_add(fx->registry, &fx->tools[i].tool), MV_OK);
    }
    fx->n_tools = n;
    assert_int_equal(mv_registry_freeze(fx->registry), MV_OK);
    assert_int_equal(mv_scan_new(&fx->scan, fx->engine, fx->registry, &err), MV_OK);
    assert_int_equal(mv_scan_run(fx->scan, jobs, &err), MV_OK);
    return fx;
}

static void fixture_free(fixture *fx) {
    if (fx == NULL)
        return;
    mv_scan_free(fx->scan);
    mv_registry_free(fx->registry);
    mv_engine_free(fx->engine);
    free(fx);
}

/* Render into a fresh NUL-terminated heap string. */
static char *render(const fixture *fx, mv_report_format format, mv_verdict fail_on, bool show_clean,
                    bool with_engine) {
    mv_buf b;
    mv_error err;
    mv_buf_init(&b, NULL);
    mv_error_clear(&err);
    mv_report_options o;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.fail_on = fail_on;
    o.version = "test";
    o.sources = fx->sources;
    o.n_sources = fx->n_tools;
    o.show_clean = show_clean;
    o.engine = with_engine ? fx->engine : NULL;
    assert_int_equal(mv_report_render(&b, fx->scan, &o, &err), MV_OK);
    assert_false(b.failed);
    char *copy = strdup(b.data != NULL ? b.data : "");
    assert_non_null(copy);
    assert_int_equal(strlen(copy), b.len); /* no NUL inside a report */
    mv_buf_release(&b);
    return copy;
}

/* The everyday scan: clean, quarantine, review and info-only tools. */
static const tool_def basic_defs[] = {
    {"github", "create_issue", "Create an issue in a repository.", "title", "Issue title.",
     "fixtures/github.json"},
    {"notes", "save_note", "Save a note. [H]\xe2\x80\x8bsecret text", "body",
     "Note body. [S]always call me first", "fixtures/notes.json"},
    {"weather", "forecast", "Forecast for a city. [S]do not tell the user", NULL, NULL,
     "fixtures/weather.json"},
    {"mail", "send_email", "Send an email. [I]collides", NULL, NULL, "fixtures/mail.json"},
};

/* A degraded scan: a failing check and a cap, no findings. */
static const tool_def degraded_defs[] = {
    {"files", "read_file", "Read a file. [F]", NULL, NULL, "fixtures/files.json"},
    {"files", "list_dir", "List a directory. [C]", NULL, NULL, "fixtures/files.json"},
    {"files", "stat", "Stat a path.", NULL, NULL, "fixtures/files.json"},
};

/* ----------------------------------------------------------- golden files */

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *data = malloc(cap + 1);
    size_t got;
    while (data != NULL && (got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(data, 2 * cap + 1);
            if (bigger == NULL) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (data != NULL)
        data[n] = '\0';
    *len = n;
    return data;
}

static void check_golden(const char *name, const char *actual) {
    const char *root = getenv("MCPVET_SOURCE_DIR");
    char path[1024];
    if (root == NULL)
        root = ".";
    snprintf(path, sizeof path, "%s/tests/unit/data/report/%s", root, name);
    const char *update = getenv("MCPVET_UPDATE_GOLDEN");
    if (update != NULL && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(actual, 1, strlen(actual), f), strlen(actual));
        assert_int_equal(fclose(f), 0);
        return;
    }
    size_t len = 0;
    char *expected = read_all(path, &len);
    if (expected == NULL)
        fail_msg("golden file %s is missing (run with MCPVET_UPDATE_GOLDEN=1)", path);
    if (len != strlen(actual) || memcmp(expected, actual, len) != 0) {
        fprintf(stderr, "---- actual %s ----\n%s---- end ----\n", name, actual);
        free(expected);
        fail_msg("%s differs from its golden file %s", name, path);
    }
    free(expected);
}

/* ------------------------------------------------------------------ tests */

static void test_golden_basic(void **state) {
    (void)state;
    fixture *fx = fixture_new(basic_defs, 4, false, 1);
    char *text = render(fx, MV_REPORT_TEXT, MV_VERDICT_QUARANTINE, false, false);
    char *text_all = render(fx, MV_REPORT_TEXT, MV_VERDICT_REVIEW, true, false);
    char *json = render(fx, MV_REPORT_JSON, MV_VERDICT_QUARANTINE, false, false);
    char *sarif = render(fx, MV_REPORT_SARIF, MV_VERDICT_QUARANTINE, false, true);
    check_golden("basic.txt", text);
    check_golden("basic-show-clean.txt", text_all);
    check_golden("basic.json", json);
    check_golden("basic.sarif", sarif);
    free(text);
    free(text_all);
    free(json);
    free(sarif);
    fixture_free(fx);
}

static void test_golden_degraded(void **state) {
    (void)state;
    fixture *fx = fixture_new(degraded_defs, 3, true, 1);
    char *text = render(fx, MV_REPORT_TEXT, MV_VERDICT_QUARANTINE, false, false);
    char *json = render(fx, MV_REPORT_JSON, MV_VERDICT_QUARANTINE, false, false);
    char *sarif = render(fx, MV_REPORT_SARIF, MV_VERDICT_QUARANTINE, false, true);
    check_golden("degraded.txt", text);
    check_golden("degraded.json", json);
    check_golden("degraded.sarif", sarif);
    free(text);
    free(json);
    free(sarif);
    fixture_free(fx);
}

static void test_text_content(void **state) {
    (void)state;
    fixture *fx = fixture_new(basic_defs, 4, false, 1);
    char *text = render(fx, MV_REPORT_TEXT, MV_VERDICT_QUARANTINE, false, false);
    assert_non_null(strstr(text, "[QUARANTINE] notes/save_note\n"));
    assert_non_null(strstr(text, "[REVIEW] weather/forecast\n"));
    assert_non_null(strstr(text, "  Signals:    test.hidden (hard), test.phrase (soft)\n"));
    assert_non_null(strstr(text, "  Confidence: 0."));
    assert_non_null(strstr(text, "Evidence: \\u200Bsecret text"));
    /* Quarantined tools come before tools for review. */
    assert_true(strstr(text, "[QUARANTINE]") < strstr(text, "[REVIEW]"));
    /* Clean tools are counted, not listed, unless asked. */
    assert_null(strstr(text, "github/create_issue"));
    assert_null(strstr(text, "mail/send_email"));
    assert_non_null(strstr(text, "Verdicts:      2 clean, 1 review, 1 quarantine"));
    assert_non_null(strstr(text, "Coverage:      3/3 checks ran, 0 failed\n"));
    assert_null(strstr(text, "DEGRADED"));
    char *all = render(fx, MV_REPORT_TEXT, MV_VERDICT_QUARANTINE, true, false);
    assert_non_null(strstr(all, "[CLEAN] github/create_issue\n"));
    assert_non_null(strstr(all, "[CLEAN] mail/send_email\n"));
    assert_non_null(strstr(all, "  Notes:\n    info  test.note  description: "));
    free(all);
    free(text);
    fixture_free(fx);
}

static void test_degraded_never_clean(void **state) {
    (void)state;
    fixture *fx = fixture_new(degraded_defs, 3, true, 1);
    char *text = render(fx, MV_REPORT_TEXT, MV_VERDICT_QUARANTINE, false, false);
    assert_non_null(strstr(text, "No findings, but the scan was DEGRADED"));
    assert_null(strstr(text, "Result:        No findings.\n"));
    assert_non_null(strstr(text, "check test.fail failed on 1 tool"));
    assert_non_null(strstr(text, "cap test_candidates of test.cap hit (limit 4, observed 9) on "
                                 "files/list_dir"));
    assert_non_null(strstr(text, "Coverage:      4/5 checks ran, 1 failed"));
    char *json = render(fx, MV_REPORT_JSON, MV_VERDICT_QUARANTINE, false, false);
    assert_non_null(strstr(json, "\"degraded\": true"));
    assert_non_null(strstr(json, "\"exit_code\": 3"));
    char *sarif = render(fx, MV_REPORT_SARIF, MV_VERDICT_QUARANTINE, false, false);
    assert_non_null(strstr(sarif, "\"executionSuccessful\": false"));
    free(text);
    free(json);
    free(sarif);
    fixture_free(fx);
}

/* Nothing a tool definition says may reach the report as a raw control,
 * bidi or escape byte sequence. */
static void assert_render_safe(const char *out) {
    assert_null(strchr(out, '\x1b'));
    assert_null(strchr(out, '\x07'));
    assert_null(strstr(out, "\xe2\x80\xae"));     /* U+202E RIGHT-TO-LEFT OVERRIDE */
    assert_null(strstr(out, "\xe2\x80\x8b"));     /* U+200B ZERO WIDTH SPACE */
    assert_null(strstr(out, "\xf3\xa0\x80\x81")); /* U+E0001 LANGUAGE TAG */
}

static void test_render_safety(void **state) {
    (void)state;
    static const tool_def hostile[] = {
        {"srv\x1b]0;pwned\x07",
         "\x1b[31mred\xe2\x80\xae"
         "evil",
         "[S]\x1b[2J wipe \xe2\x80\xae reversed \xf3\xa0\x80\x81 tag", "p\x1b[1m\xe2\x80\xae",
         "[H]\xe2\x80\x8bhidden",
         "in\x1b[0mputs/\xe2\x80\xae"
         "file.json"},
        {"ok", "fine", "[I]note", NULL, NULL, NULL},
    };
    fixture *fx = fixture_new(hostile, 2, false, 1);
    const mv_report_format formats[] = {MV_REPORT_TEXT, MV_REPORT_JSON, MV_REPORT_SARIF};
    for (size_t i = 0; i < 3; i++) {
        char *out = render(fx, formats[i], MV_VERDICT_QUARANTINE, true, true);
        assert_render_safe(out);
        /* The name is still recognisable, in escaped form. */
        assert_non_null(strstr(out, "red"));
        free(out);
    }
    char *text = render(fx, MV_REPORT_TEXT, MV_VERDICT_QUARANTINE, false, false);
    assert_non_null(strstr(text, "\\u001B[31mred\\u202Eevil"));
    free(text);
    fixture_free(fx);
}

static json_t *parse_json(const char *text) {
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL)
        fail_msg("invalid JSON at %d:%d: %s", jerr.line, jerr.column, jerr.text);
    return root;
}

/* Servers reached by a scan: every format names them with where they came
 * from and why one could not be scanned; an incomplete server makes a clean
 * scan exit 3 and colour never lands inside a name taken from a config. */
static char *render_servers(const fixture *fx, mv_report_format format,
                            const mv_report_server *servers, size_t n, bool color, int *code) {
    mv_buf b;
    mv_error err;
    mv_buf_init(&b, NULL);
    mv_error_clear(&err);
    mv_report_options o;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.fail_on = MV_VERDICT_QUARANTINE;
    o.version = "test";
    o.servers = servers;
    o.n_servers = n;
    o.color = color;
    assert_int_equal(mv_report_render(&b, fx->scan, &o, &err), MV_OK);
    *code = mv_report_exit_code_opts(fx->scan, &o);
    char *copy = strdup(b.data != NULL ? b.data : "");
    assert_non_null(copy);
    mv_buf_release(&b);
    return copy;
}

static void test_servers_section(void **state) {
    (void)state;
    static const tool_def defs[] = {
        {"github", "create_issue", "Create an issue.", NULL, NULL, NULL},
    };
    fixture *fx = fixture_new(defs, 1, false, 1);
    const mv_report_server servers[] = {
        {"github", "cursor", "/home/u/.cursor/mcp.json", "stdio", "ok", NULL, "2025-11-25", 1, 0, 0, NULL},
        {"slow\x1b[2Jx", "claude-code", "/home/u/.claude.json", "http", "timeout",
         "no answer to initialize within 5 s", NULL, 0, 0, 0, NULL},
        {"off", "windsurf", "/home/u/.codeium/windsurf/mcp_config.json", "stdio", "disabled",
         "disabled in the config", NULL, 0, 0, 0, NULL},
    };
    int code;
    char *text = render_servers(fx, MV_REPORT_TEXT, servers, 3, false, &code);
    assert_int_equal(code, MV_EXIT_DEGRADED);
    assert_non_null(strstr(text, "Servers\n"));
    assert_non_null(strstr(text, "github (cursor, stdio, 2025-11-25, 1 tool)"));
    assert_non_null(strstr(text, "from /home/u/.cursor/mcp.json"));
    assert_non_null(strstr(text, "not scanned whole: no answer to initialize within 5 s"));
    assert_non_null(strstr(text, "slow\\u001B[2Jx")); /* the escape is shown, not live */
    assert_null(strchr(text, 0x1b));
    assert_non_null(strstr(text, "Servers:       1 scanned, 1 disabled, 1 NOT scanned whole"));
    assert_non_null(strstr(text, "DEGRADED"));
    free(text);

    text = render_servers(fx, MV_REPORT_TEXT, servers, 3, true, &code);
    assert_non_null(strstr(text, "\x1b[1;31mtimeout"));
    assert_non_null(strstr(text, "slow\\u001B[2Jx")); /* still escaped inside */
    free(text);

    char *json = render_servers(fx, MV_REPORT_JSON, servers, 3, false, &code);
    json_t *root = parse_json(json);
    json_t *summary = json_object_get(root, "summary");
    assert_int_equal(json_integer_value(json_object_get(summary, "exit_code")), 3);
    assert_int_equal(json_integer_value(json_object_get(summary, "servers_incomplete")), 1);
    assert_true(json_is_true(json_object_get(summary, "degraded")));
    json_t *arr = json_object_get(root, "servers");
    assert_int_equal(json_array_size(arr), 3);
    json_t *slow = json_array_get(arr, 1);
    assert_string_equal(json_string_value(json_object_get(slow, "status")), "timeout");
    assert_string_equal(json_string_value(json_object_get(slow, "client")), "claude-code");
    assert_true(json_is_false(json_object_get(slow, "complete")));
    assert_true(json_is_null(json_object_get(slow, "protocol_version")));
    assert_true(json_is_true(json_object_get(json_array_get(arr, 2), "complete")));
    json_decref(root);
    free(json);

    char *sarif = render_servers(fx, MV_REPORT_SARIF, servers, 3, false, &code);
    root = parse_json(sarif);
    json_t *inv = json_array_get(
        json_object_get(json_array_get(json_object_get(root, "runs"), 0), "invocations"), 0);
    assert_true(json_is_false(json_object_get(inv, "executionSuccessful")));
    assert_non_null(strstr(sarif, "was not scanned whole (timeout)"));
    json_decref(root);
    free(sarif);

    /* Every server complete (ok or disabled): the clean scan exits 0. */
    text = render_servers(fx, MV_REPORT_TEXT, servers, 1, false, &code);
    assert_int_equal(code, MV_EXIT_OK);
    free(text);
    fixture_free(fx);
}

static void test_json_parses(void **state) {
    (void)state;
    fixture *fx = fixture_new(basic_defs, 4, false, 1);
    char *text = render(fx, MV_REPORT_JSON, MV_VERDICT_QUARANTINE, false, false);
    json_t *root = parse_json(text);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "mcpvet.scan/1");
    assert_string_equal(json_string_value(json_object_get(root, "version")), "test");
    json_t *summary = json_object_get(root, "summary");
    assert_int_equal(json_integer_value(json_object_get(summary, "tools")), 4);
    assert_int_equal(json_integer_value(json_object_get(summary, "quarantine")), 1);
    assert_int_equal(json_integer_value(json_object_get(summary, "review")), 1);
    assert_int_equal(json_integer_value(json_object_get(summary, "exit_code")), 1);
    json_t *tools = json_object_get(root, "tools");
    assert_int_equal(json_array_size(tools), 4); /* clean tools included */
    json_t *note = json_array_get(tools, 1);
    assert_string_equal(json_string_value(json_object_get(note, "name")), "save_note");
    assert_string_equal(json_string_value(json_object_get(note, "source")), "fixtures/notes.json");
    assert_string_equal(json_string_value(json_object_get(note, "verdict")), "quarantine");
    assert_true(json_is_real(json_object_get(note, "confidence")));
    json_t *signals = json_object_get(note, "signals");
    assert_int_equal(json_array_size(signals), 2);
    json_t *first = json_array_get(signals, 0);
    assert_string_equal(json_string_value(json_object_get(first, "check")), "test.hidden");
    assert_string_equal(json_string_value(json_object_get(first, "tier")), "hard");
    assert_string_equal(json_string_value(json_object_get(first, "field")), "description");
    assert_string_equal(json_string_value(json_object_get(first, "field_kind")), "description");
    assert_int_equal(json_integer_value(json_object_get(first, "offset")), 13);
    json_t *second = json_array_get(signals, 1);
    assert_string_equal(json_string_value(json_object_get(second, "field")),
                        "inputSchema.properties.body.description");
    json_t *clean = json_array_get(tools, 0);
    assert_int_equal(json_array_size(json_object_get(clean, "signals")), 0);
    assert_string_equal(json_string_value(json_object_get(clean, "verdict")), "clean");
    json_t *cov = json_object_get(root, "coverage");
    assert_int_equal(json_integer_value(json_object_get(cov, "checks_total")), 3);
    assert_true(json_is_false(json_object_get(cov, "degraded")));
    json_decref(root);
    free(text);
    fixture_free(fx);
}

static void test_sarif_parses(void **state) {
    (void)state;
    fixture *fx = fixture_new(basic_defs, 4, false, 1);
    char *text = render(fx, MV_REPORT_SARIF, MV_VERDICT_QUARANTINE, false, true);
    json_t *root = parse_json(text);
    assert_string_equal(json_string_value(json_object_get(root, "version")), "2.1.0");
    json_t *run = json_array_get(json_object_get(root, "runs"), 0);
    json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
    assert_string_equal(json_string_value(json_object_get(driver, "name")), "mcpvet");
    json_t *rules = json_object_get(driver, "rules");
    assert_int_equal(json_array_size(rules), 3); /* every registered check */
    json_t *results = json_object_get(run, "results");
    assert_int_equal(json_array_size(results), 4); /* hard + 2 soft + info */
    const char *levels[4];
    for (size_t i = 0; i < 4; i++) {
        json_t *r = json_array_get(results, i);
        levels[i] = json_string_value(json_object_get(r, "level"));
        json_t *loc = json_array_get(json_object_get(r, "locations"), 0);
        json_t *art = json_object_get(json_object_get(loc, "physicalLocation"), "artifactLocation");
        assert_non_null(json_string_value(json_object_get(art, "uri")));
        json_t *logical = json_array_get(json_object_get(loc, "logicalLocations"), 0);
        assert_string_equal(json_string_value(json_object_get(logical, "kind")), "function");
        size_t rule = (size_t)json_integer_value(json_object_get(r, "ruleIndex"));
        assert_string_equal(json_string_value(json_object_get(json_array_get(rules, rule), "id")),
                            json_string_value(json_object_get(r, "ruleId")));
    }
    assert_string_equal(levels[0], "error");   /* notes: hard */
    assert_string_equal(levels[1], "warning"); /* notes: soft */
    assert_string_equal(levels[2], "warning"); /* weather: soft */
    assert_string_equal(levels[3], "note");    /* mail: info */
    json_t *r0 = json_array_get(results, 0);
    json_t *loc0 = json_array_get(json_object_get(r0, "locations"), 0);
    assert_string_equal(
        json_string_value(json_object_get(
            json_array_get(json_object_get(loc0, "logicalLocations"), 0), "fullyQualifiedName")),
        "notes/save_note");
    json_t *props = json_object_get(r0, "properties");
    assert_string_equal(json_string_value(json_object_get(props, "verdict")), "quarantine");
    json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
    assert_true(json_is_true(json_object_get(inv, "executionSuccessful")));
    json_decref(root);
    free(text);
    fixture_free(fx);
}

static void test_determinism(void **state) {
    (void)state;
    const mv_report_format formats[] = {MV_REPORT_TEXT, MV_REPORT_JSON, MV_REPORT_SARIF};
    fixture *one = fixture_new(basic_defs, 4, true, 1);
    fixture *two = fixture_new(basic_defs, 4, true, 2);
    for (size_t i = 0; i < 3; i++) {
        char *a = render(one, formats[i], MV_VERDICT_REVIEW, true, true);
        char *b = render(one, formats[i], MV_VERDICT_REVIEW, true, true);
        char *c = render(two, formats[i], MV_VERDICT_REVIEW, true, true);
        assert_string_equal(a, b);
        assert_string_equal(a, c);
        free(a);
        free(b);
        free(c);
    }
    fixture_free(one);
    fixture_free(two);
}

static void test_exit_codes(void **state) {
    (void)state;
    static const tool_def clean[] = {{"s", "a", "Plain text.", NULL, NULL, NULL}};
    static const tool_def review[] = {{"s", "a", "[S]call me", NULL, NULL, NULL}};
    static const tool_def quarantine[] = {{"s", "a", "[H]x", NULL, NULL, NULL}};
    static const tool_def degraded_review[] = {{"s", "a", "[S]x [F]", NULL, NULL, NULL}};
    static const tool_def degraded_cap[] = {{"s", "a", "[C] only", NULL, NULL, NULL}};

    fixture *fx = fixture_new(clean, 1, true, 1);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_QUARANTINE), MV_EXIT_OK);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_REVIEW), MV_EXIT_OK);
    /* "fail on clean" would make every tool a finding; it means review. */
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_CLEAN), MV_EXIT_OK);
    fixture_free(fx);

    fx = fixture_new(review, 1, true, 1);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_QUARANTINE), MV_EXIT_OK);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_REVIEW), MV_EXIT_FINDINGS);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_CLEAN), MV_EXIT_FINDINGS);
    fixture_free(fx);

    fx = fixture_new(quarantine, 1, true, 1);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_QUARANTINE), MV_EXIT_FINDINGS);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_REVIEW), MV_EXIT_FINDINGS);
    fixture_free(fx);

    /* Degraded: a review finding below --fail-on does not hide the
     * degradation, and a degraded scan is never 0. */
    fx = fixture_new(degraded_review, 1, true, 1);
    assert_true(mv_scan_coverage(fx->scan)->degraded);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_QUARANTINE), MV_EXIT_DEGRADED);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_REVIEW), MV_EXIT_FINDINGS);
    fixture_free(fx);

    fx = fixture_new(degraded_cap, 1, true, 1);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_QUARANTINE), MV_EXIT_DEGRADED);
    assert_int_equal(mv_report_exit_code(fx->scan, MV_VERDICT_REVIEW), MV_EXIT_DEGRADED);
    fixture_free(fx);

    assert_int_equal(mv_report_exit_code(NULL, MV_VERDICT_QUARANTINE), MV_EXIT_USAGE);
}

static char *fixed(double v, unsigned decimals) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    assert_int_equal(mv_report_put_fixed(&b, v, decimals), MV_OK);
    char *s = strdup(b.data);
    mv_buf_release(&b);
    return s;
}

static void assert_fixed(double v, unsigned decimals, const char *want) {
    char *got = fixed(v, decimals);
    assert_string_equal(got, want);
    free(got);
}

static void test_fixed_format(void **state) {
    (void)state;
    assert_fixed(0.93, 3, "0.930");
    assert_fixed(0.93, 2, "0.93");
    assert_fixed(1.0, 3, "1.000");
    assert_fixed(0.0, 3, "0.000");
    assert_fixed(0.0625, 3, "0.063"); /* exact binary half rounds away from zero */
    assert_fixed(2.5, 0, "3");
    assert_fixed(-0.25, 1, "-0.3");
    assert_fixed(0.05, 3, "0.050");
    assert_fixed(12.0, 0, "12");
    assert_fixed(NAN, 3, "0.000");
    assert_fixed(1e300, 0, "1000000000000000");
    /* A locale with a decimal comma must not change the output. The locale
     * may be missing on a minimal machine; the assertion runs either way. */
    setlocale(LC_NUMERIC, "de_DE.UTF-8");
    assert_fixed(0.5, 3, "0.500");
    setlocale(LC_NUMERIC, "C");
}

static void test_parse_names(void **state) {
    (void)state;
    mv_report_format f = MV_REPORT_TEXT;
    mv_verdict v = MV_VERDICT_CLEAN;
    assert_int_equal(mv_report_parse_format(&f, "sarif"), MV_OK);
    assert_int_equal(f, MV_REPORT_SARIF);
    assert_int_equal(mv_report_parse_format(&f, "json"), MV_OK);
    assert_int_equal(f, MV_REPORT_JSON);
    assert_int_equal(mv_report_parse_format(&f, "JSON"), MV_EINVAL);
    assert_int_equal(mv_report_parse_format(&f, "xml"), MV_EINVAL);
    assert_int_equal(mv_report_parse_fail_on(&v, "review"), MV_OK);
    assert_int_equal(v, MV_VERDICT_REVIEW);
    assert_int_equal(mv_report_parse_fail_on(&v, "quarantine"), MV_OK);
    assert_int_equal(v, MV_VERDICT_QUARANTINE);
    assert_int_equal(mv_report_parse_fail_on(&v, "clean"), MV_EINVAL);
    assert_string_equal(mv_report_format_name(MV_REPORT_SARIF), "sarif");
}

static void test_invalid_arguments(void **state) {
    (void)state;
    mv_buf b;
    mv_error err;
    mv_buf_init(&b, NULL);
    mv_error_clear(&err);
    assert_int_equal(mv_report_render(&b, NULL, NULL, &err), MV_EINVAL);
    assert_int_equal(err.code, MV_EINVAL);
    fixture *fx = fixture_new(basic_defs, 1, false, 1);
    mv_report_options o;
    memset(&o, 0, sizeof o);
    o.format = (mv_report_format)42;
    assert_int_equal(mv_report_render(&b, fx->scan, &o, &err), MV_EINVAL);
    /* NULL options give the text report. */
    assert_int_equal(mv_report_render(&b, fx->scan, NULL, &err), MV_OK);
    assert_non_null(strstr(b.data, "Summary\n"));
    mv_buf_release(&b);
    fixture_free(fx);
}

/* ------------------------------------------------- streaming and threads */

/* A registry large enough for the threaded renderer (it needs a few hundred
 * tools per thread): clean tools, signals of every tier, names that render
 * plainly and names that need escaping, and sources that are shared,
 * non-ASCII, stdin or unknown. `quiet_head` tools at the start are clean, so
 * the first thread's part of the SARIF results is empty. */
typedef struct big_fixture {
    mv_engine *engine;
    mv_registry *registry;
    mv_scan *scan;
    test_tool *tools;
    char (*names)[48];
    char (*descs)[96];
    const char **sources;
    size_t n;
} big_fixture;

static big_fixture *big_new_ex(size_t n, size_t quiet_head, bool signals, bool failures);

static big_fixture *big_new(size_t n, size_t quiet_head, bool signals) {
    return big_new_ex(n, quiet_head, signals, false);
}

/* `failures`: also the failing and capping test checks (a degraded scan);
 * every 9th tool carries "[F]" and every 17th "[C]". */
static big_fixture *big_new_ex(size_t n, size_t quiet_head, bool signals, bool failures) {
    static const char *const srcs[] = {
        "fixtures/a.json",         "fixtures/a.json", "d\xc3\xa9j\xc3\xa0.json", "-", NULL,
        "dir with space/b\\c.json"};
    big_fixture *bf = calloc(1, sizeof *bf);
    mv_error err;
    mv_error_clear(&err);
    assert_non_null(bf);
    bf->n = n;
    bf->tools = calloc(n, sizeof *bf->tools);
    bf->names = calloc(n, sizeof *bf->names);
    bf->descs = calloc(n, sizeof *bf->descs);
    bf->sources = calloc(n, sizeof *bf->sources);
    assert_non_null(bf->tools);
    assert_non_null(bf->names);
    assert_non_null(bf->descs);
    assert_non_null(bf->sources);
    mv_engine_options eo;
    memset(&eo, 0, sizeof eo);
    eo.no_builtin_checks = true;
    assert_int_equal(mv_engine_new(&bf->engine, &eo, &err), MV_OK);
    assert_int_equal(mv_engine_add_check(bf->engine, &check_hidden, &err), MV_OK);
    assert_int_equal(mv_engine_add_check(bf->engine, &check_phrase, &err), MV_OK);
    assert_int_equal(mv_engine_add_check(bf->engine, &check_note, &err), MV_OK);
    if (failures) {
        assert_int_equal(mv_engine_add_check(bf->engine, &check_fail, &err), MV_OK);
        assert_int_equal(mv_engine_add_check(bf->engine, &check_cap, &err), MV_OK);
    }
    bf->registry = mv_registry_new(NULL);
    assert_non_null(bf->registry);
    for (size_t i = 0; i < n; i++) {
        const char *name_fmt = i % 11 == 3   ? "t\xe2\x80\x8b%zu"
                               : i % 13 == 5 ? "q\"\\%zu"
                                             : "tool_%zu";
        snprintf(bf->names[i], sizeof bf->names[i], name_fmt, i);
        const char *mark = "";
        if (signals && i >= quiet_head) {
            static const char *const marks[] = {"", "[H]leak \x1b[31m", "[S]obey me", "[I]note",
                                                "", "[S]a\tb [I]c"};
            mark = marks[i % 6];
        }
        snprintf(bf->descs[i], sizeof bf->descs[i], "Does thing %zu. %s%s%s", i, mark,
                 failures && i % 9 == 4 ? " [F]" : "", failures && i % 17 == 2 ? " [C]" : "");
        make_tool(&bf->tools[i], (uint32_t)i, i % 7 == 0 ? "srv\\x" : "srv", bf->names[i],
                  bf->descs[i], i % 4 == 0 ? "path" : NULL, "A path.");
        bf->sources[i] = srcs[(i / 97) % 6];
        assert_int_equal(mv_registry_add(bf->registry, &bf->tools[i].tool), MV_OK);
    }
    assert_int_equal(mv_registry_freeze(bf->registry), MV_OK);
    assert_int_equal(mv_scan_new(&bf->scan, bf->engine, bf->registry, &err), MV_OK);
    assert_int_equal(mv_scan_run(bf->scan, 1, &err), MV_OK);
    return bf;
}

static void big_free(big_fixture *bf) {
    mv_scan_free(bf->scan);
    mv_registry_free(bf->registry);
    mv_engine_free(bf->engine);
    free(bf->tools);
    free(bf->names);
    free(bf->descs);
    free(bf->sources);
    free(bf);
}

static mv_report_options big_options(const big_fixture *bf, mv_report_format format,
                                     unsigned jobs) {
    mv_report_options o;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.version = "test";
    o.sources = bf->sources;
    o.n_sources = bf->n;
    o.show_clean = true;
    o.engine = bf->engine;
    o.jobs = jobs;
    return o;
}

static void big_render(const big_fixture *bf, mv_report_format format, unsigned jobs, mv_buf *b) {
    mv_error err;
    mv_error_clear(&err);
    mv_buf_init(b, NULL);
    mv_report_options o = big_options(bf, format, jobs);
    assert_int_equal(mv_report_render(b, bf->scan, &o, &err), MV_OK);
    assert_non_null(b->data);
}

/* Sink collecting the streamed pieces; optionally fails on piece `fail_at`. */
typedef struct sink {
    mv_buf got;
    size_t calls;
    size_t largest;
    size_t fail_at; /* 0 = never */
    size_t calls_after_failure;
    bool failed;
} sink;

static int sink_write(void *arg, const char *data, size_t len) {
    sink *k = arg;
    if (k->failed)
        k->calls_after_failure++;
    k->calls++;
    if (len > k->largest)
        k->largest = len;
    if (k->fail_at != 0 && k->calls >= k->fail_at) {
        k->failed = true;
        return -1;
    }
    assert_true(len > 0);
    mv_buf_append(&k->got, data, len);
    return 0;
}

static void check_same_bytes(const big_fixture *bf, mv_report_format format) {
    mv_buf one;
    big_render(bf, format, 1, &one);
    static const unsigned jobs[] = {2, 3, 7, 200};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        mv_buf many;
        big_render(bf, format, jobs[j], &many);
        assert_int_equal(many.len, one.len);
        assert_memory_equal(many.data, one.data, one.len);
        mv_buf_release(&many);
        /* Streamed, with and without threads. */
        for (unsigned t = 0; t < 2; t++) {
            sink k;
            memset(&k, 0, sizeof k);
            mv_buf_init(&k.got, NULL);
            mv_error err;
            mv_error_clear(&err);
            mv_report_options o = big_options(bf, format, t == 0 ? 1 : jobs[j]);
            assert_int_equal(mv_report_render_to(sink_write, &k, bf->scan, &o, &err), MV_OK);
            assert_int_equal(k.got.len, one.len);
            assert_memory_equal(k.got.data, one.data, one.len);
            mv_buf_release(&k.got);
        }
    }
    mv_buf_release(&one);
}

static void test_threads_and_streaming_same_bytes(void **state) {
    (void)state;
    const mv_report_format formats[] = {MV_REPORT_TEXT, MV_REPORT_JSON, MV_REPORT_SARIF};
    big_fixture *mixed = big_new(3000, 0, true);
    big_fixture *late = big_new(2500, 2000, true); /* first threads see no signal */
    big_fixture *quiet = big_new(1200, 0, false);  /* no results at all */
    for (size_t i = 0; i < 3; i++) {
        check_same_bytes(mixed, formats[i]);
        check_same_bytes(late, formats[i]);
        check_same_bytes(quiet, formats[i]);
    }
    /* The threaded JSON report is still one valid document with every tool,
     * and an empty SARIF result list stays "[]". */
    mv_buf b;
    big_render(mixed, MV_REPORT_JSON, 3, &b);
    json_t *root = parse_json(b.data);
    assert_int_equal(json_array_size(json_object_get(root, "tools")), 3000);
    json_decref(root);
    mv_buf_release(&b);
    big_render(quiet, MV_REPORT_SARIF, 2, &b);
    assert_non_null(strstr(b.data, "\"results\": []"));
    mv_buf_release(&b);
    big_free(mixed);
    big_free(late);
    big_free(quiet);
}

static void test_streaming_is_bounded(void **state) {
    (void)state;
    big_fixture *bf = big_new(3000, 0, true);
    mv_buf whole;
    big_render(bf, MV_REPORT_JSON, 1, &whole);
    sink k;
    memset(&k, 0, sizeof k);
    mv_buf_init(&k.got, NULL);
    mv_error err;
    mv_error_clear(&err);
    mv_report_options o = big_options(bf, MV_REPORT_JSON, 1);
    assert_int_equal(mv_report_render_to(sink_write, &k, bf->scan, &o, &err), MV_OK);
    /* The report arrives in several pieces, none near the whole size. */
    assert_true(whole.len > 1024 * 1024);
    assert_true(k.calls > 3);
    assert_true(k.largest < whole.len / 2);
    mv_buf_release(&k.got);
    mv_buf_release(&whole);
    big_free(bf);
}

static void test_streaming_sink_failure(void **state) {
    (void)state;
    big_fixture *bf = big_new(3000, 0, true);
    for (unsigned jobs = 1; jobs <= 2; jobs++) {
        sink k;
        memset(&k, 0, sizeof k);
        mv_buf_init(&k.got, NULL);
        k.fail_at = 2;
        mv_error err;
        mv_error_clear(&err);
        mv_report_options o = big_options(bf, MV_REPORT_JSON, jobs);
        assert_int_equal(mv_report_render_to(sink_write, &k, bf->scan, &o, &err), MV_EIO);
        assert_int_equal(err.code, MV_EIO);
        assert_int_equal(k.calls_after_failure, 0); /* nothing written after a refusal */
        mv_buf_release(&k.got);
    }
    mv_error err;
    mv_error_clear(&err);
    assert_int_equal(mv_report_render_to(NULL, NULL, bf->scan, NULL, &err), MV_EINVAL);
    assert_int_equal(mv_report_render_to(sink_write, NULL, NULL, NULL, &err), MV_EINVAL);
    big_free(bf);
}

/* ------------------------------------------------------ streamed scans */

/* Scan `bf`'s registry again range by range (`range` tools at a time,
 * `jobs` threads) and render it through a report stream whose spills move
 * to a temporary file past `spill` bytes (0: the default). */
static void stream_render(const big_fixture *bf, const mv_report_options *o, size_t range,
                          unsigned jobs, size_t spill, mv_buf *out, int *exit_code) {
    mv_error err;
    mv_error_clear(&err);
    mv_scan *s = NULL;
    mv_report_stream *st = NULL;
    assert_int_equal(mv_scan_new(&s, bf->engine, bf->registry, &err), MV_OK);
    assert_int_equal(mv_report_stream_new(&st, o, &err), MV_OK);
    if (spill > 0)
        mv_report_stream_spill_limit(st, spill);
    for (size_t b = 0; b < bf->n; b += range) {
        size_t e = bf->n - b < range ? bf->n : b + range;
        assert_int_equal(mv_scan_run_range(s, b, e, jobs, &err), MV_OK);
        /* Only this range's findings are there. */
        assert_non_null(mv_scan_finding(s, b));
        assert_null(mv_scan_finding(s, e));
        if (b > 0)
            assert_null(mv_scan_finding(s, b - 1));
        assert_int_equal(mv_report_stream_add(st, s, b, e, &err), MV_OK);
    }
    /* Not rendered before the scan is finished, nor out of order. */
    sink early;
    memset(&early, 0, sizeof early);
    mv_buf_init(&early.got, NULL);
    assert_int_equal(mv_report_stream_finish(st, s, sink_write, &early, &err), MV_EINVAL);
    assert_int_equal(early.calls, 0);
    assert_int_equal(mv_scan_finish(s, &err), MV_OK);
    assert_true(mv_scan_streamed(s));
    assert_null(mv_scan_finding(s, 0));
    /* The whole-scan renderer refuses a streamed scan. */
    mv_buf tmp;
    mv_buf_init(&tmp, NULL);
    assert_int_equal(mv_report_render(&tmp, s, o, &err), MV_EINVAL);
    mv_buf_release(&tmp);
    sink k;
    memset(&k, 0, sizeof k);
    mv_buf_init(&k.got, NULL);
    assert_int_equal(mv_report_stream_finish(st, s, sink_write, &k, &err), MV_OK);
    *out = k.got;
    *exit_code = mv_report_exit_code_opts(s, o);
    mv_report_stream_free(st);
    mv_scan_free(s);
}

static void check_stream_same(const big_fixture *bf, mv_report_format format, bool show_clean) {
    static const size_t ranges[] = {1, 7, 500, 100000};
    static const unsigned jobs[] = {1, 3};
    mv_buf whole;
    mv_error err;
    mv_error_clear(&err);
    mv_buf_init(&whole, NULL);
    mv_report_options o = big_options(bf, format, 1);
    o.show_clean = show_clean;
    assert_int_equal(mv_report_render(&whole, bf->scan, &o, &err), MV_OK);
    int whole_code = mv_report_exit_code_opts(bf->scan, &o);
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
            /* A range of one tool is slow with threads and proves nothing more. */
            if (ranges[r] == 1 && jobs[j] > 1)
                continue;
            mv_report_options oj = o;
            oj.jobs = jobs[j];
            mv_buf got;
            int code = -1;
            stream_render(bf, &oj, ranges[r], jobs[j], j == 1 ? 4096 : 0, &got, &code);
            assert_int_equal(got.len, whole.len);
            assert_memory_equal(got.data, whole.data, whole.len);
            assert_int_equal(code, whole_code);
            mv_buf_release(&got);
        }
    }
    mv_buf_release(&whole);
}

static void test_streamed_scan_same_bytes(void **state) {
    (void)state;
    const mv_report_format formats[] = {MV_REPORT_TEXT, MV_REPORT_JSON, MV_REPORT_SARIF};
    big_fixture *fx[] = {big_new(1500, 0, true), big_new(1300, 1000, true), big_new(600, 0, false),
                         big_new_ex(1100, 0, true, true), big_new(0, 0, false)};
    for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++)
        for (size_t i = 0; i < 3; i++) {
            check_stream_same(fx[f], formats[i], true);
            check_stream_same(fx[f], formats[i], false);
        }
    for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++)
        big_free(fx[f]);
}

/* Write to a file descriptor, as mcpvet scan's sink does. */
static int fd_write(void *arg, const char *data, size_t len) {
    int fd = *(const int *)arg;
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n <= 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Everything in the file behind `fd`. */
static void fd_slurp(int fd, mv_buf *out) {
    char chunk[65536];
    mv_buf_init(out, NULL);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        assert_true(n >= 0);
        if (n == 0)
            break;
        mv_buf_append(out, chunk, (size_t)n);
    }
}

/* A spill in a temporary file copied to the sink's descriptor in the
 * kernel: the same bytes as the whole render, for a plain file (where
 * copy_file_range works), a file opened for appending (where it is refused
 * and the copy falls back) and after bytes already written to it. */
static void test_streamed_spill_to_fd(void **state) {
    (void)state;
    big_fixture *bf = big_new(1500, 0, true);
    const mv_report_format formats[] = {MV_REPORT_JSON, MV_REPORT_TEXT, MV_REPORT_SARIF};
    for (size_t fi = 0; fi < 3; fi++) {
        mv_error err;
        mv_error_clear(&err);
        mv_buf whole;
        mv_buf_init(&whole, NULL);
        mv_report_options o = big_options(bf, formats[fi], 1);
        assert_int_equal(mv_report_render(&whole, bf->scan, &o, &err), MV_OK);
        for (int mode = 0; mode < 3; mode++) {
            unsigned jobs = mode == 1 ? 2 : 1;
            char path[] = "/tmp/mcpvet-test-sink-XXXXXX";
            int fd = mkstemp(path);
            assert_true(fd >= 0);
            unlink(path);
            if (mode == 2) { /* appending: copy_file_range refuses O_APPEND */
                assert_int_equal(fd_write(&fd, "lead", 4), 0);
                int fl = fcntl(fd, F_GETFL);
                assert_int_equal(fcntl(fd, F_SETFL, fl | O_APPEND), 0);
            }
            mv_report_options oj = o;
            oj.jobs = jobs;
            mv_scan *s = NULL;
            mv_report_stream *st = NULL;
            assert_int_equal(mv_scan_new(&s, bf->engine, bf->registry, &err), MV_OK);
            assert_int_equal(mv_report_stream_new(&st, &oj, &err), MV_OK);
            mv_report_stream_spill_limit(st, 4096);
            for (size_t b = 0; b < bf->n; b += 400) {
                size_t e = bf->n - b < 400 ? bf->n : b + 400;
                assert_int_equal(mv_scan_run_range(s, b, e, jobs, &err), MV_OK);
                assert_int_equal(mv_report_stream_add(st, s, b, e, &err), MV_OK);
            }
            assert_int_equal(mv_scan_finish(s, &err), MV_OK);
            mv_report_stream_sink_fd(st, fd);
            assert_int_equal(mv_report_stream_finish(st, s, fd_write, &fd, &err), MV_OK);
            mv_buf got;
            fd_slurp(fd, &got);
            size_t skip = mode == 2 ? 4 : 0;
            assert_true(whole.len > 4096);
            assert_int_equal(got.len, whole.len + skip);
            if (skip > 0)
                assert_memory_equal(got.data, "lead", 4);
            assert_memory_equal(got.data + skip, whole.data, whole.len);
            mv_buf_release(&got);
            mv_report_stream_free(st);
            mv_scan_free(s);
            close(fd);
        }
        mv_buf_release(&whole);
    }
    mv_report_stream_sink_fd(NULL, 3); /* no stream: nothing happens */
    big_free(bf);
}

static void test_streamed_scan_misuse(void **state) {
    (void)state;
    big_fixture *bf = big_new(100, 0, true);
    mv_error err;
    mv_error_clear(&err);
    mv_scan *s = NULL;
    mv_report_stream *st = NULL;
    mv_report_options o = big_options(bf, MV_REPORT_JSON, 1);
    assert_int_equal(mv_scan_new(&s, bf->engine, bf->registry, &err), MV_OK);
    /* Ranges start at 0, follow each other and stay in the registry. */
    assert_int_equal(mv_scan_run_range(s, 10, 20, 1, &err), MV_EINVAL);
    assert_int_equal(mv_scan_run_range(s, 0, 101, 1, &err), MV_EINVAL);
    assert_int_equal(mv_scan_finish(s, &err), MV_EINVAL);
    assert_int_equal(mv_scan_run_range(s, 0, 50, 1, &err), MV_OK);
    assert_int_equal(mv_scan_run_range(s, 60, 100, 1, &err), MV_EINVAL);
    assert_int_equal(mv_scan_run(s, 1, &err), MV_EINVAL); /* not both */
    assert_int_equal(mv_scan_finish(s, &err), MV_EINVAL); /* half the registry */
    /* A partial scan has a partial summary, no coverage, and never exits 0. */
    assert_int_equal(mv_scan_summarize(s).tools, 50);
    assert_null(mv_scan_coverage(s));
    assert_int_not_equal(mv_report_exit_code(s, MV_VERDICT_QUARANTINE), MV_EXIT_OK);
    assert_int_equal(mv_report_stream_new(&st, &o, &err), MV_OK);
    assert_int_equal(mv_report_stream_add(st, s, 10, 50, &err), MV_EINVAL); /* out of order */
    sink k;
    memset(&k, 0, sizeof k);
    mv_buf_init(&k.got, NULL);
    assert_int_equal(mv_report_stream_finish(st, s, sink_write, &k, &err), MV_EINVAL);
    assert_int_equal(k.calls, 0);
    mv_report_stream_free(st);
    mv_scan_free(s);
    mv_report_stream_free(NULL);
    o.format = (mv_report_format)42;
    assert_int_equal(mv_report_stream_new(&st, &o, &err), MV_EINVAL);
    big_free(bf);
}

/* ------------------------------------------------------ buffer fast paths */

/* Straightforward JSON string body, byte by byte, as the reference. */
static void ref_json_body(mv_buf *b, const unsigned char *p, size_t len) {
    for (size_t i = 0; i < len;) {
        unsigned c = p[i];
        if (c == '"' || c == '\\') {
            mv_buf_putc(b, '\\');
            mv_buf_putc(b, (char)c);
            i++;
        } else if (c == '\n') {
            mv_buf_puts(b, "\\n");
            i++;
        } else if (c == '\t') {
            mv_buf_puts(b, "\\t");
            i++;
        } else if (c == '\r') {
            mv_buf_puts(b, "\\r");
            i++;
        } else if (c < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            mv_buf_puts(b, esc);
            i++;
        } else if (c < 0x80) {
            mv_buf_putc(b, (char)c);
            i++;
        } else {
            /* Only what the test feeds: two-byte é, U+2028, and a lone
             * continuation byte (invalid). */
            if (c == 0xC3 && i + 1 < len && p[i + 1] == 0xA9) {
                mv_buf_append(b, p + i, 2);
                i += 2;
            } else if (c == 0xE2 && i + 2 < len && p[i + 1] == 0x80 && p[i + 2] == 0xA8) {
                mv_buf_puts(b, "\\u2028");
                i += 3;
            } else {
                mv_buf_puts(b, "\\ufffd");
                i++;
            }
        }
    }
}

static void test_buf_json_fast_path(void **state) {
    (void)state;
    /* Every special at every offset of a word, in strings of many lengths. */
    static const char *const specials[] = {"\"", "\\", "\n",       "\x01",         "\x1f", "\x7f",
                                           " ",  "~",  "\xc3\xa9", "\xe2\x80\xa8", "\x80"};
    for (size_t sp = 0; sp < sizeof specials / sizeof specials[0]; sp++) {
        for (size_t len = 0; len < 40; len++) {
            for (size_t at = 0; at <= len; at++) {
                char in[64];
                size_t n = 0;
                for (size_t i = 0; i < at; i++)
                    in[n++] = (char)('a' + (i % 26));
                size_t sl = strlen(specials[sp]);
                memcpy(in + n, specials[sp], sl);
                n += sl;
                for (size_t i = at; i < len; i++)
                    in[n++] = (char)('A' + (i % 26));
                mv_buf got, want;
                mv_buf_init(&got, NULL);
                mv_buf_init(&want, NULL);
                assert_int_equal(mv_buf_json_string_body(&got, in, n), MV_OK);
                ref_json_body(&want, (const unsigned char *)in, n);
                assert_int_equal(got.len, want.len);
                assert_memory_equal(got.data, want.data, want.len);
                assert_int_equal(got.data[got.len], '\0');
                mv_buf_release(&got);
                mv_buf_release(&want);
            }
        }
    }
}

static void test_buf_integers(void **state) {
    (void)state;
    mv_buf b;
    mv_buf_init(&b, NULL);
    mv_buf_put_u64(&b, 0);
    mv_buf_putc(&b, ' ');
    mv_buf_put_u64(&b, UINT64_MAX);
    mv_buf_putc(&b, ' ');
    mv_buf_put_i64(&b, INT64_MIN);
    mv_buf_putc(&b, ' ');
    mv_buf_put_i64(&b, -7);
    mv_buf_putc(&b, ' ');
    mv_buf_put_i64(&b, 1000);
    assert_string_equal(b.data, "0 18446744073709551615 -9223372036854775808 -7 1000");
    assert_int_equal(mv_buf_reserve(&b, 1000), MV_OK);
    assert_true(b.cap - b.len > 1000);
    mv_buf_release(&b);
}

/* perf26: the writer's key copy (four bytes a round, keys of every length
 * up to past KEY_FAST, an escape at every offset) and its in-place small
 * values give the bytes of the general path. */
static void expect_member(const char *key, void (*put)(mv_jw *, const char *), const char *value) {
    mv_buf got, want;
    mv_buf_init(&got, NULL);
    mv_buf_init(&want, NULL);
    mv_jw w;
    mv_jw_init(&w, &got);
    mv_jw_obj_begin(&w, NULL);
    put(&w, key);
    mv_jw_obj_end(&w);
    assert_int_equal(mv_jw_finish(&w), MV_OK);
    mv_buf_append(&want, "{\n  ", 4);
    mv_buf_json_string(&want, key, strlen(key));
    mv_buf_append(&want, ": ", 2);
    mv_buf_append(&want, value, strlen(value));
    mv_buf_append(&want, "\n}\n", 3);
    assert_string_equal(got.data, want.data);
    mv_buf_release(&got);
    mv_buf_release(&want);
}

static void put_null(mv_jw *w, const char *key) {
    mv_jw_null(w, key);
}
static void put_true(mv_jw *w, const char *key) {
    mv_jw_bool(w, key, true);
}
static void put_false(mv_jw *w, const char *key) {
    mv_jw_bool(w, key, false);
}
static void put_zero(mv_jw *w, const char *key) {
    mv_jw_uint(w, key, 0);
}
static void put_max(mv_jw *w, const char *key) {
    mv_jw_uint(w, key, UINT64_MAX);
}
static void put_ten(mv_jw *w, const char *key) {
    mv_jw_int(w, key, 10);
}
static void put_min(mv_jw *w, const char *key) {
    mv_jw_int(w, key, INT64_MIN);
}
static void put_fixed_neg(mv_jw *w, const char *key) {
    mv_jw_fixed(w, key, -12.25, 3);
}

static void test_writer_keys_and_values(void **state) {
    (void)state;
    static const char *const specials[] = {"\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9"};
    for (size_t len = 0; len < 60; len++) {
        char key[80];
        for (size_t i = 0; i < len; i++)
            key[i] = (char)('a' + (i % 26));
        key[len] = '\0';
        expect_member(key, put_null, "null");
        for (size_t sp = 0; sp < sizeof specials / sizeof specials[0]; sp++) {
            size_t sl = strlen(specials[sp]);
            memcpy(key + len, specials[sp], sl);
            key[len + sl] = 'z';
            key[len + sl + 1] = '\0';
            expect_member(key, put_true, "true");
        }
    }
    expect_member("k", put_false, "false");
    expect_member("k", put_zero, "0");
    expect_member("k", put_max, "18446744073709551615");
    expect_member("k", put_ten, "10");
    expect_member("k", put_min, "-9223372036854775808");
    expect_member("k", put_fixed_neg, "-12.250");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_basic),
        cmocka_unit_test(test_writer_keys_and_values),
        cmocka_unit_test(test_golden_degraded),
        cmocka_unit_test(test_text_content),
        cmocka_unit_test(test_degraded_never_clean),
        cmocka_unit_test(test_render_safety),
        cmocka_unit_test(test_servers_section),
        cmocka_unit_test(test_json_parses),
        cmocka_unit_test(test_sarif_parses),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_fixed_format),
        cmocka_unit_test(test_parse_names),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_threads_and_streaming_same_bytes),
        cmocka_unit_test(test_streaming_is_bounded),
        cmocka_unit_test(test_streaming_sink_failure),
        cmocka_unit_test(test_streamed_scan_same_bytes),
        cmocka_unit_test(test_streamed_spill_to_fd),
        cmocka_unit_test(test_streamed_scan_misuse),
        cmocka_unit_test(test_buf_json_fast_path),
        cmocka_unit_test(test_buf_integers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
