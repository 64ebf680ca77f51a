/* tile_lib_jl.c — the cuTile.jl library (`import cuTile as ct`) for the evaluator
 * core, read through the Julia front end (tile_jl.c): ct.* functions, PaddingMode,
 * Julia's element types, and the Base functions kernels call on tiles (sum,
 * maximum, zeros, fill, convert, reshape, permutedims, transpose, muladd, size, cld).
 *
 * Names and signatures follow cuTile.jl (JuliaGPU/cuTile.jl c3e5f05,
 * src/language/operations.jl, overlays.jl, arithmetic.jl): block ids, tile indices,
 * axes, `order` and gather indices are 1-based and converted to the interpreter's
 * 0-based views here; reductions with `dims` keep the reduced dim; `reshape` is
 * column-major, as Base's; broadcasting aligns shapes on the left. */
#include <math.h>
#include <string.h>

#include "tile/tile_array.h"
#include "tile/tile_jl.h"
#include "tile/tile_lib.h"

enum { MOD_CT = 1, MOD_PADDING = 2 };
enum { ENUM_PADDING = 1 };
enum { PAD_UNDETERMINED, PAD_ZERO, PAD_NEG_ZERO, PAD_NAN, PAD_POS_INF, PAD_NEG_INF };

static const char *const pad_names[] = {"Undetermined", "Zero", "NegZero", "Nan", "PosInf", "NegInf"};

/* Undetermined reads NaN (0 for integers), as in cuTile Python (README, "Padding"). */
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
  {"Bool", TT_TILE_BOOL}, {"Int8", TT_TILE_I8}, {"Int16", TT_TILE_I16}, {"Int32", TT_TILE_I32},
  {"Int64", TT_TILE_I64}, {"Int", TT_TILE_I64}, {"UInt8", TT_TILE_U8}, {"UInt16", TT_TILE_U16},
  {"UInt32", TT_TILE_U32}, {"UInt64", TT_TILE_U64}, {"Float16", TT_TILE_F16}, {"BFloat16", TT_TILE_BF16},
  {"TFloat32", TT_TILE_TF32}, {"Float32", TT_TILE_F32}, {"Float64", TT_TILE_F64},
};

/* ---- argument helpers ------------------------------------------------------------ */

static const tt_val *need(tt_interp *I, tt_args *a, int pos, const char *kw, const char *fn) {
  const tt_val *v = tt_arg(a, pos, kw);
  if (!v) tt_ev_fail(I, a->call, "%s() needs its '%s' argument", fn, kw);
  return v;
}

static const tt_tile_arg *array_of(tt_interp *I, TSNode at, const tt_val *v, const char *fn) {
  if (v->k != TV_ARRAY) tt_ev_fail(I, at, "%s() takes a TileArray (a kernel parameter), got a %s", fn, tt_v_kind_name(v->k));
  return &I->args[v->u.arr];
}

static tt_tile_dtype dtype_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (v->k != TV_DTYPE) tt_ev_fail(I, at, "expected an element type (Float32 ...), got a %s", tt_v_kind_name(v->k));
  return v->u.dt;
}

static const tt_tile_t *tile_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (v->k != TV_TILE) tt_ev_fail(I, at, "expected a tile, got a %s", tt_v_kind_name(v->k));
  return v->u.t;
}

static tt_val checked(tt_interp *I, TSNode at, tt_tile_t *t, const tt_err *e) {
  if (!t) tt_ev_fail_op(I, at, e);
  I->ops++;
  return tt_v_tile(t);
}

/* A 1-based dim of a rank-nd value, as a 0-based axis. */
static int dim_of(tt_interp *I, TSNode at, const tt_val *v, int nd) {
  int64_t d = tt_v_as_int(I, at, v);
  if (d < 1 || d > nd) tt_ev_fail(I, at, "dim %lld is out of 1:%d (Julia counts dims from 1)", (long long)d, nd);
  return (int)d - 1;
}

static void check_pow2(tt_interp *I, TSNode at, int ndim, const int64_t *shape) {
  for (int i = 0; i < ndim; i++)
    if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)))
      tt_ev_fail(I, at, "tile dimension %lld is not a power of two (cuTile requires power-of-two tile shapes)", (long long)shape[i]);
}

/* A shape given as a tuple, or as the trailing positional arguments from `from`. */
static int shape_args(tt_interp *I, tt_args *a, int from, int64_t *shape) {
  if (a->n == from + 1) return tt_v_as_shape(I, a->posnode[from], &a->pos[from], shape);
  int nd = 0;
  for (int i = from; i < a->n; i++) {
    if (nd == TT_TILE_MAX_DIMS) tt_ev_fail(I, a->posnode[i], "more than %d dims", TT_TILE_MAX_DIMS);
    shape[nd++] = tt_v_as_int(I, a->posnode[i], &a->pos[i]);
  }
  return nd;
}

/* ---- grid ------------------------------------------------------------------------ */

static int axis_arg(tt_interp *I, tt_args *a, const char *fn) {
  int64_t ax = tt_v_as_int(I, tt_arg_node(a, 0, "axis"), need(I, a, 0, "axis", fn));
  if (ax < 1 || ax > 3) tt_ev_fail(I, a->call, "%s(%lld): the axis is 1, 2 or 3 (cuTile.jl counts from 1)", fn, (long long)ax);
  return (int)ax - 1;
}

static tt_val ct_bid(tt_interp *I, tt_args *a) { return tt_v_int(I->bid[axis_arg(I, a, "ct.bid")] + 1); }
static tt_val ct_num_blocks(tt_interp *I, tt_args *a) { return tt_v_int(I->grid[axis_arg(I, a, "ct.num_blocks")]); }

static tt_val ct_num_tiles(tt_interp *I, tt_args *a) {
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "arr", "ct.num_tiles"), "ct.num_tiles");
  int ax = dim_of(I, tt_arg_node(a, 1, "axis"), need(I, a, 1, "axis", "ct.num_tiles"), arr->ndim);
  int64_t shape[TT_TILE_MAX_DIMS];
  int n = tt_v_as_shape(I, tt_arg_node(a, 2, "shape"), need(I, a, 2, "shape", "ct.num_tiles"), shape);
  if (n != arr->ndim) tt_ev_fail(I, tt_arg_node(a, 2, "shape"), "ct.num_tiles(): the shape has %d dims; the array '%s' has rank %d", n, arr->name, arr->ndim);
  return tt_v_int((arr->shape[ax] + shape[ax] - 1) / shape[ax]);
}

