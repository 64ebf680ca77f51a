// co_helper.cu — a block sum whose last barrier is in a helper of another
// file (co_helper.cuh).  The sim first runs the kernel as a coroutine, meets
// that barrier, and runs it again on fibers: the check must still PASS.
#include <cuda_runtime.h>
#include "co_helper.cuh"

__global__ void block_sum_helper(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    float total = 0.0f;
    for (int k = 0; k < blockDim.x; k++)
        total += s[k];
    total = barrier_then(total);
    if (t == 0)
        out[blockIdx.x] = total;
}
