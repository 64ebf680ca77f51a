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

/* The edits chosen so far, for the conflict test of each new fix in O(log n).
 *
 * Chosen replacements (non-empty edits) never overlap one another, so sorted by start
 * their ends are sorted too, and the only one a new edit can overlap is the last one
 * starting before the new edit's end. Chosen insertions are at distinct points (two at
 * one point conflict unless identical, and an identical one is not added again). Both
 * live in arrays indexed by every position any fix could use (known before choosing),
 * with a tree of occupied counts over each for "last occupied before" and "first
 * occupied after" queries. This replaces a scan of every chosen edit per edit, which
 * made 30,000 fixes take seconds. */
typedef struct occupancy {
  uint32_t *key;     /* the candidate positions, ascending, distinct */
  size_t n, size;    /* size: leaves of the tree, a power of two >= n */
  uint32_t *count;   /* the tree: count[size + i] is 1 when key[i] is occupied */
  uint32_t *end;     /* per key: the occupying replacement's end (replacements only) */
  const char **text; /* per key: the occupying edit's text */
} occupancy;

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void occ_init(occupancy *o, uint32_t *keys, size_t n) {
  memset(o, 0, sizeof *o);
  if (n) qsort(keys, n, sizeof *keys, cmp_u32);
  size_t w = 0;
  for (size_t i = 0; i < n; i++)
    if (w == 0 || keys[w - 1] != keys[i]) keys[w++] = keys[i];
  o->key = keys;
  o->n = w;
  for (o->size = 1; o->size < w; o->size *= 2) {}
  o->count = tt_xcalloc(2 * o->size, sizeof *o->count);
  o->end = tt_xcalloc(w + 1, sizeof *o->end);
  o->text = tt_xcalloc(w + 1, sizeof *o->text);
}

static void occ_free(occupancy *o) {
  free(o->key);
  free(o->count);
  free(o->end);
  free(o->text);
}

/* Index of `k` among the keys (it is always one of them). */
static size_t occ_index(const occupancy *o, uint32_t k) {
  uint32_t *at = bsearch(&k, o->key, o->n, sizeof *o->key, cmp_u32);
  return (size_t)(at - o->key);
}

static void occ_set(occupancy *o, uint32_t k, uint32_t end, const char *text) {
  size_t i = occ_index(o, k);
  o->end[i] = end;
  o->text[i] = text;
  for (size_t v = o->size + i; v; v /= 2) o->count[v]++;
}

/* The last occupied index among the keys < k, or -1. */
static ptrdiff_t occ_last_before(const occupancy *o, uint32_t k) {
  size_t lo = 0, hi = o->n; /* hi: number of keys < k */
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (o->key[m] < k) lo = m + 1;
    else hi = m;
  }
  if (lo == 0) return -1;
  size_t v = o->size + lo - 1; /* walk up until a left sibling subtree holds one */
  if (o->count[v]) return (ptrdiff_t)(lo - 1);
  while (v > 1) {
    if ((v & 1) && o->count[v - 1]) {
      v--;
      while (v < o->size) v = o->count[2 * v + 1] ? 2 * v + 1 : 2 * v;
      return (ptrdiff_t)(v - o->size);
    }
    v /= 2;
  }
  return -1;
}

/* The first occupied index among the keys > k, or -1. */
static ptrdiff_t occ_first_after(const occupancy *o, uint32_t k) {
  size_t lo = 0, hi = o->n; /* lo: first key > k */
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (o->key[m] <= k) lo = m + 1;
    else hi = m;
  }
  if (lo >= o->n) return -1;
  size_t v = o->size + lo;
  if (o->count[v]) return (ptrdiff_t)lo;
  while (v > 1) {
    if (!(v & 1) && o->count[v + 1]) {
      v++;
      while (v < o->size) v = o->count[2 * v] ? 2 * v : 2 * v + 1;
      return (ptrdiff_t)(v - o->size);
    }
    v /= 2;
  }
  return -1;
}

typedef struct chosen_set {
  occupancy repl; /* keyed by start */
  occupancy ins;  /* keyed by position */
} chosen_set;

typedef enum { E_FREE, E_SAME, E_CONFLICT } edit_verdict;

/* How `e` stands against the chosen edits: free to add, the same as one chosen
 * (agreement), or in conflict. */
