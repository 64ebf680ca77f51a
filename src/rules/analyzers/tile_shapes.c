/* julia-tile-shapes — tile shapes inferred through a Julia kernel, and one relation
 * between them that a translation can break, chosen by the rule file's `check:`:
 *
 *   muladd       `muladd(a, b, acc)`: a (M, K) and b (K', N) need K == K' (the operands
 *                are swapped for the file's layout otherwise), and acc must be (M, N) (a
 *                transposed or otherwise wrong accumulator);
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
 *
 * Shapes come only from the rule file's evidence (`shape_calls`: callee -> the keyword,
 * or 1-based position, holding the tile shape; `new_calls` (zeros, fill: the dims after
 * the first argument); `reshape_calls`; `keep_calls` (convert: the last argument's
 * shape); `transpose_calls`; `permute_calls`; `muladd_calls`; `reduction_calls` with
 * `dims_keyword`; `dropdims_calls`; `cat_calls`; dotted `operators` and broadcast calls)
 * and from locals whose every assignment in the function has one shape. A scalar operand
 * (jl_kinds.h evidence, the same options as julia-scalar-args) keeps the other's shape.
 * Dims are compared as text (`TM` against `TK`): two names are two dims. Anything not
 * known is not judged. Cost: linear in each function times its expression depth
 * (bounded at 32). Binds `fn` (the call or operator), `at` (the operand at fault),
 * `problem` (in words). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/jl_kinds.h"
#include "rules/analyzers/opts.h"
#include "util/util.h"

typedef enum {
  C_MULADD, C_ARRAY_TILES, C_CAT, C_REDUCE_UNIT, C_BROADCAST, C_UNDOTTED, C_INDEX_DIMS, C_ACC_PRECISION, C_REDUCE_ALL
} check_kind;
static const char *const k_checks[] = {"muladd", "array-tiles", "cat", "reduce-unit", "broadcast", "undotted",
                                       "index-dims", "accumulator-precision", "reduce-all", NULL};

typedef struct ts_opts {
  check_kind check;
  tt_strmap shape_calls, store_calls, new_calls, reshape_calls, keep_calls, transpose_calls, permute_calls,
      muladd_calls, reduction_calls, dropdims_calls, cat_calls, operators, same_shape_operators, matmul_operators;
  char *dims_keyword, *order_keyword, *index_keyword;
  tt_strmap low_precision_types;
  tt_jlk_config kinds;
} ts_opts;

static tt_strmap *set_field(ts_opts *o, int i) {
  tt_strmap *f[] = {&o->new_calls,       &o->reshape_calls,  &o->keep_calls,      &o->transpose_calls,
                    &o->permute_calls,   &o->muladd_calls,   &o->reduction_calls, &o->dropdims_calls,
                    &o->cat_calls,       &o->operators,      &o->same_shape_operators, &o->matmul_operators};
  return i < (int)(sizeof f / sizeof *f) ? f[i] : NULL;
}
static const char *const k_set_keys[] = {"new_calls",       "reshape_calls",   "keep_calls",      "transpose_calls",
                                         "permute_calls",   "muladd_calls",    "reduction_calls", "dropdims_calls",
                                         "cat_calls",       "operators",       "same_shape_operators", "matmul_operators"};

static void free_opts(void *p) {
  ts_opts *o = p;
  tt_strmap_free(&o->shape_calls);
  tt_strmap_free(&o->store_calls);
  for (int i = 0; set_field(o, i); i++) tt_strmap_free(set_field(o, i));
  free(o->dims_keyword);
  free(o->order_keyword);
  free(o->index_keyword);
  tt_strmap_free(&o->low_precision_types);
  tt_jlk_config_free(&o->kinds);
  free(o);
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"check", "shape_calls", "store_calls", "dims_keyword", "new_calls", "reshape_calls",
                                     "keep_calls", "transpose_calls", "permute_calls", "muladd_calls", "reduction_calls",
                                     "dropdims_calls", "cat_calls", "operators", "same_shape_operators",
                                     "matmul_operators", "order_keyword", "index_keyword",
                                     "low_precision_types", NULL};
  ts_opts *o = tt_xcalloc(1, sizeof *o);
  char *check = NULL;
  if (tt_jlk_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "check", &check, err, at) < 0 ||
      tt_opts_map(opts, "shape_calls", &o->shape_calls, err, at) < 0 ||
      tt_opts_map(opts, "store_calls", &o->store_calls, err, at) < 0 ||
      tt_opts_string(opts, "dims_keyword", &o->dims_keyword, err, at) < 0 ||
      tt_opts_string(opts, "order_keyword", &o->order_keyword, err, at) < 0 ||
      tt_opts_string(opts, "index_keyword", &o->index_keyword, err, at) < 0 ||
      tt_opts_set(opts, "low_precision_types", &o->low_precision_types, err, at) < 0 || tt_jlk_config_read(opts, &o->kinds, err, at) < 0)
    goto bad;
  for (int i = 0; set_field(o, i); i++)
    if (tt_opts_set(opts, k_set_keys[i], set_field(o, i), err, at) < 0) goto bad;
  int c = -1;
  for (int i = 0; check && k_checks[i]; i++)
    if (!strcmp(check, k_checks[i])) c = i;
  if (c < 0) {
    *err = tt_xasprintf("`check` must be one of muladd, array-tiles, cat, reduce-unit, broadcast, undotted, "
                        "index-dims, accumulator-precision, reduce-all%s%s",
                        check ? "; got " : "", check ? check : "");
    *at = opts;
    goto bad;
  }
  o->check = (check_kind)c;
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

/* ---- shapes ---------------------------------------------------------------------- */

