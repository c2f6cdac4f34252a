/*
 * The decide step: a finished scan goes into the approval store. Every
 * server the scan covered becomes one mv_scan_server (its identity from the
 * config it was reached through, or "file" for a tools file), every item
 * one mv_scan_item with its canonical definition, verdict and a short JSON
 * summary of its findings; the store pins, applies the state machine and
 * logs every transition in one transaction. What it decided comes back as
 * report states, so every format shows each tool's state.
 *
 * A server that could not be scanned is left out, so its tools are not
 * marked removed; a partial list (cap hit) is passed as partial. Corpus
 * inputs never reach a store.
 */
#include "pipeline/pipeline_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/writer.h"
#include "mcpvet/aggregate.h"

/* Signals summarised per item for `security approve` and `list`. */
#define DECIDE_MAX_SIGNALS 8u

/* One server being assembled, with the registry index of each item. */
typedef struct dc_server {
    mv_scan_server scan;
    mv_scan_item *items;
    size_t *tool_index;
    size_t n, cap;
} dc_server;

typedef struct dc_ctx {
    mv_pipeline *p;
    dc_server *servers;
    size_t n_servers, cap_servers;
    mv_buf findings; /* every item's summary, NUL-separated (offsets below) */
    size_t *finding_off;
} dc_ctx;

static dc_server *add_server(dc_ctx *c, const mv_server_ident *ident, bool partial) {
    if (c->n_servers == c->cap_servers) {
        size_t cap = c->cap_servers ? 2 * c->cap_servers : 8;
        dc_server *grown = pl_realloc(c->p->a, c->servers, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        c->servers = grown;
        c->cap_servers = cap;
    }
    dc_server *s = &c->servers[c->n_servers++];
    memset(s, 0, sizeof *s);
    s->scan.ident = *ident;
    s->scan.partial = partial;
    return s;
}

/* A compact summary of a finding: verdict, severity, danger class and the
 * first signals (render-safe evidence, as the engine gives it). */
static void summarize(mv_buf *b, const mv_finding *f) {
    mv_jw w;
    mv_jw_init_compact(&w, b);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "verdict", mv_verdict_name(f->verdict));
    mv_jw_cstr(&w, "severity", mv_severity_name(f->severity));
    mv_jw_cstr(&w, "danger", f->danger_class);
    mv_jw_arr_begin(&w, "checks");
    for (uint32_t i = 0; i < f->n_checks; i++)
        mv_jw_cstr(&w, NULL, f->checks[i]);
    mv_jw_arr_end(&w);
    mv_jw_arr_begin(&w, "signals");
    uint32_t shown = 0;
    for (uint32_t i = 0; i < f->n_signals && shown < DECIDE_MAX_SIGNALS; i++) {
        const mv_signal *sig = &f->signals[i];
        if (sig->tier == MV_TIER_INFO)
            continue;
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "check", sig->check_id);
        mv_jw_cstr(&w, "tier", mv_tier_name(sig->tier));
        mv_jw_str(&w, "field", sig->field_path);
        mv_jw_str(&w, "evidence", sig->evidence);
        mv_jw_str(&w, "detail", sig->detail);
        mv_jw_obj_end(&w);
        shown++;
    }
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
}

