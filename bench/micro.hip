// micro.hip — the micro-benchmark kernels of bench/sim, written as a user
// writes them; bench/sim passes them through tt_sim_prepare_source, as
// `tiletrans check` does (so `barriers` becomes a coroutine kernel and the
// shuffle loop a chain, as they would in a check).
__global__ void barriers(int *out, int iters)
{
    int acc = 0;
    for (int i = 0; i < iters; i++) {
        acc += i;
        __syncthreads();
    }
    if (acc == -1)
        out[0] = acc;
}

__global__ void shuffles(float *out, int iters)
{
    float v = threadIdx.x;
    for (int i = 0; i < iters; i++)
        v += __shfl_xor(v, i & 63);
    if (v == -1.0f)
        out[0] = v;
}

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