enum { MAX_RANK = 4, MAX_DEPTH = 32 };
/* A dim is a text (a node's, or the literal "1"); t NULL: a dim of unknown size. */
typedef struct dim {
  const char *t;
  size_t n;
} dim;
/* rank 0: no shape known (a scalar, or not inferred). */
typedef struct shape {
  int rank;
  dim d[MAX_RANK];
} shape;

static const dim k_one = {"1", 1};

static bool dim_known(dim a) { return a.t != NULL; }
static bool dim_is_one(dim a) { return a.n == 1 && a.t[0] == '1'; }
/* Text equality ignoring blanks (`TM*2` is `TM * 2`). */
static bool dim_eq(dim a, dim b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a.n && (a.t[i] == ' ' || a.t[i] == '\t')) i++;
    while (j < b.n && (b.t[j] == ' ' || b.t[j] == '\t')) j++;
    if (i == a.n || j == b.n) return i == a.n && j == b.n;
    if (a.t[i++] != b.t[j++]) return false;
  }
}
/* Both known and different. */
static bool dim_differs(dim a, dim b) { return dim_known(a) && dim_known(b) && !dim_eq(a, b); }

static bool shape_same(const shape *a, const shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (dim_known(a->d[i]) != dim_known(b->d[i]) || dim_differs(a->d[i], b->d[i])) return false;
  return true;
}

/* "(TM, TK)" into buf. */
static const char *shape_text(const shape *s, char *buf, size_t cap) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, cap - k, "(");
  for (int i = 0; i < s->rank && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%.*s%s", i ? ", " : "", s->d[i].t ? (int)s->d[i].n : 1,
                          s->d[i].t ? s->d[i].t : "?", s->rank == 1 && i == 0 ? "," : "");
  if (k < cap) snprintf(buf + k, cap - k, ")");
  return buf;
}

/* ---- one function ------------------------------------------------------------------ */

typedef struct run_ctx {
  const ts_opts *o;
  const char *text;
  TSNode scope;     /* the function whose locals `vars` holds (null: none) */
  bool in_function;
  tt_strmap vars;   /* local -> index into known, or "-" when its assignments disagree */
  shape *known;
  size_t n, cap;
  tt_strmap low;    /* locals assigned a new tile of a `low_precision_types` eltype -> "" */
  struct use { /* each index variable's tile dims so far: the var, its dim, the call */
    TSNode var, at;
    dim d;
  } *uses;
  size_t n_uses, cap_uses;
  struct seen { /* each array's tile shapes so far: the shape, the call, the array */
    shape sh;
    TSNode at, arr;
  } *seen;
  size_t n_seen, cap_seen;
  tt_analyzer_emit emit;
  void *ud;
} run_ctx;

static dim node_dim(const run_ctx *c, TSNode n) {
  size_t len;
  const char *t = tt_jlk_text(c->text, n, &len);
  dim d = {t, len};
  return d;
}

static bool in_set(const run_ctx *c, const tt_strmap *set, TSNode callee) {
  size_t len;
  const char *t = tt_jlk_text(c->text, callee, &len);
  return set->n && tt_strmap_get(set, t, len) != NULL;
}

/* A tuple `(a, b)` (or one dim `n`) as a shape. */
static shape tuple_shape(const run_ctx *c, TSNode t) {
  shape s = {0};
  while (tt_jlk_is(t, "parenthesized_expression") && ts_node_named_child_count(t) == 1) t = ts_node_named_child(t, 0);
  if (!tt_jlk_is(t, "tuple_expression")) return s;
  uint32_t k = ts_node_named_child_count(t);
  if (k < 1 || k > MAX_RANK) return s;
  for (uint32_t i = 0; i < k; i++) s.d[i] = node_dim(c, ts_node_named_child(t, i));
  s.rank = (int)k;
  return s;
}

