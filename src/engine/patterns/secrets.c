/*
 * The secret matchers (see secrets.h). A table of credential formats, each
 * with literal anchors, one PCRE2 pattern that confirms the exact shape at
 * an anchor, a base confidence and a validator that looks at the matched
 * value: placeholders and documented test values collapse to near zero,
 * weak or unlikely values lose confidence, corroborating context (a secret
 * access key next to an AWS key id, "Authorization:" before a bearer token,
 * card words around a number) adds some.
 *
 * Why anchors first: tool text is mostly prose, and one cheap literal pass
 * over it (a hashed trigram filter, see "The literal prefilter" below) is
 * far cheaper than running sixty patterns. Patterns run
 * anchored at the candidate position with a bounded subject, so every
 * PCRE2 call is short; possessive quantifiers keep them from backtracking,
 * and the match/depth/heap limits catch whatever slips through (a hit is
 * counted in the scanner's stats and the caller records it as a cap).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "secrets.h"

/* ------------------------------------------------------------ kinds */

static const char *const kind_names[MV_SECRET_KIND_COUNT] = {
    [MV_SECRET_AWS_ACCESS_KEY_ID] = "AWS access key id",
    [MV_SECRET_AWS_SECRET_KEY] = "AWS secret access key",
    [MV_SECRET_GCP_API_KEY] = "Google API key",
    [MV_SECRET_GCP_SERVICE_ACCOUNT] = "Google service-account private key",
    [MV_SECRET_AZURE_STORAGE_KEY] = "Azure storage account key",
    [MV_SECRET_AZURE_SHARED_ACCESS_KEY] = "Azure shared access key",
    [MV_SECRET_AZURE_SAS] = "Azure SAS token signature",
    [MV_SECRET_AZURE_CLIENT_SECRET] = "Azure AD client secret",
    [MV_SECRET_PRIVATE_KEY] = "private key",
    [MV_SECRET_GITHUB] = "GitHub token",
    [MV_SECRET_GITLAB] = "GitLab token",
    [MV_SECRET_SLACK] = "Slack token",
    [MV_SECRET_SLACK_WEBHOOK] = "Slack webhook URL",
    [MV_SECRET_DISCORD_WEBHOOK] = "Discord webhook URL",
    [MV_SECRET_STRIPE] = "Stripe live secret key",
    [MV_SECRET_STRIPE_WEBHOOK] = "Stripe webhook signing secret",
    [MV_SECRET_OPENAI] = "OpenAI API key",
    [MV_SECRET_ANTHROPIC] = "Anthropic API key",
    [MV_SECRET_OPENROUTER] = "OpenRouter API key",
    [MV_SECRET_SK_GENERIC] = "API secret key (sk- prefix)",
    [MV_SECRET_HUGGINGFACE] = "Hugging Face token",
    [MV_SECRET_GROQ] = "Groq API key",
    [MV_SECRET_REPLICATE] = "Replicate API token",
    [MV_SECRET_XAI] = "xAI API key",
    [MV_SECRET_PERPLEXITY] = "Perplexity API key",
    [MV_SECRET_TAVILY] = "Tavily API key",
    [MV_SECRET_LANGSMITH] = "LangSmith API key",
    [MV_SECRET_GOOGLE_OAUTH_SECRET] = "Google OAuth client secret",
    [MV_SECRET_SENDGRID] = "SendGrid API key",
    [MV_SECRET_NPM] = "npm access token",
    [MV_SECRET_PYPI] = "PyPI API token",
    [MV_SECRET_SHOPIFY] = "Shopify access token",
    [MV_SECRET_VAULT] = "HashiCorp Vault token",
    [MV_SECRET_DIGITALOCEAN] = "DigitalOcean token",
    [MV_SECRET_HUBSPOT] = "HubSpot private app token",
    [MV_SECRET_LINEAR] = "Linear API key",
    [MV_SECRET_NOTION] = "Notion integration token",
    [MV_SECRET_ATLASSIAN] = "Atlassian API token",
    [MV_SECRET_POSTMAN] = "Postman API key",
    [MV_SECRET_DATABRICKS] = "Databricks token",
    [MV_SECRET_SENTRY] = "Sentry auth token",
    [MV_SECRET_GRAFANA] = "Grafana token",
    [MV_SECRET_SUPABASE] = "Supabase secret key",
    [MV_SECRET_AGE] = "age secret key",
    [MV_SECRET_DOPPLER] = "Doppler token",
    [MV_SECRET_SQUARE] = "Square access token",
    [MV_SECRET_MAILGUN] = "Mailgun API key",
    [MV_SECRET_TELEGRAM] = "Telegram bot token",
    [MV_SECRET_FIGMA] = "Figma access token",
    [MV_SECRET_JWT] = "JSON Web Token",
    [MV_SECRET_BEARER] = "bearer token",
    [MV_SECRET_BASIC_AUTH] = "HTTP basic-auth credentials",
    [MV_SECRET_DATABASE_URL] = "database URL with a password",
    [MV_SECRET_URL_CREDENTIALS] = "URL with embedded credentials",
    [MV_SECRET_CARD] = "payment card number",
    [MV_SECRET_KEYWORD] = "secret value assigned to a credential name",
    [MV_SECRET_SECRET_FIELD] = "secret value in a credential field",
    [MV_SECRET_ENTROPY] = "high-entropy string",
};

const char *mv_secret_kind_name(mv_secret_kind kind) {
    if ((unsigned)kind < MV_SECRET_KIND_COUNT && kind_names[kind] != NULL)
        return kind_names[kind];
    return "secret";
}

/* ---------------------------------------------------------- families */

/* How a validator judges what the pattern matched. */
typedef enum validator {
    V_TOKEN,     /* prefixed token: body must look random */
    V_AWS_ID,    /* + look for a secret access key nearby */
    V_PEM,       /* body must be present and random; service-account context */
    V_AZURE_KEY, /* + the storage emulator's published key */
    V_SAS,       /* + the query must carry a SAS version */
    V_SK,        /* generic sk- keys: 48 characters is OpenAI's legacy shape */
    V_JWT,       /* header must decode to JSON with "alg"; signature sized */
    V_BEARER,    /* Authorization context raises it */
    V_BASIC,     /* Authorization context required; decoded user:password */
    V_URL,       /* scheme://user:password@host */
    V_KEYWORD    /* credential name, separator, random value */
} validator;

/* Where the pattern starts relative to the anchor hit. */
typedef enum start_rule {
    S_ANCHOR, /* at the anchor */
    S_SCHEME, /* walk back over a URL scheme before "://" */
    S_DIGITS, /* walk back over digits (Telegram bot id before ":AA") */
    S_BACK3   /* three bytes before the anchor (Azure client secret "abc8Q~") */
} start_rule;

/* Overlap ranks: a specific format beats a structural one beats a generic
 * keyword beats an entropy guess. */
#define RANK_ENTROPY 0
#define RANK_KEYWORD 1
#define RANK_STRUCT 2
#define RANK_SPECIFIC 3

typedef struct family {
    mv_secret_kind kind;
    const char *anchors; /* '|'-separated literals, matched ASCII-case-insensitively */
    const char *regex;   /* group 1: reported value, group 2: random body */
    double base;
    uint16_t window; /* max subject bytes from the start */
    uint8_t rank;
    uint8_t show; /* body bytes a mask may show */
    uint8_t validator;
    uint8_t start;
} family;

/* Not preceded / followed by a token character. */
#define LB "(?<![A-Za-z0-9_-])"
#define RB "(?![A-Za-z0-9_-])"
#define LBU "(?<![A-Za-z0-9_])"
#define RBU "(?![A-Za-z0-9_])"

