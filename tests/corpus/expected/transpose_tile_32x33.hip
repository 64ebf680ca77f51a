// near-miss: transpose_tile_32x33.cu - out = in^T through a padded shared tile.
//
// Looks like: `__shared__ float tile[32][33]`, TILE_DIM 32, threadIdx.x in 0..31,
// loops stepping by BLOCK_ROWS, `% 32`-style tiling of the matrix.
// Correct on wave64 because: 32 is the edge of a square data tile, not a warp
// width. The kernel never uses a warp collective; threads cooperate only through
// shared memory and __syncthreads(), which synchronises the whole block whatever
// the wavefront size. The +1 column pads the tile against shared-memory bank
// conflicts (32 banks on NVIDIA, 32 LDS banks on CDNA): a performance detail,
// never a correctness one. A (32, 8) block is 8 warps on NVIDIA and 4 wavefronts
// on CDNA; nothing in the code can tell the difference.

#include <hip/hip_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// in: rows x cols (row-major); out: cols x rows.
// grid: (ceil(cols / 32), ceil(rows / 32)); block: (32, 8).
__global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out, int rows,
                                 int cols) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;  // column in `in`
    int y = blockIdx.y * TILE_DIM + threadIdx.y;  // row in `in`
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * cols + x];
    }
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;  // column in `out` = row in `in`
    y = blockIdx.x * TILE_DIM + threadIdx.y;  // row in `out` = column in `in`
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < rows && y + j < cols) out[size_t(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}
