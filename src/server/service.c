/*
 * The operations REST and the MCP tool share (see service.h): scans through
 * the one pipeline, reads and decisions through the approval store, each
 * answered as one JSON document. Member names follow the CLI's JSON
 * (`security list --format json`, `security history --format json`) so a
 * script can move between the three entry points.
 */
#include "server/service.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json/canonical.h"
#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/config.h"
#include "mcpvet/evidence.h"
#include "mcpvet/pipeline.h"
#include "mcpvet/report.h"

#define SVC_NAME_CAP 512u   /* bytes of a rendered name */
#define SVC_TEXT_CAP 4096u  /* bytes of a rendered reason or message */
#define SVC_MAX_NAMES 4096u /* tools named in one request */
#define SVC_MAX_DEPTH 24u   /* nesting of a findings summary written back */
#define SVC_DEFAULT_EVENTS 1000u

struct mv_service {
    mv_service_options o;
    char **configs; /* owned copies of o.configs */
    mv_store *store;
    /* Built once and lent to every pipeline (mv_pipeline_options
     * .shared_engine): engines are read-only while scanning, so concurrent
     * requests share it, and an inline scan no longer pays for building
     * one (~2 ms). Default options, as mv_pipeline_new(NULL) would use, so
     * reports stay byte-identical to the CLI's. */
    mv_engine *engine;
    pthread_mutex_t store_lock;
    pthread_mutex_t scan_lock;
    unsigned scans_running;
};

/* ------------------------------------------------------------ replies */

void mv_service_reply_init(mv_service_reply *r) {
    memset(r, 0, sizeof *r);
    r->status = 200;
    mv_buf_init(&r->body, NULL);
}

void mv_service_reply_release(mv_service_reply *r) {
    mv_buf_release(&r->body);
}

/* Render-safe copy of text from a tool, server, store or request. */
static const char *safe_n(mv_arena *a, const char *s, size_t len, size_t cap) {
    mv_str out = {NULL, 0};
    if (s == NULL)
        return NULL;
    if (a == NULL || mv_evidence_render(a, s, len, cap, &out, NULL) != MV_OK)
        return "?";
    return out.ptr;
}

static const char *safe(mv_arena *a, const char *s) {
    return s == NULL ? NULL : safe_n(a, s, strlen(s), SVC_NAME_CAP);
}

static void fail_v(mv_service_reply *r, int status, const char *code, int line, int column,
                   const char *fmt, va_list ap) {
    mv_buf msg;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf_init(&msg, NULL);
    mv_buf_vprintf(&msg, fmt, ap);
    mv_buf_release(&r->body);
    mv_buf_init(&r->body, NULL);
    r->status = status;
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_obj_begin(&w, "error");
    mv_jw_cstr(&w, "code", code);
    mv_jw_cstr(&w, "message",
               msg.failed ? "out of memory"
                          : safe_n(a, msg.data != NULL ? msg.data : "", msg.len, SVC_TEXT_CAP));
    if (line > 0) {
        mv_jw_int(&w, "line", line);
        mv_jw_int(&w, "column", column);
    }
    mv_jw_obj_end(&w);
    mv_jw_obj_end(&w);
    mv_jw_finish(&w);
    mv_buf_release(&msg);
    mv_arena_free(a);
}

void mv_service_fail(mv_service_reply *r, int status, const char *code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fail_v(r, status, code, 0, 0, fmt, ap);
    va_end(ap);
}

static void fail_at(mv_service_reply *r, int status, const char *code, int line, int column,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void fail_at(mv_service_reply *r, int status, const char *code, int line, int column,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fail_v(r, status, code, line, column, fmt, ap);
    va_end(ap);
}

void mv_service_position(const char *data, size_t len, size_t offset, int *line, int *column) {
    int l = 1, c = 1;
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++) {
        if (data[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)data[i] & 0xC0) != 0x80) {
            c++; /* columns count characters, not continuation bytes */
        }
    }
    *line = l;
    *column = c;
}

void mv_service_fail_json(mv_service_reply *r, const char *data, size_t len, size_t offset,
                          const char *message) {
    int line, column;
    mv_service_position(data, len, offset, &line, &column);
    fail_at(r, 400, "invalid_json", line, column, "line %d, column %d: %s", line, column, message);
}

static void fail_oom(mv_service_reply *r) {
    mv_service_fail(r, 500, "internal", "out of memory");
}

/* Finish a success body; out of memory turns it into a 500. */
static void finish(mv_service_reply *r, mv_jw *w) {
    if (mv_jw_finish(w) != MV_OK || r->body.failed)
        fail_oom(r);
}

/* A store error as a reply: not found 404, a refused approval 409, else
 * 500 (the store's message names the file, never a secret). */
static void fail_store(mv_service_reply *r, int rc, const mv_error *err) {
    const char *msg = err->message[0] != '\0' ? err->message : mv_strerror(rc);
    if (rc == MV_ENOTFOUND)
        mv_service_fail(r, 404, "not_found", "%s", msg);
    else if (rc == MV_EINVAL)
        mv_service_fail(r, 400, "invalid_request", "%s", msg);
    else if (rc == MV_ENOMEM)
        fail_oom(r);
    else
        mv_service_fail(r, 500, "store_error", "%s", msg);
}

