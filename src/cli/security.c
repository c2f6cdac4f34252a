/*
 * `mcpvet security ...`: review and decide over the approval store
 * (include/mcpvet/store.h) -- list, approve, quarantine, diff, history,
 * forget, export, import. None of these reach a server; `security scan` is
 * `mcpvet scan` with the store (src/cli/scan.c), whose report shows each
 * tool's state.
 *
 * Everything printed that came from a tool or a server (names, reasons,
 * definitions, findings) passes through mv_evidence_render or the
 * render-safe pretty printer, so a hostile name cannot carry a terminal
 * escape or a bidi control to the screen.
 *
 * Exit codes: 0 done; 1 refused (approving a quarantined tool without
 * --force); 2 bad usage, bad input, or a store that cannot be used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "json/canonical.h"
#include "json/json.h"
#include "json/writer.h"
#include "mcpvet/evidence.h"
#include "mcpvet/report.h"
#include "mcpvet/store.h"

#define SEC_NAME_CAP 256u  /* bytes of a rendered name */
#define SEC_TEXT_CAP 2048u /* bytes of a rendered reason or display form */
#define SEC_MAX_IMPORT (256u * 1024 * 1024)
#define SEC_EXIT_REFUSED 1

void mv_cli_security_usage(FILE *f) {
    fputs("Usage:\n"
          "  mcpvet security scan [SERVER...] [scan options]   reach the configured\n"
          "                       servers (all when none is named), scan, update the\n"
          "                       store and show each tool's state (see mcpvet scan --help)\n"
          "  mcpvet security list [--state STATE] [--server NAME] [--format text|json]\n"
          "  mcpvet security approve SERVER (TOOL... | --all) [--force] [--reason TEXT]\n"
          "  mcpvet security quarantine SERVER [TOOL...] [--reason TEXT]\n"
          "  mcpvet security diff SERVER [TOOL]\n"
          "  mcpvet security history [SERVER [TOOL]] [--limit N] [--format text|json]\n"
          "  mcpvet security forget SERVER [TOOL]\n"
          "  mcpvet security export FILE        (FILE - = standard output)\n"
          "  mcpvet security import FILE        (FILE - = standard input)\n"
          "\n"
          "Every command takes --store PATH (default $XDG_STATE_HOME/mcpvet/store.db, else\n"
          "~/.local/state/mcpvet/store.db).\n"
          "States: pending (never approved), approved, changed (differs from what was\n"
          "approved), quarantined (a hard or dangerous finding, or a person's decision;\n"
          "approval needs --force), removed (no longer advertised).\n"
          "\n"
          "Exit codes: 0 done; 1 refused (a quarantined tool without --force; its\n"
          "findings are printed); 2 bad usage, bad input or an unusable store.\n",
          f);
}

/* ------------------------------------------------------------- output */

/* Render-safe copy of tool- or server-supplied text. */
static const char *safe(mv_arena *a, const char *s, size_t len, size_t cap) {
    mv_str out = {NULL, 0};
    if (s == NULL)
        return "";
    if (mv_evidence_render(a, s, len, cap, &out, NULL) != MV_OK)
        return "?";
    return out.ptr;
}

static const char *safe_c(mv_arena *a, const char *s) {
    return safe(a, s, s != NULL ? strlen(s) : 0, SEC_NAME_CAP);
}

