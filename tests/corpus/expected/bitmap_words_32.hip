// bitmap_words_32.cu - near miss: a bitmap of 32-bit words. `idx / 32` picks the
// word, `idx % 32` the bit, `1u << (idx % 32)` the mask and `__popc` counts set bits
// of data words: 32 is the width of an unsigned int here, not of a warp, so a 64-lane
// wavefront changes nothing.
#include <hip/hip_runtime.h>

__global__ void set_bits(const int* __restrict__ idx, unsigned* __restrict__ bitmap, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicOr(&bitmap[idx[i] / 32], 1u << (idx[i] % 32));
}

__global__ void count_bits(const unsigned* __restrict__ bitmap, int* __restrict__ total, int words) {
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w < words) atomicAdd(total, __popc(bitmap[w]));
}
