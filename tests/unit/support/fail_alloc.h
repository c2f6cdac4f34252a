/*
 * A counting allocator for out-of-memory tests: it fails the Nth allocation
 * (and every one after it, like a real exhausted heap) and counts live
 * blocks so a test can assert that nothing leaked.
 */
#ifndef MV_TEST_FAIL_ALLOC_H
#define MV_TEST_FAIL_ALLOC_H

#include "mcpvet/common.h"

typedef struct fail_alloc {
    mv_allocator allocator; /* pass &fa.allocator to the code under test */
    long fail_at;           /* 1-based index of the first failing allocation; 0 = never */
    long calls;             /* allocations attempted */
    long live;              /* blocks currently allocated */
} fail_alloc;

void fail_alloc_init(fail_alloc *fa, long fail_at);

#endif
