/*
 * Config discovery and loading: where each client keeps its MCP config on
 * Linux, macOS and Windows (all candidates are tried; missing files are
 * skipped), reading a file safely (regular files only, without blocking on
 * a FIFO, under a size cap), choosing the format and shape of a file given
 * by hand (by name, then by content), the precedence of project over user
 * files, and the set that owns every string. docs/clients.md is the table
 * of clients, files, keys and precedence this file implements.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config_int.h"
#include "json/json.h"

/* ------------------------------------------------------------- names */

const char *mv_transport_name(mv_transport t) {
    switch (t) {
    case MV_TRANSPORT_STDIO:
        return "stdio";
    case MV_TRANSPORT_HTTP:
        return "http";
    case MV_TRANSPORT_SSE:
        return "sse";
    case MV_TRANSPORT_NONE:
    default:
        return "none";
    }
}

const char *mv_server_readiness_name(mv_server_readiness r) {
    switch (r) {
    case MV_SERVER_READY:
        return "ready";
    case MV_SERVER_DISABLED:
        return "disabled";
    case MV_SERVER_NEEDS_INPUT:
        return "needs_input";
    case MV_SERVER_INVALID:
    default:
        return "invalid";
    }
}

const char *const *mv_config_client_ids(void) {
    static const char *const ids[] = {"claude-desktop", "claude-code", "cursor", "vscode",
                                      "windsurf",       "gemini",      "codex",  "zed",
                                      "cline",          "continue",    "kiro",   NULL};
    return ids;
}

/* ---------------------------------------------------------------- set */

char *cfg_set_strdup(cfg_set *set, const char *s, size_t len) {
    return mv_arena_memdup(set->arena, s != NULL ? s : "", s != NULL ? len : 0);
}

static cfg_set *set_new(const mv_allocator *a) {
    cfg_set *set = mv_calloc(a, 1, sizeof(*set));
    if (set == NULL)
        return NULL;
    set->alloc = a;
    set->arena = mv_arena_new(a, 16 * 1024);
    if (set->arena == NULL) {
        mv_free(a, set, sizeof(*set));
        return NULL;
    }
    return set;
}

void mv_config_set_free(mv_config_set *pub) {
    if (pub == NULL)
        return;
    cfg_set *set = (cfg_set *)pub;
    const mv_allocator *a = set->alloc;
    mv_free(a, set->pub.servers, set->cap_servers * sizeof(mv_server_config));
    mv_free(a, set->pub.files, set->cap_files * sizeof(mv_config_file));
    mv_arena_free(set->arena);
    mv_free(a, set, sizeof(*set));
}

static int add_file(cfg_set *set, const char *path, cfg_client cl, const char *scope,
                    size_t *index) {
    if (set->pub.n_files == set->cap_files) {
        size_t ncap = set->cap_files ? set->cap_files * 2 : 8;
        mv_config_file *nf = mv_realloc(set->alloc, set->pub.files, set->cap_files * sizeof(*nf),
                                        ncap * sizeof(*nf));
        if (nf == NULL)
            return MV_ENOMEM;
        set->pub.files = nf;
        set->cap_files = ncap;
    }
    mv_config_file *f = &set->pub.files[set->pub.n_files];
    memset(f, 0, sizeof(*f));
    f->path = cfg_set_strdup(set, path, strlen(path));
    f->client = cfg_set_strdup(set, cfg_client_id(cl), strlen(cfg_client_id(cl)));
    f->scope = cfg_set_strdup(set, scope, strlen(scope));
    if (f->path == NULL || f->client == NULL || f->scope == NULL)
        return MV_ENOMEM;
    *index = set->pub.n_files++;
    return MV_OK;
}

/* Record a file's error as "FILE:LINE:COL: message". */
static int file_error(cfg_set *set, size_t index, int code, uint32_t line, uint32_t col,
                      const char *msg) {
    mv_config_file *f = &set->pub.files[index];
    mv_buf b;
    mv_buf_init(&b, set->alloc);
    mv_buf_puts(&b, f->path);
    if (line > 0) {
        mv_buf_printf(&b, ":%u", line);
        if (col > 0)
            mv_buf_printf(&b, ":%u", col);
    }
    mv_buf_printf(&b, ": %s", msg);
    f->status = code;
    f->error = b.failed ? NULL : cfg_set_strdup(set, b.data, b.len);
    mv_buf_release(&b);
    return f->error != NULL ? MV_OK : MV_ENOMEM;
}

/* ------------------------------------------------------------ reading */

