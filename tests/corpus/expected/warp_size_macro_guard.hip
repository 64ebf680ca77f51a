// near-miss: warp_size_macro_guard.cu - row-wise cosine similarity of two
// matrices, one warp per row, written against a WARP_SIZE macro and a shuffle
// macro that the project defines per platform.
//
// Looks like: `#define WARP_SIZE 32` (in the #else branch), `__shfl_xor_sync(0xffffffffu,
// ...)` inside a macro, `for (o = WARP_SIZE / 2; ...)`, `threadIdx.x / WARP_SIZE`,
// `threadIdx.x % WARP_SIZE`, rows per block `blockDim.x / WARP_SIZE` on both sides.
// Correct on wave64 because: WARP_SIZE is 64 when compiling for AMD (this file
// targets CDNA there) and 32 for NVIDIA, in the device pass and in the host pass
// that sizes the grid, and every lane id, row id, stride and butterfly start is
// derived from it. The 32-bit mask lives only in the NVIDIA branch; the AMD branch
// uses the mask-less __shfl_xor with the default (full wavefront) width. The
// macro is a guard, not a pitfall.

#include <hip/hip_runtime.h>

#include <cmath>

#if defined(__HIP_PLATFORM_AMD__)
#define WARP_SIZE 64  // CDNA targets (gfx90a, gfx94x)
#define SHFL_XOR(v, m) __shfl_xor((v), (m))
#else
#define WARP_SIZE 32
#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffu, (v), (m))
#endif

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) v += SHFL_XOR(v, o);
    return v;
}

// grid: ceil(rows / (blockDim.x / WARP_SIZE)); block: a multiple of WARP_SIZE.
__global__ void cosine_rows(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ sim, int rows, int cols, float eps) {
    const int lane = threadIdx.x % WARP_SIZE;
    const int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    if (row >= rows) return;  // uniform per warp

    const float* ar = a + size_t(row) * cols;
    const float* br = b + size_t(row) * cols;
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (int c = lane; c < cols; c += WARP_SIZE) {
        dot = fmaf(ar[c], br[c], dot);
        na = fmaf(ar[c], ar[c], na);
        nb = fmaf(br[c], br[c], nb);
    }
    dot = warp_sum(dot);
    na = warp_sum(na);
    nb = warp_sum(nb);
    if (lane == 0) sim[row] = dot / fmaxf(sqrtf(na) * sqrtf(nb), eps);
}

#ifndef TILETRANS_CHECK
// Host-side launch helper: the same WARP_SIZE sizes the grid.
void launch_cosine_rows(const float* a, const float* b, float* sim, int rows, int cols,
                        hipStream_t stream) {
    const int threads = 4 * WARP_SIZE;
    const int rows_per_block = threads / WARP_SIZE;
    const int blocks = (rows + rows_per_block - 1) / rows_per_block;
    cosine_rows<<<blocks, threads, 0, stream>>>(a, b, sim, rows, cols, 1e-8f);
}
#endif
