/*
 * Helpers shared by the subcommands: diagnostics on stderr (always rendered
 * safe, since they may quote file names or keys from hostile input), strict
 * number parsing, writing a report to stdout or a file, and expanding a
 * directory argument into its *.json files in a stable order.
 */
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mcpvet/arena.h"
#include "mcpvet/evidence.h"

#define CLI_MAX_JOBS 1024u
#define CLI_MAX_DIR_DEPTH 16
#define CLI_MESSAGE_CAP 4096u

static void put_safe_line(const char *text, size_t len) {
    mv_arena *arena = mv_arena_new(NULL, 0);
    mv_str safe = {NULL, 0};
    if (arena != NULL && mv_evidence_render(arena, text, len, CLI_MESSAGE_CAP, &safe, NULL) == 0)
        fprintf(stderr, "mcpvet: %s\n", safe.ptr);
    else
        fputs("mcpvet: out of memory\n", stderr);
    mv_arena_free(arena);
}

void mv_cli_error(const char *fmt, ...) {
    mv_buf b;
    va_list ap;
    mv_buf_init(&b, NULL);
    va_start(ap, fmt);
    mv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    put_safe_line(b.data != NULL ? b.data : "", b.failed ? 0 : b.len);
    mv_buf_release(&b);
}

void mv_cli_progress(bool color, const char *tag_color, const char *tag, const char *fmt, ...) {
    mv_buf b;
    va_list ap;
    mv_buf_init(&b, NULL);
    va_start(ap, fmt);
    mv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    mv_arena *arena = mv_arena_new(NULL, 0);
    mv_str safe = {NULL, 0};
    if (arena != NULL && !b.failed &&
        mv_evidence_render(arena, b.data != NULL ? b.data : "", b.len, CLI_MESSAGE_CAP, &safe,
                           NULL) == 0) {
        if (color && tag_color != NULL)
            fprintf(stderr, "  %s%-14s\x1b[0m %s\n", tag_color, tag, safe.ptr);
        else
            fprintf(stderr, "  %-14s %s\n", tag, safe.ptr);
    }
    mv_arena_free(arena);
    mv_buf_release(&b);
}

void mv_cli_print_error(const mv_error *err, const char *path) {
    const char *source = err->source[0] != '\0' ? err->source : (path != NULL ? path : "");
    const char *message = err->message[0] != '\0' ? err->message : mv_strerror(err->code);
    mv_buf b;
    mv_buf_init(&b, NULL);
    if (source[0] != '\0')
        mv_buf_printf(&b, "%s:", source);
    if (err->line > 0) {
        mv_buf_printf(&b, "%d:", err->line);
        if (err->column > 0)
            mv_buf_printf(&b, "%d:", err->column);
    }
    if (b.len > 0)
        mv_buf_putc(&b, ' ');
    if (err->line <= 0 && err->where[0] != '\0')
        mv_buf_printf(&b, "%s: ", err->where);
    mv_buf_puts(&b, message);
    put_safe_line(b.data != NULL ? b.data : "", b.failed ? 0 : b.len);
    mv_buf_release(&b);
}

int mv_cli_parse_jobs(const char *option, const char *s, unsigned *out) {
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || end == s || *end != '\0' || errno != 0 || v < 1 ||
        v > CLI_MAX_JOBS) {
        mv_cli_error("%s: expected a whole number from 1 to %u, got \"%s\"", option, CLI_MAX_JOBS,
                     s);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

int mv_cli_parse_count(const char *option, const char *s, unsigned long long max,
                       unsigned long long *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || end == s || *end != '\0' || errno != 0 || v > max) {
        mv_cli_error("%s: expected a whole number from 0 to %llu, got \"%s\"", option, max, s);
        return -1;
    }
    *out = v;
    return 0;
}

int mv_cli_parse_rate(const char *option, const char *s, double *out) {
    char *end = NULL;
    errno = 0;
    /* The program never calls setlocale, so strtod reads '.' decimals. */
    double v = strtod(s, &end);
    bool digit = (s[0] >= '0' && s[0] <= '9') || s[0] == '.';
    if (!digit || end == s || *end != '\0' || errno != 0 || !isfinite(v) || v < 0.0 || v > 1.0) {
        mv_cli_error("%s: expected a number from 0 to 1, got \"%s\"", option, s);
        return -1;
    }
    *out = v;
    return 0;
}

