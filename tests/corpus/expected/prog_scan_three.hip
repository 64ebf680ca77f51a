// prog_scan_three.cu - a whole program: an inclusive prefix sum of n ints in three
// kernels, as cuda-samples' shfl_scan does it: (1) each block scans its part and
// writes its total, (2) one block scans the totals, (3) every element adds the
// scanned total of the blocks before it.
//
// Pitfall: warp scan with `__shfl_up_sync(0xffffffff, x, o)` for o < 32 and the warp
// total read from lane 31 with `__shfl_sync(0xffffffff, x, 31)`, `tid % 32`, `tid / 32`;
// on wave64 with renames only: wrong numbers.
// Why: on a 64-lane wavefront lane 31 is the total of the first 32 lanes only, and
// lanes 32..63 read it as their own warp's total: the odd 32-thread warps publish the
// even warp's total, so every later element is off.
// wave32 (RDNA, gfx1030): unaffected.

#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

__device__ __forceinline__ int warp_inclusive_scan(int x) {
    const int lane = threadIdx.x % 32;
    for (int o = 1; o < 32; o <<= 1) {
        int y = __shfl_up(x, o, 32);
        if (lane >= o) x += y;
    }
    return x;
}

// Inclusive scan of one block's elements; block_totals[b] = the block's sum.
__global__ void scan_blocks(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ block_totals, int n) {
    __shared__ int warp_totals[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    int x = i < n ? in[i] : 0;
    x = warp_inclusive_scan(x);
    const int total = __shfl(x, 31, 32);
    if (lane == 0) warp_totals[wid] = total;
    __syncthreads();
    if (wid == 0) {
        int t = lane < blockDim.x / 32 ? warp_totals[lane] : 0;
        t = warp_inclusive_scan(t);
        if (lane < blockDim.x / 32) warp_totals[lane] = t;
    }
    __syncthreads();
    if (wid > 0) x += warp_totals[wid - 1];
    if (i < n) out[i] = x;
    if (threadIdx.x == blockDim.x - 1) block_totals[blockIdx.x] = x;
}

// One block: inclusive scan of the block totals in place (nblocks <= blockDim.x).
__global__ void scan_totals(int* __restrict__ block_totals, int nblocks) {
    __shared__ int warp_totals[32];
    const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
    int x = threadIdx.x < nblocks ? block_totals[threadIdx.x] : 0;
    x = warp_inclusive_scan(x);
    if (lane == 31) warp_totals[wid] = x;
    __syncthreads();
    int base = 0;
    for (int w = 0; w < wid; ++w) base += warp_totals[w];
    if (threadIdx.x < nblocks) block_totals[threadIdx.x] = x + base;
}

__global__ void add_block_offsets(int* __restrict__ out, const int* __restrict__ block_totals, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n) out[i] += block_totals[blockIdx.x - 1];
}

int main() {
    const int n = 100000, threads = 256, blocks = (n + threads - 1) / threads;
    std::vector<int> h(n), got(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 7) % 13 - 6;
    int *din, *dout, *dtot;
    hipMalloc(&din, n * sizeof(int));
    hipMalloc(&dout, n * sizeof(int));
    hipMalloc(&dtot, blocks * sizeof(int));
    hipMemcpy(din, h.data(), n * sizeof(int), hipMemcpyHostToDevice);
    scan_blocks<<<blocks, threads>>>(din, dout, dtot, n);
    scan_totals<<<1, 512>>>(dtot, blocks);
    add_block_offsets<<<blocks, threads>>>(dout, dtot, n);
    hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost);
    long long acc = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += got[i] != (acc += h[i]);
    std::printf("%s\n", bad ? "FAIL" : "PASS");
    hipFree(din);
    hipFree(dout);
    hipFree(dtot);
    return bad != 0;
}
