/* predicate.h — the predicates of tree-sitter queries, evaluated by tiletrans.
 *
 * tree-sitter parses `(#name? @cap "arg" …)` into steps but evaluates none of them;
 * this module compiles each pattern's predicates once (regexes included) and evaluates
 * them per match. The supported set is documented in docs/rule-format.md. */
#ifndef TT_PREDICATE_H
#define TT_PREDICATE_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "parser/tree.h"
#include "rules/filectx.h"

typedef struct tt_pred tt_pred;

typedef struct tt_pred_list {
  tt_pred *items;
  size_t n;
} tt_pred_list;

/* Compiles the predicates of `pattern` in `q`. Returns 0, or -1 with *err (malloc'd)
 * describing the unknown predicate, bad argument or regex. */
int tt_preds_compile(const TSQuery *q, uint32_t pattern, tt_pred_list *out, char **err);
void tt_preds_free(tt_pred_list *pl);

/* True when every predicate holds for match `m` in the file of `ctx`. The list is only
 * read (thread-safe); `ctx` may build its constant table on first use. */
bool tt_preds_hold(const tt_pred_list *pl, const TSQueryMatch *m, tt_filectx *ctx);

/* Parses a C/C++ integer literal (decimal, 0x, 0b, octal, digit separators, u/l
 * suffixes). Returns true and sets *v when `s` (n bytes) is one. */
bool tt_parse_int_literal(const char *s, size_t n, uint64_t *v);

#endif
