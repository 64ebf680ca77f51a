/* filectx.h — what matching learns about one file beyond its syntax tree: the constants
 * it defines (for `#tt-int-eq?`) and per-function facts set by classifier analyzers
 * (for `#tt-fact?`). One context per file per matching run; used by one thread. */
#ifndef TT_FILECTX_H
#define TT_FILECTX_H

#include "parser/tree.h"
#include "rules/consts.h"

typedef struct tt_fact {
  const char *name;   /* borrowed from the classifier's options */
  uint32_t start, end; /* the function it labels */
  const char *label;  /* borrowed */
} tt_fact;

typedef struct tt_filectx {
  const tt_tree *tree;
  tt_consts *consts;  /* built on first use */
  tt_fact *facts;
  size_t n_facts, cap;
} tt_filectx;

void tt_filectx_init(tt_filectx *c, const tt_tree *tree);
void tt_filectx_free(tt_filectx *c);
const tt_consts *tt_filectx_consts(tt_filectx *c);
void tt_filectx_add_fact(tt_filectx *c, const char *name, uint32_t start, uint32_t end, const char *label);
/* The label of fact `name` for the innermost labelled range containing byte `at`, or NULL. */
const char *tt_filectx_fact(const tt_filectx *c, const char *name, uint32_t at);

#endif
