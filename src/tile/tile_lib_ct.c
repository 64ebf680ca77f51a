/* tile_lib_ct.c — the cuTile Python library (`import cuda.tile as ct`) for the
 * evaluator core: ct.* functions, dtypes and PaddingMode, and the attributes and
 * methods of tiles and arrays. Semantics follow cutile-python's documentation
 * (src/tile/README.md lists what is covered). */
#include <math.h>
#include <string.h>

#include "tile/tile_array.h"
#include "tile/tile_eval.h"
#include "tile/tile_lib.h"

enum { MOD_CT, MOD_PADDING, MOD_ROUNDING, MOD_TORCH, MOD_MATH };
enum { ENUM_PADDING = 1, ENUM_ROUNDING };
enum { PAD_UNDETERMINED, PAD_ZERO, PAD_NEG_ZERO, PAD_NAN, PAD_POS_INF, PAD_NEG_INF };

static const char *const pad_names[] = {"UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF"};
/* ct.RoundingMode: accepted as rounding_mode= (with flush_to_zero=) and not modelled:
 * the interpreter computes in IEEE round-to-nearest, within the checks' tolerances. */
static const char *const rounding_names[] = {"RN", "RZ", "RM", "RP", "FULL", "APPROX", "RZI"};

/* The value an out-of-bounds element takes. UNDETERMINED has none on the GPU; the
 * interpreter gives NaN (0 for integer arrays), so a kernel whose result depends on
 * it shows up as a mismatch instead of passing by luck. */
static double pad_value(int mode) {
  switch (mode) {
    case PAD_ZERO: return 0.0;
    case PAD_NEG_ZERO: return -0.0;
    case PAD_POS_INF: return INFINITY;
    case PAD_NEG_INF: return -INFINITY;
    default: return NAN;
  }
}

static const struct { const char *name; tt_tile_dtype dt; } dtypes[] = {
  {"bool_", TT_TILE_BOOL}, {"int8", TT_TILE_I8}, {"int16", TT_TILE_I16}, {"int32", TT_TILE_I32},
  {"int64", TT_TILE_I64}, {"uint8", TT_TILE_U8}, {"uint16", TT_TILE_U16}, {"uint32", TT_TILE_U32},
  {"uint64", TT_TILE_U64}, {"float16", TT_TILE_F16}, {"bfloat16", TT_TILE_BF16},
  {"tfloat32", TT_TILE_TF32}, {"float32", TT_TILE_F32}, {"float64", TT_TILE_F64},
};

/* ---- argument helpers ---------------------------------------------------- */

static const tt_val *need(tt_interp *I, tt_args *a, int pos, const char *kw, const char *fn) {
  const tt_val *v = tt_arg(a, pos, kw);
  if (!v) tt_ev_fail(I, a->call, "ct.%s() needs its '%s' argument", fn, kw);
  return v;
}

static const tt_tile_arg *array_of(tt_interp *I, TSNode at, const tt_val *v, const char *fn) {
  if (v->k != TV_ARRAY) tt_ev_fail(I, at, "ct.%s() takes an array (a kernel parameter), got a %s", fn, tt_v_kind_name(v->k));
  const tt_tile_arg *arr = &I->args[v->u.arr];
  if (arr->kind != TT_TILE_ARG_ARRAY) tt_ev_fail(I, at, "'%s' is not an array", arr->name);
  return arr;
}

static tt_tile_dtype dtype_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (v->k != TV_DTYPE) tt_ev_fail(I, at, "expected a dtype (ct.float32 ...), got a %s", tt_v_kind_name(v->k));
  return v->u.dt;
}

static const tt_tile_t *tile_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (v->k != TV_TILE) tt_ev_fail(I, at, "expected a tile, got a %s", tt_v_kind_name(v->k));
  return v->u.t;
}

static tt_val checked(tt_interp *I, TSNode at, tt_tile_t *t, const tt_err *e) {
  if (!t) tt_ev_fail_op(I, at, e);
  return tt_v_tile(t);
}

static int axis_of(tt_interp *I, TSNode at, const tt_val *v, int ndim) {
  int64_t ax = tt_v_as_int(I, at, v);
  if (ax < 0) ax += ndim;
  if (ax < 0 || ax >= ndim) tt_ev_fail(I, at, "axis %lld is out of range for a %d-d tile", (long long)tt_v_as_int(I, at, v), ndim);
  return (int)ax;
}

/* The compile-time rule of cuTile: every tile dimension is a power of two. */
static void check_pow2(tt_interp *I, TSNode at, int ndim, const int64_t *shape) {
  for (int i = 0; i < ndim; i++)
    if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)))
      tt_ev_fail(I, at, "tile dimension %lld is not a power of two (cuTile requires power-of-two tile shapes)", (long long)shape[i]);
}

