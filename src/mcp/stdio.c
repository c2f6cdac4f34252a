/*
 * The stdio transport: start an MCP server's command as a child process and
 * exchange newline-delimited JSON-RPC messages over its stdin and stdout.
 *
 * The command is untrusted and may be hostile, so everything is bounded:
 * it runs in its own process group (so one kill reaches every process it
 * forks), only its stdin, stdout and stderr are inherited (every other
 * descriptor is closed in the child), reads wait in poll() against the
 * caller's deadline, one line is never buffered beyond max_message_bytes (a
 * 1 GB line fails with MV_MCP_CAP_HIT after the cap, not after 1 GB), and
 * stderr is kept up to its cap and drained beyond it so the server never
 * blocks on a full stderr pipe while we wait for stdout.
 *
 * The child is started with posix_spawn (glibc reports exec failures such as
 * ENOENT and EACCES as its return value, and nothing of ours runs between
 * fork and exec), with POSIX_SPAWN_SETPGROUP for the process group,
 * posix_spawn_file_actions_addclosefrom_np for the descriptors and
 * posix_spawn_file_actions_addchdir_np for the working directory (glibc
 * 2.34 and 2.29; Debian 12 ships 2.36). The child starts with every signal
 * at its default disposition and an empty signal mask, whatever mcpvet
 * itself ignores or blocks.
 *
 * SIGPIPE: writing to a server that closed its stdin must not kill mcpvet,
 * and a library must not change the process's signal dispositions. Each
 * write blocks SIGPIPE in the calling thread, and when the write failed
 * with EPIPE the signal it raised (thread-directed, so pending on this
 * thread only) is consumed with sigtimedwait before the mask is restored.
 *
 * Thread-safety: nothing here is global; several threads run transports
 * concurrently. The environment is read (never written) to build the
 * child's; a program that calls setenv while fetching is on its own.
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_add{chdir,closefrom}_np, pipe2 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "mcp/transport.h"

extern char **environ;

/* Grace periods of close(): after stdin is closed, after SIGTERM, and how
 * long to wait for killed descendants to disappear from the group. */
#define EXIT_GRACE_MS 500u
#define TERM_GRACE_MS 500u
#define GROUP_GONE_MS 2000u
/* Bytes read from a pipe per read(). */
#define CHUNK 65536u

typedef struct stdio_transport {
    mv_mcp_transport base;
    pid_t pid; /* also the process group id */
    int in_fd, out_fd, err_fd;
    mv_mcp_limits lim;
    /* Unconsumed stdout bytes; always starts at the current line. */
    char *rbuf;
    size_t rlen, rcap;
    size_t scanned; /* bytes of rbuf known to hold no newline */
    uint64_t total;
    bool eof;
    /* A failure that ends the stream (cap hit, read error): every later
     * send and recv repeats it. */
    bool broken;
    mv_mcp_failure broken_fail;
    /* stderr kept for the report */
    char *err_text;
    size_t err_len;
    bool err_truncated;
    bool err_eof;
    /* Exit status seen with WNOWAIT (the child stays a zombie, keeping its
     * pid and process group id reserved until close() reaps it). */
    bool exited;
    int exit_status;
    bool signalled;                    /* we sent SIGTERM or SIGKILL before it exited */
    char name[MV_JSON_QUOTE_SIZE(40)]; /* the command's base name, render-safe, quoted */
} stdio_transport;

static void set_fail(mv_mcp_failure *fail, mv_mcp_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_fail(mv_mcp_failure *fail, mv_mcp_status st, const char *fmt, ...) {
    va_list ap;
    if (fail == NULL)
        return;
    memset(fail, 0, sizeof(*fail));
    fail->status = st;
    va_start(ap, fmt);
    vsnprintf(fail->reason, sizeof fail->reason, fmt, ap);
    va_end(ap);
}

/* Thread-safe strerror (the GNU variant, as _GNU_SOURCE selects). */
static const char *errno_text(int e, char *buf, size_t size) {
    return strerror_r(e, buf, size);
}

/* The base name of the command, quoted render-safe, for reasons: a path
 * might name a user's folders, and a command line its arguments (secrets);
 * the base name is the most a reason shows. */
#define LABEL_SRC 40
static void command_label(char dst[MV_JSON_QUOTE_SIZE(LABEL_SRC)], const char *command) {
    const char *base = strrchr(command, '/');
    base = base != NULL ? base + 1 : command;
    mv_json_quote(dst, base, strlen(base), LABEL_SRC);
}

static int timeout_until(uint64_t deadline_ms, uint64_t cap_ms) {
    uint64_t now = mv_mcp_now_ms();
    uint64_t left = deadline_ms > now ? deadline_ms - now : 0;
    if (left > cap_ms)
        left = cap_ms;
    return (int)left;
}

/* ------------------------------------------------------------- exit status */

/* Peek whether the child has exited, leaving it a zombie (see `exited`). */
static bool peek_exit(stdio_transport *s) {
    siginfo_t si;
    if (s->exited)
        return true;
    if (s->pid <= 0)
        return false; /* adopted descriptors: no child */
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)s->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0)
        return false;
    s->exited = true;
    if (si.si_code == CLD_EXITED)
        s->exit_status = si.si_status;
    else if (s->signalled)
        s->exit_status = -1;
    else
        s->exit_status = 128 + si.si_status; /* it died of a signal of its own */
    return true;
}