int cfg_read_file(const char *path, const mv_config_limits *lim, const mv_allocator *a, char **buf,
                  size_t *len, bool *missing, char *msg, size_t msg_cap) {
    int rc = MV_OK;
    char *data = NULL;
    size_t cap = 0, n = 0;
    *buf = NULL;
    *len = 0;
    *missing = false;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then
     * refuses anything but a regular file before a single read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        *missing = e == ENOENT || e == ENOTDIR;
        snprintf(msg, msg_cap, "cannot open '%s': %s", path, strerror(e));
        return MV_EIO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(msg, msg_cap, "cannot stat '%s': %s", path, strerror(errno));
        rc = MV_EIO;
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msg_cap, "'%s' is not a regular file", path);
        rc = MV_EIO;
        goto done;
    }
    uint64_t max = lim->max_file_bytes;
    if (max > SIZE_MAX / 4)
        max = SIZE_MAX / 4;
    if ((uint64_t)st.st_size > max) {
        snprintf(msg, msg_cap, "'%s' is %lld bytes, over the max_file_bytes limit of %llu bytes",
                 path, (long long)st.st_size, (unsigned long long)max);
        rc = MV_ELIMIT;
        goto done;
    }
    /* Room for the file, one byte more (to see growth) and the NUL. */
    cap = (size_t)st.st_size + 2;
    if ((data = mv_alloc(a, cap)) == NULL) {
        rc = MV_ENOMEM;
        snprintf(msg, msg_cap, "out of memory reading '%s'", path);
        goto done;
    }
    for (;;) {
        if (n + 1 == cap) {
            /* The file grew while being read. */
            if ((uint64_t)n > max) {
                snprintf(msg, msg_cap, "'%s' is larger than the max_file_bytes limit of %llu bytes",
                         path, (unsigned long long)max);
                rc = MV_ELIMIT;
                goto done;
            }
            size_t ncap = cap * 2;
            if ((uint64_t)ncap > max + 2)
                ncap = (size_t)max + 2;
            char *p = mv_realloc(a, data, cap, ncap);
            if (p == NULL) {
                rc = MV_ENOMEM;
                snprintf(msg, msg_cap, "out of memory reading '%s'", path);
                goto done;
            }
            data = p;
            cap = ncap;
        }
        ssize_t got = read(fd, data + n, cap - 1 - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            snprintf(msg, msg_cap, "cannot read '%s': %s", path, strerror(errno));
            rc = MV_EIO;
            goto done;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    /* Shrink the accounting to n + 1 so the caller frees with len + 1. */
    if (cap != n + 1) {
        char *p = mv_realloc(a, data, cap, n + 1);
        if (p == NULL) {
            rc = MV_ENOMEM;
            snprintf(msg, msg_cap, "out of memory reading '%s'", path);
            goto done;
        }
        data = p;
        cap = n + 1;
    }
    data[n] = '\0';
    *buf = data;
    *len = n;
    data = NULL;
done:
    if (data != NULL)
        mv_free(a, data, cap);
    close(fd);
    return rc;
}

/* ------------------------------------------------------------- env */

static const char *process_getenv(void *arg, const char *name) {
    (void)arg;
    return getenv(name);
}

typedef struct envbuf {
    cfg_env e;
    char cwd[4096];
    mv_buf xdg, codex;
} envbuf;

static void limits_resolve(mv_config_limits *l, const mv_config_limits *in) {
    memset(l, 0, sizeof(*l));
    if (in != NULL)
        *l = *in;
    if (l->max_file_bytes == 0)
        l->max_file_bytes = MV_CONFIG_DEFAULT_MAX_FILE_BYTES;
    if (l->max_servers_per_file == 0)
        l->max_servers_per_file = MV_CONFIG_DEFAULT_MAX_SERVERS;
    if (l->max_entries == 0)
        l->max_entries = MV_CONFIG_DEFAULT_MAX_ENTRIES;
    if (l->max_string_bytes == 0)
        l->max_string_bytes = MV_CONFIG_DEFAULT_MAX_STRING;
    if (l->max_files == 0)
        l->max_files = MV_CONFIG_DEFAULT_MAX_FILES;
}

/* Resolve every member. With an explicit `home`, the other members that
 * hang off it (XDG config, Codex home) derive from that home rather than
 * from the process environment, so a test's fake HOME is self-contained. */
static int env_resolve(envbuf *b, const mv_config_env *in) {
    mv_config_env none;
    memset(&none, 0, sizeof(none));
    if (in == NULL)
        in = &none;
    cfg_env *e = &b->e;
    memset(e, 0, sizeof(*e));
    e->alloc = in->alloc;
    limits_resolve(&e->lim, &in->limits);
    mv_buf_init(&b->xdg, e->alloc);
    mv_buf_init(&b->codex, e->alloc);
    e->getenv_fn = in->getenv_fn != NULL ? in->getenv_fn : process_getenv;
    e->getenv_arg = in->getenv_fn != NULL ? in->getenv_arg : NULL;
    bool explicit_home = in->home != NULL;
    e->home = in->home != NULL ? in->home : getenv("HOME");
    if (e->home != NULL && e->home[0] == '\0')
        e->home = NULL;
    e->xdg_config_home = in->xdg_config_home;
    if (e->xdg_config_home == NULL && !explicit_home)
        e->xdg_config_home = getenv("XDG_CONFIG_HOME");
    if ((e->xdg_config_home == NULL || e->xdg_config_home[0] == '\0') && e->home != NULL) {
        mv_buf_printf(&b->xdg, "%s/.config", e->home);
        e->xdg_config_home = b->xdg.data;
    }
    e->appdata = in->appdata;
    if (e->appdata == NULL && !explicit_home)
        e->appdata = getenv("APPDATA");
    if (e->appdata != NULL && e->appdata[0] == '\0')
        e->appdata = NULL;
    e->codex_home = in->codex_home;
    if (e->codex_home == NULL && !explicit_home)
        e->codex_home = getenv("CODEX_HOME");
    if ((e->codex_home == NULL || e->codex_home[0] == '\0') && e->home != NULL) {
        mv_buf_printf(&b->codex, "%s/.codex", e->home);
        e->codex_home = b->codex.data;
    }
    e->cwd = in->cwd;
    if (e->cwd == NULL && getcwd(b->cwd, sizeof(b->cwd)) != NULL)
        e->cwd = b->cwd;
    e->system_dir = in->system_dir != NULL ? in->system_dir : "";
    return b->xdg.failed || b->codex.failed ? MV_ENOMEM : MV_OK;
}

static void env_release(envbuf *b) {
    mv_buf_release(&b->xdg);
    mv_buf_release(&b->codex);
}

/* ---------------------------------------------------------- one file */

typedef struct loaded {
    cfg_ctx c;
    char *buf;
    size_t len;
    cv *root;
    size_t file; /* index in the set */
    bool ok;     /* parsed */
} loaded;

static void loaded_release(loaded *L, const mv_allocator *a) {
    mv_arena_free(L->c.arena);
    if (L->buf != NULL)
        mv_free(a, L->buf, L->len + 1);
    memset(L, 0, sizeof(*L));
}

typedef enum cfg_fmt { FMT_JSON, FMT_JSONC, FMT_TOML, FMT_YAML } cfg_fmt;

static cfg_fmt client_format(cfg_client cl) {
    switch (cl) {
    case CL_VSCODE:
    case CL_ZED:
    case CL_GEMINI:
        return FMT_JSONC;
    case CL_CODEX:
        return FMT_TOML;
    default:
        return FMT_JSON;
    }
}

static int ctx_init(cfg_ctx *c, const cfg_env *env, const char *path, const char *data,
                    size_t len) {
    memset(c, 0, sizeof(*c));
    c->alloc = env->alloc;
    c->lim = env->lim;
    c->path = path;
    c->data = data;
    c->len = len;
    size_t block = len / 2 < 16 * 1024 ? 16 * 1024 : len / 2 > (8u << 20) ? (8u << 20) : len / 2;
    c->arena = mv_arena_new(env->alloc, block);
    return c->arena != NULL ? MV_OK : MV_ENOMEM;
}

static int parse_as(cfg_ctx *c, cfg_fmt f, cv **root) {
    switch (f) {
    case FMT_TOML:
        return cfg_parse_toml(c, root);
    case FMT_YAML:
        return cfg_parse_yaml(c, root);
    case FMT_JSONC:
        return cfg_parse_json(c, true, root);
    case FMT_JSON:
    default:
        return cfg_parse_json(c, false, root);
    }
}

/* ----------------------------------------------------------- discovery */

typedef struct disc {
    cfg_set *set;
    const cfg_env *env;
    cfg_client cl;
    /* files already read for this client (a project folder that is HOME) */
    dev_t dev[32];
    ino_t ino[32];
    size_t n_seen;
} disc;

static bool seen_before(disc *D, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    for (size_t i = 0; i < D->n_seen; i++)
        if (D->dev[i] == st.st_dev && D->ino[i] == st.st_ino)
            return true;
    if (D->n_seen < 32) {
        D->dev[D->n_seen] = st.st_dev;
        D->ino[D->n_seen] = st.st_ino;
        D->n_seen++;
    }
    return false;
}

/* Undo what a failed file added (servers, and overrides it made). */
typedef struct snapshot {
    mv_server_config *servers;
    size_t n_servers, n_files;
    size_t *counts;
} snapshot;

static int snap_take(cfg_set *set, snapshot *s) {
    const mv_allocator *a = set->alloc;
    memset(s, 0, sizeof(*s));
    s->n_servers = set->pub.n_servers;
    s->n_files = set->pub.n_files;
    if (s->n_servers > 0) {
        s->servers = mv_alloc(a, s->n_servers * sizeof(*s->servers));
        if (s->servers == NULL)
            return MV_ENOMEM;
        memcpy(s->servers, set->pub.servers, s->n_servers * sizeof(*s->servers));
    }
    if (s->n_files > 0) {
        s->counts = mv_alloc(a, s->n_files * sizeof(size_t));
        if (s->counts == NULL)
            return MV_ENOMEM;
        for (size_t i = 0; i < s->n_files; i++)
            s->counts[i] = set->pub.files[i].n_servers;
    }
    return MV_OK;
}

static void snap_restore(cfg_set *set, const snapshot *s) {
    /* The array only ever grows past the snapshot's size. */
    if (s->n_servers > 0)
        memcpy(set->pub.servers, s->servers, s->n_servers * sizeof(*s->servers));
    set->pub.n_servers = s->n_servers;
    for (size_t i = 0; i < s->n_files && i < set->pub.n_files; i++)
        set->pub.files[i].n_servers = s->counts[i];
}

static void snap_free(cfg_set *set, snapshot *s) {
    mv_free(set->alloc, s->servers, s->n_servers * sizeof(*s->servers));
    mv_free(set->alloc, s->counts, s->n_files * sizeof(size_t));
}

/* Take the servers of a parsed file; a file-level error rolls back what the
 * file added and is recorded on it. Only MV_ENOMEM is returned as an error. */
static int take_servers(cfg_set *set, loaded *L, cfg_client cl, cfg_shape shape, const char *scope,
                        const cfg_env *env) {
    snapshot snap;
    int rc = snap_take(set, &snap);
    if (rc != MV_OK) {
        snap_free(set, &snap);
        return rc;
    }
    rc = cfg_read_servers(&L->c, set, L->file, cl, shape, L->root, scope, env);
    if (rc != MV_OK) {
        snap_restore(set, &snap);
        if (rc != MV_ENOMEM)
            rc =
                file_error(set, L->file, L->c.code ? L->c.code : rc, L->c.line, L->c.col, L->c.msg);
    }
    snap_free(set, &snap);
    return rc;
}

/* Read and parse one file into L (recording it in the set); a missing file
 * leaves L->ok false and records nothing. Returns only MV_ENOMEM as an
 * error. */
static int load_one(disc *D, loaded *L, const char *path, const char *scope, cfg_fmt f) {
    char msg[400];
    bool missing = false;
    int rc;
    memset(L, 0, sizeof(*L));
    rc = cfg_read_file(path, &D->env->lim, D->env->alloc, &L->buf, &L->len, &missing, msg,
                       sizeof(msg));
    if (rc == MV_ENOMEM)
        return rc;
    if (missing)
        return MV_OK;
    if (rc == MV_OK && seen_before(D, path)) {
        mv_free(D->env->alloc, L->buf, L->len + 1);
        L->buf = NULL;
        return MV_OK;
    }
    if (add_file(D->set, path, D->cl, scope, &L->file) != MV_OK)
        return MV_ENOMEM;
    if (rc != MV_OK) {
        /* msg already names the file */
        mv_config_file *fr = &D->set->pub.files[L->file];
        fr->status = rc;
        fr->error = cfg_set_strdup(D->set, msg, strlen(msg));
        return fr->error != NULL ? MV_OK : MV_ENOMEM;
    }
    if (ctx_init(&L->c, D->env, D->set->pub.files[L->file].path, L->buf, L->len) != MV_OK)
        return MV_ENOMEM;
    rc = parse_as(&L->c, f, &L->root);
    if (rc == MV_ENOMEM)
        return rc;
    if (rc != MV_OK)
        return file_error(D->set, L->file, L->c.code, L->c.line, L->c.col, L->c.msg);
    L->ok = true;
    return MV_OK;
}

/* The common case: one file, one shape. */
static int do_file(disc *D, const char *path, const char *scope, cfg_shape shape) {
    loaded L;
    int rc = load_one(D, &L, path, scope, client_format(D->cl));
    if (rc == MV_OK && L.ok)
        rc = take_servers(D->set, &L, D->cl, shape, scope, D->env);
    loaded_release(&L, D->env->alloc);
    return rc;
}

static int path_join(mv_buf *b, const char *dir, const char *rel) {
    b->len = 0;
    if (b->data != NULL)
        b->data[0] = '\0';
    mv_buf_puts(b, dir);
    if (b->len > 0 && b->data[b->len - 1] != '/' && b->data[b->len - 1] != '\\')
        mv_buf_putc(b, '/');
    mv_buf_puts(b, rel);
    return b->failed ? MV_ENOMEM : MV_OK;
}

/* do_file on dir/rel when dir is known. */
static int at(disc *D, mv_buf *b, const char *dir, const char *rel, const char *scope,
              cfg_shape shape) {
    if (dir == NULL)
        return MV_OK;
    if (path_join(b, dir, rel) != MV_OK)
        return MV_ENOMEM;
    return do_file(D, b->data, scope, shape);
}

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *s, const char *suf) {
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

/* Continue's block folder: every *.yaml, *.yml and *.json, in name order. */
static int continue_blocks(disc *D, const char *dir) {
    DIR *dh = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = MV_OK;
    mv_buf b;
    mv_buf_init(&b, D->env->alloc);
    if (dh == NULL)
        return MV_OK;
    struct dirent *de;
    while ((de = readdir(dh)) != NULL) {
        const char *nm = de->d_name;
        if (nm[0] == '.' ||
            !(has_suffix(nm, ".yaml") || has_suffix(nm, ".yml") || has_suffix(nm, ".json")))
            continue;
        if (n >= D->env->lim.max_files)
            break;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            char **p =
                mv_realloc(D->env->alloc, names, cap * sizeof(char *), ncap * sizeof(char *));
            if (p == NULL) {
                rc = MV_ENOMEM;
                goto done;
            }
            names = p;
            cap = ncap;
        }
        names[n] = cfg_set_strdup(D->set, nm, strlen(nm));
        if (names[n] == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        n++;
    }
    if (n > 0)
        qsort(names, n, sizeof(char *), name_cmp);
    for (size_t i = 0; i < n && rc == MV_OK; i++) {
        if ((rc = path_join(&b, dir, names[i])) != MV_OK)
            break;
        loaded L;
        bool json = has_suffix(names[i], ".json");
        rc = load_one(D, &L, b.data, "workspace", json ? FMT_JSON : FMT_YAML);
        if (rc == MV_OK && L.ok)
            rc = take_servers(D->set, &L, CL_CONTINUE, json ? SH_MCPSERVERS : SH_CONTINUE_YAML,
                              "workspace", D->env);
        loaded_release(&L, D->env->alloc);
    }
done:
    closedir(dh);
    mv_free(D->env->alloc, names, cap * sizeof(char *));
    mv_buf_release(&b);
    return rc;
}

/* The VS Code user folders (Linux, macOS, Windows) under which VS Code and
 * Cline keep their files. */
static int code_user_dirs(const cfg_env *e, mv_buf dirs[3]) {
    for (int i = 0; i < 3; i++)
        mv_buf_init(&dirs[i], e->alloc);
    if (e->xdg_config_home != NULL)
        path_join(&dirs[0], e->xdg_config_home, "Code/User");
    if (e->home != NULL)
        path_join(&dirs[1], e->home, "Library/Application Support/Code/User");
    if (e->appdata != NULL)
        path_join(&dirs[2], e->appdata, "Code/User");
    for (int i = 0; i < 3; i++)
        if (dirs[i].failed)
            return MV_ENOMEM;
    return MV_OK;
}

static int discover_client(disc *D) {
    const cfg_env *e = D->env;
    mv_buf b, dirs[3];
    int rc = MV_OK;
    mv_buf_init(&b, e->alloc);
    for (int i = 0; i < 3; i++)
        mv_buf_init(&dirs[i], e->alloc);
    D->set->client_start = D->set->pub.n_servers;
    D->n_seen = 0;
    switch (D->cl) {
    case CL_CLAUDE_DESKTOP:
        if ((rc = at(D, &b, e->xdg_config_home, "Claude/claude_desktop_config.json", "user",
                     SH_MCPSERVERS)) != MV_OK ||
            (rc =
                 at(D, &b, e->home, "Library/Application Support/Claude/claude_desktop_config.json",
                    "user", SH_MCPSERVERS)) != MV_OK)
            break;
        rc = at(D, &b, e->appdata, "Claude/claude_desktop_config.json", "user", SH_MCPSERVERS);
        break;
    case CL_CLAUDE_CODE: {
        /* user < project (.mcp.json) < local (projects[cwd] in ~/.claude.json) */
        loaded L;
        memset(&L, 0, sizeof(L));
        if (e->home != NULL) {
            if ((rc = path_join(&b, e->home, ".claude.json")) != MV_OK)
                break;
            if ((rc = load_one(D, &L, b.data, "user", FMT_JSON)) == MV_OK && L.ok)
                rc = take_servers(D->set, &L, CL_CLAUDE_CODE, SH_CLAUDE_USER, "user", e);
        }
        if (rc == MV_OK)
            rc = at(D, &b, e->cwd, ".mcp.json", "project", SH_MCPSERVERS);
        if (rc == MV_OK && L.ok && D->set->pub.files[L.file].status == MV_OK)
            rc = take_servers(D->set, &L, CL_CLAUDE_CODE, SH_CLAUDE_LOCAL, "local", e);
        loaded_release(&L, e->alloc);
        break;
    }
    case CL_CURSOR:
        if ((rc = at(D, &b, e->home, ".cursor/mcp.json", "user", SH_MCPSERVERS)) == MV_OK)
            rc = at(D, &b, e->cwd, ".cursor/mcp.json", "project", SH_MCPSERVERS);
        break;
    case CL_VSCODE:
        if ((rc = code_user_dirs(e, dirs)) != MV_OK)
            break;
        for (int i = 0; i < 3 && rc == MV_OK; i++) {
            if (dirs[i].len == 0)
                continue;
            if ((rc = at(D, &b, dirs[i].data, "settings.json", "user", SH_VSCODE_SETTINGS)) ==
                MV_OK)
                rc = at(D, &b, dirs[i].data, "mcp.json", "user", SH_VSCODE_MCP);
        }
        if (rc == MV_OK)
            rc = at(D, &b, e->cwd, ".vscode/mcp.json", "workspace", SH_VSCODE_MCP);
        if (rc == MV_OK)
            rc = at(D, &b, e->cwd, ".devcontainer/devcontainer.json", "workspace", SH_DEVCONTAINER);
        if (rc == MV_OK)
            rc = at(D, &b, e->cwd, ".devcontainer.json", "workspace", SH_DEVCONTAINER);
        break;
    case CL_WINDSURF:
        rc = at(D, &b, e->home, ".codeium/windsurf/mcp_config.json", "user", SH_MCPSERVERS);
        break;
    case CL_GEMINI:
        /* user < project < system (Gemini's documented precedence) */
        if ((rc = at(D, &b, e->home, ".gemini/settings.json", "user", SH_MCPSERVERS)) != MV_OK ||
            (rc = at(D, &b, e->cwd, ".gemini/settings.json", "project", SH_MCPSERVERS)) != MV_OK)
            break;
        rc = at(D, &b, e->system_dir, "etc/gemini-cli/settings.json", "system", SH_MCPSERVERS);
        break;
    case CL_CODEX: {
        loaded U, P;
        memset(&U, 0, sizeof(U));
        memset(&P, 0, sizeof(P));
        if (e->codex_home != NULL) {
            if ((rc = path_join(&b, e->codex_home, "config.toml")) == MV_OK &&
                (rc = load_one(D, &U, b.data, "user", FMT_TOML)) == MV_OK && U.ok)
                rc = take_servers(D->set, &U, CL_CODEX, SH_CODEX, "user", e);
        }
        if (rc == MV_OK && e->cwd != NULL &&
            (rc = path_join(&b, e->cwd, ".codex/config.toml")) == MV_OK)
            rc = load_one(D, &P, b.data, "project", FMT_TOML);
        if (rc == MV_OK && P.ok) {
            /* Codex layers the project's tables over the user's. */
            if (U.ok && D->set->pub.files[U.file].status == MV_OK &&
                cfg_codex_layer(&P.c, P.root, U.root) != MV_OK)
                rc = MV_ENOMEM;
            if (rc == MV_OK)
                rc = take_servers(D->set, &P, CL_CODEX, SH_CODEX, "project", e);
        }
        loaded_release(&P, e->alloc);
        loaded_release(&U, e->alloc);
        break;
    }
    case CL_ZED:
        if ((rc = at(D, &b, e->xdg_config_home, "zed/settings.json", "user", SH_ZED)) == MV_OK)
            rc = at(D, &b, e->appdata, "Zed/settings.json", "user", SH_ZED);
        break;
    case CL_CLINE:
        if ((rc = code_user_dirs(e, dirs)) != MV_OK)
            break;
        for (int i = 0; i < 3 && rc == MV_OK; i++)
            if (dirs[i].len > 0)
                rc = at(D, &b, dirs[i].data,
                        "globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
                        "user", SH_MCPSERVERS);
        if (rc == MV_OK)
            rc = at(D, &b, e->home, ".cline/data/settings/cline_mcp_settings.json", "user",
                    SH_MCPSERVERS);
        break;
    case CL_CONTINUE:
        if (e->home != NULL) {
            loaded L;
            if ((rc = path_join(&b, e->home, ".continue/config.yaml")) != MV_OK)
                break;
            rc = load_one(D, &L, b.data, "user", FMT_YAML);
            if (rc == MV_OK && L.ok)
                rc = take_servers(D->set, &L, CL_CONTINUE, SH_CONTINUE_YAML, "user", e);
            loaded_release(&L, e->alloc);
        }
        if (rc == MV_OK && e->cwd != NULL &&
            (rc = path_join(&b, e->cwd, ".continue/mcpServers")) == MV_OK)
            rc = continue_blocks(D, b.data);
        break;
    case CL_KIRO:
        if ((rc = at(D, &b, e->home, ".kiro/settings/mcp.json", "user", SH_MCPSERVERS)) == MV_OK)
            rc = at(D, &b, e->cwd, ".kiro/settings/mcp.json", "workspace", SH_MCPSERVERS);
        break;
    case CL_GENERIC:
    case CL_COUNT:
    default:
        break;
    }
    mv_buf_release(&b);
    for (int i = 0; i < 3; i++)
        mv_buf_release(&dirs[i]);
    return rc;
}

static void set_error(mv_error *err, int code, const char *source, uint32_t line, uint32_t col,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static void set_error(mv_error *err, int code, const char *source, uint32_t line, uint32_t col,
                      const char *fmt, ...) {
    if (err == NULL)
        return;
    mv_error_clear(err);
    err->code = code;
    err->line = line > (uint32_t)INT32_MAX ? INT32_MAX : (int)line;
    err->column = col > (uint32_t)INT32_MAX ? INT32_MAX : (int)col;
    if (source != NULL)
        snprintf(err->source, sizeof(err->source), "%s", source);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
}

int mv_config_discover(mv_config_set **out, const mv_config_env *env, mv_error *err) {
    envbuf eb;
    int rc;
    cfg_set *set = NULL;
    if (out != NULL)
        *out = NULL;
    if (out == NULL) {
        set_error(err, MV_EINVAL, NULL, 0, 0, "mv_config_discover needs an output");
        return MV_EINVAL;
    }
    rc = env_resolve(&eb, env);
    if (rc == MV_OK && (set = set_new(eb.e.alloc)) == NULL)
        rc = MV_ENOMEM;
    for (int cl = 0; rc == MV_OK && cl < CL_GENERIC; cl++) {
        disc D;
        memset(&D, 0, sizeof(D));
        D.set = set;
        D.env = &eb.e;
        D.cl = (cfg_client)cl;
        rc = discover_client(&D);
    }
    env_release(&eb);
    if (rc != MV_OK) {
        mv_config_set_free(set != NULL ? &set->pub : NULL);
        set_error(err, rc, NULL, 0, 0, "%s while reading client configs", mv_strerror(rc));
        return rc;
    }
    *out = &set->pub;
    return MV_OK;
}

/* --------------------------------------------------------- one file */

static const char *base_of(const char *p) {
    const char *s = strrchr(p, '/');
    const char *bs = strrchr(p, '\\');
    if (bs != NULL && (s == NULL || bs > s))
        s = bs;
    return s != NULL ? s + 1 : p;
}

static bool path_has(const char *p, const char *tail) {
    size_t n = strlen(p), k = strlen(tail);
    return n >= k && strcmp(p + n - k, tail) == 0 && (n == k || p[n - k - 1] == '/');
}

/* Client and shape from the file's name; -1 when the name says nothing. */
static int by_name(const char *path, cfg_shape *shape) {
    const char *b = base_of(path);
    *shape = SH_MCPSERVERS;
    if (has_suffix(b, ".toml")) {
        *shape = SH_CODEX;
        return CL_CODEX;
    }
    if (has_suffix(b, ".yaml") || has_suffix(b, ".yml")) {
        *shape = SH_CONTINUE_YAML;
        return CL_CONTINUE;
    }
    if (strcmp(b, "claude_desktop_config.json") == 0)
        return CL_CLAUDE_DESKTOP;
    if (strcmp(b, ".claude.json") == 0) {
        *shape = SH_CLAUDE_USER;
        return CL_CLAUDE_CODE;
    }
    if (strcmp(b, ".mcp.json") == 0)
        return CL_CLAUDE_CODE;
    if (strcmp(b, "mcp_config.json") == 0)
        return CL_WINDSURF;
    if (strcmp(b, "cline_mcp_settings.json") == 0)
        return CL_CLINE;
    if (strcmp(b, "devcontainer.json") == 0 || strcmp(b, ".devcontainer.json") == 0) {
        *shape = SH_DEVCONTAINER;
        return CL_VSCODE;
    }
    if (path_has(path, ".cursor/mcp.json"))
        return CL_CURSOR;
    if (path_has(path, ".kiro/settings/mcp.json"))
        return CL_KIRO;
    if (path_has(path, ".gemini/settings.json") || path_has(path, "gemini-cli/settings.json"))
        return CL_GEMINI;
    if (path_has(path, "zed/settings.json") || path_has(path, "Zed/settings.json")) {
        *shape = SH_ZED;
        return CL_ZED;
    }
    if (path_has(path, ".vscode/mcp.json") || path_has(path, "User/mcp.json")) {
        *shape = SH_VSCODE_MCP;
        return CL_VSCODE;
    }
    if (path_has(path, "Code/User/settings.json")) {
        *shape = SH_VSCODE_SETTINGS;
        return CL_VSCODE;
    }
    return -1;
}

static bool is_obj(const cv *v) {
    return v != NULL && v->type == CV_OBJECT;
}

/* Client and shape from a JSON tree's keys; -1 when none fits. */
static int by_content(const cv *root, cfg_shape *shape) {
    if (!is_obj(root))
        return -1;
    if (is_obj(cv_get(root, "servers"))) {
        *shape = SH_VSCODE_MCP;
        return CL_VSCODE;
    }
    if (is_obj(cv_get(root, "context_servers"))) {
        *shape = SH_ZED;
        return CL_ZED;
    }
    if (is_obj(cv_get(root, "mcpServers")) || cv_get(root, "mcpServers") != NULL) {
        if (is_obj(cv_get(root, "projects"))) {
            *shape = SH_CLAUDE_USER;
            return CL_CLAUDE_CODE;
        }
        *shape = SH_MCPSERVERS;
        return CL_GENERIC;
    }
    if (is_obj(cv_get(root, "mcp"))) {
        *shape = SH_VSCODE_SETTINGS;
        return CL_VSCODE;
    }
    if (is_obj(cv_get(cv_get(root, "customizations"), "vscode"))) {
        *shape = SH_DEVCONTAINER;
        return CL_VSCODE;
    }
    return -1;
}

/* For a forced client: which of its shapes this file is. */
static cfg_shape shape_for(cfg_client cl, const char *path, const cv *root) {
    cfg_shape by = SH_MCPSERVERS;
    int named = by_name(path, &by);
    switch (cl) {
    case CL_CODEX:
        return SH_CODEX;
    case CL_ZED:
        return SH_ZED;
    case CL_CLAUDE_CODE:
        return (named == CL_CLAUDE_CODE && by == SH_CLAUDE_USER) || is_obj(cv_get(root, "projects"))
                   ? SH_CLAUDE_USER
                   : SH_MCPSERVERS;
    case CL_VSCODE:
        if (cv_get(root, "servers") != NULL)
            return SH_VSCODE_MCP;
        if (cv_get(root, "mcp") != NULL)
            return SH_VSCODE_SETTINGS;
        if (cv_get(root, "customizations") != NULL)
            return SH_DEVCONTAINER;
        return SH_VSCODE_MCP;
    case CL_CONTINUE:
        return root != NULL && is_obj(cv_get(root, "mcpServers")) ? SH_MCPSERVERS
                                                                  : SH_CONTINUE_YAML;
    default:
        return SH_MCPSERVERS;
    }
}

/* Whether the text starts (after blanks and comments) with '{'. */
static bool looks_json(const char *s, size_t n) {
    size_t i = 0;
    if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
            i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = NULL;
            for (size_t j = i + 2; j + 1 < n && e == NULL; j++)
                if (s[j] == '*' && s[j + 1] == '/')
                    e = s + j;
            if (e == NULL)
                return false;
            i = (size_t)(e - s) + 2;
        } else {
            break;
        }
    }
    return i < n && s[i] == '{';
}

