/*
 * End-to-end tests of the two HTTP transports (src/mcp/http.c streamable
 * HTTP, src/mcp/sse.c legacy HTTP+SSE) against the transport contract
 * (src/mcp/transport.h), before any session logic exists: the test itself
 * writes the JSON-RPC messages (initialize, notifications/initialized,
 * tools/list) and reads the replies.
 *
 * Servers are real: the reference MCP server (mcp-server-everything in its
 * streamableHttp and sse modes, from tests/node, installed by `make test`;
 * missing means failure, not a skip) and our own hostile servers
 * (tests/fixtures/http/hostile.py: hang, drip, floods, a 1 GB message,
 * garbage, auth, 4xx/5xx, redirect loop, early close, SSE without or with a
 * foreign endpoint, a stateless 2026-07-28 server, a session server, the
 * poisoned tool list). Every server listens on 127.0.0.1 on a free port and
 * is killed (its whole process group) and reaped after its test.
 *
 * Each case checks the status, the reason (and that no secret is in it),
 * that it ended within a generous bound, and that no descriptor leaked.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <curl/curl.h>

#include "json/json.h"
#include "mcp/transport.h"
#include "mcpvet/arena.h"

#define SECRET "s3cret-token-do-not-print"
/* Generous bound on any single case that should stop at a short deadline. */
#define BOUND_MS 15000u

extern char **environ;

/* --------------------------------------------------------- processes */

typedef struct proc {
    pid_t pid;
    int out; /* the child's stdout (fixtures print PORT and EVENT lines) */
    char buf[8192];
    size_t len;
    int port;
} proc;

/* Children still running (pid and pipe), so a failed assertion, which
 * leaves the test function early, cannot leave a server behind: the
 * per-test teardown stops them. */
static struct {
    pid_t pid;
    int out;
} live[4];

static void track(pid_t pid, int out) {
    for (size_t i = 0; i < 4; i++)
        if (live[i].pid == 0) {
            live[i].pid = pid;
            live[i].out = out;
            return;
        }
}

static void untrack(pid_t pid) {
    for (size_t i = 0; i < 4; i++)
        if (live[i].pid == pid)
            live[i].pid = 0;
}

static const char *source_dir(void) {
    const char *d = getenv("MCPVET_SOURCE_DIR");
    return d != NULL ? d : ".";
}

static int count_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    struct dirent *e;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

/* Start argv with extra env (NULL-terminated "K=V" list), stdout piped,
 * stderr to /dev/null, in its own process group. */
static void spawn(proc *p, char *const argv[], const char *const *env_add) {
    int fds[2];
    memset(p, 0, sizeof *p);
    assert_int_equal(pipe(fds), 0);
    p->pid = fork();
    assert_true(p->pid >= 0);
    if (p->pid == 0) {
        setpgid(0, 0);
        /* Dies with the test binary, whatever happens to it. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(fds[1], 1);
        dup2(devnull, 2);
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        for (size_t i = 0; env_add != NULL && env_add[i] != NULL; i++) {
            char kv[256];
            snprintf(kv, sizeof kv, "%s", env_add[i]);
            char *eq = strchr(kv, '=');
            if (eq != NULL) {
                *eq = '\0';
                setenv(kv, eq + 1, 1);
            }
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    setpgid(p->pid, p->pid);
    close(fds[1]);
    p->out = fds[0];
    track(p->pid, p->out);
    fcntl(p->out, F_SETFD, FD_CLOEXEC);
}

/* Read the child's stdout until a line starting with `prefix` arrives;
 * copies the rest of that line into rest. False on timeout or EOF. */
static bool read_line(proc *p, const char *prefix, char *rest, size_t rest_size, int timeout_ms) {
    uint64_t deadline = mv_mcp_now_ms() + (uint64_t)timeout_ms;
    for (;;) {
        char *nl;
        while ((nl = memchr(p->buf, '\n', p->len)) != NULL) {
            size_t n = (size_t)(nl - p->buf);
            bool hit = n >= strlen(prefix) && memcmp(p->buf, prefix, strlen(prefix)) == 0;
            if (hit && rest != NULL) {
                size_t k = n - strlen(prefix);
                if (k >= rest_size)
                    k = rest_size - 1;
                memcpy(rest, p->buf + strlen(prefix), k);
                rest[k] = '\0';
            }
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            if (hit)
                return true;
        }
        uint64_t now = mv_mcp_now_ms();
        if (now >= deadline || p->len == sizeof p->buf)
            return false;
        struct pollfd pf = {p->out, POLLIN, 0};
        if (poll(&pf, 1, (int)(deadline - now)) <= 0)
            return false;
        ssize_t r = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
        if (r <= 0)
            return false;
        p->len += (size_t)r;
    }
}

static void stop(proc *p) {
    if (p->pid > 0) {
        untrack(p->pid);
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
        p->pid = 0;
    }
    if (p->out > 0)
        close(p->out);
    p->out = -1;
}

static void start_fixture(proc *p, const char *mode) {
    char script[4096];
    char rest[64];
    snprintf(script, sizeof script, "%s/tests/fixtures/http/hostile.py", source_dir());
    char *argv[] = {"python3", script, (char *)mode, NULL};
    spawn(p, argv, NULL);
    if (!read_line(p, "PORT ", rest, sizeof rest, 20000)) {
        stop(p);
        fail_msg("fixture %s did not print its port", mode);
    }
    p->port = atoi(rest);
    assert_true(p->port > 0);
}

/* A port nothing listens on right now. */
static int free_port(void) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    socklen_t al = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(s, (struct sockaddr *)&a, &al), 0);
    close(s);
    return ntohs(a.sin_port);
}

