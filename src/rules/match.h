/* match.h — running rules over a parsed file to produce findings. */
#ifndef TT_MATCH_H
#define TT_MATCH_H

#include "parser/tree.h"
#include "rules/finding.h"
#include "rules/rulebook.h"

/* Appends to `out` the findings of every rule of `book` selected by `sel` for `tree`'s
 * language: one pass of the combined query, then the analyzers. Suppressed findings
 * (tiletrans-ignore comments) are dropped; the result is sorted. */
void tt_match_tree(const tt_rulebook *book, const tt_selection *sel, const tt_tree *tree, tt_findings *out);

/* Same for one rule alone (test-rules). The classifiers of `facts_from` (may be NULL)
 * run first, for their facts only, so rules using `#tt-fact?` work alone too. */
int tt_match_rule(const tt_rule *rule, const tt_rulebook *facts_from, const tt_tree *tree, tt_findings *out,
                  char **err);

/* True when a `tiletrans-ignore:` comment on line `line` (or alone on the line above)
 * names `rule_id`. */
bool tt_suppressed(const tt_source *src, uint32_t line, const char *rule_id);

#endif
