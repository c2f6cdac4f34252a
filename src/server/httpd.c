/*
 * The HTTP rules both servers share (httpd.h): the API key, the listen
 * address, the Host/Origin allow-list and the whole-request deadline.
 *
 * The key is compared in constant time (SHA-256 of both sides, then
 * mv_crypto_equal), is never printed or logged (only the path of its file),
 * and a generated key is written 0600 with O_EXCL.
 *
 * The deadline watchdog only ever shutdown()s a socket, under the same
 * lock that removes the connection when libmicrohttpd reports it closed,
 * so it can never touch a descriptor that has been closed and reused.
 */
#define _GNU_SOURCE /* pthread_cond_timedwait with CLOCK_MONOTONIC on glibc */
#include "server/httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mcpvet/buf.h"
#include "mcpvet/store.h"
#include "store/crypto.h"

/* ------------------------------------------------------------ API key */

static void sha256(unsigned char out[32], const void *data, size_t len) {
    /* On failure out is zeroed, and no key can match: refusal, never
     * acceptance. */
    (void)mv_crypto_sha256(out, data, len);
}

void mv_httpd_key_set(mv_httpd_key *k, const char *key, size_t len) {
    sha256(k->hash, key, len);
    k->set = true;
}

bool mv_httpd_key_valid(const char *k, size_t n) {
    if (n < MV_HTTPD_KEY_MIN || n > MV_HTTPD_KEY_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)k[i] < 0x21 || (unsigned char)k[i] > 0x7e)
            return false;
    return true;
}

bool mv_httpd_key_matches(const mv_httpd_key *k, const char *given, size_t n) {
    unsigned char h[32];
    if (given == NULL || !k->set)
        return false;
    sha256(h, given, n);
    return mv_crypto_equal(h, k->hash, sizeof h);
}

bool mv_httpd_key_in_headers(const mv_httpd_key *k,
                             const char *(*header)(void *ctx, const char *name), void *ctx) {
    const char *x = header(ctx, "X-API-Key");
    if (x != NULL)
        return mv_httpd_key_matches(k, x, strlen(x));
    const char *auth = header(ctx, "Authorization");
    if (auth == NULL || strncasecmp(auth, "Bearer ", 7) != 0)
        return false;
    auth += 7;
    while (*auth == ' ')
        auth++;
    size_t n = strlen(auth);
    while (n > 0 && auth[n - 1] == ' ')
        n--;
    return mv_httpd_key_matches(k, auth, n);
}

static const char *connection_header(void *ctx, const char *name) {
    return MHD_lookup_connection_value(ctx, MHD_HEADER_KIND, name);
}

bool mv_httpd_key_in_request(const mv_httpd_key *k, struct MHD_Connection *c) {
    return mv_httpd_key_in_headers(k, connection_header, c);
}

