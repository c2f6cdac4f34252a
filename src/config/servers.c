/*
 * From a parsed config file to mv_server_config entries: where each client
 * keeps its servers (mcpServers, servers, context_servers, mcp_servers,
 * Continue's list), which fields it reads (serverUrl, httpUrl, the Zed
 * command object, Codex's bearer_token_env_var and env_http_headers...),
 * how the transport follows from `type` or the fields present, and the
 * placeholders it resolves (${VAR}, ${VAR:-default}, $VAR, ${env:NAME},
 * ${workspaceFolder}, ${userHome}, ${input:id}, ${{ secrets.NAME }}).
 *
 * A problem inside one entry makes that server INVALID (or NEEDS_INPUT)
 * with a reason and leaves the others alone; only caps and a wrong shape of
 * the file itself stop the file. No reason or message ever holds an env or
 * header value: they name fields and placeholders only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config/config_int.h"
#include "json/json.h"
#include "mcpvet/buf.h"

/* ------------------------------------------------------------ the clients */

/* Placeholder families. */
#define PH_BRACE 1u     /* ${VAR} */
#define PH_DEFAULT 2u   /* ${VAR:-default} */
#define PH_BARE 4u      /* $VAR */
#define PH_VSCODE 8u    /* ${env:NAME} ${workspaceFolder} ${userHome} ${input:id} ... */
#define PH_CONTINUE 16u /* ${{ secrets.NAME }} */

typedef struct client_spec {
    const char *id;
    unsigned placeholders;
    bool overrides;    /* project-level entries replace user-level ones */
    bool has_disabled; /* "disabled": true */
    bool has_env_file; /* "envFile" */
} client_spec;

static const client_spec SPECS[CL_COUNT] = {
    [CL_CLAUDE_DESKTOP] = {"claude-desktop", 0, false, false, false},
    [CL_CLAUDE_CODE] = {"claude-code", PH_BRACE | PH_DEFAULT, true, false, false},
    [CL_CURSOR] = {"cursor", PH_VSCODE, false, false, true},
    [CL_VSCODE] = {"vscode", PH_VSCODE, false, false, true},
    [CL_WINDSURF] = {"windsurf", PH_VSCODE, false, true, false},
    [CL_GEMINI] = {"gemini", PH_BRACE | PH_BARE, true, false, false},
    [CL_CODEX] = {"codex", 0, true, false, false},
    [CL_ZED] = {"zed", 0, false, false, false},
    [CL_CLINE] = {"cline", 0, false, true, false},
    [CL_CONTINUE] = {"continue", PH_CONTINUE, false, false, false},
    [CL_KIRO] = {"kiro", PH_BRACE, true, true, false},
    [CL_GENERIC] = {"generic", PH_BRACE | PH_DEFAULT | PH_VSCODE, false, true, true},
};

const char *cfg_client_id(cfg_client cl) {
    return cl < CL_COUNT ? SPECS[cl].id : "generic";
}

int cfg_client_from_id(const char *id) {
    for (int i = 0; id != NULL && i < CL_COUNT; i++)
        if (strcmp(SPECS[i].id, id) == 0)
            return i;
    return -1;
}

bool cfg_client_overrides(cfg_client cl) {
    return cl < CL_COUNT && SPECS[cl].overrides;
}

/* ------------------------------------------------------------ the reader */

typedef struct rd {
    cfg_ctx *c;
    cfg_set *set;
    size_t file;
    cfg_client cl;
    const client_spec *spec;
    const char *path; /* set-owned */
    const char *scope;
    const cfg_env *env;
    cfg_keyset names;        /* names seen in this file (Continue's list may repeat one) */
    uint64_t env_file_bytes; /* envFile bytes read for this config file so far */
} rd;

/* One server being built. */
typedef struct draft {
    mv_server_config s;
    const char *shown; /* the name, quoted and escaped, for messages */
    char shown_buf[MV_JSON_QUOTE_SIZE(48)];
    char invalid[320];
    char needs[320];
    char disabled[160];
    /* the entry's member values */
    const cv *type, *command, *args, *env, *env_file, *cwd, *url, *headers, *disabled_v, *enabled_v,
        *include, *exclude, *bearer, *env_headers, *settings, *source;
    const char *url_key;
    cv_member *entry_member;
} draft;

