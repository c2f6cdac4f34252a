/*
 * Tests of the secret matchers (src/engine/patterns): every format family
 * found in freshly generated fake secrets, every placeholder class dropped,
 * Luhn and card brands, masking, JWT header checks, entropy-only hits kept
 * low, patterns compiled once, and PCRE2 limits counted instead of hanging.
 *
 * Fake secrets come from a seeded generator so a failure reproduces; the
 * values are random strings shaped like each issuer's format, never real
 * credentials.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "fail_alloc.h"
#include "patterns/secrets.h"

/* ------------------------------------------------------------ fixtures */

typedef struct fx {
    mv_secrets *secrets;
    mv_arena *arena;
    mv_secrets_scanner sc;
    mv_secret_match m[MV_SECRETS_MAX_MATCHES];
    size_t n;
} fx;

static fx F;

static int setup(void **state) {
    (void)state;
    memset(&F, 0, sizeof(F));
    if (mv_secrets_new(&F.secrets, NULL, NULL) != 0)
        return -1;
    F.arena = mv_arena_new(NULL, 0);
    return F.arena != NULL ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    mv_secrets_free(F.secrets);
    mv_arena_free(F.arena);
    return 0;
}

/* Scan with a fresh scanner (as the check does once per tool). */
static size_t scan_flags(const char *text, size_t len, unsigned flags, const char *key) {
    mv_arena_reset(F.arena);
    mv_secrets_scanner_init(&F.sc, F.secrets, F.arena);
    mv_str k = key != NULL ? (mv_str){key, strlen(key)} : MV_STR_NULL;
    F.n = 0;
    assert_int_equal(mv_secrets_scan(&F.sc, text, len, flags, k, F.m, MV_SECRETS_MAX_MATCHES, &F.n),
                     0);
    return F.n;
}

static size_t scan(const char *text) {
    return scan_flags(text, strlen(text), 0, NULL);
}

/* Matches a caller would emit. */
static size_t emitted(void) {
    size_t k = 0;
    for (size_t i = 0; i < F.n; i++)
        if (!F.m[i].placeholder && F.m[i].confidence >= MV_SECRET_EMIT_THRESHOLD)
            k++;
    return k;
}

static const mv_secret_match *find_kind(mv_secret_kind kind) {
    for (size_t i = 0; i < F.n; i++)
        if (F.m[i].kind == kind)
            return &F.m[i];
    return NULL;
}

/* ----------------------------------------------------------- generator */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define B64 ALNUM "+/"
#define B64URL ALNUM "-_"
#define HEXL "0123456789abcdef"
#define B32 "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
#define UPNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#define DIGITS "0123456789"

/* Append n random characters of `alphabet` to buf. */
static void rnd_append(char *buf, const char *alphabet, size_t n) {
    size_t a = strlen(alphabet), o = strlen(buf);
    for (size_t i = 0; i < n; i++)
        buf[o + i] = alphabet[rnd() % a];
    buf[o + n] = '\0';
}

/* A random string that does not look like a placeholder by accident (the
 * matchers drop those on purpose; their rate is measured separately). */
static void rnd_token(char *buf, const char *alphabet, size_t n) {
    size_t o = strlen(buf);
    do {
        buf[o] = '\0';
        rnd_append(buf, alphabet, n);
    } while (mv_secrets_is_placeholder(buf + o, n));
}

static void b64url_encode(char *out, const unsigned char *in, size_t n) {
    static const char tab[] = ALNUM "-_";
    size_t o = strlen(out);
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc = (acc << 8) | in[i];
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out[o++] = tab[(acc >> bits) & 63u];
        }
    }
    if (bits > 0)
        out[o++] = tab[(acc << (6 - bits)) & 63u];
    out[o] = '\0';
}

static void b64_encode(char *out, const unsigned char *in, size_t n) {
    static const char tab[] = B64;
    size_t o = strlen(out);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[o++] = tab[(v >> 18) & 63u];
        out[o++] = tab[(v >> 12) & 63u];
        out[o++] = i + 1 < n ? tab[(v >> 6) & 63u] : '=';
        out[o++] = i + 2 < n ? tab[v & 63u] : '=';
    }
    out[o] = '\0';
}

/* A Luhn-valid number: prefix, random middle, check digit. */
static void rnd_card(char *out, const char *prefix, size_t len) {
    for (;;) {
        strcpy(out, prefix);
        rnd_append(out, DIGITS, len - strlen(prefix) - 1);
        unsigned sum = 0;
        for (size_t i = 0; i < len - 1; i++) {
            unsigned d = (unsigned)(out[len - 2 - i] - '0');
            if (i % 2 == 0) {
                d *= 2;
                if (d > 9)
                    d -= 9;
            }
            sum += d;
        }
        out[len - 1] = (char)('0' + (10 - sum % 10) % 10);
        out[len] = '\0';
        if (!mv_card_is_test_number(out, len))
            return;
    }
}

/* -------------------------------------------------------- assertions */

/* `text` holds `secret` once; exactly one emitted match of `kind` covers
 * it, and its mask never shows the secret part. */
static void expect_found_at(const char *text, const char *secret, mv_secret_kind kind,
                            unsigned flags, const char *key) {
    scan_flags(text, strlen(text), flags, key);
    const char *at = strstr(text, secret);
    assert_non_null(at);
    const mv_secret_match *m = find_kind(kind);
    if (m == NULL || m->placeholder || m->confidence < MV_SECRET_EMIT_THRESHOLD) {
        print_error("missing %s in: %s (n=%zu", mv_secret_kind_name(kind), text, F.n);
        for (size_t i = 0; i < F.n; i++)
            print_error(" [%s %.2f%s]", mv_secret_kind_name(F.m[i].kind), F.m[i].confidence,
                        F.m[i].placeholder ? " placeholder" : "");
        print_error(")\n");
        fail();
    }
    /* The range covers the secret (URLs and PEM blocks carry a public prefix). */
    size_t off = (size_t)(at - text);
    assert_true(m->start <= off + strlen(secret));
    assert_true(m->start + m->length >= off + 1);
    assert_true(m->start + m->length <= strlen(text));
    char masked[256];
    size_t ml = mv_secrets_mask(masked, sizeof(masked), text, m);
    assert_true(ml > 0);
    assert_non_null(strchr(masked, '*'));
    /* No 8-byte window of the secret survives masking (only the part of it
     * after the public prefix and the few shown bytes is secret). */
    size_t hidden = m->start + m->public_len + m->show;
    size_t r0 = off > hidden ? off : hidden;
    size_t r1 =
        off + strlen(secret) < m->start + m->length ? off + strlen(secret) : m->start + m->length;
    assert_true(r1 > r0);
    for (size_t i = r0; i + 8 <= r1; i++) {
        char win[9];
        memcpy(win, text + i, 8);
        win[8] = '\0';
        if (strstr(masked, win) != NULL) {
            print_error("mask %s leaks %s\n", masked, win);
            fail();
        }
    }
}

static void expect_found(const char *text, const char *secret, mv_secret_kind kind) {
    expect_found_at(text, secret, kind, 0, NULL);
}

/* Nothing a caller would emit. */
static void expect_silent_flags(const char *text, unsigned flags, const char *key) {
    scan_flags(text, strlen(text), flags, key);
    if (emitted() != 0) {
        for (size_t i = 0; i < F.n; i++)
            print_error("unexpected %s %.2f at %u+%u in: %s\n", mv_secret_kind_name(F.m[i].kind),
                        F.m[i].confidence, F.m[i].start, F.m[i].length, text);
        fail();
    }
}

static void expect_silent(const char *text) {
    expect_silent_flags(text, 0, NULL);
}

/* ---------------------------------------------------------- families */

typedef struct shape {
    mv_secret_kind kind;
    const char *prefix;
    const char *alphabet;
    size_t n;
    const char *mid; /* optional second part: "sep" then n2 more */
    const char *alphabet2;
    size_t n2;
} shape;

