/*
 * Applying a scan to the store: per server, the identity check, each
 * advertised item through the state machine (st_decide), rename detection
 * and removal of what vanished, with one audit event per transition -- all
 * servers in one transaction, so a scan is recorded wholly or not at all.
 * Pins are computed here from the canonical definitions, never taken on
 * trust from the caller.
 */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stored tool of the server being applied. */
typedef struct row {
    int64_t id;
    int kind;
    mv_str name;
    mv_tool_state state, previous;
    const char *approved_pin, *approved_identity, *current_pin, *body;
    const char *verdict; /* as stored, NULL before any scan */
    mv_str findings;     /* as stored; ptr NULL when NULL */
    int64_t last_seen;
    bool forced, manual;
    bool seen;      /* advertised in this scan */
    bool vanishing; /* not advertised in this complete scan, stored as not removed */
} row;

static int cmp_kn(int ka, mv_str a, int kb, mv_str b) {
    if (ka != kb)
        return ka < kb ? -1 : 1;
    int r = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    if (r != 0)
        return r;
    return a.len < b.len ? -1 : (a.len > b.len ? 1 : 0);
}

static int cmp_row(const void *pa, const void *pb) {
    const row *a = pa, *b = pb;
    return cmp_kn(a->kind, a->name, b->kind, b->name);
}

typedef struct item_ref {
    const mv_scan_item *item;
} item_ref;

static int cmp_item(const void *pa, const void *pb) {
    const mv_scan_item *a = ((const item_ref *)pa)->item, *b = ((const item_ref *)pb)->item;
    return cmp_kn((int)a->kind, a->name, (int)b->kind, b->name);
}

static row *find_row(row *rows, size_t n, int kind, mv_str name) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = cmp_kn(kind, name, rows[mid].kind, rows[mid].name);
        if (r == 0)
            return &rows[mid];
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Statements used for every tool: prepared on the store's first scan and
 * kept with the handle (st_scan_stmts), so a session that scans again and
 * again (the proxy) prepares them once. */
typedef st_scan_stmts stmts;

void st_scan_stmts_free(mv_store *st) {
    stmts *s = &st->scan;
    sqlite3_finalize(s->sel_server);
    sqlite3_finalize(s->ins_server);
    sqlite3_finalize(s->upd_identity);
    sqlite3_finalize(s->upd_seen);
    sqlite3_finalize(s->sel_tools);
    sqlite3_finalize(s->ins_tool);
    sqlite3_finalize(s->upd_tool);
    sqlite3_finalize(s->upd_light);
    sqlite3_finalize(s->upd_touch);
    sqlite3_finalize(s->upd_state);
    sqlite3_finalize(s->sel_approved);
    memset(s, 0, sizeof(*s));
}

static sqlite3_stmt *prep(mv_store *st, const char *sql, int *rc, mv_error *err) {
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL);
    if (r != SQLITE_OK) {
        *rc = st_fail(st, err, r, "cannot read the store");
        sqlite3_finalize(s);
        return NULL;
    }
    return s;
}

