# LlgoTestPrograms.cmake: C test programs that run under every target's engines, one process per
# case, each case a ctest case checked for its exit status and exact stdout and stderr.
#
# A test program is a C file (or a few) whose main is tests/harness/test_program.h's dispatcher
# (`PROGRAM CASE` runs one case, `PROGRAM --list` names them all) plus a case file (JSON, see
# docs/test-programs.md; read by tests/harness/check_run.cpp) that says what each case must print and exit with, and which
# capabilities of the target and backend it needs and why. Programs are declared once, in tests/programs.cmake:
#
#   llgo_test_program(<name> SOURCES <files relative to the repository>... CASES <json>
#                     [GO_REFERENCE <a Go module: <case>/main.go per case that mirrors Go>]
#                     [DEFAULT_EXTENSION_ONLY] [SAMPLED_ENGINE_CASES <case>...] [OPTIONS <compile and link options>...]
#                     [STACK_SIZE <bytes>] [REQUIRES <capability>] [LIBRARIES <CMake targets>...])
#
# REQUIRES: a capability (`resolve --json`'s effective.capabilities) the program needs to link: it
# is built only for backends that have it; elsewhere its cases are added but not linked, and every
# case must require that capability in its case file, so each is reported skipped (tests/gc).
# LIBRARIES: targets of the target build the program also links (llgo_bdwgc: the collector).
#
# STACK_SIZE: the program's own goroutine stack size, given at its link (`llgo-wasm link
# --stack-size`; natively a generated definition of llgo_stack_size): docs/runtime.md, Stacks.
#
# DEFAULT_EXTENSION_ONLY: build the program only with the target's default output extension and
# run it only on the engines that load that (J32/J64: `.js`, not the ES module `.mjs`, which the
# same Node runs; the scheduler fixture and `scenarios` keep the loaders covered). It halves a
# program's links and cases on J32/J64.
#
# SAMPLED_ENGINE_CASES: these cases run on the sampled engines too (a browser: each run starts
# one, so an engine marked `sampled` in the descriptor runs no other case of the program); the
# program is then also built with the extension those engines load. For what only a real browser
# can show (a page's event loop, its timers and Promises).
#
# and this module builds and registers them in the target build (cmake/wasm-variant), for every
# target, the host included:
#   - llgo_wasm_add_test_programs(<cid> RUNTIME <lib>) (fixtures.cmake, per context backend) links
#     <name>_<cid> from the same runtime libraries as the scheduler fixture, once per output
#     extension the target's engines run (llgo_wasm_add_program);
#   - llgo_add_test_program_cases(<name> <ctx>) (LlgoWasmFixtureTests.cmake) adds, per engine that
#     is not sampled, <name>.<variant>.<engine>.<ctx>.<case> for every case and
#     <name>.<variant>.<engine>.<ctx>.--list (the program and its case file agree), and per sampled
#     engine the SAMPLED_ENGINE_CASES; a case that needs what an engine's runner does not provide
#     (the case file's "engine_provides", the descriptor's "provides") is skipped there;
# and, in the superbuild's host tree, llgo_add_go_reference_tests(<name>) adds
# go-reference.<name>.<native|js-wasm>.<case>: Debian's Go builds <case>/main.go and must print what
# the case expects (tests/harness/check_go_reference.py; js/wasm under Node).
# A case that does not apply is a skipped ctest case named ...<case>[needs:<requirement>], one
# held back by a known bug ...<case>[known-bug:<requirement>] (skipped while the bug is there,
# failing once it is gone); the output says why. <variant> is the target's display label
# (`resolve --json`); whether a case applies is decided by the backend's capabilities
# (effective.capabilities of `resolve --json`, LLGO_WASM_BACKEND_<cid>_CAPABILITIES), which the
# case files' requirements name.
include_guard(GLOBAL)

