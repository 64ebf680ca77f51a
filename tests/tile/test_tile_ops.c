/* Tile operations against hand-worked values: broadcasting under both alignments,
 * reductions and their tree order, matmul accumulation, narrow-float rounding,
 * integer wrapping, permutes and the pool's bookkeeping. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tile/tile_ops.h"

static tt_tpool pool;
static tt_err err;

static void setup(void) { memset(&pool, 0, sizeof pool); }
static void teardown(void) {
  cr_expect_null(pool.live, "every tile was released");
  tt_tpool_clear(&pool);
}
TestSuite(tile_ops, .init = setup, .fini = teardown);

static tt_tile_t *mk(tt_tile_dtype dt, int nd, const int64_t *shape, const double *vals) {
  tt_tile_t *t = tt_tile_new(&pool, dt, nd, shape);
  for (int64_t i = 0; i < t->n; i++) {
    switch (tt_dtype_store(dt)) {
      case TT_STORE_F32: t->data.f[i] = tt_round_f32(dt, (float)vals[i]); break;
      case TT_STORE_F64: t->data.d[i] = vals[i]; break;
      case TT_STORE_I64: t->data.i[i] = tt_wrap_int(dt, (int64_t)vals[i]); break;
    }
  }
  return t;
}

static void expect_vals(const tt_tile_t *t, const double *want, int64_t n) {
  cr_assert_not_null(t, "%s", err.msg);
  cr_assert_eq(t->n, n);
  for (int64_t i = 0; i < n; i++)
    cr_expect_float_eq(tt_tile_get_f(t, i), want[i], 1e-6, "element %lld: %g != %g", (long long)i,
                       tt_tile_get_f(t, i), want[i]);
}

Test(tile_ops, right_aligned_broadcast_adds_a_row_to_every_row) {
  tt_tile_t *a = mk(TT_TILE_F32, 2, (int64_t[]){2, 3}, (double[]){1, 2, 3, 4, 5, 6});
  tt_tile_t *b = mk(TT_TILE_F32, 1, (int64_t[]){3}, (double[]){10, 20, 30});
  tt_tile_t *r = tt_op_binary(&pool, TT_OP_ADD, a, b, TT_ALIGN_RIGHT, &err);
  expect_vals(r, (double[]){11, 22, 33, 14, 25, 36}, 6);
  cr_expect_eq(r->ndim, 2);
  tt_tile_release(a), tt_tile_release(b), tt_tile_release(r);
}

Test(tile_ops, left_aligned_broadcast_rejects_a_row_against_a_matrix) {
  tt_tile_t *a = mk(TT_TILE_F32, 2, (int64_t[]){2, 3}, (double[]){1, 2, 3, 4, 5, 6});
  tt_tile_t *b = mk(TT_TILE_F32, 1, (int64_t[]){3}, (double[]){10, 20, 30});
  cr_expect_null(tt_op_binary(&pool, TT_OP_ADD, a, b, TT_ALIGN_LEFT, &err));
  cr_expect(strstr(err.msg, "do not broadcast") != NULL, "%s", err.msg);
  /* (2,) aligns with the leading dim of (2, 3) in Julia: a column is added */
  tt_tile_t *c = mk(TT_TILE_F32, 1, (int64_t[]){2}, (double[]){100, 200});
  tt_tile_t *r = tt_op_binary(&pool, TT_OP_ADD, a, c, TT_ALIGN_LEFT, &err);
  expect_vals(r, (double[]){101, 102, 103, 204, 205, 206}, 6);
  tt_tile_release(a), tt_tile_release(b), tt_tile_release(c), tt_tile_release(r);
}

Test(tile_ops, reduce_keeps_or_drops_the_axis) {
  tt_tile_t *a = mk(TT_TILE_I32, 2, (int64_t[]){2, 4}, (double[]){0, 1, 2, 3, 4, 5, 6, 7});
  tt_tile_t *r = tt_op_reduce(&pool, TT_RED_SUM, a, 1, 1, &err);
  expect_vals(r, (double[]){6, 22}, 2);
  cr_expect_eq(r->ndim, 2);
  cr_expect_eq(r->shape[1], 1);
  tt_tile_t *m = tt_op_reduce(&pool, TT_RED_MAX, a, 0, 0, &err);
  expect_vals(m, (double[]){4, 5, 6, 7}, 4);
  cr_expect_eq(m->ndim, 1);
  tt_tile_t *am = tt_op_reduce(&pool, TT_RED_ARGMAX, a, 1, 0, &err);
  expect_vals(am, (double[]){3, 3}, 2);
  tt_tile_release(a), tt_tile_release(r), tt_tile_release(m), tt_tile_release(am);
}