/* ------------------------------------------------------------------ stderr */

/* Read what stderr has now (non-blocking), keeping up to the cap. */
static void drain_stderr(stdio_transport *s) {
    char scratch[4096];
    while (s->err_fd >= 0 && !s->err_eof) {
        char *dst = scratch;
        size_t room = sizeof scratch;
        size_t keep_room = s->lim.max_stderr_bytes - s->err_len;
        if (s->err_text != NULL && keep_room > 0) {
            dst = s->err_text + s->err_len;
            room = keep_room;
        }
        ssize_t n = read(s->err_fd, dst, room);
        if (n > 0) {
            if (dst != scratch)
                s->err_len += (size_t)n;
            else
                s->err_truncated = true;
            continue;
        }
        if (n == 0)
            s->err_eof = true;
        else if (errno == EINTR)
            continue;
        else if (errno != EAGAIN && errno != EWOULDBLOCK)
            s->err_eof = true; /* unreadable: stop watching it */
        break;
    }
}

static void closed_reason(stdio_transport *s, mv_mcp_failure *fail, const char *what);

/* ------------------------------------------------------------------- write */

/* write() with SIGPIPE blocked in this thread; a SIGPIPE raised by this
 * write is consumed, one that was pending before is left alone. */
static ssize_t write_nosigpipe(int fd, const void *p, size_t n) {
    sigset_t pipe_set, old, pending;
    bool was_pending;
    ssize_t w;
    int saved;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigemptyset(&pending);
    sigpending(&pending);
    was_pending = sigismember(&pending, SIGPIPE) == 1;
    w = write(fd, p, n);
    saved = errno;
    if (w < 0 && saved == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return w;
}

static int stdio_send(mv_mcp_transport *t, const char *msg, size_t len, const mv_mcp_msg_info *info,
                      uint64_t deadline_ms, mv_mcp_failure *fail) {
    stdio_transport *s = (stdio_transport *)t;
    const char *seg[2] = {msg, "\n"};
    size_t seg_len[2] = {len, 1};
    size_t k = 0, off = 0;
    char eb[128];
    (void)info;
    if (s->broken) {
        *fail = s->broken_fail;
        return -1;
    }
    if (s->in_fd < 0) {
        set_fail(fail, MV_MCP_CLOSED, "the server's input is closed");
        return -1;
    }
    while (k < 2) {
        ssize_t w = write_nosigpipe(s->in_fd, seg[k] + off, seg_len[k] - off);
        if (w >= 0) {
            off += (size_t)w;
            if (off == seg_len[k]) {
                k++;
                off = 0;
            }
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EPIPE) {
            closed_reason(s, fail, "closed its input");
            return -1;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            set_fail(fail, MV_MCP_CLOSED, "cannot write to the server: %s",
                     errno_text(errno, eb, sizeof eb));
            return -1;
        }
        /* The pipe is full: wait for room, draining stderr meanwhile so a
         * server blocked on stderr can go on reading its stdin. */
        int wait_ms = timeout_until(deadline_ms, 1000);
        struct pollfd pf[2] = {{s->in_fd, POLLOUT, 0}, {s->err_fd, POLLIN, 0}};
        if (wait_ms <= 0) {
            set_fail(fail, MV_MCP_TIMEOUT, "the server did not read its input before the deadline");
            return -1;
        }
        if (s->err_eof)
            pf[1].fd = -1;
        if (poll(pf, 2, wait_ms) < 0 && errno != EINTR) {
            set_fail(fail, MV_MCP_CLOSED, "poll failed: %s", errno_text(errno, eb, sizeof eb));
            return -1;
        }
        if (pf[1].revents != 0)
            drain_stderr(s);
    }
    return 0;
}

/* -------------------------------------------------------------------- read */

static void break_stream(stdio_transport *s, mv_mcp_failure *fail) {
    s->broken = true;
    s->broken_fail = *fail;
}

/* Why stdout ended: the exit status when the server has exited (a short
 * wait, since a process closing stdout is usually exiting). */
static void closed_reason(stdio_transport *s, mv_mcp_failure *fail, const char *what) {
    uint64_t until = mv_mcp_now_ms() + (s->pid > 0 ? 200 : 0);
    while (!peek_exit(s) && mv_mcp_now_ms() < until) {
        struct pollfd pf = {s->err_fd, POLLIN, 0};
        if (s->err_eof)
            pf.fd = -1;
        if (poll(&pf, 1, 10) > 0)
            drain_stderr(s);
    }
    if (s->exited && s->exit_status >= 0 && s->exit_status < 128)
        set_fail(fail, MV_MCP_CLOSED, "the server (%s) exited with status %d", s->name,
                 s->exit_status);
    else if (s->exited)
        set_fail(fail, MV_MCP_CLOSED, "the server (%s) was killed by signal %d", s->name,
                 s->exit_status - 128);
    else
        set_fail(fail, MV_MCP_CLOSED, "the server (%s) %s", s->name, what);
}

/* Room for the current line: a line of max_message_bytes plus "\r\n". */
static int grow_rbuf(stdio_transport *s, size_t want) {
    size_t cap = s->rcap != 0 ? s->rcap : 4096;
    char *p;
    while (cap < want)
        cap = cap > SIZE_MAX / 2 ? want : cap * 2;
    if (cap == s->rcap)
        return 0;
    p = realloc(s->rbuf, cap);
    if (p == NULL)
        return -1;
    s->rbuf = p;
    s->rcap = cap;
    return 0;
}

/* A complete line at the head of rbuf: 1 (message in out), 0 (none yet, or
 * a blank line was skipped: call again), -1 (cap). */
static int take_line(stdio_transport *s, mv_buf *out, mv_mcp_failure *fail, bool *again) {
    char *nl =
        s->rlen > s->scanned ? memchr(s->rbuf + s->scanned, '\n', s->rlen - s->scanned) : NULL;
    size_t line, eat;
    *again = false;
    if (nl == NULL) {
        s->scanned = s->rlen;
        if (s->eof && s->rlen > 0) {
            line = eat = s->rlen; /* a last message without its newline */
        } else {
            return 0;
        }
    } else {
        line = (size_t)(nl - s->rbuf);
        eat = line + 1;
    }
    if (line > 0 && s->rbuf[line - 1] == '\r')
        line--;
    if (line > s->lim.max_message_bytes) {
        set_fail(fail, MV_MCP_CAP_HIT, "a message from the server is longer than %llu bytes",
                 (unsigned long long)s->lim.max_message_bytes);
        break_stream(s, fail);
        return -1;
    }
    bool blank = true;
    for (size_t i = 0; i < line && blank; i++)
        blank = s->rbuf[i] == ' ' || s->rbuf[i] == '\t' || s->rbuf[i] == '\r';
    out->len = 0;
    if (!blank) {
        mv_buf_append(out, s->rbuf, line);
        if (out->failed) {
            set_fail(fail, MV_MCP_CAP_HIT, "out of memory while reading a message");
            break_stream(s, fail);
            return -1;
        }
    }
    memmove(s->rbuf, s->rbuf + eat, s->rlen - eat);
    s->rlen -= eat;
    s->scanned = 0;
    *again = blank;
    return blank ? 0 : 1;
}

static int stdio_recv(mv_mcp_transport *t, mv_buf *out, uint64_t deadline_ms,
                      mv_mcp_failure *fail) {
    stdio_transport *s = (stdio_transport *)t;
    char eb[128];
    uint64_t line_room = s->lim.max_message_bytes + 2;
    if (s->broken) {
        *fail = s->broken_fail;
        return -1;
    }
    for (;;) {
        bool again;
        int rc = take_line(s, out, fail, &again);
        if (rc != 0)
            return rc;
        if (again)
            continue;
        if (s->rlen >= line_room) {
            set_fail(fail, MV_MCP_CAP_HIT, "a message from the server is longer than %llu bytes",
                     (unsigned long long)s->lim.max_message_bytes);
            break_stream(s, fail);
            return -1;
        }
        if (s->eof) {
            closed_reason(s, fail, "closed its output");
            break_stream(s, fail);
            return -1;
        }
        int wait_ms = timeout_until(deadline_ms, 1000);
        if (wait_ms <= 0) {
            set_fail(fail, MV_MCP_TIMEOUT, "the server (%s) did not answer before the deadline",
                     s->name);
            return 0;
        }
        struct pollfd pf[2] = {{s->out_fd, POLLIN, 0}, {s->err_fd, POLLIN, 0}};
        if (s->err_eof)
            pf[1].fd = -1;
        if (poll(pf, 2, wait_ms) < 0) {
            if (errno == EINTR)
                continue;
            set_fail(fail, MV_MCP_CLOSED, "poll failed: %s", errno_text(errno, eb, sizeof eb));
            break_stream(s, fail);
            return -1;
        }
        if (pf[1].revents != 0)
            drain_stderr(s);
        if (pf[0].revents == 0)
            continue;
        /* Read no further than the cap of the line being assembled. */
        size_t want = (size_t)(line_room - s->rlen);
        if (want > CHUNK)
            want = CHUNK;
        if (grow_rbuf(s, s->rlen + want) != 0) {
            set_fail(fail, MV_MCP_CAP_HIT, "out of memory while reading a message");
            break_stream(s, fail);
            return -1;
        }
        ssize_t n = read(s->out_fd, s->rbuf + s->rlen, want);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            set_fail(fail, MV_MCP_CLOSED, "cannot read from the server: %s",
                     errno_text(errno, eb, sizeof eb));
            break_stream(s, fail);
            return -1;
        }
        if (n == 0) {
            s->eof = true;
            continue;
        }
        s->rlen += (size_t)n;
        s->total += (uint64_t)n;
        if (s->total > s->lim.max_total_bytes) {
            set_fail(fail, MV_MCP_CAP_HIT, "the server sent more than %llu bytes in total",
                     (unsigned long long)s->lim.max_total_bytes);
            break_stream(s, fail);
            return -1;
        }
    }
}

