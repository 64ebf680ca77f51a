/* tile_lib_tl.c — Triton (`import triton`, `import triton.language as tl`) for the
 * evaluator core: the tl.* kernel functions over pointer tiles, the host side that
 * computes a grid and launches (`kernel[grid](...)`), and tensors' host attributes.
 *
 * Semantics (src/tile/README.md): a kernel's tensor arguments become pointers (0-d
 * pointer tiles over the argument's flat storage); integer arguments become int32
 * when they fit, as Triton specialises them; tl.constexpr parameters keep their
 * Python values. Loads and stores check every element whose mask is true: one
 * outside its buffer is a RUN-FAIL at the kernel line. Masked-off loads without
 * `other` read NaN (0 for integers), which Triton leaves undefined. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tile/tile_eval.h"
#include "tile/tile_lib.h"

enum { MOD_TRITON, MOD_TL, MOD_TL_MATH, MOD_TL_EXTRA, MOD_TL_EXTRA_CUDA, MOD_LIBDEVICE, MOD_TORCH };
enum { ENUM_PTR_DTYPE = 2 }; /* ptr.dtype: u.en.v is the element dtype */

static const struct { const char *name; tt_tile_dtype dt; } dtypes[] = {
  {"int1", TT_TILE_BOOL}, {"int8", TT_TILE_I8}, {"int16", TT_TILE_I16}, {"int32", TT_TILE_I32},
  {"int64", TT_TILE_I64}, {"uint8", TT_TILE_U8}, {"uint16", TT_TILE_U16}, {"uint32", TT_TILE_U32},
  {"uint64", TT_TILE_U64}, {"float16", TT_TILE_F16}, {"bfloat16", TT_TILE_BF16},
  {"float32", TT_TILE_F32}, {"float64", TT_TILE_F64}, {"bool", TT_TILE_BOOL},
  /* torch names, for host code comparing x.dtype == torch.float16 */
  {"half", TT_TILE_F16}, {"float", TT_TILE_F32}, {"double", TT_TILE_F64}, {"long", TT_TILE_I64},
};

/* ---- helpers ---------------------------------------------------------------- */

static const tt_val *need(tt_interp *I, tt_args *a, int pos, const char *kw, const char *fn) {
  const tt_val *v = tt_arg(a, pos, kw);
  if (!v) tt_ev_fail(I, a->call, "%s() needs its '%s' argument", fn, kw);
  return v;
}

static tt_val checked(tt_interp *I, TSNode at, tt_tile_t *t, const tt_err *e) {
  if (!t) tt_ev_fail_op(I, at, e);
  return tt_v_tile(t);
}

static tt_tile_t *as_tile(tt_interp *I, TSNode at, const tt_val *v, tt_tile_dtype like) {
  return tt_v_as_tile(I, at, v, like);
}

static int axis_of(tt_interp *I, TSNode at, const tt_val *v, int ndim) {
  int64_t ax = tt_v_as_int(I, at, v);
  if (ax < 0) ax += ndim;
  if (ax < 0 || ax >= ndim) tt_ev_fail(I, at, "axis %lld is out of range for a %d-d tensor", (long long)ax, ndim);
  return (int)ax;
}

static tt_tile_dtype dtype_of(tt_interp *I, TSNode at, const tt_val *v) {
  if (v->k != TV_DTYPE) tt_ev_fail(I, at, "expected a dtype (tl.float32 ...), got a %s", tt_v_kind_name(v->k));
  return v->u.dt;
}

static void check_pow2(tt_interp *I, TSNode at, int ndim, const int64_t *shape) {
  for (int i = 0; i < ndim; i++)
    if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)))
      tt_ev_fail(I, at, "block dimension %lld is not a power of two (Triton requires power-of-two block shapes)", (long long)shape[i]);
}

static tt_tile_t *scalar_tile(tt_interp *I, tt_tile_dtype dt, double f, int64_t i) {
  tt_err e;
  tt_tile_t *t = tt_op_full(&I->pool, dt, 0, NULL, f, i, &e);
  if (!t) tt_ev_fail_op(I, (TSNode){0}, &e);
  return t;
}

static tt_tile_t *bcast(tt_interp *I, TSNode at, tt_tile_t *t, int nd, const int64_t *shape) {
  if (t->ndim == nd && !memcmp(t->shape, shape, sizeof(int64_t) * (size_t)nd)) return t;
  tt_err e;
  tt_tile_t *r = tt_op_broadcast_to(&I->pool, t, nd, shape, TT_ALIGN_RIGHT, &e);
  if (!r) tt_ev_fail_op(I, at, &e);
  r->ptr_arg = t->ptr_arg, r->ptr_elem = t->ptr_elem;
  tt_tile_release(t);
  return r;
}

/* ---- program and ranges --------------------------------------------------- */

static tt_val tl_program_id(tt_interp *I, tt_args *a) {
  int ax = (int)tt_v_as_int(I, a->call, need(I, a, 0, "axis", "tl.program_id"));
  if (ax < 0 || ax > 2) tt_ev_fail(I, a->call, "tl.program_id(%d): the axis is 0, 1 or 2", ax);
  return tt_v_tile(scalar_tile(I, TT_TILE_I32, (double)I->bid[ax], I->bid[ax]));
}

static tt_val tl_num_programs(tt_interp *I, tt_args *a) {
  int ax = (int)tt_v_as_int(I, a->call, need(I, a, 0, "axis", "tl.num_programs"));
  if (ax < 0 || ax > 2) tt_ev_fail(I, a->call, "tl.num_programs(%d): the axis is 0, 1 or 2", ax);
  return tt_v_tile(scalar_tile(I, TT_TILE_I32, (double)I->grid[ax], I->grid[ax]));
}

static tt_val tl_arange(tt_interp *I, tt_args *a) {
  int64_t lo = tt_v_as_int(I, a->call, need(I, a, 0, "start", "tl.arange"));
  int64_t hi = tt_v_as_int(I, a->call, need(I, a, 1, "end", "tl.arange"));
  int64_t n = hi - lo;
  check_pow2(I, a->call, 1, &n);
  tt_err e;
  return checked(I, a->call, tt_op_arange(&I->pool, TT_TILE_I32, n, lo, 1, &e), &e);
}

/* range/static_range materialise their values, as Python's range does in the core */
static tt_val tl_range(tt_interp *I, tt_args *a) {
  int64_t v[3] = {0, 0, 1};
  int n = a->n;
  if (n < 1 || n > 3) tt_ev_fail(I, a->call, "tl.range takes one to three bounds");
  for (int i = 0; i < n; i++) v[n == 1 ? 1 : i] = tt_v_as_int(I, a->posnode[i], &a->pos[i]);
  if (v[2] == 0) tt_ev_fail(I, a->call, "range step is zero");
  int64_t cnt = v[2] > 0 ? (v[1] > v[0] ? (v[1] - v[0] + v[2] - 1) / v[2] : 0)
                         : (v[0] > v[1] ? (v[0] - v[1] - v[2] - 1) / -v[2] : 0);
  if (cnt > (1 << 26)) tt_ev_fail(I, a->call, "a range of %lld trips", (long long)cnt);
  tt_val t = tt_v_tuple(I, (int)cnt);
  for (int64_t i = 0; i < cnt; i++) t.u.tu->items[i] = tt_v_int(v[0] + i * v[2]);
  return t;
}

