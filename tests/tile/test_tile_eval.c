/* The evaluator on small cuTile Python kernels written here: tiled loads and stores
 * (partial tiles, each padding mode, order), grid functions, loops, helpers, mma,
 * reductions, gather/scatter, and the compile-time errors the real compiler gives,
 * each reported at its kernel line. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tile/tt_tile.h"

static tt_tile_arg arr_f32(const char *name, float *data, int nd, const int64_t *shape) {
  tt_tile_arg a = {.kind = TT_TILE_ARG_ARRAY, .name = name, .dtype = TT_TILE_F32, .ndim = nd, .data = data};
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) a.shape[i] = shape[i], a.strides[i] = s, s *= shape[i];
  return a;
}

static tt_tile_arg cint(const char *name, int64_t v) {
  return (tt_tile_arg){.kind = TT_TILE_ARG_INT, .name = name, .ivalue = v};
}

/* Runs `kernel` of `src`; returns NULL on success or the error (caller frees). */
static char *run(const char *src, const char *kernel, int64_t gx, int64_t gy, tt_tile_arg *args, size_t n) {
  char *err = NULL;
  tt_tile_program *p = tt_tile_program_load("k.py", src, strlen(src), TT_TILE_CUTILE_PYTHON, &err);
  if (!p) return err;
  int64_t grid[3] = {gx, gy, 1};
  if (tt_tile_run(p, kernel, grid, args, n, NULL, &err)) {
    tt_tile_program_free(p);
    return err;
  }
  tt_tile_program_free(p);
  return NULL;
}

#define PRE "import cuda.tile as ct\nConstInt = ct.Constant[int]\n\n"

Test(tile_eval, vector_add_with_a_scalar_and_a_partial_last_tile) {
  const char *src = PRE
    "@ct.kernel\n"
    "def vadd(a, b, c, alpha: float, TILE: ConstInt):\n"
    "    i = ct.bid(0)\n"
    "    x = ct.load(a, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)\n"
    "    y = ct.load(b, index=(i,), shape=(TILE,))\n"
    "    ct.store(c, index=(i,), tile=x * alpha + y)\n";
  float a[10], b[10], c[12];
  for (int i = 0; i < 10; i++) a[i] = (float)i, b[i] = 100.0f * (float)i;
  for (int i = 0; i < 12; i++) c[i] = -1;
  tt_tile_arg args[] = {arr_f32("a", a, 1, (int64_t[]){10}), arr_f32("b", b, 1, (int64_t[]){10}),
                        arr_f32("c", c, 1, (int64_t[]){10}),
                        {.kind = TT_TILE_ARG_FLOAT, .name = "alpha", .fvalue = 2.0}, cint("TILE", 4)};
  char *err = run(src, "vadd", 3, 1, args, 5);
  cr_assert_null(err, "%s", err);
  for (int i = 0; i < 10; i++) cr_expect_float_eq(c[i], 2.0f * (float)i + 100.0f * (float)i, 1e-6, "c[%d]", i);
  cr_expect_eq(c[10], -1, "the store was clipped at the array's end");
}

Test(tile_eval, padding_modes_fill_what_lies_outside) {
  const char *src = PRE
    "@ct.kernel\n"
    "def pad(x, out):\n"
    "    out_i = 0\n"
    "    for mode in (ct.PaddingMode.ZERO, ct.PaddingMode.NEG_INF, ct.PaddingMode.POS_INF, ct.PaddingMode.NAN):\n"
    "        t = ct.load(x, (1,), shape=(4,), padding_mode=mode)\n"
    "        ct.store(out, (out_i,), t)\n"
    "        out_i += 1\n";
  float x[6] = {0, 1, 2, 3, 4, 5}, out[16];
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){6}), arr_f32("out", out, 1, (int64_t[]){16})};
  char *err = run(src, "pad", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  cr_expect_eq(out[0], 4);
  cr_expect_eq(out[1], 5);
  cr_expect_eq(out[2], 0);
  cr_expect_eq(out[3], 0);
  cr_expect(isinf(out[6]) && out[6] < 0);
  cr_expect(isinf(out[10]) && out[10] > 0);
  cr_expect(isnan(out[14]));
}