/* order: "C", "F" or a tuple of 0-based axes; NULL/absent is "C". */
static int order_of(tt_interp *I, TSNode at, const tt_val *v, int ndim, int *order) {
  for (int i = 0; i < ndim; i++) order[i] = i;
  if (!v) return 0;
  if (v->k == TV_STR) {
    const char *s = I->text + v->u.str.s;
    uint32_t len = v->u.str.e - v->u.str.s;
    if (tt_ev_name_is(s, len, "C")) return 0;
    if (tt_ev_name_is(s, len, "F")) {
      for (int i = 0; i < ndim; i++) order[i] = ndim - 1 - i;
      return 0;
    }
    tt_ev_fail(I, at, "order must be \"C\", \"F\" or a tuple of axes");
  }
  int64_t o[TT_TILE_MAX_DIMS];
  int n = tt_v_as_shape(I, at, v, o);
  if (n != ndim) tt_ev_fail(I, at, "order has %d axes; the array has %d", n, ndim);
  for (int i = 0; i < n; i++) order[i] = (int)o[i];
  return 0;
}

static int index_of(tt_interp *I, TSNode at, const tt_val *v, int ndim, int64_t *index, const char *fn) {
  int n = tt_v_as_shape(I, at, v, index);
  if (n != ndim) tt_ev_fail(I, at, "ct.%s(): the index has %d entries; the array has rank %d", fn, n, ndim);
  return n;
}

/* ---- grid ------------------------------------------------------------------ */

static tt_val ct_bid(tt_interp *I, tt_args *a) {
  int ax = (int)tt_v_as_int(I, tt_arg_node(a, 0, "axis"), need(I, a, 0, "axis", "bid"));
  if (ax < 0 || ax > 2) tt_ev_fail(I, a->call, "ct.bid(%d): the axis is 0, 1 or 2 (cuTile Python counts from 0)", ax);
  return tt_v_int(I->bid[ax]);
}

static tt_val ct_num_blocks(tt_interp *I, tt_args *a) {
  int ax = (int)tt_v_as_int(I, tt_arg_node(a, 0, "axis"), need(I, a, 0, "axis", "num_blocks"));
  if (ax < 0 || ax > 2) tt_ev_fail(I, a->call, "ct.num_blocks(%d): the axis is 0, 1 or 2", ax);
  return tt_v_int(I->grid[ax]);
}

static tt_val ct_cdiv(tt_interp *I, tt_args *a) {
  int64_t x = tt_v_as_int(I, a->call, need(I, a, 0, "x", "cdiv")), y = tt_v_as_int(I, a->call, need(I, a, 1, "y", "cdiv"));
  if (y == 0) tt_ev_fail(I, a->call, "ct.cdiv by zero");
  return tt_v_int((x + y - 1) / y);
}

static tt_val ct_num_tiles(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"axis", "shape", "order", NULL};
  tt_args_check(I, a, "ct.num_tiles", kw, 4);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "num_tiles"), "num_tiles");
  int order[TT_TILE_MAX_DIMS];
  order_of(I, tt_arg_node(a, 3, "order"), tt_arg(a, 3, "order"), arr->ndim, order);
  int ax = axis_of(I, tt_arg_node(a, 1, "axis"), need(I, a, 1, "axis", "num_tiles"), arr->ndim);
  int64_t shape[TT_TILE_MAX_DIMS];
  int n = tt_v_as_shape(I, tt_arg_node(a, 2, "shape"), need(I, a, 2, "shape", "num_tiles"), shape);
  if (n != arr->ndim) tt_ev_fail(I, tt_arg_node(a, 2, "shape"), "ct.num_tiles(): the shape has %d dims; the array has rank %d", n, arr->ndim);
  int64_t ext = arr->shape[order[ax]];
  return tt_v_int((ext + shape[ax] - 1) / shape[ax]);
}

/* ---- memory ---------------------------------------------------------------- */

static int padding_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (!v) return PAD_UNDETERMINED;
  if (v->k != TV_ENUM || v->u.en.type != ENUM_PADDING) tt_ev_fail(I, at, "padding_mode must be a ct.PaddingMode");
  return v->u.en.v;
}

static const char *const mem_kw[] = {"index", "shape", "order", "padding_mode", "latency", "allow_tma",
                                     "check_bounds", "memory_order", "memory_scope", "tile", NULL};

static tt_val ct_load(tt_interp *I, tt_args *a) {
  tt_args_check(I, a, "ct.load", mem_kw, 3);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "load"), "load");
  int64_t index[TT_TILE_MAX_DIMS], shape[TT_TILE_MAX_DIMS];
  index_of(I, tt_arg_node(a, 1, "index"), need(I, a, 1, "index", "load"), arr->ndim, index, "load");
  int n = tt_v_as_shape(I, tt_arg_node(a, 2, "shape"), need(I, a, 2, "shape", "load"), shape);
  if (n != arr->ndim) tt_ev_fail(I, tt_arg_node(a, 2, "shape"), "ct.load(): the shape has %d dims; the array '%s' has rank %d", n, arr->name, arr->ndim);
  check_pow2(I, tt_arg_node(a, 2, "shape"), n, shape);
  int order[TT_TILE_MAX_DIMS];
  order_of(I, tt_arg_node(a, -1, "order"), tt_arg(a, -1, "order"), arr->ndim, order);
  tt_view v;
  tt_err e;
  if (tt_view_make(arr, order, &v, &e)) tt_ev_fail_op(I, tt_arg_node(a, -1, "order"), &e);
  double pad = pad_value(padding_of(I, tt_arg_node(a, -1, "padding_mode"), tt_arg(a, -1, "padding_mode")));
  return checked(I, a->call, tt_view_load(&I->pool, &v, index, shape, pad, &e), &e);
}

