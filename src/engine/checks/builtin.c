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
