/* dtype.c — see dtype.h. */
#include "checker/dtype.h"

#include <math.h>
#include <string.h>

typedef struct {
  const char *name;
  const char *ctype;
  size_t size;
  int is_float;
} dtype_info;

static const dtype_info k_dtypes[TT_CHECK_DTYPE_COUNT] = {
  [TT_CHECK_F16] = {"f16", "uint16_t", 2, 1},
  [TT_CHECK_BF16] = {"bf16", "uint16_t", 2, 1},
  [TT_CHECK_F32] = {"f32", "float", 4, 1},
  [TT_CHECK_F64] = {"f64", "double", 8, 1},
  [TT_CHECK_I8] = {"i8", "int8_t", 1, 0},
  [TT_CHECK_I16] = {"i16", "int16_t", 2, 0},
  [TT_CHECK_I32] = {"i32", "int32_t", 4, 0},
  [TT_CHECK_I64] = {"i64", "int64_t", 8, 0},
  [TT_CHECK_U8] = {"u8", "uint8_t", 1, 0},
  [TT_CHECK_U32] = {"u32", "uint32_t", 4, 0},
  [TT_CHECK_U64] = {"u64", "uint64_t", 8, 0},
  [TT_CHECK_BOOL] = {"bool", "bool", 1, 0},
};

int tt_check_dtype_parse(const char *name, size_t len, tt_check_dtype *out) {
  for (int i = 0; i < TT_CHECK_DTYPE_COUNT; i++) {
    if (strlen(k_dtypes[i].name) == len && memcmp(k_dtypes[i].name, name, len) == 0) {
      *out = (tt_check_dtype)i;
      return 0;
    }
  }
  return -1;
}

const char *tt_check_dtype_name(tt_check_dtype t) { return k_dtypes[t].name; }
const char *tt_check_dtype_ctype(tt_check_dtype t) { return k_dtypes[t].ctype; }
size_t tt_check_dtype_size(tt_check_dtype t) { return k_dtypes[t].size; }
int tt_check_dtype_is_float(tt_check_dtype t) { return k_dtypes[t].is_float; }

void tt_check_dtype_default_tol(tt_check_dtype t, double *atol, double *rtol) {
  switch (t) {
  case TT_CHECK_F16:
  case TT_CHECK_BF16: *atol = 1e-2; *rtol = 1e-2; break;
  case TT_CHECK_F32: *atol = 1e-3; *rtol = 1e-3; break;
  /* SEMANTICS.md gives no f64 figure; both sides run on the same CPU, so only
   * summation order differs, which costs far less than this in double. */
  case TT_CHECK_F64: *atol = 1e-8; *rtol = 1e-8; break;
  default: *atol = 0; *rtol = 0; break;
  }
}

/* IEEE binary16 from binary32, round to nearest even, with subnormals, Inf, NaN. */
uint16_t tt_check_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 0x1f) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return sign;
    man |= 0x800000u;
    int shift = 14 - e;
    uint32_t half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((uint32_t)e << 10) | (man >> 13);
  uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) half++; /* may carry into Inf: correct */
  return (uint16_t)(sign | half);
}

float tt_check_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    if (man == 0) {
      x = sign;
    } else { /* subnormal: normalise */
      int e = -1;
      do { e++; man <<= 1; } while (!(man & 0x400u));
      x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 0x1f) {
    x = sign | 0x7f800000u | (man << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (man << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

uint16_t tt_check_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

float tt_check_bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

#define LOADAS(T) do { T v; memcpy(&v, p, sizeof v); return v; } while (0)

double tt_check_load(tt_check_dtype t, const void *p) {
  switch (t) {
  case TT_CHECK_F16: { uint16_t h; memcpy(&h, p, 2); return tt_check_f16_to_f32(h); }
  case TT_CHECK_BF16: { uint16_t h; memcpy(&h, p, 2); return tt_check_bf16_to_f32(h); }
  case TT_CHECK_F32: LOADAS(float);
  case TT_CHECK_F64: LOADAS(double);
  case TT_CHECK_I8: LOADAS(int8_t);
  case TT_CHECK_I16: LOADAS(int16_t);
  case TT_CHECK_I32: LOADAS(int32_t);
  case TT_CHECK_I64: LOADAS(int64_t);
  case TT_CHECK_U8: LOADAS(uint8_t);
  case TT_CHECK_U32: LOADAS(uint32_t);
  case TT_CHECK_U64: LOADAS(uint64_t);
  case TT_CHECK_BOOL: { uint8_t b; memcpy(&b, p, 1); return b != 0; }
  default: return 0;
  }
}

int64_t tt_check_load_i64(tt_check_dtype t, const void *p) {
  switch (t) {
  case TT_CHECK_I8: LOADAS(int8_t);
  case TT_CHECK_I16: LOADAS(int16_t);
  case TT_CHECK_I32: LOADAS(int32_t);
  case TT_CHECK_I64: LOADAS(int64_t);
  case TT_CHECK_U8: LOADAS(uint8_t);
  case TT_CHECK_BOOL: { uint8_t b; memcpy(&b, p, 1); return b != 0; }
  case TT_CHECK_U32: LOADAS(uint32_t);
  case TT_CHECK_U64: { uint64_t v; memcpy(&v, p, 8); return (int64_t)v; }
  default: return (int64_t)tt_check_load(t, p);
  }
}

uint64_t tt_check_load_u64(tt_check_dtype t, const void *p) {
  return (uint64_t)tt_check_load_i64(t, p);
}

#define STOREAS(T, val) do { T v_ = (T)(val); memcpy(p, &v_, sizeof v_); } while (0)

void tt_check_store(tt_check_dtype t, void *p, double v) {
  switch (t) {
  case TT_CHECK_F16: { uint16_t h = tt_check_f32_to_f16((float)v); memcpy(p, &h, 2); break; }
  case TT_CHECK_BF16: { uint16_t h = tt_check_f32_to_bf16((float)v); memcpy(p, &h, 2); break; }
  case TT_CHECK_F32: STOREAS(float, v); break;
  case TT_CHECK_F64: STOREAS(double, v); break;
  /* Integers go through int64 first so that negative values wrap into unsigned
   * types as a C programmer expects instead of being undefined behaviour. */
  case TT_CHECK_I8: STOREAS(int8_t, (int64_t)v); break;
  case TT_CHECK_I16: STOREAS(int16_t, (int64_t)v); break;
  case TT_CHECK_I32: STOREAS(int32_t, (int64_t)v); break;
  case TT_CHECK_I64: STOREAS(int64_t, (int64_t)v); break;
  case TT_CHECK_U8: STOREAS(uint8_t, (int64_t)v); break;
  case TT_CHECK_U32: STOREAS(uint32_t, (int64_t)v); break;
  case TT_CHECK_U64: STOREAS(uint64_t, v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v); break;
  case TT_CHECK_BOOL: STOREAS(uint8_t, v != 0); break;
  default: break;
  }
}
