// One warp-wide sum per 32 threads; every lane stores the sum to its warp's slot
// (the same value, no barrier between: as llm.c's layernorm_forward_kernel5 does).
__global__ void rowsum(const float *x, float *out) {
  __shared__ float part[8];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  part[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < (int)blockDim.x / 32; w++) s += part[w];
    out[blockIdx.x] = s;
  }
}
