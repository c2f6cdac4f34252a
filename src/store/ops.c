/*
 * A person's decisions (approve, quarantine, forget), each one transaction
 * with its audit events, and the read side: tools with their pins and
 * definitions, servers, and the audit log. Approval is all or nothing: a
 * quarantined target without force refuses the whole request, so a typo in
 * a list of names can never half-approve it.
 */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MV_STRINGIFY_(x) #x
#define MV_STRINGIFY(x) MV_STRINGIFY_(x)

/* ---------------------------------------------------------------- list */

/* The columns every tool query selects, in the order read_rows reads. */
#define TOOL_COLUMNS                                                                               \
    "SELECT s.name, t.kind, t.name, t.state, t.previous_state, t.approved_pin, t.current_pin,"     \
    " t.approved_definition, t.current_definition, t.verdict, t.findings, t.renamed_from,"         \
    " t.forced, t.manual_quarantine,"                                                              \
    " t.approved_identity IS NOT NULL AND t.approved_identity <> s.identity,"                      \
    " t.first_seen, t.last_seen, t.state_since, t.hash_name, t.hash_title,"                        \
    " t.hash_description, t.hash_input_schema, t.hash_output_schema, t.hash_annotations,"          \
    " t.id, s.id FROM tools t JOIN servers s ON s.id = t.server_id"

static int read_rows(mv_store *st, sqlite3_stmt *s, bool defs, mv_store_tool_list *l,
                     mv_error *err);

static int list_query(mv_store *st, const mv_store_filter *f, mv_store_tool_list *l,
                      mv_error *err) {
    int rc = MV_OK;
    sqlite3_stmt *s =
        st_prepare(st,
                   TOOL_COLUMNS " WHERE (?1 IS NULL OR s.name = ?1) AND (?2 IS NULL OR t.name = ?2)"
                                " AND (?3 IS NULL OR t.state = ?3)"
                                " ORDER BY s.name, t.kind, t.name",
                   &rc, err);
    if (s == NULL)
        return rc;
    st_bind_text(s, 1, f != NULL ? f->server : NULL);
    st_bind_text(s, 2, f != NULL ? f->tool : NULL);
    st_bind_text(s, 3,
                 f != NULL && f->state != MV_STATE_NONE ? mv_tool_state_name(f->state) : NULL);
    rc = read_rows(st, s, f != NULL && f->definitions, l, err);
    sqlite3_finalize(s);
    return rc;
}

/* Read every row of a prepared TOOL_COLUMNS statement into l. */
static int read_rows(mv_store *st, sqlite3_stmt *s, bool defs, mv_store_tool_list *l,
                     mv_error *err) {
    int rc = MV_OK, r;
    bool oom = false;
    size_t cap = 0;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        if (l->n == cap) {
            size_t ncap = cap == 0 ? 16 : 2 * cap;
            mv_store_tool *g =
                mv_arena_grow(l->arena, l->tools, cap * sizeof(*g), ncap * sizeof(*g));
            if (g == NULL) {
                oom = true;
                break;
            }
            l->tools = g;
            cap = ncap;
        }
        mv_store_tool *t = &l->tools[l->n++];
        memset(t, 0, sizeof(*t));
        t->server = st_col_dup(l->arena, s, 0, &oom);
        int kind = st_kind_parse((const char *)sqlite3_column_text(s, 1));
        t->kind = kind < 0 ? MV_ITEM_TOOL : (mv_item_kind)kind;
        t->name = st_col_dup(l->arena, s, 2, &oom);
        t->state = mv_tool_state_parse((const char *)sqlite3_column_text(s, 3));
        t->previous = mv_tool_state_parse((const char *)sqlite3_column_text(s, 4));
        t->approved_pin = st_col_dup(l->arena, s, 5, &oom);
        t->current_pin = st_col_dup(l->arena, s, 6, &oom);
        if (defs) {
            t->approved_definition = st_col_dup(l->arena, s, 7, &oom);
            t->current_definition = st_col_dup(l->arena, s, 8, &oom);
        }
        t->verdict = st_col_dup(l->arena, s, 9, &oom);
        t->findings = st_col_dup(l->arena, s, 10, &oom);
        t->renamed_from = st_col_dup(l->arena, s, 11, &oom);
        t->forced = sqlite3_column_int(s, 12) != 0;
        t->manual_quarantine = sqlite3_column_int(s, 13) != 0;
        t->identity_changed = sqlite3_column_int(s, 14) != 0;
        t->first_seen = sqlite3_column_int64(s, 15);
        t->last_seen = sqlite3_column_int64(s, 16);
        t->state_since = sqlite3_column_int64(s, 17);
        t->id = sqlite3_column_int64(s, 24);
        t->server_id = sqlite3_column_int64(s, 25);
        if (oom)
            break;
        if (t->approved_pin != NULL && t->current_pin != NULL &&
            strcmp(t->approved_pin, t->current_pin) != 0 && sqlite3_column_text(s, 7) != NULL) {
            mv_tool_pin old, cur;
            memset(&cur, 0, sizeof(cur));
            for (int k = 0; k < MV_PIN_FIELD_COUNT; k++) {
                const unsigned char *h = sqlite3_column_text(s, 18 + k);
                if (h != NULL)
                    snprintf(cur.fields[k], MV_PIN_HEX, "%s", (const char *)h);
            }
            mv_error e;
            int prc = mv_pin_tool(&old, (const char *)sqlite3_column_text(s, 7),
                                  (size_t)sqlite3_column_bytes(s, 7), st->alloc, &e);
            if (prc == MV_ENOMEM) {
                oom = true;
                break;
            }
            t->changed_fields = prc == MV_OK ? mv_pin_changed_fields(&old, &cur) : 0;
            if (t->changed_fields == 0)
                t->changed_fields = (1u << MV_PIN_FIELD_COUNT) - 1;
        }
    }
    if (oom)
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory listing tools", st->path);
    else if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot list tools");
    return rc;
}

