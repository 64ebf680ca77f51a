/* suppress.h — in-source suppressions: `tiletrans-ignore` comments.
 *
 *   code;  // tiletrans-ignore: RULE_ID[, RULE_ID...]     this line
 *   // tiletrans-ignore: RULE_ID                          alone: this line and the next
 *   /+ tiletrans-ignore: RULE_ID +/   (a block comment, same rules; + stands for *)
 *   // tiletrans-ignore-next-line: RULE_ID                the next line only
 *
 * Any comment form of the language works (`//`, block comments, `#`, Julia's `#= =#`):
 * the directive is recognised only inside a comment node of the syntax tree, never in
 * a string. The ids are a comma-separated list; anything after the last id (a reason)
 * is free text. A scan is linear in the file: one memmem pass for the keyword and a
 * per-line index of the lines each directive covers. */
#ifndef TT_SUPPRESS_H
#define TT_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parser/tree.h"

/* One rule id named by one directive. */
typedef struct tt_suppression {
  char *id;              /* owned */
  uint32_t line, column; /* where the id is written (1-based; column in bytes) */
  uint32_t first, last;  /* lines it covers, inclusive */
  bool used;             /* it silenced at least one finding */
} tt_suppression;

/* A directive that could not be read (`tiletrans-ignore` with no id). */
typedef struct tt_suppress_bad {
  uint32_t line, column;
} tt_suppress_bad;

typedef struct tt_suppress_link tt_suppress_link;

typedef struct tt_suppressions {
  tt_suppression *items;
  size_t n, cap;
  tt_suppress_bad *bad;
  size_t n_bad, bad_cap;
  /* Every (line, suppression) pair, sorted by line, then id, then the latest
   * suppression first; line l's pairs are links[line_start[l] .. line_start[l + 1]),
   * so a finding's lookup is a binary search (30,000 findings on a line naming
   * 30,000 ids stay n log n). */
  uint32_t *line_start;  /* n_lines + 1 entries */
  uint32_t n_lines;
  struct tt_suppress_link {
    int32_t item;        /* index into items */
    uint32_t line;
  } *links;
  size_t n_links;
} tt_suppressions;

/* Finds every directive of the file of `tree`. Free with tt_suppressions_free. */
void tt_suppressions_scan(const tt_tree *tree, tt_suppressions *out);
void tt_suppressions_free(tt_suppressions *s);

/* The suppression naming `rule_id` that covers `line`, or NULL. */
tt_suppression *tt_suppressions_find(const tt_suppressions *s, uint32_t line, const char *rule_id);

/* What a lint report says about a suppression that does no work. */
typedef struct tt_suppress_issue {
  uint32_t line, column;
  char *message;         /* owned */
} tt_suppress_issue;

typedef struct tt_suppress_issues {
  tt_suppress_issue *items;
  size_t n, cap;
} tt_suppress_issues;

void tt_suppress_issues_free(tt_suppress_issues *is);

#endif
