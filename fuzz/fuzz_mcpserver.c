/*
 * libFuzzer target for the MCP server of `mcpvet mcp`
 * (src/mcpserver/mcpserver.c, mv_mcpserver_handle): JSON-RPC parsing and
 * validation, initialize and version negotiation, server/discover and
 * _meta, tools/list, and every operation of tools/call through the shared
 * service over a fresh copy of a template store (fuzz_store_util.h).
 *
 * Input: the first byte's low bit allows agent approval; the rest is the
 * agent's messages, one per line (at most 16). Server scans find no
 * configured server (one empty config), so nothing is started.
 *
 * Invariants, per message: the output is nothing or exactly one line (one
 * trailing newline, none inside) holding a strict JSON object with
 * "jsonrpc":"2.0" and exactly one of result and error; a request with a
 * valid id is answered with that same id; a notification (a valid message
 * without id) gets no answer; no raw bidi or zero-width character reaches
 * the agent; and without allowed approval no tool becomes approved that
 * was not approved before.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_store_util.h"
#include "json/json.h"
#include "json/writer.h"
#include "mcpserver/mcpserver.h"
#include "server/service.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LINES 16u

static char config_path[300];

static void broken(const char *what, const char *line, size_t len) {
    fprintf(stderr, "fuzz_mcpserver: invariant broken: %s (message: %.*s)\n", what,
            (int)(len > 300 ? 300 : len), line);
    abort();
}

/* Raw U+200B-U+200F, U+202A-U+202E, U+2066-U+2069 or U+FEFF. */
static bool has_hidden(const char *s, size_t n) {
    for (size_t i = 0; i + 2 < n; i++) {
        const unsigned char *p = (const unsigned char *)s + i;
        if (p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x8B && p[2] <= 0x8F) ||
                                             (p[2] >= 0xAA && p[2] <= 0xAE)))
            return true;
        if (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)
            return true;
        if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
            return true;
    }
    return false;
}

/* Tools approved now, as "server/name\n" lines. */
static void approved(mv_buf *out) {
    mv_store *st = fz_open(fz_work, false);
    mv_store_tool_list *l = NULL;
    mv_store_filter f;
    mv_error err;
    memset(&f, 0, sizeof f);
    out->len = 0;
    if (mv_store_list(st, &f, &l, &err) != MV_OK)
        abort();
    for (size_t i = 0; i < l->n; i++)
        if (l->tools[i].state == MV_STATE_APPROVED)
            mv_buf_printf(out, "%s/%s\n", l->tools[i].server, l->tools[i].name);
    mv_store_tool_list_free(l);
    mv_store_close(st);
}

static bool line_in(const mv_buf *set, const char *line, size_t len) {
    for (size_t i = 0; i + len <= set->len;) {
        const char *nl = memchr(set->data + i, '\n', set->len - i);
        size_t l = (size_t)(nl - (set->data + i));
        if (l == len && memcmp(set->data + i, line, len) == 0)
            return true;
        i += l + 1;
    }
    return false;
}

