/* The evaluator on small cuTile.jl kernels written here, against hand-worked values:
 * 1-based block ids and indices, partial tiles under each padding mode, left-aligned
 * broadcasting, reductions that keep their dims, column-major reshape, muladd with
 * TF32 operands, gather, helpers and control flow, both array layouts (the checker's
 * logical and flipped views of the same bytes), and the compile-time errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tile/tt_tile.h"

/* A row-major array of `shape`; flipped: the same bytes seen with the dims reversed
 * (tile_check.c's `# layout: flipped`). */
static tt_tile_arg arr(const char *name, tt_tile_dtype dt, void *data, int nd, const int64_t *shape, bool flipped) {
  tt_tile_arg a = {.kind = TT_TILE_ARG_ARRAY, .name = name, .dtype = dt, .ndim = nd, .data = data};
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) a.shape[i] = shape[i], a.strides[i] = s, s *= shape[i];
  for (int i = 0; flipped && i < nd / 2; i++) {
    int64_t x = a.shape[i], y = a.strides[i];
    a.shape[i] = a.shape[nd - 1 - i], a.strides[i] = a.strides[nd - 1 - i];
    a.shape[nd - 1 - i] = x, a.strides[nd - 1 - i] = y;
  }
  return a;
}
static tt_tile_arg f32(const char *name, float *data, int nd, const int64_t *shape) {
  return arr(name, TT_TILE_F32, data, nd, shape, false);
}
static tt_tile_arg cint(const char *name, int64_t v) { return (tt_tile_arg){.kind = TT_TILE_ARG_INT, .name = name, .ivalue = v}; }

static char *run(const char *src, const char *kernel, int64_t gx, int64_t gy, tt_tile_arg *args, size_t n) {
  char *err = NULL;
  tt_tile_program *p = tt_tile_program_load("k.jl", src, strlen(src), TT_TILE_CUTILE_JULIA, &err);
  if (!p) return err;
  int64_t grid[3] = {gx, gy, 1};
  int rc = tt_tile_run(p, kernel, grid, args, n, NULL, &err);
  tt_tile_program_free(p);
  return rc ? err : NULL;
}

#define PRE "import cuTile as ct\n\n"

Test(tile_jl, one_based_bid_partial_tile_and_clipped_store) {
  const char *src = PRE
    "function vadd(a::ct.TileArray{T,1}, c::ct.TileArray{T,1}, alpha::Float32, TILE::Int) where {T}\n"
    "    i = ct.bid(1)\n"
    "    x = ct.load(a; index=i, shape=(TILE,), padding_mode=ct.PaddingMode.Zero)\n"
    "    ct.store(c; index=i, tile=alpha * x + x)\n"
    "    return\n"
    "end\n";
  float a[10], c[12];
  for (int i = 0; i < 10; i++) a[i] = (float)i;
  for (int i = 0; i < 12; i++) c[i] = -1;
  tt_tile_arg args[] = {f32("a", a, 1, (int64_t[]){10}), f32("c", c, 1, (int64_t[]){10}),
                        {.kind = TT_TILE_ARG_FLOAT, .name = "alpha", .fvalue = 2.0}, cint("TILE", 4)};
  char *err = run(src, "vadd", 3, 1, args, 4);
  cr_assert_null(err, "%s", err);
  for (int i = 0; i < 10; i++) cr_expect_float_eq(c[i], 3.0f * (float)i, 1e-6, "c[%d]", i);
  cr_expect_eq(c[10], -1, "the store was clipped at the array's end");
}

