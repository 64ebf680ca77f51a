/* test_port_jl.c — the cuTile Python -> cuTile.jl translator (src/port_jl) on small
 * kernels: indexing base, both layouts' remapping of shapes, indices, axes, orders and
 * matmuls, broadcasting alignment, unsupported constructs kept as comments. */
#include <criterion/criterion.h>
#include <string.h>

#include "port_jl/port_jl.h"
#include "support.h"
#include "util/util.h"

static tt_pj_map *map(void) {
  char *err = NULL;
  tt_pj_map *m = tt_pj_map_load(TT_SOURCE_DIR "/rules/" TT_PJ_MAP_RELPATH, &err);
  cr_assert_not_null(m, "%s", err ? err : "");
  return m;
}

/* Translates `py` and returns the Julia (caller frees); *problems gets the error and
 * warning findings. */
static char *port(const char *py, tt_pj_layout layout, size_t *problems) {
  tt_pj_map *m = map();
  tt_source *s = tts_source("k.py", py, TT_LANG_PYTHON);
  tt_pj_result r;
  char *err = NULL;
  cr_assert_eq(tt_pj_translate(m, s, layout, &r, &err), 0, "%s", err ? err : "");
  if (problems) *problems = tt_pj_result_problems(&r);
  char *text = tt_xstrdup(r.text);
  tt_pj_result_free(&r);
  tt_source_free(s);
  tt_pj_map_free(m);
  return text;
}

#define HAS(text, needle) cr_expect(strstr(text, needle) != NULL, "`%s` not in:\n%s", needle, text)
#define LACKS(text, needle) cr_expect(strstr(text, needle) == NULL, "`%s` in:\n%s", needle, text)

static const char *k_matmul =
    "import cuda.tile as ct\n"
    "@ct.kernel\n"
    "def mm(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):\n"
    "    acc = ct.full((TM, TN), 0, dtype=ct.float32)\n"
    "    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):\n"
    "        a = ct.load(A, index=(ct.bid(0), k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)\n"
    "        b = ct.load(B, index=(k, ct.bid(1)), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)\n"
    "        acc = ct.mma(a, b, acc)\n"
    "    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=acc.astype(C.dtype))\n";

Test(port_jl, logical_keeps_shapes_and_shifts_ids) {
  size_t problems;
  char *jl = port(k_matmul, TT_PJ_LOGICAL, &problems);
  cr_expect_eq(problems, 0);
  cr_expect(!strncmp(jl, "# layout: logical\n", 18), "%s", jl);
  HAS(jl, "import cuTile as ct\n");
  HAS(jl, "function mm(A::ct.TileArray, B::ct.TileArray, C::ct.TileArray, TM::Int, TN::Int, TK::Int)\n");
  HAS(jl, "acc = zeros(Float32, TM, TN)\n");
  HAS(jl, "for k in Int32(1):ct.num_tiles(A, 2, (TM, TK))\n");
  HAS(jl, "ct.load(A; index=(ct.bid(1), k), shape=(TM, TK), padding_mode=ct.PaddingMode.Zero)");
  HAS(jl, "acc = muladd(a, b, acc)\n");
  HAS(jl, "tile=convert(ct.Tile{eltype(C)}, acc))\n    return\nend\n");
  LACKS(jl, "ct.bid(0)");
  free(jl);
}

Test(port_jl, flipped_reverses_shapes_indices_axes_and_matmul) {
  char *jl = port(k_matmul, TT_PJ_FLIPPED, NULL);
  cr_expect(!strncmp(jl, "# layout: flipped\n", 18), "%s", jl);
  HAS(jl, "acc = zeros(Float32, TN, TM)\n");
  HAS(jl, "ct.num_tiles(A, 1, (TK, TM))");
  HAS(jl, "ct.load(A; index=(k, ct.bid(1)), shape=(TK, TM)");
  HAS(jl, "ct.load(B; index=(ct.bid(2), k), shape=(TN, TK)");
  HAS(jl, "acc = muladd(b, a, acc)\n");
  HAS(jl, "ct.store(C; index=(ct.bid(2), ct.bid(1))");
  free(jl);
}

