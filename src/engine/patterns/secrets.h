/*
 * Secret matchers for the secret.embedded check: a table of credential
 * formats (cloud keys, private keys, service tokens, JWTs, URLs with
 * passwords, card numbers) found in raw tool text, each match carrying its
 * own confidence after placeholder, entropy and context adjustments.
 *
 * How a scan works: one literal pass (a case-folded trigram filter, one
 * table probe per byte) finds anchors ("AKIA", "ghp_", "-----BEGIN", "://",
 * "token"...); only at those places does a PCRE2 pattern (compiled once per
 * mv_secrets, on the first anchor hit of its family; JIT; explicit match
 * limits) confirm the exact format. Card numbers come
 * from a digit-run scan with Luhn and brand checks. Documented placeholders and test values are
 * still reported (flagged `placeholder`, confidence near zero) so that they win overlap resolution
 * against weaker generic matches of the same text; callers drop them.
 *
 * Thread safety: a built mv_secrets may be shared by any number of threads.
 * The only thing a scan changes in it is the first compilation of a
 * pattern, made under a lock and published once: every match of a pattern
 * uses the same compiled (JIT or, if JIT failed, interpreted) code, on any
 * thread. Each thread scans with its own mv_secrets_scanner, whose PCRE2
 * match data lives in that thread's arena.
 */
#ifndef MV_PATTERNS_SECRETS_H
#define MV_PATTERNS_SECRETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcpvet/arena.h"
#include "mcpvet/common.h"

/* Matches at or above this confidence are worth a review signal. Entropy-only
 * hits sit below it unless a credential-named field holds them. */
#define MV_SECRET_EMIT_THRESHOLD 0.40

/* Confidence given to documented placeholders and test values. */
#define MV_SECRET_PLACEHOLDER_CONFIDENCE 0.02

typedef enum mv_secret_kind {
    MV_SECRET_AWS_ACCESS_KEY_ID = 0,
    MV_SECRET_AWS_SECRET_KEY,
    MV_SECRET_GCP_API_KEY,
    MV_SECRET_GCP_SERVICE_ACCOUNT,
    MV_SECRET_AZURE_STORAGE_KEY,
    MV_SECRET_AZURE_SHARED_ACCESS_KEY,
    MV_SECRET_AZURE_SAS,
    MV_SECRET_AZURE_CLIENT_SECRET,
    MV_SECRET_PRIVATE_KEY,
    MV_SECRET_GITHUB,
    MV_SECRET_GITLAB,
    MV_SECRET_SLACK,
    MV_SECRET_SLACK_WEBHOOK,
    MV_SECRET_DISCORD_WEBHOOK,
    MV_SECRET_STRIPE,
    MV_SECRET_STRIPE_WEBHOOK,
    MV_SECRET_OPENAI,
    MV_SECRET_ANTHROPIC,
    MV_SECRET_OPENROUTER,
    MV_SECRET_SK_GENERIC,
    MV_SECRET_HUGGINGFACE,
    MV_SECRET_GROQ,
    MV_SECRET_REPLICATE,
    MV_SECRET_XAI,
    MV_SECRET_PERPLEXITY,
    MV_SECRET_TAVILY,
    MV_SECRET_LANGSMITH,
    MV_SECRET_GOOGLE_OAUTH_SECRET,
    MV_SECRET_SENDGRID,
    MV_SECRET_NPM,
    MV_SECRET_PYPI,
    MV_SECRET_SHOPIFY,
    MV_SECRET_VAULT,
    MV_SECRET_DIGITALOCEAN,
    MV_SECRET_HUBSPOT,
    MV_SECRET_LINEAR,
    MV_SECRET_NOTION,
    MV_SECRET_ATLASSIAN,
    MV_SECRET_POSTMAN,
    MV_SECRET_DATABRICKS,
    MV_SECRET_SENTRY,
    MV_SECRET_GRAFANA,
    MV_SECRET_SUPABASE,
    MV_SECRET_AGE,
    MV_SECRET_DOPPLER,
    MV_SECRET_SQUARE,
    MV_SECRET_MAILGUN,
    MV_SECRET_TELEGRAM,
    MV_SECRET_FIGMA,
    MV_SECRET_JWT,
    MV_SECRET_BEARER,
    MV_SECRET_BASIC_AUTH,
    MV_SECRET_DATABASE_URL,
    MV_SECRET_URL_CREDENTIALS,
    MV_SECRET_CARD,
    MV_SECRET_KEYWORD,      /* high-entropy value assigned to a credential-named key in text */
    MV_SECRET_SECRET_FIELD, /* high-entropy value of a credential-named schema field */
    MV_SECRET_ENTROPY,      /* long random-looking string, no known format */
    MV_SECRET_KIND_COUNT
} mv_secret_kind;

