// count_if_aggregated.hipify.hip - renames-only HIP translation of count_if_aggregated.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see count_if_aggregated.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - the 32-bit __activemask() elects and counts only
// lanes 0..31; the final count is wrong.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__activemask / __shfl_sync undeclared).
// ROCm >= 6.2: the unsigned int mask passed to __shfl_sync is rejected by static_assert.

#include <hip/hip_runtime.h>

__device__ __forceinline__ int lane_id() { return threadIdx.x % 32; }

// Returns a unique ticket for each calling thread (NVIDIA's atomicAggInc idiom).
__device__ int atomic_agg_inc(int* counter) {
    const unsigned int active = __activemask();
    const int leader = __ffs(active) - 1;
    const int change = __popc(active);
    const unsigned int lanemask_lt = (1u << lane_id()) - 1u;
    const int rank = __popc(active & lanemask_lt);
    int base = 0;
    if (lane_id() == leader) {
        base = atomicAdd(counter, change);
    }
    base = __shfl_sync(active, base, leader);
    return base + rank;
}

__global__ void filter_above(const float* __restrict__ in, float* __restrict__ queue,
                             int* __restrict__ count, int n, int capacity, float threshold) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > threshold) {
        const int slot = atomic_agg_inc(count);
        if (slot < capacity) {
            queue[slot] = in[i];
        }
    }
}
