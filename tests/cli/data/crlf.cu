__device__ float crlf(float v) {
  return __shfl_xor_sync(0xffffffff, v, 1);
}
