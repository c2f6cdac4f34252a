/*
 * secret.embedded (soft): credentials and card numbers embedded in a tool
 * definition. Every scanned string of the tool, in raw decoded form, goes
 * through the secret matchers (src/engine/patterns/secrets.h); matches at
 * or above MV_SECRET_EMIT_THRESHOLD become review signals with masked
 * evidence, documented placeholders and test values are dropped.
 *
 * Threat type: exfiltration. A live key in tool text leaks to every client,
 * log and model that reads the definition, and a key an attacker planted
 * ("use these credentials to upload") steers the agent's data into the
 * attacker's account. Either way data or access crosses a boundary; the
 * tier stays soft because a leaked key needs a human, not a quarantine.
 *
 * Field context matters: the default or example of a property named like a
 * credential ("api_key", "client_secret") is judged as a secret value even
 * without a known prefix, and a property named like a card number lets a
 * bare digit run count as card data.
 */
#include <stdbool.h>
#include <string.h>

#include "mcpvet/check.h"
#include "patterns/secrets.h"

/* --------------------------------------------------------- field names */

static unsigned char lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

static bool has_ci(mv_str s, const char *needle) {
    size_t m = strlen(needle);
    for (size_t i = 0; m <= s.len && i + m <= s.len; i++) {
        size_t j = 0;
        while (j < m && lower((unsigned char)s.ptr[i + j]) == (unsigned char)needle[j])
            j++;
        if (j == m)
            return true;
    }
    return false;
}

static bool ends_ci(mv_str s, const char *suffix) {
    size_t m = strlen(suffix);
    if (m > s.len)
        return false;
    mv_str tail = {s.ptr + s.len - m, m};
    return has_ci(tail, suffix);
}

/* The property whose value this field is: the segment after the last
 * "properties." in the path, when what follows is a value keyword
 * (default, examples, example, const, enum). Empty otherwise. */
static mv_str value_property(const mv_field *f) {
    mv_str none = MV_STR_NULL;
    if (f->kind != MV_FIELD_SCHEMA_VALUE || f->path.ptr == NULL)
        return none;
    const char *p = f->path.ptr;
    size_t n = f->path.len;
    static const char key[] = "properties.";
    const size_t kl = sizeof(key) - 1;
    size_t at = n;
    for (size_t i = 0; i + kl <= n; i++)
        if (memcmp(p + i, key, kl) == 0)
            at = i + kl;
    if (at >= n)
        return none;
    size_t e = at;
    while (e < n && p[e] != '.' && p[e] != '[')
        e++;
    mv_str rest = {p + e, n - e};
    static const char *const value_keys[] = {".default", ".examples", ".example",
                                             ".const",   ".enum",     ".x-example"};
    bool is_value = false;
    for (size_t i = 0; i < sizeof(value_keys) / sizeof(value_keys[0]); i++) {
        size_t vl = strlen(value_keys[i]);
        if (rest.len >= vl && memcmp(rest.ptr, value_keys[i], vl) == 0 &&
            (rest.len == vl || rest.ptr[vl] == '[' || rest.ptr[vl] == '.'))
            is_value = true;
    }
    return is_value ? (mv_str){p + at, e - at} : none;
}

/* Names that hold credentials, and names that only look like it. */
static bool credential_name(mv_str name) {
    static const char *const yes[] = {
        "secret",  "token",     "password",   "passwd",     "passphrase",  "apikey",     "api_key",
        "api-key", "accesskey", "access_key", "privatekey", "private_key", "credential", "auth"};
    static const char *const no[] = {"public", "publish",   "idempot", "page",  "next",
                                     "cursor", "continu",   "sync",    "max",   "count",
                                     "limit",  "partition", "sort",    "cache", "bucket",
                                     "object", "author",    "key_id",  "keyid", "usage"};
    bool hit = false;
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]) && !hit; i++)
        hit = has_ci(name, yes[i]);
    if (!hit)
        hit = ends_ci(name, "key") && !ends_ci(name, "monkey") && !ends_ci(name, "hotkey");
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]) && hit; i++)
        hit = !has_ci(name, no[i]);
    return hit;
}

static bool card_name(mv_str name) {
    return has_ci(name, "card") || has_ci(name, "ccnum") || has_ci(name, "cc_number") ||
           (name.len == 3 && has_ci(name, "pan"));
}

/* ------------------------------------------------------------- emitting */

static size_t append(char *buf, size_t cap, size_t o, const char *s) {
    while (*s != '\0' && o + 1 < cap)
        buf[o++] = *s++;
    buf[o] = '\0';
    return o;
}

/* One short sentence naming the secret kind. */
static size_t detail_for(char *buf, size_t cap, const mv_secret_match *m) {
    size_t o = append(buf, cap, 0, "Embedded ");
    if (m->kind == MV_SECRET_CARD) {
        o = append(buf, cap, o, "Luhn-valid ");
        o = append(buf, cap, o, mv_card_brand_name(m->brand));
        o = append(buf, cap, o, " card number");
    } else {
        o = append(buf, cap, o, mv_secret_kind_name(m->kind));
    }
    if (m->corroborated) {
        switch (m->kind) {
        case MV_SECRET_AWS_ACCESS_KEY_ID:
            o = append(buf, cap, o, ", with a secret access key nearby");
            break;
        case MV_SECRET_CARD:
            o = append(buf, cap, o, " in a payment context");
            break;
        case MV_SECRET_BEARER:
            o = append(buf, cap, o, " in an Authorization header");
            break;
        case MV_SECRET_JWT:
            o = append(buf, cap, o, " with a service role");
            break;
        default:
            break;
        }
    }
    return append(buf, cap, o, "; credentials in tool text leak to every client that reads it.");
}