static const family families[] = {
    {MV_SECRET_AWS_ACCESS_KEY_ID, "AKIA|ASIA",
     "(?<![A-Za-z0-9/+])((?:AKIA|ASIA)([A-Z0-9]{16}))(?![A-Za-z0-9/+=])", 0.70, 64, RANK_SPECIFIC,
     2, V_AWS_ID, S_ANCHOR},
    {MV_SECRET_GCP_API_KEY, "AIza", LB "(AIza([0-9A-Za-z_-]{35}))" RB, 0.80, 64, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_AZURE_STORAGE_KEY,
     "AccountKey=", "((?i:AccountKey)=([A-Za-z0-9+/]{40,100}+={0,2}))(?![A-Za-z0-9+/=])", 0.80, 160,
     RANK_SPECIFIC, 0, V_AZURE_KEY, S_ANCHOR},
    {MV_SECRET_AZURE_SHARED_ACCESS_KEY,
     "SharedAccessKey=", "((?i:SharedAccessKey)=([A-Za-z0-9+/]{40,60}+={0,2}))(?![A-Za-z0-9+/=])",
     0.75, 128, RANK_SPECIFIC, 0, V_AZURE_KEY, S_ANCHOR},
    {MV_SECRET_AZURE_SAS, "sig=",
     "(?<=[?&;])(sig=((?:[A-Za-z0-9+/]|%2[BbFf]){40,200}+(?:%3[Dd]|=){0,2}))(?![A-Za-z0-9%+/=])",
     0.70, 300, RANK_SPECIFIC, 0, V_SAS, S_ANCHOR},
    {MV_SECRET_AZURE_CLIENT_SECRET, "0Q~|1Q~|2Q~|3Q~|4Q~|5Q~|6Q~|7Q~|8Q~|9Q~",
     "(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}[0-9]Q~([A-Za-z0-9_~.-]{31,34}+))"
     "(?![A-Za-z0-9_~.-])",
     0.70, 64, RANK_SPECIFIC, 2, V_TOKEN, S_BACK3},
    {MV_SECRET_PRIVATE_KEY, "-----BEGIN",
     "(-----BEGIN[ ](?:(?:RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP|SSH2[ ]ENCRYPTED)[ ])?"
     "PRIVATE[ ]KEY(?:[ ]BLOCK)?-----"
     "(?:\\s|\\\\[rn])*+"
     "(?:[A-Za-z][A-Za-z-]{1,30}+:[^\\r\\n\\\\]{0,200}+(?:\\s|\\\\[rn])++){0,6}+"
     "((?:[A-Za-z0-9+/=]|\\s|\\\\[rn])*+)"
     "(?:-----END[ ][A-Z0-9 ]{0,40}+-----)?)",
     0.95, 32768, RANK_SPECIFIC, 0, V_PEM, S_ANCHOR},
    {MV_SECRET_GITHUB, "ghp_|gho_|ghu_|ghs_|ghr_", LBU "(gh[pousr]_([A-Za-z0-9]{36,251}+))" RBU,
     0.85, 300, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_GITHUB, "github_pat_", LBU "(github_pat_([A-Za-z0-9_]{50,255}+))" RBU, 0.85, 300,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_GITLAB, "glpat-|glptt-|gldt-|glrt-|glcbt-|gloas-|glsoat-|glft-|glimt-|glagent-",
     LB "(gl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent)-([A-Za-z0-9_-]{20,255}+))" RB, 0.85, 300,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SLACK, "xoxb-|xoxp-|xoxa-|xoxs-|xoxr-|xoxe-|xoxo-|xoxe.|xapp-",
     LB "((?:xox[abeoprs]|xoxe\\.xox[bp]|xapp)-([0-9A-Za-z-]{20,250}+))" RB, 0.85, 300,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SLACK_WEBHOOK, "hooks.slack.com/",
     "(hooks\\.slack\\.com/(?:services|workflows|triggers)/"
     "(T[A-Z0-9]{6,12}/[AB][A-Z0-9]{6,12}/[A-Za-z0-9]{16,40}+))(?![A-Za-z0-9])",
     0.85, 160, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_DISCORD_WEBHOOK, "discord.com/api/webhooks/|discordapp.com/api/webhooks/",
     "(discord(?:app)?\\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_-]{60,80}+))" RB, 0.85, 200,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_STRIPE, "sk_live_|rk_live_", LBU "((?:sk|rk)_live_([A-Za-z0-9]{20,255}+))" RBU, 0.90,
     300, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_STRIPE_WEBHOOK, "whsec_", LBU "(whsec_([A-Za-z0-9+/=]{32,100}+))(?![A-Za-z0-9_+/=])",
     0.75, 128, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_ANTHROPIC, "sk-ant-",
     LB "(sk-ant-(?:api|admin|sid|oat|ort)[0-9]{2}-([A-Za-z0-9_-]{32,200}+))" RB, 0.90, 256,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_OPENAI, "sk-proj-|sk-svcacct-|sk-admin-|sk-None-",
     LB "(sk-(?:proj|svcacct|admin|None)-([A-Za-z0-9_-]{40,300}+))" RB, 0.85, 340, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_OPENAI, "sk-", LB "(sk-([A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}))" RB, 0.90, 64,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_OPENROUTER, "sk-or-", LB "(sk-or-v[0-9]-([a-f0-9]{64}))" RB, 0.85, 96, RANK_SPECIFIC,
     2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SK_GENERIC, "sk-", LB "(sk-([A-Za-z0-9]{32,200}+))" RB, 0.55, 220, RANK_SPECIFIC, 2,
     V_SK, S_ANCHOR},
    {MV_SECRET_HUGGINGFACE, "hf_", LBU "(hf_([A-Za-z0-9]{34,40}+))" RBU, 0.80, 64, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_GROQ, "gsk_", LBU "(gsk_([A-Za-z0-9]{48,56}+))" RBU, 0.85, 80, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_REPLICATE, "r8_", LBU "(r8_([A-Za-z0-9]{37,40}+))" RBU, 0.80, 64, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_XAI, "xai-", LB "(xai-([A-Za-z0-9]{70,90}+))" RB, 0.85, 128, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_PERPLEXITY, "pplx-", LB "(pplx-([A-Za-z0-9]{40,60}+))" RB, 0.85, 96, RANK_SPECIFIC,
     2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_TAVILY, "tvly-", LB "(tvly-(?:dev-|prod-)?([A-Za-z0-9]{28,40}+))" RB, 0.80, 80,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_LANGSMITH, "lsv2_", LBU "(lsv2_(?:pt|sk)_([a-f0-9]{32}_[a-f0-9]{10}))" RBU, 0.85, 80,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_GOOGLE_OAUTH_SECRET, "GOCSPX-", LB "(GOCSPX-([A-Za-z0-9_-]{28}))" RB, 0.85, 64,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SENDGRID, "SG.", LB "(SG\\.([A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}))" RB, 0.90, 96,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_NPM, "npm_", LBU "(npm_([A-Za-z0-9]{36}))" RBU, 0.85, 64, RANK_SPECIFIC, 2, V_TOKEN,
     S_ANCHOR},
    {MV_SECRET_PYPI, "pypi-AgEIcHlwaS5vcmc", LB "(pypi-AgEIcHlwaS5vcmc([A-Za-z0-9_-]{50,400}+))" RB,
     0.90, 440, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SHOPIFY, "shpat_|shpca_|shppa_|shpss_",
     LBU "(shp(?:at|ca|pa|ss)_([a-fA-F0-9]{32}))" RBU, 0.85, 64, RANK_SPECIFIC, 2, V_TOKEN,
     S_ANCHOR},
    {MV_SECRET_VAULT, "hvs.|hvb.|hvr.", LB "(hv[sbr]\\.([A-Za-z0-9_-]{24,400}+))" RB, 0.80, 420,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_DIGITALOCEAN, "dop_v1_|doo_v1_|dor_v1_", LBU "(do[opr]_v1_([a-f0-9]{64}))" RBU, 0.85,
     96, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_HUBSPOT, "pat-na|pat-eu|pat-ap",
     LB "(pat-(?:na|eu|ap)[0-9]-([a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}))" RB,
     0.75, 64, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_LINEAR, "lin_api_", LBU "(lin_api_([A-Za-z0-9]{40}))" RBU, 0.85, 64, RANK_SPECIFIC,
     2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_NOTION, "ntn_", LBU "(ntn_([A-Za-z0-9]{40,50}+))" RBU, 0.75, 64, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_NOTION, "secret_", LBU "(secret_([A-Za-z0-9]{43}))" RBU, 0.60, 64, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_ATLASSIAN, "ATATT3", LB "(ATATT3([A-Za-z0-9_=-]{100,300}+))" RB, 0.80, 320,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_POSTMAN, "PMAK-", LB "(PMAK-([a-f0-9]{24}-[a-f0-9]{34}))" RB, 0.85, 80,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_DATABRICKS, "dapi", LBU "(dapi([a-f0-9]{32})(?:-[0-9])?)" RBU, 0.75, 64,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SENTRY, "sntrys_|sntryu_", LBU "(sntry[su]_([A-Za-z0-9+/=_-]{40,400}+))" RBU, 0.80,
     420, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_GRAFANA, "glsa_", LBU "(glsa_([A-Za-z0-9]{32}_[a-f0-9]{8}))" RBU, 0.85, 64,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_GRAFANA, "glc_", LBU "(glc_([A-Za-z0-9+/=_-]{32,400}+))" RBU, 0.75, 420,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_SUPABASE, "sbp_", LBU "(sbp_([a-f0-9]{40}))" RBU, 0.80, 64, RANK_SPECIFIC, 2,
     V_TOKEN, S_ANCHOR},
    {MV_SECRET_SUPABASE, "sb_secret_", LBU "(sb_secret_([A-Za-z0-9_-]{20,100}+))" RB, 0.80, 128,
     RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_AGE, "AGE-SECRET-KEY-1", LB "(AGE-SECRET-KEY-1([0-9A-Z]{58}))" RB, 0.95, 96,
     RANK_SPECIFIC, 0, V_TOKEN, S_ANCHOR},
    {MV_SECRET_DOPPLER, "dp.pt.|dp.st.|dp.sa.|dp.ct.",
     LB "(dp\\.(?:pt|st|sa|ct)\\.([A-Za-z0-9]{40,44}+))" RB, 0.85, 64, RANK_SPECIFIC, 2, V_TOKEN,
     S_ANCHOR},
    {MV_SECRET_SQUARE, "sq0atp-|sq0csp-", LB "(sq0(?:atp|csp)-([A-Za-z0-9_-]{22,43}+))" RB, 0.85,
     64, RANK_SPECIFIC, 2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_MAILGUN, "key-", LB "(key-([a-f0-9]{32}))" RB, 0.60, 48, RANK_SPECIFIC, 2, V_TOKEN,
     S_ANCHOR},
    {MV_SECRET_TELEGRAM, ":AA", "(?<![0-9])([0-9]{8,10}:(AA[A-Za-z0-9_-]{33}))" RB, 0.75, 64,
     RANK_SPECIFIC, 2, V_TOKEN, S_DIGITS},
    {MV_SECRET_FIGMA, "figd_", LBU "(figd_([A-Za-z0-9_-]{40,100}+))" RB, 0.80, 128, RANK_SPECIFIC,
     2, V_TOKEN, S_ANCHOR},
    {MV_SECRET_JWT, "eyJ",
     LB "(eyJ[A-Za-z0-9_-]{10,4000}+\\.([A-Za-z0-9_-]{2,16000}+)\\.([A-Za-z0-9_-]{16,2000}+))" RB,
     0.70, 24000, RANK_SPECIFIC, 3, V_JWT, S_ANCHOR},
    {MV_SECRET_BEARER, "bearer",
     LBU "(?i:bearer)[ \\t]+(([A-Za-z0-9._~+/-]{16,1000}+=*))(?![A-Za-z0-9._~+/=-])", 0.55, 1100,
     RANK_STRUCT, 2, V_BEARER, S_ANCHOR},
    {MV_SECRET_BASIC_AUTH, "basic ",
     LBU "(?i:basic)[ \\t]+(([A-Za-z0-9+/]{8,400}+={0,2}))(?![A-Za-z0-9+/=])", 0.60, 440,
     RANK_STRUCT, 0, V_BASIC, S_ANCHOR},
    {MV_SECRET_URL_CREDENTIALS, "://",
     "([A-Za-z][A-Za-z0-9+.-]{0,19}+)://([^\\s:/?#@\"'<>\\[\\]{}|\\\\^`]{0,128}+)"
     ":([^\\s/?#@\"'<>\\\\`]{1,256}+)@([A-Za-z0-9._-]{1,253}+|\\[[0-9A-Fa-f:.]{2,45}\\])",
     0.65, 700, RANK_STRUCT, 0, V_URL, S_SCHEME},
    {MV_SECRET_KEYWORD,
     "password|passwd|passphrase|pwd|secret|token|api_key|apikey|api-key|api key|access_key|"
     "accesskey|access-key|access key|auth_key|authkey|private_key|privatekey|private key|"
     "credential|key:|key=|key\":|key\" :|key =|key :|key':",
     "(?i:passw(?:or)?d|passphrase|pwd|secret|token|api[ _-]?key|access[ _-]?key|auth[ _-]?key|"
     "private[ _-]?key|credential|key)"
     "[A-Za-z0-9_.-]{0,24}+[\"'`]?(?:[ \\t]*(?::=|=>|[:=])[ \\t]*|[ \\t]+)[\"'`]?"
     "(([A-Za-z0-9+/=_.~!@#$%^*-]{12,256}+))",
     0.45, 400, RANK_KEYWORD, 2, V_KEYWORD, S_ANCHOR},
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

/* --------------------------------------------------------- the engine */

/*
 * The literal prefilter. Every anchor is at least three bytes long, so a
 * text position can only start an anchor when its first three bytes
 * (ASCII-case-folded) are the first three bytes of some anchor. A hashed
 * bitset over those trigrams answers that with one table probe per byte;
 * only on a hit are the anchors of that bucket compared in full. This is
 * several times cheaper per byte than walking an Aho-Corasick automaton
 * over ~190 case-folded anchors (measured on the real registry), and the
 * secret check runs over every byte of every tool.
 */
#define PF_BITS 15u /* bitset of 2^15 trigram hashes: 4 KiB, stays in L1 */
#define PF_BUCKET_SHIFT 3u
#define PF_BUCKETS (1u << (PF_BITS - PF_BUCKET_SHIFT))
#define PF_ANCHOR_MAX 32u
#define PF_ANCHORS_MAX 256u

typedef struct pf_anchor {
    uint32_t key;  /* first three folded bytes */
    uint16_t fam;  /* family index */
    uint16_t next; /* next anchor in the bucket + 1, 0 = end */
    uint8_t len;
    char text[PF_ANCHOR_MAX]; /* folded */
} pf_anchor;

/*
 * Patterns are compiled (and JIT-compiled) on first use: a scan of a few
 * tools meets a handful of the sixty families, and compiling all of them
 * was a quarter of engine start-up. The first scanner whose candidate needs
 * a family compiles it under the lock; every later match of that family,
 * on any thread, uses the same code, so whether JIT or the interpreter runs
 * never depends on timing or on which thread came first (JIT is tried once
 * per pattern, as an eager build would). A failed compile (out of memory)
 * is not remembered: the scan reports MV_ENOMEM and the next use tries
 * again. This state is the only thing a scan writes in a shared
 * mv_secrets.
 */
typedef struct lazy_code {
    pthread_mutex_t lock;
    _Atomic(pcre2_code *) code[N_FAMILIES]; /* set once, under the lock */
    pcre2_compile_context *cctx;            /* used under the lock only */
    bool no_jit;
} lazy_code;

struct mv_secrets {
    const mv_allocator *alloc;
    pcre2_general_context *gctx; /* compile-time allocations via alloc */
    pcre2_match_context *mctx;   /* limits; read-only after init, shared */
    lazy_code *lazy;
    bool lock_ready;
    uint32_t match_limit;
    uint8_t pf_bits[(1u << PF_BITS) / 8u];
    uint16_t pf_head[PF_BUCKETS]; /* first anchor + 1, 0 = empty */
    pf_anchor anchors[PF_ANCHORS_MAX];
    uint16_t n_anchors;
};

static _Atomic uint64_t compile_count;

uint64_t mv_secrets_compile_count(void) {
    return atomic_load(&compile_count);
}

/* PCRE2 frees without a size; mv_allocator wants one, so keep it in a
 * header in front of each block. */
#define PC_HEADER 16u

static void *pc_malloc(PCRE2_SIZE n, void *ctx) {
    const mv_allocator *a = ctx;
    if (n > SIZE_MAX - PC_HEADER)
        return NULL;
    unsigned char *p = mv_alloc(a, n + PC_HEADER);
    if (p == NULL)
        return NULL;
    size_t total = n + PC_HEADER;
    memcpy(p, &total, sizeof(total));
    return p + PC_HEADER;
}

static void pc_free(void *ptr, void *ctx) {
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *)ptr - PC_HEADER;
    size_t total;
    memcpy(&total, p, sizeof(total));
    mv_free(ctx, p, total);
}

