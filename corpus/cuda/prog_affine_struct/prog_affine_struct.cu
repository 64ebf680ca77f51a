// prog_affine_struct.cu - a whole program: an elementwise affine map with an
// activation, configured by a struct passed by value, an enum and a bool, plus a
// four-entry lookup table, in a grid-stride loop.
//
// Pitfall: none (control: struct, enum and bool kernel arguments, grid-stride loop);
// on wave64 with renames only: unaffected.
// Why: no warp-level operation; every thread works on its own elements.
// wave32 (RDNA, gfx1030): unaffected.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

enum Activation { ACT_NONE = 0, ACT_RELU = 1, ACT_TANH = 2 };

struct Affine {
    float scale;
    float bias;
    int period;  // the lookup table repeats every `period` elements
};

__device__ float activate(float v, Activation act) {
    switch (act) {
    case ACT_RELU: return v > 0.0f ? v : 0.0f;
    case ACT_TANH: return tanhf(v);
    default: return v;
    }
}

__global__ void affine_act(const float* __restrict__ x, const float* __restrict__ lut, float* __restrict__ y,
                           Affine a, Activation act, bool negate, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i] * a.scale + a.bias + lut[i % a.period];
        v = activate(v, act);
        y[i] = negate ? -v : v;
    }
}

int main() {
    const int n = 10000;
    std::vector<float> x(n), y(n), lut = {0.0f, 0.25f, -0.5f, 1.0f};
    for (int i = 0; i < n; ++i) x[i] = std::sin(0.01f * i);
    float *dx, *dl, *dy;
    cudaMalloc(&dx, n * 4); cudaMalloc(&dl, 16); cudaMalloc(&dy, n * 4);
    cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dl, lut.data(), 16, cudaMemcpyHostToDevice);
    Affine a{2.0f, 0.5f, 4};
    affine_act<<<32, 128>>>(dx, dl, dy, a, ACT_TANH, true, n);
    cudaMemcpy(y.data(), dy, n * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += std::fabs(y[i] + std::tanh(x[i] * 2.0f + 0.5f + lut[i % 4])) > 1e-5f;
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
