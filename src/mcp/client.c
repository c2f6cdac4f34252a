/*
 * The MCP client's protocol logic behind mv_mcp_fetch: reach a server over
 * its transport, agree on a protocol version, and fetch the lists an agent
 * would show its model (tools, prompts, resources, resource templates).
 *
 * Version negotiation follows the 2026-07-28 specification's backward
 * compatibility rules. Unless the transport is the legacy HTTP+SSE one, the
 * newest (modern, stateless) version is tried first with server/discover,
 * the version and client capabilities in the request's _meta:
 *   - a result listing the version: modern; every later request carries
 *     the same _meta, and no session exists;
 *   - UnsupportedProtocolVersionError: the newest version in its
 *     `supported` list that mcpvet knows is used (a modern one is retried
 *     with server/discover, a legacy one goes to initialize);
 *   - any other JSON-RPC error (method not found, invalid params...), an
 *     HTTP 4xx/5xx without such an error, or on stdio no answer within the
 *     probe budget: a legacy server, so the initialize handshake follows,
 *     offering the newest legacy version (2025-11-25) and accepting any
 *     legacy version mcpvet knows, then notifications/initialized. A stdio
 *     server that exited on the probe is started again first; one that
 *     stayed silent keeps its process (the late answer is skipped).
 * Over streamable HTTP, an initialize that fails with a 4xx (other than
 * 401/403) falls back to the legacy HTTP+SSE transport.
 *
 * Lists follow nextCursor to the end, capped in pages and items, and a
 * cursor seen before is a loop (a protocol error). Items are re-emitted
 * compactly, exactly as parsed, into one JSON array per list.
 */
#include "curl_dl.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcp/session.h"
#include "mcp/transport.h"
#include "mcpvet/arena.h"
#include "mcpvet/mcp.h"

#define MODERN_VERSION "2026-07-28"
#define NEWEST_LEGACY_VERSION "2025-11-25"
/* A modern version's number of retries after UnsupportedProtocolVersion. */
#define MAX_VERSION_RETRIES 3
/* Lower bound of the stdio probe's budget (a third of the start-up one). */
#define MIN_PROBE_MS 500u

static const char *const known_versions[] = {MODERN_VERSION, "2025-11-25", "2025-06-18",
                                             "2025-03-26",   "2024-11-05", NULL};

const char *const *mv_mcp_protocol_versions(void) {
    return known_versions;
}

const char *mv_mcp_status_name(mv_mcp_status s) {
    switch (s) {
    case MV_MCP_OK:
        return "ok";
    case MV_MCP_TIMEOUT:
        return "timeout";
    case MV_MCP_SPAWN_FAILED:
        return "spawn_failed";
    case MV_MCP_CONNECT_FAILED:
        return "connect_failed";
    case MV_MCP_PROTOCOL_ERROR:
        return "protocol_error";
    case MV_MCP_SERVER_ERROR:
        return "server_error";
    case MV_MCP_AUTH_REQUIRED:
        return "auth_required";
    case MV_MCP_CLOSED:
        return "closed";
    case MV_MCP_CAP_HIT:
        return "cap_hit";
    case MV_MCP_NEEDS_INPUT:
        return "needs_input";
    case MV_MCP_DISABLED:
        return "disabled";
    case MV_MCP_INVALID_CONFIG:
        return "invalid_config";
    }
    return "unknown";
}

/* libcurl is loaded and initialised on first use (curl_dl.h); calling
 * this only makes that happen now. */
int mv_mcp_global_init(void) {
    return mv_curl_ready() ? MV_OK : MV_ENOMEM;
}

void mv_mcp_global_cleanup(void) {
    mv_curl_cleanup();
}

/* Modern versions carry everything per request (2026-07-28 and later). */
static bool is_modern(const char *v) {
    return strcmp(v, MODERN_VERSION) >= 0;
}

static const char *known_version(const char *s, size_t len) {
    for (size_t i = 0; known_versions[i] != NULL; i++)
        if (strlen(known_versions[i]) == len && memcmp(known_versions[i], s, len) == 0)
            return known_versions[i];
    return NULL;
}