int mv_config_load_file(mv_config_set **out, const char *path, const char *client,
                        const mv_config_env *env, mv_error *err) {
    envbuf eb;
    cfg_set *set = NULL;
    loaded L;
    char msg[400];
    bool missing = false;
    int rc;
    int cl = -1;
    cfg_shape shape = SH_MCPSERVERS;
    cfg_fmt f = FMT_JSON;

    memset(&L, 0, sizeof(L));
    if (out != NULL)
        *out = NULL;
    if (out == NULL || path == NULL) {
        set_error(err, MV_EINVAL, NULL, 0, 0, "mv_config_load_file needs an output and a path");
        return MV_EINVAL;
    }
    if (client != NULL && (cl = cfg_client_from_id(client)) < 0) {
        set_error(err, MV_EINVAL, path, 0, 0,
                  "unknown client '%.64s' (expected claude-desktop, claude-code, cursor, vscode, "
                  "windsurf, gemini, codex, zed, cline, continue, kiro or generic)",
                  client);
        return MV_EINVAL;
    }
    if ((rc = env_resolve(&eb, env)) != MV_OK) {
        set_error(err, rc, path, 0, 0, "out of memory");
        env_release(&eb);
        return rc;
    }
    const mv_allocator *a = eb.e.alloc;
    rc = cfg_read_file(path, &eb.e.lim, a, &L.buf, &L.len, &missing, msg, sizeof(msg));
    if (rc != MV_OK) {
        set_error(err, rc, path, 0, 0, "%s", msg);
        goto done;
    }
    if ((set = set_new(a)) == NULL || ctx_init(&L.c, &eb.e, path, L.buf, L.len) != MV_OK) {
        rc = MV_ENOMEM;
        set_error(err, rc, path, 0, 0, "out of memory");
        goto done;
    }
    if (cl < 0)
        cl = by_name(path, &shape);
    if (cl >= 0) {
        f = client_format((cfg_client)cl);
        if (cl == CL_CONTINUE)
            f = looks_json(L.buf, L.len) ? FMT_JSON : FMT_YAML;
        rc = parse_as(&L.c, f, &L.root);
        if (rc == MV_OK)
            shape = f == FMT_YAML ? SH_CONTINUE_YAML : shape_for((cfg_client)cl, path, L.root);
    } else if (!looks_json(L.buf, L.len)) {
        /* TOML is the only non-JSON format without a telling file name. */
        f = FMT_TOML;
        rc = parse_as(&L.c, f, &L.root);
        if (rc == MV_OK && cv_get(L.root, "mcp_servers") != NULL) {
            cl = CL_CODEX;
            shape = SH_CODEX;
        } else if (rc != MV_OK && strstr(L.buf, "[mcp_servers") != NULL) {
            cl = CL_CODEX; /* report the TOML error */
        } else {
            rc = MV_EINVAL;
        }
    } else {
        /* JSON: detect on a lenient read, then read strictly for the
         * clients that do not accept comments. */
        rc = parse_as(&L.c, FMT_JSONC, &L.root);
        if (rc == MV_OK && (cl = by_content(L.root, &shape)) < 0)
            rc = MV_EINVAL;
        if (rc == MV_OK && client_format((cfg_client)cl) == FMT_JSON) {
            mv_arena_free(L.c.arena);
            if (ctx_init(&L.c, &eb.e, path, L.buf, L.len) != MV_OK)
                rc = MV_ENOMEM;
            else
                rc = parse_as(&L.c, FMT_JSON, &L.root);
        }
    }
    if (rc == MV_EINVAL) {
        set_error(err, rc, path, 0, 0,
                  "not a known MCP client config (no mcpServers, servers, context_servers or "
                  "[mcp_servers]); name the client with --client");
        goto done;
    }
    if (rc != MV_OK) {
        set_error(err, L.c.code ? L.c.code : rc, path, L.c.line, L.c.col, "%s", L.c.msg);
        rc = L.c.code ? L.c.code : rc;
        goto done;
    }
    if ((rc = add_file(set, path, (cfg_client)cl, "file", &L.file)) != MV_OK) {
        set_error(err, rc, path, 0, 0, "out of memory");
        goto done;
    }
    set->client_start = 0;
    rc = cfg_read_servers(&L.c, set, L.file, (cfg_client)cl, shape, L.root, "file", &eb.e);
    if (rc == MV_OK && shape == SH_CLAUDE_USER)
        rc = cfg_read_servers(&L.c, set, L.file, (cfg_client)cl, SH_CLAUDE_LOCAL, L.root, "local",
                              &eb.e);
    if (rc != MV_OK) {
        set_error(err, L.c.code ? L.c.code : rc, path, L.c.line, L.c.col, "%s", L.c.msg);
        rc = L.c.code ? L.c.code : rc;
        goto done;
    }
    *out = &set->pub;
    set = NULL;
done:
    loaded_release(&L, a);
    mv_config_set_free(set != NULL ? &set->pub : NULL);
    env_release(&eb);
    return rc;
}