/* The i-th positional argument (0-based) and the keyword `kw` of an argument list. */
static TSNode positional(TSNode args, int i) {
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    if (tt_jlk_is(a, "named_argument") || tt_jlk_is(a, "comment")) continue;
    if (i-- == 0) return a;
  }
  return (TSNode){0};
}
static int n_positional(TSNode args) {
  int k = 0;
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a))
    k += !tt_jlk_is(a, "named_argument") && !tt_jlk_is(a, "comment");
  return k;
}
static TSNode keyword(const run_ctx *c, TSNode args, const char *kw) {
  size_t kl = strlen(kw), len;
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    if (!tt_jlk_is(a, "named_argument")) continue;
    const char *t = tt_jlk_text(c->text, ts_node_named_child(a, 0), &len);
    if (len == kl && !memcmp(t, kw, kl)) return ts_node_named_child(a, ts_node_named_child_count(a) - 1);
  }
  return (TSNode){0};
}
/* The argument a `shape_calls`/`store_calls` value names: digits are a 1-based
 * position, anything else a keyword. */
static TSNode named_arg(const run_ctx *c, TSNode args, const char *where) {
  char *end;
  long pos = strtol(where, &end, 10);
  if (*where && !*end) return pos > 0 ? positional(args, (int)pos - 1) : (TSNode){0};
  return keyword(c, args, where);
}

/* An integer literal's value, or -1. */
static long int_lit(const run_ctx *c, TSNode n) {
  if (!tt_jlk_is(n, "integer_literal")) return -1;
  size_t len;
  const char *t = tt_jlk_text(c->text, n, &len);
  char buf[24];
  if (len >= sizeof buf) return -1;
  memcpy(buf, t, len);
  buf[len] = '\0';
  return strtol(buf, NULL, 10);
}

static shape expr_shape(run_ctx *c, const tt_jlk_scope *s, TSNode n, int depth);

/* Julia's (left-aligned) broadcast of a and b; *clash gets the first dim where both
 * are known, differ and neither is 1 (-1: none). Unknown dims stay unknown. */
static shape broadcast(const shape *a, const shape *b, int *clash) {
  *clash = -1;
  shape r = {a->rank > b->rank ? a->rank : b->rank, {{0}}};
  for (int i = 0; i < r.rank; i++) {
    dim x = i < a->rank ? a->d[i] : k_one, y = i < b->rank ? b->d[i] : k_one;
    if (!dim_known(x) || !dim_known(y)) r.d[i] = dim_known(x) && !dim_is_one(x) ? x : dim_known(y) && !dim_is_one(y) ? y : (dim){0};
    else if (dim_is_one(x)) r.d[i] = y;
    else if (dim_is_one(y) || dim_eq(x, y)) r.d[i] = x;
    else {
      if (*clash < 0) *clash = i;
      r.d[i] = (dim){0};
    }
  }
  return r;
}

/* Operands of an elementwise operation: the shaped ones broadcast; a scalar operand is
 * neutral; an operand neither shaped nor known scalar makes the result unknown. */
static shape elementwise(run_ctx *c, const tt_jlk_scope *s, TSNode *ops, int k, int depth) {
  shape r = {0};
  for (int i = 0; i < k; i++) {
    shape x = expr_shape(c, s, ops[i], depth + 1);
    if (!x.rank) {
      if (tt_jlk_expr_kind(s, ops[i]) != TT_JLK_SCALAR) return (shape){0};
      continue;
    }
    int clash;
    r = r.rank ? broadcast(&r, &x, &clash) : x;
  }
  return r;
}

static bool dotted_operator(const run_ctx *c, TSNode op) { return in_set(c, &c->o->operators, op); }

