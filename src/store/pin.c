/*
 * Pins (docs/pinning.md): the SHA-256 of a tool's canonical definition, of
 * the same definition without its name (a rename keeps that one), and of
 * each pinned member, so a diff can name what changed; and the identity hash
 * of a server with a display form of how it is reached that never shows a
 * URL's credentials or query, nor a credential argument.
 */
#include <string.h>

#include "json/canonical.h"
#include "json/json.h"
#include "store/crypto.h"
#include "store_int.h"

static const char *const field_names[MV_PIN_FIELD_COUNT] = {
    "name", "title", "description", "inputSchema", "outputSchema", "annotations",
};

const char *mv_pin_field_name(mv_pin_field f) {
    return (unsigned)f < MV_PIN_FIELD_COUNT ? field_names[f] : "?";
}

int st_sha256_hex(char out[MV_PIN_HEX], const void *data, size_t len) {
    static const char hex[] = "0123456789abcdef";
    unsigned char md[32];
    int rc = mv_crypto_sha256(md, data, len);
    if (rc != MV_OK) {
        out[0] = '\0';
        return rc;
    }
    for (unsigned i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[64] = '\0';
    return MV_OK;
}

int mv_pin_tool(mv_tool_pin *out, const char *definition, size_t len, const mv_allocator *alloc,
                mv_error *err) {
    int rc = MV_OK;
    mv_arena *arena = NULL;
    const mv_jv *doc = NULL;
    mv_jerror je;
    mv_buf b;
    mv_buf_init(&b, alloc);

    if (out == NULL || (definition == NULL && len > 0)) {
        rc = mv_error_set(err, MV_EINVAL, "mv_pin_tool needs an output and a definition");
        goto done;
    }
    memset(out, 0, sizeof(*out));
    if (len == 0) {
        rc = mv_error_set(err, MV_EPARSE, "the definition is empty");
        goto done;
    }
    arena = mv_arena_new(alloc, len < 4096 ? 4096 : len);
    if (arena == NULL) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (mv_json_parse(&doc, arena, alloc, definition, len, &je) != MV_OK) {
        rc = je.code == MV_ENOMEM
                 ? MV_ENOMEM
                 : mv_error_set(err, MV_EPARSE, "the definition is not valid JSON (byte %zu): %s",
                                je.offset, je.message);
        goto done;
    }
    if (!mv_jis_object(doc)) {
        rc = mv_error_set(err, MV_EPARSE, "the definition is not a JSON object");
        goto done;
    }
    const mv_jv *name = NULL;
    for (uint32_t i = 0; i < doc->n; i++) {
        const mv_jm *m = &doc->u.members[i];
        int f = -1;
        for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
            if (strlen(field_names[k]) == m->key_len &&
                memcmp(field_names[k], m->key, m->key_len) == 0)
                f = k;
        if (f < 0) {
            rc = mv_error_set(err, MV_EPARSE,
                              "the definition has a member that is not pinned (only name, title, "
                              "description, inputSchema, outputSchema and annotations are)");
            goto done;
        }
        if (f == MV_PIN_NAME)
            name = &m->value;
    }
    if (!mv_jis_string(name) || mv_jstring_len(name) == 0) {
        rc = mv_error_set(err, MV_EPARSE, "the definition has no non-empty string \"name\"");
        goto done;
    }
    /* Exactly canonical: otherwise two spellings of one tool would give two
     * pins (and an imported baseline could smuggle a second form). The
     * canonical text is written member by member, so each value's canonical
     * form is a known byte range of it: the field hashes and the body need
     * no second pass. */
    size_t start[MV_PIN_FIELD_COUNT], end[MV_PIN_FIELD_COUNT], mstart[MV_PIN_FIELD_COUNT];
    int field_of[MV_PIN_FIELD_COUNT];
    mv_buf_putc(&b, '{');
    for (uint32_t i = 0; i < doc->n; i++) {
        const mv_jm *m = &doc->u.members[i];
        if (i > 0 && mv_json_key_cmp(doc->u.members[i - 1].key, doc->u.members[i - 1].key_len,
                                     m->key, m->key_len) >= 0) {
            rc = mv_error_set(err, MV_EPARSE, "the definition is not in canonical form");
            goto done;
        }
        if (i > 0)
            mv_buf_putc(&b, ',');
        mstart[i] = b.len;
        mv_json_canonical_string(&b, m->key, m->key_len);
        mv_buf_putc(&b, ':');
        start[i] = b.len;
        if ((rc = mv_json_canonical(&b, &m->value)) != MV_OK)
            goto done;
        end[i] = b.len;
        field_of[i] = -1;
        for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
            if (strlen(field_names[k]) == m->key_len &&
                memcmp(field_names[k], m->key, m->key_len) == 0)
                field_of[i] = k;
    }
    mv_buf_putc(&b, '}');
    if (b.failed) {
        rc = MV_ENOMEM;
        goto done;
    }
    if (b.len != len || memcmp(b.data, definition, len) != 0) {
        rc = mv_error_set(err, MV_EPARSE, "the definition is not in canonical form");
        goto done;
    }
    if ((rc = st_sha256_hex(out->pin, definition, len)) != MV_OK)
        goto done;
    for (uint32_t i = 0; i < doc->n; i++)
        if ((rc = st_sha256_hex(out->fields[field_of[i]], definition + start[i],
                                end[i] - start[i])) != MV_OK)
            goto done;

    /* The body: the same object without "name" (members keep their order). */
    mv_buf body;
    mv_buf_init(&body, alloc);
    mv_buf_putc(&body, '{');
    bool first = true;
    for (uint32_t i = 0; i < doc->n; i++) {
        if (field_of[i] == MV_PIN_NAME)
            continue;
        if (!first)
            mv_buf_putc(&body, ',');
        first = false;
        mv_buf_append(&body, definition + mstart[i], end[i] - mstart[i]);
    }
    mv_buf_putc(&body, '}');
    rc = body.failed ? MV_ENOMEM : st_sha256_hex(out->body, body.data, body.len);
    mv_buf_release(&body);

done:
    if (rc == MV_ENOMEM)
        mv_error_set(err, MV_ENOMEM, "out of memory while pinning a definition");
    else if (rc == MV_EUNSUPPORTED)
        mv_error_set(err, rc,
                     "cannot pin a definition: libcrypto.so.3 (OpenSSL 3) cannot be "
                     "loaded for SHA-256");
    mv_buf_release(&b);
    mv_arena_free(arena);
    return rc;
}

unsigned mv_pin_changed_fields(const mv_tool_pin *a, const mv_tool_pin *b) {
    unsigned bits = 0;
    if (a == NULL || b == NULL)
        return 0;
    for (int k = 0; k < MV_PIN_FIELD_COUNT; k++)
        if (strcmp(a->fields[k], b->fields[k]) != 0)
            bits |= 1u << k;
    return bits;
}

void mv_server_ident_from_config(mv_server_ident *out, const mv_server_config *cfg) {
    memset(out, 0, sizeof(*out));
    if (cfg == NULL)
        return;
    /* The text as written in the config, before placeholders were
     * resolved: a token that came from ${TOKEN} never reaches the store, and
     * a changed environment does not look like a changed server. */
    out->name = cfg->name;
    out->transport = mv_transport_name(cfg->transport);
    if (cfg->transport == MV_TRANSPORT_STDIO) {
        out->command = cfg->raw_command != NULL ? cfg->raw_command : cfg->command;
        out->args = (const char *const *)(cfg->raw_args != NULL ? cfg->raw_args : cfg->args);
        out->n_args = cfg->n_args;
        out->cwd = cfg->raw_cwd != NULL ? cfg->raw_cwd : cfg->cwd;
    } else {
        out->url = cfg->raw_url != NULL ? cfg->raw_url : cfg->url;
    }
}

/* A word a POSIX shell reads as itself. */
static bool shell_plain(const char *s) {
    if (*s == '\0')
        return false;
    for (; *s != '\0'; s++) {
        char c = *s;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  strchr("_@%+=:,./-", c) != NULL;
        if (!ok)
            return false;
    }
    return true;
}

static void put_shell_word(mv_buf *b, const char *s) {
    if (shell_plain(s)) {
        mv_buf_puts(b, s);
        return;
    }
    mv_buf_putc(b, '\'');
    for (; *s != '\0'; s++) {
        if (*s == '\'')
            mv_buf_puts(b, "'\\''");
        else
            mv_buf_putc(b, *s);
    }
    mv_buf_putc(b, '\'');
}

/* "--token=***": the flag of a "--flag=VALUE" argument, shell-quoted when
 * needed, and its value hidden. */
static void put_masked_value(mv_buf *b, const char *arg) {
    mv_buf flag;
    mv_buf_init(&flag, b->alloc);
    mv_buf_append(&flag, arg, (size_t)(strchr(arg, '=') - arg) + 1);
    if (flag.failed)
        b->failed = 1;
    else
        put_shell_word(b, flag.data);
    mv_buf_release(&flag);
    mv_buf_puts(b, "***");
}

/* The URL without credentials, query or fragment (they may carry tokens). */
static void put_redacted_url(mv_buf *b, const char *url) {
    const char *scheme_end = strstr(url, "://");
    const char *auth = scheme_end != NULL ? scheme_end + 3 : url;
    size_t auth_len = strcspn(auth, "/?#");
    const char *at = memchr(auth, '@', auth_len);
    mv_buf_append(b, url, (size_t)(auth - url));
    if (at != NULL) {
        mv_buf_puts(b, "...@");
        mv_buf_append(b, at + 1, (size_t)(auth + auth_len - at - 1));
    } else {
        mv_buf_append(b, auth, auth_len);
    }
    const char *rest = auth + auth_len;
    size_t path_len = strcspn(rest, "?#");
    mv_buf_append(b, rest, path_len);
    if (rest[path_len] != '\0') {
        mv_buf_putc(b, rest[path_len]);
        mv_buf_puts(b, "...");
    }
}

static void put_member(mv_buf *b, bool *first, const char *key, const char *value) {
    if (!*first)
        mv_buf_putc(b, ',');
    *first = false;
    mv_json_canonical_string(b, key, strlen(key));
    mv_buf_putc(b, ':');
    if (value != NULL)
        mv_json_canonical_string(b, value, strlen(value));
}

int mv_pin_server(char out[MV_PIN_HEX], mv_buf *display, const mv_server_ident *id) {
    int rc = MV_OK;
    mv_buf b;
    mv_buf_init(&b, NULL);
    if (out != NULL)
        out[0] = '\0';
    if (out == NULL || id == NULL || id->name == NULL || id->name[0] == '\0' ||
        id->transport == NULL || id->transport[0] == '\0' || (id->n_args > 0 && id->args == NULL))
        return MV_EINVAL;
    /* Canonical JSON with members in key order: args, command, cwd, name,
     * transport, url. */
    bool first = true;
    mv_buf_putc(&b, '{');
    if (id->command != NULL) {
        put_member(&b, &first, "args", NULL);
        mv_buf_putc(&b, '[');
        for (size_t i = 0; i < id->n_args; i++) {
            if (i > 0)
                mv_buf_putc(&b, ',');
            const char *a = id->args[i] != NULL ? id->args[i] : "";
            mv_json_canonical_string(&b, a, strlen(a));
        }
        mv_buf_putc(&b, ']');
        put_member(&b, &first, "command", id->command);
        if (id->cwd != NULL)
            put_member(&b, &first, "cwd", id->cwd);
    }
    put_member(&b, &first, "name", id->name);
    put_member(&b, &first, "transport", id->transport);
    if (id->url != NULL)
        put_member(&b, &first, "url", id->url);
    mv_buf_putc(&b, '}');
    if (b.failed) {
        rc = MV_ENOMEM;
        goto done;
    }
    if ((rc = st_sha256_hex(out, b.data, b.len)) != MV_OK)
        goto done;
    if (display != NULL) {
        if (id->command != NULL) {
            put_shell_word(display, id->command);
            for (size_t i = 0; i < id->n_args; i++) {
                const char *a = id->args[i] != NULL ? id->args[i] : "";
                mv_buf_putc(display, ' ');
                /* Credential arguments stay out of the store and every
                 * listing, as in mv_config_describe; the hash covers them. */
                switch (mv_config_arg_mask(i > 0 ? id->args[i - 1] : NULL, a)) {
                case MV_ARG_MASK:
                    mv_buf_puts(display, "***");
                    break;
                case MV_ARG_MASK_VALUE:
                    put_masked_value(display, a);
                    break;
                default:
                    put_shell_word(display, a);
                    break;
                }
            }
            if (id->cwd != NULL) {
                mv_buf_puts(display, " (in ");
                mv_buf_puts(display, id->cwd);
                mv_buf_putc(display, ')');
            }
        } else if (id->url != NULL) {
            put_redacted_url(display, id->url);
        } else {
            mv_buf_puts(display, id->transport);
        }
        if (display->failed)
            rc = MV_ENOMEM;
    }

done:
    mv_buf_release(&b);
    return rc;
}
