/* match.h — running rules over a parsed file to produce findings. */
#ifndef TT_MATCH_H
#define TT_MATCH_H

#include "parser/tree.h"
#include "rules/finding.h"
#include "rules/rulebook.h"
#include "rules/suppress.h"

/* Appends to `out` the findings of every rule of `book` selected by `sel` for `tree`'s
 * language: one pass of the combined query, then the analyzers. Suppressed findings
 * (tiletrans-ignore comments, rules/suppress.h) are dropped; the result is sorted. */
void tt_match_tree(const tt_rulebook *book, const tt_selection *sel, const tt_tree *tree, tt_findings *out);

/* Same for one rule alone (test-rules). The classifiers of `facts_from` (may be NULL)
 * run first, for their facts only, so rules using `#tt-fact?` work alone too. */
int tt_match_rule(const tt_rule *rule, const tt_rulebook *facts_from, const tt_tree *tree, tt_findings *out,
                  char **err);

/* What tt_match_tree_ex reports beside the findings. Owns its contents. */
typedef struct tt_match_extra {
  tt_findings suppressed;    /* findings a tiletrans-ignore comment silenced, sorted */
  tt_suppress_issues issues; /* suppressions that name no rule or suppress nothing */
} tt_match_extra;

/* tt_match_tree, also keeping the suppressed findings and reporting the suppressions
 * that do no work in `extra` (zero it first; may be NULL). */
void tt_match_tree_ex(const tt_rulebook *book, const tt_selection *sel, const tt_tree *tree, tt_findings *out,
                      tt_match_extra *extra);
void tt_match_extra_free(tt_match_extra *x);

#endif
