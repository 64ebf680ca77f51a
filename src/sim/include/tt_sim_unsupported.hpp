// tt_sim_unsupported.hpp — constructs the CPU executor cannot run fail the
// BUILD with a message that names them (never a silent no-op).  Included
// last by the dialect headers, after every system header, because `asm` is
// redefined.
#ifndef TT_SIM_UNSUPPORTED_HPP
#define TT_SIM_UNSUPPORTED_HPP

// Inline PTX / GCN assembly: `asm("..." : ...)`, `asm volatile(...)`.
#define asm static_assert(false, "tt_sim: inline assembly (PTX/GCN asm) cannot run on the CPU executor; port it by hand"); (void)
#ifndef TT_SIM_DIALECT_HIP // CUDA names: HIP has no cp.async
#define __pipeline_memcpy_async(...) static_assert(false, "tt_sim: cp.async (__pipeline_memcpy_async) is not supported")
#define __pipeline_commit(...) static_assert(false, "tt_sim: cp.async (__pipeline_commit) is not supported")
#endif

#endif
