// fused_gelu.cu - out = gelu_tanh(x * w + b) in one pass over memory (the
// "multiply, add bias, activate" fusion used in transformer MLP blocks),
// grid-stride loop, driven from a stream with asynchronous copies.
//
// Pitfall: none in the kernel; host code uses cudaStream_t, cudaMemcpyAsync,
// cudaStreamSynchronize and cudaGetErrorString; on wave64 with renames only: unaffected.
// Why: purely elementwise; the grid-stride loop depends on gridDim/blockDim only,
// never on the warp width. A renames-only port must PASS.

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// tanh approximation of GELU, the same formula PyTorch uses for approximate='tanh'.
__device__ __forceinline__ float gelu_tanh(float h) {
    const float kSqrt2OverPi = 0.7978845608028654f;
    const float kCoeff = 0.044715f;
    const float inner = kSqrt2OverPi * (h + kCoeff * h * h * h);
    return 0.5f * h * (1.0f + tanhf(inner));
}

__global__ void fused_bias_gelu(const float* __restrict__ x, const float* __restrict__ w,
                                const float* __restrict__ b, float* __restrict__ out, int n) {
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float h = fmaf(x[i], w[i], b[i]);
        out[i] = gelu_tanh(h);
    }
}

#ifndef TILETRANS_CHECK

static void check(hipError_t e, const char* what) {
    if (e != hipSuccess) {
        fprintf(stderr, "CUDA error in %s: %s\n", what, hipGetErrorString(e));
        exit(1);
    }
}

int main() {
    const int n = 3 * 1000 * 1000 + 17;
    const size_t bytes = size_t(n) * sizeof(float);
    std::vector<float> hx(n), hw(n), hb(n), hout(n);
    for (int i = 0; i < n; ++i) {
        hx[i] = float((i * 37) % 2001 - 1000) / 250.f;
        hw[i] = 0.5f + float(i % 7) / 7.f;
        hb[i] = float(i % 13 - 6) / 10.f;
    }

    hipStream_t stream;
    check(hipStreamCreate(&stream), "cudaStreamCreate");
    float *dx, *dw, *db, *dout;
    check(hipMalloc(&dx, bytes), "cudaMalloc x");
    check(hipMalloc(&dw, bytes), "cudaMalloc w");
    check(hipMalloc(&db, bytes), "cudaMalloc b");
    check(hipMalloc(&dout, bytes), "cudaMalloc out");
    check(hipMemcpyAsync(dx, hx.data(), bytes, hipMemcpyHostToDevice, stream), "copy x");
    check(hipMemcpyAsync(dw, hw.data(), bytes, hipMemcpyHostToDevice, stream), "copy w");
    check(hipMemcpyAsync(db, hb.data(), bytes, hipMemcpyHostToDevice, stream), "copy b");

    int device = 0, sms = 0;
    check(hipGetDevice(&device), "cudaGetDevice");
    check(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device), "attr");
    const int threads = 256;
    const int blocks = sms * 8;
    fused_bias_gelu<<<blocks, threads, 0, stream>>>(dx, dw, db, dout, n);
    check(hipGetLastError(), "launch");
    check(hipMemcpyAsync(hout.data(), dout, bytes, hipMemcpyDeviceToHost, stream), "copy out");
    check(hipStreamSynchronize(stream), "sync");

    double max_err = 0;
    for (int i = 0; i < n; ++i) {
        const double h = double(hx[i]) * hw[i] + hb[i];
        const double ref = 0.5 * h * (1.0 + std::tanh(0.7978845608028654 * (h + 0.044715 * h * h * h)));
        max_err = std::fmax(max_err, std::fabs(ref - hout[i]));
    }
    printf("fused_bias_gelu: n=%d max_err=%g %s\n", n, max_err, max_err < 1e-5 ? "PASS" : "FAIL");

    hipFree(dx);
    hipFree(dw);
    hipFree(db);
    hipFree(dout);
    hipStreamDestroy(stream);
    return 0;
}

#endif  // TILETRANS_CHECK