static tt_val ct_store(tt_interp *I, tt_args *a) {
  tt_args_check(I, a, "ct.store", mem_kw, 3);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "store"), "store");
  int64_t index[TT_TILE_MAX_DIMS];
  index_of(I, tt_arg_node(a, 1, "index"), need(I, a, 1, "index", "store"), arr->ndim, index, "store");
  const tt_val *tv = need(I, a, 2, "tile", "store");
  TSNode tn = tt_arg_node(a, 2, "tile");
  tt_tile_t *t = tt_v_as_tile(I, tn, tv, tt_tile_dtype_size(arr->dtype) ? arr->dtype : TT_TILE_F32);
  tt_err e;
  if (t->ndim != arr->ndim) {
    /* a scalar or lower-rank tile broadcasts to the array's rank (shape of 1s added) */
    int64_t shape[TT_TILE_MAX_DIMS];
    for (int i = 0; i < arr->ndim; i++) shape[i] = 1;
    for (int i = 0; i < t->ndim && i < arr->ndim; i++) shape[arr->ndim - t->ndim + i] = t->shape[i];
    tt_tile_t *r = t->ndim < arr->ndim ? tt_op_reshape(&I->pool, t, arr->ndim, shape, &e) : NULL;
    tt_tile_release(t);
    if (!r) tt_ev_fail(I, tn, "ct.store(): a %d-d tile into the %d-d array '%s'", tv->k == TV_TILE ? tv->u.t->ndim : 0, arr->ndim, arr->name);
    t = r;
  }
  int order[TT_TILE_MAX_DIMS];
  order_of(I, tt_arg_node(a, -1, "order"), tt_arg(a, -1, "order"), arr->ndim, order);
  tt_view v;
  int rc = tt_view_make(arr, order, &v, &e) || tt_view_store(&v, index, t, &e);
  tt_tile_release(t);
  if (rc) tt_ev_fail_op(I, a->call, &e);
  return tt_v_none();
}

/* Index tuples of gather/scatter, broadcast to one shape. Fills idx (owned) and the
 * shape; returns the rank of that shape. */
static int gather_indices(tt_interp *I, tt_args *a, const tt_tile_arg *arr, tt_tile_t **idx, int64_t *shape) {
  const tt_val *iv = need(I, a, 1, "indices", "gather");
  TSNode at = tt_arg_node(a, 1, "indices");
  int n = iv->k == TV_TUPLE ? iv->u.tu->n : 1;
  if (n != arr->ndim) tt_ev_fail(I, at, "the index tuple has %d entries; the array '%s' has rank %d", n, arr->name, arr->ndim);
  int nd = 0;
  for (int d = 0; d < n; d++) {
    const tt_val *x = iv->k == TV_TUPLE ? &iv->u.tu->items[d] : iv;
    idx[d] = tt_v_as_tile(I, at, x, TT_TILE_I32);
    if (!tt_dtype_is_int(idx[d]->dtype)) tt_ev_fail(I, at, "gather/scatter indices must be integers");
    tt_err e;
    int64_t s2[TT_TILE_MAX_DIMS];
    if (tt_broadcast_shape(nd, shape, idx[d]->ndim, idx[d]->shape, TT_ALIGN_RIGHT, &nd, s2, &e)) tt_ev_fail_op(I, at, &e);
    memcpy(shape, s2, sizeof s2);
  }
  for (int d = 0; d < n; d++) {
    if (idx[d]->ndim == nd && !memcmp(idx[d]->shape, shape, sizeof(int64_t) * (size_t)nd)) continue;
    tt_err e;
    tt_tile_t *b = tt_op_broadcast_to(&I->pool, idx[d], nd, shape, TT_ALIGN_RIGHT, &e);
    if (!b) tt_ev_fail_op(I, at, &e);
    tt_tile_release(idx[d]);
    idx[d] = b;
  }
  return nd;
}

static tt_tile_t *mask_of(tt_interp *I, tt_args *a, int nd, const int64_t *shape) {
  const tt_val *m = tt_arg(a, -1, "mask");
  if (!m || m->k == TV_NONE) return NULL;
  tt_tile_t *t = tt_v_as_tile(I, tt_arg_node(a, -1, "mask"), m, TT_TILE_BOOL);
  tt_err e;
  tt_tile_t *b = tt_op_broadcast_to(&I->pool, t, nd, shape, TT_ALIGN_RIGHT, &e);
  tt_tile_release(t);
  if (!b) tt_ev_fail_op(I, tt_arg_node(a, -1, "mask"), &e);
  return b;
}

