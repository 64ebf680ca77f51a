/* rule_load.h — reading and validating one rule file. */
#ifndef TT_RULE_LOAD_H
#define TT_RULE_LOAD_H

#include "rules/rule.h"

/* Loads the rule in `path`, validates every key (docs/rule-format.md) and compiles its
 * query. Returns the rule (caller frees with tt_rule_free), or NULL with *err set
 * (malloc'd) to "path:line:col: message" naming the offending key. */
tt_rule *tt_rule_load(const char *path, char **err);

/* Same, from text in memory; `path` is used in messages. */
tt_rule *tt_rule_load_text(const char *path, const char *text, char **err);

#endif
