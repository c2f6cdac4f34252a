/*
 * The MCP server of `mcpvet mcp` (mcpserver.h). One message per line in,
 * one reply per request out, in order. Tool results carry the shared
 * operations' JSON as text (and as structuredContent from 2025-06-18 on);
 * a failed operation is a tool result with isError, so the model reads
 * why; a malformed request is a JSON-RPC error.
 *
 * What the tool returns about a scanned tool is written by the shared
 * operations, which pass every such string through mv_evidence_render:
 * a hidden character in a poisoned description reaches the model as
 * visible "\uXXXX" text, never as itself.
 */
#include "mcpserver/mcpserver.h"

#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/arena.h"
#include "mcpvet/report.h"

#ifndef MCPVET_VERSION
#define MCPVET_VERSION "unknown"
#endif

#define MODERN_VERSION "2026-07-28"
#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define RPC_PARSE_ERROR (-32700)
#define RPC_INVALID_REQUEST (-32600)
#define RPC_METHOD_NOT_FOUND (-32601)
#define RPC_INVALID_PARAMS (-32602)
#define RPC_UNSUPPORTED_VERSION (-32022)

static const char *const legacy_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                              "2024-11-05", NULL};

struct mv_mcpserver_session {
    mv_service *svc;
    bool allow_approval;
    char version[16]; /* agreed by initialize; "" before */
};

int mv_mcpserver_session_new(mv_mcpserver_session **out, mv_service *svc,
                             bool allow_agent_approval) {
    mv_mcpserver_session *s = calloc(1, sizeof *s);
    *out = s;
    if (s == NULL)
        return MV_ENOMEM;
    s->svc = svc;
    s->allow_approval = allow_agent_approval;
    return MV_OK;
}

void mv_mcpserver_session_free(mv_mcpserver_session *s) {
    free(s);
}

/* ---------------------------------------------------- the tool itself */

/* Its own description and schema pass `mcpvet scan` clean
 * (tests/integration/mcpserver.sh checks it): plain statements of what
 * each operation does, no instructions addressed to the model. */
static const char tool_description[] =
    "Reviews MCP tool definitions with mcpvet and its approval store. Operations: "
    "list (tools that are quarantined, changed since approval, or pending review); "
    "inspect (one tool: state, findings, its definition with invisible characters "
    "escaped, and the difference from the approved definition); scan_server (reach "
    "a configured server, scan what it advertises and record the states); "
    "scan_tools (scan tool definitions passed in the definitions argument; nothing "
    "is recorded); quarantine (keep tools of a server from being used); approve "
    "(record approval; only available when a person started mcpvet mcp with "
    "--allow-agent-approval).";

