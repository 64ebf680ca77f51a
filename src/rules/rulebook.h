/* rulebook.h — every rule of a run, loaded once, with one combined query per language.
 *
 * All query rules of a language are compiled into one tree-sitter query so that a
 * file is walked once for all of them (pattern index → rule). The rulebook is
 * immutable after loading and may be shared by threads. */
#ifndef TT_RULEBOOK_H
#define TT_RULEBOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "parser/tree.h"
#include "rules/predicate.h"
#include "rules/rule.h"

/* A compiled query with, per pattern, the rule it belongs to and its predicates. */
typedef struct tt_queryset {
  TSQuery *query;
  uint32_t n_patterns;
  const tt_rule **pattern_rule;
  tt_pred_list *preds;
  int64_t *range_capture;   /* per pattern: capture id of the finding's range, -1: widest */
} tt_queryset;

typedef struct tt_rulebook {
  tt_rule **rules;          /* owned, sorted by id */
  size_t n_rules;
  tt_queryset by_lang[TT_LANG_COUNT];
  bool compiled[TT_LANG_COUNT]; /* by_lang[l] was built (it may be empty: no query rules) */
  bool stubbed[TT_LANG_COUNT];  /* some rule of language l is a stub (tt_rulebook_load_for) */
  bool borrowed;            /* rules belong to someone else (tt_rulebook_of_rule) */
} tt_rulebook;

/* Loads every *.yaml / *.yml file under each folder of `dirs` (n_dirs entries), in
 * sorted order. On error returns NULL with *err (malloc'd) listing every bad file, one
 * "path:line:col: message" per line. Duplicate ids are errors. Free with
 * tt_rulebook_free. */
tt_rulebook *tt_rulebook_load(const char *const *dirs, size_t n_dirs, char **err);
void tt_rulebook_free(tt_rulebook *book);

/* The same, with no query compiled yet: compiling the queries of a language is most of
 * the start-up (tree-sitter analyses each pattern against the grammar), so a run
 * compiles the languages of its inputs only, with tt_rulebook_compile, before it
 * matches (and before it shares the book between threads: compiling writes to it).
 * The rule files are checked as by tt_rulebook_load, except for query errors of
 * languages never compiled. */
tt_rulebook *tt_rulebook_load_uncompiled(const char *const *dirs, size_t n_dirs, char **err);

/* tt_rulebook_load_uncompiled for a run over files of the languages `langs` marks:
 * the rules of the other languages are stubs (tt_rule.stub: id, target, language and
 * file, which is what choosing rules, config overrides and suppressions need to
 * know of them), for their YAML is most of the start-up. A stub's file is checked
 * only as far as those keys: its other errors are reported by a run that loads it.
 * The book is for matching files of those languages only: its stubs have no
 * matcher, no text and no examples, and compiling a stubbed language aborts. */
tt_rulebook *tt_rulebook_load_for(const char *const *dirs, size_t n_dirs, const bool langs[TT_LANG_COUNT], char **err);

/* Which query patterns of a book a run needs: one mark per top-level pattern of each
 * rule's query (per rule, when its prefilter could not split the query). Made for one
 * book (it must outlive it); free with tt_needed_free. */
typedef struct tt_needed tt_needed;
tt_needed *tt_needed_new(const tt_rulebook *book);
void tt_needed_free(tt_needed *n);

/* Compiles the combined query of `lang`, once (later calls return at once), of the
 * patterns `needed` marks (NULL: all). Leaving out a pattern that could match a file
 * matched later changes its findings: mark with tt_rulebook_mark_needed for every
 * text the book will match. Returns 0, or -1 with *err (malloc'd) naming each rule
 * file at fault, one per line. Matching a file of a language not compiled is a
 * programming error (tt_match_tree aborts). */
int tt_rulebook_compile(tt_rulebook *book, tt_lang lang, const tt_needed *needed, char **err);

/* A rulebook holding only `rule` and the classifiers of `facts_from` (may be NULL),
 * all borrowed (they must outlive it); for running one rule's fixes alone. NULL with
 * *err on failure. */
tt_rulebook *tt_rulebook_of_rule(const tt_rule *rule, const tt_rulebook *facts_from, char **err);

const tt_rule *tt_rulebook_find(const tt_rulebook *book, const char *id);
/* Calls put(ud, name, value) for each macro that the rules of `target` assume the
 * target's build defines (the options of analyzers such as preprocessor-branches),
 * in rule order; a name may come more than once. A build of a port must define them:
 * the rules read the branches they guard as the target's. */
void tt_rulebook_target_defines(const tt_rulebook *book, const char *target,
                                void (*put)(void *ud, const char *name, const char *value), void *ud);

/* Builds a query set for a single rule (query rules only); returns 0 or -1 with *err. */
int tt_queryset_init_rule(tt_queryset *qs, const tt_rule *rule, char **err);
void tt_queryset_free(tt_queryset *qs);

/* Severity overrides and filters for a run. */
typedef struct tt_override {
  char *rule_id;
  tt_severity severity;     /* TT_SEV_OFF disables the rule */
} tt_override;

struct tt_sema;

typedef struct tt_selection {
  const char *target;           /* NULL: every target */
  const tt_override *overrides; /* later entries win */
  size_t n_overrides;
  const char *const *target_defines; /* macros the target side defines (config `hip_defines`) */
  size_t n_target_defines;
  struct tt_sema *sema;         /* the run's semantic layer (borrowed); NULL: each file
                                   makes one with default options when a rule asks */
} tt_selection;

/* The severity `rule` has in this run, or TT_SEV_OFF when it does not run (an opt-in
 * rule runs only where an override names it). A NULL selection selects every rule at
 * its own severity. */
tt_severity tt_selection_severity(const tt_selection *sel, const tt_rule *rule);

/* Marks in `needed` (marks already set stay) the query patterns of the rules of `lang`
 * that `sel` runs which their prefilter (rules/prefilter.h) says may match `text`. Only
 * for a text matched as it is: a rewrite matches text its fixes made, which needs
 * every rule. */
void tt_rulebook_mark_needed(const tt_rulebook *book, const tt_selection *sel, tt_lang lang, const char *text,
                             size_t len, tt_needed *needed);

#endif