static shape call_shape(run_ctx *c, const tt_jlk_scope *s, TSNode n, int depth) {
  shape none = {0};
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  if (!tt_jlk_is(args, "argument_list")) return none;
  const ts_opts *o = c->o;
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *where = tt_strmap_get(&o->shape_calls, ct, len);
  if (where) return tuple_shape(c, named_arg(c, args, where));
  if (in_set(c, &o->reshape_calls, callee)) return tuple_shape(c, positional(args, 1));
  if (in_set(c, &o->new_calls, callee)) {
    int k = n_positional(args);
    if (k == 2) {
      shape t = tuple_shape(c, positional(args, 1));
      if (t.rank) return t;
    }
    if (k < 2 || k - 1 > MAX_RANK) return none;
    shape r = {k - 1, {{0}}};
    for (int i = 1; i < k; i++) {
      TSNode a = positional(args, i);
      if (tt_jlk_is(a, "tuple_expression")) return none;
      r.d[i - 1] = node_dim(c, a);
    }
    return r;
  }
  if (in_set(c, &o->keep_calls, callee)) {
    int k = n_positional(args);
    return k ? expr_shape(c, s, positional(args, k - 1), depth + 1) : none;
  }
  if (in_set(c, &o->transpose_calls, callee)) {
    shape x = expr_shape(c, s, positional(args, 0), depth + 1);
    if (x.rank != 2) return none;
    dim t = x.d[0];
    x.d[0] = x.d[1], x.d[1] = t;
    return x;
  }
  if (in_set(c, &o->permute_calls, callee)) {
    shape x = expr_shape(c, s, positional(args, 0), depth + 1);
    TSNode p = positional(args, 1);
    if (!x.rank || !tt_jlk_is(p, "tuple_expression") || (int)ts_node_named_child_count(p) != x.rank) return none;
    shape r = {x.rank, {{0}}};
    for (int i = 0; i < x.rank; i++) {
      long v = int_lit(c, ts_node_named_child(p, (uint32_t)i));
      if (v < 1 || v > x.rank) return none;
      r.d[i] = x.d[v - 1];
    }
    return r;
  }
  if (in_set(c, &o->muladd_calls, callee)) {
    shape acc = expr_shape(c, s, positional(args, 2), depth + 1);
    if (acc.rank) return acc;
    shape a = expr_shape(c, s, positional(args, 0), depth + 1), b = expr_shape(c, s, positional(args, 1), depth + 1);
    if (a.rank != 2 || b.rank != 2 || dim_differs(a.d[1], b.d[0])) return none;
    shape r = {2, {a.d[0], b.d[1]}};
    return r;
  }
  if (in_set(c, &o->reduction_calls, callee) || in_set(c, &o->dropdims_calls, callee)) {
    TSNode dn = keyword(c, args, o->dims_keyword);
    long d = int_lit(c, dn);
    shape x = expr_shape(c, s, positional(args, 0), depth + 1);
    if (d < 1 || d > x.rank) return none;
    if (in_set(c, &o->reduction_calls, callee)) {
      x.d[d - 1] = k_one;
      return x;
    }
    for (int i = (int)d - 1; i + 1 < x.rank; i++) x.d[i] = x.d[i + 1];
    x.rank--;
    return x;
  }
  if (in_set(c, &o->cat_calls, callee)) {
    long d = int_lit(c, keyword(c, args, o->dims_keyword));
    shape x = expr_shape(c, s, positional(args, 0), depth + 1);
    if (d < 1 || d > x.rank) return none;
    x.d[d - 1] = (dim){0};
    return x;
  }
  return none;
}

