/* julia-tile-shapes — tile shapes inferred through a Julia kernel, and one relation
 * between them that a translation can break, chosen by the rule file's `check:`:
 *
 *   muladd       `muladd(a, b, acc)`: a (M, K) and b (K', N) need K == K' (the operands
 *                are swapped for the file's layout otherwise), and acc must be (M, N) (a
 *                transposed or otherwise wrong accumulator); batched operands of one
 *                rank (M, K, B...) and (K', N, B...) need K == K' too (a batch dim left
 *                in front under the logical layout);
 *   array-tiles  one array loaded, counted (`ct.num_tiles`) or stored with tiles of two
 *                different shapes of one rank (one of them is in the other layout);
 *   cat          `cat(a, b; dims=d)`: every dim but d must agree (a Python axis kept
 *                under the flipped layout, or a 0-based one), and d must be a dim;
 *   reduce-unit  a reduction along `dims=d` where the tile's dim d is 1 (a no-op: the
 *                reduction meant the other dim);
 *   broadcast    a dotted operator or `f.(...)` between tiles whose dims differ where
 *                neither is 1 (Julia lines dims up from the left: no broadcast exists);
 *   undotted     an undotted `+`/`-` (`same_shape_operators`) between tiles of
 *                different shapes, or a `*` (`matmul_operators`) of two 2-d tiles whose
 *                inner dims differ (an elementwise product written as a matmul).
 *   index-dims   one identifier of `index_keyword` tuples counting tiles of two dims
 *                (TM here, TN there) on one path: an index or a shape in the other
 *                layout's order (dims of 1 and loads with `order` are not compared);
 *   accumulator-precision  `muladd` into a tile made with a `low_precision_types` eltype;
 *   reduce-all   a reduction without `dims` of a tile with two dims that are not 1;
 *   array-rank   a load or store of a parameter declared `X{T, N}` (X one of
 *                `array_types`) with a tile of more than N dims whose dims past N are
 *                not all 1 (cuTile.jl pads short tile shapes and squeezes trailing 1s);
 *   array-rank-unused  a parameter declared `X{T, N}`, N >= 2, whose every use in the
 *                function is a load or store of a tile of fewer than N dims (the
 *                signature was written for another array: a 1-d bias declared 2-d).
 *
 * Tiles in different arms of an `if` are not compared (array-tiles, index-dims): a
 * kernel may take an array in either layout under a constant.
 *
 * Shapes come only from the rule file's evidence (`shape_calls`: callee -> the keyword,
 * or 1-based position, holding the tile shape; `new_calls` (zeros, fill: the dims after
 * the first argument); `reshape_calls`; `keep_calls` (convert: the last argument's
 * shape); `transpose_calls`; `permute_calls`; `muladd_calls`; `reduction_calls` with
 * `dims_keyword`; `dropdims_calls`; `cat_calls`; dotted `operators` and broadcast calls)
 * and from locals whose every assignment in the function has one shape. A scalar operand
 * (jl_kinds.h evidence, the same options as julia-scalar-args) keeps the other's shape.
 * Dims are compared as text (`TM` against `TK`): two names are two dims. Anything not
 * known is not judged (tile_shapes_infer.c infers). Cost: linear in each function
 * times its expression depth (bounded at 32), and quadratic in the loads and stores of
 * one function (array-tiles, index-dims compare each with the earlier ones). Binds `fn` (the call or operator), `at` (the operand at fault),
 * `problem` (in words). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/jl_kinds.h"
#include "rules/analyzers/opts.h"
#include "rules/analyzers/tile_shapes.h"
#include "util/util.h"

static const char *const k_checks[] = {"muladd", "array-tiles", "cat", "reduce-unit", "broadcast", "undotted",
                                       "index-dims", "accumulator-precision", "reduce-all", "array-rank",
                                       "array-rank-unused", NULL};

static tt_strmap *set_field(tsh_opts *o, int i) {
  tt_strmap *f[] = {&o->new_calls,       &o->reshape_calls,  &o->keep_calls,      &o->transpose_calls,
                    &o->permute_calls,   &o->muladd_calls,   &o->reduction_calls, &o->dropdims_calls,
                    &o->cat_calls,       &o->operators,      &o->same_shape_operators, &o->matmul_operators};
  return i < (int)(sizeof f / sizeof *f) ? f[i] : NULL;
}
static const char *const k_set_keys[] = {"new_calls",       "reshape_calls",   "keep_calls",      "transpose_calls",
                                         "permute_calls",   "muladd_calls",    "reduction_calls", "dropdims_calls",
                                         "cat_calls",       "operators",       "same_shape_operators", "matmul_operators"};

static void free_opts(void *p) {
  tsh_opts *o = p;
  tt_strmap_free(&o->shape_calls);
  tt_strmap_free(&o->store_calls);
  for (int i = 0; set_field(o, i); i++) tt_strmap_free(set_field(o, i));
  free(o->dims_keyword);
  free(o->order_keyword);
  free(o->index_keyword);
  tt_strmap_free(&o->low_precision_types);
  tt_strmap_free(&o->array_types);
  tt_jlk_config_free(&o->kinds);
  free(o);
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"check", "shape_calls", "store_calls", "dims_keyword", "new_calls", "reshape_calls",
                                     "keep_calls", "transpose_calls", "permute_calls", "muladd_calls", "reduction_calls",
                                     "dropdims_calls", "cat_calls", "operators", "same_shape_operators",
                                     "matmul_operators", "order_keyword", "index_keyword",
                                     "low_precision_types", "array_types", NULL};
  tsh_opts *o = tt_xcalloc(1, sizeof *o);
  char *check = NULL;
  if (tt_jlk_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "check", &check, err, at) < 0 ||
      tt_opts_map(opts, "shape_calls", &o->shape_calls, err, at) < 0 ||
      tt_opts_map(opts, "store_calls", &o->store_calls, err, at) < 0 ||
      tt_opts_string(opts, "dims_keyword", &o->dims_keyword, err, at) < 0 ||
      tt_opts_string(opts, "order_keyword", &o->order_keyword, err, at) < 0 ||
      tt_opts_string(opts, "index_keyword", &o->index_keyword, err, at) < 0 ||
      tt_opts_set(opts, "low_precision_types", &o->low_precision_types, err, at) < 0 ||
      tt_opts_set(opts, "array_types", &o->array_types, err, at) < 0 || tt_jlk_config_read(opts, &o->kinds, err, at) < 0)
    goto bad;
  for (int i = 0; set_field(o, i); i++)
    if (tt_opts_set(opts, k_set_keys[i], set_field(o, i), err, at) < 0) goto bad;
  int c = -1;
  for (int i = 0; check && k_checks[i]; i++)
    if (!strcmp(check, k_checks[i])) c = i;
  if (c < 0) {
    *err = tt_xasprintf("`check` must be one of muladd, array-tiles, cat, reduce-unit, broadcast, undotted, "
                        "index-dims, accumulator-precision, reduce-all, array-rank, array-rank-unused%s%s",
                        check ? "; got " : "", check ? check : "");
    *at = opts;
    goto bad;
  }
  o->check = (tsh_check)c;
  free(check);
  check = NULL;
  if (!o->shape_calls.n || !o->dims_keyword) {
    *err = tt_xstrdup("needs `shape_calls` and `dims_keyword`");
    *at = opts;
    goto bad;
  }
  return o;
bad:
  free(check);
  free_opts(o);
  return NULL;
}

/* ---- the checks --------------------------------------------------------------------- */