/* Match data for one scanner comes from its arena; the arena reset frees it. */
static void *arena_malloc(PCRE2_SIZE n, void *ctx) {
    return mv_arena_alloc(ctx, n == 0 ? 1 : n);
}

static void arena_free(void *ptr, void *ctx) {
    (void)ptr;
    (void)ctx;
}

/* ASCII lowercase as a table: the prefilter folds every byte it reads. */
#define F4(b) (b), (b) + 1, (b) + 2, (b) + 3
#define F16(b) F4(b), F4((b) + 4), F4((b) + 8), F4((b) + 12)
static const unsigned char fold_table[256] = {
    F16(0x00), F16(0x10), F16(0x20), F16(0x30), 0x40,      F4(0x61),  F4(0x65),
    F4(0x69),  F4(0x6d),  F4(0x71),  F4(0x75),  0x79,      0x7a,      0x5b,
    0x5c,      0x5d,      0x5e,      0x5f,      F16(0x60), F16(0x70), F16(0x80),
    F16(0x90), F16(0xa0), F16(0xb0), F16(0xc0), F16(0xd0), F16(0xe0), F16(0xf0),
};
#undef F16
#undef F4

static unsigned char fold_byte(unsigned char c) {
    return fold_table[c];
}

static uint32_t pf_hash(uint32_t key) {
    return (key * 0x9E3779B1u) >> (32u - PF_BITS);
}

/* Register family `fam`'s '|'-separated anchors. MV_EINVAL for an anchor
 * shorter than three bytes or longer than PF_ANCHOR_MAX (a table bug). */
static int add_anchors(mv_secrets *s, const char *list, uint16_t fam) {
    int rc = MV_OK;
    const char *p = list;
    while (rc == MV_OK && *p != '\0') {
        const char *bar = strchr(p, '|');
        size_t n = bar != NULL ? (size_t)(bar - p) : strlen(p);
        if (n < 3 || n > PF_ANCHOR_MAX || s->n_anchors >= PF_ANCHORS_MAX) {
            rc = MV_EINVAL;
            break;
        }
        pf_anchor *a = &s->anchors[s->n_anchors];
        for (size_t i = 0; i < n; i++)
            a->text[i] = (char)fold_byte((unsigned char)p[i]);
        a->len = (uint8_t)n;
        a->fam = fam;
        a->key = (uint32_t)(unsigned char)a->text[0] | (uint32_t)(unsigned char)a->text[1] << 8 |
                 (uint32_t)(unsigned char)a->text[2] << 16;
        uint32_t h = pf_hash(a->key);
        s->pf_bits[h >> 3] |= (uint8_t)(1u << (h & 7u));
        uint32_t bucket = h >> PF_BUCKET_SHIFT;
        /* Append, so anchors of a bucket keep table order. */
        a->next = 0;
        uint16_t *link = &s->pf_head[bucket];
        while (*link != 0)
            link = &s->anchors[*link - 1].next;
        *link = (uint16_t)(s->n_anchors + 1);
        s->n_anchors++;
        p += n;
        if (*p == '|')
            p++;
    }
    return rc;
}

/* Compile family fi (under the lock). MV_ENOMEM, or MV_EINVAL for a
 * pattern of the table above that does not compile (a bug). */
static int compile_family(lazy_code *lz, size_t fi) {
    int err = 0;
    PCRE2_SIZE erroff = 0;
    atomic_fetch_add(&compile_count, 1);
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)families[fi].regex, PCRE2_ZERO_TERMINATED,
                                     PCRE2_ANCHORED, &err, &erroff, lz->cctx);
    if (code == NULL) {
        /* Out of memory is the caller's problem; anything else is a
         * broken pattern in the table above. */
        return err == PCRE2_ERROR_HEAP_FAILED ? MV_ENOMEM : MV_EINVAL;
    }
    /* JIT is an optimisation: without it the interpreter gives the same
     * answers under the same limits. It is tried exactly once per pattern,
     * before the code is published. */
    if (!lz->no_jit)
        (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
    atomic_store_explicit(&lz->code[fi], code, memory_order_release);
    return MV_OK;
}

/* The compiled code of family fi, compiled now if no scan needed it yet. */
static int family_code(const mv_secrets *s, size_t fi, pcre2_code **out) {
    int rc = MV_OK;
    lazy_code *lz = s->lazy;
    *out = atomic_load_explicit(&lz->code[fi], memory_order_acquire);
    if (*out != NULL)
        return MV_OK;
    pthread_mutex_lock(&lz->lock);
    *out = atomic_load_explicit(&lz->code[fi], memory_order_relaxed);
    if (*out == NULL) {
        rc = compile_family(lz, fi);
        *out = atomic_load_explicit(&lz->code[fi], memory_order_relaxed);
    }
    pthread_mutex_unlock(&lz->lock);
    return rc;
}

int mv_secrets_new(mv_secrets **out, const mv_allocator *a, const mv_secrets_options *opts) {
    int rc = MV_OK;
    mv_secrets *s = NULL;
    if (out == NULL)
        return MV_EINVAL;
    *out = NULL;
    if (a == NULL)
        a = mv_allocator_default();
    s = mv_calloc(a, 1, sizeof(*s));
    if (s == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    s->alloc = a;
    s->lazy = mv_calloc(a, 1, sizeof(*s->lazy));
    if (s->lazy == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (pthread_mutex_init(&s->lazy->lock, NULL) != 0) {
        rc = MV_ENOMEM;
        goto done;
    }
    s->lock_ready = true;
    for (size_t i = 0; i < N_FAMILIES; i++)
        atomic_init(&s->lazy->code[i], NULL);
    s->lazy->no_jit = opts != NULL && opts->no_jit;
    s->gctx = pcre2_general_context_create(pc_malloc, pc_free, (void *)a);
    if (s->gctx == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    s->lazy->cctx = pcre2_compile_context_create(s->gctx);
    s->mctx = pcre2_match_context_create(s->gctx);
    if (s->lazy->cctx == NULL || s->mctx == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    uint32_t ml =
        opts != NULL && opts->match_limit ? opts->match_limit : MV_SECRETS_DEFAULT_MATCH_LIMIT;
    uint32_t dl =
        opts != NULL && opts->depth_limit ? opts->depth_limit : MV_SECRETS_DEFAULT_DEPTH_LIMIT;
    uint32_t hl =
        opts != NULL && opts->heap_limit ? opts->heap_limit : MV_SECRETS_DEFAULT_HEAP_LIMIT;
    s->match_limit = ml;
    pcre2_set_match_limit(s->mctx, ml);
    pcre2_set_depth_limit(s->mctx, dl);
    pcre2_set_heap_limit(s->mctx, hl);

    for (size_t i = 0; i < N_FAMILIES; i++) {
        rc = add_anchors(s, families[i].anchors, (uint16_t)i);
        if (rc == MV_OK && opts != NULL && opts->eager)
            rc = compile_family(s->lazy, i);
        if (rc != MV_OK)
            goto done;
    }
    *out = s;
    s = NULL;
done:
    mv_secrets_free(s);
    return rc;
}

void mv_secrets_free(mv_secrets *s) {
    if (s == NULL)
        return;
    if (s->lazy != NULL) {
        for (size_t i = 0; i < N_FAMILIES; i++)
            pcre2_code_free(atomic_load_explicit(&s->lazy->code[i], memory_order_relaxed));
        pcre2_compile_context_free(s->lazy->cctx);
        if (s->lock_ready)
            pthread_mutex_destroy(&s->lazy->lock);
        mv_free(s->alloc, s->lazy, sizeof(*s->lazy));
    }
    pcre2_match_context_free(s->mctx);
    pcre2_general_context_free(s->gctx);
    mv_free(s->alloc, s, sizeof(*s));
}

size_t mv_secrets_pattern_count(const mv_secrets *s) {
    return s != NULL ? N_FAMILIES : 0;
}

uint32_t mv_secrets_match_limit(const mv_secrets *s) {
    return s != NULL ? s->match_limit : 0;
}

void mv_secrets_scanner_init(mv_secrets_scanner *sc, const mv_secrets *s, mv_arena *scratch) {
    memset(sc, 0, sizeof(*sc));
    sc->secrets = s;
    sc->scratch = scratch;
}

/* ------------------------------------------------------ text measures */

static bool is_lower(unsigned char c) {
    return c >= 'a' && c <= 'z';
}
static bool is_upper(unsigned char c) {
    return c >= 'A' && c <= 'Z';
}
static bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}
static bool is_alpha(unsigned char c) {
    return is_lower(c) || is_upper(c);
}
static bool is_alnum(unsigned char c) {
    return is_alpha(c) || is_digit(c);
}
static bool is_hex(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static unsigned char lower(unsigned char c) {
    return is_upper(c) ? (unsigned char)(c + 32) : c;
}

double mv_secrets_entropy(const char *s, size_t n) {
    if (n == 0)
        return 0.0;
    uint32_t count[256];
    memset(count, 0, sizeof(count));
    for (size_t i = 0; i < n; i++)
        count[(unsigned char)s[i]]++;
    double h = 0.0;
    for (size_t c = 0; c < 256; c++) {
        if (count[c] == 0)
            continue;
        double p = (double)count[c] / (double)n;
        h -= p * log2(p);
    }
    return h;
}

unsigned mv_secrets_char_classes(const char *s, size_t n) {
    bool lo = false, up = false, di = false, ot = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_lower(c))
            lo = true;
        else if (is_upper(c))
            up = true;
        else if (is_digit(c))
            di = true;
        else
            ot = true;
    }
    return (unsigned)lo + (unsigned)up + (unsigned)di + (unsigned)ot;
}

/* Case-insensitive search for a lowercase ASCII needle. */
static bool contains_ci(const char *s, size_t n, const char *needle) {
    size_t m = strlen(needle);
    if (m == 0 || m > n)
        return false;
    for (size_t i = 0; i + m <= n; i++) {
        size_t j = 0;
        while (j < m && lower((unsigned char)s[i + j]) == (unsigned char)needle[j])
            j++;
        if (j == m)
            return true;
    }
    return false;
}

static bool contains(const char *s, size_t n, const char *needle) {
    size_t m = strlen(needle);
    if (m == 0 || m > n)
        return false;
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(s + i, needle, m) == 0)
            return true;
    return false;
}

static bool equals_ci(const char *s, size_t n, const char *word) {
    size_t m = strlen(word);
    if (m != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != (unsigned char)word[i])
            return false;
    return true;
}

/* Words that documentation uses for stand-in values. A random token of n
 * characters contains a given four-letter word by chance with probability
 * about n / 900000 (case-insensitive over 62 symbols), so four-letter words
 * are only trusted in token-sized strings; longer blobs (PEM bodies, JWT
 * payloads) are judged by words of five letters or more. */
static const char *const placeholder_words[] = {
    "example", "sample",    "dummy", "placeholder", "changeme", "change_me", "redacted", "insert",
    "replace", "secret",    "token", "password",    "passwd",   "apikey",    "api_key",  "lorem",
    "foobar",  "undefined", "fixme", "invalid",     "notreal",  "not_real",  "base64",
};
static const char *const placeholder_short_words[] = {
    "your", "xxxx", "fake", "here", "test", "demo", "mock", "null", "todo",
};

static bool has_word(const char *s, size_t n, const char *const *words, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (contains_ci(s, n, words[i]))
            return true;
    return false;
}

static bool placeholder_word(const char *s, size_t n) {
    return has_word(s, n, placeholder_words,
                    sizeof(placeholder_words) / sizeof(placeholder_words[0])) ||
           (n <= 64 &&
            has_word(s, n, placeholder_short_words,
                     sizeof(placeholder_short_words) / sizeof(placeholder_short_words[0])));
}

/* Template and elision markers: ${VAR}, {{var}}, <TOKEN>, %s, ..., ***. */
static bool template_marker(const char *s, size_t n) {
    if (contains(s, n, "${") || contains(s, n, "{{") || contains(s, n, "<") ||
        contains(s, n, ">") || contains(s, n, "%s") || contains(s, n, "$(") ||
        contains(s, n, "...") || contains(s, n, "**") || contains(s, n, "\xe2\x80\xa6"))
        return true;
    /* printf precision specs (%0.f, %.2d); URL escapes (%2F) have no dot. */
    for (size_t i = 0; i + 2 < n; i++) {
        if (s[i] != '%')
            continue;
        size_t j = i + 1;
        while (j < n && is_digit((unsigned char)s[j]))
            j++;
        if (j < n && s[j] == '.') {
            j++;
            while (j < n && is_digit((unsigned char)s[j]))
                j++;
            if (j < n && is_lower((unsigned char)s[j]))
                return true;
        }
    }
    return false;
}

/* Shapes that no random generator produces: long runs of one character,
 * straight sequences (12345, abcdef), very few distinct characters. */
static bool degenerate_shape(const char *s, size_t n) {
    size_t run = 1, up = 1, down = 1;
    for (size_t i = 1; i < n; i++) {
        unsigned char a = lower((unsigned char)s[i - 1]), c = lower((unsigned char)s[i]);
        run = c == a ? run + 1 : 1;
        up = is_alnum(c) && c == a + 1 ? up + 1 : 1;
        down = is_alnum(c) && c + 1 == a ? down + 1 : 1;
        if (run >= 5 || up >= 6 || down >= 6)
            return true;
    }
    if (n >= 12) {
        bool seen[256] = {false};
        size_t distinct = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = lower((unsigned char)s[i]);
            if (!seen[c]) {
                seen[c] = true;
                distinct++;
            }
        }
        if (distinct <= (n >= 16 ? 5u : 4u))
            return true;
    }
    return false;
}