/* ------------------------------------------------------------ service */

int mv_service_new(mv_service **out, const mv_service_options *o, mv_error *err) {
    mv_service *svc = calloc(1, sizeof *svc);
    int rc = MV_ENOMEM;
    *out = NULL;
    if (svc == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    svc->o = *o;
    if (svc->o.max_scans == 0)
        svc->o.max_scans = 4;
    if (svc->o.retry_after == 0)
        svc->o.retry_after = 2;
    svc->configs = calloc(o->n_configs + 1, sizeof *svc->configs);
    if (svc->configs == NULL)
        goto oom;
    for (size_t i = 0; i < o->n_configs; i++) {
        svc->configs[i] = strdup(o->configs[i]);
        if (svc->configs[i] == NULL)
            goto oom;
    }
    svc->o.configs = (const char *const *)svc->configs;
    mv_engine_options eo;
    memset(&eo, 0, sizeof eo);
    if ((rc = mv_engine_new(&svc->engine, &eo, err)) != MV_OK)
        goto fail;
    pthread_mutex_init(&svc->store_lock, NULL);
    pthread_mutex_init(&svc->scan_lock, NULL);
    mv_store_options so = {.create = true};
    rc = mv_store_open(&svc->store, o->store_path, &so, err);
    if (rc != MV_OK) {
        pthread_mutex_destroy(&svc->store_lock);
        pthread_mutex_destroy(&svc->scan_lock);
        goto fail;
    }
    *out = svc;
    return MV_OK;
oom:
    rc = mv_error_set(err, MV_ENOMEM, "out of memory");
fail:
    mv_engine_free(svc->engine);
    for (size_t i = 0; svc->configs != NULL && i < o->n_configs; i++)
        free(svc->configs[i]);
    free(svc->configs);
    free(svc);
    return rc;
}

void mv_service_free(mv_service *svc) {
    if (svc == NULL)
        return;
    mv_store_close(svc->store);
    mv_engine_free(svc->engine);
    pthread_mutex_destroy(&svc->store_lock);
    pthread_mutex_destroy(&svc->scan_lock);
    for (size_t i = 0; i < svc->o.n_configs; i++)
        free(svc->configs[i]);
    free(svc->configs);
    free(svc);
}

/* Take a scan slot; false (and the reply is a 429) when all are busy. */
static bool scan_begin(mv_service *svc, mv_service_reply *r) {
    bool ok;
    pthread_mutex_lock(&svc->scan_lock);
    ok = svc->scans_running < svc->o.max_scans;
    if (ok)
        svc->scans_running++;
    pthread_mutex_unlock(&svc->scan_lock);
    if (!ok) {
        mv_service_fail(r, 429, "busy", "%u scans are already running; retry in %u seconds",
                        svc->o.max_scans, svc->o.retry_after);
        r->retry_after = svc->o.retry_after;
    }
    return ok;
}

static void scan_end(mv_service *svc) {
    pthread_mutex_lock(&svc->scan_lock);
    svc->scans_running--;
    pthread_mutex_unlock(&svc->scan_lock);
}

/* ------------------------------------------------------- JSON pieces */

/* Write a parsed value back with every key and string rendered safe. */
static void put_safe_value(mv_jw *w, mv_arena *a, const char *key, const mv_jv *v, unsigned depth) {
    switch ((mv_jtype)v->type) {
    case MV_JNULL:
        mv_jw_null(w, key);
        break;
    case MV_JFALSE:
    case MV_JTRUE:
        mv_jw_bool(w, key, v->type == MV_JTRUE);
        break;
    case MV_JNUMBER:
        mv_jw_raw(w, key, v->u.s, v->n);
        break;
    case MV_JSTRING:
        mv_jw_cstr(w, key, safe_n(a, v->u.s, v->n, SVC_TEXT_CAP));
        break;
    case MV_JARRAY:
        if (depth >= SVC_MAX_DEPTH) {
            mv_jw_cstr(w, key, "(nested too deeply)");
            break;
        }
        mv_jw_arr_begin(w, key);
        for (uint32_t i = 0; i < v->n; i++)
            put_safe_value(w, a, NULL, &v->u.items[i], depth + 1);
        mv_jw_arr_end(w);
        break;
    case MV_JOBJECT:
        if (depth >= SVC_MAX_DEPTH) {
            mv_jw_cstr(w, key, "(nested too deeply)");
            break;
        }
        mv_jw_obj_begin(w, key);
        for (uint32_t i = 0; i < v->n; i++) {
            const mv_jm *m = &v->u.members[i];
            put_safe_value(w, a, safe_n(a, m->key, m->key_len, SVC_NAME_CAP), &m->value, depth + 1);
        }
        mv_jw_obj_end(w);
        break;
    }
}

/* A findings summary from the store: JSON written back safe, or a safe
 * string when it is not JSON, or null. */
static void put_findings(mv_jw *w, mv_arena *a, const char *findings) {
    const mv_jv *doc = NULL;
    mv_jerror je;
    if (findings == NULL || findings[0] == '\0') {
        mv_jw_null(w, "findings");
        return;
    }
    if (mv_json_parse(&doc, a, NULL, findings, strlen(findings), &je) == MV_OK)
        put_safe_value(w, a, "findings", doc, 0);
    else
        mv_jw_cstr(w, "findings", safe_n(a, findings, strlen(findings), SVC_TEXT_CAP));
}

static void put_fields(mv_jw *w, const char *key, unsigned bits) {
    mv_jw_arr_begin(w, key);
    for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
        if (bits & (1u << k))
            mv_jw_cstr(w, NULL, mv_pin_field_name((mv_pin_field)k));
    mv_jw_arr_end(w);
}

static void fmt_time(char out[80], int64_t t) {
    time_t tt = (time_t)t;
    struct tm tm;
    if (gmtime_r(&tt, &tm) == NULL) {
        snprintf(out, 80, "%lld", (long long)t);
        return;
    }
    snprintf(out, 80, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* One tool as the store holds it (the members of `security list --format
 * json`, plus its findings). */
static void put_tool(mv_jw *w, mv_arena *a, const mv_store_tool *t) {
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "server", safe(a, t->server));
    mv_jw_cstr(w, "kind", mv_item_kind_name(t->kind));
    mv_jw_cstr(w, "name", safe(a, t->name));
    mv_jw_cstr(w, "state", mv_tool_state_name(t->state));
    if (t->state == MV_STATE_REMOVED)
        mv_jw_cstr(w, "previous_state", mv_tool_state_name(t->previous));
    mv_jw_cstr(w, "verdict", t->verdict);
    mv_jw_cstr(w, "approved_pin", t->approved_pin);
    mv_jw_cstr(w, "current_pin", t->current_pin);
    put_fields(w, "changed_fields", t->changed_fields);
    mv_jw_cstr(w, "renamed_from", safe(a, t->renamed_from));
    mv_jw_bool(w, "forced", t->forced);
    mv_jw_bool(w, "manual_quarantine", t->manual_quarantine);
    mv_jw_bool(w, "identity_changed", t->identity_changed);
    mv_jw_int(w, "first_seen", t->first_seen);
    mv_jw_int(w, "last_seen", t->last_seen);
    mv_jw_int(w, "state_since", t->state_since);
    put_findings(w, a, t->findings);
    mv_jw_obj_end(w);
}

/* Does the store know server `name`? Called with the store locked.
 * Returns 1, 0, or a negative MV_E* (err filled). */
static int store_has_server(mv_service *svc, const char *name, mv_error *err) {
    mv_store_server_list *sl = NULL;
    int rc = mv_store_servers(svc->store, &sl, err);
    if (rc != MV_OK)
        return rc;
    int found = 0;
    for (size_t i = 0; i < sl->n && !found; i++)
        found = strcmp(sl->servers[i].name, name) == 0;
    mv_store_server_list_free(sl);
    return found;
}

/* ------------------------------------------------------------- configs */

typedef struct svc_configs {
    mv_config_set **sets;
    size_t n;
} svc_configs;

static void configs_free(svc_configs *c) {
    for (size_t i = 0; i < c->n; i++)
        mv_config_set_free(c->sets[i]);
    free(c->sets);
    memset(c, 0, sizeof *c);
}

/* Read the configured servers now (configs change while a server runs).
 * A --config file that cannot be read is an error (500 naming it); a
 * discovered one is skipped, as the CLI skips it. */
static int configs_load(mv_service *svc, svc_configs *c, mv_service_reply *r) {
    mv_error err;
    size_t n = svc->o.n_configs > 0 ? svc->o.n_configs : 1;
    c->sets = calloc(n, sizeof *c->sets);
    if (c->sets == NULL) {
        fail_oom(r);
        return -1;
    }
    mv_error_clear(&err);
    if (svc->o.n_configs == 0) {
        if (mv_config_discover(&c->sets[0], NULL, &err) != MV_OK) {
            mv_service_fail(r, 500, "config_error", "%s", err.message);
            return -1;
        }
        c->n = 1;
        return 0;
    }
    for (size_t i = 0; i < svc->o.n_configs; i++) {
        mv_error_clear(&err);
        if (mv_config_load_file(&c->sets[i], svc->o.configs[i], NULL, NULL, &err) != MV_OK) {
            if (err.line > 0)
                mv_service_fail(r, 500, "config_error", "%s:%d:%d: %s", svc->o.configs[i], err.line,
                                err.column, err.message);
            else
                mv_service_fail(r, 500, "config_error", "%s: %s", svc->o.configs[i], err.message);
            return -1;
        }
        c->n++;
    }
    return 0;
}

/* ---------------------------------------------------------------- scans */

/* Render the finished scan of `pipe` as the JSON report into r->body. */
static void render_report(mv_pipeline *pipe, mv_verdict fail_on, mv_service_reply *r) {
    mv_error err;
    mv_report_options ropts;
    memset(&ropts, 0, sizeof ropts);
    ropts.format = MV_REPORT_JSON;
    ropts.fail_on = fail_on;
    ropts.jobs = 1;
    mv_pipeline_report_options(pipe, &ropts);
    mv_error_clear(&err);
    mv_buf_release(&r->body);
    mv_buf_init(&r->body, NULL);
    if (mv_report_render(&r->body, mv_pipeline_result(pipe), &ropts, &err) != MV_OK ||
        r->body.failed) {
        mv_service_fail(r, 500, "internal", "cannot render the report: %s",
                        err.message[0] ? err.message : "out of memory");
        return;
    }
    r->status = 200;
}

void mv_service_scan_document(mv_service *svc, const char *data, size_t len, const char *server,
                              mv_verdict fail_on, mv_service_reply *r) {
    mv_pipeline *pipe = NULL;
    mv_error err;
    bool slot = false;
    mv_error_clear(&err);
    if (!(slot = scan_begin(svc, r)))
        goto done;
    mv_pipeline_options popts;
    memset(&popts, 0, sizeof popts);
    popts.shared_engine = svc->engine;
    if (mv_pipeline_new(&pipe, &popts, &err) != MV_OK) {
        mv_service_fail(r, 500, "internal", "%s", err.message);
        goto done;
    }
    /* "-" names the input as the CLI names standard input, so the report
     * is the one `mcpvet scan --tools -` prints for these bytes. */
    int rc = mv_pipeline_add_document(pipe, data, len, "-", server, &err);
    if (rc == MV_EPARSE && err.line > 0) {
        fail_at(r, 400, "invalid_json", err.line, err.column, "line %d, column %d: %s", err.line,
                err.column, err.message);
        goto done;
    }
    if (rc == MV_EPARSE || rc == MV_EINVAL) {
        if (err.where[0] != '\0')
            mv_service_fail(r, 400, "invalid_input", "%s: %s", err.where, err.message);
        else
            mv_service_fail(r, 400, "invalid_input", "%s", err.message);
        goto done;
    }
    if (rc == MV_ELIMIT) {
        mv_service_fail(r, 413, "too_large", "%s", err.message);
        goto done;
    }
    if (rc != MV_OK) {
        fail_oom(r);
        goto done;
    }
    if (server != NULL && mv_pipeline_tool_count(pipe) == 0) {
        mv_service_fail(r, 404, "not_found", "no tools of server \"%s\" in the input", server);
        goto done;
    }
    mv_error_clear(&err);
    if (mv_pipeline_scan(pipe, 1, &err) != MV_OK) {
        mv_service_fail(r, err.code == MV_ELIMIT ? 413 : 500,
                        err.code == MV_ELIMIT ? "too_large" : "internal", "%s", err.message);
        goto done;
    }
    render_report(pipe, fail_on, r);
done:
    mv_pipeline_free(pipe);
    if (slot)
        scan_end(svc);
}

void mv_service_scan_server(mv_service *svc, const char *name, mv_verdict fail_on,
                            mv_service_reply *r) {
    svc_configs cs = {0};
    const mv_server_config **servers = NULL;
    size_t n = 0, total = 0;
    mv_pipeline *pipe = NULL;
    mv_error err;
    bool slot = false;
    mv_error_clear(&err);
    if (configs_load(svc, &cs, r) != 0)
        goto done;
    for (size_t i = 0; i < cs.n; i++)
        total += cs.sets[i]->n_servers;
    servers = calloc(total + 1, sizeof *servers);
    if (servers == NULL) {
        fail_oom(r);
        goto done;
    }
    for (size_t i = 0; i < cs.n; i++)
        for (size_t k = 0; k < cs.sets[i]->n_servers; k++)
            if (strcmp(cs.sets[i]->servers[k].name, name) == 0)
                servers[n++] = &cs.sets[i]->servers[k];
    if (n == 0) {
        mv_service_fail(r, 404, "not_found", "no configured server is named \"%s\"", name);
        goto done;
    }
    if (!(slot = scan_begin(svc, r)))
        goto done;
    mv_pipeline_options popts;
    memset(&popts, 0, sizeof popts);
    popts.model.keep_definitions = true; /* decide pins every definition */
    popts.mcp.startup_timeout_ms = svc->o.scan_timeout_ms;
    popts.mcp.request_timeout_ms = svc->o.scan_timeout_ms;
    popts.shared_engine = svc->engine;
    if (mv_pipeline_new(&pipe, &popts, &err) != MV_OK) {
        mv_service_fail(r, 500, "internal", "%s", err.message);
        goto done;
    }
    if (mv_pipeline_collect(pipe, servers, n, &err) != MV_OK ||
        (mv_error_clear(&err), mv_pipeline_scan(pipe, 1, &err)) != MV_OK) {
        mv_service_fail(r, 500, "internal", "%s", err.message);
        goto done;
    }
    mv_error_clear(&err);
    pthread_mutex_lock(&svc->store_lock);
    int rc = mv_pipeline_decide(pipe, svc->store, svc->o.actor, (int64_t)time(NULL), &err);
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc == MV_EINVAL ? MV_EIO : rc, &err);
        goto done;
    }
    render_report(pipe, fail_on, r);
done:
    mv_pipeline_free(pipe);
    if (slot)
        scan_end(svc);
    free(servers);
    configs_free(&cs);
}

