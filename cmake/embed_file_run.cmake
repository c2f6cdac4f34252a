# Writes OUT: the bytes of the file IN as `const char NAME[]` (NUL-terminated)
# and `const size_t NAME_len`, so a document like the OpenAPI description is
# served from the binary without reading any file at run time.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR size "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
set(body "/* Generated from ${IN} by cmake/embed_file_run.cmake. */\n#include <stddef.h>\n\n")
string(APPEND body "extern const char ${NAME}[];\nextern const size_t ${NAME}_len;\n")
string(APPEND body "const char ${NAME}[] = {${bytes}0x00};\n")
string(APPEND body "const size_t ${NAME}_len = ${size};\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
