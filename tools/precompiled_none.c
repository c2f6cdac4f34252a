/*
 * No precompiled tables: linked into the table generator itself (which
 * compiles the rules at run time), so that the engine objects' reference to
 * mv_dr_precompiled_words resolves. mv_dr_compile_builtin sees an empty
 * table and compiles.
 */
#include <stddef.h>
#include <stdint.h>

extern const uint32_t mv_dr_precompiled_words[];
extern const size_t mv_dr_precompiled_n_words;

const uint32_t mv_dr_precompiled_words[1] = {0};
const size_t mv_dr_precompiled_n_words = 0;
