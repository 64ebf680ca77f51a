#include "parser/tree.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The region that cannot be trusted around a parse error: error recovery decides how
 * much text goes into the ERROR node, and a neighbouring expression of the same
 * statement may have been parsed into something the author did not write. So the
 * whole innermost statement (or declaration) around it counts, or the ERROR node
 * itself at top level. */
static TSNode untrusted_region(TSNode node) {
  for (TSNode a = ts_node_parent(node); !ts_node_is_null(a); a = ts_node_parent(a)) {
    const char *type = ts_node_type(a);
    size_t n = strlen(type);
    if (strcmp(type, "compound_statement") == 0 || strcmp(type, "translation_unit") == 0 ||
        strcmp(type, "module") == 0 || strcmp(type, "source_file") == 0 || strcmp(type, "block") == 0)
      break;
    if ((n >= 9 && strcmp(type + n - 9, "statement") == 0) || strcmp(type, "declaration") == 0 ||
        strcmp(type, "field_declaration") == 0)
      return a;
  }
  return node;
}

static void collect_errors(tt_tree *t, TSNode node, size_t *cap) {
  if (!ts_node_has_error(node)) return;
  if (ts_node_is_error(node) || ts_node_is_missing(node)) {
    TSNode where = untrusted_region(node);
    if (ts_node_start_byte(where) == ts_node_end_byte(where) && !ts_node_is_null(ts_node_parent(where)))
      where = ts_node_parent(where); /* a zero-width MISSING token: its construct */
    TT_PUSH(t->errors, t->n_errors, *cap,
            ((tt_span){ts_node_start_byte(where), ts_node_end_byte(where)}));
    return;
  }
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; i++) collect_errors(t, ts_node_child(node, i), cap);
}

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
  if (t->n_errors > 1) qsort(t->errors, t->n_errors, sizeof *t->errors, cmp_span);
  return t;
}

void tt_tree_free(tt_tree *t) {
  if (!t) return;
  ts_tree_delete(t->ts);
  free(t->errors);
  free(t);
}

bool tt_tree_in_error(const tt_tree *t, uint32_t start, uint32_t end) {
  for (size_t i = 0; i < t->n_errors; i++) {
    const tt_span *e = &t->errors[i];
    if (e->start > end) break;
    /* Overlap, treating an empty edit at a boundary as touching the region. */
    if (start < e->end && end > e->start) return true;
    if (start == end && start >= e->start && start <= e->end) return true;
    if (e->start == e->end && e->start >= start && e->start <= end) return true;
  }
  return false;
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