/* ------------------------------------------------------------ describe */

static bool plain_arg(const char *s) {
    if (*s == '\0')
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= 0x20 || *p >= 0x7F || *p == '"' || *p == '\'' || *p == '\\')
            return false;
    return true;
}

static void put_shown(mv_buf *out, const char *s) {
    size_t n = strlen(s);
    if (plain_arg(s) && n <= 512) {
        mv_buf_append(out, s, n);
        return;
    }
    char *q = mv_alloc(out->alloc, MV_JSON_QUOTE_SIZE(512));
    if (q == NULL) {
        out->failed = 1;
        return;
    }
    mv_json_quote(q, s, n, 512);
    mv_buf_puts(out, q);
    mv_free(out->alloc, q, MV_JSON_QUOTE_SIZE(512));
}

static void put_names(mv_buf *out, const char *label, const mv_config_kv *kv, size_t n) {
    if (n == 0)
        return;
    mv_buf_printf(out, " [%s: ", label);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            mv_buf_puts(out, ", ");
        put_shown(out, kv[i].name != NULL ? kv[i].name : "");
    }
    mv_buf_putc(out, ']');
}

/* Arguments written into a config are secrets often enough ("--api-key",
 * "sk-live-..."), and they are not placeholders the client resolves, so a
 * description masks: the value after a flag named like a credential, the
 * value of "--token=..." forms, and any long one-word value mixing letters
 * and digits that is not a path, package, version or address. */