static const shape shapes[] = {
    {MV_SECRET_AWS_ACCESS_KEY_ID, "AKIA", B32, 16, NULL, NULL, 0},
    {MV_SECRET_AWS_ACCESS_KEY_ID, "ASIA", B32, 16, NULL, NULL, 0},
    {MV_SECRET_GCP_API_KEY, "AIza", B64URL, 35, NULL, NULL, 0},
    {MV_SECRET_GITHUB, "ghp_", ALNUM, 36, NULL, NULL, 0},
    {MV_SECRET_GITHUB, "gho_", ALNUM, 36, NULL, NULL, 0},
    {MV_SECRET_GITHUB, "ghu_", ALNUM, 36, NULL, NULL, 0},
    {MV_SECRET_GITHUB, "ghs_", ALNUM, 36, NULL, NULL, 0},
    {MV_SECRET_GITHUB, "ghr_", ALNUM, 36, NULL, NULL, 0},
    {MV_SECRET_GITHUB, "github_pat_", ALNUM, 22, "_", ALNUM, 59},
    {MV_SECRET_GITLAB, "glpat-", ALNUM, 20, NULL, NULL, 0},
    {MV_SECRET_SLACK, "xoxb-", DIGITS, 12, "-", DIGITS, 13},
    {MV_SECRET_SLACK, "xoxp-", DIGITS, 12, "-", ALNUM, 32},
    {MV_SECRET_SLACK, "xoxa-2-", DIGITS, 12, "-", ALNUM, 30},
    {MV_SECRET_SLACK, "xoxs-", DIGITS, 12, "-", ALNUM, 30},
    {MV_SECRET_STRIPE, "sk_live_", ALNUM, 99, NULL, NULL, 0},
    {MV_SECRET_STRIPE, "rk_live_", ALNUM, 99, NULL, NULL, 0},
    {MV_SECRET_STRIPE_WEBHOOK, "whsec_", ALNUM, 32, NULL, NULL, 0},
    {MV_SECRET_ANTHROPIC, "sk-ant-api03-", B64URL, 93, NULL, NULL, 0},
    {MV_SECRET_OPENAI, "sk-proj-", B64URL, 156, NULL, NULL, 0},
    {MV_SECRET_OPENAI, "sk-svcacct-", B64URL, 120, NULL, NULL, 0},
    {MV_SECRET_OPENAI, "sk-", ALNUM, 20, "T3BlbkFJ", ALNUM, 20},
    {MV_SECRET_OPENAI, "sk-", ALNUM, 48, NULL, NULL, 0},
    {MV_SECRET_OPENROUTER, "sk-or-v1-", HEXL, 64, NULL, NULL, 0},
    {MV_SECRET_SK_GENERIC, "sk-", HEXL, 32, NULL, NULL, 0},
    {MV_SECRET_HUGGINGFACE, "hf_", ALNUM, 34, NULL, NULL, 0},
    {MV_SECRET_GROQ, "gsk_", ALNUM, 52, NULL, NULL, 0},
    {MV_SECRET_REPLICATE, "r8_", ALNUM, 37, NULL, NULL, 0},
    {MV_SECRET_XAI, "xai-", ALNUM, 80, NULL, NULL, 0},
    {MV_SECRET_PERPLEXITY, "pplx-", ALNUM, 48, NULL, NULL, 0},
    {MV_SECRET_TAVILY, "tvly-dev-", ALNUM, 32, NULL, NULL, 0},
    {MV_SECRET_LANGSMITH, "lsv2_pt_", HEXL, 32, "_", HEXL, 10},
    {MV_SECRET_GOOGLE_OAUTH_SECRET, "GOCSPX-", B64URL, 28, NULL, NULL, 0},
    {MV_SECRET_SENDGRID, "SG.", B64URL, 22, ".", B64URL, 43},
    {MV_SECRET_NPM, "npm_", ALNUM, 36, NULL, NULL, 0},
    {MV_SECRET_PYPI, "pypi-AgEIcHlwaS5vcmc", B64URL, 120, NULL, NULL, 0},
    {MV_SECRET_SHOPIFY, "shpat_", HEXL, 32, NULL, NULL, 0},
    {MV_SECRET_VAULT, "hvs.", B64URL, 90, NULL, NULL, 0},
    {MV_SECRET_DIGITALOCEAN, "dop_v1_", HEXL, 64, NULL, NULL, 0},
    {MV_SECRET_LINEAR, "lin_api_", ALNUM, 40, NULL, NULL, 0},
    {MV_SECRET_NOTION, "ntn_", ALNUM, 46, NULL, NULL, 0},
    {MV_SECRET_NOTION, "secret_", ALNUM, 43, NULL, NULL, 0},
    {MV_SECRET_ATLASSIAN, "ATATT3", B64URL, 180, NULL, NULL, 0},
    {MV_SECRET_POSTMAN, "PMAK-", HEXL, 24, "-", HEXL, 34},
    {MV_SECRET_DATABRICKS, "dapi", HEXL, 32, NULL, NULL, 0},
    {MV_SECRET_SENTRY, "sntrys_", B64, 80, NULL, NULL, 0},
    {MV_SECRET_GRAFANA, "glsa_", ALNUM, 32, "_", HEXL, 8},
    {MV_SECRET_GRAFANA, "glc_", B64, 60, NULL, NULL, 0},
    {MV_SECRET_SUPABASE, "sbp_", HEXL, 40, NULL, NULL, 0},
    {MV_SECRET_SUPABASE, "sb_secret_", B64URL, 30, NULL, NULL, 0},
    {MV_SECRET_AGE, "AGE-SECRET-KEY-1", UPNUM, 58, NULL, NULL, 0},
    {MV_SECRET_DOPPLER, "dp.pt.", ALNUM, 43, NULL, NULL, 0},
    {MV_SECRET_SQUARE, "sq0atp-", B64URL, 22, NULL, NULL, 0},
    {MV_SECRET_MAILGUN, "key-", HEXL, 32, NULL, NULL, 0},
    {MV_SECRET_FIGMA, "figd_", B64URL, 40, NULL, NULL, 0},
    {MV_SECRET_SLACK_WEBHOOK, "https://hooks.slack.com/services/T", UPNUM, 9, "/B", UPNUM, 9},
};

/* Build one instance of a shape into buf (the secret alone). */
static void build_shape(char *buf, const shape *s) {
    strcpy(buf, s->prefix);
    rnd_token(buf, s->alphabet, s->n);
    if (s->mid != NULL) {
        strcat(buf, s->mid);
        rnd_token(buf, s->alphabet2, s->n2);
    }
    if (s->kind == MV_SECRET_SLACK) {
        strcat(buf, "-");
        rnd_token(buf, ALNUM, 24);
    }
    if (s->kind == MV_SECRET_SLACK_WEBHOOK) {
        strcat(buf, "/");
        rnd_token(buf, ALNUM, 24);
    }
}

static void test_prefixed_families(void **state) {
    (void)state;
    char secret[512], text[1024];
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        for (int rep = 0; rep < 20; rep++) {
            build_shape(secret, &shapes[i]);
            /* Three placements: prose, an env assignment, a JSON value. */
            const char *fmt = rep % 3 == 0   ? "Deploys with the shared key %s in region eu."
                              : rep % 3 == 1 ? "export SERVICE_KEY=%s\n"
                                             : "{\"key\": \"%s\"}";
            snprintf(text, sizeof(text), fmt, secret);
            expect_found(text, secret, shapes[i].kind);
        }
    }
}

static void test_aws_secret_nearby_raises(void **state) {
    (void)state;
    char id[32] = "AKIA", sec[64] = "", text[512];
    rnd_token(id, B32, 16);
    snprintf(text, sizeof(text), "Use %s for deploys.", id);
    expect_found(text, id, MV_SECRET_AWS_ACCESS_KEY_ID);
    double alone = find_kind(MV_SECRET_AWS_ACCESS_KEY_ID)->confidence;
    assert_false(find_kind(MV_SECRET_AWS_ACCESS_KEY_ID)->corroborated);

    rnd_token(sec, B64, 40);
    snprintf(text, sizeof(text), "AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s region=eu", id,
             sec);
    expect_found(text, id, MV_SECRET_AWS_ACCESS_KEY_ID);
    const mv_secret_match *m = find_kind(MV_SECRET_AWS_ACCESS_KEY_ID);
    assert_true(m->corroborated);
    assert_true(m->confidence > alone);
    /* The secret key is named as such, not as a generic keyword value. */
    expect_found(text, sec, MV_SECRET_AWS_SECRET_KEY);
    assert_null(find_kind(MV_SECRET_KEYWORD));
}

static void test_gcp_service_account(void **state) {
    (void)state;
    char body[2048] = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC";
    for (int line = 0; line < 12; line++) {
        rnd_append(body, B64, 64);
        strcat(body, "\\n");
    }
    char text[4096];
    snprintf(
        text, sizeof(text),
        "{\n \"type\": \"service_account\",\n \"project_id\": \"demo-4471\",\n"
        " \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n%s-----END PRIVATE KEY-----\\n\"\n}",
        body);
    expect_found(text, body, MV_SECRET_GCP_SERVICE_ACCOUNT);
    /* Reported once, not again as a plain private key. */
    assert_null(find_kind(MV_SECRET_PRIVATE_KEY));
}

