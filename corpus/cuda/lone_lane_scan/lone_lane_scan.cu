// lone_lane_scan.cu - per-block inclusive scan of int32 in the style of a
// warp-primitives library: lane and warp ids from bit operations, a Kogge-Stone scan
// with __shfl_up_sync inside each warp, warp totals in shared memory, a second scan
// over the totals by warp 0. The file never mentions warpSize.
//
// Pitfall: `lane = threadIdx.x & 0x1f`, `warp = threadIdx.x >> 5`,
// `lane == 31` publishes a warp total, `blockDim.x >> 5` warps, shuffles without a
// width; on wave64 with renames only: wrong scans, and with the masks widened to 64
// bits a deadlock.
// Why: HIP's default shuffle width is the 64-lane wavefront, so `__shfl_up(x, o)` in
// lane 32 reads lane 32 - o of the *other* 32-lane warp: the upper warp's prefix
// includes the lower warp's values. In the second stage only warp 0 (`warp == 0`,
// lanes 0..31) shuffles with a 64-lane mask, naming lanes 32..63 that wait at
// __syncthreads: a strict executor reports a deadlock.
// The tiletrans port keeps 32-lane logical warps (every shuffle gets width 32).
// wave32 (RDNA, gfx1030): unaffected.

#include <cuda_runtime.h>

__global__ void block_scan_bits(const int* __restrict__ in, int* __restrict__ out, int n) {
    __shared__ int totals[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 0x1f;
    const int warp = threadIdx.x >> 5;
    int x = i < n ? in[i] : 0;
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffff, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) totals[warp] = x;
    __syncthreads();
    if (warp == 0) {
        int t = lane < (int)(blockDim.x >> 5) ? totals[lane] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            const int y = __shfl_up_sync(0xffffffff, t, o);
            if (lane >= o) t += y;
        }
        totals[lane] = t;
    }
    __syncthreads();
    if (i < n) out[i] = x + (warp > 0 ? totals[warp - 1] : 0);
}
