/* tile_eval.c — the evaluator core for Python-syntax kernel files (tile_eval.h).
 *
 * Invariants: every tile and tuple created during a run is on the interpreter's
 * lists until its last reference goes, so an error anywhere (tt_ev_fail longjmps to
 * tt_ev_run) loses nothing; frames are malloc'd per call and recorded on a stack
 * so the unwinding frees them too. */
#include "tile/tile_eval.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/lang.h"
#include "util/util.h"

#define MAX_DEPTH 64
#define MAX_LOOP_TRIPS (1 << 26)

/* Field ids of the Python grammar, looked up once: a by-name lookup compares strings
 * on every call, and the evaluator asks for fields on every node it visits. */
typedef enum field {
  F_ALIAS, F_ARGUMENT, F_ARGUMENTS, F_ATTRIBUTE, F_BODY, F_CONDITION, F_CONSEQUENCE, F_DEFINITION, F_FUNCTION, F_LEFT, F_MODULE_NAME, F_NAME, F_OBJECT, F_OPERATOR, F_PARAMETERS, F_RIGHT, F_TYPE, F_VALUE,
  F_COUNT
} field;
static const char *const field_names[F_COUNT] = {"alias", "argument", "arguments", "attribute", "body", "condition", "consequence", "definition", "function", "left", "module_name", "name", "object", "operator", "parameters", "right", "type", "value"};
_Static_assert(F_COUNT <= TT_EV_MAX_FIELDS, "tt_interp.field_ids is too small");

static void init_fields(tt_interp *I) {
  const TSLanguage *py = tt_lang_grammar(TT_LANG_PYTHON);
  for (int i = 0; i < F_COUNT; i++)
    I->field_ids[i] = ts_language_field_id_for_name(py, field_names[i], (uint32_t)strlen(field_names[i]));
}

#define FIELD(node, f) ts_node_child_by_field_id((node), I->field_ids[f])

typedef enum flow { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN } flow;

/* ---- errors ---------------------------------------------------------------- */

static _Noreturn void fail_at(tt_interp *I, TSNode node, bool runtime, const char *fmt, va_list ap) {
  char *msg = tt_xvasprintf(fmt, ap);
  I->err_runtime = runtime;
  TSPoint p = ts_node_is_null(node) ? (TSPoint){0, 0} : ts_node_start_point(node);
  free(I->err);
  I->err = tt_xasprintf("%s:%u:%u: %s", I->path, p.row + 1, p.column + 1, msg);
  free(msg);
  longjmp(*I->on_error, 1);
}

void tt_ev_fail(tt_interp *I, TSNode node, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fail_at(I, node, false, fmt, ap);
}

void tt_ev_fail_run(tt_interp *I, TSNode node, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fail_at(I, node, true, fmt, ap);
}

void tt_ev_fail_op(tt_interp *I, TSNode node, const tt_err *e) { tt_ev_fail(I, node, "%s", e->msg); }

/* ---- values ---------------------------------------------------------------- */

tt_val tt_v_none(void) { return (tt_val){.k = TV_NONE}; }
tt_val tt_v_int(int64_t i) { return (tt_val){.k = TV_INT, .u.i = i}; }
tt_val tt_v_bool(bool b) { return (tt_val){.k = TV_BOOL, .u.i = b}; }
tt_val tt_v_float(double f) { return (tt_val){.k = TV_FLOAT, .u.f = f}; }
tt_val tt_v_tile(tt_tile_t *t) { return (tt_val){.k = TV_TILE, .u.t = t}; }
tt_val tt_v_dtype(tt_tile_dtype dt) { return (tt_val){.k = TV_DTYPE, .u.dt = dt}; }

tt_val tt_v_tuple(tt_interp *I, int n) {
  tt_tuple *t = tt_xcalloc(1, sizeof *t);
  tt_val *items = tt_xcalloc((size_t)(n ? n : 1), sizeof *items);
  t->refs = 1;
  t->n = n;
  t->items = items;
  t->owner = I;
  t->next = I->tuples;
  if (I->tuples) I->tuples->prev = t;
  I->tuples = t;
  return (tt_val){.k = TV_TUPLE, .u.tu = t};
}

static void tuple_unlink_free(tt_tuple *t) {
  tt_interp *I = t->owner;
  if (t->prev) t->prev->next = t->next;
  else I->tuples = t->next;
  if (t->next) t->next->prev = t->prev;
  free(t->items);
  free(t);
}

static bool holds_tuple(tt_vk k) { return k == TV_TUPLE || k == TV_LAUNCH || k == TV_DICT || k == TV_BLOCKPTR; }

tt_val tt_v_copy(const tt_val *v) {
  if (v->k == TV_TILE) tt_tile_ref(v->u.t);
  if (holds_tuple(v->k)) v->u.tu->refs++;
  return *v;
}

void tt_v_drop(tt_val *v) {
  if (v->k == TV_TILE) tt_tile_release(v->u.t);
  if (holds_tuple(v->k) && --v->u.tu->refs == 0) {
    tt_tuple *t = v->u.tu;
    for (int i = 0; i < t->n; i++) tt_v_drop(&t->items[i]);
    tuple_unlink_free(t);
  }
  v->k = TV_NONE;
}

const char *tt_v_kind_name(tt_vk k) {
  static const char *const names[] = {"None", "bool", "int", "float", "str", "tuple", "tile",
                                      "array", "dtype", "enum", "function", "builtin", "module", "launch",
                                      "lambda", "dict", "block pointer"};
  return names[k];
}

int64_t tt_v_as_int(tt_interp *I, TSNode node, const tt_val *v) {
  if (v->k == TV_INT || v->k == TV_BOOL) return v->u.i;
  if (v->k == TV_TILE && v->u.t->n == 1 && v->u.t->ndim == 0 && tt_dtype_is_int(v->u.t->dtype))
    return v->u.t->data.i[0];
  tt_ev_fail(I, node, "expected an integer, got a %s", tt_v_kind_name(v->k));
}

double tt_v_as_float(tt_interp *I, TSNode node, const tt_val *v) {
  if (v->k == TV_FLOAT) return v->u.f;
  if (v->k == TV_INT || v->k == TV_BOOL) return (double)v->u.i;
  if (v->k == TV_TILE && v->u.t->n == 1 && v->u.t->ndim == 0) return tt_tile_get_f(v->u.t, 0);
  tt_ev_fail(I, node, "expected a number, got a %s", tt_v_kind_name(v->k));
}

bool tt_v_truthy(tt_interp *I, TSNode node, const tt_val *v) {
  switch (v->k) {
    case TV_NONE: return false;
    case TV_BOOL:
    case TV_INT: return v->u.i != 0;
    case TV_FLOAT: return v->u.f != 0.0;
    case TV_TUPLE: return v->u.tu->n != 0;
    case TV_TILE:
      if (v->u.t->n == 1) return tt_tile_get_f(v->u.t, 0) != 0.0;
      tt_ev_fail(I, node, "the truth value of a tile with more than one element is ambiguous");
    default: return true;
  }
}

tt_tile_t *tt_v_as_tile(tt_interp *I, TSNode node, const tt_val *v, tt_tile_dtype like) {
  tt_err e;
  tt_tile_t *t = NULL;
  switch (v->k) {
    case TV_TILE: return tt_tile_ref(v->u.t);
    case TV_BOOL:
    case TV_INT: {
      tt_tile_dtype dt = like != TT_TILE_BOOL ? like : v->k == TV_BOOL ? TT_TILE_BOOL : TT_TILE_I32;
      t = tt_op_full(&I->pool, dt, 0, NULL, (double)v->u.i, v->u.i, &e);
      break;
    }
    case TV_FLOAT: {
      tt_tile_dtype dt = tt_dtype_is_float(like) ? like : TT_TILE_F32;
      t = tt_op_full(&I->pool, dt, 0, NULL, v->u.f, isfinite(v->u.f) ? (int64_t)v->u.f : 0, &e);
      break;
    }
    default: tt_ev_fail(I, node, "expected a tile or a number, got a %s", tt_v_kind_name(v->k));
  }
  if (!t) tt_ev_fail_op(I, node, &e);
  return t;
}

int tt_v_as_shape(tt_interp *I, TSNode node, const tt_val *v, int64_t *shape) {
  if (v->k == TV_INT) {
    shape[0] = v->u.i;
    return 1;
  }
  if (v->k != TV_TUPLE) tt_ev_fail(I, node, "expected a shape (an int or a tuple of ints), got a %s", tt_v_kind_name(v->k));
  if (v->u.tu->n > TT_TILE_MAX_DIMS) tt_ev_fail(I, node, "shapes of more than %d dims are not supported", TT_TILE_MAX_DIMS);
  for (int i = 0; i < v->u.tu->n; i++) shape[i] = tt_v_as_int(I, node, &v->u.tu->items[i]);
  return v->u.tu->n;
}

bool tt_ev_name_is(const char *s, uint32_t len, const char *name) {
  return strlen(name) == len && !memcmp(s, name, len);
}

const tt_val *tt_arg(tt_args *a, int pos, const char *kw) {
  if (kw)
    for (int i = 0; i < a->nkw; i++)
      if (tt_ev_name_is(a->kw[i].name, a->kw[i].len, kw)) return &a->kw[i].v;
  if (pos >= 0 && pos < a->n) return &a->pos[pos];
  return NULL;
}

TSNode tt_arg_node(tt_args *a, int pos, const char *kw) {
  if (kw)
    for (int i = 0; i < a->nkw; i++)
      if (tt_ev_name_is(a->kw[i].name, a->kw[i].len, kw)) return a->kw[i].node;
  if (pos >= 0 && pos < a->n) return a->posnode[pos];
  return a->call;
}

