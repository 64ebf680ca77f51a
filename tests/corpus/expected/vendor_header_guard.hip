// vendor_header_guard.cu - near miss: 32-bit masks in _sync shuffles that a local
// vendor header redefines for HIP. Under USE_ROCM the file includes vendor_hip.h,
// which maps `__shfl_xor_sync(mask, v, o, w)` to `__shfl_xor(v, o, w)`: the mask never
// reaches HIP and every shuffle passes width 32, so each half of a 64-lane wavefront
// reduces its own row. The CUDA names are the header's business: no error.
#if defined(USE_ROCM)
#include "vendor_hip.h"
#else
#include <hip/hip_runtime.h>
#endif

#define LOGICAL_WARP 32

__device__ float row_sum(float v) {
    for (int o = LOGICAL_WARP / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, LOGICAL_WARP);
    return __shfl_sync(0xffffffff, v, 0, LOGICAL_WARP);
}

__global__ void row_sums(const float* __restrict__ m, float* __restrict__ sums, int rows) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / LOGICAL_WARP;
    const int lane = threadIdx.x % LOGICAL_WARP;
    const float s = row_sum(row < rows ? m[row * LOGICAL_WARP + lane] : 0.0f);
    if (lane == 0 && row < rows) sums[row] = s;
}
