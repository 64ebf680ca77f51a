/* spanset.h — which ranges of a file enclose a node, answered in O(log n).
 *
 * Predicates ask of a captured node "is it inside a preprocessor conditional naming X",
 * "which function encloses it", "which labelled range holds it". Walking up with
 * ts_node_parent costs O(depth) per step (tree-sitter finds a parent by descending from
 * the root), so O(depth^2) per question and O(n^3) on deeply nested input. A spanset
 * is built once per file from the ranges of interest and answers each question with two
 * binary searches.
 *
 * Ranges are expected to nest or be disjoint, as the nodes of a syntax tree do (the
 * answer for partially overlapping ranges is one of the enclosing ones). Empty ranges
 * are dropped: they enclose nothing. */
#ifndef TT_SPANSET_H
#define TT_SPANSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_spanset_item {
  uint32_t start, end;  /* bytes, end exclusive */
  const void *id;       /* the node's TSNode.id (to tell a node from its ancestors), or NULL */
  const void *tag;      /* the caller's, borrowed */
} tt_spanset_item;

typedef struct tt_spanset tt_spanset;

/* Builds the index over a copy of `items` (n of them). Free with tt_spanset_free. */
tt_spanset *tt_spanset_new(const tt_spanset_item *items, size_t n);
void tt_spanset_free(tt_spanset *s);

/* The innermost item enclosing [start, end) other than the item whose id is `id` (pass
 * the node's own id so that a node does not count as its own ancestor; NULL: none), or
 * NULL. An item with the same range but another id counts as enclosing. */
const tt_spanset_item *tt_spanset_innermost(const tt_spanset *s, uint32_t start, uint32_t end, const void *id);

/* The position of `item` (returned by tt_spanset_innermost) among the set's items,
 * in 0 .. tt_spanset_count(s) - 1: lets callers keep per-item results in an array. */
size_t tt_spanset_index(const tt_spanset *s, const tt_spanset_item *item);
size_t tt_spanset_count(const tt_spanset *s);

#endif
