#!/bin/bash
# Constructs the executor cannot run must fail the BUILD with a message that
# names them.  Args: INCLUDE_DIR WORK_DIR
set -uo pipefail
inc=$1 work=$2
mkdir -p "$work"
fails=0
expect_fail() { # name dialect-header warp message-regex code
    local name=$1 hdr=$2 warp=$3 re=$4 code=$5
    printf '#define TT_SIM_WARP %s\n#include "%s"\n%s\n' "$warp" "$hdr" "$code" > "$work/$name.cpp"
    if out=$(c++ -std=c++17 -fsyntax-only -I"$inc" "$work/$name.cpp" 2>&1); then
        echo "FAIL $name: compiled"; fails=$((fails + 1))
    elif ! grep -qE "$re" <<<"$out"; then
        echo "FAIL $name: no message matching /$re/"; echo "$out" | head -5; fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}
expect_ok() {
    local name=$1 hdr=$2 warp=$3 code=$4
    printf '#define TT_SIM_WARP %s\n#include "%s"\n%s\n' "$warp" "$hdr" "$code" > "$work/$name.cpp"
    if out=$(c++ -std=c++17 -fsyntax-only -I"$inc" "$work/$name.cpp" 2>&1); then echo "ok   $name"
    else echo "FAIL $name: did not compile"; echo "$out" | head -5; fails=$((fails + 1)); fi
}
expect_fail hip_mask32 tt_sim_hip.h 64 "The mask must be a 64-bit integer" \
  '__global__ void k(float *o) { o[0] = __shfl_xor_sync(0xffffffff, o[0], 1); }'
expect_fail hip_ballot_mask32 tt_sim_hip.h 32 "The mask must be a 64-bit integer" \
  '__global__ void k(unsigned long long *o) { o[0] = __ballot_sync(0xffffffffu, 1); }'
expect_ok hip_mask64 tt_sim_hip.h 64 \
  '__global__ void k(float *o) { o[0] = __shfl_xor_sync(0xffffffffffffffffull, o[0], 1); }'
# min(int, unsigned): CUDA has it; HIP 5.2 picks its double overload, so an index built
# from it does not build there (llm.c softmax_forward) and must not in the HIP shim.
expect_fail hip_min_int_unsigned tt_sim_hip.h 64 "subscript|invalid types" \
  '__global__ void k(const float *x, float *y, int c) { y[0] = x[min(c - 1, 2u)]; }'
expect_ok cuda_min_int_unsigned tt_sim_cuda.h 32 \
  '__global__ void k(const float *x, float *y, int c) { y[0] = x[min(c - 1, 2u)]; }'
expect_ok hip_min_same_type tt_sim_hip.h 64 \
  '__global__ void k(const float *x, float *y, int c, unsigned u) { y[0] = x[min(c, 2) + min(u, 3u) + max(u, 1)]; }'
# what real files use beside the kernel: <memory> (libstdc++ 12 writes __noinline__ as an
# attribute) and the global classification functions CUDA and HIP both declare
expect_ok memory_and_noinline tt_sim_cuda.h 32 \
  '#include <memory>
__device__ __noinline__ float g(float v) { return v; }'
expect_ok global_isfinite tt_sim_hip.h 64 \
  '__global__ void k(float *x) { if (!isfinite(x[0]) || isnan(x[1]) || isinf(x[2]) || signbit(x[3])) x[0] = 0; }'
expect_fail inline_ptx tt_sim_cuda.h 32 "inline assembly" \
  '__global__ void k(unsigned *o) { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); o[0] = l; }'
# <mma.h> itself builds (bitsandbytes' kernels.cu includes it for other kernels); a
# kernel that uses a fragment or a *_sync operation does not
expect_fail wmma tt_sim_cuda.h 32 "static assertion failed: tt_sim: nvcuda::wmma" \
  '#include <mma.h>
using namespace nvcuda;
__global__ void k(const half *a, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::load_matrix_sync(fa, a, 16);
}'
expect_fail wmma_op_only tt_sim_cuda.h 32 "static assertion failed: tt_sim: nvcuda::wmma" \
  '#include <mma.h>
template <class F> __device__ void st(F &f, float *c) { nvcuda::wmma::store_matrix_sync(c, f, 16, nvcuda::wmma::mem_row_major); }
__global__ void k(float *c) { int f = 0; st(f, c); }'
expect_ok wmma_include_unused tt_sim_cuda.h 32 \
  '#include <mma.h>
using namespace nvcuda;
template <int N> __global__ void uses_wmma(float *c) { wmma::fragment<wmma::accumulator, 16, 16, 16, float> f; wmma::store_matrix_sync(c, f, N, wmma::mem_row_major); }
__global__ void k(float *o) { o[threadIdx.x] = 1.0f; }'
expect_fail cp_async tt_sim_cuda.h 32 "cp.async" '#include <cuda_pipeline.h>'
expect_fail unprepared_shared tt_sim_cuda.h 32 "was not rewritten" \
  '__global__ void k(float *o) { __shared__ float s[32]; s[0] = 1; o[0] = s[0]; }'
expect_fail grid_sync tt_sim_cuda.h 32 "grid_group::sync" \
  '#include <cooperative_groups.h>
__global__ void k(float *o) { cooperative_groups::this_grid().sync(); }'
expect_fail cuda_warp64 tt_sim_cuda.h 64 "CUDA warps have 32 lanes" ''
expect_ok hip_runtime_header tt_sim_hip.h 64 \
  '#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
__global__ void k(float *o, __half h) { o[threadIdx.x] = __half2float(h) + warpSize; }'
exit $fails
