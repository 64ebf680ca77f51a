#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cassert>
// Kernels with one bug each; the tests check the executor reports it.
__global__ void oob_global(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + 1] = 1.0f;  // LINE_OOB_GLOBAL
}

// Only thread (5,2,0) of block 1 reads past the end of `in` (n floats);
// blocks of 8x4 threads, so the report must name the thread, not a row.
__global__ void oob_one_thread(const float *in, float *out, int n)
{
    int t = threadIdx.x + blockDim.x * threadIdx.y;
    int i = blockIdx.x * blockDim.x * blockDim.y + t;
    int bad = blockIdx.x == 1 && threadIdx.x == 5 && threadIdx.y == 2;
    out[i] = in[bad ? n : i];  // LINE_OOB_ONE
}

// Every thread of block 1 reads in[n], one past the end: a load the same
// for all threads of a block (a compiler may hoist it out of a loop over
// them), so the report must still name the first thread that ran.
__global__ void oob_block_invariant(const float *in, float *out, int n)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[n - (blockIdx.x != 1)];  // LINE_OOB_INV
}

// Each block's thread 0 writes the block's index at the block's linear
// position.
__global__ void block_ids(unsigned *out)
{
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0) {
        out[3 * b] = blockIdx.x;
        out[3 * b + 1] = blockIdx.y;
        out[3 * b + 2] = blockIdx.z;
    }
}

// Writes shared memory (write != 0), or copies out what it holds before
// any write: a launch's shared memory starts zeroed, whatever ran before.
__global__ void shared_leftover(int *out, int write)
{
    __shared__ int s[64];
    extern __shared__ int d[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (write) {
        s[threadIdx.x] = 7;
        d[threadIdx.x] = 9;
    } else {
        out[2 * i] = s[threadIdx.x];
        out[2 * i + 1] = d[threadIdx.x];
    }
}

__global__ void oob_shared(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x + 1] = 1.0f;  // LINE_OOB_SHARED
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void racy(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;  // LINE_RACE_W
    out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];  // LINE_RACE_R
}

__global__ void race_free(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

__global__ void divergent_barrier(float *out)
{
    if (threadIdx.x < 16) {
        __syncthreads();  // LINE_DIV_A
    } else {
        __syncthreads();  // LINE_DIV_B
    }
    out[threadIdx.x] = 1.0f;
}

__global__ void early_exit(float *out, int n)
{
    if (threadIdx.x >= n) return;
    __syncthreads();
    out[threadIdx.x] = 1.0f;
}

__global__ void mask_deadlock(float *out)
{
    float v = threadIdx.x;
    if (threadIdx.x < 16) {
        __syncthreads();  // LINE_DL_BAR
    } else {
        v = __shfl_sync(0xffffffff, v, 0);  // LINE_DL_SHFL
        __syncthreads();
    }
    out[threadIdx.x] = v;
}

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) {
    }
}

__global__ void trapper(int *out)
{
    if (threadIdx.x == 3) __trap();  // LINE_TRAP
    out[threadIdx.x] = 1;
}

__global__ void asserter(int *out)
{
    assert(threadIdx.x != 5);  // LINE_ASSERT
    out[threadIdx.x] = 1;
}

__global__ void order(int *ticket, int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(ticket, 1);
}

__global__ void missing_barrier(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x + 1;
    out[threadIdx.x] = s[(threadIdx.x + 7) % blockDim.x];
}

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    if (lane == 0) partial[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        if (lane == 0) atomicAdd(out, v);
    }
}

__global__ void count_barrier(int *out)
{
    int c = __syncthreads_count(threadIdx.x % 2);
    int a = __syncthreads_and(threadIdx.x < 1000);
    int o = __syncthreads_or(threadIdx.x == 7);
    out[threadIdx.x] = c * 100 + a * 10 + o;
}

__global__ void dyn_shared(float *out)
{
    extern __shared__ float d[];
    d[threadIdx.x] = threadIdx.x * 2.0f;
    __syncthreads();
    out[threadIdx.x] = d[blockDim.x - 1 - threadIdx.x];
}

__global__ void dyn_shared_oob(float *out)
{
    extern __shared__ float d[];
    d[threadIdx.x + 1] = 1.0f;  // LINE_DYN_OOB
    out[threadIdx.x] = 0.0f;
}