Test(tile_jl, each_padding_mode) {
  const char *src = PRE
    "function pad(a::ct.TileArray{Float32,1}, c::ct.TileArray{Float32,2})\n"
    "    ct.store(c; index=(1, 1), tile=reshape(ct.load(a; index=1, shape=(4,), padding_mode=ct.PaddingMode.Zero), (1, 4)))\n"
    "    ct.store(c; index=(2, 1), tile=reshape(ct.load(a; index=1, shape=(4,), padding_mode=ct.PaddingMode.NegInf), (1, 4)))\n"
    "    ct.store(c; index=(3, 1), tile=reshape(ct.load(a; index=1, shape=(4,), padding_mode=ct.PaddingMode.PosInf), (1, 4)))\n"
    "    ct.store(c; index=(4, 1), tile=reshape(ct.load(a; index=1, shape=(4,), padding_mode=ct.PaddingMode.Nan), (1, 4)))\n"
    "    ct.store(c; index=(5, 1), tile=reshape(ct.load(a; index=1, shape=(4,), padding_mode=ct.PaddingMode.NegZero), (1, 4)))\n"
    "    ct.store(c; index=(6, 1), tile=reshape(ct.load(a, 1, (4,)), (1, 4)))\n"
    "end\n";
  float a[3] = {1, 2, 3}, c[6 * 4];
  tt_tile_arg args[] = {f32("a", a, 1, (int64_t[]){3}), f32("c", c, 2, (int64_t[]){6, 4})};
  char *err = run(src, "pad", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  for (int r = 0; r < 6; r++)
    for (int i = 0; i < 3; i++) cr_expect_eq(c[r * 4 + i], a[i], "row %d keeps the in-bounds values", r);
  cr_expect(c[3] == 0 && !signbit(c[3]));
  cr_expect(isinf(c[7]) && c[7] < 0);
  cr_expect(isinf(c[11]) && c[11] > 0);
  cr_expect(isnan(c[15]));
  cr_expect(c[19] == 0 && signbit(c[19]), "NegZero pads -0.0");
  cr_expect(isnan(c[23]), "Undetermined reads NaN in the interpreter");
}

Test(tile_jl, dotted_broadcasting_aligns_on_the_left) {
  /* (2,) .+ (2, 3): the vector lines up with dim 1, so it is added to every column */
  const char *src = PRE
    "function bc(v::ct.TileArray{Float32,1}, x::ct.TileArray{Float32,2}, y::ct.TileArray{Float32,2})\n"
    "    t = ct.load(x; index=(1, 1), shape=(2, 4))\n"
    "    ct.store(y; index=(1, 1), tile=t .+ ct.load(v; index=1, shape=(2,)))\n"
    "end\n";
  float v[2] = {10, 20}, x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, y[8];
  tt_tile_arg args[] = {f32("v", v, 1, (int64_t[]){2}), f32("x", x, 2, (int64_t[]){2, 4}), f32("y", y, 2, (int64_t[]){2, 4})};
  char *err = run(src, "bc", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  float want[8] = {10, 11, 12, 13, 24, 25, 26, 27};
  for (int i = 0; i < 8; i++) cr_expect_eq(y[i], want[i], "y[%d] = %g", i, y[i]);
}

Test(tile_jl, undotted_plus_of_different_shapes_is_a_compile_error_at_its_line) {
  const char *src = PRE
    "function bad(x::ct.TileArray{Float32,2}, y::ct.TileArray{Float32,2})\n"
    "    t = ct.load(x; index=(1, 1), shape=(2, 4))\n"
    "    r = reshape(ct.load(x; index=(1, 1), shape=(1, 4)), (1, 4))\n"
    "    ct.store(y; index=(1, 1), tile=t + r)\n"
    "end\n";
  float x[8] = {0}, y[8];
  tt_tile_arg args[] = {f32("x", x, 2, (int64_t[]){2, 4}), f32("y", y, 2, (int64_t[]){2, 4})};
  char *err = run(src, "bad", 1, 1, args, 2);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "k.jl:6:") && strstr(err, "equal shapes") && strstr(err, "'.+'"), "%s", err);
  free(err);
}

