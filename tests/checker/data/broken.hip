// A candidate that does not compile: a HIP API name misspelt by hand.
#include <hip/hip_runtime.h>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i] + undefined_helper(i);
}
