/* tile_jl.c — the Julia front end of the evaluator core (tt_front, tile_eval.h).
 *
 * Walks tree-sitter-julia nodes and maps them onto the core's operations: values,
 * frames, tt_ev_binop (dotted operators line shapes up on the left, as Julia's
 * broadcasting does), the dialect library's builtins (tile_lib_jl.c) and the core's
 * error unwinding. It knows Julia's syntax and operator rules, not cuTile.jl's API:
 * names it does not bind itself are looked up in the library's Base module.
 *
 * Julia rules kept here: `+`/`-` of two tiles need equal shapes, `*` of two tiles is
 * a matrix product and `/` takes a tile and a number; every other operator on a tile
 * needs its dotted form (`.*`, `.<`). Tuples and ranges are 1-based. `÷` and `%`
 * truncate (div, rem). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parser/lang.h"
#include "tile/tile_eval.h"
#include "tile/tile_jl.h"
#include "util/util.h"

#define MAX_DEPTH 64
#define MAX_TRIPS (1 << 26)

typedef enum flow { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN } flow;

static bool type_is(TSNode n, const char *t) { return !strcmp(ts_node_type(n), t); }

static bool skippable(TSNode n) { return type_is(n, "line_comment") || type_is(n, "block_comment"); }

static TSNode field(TSNode n, const char *name) { return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name)); }

static tt_val eval(tt_interp *I, tt_frame *f, TSNode n);
static flow exec_from(tt_interp *I, tt_frame *f, TSNode first, tt_val *ret);
static tt_val call_function(tt_interp *I, int fi, tt_args *a);

/* ---- names ------------------------------------------------------------------ */

static tt_val lookup_name(tt_interp *I, tt_frame *f, TSNode n, const char *s, uint32_t len) {
  for (tt_frame *x = f; x; x = x->up) {
    tt_binding *b = tt_ev_frame_find(x, s, len);
    if (b) return tt_v_copy(&b->v);
  }
  int fi = tt_ev_func_index(I, s, len);
  if (fi >= 0) return (tt_val){.k = TV_FUNC, .u.fn = fi};
  tt_val out;
  if (I->lib->module_attr(I, TT_JL_MOD_BASE, s, len, &out)) return out;
  tt_ev_fail(I, n, "name '%.*s' is not defined (or not supported by the tile interpreter)", (int)len, s);
}

static tt_val lookup(tt_interp *I, tt_frame *f, TSNode n) {
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  return lookup_name(I, f, n, s, len);
}

/* ---- literals ---------------------------------------------------------------- */

static tt_val eval_number(tt_interp *I, TSNode n, bool is_float) {
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  char buf[64];
  uint32_t o = 0;
  for (uint32_t i = 0; i < len && o + 1 < sizeof buf; i++) {
    if (s[i] == '_') continue;
    /* 1.0f0 is a Float32 literal: f marks the exponent */
    buf[o++] = is_float && s[i] == 'f' ? 'e' : s[i];
  }
  buf[o] = 0;
  if (is_float) return tt_v_float(strtod(buf, NULL));
  return tt_v_int((int64_t)strtoll(buf, NULL, 0));
}

/* ---- operators ----------------------------------------------------------------- */

static const struct { const char *t; tt_binop op; } jl_ops[] = {
  {"+", TT_OP_ADD}, {"-", TT_OP_SUB}, {"*", TT_OP_MUL}, {"/", TT_OP_DIV}, {"÷", TT_OP_TRUNCDIV},
  {"%", TT_OP_TRUNCMOD}, {"^", TT_OP_POW}, {"&", TT_OP_AND}, {"|", TT_OP_OR}, {"⊻", TT_OP_XOR},
  {"<<", TT_OP_SHL}, {">>", TT_OP_SHR}, {"<", TT_OP_LT}, {"<=", TT_OP_LE}, {"==", TT_OP_EQ},
  {"===", TT_OP_EQ}, {"!=", TT_OP_NE}, {"!==", TT_OP_NE}, {">", TT_OP_GT}, {">=", TT_OP_GE},
  {"≤", TT_OP_LE}, {"≥", TT_OP_GE}, {"≠", TT_OP_NE},
};

/* The operator of `s` (a leading '.' marks the broadcasting form); -1 if unknown. */
static int jl_op(const char *s, uint32_t len, tt_binop *op, bool *dotted) {
  *dotted = len > 1 && s[0] == '.' && !(s[1] >= '0' && s[1] <= '9');
  if (*dotted) s++, len--;
  for (size_t i = 0; i < sizeof jl_ops / sizeof *jl_ops; i++)
    if (tt_ev_name_is(s, len, jl_ops[i].t)) {
      *op = jl_ops[i].op;
      return 0;
    }
  return -1;
}

static bool is_tile(const tt_val *v) { return v->k == TV_TILE; }

/* x * y of 3-d tiles (M, K, B) and (K, N, B): cuTile.jl's batched product, batch dims
 * trailing, a batch of 1 broadcasting, the result in the operands' promoted type. The
 * core's matmul takes leading batch dims, so the operands are permuted to (B, M, K)
 * and the product back to (M, N, B). */