Test(tile_jl, reductions_keep_the_reduced_dim) {
  const char *src = PRE
    "function red(x::ct.TileArray{Float32,2}, rs::ct.TileArray{Float32,2}, cm::ct.TileArray{Float32,2}, tot::ct.TileArray{Float32,1})\n"
    "    t = ct.load(x; index=(1, 1), shape=(2, 4))\n"
    "    s = sum(t; dims=2)\n"
    "    m = maximum(t; dims=1)\n"
    "    ct.store(rs; index=(1, 1), tile=s)\n"
    "    ct.store(cm; index=(1, 1), tile=m)\n"
    "    ct.store(tot; index=1, tile=reshape(ct.Tile(sum(t)) .+ size(s, 2) .+ 10 * size(m, 1), (1,)))\n"
    "end\n";
  float x[8] = {1, 2, 3, 4, 10, 20, 30, 40}, rs[2], cm[4], tot[1];
  tt_tile_arg args[] = {f32("x", x, 2, (int64_t[]){2, 4}), f32("rs", rs, 2, (int64_t[]){2, 1}),
                        f32("cm", cm, 2, (int64_t[]){1, 4}), f32("tot", tot, 1, (int64_t[]){1})};
  char *err = run(src, "red", 1, 1, args, 4);
  cr_assert_null(err, "%s", err);
  cr_expect_eq(rs[0], 10);
  cr_expect_eq(rs[1], 100);
  for (int i = 0; i < 4; i++) cr_expect_eq(cm[i], x[4 + i]);
  cr_expect_eq(tot[0], 110 + 1 + 10, "sum(t) is all of it; size(s, 2) == 1 and size(m, 1) == 1 (dims kept)");
}

