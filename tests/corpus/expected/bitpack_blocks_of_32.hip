// near-miss: bitpack_blocks_of_32.cu - pack a boolean mask (x > threshold) into
// 32-bit words and unpack it again, as dropout / attention-mask kernels do.
//
// Looks like: `i / 32` and `i % 32` index arithmetic, `(1u << b)` single-bit masks,
// `0xffffffffu` constants, 32-iteration loops, `>> 5` and `& 31`.
// Correct on wave64 because: every 32 here is the number of bits in a uint32_t
// word of the packed mask. `i / 32` selects a data word and `i % 32` a bit in it;
// no thread ever talks to another thread (one thread packs one whole word, and
// unpacking is a pure gather), so the wavefront size cannot matter. `0xffffffffu`
// is the value of a word whose 32 elements are all kept, not a lane mask.

#include <hip/hip_runtime.h>

#include <cstdint>

// One thread per output word: bits[w] holds elements [32 * w, 32 * w + 32).
__global__ void pack_mask(const float* __restrict__ x, uint32_t* __restrict__ bits, int n,
                          float threshold) {
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    const int nwords = (n + 31) / 32;
    if (w >= nwords) return;

    const int base = w * 32;
    uint32_t word = 0;
    if (base + 32 <= n) {
#pragma unroll 8
        for (int b = 0; b < 32; ++b) word |= uint32_t(x[base + b] > threshold) << b;
    } else {  // tail word: bits past n stay 0
        for (int b = 0; b < n - base; ++b) word |= uint32_t(x[base + b] > threshold) << b;
    }
    bits[w] = word;
}

// y[i] = x[i] * scale if bit i is set, else 0 (inverted dropout with a stored mask).
__global__ void apply_packed_mask(const float* __restrict__ x, const uint32_t* __restrict__ bits,
                                  float* __restrict__ y, int n, float scale) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t word = bits[i >> 5];
    const bool keep = (word == 0xffffffffu) || ((word >> (i & 31)) & 1u);
    y[i] = keep ? x[i] * scale : 0.0f;
}

// Number of kept elements per word: popcount of packed data, not of a ballot.
__global__ void count_kept(const uint32_t* __restrict__ bits, int* __restrict__ per_word, int nwords) {
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w < nwords) per_word[w] = __popc(bits[w]);
}