static tt_val tl_cdiv(tt_interp *I, tt_args *a) {
  const tt_val *x = need(I, a, 0, "x", "cdiv"), *y = need(I, a, 1, "div", "cdiv");
  if (x->k == TV_TILE || y->k == TV_TILE) {
    /* (x + y - 1) // y on tensors, with Triton's truncating division */
    tt_tile_t *tx = as_tile(I, a->call, x, TT_TILE_I32), *ty = as_tile(I, a->call, y, tx->dtype), *one = scalar_tile(I, tx->dtype, 1, 1);
    tt_err e;
    tt_tile_t *s = tt_op_binary(&I->pool, TT_OP_ADD, tx, ty, TT_ALIGN_RIGHT, &e);
    tt_tile_t *s1 = s ? tt_op_binary(&I->pool, TT_OP_SUB, s, one, TT_ALIGN_RIGHT, &e) : NULL;
    tt_tile_t *q = s1 ? tt_op_binary(&I->pool, TT_OP_TRUNCDIV, s1, ty, TT_ALIGN_RIGHT, &e) : NULL;
    tt_tile_release(tx), tt_tile_release(ty), tt_tile_release(one), tt_tile_release(s), tt_tile_release(s1);
    return checked(I, a->call, q, &e);
  }
  int64_t xv = tt_v_as_int(I, a->call, x), yv = tt_v_as_int(I, a->call, y);
  if (yv == 0) tt_ev_fail_run(I, a->call, "cdiv by zero");
  return tt_v_int((xv + yv - 1) / yv);
}

static tt_val triton_next_power_of_2(tt_interp *I, tt_args *a) {
  int64_t n = tt_v_as_int(I, a->call, need(I, a, 0, "n", "triton.next_power_of_2")), p = 1;
  while (p < n) p <<= 1;
  return tt_v_int(p);
}

static tt_val identity(tt_interp *I, tt_args *a) {
  if (a->n < 1) tt_ev_fail(I, a->call, "this hint takes a value");
  return tt_v_copy(&a->pos[0]);
}

static tt_val noop(tt_interp *I, tt_args *a) { return tt_v_none(); }

static tt_val not_callable(tt_interp *I, tt_args *a) {
  tt_ev_fail(I, a->call, "this Triton name is a decorator or annotation, not a function of kernels");
}

/* ---- construction and shape -------------------------------------------------- */

static tt_val make_full(tt_interp *I, tt_args *a, const tt_val *fill, int dtpos, const char *fn) {
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = tt_v_as_shape(I, a->call, need(I, a, 0, "shape", fn), shape);
  check_pow2(I, a->call, nd, shape);
  tt_tile_dtype dt = dtype_of(I, a->call, need(I, a, dtpos, "dtype", fn));
  double f = tt_v_as_float(I, a->call, fill);
  tt_err e;
  return checked(I, a->call, tt_op_full(&I->pool, dt, nd, shape, f, fill->k == TV_FLOAT ? (isfinite(f) ? (int64_t)f : 0) : tt_v_as_int(I, a->call, fill), &e), &e);
}

static tt_val tl_zeros(tt_interp *I, tt_args *a) {
  tt_val z = tt_v_int(0);
  return make_full(I, a, &z, 1, "tl.zeros");
}
static tt_val tl_full(tt_interp *I, tt_args *a) { return make_full(I, a, need(I, a, 1, "value", "tl.full"), 2, "tl.full"); }

static tt_val tl_zeros_like(tt_interp *I, tt_args *a) {
  const tt_val *x = need(I, a, 0, "input", "tl.zeros_like");
  if (x->k != TV_TILE) tt_ev_fail(I, a->call, "tl.zeros_like of a %s", tt_v_kind_name(x->k));
  tt_err e;
  return checked(I, a->call, tt_op_full(&I->pool, x->u.t->dtype, x->u.t->ndim, x->u.t->shape, 0, 0, &e), &e);
}

static tt_val do_cast(tt_interp *I, TSNode at, const tt_val *x, tt_tile_dtype dt) {
  tt_tile_t *t = as_tile(I, at, x, dt);
  if (t->ptr_arg) tt_ev_fail(I, at, "casting a pointer is not supported by the interpreter");
  tt_err e;
  tt_tile_t *r = t->dtype == dt ? tt_tile_ref(t) : tt_op_cast(&I->pool, t, dt, &e);
  tt_tile_release(t);
  return checked(I, at, r, &e);
}

static tt_val do_trans(tt_interp *I, TSNode at, const tt_tile_t *t) {
  if (t->ndim < 2) return tt_v_tile(tt_tile_ref((tt_tile_t *)t));
  int perm[TT_TILE_MAX_DIMS];
  for (int i = 0; i < t->ndim; i++) perm[i] = i;
  perm[t->ndim - 2] = t->ndim - 1, perm[t->ndim - 1] = t->ndim - 2;
  tt_err e;
  return checked(I, at, tt_op_permute(&I->pool, t, perm, &e), &e);
}

static const tt_tile_t *tile_arg(tt_interp *I, tt_args *a, int pos, const char *kw, const char *fn) {
  const tt_val *v = need(I, a, pos, kw, fn);
  if (v->k != TV_TILE) tt_ev_fail(I, tt_arg_node(a, pos, kw), "%s() takes a tensor, got a %s", fn, tt_v_kind_name(v->k));
  return v->u.t;
}

static tt_val tl_trans(tt_interp *I, tt_args *a) { return do_trans(I, a->call, tile_arg(I, a, 0, "input", "tl.trans")); }

static tt_val tl_permute(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_arg(I, a, 0, "input", "tl.permute");
  int64_t d[TT_TILE_MAX_DIMS];
  int n = tt_v_as_shape(I, a->call, need(I, a, 1, "dims", "tl.permute"), d);
  if (n != t->ndim) tt_ev_fail(I, a->call, "tl.permute of a %d-d tensor takes %d dims", t->ndim, t->ndim);
  int perm[TT_TILE_MAX_DIMS];
  for (int i = 0; i < n; i++) perm[i] = (int)d[i];
  tt_err e;
  return checked(I, a->call, tt_op_permute(&I->pool, t, perm, &e), &e);
}

static tt_val tl_reshape(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_arg(I, a, 0, "input", "tl.reshape");
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = tt_v_as_shape(I, a->call, need(I, a, 1, "shape", "tl.reshape"), shape);
  tt_err e;
  return checked(I, a->call, tt_op_reshape(&I->pool, t, nd, shape, &e), &e);
}

