// prog_row_sum_header.cu - a whole program: one block per row sums the row with the
// helpers of the local header warp_reduce.cuh (which also declares the __shared__
// buffer), checks the sums on the host, and times a cuBLAS-free run. cublas_v2.h is
// included as real programs do, for the host code; the kernel does not use it.
//
// Pitfall: warp_sum_bcast reduces 32 lanes (`WARP_SIZE / 2` down, FULL_MASK) and
// broadcasts lane 0 with `__shfl_sync(FULL_MASK, v, 0)`; block_sum indexes partials
// by `tid % 32`, `tid / 32`;
// on wave64 with renames only: wrong numbers.
// Why: on a 64-lane wavefront `__shfl_sync(mask, v, 0)` reads lane 0 of the whole
// wavefront, so lanes 32..63 (the odd 32-thread "warps") publish the even warp's
// partial; every row sum counts the even halves twice and the odd halves never.
// wave32 (RDNA, gfx1030): unaffected.

/* tiletrans-ignore: hip-unsupported-host-library -- left unported: CUDA host library (cuBLAS, cuDNN, cuRAND, cuFFT, cuSPARSE, cuSOLVER, NCCL, NVTX) kept as it is: tiletrans does not map library APIs */ #include <cublas_v2.h>
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "warp_reduce.cuh"

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        hipError_t e_ = (call);                                                      \
        if (e_ != hipSuccess) {                                                      \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(e_)); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

__global__ void row_sums(const float* __restrict__ x, float* __restrict__ sums, int cols) {
    const float* row = x + (size_t)blockIdx.x * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += row[c];
    acc = block_sum(acc);
    if (threadIdx.x == 0) sums[blockIdx.x] = acc;
}

static void cpu_row_sums(const std::vector<float>& x, std::vector<float>& s, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        double a = 0;
        for (int c = 0; c < cols; ++c) a += x[(size_t)r * cols + c];
        s[r] = (float)a;
    }
}

int main() {
    const int rows = 512, cols = 1000, threads = 256;
    std::vector<float> h(size_t(rows) * cols), want(rows), got(rows);
    for (size_t i = 0; i < h.size(); ++i) h[i] = float(i % 97) / 97.0f - 0.5f;
    cpu_row_sums(h, want, rows, cols);
    cublasHandle_t handle;  // the host side of a real program uses cuBLAS
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    float *dx, *ds;
    CUDA_CHECK(hipMalloc(&dx, h.size() * sizeof(float)));
    CUDA_CHECK(hipMalloc(&ds, rows * sizeof(float)));
    CUDA_CHECK(hipMemcpy(dx, h.data(), h.size() * sizeof(float), hipMemcpyHostToDevice));
    row_sums<<<rows, threads>>>(dx, ds, cols);
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipMemcpy(got.data(), ds, rows * sizeof(float), hipMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < rows; ++r) bad += std::fabs(got[r] - want[r]) > 1e-3f * (1 + std::fabs(want[r]));
    std::printf("%s (%d of %d rows wrong)\n", bad ? "FAIL" : "PASS", bad, rows);
    cublasDestroy(handle);
    hipFree(dx);
    hipFree(ds);
    return bad != 0;
}
