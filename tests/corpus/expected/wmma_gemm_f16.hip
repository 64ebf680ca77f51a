// wmma_gemm_f16.cu - C = A * B with half inputs and float accumulation on tensor
// cores through the nvcuda::wmma fragment API: each warp owns one 16x16 tile of C
// and walks K in steps of 16 with load_matrix_sync / mma_sync. M, N, K must be
// multiples of 16; A is row-major, B column-major, C row-major.
//
// Pitfall: `#include <mma.h>`, `nvcuda::wmma::fragment`, `load_matrix_sync`,
// `mma_sync`, `store_matrix_sync`, warp id `threadIdx.x / warpSize` (one warp = one
// fragment owner); on wave64 with renames only: unsupported (does not compile for AMD).
// Why: WMMA fragments are an NVIDIA warp-level (32-lane) tensor-core API with an
// opaque per-lane data layout. HIP has no nvcuda::wmma; the AMD counterpart is
// rocWMMA (rocwmma::fragment, 64-lane wavefronts on CDNA, different supported
// tile shapes) or MFMA builtins, which need a manual port. hipify-perl leaves this
// code untouched. No check spec: this file exists for "unsupported" reporting.

#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include /* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ <mma.h>

using namespace /* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

// grid: (N / 16 / warps_per_block_x, M / 16); block: (32 * warps_per_block_x, 1).
__global__ void wmma_gemm_f16(const half* __restrict__ A, const half* __restrict__ B,
                              float* __restrict__ C, int M, int N, int K) {
    const int warp_n = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    const int warp_m = blockIdx.y;
    const int row0 = warp_m * WMMA_M;
    const int col0 = warp_n * WMMA_N;
    if (row0 >= M || col0 >= N) return;

    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc;
    wmma::/* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ fill_fragment(acc, 0.0f);

    for (int k = 0; k < K; k += WMMA_K) {
        wmma::/* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ load_matrix_sync(a_frag, A + size_t(row0) * K + k, K);
        wmma::/* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ load_matrix_sync(b_frag, B + size_t(col0) * K + k, K);
        wmma::/* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ mma_sync(acc, a_frag, b_frag, acc);
    }
    wmma::/* tiletrans-ignore: hip-unsupported-wmma -- left unported: `nvcuda::wmma` tensor-core API (no HIP equivalent; port to rocWMMA or MFMA by hand) */ store_matrix_sync(C + size_t(row0) * N + col0, acc, N, wmma::mem_row_major);
}
