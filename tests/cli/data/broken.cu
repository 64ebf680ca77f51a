__device__ float ok(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }
__device__ float broken(float v) { return __shfl_xor_sync(0xffffffff, v, 2) +* ; }