static void test_azure(void **state) {
    (void)state;
    unsigned char raw[64];
    char key[128] = "", text[1024];
    for (size_t i = 0; i < sizeof(raw); i++)
        raw[i] = (unsigned char)rnd();
    b64_encode(key, raw, 64);
    snprintf(text, sizeof(text),
             "DefaultEndpointsProtocol=https;AccountName=contosoprod;AccountKey=%s;"
             "EndpointSuffix=core.windows.net",
             key);
    expect_found(text, key, MV_SECRET_AZURE_STORAGE_KEY);

    char sb[64] = "";
    b64_encode(sb, raw, 32);
    snprintf(text, sizeof(text),
             "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;"
             "SharedAccessKey=%s",
             sb);
    expect_found(text, sb, MV_SECRET_AZURE_SHARED_ACCESS_KEY);

    char sig[128] = "";
    b64_encode(sig, raw, 32);
    sig[43] = '\0'; /* drop the '=' and URL-encode it */
    strcat(sig, "%3D");
    snprintf(text, sizeof(text),
             "GET https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r"
             "&se=2030-01-01T00:00:00Z&sig=%s",
             sig);
    expect_found(text, sig, MV_SECRET_AZURE_SAS);
    /* sig= without a SAS version is some other signature. */
    snprintf(text, sizeof(text), "https://cdn.example.com/a.png?w=100&sig=%s", sig);
    scan(text);
    assert_null(find_kind(MV_SECRET_AZURE_SAS));

    char cs[64] = "";
    rnd_token(cs, ALNUM, 3);
    strcat(cs, "8Q~");
    rnd_token(cs, B64URL, 34);
    snprintf(text, sizeof(text), "client secret: %s", cs);
    expect_found(text, cs, MV_SECRET_AZURE_CLIENT_SECRET);
}

static void pem_text(char *text, size_t cap, const char *type, const char *headers,
                     char *body_out) {
    char body[2048] = "";
    if (strcmp(type, "OPENSSH ") == 0)
        strcat(body, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz\n");
    for (int line = 0; line < 10; line++) {
        rnd_append(body, B64, 64);
        strcat(body, "\n");
    }
    strcpy(body_out, body);
    snprintf(text, cap,
             "Key for the deploy user:\n-----BEGIN %sPRIVATE KEY-----\n%s%s-----END %sPRIVATE "
             "KEY-----\n",
             type, headers, body, type);
}

static void test_private_keys(void **state) {
    (void)state;
    static const char *const types[] = {"", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "};
    char text[4096], body[2048];
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        pem_text(text, sizeof(text), types[i], "", body);
        expect_found(text, body + 70, MV_SECRET_PRIVATE_KEY);
        const mv_secret_match *m = find_kind(MV_SECRET_PRIVATE_KEY);
        /* The mask shows the BEGIN line, nothing of the body. */
        char masked[256];
        mv_secrets_mask(masked, sizeof(masked), text, m);
        assert_non_null(strstr(masked, "PRIVATE KEY-----"));
        assert_null(strstr(masked, "MII"));
    }
    /* Legacy encrypted RSA with Proc-Type headers. */
    pem_text(text, sizeof(text), "RSA ",
             "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n", body);
    expect_found(text, body + 70, MV_SECRET_PRIVATE_KEY);
    assert_true(find_kind(MV_SECRET_PRIVATE_KEY)->confidence < 0.95);
    /* PGP armour. */
    pem_text(text, sizeof(text), "", "", body);
    char pgp[4096];
    snprintf(pgp, sizeof(pgp),
             "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n%s-----END PGP PRIVATE "
             "KEY BLOCK-----",
             body);
    expect_found(pgp, body + 70, MV_SECRET_PRIVATE_KEY);
    /* JSON-escaped newlines, as in an embedded credentials file. */
    char esc[4096] = "\"key\": \"-----BEGIN RSA PRIVATE KEY-----\\n";
    for (int line = 0; line < 10; line++) {
        rnd_append(esc, B64, 64);
        strcat(esc, "\\n");
    }
    strcat(esc, "-----END RSA PRIVATE KEY-----\\n\"");
    scan(esc);
    assert_non_null(find_kind(MV_SECRET_PRIVATE_KEY));
    assert_true(emitted() == 1);
}

static void test_jwt(void **state) {
    (void)state;
    char tok[1024] = "", text[1200];
    static const char header[] = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    char payload[256] = "{\"iss\":\"auth\",\"ref\":\"";
    rnd_token(payload, "abcdefghijklmnopqrstuvwxyz", 20);
    strcat(payload, "\",\"role\":\"service_role\",\"iat\":1761955200}");
    unsigned char sig[32];
    for (size_t i = 0; i < sizeof(sig); i++)
        sig[i] = (unsigned char)rnd();
    b64url_encode(tok, (const unsigned char *)header, strlen(header));
    strcat(tok, ".");
    b64url_encode(tok, (const unsigned char *)payload, strlen(payload));
    strcat(tok, ".");
    b64url_encode(tok, sig, sizeof(sig));
    snprintf(text, sizeof(text), "Run admin queries with the service role key %s", tok);
    expect_found(text, tok, MV_SECRET_JWT);
    assert_true(find_kind(MV_SECRET_JWT)->corroborated);

    /* Header that is not JSON with "alg": not a JWT at all. */
    char bad[1024] = "";
    static const char notjson[] = "{\"typ\":\"JWT\",\"kid\":\"k1\"}";
    b64url_encode(bad, (const unsigned char *)notjson, strlen(notjson));
    strcat(bad, ".");
    b64url_encode(bad, (const unsigned char *)payload, strlen(payload));
    strcat(bad, ".");
    b64url_encode(bad, sig, sizeof(sig));
    scan(bad);
    assert_null(find_kind(MV_SECRET_JWT));

    /* HS256 with a 64-byte signature: the sizes disagree, kept low. */
    unsigned char sig64[64];
    for (size_t i = 0; i < sizeof(sig64); i++)
        sig64[i] = (unsigned char)rnd();
    char wrong[1024] = "";
    b64url_encode(wrong, (const unsigned char *)header, strlen(header));
    strcat(wrong, ".");
    b64url_encode(wrong, (const unsigned char *)payload, strlen(payload));
    strcat(wrong, ".");
    b64url_encode(wrong, sig64, sizeof(sig64));
    scan(wrong);
    assert_non_null(find_kind(MV_SECRET_JWT));
    assert_true(find_kind(MV_SECRET_JWT)->confidence < MV_SECRET_EMIT_THRESHOLD);

    /* A readable signature and a John Doe payload are documentation. */
    char doc[1024] = "";
    b64url_encode(doc, (const unsigned char *)header, strlen(header));
    strcat(doc, ".");
    b64url_encode(doc, (const unsigned char *)payload, strlen(payload));
    strcat(doc, ".");
    b64url_encode(doc, (const unsigned char *)"signature-not-valid", 19);
    expect_silent(doc);
    char jd[1024] = "";
    static const char john[] = "{\"sub\":\"8812\",\"name\":\"John Doe\",\"iat\":1516239022}";
    b64url_encode(jd, (const unsigned char *)header, strlen(header));
    strcat(jd, ".");
    b64url_encode(jd, (const unsigned char *)john, strlen(john));
    strcat(jd, ".");
    b64url_encode(jd, sig, sizeof(sig));
    expect_silent(jd);
    /* A signed token with no registered claim is a library's example. */
    char some[1024] = "";
    static const char trivial[] = "{\"some\":\"payload\"}";
    b64url_encode(some, (const unsigned char *)header, strlen(header));
    strcat(some, ".");
    b64url_encode(some, (const unsigned char *)trivial, strlen(trivial));
    strcat(some, ".");
    b64url_encode(some, sig, sizeof(sig));
    scan(some);
    assert_non_null(find_kind(MV_SECRET_JWT));
    assert_int_equal(emitted(), 0);
    /* Base64url JSON without the three parts (a cursor) is not a JWT. */
    expect_silent("cursor eyJhZnRlciI6IjIwMjYtMDMtMDFUMTA6MDA6MDBaIiwiaWQiOjQ4MjEzfQ");
    expect_silent("A JWT has three parts, e.g. eyJhbGciOi...<payload>.<signature>.");
}

static void test_bearer_and_basic(void **state) {
    (void)state;
    char tok[64] = "", text[256];
    rnd_token(tok, ALNUM, 40);
    snprintf(text, sizeof(text), "Send header 'Authorization: Bearer %s' with every request.", tok);
    expect_found(text, tok, MV_SECRET_BEARER);
    assert_true(find_kind(MV_SECRET_BEARER)->corroborated);
    expect_silent("Format: 'Authorization: Bearer <TOKEN>'. Replace <TOKEN> with your token.");
    expect_silent("Authorization: Bearer YOUR_ACCESS_TOKEN");
    expect_silent("Authorization: Bearer ${API_TOKEN}");
    expect_silent("Uses Bearer authentication with the configured credentials.");

    char pw[32] = "", cred[64] = "svc-reader:", enc[128] = "";
    rnd_token(pw, ALNUM, 18);
    strcat(cred, pw);
    b64_encode(enc, (const unsigned char *)cred, strlen(cred));
    snprintf(text, sizeof(text), "Authorization: Basic %s", enc);
    expect_found(text, enc, MV_SECRET_BASIC_AUTH);
    char weak[128] = "";
    b64_encode(weak, (const unsigned char *)"user:password", 13);
    snprintf(text, sizeof(text), "Authorization: Basic %s", weak);
    expect_silent(text);
}

static void test_urls(void **state) {
    (void)state;
    static const struct {
        const char *fmt;
        mv_secret_kind kind;
    } cases[] = {
        {"postgres://report_admin:%s@db-prod.internal.example:5432/reports",
         MV_SECRET_DATABASE_URL},
        {"postgresql://export:%s@10.20.0.15:5432/kunden", MV_SECRET_DATABASE_URL},
        {"mysql://root:%s@198.51.100.30:3306/shop", MV_SECRET_DATABASE_URL},
        {"mongodb://svc:%s@mongo1.example.net:27017/events", MV_SECRET_DATABASE_URL},
        {"mongodb+srv://svc_events:%s@cluster0.evn42.example.net/events?retryWrites=true",
         MV_SECRET_DATABASE_URL},
        {"redis://:%s@203.0.113.55:6379/0", MV_SECRET_DATABASE_URL},
        {"amqp://ops:%s@mq.internal.example:5672/prod", MV_SECRET_DATABASE_URL},
        {"amqps://ops:%s@mq.internal.example:5671/prod", MV_SECRET_DATABASE_URL},
        {"jdbc:postgresql://app:%s@db.example.org/app", MV_SECRET_DATABASE_URL},
        {"https://svc-reader:%s@intranet.corp.example/", MV_SECRET_URL_CREDENTIALS},
        {"smtps://alerts:%s@mail.corp.example:465", MV_SECRET_URL_CREDENTIALS},
    };
    char pw[32], text[256];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pw[0] = '\0';
        rnd_token(pw, ALNUM, 18);
        snprintf(text, sizeof(text), cases[i].fmt, pw);
        expect_found(text, pw, cases[i].kind);
        /* The mask keeps the scheme and user, hides the password. */
        char masked[256];
        mv_secrets_mask(masked, sizeof(masked), text, find_kind(cases[i].kind));
        assert_non_null(strstr(masked, "://"));
        assert_null(strstr(masked, pw));
    }
    /* Placeholder passwords, template values and local defaults. */
    expect_silent("Connection strings follow postgres://USER:PASSWORD@HOST:5432/DBNAME.");
    expect_silent("postgres://postgres:postgres@localhost:5432/postgres");
    expect_silent("postgres://user:password@localhost/db");
    expect_silent("mysql://root:changeme@db.example.com/app");
    expect_silent("postgres://app:${DB_PASSWORD}@db:5432/app");
    expect_silent("postgres://app:{{ db_password }}@db:5432/app");
    expect_silent("redis://:<password>@cache:6379");
    expect_silent("smtp://user:xxxx@smtp.example.com:587 (replace xxxx with your password)");
    expect_silent("amqp://guest:guest@localhost:5672/");
    expect_silent("mongodb://admin:secret@mongo:27017");
    expect_silent("https://api.example.com:8443/v1/items?page=2");
    expect_silent("Encode reserved characters: https://user:he%2F%2Fo@example.org/");
    expect_silent("git clone https://github.com/org/repo.git");
}

