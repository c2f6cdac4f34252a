/*
 * Hand-built tools for unit tests: a few calls give an mv_tool with its
 * fields flattened the way the model does it, without going through JSON.
 * All memory comes from the given arena.
 */
#ifndef MV_TEST_TOOL_BUILDER_H
#define MV_TEST_TOOL_BUILDER_H

#include "mcpvet/arena.h"
#include "mcpvet/tool.h"

/* A tool with fields: name, description (when non-NULL). Strings are
 * NUL-terminated C strings. */
mv_tool *tb_tool(mv_arena *arena, const char *server, const char *name, const char *description);

/* The same with explicit lengths (for text containing NUL bytes). */
mv_tool *tb_tool_n(mv_arena *arena, const char *server, const char *name, const char *description,
                   size_t description_len);

/* Append a top-level input parameter with its description (may be NULL):
 * adds the param, a property_name field and a schema_description field. */
void tb_add_param(mv_arena *arena, mv_tool *tool, const char *name, const char *type,
                  const char *description, int required);

/* Append an arbitrary string field. */
void tb_add_field(mv_arena *arena, mv_tool *tool, mv_field_kind kind, mv_schema_side schema,
                  const char *path, const char *text);

#endif
