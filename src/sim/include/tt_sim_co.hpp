// tt_sim_co.hpp — coroutine kernels on the kernel side.  Included by
// tt_sim_common.hpp inside namespace tt_sim, after the shuffle chains; not
// usable on its own.
//
// tt_xf_prepare_source() makes a kernel a coroutine when every barrier and
// shuffle chain it runs is in its own body (see src/xform/prep.h): its return type
// becomes TT_SIM_CO_KERNEL, `return` TT_SIM_CO_RETURN, __syncthreads*(...)
// TT_SIM_CO_SYNCTHREADS*(...), and each chain's run TT_SIM_CO_CHAIN.  Built
// as C++20, these await: a GPU thread suspends at a barrier or chain step
// into the runtime's loop (tt_sim_co.c) instead of switching fibers.
// Otherwise (C++17, or TT_SIM_NO_COROUTINES) they are the plain calls, and
// the prepared kernel is an ordinary one.  A coroutine kernel also runs on
// fibers (cfg.coroutines = 0): its awaiters then block like the calls they
// stand for and never suspend.
#if TT_SIM_COROUTINES

// The kernel's return type.  A thread starts when the kernel is called, runs
// until it suspends or returns, and its frame (bump-allocated from the
// block's arena, freed all at once when the next block starts) destroys
// itself when the body ends.
struct co_task {
    struct promise_type {
        co_task get_return_object() noexcept { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() { throw; }
        static void *operator new(std::size_t n) { return block_alloc(n); }
        static void operator delete(void *, std::size_t) noexcept {}
    };
};

inline void co_resume(void *frame) { std::coroutine_handle<>::from_address(frame).resume(); }

// Every awaiter: books the arrival in await_ready (false: suspend) or, on
// fibers, makes the blocking call there (true: go on); the runtime resumes
// the frame once the barrier or collective has completed.
inline void co_suspending(std::coroutine_handle<> h) { tt_sim_cur->co_frame = h.address(); }

struct co_barrier {
    const tt_sim_site *site;
    int kind, pred, res;
    bool await_ready() noexcept
    {
        if (!tt_sim_blk->co) {
            res = tt_sim_syncthreads(site, kind, pred);
            return true;
        }
        tt_sim_co_barrier(site, kind, pred);
        return false;
    }
    void await_suspend(std::coroutine_handle<> h) noexcept { co_suspending(h); }
    int await_resume() noexcept
    {
        if (!tt_sim_blk->co)
            return res;
        return kind == TT_SIM_BAR_PLAIN ? 0 : (int)(int64_t)tt_sim_co_value();
    }
};

// The shuffle of one recorded step, awaited: arrive() books it and returns
// false (the thread suspends), or on fibers makes it and returns true;
// raw() is the shuffled bits once the thread goes on.
struct co_shfl_await {
    uint64_t u;
    bool arrive(const shfl_step &s, uint64_t x) noexcept
    {
        if (!tt_sim_blk->co) {
            u = shfl_step_raw(s, x);
            return true;
        }
        tt_sim_co_shfl(s.site, s.has_mask, s.mask, x, s.src);
        return false;
    }
    uint64_t raw() const noexcept { return tt_sim_blk->co ? tt_sim_blk->co_res[tt_sim_cur->linear] : u; }
};

// Step k of a recorded chain (chain_probe::co_step): what chain_probe::run
// does shuffle by shuffle, one await per step.  Step 0 carries the chain:
// when the runtime fused the whole warp's chains, its result is the final
// value and the probe is marked done.
template <class T, class F> struct co_chain_step {
    chain_probe *p;
    T x;
    F op;
    uint32_t k;
    co_shfl_await sh;
    bool await_ready() noexcept
    {
        if constexpr (chain_ok<T>()) {
            const tt_sim_chain_rec &r = p->rec_;
            if (k == 0 && r.n > 1) { // (one step: an ordinary shuffle is as quick)
                tt_sim_chain_wait *cw = &tt_sim_blk->chain_wait[tt_sim_cur->linear];
                cw->key = chain_key(r);
                cw->chain = tt_sim_chain{&p->rec_, &chain_fuse<T, F>, &op};
            }
            return sh.arrive(p->step(k), chain_enc<T>(x));
        } else {
            return true; // never runs: the prepared code tests chain_ok first
        }
    }
    void await_suspend(std::coroutine_handle<> h) noexcept { co_suspending(h); }
    T await_resume() noexcept
    {
        if constexpr (chain_ok<T>()) {
            uint64_t u = sh.raw();
            if (k == 0 && p->rec_.n > 1) {
                tt_sim_chain_wait *cw = &tt_sim_blk->chain_wait[tt_sim_cur->linear];
                bool fused = cw->key == 1;
                cw->key = 0;
                if (fused) {
                    p->fused_ = true;
                    return chain_dec<T>(u);
                }
            }
            return op(x, chain_dec<T>(u));
        } else {
            return x;
        }
    }
};

// x = op(x, the shuffle s of x), awaited (TT_SIM_CO_STEP).
template <class T, class F> struct co_shfl_step {
    T x;
    shfl_step s;
    F op;
    co_shfl_await sh;
    bool await_ready() noexcept
    {
        if constexpr (chain_ok<T>())
            return sh.arrive(s, chain_enc<T>(x));
        else
            return true; // never runs: the prepared code tests chain_ok first
    }
    void await_suspend(std::coroutine_handle<> h) noexcept { co_suspending(h); }
    T await_resume() noexcept
    {
        if constexpr (chain_ok<T>())
            return op(x, chain_dec<T>(sh.raw()));
        else
            return x;
    }
};
template <class T, class F> co_shfl_step<T, F> co_step1(T x, const shfl_step &s, F op)
{
    return co_shfl_step<T, F>{x, s, op, {0}};
}

template <class T, class F> co_chain_step<T, F> chain_probe::co_step(T x, F op, uint32_t k)
{
    return co_chain_step<T, F>{this, x, op, k, {0}};
}

#define TT_SIM_CO_KERNEL ::tt_sim::co_task
#define TT_SIM_CO_RETURN co_return
#define TT_SIM_CO_BARRIER_(what, kind, p) \
    (co_await ::tt_sim::co_barrier{TT_SIM_SITE(what), kind, (p) != 0, 0})
#define TT_SIM_CO_SYNCTHREADS() TT_SIM_CO_BARRIER_("__syncthreads", TT_SIM_BAR_PLAIN, 0)
#define TT_SIM_CO_SYNCTHREADS_COUNT(p) TT_SIM_CO_BARRIER_("__syncthreads_count", TT_SIM_BAR_COUNT, p)
#define TT_SIM_CO_SYNCTHREADS_AND(p) TT_SIM_CO_BARRIER_("__syncthreads_and", TT_SIM_BAR_AND, p)
#define TT_SIM_CO_SYNCTHREADS_OR(p) TT_SIM_CO_BARRIER_("__syncthreads_or", TT_SIM_BAR_OR, p)
// X = the chain's value; CP the probe that recorded it; then the combine lambda
#define TT_SIM_CO_CHAIN(X, CP, ...)                                        \
    for (uint32_t tt_sim_k_ = 0; CP.co_more(tt_sim_k_); tt_sim_k_++) \
    X = co_await CP.co_step(X, __VA_ARGS__, tt_sim_k_)
// X = the value; S a shfl_step (chain_probe::one); then the combine lambda
#define TT_SIM_CO_STEP(X, S, ...) X = co_await ::tt_sim::co_step1(X, S, __VA_ARGS__)

#else // no coroutines: the prepared kernel is an ordinary one

#define TT_SIM_CO_KERNEL void
#define TT_SIM_CO_RETURN return
#define TT_SIM_CO_SYNCTHREADS() __syncthreads()
#define TT_SIM_CO_SYNCTHREADS_COUNT(p) __syncthreads_count(p)
#define TT_SIM_CO_SYNCTHREADS_AND(p) __syncthreads_and(p)
#define TT_SIM_CO_SYNCTHREADS_OR(p) __syncthreads_or(p)
#define TT_SIM_CO_CHAIN(X, CP, ...) X = CP.run(X, __VA_ARGS__)
#define TT_SIM_CO_STEP(X, S, ...) X = ::tt_sim::shfl_step_run(X, S, __VA_ARGS__)

#endif
