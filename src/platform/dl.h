/*
 * Libraries loaded on first use (libcurl, libmicrohttpd, SQLite,
 * libcrypto): a scan that never needs one never maps it. Each loader
 * resolves its symbols into a table of function pointers with mv_dl_sym.
 */
#ifndef MCPVET_PLATFORM_DL_H
#define MCPVET_PLATFORM_DL_H

#include <stddef.h>

/* Resolve symbol `name` of library handle `lib` into the function-pointer
 * slot of `size` bytes at `slot`. Returns 0, or -1 when the library lacks
 * it (the slot is left as it was). */
int mv_dl_sym(void *lib, const char *name, void *slot, size_t size);

#endif