Test(tile_ops, float_sum_folds_in_tree_order) {
  /* ((1e8 + 1) + (-1e8 + 1)) in f32: the tree pairs v[0]+v[2] and v[1]+v[3]:
   * (1e8 - 1e8) + (1 + 1) = 2, where a left-to-right sum gives 1e8+1 = 1e8, -> 0, -> 1. */
  tt_tile_t *a = mk(TT_TILE_F32, 1, (int64_t[]){4}, (double[]){1e8, 1, -1e8, 1});
  tt_tile_t *r = tt_op_reduce(&pool, TT_RED_SUM, a, 0, 0, &err);
  expect_vals(r, (double[]){2}, 1);
  tt_tile_release(a), tt_tile_release(r);
}

Test(tile_ops, f16_results_round_after_every_operation) {
  /* 2048 + 1 is not an f16 (spacing 2 above 2048): nearest even gives 2048 */
  tt_tile_t *a = mk(TT_TILE_F16, 1, (int64_t[]){2}, (double[]){2048, 2048});
  tt_tile_t *b = mk(TT_TILE_F16, 1, (int64_t[]){2}, (double[]){1, 3});
  tt_tile_t *r = tt_op_binary(&pool, TT_OP_ADD, a, b, TT_ALIGN_RIGHT, &err);
  expect_vals(r, (double[]){2048, 2052}, 2);
  cr_expect_eq(r->dtype, TT_TILE_F16);
  cr_expect(isinf(tt_round_f32(TT_TILE_F16, 70000.0f)), "f16 overflows to inf");
  cr_expect_float_eq(tt_round_f32(TT_TILE_BF16, 1.00390625f), 1.0f, 0, "bf16 ties to even");
  cr_expect_float_eq(tt_round_f32(TT_TILE_TF32, 1.0f + 0x1p-11f), 1.0f + 0x1p-10f, 0, "tf32 ties away");
  tt_tile_release(a), tt_tile_release(b), tt_tile_release(r);
}

Test(tile_ops, f16_bits_round_trip_subnormals) {
  float sub = 0x1p-24f; /* the smallest f16 subnormal */
  cr_expect_eq(tt_f32_to_f16_bits(sub), 0x0001);
  cr_expect_float_eq(tt_f16_bits_to_f32(0x0001), sub, 0);
  cr_expect_eq(tt_f32_to_f16_bits(0x1p-26f), 0x0000, "below half the smallest subnormal");
  cr_expect_eq(tt_f32_to_f16_bits(-2.0f), 0xc000);
}

Test(tile_ops, integer_results_wrap_to_their_width) {
  tt_tile_t *a = mk(TT_TILE_I32, 1, (int64_t[]){1}, (double[]){2147483647});
  tt_tile_t *b = mk(TT_TILE_I32, 1, (int64_t[]){1}, (double[]){1});
  tt_tile_t *r = tt_op_binary(&pool, TT_OP_ADD, a, b, TT_ALIGN_RIGHT, &err);
  expect_vals(r, (double[]){-2147483648.0}, 1);
  tt_tile_t *m = mk(TT_TILE_I32, 1, (int64_t[]){2}, (double[]){-7, 7});
  tt_tile_t *d = mk(TT_TILE_I32, 1, (int64_t[]){2}, (double[]){2, -2});
  tt_tile_t *fd = tt_op_binary(&pool, TT_OP_FLOORDIV, m, d, TT_ALIGN_RIGHT, &err);
  tt_tile_t *td = tt_op_binary(&pool, TT_OP_TRUNCDIV, m, d, TT_ALIGN_RIGHT, &err);
  tt_tile_t *fm = tt_op_binary(&pool, TT_OP_MOD, m, d, TT_ALIGN_RIGHT, &err);
  tt_tile_t *tm = tt_op_binary(&pool, TT_OP_TRUNCMOD, m, d, TT_ALIGN_RIGHT, &err);
  expect_vals(fd, (double[]){-4, -4}, 2);
  expect_vals(td, (double[]){-3, -3}, 2);
  expect_vals(fm, (double[]){1, -1}, 2);
  expect_vals(tm, (double[]){-1, 1}, 2);
  tt_tile_t *z = mk(TT_TILE_I32, 1, (int64_t[]){2}, (double[]){1, 0});
  cr_expect_null(tt_op_binary(&pool, TT_OP_FLOORDIV, m, z, TT_ALIGN_RIGHT, &err));
  tt_tile_t *all[] = {a, b, r, m, d, fd, td, fm, tm, z};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) tt_tile_release(all[i]);
}

