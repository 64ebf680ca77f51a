// tiled_matmul.cu - C[M,N] = A[M,K] * B[K,N] (row-major), 16x16 shared-memory
// tiles, one output element per thread, zero padding for partial tiles so M, N
// and K need not be multiples of the tile.
//
// Pitfall: none in the kernel (__syncthreads only; the 16x16 thread block never
// uses warp collectives); host code times the launch with cudaEvent_t;
// on wave64 with renames only: unaffected.
// Why: a 256-thread block is 8 warps on NVIDIA and 4 wavefronts on CDNA, but the
// kernel only synchronises the whole block, so the grouping is invisible.

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TILE 16

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    const int phases = (K + TILE - 1) / TILE;
    for (int p = 0; p < phases; ++p) {
        const int a_col = p * TILE + tx;
        const int b_row = p * TILE + ty;
        As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();

#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }

    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}

#ifndef TILETRANS_CHECK

#define CHECK(x)                                                                    \
    do {                                                                            \
        hipError_t e = (x);                                                        \
        if (e != hipSuccess) {                                                     \
            printf("%s:%d %s\n", __FILE__, __LINE__, hipGetErrorString(e));        \
            return 1;                                                               \
        }                                                                           \
    } while (0)

int main() {
    const int M = 1000, N = 777, K = 513;
    std::vector<float> hA(size_t(M) * K), hB(size_t(K) * N), hC(size_t(M) * N);
    for (size_t i = 0; i < hA.size(); ++i) hA[i] = float(int(i % 17) - 8) / 8.f;
    for (size_t i = 0; i < hB.size(); ++i) hB[i] = float(int(i % 11) - 5) / 5.f;

    float *dA, *dB, *dC;
    CHECK(hipMalloc(&dA, hA.size() * sizeof(float)));
    CHECK(hipMalloc(&dB, hB.size() * sizeof(float)));
    CHECK(hipMalloc(&dC, hC.size() * sizeof(float)));
    CHECK(hipMemcpy(dA, hA.data(), hA.size() * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, hB.data(), hB.size() * sizeof(float), hipMemcpyHostToDevice));

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    hipEvent_t t0, t1;
    CHECK(hipEventCreate(&t0));
    CHECK(hipEventCreate(&t1));
    CHECK(hipEventRecord(t0));
    matmul_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(t1));
    CHECK(hipEventSynchronize(t1));
    float ms = 0;
    CHECK(hipEventElapsedTime(&ms, t0, t1));
    CHECK(hipMemcpy(hC.data(), dC, hC.size() * sizeof(float), hipMemcpyDeviceToHost));

    int bad = 0;
    for (int r = 0; r < M; r += 37) {
        for (int c = 0; c < N; c += 29) {
            double ref = 0;
            for (int k = 0; k < K; ++k) ref += double(hA[size_t(r) * K + k]) * hB[size_t(k) * N + c];
            if (std::abs(ref - hC[size_t(r) * N + c]) > 1e-3 * (1 + std::abs(ref))) ++bad;
        }
    }
    printf("matmul_tiled %dx%dx%d: %.3f ms, %.1f GFLOP/s, %s\n", M, N, K, ms,
           2.0 * M * N * K / (ms * 1e6), bad ? "FAIL" : "PASS");
    hipFree(dA);
    hipFree(dB);
    hipFree(dC);
    return bad != 0;
}

#endif  // TILETRANS_CHECK