/* ---- memory ---------------------------------------------------------------------- */

static int padding_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (!v) return PAD_UNDETERMINED;
  if (v->k != TV_ENUM || v->u.en.type != ENUM_PADDING) tt_ev_fail(I, at, "padding_mode must be a ct.PaddingMode");
  return v->u.en.v;
}

/* order: a tuple of 1-based dims (tile dim i maps to array dim order[i]); nothing: identity. */
static void order_of(tt_interp *I, TSNode at, const tt_val *v, int ndim, int *order) {
  for (int i = 0; i < ndim; i++) order[i] = i;
  if (!v || v->k == TV_NONE) return;
  int64_t o[TT_TILE_MAX_DIMS];
  int n = tt_v_as_shape(I, at, v, o);
  if (n != ndim) tt_ev_fail(I, at, "order has %d dims; the array has rank %d", n, ndim);
  for (int i = 0; i < n; i++) {
    if (o[i] < 1 || o[i] > ndim) tt_ev_fail(I, at, "order entry %lld is out of 1:%d", (long long)o[i], ndim);
    order[i] = (int)o[i] - 1;
  }
}

/* A 1-based index (an integer or a tuple) of the array's rank, made 0-based. */
static void index_of(tt_interp *I, TSNode at, const tt_val *v, const tt_tile_arg *arr, int64_t *index, const char *fn) {
  int n = tt_v_as_shape(I, at, v, index);
  if (n != arr->ndim) tt_ev_fail(I, at, "%s(): the index has %d entries; the array '%s' has rank %d", fn, n, arr->name, arr->ndim);
  for (int i = 0; i < n; i++) index[i] -= 1;
}

/* cuTile.jl's _match_shape: a shape of lower rank than the array gets trailing 1s; of
 * higher rank, trailing singletons are dropped (only those). Returns the array's rank. */
static int match_shape(tt_interp *I, TSNode at, int n, const int64_t *shape, int rank, int64_t *out, const char *what) {
  for (int i = 0; i < rank; i++) out[i] = i < n ? shape[i] : 1;
  for (int i = rank; i < n; i++)
    if (shape[i] != 1) {
      char b[64];
      tt_ev_fail(I, at, "%s of shape %s cannot be squeezed to rank %d: only trailing singleton dims are dropped", what,
                 tt_shape_str(n, shape, b, sizeof b), rank);
    }
  return rank;
}

static const char *const mem_kw[] = {"index", "shape", "tile", "order", "padding_mode", "check_bounds", "latency",
                                     "allow_tma", "memory_order", "memory_scope", NULL};

/* load(arr, index, shape; ...) or load(arr; index, shape, ...) */
static tt_val ct_load(tt_interp *I, tt_args *a) {
  tt_args_check(I, a, "ct.load", mem_kw, 3);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "arr", "ct.load"), "ct.load");
  int64_t index[TT_TILE_MAX_DIMS], shape[TT_TILE_MAX_DIMS];
  index_of(I, tt_arg_node(a, 1, "index"), need(I, a, 1, "index", "ct.load"), arr, index, "ct.load");
  TSNode sn = tt_arg_node(a, 2, "shape");
  int n = tt_v_as_shape(I, sn, need(I, a, 2, "shape", "ct.load"), shape);
  check_pow2(I, sn, n, shape);
  int64_t matched[TT_TILE_MAX_DIMS];
  match_shape(I, sn, n, shape, arr->ndim, matched, "ct.load(): a tile");
  int order[TT_TILE_MAX_DIMS];
  order_of(I, tt_arg_node(a, -1, "order"), tt_arg(a, -1, "order"), arr->ndim, order);
  tt_view v;
  tt_err e;
  if (tt_view_make(arr, order, &v, &e)) tt_ev_fail_op(I, tt_arg_node(a, -1, "order"), &e);
  double pad = pad_value(padding_of(I, tt_arg_node(a, -1, "padding_mode"), tt_arg(a, -1, "padding_mode")));
  tt_tile_t *t = tt_view_load(&I->pool, &v, index, matched, pad, &e);
  if (!t) tt_ev_fail_op(I, a->call, &e);
  if (n == arr->ndim) return checked(I, a->call, t, &e);
  tt_tile_t *r = tt_op_reshape(&I->pool, t, n, shape, &e);
  tt_tile_release(t);
  return checked(I, a->call, r, &e);
}

/* Julia's column-major reshape: the row-major reshape of the dims reversed. */
static tt_tile_t *reshape_colmajor(tt_tpool *p, const tt_tile_t *t, int nd, const int64_t *shape, tt_err *e) {
  int rev[TT_TILE_MAX_DIMS];
  int64_t rshape[TT_TILE_MAX_DIMS];
  for (int i = 0; i < t->ndim; i++) rev[i] = t->ndim - 1 - i;
  tt_tile_t *a = tt_op_permute(p, t, rev, e);
  if (!a) return NULL;
  for (int i = 0; i < nd; i++) rshape[i] = shape[nd - 1 - i];
  tt_tile_t *b = tt_op_reshape(p, a, nd, rshape, e);
  tt_tile_release(a);
  if (!b) return NULL;
  for (int i = 0; i < nd; i++) rev[i] = nd - 1 - i;
  tt_tile_t *c = tt_op_permute(p, b, rev, e);
  tt_tile_release(b);
  return c;
}

/* store(arr, index, tile; ...) or store(arr; index, tile, ...): the tile is converted
 * to the array's element type and matched to the array's rank (match_shape). */