static const char *k_reduce =
    "import cuda.tile as ct\n"
    "@ct.kernel\n"
    "def sm(x, y, b, TN: ct.Constant[int]):\n"
    "    row = ct.bid(0)\n"
    "    t = ct.load(x, index=(row, 0), shape=(2, TN), padding_mode=ct.PaddingMode.NEG_INF)\n"
    "    m = ct.max(t, axis=1)  # drops the axis\n"
    "    v = ct.load(b, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)\n"
    "    t2 = ct.load(x, index=(row, 0), shape=(2, TN), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)\n"
    "    ct.store(y, index=(row, 0), tile=ct.exp(t) + v)\n";

Test(port_jl, reductions_orders_and_broadcasts_per_layout) {
  char *lg = port(k_reduce, TT_PJ_LOGICAL, NULL);
  HAS(lg, "m = dropdims(maximum(t; dims=2); dims=2)  # drops the axis\n");
  HAS(lg, "index=(row, 1)");              /* literal 0 -> 1, the id as is */
  HAS(lg, "order=(2, 1)");                 /* 0-based -> 1-based */
  HAS(lg, "exp.(t) .+ reshape(v, (1, TN))"); /* (N,) aligned right as Python does */
  free(lg);
  char *fl = port(k_reduce, TT_PJ_FLIPPED, NULL);
  HAS(fl, "m = dropdims(maximum(t; dims=1); dims=1)");
  HAS(fl, "index=(1, row), shape=(TN, 2)");
  HAS(fl, "order=(2, 1)"); /* jl[N-1-i] = N - py[i] */
  HAS(fl, "exp.(t) .+ v"); /* reversed dims align left already */
  free(fl);
}

Test(port_jl, ids_used_as_numbers_and_loops_keep_python_values) {
  char *jl = port("import cuda.tile as ct\n"
                  "@ct.kernel\n"
                  "def k(x, y, T: ct.Constant[int]):\n"
                  "    i = ct.bid(0)\n"
                  "    off = i * T + ct.arange(T, dtype=ct.int32)\n"
                  "    for c in range(1, 4):\n"
                  "        t = ct.load(x, index=(c,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)\n"
                  "    ct.store(y, index=(i,), tile=ct.gather(x, off))\n",
                  TT_PJ_LOGICAL, NULL);
  HAS(jl, "off = ((i - 1) * T) .+ ct.arange((T,); dtype=Int32, start=0)\n");
  HAS(jl, "for c in 1:(4 - 1)\n");
  HAS(jl, "index=(c + 1,)");
  HAS(jl, "ct.gather(x, off .+ 1)");
  free(jl);
}

Test(port_jl, unsupported_is_a_finding_and_a_comment) {
  size_t problems;
  char *jl = port("import cuda.tile as ct\n"
                  "import torch\n"
                  "@ct.kernel\n"
                  "def k(x, y):\n"
                  "    # keep me\n"
                  "    t = ct.pack_to_bytes(x)\n"
                  "    ct.store(y, index=(0,), tile=t)\n",
                  TT_PJ_LOGICAL, &problems);
  cr_expect_eq(problems, 1);
  HAS(jl, "    # keep me\n");
  HAS(jl, "    # tiletrans: unsupported: `ct.pack_to_bytes` has no cuTile.jl mapping\n    # t = ct.pack_to_bytes(x)\n");
  HAS(jl, "# tiletrans: host import, no Julia counterpart: import torch\n");
  HAS(jl, "ct.store(y; index=(1,), tile=t)\n");
  free(jl);
}

