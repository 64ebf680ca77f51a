// vecadd.cu ported to HIP by hand (renames only; nothing warp-sized here).
#include <hip/hip_runtime.h>

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