static tt_val ct_store(tt_interp *I, tt_args *a) {
  tt_args_check(I, a, "ct.store", mem_kw, 3);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "arr", "ct.store"), "ct.store");
  int64_t index[TT_TILE_MAX_DIMS];
  index_of(I, tt_arg_node(a, 1, "index"), need(I, a, 1, "index", "ct.store"), arr, index, "ct.store");
  TSNode tn = tt_arg_node(a, 2, "tile");
  tt_tile_t *t = tt_v_as_tile(I, tn, need(I, a, 2, "tile", "ct.store"), arr->dtype);
  tt_err e;
  if (t->ndim != arr->ndim) {
    int64_t shape[TT_TILE_MAX_DIMS];
    match_shape(I, tn, t->ndim, t->shape, arr->ndim, shape, "ct.store(): a tile"); /* on failure the run frees t */
    tt_tile_t *r = tt_op_reshape(&I->pool, t, arr->ndim, shape, &e);
    tt_tile_release(t);
    if (!r) tt_ev_fail_op(I, tn, &e);
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

/* gather/scatter indices: a tile (rank-1 arrays) or a tuple of tiles, 1-based,
 * broadcast together (left-aligned) and made 0-based. */
static int gather_indices(tt_interp *I, tt_args *a, const tt_tile_arg *arr, tt_tile_t **idx, int64_t *shape) {
  const tt_val *iv = need(I, a, 1, "indices", "ct.gather");
  TSNode at = tt_arg_node(a, 1, "indices");
  int n = iv->k == TV_TUPLE ? iv->u.tu->n : 1, nd = 0;
  if (n != arr->ndim) tt_ev_fail(I, at, "the index tuple has %d entries; the array '%s' has rank %d", n, arr->name, arr->ndim);
  tt_tile_t *one = NULL;
  tt_err e;
  for (int d = 0; d < n; d++) {
    tt_tile_t *x = tt_v_as_tile(I, at, iv->k == TV_TUPLE ? &iv->u.tu->items[d] : iv, TT_TILE_I32);
    if (!tt_dtype_is_int(x->dtype)) tt_ev_fail(I, at, "gather/scatter indices must be integers");
    one = tt_op_full(&I->pool, x->dtype, 0, NULL, 1, 1, &e);
    idx[d] = one ? tt_op_binary(&I->pool, TT_OP_SUB, x, one, TT_ALIGN_LEFT, &e) : NULL;
    tt_tile_release(one);
    tt_tile_release(x);
    if (!idx[d]) tt_ev_fail_op(I, at, &e);
    int64_t s2[TT_TILE_MAX_DIMS];
    if (tt_broadcast_shape(nd, shape, idx[d]->ndim, idx[d]->shape, TT_ALIGN_LEFT, &nd, s2, &e)) tt_ev_fail_op(I, at, &e);
    memcpy(shape, s2, sizeof s2);
  }
  for (int d = 0; d < n; d++) {
    if (idx[d]->ndim == nd && !memcmp(idx[d]->shape, shape, sizeof(int64_t) * (size_t)nd)) continue;
    tt_tile_t *b = tt_op_broadcast_to(&I->pool, idx[d], nd, shape, TT_ALIGN_LEFT, &e);
    if (!b) tt_ev_fail_op(I, at, &e);
    tt_tile_release(idx[d]);
    idx[d] = b;
  }
  return nd;
}

static tt_tile_t *bcast_arg(tt_interp *I, TSNode at, const tt_val *v, tt_tile_dtype like, int nd, const int64_t *shape) {
  tt_tile_t *t = tt_v_as_tile(I, at, v, like);
  tt_err e;
  tt_tile_t *b = tt_op_broadcast_to(&I->pool, t, nd, shape, TT_ALIGN_LEFT, &e);
  tt_tile_release(t);
  if (!b) tt_ev_fail_op(I, at, &e);
  return b;
}

static tt_val ct_gather(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"mask", "padding_value", "check_bounds", "latency", NULL};
  tt_args_check(I, a, "ct.gather", kw, 2);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "ct.gather"), "ct.gather");
  tt_tile_t *idx[TT_TILE_MAX_DIMS] = {0};
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = gather_indices(I, a, arr, idx, shape);
  const tt_val *m = tt_arg(a, -1, "mask"), *pv = tt_arg(a, -1, "padding_value");
  tt_tile_t *mask = m && m->k != TV_NONE ? bcast_arg(I, tt_arg_node(a, -1, "mask"), m, TT_TILE_BOOL, nd, shape) : NULL;
  double pad = pv && pv->k != TV_NONE ? tt_v_as_float(I, tt_arg_node(a, -1, "padding_value"), pv) : 0.0;
  tt_err e;
  tt_tile_t *r = tt_array_gather(&I->pool, arr, idx, nd, shape, mask, pad, &e);
  for (int d = 0; d < arr->ndim; d++) tt_tile_release(idx[d]);
  tt_tile_release(mask);
  return checked(I, a->call, r, &e);
}

static tt_val ct_scatter(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"mask", "check_bounds", "latency", NULL};
  tt_args_check(I, a, "ct.scatter", kw, 3);
  const tt_tile_arg *arr = array_of(I, a->posnode[0], need(I, a, 0, "array", "ct.scatter"), "ct.scatter");
  tt_tile_t *idx[TT_TILE_MAX_DIMS] = {0};
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = gather_indices(I, a, arr, idx, shape);
  const tt_val *m = tt_arg(a, -1, "mask");
  tt_tile_t *mask = m && m->k != TV_NONE ? bcast_arg(I, tt_arg_node(a, -1, "mask"), m, TT_TILE_BOOL, nd, shape) : NULL;
  tt_tile_t *v = bcast_arg(I, tt_arg_node(a, 2, "tile"), need(I, a, 2, "tile", "ct.scatter"), arr->dtype, nd, shape);
  tt_err e;
  int rc = tt_array_scatter(arr, idx, v, mask, &e);
  for (int d = 0; d < arr->ndim; d++) tt_tile_release(idx[d]);
  tt_tile_release(mask);
  tt_tile_release(v);
  if (rc) tt_ev_fail_op(I, a->call, &e);
  return tt_v_none();
}

/* ---- construction ------------------------------------------------------------------ */

static tt_val make_full(tt_interp *I, TSNode at, tt_tile_dtype dt, int nd, const int64_t *shape, const tt_val *fv) {
  check_pow2(I, at, nd, shape);
  double f = tt_v_as_float(I, at, fv);
  int64_t iv = fv->k == TV_FLOAT ? (isfinite(f) ? (int64_t)f : 0) : tt_v_as_int(I, at, fv);
  tt_err e;
  return checked(I, at, tt_op_full(&I->pool, dt, nd, shape, f, iv, &e), &e);
}

