/*
 * Test-only construction of mv_tool values (see tool_builder.h). Arrays are
 * regrown by copying into the arena: simple, and tests build small tools.
 */
#include "tool_builder.h"

#include <stdlib.h>
#include <string.h>

static mv_str dup_str(mv_arena *arena, const char *s, size_t len) {
    if (s == NULL)
        return MV_STR_NULL;
    char *p = mv_arena_memdup(arena, s, len);
    if (p == NULL)
        abort();
    return (mv_str){p, len};
}

static void push_field(mv_arena *arena, mv_tool *tool, mv_field field) {
    mv_field *f = mv_arena_alloc(arena, (tool->n_fields + 1) * sizeof(*f));
    if (f == NULL)
        abort();
    if (tool->n_fields > 0)
        memcpy(f, tool->fields, tool->n_fields * sizeof(*f));
    f[tool->n_fields++] = field;
    tool->fields = f;
}

mv_tool *tb_tool_n(mv_arena *arena, const char *server, const char *name, const char *description,
                   size_t description_len) {
    mv_tool *t = mv_arena_calloc(arena, 1, sizeof(*t));
    if (t == NULL)
        abort();
    t->server = dup_str(arena, server, strlen(server));
    t->name = dup_str(arena, name, strlen(name));
    push_field(arena, t,
               (mv_field){.kind = MV_FIELD_NAME,
                          .schema = MV_SCHEMA_NONE,
                          .param = -1,
                          .path = MV_STR_LIT("name"),
                          .text = t->name});
    if (description != NULL) {
        t->description = dup_str(arena, description, description_len);
        push_field(arena, t,
                   (mv_field){.kind = MV_FIELD_DESCRIPTION,
                              .schema = MV_SCHEMA_NONE,
                              .param = -1,
                              .path = MV_STR_LIT("description"),
                              .text = t->description});
    }
    return t;
}

mv_tool *tb_tool(mv_arena *arena, const char *server, const char *name, const char *description) {
    return tb_tool_n(arena, server, name, description, description ? strlen(description) : 0);
}

void tb_add_param(mv_arena *arena, mv_tool *tool, const char *name, const char *type,
                  const char *description, int required) {
    mv_param *p = mv_arena_alloc(arena, (tool->n_params + 1) * sizeof(*p));
    if (p == NULL)
        abort();
    if (tool->n_params > 0)
        memcpy(p, tool->params, tool->n_params * sizeof(*p));
    int32_t index = (int32_t)tool->n_params;
    mv_param *np = &p[tool->n_params++];
    memset(np, 0, sizeof(*np));
    np->name = dup_str(arena, name, strlen(name));
    np->type = type ? dup_str(arena, type, strlen(type)) : MV_STR_NULL;
    np->description = description ? dup_str(arena, description, strlen(description)) : MV_STR_NULL;
    np->schema = MV_SCHEMA_INPUT;
    np->required = required != 0;
    tool->params = p;

    size_t plen = strlen("inputSchema.properties.") + strlen(name);
    char *path = mv_arena_alloc(arena, plen + sizeof(".description"));
    if (path == NULL)
        abort();
    strcpy(path, "inputSchema.properties.");
    strcat(path, name);
    push_field(arena, tool,
               (mv_field){.kind = MV_FIELD_PROPERTY_NAME,
                          .schema = MV_SCHEMA_INPUT,
                          .param = index,
                          .path = (mv_str){path, plen},
                          .text = np->name});
    if (description != NULL) {
        char *dpath = mv_arena_memdup(arena, path, plen + 12);
        memcpy(dpath + plen, ".description", 12);
        push_field(arena, tool,
                   (mv_field){.kind = MV_FIELD_SCHEMA_DESCRIPTION,
                              .schema = MV_SCHEMA_INPUT,
                              .param = index,
                              .path = (mv_str){dpath, plen + 12},
                              .text = np->description});
    }
}

void tb_add_field(mv_arena *arena, mv_tool *tool, mv_field_kind kind, mv_schema_side schema,
                  const char *path, const char *text) {
    push_field(arena, tool,
               (mv_field){.kind = kind,
                          .schema = schema,
                          .param = -1,
                          .path = dup_str(arena, path, strlen(path)),
                          .text = dup_str(arena, text, strlen(text))});
}
