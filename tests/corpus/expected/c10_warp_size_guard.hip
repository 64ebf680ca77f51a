// near-miss: c10_warp_size_guard.cu - per-row log-sum-exp with a block reduction,
// written against a C10_WARP_SIZE macro and a shuffle wrapper that a project
// already switches per platform (the PyTorch convention).
//
// Looks like: `C10_WARP_SIZE`, `for (o = C10_WARP_SIZE / 2; ...)`, a default mask
// argument `unsigned int mask = 0xffffffff`, `__shared__ float partial[32]`,
// `threadIdx.x / C10_WARP_SIZE`, `% C10_WARP_SIZE`.
// Correct on wave64 because: C10_WARP_SIZE is `warpSize` on ROCm builds (64 on
// CDNA, 32 on RDNA) and 32 on CUDA, and every lane id, warp id, warp count and
// butterfly start is derived from it, so the code follows the native wavefront
// (porting strategy 2). The 0xffffffff default mask is only used by the CUDA branch
// of the wrapper; the ROCm branch calls the mask-less __shfl_xor. partial[32]
// is an upper bound (1024 / 32) and on wave64 only 16 slots are used. The macro
// is a guard, not a pitfall; flagging it is a false positive.

#include <hip/hip_runtime.h>

#include <cfloat>
#include <cmath>

#if defined(USE_ROCM) || defined(__HIP_PLATFORM_AMD__)
#define C10_WARP_SIZE warpSize  // 64 on CDNA, 32 on RDNA (not constexpr from ROCm 7)
#else
#define C10_WARP_SIZE 32
#endif

template <typename T>
__device__ __forceinline__ T warp_shfl_xor(T value, int lane_mask, int width = C10_WARP_SIZE,
                                           unsigned int mask = 0xffffffff) {
#if defined(USE_ROCM) || defined(__HIP_PLATFORM_AMD__)
    return __shfl_xor(value, lane_mask, width);
#else
    return __shfl_xor_sync(mask, value, lane_mask, width);
#endif
}

template <typename Op>
__device__ __forceinline__ float block_allreduce(float v, float* partial, float identity, Op op) {
    const int lane = threadIdx.x % C10_WARP_SIZE;
    const int warp = threadIdx.x / C10_WARP_SIZE;
    const int nwarps = (blockDim.x + C10_WARP_SIZE - 1) / C10_WARP_SIZE;
    for (int o = C10_WARP_SIZE / 2; o > 0; o >>= 1) v = op(v, warp_shfl_xor(v, o));
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    v = lane < nwarps ? partial[lane] : identity;
    for (int o = C10_WARP_SIZE / 2; o > 0; o >>= 1) v = op(v, warp_shfl_xor(v, o));
    __syncthreads();  // partial[] is reused by the caller's next reduction
    return v;
}

struct MaxOp {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
    __device__ float operator()(float a, float b) const { return a + b; }
};

// grid: one block per row; block: a multiple of the warp size, at most 1024.
__global__ void logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int ncols) {
    __shared__ float partial[32];  // 1024 / 32: enough for any warp size >= 32
    const float* xr = x + size_t(blockIdx.x) * ncols;

    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) m = fmaxf(m, xr[c]);
    m = block_allreduce(m, partial, -FLT_MAX, MaxOp());

    float s = 0.0f;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) s += expf(xr[c] - m);
    s = block_allreduce(s, partial, 0.0f, SumOp());

    if (threadIdx.x == 0) out[blockIdx.x] = m + logf(s);
}