static bool can_connect(int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(s, (struct sockaddr *)&a, sizeof a) == 0;
    close(s);
    return ok;
}

/* mcp-server-everything in `mode` ("streamableHttp" or "sse"). */
static void start_everything(proc *p, const char *mode) {
    char bin[4096];
    static char port_env[32];
    snprintf(bin, sizeof bin, "%s/tests/node/node_modules/.bin/mcp-server-everything",
             source_dir());
    if (access(bin, X_OK) != 0)
        fail_msg("%s is missing: run scripts/install-node-deps.sh (make test does)", bin);
    for (int attempt = 0; attempt < 3; attempt++) {
        int port = free_port();
        snprintf(port_env, sizeof port_env, "PORT=%d", port);
        const char *env[] = {port_env, NULL};
        char *argv[] = {bin, (char *)mode, NULL};
        spawn(p, argv, env);
        p->port = port;
        uint64_t deadline = mv_mcp_now_ms() + 30000;
        while (mv_mcp_now_ms() < deadline) {
            if (can_connect(port))
                return;
            if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
                untrack(p->pid);
                p->pid = 0;
                break; /* the port was taken meanwhile: try another */
            }
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        stop(p);
    }
    fail_msg("mcp-server-everything %s did not start listening", mode);
}

/* ------------------------------------------------------------ helpers */

/* Status names for messages (mv_mcp_status_name belongs to the session
 * layer, which this test does not link). */
