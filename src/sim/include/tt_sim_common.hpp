// tt_sim_common.hpp — what CUDA and HIP kernels share on the CPU executor.
//
// Included by tt_sim_cuda.h and tt_sim_hip.h only, after they define
// TT_SIM_DIALECT_CUDA or TT_SIM_DIALECT_HIP.  Everything here is header-only
// C++17 (C++20 adds coroutine kernels, tt_sim_co.hpp); the runtime it calls
// is declared in tt_sim_device.h.
//
// Kernel code runs as ordinary C++ on fibers: threadIdx & co. read the
// running thread's state; barriers and warp collectives call the runtime,
// which switches fibers.  A kernel that tt_xf_prepare_source made a
// coroutine awaits them instead (tt_sim_co.hpp).  Unsupported constructs (inline PTX, wmma, grid
// sync) fail the BUILD with a message naming them.
#ifndef TT_SIM_COMMON_HPP
#define TT_SIM_COMMON_HPP

#ifndef TT_SIM_WARP
#error "tt_sim: define TT_SIM_WARP (32 or 64) before including the shim header"
#endif
#if TT_SIM_WARP != 32 && TT_SIM_WARP != 64
#error "tt_sim: TT_SIM_WARP must be 32 or 64"
#endif

// The standard headers, in a header of their own: harnesses precompile it (tt_sim_std.hpp).
#include "tt_sim_std.hpp"

#include "tt_sim_device.h"

// Coroutine kernels (tt_sim_co.hpp) need C++20 coroutines.
#if defined(__cpp_impl_coroutine) && !defined(TT_SIM_NO_COROUTINES)
#define TT_SIM_COROUTINES 1
#include <coroutine>
#if defined(__GNUC__) && !defined(__clang__)
// GCC warns that a coroutine frame (a type of the kernel's file) holds an
// awaiter of a lambda type (of no file): harmless here, and in every kernel.
#pragma GCC diagnostic ignored "-Wsubobject-linkage"
#endif
#else
#define TT_SIM_COROUTINES 0
#endif

// CUDA and HIP both declare the classification functions in the global namespace for
// device code (apex's update_scale_hysteresis calls isfinite unqualified); <cmath> puts
// them in std only.
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

// ------------------------------------------------------------ keywords
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#ifndef TT_SIM_DIALECT_HIP // CUDA-only attributes
#define __maxnreg__(...)
#define __grid_constant__
#endif
#define __align__(n) __attribute__((aligned(n)))
#define __CUDA_ARCH_SIM__ 1
#ifndef __restrict__
#define __restrict__ __restrict
#endif

// Unprepared __shared__ (a header the harness did not pass through
// tt_xf_prepare_source) must not compile silently into something wrong.
#define __shared__ \
    static_assert(false, "tt_sim: this __shared__ declaration was not rewritten; run the file through tt_xf_prepare_source()");

#ifndef TT_SIM_RACECHECK
#define TT_SIM_RACECHECK 1
#endif

namespace tt_sim {

#define TT_SIM_SITE(WHAT)                                                  \
    __extension__({                                                        \
        static const tt_sim_site tt_sim_site_ = {__FILE__, __LINE__, WHAT}; \
        &tt_sim_site_;                                                     \
    })
#define TT_SIM_STRIP(...) __VA_ARGS__

constexpr int warp_size = TT_SIM_WARP;
using lane_mask_t = std::conditional_t<TT_SIM_WARP == 64, unsigned long long, unsigned>;

template <class...> struct always_false : std::false_type {};

inline tt_sim_thread *self() { return tt_sim_cur; }

// ------------------------------------------------------------ dim3
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(const tt_sim_dim3 &d) : x(d.x), y(d.y), z(d.z) {}
    constexpr operator tt_sim_dim3() const { return tt_sim_dim3{x, y, z}; }
};