static int stmts_prepare(mv_store *st, mv_error *err) {
    int rc = MV_OK;
    stmts *s = &st->scan;
    if (s->sel_approved != NULL) /* the last one: all are there */
        return MV_OK;
    st_scan_stmts_free(st);
    if ((s->sel_server = prep(st,
                              "SELECT id, identity, reached, last_seen FROM servers"
                              " WHERE name = ?",
                              &rc, err)) == NULL ||
        (s->ins_server = prep(st,
                              "INSERT INTO servers (name, identity, transport, reached,"
                              " first_seen, last_seen) VALUES (?,?,?,?,?,?)",
                              &rc, err)) == NULL ||
        (s->upd_identity = prep(st,
                                "UPDATE servers SET identity = ?, transport = ?, reached = ?,"
                                " previous_reached = ?, last_seen = ? WHERE id = ?",
                                &rc, err)) == NULL ||
        (s->upd_seen = prep(st, "UPDATE servers SET last_seen = ? WHERE id = ?", &rc, err)) ==
            NULL ||
        (s->sel_tools = prep(st,
                             "SELECT id, kind, name, state, previous_state, approved_pin,"
                             " approved_identity, forced, manual_quarantine, current_pin,"
                             " body_hash, verdict, findings, last_seen FROM tools"
                             " WHERE server_id = ?",
                             &rc, err)) == NULL ||
        (s->ins_tool = prep(
             st,
             "INSERT INTO tools (server_id, kind, name, state, current_pin, current_definition,"
             " body_hash, hash_name, hash_title, hash_description, hash_input_schema,"
             " hash_output_schema, hash_annotations, verdict, findings, renamed_from,"
             " first_seen, last_seen, state_since, approved_pin, approved_definition,"
             " approved_identity)"
             " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?17,?17,"
             "?18,?19,?20)",
             &rc, err)) == NULL ||
        (s->upd_tool =
             prep(st,
                  "UPDATE tools SET state = ?1, previous_state = NULL, current_pin = ?2,"
                  " current_definition = coalesce(?3, current_definition), body_hash = ?4,"
                  " hash_name = ?5, hash_title = ?6, hash_description = ?7, hash_input_schema = ?8,"
                  " hash_output_schema = ?9, hash_annotations = ?10, verdict = ?11, findings = ?12,"
                  " last_seen = ?13, state_since = CASE WHEN ?14 THEN ?13 ELSE state_since END"
                  " WHERE id = ?15",
                  &rc, err)) == NULL ||
        (s->upd_light = prep(
             st,
             "UPDATE tools SET state = ?1, previous_state = NULL, verdict = ?11, findings = ?12,"
             " last_seen = ?13, state_since = CASE WHEN ?14 THEN ?13 ELSE state_since END"
             " WHERE id = ?15",
             &rc, err)) == NULL ||
        (s->upd_touch = prep(st, "UPDATE tools SET last_seen = ?1, findings = ?2 WHERE id = ?3",
                             &rc, err)) == NULL ||
        (s->upd_state = prep(st,
                             "UPDATE tools SET state = ?1, previous_state = ?2,"
                             " state_since = ?3 WHERE id = ?4",
                             &rc, err)) == NULL ||
        (s->sel_approved =
             prep(st, "SELECT approved_definition FROM tools WHERE id = ?", &rc, err)) == NULL) {
        st_scan_stmts_free(st);
        return rc;
    }
    return MV_OK;
}

static int step_done(mv_store *st, sqlite3_stmt *s, mv_error *err, const char *what) {
    int r = sqlite3_step(s);
    int rc = r == SQLITE_DONE ? MV_OK : st_fail(st, err, r, what);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc;
}

static void bind_hashes(sqlite3_stmt *s, int first, const mv_tool_pin *pin) {
    for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
        st_bind_text(s, first + k, pin->fields[k][0] != '\0' ? pin->fields[k] : NULL);
}

static const char *transition_reason(mv_tool_state from, mv_tool_state to, bool pin_changed,
                                     bool identity_mismatch) {
    if (from == MV_STATE_REMOVED)
        return "advertised again";
    if (to == MV_STATE_QUARANTINED)
        return "quarantine verdict (a hard or dangerous finding)";
    if (from == MV_STATE_QUARANTINED)
        return "the quarantine verdict is gone";
    if (to == MV_STATE_CHANGED)
        return pin_changed || !identity_mismatch ? "the definition differs from the approved one"
                                                 : "the server identity changed";
    if (to == MV_STATE_APPROVED)
        return "the definition is the approved one again";
    return "the definition changed";
}

/* Per-call state shared by the servers of one scan. */
typedef struct apply_ctx {
    mv_store *st;
    stmts *s; /* the store's kept statements */
    int64_t now;
    mv_actor actor;
    mv_error *err;
    mv_arena *scratch; /* rows, per server; rewound between servers */
    mv_arena *out;     /* the result */
    item_ref **refs;   /* per server: its items sorted by (kind, name) */
    size_t n_events;
} apply_ctx;

static int event(apply_ctx *c, const char *server, const row *r, int kind, mv_str name,
                 mv_tool_state from, mv_tool_state to, const char *old_pin, const char *new_pin,
                 const char *reason) {
    (void)r;
    c->n_events++;
    return st_event(c->st, c->now, c->actor, server, mv_item_kind_name((mv_item_kind)kind), name,
                    from, to, old_pin, new_pin, reason, c->err);
}