static void report(tsh_ctx *c, TSNode whole, TSNode fn, TSNode at, const char *problem) {
  size_t fl, al;
  const char *ft = tt_jlk_text(c->text, fn, &fl), *atx = tt_jlk_text(c->text, at, &al);
  uint32_t fs = ts_node_start_byte(fn), as = ts_node_start_byte(at);
  tt_binding bd[] = {{"fn", ft, fl, fs, fs + (uint32_t)fl},
                     {"at", atx, al, as, as + (uint32_t)al},
                     {"problem", problem, strlen(problem), as, as + (uint32_t)al}};
  tt_analyzer_hit h = {ts_node_start_byte(whole), ts_node_end_byte(whole), bd, 3, NULL, 0, false};
  c->emit(c->ud, &h);
}

static char *text_of(const tsh_ctx *c, TSNode n) {
  size_t len;
  const char *t = tt_jlk_text(c->text, n, &len);
  return tt_xstrndup(t, len);
}

static void check_muladd(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!tsh_in_set(c, &c->o->muladd_calls, callee) || tsh_n_positional(args) != 3) return;
  TSNode an = tsh_positional(args, 0), bn = tsh_positional(args, 1), accn = tsh_positional(args, 2);
  tsh_shape a = tsh_expr_shape(c, s, an, 0), b = tsh_expr_shape(c, s, bn, 0), acc = tsh_expr_shape(c, s, accn, 0);
  /* Batched operands (cuTile.jl: dims 1-2 the matrix, the rest batch dims) have the same
   * inner-dim relation; their accumulator is not compared (batch dims broadcast). */
  if (a.rank < 2 || a.rank != b.rank) return;
  char sa[128], sb[128], sacc[128], sp[128], *at = NULL, *problem = NULL;
  tsh_shape prod = {2, {a.d[0], b.d[1]}};
  if (tsh_dim_differs(a.d[1], b.d[0])) {
    at = text_of(c, an);
    problem = tt_xasprintf("`%s` is %s and `%.*s` %s: the inner dims %.*s and %.*s differ, so these operands are in "
                           "the other layout's order%s",
                           at, tsh_shape_text(&a, sa, sizeof sa), (int)(ts_node_end_byte(bn) - ts_node_start_byte(bn)),
                           c->text + ts_node_start_byte(bn), tsh_shape_text(&b, sb, sizeof sb), (int)a.d[1].n, a.d[1].t,
                           (int)b.d[0].n, b.d[0].t,
                           a.rank > 2 ? " (or a batch dim is in front: cuTile.jl reads dims 1 and 2 as the matrix and "
                                        "the trailing dims as the batch; permutedims the batch behind them)"
                                      : "");
    report(c, n, callee, an, problem);
  } else if (a.rank == 2 && acc.rank == 2 && (tsh_dim_differs(acc.d[0], prod.d[0]) || tsh_dim_differs(acc.d[1], prod.d[1]))) {
    at = text_of(c, accn);
    problem = tt_xasprintf("the product is %s, but the accumulator `%s` is %s", tsh_shape_text(&prod, sp, sizeof sp), at,
                           tsh_shape_text(&acc, sacc, sizeof sacc));
    report(c, n, callee, accn, problem);
  }
  free(at);
  free(problem);
}

