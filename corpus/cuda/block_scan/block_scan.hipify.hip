// block_scan.hipify.hip - renames-only HIP translation of block_scan.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see block_scan.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - warp totals broadcast from lane 31 of the
// wavefront; odd warps publish the even warp's total.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_up_sync / __shfl_sync undeclared).
// ROCm >= 6.2: 0xFFFFFFFFu mask rejected by static_assert.
// With only the mask literal widened to 64 bits, the warp-0 __shfl_up_sync names
// lanes 32..63 that wait at __syncthreads: a strict executor reports a deadlock.

#include <hip/hip_runtime.h>

#define FULL 0xFFFFFFFFu

__device__ __forceinline__ int warp_inclusive_scan(int x, int lane) {
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(FULL, x, o);
        if (lane >= o) x += y;
    }
    return x;
}

// block: a multiple of 32 threads, at most 1024.
__global__ void block_inclusive_scan(const int* __restrict__ in, int* __restrict__ out,
                                     int* __restrict__ block_totals, int n) {
    __shared__ int warp_totals[32];

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int i = blockIdx.x * blockDim.x + tid;

    int x = i < n ? in[i] : 0;
    x = warp_inclusive_scan(x, lane);
    const int total = __shfl_sync(FULL, x, 31);  // every lane learns its warp's total
    if (lane == 0) warp_totals[warp] = total;
    __syncthreads();

    if (warp == 0) {
        const int t = lane < int(blockDim.x / 32) ? warp_totals[lane] : 0;
        warp_totals[lane] = warp_inclusive_scan(t, lane);
    }
    __syncthreads();

    if (warp > 0) x += warp_totals[warp - 1];
    if (i < n) out[i] = x;
    if (tid == blockDim.x - 1) block_totals[blockIdx.x] = x;
}