int mv_store_list(mv_store *st, const mv_store_filter *filter, mv_store_tool_list **out,
                  mv_error *err) {
    int rc;
    if (out == NULL || st == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_list needs a store and an output");
    *out = NULL;
    mv_arena *arena = mv_arena_new(st->alloc, 0);
    mv_store_tool_list *l = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*l)) : NULL;
    if (l == NULL) {
        mv_arena_free(arena);
        return mv_error_set(err, MV_ENOMEM, "%s: out of memory listing tools", st->path);
    }
    l->arena = arena;
    rc = list_query(st, filter, l, err);
    if (rc != MV_OK)
        mv_arena_free(arena);
    else
        *out = l;
    return rc;
}

void mv_store_tool_list_free(mv_store_tool_list *l) {
    if (l != NULL)
        mv_arena_free(l->arena);
}

/* ---------------------------------------------------- paged queries */

/* Rename candidates looked at per tool, most recently removed first. */
#define RENAME_CANDIDATES 32

/* The filter of mv_store_query_tools as SQL: ?1 server, ?2..?6 the states
 * (unused ones NULL; an IN list, so the tools_queue index serves it), ?7
 * verdict ("none" = never scanned), ?8 lowercased text, ?9 tool id, ?10
 * server id. */
#define QUERY_FROM_WHERE                                                                           \
    " FROM tools t JOIN servers s ON s.id = t.server_id"                                           \
    " WHERE t.state IN (?2, ?3, ?4, ?5, ?6) AND (?1 IS NULL OR s.name = ?1)"                       \
    " AND (?9 = 0 OR t.id = ?9) AND (?10 = 0 OR s.id = ?10)"                                       \
    " AND (?7 IS NULL OR coalesce(t.verdict, 'none') = ?7)"                                        \
    " AND (?8 IS NULL OR instr(lower(t.name), ?8) > 0 OR instr(lower(s.name), ?8) > 0)"
#define QUERY_ORDER " ORDER BY t.state_since DESC, s.name, t.kind, t.name"

static int bind_query(sqlite3_stmt *s, const mv_store_query *q, char *text) {
    unsigned bits = q->states != 0 ? q->states
                                   : (1u << MV_STATE_PENDING) | (1u << MV_STATE_CHANGED) |
                                         (1u << MV_STATE_QUARANTINED);
    int slot = 2;
    for (int st = MV_STATE_PENDING; st <= MV_STATE_REMOVED; st++)
        if (bits & (1u << st))
            st_bind_text(s, slot++, mv_tool_state_name((mv_tool_state)st));
    while (slot <= 6)
        sqlite3_bind_null(s, slot++);
    st_bind_text(s, 1, q->server);
    st_bind_text(s, 7, q->verdict);
    sqlite3_bind_int64(s, 9, q->id);
    sqlite3_bind_int64(s, 10, q->server_id);
    if (text != NULL)
        for (char *p = text; *p != '\0'; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a'); /* SQLite's lower() is ASCII-only too */
    return st_bind_text(s, 8, text);
}

int mv_store_query_tools(mv_store *st, const mv_store_query *q, mv_store_tool_list **out,
                         size_t *total, mv_error *err) {
    int rc = MV_OK, r;
    char *text = NULL;
    size_t text_len = 0;
    sqlite3_stmt *cnt = NULL, *s = NULL;
    mv_arena *arena = NULL;
    mv_store_tool_list *l = NULL;
    if (out == NULL || st == NULL || q == NULL)
        return mv_error_set(err, MV_EINVAL,
                            "mv_store_query_tools needs a store, a query and an output");
    *out = NULL;
    if (q->text != NULL && q->text[0] != '\0') {
        text_len = strlen(q->text) + 1;
        text = mv_alloc(st->alloc, text_len);
        if (text == NULL) {
            rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory listing tools", st->path);
            goto done;
        }
        memcpy(text, q->text, text_len);
    }
    arena = mv_arena_new(st->alloc, 0);
    l = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*l)) : NULL;
    if (l == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory listing tools", st->path);
        goto done;
    }
    l->arena = arena;
    if (total != NULL) {
        cnt = st_prepare(st, "SELECT count(*)" QUERY_FROM_WHERE, &rc, err);
        if (cnt == NULL)
            goto done;
        bind_query(cnt, q, text);
        r = sqlite3_step(cnt);
        if (r != SQLITE_ROW) {
            rc = st_fail(st, err, r, "cannot count tools");
            goto done;
        }
        *total = (size_t)sqlite3_column_int64(cnt, 0);
    }
    /* Newest state first; ties by server, kind and name (bytes): a stable
     * order, so pages never overlap or skip while nothing changes. */
    /* The page is chosen from the index's columns alone; only its rows
     * are then read whole (sorting whole rows would read every
     * definition of the queue). */
    s = st_prepare(st,
                   TOOL_COLUMNS " WHERE t.id IN (SELECT t.id" QUERY_FROM_WHERE QUERY_ORDER
                                " LIMIT ?11 OFFSET ?12)" QUERY_ORDER,
                   &rc, err);
    if (s == NULL)
        goto done;
    bind_query(s, q, text);
    sqlite3_bind_int64(s, 11, q->limit == 0 ? -1 : (sqlite3_int64)q->limit);
    sqlite3_bind_int64(s, 12, (sqlite3_int64)q->offset);
    rc = read_rows(st, s, q->definitions, l, err);
