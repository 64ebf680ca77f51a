/* tile_value.c — tiles, their pool, and element-type rules. */
#include "tile/tile_value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  size_t size;
  int bits;
  tt_store store;
} dtype_info[TT_TILE_DTYPE_COUNT] = {
  [TT_TILE_BOOL] = {"bool", 1, 1, TT_STORE_I64},
  [TT_TILE_I8] = {"int8", 1, 8, TT_STORE_I64},
  [TT_TILE_I16] = {"int16", 2, 16, TT_STORE_I64},
  [TT_TILE_I32] = {"int32", 4, 32, TT_STORE_I64},
  [TT_TILE_I64] = {"int64", 8, 64, TT_STORE_I64},
  [TT_TILE_U8] = {"uint8", 1, 8, TT_STORE_I64},
  [TT_TILE_U16] = {"uint16", 2, 16, TT_STORE_I64},
  [TT_TILE_U32] = {"uint32", 4, 32, TT_STORE_I64},
  [TT_TILE_U64] = {"uint64", 8, 64, TT_STORE_I64},
  [TT_TILE_F16] = {"float16", 2, 16, TT_STORE_F32},
  [TT_TILE_BF16] = {"bfloat16", 2, 16, TT_STORE_F32},
  [TT_TILE_TF32] = {"tfloat32", 4, 19, TT_STORE_F32},
  [TT_TILE_F32] = {"float32", 4, 32, TT_STORE_F32},
  [TT_TILE_F64] = {"float64", 8, 64, TT_STORE_F64},
};

const char *tt_tile_dtype_name(tt_tile_dtype t) { return dtype_info[t].name; }
size_t tt_tile_dtype_size(tt_tile_dtype t) { return dtype_info[t].size; }
tt_store tt_dtype_store(tt_tile_dtype t) { return dtype_info[t].store; }
int tt_dtype_bits(tt_tile_dtype t) { return dtype_info[t].bits; }
bool tt_dtype_is_float(tt_tile_dtype t) { return t >= TT_TILE_F16; }
bool tt_dtype_is_int(tt_tile_dtype t) { return t <= TT_TILE_U64; }
bool tt_dtype_is_signed(tt_tile_dtype t) { return t >= TT_TILE_I8 && t <= TT_TILE_I64; }

/* The lattice of JAX and the array API, which cuTile follows: bool < integers <
 * floats; within integers the wider wins, and mixing signed with unsigned of the same
 * width widens; f16 with bf16 meets at f32; tf32 only meets f32 and wider. */