/* mkdir -p with mode 0700 for the missing parts of `dir`. */
static int make_dirs(char *dir) {
    for (char *p = dir + 1; *p != '\0'; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(dir, 0700);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

bool mv_httpd_random_hex(char *out, size_t cap) {
    unsigned char raw[32];
    static const char hex[] = "0123456789abcdef";
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    size_t got = 0;
    while (fd >= 0 && got < sizeof raw) {
        ssize_t n = read(fd, raw + got, sizeof raw - got);
        if (n <= 0 && errno != EINTR)
            break;
        if (n > 0)
            got += (size_t)n;
    }
    if (fd >= 0)
        close(fd);
    if (got < sizeof raw || cap < 2 * sizeof raw + 1)
        return false;
    for (size_t i = 0; i < sizeof raw; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[2 * sizeof raw] = '\0';
    mv_crypto_wipe(raw, sizeof raw);
    return true;
}

/* Write a new random key into `path` (0600, must not exist yet). */
static int generate_key(const char *path, char *key, size_t cap, mv_error *err) {
    int fd;
    if (!mv_httpd_random_hex(key, cap))
        return mv_error_set(err, MV_EIO, "cannot read /dev/urandom to generate an API key");
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return mv_error_set(err, MV_EIO, "%s: cannot create the API key file: %s", path,
                            strerror(errno));
    size_t len = strlen(key);
    bool ok = write(fd, key, len) == (ssize_t)len && write(fd, "\n", 1) == 1;
    ok = close(fd) == 0 && ok;
    if (!ok)
        return mv_error_set(err, MV_EIO, "%s: cannot write the API key file", path);
    return MV_OK;
}

/* Read a key file: it must be the owner's alone (no group or other
 * access) and hold one key (a trailing newline is allowed). */
static int read_key(const char *path, char *key, size_t cap, mv_error *err) {
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int rc = MV_EIO;
    if (fd < 0)
        return mv_error_set(err, errno == ENOENT ? MV_ENOTFOUND : MV_EIO,
                            "%s: cannot open the API key file: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        mv_error_set(err, MV_EIO, "%s: not a regular file", path);
        goto done;
    }
    if ((st.st_mode & 077) != 0) {
        rc = mv_error_set(err, MV_EINVAL,
                          "%s: the API key file is readable by others (chmod 600 it)", path);
        goto done;
    }
    size_t n = 0;
    ssize_t got;
    while (n + 1 < cap && (got = read(fd, key + n, cap - 1 - n)) > 0)
        n += (size_t)got;
    while (n > 0 && (key[n - 1] == '\n' || key[n - 1] == '\r'))
        n--;
    key[n] = '\0';
    if (!mv_httpd_key_valid(key, n)) {
        /* Never quote the content: it is meant to be a secret. */
        rc = mv_error_set(err, MV_EINVAL,
                          "%s: the API key must be %u to %u printable characters without spaces",
                          path, MV_HTTPD_KEY_MIN, MV_HTTPD_KEY_MAX);
        goto done;
    }
    rc = MV_OK;
done:
    close(fd);
    return rc;
}

/* The key file used when none is named: api-key beside the default store. */
static int default_key_path(mv_buf *out, mv_error *err) {
    if (mv_store_default_path(out, NULL, NULL) != MV_OK || out->failed)
        return mv_error_set(err, MV_EINVAL,
                            "no API key: set MCPVET_API_KEY, give --api-key-file, or set HOME");
    char *slash = strrchr(out->data, '/');
    if (slash == NULL)
        return mv_error_set(err, MV_EINVAL, "no place for the API key file");
    out->len = (size_t)(slash - out->data);
    out->data[out->len] = '\0';
    if (make_dirs(out->data) != 0)
        return mv_error_set(err, MV_EIO, "%s: cannot create the directory: %s", out->data,
                            strerror(errno));
    mv_buf_puts(out, "/api-key");
    return out->failed ? mv_error_set(err, MV_ENOMEM, "out of memory") : MV_OK;
}

/* Read the key at `path`, generating it when missing (unless remote). */
static int key_from_file(const char *path, char *key, size_t cap, bool remote, const char *prog,
                         FILE *out, mv_error *err) {
    int rc = read_key(path, key, cap, err);
    if (rc == MV_ENOTFOUND && !remote) {
        mv_error_clear(err);
        rc = generate_key(path, key, cap, err);
        if (rc == MV_OK)
            fprintf(out, "%s: generated an API key in %s\n", prog, path);
    } else if (rc == MV_OK) {
        fprintf(out, "%s: API key from %s\n", prog, path);
    }
    return rc;
}

int mv_httpd_key_load(mv_httpd_key *k, const char *prog, const char *api_key_file, bool remote,
                      FILE *out, mv_error *err) {
    char key[MV_HTTPD_KEY_MAX + 2];
    mv_buf path;
    int rc;
    mv_buf_init(&path, NULL);
    const char *env = getenv("MCPVET_API_KEY");
    if (api_key_file != NULL) {
        rc = key_from_file(api_key_file, key, sizeof key, remote, prog, out, err);
    } else if (env != NULL && env[0] != '\0') {
        rc = mv_httpd_key_valid(env, strlen(env))
                 ? MV_OK
                 : mv_error_set(err, MV_EINVAL,
                                "MCPVET_API_KEY must be %u to %u printable characters without "
                                "spaces",
                                MV_HTTPD_KEY_MIN, MV_HTTPD_KEY_MAX);
        if (rc == MV_OK) {
            snprintf(key, sizeof key, "%s", env);
            fprintf(out, "%s: API key from MCPVET_API_KEY\n", prog);
        }
    } else if (remote) {
        rc = mv_error_set(err, MV_EINVAL,
                          "a non-loopback address needs a key chosen by you: give "
                          "--api-key-file FILE (an existing file) or set MCPVET_API_KEY");
    } else if ((rc = default_key_path(&path, err)) == MV_OK) {
        rc = key_from_file(path.data, key, sizeof key, false, prog, out, err);
    }
    if (rc == MV_OK)
        mv_httpd_key_set(k, key, strlen(key));
    mv_crypto_wipe(key, sizeof key);
    mv_buf_release(&path);
    fflush(out);
    return rc;
}

/* ----------------------------------------------------------- listening */

int mv_httpd_parse_listen(mv_httpd_addr *la, const char *spec, mv_error *err) {
    char host[MV_HTTPD_HOST_LEN];
    const char *colon = strrchr(spec, ':');
    memset(la, 0, sizeof *la);
    if (colon == NULL || colon == spec || (size_t)(colon - spec) >= sizeof host)
        return mv_error_set(err, MV_EINVAL, "--listen: expected HOST:PORT, got \"%s\"", spec);
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = '\0';
    char *end = NULL;
    errno = 0;
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || errno != 0 || port > 65535)
        return mv_error_set(err, MV_EINVAL, "--listen: bad port in \"%s\"", spec);
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof host, "127.0.0.1");
    size_t hl = strlen(host);
    if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&la->ss;
        host[hl - 1] = '\0';
        if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) != 1)
            return mv_error_set(err, MV_EINVAL, "--listen: \"%s\" is not an IPv6 address",
                                host + 1);
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        la->len = sizeof *a6;
        la->v6 = true;
        la->loopback = IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr);
        char buf[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &a6->sin6_addr, buf, sizeof buf);
        snprintf(la->host, sizeof la->host, "[%s]", buf);
        return MV_OK;
    }
    struct sockaddr_in *a4 = (struct sockaddr_in *)&la->ss;
    if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
        return mv_error_set(err, MV_EINVAL,
                            "--listen: \"%s\" is not an IP address (use 127.0.0.1, [::1] or an "
                            "address of this machine)",
                            host);
    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    la->len = sizeof *a4;
    la->loopback = (ntohl(a4->sin_addr.s_addr) >> 24) == 127;
    inet_ntop(AF_INET, &a4->sin_addr, la->host, sizeof la->host);
    return MV_OK;
}

