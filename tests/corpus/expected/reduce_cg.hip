// reduce_cg.cu - block sum in the style of the classic CUDA reduction samples,
// rewritten with cooperative groups: each thread adds two elements per grid-stride
// step, the block halves a shared array down to 64 partials with cta.sync(), and
// the last 32 threads finish with a thread_block_tile<32> obtained from
// cg::tiled_partition<32>, reading sdata[tid + 32] and shuffling down from 16.
//
// Pitfall: `cg::tiled_partition<32>(cta)`, `tile32.shfl_down` from
// `tile32.size() / 2`, the `cta.thread_rank() < 32` tail that assumes 32 threads
// finish the sum, `BLOCK_SIZE / 32`-style shared tree;
// on wave64 with renames only: unaffected.
// Why: HIP implements thread_block_tile<32> as a real 32-lane tile on a 64-lane
// wavefront: its shuffles pass width = 32 (`__shfl_down(v, d, 32)`), and its
// thread_rank() is the block rank & 31. The tail runs on lanes 0..31 of the first
// wavefront only, the shuffles never leave them, and lanes 32..63 (idle in that
// branch) are never read. This is 32-lane logical warps done right (porting
// strategy 1) by the library. Renames: cooperative_groups.h becomes
// hip/hip_cooperative_groups.h; hipcc 5.2 compiles it.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>
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