static const char *sname(mv_mcp_status s) {
    static const char *const names[] = {
        "ok",           "timeout",       "spawn_failed", "connect_failed", "protocol_error",
        "server_error", "auth_required", "closed",       "cap_hit",        "needs_input",
        "disabled",     "invalid_config"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static const mv_mcp_limits DEFAULT_LIMITS = {16u << 20, 64u << 20, 8192};

static mv_server_config config(char *url, mv_config_kv *headers, size_t n_headers) {
    mv_server_config c;
    memset(&c, 0, sizeof c);
    c.name = "test";
    c.url = url;
    c.headers = headers;
    c.n_headers = n_headers;
    c.readiness = MV_SERVER_READY;
    return c;
}

static const char INIT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcpvet-test\",\"version\":"
    "\"0\"}}}";
static const char INITIALIZED[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
static const char LIST[] = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";

static int send_msg(mv_mcp_transport *t, const char *msg, const char *method, const char *version,
                    bool notification, uint32_t budget_ms, mv_mcp_failure *f) {
    mv_mcp_msg_info info = {method, NULL, version, notification};
    memset(f, 0, sizeof *f);
    return t->ops->send(t, msg, strlen(msg), &info, mv_mcp_now_ms() + budget_ms, f);
}

/* The numeric "id" of a message, -1 when none; whether it has "result". */
static long msg_id(const mv_buf *m, bool *has_result) {
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *root = NULL;
    mv_jerror je;
    long id = -1;
    *has_result = false;
    if (mv_json_parse(&root, a, NULL, m->data, m->len, &je) == 0) {
        const mv_jv *v = mv_jobject_get(root, "id");
        if (mv_jis(v, MV_JNUMBER))
            id = strtol(v->u.s, NULL, 10);
        *has_result = mv_jobject_get(root, "result") != NULL;
    }
    mv_arena_free(a);
    return id;
}

/* recv until the response with `id` arrives; returns how many other
 * messages came first. Fails the test on any error. */
static int recv_answer(mv_mcp_transport *t, long id, mv_buf *out, uint32_t budget_ms) {
    uint64_t deadline = mv_mcp_now_ms() + budget_ms;
    int others = 0;
    for (;;) {
        mv_mcp_failure f;
        memset(&f, 0, sizeof f);
        int rc = t->ops->recv(t, out, deadline, &f);
        if (rc != 1)
            fail_msg("recv: rc %d status %s: %s", rc, sname(f.status), f.reason);
        bool res;
        if (msg_id(out, &res) == id && res)
            return others;
        others++;
    }
}

/* The whole handshake and tools/list; returns the tools/list response. */
static void handshake_and_list(mv_mcp_transport *t, const char *version, mv_buf *tools) {
    mv_mcp_failure f;
    mv_buf m;
    mv_buf_init(&m, NULL);
    if (send_msg(t, INIT, "initialize", NULL, false, 20000, &f) != 0)
        fail_msg("initialize: %s", f.reason);
    recv_answer(t, 1, &m, 20000);
    assert_non_null(strstr(m.data, "\"serverInfo\""));
    if (send_msg(t, INITIALIZED, "notifications/initialized", version, true, 20000, &f) != 0)
        fail_msg("initialized: %s", f.reason);
    if (send_msg(t, LIST, "tools/list", version, false, 20000, &f) != 0)
        fail_msg("tools/list: %s", f.reason);
    recv_answer(t, 2, tools, 20000);
    assert_non_null(strstr(tools->data, "\"tools\""));
    mv_buf_release(&m);
}

/* What one failing or succeeding exchange gave. */
typedef struct outcome {
    int rc;
    mv_mcp_failure f;
    uint64_t ms;
    mv_buf msgs[8]; /* what recv returned afterwards, up to its failure */
    int n_msgs;
    int recv_rc; /* the recv call that ended the drain */
    mv_mcp_failure recv_f;
} outcome;

static void outcome_release(outcome *o) {
    for (int i = 0; i < 8; i++)
        mv_buf_release(&o->msgs[i]);
}

/* Streamable HTTP: open `path` on the fixture, send INIT (or `msg`) with
 * `budget_ms`, drain recv; checks bounded time and no descriptor leak. */
static void http_exchange(int port, const char *path, mv_config_kv *headers, size_t n_headers,
                          const mv_mcp_limits *lim, const char *msg, const char *method,
                          const char *version, uint32_t budget_ms, outcome *o) {
    char url[256];
    mv_mcp_transport *t = NULL;
    memset(o, 0, sizeof *o);
    for (int i = 0; i < 8; i++)
        mv_buf_init(&o->msgs[i], NULL);
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
    mv_server_config cfg = config(url, headers, n_headers);
    int fds = count_fds();
    uint64_t t0 = mv_mcp_now_ms();
    assert_int_equal(
        mv_mcp_http_open(&t, &cfg, lim != NULL ? lim : &DEFAULT_LIMITS, t0 + budget_ms, &o->f), 0);
    assert_int_equal(t->kind, MV_TRANSPORT_HTTP);
    o->rc = send_msg(t, msg != NULL ? msg : INIT, method != NULL ? method : "initialize", version,
                     false, budget_ms, &o->f);
    if (o->rc == 0 || o->f.has_body) {
        mv_mcp_failure f;
        for (;;) {
            mv_buf tmp;
            mv_buf_init(&tmp, NULL);
            memset(&f, 0, sizeof f);
            int rc = t->ops->recv(t, &tmp, mv_mcp_now_ms() + budget_ms, &f);
            if (rc != 1) {
                o->recv_rc = rc;
                o->recv_f = f;
                mv_buf_release(&tmp);
                break;
            }
            if (o->n_msgs < 8)
                o->msgs[o->n_msgs] = tmp;
            else
                mv_buf_release(&tmp);
            o->n_msgs++;
        }
    }
    t->ops->close(t, NULL);
    o->ms = mv_mcp_now_ms() - t0;
    assert_int_equal(count_fds(), fds);
    if (o->ms > BOUND_MS)
        fail_msg("took %llu ms", (unsigned long long)o->ms);
}

static void expect_fail(const outcome *o, mv_mcp_status st, int http_status,
                        const char *in_reason) {
    if (o->rc != -1 || o->f.status != st)
        fail_msg("rc %d status %s (want %s): %s", o->rc, sname(o->f.status), sname(st),
                 o->f.reason);
    assert_int_equal(o->f.http_status, http_status);
    if (in_reason != NULL && strstr(o->f.reason, in_reason) == NULL)
        fail_msg("reason \"%s\" lacks \"%s\"", o->f.reason, in_reason);
    assert_null(strstr(o->f.reason, SECRET));
}

/* ------------------------------------------------- streamable HTTP: real */

static void test_http_everything(void **state) {
    (void)state;
    proc p;
    char url[128];
    mv_mcp_transport *t = NULL;
    mv_mcp_failure f;
    mv_buf tools;
    start_everything(&p, "streamableHttp");
    snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", p.port);
    mv_server_config cfg = config(url, NULL, 0);
    int fds = count_fds();
    mv_buf_init(&tools, NULL);
    assert_int_equal(mv_mcp_http_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 20000, &f), 0);
    handshake_and_list(t, "2025-06-18", &tools);
    /* The reference server's own tools, exactly as it sent them. */
    assert_non_null(strstr(tools.data, "\"name\":\"echo\""));
    assert_non_null(strstr(tools.data, "\"inputSchema\""));
    t->ops->close(t, NULL);
    assert_int_equal(count_fds(), fds);
    mv_buf_release(&tools);
    stop(&p);
}

/* ----------------------------------------------- streamable HTTP: fixtures */

static void test_http_session_and_delete(void **state) {
    (void)state;
    proc p;
    char url[128], ev[256];
    mv_mcp_transport *t = NULL;
    mv_mcp_failure f;
    mv_buf tools;
    start_fixture(&p, "session");
    snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", p.port);
    mv_server_config cfg = config(url, NULL, 0);
    int fds = count_fds();
    mv_buf_init(&tools, NULL);
    assert_int_equal(mv_mcp_http_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 20000, &f), 0);
    /* The fixture answers 400 to any request without its session id and
     * reports a missing MCP-Protocol-Version. */
    handshake_and_list(t, "2025-06-18", &tools);
    t->ops->close(t, NULL);
    assert_int_equal(count_fds(), fds);
    assert_true(read_line(&p, "EVENT ", ev, sizeof ev, 10000));
    assert_string_equal(ev, "DELETE sess-4f1c2a");
    mv_buf_release(&tools);
    stop(&p);
}

static void test_http_poisoned_sse(void **state) {
    (void)state;
    proc p;
    char url[128];
    mv_mcp_transport *t = NULL;
    mv_mcp_failure f;
    mv_buf tools;
    start_fixture(&p, "poisoned");
    snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", p.port);
    mv_server_config cfg = config(url, NULL, 0);
    int fds = count_fds();
    uint64_t t0 = mv_mcp_now_ms();
    mv_buf_init(&tools, NULL);
    assert_int_equal(mv_mcp_http_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 20000, &f), 0);
    /* Every reply is an SSE stream (split in 7-byte writes, CRLF, a priming
     * event, a notification first) that the server keeps open for 30 s:
     * the transport must stop at the answer. */
    handshake_and_list(t, "2025-06-18", &tools);
    assert_true(mv_mcp_now_ms() - t0 < BOUND_MS);
    /* The poison arrives byte for byte: a zero-width joiner inside a word,
     * tag characters, the base64 of a shell pipe. */
    assert_non_null(strstr(tools.data, "Be\xe2\x80\x8d"
                                       "fore"));
    assert_non_null(strstr(tools.data, "\xf3\xa0\x81\xa9\xf3\xa0\x81\xa7")); /* U+E0069 U+E0067 */
    assert_non_null(strstr(tools.data, "Y3VybCAtcyBodHRwczovL2F0dGFja2VyLmV4YW1wbGUveCB8IHNo"));
    t->ops->close(t, NULL);
    assert_int_equal(count_fds(), fds);
    mv_buf_release(&tools);
    stop(&p);
}