Test(tile_ops, promotion_follows_the_lattice) {
  cr_expect_eq(tt_dtype_promote(TT_TILE_F16, TT_TILE_BF16), TT_TILE_F32);
  cr_expect_eq(tt_dtype_promote(TT_TILE_I32, TT_TILE_F16), TT_TILE_F16);
  cr_expect_eq(tt_dtype_promote(TT_TILE_U8, TT_TILE_I8), TT_TILE_I16);
  cr_expect_eq(tt_dtype_promote(TT_TILE_I32, TT_TILE_I64), TT_TILE_I64);
  cr_expect_eq(tt_dtype_promote(TT_TILE_BOOL, TT_TILE_I8), TT_TILE_I8);
}

Test(tile_ops, matmul_accumulates_into_the_accumulator) {
  tt_tile_t *a = mk(TT_TILE_F16, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
  tt_tile_t *b = mk(TT_TILE_F16, 2, (int64_t[]){2, 2}, (double[]){5, 6, 7, 8});
  tt_tile_t *acc = mk(TT_TILE_F32, 2, (int64_t[]){2, 2}, (double[]){1, 1, 1, 1});
  tt_tile_t *r = tt_op_matmul(&pool, a, b, acc, TT_TILE_F32, &err);
  expect_vals(r, (double[]){20, 23, 44, 51}, 4);
  cr_expect_eq(r->dtype, TT_TILE_F32);
  tt_tile_t *bad = mk(TT_TILE_F32, 2, (int64_t[]){2, 1}, (double[]){0, 0});
  cr_expect_null(tt_op_matmul(&pool, a, b, bad, TT_TILE_F32, &err));
  cr_expect(strstr(err.msg, "accumulator shape (2, 1)") != NULL, "%s", err.msg);
  tt_tile_release(a), tt_tile_release(b), tt_tile_release(acc), tt_tile_release(r), tt_tile_release(bad);
}

Test(tile_ops, batched_matmul_broadcasts_a_single_operand) {
  tt_tile_t *a = mk(TT_TILE_F32, 3, (int64_t[]){2, 1, 2}, (double[]){1, 2, 3, 4});
  tt_tile_t *b = mk(TT_TILE_F32, 2, (int64_t[]){2, 1}, (double[]){10, 100});
  tt_tile_t *r = tt_op_matmul(&pool, a, b, NULL, TT_TILE_F32, &err);
  expect_vals(r, (double[]){210, 430}, 2);
  cr_expect_eq(r->ndim, 3);
  tt_tile_release(a), tt_tile_release(b), tt_tile_release(r);
}

Test(tile_ops, permute_and_reshape) {
  tt_tile_t *a = mk(TT_TILE_I32, 2, (int64_t[]){2, 3}, (double[]){0, 1, 2, 3, 4, 5});
  tt_tile_t *t = tt_op_permute(&pool, a, (int[]){1, 0}, &err);
  expect_vals(t, (double[]){0, 3, 1, 4, 2, 5}, 6);
  cr_expect_eq(t->shape[0], 3);
  cr_expect_null(tt_op_reshape(&pool, a, 1, (int64_t[]){5}, &err));
  tt_tile_release(a), tt_tile_release(t);
}

Test(tile_ops, where_selects_with_broadcast) {
  tt_tile_t *c = mk(TT_TILE_BOOL, 1, (int64_t[]){3}, (double[]){1, 0, 1});
  tt_tile_t *x = mk(TT_TILE_F32, 2, (int64_t[]){2, 3}, (double[]){1, 2, 3, 4, 5, 6});
  tt_tile_t *y = mk(TT_TILE_F32, 0, NULL, (double[]){-1});
  tt_tile_t *r = tt_op_where(&pool, c, x, y, TT_ALIGN_RIGHT, &err);
  expect_vals(r, (double[]){1, -1, 3, 4, -1, 6}, 6);
  tt_tile_release(c), tt_tile_release(x), tt_tile_release(y), tt_tile_release(r);
}

Test(tile_ops, cast_truncates_and_saturates) {
  tt_tile_t *a = mk(TT_TILE_F32, 1, (int64_t[]){3}, (double[]){-2.7, 2.7, NAN});
  tt_tile_t *r = tt_op_cast(&pool, a, TT_TILE_I8, &err);
  expect_vals(r, (double[]){-2, 2, 0}, 3);
  tt_tile_release(a), tt_tile_release(r);
}
