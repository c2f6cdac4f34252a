/*
 * The guard at the level of JSON-RPC messages, shared by both fronts of
 * `mcpvet proxy`: the stdio relay (proxy.c) and the HTTP front (http.c).
 * Which requests the guard watches, what their replies become (a list
 * filtered to what the policy allows, a result scanned per --results, the
 * capabilities noted and the server's instructions decided like a list
 * item: left out of the initialize result when the policy keeps them),
 * what a server's notification means, the proxy's own tools/list, and the
 * replies the proxy writes itself. The decisions
 * themselves are in guard.c; the fronts only move bytes and keep track of
 * which reply answers which request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/writer.h"
#include "proxy/proxy_int.h"

/* Strings of the tree are not NUL-terminated: compare with the length. */
static bool jstr_is(const mv_jv *v, const char *lit) {
    size_t n = strlen(lit);
    return mv_jis_string(v) && mv_jstring_len(v) == n && memcmp(mv_jstring(v), lit, n) == 0;
}

static bool list_of_method(const mv_jv *m, px_list *out) {
    for (int k = 0; k < PX_METHOD_LISTS; k++)
        if (jstr_is(m, px_list_method((px_list)k))) {
            *out = (px_list)k;
            return true;
        }
    return false;
}

bool px_method_guarded(const mv_jv *m) {
    px_list l;
    return jstr_is(m, "tools/call") || jstr_is(m, "initialize") || jstr_is(m, "server/discover") ||
           jstr_is(m, "prompts/get") || jstr_is(m, "resources/read") || list_of_method(m, &l);
}

int px_request_classify(const mv_jv *method, const mv_jv *params, px_request *rq,
                        const char **why) {
    memset(rq, 0, sizeof(*rq));
    *why = NULL;
    if (jstr_is(method, "tools/call")) {
        const mv_jv *name = mv_jobject_get(params, "name");
        if (!mv_jis_string(name)) {
            *why = "mcpvet proxy: tools/call needs params.name as a string";
            return -32602;
        }
        rq->kind = PX_RQ_CALL;
        rq->name = mv_jstring(name);
        rq->name_len = mv_jstring_len(name);
    } else if (list_of_method(method, &rq->list)) {
        rq->kind = PX_RQ_LIST;
        rq->first_page = mv_jobject_get(params, "cursor") == NULL;
    } else if (jstr_is(method, "initialize") || jstr_is(method, "server/discover")) {
        rq->kind = PX_RQ_INIT;
    } else if (jstr_is(method, "prompts/get") || jstr_is(method, "resources/read")) {
        bool prompt = jstr_is(method, "prompts/get");
        const mv_jv *name = mv_jobject_get(params, prompt ? "name" : "uri");
        rq->kind = prompt ? PX_RQ_PROMPT : PX_RQ_READ;
        if (mv_jis_string(name)) {
            rq->name = mv_jstring(name);
            rq->name_len = mv_jstring_len(name);
        } else {
            rq->name = "";
        }
    }
    return 0;
}

/* The reply rewritten inside its result, everything else written as it
 * came: the member whose value is `drop` left out (NULL: none), and the
 * list `arr` cut to its allowed items (NULL: none). */