static void test_keyword_values(void **state) {
    (void)state;
    char v[64], text[256];
    static const char *const fmts[] = {
        "password: %s",       "client_secret=%s",       "API token %s (basic auth)",
        "\"apiKey\": \"%s\"", "paging service key: %s", "Auth Token %s.",
    };
    for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
        v[0] = '\0';
        if (i % 2 == 0)
            rnd_token(v, ALNUM, 22);
        else
            rnd_token(v, HEXL, 32);
        snprintf(text, sizeof(text), fmts[i], v);
        expect_found(text, v, MV_SECRET_KEYWORD);
        /* Keyword hits are the low band: emitted but never strong. */
        assert_true(find_kind(MV_SECRET_KEYWORD)->confidence <= 0.5);
    }
    expect_silent("token: string (required)");
    expect_silent("password: your-password-here");
    expect_silent("Set the password=changeme123 only in development.");
    expect_silent("api_key: MY_SERVICE_API_KEY");
    expect_silent("Pass the pagination token nextPageToken: CiAKGjBpNDd2Nmp2Zml2cXRtNGd6c2");
    expect_silent("max_tokens: 4096");
    expect_silent("idempotency key: df21861e-5932-4390-b3c9-ae5edd7e935c");
    expect_silent("token: getAccessTokenForUser");
    expect_silent("secret: /run/secrets/db_password");
    expect_silent("password: ********");
    expect_silent("api_key=sk_test_4eC39HqLyjWDarjtT1zdp7dc");
    expect_silent("publishable key: pk_live_51H8sQhK2cDwzyQ7vA8mRk4TnE");
    /* Source code: declarations and constants after credential words. */
    expect_silent("SECKEYPrivateKey *PK11_FindPrivateKeyFromCert(PK11SlotInfo *slot);");
    expect_silent("#define CKA_SECRET_KEY   SEC_PKCS12PrivateKeyBag");
    expect_silent("KEY = GNUTLS_PKCS11_OBJ_FLAG_PUBKEY,");
    expect_silent("int private_key nettle_ed25519_sha512_set_private_key(void);");
    expect_silent("#define CKR_PASSWORD_CHECK          0xce534356UL");
    expect_silent("token Summer_Sale2024_Banner");
    /* base64 of "not my real password"; a printf format string. */
    expect_silent("password: 'bm90IG15IHJlYWwgcGFzc3dvcmQ='");
    expect_silent("key = \"VS%0.f0COMNTOOLS\" % version");
    expect_silent("key = self._lib.NID_pbe_WithSHA1And3_Key_TripleDES_CBC");
    expect_silent("private_key = ed25519.Ed25519PrivateKey.from_private_bytes(data)");
    expect_silent("credentials = standard_b64encode(raw)");
    expect_silent("password = DEFAULT_ADMIN_PASSWORD_2");
    /* Example values published in RFC 6749 and on jwt.io. */
    expect_silent("HTTP/1.1 200 OK\n{\"access_token\":\"2YotnFZFEjr1zCsicMWpAA\","
                  "\"refresh_token\":\"tGzv3JOkF0XG5Qx2TlKWIA\"}");
    expect_silent("Authorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW");
    expect_silent("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ikpva"
                  "G4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c");
}

/* Random values after a credential name are found nearly always: the
 * interior-digit, identifier and placeholder rules rarely fire by chance.
 * After bare whitespace ("Auth Token X") word-shaped values count as
 * identifiers, which costs some recall on mixed-case tokens. */
static void test_keyword_recall_on_random_values(void **state) {
    (void)state;
    static const char *const alphabets[] = {ALNUM, B64URL, HEXL};
    static const char *const labels[] = {"password: ", "Auth Token "};
    static const size_t min_pct[2][3] = {{97, 96, 97}, {85, 85, 97}};
    for (size_t l = 0; l < 2; l++) {
        for (size_t a = 0; a < 3; a++) {
            size_t found = 0, runs = 1000;
            for (size_t i = 0; i < runs; i++) {
                char text[128];
                strcpy(text, labels[l]);
                rnd_append(text, alphabets[a], 24);
                scan(text);
                found += find_kind(MV_SECRET_KEYWORD) != NULL && emitted() == 1;
            }
            print_message("%s alphabet %zu: %zu/%zu\n", labels[l], a, found, runs);
            assert_true(found * 100 >= runs * min_pct[l][a]);
        }
    }
}