get_filename_component(LLGO_TEST_PROGRAMS_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

function(llgo_test_program name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "DEFAULT_EXTENSION_ONLY" "CASES;GO_REFERENCE;STACK_SIZE;REQUIRES"
                        "SOURCES;SAMPLED_ENGINE_CASES;OPTIONS;LIBRARIES")
  if(NOT arg_SOURCES OR NOT arg_CASES)
    message(FATAL_ERROR "llgo_test_program(${name}): SOURCES and CASES are required")
  endif()
  set(sources "")
  foreach(source IN LISTS arg_SOURCES)
    list(APPEND sources "${LLGO_TEST_PROGRAMS_ROOT}/${source}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY LLGO_TEST_PROGRAMS ${name})
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_SOURCES "${sources}")
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_CASES "${LLGO_TEST_PROGRAMS_ROOT}/${arg_CASES}")
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_DEFAULT_EXTENSION_ONLY ${arg_DEFAULT_EXTENSION_ONLY})
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_SAMPLED_ENGINE_CASES "${arg_SAMPLED_ENGINE_CASES}")
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_OPTIONS "${arg_OPTIONS}")
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_STACK_SIZE "${arg_STACK_SIZE}")
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_LIBRARIES "${arg_LIBRARIES}")
  set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_REQUIRES "${arg_REQUIRES}")
  if(arg_GO_REFERENCE)
    set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_GO_REFERENCE "${LLGO_TEST_PROGRAMS_ROOT}/${arg_GO_REFERENCE}")
  endif()
endfunction()

# The declared programs (reads tests/programs.cmake once).
function(llgo_test_programs out)
  get_property(loaded GLOBAL PROPERTY LLGO_TEST_PROGRAMS_LOADED)
  if(NOT loaded)
    set_property(GLOBAL PROPERTY LLGO_TEST_PROGRAMS_LOADED ON)
    include("${LLGO_TEST_PROGRAMS_ROOT}/tests/programs.cmake")
  endif()
  get_property(programs GLOBAL PROPERTY LLGO_TEST_PROGRAMS)
  set(${out} "${programs}" PARENT_SCOPE)
endfunction()

# Whether program <name> links for backend <cid>: it has no REQUIRES, or the backend has that
# capability (LLGO_WASM_BACKEND_<cid>_CAPABILITIES).
function(_llgo_test_program_links out name cid)
  get_property(required GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_REQUIRES)
  set(links ON)
  if(required AND NOT required IN_LIST LLGO_WASM_BACKEND_${cid}_CAPABILITIES)
    set(links OFF)
  endif()
  set(${out} ${links} PARENT_SCOPE)
endfunction()

function(llgo_test_program_sources name out)
  get_property(sources GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_SOURCES)
  set(${out} "${sources}" PARENT_SCOPE)
endfunction()

# The target build (cmake/wasm-variant/fixtures.cmake, inside its loop over backends): every
# declared program as <name>_<cid>, through llgo_wasm_add_program.
function(llgo_wasm_add_test_programs cid)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RUNTIME" "")
  llgo_test_programs(programs)
  foreach(name IN LISTS programs)
    _llgo_test_program_links(links ${name} ${cid})
    if(NOT links)
      continue()
    endif()
    llgo_test_program_sources(${name} sources)
    get_property(default_only GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_DEFAULT_EXTENSION_ONLY)
    get_property(sampled_cases GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_SAMPLED_ENGINE_CASES)
    set(extension_option "")
    if(default_only)
      set(extension_option DEFAULT_EXTENSION_ONLY)
      if(sampled_cases)
        foreach(engine IN LISTS LLGO_WASM_TARGET_ENGINES)
          if(LLGO_WASM_ENGINE_${engine}_SAMPLED)
            list(APPEND extension_option ALSO_FOR_ENGINE ${engine})
          endif()
        endforeach()
      endif()
    endif()
    # Copies only the full tier runs (the other engines run the SAMPLED_ENGINE_CASES by default,
    # on the primary backend only).
    set(full_tier_extensions "")
    string(REPLACE "-" "_" primary_cid "${LLGO_WASM_PRIMARY_BACKEND}")
    if(NOT sampled_cases OR NOT cid STREQUAL primary_cid)
      llgo_wasm_full_tier_extensions(full_tier_extensions)
    endif()
    get_property(options GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_OPTIONS)
    set(options_option "")
    if(options)
      set(options_option OPTIONS ${options})
    endif()
    get_property(stack_size GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_STACK_SIZE)
    if(stack_size)
      list(APPEND options_option STACK_SIZE ${stack_size})
    endif()
    get_property(libraries GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_LIBRARIES)
    if(libraries)
      list(APPEND options_option LIBRARIES ${libraries})
    endif()
    if(LLGO_WASM_BACKEND_${cid}_PROGRAM_TIER STREQUAL "full")
      list(APPEND options_option FULL_TIER) # fixtures.cmake: only full-tier cases run it
    endif()
    llgo_wasm_add_program(${name}_${cid} SOURCES ${sources} RUNTIME ${arg_RUNTIME}
                          INCLUDES "${LLGO_TEST_PROGRAMS_ROOT}/tests/harness" ${extension_option} ${options_option}
                          ${full_tier_extensions})
  endforeach()
