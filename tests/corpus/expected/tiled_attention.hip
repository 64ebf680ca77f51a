// tiled_attention.cu - flash-style attention forward with shared K/V tiles:
// a block of TILE_ROWS warps handles TILE_ROWS query rows of one (batch, head);
// the block loads TILE_KV = 32 keys and values at a time into shared memory and
// every warp consumes the whole tile. Inside a warp, lane j scores key j of the
// tile, the tile max and sum come from xor butterflies, and the P.V product is
// formed by broadcasting each lane's probability p_j to the warp with
// __shfl_sync(mask, p, j) while lanes own output dimensions d = lane, lane + 32.
// Layout [B, H, N, D], D = 64, float32; N need not be a multiple of anything.
//
// Pitfall: `__shfl_sync(0xffffffff, p, j)` broadcasts from lanes 0..31 of a
// 32-lane warp; warp id `threadIdx.x / 32`, lane `threadIdx.x % 32`, xor
// butterflies from offset 16 (`o /= 2`);
// on wave64 with renames only: wrong numbers.
// Why: the xor butterflies stay within each 32-lane half of a wavefront, so the
// tile max and sum of every row are right. The broadcast is not: with width 64,
// source lane j is lane j of the wavefront, so the warp of query row 2k+1 (lanes
// 32..63) multiplies V by the probabilities of row 2k. Odd rows get even rows'
// attention weights combined with their own normaliser.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cmath>

#define HEAD_DIM 64
#define TILE_KV 32
#define TILE_ROWS 4

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor(v, o, 32));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o, 32);
    return v;
}

// grid: (ceil(N / TILE_ROWS), B * H); block: TILE_ROWS * 32 threads.
__global__ void attention_tiled(const float* __restrict__ Q, const float* __restrict__ K,
                                const float* __restrict__ V, float* __restrict__ O, int N,
                                float scale) {
    __shared__ float Qs[TILE_ROWS][HEAD_DIM];
    __shared__ float Ks[TILE_KV][HEAD_DIM + 1];  // +1: lane j reads row j, avoid conflicts
    __shared__ float Vs[TILE_KV][HEAD_DIM];

    const int tid = threadIdx.x;
    const int warp = tid / 32;
    const int lane = tid % 32;
    const size_t head_off = size_t(blockIdx.y) * N * HEAD_DIM;
    const int q_row = blockIdx.x * TILE_ROWS + warp;
    const bool row_valid = q_row < N;

    for (int idx = tid; idx < TILE_ROWS * HEAD_DIM; idx += blockDim.x) {
        const int r = idx / HEAD_DIM, d = idx % HEAD_DIM;
        const int qr = blockIdx.x * TILE_ROWS + r;
        Qs[r][d] = qr < N ? Q[head_off + size_t(qr) * HEAD_DIM + d] * scale : 0.0f;
    }

    float m = -INFINITY, l = 0.0f;
    float acc0 = 0.0f, acc1 = 0.0f;  // output dims lane and lane + 32

    for (int kv0 = 0; kv0 < N; kv0 += TILE_KV) {
        __syncthreads();  // previous tile fully consumed (and Qs written, first time)
        for (int idx = tid; idx < TILE_KV * HEAD_DIM; idx += blockDim.x) {
            const int j = idx / HEAD_DIM, d = idx % HEAD_DIM;
            const int key = kv0 + j;
            const bool ok = key < N;
            Ks[j][d] = ok ? K[head_off + size_t(key) * HEAD_DIM + d] : 0.0f;
            Vs[j][d] = ok ? V[head_off + size_t(key) * HEAD_DIM + d] : 0.0f;
        }
        __syncthreads();

        // lane j scores key kv0 + j
        float s = -INFINITY;
        if (kv0 + lane < N) {
            s = 0.0f;
#pragma unroll 16
            for (int d = 0; d < HEAD_DIM; ++d) s = fmaf(Qs[warp][d], Ks[lane][d], s);
        }
        const float m_new = fmaxf(m, warp_max(s));
        const float p = __expf(s - m_new);  // 0 for keys past the end
        const float alpha = __expf(m - m_new);
        l = l * alpha + warp_sum(p);
        acc0 *= alpha;
        acc1 *= alpha;
#pragma unroll 8
        for (int j = 0; j < TILE_KV; ++j) {
            const float pj = __shfl(p, j, 32);
            acc0 = fmaf(pj, Vs[j][lane], acc0);
            acc1 = fmaf(pj, Vs[j][lane + 32], acc1);
        }
        m = m_new;
    }

    if (row_valid) {
        float* o = O + head_off + size_t(q_row) * HEAD_DIM;
        o[lane] = acc0 / l;
        o[lane + 32] = acc1 / l;
    }
}