static int add_item(dc_ctx *c, dc_server *s, const mv_tool *t, size_t tool_index) {
    /* A server that lists one name twice: the first one is pinned (the
     * scan still reports both). */
    for (size_t i = 0; i < s->n; i++)
        if (s->items[i].kind == t->kind && s->items[i].name.len == t->name.len &&
            memcmp(s->items[i].name.ptr, t->name.ptr, t->name.len) == 0)
            return MV_OK;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        mv_scan_item *items = pl_realloc(c->p->a, s->items, cap * sizeof *items);
        if (items != NULL)
            s->items = items;
        size_t *idx = pl_realloc(c->p->a, s->tool_index, cap * sizeof *idx);
        if (idx != NULL)
            s->tool_index = idx;
        if (items == NULL || idx == NULL)
            return MV_ENOMEM;
        s->cap = cap;
    }
    const mv_finding *f = mv_scan_finding(c->p->scan, tool_index);
    mv_scan_item *it = &s->items[s->n];
    memset(it, 0, sizeof *it);
    it->name = t->name;
    it->kind = t->kind;
    it->definition = t->definition;
    it->verdict = f != NULL ? f->verdict : MV_VERDICT_CLEAN;
    /* Findings are summarised into one buffer; pointers are set once it
     * stops growing (see fix_findings). */
    c->finding_off[tool_index] = c->findings.len;
    if (f != NULL && f->verdict != MV_VERDICT_CLEAN)
        summarize(&c->findings, f);
    mv_buf_putc(&c->findings, '\0');
    s->tool_index[s->n++] = tool_index;
    return c->findings.failed ? MV_ENOMEM : MV_OK;
}

static void fix_findings(dc_ctx *c) {
    for (size_t k = 0; k < c->n_servers; k++) {
        dc_server *s = &c->servers[k];
        for (size_t i = 0; i < s->n; i++) {
            const char *text = c->findings.data + c->finding_off[s->tool_index[i]];
            s->items[i].findings = (mv_str){text, strlen(text)};
        }
        s->scan.items = s->items;
        s->scan.n_items = s->n;
    }
}

/* Whether a collected server's lists may go to the store, and whether they
 * are partial. A server without a status (a plain tools file) is whole. */
static bool store_status(const mv_report_server *rs, bool *partial) {
    *partial = false;
    if (rs == NULL || rs->status == NULL || strcmp(rs->status, "ok") == 0)
        return true;
    if (strcmp(rs->status, "cap_hit") == 0) {
        *partial = true;
        return true;
    }
    return false;
}

static int gather(dc_ctx *c) {
    mv_pipeline *p = c->p;
    size_t base_index = 0;
    for (size_t si = 0; si < p->n_sets; si++) {
        const pl_set *set = &p->sets[si];
        const mv_toolset *ts = set->set;
        size_t first = base_index;
        base_index += ts->n_tools;
        if (ts->kind == MV_INPUT_CORPUS)
            continue;
        if (ts->kind == MV_INPUT_TOOLS_LIST) {
            if (ts->n_tools == 0)
                continue;
            mv_server_ident id = {0};
            id.name = ts->tools[0].server.ptr; /* NUL-terminated arena copy */
            id.transport = "file";
            dc_server *s = add_server(c, &id, false);
            if (s == NULL)
                return MV_ENOMEM;
            for (size_t t = 0; t < ts->n_tools; t++)
                if (add_item(c, s, &ts->tools[t], first + t) != MV_OK)
                    return MV_ENOMEM;
            continue;
        }
        for (size_t k = 0; k < ts->n_servers; k++) {
            const mv_server_meta *m = &ts->servers[k];
            const mv_report_server *rs = NULL;
            const mv_server_config *cfg = NULL;
            if (set->servers_base != SIZE_MAX) {
                rs = &p->servers[set->servers_base + k];
                cfg = p->server_configs[set->servers_base + k];
            }
            bool partial;
            if (!store_status(rs, &partial))
                continue;
            mv_server_ident id = {0};
            if (cfg != NULL) {
                mv_server_ident_from_config(&id, cfg);
            } else {
                id.transport = "file";
            }
            id.name = rs != NULL ? rs->name : m->name.ptr;
            dc_server *s = add_server(c, &id, partial);
            if (s == NULL)
                return MV_ENOMEM;
            for (size_t t = m->first_tool; t < m->first_tool + m->n_tools; t++)
                if (add_item(c, s, &ts->tools[t], first + t) != MV_OK)
                    return MV_ENOMEM;
        }
    }
    return MV_OK;
}

