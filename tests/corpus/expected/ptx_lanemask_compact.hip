// ptx_lanemask_compact.cu - warp-level stream compaction that reads the lane id
// and the "lanes below me" mask straight from PTX special registers (%laneid,
// %lanemask_lt), as older CUB/Thrust-era code and many hand-tuned kernels do.
//
// Pitfall: inline PTX `asm("mov.u32 %0, %%laneid;")` and
// `asm("mov.u32 %0, %%lanemask_lt;")`, a 32-bit ballot and __popc;
// on wave64 with renames only: unsupported (does not compile for AMD).
// Why: inline PTX has no meaning for the AMDGPU back end; hipify leaves the asm
// blocks in place and hipcc rejects them. A port must replace them by hand
// (__lane_id(), a 64-bit lanemask from __lane_id(), __ballot, __popcll) and then also
// fix the 32-bit ballot. No check spec: this file exists for "unsupported" reporting.

#include <hip/hip_runtime.h>

__device__ __forceinline__ unsigned int ptx_lane_id() {
    unsigned int lane;
    /* tiletrans-ignore: hip-unsupported-inline-asm -- left unported: inline PTX assembly (no HIP equivalent; needs a manual port) */ asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ __forceinline__ unsigned int ptx_lanemask_lt() {
    unsigned int mask;
    /* tiletrans-ignore: hip-unsupported-inline-asm -- left unported: inline PTX assembly (no HIP equivalent; needs a manual port) */ asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
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

    const unsigned long long vote = ((unsigned)(__ballot(keep) >> (__lane_id() & 32)));
    const int pos = __popc(vote & ptx_lanemask_lt());
    if (keep) out[warp_global * 32 + pos] = v;
    if (ptx_lane_id() == 0) warp_counts[warp_global] = __popcll(vote);
}