/* --------------------------------------------------------------- reads */

void mv_service_servers(mv_service *svc, mv_service_reply *r) {
    mv_store_server_list *sl = NULL;
    mv_store_tool_list *tl = NULL;
    svc_configs cs = {0};
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_error err;
    mv_buf desc;
    mv_buf_init(&desc, NULL);
    mv_error_clear(&err);
    if (a == NULL) {
        fail_oom(r);
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = mv_store_servers(svc->store, &sl, &err);
    if (rc == MV_OK)
        rc = mv_store_list(svc->store, NULL, &tl, &err);
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    if (configs_load(svc, &cs, r) != 0)
        goto done;
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(
        &w, "store",
        safe_n(a, mv_store_path(svc->store), strlen(mv_store_path(svc->store)), SVC_TEXT_CAP));
    mv_jw_arr_begin(&w, "servers");
    for (size_t i = 0; i < sl->n; i++) {
        const mv_store_server *s = &sl->servers[i];
        size_t counts[MV_STATE_REMOVED + 1] = {0};
        for (size_t k = 0; k < tl->n; k++)
            if (strcmp(tl->tools[k].server, s->name) == 0 && tl->tools[k].state <= MV_STATE_REMOVED)
                counts[tl->tools[k].state]++;
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "name", safe(a, s->name));
        mv_jw_cstr(&w, "transport", safe(a, s->transport));
        mv_jw_cstr(&w, "reached", safe_n(a, s->reached, strlen(s->reached), SVC_TEXT_CAP));
        mv_jw_cstr(&w, "identity", s->identity);
        mv_jw_bool(&w, "identity_changed", s->identity_changed);
        mv_jw_uint(&w, "tools", s->n_tools);
        mv_jw_obj_begin(&w, "states");
        for (int k = MV_STATE_PENDING; k <= MV_STATE_REMOVED; k++)
            mv_jw_uint(&w, mv_tool_state_name((mv_tool_state)k), counts[k]);
        mv_jw_obj_end(&w);
        mv_jw_int(&w, "first_seen", s->first_seen);
        mv_jw_int(&w, "last_seen", s->last_seen);
        mv_jw_obj_end(&w);
    }
    mv_jw_arr_end(&w);
    mv_jw_arr_begin(&w, "configured");
    for (size_t i = 0; i < cs.n; i++) {
        for (size_t k = 0; k < cs.sets[i]->n_servers; k++) {
            const mv_server_config *c = &cs.sets[i]->servers[k];
            desc.len = 0;
            mv_config_describe(&desc, c);
            mv_jw_obj_begin(&w, NULL);
            mv_jw_cstr(&w, "name", safe(a, c->name));
            mv_jw_cstr(&w, "client", safe(a, c->client));
            mv_jw_cstr(&w, "config",
                       safe_n(a, c->config_path, strlen(c->config_path), SVC_TEXT_CAP));
            mv_jw_cstr(&w, "transport", mv_transport_name(c->transport));
            mv_jw_cstr(&w, "readiness", mv_server_readiness_name(c->readiness));
            mv_jw_cstr(
                &w, "reason",
                c->readiness_reason != NULL
                    ? safe_n(a, c->readiness_reason, strlen(c->readiness_reason), SVC_TEXT_CAP)
                    : NULL);
            /* mv_config_describe names env and header keys, never values. */
            mv_jw_cstr(&w, "reached",
                       desc.data != NULL && !desc.failed
                           ? safe_n(a, desc.data, desc.len, SVC_TEXT_CAP)
                           : NULL);
            mv_jw_obj_end(&w);
        }
    }
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    finish(r, &w);
done:
    mv_buf_release(&desc);
    configs_free(&cs);
    mv_store_server_list_free(sl);
    mv_store_tool_list_free(tl);
    mv_arena_free(a);
}