done:
    sqlite3_finalize(cnt);
    sqlite3_finalize(s);
    mv_free(st->alloc, text, text_len);
    if (rc != MV_OK)
        mv_arena_free(arena);
    else
        *out = l;
    return rc;
}

int mv_store_queue_summary(mv_store *st, const char *server_text, size_t offset, size_t limit,
                           mv_store_queue_counts **out, mv_error *err) {
    int rc = MV_OK, r;
    bool oom = false;
    char *text = NULL;
    size_t text_len = 0, cap = 0;
    sqlite3_stmt *s = NULL;
    if (out == NULL || st == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_queue_summary needs a store and an output");
    *out = NULL;
    mv_arena *arena = mv_arena_new(st->alloc, 0);
    mv_store_queue_counts *q = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*q)) : NULL;
    if (q == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory summing the queue", st->path);
        goto done;
    }
    q->arena = arena;
    if (server_text != NULL && server_text[0] != '\0') {
        text_len = strlen(server_text) + 1;
        text = mv_alloc(st->alloc, text_len);
        if (text == NULL) {
            rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory summing the queue", st->path);
            goto done;
        }
        for (size_t i = 0; i < text_len; i++)
            text[i] = server_text[i] >= 'A' && server_text[i] <= 'Z'
                          ? (char)(server_text[i] - 'A' + 'a')
                          : server_text[i];
    }
    /* One pass over the queue: per server counts; totals, the number of
     * servers and the page are taken from it. */
    s = st_prepare(
        st,
        /* grouped on the index first, joined to the servers after: a
         * third of the cost of joining every queued tool */
        "SELECT s.name, x.p, x.c, x.q, (?1 IS NULL OR instr(lower(s.name), ?1) > 0), s.id"
        " FROM (SELECT server_id, sum(state = 'pending') AS p, sum(state = 'changed') AS c,"
        " sum(state = 'quarantined') AS q FROM tools"
        " WHERE state IN ('pending', 'changed', 'quarantined') GROUP BY server_id) x"
        " JOIN servers s ON s.id = x.server_id ORDER BY s.name",
        &rc, err);
    if (s == NULL)
        goto done;
    st_bind_text(s, 1, text);
    size_t seen = 0;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        size_t c[3];
        for (int k = 0; k < 3; k++)
            c[k] = (size_t)sqlite3_column_int64(s, 1 + k);
        q->pending += c[0];
        q->changed += c[1];
        q->quarantined += c[2];
        if (!sqlite3_column_int(s, 4))
            continue;
        q->n_servers_total++;
        if (seen++ < offset || (limit > 0 && q->n >= limit))
            continue;
        if (q->n == cap) {
            size_t nc = cap == 0 ? 16 : 2 * cap;
            mv_store_queue_server *g =
                mv_arena_grow(arena, q->servers, cap * sizeof(*g), nc * sizeof(*g));
            if (g == NULL) {
                oom = true;
                break;
            }
            q->servers = g;
            cap = nc;
        }
        mv_store_queue_server *v = &q->servers[q->n++];
        v->name = st_col_dup(arena, s, 0, &oom);
        v->id = sqlite3_column_int64(s, 5);
        v->pending = c[0];
        v->changed = c[1];
        v->quarantined = c[2];
        if (oom)
            break;
    }
    if (oom)
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory summing the queue", st->path);
    else if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot sum the queue");
done:
    sqlite3_finalize(s);
    mv_free(st->alloc, text, text_len);
    if (rc != MV_OK)
        mv_arena_free(arena);
    else
        *out = q;
    return rc;
}

void mv_store_queue_counts_free(mv_store_queue_counts *q) {
    if (q != NULL)
        mv_arena_free(q->arena);
}

