// tiled_attention.hipify.hip - renames-only HIP translation of tiled_attention.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see tiled_attention.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - __shfl_sync(mask, p, j) gives odd rows the
// probabilities of even rows.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync / __shfl_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

#include <cmath>

#define HEAD_DIM 64
#define TILE_KV 32
#define TILE_ROWS 4

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
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
            const float pj = __shfl_sync(0xffffffff, p, j);
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