void mv_service_tools(mv_service *svc, const char *server, mv_tool_state state, bool attention,
                      mv_service_reply *r) {
    mv_store_tool_list *l = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_error err;
    mv_error_clear(&err);
    if (a == NULL) {
        fail_oom(r);
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = server != NULL ? store_has_server(svc, server, &err) : 1;
    if (rc == 1) {
        mv_store_filter f = {.server = server, .state = state};
        rc = mv_store_list(svc->store, &f, &l, &err);
    } else if (rc == 0) {
        rc = mv_error_set(&err, MV_ENOTFOUND, "no server \"%s\" in the store", server);
    }
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "server", safe(a, server));
    mv_jw_arr_begin(&w, "tools");
    for (size_t i = 0; i < l->n; i++) {
        mv_tool_state s = l->tools[i].state;
        if (attention && s != MV_STATE_PENDING && s != MV_STATE_CHANGED &&
            s != MV_STATE_QUARANTINED)
            continue;
        put_tool(&w, a, &l->tools[i]);
    }
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    finish(r, &w);
done:
    mv_store_tool_list_free(l);
    mv_arena_free(a);
}

void mv_service_tool(mv_service *svc, const char *server, const char *tool, bool diff_only,
                     mv_service_reply *r) {
    mv_store_tool_list *l = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_arena *pa = mv_arena_new(NULL, 0);
    mv_error err;
    mv_buf diff, def;
    mv_buf_init(&diff, NULL);
    mv_buf_init(&def, NULL);
    mv_error_clear(&err);
    if (a == NULL || pa == NULL) {
        fail_oom(r);
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = store_has_server(svc, server, &err);
    if (rc == 1) {
        mv_store_filter f = {.server = server, .tool = tool, .definitions = true};
        rc = mv_store_list(svc->store, &f, &l, &err);
        if (rc == MV_OK && l->n == 0)
            rc = mv_error_set(&err, MV_ENOTFOUND, "no tool \"%s\" of server \"%s\" in the store",
                              tool, server);
    } else if (rc == 0) {
        rc = mv_error_set(&err, MV_ENOTFOUND, "no server \"%s\" in the store", server);
    }
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    /* One name may be a tool and a prompt at once: the tool wins, else the
     * first kind (the list is ordered by kind). */
    const mv_store_tool *t = &l->tools[0];
    for (size_t i = 0; i < l->n; i++)
        if (l->tools[i].kind == MV_ITEM_TOOL)
            t = &l->tools[i];
    bool differs = t->approved_pin == NULL ||
                   (t->current_pin != NULL && strcmp(t->approved_pin, t->current_pin) != 0);
    const char *cur = t->current_definition != NULL ? t->current_definition : "";
    if (differs) {
        const char *srv = safe(a, t->server), *who = safe(a, t->name);
        char la[2 * SVC_NAME_CAP + 64], lb[2 * SVC_NAME_CAP + 64];
        snprintf(la, sizeof la, "approved %s/%s%s%.12s", srv, who,
                 t->approved_pin != NULL ? " " : "",
                 t->approved_pin != NULL ? t->approved_pin : "");
        snprintf(lb, sizeof lb, "current %s/%s %.12s", srv, who,
                 t->current_pin != NULL ? t->current_pin : "");
        const char *ad = t->approved_definition;
        rc = mv_diff_definitions(&diff, ad, ad != NULL ? strlen(ad) : 0, cur, strlen(cur), la, lb,
                                 NULL);
        if (rc != MV_OK) {
            mv_service_fail(r, 500, "internal", "cannot diff the definitions: %s", mv_strerror(rc));
            goto done;
        }
    }
    if (!diff_only && cur[0] != '\0') {
        const mv_jv *doc = NULL;
        mv_jerror je;
        if (mv_json_parse(&doc, pa, NULL, cur, strlen(cur), &je) == MV_OK)
            mv_json_pretty_safe(&def, doc);
    }
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "server", safe(a, t->server));
    mv_jw_cstr(&w, "tool", safe(a, t->name));
    mv_jw_cstr(&w, "kind", mv_item_kind_name(t->kind));
    mv_jw_cstr(&w, "state", mv_tool_state_name(t->state));
    mv_jw_cstr(&w, "verdict", t->verdict);
    mv_jw_cstr(&w, "approved_pin", t->approved_pin);
    mv_jw_cstr(&w, "current_pin", t->current_pin);
    put_fields(&w, "changed_fields", t->changed_fields);
    mv_jw_bool(&w, "identity_changed", t->identity_changed);
    mv_jw_bool(&w, "never_approved", t->approved_pin == NULL);
    /* The diff and the definition are render-safe already (hidden
     * characters as \uXXXX text): they are written as plain strings. */
    mv_jw_str(&w, "diff", (mv_str){diff.data != NULL ? diff.data : "", diff.len});
    if (!diff_only) {
        mv_jw_str(&w, "definition", (mv_str){def.data != NULL ? def.data : "", def.len});
        put_findings(&w, a, t->findings);
    }
    mv_jw_obj_end(&w);
    finish(r, &w);
    if (diff.failed || def.failed)
        fail_oom(r);
done:
    mv_buf_release(&diff);
    mv_buf_release(&def);
    mv_store_tool_list_free(l);
    mv_arena_free(a);
    mv_arena_free(pa);
}