void mv_mcpserver_tool_definition(mv_buf *out) {
    mv_jw w;
    mv_jw_init_compact(&w, out);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "name", "quarantine_security");
    mv_jw_cstr(&w, "title", "mcpvet quarantine and approval review");
    mv_jw_cstr(&w, "description", tool_description);
    mv_jw_obj_begin(&w, "inputSchema");
    mv_jw_cstr(&w, "type", "object");
    mv_jw_obj_begin(&w, "properties");
    mv_jw_obj_begin(&w, "operation");
    mv_jw_cstr(&w, "type", "string");
    mv_jw_arr_begin(&w, "enum");
    static const char *const ops[] = {"list",       "inspect",    "scan_server",
                                      "scan_tools", "quarantine", "approve"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        mv_jw_cstr(&w, NULL, ops[i]);
    mv_jw_arr_end(&w);
    mv_jw_cstr(&w, "description", "What to do.");
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "server");
    mv_jw_cstr(&w, "type", "string");
    mv_jw_cstr(&w, "description",
               "Server name as configured (inspect, scan_server, quarantine, approve; "
               "optional filter for list).");
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "tool");
    mv_jw_cstr(&w, "type", "string");
    mv_jw_cstr(&w, "description", "Tool name (inspect).");
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "tools");
    mv_jw_cstr(&w, "type", "array");
    mv_jw_obj_begin(&w, "items");
    mv_jw_cstr(&w, "type", "string");
    mv_jw_obj_end(&w);
    mv_jw_cstr(&w, "description",
               "Tool names (quarantine, approve); quarantine without names covers the whole "
               "server.");
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "definitions");
    mv_jw_cstr(&w, "type", "array");
    mv_jw_obj_begin(&w, "items");
    mv_jw_cstr(&w, "type", "object");
    mv_jw_obj_end(&w);
    mv_jw_cstr(&w, "description", "Tool definitions as tools/list returns them (scan_tools).");
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "force");
    mv_jw_cstr(&w, "type", "boolean");
    mv_jw_cstr(&w, "description", "approve: also approve quarantined tools.");
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "reason");
    mv_jw_cstr(&w, "type", "string");
    mv_jw_cstr(&w, "description", "Note kept in the audit log (quarantine, approve).");
    mv_jw_obj_end(&w);
    mv_jw_obj_end(&w);
    mv_jw_arr_begin(&w, "required");
    mv_jw_cstr(&w, NULL, "operation");
    mv_jw_arr_end(&w);
    mv_jw_bool(&w, "additionalProperties", false);
    mv_jw_obj_end(&w);
    mv_jw_obj_begin(&w, "annotations");
    mv_jw_bool(&w, "readOnlyHint", false);
    mv_jw_bool(&w, "destructiveHint", false);
    mv_jw_bool(&w, "openWorldHint", true);
    mv_jw_obj_end(&w);
    mv_jw_obj_end(&w);
}

/* ------------------------------------------------------------ replies */

/* Write the message's id back exactly as it came (a string or a number). */
static void put_id(mv_jw *w, const mv_jv *id) {
    if (id == NULL)
        mv_jw_null(w, "id");
    else
        mv_jw_value(w, "id", id);
}

static void rpc_error(mv_buf *out, const mv_jv *id, int code, const char *message,
                      const char *const *supported) {
    mv_jw w;
    mv_jw_init_compact(&w, out);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "jsonrpc", "2.0");
    put_id(&w, id);
    mv_jw_obj_begin(&w, "error");
    mv_jw_int(&w, "code", code);
    mv_jw_cstr(&w, "message", message);
    if (supported != NULL) {
        mv_jw_obj_begin(&w, "data");
        mv_jw_arr_begin(&w, "supported");
        for (size_t i = 0; supported[i] != NULL; i++)
            mv_jw_cstr(&w, NULL, supported[i]);
        mv_jw_arr_end(&w);
        mv_jw_obj_end(&w);
    }
    mv_jw_obj_end(&w);
    mv_jw_obj_end(&w);
    mv_jw_finish(&w);
}

/* Start a result reply; the caller writes the result's members, then
 * calls result_end. */
static void result_begin(mv_jw *w, mv_buf *out, const mv_jv *id) {
    mv_jw_init_compact(w, out);
    mv_jw_obj_begin(w, NULL);
    mv_jw_cstr(w, "jsonrpc", "2.0");
    put_id(w, id);
    mv_jw_obj_begin(w, "result");
}

static void result_end(mv_jw *w, bool modern) {
    if (modern)
        mv_jw_cstr(w, "resultType", "complete");
    mv_jw_obj_end(w);
    mv_jw_obj_end(w);
    mv_jw_finish(w);
}

static void put_capabilities(mv_jw *w) {
    mv_jw_obj_begin(w, "capabilities");
    mv_jw_obj_begin(w, "tools");
    mv_jw_bool(w, "listChanged", false);
    mv_jw_obj_end(w);
    mv_jw_obj_end(w);
}

static void put_server_info(mv_jw *w, const char *key) {
    mv_jw_obj_begin(w, key);
    mv_jw_cstr(w, "name", "mcpvet");
    mv_jw_cstr(w, "version", MCPVET_VERSION);
    mv_jw_obj_end(w);
}

