/* tile_shapes_infer.c — shapes of Julia tile expressions from the rule file's evidence
 * (tile_shapes.h; the analyzer's doc comment in tile_shapes.c lists the evidence). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzers/tile_shapes.h"
#include "util/util.h"

/* ---- shapes ---------------------------------------------------------------------- */




bool tsh_shape_same(const tsh_shape *a, const tsh_shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (tsh_dim_known(a->d[i]) != tsh_dim_known(b->d[i]) || tsh_dim_differs(a->d[i], b->d[i])) return false;
  return true;
}

/* "(TM, TK)" into buf. */
const char *tsh_shape_text(const tsh_shape *s, char *buf, size_t cap) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, cap - k, "(");
  for (int i = 0; i < s->rank && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%.*s%s", i ? ", " : "", s->d[i].t ? (int)s->d[i].n : 1,
                          s->d[i].t ? s->d[i].t : "?", s->rank == 1 && i == 0 ? "," : "");
  if (k < cap) snprintf(buf + k, cap - k, ")");
  return buf;
}

/* ---- one function ------------------------------------------------------------------ */


tsh_dim tsh_node_dim(const tsh_ctx *c, TSNode n) {
  size_t len;
  const char *t = tt_jlk_text(c->text, n, &len);
  tsh_dim d = {t, len};
  return d;
}

bool tsh_in_set(const tsh_ctx *c, const tt_strmap *set, TSNode callee) {
  size_t len;
  const char *t = tt_jlk_text(c->text, callee, &len);
  return set->n && tt_strmap_get(set, t, len) != NULL;
}

/* A tuple `(a, b)` (or one dim `n`) as a shape. */
tsh_shape tsh_tuple_shape(const tsh_ctx *c, TSNode t) {
  tsh_shape s = {0};
  while (tt_jlk_is(t, "parenthesized_expression") && ts_node_named_child_count(t) == 1) t = ts_node_named_child(t, 0);
  if (!tt_jlk_is(t, "tuple_expression")) return s;
  uint32_t k = ts_node_named_child_count(t);
  if (k < 1 || k > MAX_RANK) return s;
  for (uint32_t i = 0; i < k; i++) s.d[i] = tsh_node_dim(c, ts_node_named_child(t, i));
  s.rank = (int)k;
  return s;
}

