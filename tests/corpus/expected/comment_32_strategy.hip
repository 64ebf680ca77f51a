// comment_32_strategy.cu - near miss: a warp-per-row reduction written only with
// warpSize. Its comments talk about "32 lanes" and "/ 32", but the code never
// assumes 32: the porting strategy must come from code (native wavefront), not from
// the comments, and nothing here is a 32-lane assumption.
#include <hip/hip_runtime.h>

// Each warp (32 lanes on NVIDIA, so rows = threads / 32 per block) reduces one row.
__global__ void row_means(const float* __restrict__ m, float* __restrict__ means, int rows, int cols) {
    const int warps_per_block = blockDim.x / warpSize;      // e.g. 256 / 32 = 8
    const int row = blockIdx.x * warps_per_block + threadIdx.x / warpSize;
    const int lane = threadIdx.x % warpSize;                // 0..31 on NVIDIA
    if (row >= rows) return;
    float s = 0.0f;
    for (int c = lane; c < cols; c += warpSize) s += m[row * cols + c];
    for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_down(s, o);
    if (lane == 0) means[row] = s / cols;                   // "/ 32" would be wrong here
}
