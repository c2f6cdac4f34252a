/*
 * Plumbing shared by the streamable HTTP and legacy HTTP+SSE transports
 * (see http_common.h). Everything the server sends is hostile: text from a
 * reply reaches a reason only through mv_mcp_sanitize, and nothing here
 * ever prints a configured header value or a URL beyond its origin.
 */
#include "mcp/http_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>

#include "json/json.h"
#include "mcpvet/arena.h"

/* ------------------------------------------------------------ failures */

int mv_mcp_fail(mv_mcp_failure *fail, mv_mcp_status status, int http_status, const char *fmt, ...) {
    va_list ap;
    if (fail == NULL)
        return -1;
    fail->status = status;
    fail->http_status = http_status;
    fail->has_body = false;
    va_start(ap, fmt);
    vsnprintf(fail->reason, sizeof fail->reason, fmt, ap);
    va_end(ap);
    return -1;
}

void mv_mcp_sanitize(char *dst, size_t dst_size, const char *src, size_t len, size_t max) {
    size_t n = 0;
    if (dst_size == 0)
        return;
    for (size_t i = 0; i < len && n < max && n + 1 < dst_size; i++) {
        unsigned char c = (unsigned char)src[i];
        dst[n++] = c >= 0x20 && c < 0x7F ? (char)c : '?';
    }
    dst[n] = '\0';
}

long mv_mcp_ms_left(uint64_t deadline_ms) {
    uint64_t now = mv_mcp_now_ms();
    if (deadline_ms <= now)
        return 1;
    uint64_t left = deadline_ms - now;
    return left > 0x7FFFFFFFu ? 0x7FFFFFFFL : (long)left;
}

/* -------------------------------------------------------- message queue */

struct mv_mcp_msgq_node {
    mv_mcp_msgq_node *next;
    mv_buf msg;
};

int mv_mcp_msgq_push(mv_mcp_msgq *q, const char *data, size_t len) {
    mv_mcp_msgq_node *n = calloc(1, sizeof *n);
    if (n == NULL)
        return MV_ENOMEM;
    mv_buf_init(&n->msg, NULL);
    if (mv_buf_append(&n->msg, data, len) != MV_OK) {
        mv_buf_release(&n->msg);
        free(n);
        return MV_ENOMEM;
    }
    if (q->tail != NULL)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    q->count++;
    return 0;
}

int mv_mcp_msgq_pop(mv_mcp_msgq *q, mv_buf *out) {
    mv_mcp_msgq_node *n = q->head;
    int rc = 1;
    if (n == NULL)
        return 0;
    q->head = n->next;
    if (q->head == NULL)
        q->tail = NULL;
    q->count--;
    if (out->alloc == NULL && !out->failed) {
        /* Same allocator: hand the buffer over instead of copying it. */
        mv_buf_release(out);
        *out = n->msg;
    } else {
        out->len = 0;
        if (mv_buf_append(out, n->msg.data, n->msg.len) != MV_OK)
            rc = MV_ENOMEM;
        mv_buf_release(&n->msg);
    }
    free(n);
    return rc;
}

void mv_mcp_msgq_clear(mv_mcp_msgq *q) {
    mv_mcp_msgq_node *n = q->head;
    while (n != NULL) {
        mv_mcp_msgq_node *next = n->next;
        mv_buf_release(&n->msg);
        free(n);
        n = next;
    }
    q->head = q->tail = NULL;
    q->count = 0;
}

/* ------------------------------------------------------ JSON-RPC ids */

void mv_mcp_rpc_id_release(mv_mcp_rpc_id *id) {
    if (id == NULL)
        return;
    free(id->text);
    id->text = NULL;
    id->len = 0;
    id->type = 0;
}

static int id_set(mv_mcp_rpc_id *id, const mv_jv *v) {
    if (!mv_jis(v, MV_JSTRING) && !mv_jis(v, MV_JNUMBER))
        return 0;
    id->text = malloc((size_t)v->n + 1);
    if (id->text == NULL)
        return MV_ENOMEM;
    memcpy(id->text, v->u.s, v->n);
    id->text[v->n] = '\0';
    id->len = v->n;
    id->type = (int)v->type;
    return 0;
}