Test(port_jl, launch_wraps_constants_and_drops_the_stream) {
  char *jl = port("import cuda.tile as ct\n"
                  "@ct.kernel\n"
                  "def add(a, b, T: ct.Constant[int]):\n"
                  "    ct.store(b, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))\n"
                  "def run(stream, a, b):\n"
                  "    ct.launch(stream, (ct.cdiv(a.shape[0], 64), 1, 1), add, (a, b, 64))\n",
                  TT_PJ_LOGICAL, NULL);
  HAS(jl, "ct.launch(add, (cld(size(a, 1), 64), 1, 1), a, b, ct.Constant(64))\n");
  free(jl);
}

Test(port_jl, a_syntax_error_is_refused) {
  tt_pj_map *m = map();
  tt_source *s = tts_source("bad.py", "def k(:\n", TT_LANG_PYTHON);
  tt_pj_result r;
  char *err = NULL;
  cr_expect_eq(tt_pj_translate(m, s, TT_PJ_LOGICAL, &r, &err), -1);
  cr_expect(err && strstr(err, "bad.py:1:"), "%s", err ? err : "(null)");
  free(err);
  tt_source_free(s);
  tt_pj_map_free(m);
}

Test(port_jl, a_map_without_a_section_names_it) {
  char *dir = tts_tmpdir();
  char *path = tt_xasprintf("%s/m.yaml", dir);
  tts_write(path, "module: {alias: ct}\nfunctions: {}\n");
  char *err = NULL;
  cr_expect_null(tt_pj_map_load(path, &err));
  cr_expect(err && strstr(err, "key `methods`"), "%s", err ? err : "(null)");
  free(err);
  tts_rmrf(dir);
  free(path);
  free(dir);
}

/* check fails a kernel only on what the kernel reaches (tt_pj_first_error_for): its
 * helpers and the module-level names it reads, not host code beside it. */
static const tt_pj_finding *first_error_for(const char *py, const char *kernel, tt_pj_result *r, tt_source **s) {
  tt_pj_map *m = map();
  *s = tts_source("k.py", py, TT_LANG_PYTHON);
  char *err = NULL;
  cr_assert_eq(tt_pj_translate(m, *s, TT_PJ_LOGICAL, r, &err), 0, "%s", err ? err : "");
  tt_pj_map_free(m);
  return tt_pj_first_error_for(*s, r, kernel);
}

static const char *k_host =
    "import cuda.tile as ct\n"
    "cache: dict = {}\n"                                    /* 2: unmapped, unused */
    "BAD = {'a': 1}\n"                                      /* 3: unmapped, read by helper */
    "def helper(x):\n"
    "    return x + BAD\n"
    "@ct.kernel\n"
    "def k(a, b, T: ct.Constant[int]):\n"
    "    ct.store(b, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))\n"
    "@ct.kernel\n"
    "def k2(a, b, T: ct.Constant[int]):\n"
    "    ct.store(b, index=(ct.bid(0),), tile=helper(ct.load(a, index=(ct.bid(0),), shape=(T,))))\n"
    "def host(a):\n"
    "    raise ValueError('x')\n"                            /* 13: unmapped, host only */
    "if __name__ == '__main__':\n"
    "    host(1)\n";

Test(port_jl, host_code_beside_a_kernel_does_not_fail_it) {
  tt_pj_result r;
  tt_source *s;
  cr_expect_null(first_error_for(k_host, "k", &r, &s), "k reaches no unmapped construct");
  tt_pj_result_free(&r);
  tt_source_free(s);
  const tt_pj_finding *f = first_error_for(k_host, "k2", &r, &s);
  cr_assert_not_null(f, "k2 reads BAD through helper");
  cr_expect_eq(f->line, 3);
  tt_pj_result_free(&r);
  tt_source_free(s);
  f = first_error_for(k_host, "nosuch", &r, &s);
  cr_assert_not_null(f, "an unknown kernel: every error counts");
  cr_expect_eq(f->line, 2);
  tt_pj_result_free(&r);
  tt_source_free(s);
}

