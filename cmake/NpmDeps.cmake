# Fetches the npm packages listed in deps.lock with `npm pack`, verifies each tarball's
# SHA-512 against the lock file, and unpacks it into ${TT_DEPS_DIR}/<name>/.
# A tarball already present with the right hash is not fetched again.

set(TT_DEPS_DIR "${CMAKE_BINARY_DIR}/_deps/npm")
file(MAKE_DIRECTORY "${TT_DEPS_DIR}")
find_program(NPM_EXECUTABLE npm REQUIRED)

function(tt_npm_fetch name version sha512)
  set(tgz "${TT_DEPS_DIR}/${name}-${version}.tgz")
  set(have "")
  if(EXISTS "${tgz}")
    file(SHA512 "${tgz}" have)
  endif()
  if(NOT have STREQUAL sha512)
    message(STATUS "npm pack ${name}@${version}")
    execute_process(
      COMMAND "${NPM_EXECUTABLE}" pack "${name}@${version}" --silent --pack-destination "${TT_DEPS_DIR}"
      WORKING_DIRECTORY "${TT_DEPS_DIR}"
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${tgz}")
      message(FATAL_ERROR "npm pack ${name}@${version} failed: ${err}")
    endif()
    file(SHA512 "${tgz}" have)
    if(NOT have STREQUAL sha512)
      file(REMOVE "${tgz}")
      message(FATAL_ERROR "integrity check failed for ${name}@${version}:\n  expected ${sha512}\n  got      ${have}")
    endif()
    file(REMOVE_RECURSE "${TT_DEPS_DIR}/${name}")
  endif()
  if(NOT EXISTS "${TT_DEPS_DIR}/${name}/package.json")
    file(MAKE_DIRECTORY "${TT_DEPS_DIR}/${name}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${tgz}"
                    WORKING_DIRECTORY "${TT_DEPS_DIR}/${name}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "cannot unpack ${tgz}")
    endif()
    # npm tarballs hold one top folder, package/; flatten it.
    file(GLOB inner "${TT_DEPS_DIR}/${name}/package/*")
    foreach(f ${inner})
      get_filename_component(base "${f}" NAME)
      file(RENAME "${f}" "${TT_DEPS_DIR}/${name}/${base}")
    endforeach()
    file(REMOVE_RECURSE "${TT_DEPS_DIR}/${name}/package")
  endif()
endfunction()

file(STRINGS "${CMAKE_SOURCE_DIR}/deps.lock" lock_lines REGEX "^[a-z]")
foreach(line ${lock_lines})
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(GET fields 0 n)
  list(GET fields 1 v)
  list(GET fields 2 h)
  tt_npm_fetch(${n} ${v} ${h})
endforeach()

# The tree-sitter runtime, from the node binding's vendored C library, patched in a
# copy named for the patch's hash (cmake/patches/*.patch says what and why; a changed
# patch makes a new copy, the package stays as npm packed it).
set(TS_PATCH "${CMAKE_SOURCE_DIR}/cmake/patches/tree-sitter-0.25.1-query-trusted.patch")
file(SHA256 "${TS_PATCH}" ts_patch_sha)
string(SUBSTRING "${ts_patch_sha}" 0 16 ts_patch_sha)
set(TS_LIB "${CMAKE_BINARY_DIR}/_deps/tree-sitter-lib-${ts_patch_sha}")
if(NOT EXISTS "${TS_LIB}/.patched")
  find_program(PATCH_EXECUTABLE patch REQUIRED)
  file(GLOB ts_old_copies "${CMAKE_BINARY_DIR}/_deps/tree-sitter-lib-*")
  if(ts_old_copies)
    file(REMOVE_RECURSE ${ts_old_copies})
  endif()
  file(COPY "${TT_DEPS_DIR}/tree-sitter/vendor/tree-sitter/lib/" DESTINATION "${TS_LIB}")
  execute_process(COMMAND "${PATCH_EXECUTABLE}" -p1 --batch --input "${TS_PATCH}"
                  WORKING_DIRECTORY "${TS_LIB}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot apply ${TS_PATCH}:\n${out}")
  endif()
  file(WRITE "${TS_LIB}/.patched" "${ts_patch_sha}\n")
endif()
add_library(tree_sitter STATIC "${TS_LIB}/src/lib.c")
target_include_directories(tree_sitter SYSTEM PUBLIC "${TS_LIB}/include" PRIVATE "${TS_LIB}/src")
target_compile_options(tree_sitter PRIVATE -w -O2)
set_target_properties(tree_sitter PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)

function(tt_grammar target pkg)
  set(dir "${TT_DEPS_DIR}/${pkg}/src")
  set(srcs "${dir}/parser.c")
  if(EXISTS "${dir}/scanner.c")
    list(APPEND srcs "${dir}/scanner.c")
  endif()
  add_library(${target} STATIC ${srcs})
  target_include_directories(${target} PRIVATE "${dir}")
  # Grammar tables are generated code: build them optimised even in debug and
  # sanitizer builds, where instrumenting them only costs time.
  target_compile_options(${target} PRIVATE -w -O1 -fno-sanitize=all)
  set_target_properties(${target} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
endfunction()

tt_grammar(ts_cuda tree-sitter-cuda)
tt_grammar(ts_python tree-sitter-python)
tt_grammar(ts_julia tree-sitter-julia)
