/*
 * Registry snapshot: every tool of every server scanned together, with an
 * index by exact name and by server. Checks that look across servers (name
 * shadowing) use it; it is read-only once frozen and may be shared by
 * threads.
 */
#ifndef MCPVET_REGISTRY_H
#define MCPVET_REGISTRY_H

#include <stdbool.h>
#include "mcpvet/common.h"
#include "mcpvet/tool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mv_registry mv_registry;

/* Empty registry; NULL allocator means the default. NULL on OOM. */
mv_registry *mv_registry_new(const mv_allocator *a);
void mv_registry_free(mv_registry *r);

/* Add a tool (borrowed: it must outlive the registry). Only before freeze.
 * Returns 0, MV_ENOMEM, MV_EINVAL (frozen, NULL, or more than 2^31 tools). */
int mv_registry_add(mv_registry *r, const mv_tool *tool);

/* Build the indexes. Idempotent. Returns 0 or MV_ENOMEM. */
int mv_registry_freeze(mv_registry *r);
bool mv_registry_frozen(const mv_registry *r);

/* Threads a scan's preparation of this registry (the checks' prepare) may
 * use: 1 by default, as a scan with --jobs 1 stays on one thread. What
 * prepare builds is the same for any value. */
void mv_registry_set_jobs(mv_registry *r, unsigned jobs);
unsigned mv_registry_jobs(const mv_registry *r);

/* Tools in insertion order; index is the tool id used everywhere else. */
size_t mv_registry_count(const mv_registry *r);
const mv_tool *mv_registry_tool(const mv_registry *r, size_t index);

/* Distinct servers in order of first appearance, and each tool's server id. */
size_t mv_registry_server_count(const mv_registry *r);
mv_str mv_registry_server_name(const mv_registry *r, size_t server_id);
uint32_t mv_registry_tool_server(const mv_registry *r, size_t tool_index);

/* Ids of the tools named exactly `name` (byte comparison), ascending; sets
 * *count (0 when none). The array is owned by the registry. Frozen only. */
const uint32_t *mv_registry_find_name(const mv_registry *r, const char *name, size_t len,
                                      size_t *count);

/* True when some tool in the registry is named exactly `name`. O(1) average. */
bool mv_registry_has_name(const mv_registry *r, const char *name, size_t len);

/* Number of distinct tool names. */
size_t mv_registry_name_count(const mv_registry *r);

#ifdef __cplusplus
}
#endif
#endif