static bool array_has(const mv_jv *arr, const char *v) {
    size_t n = strlen(v);
    for (size_t i = 0; i < mv_jarray_size(arr); i++) {
        const mv_jv *e = mv_jarray_get(arr, i);
        if (mv_jstring_len(e) == n && memcmp(mv_jstring(e), v, n) == 0)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------------ state */

typedef struct fetch {
    const mv_server_config *server;
    mv_mcp_options o;
    mv_mcp_limits lim;
    mv_mcp_result *res;
    mv_rpc rpc;
    mv_mcp_transport *t;
    mv_transport kind;
    uint64_t startup_deadline;
    bool modern;
    char version[16];
    bool cap_tools, cap_prompts, cap_resources;
    bool stopped; /* a failure ended the fetch; res->status says which */
    bool oom;
    mv_arena *keep; /* cursors of the list being fetched */
    mv_mcp_open_fn open; /* NULL = the real transports */
    void *open_arg;
} fetch;

static void progress(fetch *f, const char *phase) {
    if (f->o.progress != NULL)
        f->o.progress(f->o.progress_arg, f->server, phase);
}

static void stop(fetch *f, const mv_mcp_failure *fail) {
    if (f->stopped)
        return;
    f->stopped = true;
    f->res->status = fail->status != MV_MCP_OK ? fail->status : MV_MCP_PROTOCOL_ERROR;
    snprintf(f->res->reason, sizeof f->res->reason, "%s", fail->reason);
}

static void stopf(fetch *f, mv_mcp_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void stopf(fetch *f, mv_mcp_status st, const char *fmt, ...) {
    mv_mcp_failure fail;
    va_list ap;
    memset(&fail, 0, sizeof fail);
    fail.status = st;
    va_start(ap, fmt);
    vsnprintf(fail.reason, sizeof fail.reason, fmt, ap);
    va_end(ap);
    stop(f, &fail);
}

static int open_transport(fetch *f, mv_transport kind, mv_mcp_failure *fail) {
    mv_mcp_transport *t = NULL;
    int rc;
    memset(fail, 0, sizeof(*fail));
    switch (kind) {
    case MV_TRANSPORT_STDIO:
    case MV_TRANSPORT_HTTP:
    case MV_TRANSPORT_SSE:
        if (f->open != NULL)
            rc = f->open(f->open_arg, &t, kind, f->server, &f->lim, f->startup_deadline, fail);
        else if (kind == MV_TRANSPORT_STDIO)
            rc = mv_mcp_stdio_open(&t, f->server, &f->lim, f->startup_deadline, fail);
        else if (kind == MV_TRANSPORT_HTTP)
            rc = mv_mcp_http_open(&t, f->server, &f->lim, f->startup_deadline, fail);
        else
            rc = mv_mcp_sse_open(&t, f->server, &f->lim, f->startup_deadline, fail);
        break;
    default:
        fail->status = MV_MCP_INVALID_CONFIG;
        snprintf(fail->reason, sizeof fail->reason, "no transport configured");
        return -1;
    }
    if (rc != 0 || t == NULL) {
        if (fail->status == MV_MCP_OK)
            fail->status = kind == MV_TRANSPORT_STDIO ? MV_MCP_SPAWN_FAILED : MV_MCP_CONNECT_FAILED;
        return -1;
    }
    f->t = t;
    f->rpc.t = t;
    f->kind = kind;
    f->res->transport = kind;
    return 0;
}

static void close_transport(fetch *f, mv_mcp_result *r) {
    if (f->t != NULL)
        f->t->ops->close(f->t, r);
    f->t = NULL;
    f->rpc.t = NULL;
}

/* --------------------------------------------------------------- messages */

static void write_client_info(mv_jw *w, const char *key) {
    mv_jw_obj_begin(w, key);
    mv_jw_cstr(w, "name", "mcpvet");
    mv_jw_cstr(w, "version", MCPVET_VERSION);
    mv_jw_obj_end(w);
}

/* The per-request _meta of modern versions. */
static void write_meta(mv_jw *w, const char *version) {
    mv_jw_obj_begin(w, "_meta");
    mv_jw_cstr(w, "io.modelcontextprotocol/protocolVersion", version);
    mv_jw_obj_begin(w, "io.modelcontextprotocol/clientCapabilities");
    mv_jw_obj_end(w);
    write_client_info(w, "io.modelcontextprotocol/clientInfo");
    mv_jw_obj_end(w);
}

static void discover_params(mv_jw *w, void *arg) {
    write_meta(w, (const char *)arg);
}

static void initialize_params(mv_jw *w, void *arg) {
    mv_jw_cstr(w, "protocolVersion", (const char *)arg);
    mv_jw_obj_begin(w, "capabilities");
    mv_jw_obj_end(w);
    write_client_info(w, "clientInfo");
}

typedef struct list_params_arg {
    const char *modern_version; /* NULL for legacy versions */
    mv_str cursor;              /* ptr NULL: first page */
} list_params_arg;

static void list_params(mv_jw *w, void *arg) {
    const list_params_arg *a = arg;
    if (a->cursor.ptr != NULL)
        mv_jw_str(w, "cursor", a->cursor);
    if (a->modern_version != NULL)
        write_meta(w, a->modern_version);
}

/* ------------------------------------------------------------- server info */

/* A copy from the result's allocator. Without len_out (a C string: name,
 * version) only up to an embedded NUL, so freeing it with strlen + 1 gives
 * the allocator the size it was asked for. */
static char *dup_string(const mv_allocator *a, const mv_jv *v, size_t *len_out) {
    const char *s = mv_jstring(v);
    size_t n = mv_jstring_len(v);
    char *p;
    if (s == NULL)
        return NULL;
    if (len_out == NULL && memchr(s, '\0', n) != NULL)
        n = strlen(s);
    p = mv_alloc(a, n + 1);
    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
        if (len_out != NULL)
            *len_out = n;
    }
    return p;
}

static bool has_cap(const mv_jv *caps, const char *name) {
    const mv_jv *c = mv_jobject_get(caps, name);
    return c != NULL && !mv_jis_null(c) && !mv_jis(c, MV_JFALSE);
}

static void free_strings(mv_mcp_result *r) {
    const mv_allocator *a = r->allocator;
    if (r->server_name != NULL)
        mv_free(a, r->server_name, strlen(r->server_name) + 1);
    if (r->server_version != NULL)
        mv_free(a, r->server_version, strlen(r->server_version) + 1);
    if (r->instructions != NULL)
        mv_free(a, r->instructions, r->instructions_len + 1);
    r->server_name = r->server_version = r->instructions = NULL;
    r->instructions_len = 0;
}

/* serverInfo, capabilities and instructions of an initialize or discover
 * result. */
static void take_server_info(fetch *f, const mv_jv *result) {
    const mv_jv *caps = mv_jobject_get(result, "capabilities");
    const mv_jv *info = mv_jobject_get(result, "serverInfo");
    const mv_jv *instr = mv_jobject_get(result, "instructions");
    if (info == NULL) /* 2026-07-28 moved it into the result's _meta */
        info =
            mv_jobject_get(mv_jobject_get(result, "_meta"), "io.modelcontextprotocol/serverInfo");
    f->cap_tools = has_cap(caps, "tools");
    f->cap_prompts = has_cap(caps, "prompts");
    f->cap_resources = has_cap(caps, "resources");
    free_strings(f->res);
    const mv_allocator *a = f->res->allocator;
    f->res->server_name = dup_string(a, mv_jobject_get(info, "name"), NULL);
    f->res->server_version = dup_string(a, mv_jobject_get(info, "version"), NULL);
    f->res->instructions = dup_string(a, instr, &f->res->instructions_len);
    if ((f->res->server_name == NULL && mv_jis_string(mv_jobject_get(info, "name"))) ||
        (f->res->server_version == NULL && mv_jis_string(mv_jobject_get(info, "version"))) ||
        (f->res->instructions == NULL && mv_jis_string(instr)))
        f->oom = true;
}

static void agree(fetch *f, const char *version, bool modern) {
    snprintf(f->version, sizeof f->version, "%s", version);
    snprintf(f->res->protocol_version, sizeof f->res->protocol_version, "%s", version);
    f->modern = modern;
    f->rpc.version = f->version;
}

/* "a", "b" of the versions a server listed (render-safe) for a reason. */
static void list_versions(char *dst, size_t size, const mv_jv *arr) {
    size_t o = 0;
    dst[0] = '\0';
    for (size_t i = 0; i < mv_jarray_size(arr) && i < 6 && o + 40 < size; i++) {
        char q[MV_JSON_QUOTE_SIZE(16)];
        const mv_jv *e = mv_jarray_get(arr, i);
        if (!mv_jis_string(e))
            continue;
        mv_json_quote(q, mv_jstring(e), mv_jstring_len(e), 16);
        o += (size_t)snprintf(dst + o, size - o, "%s%s", o > 0 ? ", " : "", q);
    }
    if (o == 0)
        snprintf(dst, size, "none");
}

/* The newest version in `arr` that mcpvet knows and has not tried. */
static const char *pick_version(const mv_jv *arr, const char *const *tried, size_t n_tried) {
    for (size_t i = 0; known_versions[i] != NULL; i++) {
        bool skip = false;
        for (size_t k = 0; k < n_tried && !skip; k++)
            skip = strcmp(tried[k], known_versions[i]) == 0;
        if (!skip && array_has(arr, known_versions[i]))
            return known_versions[i];
    }
    return NULL;
}

/* ------------------------------------------------------------- handshake */

typedef enum probe_outcome { PROBE_MODERN, PROBE_LEGACY, PROBE_FAILED } probe_outcome;

static bool http_kind(const fetch *f) {
    return f->kind == MV_TRANSPORT_HTTP || f->kind == MV_TRANSPORT_SSE;
}

/* An HTTP failure that says "not a modern endpoint" rather than "cannot
 * reach it" or "not allowed". */
static bool http_says_legacy(int http_status) {
    return http_status >= 400 && http_status != 401 && http_status != 403;
}

/*
 * server/discover with `version` (and the versions the server names when
 * it rejects one). *legacy_offer is set to the legacy version to offer in
 * initialize when the answer names one, else left NULL. Returns 0 or
 * MV_ENOMEM.
 */
static int probe_modern(fetch *f, const char *version, bool forced, probe_outcome *out,
                        const char **legacy_offer) {
    const char *tried[MAX_VERSION_RETRIES + 1];
    size_t n_tried = 0;
    mv_rpc_reply rep;
    char vs[200];
    *out = PROBE_FAILED;
    *legacy_offer = NULL;
    for (;;) {
        uint64_t now = mv_mcp_now_ms();
        uint64_t deadline = f->startup_deadline;
        if (f->kind == MV_TRANSPORT_STDIO && !forced) {
            /* A legacy server may never answer an unknown method sent
             * before initialize: keep time for the handshake. */
            uint64_t budget = f->o.startup_timeout_ms / 3;
            if (budget < MIN_PROBE_MS)
                budget = MIN_PROBE_MS;
            if (now + budget < deadline)
                deadline = now + budget;
        }
        tried[n_tried++] = version;
        f->rpc.version = version;
        if (mv_rpc_call(&f->rpc, "server/discover", discover_params, (void *)version, deadline,
                        &rep) != MV_OK)
            return MV_ENOMEM;
        if (rep.kind == MV_RPC_RESULT) {
            const mv_jv *sup = mv_jobject_get(rep.result, "supportedVersions");
            const char *pick;
            if (!mv_jis_array(sup)) {
                if (forced) {
                    stopf(f, MV_MCP_PROTOCOL_ERROR,
                          "server/discover: the result has no \"supportedVersions\" array");
                    return MV_OK;
                }
                *out = PROBE_LEGACY; /* not a modern answer */
                return MV_OK;
            }
            if (array_has(sup, version)) {
                agree(f, version, true);
                take_server_info(f, rep.result);
                *out = PROBE_MODERN;
                return MV_OK;
            }
            pick = forced ? NULL : pick_version(sup, tried, n_tried);
            if (pick == NULL) {
                list_versions(vs, sizeof vs, sup);
                stopf(f, MV_MCP_PROTOCOL_ERROR,
                      "server/discover: no protocol version in common (the server supports %s)",
                      vs);
                return MV_OK;
            }
            if (!is_modern(pick)) {
                *legacy_offer = pick;
                *out = PROBE_LEGACY;
                return MV_OK;
            }
            if (n_tried > MAX_VERSION_RETRIES) {
                stopf(f, MV_MCP_PROTOCOL_ERROR, "server/discover: no version was accepted");
                return MV_OK;
            }
            version = pick;
            continue;
        }
        if (rep.kind == MV_RPC_ERROR) {
            const mv_jv *sup = NULL;
            if (mv_rpc_is_unsupported_version(&rep, &sup)) {
                const char *pick = forced ? NULL : pick_version(sup, tried, n_tried);
                if (pick == NULL) {
                    list_versions(vs, sizeof vs, sup);
                    stopf(f, MV_MCP_PROTOCOL_ERROR,
                          "server/discover: no protocol version in common (the server supports "
                          "%s)",
                          vs);
                    return MV_OK;
                }
                if (!is_modern(pick)) {
                    *legacy_offer = pick;
                    *out = PROBE_LEGACY;
                    return MV_OK;
                }
                if (n_tried > MAX_VERSION_RETRIES) {
                    stopf(f, MV_MCP_PROTOCOL_ERROR, "server/discover: no version was accepted");
                    return MV_OK;
                }
                version = pick;
                continue;
            }
            if (forced || rep.http_status == 401 || rep.http_status == 403) {
                if (rep.http_status == 401 || rep.http_status == 403)
                    rep.fail.status = MV_MCP_AUTH_REQUIRED;
                stop(f, &rep.fail);
                return MV_OK;
            }
            *out = PROBE_LEGACY; /* method not found, invalid params...: legacy */
            return MV_OK;
        }
        /* No answer. */
        if (!forced && f->kind == MV_TRANSPORT_STDIO && rep.fail.status == MV_MCP_TIMEOUT) {
            mv_rpc_abandon_last(&f->rpc);
            *out = PROBE_LEGACY;
            return MV_OK;
        }
        if (!forced && f->kind == MV_TRANSPORT_STDIO && rep.fail.status == MV_MCP_CLOSED) {
            /* Some legacy servers exit on an unknown method: start again. */
            mv_mcp_failure of;
            close_transport(f, NULL);
            if (open_transport(f, MV_TRANSPORT_STDIO, &of) != 0) {
                stop(f, &of);
                return MV_OK;
            }
            *out = PROBE_LEGACY;
            return MV_OK;
        }
        if (!forced && http_kind(f) && rep.fail.status != MV_MCP_AUTH_REQUIRED &&
            http_says_legacy(rep.http_status)) {
            *out = PROBE_LEGACY;
            return MV_OK;
        }
        stop(f, &rep.fail);
        return MV_OK;
    }
}

/* initialize + notifications/initialized. Returns 0 or MV_ENOMEM. */
static int initialize(fetch *f, const char *offer, bool forced) {
    mv_rpc_reply rep;
    mv_mcp_failure nf;
    for (int attempt = 0;; attempt++) {
        f->rpc.version = NULL; /* nothing agreed yet */
        if (mv_rpc_call(&f->rpc, "initialize", initialize_params, (void *)offer,
                        f->startup_deadline, &rep) != MV_OK)
            return MV_ENOMEM;
        if (rep.kind == MV_RPC_RESULT)
            break;
        /* Streamable HTTP refused: try the legacy HTTP+SSE transport. */
        if (attempt == 0 && f->kind == MV_TRANSPORT_HTTP && http_says_legacy(rep.http_status) &&
            rep.fail.status != MV_MCP_AUTH_REQUIRED && rep.fail.status != MV_MCP_TIMEOUT) {
            mv_mcp_failure of;
            close_transport(f, NULL);
            progress(f, "handshake (legacy SSE)");
            if (open_transport(f, MV_TRANSPORT_SSE, &of) != 0) {
                stop(f, &of);
                return MV_OK;
            }
            continue;
        }
        if (rep.http_status == 401 || rep.http_status == 403)
            rep.fail.status = MV_MCP_AUTH_REQUIRED;
        stop(f, &rep.fail);
        return MV_OK;
    }
    const mv_jv *pv = mv_jobject_get(rep.result, "protocolVersion");
    const char *v = known_version(mv_jstring(pv) != NULL ? mv_jstring(pv) : "", mv_jstring_len(pv));
    if (v == NULL || is_modern(v)) {
        char q[MV_JSON_QUOTE_SIZE(24)];
        if (!mv_jis_string(pv)) {
            stopf(f, MV_MCP_PROTOCOL_ERROR, "initialize: the result has no protocolVersion string");
            return MV_OK;
        }
        mv_json_quote(q, mv_jstring(pv), mv_jstring_len(pv), 24);
        stopf(f, MV_MCP_PROTOCOL_ERROR,
              "initialize: the server chose protocol version %s, which mcpvet does not speak", q);
        return MV_OK;
    }
    if (forced && strcmp(v, offer) != 0) {
        stopf(f, MV_MCP_PROTOCOL_ERROR,
              "initialize: the server chose protocol version \"%s\" instead of the forced \"%s\"",
              v, offer);
        return MV_OK;
    }
    agree(f, v, false);
    take_server_info(f, rep.result);
    int rc =
        mv_rpc_notify(&f->rpc, "notifications/initialized", NULL, NULL, f->startup_deadline, &nf);
    if (rc == MV_ENOMEM)
        return rc;
    if (rc != 0)
        stop(f, &nf);
    return MV_OK;
}

static int handshake(fetch *f) {
    const char *forced = f->o.protocol_version;
    const char *offer = NULL;
    bool want_modern = forced != NULL ? is_modern(forced) : f->kind != MV_TRANSPORT_SSE;
    if (want_modern) {
        probe_outcome po;
        int rc =
            probe_modern(f, forced != NULL ? forced : MODERN_VERSION, forced != NULL, &po, &offer);
        if (rc != MV_OK || po != PROBE_LEGACY)
            return rc;
    }
    if (forced != NULL && !is_modern(forced))
        offer = forced;
    return initialize(f, offer != NULL ? offer : NEWEST_LEGACY_VERSION, forced != NULL);
}

/* ------------------------------------------------------------------ lists */

typedef struct list_spec {
    const char *method; /* "tools/list" */
    const char *key;    /* "tools" */
    const char *phase;  /* progress text */
    mv_buf *dst;
    size_t *count;
    bool required; /* announced: an error is a failure, not an absent list */
} list_spec;

static bool cursor_seen(const mv_str *seen, size_t n, const char *c, size_t len) {
    for (size_t i = 0; i < n; i++)
        if (seen[i].len == len && memcmp(seen[i].ptr, c, len) == 0)
            return true;
    return false;
}

/* One list method to the end. Failures stop the fetch (f->stopped) with
 * what was fetched kept. Returns 0 or MV_ENOMEM. */
static int fetch_list(fetch *f, const list_spec *ls) {
    mv_str *seen = NULL;
    size_t n_seen = 0;
    uint32_t pages = 0;
    list_params_arg lp;
    mv_rpc_reply rep;
    mv_buf *dst = ls->dst;
    char q[MV_JSON_QUOTE_SIZE(24)];
    progress(f, ls->phase);
    mv_arena_reset(f->keep);
    seen = mv_arena_alloc(f->keep, (size_t)f->o.max_pages * sizeof(*seen));
    if (seen == NULL)
        return MV_ENOMEM;
    lp.modern_version = f->modern ? f->version : NULL;
    lp.cursor = MV_STR_NULL;
    dst->len = 0;
    mv_buf_putc(dst, '[');
    for (;;) {
        uint64_t deadline = mv_mcp_now_ms() + f->o.request_timeout_ms;
        if (mv_rpc_call(&f->rpc, ls->method, list_params, &lp, deadline, &rep) != MV_OK)
            return MV_ENOMEM;
        if (rep.kind == MV_RPC_ERROR && pages == 0 && !ls->required) {
            dst->len = 0; /* not offered */
            return MV_OK;
        }
        if (rep.kind != MV_RPC_RESULT) {
            stop(f, &rep.fail);
            break;
        }
        const mv_jv *rt = mv_jobject_get(rep.result, "resultType");
        if (rt != NULL &&
            !(mv_jstring_len(rt) == 8 && memcmp(mv_jstring(rt), "complete", 8) == 0)) {
            mv_json_quote(q, mv_jstring(rt) != NULL ? mv_jstring(rt) : "", mv_jstring_len(rt), 24);
            stopf(f, MV_MCP_PROTOCOL_ERROR,
                  "%s: the result is not complete (resultType %s): a scan cannot give input",
                  ls->method, q);
            break;
        }
        const mv_jv *items = mv_jobject_get(rep.result, ls->key);
        if (!mv_jis_array(items)) {
            stopf(f, MV_MCP_PROTOCOL_ERROR, "%s: the result has no \"%s\" array", ls->method,
                  ls->key);
            break;
        }
        for (size_t i = 0; i < mv_jarray_size(items); i++) {
            if (*ls->count >= f->o.max_items) {
                stopf(f, MV_MCP_CAP_HIT, "%s: the server lists more than %u %s", ls->method,
                      f->o.max_items, ls->key);
                break;
            }
            if (*ls->count > 0)
                mv_buf_putc(dst, ',');
            mv_json_write(dst, mv_jarray_get(items, i));
            (*ls->count)++;
        }
        if (f->stopped)
            break;
        pages++;
        const mv_jv *next = mv_jobject_get(rep.result, "nextCursor");
        if (next == NULL || mv_jis_null(next) || (mv_jis_string(next) && next->n == 0))
            break;
        if (!mv_jis_string(next)) {
            stopf(f, MV_MCP_PROTOCOL_ERROR, "%s: nextCursor is %s, not a string", ls->method,
                  mv_json_type(next));
            break;
        }
        if (cursor_seen(seen, n_seen, mv_jstring(next), mv_jstring_len(next))) {
            mv_json_quote(q, mv_jstring(next), mv_jstring_len(next), 24);
            stopf(f, MV_MCP_PROTOCOL_ERROR,
                  "%s: the server repeated the cursor %s after %u pages (a pagination loop)",
                  ls->method, q, pages);
            break;
        }
        if (pages >= f->o.max_pages) {
            stopf(f, MV_MCP_CAP_HIT, "%s: the server has more than %u pages", ls->method,
                  f->o.max_pages);
            break;
        }
        char *copy = mv_arena_memdup(f->keep, mv_jstring(next), mv_jstring_len(next));
        if (copy == NULL)
            return MV_ENOMEM;
        seen[n_seen].ptr = copy;
        seen[n_seen].len = mv_jstring_len(next);
        lp.cursor = seen[n_seen++];
    }
    if (f->stopped && *ls->count == 0 && pages == 0)
        dst->len = 0; /* nothing of it was fetched */
    else
        mv_buf_putc(dst, ']');
    return dst->failed ? MV_ENOMEM : MV_OK;
}

static int fetch_lists(fetch *f) {
    mv_mcp_result *r = f->res;
    const list_spec specs[] = {
        {"tools/list", "tools", "listing tools", &r->tools, &r->n_tools, f->cap_tools},
        {"prompts/list", "prompts", "listing prompts", &r->prompts, &r->n_prompts, true},
        {"resources/list", "resources", "listing resources", &r->resources, &r->n_resources, true},
        {"resources/templates/list", "resourceTemplates", "listing resource templates",
         &r->resource_templates, &r->n_resource_templates, false},
    };
    const bool wanted[] = {true, f->cap_prompts, f->cap_resources, f->cap_resources};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0] && !f->stopped; i++) {
        if (!wanted[i])
            continue;
        int rc = fetch_list(f, &specs[i]);
        if (rc != MV_OK)
            return rc;
    }
    return MV_OK;
}

