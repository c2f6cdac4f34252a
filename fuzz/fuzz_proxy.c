/*
 * libFuzzer target for the runtime guard of `mcpvet proxy` in both
 * directions (src/proxy/proxy.c and guard.c, through the loop-free seam
 * px_session of proxy_int.h): the agent's requests (tools/call decisions,
 * held calls while the proxy lists, batches, ids of every kind) and the
 * server's messages (list replies filtered by the policy, the proxy's own
 * paged tools/list, tools/call results scanned, notifications, batches,
 * garbage, replies to nothing), plus over-cap messages both ways.
 *
 * The store is a fresh copy of fuzz_store_util.h's template per input;
 * the proxied server is "srv" (stdio, command "cmd"), whose "add" is
 * approved, "echo" pending and "wipe" quarantined.
 *
 * Input: the first byte picks the policy (b % 3: tofu, strict, audit) and
 * the results mode (b / 3 % 3: warn, strip, block). Then one event per
 * line: "C<message>" from the agent, "S<message>" from the server,
 * "O<prefix>" / "o<prefix>" an over-cap message from the agent / server.
 * "%R%" in a line becomes the id of the proxy's own tools/list in flight.
 *
 * Invariants: every line either side receives is strict JSON; under the
 * strict policy no tools/call of another tool than "add" (the only one
 * approved) ever reaches the server, whatever its id or framing (a
 * notification, a batch), and a reply to the agent's tools/list lists no
 * other tool. Requests still in flight when the input ends are not
 * checked (the loop answers them when a session ends).
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
#include "proxy/proxy_int.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 48u
#define MAX_LIST_IDS 64u

static FILE *devnull;

static void broken(const char *what, const char *msg, size_t len) {
    fprintf(stderr, "fuzz_proxy: invariant broken: %s (message: %.*s)\n", what,
            (int)(len > 400 ? 400 : len), msg);
    abort();
}

static bool jstr_eq(const mv_jv *v, const char *s) {
    return mv_jis_string(v) && v->n == strlen(s) && memcmp(v->u.s, s, v->n) == 0;
}

typedef struct state {
    bool strict;
    mv_buf list_ids[MAX_LIST_IDS]; /* ids (JSON text) of the agent's tools/list */
    size_t n_list_ids;
    mv_arena *a;
} state;

static void id_text(const mv_jv *id, mv_buf *out) {
    out->len = 0;
    mv_json_write(out, id);
}

static bool is_list_id(const state *st, const mv_jv *id) {
    mv_buf t;
    bool found = false;
    if (id == NULL)
        return false;
    mv_buf_init(&t, NULL);
    id_text(id, &t);
    for (size_t i = 0; i < st->n_list_ids && !found; i++)
        found = st->list_ids[i].len == t.len && memcmp(st->list_ids[i].data, t.data, t.len) == 0;
    mv_buf_release(&t);
    return found;
}

/* One message the server receives. */
static void check_to_server(const state *st, const mv_jv *m, const char *line, size_t len) {
    if (!st->strict || !mv_jis_object(m))
        return;
    if (jstr_eq(mv_jobject_get(m, "method"), "tools/call") &&
        !jstr_eq(mv_jobject_get(mv_jobject_get(m, "params"), "name"), "add"))
        broken("strict: a call of a tool that is not approved reached the server", line, len);
}

/* One message the agent receives. */
static void check_to_client(const state *st, const mv_jv *m, const char *line, size_t len) {
    if (!st->strict || !mv_jis_object(m) || !is_list_id(st, mv_jobject_get(m, "id")))
        return;
    const mv_jv *tools = mv_jobject_get(mv_jobject_get(m, "result"), "tools");
    for (size_t i = 0; mv_jis_array(tools) && i < tools->n; i++)
        if (!jstr_eq(mv_jobject_get(&tools->u.items[i], "name"), "add"))
            broken("strict: a tools/list reply lists a tool that is not approved", line, len);
}

