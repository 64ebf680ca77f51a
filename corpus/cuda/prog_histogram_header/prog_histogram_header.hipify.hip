// prog_histogram_header.hipify.hip - renames-only HIP translation of prog_histogram_header.cu (what hipify-perl
// produces: headers and cuda*/cublas* runtime names renamed, <<<...>>> kept, warp
// intrinsics, masks and 32s unchanged). The local headers need no renames.
// prog_histogram_header.cu - a whole program: a 64-bin histogram of values in [0, 1),
// each block counting into the __shared__ histogram of the local header
// hist_smem.cuh, then adding it to the global one.
//
// Pitfall: none (control: __shared__ declared in an included header, shared and global
// atomics);
// on wave64 with renames only: unaffected.
// Why: no warp-level operation.
// wave32 (RDNA, gfx1030): unaffected.

#include "hip/hip_runtime.h"

#include <cstdio>
#include <vector>

#include "hist_smem.cuh"

__global__ void histogram64(const float* __restrict__ x, unsigned int* __restrict__ hist, int n) {
    hist_clear();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = (int)(x[i] * HIST_BINS);
        b = b < 0 ? 0 : b >= HIST_BINS ? HIST_BINS - 1 : b;
        atomicAdd(&hist_smem[b], 1u);
    }
    hist_flush(hist);
}

int main() {
    const int n = 1 << 20;
    std::vector<float> x(n);
    std::vector<unsigned> want(HIST_BINS), got(HIST_BINS);
    for (int i = 0; i < n; ++i) { x[i] = float((i * 7919) % 10007) / 10007.0f; want[int(x[i] * HIST_BINS)]++; }
    float* dx;
    unsigned* dh;
    hipMalloc(&dx, n * 4); hipMalloc(&dh, HIST_BINS * 4);
    hipMemcpy(dx, x.data(), n * 4, hipMemcpyHostToDevice);
    hipMemset(dh, 0, HIST_BINS * 4);
    histogram64<<<128, 256>>>(dx, dh, n);
    hipMemcpy(got.data(), dh, HIST_BINS * 4, hipMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < HIST_BINS; ++b) bad += got[b] != want[b];
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