static tt_val ct_gather(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"mask", "padding_value", "check_bounds", "latency", NULL};
  tt_args_check(I, a, "ct.gather", kw, 2);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "gather"), "gather");
  tt_tile_t *idx[TT_TILE_MAX_DIMS] = {0};
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = gather_indices(I, a, arr, idx, shape);
  tt_tile_t *mask = mask_of(I, a, nd, shape);
  const tt_val *pv = tt_arg(a, -1, "padding_value");
  double pad = pv ? tt_v_as_float(I, tt_arg_node(a, -1, "padding_value"), pv) : 0.0;
  tt_err e;
  tt_tile_t *r = tt_array_gather(&I->pool, arr, idx, nd, shape, mask, pad, &e);
  for (int d = 0; d < arr->ndim; d++) tt_tile_release(idx[d]);
  tt_tile_release(mask);
  return checked(I, a->call, r, &e);
}

static tt_val ct_scatter(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"mask", "check_bounds", "latency", NULL};
  tt_args_check(I, a, "ct.scatter", kw, 3);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "scatter"), "scatter");
  tt_tile_t *idx[TT_TILE_MAX_DIMS] = {0};
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = gather_indices(I, a, arr, idx, shape);
  tt_tile_t *mask = mask_of(I, a, nd, shape);
  tt_tile_t *v = tt_v_as_tile(I, tt_arg_node(a, 2, "value"), need(I, a, 2, "value", "scatter"), arr->dtype);
  tt_err e;
  tt_tile_t *vb = tt_op_broadcast_to(&I->pool, v, nd, shape, TT_ALIGN_RIGHT, &e);
  tt_tile_release(v);
  if (!vb) tt_ev_fail_op(I, tt_arg_node(a, 2, "value"), &e);
  tt_array_scatter(arr, idx, vb, mask, &e);
  for (int d = 0; d < arr->ndim; d++) tt_tile_release(idx[d]);
  tt_tile_release(mask);
  tt_tile_release(vb);
  return tt_v_none();
}

/* ---- construction ---------------------------------------------------------- */

static tt_val make_full(tt_interp *I, tt_args *a, const tt_val *fill, const char *fn) {
  int64_t shape[TT_TILE_MAX_DIMS];
  TSNode sn = tt_arg_node(a, 0, "shape");
  int nd = tt_v_as_shape(I, sn, need(I, a, 0, "shape", fn), shape);
  check_pow2(I, sn, nd, shape);
  tt_tile_dtype dt = dtype_of(I, tt_arg_node(a, fill == NULL ? 2 : 1, "dtype"), need(I, a, fill == NULL ? 2 : 1, "dtype", fn));
  const tt_val *fv = fill ? fill : need(I, a, 1, "fill_value", fn);
  double f = tt_v_as_float(I, a->call, fv);
  tt_err e;
  return checked(I, a->call, tt_op_full(&I->pool, dt, nd, shape, f, fv->k == TV_FLOAT ? (isfinite(f) ? (int64_t)f : 0) : tt_v_as_int(I, a->call, fv), &e), &e);
}

static tt_val ct_full(tt_interp *I, tt_args *a) { return make_full(I, a, NULL, "full"); }
static tt_val ct_zeros(tt_interp *I, tt_args *a) {
  tt_val z = tt_v_int(0);
  return make_full(I, a, &z, "zeros");
}
static tt_val ct_ones(tt_interp *I, tt_args *a) {
  tt_val o = tt_v_int(1);
  return make_full(I, a, &o, "ones");
}

static tt_val ct_arange(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"dtype", "start", "step", NULL};
  tt_args_check(I, a, "ct.arange", kw, 1);
  int64_t n = tt_v_as_int(I, a->call, need(I, a, 0, "size", "arange"));
  check_pow2(I, a->posnode[0], 1, &n);
  tt_tile_dtype dt = dtype_of(I, tt_arg_node(a, -1, "dtype"), need(I, a, -1, "dtype", "arange"));
  const tt_val *st = tt_arg(a, -1, "start"), *sp = tt_arg(a, -1, "step");
  tt_err e;
  return checked(I, a->call, tt_op_arange(&I->pool, dt, n, st ? tt_v_as_int(I, a->call, st) : 0,
                                          sp ? tt_v_as_int(I, a->call, sp) : 1, &e), &e);
}

/* ---- shape and type -------------------------------------------------------- */

static tt_val do_astype(tt_interp *I, TSNode at, const tt_val *x, const tt_val *dtv) {
  tt_tile_dtype dt = dtype_of(I, at, dtv);
  tt_tile_t *t = tt_v_as_tile(I, at, x, dt);
  tt_err e;
  tt_tile_t *r = t->dtype == dt ? tt_tile_ref(t) : tt_op_cast(&I->pool, t, dt, &e);
  tt_tile_release(t);
  return checked(I, at, r, &e);
}

static tt_val do_reshape(tt_interp *I, TSNode at, const tt_tile_t *t, const tt_val *sv) {
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = sv->k == TV_TUPLE && sv->u.tu->n == 0 ? 0 : tt_v_as_shape(I, at, sv, shape);
  int64_t known = 1;
  int infer = -1;
  for (int i = 0; i < nd; i++) {
    if (shape[i] == -1 && infer < 0) infer = i;
    else known *= shape[i];
  }
  if (infer >= 0) shape[infer] = known ? t->n / known : 0;
  tt_err e;
  return checked(I, at, tt_op_reshape(&I->pool, t, nd, shape, &e), &e);
}

