// rowsum.cu with ROCm 7's 64-bit-mask __shfl_xor_sync: right in the sim (which runs
// the ROCm 6.2+ interface), but HIP 5.2's hipcc has no __shfl_xor_sync.
#include <hip/hip_runtime.h>

__global__ void rowsum(const float *x, float *out) {
  __shared__ float part[8];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffffffffffull, v, o, 32);
  part[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) s += part[w];
    out[blockIdx.x] = s;
  }
}
