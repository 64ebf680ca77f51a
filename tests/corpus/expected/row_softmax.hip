// row_softmax.cu - numerically stable softmax over the last dimension, one
// thread block per row: y = exp(x - max(x)) / sum(exp(x - max(x))).
// Two block reductions (max, then sum), each done as a warp-level tree with
// __shfl_down_sync followed by a lane-0 broadcast, per-warp partials in shared
// memory, and a second warp-level pass over the partials.
//
// Pitfall: lane-0 broadcast `__shfl_sync(FULL_MASK, v, 0)` after a __shfl_down_sync
// tree starting at offset 16 (`o /= 2`), FULL_MASK = 0xffffffff, per-warp
// `__shared__ float red[32]` indexed by `tid >> 5` with lane `tid & 31`;
// on wave64 with renames only: wrong numbers.
// Why: on a 64-lane wavefront the down-tree from 16 still leaves a correct
// 32-lane result in lane 0 and in lane 32, but `__shfl_sync(mask, v, 0)` (width
// defaults to warpSize = 64) hands lane 0's value to all 64 lanes. Lane 32 is
// the "lane 0" of logical warp 1, so red[1], red[3], ... receive the maxima/sums of
// warps 0, 2, ...; the row maximum ignores odd warps and the denominator counts
// even warps twice, so every output is scaled wrongly.
// Masks: 0xffffffff is a 32-bit mask; hipcc 5.2 has no __shfl_*_sync at all and
// ROCm >= 6.2 rejects a 32-bit mask with a static_assert (BUILD-FAIL there).
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cfloat>
#include <cmath>

#define FULL_MASK 0xffffffff

__device__ __forceinline__ float warp_max_bcast(float v) {
    for (int o = 16; o > 0; o /= 2) {
        v = fmaxf(v, __shfl_down(v, o, 32));
    }
    return __shfl(v, 0, 32);  // every lane gets the warp maximum
}

__device__ __forceinline__ float warp_sum_bcast(float v) {
    for (int o = 16; o > 0; o /= 2) {
        v += __shfl_down(v, o, 32);
    }
    return __shfl(v, 0, 32);
}

// Block-wide reductions; every thread of the block must call them.
__device__ float block_max(float v, float* red) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    v = warp_max_bcast(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < nwarps ? red[lane] : -FLT_MAX;
    v = warp_max_bcast(v);
    __syncthreads();  // red[] is reused by the next reduction
    return v;
}

__device__ float block_sum(float v, float* red) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    v = warp_sum_bcast(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    v = lane < nwarps ? red[lane] : 0.0f;
    v = warp_sum_bcast(v);
    __syncthreads();
    return v;
}

// grid: one block per row; block: a multiple of 32 threads, at most 1024.
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int ncols) {
    __shared__ float red[32];  // one slot per warp of a 1024-thread block

    const size_t row_off = size_t(blockIdx.x) * ncols;
    const float* xr = x + row_off;
    float* yr = y + row_off;

    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        m = fmaxf(m, xr[c]);
    }
    const float row_max = block_max(m, red);

    float s = 0.0f;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        const float e = __expf(xr[c] - row_max);
        yr[c] = e;
        s += e;
    }
    const float inv_sum = 1.0f / block_sum(s, red);

    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        yr[c] *= inv_sum;
    }
}
