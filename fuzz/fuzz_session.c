/*
 * libFuzzer target for the MCP client's session logic (src/mcp/session.c
 * and src/mcp/client.c): JSON-RPC response matching, server requests and
 * notifications in between, version negotiation and fallback, pagination
 * with cursors, and the page, item and byte caps. A fake transport (the
 * ops of src/mcp/transport.h) plays the server: the input is its sequence
 * of messages, one per line, read back in order whatever the client sends.
 *
 * The first input byte picks the configured transport, a forced protocol
 * version (or none) and small caps; the rest is lines. In a line, "%ID%" is
 * replaced by the id of the last request the client sent, so the fuzzer can
 * answer requests without guessing ids. Lines starting with '!' are
 * transport events instead of messages:
 *   !T        recv times out          !C   recv: the stream closed
 *   !X        recv: a message cap
 * and, read when the client sends or opens a transport instead of when it
 * reads (they stand where the answer to that send would be):
 *   !O        opening the transport fails (a fallback cannot connect)
 *   !Snnn     the send fails with HTTP status nnn
 *   !Bnnn     the same with the following line as its JSON-RPC body
 * When the lines run out the stream is closed.
 *
 * Invariants: mv_mcp_fetch_with returns 0; status OK means a complete
 * fetch with an empty reason; every list is empty or a valid JSON array of
 * exactly its count of items, never more than the item cap; the reason is
 * printable ASCII; and the configured secrets (an env value and a header
 * value) never appear in the reason or stderr, even when the server echoes
 * them. Build and run: see fuzz/README.md.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "mcp/transport.h"
#include "mcpvet/mcp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CANARY "fuzzcanary7Q2xV9"
#define MAX_ITEMS 8u

static void broken(const char *what) {
    fprintf(stderr, "fuzz_session: invariant broken: %s\n", what);
    abort();
}

/* The scripted server: lines of the input, shared by every transport the
 * client opens (an HTTP fallback to SSE continues the same script). */
typedef struct script {
    const char *p, *end;
    char last_id[24]; /* of the last request sent, "0" before any */
    bool have_body;   /* a failed send's JSON-RPC body waits for recv */
    const char *body;
    size_t body_len;
    unsigned opens;
} script;

typedef struct fake {
    mv_mcp_transport base;
    script *s;
} fake;

static bool next_line(script *s, const char **line, size_t *len) {
    const char *nl;
    if (s->p >= s->end)
        return false;
    nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
    *line = s->p;
    *len = nl != NULL ? (size_t)(nl - s->p) : (size_t)(s->end - s->p);
    s->p = nl != NULL ? nl + 1 : s->end;
    return true;
}

/* The id of a request as build_message writes it: "id":N right after
 * "jsonrpc". */
static void remember_id(script *s, const char *msg, size_t len) {
    static const char key[] = "\"id\":";
    for (size_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(msg + i, key, sizeof key - 1) != 0)
            continue;
        size_t j = i + sizeof key - 1, k = 0;
        while (j < len && msg[j] >= '0' && msg[j] <= '9' && k + 1 < sizeof s->last_id)
            s->last_id[k++] = msg[j++];
        s->last_id[k] = '\0';
        return;
    }
}

/* HTTP status of a "!Snnn" or "!Bnnn" line. */
static int status_of(const char *line, size_t len) {
    int status = 0;
    for (size_t i = 2; i < len && i < 5 && line[i] >= '0' && line[i] <= '9'; i++)
        status = status * 10 + (line[i] - '0');
    return status > 0 ? status : 500;
}

static int fake_send(mv_mcp_transport *t, const char *msg, size_t len, const mv_mcp_msg_info *info,
                     uint64_t deadline_ms, mv_mcp_failure *fail) {
    script *s = ((fake *)t)->s;
    const char *line = NULL;
    size_t n = 0;
    (void)deadline_ms;
    if (len == 0 || memchr(msg, '\n', len) != NULL)
        broken("a sent message is empty or holds a newline");
    if (info->method != NULL && !info->notification)
        remember_id(s, msg, len);
    /* The exchange fails when the next line says so. */
    if (s->end - s->p < 2 || s->p[0] != '!' || (s->p[1] != 'S' && s->p[1] != 'B'))
        return 0;
    next_line(s, &line, &n);
    memset(fail, 0, sizeof(*fail));
    fail->http_status = status_of(line, n);
    fail->status = fail->http_status == 401 || fail->http_status == 403 ? MV_MCP_AUTH_REQUIRED
                                                                        : MV_MCP_SERVER_ERROR;
    snprintf(fail->reason, sizeof fail->reason, "HTTP %d", fail->http_status);
    if (line[1] == 'B' && next_line(s, &s->body, &s->body_len)) {
        fail->has_body = true;
        s->have_body = true;
    }
    return -1;
}