Test(tile_jl, cumsum_scans_along_a_one_based_dim) {
  const char *src = PRE
    "function scan(x::ct.TileArray{Float32,2}, r::ct.TileArray{Float32,2}, c::ct.TileArray{Float32,2})\n"
    "    t = ct.load(x; index=(1, 1), shape=(2, 4))\n"
    "    ct.store(r; index=(1, 1), tile=cumsum(t; dims=2))\n"
    "    ct.store(c; index=(1, 1), tile=cumsum(t; dims=1, rev=false))\n"
    "    return\n"
    "end\n";
  float x[8] = {1, 2, 3, 4, 10, 20, 30, 40}, r[8], c[8];
  int64_t sh[] = {2, 4};
  tt_tile_arg args[] = {f32("x", x, 2, sh), f32("r", r, 2, sh), f32("c", c, 2, sh)};
  char *err = run(src, "scan", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  float want_r[8] = {1, 3, 6, 10, 10, 30, 60, 100}, want_c[8] = {1, 2, 3, 4, 11, 22, 33, 44};
  for (int i = 0; i < 8; i++) {
    cr_expect_eq(r[i], want_r[i], "r[%d]", i);
    cr_expect_eq(c[i], want_c[i], "c[%d]", i);
  }
  /* what cuTile.jl's cumsum needs, or the interpreter does not do */
  const char *bad[][2] = {{"cumsum(t)", "needs `dims`"}, {"cumsum(t; dims=2, rev=true)", "rev=true"},
                          {"cumsum(t; dims=0)", "out of 1:2"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char k[512];
    snprintf(k, sizeof k, PRE "function scan(x::ct.TileArray{Float32,2}, r::ct.TileArray{Float32,2})\n"
             "    t = ct.load(x; index=(1, 1), shape=(2, 4))\n    ct.store(r; index=(1, 1), tile=%s)\nend\n", bad[i][0]);
    err = run(k, "scan", 1, 1, args, 2);
    cr_assert_not_null(err, "%s ran", bad[i][0]);
    cr_expect(strstr(err, "k.jl:5:") && strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
    free(err);
  }
}

Test(tile_jl, reshape_is_column_major) {
  /* [1 2 3; 4 5 6] read column by column is 1 4 2 5 3 6; as (3, 2): [1 5; 4 3; 2 6] */
  const char *src = PRE
    "function rs(x::ct.TileArray{Float32,2}, y::ct.TileArray{Float32,2})\n"
    "    t = ct.load(x; index=(1, 1), shape=(2, 4))\n"
    "    ct.store(y; index=(1, 1), tile=reshape(t, (4, 2)))\n"
    "end\n";
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8];
  tt_tile_arg args[] = {f32("x", x, 2, (int64_t[]){2, 4}), f32("y", y, 2, (int64_t[]){4, 2})};
  char *err = run(src, "rs", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  /* column-major order of x: 1 5 2 6 3 7 4 8; y (4, 2) column-major from it */
  float want[8] = {1, 3, 5, 7, 2, 4, 6, 8};
  for (int i = 0; i < 8; i++) cr_expect_eq(y[i], want[i], "y[%d] = %g", i, y[i]);
}

Test(tile_jl, muladd_rounds_tf32_operands_and_accumulates_in_f32) {
  const char *src = PRE
    "function mm(a::ct.TileArray{T,2}, c::ct.TileArray{T,2}, d::ct.TileArray{T,2}) where {T}\n"
    "    x = ct.load(a; index=(1, 1), shape=(2, 2))\n"
    "    ct.store(c; index=(1, 1), tile=muladd(x, x, zeros(Float32, (2, 2))))\n"
    "    if T === Float32\n"
    "        x = convert(ct.Tile{ct.TFloat32}, x)\n"
    "    end\n"
    "    ct.store(d; index=(1, 1), tile=convert(ct.Tile{T}, muladd(x, x, zeros(Float32, 2, 2))))\n"
    "end\n";
  float e = 1.0f + 0x1p-12f; /* below TF32's 10-bit mantissa: rounds to 1 */
  float a[4] = {e, 0, 0, 1}, c[4], d[4];
  tt_tile_arg args[] = {f32("a", a, 2, (int64_t[]){2, 2}), f32("c", c, 2, (int64_t[]){2, 2}), f32("d", d, 2, (int64_t[]){2, 2})};
  char *err = run(src, "mm", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  cr_expect_eq(c[0], e * e, "f32 operands: exact product, %a", c[0]);
  cr_expect_eq(d[0], 1.0f, "TF32 operands: 1 + 2^-12 rounds to 1, %a", d[0]);
  cr_expect_eq(d[3], 1.0f);
}

Test(tile_jl, arange_and_gather_are_one_based) {
  const char *src = PRE
    "function g(x::ct.TileArray{Float32,1}, y::ct.TileArray{Float32,1})\n"
    "    idx = ct.arange(4) .* 2\n"
    "    ct.store(y; index=1, tile=ct.gather(x, idx; padding_value=-1.0f0))\n"
    "end\n";
  float x[6] = {10, 11, 12, 13, 14, 15}, y[4];
  tt_tile_arg args[] = {f32("x", x, 1, (int64_t[]){6}), f32("y", y, 1, (int64_t[]){4})};
  char *err = run(src, "g", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  /* idx = 2 4 6 8 (1-based): x[2] x[4] x[6], and 8 is out of bounds */
  cr_expect_eq(y[0], 11);
  cr_expect_eq(y[1], 13);
  cr_expect_eq(y[2], 15);
  cr_expect_eq(y[3], -1);
}

Test(tile_jl, val_parameters_bind_their_type_parameter) {
  const char *src = PRE
    "function k(x::ct.TileArray{Float32,1}, y::ct.TileArray{Float32,1}, ::Val{TILE}) where {TILE}\n"
    "    ct.store(y; index=ct.bid(1), tile=ct.load(x; index=ct.bid(1), shape=(TILE,)) .+ TILE)\n"
    "end\n";
  float x[4] = {1, 2, 3, 4}, y[4];
  tt_tile_arg args[] = {f32("x", x, 1, (int64_t[]){4}), f32("y", y, 1, (int64_t[]){4}), cint("TILE", 2)};
  char *err = run(src, "k", 2, 1, args, 3);
  cr_assert_null(err, "%s", err);
  for (int i = 0; i < 4; i++) cr_expect_eq(y[i], x[i] + 2);
}

/* cuTile.jl's _match_shape: a (1, 1) tile stores into a 1-d array (trailing singletons
 * dropped), a (2,) load of a 2-d array reads a (2, 1) block; a non-singleton extra dim
 * is an error. */
Test(tile_jl, load_and_store_match_the_array_rank) {
  const char *src = PRE
    "function k(x::ct.TileArray{Float32,2}, m::ct.TileArray{Float32,1}, c::ct.TileArray{Float32,1})\n"
    "    t = ct.load(x; index=(1, 2), shape=(2,))\n"
    "    ct.store(c; index=1, tile=t)\n"
    "    ct.store(m; index=ct.bid(1), tile=sum(ct.load(x; index=(ct.bid(1), 1), shape=(1, 4)); dims=2))\n"
    "end\n";
  float x[8] = {1, 2, 3, 4, 10, 20, 30, 40}, m[2], c[2];
  tt_tile_arg args[] = {f32("x", x, 2, (int64_t[]){2, 4}), f32("m", m, 1, (int64_t[]){2}), f32("c", c, 1, (int64_t[]){2})};
  char *err = run(src, "k", 2, 1, args, 3);
  cr_assert_null(err, "%s", err);
  cr_expect_eq(c[0], 2, "x[1, 2]");
  cr_expect_eq(c[1], 20, "x[2, 2]");
  cr_expect_eq(m[0], 10);
  cr_expect_eq(m[1], 100);
  const char *bad = PRE
    "function k(x::ct.TileArray{Float32,2}, m::ct.TileArray{Float32,1}, c::ct.TileArray{Float32,1})\n"
    "    ct.store(m; index=1, tile=ct.load(x; index=(1, 1), shape=(1, 4)))\n"
    "end\n";
  err = run(bad, "k", 1, 1, args, 3);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "k.jl:4:") && strstr(err, "only trailing singleton dims"), "%s", err);
  free(err);
}

Test(tile_jl, helpers_loops_and_tuples) {
  const char *src = PRE
    "twice(t) = t .* 2\n"
    "function split(n)\n"
    "    return cld(n, 4), fld(n, 4)\n"
    "end\n"
    "function k(x::ct.TileArray{Float32,1}, y::ct.TileArray{Float32,1}, n::Int)\n"
    "    hi, lo = split(n)\n"
    "    acc = zeros(Float32, (4,))\n"
    "    for j in 1:hi\n"
    "        acc = acc .+ twice(ct.load(x; index=j, shape=(4,), padding_mode=ct.PaddingMode.Zero))\n"
    "    end\n"
    "    k = 0\n"
    "    while k < 3\n"
    "        k += 1\n"
    "    end\n"
    "    if lo == 2 && k == 3\n"
    "        acc = acc .+ 100\n"
    "    elseif lo == 1\n"
    "        acc = acc .- 100\n"
    "    else\n"
    "        acc = acc .* 0\n"
    "    end\n"
    "    ct.store(y; index=1, tile=acc)\n"
    "end\n";
  float x[10], y[4];
  for (int i = 0; i < 10; i++) x[i] = (float)(i + 1);
  tt_tile_arg args[] = {f32("x", x, 1, (int64_t[]){10}), f32("y", y, 1, (int64_t[]){4}), cint("n", 10)};
  char *err = run(src, "k", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  /* chunks 1 2 3 4 | 5 6 7 8 | 9 10 0 0, doubled and summed, then +100 (fld(10, 4) == 2) */
  float want[4] = {2 * 15 + 100, 2 * 18 + 100, 2 * 10 + 100, 2 * 12 + 100};
  for (int i = 0; i < 4; i++) cr_expect_eq(y[i], want[i], "y[%d] = %g", i, y[i]);
}

/* The same bytes under both layouts: a (2, 3) row-major array is a (2, 3) Julia array
 * under logical and a (3, 2) one under flipped, so A[1, 2] is byte 1 in logical and
 * byte 3 (Python's [1, 0]) in flipped. */
Test(tile_jl, both_layouts_see_the_same_bytes) {
  const char *src = PRE
    "function pick(A::ct.TileArray{Float32,2}, out::ct.TileArray{Float32,1})\n"
    "    t = ct.load(A; index=(1, 1), shape=(4, 4), padding_mode=ct.PaddingMode.Zero)\n"
    "    ct.store(out; index=1, tile=reshape(t, (16,)))\n"
    "end\n";
  float a[6] = {0, 1, 2, 3, 4, 5}, lo[16], fl[16];
  tt_tile_arg l[] = {arr("A", TT_TILE_F32, a, 2, (int64_t[]){2, 3}, false), f32("out", lo, 1, (int64_t[]){16})};
  tt_tile_arg f[] = {arr("A", TT_TILE_F32, a, 2, (int64_t[]){2, 3}, true), f32("out", fl, 1, (int64_t[]){16})};
  char *err = run(src, "pick", 1, 1, l, 2);
  cr_assert_null(err, "%s", err);
  err = run(src, "pick", 1, 1, f, 2);
  cr_assert_null(err, "%s", err);
  /* column-major flattening of the 4x4 tile: element (r, c) at r + 4c */
  cr_expect_eq(lo[0 + 4 * 1], 1, "logical A[1, 2] = a[0][1]");
  cr_expect_eq(lo[1 + 4 * 0], 3, "logical A[2, 1] = a[1][0]");
  cr_expect_eq(fl[0 + 4 * 1], 3, "flipped A[1, 2] = a[1][0]");
  cr_expect_eq(fl[1 + 4 * 0], 1, "flipped A[2, 1] = a[0][1]");
  cr_expect_eq(fl[2 + 4 * 1], 5, "flipped A[3, 2] = a[1][2]");
  cr_expect_eq(fl[3], 0, "flipped A is (3, 2): row 4 is padding");
}

Test(tile_jl, compile_errors_name_their_line) {
  float x[8] = {0}, y[8];
  struct { const char *body, *want; } cases[] = {
    {"    t = ct.load(x; index=(ct.bid(0), 1), shape=(2, 4))\n", "counts from 1"},
    {"    t = ct.load(x; index=(1, 1), shape=(2, 3))\n", "power of two"},
    {"    t = ct.load(x; index=1, shape=(2, 4))\n", "rank 2"},
    {"    t = sum(ct.load(x; index=(1, 1), shape=(2, 4)); dims=3)\n", "out of 1:2"},
    {"    t = ct.load(x; index=(1, 1), shape=(2, 4)) * ct.load(x; index=(1, 1), shape=(2, 4))\n", "matrix product"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char src[512];
    snprintf(src, sizeof src, PRE "function k(x::ct.TileArray{Float32,2}, y::ct.TileArray{Float32,2})\n%send\n", cases[i].body);
    tt_tile_arg args[] = {f32("x", x, 2, (int64_t[]){2, 4}), f32("y", y, 2, (int64_t[]){2, 4})};
    char *err = run(src, "k", 1, 1, args, 2);
    cr_assert_not_null(err, "case %zu ran", i);
    cr_expect(strstr(err, "k.jl:4:") && strstr(err, cases[i].want), "case %zu: %s", i, err);
    free(err);
  }
}

Test(tile_jl, signature_mismatch_is_an_error_at_the_parameter) {
  const char *src = PRE
    "function k(x::ct.TileArray{Float32,2}, y::ct.TileArray{Float16,1})\n"
    "end\n";
  float x[8] = {0}, y[8];
  tt_tile_arg rank[] = {f32("x", x, 1, (int64_t[]){8}), f32("y", y, 1, (int64_t[]){8})};
  char *err = run(src, "k", 1, 1, rank, 2);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "k.jl:3:12:") && strstr(err, "rank 2") && strstr(err, "signature mismatch"), "%s", err);
  free(err);
  tt_tile_arg dtype[] = {f32("x", x, 2, (int64_t[]){2, 4}), f32("y", y, 1, (int64_t[]){8})};
  err = run(src, "k", 1, 1, dtype, 2);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "k.jl:3:") && strstr(err, "TileArray{Float16}") && strstr(err, "float32"), "%s", err);
  free(err);
}

/* What rewrite --target julia emits for real cuTile Python (TileGym, cutile-python
 * samples): a:s:b ranges (range(start, stop, step)), fld./mod. of integers (// and %),
 * dropdims after a reduction whose axis Python drops, and sum(x; dims=:) to a number. */
Test(tile_jl, strided_ranges_integer_broadcasts_dropdims_and_colon_reductions) {
  const char *src = PRE
    "function k(a::ct.TileArray{T,2}, c::ct.TileArray{T,1}, s::ct.TileArray{T,1}, TILE::Int) where {T}\n"
    "    n = 0\n"
    "    for i in 1:3:10\n"
    "        n = n + i\n"
    "    end\n"
    "    q = fld.(-7, 2) + mod.(-7, 2) * 10\n"
    "    x = ct.load(a; index=(1, 1), shape=(2, TILE))\n"
    "    r = dropdims(sum(x; dims=1); dims=1)\n"
    "    ct.store(c; index=1, tile=r .+ (n + q))\n"
    "    t = sum(x; dims=:) / 2\n"
    "    ct.store(s; index=1, tile=ct.broadcast_to(ct.Tile(t), (1,)))\n"
    "    return\n"
    "end\n";
  float a[8] = {1, 2, 3, 4, 10, 20, 30, 40}, c[4] = {0}, s[1] = {0};
  tt_tile_arg args[] = {f32("a", a, 2, (int64_t[]){2, 4}), f32("c", c, 1, (int64_t[]){4}),
                        f32("s", s, 1, (int64_t[]){1}), cint("TILE", 4)};
  char *err = run(src, "k", 1, 1, args, 4);
  cr_assert_null(err, "%s", err);
  /* 1:3:10 is 1, 4, 7, 10 (n = 22); fld(-7, 2) = -4, mod(-7, 2) = 1 (q = 6) */
  for (int j = 0; j < 4; j++) cr_expect_float_eq(c[j], a[j] + a[4 + j] + 28.0f, 1e-6, "c[%d]", j);
  cr_expect_float_eq(s[0], 55.0f, 1e-6, "sum(x; dims=:) is the number 110");
}

Test(tile_jl, dropdims_of_a_dim_that_is_not_1_is_an_error) {
  const char *src = PRE
    "function k(a::ct.TileArray{T,1}, TILE::Int) where {T}\n"
    "    x = ct.load(a; index=1, shape=(TILE,))\n"
    "    y = dropdims(x; dims=1)\n"
    "    return\n"
    "end\n";
  float a[4] = {0};
  tt_tile_arg args[] = {f32("a", a, 1, (int64_t[]){4}), cint("TILE", 4)};
  char *err = run(src, "k", 1, 1, args, 2);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "dropdims") != NULL, "%s", err);
  free(err);
}

