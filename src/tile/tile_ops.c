/* tile_ops.c — whole-tile operations (tile_ops.h). */
#include "tile/tile_ops.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tt_tile_t *fail(tt_err *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return NULL;
}

static tt_tile_t *oom(tt_err *e) { return fail(e, "out of memory"); }

const char *tt_shape_str(int ndim, const int64_t *shape, char *buf, size_t n) {
  size_t o = 0;
  o += (size_t)snprintf(buf + o, n - o, "(");
  for (int i = 0; i < ndim && o < n; i++)
    o += (size_t)snprintf(buf + o, n - o, i ? ", %lld" : "%lld", (long long)shape[i]);
  if (o < n) snprintf(buf + o, n - o, ndim == 1 ? ",)" : ")");
  return buf;
}

/* Pads a shape to `nd` dims with 1s on the side `al` leaves open. */
static void pad_shape(int n, const int64_t *s, int nd, tt_align al, int64_t *out) {
  for (int i = 0; i < nd; i++) out[i] = 1;
  int off = al == TT_ALIGN_RIGHT ? nd - n : 0;
  for (int i = 0; i < n; i++) out[off + i] = s[i];
}

int tt_broadcast_shape(int na, const int64_t *a, int nb, const int64_t *b, tt_align al,
                       int *ndim, int64_t *out, tt_err *e) {
  int nd = na > nb ? na : nb;
  int64_t pa[TT_TILE_MAX_DIMS], pb[TT_TILE_MAX_DIMS];
  pad_shape(na, a, nd, al, pa);
  pad_shape(nb, b, nd, al, pb);
  for (int i = 0; i < nd; i++) {
    if (pa[i] != pb[i] && pa[i] != 1 && pb[i] != 1) {
      char sa[64], sb[64];
      fail(e, "shapes %s and %s do not broadcast%s", tt_shape_str(na, a, sa, sizeof sa),
           tt_shape_str(nb, b, sb, sizeof sb),
           al == TT_ALIGN_LEFT ? " (Julia aligns leading dims)" : "");
      return -1;
    }
    out[i] = pa[i] == 1 ? pb[i] : pa[i];
  }
  *ndim = nd;
  return 0;
}

/* Element strides of `t` read through the broadcast shape `shape` (0 on dims t
 * repeats). */
static void bcast_strides(const tt_tile_t *t, int nd, const int64_t *shape, tt_align al,
                          int64_t *st) {
  int64_t ps[TT_TILE_MAX_DIMS];
  pad_shape(t->ndim, t->shape, nd, al, ps);
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) {
    st[i] = ps[i] == 1 && shape[i] != 1 ? 0 : s;
    s *= ps[i];
  }
}

/* Row walker over a broadcast shape: calls visit per innermost row with each
 * operand's base offset. Rows are the last dim; a 0-d shape is one row of 1. */
typedef struct rows {
  int nd;
  int64_t shape[TT_TILE_MAX_DIMS];
  int64_t idx[TT_TILE_MAX_DIMS];
  int64_t inner, nrows;
} rows;

static void rows_init(rows *r, int nd, const int64_t *shape) {
  r->nd = nd;
  memcpy(r->shape, shape, sizeof(int64_t) * (size_t)nd);
  memset(r->idx, 0, sizeof r->idx);
  r->inner = nd ? shape[nd - 1] : 1;
  r->nrows = 1;
  for (int i = 0; i + 1 < nd; i++) r->nrows *= shape[i];
}

static int64_t rows_base(const rows *r, const int64_t *st) {
  int64_t o = 0;
  for (int i = 0; i + 1 < r->nd; i++) o += r->idx[i] * st[i];
  return o;
}

static void rows_next(rows *r) {
  for (int i = r->nd - 2; i >= 0; i--) {
    if (++r->idx[i] < r->shape[i]) return;
    r->idx[i] = 0;
  }
}

/* Index of the first signed integer element outside t's width, or -1. */
static int64_t first_wrapped(const tt_tile_t *t) {
  if (!tt_dtype_is_signed(t->dtype) || t->dtype == TT_TILE_I64) return -1; /* unsigned wraps by definition */
  for (int64_t i = 0; i < t->n; i++)
    if (tt_wrap_int(t->dtype, t->data.i[i]) != t->data.i[i]) return i;
  return -1;
}

static void round_tile(tt_tile_t *t) {
  if (tt_dtype_store(t->dtype) == TT_STORE_F32 && t->dtype != TT_TILE_F32)
    for (int64_t i = 0; i < t->n; i++) t->data.f[i] = tt_round_f32(t->dtype, t->data.f[i]);
  else if (tt_dtype_store(t->dtype) == TT_STORE_I64 && t->dtype != TT_TILE_I64 &&
           t->dtype != TT_TILE_U64)
    for (int64_t i = 0; i < t->n; i++) t->data.i[i] = tt_wrap_int(t->dtype, t->data.i[i]);
}

