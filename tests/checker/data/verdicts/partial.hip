// partial.cu for HIP 5.2 in 32-lane groups (width 32): the same undefined reads.
#include <hip/hip_runtime.h>
__global__ void partial_used(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  v += __shfl_down(v, 16, 32);
  out[i] = v;
}
__global__ void partial_unused(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float w = __shfl_down(v, 16, 32);
  out[i] = threadIdx.x < 32 ? w : v;
}