static void write_rewritten(mv_buf *b, const mv_jv *root, const mv_jv *result, const mv_jv *drop,
                            const mv_jv *arr, const bool *allow) {
    mv_buf_putc(b, '{');
    for (uint32_t i = 0; i < root->n; i++) {
        const mv_jm *m = &root->u.members[i];
        if (i > 0)
            mv_buf_putc(b, ',');
        mv_buf_json_string(b, m->key, m->key_len);
        mv_buf_putc(b, ':');
        if (&m->value != result) {
            mv_json_write(b, &m->value);
            continue;
        }
        mv_buf_putc(b, '{');
        bool first = true;
        for (uint32_t r = 0; r < result->n; r++) {
            const mv_jm *rm = &result->u.members[r];
            if (&rm->value == drop)
                continue;
            if (!first)
                mv_buf_putc(b, ',');
            first = false;
            mv_buf_json_string(b, rm->key, rm->key_len);
            mv_buf_putc(b, ':');
            if (&rm->value != arr) {
                mv_json_write(b, &rm->value);
                continue;
            }
            mv_buf_putc(b, '[');
            bool first_item = true;
            for (size_t k = 0; k < arr->n; k++) {
                if (!allow[k])
                    continue;
                if (!first_item)
                    mv_buf_putc(b, ',');
                first_item = false;
                mv_json_write(b, &arr->u.items[k]);
            }
            mv_buf_putc(b, ']');
        }
        mv_buf_putc(b, '}');
    }
    mv_buf_putc(b, '}');
}

int px_guard_reply(px_guard *g, const px_request *rq, const mv_jv *root, mv_buf *out) {
    const mv_jv *result = mv_jobject_get(root, "result");
    switch (rq->kind) {
    case PX_RQ_LIST: {
        const mv_jv *arr = mv_jobject_get(result, px_list_key(rq->list));
        if (!mv_jis_array(arr))
            return 0;
        bool last = !mv_jis_string(mv_jobject_get(result, "nextCursor"));
        bool *allow = calloc(arr->n + 1, sizeof(*allow));
        if (allow == NULL ||
            px_guard_list_page(g, rq->list, arr, rq->first_page, last, false, allow) != MV_OK) {
            free(allow);
            return MV_ENOMEM;
        }
        bool all = true;
        for (size_t i = 0; i < arr->n && all; i++)
            all = allow[i];
        if (!all)
            write_rewritten(out, root, result, NULL, arr, allow);
        free(allow);
        if (all)
            return 0;
        return out->failed ? MV_ENOMEM : 1;
    }
    case PX_RQ_CALL:
    case PX_RQ_PROMPT:
    case PX_RQ_READ:
        if (!mv_jis_object(result))
            return 0;
        return px_guard_result(g,
                               rq->kind == PX_RQ_CALL     ? PX_RESULT_CALL
                               : rq->kind == PX_RQ_PROMPT ? PX_RESULT_PROMPT
                                                          : PX_RESULT_READ,
                               rq->name, rq->name_len, root, out);
    case PX_RQ_INIT: {
        px_guard_capabilities(g, mv_jobject_get(result, "capabilities"));
        if (!mv_jis_object(result))
            return 0;
        bool allow = true;
        const mv_jv *ins = mv_jobject_get(result, "instructions");
        if (px_guard_instructions(g, ins, &allow) != MV_OK)
            return MV_ENOMEM;
        if (allow)
            return 0;
        write_rewritten(out, root, result, ins, NULL, NULL);
        return out->failed ? MV_ENOMEM : 1;
    }
    case PX_RQ_OTHER:
        return 0;
    }
    return 0;
}

bool px_server_request_scanned(const mv_jv *root) {
    const mv_jv *m = mv_jobject_get(root, "method");
    return mv_jobject_get(root, "id") != NULL &&
           (jstr_is(m, "sampling/createMessage") || jstr_is(m, "elicitation/create"));
}

int px_guard_server_request(px_guard *g, const mv_jv *root, mv_buf *out) {
    const mv_jv *m = mv_jobject_get(root, "method");
    if (mv_jobject_get(root, "id") == NULL)
        return 0;
    if (jstr_is(m, "sampling/createMessage"))
        return px_guard_result(g, PX_REQUEST_SAMPLING, mv_jstring(m), mv_jstring_len(m), root, out);
    if (jstr_is(m, "elicitation/create"))
        return px_guard_result(g, PX_REQUEST_ELICIT, mv_jstring(m), mv_jstring_len(m), root, out);
    return 0;
}