tt_tile_t *tt_op_full(tt_tpool *p, tt_tile_dtype dt, int ndim, const int64_t *shape, double fv,
                      int64_t iv, tt_err *e) {
  tt_tile_t *t = tt_tile_new(p, dt, ndim, shape);
  if (!t) return oom(e);
  switch (tt_dtype_store(dt)) {
    case TT_STORE_F32: {
      float v = tt_round_f32(dt, (float)fv);
      for (int64_t i = 0; i < t->n; i++) t->data.f[i] = v;
      break;
    }
    case TT_STORE_F64:
      for (int64_t i = 0; i < t->n; i++) t->data.d[i] = fv;
      break;
    case TT_STORE_I64: {
      int64_t v = tt_wrap_int(dt, iv);
      for (int64_t i = 0; i < t->n; i++) t->data.i[i] = v;
      break;
    }
  }
  return t;
}

tt_tile_t *tt_op_arange(tt_tpool *p, tt_tile_dtype dt, int64_t n, int64_t start, int64_t step,
                        tt_err *e) {
  tt_tile_t *t = tt_tile_new(p, dt, 1, &n);
  if (!t) return oom(e);
  for (int64_t i = 0; i < n; i++) {
    switch (tt_dtype_store(dt)) {
      case TT_STORE_F32: t->data.f[i] = tt_round_f32(dt, (float)(start + i * step)); break;
      case TT_STORE_F64: t->data.d[i] = (double)(start + i * step); break;
      case TT_STORE_I64: t->data.i[i] = tt_wrap_int(dt, start + i * step); break;
    }
  }
  return t;
}

/* Float to integer as cvt.rzi does: NaN to 0, saturating at the int64 range. */
static int64_t f2i(double v) {
  if (isnan(v)) return 0;
  if (v <= -9.223372036854775808e18) return INT64_MIN;
  if (v >= 9.223372036854775807e18) return INT64_MAX;
  return (int64_t)v;
}

tt_tile_t *tt_op_cast(tt_tpool *p, const tt_tile_t *t, tt_tile_dtype dt, tt_err *e) {
  tt_tile_t *o = tt_tile_new(p, dt, t->ndim, t->shape);
  if (!o) return oom(e);
  tt_store from = tt_dtype_store(t->dtype), to = tt_dtype_store(dt);
  for (int64_t i = 0; i < t->n; i++) {
    if (to == TT_STORE_I64) {
      int64_t v = from == TT_STORE_I64 ? t->data.i[i] : f2i(tt_tile_get_f(t, i));
      if (dt == TT_TILE_BOOL && from != TT_STORE_I64) v = tt_tile_get_f(t, i) != 0.0;
      o->data.i[i] = v;
    } else if (to == TT_STORE_F32) {
      o->data.f[i] = (float)tt_tile_get_f(t, i);
    } else {
      o->data.d[i] = tt_tile_get_f(t, i);
    }
  }
  round_tile(o);
  return o;
}

static bool is_compare(tt_binop op) { return op >= TT_OP_EQ && op <= TT_OP_GE; }
static bool is_bitwise(tt_binop op) { return op >= TT_OP_AND && op <= TT_OP_SHR; }

/* Python's floor division and modulo on integers (cuTile follows Python). */
static int64_t ifloordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static int64_t ifloormod(int64_t a, int64_t b) {
  int64_t m = a % b;
  return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}
static int64_t ipow(int64_t a, int64_t b) {
  int64_t r = 1;
  while (b-- > 0) r = (int64_t)((uint64_t)r * (uint64_t)a);
  return r;
}

#define BIN_LOOP(T, EXPR)                                                   \
  for (int64_t row = 0; row < rw.nrows; row++, rows_next(&rw)) {           \
    const T *xa = A + rows_base(&rw, sa), *xb = B + rows_base(&rw, sb);    \
    T *xo = O + row * rw.inner;                                            \
    for (int64_t j = 0; j < rw.inner; j++) {                               \
      T x = xa[j * ia], y = xb[j * ib];                                    \
      xo[j] = (EXPR);                                                      \
    }                                                                      \
  }

#define CMP_LOOP(T, EXPR)                                                   \
  for (int64_t row = 0; row < rw.nrows; row++, rows_next(&rw)) {           \
    const T *xa = A + rows_base(&rw, sa), *xb = B + rows_base(&rw, sb);    \
    int64_t *xo = out->data.i + row * rw.inner;                            \
    for (int64_t j = 0; j < rw.inner; j++) {                               \
      T x = xa[j * ia], y = xb[j * ib];                                    \
      xo[j] = (EXPR);                                                      \
    }                                                                      \
  }

#define FLOAT_BINOPS(T, FLOOR, FMOD, POW, FMAX, FMIN, ATAN2)                \
  switch (op) {                                                            \
    case TT_OP_ADD: BIN_LOOP(T, x + y) break;                              \
    case TT_OP_SUB: BIN_LOOP(T, x - y) break;                              \
    case TT_OP_MUL: BIN_LOOP(T, x * y) break;                              \
    case TT_OP_DIV: BIN_LOOP(T, x / y) break;                              \
    case TT_OP_FLOORDIV: BIN_LOOP(T, FLOOR(x / y)) break;                  \
    case TT_OP_MOD: BIN_LOOP(T, x - FLOOR(x / y) * y) break;               \
    case TT_OP_TRUNCDIV: BIN_LOOP(T, x / y) break;                         \
    case TT_OP_TRUNCMOD: BIN_LOOP(T, FMOD(x, y)) break;                    \
    case TT_OP_POW: BIN_LOOP(T, POW(x, y)) break;                          \
    case TT_OP_MIN: BIN_LOOP(T, FMIN(x, y)) break;                         \
    case TT_OP_MAX: BIN_LOOP(T, FMAX(x, y)) break;                         \
    case TT_OP_ATAN2: BIN_LOOP(T, ATAN2(x, y)) break;                      \
    case TT_OP_EQ: CMP_LOOP(T, x == y) break;                              \
    case TT_OP_NE: CMP_LOOP(T, x != y) break;                              \
    case TT_OP_LT: CMP_LOOP(T, x < y) break;                               \
    case TT_OP_LE: CMP_LOOP(T, x <= y) break;                              \
    case TT_OP_GT: CMP_LOOP(T, x > y) break;                               \
    case TT_OP_GE: CMP_LOOP(T, x >= y) break;                              \
    default: break;                                                        \
  }

