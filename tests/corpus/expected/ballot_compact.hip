// ballot_compact.cu - block-local stream compaction ("keep x > threshold"):
// each block packs the elements it keeps, in order, to the front of its own
// slice out[blockIdx.x * blockDim.x ...] and records how many it kept in
// block_counts[blockIdx.x]. A later pass (see the driver) scans block_counts and
// gathers the slices. Warp votes give each thread its rank among the kept
// elements of its warp; warp 0 scans the per-warp counts.
//
// Pitfall: `unsigned vote = __ballot_sync(FULL_MASK, keep)` (ballot result in a
// 32-bit variable), `__popc(vote)`, `__popc(vote & ((1u << lane) - 1))` (32-bit lane
// mask), per-warp `__shared__ int warp_count[32]` indexed by `tid >> 5`, lane `tid & 31`;
// on wave64 with renames only: wrong numbers.
// Why: on CDNA __ballot_sync returns a 64-bit mask for the whole wavefront; the
// 32-bit variable keeps only lanes 0..31. Lanes 32..63 (the odd 32-thread warps)
// then count and rank themselves against the votes of the even warp: warp_count of
// every odd warp is a copy of its even neighbour's, the odd warps' elements land at
// ranks computed from the wrong votes (overwriting or leaving holes) and
// block_counts is wrong. The warp-0 scan (__shfl_up_sync with `lane >= o`) stays
// inside lanes 0..31 and is not itself affected.
// Masks: as written (0xffffffffu) the HIP *_sync functions reject the 32-bit mask
// (BUILD-FAIL on ROCm >= 6.2 and in tiletrans's HIP shim). With only the literal
// widened to 64 bits (all ones), warp 0's __shfl_up_sync names lanes 32..63, which
// wait at __syncthreads: a strict executor reports a deadlock (RUN-FAIL) before any
// number is compared; hardware, which ignores the mask, gives the wrong numbers above.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

#define FULL_MASK 0xffffffffu

// block: a multiple of 32 threads, at most 1024.
__global__ void compact_above(const float* __restrict__ in, float* __restrict__ out,
                              int* __restrict__ block_counts, int n, float threshold) {
    __shared__ int warp_count[32];
    __shared__ int warp_offset[32];

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int nwarps = blockDim.x >> 5;
    const int i = blockIdx.x * blockDim.x + tid;

    const float v = i < n ? in[i] : 0.0f;
    const bool keep = (i < n) && (v > threshold);

    const unsigned long long vote = ((unsigned)(__ballot(keep) >> (__lane_id() & 32)));
    const int rank = __popc(vote & ((1u << lane) - 1u));  // kept lanes before me
    if (lane == 0) warp_count[warp] = __popcll(vote);
    __syncthreads();

    if (warp == 0) {
        const int c = lane < nwarps ? warp_count[lane] : 0;
        int incl = c;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const int t = __shfl_up(incl, o, 32);
            if (lane >= o) incl += t;
        }
        if (lane < nwarps) warp_offset[lane] = incl - c;
        if (lane == 31) block_counts[blockIdx.x] = incl;
    }
    __syncthreads();

    if (keep) {
        out[blockIdx.x * blockDim.x + warp_offset[warp] + rank] = v;
    }
}

#ifndef TILETRANS_CHECK

int main() {
    const int n = 1 << 20, threads = 512;
    const int blocks = (n + threads - 1) / threads;
    std::vector<float> h_in(n);
    unsigned s = 12345u;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        h_in[i] = float(s >> 8) / float(1 << 24) * 2.f - 1.f;
    }
    float *d_in, *d_out;
    int* d_counts;
    hipMalloc(&d_in, n * sizeof(float));
    hipMalloc(&d_out, size_t(blocks) * threads * sizeof(float));
    hipMalloc(&d_counts, blocks * sizeof(int));
    hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice);
    compact_above<<<blocks, threads>>>(d_in, d_out, d_counts, n, 0.5f);
    hipError_t err = hipDeviceSynchronize();
    if (err != hipSuccess) {
        printf("kernel failed: %s\n", hipGetErrorString(err));
        return 1;
    }
    std::vector<float> h_out(size_t(blocks) * threads);
    std::vector<int> h_counts(blocks);
    hipMemcpy(h_out.data(), d_out, h_out.size() * sizeof(float), hipMemcpyDeviceToHost);
    hipMemcpy(h_counts.data(), d_counts, blocks * sizeof(int), hipMemcpyDeviceToHost);

    // host gather + check against a sequential filter
    std::vector<float> got, ref;
    for (int b = 0; b < blocks; ++b)
        for (int k = 0; k < h_counts[b]; ++k) got.push_back(h_out[size_t(b) * threads + k]);
    for (int i = 0; i < n; ++i)
        if (h_in[i] > 0.5f) ref.push_back(h_in[i]);
    printf("compact_above: kept %zu of %d: %s\n", got.size(), n, got == ref ? "PASS" : "FAIL");
    hipFree(d_in);
    hipFree(d_out);
    hipFree(d_counts);
    return got == ref ? 0 : 1;
}

#endif  // TILETRANS_CHECK