Test(tile_eval, order_F_loads_the_transpose) {
  /* cutile-python's documented example: x = arange(16).reshape(4, 4);
   * ct.load(x, (j, 0), shape=(1, 4), order='F') is column j */
  const char *src = PRE
    "@ct.kernel\n"
    "def tr(x, out):\n"
    "    for j in range(4):\n"
    "        ct.store(out, (j, 0), ct.load(x, (j, 0), shape=(1, 4), order='F'))\n";
  float x[16], out[16];
  for (int i = 0; i < 16; i++) x[i] = (float)i;
  tt_tile_arg args[] = {arr_f32("x", x, 2, (int64_t[]){4, 4}), arr_f32("out", out, 2, (int64_t[]){4, 4})};
  char *err = run(src, "tr", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) cr_expect_eq(out[r * 4 + c], x[c * 4 + r], "out[%d][%d]", r, c);
}

Test(tile_eval, order_tuple_permutes_the_last_two_axes) {
  /* documented: x = arange(8).reshape(2, 2, 2); load((0,0,0), (1,2,2), order=(0,2,1)) -> [[[0,2],[1,3]]] */
  const char *src = PRE
    "@ct.kernel\n"
    "def k(x, out):\n"
    "    ct.store(out, (0, 0, 0), ct.load(x, (0, 0, 0), shape=(1, 2, 2), order=(0, 2, 1)))\n";
  float x[8], out[4];
  for (int i = 0; i < 8; i++) x[i] = (float)i;
  tt_tile_arg args[] = {arr_f32("x", x, 3, (int64_t[]){2, 2, 2}), arr_f32("out", out, 3, (int64_t[]){1, 2, 2})};
  char *err = run(src, "k", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  float want[4] = {0, 2, 1, 3};
  for (int i = 0; i < 4; i++) cr_expect_eq(out[i], want[i], "out[%d]", i);
}

Test(tile_eval, tiled_matmul_with_a_k_loop_helpers_and_tf32) {
  const char *src = PRE
    "def tile_ids(tm, tn):\n"
    "    return ct.bid(0), ct.bid(1)\n"
    "\n"
    "@ct.kernel\n"
    "def mm(A, B, C, tm: ConstInt, tn: ConstInt, tk: ConstInt):\n"
    "    bx, by = tile_ids(tm, tn)\n"
    "    acc = ct.full((tm, tn), 0, dtype=ct.float32)\n"
    "    dt = ct.tfloat32 if A.dtype == ct.float32 else A.dtype\n"
    "    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):\n"
    "        a = ct.load(A, index=(bx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO).astype(dt)\n"
    "        b = ct.load(B, index=(k, by), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO).astype(dt)\n"
    "        acc = ct.mma(a, b, acc)\n"
    "    ct.store(C, index=(bx, by), tile=ct.astype(acc, C.dtype))\n";
  enum { M = 5, K = 7, N = 6 };
  float A[M * K], B[K * N], C[M * N];
  for (int i = 0; i < M * K; i++) A[i] = (float)(i % 5) - 2.0f;
  for (int i = 0; i < K * N; i++) B[i] = (float)(i % 3) * 0.5f;
  tt_tile_arg args[] = {arr_f32("A", A, 2, (int64_t[]){M, K}), arr_f32("B", B, 2, (int64_t[]){K, N}),
                        arr_f32("C", C, 2, (int64_t[]){M, N}), cint("tm", 4), cint("tn", 4), cint("tk", 4)};
  char *err = run(src, "mm", 2, 2, args, 6);
  cr_assert_null(err, "%s", err);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      float want = 0;
      for (int k = 0; k < K; k++) want += A[m * K + k] * B[k * N + n];
      cr_expect_float_eq(C[m * N + n], want, 1e-5, "C[%d][%d]", m, n);
    }
}

