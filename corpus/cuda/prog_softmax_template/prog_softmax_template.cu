// prog_softmax_template.cu - a whole program: a softmax over rows, written as a
// template over the element type and the block size, launched as
// softmax_rows<float, 128>. The row max uses an xor butterfly of the program's own;
// the row sum uses block_sum from the local header warp_reduce.cuh.
//
// Pitfall: block_sum's lane-0 broadcast `__shfl_sync(FULL_MASK, v, 0)` over
// 32-lane warps (header), `tid % 32` partials;
// on wave64 with renames only: wrong numbers.
// Why: lanes 32..63 of a wavefront read lane 0's partial, so each row's sum of
// exponentials is wrong and so is every output. The xor butterfly from 16 keeps
// to 32-lane groups and is unaffected.
// wave32 (RDNA, gfx1030): unaffected.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "warp_reduce.cuh"

template <typename T>
__device__ T warp_max(T v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
    return v;
}

template <typename T, int BLOCK>
__global__ void softmax_rows(const T* __restrict__ x, T* __restrict__ y, int cols) {
    static_assert(BLOCK % WARP_SIZE == 0, "whole warps");
    __shared__ T row_max[BLOCK / WARP_SIZE];
    const T* in = x + (size_t)blockIdx.x * cols;
    T* out = y + (size_t)blockIdx.x * cols;
    T m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, in[c]);
    m = warp_max(m);
    if (threadIdx.x % WARP_SIZE == 0) row_max[threadIdx.x / WARP_SIZE] = m;
    __syncthreads();
    m = row_max[0];
    for (int w = 1; w < BLOCK / WARP_SIZE; ++w) m = fmaxf(m, row_max[w]);
    T s = 0;
    for (int c = threadIdx.x; c < cols; c += BLOCK) s += expf(in[c] - m);
    s = block_sum(s);
    for (int c = threadIdx.x; c < cols; c += BLOCK) out[c] = expf(in[c] - m) / s;
}

int main() {
    const int rows = 256, cols = 777;
    std::vector<float> h(size_t(rows) * cols), got(h.size());
    for (size_t i = 0; i < h.size(); ++i) h[i] = std::sin(float(i)) * 4.0f;
    float *dx, *dy;
    cudaMalloc(&dx, h.size() * sizeof(float));
    cudaMalloc(&dy, h.size() * sizeof(float));
    cudaMemcpy(dx, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
    softmax_rows<float, 128><<<rows, 128>>>(dx, dy, cols);
    cudaMemcpy(got.data(), dy, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows; ++r) {
        double s = 0;
        for (int c = 0; c < cols; ++c) s += got[(size_t)r * cols + c];
        bad += std::fabs(s - 1.0) > 1e-3;
    }
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    cudaFree(dx);
    cudaFree(dy);
    return bad != 0;
}
