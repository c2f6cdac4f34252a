/*
 * Unit tests of canonical JSON (src/json/canonical.c): member order by
 * UTF-16 code units (the RFC 8785 example), string escaping, the number
 * form (the vectors of docs/pinning.md, including where mcpvet keeps digits
 * RFC 8785 would round away), invalid number text, the render-safe pretty
 * printer, out-of-memory at every allocation, and the model's canonical
 * definitions (mv_model_options.keep_definitions).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "fail_alloc.h"
#include "json/canonical.h"
#include "json/json.h"
#include "mcpvet/model.h"

/* Canonical form of a JSON text (must parse). */
static void canon(const char *json, mv_buf *out) {
    mv_arena *arena = mv_arena_new(NULL, 0);
    const mv_jv *doc = NULL;
    mv_jerror je;
    assert_non_null(arena);
    if (mv_json_parse(&doc, arena, NULL, json, strlen(json), &je) != MV_OK)
        fail_msg("parse failed: %s (%s)", je.message, json);
    mv_buf_init(out, NULL);
    assert_int_equal(mv_json_canonical(out, doc), MV_OK);
    mv_arena_free(arena);
}

static void expect_canon(const char *json, const char *want) {
    mv_buf b;
    canon(json, &b);
    if (strcmp(b.data, want) != 0)
        fail_msg("canonical of %s\n  got  %s\n  want %s", json, b.data, want);
    mv_buf_release(&b);
}

static void expect_number(const char *text, const char *want) {
    mv_buf b;
    mv_buf_init(&b, NULL);
    int rc = mv_json_canonical_number(&b, text, strlen(text));
    if (rc != MV_OK)
        fail_msg("number %s: rc %d", text, rc);
    if (strcmp(b.data, want) != 0)
        fail_msg("number %s: got %s, want %s", text, b.data, want);
    mv_buf_release(&b);
}

static void test_key_order_and_whitespace(void **state) {
    (void)state;
    expect_canon("{\"b\":1,\"a\":[true,false,null],\"c\":{\"y\":\"x\",\"x\":\"y\"}}",
                 "{\"a\":[true,false,null],\"b\":1,\"c\":{\"x\":\"y\",\"y\":\"x\"}}");
    expect_canon(" {\n  \"c\" : { \"x\" : \"y\" , \"y\":\"x\" },\t\"b\" : 1 ,\r\n"
                 " \"a\" : [ true , false , null ] } ",
                 "{\"a\":[true,false,null],\"b\":1,\"c\":{\"x\":\"y\",\"y\":\"x\"}}");
    expect_canon("{}", "{}");
    expect_canon("[]", "[]");
    expect_canon("[{},[],{\"\":[]}]", "[{},[],{\"\":[]}]");
    /* arrays keep their order */
    expect_canon("[3,1,2]", "[3,1,2]");
}

static void test_utf16_key_order(void **state) {
    (void)state;
    /* RFC 8785 section 3.2.3: sorted by UTF-16 code units, so U+1F600
     * (D83D DE00) sorts before U+FB33, unlike a byte or code point sort. */
    expect_canon("{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\","
                 "\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\",\"1\":\"One\","
                 "\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
                 "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}",
                 "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xc2\x80\":\"Control\","
                 "\"\xc3\xb6\":\"Latin Small Letter O With Diaeresis\","
                 "\"\xe2\x82\xac\":\"Euro Sign\",\"\xf0\x9f\x98\x80\":\"Emoji: Grinning Face\","
                 "\"\xef\xac\xb3\":\"Hebrew Letter Dalet With Dagesh\"}");
    assert_true(mv_json_key_cmp("\xf0\x9f\x98\x80", 4, "\xef\xac\xb3", 3) < 0);
    assert_true(mv_json_key_cmp("\xef\xac\xb3", 3, "\xf0\x9f\x98\x80", 4) > 0);
    assert_true(mv_json_key_cmp("a", 1, "ab", 2) < 0);
    assert_int_equal(mv_json_key_cmp("ab", 2, "ab", 2), 0);
    /* two astral characters sharing a high surrogate: low surrogate order */
    assert_true(mv_json_key_cmp("\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x81", 4) < 0);
}