/* --------------------------------------------------------- tools/call */

/* A NUL-terminated copy of a string argument, NULL when absent; -1 when
 * present but not a usable string. */
static int arg_string(const mv_jv *args, mv_arena *a, const char *key, const char **out) {
    const mv_jv *v = mv_jobject_get(args, key);
    *out = NULL;
    if (v == NULL || mv_jis_null(v))
        return 0;
    if (!mv_jis_string(v) || memchr(v->u.s, '\0', v->n) != NULL)
        return -1;
    char *c = mv_arena_memdup(a, v->u.s, v->n + 1);
    if (c == NULL)
        return -1;
    c[v->n] = '\0';
    *out = c;
    return 0;
}

static bool version_at_least(const char *v, const char *min) {
    return v[0] != '\0' && strcmp(v, min) >= 0; /* dates compare as text */
}

/* Run one operation into `r` (the shared operations' JSON). */
static void run_operation(mv_mcpserver_session *s, const mv_jv *args, mv_arena *a,
                          mv_service_reply *r) {
    const char *op = NULL, *server = NULL, *tool = NULL, *reason = NULL;
    const char **names = NULL;
    size_t n_names = 0;
    if (args != NULL && !mv_jis_object(args)) {
        mv_service_fail(r, 400, "invalid_arguments", "arguments must be an object");
        return;
    }
    if (arg_string(args, a, "operation", &op) != 0 || arg_string(args, a, "server", &server) != 0 ||
        arg_string(args, a, "tool", &tool) != 0 || arg_string(args, a, "reason", &reason) != 0) {
        mv_service_fail(r, 400, "invalid_arguments",
                        "operation, server, tool and reason must be strings");
        return;
    }
    for (uint32_t i = 0; args != NULL && i < args->n; i++) {
        const char *k = args->u.members[i].key;
        size_t kl = args->u.members[i].key_len;
        static const char *const known[] = {"operation",   "server", "tool",   "tools",
                                            "definitions", "force",  "reason", NULL};
        bool ok = false;
        for (size_t j = 0; known[j] != NULL && !ok; j++)
            ok = strlen(known[j]) == kl && memcmp(known[j], k, kl) == 0;
        if (!ok) {
            mv_service_fail(r, 400, "invalid_arguments",
                            "unknown argument \"%.*s\" (see the input schema)",
                            (int)(kl > 64 ? 64 : kl), k);
            return;
        }
    }
    if (op == NULL) {
        mv_service_fail(r, 400, "invalid_arguments",
                        "operation is required: list, inspect, scan_server, scan_tools, "
                        "quarantine or approve");
        return;
    }
    if (strcmp(op, "list") == 0) {
        mv_service_tools(s->svc, server, MV_STATE_NONE, true, r);
        return;
    }
    if (strcmp(op, "scan_tools") == 0) {
        const mv_jv *defs = mv_jobject_get(args, "definitions");
        if (!mv_jis_array(defs)) {
            mv_service_fail(r, 400, "invalid_arguments",
                            "scan_tools needs definitions: an array of tool definitions");
            return;
        }
        mv_buf doc;
        mv_buf_init(&doc, NULL);
        mv_buf_puts(&doc, "{\"tools\":");
        mv_json_write(&doc, defs);
        mv_buf_puts(&doc, "}");
        if (doc.failed)
            mv_service_fail(r, 500, "internal", "out of memory");
        else
            mv_service_scan_document(s->svc, doc.data, doc.len, server != NULL ? server : "inline",
                                     MV_VERDICT_QUARANTINE, r);
        mv_buf_release(&doc);
        return;
    }
    /* Every other operation names a server. */
    bool known_op = strcmp(op, "inspect") == 0 || strcmp(op, "scan_server") == 0 ||
                    strcmp(op, "quarantine") == 0 || strcmp(op, "approve") == 0;
    if (!known_op) {
        mv_service_fail(r, 400, "invalid_arguments",
                        "unknown operation \"%s\": use list, inspect, scan_server, scan_tools, "
                        "quarantine or approve",
                        op);
        return;
    }
    if (server == NULL || server[0] == '\0') {
        mv_service_fail(r, 400, "invalid_arguments", "%s needs the server name", op);
        return;
    }
    if (strcmp(op, "inspect") == 0) {
        if (tool == NULL || tool[0] == '\0')
            mv_service_fail(r, 400, "invalid_arguments", "inspect needs the tool name");
        else
            mv_service_tool(s->svc, server, tool, false, r);
        return;
    }
    if (strcmp(op, "scan_server") == 0) {
        mv_service_scan_server(s->svc, server, MV_VERDICT_QUARANTINE, r);
        return;
    }
    if (mv_service_tool_names(mv_jobject_get(args, "tools"), a, &names, &n_names, r) != 0)
        return;
    if (strcmp(op, "quarantine") == 0) {
        mv_service_quarantine(s->svc, server, names, n_names,
                              reason != NULL ? reason : "quarantined through the MCP tool", r);
        return;
    }
    /* approve */
    if (!s->allow_approval) {
        mv_service_fail(r, 403, "approval_disabled",
                        "approval by an agent is disabled: a person reviews the findings and "
                        "approves with `mcpvet security approve %s %s` (add --force for a "
                        "quarantined tool), or starts `mcpvet mcp --allow-agent-approval`",
                        server, n_names > 0 ? "TOOL..." : "--all");
        return;
    }
    const mv_jv *force = mv_jobject_get(args, "force");
    if (force != NULL && force->type != MV_JTRUE && force->type != MV_JFALSE) {
        mv_service_fail(r, 400, "invalid_arguments", "force must be true or false");
        return;
    }
    mv_service_approve(s->svc, server, names, n_names, n_names == 0,
                       force != NULL && force->type == MV_JTRUE,
                       reason != NULL ? reason : "approved through the MCP tool", r);
}