int mv_mcp_rpc_id_of(mv_mcp_rpc_id *id, const char *msg, size_t len) {
    mv_arena *arena = mv_arena_new(NULL, 0);
    const mv_jv *root = NULL;
    mv_jerror jerr;
    int rc = 0;
    memset(id, 0, sizeof *id);
    if (arena == NULL)
        return MV_ENOMEM;
    if (mv_json_parse(&root, arena, NULL, msg, len, &jerr) == 0)
        rc = id_set(id, mv_jobject_get(root, "id"));
    else if (jerr.code == MV_ENOMEM)
        rc = MV_ENOMEM;
    mv_arena_free(arena);
    return rc;
}

/* Whether object `v` is a response carrying `want`. */
static bool is_answer(const mv_jv *v, const mv_mcp_rpc_id *want) {
    const mv_jv *id = mv_jobject_get(v, "id");
    if (want == NULL || want->type == 0 || id == NULL || id->type != (uint32_t)want->type)
        return false;
    if (mv_jobject_get(v, "result") == NULL && mv_jobject_get(v, "error") == NULL)
        return false;
    return id->n == want->len && memcmp(id->u.s, want->text, want->len) == 0;
}

/* Skip whitespace. */
static size_t skip_ws(const char *s, size_t i, size_t len) {
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/*
 * Split a batch already validated by the strict parser into its elements'
 * exact bytes. Validity makes this a simple scan: only strings (with their
 * escapes) and nesting matter to find the commas of the top level.
 */
static int split_batch(mv_mcp_msgq *q, const char *s, size_t len) {
    size_t i = skip_ws(s, 0, len) + 1; /* past '[' */
    int depth = 0, rc = 0;
    bool in_str = false;
    size_t start = skip_ws(s, i, len);
    for (; i < len && rc == 0; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"') {
            in_str = true;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ',' || c == ']') && depth == 0) {
            size_t end = i;
            while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\n' ||
                                   s[end - 1] == '\r'))
                end--;
            if (end > start)
                rc = mv_mcp_msgq_push(q, s + start, end - start);
            if (c == ']')
                break;
            start = skip_ws(s, i + 1, len);
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return rc;
}

int mv_mcp_queue_payload(mv_mcp_msgq *q, const char *data, size_t len, const mv_mcp_rpc_id *want,
                         bool *answered) {
    mv_arena *arena = NULL;
    const mv_jv *root = NULL;
    mv_jerror jerr;
    int rc = 0;
    if (skip_ws(data, 0, len) == len)
        return 0; /* blank: an SSE priming event or a keep-alive */
    arena = mv_arena_new(NULL, 0);
    if (arena == NULL)
        return MV_ENOMEM;
    if (mv_json_parse(&root, arena, NULL, data, len, &jerr) != 0) {
        /* Not JSON: queued as it is so the session reports it with its
         * offset; out of memory is ours to report. */
        rc = jerr.code == MV_ENOMEM ? MV_ENOMEM : mv_mcp_msgq_push(q, data, len);
        goto done;
    }
    if (mv_jis_array(root) && root->n > 0) {
        rc = split_batch(q, data, len);
        for (size_t i = 0; i < root->n && answered != NULL; i++)
            if (is_answer(&root->u.items[i], want))
                *answered = true;
    } else {
        rc = mv_mcp_msgq_push(q, data, len);
        if (answered != NULL && is_answer(root, want))
            *answered = true;
    }
done:
    mv_arena_free(arena);
    return rc;
}

/* ------------------------------------------------------ URLs and origin */

/* Parse an absolute URL and check it is http(s). */
static CURLU *url_parse(const char *url) {
    CURLU *u = curl_url();
    char *scheme = NULL;
    if (u == NULL)
        return NULL;
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
        curl_free(scheme);
        curl_url_cleanup(u);
        return NULL;
    }
    curl_free(scheme);
    return u;
}

static int origin_of(char *dst, size_t dst_size, CURLU *u) {
    char *scheme = NULL, *host = NULL, *port = NULL;
    int rc = MV_EINVAL;
    if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK)
        goto done;
    /* Host names compare without case (curl keeps them as written). */
    for (char *c = host; *c != '\0'; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    int n = snprintf(dst, dst_size, "%s://%s:%s", scheme, host, port);
    rc = n > 0 && (size_t)n < dst_size ? 0 : MV_EINVAL;
done:
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    return rc;
}

