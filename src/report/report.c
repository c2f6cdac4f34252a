/*
 * Report entry point and the pieces every format shares: option defaults,
 * format and fail-on names, the exit-code rule, a locale-free fixed-point
 * number formatter and render-safe copies of tool-supplied strings. The
 * format-specific layouts live in text.c, json.c and sarif.c.
 */
#include "report_int.h"

#include <math.h>
#include <string.h>

#include "mcpvet/evidence.h"

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

const char *mv_report_format_name(mv_report_format format) {
    switch (format) {
    case MV_REPORT_JSON:
        return "json";
    case MV_REPORT_SARIF:
        return "sarif";
    case MV_REPORT_TEXT:
    default:
        return "text";
    }
}

int mv_report_parse_format(mv_report_format *out, const char *name) {
    int rc = MV_EINVAL;
    if (out == NULL || name == NULL)
        goto done;
    if (strcmp(name, "text") == 0)
        *out = MV_REPORT_TEXT;
    else if (strcmp(name, "json") == 0)
        *out = MV_REPORT_JSON;
    else if (strcmp(name, "sarif") == 0)
        *out = MV_REPORT_SARIF;
    else
        goto done;
    rc = MV_OK;
done:
    return rc;
}

int mv_report_parse_fail_on(mv_verdict *out, const char *name) {
    int rc = MV_EINVAL;
    if (out == NULL || name == NULL)
        goto done;
    if (strcmp(name, "review") == 0)
        *out = MV_VERDICT_REVIEW;
    else if (strcmp(name, "quarantine") == 0)
        *out = MV_VERDICT_QUARANTINE;
    else
        goto done;
    rc = MV_OK;
done:
    return rc;
}

int mv_report_exit_code(const mv_scan *s, mv_verdict fail_on) {
    if (s == NULL)
        return MV_EXIT_USAGE;
    if (fail_on < MV_VERDICT_REVIEW)
        fail_on = MV_VERDICT_REVIEW;
    size_t n = mv_scan_finding_count(s);
    for (size_t i = 0; i < n; i++) {
        const mv_finding *f = mv_scan_finding(s, i);
        if (f != NULL && f->verdict >= fail_on)
            return MV_EXIT_FINDINGS;
    }
    const mv_coverage *cov = mv_scan_coverage(s);
    /* Without a coverage record nobody can vouch for the scan. */
    if (cov == NULL || cov->degraded)
        return MV_EXIT_DEGRADED;
    return MV_EXIT_OK;
}

int mv_report_put_fixed(mv_buf *b, double value, unsigned decimals) {
    static const double scale[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (decimals > 9)
        decimals = 9;
    if (isnan(value))
        value = 0.0;
    if (value > 1e15)
        value = 1e15;
    if (value < -1e15)
        value = -1e15;
    /* Integer arithmetic from here on: printf's %llu is locale-independent,
     * %f is not (a German locale would print "0,930"). */
    long long scaled = llround(value * scale[decimals]);
    unsigned long long mag =
        scaled < 0 ? (unsigned long long)(-scaled) : (unsigned long long)scaled;
    unsigned long long unit = (unsigned long long)scale[decimals];
    if (scaled < 0)
        mv_buf_putc(b, '-');
    mv_buf_printf(b, "%llu", mag / unit);
    if (decimals > 0)
        mv_buf_printf(b, ".%0*llu", (int)decimals, mag % unit);
    return b->failed ? MV_ENOMEM : MV_OK;
}

mv_str mv_report_safe(mv_report_ctx *ctx, const char *ptr, size_t len, size_t cap) {
    mv_str out = MV_STR_LIT("?");
    /* The worst expansion is 6 output bytes per input byte (\u001B), so a
     * short string never needs a full-cap allocation. */
    size_t need = len <= (SIZE_MAX - 16) / 6 ? 6 * len + 16 : SIZE_MAX;
    if (need > cap)
        need = cap;
    if (need < 16)
        need = 16;
    if (mv_evidence_render(ctx->arena, ptr, len, need, &out, NULL) != MV_OK) {
        ctx->failed = true;
        out = MV_STR_LIT("?");
    }
    return out;
}

mv_str mv_report_tool_label(mv_report_ctx *ctx, const mv_tool *tool) {
    mv_str out = MV_STR_LIT("?");
    mv_buf tmp;
    mv_buf_init(&tmp, NULL);
    mv_buf_append(&tmp, tool->server.ptr, tool->server.len);
    mv_buf_putc(&tmp, '/');
    mv_buf_append(&tmp, tool->name.ptr, tool->name.len);
    if (tmp.failed)
        ctx->failed = true;
    else
        out = mv_report_safe(ctx, tmp.data, tmp.len, 2 * MV_REPORT_NAME_CAP);
    mv_buf_release(&tmp);
    return out;
}

mv_str mv_report_tool_source(mv_report_ctx *ctx, size_t tool_index) {
    const mv_report_options *o = ctx->opts;
    mv_str out = MV_STR_LIT("");
    if (o->sources == NULL || tool_index >= o->n_sources)
        goto done;
    const char *src = o->sources[tool_index];
    if (src == NULL || src[0] == '\0' || strcmp(src, "-") == 0)
        goto done;
    out = mv_report_safe(ctx, src, strlen(src), MV_REPORT_SOURCE_CAP);
done:
    return out;
}

mv_tier mv_report_check_tier(const mv_finding *f, const char *id) {
    mv_tier best = MV_TIER_INFO;
    for (uint32_t i = 0; i < f->n_signals; i++) {
        const mv_signal *sig = &f->signals[i];
        if (strcmp(sig->check_id, id) == 0 && sig->tier > best)
            best = sig->tier;
    }
    return best;
}

uint64_t mv_report_failed_tool_count(const mv_report_ctx *ctx, const char *id) {
    uint64_t count = 0;
    size_t n = mv_scan_finding_count(ctx->scan);
    for (size_t i = 0; i < n; i++) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        for (uint32_t k = 0; f != NULL && k < f->n_failed_checks; k++) {
            if (strcmp(f->failed_checks[k], id) == 0) {
                count++;
                break;
            }
        }
    }
    return count;
}

