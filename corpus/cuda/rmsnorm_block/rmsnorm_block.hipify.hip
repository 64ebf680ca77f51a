// rmsnorm_block.hipify.hip - renames-only HIP translation of rmsnorm_block.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see rmsnorm_block.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): numbers unaffected (FINAL_MASK xor butterfly with width 32 and
// consistent 32-based warp ids behave as two 32-lane warps per wavefront).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_xor_sync undeclared).
// ROCm >= 6.2: FINAL_MASK (0xffffffff) rejected by static_assert.

#include <hip/hip_runtime.h>

#define FINAL_MASK 0xffffffff

template <typename T>
__inline__ __device__ T warpReduceSum(T val) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
    return val;
}

// Sum over the block, valid in every thread of warp 0 (and, by symmetry, in every warp).
template <typename T>
__inline__ __device__ T blockReduceSum(T val) {
    static __shared__ T shared[32];
    const int lane = threadIdx.x & 0x1f;
    const int wid = threadIdx.x >> 5;

    val = warpReduceSum<T>(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();

    // blockDim.x may not be a multiple of 32: round the warp count up
    val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);
    val = warpReduceSum<T>(val);
    return val;
}

// grid: one block per row (m rows); block: up to 1024 threads.
__global__ void rmsnorm_rows(const float* __restrict__ input, const float* __restrict__ weight,
                             float* __restrict__ output, float eps, int m, int n) {
    __shared__ float s_inv_rms;
    const float* x = input + size_t(blockIdx.x) * n;
    float* y = output + size_t(blockIdx.x) * n;

    float local = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) local += x[i] * x[i];
    const float total = blockReduceSum<float>(local);
    if (threadIdx.x == 0) s_inv_rms = rsqrtf(total / float(n) + eps);
    __syncthreads();

    for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = x[i] * s_inv_rms * weight[i];
}
