// micro.hip — the micro-benchmark kernels of bench/sim, written as a user
// writes them; bench/sim passes them through tt_xf_prepare_source, as
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

// 16x16 tiles through shared memory (256-thread blocks, one 16x16 tile of C each).
#define TILE 16
__global__ void tiled_matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    int tiles = n / TILE;
    int row = (blockIdx.x / tiles) * TILE + ty, col = (blockIdx.x % tiles) * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < tiles; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// One wavefront per row: max and sum by xor-shuffle chains, then the row normalised.
__global__ void softmax_rows(const float *x, float *y, int ncols)
{
    int lane = threadIdx.x % warpSize;
    int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
    const float *xr = x + (size_t)row * ncols;
    float m = -INFINITY;
    for (int c = lane; c < ncols; c += warpSize)
        m = fmaxf(m, xr[c]);
    for (int o = warpSize / 2; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor(m, o));
    float s = 0.0f;
    for (int c = lane; c < ncols; c += warpSize)
        s += expf(xr[c] - m);
    for (int o = warpSize / 2; o > 0; o /= 2)
        s += __shfl_xor(s, o);
    for (int c = lane; c < ncols; c += warpSize)
        y[(size_t)row * ncols + c] = expf(xr[c] - m) / s;
}
