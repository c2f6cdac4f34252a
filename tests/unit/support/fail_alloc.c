/* Counting, failing allocator for out-of-memory tests (see fail_alloc.h). */
#include "fail_alloc.h"

#include <stdlib.h>

bool fail_alloc_refuse(fail_alloc *fa) {
    if (fa->paused)
        return false;
    fa->calls++;
    bool no =
        fa->fail_at > 0 && (fa->transient ? fa->calls == fa->fail_at : fa->calls >= fa->fail_at);
    if (no)
        fa->failed++;
    return no;
}

static void *fa_alloc(void *ctx, size_t size) {
    fail_alloc *fa = ctx;
    if (fail_alloc_refuse(fa))
        return NULL;
    void *p = malloc(size);
    if (p != NULL)
        fa->live++;
    return p;
}

static void *fa_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    fail_alloc *fa = ctx;
    (void)old_size;
    if (fail_alloc_refuse(fa))
        return NULL;
    void *p = realloc(ptr, new_size);
    if (p != NULL && ptr == NULL)
        fa->live++;
    return p;
}

static void fa_free(void *ctx, void *ptr, size_t size) {
    fail_alloc *fa = ctx;
    (void)size;
    if (ptr != NULL)
        fa->live--;
    free(ptr);
}

void fail_alloc_init(fail_alloc *fa, long fail_at) {
    fa->allocator.alloc = fa_alloc;
    fa->allocator.realloc = fa_realloc;
    fa->allocator.free = fa_free;
    fa->allocator.ctx = fa;
    fa->fail_at = fail_at;
    fa->calls = 0;
    fa->live = 0;
    fa->failed = 0;
    fa->transient = false;
    fa->paused = false;
}
