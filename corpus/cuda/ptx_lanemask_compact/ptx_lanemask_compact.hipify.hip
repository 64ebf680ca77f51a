// ptx_lanemask_compact.hipify.hip - renames-only HIP translation of ptx_lanemask_compact.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see ptx_lanemask_compact.cu for the kernel and for why it behaves as stated below.
//
// Unsupported: inline PTX (%laneid, %lanemask_lt) has no HIP meaning; needs a manual port.
// hipcc 5.2 (Debian): does not compile (__ballot_sync undeclared; with that replaced,
// the asm blocks fail with 'invalid instruction').

#include <hip/hip_runtime.h>

__device__ __forceinline__ unsigned int ptx_lane_id() {
    unsigned int lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ __forceinline__ unsigned int ptx_lanemask_lt() {
    unsigned int mask;
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
    return mask;
}

// Each warp compacts its 32 elements (those != 0) to the front of its own 32-slot
// output window and stores the number kept in warp_counts.
__global__ void warp_compact_nonzero(const int* __restrict__ in, int* __restrict__ out,
                                     int* __restrict__ warp_counts, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int warp_global = i / 32;
    const int v = i < n ? in[i] : 0;
    const bool keep = v != 0;

    const unsigned int vote = __ballot_sync(0xffffffffu, keep);
    const int pos = __popc(vote & ptx_lanemask_lt());
    if (keep) out[warp_global * 32 + pos] = v;
    if (ptx_lane_id() == 0) warp_counts[warp_global] = __popc(vote);
}
