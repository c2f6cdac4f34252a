/*
 * mcpvet_wording_dump: the training input of the learned wording check
 * (src/engine/checks/wording_learned.c). For every entry of the given
 * corpus files it prints one JSON line with the entry's labels and the
 * normalized view of each field of its own tool (peers are left out), as
 * the engine hands it to the checks. scripts/train_wording.py reads these
 * lines, so the trainer and the check split exactly the same text.
 *
 * Not installed; a developer tool, run by scripts/train_wording.py.
 */
#include <stdio.h>
#include <string.h>

#include "mcpvet/arena.h"
#include "mcpvet/model.h"
#include "mcpvet/normalize.h"

static void put_json_string(FILE *out, const char *s, size_t n) {
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static int dump_file(const char *path, mv_normalizer *norm, mv_arena *scratch) {
    mv_model_options opts;
    memset(&opts, 0, sizeof(opts));
    opts.limits.max_document_bytes = MV_DEFAULT_MAX_DOCUMENT_BYTES;
    opts.limits.max_field_bytes = MV_DEFAULT_MAX_FIELD_BYTES;
    opts.limits.max_schema_depth = MV_DEFAULT_MAX_SCHEMA_DEPTH;
    opts.limits.max_tools_per_server = MV_DEFAULT_MAX_TOOLS_PER_SERVER;
    opts.limits.max_fields_per_tool = MV_DEFAULT_MAX_FIELDS_PER_TOOL;
    mv_toolset *set = NULL;
    mv_error err;
    mv_error_clear(&err);
    if (mv_model_load_file(&set, path, &opts, &err) != MV_OK) {
        fprintf(stderr, "mcpvet_wording_dump: %s: %s\n", path, err.message);
        return 1;
    }
    if (set->kind != MV_INPUT_CORPUS) {
        fprintf(stderr, "mcpvet_wording_dump: %s: not a corpus file\n", path);
        mv_toolset_free(set);
        return 1;
    }
    int rc = 0;
    for (size_t e = 0; e < set->n_entries && rc == 0; e++) {
        const mv_corpus_entry *entry = &set->entries[e];
        const mv_tool *tool = &set->tools[entry->tool];
        printf("{\"id\":");
        put_json_string(stdout, entry->id.ptr, entry->id.len);
        printf(",\"label\":");
        put_json_string(stdout, entry->label.ptr, entry->label.len);
        printf(",\"category\":");
        put_json_string(stdout, entry->category.ptr, entry->category.len);
        printf(",\"server\":");
        put_json_string(stdout, tool->server.ptr, tool->server.len);
        printf(",\"fields\":[");
        for (uint32_t f = 0; f < tool->n_fields; f++) {
            mv_norm_text view;
            const mv_str text = tool->fields[f].text;
            if (mv_normalize(norm, scratch, text.ptr, text.len, MV_NORM_DEFAULT, &view) != MV_OK) {
                fprintf(stderr, "mcpvet_wording_dump: %s: cannot normalize a field\n", path);
                rc = 1;
                break;
            }
            printf("%s[\"%s\",", f ? "," : "", mv_field_kind_name(tool->fields[f].kind));
            put_json_string(stdout, view.text, view.len);
            printf("]");
        }
        printf("]}\n");
        mv_arena_reset(scratch);
    }
    mv_toolset_free(set);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: mcpvet_wording_dump CORPUS.json...\n");
        return 2;
    }
    mv_normalizer *norm = mv_normalizer_new(NULL);
    mv_arena *scratch = mv_arena_new(NULL, 1u << 16);
    int rc = norm == NULL || scratch == NULL;
    for (int i = 1; i < argc && rc == 0; i++)
        rc = dump_file(argv[i], norm, scratch);
    mv_arena_free(scratch);
    mv_normalizer_free(norm);
    return rc;
}
