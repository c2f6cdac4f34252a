/*
 * Unit tests of pins (src/store/pin.c): the docs/pinning.md vectors
 * (hashes computed independently with Python's hashlib), key order and
 * whitespace never changing a pin, a change of one character, a schema
 * default, an enum value or an annotation always changing it and naming the
 * field, 1 / 1.0 / 1e0, the rename body, rejection of non-canonical or
 * foreign definitions, and server identities with their display forms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "fail_alloc.h"
#include "mcpvet/model.h"
#include "mcpvet/store.h"
#include "store/crypto.h"

/* Pin of the first tool of a tools/list document, through the model. */
static void pin_of(const char *json, mv_tool_pin *out) {
    mv_toolset *set = NULL;
    mv_error err;
    mv_model_options o = {.keep_definitions = true, .server = "s"};
    if (mv_model_parse(&set, json, strlen(json), "t.json", &o, &err) != MV_OK)
        fail_msg("parse: %s", err.message);
    mv_error_clear(&err);
    int rc =
        mv_pin_tool(out, set->tools[0].definition.ptr, set->tools[0].definition.len, NULL, &err);
    if (rc != MV_OK)
        fail_msg("pin: %s", err.message);
    mv_toolset_free(set);
}

#define ECHO_CANON                                                                                 \
    "{\"description\":\"Echo the input back.\",\"inputSchema\":{\"properties\":{\"text\":"         \
    "{\"type\":\"string\"}},\"required\":[\"text\"],\"type\":\"object\"},\"name\":\"echo\"}"

static void test_vectors(void **state) {
    (void)state;
    mv_tool_pin p;
    mv_error err;
    assert_int_equal(mv_pin_tool(&p, "{\"name\":\"echo\"}", 15, NULL, &err), MV_OK);
    assert_string_equal(p.pin, "f7817751a90d6baf078dd0e2d98b278faa025d83ccee00eb9b60100ad65bdcb9");
    assert_string_equal(p.fields[MV_PIN_TITLE], "");

    assert_int_equal(mv_pin_tool(&p, ECHO_CANON, strlen(ECHO_CANON), NULL, &err), MV_OK);
    assert_string_equal(p.pin, "5dc46396bc3a57c92b84a72a01cfcd33bbcf5258f92a0754e4a143eb7eb433dc");
    assert_string_equal(p.body, "f1c729c83e727c89c36e34b28e6a00054134b6c5c9e8df72001719f0d173eef5");
    assert_string_equal(p.fields[MV_PIN_DESCRIPTION],
                        "abb321635bd25ee7a8e22df5929e6f9950008295c1217a1e2e4daa4c1fc96106");
    assert_string_equal(p.fields[MV_PIN_OUTPUT_SCHEMA], "");
    assert_string_equal(mv_pin_field_name(MV_PIN_INPUT_SCHEMA), "inputSchema");
}

static void test_order_and_whitespace_keep_the_pin(void **state) {
    (void)state;
    mv_tool_pin a, b, c;
    pin_of("{\"tools\":[{\"name\":\"echo\",\"description\":\"Echo the input back.\","
           "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
           "\"required\":[\"text\"]}}]}",
           &a);
    pin_of(
        "{\n \"tools\": [ {\n  \"inputSchema\": {\n   \"required\": [ \"text\" ],\n"
        "   \"properties\": { \"text\": { \"type\": \"string\" } },\n   \"type\": \"object\"\n"
        "  },\n  \"description\": \"Echo the input \\u0062ack.\",\n  \"name\": \"echo\"\n } ]\n}",
        &b);
    /* members outside the pinned six (_meta, icons) do not count */
    pin_of("{\"tools\":[{\"_meta\":{\"v\":2},\"name\":\"echo\",\"description\":\"Echo the input "
           "back.\",\"input_schema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":"
           "\"string\"}},\"required\":[\"text\"]}}]}",
           &c);
    assert_string_equal(a.pin, "5dc46396bc3a57c92b84a72a01cfcd33bbcf5258f92a0754e4a143eb7eb433dc");
    assert_string_equal(a.pin, b.pin);
    assert_string_equal(a.pin, c.pin);
    assert_int_equal(mv_pin_changed_fields(&a, &b), 0);
}

