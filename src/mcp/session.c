/*
 * JSON-RPC 2.0 request/response handling for the MCP client (see
 * session.h). Messages are parsed with the project's strict reader, so a
 * duplicate key or invalid UTF-8 in anything the server sends is a
 * protocol error like any other garbage; a hostile server gets no second
 * reading of its bytes.
 */
#include "mcp/session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Source bytes of server text quoted in a reason. */
#define QUOTE_PREFIX 40
#define QUOTE_MESSAGE 120

int mv_rpc_init(mv_rpc *r, mv_mcp_transport *t, uint64_t max_total, const mv_allocator *a) {
    memset(r, 0, sizeof(*r));
    r->t = t;
    r->alloc = a;
    r->next_id = 1;
    r->max_total = max_total;
    mv_buf_init(&r->in, a);
    mv_buf_init(&r->out, a);
    r->arena = mv_arena_new(a, 0);
    return r->arena != NULL ? MV_OK : MV_ENOMEM;
}

void mv_rpc_release(mv_rpc *r) {
    if (r == NULL)
        return;
    mv_arena_free(r->arena);
    r->arena = NULL;
    mv_buf_release(&r->in);
    mv_buf_release(&r->out);
}

static void failf(mv_mcp_failure *f, mv_mcp_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void failf(mv_mcp_failure *f, mv_mcp_status st, const char *fmt, ...) {
    va_list ap;
    memset(f, 0, sizeof(*f));
    f->status = st;
    va_start(ap, fmt);
    vsnprintf(f->reason, sizeof f->reason, fmt, ap);
    va_end(ap);
}

/* dst = "<method>: <reason>", cut to fit (reason may alias nothing in dst). */
static void prefix_reason(char *dst, size_t size, const char *method, const char *reason) {
    size_t o = 0;
    const char *parts[3] = {method, ": ", reason};
    for (int i = 0; i < 3; i++)
        for (const char *p = parts[i]; *p != '\0' && o + 1 < size; p++)
            dst[o++] = *p;
    dst[o] = '\0';
}

/* Render-safe, quoted start of what the server sent. */
static const char *prefix_of(char *q, const char *s, size_t len) {
    mv_json_quote(q, s, len, QUOTE_PREFIX);
    return q;
}

static void build_message(mv_rpc *r, const uint64_t *id, const char *method,
                          mv_rpc_params_fn params, void *arg) {
    mv_jw w;
    r->out.len = 0;
    mv_jw_init_compact(&w, &r->out);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "jsonrpc", "2.0");
    if (id != NULL)
        mv_jw_uint(&w, "id", *id);
    mv_jw_cstr(&w, "method", method);
    mv_jw_obj_begin(&w, "params");
    if (params != NULL)
        params(&w, arg);
    mv_jw_obj_end(&w);
    mv_jw_obj_end(&w);
}

/* An integer JSON number (no fraction or exponent) that fits. */
static bool number_to_ll(const mv_jv *v, long long *out) {
    char tmp[24];
    char *end = NULL;
    if (!mv_jis(v, MV_JNUMBER) || v->n == 0 || v->n >= sizeof tmp)
        return false;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->u.s[i] == '.' || v->u.s[i] == 'e' || v->u.s[i] == 'E')
            return false;
    memcpy(tmp, v->u.s, v->n);
    tmp[v->n] = '\0';
    *out = strtoll(tmp, &end, 10);
    return end == tmp + v->n;
}

static bool id_is(const mv_jv *id, uint64_t want) {
    long long v;
    return number_to_ll(id, &v) && v >= 0 && (uint64_t)v == want;
}

static bool id_abandoned(const mv_rpc *r, const mv_jv *id) {
    for (unsigned i = 0; i < r->n_abandoned; i++)
        if (id_is(id, r->abandoned[i]))
            return true;
    return false;
}

void mv_rpc_abandon_last(mv_rpc *r) {
    if (r->next_id <= 1)
        return;
    if (r->n_abandoned == sizeof r->abandoned / sizeof r->abandoned[0]) {
        memmove(r->abandoned, r->abandoned + 1, sizeof r->abandoned - sizeof r->abandoned[0]);
        r->n_abandoned--;
    }
    r->abandoned[r->n_abandoned++] = r->next_id - 1;
}

