/*
 * `mcpvet scan --list`: which client configs were found, which servers they
 * declare, and how each would be started or reached — without starting or
 * contacting anything. Secrets stay out: env and header values are never
 * shown (only their names), a URL loses its user info and query, and an
 * argument that looks like a token, or follows a --token/--api-key style
 * flag, is masked.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpvet/arena.h"
#include "mcpvet/config.h"
#include "mcpvet/evidence.h"
#include "mcpvet/report.h"

#define LIST_FIELD_CAP 512u

/* Case-insensitive substring test for ASCII words. */
static bool contains_word(const char *s, const char *word) {
    size_t n = strlen(word);
    for (; *s != '\0'; s++) {
        size_t i = 0;
        while (i < n && s[i] != '\0' && tolower((unsigned char)s[i]) == word[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static bool secret_flag_name(const char *s) {
    static const char *const words[] = {"token", "key",    "secret", "password", "passwd",
                                        "auth",  "bearer", "credential", "cookie"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_word(s, words[i]))
            return true;
    return false;
}

/* A value that looks like a credential rather than a path, package or
 * version: long, one word, letters and digits mixed, no '/' or '.'. */
static bool looks_like_token(const char *s) {
    size_t n = strlen(s);
    bool digit = false, alpha = false;
    if (n < 20)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '/' || c == '.' || c == ' ' || c == '@')
            return false;
        digit |= isdigit(c) != 0;
        alpha |= isalpha(c) != 0;
    }
    return digit && alpha;
}

static void put_safe(mv_buf *b, mv_arena *arena, const char *s) {
    mv_str safe = {NULL, 0};
    if (s == NULL)
        return;
    if (mv_evidence_render(arena, s, strlen(s), LIST_FIELD_CAP, &safe, NULL) == 0)
        mv_buf_append(b, safe.ptr, safe.len);
    else
        mv_buf_putc(b, '?');
}

/* The URL without user info and with the query and fragment hidden. */
static void put_url(mv_buf *b, mv_arena *arena, const char *url) {
    const char *scheme_end = strstr(url, "://");
    const char *host = scheme_end != NULL ? scheme_end + 3 : url;
    const char *path = host + strcspn(host, "/?#");
    const char *at = memchr(host, '@', (size_t)(path - host));
    size_t n = strlen(url) + 1;
    char *clean = malloc(n + 4);
    if (clean == NULL) {
        mv_buf_putc(b, '?');
        return;
    }
    size_t o = 0;
    memcpy(clean, url, (size_t)(host - url));
    o = (size_t)(host - url);
    const char *h = at != NULL ? at + 1 : host;
    memcpy(clean + o, h, (size_t)(path - h));
    o += (size_t)(path - h);
    size_t plen = strcspn(path, "?#");
    memcpy(clean + o, path, plen);
    o += plen;
    if (path[plen] != '\0') {
        memcpy(clean + o, "?...", 4);
        o += 4;
    }
    clean[o] = '\0';
    put_safe(b, arena, clean);
    free(clean);
}

static void put_names(mv_buf *b, mv_arena *arena, const char *label, const mv_config_kv *kv,
                      size_t n) {
    if (n == 0)
        return;
    mv_buf_printf(b, "  %s: ", label);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            mv_buf_puts(b, ", ");
        put_safe(b, arena, kv[i].name);
    }
}

/* One line saying how the server is started or reached. */
static void describe(mv_buf *b, mv_arena *arena, const mv_server_config *s) {
    if (s->transport == MV_TRANSPORT_STDIO) {
        mv_buf_puts(b, "stdio: ");
        put_safe(b, arena, s->command);
        bool mask_next = false;
        for (size_t i = 0; i < s->n_args; i++) {
            const char *arg = s->args[i] != NULL ? s->args[i] : "";
            mv_buf_putc(b, ' ');
            const char *eq = arg[0] == '-' ? strchr(arg, '=') : NULL;
            if (mask_next || looks_like_token(arg)) {
                mv_buf_puts(b, "***");
            } else if (eq != NULL && secret_flag_name(arg)) {
                mv_buf_append(b, arg, (size_t)(eq - arg) + 1);
                mv_buf_puts(b, "***");
            } else {
                put_safe(b, arena, arg);
            }
            mask_next = arg[0] == '-' && eq == NULL && secret_flag_name(arg);
        }
        if (s->cwd != NULL) {
            mv_buf_puts(b, "  (in ");
            put_safe(b, arena, s->cwd);
            mv_buf_putc(b, ')');
        }
        put_names(b, arena, "env", s->env, s->n_env);
    } else if (s->transport == MV_TRANSPORT_HTTP || s->transport == MV_TRANSPORT_SSE) {
        mv_buf_printf(b, "%s: ", mv_transport_name(s->transport));
        put_url(b, arena, s->url != NULL ? s->url : "");
        put_names(b, arena, "headers", s->headers, s->n_headers);
    } else {
        mv_buf_puts(b, "not startable");
    }
}

int mv_cli_list_servers(FILE *out, const mv_config_set *const *sets, size_t n_sets, bool color) {
    mv_buf b;
    mv_arena *arena = mv_arena_new(NULL, 0);
    size_t n_files = 0, n_servers = 0, bad_files = 0;
    mv_buf_init(&b, NULL);
    if (arena == NULL) {
        mv_cli_error("out of memory");
        return MV_EXIT_USAGE;
    }
    mv_buf_puts(&b, "Config files\n");
    for (size_t i = 0; i < n_sets; i++) {
        for (size_t f = 0; f < sets[i]->n_files; f++) {
            const mv_config_file *file = &sets[i]->files[f];
            n_files++;
            mv_buf_printf(&b, "  %-15s %-9s ", file->client != NULL ? file->client : "?",
                          file->scope != NULL ? file->scope : "");
            put_safe(&b, arena, file->path);
            if (file->status == MV_OK) {
                mv_buf_printf(&b, "  (%zu %s)\n", file->n_servers,
                              file->n_servers == 1 ? "server" : "servers");
            } else {
                bad_files++;
                mv_buf_puts(&b, color ? "\n    \x1b[1;31mERROR\x1b[0m " : "\n    ERROR ");
                put_safe(&b, arena, file->error != NULL ? file->error : "cannot be read");
                mv_buf_putc(&b, '\n');
            }
        }
    }
    if (n_files == 0)
        mv_buf_puts(&b, "  (none found)\n");
    mv_buf_puts(&b, "\nServers (nothing is started by --list)\n");
    for (size_t i = 0; i < n_sets; i++) {
        for (size_t k = 0; k < sets[i]->n_servers; k++) {
            const mv_server_config *s = &sets[i]->servers[k];
            bool ready = s->readiness == MV_SERVER_READY;
            n_servers++;
            mv_buf_puts(&b, "  ");
            put_safe(&b, arena, s->name);
            mv_buf_printf(&b, "  [%s, %s", s->client != NULL ? s->client : "?",
                          s->scope != NULL ? s->scope : "?");
            if (s->line > 0)
                mv_buf_printf(&b, ", line %u", s->line);
            mv_buf_puts(&b, "]\n    ");
            describe(&b, arena, s);
            mv_buf_putc(&b, '\n');
            if (!ready) {
                const char *tag = mv_server_readiness_name(s->readiness);
                if (color)
                    mv_buf_printf(&b, "    \x1b[1;33m%s\x1b[0m: ", tag);
                else
                    mv_buf_printf(&b, "    %s: ", tag);
                put_safe(&b, arena, s->readiness_reason != NULL ? s->readiness_reason : tag);
                mv_buf_putc(&b, '\n');
            }
            if (s->overrides_path != NULL) {
                mv_buf_puts(&b, "    overrides the same server in ");
                put_safe(&b, arena, s->overrides_path);
                mv_buf_putc(&b, '\n');
            }
        }
    }
    if (n_servers == 0)
        mv_buf_puts(&b, "  (none)\n");
    mv_buf_printf(&b, "\n%zu %s, %zu %s", n_files, n_files == 1 ? "config file" : "config files",
                  n_servers, n_servers == 1 ? "server" : "servers");
    if (bad_files > 0)
        mv_buf_printf(&b, ", %zu config %s could not be read", bad_files,
                      bad_files == 1 ? "file" : "files");
    mv_buf_putc(&b, '\n');
    int code = MV_EXIT_OK;
    if (b.failed) {
        mv_cli_error("out of memory");
        code = MV_EXIT_USAGE;
    } else if (fwrite(b.data, 1, b.len, out) != b.len || fflush(out) != 0) {
        mv_cli_error("<stdout>: write failed");
        code = MV_EXIT_USAGE;
    } else if (bad_files > 0) {
        code = MV_EXIT_DEGRADED;
    }
    mv_buf_release(&b);
    mv_arena_free(arena);
    return code;
}
