// attention_vec_padded.cu - the tiled attention kernel after the two memory
// optimisations of the article it comes from: global->shared copies with 128-bit
// float4 loads, and shared-memory rows padded from D to D + 4 floats so that
// rows of the K/V tiles start on different banks. All tiles live in one dynamic
// shared buffer. TILE_ROWS = 8 warps per block, one query row each; lane j scores
// key j of a 32-key tile; probabilities go through a per-warp row of shared memory
// (written, __syncwarp, read back) instead of shuffles.
// Layout [B, H, N, D] float32, D a multiple of 4 and at most 128; N arbitrary.
//
// Pitfall: FINAL_MASK = 0xffffffff in __shfl_xor_sync, xor butterflies starting at
// offset 16 (`mask >>= 1`), lane `tid & 31`, warp `tid >> 5`, __syncwarp(), per-warp
// shared rows sized for 32 lanes; on wave64 with renames only: unaffected.
// Why: every 32 here is used consistently. The xor butterflies from 16 never cross
// a 32-lane boundary, so on a 64-lane wavefront they act as two independent 32-lane
// warps; the probability row of each logical warp is addressed by `tid >> 5` and
// `tid & 31`, and __syncwarp() on CDNA synchronises the whole wavefront (a superset
// of what is needed). This is the "looks like a pitfall, is not" case among the
// checked kernels: float4 loads and padding do not depend on the warp width either.
// Masks: the 32-bit FINAL_MASK is still a build problem: hipcc 5.2 has neither
// __shfl_xor_sync nor __syncwarp, and ROCm >= 6.2 static_asserts on 32-bit masks.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cmath>

#define FINAL_MASK 0xffffffff
#define TILE_ROWS 8
#define TILE_KV 32
#define PAD 4
#define MAX_DIMS_PER_LANE 4  // D <= 128

__device__ __forceinline__ float warp_reduce_max(float v) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v = fmaxf(v, __shfl_xor(v, mask, 32));
    return v;
}

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor(v, mask, 32);
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
        (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
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
