// index_add_runs.hipify.hip - renames-only HIP translation of index_add_runs.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see index_add_runs.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - lanes 32..63 segment their runs with the head
// bits of lanes 0..31 (32-bit ballot, __clz).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__ballot_sync / __shfl_up_sync / __shfl_down_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

__global__ void index_add_runs(const int* __restrict__ index, const float* __restrict__ src,
                               float* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const bool valid = i < n;

    const int key = valid ? index[i] : -1;
    float v = valid ? src[i] : 0.0f;

    // run boundaries inside the warp
    const int prev_key = __shfl_up_sync(0xffffffff, key, 1);
    const int next_key = __shfl_down_sync(0xffffffff, key, 1);
    const bool head = (lane == 0) || (key != prev_key);
    const bool tail = (lane == 31) || (key != next_key);

    const unsigned heads = __ballot_sync(0xffffffff, head);
    const unsigned heads_upto_me = heads & (0xffffffffu >> (31 - lane));
    const int seg_start = 31 - __clz(heads_upto_me);  // lane of my segment's head

    // segmented inclusive scan: only add values from my own segment
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const float t = __shfl_up_sync(0xffffffff, v, o);
        if (lane - o >= seg_start) v += t;
    }

    if (valid && tail) {
        atomicAdd(&out[key], v);
    }
}