static tt_val batched_product(tt_interp *I, TSNode at, const tt_tile_t *x, const tt_tile_t *y) {
  static const int to_lead[3] = {2, 0, 1}, to_trail[3] = {1, 2, 0};
  tt_err e;
  tt_tile_t *px = tt_op_permute(&I->pool, x, to_lead, &e);
  tt_tile_t *py = px ? tt_op_permute(&I->pool, y, to_lead, &e) : NULL;
  tt_tile_t *prod = py ? tt_op_matmul(&I->pool, px, py, NULL, tt_dtype_promote(x->dtype, y->dtype), &e) : NULL;
  tt_tile_t *out = prod ? tt_op_permute(&I->pool, prod, to_trail, &e) : NULL;
  tt_tile_release(px);
  tt_tile_release(py);
  tt_tile_release(prod);
  if (!out) tt_ev_fail_op(I, at, &e);
  I->ops++;
  return tt_v_tile(out);
}

/* a op b under Julia's rules (see the file comment). */
static tt_val jl_binop(tt_interp *I, TSNode on, const char *s, uint32_t len, tt_binop op, bool dotted,
                       const tt_val *a, const tt_val *b) {
  if (dotted || (!is_tile(a) && !is_tile(b))) return tt_ev_binop(I, on, op, false, a, b, TT_ALIGN_LEFT);
  bool both = is_tile(a) && is_tile(b);
  if ((op == TT_OP_ADD || op == TT_OP_SUB) && both) {
    const tt_tile_t *x = a->u.t, *y = b->u.t;
    if (x->ndim != y->ndim || memcmp(x->shape, y->shape, sizeof(int64_t) * (size_t)x->ndim)) {
      char bx[64], by[64];
      tt_ev_fail(I, on, "'%.*s' of tiles of shapes %s and %s: Julia's %.*s needs equal shapes; broadcast with '.%.*s'",
                 (int)len, s, tt_shape_str(x->ndim, x->shape, bx, sizeof bx), tt_shape_str(y->ndim, y->shape, by, sizeof by),
                 (int)len, s, (int)len, s);
    }
    if (x->dtype != y->dtype)
      tt_ev_fail(I, on, "'%.*s' of a Tile{%s} and a Tile{%s}: convert one first", (int)len, s, tt_tile_dtype_name(x->dtype),
                 tt_tile_dtype_name(y->dtype));
    return tt_ev_binop(I, on, op, false, a, b, TT_ALIGN_LEFT);
  }
  if (op == TT_OP_MUL && both) {
    const tt_tile_t *x = a->u.t, *y = b->u.t;
    if (x->ndim == 3 && y->ndim == 3 && x->shape[1] == y->shape[0]) return batched_product(I, on, x, y);
    if (x->ndim < 1 || x->ndim > 2 || y->ndim != 2 || x->shape[x->ndim - 1] != y->shape[0]) {
      char bx[64], by[64];
      tt_ev_fail(I, on, "'*' of tiles of shapes %s and %s: '*' of two tiles is a matrix product; use '.*' for elementwise",
                 tt_shape_str(x->ndim, x->shape, bx, sizeof bx), tt_shape_str(y->ndim, y->shape, by, sizeof by));
    }
    return tt_ev_binop(I, on, op, true, a, b, TT_ALIGN_LEFT);
  }
  if ((op == TT_OP_MUL && !both) || (op == TT_OP_DIV && is_tile(a) && !is_tile(b))) {
    const tt_tile_t *t = is_tile(a) ? a->u.t : b->u.t;
    if (!tt_dtype_is_float(t->dtype))
      tt_ev_fail(I, on, "'%.*s' of a Tile{%s} and a number: cuTile.jl defines it for float tiles; use '.%.*s'", (int)len, s,
                 tt_tile_dtype_name(t->dtype), (int)len, s);
    return tt_ev_binop(I, on, op, false, a, b, TT_ALIGN_LEFT);
  }
  tt_ev_fail(I, on, "'%.*s' of %s and %s: cuTile.jl has no such method; use the broadcasting '.%.*s'", (int)len, s,
             is_tile(a) ? "a tile" : tt_v_kind_name(a->k), is_tile(b) ? "a tile" : tt_v_kind_name(b->k), (int)len, s);
}

static tt_val eval_binary(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode l = ts_node_named_child(n, 0), o = ts_node_named_child(n, 1), r = ts_node_named_child(n, 2);
  uint32_t len;
  const char *s = tt_ev_node_text(I, o, &len);
  if (tt_ev_name_is(s, len, "&&") || tt_ev_name_is(s, len, "||")) {
    tt_val a = eval(I, f, l);
    bool ta = tt_v_truthy(I, l, &a);
    tt_v_drop(&a);
    if (s[0] == '&' ? !ta : ta) return tt_v_bool(ta);
    tt_val b = eval(I, f, r);
    bool tb = tt_v_truthy(I, r, &b);
    tt_v_drop(&b);
    return tt_v_bool(tb);
  }
  tt_binop op;
  bool dotted;
  if (jl_op(s, len, &op, &dotted)) tt_ev_fail(I, o, "operator '%.*s' is not supported by the tile interpreter", (int)len, s);
  tt_val a = eval(I, f, l), b = eval(I, f, r);
  /* integer / is a float division in Julia, as the core's scalar / is */
  tt_val v = jl_binop(I, o, dotted ? s + 1 : s, dotted ? len - 1 : len, op, dotted, &a, &b);
  tt_v_drop(&a);
  tt_v_drop(&b);
  return v;
}

