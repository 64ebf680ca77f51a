// minmax_scale.hipify.hip - renames-only HIP translation of minmax_scale.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see minmax_scale.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers on hardware (reads of lanes 32..63 of a 32-thread
// block return 0); an executor that checks lane activity reports RUN-FAIL.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync undeclared).
// ROCm >= 6.2: 0xFFFFFFFFu mask rejected by static_assert.

#include <hip/hip_runtime.h>

#include <cmath>

// grid: one block per row; block: exactly 32 threads.
__global__ void minmax_scale_rows(const float* __restrict__ x, float* __restrict__ y,
                                  int ncols) {
    const int lane = threadIdx.x;
    const float* xr = x + size_t(blockIdx.x) * ncols;
    float* yr = y + size_t(blockIdx.x) * ncols;

    float lo = INFINITY, hi = -INFINITY;
    for (int c = lane; c < ncols; c += 32) {
        const float v = xr[c];
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
    }
    for (int o = warpSize >> 1; o > 0; o >>= 1) {
        lo = fminf(lo, __shfl_xor_sync(0xFFFFFFFFu, lo, o));
        hi = fmaxf(hi, __shfl_xor_sync(0xFFFFFFFFu, hi, o));
    }

    const float range = hi - lo;
    const float inv = range > 0.0f ? 1.0f / range : 0.0f;
    for (int c = lane; c < ncols; c += 32) yr[c] = (xr[c] - lo) * inv;
}
