// Example kernel for src/sim/README.md: a block sum with wavefront shuffles.
#include <hip/hip_runtime.h>

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float partial[1024 / warpSize];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
    if (lane == 0)
        partial[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;
        for (int o = warpSize / 2; o > 0; o /= 2)
            v += __shfl_down(v, o);
        if (lane == 0)
            atomicAdd(out, v);
    }
}