/* The array's tile shape here against the first one seen for it. */
static void check_array_tiles(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *shape_at = tt_strmap_get(&c->o->shape_calls, ct, len), *tile_at = tt_strmap_get(&c->o->store_calls, ct, len);
  if (!shape_at && !tile_at) return;
  TSNode arr = tsh_positional(args, 0);
  if (!tt_jlk_is(arr, "identifier")) return;
  TSNode at = shape_at ? tsh_named_arg(c, args, shape_at) : tsh_named_arg(c, args, tile_at);
  tsh_shape sh = shape_at ? tsh_tuple_shape(c, at) : tsh_expr_shape(c, s, at, 0);
  if (!sh.rank || ts_node_is_null(at)) return;
  /* A load's or store's `order` permutes tile dims to array dims: compare in array order. */
  if (c->o->order_keyword && !ts_node_is_null(tsh_keyword(c, args, c->o->order_keyword))) {
    TSNode ord = tsh_keyword(c, args, c->o->order_keyword);
    if (!tt_jlk_is(ord, "tuple_expression") || (int)ts_node_named_child_count(ord) != sh.rank) return;
    tsh_shape r = {sh.rank, {{0}}};
    for (int i = 0; i < sh.rank; i++) {
      long v = tsh_int_lit(c, ts_node_named_child(ord, (uint32_t)i));
      if (v < 1 || v > sh.rank) return;
      r.d[v - 1] = sh.d[i];
    }
    sh = r;
  }
  const char *an = tt_jlk_text(c->text, arr, &len);
  const tsh_shape *first = NULL;
  for (size_t k = 0; k < c->n_seen && !first; k++) {
    const struct seen *e = &c->seen[k];
    size_t el;
    const char *et = tt_jlk_text(c->text, e->arr, &el);
    if (el != len || memcmp(et, an, len) || e->sh.rank != sh.rank || tsh_shape_same(&e->sh, &sh) || tsh_apart(e->at, n))
      continue;
    bool known = true;
    for (int i = 0; i < sh.rank; i++) known &= tsh_dim_known(sh.d[i]) && tsh_dim_known(e->sh.d[i]);
    if (known) first = &e->sh;
  }
  if (!first) {
    struct seen sn = {.sh = sh, .at = n, .arr = arr};
    TT_PUSH(c->seen, c->n_seen, c->cap_seen, sn);
    return;
  }
  char s1[128], s2[128];
  char *problem = tt_xasprintf("`%.*s`'s tiles are %s here and %s where it was first loaded or counted: one of the two "
                               "is in the other layout's order",
                               (int)len, an, tsh_shape_text(&sh, s1, sizeof s1), tsh_shape_text(first, s2, sizeof s2));
  report(c, n, callee, at, problem);
  free(problem);
}

