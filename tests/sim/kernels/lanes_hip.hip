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
