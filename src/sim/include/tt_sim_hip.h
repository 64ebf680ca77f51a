// tt_sim_hip.h — HIP-on-AMD semantics for kernels on the CPU executor.
//
// Wavefront of TT_SIM_WARP lanes (64 for CDNA, 32 for RDNA).  Lane rules
// follow hip/amd_detail/amd_warp_functions.h: __shfl reads lane
// (src & (w-1)) + (self & ~(w-1)); __shfl_up/_down/_xor return the caller's
// value when the source leaves its w-segment (xor checks only the upper end);
// __ballot is 64-bit with the bits above the wavefront zero.  The `_sync`
// forms (ROCm 6.2+/7) reject masks that are not 64-bit integers at compile
// time, as ROCm's static_assert does.
#ifndef TT_SIM_HIP_H
#define TT_SIM_HIP_H

#ifndef TT_SIM_WARP
#define TT_SIM_WARP 64
#endif
#if defined(TT_SIM_DIALECT_CUDA)
#error "tt_sim: tt_sim_cuda.h and tt_sim_hip.h cannot be mixed in one build"
#endif
#define TT_SIM_DIALECT_HIP 1
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIPCC__
#define __HIPCC__ 1
#endif
#ifndef __HIP__
#define __HIP__ 1
#endif
#ifndef __AMDGCN_WAVEFRONT_SIZE
#define __AMDGCN_WAVEFRONT_SIZE TT_SIM_WARP
#endif
#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS
#define HIP_ENABLE_WARP_SYNC_BUILTINS 1
#endif

#include "tt_sim_common.hpp"

static constexpr int warpSize = TT_SIM_WARP;

namespace tt_sim {
namespace hip {
template <class V> struct unwrap { using type = V; };
template <class E> struct unwrap<sref<E>> { using type = std::remove_cv_t<E>; };
template <class V> using unwrap_t = typename unwrap<std::decay_t<V>>::type;

template <class V>
inline unwrap_t<V> shfl(const tt_sim_site *s, shfl_mode m, int has_mask, uint64_t mask, const V &var,
                        int b, int width = TT_SIM_WARP)
{
    using T = unwrap_t<V>;
    int src = amd_src_lane(m, (int)tt_sim_cur->lane, b, width, TT_SIM_WARP);
    return shfl_value<T>(s, has_mask, mask, (T)var, src);
}

template <class MaskT> constexpr bool mask_ok()
{
    return std::is_integral<MaskT>::value && sizeof(MaskT) == 8;
}
template <class MaskT> constexpr int check_mask()
{
    static_assert(mask_ok<std::decay_t<MaskT>>(),
                  "The mask must be a 64-bit integer. "
                  "Implicitly promoting a smaller integer is almost always an error.");
    return 0;
}

inline int all_of(const tt_sim_site *s, int has_mask, uint64_t mask, int pred)
{
    int all = 0;
    ballot(s, has_mask, mask, pred, &all);
    return all;
}
inline unsigned long long reduce(const tt_sim_site *s, int kind, uint64_t mask, unsigned v)
{
    return tt_sim_collective(s, kind, 1, mask, v, 0, 0, nullptr);
}
inline int reduce(const tt_sim_site *s, int kind, uint64_t mask, int v)
{
    bool flip = kind == TT_SIM_COLL_REDUCE_MIN || kind == TT_SIM_COLL_REDUCE_MAX;
    unsigned u = (unsigned)v ^ (flip ? 0x80000000u : 0u);
    u = (unsigned)tt_sim_collective(s, kind, 1, mask, u, 0, 0, nullptr);
    return (int)(u ^ (flip ? 0x80000000u : 0u));
}
} // namespace hip
inline int tile_src_lane(shfl_mode m, int lane, int b, int width) { return amd_src_lane(m, lane, b, width, TT_SIM_WARP); }
} // namespace tt_sim

// no-mask forms (every HIP release)
#define __shfl(var, ...) ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl"), ::tt_sim::SHFL_IDX, 0, 0, var, __VA_ARGS__)
#define __shfl_up(var, ...) ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_up"), ::tt_sim::SHFL_UP, 0, 0, var, __VA_ARGS__)
#define __shfl_down(var, ...) ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_down"), ::tt_sim::SHFL_DOWN, 0, 0, var, __VA_ARGS__)
#define __shfl_xor(var, ...) ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_xor"), ::tt_sim::SHFL_BFLY, 0, 0, var, __VA_ARGS__)
#define __ballot(pred) ((unsigned long long)::tt_sim::ballot(TT_SIM_SITE("__ballot"), 0, 0, (pred) != 0, nullptr))
#define __ballot64(pred) __ballot(pred)
#define __any(pred) ((int)(::tt_sim::ballot(TT_SIM_SITE("__any"), 0, 0, (pred) != 0, nullptr) != 0))
#define __all(pred) (::tt_sim::hip::all_of(TT_SIM_SITE("__all"), 0, 0, (pred) != 0))
#define __activemask() ((unsigned long long)tt_sim_collective(TT_SIM_SITE("__activemask"), TT_SIM_COLL_ACTIVEMASK, 0, 0, 0, 0, 0, nullptr))

