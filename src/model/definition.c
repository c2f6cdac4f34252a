/*
 * A tool's canonical definition (mv_model_options.keep_definitions): the
 * canonical JSON (src/json/canonical.h) of the members an agent reads --
 * name, title, description, inputSchema, outputSchema, annotations -- which
 * is the input of the tool's pin (docs/pinning.md). Kept apart from the
 * field walk: the walk flattens strings for the checks, this keeps the
 * members whole (every key, number and nesting level, past every scan cap)
 * so that any change of meaning changes the pin.
 */
#include "model_internal.h"

#include "json/canonical.h"

int mdl_definition(mdl_ctx *c, const mv_jv *name, const mv_jv *title, const mv_jv *description,
                   const mv_jv *input_schema, const mv_jv *output_schema, const mv_jv *annotations,
                   mv_str *out) {
    /* A synthetic object over the tool's own values; snake_case schema keys
     * are spelled in camelCase, absent and null members are left out (the
     * model treats null as absent too). */
    mv_jm members[6];
    uint32_t n = 0;
    const struct {
        const char *key;
        const mv_jv *value;
    } parts[6] = {{"name", name},
                  {"title", title},
                  {"description", description},
                  {"inputSchema", input_schema},
                  {"outputSchema", output_schema},
                  {"annotations", annotations}};
    for (size_t i = 0; i < 6; i++) {
        if (parts[i].value == NULL || mv_jis_null(parts[i].value))
            continue;
        members[n].key = parts[i].key;
        members[n].key_len = (uint32_t)strlen(parts[i].key);
        members[n].value = *parts[i].value;
        n++;
    }
    mv_jv obj = {.type = MV_JOBJECT, .n = n, .u.members = members};
    c->def.len = 0;
    c->def.failed = 0;
    int rc = mv_json_canonical(&c->def, &obj);
    if (rc != MV_OK)
        return rc;
    char *copy = mv_arena_memdup(c->arena, c->def.data, c->def.len);
    if (copy == NULL)
        return MV_ENOMEM;
    *out = (mv_str){copy, c->def.len};
    return MV_OK;
}