/* zeros(T, dims) / zeros(T, d1, d2...), ones likewise */
static tt_val zeros_or_ones(tt_interp *I, tt_args *a, int64_t v, const char *fn) {
  if (a->n < 2) tt_ev_fail(I, a->call, "%s(T, dims) takes an element type and a shape", fn);
  tt_tile_dtype dt = dtype_of(I, a->posnode[0], &a->pos[0]);
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = shape_args(I, a, 1, shape);
  tt_val fv = tt_v_int(v);
  return make_full(I, a->call, dt, nd, shape, &fv);
}
static tt_val jl_zeros(tt_interp *I, tt_args *a) { return zeros_or_ones(I, a, 0, "zeros"); }
static tt_val jl_ones(tt_interp *I, tt_args *a) { return zeros_or_ones(I, a, 1, "ones"); }

/* fill(v, dims): the element type is v's (a float is Float32, an integer Int32: the
 * interpreter does not keep Julia's literal widths, see README) */
static tt_val jl_fill(tt_interp *I, tt_args *a) {
  if (a->n < 2) tt_ev_fail(I, a->call, "fill(v, dims) takes a value and a shape");
  const tt_val *v = &a->pos[0];
  tt_tile_dtype dt = v->k == TV_TILE ? v->u.t->dtype : v->k == TV_FLOAT ? TT_TILE_F32 : v->k == TV_BOOL ? TT_TILE_BOOL : TT_TILE_I32;
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = shape_args(I, a, 1, shape);
  if (v->k == TV_TILE) {
    if (v->u.t->n != 1) tt_ev_fail(I, a->posnode[0], "fill() of a tile of %lld elements", (long long)v->u.t->n);
    tt_err e;
    return checked(I, a->call, tt_op_broadcast_to(&I->pool, v->u.t, nd, shape, TT_ALIGN_LEFT, &e), &e);
  }
  return make_full(I, a->call, dt, nd, shape, v);
}

/* ct.arange(n; dtype=Int32, start=1, step=1): start, start+step, ... */
static tt_val ct_arange(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"dtype", "start", "step", NULL};
  tt_args_check(I, a, "ct.arange", kw, 1);
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = tt_v_as_shape(I, a->posnode[0], need(I, a, 0, "n", "ct.arange"), shape);
  if (nd != 1) tt_ev_fail(I, a->call, "ct.arange() makes a 1-d tile");
  check_pow2(I, a->posnode[0], 1, shape);
  const tt_val *dv = tt_arg(a, -1, "dtype"), *st = tt_arg(a, -1, "start"), *sp = tt_arg(a, -1, "step");
  tt_tile_dtype dt = dv ? dtype_of(I, tt_arg_node(a, -1, "dtype"), dv) : TT_TILE_I32;
  tt_err e;
  return checked(I, a->call, tt_op_arange(&I->pool, dt, shape[0], st ? tt_v_as_int(I, a->call, st) : 1,
                                          sp ? tt_v_as_int(I, a->call, sp) : 1, &e), &e);
}

/* ct.Tile(x): a 0-d tile of a number */
static tt_val ct_tile(tt_interp *I, tt_args *a) {
  const tt_val *v = need(I, a, 0, "x", "ct.Tile");
  if (v->k == TV_TILE) return tt_v_copy(v);
  return tt_v_tile(tt_v_as_tile(I, a->posnode[0], v, v->k == TV_FLOAT ? TT_TILE_F32 : TT_TILE_I64));
}

static tt_val ct_broadcast_to(tt_interp *I, tt_args *a) {
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = tt_v_as_shape(I, tt_arg_node(a, 1, "shape"), need(I, a, 1, "shape", "ct.broadcast_to"), shape);
  tt_tile_t *t = bcast_arg(I, a->posnode[0], need(I, a, 0, "tile", "ct.broadcast_to"), TT_TILE_F32, nd, shape);
  I->ops++;
  return tt_v_tile(t);
}

/* ---- types and shapes --------------------------------------------------------------- */

/* convert(Tile{T}, x) or convert(T, x); T(x) comes here too (the front end) */
static tt_val jl_convert(tt_interp *I, tt_args *a) {
  if (a->n != 2) tt_ev_fail(I, a->call, "convert(T, x) takes a type and a value");
  tt_tile_dtype dt = dtype_of(I, a->posnode[0], &a->pos[0]);
  const tt_val *x = &a->pos[1];
  if (x->k != TV_TILE) {
    if (tt_dtype_is_float(dt)) return tt_v_float(tt_v_as_float(I, a->posnode[1], x));
    if (dt == TT_TILE_BOOL) return tt_v_bool(tt_v_truthy(I, a->posnode[1], x));
    double f = tt_v_as_float(I, a->posnode[1], x);
    if (x->k == TV_FLOAT && f != floor(f)) tt_ev_fail_run(I, a->posnode[1], "InexactError: %g is not an integer", f);
    return tt_v_int(x->k == TV_FLOAT ? (int64_t)f : x->u.i);
  }
  tt_err e;
  if (x->u.t->dtype == dt) return tt_v_copy(x);
  return checked(I, a->call, tt_op_cast(&I->pool, x->u.t, dt, &e), &e);
}

static tt_val jl_reshape(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "tile", "reshape"));
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = shape_args(I, a, 1, shape);
  tt_err e;
  return checked(I, a->call, reshape_colmajor(&I->pool, t, nd, shape, &e), &e);
}

/* dropdims(x; dims=d): d (an int or a tuple) removed, each of size 1 (Julia's
 * ArgumentError otherwise); what a reduction whose Python axis is not kept becomes. */
static tt_val jl_dropdims(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"dims", NULL};
  tt_args_check(I, a, "dropdims", kw, 1);
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "tile", "dropdims"));
  const tt_val *dv = tt_arg(a, -1, "dims");
  TSNode dn = tt_arg_node(a, -1, "dims");
  if (!dv) tt_ev_fail(I, a->call, "dropdims(x; dims=d) needs dims");
  bool drop[TT_TILE_MAX_DIMS] = {false};
  int nd = dv->k == TV_TUPLE ? dv->u.tu->n : 1;
  for (int i = 0; i < nd; i++) {
    int d = dim_of(I, dn, dv->k == TV_TUPLE ? &dv->u.tu->items[i] : dv, t->ndim);
    if (t->shape[d] != 1)
      tt_ev_fail_run(I, dn, "ArgumentError: dropdims: dim %d has size %lld, not 1", d + 1, (long long)t->shape[d]);
    drop[d] = true;
  }
  int64_t shape[TT_TILE_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < t->ndim; i++)
    if (!drop[i]) shape[n++] = t->shape[i];
  tt_err e; /* removing size-1 dims keeps the element order in either layout */
  return checked(I, a->call, reshape_colmajor(&I->pool, t, n, shape, &e), &e);
}