/* Answer a request the server sent us: ping gets an empty result (the
 * legacy revisions require it), anything else "method not found" (mcpvet
 * offers no sampling, roots or elicitation). Returns 0, MV_RPC_SEND_FAILED
 * (*fail filled) or MV_ENOMEM. */
static int answer_server_request(mv_rpc *r, const mv_jv *id, const char *method, size_t method_len,
                                 uint64_t deadline_ms, mv_mcp_failure *fail) {
    mv_buf reply;
    mv_jw w;
    mv_mcp_msg_info info;
    int rc;
    mv_buf_init(&reply, r->alloc);
    mv_jw_init_compact(&w, &reply);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "jsonrpc", "2.0");
    mv_jw_value(&w, "id", id);
    if (method_len == 4 && memcmp(method, "ping", 4) == 0) {
        mv_jw_obj_begin(&w, "result");
        mv_jw_obj_end(&w);
    } else {
        mv_jw_obj_begin(&w, "error");
        mv_jw_int(&w, "code", MV_RPC_METHOD_NOT_FOUND);
        mv_jw_cstr(&w, "message", "Method not found");
        mv_jw_obj_end(&w);
    }
    mv_jw_obj_end(&w);
    if (reply.failed) {
        mv_buf_release(&reply);
        return MV_ENOMEM;
    }
    memset(&info, 0, sizeof info);
    info.method = NULL; /* a response: no Mcp-Method */
    info.protocol_version = r->version;
    info.notification = true; /* no reply expected */
    rc = r->t->ops->send(r->t, reply.data, reply.len, &info, deadline_ms, fail) != 0
             ? MV_RPC_SEND_FAILED
             : MV_OK;
    mv_buf_release(&reply);
    r->server_requests++;
    return rc;
}

static void fill_error(mv_rpc_reply *rep, const char *method, const mv_jv *err) {
    char q[MV_JSON_QUOTE_SIZE(QUOTE_MESSAGE)];
    const mv_jv *code = mv_jobject_get(err, "code");
    const mv_jv *msg = mv_jobject_get(err, "message");
    rep->kind = MV_RPC_ERROR;
    rep->has_code = number_to_ll(code, &rep->code);
    rep->message = mv_jstring(msg);
    rep->message_len = mv_jstring_len(msg);
    rep->data = mv_jobject_get(err, "data");
    mv_json_quote(q, rep->message != NULL ? rep->message : "", rep->message_len, QUOTE_MESSAGE);
    if (rep->has_code)
        failf(&rep->fail, MV_MCP_SERVER_ERROR, "%s: the server answered with error %lld: %s",
              method, rep->code, q);
    else
        failf(&rep->fail, MV_MCP_SERVER_ERROR, "%s: the server answered with an error: %s", method,
              q);
    rep->fail.http_status = rep->http_status;
}

/*
 * Read messages until the response to `id`. Returns 0 (outcome in *rep) or
 * MV_ENOMEM.
 */
