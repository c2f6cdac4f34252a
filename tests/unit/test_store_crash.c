/*
 * The approval store under kill -9 with concurrent writers: each round
 * starts three processes writing one store at once and kills all three
 * with SIGKILL at a random moment (20 to 200 ms in), then checks the file:
 *   - approver: approves the pending tools of server "big" one per
 *     transaction and, after each commit, appends the tool's name to its
 *     own log (a plain file: it survives the process);
 *   - toggler: approves (with force) and quarantines every tool of "tog"
 *     in turn, whole-server decisions;
 *   - scanner: applies scans of "churn" whose definitions change every
 *     time (approved tools become changed) and approves them again.
 * After every round: the store opens, PRAGMA integrity_check and
 * foreign_key_check are clean, every approval the approver logged as
 * committed is there and whole (approved pin = current pin, approved
 * definition = current definition), each approved tool of "big" has
 * exactly one approval event, every tool's state is the new state of its
 * last audit event, no tool is lost, and approvals only grow.
 *
 * Rounds: MCPVET_CRASH_ROUNDS (default 40 here, so `make test` stays
 * short on a loaded machine; `make stress` runs 200).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mcpvet/store.h"

#define BIG 3000
#define TOG 40
#define CHURN 20

static char dir[256], store_path[512], log_path[512];

static void rm_dir(void) {
    char p[600];
    static const char *const names[] = {"store.db", "store.db-wal", "store.db-shm",
                                        "store.db-journal", "approved.log"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void seed_server(mv_store *st, const char *server, int n, int round) {
    mv_scan_item *items = calloc((size_t)n, sizeof(*items));
    char(*names)[16] = calloc((size_t)n, 16);
    char(*defs)[80] = calloc((size_t)n, 80);
    mv_error err;
    assert_non_null(items);
    for (int i = 0; i < n; i++) {
        snprintf(names[i], 16, "t%05d", i);
        snprintf(defs[i], 80, "{\"description\":\"Tool %d, round %d.\",\"name\":\"%s\"}", i,
                 round, names[i]);
        items[i] = (mv_scan_item){.name = {names[i], strlen(names[i])},
                                  .definition = {defs[i], strlen(defs[i])}};
    }
    mv_scan_server sv = {.ident = {.name = server, .transport = "stdio", .command = server},
                         .items = items,
                         .n_items = (size_t)n};
    if (mv_store_apply_scan(st, &sv, 1, round, MV_ACTOR_CLI, NULL, &err) != MV_OK) {
        fprintf(stderr, "apply_scan %s: %s\n", server, err.message);
        _exit(4);
    }
    free(items);
    free(names);
    free(defs);
}

static mv_store *child_open(void) {
    mv_store *st = NULL;
    mv_error err;
    mv_store_options o = {.busy_timeout_ms = 60000};
    if (mv_store_open(&st, store_path, &o, &err) != MV_OK) {
        fprintf(stderr, "child open: %s\n", err.message);
        _exit(3);
    }
    return st;
}

/* Bytes in the approver's log so far (0 before it exists). */
static off_t log_size(void) {
    struct stat st;
    return stat(log_path, &st) == 0 ? st.st_size : 0;
}

static void approver(void) {
    mv_store *st = child_open();
    mv_store_tool_list *l = NULL;
    mv_store_filter f = {.server = "big", .state = MV_STATE_PENDING};
    mv_error err;
    int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0 || mv_store_list(st, &f, &l, &err) != MV_OK)
        _exit(4);
    for (size_t i = 0; i < l->n; i++) {
        const char *one[] = {l->tools[i].name};
        char line[64];
        if (mv_store_approve(st, "big", one, 1, false, MV_ACTOR_CLI, NULL, NULL, &err) != MV_OK)
            _exit(5);
        int n = snprintf(line, sizeof line, "%s\n", one[0]);
        if (write(fd, line, (size_t)n) != n)
            _exit(6);
    }
    _exit(0);
}

static void toggler(void) {
    mv_store *st = child_open();
    mv_error err;
    for (int i = 0; i < 1000000; i++) {
        int rc = (i % 2 == 0) ? mv_store_approve(st, "tog", NULL, 0, true, MV_ACTOR_CLI, "t",
                                                 NULL, &err)
                              : mv_store_quarantine(st, "tog", NULL, 0, MV_ACTOR_CLI, "t", NULL,
                                                    &err);
        if (rc != MV_OK) {
            fprintf(stderr, "toggler: %s\n", err.message);
            _exit(5);
        }
    }
    _exit(0);
}

static void scanner(unsigned seed) {
    mv_store *st = child_open();
    mv_error err;
    for (int i = 0; i < 1000000; i++) {
        seed_server(st, "churn", CHURN, (int)(seed % 1000u) * 1000 + i);
        if (mv_store_approve(st, "churn", NULL, 0, false, MV_ACTOR_CLI, NULL, NULL, &err) != MV_OK) {
            fprintf(stderr, "scanner: %s\n", err.message);
            _exit(5);
        }
    }
    _exit(0);
}

