// co.hip — kernels of test_sim_co.cpp.  tt_xf_prepare_source makes each a
// coroutine (its barriers and shuffle chains are in its own body); the tests
// run each as a coroutine and on fibers (cfg.coroutines = 0) and compare.
#include "co_helper.h"

// bench/reduce.hip's shape: a shuffle chain per warp, a barrier, one more
// chain in warp 0, an atomic
__global__ void co_reduce(const float *in, float *out, int n)
{
    __shared__ float partial[1024 / 32];
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
            v = max(v, v + __shfl_xor(v, o));
        if (lane == 0)
            atomicAdd(out, v);
    }
}

// Hillis-Steele inclusive scan: barriers in a loop, an early return
__global__ void co_scan(const int *in, int *out, int n)
{
    __shared__ int buf[2][1024];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    int cur = 0;
    for (int off = 1; off < blockDim.x; off *= 2) {
        buf[1 - cur][t] = t >= off ? buf[cur][t] + buf[cur][t - off] : buf[cur][t];
        cur = 1 - cur;
        __syncthreads();
    }
    if (i >= n)
        return;
    out[i] = buf[cur][t];
}

// what the barrier forms return
__global__ void co_counts(int *out)
{
    int t = threadIdx.x;
    int c = __syncthreads_count(t % 3 == 0);
    int a = __syncthreads_and(t < 1000);
    int o = __syncthreads_or(t == 5);
    int z = __syncthreads_and(t != 7);
    out[blockIdx.x * blockDim.x + t] = c * 1000 + a * 100 + o * 10 + z;
}

// threads that exit before a barrier the others reach (legal unless strict)
__global__ void co_early_exit(int *out, int k)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    if (t >= k)
        return;
    s[t] = t * 2;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[k - 1 - t];
}

// 20 steps: more than a probe records (TT_SIM_CHAIN_SLOTS), so the steps run
// one await each
__global__ void co_long_chain(unsigned *out)
{
    unsigned v = threadIdx.x * 7 + 1;
    for (int s = 0; s < 20; s++)
        v = v * 3 + __shfl_xor(v, 1 + (s & 3));
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// a barrier in a function the kernel calls
__global__ void co_calls_helper(int *out)
{
    int v = threadIdx.x;
    for (int o = 1; o < 4; o *= 2)
        v += __shfl_xor(v, o);
    out[blockIdx.x * blockDim.x + threadIdx.x] = helper_sync(v);
}

// threads at two different barriers
__global__ void co_divergent(int *out)
{
    if (threadIdx.x < 40)
        __syncthreads(); // co: first barrier
    else
        __syncthreads(); // co: second barrier
    out[threadIdx.x] = 1;
}

// a write and a read of one shared word between two barriers
__global__ void co_racy(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x % 64;
    if (threadIdx.x < 64)
        s[t] = t;
    __syncthreads();
    if (threadIdx.x < 64)
        s[t] += s[(t + 1) % 64]; // co: race
    __syncthreads();
    out[threadIdx.x] = s[t];
}

// half of each warp shuffles while the other half waits at the barrier:
// the shuffle reads lanes that are not executing it
__global__ void co_inactive(float *out)
{
    float v = threadIdx.x;
    if (threadIdx.x % warpSize < warpSize / 2) {
        for (int o = warpSize / 2; o > 0; o /= 2)
            v += __shfl_down(v, o); // co: inactive read
    }
    __syncthreads();
    out[threadIdx.x] = v;
}

// locals of each kind a region form keeps per thread, across a barrier
__global__ void co_types(float *out)
{
    __shared__ float s[1024];
    int t = threadIdx.x;
    float4 a = make_float4(t, 1, 2, 3);
    double2 d = make_double2(t * 0.5, 2);
    __half h = __float2half((float)t);
    unsigned long long u = 1ull << (t % 60);
    const float *p = s + t;
    uint8_t b = (uint8_t)t, c;
    c = 7;
    s[t] = (float)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] =
        a.x + a.w + (float)d.x + __half2float(h) + (float)(u >> (t % 60)) + p[0] + b + c;
}

// a warp per row; the warps past the last row return before their chain
__global__ void co_rows(const float *in, float *out, int rows)
{
    int lane = threadIdx.x % warpSize;
    int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
    if (row >= rows)
        return;
    float v = in[row * warpSize + lane];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_xor(v, o);
    if (lane == 0)
        out[row] = v;
}

// barriers and a chain in loops whose trip counts every thread shares
__global__ void co_loops(int *out)
{
    __shared__ int s[1024];
    int t = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 3; i++) {
        s[t] = t + i;
        __syncthreads();
        acc += s[(t + 1) % blockDim.x];
        __syncthreads();
    }
    unsigned v = t;
    for (int r = 0; r < 2; r++)
        for (int o = 1; o < warpSize; o *= 2)
            v += __shfl_xor(v, o);
    out[blockIdx.x * blockDim.x + t] = acc + (int)v;
}

// a tile declared inside the loop that loads it (as cuda-samples' matrixMul
// declares its tiles) and read back between two barriers: the region form
// declares it at its top, and the stretch that only reads it is reads-only
__global__ void co_tiles(const int *in, int *out, int rounds)
{
    int t = threadIdx.x, acc = 0;
    for (int r = 0; r < rounds; r++) {
        __shared__ int tile[1024];
        tile[t] = in[r * blockDim.x + t];
        __syncthreads();
        for (int k = 0; k < 4; k++)
            acc += tile[(t + k) % blockDim.x];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

// a loop with a barrier whose trip count differs between threads (those
// done leave; the barrier goes on without them, as on sm_70+ and AMD)
__global__ void co_uneven(int *out)
{
    int t = threadIdx.x, n = 0;
    for (int i = 0; i < t % 3 + 1; i++) {
        n++;
        __syncthreads();
    }
    out[t] = n;
}

// ifs in a loop, a chain under two of them: whole warps take them
__global__ void co_nested(int *out)
{
    int t = threadIdx.x, lane = t % warpSize;
    int v = t;
    for (int r = 0; r < 2; r++) {
        if (t / warpSize % 2 == 0) {
            if (r == 1)
                for (int o = 1; o < warpSize; o *= 2)
                    v += __shfl_xor(v, o);
        }
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = v + lane;
}

// one thread of block 1 writes one past the end of out, after a barrier
__global__ void co_oob(int *out, int n, int bad)
{
    __shared__ int s[1024];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = t;
    __syncthreads();
    out[blockIdx.x == 1 && t == bad ? n : i] = s[t]; // co: oob
}