/* ------------------------------------------------------------------- close */

/* Wait up to `ms` for the child to exit, draining stderr meanwhile (a
 * server flushing a large stderr on its way out must not block on it). */
static bool wait_exit(stdio_transport *s, uint32_t ms) {
    uint64_t until = mv_mcp_now_ms() + ms;
    for (;;) {
        if (peek_exit(s))
            return true;
        int wait_ms = timeout_until(until, 10);
        if (wait_ms <= 0)
            return false;
        struct pollfd pf = {s->err_fd, POLLIN, 0};
        if (s->err_eof)
            pf.fd = -1;
        if (poll(&pf, 1, wait_ms) > 0)
            drain_stderr(s);
    }
}

static void close_fd(int *fd) {
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static void stdio_close(mv_mcp_transport *t, mv_mcp_result *r) {
    stdio_transport *s = (stdio_transport *)t;
    if (s == NULL)
        return;
    if (s->pid > 0) {
        /* An MCP server's normal shutdown is the end of its input. */
        close_fd(&s->in_fd);
        if (!wait_exit(s, EXIT_GRACE_MS)) {
            s->signalled = true;
            kill(-s->pid, SIGTERM);
            if (!wait_exit(s, TERM_GRACE_MS))
                kill(-s->pid, SIGKILL);
        }
        /* The leader is a zombie now or about to die; its process group
         * id cannot be reused before it is reaped, so this reaches only
         * what it left behind in its group. */
        kill(-s->pid, SIGKILL);
        int st;
        while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR) {
        }
        if (!s->exited) {
            s->exited = true;
            s->exit_status = -1;
        }
        /* What the server forked is orphaned now and, mcpvet being a
         * child subreaper, reparented to this process: reap it until the
         * group is gone, so no process or zombie of this fetch is left. */
        uint64_t until = mv_mcp_now_ms() + GROUP_GONE_MS;
        while (kill(-s->pid, 0) == 0 && mv_mcp_now_ms() < until) {
            struct timespec ts = {0, 2 * 1000 * 1000};
            kill(-s->pid, SIGKILL);
            while (waitpid(-s->pid, &st, WNOHANG) > 0) {
            }
            if (kill(-s->pid, 0) != 0)
                break;
            nanosleep(&ts, NULL);
        }
        drain_stderr(s);
    }
    if (r != NULL) {
        free(r->stderr_text);
        r->stderr_text = NULL;
        r->stderr_len = 0;
        if (s->err_text != NULL) {
            r->stderr_text = malloc(s->err_len + 1);
            if (r->stderr_text != NULL) {
                memcpy(r->stderr_text, s->err_text, s->err_len);
                r->stderr_text[s->err_len] = '\0';
                r->stderr_len = s->err_len;
            }
        }
        r->stderr_truncated = s->err_truncated;
        r->exit_status = s->exited ? s->exit_status : -1;
    }
    close_fd(&s->in_fd);
    close_fd(&s->out_fd);
    close_fd(&s->err_fd);
    free(s->err_text);
    free(s->rbuf);
    free(s);
}