/* cat(a, b, ...; dims=d): the tiles joined along dim d (1-based); the other dims must
 * agree (cuTile.jl's shapes are static: a compile error otherwise). What cuTile
 * Python's ct.cat((a, b), axis) becomes. */
static tt_val jl_cat(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"dims", NULL};
  tt_args_check(I, a, "cat", kw, TT_MAX_ARGS);
  const tt_val *dv = tt_arg(a, -1, "dims");
  if (a->n < 2 || !dv || dv->k == TV_TUPLE) tt_ev_fail(I, a->call, "cat(a, b; dims=d) takes tiles and one integer dims");
  const tt_tile_t *x = tile_of(I, a->posnode[0], &a->pos[0]);
  int d = dim_of(I, tt_arg_node(a, -1, "dims"), dv, x->ndim);
  tt_tile_t *acc = NULL;
  for (int i = 1; i < a->n; i++) {
    tt_err e;
    tt_tile_t *r = tt_op_cat(&I->pool, acc ? acc : x, tile_of(I, a->posnode[i], &a->pos[i]), d, &e);
    if (acc) tt_tile_release(acc);
    if (!r) tt_ev_fail_op(I, a->call, &e);
    acc = r;
  }
  I->ops++;
  return tt_v_tile(acc);
}

static tt_val jl_permutedims(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "tile", "permutedims"));
  int perm[TT_TILE_MAX_DIMS];
  if (a->n < 2) {
    if (t->ndim != 2) tt_ev_fail(I, a->call, "permutedims(tile) without a permutation takes a 2-d tile");
    perm[0] = 1, perm[1] = 0;
  } else {
    int64_t p[TT_TILE_MAX_DIMS];
    int n = tt_v_as_shape(I, a->posnode[1], &a->pos[1], p);
    if (n != t->ndim) tt_ev_fail(I, a->posnode[1], "permutedims of a %d-d tile takes %d dims, got %d", t->ndim, t->ndim, n);
    for (int i = 0; i < n; i++) {
      if (p[i] < 1 || p[i] > n) tt_ev_fail(I, a->posnode[1], "permutedims: dim %lld is out of 1:%d", (long long)p[i], n);
      perm[i] = (int)p[i] - 1;
    }
  }
  tt_err e;
  return checked(I, a->call, tt_op_permute(&I->pool, t, perm, &e), &e);
}

static tt_val jl_transpose(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "tile", "transpose"));
  if (t->ndim != 2) tt_ev_fail(I, a->call, "transpose of a %d-d tile (Julia transposes matrices; use permutedims)", t->ndim);
  int perm[2] = {1, 0};
  tt_err e;
  return checked(I, a->call, tt_op_permute(&I->pool, t, perm, &e), &e);
}

/* muladd of 3-d tiles (M, K, B), (K, N, B), (M, N, B): cuTile.jl's batch dims trail
 * (a batch of 1 broadcasts). The core's matmul takes leading batch dims, so the
 * operands are permuted to (B, M, K) and the product back to (M, N, B). */
static tt_val batched_muladd(tt_interp *I, TSNode at, const tt_tile_t *x, const tt_tile_t *y, const tt_tile_t *acc) {
  static const int to_lead[3] = {2, 0, 1}, to_trail[3] = {1, 2, 0};
  tt_err e;
  tt_tile_t *px = tt_op_permute(&I->pool, x, to_lead, &e);
  tt_tile_t *py = px ? tt_op_permute(&I->pool, y, to_lead, &e) : NULL;
  tt_tile_t *pc = py ? tt_op_permute(&I->pool, acc, to_lead, &e) : NULL;
  tt_tile_t *prod = pc ? tt_op_matmul(&I->pool, px, py, pc, acc->dtype, &e) : NULL;
  tt_tile_t *out = prod ? tt_op_permute(&I->pool, prod, to_trail, &e) : NULL;
  tt_tile_release(px);
  tt_tile_release(py);
  tt_tile_release(pc);
  tt_tile_release(prod);
  return checked(I, at, out, &e);
}

/* muladd(a, b, acc): acc + a*b with a matrix product of tiles (accumulated in acc's
 * type); of numbers, a*b + c. */
static tt_val jl_muladd(tt_interp *I, tt_args *a) {
  if (a->n != 3) tt_ev_fail(I, a->call, "muladd(a, b, acc) takes three arguments");
  if (a->pos[0].k != TV_TILE && a->pos[1].k != TV_TILE && a->pos[2].k != TV_TILE) {
    tt_val p = tt_ev_binop(I, a->call, TT_OP_MUL, false, &a->pos[0], &a->pos[1], TT_ALIGN_LEFT);
    tt_val r = tt_ev_binop(I, a->call, TT_OP_ADD, false, &p, &a->pos[2], TT_ALIGN_LEFT);
    tt_v_drop(&p);
    return r;
  }
  const tt_tile_t *x = tile_of(I, a->posnode[0], &a->pos[0]), *y = tile_of(I, a->posnode[1], &a->pos[1]);
  const tt_tile_t *acc = tile_of(I, a->posnode[2], &a->pos[2]);
  if (x->dtype != y->dtype)
    tt_ev_fail(I, a->call, "muladd of a Tile{%s} and a Tile{%s}: the operands need one element type", tt_tile_dtype_name(x->dtype),
               tt_tile_dtype_name(y->dtype));
  if (x->ndim == 3 && y->ndim == 3 && acc->ndim == 3) return batched_muladd(I, a->call, x, y, acc);
  if (x->ndim != 2 || y->ndim != 2 || acc->ndim != 2 || x->shape[1] != y->shape[0] || acc->shape[0] != x->shape[0] ||
      acc->shape[1] != y->shape[1]) {
    char bx[64], by[64], bc[64];
    tt_ev_fail(I, a->call, "muladd(a, b, acc) of shapes %s, %s, %s: needs (M, K), (K, N) and (M, N)",
               tt_shape_str(x->ndim, x->shape, bx, sizeof bx), tt_shape_str(y->ndim, y->shape, by, sizeof by),
               tt_shape_str(acc->ndim, acc->shape, bc, sizeof bc));
  }
  tt_err e;
  return checked(I, a->call, tt_op_matmul(&I->pool, x, y, acc, acc->dtype, &e), &e);
}