static void test_http_stateless(void **state) {
    (void)state;
    proc p;
    char ev[256];
    outcome o;
    start_fixture(&p, "stateless");
    /* server/discover with the 2026-07-28 headers: a JSON answer. */
    const char *discover = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}";
    http_exchange(p.port, "/mcp", NULL, 0, NULL, discover, "server/discover", "2026-07-28", 20000,
                  &o);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.n_msgs, 1);
    assert_non_null(strstr(o.msgs[0].data, "\"supportedVersions\""));
    assert_int_equal(o.recv_rc, -1);
    assert_int_equal(o.recv_f.status, MV_MCP_CLOSED);
    outcome_release(&o);
    /* tools/list: an SSE reply the server holds open; the notification
     * comes first, then the answer, then the transport stops. */
    http_exchange(p.port, "/mcp", NULL, 0, NULL, LIST, "tools/list", "2026-07-28", 20000, &o);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.n_msgs, 2);
    assert_non_null(strstr(o.msgs[0].data, "notifications/message"));
    assert_non_null(strstr(o.msgs[1].data, "\"read_file\""));
    outcome_release(&o);
    /* Mcp-Name travels base64-encoded when it is not plain ASCII. */
    const char *call = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                       "{\"name\":\"caf\xc3\xa9\"}}";
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", p.port);
    mv_server_config cfg = config(url, NULL, 0);
    mv_mcp_transport *t = NULL;
    mv_mcp_failure f;
    assert_int_equal(mv_mcp_http_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 20000, &f), 0);
    mv_mcp_msg_info info = {"tools/call", "caf\xc3\xa9", "2026-07-28", false};
    assert_int_equal(t->ops->send(t, call, strlen(call), &info, mv_mcp_now_ms() + 20000, &f), 0);
    t->ops->close(t, NULL);
    assert_true(read_line(&p, "EVENT ", ev, sizeof ev, 10000));
    assert_string_equal(ev, "Mcp-Name =?base64?Y2Fmw6k=?=");
    /* An older version: the modern server's 400 with a JSON-RPC body, the
     * session layer's cue to try another version. */
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, "2025-06-18", 20000, &o);
    expect_fail(&o, MV_MCP_PROTOCOL_ERROR, 400, "HTTP 400");
    assert_true(o.f.has_body);
    assert_int_equal(o.n_msgs, 1);
    assert_non_null(strstr(o.msgs[0].data, "UnsupportedProtocolVersion"));
    outcome_release(&o);
    stop(&p);
}