__global__ void atomics(int *i, unsigned *u, float *f, double *d, unsigned long long *ull)
{
    atomicAdd(i, 1);
    atomicMax(i + 1, (int)threadIdx.x);
    atomicMin(i + 2, -(int)threadIdx.x);
    atomicInc(u, 9u);
    atomicDec(u + 1, 5u);
    atomicOr(u + 2, 1u << (threadIdx.x % 32));
    atomicAdd(f, 0.5f);
    atomicAdd(d, 0.25);
    atomicCAS(ull, 0ull, 42ull);
    atomicExch(i + 3, 7);
}

__global__ void cg_tiles(int *out)
{
    namespace cg = cooperative_groups;
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<8> t = cg::tiled_partition<8>(b);
    int v = t.shfl((int)b.thread_rank(), 2);
    int s = cg::reduce(t, (int)t.thread_rank(), cg::plus<int>());
    unsigned long long bal = t.ballot(t.thread_rank() % 2 == 0);
    b.sync();
    out[b.thread_rank() * 3 + 0] = v;
    out[b.thread_rank() * 3 + 1] = s;
    out[b.thread_rank() * 3 + 2] = (int)bal;
}

__global__ void halves(float *out)
{
    __half h = __float2half(1.0f / 3.0f);
    __nv_bfloat16 b = __float2bfloat16(1.0f / 3.0f);
    float4 v = make_float4(1, 2, 3, 4);
    out[0] = __half2float(h);
    out[1] = __bfloat162float(b);
    out[2] = __half2float(__hadd(h, h));
    out[3] = v.w + __expf(0.0f) + rsqrtf(4.0f) + __fdividef(1.0f, 4.0f);
}

// The same faults after a few barriers every thread reached in order (the
// executor's round mode): divergence, an early exit, a barrier reduction and
// a shuffle between plain barriers.
__global__ void rounds_divergent(float *out)
{
    for (int i = 0; i < 3; i++)
        __syncthreads();
    if (threadIdx.x < 40) {
        __syncthreads();  // LINE_RDIV_A
    } else {
        __syncthreads();  // LINE_RDIV_B
    }
    out[threadIdx.x] = 1.0f;
}

__global__ void rounds_mixed(int *out, int quit)
{
    int acc = threadIdx.x;
    for (int i = 0; i < 3; i++) {
        __syncthreads();
        acc += i;
    }
    __syncthreads();
    int c = __syncthreads_count(threadIdx.x & 1);
    for (int i = 0; i < 2; i++)
        __syncthreads();
    acc += __shfl_xor_sync(0xffffffff, acc, 1);
    __syncthreads();
    __syncthreads();
    if ((int)threadIdx.x == quit)
        return;
    __syncthreads();
    out[threadIdx.x] = acc + c;
}

// Lanes of one warp store one value to one word (llm.c's layernorm_forward_kernel5
// does this with a warp's reduced sum): no race.
__global__ void same_value_store(float *out)
{
    __shared__ float s[2];  // LINE_SAME_VALUE_DECL
    if (threadIdx.x < 32)
        s[0] = 7.0f;  // LINE_SAME_VALUE
    __syncthreads();
    out[threadIdx.x] = s[0];
}

// The same with values that differ between the lanes: a race.
__global__ void different_value_store(float *out)
{
    __shared__ float s[2];
    if (threadIdx.x < 32)
        s[0] = (float)threadIdx.x;  // LINE_DIFF_VALUE
    __syncthreads();
    out[threadIdx.x] = s[0];
}

// One value stored by lanes of two warps: a race (the rule is about one warp).
__global__ void cross_warp_same_value(float *out)
{
    __shared__ float s[2];
    s[0] = 7.0f;  // LINE_CROSS_WARP
    __syncthreads();
    out[threadIdx.x] = s[0];
}