/* size(x) / size(x, d) of an array or a tile */
static tt_val jl_size(tt_interp *I, tt_args *a) {
  const tt_val *v = need(I, a, 0, "x", "size");
  int nd;
  const int64_t *shape;
  if (v->k == TV_ARRAY) nd = I->args[v->u.arr].ndim, shape = I->args[v->u.arr].shape;
  else if (v->k == TV_TILE) nd = v->u.t->ndim, shape = v->u.t->shape;
  else tt_ev_fail(I, a->posnode[0], "size() of a %s", tt_v_kind_name(v->k));
  if (a->n >= 2) return tt_v_int(shape[dim_of(I, a->posnode[1], &a->pos[1], nd)]);
  tt_val t = tt_v_tuple(I, nd);
  for (int i = 0; i < nd; i++) t.u.tu->items[i] = tt_v_int(shape[i]);
  return t;
}

/* eltype(x): the element type of an array or a tile, a dtype value (compared with
 * `==`, passed to convert/zeros) */
static tt_val jl_eltype(tt_interp *I, tt_args *a) {
  const tt_val *v = need(I, a, 0, "x", "eltype");
  if (v->k == TV_ARRAY) return tt_v_dtype(I->args[v->u.arr].dtype);
  if (v->k == TV_TILE) return tt_v_dtype(v->u.t->dtype);
  if (v->k == TV_DTYPE) return *v;
  tt_ev_fail(I, a->posnode[0], "eltype() of a %s", tt_v_kind_name(v->k));
}

static tt_val jl_length(tt_interp *I, tt_args *a) {
  const tt_val *v = need(I, a, 0, "x", "length");
  if (v->k == TV_TUPLE) return tt_v_int(v->u.tu->n);
  if (v->k == TV_TILE) return tt_v_int(v->u.t->n);
  if (v->k == TV_ARRAY) {
    int64_t n = 1;
    for (int i = 0; i < I->args[v->u.arr].ndim; i++) n *= I->args[v->u.arr].shape[i];
    return tt_v_int(n);
  }
  tt_ev_fail(I, a->posnode[0], "length() of a %s", tt_v_kind_name(v->k));
}

/* ---- integer arithmetic of scalars ------------------------------------------------ */

static void two_ints(tt_interp *I, tt_args *a, const char *fn, int64_t *x, int64_t *y) {
  if (a->n != 2) tt_ev_fail(I, a->call, "%s(x, y) takes two integers", fn);
  *x = tt_v_as_int(I, a->posnode[0], &a->pos[0]);
  *y = tt_v_as_int(I, a->posnode[1], &a->pos[1]);
  if (*y == 0) tt_ev_fail_run(I, a->call, "DivideError: integer division by zero in %s()", fn);
}

static tt_val jl_cld(tt_interp *I, tt_args *a) {
  int64_t x, y;
  two_ints(I, a, "cld", &x, &y);
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) == (y < 0))) q++;
  return tt_v_int(q);
}
static tt_val jl_fld(tt_interp *I, tt_args *a) {
  int64_t x, y;
  two_ints(I, a, "fld", &x, &y);
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) q--;
  return tt_v_int(q);
}
static tt_val jl_div(tt_interp *I, tt_args *a) {
  int64_t x, y;
  two_ints(I, a, "div", &x, &y);
  return tt_v_int(x / y);
}
static tt_val jl_rem(tt_interp *I, tt_args *a) {
  int64_t x, y;
  two_ints(I, a, "rem", &x, &y);
  return tt_v_int(x % y);
}
static tt_val jl_mod(tt_interp *I, tt_args *a) {
  int64_t x, y;
  two_ints(I, a, "mod", &x, &y);
  int64_t m = x % y;
  if (m != 0 && ((m < 0) != (y < 0))) m += y;
  return tt_v_int(m);
}

/* ---- elementwise and reductions ------------------------------------------------------ */

#define UNARY(name, op) \
  static tt_val dot_##name(tt_interp *I, tt_args *a) { return tt_ev_unary_call(I, a, op, #name "."); }
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

/* Binary elementwise functions broadcast as Julia does (left-aligned). */
static tt_val dot_binary(tt_interp *I, tt_args *a, tt_binop op, const char *fn) {
  if (a->n != 2 || a->nkw) tt_ev_fail(I, a->call, "%s.(x, y) takes two arguments", fn);
  return tt_ev_binop(I, a->call, op, false, &a->pos[0], &a->pos[1], TT_ALIGN_LEFT);
}
static tt_val dot_max(tt_interp *I, tt_args *a) { return dot_binary(I, a, TT_OP_MAX, "max"); }
/* fld.(x, y) floors and mod.(x, y) takes the divisor's sign (Python's // and %);
 * div.(x, y) and rem.(x, y) truncate */
static tt_val dot_fld(tt_interp *I, tt_args *a) { return dot_binary(I, a, TT_OP_FLOORDIV, "fld"); }
static tt_val dot_mod(tt_interp *I, tt_args *a) { return dot_binary(I, a, TT_OP_MOD, "mod"); }
static tt_val dot_div(tt_interp *I, tt_args *a) { return dot_binary(I, a, TT_OP_TRUNCDIV, "div"); }
static tt_val dot_rem(tt_interp *I, tt_args *a) { return dot_binary(I, a, TT_OP_TRUNCMOD, "rem"); }
static tt_val dot_min(tt_interp *I, tt_args *a) { return dot_binary(I, a, TT_OP_MIN, "min"); }

/* max(x, y) of numbers; of tiles it is max.(x, y) in cuTile.jl only, so refused */
static tt_val jl_minmax(tt_interp *I, tt_args *a, bool is_max) {
  if (a->n < 2) tt_ev_fail(I, a->call, "%s() takes two or more numbers", is_max ? "max" : "min");
  tt_val best = tt_v_copy(&a->pos[0]);
  for (int i = 0; i < a->n; i++)
    if (a->pos[i].k == TV_TILE) tt_ev_fail(I, a->posnode[i], "%s() of a tile: use %s.(x, y) elementwise or %s(x; dims=d) to reduce",
                                          is_max ? "max" : "min", is_max ? "max" : "min", is_max ? "maximum" : "minimum");
  for (int i = 1; i < a->n; i++) {
    tt_val c = tt_ev_binop(I, a->call, is_max ? TT_OP_GT : TT_OP_LT, false, &a->pos[i], &best, TT_ALIGN_LEFT);
    if (c.u.i) {
      tt_v_drop(&best);
      best = tt_v_copy(&a->pos[i]);
    }
  }
  return best;
}
static tt_val jl_max(tt_interp *I, tt_args *a) { return jl_minmax(I, a, true); }
static tt_val jl_min(tt_interp *I, tt_args *a) { return jl_minmax(I, a, false); }