static bool int_div_by_zero(const tt_tile_t *b) {
  for (int64_t i = 0; i < b->n; i++)
    if (b->data.i[i] == 0) return true;
  return false;
}

tt_tile_t *tt_op_binary(tt_tpool *p, tt_binop op, const tt_tile_t *a, const tt_tile_t *b,
                        tt_align al, tt_err *e) {
  return tt_op_binary_checked(p, op, a, b, al, NULL, e);
}

tt_tile_t *tt_op_binary_checked(tt_tpool *p, tt_binop op, const tt_tile_t *a, const tt_tile_t *b,
                                tt_align al, int64_t *wrapped, tt_err *e) {
  int nd;
  int64_t shape[TT_TILE_MAX_DIMS];
  if (tt_broadcast_shape(a->ndim, a->shape, b->ndim, b->shape, al, &nd, shape, e)) return NULL;
  tt_tile_dtype ct = tt_dtype_promote(a->dtype, b->dtype);
  if ((op == TT_OP_DIV || op == TT_OP_ATAN2) && tt_dtype_is_int(ct)) ct = TT_TILE_F32;
  if (is_bitwise(op) && tt_dtype_is_float(ct))
    return fail(e, "bitwise operation on %s tiles", tt_tile_dtype_name(ct));
  tt_tile_t *ca = NULL, *cb = NULL, *out = NULL;
  if (a->dtype != ct && !(ca = tt_op_cast(p, a, ct, e))) goto done;
  if (b->dtype != ct && !(cb = tt_op_cast(p, b, ct, e))) goto done;
  const tt_tile_t *xa_t = ca ? ca : a, *xb_t = cb ? cb : b;
  if (tt_dtype_is_int(ct) && (op == TT_OP_FLOORDIV || op == TT_OP_MOD || op == TT_OP_TRUNCDIV ||
                              op == TT_OP_TRUNCMOD) && int_div_by_zero(xb_t)) {
    fail(e, "integer division by zero");
    goto done;
  }
  out = tt_tile_new(p, is_compare(op) ? TT_TILE_BOOL : ct, nd, shape);
  if (!out) {
    oom(e);
    goto done;
  }
  int64_t sa[TT_TILE_MAX_DIMS], sb[TT_TILE_MAX_DIMS];
  bcast_strides(xa_t, nd, shape, al, sa);
  bcast_strides(xb_t, nd, shape, al, sb);
  rows rw;
  rows_init(&rw, nd, shape);
  int64_t ia = nd ? sa[nd - 1] : 0, ib = nd ? sb[nd - 1] : 0;
  switch (tt_dtype_store(ct)) {
    case TT_STORE_F32: {
      const float *A = xa_t->data.f, *B = xb_t->data.f;
      float *O = out->data.f;
      FLOAT_BINOPS(float, floorf, fmodf, powf, fmaxf, fminf, atan2f)
      break;
    }
    case TT_STORE_F64: {
      const double *A = xa_t->data.d, *B = xb_t->data.d;
      double *O = out->data.d;
      FLOAT_BINOPS(double, floor, fmod, pow, fmax, fmin, atan2)
      break;
    }
    case TT_STORE_I64: {
      const int64_t *A = xa_t->data.i, *B = xb_t->data.i;
      int64_t *O = out->data.i;
      bool u = !tt_dtype_is_signed(ct);
      switch (op) {
        case TT_OP_ADD: BIN_LOOP(int64_t, (int64_t)((uint64_t)x + (uint64_t)y)) break;
        case TT_OP_SUB: BIN_LOOP(int64_t, (int64_t)((uint64_t)x - (uint64_t)y)) break;
        case TT_OP_MUL: BIN_LOOP(int64_t, (int64_t)((uint64_t)x * (uint64_t)y)) break;
        case TT_OP_FLOORDIV: BIN_LOOP(int64_t, u ? (int64_t)((uint64_t)x / (uint64_t)y) : ifloordiv(x, y)) break;
        case TT_OP_MOD: BIN_LOOP(int64_t, u ? (int64_t)((uint64_t)x % (uint64_t)y) : ifloormod(x, y)) break;
        case TT_OP_TRUNCDIV: BIN_LOOP(int64_t, u ? (int64_t)((uint64_t)x / (uint64_t)y) : x / y) break;
        case TT_OP_TRUNCMOD: BIN_LOOP(int64_t, u ? (int64_t)((uint64_t)x % (uint64_t)y) : x % y) break;
        case TT_OP_POW: BIN_LOOP(int64_t, ipow(x, y)) break;
        case TT_OP_MIN: BIN_LOOP(int64_t, (u ? (uint64_t)x < (uint64_t)y : x < y) ? x : y) break;
        case TT_OP_MAX: BIN_LOOP(int64_t, (u ? (uint64_t)x > (uint64_t)y : x > y) ? x : y) break;
        case TT_OP_AND: BIN_LOOP(int64_t, x & y) break;
        case TT_OP_OR: BIN_LOOP(int64_t, x | y) break;
        case TT_OP_XOR: BIN_LOOP(int64_t, x ^ y) break;
        case TT_OP_SHL: BIN_LOOP(int64_t, y >= 64 ? 0 : (int64_t)((uint64_t)x << y)) break;
        case TT_OP_SHR: BIN_LOOP(int64_t, u ? (int64_t)((uint64_t)x >> (y & 63)) : x >> (y & 63)) break;
        case TT_OP_EQ: CMP_LOOP(int64_t, x == y) break;
        case TT_OP_NE: CMP_LOOP(int64_t, x != y) break;
        case TT_OP_LT: CMP_LOOP(int64_t, u ? (uint64_t)x < (uint64_t)y : x < y) break;
        case TT_OP_LE: CMP_LOOP(int64_t, u ? (uint64_t)x <= (uint64_t)y : x <= y) break;
        case TT_OP_GT: CMP_LOOP(int64_t, u ? (uint64_t)x > (uint64_t)y : x > y) break;
        case TT_OP_GE: CMP_LOOP(int64_t, u ? (uint64_t)x >= (uint64_t)y : x >= y) break;
        default: break;
      }
      break;
    }
  }
  if (wrapped) *wrapped = is_compare(op) ? -1 : first_wrapped(out);
  round_tile(out);
done:
  tt_tile_release(ca);
  tt_tile_release(cb);
  return out;
}

