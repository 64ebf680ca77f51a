/* tile_array.c — bounds-checked tiles to and from array arguments (tile_array.h). */
#include "tile/tile_array.h"

#include <stdio.h>
#include <string.h>

static int fail(tt_err *e, const char *msg) {
  snprintf(e->msg, sizeof e->msg, "%s", msg);
  return -1;
}

int tt_view_make(const tt_tile_arg *arr, const int *order, tt_view *v, tt_err *e) {
  v->arr = arr;
  v->ndim = arr->ndim;
  bool seen[TT_TILE_MAX_DIMS] = {false};
  for (int d = 0; d < arr->ndim; d++) {
    int src = order ? order[d] : d;
    if (src < 0 || src >= arr->ndim || seen[src]) return fail(e, "order is not a permutation of the array's axes");
    seen[src] = true;
    v->shape[d] = arr->shape[src];
    v->strides[d] = arr->strides[src];
  }
  return 0;
}

static void *elem_ptr(const tt_tile_arg *a, int64_t off) {
  return (char *)a->data + off * (int64_t)tt_tile_dtype_size(a->dtype);
}

static void put(tt_tile_t *t, int64_t i, const tt_tile_arg *a, int64_t off) {
  switch (tt_dtype_store(t->dtype)) {
    case TT_STORE_F32: t->data.f[i] = (float)tt_elem_load(a->dtype, elem_ptr(a, off)); break;
    case TT_STORE_F64: t->data.d[i] = tt_elem_load(a->dtype, elem_ptr(a, off)); break;
    case TT_STORE_I64: t->data.i[i] = tt_elem_load_i(a->dtype, elem_ptr(a, off)); break;
  }
}

static void put_pad(tt_tile_t *t, int64_t i, double pad) {
  switch (tt_dtype_store(t->dtype)) {
    case TT_STORE_F32: t->data.f[i] = (float)pad; break;
    case TT_STORE_F64: t->data.d[i] = pad; break;
    case TT_STORE_I64: t->data.i[i] = pad != pad ? 0 : (int64_t)pad; break;
  }
}

static void get(const tt_tile_t *t, int64_t i, const tt_tile_arg *a, int64_t off) {
  if (tt_dtype_store(t->dtype) == TT_STORE_I64 && !tt_dtype_is_float(a->dtype))
    tt_elem_store_i(a->dtype, elem_ptr(a, off), t->data.i[i]);
  else
    tt_elem_store(a->dtype, elem_ptr(a, off), tt_tile_get_f(t, i));
}

/* Walks the tile's elements row by row (last dim innermost). For each row, `base` is
 * the array offset of the row's first element and `valid` how many leading elements
 * of the row lie inside the view (0 when an outer coordinate is outside). */
typedef void (*row_fn)(void *ctx, int64_t tile_off, int64_t base, int64_t inner_stride,
                       int64_t valid, int64_t inner);

static void walk_rows(const tt_view *v, const int64_t *index, const int64_t *shape, row_fn fn, void *ctx) {
  int nd = v->ndim;
  int64_t inner = nd ? shape[nd - 1] : 1, nrows = 1;
  for (int d = 0; d + 1 < nd; d++) nrows *= shape[d];
  int64_t idx[TT_TILE_MAX_DIMS] = {0};
  for (int64_t r = 0; r < nrows; r++) {
    int64_t base = 0;
    bool inside = true;
    for (int d = 0; d + 1 < nd; d++) {
      int64_t c = index[d] * shape[d] + idx[d];
      inside &= c >= 0 && c < v->shape[d];
      base += c * v->strides[d];
    }
    int64_t valid = 0, stride = 0;
    if (nd) {
      int64_t c0 = index[nd - 1] * inner;
      stride = v->strides[nd - 1];
      base += c0 * stride;
      valid = c0 < 0 ? 0 : v->shape[nd - 1] - c0;
      if (valid > inner) valid = inner;
      if (valid < 0) valid = 0;
    } else {
      valid = 1;
    }
    fn(ctx, r * inner, inside ? base : 0, stride, inside ? valid : 0, inner);
    for (int d = nd - 2; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

typedef struct load_ctx {
  tt_tile_t *t;
  const tt_tile_arg *a;
  double pad;
} load_ctx;

static void load_row(void *c, int64_t toff, int64_t base, int64_t st, int64_t valid, int64_t inner) {
  load_ctx *l = c;
  for (int64_t j = 0; j < valid; j++) put(l->t, toff + j, l->a, base + j * st);
  for (int64_t j = valid; j < inner; j++) put_pad(l->t, toff + j, l->pad);
}

static tt_tile_dtype tile_dtype_of(tt_tile_dtype array_dt) {
  return array_dt == TT_TILE_TF32 ? TT_TILE_F32 : array_dt;
}

tt_tile_t *tt_view_load(tt_tpool *p, const tt_view *v, const int64_t *index, const int64_t *shape,
                        double pad, tt_err *e) {
  tt_tile_t *t = tt_tile_new(p, tile_dtype_of(v->arr->dtype), v->ndim, shape);
  if (!t) {
    fail(e, "out of memory");
    return NULL;
  }
  load_ctx l = {t, v->arr, pad};
  walk_rows(v, index, shape, load_row, &l);
  return t;
}

typedef struct store_ctx {
  const tt_tile_t *t;
  const tt_tile_arg *a;
} store_ctx;

static void store_row(void *c, int64_t toff, int64_t base, int64_t st, int64_t valid, int64_t inner) {
  store_ctx *s = c;
  for (int64_t j = 0; j < valid; j++) get(s->t, toff + j, s->a, base + j * st);
}

int tt_view_store(const tt_view *v, const int64_t *index, const tt_tile_t *t, tt_err *e) {
  if (t->ndim != v->ndim) return fail(e, "the tile's rank differs from the array's");
  store_ctx s = {t, v->arr};
  walk_rows(v, index, t->shape, store_row, &s);
  return 0;
}

/* The array offset of element i of the index tiles, or -1 when out of bounds. */
static int64_t gather_offset(const tt_tile_arg *arr, tt_tile_t *const *idx, int64_t i) {
  int64_t off = 0;
  for (int d = 0; d < arr->ndim; d++) {
    int64_t c = tt_tile_get_i(idx[d], idx[d]->n == 1 ? 0 : i);
    if (c < 0 || c >= arr->shape[d]) return -1;
    off += c * arr->strides[d];
  }
  return off;
}

tt_tile_t *tt_array_gather(tt_tpool *p, const tt_tile_arg *arr, tt_tile_t *const *idx,
                           int ndim, const int64_t *shape, const tt_tile_t *mask, double pad,
                           tt_err *e) {
  tt_tile_t *t = tt_tile_new(p, tile_dtype_of(arr->dtype), ndim, shape);
  if (!t) {
    fail(e, "out of memory");
    return NULL;
  }
  for (int64_t i = 0; i < t->n; i++) {
    int64_t off = gather_offset(arr, idx, i);
    bool on = !mask || tt_tile_get_i(mask, mask->n == 1 ? 0 : i);
    if (off >= 0 && on) put(t, i, arr, off);
    else put_pad(t, i, pad);
  }
  return t;
}

int tt_array_scatter(const tt_tile_arg *arr, tt_tile_t *const *idx, const tt_tile_t *val,
                     const tt_tile_t *mask, tt_err *e) {
  for (int64_t i = 0; i < val->n; i++) {
    int64_t off = gather_offset(arr, idx, i);
    bool on = !mask || tt_tile_get_i(mask, mask->n == 1 ? 0 : i);
    if (off >= 0 && on) get(val, i, arr, off);
  }
  return 0;
}
