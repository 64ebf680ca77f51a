// Included by main.cu and sub/other.cu as a .cu file, as real trees do.
#pragma once
#include <stdio.h>
#if defined(USE_REDUCE_HEADER)
#include <cooperative_groups/reduce.h>
#else
#include <cooperative_groups.h>
#endif
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <math_constants.h>
namespace cg = cooperative_groups;

// Warp-level sum of bf16 inputs; the reduction and the tile index come from cg.
__global__ void row_sum(const __nv_bfloat16 *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float v = 0.0f;
  for (int i = warp.thread_rank(); i < n; i += warp.size()) v += __bfloat162float(__ldcs(in + row * n + i));
  float s = cg::reduce(warp, v, cg::plus<float>{});
  float m = cg::reduce(warp, v, cg::greater<float>{});
  if (warp.thread_rank() == 0) __stcs(out + row, isinf(m) ? CUDART_INF_F : s);
}

template <typename T> void launch_row_sum(const T *in, float *out, int rows, int n, cudaStream_t stream);
extern template void launch_row_sum<__nv_bfloat16>(const __nv_bfloat16 *, float *, int, int, cudaStream_t);