static void test_strings(void **state) {
    (void)state;
    /* escapes are decoded, then written in the one minimal form */
    expect_canon("[\"\\u0041\\/\"]", "[\"A/\"]");
    expect_canon("[\"\\u00e9\\u2028\\u007f\"]", "[\"\xc3\xa9\xe2\x80\xa8\x7f\"]");
    expect_canon("[\"\\b\\f\\n\\r\\t\\\"\\\\\"]", "[\"\\b\\f\\n\\r\\t\\\"\\\\\"]");
    expect_canon("[\"\\u0000\\u001f\\u000B\"]", "[\"\\u0000\\u001f\\u000b\"]");
    expect_canon("[\"\\ud83d\\ude00\"]", "[\"\xf0\x9f\x98\x80\"]");
    expect_canon("{\"k\\u0065y\":\"\\u200b\"}", "{\"key\":\"\xe2\x80\x8b\"}");
}

static void test_numbers(void **state) {
    (void)state;
    /* one value, one form */
    const char *ones[] = {"1", "1.0", "1e0", "1E+0", "10e-1", "0.1e1", "1.000", "100e-2", NULL};
    for (size_t i = 0; ones[i] != NULL; i++)
        expect_number(ones[i], "1");
    expect_number("-0", "0");
    expect_number("-0.0e5", "0");
    expect_number("0e-999", "0");
    expect_number("0", "0");
    expect_number("-1.5e3", "-1500");
    expect_number("1.5", "1.5");
    expect_number("4.50", "4.5");
    expect_number("2e-3", "0.002");
    expect_number("100", "100");
    expect_number("123.456", "123.456");
    /* the ECMAScript layout switches: plain up to 21 integer digits, then
     * exponent form; 0.000001 plain, 1e-7 exponent */
    expect_number("1e20", "100000000000000000000");
    expect_number("1e21", "1e+21");
    expect_number("1e23", "1e+23");
    expect_number("123456789012345678901", "123456789012345678901");
    expect_number("1234567890123456789012", "1.234567890123456789012e+21");
    expect_number("0.000001", "0.000001");
    expect_number("1e-7", "1e-7");
    expect_number("0.0000001234", "1.234e-7");
    expect_number("-12.5e-10", "-1.25e-9");
    expect_number("5e-324", "5e-324");
    expect_number("333333333.3333333", "333333333.3333333");
    /* where RFC 8785 would round to a double and mcpvet keeps every digit */
    expect_number("9007199254740993", "9007199254740993");
    expect_number("9007199254740992", "9007199254740992");
    expect_number("0.1000000000000000055511151231257827", "0.1000000000000000055511151231257827");
    expect_number("1e400", "1e+400");
    expect_number("-2.5e-400", "-2.5e-400");
    /* exponents beyond 64-bit arithmetic */
    expect_number("1e99999999999999999999", "1e+99999999999999999999");
    expect_number("12.5e99999999999999999999", "1.25e+100000000000000000000");
    expect_number("1e-99999999999999999999", "1e-99999999999999999999");
    expect_number("0.01e-99999999999999999999", "1e-100000000000000000001");
    expect_number("1e000000000000000000000000007", "10000000");

    const char *invalid[] = {"01",  "1.",  ".5", "1e", "+1", "--1",
                             "1e+", "0x1", "1 ", "-",  "",   NULL};
    for (size_t i = 0; invalid[i] != NULL; i++) {
        mv_buf b;
        mv_buf_init(&b, NULL);
        if (mv_json_canonical_number(&b, invalid[i], strlen(invalid[i])) != MV_EINVAL)
            fail_msg("number \"%s\" was accepted", invalid[i]);
        mv_buf_release(&b);
    }
    /* inside a document */
    expect_canon("{\"max\":1.0E2,\"min\":-0}", "{\"max\":100,\"min\":0}");
}

