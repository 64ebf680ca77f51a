// block_reduce_sum.cu - first pass of a two-pass sum: a fixed grid of blocks
// walks the input with a grid-stride loop, each block reduces its threads'
// partial sums (warp shuffles, then one partial per warp in shared memory) and
// writes one value to block_sums[blockIdx.x]. The driver below runs the same
// kernel again on block_sums with a single block to finish the reduction.
//
// Pitfall: warp reduction loop `for (offset = warpSize / 2; offset > 0; offset /= 2)`
// mixed with 32-based warp bookkeeping: `__shared__ float partial[32]`, `lane = tid % 32`,
// `wid = tid / 32`, `blockDim.x / 32` warps, mask 0xffffffff;
// on wave64 with renames only: wrong numbers.
// Why: warpSize is 64 on CDNA, so the __shfl_down_sync tree starts at offset 32.
// Lane 0 ends with the sum of all 64 lanes of the wavefront, S(2k) + S(2k+1). In
// the first step lanes 32..63 have no source (32 + 32 >= 64), __shfl_down returns
// their own value and `v += ...` doubles it, so lane 32 (which is "lane 0" of
// 32-thread warp 2k+1 by the tid % 32 bookkeeping) ends with 2 * S(2k+1). Both
// store to partial[]: the block sum becomes S_even + 3 * S_odd, about 2x the true
// sum for data with similar halves. The second stage is run by every warp with
// lanes >= blockDim.x / 32 contributing 0, so it reads no inactive lanes.
// wave32 (RDNA, gfx1030): unaffected (warpSize == 32).

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__inline__ __device__ float warp_reduce_sum(float v) {
    for (int offset = 32 / 2; offset > 0; offset /= 2) {
        v += __shfl_down(v, offset, 32);
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
