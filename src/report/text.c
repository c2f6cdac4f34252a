/*
 * The human-readable report: one block per tool that needs attention
 * (quarantined tools first, then tools for review, each in registry order),
 * then the servers the scan reached (how, and why any could not be scanned)
 * and a summary with counts, the risk score and coverage. Colour only when
 * asked (a terminal), and only on mcpvet's own words, never inside text
 * taken from a tool. A degraded scan is never summarised as clean.
 */
#include "report_int.h"

#include "mcpvet/aggregate.h"

#include <stdio.h>
#include <string.h>

/* At most this many cap records are spelled out; the rest are counted. */
#define TEXT_MAX_CAPS 10u

static const char *plural(uint64_t n, const char *one, const char *many) {
    return n == 1 ? one : many;
}

static void put_str(mv_buf *b, mv_str s) {
    mv_buf_append(b, s.ptr, s.len);
}

static const char *verdict_tag(mv_verdict v) {
    switch (v) {
    case MV_VERDICT_QUARANTINE:
        return "QUARANTINE";
    case MV_VERDICT_REVIEW:
        return "REVIEW";
    case MV_VERDICT_CLEAN:
    default:
        return "CLEAN";
    }
}

/* ANSI colours for mcpvet's own tags. */
#define COLOR_RED "\x1b[1;31m"
#define COLOR_YELLOW "\x1b[1;33m"
#define COLOR_GREEN "\x1b[32m"
#define COLOR_RESET "\x1b[0m"

static void put_colored(mv_report_ctx *ctx, const char *color, const char *text) {
    if (ctx->opts->color)
        mv_buf_printf(ctx->out, "%s%s%s", color, text, COLOR_RESET);
    else
        mv_buf_puts(ctx->out, text);
}

static const char *verdict_color(mv_verdict v) {
    return v == MV_VERDICT_QUARANTINE ? COLOR_RED
           : v == MV_VERDICT_REVIEW   ? COLOR_YELLOW
                                      : COLOR_GREEN;
}

static void put_signal(mv_report_ctx *ctx, const mv_signal *sig) {
    mv_buf *b = ctx->out;
    mv_str path = sig->field_path.len > 0 ? mv_report_safe(ctx, sig->field_path.ptr,
                                                           sig->field_path.len, MV_REPORT_PATH_CAP)
                                          : MV_STR_LIT("(tool)");
    mv_buf_printf(b, "    %-4s  %s  ", mv_tier_name(sig->tier), sig->check_id);
    put_str(b, path);
    if (sig->detail.len > 0) {
        mv_buf_puts(b, ": ");
        put_str(b, sig->detail);
    }
    mv_buf_putc(b, '\n');
    if (sig->evidence.len > 0) {
        mv_buf_puts(b, "          Evidence: ");
        put_str(b, sig->evidence);
        mv_buf_putc(b, '\n');
    }
}

static void put_signals(mv_report_ctx *ctx, const mv_finding *f, bool info, const char *title) {
    bool any = false;
    for (uint32_t i = 0; i < f->n_signals; i++) {
        const mv_signal *sig = &f->signals[i];
        if ((sig->tier == MV_TIER_INFO) != info)
            continue;
        if (!any)
            mv_buf_printf(ctx->out, "  %s\n", title);
        any = true;
        put_signal(ctx, sig);
    }
}

/* The tool's store state, when the scan ran with a store. */
static void put_state(mv_report_ctx *ctx, const mv_finding *f) {
    const mv_report_tool_state *st = mv_report_tool_state_of(ctx, f->tool_index);
    mv_buf *b = ctx->out;
    if (st == NULL)
        return;
    mv_buf_puts(b, "  State:      ");
    bool bad = mv_report_state_fails(st, ctx->opts->fail_on_pending);
    put_colored(ctx, bad ? COLOR_RED : COLOR_GREEN, st->state);
    if (strcmp(st->state, "changed") == 0)
        mv_buf_printf(b, " since approval%s%s%s", st->changed ? " (" : "",
                      st->changed ? st->changed : "", st->changed ? ")" : "");
    else if (st->previous != NULL && strcmp(st->previous, "none") == 0)
        mv_buf_puts(b, " (new)");
    else if (st->previous != NULL && strcmp(st->previous, st->state) != 0)
        mv_buf_printf(b, " (was %s)", st->previous);
    if (st->renamed_from != NULL) {
        mv_buf_puts(b, ", renamed from ");
        put_str(b, mv_report_safe_cstr(ctx, st->renamed_from, MV_REPORT_NAME_CAP));
    }
    mv_buf_putc(b, '\n');
}

