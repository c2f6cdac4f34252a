/*
 * Tests of the secret.embedded check run by a real engine over real
 * registries: signals with soft tier, exfiltration threat, field, offset
 * and masked evidence; credential-named and card-named fields; documented
 * placeholders silent; identical output for one or two threads; patterns
 * compiled once per engine; PCRE2 limit hits and candidate overflow
 * recorded as caps while the scan completes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mcpvet/engine.h"
#include "patterns/secrets.h"
#include "tool_builder.h"

extern const mv_check mv_check_secret_embedded;

/* ----------------------------------------------------------- harness */

typedef struct run {
    mv_arena *arena;
    mv_engine *engine;
    mv_registry *registry;
    mv_scan *scan;
} run;

static void run_free(run *r) {
    mv_scan_free(r->scan);
    mv_registry_free(r->registry);
    mv_engine_free(r->engine);
    mv_arena_free(r->arena);
    memset(r, 0, sizeof(*r));
}

static void engine_with(run *r, const mv_check *check) {
    mv_engine_options o;
    memset(&o, 0, sizeof(o));
    o.no_builtin_checks = true;
    mv_error err;
    assert_int_equal(mv_engine_new(&r->engine, &o, &err), 0);
    assert_int_equal(mv_engine_add_check(r->engine, check, &err), 0);
}

static void scan_tools(run *r, mv_tool **tools, size_t n, unsigned jobs) {
    mv_error err;
    r->registry = mv_registry_new(NULL);
    assert_non_null(r->registry);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(mv_registry_add(r->registry, tools[i]), 0);
    assert_int_equal(mv_registry_freeze(r->registry), 0);
    assert_int_equal(mv_scan_new(&r->scan, r->engine, r->registry, &err), 0);
    assert_int_equal(mv_scan_run(r->scan, jobs, &err), 0);
}

/* A one-tool run with the real check; the caller builds the tool in r->arena. */
static const mv_finding *scan_one(run *r, mv_tool *t) {
    engine_with(r, &mv_check_secret_embedded);
    scan_tools(r, &t, 1, 1);
    assert_int_equal(mv_scan_finding_count(r->scan), 1);
    return mv_scan_finding(r->scan, 0);
}

static void new_run(run *r) {
    memset(r, 0, sizeof(*r));
    r->arena = mv_arena_new(NULL, 0);
    assert_non_null(r->arena);
}

/* ----------------------------------------------------------- secrets */

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define B32 "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
#define B64 ALNUM "+/"

/* Append n random characters, retrying the rare draw that reads like a
 * placeholder (that rate is measured in test_patterns_secrets). */
static void fresh(char *buf, const char *alphabet, size_t n) {
    size_t o = strlen(buf), a = strlen(alphabet);
    do {
        for (size_t i = 0; i < n; i++)
            buf[o + i] = alphabet[rnd() % a];
        buf[o + n] = '\0';
    } while (mv_secrets_is_placeholder(buf + o, n));
}

static void luhn_card(char *out, const char *prefix, size_t len) {
    do {
        strcpy(out, prefix);
        for (size_t i = strlen(prefix); i < len - 1; i++)
            out[i] = (char)('0' + rnd() % 10);
        unsigned sum = 0;
        for (size_t i = 0; i < len - 1; i++) {
            unsigned d = (unsigned)(out[len - 2 - i] - '0');
            if (i % 2 == 0)
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            sum += d;
        }
        out[len - 1] = (char)('0' + (10 - sum % 10) % 10);
        out[len] = '\0';
    } while (mv_card_is_test_number(out, len));
}

static const mv_signal *only_signal(const mv_finding *f) {
    assert_int_equal(f->n_signals, 1);
    return &f->signals[0];
}

static bool has_substr(mv_str s, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= s.len; i++)
        if (memcmp(s.ptr + i, needle, n) == 0)
            return true;
    return false;
}

/* ------------------------------------------------------------- tests */

