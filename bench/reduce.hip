// reduce.hip — the 1M-element shuffle reduction of bench/sim, written as a
// user writes it.  bench/sim passes it through tt_xf_prepare_source (as
// `tiletrans check` does), which turns each shuffle loop into a chain the
// runtime can run as one warp collective.
__global__ void reduce_prepared(const float *in, float *out, int n)
{
    __shared__ float partial[1024 / 64];
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