/* Whether the store's state alone makes a clean tool worth a block. */
static bool state_needs_block(const mv_report_ctx *ctx, const mv_finding *f) {
    return mv_report_state_fails(mv_report_tool_state_of(ctx, f->tool_index),
                                 ctx->opts->fail_on_pending);
}

/* Whether put_finding gives `f` a block (see there). */
bool mv_report_text_has_block(const mv_report_ctx *ctx, const mv_finding *f) {
    return f->verdict != MV_VERDICT_CLEAN || f->n_signals > 0 || f->n_failed_checks > 0 ||
           f->n_caps > 0 || state_needs_block(ctx, f);
}

/* Returns true when the tool got a block (followed by a blank line). */
static bool put_finding(mv_report_ctx *ctx, const mv_finding *f) {
    mv_buf *b = ctx->out;
    mv_arena_mark mark = mv_arena_save(ctx->arena);
    mv_buf_putc(b, '[');
    put_colored(ctx, verdict_color(f->verdict), verdict_tag(f->verdict));
    mv_buf_puts(b, "] ");
    if (f->tool->kind != MV_ITEM_TOOL)
        mv_buf_printf(b, "%s ", mv_item_kind_name(f->tool->kind));
    put_str(b, mv_report_tool_label(ctx, f->tool));
    mv_buf_putc(b, '\n');
    if (f->verdict != MV_VERDICT_CLEAN) {
        mv_buf_printf(b, "  Verdict:    %s (%s)\n", mv_verdict_name(f->verdict),
                      mv_threat_level_name(f->level));
        if (f->danger_class != NULL) {
            char basis[160];
            mv_buf_printf(b, "  Dangerous:  %s (%s)\n", f->danger_class,
                          mv_danger_basis_text(f->danger_basis, basis, sizeof(basis)));
        }
        mv_buf_printf(b, "  Severity:   %s\n", mv_severity_name(f->severity));
        mv_buf_printf(b, "  Threat:     %s\n", mv_threat_name(f->threat));
        mv_buf_puts(b, "  Confidence: ");
        mv_report_put_fixed(b, f->confidence, 2);
        mv_buf_printf(b, "\n  Risk:       %d/100\n", f->risk);
        mv_buf_puts(b, "  Signals:    ");
        for (uint32_t i = 0; i < f->n_checks; i++) {
            mv_buf_printf(b, "%s%s (%s)", i > 0 ? ", " : "", f->checks[i],
                          mv_tier_name(mv_report_check_tier(f, f->checks[i])));
        }
        mv_buf_putc(b, '\n');
    }
    put_state(ctx, f);
    mv_str source = mv_report_tool_source(ctx, f->tool_index);
    if (source.len > 0 && f->verdict != MV_VERDICT_CLEAN) {
        mv_buf_puts(b, "  Source:     ");
        put_str(b, source);
        mv_buf_putc(b, '\n');
    }
    put_signals(ctx, f, false, "Findings:");
    put_signals(ctx, f, true, "Notes:");
    if (f->n_failed_checks > 0) {
        mv_buf_puts(b, "  Incomplete: ");
        for (uint32_t i = 0; i < f->n_failed_checks; i++)
            mv_buf_printf(b, "%s%s", i > 0 ? ", " : "", f->failed_checks[i]);
        mv_buf_printf(b, " failed on this tool\n");
    }
    if (f->n_caps > 0) {
        mv_buf_printf(b, "  Incomplete: %u %s hit on this tool\n", f->n_caps,
                      plural(f->n_caps, "cap", "caps"));
    }
    /* A clean tool with nothing to say is one line; blocks get a blank line. */
    bool block = mv_report_text_has_block(ctx, f);
    if (block)
        mv_buf_putc(b, '\n');
    mv_arena_rewind(ctx->arena, mark);
    return block;
}

/* Which tools one pass lists: those of one verdict, or (states_only) the
 * clean ones whose store state fails the run. */
typedef mv_text_pass text_pass;

bool mv_report_text_in_pass(const mv_report_ctx *ctx, const mv_finding *f,
                            const mv_text_pass *pass) {
    if (f == NULL || f->verdict != pass->verdict)
        return false;
    return !pass->states_only || state_needs_block(ctx, f);
}

