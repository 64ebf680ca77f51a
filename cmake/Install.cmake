# Install rules, man pages, the CMake package config and CPack (issue 12).
#
# `cmake --install build --prefix P` installs only what users run and embed:
#   bin/tiletrans                            the command line
#   share/tiletrans/rules/                   the rulebook
#   share/tiletrans/queries/                 its queries that passed tree-sitter's analysis (cmake/QueryRecords.cmake)
#   share/tiletrans/sim/include/             the sim's headers (`check` compiles harnesses with them)
#   share/tiletrans/sim/pch/                 their standard part precompiled (cmake/SimPch.cmake)
#   lib/tiletrans/libtt_sim_rt.a             the sim's runtime (`check` links harnesses with it)
#   lib/libtiletrans.so*, include/tiletrans.h, lib/cmake/tiletrans/   the embedding API
#   share/man/man1/tiletrans*.1, share/doc/tiletrans/                 docs
# No tests, benches or build-tree paths: the installed binary finds everything
# relative to itself (src/util/relocate.h), so P can be moved or copied.

set(TT_DATA_DEST ${CMAKE_INSTALL_DATADIR}/tiletrans)

install(TARGETS tiletrans RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/rules/ DESTINATION ${TT_DATA_DEST}/rules)
if(TARGET tt_sim_rt)
  install(DIRECTORY ${TT_SIM_INCLUDE_DIR}/ DESTINATION ${TT_DATA_DEST}/sim/include)
  install(TARGETS tt_sim_rt ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/tiletrans)
endif()
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")

# --- man pages: generated from each command's --help by help2man, so the help text
# is their single source; cmake/man-extra.h2m adds the sections --help has not
# (files, environment).
# Off by default in sanitizer builds, which are for testing, not for installing.
if(TT_SANITIZE)
  option(TT_MANPAGES "Generate man pages from --help (needs help2man)" OFF)
else()
  option(TT_MANPAGES "Generate man pages from --help (needs help2man)" ON)
endif()
if(TT_MANPAGES)
  find_program(HELP2MAN help2man)
  if(NOT HELP2MAN)
    message(FATAL_ERROR "help2man not found: apt-get install help2man (scripts/install-deps.sh), "
                        "or configure with -DTT_MANPAGES=OFF")
  endif()
  set(TT_MAN_DIR ${CMAKE_BINARY_DIR}/man)
  # name | one-line description (the NAME section).
  set(TT_MAN_PAGES
    "tiletrans|port GPU kernels between programming models and prove each port"
    "lint|report the constructs that change meaning on the target"
    "rewrite|apply the rulebook's fixes (translate) to source trees"
    "check|run reference and translation on a SIMT CPU executor and compare their numbers"
    "rules|list the rulebook"
    "explain|explain one rule in full"
    "test-rules|run every rule's own examples")
  set(TT_MAN_FILES "")
  foreach(entry ${TT_MAN_PAGES})
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 cmd)
    list(GET parts 1 what)
    # help2man names a page after the program it runs: a subcommand's page runs a
    # two-line wrapper named tiletrans-<cmd>.
    if(cmd STREQUAL "tiletrans")
      set(page tiletrans)
      set(prog $<TARGET_FILE:tiletrans>)
    else()
      set(page tiletrans-${cmd})
      set(prog ${TT_MAN_DIR}/bin/${page})
      file(GENERATE OUTPUT ${prog} CONTENT "#!/bin/sh\nexec '$<TARGET_FILE:tiletrans>' ${cmd} \"$@\"\n"
           FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    endif()
    set(out ${TT_MAN_DIR}/${page}.1)
    # NO_COLOR and a plain TERM keep escape codes out of the pages.
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${TT_MAN_DIR}
      COMMAND ${CMAKE_COMMAND} -E env NO_COLOR=1 TERM=dumb
              ${HELP2MAN} --no-info --section=1
              --name=${what} --version-string=${PROJECT_VERSION}
              --include=${CMAKE_SOURCE_DIR}/cmake/man-extra.h2m --output=${out} ${prog}
      DEPENDS tiletrans ${CMAKE_SOURCE_DIR}/cmake/man-extra.h2m
      COMMENT "man page ${page}(1)" VERBATIM)
    list(APPEND TT_MAN_FILES ${out})
  endforeach()
  add_custom_target(man ALL DEPENDS ${TT_MAN_FILES})
  install(FILES ${TT_MAN_FILES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# --- find_package(tiletrans): exports tiletrans::tiletrans (libtiletrans).
include(CMakePackageConfigHelpers)
set(TT_CMAKE_DEST ${CMAKE_INSTALL_LIBDIR}/cmake/tiletrans)
install(TARGETS tiletrans_lib EXPORT tiletransTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT tiletransTargets NAMESPACE tiletrans:: DESTINATION ${TT_CMAKE_DEST})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/tiletransConfig.cmake.in
  ${CMAKE_BINARY_DIR}/tiletransConfig.cmake INSTALL_DESTINATION ${TT_CMAKE_DEST})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tiletransConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tiletransConfig.cmake ${CMAKE_BINARY_DIR}/tiletransConfigVersion.cmake
  DESTINATION ${TT_CMAKE_DEST})

# --- CPack: `cd build && cpack` makes tiletrans-<version>-Linux.deb and .tar.gz.
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_NAME tiletrans)
set(CPACK_PACKAGE_VENDOR "tiletrans")
set(CPACK_PACKAGE_CONTACT "tiletrans maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Port GPU kernels between programming models and prove each port numerically")
set(CPACK_RESOURCE_FILE_README ${CMAKE_SOURCE_DIR}/README.md)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# `tiletrans check` compiles harnesses with the system C++ compiler; the semantic
# layer dlopen()s libclang (src/sema/clang_api.h) and says so when it is missing.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, libclang1-16")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