static void test_pretty_safe(void **state) {
    (void)state;
    mv_arena *arena = mv_arena_new(NULL, 0);
    const mv_jv *doc = NULL;
    mv_jerror je;
    const char *json = "{\"a\":[1,{}],\"d\":\"x\\u202ey\\u001b[31m\\u00e9\\n\\ud83d\\ude00"
                       "\\udb40\\udc41\",\"e\":[]}";
    assert_int_equal(mv_json_parse(&doc, arena, NULL, json, strlen(json), &je), MV_OK);
    mv_buf b;
    mv_buf_init(&b, NULL);
    assert_int_equal(mv_json_pretty_safe(&b, doc), MV_OK);
    assert_string_equal(b.data, "{\n"
                                "  \"a\": [\n"
                                "    1,\n"
                                "    {}\n"
                                "  ],\n"
                                "  \"d\": \"x\\u202ey\\u001b[31m\xc3\xa9\\n\xf0\x9f\x98\x80"
                                "\\udb40\\udc41\",\n"
                                "  \"e\": []\n"
                                "}");
    /* still JSON, and no raw ESC or bidi control */
    assert_null(memchr(b.data, 0x1b, b.len));
    assert_null(strstr(b.data, "\xe2\x80\xae"));
    const mv_jv *again = NULL;
    assert_int_equal(mv_json_parse(&again, arena, NULL, b.data, b.len, &je), MV_OK);
    mv_buf_release(&b);
    mv_arena_free(arena);
}

static void test_oom(void **state) {
    (void)state;
    const char *json = "{\"z\":{\"b\":[{\"y\":1,\"x\":2}],\"a\":3},\"y\":{\"q\":1,\"p\":[{\"n\":1,"
                       "\"m\":1e99999999999999999999}]}}";
    mv_arena *arena = mv_arena_new(NULL, 0);
    const mv_jv *doc = NULL;
    mv_jerror je;
    assert_int_equal(mv_json_parse(&doc, arena, NULL, json, strlen(json), &je), MV_OK);
    mv_buf want;
    mv_buf_init(&want, NULL);
    assert_int_equal(mv_json_canonical(&want, doc), MV_OK);
    bool succeeded = false;
    for (long n = 1; n < 200 && !succeeded; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_buf b;
        mv_buf_init(&b, &fa.allocator);
        int rc = mv_json_canonical(&b, doc);
        if (rc == MV_OK) {
            assert_string_equal(b.data, want.data);
            succeeded = true;
        } else {
            assert_int_equal(rc, MV_ENOMEM);
            assert_true(b.failed);
        }
        mv_buf_release(&b);
        assert_int_equal(fa.live, 0);
    }
    assert_true(succeeded);
    mv_buf_release(&want);
    mv_arena_free(arena);
}

/* ------------------------------------------------- model definitions */

static mv_toolset *parse_defs(const char *json) {
    mv_toolset *set = NULL;
    mv_error err;
    mv_model_options o = {.keep_definitions = true, .server = "s"};
    mv_error_clear(&err);
    if (mv_model_parse(&set, json, strlen(json), "t.json", &o, &err) != MV_OK)
        fail_msg("model parse failed: %s", err.message);
    return set;
}