int mv_store_find_rename(mv_store *st, const mv_store_tool *t, mv_store_rename *out,
                         mv_error *err) {
    int rc = MV_OK;
    sqlite3_stmt *s = NULL;
    mv_arena *arena = NULL;
    mv_store_tool_list *l = NULL;
    memset(out, 0, sizeof(*out));
    if (st == NULL || t == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_find_rename needs a store and a tool");
    /* Only a tool that was never approved can be the new half of a rename,
     * and only with its definition at hand. */
    if (t->approved_pin != NULL || t->state == MV_STATE_REMOVED || t->current_definition == NULL)
        return MV_OK;
    arena = mv_arena_new(st->alloc, 0);
    l = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*l)) : NULL;
    if (l == NULL) {
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory looking for a rename", st->path);
        goto done;
    }
    l->arena = arena;
    s = st_prepare(st,
                   TOOL_COLUMNS
                   " WHERE s.name = ?1 AND t.kind = ?2 AND t.state = 'removed'"
                   " AND t.name <> ?3"
                   " ORDER BY (?4 IS NOT NULL AND t.name = ?4) DESC,"
                   " t.state_since DESC, t.name LIMIT " MV_STRINGIFY(RENAME_CANDIDATES),
                   &rc, err);
    if (s == NULL)
        goto done;
    st_bind_text(s, 1, t->server);
    st_bind_text(s, 2, mv_item_kind_name(t->kind));
    st_bind_text(s, 3, t->name);
    st_bind_text(s, 4, t->renamed_from);
    if ((rc = read_rows(st, s, true, l, err)) != MV_OK)
        goto done;
    size_t best = l->n;
    unsigned best_pm = 0;
    for (size_t i = 0; i < l->n; i++) {
        const mv_store_tool *c = &l->tools[i];
        if (i == 0 && t->renamed_from != NULL && strcmp(c->name, t->renamed_from) == 0) {
            best = 0;
            best_pm = 1000;
            out->exact = true;
            break;
        }
        const char *def =
            c->approved_definition != NULL ? c->approved_definition : c->current_definition;
        unsigned pm = 0;
        if (def == NULL)
            continue;
        int src = mv_diff_rename_score(&pm, def, strlen(def), t->current_definition,
                                       strlen(t->current_definition), st->alloc);
        if (src == MV_ENOMEM) {
            rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory looking for a rename", st->path);
            goto done;
        }
        if (src == MV_OK && pm >= MV_RENAME_PERMILLE && pm > best_pm) {
            best = i;
            best_pm = pm;
        }
    }
    if (best < l->n) {
        l->tools[0] = l->tools[best];
        l->n = 1;
        out->from = l;
        out->permille = best_pm;
        l = NULL;
        arena = NULL;
    }
done:
    sqlite3_finalize(s);
    mv_arena_free(arena);
    return rc;
}

void mv_store_rename_release(mv_store_rename *r) {
    if (r != NULL) {
        mv_store_tool_list_free(r->from);
        r->from = NULL;
    }
}

int mv_store_servers(mv_store *st, mv_store_server_list **out, mv_error *err) {
    int rc = MV_OK, r;
    bool oom = false;
    size_t cap = 0;
    if (out == NULL || st == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_servers needs a store and an output");
    *out = NULL;
    mv_arena *arena = mv_arena_new(st->alloc, 0);
    mv_store_server_list *l = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*l)) : NULL;
    if (l == NULL) {
        mv_arena_free(arena);
        return mv_error_set(err, MV_ENOMEM, "%s: out of memory listing servers", st->path);
    }
    l->arena = arena;
    sqlite3_stmt *s = st_prepare(
        st,
        "SELECT s.name, s.identity, s.transport, s.reached, s.previous_reached, s.first_seen,"
        " s.last_seen, (SELECT count(*) FROM tools t WHERE t.server_id = s.id),"
        " EXISTS (SELECT 1 FROM tools t WHERE t.server_id = s.id AND t.approved_identity"
        " IS NOT NULL AND t.approved_identity <> s.identity)"
        " FROM servers s ORDER BY s.name",
        &rc, err);
    if (s == NULL)
        goto done;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        if (l->n == cap) {
            size_t ncap = cap == 0 ? 8 : 2 * cap;
            mv_store_server *g =
                mv_arena_grow(arena, l->servers, cap * sizeof(*g), ncap * sizeof(*g));
            if (g == NULL) {
                oom = true;
                break;
            }
            l->servers = g;
            cap = ncap;
        }
        mv_store_server *v = &l->servers[l->n++];
        v->name = st_col_dup(arena, s, 0, &oom);
        v->identity = st_col_dup(arena, s, 1, &oom);
        v->transport = st_col_dup(arena, s, 2, &oom);
        v->reached = st_col_dup(arena, s, 3, &oom);
        v->previous_reached = st_col_dup(arena, s, 4, &oom);
        v->first_seen = sqlite3_column_int64(s, 5);
        v->last_seen = sqlite3_column_int64(s, 6);
        v->n_tools = (size_t)sqlite3_column_int64(s, 7);
        v->identity_changed = sqlite3_column_int(s, 8) != 0;
        if (oom)
            break;
    }
    if (oom)
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory listing servers", st->path);
    else if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot list servers");
done:
    sqlite3_finalize(s);
    if (rc != MV_OK)
        mv_arena_free(arena);
    else
        *out = l;
    return rc;
}

void mv_store_server_list_free(mv_store_server_list *l) {
    if (l != NULL)
        mv_arena_free(l->arena);
}

/* ------------------------------------------------------------- targets */

typedef struct target {
    int64_t id;
    const char *kind;
    mv_str name;
    mv_tool_state state;
    const char *approved_pin, *current_pin, *approved_identity;
    bool manual;
} target;

typedef struct targets {
    int64_t server_id;
    const char *identity;
    target *v;
    size_t n, cap;
    mv_arena *arena;
} targets;

