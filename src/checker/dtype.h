/* dtype.h — element types of check specs (f16 … u64): names, sizes, default
 * tolerances, and conversion of one element to and from double.
 *
 * Owned by the checker (src/checker). The tolerance defaults come from
 * SEMANTICS.md §4 and are the single place they live. */
#ifndef TT_CHECK_DTYPE_H
#define TT_CHECK_DTYPE_H

#include <stddef.h>
#include <stdint.h>

typedef enum tt_check_dtype {
  TT_CHECK_F16, TT_CHECK_BF16, TT_CHECK_F32, TT_CHECK_F64,
  TT_CHECK_I8, TT_CHECK_I16, TT_CHECK_I32, TT_CHECK_I64,
  TT_CHECK_U8, TT_CHECK_U32, TT_CHECK_U64,
  TT_CHECK_BOOL,   /* one byte, 0 or 1: scalars for `bool` parameters, bool buffers */
  TT_CHECK_DTYPE_COUNT
} tt_check_dtype;

/* Returns 0 and sets *out for a spec type name ("f32"), -1 for an unknown name. */
int tt_check_dtype_parse(const char *name, size_t len, tt_check_dtype *out);
const char *tt_check_dtype_name(tt_check_dtype t);
/* The C++ type the harness uses for this dtype (the sim shim's __half/__nv_bfloat16
 * are layout-compatible with uint16_t, which is what the harness passes for them). */
const char *tt_check_dtype_ctype(tt_check_dtype t);
size_t tt_check_dtype_size(tt_check_dtype t);
int tt_check_dtype_is_float(tt_check_dtype t);
/* Default absolute and relative tolerance (SEMANTICS.md §4); 0/0 for integers. */
void tt_check_dtype_default_tol(tt_check_dtype t, double *atol, double *rtol);

/* Element conversion. Store rounds to nearest even for f16/bf16 and saturates
 * nothing (integer stores truncate toward zero then wrap, as a C cast would). */
double tt_check_load(tt_check_dtype t, const void *p);
void tt_check_store(tt_check_dtype t, void *p, double v);
/* Integer elements are compared exactly; this reads them without the double detour. */
int64_t tt_check_load_i64(tt_check_dtype t, const void *p);
uint64_t tt_check_load_u64(tt_check_dtype t, const void *p);

uint16_t tt_check_f32_to_f16(float f);
float tt_check_f16_to_f32(uint16_t h);
uint16_t tt_check_f32_to_bf16(float f);
float tt_check_bf16_to_f32(uint16_t h);

#endif
