// One block per source operand b; each lane stores the lane it received.
__global__ void lanes_cuda(int *out, int mode, int w)
{
    int lane = threadIdx.x, b = blockIdx.x, r = -1;
    if (mode == 0) r = __shfl_sync(0xffffffff, lane, b, w);
    if (mode == 1) r = __shfl_up_sync(0xffffffff, lane, (unsigned)b, w);
    if (mode == 2) r = __shfl_down_sync(0xffffffff, lane, (unsigned)b, w);
    if (mode == 3) r = __shfl_xor_sync(0xffffffff, lane, b, w);
    out[b * blockDim.x + lane] = r;
}

__global__ void vote_cuda(unsigned *out, int k)
{
    int lane = threadIdx.x;
    unsigned m = 0;
    if (lane % k == 0) m = __activemask();  // divergent: only those lanes
    unsigned b = __ballot_sync(0xffffffff, lane % k == 0);
    int all = __all_sync(0xffffffff, lane < 64);
    int any = __any_sync(0xffffffff, lane == 5);
    unsigned ma = __match_any_sync(0xffffffff, lane % 3);
    int pred = 0;
    unsigned mall = __match_all_sync(0xffffffff, 7, &pred);
    unsigned red = __reduce_add_sync(0xffffffff, (unsigned)lane);
    int mn = __reduce_min_sync(0xffffffff, 10 - lane);
    out[lane * 8 + 0] = m;
    out[lane * 8 + 1] = b;
    out[lane * 8 + 2] = all;
    out[lane * 8 + 3] = any;
    out[lane * 8 + 4] = ma;
    out[lane * 8 + 5] = mall + (unsigned)pred;
    out[lane * 8 + 6] = red;
    out[lane * 8 + 7] = (unsigned)mn;
}

// cg::labeled_partition / binary_partition (CUDA 11): groups of the members with one label.
__global__ void partitions_cuda(unsigned *out)
{
    namespace cg = cooperative_groups;
    unsigned lane = threadIdx.x;
    cg::coalesced_group by3 = cg::labeled_partition(cg::coalesced_threads(), lane % 3);
    cg::coalesced_group odd = cg::binary_partition(cg::tiled_partition<16>(cg::this_thread_block()), lane & 1);
    out[lane * 3 + 0] = by3.size();
    out[lane * 3 + 1] = by3.thread_rank();
    out[lane * 3 + 2] = odd.size() * 100 + odd.thread_rank();
}

// Shuffle chains with _sync masks and widths, rewritten (chains_fused) and
// kept shuffle by shuffle by the comment inside (chains_stepwise); the last
// loop's mask names half the warp, which only that half runs: not fused.
__global__ void chains_fused(float *fout, int *iout)
{
    unsigned lane = threadIdx.x % warpSize;
    float v = threadIdx.x * 0.37f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    int m = (threadIdx.x * 7919) % 1000;
    for (int o = 1; o < 32; o *= 2) m = max(m, __shfl_down_sync(0xffffffffu, m, o));
    int u = threadIdx.x;
    for (int o = 1; o < 8; o *= 2) u = u * 3 + __shfl_up_sync(0xffffffff, u, o, 16);
    float h = threadIdx.x;
    for (int o = 8; o > 0 && lane < 16; o /= 2) h = fmaxf(h, __shfl_xor_sync(0x0000ffff, h, o, 16)) * 0.5f;
    fout[2 * threadIdx.x] = v;
    fout[2 * threadIdx.x + 1] = h;
    iout[2 * threadIdx.x] = m;
    iout[2 * threadIdx.x + 1] = u;
}

__global__ void chains_stepwise(float *fout, int *iout)
{
    unsigned lane = threadIdx.x % warpSize;
    float v = threadIdx.x * 0.37f;
    for (int o = 16; o > 0; o >>= 1) /* step */ v += __shfl_xor_sync(0xffffffff, v, o);
    int m = (threadIdx.x * 7919) % 1000;
    for (int o = 1; o < 32; o *= 2) /* step */ m = max(m, __shfl_down_sync(0xffffffffu, m, o));
    int u = threadIdx.x;
    for (int o = 1; o < 8; o *= 2) /* step */ u = u * 3 + __shfl_up_sync(0xffffffff, u, o, 16);
    float h = threadIdx.x;
    for (int o = 8; o > 0 && lane < 16; o /= 2) /* step */ h = fmaxf(h, __shfl_xor_sync(0x0000ffff, h, o, 16)) * 0.5f;
    fout[2 * threadIdx.x] = v;
    fout[2 * threadIdx.x + 1] = h;
    iout[2 * threadIdx.x] = m;
    iout[2 * threadIdx.x + 1] = u;
}