static tt_val eval_unary(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode o = ts_node_named_child(n, 0), x = ts_node_named_child(n, 1);
  uint32_t len;
  const char *s = tt_ev_node_text(I, o, &len);
  if (len > 1 && s[0] == '.') s++, len--;
  tt_val v = eval(I, f, x);
  if (*s == '+') return v;
  if (v.k == TV_INT || v.k == TV_BOOL) {
    if (*s == '-') return tt_v_int(-v.u.i);
    if (*s == '!') return tt_v_bool(!v.u.i);
    if (*s == '~') return tt_v_int(~v.u.i);
  }
  if (v.k == TV_FLOAT && *s == '-') return tt_v_float(-v.u.f);
  if (v.k != TV_TILE || (*s != '-' && *s != '!' && *s != '~'))
    tt_ev_fail(I, o, "unary '%.*s' of a %s", (int)len, s, tt_v_kind_name(v.k));
  tt_err e;
  tt_tile_t *r = tt_op_unary(&I->pool, *s == '-' ? TT_OP_NEG : *s == '!' ? TT_OP_NOT : TT_OP_INVERT, v.u.t, &e);
  tt_v_drop(&v);
  if (!r) tt_ev_fail_op(I, o, &e);
  I->ops++;
  return tt_v_tile(r);
}

/* ---- aggregates -------------------------------------------------------------- */

static tt_val eval_tuple(tt_interp *I, tt_frame *f, TSNode n) {
  uint32_t nn = ts_node_named_child_count(n);
  tt_val t = tt_v_tuple(I, 0);
  t.u.tu->items = tt_xrealloc(t.u.tu->items, sizeof(tt_val) * (nn ? nn : 1));
  for (TSNode c = ts_node_named_child(n, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    if (skippable(c)) continue;
    if (type_is(c, "named_argument")) tt_ev_fail(I, c, "named tuples are not supported in kernels");
    t.u.tu->items[t.u.tu->n] = tt_v_none();
    t.u.tu->items[t.u.tu->n++] = eval(I, f, c);
  }
  return t;
}

/* The parts of a:b or a:s:b, at most 3. tree-sitter-julia nests a:s:b as (a:s):b, so
 * a range_expression first child contributes its own parts (unless parenthesized). */
static int range_parts(tt_interp *I, tt_frame *f, TSNode n, int64_t *part, int np) {
  uint32_t nn = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < nn; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (type_is(c, "operator") || skippable(c)) continue;
    if (np == 3) tt_ev_fail(I, n, "a range has at most a start, a step and a stop");
    if (np == 0 && type_is(c, "range_expression")) {
      np = range_parts(I, f, c, part, np);
      continue;
    }
    tt_val v = eval(I, f, c);
    part[np++] = tt_v_as_int(I, c, &v);
    tt_v_drop(&v);
  }
  return np;
}

/* a:b and a:s:b, materialised (kernels loop over tile counts) */
static tt_val eval_range(tt_interp *I, tt_frame *f, TSNode n) {
  int64_t part[3];
  int np = range_parts(I, f, n, part, 0);
  if (np < 2) tt_ev_fail(I, n, "a range needs a start and a stop");
  int64_t start = part[0], step = np == 3 ? part[1] : 1, stop = part[np - 1];
  if (step == 0) tt_ev_fail(I, n, "range step is zero");
  int64_t cnt = step > 0 ? (stop >= start ? (stop - start) / step + 1 : 0) : (start >= stop ? (start - stop) / -step + 1 : 0);
  if (cnt > MAX_TRIPS) tt_ev_fail(I, n, "a range of %lld values is beyond what the interpreter runs", (long long)cnt);
  tt_val t = tt_v_tuple(I, (int)cnt);
  for (int64_t i = 0; i < cnt; i++) t.u.tu->items[i] = tt_v_int(start + i * step);
  return t;
}

static tt_val eval_index(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode obj = ts_node_named_child(n, 0), ix = ts_node_named_child(n, 1);
  tt_val v = eval(I, f, obj);
  if (v.k != TV_TUPLE) tt_ev_fail(I, n, "indexing a %s is not supported by the tile interpreter (tuples only)", tt_v_kind_name(v.k));
  if (ts_node_named_child_count(ix) != 1) tt_ev_fail(I, ix, "a tuple takes one index");
  tt_val iv = eval(I, f, ts_node_named_child(ix, 0));
  int64_t i = tt_v_as_int(I, ix, &iv);
  if (i < 1 || i > v.u.tu->n) tt_ev_fail(I, ix, "tuple index %lld out of 1:%d (Julia counts from 1)", (long long)i, v.u.tu->n);
  tt_val r = tt_v_copy(&v.u.tu->items[i - 1]);
  tt_v_drop(&v);
  return r;
}

/* ---- calls ------------------------------------------------------------------- */