static int server_lookup(mv_store *st, const char *server, targets *t, mv_error *err) {
    int rc = MV_OK;
    bool oom = false;
    sqlite3_stmt *s = st_prepare(st, "SELECT id, identity FROM servers WHERE name = ?", &rc, err);
    if (s == NULL)
        return rc;
    st_bind_text(s, 1, server);
    int r = sqlite3_step(s);
    if (r == SQLITE_ROW) {
        t->server_id = sqlite3_column_int64(s, 0);
        t->identity = st_col_dup(t->arena, s, 1, &oom);
        if (oom)
            rc = MV_ENOMEM;
    } else if (r == SQLITE_DONE) {
        rc = mv_error_set(err, MV_ENOTFOUND, "%s: no server \"%s\" in the store", st->path, server);
    } else {
        rc = st_fail(st, err, r, "cannot read the servers");
    }
    sqlite3_finalize(s);
    return rc;
}

/* Every tool row of the server (removed ones too), in (kind, name) order. */
static int read_target_rows(mv_store *st, targets *t, target **rows, size_t *n_rows, mv_error *err) {
    int rc = MV_OK;
    size_t cap = 0;
    bool oom = false;
    *rows = NULL;
    *n_rows = 0;
    sqlite3_stmt *s = st_prepare(st,
                                 "SELECT id, kind, name, state, approved_pin, current_pin,"
                                 " approved_identity, manual_quarantine FROM tools"
                                 " WHERE server_id = ?1 ORDER BY kind, name",
                                 &rc, err);
    if (s == NULL)
        return rc;
    sqlite3_bind_int64(s, 1, t->server_id);
    int r;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        if (*n_rows == cap) {
            size_t ncap = cap == 0 ? 16 : 2 * cap;
            target *g = mv_arena_grow(t->arena, *rows, cap * sizeof(*g), ncap * sizeof(*g));
            if (g == NULL) {
                oom = true;
                break;
            }
            *rows = g;
            cap = ncap;
        }
        target *w = &(*rows)[(*n_rows)++];
        w->id = sqlite3_column_int64(s, 0);
        w->state = mv_tool_state_parse((const char *)sqlite3_column_text(s, 3));
        w->kind = st_col_dup(t->arena, s, 1, &oom);
        const char *nm = st_col_dup(t->arena, s, 2, &oom);
        w->name = (mv_str){nm, nm != NULL ? (size_t)sqlite3_column_bytes(s, 2) : 0};
        w->approved_pin = st_col_dup(t->arena, s, 4, &oom);
        w->current_pin = st_col_dup(t->arena, s, 5, &oom);
        w->approved_identity = st_col_dup(t->arena, s, 6, &oom);
        w->manual = sqlite3_column_int(s, 7) != 0;
        if (oom)
            break;
    }
    if (oom)
        rc = MV_ENOMEM;
    else if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot read the tools");
    sqlite3_finalize(s);
    return rc;
}

static int push_target(targets *t, const target *w) {
    if (t->n == t->cap) {
        size_t ncap = t->cap == 0 ? 16 : 2 * t->cap;
        target *g = mv_arena_grow(t->arena, t->v, t->cap * sizeof(*g), ncap * sizeof(*g));
        if (g == NULL)
            return MV_ENOMEM;
        t->v = g;
        t->cap = ncap;
    }
    t->v[t->n++] = *w;
    return MV_OK;
}

/* A row's name and position, sorted by name, then by (kind, name) order. */
typedef struct row_ix {
    mv_str name;
    size_t i;
} row_ix;

static int cmp_row_name(const void *pa, const void *pb) {
    const row_ix *x = pa, *y = pb;
    int c = memcmp(x->name.ptr, y->name.ptr, x->name.len < y->name.len ? x->name.len : y->name.len);
    if (c == 0 && x->name.len != y->name.len)
        c = x->name.len < y->name.len ? -1 : 1;
    return c != 0 ? c : (x->i < y->i ? -1 : (x->i > y->i ? 1 : 0));
}

/* Tools of the server: every one that is not removed (names == NULL), or
 * the ones named (each must exist and not be removed), in the order named.
 * The rows are read once and matched in memory (one query, not one per
 * name: approving a 100-tool server was quadratic in SQLite steps). Inside
 * the caller's transaction. */
static int resolve_targets(mv_store *st, const char *server, const char *const *names,
                           size_t n_names, targets *t, mv_error *err) {
    target *rows = NULL;
    size_t n_rows = 0;
    row_ix *ix = NULL;
    int rc = server_lookup(st, server, t, err);
    if (rc != MV_OK)
        return rc;
    if ((rc = read_target_rows(st, t, &rows, &n_rows, err)) != MV_OK)
        return rc;
    if (n_names == 0) {
        for (size_t i = 0; i < n_rows && rc == MV_OK; i++)
            if (rows[i].state != MV_STATE_REMOVED)
                rc = push_target(t, &rows[i]);
        return rc;
    }
    ix = mv_arena_alloc(t->arena, (n_rows + 1) * sizeof(*ix));
    if (ix == NULL)
        return MV_ENOMEM;
    for (size_t i = 0; i < n_rows; i++)
        ix[i] = (row_ix){rows[i].name, i};
    qsort(ix, n_rows, sizeof(*ix), cmp_row_name);
    for (size_t i = 0; i < n_names && rc == MV_OK; i++) {
        const char *want = names[i];
        size_t wl = strlen(want), lo = 0, hi = n_rows, found = 0;
        while (lo < hi) { /* the first row whose name is not below want */
            size_t mid = lo + (hi - lo) / 2;
            const mv_str *nm = &ix[mid].name;
            int c = memcmp(nm->ptr, want, nm->len < wl ? nm->len : wl);
            if (c == 0 && nm->len != wl)
                c = nm->len < wl ? -1 : 1;
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k < n_rows && rc == MV_OK; k++) {
            const target *w = &rows[ix[k].i];
            if (w->name.len != wl || memcmp(w->name.ptr, want, wl) != 0)
                break;
            found++;
            if (w->state == MV_STATE_REMOVED) {
                rc = mv_error_set(err, MV_ENOTFOUND,
                                  "%s: the tool \"%s\" of \"%s\" is removed (no longer advertised)",
                                  st->path, want, server);
                break;
            }
            bool dup = false; /* a name given twice */
            for (size_t j = 0; j < t->n && !dup; j++)
                dup = t->v[j].id == w->id;
            if (!dup)
                rc = push_target(t, w);
        }
        if (rc == MV_OK && found == 0)
            rc = mv_error_set(err, MV_ENOTFOUND, "%s: no tool \"%s\" on server \"%s\"", st->path,
                              want, server);
    }
    return rc;
}