static int init(const mv_allocator *a, void **engine_state) {
    mv_secrets *s = NULL;
    int rc = mv_secrets_new(&s, a, NULL);
    *engine_state = s;
    return rc;
}

static void fini(const mv_allocator *a, void *engine_state) {
    (void)a;
    mv_secrets_free(engine_state);
}

/* What one field's scan adds to the scanner's statistics (kept with the
 * field's signals in the per-field memo). */
typedef struct field_stats {
    uint64_t limit_hits, cand_overflow, match_overflow;
} field_stats;

static void merge_stats(mv_secrets_stats *st, const field_stats *fs) {
    st->limit_hits += fs->limit_hits;
    if (fs->cand_overflow > st->cand_overflow)
        st->cand_overflow = fs->cand_overflow;
    if (fs->match_overflow > st->match_overflow)
        st->match_overflow = fs->match_overflow;
}

/* Longest property name kept in a memo key (longer ones are scanned). */
#define SALT_PROP_MAX 128u

/* Shortest text any matcher can report (a 12-byte keyword value). */
#define MIN_FIELD_BYTES 12u

static int inspect(const mv_inspect_ctx *ctx, const mv_tool *tool, mv_emitter *out) {
    int rc = MV_OK;
    const mv_secrets *secrets = ctx->engine_state;
    if (secrets == NULL)
        return MV_ECHECK;
    mv_secrets_scanner sc;
    mv_secrets_scanner_init(&sc, secrets, ctx->scratch);
    mv_secret_match found[MV_SECRETS_MAX_MATCHES];
    for (uint32_t i = 0; i < tool->n_fields; i++) {
        const mv_field *f = &tool->fields[i];
        if (f->text.len < MIN_FIELD_BYTES)
            continue;
        unsigned flags = 0;
        mv_str prop = value_property(f);
        if (prop.len > 0 && credential_name(prop))
            flags |= MV_SECRETS_SECRET_FIELD;
        if (prop.len > 0 && card_name(prop))
            flags |= MV_SECRETS_CARD_FIELD;
        /* The field's matches depend on its text, the flags and the
         * property name only: a repeat replays them (mv_memo_find). */
        mv_memo memo;
        char salt[1 + SALT_PROP_MAX];
        field_stats fs;
        memset(&memo, 0, sizeof(memo));
        if (prop.len <= SALT_PROP_MAX) {
            salt[0] = (char)flags;
            if (prop.len > 0)
                memcpy(salt + 1, prop.ptr, prop.len);
            int hit = mv_memo_find(out, i, 0, (mv_str){salt, 1 + prop.len}, &memo);
            if (hit != 0) {
                if (memo.len == sizeof(fs)) {
                    memcpy(&fs, memo.data, sizeof(fs));
                    merge_stats(&sc.stats, &fs);
                }
                if (hit < 0) {
                    rc = hit;
                    goto done;
                }
                continue;
            }
        }
        /* This field's own overflow figures, for the memo. */
        mv_secrets_stats before = sc.stats;
        sc.stats.cand_overflow = 0;
        sc.stats.match_overflow = 0;
        size_t n = 0;
        rc = mv_secrets_scan(&sc, f->text.ptr, f->text.len, flags, prop, found,
                             MV_SECRETS_MAX_MATCHES, &n);
        fs.limit_hits = sc.stats.limit_hits - before.limit_hits;
        fs.cand_overflow = sc.stats.cand_overflow;
        fs.match_overflow = sc.stats.match_overflow;
        sc.stats.limit_hits = before.limit_hits;
        sc.stats.cand_overflow = before.cand_overflow;
        sc.stats.match_overflow = before.match_overflow;
        merge_stats(&sc.stats, &fs);
        if (rc != MV_OK)
            goto done;
        for (size_t k = 0; k < n; k++) {
            const mv_secret_match *m = &found[k];
            if (m->placeholder || m->confidence < MV_SECRET_EMIT_THRESHOLD)
                continue;
            char evidence[160];
            char detail[200];
            size_t el = mv_secrets_mask(evidence, sizeof(evidence), f->text.ptr, m);
            size_t dl = detail_for(detail, sizeof(detail), m);
            mv_signal_spec spec = {MV_TIER_SOFT,
                                   MV_THREAT_EXFILTRATION,
                                   m->confidence,
                                   false,
                                   (int32_t)i,
                                   m->start,
                                   m->length,
                                   (mv_str){evidence, el},
                                   (mv_str){detail, dl},
                                   0};
            rc = mv_emit(out, &spec);
            if (rc != MV_OK)
                goto done;
        }
        mv_memo_keep(out, &memo, &fs, sizeof(fs));
    }
done:
    /* Truncated work is recorded even when the signal cap stopped us. */
    if (sc.stats.limit_hits > 0)
        mv_emit_cap(out, "secret_match_limit", mv_secrets_match_limit(secrets),
                    sc.stats.limit_hits);
    if (sc.stats.cand_overflow > 0)
        mv_emit_cap(out, "secret_candidates", MV_SECRETS_MAX_CANDIDATES, sc.stats.cand_overflow);
    if (sc.stats.match_overflow > 0)
        mv_emit_cap(out, "secret_matches", MV_SECRETS_MAX_MATCHES, sc.stats.match_overflow);
    return rc;
}

const mv_check mv_check_secret_embedded = {
    "secret.embedded", MV_TIER_SOFT, init, fini, NULL, NULL, inspect,
};