/* Values published in specifications and vendor documentation as examples:
 * every tutorial copies them, no system issues them. (AWS's example keys
 * contain EXAMPLE and need no entry.) */
static const char *const documented_examples[] = {
    "2YotnFZFEjr1zCsicMWpAA",                      /* RFC 6749 access token */
    "tGzv3JOkF0XG5Qx2TlKWIA",                      /* RFC 6749 refresh token */
    "SplxlOBeZQQYbYS6WxSbIA",                      /* RFC 6749 authorization code */
    "czZCaGRSa3F0MzpnWDFmQmF0M2JW",                /* RFC 6749 client credentials (basic) */
    "s6BhdRkqt3",                                  /* RFC 6749 client id */
    "7Fjfp0ZBr1KtDRbnfVdmIw",                      /* RFC 6749 client secret */
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", /* jwt.io HS256 signature */
};

static bool documented_example(const char *s, size_t n) {
    for (size_t i = 0; i < sizeof(documented_examples) / sizeof(documented_examples[0]); i++)
        if (contains(s, n, documented_examples[i]))
            return true;
    return false;
}

bool mv_secrets_is_placeholder(const char *s, size_t n) {
    return n == 0 || placeholder_word(s, n) || template_marker(s, n) || degenerate_shape(s, n) ||
           documented_example(s, n);
}

/* Bits per character a random token of this length comfortably exceeds. */
static double min_entropy(size_t n) {
    if (n >= 32)
        return 3.2;
    if (n >= 20)
        return 3.0;
    if (n >= 12)
        return 2.7;
    return 2.0;
}

/* A digit with letters on both sides somewhere: random tokens have them,
 * identifiers (MY_API_KEY_2, getAccessToken) do not. */
static bool interior_digit(const char *s, size_t n) {
    size_t first_alpha = n, last_alpha = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_alpha((unsigned char)s[i])) {
            if (first_alpha == n)
                first_alpha = i;
            last_alpha = i;
        }
    }
    for (size_t i = first_alpha; i < last_alpha && first_alpha < n; i++)
        if (is_digit((unsigned char)s[i]))
            return true;
    return false;
}

static bool is_uuid(const char *s, size_t n) {
    if (n != 36)
        return false;
    for (size_t i = 0; i < n; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_hex((unsigned char)s[i]))
            return false;
    }
    return true;
}

/* Is the value made of words: pieces split at _ - . and at camelCase and
 * digit-to-letter boundaries, every piece with two letters or more
 * (PK11_ListPrivKeysInSlot, SEC_PKCS12PrivateKeyBag)? Random tokens almost
 * always leave a one-letter piece (Tm9bxwtON90K2m0: "K2", "m0"). */
static bool identifier_like(const char *s, size_t n) {
    size_t pieces = 0, letters = 0;
    bool ok = true;
    for (size_t i = 0; i <= n && ok; i++) {
        unsigned char c = i < n ? (unsigned char)s[i] : '_';
        unsigned char prev = i > 0 ? (unsigned char)s[i - 1] : '_';
        bool boundary = c == '_' || c == '-' || c == '.' || (is_upper(c) && is_lower(prev)) ||
                        (is_alpha(c) && is_digit(prev));
        if (boundary && i > 0 && (is_alnum(prev) || i == n)) {
            if (letters > 0 || pieces > 0)
                pieces++;
            ok = letters >= 2 || (letters == 0 && pieces > 1);
            letters = 0;
        }
        if (is_alpha(c))
            letters++;
        else if (!is_digit(c) && c != '_' && c != '-' && c != '.')
            ok = false;
    }
    return ok && pieces >= 2;
}

/* CONSTANT_CASE_NAME2 or snake_case_name: underscores, one letter case,
 * words of two letters or more. Generated tokens of this length always mix
 * cases. */
static bool single_case_name(const char *s, size_t n) {
    bool underscore = false, up = false, lo = false;
    size_t letters = 0;
    for (size_t i = 0; i <= n; i++) {
        unsigned char c = i < n ? (unsigned char)s[i] : '_';
        if (c == '_') {
            if (i < n)
                underscore = true;
            if (letters < 2 && i > 0)
                return false;
            letters = 0;
        } else if (is_alpha(c)) {
            up = up || is_upper(c);
            lo = lo || is_lower(c);
            letters++;
        } else if (!is_digit(c)) {
            return false;
        }
    }
    return underscore && !(up && lo);
}

/* self._lib.X509_get_pubkey, ed25519.Ed25519PrivateKey: attribute access
 * in code. The first name is lowercase; tokens with dots carry prefixes
 * (JWT, SendGrid, Vault) and are matched by their own patterns. */
static bool code_expression(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && (is_lower((unsigned char)s[i]) || s[i] == '_' ||
                     (i > 0 && is_digit((unsigned char)s[i]))))
        i++;
    return i >= 2 && i + 1 < n && s[i] == '.' &&
           (is_alpha((unsigned char)s[i + 1]) || s[i + 1] == '_');
}

/* 0xce534356UL: a numeric constant, not a key (a 64-digit wallet key is
 * longer than any integer literal). */