// ------------------------------------------------------------ collectives
// Moves a value of any trivially copyable type through one or more 8-byte
// collectives (CUDA shuffles 64-bit types as two 32-bit halves; the result is
// the same as moving the whole value from the source lane).
template <class T>
inline T shfl_value(const tt_sim_site *site, int has_mask, uint64_t mask, T v, int src)
{
    static_assert(std::is_trivially_copyable<T>::value, "tt_sim: shuffled types must be trivially copyable");
    if constexpr (sizeof(T) <= 8) {
        if (tt_sim_chain_rec *r = tt_sim_chain_probe_rec) {
            // recording a chain's steps (chain_probe): no shuffle, and no
            // call (the probe loop stays in registers).  Anything unusual
            // (too many steps, another site) makes the record incomplete:
            // the original loop runs instead.
            uint32_t k = r->n;
            if (k == 0) {
                r->site = site;
                r->has_mask = has_mask != 0;
            }
            // (one site: one call, so one mask form.)  A lane that keeps
            // its own value records itself, which reads the same: the fused
            // pass then needs no special case.
            if (k < TT_SIM_CHAIN_SLOTS && site == r->site && src == (int16_t)src) {
                r->src[k * r->stride] = (int16_t)(src == TT_SIM_LANE_SELF ? (int)tt_sim_cur->lane : src);
                if (has_mask) // (mostly a constant: no store without a mask)
                    r->mask[k * r->stride] = mask;
                r->n = k + 1;
                // a later step whose mask leaves this lane out fails at that step
                if (k > 0 && has_mask && !((mask >> tt_sim_cur->lane) & 1))
                    r->fusable = 0;
            } else {
                r->bad = 1;
            }
            return v;
        }
        uint64_t u = 0;
        std::memcpy(&u, &v, sizeof(T));
        u = tt_sim_shfl(site, has_mask, mask, u, src);
        T r;
        std::memcpy(&r, &u, sizeof(T));
        return r;
    } else {
        unsigned char b[(sizeof(T) + 7) / 8 * 8] = {};
        std::memcpy(b, &v, sizeof(T));
        for (size_t i = 0; i < sizeof b; i += 8) {
            uint64_t u;
            std::memcpy(&u, b + i, 8);
            u = tt_sim_shfl(site, has_mask, mask, u, src);
            std::memcpy(b + i, &u, 8);
        }
        T r;
        std::memcpy(&r, b, sizeof(T));
        return r;
    }
}

// Keeps the running thread named while threads run as a loop of calls
// (pack_run, and a region kernel's loops: rg_iter): a
// fault is reported for tt_sim_cur, and threadIdx reads tt_sim_tid.  The
// volatile asm reads both, so each thread's stores to them are made before
// its code runs, and GCC and clang keep the thread's memory accesses after
// it (volatile asm is a barrier to their schedulers).  Without it GCC -O2
// moved the stores out of a loop whose kernel stores unconditionally (a
// fault named the row's last thread), and GCC -O2 and clang hoisted a load
// that is the same for a whole block above the block's first thread (it
// named the previous block's last); test_sim_detect checks both.  A
// "memory" clobber would order everything by definition but made the kernel
// reload blockIdx & co. for every thread: 20% slower on a vector add.
#define TT_SIM_THREAD_FENCE() __asm__ __volatile__("" : : "m"(tt_sim_cur), "m"(tt_sim_tid))

#include "tt_sim_chain.hpp" // shuffle chains (inside namespace tt_sim)
#include "tt_sim_region.hpp" // region kernels (inside namespace tt_sim)
#include "tt_sim_co.hpp"     // coroutine kernels (inside namespace tt_sim)

template <class T> inline uint64_t match_key(T v)
{
    static_assert(sizeof(T) <= 8, "tt_sim: match on types wider than 64 bits");
    uint64_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    return u;
}

inline uint64_t ballot(const tt_sim_site *s, int has_mask, uint64_t mask, int pred, int *all)
{
    return tt_sim_collective(s, TT_SIM_COLL_BALLOT, has_mask, mask, 0, 0, pred != 0, all);
}

// ---- lane rules (pure functions; tests check them against the PTX / AMD text)

// PTX shfl.sync: c = ((32 - width) << 8) | clamp; clamp 0x1f for idx/down/bfly, 0 for up.
// Returns the source lane, or TT_SIM_LANE_SELF when out of range.
enum shfl_mode { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY };
inline int ptx_src_lane(shfl_mode mode, int lane, int b, int width)
{
    unsigned segmask = (unsigned)(32 - width) & 0x1f;
    unsigned cval = mode == SHFL_UP ? 0u : 0x1fu;
    unsigned bval = (unsigned)b & 0x1f;
    int max_lane = (int)((lane & segmask) | (cval & ~segmask));
    int min_lane = (int)(lane & segmask);
    int j;
    bool ok;
    switch (mode) {
    case SHFL_UP: j = lane - (int)bval; ok = j >= max_lane; break;
    case SHFL_DOWN: j = lane + (int)bval; ok = j <= max_lane; break;
    case SHFL_BFLY: j = lane ^ (int)bval; ok = j <= max_lane; break;
    default: j = min_lane | (int)(bval & ~segmask); ok = j <= max_lane; break;
    }
    return ok ? j : TT_SIM_LANE_SELF;
}