static int load_rows(apply_ctx *c, int64_t server_id, row **out, size_t *n_out) {
    size_t cap = 64, n = 0;
    row *rows = mv_arena_alloc(c->scratch, cap * sizeof(*rows));
    int rc = MV_OK, r;
    bool oom = rows == NULL;
    sqlite3_stmt *s = c->s->sel_tools;
    sqlite3_bind_int64(s, 1, server_id);
    while (!oom && (r = sqlite3_step(s)) == SQLITE_ROW) {
        if (n == cap) {
            row *g = mv_arena_grow(c->scratch, rows, cap * sizeof(*rows), 2 * cap * sizeof(*rows));
            if (g == NULL) {
                oom = true;
                break;
            }
            rows = g;
            cap *= 2;
        }
        row *w = &rows[n++];
        memset(w, 0, sizeof(*w));
        w->id = sqlite3_column_int64(s, 0);
        w->kind = st_kind_parse((const char *)sqlite3_column_text(s, 1));
        const char *name = st_col_dup(c->scratch, s, 2, &oom);
        w->name = (mv_str){name, name != NULL ? (size_t)sqlite3_column_bytes(s, 2) : 0};
        w->state = mv_tool_state_parse((const char *)sqlite3_column_text(s, 3));
        w->previous = mv_tool_state_parse((const char *)sqlite3_column_text(s, 4));
        w->approved_pin = st_col_dup(c->scratch, s, 5, &oom);
        w->approved_identity = st_col_dup(c->scratch, s, 6, &oom);
        w->forced = sqlite3_column_int(s, 7) != 0;
        w->manual = sqlite3_column_int(s, 8) != 0;
        w->current_pin = st_col_dup(c->scratch, s, 9, &oom);
        w->body = st_col_dup(c->scratch, s, 10, &oom);
        w->verdict = st_col_dup(c->scratch, s, 11, &oom);
        const char *fnd = st_col_dup(c->scratch, s, 12, &oom);
        w->findings = (mv_str){fnd, fnd != NULL ? (size_t)sqlite3_column_bytes(s, 12) : 0};
        w->last_seen = sqlite3_column_int64(s, 13);
        r = SQLITE_DONE;
    }
    if (oom)
        rc = MV_ENOMEM;
    else if (r != SQLITE_DONE)
        rc = st_fail(c->st, c->err, r, "cannot read the stored tools");
    sqlite3_reset(s);
    if (rc == MV_OK) {
        qsort(rows, n, sizeof(*rows), cmp_row);
        *out = rows;
        *n_out = n;
    }
    return rc;
}

/* A vanished tool of the same kind with the same body, preferring one that
 * vanishes in this scan over one removed earlier. */
static const row *rename_source(const row *rows, size_t n, int kind, const char *body) {
    const row *earlier = NULL;
    for (size_t i = 0; i < n; i++) {
        const row *r = &rows[i];
        if (r->kind != kind || r->body == NULL || strcmp(r->body, body) != 0)
            continue;
        if (r->vanishing)
            return r;
        if (r->state == MV_STATE_REMOVED && earlier == NULL)
            earlier = r;
    }
    return earlier;
}

static mv_str out_str(apply_ctx *c, mv_str s, bool *oom) {
    char *p = mv_arena_memdup(c->out, s.ptr != NULL ? s.ptr : "", s.len);
    if (p == NULL)
        *oom = true;
    return (mv_str){p, p != NULL ? s.len : 0};
}

/* Which pinned fields differ from the approved definition. */
static int changed_fields(apply_ctx *c, int64_t id, const mv_tool_pin *now, unsigned *out) {
    int rc = MV_OK;
    sqlite3_stmt *q = c->s->sel_approved;
    sqlite3_bind_int64(q, 1, id);
    int r = sqlite3_step(q);
    if (r == SQLITE_ROW && sqlite3_column_text(q, 0) != NULL) {
        mv_tool_pin old;
        mv_error e;
        mv_error_clear(&e);
        rc = mv_pin_tool(&old, (const char *)sqlite3_column_text(q, 0),
                         (size_t)sqlite3_column_bytes(q, 0), c->st->alloc, &e);
        if (rc == MV_OK)
            *out = mv_pin_changed_fields(&old, now);
        else if (rc != MV_ENOMEM)
            rc = MV_OK; /* an unreadable old definition: every field counts as changed */
        if (rc == MV_OK && *out == 0)
            *out = (1u << MV_PIN_FIELD_COUNT) - 1;
    } else if (r != SQLITE_ROW && r != SQLITE_DONE) {
        rc = st_fail(c->st, c->err, r, "cannot read an approved definition");
    }
    sqlite3_reset(q);
    return rc;
}