/* The i-th positional argument (0-based) and the keyword `kw` of an argument list. */
TSNode tsh_positional(TSNode args, int i) {
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    if (tt_jlk_is(a, "named_argument") || tt_jlk_is(a, "comment")) continue;
    if (i-- == 0) return a;
  }
  return (TSNode){0};
}
int tsh_n_positional(TSNode args) {
  int k = 0;
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a))
    k += !tt_jlk_is(a, "named_argument") && !tt_jlk_is(a, "comment");
  return k;
}
TSNode tsh_keyword(const tsh_ctx *c, TSNode args, const char *kw) {
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
TSNode tsh_named_arg(const tsh_ctx *c, TSNode args, const char *where) {
  char *end;
  long pos = strtol(where, &end, 10);
  if (*where && !*end) return pos > 0 ? tsh_positional(args, (int)pos - 1) : (TSNode){0};
  return tsh_keyword(c, args, where);
}

/* An integer literal's value, or -1. */
long tsh_int_lit(const tsh_ctx *c, TSNode n) {
  if (!tt_jlk_is(n, "integer_literal")) return -1;
  size_t len;
  const char *t = tt_jlk_text(c->text, n, &len);
  char buf[24];
  if (len >= sizeof buf) return -1;
  memcpy(buf, t, len);
  buf[len] = '\0';
  return strtol(buf, NULL, 10);
}


/* Julia's (left-aligned) broadcast of a and b; *clash gets the first dim where both
 * are known, differ and neither is 1 (-1: none). Unknown dims stay unknown. */
tsh_shape tsh_broadcast(const tsh_shape *a, const tsh_shape *b, int *clash) {
  *clash = -1;
  tsh_shape r = {a->rank > b->rank ? a->rank : b->rank, {{0}}};
  for (int i = 0; i < r.rank; i++) {
    tsh_dim x = i < a->rank ? a->d[i] : tsh_one, y = i < b->rank ? b->d[i] : tsh_one;
    if (!tsh_dim_known(x) || !tsh_dim_known(y)) r.d[i] = tsh_dim_known(x) && !tsh_dim_is_one(x) ? x : tsh_dim_known(y) && !tsh_dim_is_one(y) ? y : (tsh_dim){0};
    else if (tsh_dim_is_one(x)) r.d[i] = y;
    else if (tsh_dim_is_one(y) || tsh_dim_eq(x, y)) r.d[i] = x;
    else {
      if (*clash < 0) *clash = i;
      r.d[i] = (tsh_dim){0};
    }
  }
  return r;
}

/* Operands of an elementwise operation: the shaped ones broadcast; a scalar operand is
 * neutral; an operand neither shaped nor known scalar makes the result unknown. */
static tsh_shape elementwise(tsh_ctx *c, const tt_jlk_scope *s, TSNode *ops, int k, int depth) {
  tsh_shape r = {0};
  for (int i = 0; i < k; i++) {
    tsh_shape x = tsh_expr_shape(c, s, ops[i], depth + 1);
    if (!x.rank) {
      if (tt_jlk_expr_kind(s, ops[i]) != TT_JLK_SCALAR) return (tsh_shape){0};
      continue;
    }
    int clash;
    r = r.rank ? tsh_broadcast(&r, &x, &clash) : x;
  }
  return r;
}

bool tsh_dotted_operator(const tsh_ctx *c, TSNode op) { return tsh_in_set(c, &c->o->operators, op); }

static tsh_shape call_shape(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, int depth) {
  tsh_shape none = {0};
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  if (!tt_jlk_is(args, "argument_list")) return none;
  const tsh_opts *o = c->o;
  size_t len;
  const char *ct = tt_jlk_text(c->text, callee, &len);
  const char *where = tt_strmap_get(&o->shape_calls, ct, len);
  if (where) return tsh_tuple_shape(c, tsh_named_arg(c, args, where));
  if (tsh_in_set(c, &o->reshape_calls, callee)) return tsh_tuple_shape(c, tsh_positional(args, 1));
  if (tsh_in_set(c, &o->new_calls, callee)) {
    int k = tsh_n_positional(args);
    if (k == 2) {
      tsh_shape t = tsh_tuple_shape(c, tsh_positional(args, 1));
      if (t.rank) return t;
    }
    if (k < 2 || k - 1 > MAX_RANK) return none;
    tsh_shape r = {k - 1, {{0}}};
    for (int i = 1; i < k; i++) {
      TSNode a = tsh_positional(args, i);
      if (tt_jlk_is(a, "tuple_expression")) return none;
      r.d[i - 1] = tsh_node_dim(c, a);
    }
    return r;
  }
  if (tsh_in_set(c, &o->keep_calls, callee)) {
    int k = tsh_n_positional(args);
    return k ? tsh_expr_shape(c, s, tsh_positional(args, k - 1), depth + 1) : none;
  }
  if (tsh_in_set(c, &o->transpose_calls, callee)) {
    tsh_shape x = tsh_expr_shape(c, s, tsh_positional(args, 0), depth + 1);
    if (x.rank != 2) return none;
    tsh_dim t = x.d[0];
    x.d[0] = x.d[1], x.d[1] = t;
    return x;
  }
  if (tsh_in_set(c, &o->permute_calls, callee)) {
    tsh_shape x = tsh_expr_shape(c, s, tsh_positional(args, 0), depth + 1);
    TSNode p = tsh_positional(args, 1);
    if (!x.rank || !tt_jlk_is(p, "tuple_expression") || (int)ts_node_named_child_count(p) != x.rank) return none;
    tsh_shape r = {x.rank, {{0}}};
    for (int i = 0; i < x.rank; i++) {
      long v = tsh_int_lit(c, ts_node_named_child(p, (uint32_t)i));
      if (v < 1 || v > x.rank) return none;
      r.d[i] = x.d[v - 1];
    }
    return r;
  }
  if (tsh_in_set(c, &o->muladd_calls, callee)) {
    tsh_shape acc = tsh_expr_shape(c, s, tsh_positional(args, 2), depth + 1);
    if (acc.rank) return acc;
    tsh_shape a = tsh_expr_shape(c, s, tsh_positional(args, 0), depth + 1), b = tsh_expr_shape(c, s, tsh_positional(args, 1), depth + 1);
    if (a.rank != 2 || b.rank != 2 || tsh_dim_differs(a.d[1], b.d[0])) return none;
    tsh_shape r = {2, {a.d[0], b.d[1]}};
    return r;
  }
  if (tsh_in_set(c, &o->reduction_calls, callee) || tsh_in_set(c, &o->dropdims_calls, callee)) {
    TSNode dn = tsh_keyword(c, args, o->dims_keyword);
    long d = tsh_int_lit(c, dn);
    tsh_shape x = tsh_expr_shape(c, s, tsh_positional(args, 0), depth + 1);
    if (d < 1 || d > x.rank) return none;
    if (tsh_in_set(c, &o->reduction_calls, callee)) {
      x.d[d - 1] = tsh_one;
      return x;
    }
    for (int i = (int)d - 1; i + 1 < x.rank; i++) x.d[i] = x.d[i + 1];
    x.rank--;
    return x;
  }
  if (tsh_in_set(c, &o->cat_calls, callee)) {
    long d = tsh_int_lit(c, tsh_keyword(c, args, o->dims_keyword));
    tsh_shape x = tsh_expr_shape(c, s, tsh_positional(args, 0), depth + 1);
    if (d < 1 || d > x.rank) return none;
    x.d[d - 1] = (tsh_dim){0};
    return x;
  }
  return none;
}

static bool holds(TSNode outer, TSNode inner) {
  return ts_node_start_byte(outer) <= ts_node_start_byte(inner) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

static bool same_name(const tsh_ctx *c, TSNode a, const char *t, size_t len) {
  size_t al;
  const char *at = tt_jlk_text(c->text, a, &al);
  return al == len && !memcmp(at, t, len);
}

static bool tsh_conditional(TSNode x, TSNode lca);
static TSNode common(TSNode a, TSNode b) {
  TSNode lca = ts_node_parent(b);
  while (!ts_node_is_null(lca) && !holds(lca, a)) lca = ts_node_parent(lca);
  return lca;
}

/* Assignment a may not run before use u: it lies in an `if` arm (or ternary branch)
 * that does not hold u. (An assignment before an `if` does reach a use inside it.) */
static bool may_skip(TSNode a, TSNode u) {
  TSNode lca = common(a, u);
  return tt_jlk_is(lca, "if_statement") || tt_jlk_is(lca, "ternary_expression") || tsh_conditional(a, lca);
}

/* The shape of local `t` at its use `u` when its assignments disagree: the reaching
 * assignment's, i.e. the last one before u on u's path (not the assignment holding u:
 * `x = f(x)` reads the earlier x). It holds only where no other assignment could have
 * written x since: every assignment between them (in an `if` arm) and every assignment
 * in a loop around u (a value carried from the last iteration) must have that shape
 * too, where its shape is known. (One whose shape is not known is taken to agree: cuTile.jl
 * compiles loops and ifs to structured ops whose carried and yielded values keep one
 * type, and a tile's shape is part of its type.) Otherwise not known. */
static tsh_shape flow_shape(const tsh_ctx *c, TSNode u, const char *t, size_t len) {
  tsh_shape none = {0};
  long best = -1;
  uint32_t us = ts_node_start_byte(u);
  for (size_t i = 0; i < c->n_asgs; i++) {
    TSNode a = c->asgs[i].node;
    if (!same_name(c, c->asgs[i].name, t, len) || ts_node_start_byte(a) >= us || holds(a, u) || may_skip(a, u)) continue;
    best = (long)i;
  }
  if (best < 0 || !c->asgs[best].sh.rank) return none;
  const struct asg *r = &c->asgs[best];
  for (size_t i = 0; i < c->n_asgs; i++) {
    const struct asg *b = &c->asgs[i];
    if ((long)i == best || !same_name(c, b->name, t, len) || !b->sh.rank || tsh_shape_same(&b->sh, &r->sh)) continue;
    uint32_t bs = ts_node_start_byte(b->node);
    if (bs > ts_node_start_byte(r->node) && bs < us && !holds(b->node, u)) return none; /* another arm's value */
    for (TSNode l = ts_node_parent(u); !ts_node_is_null(l); l = ts_node_parent(l))
      if ((tt_jlk_is(l, "for_statement") || tt_jlk_is(l, "while_statement")) && holds(l, b->node)) return none;
  }
  return r->sh;
}

tsh_shape tsh_expr_shape(tsh_ctx *c, const tt_jlk_scope *s, TSNode n, int depth) {
  tsh_shape none = {0};
  if (ts_node_is_null(n) || depth > MAX_DEPTH) return none;
  while (tt_jlk_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  size_t len;
  if (tt_jlk_is(n, "identifier")) {
    const char *t = tt_jlk_text(c->text, n, &len);
    const char *v = tt_strmap_get(&c->vars, t, len);
    if (v && *v == '-') return flow_shape(c, n, t, len);
    return v ? c->known[strtoul(v, NULL, 10)] : none;
  }
  if (tt_jlk_is(n, "call_expression")) return call_shape(c, s, n, depth);
  if (tt_jlk_is(n, "broadcast_call_expression")) {
    TSNode args = ts_node_named_child(n, 1), ops[8];
    int k = 0;
    for (int i = 0; i < tsh_n_positional(args) && k < 8; i++) ops[k++] = tsh_positional(args, i);
    return elementwise(c, s, ops, k, depth);
  }
  if (tt_jlk_is(n, "binary_expression") && ts_node_named_child_count(n) == 3) {
    TSNode op = ts_node_named_child(n, 1), ops[2] = {ts_node_named_child(n, 0), ts_node_named_child(n, 2)};
    if (tsh_dotted_operator(c, op)) return elementwise(c, s, ops, 2, depth);
    /* undotted: same-shape `+`/`-`, and `*` or `/` by a scalar, keep the tile's shape */
    tsh_shape a = tsh_expr_shape(c, s, ops[0], depth + 1), b = tsh_expr_shape(c, s, ops[1], depth + 1);
    bool sa = !a.rank && tt_jlk_expr_kind(s, ops[0]) == TT_JLK_SCALAR;
    bool sb = !b.rank && tt_jlk_expr_kind(s, ops[1]) == TT_JLK_SCALAR;
    if (tsh_in_set(c, &c->o->same_shape_operators, op)) return a.rank && tsh_shape_same(&a, &b) ? a : none;
    if (tsh_in_set(c, &c->o->matmul_operators, op)) {
      if (a.rank && sb) return a;
      if (b.rank && sa) return b;
      if (a.rank == 2 && b.rank == 2 && !tsh_dim_differs(a.d[1], b.d[0])) return (tsh_shape){2, {a.d[0], b.d[1]}};
    }
    return none;
  }
  return none;
}

/* A new tile (`new_calls`) whose eltype argument is one of `low_precision_types`. */
bool tsh_low_precision_new(const tsh_ctx *c, TSNode n) {
  while (tt_jlk_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
  if (!tt_jlk_is(n, "call_expression") || !c->o->low_precision_types.n) return false;
  TSNode args = ts_node_named_child(n, 1);
  if (!tsh_in_set(c, &c->o->new_calls, ts_node_named_child(n, 0)) || !tt_jlk_is(args, "argument_list")) return false;
  TSNode ty = tsh_positional(args, 0);
  return !ts_node_is_null(ty) && tsh_in_set(c, &c->o->low_precision_types, ty);
}

void tsh_learn(tsh_ctx *c, const tt_jlk_scope *s, TSNode n) {
  if (!tt_jlk_is(n, "assignment") || tt_jlk_is(ts_node_parent(n), "argument_list")) return;
  TSNode lhs = ts_node_named_child(n, 0), rhs = ts_node_named_child(n, ts_node_named_child_count(n) - 1);
  if (!tt_jlk_is(lhs, "identifier")) return;
  size_t len;
  const char *t = tt_jlk_text(c->text, lhs, &len);
  const char *now = tt_strmap_get(&c->vars, t, len);
  tsh_shape sh = tsh_expr_shape(c, s, rhs, 0);
  struct asg ag = {.node = n, .name = lhs, .sh = sh};
  TT_PUSH(c->asgs, c->n_asgs, c->cap_asgs, ag);
  if (now && *now == '-') return;
  char *key = tt_xstrndup(t, len);
  if (tsh_low_precision_new(c, rhs)) tt_strmap_put(&c->low, key, "");
  if (!sh.rank || (now && !tsh_shape_same(&c->known[strtoul(now, NULL, 10)], &sh))) {
    tt_strmap_put(&c->vars, key, "-");
  } else if (!now) {
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", c->n);
    TT_PUSH(c->known, c->n, c->cap, sh);
    tt_strmap_put(&c->vars, key, idx);
  }
  free(key);
}

void tsh_relearn(tsh_ctx *c, const tt_jlk_scope *s) {
  for (size_t i = 0; i < c->n_asgs; i++) {
    TSNode n = c->asgs[i].node;
    c->asgs[i].sh = tsh_expr_shape(c, s, ts_node_named_child(n, ts_node_named_child_count(n) - 1), 0);
  }
}

/* True when a or b is under an `if` or ternary that does not hold the other: a kernel
 * may take an array in either layout under a constant (TileGym's `if TRANSPOSE_B`), and
 * only tiles on one straight path (loops included) must agree. */
static bool tsh_conditional(TSNode x, TSNode lca) {
  for (x = ts_node_parent(x); !ts_node_is_null(x) && !ts_node_eq(x, lca); x = ts_node_parent(x))
    if (tt_jlk_is(x, "if_statement") || tt_jlk_is(x, "ternary_expression")) return true;
  return false;
}
bool tsh_apart(TSNode a, TSNode b) {
  uint32_t as = ts_node_start_byte(a), ae = ts_node_end_byte(a);
  TSNode lca = ts_node_parent(b);
  while (!ts_node_is_null(lca) && !(ts_node_start_byte(lca) <= as && ae <= ts_node_end_byte(lca))) lca = ts_node_parent(lca);
  return tt_jlk_is(lca, "if_statement") || tt_jlk_is(lca, "ternary_expression") || tsh_conditional(a, lca) ||
         tsh_conditional(b, lca);
}