// AMD (hip/amd_detail/amd_warp_functions.h): ds_bpermute addresses lanes
// modulo the wavefront size.
inline int amd_src_lane(shfl_mode mode, int self_lane, int b, int width, int wave)
{
    int index;
    switch (mode) {
    case SHFL_IDX: index = (b & (width - 1)) + (self_lane & ~(width - 1)); break;
    case SHFL_UP:
        index = (int)((unsigned)self_lane - (unsigned)b);
        if (index < (self_lane & ~(width - 1)))
            return TT_SIM_LANE_SELF;
        break;
    case SHFL_DOWN:
        index = (int)((unsigned)self_lane + (unsigned)b);
        if ((int)((unsigned)(self_lane & (width - 1)) + (unsigned)b) >= width)
            return TT_SIM_LANE_SELF;
        break;
    default:
        index = self_lane ^ b;
        if (index >= ((self_lane + width) & ~(width - 1)))
            return TT_SIM_LANE_SELF;
        break;
    }
    index &= wave - 1;
    return index == self_lane ? TT_SIM_LANE_SELF : index;
}

// ------------------------------------------------------------ atomics
template <class T> inline T atomic_rmw_cas(T *p, T (*f)(T, T), T v)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 2, "tt_sim: atomic size");
    using U = std::conditional_t<sizeof(T) == 8, uint64_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>>;
    U *q = reinterpret_cast<U *>(p);
    U old = __atomic_load_n(q, __ATOMIC_RELAXED), nw;
    for (;;) {
        T o, n;
        std::memcpy(&o, &old, sizeof(T));
        n = f(o, v);
        std::memcpy(&nw, &n, sizeof(T));
        if (__atomic_compare_exchange_n(q, &old, nw, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return o;
    }
}

// ------------------------------------------------------------ shared memory
template <class T> struct shared_meta;

template <class T, class Tag>
inline T *shared_static_ptr(Tag, const char *file, int line, const char *name, size_t align)
{
    static const size_t off =
        tt_sim_shared_register(file, line, name, sizeof(T), align ? align : alignof(T));
    return reinterpret_cast<T *>(tt_sim_blk->shared + off);
}

// Race-checked reference to one shared scalar.
// Every member is always_inline, also at -O0: the race checker and the
// index check take the kernel's source line from the return address of
// their runtime call, which must therefore lie in the kernel's own code.
#define TT_SIM_AI __attribute__((always_inline))

#include "tt_sim_race.hpp" // the race check's inline part (inside namespace tt_sim)

template <class E> class sref {
    E *p_;
    const tt_sim_site *s_;
    TT_SIM_AI void rd() const { race_read(p_, s_); }
    TT_SIM_AI void wr() const { race_write(p_, static_cast<const E *>(nullptr), s_); }

public:
    using value_type = std::remove_cv_t<E>;
    TT_SIM_AI sref(E *p, const tt_sim_site *s) : p_(p), s_(s) {}
    TT_SIM_AI operator value_type() const { rd(); return *p_; }
    // A non-const reference to the element, for a helper that takes one
    // (cuda-samples' Comparator(uint &keyA, ...), a swap).  Binding it counts
    // as a read; what then goes through the reference the check cannot see,
    // so a write there is not checked (src/sim/README.md, "Race check").  Not
    // a read and a write: C++ takes this conversion for `c ? s[i] : x` too
    // when x is an lvalue, where a write would be a false race (llm.c's
    // blockReduce).  A template, so that a plain read prefers the conversion
    // above (a non-template wins a tie).
    template <class R, std::enable_if_t<std::is_same<R, value_type>::value, int> = 0>
    TT_SIM_AI operator R &() const
    {
        rd();
        return *p_;
    }
    TT_SIM_AI value_type get() const { rd(); return *p_; }
    TT_SIM_AI void st(const value_type &v) const { race_write(p_, static_cast<const E *>(&v), s_); }
    TT_SIM_AI const sref &operator=(value_type v) const { st(v); *p_ = v; return *this; }
    TT_SIM_AI const sref &operator=(const sref &o) const { value_type v = o.get(); st(v); *p_ = v; return *this; }
    E *operator&() const { return p_; }
#define TT_SIM_SREF_OP(op)                                                    \
    template <class V> TT_SIM_AI const sref &operator op##=(const V &v) const  \
    {                                                                          \
        rd(); wr();                                                            \
        *p_ = static_cast<value_type>(*p_ op v);                               \
        return *this;                                                          \
    }
    TT_SIM_SREF_OP(+) TT_SIM_SREF_OP(-) TT_SIM_SREF_OP(*) TT_SIM_SREF_OP(/)
#undef TT_SIM_SREF_OP
#define TT_SIM_SREF_IOP(op)                                                   \
    template <class V, class X = value_type,                                   \
              std::enable_if_t<std::is_integral<X>::value, int> = 0>           \
    TT_SIM_AI const sref &operator op##=(const V &v) const                     \
    {                                                                          \
        rd(); wr();                                                            \
        *p_ = static_cast<value_type>(*p_ op v);                               \
        return *this;                                                          \
    }
    TT_SIM_SREF_IOP(%) TT_SIM_SREF_IOP(&) TT_SIM_SREF_IOP(|) TT_SIM_SREF_IOP(^)
    TT_SIM_SREF_IOP(<<) TT_SIM_SREF_IOP(>>)
#undef TT_SIM_SREF_IOP
    TT_SIM_AI const sref &operator++() const { rd(); wr(); ++*p_; return *this; }
    TT_SIM_AI const sref &operator--() const { rd(); wr(); --*p_; return *this; }
    TT_SIM_AI value_type operator++(int) const { rd(); wr(); return (*p_)++; }
    TT_SIM_AI value_type operator--(int) const { rd(); wr(); return (*p_)--; }
};

// Race- and bounds-checked view of a shared array T (T = E[N] or E[N][M]...).
template <class T> class sview {
    using elem = std::remove_extent_t<T>;
    elem *p_;
    const tt_sim_site *s_;
    const char *name_;
    // the element (a view of it, or a checked reference) at a checked index
    template <class X> TT_SIM_AI decltype(auto) at(X ix) const
    {
        if constexpr (std::is_array<elem>::value)
            return sview<elem>(&p_[ix], s_, name_);
        else if constexpr (std::is_arithmetic<elem>::value)
            return sref<elem>(&p_[ix], s_);
        else
            return (p_[ix]);
    }

public:
    static constexpr size_t extent = std::extent<T>::value;
    TT_SIM_AI sview(T *p, const tt_sim_site *s, const char *n) : p_(*p), s_(s), name_(n) {}
    TT_SIM_AI sview(elem *p, const tt_sim_site *s, const char *n) : p_(p), s_(s), name_(n) {}
    template <class I> TT_SIM_AI decltype(auto) operator[](I i) const
    {
        if constexpr (extent != 0 && extent <= UINT32_MAX && std::is_integral<I>::value &&
                      sizeof(I) <= 4) {
            // one unsigned 32-bit compare (a negative index is above any
            // extent), and an index that needs no sign extension
            uint32_t ux = uint32_t(i);
            if (ux >= extent)
                tt_sim_shared_oob(s_, name_, (long long)i, (long long)extent);
            return at(ux);
        } else {
            long long ix = (long long)i;
            if (extent && (ix < 0 || (size_t)ix >= extent))
                tt_sim_shared_oob(s_, name_, ix, (long long)extent);
            return at(ix);
        }
    }
    operator elem *() const { return p_; }
    template <class U> explicit operator U *() const { return reinterpret_cast<U *>(p_); }
    elem *operator&() const { return p_; }
};

// Returns T& into the block's arena, or (race checking on, arithmetic
// elements) a checked view of it.
template <class T, class Tag>
inline decltype(auto) shared_decl(Tag tag, const tt_sim_site *site, const char *name, size_t align)
{
    T *p = shared_static_ptr<T>(tag, site->file, site->line, name, align);
#if TT_SIM_RACECHECK
    if constexpr (std::is_array<T>::value &&
                  std::is_arithmetic<std::remove_all_extents_t<T>>::value)
        return sview<T>(p, site, name);
    else if constexpr (std::is_arithmetic<T>::value)
        return sref<T>(p, site);
    else
        return (*p);
#else
    return (*p);
#endif
}

template <class T> inline std::remove_extent_t<T> *shared_extern(size_t align)
{
    (void)align;
    return reinterpret_cast<std::remove_extent_t<T> *>(tt_sim_blk->dyn_shared);
}

// Namespace-scope __shared__: a handle that finds the running block's copy
// at every use.
template <class T, class Tag> struct shared_global {
    const char *file;
    int line;
    const char *name;
    size_t align;
    T &get() const { return *shared_static_ptr<T>(Tag{}, file, line, name, align); }
    operator T &() const { return get(); }
    template <class I> decltype(auto) operator[](I i) const { return get()[i]; }
    template <class X = T, std::enable_if_t<std::is_array<X>::value, int> = 0>
    operator std::remove_extent_t<X> *() const { return get(); }
    template <class V> const shared_global &operator=(const V &v) const { get() = v; return *this; }
};

// ------------------------------------------------------------ launch
// The pack holds the arguments and a lambda that calls the kernel by name
// (made by TT_SIM_LAUNCH), so the compiler can inline the kernel into
// pack_run's loop over the threads of a block.
template <class F, class... P> struct arg_pack {
    F call;
    std::tuple<std::decay_t<P>...> args;
};

template <class Pack> void pack_copy(void *dst, const void *src)
{
    new (dst) Pack(*static_cast<const Pack *>(src));
}
template <class Pack> void pack_destroy(void *p) { static_cast<Pack *>(p)->~Pack(); }
template <class Pack> void pack_invoke(void *p)
{
    Pack *k = static_cast<Pack *>(p);
    std::apply(k->call, k->args);
}

// tt_sim_kernel::run: the threads at positions pos.. while below *end.
template <class Pack>
uint32_t pack_run(void *p, tt_sim_thread *threads, const uint32_t *order, uint32_t pos,
                  const uint64_t *end)
{
    Pack *k = static_cast<Pack *>(p);
    auto args = k->args; // (a local: the kernel's int stores cannot alias an int argument)
    if (order) {
        for (; pos < *end; pos++) {
            tt_sim_thread *t = threads + order[pos];
            tt_sim_cur = t;
            tt_sim_tid = t->tid;
            TT_SIM_THREAD_FENCE();
            std::apply(k->call, args);
        }
        return pos;
    }
    // forward schedule: positions are linear ids.  One row (fixed y, z) at a
    // time: y and z come from the record once, x counts (nothing else writes
    // tt_sim_tid while threads run as calls); the record pointer steps along
    // to the row's end, computed once, so that the loop has one exit while
    // the kernel calls nothing that could lower *end.
    const uint32_t bx = tt_sim_blk->block_dim.x;
    const uint64_t e0 = *end;
    tt_sim_thread *t = threads + pos;
    while (pos < e0) {
        tt_sim_tid = t->tid;
        uint32_t x = t->tid.x;
        uint32_t stop = pos + (uint32_t)std::min<uint64_t>(bx - x, e0 - pos);
        tt_sim_thread *te = threads + stop;
        do {
            tt_sim_cur = t;
            tt_sim_tid.x = x;
            TT_SIM_THREAD_FENCE();
            std::apply(k->call, args);
            if (*end != e0) // lowered to just past a thread that blocked
                return (uint32_t)(t - threads) + 1;
            t++;
            x++;
        } while (t != te);
        pos = stop;
    }
    return pos;
}

// Runs `kernel` over cfg's grid with the given arguments (converted to the
// kernel's parameter types).  Pointers must come from tt_sim_alloc() for
// out-of-bounds accesses to be caught.  See tt_sim.h for the result.
// `call` invokes the kernel with the converted arguments (lvalues).
// A kernel returns void, or is a coroutine (co_task: see tt_sim_co.hpp).
template <class R, class F, class... P, class... A>
inline tt_sim_result launch_with(const char *name, R (*kernel)(P...), F call,
                                 const tt_sim_config &cfg, A &&...args)
{
    static_assert(sizeof...(P) == sizeof...(A), "tt_sim::launch: wrong number of kernel arguments");
    (void)kernel;
    using Pack = arg_pack<F, P...>;
    Pack pack{call, std::tuple<std::decay_t<P>...>(static_cast<std::decay_t<P>>(args)...)};
    tt_sim_kernel k;
    k.name = name;
    k.warp = TT_SIM_WARP;
    k.args = &pack;
    k.args_size = sizeof(Pack);
    k.args_align = alignof(Pack);
    k.args_copy = &pack_copy<Pack>;
    k.args_destroy = &pack_destroy<Pack>;
    k.invoke = &pack_invoke<Pack>;
    k.run = &pack_run<Pack>;
    k.co_resume = nullptr;
#if TT_SIM_COROUTINES
    constexpr bool co = std::is_same<R, co_task>::value;
    if constexpr (co)
        k.co_resume = &co_resume;
#else
    constexpr bool co = false;
#endif
    static_assert(co || std::is_void<R>::value, "tt_sim::launch: a kernel returns void");
    return tt_sim_launch_batched(&k, &cfg);
}

template <class R, class... P> struct fn_caller {
    R (*kernel)(P...);
    void operator()(std::decay_t<P> &...a) const { kernel(a...); }
};

// The same through a function pointer (no inlining).
template <class R, class... P, class... A>
inline tt_sim_result launch(const char *name, R (*kernel)(P...), const tt_sim_config &cfg,
                            A &&...args)
{
    return launch_with(name, kernel, fn_caller<R, P...>{kernel}, cfg, std::forward<A>(args)...);
}

} // namespace tt_sim

