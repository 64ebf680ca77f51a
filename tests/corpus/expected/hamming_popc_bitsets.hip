// near-miss: hamming_popc_bitsets.cu - Hamming distances between binary codes
// (hashing-based retrieval): each code is nbits long, stored in ceil(nbits / 32)
// uint32 words; distance(q, c) = sum over words of __popc(q ^ c), with the tail
// word masked.
//
// Looks like: `__popc(...)`, `__ffs(...)`, `% 32`, `/ 32`, `(1u << (nbits % 32)) - 1u`,
// `0xffffffffu`, a loop over 32-bit words.
// Correct on wave64 because: the popcounts and find-first-set run on bit-packed
// data words, never on ballot or activemask results, so their 32-bit width is the
// width of the data type. `nbits % 32` and `/ 32` split a bit string into words.
// One thread per (query, code) pair: no warp collectives at all.

#include <hip/hip_runtime.h>

#include <cstdint>

__device__ __forceinline__ uint32_t tail_mask(int nbits) {
    const int r = nbits % 32;
    return r == 0 ? 0xffffffffu : (1u << r) - 1u;
}

// dist[q * ncodes + c] = Hamming distance; first_diff[...] = index of the first
// differing bit (or -1 when identical).
__global__ void hamming_all_pairs(const uint32_t* __restrict__ queries, const uint32_t* __restrict__ codes,
                                  int* __restrict__ dist, int* __restrict__ first_diff, int nqueries,
                                  int ncodes, int nbits) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int q = blockIdx.y;
    if (c >= ncodes || q >= nqueries) return;

    const int nwords = (nbits + 31) / 32;
    const uint32_t* qa = queries + size_t(q) * nwords;
    const uint32_t* ca = codes + size_t(c) * nwords;
    int d = 0, first = -1;
    for (int w = 0; w < nwords; ++w) {
        uint32_t diff = qa[w] ^ ca[w];
        if (w == nwords - 1) diff &= tail_mask(nbits);
        d += __popc(diff);
        if (first < 0 && diff != 0) first = w * 32 + __ffs(diff) - 1;
    }
    dist[size_t(q) * ncodes + c] = d;
    first_diff[size_t(q) * ncodes + c] = first;
}