void tt_args_check(tt_interp *I, tt_args *a, const char *fn, const char *const *allowed, int maxpos) {
  if (a->n > maxpos) tt_ev_fail(I, a->posnode[maxpos], "%s takes at most %d positional arguments", fn, maxpos);
  for (int i = 0; i < a->nkw; i++) {
    bool ok = false;
    for (const char *const *k = allowed; k && *k; k++) ok |= tt_ev_name_is(a->kw[i].name, a->kw[i].len, *k);
    if (!ok) tt_ev_fail(I, a->kw[i].node, "%s has no keyword argument '%.*s'", fn, (int)a->kw[i].len, a->kw[i].name);
  }
}

/* ---- elementwise calls shared by the dialects -------------------------------- */

/* One tile operand through `op`; `arity` is the message when it is missing. */
tt_val tt_ev_unary_call(tt_interp *I, tt_args *a, tt_unop op, const char *arity) {
  if (a->n < 1) tt_ev_fail(I, a->call, "%s", arity);
  tt_tile_t *t = tt_v_as_tile(I, a->posnode[0], &a->pos[0], TT_TILE_F32);
  tt_err e;
  tt_tile_t *r = tt_op_unary(&I->pool, op, t, &e);
  tt_tile_release(t);
  if (!r) tt_ev_fail_op(I, a->call, &e);
  return tt_v_tile(r);
}

/* The dtype a number operand takes: the other operand's, when that is a tile. */
static tt_tile_dtype other_dtype(const tt_val *v) { return v->k == TV_TILE ? v->u.t->dtype : TT_TILE_F32; }

static bool is_int_number(const tt_val *v) { return v->k == TV_INT || v->k == TV_BOOL; }

tt_val tt_ev_binary_call(tt_interp *I, tt_args *a, tt_binop op) {
  if (a->n != 2) tt_ev_fail(I, a->call, "an elementwise function takes two operands");
  /* two integers (ct.minimum(n - first, GROUP)) stay integers: an int32 0-d tile, which
   * indexes as a number does, as in cuTile Python (TileGym's persistent swizzles) */
  bool ints = is_int_number(&a->pos[0]) && is_int_number(&a->pos[1]);
  tt_tile_t *x = tt_v_as_tile(I, a->posnode[0], &a->pos[0], ints ? TT_TILE_I32 : other_dtype(&a->pos[1]));
  tt_tile_t *y = tt_v_as_tile(I, a->posnode[1], &a->pos[1], ints ? TT_TILE_I32 : other_dtype(&a->pos[0]));
  tt_err e;
  tt_tile_t *r = tt_op_binary(&I->pool, op, x, y, TT_ALIGN_RIGHT, &e);
  tt_tile_release(x);
  tt_tile_release(y);
  if (!r) tt_ev_fail_op(I, a->call, &e);
  return tt_v_tile(r);
}

tt_val tt_ev_where_call(tt_interp *I, tt_args *a, const char *fn) {
  if (a->n != 3) tt_ev_fail(I, a->call, "%s() takes a condition and two values", fn);
  tt_tile_t *c = tt_v_as_tile(I, a->posnode[0], &a->pos[0], TT_TILE_BOOL);
  tt_tile_t *x = tt_v_as_tile(I, a->posnode[1], &a->pos[1], other_dtype(&a->pos[2]));
  tt_tile_t *y = tt_v_as_tile(I, a->posnode[2], &a->pos[2], other_dtype(&a->pos[1]));
  tt_err e;
  tt_tile_t *r = tt_op_where(&I->pool, c, x, y, TT_ALIGN_RIGHT, &e);
  tt_tile_release(c);
  tt_tile_release(x);
  tt_tile_release(y);
  if (!r) tt_ev_fail_op(I, a->call, &e);
  return tt_v_tile(r);
}

/* ---- names and frames ------------------------------------------------------ */

const char *tt_ev_node_text(tt_interp *I, TSNode n, uint32_t *len) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  *len = e - s;
  return I->text + s;
}

static bool type_is(TSNode n, const char *t) { return !strcmp(ts_node_type(n), t); }

tt_binding *tt_ev_frame_find(tt_frame *f, const char *name, uint32_t len) {
  for (int i = f->n - 1; i >= 0; i--)
    if (f->vars[i].len == len && !memcmp(f->vars[i].name, name, len)) return &f->vars[i];
  return NULL;
}

/* Binds name to v in f (taking v). */
void tt_ev_frame_set(tt_interp *I, tt_frame *f, const char *name, uint32_t len, tt_val v) {
  tt_binding *b = tt_ev_frame_find(f, name, len);
  if (b) {
    tt_v_drop(&b->v);
    b->v = v;
    return;
  }
  if (f->n == f->cap) {
    f->cap = f->cap ? f->cap * 2 : 16;
    f->vars = tt_xrealloc(f->vars, sizeof *f->vars * (size_t)f->cap);
  }
  f->vars[f->n++] = (tt_binding){name, len, v};
}

void tt_ev_frame_clear(tt_frame *f) {
  for (int i = 0; i < f->n; i++) tt_v_drop(&f->vars[i].v);
  free(f->vars);
  f->vars = NULL;
  f->n = f->cap = 0;
}

/* not inlined: inside tt_ev_run's setjmp frame GCC takes its loop counter for a
 * variable live across the longjmp (-Wclobbered) */
__attribute__((noinline)) int tt_ev_func_index(tt_interp *I, const char *name, uint32_t len) {
  for (int i = 0; i < I->nfuncs; i++)
    if (I->funcs[i].name_len == len && !memcmp(I->funcs[i].name, name, len)) return i;
  return -1;
}

/* ---- Python's own builtins (shared by every dialect) ------------------------- */

static tt_val py_minmax(tt_interp *I, tt_args *a, bool is_max) {
  if (a->n < 2) tt_ev_fail(I, a->call, "%s() of fewer than two numbers is not supported in a kernel", is_max ? "max" : "min");
  tt_val best = tt_v_copy(&a->pos[0]);
  for (int i = 1; i < a->n; i++) {
    const tt_val *v = &a->pos[i];
    if (v->k == TV_TILE || best.k == TV_TILE)
      tt_ev_fail(I, a->posnode[i], "Python's %s() on tiles; use the library's elementwise %s", is_max ? "max" : "min", is_max ? "maximum" : "minimum");
    double x = tt_v_as_float(I, a->posnode[i], v), b = tt_v_as_float(I, a->posnode[0], &best);
    if (is_max ? x > b : x < b) best = *v;
  }
  return best;
}
static tt_val py_min(tt_interp *I, tt_args *a) { return py_minmax(I, a, false); }
static tt_val py_max(tt_interp *I, tt_args *a) { return py_minmax(I, a, true); }

static tt_val py_int(tt_interp *I, tt_args *a) {
  if (a->n != 1) tt_ev_fail(I, a->call, "int() takes one argument");
  if (a->pos[0].k == TV_FLOAT) return tt_v_int((int64_t)a->pos[0].u.f);
  return tt_v_int(tt_v_as_int(I, a->posnode[0], &a->pos[0]));
}
static tt_val py_float(tt_interp *I, tt_args *a) {
  if (a->n != 1) tt_ev_fail(I, a->call, "float() takes one argument");
  if (a->pos[0].k == TV_STR) {
    /* float("inf"), float("-inf"), float("nan"): how kernels spell infinities */
    const char *s = I->text + a->pos[0].u.str.s;
    uint32_t len = a->pos[0].u.str.e - a->pos[0].u.str.s;
    bool neg = len && *s == '-';
    if (neg || (len && *s == '+')) s++, len--;
    if (tt_ev_name_is(s, len, "inf") || tt_ev_name_is(s, len, "infinity")) return tt_v_float(neg ? -INFINITY : INFINITY);
    if (tt_ev_name_is(s, len, "nan")) return tt_v_float(NAN);
    tt_ev_fail(I, a->posnode[0], "float() of a string other than inf or nan");
  }
  return tt_v_float(tt_v_as_float(I, a->posnode[0], &a->pos[0]));
}
static tt_val py_abs(tt_interp *I, tt_args *a) {
  if (a->n != 1) tt_ev_fail(I, a->call, "abs() takes one argument");
  if (a->pos[0].k == TV_FLOAT) return tt_v_float(a->pos[0].u.f < 0 ? -a->pos[0].u.f : a->pos[0].u.f);
  int64_t v = tt_v_as_int(I, a->posnode[0], &a->pos[0]);
  return tt_v_int(v < 0 ? -v : v);
}
static tt_val py_len(tt_interp *I, tt_args *a) {
  if (a->n != 1 || a->pos[0].k != TV_TUPLE) tt_ev_fail(I, a->call, "len() of a tuple only");
  return tt_v_int(a->pos[0].u.tu->n);
}
/* range() materialises its values as a tuple: kernels loop over tile counts. */
static tt_val py_range(tt_interp *I, tt_args *a) {
  int64_t start = 0, stop, step = 1;
  if (a->n < 1 || a->n > 3 || a->nkw) tt_ev_fail(I, a->call, "range() takes one to three positional arguments");
  if (a->n == 1) stop = tt_v_as_int(I, a->posnode[0], &a->pos[0]);
  else {
    start = tt_v_as_int(I, a->posnode[0], &a->pos[0]);
    stop = tt_v_as_int(I, a->posnode[1], &a->pos[1]);
    if (a->n == 3) step = tt_v_as_int(I, a->posnode[2], &a->pos[2]);
  }
  if (step == 0) tt_ev_fail(I, a->call, "range() step is zero");
  int64_t n = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                       : (start > stop ? (start - stop - step - 1) / -step : 0);
  if (n > MAX_LOOP_TRIPS) tt_ev_fail(I, a->call, "range() of %lld trips is beyond what the interpreter runs", (long long)n);
  tt_val t = tt_v_tuple(I, (int)n);
  for (int64_t i = 0; i < n; i++) t.u.tu->items[i] = tt_v_int(start + i * step);
  return t;
}
static tt_val py_print(tt_interp *I, tt_args *a) { return tt_v_none(); }