#define TT_SIM_LAUNCH(kernel, cfg, ...)                                                    \
    ::tt_sim::launch_with(#kernel, kernel, [&](auto &...tt_sim_a_) { kernel(tt_sim_a_...); }, \
                          cfg, ##__VA_ARGS__)

// The forms tt_xf_prepare_source() writes (see src/xform/prep.h).
#define TT_SIM_SHARED(name, align, dims, ...)                                                   \
    auto &&name = ::tt_sim::shared_decl<__VA_ARGS__ TT_SIM_STRIP dims>([] {}, TT_SIM_SITE(#name), \
                                                                     #name, align)
#define TT_SIM_SHARED_EXTERN(name, align, dims, ...) \
    auto name = ::tt_sim::shared_extern<__VA_ARGS__ TT_SIM_STRIP dims>(align)
#define TT_SIM_SHARED_GLOBAL(name, align, dims, ...)                                      \
    struct tt_sim_tag_##name {};                                                          \
    static const ::tt_sim::shared_global<__VA_ARGS__ TT_SIM_STRIP dims, tt_sim_tag_##name> \
        name = {__FILE__, __LINE__, #name, align}

// ------------------------------------------------------------ built-in variables
using dim3 = tt_sim::dim3;
typedef tt_sim_dim3 uint3;
#define threadIdx (::tt_sim_tid)
#define blockIdx (::tt_sim_blk->block_idx)
#define blockDim (::tt_sim_blk->block_dim)
#define gridDim (::tt_sim_blk->grid_dim)

// ------------------------------------------------------------ barriers & fences
#define __syncthreads() tt_sim_syncthreads(TT_SIM_SITE("__syncthreads"), TT_SIM_BAR_PLAIN, 0)
#define __syncthreads_count(p) tt_sim_syncthreads(TT_SIM_SITE("__syncthreads_count"), TT_SIM_BAR_COUNT, (p) != 0)
#define __syncthreads_and(p) tt_sim_syncthreads(TT_SIM_SITE("__syncthreads_and"), TT_SIM_BAR_AND, (p) != 0)
#define __syncthreads_or(p) tt_sim_syncthreads(TT_SIM_SITE("__syncthreads_or"), TT_SIM_BAR_OR, (p) != 0)
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
#ifndef TT_SIM_DIALECT_HIP // HIP 5.2 has neither (abort() and __builtin_trap() it has)
#define __trap() tt_sim_fail(TT_SIM_ERR_TRAP, __FILE__, __LINE__, "__trap() called")
#define __brkpt() tt_sim_fail(TT_SIM_ERR_TRAP, __FILE__, __LINE__, "__brkpt() called")
#endif
#undef assert
#define assert(e) \
    ((e) ? (void)0 : tt_sim_fail(TT_SIM_ERR_TRAP, __FILE__, __LINE__, "assertion failed: %s", #e))
inline long long clock64()
{
#if defined(__x86_64__)
    return (long long)__builtin_ia32_rdtsc();
#else
    return (long long)std::clock();
#endif
}
inline long long wall_clock64() { return clock64(); }
#ifndef TT_SIM_DIALECT_HIP
inline void __nanosleep(unsigned) {}
#endif

// ------------------------------------------------------------ atomics
namespace tt_sim {
template <class T> inline T a_add(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline float f_add(float a, float b) { return a + b; }
inline double d_add(double a, double b) { return a + b; }
} // namespace tt_sim

#define TT_SIM_ATOMIC_INT(T)                                                                         \
    inline T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }             \
    inline T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }             \
    inline T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }           \
    inline T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }             \
    inline T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }               \
    inline T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }             \
    inline T atomicMin(T *p, T v) { return tt_sim::atomic_rmw_cas<T>(p, [](T a, T b) { return b < a ? b : a; }, v); } \
    inline T atomicMax(T *p, T v) { return tt_sim::atomic_rmw_cas<T>(p, [](T a, T b) { return b > a ? b : a; }, v); } \
    inline T atomicCAS(T *p, T cmp, T v)                                                             \
    {                                                                                                \
        __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
        return cmp;                                                                                  \
    }
TT_SIM_ATOMIC_INT(int)
TT_SIM_ATOMIC_INT(unsigned int)
TT_SIM_ATOMIC_INT(unsigned long long)
TT_SIM_ATOMIC_INT(long long)
TT_SIM_ATOMIC_INT(unsigned long)
TT_SIM_ATOMIC_INT(long)
#undef TT_SIM_ATOMIC_INT
inline unsigned short atomicCAS(unsigned short *p, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return cmp;
}
inline float atomicAdd(float *p, float v) { return tt_sim::atomic_rmw_cas<float>(p, tt_sim::f_add, v); }
inline double atomicAdd(double *p, double v) { return tt_sim::atomic_rmw_cas<double>(p, tt_sim::d_add, v); }
inline float atomicSub(float *p, float v) { return atomicAdd(p, -v); }
inline float atomicExch(float *p, float v) { return tt_sim::atomic_rmw_cas<float>(p, [](float, float b) { return b; }, v); }
inline double atomicExch(double *p, double v) { return tt_sim::atomic_rmw_cas<double>(p, [](double, double b) { return b; }, v); }
inline float atomicMin(float *p, float v) { return tt_sim::atomic_rmw_cas<float>(p, [](float a, float b) { return fminf(a, b); }, v); }
inline float atomicMax(float *p, float v) { return tt_sim::atomic_rmw_cas<float>(p, [](float a, float b) { return fmaxf(a, b); }, v); }
inline double atomicMin(double *p, double v) { return tt_sim::atomic_rmw_cas<double>(p, [](double a, double b) { return fmin(a, b); }, v); }
inline double atomicMax(double *p, double v) { return tt_sim::atomic_rmw_cas<double>(p, [](double a, double b) { return fmax(a, b); }, v); }
inline unsigned atomicInc(unsigned *p, unsigned v)
{
    return tt_sim::atomic_rmw_cas<unsigned>(p, [](unsigned o, unsigned m) { return o >= m ? 0u : o + 1; }, v);
}
inline unsigned atomicDec(unsigned *p, unsigned v)
{
    return tt_sim::atomic_rmw_cas<unsigned>(p, [](unsigned o, unsigned m) { return (o == 0 || o > m) ? m : o - 1; }, v);
}
// scoped variants behave like the device-wide ones here
#define TT_SIM_SCOPED(name)                                                     \
    template <class T, class... R> inline auto name##_block(T *p, R... r) { return name(p, r...); } \
    template <class T, class... R> inline auto name##_system(T *p, R... r) { return name(p, r...); }
TT_SIM_SCOPED(atomicAdd) TT_SIM_SCOPED(atomicSub) TT_SIM_SCOPED(atomicExch) TT_SIM_SCOPED(atomicMin)
TT_SIM_SCOPED(atomicMax) TT_SIM_SCOPED(atomicInc) TT_SIM_SCOPED(atomicDec) TT_SIM_SCOPED(atomicCAS)
TT_SIM_SCOPED(atomicAnd) TT_SIM_SCOPED(atomicOr) TT_SIM_SCOPED(atomicXor)
#undef TT_SIM_SCOPED

// ------------------------------------------------------------ integer intrinsics
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
inline int __mul24(int a, int b) { return (int)((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffff) * (b & 0xffffff); }
inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
inline unsigned __sad(int a, int b, unsigned c) { return c + (unsigned)(a > b ? a - b : b - a); }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned)((v << (s & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned)(v >> (s & 31));
}

// min/max overloads CUDA and HIP put in the global namespace. The sets differ, and the
// HIP side has exactly HIP 5.2's (amd_math_functions.h): a PASS must mean the port builds.
#ifndef TT_SIM_DIALECT_HIP
// CUDA: every pair of integer types, returning their usual arithmetic conversion
#define TT_SIM_MINMAX(T)                                  \
    inline T min(T a, T b) { return b < a ? b : a; }      \
    inline T max(T a, T b) { return a < b ? b : a; }
TT_SIM_MINMAX(int) TT_SIM_MINMAX(unsigned) TT_SIM_MINMAX(long long) TT_SIM_MINMAX(unsigned long long)
TT_SIM_MINMAX(long) TT_SIM_MINMAX(unsigned long)
#undef TT_SIM_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
#else
// HIP 5.2: a template of one type, (int, int), (uint32_t, int) returning int (not the other
// order), float, double, and for any other pair of arithmetic types a double overload
// (so min(int, unsigned) is a double there: tiletrans ports call tiletrans::min).
template <class T> inline T min(T a, T b) { return (a < b) ? a : b; }
template <class T> inline T max(T a, T b) { return (a > b) ? a : b; }
inline int min(int a, int b) { return (a < b) ? a : b; }
inline int max(int a, int b) { return (a > b) ? a : b; }
inline int min(uint32_t a, int b) { return (a < (uint32_t)b) ? (int)a : b; }
inline int max(uint32_t a, int b) { return (a > (uint32_t)b) ? (int)a : b; }
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
template <class A, class B>
inline typename std::enable_if<std::numeric_limits<A>::is_specialized && std::numeric_limits<B>::is_specialized, double>::type
min(A a, B b) { return min((double)a, (double)b); }
template <class A, class B>
inline typename std::enable_if<std::numeric_limits<A>::is_specialized && std::numeric_limits<B>::is_specialized, double>::type
max(A a, B b) { return max((double)a, (double)b); }
#endif

// ------------------------------------------------------------ float intrinsics
inline float __int_as_float(int x) { float f; std::memcpy(&f, &x, 4); return f; }
inline int __float_as_int(float x) { int i; std::memcpy(&i, &x, 4); return i; }
inline float __uint_as_float(unsigned x) { float f; std::memcpy(&f, &x, 4); return f; }
inline unsigned __float_as_uint(float x) { unsigned i; std::memcpy(&i, &x, 4); return i; }
inline double __longlong_as_double(long long x) { double d; std::memcpy(&d, &x, 8); return d; }
inline long long __double_as_longlong(double x) { long long i; std::memcpy(&i, &x, 8); return i; }
inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
#ifndef TT_SIM_DIALECT_HIP
inline float __fmaf_rz(float x, float y, float z) { return fmaf(x, y, z); }
#endif
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : (x != x ? 0.0f : x); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * 0.70710678118654752f); }
inline double normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752); }
inline float erfinvf(float y)
{
    // Newton refinement of a rational start; enough for kernels that use it
    if (y <= -1.0f) return -INFINITY;
    if (y >= 1.0f) return INFINITY;
    double w = -log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) { w -= 2.5; x = 2.81022636e-08; x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w;
        x = -4.39150654e-06 + x * w; x = 0.00021858087 + x * w; x = -0.00125372503 + x * w;
        x = -0.00417768164 + x * w; x = 0.246640727 + x * w; x = 1.50140941 + x * w; }
    else { w = sqrt(w) - 3.0; x = -0.000200214257; x = 0.000100950558 + x * w; x = 0.00134934322 + x * w;
        x = -0.00367342844 + x * w; x = 0.00573950773 + x * w; x = -0.0076224613 + x * w;
        x = 0.00943887047 + x * w; x = 1.00167406 + x * w; x = 2.83297682 + x * w; }
    x *= y;
    for (int i = 0; i < 2; i++)
        x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    return (float)x;
}
inline double erfinv(double y) { return erfinvf((float)y); }
inline float erfcinvf(float y) { return erfinvf(1.0f - y); }
inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
inline int __float2int_rz(float x) { return (int)x; }
inline int __float2int_rd(float x) { return (int)floorf(x); }
inline int __float2int_ru(float x) { return (int)ceilf(x); }
inline unsigned __float2uint_rn(float x) { return (unsigned)nearbyintf(x); }
inline unsigned __float2uint_rz(float x) { return (unsigned)x; }
inline long long __float2ll_rn(float x) { return (long long)nearbyintf(x); }
inline long long __float2ll_rz(float x) { return (long long)x; }
inline int __double2int_rn(double x) { return (int)nearbyint(x); }
inline int __double2int_rz(double x) { return (int)x; }
inline float __double2float_rn(double x) { return (float)x; }
inline float __int2float_rn(int x) { return (float)x; }
inline float __uint2float_rn(unsigned x) { return (float)x; }
inline float __ll2float_rn(long long x) { return (float)x; }
inline double __int2double_rn(int x) { return (double)x; }
inline float fdividef(float x, float y) { return x / y; }
#ifndef TT_SIM_DIALECT_HIP
inline float saturate(float x) { return __saturatef(x); }
#endif

// ------------------------------------------------------------ loads & stores
template <class T> inline T __ldg(const T *p) { return *p; }
#ifndef TT_SIM_DIALECT_HIP // HIP 5.2 has only __ldg (and __ldc[gas] of halves: tt_sim_half.hpp)
template <class T> inline T __ldcg(const T *p) { return *p; }
template <class T> inline T __ldca(const T *p) { return *p; }
template <class T> inline T __ldcs(const T *p) { return *p; }
template <class T> inline T __ldlu(const T *p) { return *p; }
template <class T> inline T __ldcv(const T *p) { return *p; }
template <class T> inline void __stcg(T *p, T v) { *p = v; }
template <class T> inline void __stcs(T *p, T v) { *p = v; }
template <class T> inline void __stwb(T *p, T v) { *p = v; }
template <class T> inline void __stwt(T *p, T v) { *p = v; }
#endif

#include "tt_sim_vector.hpp"
#include "tt_sim_half.hpp"

#endif // TT_SIM_COMMON_HPP