static const mv_mcp_transport_ops stdio_ops = {stdio_send, stdio_recv, stdio_close};

int mv_mcp_stdio_adopt(mv_mcp_transport **out, int in_fd, int out_fd, int err_fd,
                       const mv_mcp_limits *lim) {
    stdio_transport *s = calloc(1, sizeof(*s));
    *out = NULL;
    if (s == NULL || (lim->max_stderr_bytes > 0 && err_fd >= 0 &&
                      (s->err_text = malloc(lim->max_stderr_bytes)) == NULL)) {
        free(s);
        return MV_ENOMEM;
    }
    s->base.ops = &stdio_ops;
    s->base.kind = MV_TRANSPORT_STDIO;
    s->lim = *lim;
    s->in_fd = in_fd;
    s->out_fd = out_fd;
    s->err_fd = err_fd;
    s->err_eof = err_fd < 0;
    command_label(s->name, "adopted");
    *out = &s->base;
    return MV_OK;
}

/* ------------------------------------------------------------------ relay */

int mv_mcp_stdio_fds(mv_mcp_transport *t, int *in_fd, int *out_fd, int *err_fd) {
    if (t == NULL || t->ops != &stdio_ops)
        return -1;
    stdio_transport *s = (stdio_transport *)t;
    if (in_fd != NULL)
        *in_fd = s->in_fd;
    if (out_fd != NULL)
        *out_fd = s->out_fd;
    if (err_fd != NULL)
        *err_fd = s->err_fd;
    return 0;
}

