#include "../kern.cu"
#include "missing.cu"

void run(const __nv_bfloat16 *in, float *out, cudaStream_t s) { row_sum<<<1, 64, 0, s>>>(in, out, 64); }