/* TileGym's _moe_align_block_size_stage2_kernel names a local `cumsum`: in Julia that
 * assignment makes `cumsum` local to the whole function, so the translated call
 * `cumsum(x; dims=1)` would read the unassigned local. The translator renames a local
 * or parameter that collides with a Julia function its body's translation calls, every
 * use included, and leaves the names of functions that call no such function alone. */
Test(port_jl, a_local_named_like_an_emitted_julia_function_is_renamed) {
  const char *py = "import cuda.tile as ct\n"
                   "@ct.kernel\n"
                   "def scan(cnts, out, sum, N: ct.Constant[int]):\n"
                   "    v = ct.load(cnts, index=(ct.bid(0),), shape=(N,))\n"
                   "    cumsum = ct.cumsum(v, axis=0)\n"
                   "    cumsum_ = ct.sum(cumsum, axis=0)\n"
                   "    ct.store(out, index=(ct.bid(0),), tile=cumsum + sum)\n"
                   "@ct.kernel\n"
                   "def keep(cumsum, out, N: ct.Constant[int]):\n"
                   "    v = ct.load(cumsum, index=(ct.bid(0),), shape=(N,))\n"
                   "    ct.store(out, index=(ct.bid(0),), tile=v)\n";
  size_t problems;
  char *jl = port(py, TT_PJ_LOGICAL, &problems);
  cr_expect_eq(problems, 0, "%s", jl);
  HAS(jl, "function scan(cnts::ct.TileArray, out::ct.TileArray, sum_, N::Int)\n");
  HAS(jl, "    cumsum__ = cumsum(v; dims=1)\n");
  HAS(jl, "    cumsum_ = dropdims(sum(cumsum__; dims=1); dims=1)\n");
  HAS(jl, "tile=cumsum__ .+ sum_)");
  LACKS(jl, "cumsum = ");
  HAS(jl, "function keep(cumsum::ct.TileArray, out::ct.TileArray, N::Int)\n");
  HAS(jl, "    v = ct.load(cumsum; index=(ct.bid(1),), shape=(N,))\n");
  free(jl);
}

/* Python's builtin max/min are elementwise on cuTile tiles (flash attention's running
 * max); Julia's bare max of two tiles is not, so a tile argument makes it `max.(...)`.
 * Numbers keep the bare call. A module-level number (INV_LOG_2) stays a number inside
 * the kernel, so `tile + INV_LOG_2` is still known to be a tile. (Before: the builtin
 * was kept by name, `max(m_i, maximum(qk; dims=2) .* qk_scale)`, which lint's
 * jl-bare-max reports.) */
static const char *k_online_max =
    "import math\n"
    "import cuda.tile as ct\n"
    "INV_LOG_2 = 1.0 / math.log(2)\n"
    "@ct.kernel\n"
    "def online(Q, Out, scale: float, n: int, TM: ct.Constant[int], TN: ct.Constant[int]):\n"
    "    m_i = ct.full((TM, 1), -math.inf, dtype=ct.float32) + INV_LOG_2\n"
    "    qk = ct.load(Q, index=(ct.bid(0), 0), shape=(TM, TN))\n"
    "    m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True) * scale)\n"
    "    lo = min(n - 1, TN)\n"
    "    s = scale * INV_LOG_2\n"
    "    ct.store(Out, index=(ct.bid(0), 0), tile=m_ij * s + lo)\n";

Test(port_jl, builtin_max_on_tiles_broadcasts_and_stays_bare_on_numbers) {
  size_t problems;
  char *jl = port(k_online_max, TT_PJ_LOGICAL, &problems);
  cr_expect_eq(problems, 0, "%s", jl);
  HAS(jl, "    m_ij = max.(m_i, maximum(qk; dims=2) .* scale)\n");
  HAS(jl, "    lo = min(n - 1, TN)\n");
  HAS(jl, "    s = scale * INV_LOG_2\n");
  LACKS(jl, "= max(m_i");
  free(jl);
  jl = port(k_online_max, TT_PJ_FLIPPED, &problems);
  cr_expect_eq(problems, 0, "%s", jl);
  HAS(jl, "    m_ij = max.(m_i, maximum(qk; dims=1) .* scale)\n");
  HAS(jl, "    lo = min(n - 1, TN)\n");
  free(jl);
}