/* Base tool with a schema default, an enum, an annotation and a number. */
#define TOOL(desc, def, enm, hint, max)                                                            \
    "{\"tools\":[{\"name\":\"fetch\",\"description\":\"" desc "\",\"inputSchema\":{\"type\":"      \
    "\"object\",\"properties\":{\"mode\":{\"type\":\"string\",\"default\":\"" def "\","            \
    "\"enum\":[\"fast\",\"" enm "\"]},\"n\":{\"type\":\"integer\",\"maximum\":" max "}}},"         \
    "\"annotations\":{\"readOnlyHint\":" hint "}}]}"

static void test_changes_of_meaning_change_the_pin(void **state) {
    (void)state;
    mv_tool_pin base, p;
    pin_of(TOOL("Fetch a URL.", "fast", "safe", "true", "10"), &base);

    pin_of(TOOL("Fetch a URL!", "fast", "safe", "true", "10"), &p);
    assert_string_not_equal(base.pin, p.pin);
    assert_int_equal(mv_pin_changed_fields(&base, &p), 1u << MV_PIN_DESCRIPTION);

    pin_of(TOOL("Fetch a URL.", "safe", "safe", "true", "10"), &p);
    assert_string_not_equal(base.pin, p.pin);
    assert_int_equal(mv_pin_changed_fields(&base, &p), 1u << MV_PIN_INPUT_SCHEMA);

    pin_of(TOOL("Fetch a URL.", "fast", "unsafe", "true", "10"), &p);
    assert_string_not_equal(base.pin, p.pin);
    assert_int_equal(mv_pin_changed_fields(&base, &p), 1u << MV_PIN_INPUT_SCHEMA);

    pin_of(TOOL("Fetch a URL.", "fast", "safe", "false", "10"), &p);
    assert_string_not_equal(base.pin, p.pin);
    assert_int_equal(mv_pin_changed_fields(&base, &p), 1u << MV_PIN_ANNOTATIONS);

    /* a hidden character is a change too */
    pin_of(TOOL("Fetch a URL.\\u200b", "fast", "safe", "true", "10"), &p);
    assert_string_not_equal(base.pin, p.pin);

    /* the same number spelled otherwise is not */
    pin_of(TOOL("Fetch a URL.", "fast", "safe", "true", "10.0"), &p);
    assert_string_equal(base.pin, p.pin);
    pin_of(TOOL("Fetch a URL.", "fast", "safe", "true", "1e1"), &p);
    assert_string_equal(base.pin, p.pin);
    pin_of(TOOL("Fetch a URL.", "fast", "safe", "true", "11"), &p);
    assert_string_not_equal(base.pin, p.pin);
}

static void test_rename_body(void **state) {
    (void)state;
    mv_tool_pin a, b, c;
    pin_of("{\"tools\":[{\"name\":\"read\",\"description\":\"Read a file.\"}]}", &a);
    pin_of("{\"tools\":[{\"name\":\"read_file\",\"description\":\"Read a file.\"}]}", &b);
    pin_of("{\"tools\":[{\"name\":\"read_file\",\"description\":\"Read a file!\"}]}", &c);
    assert_string_not_equal(a.pin, b.pin);
    assert_string_equal(a.body, b.body);
    assert_string_not_equal(a.body, c.body);
    assert_int_equal(mv_pin_changed_fields(&a, &b), 1u << MV_PIN_NAME);
}

static void test_rejects(void **state) {
    (void)state;
    mv_tool_pin p;
    mv_error err;
    const char *bad[] = {
        "{\"name\": \"echo\"}",                               /* whitespace: not canonical */
        "{\"name\":\"echo\",\"description\":\"d\"}",          /* order: not canonical */
        "{\"inputSchema\":{\"maximum\":1.0},\"name\":\"n\"}", /* number form */
        "{\"name\":\"echo\",\"x\":1}",                        /* not a pinned member */
        "{\"description\":\"d\"}",                            /* no name */
        "{\"name\":\"\"}",                                    /* empty name */
        "{\"name\":1}",                                       /* name not a string */
        "[\"name\"]",                                         /* not an object */
        "{\"name\":\"a\"",                                    /* not JSON */
        "{\"name\":\"a\",\"name\":\"b\"}",                    /* duplicate key */
        "",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        mv_error_clear(&err);
        int rc = mv_pin_tool(&p, bad[i], strlen(bad[i]), NULL, &err);
        if (rc != MV_EPARSE)
            fail_msg("definition %s: rc %d, expected MV_EPARSE", bad[i], rc);
        assert_true(err.message[0] != '\0');
    }
}