Test(tile_eval, softmax_rows_with_reductions_and_broadcasting) {
  const char *src = PRE
    "@ct.kernel\n"
    "def softmax(x, y, TN: ConstInt):\n"
    "    row = ct.bid(0)\n"
    "    t = ct.load(x, (row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)\n"
    "    t = t - ct.max(t, axis=1, keepdims=True)\n"
    "    e = ct.exp(t)\n"
    "    ct.store(y, (row, 0), e / ct.sum(e, axis=1, keepdims=True))\n";
  float x[3 * 5], y[3 * 5];
  for (int i = 0; i < 15; i++) x[i] = (float)(i % 4);
  tt_tile_arg args[] = {arr_f32("x", x, 2, (int64_t[]){3, 5}), arr_f32("y", y, 2, (int64_t[]){3, 5}), cint("TN", 8)};
  char *err = run(src, "softmax", 3, 1, args, 3);
  cr_assert_null(err, "%s", err);
  for (int r = 0; r < 3; r++) {
    double mx = -1e30, s = 0;
    for (int c = 0; c < 5; c++) mx = fmax(mx, x[r * 5 + c]);
    for (int c = 0; c < 5; c++) s += exp(x[r * 5 + c] - mx);
    for (int c = 0; c < 5; c++) cr_expect_float_eq(y[r * 5 + c], exp(x[r * 5 + c] - mx) / s, 1e-6);
  }
}

Test(tile_eval, gather_and_scatter_follow_bounds) {
  const char *src = PRE
    "@ct.kernel\n"
    "def g(x, idx_out, out):\n"
    "    i = ct.arange(4, dtype=ct.int32) * 2\n"
    "    v = ct.gather(x, i, padding_value=-1)\n"
    "    ct.scatter(out, ct.arange(4, dtype=ct.int32) + 3, v)\n";
  float x[5] = {10, 11, 12, 13, 14}, dummy[1], out[5] = {0};
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){5}), arr_f32("idx_out", dummy, 1, (int64_t[]){1}),
                        arr_f32("out", out, 1, (int64_t[]){5})};
  char *err = run(src, "g", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  /* gathered 10, 12, 14, -1 (index 6 is out of bounds); stored at 3, 4 (5 and 6 dropped) */
  cr_expect_eq(out[3], 10);
  cr_expect_eq(out[4], 12);
  cr_expect_eq(out[0], 0);
}

Test(tile_eval, expand_dims_by_subscript_and_bias_add) {
  const char *src = PRE
    "@ct.kernel\n"
    "def bias(x, b, y):\n"
    "    t = ct.load(x, (0, 0), shape=(2, 4))\n"
    "    r = ct.load(b, (0,), shape=(4,))\n"
    "    col = ct.load(b, (0,), shape=(2,))[:, None]\n"
    "    ct.store(y, (0, 0), t + r + col)\n";
  float x[8] = {0}, b[4] = {1, 2, 3, 4}, y[8];
  tt_tile_arg args[] = {arr_f32("x", x, 2, (int64_t[]){2, 4}), arr_f32("b", b, 1, (int64_t[]){4}),
                        arr_f32("y", y, 2, (int64_t[]){2, 4})};
  char *err = run(src, "bias", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  float want[8] = {2, 3, 4, 5, 3, 4, 5, 6};
  for (int i = 0; i < 8; i++) cr_expect_eq(y[i], want[i], "y[%d]", i);
}

static void expect_error(const char *src, const char *kernel, tt_tile_arg *args, size_t n, const char *where,
                         const char *what) {
  char *err = run(src, kernel, 1, 1, args, n);
  cr_assert_not_null(err, "the kernel ran but should have failed with %s", what);
  cr_expect(strstr(err, where) != NULL, "error at %s expected: %s", where, err);
  cr_expect(strstr(err, what) != NULL, "'%s' expected: %s", what, err);
  free(err);
}

Test(tile_eval, compile_time_rules_are_errors_at_their_line) {
  float x[8];
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){8})};
  expect_error(PRE "@ct.kernel\ndef k(x):\n    t = ct.load(x, (0,), shape=(6,))\n", "k", args, 1, "k.py:6:32",
               "not a power of two");
  expect_error(PRE "@ct.kernel\ndef k(x):\n    t = ct.load(x, (0, 0), shape=(4,))\n", "k", args, 1, "k.py:6:",
               "the index has 2 entries; the array has rank 1");
  expect_error(PRE "@ct.kernel\ndef k(x):\n    t = ct.full((4,), 0, dtype=ct.float32)\n    u = t + ct.full((8,), 0, dtype=ct.float32)\n",
               "k", args, 1, "k.py:7:", "do not broadcast");
  expect_error(PRE "@ct.kernel\ndef k(x):\n    i = ct.bid(3)\n", "k", args, 1, "k.py:6:", "counts from 0");
  expect_error(PRE "@ct.kernel\ndef k(x):\n    y = undefined_name + 1\n", "k", args, 1, "k.py:6:9", "not defined");
  expect_error(PRE "@ct.kernel\ndef k(x):\n    y = [v for v in range(3)]\n", "k", args, 1, "k.py:6:", "not supported");
  expect_error(PRE "@ct.kernel\ndef k(x, y):\n    pass\n", "k", args, 1, "k.py:5:", "takes 2 parameters; the spec gives 1");
  expect_error(PRE "@ct.kernel\ndef k(x):\n    t = ct.load(x, (0,), shape=(4,)\n", "k", args, 1, "k.py:", "does not parse");
}