static edit_verdict against_chosen(const chosen_set *c, const tt_edit *e) {
  if (e->start == e->end) {
    ptrdiff_t r = occ_last_before(&c->repl, e->start); /* a replacement around the point */
    if (r >= 0 && c->repl.end[r] > e->start) return E_CONFLICT;
    ptrdiff_t i = occ_last_before(&c->ins, e->start + 1);
    if (i >= 0 && c->ins.key[i] == e->start)
      return strcmp(c->ins.text[i], e->replacement) == 0 ? E_SAME : E_CONFLICT;
    return E_FREE;
  }
  ptrdiff_t r = occ_last_before(&c->repl, e->end);
  if (r >= 0 && c->repl.end[r] > e->start) {
    bool same = c->repl.key[r] == e->start && c->repl.end[r] == e->end;
    return same && strcmp(c->repl.text[r], e->replacement) == 0 ? E_SAME : E_CONFLICT;
  }
  ptrdiff_t i = occ_first_after(&c->ins, e->start); /* an insertion strictly inside */
  if (i >= 0 && c->ins.key[i] < e->end) return E_CONFLICT;
  return E_FREE;
}

static void add_chosen(chosen_set *c, const tt_edit *e) {
  if (e->start == e->end) occ_set(&c->ins, e->start, e->end, e->replacement);
  else occ_set(&c->repl, e->start, e->end, e->replacement);
}

static void chosen_set_init(chosen_set *c, const tt_findings *fs) {
  size_t nr = 0, ni = 0;
  for (size_t i = 0; i < fs->n; i++)
    for (size_t k = 0; fs->items[i].has_fix && k < fs->items[i].n_edits; k++)
      *(fs->items[i].edits[k].start == fs->items[i].edits[k].end ? &ni : &nr) += 1;
  uint32_t *rk = tt_xcalloc(nr + 1, sizeof *rk), *ik = tt_xcalloc(ni + 1, sizeof *ik);
  nr = ni = 0;
  for (size_t i = 0; i < fs->n; i++)
    for (size_t k = 0; fs->items[i].has_fix && k < fs->items[i].n_edits; k++) {
      const tt_edit *e = &fs->items[i].edits[k];
      if (e->start == e->end) ik[ni++] = e->start;
      else rk[nr++] = e->start;
    }
  occ_init(&c->repl, rk, nr);
  occ_init(&c->ins, ik, ni);
}

static void chosen_set_free(chosen_set *c) {
  occ_free(&c->repl);
  occ_free(&c->ins);
}

/* Two edits of one fix may not overlap, nor repeat each other. Checked on the fix's
 * edits sorted by (start, end): O(k log k). */
static int cmp_edit_pos(const void *a, const void *b) {
  const tt_edit *x = *(const tt_edit *const *)a, *y = *(const tt_edit *const *)b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return (x->end > y->end) - (x->end < y->end);
}

static bool fix_overlaps_itself(const tt_finding *f) {
  if (f->n_edits < 2) return false;
  const tt_edit **e = tt_xcalloc(f->n_edits, sizeof *e);
  for (size_t k = 0; k < f->n_edits; k++) e[k] = &f->edits[k];
  if (f->n_edits) qsort(e, f->n_edits, sizeof *e, cmp_edit_pos);
  /* In this order an insertion at p comes before the replacements starting at p, so an
   * edit overlaps an earlier one exactly when it starts before the largest end of the
   * earlier replacements; two insertions at one point are neighbours. */
  bool bad = false;
  uint32_t reach = 0;
  for (size_t k = 0; k < f->n_edits && !bad; k++) {
    bool empty = e[k]->start == e[k]->end;
    bad = e[k]->start < reach || (k && empty && e[k - 1]->start == e[k]->start && e[k - 1]->end == e[k]->end);
    if (!empty && e[k]->end > reach) reach = e[k]->end;
  }
  free(e);
  return bad;
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
  chosen_set set;
  chosen_set_init(&set, fs);
  chosen *ch = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < fs->n; i++) {
    tt_finding *f = &fs->items[i];
    if (!f->has_fix) continue;
    bool bad_syntax = false, conflict = fix_overlaps_itself(f);
    for (size_t k = 0; k < f->n_edits; k++) {
      const tt_edit *e = &f->edits[k];
      if (tt_tree_in_error(tree, e->start, e->end) && !token_rename(tree, e)) bad_syntax = true;
      if (!conflict) conflict = against_chosen(&set, e) == E_CONFLICT;
    }
    if (bad_syntax || conflict) {
      f->fix_status = bad_syntax ? TT_FIX_SYNTAX_ERROR : TT_FIX_CONFLICT;
      continue;
    }
    f->fix_status = TT_FIX_APPLIED;
    for (size_t k = 0; k < f->n_edits; k++) {
      const tt_edit *e = &f->edits[k];
      if (against_chosen(&set, e) == E_SAME) continue; /* agreement: already in */
      add_chosen(&set, e);
      TT_PUSH(ch, n, cap, ((chosen){e->start, e->end, e->replacement, n}));
    }
  }
  chosen_set_free(&set);
  if (n == 0) {
    free(ch);
    return NULL;
  }
  if (n) qsort(ch, n, sizeof *ch, cmp_chosen);
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
