# The sim's shim header precompiled at build time (src/checker/build.h,
# tt_check_precompile_shims): parsing the standard library is most of compiling a
# check harness, and a first `check` of an empty cache would otherwise parse it twice
# (reference and candidate) and make no precompiled header, which pays only from the
# third harness on. tt-precompile writes ${TT_SIM_PCH_DIR}/<name>/tt_sim_std.hpp.gch,
# named for the header's text, the compiler command and the flags, so `check` finds it
# only when it would compile the same; GCC itself refuses a .gch of other options.
# Installed as share/tiletrans/sim/pch; TILETRANS_SIM_PCH overrides where it is read.
set(TT_SIM_PCH_DIR ${CMAKE_BINARY_DIR}/sim-pch)
add_executable(tt-precompile ${CMAKE_SOURCE_DIR}/tools/tt_precompile.c)
target_link_libraries(tt-precompile PRIVATE tt_checker)
target_compile_definitions(tt_checker PRIVATE TT_CHECK_SIM_PCH="${TT_SIM_PCH_DIR}")
set(TT_SIM_PCH_STAMP ${TT_SIM_PCH_DIR}/stamp)
add_custom_command(OUTPUT ${TT_SIM_PCH_STAMP}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${TT_SIM_PCH_DIR}
  COMMAND ${CMAKE_COMMAND} -E env TILETRANS_CACHE_DIR=${CMAKE_BINARY_DIR}/sim-pch-cache
          TILETRANS_SIM_INCLUDE_DIR=${TT_SIM_INCLUDE_DIR} TILETRANS_SIM_LIB=$<TARGET_FILE:tt_sim_rt>
          $<TARGET_FILE:tt-precompile> ${TT_SIM_PCH_DIR}
  COMMAND ${CMAKE_COMMAND} -E touch ${TT_SIM_PCH_STAMP}
  DEPENDS tt-precompile tt_sim_rt ${TT_SIM_INCLUDE_DIR}/tt_sim_std.hpp
  COMMENT "precompiling the sim's shim header" VERBATIM)
add_custom_target(sim_pch ALL DEPENDS ${TT_SIM_PCH_STAMP})
install(DIRECTORY ${TT_SIM_PCH_DIR}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tiletrans/sim/pch
  PATTERN stamp EXCLUDE PATTERN .lock EXCLUDE)