static void on_tools_call(mv_mcpserver_session *s, const mv_jv *id, const mv_jv *params,
                          bool modern, mv_buf *out) {
    const mv_jv *name = mv_jobject_get(params, "name");
    if (!mv_jis_string(name) || name->n != strlen("quarantine_security") ||
        memcmp(name->u.s, "quarantine_security", name->n) != 0) {
        rpc_error(out, id, RPC_INVALID_PARAMS, "Unknown tool: this server has quarantine_security",
                  NULL);
        return;
    }
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_service_reply r;
    mv_service_reply_init(&r);
    if (a == NULL)
        mv_service_fail(&r, 500, "internal", "out of memory");
    else
        run_operation(s, mv_jobject_get(params, "arguments"), a, &r);
    /* The body is compact JSON ending with one newline: drop it. */
    size_t len = r.body.len;
    while (len > 0 && r.body.data[len - 1] == '\n')
        len--;
    const char *body = r.body.data != NULL ? r.body.data : "{}";
    if (len == 0)
        body = "{}", len = 2;
    mv_jw w;
    result_begin(&w, out, id);
    mv_jw_arr_begin(&w, "content");
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "type", "text");
    mv_jw_str(&w, "text", (mv_str){body, len});
    mv_jw_obj_end(&w);
    mv_jw_arr_end(&w);
    if (modern || version_at_least(s->version, "2025-06-18")) {
        /* Reports are pretty-printed: re-write the tree compactly, since
         * one message is one line. */
        const mv_jv *tree = NULL;
        mv_jerror je;
        if (a != NULL && mv_json_parse(&tree, a, NULL, body, len, &je) == MV_OK)
            mv_jw_value(&w, "structuredContent", tree);
    }
    mv_jw_bool(&w, "isError", r.status >= 400);
    result_end(&w, modern);
    mv_service_reply_release(&r);
    mv_arena_free(a);
}

/* ----------------------------------------------------------- dispatch */