/* Arguments: positional, then named ones (after ';' or not, as Julia allows both). */
static void collect_args(tt_interp *I, tt_frame *f, TSNode al, tt_args *a, TSNode call) {
  memset(a, 0, sizeof *a);
  a->call = call;
  for (TSNode c = ts_node_named_child(al, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    if (skippable(c)) continue;
    if (type_is(c, "named_argument")) {
      if (a->nkw == TT_MAX_ARGS) tt_ev_fail(I, c, "too many keyword arguments");
      TSNode name = ts_node_named_child(c, 0), val = ts_node_named_child(c, ts_node_named_child_count(c) - 1);
      a->kw[a->nkw].name = tt_ev_node_text(I, name, &a->kw[a->nkw].len);
      a->kw[a->nkw].node = val;
      a->kw[a->nkw].v = tt_v_none();
      a->nkw++;
      a->kw[a->nkw - 1].v = eval(I, f, val);
    } else if (type_is(c, "splat_expression")) {
      tt_ev_fail(I, c, "argument splatting is not supported in kernels");
    } else {
      if (a->n == TT_MAX_ARGS) tt_ev_fail(I, c, "too many arguments");
      a->posnode[a->n] = c;
      a->pos[a->n] = tt_v_none();
      a->n++;
      a->pos[a->n - 1] = eval(I, f, c);
    }
  }
}

static void drop_args(tt_args *a) {
  for (int i = 0; i < a->n; i++) tt_v_drop(&a->pos[i]);
  for (int i = 0; i < a->nkw; i++) tt_v_drop(&a->kw[i].v);
}

/* The callee of f(...) or f.(...): `dot` looks names up among the library's
 * broadcasting functions (exp.(x), ct.rsqrt.(x)). */
static tt_val eval_callee(tt_interp *I, tt_frame *f, TSNode fn, bool dot) {
  if (type_is(fn, "field_expression")) {
    TSNode obj = ts_node_named_child(fn, 0), attr = ts_node_named_child(fn, 1);
    tt_val recv = eval(I, f, obj);
    uint32_t len;
    const char *name = tt_ev_node_text(I, attr, &len);
    tt_val out;
    if (recv.k != TV_MODULE || !I->lib->module_attr(I, dot ? TT_JL_MOD_DOT : recv.u.mod, name, len, &out))
      tt_ev_fail(I, attr, "'%.*s%s' is not part of %s as the interpreter knows it", (int)len, name, dot ? "." : "", I->lib->dialect);
    tt_v_drop(&recv);
    return out;
  }
  if (dot && type_is(fn, "identifier")) {
    uint32_t len;
    const char *name = tt_ev_node_text(I, fn, &len);
    tt_val out;
    if (I->lib->module_attr(I, TT_JL_MOD_DOT, name, len, &out)) return out;
    tt_val v = lookup_name(I, f, fn, name, len);
    if (v.k == TV_DTYPE) return v; /* Float32.(x) */
    tt_ev_fail(I, fn, "broadcasting '%.*s.' is not supported by the tile interpreter", (int)len, name);
  }
  return eval(I, f, fn);
}

static tt_val eval_call(tt_interp *I, tt_frame *f, TSNode n, bool dot) {
  TSNode fn = ts_node_named_child(n, 0), al = ts_node_named_child(n, 1);
  if (ts_node_is_null(al) || !type_is(al, "argument_list")) tt_ev_fail(I, n, "this call form is not supported by the tile interpreter");
  tt_val callee = eval_callee(I, f, fn, dot);
  tt_args a;
  collect_args(I, f, al, &a, n);
  tt_val out = tt_v_none();
  if (callee.k == TV_BUILTIN) out = callee.u.b->fn(I, &a);
  else if (callee.k == TV_FUNC && !dot) out = call_function(I, callee.u.fn, &a);
  else if (callee.k == TV_DTYPE) {
    /* T(x): a number converted (Int32(1), Float32(x), T(-Inf)); T.(tile) converts a tile */
    tt_val conv;
    if (!I->lib->module_attr(I, TT_JL_MOD_BASE, "convert", 7, &conv) || conv.k != TV_BUILTIN || a.n != 1 || a.nkw)
      tt_ev_fail(I, n, "a type conversion takes one argument");
    tt_args ca = {.n = 2, .call = n};
    ca.pos[0] = callee, ca.posnode[0] = fn;
    ca.pos[1] = a.pos[0], ca.posnode[1] = a.posnode[0];
    out = conv.u.b->fn(I, &ca);
  } else tt_ev_fail(I, fn, "a %s is not callable%s", tt_v_kind_name(callee.k), dot ? " with broadcasting" : "");
  I->ops++;
  drop_args(&a);
  tt_v_drop(&callee);
  return out;
}

/* ct.Tile{T} is the type of a tile of T (convert's target): the dtype itself. */
static tt_val eval_parametrized(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode base = ts_node_named_child(n, 0), curly = ts_node_named_child(n, 1);
  uint32_t len;
  const char *s = tt_ev_node_text(I, base, &len);
  bool is_tile = tt_ev_name_is(s, len, "Tile") || (len > 5 && !memcmp(s + len - 5, ".Tile", 5));
  if (!is_tile || ts_node_named_child_count(curly) < 1)
    tt_ev_fail(I, n, "type '%.*s' is not supported here by the tile interpreter", (int)len, s);
  tt_val dt = eval(I, f, ts_node_named_child(curly, 0));
  if (dt.k != TV_DTYPE) tt_ev_fail(I, curly, "Tile{...} takes an element type, got a %s", tt_v_kind_name(dt.k));
  return dt;
}

static tt_val call_named_builtin(tt_interp *I, TSNode at, const char *name, const tt_val *x) {
  tt_val b;
  if (!I->lib->module_attr(I, TT_JL_MOD_BASE, name, (uint32_t)strlen(name), &b) || b.k != TV_BUILTIN)
    tt_ev_fail(I, at, "'%s' is not available", name);
  tt_args a = {.n = 1, .call = at};
  a.pos[0] = *x, a.posnode[0] = at;
  return b.u.b->fn(I, &a);
}

static tt_val eval(tt_interp *I, tt_frame *f, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "identifier")) return lookup(I, f, n);
  if (!strcmp(t, "integer_literal")) return eval_number(I, n, false);
  if (!strcmp(t, "float_literal")) return eval_number(I, n, true);
  if (!strcmp(t, "boolean_literal")) {
    uint32_t len;
    const char *s = tt_ev_node_text(I, n, &len);
    return tt_v_bool(tt_ev_name_is(s, len, "true"));
  }
  if (!strcmp(t, "parenthesized_expression")) {
    TSNode c = ts_node_named_child(n, 0);
    while (!ts_node_is_null(c) && skippable(c)) c = ts_node_next_named_sibling(c);
    return eval(I, f, c);
  }
  if (!strcmp(t, "tuple_expression") || !strcmp(t, "open_tuple")) return eval_tuple(I, f, n);
  if (!strcmp(t, "binary_expression")) return eval_binary(I, f, n);
  if (!strcmp(t, "unary_expression")) return eval_unary(I, f, n);
  if (!strcmp(t, "call_expression")) return eval_call(I, f, n, false);
  if (!strcmp(t, "broadcast_call_expression")) return eval_call(I, f, n, true);
  if (!strcmp(t, "field_expression")) {
    TSNode obj = ts_node_named_child(n, 0), attr = ts_node_named_child(n, 1);
    tt_val recv = eval(I, f, obj);
    uint32_t len;
    const char *name = tt_ev_node_text(I, attr, &len);
    tt_val out;
    bool ok = recv.k == TV_MODULE ? I->lib->module_attr(I, recv.u.mod, name, len, &out)
                                  : I->lib->value_attr(I, attr, &recv, name, len, &out);
    if (!ok) tt_ev_fail(I, attr, "a %s has no field '%.*s' in %s", tt_v_kind_name(recv.k), (int)len, name, I->lib->dialect);
    tt_v_drop(&recv);
    return out;
  }
  if (!strcmp(t, "parametrized_type_expression")) return eval_parametrized(I, f, n);
  if (!strcmp(t, "range_expression")) return eval_range(I, f, n);
  if (!strcmp(t, "index_expression")) return eval_index(I, f, n);
  if (!strcmp(t, "typed_expression")) return eval(I, f, ts_node_named_child(n, 0));
  if (!strcmp(t, "adjoint_expression")) {
    tt_val x = eval(I, f, ts_node_named_child(n, 0));
    tt_val r = call_named_builtin(I, n, "transpose", &x);
    tt_v_drop(&x);
    return r;
  }
  if (!strcmp(t, "operator")) {
    uint32_t ol;
    const char *os = tt_ev_node_text(I, n, &ol);
    if (tt_ev_name_is(os, ol, ":")) return (tt_val){.k = TV_ENUM, .u.en = {TT_JL_ENUM_COLON, 0}};
  }
  if (!strcmp(t, "ternary_expression")) {
    tt_val c = eval(I, f, ts_node_named_child(n, 0));
    bool b = tt_v_truthy(I, n, &c);
    tt_v_drop(&c);
    return eval(I, f, ts_node_named_child(n, b ? 1 : 2));
  }
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  tt_ev_fail(I, n, "%s construct '%s' (%.*s) is not supported by the tile interpreter", I->lib->dialect, t,
             (int)(len > 40 ? 40 : len), s);
}

