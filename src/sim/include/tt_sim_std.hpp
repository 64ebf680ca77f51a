// tt_sim_std.hpp — the standard headers the shims build on (tt_sim_common.hpp).
//
// Parsing them is nearly all of a shim's parse, and they depend neither on the
// dialect (tt_sim_cuda.h / tt_sim_hip.h) nor on TT_SIM_WARP. So `tiletrans check`'s
// harnesses include this first, before anything is defined, and one precompiled
// header of it serves every harness of a sim build: a cold check precompiles once,
// not once per (dialect, warp). Nothing here may depend on a macro of the shims.
#ifndef TT_SIM_STD_HPP
#define TT_SIM_STD_HPP

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
// before __noinline__ becomes a macro (tt_sim_device.h): libstdc++ 12's
// shared_ptr_base.h writes __attribute__((__noinline__)), which the macro would
// break (ggml includes <memory>)
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
// Coroutine kernels (tt_sim_co.hpp) need C++20 coroutines; the condition is
// tt_sim_common.hpp's.
#if defined(__cpp_impl_coroutine) && !defined(TT_SIM_NO_COROUTINES)
#include <coroutine>
#endif

#endif
