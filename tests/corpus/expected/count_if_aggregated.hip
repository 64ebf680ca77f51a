// count_if_aggregated.cu - filter with warp-aggregated atomics: every element
// above the threshold takes a ticket from a global counter and is appended to a
// queue; instead of one atomicAdd per element, the active lanes of a warp elect a
// leader that does a single atomicAdd for all of them and shares the base ticket.
// The final counter value (how many elements passed) is deterministic; the order
// of the queue is not (it depends on which warp reaches the counter first).
//
// Pitfall: `unsigned int active = __activemask()` (32-bit), `__ffs(active)` to elect
// the leader, `__popc(active)`, lane from `threadIdx.x % 32`, `(1u << lane)` lane
// mask, `__shfl_sync(active, base, leader)`;
// on wave64 with renames only: wrong numbers.
// Why: __activemask() is a 64-bit mask on CDNA; truncated to 32 bits it describes
// only lanes 0..31. Lanes 32..63 elect the leader of the lower half, count the
// lower half's active lanes, and the upper lane whose `tid % 32` equals that leader
// also performs the atomicAdd with the lower half's count. So the counter advances
// by the lower half's population once or twice per wavefront and never by the
// upper half's: the final count is wrong, and tickets of the two halves collide
// (duplicate queue slots). The queue itself is capacity-checked, so nothing is
// written out of bounds.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

__device__ __forceinline__ int lane_id() { return threadIdx.x % 32; }

// Returns a unique ticket for each calling thread (NVIDIA's atomicAggInc idiom).
__device__ int atomic_agg_inc(int* counter) {
    const unsigned long long active = ((unsigned)(__ballot(1) >> (__lane_id() & 32)));
    const int leader = __ffsll(active) - 1;
    const int change = __popcll(active);
    const unsigned int lanemask_lt = (1u << lane_id()) - 1u;
    const int rank = __popc(active & lanemask_lt);
    int base = 0;
    if (lane_id() == leader) {
        base = atomicAdd(counter, change);
    }
    base = __shfl(base, leader, 32);
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
