/*
 * `mcpvet scan --list`: which client configs were found, which servers they
 * declare, and how each would be started or reached — without starting or
 * contacting anything. Secrets stay out: env and header values are never
 * shown (only their names), a URL loses its user info and query, and an
 * argument that looks like a token, or follows a --token/--api-key style
 * flag, is masked.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpvet/arena.h"
#include "mcpvet/config.h"
#include "mcpvet/evidence.h"
#include "mcpvet/report.h"

#define LIST_FIELD_CAP 512u

static void put_safe(mv_buf *b, mv_arena *arena, const char *s) {
    mv_str safe = {NULL, 0};
    if (s == NULL)
        return;
    if (mv_evidence_render(arena, s, strlen(s), LIST_FIELD_CAP, &safe, NULL) == 0)
        mv_buf_append(b, safe.ptr, safe.len);
    else
        mv_buf_putc(b, '?');
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
            if (mv_config_describe(&b, s) != MV_OK)
                mv_buf_puts(&b, "?");
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
