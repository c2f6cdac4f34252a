/*
 * SARIF 2.1.0 for code-scanning tools: one run whose driver declares a rule
 * per check, one result per signal (hard -> error, soft -> warning, info ->
 * note), located at the input file and, logically, at "server/tool". Tool
 * definitions have no line structure we could point into reliably, so
 * results carry no region; the field path travels in the properties. A
 * degraded scan is an unsuccessful invocation with a notification per failed
 * check and per cap.
 */
#include "report_int.h"

#include <string.h>

#include "json/writer.h"

/* Beyond MV_SARIF_MAX_RULES rules a scan is not something we produced. */
#define SARIF_MAX_RULES MV_SARIF_MAX_RULES
#define SARIF_MAX_CAP_NOTES 100u

typedef mv_sarif_rules rule_set;

static const char *level_of(mv_tier tier) {
    switch (tier) {
    case MV_TIER_HARD:
        return "error";
    case MV_TIER_SOFT:
        return "warning";
    case MV_TIER_INFO:
    default:
        return "note";
    }
}

static size_t rule_find(const rule_set *rules, const char *id) {
    for (size_t i = 0; i < rules->n; i++) {
        if (strcmp(rules->ids[i], id) == 0)
            return i;
    }
    return rules->n;
}

static void rule_add(rule_set *rules, const char *id) {
    if (id != NULL && rule_find(rules, id) == rules->n && rules->n < SARIF_MAX_RULES)
        rules->ids[rules->n++] = id;
}

/* With the engine at hand every registered check is a rule (engine order);
 * then the checks seen in the scan, in order of first appearance; then the
 * checks that failed. */
void mv_report_sarif_rules_begin(const mv_report_ctx *ctx, rule_set *rules) {
    rules->n = 0;
    const mv_engine *e = ctx->opts->engine;
    if (e != NULL) {
        size_t n = mv_engine_check_count(e);
        for (size_t i = 0; i < n; i++)
            rule_add(rules, mv_engine_check_id(e, i));
    }
}

void mv_report_sarif_rules_add(rule_set *rules, const mv_finding *f) {
    for (uint32_t k = 0; f != NULL && k < f->n_signals; k++) {
        const mv_signal *sig = &f->signals[k];
        rule_add(rules, sig->check_id);
        size_t r = rule_find(rules, sig->check_id);
        if (r < rules->n && (!rules->any[r] || sig->tier > rules->seen[r])) {
            rules->seen[r] = sig->tier;
            rules->any[r] = true;
        }
    }
}

void mv_report_sarif_rules_end(const mv_report_ctx *ctx, rule_set *rules) {
    for (uint32_t i = 0; i < ctx->coverage->checks_failed; i++)
        rule_add(rules, ctx->coverage->failed_ids[i]);
}

static void collect_rules(const mv_report_ctx *ctx, rule_set *rules) {
    mv_report_sarif_rules_begin(ctx, rules);
    size_t n = mv_scan_finding_count(ctx->scan);
    for (size_t i = 0; i < n; i++)
        mv_report_sarif_rules_add(rules, mv_scan_finding(ctx->scan, i));
    mv_report_sarif_rules_end(ctx, rules);
}

static void put_rules(mv_jw *w, const rule_set *rules) {
    mv_jw_arr_begin(w, "rules");
    for (size_t i = 0; i < rules->n; i++) {
        const char *id = rules->ids[i];
        const char *desc = mv_report_check_description(id);
        /* Known checks have a documented tier; for others the strongest
         * tier they emitted is the best guess. */
        mv_tier tier =
            desc != NULL || !rules->any[i] ? mv_report_check_default_tier(id) : rules->seen[i];
        mv_jw_obj_begin(w, NULL);
        mv_jw_cstr(w, "id", id);
        mv_jw_obj_begin(w, "shortDescription");
        if (desc != NULL) {
            mv_jw_cstr(w, "text", desc);
        } else {
            mv_buf tmp;
            mv_buf_init(&tmp, w->b->alloc);
            mv_buf_printf(&tmp, "mcpvet check %s.", id);
            mv_jw_str(w, "text", (mv_str){tmp.data != NULL ? tmp.data : "", tmp.len});
            if (tmp.failed)
                w->b->failed = 1;
            mv_buf_release(&tmp);
        }
        mv_jw_obj_end(w);
        mv_jw_obj_begin(w, "defaultConfiguration");
        mv_jw_cstr(w, "level", level_of(tier));
        mv_jw_obj_end(w);
        mv_jw_obj_begin(w, "properties");
        mv_jw_cstr(w, "tier", mv_tier_name(tier));
        mv_jw_obj_end(w);
        mv_jw_obj_end(w);
    }
    mv_jw_arr_end(w);
}

