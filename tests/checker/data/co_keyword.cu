// co_keyword.cu — a block sum with a variable named `concept`, a keyword of
// C++20: the harness does not build as C++20 and is built again as C++17,
// where the prepared kernel is an ordinary one.  The check must still PASS.
#include <cuda_runtime.h>

__global__ void block_sum_keyword(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (t == 0) {
        float concept = 0.0f;
        for (int k = 0; k < blockDim.x; k++)
            concept += s[k];
        out[blockIdx.x] = concept;
    }
}