static tt_val dot_ifelse(tt_interp *I, tt_args *a) {
  if (a->n != 3) tt_ev_fail(I, a->call, "ifelse.(c, x, y) takes three arguments");
  const tt_val *x = &a->pos[1], *y = &a->pos[2];
  tt_tile_dtype like = x->k == TV_TILE ? x->u.t->dtype : y->k == TV_TILE ? y->u.t->dtype : TT_TILE_F32;
  tt_tile_t *c = tt_v_as_tile(I, a->posnode[0], &a->pos[0], TT_TILE_BOOL);
  tt_tile_t *tx = tt_v_as_tile(I, a->posnode[1], x, like), *ty = tt_v_as_tile(I, a->posnode[2], y, like);
  tt_err e;
  tt_tile_t *r = tt_op_where(&I->pool, c, tx, ty, TT_ALIGN_LEFT, &e);
  tt_tile_release(c);
  tt_tile_release(tx);
  tt_tile_release(ty);
  return checked(I, a->call, r, &e);
}

/* sum(x; dims=d) keeps d with size 1 (dims may be a tuple); sum(x) reduces all to a 0-d
 * tile; sum(x; dims=:) to a number, as cuTile.jl's reduce_tiles(::Colon) does (to_scalar) */
static tt_val reduce(tt_interp *I, tt_args *a, tt_redop op, const char *fn) {
  static const char *const kw[] = {"dims", "init", NULL};
  tt_args_check(I, a, fn, kw, 1);
  tt_tile_t *t = tt_v_as_tile(I, a->posnode[0], need(I, a, 0, "x", fn), TT_TILE_F32);
  const tt_val *dv = tt_arg(a, -1, "dims");
  if (tt_arg(a, -1, "init")) tt_ev_fail(I, a->call, "%s(...; init=...) is not supported by the tile interpreter", fn);
  bool axes[TT_TILE_MAX_DIMS] = {false};
  TSNode dn = tt_arg_node(a, -1, "dims");
  bool colon = dv && dv->k == TV_ENUM && dv->u.en.type == TT_JL_ENUM_COLON;
  if (!dv || colon) {
    for (int i = 0; i < t->ndim; i++) axes[i] = true;
  } else if (dv->k == TV_TUPLE) {
    for (int i = 0; i < dv->u.tu->n; i++) axes[dim_of(I, dn, &dv->u.tu->items[i], t->ndim)] = true;
  } else {
    axes[dim_of(I, dn, dv, t->ndim)] = true;
  }
  for (int ax = t->ndim - 1; ax >= 0; ax--) {
    if (!axes[ax]) continue;
    tt_err e;
    tt_tile_t *r = tt_op_reduce(&I->pool, op, t, ax, dv != NULL && !colon, &e);
    tt_tile_release(t);
    if (!r) tt_ev_fail_op(I, a->call, &e);
    t = r;
  }
  I->ops++;
  if (!colon) return tt_v_tile(t);
  tt_val n = tt_dtype_is_float(t->dtype) ? tt_v_float(tt_tile_get_f(t, 0)) : tt_v_int(tt_tile_get_i(t, 0));
  tt_tile_release(t);
  return n;
}
static tt_val jl_sum(tt_interp *I, tt_args *a) { return reduce(I, a, TT_RED_SUM, "sum"); }
static tt_val jl_prod(tt_interp *I, tt_args *a) { return reduce(I, a, TT_RED_PROD, "prod"); }
static tt_val jl_maximum(tt_interp *I, tt_args *a) { return reduce(I, a, TT_RED_MAX, "maximum"); }
static tt_val jl_minimum(tt_interp *I, tt_args *a) { return reduce(I, a, TT_RED_MIN, "minimum"); }

/* cumsum(x; dims=d): cuTile.jl's scan (Base.cumsum on a Tile, dims required), the shape
 * kept; `rev=true` is not supported here. */
static tt_val jl_cumsum(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"dims", "rev", NULL};
  tt_args_check(I, a, "cumsum", kw, 1);
  tt_tile_t *t = tt_v_as_tile(I, a->posnode[0], need(I, a, 0, "x", "cumsum"), TT_TILE_F32);
  const tt_val *dv = tt_arg(a, -1, "dims"), *rev = tt_arg(a, -1, "rev");
  if (!dv) tt_ev_fail(I, a->call, "cumsum(x; dims=d) needs `dims` on a tile (cuTile.jl)");
  if (rev && !(rev->k == TV_BOOL && !rev->u.i))
    tt_ev_fail(I, a->call, "cumsum(...; rev=true) is not supported by the tile interpreter");
  int ax = dim_of(I, tt_arg_node(a, -1, "dims"), dv, t->ndim);
  tt_err e;
  tt_tile_t *r = tt_op_cumsum(&I->pool, t, ax, &e);
  tt_tile_release(t);
  I->ops++;
  return checked(I, a->call, r, &e);
}

static tt_val ct_not_callable(tt_interp *I, tt_args *a) {
  tt_ev_fail(I, a->call, "this cuTile.jl name is a type or a launch wrapper, not a kernel function");
}

/* ct.extract(tile, index, shape): the sub-tile of `shape` at 1-based tile index `index`
 * (slice indices, not element offsets, as cuTile.jl documents). */
