/*
 * Audit events without a transition: decisions an entry point takes on its
 * own behalf (the proxy leaving a tool out of a list, refusing a call,
 * finding hidden text in a result) go into the same append-only log as the
 * state machine's transitions, so `security history` tells the whole story
 * of a tool.
 */
#include "store_int.h"

int mv_store_note(mv_store *st, const char *server, mv_item_kind kind, mv_str tool, mv_actor actor,
                  const char *reason, mv_error *err) {
    if (st == NULL || server == NULL || server[0] == '\0' || reason == NULL ||
        (tool.ptr != NULL && (unsigned)kind >= MV_ITEM_KIND_COUNT))
        return mv_error_set(err, MV_EINVAL, "mv_store_note needs a store, a server and a reason");
    const char *k = tool.ptr != NULL ? mv_item_kind_name(kind) : NULL;
    return st_event(st, st_now(st), actor, server, k, tool, MV_STATE_NONE, MV_STATE_NONE, NULL,
                    NULL, reason, err);
}