static void test_secret_field_and_entropy(void **state) {
    (void)state;
    char v[64] = "";
    rnd_token(v, B64, 40);
    /* Entropy-only: found when asked, but low. */
    char text[128];
    snprintf(text, sizeof(text), "opaque %s value", v);
    scan_flags(text, strlen(text), MV_SECRETS_ENTROPY, NULL);
    const mv_secret_match *m = find_kind(MV_SECRET_ENTROPY);
    assert_non_null(m);
    assert_true(m->confidence < MV_SECRET_EMIT_THRESHOLD);
    assert_int_equal(emitted(), 0);
    /* Without the flag nothing at all. */
    scan(text);
    assert_int_equal(F.n, 0);
    /* The same value as the default of a credential field: a low emit. */
    expect_found_at(v, v, MV_SECRET_SECRET_FIELD, MV_SECRETS_SECRET_FIELD, "webhook_secret");
    assert_true(find_kind(MV_SECRET_SECRET_FIELD)->confidence < 0.6);
    /* ...named as an AWS secret access key when the field says so. */
    expect_found_at(v, v, MV_SECRET_AWS_SECRET_KEY, MV_SECRETS_SECRET_FIELD,
                    "aws_secret_access_key");
    /* Low-entropy or placeholder field values stay silent. */
    expect_silent_flags("your-api-key-here", MV_SECRETS_SECRET_FIELD, "api_key");
    expect_silent_flags("dummy", MV_SECRETS_SECRET_FIELD, "password");
    expect_silent_flags("YOUR_CLIENT_ID", MV_SECRETS_SECRET_FIELD, "client_secret");
    expect_silent_flags("prod/stripe/api_key", MV_SECRETS_SECRET_FIELD, "secret_name");
    expect_silent_flags("two words here and there", MV_SECRETS_SECRET_FIELD, "token");
}

/* ------------------------------------------------------- placeholders */