/* ---------------------------------------------------------------- queue */

static bool needs_attention(mv_tool_state s) {
    return s == MV_STATE_PENDING || s == MV_STATE_CHANGED || s == MV_STATE_QUARANTINED;
}

/* Newest first (state_since), then server and name for a stable order. */
static int queue_cmp(const void *pa, const void *pb) {
    const mv_store_tool *a = *(const mv_store_tool *const *)pa;
    const mv_store_tool *b = *(const mv_store_tool *const *)pb;
    if (a->state_since != b->state_since)
        return a->state_since > b->state_since ? -1 : 1;
    int c = strcmp(a->server, b->server);
    return c != 0 ? c : strcmp(a->name, b->name);
}

/* Per-server counts of the queue: one entry per server, in store order
 * (the list is ordered by server, so equal names are adjacent). */
typedef struct queue_server {
    const char *name;
    size_t counts[3]; /* pending, changed, quarantined */
} queue_server;

static int queue_slot(mv_tool_state s) {
    return s == MV_STATE_PENDING ? 0 : s == MV_STATE_CHANGED ? 1 : 2;
}

void mv_service_queue(mv_service *svc, const char *server, mv_tool_state state, size_t page,
                      size_t per_page, mv_service_reply *r) {
    static const char *const slot_names[3] = {"pending", "changed", "quarantined"};
    mv_store_tool_list *l = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_store_tool **hits = NULL;
    queue_server *servers = NULL;
    size_t n_hits = 0, n_servers = 0, totals[3] = {0, 0, 0};
    mv_error err;
    mv_error_clear(&err);
    if (a == NULL) {
        fail_oom(r);
        goto done;
    }
    if (state != MV_STATE_NONE && !needs_attention(state)) {
        mv_service_fail(r, 400, "invalid_request", "state must be pending, changed or quarantined");
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = mv_store_list(svc->store, NULL, &l, &err);
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    hits = calloc(l->n + 1, sizeof *hits);
    servers = calloc(l->n + 1, sizeof *servers);
    if (hits == NULL || servers == NULL) {
        fail_oom(r);
        goto done;
    }
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_tool *t = &l->tools[i];
        if (!needs_attention(t->state))
            continue;
        int k = queue_slot(t->state);
        totals[k]++;
        if (n_servers == 0 || strcmp(servers[n_servers - 1].name, t->server) != 0)
            servers[n_servers++].name = t->server;
        servers[n_servers - 1].counts[k]++;
        if ((server == NULL || strcmp(server, t->server) == 0) &&
            (state == MV_STATE_NONE || state == t->state))
            hits[n_hits++] = t;
    }
    qsort(hits, n_hits, sizeof *hits, queue_cmp);
    size_t pages = n_hits == 0 ? 1 : (n_hits + per_page - 1) / per_page;
    size_t first = page <= pages ? (page - 1) * per_page : n_hits;
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_uint(&w, "total", n_hits);
    mv_jw_uint(&w, "page", page);
    mv_jw_uint(&w, "per_page", per_page);
    mv_jw_uint(&w, "pages", pages);
    mv_jw_obj_begin(&w, "counts");
    for (int k = 0; k < 3; k++)
        mv_jw_uint(&w, slot_names[k], totals[k]);
    mv_jw_obj_end(&w);
    mv_jw_arr_begin(&w, "servers");
    for (size_t i = 0; i < n_servers; i++) {
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "name", safe(a, servers[i].name));
        for (int k = 0; k < 3; k++)
            mv_jw_uint(&w, slot_names[k], servers[i].counts[k]);
        mv_jw_obj_end(&w);
    }
    mv_jw_arr_end(&w);
    mv_jw_arr_begin(&w, "tools");
    for (size_t i = first; i < n_hits && i < first + per_page; i++)
        put_tool(&w, a, hits[i]);
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    finish(r, &w);
done:
    free(hits);
    free(servers);
    mv_store_tool_list_free(l);
    mv_arena_free(a);
}

