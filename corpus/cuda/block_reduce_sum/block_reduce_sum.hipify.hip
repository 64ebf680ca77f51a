// block_reduce_sum.hipify.hip - renames-only HIP translation of block_reduce_sum.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see block_reduce_sum.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): wrong numbers - warpSize / 2 = 32 first offset; each block sum
// comes out about 2x (odd 32-thread groups counted three times).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile (__shfl_down_sync undeclared).
// ROCm >= 6.2: 0xffffffff mask rejected by static_assert.

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__inline__ __device__ float warp_reduce_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;  // valid in lane 0
}

__global__ void block_reduce_sum(const float* __restrict__ in, float* __restrict__ block_sums,
                                 int n) {
    __shared__ float partial[32];  // 1024 threads / 32 = at most 32 warps

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int wid = tid / 32;

    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }

    sum = warp_reduce_sum(sum);
    if (lane == 0) partial[wid] = sum;
    __syncthreads();

    // every warp runs the second stage so that no lane of a warp sits it out
    sum = (tid < blockDim.x / 32) ? partial[lane] : 0.0f;
    sum = warp_reduce_sum(sum);
    if (tid == 0) block_sums[blockIdx.x] = sum;
}

#ifndef TILETRANS_CHECK

#define CUDA_CHECK(call)                                                           \
    do {                                                                           \
        hipError_t status = (call);                                               \
        if (status != hipSuccess) {                                               \
            fprintf(stderr, "CUDA error %s at %s:%d\n", hipGetErrorString(status), \
                    __FILE__, __LINE__);                                           \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

int main() {
    const int n = 50 * 1000 * 1000 + 3;
    const int threads = 256, blocks = 1024;
    std::vector<float> h(n);
    double ref = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = float(i % 1000) / 1000.f;
        ref += h[i];
    }
    float *d_in, *d_partial, *d_out;
    CUDA_CHECK(hipMalloc(&d_in, size_t(n) * sizeof(float)));
    CUDA_CHECK(hipMalloc(&d_partial, blocks * sizeof(float)));
    CUDA_CHECK(hipMalloc(&d_out, sizeof(float)));
    CUDA_CHECK(hipMemcpy(d_in, h.data(), size_t(n) * sizeof(float), hipMemcpyHostToDevice));

    block_reduce_sum<<<blocks, threads>>>(d_in, d_partial, n);
    CUDA_CHECK(hipGetLastError());
    block_reduce_sum<<<1, 1024>>>(d_partial, d_out, blocks);
    CUDA_CHECK(hipGetLastError());
    CUDA_CHECK(hipDeviceSynchronize());

    float got = 0;
    CUDA_CHECK(hipMemcpy(&got, d_out, sizeof(float), hipMemcpyDeviceToHost));
    printf("sum = %.6e (ref %.6e, rel err %.2e)\n", got, ref, std::abs(got - ref) / ref);
    CUDA_CHECK(hipFree(d_in));
    CUDA_CHECK(hipFree(d_partial));
    CUDA_CHECK(hipFree(d_out));
    return 0;
}

#endif  // TILETRANS_CHECK