// _sync forms (ROCm 6.2+ opt-in, 7.0 default): 64-bit masks only
#define __shfl_sync(mask, var, ...) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_sync"), ::tt_sim::SHFL_IDX, 1, (uint64_t)(mask), var, __VA_ARGS__))
#define __shfl_up_sync(mask, var, ...) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_up_sync"), ::tt_sim::SHFL_UP, 1, (uint64_t)(mask), var, __VA_ARGS__))
#define __shfl_down_sync(mask, var, ...) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_down_sync"), ::tt_sim::SHFL_DOWN, 1, (uint64_t)(mask), var, __VA_ARGS__))
#define __shfl_xor_sync(mask, var, ...) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::shfl(TT_SIM_SITE("__shfl_xor_sync"), ::tt_sim::SHFL_BFLY, 1, (uint64_t)(mask), var, __VA_ARGS__))
#define __ballot_sync(mask, pred) (::tt_sim::hip::check_mask<decltype(mask)>(), (unsigned long long)::tt_sim::ballot(TT_SIM_SITE("__ballot_sync"), 1, (uint64_t)(mask), (pred) != 0, nullptr))
#define __any_sync(mask, pred) (::tt_sim::hip::check_mask<decltype(mask)>(), (int)(::tt_sim::ballot(TT_SIM_SITE("__any_sync"), 1, (uint64_t)(mask), (pred) != 0, nullptr) != 0))
#define __all_sync(mask, pred) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::all_of(TT_SIM_SITE("__all_sync"), 1, (uint64_t)(mask), (pred) != 0))
#define __match_any_sync(mask, v) (::tt_sim::hip::check_mask<decltype(mask)>(), (unsigned long long)tt_sim_collective(TT_SIM_SITE("__match_any_sync"), TT_SIM_COLL_MATCH_ANY, 1, (uint64_t)(mask), ::tt_sim::match_key(v), 0, 0, nullptr))
#define __match_all_sync(mask, v, predp) (::tt_sim::hip::check_mask<decltype(mask)>(), (unsigned long long)tt_sim_collective(TT_SIM_SITE("__match_all_sync"), TT_SIM_COLL_MATCH_ALL, 1, (uint64_t)(mask), ::tt_sim::match_key(v), 0, 0, (predp)))
#define __reduce_add_sync(mask, v) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::reduce(TT_SIM_SITE("__reduce_add_sync"), TT_SIM_COLL_REDUCE_ADD, (uint64_t)(mask), v))
#define __reduce_min_sync(mask, v) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::reduce(TT_SIM_SITE("__reduce_min_sync"), TT_SIM_COLL_REDUCE_MIN, (uint64_t)(mask), v))
#define __reduce_max_sync(mask, v) (::tt_sim::hip::check_mask<decltype(mask)>(), ::tt_sim::hip::reduce(TT_SIM_SITE("__reduce_max_sync"), TT_SIM_COLL_REDUCE_MAX, (uint64_t)(mask), v))
#define __syncwarp(...) ::tt_sim::hip::syncwarp(TT_SIM_SITE("__syncwarp"), ##__VA_ARGS__)
namespace tt_sim {
namespace hip {
inline void syncwarp(const tt_sim_site *s)
{
    tt_sim_collective(s, TT_SIM_COLL_SYNCWARP, 0, 0, 0, 0, 0, nullptr);
}
template <class MaskT> inline void syncwarp(const tt_sim_site *s, MaskT mask)
{
    static_assert(mask_ok<MaskT>(), "The mask must be a 64-bit integer. "
                                    "Implicitly promoting a smaller integer is almost always an error.");
    tt_sim_collective(s, TT_SIM_COLL_SYNCWARP, 1, (uint64_t)mask, 0, 0, 0, nullptr);
}
} // namespace hip
} // namespace tt_sim

// AMDGCN builtins that ports use for `__syncwarp` on HIP releases without it (what
// ROCm 7's own __syncwarp expands to): a wavefront executes in lockstep on hardware,
// so the executor makes the wave barrier a collective of the wavefront's active lanes.
#define __builtin_amdgcn_wave_barrier() ::tt_sim::hip::syncwarp(TT_SIM_SITE("__builtin_amdgcn_wave_barrier"))
#define __builtin_amdgcn_fence(order, scope) std::atomic_thread_fence(std::memory_order_seq_cst)

inline unsigned __lane_id() { return tt_sim_cur->lane; }
inline unsigned long long __lanemask_lt() { return (1ull << tt_sim_cur->lane) - 1ull; }
inline unsigned long long __lanemask_gt()
{
    unsigned l = tt_sim_cur->lane;
    unsigned long long all = TT_SIM_WARP == 64 ? ~0ull : 0xffffffffull;
    return l + 1 >= 64 ? 0ull : (all & ~((2ull << l) - 1ull));
}
inline unsigned long long __lanemask_eq() { return 1ull << tt_sim_cur->lane; }
inline unsigned __smid() { return 0; }

#include "tt_sim_cg.hpp"
#include "tt_sim_host.hpp"
#include "tt_sim_unsupported.hpp"

#endif