/* A URI reference for a file name: every byte outside the unreserved set
 * and "/" is percent-encoded, which also keeps it render-safe. */
static void put_uri(mv_jw *w, const char *path) {
    static const char hex[] = "0123456789ABCDEF";
    mv_buf tmp;
    mv_buf_init(&tmp, w->b->alloc);
    for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++) {
        unsigned c = *p;
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (plain) {
            mv_buf_putc(&tmp, (char)c);
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            mv_buf_append(&tmp, esc, 3);
        }
    }
    mv_jw_str(w, "uri", (mv_str){tmp.data != NULL ? tmp.data : "", tmp.len});
    if (tmp.failed)
        w->b->failed = 1;
    mv_buf_release(&tmp);
}

static const char *raw_source(const mv_report_ctx *ctx, size_t tool_index) {
    const mv_report_options *o = ctx->opts;
    if (o->sources == NULL || tool_index >= o->n_sources)
        return NULL;
    const char *src = o->sources[tool_index];
    if (src == NULL || src[0] == '\0' || strcmp(src, "-") == 0)
        return NULL;
    return src;
}

static void put_message(mv_report_ctx *ctx, mv_jw *w, mv_str label, mv_str path,
                        const mv_signal *sig) {
    mv_buf text;
    mv_buf_init(&text, ctx->alloc);
    mv_buf_append(&text, label.ptr, label.len);
    if (path.len > 0) {
        mv_buf_puts(&text, " (");
        mv_buf_append(&text, path.ptr, path.len);
        mv_buf_puts(&text, ")");
    }
    mv_buf_puts(&text, ": ");
    if (sig->detail.len > 0)
        mv_buf_append(&text, sig->detail.ptr, sig->detail.len);
    else
        mv_buf_printf(&text, "%s signal from %s.", mv_tier_name(sig->tier), sig->check_id);
    if (sig->evidence.len > 0) {
        bool stop = text.len > 0 && text.data[text.len - 1] == '.';
        mv_buf_puts(&text, stop ? " Evidence: " : ". Evidence: ");
        mv_buf_append(&text, sig->evidence.ptr, sig->evidence.len);
    }
    mv_jw_obj_begin(w, "message");
    mv_jw_str(w, "text", (mv_str){text.data != NULL ? text.data : "", text.len});
    mv_jw_obj_end(w);
    if (text.failed)
        ctx->failed = true;
    mv_buf_release(&text);
}

static void put_result(mv_report_ctx *ctx, mv_jw *w, const rule_set *rules, const mv_finding *f,
                       const mv_signal *sig) {
    const mv_tool *tool = f->tool;
    mv_str label = mv_report_tool_label(ctx, tool);
    mv_str server = mv_report_safe(ctx, tool->server.ptr, tool->server.len, MV_REPORT_NAME_CAP);
    mv_str name = mv_report_safe(ctx, tool->name.ptr, tool->name.len, MV_REPORT_NAME_CAP);
    mv_str path = sig->field_path.len > 0 ? mv_report_safe(ctx, sig->field_path.ptr,
                                                           sig->field_path.len, MV_REPORT_PATH_CAP)
                                          : MV_STR_LIT("");
    const char *source = raw_source(ctx, f->tool_index);

    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "ruleId", sig->check_id);
    size_t rule = rule_find(rules, sig->check_id);
    if (rule < rules->n)
        mv_jw_uint(w, "ruleIndex", rule);
    /* A soft signal that made the tool dangerous blocks like a hard one. */
    bool danger = f->danger_class != NULL && sig->tier == MV_TIER_SOFT && sig->facets != 0;
    mv_jw_cstr(w, "level", danger ? "error" : level_of(sig->tier));
    put_message(ctx, w, label, path, sig);
    mv_jw_arr_begin(w, "locations");
    mv_jw_obj_begin(w, NULL);
    if (source != NULL) {
        mv_jw_obj_begin(w, "physicalLocation");
        mv_jw_obj_begin(w, "artifactLocation");
        put_uri(w, source);
        mv_jw_obj_end(w);
        mv_jw_obj_end(w);
    }
    mv_jw_arr_begin(w, "logicalLocations");
    mv_jw_obj_begin(w, NULL);
    mv_jw_str(w, "name", name);
    mv_jw_str(w, "fullyQualifiedName", label);
    mv_jw_cstr(w, "kind", "function");
    mv_jw_obj_end(w);
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
    mv_jw_arr_end(w);
    mv_jw_obj_begin(w, "properties");
    mv_jw_str(w, "server", server);
    mv_jw_str(w, "tool", name);
    if (path.len > 0)
        mv_jw_str(w, "field", path);
    else
        mv_jw_null(w, "field");
    mv_jw_uint(w, "offset", sig->offset);
    mv_jw_uint(w, "length", sig->length);
    mv_jw_cstr(w, "tier", mv_tier_name(sig->tier));
    mv_jw_cstr(w, "threat", mv_threat_name(sig->threat));
    mv_jw_fixed(w, "confidence", sig->confidence, 3);
    mv_jw_cstr(w, "verdict", mv_verdict_name(f->verdict));
    mv_jw_cstr(w, "severity", mv_severity_name(f->severity));
    mv_jw_int(w, "risk", f->risk);
    if (f->danger_class != NULL)
        mv_jw_cstr(w, "danger_class", f->danger_class);
    mv_jw_obj_end(w);
    mv_jw_obj_end(w);
}