static void test_http_auth(void **state) {
    (void)state;
    proc p;
    outcome o;
    start_fixture(&p, "auth");
    /* No credentials: 401, the scheme named, nothing else of the header. */
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_AUTH_REQUIRED, 401, "Bearer");
    assert_null(strstr(o.f.reason, "realm"));
    assert_null(strstr(o.f.reason, "resource_metadata"));
    assert_false(o.f.has_body);
    outcome_release(&o);
    /* A wrong secret: still 401, and the value is nowhere in the reason. */
    mv_config_kv wrong[1] = {{"X-Api-Key", "wrong-secret-value-zz"}};
    http_exchange(p.port, "/mcp", wrong, 1, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_AUTH_REQUIRED, 401, "authentication");
    assert_null(strstr(o.f.reason, "wrong-secret-value-zz"));
    outcome_release(&o);
    /* The right one is sent and works. */
    mv_config_kv right[1] = {{"X-Api-Key", SECRET}};
    http_exchange(p.port, "/mcp", right, 1, NULL, NULL, NULL, NULL, 20000, &o);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.n_msgs, 1);
    assert_non_null(strstr(o.msgs[0].data, "\"serverInfo\""));
    outcome_release(&o);
    stop(&p);
}

static void test_http_statuses(void **state) {
    (void)state;
    proc p;
    outcome o;
    start_fixture(&p, "notfound");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_PROTOCOL_ERROR, 404, "HTTP 404");
    assert_true(o.f.has_body);
    assert_int_equal(o.n_msgs, 1);
    assert_non_null(strstr(o.msgs[0].data, "no MCP here"));
    outcome_release(&o);
    stop(&p);

    start_fixture(&p, "notallowed");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_PROTOCOL_ERROR, 405, "HTTP 405");
    assert_false(o.f.has_body);
    assert_int_equal(o.n_msgs, 0);
    outcome_release(&o);
    stop(&p);

    start_fixture(&p, "error500");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_SERVER_ERROR, 500, "HTTP 500");
    assert_false(o.f.has_body);
    outcome_release(&o);
    stop(&p);

    start_fixture(&p, "html");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_PROTOCOL_ERROR, 200, "text/html");
    outcome_release(&o);
    stop(&p);
}

