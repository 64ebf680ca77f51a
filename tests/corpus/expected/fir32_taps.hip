// near-miss: fir32_taps.cu - 32-tap FIR filter y[i] = sum_k h[k] * x[i - k]
// (causal, zero history), with the input tile and a 31-sample halo staged in
// shared memory.
//
// Looks like: `#define TAPS 32`, `for (int k = 0; k < 32; ++k)`, `__shared__ float
// taps_s[32]`, `threadIdx.x < 32`, `blockDim.x + 31`.
// Correct on wave64 because: 32 is the filter length. `threadIdx.x < 32` picks
// which threads copy the 32 coefficients (any 32 threads would do), the halo is
// TAPS - 1 samples, and every loop of 32 walks data. Threads share data only
// through shared memory after __syncthreads(), so the result does not depend on
// how threads are grouped into warps or wavefronts.

#include <hip/hip_runtime.h>

#define TAPS 32
#define BLOCK 256

// grid: ceil(n / BLOCK); block: BLOCK threads.
__global__ void fir32(const float* __restrict__ x, const float* __restrict__ taps,
                      float* __restrict__ y, int n) {
    __shared__ float taps_s[TAPS];
    __shared__ float xs[BLOCK + TAPS - 1];

    const int base = blockIdx.x * BLOCK;
    if (threadIdx.x < 32) taps_s[threadIdx.x] = taps[threadIdx.x];
    // xs[j] holds x[base - (TAPS - 1) + j]
    for (int j = threadIdx.x; j < BLOCK + TAPS - 1; j += blockDim.x) {
        const int g = base - (TAPS - 1) + j;
        xs[j] = (g >= 0 && g < n) ? x[g] : 0.0f;
    }
    __syncthreads();

    const int i = base + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < 32; ++k) acc = fmaf(taps_s[k], xs[threadIdx.x + (TAPS - 1) - k], acc);
        y[i] = acc;
    }
}