static void check_queue(state *st, mv_buf *q, bool to_client) {
    size_t i = 0;
    while (i < q->len) {
        const char *nl = memchr(q->data + i, '\n', q->len - i);
        if (nl == NULL)
            broken("a queued message without its newline", q->data + i, q->len - i);
        size_t len = (size_t)(nl - (q->data + i));
        const char *line = q->data + i;
        const mv_jv *root = NULL;
        mv_jerror je;
        mv_arena_reset(st->a);
        if (mv_json_parse(&root, st->a, NULL, line, len, &je) != MV_OK)
            broken(to_client ? "the agent got a message that is not strict JSON"
                             : "the server got a message that is not strict JSON",
                   line, len);
        if (mv_jis_array(root)) {
            for (size_t k = 0; k < root->n; k++)
                to_client ? check_to_client(st, &root->u.items[k], line, len)
                          : check_to_server(st, &root->u.items[k], line, len);
        } else {
            to_client ? check_to_client(st, root, line, len) : check_to_server(st, root, line, len);
        }
        i += len + 1;
    }
    q->len = 0;
}

/* Remember the id of an agent's tools/list (before the proxy sees it). */
static void note_client(state *st, const char *line, size_t len) {
    const mv_jv *root = NULL;
    mv_jerror je;
    mv_arena_reset(st->a);
    if (mv_json_parse(&root, st->a, NULL, line, len, &je) != MV_OK)
        return;
    size_t n = mv_jis_array(root) ? root->n : 1;
    for (size_t k = 0; k < n; k++) {
        const mv_jv *m = mv_jis_array(root) ? &root->u.items[k] : root;
        const mv_jv *id = mv_jobject_get(m, "id");
        if (jstr_eq(mv_jobject_get(m, "method"), "tools/list") && id != NULL &&
            st->n_list_ids < MAX_LIST_IDS) {
            mv_buf_init(&st->list_ids[st->n_list_ids], NULL);
            id_text(id, &st->list_ids[st->n_list_ids]);
            st->n_list_ids++;
        }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_init("fuzz_proxy");
    devnull = fopen("/dev/null", "w");
    if (devnull == NULL)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const argv[] = {"cmd"};
    px_session *s = NULL;
    mv_proxy_options o;
    mv_error err;
    state st;
    mv_buf line, q;
    if (size < 1)
        return 0;
    memset(&st, 0, sizeof st);
    memset(&o, 0, sizeof o);
    o.policy = (mv_proxy_policy)(data[0] % 3);
    o.results = (mv_proxy_results)(data[0] / 3 % 3);
    o.name = "srv";
    o.argv = argv;
    o.argc = 1;
    o.store_path = fz_work;
    o.log = devnull;
    o.max_message_bytes = 4096;
    o.clock = fz_clock;
    st.strict = o.policy == MV_PROXY_STRICT;
    st.a = mv_arena_new(NULL, 0);
    if (st.a == NULL)
        abort();
    fz_fresh_work();
    mv_error_clear(&err);
    if (px_session_new(&s, &o, &err) != MV_OK) {
        fprintf(stderr, "fuzz_proxy: session: %s\n", err.message);
        abort();
    }
    mv_buf_init(&line, NULL);
    mv_buf_init(&q, NULL);
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    for (unsigned n = 0; n < MAX_EVENTS && p < end; n++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
        const char *rid = px_session_refresh_id(s);
        line.len = 0;
        for (size_t i = 1; i < len; i++) {
            if (i + 3 <= len && memcmp(p + i, "%R%", 3) == 0) {
                mv_buf_puts(&line, rid != NULL ? rid : "none");
                i += 2;
            } else {
                mv_buf_putc(&line, p[i]);
            }
        }
        const char *body = line.data != NULL ? line.data : "";
        if (len > 0 && p[0] == 'C') {
            note_client(&st, body, line.len);
            px_session_client_line(s, body, line.len);
        } else if (len > 0 && p[0] == 'S') {
            px_session_server_line(s, body, line.len);
        } else if (len > 0 && (p[0] == 'O' || p[0] == 'o')) {
            px_session_oversize(s, body, line.len, p[0] == 'O');
        }
        px_session_take(s, true, &q);
        check_queue(&st, &q, true);
        px_session_take(s, false, &q);
        check_queue(&st, &q, false);
        p = nl != NULL ? nl + 1 : end;
    }
    px_session_free(s);
    for (size_t i = 0; i < st.n_list_ids; i++)
        mv_buf_release(&st.list_ids[i]);
    mv_buf_release(&line);
    mv_buf_release(&q);
    mv_arena_free(st.a);
    return 0;
}
