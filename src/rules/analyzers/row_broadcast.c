/* julia-row-broadcast — a dotted operator (`operators`) between a 1-d tile of length N
 * and a 2-d tile of shape (A, N) with A not N and not 1, shapes read as text. cuTile
 * Python (NumPy) lines a (N,) row up with the trailing dim; Julia broadcasting lines it
 * up with the leading one, so the port adds the row down the columns (or fails when
 * A != N at run time). Under the flipped layout the same Python gives (N,) against
 * (N, A), which lines up and is not reported.
 *
 * Shapes come only from the rule file's evidence: calls of `shape_calls` with the
 * keyword `shape_keyword` (`ct.load(...; shape=(TM, TN))`), calls of `reshape_calls`
 * with a tuple as second argument, and locals whose every assignment in the function
 * has one same shape. Anything else has no shape and is not judged. Binds `op`, `row`
 * (the 1-d operand), `tile` (the 2-d one), `n` and `lead` (its leading dim). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/jl_kinds.h"
#include "rules/analyzers/opts.h"
#include "util/util.h"

typedef struct rb_opts {
  tt_strmap operators, shape_calls, reshape_calls;
  char *shape_keyword;
} rb_opts;

static void free_opts(void *p) {
  rb_opts *o = p;
  tt_strmap_free(&o->operators);
  tt_strmap_free(&o->shape_calls);
  tt_strmap_free(&o->reshape_calls);
  free(o->shape_keyword);
  free(o);
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"operators", "shape_calls", "shape_keyword", "reshape_calls", NULL};
  rb_opts *o = tt_xcalloc(1, sizeof *o);
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_set(opts, "operators", &o->operators, err, at) < 0 ||
      tt_opts_set(opts, "shape_calls", &o->shape_calls, err, at) < 0 ||
      tt_opts_string(opts, "shape_keyword", &o->shape_keyword, err, at) < 0 ||
      tt_opts_set(opts, "reshape_calls", &o->reshape_calls, err, at) < 0)
    goto bad;
  if (!o->operators.n || !o->shape_calls.n || !o->shape_keyword) {
    *err = tt_xstrdup("needs `operators`, `shape_calls` and `shape_keyword`");
    *at = opts;
    goto bad;
  }
  return o;
bad:
  free_opts(o);
  return NULL;
}

/* A shape: its dims as node ranges of the tuple (rank 0: none known). */
enum { MAX_RANK = 2 };
typedef struct shape {
  int rank;
  TSNode dim[MAX_RANK];
} shape;

typedef struct fn_ctx {
  const rb_opts *o;
  const char *text;
  tt_strmap shapes; /* local -> index into `known`, or "-" when its assignments disagree */
  shape *known;
  size_t n, cap;
  tt_analyzer_emit emit;
  void *ud;
} fn_ctx;

static bool same_text(const fn_ctx *c, TSNode a, TSNode b) {
  size_t la, lb;
  const char *ta = tt_jlk_text(c->text, a, &la), *tb = tt_jlk_text(c->text, b, &lb);
  return la == lb && !memcmp(ta, tb, la);
}

static bool same_shape(const fn_ctx *c, const shape *a, const shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (!same_text(c, a->dim[i], b->dim[i])) return false;
  return true;
}

/* A tuple `(a,)` / `(a, b)` of rank 1 or 2 (larger ones are not judged). */
static shape tuple_shape(TSNode t) {
  shape s = {0};
  if (!tt_jlk_is(t, "tuple_expression")) return s;
  uint32_t k = ts_node_named_child_count(t);
  if (k < 1 || k > MAX_RANK) return s;
  for (uint32_t i = 0; i < k; i++) s.dim[i] = ts_node_named_child(t, i);
  s.rank = (int)k;
  return s;
}

static shape expr_shape(const fn_ctx *c, TSNode n) {
  shape none = {0};
  while (tt_jlk_is(n, "parenthesized_expression")) n = ts_node_named_child(n, 0);
  size_t len;
  if (tt_jlk_is(n, "identifier")) {
    const char *t = tt_jlk_text(c->text, n, &len);
    const char *v = tt_strmap_get(&c->shapes, t, len);
    return v && *v != '-' ? c->known[strtoul(v, NULL, 10)] : none;
  }
  if (!tt_jlk_is(n, "call_expression")) return none;
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  const char *ct = tt_jlk_text(c->text, callee, &len);
  if (!tt_jlk_is(args, "argument_list")) return none;
  if (tt_strmap_get(&c->o->reshape_calls, ct, len)) return tuple_shape(ts_node_named_child(args, 1));
  if (!tt_strmap_get(&c->o->shape_calls, ct, len)) return none;
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    if (!tt_jlk_is(a, "named_argument")) continue;
    const char *kw = tt_jlk_text(c->text, ts_node_named_child(a, 0), &len);
    if (len == strlen(c->o->shape_keyword) && !memcmp(kw, c->o->shape_keyword, len))
      return tuple_shape(ts_node_named_child(a, ts_node_named_child_count(a) - 1));
  }
  return none;
}

