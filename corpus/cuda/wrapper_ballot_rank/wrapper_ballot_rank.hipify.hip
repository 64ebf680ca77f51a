// wrapper_ballot_rank.hipify.hip - renames-only HIP translation of wrapper_ballot_rank.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see wrapper_ballot_rank.cu for the kernel and for why it behaves as stated there.

// wrapper_ballot_rank.cu - stream-compaction ranks: each kept element gets its
// position among the kept elements of its block. A small wrapper `warp_vote` returns
// the warp's ballot; the rank inside the warp is the popcount of the vote below the
// lane, and warp totals are scanned in shared memory (blockDim.x / 32 warps).
//
// Pitfall: the ballot comes from a wrapper that returns `unsigned` (32 bits), then
// `__popc(m & ((1u << lane) - 1))` with `lane = threadIdx.x & 31`,
// `warp = threadIdx.x >> 5`; on wave64 with renames only: wrong ranks.
// Why: HIP's __ballot_sync returns the whole 64-lane wavefront's vote; cut to 32 bits
// by the wrapper, lanes 32..63 count the lower half's votes as their own, so the ranks
// and totals of odd 32-lane warps are those of the even ones.
// The tiletrans port works in 32-lane logical warps: the ballot becomes the caller's
// 32-bit half and the wrapper returns it in 64 bits, counted with __popcll.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

__device__ unsigned warp_vote(bool p) { return __ballot_sync(0xffffffff, p); }

__global__ void keep_ranks(const float* __restrict__ in, int* __restrict__ rank, int n, float threshold) {
    __shared__ int warp_base[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const bool keep = i < n && in[i] > threshold;
    const unsigned m = warp_vote(keep);
    const int below = __popc(m & ((1u << lane) - 1u));
    if (lane == 0) warp_base[warp] = __popc(m);
    __syncthreads();
    if (threadIdx.x == 0) {
        int run = 0;
        for (int w = 0; w < (int)(blockDim.x / 32); ++w) {
            const int t = warp_base[w];
            warp_base[w] = run;
            run += t;
        }
    }
    __syncthreads();
    if (i < n) rank[i] = keep ? warp_base[warp] + below : -1;
}