/* Report states from the store's answer, in registry order. */
static int record_states(dc_ctx *c, const mv_store_scan_result *r) {
    mv_pipeline *p = c->p;
    p->states = pl_alloc(p->a, (p->n_tools + 1) * sizeof *p->states);
    p->changed_servers = pl_alloc(p->a, (r->n_servers + 1) * sizeof *p->changed_servers);
    if (p->states == NULL || p->changed_servers == NULL)
        return MV_ENOMEM;
    p->n_states = p->n_tools;
    size_t n_changed = 0;
    for (size_t k = 0; k < c->n_servers && k < r->n_servers; k++) {
        const dc_server *s = &c->servers[k];
        const mv_store_server_result *sr = &r->servers[k];
        if (sr->identity_changed)
            p->changed_servers[n_changed++] = s->scan.ident.name;
        for (size_t i = 0; i < s->n && i < sr->n_items; i++) {
            const mv_store_item_result *ir = &sr->items[i];
            mv_report_tool_state *st = &p->states[s->tool_index[i]];
            st->state = mv_tool_state_name(ir->state);
            st->previous = mv_tool_state_name(ir->previous);
            if (ir->renamed_from.len > 0)
                st->renamed_from = ir->renamed_from.ptr;
            if (ir->changed_fields != 0) {
                char list[128] = "";
                size_t o = 0;
                for (int f = 0; f < MV_PIN_FIELD_COUNT; f++) {
                    if (!(ir->changed_fields & (1u << f)))
                        continue;
                    int w = snprintf(list + o, sizeof list - o, "%s%s", o > 0 ? ", " : "",
                                     mv_pin_field_name((mv_pin_field)f));
                    if (w > 0 && (size_t)w < sizeof list - o)
                        o += (size_t)w;
                }
                st->changed = pl_strdup(p->a, list);
                if (st->changed == NULL)
                    return MV_ENOMEM;
            }
        }
    }
    return MV_OK;
}

int mv_pipeline_decide(mv_pipeline *p, mv_store *st, mv_actor actor, int64_t now,
                       mv_error *err) {
    dc_ctx c;
    mv_scan_server *scans = NULL;
    int rc;
    memset(&c, 0, sizeof c);
    c.p = p;
    mv_buf_init(&c.findings, p->a);
    if (p->scan == NULL || st == NULL)
        return mv_error_set(err, MV_EINVAL, "decide needs a finished scan and a store");
    if (!p->opts.model.keep_definitions)
        return mv_error_set(err, MV_EINVAL,
                            "decide needs the canonical definitions (model.keep_definitions)");
    if (p->decisions != NULL)
        return mv_error_set(err, MV_EINVAL, "the pipeline has already decided");
    c.finding_off = pl_alloc(p->a, (p->n_tools + 1) * sizeof *c.finding_off);
    if (c.finding_off == NULL || (rc = gather(&c)) != MV_OK) {
        rc = mv_error_set(err, MV_ENOMEM, "out of memory");
        goto done;
    }
    fix_findings(&c);
    scans = pl_alloc(p->a, (c.n_servers + 1) * sizeof *scans);
    if (scans == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < c.n_servers; k++)
        scans[k] = c.servers[k].scan;
    rc = mv_store_apply_scan(st, scans, c.n_servers, now, actor, &p->decisions, err);
    if (rc != MV_OK)
        goto done;
    if (record_states(&c, p->decisions) != MV_OK)
        rc = mv_error_set(err, MV_ENOMEM, "out of memory");
done:
    for (size_t k = 0; k < c.n_servers; k++) {
        pl_free(p->a, c.servers[k].items);
        pl_free(p->a, c.servers[k].tool_index);
    }
    pl_free(p->a, c.servers);
    pl_free(p->a, scans);
    pl_free(p->a, c.finding_off);
    mv_buf_release(&c.findings);
    return rc;
}

const mv_store_scan_result *mv_pipeline_decisions(const mv_pipeline *p) {
    return p->decisions;
}

bool mv_pipeline_decisions_fail(const mv_pipeline *p, bool fail_on_pending) {
    return mv_store_scan_fails(p->decisions, fail_on_pending);
}
