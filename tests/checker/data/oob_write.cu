// Doubles every element, but forgets the tail guard: the last block writes past
// the end of `out` when n is not a multiple of the block size.
#include <cuda_runtime.h>

__global__ void scale2(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}
