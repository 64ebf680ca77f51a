// cuda_version_guard.cu - near miss: the CUDA 9 `_sync` path sits under
// `#if CUDA_VERSION >= 9000`, which a HIP build (no CUDA_VERSION: it reads as 0)
// never compiles; the `#else` path is already written with HIP's mask-free shuffles
// and an explicit width of 32. The dead branch gets no error.
#include <hip/hip_runtime.h>

__device__ __forceinline__ float xor_step(float v, int o) {
#if CUDA_VERSION >= 9000
    return __shfl_xor(v, o, 32);
#else
    return __shfl_xor(v, o, 32);
#endif
}

__global__ void tile_max(const float* __restrict__ in, float* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : -1e30f;
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, xor_step(v, o));
    if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = v;
}