/* Run a prepared decision statement (?1 time, ?2 tool id, ?3 identity)
 * and reset it for the next tool. */
static int set_state(mv_store *st, sqlite3_stmt *s, const target *w, int64_t now,
                     const char *identity, mv_error *err) {
    int rc = MV_OK;
    sqlite3_bind_int64(s, 1, now);
    sqlite3_bind_int64(s, 2, w->id);
    if (identity != NULL)
        st_bind_text(s, 3, identity);
    int r = sqlite3_step(s);
    if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot record the decision");
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc;
}

/* -------------------------------------------------------------- approve */

int mv_store_approve(mv_store *st, const char *server, const char *const *tools, size_t n_tools,
                     bool force, mv_actor actor, const char *reason, mv_store_approve_result *res,
                     mv_error *err) {
    int rc = MV_OK;
    bool began = false;
    size_t n_quarantined = 0;
    sqlite3_stmt *upd = NULL;
    targets t;
    memset(&t, 0, sizeof(t));
    if (res != NULL)
        memset(res, 0, sizeof(*res));
    if (st == NULL || server == NULL || (n_tools > 0 && tools == NULL))
        return mv_error_set(err, MV_EINVAL, "mv_store_approve needs a store and a server");
    int64_t now = st_now(st);
    t.arena = mv_arena_new(st->alloc, 0);
    if (t.arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if ((rc = st_begin(st, err)) != MV_OK)
        goto done;
    began = true;
    if ((rc = resolve_targets(st, server, tools, n_tools, &t, err)) != MV_OK)
        goto done;
    for (size_t i = 0; i < t.n; i++)
        n_quarantined += t.v[i].state == MV_STATE_QUARANTINED;
    if (n_quarantined > 0 && res != NULL) {
        /* The quarantined targets with their findings, for printing. */
        mv_store_filter f = {.server = server, .state = MV_STATE_QUARANTINED};
        mv_store_tool_list *q = NULL;
        if ((rc = mv_store_list(st, &f, &q, err)) != MV_OK)
            goto done;
        size_t keep = 0;
        for (size_t i = 0; i < q->n; i++) {
            bool wanted = false;
            for (size_t k = 0; k < t.n && !wanted; k++)
                wanted = t.v[k].state == MV_STATE_QUARANTINED &&
                         strcmp(t.v[k].kind, mv_item_kind_name(q->tools[i].kind)) == 0 &&
                         strlen(q->tools[i].name) == t.v[k].name.len &&
                         memcmp(q->tools[i].name, t.v[k].name.ptr, t.v[k].name.len) == 0;
            if (wanted)
                q->tools[keep++] = q->tools[i];
        }
        q->n = keep;
        res->quarantined = q;
    }
    if (n_quarantined > 0 && !force) {
        rc = mv_error_set(err, MV_EQUARANTINED,
                          "%zu tool%s of \"%s\" %s quarantined; approving %s needs force "
                          "(nothing was approved)",
                          n_quarantined, n_quarantined == 1 ? "" : "s", server,
                          n_quarantined == 1 ? "is" : "are", n_quarantined == 1 ? "it" : "them");
        goto done;
    }
    upd = st_prepare(st,
                     "UPDATE tools SET state = 'approved', approved_pin = current_pin,"
                     " approved_definition = current_definition, approved_identity = ?3,"
                     " forced = ?4, manual_quarantine = 0, state_since = ?1 WHERE id = ?2",
                     &rc, err);
    if (upd == NULL)
        goto done;
    for (size_t i = 0; i < t.n && rc == MV_OK; i++) {
        target *w = &t.v[i];
        bool valid = w->state == MV_STATE_APPROVED && w->approved_pin != NULL &&
                     strcmp(w->approved_pin, w->current_pin) == 0 && w->approved_identity != NULL &&
                     strcmp(w->approved_identity, t.identity) == 0;
        if (valid) {
            if (res != NULL)
                res->n_unchanged++;
            continue;
        }
        bool forced = w->state == MV_STATE_QUARANTINED;
        sqlite3_bind_int(upd, 4, forced);
        rc = set_state(st, upd, w, now, t.identity, err);
        if (rc == MV_OK)
            rc = st_event(st, now, actor, server, w->kind, w->name, w->state, MV_STATE_APPROVED,
                          w->approved_pin, w->current_pin,
                          reason != NULL ? reason
                          : forced       ? "approved with force despite a quarantine"
                                         : "approved",
                          err);
        if (rc == MV_OK && res != NULL)
            res->n_approved++;
    }
done:
    if (began && rc == MV_OK) {
        began = false;
        rc = st_commit(st, err);
    }
    if (began)
        st_rollback(st);
    sqlite3_finalize(upd);
    mv_arena_free(t.arena);
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "%s: out of memory approving tools", st->path);
    if (rc != MV_OK && rc != MV_EQUARANTINED && res != NULL) {
        mv_store_tool_list_free(res->quarantined);
        memset(res, 0, sizeof(*res));
    }
    if (rc != MV_OK && res != NULL) {
        res->n_approved = 0;
        res->n_unchanged = 0;
    }
    return rc;
}

