/*
 * The pinned baseline a team shares or a CI checks against
 * (docs/pinning.md, "Baseline file"): every valid approval with its server
 * identity, pin and canonical definition. Import is strict (the one JSON
 * parser, every member checked, every pin recomputed from its definition)
 * and atomic: one transaction, nothing changes on any error.
 */
#include "store_int.h"

#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "json/canonical.h"
#include "json/writer.h"

#define BASELINE_FORMAT "mcpvet-baseline"
#define BASELINE_VERSION 1

/* --------------------------------------------------------------- export */

int mv_store_export(mv_store *st, mv_buf *out, mv_error *err) {
    int rc = MV_OK, r;
    mv_jw w;
    if (st == NULL || out == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_export needs a store and an output");
    /* One read transaction: a consistent snapshot even while others write. */
    if ((rc = st_exec(st, "BEGIN", err)) != MV_OK)
        return rc;
    sqlite3_stmt *s = st_prepare(
        st,
        "SELECT s.name, s.identity, s.transport, s.reached, t.kind, t.name, t.approved_pin,"
        " t.approved_definition, t.forced FROM servers s JOIN tools t ON t.server_id = s.id"
        " WHERE t.approved_pin IS NOT NULL AND t.approved_identity = s.identity"
        " ORDER BY s.name, t.kind, t.name",
        &rc, err);
    if (s == NULL)
        goto done;
    mv_jw_init(&w, out);
    mv_jw_obj_begin(&w, NULL);
    mv_jw_cstr(&w, "format", BASELINE_FORMAT);
    mv_jw_uint(&w, "version", BASELINE_VERSION);
    mv_jw_arr_begin(&w, "servers");
    char *current = NULL;
    size_t current_size = 0;
    while ((r = sqlite3_step(s)) == SQLITE_ROW) {
        const char *server = (const char *)sqlite3_column_text(s, 0);
        if (current == NULL || strcmp(current, server) != 0) {
            if (current != NULL) {
                mv_jw_arr_end(&w);
                mv_jw_obj_end(&w);
            }
            mv_free(st->alloc, current, current_size);
            current_size = strlen(server) + 1;
            current = mv_alloc(st->alloc, current_size);
            if (current == NULL) {
                rc = MV_ENOMEM;
                break;
            }
            memcpy(current, server, current_size);
            mv_jw_obj_begin(&w, NULL);
            mv_jw_cstr(&w, "name", server);
            mv_jw_cstr(&w, "identity", (const char *)sqlite3_column_text(s, 1));
            mv_jw_cstr(&w, "transport", (const char *)sqlite3_column_text(s, 2));
            mv_jw_cstr(&w, "reached", (const char *)sqlite3_column_text(s, 3));
            mv_jw_arr_begin(&w, "tools");
        }
        mv_jw_obj_begin(&w, NULL);
        mv_jw_cstr(&w, "kind", (const char *)sqlite3_column_text(s, 4));
        mv_jw_str(
            &w, "name",
            (mv_str){(const char *)sqlite3_column_text(s, 5), (size_t)sqlite3_column_bytes(s, 5)});
        mv_jw_cstr(&w, "pin", (const char *)sqlite3_column_text(s, 6));
        mv_jw_bool(&w, "forced", sqlite3_column_int(s, 8) != 0);
        /* The canonical text is valid compact JSON already. */
        mv_jw_raw(&w, "definition", (const char *)sqlite3_column_text(s, 7),
                  (size_t)sqlite3_column_bytes(s, 7));
        mv_jw_obj_end(&w);
        r = SQLITE_DONE;
    }
    if (rc == MV_OK && r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot read the approvals");
    if (current != NULL) {
        mv_jw_arr_end(&w);
        mv_jw_obj_end(&w);
    }
    mv_free(st->alloc, current, current_size);
    mv_jw_arr_end(&w);
    mv_jw_obj_end(&w);
    if (rc == MV_OK)
        rc = mv_jw_finish(&w);
done:
    sqlite3_finalize(s);
    st_rollback(st);
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "%s: out of memory exporting the baseline", st->path);
    return rc;
}

/* --------------------------------------------------------------- import */

typedef struct imp {
    mv_store *st;
    mv_error *err;
    const char *source;
    mv_arena *arena;
    mv_buf scratch;
} imp;

static int bad(imp *c, const char *where, const char *fmt, const char *detail) {
    mv_error_set(c->err, MV_EPARSE, fmt, detail);
    if (c->err != NULL) {
        snprintf(c->err->where, sizeof(c->err->where), "%s", where);
        snprintf(c->err->source, sizeof(c->err->source), "%s", c->source);
    }
    return MV_EPARSE;
}

/* A member's string as a NUL-terminated copy (parsed strings may point
 * into the document without a terminator); validate() made sure it is a
 * string without NUL bytes. */
static const char *cstr(imp *c, const mv_jv *obj, const char *key) {
    const mv_jv *v = mv_jobject_get(obj, key);
    return mv_arena_memdup(c->arena, mv_jstring(v), mv_jstring_len(v));
}

static bool is_hex64(const mv_jv *v) {
    if (!mv_jis_string(v) || mv_jstring_len(v) != 64)
        return false;
    const char *s = mv_jstring(v);
    for (size_t i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* Only the listed keys may appear. */
static int only_keys(imp *c, const mv_jv *obj, const char *const *keys, const char *where) {
    for (uint32_t i = 0; i < obj->n; i++) {
        bool known = false;
        for (size_t k = 0; keys[k] != NULL && !known; k++)
            known = strlen(keys[k]) == obj->u.members[i].key_len &&
                    memcmp(keys[k], obj->u.members[i].key, obj->u.members[i].key_len) == 0;
        if (!known) {
            char quoted[MV_JSON_QUOTE_SIZE(64)];
            mv_json_quote(quoted, obj->u.members[i].key, obj->u.members[i].key_len, 64);
            return bad(c, where, "unknown member %s", quoted);
        }
    }
    return MV_OK;
}

static int want_string(imp *c, const mv_jv *obj, const char *key, const char *where,
                       const mv_jv **out) {
    *out = mv_jobject_get(obj, key);
    if (!mv_jis_string(*out) || mv_jstring_len(*out) == 0 ||
        memchr(mv_jstring(*out), '\0', mv_jstring_len(*out)) != NULL)
        return bad(c, where, "\"%s\" must be a non-empty string", key);
    return MV_OK;
}

/* Upsert one approval; inside the transaction. */
static int import_tool(imp *c, int64_t server_id, const char *server, const char *identity,
                       const char *current_identity, const mv_jv *tool, const mv_tool_pin *pin,
                       const char *def, size_t def_len, int64_t now, mv_actor actor,
                       const char *reason) {
    int rc = MV_OK, r;
    mv_store *st = c->st;
    const char *kind = cstr(c, tool, "kind");
    const mv_jv *name = mv_jobject_get(tool, "name");
    if (kind == NULL)
        return MV_ENOMEM;
    bool forced = mv_jis(mv_jobject_get(tool, "forced"), MV_JTRUE);
    mv_str nm = {mv_jstring(name), mv_jstring_len(name)};
    sqlite3_stmt *s = st_prepare(st,
                                 "SELECT id, state, approved_pin, current_pin FROM tools"
                                 " WHERE server_id = ? AND kind = ? AND name = ?",
                                 &rc, c->err);
    if (s == NULL)
        return rc;
    sqlite3_bind_int64(s, 1, server_id);
    st_bind_text(s, 2, kind);
    st_bind_textn(s, 3, nm.ptr, nm.len);
    r = sqlite3_step(s);
    if (r == SQLITE_DONE) {
        sqlite3_finalize(s);
        s = st_prepare(st,
                       "INSERT INTO tools (server_id, kind, name, state, approved_pin,"
                       " approved_definition, approved_identity, forced, current_pin,"
                       " current_definition, body_hash, hash_name, hash_title, hash_description,"
                       " hash_input_schema, hash_output_schema, hash_annotations, first_seen,"
                       " last_seen, state_since)"
                       " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?5,?6,?9,?10,?11,?12,?13,?14,?15,?16,"
                       "?16,?16)",
                       &rc, c->err);
        if (s == NULL)
            return rc;
        mv_tool_state to =
            strcmp(identity, current_identity) == 0 ? MV_STATE_APPROVED : MV_STATE_CHANGED;
        sqlite3_bind_int64(s, 1, server_id);
        st_bind_text(s, 2, kind);
        st_bind_textn(s, 3, nm.ptr, nm.len);
        st_bind_text(s, 4, mv_tool_state_name(to));
        st_bind_text(s, 5, pin->pin);
        st_bind_textn(s, 6, def, def_len);
        st_bind_text(s, 7, identity);
        sqlite3_bind_int(s, 8, forced);
        st_bind_text(s, 9, pin->body);
        for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
            st_bind_text(s, 10 + k, pin->fields[k][0] != '\0' ? pin->fields[k] : NULL);
        sqlite3_bind_int64(s, 16, now);
        r = sqlite3_step(s);
        rc = r == SQLITE_DONE ? MV_OK : st_fail(st, c->err, r, "cannot import a tool");
        sqlite3_finalize(s);
        if (rc == MV_OK)
            rc = st_event(st, now, actor, server, kind, nm, MV_STATE_NONE, to, NULL, pin->pin,
                          reason, c->err);
        return rc;
    }
    if (r != SQLITE_ROW) {
        rc = st_fail(st, c->err, r, "cannot read the tools");
        sqlite3_finalize(s);
        return rc;
    }
    int64_t id = sqlite3_column_int64(s, 0);
    mv_tool_state from = mv_tool_state_parse((const char *)sqlite3_column_text(s, 1));
    const char *old_approved = (const char *)sqlite3_column_text(s, 2);
    bool same_current = strcmp((const char *)sqlite3_column_text(s, 3), pin->pin) == 0;
    char old_pin[MV_PIN_HEX] = "";
    if (old_approved != NULL)
        snprintf(old_pin, sizeof(old_pin), "%s", old_approved);
    sqlite3_finalize(s);
    mv_tool_state to = from;
    if (from != MV_STATE_QUARANTINED && from != MV_STATE_REMOVED)
        to = same_current && strcmp(identity, current_identity) == 0 ? MV_STATE_APPROVED
                                                                     : MV_STATE_CHANGED;
    s = st_prepare(st,
                   "UPDATE tools SET approved_pin = ?1, approved_definition = ?2,"
                   " approved_identity = ?3, forced = ?4, state = ?5,"
                   " state_since = CASE WHEN state = ?5 THEN state_since ELSE ?6 END"
                   " WHERE id = ?7",
                   &rc, c->err);
    if (s == NULL)
        return rc;
    st_bind_text(s, 1, pin->pin);
    st_bind_textn(s, 2, def, def_len);
    st_bind_text(s, 3, identity);
    sqlite3_bind_int(s, 4, forced);
    st_bind_text(s, 5, mv_tool_state_name(to));
    sqlite3_bind_int64(s, 6, now);
    sqlite3_bind_int64(s, 7, id);
    r = sqlite3_step(s);
    rc = r == SQLITE_DONE ? MV_OK : st_fail(st, c->err, r, "cannot import a tool");
    sqlite3_finalize(s);
    if (rc == MV_OK && (to != from || strcmp(old_pin, pin->pin) != 0))
        rc = st_event(st, now, actor, server, kind, nm, from, to,
                      old_pin[0] != '\0' ? old_pin : NULL, pin->pin, reason, c->err);
    return rc;
}

static int server_row(imp *c, const mv_jv *sv, int64_t now, int64_t *id, char *identity_out) {
    int rc = MV_OK, r;
    mv_store *st = c->st;
    const char *name = cstr(c, sv, "name");
    const char *identity = cstr(c, sv, "identity");
    const char *transport = cstr(c, sv, "transport");
    if (name == NULL || identity == NULL || transport == NULL)
        return MV_ENOMEM;
    sqlite3_stmt *s =
        st_prepare(st, "SELECT id, identity FROM servers WHERE name = ?", &rc, c->err);
    if (s == NULL)
        return rc;
    st_bind_text(s, 1, name);
    r = sqlite3_step(s);
    if (r == SQLITE_ROW) {
        *id = sqlite3_column_int64(s, 0);
        snprintf(identity_out, MV_PIN_HEX, "%s", (const char *)sqlite3_column_text(s, 1));
        sqlite3_finalize(s);
        return MV_OK;
    }
    sqlite3_finalize(s);
    if (r != SQLITE_DONE)
        return st_fail(st, c->err, r, "cannot read the servers");
    const mv_jv *reached = mv_jobject_get(sv, "reached");
    s = st_prepare(st,
                   "INSERT INTO servers (name, identity, transport, reached, first_seen,"
                   " last_seen) VALUES (?,?,?,?,?,?)",
                   &rc, c->err);
    if (s == NULL)
        return rc;
    st_bind_text(s, 1, name);
    st_bind_text(s, 2, identity);
    st_bind_text(s, 3, transport);
    st_bind_textn(s, 4, mv_jis_string(reached) ? mv_jstring(reached) : "", mv_jstring_len(reached));
    sqlite3_bind_int64(s, 5, now);
    sqlite3_bind_int64(s, 6, now);
    r = sqlite3_step(s);
    rc = r == SQLITE_DONE ? MV_OK : st_fail(st, c->err, r, "cannot import a server");
    sqlite3_finalize(s);
    *id = sqlite3_last_insert_rowid(st->db);
    snprintf(identity_out, MV_PIN_HEX, "%s", identity);
    return rc;
}

/* Check the whole document and pin every definition before any write. */
static int validate(imp *c, const mv_jv *doc, mv_tool_pin ***pins_out) {
    static const char *const top_keys[] = {"format", "version", "servers", NULL};
    static const char *const server_keys[] = {"name",    "identity", "transport",
                                              "reached", "tools",    NULL};
    static const char *const tool_keys[] = {"kind", "name", "pin", "forced", "definition", NULL};
    char where[256];
    int rc;
    if (!mv_jis_object(doc))
        return bad(c, "", "a baseline is a JSON object%s", "");
    if ((rc = only_keys(c, doc, top_keys, "")) != MV_OK)
        return rc;
    const mv_jv *format = mv_jobject_get(doc, "format");
    if (!mv_jis_string(format) || mv_jstring_len(format) != strlen(BASELINE_FORMAT) ||
        memcmp(mv_jstring(format), BASELINE_FORMAT, strlen(BASELINE_FORMAT)) != 0)
        return bad(c, "format", "\"format\" must be \"%s\"", BASELINE_FORMAT);
    const mv_jv *version = mv_jobject_get(doc, "version");
    if (!mv_jis(version, MV_JNUMBER) || version->n != 1 || version->u.s[0] != '1')
        return bad(c, "version", "\"version\" must be 1%s (a newer mcpvet wrote this file?)", "");
    const mv_jv *servers = mv_jobject_get(doc, "servers");
    if (!mv_jis_array(servers))
        return bad(c, "servers", "\"servers\" must be an array%s", "");
    mv_tool_pin **pins = mv_arena_calloc(c->arena, servers->n + 1, sizeof(*pins));
    if (pins == NULL)
        return MV_ENOMEM;
    for (uint32_t i = 0; i < servers->n; i++) {
        const mv_jv *sv = &servers->u.items[i];
        const mv_jv *v;
        snprintf(where, sizeof(where), "servers[%u]", i);
        if (!mv_jis_object(sv))
            return bad(c, where, "a server is an object%s", "");
        if ((rc = only_keys(c, sv, server_keys, where)) != MV_OK ||
            (rc = want_string(c, sv, "name", where, &v)) != MV_OK ||
            (rc = want_string(c, sv, "transport", where, &v)) != MV_OK)
            return rc;
        if (!is_hex64(mv_jobject_get(sv, "identity")))
            return bad(c, where, "\"identity\" must be 64 lowercase hex digits%s", "");
        v = mv_jobject_get(sv, "reached");
        if (v != NULL && !mv_jis_string(v))
            return bad(c, where, "\"reached\" must be a string%s", "");
        const mv_jv *name = mv_jobject_get(sv, "name");
        for (uint32_t j = 0; j < i; j++) {
            const mv_jv *other = mv_jobject_get(&servers->u.items[j], "name");
            if (mv_jstring_len(other) == mv_jstring_len(name) &&
                memcmp(mv_jstring(other), mv_jstring(name), mv_jstring_len(name)) == 0)
                return bad(c, where, "the server is listed twice%s", "");
        }
        const mv_jv *tools = mv_jobject_get(sv, "tools");
        if (!mv_jis_array(tools))
            return bad(c, where, "\"tools\" must be an array%s", "");
        pins[i] = mv_arena_calloc(c->arena, tools->n + 1, sizeof(**pins));
        if (pins[i] == NULL)
            return MV_ENOMEM;
        for (uint32_t j = 0; j < tools->n; j++) {
            const mv_jv *t = &tools->u.items[j];
            snprintf(where, sizeof(where), "servers[%u].tools[%u]", i, j);
            if (!mv_jis_object(t))
                return bad(c, where, "a tool is an object%s", "");
            if ((rc = only_keys(c, t, tool_keys, where)) != MV_OK ||
                (rc = want_string(c, t, "kind", where, &v)) != MV_OK)
                return rc;
            const char *kind = cstr(c, t, "kind");
            if (kind == NULL)
                return MV_ENOMEM;
            if (st_kind_parse(kind) < 0)
                return bad(c, where, "unknown \"kind\"%s", "");
            const mv_jv *tname = mv_jobject_get(t, "name");
            if (!mv_jis_string(tname) || mv_jstring_len(tname) == 0)
                return bad(c, where, "\"name\" must be a non-empty string%s", "");
            if (!is_hex64(mv_jobject_get(t, "pin")))
                return bad(c, where, "\"pin\" must be 64 lowercase hex digits%s", "");
            v = mv_jobject_get(t, "forced");
            if (v != NULL && !mv_jis(v, MV_JTRUE) && !mv_jis(v, MV_JFALSE))
                return bad(c, where, "\"forced\" must be true or false%s", "");
            const mv_jv *def = mv_jobject_get(t, "definition");
            if (!mv_jis_object(def))
                return bad(c, where, "\"definition\" must be an object%s", "");
            const mv_jv *dname = mv_jobject_get(def, "name");
            if (!mv_jis_string(dname) || mv_jstring_len(dname) != mv_jstring_len(tname) ||
                memcmp(mv_jstring(dname), mv_jstring(tname), mv_jstring_len(tname)) != 0)
                return bad(c, where, "the definition's name is not the tool's \"name\"%s", "");
            for (uint32_t k = 0; k < j; k++) {
                const mv_jv *o = &tools->u.items[k];
                const mv_jv *on = mv_jobject_get(o, "name"), *ok = mv_jobject_get(o, "kind");
                const mv_jv *tk = mv_jobject_get(t, "kind");
                if (mv_jstring_len(on) == mv_jstring_len(tname) &&
                    memcmp(mv_jstring(on), mv_jstring(tname), mv_jstring_len(tname)) == 0 &&
                    mv_jstring_len(ok) == mv_jstring_len(tk) &&
                    memcmp(mv_jstring(ok), mv_jstring(tk), mv_jstring_len(tk)) == 0)
                    return bad(c, where, "the tool is listed twice%s", "");
            }
            c->scratch.len = 0;
            if (mv_json_canonical(&c->scratch, def) != MV_OK)
                return MV_ENOMEM;
            mv_error perr;
            mv_error_clear(&perr);
            rc = mv_pin_tool(&pins[i][j], c->scratch.data, c->scratch.len, c->st->alloc, &perr);
            if (rc == MV_ENOMEM)
                return rc;
            if (rc != MV_OK)
                return bad(c, where, "bad definition: %s", perr.message);
            if (memcmp(pins[i][j].pin, mv_jstring(mv_jobject_get(t, "pin")), 64) != 0)
                return bad(c, where,
                           "\"pin\" is not the SHA-256 of the canonical definition%s (edited "
                           "file?)",
                           "");
        }
    }
    *pins_out = pins;
    return MV_OK;
}

int mv_store_import(mv_store *st, const char *data, size_t len, const char *source, mv_actor actor,
                    size_t *n_tools, mv_error *err) {
    int rc = MV_OK;
    bool began = false;
    imp c;
    mv_jerror je;
    const mv_jv *doc = NULL;
    mv_tool_pin **pins = NULL;
    mv_buf reason;
    size_t count = 0;

    memset(&c, 0, sizeof(c));
    mv_buf_init(&reason, NULL);
    if (n_tools != NULL)
        *n_tools = 0;
    if (st == NULL || (data == NULL && len > 0))
        return mv_error_set(err, MV_EINVAL, "mv_store_import needs a store and data");
    c.st = st;
    c.err = err;
    c.source = source != NULL ? source : "<baseline>";
    mv_buf_init(&c.scratch, st->alloc);
    mv_buf_init(&reason, st->alloc);
    c.arena = mv_arena_new(st->alloc, len < 65536 ? 65536 : len);
    if (c.arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (mv_json_parse(&doc, c.arena, st->alloc, data, len, &je) != MV_OK) {
        if (je.code == MV_ENOMEM) {
            rc = MV_ENOMEM;
            goto done;
        }
        rc = mv_error_set(err, MV_EPARSE, "%s", je.message);
        if (err != NULL) {
            err->offset = je.offset;
            /* line and column of the offset */
            int line = 1, col = 1;
            for (size_t i = 0; i < je.offset && i < len; i++) {
                if (data[i] == '\n') {
                    line++;
                    col = 1;
                } else if (((unsigned char)data[i] & 0xC0) != 0x80) {
                    col++;
                }
            }
            err->line = line;
            err->column = col;
            snprintf(err->source, sizeof(err->source), "%s", c.source);
        }
        goto done;
    }
    if ((rc = validate(&c, doc, &pins)) != MV_OK)
        goto done;
    mv_buf_printf(&reason, "imported from %s", c.source);
    if (reason.failed) {
        rc = MV_ENOMEM;
        goto done;
    }
    int64_t now = st_now(st);
    if ((rc = st_begin(st, err)) != MV_OK)
        goto done;
    began = true;
    const mv_jv *servers = mv_jobject_get(doc, "servers");
    for (uint32_t i = 0; i < servers->n && rc == MV_OK; i++) {
        const mv_jv *sv = &servers->u.items[i];
        const mv_jv *tools = mv_jobject_get(sv, "tools");
        const char *identity = cstr(&c, sv, "identity");
        const char *server_name = cstr(&c, sv, "name");
        char current_identity[MV_PIN_HEX];
        if (identity == NULL || server_name == NULL) {
            rc = MV_ENOMEM;
            break;
        }
        int64_t server_id = 0;
        if ((rc = server_row(&c, sv, now, &server_id, current_identity)) != MV_OK)
            break;
        for (uint32_t j = 0; j < tools->n && rc == MV_OK; j++) {
            const mv_jv *def = mv_jobject_get(&tools->u.items[j], "definition");
            c.scratch.len = 0;
            if (mv_json_canonical(&c.scratch, def) != MV_OK) {
                rc = MV_ENOMEM;
                break;
            }
            rc = import_tool(&c, server_id, server_name, identity, current_identity,
                             &tools->u.items[j], &pins[i][j], c.scratch.data, c.scratch.len, now,
                             actor, reason.data);
            count++;
        }
    }
    if (rc == MV_OK) {
        began = false;
        rc = st_commit(st, err);
    }
done:
    if (began)
        st_rollback(st);
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "%s: out of memory importing %s", st->path, c.source);
    if (rc == MV_OK && n_tools != NULL)
        *n_tools = count;
    mv_buf_release(&reason);
    mv_buf_release(&c.scratch);
    mv_arena_free(c.arena);
    return rc;
}