static bool numeric_literal(const char *s, size_t n) {
    if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return false;
    size_t i = 2;
    while (i < n && is_hex((unsigned char)s[i]))
        i++;
    size_t digits = i - 2;
    while (i < n && (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L'))
        i++;
    return i == n && digits <= 16;
}

static long b64_decode(const char *s, size_t n, unsigned char *out, size_t cap);

/* A base64 value that decodes to readable text saying it is a stand-in
 * ("bm90IG15IHJlYWwgcGFzc3dvcmQ=" is "not my real password"). */
static bool b64_placeholder(const char *s, size_t n) {
    unsigned char dec[400];
    long dl = b64_decode(s, n, dec, sizeof(dec));
    if (dl < 6)
        return false;
    for (long i = 0; i < dl; i++)
        if (dec[i] < 0x20 || dec[i] >= 0x7f)
            return false;
    return placeholder_word((const char *)dec, (size_t)dl) ||
           contains_ci((const char *)dec, (size_t)dl, "not my real") ||
           contains_ci((const char *)dec, (size_t)dl, "not real");
}

/* Does an unprefixed value (a password, a token after "token:") look like
 * a generated secret rather than a word, identifier, path, id or date?
 * `loose` is for values that follow a credential word with nothing but
 * whitespace ("SecretStr SEC_PKCS12Secret" in a C header, "Bearer x"):
 * there any value made of words is taken for an identifier. That rule would
 * drop about one random mixed-case token in ten, so values after an
 * explicit ':' or '=' only lose CONSTANT_CASE names. */
static bool random_value_ok(const char *s, size_t n, bool loose) {
    if (n < 12 || n > 512)
        return false;
    if (mv_secrets_is_placeholder(s, n))
        return false;
    /* Paths, URLs, C pointers (*name, &name). */
    if (s[0] == '/' || s[0] == '~' || s[0] == '.' || s[0] == '*' || s[0] == '&' ||
        contains(s, n, "://"))
        return false;
    if (is_uuid(s, n) || numeric_literal(s, n) || single_case_name(s, n) || code_expression(s, n) ||
        (loose && identifier_like(s, n)) || b64_placeholder(s, n))
        return false;
    if (!interior_digit(s, n))
        return false;
    bool lo = false, up = false, other = false, hex_only = true;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        lo = lo || is_lower(c);
        up = up || is_upper(c);
        other = other || !is_alnum(c);
        hex_only = hex_only && is_hex(c);
    }
    double e = mv_secrets_entropy(s, n);
    if (hex_only)
        return n >= 16 && e >= 3.0;
    if (!((lo && up) || other))
        return false;
    return e >= (n >= 20 ? 3.5 : 3.2);
}

/* ------------------------------------------------------------ base64 */

static int b64_digit(unsigned char c) {
    if (is_upper(c))
        return c - 'A';
    if (is_lower(c))
        return c - 'a' + 26;
    if (is_digit(c))
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* Decode base64 or base64url (padding optional) into out[0..cap). Returns
 * the decoded length, or -1 on a bad character. Stops when out is full. */
static long b64_decode(const char *s, size_t n, unsigned char *out, size_t cap) {
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '=')
            break;
        int d = b64_digit(c);
        if (d < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o == cap)
                break;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return (long)o;
}

/* ------------------------------------------------------------ matches */

typedef struct item {
    mv_secret_match m;
    uint8_t rank;
    uint16_t order;
} item;

typedef struct cand {
    uint32_t start;
    uint16_t fam;
} cand;

typedef struct work_area {
    item items[MV_SECRETS_MAX_MATCHES];
    cand cands[MV_SECRETS_MAX_CANDIDATES];
} work_area;

typedef struct scan_state {
    mv_secrets_scanner *sc;
    const char *text;
    size_t len;
    unsigned flags;
    mv_str key;
    cand *cands;
    size_t n_cands;
    uint64_t seen_cands;
    item *items;
    size_t n_items;
    uint64_t seen_items;
} scan_state;

static void push(scan_state *st, const mv_secret_match *m, uint8_t rank, uint16_t order) {
    st->seen_items++;
    if (st->n_items >= MV_SECRETS_MAX_MATCHES)
        return;
    item *it = &st->items[st->n_items++];
    it->m = *m;
    if (documented_example(st->text + m->start, m->length))
        it->m.placeholder = true;
    if (it->m.placeholder)
        it->m.confidence = MV_SECRET_PLACEHOLDER_CONFIDENCE;
    it->rank = rank;
    it->order = order;
}

/* Case-insensitive: does `word` occur in text[from, to)? */
static bool near_ci(const scan_state *st, size_t from, size_t to, const char *word) {
    if (to > st->len)
        to = st->len;
    if (from >= to)
        return false;
    return contains_ci(st->text + from, to - from, word);
}

static size_t back(size_t pos, size_t by) {
    return pos > by ? pos - by : 0;
}

/* -------------------------------------------------------- validators */

typedef struct groups {
    size_t v0, v1; /* value */
    size_t b0, b1; /* body */
    size_t x0, x1; /* third group (JWT signature) */
    size_t m0, m1; /* whole match */
} groups;

static void base_match(mv_secret_match *m, const family *f, const groups *g) {
    memset(m, 0, sizeof(*m));
    m->kind = f->kind;
    m->start = (uint32_t)g->v0;
    m->length = (uint32_t)(g->v1 - g->v0);
    m->public_len = (uint32_t)(g->b0 - g->v0);
    m->show = f->show;
    m->confidence = f->base;
}

/* Generic prefixed token: the body must look generated. */
static void judge_token_body(mv_secret_match *m, const char *body, size_t n) {
    if (mv_secrets_is_placeholder(body, n) || mv_secrets_entropy(body, n) < min_entropy(n))
        m->placeholder = true;
}

/* A 40-character secret access key within a few hundred bytes of the id. */
static bool find_aws_secret(const scan_state *st, size_t at, size_t *s0, size_t *s1) {
    size_t from = back(at, 320), to = at + 360 < st->len ? at + 360 : st->len;
    const unsigned char *t = (const unsigned char *)st->text;
    size_t i = from;
    while (i < to) {
        if (!(is_alnum(t[i]) || t[i] == '/' || t[i] == '+')) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < st->len && (is_alnum(t[j]) || t[j] == '/' || t[j] == '+'))
            j++;
        /* Padding after it means a longer base64 blob, not a key. */
        bool bounded = j >= st->len || t[j] != '=';
        if (j - i == 40 && bounded) {
            const char *s = st->text + i;
            bool lo = false, up = false, di = false;
            for (size_t k = 0; k < 40; k++) {
                lo = lo || is_lower((unsigned char)s[k]);
                up = up || is_upper((unsigned char)s[k]);
                di = di || is_digit((unsigned char)s[k]) || s[k] == '/' || s[k] == '+';
            }
            if (lo && up && di && !mv_secrets_is_placeholder(s, 40) &&
                mv_secrets_entropy(s, 40) >= 4.0) {
                *s0 = i;
                *s1 = j;
                return true;
            }
        }
        i = j;
    }
    return false;
}

static void judge_aws(scan_state *st, const family *f, const groups *g, uint16_t order) {
    mv_secret_match m;
    base_match(&m, f, g);
    judge_token_body(&m, st->text + g->b0, g->b1 - g->b0);
    size_t s0 = 0, s1 = 0;
    if (!m.placeholder && find_aws_secret(st, g->v0, &s0, &s1)) {
        m.corroborated = true;
        m.confidence = 0.90;
        mv_secret_match sec = {MV_SECRET_AWS_SECRET_KEY,
                               (uint32_t)s0,
                               (uint32_t)(s1 - s0),
                               0,
                               2,
                               0.85,
                               false,
                               true,
                               MV_CARD_NONE};
        push(st, &sec, RANK_SPECIFIC, (uint16_t)order);
    }
    push(st, &m, f->rank, order);
}

static void judge_pem(scan_state *st, const family *f, const groups *g, uint16_t order) {
    mv_secret_match m;
    base_match(&m, f, g);
    const char *v = st->text + g->v0;
    size_t vn = g->v1 - g->v0;
    /* The BEGIN line is not secret: show it whole. */
    size_t pub = vn;
    for (size_t i = 10; i + 5 <= vn; i++) {
        if (memcmp(v + i, "-----", 5) == 0) {
            pub = i + 5;
            break;
        }
    }
    m.public_len = (uint32_t)pub;
    m.show = 0;
    /* Count and measure only the base64 characters of the body. */
    uint32_t count[256];
    memset(count, 0, sizeof(count));
    size_t b64 = 0;
    const char *b = st->text + g->b0;
    size_t bn = g->b1 - g->b0;
    for (size_t i = 0; i < bn; i++) {
        unsigned char c = (unsigned char)b[i];
        if (c == '\\' && i + 1 < bn) {
            i++;
            continue;
        }
        if (is_alnum(c) || c == '+' || c == '/') {
            count[c]++;
            b64++;
        }
    }
    double h = 0.0;
    for (size_t c = 0; c < 256 && b64 > 0; c++) {
        if (count[c] == 0)
            continue;
        double p = (double)count[c] / (double)b64;
        h -= p * log2(p);
    }
    /* A header with no real body ("...base64...") documents the format. */
    if (b64 < 64 || h < 4.5 || placeholder_word(b, bn))
        m.placeholder = true;
    if (contains(v, vn, "ENCRYPTED"))
        m.confidence = 0.85;
    if (contains(st->text + back(g->v0, 4096), g->v0 - back(g->v0, 4096), "service_account")) {
        m.kind = MV_SECRET_GCP_SERVICE_ACCOUNT;
        m.corroborated = true;
    }
    push(st, &m, f->rank, order);
}

/* The Azure storage emulator's account key is published in Microsoft's
 * documentation so that every developer can use it locally. */
static const char emulator_key[] =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

static void judge_azure_key(scan_state *st, const family *f, const groups *g, uint16_t order) {
    mv_secret_match m;
    base_match(&m, f, g);
    const char *b = st->text + g->b0;
    size_t bn = g->b1 - g->b0;
    /* Include padding in the comparison with the published key. */
    size_t full = g->v1 - g->b0;
    if ((full == sizeof(emulator_key) - 1 && memcmp(b, emulator_key, full) == 0) ||
        near_ci(st, back(g->v0, 300), g->v0, "devstoreaccount1"))
        m.placeholder = true;
    else
        judge_token_body(&m, b, bn);
    push(st, &m, f->rank, order);
}

static void judge_sas(scan_state *st, const family *f, const groups *g, uint16_t order) {
    /* The same query string must carry a service version (sv=YYYY-MM-DD). */
    size_t from = g->v0;
    while (from > 0 && g->v0 - from < 600) {
        unsigned char c = (unsigned char)st->text[from - 1];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'')
            break;
        from--;
    }
    if (!near_ci(st, from, g->v0, "sv=20"))
        return;
    mv_secret_match m;
    base_match(&m, f, g);
    judge_token_body(&m, st->text + g->b0, g->b1 - g->b0);
    push(st, &m, f->rank, order);
}

static void judge_sk(scan_state *st, const family *f, const groups *g, uint16_t order) {
    mv_secret_match m;
    base_match(&m, f, g);
    size_t bn = g->b1 - g->b0;
    const char *b = st->text + g->b0;
    judge_token_body(&m, b, bn);
    if (!m.placeholder && !interior_digit(b, bn))
        m.confidence = 0.30;
    else if (bn == 48) {
        m.kind = MV_SECRET_OPENAI;
        m.confidence = 0.75;
    }
    push(st, &m, f->rank, order);
}

/* Extract the value of "alg" from a decoded JWT header. */
static size_t jwt_alg(const unsigned char *h, size_t n, char *alg, size_t cap) {
    const char *p = (const char *)h;
    for (size_t i = 0; i + 5 <= n; i++) {
        if (memcmp(p + i, "\"alg\"", 5) != 0)
            continue;
        size_t j = i + 5;
        while (j < n && (p[j] == ' ' || p[j] == ':'))
            j++;
        if (j >= n || p[j] != '"')
            return 0;
        j++;
        size_t k = 0;
        while (j < n && p[j] != '"' && k + 1 < cap)
            alg[k++] = p[j++];
        alg[k] = '\0';
        return k;
    }
    return 0;
}

/* Does the payload carry one of RFC 7519's registered claims? */
static bool jwt_has_claim(const char *p, size_t n) {
    static const char *const claims[] = {"\"iss\"", "\"sub\"", "\"aud\"", "\"exp\"",
                                         "\"nbf\"", "\"iat\"", "\"jti\""};
    for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
        if (contains(p, n, claims[i]))
            return true;
    return false;
}

/* Does the signature size fit the algorithm? */
static bool jwt_sig_fits(const char *alg, size_t sig_bytes) {
    if (strcmp(alg, "HS256") == 0)
        return sig_bytes == 32;
    if (strcmp(alg, "HS384") == 0)
        return sig_bytes == 48;
    if (strcmp(alg, "HS512") == 0)
        return sig_bytes == 64;
    if (strcmp(alg, "ES256") == 0 || strcmp(alg, "ES256K") == 0 || strcmp(alg, "EdDSA") == 0 ||
        strcmp(alg, "Ed25519") == 0)
        return sig_bytes == 64;
    if (strcmp(alg, "ES384") == 0)
        return sig_bytes == 96;
    if (strcmp(alg, "ES512") == 0)
        return sig_bytes == 132;
    if (alg[0] == 'R' || alg[0] == 'P')
        return sig_bytes >= 128 && sig_bytes <= 1024;
    return sig_bytes >= 16;
}