static void check_cat(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!tsh_in_set(c, &c->o->cat_calls, callee) || tsh_n_positional(args) < 2) return;
  TSNode dn = tsh_keyword(c, args, c->o->dims_keyword);
  long d = tsh_int_lit(c, dn);
  if (d < 1) return; /* dims=0: jl-dims-zero's */
  tsh_shape first = tsh_expr_shape(c, s, tsh_positional(args, 0), 0);
  if (!first.rank) return;
  char s1[128], s2[128];
  if (d > first.rank) {
    char *problem = tt_xasprintf("`dims=%ld` is not a dim of these %d-d tiles (a new trailing dim: Julia's cat "
                                 "stacks them; a cuTile Python axis a of an n-d tile is dim a + 1, or n - a flipped)",
                                 d, first.rank);
    report(c, n, callee, dn, problem);
    free(problem);
    return;
  }
  for (int k = 1; k < tsh_n_positional(args); k++) {
    TSNode on = tsh_positional(args, k);
    tsh_shape o = tsh_expr_shape(c, s, on, 0);
    if (o.rank != first.rank) continue;
    for (int i = 0; i < o.rank; i++) {
      if (i == d - 1 || !tsh_dim_differs(o.d[i], first.d[i])) continue;
      char *problem = tt_xasprintf("`dims=%ld` joins tiles %s and %s, which differ in dim %d: they can only be joined "
                                   "along dim %d (under the flipped layout a Python axis a of an n-d tile is dim n - a)",
                                   d, tsh_shape_text(&first, s1, sizeof s1), tsh_shape_text(&o, s2, sizeof s2), i + 1, i + 1);
      report(c, n, callee, dn, problem);
      free(problem);
      return;
    }
  }
}

static void check_reduce_unit(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!tsh_in_set(c, &c->o->reduction_calls, callee)) return;
  TSNode dn = tsh_keyword(c, args, c->o->dims_keyword);
  long d = tsh_int_lit(c, dn);
  tsh_shape x = tsh_expr_shape(c, s, tsh_positional(args, 0), 0);
  if (d < 1 || d > x.rank || !tsh_dim_known(x.d[d - 1]) || !tsh_dim_is_one(x.d[d - 1])) return;
  bool other = false;
  for (int i = 0; i < x.rank; i++) other |= i != d - 1 && tsh_dim_known(x.d[i]) && !tsh_dim_is_one(x.d[i]);
  if (!other) return;
  char s1[128];
  char *problem = tt_xasprintf("reduces dim %ld of a %s tile, which is 1: every element is its own result (the "
                               "reduction meant another dim; under the flipped layout a Python axis a of an n-d tile is "
                               "dim n - a)",
                               d, tsh_shape_text(&x, s1, sizeof s1));
  report(c, n, callee, dn, problem);
  free(problem);
}

static void check_broadcast(tsh_ctx *c, const tt_jlk_scope *s, TSNode n) {
  TSNode fn, ops[8];
  int k = 0;
  if (tt_jlk_is(n, "binary_expression") && ts_node_named_child_count(n) == 3) {
    fn = ts_node_named_child(n, 1);
    if (!tsh_dotted_operator(c, fn)) return;
    ops[0] = ts_node_named_child(n, 0), ops[1] = ts_node_named_child(n, 2), k = 2;
  } else if (tt_jlk_is(n, "broadcast_call_expression")) {
    fn = ts_node_named_child(n, 0);
    TSNode args = ts_node_named_child(n, 1);
    for (int i = 0; i < tsh_n_positional(args) && k < 8; i++) ops[k++] = tsh_positional(args, i);
  } else {
    return;
  }
  tsh_shape acc = {0};
  TSNode first = {0};
  for (int i = 0; i < k; i++) {
    tsh_shape x = tsh_expr_shape(c, s, ops[i], 0);
    if (!x.rank) continue;
    if (!acc.rank) {
      acc = x, first = ops[i];
      continue;
    }
    if (x.rank != acc.rank) return; /* a (N,) row against (M, N): jl-row-broadcast's */
    int clash;
    tsh_shape r = tsh_broadcast(&acc, &x, &clash);
    if (clash >= 0) {
      char s1[128], s2[128];
      char *problem = tt_xasprintf("`%.*s` is %s and `%.*s` %s: dim %d is %.*s against %.*s, and Julia broadcasts "
                                   "only equal dims or 1 (lined up from the first dim)",
                                   (int)(ts_node_end_byte(first) - ts_node_start_byte(first)),
                                   c->text + ts_node_start_byte(first), tsh_shape_text(&acc, s1, sizeof s1),
                                   (int)(ts_node_end_byte(ops[i]) - ts_node_start_byte(ops[i])),
                                   c->text + ts_node_start_byte(ops[i]), tsh_shape_text(&x, s2, sizeof s2), clash + 1,
                                   (int)acc.d[clash].n, acc.d[clash].t, (int)x.d[clash].n, x.d[clash].t);
      report(c, n, fn, ops[i], problem);
      free(problem);
      return;
    }
    acc = r;
  }
}

