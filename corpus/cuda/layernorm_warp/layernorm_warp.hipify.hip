// layernorm_warp.hipify.hip - renames-only HIP translation of layernorm_warp.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see layernorm_warp.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - odd rows normalise with their neighbour row's
// mean and variance (lane-0 broadcast with width 64).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_down_sync / __shfl_sync undeclared).
// ROCm >= 6.2: kFullMask (uint32_t) rejected by static_assert.

#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

#define WARP 32

constexpr uint32_t kFullMask = uint32_t(-1);

__device__ __forceinline__ float warp_sum_to_all(float v) {
#pragma unroll
    for (int o = WARP / 2; o > 0; o /= 2) v += __shfl_down_sync(kFullMask, v, o);
    return __shfl_sync(kFullMask, v, 0);
}

// grid: ceil(rows / (blockDim.x / WARP)); block: a multiple of WARP threads.
__global__ void layernorm_fwd_f16(const __half* __restrict__ x, const float* __restrict__ gamma,
                                  const float* __restrict__ beta, __half* __restrict__ y,
                                  int rows, int cols, float eps) {
    const int lane = threadIdx.x % WARP;
    const int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP;
    if (row >= rows) return;  // uniform per warp

    const __half* xr = x + size_t(row) * cols;
    __half* yr = y + size_t(row) * cols;

    float sum = 0.0f;
    for (int c = lane; c < cols; c += WARP) sum += __half2float(xr[c]);
    const float mean = warp_sum_to_all(sum) / cols;

    float sq = 0.0f;
    for (int c = lane; c < cols; c += WARP) {
        const float d = __half2float(xr[c]) - mean;
        sq = fmaf(d, d, sq);
    }
    const float rstd = rsqrtf(warp_sum_to_all(sq) / cols + eps);

    for (int c = lane; c < cols; c += WARP) {
        const float v = (__half2float(xr[c]) - mean) * rstd;
        yr[c] = __float2half(fmaf(v, gamma[c], beta[c]));
    }
}