static const tt_builtin py_builtins[] = {
  {"min", py_min, false}, {"max", py_max, false}, {"int", py_int, false}, {"float", py_float, false}, {"abs", py_abs, false},
  {"len", py_len, false}, {"range", py_range, false}, {"print", py_print, false},
};

static const tt_builtin *py_builtin(const char *name, uint32_t len) {
  for (size_t i = 0; i < sizeof py_builtins / sizeof *py_builtins; i++)
    if (tt_ev_name_is(name, len, py_builtins[i].name)) return &py_builtins[i];
  return NULL;
}

/* ---- expressions ----------------------------------------------------------- */

static tt_val eval(tt_interp *I, tt_frame *f, TSNode n);
static flow exec_block(tt_interp *I, tt_frame *f, TSNode block, tt_val *ret);
static tt_val call_function(tt_interp *I, int fi, tt_args *a);

static tt_val lookup(tt_interp *I, tt_frame *f, TSNode n) {
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  for (tt_frame *x = f; x; x = x->up) {
    tt_binding *b = tt_ev_frame_find(x, s, len);
    if (b) return tt_v_copy(&b->v);
  }
  int fi = tt_ev_func_index(I, s, len);
  if (fi >= 0) return (tt_val){.k = TV_FUNC, .u.fn = fi};
  const tt_builtin *b = py_builtin(s, len);
  if (b) return (tt_val){.k = TV_BUILTIN, .u.b = b};
  tt_ev_fail(I, n, "name '%.*s' is not defined", (int)len, s);
}

static tt_val eval_number(tt_interp *I, TSNode n, bool is_float) {
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  char buf[64];
  uint32_t o = 0;
  for (uint32_t i = 0; i < len && o + 1 < sizeof buf; i++)
    if (s[i] != '_') buf[o++] = s[i];
  buf[o] = 0;
  if (is_float) return tt_v_float(strtod(buf, NULL));
  return tt_v_int((int64_t)strtoll(buf, NULL, 0));
}

static tt_val eval_string(tt_interp *I, TSNode n) {
  /* string: string_start string_content? string_end; kernels use plain literals */
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
    TSNode c = ts_node_child(n, i);
    if (type_is(c, "string_start")) s = ts_node_end_byte(c);
    if (type_is(c, "string_end")) e = ts_node_start_byte(c);
    if (type_is(c, "interpolation")) tt_ev_fail(I, c, "f-strings are not supported in kernels");
  }
  return (tt_val){.k = TV_STR, .u.str = {s, e}};
}

static bool is_number(const tt_val *v) { return v->k == TV_INT || v->k == TV_FLOAT || v->k == TV_BOOL; }

static int binop_from_text(const char *s, uint32_t len, bool trunc, tt_binop *op, bool *matmul) {
  *matmul = false;
  static const struct { const char *t; tt_binop op; } ops[] = {
    {"+", TT_OP_ADD}, {"-", TT_OP_SUB}, {"*", TT_OP_MUL}, {"/", TT_OP_DIV}, {"//", TT_OP_FLOORDIV},
    {"%", TT_OP_MOD}, {"**", TT_OP_POW}, {"&", TT_OP_AND}, {"|", TT_OP_OR}, {"^", TT_OP_XOR},
    {"<<", TT_OP_SHL}, {">>", TT_OP_SHR}, {"<", TT_OP_LT}, {"<=", TT_OP_LE}, {"==", TT_OP_EQ},
    {"!=", TT_OP_NE}, {">", TT_OP_GT}, {">=", TT_OP_GE},
  };
  if (tt_ev_name_is(s, len, "@")) {
    *matmul = true;
    return 0;
  }
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (tt_ev_name_is(s, len, ops[i].t)) {
      *op = ops[i].op;
      if (trunc && *op == TT_OP_FLOORDIV) *op = TT_OP_TRUNCDIV;
      if (trunc && *op == TT_OP_MOD) *op = TT_OP_TRUNCMOD;
      return 0;
    }
  return -1;
}

/* Scalar arithmetic: Python numbers, computed as Python does (ints in 64 bits). */
static tt_val scalar_binop(tt_interp *I, TSNode n, tt_binop op, const tt_val *a, const tt_val *b) {
  bool fl = a->k == TV_FLOAT || b->k == TV_FLOAT;
  if (!fl && op != TT_OP_DIV) {
    int64_t x = a->u.i, y = b->u.i, r = 0;
    switch (op) {
      case TT_OP_ADD: r = (int64_t)((uint64_t)x + (uint64_t)y); break;
      case TT_OP_SUB: r = (int64_t)((uint64_t)x - (uint64_t)y); break;
      case TT_OP_MUL: r = (int64_t)((uint64_t)x * (uint64_t)y); break;
      case TT_OP_FLOORDIV:
      case TT_OP_MOD:
      case TT_OP_TRUNCDIV:
      case TT_OP_TRUNCMOD: {
        if (y == 0) tt_ev_fail_run(I, n, "integer division by zero");
        int64_t q = x / y, m = x % y;
        if (op == TT_OP_FLOORDIV || op == TT_OP_MOD) {
          if (m != 0 && ((m < 0) != (y < 0))) q -= 1, m += y;
        }
        r = (op == TT_OP_FLOORDIV || op == TT_OP_TRUNCDIV) ? q : m;
        break;
      }
      case TT_OP_POW: {
        if (y < 0) return tt_v_float(1.0 / (double)(x == 0 ? 0 : x) /* rare */);
        r = 1;
        for (int64_t k = 0; k < y; k++) r *= x;
        break;
      }
      case TT_OP_AND: r = x & y; break;
      case TT_OP_OR: r = x | y; break;
      case TT_OP_XOR: r = x ^ y; break;
      case TT_OP_SHL: r = (int64_t)((uint64_t)x << (y & 63)); break;
      case TT_OP_SHR: r = x >> (y & 63); break;
      case TT_OP_EQ: return tt_v_bool(x == y);
      case TT_OP_NE: return tt_v_bool(x != y);
      case TT_OP_LT: return tt_v_bool(x < y);
      case TT_OP_LE: return tt_v_bool(x <= y);
      case TT_OP_GT: return tt_v_bool(x > y);
      case TT_OP_GE: return tt_v_bool(x >= y);
      case TT_OP_MAX: r = x > y ? x : y; break; /* max.(a, b) of two integers (cuTile.jl) */
      case TT_OP_MIN: r = x < y ? x : y; break;
      default: tt_ev_fail(I, n, "unsupported operation on integers");
    }
    if (a->k == TV_BOOL && b->k == TV_BOOL && (op == TT_OP_AND || op == TT_OP_OR || op == TT_OP_XOR))
      return tt_v_bool(r != 0);
    return tt_v_int(r);
  }
  double x = tt_v_as_float(I, n, a), y = tt_v_as_float(I, n, b);
  switch (op) {
    case TT_OP_ADD: return tt_v_float(x + y);
    case TT_OP_SUB: return tt_v_float(x - y);
    case TT_OP_MUL: return tt_v_float(x * y);
    case TT_OP_DIV:
      if (y == 0) tt_ev_fail_run(I, n, "division by zero");
      return tt_v_float(x / y);
    case TT_OP_FLOORDIV:
    case TT_OP_TRUNCDIV: return tt_v_float(__builtin_floor(x / y));
    case TT_OP_POW: return tt_v_float(__builtin_pow(x, y));
    case TT_OP_EQ: return tt_v_bool(x == y);
    case TT_OP_NE: return tt_v_bool(x != y);
    case TT_OP_LT: return tt_v_bool(x < y);
    case TT_OP_LE: return tt_v_bool(x <= y);
    case TT_OP_GT: return tt_v_bool(x > y);
    case TT_OP_GE: return tt_v_bool(x >= y);
    default: tt_ev_fail(I, n, "unsupported operation on floats");
  }
}

/* ptr + int, int + ptr, ptr - int: offsets move, the pointer's buffer stays. */
static tt_val pointer_arith(tt_interp *I, TSNode n, tt_binop op, tt_tile_t *ta, tt_tile_t *tb) {
  tt_tile_t *p = ta->ptr_arg ? ta : tb, *o = ta->ptr_arg ? tb : ta;
  bool ok = (op == TT_OP_ADD && !(ta->ptr_arg && tb->ptr_arg)) || (op == TT_OP_SUB && ta->ptr_arg && !tb->ptr_arg);
  if (!ok || !tt_dtype_is_int(o->dtype)) {
    tt_tile_release(ta);
    tt_tile_release(tb);
    tt_ev_fail(I, n, "pointers take only + and - of integer offsets");
  }
  tt_err e;
  tt_tile_t *r = tt_op_binary(&I->pool, op, ta, tb, TT_ALIGN_RIGHT, &e);
  int arg = p->ptr_arg;
  tt_tile_dtype elem = p->ptr_elem;
  tt_tile_release(ta);
  tt_tile_release(tb);
  if (!r) tt_ev_fail_op(I, n, &e);
  r->ptr_arg = arg, r->ptr_elem = elem;
  I->ops++;
  return tt_v_tile(r);
}

/* The dtype a Python number takes next to a tile (weak typing, as JAX and cuTile). */
static tt_tile_dtype weak_like(const tt_val *other) {
  return other->k == TV_TILE ? other->u.t->dtype : TT_TILE_F32;
}

