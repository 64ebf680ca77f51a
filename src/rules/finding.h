/* finding.h — what a rule reports about a file, with its fix. */
#ifndef TT_FINDING_H
#define TT_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parser/source.h"
#include "rules/rule.h"

typedef struct tt_edit {
  uint32_t start, end;  /* bytes of the file replaced, end exclusive (start == end: insert) */
  char *replacement;    /* owned */
} tt_edit;

/* What happened to a finding's fix during a rewrite. */
typedef enum tt_fix_status {
  TT_FIX_NONE,          /* lint, or not yet planned */
  TT_FIX_APPLIED,
  TT_FIX_CONFLICT,      /* overlapped the fix of another finding that won */
  TT_FIX_SYNTAX_ERROR,  /* touched a region that failed to parse: refused */
} tt_fix_status;

typedef struct tt_finding {
  const tt_rule *rule;  /* borrowed from the rulebook */
  tt_severity severity; /* effective severity (after overrides) */
  char *message;        /* owned, templates substituted */
  uint32_t start, end;  /* byte range */
  tt_pos start_pos, end_pos;
  bool has_fix;
  char *fix_description; /* owned; NULL when !has_fix */
  tt_edit *edits;        /* owned */
  size_t n_edits;
  tt_fix_status fix_status;
  char *unconfirmed;     /* owned; why a semantic predicate of its rule could not be
                            answered (the finding is reported unconfirmed), or NULL */
} tt_finding;

typedef struct tt_findings {
  tt_finding *items;
  size_t n, cap;
  /* Some query match of the file was given up (see match.c, k_match_limit): nesting
   * deeper than any hand-written code; the findings may be incomplete. */
  bool incomplete;
} tt_findings;

void tt_finding_clear(tt_finding *f);
void tt_findings_free(tt_findings *fs);
/* Moves every finding of `from` to the end of `to`; `from` is left empty. */
void tt_findings_move(tt_findings *to, tt_findings *from);
/* Sorts by position, then rule id, and drops exact duplicates (same rule and range). */
void tt_findings_sort(tt_findings *fs);

#endif
