// prog_ballot_template.hipify.hip - renames-only HIP translation of prog_ballot_template.cu (what hipify-perl
// produces: headers and cuda*/cublas* runtime names renamed, <<<...>>> kept, warp
// intrinsics, masks and 32s unchanged). The local headers need no renames.
// prog_ballot_template.cu - a whole program: counts the elements above (or, for the
// other instantiation, at or below) a threshold with one ballot per warp, a template
// over the comparison: count_votes<true> is the one launched.
//
// Pitfall: `unsigned vote = __ballot_sync(0xffffffff, pred)`, `__popc(vote)` and one
// atomicAdd per 32-lane warp (`threadIdx.x % 32 == 0`);
// on wave64 with renames only: wrong numbers.
// Why: on a 64-lane wavefront the ballot has 64 bits; stored in 32 bits it keeps only
// lanes 0..31, and lane 32 (a "warp leader" by `% 32`) adds the same truncated count
// again: the upper lanes are never counted and the lower ones twice.
// wave32 (RDNA, gfx1030): unaffected.

#include "hip/hip_runtime.h"

#include <cstdio>
#include <vector>

template <bool ABOVE>
__global__ void count_votes(const float* __restrict__ x, unsigned int* __restrict__ count, float threshold, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool pred = i < n && (ABOVE ? x[i] > threshold : x[i] <= threshold);
    const unsigned vote = __ballot_sync(0xffffffff, pred);
    if (threadIdx.x % 32 == 0) atomicAdd(count, (unsigned)__popc(vote));
}

int main() {
    const int n = 1 << 16;
    std::vector<float> x(n);
    unsigned want = 0, got = 0;
    for (int i = 0; i < n; ++i) { x[i] = float((i * 37) % 101) / 100.0f; want += x[i] > 0.5f; }
    float* dx;
    unsigned* dc;
    hipMalloc(&dx, n * 4); hipMalloc(&dc, 4);
    hipMemcpy(dx, x.data(), n * 4, hipMemcpyHostToDevice);
    hipMemset(dc, 0, 4);
    count_votes<true><<<n / 256, 256>>>(dx, dc, 0.5f, n);
    hipMemcpy(&got, dc, 4, hipMemcpyDeviceToHost);
    std::printf("%s (%u vs %u)\n", got == want ? "PASS" : "FAIL", got, want);
    return got != want;
}
