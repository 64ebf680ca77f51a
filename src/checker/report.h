/* report.h — `tiletrans check` output: the text table and the JSON document.
 *
 * Owned by the checker. The JSON shape is a contract (DESIGN.md "Check specs"):
 * {"tool", "checks": [{"name", "spec", "status", "backend", "reference",
 * "candidate", "outputs": [{"name", "max_abs_err", "max_rel_err", "mismatches",
 * "count"}], "message", "time_s"}], "summary"}. */
#ifndef TT_CHECK_REPORT_H
#define TT_CHECK_REPORT_H

#include <stdio.h>
#include "checker/check.h"

/* One row per check, then the messages of the checks that did not pass, then a
 * summary line. */
void tt_check_report_text(FILE *f, const tt_check_result *r, size_t n, double total_s);

/* Returns 0, or -1 when the JSON could not be built. */
int tt_check_report_json(FILE *f, const tt_check_result *r, size_t n, double total_s);

#endif