/* cat(a, b, ...; dims=d) joins along the 1-based dim d (what ct.cat((a, b), axis)
 * becomes); tiles that differ off d are a compile error at the call. */
Test(tile_jl, cat_joins_along_a_one_based_dim) {
  const char *src = PRE
    "function k(a::ct.TileArray{T,2}, y::ct.TileArray{T,2}, z::ct.TileArray{T,2}) where {T}\n"
    "    t = ct.load(a; index=(1, 1), shape=(2, 2))\n"
    "    ct.store(y; index=(1, 1), tile=cat(t, t .* 10; dims=1))\n"
    "    ct.store(z; index=(1, 1), tile=cat(t, t, t; dims=2))\n"
    "    return\n"
    "end\n";
  /* logical layout: the buffers are row-major, a[1,1]=1 a[1,2]=2 a[2,1]=3 a[2,2]=4 */
  float a[4] = {1, 2, 3, 4}, y[8] = {0}, z[12] = {0};
  tt_tile_arg args[] = {f32("a", a, 2, (int64_t[]){2, 2}), f32("y", y, 2, (int64_t[]){4, 2}),
                        f32("z", z, 2, (int64_t[]){2, 6})};
  char *err = run(src, "k", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  float wy[8] = {1, 2, 3, 4, 10, 20, 30, 40}; /* rows [1 2] [3 4] [10 20] [30 40] */
  for (int i = 0; i < 8; i++) cr_expect_float_eq(y[i], wy[i], 1e-6, "y[%d] = %g", i, y[i]);
  for (int i = 0; i < 12; i++) /* rows [1 2 1 2 1 2] [3 4 3 4 3 4] */
    cr_expect_float_eq(z[i], a[(i / 6) * 2 + i % 2], 1e-6, "z[%d] = %g", i, z[i]);
  const char *bad = PRE
    "function k(a::ct.TileArray{T,2}, y::ct.TileArray{T,2}, z::ct.TileArray{T,2}) where {T}\n"
    "    t = ct.load(a; index=(1, 1), shape=(2, 2))\n"
    "    u = ct.load(a; index=(1, 1), shape=(2, 1))\n"
    "    ct.store(y; index=(1, 1), tile=cat(t, u; dims=1))\n"
    "    return\n"
    "end\n";
  err = run(bad, "k", 1, 1, args, 3);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "k.jl:6:") && strstr(err, "cat shapes (2, 2) and (2, 1) differ"), "%s", err);
  free(err);
}

