/*
 * TEMPORARY (branch wip-serve only): stands in for mv_pipeline_decide until
 * the lead's implementation is merged from main; delete on that merge.
 */
#include "pipeline/pipeline_int.h"

int mv_pipeline_decide(mv_pipeline *p, mv_store *st, mv_actor actor, int64_t now,
                       mv_error *err) {
    (void)p;
    (void)st;
    (void)actor;
    (void)now;
    return mv_error_set(err, MV_EUNSUPPORTED, "the decide step is not built yet");
}