void mv_mcp_stdio_close_input(mv_mcp_transport *t) {
    if (t == NULL || t->ops != &stdio_ops)
        return;
    close_fd(&((stdio_transport *)t)->in_fd);
}

/* ------------------------------------------------------------------- spawn */

static bool name_matches(const char *entry, const char *name, size_t name_len) {
    return strncmp(entry, name, name_len) == 0 && entry[name_len] == '=';
}

/* The inherited environment with the configured entries added or
 * replacing inherited ones. Strings of `environ` are borrowed; configured
 * ones are allocated and listed in *owned. */
static char **build_env(const mv_server_config *server, char ***owned, size_t *n_owned) {
    size_t n_inherit = 0, n = 0;
    char **env = NULL;
    *owned = NULL;
    *n_owned = 0;
    while (environ != NULL && environ[n_inherit] != NULL)
        n_inherit++;
    env = calloc(n_inherit + server->n_env + 1, sizeof(*env));
    *owned = calloc(server->n_env + 1, sizeof(**owned));
    if (env == NULL || *owned == NULL)
        goto fail;
    for (size_t i = 0; i < n_inherit; i++) {
        bool replaced = false;
        for (size_t k = 0; k < server->n_env && !replaced; k++)
            replaced = name_matches(environ[i], server->env[k].name, strlen(server->env[k].name));
        if (!replaced)
            env[n++] = environ[i];
    }
    for (size_t k = 0; k < server->n_env; k++) {
        const char *name = server->env[k].name;
        const char *value = server->env[k].value != NULL ? server->env[k].value : "";
        size_t nl = strlen(name), vl = strlen(value);
        bool dup = false;
        for (size_t j = 0; j < k && !dup; j++)
            dup = strcmp(server->env[j].name, name) == 0;
        if (dup) /* the later entry wins, as in a shell */
            for (size_t j = 0; j < n; j++)
                if (name_matches(env[j], name, nl)) {
                    memmove(&env[j], &env[j + 1], (n - j - 1) * sizeof(*env));
                    n--;
                    break;
                }
        char *kv = malloc(nl + vl + 2);
        if (kv == NULL)
            goto fail;
        memcpy(kv, name, nl);
        kv[nl] = '=';
        memcpy(kv + nl + 1, value, vl + 1);
        (*owned)[(*n_owned)++] = kv;
        env[n++] = kv;
    }
    env[n] = NULL;
    return env;
fail:
    free(env);
    if (*owned != NULL)
        for (size_t i = 0; i < *n_owned; i++)
            free((*owned)[i]);
    free(*owned);
    *owned = NULL;
    *n_owned = 0;
    return NULL;
}

