// row_l2_normalize.hipify.hip - renames-only HIP translation of row_l2_normalize.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see row_l2_normalize.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - warpSize-strided loops in a 32-thread block skip
// half of every row; half of the outputs are never written.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

__global__ void l2_normalize_rows(const float* __restrict__ x, float* __restrict__ y,
                                  int ncols, float eps) {
    const int lane = threadIdx.x;  // blockDim.x == 32: one warp per row
    const float* xr = x + size_t(blockIdx.x) * ncols;
    float* yr = y + size_t(blockIdx.x) * ncols;

    float ss = 0.0f;
    for (int c = lane; c < ncols; c += warpSize) {
        const float v = xr[c];
        ss = fmaf(v, v, ss);
    }
    for (int mask = 16; mask >= 1; mask >>= 1) {
        ss += __shfl_xor_sync(0xffffffff, ss, mask);
    }

    const float inv_norm = 1.0f / fmaxf(sqrtf(ss), eps);
    for (int c = lane; c < ncols; c += warpSize) {
        yr[c] = xr[c] * inv_norm;
    }
}