/* Atomics take element indices like gather (1-based; a scalar index stays scalar);
 * their values follow as Python's values; memory orders and scopes are the map's enums
 * (Python's MemoryScope is cuTile.jl's MemScope). An array's rank for `X.shape[i]`
 * comes from a num_tiles shape when no index tuple shows it. (Before: `ct.atomic_cas`
 * and `ct.MemoryScope.DEVICE` had no mapping, and X.shape[1] under flipped was
 * unsupported.) */
Test(port_jl, atomics_enums_and_a_rank_from_num_tiles) {
  const char *py = "import cuda.tile as ct\n"
                   "@ct.kernel\n"
                   "def k(Locks, X, Out, G: ct.Constant[int], TN: ct.Constant[int]):\n"
                   "    n = ct.num_tiles(X, axis=1, shape=(1, TN))\n"
                   "    N = X.shape[1]\n"
                   "    g = ct.bid(0) % G\n"
                   "    while ct.atomic_cas(Locks, g, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:\n"
                   "        pass\n"
                   "    ct.atomic_add(Out, ct.bid(0), N, memory_scope=ct.MemoryScope.DEVICE)\n"
                   "    ct.atomic_xchg(Locks, g, 0, memory_order=ct.MemoryOrder.RELEASE)\n";
  size_t problems;
  char *jl = port(py, TT_PJ_FLIPPED, &problems);
  cr_expect_eq(problems, 0, "%s", jl);
  HAS(jl, "    N = size(X, 1)\n");
  HAS(jl, "    while ct.atomic_cas(Locks, g + 1, 0, 1; memory_order=ct.MemoryOrder.Acquire) == 1\n");
  HAS(jl, "    ct.atomic_add(Out, ct.bid(1), N; memory_scope=ct.MemScope.Device)\n");
  HAS(jl, "    ct.atomic_xchg(Locks, g + 1, 0; memory_order=ct.MemoryOrder.Release)\n");
  free(jl);
}

/* ct.mma_scaled is cuTile.jl's ct.muladd_scaled; under flipped each operand moves with
 * its scale, as mma's operands swap. (Before: no mapping.) */
Test(port_jl, mma_scaled_swaps_operands_with_their_scales) {
  const char *py = "import cuda.tile as ct\n"
                   "@ct.kernel\n"
                   "def k(A, AS, B, BS, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):\n"
                   "    a = ct.load(A, index=(ct.bid(0), 0), shape=(TM, TK))\n"
                   "    sa = ct.load(AS, index=(ct.bid(0), 0), shape=(TM, 1))\n"
                   "    b = ct.load(B, index=(0, ct.bid(1)), shape=(TK, TN))\n"
                   "    sb = ct.load(BS, index=(0, ct.bid(1)), shape=(1, TN))\n"
                   "    acc = ct.full((TM, TN), 0, dtype=ct.float32)\n"
                   "    acc = ct.mma_scaled(a, sa, b, sb, acc)\n"
                   "    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=acc)\n";
  size_t problems;
  char *jl = port(py, TT_PJ_LOGICAL, &problems);
  cr_expect_eq(problems, 0, "%s", jl);
  HAS(jl, "    acc = ct.muladd_scaled(a, sa, b, sb, acc)\n");
  free(jl);
  jl = port(py, TT_PJ_FLIPPED, &problems);
  cr_expect_eq(problems, 0, "%s", jl);
  HAS(jl, "    acc = ct.muladd_scaled(b, sb, a, sa, acc)\n");
  HAS(jl, "    acc = zeros(Float32, TN, TM)\n");
  free(jl);
}
