#include <cuda_runtime.h>
#define FULL 0xffffffff

// Block sum: warp shuffles, then one partial per warp.
__global__ void block_sum(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  unsigned int votes = __ballot_sync(0xffffffff, v > 0.0f);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v + __popc(votes));
}

void launch(const float *h, float *d_out, int n) {
  float *d_in;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  block_sum<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  cudaFree(d_in); // "cudaFree" in a string and cudaFree in a comment stay
}