int mv_httpd_listen(const mv_httpd_addr *la, unsigned *port, mv_error *err) {
    int fd = socket(la->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0)
        return mv_error_set(err, MV_EIO, "socket: %s", strerror(errno));
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (la->v6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)&la->ss, la->len) != 0 || listen(fd, 128) != 0) {
        int e = errno;
        close(fd);
        return mv_error_set(err, MV_EIO, "cannot listen on %s: %s", la->host, strerror(e));
    }
    struct sockaddr_storage got;
    socklen_t gl = sizeof got;
    getsockname(fd, (struct sockaddr *)&got, &gl);
    *port = got.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&got)->sin6_port)
                                      : ntohs(((struct sockaddr_in *)&got)->sin_port);
    return fd;
}

/* A name too long for the table is left out: its requests are refused
 * (fails closed), never matched on a truncated prefix. */
void mv_httpd_hosts_add(mv_httpd_hosts *h, const char *host, unsigned port) {
    int n;
    if (h->n < MV_HTTPD_MAX_HOSTS &&
        (n = snprintf(h->host[h->n], MV_HTTPD_HOST_LEN, "%s:%u", host, port)) > 0 &&
        (size_t)n < MV_HTTPD_HOST_LEN)
        h->n++;
    if (port == 80 && h->n < MV_HTTPD_MAX_HOSTS &&
        (n = snprintf(h->host[h->n], MV_HTTPD_HOST_LEN, "%s", host)) > 0 &&
        (size_t)n < MV_HTTPD_HOST_LEN)
        h->n++;
}

bool mv_httpd_host_allowed(const mv_httpd_hosts *h, const char *host) {
    for (size_t i = 0; host != NULL && i < h->n; i++)
        if (strcasecmp(host, h->host[i]) == 0)
            return true;
    return false;
}