/* ----------------------------------------------------------- decisions */

void mv_service_approve(mv_service *svc, const char *server, const char *const *tools, size_t n,
                        bool all, bool force, const char *reason, mv_service_reply *r) {
    mv_service_approve_by(svc, svc->o.actor, server, tools, n, all, force, reason, r);
}

void mv_service_approve_by(mv_service *svc, mv_actor actor, const char *server,
                           const char *const *tools, size_t n, bool all, bool force,
                           const char *reason, mv_service_reply *r) {
    mv_store_approve_result res;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_error err;
    memset(&res, 0, sizeof res);
    mv_error_clear(&err);
    if (a == NULL) {
        fail_oom(r);
        goto done;
    }
    if ((n == 0) != all) {
        mv_service_fail(r, 400, "invalid_request",
                        "name the tools to approve (\"tools\": [...]) or approve \"all\": true, "
                        "not both");
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = mv_store_approve(svc->store, server, tools, n, force, actor, reason, &res, &err);
    pthread_mutex_unlock(&svc->store_lock);
    if (rc == MV_EQUARANTINED) {
        /* The common error shape, with the quarantined tools inside. */
        mv_buf_release(&r->body);
        mv_buf_init(&r->body, NULL);
        mv_jw w;
        mv_jw_init_compact(&w, &r->body);
        mv_jw_obj_begin(&w, NULL);
        mv_jw_obj_begin(&w, "error");
        mv_jw_cstr(&w, "code", "quarantined");
        mv_jw_cstr(&w, "message", safe_n(a, err.message, strlen(err.message), SVC_TEXT_CAP));
        mv_jw_arr_begin(&w, "tools");
        for (size_t i = 0; res.quarantined != NULL && i < res.quarantined->n; i++)
            put_tool(&w, a, &res.quarantined->tools[i]);
        mv_jw_arr_end(&w);
        mv_jw_obj_end(&w);
        mv_jw_obj_end(&w);
        r->status = 409;
        finish(r, &w);
        goto done;
    }
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "server", safe(a, server));
    mv_jw_uint(&w, "approved", res.n_approved);
    mv_jw_uint(&w, "unchanged", res.n_unchanged);
    mv_jw_arr_begin(&w, "forced");
    for (size_t i = 0; res.quarantined != NULL && i < res.quarantined->n; i++)
        mv_jw_cstr(&w, NULL, safe(a, res.quarantined->tools[i].name));
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    finish(r, &w);
done:
    mv_store_approve_result_release(&res);
    mv_arena_free(a);
}