static void check_undotted(tsh_ctx *c, const tt_jlk_scope *s, TSNode n) {
  if (!tt_jlk_is(n, "binary_expression") || ts_node_named_child_count(n) != 3) return;
  TSNode op = ts_node_named_child(n, 1), l = ts_node_named_child(n, 0), r = ts_node_named_child(n, 2);
  bool same = tsh_in_set(c, &c->o->same_shape_operators, op), mm = tsh_in_set(c, &c->o->matmul_operators, op);
  if (!same && !mm) return;
  tsh_shape a = tsh_expr_shape(c, s, l, 0), b = tsh_expr_shape(c, s, r, 0);
  if (!a.rank || !b.rank) return;
  char s1[128], s2[128];
  size_t ol;
  const char *ot = tt_jlk_text(c->text, op, &ol);
  char *problem = NULL;
  if (same) {
    if (a.rank == b.rank) {
      bool differ = false;
      for (int i = 0; i < a.rank; i++) differ |= tsh_dim_differs(a.d[i], b.d[i]);
      if (!differ) return;
    }
    problem = tt_xasprintf("`%.*s` between a %s and a %s tile: undotted, Julia's `%.*s` needs equal shapes; the "
                           "elementwise form is `.%.*s`",
                           (int)ol, ot, tsh_shape_text(&a, s1, sizeof s1), tsh_shape_text(&b, s2, sizeof s2), (int)ol, ot,
                           (int)ol, ot);
  } else {
    if (a.rank != 2 || b.rank != 2 || !tsh_dim_differs(a.d[1], b.d[0])) return;
    problem = tt_xasprintf("`%.*s` of a %s and a %s tile is a matrix product, and their inner dims %.*s and %.*s "
                           "differ; the elementwise product is `.%.*s`",
                           (int)ol, ot, tsh_shape_text(&a, s1, sizeof s1), tsh_shape_text(&b, s2, sizeof s2), (int)a.d[1].n,
                           a.d[1].t, (int)b.d[0].n, b.d[0].t, (int)ol, ot);
  }
  report(c, n, op, r, problem);
  free(problem);
}

/* Each identifier of an `index` tuple counts tiles of the dim at its position: one
 * variable counting tiles of two different dims (TM here, TN there) on one path is an
 * index tuple or a shape in the other layout's order. Dims of 1 are not compared (a
 * block's one value at index bid). */
static void check_index_dims(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *shape_at = tt_strmap_get(&c->o->shape_calls, ct, len), *tile_at = tt_strmap_get(&c->o->store_calls, ct, len);
  if ((!shape_at && !tile_at) || !c->o->index_keyword) return;
  if (c->o->order_keyword && !ts_node_is_null(tsh_keyword(c, args, c->o->order_keyword))) return;
  TSNode ix = tsh_keyword(c, args, c->o->index_keyword), at = shape_at ? tsh_named_arg(c, args, shape_at) : tsh_named_arg(c, args, tile_at);
  if (ts_node_is_null(ix) || ts_node_is_null(at)) return;
  tsh_shape sh = shape_at ? tsh_tuple_shape(c, at) : tsh_expr_shape(c, s, at, 0);
  int k = tt_jlk_is(ix, "tuple_expression") ? (int)ts_node_named_child_count(ix) : 1;
  if (!sh.rank || sh.rank != k) return;
  for (int i = 0; i < k; i++) {
    TSNode v = k == 1 && !tt_jlk_is(ix, "tuple_expression") ? ix : ts_node_named_child(ix, (uint32_t)i);
    if (!tt_jlk_is(v, "identifier") || !tsh_dim_known(sh.d[i]) || tsh_dim_is_one(sh.d[i])) continue;
    size_t vl;
    const char *vt = tt_jlk_text(c->text, v, &vl);
    for (size_t u = 0; u < c->n_uses; u++) {
      size_t ul;
      const char *ut = tt_jlk_text(c->text, c->uses[u].var, &ul);
      if (ul != vl || memcmp(ut, vt, vl) || !tsh_dim_differs(c->uses[u].d, sh.d[i]) || tsh_apart(c->uses[u].at, n)) continue;
      char s1[128];
      char *problem = tt_xasprintf("`%.*s` counts tiles of %.*s here (position %d of the index, tile %s) and of %.*s "
                                   "in an earlier load or store: the index or the shape is in the other layout's order",
                                   (int)vl, vt, (int)sh.d[i].n, sh.d[i].t, i + 1, tsh_shape_text(&sh, s1, sizeof s1),
                                   (int)c->uses[u].d.n, c->uses[u].d.t);
      report(c, n, callee, v, problem);
      free(problem);
      return;
    }
    struct use nu = {.var = v, .at = n, .d = sh.d[i]};
    TT_PUSH(c->uses, c->n_uses, c->cap_uses, nu);
  }
}