static int await_reply(mv_rpc *r, const char *method, uint64_t id, uint64_t deadline_ms,
                       uint64_t timeout_ms, mv_rpc_reply *rep) {
    char q[MV_JSON_QUOTE_SIZE(QUOTE_PREFIX)];
    for (;;) {
        mv_mcp_failure tf;
        mv_jerror jerr;
        const mv_jv *msg = NULL;
        memset(&tf, 0, sizeof tf);
        int got = r->t->ops->recv(r->t, &r->in, deadline_ms, &tf);
        /* The message buffer is the client's memory: a transport that could
         * not grow it has not seen a server fault (its reason would say
         * "cap" or "closed"); the fetch fails as out of memory. */
        if (r->in.failed)
            return MV_ENOMEM;
        if (got == 0) {
            failf(&rep->fail, MV_MCP_TIMEOUT, "%s: no answer within %llu ms", method,
                  (unsigned long long)timeout_ms);
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        if (got < 0) {
            rep->kind = MV_RPC_FAILED;
            rep->fail = tf;
            prefix_reason(rep->fail.reason, sizeof rep->fail.reason, method, tf.reason);
            return MV_OK;
        }
        r->received += r->in.len;
        if (r->received > r->max_total) {
            failf(&rep->fail, MV_MCP_CAP_HIT, "%s: the server sent more than %llu bytes in total",
                  method, (unsigned long long)r->max_total);
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        mv_arena_reset(r->arena);
        if (mv_json_parse(&msg, r->arena, NULL, r->in.data, r->in.len, &jerr) != MV_OK) {
            if (jerr.code == MV_ENOMEM)
                return MV_ENOMEM;
            failf(&rep->fail, MV_MCP_PROTOCOL_ERROR,
                  "%s: the server sent a message that is not valid JSON (byte %zu): %s", method,
                  jerr.offset, prefix_of(q, r->in.data, r->in.len));
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        const mv_jv *ver = mv_jobject_get(msg, "jsonrpc");
        if (!mv_jis_object(msg) || mv_jstring_len(ver) != 3 || memcmp(mv_jstring(ver), "2.0", 3)) {
            failf(&rep->fail, MV_MCP_PROTOCOL_ERROR,
                  "%s: the server sent JSON that is not a JSON-RPC 2.0 message: %s", method,
                  prefix_of(q, r->in.data, r->in.len));
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        const mv_jv *jid = mv_jobject_get(msg, "id");
        const mv_jv *jmethod = mv_jobject_get(msg, "method");
        if (jmethod != NULL) {
            if (!mv_jis_string(jmethod)) {
                failf(&rep->fail, MV_MCP_PROTOCOL_ERROR,
                      "%s: the server sent a message whose method is not a string: %s", method,
                      prefix_of(q, r->in.data, r->in.len));
                rep->kind = MV_RPC_FAILED;
                return MV_OK;
            }
            if (jid == NULL) { /* a notification: nothing to do for a scan */
                r->notifications++;
                continue;
            }
            if (!mv_jis(jid, MV_JNUMBER) && !mv_jis_string(jid)) {
                failf(&rep->fail, MV_MCP_PROTOCOL_ERROR,
                      "%s: the server sent a request whose id is neither a number nor a string: "
                      "%s",
                      method, prefix_of(q, r->in.data, r->in.len));
                rep->kind = MV_RPC_FAILED;
                return MV_OK;
            }
            int rc = answer_server_request(r, jid, mv_jstring(jmethod), mv_jstring_len(jmethod),
                                           deadline_ms, &tf);
            if (rc == MV_ENOMEM)
                return rc;
            if (rc != 0) {
                rep->kind = MV_RPC_FAILED;
                rep->fail = tf;
                prefix_reason(rep->fail.reason, sizeof rep->fail.reason,
                              "answering a request of the server", tf.reason);
                return MV_OK;
            }
            continue;
        }
        /* A response. */
        const mv_jv *result = mv_jobject_get(msg, "result");
        const mv_jv *error = mv_jobject_get(msg, "error");
        bool ours = id_is(jid, id) || (mv_jis_null(jid) && error != NULL);
        if (!ours && jid != NULL && id_abandoned(r, jid))
            continue;
        if (!ours) {
            failf(&rep->fail, MV_MCP_PROTOCOL_ERROR,
                  "%s: the server sent a response to a request that was never sent (or was "
                  "answered already): %s",
                  method, prefix_of(q, r->in.data, r->in.len));
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        if ((result == NULL) == (error == NULL)) {
            failf(&rep->fail, MV_MCP_PROTOCOL_ERROR, "%s: the response has %s: %s", method,
                  result == NULL ? "neither a result nor an error" : "both a result and an error",
                  prefix_of(q, r->in.data, r->in.len));
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        if (error != NULL) {
            if (!mv_jis_object(error)) {
                failf(&rep->fail, MV_MCP_PROTOCOL_ERROR, "%s: the error is not an object: %s",
                      method, prefix_of(q, r->in.data, r->in.len));
                rep->kind = MV_RPC_FAILED;
                return MV_OK;
            }
            fill_error(rep, method, error);
            return MV_OK;
        }
        if (!mv_jis_object(result)) {
            failf(&rep->fail, MV_MCP_PROTOCOL_ERROR, "%s: the result is %s, not an object", method,
                  mv_json_type(result));
            rep->kind = MV_RPC_FAILED;
            return MV_OK;
        }
        rep->kind = MV_RPC_RESULT;
        rep->result = result;
        return MV_OK;
    }
}

int mv_rpc_call(mv_rpc *r, const char *method, mv_rpc_params_fn params, void *arg,
                uint64_t deadline_ms, mv_rpc_reply *rep) {
    mv_mcp_msg_info info;
    mv_mcp_failure sf;
    uint64_t id = r->next_id++;
    uint64_t now = mv_mcp_now_ms();
    uint64_t budget = deadline_ms > now ? deadline_ms - now : 0;
    memset(rep, 0, sizeof(*rep));
    build_message(r, &id, method, params, arg);
    if (r->out.failed)
        return MV_ENOMEM;
    memset(&info, 0, sizeof info);
    info.method = method;
    info.protocol_version = r->version;
    memset(&sf, 0, sizeof sf);
    if (r->t->ops->send(r->t, r->out.data, r->out.len, &info, deadline_ms, &sf) != 0) {
        rep->http_status = sf.http_status;
        if (!sf.has_body) {
            rep->kind = MV_RPC_FAILED;
            rep->fail = sf;
            if (sf.status == MV_MCP_TIMEOUT)
                snprintf(rep->fail.reason, sizeof rep->fail.reason, "%s: no answer within %llu ms",
                         method, (unsigned long long)budget);
            else
                prefix_reason(rep->fail.reason, sizeof rep->fail.reason, method, sf.reason);
            return MV_OK;
        }
        /* The failed exchange carried a JSON-RPC message (queued for recv):
         * read it like any answer and keep the HTTP status beside it. */
        int rc = await_reply(r, method, id, deadline_ms, budget, rep);
        rep->http_status = sf.http_status;
        rep->fail.http_status = sf.http_status;
        if (rc == MV_OK && rep->kind == MV_RPC_FAILED) {
            rep->fail = sf;
            prefix_reason(rep->fail.reason, sizeof rep->fail.reason, method, sf.reason);
        }
        return rc;
    }
    return await_reply(r, method, id, deadline_ms, budget, rep);
}

int mv_rpc_notify(mv_rpc *r, const char *method, mv_rpc_params_fn params, void *arg,
                  uint64_t deadline_ms, mv_mcp_failure *fail) {
    mv_mcp_msg_info info;
    build_message(r, NULL, method, params, arg);
    if (r->out.failed)
        return MV_ENOMEM;
    memset(&info, 0, sizeof info);
    info.method = method;
    info.protocol_version = r->version;
    info.notification = true;
    if (r->t->ops->send(r->t, r->out.data, r->out.len, &info, deadline_ms, fail) != 0) {
        char tmp[sizeof fail->reason];
        memcpy(tmp, fail->reason, sizeof tmp);
        tmp[sizeof tmp - 1] = '\0';
        prefix_reason(fail->reason, sizeof fail->reason, method, tmp);
        return MV_RPC_SEND_FAILED;
    }
    return 0;
}

bool mv_rpc_is_unsupported_version(const mv_rpc_reply *rep, const mv_jv **supported) {
    const mv_jv *sup = mv_jobject_get(rep->data, "supported");
    *supported = NULL;
    if (rep->kind != MV_RPC_ERROR)
        return false;
    if (mv_jis_array(sup)) {
        *supported = sup;
        return true;
    }
    /* The draft code alone is not enough: legacy servers used -32004 for
     * their own purposes before 2026-07-28 gave it a meaning. */
    return rep->has_code && rep->code == MV_RPC_UNSUPPORTED_VERSION;
}
