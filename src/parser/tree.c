#include "parser/tree.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The region that cannot be trusted around a parse error: error recovery decides how
 * much text goes into the ERROR node, and a neighbouring expression of the same
 * statement may have been parsed into something the author did not write. So the
 * whole innermost statement (or declaration) around it counts, or the ERROR node
 * itself at top level.
 *
 * What a node's children would get as their region is computed on the way down (one
 * walk, O(1) per node): asking each error for its ancestors with ts_node_parent costs
 * O(depth^2) per error, which made a deeply nested file take minutes. */
static bool is_region_boundary(const char *type) {
  return strcmp(type, "compound_statement") == 0 || strcmp(type, "translation_unit") == 0 ||
         strcmp(type, "module") == 0 || strcmp(type, "source_file") == 0 || strcmp(type, "block") == 0;
}

static bool is_region(const char *type) {
  size_t n = strlen(type);
  return (n >= 9 && strcmp(type + n - 9, "statement") == 0) || strcmp(type, "declaration") == 0 ||
         strcmp(type, "field_declaration") == 0;
}

/* One level of the walk: the node, and the region its children inherit (null: none,
 * the error node stands for itself). */
typedef struct level {
  TSNode node;
  TSNode region;
} level;

static TSNode null_node(void) {
  TSNode n;
  memset(&n, 0, sizeof n);
  return n;
}

static void add_error(tt_tree *t, size_t *cap, TSNode node, const level *parent) {
  TSNode where = parent && !ts_node_is_null(parent->region) ? parent->region : node;
  if (ts_node_start_byte(where) == ts_node_end_byte(where) && parent)
    where = parent->node; /* a zero-width MISSING token: its construct */
  TT_PUSH(t->errors, t->n_errors, *cap, ((tt_span){ts_node_start_byte(where), ts_node_end_byte(where)}));
}

/* Records the untrusted region of every ERROR and MISSING node, not looking inside an
 * error (its region covers it). Iterative: deep trees cannot overflow the stack. */
static void collect_errors(tt_tree *t, TSNode root, size_t *cap) {
  if (!ts_node_has_error(root)) return;
  level *stack = NULL;
  size_t depth = 0, scap = 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    const level *parent = depth ? &stack[depth - 1] : NULL;
    bool descend = false;
    if (ts_node_is_error(n) || ts_node_is_missing(n)) {
      add_error(t, cap, n, parent);
    } else if (ts_node_has_error(n)) {
      const char *type = ts_node_type(n);
      level l = {n, parent ? parent->region : null_node()};
      if (is_region_boundary(type)) l.region = null_node();
      else if (is_region(type)) l.region = n;
      descend = ts_tree_cursor_goto_first_child(&c);
      if (descend) TT_PUSH(stack, depth, scap, l);
    }
    if (descend) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        free(stack);
        return;
      }
      depth--;
    }
  }
}

static void index_errors(tt_tree *t);

static int cmp_span(const void *a, const void *b) {
  const tt_span *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

tt_tree *tt_tree_parse(const tt_source *src) {
  const TSLanguage *lang = tt_lang_grammar(src->lang);
  if (!lang) return NULL;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, lang);
  if (src->bom) {
    /* Hide the byte-order mark from the grammar while keeping byte offsets those of
     * the file. */
    TSRange r = {{0, src->bom}, {UINT32_MAX, UINT32_MAX}, src->bom, UINT32_MAX};
    ts_parser_set_included_ranges(parser, &r, 1);
  }
  tt_tree *t = tt_xcalloc(1, sizeof *t);
  t->src = src;
  t->ts = ts_parser_parse_string(parser, NULL, src->text, src->len);
  ts_parser_delete(parser);
  size_t cap = 0;
  collect_errors(t, ts_tree_root_node(t->ts), &cap);
  index_errors(t);
  return t;
}

void tt_tree_free(tt_tree *t) {
  if (!t) return;
  ts_tree_delete(t->ts);
  free(t->errors);
  free(t->max_end);
  free(t->empty_at);
  free(t);
}

/* Index of the first error whose start is > x (strict: start >= x). */
static size_t first_error_after(const tt_tree *t, uint32_t x, bool strict) {
  size_t lo = 0, hi = t->n_errors;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (strict ? t->errors[m].start >= x : t->errors[m].start > x) hi = m;
    else lo = m + 1;
  }
  return lo;
}

static bool empty_error_in(const tt_tree *t, uint32_t start, uint32_t end) {
  size_t lo = 0, hi = t->n_empty;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (t->empty_at[m] < start) lo = m + 1;
    else hi = m;
  }
  return lo < t->n_empty && t->empty_at[lo] <= end;
}

/* O(log n): errors are sorted by start, max_end[i] is the largest end among the first
 * i + 1, and the empty ones are also listed by position. */
bool tt_tree_in_error(const tt_tree *t, uint32_t start, uint32_t end) {
  if (t->n_errors == 0) return false;
  if (start == end) { /* an insertion touching a region, its boundaries included */
    size_t hi = first_error_after(t, start, false);
    return hi > 0 && t->max_end[hi - 1] >= start;
  }
  size_t hi = first_error_after(t, end, true); /* errors starting before `end` */
  if (hi > 0 && t->max_end[hi - 1] > start) return true;
  return empty_error_in(t, start, end);
}

static void index_errors(tt_tree *t) {
  if (t->n_errors > 1) qsort(t->errors, t->n_errors, sizeof *t->errors, cmp_span);
  t->max_end = tt_xcalloc(t->n_errors + 1, sizeof *t->max_end);
  t->empty_at = tt_xcalloc(t->n_errors + 1, sizeof *t->empty_at);
  for (size_t i = 0; i < t->n_errors; i++) {
    uint32_t e = t->errors[i].end;
    t->max_end[i] = i && t->max_end[i - 1] > e ? t->max_end[i - 1] : e;
    if (t->errors[i].start == t->errors[i].end) t->empty_at[t->n_empty++] = t->errors[i].start;
  }
}

void tt_tree_set_errors(tt_tree *t, const tt_span *spans, size_t n) {
  free(t->errors);
  free(t->max_end);
  free(t->empty_at);
  t->errors = tt_xcalloc(n + 1, sizeof *t->errors);
  memcpy(t->errors, spans, n * sizeof *spans);
  t->n_errors = n;
  t->n_empty = 0;
  index_errors(t);
}

void tt_tree_walk(TSNode root, tt_tree_enter enter, void *ctx) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    if (enter(ts_tree_cursor_current_node(&c), ctx) && ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
    }
  }
}