static long query_long(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    long v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

/* Every name the approver logged is approved and whole. */
static void check_logged(sqlite3 *db) {
    FILE *f = fopen(log_path, "r");
    char line[64];
    sqlite3_stmt *s = NULL;
    if (f == NULL)
        return; /* nothing committed yet */
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT t.state = 'approved' AND t.approved_pin IS NOT NULL"
                                        " AND t.approved_pin = t.current_pin"
                                        " AND t.approved_definition = t.current_definition"
                                        " FROM tools t JOIN servers s ON s.id = t.server_id"
                                        " WHERE s.name = 'big' AND t.name = ?1",
                                        -1, &s, NULL),
                     SQLITE_OK);
    while (fgets(line, sizeof line, f) != NULL) {
        size_t n = strlen(line);
        if (n == 0 || line[n - 1] != '\n')
            break; /* the last line of a killed writer may be cut */
        line[n - 1] = '\0';
        sqlite3_bind_text(s, 1, line, -1, SQLITE_TRANSIENT);
        assert_int_equal(sqlite3_step(s), SQLITE_ROW);
        if (sqlite3_column_int(s, 0) != 1)
            fail_msg("logged approval of big/%s is lost or half-written", line);
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    fclose(f);
}

static void check_store(long *approved) {
    mv_store *st = NULL;
    mv_error err;
    if (mv_store_open(&st, store_path, NULL, &err) != MV_OK)
        fail_msg("reopen: %s", err.message);
    mv_store_close(st);
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    assert_int_equal(sqlite3_open_v2(store_path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "ok");
    sqlite3_finalize(s);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    check_logged(db);
    long a = query_long(db, "SELECT count(*) FROM tools t JOIN servers s ON s.id = t.server_id"
                            " WHERE s.name = 'big' AND t.state = 'approved'");
    long once = query_long(db, "SELECT count(*) FROM tools t JOIN servers s ON s.id = t.server_id"
                               " WHERE s.name = 'big' AND t.state = 'approved' AND"
                               " (SELECT count(*) FROM events e WHERE e.server = 'big' AND"
                               "  e.tool = t.name AND e.new_state = 'approved') <> 1");
    /* The audit log matches the state: each tool's state is the new state
     * of its last event. */
    long mismatch = query_long(db, "SELECT count(*) FROM tools t JOIN servers s ON"
                                   " s.id = t.server_id WHERE t.state IS NOT (SELECT e.new_state"
                                   " FROM events e WHERE e.server = s.name AND e.tool = t.name"
                                   " ORDER BY e.id DESC LIMIT 1)");
    long total = query_long(db, "SELECT count(*) FROM tools");
    sqlite3_close(db);
    assert_int_equal(once, 0);
    if (mismatch != 0)
        fail_msg("%ld tools whose state is not the new state of their last event", mismatch);
    assert_int_equal(total, BIG + TOG + CHURN);
    assert_true(a >= *approved); /* nothing committed is ever lost */
    *approved = a;
}

static void test_kill9_concurrent_writers(void **state) {
    (void)state;
    const char *env = getenv("MCPVET_CRASH_ROUNDS");
    int rounds = env != NULL && atoi(env) > 0 ? atoi(env) : 40;
    long approved = 0;
    int kills = 0;
    mv_store *st = NULL;
    mv_error err;
    mv_store_options o = {.create = true};

    snprintf(dir, sizeof dir, "/tmp/mcpvet-crash-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(store_path, sizeof store_path, "%s/store.db", dir);
    snprintf(log_path, sizeof log_path, "%s/approved.log", dir);
    assert_int_equal(mv_store_open(&st, store_path, &o, &err), MV_OK);
    seed_server(st, "big", BIG, 1);
    seed_server(st, "tog", TOG, 1);
    seed_server(st, "churn", CHURN, 1);
    mv_store_close(st);
    check_store(&approved);
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    fprintf(stderr, "crash test: %d rounds\n", rounds);
    for (int round = 0; round < rounds; round++) {
        pid_t pid[3];
        pid[0] = fork();
        if (pid[0] == 0)
            approver();
        pid[1] = fork();
        if (pid[1] == 0)
            toggler();
        pid[2] = fork();
        if (pid[2] == 0)
            scanner((unsigned)round);
        assert_true(pid[0] > 0 && pid[1] > 0 && pid[2] > 0);
        /* Every eighth round waits (up to 10 s) for the approver's next
         * committed approval before its random delay, so a loaded machine
         * that starts children slowly still kills writers mid-work and
         * not only before their first commit. */
        if (round % 8 == 0 && approved < BIG) {
            off_t before = log_size();
            for (int w = 0; w < 2000 && log_size() == before; w++) {
                struct timespec tick = {0, 5000000L};
                nanosleep(&tick, NULL);
            }
        }
        struct timespec ts = {0, (long)(20 + rand() % 181) * 1000000L};
        nanosleep(&ts, NULL);
        for (int i = 0; i < 3; i++)
            kill(pid[i], SIGKILL);
        for (int i = 0; i < 3; i++) {
            int status = 0;
            while (waitpid(pid[i], &status, 0) < 0 && errno == EINTR) {
            }
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
                kills++;
            else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fail_msg("round %d: writer %d failed (status %d)", round, i, status);
        }
        check_store(&approved);
    }
    fprintf(stderr, "crash test: %d rounds, %d kills, %ld of %d approvals committed\n", rounds,
            kills, approved, BIG);
    assert_true(kills >= rounds * 2);
    assert_true(approved > 0);
    rm_dir();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill9_concurrent_writers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