static void fmt_time(char out[80], int64_t t) {
    time_t tt = (time_t)t;
    struct tm tm;
    if (gmtime_r(&tt, &tm) == NULL) {
        snprintf(out, 80, "%lld", (long long)t);
        return;
    }
    snprintf(out, 80, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void put_fields(mv_buf *b, unsigned bits) {
    bool first = true;
    for (int k = 0; k < MV_PIN_FIELD_COUNT; k++) {
        if (!(bits & (1u << k)))
            continue;
        mv_buf_puts(b, first ? "" : ", ");
        mv_buf_puts(b, mv_pin_field_name((mv_pin_field)k));
        first = false;
    }
}

/* A findings summary (JSON from the pipeline) pretty-printed render-safe,
 * each line indented; shown as a safe string when it is not JSON. */
static void put_findings(mv_buf *b, const char *findings, const char *indent) {
    if (findings == NULL || findings[0] == '\0') {
        mv_buf_puts(b, indent);
        mv_buf_puts(b, "(no findings recorded)\n");
        return;
    }
    mv_arena *a = mv_arena_new(NULL, 0);
    const mv_jv *doc = NULL;
    mv_jerror je;
    mv_buf p;
    mv_buf_init(&p, NULL);
    if (a != NULL && mv_json_parse(&doc, a, NULL, findings, strlen(findings), &je) == MV_OK)
        mv_json_pretty_safe(&p, doc);
    else if (a != NULL)
        mv_buf_puts(&p, safe(a, findings, strlen(findings), SEC_TEXT_CAP));
    const char *s = p.data != NULL ? p.data : "";
    while (*s != '\0') {
        const char *nl = strchr(s, '\n');
        size_t n = nl != NULL ? (size_t)(nl - s) : strlen(s);
        mv_buf_puts(b, indent);
        mv_buf_append(b, s, n);
        mv_buf_putc(b, '\n');
        s += n + (nl != NULL);
    }
    mv_buf_release(&p);
    mv_arena_free(a);
}

static int flush(mv_buf *b) {
    if (b->failed) {
        mv_cli_error("out of memory");
        return MV_EXIT_USAGE;
    }
    return mv_cli_write_output(NULL, b) == 0 ? MV_EXIT_OK : MV_EXIT_USAGE;
}

/* ------------------------------------------------------------ options */

typedef struct sec_opts {
    const char *store;
    const char *state;
    const char *server;
    const char *format;
    const char *reason;
    const char *limit;
    bool all, force, help;
    const char *pos[64]; /* positional arguments after the command */
    size_t n_pos;
} sec_opts;

/* Options may come anywhere after the command. Returns 0 or -1 (printed). */
static int parse_opts(int argc, char **argv, sec_opts *o) {
    memset(o, 0, sizeof(*o));
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (strcmp(a, "--store") == 0)
            slot = &o->store;
        else if (strcmp(a, "--state") == 0)
            slot = &o->state;
        else if (strcmp(a, "--server") == 0)
            slot = &o->server;
        else if (strcmp(a, "--format") == 0)
            slot = &o->format;
        else if (strcmp(a, "--reason") == 0)
            slot = &o->reason;
        else if (strcmp(a, "--limit") == 0)
            slot = &o->limit;
        else if (strcmp(a, "--all") == 0)
            o->all = true;
        else if (strcmp(a, "--force") == 0)
            o->force = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            o->help = true;
        else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                if (o->n_pos == 64) {
                    mv_cli_error("security: too many arguments");
                    return -1;
                }
                o->pos[o->n_pos++] = argv[i];
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            mv_cli_error("security %s: unknown option \"%s\"", argv[1], a);
            return -1;
        } else {
            if (o->n_pos == 64) {
                mv_cli_error("security: too many arguments");
                return -1;
            }
            o->pos[o->n_pos++] = a;
        }
        if (slot != NULL) {
            if (i + 1 >= argc) {
                mv_cli_error("security %s: %s needs a value", argv[1], a);
                return -1;
            }
            *slot = argv[++i];
        }
    }
    if (o->format != NULL && strcmp(o->format, "text") != 0 && strcmp(o->format, "json") != 0) {
        mv_cli_error("--format: expected text or json, got \"%s\"", o->format);
        return -1;
    }
    return 0;
}

/* Open the store; `create` for commands that write a new one. A missing
 * store is reported by *missing (not printed) when `missing` is given. */
static int open_store(mv_store **st, const sec_opts *o, bool create, bool *missing) {
    mv_error err;
    mv_store_options so = {.create = create};
    mv_error_clear(&err);
    int rc = mv_store_open(st, o->store, &so, &err);
    if (rc == MV_ENOTFOUND && missing != NULL) {
        *missing = true;
        return 0;
    }
    if (rc != MV_OK) {
        mv_cli_print_error(&err, o->store);
        return -1;
    }
    return 0;
}

static int store_error(const mv_error *err) {
    mv_cli_print_error(err, NULL);
    return MV_EXIT_USAGE;
}

/* --------------------------------------------------------------- list */

static void list_note(mv_buf *b, mv_arena *a, const mv_store_tool *t) {
    bool any = false;
#define NOTE(...)                                                                                  \
    do {                                                                                           \
        mv_buf_puts(b, any ? "; " : "  ");                                                         \
        mv_buf_printf(b, __VA_ARGS__);                                                             \
        any = true;                                                                                \
    } while (0)
    if (t->state == MV_STATE_CHANGED && t->changed_fields != 0) {
        NOTE("%s", "changed: ");
        put_fields(b, t->changed_fields);
    }
    if (t->identity_changed)
        NOTE("%s", "approved under another server identity");
    if (t->renamed_from != NULL)
        NOTE("renamed from %s", safe_c(a, t->renamed_from));
    if (t->state == MV_STATE_REMOVED)
        NOTE("was %s", mv_tool_state_name(t->previous));
    if (t->forced && t->state == MV_STATE_APPROVED)
        NOTE("%s", "approved with --force");
    if (t->manual_quarantine && t->state == MV_STATE_QUARANTINED)
        NOTE("%s", "quarantined by a person");
#undef NOTE
}