static void test_placeholders_dropped(void **state) {
    (void)state;
    /* The AWS documentation example pair. */
    scan("aws_access_key_id = AKIAIOSFODNN7EXAMPLE, aws_secret_access_key = "
         "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    assert_non_null(find_kind(MV_SECRET_AWS_ACCESS_KEY_ID));
    assert_true(find_kind(MV_SECRET_AWS_ACCESS_KEY_ID)->placeholder);
    assert_int_equal(emitted(), 0);
    expect_silent("AKIAEXAMPLEKEY123456 and AKIAXXXXXXXXXXXXXXXX");
    /* Stripe test keys and publishable keys are not live secrets. */
    expect_silent("sk_test_4eC39HqLyjWDarjtT1zdp7dc pk_test_TYooMQauvdEDq54NiTphI7jx "
                  "rk_test_51H8sQhK2cDwzyQ7vA8mRk4TnE");
    /* Repeats of x/X/0/ * / . */
    expect_silent("GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    expect_silent("ghp_000000000000000000000000000000000000");
    expect_silent("sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    expect_silent("xoxb-XXXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX");
    expect_silent("xoxb-your-bot-token-goes-in-this-place");
    expect_silent("sk-ant-api03-****************************************************");
    expect_silent("glpat-...................");
    /* Documentation that describes a format. */
    expect_silent("Validate that a value looks like a GitHub classic token: ghp_ followed by 36 "
                  "letters or digits. Also recognises github_pat_ and glpat- tokens.");
    expect_silent("Common prefixes: sk-ant- (Anthropic), sk-proj- (OpenAI), xoxb-/xoxp- (Slack), "
                  "SG. (SendGrid), AKIA (AWS access key ids), AIza (Google API keys).");
    expect_silent("Scan for AWS keys (AKIA followed by 16 characters), private key headers "
                  "(-----BEGIN ... PRIVATE KEY-----), Slack tokens (xoxb-), Stripe (sk_live_).");
    expect_silent("Import a private key in PEM format:\n-----BEGIN PRIVATE KEY-----\n"
                  "...base64...\n-----END PRIVATE KEY-----\n");
    /* Templating. */
    expect_silent("Authorization: Bearer {{api_token}}");
    expect_silent("GITHUB_TOKEN=${GITHUB_TOKEN}");
    expect_silent("APIキーを設定します。形式: sk-xxxxxxxxxxxxxxxx（例示用のダミー値です）");
    expect_silent("sk-1234567890abcdef1234567890abcdef");
    expect_silent("ghp_1234567890abcdefghijklmnopqrstuvwxyz");
    /* The Azure storage emulator's published account. */
    expect_silent("AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50"
                  "uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
    expect_silent("AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                  "K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/");
    /* Honest high-entropy data that is not a credential. */
    expect_silent("Commit 3272b682a08ebee061a107afdcba1def474bbb10 and order "
                  "2fd2e488-6b76-40f9-90ed-97668abccb65");
    expect_silent("sha256=e8d3b6716eb5d3a07478a002e8c32bc62a5f21d2de54495e3823a7c058306ced");
    expect_silent(
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC8bd9wSWMfXYCgkvufgdLzDmg82dsKLivoFJu/cS4l8 "
        "alice@laptop");
    expect_silent("sha512-CYE6cjDGDqYgbONpI88LE1F6jhkI9uqoC16TN0HxV2zxpkgQpLo/rPdfcoH11eVqgpiWF0IOs"
                  "rd9mOltqPdvrg==");
    expect_silent("task-runner disk-usage ask-question hf_hub_download gsk_config");
}

/* How often does a truly random token look like a placeholder? It must be
 * rare, or real keys would be dropped. */
static void test_placeholder_false_drop_rate(void **state) {
    (void)state;
    size_t dropped = 0;
    for (int i = 0; i < 4000; i++) {
        char t[64] = "";
        rnd_append(t, ALNUM, 36);
        if (mv_secrets_is_placeholder(t, 36))
            dropped++;
    }
    assert_true(dropped < 40); /* under 1% */
}

/* ------------------------------------------------------------ cards */

static void test_luhn_and_brands(void **state) {
    (void)state;
    assert_true(mv_luhn_valid("79927398713", 11));
    assert_false(mv_luhn_valid("79927398710", 11));
    assert_false(mv_luhn_valid("7992739871a", 11));
    assert_false(mv_luhn_valid("", 0));
    static const struct {
        const char *prefix;
        size_t len;
        mv_card_brand brand;
    } ok[] = {
        {"4", 16, MV_CARD_VISA},          {"4", 13, MV_CARD_VISA},
        {"4", 19, MV_CARD_VISA},          {"51", 16, MV_CARD_MASTERCARD},
        {"55", 16, MV_CARD_MASTERCARD},   {"2221", 16, MV_CARD_MASTERCARD},
        {"2720", 16, MV_CARD_MASTERCARD}, {"34", 15, MV_CARD_AMEX},
        {"37", 15, MV_CARD_AMEX},         {"6011", 16, MV_CARD_DISCOVER},
        {"65", 16, MV_CARD_DISCOVER},     {"644", 19, MV_CARD_DISCOVER},
        {"3528", 16, MV_CARD_JCB},        {"3589", 19, MV_CARD_JCB},
        {"36", 14, MV_CARD_DINERS},       {"300", 14, MV_CARD_DINERS},
        {"38", 16, MV_CARD_DINERS},
    };
    char num[32];
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        rnd_card(num, ok[i].prefix, ok[i].len);
        assert_true(mv_luhn_valid(num, ok[i].len));
        assert_int_equal(mv_card_brand_of(num, ok[i].len), ok[i].brand);
        /* One digit changed breaks the checksum. */
        num[3] = num[3] == '9' ? '0' : (char)(num[3] + 1);
        assert_false(mv_luhn_valid(num, ok[i].len));
    }
    /* Wrong lengths and outside ranges. */
    static const struct {
        const char *prefix;
        size_t len;
    } bad[] = {{"4", 15},  {"51", 15}, {"2220", 16}, {"2721", 16}, {"34", 16},
               {"37", 14}, {"56", 16}, {"1", 16},    {"9", 16},    {"3527", 16}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        rnd_card(num, bad[i].prefix, bad[i].len);
        assert_int_equal(mv_card_brand_of(num, bad[i].len), MV_CARD_NONE);
    }
    assert_string_equal(mv_card_brand_name(MV_CARD_AMEX), "American Express");
    /* Published test numbers. */
    static const char *const tests[] = {"4242424242424242", "4111111111111111", "5555555555554444",
                                        "378282246310005",  "6011111111111117", "4000056655665556",
                                        "5105105105105100", "3566002020360505", "4000000000000002"};
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        assert_true(mv_luhn_valid(tests[i], strlen(tests[i])));
        assert_true(mv_card_is_test_number(tests[i], strlen(tests[i])));
    }
    /* Random issued-looking numbers are rarely taken for test values. */
    size_t flagged = 0;
    for (int i = 0; i < 1000; i++) {
        strcpy(num, "4");
        rnd_append(num, DIGITS, 15);
        if (mv_card_is_test_number(num, 16))
            flagged++;
    }
    assert_true(flagged < 10);
}

static void test_cards_in_text(void **state) {
    (void)state;
    char num[32], grouped[40], text[256];
    rnd_card(num, "4", 16);
    snprintf(grouped, sizeof(grouped), "%.4s %.4s %.4s %.4s", num, num + 4, num + 8, num + 12);
    snprintf(text, sizeof(text), "Pay with the company card %s, exp 09/29, CVC 969.", grouped);
    expect_found(text, grouped, MV_SECRET_CARD);
    assert_int_equal(find_kind(MV_SECRET_CARD)->brand, MV_CARD_VISA);
    char masked[64];
    mv_secrets_mask(masked, sizeof(masked), text, find_kind(MV_SECRET_CARD));
    assert_true(strncmp(masked, num, 4) == 0);
    assert_null(strstr(masked, num + 4));

    rnd_card(num, "37", 15);
    snprintf(grouped, sizeof(grouped), "%.4s-%.6s-%.5s", num, num + 4, num + 10);
    snprintf(text, sizeof(text), "Corporate Amex: %s", grouped);
    expect_found(text, grouped, MV_SECRET_CARD);
    rnd_card(num, "2222", 16);
    snprintf(text, sizeof(text), "%s", num);
    /* A bare number in a card-named field. */
    expect_found_at(text, num, MV_SECRET_CARD, MV_SECRETS_CARD_FIELD, "card_number");
    /* The same bare number with no card context is too weak to emit. */
    snprintf(text, sizeof(text), "order %s shipped", num);
    scan(text);
    assert_non_null(find_kind(MV_SECRET_CARD));
    assert_int_equal(emitted(), 0);
    /* Test cards, failing checksums, ids and decimals are silent. */
    expect_silent("Use a test card such as 4242 4242 4242 4242 with any CVC.");
    expect_silent("Test cards: 4000 0566 5566 5556 (Visa debit), 5555 5555 5555 4444 "
                  "(Mastercard), 3782 822463 10005 (Amex).");
    expect_silent_flags("4111111111111111", MV_SECRETS_CARD_FIELD, "card_number");
    num[15] = num[15] == '9' ? '0' : (char)(num[15] + 1);
    snprintf(text, sizeof(text), "card %s", num);
    expect_silent(text);
    expect_silent("card ref 0.4242424242424242 and id a4539578763621486");
    expect_silent("card 4 5 3 9 5 7 8 7 6 3 6 2 1 4 8 6");
    /* Tables of 4-digit numbers (code points, ids) are lists, not cards. */
    expect_silent("5429 5430 5431 5432 5433 5434\n5125 5126 5127 5128\n");
    expect_silent("Stroke order: 5282 5281 5290 5293");
    expect_silent("7E96 81E2 268C7 826C 4577 8631 8638 8639 863A 863B");
    /* A grouped card right before its expiry date is still a card. */
    rnd_card(num, "4", 16);
    snprintf(grouped, sizeof(grouped), "%.4s %.4s %.4s %.4s", num, num + 4, num + 8, num + 12);
    snprintf(text, sizeof(text), "Visa %s 12/29 123", grouped);
    expect_found(text, grouped, MV_SECRET_CARD);
}

/* ----------------------------------------------------- overlaps, mask */

static void test_overlaps_prefer_specific(void **state) {
    (void)state;
    char tok[128] = "hvs.", text[256];
    rnd_token(tok, B64URL, 90);
    snprintf(text, sizeof(text), "VAULT_TOKEN=%s", tok);
    expect_found(text, tok, MV_SECRET_VAULT);
    assert_null(find_kind(MV_SECRET_KEYWORD));

    char gh[64] = "ghp_";
    rnd_token(gh, ALNUM, 36);
    snprintf(text, sizeof(text), "https://x-access-token:%s@github.com/org/repo.git", gh);
    expect_found(text, gh, MV_SECRET_GITHUB);
    assert_null(find_kind(MV_SECRET_URL_CREDENTIALS));

    char sk[80] = "sk-proj-";
    rnd_token(sk, B64URL, 60);
    snprintf(text, sizeof(text), "Authorization: Bearer %s", sk);
    expect_found(text, sk, MV_SECRET_OPENAI);
    assert_null(find_kind(MV_SECRET_BEARER));
    assert_int_equal(emitted(), 1);
}

static void test_mask_bounds(void **state) {
    (void)state;
    const char *text = "key AKIA2QWERTY7ASDFG3HJ end";
    scan(text);
    const mv_secret_match *m = find_kind(MV_SECRET_AWS_ACCESS_KEY_ID);
    assert_non_null(m);
    char out[64];
    size_t n = mv_secrets_mask(out, sizeof(out), text, m);
    assert_string_equal(out, "AKIA2Q**************");
    assert_int_equal(n, 20);
    /* Tiny buffers are never overrun and stay terminated. */
    char tiny[5];
    n = mv_secrets_mask(tiny, sizeof(tiny), text, m);
    assert_int_equal(n, 4);
    assert_string_equal(tiny, "AKIA");
    /* Show is capped at a quarter of the secret part. */
    mv_secret_match small = {MV_SECRET_KEYWORD, 0, 8, 0, 6, 0.5, false, false, MV_CARD_NONE};
    n = mv_secrets_mask(out, sizeof(out), "abcdefgh", &small);
    assert_string_equal(out, "ab******");
    assert_int_equal(mv_secrets_mask(NULL, 0, text, m), 0);
}

static void test_measures(void **state) {
    (void)state;
    assert_true(mv_secrets_entropy("", 0) == 0.0);
    assert_true(mv_secrets_entropy("aaaa", 4) == 0.0);
    assert_true(mv_secrets_entropy("abab", 4) > 0.99 && mv_secrets_entropy("abab", 4) < 1.01);
    assert_true(mv_secrets_entropy("abcdefgh", 8) > 2.99);
    assert_int_equal(mv_secrets_char_classes("aB3-", 4), 4);
    assert_int_equal(mv_secrets_char_classes("abc", 3), 1);
    assert_true(mv_secrets_is_placeholder("EXAMPLE1234", 11));
    assert_true(mv_secrets_is_placeholder("abcdef0123", 10));
    assert_true(mv_secrets_is_placeholder("<TOKEN>", 7));
    assert_true(mv_secrets_is_placeholder("{{var}}", 7));
    assert_false(mv_secrets_is_placeholder("q7Hf2LpZ9xWc4Rt", 15));
    /* Text with NUL bytes is scanned by length, not by terminator. */
    char buf[80] = "x\0y ghp_";
    size_t o = 8;
    char tok[40] = "";
    rnd_token(tok, ALNUM, 36);
    memcpy(buf + o, tok, 36);
    scan_flags(buf, o + 36, 0, NULL);
    assert_non_null(find_kind(MV_SECRET_GITHUB));
    assert_int_equal(find_kind(MV_SECRET_GITHUB)->start, 4);
}

/* -------------------------------------------- compile once, limits */

static void test_compiled_once(void **state) {
    (void)state;
    /* Eager: every pattern compiles in mv_secrets_new (a broken one fails
     * there). */
    uint64_t before = mv_secrets_compile_count();
    mv_secrets_options eager = {0, 0, 0, false, true};
    mv_secrets *s = NULL;
    assert_int_equal(mv_secrets_new(&s, NULL, &eager), 0);
    size_t patterns = mv_secrets_pattern_count(s);
    assert_true(patterns > 40);
    assert_int_equal(mv_secrets_compile_count() - before, patterns);
    mv_secrets_free(s);
    /* Lazy (the default): nothing at creation, the families a scan needs
     * on its first use, then never again. */
    before = mv_secrets_compile_count();
    assert_int_equal(mv_secrets_new(&s, NULL, NULL), 0);
    assert_int_equal(mv_secrets_compile_count(), before);
    mv_arena *arena = mv_arena_new(NULL, 0);
    char text[256] = "postgres://u:";
    rnd_token(text, ALNUM, 16);
    strcat(text, "@h/db and Bearer ");
    rnd_token(text, ALNUM, 32);
    uint64_t built = 0;
    for (int i = 0; i < 500; i++) {
        mv_secrets_scanner sc;
        mv_arena_reset(arena);
        mv_secrets_scanner_init(&sc, s, arena);
        mv_secret_match m[8];
        size_t n = 0;
        assert_int_equal(mv_secrets_scan(&sc, text, strlen(text), 0, MV_STR_NULL, m, 8, &n), 0);
        assert_true(n >= 1);
        if (i == 0) {
            built = mv_secrets_compile_count();
            /* the URL and bearer families at least, far from all */
            assert_true(built - before >= 2);
            assert_true(built - before < patterns / 2);
        }
    }
    assert_int_equal(mv_secrets_compile_count(), built);
    mv_arena_free(arena);
    mv_secrets_free(s);
    mv_secrets_free(NULL);
}

/* Texts that reach every family: each anchor followed by token bodies of
 * several alphabets and lengths (too short, in range, too long), alone, in
 * prose, after a credential name, and glued to word characters. */
static size_t lazy_texts(char (*out)[512], size_t cap) {
    static const char *const heads[] = {
        "AKIA",
        "ASIA",
        "AIza",
        "AccountKey=",
        "SharedAccessKey=",
        "https://x.blob.core/?sv=1&sig=",
        "abc8Q~",
        "-----BEGIN RSA PRIVATE KEY-----\n",
        "ghp_",
        "github_pat_",
        "glpat-",
        "xoxb-",
        "hooks.slack.com/services/T0123ABCD/B0123ABCD/",
        "discord.com/api/webhooks/123456789012345678/",
        "sk_live_",
        "whsec_",
        "sk-ant-api03-",
        "sk-proj-",
        "sk-",
        "sk-or-v1-",
        "hf_",
        "gsk_",
        "r8_",
        "xai-",
        "pplx-",
        "tvly-dev-",
        "lsv2_pt_",
        "GOCSPX-",
        "SG.",
        "npm_",
        "pypi-AgEIcHlwaS5vcmc",
        "shpat_",
        "hvs.",
        "dop_v1_",
        "pat-na1-",
        "lin_api_",
        "ntn_",
        "secret_",
        "ATATT3",
        "PMAK-",
        "dapi",
        "sntrys_",
        "glsa_",
        "glc_",
        "sbp_",
        "sb_secret_",
        "AGE-SECRET-KEY-1",
        "dp.pt.",
        "sq0atp-",
        "key-",
        "123456789:AA",
        "figd_",
        "eyJhbGciOiJIUzI1NiJ9.",
        "Authorization: Bearer ",
        "Authorization: Basic ",
        "postgres://admin:",
        "password = ",
        "api_key: \"",
        "token=",
    };
    static const char *const alpha[] = {ALNUM, "0123456789abcdef",
                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "abc-_.~+/="};
    static const size_t lens[] = {7, 16, 24, 33, 36, 40, 44, 64, 90, 140, 300};
    static const char *const pre[] = {"", "Use ", "x", "export TOKEN=", "(see "};
    static const char *const post[] = {"", " now.", "z", "@db.example.com/x", "\")"};
    size_t n = 0;
    for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
        for (size_t a = 0; a < sizeof(alpha) / sizeof(alpha[0]); a++)
            for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]) && n < cap; l++) {
                char body[320];
                size_t k = 0;
                for (; k < lens[l]; k++)
                    body[k] = alpha[a][rnd() % strlen(alpha[a])];
                body[k] = '\0';
                size_t p = (h + a + l) % 5;
                snprintf(out[n++], 512, "%s%s%s%s", pre[p], heads[h], body, post[(p + l) % 5]);
            }
    return n;
}

