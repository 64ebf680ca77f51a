// cp_async_matmul.cu - 32x32-tiled SGEMM with a two-stage shared-memory
// pipeline: the next A/B tiles are fetched with the Ampere+ asynchronous copy
// (cp.async.ca.shared.global, 4 bytes per thread per element, issued from inline
// PTX) while the current tiles are multiplied; cp.async.commit_group /
// cp.async.wait_group order the stages. Requires sm_80 or newer. M, N, K must be
// multiples of 32 (no tail handling in the async path).
//
// Pitfall: inline PTX `cp.async.ca.shared.global`, `cp.async.commit_group`,
// `cp.async.wait_group`, `__cvta_generic_to_shared`;
// on wave64 with renames only: unsupported (does not compile for AMD).
// Why: cp.async is an NVIDIA (sm_80+) instruction reached through PTX; HIP has no
// equivalent builtin and the asm blocks are meaningless to the AMDGPU back end.
// The usual port replaces the pipeline with plain loads into registers and a
// double-buffered __syncthreads() schedule (or buffer_load ... lds on CDNA, by hand).
// No check spec: this file exists for "unsupported" reporting.

#include <hip/hip_runtime.h>

#define BT 32  // tile edge; block is BT x 8 threads, each computing 4 outputs

__device__ __forceinline__ void cp_async_f32(float* smem_dst, const float* gmem_src) {
    const unsigned int dst = static_cast<unsigned int>(/* tiletrans-ignore: hip-unsupported-async-copy -- left unported: asynchronous global-to-shared copies (`__pipeline_*`, `memcpy_async`, `__cvta_generic_to_shared`): no HIP equivalent */ __cvta_generic_to_shared(smem_dst));
    /* tiletrans-ignore: hip-unsupported-inline-asm -- left unported: inline PTX assembly (no HIP equivalent; needs a manual port) */ asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(gmem_src));
}

__device__ __forceinline__ void cp_async_commit() { /* tiletrans-ignore: hip-unsupported-inline-asm -- left unported: inline PTX assembly (no HIP equivalent; needs a manual port) */ asm volatile("cp.async.commit_group;\n" ::); }

template <int N_PENDING>
__device__ __forceinline__ void cp_async_wait() {
    /* tiletrans-ignore: hip-unsupported-inline-asm -- left unported: inline PTX assembly (no HIP equivalent; needs a manual port) */ asm volatile("cp.async.wait_group %0;\n" ::"n"(N_PENDING));
}

__device__ __forceinline__ void issue_tile_loads(float (*As)[BT], float (*Bs)[BT],
                                                 const float* A, const float* B, int N, int K,
                                                 int row0, int col0, int k0) {
    for (int r = threadIdx.y; r < BT; r += blockDim.y) {
        cp_async_f32(&As[r][threadIdx.x], A + size_t(row0 + r) * K + k0 + threadIdx.x);
        cp_async_f32(&Bs[r][threadIdx.x], B + size_t(k0 + r) * N + col0 + threadIdx.x);
    }
    cp_async_commit();
}

// grid: (N / BT, M / BT); block: (BT, 8).
__global__ void sgemm_cp_async(const float* __restrict__ A, const float* __restrict__ B,
                               float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[2][BT][BT];
    __shared__ float Bs[2][BT][BT];

    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[BT / 8] = {0.0f, 0.0f, 0.0f, 0.0f};

    issue_tile_loads(As[0], Bs[0], A, B, N, K, row0, col0, 0);
    const int tiles = K / BT;
    for (int t = 0; t < tiles; ++t) {
        const int cur = t & 1;
        if (t + 1 < tiles) {
            issue_tile_loads(As[cur ^ 1], Bs[cur ^ 1], A, B, N, K, row0, col0, (t + 1) * BT);
            cp_async_wait<1>();  // all but the newest group have landed
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BT; ++k) {
            const float b = Bs[cur][k][threadIdx.x];
#pragma unroll
            for (int i = 0; i < BT / 8; ++i) acc[i] = fmaf(As[cur][threadIdx.y + 8 * i][k], b, acc[i]);
        }
        __syncthreads();  // the buffer is refilled two iterations later
    }
#pragma unroll
    for (int i = 0; i < BT / 8; ++i) {
        C[size_t(row0 + threadIdx.y + 8 * i) * N + col0 + threadIdx.x] = acc[i];
    }
}