static tt_val do_permute(tt_interp *I, TSNode at, const tt_tile_t *t, const tt_val *axes) {
  int64_t ax[TT_TILE_MAX_DIMS];
  int n = tt_v_as_shape(I, at, axes, ax);
  if (n != t->ndim) tt_ev_fail(I, at, "permute of a %d-d tile takes %d axes, got %d", t->ndim, t->ndim, n);
  int perm[TT_TILE_MAX_DIMS];
  for (int i = 0; i < n; i++) perm[i] = (int)ax[i];
  tt_err e;
  return checked(I, at, tt_op_permute(&I->pool, t, perm, &e), &e);
}

static tt_val do_transpose(tt_interp *I, TSNode at, const tt_tile_t *t, const tt_val *a0, const tt_val *a1) {
  int perm[TT_TILE_MAX_DIMS];
  for (int i = 0; i < t->ndim; i++) perm[i] = i;
  if (t->ndim < 2) tt_ev_fail(I, at, "transpose of a %d-d tile", t->ndim);
  int x = a0 && a0->k != TV_NONE ? axis_of(I, at, a0, t->ndim) : t->ndim - 2;
  int y = a1 && a1->k != TV_NONE ? axis_of(I, at, a1, t->ndim) : t->ndim - 1;
  perm[x] = y, perm[y] = x;
  tt_err e;
  return checked(I, at, tt_op_permute(&I->pool, t, perm, &e), &e);
}

static tt_val ct_astype(tt_interp *I, tt_args *a) {
  return do_astype(I, a->call, need(I, a, 0, "x", "astype"), need(I, a, 1, "dtype", "astype"));
}
static tt_val ct_reshape(tt_interp *I, tt_args *a) {
  return do_reshape(I, a->call, tile_of(I, a->posnode[0], need(I, a, 0, "x", "reshape")), need(I, a, 1, "shape", "reshape"));
}
static tt_val ct_permute(tt_interp *I, tt_args *a) {
  return do_permute(I, a->call, tile_of(I, a->posnode[0], need(I, a, 0, "x", "permute")), need(I, a, 1, "axes", "permute"));
}
static tt_val ct_transpose(tt_interp *I, tt_args *a) {
  return do_transpose(I, a->call, tile_of(I, a->posnode[0], need(I, a, 0, "x", "transpose")), tt_arg(a, 1, "axis0"), tt_arg(a, 2, "axis1"));
}

static tt_val ct_expand_dims(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "x", "expand_dims"));
  int64_t ax = tt_v_as_int(I, a->call, need(I, a, 1, "axis", "expand_dims"));
  if (ax < 0) ax += t->ndim + 1;
  if (ax < 0 || ax > t->ndim || t->ndim == TT_TILE_MAX_DIMS) tt_ev_fail(I, a->call, "expand_dims axis out of range");
  int64_t shape[TT_TILE_MAX_DIMS];
  for (int i = 0, o = 0; i <= t->ndim; i++) {
    if (i == ax) shape[o++] = 1;
    if (i < t->ndim) shape[o++] = t->shape[i];
  }
  tt_err e;
  return checked(I, a->call, tt_op_reshape(&I->pool, t, t->ndim + 1, shape, &e), &e);
}

static tt_val ct_broadcast_to(tt_interp *I, tt_args *a) {
  tt_tile_t *t = tt_v_as_tile(I, a->posnode[0], need(I, a, 0, "x", "broadcast_to"), TT_TILE_F32);
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = tt_v_as_shape(I, a->call, need(I, a, 1, "shape", "broadcast_to"), shape);
  tt_err e;
  tt_tile_t *r = tt_op_broadcast_to(&I->pool, t, nd, shape, TT_ALIGN_RIGHT, &e);
  tt_tile_release(t);
  return checked(I, a->call, r, &e);
}

static tt_val ct_cat(tt_interp *I, tt_args *a) {
  const tt_val *tv = need(I, a, 0, "tiles", "cat");
  if (tv->k != TV_TUPLE || tv->u.tu->n != 2) tt_ev_fail(I, a->call, "ct.cat() takes a tuple of two tiles");
  const tt_tile_t *x = tile_of(I, a->call, &tv->u.tu->items[0]), *y = tile_of(I, a->call, &tv->u.tu->items[1]);
  int ax = axis_of(I, a->call, need(I, a, 1, "axis", "cat"), x->ndim);
  tt_err e;
  return checked(I, a->call, tt_op_cat(&I->pool, x, y, ax, &e), &e);
}

/* ct.extract(x, index, shape): the sub-tile of `shape` at 0-based tile index `index`. */
static tt_val ct_extract(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"index", "shape", NULL};
  tt_args_check(I, a, "extract", kw, 3);
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "x", "extract"));
  int64_t idx[TT_TILE_MAX_DIMS], shape[TT_TILE_MAX_DIMS];
  int ni = tt_v_as_shape(I, a->call, need(I, a, 1, "index", "extract"), idx);
  int ns = tt_v_as_shape(I, a->call, need(I, a, 2, "shape", "extract"), shape);
  if (ni != t->ndim || ns != t->ndim)
    tt_ev_fail(I, a->call, "ct.extract() of a %d-d tile takes a %d-tuple index and shape, got %d and %d", t->ndim, t->ndim, ni, ns);
  tt_err e;
  return checked(I, a->call, tt_op_extract(&I->pool, t, idx, shape, &e), &e);
}