/* muladd into an accumulator made as a `low_precision_types` tile (zeros(Float16, ...)). */
static void check_acc_precision(tsh_ctx *c, TSNode n, TSNode callee, TSNode args) {
  if (!tsh_in_set(c, &c->o->muladd_calls, callee) || tsh_n_positional(args) != 3) return;
  TSNode acc = tsh_positional(args, 2);
  size_t len;
  const char *t = tt_jlk_text(c->text, acc, &len);
  bool low = tsh_low_precision_new(c, acc) || (tt_jlk_is(acc, "identifier") && tt_strmap_get(&c->low, t, len));
  if (!low) return;
  char *problem = tt_xasprintf("the accumulator `%.*s` is made with a low-precision eltype: every partial sum is "
                               "rounded to it (cuTile Python's ct.mma keeps the accumulator's dtype; accumulate in "
                               "Float32 and convert once at the store)",
                               (int)len, t);
  report(c, n, callee, acc, problem);
  free(problem);
}

/* A reduction without `dims` of a tile with two dims that are not 1: the whole tile
 * becomes one number, where a row or column reduction (cuTile Python's axis=) was meant. */
static void check_reduce_all(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!tsh_in_set(c, &c->o->reduction_calls, callee) || !ts_node_is_null(tsh_keyword(c, args, c->o->dims_keyword)) ||
      tsh_n_positional(args) != 1)
    return;
  tsh_shape x = tsh_expr_shape(c, s, tsh_positional(args, 0), 0);
  int big = 0;
  for (int i = 0; i < x.rank; i++) big += tsh_dim_known(x.d[i]) && !tsh_dim_is_one(x.d[i]);
  if (big < 2) return;
  char s1[128];
  char *problem = tt_xasprintf("reduces the whole %s tile to one value (no `%s=`): cuTile Python's `axis=a` is "
                               "`%s=a + 1` (logical) or `%s=n - a` (flipped), and the reduced dim is kept",
                               tsh_shape_text(&x, s1, sizeof s1), c->o->dims_keyword, c->o->dims_keyword, c->o->dims_keyword);
  report(c, n, callee, tsh_positional(args, 0), problem);
  free(problem);
}

/* The rank N a parameter declaration `p` (`name::X{T, N}`, X in array_types, N an
 * integer literal) declares; 0 when it is not one. */
static long param_rank(tsh_ctx *c, TSNode p) {
  if (!tt_jlk_is(p, "typed_expression") || ts_node_named_child_count(p) < 2) return 0;
  TSNode ty = ts_node_named_child(p, 1);
  if (!tt_jlk_is(ty, "parametrized_type_expression")) return 0;
  size_t tn;
  const char *tt = tt_jlk_text(c->text, ts_node_named_child(ty, 0), &tn);
  TSNode curly = ts_node_named_child(ty, 1);
  if (!tt_strmap_get(&c->o->array_types, tt, tn) || !tt_jlk_is(curly, "curly_expression") ||
      ts_node_named_child_count(curly) < 2)
    return 0;
  return tsh_int_lit(c, ts_node_named_child(curly, 1));
}

/* The parameter list of the function `def` (a null node when it has none). */
static TSNode params_of(TSNode def) {
  TSNode where, sig = tt_jlk_signature_call(def, &where);
  return ts_node_is_null(sig) ? sig : ts_node_named_child(sig, 1);
}

/* The rank N a parameter named like `arr` of the function `def` declares as `X{T, N}`;
 * 0 when none does. */
static long declared_rank(tsh_ctx *c, TSNode def, TSNode arr) {
  TSNode params = params_of(def);
  size_t an, pn;
  const char *at = tt_jlk_text(c->text, arr, &an);
  for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!tt_jlk_is(p, "typed_expression") || ts_node_named_child_count(p) < 2) continue;
    const char *pt = tt_jlk_text(c->text, ts_node_named_child(p, 0), &pn);
    if (pn == an && !memcmp(pt, at, an)) return param_rank(c, p);
  }
  return 0;
}

