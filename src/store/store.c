/*
 * The approval store's file: where it lives, how it is created (0600 in a
 * 0700 directory) and kept private (an existing file others can read is
 * made 0600; one others can write is refused), how a file that is not ours is recognised before
 * SQLite touches it (so a corrupt or foreign file is reported and never changed), the schema and
 * its forward migrations (PRAGMA user_version), and the small SQLite helpers the other parts share.
 * Also the state machine of a scan, kept here as one pure function so every caller decides the same
 * way.
 */
#include "store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------- names */

const char *mv_tool_state_name(mv_tool_state s) {
    static const char *const names[] = {"none",    "pending",     "approved",
                                        "changed", "quarantined", "removed"};
    return (unsigned)s <= MV_STATE_REMOVED ? names[s] : "none";
}

mv_tool_state mv_tool_state_parse(const char *s) {
    if (s == NULL)
        return MV_STATE_NONE;
    for (int i = MV_STATE_PENDING; i <= MV_STATE_REMOVED; i++)
        if (strcmp(s, mv_tool_state_name((mv_tool_state)i)) == 0)
            return (mv_tool_state)i;
    return MV_STATE_NONE;
}

const char *mv_actor_name(mv_actor a) {
    static const char *const names[] = {"cli", "rest", "mcp", "proxy", "web"};
    return (unsigned)a <= MV_ACTOR_WEB ? names[a] : "cli";
}

int st_kind_parse(const char *s) {
    for (int k = 0; k < MV_ITEM_KIND_COUNT && s != NULL; k++)
        if (strcmp(s, mv_item_kind_name((mv_item_kind)k)) == 0)
            return k;
    return -1;
}

/* -------------------------------------------------------- state machine */

mv_tool_state st_decide(const st_decide_in *in) {
    if (in->state == MV_STATE_NONE)
        return in->quarantine ? MV_STATE_QUARANTINED : MV_STATE_PENDING;
    /* A returning tool is judged from the state it had when it vanished. */
    mv_tool_state base = in->state == MV_STATE_REMOVED ? in->previous : in->state;
    if (base == MV_STATE_QUARANTINED && in->manual_quarantine)
        return MV_STATE_QUARANTINED; /* a person's decision; only a person lifts it */
    if (in->match && in->forced)
        return MV_STATE_APPROVED; /* forced past exactly these findings at this pin */
    if (in->quarantine)
        return MV_STATE_QUARANTINED;
    if (in->match)
        return MV_STATE_APPROVED; /* unchanged, or changed back to what was approved */
    if (in->has_approval)
        return MV_STATE_CHANGED;
    return MV_STATE_PENDING;
}

/* ----------------------------------------------------------- helpers */

int64_t st_now(const mv_store *st) {
    return st->clock != NULL ? st->clock(st->clock_arg) : (int64_t)time(NULL);
}

int st_fail(mv_store *st, mv_error *err, int sqlrc, const char *what) {
    int code;
    const char *msg = st->db != NULL ? sqlite3_errmsg(st->db) : sqlite3_errstr(sqlrc);
    switch (sqlrc & 0xFF) {
    case SQLITE_NOMEM:
        code = MV_ENOMEM;
        break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        code = MV_ECORRUPT;
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return mv_error_set(err, MV_EIO,
                            "%s: %s: the store is locked by another process (waited %u ms)",
                            st->path, what, st->busy_ms);
    case SQLITE_CONSTRAINT:
        code = MV_EINVAL;
        break;
    default:
        code = MV_EIO;
        break;
    }
    return mv_error_set(err, code, "%s: %s: %s", st->path, what, msg);
}

int st_exec(mv_store *st, const char *sql, mv_error *err) {
    int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? MV_OK : st_fail(st, err, rc, "cannot update the store");
}

int st_begin(mv_store *st, mv_error *err) {
    int rc =
        sqlite3_exec(st->db, st->batch ? "SAVEPOINT mv_op" : "BEGIN IMMEDIATE", NULL, NULL, NULL);
    return rc == SQLITE_OK ? MV_OK : st_fail(st, err, rc, "cannot start a transaction");
}