/* Field by field: the struct has padding bytes. */
static void assert_same_matches(const mv_secret_match *a, const mv_secret_match *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(a[i].kind, b[i].kind);
        assert_int_equal(a[i].start, b[i].start);
        assert_int_equal(a[i].length, b[i].length);
        assert_int_equal(a[i].public_len, b[i].public_len);
        assert_int_equal(a[i].show, b[i].show);
        assert_memory_equal(&a[i].confidence, &b[i].confidence, sizeof(double));
        assert_int_equal(a[i].placeholder, b[i].placeholder);
        assert_int_equal(a[i].corroborated, b[i].corroborated);
        assert_int_equal(a[i].brand, b[i].brand);
    }
}

typedef struct lazy_run {
    mv_secrets *s;
    char (*texts)[512];
    size_t n;
    mv_secret_match *m; /* n * 16 */
    size_t *count;
    int rc;
} lazy_run;

static void *lazy_scan_all(void *p) {
    lazy_run *r = p;
    mv_arena *arena = mv_arena_new(NULL, 0);
    r->rc = arena != NULL ? 0 : MV_ENOMEM;
    for (size_t i = 0; i < r->n && r->rc == 0; i++) {
        mv_secrets_scanner sc;
        mv_arena_reset(arena);
        mv_secrets_scanner_init(&sc, r->s, arena);
        r->rc = mv_secrets_scan(&sc, r->texts[i], strlen(r->texts[i]),
                                i % 3 == 0 ? MV_SECRETS_ENTROPY : 0, MV_STR_NULL, r->m + i * 16, 16,
                                &r->count[i]);
    }
    mv_arena_free(arena);
    return NULL;
}

/* Compiling on first use changes nothing: eager and lazy pattern sets, the
 * lazy one scanned by two threads at once from its first scan on, give the
 * same matches for every text, with JIT and interpreted. */
static void test_lazy_equals_eager(void **state) {
    (void)state;
    enum { CAP = 3000 };
    char(*texts)[512] = calloc(CAP, 512);
    assert_non_null(texts);
    size_t n = lazy_texts(texts, CAP);
    assert_true(n > 2000);
    for (int jit = 0; jit < 2; jit++) {
        mv_secrets_options eo = {0, 0, 0, jit == 0, true};
        mv_secrets_options lo = {0, 0, 0, jit == 0, false};
        lazy_run want = {
            NULL, texts, n, calloc(n * 16, sizeof(mv_secret_match)), calloc(n, sizeof(size_t)), 0};
        lazy_run got[2];
        assert_int_equal(mv_secrets_new(&want.s, NULL, &eo), 0);
        lazy_scan_all(&want);
        assert_int_equal(want.rc, 0);
        mv_secrets *lazy = NULL;
        uint64_t c0 = mv_secrets_compile_count();
        assert_int_equal(mv_secrets_new(&lazy, NULL, &lo), 0);
        pthread_t th[2];
        for (int t = 0; t < 2; t++) {
            got[t] = (lazy_run){
                lazy, texts, n, calloc(n * 16, sizeof(mv_secret_match)), calloc(n, sizeof(size_t)),
                0};
            assert_int_equal(pthread_create(&th[t], NULL, lazy_scan_all, &got[t]), 0);
        }
        for (int t = 0; t < 2; t++)
            assert_int_equal(pthread_join(th[t], NULL), 0);
        size_t matched = 0;
        for (int t = 0; t < 2; t++) {
            assert_int_equal(got[t].rc, 0);
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(got[t].count[i], want.count[i]);
                assert_same_matches(got[t].m + i * 16, want.m + i * 16, want.count[i]);
                matched += want.count[i];
            }
            free(got[t].m);
            free(got[t].count);
        }
        /* every family was needed, each compiled exactly once */
        assert_int_equal(mv_secrets_compile_count() - c0, mv_secrets_pattern_count(lazy));
        assert_true(matched > n / 2);
        mv_secrets_free(lazy);
        mv_secrets_free(want.s);
        free(want.m);
        free(want.count);
    }
    free(texts);
}