bool mv_report_text_range(mv_report_ctx *ctx, mv_jw *w, size_t begin, size_t end, const void *arg) {
    const text_pass *pass = arg;
    bool wrote = false;
    (void)w;
    for (size_t i = begin; i < end; i++) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        if (!mv_report_text_in_pass(ctx, f, pass))
            continue;
        put_finding(ctx, f);
        wrote = true;
    }
    return wrote;
}

static int put_findings(mv_report_ctx *ctx, mv_verdict verdict, bool states_only) {
    size_t n = mv_scan_finding_count(ctx->scan);
    text_pass pass = {verdict, states_only};
    int rc = mv_report_ranges(ctx, NULL, n, mv_report_text_range, &pass);
    /* One-line entries printed since the last blank line get one: that is
     * when the last tool listed had no block. */
    bool pending = false;
    for (size_t i = n; i-- > 0;) {
        const mv_finding *f = mv_scan_finding(ctx->scan, i);
        if (!mv_report_text_in_pass(ctx, f, &pass))
            continue;
        pending = !mv_report_text_has_block(ctx, f);
        break;
    }
    if (pending)
        mv_buf_putc(ctx->out, '\n');
    return rc;
}

static void put_cap(mv_report_ctx *ctx, const mv_cap_record *cap) {
    mv_buf *b = ctx->out;
    mv_buf_printf(b, "cap %s", cap->cap != NULL ? cap->cap : "?");
    if (cap->check_id != NULL)
        mv_buf_printf(b, " of %s", cap->check_id);
    mv_buf_printf(b, " hit (limit %llu", (unsigned long long)cap->limit);
    if (cap->observed > 0)
        mv_buf_printf(b, ", observed %llu", (unsigned long long)cap->observed);
    mv_buf_puts(b, ") on ");
    if (cap->tool_index >= 0 && (uint64_t)cap->tool_index < mv_registry_count(ctx->registry)) {
        mv_arena_mark mark = mv_arena_save(ctx->arena);
        put_str(
            b, mv_report_tool_label(ctx, mv_registry_tool(ctx->registry, (size_t)cap->tool_index)));
        mv_arena_rewind(ctx->arena, mark);
    } else {
        mv_buf_puts(b, "the scan");
    }
}

static void put_coverage(mv_report_ctx *ctx) {
    mv_buf *b = ctx->out;
    const mv_coverage *cov = ctx->coverage;
    mv_buf_printf(b, "  Coverage:      %u/%u checks ran, %u failed", cov->checks_run,
                  cov->checks_total, cov->checks_failed);
    if (cov->checks_total == 0)
        mv_buf_puts(b, " (no checks are registered: nothing was inspected)");
    mv_buf_putc(b, '\n');
    if (!cov->degraded)
        return;
    mv_buf_puts(b, "  DEGRADED:      ");
    const char *sep = "";
    for (uint32_t i = 0; i < cov->checks_failed; i++) {
        uint64_t tools = mv_report_failed_tool_count(ctx, cov->failed_ids[i]);
        mv_buf_printf(b, "%scheck %s failed on %llu %s", sep, cov->failed_ids[i],
                      (unsigned long long)tools, plural(tools, "tool", "tools"));
        sep = "; ";
    }
    uint32_t shown = cov->n_caps < TEXT_MAX_CAPS ? cov->n_caps : TEXT_MAX_CAPS;
    for (uint32_t i = 0; i < shown; i++) {
        mv_buf_puts(b, sep);
        put_cap(ctx, &cov->caps[i]);
        sep = "; ";
    }
    uint64_t more = (uint64_t)(cov->n_caps - shown) + cov->caps_dropped;
    if (more > 0) {
        mv_buf_printf(b, "%sand %llu more %s", sep, (unsigned long long)more,
                      plural(more, "cap", "caps"));
        sep = "; ";
    }
    if (sep[0] == '\0')
        mv_buf_puts(b, "coverage is incomplete");
    mv_buf_putc(b, '\n');
}

/* One line per server: status, name, where it came from and how it was
 * reached; an incomplete one also says why. */
