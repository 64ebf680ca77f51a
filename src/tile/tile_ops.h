/* tile_ops.h — whole-tile operations, internal to src/tile.
 *
 * Every operation takes tiles by borrowed pointer and returns a new tile with one
 * reference (the caller releases it), or NULL with a message in `err` (a shape or
 * dtype error the real compilers reject; memory exhaustion). Inputs are never
 * modified. Loops run over whole tiles in C: an operation costs a dispatch on the
 * storage class and then straight loops (the inner dimension contiguous or
 * broadcast), never a per-element dispatch.
 *
 * Numerics (src/tile/README.md, "Precision"): f16, bf16 and tf32 results are computed
 * in f32 and rounded to their dtype after every operation; reductions fold in a fixed
 * tree order; matmul accumulates in f32 (f64 for f64) in k order. */
#ifndef TT_TILE_OPS_H
#define TT_TILE_OPS_H

#include "tile/tile_value.h"

/* How shapes of different rank line up: NumPy/cuTile Python/Triton align trailing
 * dims; Julia's dot broadcasting aligns leading dims. */
typedef enum tt_align { TT_ALIGN_RIGHT, TT_ALIGN_LEFT } tt_align;

typedef struct tt_err {
  char msg[256];
} tt_err;

typedef enum tt_binop {
  TT_OP_ADD, TT_OP_SUB, TT_OP_MUL, TT_OP_DIV, TT_OP_FLOORDIV, TT_OP_MOD, TT_OP_POW,
  TT_OP_TRUNCDIV, TT_OP_TRUNCMOD, /* C's / and % on integers (Triton); floats: / and fmod */
  TT_OP_MIN, TT_OP_MAX, TT_OP_AND, TT_OP_OR, TT_OP_XOR, TT_OP_SHL, TT_OP_SHR,
  TT_OP_EQ, TT_OP_NE, TT_OP_LT, TT_OP_LE, TT_OP_GT, TT_OP_GE,
  TT_OP_ATAN2
} tt_binop;

typedef enum tt_unop {
  TT_OP_NEG, TT_OP_INVERT, TT_OP_NOT, TT_OP_ABS, TT_OP_EXP, TT_OP_EXP2, TT_OP_LOG,
  TT_OP_LOG2, TT_OP_SQRT, TT_OP_RSQRT, TT_OP_TANH, TT_OP_SIN, TT_OP_COS, TT_OP_FLOOR,
  TT_OP_CEIL, TT_OP_SIGMOID, TT_OP_ERF
} tt_unop;

typedef enum tt_redop {
  TT_RED_SUM, TT_RED_PROD, TT_RED_MAX, TT_RED_MIN, TT_RED_ARGMAX, TT_RED_ARGMIN
} tt_redop;

/* Shapes: the broadcast of a and b under `al`; 0 with *out and *ndim set, or -1. */
int tt_broadcast_shape(int na, const int64_t *a, int nb, const int64_t *b, tt_align al,
                       int *ndim, int64_t *out, tt_err *e);

tt_tile_t *tt_op_full(tt_tpool *p, tt_tile_dtype dt, int ndim, const int64_t *shape,
                      double fv, int64_t iv, tt_err *e);
/* start, start+step, ... (n values) as a 1-D tile. */
tt_tile_t *tt_op_arange(tt_tpool *p, tt_tile_dtype dt, int64_t n, int64_t start, int64_t step,
                        tt_err *e);
tt_tile_t *tt_op_cast(tt_tpool *p, const tt_tile_t *t, tt_tile_dtype dt, tt_err *e);
tt_tile_t *tt_op_binary(tt_tpool *p, tt_binop op, const tt_tile_t *a, const tt_tile_t *b,
                        tt_align al, tt_err *e);
/* The same; when `wrapped` is not NULL, integer results narrower than 64 bits that
 * did not fit are reported there (the first element's index, else -1). */
tt_tile_t *tt_op_binary_checked(tt_tpool *p, tt_binop op, const tt_tile_t *a, const tt_tile_t *b,
                                tt_align al, int64_t *wrapped, tt_err *e);
tt_tile_t *tt_op_unary(tt_tpool *p, tt_unop op, const tt_tile_t *a, tt_err *e);
tt_tile_t *tt_op_where(tt_tpool *p, const tt_tile_t *c, const tt_tile_t *a, const tt_tile_t *b,
                       tt_align al, tt_err *e);
/* Reduces `axis` (0-based, already normalised); keepdims keeps it with size 1. */
tt_tile_t *tt_op_reduce(tt_tpool *p, tt_redop op, const tt_tile_t *t, int axis, int keepdims,
                        tt_err *e);
tt_tile_t *tt_op_cumsum(tt_tpool *p, const tt_tile_t *t, int axis, tt_err *e);
/* a (.., M, K) @ b (.., K, N) [+ acc (.., M, N)] with result dtype `out`; leading batch
 * dims must agree (or be absent on one side). acc may be NULL. */
tt_tile_t *tt_op_matmul(tt_tpool *p, const tt_tile_t *a, const tt_tile_t *b,
                        const tt_tile_t *acc, tt_tile_dtype out, tt_err *e);
tt_tile_t *tt_op_reshape(tt_tpool *p, const tt_tile_t *t, int ndim, const int64_t *shape,
                         tt_err *e);
/* Result dim i is input dim perm[i]. */
tt_tile_t *tt_op_permute(tt_tpool *p, const tt_tile_t *t, const int *perm, tt_err *e);
tt_tile_t *tt_op_broadcast_to(tt_tpool *p, const tt_tile_t *t, int ndim, const int64_t *shape,
                              tt_align al, tt_err *e);
tt_tile_t *tt_op_cat(tt_tpool *p, const tt_tile_t *a, const tt_tile_t *b, int axis, tt_err *e);
/* The sub-tile of `shape` at tile index `idx` (0-based, counting tiles of that shape, as
 * a load's index counts them): ct.extract. Each dim of shape must divide t's. */
tt_tile_t *tt_op_extract(tt_tpool *p, const tt_tile_t *t, const int64_t *idx, const int64_t *shape, tt_err *e);

/* "(2, 4)" into buf, for messages. */
const char *tt_shape_str(int ndim, const int64_t *shape, char *buf, size_t n);

#endif