endfunction()

# The ctest cases of program <name> built for backend <ctx>. Needs the target facts
# (LlgoWasmTargetFacts.cmake), llgo_wasm_program_for (fixtures.cmake), LlgoWasmRunTest.cmake and
# LlgoWasmTestTiers.cmake. Per engine:
#   - the target's primary engine (llgo_wasm_primary_engine) and every engine marked every-case
#     (a standalone runtime: WasmEdge) run every case;
#   - another engine that is not sampled runs every case too, in the full tier, and in the default
#     tier the SAMPLED_ENGINE_CASES (a representative subset of what a second loader shows) on the
#     target's primary backend (LLGO_WASM_PRIMARY_BACKEND, fixtures.cmake);
#   - a sampled engine (a browser) runs the SAMPLED_ENGINE_CASES only: in the default tier on the
#     primary backend, on the others in the full tier.
# A case file's "timing" case is full-tier and runs serially; "tier": "full" makes a case
# full-tier; LLGO_WASM_PROGRAM_CASES_TIER=full makes every case of the tree full-tier.
# Extra test properties: PROPERTIES ...; extra check_run options for every case: CHECK_OPTIONS ...
# The hang guard of one test-program case (check_run --timeout): at least 10x the slowest case's
# time on a quiet machine (stacks' shared-parked-shallow-after-deep under WasmEdge's interpreter:
# 20 s of CPU, 40 s wall quiet; it timed out at the former 120 s with the load at 19). Below
# ctest's own 600 s, so a hang is reported by check_run, with what the program printed.
set(LLGO_WASM_PROGRAM_CASE_TIMEOUT 500 CACHE STRING "Seconds a test-program case may run before check_run stops it as hung")