bool mv_httpd_origin_allowed(const mv_httpd_hosts *h, const char *origin) {
    if (strncasecmp(origin, "http://", 7) != 0)
        return false;
    return mv_httpd_host_allowed(h, origin + 7);
}

/* ---------------------------------------------------- request deadline */

typedef struct watch_conn {
    struct watch_conn *prev, *next;
    int fd;
    struct timespec start; /* of the current request (or of the connection) */
    bool cut;
    bool exempt; /* an event stream: no deadline */
} watch_conn;

struct mv_httpd_watch {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stop;
    unsigned deadline_s;
    watch_conn *conns;
    FILE *log;
    const char *prog;
};

static void *watch_main(void *arg) {
    mv_httpd_watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        struct timespec now, until;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (watch_conn *c = w->conns; c != NULL; c = c->next) {
            if (c->cut || c->exempt || now.tv_sec - c->start.tv_sec < (time_t)w->deadline_s)
                continue;
            /* Logged first, so the line is there when the client sees
             * the connection end. */
            fprintf(w->log, "%s: a request ran past the %us deadline; its connection is closed\n",
                    w->prog, w->deadline_s);
            fflush(w->log);
            /* Never close: libmicrohttpd owns the descriptor. shutdown
             * wakes its thread, which then closes the connection. */
            shutdown(c->fd, SHUT_RDWR);
            c->cut = true;
        }
        until = now;
        until.tv_sec += 1;
        pthread_cond_timedwait(&w->wake, &w->lock, &until);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int mv_httpd_watch_new(mv_httpd_watch **out, unsigned deadline_s, FILE *log, const char *prog,
                       mv_error *err) {
    pthread_condattr_t ca;
    mv_httpd_watch *w = calloc(1, sizeof *w);
    *out = NULL;
    if (w == NULL)
        return mv_error_set(err, MV_ENOMEM, "out of memory");
    w->deadline_s = deadline_s > 0 ? deadline_s : 1;
    w->log = log != NULL ? log : stderr;
    w->prog = prog;
    pthread_mutex_init(&w->lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return mv_error_set(err, MV_EIO, "cannot start the request deadline thread");
    }
    *out = w;
    return MV_OK;
}

void mv_httpd_watch_free(mv_httpd_watch *w) {
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    while (w->conns != NULL) { /* only if the daemon was not stopped first */
        watch_conn *c = w->conns;
        w->conns = c->next;
        free(c);
    }
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

void mv_httpd_watch_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                           enum MHD_ConnectionNotificationCode code) {
    mv_httpd_watch *w = cls;
    if (w == NULL)
        return;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        watch_conn *wc = ci != NULL ? calloc(1, sizeof *wc) : NULL;
        *socket_context = wc;
        if (wc == NULL)
            return; /* untracked: only the idle timeout applies */
        wc->fd = ci->connect_fd;
        clock_gettime(CLOCK_MONOTONIC, &wc->start);
        pthread_mutex_lock(&w->lock);
        wc->next = w->conns;
        if (w->conns != NULL)
            w->conns->prev = wc;
        w->conns = wc;
        pthread_mutex_unlock(&w->lock);
        return;
    }
    watch_conn *wc = *socket_context;
    if (wc == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    if (wc->prev != NULL)
        wc->prev->next = wc->next;
    else
        w->conns = wc->next;
    if (wc->next != NULL)
        wc->next->prev = wc->prev;
    pthread_mutex_unlock(&w->lock);
    free(wc);
    *socket_context = NULL;
}

void mv_httpd_watch_request_done(mv_httpd_watch *w, struct MHD_Connection *c) {
    if (w == NULL)
        return;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    watch_conn *wc = ci != NULL ? ci->socket_context : NULL;
    if (wc == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    clock_gettime(CLOCK_MONOTONIC, &wc->start);
    wc->exempt = false;
    pthread_mutex_unlock(&w->lock);
}

void mv_httpd_watch_exempt(mv_httpd_watch *w, struct MHD_Connection *c) {
    if (w == NULL)
        return;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    watch_conn *wc = ci != NULL ? ci->socket_context : NULL;
    if (wc == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    wc->exempt = true;
    pthread_mutex_unlock(&w->lock);
}