static void test_http_redirects(void **state) {
    (void)state;
    proc p;
    char ev[256];
    outcome o;
    start_fixture(&p, "redirect_loop");
    http_exchange(p.port, "/a", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_PROTOCOL_ERROR, 307, "redirect loop");
    outcome_release(&o);
    stop(&p);

    /* A same-origin 308 is followed with the configured header. */
    start_fixture(&p, "redirect_ok");
    mv_config_kv key[1] = {{"X-Api-Key", SECRET}};
    http_exchange(p.port, "/mcp", key, 1, NULL, NULL, NULL, NULL, 20000, &o);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.n_msgs, 1);
    assert_non_null(strstr(o.msgs[0].data, "\"serverInfo\""));
    outcome_release(&o);
    /* Without the header the fixture notices: proves it checks. */
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    assert_int_equal(o.rc, 0);
    assert_true(read_line(&p, "EVENT ", ev, sizeof ev, 10000));
    assert_string_equal(ev, "missing header after redirect");
    outcome_release(&o);
    stop(&p);
}

static void test_http_timeouts(void **state) {
    (void)state;
    proc p;
    outcome o;
    start_fixture(&p, "hang");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 1500, &o);
    expect_fail(&o, MV_MCP_TIMEOUT, 0, NULL);
    assert_true(o.ms >= 1000);
    outcome_release(&o);
    stop(&p);

    /* One byte every half second, forever: ends at the deadline. */
    start_fixture(&p, "drip");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 2500, &o);
    expect_fail(&o, MV_MCP_TIMEOUT, 200, NULL);
    assert_true(o.ms >= 2000);
    outcome_release(&o);
    stop(&p);
}

static long peak_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void test_http_caps(void **state) {
    (void)state;
    proc p;
    outcome o;
    mv_mcp_limits small = {1u << 20, 4u << 20, 8192};
    long rss0 = peak_rss_kb();
    /* A 1 GB JSON message: aborted at the 1 MiB message cap. */
    start_fixture(&p, "huge_json");
    http_exchange(p.port, "/mcp", NULL, 0, &small, NULL, NULL, NULL, 60000, &o);
    expect_fail(&o, MV_MCP_CAP_HIT, 0, "1048576-byte cap");
    outcome_release(&o);
    stop(&p);
    /* A 1 GB single SSE event. */
    start_fixture(&p, "huge_sse");
    http_exchange(p.port, "/mcp", NULL, 0, &small, NULL, NULL, NULL, 60000, &o);
    expect_fail(&o, MV_MCP_CAP_HIT, 0, "message cap");
    outcome_release(&o);
    stop(&p);
    /* Never buffered whole: the peak grew by far less than the body. */
    assert_true(peak_rss_kb() - rss0 < 200 * 1024);

    /* An endless stream of small valid messages: the total cap ends it,
     * after the messages that fit were handed out. */
    start_fixture(&p, "flood_sse");
    http_exchange(p.port, "/mcp", NULL, 0, &small, NULL, NULL, NULL, 60000, &o);
    assert_int_equal(o.rc, 0);
    assert_true(o.n_msgs > 1000);
    assert_int_equal(o.recv_rc, -1);
    assert_int_equal(o.recv_f.status, MV_MCP_CAP_HIT);
    assert_non_null(strstr(o.recv_f.reason, "4194304-byte total cap"));
    outcome_release(&o);
    stop(&p);
}

static void test_http_broken(void **state) {
    (void)state;
    proc p;
    outcome o;
    /* Garbage is handed over as it is: validating JSON is the caller's. */
    start_fixture(&p, "garbage");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.n_msgs, 1);
    assert_int_equal(o.msgs[0].len, 21);
    assert_memory_equal(o.msgs[0].data, "\x00\xffthis is not json{{{", 21);
    assert_int_equal(o.recv_f.status, MV_MCP_CLOSED);
    outcome_release(&o);
    stop(&p);

    /* Content-Length 1000, 24 bytes, close. */
    start_fixture(&p, "close_early");
    http_exchange(p.port, "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_CLOSED, 200, NULL);
    outcome_release(&o);
    stop(&p);

    /* Nothing listens: connection refused. */
    http_exchange(free_port(), "/mcp", NULL, 0, NULL, NULL, NULL, NULL, 20000, &o);
    expect_fail(&o, MV_MCP_CONNECT_FAILED, 0, NULL);
    outcome_release(&o);
}

