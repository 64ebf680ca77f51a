__device__ float f(float v) {
  v += __shfl_xor_sync(0xffffffff, v, 1); // tiletrans-ignore: hip-shfl-mask-32bit
  // tiletrans-ignore: test-rename, hip-shfl-mask-32bit
  v += __shfl_xor_sync(0xffffffff, v, 2);
  v += __shfl_xor_sync(0xffffffff, v, 4); // tiletrans-ignore: some-other-rule
  return v;
}
