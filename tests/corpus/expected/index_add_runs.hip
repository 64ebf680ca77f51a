// index_add_runs.cu - out[index[i]] += src[i] (index_add / embedding-bag backward
// style scatter-add) with warp-level run merging: consecutive elements of a warp
// that hit the same index form a segment; a segmented inclusive scan adds each
// segment up and only the segment's last lane issues the atomicAdd. For clustered
// indices this cuts global atomics by the average run length.
//
// Pitfall: segment heads from `unsigned heads = __ballot_sync(0xffffffff, head)`
// (32-bit), segment start from `31 - __clz(heads & (0xffffffffu >> (31 - lane)))`,
// lane `threadIdx.x & 31`, __shfl_up_sync / __shfl_down_sync neighbour exchange and a
// segmented __shfl_up_sync scan (`o <<= 1`);
// on wave64 with renames only: wrong numbers.
// Why: the ballot covers 64 lanes on CDNA; the 32-bit copy holds only the heads of
// lanes 0..31. Lanes 32..63 compute their segment start from the lower half's head
// pattern, so their segmented scan sums the wrong ranges: a segment tail in the
// upper half adds too many or too few elements (possibly of another index) to its
// out[] entry. Run boundaries found by the neighbour shuffles stay right (lane 31
// and lane 0 are tails/heads by the `lane == 31` / `lane == 0` tests), and the scan
// never reads across the 32-lane boundary, so the damage is confined to the upper
// halves, which is half of all elements.
// Note: atomicAdd of floats makes the summation order (last bits) run-dependent;
// the spec's tolerance covers that.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

__global__ void index_add_runs(const int* __restrict__ index, const float* __restrict__ src,
                               float* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const bool valid = i < n;

    const int key = valid ? index[i] : -1;
    float v = valid ? src[i] : 0.0f;

    // run boundaries inside the warp
    const int prev_key = __shfl_up(key, 1, 32);
    const int next_key = __shfl_down(key, 1, 32);
    const bool head = (lane == 0) || (key != prev_key);
    const bool tail = (lane == 31) || (key != next_key);

    const unsigned long long heads = ((unsigned)(__ballot(head) >> (__lane_id() & 32)));
    const unsigned heads_upto_me = heads & (0xffffffffu >> (31 - lane));
    const int seg_start = 31 - __clz(heads_upto_me);  // lane of my segment's head

    // segmented inclusive scan: only add values from my own segment
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const float t = __shfl_up(v, o, 32);
        if (lane - o >= seg_start) v += t;
    }

    if (valid && tail) {
        atomicAdd(&out[key], v);
    }
}
