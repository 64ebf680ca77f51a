// prog_bf16_rmsnorm.cu - a whole program: RMS norm over rows of bfloat16, one warp
// per row (blockDim.x / 32 rows per block), accumulating in float.
//
// Pitfall: xor butterfly from 16 (`0xffffffff`), `lane = threadIdx.x & 31`, row by
// `threadIdx.x >> 5`;
// on wave64 with renames only: unaffected.
// Why: every shuffle stays inside its 32-lane group and the row index follows the same
// groups, so a 64-lane wavefront simply carries two rows. (HIP 5.2 has no
// __nv_bfloat16: a renames-only port does not build there.)
// wave32 (RDNA, gfx1030): unaffected.

#include "tiletrans_hip_compat.h"
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void rmsnorm_bf16(const __hip_bfloat16* __restrict__ x, const __hip_bfloat16* __restrict__ w,
                             __hip_bfloat16* __restrict__ y, int rows, int cols) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const __hip_bfloat16* in = x + (size_t)row * cols;
    float ss = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        const float v = __bfloat162float(in[c]);
        ss += v * v;
    }
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor(ss, o, 32);
    const float inv = rsqrtf(ss / cols + 1e-6f);
    for (int c = lane; c < cols; c += 32)
        y[(size_t)row * cols + c] = __float2bfloat16(__bfloat162float(in[c]) * inv * __bfloat162float(w[c]));
}

int main() {
    const int rows = 300, cols = 512;
    std::vector<__hip_bfloat16> x(size_t(rows) * cols), w(cols), y(x.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = __float2bfloat16(std::sin(0.1f * i));
    for (int c = 0; c < cols; ++c) w[c] = __float2bfloat16(1.0f);
    __hip_bfloat16 *dx, *dw, *dy;
    hipMalloc(&dx, x.size() * 2); hipMalloc(&dw, cols * 2); hipMalloc(&dy, y.size() * 2);
    hipMemcpy(dx, x.data(), x.size() * 2, hipMemcpyHostToDevice);
    hipMemcpy(dw, w.data(), cols * 2, hipMemcpyHostToDevice);
    rmsnorm_bf16<<<(rows + 3) / 4, 128>>>(dx, dw, dy, rows, cols);
    hipMemcpy(y.data(), dy, y.size() * 2, hipMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows; ++r) {
        double ss = 0;
        for (int c = 0; c < cols; ++c) ss += double(__bfloat162float(x[(size_t)r * cols + c])) * __bfloat162float(x[(size_t)r * cols + c]);
        const double inv = 1.0 / std::sqrt(ss / cols + 1e-6);
        for (int c = 0; c < cols; ++c)
            bad += std::fabs(__bfloat162float(y[(size_t)r * cols + c]) - __bfloat162float(x[(size_t)r * cols + c]) * inv) > 2e-2;
    }
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