static tt_val tl_broadcast_to(tt_interp *I, tt_args *a) {
  tt_tile_t *t = as_tile(I, a->call, need(I, a, 0, "input", "tl.broadcast_to"), TT_TILE_F32);
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = tt_v_as_shape(I, a->call, need(I, a, 1, "shape", "tl.broadcast_to"), shape);
  return tt_v_tile(bcast(I, a->call, t, nd, shape));
}

static tt_val tl_expand_dims(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_arg(I, a, 0, "input", "tl.expand_dims");
  int64_t ax = tt_v_as_int(I, a->call, need(I, a, 1, "axis", "tl.expand_dims"));
  if (ax < 0) ax += t->ndim + 1;
  if (ax < 0 || ax > t->ndim || t->ndim == TT_TILE_MAX_DIMS) tt_ev_fail(I, a->call, "expand_dims axis out of range");
  int64_t shape[TT_TILE_MAX_DIMS];
  for (int i = 0, o = 0; i <= t->ndim; i++) {
    if (i == ax) shape[o++] = 1;
    if (i < t->ndim) shape[o++] = t->shape[i];
  }
  tt_err e;
  tt_tile_t *r = tt_op_reshape(&I->pool, t, t->ndim + 1, shape, &e);
  if (r) r->ptr_arg = t->ptr_arg, r->ptr_elem = t->ptr_elem;
  return checked(I, a->call, r, &e);
}

/* ---- memory ------------------------------------------------------------------ */

static const tt_tile_arg *pointee(tt_interp *I, TSNode at, const tt_tile_t *p, const char *fn) {
  if (!p->ptr_arg) tt_ev_fail(I, at, "%s() takes a pointer (a tensor argument plus offsets)", fn);
  return &I->args[p->ptr_arg - 1];
}

static int64_t numel(const tt_tile_arg *a) {
  int64_t n = 1;
  for (int d = 0; d < a->ndim; d++) n *= a->shape[d];
  return n;
}

static void *elem_at(const tt_tile_arg *a, int64_t off) { return (char *)a->data + off * (int64_t)tt_tile_dtype_size(a->dtype); }

/* Pointer, mask and other broadcast to one shape; mask and other may be absent. */
static void mem_operands(tt_interp *I, tt_args *a, const char *fn, int maskpos, int valpos, tt_tile_t **ptr,
                         tt_tile_t **mask, tt_tile_t **val, const char *valkw) {
  const tt_val *pv = need(I, a, 0, "pointer", fn);
  if (pv->k != TV_TILE) tt_ev_fail(I, a->call, "%s() takes a pointer, got a %s", fn, tt_v_kind_name(pv->k));
  if (pv->u.t->ptr_arg == 0) tt_ev_fail(I, a->call, "%s() takes a pointer; this is a %s tensor", fn, tt_tile_dtype_name(pv->u.t->dtype));
  *ptr = tt_tile_ref(pv->u.t);
  const tt_tile_arg *arr = pointee(I, a->call, *ptr, fn);
  const tt_val *mv = tt_arg(a, maskpos, "mask");
  const tt_val *vv = valkw ? tt_arg(a, valpos, valkw) : NULL;
  *mask = mv && mv->k != TV_NONE ? as_tile(I, a->call, mv, TT_TILE_BOOL) : NULL;
  *val = vv && vv->k != TV_NONE ? as_tile(I, a->call, vv, arr->dtype == TT_TILE_TF32 ? TT_TILE_F32 : arr->dtype) : NULL;
  int nd = (*ptr)->ndim;
  int64_t shape[TT_TILE_MAX_DIMS];
  memcpy(shape, (*ptr)->shape, sizeof shape);
  tt_err e;
  const tt_tile_t *others[2] = {*mask, *val};
  for (int i = 0; i < 2; i++) {
    if (!others[i]) continue;
    int64_t s2[TT_TILE_MAX_DIMS];
    if (tt_broadcast_shape(nd, shape, others[i]->ndim, others[i]->shape, TT_ALIGN_RIGHT, &nd, s2, &e)) tt_ev_fail_op(I, a->call, &e);
    memcpy(shape, s2, sizeof s2);
  }
  *ptr = bcast(I, a->call, *ptr, nd, shape);
  if (*mask) *mask = bcast(I, a->call, *mask, nd, shape);
  if (*val) *val = bcast(I, a->call, *val, nd, shape);
}

static void out_of_bounds(tt_interp *I, tt_args *a, const char *fn, const tt_tile_arg *arr, int64_t off, int64_t i) {
  tt_ev_fail_run(I, a->call, "%s() accesses element %lld of '%s' (%lld elements) under a true mask (lane %lld of the block)",
                 fn, (long long)off, arr->name, (long long)numel(arr), (long long)i);
}

static tt_val bp_load(tt_interp *I, tt_args *a, const tt_val *b);
static tt_val bp_store(tt_interp *I, tt_args *a, const tt_val *b);

static tt_val tl_load(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                                   "eviction_policy", "volatile", NULL};
  tt_args_check(I, a, "tl.load", kw, 3);
  if (a->n && a->pos[0].k == TV_BLOCKPTR) return bp_load(I, a, &a->pos[0]);
  tt_tile_t *ptr, *mask, *other;
  mem_operands(I, a, "tl.load", 1, 2, &ptr, &mask, &other, "other");
  const tt_tile_arg *arr = pointee(I, a->call, ptr, "tl.load");
  tt_tile_dtype dt = arr->dtype == TT_TILE_TF32 ? TT_TILE_F32 : arr->dtype;
  tt_tile_t *t = tt_tile_new(&I->pool, dt, ptr->ndim, ptr->shape);
  if (!t) tt_ev_fail(I, a->call, "out of memory");
  int64_t n = numel(arr);
  for (int64_t i = 0; i < t->n; i++) {
    bool on = !mask || mask->data.i[i];
    int64_t off = ptr->data.i[i];
    double v;
    if (on) {
      if (off < 0 || off >= n) out_of_bounds(I, a, "tl.load", arr, off, i);
      if (tt_dtype_store(dt) == TT_STORE_I64) {
        t->data.i[i] = tt_elem_load_i(arr->dtype, elem_at(arr, off));
        continue;
      }
      v = tt_elem_load(arr->dtype, elem_at(arr, off));
    } else if (other) {
      v = tt_tile_get_f(other, i);
      if (tt_dtype_store(dt) == TT_STORE_I64) {
        t->data.i[i] = tt_tile_get_i(other, i);
        continue;
      }
    } else {
      v = tt_dtype_is_float(dt) ? NAN : 0.0;
    }
    switch (tt_dtype_store(dt)) {
      case TT_STORE_F32: t->data.f[i] = tt_round_f32(dt, (float)v); break;
      case TT_STORE_F64: t->data.d[i] = v; break;
      default: t->data.i[i] = tt_wrap_int(dt, (int64_t)v); break;
    }
  }
  tt_tile_release(ptr);
  tt_tile_release(mask);
  tt_tile_release(other);
  return tt_v_tile(t);
}