/* Find `command` on the PATH of the environment the child gets (a config
 * may set PATH for its server). Returns a malloc'd path or NULL. */
static char *find_in_path(const char *command, char *const *env, int *err) {
    const char *path = "/usr/local/bin:/usr/bin:/bin";
    size_t cl = strlen(command);
    *err = ENOENT;
    for (size_t i = 0; env[i] != NULL; i++)
        if (strncmp(env[i], "PATH=", 5) == 0)
            path = env[i] + 5;
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t dl = end != NULL ? (size_t)(end - p) : strlen(p);
        char *full = malloc(dl + cl + 3);
        struct stat st;
        if (full == NULL) {
            *err = ENOMEM;
            return NULL;
        }
        if (dl == 0) {
            memcpy(full, ".", 2);
            dl = 1;
        } else {
            memcpy(full, p, dl);
        }
        full[dl] = '/';
        memcpy(full + dl + 1, command, cl + 1);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            if (access(full, X_OK) == 0)
                return full;
            *err = EACCES;
        }
        free(full);
        if (end == NULL)
            break;
        p = end + 1;
    }
    return NULL;
}

/* pipe2 with O_CLOEXEC, both ends moved above 2 so a dup2 onto 0, 1 or 2
 * in the child never meets itself (which would keep FD_CLOEXEC). */
static int cloexec_pipe(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        if (fds[i] <= 2) {
            int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
            if (moved < 0) {
                close(fds[0]);
                close(fds[1]);
                return -1;
            }
            close(fds[i]);
            fds[i] = moved;
        }
    }
    return 0;
}

