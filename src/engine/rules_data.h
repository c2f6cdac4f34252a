/*
 * Access to rule data files compiled into the engine (see
 * cmake/EmbedRules.cmake). Rule files are UTF-8 text kept in
 * src/engine/rules/NAME.rules; the engine never opens files at run time.
 */
#ifndef MV_RULES_DATA_H
#define MV_RULES_DATA_H

#include <stddef.h>

/* Find rule file NAME (base name without ".rules"). On success sets *data
 * (NUL-terminated, not counted in *len) and returns 0; -1 when unknown. */
int mv_rules_find(const char *name, const char **data, size_t *len);

#endif
