// template_group_sum.hipify.hip - renames-only HIP translation of template_group_sum.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see template_group_sum.cu for the kernel and for why it behaves as stated there.

// template_group_sum.cu - row sums of a (rows x 32) matrix, one 32-lane warp per row:
// a templated helper `group_sum<WIDTH>` reduces WIDTH lanes with a xor butterfly, and
// the kernel (blockDim.x / 32 rows per block) keeps lane 0's result.
//
// Pitfall: the butterfly's width is a template parameter, instantiated with
// `kWarpWidth = 32`, and its offsets start at WIDTH / 2; the shuffles pass WIDTH;
// rows and lanes from `threadIdx.x / 32` and `threadIdx.x % 32`. With renames only:
// right on wave64 (every shuffle has width 32, each half of a wavefront reduces one
// row) but it does not compile on ROCm >= 6.2, whose __shfl_xor_sync rejects the
// 32-bit mask, nor on hipcc 5.2, which has no __shfl_xor_sync.
// The tiletrans port keeps 32-lane logical warps: mask-free __shfl_xor with width 32.

#include <hip/hip_runtime.h>

constexpr int kWarpWidth = 32;

template <int WIDTH>
__device__ float group_sum(float v) {
    for (int o = WIDTH / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, WIDTH);
    return v;
}

__global__ void row_sums(const float* __restrict__ m, float* __restrict__ sums, int rows) {
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const float v = row < rows ? m[row * kWarpWidth + lane] : 0.0f;
    const float s = group_sum<kWarpWidth>(v);
    if (lane == 0 && row < rows) sums[row] = s;
}
