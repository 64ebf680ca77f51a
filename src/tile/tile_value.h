/* tile_value.h — tiles (shape, dtype, data) and element-type rules, internal to
 * src/tile.
 *
 * A tile is a dense row-major block of elements. Its storage class follows its
 * dtype: every floating type up to f32 lives in `float` (f16, bf16 and tf32 values
 * are kept rounded to their own precision, so a stored value is always exactly
 * representable in its dtype), f64 in `double`, and every integer and bool type in
 * `int64_t`, kept wrapped to its dtype's width. Operations therefore dispatch once
 * per tile on the storage class, never per element.
 *
 * Tiles are reference counted. Every live tile is also on its pool's list, so that
 * an interpreter error (which unwinds with longjmp) can free everything at once:
 * tt_tpool_clear. Invariant: a tile is on exactly one pool's list from creation to
 * its last release. */
#ifndef TT_TILE_VALUE_H
#define TT_TILE_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tile/tt_tile.h"

typedef enum tt_store { TT_STORE_F32, TT_STORE_F64, TT_STORE_I64 } tt_store;

tt_store tt_dtype_store(tt_tile_dtype t);
bool tt_dtype_is_float(tt_tile_dtype t);
bool tt_dtype_is_int(tt_tile_dtype t); /* integers and bool */
bool tt_dtype_is_signed(tt_tile_dtype t);
int tt_dtype_bits(tt_tile_dtype t);
/* The dtype both operands of an arithmetic operation are converted to. */
tt_tile_dtype tt_dtype_promote(tt_tile_dtype a, tt_tile_dtype b);

/* Rounds an f32 value to the precision of t (f16 and bf16: nearest even, with f16's
 * overflow to infinity; tf32: 10 mantissa bits, nearest with ties away from zero as
 * cvt.rna.tf32.f32 does). Identity for f32. */
float tt_round_f32(tt_tile_dtype t, float v);
/* Wraps an integer to t's width (two's complement), as the hardware does. */
int64_t tt_wrap_int(tt_tile_dtype t, int64_t v);

typedef struct tt_tpool tt_tpool;

typedef struct tt_tile_t {
  int refs;
  tt_tile_dtype dtype;
  int ndim;                       /* 0 for a scalar tile */
  int64_t shape[TT_TILE_MAX_DIMS];
  int64_t n;                      /* product of shape */
  union { float *f; double *d; int64_t *i; void *p; } data;
  /* A pointer tile (Triton): the elements are offsets, in elements, into the flat
   * storage of kernel argument ptr_arg - 1, whose elements are ptr_elem. 0: a value. */
  int ptr_arg;
  tt_tile_dtype ptr_elem;
  tt_tpool *pool;
  struct tt_tile_t *prev, *next;  /* the pool's list of live tiles */
} tt_tile_t;

struct tt_tpool {
  tt_tile_t *live;
  uint64_t allocated;             /* tiles made, for statistics */
};

/* A new tile with uninitialised data; NULL only when memory runs out. */
tt_tile_t *tt_tile_new(tt_tpool *pool, tt_tile_dtype dt, int ndim, const int64_t *shape);
tt_tile_t *tt_tile_ref(tt_tile_t *t);
void tt_tile_release(tt_tile_t *t);
/* Frees every tile still on the pool's list (after an error). */
void tt_tpool_clear(tt_tpool *pool);

/* Bytes of one stored element of t (4 for the f32 class, 8 otherwise). */
size_t tt_tile_elem_size(const tt_tile_t *t);

/* Element i as a double / as an integer (any storage class). */
double tt_tile_get_f(const tt_tile_t *t, int64_t i);
int64_t tt_tile_get_i(const tt_tile_t *t, int64_t i);

/* Element conversion between a tile and caller buffer bytes of dtype `dt`. */
double tt_elem_load(tt_tile_dtype dt, const void *p);
void tt_elem_store(tt_tile_dtype dt, void *p, double v);
int64_t tt_elem_load_i(tt_tile_dtype dt, const void *p);
void tt_elem_store_i(tt_tile_dtype dt, void *p, int64_t v);

uint16_t tt_f32_to_f16_bits(float f);
float tt_f16_bits_to_f32(uint16_t h);
uint16_t tt_f32_to_bf16_bits(float f);
float tt_bf16_bits_to_f32(uint16_t h);

#endif
