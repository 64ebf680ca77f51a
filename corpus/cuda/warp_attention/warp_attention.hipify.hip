// warp_attention.hipify.hip - renames-only HIP translation of warp_attention.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see warp_attention.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - odd query rows use the scores of even rows
// (lane-0 broadcast with width 64).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_down_sync / __shfl_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

#include <cmath>

#define WARP 32
#define HEAD_DIM 64
#define ROWS_PER_BLOCK 4
#define DIMS_PER_LANE (HEAD_DIM / WARP)

__device__ __forceinline__ float warp_allsum(float v) {
#pragma unroll
    for (int off = WARP / 2; off > 0; off >>= 1) {
        v += __shfl_down_sync(0xffffffff, v, off);
    }
    return __shfl_sync(0xffffffff, v, 0);
}

// grid: ceil(BH * N / ROWS_PER_BLOCK) blocks of ROWS_PER_BLOCK * WARP threads.
// BH = batch * heads; rows are (bh, n) pairs flattened.
__global__ void attention_warp_per_row(const float* __restrict__ Q, const float* __restrict__ K,
                                       const float* __restrict__ V, float* __restrict__ O,
                                       int BH, int N, float scale) {
    const int lane = threadIdx.x % WARP;
    const int row = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / WARP;
    if (row >= BH * N) return;  // whole warp leaves together

    const int bh = row / N;
    const float* q = Q + size_t(row) * HEAD_DIM;
    const float* k = K + size_t(bh) * N * HEAD_DIM;
    const float* v = V + size_t(bh) * N * HEAD_DIM;

    float qr[DIMS_PER_LANE], acc[DIMS_PER_LANE];
#pragma unroll
    for (int e = 0; e < DIMS_PER_LANE; ++e) {
        qr[e] = q[lane + e * WARP] * scale;
        acc[e] = 0.0f;
    }

    float m = -INFINITY;  // running max of the scores
    float l = 0.0f;       // running sum of exp(score - m)
    for (int j = 0; j < N; ++j) {
        const float* kj = k + size_t(j) * HEAD_DIM;
        const float* vj = v + size_t(j) * HEAD_DIM;
        float s = 0.0f;
#pragma unroll
        for (int e = 0; e < DIMS_PER_LANE; ++e) s = fmaf(qr[e], kj[lane + e * WARP], s);
        s = warp_allsum(s);

        const float m_new = fmaxf(m, s);
        const float alpha = __expf(m - m_new);  // 0 on the first key (m = -inf)
        const float p = __expf(s - m_new);
        l = l * alpha + p;
#pragma unroll
        for (int e = 0; e < DIMS_PER_LANE; ++e) acc[e] = fmaf(p, vj[lane + e * WARP], acc[e] * alpha);
        m = m_new;
    }

    const float inv_l = 1.0f / l;
    float* o = O + size_t(row) * HEAD_DIM;
#pragma unroll
    for (int e = 0; e < DIMS_PER_LANE; ++e) o[lane + e * WARP] = acc[e] * inv_l;
}
