// near-miss: kwarpsize_constexpr.cu - per-block statistics (how many elements
// exceed a threshold, and their sum) with warp votes and warp sums, written
// against a compile-time kWarpSize and a lane-mask type chosen per target.
//
// Looks like: `__ballot_sync`, `__popc`-style counting, `kFullMask`, `kWarpSize`,
// `__shared__ int warp_count[1024 / kWarpSize]`, butterfly from kWarpSize / 2,
// `threadIdx.x / kWarpSize`.
// Correct on wave64 because: kWarpSize is 32 on CUDA, 32 on RDNA (gfx10/gfx11,
// default wave32) and 64 on CDNA; lane_mask_t is 32 bits on CUDA and 64 bits on
// AMD, kFullMask is all ones of that type, and ballots are counted with __popcll,
// which takes 64 bits. Every per-warp array, id and loop follows kWarpSize, so the
// kernel uses the native wavefront (porting strategy 2). On AMD it needs the
// __*_sync builtins (ROCm >= 6.2 with HIP_ENABLE_WARP_SYNC_BUILTINS, default in 7.0);
// a build with -mwavefrontsize64 on RDNA would need kWarpSize = 64 there too.

#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_AMD__)
#if defined(__GFX10__) || defined(__GFX11__)
constexpr int kWarpSize = 32;  // RDNA, default wave32
#else
constexpr int kWarpSize = 64;  // CDNA (gfx90a, gfx94x) and the host pass
#endif
using lane_mask_t = unsigned long long;
#else
constexpr int kWarpSize = 32;
using lane_mask_t = unsigned int;
#endif
constexpr lane_mask_t kFullMask = ~lane_mask_t(0);

// block: a multiple of kWarpSize threads, at most 1024.
__global__ void block_threshold_stats(const float* __restrict__ x, int* __restrict__ block_count,
                                      float* __restrict__ block_sum, int n, float threshold) {
    __shared__ int warp_count[1024 / kWarpSize];
    __shared__ float warp_sum[1024 / kWarpSize];

    const int lane = threadIdx.x % kWarpSize;
    const int warp = threadIdx.x / kWarpSize;
    const int nwarps = blockDim.x / kWarpSize;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;

    const float v = i < n ? x[i] : 0.0f;
    const bool hit = i < n && v > threshold;
    const lane_mask_t votes = __ballot(hit);
    float s = hit ? v : 0.0f;
#pragma unroll
    for (int o = kWarpSize / 2; o > 0; o >>= 1) s += __shfl_xor(s, o);

    if (lane == 0) {
        warp_count[warp] = __popcll(votes);
        warp_sum[warp] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int c = 0;
        float t = 0.0f;
        for (int w = 0; w < nwarps; ++w) {
            c += warp_count[w];
            t += warp_sum[w];
        }
        block_count[blockIdx.x] = c;
        block_sum[blockIdx.x] = t;
    }
}
