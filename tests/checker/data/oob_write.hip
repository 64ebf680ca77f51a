#include <hip/hip_runtime.h>

__global__ void scale2(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}