static void judge_jwt(scan_state *st, const family *f, const groups *g, uint16_t order) {
    const char *v = st->text + g->v0;
    size_t hn = 0;
    while (g->v0 + hn < g->b0 && v[hn] != '.')
        hn++;
    unsigned char head[3000];
    long hl = b64_decode(v, hn, head, sizeof(head));
    char alg[16];
    /* Not a JWT unless the header is a JSON object naming its algorithm. */
    if (hl < 2 || head[0] != '{' || jwt_alg(head, (size_t)hl, alg, sizeof(alg)) == 0)
        return;
    size_t pn = g->b1 - g->b0;
    /* The decoded payload is only needed here: give the bytes back. */
    mv_arena_mark mark = mv_arena_save(st->sc->scratch);
    unsigned char *payload = mv_arena_alloc(st->sc->scratch, pn + 1);
    if (payload == NULL)
        goto done;
    long pl = b64_decode(st->text + g->b0, pn, payload, pn + 1);
    if (pl < 2 || payload[0] != '{')
        goto done;
    mv_secret_match m;
    base_match(&m, f, g);
    m.public_len = 3; /* "eyJ" is the same for every token */
    size_t sn = g->x1 - g->x0;
    unsigned char sig[1600];
    long sl = b64_decode(st->text + g->x0, sn, sig, sizeof(sig));
    size_t printable = 0;
    for (long i = 0; i < sl; i++)
        if (sig[i] >= 0x20 && sig[i] < 0x7f)
            printable++;
    const char *pp = (const char *)payload;
    bool sequence = contains(pp, (size_t)pl, "1234567890");
    /* A readable signature ("signature-not-valid") or a story-book payload
     * (John Doe, example.com) is documentation. */
    if (sl <= 0 || (double)printable >= 0.9 * (double)sl || placeholder_word(pp, (size_t)pl) ||
        contains_ci(pp, (size_t)pl, "john doe") || sequence || strcmp(alg, "none") == 0) {
        m.placeholder = true;
    } else if (!jwt_sig_fits(alg, (size_t)sl)) {
        m.confidence = 0.25;
    } else if (!jwt_has_claim(pp, (size_t)pl)) {
        /* Issued tokens carry registered claims; {"some":"payload"} is a
         * library's documentation example. */
        m.confidence = 0.35;
    } else if (contains(pp, (size_t)pl, "\"role\":\"anon\"")) {
        /* Supabase anon keys are public by design. */
        m.confidence = 0.30;
    } else if (contains(pp, (size_t)pl, "service_role")) {
        m.confidence = 0.85;
        m.corroborated = true;
    }
    push(st, &m, f->rank, order);
done:
    mv_arena_rewind(st->sc->scratch, mark);
}

/* Trim sentence punctuation a permissive value class swallowed. */
static size_t trim_value(const char *s, size_t n) {
    while (n > 0 && (s[n - 1] == '.' || s[n - 1] == ',' || s[n - 1] == ';' || s[n - 1] == ':' ||
                     s[n - 1] == '!'))
        n--;
    return n;
}

static bool authorization_before(const scan_state *st, size_t at) {
    return near_ci(st, back(at, 48), at, "authorization") || near_ci(st, back(at, 48), at, "auth:");
}

static void judge_bearer(scan_state *st, const family *f, const groups *g, uint16_t order) {
    size_t n = trim_value(st->text + g->v0, g->v1 - g->v0);
    const char *v = st->text + g->v0;
    if (!random_value_ok(v, n, true) &&
        !(n >= 16 && contains(v, n, ".") && interior_digit(v, n) &&
          !mv_secrets_is_placeholder(v, n) && mv_secrets_entropy(v, n) >= 4.0))
        return;
    mv_secret_match m;
    base_match(&m, f, g);
    /* Report from the label ("Bearer ", "password: "): it is not secret
     * and tells the reviewer what the value was assigned to. */
    m.start = (uint32_t)g->m0;
    m.public_len = (uint32_t)(g->v0 - g->m0);
    m.length = (uint32_t)(g->v0 - g->m0 + n);
    if (authorization_before(st, g->m0)) {
        m.confidence = 0.70;
        m.corroborated = true;
    }
    push(st, &m, f->rank, order);
}

static void judge_basic(scan_state *st, const family *f, const groups *g, uint16_t order) {
    if (!authorization_before(st, g->m0))
        return;
    unsigned char dec[320];
    long dl = b64_decode(st->text + g->b0, g->b1 - g->b0, dec, sizeof(dec));
    if (dl < 3)
        return;
    long colon = -1;
    for (long i = 0; i < dl; i++) {
        if (dec[i] < 0x20 || dec[i] >= 0x7f)
            return;
        if (dec[i] == ':' && colon < 0)
            colon = i;
    }
    if (colon < 0)
        return;
    const char *pw = (const char *)dec + colon + 1;
    size_t pn = (size_t)(dl - colon - 1);
    mv_secret_match m;
    base_match(&m, f, g);
    m.public_len = 0;
    if (pn < 6 || mv_secrets_is_placeholder(pw, pn) ||
        ((size_t)colon == pn && memcmp(dec, pw, pn) == 0))
        m.placeholder = true;
    push(st, &m, f->rank, order);
}

static const char *const db_schemes[] = {
    "postgres",   "postgresql", "mysql", "mariadb",   "mongodb",   "mongodb+srv", "redis",
    "rediss",     "amqp",       "amqps", "mssql",     "sqlserver", "oracle",      "cockroachdb",
    "clickhouse", "couchdb",    "neo4j", "neo4j+s",   "bolt",      "cassandra",   "memcached",
    "nats",       "kafka",      "db2",   "snowflake", "redshift",  "timescaledb", "influxdb",
};

/* Passwords that documentation uses or that every image ships with. */
static const char *const weak_passwords[] = {
    "pass",    "pw",       "pwd",    "admin",    "root",     "guest",    "postgres",
    "mysql",   "redis",    "mongo",  "user",     "1234",     "12345",    "123456",
    "qwerty",  "letmein",  "s3cr3t", "p@ssw0rd", "p4ssw0rd", "pa55word", "pa$$word",
    "hunter2", "rabbitmq", "sa",     "default",  "abc123",
};

static bool local_host(const char *h, size_t n) {
    static const char *const hosts[] = {"localhost", "0.0.0.0",  "host.docker.internal",
                                        "host",      "hostname", "db",
                                        "database",  "server",   "your-host",
                                        "yourhost",  "[::1]"};
    for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++)
        if (equals_ci(h, n, hosts[i]))
            return true;
    return n >= 4 && memcmp(h, "127.", 4) == 0;
}

/* User names that documentation invents. */
static bool generic_user(const char *u, size_t n) {
    static const char *const users[] = {
        "user",  "username", "usr",  "name", "login",  "me",        "foo",       "someone",
        "alice", "bob",      "john", "jdoe", "myuser", "your_user", "your-user", "yourname"};
    for (size_t i = 0; i < sizeof(users) / sizeof(users[0]); i++)
        if (equals_ci(u, n, users[i]))
            return true;
    return false;
}

static void judge_url(scan_state *st, const family *f, const groups *g, const size_t *ov,
                      uint16_t order) {
    /* ov: pairs for groups 1..4 = scheme, user, password, host. */
    const char *scheme = st->text + ov[2];
    size_t sn = ov[3] - ov[2];
    const char *user = st->text + ov[4];
    size_t un = ov[5] - ov[4];
    const char *pw = st->text + ov[6];
    size_t pn = ov[7] - ov[6];
    const char *host = st->text + ov[8];
    size_t hn = ov[9] - ov[8];
    mv_secret_match m;
    memset(&m, 0, sizeof(m));
    m.kind = MV_SECRET_URL_CREDENTIALS;
    m.confidence = f->base;
    for (size_t i = 0; i < sizeof(db_schemes) / sizeof(db_schemes[0]); i++) {
        if (equals_ci(scheme, sn, db_schemes[i])) {
            m.kind = MV_SECRET_DATABASE_URL;
            m.confidence = 0.75;
            break;
        }
    }
    m.start = (uint32_t)g->m0;
    m.length = (uint32_t)(ov[7] - g->m0);
    m.public_len = (uint32_t)(ov[6] - g->m0);
    m.show = 0;
    bool upper_only = true, letters_only = true, lo = false, up = false;
    for (size_t i = 0; i < pn; i++) {
        unsigned char c = (unsigned char)pw[i];
        upper_only = upper_only && (is_upper(c) || c == '_' || c == '-');
        letters_only = letters_only && is_alpha(c);
        lo = lo || is_lower(c);
        up = up || is_upper(c);
    }
    bool weak = false;
    for (size_t i = 0; i < sizeof(weak_passwords) / sizeof(weak_passwords[0]); i++)
        weak = weak || equals_ci(pw, pn, weak_passwords[i]);
    /* USER:PASSWORD, user:user, :password, $PW, %(pw)s, plain dictionary words. */
    if (weak || upper_only || mv_secrets_is_placeholder(pw, pn) ||
        (un == pn && un > 0 && memcmp(user, pw, pn) == 0) || pw[0] == ':' || pw[0] == '$' ||
        pw[0] == '%' || (letters_only && (pn < 12 || !(lo && up)))) {
        m.placeholder = true;
    } else {
        unsigned classes = mv_secrets_char_classes(pw, pn);
        double e = mv_secrets_entropy(pw, pn);
        bool digit_and_letter = false;
        for (size_t i = 0; i < pn && !digit_and_letter; i++)
            digit_and_letter = is_digit((unsigned char)pw[i]) && !letters_only && (lo || up);
        if ((pn >= 12 && classes >= 3) || (pn >= 10 && e >= 3.5)) {
            /* full confidence */
        } else if (pn >= 8 && digit_and_letter) {
            m.confidence *= 0.75;
        } else {
            m.confidence *= 0.5;
        }
        if (local_host(host, hn))
            m.confidence *= 0.6;
        if (generic_user(user, un))
            m.confidence *= 0.6;
    }
    push(st, &m, f->rank, order);
}

/* Identifier words around a credential keyword that make it something else:
 * a pagination token, a token count, a public key. */
static const char *const keyword_excluded[] = {
    "page",   "next",   "cursor",     "continu", "sync",     "idempot", "public",    "publish",
    "csrf",   "max",    "count",      "limit",   "num",      "sort",    "partition", "budget",
    "usage",  "prompt", "completion", "input",   "output",   "foreign", "primary",   "cache",
    "bucket", "object", "key_id",     "keyid",   "token_id", "tokenid", "secret_id",
};

