#include "tiletrans_hip_compat.h"
// cg_coalesced_count.cu - counts the elements above a threshold with a
// cooperative-groups vote: the threads that pass the bounds check form a coalesced
// group, vote with `active.ballot(p)`, and the group's first thread adds the popcount
// of the vote to a global counter (one atomicAdd per group instead of one per thread).
//
// Pitfall: the ballot of a coalesced group kept in `unsigned int` and counted with
// `__popc`; on wave64 with renames only: wrong count.
// Why: on CDNA a coalesced group spans up to 64 lanes and HIP's group ballot is 64 bits
// wide; truncated to 32 bits, the votes of lanes 32..63 are lost, so every full
// wavefront adds only the lower half's count.
// The tiletrans port keeps the vote in `unsigned long long` and counts it with __popcll.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

namespace cg = cooperative_groups;

__device__ int group_votes(bool keep) {
    cg::coalesced_group active = cg::coalesced_threads();
    unsigned long long votes = tiletrans::group_ballot(active, keep);
    const int n_keep = __popcll(votes);
    return active.thread_rank() == 0 ? n_keep : 0;
}

__global__ void count_above(const float* __restrict__ in, int* __restrict__ count, int n, float threshold) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int add = group_votes(in[i] > threshold);
        if (add) atomicAdd(count, add);
    }
}
