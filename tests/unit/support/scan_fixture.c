/* Single-check scan fixture shared by the check tests (see scan_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "scan_fixture.h"

void scan_fixture_init(scan_fixture *f) {
    memset(f, 0, sizeof(*f));
    f->arena = mv_arena_new(NULL, 0);
    f->registry = mv_registry_new(NULL);
    assert_non_null(f->arena);
    assert_non_null(f->registry);
}

void scan_fixture_run(scan_fixture *f, const mv_check *check, uint32_t max_signals) {
    mv_engine_options o;
    memset(&o, 0, sizeof(o));
    o.no_builtin_checks = true;
    o.limits.max_signals_per_tool = max_signals;
    mv_error err;
    assert_int_equal(mv_registry_freeze(f->registry), 0);
    assert_int_equal(mv_engine_new(&f->engine, &o, &err), 0);
    assert_int_equal(mv_engine_add_check(f->engine, check, &err), 0);
    assert_int_equal(mv_scan_new(&f->scan, f->engine, f->registry, &err), 0);
    assert_int_equal(mv_scan_run(f->scan, 1, &err), 0);
}

void scan_fixture_free(scan_fixture *f) {
    mv_scan_free(f->scan);
    mv_engine_free(f->engine);
    mv_registry_free(f->registry);
    mv_arena_free(f->arena);
    memset(f, 0, sizeof(*f));
}