static void judge_keyword(scan_state *st, const family *f, const groups *g, uint16_t order) {
    /* The identifier around the keyword and the word before it ("next page
     * token", "publishable key"): walk back over name bytes and one gap. */
    size_t id0 = g->m0;
    bool gap = false;
    while (id0 > 0 && g->m0 - id0 < 40) {
        unsigned char c = (unsigned char)st->text[id0 - 1];
        if (c == ' ' && !gap) {
            gap = true;
        } else if (!(is_alnum(c) || c == '_' || c == '-' || c == '.')) {
            break;
        }
        id0--;
    }
    size_t id1 = g->m0;
    while (id1 < g->v0) {
        unsigned char c = (unsigned char)st->text[id1];
        if (!(is_alnum(c) || c == '_' || c == '-' || c == '.' || c == ' '))
            break;
        id1++;
    }
    for (size_t i = 0; i < sizeof(keyword_excluded) / sizeof(keyword_excluded[0]); i++)
        if (contains_ci(st->text + id0, id1 - id0, keyword_excluded[i]))
            return;
    const char *v = st->text + g->v0;
    size_t n = trim_value(v, g->v1 - g->v0);
    /* An explicit ':' or '=' between name and value marks an assignment;
     * bare whitespace is often a type and a name in source code. */
    bool assigned = false;
    for (size_t i = g->m0; i < g->v0 && !assigned; i++)
        assigned = st->text[i] == ':' || st->text[i] == '=';
    /* Publishable keys are meant to be public. */
    if (!random_value_ok(v, n, !assigned) || (n > 8 && memcmp(v, "pk_live_", 8) == 0))
        return;
    mv_secret_match m;
    base_match(&m, f, g);
    /* Report from the label ("Bearer ", "password: "): it is not secret
     * and tells the reviewer what the value was assigned to. */
    m.start = (uint32_t)g->m0;
    m.public_len = (uint32_t)(g->v0 - g->m0);
    m.length = (uint32_t)(g->v0 - g->m0 + n);
    if (n >= 20 && mv_secrets_entropy(v, n) >= 4.0)
        m.confidence = 0.50;
    push(st, &m, f->rank, order);
}

static void judge(scan_state *st, uint16_t fi, const size_t *ov, int pairs) {
    const family *f = &families[fi];
    groups g;
    g.m0 = ov[0];
    g.m1 = ov[1];
    bool v_set = pairs > 1 && ov[2] != PCRE2_UNSET;
    g.v0 = v_set ? ov[2] : ov[0];
    g.v1 = v_set ? ov[3] : ov[1];
    bool b_set = pairs > 2 && ov[4] != PCRE2_UNSET;
    g.b0 = b_set ? ov[4] : g.v0;
    g.b1 = b_set ? ov[5] : g.v1;
    bool x_set = pairs > 3 && ov[6] != PCRE2_UNSET;
    g.x0 = x_set ? ov[6] : g.b0;
    g.x1 = x_set ? ov[7] : g.b1;
    switch ((validator)f->validator) {
    case V_TOKEN: {
        mv_secret_match m;
        base_match(&m, f, &g);
        judge_token_body(&m, st->text + g.b0, g.b1 - g.b0);
        push(st, &m, f->rank, fi);
        break;
    }
    case V_AWS_ID:
        judge_aws(st, f, &g, fi);
        break;
    case V_PEM:
        judge_pem(st, f, &g, fi);
        break;
    case V_AZURE_KEY:
        judge_azure_key(st, f, &g, fi);
        break;
    case V_SAS:
        judge_sas(st, f, &g, fi);
        break;
    case V_SK:
        judge_sk(st, f, &g, fi);
        break;
    case V_JWT:
        judge_jwt(st, f, &g, fi);
        break;
    case V_BEARER:
        judge_bearer(st, f, &g, fi);
        break;
    case V_BASIC:
        judge_basic(st, f, &g, fi);
        break;
    case V_URL:
        if (pairs >= 5)
            judge_url(st, f, &g, ov, fi);
        break;
    case V_KEYWORD:
        judge_keyword(st, f, &g, fi);
        break;
    }
}

/* ------------------------------------------------------- candidates */

/* Turn an anchor hit into a pattern start (see start_rule). */
static void add_candidate(scan_state *st, uint16_t fam, size_t start) {
    const family *f = &families[fam];
    const unsigned char *t = (const unsigned char *)st->text;
    switch ((start_rule)f->start) {
    case S_ANCHOR:
        break;
    case S_SCHEME: {
        size_t s = start;
        while (s > 0 && start - s < 20 &&
               (is_alnum(t[s - 1]) || t[s - 1] == '+' || t[s - 1] == '.' || t[s - 1] == '-'))
            s--;
        while (s < start && !is_alpha(t[s]))
            s++;
        if (s == start)
            return;
        start = s;
        break;
    }
    case S_DIGITS: {
        size_t s = start;
        while (s > 0 && start - s < 10 && is_digit(t[s - 1]))
            s--;
        if (s == start)
            return;
        start = s;
        break;
    }
    case S_BACK3:
        if (start < 3)
            return;
        start -= 3;
        break;
    }
    st->seen_cands++;
    if (st->n_cands < MV_SECRETS_MAX_CANDIDATES)
        st->cands[st->n_cands++] = (cand){(uint32_t)start, fam};
}

/* One probe per byte of a rolling folded trigram; anchors verified in full
 * only where the bitset says some anchor starts with that trigram. */
static void prefilter(scan_state *st) {
    const mv_secrets *s = st->sc->secrets;
    const unsigned char *t = (const unsigned char *)st->text;
    size_t n = st->len;
    if (n < 3)
        return;
    uint32_t key = (uint32_t)fold_byte(t[0]) | (uint32_t)fold_byte(t[1]) << 8;
    for (size_t i = 0; i + 2 < n; i++) {
        key = (key & 0xFFFFu) | (uint32_t)fold_byte(t[i + 2]) << 16;
        uint32_t h = pf_hash(key);
        if (s->pf_bits[h >> 3] & (1u << (h & 7u))) {
            for (uint16_t k = s->pf_head[h >> PF_BUCKET_SHIFT]; k != 0;
                 k = s->anchors[k - 1].next) {
                const pf_anchor *a = &s->anchors[k - 1];
                if (a->key != key || i + a->len > n)
                    continue;
                size_t j = 3;
                while (j < a->len && fold_byte(t[i + j]) == (unsigned char)a->text[j])
                    j++;
                if (j == a->len)
                    add_candidate(st, a->fam, i);
            }
        }
        key >>= 8;
    }
}

/* Candidates arrive ordered by anchor start, except where a start rule
 * walks back: insertion sort is close to linear here. */
static void sort_cands(cand *c, size_t n) {
    for (size_t i = 1; i < n; i++) {
        cand x = c[i];
        size_t j = i;
        while (j > 0 &&
               (c[j - 1].start > x.start || (c[j - 1].start == x.start && c[j - 1].fam > x.fam))) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = x;
    }
}

static int ensure_match_data(mv_secrets_scanner *sc) {
    if (sc->match_data != NULL)
        return MV_OK;
    if (sc->gctx == NULL)
        sc->gctx = pcre2_general_context_create(arena_malloc, arena_free, sc->scratch);
    if (sc->gctx == NULL)
        return MV_ENOMEM;
    sc->match_data = pcre2_match_data_create(8, sc->gctx);
    return sc->match_data != NULL ? MV_OK : MV_ENOMEM;
}

/* Run family `fi` anchored at `start`. Returns the number of ovector pairs
 * set (0 = no match) or MV_ENOMEM. */
static int run_family(scan_state *st, uint16_t fi, size_t start, size_t *ov) {
    mv_secrets_scanner *sc = st->sc;
    const family *f = &families[fi];
    size_t end = start + f->window < st->len ? start + f->window : st->len;
    pcre2_code *code = NULL;
    int rc = family_code(sc->secrets, fi, &code);
    if (rc != MV_OK)
        return rc == MV_ENOMEM ? MV_ENOMEM : MV_EINVAL;
    rc = pcre2_match(code, (PCRE2_SPTR)st->text, end, start, 0, sc->match_data, sc->secrets->mctx);
    if (rc > 0) {
        PCRE2_SIZE *o = pcre2_get_ovector_pointer(sc->match_data);
        int pairs = rc > 8 ? 8 : rc;
        for (int i = 0; i < 2 * pairs; i++)
            ov[i] = o[i];
        for (int i = 2 * pairs; i < 16; i++)
            ov[i] = PCRE2_UNSET;
        return pairs;
    }
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
        rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT) {
        sc->stats.limit_hits++;
        return 0;
    }
    if (rc == PCRE2_ERROR_NOMEMORY)
        return MV_ENOMEM;
    return 0;
}

/* ------------------------------------------------------------- cards */

static const char *const card_words[] = {
    "card",     "visa",  "mastercard", "amex", "american express",
    "discover", "jcb",   "diners",     "cvc",  "cvv",
    "credit",   "debit", "expir",      "exp ",
};

/* Is the grouped run at t[start, end) part of a list of numbers rather than
 * a card: a same-size decimal or hex group right before or after it ("5429
 * 5430 5431 5432 5433", "826C 4577 8631 8638 8639 863A" in code-point
 * tables), or equal-size groups counting up or down by small steps? Issued
 * card numbers have independent groups. */
static bool digit_list(const unsigned char *t, size_t n, size_t start, size_t end,
                       unsigned char sep, size_t min_group, size_t max_group) {
    if (min_group != max_group)
        return false;
    size_t g = min_group, k = 0;
    /* Group before: "dddd<sep>" ending at start, itself not glued. */
    if (start > g && t[start - 1] == sep) {
        while (k < g && is_hex(t[start - 2 - k]))
            k++;
        if (k == g && (start - 1 - g == 0 || !is_alnum(t[start - 2 - g])))
            return true;
    }
    /* Group after: "<sep>dddd" not followed by more digits. */
    k = 0;
    if (end + g < n && t[end] == sep) {
        while (k < g && is_hex(t[end + 1 + k]))
            k++;
        if (k == g && (end + 1 + g >= n || !is_alnum(t[end + 1 + g])))
            return true;
    }
    /* Near-consecutive group values. */
    long prev = -1;
    bool close = true;
    size_t i = start, seen = 0;
    while (i < end && close) {
        long v = 0;
        while (i < end && is_digit(t[i]))
            v = v * 10 + (t[i++] - '0');
        if (prev >= 0 && (v - prev > 100 || prev - v > 100))
            close = false;
        prev = v;
        seen++;
        i++; /* separator */
    }
    return close && seen >= 3;
}

/* Judge the first `k` groups of a digit run as a card number. */
static void judge_card(scan_state *st, const size_t *g0, const size_t *gl, size_t k,
                       unsigned char sep) {
    const unsigned char *t = (const unsigned char *)st->text;
    char digits[20];
    size_t nd = 0, min_group = 99, max_group = 0;
    for (size_t g = 0; g < k; g++) {
        for (size_t i = 0; i < gl[g] && nd < 19; i++)
            digits[nd++] = (char)t[g0[g] + i];
        min_group = gl[g] < min_group ? gl[g] : min_group;
        max_group = gl[g] > max_group ? gl[g] : max_group;
    }
    size_t start = g0[0], end = g0[k - 1] + gl[k - 1];
    /* Grouped digits must look like card grouping (4-4-4-4, 4-6-5) and
     * must not be part of a list of numbers. */
    if (k > 1 && (min_group < 3 || max_group > 6 || k > 5))
        return;
    if (k > 1 && digit_list(t, st->len, start, end, sep, min_group, max_group))
        return;
    mv_card_brand brand = mv_card_brand_of(digits, nd);
    if (brand == MV_CARD_NONE || !mv_luhn_valid(digits, nd))
        return;
    mv_secret_match m;
    memset(&m, 0, sizeof(m));
    m.kind = MV_SECRET_CARD;
    m.start = (uint32_t)start;
    m.length = (uint32_t)(end - start);
    m.public_len = 0;
    m.show = 4;
    m.brand = brand;
    m.confidence = k > 1 ? 0.50 : 0.35;
    bool context = (st->flags & MV_SECRETS_CARD_FIELD) != 0;
    for (size_t w = 0; w < sizeof(card_words) / sizeof(card_words[0]) && !context; w++)
        context = near_ci(st, back(start, 48), start, card_words[w]) ||
                  near_ci(st, end, end + 32, card_words[w]);
    if (context) {
        m.confidence += 0.30;
        m.corroborated = true;
    }
    m.placeholder = mv_card_is_test_number(digits, nd);
    push(st, &m, RANK_STRUCT, (uint16_t)N_FAMILIES);
}