void mv_service_quarantine(mv_service *svc, const char *server, const char *const *tools, size_t n,
                           const char *reason, mv_service_reply *r) {
    mv_service_quarantine_by(svc, svc->o.actor, server, tools, n, reason, r);
}

void mv_service_quarantine_by(mv_service *svc, mv_actor actor, const char *server,
                              const char *const *tools, size_t n, const char *reason,
                              mv_service_reply *r) {
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_error err;
    size_t changed = 0;
    mv_error_clear(&err);
    if (a == NULL) {
        fail_oom(r);
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = mv_store_quarantine(svc->store, server, tools, n, actor, reason, &changed, &err);
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "server", safe(a, server));
    mv_jw_uint(&w, "quarantined", changed);
    mv_jw_obj_end(&w);
    finish(r, &w);
done:
    mv_arena_free(a);
}

void mv_service_events(mv_service *svc, const char *server, const char *tool, size_t limit,
                       mv_service_reply *r) {
    mv_store_event_list *l = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_error err;
    mv_error_clear(&err);
    if (a == NULL) {
        fail_oom(r);
        goto done;
    }
    pthread_mutex_lock(&svc->store_lock);
    int rc = mv_store_history(svc->store, server, tool, limit > 0 ? limit : SVC_DEFAULT_EVENTS, &l,
                              &err);
    pthread_mutex_unlock(&svc->store_lock);
    if (rc != MV_OK) {
        fail_store(r, rc, &err);
        goto done;
    }
    mv_jw w;
    mv_jw_init_compact(&w, &r->body);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_arr_begin(&w, "events");
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_event *e = &l->events[i];
        char ts[80];
        fmt_time(ts, e->time);
        mv_jw_obj_begin(&w, NULL);
        mv_jw_int(&w, "id", e->id);
        mv_jw_cstr(&w, "time", ts);
        mv_jw_cstr(&w, "actor", e->actor);
        mv_jw_cstr(&w, "server", safe(a, e->server));
        mv_jw_cstr(&w, "kind", e->kind);
        mv_jw_cstr(&w, "tool", safe(a, e->tool));
        mv_jw_cstr(&w, "old_state", e->old_state);
        mv_jw_cstr(&w, "new_state", e->new_state);
        mv_jw_cstr(&w, "old_pin", e->old_pin);
        mv_jw_cstr(&w, "new_pin", e->new_pin);
        mv_jw_cstr(&w, "reason",
                   e->reason != NULL ? safe_n(a, e->reason, strlen(e->reason), SVC_TEXT_CAP)
                                     : NULL);
        mv_jw_obj_end(&w);
    }
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    finish(r, &w);
done:
    mv_store_event_list_free(l);
    mv_arena_free(a);
}

