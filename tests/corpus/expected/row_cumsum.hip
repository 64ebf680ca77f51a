// row_cumsum.cu - inclusive cumulative sum along the last dimension
// (torch.cumsum(x, dim=-1)) for many short rows: one warp per row, four rows per
// 128-thread block. The warp walks the row in chunks of 32, scans each chunk with
// __shfl_up_sync and carries the chunk total (held by lane 31) into the next chunk.
// The scan helper takes its lane id from the built-in warpSize; the rest of the
// kernel counts warps of 32.
//
// Pitfall: inclusive up-scan `__shfl_up_sync(0xffffffff, x, o)` (`o <<= 1` to 16)
// guarded by `lane >= o` where `lane = threadIdx.x & (warpSize - 1)`, carry broadcast
// `__shfl_sync(0xffffffff, s, 31)`, row `threadIdx.x / 32`, lane `threadIdx.x % 32`;
// on wave64 with renames only: wrong numbers.
// Why: on CDNA the helper's lane runs 0..63, so lanes 32..47 pass the `lane >= o`
// guard and add values that __shfl_up_sync brings across the 32-lane boundary from
// the neighbouring row (the scan of the odd row picks up the tail of the even row's
// chunk). Independently, the carry `__shfl_sync(..., 31)` reads lane 31 of the
// wavefront, so the odd row continues from the even row's running total.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#define ROWS_PER_BLOCK 4

__device__ __forceinline__ float warp_inclusive_scan(float x) {
    const int lane = threadIdx.x & (32 - 1);
#pragma unroll
    for (int o = 1; o <= 16; o <<= 1) {
        const float y = __shfl_up(x, o, 32);
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
        carry = __shfl(s, 31, 32);
    }
}