static void test_http_invalid_config(void **state) {
    (void)state;
    mv_mcp_transport *t = NULL;
    mv_mcp_failure f;
    int fds = count_fds();
    mv_server_config cfg = config("ftp://127.0.0.1/x", NULL, 0);
    assert_int_equal(mv_mcp_http_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 1000, &f), -1);
    assert_int_equal(f.status, MV_MCP_INVALID_CONFIG);
    assert_null(t);
    assert_int_equal(mv_mcp_sse_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 1000, &f), -1);
    assert_int_equal(f.status, MV_MCP_INVALID_CONFIG);
    mv_config_kv bad[1] = {{"Authorization", "Bearer " SECRET "\r\nX-Evil: 1"}};
    cfg = config("http://127.0.0.1:1/mcp", bad, 1);
    assert_int_equal(mv_mcp_http_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 1000, &f), -1);
    assert_int_equal(f.status, MV_MCP_INVALID_CONFIG);
    assert_null(strstr(f.reason, SECRET));
    assert_int_equal(count_fds(), fds);
}

/* ------------------------------------------------------------ legacy SSE */

static void test_sse_everything(void **state) {
    (void)state;
    proc p;
    char url[128];
    mv_mcp_transport *t = NULL;
    mv_mcp_failure f;
    mv_buf tools;
    start_everything(&p, "sse");
    snprintf(url, sizeof url, "http://127.0.0.1:%d/sse", p.port);
    mv_server_config cfg = config(url, NULL, 0);
    int fds = count_fds();
    mv_buf_init(&tools, NULL);
    if (mv_mcp_sse_open(&t, &cfg, &DEFAULT_LIMITS, mv_mcp_now_ms() + 20000, &f) != 0)
        fail_msg("sse open: %s: %s", sname(f.status), f.reason);
    assert_int_equal(t->kind, MV_TRANSPORT_SSE);
    handshake_and_list(t, NULL, &tools);
    assert_non_null(strstr(tools.data, "\"name\":\"echo\""));
    t->ops->close(t, NULL);
    assert_int_equal(count_fds(), fds);
    mv_buf_release(&tools);
    stop(&p);
}

/* Legacy SSE: open against the fixture; returns the open's rc. */
static int sse_open_case(int port, const char *path, const mv_mcp_limits *lim, uint32_t budget_ms,
                         mv_mcp_failure *f, mv_mcp_transport **t, uint64_t *ms) {
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
    mv_server_config cfg = config(url, NULL, 0);
    uint64_t t0 = mv_mcp_now_ms();
    memset(f, 0, sizeof *f);
    int rc = mv_mcp_sse_open(t, &cfg, lim != NULL ? lim : &DEFAULT_LIMITS, t0 + budget_ms, f);
    *ms = mv_mcp_now_ms() - t0;
    assert_true(*ms < BOUND_MS);
    assert_true(rc == 0 ? *t != NULL : *t == NULL);
    return rc;
}

