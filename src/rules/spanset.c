#define _GNU_SOURCE /* qsort_r */
#include "rules/spanset.h"

#include <stdlib.h>

#include "util/util.h"

/* Items sorted by start, then end descending (outer before inner), each with its
 * parent (the innermost item open when it started). For every distinct boundary b[k]
 * (a start or an end), the innermost item open just after b[k] (top) and the one open
 * at b[k] before the items starting there are pushed (mid); items starting at b[k] are
 * items[group[k] .. group[k + 1]) when b[k] is a start. */
struct tt_spanset {
  tt_spanset_item *items;
  int32_t *parent;
  size_t n;
  uint32_t *b;        /* n_b boundaries, ascending */
  int32_t *top, *mid; /* per boundary; -1: none */
  uint32_t *first;    /* per boundary: first item starting at or after it */
  size_t n_b;
};

static int cmp_item(const void *a, const void *b) {
  const tt_spanset_item *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}

static int cmp_order(const void *a, const void *b, void *items) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  const tt_spanset_item *it = items;
  int c = cmp_item(&it[i], &it[j]);
  return c ? c : (i < j) - (i > j);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void build_boundaries(tt_spanset *s) {
  s->b = tt_xcalloc(2 * s->n + 1, sizeof *s->b);
  size_t m = 0;
  for (size_t i = 0; i < s->n; i++) s->b[m++] = s->items[i].start, s->b[m++] = s->items[i].end;
  if (m) qsort(s->b, m, sizeof *s->b, cmp_u32);
  size_t w = 0;
  for (size_t i = 0; i < m; i++)
    if (w == 0 || s->b[w - 1] != s->b[i]) s->b[w++] = s->b[i];
  s->n_b = w;
}

/* One sweep over the boundaries with a stack of open items. An item is popped once the
 * sweep passes its end (lazily, when it reaches the top: with nesting ranges that is at
 * once). */
static void sweep(tt_spanset *s) {
  s->top = tt_xcalloc(s->n_b + 1, sizeof *s->top);
  s->mid = tt_xcalloc(s->n_b + 1, sizeof *s->mid);
  s->first = tt_xcalloc(s->n_b + 1, sizeof *s->first);
  s->parent = tt_xcalloc(s->n + 1, sizeof *s->parent);
  int32_t *stack = tt_xcalloc(s->n + 1, sizeof *stack);
  size_t depth = 0, next = 0;
  for (size_t k = 0; k < s->n_b; k++) {
    uint32_t x = s->b[k];
    while (depth && s->items[stack[depth - 1]].end <= x) depth--;
    s->mid[k] = depth ? stack[depth - 1] : -1;
    s->first[k] = (uint32_t)next;
    for (; next < s->n && s->items[next].start == x; next++) {
      s->parent[next] = depth ? stack[depth - 1] : -1;
      stack[depth++] = (int32_t)next;
    }
    s->top[k] = depth ? stack[depth - 1] : -1;
  }
  s->first[s->n_b] = (uint32_t)s->n;
  free(stack);
}

tt_spanset *tt_spanset_new(const tt_spanset_item *items, size_t n) {
  tt_spanset *s = tt_xcalloc(1, sizeof *s);
  s->items = tt_xcalloc(n + 1, sizeof *s->items);
  /* Sorted through an index so that equal ranges keep a defined order: the first given
   * sorts last, so that it is the innermost of its equals (as a scan would find it). */
  size_t *order = tt_xcalloc(n + 1, sizeof *order), m = 0;
  for (size_t i = 0; i < n; i++)
    if (items[i].start < items[i].end) order[m++] = i;
  qsort_r(order, m, sizeof *order, cmp_order, (void *)items);
  for (size_t i = 0; i < m; i++) s->items[s->n++] = items[order[i]];
  free(order);
  build_boundaries(s);
  sweep(s);
  return s;
}

void tt_spanset_free(tt_spanset *s) {
  if (!s) return;
  free(s->items);
  free(s->parent);
  free(s->b);
  free(s->top);
  free(s->mid);
  free(s->first);
  free(s);
}

/* Index of the last boundary <= x, or -1. */
static ptrdiff_t boundary_at(const tt_spanset *s, uint32_t x) {
  size_t lo = 0, hi = s->n_b;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (s->b[m] <= x) lo = m + 1;
    else hi = m;
  }
  return (ptrdiff_t)lo - 1;
}

/* Among the items starting at b[k] (ends non-increasing), the innermost whose end is
 * >= end and whose id is not `id`; -1 when none. */
static int32_t innermost_in_group(const tt_spanset *s, size_t k, uint32_t end, const void *id) {
  size_t lo = s->first[k], hi = s->first[k + 1];
  if (lo == hi || s->items[lo].start != s->b[k]) return -1;
  size_t a = lo, z = hi; /* find the first index whose end < end */
  while (a < z) {
    size_t m = a + (z - a) / 2;
    if (s->items[m].end >= end) a = m + 1;
    else z = m;
  }
  for (size_t j = a; j > lo; j--)
    if (!id || s->items[j - 1].id != id) return (int32_t)(j - 1);
  return -1;
}

const tt_spanset_item *tt_spanset_innermost(const tt_spanset *s, uint32_t start, uint32_t end, const void *id) {
  if (end <= start) end = start + 1; /* an empty node is inside what holds its byte */
  ptrdiff_t k = boundary_at(s, start);
  if (k < 0) return NULL;
  int32_t c = -1;
  if (s->b[k] == start) {
    c = innermost_in_group(s, (size_t)k, end, id);
    if (c < 0) c = s->mid[k];
  } else {
    c = s->top[k];
  }
  /* Items open at `start` that end before `end` only exist when ranges overlap
   * partially; their parents are the candidates then. */
  while (c >= 0 && (s->items[c].end < end || (id && s->items[c].id == id))) c = s->parent[c];
  return c >= 0 ? &s->items[c] : NULL;
}

size_t tt_spanset_index(const tt_spanset *s, const tt_spanset_item *item) { return (size_t)(item - s->items); }
size_t tt_spanset_count(const tt_spanset *s) { return s->n; }