static void test_signal_shape(void **state) {
    (void)state;
    run r;
    new_run(&r);
    char id[32] = "AKIA", sec[64] = "", desc[256];
    fresh(id, B32, 16);
    fresh(sec, B64, 40);
    snprintf(desc, sizeof(desc),
             "Deploy a function. Uses AWS_ACCESS_KEY_ID=%s and "
             "AWS_SECRET_ACCESS_KEY=%s in eu-west-1.",
             id, sec);
    mv_tool *t = tb_tool(r.arena, "deployer", "deploy_lambda", desc);
    const mv_finding *f = scan_one(&r, t);
    assert_int_equal(f->verdict, MV_VERDICT_REVIEW);
    assert_int_equal(f->n_signals, 2);
    const mv_signal *s = &f->signals[0]; /* sorted by offset: the key id first */
    assert_string_equal(s->check_id, "secret.embedded");
    assert_int_equal(s->tier, MV_TIER_SOFT);
    assert_int_equal(s->threat, MV_THREAT_EXFILTRATION);
    assert_false(s->critical);
    assert_int_equal(s->field, 1);
    assert_int_equal(s->offset, (uint32_t)(strstr(desc, id) - desc));
    assert_int_equal(s->length, 20);
    assert_true(s->confidence > 0.85);
    assert_true(has_substr(s->evidence, "AKIA"));
    assert_true(has_substr(s->evidence, "****"));
    assert_false(has_substr(s->evidence, id));
    assert_false(has_substr(s->evidence, id + 8));
    assert_true(has_substr(s->detail, "AWS access key id"));
    assert_true(has_substr(s->detail, "secret access key nearby"));
    const mv_signal *s2 = &f->signals[1];
    assert_int_equal(s2->offset, (uint32_t)(strstr(desc, sec) - desc));
    assert_int_equal(s2->length, 40);
    assert_false(has_substr(s2->evidence, sec + 2));
    assert_true(has_substr(s2->detail, "AWS secret access key"));
    run_free(&r);
}

/* A secret in each kind of field is reported against that field. */
static void test_every_field_kind(void **state) {
    (void)state;
    char tok[64] = "ghp_";
    fresh(tok, ALNUM, 36);
    static const struct {
        mv_field_kind kind;
        const char *path;
    } where[] = {
        {MV_FIELD_TITLE, "title"},
        {MV_FIELD_SCHEMA_DESCRIPTION, "inputSchema.properties.repo.description"},
        {MV_FIELD_SCHEMA_VALUE, "inputSchema.properties.repo.default"},
        {MV_FIELD_SCHEMA_VALUE, "inputSchema.properties.repo.examples[0]"},
        {MV_FIELD_ANNOTATION, "annotations.note"},
        {MV_FIELD_OTHER, "x-internal.auth"},
        {MV_FIELD_PROPERTY_NAME, "outputSchema.properties.x"},
    };
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
        run r;
        new_run(&r);
        mv_tool *t = tb_tool(r.arena, "gh", "create_release", "Create a GitHub release.");
        char text[128];
        snprintf(text, sizeof(text), "auth %s", tok);
        tb_add_field(r.arena, t, where[i].kind, MV_SCHEMA_INPUT, where[i].path, text);
        const mv_finding *f = scan_one(&r, t);
        const mv_signal *s = only_signal(f);
        assert_int_equal(s->field, 2);
        assert_int_equal(s->offset, 5);
        assert_int_equal(s->length, 40);
        assert_true(has_substr(s->field_path, where[i].path));
        assert_true(has_substr(s->detail, "GitHub token"));
        assert_false(has_substr(s->evidence, tok + 6));
        run_free(&r);
    }
}

