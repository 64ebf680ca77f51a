// row_l2_normalize.cu - y[r, :] = x[r, :] / max(||x[r, :]||_2, eps), the
// F.normalize(x, dim=-1) kernel, one warp per row: the kernel is launched with
// 32-thread blocks, one block per row, so the "warp" is the whole block.
//
// Pitfall: column loops strided by the built-in `warpSize` in a kernel that is
// always launched with 32-thread blocks (`for (c = lane; c < ncols; c += warpSize)`),
// xor butterfly from offset 16 (`mask >>= 1`) with mask 0xffffffff;
// on wave64 with renames only: wrong numbers.
// Why: a 32-thread block on CDNA is half a wavefront (lanes 32..63 do not exist),
// but warpSize is 64, so the 32 live lanes visit columns [0,32), [64,96), ... and
// skip [32,64), [96,128), ...: the norm is computed from half the row and half of
// the outputs are never written. The xor butterfly from 16 itself is fine: it
// stays inside lanes 0..31 and never touches the missing lanes.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

__global__ void l2_normalize_rows(const float* __restrict__ x, float* __restrict__ y,
                                  int ncols, float eps) {
    const int lane = threadIdx.x;  // blockDim.x == 32: one warp per row
    const float* xr = x + size_t(blockIdx.x) * ncols;
    float* yr = y + size_t(blockIdx.x) * ncols;

    float ss = 0.0f;
    for (int c = lane; c < ncols; c += 32) {
        const float v = xr[c];
        ss = fmaf(v, v, ss);
    }
    for (int mask = 16; mask >= 1; mask >>= 1) {
        ss += __shfl_xor(ss, mask, 32);
    }

    const float inv_norm = 1.0f / fmaxf(sqrtf(ss), eps);
    for (int c = lane; c < ncols; c += 32) {
        yr[c] = xr[c] * inv_norm;
    }
}
