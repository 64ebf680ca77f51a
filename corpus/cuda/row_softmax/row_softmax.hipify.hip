// row_softmax.hipify.hip - renames-only HIP translation of row_softmax.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see row_softmax.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - the lane-0 broadcast copies even warps' max/sum
// into odd warps' slots of red[].
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_down_sync / __shfl_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert (mask must be 64-bit).

#include <hip/hip_runtime.h>

#include <cfloat>
#include <cmath>

#define FULL_MASK 0xffffffff

__device__ __forceinline__ float warp_max_bcast(float v) {
    for (int o = 16; o > 0; o /= 2) {
        v = fmaxf(v, __shfl_down_sync(FULL_MASK, v, o));
    }
    return __shfl_sync(FULL_MASK, v, 0);  // every lane gets the warp maximum
}

__device__ __forceinline__ float warp_sum_bcast(float v) {
    for (int o = 16; o > 0; o /= 2) {
        v += __shfl_down_sync(FULL_MASK, v, o);
    }
    return __shfl_sync(FULL_MASK, v, 0);
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