void px_guard_notification(px_guard *g, const mv_jv *m) {
    if (jstr_is(m, "notifications/tools/list_changed")) {
        px_guard_stale(g, PX_TOOLS);
        px_log(g, "the server says its tools changed; the next call lists them again");
    } else if (jstr_is(m, "notifications/prompts/list_changed")) {
        px_guard_stale(g, PX_PROMPTS);
    } else if (jstr_is(m, "notifications/resources/list_changed")) {
        px_guard_stale(g, PX_RESOURCES);
        px_guard_stale(g, PX_TEMPLATES);
    }
}

void px_write_error(mv_buf *b, const char *id, size_t id_len, int code, const char *message) {
    mv_buf_puts(b, "{\"jsonrpc\":\"2.0\",\"id\":");
    if (id != NULL)
        mv_buf_append(b, id, id_len);
    else
        mv_buf_puts(b, "null");
    mv_buf_printf(b, ",\"error\":{\"code\":%d,\"message\":", code);
    mv_buf_json_string(b, message, strlen(message));
    mv_buf_puts(b, "}}");
}

void px_write_blocked(mv_buf *b, const char *id, size_t id_len, const char *text) {
    mv_buf_puts(b, "{\"jsonrpc\":\"2.0\",\"id\":");
    mv_buf_append(b, id, id_len);
    mv_buf_puts(b, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    mv_buf_json_string(b, text, strlen(text));
    mv_buf_puts(b, "}],\"isError\":true}}");
}

void px_write_list_request(mv_buf *b, const char *id, const char *cursor, size_t cursor_len,
                           const mv_buf *meta) {
    bool has_meta = meta != NULL && meta->len > 0;
    mv_buf_puts(b, "{\"jsonrpc\":\"2.0\",\"id\":");
    mv_buf_json_string(b, id, strlen(id));
    mv_buf_puts(b, ",\"method\":\"tools/list\"");
    if (cursor != NULL || has_meta) {
        mv_buf_puts(b, ",\"params\":{");
        if (cursor != NULL) {
            mv_buf_puts(b, "\"cursor\":");
            mv_buf_json_string(b, cursor, cursor_len);
        }
        if (has_meta) {
            mv_buf_puts(b, cursor != NULL ? ",\"_meta\":" : "\"_meta\":");
            mv_buf_append(b, meta->data, meta->len);
        }
        mv_buf_putc(b, '}');
    }
    mv_buf_putc(b, '}');
}

int px_guard_refresh_reply(px_guard *g, const mv_jv *root, bool first, unsigned *pages,
                           const mv_jv **cursor) {
    const mv_jv *result = mv_jobject_get(root, "result");
    const mv_jv *tools = mv_jobject_get(result, "tools");
    *cursor = NULL;
    if (!mv_jis_array(tools)) {
        const mv_jv *e = mv_jobject_get(mv_jobject_get(root, "error"), "message");
        char why[300];
        mv_json_quote(why, mv_jstring(e) != NULL ? mv_jstring(e) : "", mv_jstring_len(e), 40);
        char msg[400];
        snprintf(msg, sizeof msg, "the server answered tools/list with %s%s",
                 mv_jis_string(e) ? "an error: " : "no tools array", mv_jis_string(e) ? why : "");
        px_guard_list_failed(g, PX_TOOLS, msg);
        return -1;
    }
    const mv_jv *next = mv_jobject_get(result, "nextCursor");
    bool last = !mv_jis_string(next) || ++*pages >= PX_MAX_PAGES;
    bool *allow = calloc(mv_jarray_size(tools) + 1, sizeof(*allow));
    if (allow == NULL ||
        px_guard_list_page(g, PX_TOOLS, tools, first, last, true, allow) != MV_OK) {
        free(allow);
        px_guard_list_failed(g, PX_TOOLS, "out of memory");
        return -1;
    }
    free(allow);
    if (last)
        return 0;
    *cursor = next;
    return 1;
}