static void test_oom(void **state) {
    (void)state;
    bool ok = false;
    for (long n = 1; n < 100 && !ok; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_tool_pin p;
        mv_error err;
        int rc = mv_pin_tool(&p, ECHO_CANON, strlen(ECHO_CANON), &fa.allocator, &err);
        if (rc == MV_OK) {
            ok = true;
            assert_string_equal(p.pin,
                                "5dc46396bc3a57c92b84a72a01cfcd33bbcf5258f92a0754e4a143eb7eb433dc");
        } else {
            assert_int_equal(rc, MV_ENOMEM);
        }
        assert_int_equal(fa.live, 0);
    }
    assert_true(ok);
}

static void test_server_identity(void **state) {
    (void)state;
    char id[MV_PIN_HEX], id2[MV_PIN_HEX];
    mv_buf d;
    const char *args[] = {"-y", "@modelcontextprotocol/server-everything"};
    mv_server_ident s = {
        .name = "everything", .transport = "stdio", .command = "npx", .args = args, .n_args = 2};
    mv_buf_init(&d, NULL);
    assert_int_equal(mv_pin_server(id, &d, &s), MV_OK);
    assert_string_equal(id, "b6c5004a01af5c52a040b6152eb5c572ceef7236b74d99be0ee02abd5807b108");
    assert_string_equal(d.data, "npx -y @modelcontextprotocol/server-everything");
    mv_buf_release(&d);

    /* another program under the same name is another identity */
    const char *args2[] = {"-y", "@evil/server-everything"};
    s.args = args2;
    assert_int_equal(mv_pin_server(id2, NULL, &s), MV_OK);
    assert_string_not_equal(id, id2);
    s.args = args;
    s.cwd = "/srv";
    assert_int_equal(mv_pin_server(id2, NULL, &s), MV_OK);
    assert_string_not_equal(id, id2);
    s.cwd = NULL;
    s.name = "everything2";
    assert_int_equal(mv_pin_server(id2, NULL, &s), MV_OK);
    assert_string_not_equal(id, id2);

    /* URLs: hashed whole, shown without credentials or query */
    mv_server_ident h = {.name = "remote",
                         .transport = "http",
                         .url = "https://user:secret@mcp.example.com/mcp?token=abc"};
    mv_buf_init(&d, NULL);
    assert_int_equal(mv_pin_server(id, &d, &h), MV_OK);
    assert_string_equal(id, "827a6c07473cf4c6b1ee253eae8657bd219ebb43efe899b694099f902da96f48");
    assert_string_equal(d.data, "https://...@mcp.example.com/mcp?...");
    assert_null(strstr(d.data, "secret"));
    assert_null(strstr(d.data, "abc"));
    mv_buf_release(&d);
    h.url = "https://mcp.example.com/mcp?token=abd";
    assert_int_equal(mv_pin_server(id2, NULL, &h), MV_OK);
    assert_string_not_equal(id, id2);

    /* shell quoting of the display */
    const char *args3[] = {"it's", "a b", ""};
    mv_server_ident q = {
        .name = "q", .transport = "stdio", .command = "/opt/my tool", .args = args3, .n_args = 3};
    mv_buf_init(&d, NULL);
    assert_int_equal(mv_pin_server(id, &d, &q), MV_OK);
    assert_string_equal(d.data, "'/opt/my tool' 'it'\\''s' 'a b' ''");
    mv_buf_release(&d);

    /* credential arguments are hashed but never shown (found by the canary
     * test: the store kept "--api-key=VALUE" in its display) */
    const char *args4[] = {
        "--api-key=sk-c1", "--token", "tok-canary-2", "ghp_abcdefghij0123456789KLMN",
        "--port",          "8080",    "--key=a b"};
    mv_server_ident k = {
        .name = "k", .transport = "stdio", .command = "srv", .args = args4, .n_args = 7};
    mv_buf_init(&d, NULL);
    assert_int_equal(mv_pin_server(id, &d, &k), MV_OK);
    assert_string_equal(d.data, "srv --api-key=*** --token *** *** --port 8080 --key=***");
    mv_buf_release(&d);
    args4[0] = "--api-key=sk-c3";
    assert_int_equal(mv_pin_server(id2, NULL, &k), MV_OK);
    assert_string_not_equal(id, id2);
    /* a flag that needs quoting keeps its quotes */
    const char *args5[] = {"--my secret=x"};
    mv_server_ident k2 = {
        .name = "k", .transport = "stdio", .command = "srv", .args = args5, .n_args = 1};
    mv_buf_init(&d, NULL);
    assert_int_equal(mv_pin_server(id, &d, &k2), MV_OK);
    assert_string_equal(d.data, "srv '--my secret='***");
    mv_buf_release(&d);

    mv_server_ident none = {.transport = "stdio"};
    assert_int_equal(mv_pin_server(id, NULL, &none), MV_EINVAL);
    mv_server_ident notr = {.name = "x"};
    assert_int_equal(mv_pin_server(id, NULL, &notr), MV_EINVAL);
}