int mv_mcp_url_origin(char *dst, size_t dst_size, const char *url) {
    CURLU *u = url_parse(url);
    int rc;
    if (dst_size > 0)
        dst[0] = '\0';
    if (u == NULL)
        return MV_EINVAL;
    rc = origin_of(dst, dst_size, u);
    curl_url_cleanup(u);
    return rc;
}

char *mv_mcp_url_resolve(const char *base, const char *ref, size_t ref_len) {
    CURLU *u = url_parse(base);
    char *copy = NULL, *out = NULL, *scheme = NULL, *result = NULL;
    if (u == NULL)
        goto done;
    copy = malloc(ref_len + 1);
    if (copy == NULL || memchr(ref, '\0', ref_len) != NULL)
        goto done;
    memcpy(copy, ref, ref_len);
    copy[ref_len] = '\0';
    /* Setting a URL on a handle that holds one resolves it relative to it. */
    if (curl_url_set(u, CURLUPART_URL, copy, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) ||
        curl_url_get(u, CURLUPART_URL, &out, 0) != CURLUE_OK)
        goto done;
    result = strdup(out);
done:
    curl_free(out);
    curl_free(scheme);
    free(copy);
    curl_url_cleanup(u);
    return result;
}

bool mv_mcp_url_is_loopback(const char *url) {
    CURLU *u = url_parse(url);
    char *host = NULL;
    bool yes = false;
    struct in_addr a4;
    if (u != NULL && curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
        yes = strcasecmp(host, "localhost") == 0 || strcmp(host, "[::1]") == 0 ||
              (inet_pton(AF_INET, host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127);
    curl_free(host);
    curl_url_cleanup(u);
    return yes;
}

/* --------------------------------------------------------------- headers */

static bool is_tchar(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Headers the transports set themselves; a configured one is dropped. */
static const char *const RESERVED[] = {
    "accept",     "content-type", "content-length", "transfer-encoding",
    "expect",     "connection",   "mcp-session-id", "mcp-protocol-version",
    "mcp-method", "mcp-name",     "last-event-id",  NULL};

static bool is_reserved(const char *name) {
    for (size_t i = 0; RESERVED[i] != NULL; i++)
        if (strcasecmp(name, RESERVED[i]) == 0)
            return true;
    return false;
}

void mv_mcp_headers_release(mv_mcp_headers *h) {
    if (h == NULL)
        return;
    for (size_t i = 0; i < h->n; i++) {
        /* The line holds a secret: clear it before it goes back. */
        volatile char *p = h->lines[i];
        while (*p != '\0')
            *p++ = '\0';
        free(h->lines[i]);
    }
    free(h->lines);
    h->lines = NULL;
    h->n = 0;
}

int mv_mcp_headers_copy(mv_mcp_headers *h, const mv_server_config *server, mv_mcp_failure *fail) {
    int rc = -1;
    memset(h, 0, sizeof *h);
    if (server->n_headers == 0)
        return 0;
    h->lines = calloc(server->n_headers, sizeof *h->lines);
    if (h->lines == NULL) {
        mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory copying the headers");
        goto done;
    }
    for (size_t i = 0; i < server->n_headers; i++) {
        const char *name = server->headers[i].name;
        const char *value = server->headers[i].value != NULL ? server->headers[i].value : "";
        size_t nl = name != NULL ? strlen(name) : 0;
        char shown[80];
        if (nl == 0) {
            mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0, "a configured header has an empty name");
            goto done;
        }
        for (size_t k = 0; k < nl; k++)
            if (!is_tchar((unsigned char)name[k])) {
                mv_mcp_sanitize(shown, sizeof shown, name, nl, 64);
                mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0,
                            "configured header name \"%s\" is not a valid HTTP header name", shown);
                goto done;
            }
        if (strpbrk(value, "\r\n") != NULL) {
            mv_mcp_fail(fail, MV_MCP_INVALID_CONFIG, 0,
                        "the value of configured header %s contains a line break", name);
            goto done;
        }
        if (is_reserved(name))
            continue;
        while (*value == ' ' || *value == '\t')
            value++;
        size_t vl = strlen(value);
        char *line = malloc(nl + vl + 3);
        if (line == NULL) {
            mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory copying the headers");
            goto done;
        }
        /* curl sends "Name;" as a header with an empty value ("Name:" would
         * remove the header instead). */
        if (vl == 0)
            snprintf(line, nl + 2, "%s;", name);
        else
            snprintf(line, nl + vl + 3, "%s: %s", name, value);
        h->lines[h->n++] = line;
    }
    rc = 0;
done:
    if (rc != 0)
        mv_mcp_headers_release(h);
    return rc;
}

struct curl_slist *mv_mcp_headers_append(struct curl_slist *list, const mv_mcp_headers *h) {
    for (size_t i = 0; i < h->n; i++) {
        struct curl_slist *next = curl_slist_append(list, h->lines[i]);
        if (next == NULL) {
            curl_slist_free_all(list);
            return NULL;
        }
        list = next;
    }
    return list;
}

struct curl_slist *mv_mcp_slist_add(struct curl_slist *list, const char *name, const char *value) {
    size_t n = strlen(name) + strlen(value) + 3;
    char *line = malloc(n);
    struct curl_slist *next = NULL;
    if (line != NULL) {
        snprintf(line, n, "%s: %s", name, value);
        next = curl_slist_append(list, line);
        free(line);
    }
    if (next == NULL)
        curl_slist_free_all(list);
    return next;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

struct curl_slist *mv_mcp_slist_add_encoded(struct curl_slist *list, const char *name,
                                            const char *value) {
    size_t len = strlen(value);
    bool plain =
        len > 0 && value[0] != ' ' && value[len - 1] != ' ' && strncmp(value, "=?base64?", 9) != 0;
    for (size_t i = 0; i < len && plain; i++)
        plain = (unsigned char)value[i] >= 0x20 && (unsigned char)value[i] < 0x7F;
    if (plain)
        return mv_mcp_slist_add(list, name, value);
    /* Anything else travels as base64 of its UTF-8 bytes (SEP-2243). */
    char *enc = malloc(12 + (len + 2) / 3 * 4 + 1);
    struct curl_slist *next = NULL;
    if (enc != NULL) {
        size_t o = 0;
        memcpy(enc, "=?base64?", 9);
        o = 9;
        for (size_t i = 0; i < len; i += 3) {
            uint32_t v = (uint32_t)(unsigned char)value[i] << 16;
            if (i + 1 < len)
                v |= (uint32_t)(unsigned char)value[i + 1] << 8;
            if (i + 2 < len)
                v |= (uint32_t)(unsigned char)value[i + 2];
            enc[o++] = B64[(v >> 18) & 63];
            enc[o++] = B64[(v >> 12) & 63];
            enc[o++] = i + 1 < len ? B64[(v >> 6) & 63] : '=';
            enc[o++] = i + 2 < len ? B64[v & 63] : '=';
        }
        memcpy(enc + o, "?=", 3);
        next = mv_mcp_slist_add(list, name, enc);
        free(enc);
        return next;
    }
    curl_slist_free_all(list);
    return NULL;
}

bool mv_mcp_header_is(const char *line, size_t len, const char *name, const char **value,
                      size_t *value_len) {
    size_t nl = strlen(name);
    if (len <= nl || line[nl] != ':' || strncasecmp(line, name, nl) != 0)
        return false;
    size_t b = nl + 1, e = len;
    while (b < e && (line[b] == ' ' || line[b] == '\t'))
        b++;
    while (e > b && (line[e - 1] == '\r' || line[e - 1] == '\n' || line[e - 1] == ' ' ||
                     line[e - 1] == '\t'))
        e--;
    *value = line + b;
    *value_len = e - b;
    return true;
}

bool mv_mcp_content_type_is(const char *ct, const char *type) {
    size_t n = strlen(type);
    if (ct == NULL)
        return false;
    while (*ct == ' ')
        ct++;
    if (strncasecmp(ct, type, n) != 0)
        return false;
    ct += n;
    while (*ct == ' ' || *ct == '\t')
        ct++;
    return *ct == '\0' || *ct == ';';
}

/* --------------------------------------------------------------- libcurl */

CURLcode mv_mcp_curl_setup(CURL *h, const char *url, uint64_t deadline_ms, bool total_timeout,
                           char *errbuf) {
    CURLcode rc = CURLE_OK;
    long left = mv_mcp_ms_left(deadline_ms);
#define SET(opt, val)                                                                              \
    do {                                                                                           \
        if (rc == CURLE_OK)                                                                        \
            rc = curl_easy_setopt(h, opt, val);                                                    \
    } while (0)
    SET(CURLOPT_URL, url);
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    /* Redirects are followed by hand so configured headers never reach
     * another origin and a loop is named as such. */
    SET(CURLOPT_FOLLOWLOCATION, 0L);
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_USERAGENT, "mcpvet/" MCPVET_VERSION);
    SET(CURLOPT_ERRORBUFFER, errbuf);
    SET(CURLOPT_CONNECTTIMEOUT_MS, left);
    if (total_timeout) {
        SET(CURLOPT_TIMEOUT_MS, left);
        /* A drip of under one byte a second for the rest of the budget ends
         * the transfer even where the total timer would not fire first. */
        SET(CURLOPT_LOW_SPEED_LIMIT, 1L);
        SET(CURLOPT_LOW_SPEED_TIME, left / 1000 > 0 ? left / 1000 : 1L);
    }
    if (mv_mcp_url_is_loopback(url))
        SET(CURLOPT_PROXY, "");
#undef SET
    return rc;
}

int mv_mcp_fail_curl(mv_mcp_failure *fail, CURLcode rc, const char *what) {
    mv_mcp_status st;
    switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_USE_SSL_FAILED:
    case CURLE_UNSUPPORTED_PROTOCOL:
        st = MV_MCP_CONNECT_FAILED;
        break;
    case CURLE_OPERATION_TIMEDOUT:
        st = MV_MCP_TIMEOUT;
        break;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
        st = MV_MCP_CLOSED;
        break;
    default:
        st = MV_MCP_PROTOCOL_ERROR;
        break;
    }
    /* curl_easy_strerror is fixed text: the error buffer could quote the
     * server or the URL and is never used in a reason. */
    return mv_mcp_fail(fail, st, 0, "%s failed: %s", what, curl_easy_strerror(rc));
}

