// A template kernel launched on bf16 (llm.c's `norm_kernel2<floatX>` with floatX =
// __nv_bfloat16): the spec names it `scale<__nv_bfloat16>`, a CUDA type that the HIP
// side calls __hip_bfloat16.
#include <cuda_bf16.h>

template <class T> __global__ void scale(const T *x, T *y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (T)((float)x[i] * s);
}

int main() {
  __nv_bfloat16 *x = nullptr, *y = nullptr;
  scale<__nv_bfloat16><<<4, 64>>>(x, y, 2.0f, 256);
  return 0;
}