static void test_ident_from_config(void **state) {
    (void)state;
    char *args[] = {"a"};
    mv_server_config cfg = {.name = "n",
                            .transport = MV_TRANSPORT_STDIO,
                            .command = "c",
                            .args = args,
                            .n_args = 1,
                            .url = "ignored"};
    mv_server_ident id;
    mv_server_ident_from_config(&id, &cfg);
    assert_string_equal(id.transport, "stdio");
    assert_string_equal(id.command, "c");
    assert_null(id.url);
    assert_null(id.cwd);
    /* The cwd as written: a resolved one may hold an environment value. */
    cfg.cwd = "/w/CANARY-token";
    cfg.raw_cwd = "/w/${TOKEN}";
    mv_server_ident_from_config(&id, &cfg);
    assert_string_equal(id.cwd, "/w/${TOKEN}");
    cfg.raw_cwd = NULL;
    mv_server_ident_from_config(&id, &cfg);
    assert_string_equal(id.cwd, "/w/CANARY-token");
    cfg.transport = MV_TRANSPORT_HTTP;
    mv_server_ident_from_config(&id, &cfg);
    assert_string_equal(id.transport, "http");
    assert_null(id.command);
    assert_string_equal(id.url, "ignored");
}

/* libcrypto loaded on first use: FIPS 180-4's "abc" and empty vectors,
 * and the constant-time comparison and wipe. */
static void test_crypto_loaded_on_use(void **state) {
    (void)state;
    static const unsigned char abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                          0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                          0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                          0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    static const unsigned char empty[32] = {0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14,
                                            0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
                                            0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c,
                                            0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};
    unsigned char md[32];
    assert_int_equal(mv_crypto_sha256(md, "abc", 3), MV_OK);
    assert_memory_equal(md, abc, 32);
    assert_int_equal(mv_crypto_sha256(md, "", 0), MV_OK);
    assert_memory_equal(md, empty, 32);
    assert_true(mv_crypto_equal(abc, abc, 32));
    for (size_t i = 0; i < 32; i++) {
        unsigned char other[32];
        memcpy(other, abc, 32);
        other[i] ^= 0x01; /* one bit anywhere is a difference */
        assert_false(mv_crypto_equal(abc, other, 32));
    }
    assert_true(mv_crypto_equal(abc, empty, 0));
    memcpy(md, abc, 32);
    mv_crypto_wipe(md, 32);
    for (size_t i = 0; i < 32; i++)
        assert_int_equal(md[i], 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_order_and_whitespace_keep_the_pin),
        cmocka_unit_test(test_changes_of_meaning_change_the_pin),
        cmocka_unit_test(test_rename_body),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_server_identity),
        cmocka_unit_test(test_ident_from_config),
        cmocka_unit_test(test_crypto_loaded_on_use),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
