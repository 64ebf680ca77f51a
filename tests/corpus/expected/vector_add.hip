// vector_add.cu - c[i] = a[i] + b[i], one thread per element, plus a small
// stand-alone driver (allocation, copies, timing with events, error checks).
//
// Pitfall: none in the kernel; the host code is pure CUDA runtime API
// (cudaMalloc, cudaMemcpy, cudaEvent_t, cudaGetErrorString, cudaDeviceSynchronize)
// that only needs renaming; on wave64 with renames only: unaffected.
// Why: no thread ever talks to another thread; the warp width never enters the
// computation, so 32, 64 or any other wavefront size gives the same numbers.
// This is the control case: a renames-only port must PASS.

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

#ifndef TILETRANS_CHECK

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        hipError_t err_ = (call);                                                \
        if (err_ != hipSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,  \
                    hipGetErrorString(err_));                                    \
            exit(EXIT_FAILURE);                                                   \
        }                                                                         \
    } while (0)

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : (1 << 24) + 7;
    const size_t bytes = size_t(n) * sizeof(float);

    std::vector<float> h_a(n), h_b(n), h_c(n);
    for (int i = 0; i < n; ++i) {
        h_a[i] = std::sin(0.001f * i);
        h_b[i] = std::cos(0.002f * i);
    }

    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CUDA_CHECK(hipMalloc(&d_a, bytes));
    CUDA_CHECK(hipMalloc(&d_b, bytes));
    CUDA_CHECK(hipMalloc(&d_c, bytes));
    CUDA_CHECK(hipMemcpy(d_a, h_a.data(), bytes, hipMemcpyHostToDevice));
    CUDA_CHECK(hipMemcpy(d_b, h_b.data(), bytes, hipMemcpyHostToDevice));

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;

    hipEvent_t start, stop;
    CUDA_CHECK(hipEventCreate(&start));
    CUDA_CHECK(hipEventCreate(&stop));
    CUDA_CHECK(hipEventRecord(start));
    vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipEventRecord(stop));
    CUDA_CHECK(hipEventSynchronize(stop));
    float ms = 0.f;
    CUDA_CHECK(hipEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(hipDeviceSynchronize());

    CUDA_CHECK(hipMemcpy(h_c.data(), d_c, bytes, hipMemcpyDeviceToHost));
    double max_err = 0.0;
    for (int i = 0; i < n; ++i) {
        max_err = std::fmax(max_err, std::fabs(double(h_c[i]) - (double(h_a[i]) + h_b[i])));
    }
    printf("vector_add: n=%d  %.3f ms  %.1f GB/s  max_err=%g  %s\n", n, ms,
           3.0 * bytes / (ms * 1e6), max_err, max_err < 1e-6 ? "PASS" : "FAIL");

    CUDA_CHECK(hipEventDestroy(start));
    CUDA_CHECK(hipEventDestroy(stop));
    CUDA_CHECK(hipFree(d_a));
    CUDA_CHECK(hipFree(d_b));
    CUDA_CHECK(hipFree(d_c));
    return max_err < 1e-6 ? 0 : 1;
}

#endif  // TILETRANS_CHECK