static void put_servers(mv_report_ctx *ctx) {
    mv_buf *b = ctx->out;
    if (ctx->opts->n_servers == 0)
        return;
    mv_buf_puts(b, "Servers\n");
    for (size_t i = 0; i < ctx->opts->n_servers; i++) {
        const mv_report_server *s = &ctx->opts->servers[i];
        bool bad = mv_report_server_incomplete(s);
        mv_arena_mark mark = mv_arena_save(ctx->arena);
        char tag[32];
        snprintf(tag, sizeof tag, "%-14s", s->status != NULL ? s->status : "unknown");
        mv_buf_puts(b, "  ");
        put_colored(ctx, bad ? COLOR_RED : COLOR_GREEN, tag);
        mv_buf_putc(b, ' ');
        put_str(b, mv_report_safe_cstr(ctx, s->name, MV_REPORT_NAME_CAP));
        mv_buf_puts(b, " (");
        const char *sep = "";
        const char *parts[] = {s->client, s->transport, s->protocol_version};
        for (size_t k = 0; k < 3; k++) {
            if (parts[k] == NULL || parts[k][0] == '\0')
                continue;
            mv_buf_puts(b, sep);
            put_str(b, mv_report_safe_cstr(ctx, parts[k], MV_REPORT_NAME_CAP));
            sep = ", ";
        }
        mv_buf_printf(b, "%s%llu %s", sep, (unsigned long long)s->tools,
                      plural(s->tools, "tool", "tools"));
        if (s->prompts > 0)
            mv_buf_printf(b, ", %llu %s", (unsigned long long)s->prompts,
                          plural(s->prompts, "prompt", "prompts"));
        if (s->resources > 0)
            mv_buf_printf(b, ", %llu %s", (unsigned long long)s->resources,
                          plural(s->resources, "resource", "resources"));
        mv_buf_puts(b, ")\n");
        if (s->config != NULL) {
            mv_buf_puts(b, "                 from ");
            put_str(b, mv_report_safe_cstr(ctx, s->config, MV_REPORT_SOURCE_CAP));
            mv_buf_putc(b, '\n');
        }
        if (s->also_in != NULL) {
            mv_buf_puts(b, "                 also in ");
            put_str(b, mv_report_safe_cstr(ctx, s->also_in, MV_REPORT_SOURCE_CAP));
            mv_buf_putc(b, '\n');
        }
        if (bad || (s->reason != NULL && s->reason[0] != '\0')) {
            mv_buf_puts(b, bad ? "                 not scanned whole: " : "                 note: ");
            put_str(b, s->reason != NULL ? mv_report_safe_cstr(ctx, s->reason, MV_REPORT_SOURCE_CAP)
                                         : MV_STR_LIT("no reason given"));
            mv_buf_putc(b, '\n');
        }
        mv_arena_rewind(ctx->arena, mark);
    }
    mv_buf_putc(b, '\n');
}

/* Store states in the summary, and servers whose identity changed. */
static void put_states_summary(mv_report_ctx *ctx) {
    static const char *const names[] = {"approved", "pending", "changed", "quarantined"};
    mv_buf *b = ctx->out;
    if (ctx->opts->states == NULL)
        return;
    mv_buf_puts(b, "  States:        ");
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        uint64_t n = 0;
        for (size_t i = 0; i < ctx->opts->n_states; i++) {
            const mv_report_tool_state *st = mv_report_tool_state_of(ctx, i);
            n += st != NULL && strcmp(st->state, names[k]) == 0;
        }
        mv_buf_printf(b, "%s%llu %s", k > 0 ? ", " : "", (unsigned long long)n, names[k]);
    }
    mv_buf_putc(b, '\n');
    for (size_t i = 0; ctx->opts->changed_servers != NULL && ctx->opts->changed_servers[i]; i++) {
        mv_buf_puts(b, "  ");
        put_colored(ctx, COLOR_RED, "Server changed:");
        mv_buf_putc(b, ' ');
        put_str(b, mv_report_safe_cstr(ctx, ctx->opts->changed_servers[i], MV_REPORT_NAME_CAP));
        mv_buf_puts(b, " is reached differently than when its tools were approved\n");
    }
}

static void put_result(mv_report_ctx *ctx) {
    mv_buf *b = ctx->out;
    const mv_scan_summary *sum = &ctx->summary;
    bool degraded = mv_report_degraded(ctx);
    mv_buf_puts(b, "  Result:        ");
    if (sum->quarantine == 0 && sum->review == 0) {
        if (degraded)
            mv_buf_puts(b,
                        "No findings, but the scan was DEGRADED \xe2\x80\x94 results are partial.");
        else
            mv_buf_puts(b, "No findings.");
    } else {
        const char *sep = "";
        if (sum->quarantine > 0) {
            mv_buf_printf(b, "%llu %s quarantined", (unsigned long long)sum->quarantine,
                          plural(sum->quarantine, "tool", "tools"));
            sep = ", ";
        }
        if (sum->review > 0) {
            mv_buf_printf(b, "%s%llu %s for review", sep, (unsigned long long)sum->review,
                          plural(sum->review, "tool", "tools"));
        }
        mv_buf_printf(b, " (fail-on: %s)", mv_verdict_name(ctx->fail_on));
        if (degraded)
            mv_buf_puts(b, "; the scan was DEGRADED \xe2\x80\x94 results are partial.");
    }
    mv_buf_putc(b, '\n');
    uint64_t failing = 0;
    for (size_t i = 0; i < ctx->opts->n_states; i++)
        failing += mv_report_state_fails(mv_report_tool_state_of(ctx, i),
                                         ctx->opts->fail_on_pending);
    if (failing > 0) {
        mv_buf_printf(b, "  Store:         %llu %s changed since approval, quarantined%s: ",
                      (unsigned long long)failing, plural(failing, "tool", "tools"),
                      ctx->opts->fail_on_pending ? " or not approved" : "");
        mv_buf_puts(b, "review with `mcpvet security diff` / `security approve`.\n");
    }
}

