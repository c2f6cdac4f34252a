# Rule data (phrase families, pattern lists) is kept as readable text files in
# src/engine/rules/*.rules and compiled into the engine as byte arrays, so the
# pure engine never opens a file. mv_rules_find() (src/engine/rules_data.h)
# looks a file up by its base name.
set(MV_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_rules_run.cmake")

function(mv_embed_rules out_var rule_files)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/rules_data.c")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${rule_files}" -P "${MV_EMBED_SCRIPT}"
    DEPENDS ${rule_files} "${MV_EMBED_SCRIPT}"
    COMMENT "Embedding rule data"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
