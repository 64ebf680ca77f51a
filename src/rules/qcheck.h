/* qcheck.h — which rule queries have passed tree-sitter's analysis, remembered by content.
 *
 * ts_query_new analyses every pattern against the grammar's parse table. That rejects
 * a pattern no tree can match, and it is most of tiletrans's start-up (one lint of a
 * small warp-heavy file: 2.7 G of 2.8 G instructions). The analysis of a query gives
 * the same answer every time, so a run compiles its combined query with
 * ts_query_new_trusted (cmake/patches/: the same matches, no analysis) once every rule
 * query in it has passed the analysis, in this run or an earlier one. A pass is an
 * empty file in the cache folder (util/fs.h) named for the hash of the grammar and the
 * query text: a changed rule, or a changed grammar, is analysed again. Without a
 * writable cache folder, nothing is remembered and every run analyses.
 *
 * The build records the passes of the rulebook it ships (cmake/QueryRecords.cmake),
 * and an install puts them beside it (<prefix>/share/tiletrans/queries;
 * TILETRANS_QUERY_RECORDS overrides): read only, they are consulted after the cache,
 * so the first run of a fresh install, or of a CI job with an empty cache, is as fast
 * as the next. Records are named by content, so a stale one is only never found. */
#ifndef TT_QCHECK_H
#define TT_QCHECK_H

#include <stdbool.h>

#include "parser/lang.h"

typedef struct tt_qcheck tt_qcheck;

/* The record of passes in the cache folder. Owned by the caller: tt_qcheck_free. */
tt_qcheck *tt_qcheck_new(void);
void tt_qcheck_free(tt_qcheck *qc);

/* Whether `query` (of `lang`) has passed the analysis before. */
bool tt_qcheck_passed(const tt_qcheck *qc, tt_lang lang, const char *query);
/* Records that `query` passed; a record that cannot be written is left out. */
void tt_qcheck_record(const tt_qcheck *qc, tt_lang lang, const char *query);

#endif