/* `line` with every %ID% replaced by the last request id. */
static void put_line(script *s, mv_buf *out, const char *line, size_t len) {
    out->len = 0;
    for (size_t i = 0; i < len; i++) {
        if (len - i >= 4 && memcmp(line + i, "%ID%", 4) == 0) {
            mv_buf_append(out, s->last_id, strlen(s->last_id));
            i += 3;
        } else {
            mv_buf_putc(out, line[i]);
        }
    }
}

static int fake_recv(mv_mcp_transport *t, mv_buf *out, uint64_t deadline_ms, mv_mcp_failure *fail) {
    script *s = ((fake *)t)->s;
    const char *line;
    size_t len;
    (void)deadline_ms;
    memset(fail, 0, sizeof(*fail));
    if (s->have_body) {
        s->have_body = false;
        put_line(s, out, s->body, s->body_len);
        return out->failed ? -1 : 1;
    }
    for (;;) {
        if (!next_line(s, &line, &len)) {
            fail->status = MV_MCP_CLOSED;
            snprintf(fail->reason, sizeof fail->reason, "the stream closed");
            return -1;
        }
        if (len == 0 || line[0] != '!')
            break;
        char ev = len > 1 ? line[1] : '\0';
        if (ev == 'T') {
            fail->status = MV_MCP_TIMEOUT;
            return 0;
        }
        if (ev == 'C' || ev == 'X') {
            fail->status = ev == 'C' ? MV_MCP_CLOSED : MV_MCP_CAP_HIT;
            snprintf(fail->reason, sizeof fail->reason, "%s",
                     ev == 'C' ? "the server exited" : "a message over the cap");
            return -1;
        }
        if (ev == 'S' || ev == 'B' || ev == 'O')
            continue; /* meant for a send or an open: none is waiting for it */
        break;        /* an ordinary (broken) message */
    }
    put_line(s, out, line, len);
    return out->failed ? -1 : 1;
}

static void fake_close(mv_mcp_transport *t, mv_mcp_result *r) {
    if (t == NULL)
        return;
    if (r != NULL) {
        /* A server's stderr that echoes its secrets: redact must mask them. */
        static const char text[] = "debug: token=" CANARY " header=Bearer-" CANARY "h\n";
        r->stderr_text = malloc(sizeof text);
        if (r->stderr_text != NULL) {
            memcpy(r->stderr_text, text, sizeof text);
            r->stderr_len = sizeof text - 1;
        }
    }
    free(t);
}

static const mv_mcp_transport_ops fake_ops = {fake_send, fake_recv, fake_close};

static int fake_open(void *arg, mv_mcp_transport **out, mv_transport kind,
                     const mv_server_config *server, const mv_mcp_limits *lim, uint64_t deadline_ms,
                     mv_mcp_failure *fail) {
    script *s = arg;
    fake *f;
    (void)server;
    (void)lim;
    (void)deadline_ms;
    s->opens++;
    if (s->opens > 4)
        broken("more than four transports opened for one fetch");
    if (s->end - s->p >= 2 && s->p[0] == '!' && s->p[1] == 'O') {
        const char *line;
        size_t n;
        next_line(s, &line, &n);
        fail->status = MV_MCP_CONNECT_FAILED;
        snprintf(fail->reason, sizeof fail->reason, "connection refused");
        return -1;
    }
    f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    f->base.ops = &fake_ops;
    f->base.kind = kind;
    f->s = s;
    *out = &f->base;
    return 0;
}