static void test_model_definitions(void **state) {
    (void)state;
    mv_toolset *a = parse_defs(
        "{\"tools\":[{\"name\":\"echo\",\"description\":\"Echo the input back.\","
        "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
        "\"required\":[\"text\"]},\"_meta\":{\"x\":1},\"icons\":[],\"title\":null}]}");
    assert_int_equal(a->n_tools, 1);
    const char *want = "{\"description\":\"Echo the input back.\",\"inputSchema\":{\"properties\":"
                       "{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],\"type\":"
                       "\"object\"},\"name\":\"echo\"}";
    assert_int_equal(a->tools[0].definition.len, strlen(want));
    assert_memory_equal(a->tools[0].definition.ptr, want, strlen(want));

    /* snake_case schema keys, other order and whitespace: same bytes */
    mv_toolset *b = parse_defs("{ \"tools\" : [ { \"input_schema\" : { \"required\" : [\"text\"],"
                               " \"properties\" : { \"text\" : { \"type\" : \"string\" } },"
                               " \"type\" : \"object\" }, \"description\" : \"Echo the input "
                               "back.\", \"name\" : \"echo\" } ] }");
    assert_int_equal(b->tools[0].definition.len, strlen(want));
    assert_memory_equal(b->tools[0].definition.ptr, want, strlen(want));

    /* every pinned member, outputSchema under its snake_case name */
    mv_toolset *c =
        parse_defs("{\"tools\":[{\"name\":\"n\",\"title\":\"T\",\"annotations\":"
                   "{\"readOnlyHint\":true},\"output_schema\":{\"type\":\"object\"}}]}");
    assert_string_equal(c->tools[0].definition.ptr,
                        "{\"annotations\":{\"readOnlyHint\":true},\"name\":\"n\","
                        "\"outputSchema\":{\"type\":\"object\"},\"title\":\"T\"}");

    /* off by default */
    mv_toolset *d = NULL;
    mv_error err;
    const char *doc = "{\"tools\":[{\"name\":\"n\"}]}";
    assert_int_equal(mv_model_parse(&d, doc, strlen(doc), "t.json", NULL, &err), MV_OK);
    assert_int_equal(d->tools[0].definition.len, 0);
    mv_toolset_free(a);
    mv_toolset_free(b);
    mv_toolset_free(c);
    mv_toolset_free(d);
}

static void test_model_definition_keeps_capped_text(void **state) {
    (void)state;
    /* the scan caps a field at max_field_bytes; the definition (the pin)
     * keeps the whole text */
    char json[400];
    char desc[201];
    memset(desc, 'x', 200);
    desc[200] = '\0';
    snprintf(json, sizeof(json), "{\"tools\":[{\"name\":\"n\",\"description\":\"%s\"}]}", desc);
    mv_toolset *set = NULL;
    mv_error err;
    mv_model_options o = {.keep_definitions = true, .limits.max_field_bytes = 50};
    assert_int_equal(mv_model_parse(&set, json, strlen(json), "t.json", &o, &err), MV_OK);
    assert_true(set->tools[0].description.len <= 50);
    assert_non_null(strstr(set->tools[0].definition.ptr, desc));
    mv_toolset_free(set);
}

static void test_model_definitions_oom(void **state) {
    (void)state;
    const char *doc = "{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"b\":1,\"a\":2}},"
                      "{\"name\":\"b\",\"annotations\":{\"z\":1,\"y\":2}}]}";
    bool succeeded = false;
    for (long n = 1; n < 400 && !succeeded; n++) {
        fail_alloc fa;
        fail_alloc_init(&fa, n);
        mv_model_options o = {.keep_definitions = true, .allocator = &fa.allocator};
        mv_toolset *set = NULL;
        mv_error err;
        int rc = mv_model_parse(&set, doc, strlen(doc), "t.json", &o, &err);
        if (rc == MV_OK) {
            assert_string_equal(set->tools[0].definition.ptr,
                                "{\"inputSchema\":{\"a\":2,\"b\":1},\"name\":\"a\"}");
            succeeded = true;
        } else {
            assert_int_equal(rc, MV_ENOMEM);
            assert_null(set);
        }
        mv_toolset_free(set);
        assert_int_equal(fa.live, 0);
    }
    assert_true(succeeded);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_order_and_whitespace),
        cmocka_unit_test(test_utf16_key_order),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_pretty_safe),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_model_definitions),
        cmocka_unit_test(test_model_definition_keeps_capped_text),
        cmocka_unit_test(test_model_definitions_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
