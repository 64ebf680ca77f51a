// attention_vec_padded.hipify.hip - renames-only HIP translation of attention_vec_padded.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see attention_vec_padded.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): numbers unaffected (all warp logic is consistently 32-lane; the
// xor butterflies never cross a 32-lane boundary).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync and __syncwarp undeclared).
// ROCm >= 6.2: FINAL_MASK (0xffffffff) rejected by static_assert; ROCm 7 adds __syncwarp.

#include <hip/hip_runtime.h>

#include <cmath>

#define FINAL_MASK 0xffffffff
#define TILE_ROWS 8
#define TILE_KV 32
#define PAD 4
#define MAX_DIMS_PER_LANE 4  // D <= 128

__device__ __forceinline__ float warp_reduce_max(float v) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v = fmaxf(v, __shfl_xor_sync(FINAL_MASK, v, mask));
    return v;
}

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(FINAL_MASK, v, mask);
    return v;
}

// Copy `rows` rows of D floats (row r taken from src_row0 + r, zero past row_limit)
// into a padded shared tile with float4 transactions.
__device__ __forceinline__ void load_tile_vec4(float* dst, int stride, const float* src, int D,
                                               int src_row0, int rows, int row_limit) {
    const int vec_per_row = D / 4;
    for (int idx = threadIdx.x; idx < rows * vec_per_row; idx += blockDim.x) {
        const int r = idx / vec_per_row;
        const int c4 = idx % vec_per_row;
        float4 val = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (src_row0 + r < row_limit) {
            val = reinterpret_cast<const float4*>(src + size_t(src_row0 + r) * D)[c4];
        }
        *reinterpret_cast<float4*>(dst + r * stride + c4 * 4) = val;
    }
}

// grid: (ceil(N / TILE_ROWS), B * H); block: TILE_ROWS * 32 threads;
// dynamic shared memory: (TILE_ROWS * (D + PAD) + 2 * TILE_KV * (D + PAD) + TILE_ROWS * TILE_KV) floats.
__global__ void attention_vec_padded(const float* __restrict__ Q, const float* __restrict__ K,
                                     const float* __restrict__ V, float* __restrict__ O, int N,
                                     int D, float scale) {
    extern __shared__ __align__(16) float smem[];
    const int stride = D + PAD;
    float* Qs = smem;                     // [TILE_ROWS][stride]
    float* Ks = Qs + TILE_ROWS * stride;  // [TILE_KV][stride]
    float* Vs = Ks + TILE_KV * stride;    // [TILE_KV][stride]
    float* Ps = Vs + TILE_KV * stride;    // [TILE_ROWS][TILE_KV]

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const size_t head_off = size_t(blockIdx.y) * N * D;
    const int q0 = blockIdx.x * TILE_ROWS;
    const int q_row = q0 + warp;

    load_tile_vec4(Qs, stride, Q + head_off, D, q0, TILE_ROWS, N);

    float m = -INFINITY, l = 0.0f;
    float acc[MAX_DIMS_PER_LANE];
#pragma unroll
    for (int e = 0; e < MAX_DIMS_PER_LANE; ++e) acc[e] = 0.0f;

    for (int kv0 = 0; kv0 < N; kv0 += TILE_KV) {
        __syncthreads();
        load_tile_vec4(Ks, stride, K + head_off, D, kv0, TILE_KV, N);
        load_tile_vec4(Vs, stride, V + head_off, D, kv0, TILE_KV, N);
        __syncthreads();

        float s = -INFINITY;
        if (kv0 + lane < N) {
            const float* qrow = Qs + warp * stride;
            const float* krow = Ks + lane * stride;
            s = 0.0f;
            for (int d = 0; d < D; d += 4) {
                const float4 qa = *reinterpret_cast<const float4*>(qrow + d);
                const float4 ka = *reinterpret_cast<const float4*>(krow + d);
                s += qa.x * ka.x + qa.y * ka.y + qa.z * ka.z + qa.w * ka.w;
            }
            s *= scale;
        }
        const float m_new = fmaxf(m, warp_reduce_max(s));
        const float p = __expf(s - m_new);
        const float alpha = __expf(m - m_new);
        l = l * alpha + warp_reduce_sum(p);
        m = m_new;

        Ps[warp * TILE_KV + lane] = p;
        __syncwarp();
#pragma unroll
        for (int e = 0; e < MAX_DIMS_PER_LANE; ++e) {
            const int d = lane + 32 * e;
            if (d < D) {
                float a = acc[e] * alpha;
                for (int j = 0; j < TILE_KV; ++j) a = fmaf(Ps[warp * TILE_KV + j], Vs[j * stride + d], a);
                acc[e] = a;
            }
        }
    }

    if (q_row < N) {
        float* o = O + head_off + size_t(q_row) * D;
        const float inv_l = 1.0f / l;
#pragma unroll
        for (int e = 0; e < MAX_DIMS_PER_LANE; ++e) {
            const int d = lane + 32 * e;
            if (d < D) o[d] = acc[e] * inv_l;
        }
    }
}
