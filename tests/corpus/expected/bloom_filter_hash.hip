// near-miss: bloom_filter_hash.cu - insert 32-bit keys into a Bloom filter and
// query it, with a murmur3-style finalizer and double hashing.
//
// Looks like: `0xffffffff` / `0xffffffffu` constants, `h >> 5` and `h & 31`
// (the spelling of warp id / lane id), `1u << (h & 31)`, rotations by `32 - r`,
// `__popc` on a 32-bit word.
// Correct on wave64 because: all of it is arithmetic on data. `h >> 5` selects a
// 32-bit word of the filter and `h & 31` a bit inside it; 0xffffffff is the
// empty-key sentinel and the all-ones word of a saturated filter; __popc counts
// set bits of filter words (fill ratio), not ballot lanes. Threads interact only
// through atomicOr on global memory, which does not depend on the warp width.

#include <hip/hip_runtime.h>

#include <cstdint>

#define EMPTY_KEY 0xffffffffu
#define NUM_HASHES 4

__device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) {
    return (x << r) | (x >> (32 - r));
}

__device__ __forceinline__ uint32_t fmix32(uint32_t h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// nbits must be a power of two and a multiple of 32.
__global__ void bloom_insert(const uint32_t* __restrict__ keys, uint32_t* __restrict__ filter,
                             int n, uint32_t nbits) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || keys[i] == EMPTY_KEY) return;
    const uint32_t h1 = fmix32(keys[i]);
    const uint32_t h2 = fmix32(rotl32(keys[i], 15) ^ 0x9e3779b9u) | 1u;
    for (int k = 0; k < NUM_HASHES; ++k) {
        const uint32_t h = (h1 + k * h2) & (nbits - 1);
        atomicOr(&filter[h >> 5], 1u << (h & 31));
    }
}

__global__ void bloom_query(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ filter,
                            int* __restrict__ maybe_present, int n, uint32_t nbits) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t h1 = fmix32(keys[i]);
    const uint32_t h2 = fmix32(rotl32(keys[i], 15) ^ 0x9e3779b9u) | 1u;
    int hit = keys[i] != EMPTY_KEY;
    for (int k = 0; k < NUM_HASHES && hit; ++k) {
        const uint32_t h = (h1 + k * h2) & (nbits - 1);
        const uint32_t word = filter[h >> 5];
        hit = word == 0xffffffffu || ((word >> (h & 31)) & 1u);
    }
    maybe_present[i] = hit;
}

// Fill ratio: set bits per 32-bit filter word.
__global__ void bloom_word_popcount(const uint32_t* __restrict__ filter, int* __restrict__ bits_set,
                                   int nwords) {
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w < nwords) bits_set[w] = __popc(filter[w]);
}