function(llgo_add_test_program_cases name ctx)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "PROPERTIES;CHECK_OPTIONS")
  get_property(case_file GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_CASES)
  set(variant ${LLGO_WASM_TARGET_VARIANT})
  string(REPLACE "-" "_" cid "${ctx}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${case_file}")
  set(capabilities "${LLGO_WASM_BACKEND_${cid}_CAPABILITIES}")
  if(NOT capabilities)
    message(FATAL_ERROR "llgo_add_test_program_cases(${name} ${ctx}): no LLGO_WASM_BACKEND_${cid}_CAPABILITIES (fixtures.cmake)")
  endif()
  string(REPLACE ";" "," capabilities "${capabilities}")
  _llgo_list_program_cases(listing "${name}" "${case_file}" ${capabilities})
  get_property(default_only GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_DEFAULT_EXTENSION_ONLY)
  get_property(sampled_cases GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_SAMPLED_ENGINE_CASES)
  set(listed "")
  foreach(entry IN LISTS listing)
    string(REGEX REPLACE " .*" "" entry "${entry}")
    list(APPEND listed "${entry}")
  endforeach()
  foreach(case IN LISTS sampled_cases)
    if(NOT case IN_LIST listed)
      message(FATAL_ERROR "tests/programs.cmake: ${name}: SAMPLED_ENGINE_CASES names '${case}', "
                          "which ${case_file} does not list")
    endif()
  endforeach()
  llgo_wasm_primary_engine(primary)
  foreach(engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    set(sampled ${LLGO_WASM_ENGINE_${engine}_SAMPLED})
    if((sampled AND NOT sampled_cases) OR (NOT sampled AND default_only AND NOT
       "${LLGO_WASM_ENGINE_${engine}_EXTENSION}" STREQUAL "${LLGO_WASM_TARGET_EXTENSION}"))
      continue()
    endif()
    # The tier of this engine's runs of the cases that are not SAMPLED_ENGINE_CASES.
    set(engine_tier ${LLGO_WASM_PROGRAM_CASES_TIER})
    if(LLGO_WASM_BACKEND_${cid}_PROGRAM_TIER STREQUAL "full")
      set(engine_tier full)
    endif()
    if(NOT engine STREQUAL primary AND NOT LLGO_WASM_ENGINE_${engine}_EVERY_CASE)
      set(engine_tier full)
    endif()
    # Which cases apply under this engine (what its runner provides).
    set(provides "${LLGO_WASM_ENGINE_${engine}_PROVIDES}")
    _llgo_list_program_cases(engine_listing "${name}" "${case_file}" ${capabilities} ${provides})
    set(provides_options "")
    foreach(feature IN LISTS provides)
      list(APPEND provides_options --engine-provides ${feature})
    endforeach()
    _llgo_test_program_links(links ${name} ${cid})
    if(links)
      llgo_wasm_program_for(program ${name}_${cid} ${engine})
      set(program_file "$<TARGET_FILE:${program}>")
    else()
      # Not linked for this backend (REQUIRES): every case must need that capability, so
      # check_run reports each one skipped before it would run anything.
      set(program_file "${name}-is-not-linked-for-${ctx}")
    endif()
    llgo_wasm_engine_command(command ${engine} "${program_file}")
    set(prefix ${name}.${variant}.${engine}.${ctx})
    llgo_wasm_engine_env_options(engine_env ${engine}) # LlgoWasmRunTest.cmake
    set(labels "${variant};${engine};${LLGO_WASM_ENGINE_${engine}_LABELS};${ctx};${name}")
    set(tests "")
    if(NOT sampled AND links)
      set(tests ${prefix}.--list)
      add_test(NAME ${prefix}.--list COMMAND ${LLGO_WASM_CHECK_RUN} --exit 0 --stdout-names "${case_file}"
               --program "$<TARGET_FILE:${program}>" ${engine_env} -- ${command} --list)
      llgo_wasm_tier_labels(tier_labels ${engine_tier})
      set_tests_properties(${prefix}.--list PROPERTIES LABELS "${labels};${tier_labels}")
    endif()
    foreach(entry IN LISTS engine_listing)
      if(entry STREQUAL "")
        continue()
      endif()
      string(REPLACE " " ";" entry "${entry}")
      list(GET entry 0 case)
      list(GET entry 1 kind)
      list(GET entry 2 requirement)
      list(GET entry 3 case_tier)
      list(GET entry 4 timing)
      set(in_sample OFF)
      if(case IN_LIST sampled_cases)
        set(in_sample ON)
      endif()
      if(sampled AND NOT in_sample)
        continue()
      endif()
      set(test ${prefix}.${case})
      if(NOT kind STREQUAL "run")
        if(sampled AND kind STREQUAL "needs")
          continue() # the case's other engines already say why it does not apply here
        endif()
        string(APPEND test "[${kind}:${requirement}]")
      endif()
      # The case's tier: its own, the engine's unless the case is in the sample, the tree's.
      set(tier ${case_tier})
      if(NOT in_sample AND engine_tier STREQUAL "full")
        set(tier full)
      endif()
      if(NOT engine STREQUAL primary AND NOT LLGO_WASM_ENGINE_${engine}_EVERY_CASE AND
         NOT ctx STREQUAL "${LLGO_WASM_PRIMARY_BACKEND}")
        set(tier full)
      endif()
      if(LLGO_WASM_PROGRAM_CASES_TIER STREQUAL "full" OR LLGO_WASM_BACKEND_${cid}_PROGRAM_TIER STREQUAL "full")
        set(tier full)
      endif()
      set(timing_option "")
      if(timing STREQUAL "timing")
        set(timing_option TIMING)
      endif()
      llgo_wasm_tier_labels(tier_labels ${tier} ${timing_option})
      add_test(NAME ${test} COMMAND ${LLGO_WASM_CHECK_RUN} --case-file "${case_file}" --case ${case}
               --where ${variant}/${ctx} --capabilities ${capabilities} ${provides_options} --timeout ${LLGO_WASM_PROGRAM_CASE_TIMEOUT} --program "${program_file}"
               ${engine_env} ${arg_CHECK_OPTIONS} -- ${command} ${case})
      set_tests_properties(${test} PROPERTIES LABELS "${labels};${tier_labels}")
      if(timing_option)
        set_tests_properties(${test} PROPERTIES RUN_SERIAL ON)
      endif()
      list(APPEND tests ${test})
    endforeach()
    if(NOT tests)
      continue() # a sampled engine where none of the sampled cases applies
    endif()
    set_tests_properties(${tests} PROPERTIES SKIP_RETURN_CODE 77 ${arg_PROPERTIES})
  endforeach()
endfunction()

# The lines of `check_run --list-cases` for program <name> with <capabilities> (comma-separated:
# the backend's effective.capabilities) under an engine that provides ARGN, as a list.
function(_llgo_list_program_cases out name case_file capabilities)
  execute_process(
    COMMAND "${LLGO_WASM_CHECK_RUN}" --list-cases "${case_file}" ${capabilities} ${ARGN}
    OUTPUT_VARIABLE listing ERROR_VARIABLE error RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "test program ${name}: ${error}")
  endif()
  string(REPLACE "\n" ";" listing "${listing}")
  set(${out} "${listing}" PARENT_SCOPE)
endfunction()

# FULL_TIER_EXTENSIONS and the output extensions that only the target's engines other than the
# primary one and the every-case ones run (for llgo_wasm_add_program), or "": the copies of a
# program whose cases run on those engines in the full tier only.
function(llgo_wasm_full_tier_extensions out)
  llgo_wasm_primary_engine(primary)
  set(extensions "${LLGO_WASM_ENGINE_${primary}_EXTENSION}")
  foreach(engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    if(LLGO_WASM_ENGINE_${engine}_EVERY_CASE)
      list(APPEND extensions "${LLGO_WASM_ENGINE_${engine}_EXTENSION}")
    endif()
  endforeach()
  set(full "")
  foreach(engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    set(extension "${LLGO_WASM_ENGINE_${engine}_EXTENSION}")
    if(NOT extension IN_LIST extensions)
      list(APPEND full "${extension}")
    endif()
  endforeach()
  if(full)
    list(REMOVE_DUPLICATES full)
    list(PREPEND full FULL_TIER_EXTENSIONS)
  endif()
  set(${out} "${full}" PARENT_SCOPE)
endfunction()

# The target's primary engine, which runs every case in the default tier: the first of its engines
# (in the resolved target's order) that runs the target's default output and is neither sampled
# nor optional; else the first that is not sampled; else "".
function(llgo_wasm_primary_engine out)
  set(fallback "")
  foreach(engine IN LISTS LLGO_WASM_TARGET_ENGINES)
    if(LLGO_WASM_ENGINE_${engine}_SAMPLED)
      continue()
    endif()
    if(NOT LLGO_WASM_ENGINE_${engine}_OPTIONAL AND
       "${LLGO_WASM_ENGINE_${engine}_EXTENSION}" STREQUAL "${LLGO_WASM_TARGET_EXTENSION}")
      set(${out} ${engine} PARENT_SCOPE)
      return()
    endif()
    if(NOT fallback)
      set(fallback ${engine})
    endif()
  endforeach()
  set(${out} "${fallback}" PARENT_SCOPE)
endfunction()

# Go itself prints what the cases of program <name> that mirror a Go program expect: one test per
# <case>/main.go of its GO_REFERENCE module, natively and as js/wasm under Node. Needs
# LLGO_WASM_NODE (cmake/LlgoWasmToolchainPaths.cmake) and Python3_EXECUTABLE.
function(llgo_add_go_reference_tests name)
  get_property(module GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_GO_REFERENCE)
  get_property(case_file GLOBAL PROPERTY LLGO_TEST_PROGRAM_${name}_CASES)
  if(NOT module)
    return()
  endif()
  find_program(LLGO_GO NAMES go go-1.19 PATHS /usr/lib/go-1.19/bin)
  if(NOT LLGO_GO)
    add_test(NAME go-reference.${name}.go_missing COMMAND "${CMAKE_COMMAND}" -E echo
      "Go not found: install Debian's golang-go (tools/setup-toolchain.sh does)")
    set_tests_properties(go-reference.${name}.go_missing PROPERTIES WILL_FAIL TRUE)
    return()
  endif()
  execute_process(COMMAND "${LLGO_GO}" env GOROOT OUTPUT_VARIABLE go_root OUTPUT_STRIP_TRAILING_WHITESPACE)
  file(GLOB packages LIST_DIRECTORIES true CONFIGURE_DEPENDS "${module}/*")
  foreach(package IN LISTS packages)
    if(NOT EXISTS "${package}/main.go")
      continue()
    endif()
    get_filename_component(case "${package}" NAME)
    set(check "${Python3_EXECUTABLE}" "${LLGO_TEST_PROGRAMS_ROOT}/tests/harness/check_go_reference.py"
        --check-run "$<TARGET_FILE:llgo_wasm_check_run>" --case-file "${case_file}" --case ${case} --package "${package}" --go "${LLGO_GO}")
    set(out "${CMAKE_BINARY_DIR}/go-reference/${name}")
    add_test(NAME go-reference.${name}.native.${case} COMMAND ${check} --out "${out}/go-native")
    add_test(NAME go-reference.${name}.js-wasm.${case} COMMAND ${check} --out "${out}/js-wasm"
             --node "${LLGO_WASM_NODE}" --wasm-exec "${go_root}/misc/wasm/wasm_exec.js")
    set_tests_properties(go-reference.${name}.native.${case} go-reference.${name}.js-wasm.${case}
      PROPERTIES LABELS "go-reference;${name}" TIMEOUT 300)
  endforeach()
endfunction()
