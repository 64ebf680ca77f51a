// row_cumsum.hipify.hip - renames-only HIP translation of row_cumsum.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see row_cumsum.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - the up-scan crosses into the neighbour row and the
// chunk carry is read from lane 31 of the wavefront.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_up_sync / __shfl_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

#define ROWS_PER_BLOCK 4

__device__ __forceinline__ float warp_inclusive_scan(float x) {
    const int lane = threadIdx.x & (warpSize - 1);
#pragma unroll
    for (int o = 1; o <= 16; o <<= 1) {
        const float y = __shfl_up_sync(0xffffffff, x, o);
        if (lane >= o) x += y;
    }
    return x;
}

// grid: ceil(nrows / ROWS_PER_BLOCK); block: ROWS_PER_BLOCK * 32 threads.
__global__ void row_cumsum(const float* __restrict__ x, float* __restrict__ y, int nrows,
                           int ncols) {
    const int row = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= nrows) return;  // uniform per warp

    const float* xr = x + size_t(row) * ncols;
    float* yr = y + size_t(row) * ncols;
    float carry = 0.0f;
    for (int base = 0; base < ncols; base += 32) {
        const int c = base + lane;
        const float v = c < ncols ? xr[c] : 0.0f;
        const float s = warp_inclusive_scan(v) + carry;
        if (c < ncols) yr[c] = s;
        carry = __shfl_sync(0xffffffff, s, 31);
    }
}