tt_tile_dtype tt_dtype_promote(tt_tile_dtype a, tt_tile_dtype b) {
  if (a == b) return a;
  bool fa = tt_dtype_is_float(a), fb = tt_dtype_is_float(b);
  if (fa != fb) return fa ? a : b;
  if (fa) {
    if (a == TT_TILE_F64 || b == TT_TILE_F64) return TT_TILE_F64;
    return TT_TILE_F32; /* any two different float types below f64 */
  }
  if (a == TT_TILE_BOOL) return b;
  if (b == TT_TILE_BOOL) return a;
  bool sa = tt_dtype_is_signed(a), sb = tt_dtype_is_signed(b);
  int ba = dtype_info[a].bits, bb = dtype_info[b].bits;
  if (sa == sb) return ba >= bb ? a : b;
  tt_tile_dtype s = sa ? a : b, u = sa ? b : a;
  int bs = dtype_info[s].bits, bu = dtype_info[u].bits;
  if (bs > bu) return s;
  switch (bu) {
    case 8: return TT_TILE_I16;
    case 16: return TT_TILE_I32;
    default: return TT_TILE_I64;
  }
}

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Round-to-nearest-even f32 -> f16 (F. Giesen's formulation): normals round by adding
 * half an ulp plus the odd bit; subnormals let the FPU round by adding a magic
 * number whose exponent places the f16 subnormal ulp at f32's last bit. */
uint16_t tt_f32_to_f16_bits(float f) {
  const uint32_t f32_inf = 255u << 23, f16_max = (127u + 16u) << 23;
  const float denorm_magic = bits_f32(((127u - 15u) + (23u - 10u) + 1u) << 23);
  uint32_t u = f32_bits(f), sign = u & 0x80000000u;
  u ^= sign;
  uint16_t o;
  if (u >= f16_max) {
    o = u > f32_inf ? 0x7e00 : 0x7c00;
  } else if (u < (113u << 23)) {
    float v = bits_f32(u) + denorm_magic;
    o = (uint16_t)(f32_bits(v) - f32_bits(denorm_magic));
  } else {
    uint32_t odd = (u >> 13) & 1u;
    u += ((uint32_t)(15 - 127) << 23) + 0xfffu + odd;
    o = (uint16_t)(u >> 13);
  }
  return (uint16_t)(o | (sign >> 16));
}

float tt_f16_bits_to_f32(uint16_t h) {
  const uint32_t shifted_exp = 0x7c00u << 13;
  uint32_t o = (h & 0x7fffu) << 13, exp = shifted_exp & o;
  o += (127u - 15u) << 23;
  if (exp == shifted_exp) {
    o += (128u - 16u) << 23; /* Inf/NaN */
  } else if (exp == 0) {     /* zero or subnormal: renormalise through the FPU */
    o += 1u << 23;
    o = f32_bits(bits_f32(o) - bits_f32(113u << 23));
  }
  return bits_f32(o | ((uint32_t)(h & 0x8000u) << 16));
}

uint16_t tt_f32_to_bf16_bits(float f) {
  uint32_t u = f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

float tt_bf16_bits_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

float tt_round_f32(tt_tile_dtype t, float v) {
  switch (t) {
    case TT_TILE_F16: return tt_f16_bits_to_f32(tt_f32_to_f16_bits(v));
    case TT_TILE_BF16: return tt_bf16_bits_to_f32(tt_f32_to_bf16_bits(v));
    case TT_TILE_TF32: {
      uint32_t u = f32_bits(v);
      if ((u & 0x7f800000u) == 0x7f800000u) return v; /* Inf and NaN pass through */
      u = (u + 0x1000u) & ~0x1fffu;                     /* nearest, ties away from zero */
      return bits_f32(u);
    }
    default: return v;
  }
}

int64_t tt_wrap_int(tt_tile_dtype t, int64_t v) {
  switch (t) {
    case TT_TILE_BOOL: return v != 0;
    case TT_TILE_I8: return (int8_t)v;
    case TT_TILE_I16: return (int16_t)v;
    case TT_TILE_I32: return (int32_t)v;
    case TT_TILE_U8: return (uint8_t)v;
    case TT_TILE_U16: return (uint16_t)v;
    case TT_TILE_U32: return (uint32_t)v;
    default: return v; /* i64; u64 kept as its bit pattern */
  }
}

tt_tile_t *tt_tile_new(tt_tpool *pool, tt_tile_dtype dt, int ndim, const int64_t *shape) {
  tt_tile_t *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->refs = 1;
  t->dtype = dt;
  t->ndim = ndim;
  t->n = 1;
  for (int i = 0; i < ndim; i++) {
    t->shape[i] = shape[i];
    t->n *= shape[i];
  }
  size_t elem = tt_dtype_store(dt) == TT_STORE_F32 ? sizeof(float) : 8;
  t->data.p = malloc((size_t)(t->n ? t->n : 1) * elem);
  if (!t->data.p) {
    free(t);
    return NULL;
  }
  t->pool = pool;
  t->next = pool->live;
  if (pool->live) pool->live->prev = t;
  pool->live = t;
  pool->allocated++;
  return t;
}

tt_tile_t *tt_tile_ref(tt_tile_t *t) {
  t->refs++;
  return t;
}

static void tile_destroy(tt_tile_t *t) {
  if (t->prev) t->prev->next = t->next;
  else t->pool->live = t->next;
  if (t->next) t->next->prev = t->prev;
  free(t->data.p);
  free(t);
}

void tt_tile_release(tt_tile_t *t) {
  if (t && --t->refs == 0) tile_destroy(t);
}

void tt_tpool_clear(tt_tpool *pool) {
  while (pool->live) tile_destroy(pool->live);
}

size_t tt_tile_elem_size(const tt_tile_t *t) { return tt_dtype_store(t->dtype) == TT_STORE_F32 ? sizeof(float) : 8; }

double tt_tile_get_f(const tt_tile_t *t, int64_t i) {
  switch (tt_dtype_store(t->dtype)) {
    case TT_STORE_F32: return t->data.f[i];
    case TT_STORE_F64: return t->data.d[i];
    default:
      return t->dtype == TT_TILE_U64 ? (double)(uint64_t)t->data.i[i] : (double)t->data.i[i];
  }
}

int64_t tt_tile_get_i(const tt_tile_t *t, int64_t i) {
  switch (tt_dtype_store(t->dtype)) {
    case TT_STORE_F32: return (int64_t)t->data.f[i];
    case TT_STORE_F64: return (int64_t)t->data.d[i];
    default: return t->data.i[i];
  }
}

double tt_elem_load(tt_tile_dtype dt, const void *p) {
  switch (dt) {
    case TT_TILE_F16: { uint16_t h; memcpy(&h, p, 2); return tt_f16_bits_to_f32(h); }
    case TT_TILE_BF16: { uint16_t h; memcpy(&h, p, 2); return tt_bf16_bits_to_f32(h); }
    case TT_TILE_TF32:
    case TT_TILE_F32: { float f; memcpy(&f, p, 4); return f; }
    case TT_TILE_F64: { double d; memcpy(&d, p, 8); return d; }
    case TT_TILE_U64: { uint64_t u; memcpy(&u, p, 8); return (double)u; }
    default: return (double)tt_elem_load_i(dt, p);
  }
}

void tt_elem_store(tt_tile_dtype dt, void *p, double v) {
  switch (dt) {
    case TT_TILE_F16: { uint16_t h = tt_f32_to_f16_bits((float)v); memcpy(p, &h, 2); return; }
    case TT_TILE_BF16: { uint16_t h = tt_f32_to_bf16_bits((float)v); memcpy(p, &h, 2); return; }
    case TT_TILE_TF32:
    case TT_TILE_F32: { float f = (float)v; memcpy(p, &f, 4); return; }
    case TT_TILE_F64: memcpy(p, &v, 8); return;
    default: {
      /* C casts of out-of-range doubles are undefined; saturate first, as the GPU's
       * cvt.rzi.sat does, then wrap into the dtype. */
      double c = isnan(v) ? 0.0 : v < -9.2e18 ? -9.2e18 : v > 9.2e18 ? 9.2e18 : v;
      tt_elem_store_i(dt, p, (int64_t)c);
    }
  }
}

int64_t tt_elem_load_i(tt_tile_dtype dt, const void *p) {
  switch (dt) {
    case TT_TILE_BOOL: return *(const uint8_t *)p != 0;
    case TT_TILE_I8: return *(const int8_t *)p;
    case TT_TILE_U8: return *(const uint8_t *)p;
    case TT_TILE_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case TT_TILE_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case TT_TILE_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case TT_TILE_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case TT_TILE_I64:
    case TT_TILE_U64: { int64_t v; memcpy(&v, p, 8); return v; }
    default: return (int64_t)tt_elem_load(dt, p);
  }
}

void tt_elem_store_i(tt_tile_dtype dt, void *p, int64_t v) {
  switch (dt) {
    case TT_TILE_BOOL: *(uint8_t *)p = v != 0; return;
    case TT_TILE_I8:
    case TT_TILE_U8: *(uint8_t *)p = (uint8_t)v; return;
    case TT_TILE_I16:
    case TT_TILE_U16: { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); return; }
    case TT_TILE_I32:
    case TT_TILE_U32: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); return; }
    case TT_TILE_I64:
    case TT_TILE_U64: memcpy(p, &v, 8); return;
    default: tt_elem_store(dt, p, (double)v);
  }
}