/* The tile of a load (`shape=` keyword form) or store whose array is the call's first
 * positional argument; rank 0 when `n` is neither or the tile is not known. */
static tsh_shape access_tile(tsh_ctx *c, const tt_jlk_scope *s, TSNode call) {
  tsh_shape none = {0};
  TSNode callee = ts_node_named_child(call, 0), args = ts_node_named_child(call, 1);
  if (!tt_jlk_is(args, "argument_list")) return none;
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *shape_at = tt_strmap_get(&c->o->shape_calls, ct, len), *tile_at = tt_strmap_get(&c->o->store_calls, ct, len);
  if ((!shape_at && !tile_at) || (shape_at && shape_at[0] >= '0' && shape_at[0] <= '9')) return none;
  TSNode at = shape_at ? tsh_named_arg(c, args, shape_at) : tsh_named_arg(c, args, tile_at);
  if (ts_node_is_null(at)) return none;
  return shape_at ? tsh_tuple_shape(c, at) : tsh_expr_shape(c, s, at, 0);
}

/* A load's or store's tile against its array's declared rank. cuTile.jl (c3e5f05
 * _match_shape) pads a shorter tile shape with trailing 1s and squeezes trailing dims of
 * 1 off a longer one, so only a longer tile with a dim that is not 1 past the array's
 * rank fails ("cannot squeeze shape"); unknown dims are not judged. */
static void check_array_rank(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  TSNode arr = tsh_positional(args, 0);
  if (!tt_jlk_is(arr, "identifier")) return;
  tsh_shape sh = access_tile(c, s, n);
  long rank = sh.rank ? declared_rank(c, s->root, arr) : 0;
  if (rank < 1) return;
  int bad = -1;
  for (int i = (int)rank; i < sh.rank && bad < 0; i++)
    if (!tsh_dim_known(sh.d[i])) return;
    else if (!tsh_dim_is_one(sh.d[i])) bad = i;
  if (bad < 0) return;
  size_t nl;
  const char *nt = tt_jlk_text(c->text, arr, &nl);
  char sb[128];
  char *problem = tt_xasprintf("`%.*s` is declared %ld-d, but this tile is %s: dim %d (%.*s) is past the array's rank and "
                               "not 1, so it cannot be squeezed off (the signature or the tile is in another rank)",
                               (int)nl, nt, rank, tsh_shape_text(&sh, sb, sizeof sb), bad + 1, (int)sh.d[bad].n, sh.d[bad].t);
  report(c, n, callee, arr, problem);
  free(problem);
}

/* A parameter declared N-d (N >= 2) that the function only ever loads and stores as
 * tiles of fewer dims. cuTile.jl pads such a tile with trailing 1s, so the kernel
 * compiles, but it then needs an array whose trailing dims are 1: where the host
 * passes a vector (cuTile Python's 1-d bias), the signature is wrong. One walk over
 * the function: each use of a candidate parameter either is such an access (its
 * widest tile rank kept) or rules the parameter out (an unknown tile, `size(b, 2)`, a
 * call that takes it: it may be used as N-d). */
