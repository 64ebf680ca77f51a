#include <hip/hip_runtime.h>
#include <tt_scale.h>
__global__ void scaled(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = TT_SCALE * x[i] + TT_OFFSET;
}
