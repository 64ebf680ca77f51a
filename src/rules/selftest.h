/* selftest.h — running a rule's own examples (`tiletrans test-rules`). */
#ifndef TT_SELFTEST_H
#define TT_SELFTEST_H

#include "rules/rule.h"
#include "rules/rulebook.h"
#include "util/util.h"

/* Runs every example of `rule` (with the facts of `book`'s classifiers, which may be
 * NULL): `match` code must be flagged (exactly `count` times when
 * given), `no_match` code must not be, the rule's fixes applied alone to a fixpoint must
 * give `fixed`, and rewriting `fixed` again must change nothing. Appends a description of
 * each failure to `log`. Returns the number of failed examples. */
int tt_rule_selftest(const tt_rule *rule, const tt_rulebook *book, tt_buf *log);

#endif
