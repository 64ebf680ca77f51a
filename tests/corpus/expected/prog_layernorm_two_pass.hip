// prog_layernorm_two_pass.cu - a whole program: layer norm in two passes, as llm.c's
// layernorm_forward does with separate statistics. Pass 1 (row_stats) reduces each
// row to its mean and 1/std with block_sum from warp_reduce.cuh; pass 2
// (normalize_rows) applies them with weight and bias, one thread per element.
//
// Pitfall: block_sum's `__shfl_sync(FULL_MASK, v, 0)` broadcast over 32-lane warps
// (header), `tid % 32` partials;
// on wave64 with renames only: wrong numbers.
// Why: the odd 32-thread warps publish the even warp's partial, so mean and rstd are
// wrong and so is every normalised element of pass 2.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "warp_reduce.cuh"

__global__ void row_stats(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ rstd, int C) {
    const float* row = x + (size_t)blockIdx.x * C;
    float s = 0.0f;
    for (int c = threadIdx.x; c < C; c += blockDim.x) s += row[c];
    const float m = block_sum(s) / C;
    float v = 0.0f;
    for (int c = threadIdx.x; c < C; c += blockDim.x) v += (row[c] - m) * (row[c] - m);
    v = block_sum(v) / C;
    if (threadIdx.x == 0) {
        mean[blockIdx.x] = m;
        rstd[blockIdx.x] = rsqrtf(v + 1e-5f);
    }
}

__global__ void normalize_rows(const float* __restrict__ x, const float* __restrict__ mean,
                               const float* __restrict__ rstd, const float* __restrict__ w,
                               const float* __restrict__ b, float* __restrict__ y, int N, int C) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * C) return;
    const int r = i / C, c = i % C;
    y[i] = (x[i] - mean[r]) * rstd[r] * w[c] + b[c];
}

int main() {
    const int N = 128, C = 768;
    std::vector<float> x(size_t(N) * C), w(C), b(C), y(x.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.37f * i);
    for (int c = 0; c < C; ++c) { w[c] = 1.0f + 0.001f * c; b[c] = 0.01f * (c % 7); }
    float *dx, *dm, *dr, *dw, *db, *dy;
    hipMalloc(&dx, x.size() * 4); hipMalloc(&dy, x.size() * 4);
    hipMalloc(&dm, N * 4); hipMalloc(&dr, N * 4); hipMalloc(&dw, C * 4); hipMalloc(&db, C * 4);
    hipMemcpy(dx, x.data(), x.size() * 4, hipMemcpyHostToDevice);
    hipMemcpy(dw, w.data(), C * 4, hipMemcpyHostToDevice);
    hipMemcpy(db, b.data(), C * 4, hipMemcpyHostToDevice);
    row_stats<<<N, 256>>>(dx, dm, dr, C);
    normalize_rows<<<(N * C + 255) / 256, 256>>>(dx, dm, dr, dw, db, dy, N, C);
    hipMemcpy(y.data(), dy, y.size() * 4, hipMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < N; ++r) {
        double m = 0, v = 0;
        for (int c = 0; c < C; ++c) m += x[(size_t)r * C + c];
        m /= C;
        for (int c = 0; c < C; ++c) v += (x[(size_t)r * C + c] - m) * (x[(size_t)r * C + c] - m);
        const double rs = 1.0 / std::sqrt(v / C + 1e-5);
        for (int c = 0; c < C; ++c)
            bad += std::fabs(y[(size_t)r * C + c] - ((x[(size_t)r * C + c] - m) * rs * w[c] + b[c])) > 1e-3;
    }
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
