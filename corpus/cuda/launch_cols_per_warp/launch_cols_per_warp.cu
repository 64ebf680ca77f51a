// launch_cols_per_warp.cu - column sums of a (rows x cols) matrix, one block per 32
// columns: the host launches `cols / 32` blocks and each block's warps stride down
// the rows; lane j of every warp owns column `blockIdx.x * warpSize + j`, and warp 0
// adds the warps' partial sums from shared memory (llm.c's bias-gradient kernel).
//
// Pitfall: the kernel is written with `warpSize` only; the 32 is in the host's
// launch arithmetic (`cols / 32` blocks); on wave64 with renames only: out-of-bounds
// reads and wrong sums.
// Why: warpSize is 64 on CDNA, so block b starts at column 64*b while the grid has
// cols/32 blocks: the upper half of the blocks reads past the matrix and columns are
// summed twice.
// The tiletrans port takes the launch as the kernel's strategy evidence (logical32)
// and turns its warpSize into 32.
// wave32 (RDNA, gfx1030): unaffected.

#include <cuda_runtime.h>

__global__ void column_sums(const float* __restrict__ m, float* __restrict__ sums, int rows, int cols) {
    extern __shared__ float partial[];
    const int warp = threadIdx.x / warpSize;
    const int lane = threadIdx.x % warpSize;
    const int warps = blockDim.x / warpSize;
    const int col = blockIdx.x * warpSize + lane;
    float s = 0.0f;
    for (int r = warp; r < rows; r += warps) s += m[r * cols + col];
    partial[lane + warp * warpSize] = s;
    __syncthreads();
    if (warp == 0) {
        float t = 0.0f;
        for (int w = 0; w < warps; ++w) t += partial[lane + w * warpSize];
        sums[col] = t;
    }
}

#ifndef TILETRANS_CHECK
void column_sums_launch(const float* m, float* sums, int rows, int cols, int block_size) {
    const int grid_size = cols / 32;  // cols must be a multiple of 32
    column_sums<<<grid_size, block_size, block_size * sizeof(float)>>>(m, sums, rows, cols);
}
#endif