int mv_cli_parse_seconds(const char *option, const char *s, double max, double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    bool digit = (s[0] >= '0' && s[0] <= '9') || s[0] == '.';
    if (!digit || end == s || *end != '\0' || errno != 0 || !isfinite(v) || v <= 0.0 ||
        v > max) {
        mv_cli_error("%s: expected a number of seconds above 0 and at most %.0f, got \"%s\"",
                     option, max, s);
        return -1;
    }
    *out = v;
    return 0;
}

unsigned mv_cli_default_jobs(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > (long)CLI_MAX_JOBS ? CLI_MAX_JOBS : (unsigned)n;
}

int mv_cli_write_output(const char *path, const mv_buf *b) {
    bool to_stdout = path == NULL || strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    int rc = -1;
    if (f == NULL) {
        mv_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
        goto done;
    }
    if (b->len > 0 && fwrite(b->data, 1, b->len, f) != b->len) {
        mv_cli_error("%s: write failed: %s", to_stdout ? "<stdout>" : path, strerror(errno));
        goto done;
    }
    if (fflush(f) != 0) {
        mv_cli_error("%s: write failed: %s", to_stdout ? "<stdout>" : path, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (f != NULL && !to_stdout && fclose(f) != 0 && rc == 0) {
        mv_cli_error("%s: write failed: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

int mv_cli_list_add(mv_cli_list *l, const char *s) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        char **items = realloc(l->items, cap * sizeof *items);
        if (items == NULL)
            return -1;
        l->items = items;
        l->cap = cap;
    }
    char *copy = strdup(s);
    if (copy == NULL)
        return -1;
    l->items[l->n++] = copy;
    return 0;
}

void mv_cli_list_free(mv_cli_list *l) {
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_json_suffix(const char *name) {
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

static int expand_dir(mv_cli_list *out, const char *dir, int depth) {
    mv_cli_list names = {0};
    DIR *d = NULL;
    char *child = NULL;
    int rc = -1;
    if (depth > CLI_MAX_DIR_DEPTH) {
        mv_cli_error("%s: directories nested deeper than %d levels", dir, CLI_MAX_DIR_DEPTH);
        goto done;
    }
    d = opendir(dir);
    if (d == NULL) {
        mv_cli_error("%s: cannot read directory: %s", dir, strerror(errno));
        goto done;
    }
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue; /* ".", ".." and hidden files */
        if (mv_cli_list_add(&names, ent->d_name) != 0) {
            mv_cli_error("out of memory");
            goto done;
        }
    }
    if (names.n > 0)
        qsort(names.items, names.n, sizeof *names.items, name_cmp);
    size_t dir_len = strlen(dir);
    bool slash = dir_len > 0 && dir[dir_len - 1] == '/';
    for (size_t i = 0; i < names.n; i++) {
        size_t len = dir_len + 1 + strlen(names.items[i]) + 1;
        child = malloc(len);
        if (child == NULL) {
            mv_cli_error("out of memory");
            goto done;
        }
        snprintf(child, len, "%s%s%s", dir, slash ? "" : "/", names.items[i]);
        struct stat st;
        if (stat(child, &st) != 0) {
            mv_cli_error("%s: %s", child, strerror(errno));
            goto done;
        }
        if (S_ISDIR(st.st_mode)) {
            if (expand_dir(out, child, depth + 1) != 0)
                goto done;
        } else if (S_ISREG(st.st_mode) && has_json_suffix(names.items[i])) {
            if (mv_cli_list_add(out, child) != 0) {
                mv_cli_error("out of memory");
                goto done;
            }
        }
        free(child);
        child = NULL;
    }
    rc = 0;
done:
    free(child);
    if (d != NULL)
        closedir(d);
    mv_cli_list_free(&names);
    return rc;
}

int mv_cli_expand_json_path(mv_cli_list *out, const char *path) {
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t before = out->n;
        if (expand_dir(out, path, 0) != 0)
            return -1;
        if (out->n == before) {
            mv_cli_error("%s: no *.json files in this directory", path);
            return -1;
        }
        return 0;
    }
    /* A missing or unreadable file is reported by the loader, with its
     * reason, like every other input error. */
    if (mv_cli_list_add(out, path) != 0) {
        mv_cli_error("out of memory");
        return -1;
    }
    return 0;
}
