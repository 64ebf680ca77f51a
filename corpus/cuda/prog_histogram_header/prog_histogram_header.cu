// prog_histogram_header.cu - a whole program: a 64-bin histogram of values in [0, 1),
// each block counting into the __shared__ histogram of the local header
// hist_smem.cuh, then adding it to the global one.
//
// Pitfall: none (control: __shared__ declared in an included header, shared and global
// atomics);
// on wave64 with renames only: unaffected.
// Why: no warp-level operation.
// wave32 (RDNA, gfx1030): unaffected.

#include <cuda_runtime.h>

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
    cudaMalloc(&dx, n * 4); cudaMalloc(&dh, HIST_BINS * 4);
    cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemset(dh, 0, HIST_BINS * 4);
    histogram64<<<128, 256>>>(dx, dh, n);
    cudaMemcpy(got.data(), dh, HIST_BINS * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < HIST_BINS; ++b) bad += got[b] != want[b];
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
