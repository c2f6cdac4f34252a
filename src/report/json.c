/*
 * The machine-readable report, schema "mcpvet.scan/1" (documented in
 * docs/json-output.md). Every tool is listed, clean ones included, so a
 * consumer can see what was covered. Member order is fixed and numbers are
 * formatted without locale, so the same scan always gives the same bytes.
 */
#include "report_int.h"

#include "mcpvet/aggregate.h"

#include "json/writer.h"

#include <string.h>

static void put_signal(mv_report_ctx *ctx, mv_jw *w, const mv_finding *f, const mv_signal *sig) {
    const mv_tool *tool = f->tool;
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "check", sig->check_id);
    mv_jw_cstr(w, "tier", mv_tier_name(sig->tier));
    mv_jw_cstr(w, "threat", mv_threat_name(sig->threat));
    mv_jw_fixed(w, "confidence", sig->confidence, 3);
    mv_jw_bool(w, "critical", sig->critical);
    if (sig->field >= 0 && (uint32_t)sig->field < tool->n_fields) {
        mv_jw_str(
            w, "field",
            mv_report_safe(ctx, sig->field_path.ptr, sig->field_path.len, MV_REPORT_PATH_CAP));
        mv_jw_cstr(w, "field_kind", mv_field_kind_name(tool->fields[sig->field].kind));
    } else {
        mv_jw_null(w, "field");
        mv_jw_null(w, "field_kind");
    }
    mv_jw_uint(w, "offset", sig->offset);
    mv_jw_uint(w, "length", sig->length);
    mv_jw_str(w, "evidence", sig->evidence);
    mv_jw_str(w, "detail", sig->detail);
    mv_jw_obj_end(w);
}

static void put_tool(mv_report_ctx *ctx, mv_jw *w, const mv_finding *f) {
    mv_arena_mark mark = mv_arena_save(ctx->arena);
    const mv_tool *tool = f->tool;
    mv_jw_obj_begin(w, NULL);
    mv_jw_uint(w, "index", f->tool_index);
    mv_jw_str(w, "server",
              mv_report_safe(ctx, tool->server.ptr, tool->server.len, MV_REPORT_NAME_CAP));
    mv_jw_str(w, "name", mv_report_safe(ctx, tool->name.ptr, tool->name.len, MV_REPORT_NAME_CAP));
    mv_jw_cstr(w, "kind", mv_item_kind_name(tool->kind));
    const mv_report_tool_state *st = mv_report_tool_state_of(ctx, f->tool_index);
    if (st == NULL) {
        mv_jw_null(w, "state");
    } else {
        mv_jw_obj_begin(w, "state");
        mv_jw_cstr(w, "state", st->state);
        mv_jw_cstr(w, "previous", st->previous);
        mv_jw_cstr(w, "changed", st->changed);
        if (st->renamed_from != NULL)
            mv_jw_str(w, "renamed_from",
                      mv_report_safe_cstr(ctx, st->renamed_from, MV_REPORT_NAME_CAP));
        else
            mv_jw_null(w, "renamed_from");
        mv_jw_obj_end(w);
    }
    mv_str source = mv_report_tool_source(ctx, f->tool_index);
    if (source.len > 0)
        mv_jw_str(w, "source", source);
    else
        mv_jw_null(w, "source");
    mv_jw_cstr(w, "verdict", mv_verdict_name(f->verdict));
    mv_jw_cstr(w, "threat_level", mv_threat_level_name(f->level));
    mv_jw_cstr(w, "severity", mv_severity_name(f->severity));
    mv_jw_cstr(w, "threat", mv_threat_name(f->threat));
    mv_jw_fixed(w, "confidence", f->confidence, 3);
    mv_jw_int(w, "risk", f->risk);
    if (f->danger_class != NULL) {
        static const struct {
            uint32_t bit;
            const char *name;
        } basis[] = {{MV_DANGER_BASIS_INSTRUCTION, "instruction"},
                     {MV_DANGER_BASIS_SENSITIVE, "sensitive_resource"},
                     {MV_DANGER_BASIS_SINK, "data_sink"},
                     {MV_DANGER_BASIS_EXFIL, "exfiltration_flow"},
                     {MV_DANGER_BASIS_FAMILIES, "second_family"},
                     {MV_DANGER_BASIS_OUTSCOPE, "outside_tool_job"},
                     {MV_DANGER_BASIS_ORDER, "addressed_order"},
                     {MV_DANGER_BASIS_LEARNED, "learned_wording"}};
        mv_jw_obj_begin(w, "danger");
        mv_jw_cstr(w, "class", f->danger_class);
        mv_jw_arr_begin(w, "basis");
        for (size_t i = 0; i < sizeof(basis) / sizeof(basis[0]); i++)
            if (f->danger_basis & basis[i].bit)
                mv_jw_cstr(w, NULL, basis[i].name);
        mv_jw_arr_end(w);
        mv_jw_obj_end(w);
    } else {
        mv_jw_null(w, "danger");
    }
    mv_jw_arr_begin(w, "checks");
    for (uint32_t i = 0; i < f->n_checks; i++)
        mv_jw_cstr(w, NULL, f->checks[i]);
    mv_jw_arr_end(w);
    mv_jw_arr_begin(w, "failed_checks");
    for (uint32_t i = 0; i < f->n_failed_checks; i++)
        mv_jw_cstr(w, NULL, f->failed_checks[i]);
    mv_jw_arr_end(w);
    mv_jw_uint(w, "caps", f->n_caps);
    mv_jw_bool(w, "partial", f->n_caps > 0 || f->n_failed_checks > 0);
    mv_jw_arr_begin(w, "signals");
    for (uint32_t i = 0; i < f->n_signals; i++)
        put_signal(ctx, w, f, &f->signals[i]);
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
    mv_arena_rewind(ctx->arena, mark);
}

