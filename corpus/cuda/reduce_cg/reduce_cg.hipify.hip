// reduce_cg.hipify.hip - renames-only HIP translation of reduce_cg.cu.
// It is what hipify-perl produces: headers and cuda* runtime names renamed, <<<...>>> launches
// kept, and everything warp-related (__*_sync intrinsics, masks, ballots, 32s,
// warpSize) left exactly as written. It exists to show that renaming is not porting;
// see reduce_cg.cu for the kernel and for why it behaves as stated below.
//
// Warp 64 (CDNA): numbers unaffected (thread_block_tile<32> shuffles use width 32).
// Warp 32 (RDNA gfx1030): unaffected.
// hipcc 5.2 (Debian): does not compile, for a reason unrelated to warps: HIP 5.2's
// hip_cooperative_groups.h uses hipBlockDim_x & co. from hip_runtime.h, and the
// original include order (cooperative groups first) is kept. With
// <hip/hip_runtime.h> included first it compiles for gfx90a, gfx940 and gfx1030.

#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK_SIZE 256  // the kernel must be launched with exactly this many threads

__global__ void reduce_cg(const float* __restrict__ g_in, float* __restrict__ g_out,
                          unsigned int n) {
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float sdata[BLOCK_SIZE];

    const unsigned int tid = threadIdx.x;
    const unsigned int grid_size = BLOCK_SIZE * 2 * gridDim.x;
    float sum = 0.0f;
    for (unsigned int i = blockIdx.x * BLOCK_SIZE * 2 + tid; i < n; i += grid_size) {
        sum += g_in[i];
        if (i + BLOCK_SIZE < n) sum += g_in[i + BLOCK_SIZE];
    }
    sdata[tid] = sum;
    cg::sync(cta);

    // shared-memory tree down to 64 partials
#pragma unroll
    for (unsigned int s = BLOCK_SIZE / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
        cg::sync(cta);
    }

    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32) {
        sum += sdata[tid + 32];
        for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
            sum += tile32.shfl_down(sum, offset);
        }
    }
    if (cta.thread_rank() == 0) g_out[blockIdx.x] = sum;
}
