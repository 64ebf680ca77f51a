// layernorm_warp.cu - LayerNorm forward over the last dimension for fp16
// activations with fp32 affine parameters and fp32 statistics:
// y = (x - mean) * rsqrt(var + eps) * gamma + beta. One warp per row, several rows
// per block (blockDim.x / WARP), two-pass mean/variance for accuracy.
//
// Pitfall: `#define WARP 32` for lane (`% WARP`), row-in-block (`/ WARP`) and rows per
// block (`blockDim.x / WARP`), mask `constexpr uint32_t kFullMask = uint32_t(-1)`,
// __shfl_down_sync tree from WARP / 2 (`o /= 2`) and the lane-0 broadcast
// `__shfl_sync(kFullMask, v, 0)`; on wave64 with renames only: wrong numbers.
// Why: rows 2k and 2k+1 of a block share a 64-lane wavefront. The down-tree leaves
// each row's sum in its own lane 0 (lanes 0 and 32), but the broadcast reads lane 0
// of the wavefront, so the row in lanes 32..63 normalises with the mean, and then
// the variance, of its neighbour row. Rows held by even warps are right.
// Masks: uint32_t(-1) is the 32-bit full mask spelled differently; it is rejected by
// ROCm >= 6.2 like 0xffffffff, and hipcc 5.2 has no __shfl_*_sync.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>

#define WARP 32

[[maybe_unused]] constexpr uint32_t kFullMask = uint32_t(-1);

__device__ __forceinline__ float warp_sum_to_all(float v) {
#pragma unroll
    for (int o = WARP / 2; o > 0; o /= 2) v += __shfl_down(v, o, 32);
    return __shfl(v, 0, 32);
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