Test(tile_eval, python_integer_semantics_in_index_math) {
  const char *src = PRE
    "@ct.kernel\n"
    "def k(out):\n"
    "    a = -7 // 2\n"
    "    b = -7 % 2\n"
    "    c = min(3, 9) + max(1, 2) * 10\n"
    "    ct.store(out, (0,), ct.full((4,), 0, dtype=ct.float32) + ct.arange(4, dtype=ct.float32) * 0 + a * 1000 + b * 100 + c)\n";
  float out[4];
  tt_tile_arg args[] = {arr_f32("out", out, 1, (int64_t[]){4})};
  char *err = run(src, "k", 1, 1, args, 1);
  cr_assert_null(err, "%s", err);
  cr_expect_eq(out[0], -4000 + 100 + 23);
}

/* ---- Triton ---------------------------------------------------------------- */

static int run_triton(const char *src, const char *entry, tt_tile_arg *args, size_t n, char **err) {
  *err = NULL;
  tt_tile_program *p = tt_tile_program_load("t.py", src, strlen(src), TT_TILE_TRITON, err);
  if (!p) return TT_TILE_E_COMPILE;
  int64_t grid[3] = {1, 1, 1};
  int rc = tt_tile_run(p, entry, grid, args, n, NULL, err);
  tt_tile_program_free(p);
  return rc;
}

#define TPRE "import triton\nimport triton.language as tl\n\n"

Test(tile_triton, pointer_offsets_masks_and_a_lambda_grid) {
  const char *src = TPRE
    "@triton.jit\n"
    "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs, mask=offs < n, other=-1.0)\n"
    "    tl.store(y_ptr + offs, x * 2, mask=offs < n)\n"
    "\n"
    "def host(x, y):\n"
    "    n = x.numel()\n"
    "    k[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, y, n, BLOCK=4, num_warps=1)\n";
  float x[10], y[10] = {0};
  for (int i = 0; i < 10; i++) x[i] = (float)i;
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){10}), arr_f32("y", y, 1, (int64_t[]){10})};
  char *err;
  cr_assert_eq(run_triton(src, "host", args, 2, &err), 0, "%s", err);
  for (int i = 0; i < 10; i++) cr_expect_eq(y[i], 2.0f * (float)i, "y[%d]", i);
}

Test(tile_triton, an_access_outside_under_a_true_mask_is_a_run_failure) {
  const char *src = TPRE
    "@triton.jit\n"
    "def k(x_ptr, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "\n"
    "def host(x):\n"
    "    k[(1,)](x, BLOCK=16)\n";
  float x[10];
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){10})};
  char *err;
  cr_assert_eq(run_triton(src, "host", args, 1, &err), TT_TILE_E_RUNTIME);
  cr_expect(strstr(err, "t.py:7:9") && strstr(err, "element 10 of 'x'"), "%s", err);
  free(err);
}

Test(tile_triton, int32_offsets_that_overflow_name_the_expression) {
  const char *src = TPRE
    "@triton.jit\n"
    "def k(x_ptr, stride, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0) + 70000\n"
    "    off = row * stride\n"
    "\n"
    "def host(x):\n"
    "    k[(1,)](x, 40000, BLOCK=4)\n";
  float x[4];
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){4})};
  char *err;
  cr_assert_eq(run_triton(src, "host", args, 1, &err), TT_TILE_E_RUNTIME);
  cr_expect(strstr(err, "int32 overflows in `row * stride`"), "%s", err);
  free(err);
}

