// gemv_warp_per_row.hipify.hip - renames-only HIP translation of gemv_warp_per_row.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see gemv_warp_per_row.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - the xor butterfly from 16 drops half of each
// 64-lane partial, and rows past about rows / 2 are never written.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

// grid: ceil(rows / (blockDim.x / 32)); block: a multiple of 32 threads.
__global__ void gemv_warp_per_row(const float* __restrict__ A, const float* __restrict__ x,
                                  float* __restrict__ y, int rows, int cols) {
    const int lane = threadIdx.x % warpSize;
    const int warps_per_block = blockDim.x / warpSize;
    const int row = blockIdx.x * warps_per_block + threadIdx.x / warpSize;
    if (row >= rows) return;

    const float* a = A + size_t(row) * cols;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += warpSize) sum = fmaf(a[c], x[c], sum);

    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffff, sum, o);
    if (lane == 0) y[row] = sum;
}