static tt_val tl_store(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy", NULL};
  tt_args_check(I, a, "tl.store", kw, 3);
  if (a->n && a->pos[0].k == TV_BLOCKPTR) return bp_store(I, a, &a->pos[0]);
  if (!tt_arg(a, 1, "value")) tt_ev_fail(I, a->call, "tl.store() needs a value");
  tt_tile_t *ptr, *mask, *val;
  mem_operands(I, a, "tl.store", 2, 1, &ptr, &mask, &val, "value");
  const tt_tile_arg *arr = pointee(I, a->call, ptr, "tl.store");
  int64_t n = numel(arr);
  for (int64_t i = 0; i < ptr->n; i++) {
    if (mask && !mask->data.i[i]) continue;
    int64_t off = ptr->data.i[i];
    if (off < 0 || off >= n) out_of_bounds(I, a, "tl.store", arr, off, i);
    if (tt_dtype_store(val->dtype) == TT_STORE_I64 && !tt_dtype_is_float(arr->dtype))
      tt_elem_store_i(arr->dtype, elem_at(arr, off), val->data.i[i]);
    else
      tt_elem_store(arr->dtype, elem_at(arr, off), tt_tile_get_f(val, i));
  }
  tt_tile_release(ptr);
  tt_tile_release(mask);
  tt_tile_release(val);
  return tt_v_none();
}

/* tl.atomic_add: elements apply in order; returns the values before the adds. */
static tt_val tl_atomic_add(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"pointer", "val", "mask", "sem", "scope", NULL};
  tt_args_check(I, a, "tl.atomic_add", kw, 3);
  tt_tile_t *ptr, *mask, *val;
  mem_operands(I, a, "tl.atomic_add", 2, 1, &ptr, &mask, &val, "val");
  if (!val) tt_ev_fail(I, a->call, "tl.atomic_add() needs a value");
  const tt_tile_arg *arr = pointee(I, a->call, ptr, "tl.atomic_add");
  tt_tile_dtype dt = arr->dtype;
  tt_tile_t *old = tt_tile_new(&I->pool, dt, ptr->ndim, ptr->shape);
  if (!old) tt_ev_fail(I, a->call, "out of memory");
  int64_t n = numel(arr);
  for (int64_t i = 0; i < ptr->n; i++) {
    int64_t off = ptr->data.i[i];
    if (mask && !mask->data.i[i]) {
      if (tt_dtype_store(dt) == TT_STORE_I64) old->data.i[i] = 0;
      else if (tt_dtype_store(dt) == TT_STORE_F32) old->data.f[i] = 0;
      else old->data.d[i] = 0;
      continue;
    }
    if (off < 0 || off >= n) out_of_bounds(I, a, "tl.atomic_add", arr, off, i);
    void *p = elem_at(arr, off);
    if (tt_dtype_store(dt) == TT_STORE_I64) {
      int64_t o = tt_elem_load_i(dt, p);
      old->data.i[i] = o;
      tt_elem_store_i(dt, p, o + tt_tile_get_i(val, i));
    } else {
      double o = tt_elem_load(dt, p);
      if (tt_dtype_store(dt) == TT_STORE_F32) old->data.f[i] = (float)o;
      else old->data.d[i] = o;
      tt_elem_store(dt, p, tt_dtype_store(dt) == TT_STORE_F32 ? (double)((float)o + (float)tt_tile_get_f(val, i)) : o + tt_tile_get_f(val, i));
    }
  }
  tt_tile_release(ptr);
  tt_tile_release(mask);
  tt_tile_release(val);
  return tt_v_tile(old);
}

/* ---- block pointers ------------------------------------------------------- */

enum { BP_PTR, BP_SHAPE, BP_STRIDES, BP_OFFSETS, BP_BLOCK, BP_N };

static int ints_of(tt_interp *I, TSNode at, const tt_val *v, int64_t *out, const char *what) {
  if (v->k != TV_TUPLE) tt_ev_fail(I, at, "tl.make_block_ptr: %s must be a tuple", what);
  if (v->u.tu->n > TT_TILE_MAX_DIMS) tt_ev_fail(I, at, "tl.make_block_ptr: more than %d dims", TT_TILE_MAX_DIMS);
  for (int i = 0; i < v->u.tu->n; i++) out[i] = tt_v_as_int(I, at, &v->u.tu->items[i]);
  return v->u.tu->n;
}

static tt_val int_tuple(tt_interp *I, int n, const int64_t *v) {
  tt_val t = tt_v_tuple(I, n);
  for (int i = 0; i < n; i++) t.u.tu->items[i] = tt_v_int(v[i]);
  return t;
}

/* tl.make_block_ptr(base, shape, strides, offsets, block_shape, order): a window of
 * block_shape elements at offsets into the shape x strides view of base. order (the
 * memory layout hint) does not change which elements are addressed. */
static tt_val tl_make_block_ptr(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"base", "shape", "strides", "offsets", "block_shape", "order", NULL};
  tt_args_check(I, a, "tl.make_block_ptr", kw, 6);
  static const char *const names[] = {"base", "shape", "strides", "offsets", "block_shape"};
  const tt_val *v[BP_N];
  for (int i = 0; i < BP_N; i++) v[i] = need(I, a, i, names[i], "tl.make_block_ptr");
  if (v[BP_PTR]->k != TV_TILE || !v[BP_PTR]->u.t->ptr_arg || v[BP_PTR]->u.t->n != 1)
    tt_ev_fail(I, a->call, "tl.make_block_ptr: base must be a scalar pointer");
  int64_t d[BP_N][TT_TILE_MAX_DIMS];
  int nd = ints_of(I, a->call, v[BP_SHAPE], d[BP_SHAPE], "shape");
  for (int i = BP_STRIDES; i < BP_N; i++)
    if (ints_of(I, a->call, v[i], d[i], names[i]) != nd) tt_ev_fail(I, a->call, "tl.make_block_ptr: %s has a different rank from shape", names[i]);
  check_pow2(I, a->call, nd, d[BP_BLOCK]);
  tt_val bp = tt_v_tuple(I, BP_N);
  bp.k = TV_BLOCKPTR;
  bp.u.tu->items[BP_PTR] = tt_v_copy(v[BP_PTR]);
  for (int i = BP_SHAPE; i < BP_N; i++) bp.u.tu->items[i] = int_tuple(I, nd, d[i]);
  return bp;
}