bool mv_report_json_tools(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end, const void *arg) {
    bool wrote = false;
    (void)arg;
    for (size_t i = begin; i < end; i++) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        if (f != NULL) {
            put_tool(ctx, w, f);
            wrote = true;
        }
    }
    return wrote;
}

static void put_cap(mv_report_ctx *ctx, mv_jw *w, const mv_cap_record *cap) {
    mv_arena_mark mark = mv_arena_save(ctx->arena);
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "cap", cap->cap);
    mv_jw_cstr(w, "check", cap->check_id);
    mv_jw_uint(w, "limit", cap->limit);
    mv_jw_uint(w, "observed", cap->observed);
    if (cap->tool_index >= 0 && (uint64_t)cap->tool_index < mv_registry_count(ctx->registry)) {
        const mv_tool *tool = mv_registry_tool(ctx->registry, (size_t)cap->tool_index);
        mv_jw_int(w, "tool_index", cap->tool_index);
        mv_jw_str(w, "server",
                  mv_report_safe(ctx, tool->server.ptr, tool->server.len, MV_REPORT_NAME_CAP));
        mv_jw_str(w, "tool",
                  mv_report_safe(ctx, tool->name.ptr, tool->name.len, MV_REPORT_NAME_CAP));
    } else {
        mv_jw_null(w, "tool_index");
        mv_jw_null(w, "server");
        mv_jw_null(w, "tool");
    }
    mv_jw_obj_end(w);
    mv_arena_rewind(ctx->arena, mark);
}

static void put_coverage(mv_report_ctx *ctx, mv_jw *w) {
    const mv_coverage *cov = ctx->coverage;
    mv_jw_obj_begin(w, "coverage");
    mv_jw_uint(w, "checks_total", cov->checks_total);
    mv_jw_uint(w, "checks_run", cov->checks_run);
    mv_jw_uint(w, "checks_failed", cov->checks_failed);
    mv_jw_arr_begin(w, "failed_ids");
    for (uint32_t i = 0; i < cov->checks_failed; i++)
        mv_jw_cstr(w, NULL, cov->failed_ids[i]);
    mv_jw_arr_end(w);
    mv_jw_uint(w, "check_failures", cov->check_failures);
    mv_jw_arr_begin(w, "caps");
    for (uint32_t i = 0; i < cov->n_caps; i++)
        put_cap(ctx, w, &cov->caps[i]);
    mv_jw_arr_end(w);
    mv_jw_uint(w, "caps_dropped", cov->caps_dropped);
    mv_jw_bool(w, "degraded", cov->degraded);
    mv_jw_obj_end(w);
}

/* A string member from an optional C string: null when absent. */
static void put_opt(mv_report_ctx *ctx, mv_jw *w, const char *key, const char *value, size_t cap) {
    if (value == NULL)
        mv_jw_null(w, key);
    else
        mv_jw_str(w, key, mv_report_safe_cstr(ctx, value, cap));
}

