/*
 * Round 28 (dest28): a destroying scope hidden in a value the definition
 * fixes. Pure facts of a tool's structure, in the manner of
 * structure_facts.h.
 */
#ifndef MCPVET_DEST_VALUES_H
#define MCPVET_DEST_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "mcpvet/tool.h"

/* A job that its own words scope to a non-production environment (a
 * sandbox, a test or staging environment, a backtest) and that destroys
 * (its words or the parameter's description clear, reset, delete or
 * overwrite), whose input default or const points a target parameter at
 * production ("production", "prod", "produção", "本番", "生产"). The
 * value moves the act past the job's scope. A parameter that reads from
 * production (source, from, origin, template, seed) is not a target, and
 * a job whose own words name production is about production. The field
 * of the value, or -1. */
int32_t mv_test_job_prod_value_field(const mv_tool *tool);

/* A fixed value (an input or output default or const, at any depth) that
 * is written as a destroying order on a broad scope: words, not an
 * identifier, whose verb (in the first three words, after a "label:")
 * destroys, not negated, with an "all" word or a list of three objects
 * ("delete saved passwords, bookmarks and the profile directory"). A
 * value fixed by the definition is not the caller's choice: the order is
 * the definition's. A confirmation phrase the user must type is spared.
 * The field, or -1. */
int32_t mv_fixed_destroy_order_field(const mv_tool *tool);
bool mv_dv_destroy_order_value(const char *t, size_t n);

/* Exposed for the unit tests: a job text scoped to a non-production
 * environment; a fixed value that names production. */
bool mv_dv_test_scope(const char *t, size_t n);
bool mv_dv_prod_value(const char *t, size_t n);

#endif
