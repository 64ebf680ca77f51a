// A whole program: host code, launches, a cuBLAS include, a local header.
#include <cublas_v2.h>
#include <cstdio>
#include "helpers.cuh"
#include <other.cuh>
#define CHECK(x) do { if ((x) != cudaSuccess) return 1; } while (0)
enum Mode { PLAIN, DOUBLED };
struct Params { int n; float scale; };
typedef float real_t;
__device__ float unused_device(float v) { return v; }
__device__ real_t apply(real_t v, Params p, Mode m) { return m == DOUBLED ? twice(v) * p.scale : v; }
template <typename T, int BLOCK, bool FLAG = false>
__global__ void scale_kernel(const T* __restrict__ x, real_t *y, unsigned int n, Params p, Mode m, bool f) {
  helper_buf[threadIdx.x % 64] = 0.0f;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = apply(x[i], p, m) + (f ? 1.0f : 0.0f);
}
__global__ void other_kernel(float *y) { y[0] = FROM_OTHER; }
static int run(float *x, float *y, int n) {
  CHECK(cudaMalloc(&x, n * 4));
  scale_kernel<float, 128><<<n / 128, 128>>>(x, y, n, Params{n, 1.0f}, PLAIN, false);
  return 0;
}
int main() { float *x = 0, *y = 0; cudaMalloc(&x, 4); return run(x, y, 1); }