/* ct.extract(t, index, shape): the sub-tile at 1-based tile index (slice indices, not
 * element offsets); an index of 0 is a compile error at the call. */
Test(tile_jl, extract_takes_one_based_tile_indices) {
  const char *src = PRE
    "function k(a::ct.TileArray{T,2}, y::ct.TileArray{T,2}) where {T}\n"
    "    t = ct.load(a; index=(1, 1), shape=(2, 4))\n"
    "    ct.store(y; index=(1, 1), tile=ct.extract(t, (2, 2), (1, 2)))\n"
    "    return\n"
    "end\n";
  /* logical layout, row-major: rows [1 2 3 4] [5 6 7 8]; tile (2, 2) of (1, 2) is [7 8] */
  float a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[2] = {0};
  tt_tile_arg args[] = {f32("a", a, 2, (int64_t[]){2, 4}), f32("y", y, 2, (int64_t[]){1, 2})};
  char *err = run(src, "k", 1, 1, args, 2);
  cr_assert_null(err, "%s", err);
  cr_expect_float_eq(y[0], 7, 1e-6, "y[0] = %g", y[0]);
  cr_expect_float_eq(y[1], 8, 1e-6, "y[1] = %g", y[1]);
  const char *bad = PRE
    "function k(a::ct.TileArray{T,2}, y::ct.TileArray{T,2}) where {T}\n"
    "    t = ct.load(a; index=(1, 1), shape=(2, 4))\n"
    "    ct.store(y; index=(1, 1), tile=ct.extract(t, (0, 1), (1, 2)))\n"
    "    return\n"
    "end\n";
  err = run(bad, "k", 1, 1, args, 2);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "counts tiles from 1") != NULL, "%s", err);
  free(err);
}

