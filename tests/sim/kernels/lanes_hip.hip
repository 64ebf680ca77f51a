#include <hip/hip_runtime.h>
// One block per source operand b; each lane stores the lane it received.
__global__ void lanes_hip(int *out, int mode, int w)
{
    int lane = threadIdx.x, b = blockIdx.x, r = -1;
    if (mode == 0) r = __shfl(lane, b, w);
    if (mode == 1) r = __shfl_up(lane, (unsigned)b, w);
    if (mode == 2) r = __shfl_down(lane, (unsigned)b, w);
    if (mode == 3) r = __shfl_xor(lane, b, w);
    if (mode == 4) r = __shfl_xor_sync(0xffffffffffffffffull, lane, b, w);
    out[b * blockDim.x + lane] = r;
}

// ballot over a possibly partial wavefront
__global__ void ballot_hip(unsigned long long *out)
{
    out[threadIdx.x] = __ballot(threadIdx.x % 3 == 0);
}

// a 32-thread block on wave64 reads lanes 32..63 through a shuffle
__global__ void partial_read_hip(float *out)
{
    float v = threadIdx.x;
    for (int o = 32; o > 0; o /= 2) v += __shfl_down(v, o);
    out[threadIdx.x] = v;
}

// the same reduction written for 32-lane groups: never leaves its half
__global__ void partial_ok_hip(float *out)
{
    float v = threadIdx.x;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o, 32);
    out[threadIdx.x] = v;
}

// Shuffle chains: the same loops twice, rewritten into chains by
// tt_xf_prepare_source (run as one collective when the whole warp takes
// part) and kept shuffle by shuffle by the comment inside (the prep leaves
// such loops alone).  Both must give the same values bit for bit.
__global__ void chains_fused(float *fout, int *iout)
{
    unsigned lane = threadIdx.x % warpSize;
    float v = threadIdx.x * 0.37f;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
    int m = (threadIdx.x * 7919) % 1000;
    for (int o = 1; o < warpSize; o *= 2) m = max(m, __shfl_down(m, o));
    int u = threadIdx.x;
    for (int o = 1; o < 8; o *= 2) u = u * 3 + __shfl_up(u, o, 16);
    // only the lower 32 lanes loop: on wave64 not the whole warp, so not fused
    float h = threadIdx.x;
    for (int o = 16; o > 0 && lane < 32; o /= 2) h = fmaxf(h, __shfl_xor(h, o, 32)) * 0.5f;
    // more steps than a probe records: the loop runs as written
    int z = threadIdx.x;
    for (int i = 0; i < 20; i++) z = (z * 2 + __shfl_xor(z, (i & 3) + 1) + 1) & 0xffff;
    u += z;
    fout[2 * threadIdx.x] = v;
    fout[2 * threadIdx.x + 1] = h;
    iout[2 * threadIdx.x] = m;
    iout[2 * threadIdx.x + 1] = u;
}

__global__ void chains_stepwise(float *fout, int *iout)
{
    unsigned lane = threadIdx.x % warpSize;
    float v = threadIdx.x * 0.37f;
    for (int o = warpSize / 2; o > 0; o /= 2) /* step */ v += __shfl_xor(v, o);
    int m = (threadIdx.x * 7919) % 1000;
    for (int o = 1; o < warpSize; o *= 2) /* step */ m = max(m, __shfl_down(m, o));
    int u = threadIdx.x;
    for (int o = 1; o < 8; o *= 2) /* step */ u = u * 3 + __shfl_up(u, o, 16);
    float h = threadIdx.x;
    for (int o = 16; o > 0 && lane < 32; o /= 2) /* step */ h = fmaxf(h, __shfl_xor(h, o, 32)) * 0.5f;
    int z = threadIdx.x;
    for (int i = 0; i < 20; i++) /* step */ z = (z * 2 + __shfl_xor(z, (i & 3) + 1) + 1) & 0xffff;
    u += z;
    fout[2 * threadIdx.x] = v;
    fout[2 * threadIdx.x + 1] = h;
    iout[2 * threadIdx.x] = m;
    iout[2 * threadIdx.x + 1] = u;
}
