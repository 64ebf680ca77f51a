# Query records shipped with the build (src/rules/qcheck.h): the rulebook's queries are
# analysed by tree-sitter once, here, so that no run of this build or of its install
# pays for it (about 150 ms on a first run). `tiletrans rules` compiles every rule's
# query, analysing those not recorded yet, and records them in its cache folder's
# queries/, which is the build's record folder. A record is named by the query's
# content: a rule edited after the build is analysed by the run that first sees it.
set(TT_QUERY_RECORDS_CACHE ${CMAKE_BINARY_DIR}/query-records)
file(GLOB_RECURSE TT_RULE_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rules/*.yaml ${CMAKE_SOURCE_DIR}/rules/*.yml)
set(TT_QUERY_RECORDS_STAMP ${TT_QUERY_RECORDS_CACHE}/stamp)
add_custom_command(OUTPUT ${TT_QUERY_RECORDS_STAMP}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${TT_QUERY_RECORDS_CACHE}/queries
  COMMAND ${CMAKE_COMMAND} -E env TILETRANS_CACHE_DIR=${TT_QUERY_RECORDS_CACHE} TILETRANS_QUERY_RECORDS=
          $<TARGET_FILE:tiletrans> rules --rules ${CMAKE_SOURCE_DIR}/rules --format json > ${TT_QUERY_RECORDS_STAMP}
  DEPENDS tiletrans ${TT_RULE_FILES}
  COMMENT "recording the rulebook's analysed queries" VERBATIM)
add_custom_target(query_records ALL DEPENDS ${TT_QUERY_RECORDS_STAMP})
install(DIRECTORY ${TT_QUERY_RECORDS_CACHE}/queries/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tiletrans/queries)