static void note(char *dst, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Keep the first reason of each kind. */
static void note(char *dst, size_t cap, const char *fmt, ...) {
    if (dst[0] != '\0')
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

#define INVALID(d, ...) note((d)->invalid, sizeof((d)->invalid), __VA_ARGS__)
#define NEEDS(d, ...) note((d)->needs, sizeof((d)->needs), __VA_ARGS__)

static int nomem(rd *R) {
    return cfg_fail(R->c, MV_ENOMEM, 0, 0, "out of memory");
}

/* Config text shown in a reason (a type name, a placeholder): quoted with
 * every non-printable escaped, at most `max` bytes. */
static void quote(char *dst, size_t cap, const char *s, size_t len, size_t max) {
    char q[MV_JSON_QUOTE_SIZE(64)];
    if (max > 64)
        max = 64;
    mv_json_quote(q, s, len, max);
    snprintf(dst, cap, "%s", q);
}

static int cap_fail(rd *R, draft *d, const cv *at, const char *what, size_t have, const char *lim,
                    unsigned long long max) {
    uint32_t l, col;
    cfg_pos(R->c, at, &l, &col);
    if (l == 0 && d->entry_member != NULL)
        cfg_pos_member(R->c, d->entry_member, &l, &col);
    return cfg_fail(R->c, MV_ELIMIT, l, col, "server %s: %s has %zu %s, over the %s limit of %llu",
                    d->shown, what, have,
                    strcmp(lim, "max_string_bytes") == 0 ? "bytes" : "entries", lim, max);
}

/*
 * A string field. Returns MV_OK with *out set, MV_OK with *out NULL when the
 * value is unusable (the server is marked invalid), or a file-level error.
 */
static int get_str(rd *R, draft *d, const cv *v, const char *field, const char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if (v == NULL)
        return MV_OK;
    if (v->type != CV_STRING) {
        INVALID(d, "%s must be a string, found %s", field, cv_type_name(v));
        return MV_OK;
    }
    if (v->len > R->c->lim.max_string_bytes)
        return cap_fail(R, d, v, field, v->len, "max_string_bytes", R->c->lim.max_string_bytes);
    if (memchr(v->s, '\0', v->len) != NULL) {
        INVALID(d, "%s contains a NUL character", field);
        return MV_OK;
    }
    *out = v->s;
    *len = v->len;
    return MV_OK;
}

/* --------------------------------------------------------- placeholders */

static bool is_ident_start(char ch) {
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}

static bool is_ident(char ch) {
    return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

/* How a placeholder is named in a reason: its text when it is made of
 * plain name characters, else a neutral phrase (the text could be part of a
 * secret value). Never a default value or a resolved value. */
static void ph_name(char *dst, size_t cap, const char *pre, const char *s, size_t n,
                    const char *post) {
    bool ok = n > 0 && n <= 64;
    for (size_t i = 0; ok && i < n; i++) {
        char ch = s[i];
        ok = is_ident(ch) || ch == '-' || ch == '.' || ch == ':' || ch == '/' || ch == ' ';
    }
    if (ok)
        snprintf(dst, cap, "%s%.*s%s", pre, (int)n, s, post);
    else
        snprintf(dst, cap, "a placeholder");
}

static const char *lookup_env(const rd *R, const char *name, size_t n) {
    char buf[256];
    if (n == 0 || n >= sizeof(buf))
        return NULL;
    memcpy(buf, name, n);
    buf[n] = '\0';
    return R->env->getenv_fn(R->env->getenv_arg, buf);
}

static const char *base_name(const char *p) {
    const char *slash = strrchr(p, '/');
    return slash != NULL && slash[1] != '\0' ? slash + 1 : p;
}

/*
 * Resolve the placeholders of one string. *out is the resolved text (in the
 * set's arena), or the text as written when a placeholder cannot be
 * resolved, in which case the server NEEDS_INPUT with a reason naming the
 * placeholder and `field`.
 */
static int expand(rd *R, draft *d, const char *s, size_t n, const char *field, char **out,
                  bool *changed) {
    unsigned ph = R->spec->placeholders;
    mv_buf b;
    int rc = MV_OK;
    bool unresolved = false;
    *out = NULL;
    if (changed != NULL)
        *changed = false;
    if (ph == 0 || memchr(s, '$', n) == NULL) {
        *out = cfg_set_strdup(R->set, s, n);
        return *out != NULL ? MV_OK : nomem(R);
    }
    mv_buf_init(&b, R->c->alloc);
    size_t i = 0;
    while (i < n && !unresolved) {
        char ch = s[i];
        if (ch != '$' || i + 1 >= n) {
            mv_buf_putc(&b, ch);
            i++;
            continue;
        }
        char name[96];
        /* ${{ ... }} (Continue secrets and inputs) */
        if ((ph & PH_CONTINUE) && s[i + 1] == '{' && i + 2 < n && s[i + 2] == '{') {
            const char *end = NULL;
            for (size_t j = i + 3; j + 1 < n; j++)
                if (s[j] == '}' && s[j + 1] == '}') {
                    end = s + j;
                    break;
                }
            if (end != NULL) {
                const char *a = s + i + 3, *z = end;
                while (a < z && *a == ' ')
                    a++;
                while (z > a && z[-1] == ' ')
                    z--;
                ph_name(name, sizeof(name), "${{ ", a, (size_t)(z - a), " }}");
                NEEDS(d, "needs input: %s (%s)", name, field);
                unresolved = true;
                break;
            }
        }
        if (s[i + 1] == '{') {
            const char *close = memchr(s + i + 2, '}', n - (i + 2));
            if (close == NULL) {
                mv_buf_putc(&b, ch);
                i++;
                continue;
            }
            const char *in = s + i + 2;
            size_t in_len = (size_t)(close - in);
            size_t next = (size_t)(close - s) + 1;
            if (ph & PH_VSCODE) {
                const char *val = NULL;
                char tmp[2] = {'/', '\0'};
                bool handled = true;
                if (in_len > 4 && memcmp(in, "env:", 4) == 0) {
                    val = lookup_env(R, in + 4, in_len - 4);
                    if (val == NULL) {
                        ph_name(name, sizeof(name), "${", in, in_len, "}");
                        NEEDS(d, "needs input: %s is not set (%s)", name, field);
                        unresolved = true;
                        break;
                    }
                } else if (in_len == 15 && memcmp(in, "workspaceFolder", 15) == 0) {
                    val = R->env->cwd;
                } else if (in_len == 23 && memcmp(in, "workspaceFolderBasename", 23) == 0) {
                    val = base_name(R->env->cwd);
                } else if (in_len == 8 && memcmp(in, "userHome", 8) == 0) {
                    val = R->env->home;
                } else if ((in_len == 13 && memcmp(in, "pathSeparator", 13) == 0) ||
                           (in_len == 1 && in[0] == '/')) {
                    val = tmp;
                } else if (memchr(in, ':', in_len) != NULL) {
                    /* ${input:id}, ${config:x}, ${command:x}, ${file:x}: a
                     * value the client prompts for or computes. */
                    ph_name(name, sizeof(name), "${", in, in_len, "}");
                    NEEDS(d, "needs input: %s (%s)", name, field);
                    unresolved = true;
                    break;
                } else if (!(ph & PH_BRACE)) {
                    ph_name(name, sizeof(name), "${", in, in_len, "}");
                    NEEDS(d, "needs input: unknown variable %s (%s)", name, field);
                    unresolved = true;
                    break;
                } else {
                    handled = false;
                }
                if (handled) {
                    mv_buf_puts(&b, val != NULL ? val : "");
                    i = next;
                    if (changed != NULL)
                        *changed = true;
                    continue;
                }
            }
            if (ph & PH_BRACE) {
                size_t k = 0;
                if (in_len > 0 && is_ident_start(in[0]))
                    while (k < in_len && is_ident(in[k]))
                        k++;
                bool plain = k > 0 && k == in_len;
                bool dflt = k > 0 && (ph & PH_DEFAULT) && in_len >= k + 2 && in[k] == ':' &&
                            in[k + 1] == '-';
                if (plain || dflt) {
                    const char *val = lookup_env(R, in, k);
                    if (dflt && (val == NULL || val[0] == '\0')) {
                        mv_buf_append(&b, in + k + 2, in_len - k - 2);
                    } else if (val == NULL) {
                        ph_name(name, sizeof(name), "${", in, k, "}");
                        NEEDS(d, "needs input: %s is not set (%s)", name, field);
                        unresolved = true;
                        break;
                    } else {
                        mv_buf_puts(&b, val);
                    }
                    i = next;
                    if (changed != NULL)
                        *changed = true;
                    continue;
                }
            }
            mv_buf_putc(&b, ch);
            i++;
            continue;
        }
        if ((ph & PH_BARE) && is_ident_start(s[i + 1])) {
            size_t k = i + 1;
            while (k < n && is_ident(s[k]))
                k++;
            const char *val = lookup_env(R, s + i + 1, k - i - 1);
            if (val == NULL) {
                ph_name(name, sizeof(name), "$", s + i + 1, k - i - 1, "");
                NEEDS(d, "needs input: %s is not set (%s)", name, field);
                unresolved = true;
                break;
            }
            mv_buf_puts(&b, val);
            if (changed != NULL)
                *changed = true;
            i = k;
            continue;
        }
        mv_buf_putc(&b, ch);
        i++;
    }
    if (b.failed) {
        rc = nomem(R);
        goto done;
    }
    if (unresolved) {
        *out = cfg_set_strdup(R->set, s, n);
        if (changed != NULL)
            *changed = false;
    } else if (b.len > R->c->lim.max_string_bytes) {
        INVALID(d,
                "%s is longer than the max_string_bytes limit of %u once placeholders are "
                "resolved",
                field, R->c->lim.max_string_bytes);
        *out = cfg_set_strdup(R->set, s, n);
        if (changed != NULL)
            *changed = false;
    } else if (memchr(b.data != NULL ? b.data : "", '\0', b.len) != NULL) {
        INVALID(d, "%s contains a NUL character once placeholders are resolved", field);
        *out = cfg_set_strdup(R->set, s, n);
    } else {
        *out = cfg_set_strdup(R->set, b.data != NULL ? b.data : "", b.len);
    }
    if (*out == NULL)
        rc = nomem(R);
done:
    mv_buf_release(&b);
    return rc;
}

/* A string field with placeholders resolved; *out NULL when absent or
 * unusable. `raw` (optional) gets the text as written. */
static int get_expanded(rd *R, draft *d, const cv *v, const char *field, char **out, char **raw) {
    const char *s;
    size_t n;
    *out = NULL;
    if (raw != NULL)
        *raw = NULL;
    int rc = get_str(R, d, v, field, &s, &n);
    if (rc != MV_OK || s == NULL)
        return rc;
    bool changed = false;
    if ((rc = expand(R, d, s, n, field, out, &changed)) != MV_OK)
        return rc;
    if (raw != NULL) {
        *raw = changed ? cfg_set_strdup(R->set, s, n) : *out;
        if (*raw == NULL)
            return nomem(R);
    }
    return MV_OK;
}

/* ------------------------------------------------------------ fields */

static void field_name(char *dst, size_t cap, const char *what, const char *key, size_t len) {
    char q[MV_JSON_QUOTE_SIZE(48)];
    mv_json_quote(q, key, len, 48);
    snprintf(dst, cap, "%s %s", what, q);
}

/* An array of strings (args, tool filters). */
static int get_str_array(rd *R, draft *d, const cv *v, const char *field, bool resolve, char ***out,
                         char ***raw_out, size_t *n_out) {
    *out = NULL;
    if (raw_out != NULL)
        *raw_out = NULL;
    *n_out = 0;
    if (v == NULL)
        return MV_OK;
    if (v->type != CV_ARRAY) {
        INVALID(d, "%s must be an array of strings, found %s", field, cv_type_name(v));
        return MV_OK;
    }
    if (v->n > R->c->lim.max_entries)
        return cap_fail(R, d, v, field, v->n, "max_entries", R->c->lim.max_entries);
    char **items = mv_arena_calloc(R->set->arena, v->n + 1, sizeof(char *));
    char **raws = raw_out != NULL ? mv_arena_calloc(R->set->arena, v->n + 1, sizeof(char *)) : NULL;
    if (items == NULL || (raw_out != NULL && raws == NULL))
        return nomem(R);
    for (size_t i = 0; i < v->n; i++) {
        char f[64];
        snprintf(f, sizeof(f), "%s[%zu]", field, i);
        const char *s;
        size_t n;
        int rc = get_str(R, d, v->items[i], f, &s, &n);
        if (rc != MV_OK)
            return rc;
        if (s == NULL) {
            s = "";
            n = 0;
        }
        bool changed = false;
        if (resolve)
            rc = expand(R, d, s, n, f, &items[i], &changed);
        else if ((items[i] = cfg_set_strdup(R->set, s, n)) == NULL)
            rc = nomem(R);
        if (rc != MV_OK)
            return rc;
        if (raws != NULL) {
            raws[i] = changed ? cfg_set_strdup(R->set, s, n) : items[i];
            if (raws[i] == NULL)
                return nomem(R);
        }
    }
    *out = items;
    if (raw_out != NULL)
        *raw_out = raws;
    *n_out = v->n;
    return MV_OK;
}

typedef struct kvlist {
    mv_config_kv *kv;
    size_t n, cap;
} kvlist;

static bool same_name(const char *a, const char *b, size_t n, bool fold) {
    if (strlen(a) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (fold) {
            x = (char)(x >= 'A' && x <= 'Z' ? x + 32 : x);
            y = (char)(y >= 'A' && y <= 'Z' ? y + 32 : y);
        }
        if (x != y)
            return false;
    }
    return true;
}

/* Add a pair; with `replace`, a pair of the same name (ASCII case folded
 * when `fold`, as for header names) is replaced instead: a later source
 * wins. Only merges of two sources ask for `replace` (one object cannot
 * repeat a key), which keeps the common path linear. */
static int kv_set(rd *R, kvlist *l, const char *name, size_t nlen, char *value, bool replace,
                  bool fold) {
    for (size_t i = 0; replace && i < l->n; i++) {
        if (same_name(l->kv[i].name, name, nlen, fold)) {
            l->kv[i].value = value;
            return MV_OK;
        }
    }
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 8;
        mv_config_kv *p = mv_arena_alloc(R->set->arena, ncap * sizeof(*p));
        if (p == NULL)
            return nomem(R);
        if (l->n > 0)
            memcpy(p, l->kv, l->n * sizeof(*p));
        l->kv = p;
        l->cap = ncap;
    }
    char *nm = cfg_set_strdup(R->set, name, nlen);
    if (nm == NULL)
        return nomem(R);
    l->kv[l->n].name = nm;
    l->kv[l->n].value = value;
    l->n++;
    return MV_OK;
}

/* A map of strings (env, headers). `values` resolves placeholders; `what`
 * names one pair in messages ("env", "header"). */
static int get_str_map(rd *R, draft *d, const cv *v, const char *field, const char *what, kvlist *l,
                       bool replace, bool fold) {
    if (v == NULL)
        return MV_OK;
    if (v->type != CV_OBJECT) {
        INVALID(d, "%s must be an object of strings, found %s", field, cv_type_name(v));
        return MV_OK;
    }
    if (v->n + l->n > R->c->lim.max_entries)
        return cap_fail(R, d, v, field, v->n + l->n, "max_entries", R->c->lim.max_entries);
    for (size_t i = 0; i < v->n; i++) {
        const cv_member *m = &v->members[i];
        char f[MV_JSON_QUOTE_SIZE(48) + 32];
        field_name(f, sizeof(f), what, m->key, m->key_len);
        if (m->key_len > R->c->lim.max_string_bytes)
            return cap_fail(R, d, m->value, f, m->key_len, "max_string_bytes",
                            R->c->lim.max_string_bytes);
        if (m->key_len == 0 || memchr(m->key, '=', m->key_len) != NULL) {
            INVALID(d, "%s: the name must be non-empty and without '='", f);
            continue;
        }
        char *val = NULL;
        int rc = get_expanded(R, d, m->value, f, &val, NULL);
        if (rc != MV_OK)
            return rc;
        if (val == NULL)
            continue;
        if ((rc = kv_set(R, l, m->key, m->key_len, val, replace, fold)) != MV_OK)
            return rc;
    }
    return MV_OK;
}

/* ------------------------------------------------------------- envFile */

/*
 * A dotenv file (VS Code's and Cursor's envFile): KEY=VALUE lines, '#'
 * comments, an optional `export `, values optionally in single or double
 * quotes (double quotes understand \n). Problems name the file and line,
 * never a value.
 */
static int read_env_file(rd *R, draft *d, const char *path, kvlist *l) {
    char *buf = NULL;
    size_t len = 0;
    bool missing = false;
    char msg[300];
    int rc = cfg_read_file(path, &R->c->lim, R->c->alloc, &buf, &len, &missing, msg, sizeof(msg));
    if (rc == MV_ENOMEM)
        return nomem(R);
    if (rc != MV_OK) {
        INVALID(d, "envFile: %s", msg);
        return MV_OK;
    }
    /* Many servers naming big env files must not multiply the reading: all
     * the envFiles of one config file share the max_file_bytes budget. */
    R->env_file_bytes += len;
    if (R->env_file_bytes > R->c->lim.max_file_bytes) {
        INVALID(d,
                "envFile %s: the env files of this config together exceed the "
                "max_file_bytes limit of %llu bytes",
                path, (unsigned long long)R->c->lim.max_file_bytes);
        mv_free(R->c->alloc, buf, len + 1);
        return MV_OK;
    }
    size_t line = 0, i = 0;
    while (i < len && rc == MV_OK) {
        size_t eol = i;
        while (eol < len && buf[eol] != '\n')
            eol++;
        line++;
        size_t a = i, z = eol;
        i = eol + 1;
        if (z > a && buf[z - 1] == '\r')
            z--;
        while (a < z && (buf[a] == ' ' || buf[a] == '\t'))
            a++;
        if (a == z || buf[a] == '#')
            continue;
        if (z - a > 7 && memcmp(buf + a, "export ", 7) == 0)
            a += 7;
        size_t k = a;
        while (k < z && (is_ident(buf[k]) || buf[k] == '.' || buf[k] == '-'))
            k++;
        size_t name_end = k;
        while (k < z && (buf[k] == ' ' || buf[k] == '\t'))
            k++;
        if (name_end == a || k >= z || buf[k] != '=') {
            INVALID(d, "envFile %s line %zu: expected NAME=VALUE", path, line);
            break;
        }
        k++;
        while (k < z && (buf[k] == ' ' || buf[k] == '\t'))
            k++;
        mv_buf v;
        mv_buf_init(&v, R->c->alloc);
        if (k < z && (buf[k] == '"' || buf[k] == '\'')) {
            char q = buf[k++];
            bool closed = false;
            for (; k < z; k++) {
                if (buf[k] == q) {
                    closed = true;
                    break;
                }
                if (q == '"' && buf[k] == '\\' && k + 1 < z) {
                    k++;
                    mv_buf_putc(&v, buf[k] == 'n' ? '\n' : buf[k]);
                    continue;
                }
                mv_buf_putc(&v, buf[k]);
            }
            if (!closed) {
                INVALID(d, "envFile %s line %zu: unterminated quoted value", path, line);
                mv_buf_release(&v);
                break;
            }
        } else {
            size_t e = z;
            for (size_t x = k; x < z; x++)
                if (buf[x] == '#' && (x == k || buf[x - 1] == ' ' || buf[x - 1] == '\t')) {
                    e = x;
                    break;
                }
            while (e > k && (buf[e - 1] == ' ' || buf[e - 1] == '\t'))
                e--;
            mv_buf_append(&v, buf + k, e - k);
        }
        if (v.failed) {
            mv_buf_release(&v);
            rc = nomem(R);
            break;
        }
        if (l->n >= R->c->lim.max_entries) {
            mv_buf_release(&v);
            INVALID(d, "envFile %s has more than the max_entries limit of %u entries", path,
                    R->c->lim.max_entries);
            break;
        }
        char *val = cfg_set_strdup(R->set, v.data != NULL ? v.data : "", v.len);
        mv_buf_release(&v);
        if (val == NULL) {
            rc = nomem(R);
            break;
        }
        rc = kv_set(R, l, buf + a, name_end - a, val, true, false);
    }
    mv_free(R->c->alloc, buf, len + 1);
    return rc;
}

/* ------------------------------------------------------------ transport */

static int parse_type(const char *t, size_t n, mv_transport *out) {
    static const struct {
        const char *name;
        mv_transport t;
    } types[] = {{"stdio", MV_TRANSPORT_STDIO},          {"http", MV_TRANSPORT_HTTP},
                 {"streamable-http", MV_TRANSPORT_HTTP}, {"streamableHttp", MV_TRANSPORT_HTTP},
                 {"streamable_http", MV_TRANSPORT_HTTP}, {"sse", MV_TRANSPORT_SSE}};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (strlen(types[i].name) == n && memcmp(types[i].name, t, n) == 0) {
            *out = types[i].t;
            return 0;
        }
    return -1;
}

static bool url_scheme_ok(const char *u) {
    static const char *const schemes[] = {"http://", "https://"};
    for (size_t i = 0; i < 2; i++) {
        size_t k = strlen(schemes[i]);
        bool ok = strlen(u) > k;
        for (size_t j = 0; ok && j < k; j++) {
            char ch = u[j];
            ok = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch) == schemes[i][j];
        }
        if (ok)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------- entries */

/* Sort the entry's members into the draft's slots (unknown ones ignored,
 * as the clients do). */
static void pick_fields(rd *R, draft *d, const cv *e) {
    for (size_t i = 0; i < e->n; i++) {
        const cv_member *m = &e->members[i];
        const cv *v = m->value;
        char key[32];
        if (m->key_len >= sizeof(key))
            continue;
        memcpy(key, m->key, m->key_len);
        key[m->key_len] = '\0';
        cfg_client cl = R->cl;
        if (strcmp(key, "type") == 0 ||
            (cl == CL_CLINE && strcmp(key, "transportType") == 0 && d->type == NULL))
            d->type = v;
        else if (strcmp(key, "command") == 0)
            d->command = v;
        else if (strcmp(key, "args") == 0)
            d->args = v;
        else if (strcmp(key, "env") == 0)
            d->env = v;
        else if (strcmp(key, "envFile") == 0 && R->spec->has_env_file)
            d->env_file = v;
        else if (strcmp(key, "cwd") == 0)
            d->cwd = v;
        else if (strcmp(key, "url") == 0 && d->url == NULL)
            d->url = v, d->url_key = "url";
        else if (strcmp(key, "serverUrl") == 0 && (cl == CL_WINDSURF || cl == CL_GENERIC))
            d->url = v, d->url_key = "serverUrl";
        else if (strcmp(key, "httpUrl") == 0 && (cl == CL_GEMINI || cl == CL_GENERIC))
            d->url = v, d->url_key = "httpUrl";
        else if ((strcmp(key, "headers") == 0 && cl != CL_CODEX) ||
                 (strcmp(key, "http_headers") == 0 && cl == CL_CODEX))
            d->headers = v;
        else if (strcmp(key, "disabled") == 0 && R->spec->has_disabled)
            d->disabled_v = v;
        else if (strcmp(key, "enabled") == 0 && (cl == CL_CODEX || cl == CL_ZED))
            d->enabled_v = v;
        else if ((strcmp(key, "includeTools") == 0 && cl == CL_GEMINI) ||
                 (strcmp(key, "enabled_tools") == 0 && cl == CL_CODEX))
            d->include = v;
        else if ((strcmp(key, "excludeTools") == 0 && cl == CL_GEMINI) ||
                 (strcmp(key, "disabled_tools") == 0 && cl == CL_CODEX) ||
                 (strcmp(key, "disabledTools") == 0 && cl == CL_KIRO))
            d->exclude = v;
        else if (strcmp(key, "bearer_token_env_var") == 0 && cl == CL_CODEX)
            d->bearer = v;
        else if (strcmp(key, "env_http_headers") == 0 && cl == CL_CODEX)
            d->env_headers = v;
        else if (strcmp(key, "settings") == 0 && cl == CL_ZED)
            d->settings = v;
        else if (strcmp(key, "source") == 0 && cl == CL_ZED)
            d->source = v;
        else if (strcmp(key, "requestOptions") == 0 && cl == CL_CONTINUE && d->headers == NULL)
            d->headers = cv_get(v, "headers");
    }
    /* Gemini: httpUrl (streamable HTTP) wins over url (SSE). */
    if (R->cl == CL_GEMINI && d->url_key != NULL && strcmp(d->url_key, "url") == 0) {
        const cv *h = cv_get(e, "httpUrl");
        if (h != NULL)
            d->url = h, d->url_key = "httpUrl";
    }
    if (R->cl == CL_WINDSURF && d->url_key != NULL && strcmp(d->url_key, "url") == 0) {
        const cv *su = cv_get(e, "serverUrl");
        if (su != NULL)
            d->url = su, d->url_key = "serverUrl";
    }
}

static bool source_is(const cv *v, const char *what) {
    return v != NULL && v->type == CV_STRING && v->len == strlen(what) &&
           memcmp(v->s, what, v->len) == 0;
}

static int tool_filters(rd *R, draft *d) {
    int rc = get_str_array(R, d, d->include, R->cl == CL_CODEX ? "enabled_tools" : "includeTools",
                           false, &d->s.include_tools, NULL, &d->s.n_include_tools);
    if (rc != MV_OK)
        return rc;
    const char *ex = R->cl == CL_CODEX  ? "disabled_tools"
                     : R->cl == CL_KIRO ? "disabledTools"
                                        : "excludeTools";
    return get_str_array(R, d, d->exclude, ex, false, &d->s.exclude_tools, NULL,
                         &d->s.n_exclude_tools);
}

/* Codex: bearer_token_env_var and env_http_headers take header values from
 * the environment. */
static int codex_headers(rd *R, draft *d, kvlist *hdr) {
    if (d->env_headers != NULL) {
        if (d->env_headers->type != CV_OBJECT) {
            INVALID(d, "env_http_headers must be a table of strings, found %s",
                    cv_type_name(d->env_headers));
        } else {
            if (d->env_headers->n + hdr->n > R->c->lim.max_entries)
                return cap_fail(R, d, d->env_headers, "env_http_headers",
                                d->env_headers->n + hdr->n, "max_entries", R->c->lim.max_entries);
            for (size_t i = 0; i < d->env_headers->n; i++) {
                const cv_member *m = &d->env_headers->members[i];
                char f[MV_JSON_QUOTE_SIZE(48) + 40];
                field_name(f, sizeof(f), "env_http_headers", m->key, m->key_len);
                const char *var;
                size_t vn;
                int rc = get_str(R, d, m->value, f, &var, &vn);
                if (rc != MV_OK)
                    return rc;
                if (var == NULL)
                    continue;
                const char *val = lookup_env(R, var, vn);
                if (val == NULL) {
                    char name[96];
                    ph_name(name, sizeof(name), "", var, vn, "");
                    NEEDS(d, "needs input: environment variable %s is not set (%s)", name, f);
                    continue;
                }
                char *copy = cfg_set_strdup(R->set, val, strlen(val));
                if (copy == NULL)
                    return nomem(R);
                if ((rc = kv_set(R, hdr, m->key, m->key_len, copy, true, true)) != MV_OK)
                    return rc;
            }
        }
    }
    if (d->bearer != NULL) {
        const char *var;
        size_t vn;
        int rc = get_str(R, d, d->bearer, "bearer_token_env_var", &var, &vn);
        if (rc != MV_OK)
            return rc;
        if (var != NULL) {
            const char *val = lookup_env(R, var, vn);
            if (val == NULL) {
                char name[96];
                ph_name(name, sizeof(name), "", var, vn, "");
                NEEDS(d,
                      "needs input: environment variable %s is not set "
                      "(bearer_token_env_var)",
                      name);
            } else {
                mv_buf b;
                mv_buf_init(&b, R->c->alloc);
                mv_buf_puts(&b, "Bearer ");
                mv_buf_puts(&b, val);
                char *copy = b.failed ? NULL : cfg_set_strdup(R->set, b.data, b.len);
                mv_buf_release(&b);
                if (copy == NULL)
                    return nomem(R);
                if ((rc = kv_set(R, hdr, "Authorization", 13, copy, true, true)) != MV_OK)
                    return rc;
            }
        }
    }
    return MV_OK;
}

static int add_server(rd *R, draft *d);
static void unwrap_proxy(mv_server_config *s);

/* One server entry: `e` is its value, named `name`. */
static int read_entry(rd *R, const char *name, size_t name_len, const cv *e, cv_member *at) {
    draft *d = mv_calloc(R->c->alloc, 1, sizeof(*d));
    int rc = MV_OK;
    kvlist env = {0}, hdr = {0};
    if (d == NULL)
        return nomem(R);
    d->entry_member = at;
    mv_json_quote(d->shown_buf, name, name_len, 48);
    d->shown = d->shown_buf;
    if (name_len > R->c->lim.max_string_bytes) {
        rc =
            cap_fail(R, d, e, "the name", name_len, "max_string_bytes", R->c->lim.max_string_bytes);
        goto done;
    }
    uint32_t line = 0, col = 0;
    if (at != NULL)
        cfg_pos_member(R->c, at, &line, &col);
    else
        cfg_pos(R->c, e, &line, &col);
    d->s.line = line;
    d->s.column = col;
    if ((d->s.name = cfg_set_strdup(R->set, name, name_len)) == NULL) {
        rc = nomem(R);
        goto done;
    }
    if (name_len == 0 || memchr(name, '\0', name_len) != NULL)
        INVALID(d, "the server name must be non-empty text");
    int seen = cfg_keyset_add(&R->names, R, name, name_len);
    if (seen < 0) {
        rc = nomem(R);
        goto done;
    }
    if (seen == 1)
        INVALID(d, "another server of this file has the same name");
    if (e == NULL || e->type != CV_OBJECT) {
        INVALID(d, "the entry must be an object, found %s", cv_type_name(e));
        goto finish;
    }
    pick_fields(R, d, e);

    /* Zed's older form: "command": {"path", "args", "env"}. */
    if (R->cl == CL_ZED && d->command != NULL && d->command->type == CV_OBJECT) {
        const cv *obj = d->command;
        d->command = cv_get(obj, "path");
        if (d->args == NULL)
            d->args = cv_get(obj, "args");
        if (d->env == NULL)
            d->env = cv_get(obj, "env");
        if (d->command == NULL)
            INVALID(d, "command.path is missing");
    }

    /* Disabled? */
    if (d->disabled_v != NULL) {
        if (d->disabled_v->type != CV_BOOL)
            INVALID(d, "disabled must be a boolean, found %s", cv_type_name(d->disabled_v));
        else if (d->disabled_v->b)
            note(d->disabled, sizeof(d->disabled), "disabled in the config (disabled: true)");
    }
    if (d->enabled_v != NULL) {
        if (d->enabled_v->type != CV_BOOL)
            INVALID(d, "enabled must be a boolean, found %s", cv_type_name(d->enabled_v));
        else if (!d->enabled_v->b)
            note(d->disabled, sizeof(d->disabled), "disabled in the config (enabled = false)");
    }

    /* Transport. */
    mv_transport t = MV_TRANSPORT_NONE;
    if (d->type != NULL) {
        const char *ts;
        size_t tn;
        if ((rc = get_str(R, d, d->type, "type", &ts, &tn)) != MV_OK)
            goto done;
        if (ts != NULL && parse_type(ts, tn, &t) != 0) {
            char q[MV_JSON_QUOTE_SIZE(64)];
            quote(q, sizeof(q), ts, tn, 32);
            INVALID(d, "unknown type %s (expected stdio, http or sse)", q);
        }
    }
    if (t == MV_TRANSPORT_NONE && d->invalid[0] == '\0') {
        if (R->cl == CL_GEMINI && d->url != NULL)
            t = strcmp(d->url_key, "httpUrl") == 0 ? MV_TRANSPORT_HTTP : MV_TRANSPORT_SSE;
        else if (d->command != NULL)
            t = MV_TRANSPORT_STDIO;
        else if (d->url != NULL)
            t = MV_TRANSPORT_HTTP;
    }
    d->s.transport = t;

    if (t == MV_TRANSPORT_STDIO) {
        if (d->command == NULL) {
            INVALID(d, "type stdio needs a command");
        } else {
            if ((rc = get_expanded(R, d, d->command, "command", &d->s.command,
                                   &d->s.raw_command)) != MV_OK)
                goto done;
            if (d->s.command != NULL && d->s.command[0] == '\0')
                INVALID(d, "the command is empty");
        }
        if ((rc = get_str_array(R, d, d->args, "args", true, &d->s.args, &d->s.raw_args,
                                &d->s.n_args)) != MV_OK)
            goto done;
        if (d->env_file != NULL) {
            char *p = NULL;
            bool had_needs = d->needs[0] != '\0';
            if ((rc = get_expanded(R, d, d->env_file, "envFile", &p, NULL)) != MV_OK)
                goto done;
            if (p != NULL && (had_needs || d->needs[0] == '\0')) {
                mv_buf full;
                mv_buf_init(&full, R->c->alloc);
                if (p[0] != '/' && R->env->cwd != NULL) {
                    mv_buf_puts(&full, R->env->cwd);
                    mv_buf_putc(&full, '/');
                }
                mv_buf_puts(&full, p);
                if (full.failed) {
                    mv_buf_release(&full);
                    rc = nomem(R);
                    goto done;
                }
                rc = read_env_file(R, d, full.data, &env);
                mv_buf_release(&full);
                if (rc != MV_OK)
                    goto done;
            }
        }
        if ((rc = get_str_map(R, d, d->env, "env", "env", &env, env.n > 0, false)) != MV_OK)
            goto done;
        if (d->cwd != NULL) {
            char *cwd = NULL;
            bool had_needs = d->needs[0] != '\0';
            if ((rc = get_expanded(R, d, d->cwd, "cwd", &cwd, &d->s.raw_cwd)) != MV_OK)
                goto done;
            if (cwd != NULL && cwd[0] != '/' && cwd[0] != '\0' && R->env->cwd != NULL &&
                (had_needs || d->needs[0] == '\0')) {
                /* Relative to the project (the clients start servers there). */
                mv_buf full;
                mv_buf_init(&full, R->c->alloc);
                mv_buf_printf(&full, "%s/%s", R->env->cwd, cwd);
                cwd = full.failed ? NULL : cfg_set_strdup(R->set, full.data, full.len);
                mv_buf_release(&full);
                if (cwd == NULL) {
                    rc = nomem(R);
                    goto done;
                }
            }
            d->s.cwd = cwd;
        }
    } else if (t == MV_TRANSPORT_HTTP || t == MV_TRANSPORT_SSE) {
        if (d->url == NULL) {
            INVALID(d, "type %s needs a url", mv_transport_name(t));
        } else {
            if ((rc = get_expanded(R, d, d->url, d->url_key, &d->s.url, &d->s.raw_url)) != MV_OK)
                goto done;
            if (d->s.url != NULL && d->needs[0] == '\0' && !url_scheme_ok(d->s.url))
                INVALID(d, "%s must start with http:// or https://", d->url_key);
        }
        if ((rc = get_str_map(R, d, d->headers, R->cl == CL_CODEX ? "http_headers" : "headers",
                              "header", &hdr, false, false)) != MV_OK)
            goto done;
        if (R->cl == CL_CODEX && (rc = codex_headers(R, d, &hdr)) != MV_OK)
            goto done;
    } else if (d->invalid[0] == '\0') {
        if (R->cl == CL_ZED && (d->settings != NULL || source_is(d->source, "extension")))
            INVALID(d, "provided by a Zed extension (no command or url in the settings)");
        else
            INVALID(d, "no command or url");
    }
    if ((rc = tool_filters(R, d)) != MV_OK)
        goto done;
    d->s.env = env.kv;
    d->s.n_env = env.n;
    d->s.headers = hdr.kv;
    d->s.n_headers = hdr.n;

finish:
    if (d->s.raw_command == NULL)
        d->s.raw_command = d->s.command;
    if (d->s.raw_args == NULL)
        d->s.raw_args = d->s.args;
    if (d->s.raw_url == NULL)
        d->s.raw_url = d->s.url;
    if (d->s.raw_cwd == NULL)
        d->s.raw_cwd = d->s.cwd;
    unwrap_proxy(&d->s);
    rc = add_server(R, d);
done:
    mv_free(R->c->alloc, d, sizeof(*d));
    return rc;
}

/* An entry `mcpvet proxy --install` wrapped: its command is mcpvet (any
 * path) and its args are "proxy" OPTIONS... "--" COMMAND ARGS... (the
 * proxy's own syntax, so the first argument after "--" is the command). */
static bool is_mcpvet(const char *cmd) {
    if (cmd == NULL)
        return false;
    const char *b = strrchr(cmd, '/');
    b = b != NULL ? b + 1 : cmd;
    return strcmp(b, "mcpvet") == 0;
}

static void unwrap_proxy(mv_server_config *s) {
    if (s->transport != MV_TRANSPORT_STDIO || !is_mcpvet(s->raw_command) ||
        !is_mcpvet(s->command) || s->n_args < 3 || strcmp(s->raw_args[0], "proxy") != 0)
        return;
    size_t dd = 0;
    for (size_t i = 1; i + 1 < s->n_args && dd == 0; i++)
        if (strcmp(s->raw_args[i], "--") == 0)
            dd = i;
    if (dd == 0 || s->args[dd + 1][0] == '\0')
        return;
    s->command = s->args[dd + 1];
    s->raw_command = s->raw_args[dd + 1];
    s->args += dd + 2;
    s->raw_args += dd + 2;
    s->n_args -= dd + 2;
    s->proxied = true;
}

/* Append the finished server; a server of the same client and name from a
 * less specific file (or scope) is dropped when the client says so. */
static int add_server(rd *R, draft *d) {
    cfg_set *set = R->set;
    mv_server_config *s = &d->s;
    const char *reason = NULL;
    if (d->disabled[0] != '\0') {
        s->readiness = MV_SERVER_DISABLED;
        reason = d->disabled;
    } else if (d->invalid[0] != '\0') {
        s->readiness = MV_SERVER_INVALID;
        reason = d->invalid;
    } else if (d->needs[0] != '\0') {
        s->readiness = MV_SERVER_NEEDS_INPUT;
        reason = d->needs;
    } else {
        s->readiness = MV_SERVER_READY;
    }
    if (reason != NULL &&
        (s->readiness_reason = cfg_set_strdup(set, reason, strlen(reason))) == NULL)
        return nomem(R);
    s->client = (char *)cfg_client_id(R->cl);
    s->config_path = (char *)R->path;
    s->scope = (char *)R->scope;
    s->client = cfg_set_strdup(set, s->client, strlen(s->client));
    if (s->client == NULL)
        return nomem(R);
    if (R->set->pub.files[R->file].n_servers >= R->c->lim.max_servers_per_file)
        return cfg_fail(R->c, MV_ELIMIT, s->line, s->column,
                        "more than the max_servers_per_file limit of %u servers",
                        R->c->lim.max_servers_per_file);
    if (R->spec->overrides) {
        mv_config_set *p = &set->pub;
        for (size_t i = set->client_start; i < p->n_servers; i++) {
            mv_server_config *o = &p->servers[i];
            if (strcmp(o->name, s->name) != 0 ||
                (strcmp(o->config_path, s->config_path) == 0 && strcmp(o->scope, s->scope) == 0))
                continue;
            s->overrides_path = o->config_path;
            for (size_t f = 0; f < p->n_files; f++)
                if (strcmp(p->files[f].path, o->config_path) == 0 && p->files[f].n_servers > 0 &&
                    strcmp(p->files[f].client, s->client) == 0) {
                    p->files[f].n_servers--;
                    break;
                }
            memmove(&p->servers[i], &p->servers[i + 1],
                    (p->n_servers - i - 1) * sizeof(p->servers[0]));
            p->n_servers--;
            break;
        }
    }
    if (set->pub.n_servers == set->cap_servers) {
        size_t ncap = set->cap_servers ? set->cap_servers * 2 : 16;
        mv_server_config *ns = mv_realloc(set->alloc, set->pub.servers,
                                          set->cap_servers * sizeof(*ns), ncap * sizeof(*ns));
        if (ns == NULL)
            return nomem(R);
        set->pub.servers = ns;
        set->cap_servers = ncap;
    }
    set->pub.servers[set->pub.n_servers++] = *s;
    set->pub.files[R->file].n_servers++;
    return MV_OK;
}

/* ------------------------------------------------------------- shapes */

/* Where the server map sits; NULL when the file has none (no servers, not
 * an error). A map of the wrong type is a file-level error. */
static int server_map(rd *R, const cv *root, cfg_shape shape, const cv **out, const char **key) {
    const cv *m = NULL;
    *out = NULL;
    *key = "mcpServers";
    if (root == NULL || root->type != CV_OBJECT) {
        uint32_t l, col;
        cfg_pos(R->c, root, &l, &col);
        return cfg_fail(R->c, MV_EPARSE, l ? l : 1, col ? col : 1,
                        "the file must hold an object, found %s", cv_type_name(root));
    }
    switch (shape) {
    case SH_MCPSERVERS:
    case SH_CLAUDE_USER:
    case SH_CONTINUE_YAML:
        m = cv_get(root, "mcpServers");
        break;
    case SH_CLAUDE_LOCAL: {
        const cv *projects = cv_get(root, "projects");
        const char *cwd = R->env->cwd;
        *key = "projects[cwd].mcpServers";
        if (projects == NULL || projects->type != CV_OBJECT || cwd == NULL)
            return MV_OK;
        size_t n = strlen(cwd);
        while (n > 1 && cwd[n - 1] == '/')
            n--;
        cv_member *pm = cv_get_member(projects, cwd, n);
        if (pm == NULL) {
            char with_slash[4096];
            if (n + 2 < sizeof(with_slash)) {
                memcpy(with_slash, cwd, n);
                with_slash[n] = '/';
                pm = cv_get_member(projects, with_slash, n + 1);
            }
        }
        if (pm == NULL || pm->value->type != CV_OBJECT)
            return MV_OK;
        m = cv_get(pm->value, "mcpServers");
        break;
    }
    case SH_VSCODE_MCP:
        *key = "servers";
        m = cv_get(root, "servers");
        break;
    case SH_VSCODE_SETTINGS:
        *key = "mcp.servers";
        m = cv_get(cv_get(root, "mcp"), "servers");
        break;
    case SH_DEVCONTAINER:
        *key = "customizations.vscode.mcp.servers";
        m = cv_get(cv_get(cv_get(cv_get(root, "customizations"), "vscode"), "mcp"), "servers");
        break;
    case SH_ZED:
        *key = "context_servers";
        m = cv_get(root, "context_servers");
        break;
    case SH_CODEX:
        *key = "mcp_servers";
        m = cv_get(root, "mcp_servers");
        break;
    }
    if (m == NULL || m->type == CV_NULL)
        return MV_OK;
    cv_type want = shape == SH_CONTINUE_YAML ? CV_ARRAY : CV_OBJECT;
    if (m->type != want) {
        uint32_t l, col;
        cfg_pos(R->c, m, &l, &col);
        return cfg_fail(R->c, MV_EPARSE, l, col, "%s must be %s, found %s", *key,
                        want == CV_ARRAY ? "a list" : "an object", cv_type_name(m));
    }
    *out = m;
    return MV_OK;
}

int cfg_read_servers(cfg_ctx *c, cfg_set *set, size_t file, cfg_client cl, cfg_shape shape,
                     const cv *root, const char *scope, const cfg_env *env) {
    rd R;
    int rc;
    memset(&R, 0, sizeof(R));
    R.c = c;
    R.set = set;
    R.file = file;
    R.cl = cl;
    R.spec = &SPECS[cl < CL_COUNT ? cl : CL_GENERIC];
    R.path = set->pub.files[file].path;
    R.scope = cfg_set_strdup(set, scope, strlen(scope));
    R.env = env;
    R.names.alloc = c->alloc;
    if (R.scope == NULL)
        return cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
    const cv *map = NULL;
    const char *key = NULL;
    if ((rc = server_map(&R, root, shape, &map, &key)) != MV_OK || map == NULL)
        goto done;
    if (map->n > c->lim.max_servers_per_file) {
        uint32_t l, col;
        cfg_pos(c, map, &l, &col);
        rc = cfg_fail(c, MV_ELIMIT, l, col,
                      "%s has %zu servers, over the max_servers_per_file limit of %u", key, map->n,
                      c->lim.max_servers_per_file);
        goto done;
    }
    for (size_t i = 0; i < map->n && rc == MV_OK; i++) {
        if (shape == SH_CONTINUE_YAML) {
            const cv *e = map->items[i];
            const cv *nm = cv_get(e, "name");
            char fallback[32];
            const char *name = fallback;
            size_t nlen;
            if (nm != NULL && nm->type == CV_STRING) {
                name = nm->s;
                nlen = nm->len;
            } else {
                /* Listed under a made-up name so the entry is not lost. */
                nlen = (size_t)snprintf(fallback, sizeof(fallback), "mcpServers[%zu]", i);
            }
            rc = read_entry(&R, name, nlen, e, NULL);
            if (rc == MV_OK && (nm == NULL || nm->type != CV_STRING)) {
                mv_server_config *s = &set->pub.servers[set->pub.n_servers - 1];
                if (s->readiness != MV_SERVER_DISABLED) {
                    s->readiness = MV_SERVER_INVALID;
                    s->readiness_reason = cfg_set_strdup(set, "the entry has no name", 21);
                    if (s->readiness_reason == NULL)
                        rc = cfg_fail(c, MV_ENOMEM, 0, 0, "out of memory");
                }
            }
        } else {
            cv_member *m = &map->members[i];
            rc = read_entry(&R, m->key, m->key_len, m->value, m);
        }
    }
done:
    cfg_keyset_free(&R.names);
    return rc;
}

/* --------------------------------------------------------------- Codex */

static cv *merge(cfg_ctx *c, const cv *base, cv *over, unsigned depth) {
    if (base == NULL || base->type != CV_OBJECT || over->type != CV_OBJECT || depth > CV_MAX_DEPTH)
        return over;
    cv *out = cv_new(c, CV_OBJECT);
    cfg_keyset ks;
    memset(&ks, 0, sizeof(ks));
    ks.alloc = c->alloc;
    if (out == NULL)
        return NULL;
    out->line = over->line;
    out->col = over->col;
    out->off = over->off;
    for (size_t i = 0; i < over->n; i++)
        if (cfg_keyset_add(&ks, over, over->members[i].key, over->members[i].key_len) < 0)
            goto oom;
    for (size_t i = 0; i < base->n; i++) {
        const cv_member *bm = &base->members[i];
        int present = cfg_keyset_add(&ks, over, bm->key, bm->key_len);
        if (present < 0)
            goto oom;
        if (present == 0 &&
            cv_put(c, out, bm->key, bm->key_len, bm->value, bm->line, bm->col, SIZE_MAX) != MV_OK)
            goto oom;
    }
    for (size_t i = 0; i < over->n; i++) {
        cv_member *om = &over->members[i];
        cv *v = om->value;
        cv_member *bm = cv_get_member(base, om->key, om->key_len);
        if (bm != NULL && v->type == CV_OBJECT && bm->value->type == CV_OBJECT &&
            (v = merge(c, bm->value, v, depth + 1)) == NULL)
            goto oom;
        uint32_t l, col;
        cfg_pos_member(c, om, &l, &col);
        if (cv_put(c, out, om->key, om->key_len, v, l, col, SIZE_MAX) != MV_OK)
            goto oom;
    }
    cfg_keyset_free(&ks);
    return out;
oom:
    cfg_keyset_free(&ks);
    return NULL;
}

int cfg_codex_layer(cfg_ctx *pc, cv *project, const cv *user) {
    cv_member *pm = cv_get_member(project, "mcp_servers", 11);
    const cv *um = cv_get(user, "mcp_servers");
    if (pm == NULL || pm->value->type != CV_OBJECT || um == NULL || um->type != CV_OBJECT)
        return MV_OK;
    for (size_t i = 0; i < pm->value->n; i++) {
        cv_member *entry = &pm->value->members[i];
        const cv *base = cv_get_member(um, entry->key, entry->key_len) != NULL
                             ? cv_get_member(um, entry->key, entry->key_len)->value
                             : NULL;
        if (base == NULL)
            continue;
        /* Fix the entry's position before its value is replaced. */
        uint32_t l, col;
        cfg_pos_member(pc, entry, &l, &col);
        entry->line = l;
        entry->col = col;
        cv *merged = merge(pc, base, entry->value, 0);
        if (merged == NULL)
            return cfg_fail(pc, MV_ENOMEM, 0, 0, "out of memory");
        entry->value = merged;
    }
    return MV_OK;
}
