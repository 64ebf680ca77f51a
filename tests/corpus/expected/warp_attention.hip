// warp_attention.cu - naive scaled-dot-product attention, O = softmax(Q K^T * scale) V,
// Q/K/V/O laid out [B, H, N, D] (float32, D = 64), one warp per query row, four
// rows per 128-thread block, no shared memory. Each lane owns two of the 64 head
// dimensions; the score q.k_j is reduced across the warp and then broadcast from
// lane 0, and the softmax is computed online (running max m, running sum l,
// rescaled accumulator) in a single pass over the keys.
//
// Pitfall: `#define WARP 32`, lane `threadIdx.x % WARP`, row `threadIdx.x / WARP`,
// __shfl_down_sync tree from offset 16 (`off >>= 1`) followed by the lane-0
// broadcast `__shfl_sync(0xffffffff, s, 0)`;
// on wave64 with renames only: wrong numbers.
// Why: two query rows share one 64-lane wavefront. The down-tree from 16 leaves the
// correct dot product of row 2k in lane 0 and of row 2k+1 in lane 32, but the
// broadcast reads lane 0 of the whole wavefront (width defaults to 64), so the
// warp of row 2k+1 uses the scores of row 2k: its softmax weights, and therefore
// its output row, belong to the wrong query. Rows handled by even warps are right.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cmath>

#define WARP 32
#define HEAD_DIM 64
#define ROWS_PER_BLOCK 4
#define DIMS_PER_LANE (HEAD_DIM / WARP)

__device__ __forceinline__ float warp_allsum(float v) {
#pragma unroll
    for (int off = WARP / 2; off > 0; off >>= 1) {
        v += __shfl_down(v, off, 32);
    }
    return __shfl(v, 0, 32);
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
