// Uses every piece of rules/hip/support/tiletrans_hip_compat.h as a port written by
// `tiletrans rewrite --target hip` would; tests/hip/compat.sh compiles it with hipcc.
#include "tiletrans_hip_compat.h"
namespace cg = cooperative_groups;

__global__ void bf16_math(const __hip_bfloat16 *in, __hip_bfloat16 *out, float2 *f2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __hip_bfloat16 a = in[i], b = __float2bfloat16(2.0f);
  __hip_bfloat162 p = __halves2bfloat162(a, b);
  p = __hadd2(p, __float2bfloat162_rn(1.0f));
  p = __hfma2(p, p, __floats2bfloat162_rn(0.5f, 0.25f));
  f2[i] = __bfloat1622float2(p);
  __hip_bfloat16 c = __hmax(a, b) + __hmin(a, b) * __habs(a) - __hneg(b);
  c += (__hip_bfloat16)(float)i;
  float f = __bfloat162float(c) + __low2float(p) + __high2float(p) + (float)a;
  int k = __bfloat162int_rn(c) + (int)__bfloat162uint_rn(a) + (int)__bfloat162ll_rn(b) +
          (int)__bfloat162ull_rn(b);
  __hip_bfloat16_raw raw = c;
  out[i] = __hadd(__float2bfloat16_rn(f + k), __ushort_as_bfloat16(raw.x));
  out[i] = __shfl_xor(out[i], 1);
  atomicAdd(out + (i ^ 1), a);
  atomicAdd(reinterpret_cast<__hip_bfloat162 *>(out) + i / 2, p);
  if (a < b && a != b) out[i] = __float22bfloat162_rn(make_float2(f, f)).x;
}

__global__ void cg_reduce(const float *in, float *out, int *ids) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = tiletrans::ldcs(in + block.thread_rank());
  float s = cg::reduce(warp, v, cg::plus<float>{});
  float m = cg::reduce(warp, v, cg::greater<float>());
  float l = cg::reduce(warp, v, cg::less<float>());
  int x = cg::reduce(warp, (int)v, cg::bit_xor<int>());
  unsigned r = tiletrans::meta_group_rank(warp), z = tiletrans::meta_group_size(warp);
  cg::coalesced_group active = cg::coalesced_threads();
  float c = cg::reduce(active, v, cg::plus<float>());
  float inc = cg::inclusive_scan(warp, v), exc = cg::exclusive_scan(warp, v, cg::plus<float>());
  int cinc = cg::inclusive_scan(active, (int)v, cg::bit_or<int>());
  s += inc + exc + cinc;
  tiletrans::stcs(out + blockIdx.x * blockDim.x + threadIdx.x, s + m + l + c + x + r + z);
  tiletrans::stwt(ids, (int)tiletrans::ldg(ids) + (int)tiletrans::ldcg(ids) + (int)tiletrans::ldca(ids) +
                         (int)tiletrans::ldlu(ids) + (int)tiletrans::ldcv(ids));
  tiletrans::stcg(out, CUDART_INF_F + CUDART_PI_F + CUDART_SQRT_HALF_F + (float)CUDART_PI);
}

/* hip-compat-group-shuffle: a tile's shuffles of a vector (shfl_scan's uint4) and of a scalar */
__global__ void group_shuffles(uint4 *v, float *f) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  uint4 x = v[threadIdx.x];
  x = tiletrans::group_shfl_xor(tile, x, 1);
  x = tiletrans::group_shfl_up(tile, x, 2);
  x = tiletrans::group_shfl_down(tile, x, 2);
  v[threadIdx.x] = tiletrans::group_shfl(tile, x, 0);
  f[threadIdx.x] = tiletrans::group_shfl_xor(tile, f[threadIdx.x], 16);
}

__global__ void match(const int *keys, const double *d, unsigned long long *any, unsigned *any32, int *all) {
  int key = keys[threadIdx.x], pred = 0, pred32 = 0;
  any[threadIdx.x] = tiletrans::match_any_sync(key) ^ tiletrans::match_all_sync(d[threadIdx.x], &pred);
  any32[threadIdx.x] = tiletrans::logical32::match_any_sync(key) ^ tiletrans::logical32::match_all_sync(key, &pred32);
  all[threadIdx.x] = pred + pred32;
}

__host__ float host_side(float f) { return (float)__float2bfloat16(f) + CUDART_INF_F; }
