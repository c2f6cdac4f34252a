/*
 * Registration of the builtin checks. Order is part of the output contract
 * (signals sort by check order): hard checks first, then soft ones. Add a
 * check by declaring its table here and listing it once below.
 */
#include "builtin.h"

#include <stddef.h>

/* CHECK DECLARATIONS (one extern per check, engine order) */
extern const mv_check mv_check_unicode_hidden;
extern const mv_check mv_check_shadowing_cross_server;
extern const mv_check mv_check_payload_decoded;
extern const mv_check mv_check_directive_imperative;
extern const mv_check mv_check_capability_mismatch;
extern const mv_check mv_check_secret_embedded;
extern const mv_check mv_check_wording_learned;

const mv_check *const mv_builtin_checks[] = {
    /* CHECK TABLE (one entry per check, engine order) */
    &mv_check_unicode_hidden,
    &mv_check_shadowing_cross_server,
    &mv_check_payload_decoded,
    &mv_check_directive_imperative,
    &mv_check_capability_mismatch,
    &mv_check_secret_embedded,
    &mv_check_wording_learned,
    NULL,
};

/* The checks whose result the engine may replay for an identical tool (the
 * tool memo, mcpvet/check.h): each reads the server name and the registry
 * only through mv_inspect_server and mv_inspect_registry (directive in
 * names_sibling and the job tests tool_destroys and word_in_job, capability
 * in names_server and brand_named_by_tool, payload through mv_dr_judge) or
 * not at all. unicode.hidden (server names of the registry) and
 * shadowing.cross_server (the registry itself) read them directly. */
const mv_check *const mv_tool_memo_checks[] = {
    &mv_check_payload_decoded, &mv_check_directive_imperative, &mv_check_capability_mismatch,
    &mv_check_secret_embedded, &mv_check_wording_learned,      NULL,
};
