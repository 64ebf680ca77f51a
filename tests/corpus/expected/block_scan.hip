// block_scan.cu - first pass of a three-phase prefix sum (scan-then-propagate):
// each block computes the inclusive scan of its blockDim.x integers and writes
// its total to block_totals[blockIdx.x]; a second pass (not part of this check)
// scans the totals and adds them back. Inside the block: a Kogge-Stone scan per
// warp with __shfl_up_sync, the warp total taken from the last lane, a scan of the
// warp totals by warp 0, and a final add of the preceding warps' total.
//
// Pitfall: warp total broadcast `__shfl_sync(FULL, x, 31)` from lane 31, mask
// `0xFFFFFFFFu`, `__shfl_up_sync` inclusive scan (`o <<= 1` up to 16) guarded by
// `lane >= o`, lane `tid % 32`, warp `tid / 32`, `__shared__ int warp_totals[32]`;
// on wave64 with renames only: wrong numbers.
// Why: the up-scan itself survives: its guard uses the 32-based lane, so lane 32
// (lane 0 of the odd warp) never adds from lane 31 and each half of the wavefront
// is scanned separately. The broadcast does not: `__shfl_sync(mask, x, 31)` with
// width 64 reads lane 31 of the wavefront, so every odd warp publishes the total of
// the even warp before it. The scan of warp totals is then wrong from the first odd
// warp on, and so are all later elements of the block and the block total.
// (Integers: the comparison is exact.)
// Masks: as written (0xFFFFFFFFu) the HIP *_sync functions reject the 32-bit mask
// (BUILD-FAIL on ROCm >= 6.2 and in tiletrans's HIP shim). With only the literal
// widened to 64 bits (all ones), warp 0's __shfl_up_sync names lanes 32..63, which
// wait at __syncthreads: a strict executor reports a deadlock (RUN-FAIL) before any
// number is compared; hardware, which ignores the mask, gives the wrong numbers above.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#define FULL 0xFFFFFFFFu

__device__ __forceinline__ int warp_inclusive_scan(int x, int lane) {
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up(x, o, 32);
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
    const int total = __shfl(x, 31, 32);  // every lane learns its warp's total
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