static shape expr_shape(run_ctx *c, const tt_jlk_scope *s, TSNode n, int depth) {
  shape none = {0};
  if (ts_node_is_null(n) || depth > MAX_DEPTH) return none;
  while (tt_jlk_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  size_t len;
  if (tt_jlk_is(n, "identifier")) {
    const char *t = tt_jlk_text(c->text, n, &len);
    const char *v = tt_strmap_get(&c->vars, t, len);
    return v && *v != '-' ? c->known[strtoul(v, NULL, 10)] : none;
  }
  if (tt_jlk_is(n, "call_expression")) return call_shape(c, s, n, depth);
  if (tt_jlk_is(n, "broadcast_call_expression")) {
    TSNode args = ts_node_named_child(n, 1), ops[8];
    int k = 0;
    for (int i = 0; i < n_positional(args) && k < 8; i++) ops[k++] = positional(args, i);
    return elementwise(c, s, ops, k, depth);
  }
  if (tt_jlk_is(n, "binary_expression") && ts_node_named_child_count(n) == 3) {
    TSNode op = ts_node_named_child(n, 1), ops[2] = {ts_node_named_child(n, 0), ts_node_named_child(n, 2)};
    if (dotted_operator(c, op)) return elementwise(c, s, ops, 2, depth);
    /* undotted: same-shape `+`/`-`, and `*` or `/` by a scalar, keep the tile's shape */
    shape a = expr_shape(c, s, ops[0], depth + 1), b = expr_shape(c, s, ops[1], depth + 1);
    bool sa = !a.rank && tt_jlk_expr_kind(s, ops[0]) == TT_JLK_SCALAR;
    bool sb = !b.rank && tt_jlk_expr_kind(s, ops[1]) == TT_JLK_SCALAR;
    if (in_set(c, &c->o->same_shape_operators, op)) return a.rank && shape_same(&a, &b) ? a : none;
    if (in_set(c, &c->o->matmul_operators, op)) {
      if (a.rank && sb) return a;
      if (b.rank && sa) return b;
      if (a.rank == 2 && b.rank == 2 && !dim_differs(a.d[1], b.d[0])) return (shape){2, {a.d[0], b.d[1]}};
    }
    return none;
  }
  return none;
}

/* A new tile (`new_calls`) whose eltype argument is one of `low_precision_types`. */
static bool low_precision_new(const run_ctx *c, TSNode n) {
  while (tt_jlk_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  if (!tt_jlk_is(n, "call_expression") || !c->o->low_precision_types.n) return false;
  TSNode args = ts_node_named_child(n, 1);
  if (!in_set(c, &c->o->new_calls, ts_node_named_child(n, 0)) || !tt_jlk_is(args, "argument_list")) return false;
  TSNode ty = positional(args, 0);
  return !ts_node_is_null(ty) && in_set(c, &c->o->low_precision_types, ty);
}

static void learn(run_ctx *c, const tt_jlk_scope *s, TSNode n) {
  if (!tt_jlk_is(n, "assignment") || tt_jlk_is(ts_node_parent(n), "argument_list")) return;
  TSNode lhs = ts_node_named_child(n, 0), rhs = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
  if (!tt_jlk_is(lhs, "identifier")) return;
  size_t len;
  const char *t = tt_jlk_text(c->text, lhs, &len);
  const char *now = tt_strmap_get(&c->vars, t, len);
  if (now && *now == '-') return;
  shape sh = expr_shape(c, s, rhs, 0);
  char *key = tt_xstrndup(t, len);
  if (low_precision_new(c, rhs)) tt_strmap_put(&c->low, key, "");
  if (!sh.rank || (now && !shape_same(&c->known[strtoul(now, NULL, 10)], &sh))) {
    tt_strmap_put(&c->vars, key, "-");
  } else if (!now) {
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", c->n);
    TT_PUSH(c->known, c->n, c->cap, sh);
    tt_strmap_put(&c->vars, key, idx);
  }
  free(key);
}

/* ---- the checks --------------------------------------------------------------------- */

static void report(run_ctx *c, TSNode whole, TSNode fn, TSNode at, const char *problem) {
  size_t fl, al;
  const char *ft = tt_jlk_text(c->text, fn, &fl), *atx = tt_jlk_text(c->text, at, &al);
  uint32_t fs = ts_node_start_byte(fn), as = ts_node_start_byte(at);
  tt_binding bd[] = {{"fn", ft, fl, fs, fs + (uint32_t)fl},
                     {"at", atx, al, as, as + (uint32_t)al},
                     {"problem", problem, strlen(problem), as, as + (uint32_t)al}};
  tt_analyzer_hit h = {ts_node_start_byte(whole), ts_node_end_byte(whole), bd, 3, NULL, 0, false};
  c->emit(c->ud, &h);
}

static char *text_of(const run_ctx *c, TSNode n) {
  size_t len;
  const char *t = tt_jlk_text(c->text, n, &len);
  return tt_xstrndup(t, len);
}

static void check_muladd(run_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!in_set(c, &c->o->muladd_calls, callee) || n_positional(args) != 3) return;
  TSNode an = positional(args, 0), bn = positional(args, 1), accn = positional(args, 2);
  shape a = expr_shape(c, s, an, 0), b = expr_shape(c, s, bn, 0), acc = expr_shape(c, s, accn, 0);
  if (a.rank != 2 || b.rank != 2) return;
  char sa[128], sb[128], sacc[128], sp[128], *at = NULL, *problem = NULL;
  shape prod = {2, {a.d[0], b.d[1]}};
  if (dim_differs(a.d[1], b.d[0])) {
    at = text_of(c, an);
    problem = tt_xasprintf("`%s` is %s and `%.*s` %s: the inner dims %.*s and %.*s differ, so these operands are in "
                           "the other layout's order",
                           at, shape_text(&a, sa, sizeof sa), (int)(ts_node_end_byte(bn) - ts_node_start_byte(bn)),
                           c->text + ts_node_start_byte(bn), shape_text(&b, sb, sizeof sb), (int)a.d[1].n, a.d[1].t,
                           (int)b.d[0].n, b.d[0].t);
    report(c, n, callee, an, problem);
  } else if (acc.rank == 2 && (dim_differs(acc.d[0], prod.d[0]) || dim_differs(acc.d[1], prod.d[1]))) {
    at = text_of(c, accn);
    problem = tt_xasprintf("the product is %s, but the accumulator `%s` is %s", shape_text(&prod, sp, sizeof sp), at,
                           shape_text(&acc, sacc, sizeof sacc));
    report(c, n, callee, accn, problem);
  }
  free(at);
  free(problem);
}

/* True when a or b is under an `if` or ternary that does not hold the other: a kernel
 * may take an array in either layout under a constant (TileGym's `if TRANSPOSE_B`), and
 * only tiles on one straight path (loops included) must agree. */
static bool conditional(TSNode x, TSNode lca) {
  for (x = ts_node_parent(x); !ts_node_is_null(x) && !ts_node_eq(x, lca); x = ts_node_parent(x))
    if (tt_jlk_is(x, "if_statement") || tt_jlk_is(x, "ternary_expression")) return true;
  return false;
}
static bool apart(TSNode a, TSNode b) {
  uint32_t as = ts_node_start_byte(a), ae = ts_node_end_byte(a);
  TSNode lca = ts_node_parent(b);
  while (!ts_node_is_null(lca) && !(ts_node_start_byte(lca) <= as && ae <= ts_node_end_byte(lca))) lca = ts_node_parent(lca);
  return tt_jlk_is(lca, "if_statement") || tt_jlk_is(lca, "ternary_expression") || conditional(a, lca) ||
         conditional(b, lca);
}

/* The array's tile shape here against the first one seen for it. */
static void check_array_tiles(run_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *shape_at = tt_strmap_get(&c->o->shape_calls, ct, len), *tile_at = tt_strmap_get(&c->o->store_calls, ct, len);
  if (!shape_at && !tile_at) return;
  TSNode arr = positional(args, 0);
  if (!tt_jlk_is(arr, "identifier")) return;
  TSNode at = shape_at ? named_arg(c, args, shape_at) : named_arg(c, args, tile_at);
  shape sh = shape_at ? tuple_shape(c, at) : expr_shape(c, s, at, 0);
  if (!sh.rank || ts_node_is_null(at)) return;
  /* A load's or store's `order` permutes tile dims to array dims: compare in array order. */
  if (c->o->order_keyword && !ts_node_is_null(keyword(c, args, c->o->order_keyword))) {
    TSNode ord = keyword(c, args, c->o->order_keyword);
    if (!tt_jlk_is(ord, "tuple_expression") || (int)ts_node_named_child_count(ord) != sh.rank) return;
    shape r = {sh.rank, {{0}}};
    for (int i = 0; i < sh.rank; i++) {
      long v = int_lit(c, ts_node_named_child(ord, (uint32_t)i));
      if (v < 1 || v > sh.rank) return;
      r.d[v - 1] = sh.d[i];
    }
    sh = r;
  }
  const char *an = tt_jlk_text(c->text, arr, &len);
  const shape *first = NULL;
  for (size_t k = 0; k < c->n_seen && !first; k++) {
    const struct seen *e = &c->seen[k];
    size_t el;
    const char *et = tt_jlk_text(c->text, e->arr, &el);
    if (el != len || memcmp(et, an, len) || e->sh.rank != sh.rank || shape_same(&e->sh, &sh) || apart(e->at, n))
      continue;
    bool known = true;
    for (int i = 0; i < sh.rank; i++) known &= dim_known(sh.d[i]) && dim_known(e->sh.d[i]);
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
                               (int)len, an, shape_text(&sh, s1, sizeof s1), shape_text(first, s2, sizeof s2));
  report(c, n, callee, at, problem);
  free(problem);
}

static void check_cat(run_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!in_set(c, &c->o->cat_calls, callee) || n_positional(args) < 2) return;
  TSNode dn = keyword(c, args, c->o->dims_keyword);
  long d = int_lit(c, dn);
  if (d < 1) return; /* dims=0: jl-dims-zero's */
  shape first = expr_shape(c, s, positional(args, 0), 0);
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
  for (int k = 1; k < n_positional(args); k++) {
    TSNode on = positional(args, k);
    shape o = expr_shape(c, s, on, 0);
    if (o.rank != first.rank) continue;
    for (int i = 0; i < o.rank; i++) {
      if (i == d - 1 || !dim_differs(o.d[i], first.d[i])) continue;
      char *problem = tt_xasprintf("`dims=%ld` joins tiles %s and %s, which differ in dim %d: they can only be joined "
                                   "along dim %d (under the flipped layout a Python axis a of an n-d tile is dim n - a)",
                                   d, shape_text(&first, s1, sizeof s1), shape_text(&o, s2, sizeof s2), i + 1, i + 1);
      report(c, n, callee, dn, problem);
      free(problem);
      return;
    }
  }
}

