/* ruleset.h — choosing rules for a run by id or glob (`--select`, `--ignore`), the
 * dependencies between rules that such a choice must keep, and "did you mean" for
 * rule ids.
 *
 * Rules depend on each other through facts: a classifier records a fact (its `fact:`
 * option) that other rules read with `#tt-fact?`. Both ends are read from the rule
 * files (tt_rule.fact_defined, tt_rule.facts_read); no rule is known by name. */
#ifndef TT_RULESET_H
#define TT_RULESET_H

#include "rules/rulebook.h"

/* The id of `book` nearest to `id` (edit distance at most a third of its length, and
 * at least 1), or NULL when none is near. Borrowed from the book. */
const char *tt_ruleset_suggest(const tt_rulebook *book, const char *id);

/* Every `#tt-fact?` of the book names a fact some rule of the book records. Returns 0,
 * or -1 with *err (malloc'd) "file:line:col: …" for each one that names none. */
int tt_ruleset_check_facts(const tt_rulebook *book, char **err);

/* Which rules a run keeps: `select` patterns (ids or fnmatch globs; none: all) minus
 * `ignore` patterns. On success returns 0 and *keep (malloc'd, one flag per rule of
 * the book, in book order). Returns -1 with *err (malloc'd) when a pattern matches no
 * rule (with a suggestion), or when, among the rules of `target` (NULL: every target),
 * a kept rule reads a fact that only removed rules record. */
int tt_ruleset_choose(const tt_rulebook *book, const char *target, const char *const *select, size_t n_select,
                      const char *const *ignore, size_t n_ignore, bool **keep, char **err);

#endif