static tt_val tl_advance(tt_interp *I, tt_args *a) {
  const tt_val *b = need(I, a, 0, "base", "tl.advance"), *o = need(I, a, 1, "offsets", "tl.advance");
  if (b->k != TV_BLOCKPTR) tt_ev_fail(I, a->call, "tl.advance takes a block pointer");
  int64_t off[TT_TILE_MAX_DIMS], add[TT_TILE_MAX_DIMS];
  int nd = ints_of(I, a->call, &b->u.tu->items[BP_OFFSETS], off, "offsets");
  if (ints_of(I, a->call, o, add, "offsets") != nd) tt_ev_fail(I, a->call, "tl.advance: offsets of a different rank");
  for (int i = 0; i < nd; i++) off[i] += add[i];
  tt_val r = tt_v_tuple(I, BP_N);
  r.k = TV_BLOCKPTR;
  for (int i = 0; i < BP_N; i++) r.u.tu->items[i] = i == BP_OFFSETS ? int_tuple(I, nd, off) : tt_v_copy(&b->u.tu->items[i]);
  return r;
}

typedef struct bp_view {
  const tt_tile_arg *arr;
  int64_t base;
  int nd;
  int64_t shape[TT_TILE_MAX_DIMS], strides[TT_TILE_MAX_DIMS], off[TT_TILE_MAX_DIMS], block[TT_TILE_MAX_DIMS];
  bool checked[TT_TILE_MAX_DIMS];
  int64_t n;
} bp_view;

static void bp_open(tt_interp *I, tt_args *a, const tt_val *b, bp_view *v, const char *fn) {
  const tt_tile_t *p = b->u.tu->items[BP_PTR].u.t;
  v->arr = pointee(I, a->call, p, fn);
  v->base = p->data.i[0];
  v->nd = ints_of(I, a->call, &b->u.tu->items[BP_SHAPE], v->shape, "shape");
  ints_of(I, a->call, &b->u.tu->items[BP_STRIDES], v->strides, "strides");
  ints_of(I, a->call, &b->u.tu->items[BP_OFFSETS], v->off, "offsets");
  ints_of(I, a->call, &b->u.tu->items[BP_BLOCK], v->block, "block_shape");
  memset(v->checked, 0, sizeof v->checked);
  const tt_val *bc = tt_arg(a, -1, "boundary_check");
  if (bc && bc->k == TV_TUPLE)
    for (int i = 0; i < bc->u.tu->n; i++) v->checked[axis_of(I, a->call, &bc->u.tu->items[i], v->nd)] = true;
  else if (bc && bc->k != TV_NONE)
    v->checked[axis_of(I, a->call, bc, v->nd)] = true;
  v->n = 1;
  for (int i = 0; i < v->nd; i++) v->n *= v->block[i];
}

/* The buffer offset of block element i; -1 when a checked dim is outside the shape.
 * An unchecked dim outside the shape still addresses memory (it is the kernel's
 * promise that it is inside), which the caller bounds-checks against the buffer. */
static int64_t bp_offset(const bp_view *v, int64_t i, bool *outside_shape) {
  int64_t off = v->base;
  *outside_shape = false;
  for (int d = v->nd - 1; d >= 0; d--) {
    int64_t c = v->off[d] + i % v->block[d];
    i /= v->block[d];
    if (c < 0 || c >= v->shape[d]) {
      if (v->checked[d]) return -1;
      *outside_shape = true;
    }
    off += c * v->strides[d];
  }
  return off;
}

static tt_val bp_load(tt_interp *I, tt_args *a, const tt_val *b) {
  bp_view v;
  bp_open(I, a, b, &v, "tl.load");
  const tt_val *po = tt_arg(a, -1, "padding_option");
  double pad = NAN; /* "" leaves it undefined in Triton: poison */
  if (po && po->k == TV_STR) {
    const char *s = I->text + po->u.str.s;
    uint32_t len = po->u.str.e - po->u.str.s;
    if (tt_ev_name_is(s, len, "zero")) pad = 0.0;
    else if (!tt_ev_name_is(s, len, "nan") && len) tt_ev_fail(I, a->call, "padding_option is \"zero\", \"nan\" or \"\"");
  }
  tt_tile_dtype dt = v.arr->dtype == TT_TILE_TF32 ? TT_TILE_F32 : v.arr->dtype;
  tt_tile_t *t = tt_tile_new(&I->pool, dt, v.nd, v.block);
  if (!t) tt_ev_fail(I, a->call, "out of memory");
  int64_t numel_ = numel(v.arr);
  for (int64_t i = 0; i < v.n; i++) {
    bool outside;
    int64_t off = bp_offset(&v, i, &outside);
    double x;
    if (off < 0) {
      x = tt_dtype_is_float(dt) ? pad : 0.0;
    } else {
      if (off >= numel_ || off < 0) out_of_bounds(I, a, "tl.load", v.arr, off, i);
      x = tt_elem_load(v.arr->dtype, elem_at(v.arr, off));
    }
    switch (tt_dtype_store(dt)) {
      case TT_STORE_F32: t->data.f[i] = (float)x; break;
      case TT_STORE_F64: t->data.d[i] = x; break;
      default: t->data.i[i] = off < 0 ? 0 : tt_elem_load_i(v.arr->dtype, elem_at(v.arr, off)); break;
    }
  }
  return tt_v_tile(t);
}

static tt_val bp_store(tt_interp *I, tt_args *a, const tt_val *b) {
  bp_view v;
  bp_open(I, a, b, &v, "tl.store");
  const tt_val *val = need(I, a, 1, "value", "tl.store");
  tt_tile_t *t = as_tile(I, a->call, val, v.arr->dtype);
  t = bcast(I, a->call, t, v.nd, v.block);
  int64_t numel_ = numel(v.arr);
  for (int64_t i = 0; i < v.n; i++) {
    bool outside;
    int64_t off = bp_offset(&v, i, &outside);
    if (off < 0) continue;
    if (off >= numel_) out_of_bounds(I, a, "tl.store", v.arr, off, i);
    if (tt_dtype_store(t->dtype) == TT_STORE_I64 && !tt_dtype_is_float(v.arr->dtype))
      tt_elem_store_i(v.arr->dtype, elem_at(v.arr, off), t->data.i[i]);
    else
      tt_elem_store(v.arr->dtype, elem_at(v.arr, off), tt_tile_get_f(t, i));
  }
  tt_tile_release(t);
  return tt_v_none();
}

/* ---- dot ------------------------------------------------------------------- */

/* f32 operands as the tensor core reads them in TF32 mode: Triton hands the f32
 * registers to mma without a cvt.rna, and the hardware ignores the low 13 mantissa
 * bits (measured on an H200: rounding to nearest instead leaves 0.015 of difference
 * in a K=200 product, truncation none). cuTile's astype(ct.tfloat32) is an explicit
 * conversion and rounds (tile_value.c). */
