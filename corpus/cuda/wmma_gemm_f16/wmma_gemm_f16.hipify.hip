// wmma_gemm_f16.hipify.hip - renames-only HIP translation of wmma_gemm_f16.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see wmma_gemm_f16.cu for the kernel and for why it behaves as stated below.
//
// Unsupported: nvcuda::wmma has no HIP equivalent (rocWMMA or MFMA builtins by hand).
// hipcc 5.2 (Debian): does not compile ('mma.h' file not found; without it,
// namespace nvcuda / wmma are undeclared).

#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include <mma.h>

using namespace nvcuda;

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
    wmma::fill_fragment(acc, 0.0f);

    for (int k = 0; k < K; k += WMMA_K) {
        wmma::load_matrix_sync(a_frag, A + size_t(row0) * K + k, K);
        wmma::load_matrix_sync(b_frag, B + size_t(col0) * K + k, K);
        wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
    wmma::store_matrix_sync(C + size_t(row0) * N + col0, acc, N, wmma::mem_row_major);
}
