// row_argmax.cu - per-row max and argmax (greedy sampling / top-1 over logits),
// one block per row: every thread scans a strided slice of the row, the warp finds
// its maximum with an xor butterfly, then the first lane holding that maximum is
// located with a ballot and its column index is fetched with a shuffle; the per-warp
// winners go through shared memory and warp 0 repeats the procedure.
//
// Pitfall: `#define WARP_SIZE 32` used for lane/warp ids (`% WARP_SIZE`, `/ WARP_SIZE`)
// and `__shared__ float s_val[WARP_SIZE]`, xor butterfly from 16 (`o >>= 1`) with mask
// 0xFFFFFFFF, `unsigned holders = __ballot_sync(...)` (32-bit) then
// `__ffs(holders) - 1` as a shuffle source lane;
// on wave64 with renames only: wrong numbers.
// Why: the butterfly stays within each 32-lane half, so every warp's maximum value
// is right. The ballot is 64-bit on CDNA and the 32-bit copy keeps only lanes 0..31:
// in the odd warps (lanes 32..63) __ffs therefore picks a lane of the even warp and
// `__shfl_sync(..., idx, src)` returns the even warp's column. s_val is right but
// s_idx is wrong for every odd warp, so rows whose maximum lies in an odd warp's
// slice report the wrong column (max_out stays right; argmax_out is wrong for
// roughly half the rows). Warp 0's final pass is unaffected.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cfloat>
#include <climits>

#define WARP_SIZE 32

// Leaves (max value, column of the first lane holding it) in every lane of the warp.
__device__ __forceinline__ void warp_argmax(float& val, int& col) {
    float m = val;
#pragma unroll
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor(m, o, 32));
    const unsigned long long holders = ((unsigned)(__ballot(val == m) >> (__lane_id() & 32)));
    const int src = __ffsll(holders) - 1;
    col = __shfl(col, src, 32);
    val = m;
}

// grid: one block per row; block: a multiple of 32 threads, at most 1024.
__global__ void row_argmax(const float* __restrict__ x, int* __restrict__ argmax_out,
                           float* __restrict__ max_out, int ncols) {
    __shared__ float s_val[WARP_SIZE];
    __shared__ int s_col[WARP_SIZE];

    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    const int nwarps = blockDim.x / WARP_SIZE;
    const float* xr = x + size_t(blockIdx.x) * ncols;

    float best = -FLT_MAX;
    int best_col = INT_MAX;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        const float v = xr[c];
        if (v > best) {
            best = v;
            best_col = c;
        }
    }

    warp_argmax(best, best_col);
    if (lane == 0) {
        s_val[warp] = best;
        s_col[warp] = best_col;
    }
    __syncthreads();

    if (warp == 0) {
        float v = lane < nwarps ? s_val[lane] : -FLT_MAX;
        int c = lane < nwarps ? s_col[lane] : INT_MAX;
        warp_argmax(v, c);
        if (lane == 0) {
            argmax_out[blockIdx.x] = c;
            max_out[blockIdx.x] = v;
        }
    }
}