static float f_rsqrt(float x) { return 1.0f / sqrtf(x); }
static double d_rsqrt(double x) { return 1.0 / sqrt(x); }
static float f_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
static double d_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

#define UN_LOOP(T, EXPR)                                 \
  for (int64_t i = 0; i < a->n; i++) {                  \
    T x = A[i];                                         \
    O[i] = (EXPR);                                      \
  }

#define FLOAT_UNOPS(T, SFX, RSQRT, SIGMOID)                      \
  switch (op) {                                                 \
    case TT_OP_NEG: UN_LOOP(T, -x) break;                       \
    case TT_OP_ABS: UN_LOOP(T, fabs##SFX(x)) break;             \
    case TT_OP_EXP: UN_LOOP(T, exp##SFX(x)) break;              \
    case TT_OP_EXP2: UN_LOOP(T, exp2##SFX(x)) break;            \
    case TT_OP_LOG: UN_LOOP(T, log##SFX(x)) break;              \
    case TT_OP_LOG2: UN_LOOP(T, log2##SFX(x)) break;            \
    case TT_OP_SQRT: UN_LOOP(T, sqrt##SFX(x)) break;            \
    case TT_OP_RSQRT: UN_LOOP(T, RSQRT(x)) break;               \
    case TT_OP_TANH: UN_LOOP(T, tanh##SFX(x)) break;            \
    case TT_OP_SIN: UN_LOOP(T, sin##SFX(x)) break;              \
    case TT_OP_COS: UN_LOOP(T, cos##SFX(x)) break;              \
    case TT_OP_FLOOR: UN_LOOP(T, floor##SFX(x)) break;          \
    case TT_OP_CEIL: UN_LOOP(T, ceil##SFX(x)) break;            \
    case TT_OP_SIGMOID: UN_LOOP(T, SIGMOID(x)) break;           \
    case TT_OP_ERF: UN_LOOP(T, erf##SFX(x)) break;              \
    default: break;                                             \
  }

tt_tile_t *tt_op_unary(tt_tpool *p, tt_unop op, const tt_tile_t *a, tt_err *e) {
  bool intop = op == TT_OP_NEG || op == TT_OP_INVERT || op == TT_OP_NOT || op == TT_OP_ABS;
  if (tt_dtype_is_int(a->dtype) && !intop) {
    /* math on integers computes in f32, as cuTile's and Triton's math functions do */
    tt_tile_t *f = tt_op_cast(p, a, TT_TILE_F32, e);
    if (!f) return NULL;
    tt_tile_t *r = tt_op_unary(p, op, f, e);
    tt_tile_release(f);
    return r;
  }
  if ((op == TT_OP_INVERT) && tt_dtype_is_float(a->dtype))
    return fail(e, "bitwise inversion of a %s tile", tt_tile_dtype_name(a->dtype));
  tt_tile_t *out = tt_tile_new(p, op == TT_OP_NOT ? TT_TILE_BOOL : a->dtype, a->ndim, a->shape);
  if (!out) return oom(e);
  switch (tt_dtype_store(a->dtype)) {
    case TT_STORE_F32: {
      const float *A = a->data.f;
      if (op == TT_OP_NOT) {
        for (int64_t i = 0; i < a->n; i++) out->data.i[i] = A[i] == 0.0f;
        break;
      }
      float *O = out->data.f;
      FLOAT_UNOPS(float, f, f_rsqrt, f_sigmoid)
      break;
    }
    case TT_STORE_F64: {
      const double *A = a->data.d;
      if (op == TT_OP_NOT) {
        for (int64_t i = 0; i < a->n; i++) out->data.i[i] = A[i] == 0.0;
        break;
      }
      double *O = out->data.d;
      FLOAT_UNOPS(double, , d_rsqrt, d_sigmoid)
      break;
    }
    case TT_STORE_I64: {
      const int64_t *A = a->data.i;
      int64_t *O = out->data.i;
      bool isbool = a->dtype == TT_TILE_BOOL;
      switch (op) {
        case TT_OP_NEG: UN_LOOP(int64_t, (int64_t)(0 - (uint64_t)x)) break;
        case TT_OP_INVERT: UN_LOOP(int64_t, isbool ? !x : ~x) break;
        case TT_OP_NOT: UN_LOOP(int64_t, x == 0) break;
        case TT_OP_ABS: UN_LOOP(int64_t, x < 0 ? (int64_t)(0 - (uint64_t)x) : x) break;
        default: break;
      }
      break;
    }
  }
  round_tile(out);
  return out;
}

tt_tile_t *tt_op_where(tt_tpool *p, const tt_tile_t *c, const tt_tile_t *a, const tt_tile_t *b,
                       tt_align al, tt_err *e) {
  int nd, nd2;
  int64_t s1[TT_TILE_MAX_DIMS], shape[TT_TILE_MAX_DIMS];
  if (tt_broadcast_shape(a->ndim, a->shape, b->ndim, b->shape, al, &nd, s1, e)) return NULL;
  if (tt_broadcast_shape(c->ndim, c->shape, nd, s1, al, &nd2, shape, e)) return NULL;
  tt_tile_dtype ct = tt_dtype_promote(a->dtype, b->dtype);
  tt_tile_t *ca = NULL, *cb = NULL, *out = NULL;
  if (a->dtype != ct && !(ca = tt_op_cast(p, a, ct, e))) goto done;
  if (b->dtype != ct && !(cb = tt_op_cast(p, b, ct, e))) goto done;
  const tt_tile_t *ta = ca ? ca : a, *tb = cb ? cb : b;
  if (!(out = tt_tile_new(p, ct, nd2, shape))) {
    oom(e);
    goto done;
  }
  int64_t sc[TT_TILE_MAX_DIMS], sa[TT_TILE_MAX_DIMS], sb[TT_TILE_MAX_DIMS];
  bcast_strides(c, nd2, shape, al, sc);
  bcast_strides(ta, nd2, shape, al, sa);
  bcast_strides(tb, nd2, shape, al, sb);
  rows rw;
  rows_init(&rw, nd2, shape);
  int64_t last = nd2 - 1;
  size_t esz = tt_tile_elem_size(out);
  for (int64_t row = 0; row < rw.nrows; row++, rows_next(&rw)) {
    int64_t oc = rows_base(&rw, sc), oa = rows_base(&rw, sa), ob = rows_base(&rw, sb);
    for (int64_t j = 0; j < rw.inner; j++) {
      int64_t k = last >= 0 ? j : 0;
      bool take_a = tt_tile_get_f(c, oc + k * (last >= 0 ? sc[last] : 0)) != 0.0;
      const tt_tile_t *src = take_a ? ta : tb;
      int64_t off = take_a ? oa + k * (last >= 0 ? sa[last] : 0) : ob + k * (last >= 0 ? sb[last] : 0);
      memcpy((char *)out->data.p + (size_t)(row * rw.inner + j) * esz,
             (const char *)src->data.p + (size_t)off * esz, esz);
    }
  }
done:
  tt_tile_release(ca);
  tt_tile_release(cb);
  return out;
}

/* Folds v[0..n) (stride s) in tree order: while more than one value is left, the
 * upper half (rounded down) is combined into the lower: v[i] = v[i] op v[i + h].
 * This is the order of a shared-memory or shuffle tree on the GPU. */
#define TREE_FOLD(T, V, N, OPEXPR)                        \
  do {                                                   \
    int64_t len_ = (N);                                  \
    while (len_ > 1) {                                   \
      int64_t h_ = (len_ + 1) / 2;                       \
      for (int64_t i_ = 0; i_ + h_ < len_; i_++) {       \
        T x = V[i_], y = V[i_ + h_];                     \
        V[i_] = (OPEXPR);                                \
      }                                                  \
      len_ = h_;                                         \
    }                                                    \
  } while (0)

tt_tile_t *tt_op_reduce(tt_tpool *p, tt_redop op, const tt_tile_t *t, int axis, int keepdims,
                        tt_err *e) {
  if (axis < 0 || axis >= t->ndim) return fail(e, "reduction axis %d out of range for a %d-d tile", axis, t->ndim);
  int64_t outer = 1, len = t->shape[axis], inner = 1;
  for (int i = 0; i < axis; i++) outer *= t->shape[i];
  for (int i = axis + 1; i < t->ndim; i++) inner *= t->shape[i];
  int64_t shape[TT_TILE_MAX_DIMS];
  int nd = 0;
  for (int i = 0; i < t->ndim; i++) {
    if (i != axis) shape[nd++] = t->shape[i];
    else if (keepdims) shape[nd++] = 1;
  }
  bool arg = op == TT_RED_ARGMAX || op == TT_RED_ARGMIN;
  tt_tile_dtype odt = arg ? TT_TILE_I32 : t->dtype;
  /* Sums of narrow floats accumulate in f32 and round once; of bools, in int32. */
  if (op == TT_RED_SUM && t->dtype == TT_TILE_BOOL) odt = TT_TILE_I32;
  if (len == 0) return fail(e, "reduction over an empty axis");
  tt_tile_t *out = tt_tile_new(p, odt, nd, shape);
  if (!out) return oom(e);
  double *buf = malloc(sizeof(double) * (size_t)len);
  int64_t *ibuf = malloc(sizeof(int64_t) * (size_t)len);
  float *fbuf = malloc(sizeof(float) * (size_t)len);
  if (!buf || !ibuf || !fbuf) {
    free(buf), free(ibuf), free(fbuf);
    tt_tile_release(out);
    return oom(e);
  }
  tt_store st = tt_dtype_store(t->dtype);
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in, oi = o * inner + in;
      if (arg) {
        /* first index of the extreme value, NaN-free compare, as argmax on the GPU */
        int64_t best = 0;
        double bv = tt_tile_get_f(t, base);
        for (int64_t k = 1; k < len; k++) {
          double v = tt_tile_get_f(t, base + k * inner);
          if (op == TT_RED_ARGMAX ? v > bv : v < bv) bv = v, best = k;
        }
        out->data.i[oi] = best;
      } else if (st == TT_STORE_F32) {
        for (int64_t k = 0; k < len; k++) fbuf[k] = t->data.f[base + k * inner];
        switch (op) {
          case TT_RED_SUM: TREE_FOLD(float, fbuf, len, x + y); break;
          case TT_RED_PROD: TREE_FOLD(float, fbuf, len, x * y); break;
          case TT_RED_MAX: TREE_FOLD(float, fbuf, len, fmaxf(x, y)); break;
          default: TREE_FOLD(float, fbuf, len, fminf(x, y)); break;
        }
        out->data.f[oi] = fbuf[0];
      } else if (st == TT_STORE_F64) {
        for (int64_t k = 0; k < len; k++) buf[k] = t->data.d[base + k * inner];
        switch (op) {
          case TT_RED_SUM: TREE_FOLD(double, buf, len, x + y); break;
          case TT_RED_PROD: TREE_FOLD(double, buf, len, x * y); break;
          case TT_RED_MAX: TREE_FOLD(double, buf, len, fmax(x, y)); break;
          default: TREE_FOLD(double, buf, len, fmin(x, y)); break;
        }
        out->data.d[oi] = buf[0];
      } else {
        for (int64_t k = 0; k < len; k++) ibuf[k] = t->data.i[base + k * inner];
        switch (op) {
          case TT_RED_SUM: TREE_FOLD(int64_t, ibuf, len, (int64_t)((uint64_t)x + (uint64_t)y)); break;
          case TT_RED_PROD: TREE_FOLD(int64_t, ibuf, len, (int64_t)((uint64_t)x * (uint64_t)y)); break;
          case TT_RED_MAX: TREE_FOLD(int64_t, ibuf, len, x > y ? x : y); break;
          default: TREE_FOLD(int64_t, ibuf, len, x < y ? x : y); break;
        }
        out->data.i[oi] = ibuf[0];
      }
    }
  }
  free(buf), free(ibuf), free(fbuf);
  round_tile(out);
  return out;
}

tt_tile_t *tt_op_cumsum(tt_tpool *p, const tt_tile_t *t, int axis, tt_err *e) {
  if (axis < 0 || axis >= t->ndim) return fail(e, "scan axis %d out of range for a %d-d tile", axis, t->ndim);
  tt_tile_t *out = tt_op_cast(p, t, t->dtype == TT_TILE_BOOL ? TT_TILE_I32 : t->dtype, e);
  if (!out) return NULL;
  int64_t outer = 1, len = t->shape[axis], inner = 1;
  for (int i = 0; i < axis; i++) outer *= t->shape[i];
  for (int i = axis + 1; i < t->ndim; i++) inner *= t->shape[i];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++)
      for (int64_t k = 1; k < len; k++) {
        int64_t cur = o * len * inner + k * inner + in, prev = cur - inner;
        switch (tt_dtype_store(out->dtype)) {
          case TT_STORE_F32: out->data.f[cur] = tt_round_f32(out->dtype, out->data.f[cur] + out->data.f[prev]); break;
          case TT_STORE_F64: out->data.d[cur] += out->data.d[prev]; break;
          case TT_STORE_I64: out->data.i[cur] = tt_wrap_int(out->dtype, out->data.i[cur] + out->data.i[prev]); break;
        }
      }
  return out;
}

/* C[b] = acc[b] + A[b] @ B[b], accumulating each element in k order. Narrow operands
 * (f16, bf16, tf32) multiply exactly in f32, so c + a*b is one rounding, as a tensor
 * core's fused accumulate; f32 operands use fmaf to keep that single rounding. */
tt_tile_t *tt_op_matmul(tt_tpool *p, const tt_tile_t *a, const tt_tile_t *b,
                        const tt_tile_t *acc, tt_tile_dtype out_dt, tt_err *e) {
  char s1[64], s2[64];
  if (a->ndim < 2 || b->ndim < 2 || a->ndim > 3 || b->ndim > 3)
    return fail(e, "matmul takes 2-d or 3-d tiles, got %s and %s",
                tt_shape_str(a->ndim, a->shape, s1, sizeof s1), tt_shape_str(b->ndim, b->shape, s2, sizeof s2));
  int64_t M = a->shape[a->ndim - 2], K = a->shape[a->ndim - 1];
  int64_t K2 = b->shape[b->ndim - 2], N = b->shape[b->ndim - 1];
  int64_t ba = a->ndim == 3 ? a->shape[0] : 1, bb = b->ndim == 3 ? b->shape[0] : 1;
  if (K != K2 || (ba != bb && ba != 1 && bb != 1))
    return fail(e, "matmul shapes %s and %s do not agree",
                tt_shape_str(a->ndim, a->shape, s1, sizeof s1), tt_shape_str(b->ndim, b->shape, s2, sizeof s2));
  int64_t batch = ba > bb ? ba : bb;
  int nd = (a->ndim == 3 || b->ndim == 3) ? 3 : 2;
  int64_t shape[3] = {batch, M, N};
  const int64_t *oshape = nd == 3 ? shape : shape + 1;
  if (acc && (acc->ndim != nd || memcmp(acc->shape, oshape, sizeof(int64_t) * (size_t)nd)))
    return fail(e, "accumulator shape %s does not match the product's %s",
                tt_shape_str(acc->ndim, acc->shape, s1, sizeof s1), tt_shape_str(nd, oshape, s2, sizeof s2));
  bool wide = out_dt == TT_TILE_F64 || a->dtype == TT_TILE_F64 || b->dtype == TT_TILE_F64;
  bool ints = tt_dtype_is_int(a->dtype) && tt_dtype_is_int(b->dtype);
  tt_tile_dtype work = wide ? TT_TILE_F64 : ints ? TT_TILE_I64 : TT_TILE_F32;
  tt_tile_t *wa = tt_op_cast(p, a, work, e), *wb = wa ? tt_op_cast(p, b, work, e) : NULL;
  tt_tile_t *c = NULL;
  if (!wb) goto done;
  if (acc) c = tt_op_cast(p, acc, work, e);
  else c = tt_op_full(p, work, nd, oshape, 0.0, 0, e);
  if (!c) goto done;
  bool exact_products = a->dtype != TT_TILE_F32 && b->dtype != TT_TILE_F32;
  for (int64_t bi = 0; bi < batch; bi++) {
    int64_t oa = (ba == 1 ? 0 : bi) * M * K, ob = (bb == 1 ? 0 : bi) * K * N, oc = bi * M * N;
    for (int64_t m = 0; m < M; m++)
      for (int64_t k = 0; k < K; k++) {
        if (work == TT_TILE_F32) {
          float x = wa->data.f[oa + m * K + k];
          const float *brow = wb->data.f + ob + k * N;
          float *crow = c->data.f + oc + m * N;
          if (exact_products)
            for (int64_t n = 0; n < N; n++) crow[n] += x * brow[n];
          else
            for (int64_t n = 0; n < N; n++) crow[n] = fmaf(x, brow[n], crow[n]);
        } else if (work == TT_TILE_F64) {
          double x = wa->data.d[oa + m * K + k];
          for (int64_t n = 0; n < N; n++)
            c->data.d[oc + m * N + n] = fma(x, wb->data.d[ob + k * N + n], c->data.d[oc + m * N + n]);
        } else {
          int64_t x = wa->data.i[oa + m * K + k];
          for (int64_t n = 0; n < N; n++)
            c->data.i[oc + m * N + n] += x * wb->data.i[ob + k * N + n];
        }
      }
  }
done:
  tt_tile_release(wa);
  tt_tile_release(wb);
  if (!c) return NULL;
  if (c->dtype == out_dt) return c;
  tt_tile_t *r = tt_op_cast(p, c, out_dt, e);
  tt_tile_release(c);
  return r;
}

tt_tile_t *tt_op_reshape(tt_tpool *p, const tt_tile_t *t, int ndim, const int64_t *shape,
                         tt_err *e) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= shape[i];
  char s1[64], s2[64];
  if (n != t->n)
    return fail(e, "cannot reshape %s to %s", tt_shape_str(t->ndim, t->shape, s1, sizeof s1),
                tt_shape_str(ndim, shape, s2, sizeof s2));
  tt_tile_t *o = tt_tile_new(p, t->dtype, ndim, shape);
  if (!o) return oom(e);
  memcpy(o->data.p, t->data.p, (size_t)t->n * (tt_tile_elem_size(t)));
  return o;
}

/* o (dense, of o's shape) takes t's elements read with strides st over o's shape:
 * the one copy loop of permute and broadcast_to. */
static void gather_strided(tt_tile_t *o, const tt_tile_t *t, const int64_t *st) {
  size_t esz = tt_tile_elem_size(t);
  rows rw;
  rows_init(&rw, o->ndim, o->shape);
  int64_t il = o->ndim ? st[o->ndim - 1] : 0;
  for (int64_t row = 0; row < rw.nrows; row++, rows_next(&rw)) {
    int64_t base = rows_base(&rw, st);
    for (int64_t j = 0; j < rw.inner; j++)
      memcpy((char *)o->data.p + (size_t)(row * rw.inner + j) * esz,
             (const char *)t->data.p + (size_t)(base + j * il) * esz, esz);
  }
}

tt_tile_t *tt_op_permute(tt_tpool *p, const tt_tile_t *t, const int *perm, tt_err *e) {
  int nd = t->ndim;
  int64_t shape[TT_TILE_MAX_DIMS], st[TT_TILE_MAX_DIMS], in_st[TT_TILE_MAX_DIMS];
  bool seen[TT_TILE_MAX_DIMS] = {false};
  for (int i = 0; i < nd; i++) {
    if (perm[i] < 0 || perm[i] >= nd || seen[perm[i]]) return fail(e, "axes are not a permutation of 0..%d", nd - 1);
    seen[perm[i]] = true;
  }
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) in_st[i] = s, s *= t->shape[i];
  for (int i = 0; i < nd; i++) shape[i] = t->shape[perm[i]], st[i] = in_st[perm[i]];
  tt_tile_t *o = tt_tile_new(p, t->dtype, nd, shape);
  if (!o) return oom(e);
  gather_strided(o, t, st);
  return o;
}

tt_tile_t *tt_op_broadcast_to(tt_tpool *p, const tt_tile_t *t, int ndim, const int64_t *shape,
                              tt_align al, tt_err *e) {
  int nd;
  int64_t s[TT_TILE_MAX_DIMS];
  if (tt_broadcast_shape(t->ndim, t->shape, ndim, shape, al, &nd, s, e)) return NULL;
  char s1[64], s2[64];
  if (nd != ndim || memcmp(s, shape, sizeof(int64_t) * (size_t)nd))
    return fail(e, "cannot broadcast %s to %s", tt_shape_str(t->ndim, t->shape, s1, sizeof s1),
                tt_shape_str(ndim, shape, s2, sizeof s2));
  tt_tile_t *o = tt_tile_new(p, t->dtype, ndim, shape);
  if (!o) return oom(e);
  int64_t st[TT_TILE_MAX_DIMS];
  bcast_strides(t, nd, shape, al, st);
  gather_strided(o, t, st);
  return o;
}

tt_tile_t *tt_op_cat(tt_tpool *p, const tt_tile_t *a, const tt_tile_t *b, int axis, tt_err *e) {
  char s1[64], s2[64];
  if (a->ndim != b->ndim || axis < 0 || axis >= a->ndim) return fail(e, "cat of tiles of rank %d and %d along axis %d", a->ndim, b->ndim, axis);
  for (int i = 0; i < a->ndim; i++)
    if (i != axis && a->shape[i] != b->shape[i])
      return fail(e, "cat shapes %s and %s differ off axis %d", tt_shape_str(a->ndim, a->shape, s1, sizeof s1),
                  tt_shape_str(b->ndim, b->shape, s2, sizeof s2), axis);
  tt_tile_dtype dt = tt_dtype_promote(a->dtype, b->dtype);
  tt_tile_t *ca = tt_op_cast(p, a, dt, e), *cb = ca ? tt_op_cast(p, b, dt, e) : NULL, *o = NULL;
  if (!cb) goto done;
  int64_t shape[TT_TILE_MAX_DIMS];
  memcpy(shape, a->shape, sizeof shape);
  shape[axis] = a->shape[axis] + b->shape[axis];
  if (!(o = tt_tile_new(p, dt, a->ndim, shape))) {
    oom(e);
    goto done;
  }
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; i++) outer *= a->shape[i];
  for (int i = axis + 1; i < a->ndim; i++) inner *= a->shape[i];
  size_t esz = tt_tile_elem_size(o);
  size_t na = (size_t)(a->shape[axis] * inner) * esz, nb = (size_t)(b->shape[axis] * inner) * esz;
  for (int64_t i = 0; i < outer; i++) {
    memcpy((char *)o->data.p + (size_t)i * (na + nb), (char *)ca->data.p + (size_t)i * na, na);
    memcpy((char *)o->data.p + (size_t)i * (na + nb) + na, (char *)cb->data.p + (size_t)i * nb, nb);
  }
done:
  tt_tile_release(ca);
  tt_tile_release(cb);
  return o;
}

tt_tile_t *tt_op_extract(tt_tpool *p, const tt_tile_t *t, const int64_t *idx, const int64_t *shape, tt_err *e) {
  char s1[64], s2[64];
  for (int i = 0; i < t->ndim; i++)
    if (shape[i] < 1 || t->shape[i] % shape[i] || idx[i] < 0 || (idx[i] + 1) * shape[i] > t->shape[i])
      return fail(e, "extract of a %s tile at tile index %lld of dim %d with shape %s: out of the tile or not dividing it",
                  tt_shape_str(t->ndim, t->shape, s1, sizeof s1), (long long)idx[i], i, tt_shape_str(t->ndim, shape, s2, sizeof s2));
  tt_tile_t *o = tt_tile_new(p, t->dtype, t->ndim, shape);
  if (!o) return oom(e);
  size_t esz = tt_tile_elem_size(o);
  int64_t n = 1, pos[TT_TILE_MAX_DIMS] = {0};
  for (int i = 0; i < t->ndim; i++) n *= shape[i];
  for (int64_t k = 0; k < n; k++) {
    /* element k of the output (row-major) is t[idx*shape + pos] */
    int64_t off = 0;
    for (int i = 0; i < t->ndim; i++) off = off * t->shape[i] + idx[i] * shape[i] + pos[i];
    memcpy((char *)o->data.p + (size_t)k * esz, (const char *)t->data.p + (size_t)off * esz, esz);
    for (int i = t->ndim - 1; i >= 0 && ++pos[i] == shape[i]; i--) pos[i] = 0;
  }
  return o;
}