/* ---- matmul ---------------------------------------------------------------- */

/* mma keeps the accumulator's dtype; its operands must be of one dtype. */
static tt_val ct_mma(tt_interp *I, tt_args *a) {
  const tt_tile_t *x = tile_of(I, a->posnode[0], need(I, a, 0, "x", "mma"));
  const tt_tile_t *y = tile_of(I, tt_arg_node(a, 1, "y"), need(I, a, 1, "y", "mma"));
  const tt_tile_t *acc = tile_of(I, tt_arg_node(a, 2, "acc"), need(I, a, 2, "acc", "mma"));
  if (x->dtype != y->dtype)
    tt_ev_fail(I, a->call, "ct.mma() operands are %s and %s; they must have one dtype", tt_tile_dtype_name(x->dtype), tt_tile_dtype_name(y->dtype));
  tt_err e;
  return checked(I, a->call, tt_op_matmul(&I->pool, x, y, acc, acc->dtype, &e), &e);
}

static tt_val ct_matmul(tt_interp *I, tt_args *a) {
  const tt_tile_t *x = tile_of(I, a->posnode[0], need(I, a, 0, "x", "matmul"));
  const tt_tile_t *y = tile_of(I, tt_arg_node(a, 1, "y"), need(I, a, 1, "y", "matmul"));
  tt_err e;
  return checked(I, a->call, tt_op_matmul(&I->pool, x, y, NULL, tt_dtype_promote(x->dtype, y->dtype), &e), &e);
}

/* ---- elementwise ------------------------------------------------------------ */


#define UNARY(name, op) \
  static tt_val ct_##name(tt_interp *I, tt_args *a) { return tt_ev_unary_call(I, a, op, "a math function takes a tile"); }
UNARY(exp, TT_OP_EXP)
UNARY(exp2, TT_OP_EXP2)
UNARY(log, TT_OP_LOG)
UNARY(log2, TT_OP_LOG2)
UNARY(sqrt, TT_OP_SQRT)
UNARY(rsqrt, TT_OP_RSQRT)
UNARY(tanh, TT_OP_TANH)
UNARY(sin, TT_OP_SIN)
UNARY(cos, TT_OP_COS)
UNARY(floor, TT_OP_FLOOR)
UNARY(ceil, TT_OP_CEIL)
UNARY(abs, TT_OP_ABS)
UNARY(negative, TT_OP_NEG)
UNARY(bitwise_not, TT_OP_INVERT)


#define BINARY(name, op) \
  static tt_val ct_##name(tt_interp *I, tt_args *a) { return tt_ev_binary_call(I, a, op); }
BINARY(add, TT_OP_ADD)
BINARY(sub, TT_OP_SUB)
BINARY(mul, TT_OP_MUL)
BINARY(truediv, TT_OP_DIV)
BINARY(floordiv, TT_OP_FLOORDIV)
BINARY(mod, TT_OP_MOD)
BINARY(pow, TT_OP_POW)
BINARY(atan2, TT_OP_ATAN2)
BINARY(maximum, TT_OP_MAX)
BINARY(minimum, TT_OP_MIN)
BINARY(bitwise_and, TT_OP_AND)
BINARY(bitwise_or, TT_OP_OR)
BINARY(bitwise_xor, TT_OP_XOR)
BINARY(bitwise_lshift, TT_OP_SHL)
BINARY(bitwise_rshift, TT_OP_SHR)
BINARY(greater, TT_OP_GT)
BINARY(greater_equal, TT_OP_GE)
BINARY(less, TT_OP_LT)
BINARY(less_equal, TT_OP_LE)
BINARY(equal, TT_OP_EQ)
BINARY(not_equal, TT_OP_NE)

static tt_val ct_where(tt_interp *I, tt_args *a) { return tt_ev_where_call(I, a, "ct.where"); }

/* ---- reductions ------------------------------------------------------------ */

/* axis None reduces every axis; a tuple reduces each, highest first. */
static tt_val reduce(tt_interp *I, tt_args *a, tt_redop op, const char *fn) {
  static const char *const kw[] = {"axis", "keepdims", "rounding_mode", "flush_to_zero", NULL};
  tt_args_check(I, a, fn, kw, 3);
  tt_tile_t *t = tt_v_as_tile(I, a->posnode[0], need(I, a, 0, "x", fn), TT_TILE_F32);
  const tt_val *axv = tt_arg(a, 1, "axis"), *kdv = tt_arg(a, 2, "keepdims");
  bool keep = kdv && tt_v_truthy(I, a->call, kdv);
  bool axes[TT_TILE_MAX_DIMS] = {false};
  TSNode an = tt_arg_node(a, 1, "axis");
  if (!axv || axv->k == TV_NONE) {
    for (int i = 0; i < t->ndim; i++) axes[i] = true;
  } else if (axv->k == TV_TUPLE) {
    for (int i = 0; i < axv->u.tu->n; i++) axes[axis_of(I, an, &axv->u.tu->items[i], t->ndim)] = true;
  } else {
    axes[axis_of(I, an, axv, t->ndim)] = true;
  }
  if ((op == TT_RED_ARGMAX || op == TT_RED_ARGMIN) && (!axv || axv->k != TV_INT))
    tt_ev_fail(I, a->call, "%s over more than one axis is not supported by the interpreter", fn);
  for (int ax = t->ndim - 1; ax >= 0; ax--) {
    if (!axes[ax]) continue;
    tt_err e;
    tt_tile_t *r = tt_op_reduce(&I->pool, op, t, ax, keep, &e);
    tt_tile_release(t);
    if (!r) tt_ev_fail_op(I, a->call, &e);
    t = r;
  }
  return tt_v_tile(t);
}

