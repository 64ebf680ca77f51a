// Counts, per 32-lane group, the elements above a threshold with a warp ballot.
// Written for NVIDIA's 32-lane warps: the ballot result is a 32-bit mask.
#include <cuda_runtime.h>

__global__ void ballot_count(const float *x, int *counts, int n, float threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pred = i < n && x[i] > threshold;
  unsigned mask = __ballot_sync(0xffffffffu, pred);
  if ((threadIdx.x & 31) == 0) counts[i / 32] = __popc(mask);
}