int st_commit(mv_store *st, mv_error *err) {
    int rc = sqlite3_exec(st->db, st->batch ? "RELEASE mv_op" : "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        return MV_OK;
    int code = st_fail(st, err, rc, "cannot commit");
    st_rollback(st);
    return code;
}

void st_rollback(mv_store *st) {
    if (st->batch)
        sqlite3_exec(st->db, "ROLLBACK TO mv_op; RELEASE mv_op", NULL, NULL, NULL);
    else if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

int mv_store_batch_begin(mv_store *st, mv_error *err) {
    if (st == NULL || st->batch)
        return mv_error_set(err, MV_EINVAL, "a store batch is already open");
    int rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return st_fail(st, err, rc, "cannot start a transaction");
    st->batch = true;
    return MV_OK;
}

int mv_store_batch_end(mv_store *st, bool commit, mv_error *err) {
    if (st == NULL || !st->batch)
        return mv_error_set(err, MV_EINVAL, "no store batch is open");
    st->batch = false;
    if (!commit) {
        if (!sqlite3_get_autocommit(st->db))
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        return MV_OK;
    }
    return st_commit(st, err);
}

sqlite3_stmt *st_prepare(mv_store *st, const char *sql, int *rc, mv_error *err) {
    sqlite3_stmt *s = NULL;
    int r = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
    if (r != SQLITE_OK) {
        *rc = st_fail(st, err, r, "cannot read the store");
        sqlite3_finalize(s);
        return NULL;
    }
    return s;
}

int st_bind_text(sqlite3_stmt *s, int i, const char *text) {
    return text == NULL ? sqlite3_bind_null(s, i)
                        : sqlite3_bind_text(s, i, text, -1, SQLITE_STATIC);
}

int st_bind_textn(sqlite3_stmt *s, int i, const char *text, size_t len) {
    if (text == NULL)
        return sqlite3_bind_null(s, i);
    return sqlite3_bind_text64(s, i, text, (sqlite3_uint64)len, SQLITE_STATIC, SQLITE_UTF8);
}

const char *st_col_dup(mv_arena *arena, sqlite3_stmt *s, int col, bool *oom) {
    const unsigned char *t = sqlite3_column_text(s, col);
    if (t == NULL)
        return NULL;
    char *p = mv_arena_memdup(arena, t, (size_t)sqlite3_column_bytes(s, col));
    if (p == NULL)
        *oom = true;
    return p;
}

int st_event(mv_store *st, int64_t time, mv_actor actor, const char *server, const char *kind,
             mv_str tool, mv_tool_state old_state, mv_tool_state new_state, const char *old_pin,
             const char *new_pin, const char *reason, mv_error *err) {
    int rc = MV_OK;
    if (st->event_stmt == NULL) {
        int r = sqlite3_prepare_v3(st->db,
                                   "INSERT INTO events (time, actor, server, kind, tool, old_state,"
                                   " new_state, old_pin, new_pin, reason)"
                                   " VALUES (?,?,?,?,?,?,?,?,?,?)",
                                   -1, SQLITE_PREPARE_PERSISTENT, &st->event_stmt, NULL);
        if (r != SQLITE_OK)
            return st_fail(st, err, r, "cannot append to the audit log");
    }
    sqlite3_stmt *s = st->event_stmt;
    sqlite3_bind_int64(s, 1, time);
    st_bind_text(s, 2, mv_actor_name(actor));
    st_bind_text(s, 3, server);
    st_bind_text(s, 4, kind);
    st_bind_textn(s, 5, tool.ptr, tool.len);
    st_bind_text(s, 6, old_state == MV_STATE_NONE ? NULL : mv_tool_state_name(old_state));
    st_bind_text(s, 7, new_state == MV_STATE_NONE ? NULL : mv_tool_state_name(new_state));
    st_bind_text(s, 8, old_pin);
    st_bind_text(s, 9, new_pin);
    st_bind_text(s, 10, reason);
    int r = sqlite3_step(s);
    if (r != SQLITE_DONE)
        rc = st_fail(st, err, r, "cannot append to the audit log");
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc;
}

/* ------------------------------------------------------------- schema */

/*
 * Migrations: migrations[i] takes a store from version i to i + 1. Version
 * 1 is the first schema; a future version appends a step here, and the
 * open path runs every missing step in one transaction. tests/unit/data/
 * store/v1.sql is the frozen copy of version 1 the migration test opens.
 */
static const char *const migrations[] = {
    /* 0 -> 1 */
    "CREATE TABLE servers ("
    " id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL UNIQUE,"
    " identity TEXT NOT NULL,"
    " transport TEXT NOT NULL,"
    " reached TEXT NOT NULL,"
    " previous_reached TEXT,"
    " first_seen INTEGER NOT NULL,"
    " last_seen INTEGER NOT NULL);"
    "CREATE TABLE tools ("
    " id INTEGER PRIMARY KEY,"
    " server_id INTEGER NOT NULL REFERENCES servers(id) ON DELETE CASCADE,"
    " kind TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " state TEXT NOT NULL CHECK (state IN"
    "  ('pending','approved','changed','quarantined','removed')),"
    " previous_state TEXT,"
    " approved_pin TEXT,"
    " approved_definition TEXT,"
    " approved_identity TEXT,"
    " forced INTEGER NOT NULL DEFAULT 0,"
    " manual_quarantine INTEGER NOT NULL DEFAULT 0,"
    " current_pin TEXT NOT NULL,"
    " current_definition TEXT NOT NULL,"
    " body_hash TEXT NOT NULL,"
    " hash_name TEXT, hash_title TEXT, hash_description TEXT,"
    " hash_input_schema TEXT, hash_output_schema TEXT, hash_annotations TEXT,"
    " verdict TEXT,"
    " findings TEXT,"
    " renamed_from TEXT,"
    " first_seen INTEGER NOT NULL,"
    " last_seen INTEGER NOT NULL,"
    " state_since INTEGER NOT NULL,"
    " UNIQUE (server_id, kind, name));"
    "CREATE TABLE events ("
    " id INTEGER PRIMARY KEY,"
    " time INTEGER NOT NULL,"
    " actor TEXT NOT NULL,"
    " server TEXT NOT NULL,"
    " kind TEXT,"
    " tool TEXT,"
    " old_state TEXT,"
    " new_state TEXT,"
    " old_pin TEXT,"
    " new_pin TEXT,"
    " reason TEXT);"
    "CREATE INDEX events_by_tool ON events (server, tool, id);",
    /* 1 -> 2: the review queue at 50,000 tools (issue 16). Counting and
     * paging the queue by state, newest first, reads this index alone
     * instead of every row with its definitions. */
    "CREATE INDEX tools_queue ON tools (state, state_since, server_id, kind, name, verdict);",
};

#define N_MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))
_Static_assert(N_MIGRATIONS == MV_STORE_SCHEMA_VERSION, "one migration per schema version");

static int pragma_int(mv_store *st, const char *sql, int64_t *out, mv_error *err) {
    int rc = MV_OK;
    sqlite3_stmt *s = st_prepare(st, sql, &rc, err);
    if (s == NULL)
        return rc;
    int r = sqlite3_step(s);
    if (r == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    else
        rc = st_fail(st, err, r, "cannot read the store header");
    sqlite3_finalize(s);
    return rc;
}

/* Bring a fresh or older store to MV_STORE_SCHEMA_VERSION, all in one
 * transaction; decided again under the write lock, since another process
 * may have initialised or migrated the file meanwhile. */
static int migrate(mv_store *st, mv_error *err) {
    int64_t app = 0, version = 0, objects = 0;
    int rc = st_begin(st, err);
    if (rc != MV_OK)
        return rc;
    if ((rc = pragma_int(st, "PRAGMA application_id", &app, err)) != MV_OK ||
        (rc = pragma_int(st, "PRAGMA user_version", &version, err)) != MV_OK ||
        (rc = pragma_int(st, "SELECT count(*) FROM sqlite_master", &objects, err)) != MV_OK)
        goto done;
    if (app == 0 && version == 0 && objects == 0) {
        char sql[64];
        snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", MV_STORE_APPLICATION_ID);
        if ((rc = st_exec(st, sql, err)) != MV_OK)
            goto done;
    } else if (app != MV_STORE_APPLICATION_ID) {
        rc = mv_error_set(err, MV_ECORRUPT,
                          "%s is not an mcpvet store (an SQLite database of another application); "
                          "it was left unchanged",
                          st->path);
        goto done;
    }
    if (version > MV_STORE_SCHEMA_VERSION) {
        rc = mv_error_set(err, MV_EUNSUPPORTED,
                          "%s was written by a newer mcpvet (store version %lld; this mcpvet "
                          "knows up to version %d); it was left unchanged",
                          st->path, (long long)version, MV_STORE_SCHEMA_VERSION);
        goto done;
    }
    for (int64_t v = version; v < MV_STORE_SCHEMA_VERSION; v++)
        if ((rc = st_exec(st, migrations[v], err)) != MV_OK)
            goto done;
    if (version < MV_STORE_SCHEMA_VERSION) {
        char sql[64];
        snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", MV_STORE_SCHEMA_VERSION);
        rc = st_exec(st, sql, err);
    }
done:
    if (rc == MV_OK)
        return st_commit(st, err);
    st_rollback(st);
    return rc;
}

/* ------------------------------------------------------------- paths */

int mv_store_default_path(mv_buf *out, const char *(*getenv_fn)(void *arg, const char *name),
                          void *getenv_arg) {
    const char *state =
        getenv_fn != NULL ? getenv_fn(getenv_arg, "XDG_STATE_HOME") : getenv("XDG_STATE_HOME");
    if (state != NULL && state[0] == '/') {
        mv_buf_puts(out, state);
        mv_buf_puts(out, "/mcpvet/store.db");
    } else {
        const char *home = getenv_fn != NULL ? getenv_fn(getenv_arg, "HOME") : getenv("HOME");
        if (home == NULL || home[0] != '/')
            return MV_EINVAL;
        mv_buf_puts(out, home);
        mv_buf_puts(out, "/.local/state/mcpvet/store.db");
    }
    return out->failed ? MV_ENOMEM : MV_OK;
}

/* mkdir -p of the directory part of `path`, new directories 0700. */
static int make_parents(char *path, mv_error *err) {
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int r = mkdir(path, 0700);
        int e = errno;
        *p = '/';
        if (r != 0 && e != EEXIST) {
            *p = '\0';
            mv_error_set(err, MV_EIO, "cannot create the directory %s: %s", path, strerror(e));
            *p = '/';
            return MV_EIO;
        }
    }
    return MV_OK;
}

/* The store and its WAL hold every approval and definition: only their
 * owner may read or change them. A file others can read (an empty file
 * made with the usual umask and given as --store, a store copied with cp)
 * is made 0600 before anything is written to it. A non-empty file others
 * can write is refused: anyone could have changed its approvals, so it is
 * for a person to check it (nothing is changed). `path` names `fd`, whose
 * status is `sb`. */
static int keep_private(int fd, const struct stat *sb, const char *path, mv_error *err) {
    mode_t perm = sb->st_mode & 07777;
    if ((perm & 077) == 0)
        return MV_OK;
    if ((perm & 022) != 0 && sb->st_size > 0)
        return mv_error_set(err, MV_EINVAL,
                            "%s can be written by other users (mode %04o): anyone could have "
                            "changed its approvals; it was left unchanged (check it, then "
                            "chmod 600 it)",
                            path, (unsigned)perm);
    if (fchmod(fd, 0600) != 0)
        return mv_error_set(err, MV_EIO,
                            "%s can be read by other users (mode %04o) and cannot be made "
                            "private: %s",
                            path, (unsigned)perm, strerror(errno));
    return MV_OK;
}

/* The same for the store's WAL and shared-memory files when they exist
 * (SQLite gives new ones the database's mode). */
static int keep_sidecars_private(const char *path, mv_error *err) {
    static const char *const suffix[] = {"-wal", "-shm"};
    char p[4096 + 8];
    int rc = MV_OK;
    for (size_t i = 0; i < 2 && rc == MV_OK; i++) {
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
        if (fd < 0)
            continue; /* none yet (or not ours to look at: SQLite will say) */
        struct stat sb;
        if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
            rc = keep_private(fd, &sb, p, err);
        close(fd);
    }
    return rc;
}

/* Look at the file before SQLite does. *fresh = empty (new, or everything
 * still in its WAL). A file that is not SQLite, or SQLite carrying another
 * application_id, is refused here so SQLite never opens (and never
 * rewrites) it. */
static int check_header(mv_store *st, bool *fresh, mv_error *err) {
    unsigned char h[100];
    struct stat sb;
    /* O_NONBLOCK: opening a FIFO nobody writes to must not wait forever
     * (it is refused below); a regular file reads as usual. */
    int fd = open(st->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return mv_error_set(err, errno == ENOENT ? MV_ENOTFOUND : MV_EIO, "cannot open %s: %s",
                            st->path, strerror(errno));
    int rc = MV_OK;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        rc = mv_error_set(err, MV_ECORRUPT, "%s is not a regular file", st->path);
        goto done;
    }
    if ((rc = keep_private(fd, &sb, st->path, err)) != MV_OK)
        goto done;
    *fresh = sb.st_size == 0;
    if (*fresh)
        goto done;
    ssize_t got = read(fd, h, sizeof(h));
    if (got < (ssize_t)sizeof(h) || memcmp(h, "SQLite format 3", 16) != 0) {
        rc = mv_error_set(err, MV_ECORRUPT,
                          "%s is not an mcpvet store (not an SQLite database; corrupt or another "
                          "kind of file); it was left unchanged",
                          st->path);
        goto done;
    }
    uint32_t app = (uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 | h[71];
    /* application_id 0: an empty database another process is just
     * initialising (its schema still in the WAL), or someone else's; SQLite
     * tells the two apart read-only (mv_store_open). */
    *fresh = app == 0;
    if (app != MV_STORE_APPLICATION_ID && app != 0)
        rc = mv_error_set(err, MV_ECORRUPT,
                          "%s is not an mcpvet store (an SQLite database of another application, "
                          "application_id 0x%08x); it was left unchanged",
                          st->path, (unsigned)app);
done:
    close(fd);
    return rc;
}

static int set_wal(mv_store *st, mv_error *err) {
    /* Switching a fresh file to WAL takes a lock the busy handler does not
     * always cover; retry within the busy timeout. */
    for (uint32_t waited = 0;; waited += 10) {
        sqlite3_stmt *s = NULL;
        int r = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &s, NULL);
        if (r == SQLITE_OK)
            r = sqlite3_step(s);
        bool wal = r == SQLITE_ROW && sqlite3_column_text(s, 0) != NULL &&
                   strcmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
        sqlite3_finalize(s);
        if (wal)
            return MV_OK;
        if ((r != SQLITE_BUSY && r != SQLITE_LOCKED && r != SQLITE_ROW) || waited >= st->busy_ms)
            return st_fail(st, err, r == SQLITE_ROW ? SQLITE_ERROR : r,
                           "cannot switch the store to WAL mode");
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int mv_store_open(mv_store **out, const char *path, const mv_store_options *opts, mv_error *err) {
    int rc = MV_OK;
    mv_store *st = NULL;
    mv_buf def;
    const mv_allocator *a = opts != NULL ? opts->allocator : NULL;
    mv_buf_init(&def, a);

    if (out == NULL)
        return mv_error_set(err, MV_EINVAL, "mv_store_open needs an output");
    *out = NULL;
    bool is_default = path == NULL;
    if (is_default) {
        rc = mv_store_default_path(&def, NULL, NULL);
        if (rc == MV_EINVAL)
            mv_error_set(err, rc,
                         "no store path: neither XDG_STATE_HOME nor HOME is an absolute "
                         "path (use --store PATH)");
        if (rc != MV_OK)
            goto done;
        path = def.data;
    }
    if (path[0] == '\0') {
        rc = mv_error_set(err, MV_EINVAL, "the store path is empty");
        goto done;
    }
    st = mv_calloc(a, 1, sizeof(*st));
    if (st == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    st->alloc = a;
    st->busy_ms = opts != NULL && opts->busy_timeout_ms > 0 ? opts->busy_timeout_ms
                                                            : MV_STORE_DEFAULT_BUSY_TIMEOUT_MS;
    st->clock = opts != NULL ? opts->clock : NULL;
    st->clock_arg = opts != NULL ? opts->clock_arg : NULL;
    st->path_size = strlen(path) + 1;
    st->path = mv_alloc(a, st->path_size);
    if (st->path == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    memcpy(st->path, path, st->path_size);

    struct stat sb;
    if (stat(st->path, &sb) != 0) {
        if (errno != ENOENT) {
            rc = mv_error_set(err, MV_EIO, "cannot open %s: %s", st->path, strerror(errno));
            goto done;
        }
        if (opts == NULL || !opts->create) {
            rc = mv_error_set(err, MV_ENOTFOUND, "no store at %s", st->path);
            goto done;
        }
        if (is_default && (rc = make_parents(st->path, err)) != MV_OK)
            goto done;
        int fd = open(st->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0 && errno != EEXIST) {
            rc = mv_error_set(err, MV_EIO, "cannot create %s: %s", st->path, strerror(errno));
            goto done;
        }
        if (fd >= 0)
            close(fd);
    }
    bool fresh = false;
    if ((rc = check_header(st, &fresh, err)) != MV_OK ||
        (rc = keep_sidecars_private(st->path, err)) != MV_OK)
        goto done;

    int r = sqlite3_open_v2(st->path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (r != SQLITE_OK) {
        rc = st_fail(st, err, r, "cannot open the store");
        goto done;
    }
    sqlite3_extended_result_codes(st->db, 1);
    sqlite3_busy_timeout(st->db, (int)st->busy_ms);

    /* Read-only checks first: nothing is written to a file that is not ours.
     * An empty SQLite database (no schema, no ids) holds nothing to lose and
     * is initialised; anything else must carry our application_id. */
    int64_t app = 0, version = 0, objects = 0;
    /* One read transaction, so the three answers come from one snapshot:
     * read one by one, another process's first commit could land between
     * them (no id yet, then its tables) and look like a foreign database. */
    if ((rc = st_exec(st, "BEGIN", err)) != MV_OK)
        goto done;
    if ((rc = pragma_int(st, "PRAGMA application_id", &app, err)) != MV_OK ||
        (rc = pragma_int(st, "PRAGMA user_version", &version, err)) != MV_OK ||
        (fresh && app == 0 &&
         (rc = pragma_int(st, "SELECT count(*) FROM sqlite_master", &objects, err)) != MV_OK)) {
        st_rollback(st);
        goto done;
    }
    if ((rc = st_exec(st, "COMMIT", err)) != MV_OK)
        goto done;
    if (app != MV_STORE_APPLICATION_ID && !(fresh && app == 0 && version == 0 && objects == 0)) {
        rc = mv_error_set(err, MV_ECORRUPT,
                          "%s is not an mcpvet store (an SQLite database of another "
                          "application, application_id 0x%08llx); it was left unchanged",
                          st->path, (unsigned long long)app);
        goto done;
    }
    if (version > MV_STORE_SCHEMA_VERSION) {
        rc = mv_error_set(err, MV_EUNSUPPORTED,
                          "%s was written by a newer mcpvet (store version %lld; this mcpvet "
                          "knows up to version %d); it was left unchanged",
                          st->path, (long long)version, MV_STORE_SCHEMA_VERSION);
        goto done;
    }
    if ((rc = set_wal(st, err)) != MV_OK ||
        (rc = st_exec(st, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON", err)) != MV_OK)
        goto done;
    if (version < MV_STORE_SCHEMA_VERSION && (rc = migrate(st, err)) != MV_OK)
        goto done;
    *out = st;
    st = NULL;

done:
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "out of memory opening the store");
    mv_store_close(st);
    mv_buf_release(&def);
    return rc;
}

void mv_store_close(mv_store *st) {
    if (st == NULL)
        return;
    /* Statements exist only on an open database; a store that never got
     * that far (no file: a scan without one) must not load SQLite here. */
    if (st->db != NULL) {
        sqlite3_finalize(st->event_stmt);
        st_scan_stmts_free(st);
        sqlite3_close_v2(st->db);
    }
    mv_free(st->alloc, st->path, st->path_size);
    mv_free(st->alloc, st, sizeof(*st));
}

const char *mv_store_path(const mv_store *st) {
    return st != NULL ? st->path : NULL;
}