/* Human-readable name ("AWS access key id", "Slack token"...). Never NULL. */
const char *mv_secret_kind_name(mv_secret_kind kind);

typedef enum mv_card_brand {
    MV_CARD_NONE = 0,
    MV_CARD_VISA,
    MV_CARD_MASTERCARD,
    MV_CARD_AMEX,
    MV_CARD_DISCOVER,
    MV_CARD_JCB,
    MV_CARD_DINERS
} mv_card_brand;

typedef struct mv_secret_match {
    mv_secret_kind kind;
    uint32_t start;      /* raw byte offset of the reported range in the text */
    uint32_t length;     /* raw byte length of the range */
    uint32_t public_len; /* leading bytes of the range that are not secret
                            (a prefix like "AKIA", a PEM BEGIN line,
                            "postgres://user:") */
    uint32_t show;       /* secret bytes after public_len a mask may show */
    double confidence;   /* in [0,1], after every adjustment */
    bool placeholder;    /* a documented placeholder or test value */
    bool corroborated;   /* extra evidence: AWS key id with a secret nearby,
                            card number with card words around it... */
    mv_card_brand brand; /* card matches only */
} mv_secret_match;

/* Compile-time knobs; zero members take the defaults. Tests lower the match
 * limit to prove that a limit hit is counted, never silent. */
typedef struct mv_secrets_options {
    uint32_t match_limit; /* pcre2_set_match_limit, default 20000 */
    uint32_t depth_limit; /* pcre2_set_depth_limit, default 2000 */
    uint32_t heap_limit;  /* pcre2_set_heap_limit in KiB, default 1024 */
    bool no_jit;          /* interpret only (tests: the interpreter honours
                             every limit, JIT only the match limit) */
    bool eager;           /* compile every pattern in mv_secrets_new (tests:
                             a broken pattern fails there) */
} mv_secrets_options;

#define MV_SECRETS_DEFAULT_MATCH_LIMIT 20000u
#define MV_SECRETS_DEFAULT_DEPTH_LIMIT 2000u
#define MV_SECRETS_DEFAULT_HEAP_LIMIT 1024u

/* Anchor hits examined per scanned text, and matches kept per text. */
#define MV_SECRETS_MAX_CANDIDATES 1024u
#define MV_SECRETS_MAX_MATCHES 64u

typedef struct mv_secrets mv_secrets;

/* Build the anchor filter; patterns (PCRE2 + JIT) are compiled on first
 * use, or here with `eager`. NULL allocator = default, NULL options =
 * defaults. Returns 0, MV_ENOMEM, or MV_EINVAL when a built-in pattern does
 * not compile (a bug; with `eager`, else mv_secrets_scan returns it). */
int mv_secrets_new(mv_secrets **out, const mv_allocator *a, const mv_secrets_options *opts);
void mv_secrets_free(mv_secrets *s);

/* Number of PCRE2 patterns one mv_secrets holds. */
size_t mv_secrets_pattern_count(const mv_secrets *s);

/* The effective match limit (for cap records). */
uint32_t mv_secrets_match_limit(const mv_secrets *s);

/* Test hook: pcre2_compile calls made by this library since the process
 * started: at most one per pattern and mv_secrets (a failed, out-of-memory
 * compile is tried again), in mv_secrets_new with `eager`, else in the
 * first scan that needs the pattern. */