static void learn(fn_ctx *c, TSNode n) {
  if (!tt_jlk_is(n, "assignment") || tt_jlk_is(ts_node_parent(n), "argument_list")) return;
  TSNode lhs = ts_node_named_child(n, 0), rhs = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
  if (!tt_jlk_is(lhs, "identifier")) return;
  size_t len;
  const char *t = tt_jlk_text(c->text, lhs, &len);
  const char *now = tt_strmap_get(&c->shapes, t, len);
  if (now && *now == '-') return;
  shape s = expr_shape(c, rhs);
  char *key = tt_xstrndup(t, len);
  if (!s.rank || (now && !same_shape(c, &c->known[strtoul(now, NULL, 10)], &s))) {
    tt_strmap_put(&c->shapes, key, "-");
  } else if (!now) {
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", c->n);
    TT_PUSH(c->known, c->n, c->cap, s);
    tt_strmap_put(&c->shapes, key, idx);
  }
  free(key);
}

static void check(fn_ctx *c, TSNode n) {
  if (!tt_jlk_is(n, "binary_expression") || ts_node_named_child_count(n) != 3) return;
  TSNode l = ts_node_named_child(n, 0), op = ts_node_named_child(n, 1), r = ts_node_named_child(n, 2);
  size_t len;
  const char *ot = tt_jlk_text(c->text, op, &len);
  if (!tt_strmap_get(&c->o->operators, ot, len)) return;
  shape ls = expr_shape(c, l), rs = expr_shape(c, r);
  TSNode row = l, tile = r;
  shape *v = &ls, *m = &rs;
  if (ls.rank == 2 && rs.rank == 1) row = r, tile = l, v = &rs, m = &ls;
  if (v->rank != 1 || m->rank != 2) return;
  size_t ll;
  const char *lead = tt_jlk_text(c->text, m->dim[0], &ll);
  if (!same_text(c, v->dim[0], m->dim[1]) || same_text(c, v->dim[0], m->dim[0]) || (ll == 1 && *lead == '1')) return;
  size_t rl, tl, nl;
  const char *rt = tt_jlk_text(c->text, row, &rl), *tt = tt_jlk_text(c->text, tile, &tl);
  const char *nt = tt_jlk_text(c->text, v->dim[0], &nl);
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  tt_binding bd[] = {{"op", ot, len, ts_node_start_byte(op), ts_node_end_byte(op)},
                     {"row", rt, rl, ts_node_start_byte(row), ts_node_end_byte(row)},
                     {"tile", tt, tl, ts_node_start_byte(tile), ts_node_end_byte(tile)},
                     {"n", nt, nl, ts_node_start_byte(v->dim[0]), ts_node_end_byte(v->dim[0])},
                     {"lead", lead, ll, ts_node_start_byte(m->dim[0]), ts_node_end_byte(m->dim[0])}};
  tt_analyzer_hit h = {s, e, bd, 5, NULL, 0, false};
  c->emit(c->ud, &h);
}

/* Preorder over one function (nested definitions included: kernels rarely nest). */
static void walk(fn_ctx *c, TSNode root, bool checking) {
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (checking) check(c, n);
    else learn(c, n);
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) goto done;
  }
done:
  ts_tree_cursor_delete(&cur);
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  TSNode root = ts_tree_root_node(ctx->tree->ts);
  for (TSNode d = ts_node_named_child(root, 0); !ts_node_is_null(d); d = ts_node_next_named_sibling(d)) {
    if (!tt_jlk_is(d, "function_definition")) continue;
    fn_ctx c = {opts, ctx->tree->src->text, {0}, NULL, 0, 0, emit, ud};
    walk(&c, d, false);
    walk(&c, d, true);
    tt_strmap_free(&c.shapes);
    free(c.known);
  }
}

static const char *const bindings[] = {"op", "row", "tile", "n", "lead", NULL};

const tt_analyzer tt_analyzer_row_broadcast = {"julia-row-broadcast", bindings, compile_opts, free_opts, run, false, NULL};
