#include <hip/hip_runtime.h>
// Every thread of the block stores the same flag to one word, then reads it back: the
// stores of different warps race formally (the sim reports it) but all write 1.
__global__ void flag(const float *x, float *out) {
  __shared__ int seen;
  seen = 1;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x] * seen;
}