static void test_match_limit_counted(void **state) {
    (void)state;
    char text[128] = "GITHUB_TOKEN=ghp_";
    rnd_token(text, ALNUM, 36);
    /* Interpreter and JIT alike: a limit hit is counted, nothing is
     * half-matched, the scan completes. */
    for (int jit = 0; jit < 2; jit++) {
        mv_secrets_options o = {1, 1, 1, jit == 0, false};
        mv_secrets *s = NULL;
        assert_int_equal(mv_secrets_new(&s, NULL, &o), 0);
        assert_int_equal(mv_secrets_match_limit(s), 1);
        mv_arena *arena = mv_arena_new(NULL, 0);
        mv_secrets_scanner sc;
        mv_secrets_scanner_init(&sc, s, arena);
        mv_secret_match m[8];
        size_t n = 9;
        assert_int_equal(mv_secrets_scan(&sc, text, strlen(text), 0, MV_STR_NULL, m, 8, &n), 0);
        assert_true(sc.stats.limit_hits > 0);
        /* The interpreter counts every call at limit 1, so nothing matches;
         * JIT counts only backtracking, so the simple token pattern may
         * still match while the keyword pattern hits the limit. */
        if (jit == 0)
            assert_int_equal(n, 0);
        else
            assert_true(n <= 1);
        mv_arena_free(arena);
        mv_secrets_free(s);
    }
}

static void test_pathological_inputs(void **state) {
    (void)state;
    size_t len = 60000;
    char *big = malloc(len + 1);
    assert_non_null(big);
    /* Thousands of anchors: capped, counted, still completes. */
    for (size_t i = 0; i < len; i += 3)
        memcpy(big + i, "sk-", 3);
    scan_flags(big, len, MV_SECRETS_ENTROPY, NULL);
    assert_true(F.sc.stats.cand_overflow > MV_SECRETS_MAX_CANDIDATES);
    /* A key body that never ends, spaces after a keyword, a URL of colons,
     * an endless digit run: each completes within the limits. */
    static const char *const fill[] = {"-----BEGIN RSA PRIVATE KEY-----\n", "token", "a://",
                                       "Authorization: Bearer ", "eyJ"};
    static const char rep[] = {'A', ' ', ':', 'a', 'a'};
    for (size_t k = 0; k < sizeof(fill) / sizeof(fill[0]); k++) {
        size_t fl = strlen(fill[k]);
        memcpy(big, fill[k], fl);
        memset(big + fl, rep[k], len - fl);
        scan_flags(big, len, MV_SECRETS_ENTROPY, NULL);
        assert_int_equal(emitted(), 0);
    }
    memset(big, '7', len);
    scan_flags(big, len, 0, NULL);
    assert_int_equal(F.n, 0);
    free(big);
}

/* Every allocation of mv_secrets_new can fail: the error is reported and
 * nothing leaks. (PCRE2's JIT memory is its own and is not counted.) */
static void test_out_of_memory(void **state) {
    (void)state;
    fail_alloc probe;
    fail_alloc_init(&probe, 0);
    mv_secrets *s = NULL;
    mv_secrets_options eager = {0, 0, 0, false, true};
    assert_int_equal(mv_secrets_new(&s, &probe.allocator, &eager), 0);
    long total = probe.calls;
    assert_true(total > 2);
    mv_secrets_free(s);
    assert_int_equal(probe.live, 0);
    /* Since every allocation after the failing one fails too, only a failure
     * inside the last pattern's JIT compile can be absorbed (that pattern
     * then runs interpreted, with the same answers): the quiet successes
     * must form the tail of the allocation sequence. */
    long first_success = 0;
    for (long k = 1; k <= total; k++) {
        fail_alloc fa;
        fail_alloc_init(&fa, k);
        s = (mv_secrets *)&fa; /* must be reset to NULL on failure */
        int rc = mv_secrets_new(&s, &fa.allocator, &eager);
        if (rc == 0) {
            assert_non_null(s);
            mv_secrets_free(s);
            if (first_success == 0)
                first_success = k;
        } else {
            assert_int_equal(rc, MV_ENOMEM);
            assert_null(s);
            assert_int_equal(first_success, 0);
        }
        assert_int_equal(fa.live, 0);
    }
    assert_true(first_success == 0 || total - first_success < 64);
    /* A pattern's first use without memory for its compile: that scan
     * reports MV_ENOMEM, nothing is remembered, and the next scan compiles
     * it and finds what a fresh pattern set finds. */
    {
        fail_alloc fs;
        fail_alloc_init(&fs, 0);
        assert_int_equal(mv_secrets_new(&s, &fs.allocator, NULL), 0);
        mv_arena *arena = mv_arena_new(NULL, 0);
        assert_non_null(arena);
        const char *text = "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
        mv_secret_match m[4];
        size_t n = 7;
        mv_secrets_scanner sc;
        mv_secrets_scanner_init(&sc, s, arena);
        fs.fail_at = fs.calls + 1;
        uint64_t c0 = mv_secrets_compile_count();
        assert_int_equal(mv_secrets_scan(&sc, text, strlen(text), 0, MV_STR_NULL, m, 4, &n),
                         MV_ENOMEM);
        assert_int_equal(n, 0);
        assert_int_equal(mv_secrets_compile_count() - c0, 1);
        fs.fail_at = 0;
        mv_arena_reset(arena);
        mv_secrets_scanner_init(&sc, s, arena);
        assert_int_equal(mv_secrets_scan(&sc, text, strlen(text), 0, MV_STR_NULL, m, 4, &n), 0);
        assert_true(mv_secrets_compile_count() - c0 >= 2);
        size_t want = scan_flags(text, strlen(text), 0, NULL);
        assert_int_equal(n, want);
        assert_same_matches(m, F.m, n);
        mv_arena_free(arena);
        mv_secrets_free(s);
        assert_int_equal(fs.live, 0);
    }
    /* A scan whose arena cannot grow reports MV_ENOMEM, never crashes. */
    fail_alloc fa;
    fail_alloc_init(&fa, 0);
    assert_int_equal(mv_secrets_new(&s, NULL, NULL), 0);
    mv_arena *arena = mv_arena_new(&fa.allocator, 64);
    assert_non_null(arena);
    fa.fail_at = fa.calls + 1;
    mv_secrets_scanner sc;
    mv_secrets_scanner_init(&sc, s, arena);
    mv_secret_match m[4];
    size_t n = 0;
    const char *text = "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
    assert_int_equal(mv_secrets_scan(&sc, text, strlen(text), 0, MV_STR_NULL, m, 4, &n), MV_ENOMEM);
    assert_int_equal(n, 0);
    mv_arena_free(arena);
    assert_int_equal(fa.live, 0);
    mv_secrets_free(s);
}

static void test_bad_arguments(void **state) {
    (void)state;
    mv_secret_match m[2];
    size_t n = 7;
    assert_int_equal(mv_secrets_scan(NULL, "x", 1, 0, MV_STR_NULL, m, 2, &n), MV_EINVAL);
    mv_secrets_scanner sc;
    mv_secrets_scanner_init(&sc, F.secrets, F.arena);
    assert_int_equal(mv_secrets_scan(&sc, NULL, 3, 0, MV_STR_NULL, m, 2, &n), MV_EINVAL);
    assert_int_equal(mv_secrets_scan(&sc, "", 0, 0, MV_STR_NULL, m, 2, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(mv_secrets_new(NULL, NULL, NULL), MV_EINVAL);
    assert_string_equal(mv_secret_kind_name(MV_SECRET_KIND_COUNT), "secret");
    for (int k = 0; k < MV_SECRET_KIND_COUNT; k++)
        assert_true(strlen(mv_secret_kind_name((mv_secret_kind)k)) > 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefixed_families),
        cmocka_unit_test(test_aws_secret_nearby_raises),
        cmocka_unit_test(test_gcp_service_account),
        cmocka_unit_test(test_azure),
        cmocka_unit_test(test_private_keys),
        cmocka_unit_test(test_jwt),
        cmocka_unit_test(test_bearer_and_basic),
        cmocka_unit_test(test_urls),
        cmocka_unit_test(test_keyword_values),
        cmocka_unit_test(test_keyword_recall_on_random_values),
        cmocka_unit_test(test_secret_field_and_entropy),
        cmocka_unit_test(test_placeholders_dropped),
        cmocka_unit_test(test_placeholder_false_drop_rate),
        cmocka_unit_test(test_luhn_and_brands),
        cmocka_unit_test(test_cards_in_text),
        cmocka_unit_test(test_overlaps_prefer_specific),
        cmocka_unit_test(test_mask_bounds),
        cmocka_unit_test(test_measures),
        cmocka_unit_test(test_compiled_once),
        cmocka_unit_test(test_lazy_equals_eager),
        cmocka_unit_test(test_match_limit_counted),
        cmocka_unit_test(test_pathological_inputs),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