/* x * y of 3-d tiles is cuTile.jl's batched product: dims 1-2 the matrix, dim 3 the
 * batch, a batch of 1 broadcasting (what a leading Python batch becomes after
 * permutedims under the logical layout). */
Test(tile_jl, star_of_3d_tiles_is_a_batched_product) {
  const char *src = PRE
    "function k(a::ct.TileArray{T,3}, w::ct.TileArray{T,3}, y::ct.TileArray{T,3}) where {T}\n"
    "    x = ct.load(a; index=(1, 1, 1), shape=(2, 1, 2))\n"
    "    v = ct.load(w; index=(1, 1, 1), shape=(1, 2, 1))\n"
    "    ct.store(y; index=(1, 1, 1), tile=permutedims(permutedims(x, (2, 3, 1)) * permutedims(v, (2, 3, 1)), (3, 1, 2)))\n"
    "    return\n"
    "end\n";
  /* batch 0: [1 2] @ [10 20]^T... as (1, 2) @ (2, 1): 1*10 + 2*20 = 50; batch 1: 3*10 + 4*20 = 110 */
  float a[4] = {1, 2, 3, 4}, w[2] = {10, 20}, y[2] = {0};
  tt_tile_arg args[] = {f32("a", a, 3, (int64_t[]){2, 1, 2}), f32("w", w, 3, (int64_t[]){1, 2, 1}),
                        f32("y", y, 3, (int64_t[]){2, 1, 1})};
  char *err = run(src, "k", 1, 1, args, 3);
  cr_assert_null(err, "%s", err);
  cr_expect_float_eq(y[0], 50, 1e-5, "y[0] = %g", y[0]);
  cr_expect_float_eq(y[1], 110, 1e-5, "y[1] = %g", y[1]);
}
