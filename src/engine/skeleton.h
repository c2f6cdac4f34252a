/*
 * Name keys for comparing tool names across servers. Two keys per name:
 *
 *   style key  ASCII letters lower-cased and separators ('_', '-', '.', ' ')
 *              dropped, every other byte kept: getCustomerRecords,
 *              get_customer_records and get-customer-records meet.
 *   skeleton   a confusable skeleton in the spirit of UTS #39: compatibility
 *              decomposition (fullwidth and mathematical letters become
 *              ASCII), invisible format characters dropped, Cyrillic, Greek,
 *              Armenian and Latin look-alikes folded to the ASCII letter they
 *              imitate, 0 -> o, 1 -> l, capital I -> l, "rn" -> m, then the
 *              style key of the result. send_emаil (Cyrillic а), de1ete_file,
 *              kubectl_appIy and run_cornmand meet their originals.
 *
 * A capital I is ambiguous (it imitates l in "appIy" but starts a camelCase
 * hump in "getIssue"), so a name holding one has a second skeleton in which
 * it folds to i. Names whose style keys are equal always share a skeleton.
 *
 * The marks of a name count the look-alike substitutions it carries, so a
 * caller can tell which of two colliding names is the imitation. Pure, no
 * allocation: callers pass output buffers of MV_NAME_KEY_MAX bytes.
 */
#ifndef MV_SKELETON_H
#define MV_SKELETON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest key produced; longer names are not keyed (MV_ELIMIT). */
#define MV_NAME_KEY_MAX 256u

/* Mark weights: a non-ASCII look-alike or invisible character inside a name
 * is almost never honest; ASCII swaps are weaker, "rn" the weakest. */
#define MV_MARK_NONASCII 10u
#define MV_MARK_DIGIT 3u
#define MV_MARK_CAPITAL_I 3u
#define MV_MARK_RN 2u

typedef struct mv_name_marks {
    uint32_t score;        /* weighted sum of the marks below */
    uint32_t nonascii;     /* non-ASCII characters folded, dropped or decomposed */
    uint32_t digits;       /* 0 or 1 standing inside a word ("de1ete") */
    uint32_t capital_i;    /* capital I between lower-case letters in a lower-case name */
    uint32_t rn;           /* "rn" sequences (imitating m) */
    uint32_t first_offset; /* byte offset of the first mark, UINT32_MAX when none */
    uint32_t first_len;    /* byte length of that mark */
    uint32_t first_cp;     /* code point of that mark */
} mv_name_marks;

/* Style key of `s` into `out` (MV_NAME_KEY_MAX bytes). Returns 0, or
 * MV_ELIMIT when the key would not fit (nothing useful is written). */
int mv_name_style_key(char *out, size_t *out_len, const char *s, size_t len);

/* Skeleton of `name` into `out` (MV_NAME_KEY_MAX bytes). With
 * `capital_i_as_l` false, capital I folds to i instead of l. Invalid UTF-8
 * bytes are kept as they are (they never meet an ASCII name). Returns 0 or
 * MV_ELIMIT. */
int mv_name_skeleton(char *out, size_t *out_len, const char *name, size_t len, bool capital_i_as_l);

/* True when the name holds a capital I (after folding), i.e. when its two
 * skeletons differ. */
bool mv_name_has_capital_i(const char *name, size_t len);

/* Look-alike substitutions carried by `name`. */
void mv_name_marks_of(mv_name_marks *out, const char *name, size_t len);

/* True when an ASCII name reads as an identifier rather than an English
 * word: it holds '_', '-', '.', a digit or a camelCase hump, and has at
 * least 3 bytes. */
bool mv_name_is_identifier(const char *name, size_t len);

/* Naming style of an identifier. */
typedef enum mv_name_style {
    MV_STYLE_IRREGULAR = 0, /* doubled, leading or mixed separators; Mixed-Case_Separated */
    MV_STYLE_UPPER,         /* PascalCase, SCREAMING_SNAKE */
    MV_STYLE_KEBAB,         /* lower-case-with-hyphens */
    MV_STYLE_CAMEL,         /* camelCase */
    MV_STYLE_FLAT,          /* lowercase single word */
    MV_STYLE_SNAKE,         /* lower_case_with_underscores (dots allowed as namespaces) */
    MV_STYLE_OTHER,         /* holds non-ASCII bytes */
    MV_STYLE_COUNT
} mv_name_style;

mv_name_style mv_name_style_of(const char *name, size_t len);

/* How conventional a style is for an MCP tool name, 0 (irregular) to 3
 * (snake_case or a plain word, the common conventions). When two servers
 * expose the same tool under two styles, the less conventional spelling is
 * the likelier imitation. */
int mv_name_style_rank(mv_name_style style);

#endif