static const mv_scan_item *find_item(const item_ref *refs, size_t n, int kind, mv_str name) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const mv_scan_item *m = refs[mid].item;
        int r = cmp_kn(kind, name, (int)m->kind, m->name);
        if (r == 0)
            return m;
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Whether an item of another kind has the same name, stored (in any state)
 * or in this scan. Approval is by name: pinning such an item on first use
 * would decide for its namesake too, so it is left to mv_store_approve. */
static bool has_namesake(row *rows, size_t n_rows, const item_ref *refs, size_t n_items,
                         const mv_scan_item *it) {
    for (int k = 0; k < MV_ITEM_KIND_COUNT; k++)
        if (k != (int)it->kind && (find_row(rows, n_rows, k, it->name) != NULL ||
                                   (refs != NULL && find_item(refs, n_items, k, it->name) != NULL)))
            return true;
    return false;
}

static int apply_server(apply_ctx *c, const mv_scan_server *sv, size_t index, mv_tool_pin *pins,
                        mv_store_server_result *res) {
    int rc = MV_OK, r;
    bool oom = false;
    char identity[MV_PIN_HEX];
    mv_buf reached;
    mv_buf_init(&reached, c->st->alloc);
    mv_arena_mark mark = mv_arena_save(c->scratch);
    const char *name = sv->ident.name;
    stmts *s = c->s;

    if ((rc = mv_pin_server(identity, &reached, &sv->ident)) != MV_OK) {
        if (rc == MV_EINVAL)
            mv_error_set(c->err, rc, "a scanned server needs a name and a transport");
        goto done;
    }
    res->name = out_str(c, (mv_str){name, strlen(name)}, &oom);

    /* The server row and its identity. */
    int64_t server_id = 0, server_seen = 0;
    sqlite3_bind_text(s->sel_server, 1, name, -1, SQLITE_STATIC);
    r = sqlite3_step(s->sel_server);
    if (r == SQLITE_ROW) {
        server_id = sqlite3_column_int64(s->sel_server, 0);
        server_seen = sqlite3_column_int64(s->sel_server, 3);
        const char *old_identity = (const char *)sqlite3_column_text(s->sel_server, 1);
        if (old_identity == NULL || strcmp(old_identity, identity) != 0) {
            const char *old_reached = (const char *)sqlite3_column_text(s->sel_server, 2);
            mv_str prev = {old_reached != NULL ? old_reached : "",
                           old_reached != NULL ? strlen(old_reached) : 0};
            res->identity_changed = true;
            res->previous_reached = out_str(c, prev, &oom);
        }
    } else if (r != SQLITE_DONE) {
        rc = st_fail(c->st, c->err, r, "cannot read the stored servers");
    }
    sqlite3_reset(s->sel_server);
    if (rc != MV_OK)
        goto done;
    if (oom || reached.failed) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (server_id == 0) {
        res->new_server = true;
        sqlite3_bind_text(s->ins_server, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->ins_server, 2, identity, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->ins_server, 3, sv->ident.transport, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->ins_server, 4, reached.data, (int)reached.len, SQLITE_STATIC);
        sqlite3_bind_int64(s->ins_server, 5, c->now);
        sqlite3_bind_int64(s->ins_server, 6, c->now);
        if ((rc = step_done(c->st, s->ins_server, c->err, "cannot record the server")) != MV_OK)
            goto done;
        server_id = sqlite3_last_insert_rowid(c->st->db);
    } else if (res->identity_changed) {
        sqlite3_bind_text(s->upd_identity, 1, identity, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->upd_identity, 2, sv->ident.transport, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->upd_identity, 3, reached.data, (int)reached.len, SQLITE_STATIC);
        st_bind_textn(s->upd_identity, 4, res->previous_reached.ptr, res->previous_reached.len);
        sqlite3_bind_int64(s->upd_identity, 5, c->now);
        sqlite3_bind_int64(s->upd_identity, 6, server_id);
        if ((rc = step_done(c->st, s->upd_identity, c->err, "cannot record the server")) != MV_OK)
            goto done;
        mv_buf why;
        mv_buf_init(&why, c->st->alloc);
        mv_buf_printf(&why, "server identity changed: was %s, now %s", res->previous_reached.ptr,
                      reached.data);
        c->n_events++;
        rc = why.failed ? MV_ENOMEM
                        : st_event(c->st, c->now, c->actor, name, NULL, MV_STR_NULL, MV_STATE_NONE,
                                   MV_STATE_NONE, NULL, NULL, why.data, c->err);
        mv_buf_release(&why);
        if (rc != MV_OK)
            goto done;
    } else if (server_seen != c->now) { /* the same second: nothing to write */
        sqlite3_bind_int64(s->upd_seen, 1, c->now);
        sqlite3_bind_int64(s->upd_seen, 2, server_id);
        if ((rc = step_done(c->st, s->upd_seen, c->err, "cannot record the server")) != MV_OK)
            goto done;
    }

    row *rows = NULL;
    size_t n_rows = 0, n_pinned = 0;
    if (!res->new_server && (rc = load_rows(c, server_id, &rows, &n_rows)) != MV_OK)
        goto done;
    for (size_t i = 0; i < sv->n_items; i++) {
        row *w = find_row(rows, n_rows, (int)sv->items[i].kind, sv->items[i].name);
        if (w != NULL)
            w->seen = true;
    }
    for (size_t i = 0; i < n_rows; i++)
        rows[i].vanishing = !rows[i].seen && rows[i].state != MV_STATE_REMOVED && !sv->partial;

    /* Rename candidates: what vanishes now or was removed before. */
    row *cands = NULL;
    size_t n_cands = 0;
    for (size_t i = 0; i < n_rows; i++)
        n_cands += rows[i].vanishing || rows[i].state == MV_STATE_REMOVED;
    if (n_cands > 0) {
        cands = mv_arena_alloc(c->scratch, n_cands * sizeof(*cands));
        if (cands == NULL) {
            rc = MV_ENOMEM;
            goto done;
        }
        n_cands = 0;
        for (size_t i = 0; i < n_rows; i++)
            if (rows[i].vanishing || rows[i].state == MV_STATE_REMOVED)
                cands[n_cands++] = rows[i];
    }

    res->n_items = sv->n_items;
    res->items = sv->n_items > 0 ? mv_arena_calloc(c->out, sv->n_items, sizeof(*res->items)) : NULL;
    if (sv->n_items > 0 && res->items == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }

    /* Each advertised item. */
    for (size_t i = 0; i < sv->n_items && rc == MV_OK; i++) {
        const mv_scan_item *it = &sv->items[i];
        mv_tool_pin *pin = &pins[i];
        mv_store_item_result *ir = &res->items[i];
        row *w = find_row(rows, n_rows, (int)it->kind, it->name);
        bool pin_changed =
            w == NULL || w->current_pin == NULL || strcmp(w->current_pin, pin->pin) != 0;
        /* Field hashes are needed for a new pin and to name what differs
         * from an approval. */
        bool full =
            pin_changed || (w->approved_pin != NULL && strcmp(w->approved_pin, pin->pin) != 0);
        if (full) {
            rc = mv_pin_tool(pin, it->definition.ptr, it->definition.len, c->st->alloc, c->err);
            if (rc != MV_OK) {
                if (c->err != NULL)
                    snprintf(c->err->where, sizeof(c->err->where), "servers[%zu].items[%zu]", index,
                             i);
                break;
            }
        }
        bool quarantine = it->verdict == MV_VERDICT_QUARANTINE;
        const char *verdict = mv_verdict_name(it->verdict);
        st_decide_in in = {.quarantine = quarantine};
        if (w != NULL) {
            in.state = w->state;
            in.previous = w->previous;
            in.has_approval = w->approved_pin != NULL;
            in.match = w->approved_pin != NULL && strcmp(w->approved_pin, pin->pin) == 0 &&
                       w->approved_identity != NULL && strcmp(w->approved_identity, identity) == 0;
            in.forced = w->forced;
            in.manual_quarantine = w->manual;
        }
        mv_tool_state to = st_decide(&in);
        ir->previous = in.state;

        if (w == NULL) {
            const row *src = rename_source(cands, n_cands, (int)it->kind, pin->body);
            if (src != NULL)
                ir->renamed_from = out_str(c, src->name, &oom);
            if (oom) {
                rc = MV_ENOMEM;
                break;
            }
            /* Pinned on first use: recorded approved at once, as
             * mv_store_approve would record it, without writing the row
             * twice. */
            bool pinned = it->pin_if_new && to == MV_STATE_PENDING &&
                          !has_namesake(rows, n_rows, c->refs[index], sv->n_items, it);
            if (pinned) {
                ir->pinned = true;
                n_pinned++;
            }
            ir->state = pinned ? MV_STATE_APPROVED : to;
            sqlite3_stmt *q = s->ins_tool;
            sqlite3_bind_int64(q, 1, server_id);
            st_bind_text(q, 2, mv_item_kind_name(it->kind));
            st_bind_textn(q, 3, it->name.ptr, it->name.len);
            st_bind_text(q, 4, mv_tool_state_name(ir->state));
            st_bind_text(q, 5, pin->pin);
            st_bind_textn(q, 6, it->definition.ptr, it->definition.len);
            st_bind_text(q, 7, pin->body);
            bind_hashes(q, 8, pin);
            st_bind_text(q, 14, verdict);
            st_bind_textn(q, 15, it->findings.len > 0 ? it->findings.ptr : NULL, it->findings.len);
            st_bind_textn(q, 16, ir->renamed_from.ptr, ir->renamed_from.len);
            sqlite3_bind_int64(q, 17, c->now);
            if (pinned) {
                st_bind_text(q, 18, pin->pin);
                st_bind_textn(q, 19, it->definition.ptr, it->definition.len);
                st_bind_text(q, 20, identity);
            }
            if ((rc = step_done(c->st, q, c->err, "cannot record a tool")) != MV_OK)
                break;
            mv_buf why;
            mv_buf_init(&why, c->st->alloc);
            mv_buf_puts(&why, to == MV_STATE_QUARANTINED
                                  ? "first seen, with a quarantine verdict (a hard or dangerous "
                                    "finding)"
                                  : "first seen");
            if (src != NULL) {
                mv_buf_puts(&why, "; renamed from ");
                mv_buf_append(&why, src->name.ptr, src->name.len);
            }
            rc = why.failed ? MV_ENOMEM
                            : event(c, name, NULL, (int)it->kind, it->name, MV_STATE_NONE, to, NULL,
                                    pin->pin, why.data);
            mv_buf_release(&why);
            continue;
        }

        ir->state = to;
        if (w->approved_pin != NULL && strcmp(w->approved_pin, pin->pin) != 0 &&
            (rc = changed_fields(c, w->id, pin, &ir->changed_fields)) != MV_OK)
            break;
        /* Seen again as it is stored: only last_seen and the findings can
         * differ. In the same second with the same findings nothing is
         * written at all; otherwise a statement that leaves state and
         * verdict alone (no CHECK on the state, no queue index entry
         * rewritten). */
        bool same = !pin_changed && to == w->state && w->previous == MV_STATE_NONE &&
                    w->verdict != NULL && strcmp(w->verdict, verdict) == 0;
        bool same_findings =
            it->findings.len > 0
                ? w->findings.ptr != NULL && w->findings.len == it->findings.len &&
                      memcmp(w->findings.ptr, it->findings.ptr, it->findings.len) == 0
                : w->findings.ptr == NULL;
        if (same && same_findings && w->last_seen == c->now)
            continue;
        if (same) {
            sqlite3_stmt *q = s->upd_touch;
            sqlite3_bind_int64(q, 1, c->now);
            st_bind_textn(q, 2, it->findings.len > 0 ? it->findings.ptr : NULL, it->findings.len);
            sqlite3_bind_int64(q, 3, w->id);
            if ((rc = step_done(c->st, q, c->err, "cannot record a tool")) != MV_OK)
                break;
            continue;
        }
        sqlite3_stmt *q = pin_changed ? s->upd_tool : s->upd_light;
        st_bind_text(q, 1, mv_tool_state_name(to));
        if (pin_changed) {
            st_bind_text(q, 2, pin->pin);
            st_bind_textn(q, 3, it->definition.ptr, it->definition.len);
            st_bind_text(q, 4, pin->body);
            bind_hashes(q, 5, pin);
        }
        st_bind_text(q, 11, verdict);
        st_bind_textn(q, 12, it->findings.len > 0 ? it->findings.ptr : NULL, it->findings.len);
        sqlite3_bind_int64(q, 13, c->now);
        sqlite3_bind_int(q, 14, to != w->state);
        sqlite3_bind_int64(q, 15, w->id);
        if ((rc = step_done(c->st, q, c->err, "cannot record a tool")) != MV_OK)
            break;
        if (to != w->state || pin_changed) {
            bool mismatch =
                w->approved_identity != NULL && strcmp(w->approved_identity, identity) != 0;
            rc = event(c, name, w, w->kind, w->name, w->state, to, w->current_pin, pin->pin,
                       transition_reason(w->state, to, pin_changed, mismatch));
        }
    }

    /* What vanished, and (with a partial list) approvals a changed identity
     * no longer covers. */
    size_t n_removed = 0;
    for (size_t i = 0; i < n_rows && rc == MV_OK; i++)
        n_removed += rows[i].vanishing;
    if (n_removed > 0 && rc == MV_OK) {
        res->removed = mv_arena_calloc(c->out, n_removed, sizeof(*res->removed));
        if (res->removed == NULL)
            rc = MV_ENOMEM;
    }
    for (size_t i = 0; i < n_rows && rc == MV_OK; i++) {
        row *w = &rows[i];
        mv_tool_state to;
        const char *why;
        if (w->vanishing) {
            to = MV_STATE_REMOVED;
            why = "no longer advertised";
            res->removed[res->n_removed++] = out_str(c, w->name, &oom);
            if (oom) {
                rc = MV_ENOMEM;
                break;
            }
        } else if (!w->seen && res->identity_changed && w->state == MV_STATE_APPROVED) {
            to = MV_STATE_CHANGED;
            why = "the server identity changed";
        } else {
            continue;
        }
        sqlite3_stmt *q = s->upd_state;
        st_bind_text(q, 1, mv_tool_state_name(to));
        st_bind_text(q, 2, to == MV_STATE_REMOVED ? mv_tool_state_name(w->state) : NULL);
        sqlite3_bind_int64(q, 3, c->now);
        sqlite3_bind_int64(q, 4, w->id);
        if ((rc = step_done(c->st, q, c->err, "cannot record a tool")) != MV_OK)
            break;
        rc = event(c, name, w, w->kind, w->name, w->state, to, w->current_pin, w->current_pin, why);
    }

    /* The approvals of what was pinned on first use, after everything
     * else, where a separate mv_store_approve would have put them. */
    for (size_t i = 0; i < sv->n_items && rc == MV_OK && n_pinned > 0; i++) {
        if (!res->items[i].pinned)
            continue;
        const mv_scan_item *it = &sv->items[i];
        rc = event(c, name, NULL, (int)it->kind, it->name, MV_STATE_PENDING, MV_STATE_APPROVED,
                   NULL, pins[i].pin, sv->pin_reason != NULL ? sv->pin_reason : "approved");
    }

done:
    mv_buf_release(&reached);
    mv_arena_rewind(c->scratch, mark);
    return rc;
}