static void test_sse_hostile_open(void **state) {
    (void)state;
    proc p;
    mv_mcp_failure f;
    mv_mcp_transport *t = NULL;
    uint64_t ms;
    int fds = count_fds();

    start_fixture(&p, "sse_no_endpoint");
    assert_int_equal(sse_open_case(p.port, "/sse", NULL, 1500, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_TIMEOUT);
    assert_non_null(strstr(f.reason, "no endpoint event"));
    assert_true(ms >= 1000);
    stop(&p);

    start_fixture(&p, "sse_foreign_endpoint");
    assert_int_equal(sse_open_case(p.port, "/sse", NULL, 20000, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_PROTOCOL_ERROR);
    assert_non_null(strstr(f.reason, "another origin"));
    assert_null(strstr(f.reason, "attacker"));
    stop(&p);

    start_fixture(&p, "auth");
    assert_int_equal(sse_open_case(p.port, "/sse", NULL, 20000, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_AUTH_REQUIRED);
    assert_int_equal(f.http_status, 401);
    assert_non_null(strstr(f.reason, "Basic"));
    stop(&p);

    start_fixture(&p, "hang");
    assert_int_equal(sse_open_case(p.port, "/sse", NULL, 1500, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_TIMEOUT);
    stop(&p);

    start_fixture(&p, "redirect_loop");
    assert_int_equal(sse_open_case(p.port, "/a", NULL, 20000, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_PROTOCOL_ERROR);
    assert_non_null(strstr(f.reason, "redirect loop"));
    stop(&p);

    /* The streamable-only fixture answers GET with 405. */
    start_fixture(&p, "session");
    assert_int_equal(sse_open_case(p.port, "/mcp", NULL, 20000, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_PROTOCOL_ERROR);
    assert_int_equal(f.http_status, 405);
    stop(&p);

    assert_int_equal(sse_open_case(free_port(), "/sse", NULL, 20000, &f, &t, &ms), -1);
    assert_int_equal(f.status, MV_MCP_CONNECT_FAILED);
    assert_int_equal(count_fds(), fds);
}

static void test_sse_caps(void **state) {
    (void)state;
    proc p;
    mv_mcp_failure f;
    mv_mcp_transport *t = NULL;
    mv_buf m;
    uint64_t ms;
    mv_mcp_limits small = {1u << 20, 4u << 20, 8192};
    int fds = count_fds();
    long rss0 = peak_rss_kb();
    mv_buf_init(&m, NULL);

    /* Endless small messages on the stream: handed out until the total
     * cap, then CAP_HIT. */
    start_fixture(&p, "flood_sse");
    assert_int_equal(sse_open_case(p.port, "/sse", &small, 20000, &f, &t, &ms), 0);
    int n = 0, rc;
    uint64_t deadline = mv_mcp_now_ms() + 60000;
    while ((rc = t->ops->recv(t, &m, deadline, &f)) == 1)
        n++;
    assert_int_equal(rc, -1);
    assert_int_equal(f.status, MV_MCP_CAP_HIT);
    assert_true(n > 1000);
    t->ops->close(t, NULL);
    stop(&p);

    /* One 1 GB event after the endpoint: the message cap. */
    start_fixture(&p, "huge_sse");
    assert_int_equal(sse_open_case(p.port, "/sse", &small, 20000, &f, &t, &ms), 0);
    rc = t->ops->recv(t, &m, mv_mcp_now_ms() + 60000, &f);
    assert_int_equal(rc, -1);
    assert_int_equal(f.status, MV_MCP_CAP_HIT);
    assert_non_null(strstr(f.reason, "message cap"));
    t->ops->close(t, NULL);
    stop(&p);
    assert_true(peak_rss_kb() - rss0 < 200 * 1024);

    /* A quiet stream: a POST is accepted (202), then recv times out at
     * its deadline, returning 0. */
    start_fixture(&p, "sse_quiet");
    assert_int_equal(sse_open_case(p.port, "/sse", NULL, 20000, &f, &t, &ms), 0);
    if (send_msg(t, INIT, "initialize", NULL, false, 20000, &f) != 0)
        fail_msg("POST to the endpoint: %s: %s", sname(f.status), f.reason);
    uint64_t t0 = mv_mcp_now_ms();
    rc = t->ops->recv(t, &m, t0 + 1500, &f);
    assert_int_equal(rc, 0);
    assert_int_equal(f.status, MV_MCP_TIMEOUT);
    assert_true(mv_mcp_now_ms() - t0 >= 1000 && mv_mcp_now_ms() - t0 < BOUND_MS);
    /* A POST the endpoint refuses. */
    assert_int_equal(send_msg(t, LIST, "tools/list", NULL, false, 20000, &f), -1);
    assert_int_equal(f.status, MV_MCP_SERVER_ERROR);
    assert_int_equal(f.http_status, 500);
    t->ops->close(t, NULL);
    stop(&p);
    mv_buf_release(&m);
    assert_int_equal(count_fds(), fds);
}

static int stop_children(void **state) {
    (void)state;
    for (size_t i = 0; i < 4; i++)
        if (live[i].pid > 0) {
            kill(-live[i].pid, SIGKILL);
            kill(live[i].pid, SIGKILL);
            waitpid(live[i].pid, NULL, 0);
            close(live[i].out);
            live[i].pid = 0;
        }
    return 0;
}

static int setup(void **state) {
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    curl_global_cleanup();
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_http_invalid_config, stop_children),
        cmocka_unit_test_teardown(test_http_everything, stop_children),
        cmocka_unit_test_teardown(test_http_session_and_delete, stop_children),
        cmocka_unit_test_teardown(test_http_poisoned_sse, stop_children),
        cmocka_unit_test_teardown(test_http_stateless, stop_children),
        cmocka_unit_test_teardown(test_http_auth, stop_children),
        cmocka_unit_test_teardown(test_http_statuses, stop_children),
        cmocka_unit_test_teardown(test_http_redirects, stop_children),
        cmocka_unit_test_teardown(test_http_timeouts, stop_children),
        cmocka_unit_test_teardown(test_http_caps, stop_children),
        cmocka_unit_test_teardown(test_http_broken, stop_children),
        cmocka_unit_test_teardown(test_sse_everything, stop_children),
        cmocka_unit_test_teardown(test_sse_hostile_open, stop_children),
        cmocka_unit_test_teardown(test_sse_caps, stop_children),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
