// near-miss: host_grid_mod32.cu - pitched 2D bias-add with all the "32" logic
// on the host: row pitch rounded up to a multiple of 32 floats, grid sizes from
// (n + 31) / 32, a remainder computed with % 32.
//
// Looks like: `% 32`, `(cols + 31) / 32`, `/ 32`, `& ~31`, 32-wide thread blocks.
// Correct on wave64 because: this arithmetic runs on the CPU and only chooses
// memory layout (a 128-byte aligned pitch) and launch geometry. The device code
// maps one thread to one element with a bounds check, so any block shape and any
// wavefront size computes the same result; a (32, 8) block is simply 256
// independent threads.

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

// out[r * pitch + c] = in[r * pitch + c] + bias[c] for c < cols; padding is left untouched.
__global__ void add_bias_pitched(const float* __restrict__ in, const float* __restrict__ bias,
                                 float* __restrict__ out, int rows, int cols, int pitch) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[size_t(r) * pitch + c] = in[size_t(r) * pitch + c] + bias[c];
}

#ifndef TILETRANS_CHECK

static int round_up_32(int v) { return (v + 31) & ~31; }

int main() {
    const int rows = 1000, cols = 1000;
    const int pitch = round_up_32(cols);  // floats per padded row
    const int tail = cols % 32;           // valid floats in the last 32-float segment
    printf("pitch %d floats, %d full segments, tail %d\n", pitch, cols / 32, tail);

    std::vector<float> h_in(size_t(rows) * pitch, 0.f), h_bias(cols), h_out(size_t(rows) * pitch, 0.f);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) h_in[size_t(r) * pitch + c] = float((r * 31 + c) % 97);
    for (int c = 0; c < cols; ++c) h_bias[c] = 0.5f * c;

    float *d_in, *d_bias, *d_out;
    hipMalloc(&d_in, h_in.size() * sizeof(float));
    hipMalloc(&d_bias, cols * sizeof(float));
    hipMalloc(&d_out, h_out.size() * sizeof(float));
    hipMemcpy(d_in, h_in.data(), h_in.size() * sizeof(float), hipMemcpyHostToDevice);
    hipMemcpy(d_bias, h_bias.data(), cols * sizeof(float), hipMemcpyHostToDevice);
    hipMemset(d_out, 0, h_out.size() * sizeof(float));

    const dim3 block(32, 8);
    const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    add_bias_pitched<<<grid, block>>>(d_in, d_bias, d_out, rows, cols, pitch);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipMemcpy(h_out.data(), d_out, h_out.size() * sizeof(float), hipMemcpyDeviceToHost);

    int bad = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            bad += h_out[size_t(r) * pitch + c] != h_in[size_t(r) * pitch + c] + h_bias[c];
    printf("add_bias_pitched: %s\n", bad ? "FAIL" : "PASS");
    hipFree(d_in);
    hipFree(d_bias);
    hipFree(d_out);
    return bad != 0;
}

#endif  // TILETRANS_CHECK