static tt_val ct_extract(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_of(I, a->posnode[0], need(I, a, 0, "tile", "extract"));
  int64_t idx[TT_TILE_MAX_DIMS], shape[TT_TILE_MAX_DIMS];
  int ni = tt_v_as_shape(I, a->posnode[1], need(I, a, 1, "index", "extract"), idx);
  int ns = tt_v_as_shape(I, a->posnode[2], need(I, a, 2, "shape", "extract"), shape);
  if (ni != t->ndim || ns != t->ndim)
    tt_ev_fail(I, a->call, "ct.extract of a %d-d tile takes a %d-tuple index and shape, got %d and %d", t->ndim, t->ndim, ni, ns);
  for (int i = 0; i < ni; i++) {
    if (idx[i] < 1) tt_ev_fail(I, a->posnode[1], "ct.extract index %lld: cuTile.jl counts tiles from 1", (long long)idx[i]);
    idx[i]--;
  }
  tt_err e;
  return checked(I, a->call, tt_op_extract(&I->pool, t, idx, shape, &e), &e);
}

/* ---- name tables ------------------------------------------------------------------ */

static const tt_builtin ct_builtins[] = {
  {"bid", ct_bid, false}, {"num_blocks", ct_num_blocks, false}, {"num_tiles", ct_num_tiles, false},
  {"load", ct_load, false}, {"store", ct_store, false}, {"gather", ct_gather, false}, {"scatter", ct_scatter, false},
  {"arange", ct_arange, false}, {"broadcast_to", ct_broadcast_to, false}, {"Tile", ct_tile, false}, {"extract", ct_extract, false},
  {"TileArray", ct_not_callable, false}, {"Constant", ct_not_callable, false},
};

static const tt_builtin base_builtins[] = {
  {"zeros", jl_zeros, false}, {"ones", jl_ones, false}, {"fill", jl_fill, false}, {"convert", jl_convert, false},
  {"reshape", jl_reshape, false}, {"dropdims", jl_dropdims, false}, {"cat", jl_cat, false}, {"permutedims", jl_permutedims, false}, {"transpose", jl_transpose, false},
  {"muladd", jl_muladd, false}, {"size", jl_size, false}, {"eltype", jl_eltype, false}, {"length", jl_length, false}, {"cld", jl_cld, false},
  {"fld", jl_fld, false}, {"div", jl_div, false}, {"rem", jl_rem, false}, {"mod", jl_mod, false},
  {"max", jl_max, false}, {"min", jl_min, false}, {"sum", jl_sum, false}, {"prod", jl_prod, false},
  {"maximum", jl_maximum, false}, {"minimum", jl_minimum, false}, {"cumsum", jl_cumsum, false},
};

/* f.(x): the elementwise functions (ct.rsqrt among them: rsqrt is cuTile.jl's) */
static const tt_builtin dot_builtins[] = {
  {"exp", dot_exp, false}, {"exp2", dot_exp2, false}, {"log", dot_log, false}, {"log2", dot_log2, false},
  {"sqrt", dot_sqrt, false}, {"rsqrt", dot_rsqrt, false}, {"tanh", dot_tanh, false}, {"sin", dot_sin, false},
  {"cos", dot_cos, false}, {"floor", dot_floor, false}, {"ceil", dot_ceil, false}, {"abs", dot_abs, false},
  {"max", dot_max, false}, {"min", dot_min, false}, {"ifelse", dot_ifelse, false},
  {"fld", dot_fld, false}, {"mod", dot_mod, false}, {"div", dot_div, false}, {"rem", dot_rem, false},
};

static bool find_builtin(const tt_builtin *t, size_t n, const char *name, uint32_t len, tt_val *out) {
  for (size_t i = 0; i < n; i++)
    if (tt_ev_name_is(name, len, t[i].name)) {
      *out = (tt_val){.k = TV_BUILTIN, .u.b = &t[i]};
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

static int jl_module_for_import(const char *dotted, uint32_t len) {
  return tt_ev_name_is(dotted, len, "cuTile") ? MOD_CT : -1;
}

static bool jl_module_attr(tt_interp *I, int mod, const char *name, uint32_t len, tt_val *out) {
  (void)I;
  switch (mod) {
    case MOD_PADDING:
      for (int i = 0; i < (int)(sizeof pad_names / sizeof *pad_names); i++)
        if (tt_ev_name_is(name, len, pad_names[i])) {
          *out = (tt_val){.k = TV_ENUM, .u.en = {ENUM_PADDING, i}};
          return true;
        }
      return false;
    case MOD_CT:
      if (tt_ev_name_is(name, len, "PaddingMode")) {
        *out = (tt_val){.k = TV_MODULE, .u.mod = MOD_PADDING};
        return true;
      }
      if (tt_ev_name_is(name, len, "TFloat32") || tt_ev_name_is(name, len, "BFloat16")) return find_dtype(name, len, out);
      return find_builtin(ct_builtins, sizeof ct_builtins / sizeof *ct_builtins, name, len, out);
    case TT_JL_MOD_DOT:
      return find_builtin(dot_builtins, sizeof dot_builtins / sizeof *dot_builtins, name, len, out);
    case TT_JL_MOD_BASE:
      if (tt_ev_name_is(name, len, "nothing")) {
        *out = tt_v_none();
        return true;
      }
      static const struct { const char *n; double v; } consts[] = {
        {"Inf", INFINITY}, {"Inf32", INFINITY}, {"Inf16", INFINITY}, {"NaN", NAN}, {"NaN32", NAN}, {"pi", M_PI}, {"π", M_PI},
      };
      for (size_t i = 0; i < sizeof consts / sizeof *consts; i++)
        if (tt_ev_name_is(name, len, consts[i].n)) {
          *out = tt_v_float(consts[i].v);
          return true;
        }
      return find_dtype(name, len, out) || find_builtin(base_builtins, sizeof base_builtins / sizeof *base_builtins, name, len, out);
    default: return false;
  }
}

static bool jl_value_attr(tt_interp *I, TSNode at, const tt_val *recv, const char *name, uint32_t len, tt_val *out) {
  (void)I, (void)at, (void)recv, (void)name, (void)len, (void)out;
  return false; /* kernels ask size(x), eltype is not needed */
}

static bool jl_method(tt_interp *I, const tt_val *recv, const char *name, uint32_t len, tt_args *a, tt_val *out) {
  (void)I, (void)recv, (void)name, (void)len, (void)a, (void)out;
  return false; /* Julia has no methods on values */
}

const tt_lib tt_lib_cutile_julia = {
  .dialect = "cuTile.jl",
  .module_for_import = jl_module_for_import,
  .module_attr = jl_module_attr,
  .value_attr = jl_value_attr,
  .method = jl_method,
  .trunc_int_div = true,
  .front = &tt_front_julia,
};