uint64_t mv_secrets_compile_count(void);

/* What the caller knows about the text being scanned. */
#define MV_SECRETS_SECRET_FIELD (1u << 0) /* value of a credential-named field */
#define MV_SECRETS_CARD_FIELD (1u << 1)   /* value of a card-number-named field */
#define MV_SECRETS_ENTROPY (1u << 2)      /* also report entropy-only strings */

typedef struct mv_secrets_stats {
    uint64_t candidates;     /* anchor hits and digit runs examined */
    uint64_t limit_hits;     /* PCRE2 match/depth/heap limit hits */
    uint64_t cand_overflow;  /* largest anchor-hit count of a text over
                                MV_SECRETS_MAX_CANDIDATES, 0 if none */
    uint64_t match_overflow; /* largest match count of a text over
                                MV_SECRETS_MAX_MATCHES or the caller's cap */
} mv_secrets_stats;

/* Per-thread scanning state. Initialise with mv_secrets_scanner_init; it
 * allocates only from `scratch` (lazily, on the first candidate), so a
 * per-tool arena reset frees it. Do not use it after that reset. */
typedef struct mv_secrets_scanner {
    const mv_secrets *secrets;
    mv_arena *scratch;
    void *gctx;       /* pcre2_general_context drawing from scratch */
    void *match_data; /* pcre2_match_data */
    void *work;       /* candidate and match arrays, reused by every scan */
    mv_secrets_stats stats;
} mv_secrets_scanner;

void mv_secrets_scanner_init(mv_secrets_scanner *sc, const mv_secrets *s, mv_arena *scratch);

/*
 * Scan `len` raw bytes (may contain NUL). `flags` are MV_SECRETS_* hints;
 * `key` is the credential-ish field name when known (may be empty), used to
 * name an AWS secret access key held by a field called so.
 *
 * Matches are written to out[0..*n_out), sorted by start, overlaps resolved
 * (a specific format beats a generic one, including a dropped placeholder,
 * so a test value is never re-reported as a "random string"). Placeholders
 * and low-confidence matches are included; filter with
 * MV_SECRET_EMIT_THRESHOLD and `placeholder`. At most `cap` are kept (the
 * overflow is counted in the scanner's stats).
 * Returns 0, MV_ENOMEM (scratch exhausted, or no memory to compile a
 * pattern on its first use) or MV_EINVAL.
 */
int mv_secrets_scan(mv_secrets_scanner *sc, const char *text, size_t len, unsigned flags,
                    mv_str key, mv_secret_match *out, size_t cap, size_t *n_out);

/* Write the masked form of a match (public prefix, up to `show` secret
 * bytes, then asterisks; never more than a quarter of the secret) into
 * out[0..out_cap). Returns the bytes written. */
size_t mv_secrets_mask(char *out, size_t out_cap, const char *text, const mv_secret_match *m);

/* Shannon entropy in bits per byte of s[0..n). 0 for n == 0. */
double mv_secrets_entropy(const char *s, size_t n);

/* Number of character classes present among lower, upper, digit, other. */
unsigned mv_secrets_char_classes(const char *s, size_t n);

/* True when a token body looks like a documented placeholder: EXAMPLE, xxxx,
 * dummy, your-..., ${VAR}, {{var}}, <TOKEN>, long runs or sequences. */
bool mv_secrets_is_placeholder(const char *s, size_t n);

/* ---------------------------------------------------------- luhn.c */

/* Luhn check over ASCII digits (other bytes make it false). */
bool mv_luhn_valid(const char *digits, size_t n);

/* Brand by IIN range and length, MV_CARD_NONE when none fits. */
mv_card_brand mv_card_brand_of(const char *digits, size_t n);

const char *mv_card_brand_name(mv_card_brand brand);

/* Processor-documented test numbers and degenerate values (one repeated
 * digit, short repeating cycles). */
bool mv_card_is_test_number(const char *digits, size_t n);

#endif