static tt_tile_t *tf32_truncated(tt_interp *I, TSNode at, const tt_tile_t *t) {
  tt_err e;
  tt_tile_t *r = tt_op_cast(&I->pool, t, TT_TILE_F32, &e);
  if (!r) tt_ev_fail_op(I, at, &e);
  for (int64_t i = 0; i < r->n; i++) {
    uint32_t u;
    memcpy(&u, &r->data.f[i], 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u &= ~0x1fffu;
    memcpy(&r->data.f[i], &u, 4);
  }
  return r;
}

/* Triton's default for f32 operands is TF32 (allow_tf32=True, input_precision "tf32");
 * "ieee" keeps f32. The product accumulates in out_dtype (f32 by default). */
static tt_val tl_dot(tt_interp *I, tt_args *a) {
  static const char *const kw[] = {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc",
                                   "out_dtype", NULL};
  tt_args_check(I, a, "tl.dot", kw, 4);
  const tt_tile_t *x = tile_arg(I, a, 0, "input", "tl.dot"), *y = tile_arg(I, a, 1, "other", "tl.dot");
  const tt_val *accv = tt_arg(a, 2, "acc"), *prec = tt_arg(a, 3, "input_precision"), *tf = tt_arg(a, -1, "allow_tf32");
  const tt_val *od = tt_arg(a, -1, "out_dtype");
  if (x->ndim < 2 || x->ndim != y->ndim) tt_ev_fail(I, a->call, "tl.dot takes two 2-d (or 3-d) tensors of one rank");
  for (int i = 0; i < 2; i++) check_pow2(I, a->call, 1, &(i ? y : x)->shape[(i ? y : x)->ndim - 1]);
  bool tf32 = true;
  if (tf && tf->k != TV_NONE) tf32 = tt_v_truthy(I, a->call, tf);
  if (prec && prec->k == TV_STR) {
    const char *s = I->text + prec->u.str.s;
    uint32_t len = prec->u.str.e - prec->u.str.s;
    tf32 = !tt_ev_name_is(s, len, "ieee");
  }
  tt_tile_dtype out = od && od->k != TV_NONE ? dtype_of(I, a->call, od)
                      : tt_dtype_is_int(x->dtype) ? TT_TILE_I32 : TT_TILE_F32;
  tt_err e;
  tt_tile_t *xa = NULL, *ya = NULL, *acc = NULL;
  if (tf32 && x->dtype == TT_TILE_F32 && y->dtype == TT_TILE_F32) {
    xa = tf32_truncated(I, a->call, x);
    ya = tf32_truncated(I, a->call, y);
  }
  if (accv && accv->k != TV_NONE) {
    if (accv->k != TV_TILE) tt_ev_fail(I, a->call, "tl.dot's acc must be a tensor");
    acc = accv->u.t;
    if (!od || od->k == TV_NONE) out = acc->dtype;
  }
  tt_tile_t *r = tt_op_matmul(&I->pool, xa ? xa : x, ya ? ya : y, acc, out, &e);
  tt_tile_release(xa);
  tt_tile_release(ya);
  return checked(I, a->call, r, &e);
}

/* ---- elementwise ----------------------------------------------------------------- */


#define UNARY(name, op) \
  static tt_val tl_##name(tt_interp *I, tt_args *a) { return tt_ev_unary_call(I, a, op, "a math function takes a tensor"); }
UNARY(exp, TT_OP_EXP)
UNARY(exp2, TT_OP_EXP2)
UNARY(log, TT_OP_LOG)
UNARY(log2, TT_OP_LOG2)
UNARY(sqrt, TT_OP_SQRT)
UNARY(rsqrt, TT_OP_RSQRT)
UNARY(sigmoid, TT_OP_SIGMOID)
UNARY(abs, TT_OP_ABS)
UNARY(sin, TT_OP_SIN)
UNARY(cos, TT_OP_COS)
UNARY(floor, TT_OP_FLOOR)
UNARY(ceil, TT_OP_CEIL)
UNARY(erf, TT_OP_ERF)
UNARY(tanh, TT_OP_TANH)


static tt_val tl_maximum(tt_interp *I, tt_args *a) { return tt_ev_binary_call(I, a, TT_OP_MAX); }
static tt_val tl_minimum(tt_interp *I, tt_args *a) { return tt_ev_binary_call(I, a, TT_OP_MIN); }
static tt_val tl_pow(tt_interp *I, tt_args *a) { return tt_ev_binary_call(I, a, TT_OP_POW); }

static tt_val tl_where(tt_interp *I, tt_args *a) { return tt_ev_where_call(I, a, "tl.where"); }

static tt_val tl_fma(tt_interp *I, tt_args *a) {
  if (a->n != 3) tt_ev_fail(I, a->call, "fma() takes three operands");
  tt_args m = {.n = 2, .call = a->call};
  m.pos[0] = a->pos[0], m.pos[1] = a->pos[1], m.posnode[0] = a->posnode[0], m.posnode[1] = a->posnode[1];
  tt_val p = tt_ev_binary_call(I, &m, TT_OP_MUL);
  tt_args s = {.n = 2, .call = a->call};
  s.pos[0] = p, s.pos[1] = a->pos[2], s.posnode[0] = a->call, s.posnode[1] = a->posnode[2];
  tt_val r = tt_ev_binary_call(I, &s, TT_OP_ADD);
  tt_v_drop(&p);
  return r;
}

static tt_val tl_clamp(tt_interp *I, tt_args *a) {
  if (a->n != 3) tt_ev_fail(I, a->call, "tl.clamp() takes x, min and max");
  tt_args m = {.n = 2, .call = a->call};
  m.pos[0] = a->pos[0], m.pos[1] = a->pos[1], m.posnode[0] = a->posnode[0], m.posnode[1] = a->posnode[1];
  tt_val lo = tt_ev_binary_call(I, &m, TT_OP_MAX);
  tt_args s = {.n = 2, .call = a->call};
  s.pos[0] = lo, s.pos[1] = a->pos[2], s.posnode[0] = a->call, s.posnode[1] = a->posnode[2];
  tt_val r = tt_ev_binary_call(I, &s, TT_OP_MIN);
  tt_v_drop(&lo);
  return r;
}

/* ---- reductions ------------------------------------------------------------- */

static tt_val reduce(tt_interp *I, tt_args *a, tt_redop op, const char *fn) {
  static const char *const kw[] = {"input", "axis", "keep_dims", "dtype", "return_indices", NULL};
  tt_args_check(I, a, fn, kw, 3);
  tt_tile_t *t = as_tile(I, a->posnode[0], need(I, a, 0, "input", fn), TT_TILE_F32);
  const tt_val *axv = tt_arg(a, 1, "axis"), *kd = tt_arg(a, 2, "keep_dims");
  bool keep = kd && tt_v_truthy(I, a->call, kd);
  tt_err e;
  if (!axv || axv->k == TV_NONE) {
    if (op == TT_RED_ARGMAX || op == TT_RED_ARGMIN) {
      tt_tile_release(t);
      tt_ev_fail(I, a->call, "%s needs an axis", fn);
    }
    for (int ax = t->ndim - 1; ax >= 0; ax--) {
      tt_tile_t *r = tt_op_reduce(&I->pool, op, t, ax, keep, &e);
      tt_tile_release(t);
      if (!r) tt_ev_fail_op(I, a->call, &e);
      t = r;
    }
    return tt_v_tile(t);
  }
  int ax = axis_of(I, a->call, axv, t->ndim);
  tt_tile_t *r = tt_op_reduce(&I->pool, op, t, ax, keep, &e);
  tt_tile_release(t);
  return checked(I, a->call, r, &e);
}

#define REDUCE(name, op) \
  static tt_val tl_##name(tt_interp *I, tt_args *a) { return reduce(I, a, op, "tl." #name); }
REDUCE(sum, TT_RED_SUM)
REDUCE(max, TT_RED_MAX)
REDUCE(min, TT_RED_MIN)
REDUCE(argmax, TT_RED_ARGMAX)
REDUCE(argmin, TT_RED_ARGMIN)

static tt_val tl_cumsum(tt_interp *I, tt_args *a) {
  const tt_tile_t *t = tile_arg(I, a, 0, "input", "tl.cumsum");
  const tt_val *axv = tt_arg(a, 1, "axis");
  int ax = axv ? axis_of(I, a->call, axv, t->ndim) : 0;
  tt_err e;
  return checked(I, a->call, tt_op_cumsum(&I->pool, t, ax, &e), &e);
}

/* ---- the tables -------------------------------------------------------------- */

static const tt_builtin triton_builtins[] = {
  {"jit", not_callable, true}, {"autotune", not_callable, false}, {"heuristics", not_callable, false},
  {"Config", not_callable, false}, {"cdiv", tl_cdiv, false}, {"next_power_of_2", triton_next_power_of_2, false},
};

static const tt_builtin tl_builtins[] = {
  {"constexpr", identity, false}, {"program_id", tl_program_id, false}, {"num_programs", tl_num_programs, false},
  {"arange", tl_arange, false}, {"range", tl_range, false}, {"static_range", tl_range, false},
  {"zeros", tl_zeros, false}, {"full", tl_full, false}, {"zeros_like", tl_zeros_like, false},
  {"load", tl_load, false}, {"store", tl_store, false}, {"make_block_ptr", tl_make_block_ptr, false},
  {"advance", tl_advance, false}, {"atomic_add", tl_atomic_add, false},
  {"dot", tl_dot, false}, {"trans", tl_trans, false}, {"permute", tl_permute, false},
  {"reshape", tl_reshape, false}, {"view", tl_reshape, false}, {"broadcast_to", tl_broadcast_to, false},
  {"expand_dims", tl_expand_dims, false},
  {"exp", tl_exp, false}, {"exp2", tl_exp2, false}, {"log", tl_log, false}, {"log2", tl_log2, false},
  {"sqrt", tl_sqrt, false}, {"rsqrt", tl_rsqrt, false}, {"sigmoid", tl_sigmoid, false}, {"abs", tl_abs, false},
  {"sin", tl_sin, false}, {"cos", tl_cos, false}, {"floor", tl_floor, false}, {"ceil", tl_ceil, false},
  {"erf", tl_erf, false}, {"fma", tl_fma, false}, {"clamp", tl_clamp, false},
  {"maximum", tl_maximum, false}, {"minimum", tl_minimum, false}, {"where", tl_where, false},
  {"cdiv", tl_cdiv, false}, {"sum", tl_sum, false}, {"max", tl_max, false}, {"min", tl_min, false},
  {"argmax", tl_argmax, false}, {"argmin", tl_argmin, false}, {"cumsum", tl_cumsum, false},
  {"multiple_of", identity, false}, {"max_contiguous", identity, false}, {"assume", noop, false},
  {"debug_barrier", noop, false}, {"static_assert", noop, false}, {"device_assert", noop, false},
};

/* tl.math and libdevice: the math functions (libdevice's tanh and pow among them) */
static const tt_builtin math_builtins[] = {
  {"exp", tl_exp, false}, {"exp2", tl_exp2, false}, {"log", tl_log, false}, {"log2", tl_log2, false},
  {"sqrt", tl_sqrt, false}, {"rsqrt", tl_rsqrt, false}, {"abs", tl_abs, false}, {"fabs", tl_abs, false},
  {"sin", tl_sin, false}, {"cos", tl_cos, false}, {"floor", tl_floor, false}, {"ceil", tl_ceil, false},
  {"erf", tl_erf, false}, {"tanh", tl_tanh, false}, {"pow", tl_pow, false}, {"fma", tl_fma, false},
  {"sigmoid", tl_sigmoid, false}, {"max", tl_maximum, false}, {"min", tl_minimum, false},
};

static int tl_module_for_import(const char *dotted, uint32_t len) {
  static const struct { const char *name; int mod; } mods[] = {
    {"triton", MOD_TRITON}, {"triton.language", MOD_TL}, {"triton.language.math", MOD_TL_MATH},
    {"triton.language.extra", MOD_TL_EXTRA}, {"triton.language.extra.cuda", MOD_TL_EXTRA_CUDA},
    {"triton.language.extra.libdevice", MOD_LIBDEVICE}, {"triton.language.extra.cuda.libdevice", MOD_LIBDEVICE},
    {"torch", MOD_TORCH},
  };
  for (size_t i = 0; i < sizeof mods / sizeof *mods; i++)
    if (tt_ev_name_is(dotted, len, mods[i].name)) return mods[i].mod;
  return -1;
}

static bool find_builtin(const tt_builtin *tab, size_t n, const char *name, uint32_t len, tt_val *out) {
  for (size_t i = 0; i < n; i++)
    if (tt_ev_name_is(name, len, tab[i].name)) {
      *out = (tt_val){.k = TV_BUILTIN, .u.b = &tab[i]};
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

static bool submodule(const char *name, uint32_t len, const char *want, int mod, tt_val *out) {
  if (!tt_ev_name_is(name, len, want)) return false;
  *out = (tt_val){.k = TV_MODULE, .u.mod = mod};
  return true;
}

static bool tl_module_attr(tt_interp *I, int mod, const char *name, uint32_t len, tt_val *out) {
  switch (mod) {
    case MOD_TRITON:
      return submodule(name, len, "language", MOD_TL, out) ||
             find_builtin(triton_builtins, sizeof triton_builtins / sizeof *triton_builtins, name, len, out);
    case MOD_TL:
      return submodule(name, len, "math", MOD_TL_MATH, out) || submodule(name, len, "extra", MOD_TL_EXTRA, out) ||
             find_dtype(name, len, out) || find_builtin(tl_builtins, sizeof tl_builtins / sizeof *tl_builtins, name, len, out);
    case MOD_TL_EXTRA:
      return submodule(name, len, "cuda", MOD_TL_EXTRA_CUDA, out) || submodule(name, len, "libdevice", MOD_LIBDEVICE, out);
    case MOD_TL_EXTRA_CUDA: return submodule(name, len, "libdevice", MOD_LIBDEVICE, out);
    case MOD_TL_MATH:
    case MOD_LIBDEVICE: return find_builtin(math_builtins, sizeof math_builtins / sizeof *math_builtins, name, len, out);
    case MOD_TORCH: return find_dtype(name, len, out);
    default: return false;
  }
}

static tt_val shape_tuple(tt_interp *I, int nd, const int64_t *shape) {
  tt_val t = tt_v_tuple(I, nd);
  for (int i = 0; i < nd; i++) t.u.tu->items[i] = tt_v_int(shape[i]);
  return t;
}

static bool tl_value_attr(tt_interp *I, TSNode at, const tt_val *recv, const char *name, uint32_t len, tt_val *out) {
  if (recv->k == TV_ENUM && recv->u.en.type == ENUM_PTR_DTYPE && tt_ev_name_is(name, len, "element_ty")) {
    *out = tt_v_dtype((tt_tile_dtype)recv->u.en.v);
    return true;
  }
  if (recv->k == TV_TILE) {
    const tt_tile_t *t = recv->u.t;
    if (tt_ev_name_is(name, len, "dtype")) {
      *out = t->ptr_arg ? (tt_val){.k = TV_ENUM, .u.en = {ENUM_PTR_DTYPE, (int)t->ptr_elem}} : tt_v_dtype(t->dtype);
      return true;
    }
    if (tt_ev_name_is(name, len, "shape")) {
      *out = shape_tuple(I, t->ndim, t->shape);
      return true;
    }
    if (tt_ev_name_is(name, len, "T")) {
      *out = do_trans(I, at, t);
      return true;
    }
    return false;
  }
  if (recv->k == TV_ARRAY) {
    const tt_tile_arg *arr = &I->args[recv->u.arr];
    if (tt_ev_name_is(name, len, "shape")) *out = shape_tuple(I, arr->ndim, arr->shape);
    else if (tt_ev_name_is(name, len, "dtype")) *out = tt_v_dtype(arr->dtype);
    else if (tt_ev_name_is(name, len, "ndim")) *out = tt_v_int(arr->ndim);
    else return false;
    return true;
  }
  return false;
}

/* Host tensors (the spec's buffers) and kernel tensors' methods. */
static bool tl_method(tt_interp *I, const tt_val *recv, const char *name, uint32_t len, tt_args *a, tt_val *out) {
  if (recv->k == TV_ARRAY) {
    const tt_tile_arg *arr = &I->args[recv->u.arr];
    if (tt_ev_name_is(name, len, "stride") || tt_ev_name_is(name, len, "size")) {
      bool stride = *name == 's' && name[1] == 't';
      if (a->n == 0) *out = shape_tuple(I, arr->ndim, stride ? arr->strides : arr->shape);
      else {
        int d = axis_of(I, a->call, &a->pos[0], arr->ndim);
        *out = tt_v_int(stride ? arr->strides[d] : arr->shape[d]);
      }
    } else if (tt_ev_name_is(name, len, "numel")) *out = tt_v_int(numel(arr));
    else if (tt_ev_name_is(name, len, "dim")) *out = tt_v_int(arr->ndim);
    else if (tt_ev_name_is(name, len, "element_size")) *out = tt_v_int((int64_t)tt_tile_dtype_size(arr->dtype));
    else if (tt_ev_name_is(name, len, "is_contiguous")) *out = tt_v_bool(true);
    else if (tt_ev_name_is(name, len, "contiguous")) *out = tt_v_copy(recv);
    else return false;
    return true;
  }
  if (recv->k != TV_TILE) return false;
  if (tt_ev_name_is(name, len, "to")) {
    *out = do_cast(I, a->call, recv, dtype_of(I, a->call, need(I, a, 0, "dtype", ".to")));
    return true;
  }
  tt_args b = *a;
  /* x.sum(axis) and friends: the receiver is the first argument */
  if (b.n == TT_MAX_ARGS) return false;
  memmove(&b.pos[1], &b.pos[0], sizeof b.pos[0] * (size_t)b.n);
  memmove(&b.posnode[1], &b.posnode[0], sizeof b.posnode[0] * (size_t)b.n);
  b.pos[0] = *recv;
  b.posnode[0] = a->call;
  b.n++;
  tt_val bi;
  static const char *const methods[] = {"sum", "max", "min", "argmax", "argmin", "trans", "reshape", "permute",
                                        "broadcast_to", "expand_dims", "cumsum", NULL};
  for (const char *const *m = methods; *m; m++)
    if (tt_ev_name_is(name, len, *m) && find_builtin(tl_builtins, sizeof tl_builtins / sizeof *tl_builtins, name, len, &bi)) {
      *out = bi.u.b->fn(I, &b);
      return true;
    }
  return false;
}

static bool is_constexpr(tt_interp *I, TSNode annotation) {
  if (ts_node_is_null(annotation)) return false;
  uint32_t s = ts_node_start_byte(annotation), e = ts_node_end_byte(annotation);
  return e - s >= 9 && !memcmp(I->text + e - 9, "constexpr", 9);
}

/* What a Triton kernel parameter receives from its launch argument. */
static tt_val tl_launch_arg(tt_interp *I, TSNode param, TSNode annotation, tt_val v) {
  if (is_constexpr(I, annotation)) return v;
  switch (v.k) {
    case TV_ARRAY: {
      const tt_tile_arg *arr = &I->args[v.u.arr];
      tt_tile_t *p = scalar_tile(I, TT_TILE_I64, 0, 0);
      p->ptr_arg = v.u.arr + 1;
      p->ptr_elem = arr->dtype;
      return tt_v_tile(p);
    }
    case TV_INT: {
      bool fits = v.u.i >= INT32_MIN && v.u.i <= INT32_MAX;
      return tt_v_tile(scalar_tile(I, fits ? TT_TILE_I32 : TT_TILE_I64, (double)v.u.i, v.u.i));
    }
    case TV_FLOAT: return tt_v_tile(scalar_tile(I, TT_TILE_F32, v.u.f, 0));
    case TV_BOOL: return tt_v_tile(scalar_tile(I, TT_TILE_BOOL, (double)v.u.i, v.u.i));
    default: return v;
  }
}

const tt_lib tt_lib_triton = {
  .dialect = "Triton",
  .module_for_import = tl_module_for_import,
  .module_attr = tl_module_attr,
  .value_attr = tl_value_attr,
  .method = tl_method,
  .trunc_int_div = true,
  .int_overflow_is_error = true,
  .launch_arg = tl_launch_arg,
  .entry_is_host = true,
};
