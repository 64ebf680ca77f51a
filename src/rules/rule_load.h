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

/* Like tt_rule_load but without compiling the query on its own: compiling costs about
 * the same for a small query as for a large one, so the rulebook compiles all rules of
 * a language together and calls tt_rule_load only to pinpoint an error. Everything
 * else (keys, types, templates against the query's capture names) is validated. */
tt_rule *tt_rule_load_deferred(const char *path, char **err);

/* tt_rule_load_deferred for a run that matches only files of the languages `langs`
 * marks: the file of a rule of another language is read only as far as its `id`,
 * `target` and `language` keys, into a stub (tt_rule.stub). A file whose head is not
 * plainly valid is loaded whole, to report it. */
tt_rule *tt_rule_load_for(const char *path, const bool langs[TT_LANG_COUNT], char **err);

#endif