static void check_reduce_unit(run_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!in_set(c, &c->o->reduction_calls, callee)) return;
  TSNode dn = keyword(c, args, c->o->dims_keyword);
  long d = int_lit(c, dn);
  shape x = expr_shape(c, s, positional(args, 0), 0);
  if (d < 1 || d > x.rank || !dim_known(x.d[d - 1]) || !dim_is_one(x.d[d - 1])) return;
  bool other = false;
  for (int i = 0; i < x.rank; i++) other |= i != d - 1 && dim_known(x.d[i]) && !dim_is_one(x.d[i]);
  if (!other) return;
  char s1[128];
  char *problem = tt_xasprintf("reduces dim %ld of a %s tile, which is 1: every element is its own result (the "
                               "reduction meant another dim; under the flipped layout a Python axis a of an n-d tile is "
                               "dim n - a)",
                               d, shape_text(&x, s1, sizeof s1));
  report(c, n, callee, dn, problem);
  free(problem);
}

static void check_broadcast(run_ctx *c, const tt_jlk_scope *s, TSNode n) {
  TSNode fn, ops[8];
  int k = 0;
  if (tt_jlk_is(n, "binary_expression") && ts_node_named_child_count(n) == 3) {
    fn = ts_node_named_child(n, 1);
    if (!dotted_operator(c, fn)) return;
    ops[0] = ts_node_named_child(n, 0), ops[1] = ts_node_named_child(n, 2), k = 2;
  } else if (tt_jlk_is(n, "broadcast_call_expression")) {
    fn = ts_node_named_child(n, 0);
    TSNode args = ts_node_named_child(n, 1);
    for (int i = 0; i < n_positional(args) && k < 8; i++) ops[k++] = positional(args, i);
  } else {
    return;
  }
  shape acc = {0};
  TSNode first = {0};
  for (int i = 0; i < k; i++) {
    shape x = expr_shape(c, s, ops[i], 0);
    if (!x.rank) continue;
    if (!acc.rank) {
      acc = x, first = ops[i];
      continue;
    }
    if (x.rank != acc.rank) return; /* a (N,) row against (M, N): jl-row-broadcast's */
    int clash;
    shape r = broadcast(&acc, &x, &clash);
    if (clash >= 0) {
      char s1[128], s2[128];
      char *problem = tt_xasprintf("`%.*s` is %s and `%.*s` %s: dim %d is %.*s against %.*s, and Julia broadcasts "
                                   "only equal dims or 1 (lined up from the first dim)",
                                   (int)(ts_node_end_byte(first) - ts_node_start_byte(first)),
                                   c->text + ts_node_start_byte(first), shape_text(&acc, s1, sizeof s1),
                                   (int)(ts_node_end_byte(ops[i]) - ts_node_start_byte(ops[i])),
                                   c->text + ts_node_start_byte(ops[i]), shape_text(&x, s2, sizeof s2), clash + 1,
                                   (int)acc.d[clash].n, acc.d[clash].t, (int)x.d[clash].n, x.d[clash].t);
      report(c, n, fn, ops[i], problem);
      free(problem);
      return;
    }
    acc = r;
  }
}