void mv_report_text_head(mv_report_ctx *ctx) {
    const mv_scan_summary *sum = &ctx->summary;
    size_t servers = mv_registry_server_count(ctx->registry);
    mv_buf_printf(ctx->out, "mcpvet %s \xe2\x80\x94 %llu %s from %zu %s, %u %s\n\n", ctx->version,
                  (unsigned long long)sum->tools, plural(sum->tools, "tool", "tools"), servers,
                  plural(servers, "server", "servers"), ctx->coverage->checks_total,
                  plural(ctx->coverage->checks_total, "check", "checks"));
}

size_t mv_report_text_passes(const mv_report_ctx *ctx, mv_text_pass *passes) {
    size_t n = 0;
    passes[n++] = (mv_text_pass){MV_VERDICT_QUARANTINE, false};
    passes[n++] = (mv_text_pass){MV_VERDICT_REVIEW, false};
    if (ctx->opts->show_clean)
        passes[n++] = (mv_text_pass){MV_VERDICT_CLEAN, false};
    else if (ctx->opts->states != NULL)
        passes[n++] = (mv_text_pass){MV_VERDICT_CLEAN, true};
    return n;
}

int mv_report_render_text(mv_report_ctx *ctx) {
    mv_text_pass passes[MV_TEXT_MAX_PASSES];
    size_t n = mv_report_text_passes(ctx, passes);
    mv_report_text_head(ctx);
    for (size_t i = 0; i < n; i++)
        if (put_findings(ctx, passes[i].verdict, passes[i].states_only) != MV_OK)
            return MV_ENOMEM;
    return mv_report_text_tail(ctx);
}

int mv_report_text_tail(mv_report_ctx *ctx) {
    mv_buf *b = ctx->out;
    const mv_scan_summary *sum = &ctx->summary;
    size_t servers = mv_registry_server_count(ctx->registry);
    put_servers(ctx);
    mv_buf_puts(b, "Summary\n");
    mv_buf_printf(b, "  Tools scanned: %llu (%zu %s)\n", (unsigned long long)sum->tools, servers,
                  plural(servers, "server", "servers"));
    mv_buf_printf(b, "  Verdicts:      %llu clean, %llu review, %llu quarantine",
                  (unsigned long long)sum->clean, (unsigned long long)sum->review,
                  (unsigned long long)sum->quarantine);
    /* A verdict reached on an incomplete scan must not read as clean. */
    if (sum->partial > 0)
        mv_buf_printf(b, " (%llu partially scanned: not proven clean)",
                      (unsigned long long)sum->partial);
    mv_buf_putc(b, '\n');
    mv_buf_printf(b, "  Risk score:    %d/100\n", sum->risk);
    size_t incomplete = mv_report_incomplete_servers(ctx), disabled = 0;
    for (size_t i = 0; i < ctx->opts->n_servers; i++) {
        const char *st = ctx->opts->servers[i].status;
        disabled += st != NULL && strcmp(st, "disabled") == 0;
    }
    if (ctx->opts->n_servers > 0) {
        mv_buf_printf(b, "  Servers:       %zu scanned",
                      ctx->opts->n_servers - incomplete - disabled);
        if (disabled > 0)
            mv_buf_printf(b, ", %zu disabled", disabled);
        if (incomplete > 0)
            mv_buf_printf(b, ", %zu NOT scanned whole (see Servers)", incomplete);
        mv_buf_putc(b, '\n');
    }
    put_states_summary(ctx);
    put_coverage(ctx);
    put_result(ctx);
    return b->failed ? MV_ENOMEM : MV_OK;
}