#define REDUCE(name, op) \
  static tt_val ct_##name(tt_interp *I, tt_args *a) { return reduce(I, a, op, "ct." #name); }
REDUCE(sum, TT_RED_SUM)
REDUCE(prod, TT_RED_PROD)
REDUCE(max, TT_RED_MAX)
REDUCE(min, TT_RED_MIN)
REDUCE(argmax, TT_RED_ARGMAX)
REDUCE(argmin, TT_RED_ARGMIN)

static tt_val ct_cumsum(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "x", "cumsum"));
  int ax = axis_of(I, a->call, need(I, a, 1, "axis", "cumsum"), t->ndim);
  tt_err e;
  return checked(I, a->call, tt_op_cumsum(&I->pool, t, ax, &e), &e);
}

static tt_val ct_not_callable(tt_interp *I, tt_args *a) {
  tt_ev_fail(I, a->call, "this cuTile name is a decorator or annotation, not a kernel function");
}

static const tt_builtin ct_builtins[] = {
  {"kernel", ct_not_callable, true}, {"Constant", ct_not_callable, false}, {"ByTarget", ct_not_callable, false},
  {"bid", ct_bid, false}, {"num_blocks", ct_num_blocks, false}, {"num_tiles", ct_num_tiles, false}, {"cdiv", ct_cdiv, false},
  {"load", ct_load, false}, {"store", ct_store, false}, {"gather", ct_gather, false}, {"scatter", ct_scatter, false},
  {"full", ct_full, false}, {"zeros", ct_zeros, false}, {"ones", ct_ones, false}, {"arange", ct_arange, false},
  {"astype", ct_astype, false}, {"reshape", ct_reshape, false}, {"permute", ct_permute, false}, {"transpose", ct_transpose, false},
  {"expand_dims", ct_expand_dims, false}, {"broadcast_to", ct_broadcast_to, false}, {"cat", ct_cat, false}, {"extract", ct_extract, false},
  {"mma", ct_mma, false}, {"matmul", ct_matmul, false},
  {"exp", ct_exp, false}, {"exp2", ct_exp2, false}, {"log", ct_log, false}, {"log2", ct_log2, false}, {"sqrt", ct_sqrt, false},
  {"rsqrt", ct_rsqrt, false}, {"tanh", ct_tanh, false}, {"sin", ct_sin, false}, {"cos", ct_cos, false}, {"floor", ct_floor, false},
  {"ceil", ct_ceil, false}, {"abs", ct_abs, false}, {"negative", ct_negative, false}, {"bitwise_not", ct_bitwise_not, false},
  {"add", ct_add, false}, {"sub", ct_sub, false}, {"mul", ct_mul, false}, {"truediv", ct_truediv, false}, {"floordiv", ct_floordiv, false},
  {"mod", ct_mod, false}, {"pow", ct_pow, false}, {"atan2", ct_atan2, false}, {"maximum", ct_maximum, false}, {"minimum", ct_minimum, false},
  {"bitwise_and", ct_bitwise_and, false}, {"bitwise_or", ct_bitwise_or, false}, {"bitwise_xor", ct_bitwise_xor, false},
  {"bitwise_lshift", ct_bitwise_lshift, false}, {"bitwise_rshift", ct_bitwise_rshift, false},
  {"greater", ct_greater, false}, {"greater_equal", ct_greater_equal, false}, {"less", ct_less, false},
  {"less_equal", ct_less_equal, false}, {"equal", ct_equal, false}, {"not_equal", ct_not_equal, false},
  {"where", ct_where, false}, {"sum", ct_sum, false}, {"prod", ct_prod, false}, {"max", ct_max, false}, {"min", ct_min, false},
  {"argmax", ct_argmax, false}, {"argmin", ct_argmin, false}, {"cumsum", ct_cumsum, false},
};

/* ---- the lib table ---------------------------------------------------------- */

static int ct_module_for_import(const char *dotted, uint32_t len) {
  if (tt_ev_name_is(dotted, len, "cuda.tile")) return MOD_CT;
  if (tt_ev_name_is(dotted, len, "cuda.tile.PaddingMode")) return MOD_PADDING;
  if (tt_ev_name_is(dotted, len, "cuda.tile.RoundingMode")) return MOD_ROUNDING;
  /* kernels may name torch's dtypes (ct.arange(n, dtype=torch.int32)); nothing else of torch */
  if (tt_ev_name_is(dotted, len, "torch")) return MOD_TORCH;
  return tt_ev_name_is(dotted, len, "math") ? MOD_MATH : -1; /* its constants: -math.inf paddings */
}