int mv_mcp_fail_status(mv_mcp_failure *fail, long status, const char *auth_scheme,
                       const char *what) {
    int code = (int)status;
    if (status == 401 || status == 403) {
        if (auth_scheme != NULL && auth_scheme[0] != '\0')
            return mv_mcp_fail(fail, MV_MCP_AUTH_REQUIRED, code,
                               "%s: HTTP %ld, the server requires authentication (%s)", what,
                               status, auth_scheme);
        return mv_mcp_fail(fail, MV_MCP_AUTH_REQUIRED, code,
                           "%s: HTTP %ld, the server requires authentication", what, status);
    }
    if (status >= 500 && status <= 599)
        return mv_mcp_fail(fail, MV_MCP_SERVER_ERROR, code, "%s: HTTP %ld server error", what,
                           status);
    return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, code, "%s: HTTP %ld", what, status);
}

void mv_mcp_redirects_release(mv_mcp_redirects *r) {
    for (size_t i = 0; i < r->n; i++)
        free(r->visited[i]);
    r->n = 0;
}

int mv_mcp_redirect_check(mv_mcp_redirects *r, const char *from, const char *to,
                          mv_mcp_failure *fail) {
    char from_origin[512], to_origin[512];
    if (mv_mcp_url_origin(from_origin, sizeof from_origin, from) != 0 ||
        mv_mcp_url_origin(to_origin, sizeof to_origin, to) != 0)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0,
                           "redirect to a URL that is not http or https");
    if (strncmp(from_origin, "https:", 6) == 0 && strncmp(to_origin, "https:", 6) != 0)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0,
                           "redirect from https to plain http refused");
    if (r->n == 0) {
        r->visited[0] = strdup(from);
        if (r->visited[0] == NULL)
            return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
        r->n = 1;
    }
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->visited[i], to) == 0)
            return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "redirect loop at %s", to_origin);
    if (r->n > MV_MCP_MAX_REDIRECTS)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "more than %d redirects",
                           MV_MCP_MAX_REDIRECTS);
    r->visited[r->n] = strdup(to);
    if (r->visited[r->n] == NULL)
        return mv_mcp_fail(fail, MV_MCP_PROTOCOL_ERROR, 0, "out of memory");
    r->n++;
    return 0;
}

bool mv_mcp_count_total(uint64_t *total, uint64_t cap, size_t n, mv_mcp_failure *fail) {
    if (n > cap || *total > cap - n) {
        mv_mcp_fail(fail, MV_MCP_CAP_HIT, 0, "the server sent more than the %llu-byte total cap",
                    (unsigned long long)cap);
        return false;
    }
    *total += n;
    return true;
}