void mv_store_approve_result_release(mv_store_approve_result *res) {
    if (res == NULL)
        return;
    mv_store_tool_list_free(res->quarantined);
    memset(res, 0, sizeof(*res));
}

/* ----------------------------------------------------------- quarantine */

int mv_store_quarantine(mv_store *st, const char *server, const char *const *tools, size_t n_tools,
                        mv_actor actor, const char *reason, size_t *n_changed, mv_error *err) {
    int rc = MV_OK;
    bool began = false;
    targets t;
    memset(&t, 0, sizeof(t));
    sqlite3_stmt *upd = NULL;
    if (n_changed != NULL)
        *n_changed = 0;
    if (st == NULL || server == NULL || (n_tools > 0 && tools == NULL))
        return mv_error_set(err, MV_EINVAL, "mv_store_quarantine needs a store and a server");
    int64_t now = st_now(st);
    t.arena = mv_arena_new(st->alloc, 0);
    if (t.arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if ((rc = st_begin(st, err)) != MV_OK)
        goto done;
    began = true;
    if ((rc = resolve_targets(st, server, tools, n_tools, &t, err)) != MV_OK)
        goto done;
    for (size_t i = 0; i < t.n && rc == MV_OK; i++) {
        target *w = &t.v[i];
        if (w->state == MV_STATE_QUARANTINED && w->manual)
            continue;
        if (upd == NULL &&
            (upd = st_prepare(st,
                              "UPDATE tools SET state = 'quarantined', manual_quarantine = 1,"
                              " state_since = CASE WHEN state = 'quarantined' THEN state_since"
                              " ELSE ?1 END WHERE id = ?2",
                              &rc, err)) == NULL)
            break;
        rc = set_state(st, upd, w, now, NULL, err);
        if (rc == MV_OK)
            rc = st_event(st, now, actor, server, w->kind, w->name, w->state, MV_STATE_QUARANTINED,
                          w->current_pin, w->current_pin,
                          reason != NULL ? reason : "quarantined by a person", err);
        if (rc == MV_OK && n_changed != NULL)
            (*n_changed)++;
    }
done:
    if (began && rc == MV_OK) {
        began = false;
        rc = st_commit(st, err);
    }
    if (began)
        st_rollback(st);
    sqlite3_finalize(upd);
    mv_arena_free(t.arena);
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "%s: out of memory quarantining tools", st->path);
    if (rc != MV_OK && n_changed != NULL)
        *n_changed = 0;
    return rc;
}

/* --------------------------------------------------------------- forget */