static bool contains(const char *hay, size_t n, const char *needle) {
    size_t m = strlen(needle);
    for (size_t i = 0; hay != NULL && m <= n && i <= n - m; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return true;
    return false;
}

/* A fetched list: empty, or a JSON array of exactly `count` items. */
static void check_list(const mv_buf *b, size_t count, const char *what) {
    const mv_jv *v = NULL;
    mv_jerror jerr;
    mv_arena *a;
    if (count > MAX_ITEMS)
        broken("more items kept than the item cap");
    if (b->len == 0) {
        if (count != 0)
            broken("items counted for an empty list");
        return;
    }
    a = mv_arena_new(NULL, 0);
    if (a == NULL)
        return;
    if (mv_json_parse(&v, a, NULL, b->data, b->len, &jerr) != MV_OK || !mv_jis_array(v)) {
        fprintf(stderr, "%s: %.*s\n", what, (int)(b->len > 200 ? 200 : b->len), b->data);
        broken("a fetched list is not a JSON array");
    }
    if (mv_jarray_size(v) != count)
        broken("a fetched list's count differs from its items");
    mv_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const mv_transport kinds[] = {MV_TRANSPORT_STDIO, MV_TRANSPORT_HTTP, MV_TRANSPORT_SSE};
    static const char *const forced[] = {NULL, "2026-07-28", "2025-06-18", "2024-11-05"};
    static char name[] = "fuzz", command[] = "fuzz-server", env_name[] = "API_TOKEN",
                env_value[] = CANARY, header_name[] = "Authorization",
                header_value[] = "Bearer-" CANARY "h";
    mv_config_kv env = {env_name, env_value};
    mv_config_kv header = {header_name, header_value};
    mv_server_config server;
    mv_mcp_options opts;
    mv_mcp_result res;
    mv_error err;
    script s;
    if (size < 1 || size > 65536)
        return 0;
    memset(&server, 0, sizeof server);
    server.name = name;
    server.command = command;
    server.raw_command = command;
    server.readiness = MV_SERVER_READY;
    server.transport = kinds[data[0] % 3];
    server.env = &env;
    server.n_env = 1;
    server.headers = &header;
    server.n_headers = 1;
    memset(&opts, 0, sizeof opts);
    opts.protocol_version = forced[(data[0] >> 2) % 4];
    opts.max_pages = (data[0] & 0x10) ? 3 : 100;
    opts.max_items = MAX_ITEMS;
    opts.max_total_bytes = (data[0] & 0x20) ? 2048 : 1u << 20;
    opts.startup_timeout_ms = 60000;
    opts.request_timeout_ms = 60000;
    memset(&s, 0, sizeof s);
    s.p = (const char *)data + 1;
    s.end = (const char *)data + size;
    snprintf(s.last_id, sizeof s.last_id, "0");
    mv_error_clear(&err);
    int rc = mv_mcp_fetch_with(&res, &server, &opts, fake_open, &s, &err);
    if (rc != MV_OK) {
        fprintf(stderr, "fuzz_session: rc %d: %s\n", rc, err.message);
        broken("mv_mcp_fetch_with failed");
    }
    if (getenv("MCPVET_FUZZ_VERBOSE") != NULL) /* what a seed reaches */
        fprintf(stderr, "status %s (%s) version %s: %zu tools, %zu prompts, %zu resources%s\n",
                mv_mcp_status_name(res.status), res.reason, res.protocol_version, res.n_tools,
                res.n_prompts, res.n_resources, res.partial ? ", partial" : "");
    if (res.status == MV_MCP_OK && (res.partial || res.reason[0] != '\0'))
        broken("status ok with a reason or a partial fetch");
    if (res.status != MV_MCP_OK && res.reason[0] == '\0')
        broken("a failure without a reason");
    for (const char *p = res.reason; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
            broken("a reason that is not printable ASCII");
    if (contains(res.reason, strlen(res.reason), CANARY) ||
        contains(res.stderr_text, res.stderr_len, CANARY))
        broken("a configured secret in the reason or stderr");
    check_list(&res.tools, res.n_tools, "tools");
    check_list(&res.prompts, res.n_prompts, "prompts");
    check_list(&res.resources, res.n_resources, "resources");
    check_list(&res.resource_templates, res.n_resource_templates, "resource templates");
    mv_mcp_result_free(&res);
    return 0;
}
