/*
 * A counting allocator for out-of-memory tests: it fails the Nth allocation
 * (and every one after it, like a real exhausted heap, or only that one
 * when `transient` is set: code that swallows one failure must still give
 * the right output) and counts live blocks so a test can assert that
 * nothing leaked. While `paused`, allocations are neither counted nor
 * failed (setup and teardown around the code under test).
 */
#ifndef MV_TEST_FAIL_ALLOC_H
#define MV_TEST_FAIL_ALLOC_H

#include <stdbool.h>

#include "mcpvet/common.h"

typedef struct fail_alloc {
    mv_allocator allocator; /* pass &fa.allocator to the code under test */
    long fail_at;           /* 1-based index of the first failing allocation; 0 = never */
    long calls;             /* allocations attempted */
    long live;              /* blocks currently allocated */
    long failed;            /* allocations refused */
    bool transient;         /* fail only the fail_at-th allocation */
    bool paused;            /* neither count nor fail */
} fail_alloc;

/* Persistent failure from fail_at on, counting at once. */
void fail_alloc_init(fail_alloc *fa, long fail_at);

/* Counts one allocation and says whether it must fail: for allocators of
 * others (SQLite's hooks) that share a fail_alloc's count. */
bool fail_alloc_refuse(fail_alloc *fa);

#endif
