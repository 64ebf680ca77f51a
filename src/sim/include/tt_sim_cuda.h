// tt_sim_cuda.h — CUDA semantics for kernels on the CPU executor.
//
// Warp width 32 (TT_SIM_WARP must be 32 or undefined); the `_sync`
// intrinsics take 32-bit masks and follow the PTX shfl.sync lane rules.
// A harness includes this, then the prepared kernel source (tt_sim.h).
#ifndef TT_SIM_CUDA_H
#define TT_SIM_CUDA_H

#ifndef TT_SIM_WARP
#define TT_SIM_WARP 32
#endif
#if TT_SIM_WARP != 32
#error "tt_sim_cuda.h: CUDA warps have 32 lanes; build with TT_SIM_WARP 32"
#endif
#if defined(TT_SIM_DIALECT_HIP)
#error "tt_sim: tt_sim_cuda.h and tt_sim_hip.h cannot be mixed in one build"
#endif
#define TT_SIM_DIALECT_CUDA 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#ifndef __CUDA_ARCH__
#define __CUDA_ARCH__ 800
#endif

#include "tt_sim_common.hpp"

static constexpr int warpSize = 32;

namespace tt_sim {
namespace cuda {
template <class V> struct unwrap { using type = V; };
template <class E> struct unwrap<sref<E>> { using type = std::remove_cv_t<E>; };
template <class V> using unwrap_t = typename unwrap<std::decay_t<V>>::type;

template <class V>
inline unwrap_t<V> shfl(const tt_sim_site *s, shfl_mode m, unsigned mask, const V &var, int b, int width = 32)
{
    using T = unwrap_t<V>;
    int src = ptx_src_lane(m, (int)tt_sim_cur->lane, b, width);
    return shfl_value<T>(s, 1, mask, (T)var, src);
}
} // namespace cuda
} // namespace tt_sim

#define __shfl_sync(mask, var, ...) ::tt_sim::cuda::shfl(TT_SIM_SITE("__shfl_sync"), ::tt_sim::SHFL_IDX, (unsigned)(mask), var, __VA_ARGS__)
#define __shfl_up_sync(mask, var, ...) ::tt_sim::cuda::shfl(TT_SIM_SITE("__shfl_up_sync"), ::tt_sim::SHFL_UP, (unsigned)(mask), var, __VA_ARGS__)
#define __shfl_down_sync(mask, var, ...) ::tt_sim::cuda::shfl(TT_SIM_SITE("__shfl_down_sync"), ::tt_sim::SHFL_DOWN, (unsigned)(mask), var, __VA_ARGS__)
#define __shfl_xor_sync(mask, var, ...) ::tt_sim::cuda::shfl(TT_SIM_SITE("__shfl_xor_sync"), ::tt_sim::SHFL_BFLY, (unsigned)(mask), var, __VA_ARGS__)

