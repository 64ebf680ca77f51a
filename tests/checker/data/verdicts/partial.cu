// 48 threads: in the second warp, lanes 0-15 read lanes 16-31 with __shfl_down_sync,
// and those lanes do not exist (undefined in CUDA).
__global__ void partial_used(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  v += __shfl_down_sync(0xffffffffu, v, 16);
  out[i] = v;
}
__global__ void partial_unused(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float w = __shfl_down_sync(0xffffffffu, v, 16);
  out[i] = threadIdx.x < 32 ? w : v;
}
