// warp_reduce.cuh - the reduction helpers this program's kernels share, and the
// shared buffer they use (one partial per 32-lane warp, 1024 threads at most).
#pragma once

#define FULL_MASK 0xffffffffu
#define WARP_SIZE 32

__shared__ float red_partials[32];

// Sum over the 32 lanes of a warp, valid in lane 0, then handed to every lane.
__device__ __forceinline__ float warp_sum_bcast(float v) {
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(FULL_MASK, v, o);
    return __shfl_sync(FULL_MASK, v, 0);
}

// Sum over the block, returned to every thread. Every warp runs both stages.
__device__ __forceinline__ float block_sum(float v) {
    const int lane = threadIdx.x % WARP_SIZE, wid = threadIdx.x / WARP_SIZE;
    v = warp_sum_bcast(v);
    if (lane == 0) red_partials[wid] = v;
    __syncthreads();
    v = lane < blockDim.x / WARP_SIZE ? red_partials[lane] : 0.0f;
    v = warp_sum_bcast(v);
    __syncthreads();  // red_partials is reused by the next call
    return v;
}
