// prog_argmax_files.cu - a whole program: the index of each row's largest value, one
// warp per row; the inputs and the expected indices are files (the check spec reads
// rows.npy and expects argmax.npy).
//
// Pitfall: (value, index) pairs reduced with `__shfl_down_sync(0xffffffff, ., o)` from 16,
// then lane 0's pair broadcast with `__shfl_sync(0xffffffff, best, 0)`, rows by `tid / 32`;
// on wave64 with renames only: wrong numbers.
// Why: lanes 32..63 read lane 0 of the wavefront, so every odd row gets the even
// row's index.
// wave32 (RDNA, gfx1030): unaffected.

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void row_argmax_warp(const float* __restrict__ x, int* __restrict__ idx, int rows, int cols) {
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    float best = -3.4e38f;
    int at = 0;
    if (row < rows)
        for (int c = lane; c < cols; c += 32)
            if (x[(size_t)row * cols + c] > best) { best = x[(size_t)row * cols + c]; at = c; }
    for (int o = 16; o > 0; o /= 2) {
        const float ob = __shfl_down_sync(0xffffffff, best, o);
        const int oa = __shfl_down_sync(0xffffffff, at, o);
        if (ob > best || (ob == best && oa < at)) { best = ob; at = oa; }
    }
    at = __shfl_sync(0xffffffff, at, 0);
    if (row < rows && lane == 1) idx[row] = at;
}

int main() {
    const int rows = 64, cols = 100;
    std::vector<float> x(size_t(rows) * cols);
    std::vector<int> got(rows);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float((i * 2654435761u) % 1000);
    float* dx;
    int* di;
    cudaMalloc(&dx, x.size() * 4); cudaMalloc(&di, rows * 4);
    cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice);
    row_argmax_warp<<<rows / 4, 128>>>(dx, di, rows, cols);
    cudaMemcpy(got.data(), di, rows * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < rows; ++r) {
        int a = 0;
        for (int c = 1; c < cols; ++c) if (x[(size_t)r * cols + c] > x[(size_t)r * cols + a]) a = c;
        bad += got[r] != a;
    }
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