static void check(const char *line, size_t len, const mv_buf *out, mv_arena *a) {
    const mv_jv *in = NULL, *reply = NULL;
    mv_jerror je;
    bool valid_in = mv_json_parse(&in, a, NULL, line, len, &je) == MV_OK && mv_jis_object(in);
    const mv_jv *id = valid_in ? mv_jobject_get(in, "id") : NULL;
    const mv_jv *method = valid_in ? mv_jobject_get(in, "method") : NULL;
    const mv_jv *params = valid_in ? mv_jobject_get(in, "params") : NULL;
    const mv_jv *ver = valid_in ? mv_jobject_get(in, "jsonrpc") : NULL;
    bool well_formed = valid_in && mv_jis_string(method) && mv_jis_string(ver) && ver->n == 3 &&
                       memcmp(ver->u.s, "2.0", 3) == 0 && (params == NULL || mv_jis_object(params));
    if (out->len == 0) {
        if (well_formed && id != NULL && (mv_jis_string(id) || mv_jis(id, MV_JNUMBER)))
            broken("a request got no answer", line, len);
        return;
    }
    if (out->data[out->len - 1] != '\n' || memchr(out->data, '\n', out->len - 1) != NULL)
        broken("the answer is not exactly one line", line, len);
    if (has_hidden(out->data, out->len))
        broken("a hidden character reached the agent", line, len);
    if (mv_json_parse(&reply, a, NULL, out->data, out->len - 1, &je) != MV_OK ||
        !mv_jis_object(reply))
        broken("the answer is not a strict JSON object", line, len);
    const mv_jv *rv = mv_jobject_get(reply, "jsonrpc");
    if (!mv_jis_string(rv) || rv->n != 3 || memcmp(rv->u.s, "2.0", 3) != 0)
        broken("the answer is not JSON-RPC 2.0", line, len);
    if ((mv_jobject_get(reply, "result") != NULL) == (mv_jobject_get(reply, "error") != NULL))
        broken("the answer needs exactly one of result and error", line, len);
    if (well_formed && id == NULL)
        broken("a notification was answered", line, len);
    if (well_formed && (mv_jis_string(id) || mv_jis(id, MV_JNUMBER))) {
        mv_buf x, y;
        mv_buf_init(&x, NULL);
        mv_buf_init(&y, NULL);
        mv_json_write(&x, id);
        mv_json_write(&y, mv_jobject_get(reply, "id"));
        if (x.len != y.len || memcmp(x.data, y.data, x.len) != 0)
            broken("the answer carries another id", line, len);
        mv_buf_release(&x);
        mv_buf_release(&y);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_init("fuzz_mcpserver");
    snprintf(config_path, sizeof config_path, "%s/claude.json", fz_dir);
    snprintf(fz_extra[0], sizeof fz_extra[0], "%s", config_path);
    fz_write_file(config_path, "{\"mcpServers\":{}}", 17);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mv_service *svc = NULL;
    mv_mcpserver_session *sess = NULL;
    mv_service_options so;
    mv_error err;
    mv_buf out, before, after;
    const char *cfgs[1] = {config_path};
    if (size < 1)
        return 0;
    bool allow = (data[0] & 1) != 0;
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    fz_fresh_work();
    memset(&so, 0, sizeof so);
    so.store_path = fz_work;
    so.configs = cfgs;
    so.n_configs = 1;
    so.actor = MV_ACTOR_MCP;
    so.scan_timeout_ms = 2000;
    mv_error_clear(&err);
    if (mv_service_new(&svc, &so, &err) != MV_OK ||
        mv_mcpserver_session_new(&sess, svc, allow) != MV_OK)
        abort();
    mv_buf_init(&out, NULL);
    mv_buf_init(&before, NULL);
    mv_buf_init(&after, NULL);
    mv_arena *a = mv_arena_new(NULL, 0);
    if (a == NULL)
        abort();
    approved(&before);
    for (unsigned n = 0; n < MAX_LINES && p < end; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
        out.len = 0;
        mv_mcpserver_handle(sess, p, len, &out);
        if (out.failed)
            abort();
        mv_arena_reset(a);
        check(p, len, &out, a);
        if (!allow) {
            approved(&after);
            for (size_t i = 0; i < after.len;) {
                const char *e = memchr(after.data + i, '\n', after.len - i);
                size_t l = (size_t)(e - (after.data + i));
                if (!line_in(&before, after.data + i, l))
                    broken("a tool was approved by the agent", p, len);
                i += l + 1;
            }
        }
        p = nl != NULL ? nl + 1 : end;
    }
    mv_arena_free(a);
    mv_buf_release(&out);
    mv_buf_release(&before);
    mv_buf_release(&after);
    mv_mcpserver_session_free(sess);
    mv_service_free(svc);
    return 0;
}