static int set_nonblock(int fd) {
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int mv_mcp_stdio_open(mv_mcp_transport **out, const mv_server_config *server,
                      const mv_mcp_limits *lim, uint64_t deadline_ms, mv_mcp_failure *fail) {
    stdio_transport *s = NULL;
    char **argv = NULL, **env = NULL, **owned = NULL, *path = NULL;
    size_t n_owned = 0;
    int in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    bool fa_ok = false, attr_ok = false;
    int rc = -1, e;
    char eb[128];
    (void)deadline_ms; /* starting is immediate; the handshake has the deadline */
    *out = NULL;
    /* Processes the server forks outlive it as orphans; as a subreaper
     * mcpvet gets them instead of init (which, in some containers, never
     * reaps), so close() can reap them. Idempotent and process-wide. */
    prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L);
    if (server == NULL || server->command == NULL || server->command[0] == '\0') {
        set_fail(fail, MV_MCP_SPAWN_FAILED, "no command to start");
        goto done;
    }
    s = calloc(1, sizeof(*s));
    argv = calloc(server->n_args + 2, sizeof(*argv));
    if (s == NULL || argv == NULL) {
        set_fail(fail, MV_MCP_SPAWN_FAILED, "out of memory");
        goto done;
    }
    s->base.ops = &stdio_ops;
    s->base.kind = MV_TRANSPORT_STDIO;
    s->in_fd = s->out_fd = s->err_fd = -1;
    s->lim = *lim;
    s->exit_status = -1;
    command_label(s->name, server->command);
    for (size_t i = 0; i < server->n_env; i++) {
        const char *nm = server->env[i].name;
        if (nm == NULL || nm[0] == '\0' || strchr(nm, '=') != NULL) {
            set_fail(fail, MV_MCP_SPAWN_FAILED,
                     "cannot start %s: an environment variable name is empty or contains '='",
                     s->name);
            goto done;
        }
    }
    if (s->lim.max_stderr_bytes > 0) {
        s->err_text = malloc(s->lim.max_stderr_bytes);
        if (s->err_text == NULL) {
            set_fail(fail, MV_MCP_SPAWN_FAILED, "out of memory");
            goto done;
        }
    }
    env = build_env(server, &owned, &n_owned);
    if (env == NULL) {
        set_fail(fail, MV_MCP_SPAWN_FAILED, "out of memory");
        goto done;
    }
    if (strchr(server->command, '/') != NULL) {
        /* Relative to the configured cwd, which the child enters first. */
        path = strdup(server->command);
        if (path == NULL) {
            set_fail(fail, MV_MCP_SPAWN_FAILED, "out of memory");
            goto done;
        }
    } else {
        path = find_in_path(server->command, env, &e);
        if (path == NULL) {
            if (e == EACCES)
                set_fail(fail, MV_MCP_SPAWN_FAILED,
                         "cannot start %s: the command is not executable", s->name);
            else
                set_fail(fail, MV_MCP_SPAWN_FAILED, "cannot start %s: command not found in PATH",
                         s->name);
            goto done;
        }
    }
    argv[0] = server->command;
    for (size_t i = 0; i < server->n_args; i++)
        argv[i + 1] = server->args[i];
    argv[server->n_args + 1] = NULL;

    if (cloexec_pipe(in) != 0 || cloexec_pipe(outp) != 0 || cloexec_pipe(errp) != 0) {
        set_fail(fail, MV_MCP_SPAWN_FAILED, "cannot start %s: pipe: %s", s->name,
                 errno_text(errno, eb, sizeof eb));
        goto done;
    }
    if ((e = posix_spawn_file_actions_init(&fa)) != 0)
        goto spawn_error;
    fa_ok = true;
    if ((e = posix_spawn_file_actions_adddup2(&fa, in[0], 0)) != 0 ||
        (e = posix_spawn_file_actions_adddup2(&fa, outp[1], 1)) != 0 ||
        (e = posix_spawn_file_actions_adddup2(&fa, errp[1], 2)) != 0 ||
        (server->cwd != NULL && server->cwd[0] != '\0' &&
         (e = posix_spawn_file_actions_addchdir_np(&fa, server->cwd)) != 0) ||
        (e = posix_spawn_file_actions_addclosefrom_np(&fa, 3)) != 0)
        goto spawn_error;
    if ((e = posix_spawnattr_init(&attr)) != 0)
        goto spawn_error;
    attr_ok = true;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if ((e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                 POSIX_SPAWN_SETSIGDEF)) != 0 ||
        (e = posix_spawnattr_setpgroup(&attr, 0)) != 0 ||
        (e = posix_spawnattr_setsigmask(&attr, &none)) != 0 ||
        (e = posix_spawnattr_setsigdefault(&attr, &all)) != 0)
        goto spawn_error;
    e = posix_spawn(&s->pid, path, &fa, &attr, argv, env);
    if (e != 0) {
        s->pid = 0;
        goto spawn_error;
    }
    close_fd(&in[0]);
    close_fd(&outp[1]);
    close_fd(&errp[1]);
    s->in_fd = in[1];
    s->out_fd = outp[0];
    s->err_fd = errp[0];
    in[1] = outp[0] = errp[0] = -1;
    if (set_nonblock(s->in_fd) != 0 || set_nonblock(s->out_fd) != 0 ||
        set_nonblock(s->err_fd) != 0) {
        set_fail(fail, MV_MCP_SPAWN_FAILED, "cannot start %s: fcntl: %s", s->name,
                 errno_text(errno, eb, sizeof eb));
        goto done;
    }
    *out = &s->base;
    s = NULL;
    rc = 0;
    goto done;
spawn_error:
    if (e == ENOENT && server->cwd != NULL && access(server->cwd, X_OK) != 0)
        set_fail(fail, MV_MCP_SPAWN_FAILED,
                 "cannot start %s: the working directory does not exist or cannot be entered",
                 s->name);
    else
        set_fail(fail, MV_MCP_SPAWN_FAILED, "cannot start %s: %s", s->name,
                 errno_text(e, eb, sizeof eb));
done:
    if (fa_ok)
        posix_spawn_file_actions_destroy(&fa);
    if (attr_ok)
        posix_spawnattr_destroy(&attr);
    for (int i = 0; i < 2; i++) {
        close_fd(&in[i]);
        close_fd(&outp[i]);
        close_fd(&errp[i]);
    }
    if (s != NULL)
        stdio_close(&s->base, NULL);
    for (size_t i = 0; i < n_owned; i++)
        free(owned[i]);
    free(owned);
    free(env);
    free(argv);
    free(path);
    return rc;
}
