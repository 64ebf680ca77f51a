/* report.h — `tiletrans check` output: the text table, the JSON document, JUnit XML
 * and Markdown.
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

/* JUnit XML (the schema Jenkins, GitLab and GitHub test reporters read): one
 * <testsuite name="tiletrans check">, one <testcase> per spec (name = check name,
 * classname = "tiletrans.check.<backend>", file = spec path, time), with
 * <properties> holding the sides and, per output buffer, max_abs_err, max_rel_err,
 * mismatches and count; MISMATCH and RUN-FAIL are <failure>s, TRANSLATE-FAIL and
 * BUILD-FAIL <error>s (type = the verdict, text = the message). Written with
 * libxml2. Returns 0, or -1 when the XML could not be written. */
int tt_check_report_junit(FILE *f, const tt_check_result *r, size_t n, double total_s);

/* GitHub-flavoured Markdown for $GITHUB_STEP_SUMMARY: a heading with the tally, one
 * table row per check (verdict, sides, worst errors, mismatches, time), then each
 * message that is not PASS in a collapsed block. Text from specs is escaped for
 * table cells; messages sit in code fences longer than any backtick run in them. */
void tt_check_report_markdown(FILE *f, const tt_check_result *r, size_t n, double total_s);

#endif