static bool str_is(const mv_jv *v, const char *s) {
    return mv_jis_string(v) && v->n == strlen(s) && memcmp(v->u.s, s, v->n) == 0;
}

/* The version a modern (stateless) request names in its _meta, or NULL. */
static const mv_jv *meta_version(const mv_jv *params) {
    return mv_jobject_get(mv_jobject_get(params, "_meta"), META_VERSION);
}

static void on_initialize(mv_mcpserver_session *s, const mv_jv *id, const mv_jv *params,
                          mv_buf *out) {
    const mv_jv *offered = mv_jobject_get(params, "protocolVersion");
    const char *chosen = legacy_versions[0];
    if (!mv_jis_string(offered)) {
        rpc_error(out, id, RPC_INVALID_PARAMS, "initialize needs params.protocolVersion", NULL);
        return;
    }
    for (size_t i = 0; legacy_versions[i] != NULL; i++)
        if (str_is(offered, legacy_versions[i]))
            chosen = legacy_versions[i];
    snprintf(s->version, sizeof s->version, "%s", chosen);
    mv_jw w;
    result_begin(&w, out, id);
    mv_jw_cstr(&w, "protocolVersion", chosen);
    put_capabilities(&w);
    put_server_info(&w, "serverInfo");
    result_end(&w, false);
}

static void on_discover(const mv_jv *id, const mv_jv *params, mv_buf *out) {
    static const char *const all[] = {MODERN_VERSION, "2025-11-25", "2025-06-18",
                                      "2025-03-26",   "2024-11-05", NULL};
    const mv_jv *v = meta_version(params);
    if (v != NULL && !str_is(v, MODERN_VERSION)) {
        rpc_error(out, id, RPC_UNSUPPORTED_VERSION, "Unsupported protocol version", all);
        return;
    }
    mv_jw w;
    result_begin(&w, out, id);
    mv_jw_arr_begin(&w, "supportedVersions");
    for (size_t i = 0; all[i] != NULL; i++)
        mv_jw_cstr(&w, NULL, all[i]);
    mv_jw_arr_end(&w);
    put_capabilities(&w);
    mv_jw_obj_begin(&w, "_meta");
    put_server_info(&w, "io.modelcontextprotocol/serverInfo");
    mv_jw_obj_end(&w);
    result_end(&w, true);
}

void mv_mcpserver_handle(mv_mcpserver_session *s, const char *line, size_t len, mv_buf *out) {
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *msg = NULL;
    mv_jerror je;
    if (a == NULL) {
        rpc_error(out, NULL, -32603, "out of memory", NULL);
        goto done;
    }
    if (mv_json_parse(&msg, a, NULL, line, len, &je) != MV_OK) {
        char m[480];
        snprintf(m, sizeof m, "Parse error at byte %zu: %s", je.offset, je.message);
        rpc_error(out, NULL, RPC_PARSE_ERROR, m, NULL);
        goto done;
    }
    if (!mv_jis_object(msg)) {
        rpc_error(out, NULL, RPC_INVALID_REQUEST, "Invalid request: batches are not supported",
                  NULL);
        goto done;
    }
    const mv_jv *id = mv_jobject_get(msg, "id");
    const mv_jv *method = mv_jobject_get(msg, "method");
    const mv_jv *params = mv_jobject_get(msg, "params");
    if (method == NULL && id != NULL)
        goto done; /* a response to a request of ours: none are sent */
    if (!str_is(mv_jobject_get(msg, "jsonrpc"), "2.0") || !mv_jis_string(method) ||
        (id != NULL && !mv_jis_string(id) && !mv_jis(id, MV_JNUMBER)) ||
        (params != NULL && !mv_jis_object(params))) {
        if (id != NULL || method == NULL)
            rpc_error(out, mv_jis_string(id) || mv_jis(id, MV_JNUMBER) ? id : NULL,
                      RPC_INVALID_REQUEST, "Invalid request", NULL);
        goto done;
    }
    if (id == NULL)
        goto done; /* notifications: initialized, cancelled, ... need no answer */
    /* A stateless (2026-07-28) request names its version in _meta; its
     * results say they are complete. */
    bool modern = str_is(meta_version(params), MODERN_VERSION);
    if (str_is(method, "initialize"))
        on_initialize(s, id, params, out);
    else if (str_is(method, "server/discover"))
        on_discover(id, params, out);
    else if (str_is(method, "ping")) {
        mv_jw w;
        result_begin(&w, out, id);
        result_end(&w, modern);
    } else if (str_is(method, "tools/list")) {
        mv_buf def;
        mv_buf_init(&def, NULL);
        mv_mcpserver_tool_definition(&def);
        mv_jw w;
        result_begin(&w, out, id);
        mv_jw_arr_begin(&w, "tools");
        mv_jw_raw(&w, NULL, def.data != NULL ? def.data : "{}", def.data != NULL ? def.len : 2);
        mv_jw_arr_end(&w);
        result_end(&w, modern);
        mv_buf_release(&def);
    } else if (str_is(method, "tools/call")) {
        on_tools_call(s, id, params, modern, out);
    } else {
        rpc_error(out, id, RPC_METHOD_NOT_FOUND, "Method not found", NULL);
    }
done:
    mv_arena_free(a);
}