static void test_family_sample(void **state) {
    (void)state;
    char pem[2048] = "-----BEGIN OPENSSH PRIVATE KEY-----\n";
    for (int i = 0; i < 8; i++) {
        fresh(pem, B64, 64);
        strcat(pem, "\n");
    }
    strcat(pem, "-----END OPENSSH PRIVATE KEY-----");
    char url[128] = "postgres://report_admin:", slack[128] = "xoxb-", sk[128] = "sk_live_";
    fresh(url, ALNUM, 18);
    strcat(url, "@db-prod.internal.example:5432/reports");
    fresh(slack, "0123456789", 12);
    strcat(slack, "-");
    fresh(slack, "0123456789", 13);
    strcat(slack, "-");
    fresh(slack, ALNUM, 24);
    fresh(sk, ALNUM, 99);
    const struct {
        const char *text;
        const char *detail;
    } cases[] = {
        {pem, "private key"},
        {url, "database URL"},
        {slack, "Slack token"},
        {sk, "Stripe live secret key"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run r;
        new_run(&r);
        char desc[2300];
        snprintf(desc, sizeof(desc), "Connects with:\n%s\nthen runs.", cases[i].text);
        const mv_finding *f = scan_one(&r, tb_tool(r.arena, "srv", "tool", desc));
        const mv_signal *s = only_signal(f);
        assert_true(has_substr(s->detail, cases[i].detail));
        assert_int_equal(s->offset, strlen("Connects with:\n"));
        run_free(&r);
    }
}

static void test_credential_named_fields(void **state) {
    (void)state;
    char v[64] = "";
    fresh(v, ALNUM, 32);
    /* Default of "api_key": an unprefixed random value is a low emit. */
    run r;
    new_run(&r);
    mv_tool *t = tb_tool(r.arena, "weather", "forecast", "Weather forecast.");
    tb_add_field(r.arena, t, MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.api_key.default", v);
    const mv_signal *s = only_signal(scan_one(&r, t));
    assert_true(s->confidence >= MV_SECRET_EMIT_THRESHOLD && s->confidence < 0.6);
    assert_true(has_substr(s->detail, "credential field"));
    run_free(&r);
    /* The same value as the default of "query" or in a description is an
     * entropy-only string: silent. */
    new_run(&r);
    t = tb_tool(r.arena, "weather", "forecast", "Weather forecast.");
    tb_add_field(r.arena, t, MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.query.default", v);
    tb_add_field(r.arena, t, MV_FIELD_SCHEMA_DESCRIPTION, MV_SCHEMA_INPUT,
                 "inputSchema.properties.api_key.description", v);
    tb_add_field(r.arena, t, MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.page_token.default", v);
    assert_int_equal(scan_one(&r, t)->n_signals, 0);
    run_free(&r);
    /* A bare card number in a card field, but not in an order id. */
    char card[32];
    luhn_card(card, "51", 16);
    new_run(&r);
    t = tb_tool(r.arena, "travel", "book_flight", "Book a flight.");
    tb_add_field(r.arena, t, MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.card_number.default", card);
    s = only_signal(scan_one(&r, t));
    assert_true(has_substr(s->detail, "Mastercard"));
    assert_false(has_substr(s->evidence, card + 4));
    run_free(&r);
    new_run(&r);
    t = tb_tool(r.arena, "travel", "book_flight", "Book a flight.");
    tb_add_field(r.arena, t, MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.order_id.default", card);
    assert_int_equal(scan_one(&r, t)->n_signals, 0);
    run_free(&r);
}

static void test_placeholders_clean(void **state) {
    (void)state;
    static const char *const descs[] = {
        "Write an AWS CLI profile, e.g. aws_access_key_id = AKIAIOSFODNN7EXAMPLE, "
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.",
        "Create a test-mode charge with sk_test_... and a test card such as 4242 4242 4242 4242.",
        "Format: 'Authorization: Bearer <TOKEN>'. Never paste tokens into prompts.",
        "Set GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX in the environment.",
        "A GitHub classic token is ghp_ followed by 36 letters or digits.",
        "Connection strings follow postgres://USER:PASSWORD@HOST:5432/DBNAME.",
        "Import a key:\n-----BEGIN PRIVATE KEY-----\n...base64...\n-----END PRIVATE KEY-----",
        "Test cards: 4000 0566 5566 5556 (Visa debit), 5555 5555 5555 4444, 3782 822463 10005.",
        "Dev database: postgres://postgres:postgres@localhost:5432/postgres.",
        "Local Azurite: AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OU"
        "zFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "APIキーの形式: sk-xxxxxxxxxxxxxxxx（ダミー値）",
        "SMTP example: smtp://user:xxxx@smtp.example.com:587.",
        "Keep CLIENT_SECRET=<secret> in the server config; use ${API_KEY} or {{api_key}}.",
        "Prefixes: sk-ant- (Anthropic), sk-proj- (OpenAI), xoxb- (Slack), SG. (SendGrid).",
        "Show a commit 3272b682a08ebee061a107afdcba1def474bbb10 or order "
        "2fd2e488-6b76-40f9-90ed-97668abccb65.",
        "Decode eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZW1vLXVzZXIiLCJhdWQiOiJkb2NzLWV4"
        "YW1wbGUiLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLW5vdC12YWxpZA as an example.",
    };
    mv_tool *tools[32];
    run r;
    new_run(&r);
    size_t n = sizeof(descs) / sizeof(descs[0]);
    for (size_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof(name), "t%zu", i);
        tools[i] = tb_tool(r.arena, "docs", name, descs[i]);
    }
    tb_add_field(r.arena, tools[0], MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.api_key.default", "your-api-key-here");
    tb_add_field(r.arena, tools[1], MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.card_number.default", "4242424242424242");
    tb_add_field(r.arena, tools[2], MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.password.default", "dummy");
    tb_add_field(r.arena, tools[3], MV_FIELD_SCHEMA_VALUE, MV_SCHEMA_INPUT,
                 "inputSchema.properties.client_id.default", "YOUR_CLIENT_ID");
    engine_with(&r, &mv_check_secret_embedded);
    scan_tools(&r, tools, n, 1);
    for (size_t i = 0; i < n; i++) {
        const mv_finding *f = mv_scan_finding(r.scan, i);
        if (f->n_signals != 0) {
            print_error("tool %zu flagged: %.*s\n", i, (int)f->signals[0].detail.len,
                        f->signals[0].detail.ptr);
            fail();
        }
        assert_int_equal(f->verdict, MV_VERDICT_CLEAN);
    }
    assert_false(mv_scan_coverage(r.scan)->degraded);
    run_free(&r);
}

/* A registry of many tools, half with secrets of several kinds. */
static size_t build_many(mv_arena *arena, mv_tool **tools, size_t n, char (*secrets)[160]) {
    for (size_t i = 0; i < n; i++) {
        char desc[512], name[32];
        snprintf(name, sizeof(name), "tool_%zu", i);
        secrets[i][0] = '\0';
        switch (i % 6) {
        case 0:
            strcpy(secrets[i], "AKIA");
            fresh(secrets[i], B32, 16);
            break;
        case 1:
            strcpy(secrets[i], "glpat-");
            fresh(secrets[i], ALNUM, 20);
            break;
        case 2:
            strcpy(secrets[i], "sk-ant-api03-");
            fresh(secrets[i], ALNUM, 93);
            break;
        case 3:
            luhn_card(secrets[i], "4", 16);
            break;
        default:
            break;
        }
        snprintf(desc, sizeof(desc),
                 "Tool number %zu lists items page by page; pass the cursor from the previous "
                 "page. %s%s",
                 i, secrets[i][0] ? "Card or key: " : "No credentials here.", secrets[i]);
        tools[i] = tb_tool(arena, i % 2 ? "beta" : "alpha", name, desc);
    }
    return n;
}

static void compare_scans(const mv_scan *a, const mv_scan *b) {
    assert_int_equal(mv_scan_finding_count(a), mv_scan_finding_count(b));
    for (size_t i = 0; i < mv_scan_finding_count(a); i++) {
        const mv_finding *fa = mv_scan_finding(a, i), *fb = mv_scan_finding(b, i);
        assert_int_equal(fa->verdict, fb->verdict);
        assert_int_equal(fa->n_signals, fb->n_signals);
        for (uint32_t k = 0; k < fa->n_signals; k++) {
            const mv_signal *x = &fa->signals[k], *y = &fb->signals[k];
            assert_int_equal(x->field, y->field);
            assert_int_equal(x->offset, y->offset);
            assert_int_equal(x->length, y->length);
            assert_true(x->confidence == y->confidence);
            assert_int_equal(x->evidence.len, y->evidence.len);
            assert_memory_equal(x->evidence.ptr, y->evidence.ptr, x->evidence.len);
            assert_int_equal(x->detail.len, y->detail.len);
            assert_memory_equal(x->detail.ptr, y->detail.ptr, x->detail.len);
        }
    }
}

static void test_threads_identical_and_masked(void **state) {
    (void)state;
    enum { N = 600 };
    static mv_tool *tools[N];
    static char secrets[N][160];
    mv_arena *arena = mv_arena_new(NULL, 0);
    build_many(arena, tools, N, secrets);
    run one, two;
    memset(&one, 0, sizeof(one));
    memset(&two, 0, sizeof(two));
    engine_with(&one, &mv_check_secret_embedded);
    engine_with(&two, &mv_check_secret_embedded);
    scan_tools(&one, tools, N, 1);
    scan_tools(&two, tools, N, 2);
    compare_scans(one.scan, two.scan);
    /* Every tool with a secret is flagged, the others are not, and no
     * evidence shows the secret. */
    size_t flagged = 0;
    for (size_t i = 0; i < N; i++) {
        const mv_finding *f = mv_scan_finding(one.scan, i);
        assert_int_equal(f->n_signals, secrets[i][0] ? 1 : 0);
        if (f->n_signals == 0)
            continue;
        flagged++;
        assert_false(has_substr(f->signals[0].evidence, secrets[i] + 6));
        char tail[8];
        memcpy(tail, secrets[i] + strlen(secrets[i]) - 7, 7);
        tail[7] = '\0';
        assert_false(has_substr(f->signals[0].evidence, tail));
    }
    assert_int_equal(flagged, 400);
    run_free(&one);
    run_free(&two);
    mv_arena_free(arena);
}

static void test_compiled_once_per_engine(void **state) {
    (void)state;
    /* How many patterns one set holds. */
    mv_secrets *probe = NULL;
    assert_int_equal(mv_secrets_new(&probe, NULL, NULL), 0);
    uint64_t per_set = mv_secrets_pattern_count(probe);
    mv_secrets_free(probe);

    enum { N = 120 };
    static mv_tool *tools[N];
    static char secrets[N][160];
    mv_arena *arena = mv_arena_new(NULL, 0);
    build_many(arena, tools, N, secrets);
    uint64_t c1 = mv_secrets_compile_count();
    run r;
    memset(&r, 0, sizeof(r));
    engine_with(&r, &mv_check_secret_embedded);
    /* Patterns compile on first use, not with the engine... */
    assert_int_equal(mv_secrets_compile_count(), c1);
    /* ...each at most once per engine: the first scan compiles what it
     * needs; scans after it, repeated and threaded, never compile. */
    uint64_t c2 = 0;
    for (int round = 0; round < 3; round++) {
        mv_scan_free(r.scan);
        mv_registry_free(r.registry);
        r.scan = NULL;
        r.registry = NULL;
        scan_tools(&r, tools, N, round == 2 ? 2 : 1);
        if (round == 0) {
            c2 = mv_secrets_compile_count();
            assert_true(c2 > c1);
            assert_true(c2 - c1 <= per_set);
        }
    }
    assert_int_equal(mv_secrets_compile_count(), c2);
    run_free(&r);
    mv_arena_free(arena);
}

/* The real inspect with a pattern set whose limits are tiny: every limit
 * hit is recorded as a cap, the scan completes and is marked degraded. */
static int init_tiny_limits(const mv_allocator *a, void **state) {
    mv_secrets_options o = {1, 1, 1, true, false};
    mv_secrets *s = NULL;
    int rc = mv_secrets_new(&s, a, &o);
    *state = s;
    return rc;
}

static void test_match_limit_recorded(void **state) {
    (void)state;
    mv_check tiny = mv_check_secret_embedded;
    tiny.id = "secret.embedded.tiny";
    tiny.init = init_tiny_limits;
    run r;
    new_run(&r);
    char desc[128] = "Release with token ghp_";
    fresh(desc, ALNUM, 36);
    engine_with(&r, &tiny);
    mv_tool *t = tb_tool(r.arena, "gh", "release", desc);
    scan_tools(&r, &t, 1, 1);
    const mv_coverage *cov = mv_scan_coverage(r.scan);
    assert_true(cov->degraded);
    assert_int_equal(cov->checks_failed, 0);
    bool found = false;
    for (uint32_t i = 0; i < cov->n_caps; i++) {
        if (strcmp(cov->caps[i].cap, "secret_match_limit") == 0) {
            found = true;
            assert_string_equal(cov->caps[i].check_id, "secret.embedded.tiny");
            assert_int_equal(cov->caps[i].limit, 1);
            assert_true(cov->caps[i].observed >= 1);
            assert_int_equal(cov->caps[i].tool_index, 0);
        }
    }
    assert_true(found);
    run_free(&r);

    /* The real check on pathological text: completes, nothing degraded
     * unless a limit was really hit (the patterns are possessive, so none
     * is). */
    new_run(&r);
    size_t len = 60000;
    char *big = mv_arena_alloc(r.arena, len + 1);
    assert_non_null(big);
    memcpy(big, "password: ", 10);
    for (size_t i = 10; i < len; i++)
        big[i] = (char)(i % 3 == 0 ? ':' : (i % 3 == 1 ? ' ' : 'a'));
    big[len] = '\0';
    const mv_finding *f = scan_one(&r, tb_tool(r.arena, "x", "y", big));
    assert_int_equal(f->n_signals, 0);
    assert_false(mv_scan_coverage(r.scan)->degraded);
    run_free(&r);
}

static void test_candidate_cap_recorded(void **state) {
    (void)state;
    run r;
    new_run(&r);
    size_t len = 30000;
    char *big = mv_arena_alloc(r.arena, len + 1);
    assert_non_null(big);
    for (size_t i = 0; i < len; i += 3)
        memcpy(big + i, "sk-", 3);
    big[len] = '\0';
    const mv_finding *f = scan_one(&r, tb_tool(r.arena, "x", "y", big));
    assert_int_equal(f->n_signals, 0);
    const mv_coverage *cov = mv_scan_coverage(r.scan);
    assert_true(cov->degraded);
    bool found = false;
    for (uint32_t i = 0; i < cov->n_caps; i++)
        if (strcmp(cov->caps[i].cap, "secret_candidates") == 0) {
            found = true;
            assert_int_equal(cov->caps[i].limit, MV_SECRETS_MAX_CANDIDATES);
            assert_true(cov->caps[i].observed > MV_SECRETS_MAX_CANDIDATES);
        }
    assert_true(found);
    run_free(&r);
}

static void test_signal_cap_stops(void **state) {
    (void)state;
    /* Forty distinct tokens: the engine's per-tool cap (32) stops the
     * check, which is not a failure. */
    run r;
    new_run(&r);
    char *desc = mv_arena_alloc(r.arena, 40 * 48 + 1);
    desc[0] = '\0';
    for (int i = 0; i < 40; i++) {
        strcat(desc, "ghp_");
        fresh(desc, ALNUM, 36);
        strcat(desc, " ");
    }
    const mv_finding *f = scan_one(&r, tb_tool(r.arena, "x", "y", desc));
    assert_int_equal(f->n_signals, MV_DEFAULT_MAX_SIGNALS_PER_TOOL);
    assert_int_equal(f->n_failed_checks, 0);
    assert_true(mv_scan_coverage(r.scan)->degraded);
    run_free(&r);
}

/* The last of the phrase-era soft checks; only the learned wording check
 * (test_check_wording.c) comes after it. */
static void test_registered_last(void **state) {
    (void)state;
    const char *const *ids = mv_builtin_check_ids();
    size_t n = 0;
    while (ids[n] != NULL)
        n++;
    assert_true(n >= 2);
    assert_string_equal(ids[n - 2], "secret.embedded");
    assert_string_equal(ids[n - 1], "wording.learned");
    assert_int_equal(mv_check_secret_embedded.tier, MV_TIER_SOFT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_shape),
        cmocka_unit_test(test_every_field_kind),
        cmocka_unit_test(test_family_sample),
        cmocka_unit_test(test_credential_named_fields),
        cmocka_unit_test(test_placeholders_clean),
        cmocka_unit_test(test_threads_identical_and_masked),
        cmocka_unit_test(test_compiled_once_per_engine),
        cmocka_unit_test(test_match_limit_recorded),
        cmocka_unit_test(test_candidate_cap_recorded),
        cmocka_unit_test(test_signal_cap_stops),
        cmocka_unit_test(test_registered_last),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
