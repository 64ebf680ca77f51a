// row_argmax.hipify.hip - renames-only HIP translation of row_argmax.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see row_argmax.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - argmax is wrong for rows whose maximum lies in an
// odd warp (32-bit ballot + __ffs selects an even-warp lane); max is right.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync / __ballot_sync / __shfl_sync undeclared).
// ROCm >= 6.2: 0xFFFFFFFF mask rejected by static_assert.

#include <hip/hip_runtime.h>

#include <cfloat>
#include <climits>

#define WARP_SIZE 32

// Leaves (max value, column of the first lane holding it) in every lane of the warp.
__device__ __forceinline__ void warp_argmax(float& val, int& col) {
    float m = val;
#pragma unroll
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xFFFFFFFF, m, o));
    const unsigned holders = __ballot_sync(0xFFFFFFFF, val == m);
    const int src = __ffs(holders) - 1;
    col = __shfl_sync(0xFFFFFFFF, col, src);
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
