#include "rules/edit.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct chosen {
  uint32_t start, end;
  const char *text;
  size_t order; /* tie-break for insertions at the same point: first chosen first */
} chosen;

/* In a region that failed to parse, an edit is still safe when it replaces exactly one
 * identifier token that tree-sitter lexed there with another name: the bytes are an
 * identifier whatever the construct around them means (comments and literals are
 * tokens of their own, so a name inside them is never an identifier leaf). Renames in
 * constructs the grammar does not know (`extern template void f<float>(cudaStream_t);`)
 * then go through like the lines around them. */
static bool name_char(char c) { return c == '_' || c == ':' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

static bool token_rename(const tt_tree *tree, const tt_edit *e) {
  if (e->start == e->end || !e->replacement[0] || e->replacement[0] == ':') return false;
  for (const char *c = e->replacement; *c; c++)
    if (!name_char(*c)) return false;
  TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(tree->ts), e->start, e->end);
  if (ts_node_is_null(n) || ts_node_child_count(n) != 0 || ts_node_is_missing(n) ||
      ts_node_start_byte(n) != e->start || ts_node_end_byte(n) != e->end)
    return false;
  static const char *const kinds[] = {"identifier", "type_identifier", "field_identifier", "namespace_identifier"};
  const char *type = ts_node_type(n);
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (!strcmp(type, kinds[i])) return true;
  return false;
}

static bool overlaps(const tt_edit *e, const chosen *c) {
  if (e->start == c->start && e->end == c->end) return strcmp(e->replacement, c->text) != 0;
  if (e->start == e->end) return c->start < e->start && e->start < c->end;
  if (c->start == c->end) return e->start < c->start && c->start < e->end;
  return e->start < c->end && c->start < e->end;
}

static bool duplicate(const tt_edit *e, const chosen *c) {
  return e->start == c->start && e->end == c->end && strcmp(e->replacement, c->text) == 0;
}

static int cmp_chosen(const void *a, const void *b) {
  const chosen *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  /* An insertion at p goes before a replacement starting at p. */
  if ((x->start == x->end) != (y->start == y->end)) return x->start == x->end ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

char *tt_edits_apply(const tt_tree *tree, tt_findings *fs, size_t *out_len) {
  tt_findings_sort(fs); /* fix order: position, then rule id */
  chosen *ch = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < fs->n; i++) {
    tt_finding *f = &fs->items[i];
    if (!f->has_fix) continue;
    bool bad_syntax = false, conflict = false;
    for (size_t k = 0; k < f->n_edits; k++) {
      const tt_edit *e = &f->edits[k];
      if (tt_tree_in_error(tree, e->start, e->end) && !token_rename(tree, e)) bad_syntax = true;
      for (size_t j = 0; j < n && !conflict; j++) conflict = overlaps(e, &ch[j]);
      /* Two edits of the same fix may not overlap each other either. */
      for (size_t j = 0; j < k && !conflict; j++) {
        chosen self = {f->edits[j].start, f->edits[j].end, f->edits[j].replacement, 0};
        conflict = overlaps(e, &self) || duplicate(e, &self);
      }
    }
    if (bad_syntax || conflict) {
      f->fix_status = bad_syntax ? TT_FIX_SYNTAX_ERROR : TT_FIX_CONFLICT;
      continue;
    }
    f->fix_status = TT_FIX_APPLIED;
    for (size_t k = 0; k < f->n_edits; k++) {
      const tt_edit *e = &f->edits[k];
      bool dup = false;
      for (size_t j = 0; j < n && !dup; j++) dup = duplicate(e, &ch[j]);
      if (!dup) TT_PUSH(ch, n, cap, ((chosen){e->start, e->end, e->replacement, n}));
    }
  }
  if (n == 0) {
    free(ch);
    return NULL;
  }
  qsort(ch, n, sizeof *ch, cmp_chosen);
  const char *src = tree->src->text;
  tt_buf out = {0};
  uint32_t pos = 0;
  for (size_t j = 0; j < n; j++) {
    tt_buf_append(&out, src + pos, ch[j].start - pos);
    tt_buf_puts(&out, ch[j].text);
    pos = ch[j].end;
  }
  tt_buf_append(&out, src + pos, tree->src->len - pos);
  free(ch);
  *out_len = out.len;
  return tt_buf_steal(&out);
}