int mv_store_forget(mv_store *st, const char *server, const char *tool, mv_actor actor,
                    const char *reason, mv_error *err) {
    int rc = MV_OK;
    bool began = false;
    targets t;
    memset(&t, 0, sizeof(t));
    if (st == NULL || server == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_forget needs a store and a server");
    int64_t now = st_now(st);
    const char *why = reason != NULL ? reason : "forgotten";
    t.arena = mv_arena_new(st->alloc, 0);
    if (t.arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if ((rc = st_begin(st, err)) != MV_OK)
        goto done;
    began = true;
    if ((rc = server_lookup(st, server, &t, err)) != MV_OK)
        goto done;
    /* Every tool (removed ones too) or the named one, whatever its state. */
    sqlite3_stmt *s = st_prepare(st,
                                 "SELECT id, kind, name, state, current_pin FROM tools"
                                 " WHERE server_id = ?1 AND (?2 IS NULL OR name = ?2)",
                                 &rc, err);
    if (s == NULL)
        goto done;
    sqlite3_bind_int64(s, 1, t.server_id);
    st_bind_text(s, 2, tool);
    size_t found = 0;
    int r;
    while (rc == MV_OK && (r = sqlite3_step(s)) == SQLITE_ROW) {
        bool oom = false;
        const char *kind = st_col_dup(t.arena, s, 1, &oom);
        const char *name = st_col_dup(t.arena, s, 2, &oom);
        const char *pin = st_col_dup(t.arena, s, 4, &oom);
        if (oom) {
            rc = MV_ENOMEM;
            break;
        }
        found++;
        rc = st_event(st, now, actor, server, kind,
                      (mv_str){name, (size_t)sqlite3_column_bytes(s, 2)},
                      mv_tool_state_parse((const char *)sqlite3_column_text(s, 3)), MV_STATE_NONE,
                      pin, NULL, why, err);
        r = SQLITE_DONE;
    }
    if (rc == MV_OK && r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot read the tools");
    sqlite3_finalize(s);
    if (rc != MV_OK)
        goto done;
    if (tool != NULL && found == 0) {
        rc = mv_error_set(err, MV_ENOTFOUND, "%s: no tool \"%s\" on server \"%s\"", st->path, tool,
                          server);
        goto done;
    }
    s = st_prepare(st, "DELETE FROM tools WHERE server_id = ?1 AND (?2 IS NULL OR name = ?2)", &rc,
                   err);
    if (s == NULL)
        goto done;
    sqlite3_bind_int64(s, 1, t.server_id);
    st_bind_text(s, 2, tool);
    r = sqlite3_step(s);
    if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot forget");
    sqlite3_finalize(s);
    if (rc == MV_OK && tool == NULL) {
        s = st_prepare(st, "DELETE FROM servers WHERE id = ?", &rc, err);
        if (s == NULL)
            goto done;
        sqlite3_bind_int64(s, 1, t.server_id);
        r = sqlite3_step(s);
        if (r != SQLITE_DONE)
            rc = st_fail(st, err, r, "cannot forget");
        sqlite3_finalize(s);
        if (rc == MV_OK)
            rc = st_event(st, now, actor, server, NULL, MV_STR_NULL, MV_STATE_NONE, MV_STATE_NONE,
                          NULL, NULL, tool == NULL && reason == NULL ? "server forgotten" : why,
                          err);
    }
done:
    if (began && rc == MV_OK) {
        began = false;
        rc = st_commit(st, err);
    }
    if (began)
        st_rollback(st);
    mv_arena_free(t.arena);
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "%s: out of memory forgetting", st->path);
    return rc;
}

/* -------------------------------------------------------------- history */

int mv_store_history(mv_store *st, const char *server, const char *tool, size_t limit,
                     mv_store_event_list **out, mv_error *err) {
    int rc = MV_OK, r;
    bool oom = false;
    size_t cap = 0;
    if (out == NULL || st == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_history needs a store and an output");
    *out = NULL;
    mv_arena *arena = mv_arena_new(st->alloc, 0);
    mv_store_event_list *l = arena != NULL ? mv_arena_calloc(arena, 1, sizeof(*l)) : NULL;
    if (l == NULL) {
        mv_arena_free(arena);
        return mv_error_set(err, MV_ENOMEM, "%s: out of memory reading the audit log", st->path);
    }
    l->arena = arena;
    /* With a server (and tool) named, plain equalities let SQLite use
     * events_by_tool: "?1 IS NULL OR" would scan the whole log newest
     * first, which is slow for a quiet tool in a busy store. */
    sqlite3_stmt *s = st_prepare(
        st,
        server == NULL ? "SELECT id, time, actor, server, tool, kind, old_state, new_state,"
                         " old_pin, new_pin, reason FROM events"
                         " WHERE ?1 IS NULL AND ?2 IS NULL ORDER BY id DESC LIMIT ?3"
        : tool == NULL ? "SELECT id, time, actor, server, tool, kind, old_state, new_state,"
                         " old_pin, new_pin, reason FROM events"
                         " WHERE server = ?1 AND ?2 IS NULL ORDER BY id DESC LIMIT ?3"
                       : "SELECT id, time, actor, server, tool, kind, old_state, new_state,"
                         " old_pin, new_pin, reason FROM events"
                         " WHERE server = ?1 AND tool = ?2 ORDER BY id DESC LIMIT ?3",
        &rc, err);
    if (s == NULL)
        goto done;
    st_bind_text(s, 1, server);
    st_bind_text(s, 2, tool);
    sqlite3_bind_int64(s, 3, limit == 0 ? -1 : (sqlite3_int64)limit);
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        if (l->n == cap) {
            size_t ncap = cap == 0 ? 32 : 2 * cap;
            mv_store_event *g =
                mv_arena_grow(arena, l->events, cap * sizeof(*g), ncap * sizeof(*g));
            if (g == NULL) {
                oom = true;
                break;
            }
            l->events = g;
            cap = ncap;
        }
        mv_store_event *e = &l->events[l->n++];
        e->id = sqlite3_column_int64(s, 0);
        e->time = sqlite3_column_int64(s, 1);
        e->actor = st_col_dup(arena, s, 2, &oom);
        e->server = st_col_dup(arena, s, 3, &oom);
        e->tool = st_col_dup(arena, s, 4, &oom);
        e->kind = st_col_dup(arena, s, 5, &oom);
        e->old_state = st_col_dup(arena, s, 6, &oom);
        e->new_state = st_col_dup(arena, s, 7, &oom);
        e->old_pin = st_col_dup(arena, s, 8, &oom);
        e->new_pin = st_col_dup(arena, s, 9, &oom);
        e->reason = st_col_dup(arena, s, 10, &oom);
        if (oom)
            break;
    }
    if (oom)
        rc = mv_error_set(err, MV_ENOMEM, "%s: out of memory reading the audit log", st->path);
    else if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot read the audit log");
    /* Oldest first. */
    for (size_t i = 0; rc == MV_OK && i < l->n / 2; i++) {
        mv_store_event tmp = l->events[i];
        l->events[i] = l->events[l->n - 1 - i];
        l->events[l->n - 1 - i] = tmp;
    }
done:
    sqlite3_finalize(s);
    if (rc != MV_OK)
        mv_arena_free(arena);
    else
        *out = l;
    return rc;
}

void mv_store_event_list_free(mv_store_event_list *l) {
    if (l != NULL)
        mv_arena_free(l->arena);
}