static void check_undotted(run_ctx *c, const tt_jlk_scope *s, TSNode n) {
  if (!tt_jlk_is(n, "binary_expression") || ts_node_named_child_count(n) != 3) return;
  TSNode op = ts_node_named_child(n, 1), l = ts_node_named_child(n, 0), r = ts_node_named_child(n, 2);
  bool same = in_set(c, &c->o->same_shape_operators, op), mm = in_set(c, &c->o->matmul_operators, op);
  if (!same && !mm) return;
  shape a = expr_shape(c, s, l, 0), b = expr_shape(c, s, r, 0);
  if (!a.rank || !b.rank) return;
  char s1[128], s2[128];
  size_t ol;
  const char *ot = tt_jlk_text(c->text, op, &ol);
  char *problem = NULL;
  if (same) {
    if (a.rank == b.rank) {
      bool differ = false;
      for (int i = 0; i < a.rank; i++) differ |= dim_differs(a.d[i], b.d[i]);
      if (!differ) return;
    }
    problem = tt_xasprintf("`%.*s` between a %s and a %s tile: undotted, Julia's `%.*s` needs equal shapes; the "
                           "elementwise form is `.%.*s`",
                           (int)ol, ot, shape_text(&a, s1, sizeof s1), shape_text(&b, s2, sizeof s2), (int)ol, ot,
                           (int)ol, ot);
  } else {
    if (a.rank != 2 || b.rank != 2 || !dim_differs(a.d[1], b.d[0])) return;
    problem = tt_xasprintf("`%.*s` of a %s and a %s tile is a matrix product, and their inner dims %.*s and %.*s "
                           "differ; the elementwise product is `.%.*s`",
                           (int)ol, ot, shape_text(&a, s1, sizeof s1), shape_text(&b, s2, sizeof s2), (int)a.d[1].n,
                           a.d[1].t, (int)b.d[0].n, b.d[0].t, (int)ol, ot);
  }
  report(c, n, op, r, problem);
  free(problem);
}

/* Each identifier of an `index` tuple counts tiles of the dim at its position: one
 * variable counting tiles of two different dims (TM here, TN there) on one path is an
 * index tuple or a shape in the other layout's order. Dims of 1 are not compared (a
 * block's one value at index bid). */