static bool has_word(const char *s, const char *word) {
    size_t n = strlen(word);
    for (; *s != '\0'; s++) {
        size_t i = 0;
        while (i < n && s[i] != '\0' && (s[i] | 0x20) == word[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static bool credential_flag(const char *arg, size_t len) {
    static const char *const words[] = {"token",  "key",        "secret", "password", "passwd",
                                        "bearer", "credential", "cookie", "auth"};
    char name[64];
    if (len >= sizeof name)
        len = sizeof name - 1;
    memcpy(name, arg, len);
    name[len] = '\0';
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has_word(name, words[i]))
            return true;
    return false;
}

static bool token_like(const char *s) {
    size_t n = strlen(s);
    bool digit = false, alpha = false;
    if (n < 20)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '/' || c == '.' || c == ' ' || c == '@' || c == ':')
            return false;
        digit |= c >= '0' && c <= '9';
        alpha |= (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    }
    return digit && alpha;
}

/* A URL without user info, its query and fragment hidden ("?..."). */
static void put_url(mv_buf *out, const char *url) {
    const char *sep = strstr(url, "://");
    const char *host = sep != NULL ? sep + 3 : url;
    size_t host_len = strcspn(host, "/?#");
    const char *at = memchr(host, '@', host_len);
    const char *path = host + host_len;
    size_t path_len = strcspn(path, "?#");
    mv_buf shown;
    mv_buf_init(&shown, out->alloc);
    mv_buf_append(&shown, url, (size_t)(host - url));
    if (at != NULL)
        host_len -= (size_t)(at + 1 - host), host = at + 1;
    mv_buf_append(&shown, host, host_len);
    mv_buf_append(&shown, path, path_len);
    if (path[path_len] != '\0')
        mv_buf_puts(&shown, "?...");
    if (shown.failed)
        out->failed = 1;
    else
        put_shown(out, shown.data != NULL ? shown.data : "");
    mv_buf_release(&shown);
}

mv_arg_mask mv_config_arg_mask(const char *prev, const char *arg) {
    const char *eq;
    if (arg == NULL)
        return MV_ARG_SHOW;
    if (prev != NULL && prev[0] == '-' && strchr(prev, '=') == NULL &&
        credential_flag(prev, strlen(prev)))
        return MV_ARG_MASK;
    if (token_like(arg))
        return MV_ARG_MASK;
    eq = arg[0] == '-' ? strchr(arg, '=') : NULL;
    if (eq != NULL && credential_flag(arg, (size_t)(eq - arg)))
        return MV_ARG_MASK_VALUE;
    return MV_ARG_SHOW;
}

int mv_config_describe(mv_buf *out, const mv_server_config *s) {
    if (out == NULL || s == NULL)
        return MV_EINVAL;
    mv_buf_printf(out, "%s:", mv_transport_name(s->transport));
    const char *cmd = s->raw_command != NULL ? s->raw_command : s->command;
    char **args = s->raw_args != NULL ? s->raw_args : s->args;
    const char *url = s->raw_url != NULL ? s->raw_url : s->url;
    if (cmd != NULL) {
        mv_buf_putc(out, ' ');
        put_shown(out, cmd);
        for (size_t i = 0; args != NULL && i < s->n_args; i++) {
            const char *arg = args[i] != NULL ? args[i] : "";
            mv_buf_putc(out, ' ');
            switch (mv_config_arg_mask(i > 0 ? args[i - 1] : NULL, arg)) {
            case MV_ARG_MASK:
                mv_buf_puts(out, "***");
                break;
            case MV_ARG_MASK_VALUE:
                mv_buf_append(out, arg, (size_t)(strchr(arg, '=') - arg) + 1);
                mv_buf_puts(out, "***");
                break;
            default:
                put_shown(out, arg);
                break;
            }
        }
    }
    if (url != NULL) {
        mv_buf_putc(out, ' ');
        put_url(out, url);
    }
    put_names(out, "env", s->env, s->n_env);
    put_names(out, "headers", s->headers, s->n_headers);
    const char *cwd = s->raw_cwd != NULL ? s->raw_cwd : s->cwd;
    if (cwd != NULL) {
        mv_buf_puts(out, " [cwd: ");
        put_shown(out, cwd);
        mv_buf_putc(out, ']');
    }
    if (s->proxied)
        mv_buf_puts(out, " [through mcpvet proxy]");
    return out->failed ? MV_ENOMEM : MV_OK;
}
