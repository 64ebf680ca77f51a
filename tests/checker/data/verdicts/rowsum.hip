// rowsum.cu for HIP 5.2: 32-lane groups with the no-mask __shfl_xor and width 32.
#include <hip/hip_runtime.h>

__global__ void rowsum(const float *x, float *out) {
  __shared__ float part[8];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o, 32);
  part[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) s += part[w];
    out[blockIdx.x] = s;
  }
}