static int cmd_list(const sec_opts *o) {
    mv_store *st = NULL;
    bool missing = false;
    mv_error err;
    mv_store_tool_list *l = NULL;
    mv_store_server_list *sl = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf b;
    int code = MV_EXIT_OK;
    bool json = o->format != NULL && strcmp(o->format, "json") == 0;
    mv_buf_init(&b, NULL);
    mv_store_filter f = {.server = o->server};
    if (o->n_pos > 0) {
        mv_cli_error("security list: unexpected argument \"%s\"", o->pos[0]);
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (o->state != NULL && (f.state = mv_tool_state_parse(o->state)) == MV_STATE_NONE) {
        mv_cli_error("--state: expected pending, approved, changed, quarantined or removed, "
                     "got \"%s\"",
                     o->state);
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (a == NULL || open_store(&st, o, false, &missing) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (!missing &&
        (mv_store_list(st, &f, &l, &err) != MV_OK || mv_store_servers(st, &sl, &err) != MV_OK)) {
        code = store_error(&err);
        goto done;
    }
    if (json) {
        mv_jw w;
        mv_jw_init(&w, &b);
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "store", missing ? NULL : mv_store_path(st));
        mv_jw_arr_begin(&w, "servers");
        for (size_t i = 0; sl != NULL && i < sl->n; i++) {
            const mv_store_server *s = &sl->servers[i];
            if (o->server != NULL && strcmp(o->server, s->name) != 0)
                continue;
            mv_jw_obj_begin(&w, NULL);
            mv_jw_cstr(&w, "name", safe_c(a, s->name));
            mv_jw_cstr(&w, "transport", safe_c(a, s->transport));
            mv_jw_cstr(&w, "reached", safe(a, s->reached, strlen(s->reached), SEC_TEXT_CAP));
            mv_jw_cstr(&w, "identity", s->identity);
            mv_jw_bool(&w, "identity_changed", s->identity_changed);
            mv_jw_uint(&w, "tools", s->n_tools);
            mv_jw_obj_end(&w);
        }
        mv_jw_arr_end(&w);
        mv_jw_arr_begin(&w, "tools");
        for (size_t i = 0; l != NULL && i < l->n; i++) {
            const mv_store_tool *t = &l->tools[i];
            mv_jw_obj_begin(&w, NULL);
            mv_jw_cstr(&w, "server", safe_c(a, t->server));
            mv_jw_cstr(&w, "kind", mv_item_kind_name(t->kind));
            mv_jw_cstr(&w, "name", safe_c(a, t->name));
            mv_jw_cstr(&w, "state", mv_tool_state_name(t->state));
            if (t->state == MV_STATE_REMOVED)
                mv_jw_cstr(&w, "previous_state", mv_tool_state_name(t->previous));
            mv_jw_cstr(&w, "verdict", t->verdict);
            mv_jw_cstr(&w, "approved_pin", t->approved_pin);
            mv_jw_cstr(&w, "current_pin", t->current_pin);
            mv_jw_arr_begin(&w, "changed_fields");
            for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
                if (t->changed_fields & (1u << k))
                    mv_jw_cstr(&w, NULL, mv_pin_field_name((mv_pin_field)k));
            mv_jw_arr_end(&w);
            mv_jw_cstr(&w, "renamed_from",
                       t->renamed_from != NULL ? safe_c(a, t->renamed_from) : NULL);
            mv_jw_bool(&w, "forced", t->forced);
            mv_jw_bool(&w, "manual_quarantine", t->manual_quarantine);
            mv_jw_bool(&w, "identity_changed", t->identity_changed);
            mv_jw_int(&w, "first_seen", t->first_seen);
            mv_jw_int(&w, "last_seen", t->last_seen);
            mv_jw_int(&w, "state_since", t->state_since);
            mv_jw_obj_end(&w);
        }
        mv_jw_arr_end(&w);
        mv_jw_obj_end(&w);
        mv_jw_finish(&w);
    } else if (missing || l->n == 0) {
        mv_buf_puts(&b, missing ? "no store yet (nothing approved)\n" : "no tools\n");
    } else {
        for (size_t i = 0; sl != NULL && i < sl->n; i++) {
            const mv_store_server *s = &sl->servers[i];
            if (!s->identity_changed || (o->server != NULL && strcmp(o->server, s->name) != 0))
                continue;
            mv_buf_printf(&b, "server %s: identity changed: now %s", safe_c(a, s->name),
                          safe(a, s->reached, strlen(s->reached), SEC_TEXT_CAP));
            if (s->previous_reached != NULL)
                mv_buf_printf(
                    &b, ", was %s",
                    safe(a, s->previous_reached, strlen(s->previous_reached), SEC_TEXT_CAP));
            mv_buf_puts(&b, "\n");
        }
        for (size_t i = 0; i < l->n; i++) {
            const mv_store_tool *t = &l->tools[i];
            mv_buf_printf(&b, "%-12s %-10s %s/%s", mv_tool_state_name(t->state),
                          t->verdict != NULL ? t->verdict : "-", safe_c(a, t->server),
                          safe_c(a, t->name));
            if (t->kind != MV_ITEM_TOOL)
                mv_buf_printf(&b, " (%s)", mv_item_kind_name(t->kind));
            list_note(&b, a, t);
            mv_buf_putc(&b, '\n');
        }
    }
    code = flush(&b);
done:
    mv_store_tool_list_free(l);
    mv_store_server_list_free(sl);
    mv_store_close(st);
    mv_arena_free(a);
    mv_buf_release(&b);
    return code;
}

/* ------------------------------------------------- approve, quarantine */

static void print_quarantined(mv_buf *b, mv_arena *a, const mv_store_tool_list *q,
                              const char *intro) {
    for (size_t i = 0; q != NULL && i < q->n; i++) {
        const mv_store_tool *t = &q->tools[i];
        mv_buf_printf(b, "%s %s/%s (%s)\n", intro, safe_c(a, t->server), safe_c(a, t->name),
                      t->manual_quarantine ? "quarantined by a person"
                                           : "a hard or dangerous finding");
        mv_buf_puts(b, "  findings:\n");
        put_findings(b, t->findings, "    ");
    }
}

static int cmd_approve(const sec_opts *o) {
    mv_store *st = NULL;
    mv_error err;
    mv_store_approve_result res;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf b;
    int code = MV_EXIT_OK;
    memset(&res, 0, sizeof(res));
    mv_buf_init(&b, NULL);
    if (o->n_pos < 1 || (o->n_pos == 1 && !o->all) || (o->n_pos > 1 && o->all)) {
        mv_cli_error("security approve: name the server and either its tools or --all");
        mv_cli_security_usage(stderr);
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (a == NULL || open_store(&st, o, false, NULL) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_error_clear(&err);
    int rc = mv_store_approve(st, o->pos[0], o->pos + 1, o->n_pos - 1, o->force, MV_ACTOR_CLI,
                              o->reason, &res, &err);
    if (rc == MV_EQUARANTINED) {
        print_quarantined(&b, a, res.quarantined, "refused:");
        flush(&b);
        mv_cli_error("%s; review the findings above, then approve with --force", err.message);
        code = SEC_EXIT_REFUSED;
        goto done;
    }
    if (rc != MV_OK) {
        code = store_error(&err);
        goto done;
    }
    print_quarantined(&b, a, res.quarantined, "approved with --force despite a quarantine:");
    mv_buf_printf(&b, "approved %zu tool%s of %s", res.n_approved, res.n_approved == 1 ? "" : "s",
                  safe_c(a, o->pos[0]));
    if (res.n_unchanged > 0)
        mv_buf_printf(&b, " (%zu already approved)", res.n_unchanged);
    mv_buf_putc(&b, '\n');
    code = flush(&b);
done:
    mv_store_approve_result_release(&res);
    mv_store_close(st);
    mv_arena_free(a);
    mv_buf_release(&b);
    return code;
}

static int cmd_quarantine(const sec_opts *o) {
    mv_store *st = NULL;
    mv_error err;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf b;
    size_t n = 0;
    int code = MV_EXIT_OK;
    mv_buf_init(&b, NULL);
    if (o->n_pos < 1 || o->all) {
        mv_cli_error("security quarantine: name the server (and optionally its tools)");
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (a == NULL || open_store(&st, o, false, NULL) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_error_clear(&err);
    if (mv_store_quarantine(st, o->pos[0], o->pos + 1, o->n_pos - 1, MV_ACTOR_CLI, o->reason, &n,
                            &err) != MV_OK) {
        code = store_error(&err);
        goto done;
    }
    mv_buf_printf(&b, "quarantined %zu tool%s of %s\n", n, n == 1 ? "" : "s", safe_c(a, o->pos[0]));
    code = flush(&b);
done:
    mv_store_close(st);
    mv_arena_free(a);
    mv_buf_release(&b);
    return code;
}

/* --------------------------------------------------------------- diff */

/* Code points of rendered text: the columns a caret line must skip. */
static size_t columns(const char *s) {
    size_t n = 0;
    for (; *s != '\0'; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* One side of a string's character diff: the text ('=' pieces and those
 * of `side`), each piece rendered safe, then a line of carets under the
 * changed pieces. Carets sit on a line of their own, where tool text can
 * never be, so a description cannot fake them. */
static void put_side(mv_buf *b, mv_arena *a, const mv_text_diff *d, char side) {
    bool any = false;
    mv_buf carets;
    mv_buf_init(&carets, NULL);
    mv_buf_printf(b, "    %c ", side);
    mv_buf_puts(&carets, "      ");
    for (size_t i = 0; i < d->n; i++) {
        const mv_diff_span *sp = &d->spans[i];
        if (sp->op != '=' && sp->op != side)
            continue;
        const char *r = safe(a, sp->text.ptr, sp->text.len, 4 * sp->text.len + 16);
        mv_buf_puts(b, r);
        for (size_t k = columns(r); k > 0; k--)
            mv_buf_putc(&carets, sp->op == '=' ? ' ' : '^');
        any = any || sp->op != '=';
    }
    mv_buf_putc(b, '\n');
    if (any) {
        while (carets.len > 0 && carets.data[carets.len - 1] == ' ')
            carets.len--;
        mv_buf_append(b, carets.data, carets.len);
        mv_buf_putc(b, '\n');
    }
    mv_buf_release(&carets);
}

/* The character diff of every string that differs between two definitions
 * (issue 16: the same diff the REST API and the review page show). */
static int put_string_diffs(mv_buf *b, mv_arena *a, const char *base, const char *cur) {
    mv_definition_diff *d = NULL;
    int rc = mv_diff_definition_strings(&d, base, base != NULL ? strlen(base) : 0, cur,
                                        cur != NULL ? strlen(cur) : 0, NULL);
    if (rc == MV_EPARSE)
        return MV_OK; /* the line diff already shows it */
    if (rc != MV_OK)
        return rc;
    if (d->n > 0)
        mv_buf_puts(b, "character changes:\n");
    for (size_t i = 0; i < d->n; i++) {
        const mv_diff_string *ds = &d->strings[i];
        mv_buf_printf(b, "  %s (%s", safe(a, ds->path.ptr, ds->path.len, 4 * ds->path.len + 16),
                      ds->change == '~'   ? "changed"
                      : ds->change == '+' ? "added"
                                          : "removed");
        if (ds->diff.mode != MV_DIFF_CHAR)
            mv_buf_printf(b, "; too different for a character diff: by %s",
                          mv_diff_mode_name(ds->diff.mode));
        mv_buf_puts(b, "):\n");
        if (ds->change != '+')
            put_side(b, a, &ds->diff, '-');
        if (ds->change != '-')
            put_side(b, a, &ds->diff, '+');
    }
    if (d->truncated)
        mv_buf_puts(b, "  (more strings differ than are shown)\n");
    mv_definition_diff_free(d);
    return b->failed ? MV_ENOMEM : MV_OK;
}

static int cmd_diff(const sec_opts *o) {
    mv_store *st = NULL;
    mv_error err;
    mv_store_tool_list *l = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf b;
    int code = MV_EXIT_OK;
    mv_buf_init(&b, NULL);
    if (o->n_pos < 1 || o->n_pos > 2) {
        mv_cli_error("security diff: expected SERVER [TOOL]");
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (a == NULL || open_store(&st, o, false, NULL) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_store_filter f = {
        .server = o->pos[0], .tool = o->n_pos > 1 ? o->pos[1] : NULL, .definitions = true};
    mv_error_clear(&err);
    if (mv_store_list(st, &f, &l, &err) != MV_OK) {
        code = store_error(&err);
        goto done;
    }
    if (l->n == 0) {
        mv_cli_error("security diff: no %s \"%s\" in the store", o->n_pos > 1 ? "tool" : "server",
                     o->n_pos > 1 ? o->pos[1] : o->pos[0]);
        code = MV_EXIT_USAGE;
        goto done;
    }
    size_t shown = 0;
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_tool *t = &l->tools[i];
        bool differs = t->approved_pin == NULL || strcmp(t->approved_pin, t->current_pin) != 0;
        if (!differs && !t->identity_changed && o->n_pos < 2)
            continue;
        const char *who = safe_c(a, t->name);
        const char *srv = safe_c(a, t->server);
        mv_store_rename ren;
        if (differs && mv_store_find_rename(st, t, &ren, &err) != MV_OK) {
            code = store_error(&err);
            goto done;
        }
        const mv_store_tool *from = differs && ren.from != NULL ? &ren.from->tools[0] : NULL;
        const char *base = t->approved_definition;
        if (from != NULL)
            base = from->approved_definition != NULL ? from->approved_definition
                                                     : from->current_definition;
        mv_buf_printf(&b, "%s/%s: %s", srv, who, mv_tool_state_name(t->state));
        if (from != NULL)
            mv_buf_printf(&b,
                          ", never approved: renamed from %s (%s%s; %u.%u%% alike without the "
                          "name), diffed against it",
                          safe_c(a, from->name), ren.exact ? "the same body" : "near-identical",
                          from->approved_pin != NULL ? ", which was approved" : "",
                          ren.permille / 10, ren.permille % 10);
        else if (t->approved_pin == NULL)
            mv_buf_puts(&b, ", never approved: the whole definition is new");
        else if (differs) {
            mv_buf_puts(&b, ", changed since approval: ");
            put_fields(&b, t->changed_fields);
        } else
            mv_buf_puts(&b, ", definition as approved");
        if (t->identity_changed)
            mv_buf_puts(&b, "; the server identity changed since approval");
        mv_buf_putc(&b, '\n');
        if (differs) {
            char la[SEC_NAME_CAP * 2 + 64], lb[SEC_NAME_CAP * 2 + 64];
            if (from != NULL)
                snprintf(la, sizeof(la), "%s %s/%s (renamed)",
                         from->approved_pin != NULL ? "approved" : "removed", srv,
                         safe_c(a, from->name));
            else
                snprintf(la, sizeof(la), "approved %s/%s%s%.12s", srv, who,
                         t->approved_pin != NULL ? " " : "",
                         t->approved_pin != NULL ? t->approved_pin : "");
            snprintf(lb, sizeof(lb), "current %s/%s %.12s", srv, who, t->current_pin);
            int rc = mv_diff_definitions(&b, base, base != NULL ? strlen(base) : 0,
                                         t->current_definition, strlen(t->current_definition), la,
                                         lb, NULL);
            if (rc == MV_OK && base != NULL)
                rc = put_string_diffs(&b, a, base, t->current_definition);
            mv_store_rename_release(&ren);
            if (rc != MV_OK) {
                mv_cli_error("security diff: %s", mv_strerror(rc));
                code = MV_EXIT_USAGE;
                goto done;
            }
        }
        shown++;
    }
    if (shown == 0)
        mv_buf_printf(&b, "%s: every tool is as approved\n", safe_c(a, o->pos[0]));
    code = flush(&b);
done:
    mv_store_tool_list_free(l);
    mv_store_close(st);
    mv_arena_free(a);
    mv_buf_release(&b);
    return code;
}

/* ------------------------------------------------------------ history */

static int cmd_history(const sec_opts *o) {
    mv_store *st = NULL;
    bool missing = false;
    mv_error err;
    mv_store_event_list *l = NULL;
    mv_arena *a = mv_arena_new(NULL, 0);
    mv_buf b;
    int code = MV_EXIT_OK;
    unsigned long long limit = 0;
    bool json = o->format != NULL && strcmp(o->format, "json") == 0;
    mv_buf_init(&b, NULL);
    if (o->n_pos > 2) {
        mv_cli_error("security history: expected [SERVER [TOOL]]");
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (o->limit != NULL && mv_cli_parse_count("--limit", o->limit, 1000000000ull, &limit) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (a == NULL || open_store(&st, o, false, &missing) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_error_clear(&err);
    if (!missing &&
        mv_store_history(st, o->n_pos > 0 ? o->pos[0] : NULL, o->n_pos > 1 ? o->pos[1] : NULL,
                         (size_t)limit, &l, &err) != MV_OK) {
        code = store_error(&err);
        goto done;
    }
    if (json) {
        mv_jw w;
        mv_jw_init(&w, &b);
        mv_jw_arr_begin(&w, NULL);
        for (size_t i = 0; l != NULL && i < l->n; i++) {
            const mv_store_event *e = &l->events[i];
            char ts[80];
            fmt_time(ts, e->time);
            mv_jw_obj_begin(&w, NULL);
            mv_jw_int(&w, "id", e->id);
            mv_jw_cstr(&w, "time", ts);
            mv_jw_cstr(&w, "actor", e->actor);
            mv_jw_cstr(&w, "server", safe_c(a, e->server));
            mv_jw_cstr(&w, "kind", e->kind);
            mv_jw_cstr(&w, "tool", e->tool != NULL ? safe_c(a, e->tool) : NULL);
            mv_jw_cstr(&w, "old_state", e->old_state);
            mv_jw_cstr(&w, "new_state", e->new_state);
            mv_jw_cstr(&w, "old_pin", e->old_pin);
            mv_jw_cstr(&w, "new_pin", e->new_pin);
            mv_jw_cstr(&w, "reason",
                       e->reason != NULL ? safe(a, e->reason, strlen(e->reason), SEC_TEXT_CAP)
                                         : NULL);
            mv_jw_obj_end(&w);
        }
        mv_jw_arr_end(&w);
        mv_jw_finish(&w);
    } else if (l == NULL || l->n == 0) {
        mv_buf_puts(&b, "no events\n");
    } else {
        for (size_t i = 0; i < l->n; i++) {
            const mv_store_event *e = &l->events[i];
            char ts[80];
            fmt_time(ts, e->time);
            mv_buf_printf(&b, "%s %-5s %s", ts, e->actor, safe_c(a, e->server));
            if (e->tool != NULL)
                mv_buf_printf(&b, "/%s", safe_c(a, e->tool));
            if (e->old_state != NULL || e->new_state != NULL)
                mv_buf_printf(&b, " %s -> %s", e->old_state != NULL ? e->old_state : "none",
                              e->new_state != NULL ? e->new_state : "none");
            if (e->old_pin != NULL && e->new_pin != NULL && strcmp(e->old_pin, e->new_pin) != 0)
                mv_buf_printf(&b, " (pin %.12s -> %.12s)", e->old_pin, e->new_pin);
            else if (e->new_pin != NULL)
                mv_buf_printf(&b, " (pin %.12s)", e->new_pin);
            if (e->reason != NULL)
                mv_buf_printf(&b, ": %s", safe(a, e->reason, strlen(e->reason), SEC_TEXT_CAP));
            mv_buf_putc(&b, '\n');
        }
    }
    code = flush(&b);
done:
    mv_store_event_list_free(l);
    mv_store_close(st);
    mv_arena_free(a);
    mv_buf_release(&b);
    return code;
}

/* ------------------------------------------------------------- forget */

static int cmd_forget(const sec_opts *o) {
    mv_store *st = NULL;
    mv_error err;
    mv_arena *a = mv_arena_new(NULL, 0);
    int code = MV_EXIT_OK;
    if (o->n_pos < 1 || o->n_pos > 2) {
        mv_cli_error("security forget: expected SERVER [TOOL]");
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (a == NULL || open_store(&st, o, false, NULL) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_error_clear(&err);
    if (mv_store_forget(st, o->pos[0], o->n_pos > 1 ? o->pos[1] : NULL, MV_ACTOR_CLI, o->reason,
                        &err) != MV_OK) {
        code = store_error(&err);
        goto done;
    }
    if (o->n_pos > 1)
        printf("forgot %s/%s\n", safe_c(a, o->pos[0]), safe_c(a, o->pos[1]));
    else
        printf("forgot server %s and its tools\n", safe_c(a, o->pos[0]));
done:
    mv_store_close(st);
    mv_arena_free(a);
    return code;
}

/* ------------------------------------------------------ export, import */

static int cmd_export(const sec_opts *o) {
    mv_store *st = NULL;
    mv_error err;
    mv_buf b;
    int code = MV_EXIT_OK;
    mv_buf_init(&b, NULL);
    if (o->n_pos != 1) {
        mv_cli_error("security export: expected FILE (- for standard output)");
        code = MV_EXIT_USAGE;
        goto done;
    }
    if (open_store(&st, o, false, NULL) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_error_clear(&err);
    if (mv_store_export(st, &b, &err) != MV_OK) {
        code = store_error(&err);
        goto done;
    }
    code = mv_cli_write_output(o->pos[0], &b) == 0 ? MV_EXIT_OK : MV_EXIT_USAGE;
done:
    mv_store_close(st);
    mv_buf_release(&b);
    return code;
}

/* What a file that is not a regular file is, for the refusal. */
static const char *file_kind(mode_t m) {
    return S_ISDIR(m)                 ? "a directory"
           : S_ISFIFO(m)              ? "a FIFO"
           : S_ISSOCK(m)              ? "a socket"
           : S_ISCHR(m) || S_ISBLK(m) ? "a device"
                                      : "a special file";
}

static int read_input(const char *path, mv_buf *out) {
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = stdin;
    int rc = 0;
    if (!is_stdin) {
        /* Without O_NONBLOCK, opening a FIFO nobody writes to waits
         * forever; a device (/dev/zero) never ends. Only regular files are
         * read, and one over the cap is refused before reading. */
        struct stat st;
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            mv_cli_error("%s: cannot open: %s", path, strerror(errno));
            return -1;
        }
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            mv_cli_error("%s: cannot read: it is %s, not a regular file (use - for standard "
                         "input)",
                         path, file_kind(st.st_mode));
            close(fd);
            return -1;
        }
        if ((uint64_t)st.st_size > SEC_MAX_IMPORT) {
            mv_cli_error("%s: larger than %u bytes", path, SEC_MAX_IMPORT);
            close(fd);
            return -1;
        }
        /* One allocation of the file's size instead of doubling to it. */
        (void)mv_buf_reserve(out, (size_t)st.st_size);
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        f = fdopen(fd, "rb");
        if (f == NULL) {
            mv_cli_error("%s: cannot open: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
    }
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (out->len + got > SEC_MAX_IMPORT) {
            mv_cli_error("%s: larger than %u bytes", path, SEC_MAX_IMPORT);
            rc = -1;
            break;
        }
        mv_buf_append(out, chunk, got);
    }
    if (rc == 0 && ferror(f)) {
        mv_cli_error("%s: cannot read: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && out->failed) {
        mv_cli_error("%s: out of memory", path);
        rc = -1;
    }
    if (!is_stdin)
        fclose(f);
    return rc;
}

static int cmd_import(const sec_opts *o) {
    mv_store *st = NULL;
    mv_error err;
    mv_buf in;
    size_t n = 0;
    int code = MV_EXIT_OK;
    mv_buf_init(&in, NULL);
    if (o->n_pos != 1) {
        mv_cli_error("security import: expected FILE (- for standard input)");
        code = MV_EXIT_USAGE;
        goto done;
    }
    const char *name = strcmp(o->pos[0], "-") == 0 ? "<stdin>" : o->pos[0];
    if (read_input(o->pos[0], &in) != 0 || open_store(&st, o, true, NULL) != 0) {
        code = MV_EXIT_USAGE;
        goto done;
    }
    mv_error_clear(&err);
    if (mv_store_import(st, in.data != NULL ? in.data : "", in.len, name, MV_ACTOR_CLI, &n, &err) !=
        MV_OK) {
        code = store_error(&err);
        goto done;
    }
    printf("imported %zu approval%s\n", n, n == 1 ? "" : "s");
done:
    mv_store_close(st);
    mv_buf_release(&in);
    return code;
}

/* ------------------------------------------------------------ dispatch */

int mv_cli_security(int argc, char **argv) {
    sec_opts o;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        mv_cli_security_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? MV_EXIT_USAGE : MV_EXIT_OK;
    }
    /* security scan takes scan's options (it is scan with a store). */
    if (strcmp(argv[1], "scan") == 0)
        return mv_cli_security_scan(argc - 1, argv + 1);
    if (parse_opts(argc, argv, &o) != 0)
        return MV_EXIT_USAGE;
    if (o.help) {
        mv_cli_security_usage(stdout);
        return MV_EXIT_OK;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "list") == 0)
        return cmd_list(&o);
    if (strcmp(cmd, "approve") == 0)
        return cmd_approve(&o);
    if (strcmp(cmd, "quarantine") == 0)
        return cmd_quarantine(&o);
    if (strcmp(cmd, "diff") == 0)
        return cmd_diff(&o);
    if (strcmp(cmd, "history") == 0)
        return cmd_history(&o);
    if (strcmp(cmd, "forget") == 0)
        return cmd_forget(&o);
    if (strcmp(cmd, "export") == 0)
        return cmd_export(&o);
    if (strcmp(cmd, "import") == 0)
        return cmd_import(&o);
    mv_cli_error("security: unknown command \"%s\"", cmd);
    mv_cli_security_usage(stderr);
    return MV_EXIT_USAGE;
}