typedef struct known_check {
    const char *id;
    mv_tier tier;
    const char *description;
} known_check;

static const known_check known_checks[] = {
    {"unicode.hidden", MV_TIER_HARD,
     "Invisible or direction-changing Unicode characters (zero-width, tag, bidi) "
     "that can carry text a person reviewing the tool cannot see."},
    {"shadowing.cross_server", MV_TIER_HARD,
     "A tool that impersonates or redirects the tool of another server, so the "
     "agent calls the wrong one."},
    {"payload.decoded", MV_TIER_HARD,
     "An encoded blob (base64, hex, percent-encoding) in the tool definition that "
     "decodes to commands or instructions."},
    {"directive.imperative", MV_TIER_SOFT,
     "Text addressed to the model rather than the user: overriding instructions, "
     "demands for secrecy, orders to call other tools."},
    {"capability.mismatch", MV_TIER_SOFT,
     "Access the tool asks for (files, network, shell, credentials) that its stated "
     "purpose does not explain."},
    {"secret.embedded", MV_TIER_SOFT,
     "A credential, token or private key embedded in the tool definition."},
};

static const known_check *find_known(const char *id) {
    for (size_t i = 0; i < sizeof known_checks / sizeof known_checks[0]; i++) {
        if (strcmp(known_checks[i].id, id) == 0)
            return &known_checks[i];
    }
    return NULL;
}

const char *mv_report_check_description(const char *id) {
    const known_check *k = find_known(id);
    return k != NULL ? k->description : NULL;
}

mv_tier mv_report_check_default_tier(const char *id) {
    const known_check *k = find_known(id);
    return k != NULL ? k->tier : MV_TIER_SOFT;
}

void mv_report_json_cstr(mv_buf *b, const char *s) {
    if (s == NULL)
        mv_buf_puts(b, "null");
    else
        mv_buf_json_string(b, s, strlen(s));
}

void mv_report_json_str(mv_buf *b, mv_str s) {
    mv_buf_json_string(b, s.ptr != NULL ? s.ptr : "", s.ptr != NULL ? s.len : 0);
}

int mv_report_render(mv_buf *out, const mv_scan *s, const mv_report_options *opts, mv_error *err) {
    static const mv_report_options defaults = {0};
    int rc = MV_OK;
    mv_report_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    if (out == NULL || s == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "report: no scan or output buffer");
        goto done;
    }
    if (opts == NULL)
        opts = &defaults;
    ctx.scan = s;
    ctx.registry = mv_scan_registry(s);
    ctx.coverage = mv_scan_coverage(s);
    if (ctx.registry == NULL || ctx.coverage == NULL) {
        rc = mv_error_set(err, MV_EINVAL, "report: the scan has not been run");
        goto done;
    }
    ctx.summary = mv_scan_summarize(s);
    ctx.opts = opts;
    ctx.version = opts->version != NULL ? opts->version : MCPVET_VERSION;
    ctx.fail_on = opts->fail_on < MV_VERDICT_REVIEW ? MV_VERDICT_QUARANTINE : opts->fail_on;
    ctx.out = out;
    ctx.arena = mv_arena_new(NULL, 0);
    if (ctx.arena == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "report: out of memory");
        goto done;
    }
    switch (opts->format) {
    case MV_REPORT_TEXT:
        rc = mv_report_render_text(&ctx);
        break;
    case MV_REPORT_JSON:
        rc = mv_report_render_json(&ctx);
        break;
    case MV_REPORT_SARIF:
        rc = mv_report_render_sarif(&ctx);
        break;
    default:
        rc = mv_error_set(err, MV_EINVAL, "report: unknown format %d", (int)opts->format);
        goto done;
    }
    if (rc == MV_OK && (ctx.failed || out->failed))
        rc = MV_ENOMEM;
    if (rc != MV_OK)
        mv_error_set(err, rc, "report: %s", mv_strerror(rc));
done:
    mv_arena_free(ctx.arena);
    return rc;
}
