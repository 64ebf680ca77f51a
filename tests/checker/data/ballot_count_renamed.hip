// ballot_count.cu after a renames-only port (what hipify-perl produces): the ballot
// is 64 bits on wave64, but the result is still stored in a 32-bit unsigned, so lanes
// 32-63 of every wavefront are dropped and the second 32-lane group reads the first
// group's bits.
#include <hip/hip_runtime.h>

__global__ void ballot_count(const float *x, int *counts, int n, float threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pred = i < n && x[i] > threshold;
  unsigned mask = __ballot(pred);
  if ((threadIdx.x & 31) == 0) counts[i / 32] = __popc(mask);
}