static void check_rank_unused(tsh_ctx *c, const tt_jlk_scope *s) {
  TSNode params = params_of(s->root);
  uint32_t np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  struct cand { TSNode decl, name; long rank; int widest; } *cs = tt_xcalloc(np + 1, sizeof *cs);
  tt_strmap by_name = {0}; /* a candidate's name -> its index */
  uint32_t n = 0;
  for (uint32_t i = 0; i < np; i++) {
    TSNode p = ts_node_named_child(params, i);
    long rank = param_rank(c, p);
    if (rank < 2) continue;
    char *name = text_of(c, ts_node_named_child(p, 0)), idx[16];
    snprintf(idx, sizeof idx, "%u", n);
    tt_strmap_put(&by_name, name, idx);
    free(name);
    cs[n++] = (struct cand){p, ts_node_named_child(p, 0), rank, 0};
  }
  TSTreeCursor cur = ts_tree_cursor_new(s->root);
  for (bool down = n > 0; n > 0;) {
    TSNode id = ts_tree_cursor_current_node(&cur);
    size_t len;
    const char *t = down && tt_jlk_is(id, "identifier") ? tt_jlk_text(c->text, id, &len) : NULL;
    const char *k = t ? tt_strmap_get(&by_name, t, len) : NULL;
    struct cand *cd = k ? &cs[atoi(k)] : NULL;
    if (cd && cd->widest >= 0 && !ts_node_eq(id, cd->name)) {
      TSNode args = ts_node_parent(id);
      tsh_shape tile = {0};
      if (tt_jlk_is(args, "argument_list") && ts_node_eq(tsh_positional(args, 0), id))
        tile = access_tile(c, s, ts_node_parent(args));
      cd->widest = tile.rank == 0 ? -1 : tile.rank > cd->widest ? tile.rank : cd->widest;
    }
    if (down && ts_tree_cursor_goto_first_child(&cur)) continue;
    if (ts_tree_cursor_goto_next_sibling(&cur)) {
      down = true;
      continue;
    }
    if (!ts_tree_cursor_goto_parent(&cur)) break;
    down = false;
  }
  ts_tree_cursor_delete(&cur);
  for (uint32_t i = 0; i < n; i++) {
    const struct cand *cd = &cs[i];
    if (cd->widest <= 0 || cd->widest >= cd->rank) continue;
    size_t nl;
    const char *nt = tt_jlk_text(c->text, cd->name, &nl);
    char *problem = tt_xasprintf("`%.*s` is declared %ld-d, but every load and store of it is a %d-d tile: cuTile.jl "
                                 "pads such a tile with trailing 1s, so the kernel needs an array whose dims past %d "
                                 "are 1; if the host passes a %d-d array, declare it `{T, %d}`",
                                 (int)nl, nt, cd->rank, cd->widest, cd->widest, cd->widest, cd->widest);
    report(c, cd->decl, cd->name, cd->name, problem);
    free(problem);
  }
  tt_strmap_free(&by_name);
  free(cs);
}

static void reset(tsh_ctx *c) {
  tt_strmap_free(&c->vars);
  memset(&c->vars, 0, sizeof c->vars);
  tt_strmap_free(&c->low);
  memset(&c->low, 0, sizeof c->low);
  c->n_uses = 0;
  c->n_asgs = 0;
  c->n = 0;
  c->n_seen = 0;
}

/* Preorder over the function, nested definitions skipped (their own scopes). */
static void learn_scope(tsh_ctx *c, const tt_jlk_scope *s) {
  TSTreeCursor cur = ts_tree_cursor_new(s->root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    bool nested = tt_jlk_is_definition(n) && !ts_node_eq(n, s->root);
    if (!nested) tsh_learn(c, s, n);
    if (!nested && ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) goto done;
  }
done:
  ts_tree_cursor_delete(&cur);
}

static void visit(const tt_jlk_scope *s, TSNode n, void *ud) {
  tsh_ctx *c = ud;
  if (ts_node_eq(n, s->root)) { /* a scope starts: its locals' shapes first */
    reset(c);
    c->in_function = tt_jlk_is_definition(s->root);
    if (c->in_function) learn_scope(c, s), tsh_relearn(c, s);
    if (c->in_function && c->o->check == C_RANK_UNUSED) check_rank_unused(c, s);
  }
  if (!c->in_function) return;
  switch (c->o->check) {
  case C_BROADCAST: check_broadcast(c, s, n); return;
  case C_UNDOTTED: check_undotted(c, s, n); return;
  default: break;
  }
  if (!tt_jlk_is(n, "call_expression")) return;
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  if (!tt_jlk_is(args, "argument_list")) return;
  switch (c->o->check) {
  case C_MULADD: check_muladd(c, s, n, callee, args); break;
  case C_ARRAY_TILES: check_array_tiles(c, s, n, callee, args); break;
  case C_CAT: check_cat(c, s, n, callee, args); break;
  case C_REDUCE_UNIT: check_reduce_unit(c, s, n, callee, args); break;
  case C_INDEX_DIMS: check_index_dims(c, s, n, callee, args); break;
  case C_ACC_PRECISION: check_acc_precision(c, n, callee, args); break;
  case C_REDUCE_ALL: check_reduce_all(c, s, n, callee, args); break;
  case C_ARRAY_RANK: check_array_rank(c, s, n, callee, args); break;
  default: break;
  }
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const tsh_opts *o = opts;
  tsh_ctx c = {.o = o, .text = ctx->tree->src->text, .emit = emit, .ud = ud};
  tt_jlk_each_scope(&o->kinds, ctx->tree->src->text, ts_tree_root_node(ctx->tree->ts), visit, &c);
  reset(&c);
  free(c.known);
  free(c.seen);
  free(c.uses);
  free(c.asgs);
}

static const char *const bindings[] = {"fn", "at", "problem", NULL};

const tt_analyzer tt_analyzer_tile_shapes = {"julia-tile-shapes", bindings, compile_opts, free_opts, run, false, NULL};