tt_val tt_ev_binop(tt_interp *I, TSNode n, tt_binop op, bool matmul, const tt_val *a, const tt_val *b,
                   tt_align al) {
  if (!matmul && is_number(a) && is_number(b)) return scalar_binop(I, n, op, a, b);
  if (!matmul && (a->k == TV_DTYPE || b->k == TV_DTYPE || a->k == TV_ENUM || b->k == TV_ENUM ||
                  a->k == TV_NONE || b->k == TV_NONE)) {
    /* identity comparisons of constants: A.dtype == ct.float32, mode == None */
    if (op != TT_OP_EQ && op != TT_OP_NE) tt_ev_fail(I, n, "operands of type %s and %s", tt_v_kind_name(a->k), tt_v_kind_name(b->k));
    bool eq = a->k == b->k && (a->k == TV_NONE || (a->k == TV_DTYPE ? a->u.dt == b->u.dt : a->u.en.type == b->u.en.type && a->u.en.v == b->u.en.v));
    return tt_v_bool(op == TT_OP_EQ ? eq : !eq);
  }
  tt_tile_t *ta = tt_v_as_tile(I, n, a, weak_like(b));
  tt_tile_t *tb = tt_v_as_tile(I, n, b, weak_like(a));
  if (ta->ptr_arg || tb->ptr_arg) return pointer_arith(I, n, op, ta, tb);
  tt_err e;
  tt_tile_t *r;
  int64_t wrapped = -1;
  if (matmul) r = tt_op_matmul(&I->pool, ta, tb, NULL, tt_dtype_promote(ta->dtype, tb->dtype), &e);
  else r = tt_op_binary_checked(&I->pool, op, ta, tb, al, I->lib->int_overflow_is_error ? &wrapped : NULL, &e);
  tt_tile_release(ta);
  tt_tile_release(tb);
  if (r && wrapped >= 0) {
    tt_tile_dtype rdt = r->dtype;
    tt_tile_release(r);
    uint32_t len;
    const char *s = tt_ev_node_text(I, ts_node_parent(n), &len);
    tt_ev_fail_run(I, ts_node_parent(n), "%s overflows in `%.*s` (element %lld): Triton computes this offset in %s; "
                   "cast to tl.int64 first", tt_tile_dtype_name(rdt), (int)(len > 60 ? 60 : len), s,
                   (long long)wrapped, tt_tile_dtype_name(rdt));
  }
  if (!r && !strcmp(e.msg, "integer division by zero")) tt_ev_fail_run(I, n, "%s", e.msg);
  if (!r) tt_ev_fail_op(I, n, &e);
  I->ops++;
  return tt_v_tile(r);
}

static tt_val eval_binary(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode l = FIELD(n, F_LEFT), r = FIELD(n, F_RIGHT);
  TSNode o = FIELD(n, F_OPERATOR);
  uint32_t len;
  const char *s = tt_ev_node_text(I, o, &len);
  tt_binop op = TT_OP_ADD;
  bool mm;
  if (binop_from_text(s, len, I->lib->trunc_int_div, &op, &mm)) tt_ev_fail(I, o, "operator '%.*s' is not supported", (int)len, s);
  tt_val a = eval(I, f, l), b = eval(I, f, r);
  tt_val v = tt_ev_binop(I, o, op, mm, &a, &b, TT_ALIGN_RIGHT);
  tt_v_drop(&a);
  tt_v_drop(&b);
  return v;
}

static tt_val eval_compare(tt_interp *I, tt_frame *f, TSNode n) {
  /* a < b <= c: children alternate operand, operator token(s), operand */
  uint32_t nc = ts_node_child_count(n);
  tt_val left = eval(I, f, ts_node_child(n, 0)), result = tt_v_bool(true);
  for (uint32_t i = 1; i + 1 < nc;) {
    TSNode opn = ts_node_child(n, i);
    uint32_t len;
    const char *s = tt_ev_node_text(I, opn, &len);
    bool is_not = false, is_is = false;
    uint32_t next = i + 1;
    if (tt_ev_name_is(s, len, "is")) {
      is_is = true;
      if (next < nc && type_is(ts_node_child(n, next), "not")) is_not = true, next++;
    } else if (tt_ev_name_is(s, len, "is not")) {
      is_is = true, is_not = true;
    }
    tt_val right = eval(I, f, ts_node_child(n, next));
    tt_val v;
    if (is_is) {
      bool same = left.k == right.k && (left.k == TV_NONE || !memcmp(&left.u, &right.u, sizeof left.u));
      v = tt_v_bool(is_not ? !same : same);
    } else {
      tt_binop op;
      bool mm;
      if (binop_from_text(s, len, false, &op, &mm) || op < TT_OP_EQ)
        tt_ev_fail(I, opn, "comparison '%.*s' is not supported", (int)len, s);
      v = tt_ev_binop(I, opn, op, false, &left, &right, TT_ALIGN_RIGHT);
    }
    tt_v_drop(&left);
    left = right;
    if (v.k == TV_TILE || nc <= 3) {
      tt_v_drop(&result);
      result = v;
    } else {
      bool t = tt_v_truthy(I, opn, &v);
      tt_v_drop(&v);
      if (!t) {
        tt_v_drop(&result);
        result = tt_v_bool(false);
        break;
      }
    }
    i = next + 1;
  }
  tt_v_drop(&left);
  return result;
}

static tt_val eval_unary(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode o = FIELD(n, F_OPERATOR), x = FIELD(n, F_ARGUMENT);
  uint32_t len;
  const char *s = tt_ev_node_text(I, o, &len);
  tt_val v = eval(I, f, x);
  if (v.k == TV_INT || v.k == TV_BOOL) {
    if (*s == '-') return tt_v_int(-v.u.i);
    if (*s == '~') return tt_v_int(~v.u.i);
    return tt_v_int(v.u.i);
  }
  if (v.k == TV_FLOAT) {
    if (*s == '~') tt_ev_fail(I, o, "bitwise inversion of a float");
    return tt_v_float(*s == '-' ? -v.u.f : v.u.f);
  }
  if (v.k != TV_TILE) tt_ev_fail(I, o, "unary '%.*s' of a %s", (int)len, s, tt_v_kind_name(v.k));
  if (*s == '+') return v;
  tt_err e;
  tt_tile_t *r = tt_op_unary(&I->pool, *s == '-' ? TT_OP_NEG : TT_OP_INVERT, v.u.t, &e);
  tt_v_drop(&v);
  if (!r) tt_ev_fail_op(I, o, &e);
  I->ops++;
  return tt_v_tile(r);
}