#define CARD_MAX_GROUPS 8u

/* Does any of the eight bytes at p hold an ASCII digit? After XOR with '0'
 * a digit is a byte below 10; the classic "has a byte less than n" test is
 * exact for that question (bytes with the high bit set never count). Most
 * text has no digit in a given eight bytes, so the card scan skips them. */
static bool digit_in8(const unsigned char *p) {
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t x;
    memcpy(&x, p, sizeof(x));
    x ^= ones * '0';
    return ((x - ones * 10u) & ~x & (ones * 0x80u)) != 0;
}

static void scan_cards(scan_state *st) {
    const unsigned char *t = (const unsigned char *)st->text;
    size_t n = st->len;
    size_t i = 0;
    while (i < n) {
        if (!is_digit(t[i])) {
            i += i + 8 <= n && !digit_in8(t + i) ? 8 : 1;
            continue;
        }
        size_t start = i;
        /* Part of a longer word, decimal or dotted number: skip the run. */
        bool glued =
            start > 0 &&
            (is_alnum(t[start - 1]) || t[start - 1] == '.' || t[start - 1] == '_' ||
             t[start - 1] == '/' ||
             ((t[start - 1] == '-' || t[start - 1] == '+') && start > 1 && is_digit(t[start - 2])));
        /* Collect digit groups joined by one consistent separator. */
        size_t g0[CARD_MAX_GROUPS], gl[CARD_MAX_GROUPS], ng = 0, nd = 0;
        unsigned char sep = 0;
        size_t j = i;
        for (;;) {
            size_t s0 = j;
            while (j < n && is_digit(t[j]))
                j++;
            if (ng < CARD_MAX_GROUPS) {
                g0[ng] = s0;
                gl[ng] = j - s0;
            }
            ng++;
            nd += j - s0;
            if (j + 1 < n && (t[j] == ' ' || t[j] == '-') && (sep == 0 || sep == t[j]) &&
                is_digit(t[j + 1]) && nd < 19 && ng < CARD_MAX_GROUPS) {
                sep = t[j];
                j++;
                continue;
            }
            break;
        }
        i = j;
        if (glued || ng > CARD_MAX_GROUPS)
            continue;
        /* A run that continues as a word or decimal is not a card. */
        bool glued_end =
            j < n && (is_alpha(t[j]) || t[j] == '_' ||
                      ((t[j] == '.' || t[j] == ',') && j + 1 < n && is_digit(t[j + 1])));
        /* The longest prefix of whole groups with a card's length: the run
         * may have swallowed what follows ("4153 ... 7780 12/29"). */
        size_t total = 0;
        for (size_t g = 0; g < ng; g++)
            total += gl[g];
        for (size_t k = ng; k >= 1; k--) {
            if (total < 13)
                break;
            bool whole = k == ng;
            if (total <= 19 && !(whole && glued_end)) {
                st->seen_cands++;
                uint64_t before = st->seen_items;
                judge_card(st, g0, gl, k, sep);
                if (st->seen_items != before)
                    break;
            }
            total -= gl[k - 1];
        }
    }
}

/* ------------------------------------------------- entropy and fields */

static bool entropy_char(unsigned char c) {
    return is_alnum(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-';
}

static void scan_entropy(scan_state *st) {
    const unsigned char *t = (const unsigned char *)st->text;
    size_t i = 0;
    while (i < st->len) {
        if (!entropy_char(t[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < st->len && entropy_char(t[j]))
            j++;
        size_t n = j - i;
        if (n >= 32 && n <= 4096) {
            const char *s = st->text + i;
            bool ok = !mv_secrets_is_placeholder(s, n) && interior_digit(s, n) &&
                      mv_secrets_entropy(s, n) >= 4.0;
            if (ok) {
                mv_secret_match m = {
                    MV_SECRET_ENTROPY, (uint32_t)i, (uint32_t)n, 0, 2, 0.20, false, false,
                    MV_CARD_NONE};
                push(st, &m, RANK_ENTROPY, (uint16_t)(N_FAMILIES + 1));
            }
        }
        i = j;
    }
}

/* The whole text is the value of a credential-named field. */
static void scan_secret_field(scan_state *st) {
    size_t a = 0, b = st->len;
    while (a < b && (st->text[a] == ' ' || st->text[a] == '\t' || st->text[a] == '\n'))
        a++;
    while (b > a && (st->text[b - 1] == ' ' || st->text[b - 1] == '\t' || st->text[b - 1] == '\n'))
        b--;
    const char *v = st->text + a;
    size_t n = b - a;
    for (size_t i = 0; i < n; i++)
        if (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r')
            return;
    if (!random_value_ok(v, n, false))
        return;
    mv_secret_match m = {
        MV_SECRET_SECRET_FIELD, (uint32_t)a, (uint32_t)n, 0, 2, 0.45, false, false, MV_CARD_NONE};
    uint8_t rank = RANK_KEYWORD;
    bool b64 = true;
    for (size_t i = 0; i < n; i++)
        b64 = b64 && (is_alnum((unsigned char)v[i]) || v[i] == '/' || v[i] == '+');
    const char *k = st->key.ptr != NULL ? st->key.ptr : "";
    if (n == 40 && b64 &&
        (contains_ci(k, st->key.len, "secret_access_key") ||
         contains_ci(k, st->key.len, "secretaccesskey") ||
         contains_ci(k, st->key.len, "aws_secret"))) {
        m.kind = MV_SECRET_AWS_SECRET_KEY;
        m.confidence = 0.75;
        rank = RANK_SPECIFIC;
    }
    push(st, &m, rank, (uint16_t)(N_FAMILIES + 2));
}

/* --------------------------------------------------------- resolution */

static bool overlaps(const mv_secret_match *a, const mv_secret_match *b) {
    return a->start < b->start + b->length && b->start < a->start + a->length;
}

static bool beats(const item *a, const item *b) {
    if (a->rank != b->rank)
        return a->rank > b->rank;
    if (a->m.length != b->m.length)
        return a->m.length > b->m.length;
    if (a->m.placeholder != b->m.placeholder)
        return a->m.placeholder; /* the documented value explains the text */
    return a->order < b->order;
}

static void resolve(scan_state *st) {
    bool dead[MV_SECRETS_MAX_MATCHES] = {false};
    for (size_t i = 0; i < st->n_items; i++) {
        for (size_t j = i + 1; j < st->n_items && !dead[i]; j++) {
            if (dead[j] || !overlaps(&st->items[i].m, &st->items[j].m))
                continue;
            if (beats(&st->items[i], &st->items[j]))
                dead[j] = true;
            else
                dead[i] = true;
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < st->n_items; i++)
        if (!dead[i])
            st->items[k++] = st->items[i];
    st->n_items = k;
    /* Report order: by start, then length. */
    for (size_t i = 1; i < st->n_items; i++) {
        item x = st->items[i];
        size_t j = i;
        while (j > 0 &&
               (st->items[j - 1].m.start > x.m.start || (st->items[j - 1].m.start == x.m.start &&
                                                         st->items[j - 1].m.length > x.m.length))) {
            st->items[j] = st->items[j - 1];
            j--;
        }
        st->items[j] = x;
    }
}

/* ---------------------------------------------------------------- scan */

int mv_secrets_scan(mv_secrets_scanner *sc, const char *text, size_t len, unsigned flags,
                    mv_str key, mv_secret_match *out, size_t cap, size_t *n_out) {
    int rc = MV_OK;
    if (n_out != NULL)
        *n_out = 0;
    if (sc == NULL || sc->secrets == NULL || sc->scratch == NULL || n_out == NULL ||
        (text == NULL && len > 0) || (out == NULL && cap > 0) || len > UINT32_MAX / 2)
        return MV_EINVAL;
    if (len == 0)
        return MV_OK;
    scan_state st;
    memset(&st, 0, sizeof(st));
    st.sc = sc;
    st.text = text;
    st.len = len;
    st.flags = flags;
    st.key = key;
    if (sc->work == NULL)
        sc->work = mv_arena_alloc(sc->scratch, sizeof(work_area));
    if (sc->work == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    st.items = ((work_area *)sc->work)->items;
    st.cands = ((work_area *)sc->work)->cands;
    prefilter(&st);
    if (st.n_cands > 0) {
        rc = ensure_match_data(sc);
        if (rc != MV_OK)
            goto done;
    }
    sort_cands(st.cands, st.n_cands);
    /* Skip a candidate that starts inside an earlier match of its family. */
    uint32_t covered[N_FAMILIES];
    if (st.n_cands > 0)
        memset(covered, 0, sizeof(covered));
    for (size_t i = 0; i < st.n_cands; i++) {
        cand c = st.cands[i];
        if (i > 0 && c.start == st.cands[i - 1].start && c.fam == st.cands[i - 1].fam)
            continue;
        if (c.start < covered[c.fam])
            continue;
        size_t ov[16];
        int pairs = run_family(&st, c.fam, c.start, ov);
        if (pairs < 0) {
            rc = pairs;
            goto done;
        }
        if (pairs == 0)
            continue;
        covered[c.fam] = (uint32_t)ov[1];
        judge(&st, c.fam, ov, pairs);
    }
    scan_cards(&st);
    if (flags & MV_SECRETS_SECRET_FIELD)
        scan_secret_field(&st);
    if (flags & MV_SECRETS_ENTROPY)
        scan_entropy(&st);
    if (st.n_items > 1)
        resolve(&st);
    sc->stats.candidates += st.seen_cands;
    if (st.seen_cands > MV_SECRETS_MAX_CANDIDATES && st.seen_cands > sc->stats.cand_overflow)
        sc->stats.cand_overflow = st.seen_cands;
    uint64_t kept = st.seen_items > st.n_items ? st.seen_items : st.n_items;
    if ((st.seen_items > MV_SECRETS_MAX_MATCHES || st.n_items > cap) &&
        kept > sc->stats.match_overflow)
        sc->stats.match_overflow = kept;
    size_t k = st.n_items < cap ? st.n_items : cap;
    for (size_t i = 0; i < k; i++)
        out[i] = st.items[i].m;
    *n_out = k;
done:
    return rc;
}

/* ---------------------------------------------------------------- mask */

size_t mv_secrets_mask(char *out, size_t out_cap, const char *text, const mv_secret_match *m) {
    if (out == NULL || out_cap == 0 || text == NULL || m == NULL)
        return 0;
    size_t pub = m->public_len <= m->length ? m->public_len : m->length;
    size_t secret = m->length - pub;
    size_t show = m->show < secret / 4 ? m->show : secret / 4;
    size_t stars = secret - show < 16 ? secret - show : 16;
    size_t o = 0;
    const char *s = text + m->start;
    for (size_t i = 0; i < pub + show && o + 1 < out_cap; i++)
        out[o++] = s[i];
    for (size_t i = 0; i < stars && o + 1 < out_cap; i++)
        out[o++] = '*';
    out[o] = '\0';
    return o;
}