/* Pins of every item of every server, and the duplicate checks, before
 * the transaction starts. */
static int prepare_pins(apply_ctx *c, const mv_scan_server *servers, size_t n, mv_tool_pin **pins) {
    int rc = MV_OK;
    for (size_t i = 0; i < n && rc == MV_OK; i++) {
        const mv_scan_server *sv = &servers[i];
        if (sv->ident.name == NULL || (sv->n_items > 0 && sv->items == NULL))
            return mv_error_set(c->err, MV_EINVAL, "servers[%zu] has no name or no items", i);
        for (size_t j = 0; j < i; j++)
            if (strcmp(servers[j].ident.name, sv->ident.name) == 0)
                return mv_error_set(c->err, MV_EINVAL, "server \"%s\" is given twice",
                                    sv->ident.name);
        pins[i] = sv->n_items > 0 ? mv_arena_alloc(c->scratch, sv->n_items * sizeof(**pins)) : NULL;
        item_ref *refs =
            sv->n_items > 0 ? mv_arena_alloc(c->scratch, sv->n_items * sizeof(*refs)) : NULL;
        c->refs[i] = refs;
        if (sv->n_items > 0 && (pins[i] == NULL || refs == NULL))
            return MV_ENOMEM;
        for (size_t j = 0; j < sv->n_items && rc == MV_OK; j++) {
            const mv_scan_item *it = &sv->items[j];
            refs[j].item = it;
            if ((unsigned)it->kind >= MV_ITEM_KIND_COUNT || it->name.len == 0 ||
                it->name.ptr == NULL) {
                rc = mv_error_set(c->err, MV_EINVAL, "an item has no name or an unknown kind");
            } else {
                /* Only the pin here: the full check and the field hashes are
                 * computed in apply_server for definitions the store does not
                 * hold yet (an unchanged one was checked when it was stored). */
                memset(&pins[i][j], 0, sizeof(pins[i][j]));
                rc = it->definition.ptr == NULL
                         ? mv_error_set(c->err, MV_EPARSE, "the definition is empty")
                         : st_sha256_hex(pins[i][j].pin, it->definition.ptr, it->definition.len);
            }
            if (rc != MV_OK && c->err != NULL)
                snprintf(c->err->where, sizeof(c->err->where), "servers[%zu].items[%zu]", i, j);
        }
        if (rc == MV_OK && sv->n_items > 1) {
            qsort(refs, sv->n_items, sizeof(*refs), cmp_item);
            for (size_t j = 1; j < sv->n_items; j++)
                if (cmp_item(&refs[j - 1], &refs[j]) == 0)
                    return mv_error_set(
                        c->err, MV_EINVAL, "server \"%s\" lists the %s \"%.*s\" twice",
                        sv->ident.name, mv_item_kind_name(refs[j].item->kind),
                        (int)(refs[j].item->name.len > 200 ? 200 : refs[j].item->name.len),
                        refs[j].item->name.ptr);
        }
    }
    return rc;
}

