// fused_gelu.hipify.hip - renames-only HIP translation of fused_gelu.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see fused_gelu.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA gfx90a/gfx940): unaffected, PASS expected.
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): compiles for gfx90a, gfx940 and gfx1030.

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
    check(hipStreamCreate(&stream), "hipStreamCreate");
    float *dx, *dw, *db, *dout;
    check(hipMalloc(&dx, bytes), "hipMalloc x");
    check(hipMalloc(&dw, bytes), "hipMalloc w");
    check(hipMalloc(&db, bytes), "hipMalloc b");
    check(hipMalloc(&dout, bytes), "hipMalloc out");
    check(hipMemcpyAsync(dx, hx.data(), bytes, hipMemcpyHostToDevice, stream), "copy x");
    check(hipMemcpyAsync(dw, hw.data(), bytes, hipMemcpyHostToDevice, stream), "copy w");
    check(hipMemcpyAsync(db, hb.data(), bytes, hipMemcpyHostToDevice, stream), "copy b");

    int device = 0, sms = 0;
    check(hipGetDevice(&device), "hipGetDevice");
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