/* ----------------------------------------------------------------- run */

int mv_mcpserver_run(const mv_mcpserver_options *o, mv_error *err) {
    FILE *in = o->in != NULL ? o->in : stdin;
    FILE *out = o->out != NULL ? o->out : stdout;
    FILE *log = o->log != NULL ? o->log : stderr;
    size_t cap = o->max_message > 0 ? o->max_message : MV_MCPSERVER_DEFAULT_MAX_MESSAGE;
    mv_service_options so = o->service;
    mv_service *svc = NULL;
    mv_mcpserver_session *sess = NULL;
    mv_buf line, reply;
    int rc;
    mv_buf_init(&line, NULL);
    mv_buf_init(&reply, NULL);
    so.actor = MV_ACTOR_MCP;
    if ((rc = mv_service_new(&svc, &so, err)) != MV_OK)
        goto done;
    if (mv_mcpserver_session_new(&sess, svc, o->allow_agent_approval) != MV_OK) {
        rc = mv_error_set(err, MV_ENOMEM, "out of memory");
        goto done;
    }
    fprintf(log, "mcpvet mcp: serving quarantine_security on stdio (store %s)%s\n",
            so.store_path != NULL ? so.store_path : "default",
            o->allow_agent_approval ? "; agents may approve" : "");
    fflush(log);
    bool over = false, eof = false;
    while (!eof) {
        int ch = getc(in);
        if (ch == EOF) {
            eof = true;
            if (line.len == 0 && !over)
                break;
        } else if (ch != '\n') {
            if (line.len < cap)
                mv_buf_putc(&line, (char)ch);
            else
                over = true;
            continue;
        }
        reply.len = 0;
        if (over) {
            rpc_error(&reply, NULL, RPC_PARSE_ERROR, "Parse error: the message is too large", NULL);
        } else if (line.failed) {
            rpc_error(&reply, NULL, -32603, "out of memory", NULL);
        } else {
            size_t n = line.len;
            if (n > 0 && line.data[n - 1] == '\r')
                n--;
            if (n > 0)
                mv_mcpserver_handle(sess, line.data, n, &reply);
        }
        if (reply.len > 0 && !reply.failed) {
            fwrite(reply.data, 1, reply.len, out);
            fflush(out);
        }
        mv_buf_release(&line);
        mv_buf_init(&line, NULL);
        mv_buf_release(&reply);
        mv_buf_init(&reply, NULL);
        over = false;
    }
    rc = MV_OK;
done:
    mv_mcpserver_session_free(sess);
    mv_service_free(svc);
    mv_buf_release(&line);
    mv_buf_release(&reply);
    return rc;
}
