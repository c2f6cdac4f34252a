# Every tests/unit/test_*.c is one cmocka binary and one ctest test, so a new
# module's test needs no CMake edit. A test whose data is missing (the real
# tools in ../shared, absent from a user's clone) exits 77 after printing
# the missing path, and ctest reports it skipped by name. Helpers shared by unit tests live in
# tests/unit/support/.
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

file(GLOB TEST_SUPPORT_SOURCES CONFIGURE_DEPENDS tests/unit/support/*.c)
add_library(mvtestsupport STATIC ${TEST_SUPPORT_SOURCES} tests/unit/support/empty.c)
target_include_directories(mvtestsupport PUBLIC include tests/unit/support src/engine src)
# libcurl directly: the HTTP tests call it themselves (mvcore loads it at run time).
# The tests that read a store's database directly link SQLite (mcpvet
# loads it on first use; both are the same library once loaded).
target_link_libraries(mvtestsupport PUBLIC mvcore PkgConfig::CMOCKA PkgConfig::CURL
                      PkgConfig::SQLITE)

file(GLOB UNIT_TESTS CONFIGURE_DEPENDS tests/unit/test_*.c)
foreach(src IN LISTS UNIT_TESTS)
  get_filename_component(name "${src}" NAME_WE)
  add_executable(${name} "${src}")
  target_link_libraries(${name} PRIVATE mvtestsupport)
  # Tests of the servers themselves (src/server, src/mcpserver) link them.
  if(name MATCHES "^test_mcp_endpoint")
    target_link_libraries(${name} PRIVATE mvserver)
  endif()
  add_test(NAME unit.${name} COMMAND ${name})
  set_tests_properties(unit.${name} PROPERTIES
    ENVIRONMENT "MCPVET_SOURCE_DIR=${CMAKE_SOURCE_DIR};MCPVET_BINARY=$<TARGET_FILE:mcpvet>"
    TIMEOUT 300 SKIP_RETURN_CODE 77)
endforeach()

# The offline guarantee: no I/O, clock, randomness, environment or locale
# symbol may be referenced by any engine object.
add_test(NAME unit.symbol_guard
         COMMAND ${CMAKE_SOURCE_DIR}/tests/unit/symbol_guard.sh $<TARGET_OBJECTS:mvengine_obj>
         COMMAND_EXPAND_LISTS)

# The store driver of tests/integration/security.sh: applies a tools file to
# a store as the pipeline does, with verdicts given on its command line.
add_executable(mcpvet_store_driver tests/integration/store_driver.c src/cli/util.c)
target_include_directories(mcpvet_store_driver PRIVATE src)
target_link_libraries(mcpvet_store_driver PRIVATE mvcore)

# Integration tests: shell scripts driving the real binary.
file(GLOB INTEGRATION_TESTS CONFIGURE_DEPENDS tests/integration/*.sh)
foreach(script IN LISTS INTEGRATION_TESTS)
  get_filename_component(name "${script}" NAME_WE)
  add_test(NAME integration.${name} COMMAND bash ${script})
  set_tests_properties(integration.${name} PROPERTIES
    ENVIRONMENT "MCPVET=$<TARGET_FILE:mcpvet>;MCPVET_SOURCE_DIR=${CMAKE_SOURCE_DIR};MCPVET_SHARED_DIR=${CMAKE_SOURCE_DIR}/../shared;MCPVET_STORE_DRIVER=$<TARGET_FILE:mcpvet_store_driver>"
    TIMEOUT 900 SKIP_RETURN_CODE 77)
endforeach()

# Corpus gate tests live in tests/corpus/*.sh and run the real binary too.
file(GLOB CORPUS_TESTS CONFIGURE_DEPENDS tests/corpus/*.sh)
foreach(script IN LISTS CORPUS_TESTS)
  get_filename_component(name "${script}" NAME_WE)
  add_test(NAME corpus.${name} COMMAND bash ${script})
  set_tests_properties(corpus.${name} PROPERTIES
    ENVIRONMENT "MCPVET=$<TARGET_FILE:mcpvet>;MCPVET_SOURCE_DIR=${CMAKE_SOURCE_DIR};MCPVET_SHARED_DIR=${CMAKE_SOURCE_DIR}/../shared"
    TIMEOUT 900 SKIP_RETURN_CODE 77)
endforeach()

# Fuzz targets replayed without libFuzzer (fuzz/replay_main.c): every seed of
# the target's corpus and every crash input kept under tests/regress/<target>/
# runs once through the target's own invariants, with any compiler.
set(MCPVET_FUZZ_REPLAY model sse config session store_import normalize payload canonical engine
                       textdiff rest mcpserver proxy proxy_frame stdio)
foreach(t IN LISTS MCPVET_FUZZ_REPLAY)
  if(t STREQUAL "model")
    set(seeds ${CMAKE_SOURCE_DIR}/fuzz/corpus)
  else()
    set(seeds ${CMAKE_SOURCE_DIR}/fuzz/corpus_${t})
  endif()
  add_executable(fuzz_replay_${t} fuzz/fuzz_${t}.c fuzz/replay_main.c)
  target_include_directories(fuzz_replay_${t} PRIVATE src src/engine)
  target_link_libraries(fuzz_replay_${t} PRIVATE mvserver mvcore)
  add_test(NAME regress.${t}
           COMMAND fuzz_replay_${t} ${seeds} ${CMAKE_SOURCE_DIR}/tests/regress/${t})
  set_tests_properties(regress.${t} PROPERTIES TIMEOUT 300)
endforeach()
