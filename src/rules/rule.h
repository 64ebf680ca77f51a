/* rule.h — one rule of the rulebook, as loaded from its YAML file.
 *
 * A rule is data: the engine knows no rule by name. Everything a pitfall needs — how to
 * find it, what to say, how to fix it, and the examples that test it — lives in the
 * rule file (docs/rule-format.md). */
#ifndef TT_RULE_H
#define TT_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "parser/lang.h"

typedef enum tt_severity {
  TT_SEV_OFF = -1, /* only as an override: the rule is disabled */
  TT_SEV_NOTE = 0,
  TT_SEV_WARNING = 1,
  TT_SEV_ERROR = 2,
} tt_severity;

typedef enum tt_category {
  TT_CAT_WARP_SIZE,
  TT_CAT_MASK_WIDTH,
  TT_CAT_BALLOT_WIDTH,
  TT_CAT_INDEXING_BASE,
  TT_CAT_LAYOUT_FLIP,
  TT_CAT_ACCUMULATOR_SHAPE,
  TT_CAT_BROADCASTING,
  TT_CAT_API_MAPPING,
  TT_CAT_SYNC,
  TT_CAT_NUMERIC,
  TT_CAT_UNSUPPORTED,
  TT_CAT_COUNT
} tt_category;

const char *tt_severity_name(tt_severity s);
/* Returns 0 and sets *out, or -1 for an unknown name. "off" is accepted only when
 * allow_off. */
int tt_severity_parse(const char *name, bool allow_off, tt_severity *out);
const char *tt_category_name(tt_category c);
int tt_category_parse(const char *name, tt_category *out);

/* Targets a rule can port to. */
bool tt_target_valid(const char *target);
#define TT_TARGETS "hip, julia, triton"

typedef enum tt_edit_kind { TT_EDIT_REPLACE, TT_EDIT_INSERT_BEFORE, TT_EDIT_INSERT_AFTER } tt_edit_kind;

typedef struct tt_rule_edit {
  tt_edit_kind kind;
  char *capture;  /* the capture (or analyzer binding) the edit applies to */
  char *until;    /* REPLACE only, optional: the range extends to this capture's start */
  char *tmpl;     /* replacement / inserted text, a template */
} tt_rule_edit;

typedef struct tt_rule_example {
  bool must_match;  /* `match:` (true) or `no_match:` (false) */
  char *code;
  char *fixed;      /* expected text after the rule's fixes; NULL when not given */
  int count;        /* exact number of findings expected; -1 for "at least one" */
  uint32_t line;    /* line of the example in the rule file */
} tt_rule_example;

struct tt_analyzer;
struct tt_pred_list;

/* A fact a rule's query reads with `#tt-fact?` or `#tt-not-fact?`, and where. */
typedef struct tt_rule_fact_ref {
  char *name;
  uint32_t line, column; /* in the rule file */
} tt_rule_fact_ref;

typedef struct tt_rule {
  char *file;       /* the rule file's path */
  char *id, *target, *summary, *message, *explain;
  tt_lang language;
  tt_category category;
  tt_severity severity;
  /* Runs only where a config's `severity:` or an exact `--select` id names it: a
   * pitfall of a convention some projects keep (tiletrans check's `# layout:` line). */
  bool opt_in;

  char *query_text;            /* NULL for analyzer rules */
  uint32_t query_line;         /* line in the rule file where the query text starts */
  char **captures;             /* the query's capture names in order of first use */
  size_t n_captures;
  char *range_capture;         /* NULL: `match` if defined, else the first capture */
  struct tt_prefilter *prefilter; /* owned; NULL: may match any text (rules/prefilter.h) */

  const struct tt_analyzer *analyzer; /* NULL for query rules */
  void *analyzer_opts;                /* compiled options, owned; freed by the analyzer */

  bool has_fix;
  char *fix_description;
  tt_rule_edit *edits;         /* may be empty for analyzer rules: the analyzer edits */
  size_t n_edits;

  tt_rule_example *examples;
  size_t n_examples;
  char **references;
  size_t n_references;

  /* Dependencies between rules, read from the rule files (rules/ruleset.h checks them):
   * the fact a classifier records (its `fact:` option) and the facts a query reads. */
  char *fact_defined;          /* NULL for rules that record none */
  tt_rule_fact_ref *facts_read;
  size_t n_facts_read;
  /* Only `file`, `id`, `target` and `language` were read (the rest is zero): a run
   * with no input of the rule's language loads no more (tt_rulebook_load_for). */
  bool stub;
} tt_rule;

void tt_rule_free(tt_rule *r);

#endif
