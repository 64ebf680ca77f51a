// near-miss: radix_float_keys.cu - first pass of an LSD radix sort on float keys:
// map each float to an order-preserving uint32 key, then build a per-block
// histogram of one 8-bit digit in shared memory.
//
// Looks like: `0xffffffff`, `0x80000000`, `>> 31`, `__float_as_uint`, shifts and
// masks, `__shared__ unsigned int s_hist[256]`, per-block shared arrays.
// Correct on wave64 because: the constants are float bit patterns (sign bit, all
// ones for the negative-key flip) on data, not lane masks. The histogram lives in
// shared memory and is updated with atomicAdd; bins are digits, not warps. No warp
// collective is used, so the wavefront size cannot change the result.

#include <hip/hip_runtime.h>

#include <cstdint>

#define RADIX_BITS 8
#define RADIX_BINS (1 << RADIX_BITS)

// Order-preserving float -> uint32 map: flip all bits of negatives, only the sign
// bit of non-negatives.
__device__ __forceinline__ uint32_t float_to_ordered(float f) {
    const uint32_t u = __float_as_uint(f);
    const uint32_t mask = (u >> 31) ? 0xffffffffu : 0x80000000u;
    return u ^ mask;
}

// keys_out[i] = ordered key; hist[blockIdx.x * 256 + digit] = count in this block.
__global__ void radix_keys_and_histogram(const float* __restrict__ in, uint32_t* __restrict__ keys_out,
                                         unsigned int* __restrict__ hist, int n, int shift) {
    __shared__ unsigned int s_hist[RADIX_BINS];
    for (int b = threadIdx.x; b < RADIX_BINS; b += blockDim.x) s_hist[b] = 0;
    __syncthreads();

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const uint32_t key = float_to_ordered(in[i]);
        keys_out[i] = key;
        atomicAdd(&s_hist[(key >> shift) & (RADIX_BINS - 1)], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < RADIX_BINS; b += blockDim.x) {
        hist[size_t(blockIdx.x) * RADIX_BINS + b] = s_hist[b];
    }
}