/* ---- statements -------------------------------------------------------------- */

static void assign(tt_interp *I, tt_frame *f, TSNode target, tt_val v) {
  if (type_is(target, "identifier")) {
    uint32_t len;
    const char *s = tt_ev_node_text(I, target, &len);
    tt_ev_frame_set(I, f, s, len, v);
    return;
  }
  if (type_is(target, "open_tuple") || type_is(target, "tuple_expression") || type_is(target, "parenthesized_expression")) {
    tt_ev_destructure(I, f, target, v, "destructure", assign);
    return;
  }
  tt_v_drop(&v);
  tt_ev_fail(I, target, "assignment to a %s is not supported in kernels (tiles are immutable)", ts_node_type(target));
}

static void exec_assignment(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode left = ts_node_named_child(n, 0), right = ts_node_named_child(n, 2);
  if (ts_node_is_null(right)) tt_ev_fail(I, n, "assignment without a value");
  assign(I, f, left, eval(I, f, right));
}

static void exec_compound(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode left = ts_node_named_child(n, 0), o = ts_node_named_child(n, 1), right = ts_node_named_child(n, 2);
  if (!type_is(left, "identifier")) tt_ev_fail(I, left, "updating a %s is not supported", ts_node_type(left));
  uint32_t len;
  const char *s = tt_ev_node_text(I, o, &len);
  tt_binop op;
  bool dotted;
  if (len < 2 || s[len - 1] != '=' || jl_op(s, len - 1, &op, &dotted))
    tt_ev_fail(I, o, "operator '%.*s' is not supported", (int)len, s);
  tt_val a = lookup(I, f, left), b = eval(I, f, right);
  tt_val v = jl_binop(I, o, dotted ? s + 1 : s, dotted ? len - 2 : len - 1, op, dotted, &a, &b);
  tt_v_drop(&a);
  tt_v_drop(&b);
  assign(I, f, left, v);
}

static bool is_clause(TSNode n) { return type_is(n, "elseif_clause") || type_is(n, "else_clause"); }

/* if/elseif: the condition is the first named child, the body follows it */
static flow exec_if(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  TSNode cond = field(n, "condition");
  if (ts_node_is_null(cond)) cond = ts_node_named_child(n, 0);
  tt_val c = eval(I, f, cond);
  bool b = tt_v_truthy(I, cond, &c);
  tt_v_drop(&c);
  if (b) return exec_from(I, f, ts_node_next_named_sibling(cond), ret);
  for (TSNode alt = ts_node_next_named_sibling(cond); !ts_node_is_null(alt); alt = ts_node_next_named_sibling(alt)) {
    if (type_is(alt, "elseif_clause")) return exec_if(I, f, alt, ret);
    if (type_is(alt, "else_clause")) return exec_from(I, f, ts_node_named_child(alt, 0), ret);
  }
  return FLOW_NEXT;
}

