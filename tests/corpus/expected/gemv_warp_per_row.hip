// gemv_warp_per_row.cu - y = A x for a row-major float32 matrix, one warp per
// row: lanes stride across the row, then the warp sums its partials with an xor
// butterfly and lane 0 writes y[row]. Warp and lane ids are written with the
// built-in warpSize (so they look portable); the host sizes the grid for
// blockDim.x / 32 rows per block.
//
// Pitfall: xor butterfly that starts at the literal offset 16
// (`for (o = 16; o > 0; o >>= 1)`) inside a kernel whose warps are otherwise
// warpSize-based (`lane = threadIdx.x % warpSize`, `threadIdx.x / warpSize`,
// column stride warpSize), mask 0xffffffff, grid from `/ 32` on the host;
// on wave64 with renames only: wrong numbers.
// Why: with warpSize = 64 a "warp" spans 64 lanes and strides the row by 64, but
// the butterfly from 16 only combines lanes within each 32-lane half: lane 0
// ends with the partial sum of columns c with c % 64 < 32, and the other half is
// dropped. In addition a block of 128 threads now covers 2 rows instead of the 4
// the grid was sized for (ceil(rows / 4) blocks), so rows from about half of
// `rows` onwards are never written.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

// grid: ceil(rows / (blockDim.x / 32)); block: a multiple of 32 threads.
__global__ void gemv_warp_per_row(const float* __restrict__ A, const float* __restrict__ x,
                                  float* __restrict__ y, int rows, int cols) {
    const int lane = threadIdx.x % 32;
    const int warps_per_block = blockDim.x / 32;
    const int row = blockIdx.x * warps_per_block + threadIdx.x / 32;
    if (row >= rows) return;

    const float* a = A + size_t(row) * cols;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += 32) sum = fmaf(a[c], x[c], sum);

    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor(sum, o, 32);
    if (lane == 0) y[row] = sum;
}
