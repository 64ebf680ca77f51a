// A kernel file that includes a host library the machine may not have (apex includes
// <ATen/ATen.h>; Debian's torch has no ATen/cuda headers). The kernel does not use it.
#include <tt_test_absent_host_lib/api.h>

__global__ void twice(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
