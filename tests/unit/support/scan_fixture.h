/*
 * A registry scanned by an engine that runs exactly one check: the set-up
 * every check's unit test needs. Add tools with tb_* (tool_builder.h) into
 * f->arena and mv_registry_add(f->registry, ...), then scan_fixture_run.
 */
#ifndef MV_TEST_SCAN_FIXTURE_H
#define MV_TEST_SCAN_FIXTURE_H

#include <stdint.h>

#include "mcpvet/arena.h"
#include "mcpvet/check.h"
#include "mcpvet/engine.h"
#include "mcpvet/registry.h"

typedef struct scan_fixture {
    mv_arena *arena;
    mv_registry *registry;
    mv_engine *engine;
    mv_scan *scan;
} scan_fixture;

/* Empty arena and registry (asserts on out-of-memory). */
void scan_fixture_init(scan_fixture *f);

/* Freeze the registry, build an engine with only `check` (max_signals 0 =
 * the engine default) and run the scan on one thread; asserts each step. */
void scan_fixture_run(scan_fixture *f, const mv_check *check, uint32_t max_signals);

/* Release everything; the fixture may be initialised again. */
void scan_fixture_free(scan_fixture *f);

#endif