// The race check's read summaries (tt_sim_shared.c): lanes of one warp that
// read a word, then one of them writes it with no sync between: a race with
// the other readers; after a __syncwarp, none.
__global__ void warp_reads_then_write(float *out, int sync)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    float v = s[threadIdx.x / 32 * 32]; // (warp 1 reads s[32])
    if (sync)
        __syncwarp();
    if (threadIdx.x == 5)
        s[0] = v + 1.0f;  // LINE_GROUP_W
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// Readers of two warps, then a write by a lane of the second: a race with
// the first warp's reads, __syncwarp or not.
__global__ void two_warps_read_then_write(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    float v = s[0];
    __syncwarp();
    if (threadIdx.x == 40)
        s[0] = v + 1.0f;  // LINE_SAT_W
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// A lane writes, the warp syncs, another lane reads and writes the word:
// ordered by the __syncwarp; without it, a race at the read.
__global__ void write_sync_then_other_lane(float *out, int sync)
{
    __shared__ float s[64];
    if (threadIdx.x == 3)
        s[7] = 2.0f;
    if (sync)
        __syncwarp();
    if (threadIdx.x == 9)
        s[7] = s[7] * 3.0f;  // LINE_SYNCWARP_RW
    __syncthreads();
    out[threadIdx.x] = s[7];
}

// The inline read check's shortcut (tt_sim_common.hpp, race_read): a read
// whose summary already holds its stamp, its warp interval's GROUP or this
// interval's SAT changes nothing.  Lanes of warp 1 read s[0] (GROUP of
// warp 1), then lane 0 of warp 0 reads it: the summary must widen to SAT,
// not count as warp 1's GROUP.  Warp 1 then syncs and lane 40 writes s[0]: a
// race with lane 0's read, which only the widened summary remembers (in
// reverse order; in forward order lane 0 reads first).
__global__ void group_then_other_warp_then_write(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    float v = 0.0f;
    if (threadIdx.x >= 32 || threadIdx.x == 0)
        v = s[0];
    __syncwarp();
    if (threadIdx.x == 40)
        s[0] = v + 1.0f;  // LINE_WIDEN_W
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

// Every thread reads s[0..7] in a loop (SAT: lanes of both warps), and after
// the barrier lane 0 reads s[3] while lane 5 writes it: a race, which needs
// lane 0's read to replace the last interval's SAT with its own stamp (in
// forward order; in reverse order the read meets the write).  With
// `racy` 0, only lane 0 reads: no race.
__global__ void stale_summary_then_race(float *out, int racy)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < 8; k++)
        acc += s[k];
    __syncthreads();
    if (threadIdx.x == 0)
        acc += s[3];  // LINE_STALE_R
    if (threadIdx.x == 5 && racy)
        s[3] = 2.0f;  // LINE_STALE_W
    __syncthreads();
    out[threadIdx.x] = acc + s[threadIdx.x];
}

// 48 threads: lanes 0-15 of warp 1 read lanes 16-31, which do not exist.
__global__ void poison_reaches_output(const float *in, float *out)
{
    float v = in[threadIdx.x];
    v += __shfl_down_sync(0xffffffffu, v, 16);  // LINE_POISON_USED
    out[threadIdx.x] = v;
}

__global__ void poison_unused(const float *in, float *out)
{
    float v = in[threadIdx.x];
    float w = __shfl_down_sync(0xffffffffu, v, 16);  // LINE_POISON_UNUSED
    out[threadIdx.x] = threadIdx.x < 32 ? w : v;
}

// Shared elements bound to a helper's non-const references (cuda-samples'
// bitonic Comparator(uint &keyA, ...)): each of 32 threads orders its own
// pair; with `clash`, thread 40 also stores to s[1] (a race with the binding's
// read); a conditional whose other operand is an lvalue reads s[] the same way.
__device__ void order_pair(unsigned &a, unsigned &b)
{
    if (a > b) {
        unsigned t = a;
        a = b;
        b = t;
    }
}

__global__ void shared_by_reference(unsigned *out, int clash)
{
    __shared__ unsigned s[64];
    s[threadIdx.x] = 64 - threadIdx.x;
    __syncthreads();
    if (threadIdx.x < 32)
        order_pair(s[2 * threadIdx.x], s[2 * threadIdx.x + 1]);
    if (threadIdx.x == 40 && clash)
        s[1] = 0;
    __syncthreads();
    unsigned other = 100;
    out[threadIdx.x] = threadIdx.x < 60 ? s[threadIdx.x] : other;
}