int mv_service_tool_names(const mv_jv *arr, mv_arena *a, const char ***names, size_t *n,
                          mv_service_reply *r) {
    *names = NULL;
    *n = 0;
    if (arr == NULL)
        return 0;
    if (!mv_jis_array(arr)) {
        mv_service_fail(r, 400, "invalid_request", "\"tools\" must be an array of tool names");
        return -1;
    }
    if (arr->n > SVC_MAX_NAMES) {
        mv_service_fail(r, 400, "invalid_request", "\"tools\" names more than %u tools",
                        SVC_MAX_NAMES);
        return -1;
    }
    const char **v = mv_arena_alloc(a, ((size_t)arr->n + 1) * sizeof *v);
    if (v == NULL) {
        fail_oom(r);
        return -1;
    }
    for (uint32_t i = 0; i < arr->n; i++) {
        const mv_jv *e = &arr->u.items[i];
        /* Names go to SQLite as C strings: one with U+0000 cannot exist. */
        if (!mv_jis_string(e) || e->n == 0 || memchr(e->u.s, '\0', e->n) != NULL) {
            mv_service_fail(r, 400, "invalid_request",
                            "\"tools\"[%u] must be a non-empty tool name", (unsigned)i);
            return -1;
        }
        char *copy = mv_arena_alloc(a, (size_t)e->n + 1);
        if (copy == NULL) {
            fail_oom(r);
            return -1;
        }
        memcpy(copy, e->u.s, e->n);
        copy[e->n] = '\0';
        v[i] = copy;
    }
    *names = v;
    *n = arr->n;
    return 0;
}