bool mv_report_sarif_results(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end,
                             const void *arg) {
    const rule_set *rules = arg;
    bool wrote = false;
    for (size_t i = begin; i < end; i++) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        if (f == NULL)
            continue;
        mv_arena_mark mark = mv_arena_save(ctx->arena);
        for (uint32_t k = 0; k < f->n_signals; k++) {
            put_result(ctx, w, rules, f, &f->signals[k]);
            wrote = true;
        }
        mv_arena_rewind(ctx->arena, mark);
    }
    return wrote;
}

static void put_note(mv_jw *w, const char *level, const mv_buf *text, const char *rule_id,
                     const rule_set *rules) {
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "level", level);
    mv_jw_obj_begin(w, "message");
    mv_jw_str(w, "text", (mv_str){text->data != NULL ? text->data : "", text->len});
    mv_jw_obj_end(w);
    if (rule_id != NULL) {
        mv_jw_obj_begin(w, "associatedRule");
        mv_jw_cstr(w, "id", rule_id);
        size_t rule = rule_find(rules, rule_id);
        if (rule < rules->n)
            mv_jw_uint(w, "index", rule);
        mv_jw_obj_end(w);
    }
    mv_jw_obj_end(w);
}

static void put_invocation(mv_report_ctx *ctx, mv_jw *w, const rule_set *rules) {
    const mv_coverage *cov = ctx->coverage;
    mv_buf text;
    mv_buf_init(&text, ctx->alloc);
    mv_jw_arr_begin(w, "invocations");
    mv_jw_obj_begin(w, NULL);
    mv_jw_bool(w, "executionSuccessful", !mv_report_degraded(ctx));
    mv_jw_arr_begin(w, "toolExecutionNotifications");
    for (size_t i = 0; i < ctx->opts->n_servers; i++) {
        const mv_report_server *srv = &ctx->opts->servers[i];
        if (!mv_report_server_incomplete(srv))
            continue;
        mv_arena_mark mark = mv_arena_save(ctx->arena);
        mv_str name = mv_report_safe_cstr(ctx, srv->name, MV_REPORT_NAME_CAP);
        mv_str reason = mv_report_safe_cstr(ctx, srv->reason, MV_REPORT_SOURCE_CAP);
        text.len = 0;
        mv_buf_puts(&text, "Server ");
        mv_buf_append(&text, name.ptr, name.len);
        mv_buf_printf(&text, " was not scanned whole (%s)", srv->status ? srv->status : "unknown");
        if (reason.len > 0) {
            mv_buf_puts(&text, ": ");
            mv_buf_append(&text, reason.ptr, reason.len);
        }
        mv_buf_puts(&text, "; results are partial.");
        put_note(w, "error", &text, NULL, rules);
        mv_arena_rewind(ctx->arena, mark);
    }
    for (uint32_t i = 0; i < cov->checks_failed; i++) {
        const char *id = cov->failed_ids[i];
        uint64_t tools = mv_report_failed_tool_count(ctx, id);
        text.len = 0;
        mv_buf_printf(&text, "Check %s failed on %llu tool%s; results are partial.", id,
                      (unsigned long long)tools, tools == 1 ? "" : "s");
        put_note(w, "error", &text, id, rules);
    }
    uint32_t shown = cov->n_caps < SARIF_MAX_CAP_NOTES ? cov->n_caps : SARIF_MAX_CAP_NOTES;
    for (uint32_t i = 0; i < shown; i++) {
        const mv_cap_record *cap = &cov->caps[i];
        mv_arena_mark mark = mv_arena_save(ctx->arena);
        text.len = 0;
        mv_buf_printf(&text, "Cap %s", cap->cap != NULL ? cap->cap : "?");
        if (cap->check_id != NULL)
            mv_buf_printf(&text, " of %s", cap->check_id);
        mv_buf_printf(&text, " hit (limit %llu, observed %llu) on ", (unsigned long long)cap->limit,
                      (unsigned long long)cap->observed);
        if (cap->tool_index >= 0 && (uint64_t)cap->tool_index < mv_registry_count(ctx->registry)) {
            mv_str label =
                mv_report_tool_label(ctx, mv_registry_tool(ctx->registry, (size_t)cap->tool_index));
            mv_buf_append(&text, label.ptr, label.len);
        } else {
            mv_buf_puts(&text, "the scan");
        }
        mv_buf_puts(&text, "; results are partial.");
        put_note(w, "warning", &text, NULL, rules);
        mv_arena_rewind(ctx->arena, mark);
    }
    uint64_t more = (uint64_t)(cov->n_caps - shown) + cov->caps_dropped;
    if (more > 0) {
        text.len = 0;
        mv_buf_printf(&text, "%llu more cap%s hit; results are partial.", (unsigned long long)more,
                      more == 1 ? "" : "s");
        put_note(w, "warning", &text, NULL, rules);
    }
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
    mv_jw_arr_end(w);
    if (text.failed)
        ctx->failed = true;
    mv_buf_release(&text);
}

