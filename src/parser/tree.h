/* tree.h — a parsed source: the tree-sitter tree and the regions it could not parse.
 *
 * tree-sitter recovers from syntax errors by wrapping what it could not parse in ERROR
 * nodes and inventing MISSING tokens. Findings inside such regions may still be useful,
 * but edits there are refused: the tool cannot know what the code means. */
#ifndef TT_TREE_H
#define TT_TREE_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "parser/source.h"

typedef struct tt_span {
  uint32_t start, end; /* byte offsets, end exclusive */
} tt_span;

typedef struct tt_tree {
  const tt_source *src; /* not owned */
  TSTree *ts;
  tt_span *errors;      /* sorted by start; ERROR nodes, and the parents of MISSING ones */
  size_t n_errors;
  uint32_t *max_end;    /* max_end[i]: the largest end of errors[0..i] (for tt_tree_in_error) */
  uint32_t *empty_at;   /* the positions of the empty errors, ascending */
  size_t n_empty;
} tt_tree;

/* Parses `src` with its language's grammar. Returns NULL when the language has no
 * grammar. The tree borrows `src`, which must outlive it. Free with tt_tree_free. */
tt_tree *tt_tree_parse(const tt_source *src);
void tt_tree_free(tt_tree *t);

/* True when [start, end) overlaps a region that failed to parse (an insertion, or an
 * empty region, counts when it touches the other's boundary). O(log n). */
bool tt_tree_in_error(const tt_tree *t, uint32_t start, uint32_t end);

/* Replaces the error regions with a copy of `spans` (n of them) and indexes them, as
 * tt_tree_parse does; for tests of tt_tree_in_error. */
void tt_tree_set_errors(tt_tree *t, const tt_span *spans, size_t n);

/* Visits `root` and its descendants in document order, iteratively (deep trees cannot
 * overflow the stack). `enter` returns false to skip a node's children. */
typedef bool (*tt_tree_enter)(TSNode node, void *ctx);
void tt_tree_walk(TSNode root, tt_tree_enter enter, void *ctx);

#endif