Test(tile_triton, dot_rounds_f32_operands_to_tf32_unless_ieee) {
  /* 1 + 2^-12 is not a TF32 value: TF32 rounds it to 1, IEEE keeps it */
  const char *src = TPRE
    "@triton.jit\n"
    "def k(a_ptr, o_ptr, PREC: tl.constexpr):\n"
    "    i = tl.arange(0, 16)\n"
    "    a = tl.load(a_ptr + i[:, None] * 16 + i[None, :])\n"
    "    tl.store(o_ptr + i[:, None] * 16 + i[None, :], tl.dot(a, a, input_precision=PREC))\n"
    "\n"
    "def host(a, o, o2):\n"
    "    k[(1,)](a, o, PREC='tf32')\n"
    "    k[(1,)](a, o2, PREC='ieee')\n";
  float a[256] = {0}, o[256], o2[256];
  for (int i = 0; i < 16; i++) a[i * 16 + i] = 1.0f + 0x1p-12f;
  tt_tile_arg args[] = {arr_f32("a", a, 2, (int64_t[]){16, 16}), arr_f32("o", o, 2, (int64_t[]){16, 16}),
                        arr_f32("o2", o2, 2, (int64_t[]){16, 16})};
  char *err;
  cr_assert_eq(run_triton(src, "host", args, 3, &err), 0, "%s", err);
  cr_expect_eq(o[0], 1.0f);
  cr_expect_eq(o2[0], (1.0f + 0x1p-12f) * (1.0f + 0x1p-12f));
}

Test(tile_triton, the_entry_must_be_the_host_function) {
  const char *src = TPRE "@triton.jit\ndef k(x_ptr):\n    pass\n";
  float x[1];
  tt_tile_arg args[] = {arr_f32("x", x, 1, (int64_t[]){1})};
  char *err;
  cr_assert_eq(run_triton(src, "k", args, 1, &err), TT_TILE_E_COMPILE);
  cr_expect(strstr(err, "is a kernel; the spec's entry is the host function"), "%s", err);
  free(err);
}

Test(tile_triton, block_pointers_pad_checked_dims_and_clip_stores) {
  /* a 3 x 5 matrix read in 4 x 4 blocks at (0, 4) after an advance: column 4 is the
   * only real one; rows 3.. and columns 5.. are outside and, checked, read zero */
  const char *src = TPRE
    "@triton.jit\n"
    "def k(x_ptr, y_ptr, M, N):\n"
    "    bp = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(N, 1), offsets=(0, 0), block_shape=(4, 4), order=(1, 0))\n"
    "    bp = tl.advance(bp, (0, 4))\n"
    "    t = tl.load(bp, boundary_check=(0, 1), padding_option='zero')\n"
    "    out = tl.make_block_ptr(y_ptr, shape=(M, N), strides=(N, 1), offsets=(0, 0), block_shape=(4, 4), order=(1, 0))\n"
    "    tl.store(out, t + 100.0, boundary_check=(0, 1))\n"
    "\n"
    "def host(x, y):\n"
    "    k[(1,)](x, y, 3, 5)\n";
  float x[15], y[15] = {0};
  for (int i = 0; i < 15; i++) x[i] = (float)i;
  tt_tile_arg args[] = {arr_f32("x", x, 2, (int64_t[]){3, 5}), arr_f32("y", y, 2, (int64_t[]){3, 5})};
  char *err;
  cr_assert_eq(run_triton(src, "host", args, 2, &err), 0, "%s", err);
  for (int r = 0; r < 3; r++) {
    cr_expect_eq(y[r * 5 + 0], x[r * 5 + 4] + 100.0f, "row %d: column 0 took x's column 4", r);
    for (int c = 1; c < 4; c++) cr_expect_eq(y[r * 5 + c], 100.0f, "row %d col %d: padding", r, c);
    cr_expect_eq(y[r * 5 + 4], 0.0f, "column 4 was outside the stored block");
  }
}