static flow exec_for(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  TSNode bind = ts_node_named_child(n, 0);
  TSNode after = ts_node_next_named_sibling(bind);
  if (!type_is(bind, "for_binding") || (!ts_node_is_null(after) && type_is(after, "for_binding")))
    tt_ev_fail(I, n, "this for loop form is not supported by the tile interpreter");
  TSNode var = ts_node_named_child(bind, 0), iter = ts_node_named_child(bind, ts_node_named_child_count(bind) - 1);
  tt_val it = eval(I, f, iter);
  if (it.k != TV_TUPLE) tt_ev_fail(I, iter, "a for loop over a %s; kernels loop over ranges (1:n)", tt_v_kind_name(it.k));
  flow fl = FLOW_NEXT;
  for (int i = 0; i < it.u.tu->n; i++) {
    assign(I, f, var, tt_v_copy(&it.u.tu->items[i]));
    fl = exec_from(I, f, ts_node_next_named_sibling(bind), ret);
    if (fl == FLOW_BREAK) {
      fl = FLOW_NEXT;
      break;
    }
    if (fl == FLOW_RETURN) break;
    fl = FLOW_NEXT;
  }
  tt_v_drop(&it);
  return fl;
}

static flow exec_while(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  TSNode cond = field(n, "condition");
  if (ts_node_is_null(cond)) cond = ts_node_named_child(n, 0);
  for (int64_t trips = 0;; trips++) {
    if (trips > MAX_TRIPS) tt_ev_fail_run(I, n, "while loop ran %d trips without ending", MAX_TRIPS);
    tt_val c = eval(I, f, cond);
    bool b = tt_v_truthy(I, cond, &c);
    tt_v_drop(&c);
    if (!b) return FLOW_NEXT;
    flow fl = exec_from(I, f, ts_node_next_named_sibling(cond), ret);
    if (fl == FLOW_BREAK) return FLOW_NEXT;
    if (fl == FLOW_RETURN) return fl;
  }
}

/* Macros a kernel may carry that change nothing the interpreter computes. */
static bool ignorable_macro(tt_interp *I, TSNode n) {
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  static const char *const ok[] = {"ct.@compiler_options", "@compiler_options", "@inbounds", NULL};
  for (int i = 0; ok[i]; i++) {
    size_t k = strlen(ok[i]);
    if (len >= k && !memcmp(s, ok[i], k)) return true;
  }
  return false;
}

static flow exec_stmt(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "assignment")) {
    exec_assignment(I, f, n);
    return FLOW_NEXT;
  }
  if (!strcmp(t, "compound_assignment_expression")) {
    exec_compound(I, f, n);
    return FLOW_NEXT;
  }
  if (!strcmp(t, "return_statement")) {
    TSNode v = ts_node_named_child(n, 0);
    *ret = ts_node_is_null(v) ? tt_v_none() : eval(I, f, v);
    return FLOW_RETURN;
  }
  if (!strcmp(t, "if_statement")) return exec_if(I, f, n, ret);
  if (!strcmp(t, "for_statement")) return exec_for(I, f, n, ret);
  if (!strcmp(t, "while_statement")) return exec_while(I, f, n, ret);
  if (!strcmp(t, "break_statement")) return FLOW_BREAK;
  if (!strcmp(t, "continue_statement")) return FLOW_CONTINUE;
  if (!strcmp(t, "macrocall_expression")) {
    if (ignorable_macro(I, n)) return FLOW_NEXT;
    tt_ev_fail(I, n, "this macro is not supported by the tile interpreter");
  }
  if (!strcmp(t, "function_definition")) tt_ev_fail(I, n, "nested functions are not supported in kernels");
  tt_val v = eval(I, f, n);
  tt_v_drop(&v);
  return FLOW_NEXT;
}

/* Runs `first` and its named siblings up to an elseif/else clause. */
static flow exec_from(tt_interp *I, tt_frame *f, TSNode first, tt_val *ret) {
  for (TSNode st = first; !ts_node_is_null(st); st = ts_node_next_named_sibling(st)) {
    if (skippable(st)) continue;
    if (is_clause(st)) break;
    flow fl = exec_stmt(I, f, st, ret);
    if (fl != FLOW_NEXT) return fl;
  }
  return FLOW_NEXT;
}

/* ---- functions ----------------------------------------------------------------- */

/* function f(params) where {T} ... end, or f(params) = expr: the call node of the
 * signature, and the where clause's curly node (or null). */
static TSNode signature_call(TSNode def, TSNode *where) {
  *where = (TSNode){0};
  TSNode sig = ts_node_named_child(def, 0); /* the signature, or the call of f(x) = ... */
  if (type_is(sig, "signature")) sig = ts_node_named_child(sig, 0);
  while (type_is(sig, "where_expression") || type_is(sig, "typed_expression")) {
    if (type_is(sig, "where_expression")) *where = ts_node_named_child(sig, 1);
    sig = ts_node_named_child(sig, 0);
  }
  return sig;
}