void mv_report_json_servers(mv_report_ctx *ctx, mv_jw *w) {
    mv_jw_arr_begin(w, "servers");
    for (size_t i = 0; i < ctx->opts->n_servers; i++) {
        const mv_report_server *s = &ctx->opts->servers[i];
        mv_arena_mark mark = mv_arena_save(ctx->arena);
        mv_jw_obj_begin(w, NULL);
        put_opt(ctx, w, "name", s->name, MV_REPORT_NAME_CAP);
        put_opt(ctx, w, "client", s->client, MV_REPORT_NAME_CAP);
        put_opt(ctx, w, "config", s->config, MV_REPORT_SOURCE_CAP);
        put_opt(ctx, w, "transport", s->transport, MV_REPORT_NAME_CAP);
        put_opt(ctx, w, "status", s->status, MV_REPORT_NAME_CAP);
        put_opt(ctx, w, "reason", s->reason, MV_REPORT_SOURCE_CAP);
        put_opt(ctx, w, "protocol_version", s->protocol_version, MV_REPORT_NAME_CAP);
        put_opt(ctx, w, "also_in", s->also_in, MV_REPORT_SOURCE_CAP);
        mv_jw_bool(w, "complete", !mv_report_server_incomplete(s));
        mv_jw_uint(w, "tools", s->tools);
        mv_jw_uint(w, "prompts", s->prompts);
        mv_jw_uint(w, "resources", s->resources);
        mv_jw_obj_end(w);
        mv_arena_rewind(ctx->arena, mark);
    }
    mv_jw_arr_end(w);
}

/* summary.states: tools per store state, null without a store; and the
 * servers whose identity changed since approval. */
static void put_state_counts(mv_report_ctx *ctx, mv_jw *w) {
    static const char *const names[] = {"pending", "approved", "changed", "quarantined"};
    if (ctx->opts->states == NULL) {
        mv_jw_null(w, "states");
        return;
    }
    mv_jw_obj_begin(w, "states");
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        uint64_t n = 0;
        for (size_t i = 0; i < ctx->opts->n_states; i++) {
            const mv_report_tool_state *st = mv_report_tool_state_of(ctx, i);
            n += st != NULL && strcmp(st->state, names[k]) == 0;
        }
        mv_jw_uint(w, names[k], n);
    }
    mv_jw_arr_begin(w, "changed_servers");
    for (size_t i = 0; ctx->opts->changed_servers != NULL && ctx->opts->changed_servers[i]; i++)
        mv_jw_str(w, NULL,
                  mv_report_safe_cstr(ctx, ctx->opts->changed_servers[i], MV_REPORT_NAME_CAP));
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
}

void mv_report_json_head(mv_report_ctx *ctx, mv_jw *w) {
    const mv_scan_summary *sum = &ctx->summary;
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "schema", "mcpvet.scan/1");
    mv_jw_cstr(w, "version", ctx->version);
    mv_jw_obj_begin(w, "summary");
    mv_jw_uint(w, "tools", sum->tools);
    mv_jw_uint(w, "servers", mv_registry_server_count(ctx->registry));
    mv_jw_uint(w, "clean", sum->clean);
    mv_jw_uint(w, "review", sum->review);
    mv_jw_uint(w, "quarantine", sum->quarantine);
    mv_jw_uint(w, "partial", sum->partial);
    mv_jw_int(w, "risk", sum->risk);
    mv_jw_cstr(w, "worst", mv_verdict_name(sum->worst));
    mv_jw_cstr(w, "fail_on", mv_verdict_name(ctx->fail_on));
    mv_jw_int(w, "exit_code", mv_report_exit_code_opts(ctx->scan, ctx->opts));
    mv_jw_uint(w, "servers_incomplete", mv_report_incomplete_servers(ctx));
    mv_jw_bool(w, "degraded", mv_report_degraded(ctx));
    put_state_counts(ctx, w);
    mv_jw_obj_end(w);
    put_coverage(ctx, w);
    mv_report_json_servers(ctx, w);
    mv_jw_arr_begin(w, "tools");
}

int mv_report_json_tail(mv_report_ctx *ctx, mv_jw *w) {
    (void)ctx;
    mv_jw_arr_end(w);
    mv_jw_obj_end(w);
    return mv_jw_finish(w);
}

int mv_report_render_json(mv_report_ctx *ctx) {
    mv_jw w;
    mv_jw_init(&w, ctx->out);
    mv_report_json_head(ctx, &w);
    /* Tool by tool, in parallel with jobs > 1 and flushed when streaming. */
    if (mv_report_ranges(ctx, &w, mv_scan_finding_count(ctx->scan), mv_report_json_tools, NULL) !=
        MV_OK)
        return MV_ENOMEM;
    return mv_report_json_tail(ctx, &w);
}