#define __ballot_sync(mask, pred) ((unsigned)::tt_sim::ballot(TT_SIM_SITE("__ballot_sync"), 1, (unsigned)(mask), (pred) != 0, nullptr))
#define __any_sync(mask, pred) ((int)(::tt_sim::ballot(TT_SIM_SITE("__any_sync"), 1, (unsigned)(mask), (pred) != 0, nullptr) != 0))
#define __all_sync(mask, pred) (::tt_sim::cuda::all_of(TT_SIM_SITE("__all_sync"), (unsigned)(mask), (pred) != 0))
#define __uni_sync(mask, pred) (::tt_sim::cuda::uni_of(TT_SIM_SITE("__uni_sync"), (unsigned)(mask), (pred) != 0))
#define __activemask() ((unsigned)tt_sim_collective(TT_SIM_SITE("__activemask"), TT_SIM_COLL_ACTIVEMASK, 0, 0, 0, 0, 0, nullptr))
#define __syncwarp(...) ::tt_sim::cuda::syncwarp(TT_SIM_SITE("__syncwarp"), ##__VA_ARGS__)
#define __match_any_sync(mask, v) ((unsigned)tt_sim_collective(TT_SIM_SITE("__match_any_sync"), TT_SIM_COLL_MATCH_ANY, 1, (unsigned)(mask), ::tt_sim::match_key(v), 0, 0, nullptr))
#define __match_all_sync(mask, v, predp) ((unsigned)tt_sim_collective(TT_SIM_SITE("__match_all_sync"), TT_SIM_COLL_MATCH_ALL, 1, (unsigned)(mask), ::tt_sim::match_key(v), 0, 0, (predp)))
#define __reduce_add_sync(mask, v) ::tt_sim::cuda::reduce(TT_SIM_SITE("__reduce_add_sync"), TT_SIM_COLL_REDUCE_ADD, (unsigned)(mask), v)
#define __reduce_min_sync(mask, v) ::tt_sim::cuda::reduce(TT_SIM_SITE("__reduce_min_sync"), TT_SIM_COLL_REDUCE_MIN, (unsigned)(mask), v)
#define __reduce_max_sync(mask, v) ::tt_sim::cuda::reduce(TT_SIM_SITE("__reduce_max_sync"), TT_SIM_COLL_REDUCE_MAX, (unsigned)(mask), v)
#define __reduce_and_sync(mask, v) ::tt_sim::cuda::reduce(TT_SIM_SITE("__reduce_and_sync"), TT_SIM_COLL_REDUCE_AND, (unsigned)(mask), (unsigned)(v))
#define __reduce_or_sync(mask, v) ::tt_sim::cuda::reduce(TT_SIM_SITE("__reduce_or_sync"), TT_SIM_COLL_REDUCE_OR, (unsigned)(mask), (unsigned)(v))
#define __reduce_xor_sync(mask, v) ::tt_sim::cuda::reduce(TT_SIM_SITE("__reduce_xor_sync"), TT_SIM_COLL_REDUCE_XOR, (unsigned)(mask), (unsigned)(v))

namespace tt_sim {
namespace cuda {
inline int all_of(const tt_sim_site *s, unsigned mask, int pred)
{
    int all = 0;
    ballot(s, 1, mask, pred, &all);
    return all;
}
inline int uni_of(const tt_sim_site *s, unsigned mask, int pred)
{
    int all = 0;
    uint64_t b = ballot(s, 1, mask, pred, &all);
    return all || b == 0;
}
inline void syncwarp(const tt_sim_site *s, unsigned mask = 0xffffffffu)
{
    tt_sim_collective(s, TT_SIM_COLL_SYNCWARP, 1, mask, 0, 0, 0, nullptr);
}
// unsigned reductions directly; signed min/max by flipping the sign bit
inline unsigned reduce(const tt_sim_site *s, int kind, unsigned mask, unsigned v)
{
    return (unsigned)tt_sim_collective(s, kind, 1, mask, v, 0, 0, nullptr);
}
inline int reduce(const tt_sim_site *s, int kind, unsigned mask, int v)
{
    bool flip = kind == TT_SIM_COLL_REDUCE_MIN || kind == TT_SIM_COLL_REDUCE_MAX;
    unsigned u = (unsigned)v ^ (flip ? 0x80000000u : 0u);
    u = (unsigned)tt_sim_collective(s, kind, 1, mask, u, 0, 0, nullptr);
    return (int)(u ^ (flip ? 0x80000000u : 0u));
}
} // namespace cuda

// lane rules for cooperative groups tiles
inline int tile_src_lane(shfl_mode m, int lane, int b, int width) { return ptx_src_lane(m, lane, b, width); }
} // namespace tt_sim

inline unsigned __lanemask_lt() { return (1u << tt_sim_cur->lane) - 1u; }
inline unsigned __lanemask_le() { return (unsigned)((2ull << tt_sim_cur->lane) - 1u); }
inline unsigned __lanemask_eq() { return 1u << tt_sim_cur->lane; }
inline unsigned __lanemask_gt() { return ~__lanemask_le(); }
inline unsigned __lanemask_ge() { return ~__lanemask_lt(); }

#include "tt_sim_cg.hpp"
#include "tt_sim_host.hpp"
#include "tt_sim_unsupported.hpp"

#endif