static int jl_params(tt_interp *I, TSNode def, TSNode *names, TSNode *defaults, int max) {
  TSNode where, call = signature_call(def, &where);
  TSNode al = ts_node_named_child(call, 1);
  int n = 0;
  for (TSNode p = ts_node_named_child(al, 0); !ts_node_is_null(p) && n < max; p = ts_node_next_named_sibling(p)) {
    if (skippable(p)) continue;
    TSNode name = p, dflt = {0};
    if (type_is(p, "typed_expression")) name = ts_node_named_child(p, 0);
    else if (type_is(p, "unary_typed_expression")) {
      /* ::Val{N}: the argument's value is bound to N (a compile-time constant) */
      TSNode ty = ts_node_named_child(p, 0);
      uint32_t len;
      const char *s = type_is(ty, "parametrized_type_expression") ? tt_ev_node_text(I, ts_node_named_child(ty, 0), &len) : NULL;
      if (s && (tt_ev_name_is(s, len, "Val") || tt_ev_name_is(s, len, "Base.Val"))) name = ts_node_named_child(ts_node_named_child(ty, 1), 0);
    } else if (type_is(p, "named_argument") || type_is(p, "optional_parameter")) {
      name = ts_node_named_child(p, 0);
      dflt = ts_node_named_child(p, ts_node_named_child_count(p) - 1);
      if (type_is(name, "typed_expression")) name = ts_node_named_child(name, 0);
    }
    if (!type_is(name, "identifier")) {
      names[n] = p;
      defaults[n++] = (TSNode){0};
      return -n;
    }
    names[n] = name;
    defaults[n++] = dflt;
  }
  return n;
}