int mv_store_apply_scan(mv_store *st, const mv_scan_server *servers, size_t n_servers, int64_t now,
                        mv_actor actor, mv_store_scan_result **out, mv_error *err) {
    int rc = MV_OK;
    apply_ctx c;
    mv_store_scan_result *res = NULL;
    mv_tool_pin **pins = NULL;
    bool began = false;

    memset(&c, 0, sizeof(c));
    if (out != NULL)
        *out = NULL;
    if (st == NULL || (servers == NULL && n_servers > 0))
        return mv_error_set(err, MV_EINVAL, "mv_store_apply_scan needs a store and servers");
    c.st = st;
    c.now = now;
    c.actor = actor;
    c.err = err;
    c.scratch = mv_arena_new(st->alloc, 256 * 1024);
    c.out = mv_arena_new(st->alloc, 16 * 1024);
    if (c.scratch == NULL || c.out == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    res = mv_arena_calloc(c.out, 1, sizeof(*res));
    pins = n_servers > 0 ? mv_arena_calloc(c.scratch, n_servers, sizeof(*pins)) : NULL;
    c.refs = n_servers > 0 ? mv_arena_calloc(c.scratch, n_servers, sizeof(*c.refs)) : NULL;
    if (res == NULL || (n_servers > 0 && (pins == NULL || c.refs == NULL))) {
        rc = MV_ENOMEM;
        goto done;
    }
    res->arena = c.out;
    res->n_servers = n_servers;
    res->servers = n_servers > 0 ? mv_arena_calloc(c.out, n_servers, sizeof(*res->servers)) : NULL;
    if (n_servers > 0 && res->servers == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if ((rc = prepare_pins(&c, servers, n_servers, pins)) != MV_OK)
        goto done;
    if ((rc = stmts_prepare(st, err)) != MV_OK)
        goto done;
    c.s = &st->scan;
    if ((rc = st_begin(st, err)) != MV_OK)
        goto done;
    began = true;
    for (size_t i = 0; i < n_servers && rc == MV_OK; i++)
        rc = apply_server(&c, &servers[i], i, pins[i], &res->servers[i]);
    if (rc == MV_OK) {
        began = false;
        rc = st_commit(st, err);
    }
    res->n_transitions = c.n_events;

done:
    if (began)
        st_rollback(st);
    mv_arena_free(c.scratch);
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "%s: out of memory while applying a scan", st->path);
    if (rc == MV_OK && out != NULL) {
        *out = res;
    } else {
        mv_arena_free(c.out);
    }
    return rc;
}

void mv_store_scan_result_free(mv_store_scan_result *r) {
    if (r != NULL)
        mv_arena_free(r->arena);
}

bool mv_store_scan_fails(const mv_store_scan_result *r, bool fail_on_pending) {
    if (r == NULL)
        return false;
    for (size_t i = 0; i < r->n_servers; i++) {
        const mv_store_server_result *s = &r->servers[i];
        if (s->identity_changed)
            return true;
        for (size_t j = 0; j < s->n_items; j++) {
            mv_tool_state t = s->items[j].state;
            if (t == MV_STATE_QUARANTINED || t == MV_STATE_CHANGED ||
                (fail_on_pending && t == MV_STATE_PENDING))
                return true;
        }
    }
    return false;
}