static tt_val eval_tuple(tt_interp *I, tt_frame *f, TSNode n) {
  uint32_t nn = ts_node_named_child_count(n);
  tt_val t = tt_v_tuple(I, 0);
  t.u.tu->items = tt_xrealloc(t.u.tu->items, sizeof(tt_val) * (nn ? nn : 1));
  for (TSNode c = ts_node_named_child(n, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    if (type_is(c, "comment")) continue;
    t.u.tu->items[t.u.tu->n] = tt_v_none();
    t.u.tu->items[t.u.tu->n++] = eval(I, f, c);
  }
  return t;
}

struct tt_kids {
  const void *id; /* NULL: empty slot */
  uint32_t n;
  TSNode *nodes;
};

static size_t kid_hash(const void *id, uint32_t cap) { return (size_t)(((uintptr_t)id >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1); }

static struct tt_kids *kid_slot(struct tt_kids *tab, uint32_t cap, const void *id) {
  size_t h = kid_hash(id, cap);
  while (tab[h].id && tab[h].id != id) h = (h + 1) & (cap - 1);
  return &tab[h];
}

const TSNode *tt_ev_kids(tt_interp *I, TSNode n, uint32_t *count) {
  if (I->nkids * 2 >= I->cap_kids) { /* keep the load under 1/2; the node arrays do not move */
    uint32_t cap = I->cap_kids ? I->cap_kids * 2 : 64;
    struct tt_kids *tab = tt_xcalloc(cap, sizeof *tab);
    for (uint32_t i = 0; i < I->cap_kids; i++)
      if (I->kids[i].id) *kid_slot(tab, cap, I->kids[i].id) = I->kids[i];
    free(I->kids);
    I->kids = tab, I->cap_kids = cap;
  }
  struct tt_kids *k = kid_slot(I->kids, I->cap_kids, n.id);
  if (!k->id) {
    uint32_t cap = ts_node_named_child_count(n);
    k->nodes = tt_xcalloc(cap + 1, sizeof *k->nodes);
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) do {
        TSNode x = ts_tree_cursor_current_node(&c);
        if (ts_node_is_named(x) && k->n < cap) k->nodes[k->n++] = x;
      } while (ts_tree_cursor_goto_next_sibling(&c));
    ts_tree_cursor_delete(&c);
    k->id = n.id;
    I->nkids++;
  }
  *count = k->n;
  return k->nodes;
}

static void collect_args(tt_interp *I, tt_frame *f, TSNode arglist, tt_args *a) {
  memset(a, 0, sizeof *a);
  uint32_t nk;
  const TSNode *kids = tt_ev_kids(I, arglist, &nk);
  for (uint32_t ki = 0; ki < nk; ki++) {
    TSNode c = kids[ki];
    if (type_is(c, "comment")) continue;
    if (type_is(c, "keyword_argument")) {
      if (a->nkw == TT_MAX_ARGS) tt_ev_fail(I, c, "too many keyword arguments");
      TSNode name = FIELD(c, F_NAME), val = FIELD(c, F_VALUE);
      a->kw[a->nkw].name = tt_ev_node_text(I, name, &a->kw[a->nkw].len);
      a->kw[a->nkw].node = val;
      a->kw[a->nkw].v = tt_v_none();
      a->nkw++;
      a->kw[a->nkw - 1].v = eval(I, f, val);
    } else if (type_is(c, "list_splat") || type_is(c, "dictionary_splat")) {
      tt_ev_fail(I, c, "argument unpacking is not supported in kernels");
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

static tt_val call_lambda(tt_interp *I, const tt_val *lam, tt_args *a);
static tt_val launch(tt_interp *I, const tt_val *l, tt_args *a);

static tt_val eval_call(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode fn = FIELD(n, F_FUNCTION);
  TSNode al = FIELD(n, F_ARGUMENTS);
  if (type_is(al, "generator_expression")) tt_ev_fail(I, al, "generator expressions are not supported in kernels");
  tt_args a;
  tt_val out = tt_v_none();
  if (type_is(fn, "attribute")) {
    TSNode obj = FIELD(fn, F_OBJECT), attr = FIELD(fn, F_ATTRIBUTE);
    tt_val recv = eval(I, f, obj);
    uint32_t len;
    const char *name = tt_ev_node_text(I, attr, &len);
    if (recv.k != TV_MODULE) {
      collect_args(I, f, al, &a);
      a.call = n;
      if (!I->lib->method(I, &recv, name, len, &a, &out))
        tt_ev_fail(I, attr, "a %s has no method '%.*s' in %s", tt_v_kind_name(recv.k), (int)len, name, I->lib->dialect);
      I->ops++;
      drop_args(&a);
      tt_v_drop(&recv);
      return out;
    }
    tt_val callee;
    if (!I->lib->module_attr(I, recv.u.mod, name, len, &callee))
      tt_ev_fail(I, attr, "'%.*s' is not part of %s as the interpreter knows it", (int)len, name, I->lib->dialect);
    if (callee.k != TV_BUILTIN) tt_ev_fail(I, fn, "'%.*s' is not callable", (int)len, name);
    collect_args(I, f, al, &a);
    a.call = n;
    out = callee.u.b->fn(I, &a);
    I->ops++;
    drop_args(&a);
    return out;
  }
  tt_val callee = eval(I, f, fn);
  collect_args(I, f, al, &a);
  a.call = n;
  if (callee.k == TV_BUILTIN) out = callee.u.b->fn(I, &a);
  else if (callee.k == TV_FUNC) out = call_function(I, callee.u.fn, &a);
  else if (callee.k == TV_LAMBDA) out = call_lambda(I, &callee, &a);
  else if (callee.k == TV_LAUNCH) out = launch(I, &callee, &a);
  else tt_ev_fail(I, fn, "a %s is not callable", tt_v_kind_name(callee.k));
  drop_args(&a);
  tt_v_drop(&callee);
  return out;
}

static tt_val eval_attribute(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode obj = FIELD(n, F_OBJECT), attr = FIELD(n, F_ATTRIBUTE);
  tt_val recv = eval(I, f, obj);
  uint32_t len;
  const char *name = tt_ev_node_text(I, attr, &len);
  tt_val out;
  bool ok = recv.k == TV_MODULE ? I->lib->module_attr(I, recv.u.mod, name, len, &out)
                                : I->lib->value_attr(I, attr, &recv, name, len, &out);
  if (!ok) tt_ev_fail(I, attr, "a %s has no attribute '%.*s' in %s", tt_v_kind_name(recv.k), (int)len, name, I->lib->dialect);
  tt_v_drop(&recv);
  return out;
}

/* tile[:, None] inserts dims of 1 (every other entry must be a full slice);
 * tuple[i] indexes; builtin[...] is a type annotation (ct.Constant[int]). */
static tt_val eval_subscript(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode val = FIELD(n, F_VALUE);
  tt_val v = eval(I, f, val);
  uint32_t ns = 0;
  TSNode subs[TT_TILE_MAX_DIMS + 2];
  for (TSNode c = ts_node_named_child(n, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    if (ts_node_eq(c, val) || type_is(c, "comment")) continue;
    if (ns == TT_TILE_MAX_DIMS + 2) tt_ev_fail(I, c, "too many subscripts");
    subs[ns++] = c;
  }
  if (v.k == TV_BUILTIN) return v;
  if (v.k == TV_FUNC) {
    /* kernel[grid]: a launch, called next with the kernel's arguments */
    if (ns != 1) tt_ev_fail(I, n, "a launch takes one grid: kernel[grid](...)");
    tt_val l = tt_v_tuple(I, 2);
    l.k = TV_LAUNCH;
    l.u.tu->items[0] = v;
    l.u.tu->items[1] = eval(I, f, subs[0]);
    return l;
  }
  if (v.k == TV_DICT) {
    tt_val key = eval(I, f, subs[0]);
    if (key.k != TV_STR) tt_ev_fail(I, subs[0], "dictionary keys are strings");
    for (int i = 0; i + 1 < v.u.tu->n; i += 2) {
      const tt_val *k = &v.u.tu->items[i];
      if (k->u.str.e - k->u.str.s == key.u.str.e - key.u.str.s &&
          !memcmp(I->text + k->u.str.s, I->text + key.u.str.s, k->u.str.e - k->u.str.s)) {
        tt_val r = tt_v_copy(&v.u.tu->items[i + 1]);
        tt_v_drop(&v);
        return r;
      }
    }
    tt_ev_fail(I, subs[0], "no launch argument '%.*s'", (int)(key.u.str.e - key.u.str.s), I->text + key.u.str.s);
  }
  if (v.k == TV_TUPLE) {
    if (ns != 1) tt_ev_fail(I, n, "a tuple takes one index");
    tt_val iv = eval(I, f, subs[0]);
    int64_t i = tt_v_as_int(I, subs[0], &iv);
    int cnt = v.u.tu->n;
    if (i < 0) i += cnt;
    if (i < 0 || i >= cnt) tt_ev_fail(I, subs[0], "tuple index %lld out of range (%d items)", (long long)i, cnt);
    tt_val r = tt_v_copy(&v.u.tu->items[i]);
    tt_v_drop(&v);
    return r;
  }
  if (v.k != TV_TILE) tt_ev_fail(I, val, "a %s cannot be subscripted", tt_v_kind_name(v.k));
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = 0, src = 0;
  for (uint32_t i = 0; i < ns; i++) {
    if (type_is(subs[i], "none")) {
      if (nd == TT_TILE_MAX_DIMS) tt_ev_fail(I, subs[i], "more than %d dims", TT_TILE_MAX_DIMS);
      shape[nd++] = 1;
    } else if (type_is(subs[i], "slice") && ts_node_named_child_count(subs[i]) == 0) {
      if (src >= v.u.t->ndim) tt_ev_fail(I, subs[i], "too many ':' for a %d-d tile", v.u.t->ndim);
      if (nd == TT_TILE_MAX_DIMS) tt_ev_fail(I, subs[i], "more than %d dims", TT_TILE_MAX_DIMS);
      shape[nd++] = v.u.t->shape[src++];
    } else {
      tt_ev_fail(I, subs[i], "tiles are indexed only with ':' and None (to add dims); use the library's extract or gather");
    }
  }
  while (src < v.u.t->ndim) {
    if (nd == TT_TILE_MAX_DIMS) tt_ev_fail(I, n, "more than %d dims", TT_TILE_MAX_DIMS);
    shape[nd++] = v.u.t->shape[src++];
  }
  tt_err e;
  tt_tile_t *r = tt_op_reshape(&I->pool, v.u.t, nd, shape, &e);
  if (r) r->ptr_arg = v.u.t->ptr_arg, r->ptr_elem = v.u.t->ptr_elem;
  tt_v_drop(&v);
  if (!r) tt_ev_fail_op(I, n, &e);
  return tt_v_tile(r);
}

static tt_val eval_lambda(tt_interp *I, tt_frame *f, TSNode n) {
  if (I->nlambdas == I->cap_lambdas) {
    I->cap_lambdas = I->cap_lambdas ? 2 * I->cap_lambdas : 8;
    I->lambdas = tt_xrealloc(I->lambdas, sizeof *I->lambdas * I->cap_lambdas);
  }
  I->lambdas[I->nlambdas] = n;
  return (tt_val){.k = TV_LAMBDA, .u.lam = {I->nlambdas++, f}};
}

static tt_val eval(tt_interp *I, tt_frame *f, TSNode n) {
  const char *t = ts_node_type(n);
  switch (t[0]) {
    case 'i':
      if (!strcmp(t, "identifier")) return lookup(I, f, n);
      if (!strcmp(t, "integer")) return eval_number(I, n, false);
      break;
    case 'f':
      if (!strcmp(t, "float")) return eval_number(I, n, true);
      if (!strcmp(t, "false")) return tt_v_bool(false);
      break;
    case 't':
      if (!strcmp(t, "true")) return tt_v_bool(true);
      if (!strcmp(t, "tuple")) return eval_tuple(I, f, n);
      break;
    case 'n':
      if (!strcmp(t, "none")) return tt_v_none();
      if (!strcmp(t, "not_operator")) {
        tt_val v = eval(I, f, FIELD(n, F_ARGUMENT));
        if (v.k == TV_TILE) {
          tt_err e;
          tt_tile_t *r = tt_op_unary(&I->pool, TT_OP_NOT, v.u.t, &e);
          tt_v_drop(&v);
          if (!r) tt_ev_fail_op(I, n, &e);
          return tt_v_tile(r);
        }
        bool b = tt_v_truthy(I, n, &v);
        tt_v_drop(&v);
        return tt_v_bool(!b);
      }
      break;
    case 'p':
      if (!strcmp(t, "parenthesized_expression")) return eval(I, f, ts_node_named_child(n, 0));
      break;
    case 'l':
      if (!strcmp(t, "list")) return eval_tuple(I, f, n);
      if (!strcmp(t, "lambda")) return eval_lambda(I, f, n);
      break;
    case 's':
      if (!strcmp(t, "string")) return eval_string(I, n);
      if (!strcmp(t, "subscript")) return eval_subscript(I, f, n);
      break;
    case 'b':
      if (!strcmp(t, "binary_operator")) return eval_binary(I, f, n);
      if (!strcmp(t, "boolean_operator")) {
        TSNode o = FIELD(n, F_OPERATOR);
        uint32_t len;
        const char *s = tt_ev_node_text(I, o, &len);
        bool is_and = tt_ev_name_is(s, len, "and");
        tt_val a = eval(I, f, FIELD(n, F_LEFT));
        if (a.k == TV_TILE) tt_ev_fail(I, o, "'%.*s' of tiles; use & or |", (int)len, s);
        bool ta = tt_v_truthy(I, n, &a);
        if (is_and ? !ta : ta) return a;
        tt_v_drop(&a);
        return eval(I, f, FIELD(n, F_RIGHT));
      }
      break;
    case 'u':
      if (!strcmp(t, "unary_operator")) return eval_unary(I, f, n);
      break;
    case 'c':
      if (!strcmp(t, "call")) return eval_call(I, f, n);
      if (!strcmp(t, "comparison_operator")) return eval_compare(I, f, n);
      if (!strcmp(t, "conditional_expression")) {
        /* a if c else b: named children a, c, b */
        tt_val c = eval(I, f, ts_node_named_child(n, 1));
        bool b = tt_v_truthy(I, n, &c);
        tt_v_drop(&c);
        return eval(I, f, ts_node_named_child(n, b ? 0 : 2));
      }
      break;
    case 'a':
      if (!strcmp(t, "attribute")) return eval_attribute(I, f, n);
      break;
    case 'e':
      if (!strcmp(t, "expression_list")) return eval_tuple(I, f, n);
      break;
  }
  uint32_t len;
  const char *s = tt_ev_node_text(I, n, &len);
  tt_ev_fail(I, n, "%s construct '%s' (%.*s) is not supported by the tile interpreter", I->lib->dialect, t,
             (int)(len > 40 ? 40 : len), s);
}

/* ---- statements ------------------------------------------------------------ */

/* Assigns v (taken) to a target: a name, or a tuple/list pattern unpacking a tuple. */
void tt_ev_destructure(tt_interp *I, tt_frame *f, TSNode target, tt_val v, const char *verb,
                       void (*assign_one)(tt_interp *, tt_frame *, TSNode, tt_val)) {
  uint32_t nn = ts_node_named_child_count(target);
  if (v.k != TV_TUPLE || (uint32_t)v.u.tu->n != nn) {
    int have = v.k == TV_TUPLE ? v.u.tu->n : -1;
    tt_v_drop(&v);
    if (have < 0) tt_ev_fail(I, target, "cannot %s a non-tuple into %u names", verb, nn);
    tt_ev_fail(I, target, "cannot %s %d values into %u names", verb, have, nn);
  }
  for (uint32_t i = 0; i < nn; i++) assign_one(I, f, ts_node_named_child(target, i), tt_v_copy(&v.u.tu->items[i]));
  tt_v_drop(&v);
}

static void assign(tt_interp *I, tt_frame *f, TSNode target, tt_val v) {
  if (type_is(target, "identifier")) {
    uint32_t len;
    const char *s = tt_ev_node_text(I, target, &len);
    tt_ev_frame_set(I, f, s, len, v);
    return;
  }
  if (type_is(target, "pattern_list") || type_is(target, "tuple_pattern") || type_is(target, "tuple") ||
      type_is(target, "list_pattern")) {
    tt_ev_destructure(I, f, target, v, "unpack", assign);
    return;
  }
  tt_v_drop(&v);
  tt_ev_fail(I, target, "assignment to a %s is not supported in kernels (tiles are immutable)", ts_node_type(target));
}

static void exec_assignment(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode left = FIELD(n, F_LEFT), right = FIELD(n, F_RIGHT);
  if (ts_node_is_null(right)) return; /* a bare annotation: x: int */
  if (type_is(right, "assignment")) tt_ev_fail(I, right, "chained assignment is not supported");
  assign(I, f, left, eval(I, f, right));
}

static void exec_augmented(tt_interp *I, tt_frame *f, TSNode n) {
  TSNode left = FIELD(n, F_LEFT), right = FIELD(n, F_RIGHT);
  TSNode o = FIELD(n, F_OPERATOR);
  if (!type_is(left, "identifier")) tt_ev_fail(I, left, "augmented assignment to a %s is not supported", ts_node_type(left));
  uint32_t len;
  const char *s = tt_ev_node_text(I, o, &len);
  tt_binop op = TT_OP_ADD;
  bool mm;
  if (len < 2 || binop_from_text(s, len - 1, I->lib->trunc_int_div, &op, &mm))
    tt_ev_fail(I, o, "operator '%.*s' is not supported", (int)len, s);
  tt_val a = lookup(I, f, left), b = eval(I, f, right);
  tt_val v = tt_ev_binop(I, o, op, mm, &a, &b, TT_ALIGN_RIGHT);
  tt_v_drop(&a);
  tt_v_drop(&b);
  assign(I, f, left, v);
}

static flow exec_stmt(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret);

static flow exec_if(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  tt_val c = eval(I, f, FIELD(n, F_CONDITION));
  bool b = tt_v_truthy(I, n, &c);
  tt_v_drop(&c);
  if (b) return exec_block(I, f, FIELD(n, F_CONSEQUENCE), ret);
  for (TSNode alt = ts_node_named_child(n, 0); !ts_node_is_null(alt); alt = ts_node_next_named_sibling(alt)) {
    if (type_is(alt, "elif_clause")) {
      tt_val ec = eval(I, f, FIELD(alt, F_CONDITION));
      bool eb = tt_v_truthy(I, alt, &ec);
      tt_v_drop(&ec);
      if (eb) return exec_block(I, f, FIELD(alt, F_CONSEQUENCE), ret);
    } else if (type_is(alt, "else_clause")) {
      return exec_block(I, f, FIELD(alt, F_BODY), ret);
    }
  }
  return FLOW_NEXT;
}

static flow exec_for(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  TSNode left = FIELD(n, F_LEFT), right = FIELD(n, F_RIGHT);
  TSNode body = FIELD(n, F_BODY);
  tt_val it = eval(I, f, right);
  if (it.k != TV_TUPLE) tt_ev_fail(I, right, "a for loop over a %s; kernels loop over range(...)", tt_v_kind_name(it.k));
  flow fl = FLOW_NEXT;
  for (int i = 0; i < it.u.tu->n; i++) {
    assign(I, f, left, tt_v_copy(&it.u.tu->items[i]));
    fl = exec_block(I, f, body, ret);
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
  TSNode cond = FIELD(n, F_CONDITION), body = FIELD(n, F_BODY);
  for (int64_t trips = 0;; trips++) {
    if (trips > MAX_LOOP_TRIPS) tt_ev_fail_run(I, n, "while loop ran %d trips without ending", MAX_LOOP_TRIPS);
    tt_val c = eval(I, f, cond);
    bool b = tt_v_truthy(I, cond, &c);
    tt_v_drop(&c);
    if (!b) return FLOW_NEXT;
    flow fl = exec_block(I, f, body, ret);
    if (fl == FLOW_BREAK) return FLOW_NEXT;
    if (fl == FLOW_RETURN) return fl;
  }
}

static flow exec_stmt(tt_interp *I, tt_frame *f, TSNode n, tt_val *ret) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "expression_statement")) {
    for (TSNode c = ts_node_named_child(n, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
      if (type_is(c, "assignment")) exec_assignment(I, f, c);
      else if (type_is(c, "augmented_assignment")) exec_augmented(I, f, c);
      else if (type_is(c, "string") || type_is(c, "comment")) continue; /* docstrings */
      else {
        tt_val v = eval(I, f, c);
        tt_v_drop(&v);
      }
    }
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
  if (!strcmp(t, "pass_statement") || !strcmp(t, "comment")) return FLOW_NEXT;
  if (!strcmp(t, "break_statement")) return FLOW_BREAK;
  if (!strcmp(t, "continue_statement")) return FLOW_CONTINUE;
  if (!strcmp(t, "assert_statement")) {
    tt_val c = eval(I, f, ts_node_named_child(n, 0));
    bool b = tt_v_truthy(I, n, &c);
    tt_v_drop(&c);
    if (!b) tt_ev_fail_run(I, n, "assertion failed");
    return FLOW_NEXT;
  }
  tt_ev_fail(I, n, "%s statement '%s' is not supported by the tile interpreter", I->lib->dialect, t);
}

static flow exec_block(tt_interp *I, tt_frame *f, TSNode block, tt_val *ret) {
  uint32_t n;
  const TSNode *st = tt_ev_kids(I, block, &n);
  for (uint32_t i = 0; i < n; i++) {
    flow fl = exec_stmt(I, f, st[i], ret);
    if (fl != FLOW_NEXT) return fl;
  }
  return FLOW_NEXT;
}

/* ---- functions ------------------------------------------------------------- */

/* The parameter list as (name node, default node or null). */
static int params_of(tt_interp *I, TSNode def, TSNode *names, TSNode *defaults, int max) {
  TSNode ps = FIELD(def, F_PARAMETERS);
  int n = 0;
  for (TSNode p = ts_node_named_child(ps, 0); !ts_node_is_null(p) && n < max; p = ts_node_next_named_sibling(p)) {
    const char *t = ts_node_type(p);
    TSNode name = p, dflt = {0};
    if (!strcmp(t, "typed_parameter")) name = ts_node_named_child(p, 0);
    else if (!strcmp(t, "default_parameter") || !strcmp(t, "typed_default_parameter")) {
      name = FIELD(p, F_NAME);
      dflt = FIELD(p, F_VALUE);
    } else if (strcmp(t, "identifier")) {
      if (!strcmp(t, "comment")) continue;
      names[n] = p;
      defaults[n++] = (TSNode){0};
      return -n; /* *args, **kw, / or *: reported by the caller */
    }
    names[n] = name;
    defaults[n++] = dflt;
  }
  return n;
}

static tt_val call_function(tt_interp *I, int fi, tt_args *a) {
  const tt_func *fn = &I->funcs[fi];
  TSNode names[TT_MAX_ARGS + 4], dflts[TT_MAX_ARGS + 4];
  int np = params_of(I, fn->def, names, dflts, TT_MAX_ARGS + 4);
  if (np < 0) tt_ev_fail(I, names[-np - 1], "this parameter form is not supported in kernel helpers");
  if (a->n > np) tt_ev_fail(I, a->call, "%.*s() takes %d arguments, %d given", (int)fn->name_len, fn->name, np, a->n);
  if (++I->depth > MAX_DEPTH) tt_ev_fail(I, a->call, "calls nested deeper than %d (recursion is not supported in kernels)", MAX_DEPTH);
  /* The frame lives on the C stack: an error while it is alive frees it on the way out. */
  tt_frame fr = {.up = &I->globals};
  tt_val ret = tt_v_none();
  jmp_buf *outer = I->on_error, here;
  if (setjmp(here)) {
    tt_ev_frame_clear(&fr);
    I->on_error = outer;
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
  exec_block(I, &fr, FIELD(fn->def, F_BODY), &ret);
  I->on_error = outer;
  tt_ev_frame_clear(&fr);
  I->depth--;
  return ret;
}

/* A lambda runs in a frame above the one it was made in (a grid lambda reads the host
 * function's locals); it is only called while that frame is alive. */
static tt_val call_lambda(tt_interp *I, const tt_val *lam, tt_args *a) {
  TSNode n = I->lambdas[lam->u.lam.node_id];
  TSNode ps = FIELD(n, F_PARAMETERS), body = FIELD(n, F_BODY);
  tt_frame fr = {.up = lam->u.lam.frame};
  jmp_buf *outer = I->on_error, here;
  if (setjmp(here)) {
    tt_ev_frame_clear(&fr);
    I->on_error = outer;
    longjmp(*outer, 1);
  }
  I->on_error = &here;
  uint32_t np = ts_node_is_null(ps) ? 0 : ts_node_named_child_count(ps);
  if ((int)np != a->n + a->nkw) tt_ev_fail(I, a->call, "the lambda takes %u arguments, %d given", np, a->n + a->nkw);
  for (uint32_t i = 0; i < np; i++) {
    uint32_t len;
    const char *s = tt_ev_node_text(I, ts_node_named_child(ps, i), &len);
    tt_ev_frame_set(I, &fr, s, len, tt_v_copy(i < (uint32_t)a->n ? &a->pos[i] : &a->kw[i - a->n].v));
  }
  tt_val r = eval(I, &fr, body);
  I->on_error = outer;
  tt_ev_frame_clear(&fr);
  return r;
}

/* The grid of a launch: a tuple or int, or a lambda of the launch's keyword
 * arguments (meta['BLOCK']). */
static void launch_grid(tt_interp *I, const tt_val *g, tt_args *a, int64_t grid[3]) {
  tt_val v = tt_v_copy(g);
  if (v.k == TV_LAMBDA) {
    tt_val meta = tt_v_tuple(I, 2 * a->nkw);
    meta.k = TV_DICT;
    for (int i = 0; i < a->nkw; i++) {
      uint32_t s = (uint32_t)(a->kw[i].name - I->text);
      meta.u.tu->items[2 * i] = (tt_val){.k = TV_STR, .u.str = {s, s + a->kw[i].len}};
      meta.u.tu->items[2 * i + 1] = tt_v_copy(&a->kw[i].v);
    }
    tt_args la = {.n = 1, .call = a->call};
    la.pos[0] = meta;
    la.posnode[0] = a->call;
    tt_val r = call_lambda(I, &v, &la);
    tt_v_drop(&la.pos[0]);
    v = r;
  }
  grid[0] = grid[1] = grid[2] = 1;
  if (v.k == TV_TUPLE) {
    if (v.u.tu->n < 1 || v.u.tu->n > 3) tt_ev_fail(I, a->call, "a grid has 1 to 3 dims, got %d", v.u.tu->n);
    for (int i = 0; i < v.u.tu->n; i++) grid[i] = tt_v_as_int(I, a->call, &v.u.tu->items[i]);
  } else {
    grid[0] = tt_v_as_int(I, a->call, &v);
  }
  tt_v_drop(&v);
  for (int i = 0; i < 3; i++)
    if (grid[i] < 0) tt_ev_fail(I, a->call, "grid dim %d is negative (%lld)", i, (long long)grid[i]);
}

/* kernel[grid](args): runs the kernel once per program id, each parameter bound to
 * what the dialect makes of its argument (a tensor becomes a pointer). Keyword
 * arguments that name no parameter (num_warps, num_stages) are launch options. */
static tt_val launch(tt_interp *I, const tt_val *l, tt_args *a) {
  if (!I->lib->launch_arg) tt_ev_fail(I, a->call, "%s has no kernel[grid](...) launches", I->lib->dialect);
  int fi = l->u.tu->items[0].u.fn;
  const tt_func *fn = &I->funcs[fi];
  TSNode names[TT_MAX_ARGS + 4], dflts[TT_MAX_ARGS + 4];
  int np = params_of(I, fn->def, names, dflts, TT_MAX_ARGS + 4);
  if (np < 0 || np > TT_MAX_ARGS) tt_ev_fail(I, a->call, "kernel '%.*s' has a parameter form the interpreter does not launch", (int)fn->name_len, fn->name);
  const tt_val *given[TT_MAX_ARGS] = {0};
  for (int i = 0; i < a->n; i++) {
    if (i >= np) tt_ev_fail(I, a->posnode[i], "kernel '%.*s' takes %d parameters, %d given", (int)fn->name_len, fn->name, np, a->n);
    given[i] = &a->pos[i];
  }
  for (int k = 0; k < a->nkw; k++)
    for (int i = 0; i < np; i++) {
      uint32_t len;
      const char *s = tt_ev_node_text(I, names[i], &len);
      if (len == a->kw[k].len && !memcmp(s, a->kw[k].name, len)) given[i] = &a->kw[k].v;
    }
  /* annotations once per launch: ts_node_parent walks down from the root */
  TSNode anns[TT_MAX_ARGS];
  for (int i = 0; i < np; i++) {
    TSNode p = ts_node_parent(names[i]);
    anns[i] = type_is(p, "typed_parameter") || type_is(p, "typed_default_parameter") ? FIELD(p, F_TYPE) : (TSNode){0};
  }
  int64_t grid[3];
  launch_grid(I, &l->u.tu->items[1], a, grid);
  int64_t saved[3] = {I->bid[0], I->bid[1], I->bid[2]}, saved_grid[3] = {I->grid[0], I->grid[1], I->grid[2]};
  memcpy(I->grid, grid, sizeof grid);
  for (int64_t z = 0; z < grid[2]; z++)
    for (int64_t y = 0; y < grid[1]; y++)
      for (int64_t x = 0; x < grid[0]; x++) {
        I->bid[0] = x, I->bid[1] = y, I->bid[2] = z;
        tt_args ka = {.n = np, .call = a->call};
        for (int i = 0; i < np; i++) {
          ka.posnode[i] = names[i];
          ka.pos[i] = tt_v_none();
        }
        for (int i = 0; i < np; i++) {
          if (given[i]) ka.pos[i] = I->lib->launch_arg(I, names[i], anns[i], tt_v_copy(given[i]));
          else if (!ts_node_is_null(dflts[i])) ka.pos[i] = eval(I, &I->globals, dflts[i]);
          else tt_ev_fail(I, a->call, "the launch gives no value for parameter '%.*s'", (int)(ts_node_end_byte(names[i]) - ts_node_start_byte(names[i])), I->text + ts_node_start_byte(names[i]));
        }
        tt_val r = call_function(I, fi, &ka);
        tt_v_drop(&r);
        for (int i = 0; i < np; i++) tt_v_drop(&ka.pos[i]);
      }
  memcpy(I->bid, saved, sizeof saved);
  memcpy(I->grid, saved_grid, sizeof saved_grid);
  return tt_v_none();
}

/* ---- loading --------------------------------------------------------------- */

static void bind_import(tt_interp *I, TSNode stmt) {
  for (TSNode c = ts_node_named_child(stmt, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    TSNode dotted = c, alias = {0};
    if (type_is(c, "aliased_import")) {
      dotted = FIELD(c, F_NAME);
      alias = FIELD(c, F_ALIAS);
    } else if (!type_is(c, "dotted_name")) {
      continue;
    }
    uint32_t dl;
    const char *ds = tt_ev_node_text(I, dotted, &dl);
    int mod = I->lib->module_for_import(ds, dl);
    if (mod < 0) continue; /* host-side imports (torch, argparse) are not bound */
    TSNode bind = ts_node_is_null(alias) ? ts_node_named_child(dotted, 0) : alias;
    uint32_t bl;
    const char *bs = tt_ev_node_text(I, bind, &bl);
    tt_ev_frame_set(I, &I->globals, bs, bl, (tt_val){.k = TV_MODULE, .u.mod = mod});
  }
}

/* from triton.language.extra import libdevice [as ld]: binds the dotted module. */
static void bind_import_from(tt_interp *I, TSNode stmt) {
  TSNode from = FIELD(stmt, F_MODULE_NAME);
  uint32_t fl;
  const char *fs = tt_ev_node_text(I, from, &fl);
  for (TSNode c = ts_node_named_child(stmt, 0); !ts_node_is_null(c); c = ts_node_next_named_sibling(c)) {
    if (ts_node_eq(c, from)) continue;
    TSNode name = c, alias = c;
    if (type_is(c, "aliased_import")) {
      name = FIELD(c, F_NAME);
      alias = FIELD(c, F_ALIAS);
    } else if (!type_is(c, "dotted_name")) {
      continue;
    }
    uint32_t nl, al;
    const char *ns = tt_ev_node_text(I, name, &nl), *as = tt_ev_node_text(I, alias, &al);
    char *dotted = tt_xasprintf("%.*s.%.*s", (int)fl, fs, (int)nl, ns);
    int mod = I->lib->module_for_import(dotted, (uint32_t)strlen(dotted));
    free(dotted);
    if (mod >= 0) tt_ev_frame_set(I, &I->globals, as, al, (tt_val){.k = TV_MODULE, .u.mod = mod});
  }
}

static bool decorated_as_kernel(tt_interp *I, TSNode decorated) {
  for (TSNode d = ts_node_named_child(decorated, 0); !ts_node_is_null(d); d = ts_node_next_named_sibling(d)) {
    if (!type_is(d, "decorator")) continue;
    TSNode e = ts_node_named_child(d, 0);
    if (type_is(e, "call")) e = FIELD(e, F_FUNCTION);
    if (!type_is(e, "attribute")) continue;
    TSNode obj = FIELD(e, F_OBJECT), attr = FIELD(e, F_ATTRIBUTE);
    if (!type_is(obj, "identifier")) continue;
    uint32_t ol, al;
    const char *os = tt_ev_node_text(I, obj, &ol), *as = tt_ev_node_text(I, attr, &al);
    tt_binding *b = tt_ev_frame_find(&I->globals, os, ol);
    tt_val v;
    if (b && b->v.k == TV_MODULE && I->lib->module_attr(I, b->v.u.mod, as, al, &v) && v.k == TV_BUILTIN &&
        v.u.b->kernel_decorator)
      return true;
  }
  return false;
}

void tt_ev_add_func(tt_interp *I, TSNode def, TSNode name, bool kernel) {
  I->funcs = tt_xrealloc(I->funcs, sizeof *I->funcs * (size_t)(I->nfuncs + 1));
  uint32_t len;
  const char *s = tt_ev_node_text(I, name, &len);
  I->funcs[I->nfuncs++] = (tt_func){s, len, def, kernel};
}

static int add_func(tt_interp *I, TSNode def, bool kernel) {
  tt_ev_add_func(I, def, FIELD(def, F_NAME), kernel);
  return 0;
}

/* Module-level assignments (ConstInt = ct.Constant[int], GROUP = 8) are evaluated
 * once at load; one that needs the host (torch, argparse) is skipped, and a kernel
 * that names it later fails with "not defined" at its use. */
static void eval_global(tt_interp *I, TSNode stmt) {
  jmp_buf *outer = I->on_error, here;
  I->on_error = &here;
  if (!setjmp(here)) exec_stmt(I, &I->globals, stmt, &(tt_val){0});
  I->on_error = outer;
  free(I->err);
  I->err = NULL;
}

int tt_ev_load(tt_interp *I, const char *path, const char *text, size_t len, const tt_lib *lib,
               char **err) {
  memset(I, 0, sizeof *I);
  I->path = path, I->text = text, I->len = (uint32_t)len, I->lib = lib;
  init_fields(I);
  TSParser *ps = ts_parser_new();
  const tt_front *fe = lib->front;
  ts_parser_set_language(ps, tt_lang_grammar(fe ? (tt_lang)fe->lang : TT_LANG_PYTHON));
  I->tree = ts_parser_parse_string(ps, NULL, text, (uint32_t)len);
  ts_parser_delete(ps);
  TSNode root = ts_tree_root_node(I->tree);
  if (ts_node_has_error(root)) {
    TSNode bad = root;
    /* the first ERROR or MISSING node, for the position */
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      if (ts_node_is_error(n) || ts_node_is_missing(n)) {
        bad = n;
        break;
      }
      if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
      while (!ts_tree_cursor_goto_next_sibling(&c))
        if (!ts_tree_cursor_goto_parent(&c)) goto done;
    }
  done:
    ts_tree_cursor_delete(&c);
    TSPoint p = ts_node_start_point(bad);
    *err = tt_xasprintf("%s:%u:%u: the file does not parse as %s", path, p.row + 1, p.column + 1,
                        fe ? fe->language : "Python");
    tt_ev_unload(I);
    return -1;
  }
  jmp_buf here;
  I->on_error = &here;
  if (setjmp(here)) {
    *err = I->err;
    I->err = NULL;
    tt_ev_unload(I);
    return -1;
  }
  if (fe) {
    fe->scan(I, root);
    I->on_error = NULL;
    return 0;
  }
  for (TSNode s = ts_node_named_child(root, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
    if (type_is(s, "import_statement")) bind_import(I, s);
    if (type_is(s, "import_from_statement")) bind_import_from(I, s);
  }
  for (TSNode s = ts_node_named_child(root, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
    int rc = 0;
    if (type_is(s, "function_definition")) rc = add_func(I, s, false);
    else if (type_is(s, "decorated_definition")) {
      TSNode def = FIELD(s, F_DEFINITION);
      if (type_is(def, "function_definition")) rc = add_func(I, def, decorated_as_kernel(I, s));
    } else if (type_is(s, "expression_statement")) eval_global(I, s);
    if (rc) tt_ev_fail(I, s, "out of memory");
  }
  if (I->pool.live) tt_ev_fail(I, root, "module-level tiles are not supported; make them inside the kernel");
  I->on_error = NULL;
  return 0;
}

void tt_ev_unload(tt_interp *I) {
  tt_ev_frame_clear(&I->globals);
  while (I->tuples) {
    tt_tuple *t = I->tuples;
    for (int i = 0; i < t->n; i++) t->items[i].k = TV_NONE; /* tiles go with the pool */
    tuple_unlink_free(t);
  }
  tt_tpool_clear(&I->pool);
  free(I->funcs);
  free(I->lambdas);
  for (uint32_t i = 0; i < I->cap_kids; i++) free(I->kids[i].nodes);
  free(I->kids);
  if (I->tree) ts_tree_delete(I->tree);
  free(I->err);
  memset(I, 0, sizeof *I);
}

/* Frees what an unwound run left alive: tuples (their tiles go with the pool). */
static void free_run_leftovers(tt_interp *I, tt_tuple *keep) {
  tt_tuple *t = I->tuples;
  while (t && t != keep) {
    tt_tuple *next = t->next;
    for (int i = 0; i < t->n; i++) t->items[i].k = TV_NONE;
    tuple_unlink_free(t);
    t = next;
  }
}

int tt_ev_run(tt_interp *I, const char *kernel, const int64_t grid[3],
              const struct tt_tile_arg *args, size_t nargs, char **err) {
  int fi = tt_ev_func_index(I, kernel, (uint32_t)strlen(kernel));
  if (fi < 0) {
    *err = tt_xasprintf("%s: no kernel function named '%s'", I->path, kernel);
    return -1;
  }
  const tt_func *fn = &I->funcs[fi];
  TSNode names[TT_MAX_ARGS + 4], dflts[TT_MAX_ARGS + 4];
  const tt_front *fe = I->lib->front;
  int np = fe ? fe->params(I, fn->def, names, dflts, TT_MAX_ARGS + 4) : params_of(I, fn->def, names, dflts, TT_MAX_ARGS + 4);
  if (np < 0 || (size_t)np != nargs) {
    TSPoint p = ts_node_start_point(fn->def);
    *err = tt_xasprintf("%s:%u:%u: kernel '%s' takes %d parameters; the spec gives %zu args", I->path,
                        p.row + 1, p.column + 1, kernel, np < 0 ? -np : np, nargs);
    return -1;
  }
  I->args = args, I->nargs = nargs;
  I->nlambdas = 0;
  for (int d = 0; d < 3; d++) I->grid[d] = grid[d] > 0 ? grid[d] : 1;
  /* Globals' tuples stay; everything after this mark belongs to the run. */
  tt_tuple *mark = I->tuples;
  tt_frame fr = {.up = &I->globals};
  jmp_buf here;
  I->on_error = &here;
  if (setjmp(here)) {
    tt_ev_frame_clear(&fr);
    free_run_leftovers(I, mark);
    tt_tpool_clear(&I->pool);
    *err = I->err;
    I->err = NULL;
    I->on_error = NULL;
    I->depth = 0;
    return I->err_runtime ? TT_TILE_E_RUNTIME : TT_TILE_E_COMPILE;
  }
  /* A host entry (Triton's launcher) runs once and launches its kernels itself. */
  int64_t blocks[3] = {I->grid[0], I->grid[1], I->grid[2]};
  if (I->lib->entry_is_host) {
    if (fn->kernel) {
      free(I->err);
      I->err = NULL;
      TSPoint p = ts_node_start_point(fn->def);
      *err = tt_xasprintf("%s:%u:%u: '%s' is a kernel; the spec's entry is the host function that launches it",
                          I->path, p.row + 1, p.column + 1, kernel);
      I->on_error = NULL;
      return TT_TILE_E_COMPILE;
    }
    blocks[0] = blocks[1] = blocks[2] = 1;
  }
  for (int64_t z = 0; z < blocks[2]; z++)
    for (int64_t y = 0; y < blocks[1]; y++)
      for (int64_t x = 0; x < blocks[0]; x++) {
        I->bid[0] = x, I->bid[1] = y, I->bid[2] = z;
        for (int i = 0; i < np; i++) {
          uint32_t len;
          const char *s = tt_ev_node_text(I, names[i], &len);
          tt_val v;
          switch (args[i].kind) {
            case TT_TILE_ARG_ARRAY: v = (tt_val){.k = TV_ARRAY, .u.arr = i}; break;
            case TT_TILE_ARG_INT: v = tt_v_int(args[i].ivalue); break;
            default: v = tt_v_float(args[i].fvalue); break;
          }
          tt_ev_frame_set(I, &fr, s, len, v);
        }
        tt_val ret = tt_v_none();
        if (fe) fe->run_body(I, &fr, fi, &ret);
        else exec_block(I, &fr, FIELD(fn->def, F_BODY), &ret);
        tt_v_drop(&ret);
        tt_ev_frame_clear(&fr);
        fr.up = &I->globals;
      }
  I->on_error = NULL;
  free_run_leftovers(I, mark);
  tt_tpool_clear(&I->pool);
  return 0;
}
