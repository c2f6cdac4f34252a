/*
 * The one symbol resolver of the lazily loaded libraries (platform/dl.h).
 */
#include "platform/dl.h"

#include <dlfcn.h>
#include <string.h>

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer, which memcpy does without a pedantic cast warning. */
int mv_dl_sym(void *lib, const char *name, void *slot, size_t size) {
    void *p = dlsym(lib, name);
    if (p == NULL)
        return -1;
    memcpy(slot, &p, size);
    return 0;
}