static bool in_where(tt_interp *I, TSNode where, const char *s, uint32_t len) {
  if (ts_node_is_null(where)) return false;
  for (TSNode c = ts_node_named_child(where, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    uint32_t l;
    const char *t = tt_ev_node_text(I, type_is(c, "identifier") ? c : ts_node_named_child(c, 0), &l);
    if (l == len && !memcmp(s, t, l)) return true;
  }
  return false;
}

/* A parameter `x::ct.TileArray{T,N}` takes an array of rank N (T a dtype, or a where
 * parameter that binds to the array's dtype); any other annotation takes a number.
 * A mismatch is the signature's error, at the parameter. */
static void check_param(tt_interp *I, tt_frame *f, TSNode p, TSNode where, const tt_val *v) {
  if (!type_is(p, "typed_expression")) return;
  TSNode ty = ts_node_named_child(p, 1);
  uint32_t tl;
  const char *ts = tt_ev_node_text(I, ty, &tl);
  bool want_array = strstr(ts, "TileArray") != NULL && (size_t)(strstr(ts, "TileArray") - ts) < tl;
  uint32_t nl;
  const char *ns = tt_ev_node_text(I, ts_node_named_child(p, 0), &nl);
  if (want_array != (v->k == TV_ARRAY))
    tt_ev_fail(I, p, "signature mismatch: parameter '%.*s' is declared %.*s but the spec gives %s", (int)nl, ns, (int)tl, ts,
               v->k == TV_ARRAY ? "an array" : "a number");
  if (!want_array || !type_is(ty, "parametrized_type_expression")) return;
  const tt_tile_arg *arr = &I->args[v->u.arr];
  TSNode curly = ts_node_named_child(ty, 1);
  TSNode et = ts_node_named_child(curly, 0), rank = ts_node_named_child(curly, 1);
  if (!ts_node_is_null(rank) && type_is(rank, "integer_literal")) {
    tt_val r = eval_number(I, rank, false);
    if (r.u.i != arr->ndim)
      tt_ev_fail(I, p, "signature mismatch: '%.*s' is declared with rank %lld; the spec's array '%s' has rank %d", (int)nl, ns,
                 (long long)r.u.i, arr->name, arr->ndim);
  }
  if (ts_node_is_null(et) || !type_is(et, "identifier")) return;
  uint32_t el;
  const char *es = tt_ev_node_text(I, et, &el);
  tt_binding *b = tt_ev_frame_find(f, es, el);
  if (in_where(I, where, es, el) && !b) {
    tt_ev_frame_set(I, f, es, el, tt_v_dtype(arr->dtype));
    return;
  }
  tt_val dt = b ? tt_v_copy(&b->v) : lookup_name(I, f, et, es, el);
  if (dt.k == TV_DTYPE && dt.u.dt != arr->dtype)
    tt_ev_fail(I, p, "signature mismatch: '%.*s' is declared TileArray{%.*s}; the spec's array '%s' holds %s (%s)", (int)nl, ns,
               (int)el, es, arr->name, tt_tile_dtype_name(arr->dtype), b ? "the same T as another parameter" : "a different type");
  tt_v_drop(&dt);
}

static void jl_run_body(tt_interp *I, tt_frame *f, int fi, tt_val *ret) {
  const tt_func *fn = &I->funcs[fi];
  TSNode where, call = signature_call(fn->def, &where);
  TSNode al = ts_node_named_child(call, 1);
  for (TSNode p = ts_node_named_child(al, 0); !ts_node_is_null(p); p = ts_node_next_named_sibling(p)) {
    if (!type_is(p, "typed_expression")) continue;
    uint32_t len;
    const char *s = tt_ev_node_text(I, ts_node_named_child(p, 0), &len);
    tt_binding *b = tt_ev_frame_find(f, s, len);
    if (b) check_param(I, f, p, where, &b->v);
  }
  if (type_is(fn->def, "assignment")) {
    *ret = eval(I, f, ts_node_named_child(fn->def, 2));
    return;
  }
  TSNode sig = ts_node_named_child(fn->def, 0);
  exec_from(I, f, ts_node_next_named_sibling(sig), ret);
}

/* A helper function called from a kernel: positional arguments, then named ones. */
static tt_val call_function(tt_interp *I, int fi, tt_args *a) {
  const tt_func *fn = &I->funcs[fi];
  if (++I->depth > MAX_DEPTH) tt_ev_fail(I, a->call, "calls nest deeper than %d", MAX_DEPTH);
  TSNode names[TT_MAX_ARGS + 4], dflts[TT_MAX_ARGS + 4];
  int np = jl_params(I, fn->def, names, dflts, TT_MAX_ARGS + 4);
  if (np < 0) tt_ev_fail(I, names[-np - 1], "this parameter form is not supported by the tile interpreter");
  if (a->n > np) tt_ev_fail(I, a->call, "%.*s() takes %d arguments, %d given", (int)fn->name_len, fn->name, np, a->n);
  tt_frame fr = {.up = &I->globals};
  tt_val ret = tt_v_none();
  jmp_buf *outer = I->on_error, here;
  if (setjmp(here)) {
    tt_ev_frame_clear(&fr);
    I->on_error = outer;
    I->depth--;
    longjmp(*outer, 1);
  }
  I->on_error = &here;
  for (int i = 0; i < np; i++) {
    uint32_t len;
    const char *s = tt_ev_node_text(I, names[i], &len);
    const tt_val *v = i < a->n ? &a->pos[i] : NULL;
    for (int k = 0; k < a->nkw && !v; k++)
      if (a->kw[k].len == len && !memcmp(a->kw[k].name, s, len)) v = &a->kw[k].v;
    if (v) tt_ev_frame_set(I, &fr, s, len, tt_v_copy(v));
    else if (!ts_node_is_null(dflts[i])) tt_ev_frame_set(I, &fr, s, len, eval(I, &I->globals, dflts[i]));
    else tt_ev_fail(I, a->call, "%.*s() is missing argument '%.*s'", (int)fn->name_len, fn->name, (int)len, s);
  }
  jl_run_body(I, &fr, fi, &ret);
  I->on_error = outer;
  tt_ev_frame_clear(&fr);
  I->depth--;
  return ret;
}

/* ---- the top level ------------------------------------------------------------- */

/* import cuTile as ct | using cuTile: cuTile | import cuTile */
static void bind_import(tt_interp *I, TSNode stmt) {
  for (TSNode c = ts_node_named_child(stmt, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    TSNode mod = c, alias = c;
    if (type_is(c, "import_alias")) {
      mod = ts_node_named_child(c, 0);
      alias = ts_node_named_child(c, 1);
    } else if (type_is(c, "selected_import")) {
      mod = alias = ts_node_named_child(c, 0);
    } else if (!type_is(c, "identifier")) {
      continue;
    }
    uint32_t ml, al;
    const char *ms = tt_ev_node_text(I, mod, &ml), *as = tt_ev_node_text(I, alias, &al);
    int m = I->lib->module_for_import(ms, ml);
    if (m >= 0) tt_ev_frame_set(I, &I->globals, as, al, (tt_val){.k = TV_MODULE, .u.mod = m});
  }
}

static void jl_scan(tt_interp *I, TSNode root) {
  for (TSNode s = ts_node_named_child(root, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
    if (type_is(s, "import_statement") || type_is(s, "using_statement")) bind_import(I, s);
  for (TSNode top = ts_node_named_child(root, 0); !ts_node_is_null(top); top = ts_node_next_named_sibling(top)) {
    TSNode s = top;
    /* @inline function ... end: the macro changes nothing the interpreter computes */
    if (type_is(s, "macrocall_expression")) {
      uint32_t ml;
      const char *ms = tt_ev_node_text(I, ts_node_named_child(s, 0), &ml);
      TSNode args = ts_node_named_child(s, 1), inner = ts_node_named_child(args, 0);
      if ((tt_ev_name_is(ms, ml, "@inline") || tt_ev_name_is(ms, ml, "@noinline")) && !ts_node_is_null(inner) &&
          type_is(inner, "function_definition"))
        s = inner;
    }
    if (type_is(s, "function_definition")) {
      TSNode where, call = signature_call(s, &where);
      if (!type_is(call, "call_expression")) tt_ev_fail(I, s, "this function signature is not supported by the tile interpreter");
      /* any function may be launched in cuTile.jl (no decorator marks kernels) */
      tt_ev_add_func(I, s, ts_node_named_child(call, 0), true);
    } else if (type_is(s, "assignment") && type_is(ts_node_named_child(s, 0), "call_expression")) {
      tt_ev_add_func(I, s, ts_node_named_child(ts_node_named_child(s, 0), 0), false);
    } else if (type_is(s, "const_statement") || type_is(s, "assignment")) {
      /* module constants; one that needs the host fails later at its use */
      jmp_buf *outer = I->on_error, here;
      I->on_error = &here;
      TSNode a = type_is(s, "const_statement") ? ts_node_named_child(s, 0) : s;
      if (!setjmp(here) && type_is(a, "assignment")) exec_assignment(I, &I->globals, a);
      I->on_error = outer;
      free(I->err);
      I->err = NULL;
    }
  }
  if (I->pool.live) tt_ev_fail(I, root, "module-level tiles are not supported; make them inside the kernel");
}

const tt_front tt_front_julia = {
  .language = "Julia",
  .lang = TT_LANG_JULIA,
  .scan = jl_scan,
  .params = jl_params,
  .run_body = jl_run_body,
};