/* ---------------------------------------------------------------- secrets */

/* Shorter values are too common to mask without mangling ordinary text. */
#define MIN_SECRET_LEN 4

/* Replace every occurrence of `v` (`vl` bytes) in s (*len bytes) with "***". */
static void mask(char *s, size_t *len, const char *v, size_t vl) {
    size_t r = 0, w = 0;
    while (r < *len) {
        if (*len - r >= vl && memcmp(s + r, v, vl) == 0) {
            memcpy(s + w, "***", 3);
            w += 3;
            r += vl;
        } else {
            s[w++] = s[r++];
        }
    }
    *len = w;
    s[w] = '\0';
}

/* Mask every occurrence of the configured secret values (env and header
 * values) in `s`, in place, both raw and in the escaped form reasons quote
 * server text in. A server may echo what it was given into an error
 * message or its stderr; neither may carry it further. */
static bool redact(char *s, size_t *len, const mv_server_config *server,
                   const mv_allocator *a) {
    const mv_config_kv *sets[2] = {server->env, server->headers};
    size_t counts[2] = {server->n_env, server->n_headers};
    if (s == NULL)
        return true;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < counts[k]; i++) {
            const char *v = sets[k][i].value;
            size_t vl = v != NULL ? strlen(v) : 0;
            char *q;
            if (vl < MIN_SECRET_LEN)
                continue;
            mask(s, len, v, vl);
            q = mv_alloc(a, MV_JSON_QUOTE_SIZE(vl));
            if (q != NULL) {
                size_t ql = mv_json_quote(q, v, vl, vl);
                if (ql - 2 != vl || memcmp(q + 1, v, vl) != 0)
                    mask(s, len, q + 1, ql - 2); /* without the quotes */
                mv_free(a, q, MV_JSON_QUOTE_SIZE(vl));
            } else {
                /* No room to find the escaped form: mask the whole text
                 * rather than risk showing a secret. */
                memset(s, '*', *len);
                return false;
            }
        }
    return true;
}