void mv_report_sarif_head(mv_report_ctx *ctx, mv_jw *w, const rule_set *rules) {
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    mv_jw_cstr(w, "version", "2.1.0");
    mv_jw_arr_begin(w, "runs");
    mv_jw_obj_begin(w, NULL);
    mv_jw_obj_begin(w, "tool");
    mv_jw_obj_begin(w, "driver");
    mv_jw_cstr(w, "name", "mcpvet");
    mv_jw_cstr(w, "version", ctx->version);
    put_rules(w, rules);
    mv_jw_obj_end(w);
    mv_jw_obj_end(w);
    put_invocation(ctx, w, rules);
    mv_jw_arr_begin(w, "results");
}

int mv_report_sarif_tail(mv_report_ctx *ctx, mv_jw *w) {
    const mv_scan_summary *sum = &ctx->summary;
    mv_jw_arr_end(w);
    mv_jw_obj_begin(w, "properties");
    mv_jw_uint(w, "tools", sum->tools);
    mv_jw_uint(w, "clean", sum->clean);
    mv_jw_uint(w, "review", sum->review);
    mv_jw_uint(w, "quarantine", sum->quarantine);
    mv_jw_int(w, "risk", sum->risk);
    mv_jw_bool(w, "degraded", mv_report_degraded(ctx));
    mv_jw_uint(w, "servers_incomplete", mv_report_incomplete_servers(ctx));
    mv_report_json_servers(ctx, w);
    mv_jw_obj_end(w);
    mv_jw_obj_end(w);
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
    return mv_jw_finish(w);
}

int mv_report_render_sarif(mv_report_ctx *ctx) {
    static rule_set rules_zero;
    rule_set *rules = NULL;
    int rc = MV_ENOMEM;
    mv_jw w;

    rules = mv_alloc(ctx->alloc, sizeof *rules);
    if (rules == NULL)
        goto done;
    *rules = rules_zero;
    collect_rules(ctx, rules);

    mv_jw_init(&w, ctx->out);
    mv_report_sarif_head(ctx, &w, rules);
    if (mv_report_ranges(ctx, &w, mv_scan_finding_count(ctx->scan), mv_report_sarif_results,
                         rules) != MV_OK)
        goto done;
    rc = mv_report_sarif_tail(ctx, &w);
done:
    mv_free(ctx->alloc, rules, sizeof *rules);
    return rc;
}
