// ballot_compact.hipify.hip - renames-only HIP translation of ballot_compact.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see ballot_compact.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - the 32-bit copy of the 64-bit ballot makes odd
// warps rank and count themselves with the even warp's votes.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__ballot_sync / __shfl_up_sync undeclared).
// ROCm >= 6.2: 0xffffffffu mask rejected by static_assert.
// With only the mask literal widened to 64 bits, the warp-0 __shfl_up_sync names
// lanes 32..63 that wait at __syncthreads: a strict executor reports a deadlock.

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

    const unsigned vote = __ballot_sync(FULL_MASK, keep);
    const int rank = __popc(vote & ((1u << lane) - 1u));  // kept lanes before me
    if (lane == 0) warp_count[warp] = __popc(vote);
    __syncthreads();

    if (warp == 0) {
        const int c = lane < nwarps ? warp_count[lane] : 0;
        int incl = c;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const int t = __shfl_up_sync(FULL_MASK, incl, o);
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