/* ------------------------------------------------------------------ fetch */

static void apply_defaults(mv_mcp_options *o, const mv_mcp_options *in) {
    if (in != NULL)
        *o = *in;
    else
        memset(o, 0, sizeof(*o));
    if (o->startup_timeout_ms == 0)
        o->startup_timeout_ms = MV_MCP_DEFAULT_STARTUP_TIMEOUT_MS;
    if (o->request_timeout_ms == 0)
        o->request_timeout_ms = MV_MCP_DEFAULT_REQUEST_TIMEOUT_MS;
    if (o->max_message_bytes == 0)
        o->max_message_bytes = MV_MCP_DEFAULT_MAX_MESSAGE_BYTES;
    if (o->max_total_bytes == 0)
        o->max_total_bytes = MV_MCP_DEFAULT_MAX_TOTAL_BYTES;
    if (o->max_pages == 0)
        o->max_pages = MV_MCP_DEFAULT_MAX_PAGES;
    if (o->max_items == 0)
        o->max_items = MV_MCP_DEFAULT_MAX_ITEMS;
    if (o->max_stderr_bytes == 0)
        o->max_stderr_bytes = MV_MCP_DEFAULT_MAX_STDERR_BYTES;
}

static void result_init(mv_mcp_result *r, const mv_allocator *a) {
    memset(r, 0, sizeof(*r));
    r->allocator = a;
    mv_buf_init(&r->tools, a);
    mv_buf_init(&r->prompts, a);
    mv_buf_init(&r->resources, a);
    mv_buf_init(&r->resource_templates, a);
    r->exit_status = -1;
}

