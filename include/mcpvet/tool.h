/*
 * The tool view: one MCP tool definition as the engine sees it. The model
 * (src/model) builds these from JSON; tests build them by hand. Every string
 * that an agent could read is flattened into `fields`, so a check that scans
 * "all text" walks one array instead of re-walking JSON schemas.
 *
 * All strings are borrowed from whoever built the tool (usually a tool set's
 * arena) and must outlive every registry and scan that uses the tool.
 */
#ifndef MCPVET_TOOL_H
#define MCPVET_TOOL_H

#include <stdbool.h>
#include "mcpvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a scanned string is. Order is stable: reports print these names. */
typedef enum mv_field_kind {
    MV_FIELD_NAME = 0,           /* the tool name */
    MV_FIELD_TITLE,              /* the tool title */
    MV_FIELD_DESCRIPTION,        /* the tool description */
    MV_FIELD_PROPERTY_NAME,      /* a key under a schema's "properties" */
    MV_FIELD_SCHEMA_DESCRIPTION, /* "description"/"title" inside a schema */
    MV_FIELD_SCHEMA_VALUE,       /* default, enum, const, examples, pattern, format... */
    MV_FIELD_ANNOTATION,         /* a string inside "annotations" */
    MV_FIELD_OTHER,              /* any other string the definition carries */
    MV_FIELD_KIND_COUNT
} mv_field_kind;

/* Stable lowercase name of a field kind ("description", "property_name"...). */
const char *mv_field_kind_name(mv_field_kind kind);

typedef enum mv_schema_side {
    MV_SCHEMA_NONE = 0, /* not inside a schema (name, title, description, annotations) */
    MV_SCHEMA_INPUT,
    MV_SCHEMA_OUTPUT
} mv_schema_side;

/* One scanned string. `text` is the raw decoded UTF-8 (JSON escapes already
 * decoded, so "\u200b" is the real character) and may contain NUL bytes. */
typedef struct mv_field {
    /* (The members are ordered so a field takes 64 bytes, no padding: a
     * million-tool registry holds several million of them.) */
    mv_field_kind kind;
    mv_schema_side schema;
    int32_t param; /* index into mv_tool.params of the top-level property
                      this string belongs to, or -1 */
    /* Engine-made tail windows of a cut field (the costly checks see them
     * as extra fields): 1 + index of the field this is a window of (the
     * window's byte offset in that field is window_base). 0 for every
     * model field. */
    uint32_t window_of;
    mv_str path;   /* e.g. "inputSchema.properties.path.description" */
    mv_str text;   /* what the costly checks read: the string up to the
                      model's field cap ("field_bytes", recorded when cut) */
    /* Whole fields: when the model cut `text` at its field cap, the whole
     * string is still in memory right after it and holds `whole_len`
     * bytes (text.ptr[0, whole_len)); 0 when `text` is the whole string.
     * Cheap linear checks (hidden characters, encoded blobs, the engine's
     * tail prefilter) read the whole string; see mv_field_whole. */
    uint64_t whole_len;
    uint64_t window_base;
} mv_field;

/* The whole string of a field (its text when it was never cut). */
static inline mv_str mv_field_whole(const mv_field *f) {
    mv_str s = f->text;
    if (f->whole_len > s.len)
        s.len = (size_t)f->whole_len;
    return s;
}

/* What an agent-visible item is. Tools are what most checks are about;
 * prompts and resources also reach the model (their names and descriptions)
 * and are scanned with the same checks, marked with their kind. */
typedef enum mv_item_kind {
    MV_ITEM_TOOL = 0,
    MV_ITEM_PROMPT,
    MV_ITEM_RESOURCE,
    MV_ITEM_RESOURCE_TEMPLATE,
    /* A server's `instructions` from initialize: the client hands them to
     * the model like a description, so they are scanned as one item named
     * "server_instructions" whose description is the text. */
    MV_ITEM_INSTRUCTIONS,
    MV_ITEM_KIND_COUNT
} mv_item_kind;

/* "tool", "prompt", "resource", "resource_template", "instructions".
 * Never NULL. */
const char *mv_item_kind_name(mv_item_kind kind);

/* A boolean or number the schema fixes for a parameter (round 21): its
 * "default", its "const" or the one value of its "enum". Strings are
 * fields (MV_FIELD_SCHEMA_VALUE); these are not, so they live here. */
typedef enum mv_fixed_value {
    MV_FIXED_NONE = 0,
    MV_FIXED_TRUE,
    MV_FIXED_FALSE,
    MV_FIXED_ZERO,  /* the number 0 */
    MV_FIXED_NUMBER /* any other number */
} mv_fixed_value;

/* A top-level parameter of the input (or output) schema. */
typedef struct mv_param {
    mv_str name;
    mv_str type;        /* JSON-schema "type" when it is a string, else empty */
    mv_str description; /* empty when absent */
    mv_schema_side schema;
    bool required;
    bool has_enum; /* constrained by enum/const: not free-form */
    uint8_t fixed; /* an mv_fixed_value (in the struct's padding) */
    bool fixed_const; /* fixed by "const" or a one-value "enum": the
                         caller cannot choose another value */
} mv_param;

/* A cap the model hit while building the tool (recorded, never silent). */
typedef struct mv_cap_hit {
    const char *cap;   /* static stable name, e.g. "field_bytes" */
    uint64_t limit;    /* the cap's value */
    uint64_t observed; /* what the input had (0 when unknown) */
    mv_str where;      /* field path, may be empty */
} mv_cap_hit;

/* mv_tool.declared: "readOnlyHint": true and "destructiveHint": false,
 * the definition's own word that the tool does not destroy anything. */
#define MV_DECLARED_READ_ONLY 0x1u
#define MV_DECLARED_NOT_DESTRUCTIVE 0x2u

typedef struct mv_tool {
    mv_str server; /* server name as configured ("github-work") */
    mv_str name;
    mv_str title;           /* empty when absent */
    mv_str description;     /* empty when absent */
    const mv_field *fields; /* fields[0] is always the name */
    const mv_param *params;
    const mv_cap_hit *caps; /* caps hit by the model for this tool */
    uint32_t n_fields;
    uint32_t n_params;
    uint32_t n_caps;
    uint32_t source_index; /* position in the input, for stable ordering */
    mv_item_kind kind;     /* MV_ITEM_TOOL unless built from prompts/resources */
    /* What the definition's annotations declare (round 23): MV_DECLARED_*
     * bits. The standard hints are booleans, so they are not fields; a
     * hand-built tool declares nothing (0). */
    uint8_t declared;
    /* Canonical JSON (docs/pinning.md) of the fields an agent reads, the input
     * of the tool's pin; filled only when the model was asked for it
     * (mv_model_options.keep_definitions), else empty. */
    mv_str definition;
} mv_tool;

#ifdef __cplusplus
}
#endif
#endif
