// near-miss: tile_sums_shfl_down_lane0.cu - sums of consecutive 32-element tiles
// (per-tile sums feed e.g. a blocked prefix sum or a Q8_1-style "sum of values"
// field). Each 32-lane group reduces its tile with a __shfl_down tree and only
// lane 0 of the group stores the result.
//
// Looks like: `for (o = 16; o > 0; o /= 2) v += __shfl_down_sync(...)`, reading the
// result at `(threadIdx.x & 31) == 0`, `i / 32` output index, 256-thread blocks.
// Correct on wave64 because: in a 64-lane wavefront, lane 0 and lane 32 each end
// with exactly the sum of their own 32-lane group. The tree from 16 only moves
// values downwards by < 32 lanes, and every value that reaches lane 0 (or lane 32)
// comes from lanes 0..31 (or 32..63): lanes 16..31 do read across the boundary at
// offset 16 on wave64, but their results are never consumed by lane 0. Only lane 0
// of each 32-group is read, so the output is the same at warp 32 and 64. (The
// other lanes hold different garbage on the two targets, which is harmless here.)
// The mask is the platform's full lane mask.

#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_AMD__)
#define FULL_LANES 0xffffffffffffffffull
#else
#define FULL_LANES 0xffffffffu
#endif

// tile_sum[t] = sum of in[32 t .. 32 t + 31] (missing elements count as 0).
// block: a multiple of 32 threads.
__global__ void tile_sums(const float* __restrict__ in, float* __restrict__ tile_sum, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o, 32);
    if ((threadIdx.x & 31) == 0 && i < n) tile_sum[i / 32] = v;
}