static bool math_constant(const char *name, uint32_t len, tt_val *out) {
  static const struct { const char *name; double v; } k[] = {
    {"inf", INFINITY}, {"nan", NAN}, {"pi", 3.14159265358979323846}, {"e", 2.71828182845904523536}};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (tt_ev_name_is(name, len, k[i].name)) {
      *out = tt_v_float(k[i].v);
      return true;
    }
  return false;
}

static bool enum_attr(const char *const *names, int n, int type, const char *name, uint32_t len, tt_val *out) {
  for (int i = 0; i < n; i++)
    if (tt_ev_name_is(name, len, names[i])) {
      *out = (tt_val){.k = TV_ENUM, .u.en = {type, i}};
      return true;
    }
  return false;
}

static bool find_dtype(const char *name, uint32_t len, tt_val *out) {
  for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
    if (tt_ev_name_is(name, len, dtypes[i].name)) {
      *out = tt_v_dtype(dtypes[i].dt);
      return true;
    }
  return false;
}

static bool ct_module_attr(tt_interp *I, int mod, const char *name, uint32_t len, tt_val *out) {
  if (mod == MOD_PADDING) return enum_attr(pad_names, (int)(sizeof pad_names / sizeof *pad_names), ENUM_PADDING, name, len, out);
  if (mod == MOD_ROUNDING)
    return enum_attr(rounding_names, (int)(sizeof rounding_names / sizeof *rounding_names), ENUM_ROUNDING, name, len, out);
  if (mod == MOD_TORCH) return find_dtype(name, len, out);
  if (mod == MOD_MATH) return math_constant(name, len, out);
  if (tt_ev_name_is(name, len, "PaddingMode") || tt_ev_name_is(name, len, "RoundingMode")) {
    *out = (tt_val){.k = TV_MODULE, .u.mod = name[0] == 'P' ? MOD_PADDING : MOD_ROUNDING};
    return true;
  }
  if (find_dtype(name, len, out)) return true;
  for (size_t i = 0; i < sizeof ct_builtins / sizeof *ct_builtins; i++)
    if (tt_ev_name_is(name, len, ct_builtins[i].name)) {
      *out = (tt_val){.k = TV_BUILTIN, .u.b = &ct_builtins[i]};
      return true;
    }
  return false;
}

static tt_val shape_tuple(tt_interp *I, int nd, const int64_t *shape) {
  tt_val t = tt_v_tuple(I, nd);
  for (int i = 0; i < nd; i++) t.u.tu->items[i] = tt_v_int(shape[i]);
  return t;
}

static bool ct_value_attr(tt_interp *I, TSNode at, const tt_val *recv, const char *name, uint32_t len, tt_val *out) {
  int nd;
  const int64_t *shape;
  tt_tile_dtype dt;
  if (recv->k == TV_TILE) nd = recv->u.t->ndim, shape = recv->u.t->shape, dt = recv->u.t->dtype;
  else if (recv->k == TV_ARRAY) {
    const tt_tile_arg *arr = &I->args[recv->u.arr];
    nd = arr->ndim, shape = arr->shape, dt = arr->dtype;
  } else return false;
  if (tt_ev_name_is(name, len, "shape")) *out = shape_tuple(I, nd, shape);
  else if (tt_ev_name_is(name, len, "dtype")) *out = tt_v_dtype(dt);
  else if (tt_ev_name_is(name, len, "ndim")) *out = tt_v_int(nd);
  else return false;
  return true;
}

static bool ct_method(tt_interp *I, const tt_val *recv, const char *name, uint32_t len, tt_args *a, tt_val *out) {
  if (recv->k != TV_TILE) return false;
  const tt_tile_t *t = recv->u.t;
  if (tt_ev_name_is(name, len, "astype")) *out = do_astype(I, a->call, recv, need(I, a, 0, "dtype", "astype"));
  else if (tt_ev_name_is(name, len, "reshape")) *out = do_reshape(I, a->call, t, need(I, a, 0, "shape", "reshape"));
  else if (tt_ev_name_is(name, len, "permute")) *out = do_permute(I, a->call, t, need(I, a, 0, "axes", "permute"));
  else if (tt_ev_name_is(name, len, "transpose")) *out = do_transpose(I, a->call, t, tt_arg(a, 0, "axis0"), tt_arg(a, 1, "axis1"));
  else if (tt_ev_name_is(name, len, "item")) {
    if (t->n != 1) tt_ev_fail(I, a->call, "item() of a tile of %lld elements", (long long)t->n);
    tt_err e;
    *out = checked(I, a->call, tt_op_reshape(&I->pool, t, 0, NULL, &e), &e);
  } else return false;
  return true;
}

const tt_lib tt_lib_cutile_python = {
  .dialect = "cuTile Python",
  .module_for_import = ct_module_for_import,
  .module_attr = ct_module_attr,
  .value_attr = ct_value_attr,
  .method = ct_method,
  .trunc_int_div = false,
};