int mv_mcp_fetch(mv_mcp_result *out, const mv_server_config *server, const mv_mcp_options *opts,
                 mv_error *err) {
    return mv_mcp_fetch_with(out, server, opts, NULL, NULL, err);
}

int mv_mcp_fetch_with(mv_mcp_result *out, const mv_server_config *server,
                      const mv_mcp_options *opts, mv_mcp_open_fn open, void *open_arg,
                      mv_error *err) {
    fetch f;
    mv_mcp_failure fail;
    uint64_t t0 = mv_mcp_now_ms();
    int rc = MV_OK;
    if (out == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_mcp_fetch: no result to fill");
    result_init(out, opts != NULL ? opts->allocator : NULL);
    memset(&f, 0, sizeof f);
    f.res = out;
    if (server == NULL || server->readiness != MV_SERVER_READY ||
        server->transport == MV_TRANSPORT_NONE) {
        out->status = MV_MCP_INVALID_CONFIG;
        snprintf(out->reason, sizeof out->reason, "the server is not ready to be reached");
        return mv_error_set(err, MV_EINVAL, "mv_mcp_fetch: the server is not ready");
    }
    apply_defaults(&f.o, opts);
    if (f.o.protocol_version != NULL &&
        known_version(f.o.protocol_version, strlen(f.o.protocol_version)) == NULL) {
        out->status = MV_MCP_INVALID_CONFIG;
        snprintf(out->reason, sizeof out->reason, "unknown protocol version requested");
        return mv_error_set(err, MV_EINVAL, "mv_mcp_fetch: unknown protocol version");
    }
    f.server = server;
    f.open = open;
    f.open_arg = open_arg;
    f.lim.max_message_bytes = f.o.max_message_bytes;
    f.lim.max_total_bytes = f.o.max_total_bytes;
    f.lim.max_stderr_bytes = f.o.max_stderr_bytes;
    f.startup_deadline = t0 + f.o.startup_timeout_ms;
    out->transport = server->transport;
    if (mv_rpc_init(&f.rpc, NULL, f.o.max_total_bytes, f.o.allocator) != MV_OK ||
        (f.keep = mv_arena_new(f.o.allocator, 0)) == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    progress(&f, "starting");
    if (open_transport(&f, server->transport, &fail) != 0) {
        stop(&f, &fail);
        goto done;
    }
    progress(&f, "handshake");
    rc = handshake(&f);
    if (rc == MV_OK && !f.stopped)
        rc = fetch_lists(&f);
    if (rc == MV_OK && f.oom)
        rc = MV_ENOMEM;
done:
    if (f.t != NULL)
        progress(&f, "stopping");
    close_transport(&f, out);
    mv_rpc_release(&f.rpc);
    mv_arena_free(f.keep);
    if (f.stopped && (out->tools.len > 0 || out->prompts.len > 0 || out->resources.len > 0 ||
                      out->resource_templates.len > 0))
        out->partial = true;
    size_t reason_len = strlen(out->reason);
    if (!redact(out->reason, &reason_len, server, f.o.allocator) ||
        !redact(out->stderr_text, &out->stderr_len, server, f.o.allocator))
        rc = MV_ENOMEM;
    out->elapsed_ms = mv_mcp_now_ms() - t0;
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "mv_mcp_fetch: out of memory");
    return rc;
}

void mv_mcp_result_free(mv_mcp_result *r) {
    if (r == NULL)
        return;
    free_strings(r);
    free(r->stderr_text);
    r->stderr_text = NULL;
    r->stderr_len = 0;
    mv_buf_release(&r->tools);
    mv_buf_release(&r->prompts);
    mv_buf_release(&r->resources);
    mv_buf_release(&r->resource_templates);
}