static void check_index_dims(run_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *shape_at = tt_strmap_get(&c->o->shape_calls, ct, len), *tile_at = tt_strmap_get(&c->o->store_calls, ct, len);
  if ((!shape_at && !tile_at) || !c->o->index_keyword) return;
  if (c->o->order_keyword && !ts_node_is_null(keyword(c, args, c->o->order_keyword))) return;
  TSNode ix = keyword(c, args, c->o->index_keyword), at = shape_at ? named_arg(c, args, shape_at) : named_arg(c, args, tile_at);
  if (ts_node_is_null(ix) || ts_node_is_null(at)) return;
  shape sh = shape_at ? tuple_shape(c, at) : expr_shape(c, s, at, 0);
  int k = tt_jlk_is(ix, "tuple_expression") ? (int)ts_node_named_child_count(ix) : 1;
  if (!sh.rank || sh.rank != k) return;
  for (int i = 0; i < k; i++) {
    TSNode v = k == 1 && !tt_jlk_is(ix, "tuple_expression") ? ix : ts_node_named_child(ix, (uint32_t)i);
    if (!tt_jlk_is(v, "identifier") || !dim_known(sh.d[i]) || dim_is_one(sh.d[i])) continue;
    size_t vl;
    const char *vt = tt_jlk_text(c->text, v, &vl);
    for (size_t u = 0; u < c->n_uses; u++) {
      size_t ul;
      const char *ut = tt_jlk_text(c->text, c->uses[u].var, &ul);
      if (ul != vl || memcmp(ut, vt, vl) || !dim_differs(c->uses[u].d, sh.d[i]) || apart(c->uses[u].at, n)) continue;
      char s1[128];
      char *problem = tt_xasprintf("`%.*s` counts tiles of %.*s here (position %d of the index, tile %s) and of %.*s "
                                   "in an earlier load or store: the index or the shape is in the other layout's order",
                                   (int)vl, vt, (int)sh.d[i].n, sh.d[i].t, i + 1, shape_text(&sh, s1, sizeof s1),
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
static void check_acc_precision(run_ctx *c, TSNode n, TSNode callee, TSNode args) {
  if (!in_set(c, &c->o->muladd_calls, callee) || n_positional(args) != 3) return;
  TSNode acc = positional(args, 2);
  size_t len;
  const char *t = tt_jlk_text(c->text, acc, &len);
  bool low = low_precision_new(c, acc) || (tt_jlk_is(acc, "identifier") && tt_strmap_get(&c->low, t, len));
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
static void check_reduce_all(run_ctx *c, const tt_jlk_scope *s, TSNode n, TSNode callee, TSNode args) {
  if (!in_set(c, &c->o->reduction_calls, callee) || !ts_node_is_null(keyword(c, args, c->o->dims_keyword)) ||
      n_positional(args) != 1)
    return;
  shape x = expr_shape(c, s, positional(args, 0), 0);
  int big = 0;
  for (int i = 0; i < x.rank; i++) big += dim_known(x.d[i]) && !dim_is_one(x.d[i]);
  if (big < 2) return;
  char s1[128];
  char *problem = tt_xasprintf("reduces the whole %s tile to one value (no `%s=`): cuTile Python's `axis=a` is "
                               "`%s=a + 1` (logical) or `%s=n - a` (flipped), and the reduced dim is kept",
                               shape_text(&x, s1, sizeof s1), c->o->dims_keyword, c->o->dims_keyword, c->o->dims_keyword);
  report(c, n, callee, positional(args, 0), problem);
  free(problem);
}

static void reset(run_ctx *c) {
  tt_strmap_free(&c->vars);
  memset(&c->vars, 0, sizeof c->vars);
  tt_strmap_free(&c->low);
  memset(&c->low, 0, sizeof c->low);
  c->n_uses = 0;
  c->n = 0;
  c->n_seen = 0;
}

/* Preorder over the function, nested definitions skipped (their own scopes). */
static void learn_scope(run_ctx *c, const tt_jlk_scope *s) {
  TSTreeCursor cur = ts_tree_cursor_new(s->root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    bool nested = tt_jlk_is_definition(n) && !ts_node_eq(n, s->root);
    if (!nested) learn(c, s, n);
    if (!nested && ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) goto done;
  }
done:
  ts_tree_cursor_delete(&cur);
}

static void visit(const tt_jlk_scope *s, TSNode n, void *ud) {
  run_ctx *c = ud;
  if (ts_node_eq(n, s->root)) { /* a scope starts: its locals' shapes first */
    reset(c);
    c->in_function = tt_jlk_is_definition(s->root);
    if (c->in_function) learn_scope(c, s);
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
  default: break;
  }
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const ts_opts *o = opts;
  run_ctx c = {.o = o, .text = ctx->tree->src->text, .emit = emit, .ud = ud};
  tt_jlk_each_scope(&o->kinds, ctx->tree->src->text, ts_tree_root_node(ctx->tree->ts), visit, &c);
  reset(&c);
  free(c.known);
  free(c.seen);
  free(c.uses);
}

static const char *const bindings[] = {"fn", "at", "problem", NULL};

const tt_analyzer tt_analyzer_tile_shapes = {"julia-tile-shapes", bindings, compile_opts, free_opts, run, false};
