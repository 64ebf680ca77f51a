// rocm7_warp_sync.h — the ROCm >= 6.2 / 7.0 warp-sync interface, declared on top of an
// older HIP (Debian's hipcc 5.2 has none of it), so that hipcc.sh can check that the
// renames-only files behave on a real compiler as they would on ROCm 7:
//   - every *_sync function takes the mask as a template parameter and rejects anything
//     but a 64-bit integer with ROCm's static_assert message;
//   - __activemask() returns unsigned long long; __syncwarp() exists.
// Only the interface matters here (the bodies ignore the mask); used with `hipcc -include`.
#pragma once
#include <hip/hip_runtime.h>
#include <type_traits>

#define TT_ROCM7_MASK_CHECK(MaskT)                                                  \
  static_assert(std::is_integral<MaskT>::value && sizeof(MaskT) == 8,               \
                "The mask must be a 64-bit integer. "                               \
                "Implicitly promoting a smaller integer is almost always an error.")

__device__ inline unsigned long long __activemask() { return __ballot(1); }
__device__ inline void __syncwarp() { __builtin_amdgcn_wave_barrier(); }

template <typename MaskT>
__device__ inline unsigned long long __ballot_sync(MaskT mask, int pred) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return __ballot(pred) & mask;
}
template <typename MaskT>
__device__ inline int __any_sync(MaskT mask, int pred) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return (__ballot(pred) & mask) != 0;
}
template <typename MaskT>
__device__ inline int __all_sync(MaskT mask, int pred) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return (__ballot(pred) & mask) == mask;
}
template <typename MaskT, typename T>
__device__ inline T __shfl_sync(MaskT, T var, int src, int width = warpSize) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return __shfl(var, src, width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_up_sync(MaskT, T var, unsigned int delta, int width = warpSize) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return __shfl_up(var, delta, width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_down_sync(MaskT, T var, unsigned int delta, int width = warpSize) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return __shfl_down(var, delta, width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_xor_sync(MaskT, T var, int lane_mask, int width = warpSize) {
  TT_ROCM7_MASK_CHECK(MaskT);
  return __shfl_xor(var, lane_mask, width);
}
