// tt_sim_region.hpp — region kernels on the kernel side.  Included by
// tt_sim_common.hpp inside namespace tt_sim, after the shuffle chains; not
// usable on its own.
//
// tt_xf_prepare_source() gives some coroutine kernels a second form of
// their body, run once per block instead of once per thread: each stretch
// of the body between two barriers or chains becomes a loop over the block's
// threads (TT_SIM_RG_FOR, in schedule order), as POCL compiles OpenCL
// work-groups.  A local that lives across a barrier or chain lives in a
// per-thread array (rg_alloc), re-bound by reference at the top of every
// loop; the condition of an `if` holding a chain is kept per thread the same
// way.  A chain is two halves: in the loop, each thread that reaches it
// records its steps (rg_arrive); after the loop, the runtime fuses each
// warp's chain (rg_chain, tt_sim_rg_chain) and the results go back into the
// value's array.  The kernel enters this form from its first statements
// (TT_SIM_RG_ENTER) when the runtime offers it the block (tt_sim_co.c).
// Why: a coroutine thread costs a resume and a suspend at each barrier and
// chain step; a loop over threads costs a few instructions per thread.

// Block memory that lives until the next block starts: the coroutine
// frames' bump arena (tt_sim_co.c).  16-byte aligned.
inline void *block_alloc(std::size_t n)
{
    tt_sim_block *b = tt_sim_blk;
    std::size_t r = (n + 15) & ~std::size_t(15);
    char *p = b->co_next;
    if (__builtin_expect(p != nullptr && std::size_t(b->co_end - p) >= r, 1)) {
        b->co_next = p + r;
        return p;
    }
    return tt_sim_co_alloc_slow(n);
}

// One T per thread of the block (a region kernel's local), by linear id.
// (The types src/xform/prep_rg.c keeps per thread are trivially copyable.)
template <class T> inline T *rg_alloc()
{
    static_assert(std::is_trivially_copyable<T>::value, "tt_sim: region locals are plain data");
    constexpr std::size_t a = alignof(T) > 16 ? alignof(T) : 16;
    auto p = reinterpret_cast<std::uintptr_t>(block_alloc(sizeof(T) * tt_sim_blk->nthreads + a - 16));
    return reinterpret_cast<T *>((p + a - 1) & ~std::uintptr_t(a - 1));
}

// A kept local's copy for one loop over the threads (src/xform/prep_rg.c,
// copyable): read from the thread's element, written back when the loop's
// body ends however it ends.  A local copy the compiler can keep in a
// register; the element itself lives in memory across every call.
// The write-back is left out where the compiler proves the copy unchanged
// (an arithmetic or pointer local the loop only reads: every stretch binds
// every kept local, and a store the compiler must keep for each of them,
// around kernel stores that may alias the element, was a third of a tiled
// matmul's instructions outside its inner loop).  __builtin_constant_p never
// evaluates its argument: where it cannot fold (-O0, a changed copy, other
// types) the copy is written back.
template <class T> struct rg_local {
    T *home;
    T v;
    const T orig;
    __attribute__((always_inline)) explicit rg_local(T &h) : home(&h), v(h), orig(v) {}
    __attribute__((always_inline)) ~rg_local()
    {
        if constexpr (std::is_arithmetic<T>::value || std::is_pointer<T>::value) {
            using U = std::conditional_t<sizeof(T) == 1, uint8_t,
                      std::conditional_t<sizeof(T) == 2, uint16_t,
                      std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
            if constexpr (sizeof(U) == sizeof(T)) {
                if (__builtin_constant_p(__builtin_bit_cast(U, v) == __builtin_bit_cast(U, orig)) &&
                    __builtin_bit_cast(U, v) == __builtin_bit_cast(U, orig))
                    return;
            }
        }
        *home = v;
    }
    rg_local(const rg_local &) = delete;
    rg_local &operator=(const rg_local &) = delete;
};

// The loop over a block's threads of a region that prep_ro.c found to write
// no shared memory, between two barriers (or the block's start or end): its
// barrier interval holds no write, so none of its accesses can race and its
// reads need not be recorded.  For the loop, the block's shadow is the pass
// table (tt_sim_shared.c) at base 0, where every inline read returns at its
// first compare.  race_ip stays, so a write (the finding was wrong) still
// goes to the runtime, which fails the launch with needs-coroutines: `tiletrans
// check` runs it again as coroutines, checking every access.  The shadow and
// base come back after the loop (a launch that fails inside it sets both up
// again at its next start).
struct rg_reads_only {
    tt_sim_block *const b = tt_sim_blk;
    tt_sim_rword *const shadow = b->race_shadow;
    const uint64_t base = b->race_base;
    bool once = true;
    rg_reads_only()
    {
        const tt_sim_rword *pass = b->race_ip ? tt_sim_race_pass_table() : nullptr;
        if (pass) {
            b->race_shadow = const_cast<tt_sim_rword *>(pass);
            b->race_base = 0;
        }
    }
    ~rg_reads_only()
    {
        b->race_shadow = shadow;
        b->race_base = base;
    }
    rg_reads_only(const rg_reads_only &) = delete;
    rg_reads_only &operator=(const rg_reads_only &) = delete;
};

// A flag per thread, all clear.
inline bool *rg_exits()
{
    bool *x = rg_alloc<bool>();
    std::memset(x, 0, tt_sim_blk->nthreads);
    return x;
}

// A loop holding a barrier or chain: whether it goes on, from its
// condition as each thread evaluated it (flag), which every thread that has
// not returned (exited; NULL: none can) must agree on.
inline bool rg_all(const bool *flag, const bool *exited)
{
    int all = -1;
    for (uint32_t l = 0, n = tt_sim_blk->nthreads; l < n; l++) {
        if (exited && exited[l])
            continue;
        if (all < 0)
            all = flag[l];
        else if (all != flag[l])
            tt_sim_rg_bail(nullptr, "the block's threads disagree on the condition of a loop that "
                                    "holds a barrier or chain");
    }
    return all == 1;
}

// The loop over the block's threads: makes each the running one, in
// schedule order; lin is its linear id.
struct rg_iter {
    tt_sim_thread *threads = tt_sim_blk->rg_threads;
    const uint32_t *order = tt_sim_blk->rg_order;
    uint32_t pos = 0, n = tt_sim_blk->nthreads, lin = 0;
    rg_iter() { enter(); }
    bool more() const { return pos < n; }
    void next()
    {
        if (++pos < n)
            enter();
    }
    void enter()
    {
        lin = order ? order[pos] : pos;
        tt_sim_thread *t = threads + lin;
        tt_sim_cur = t;
        tt_sim_tid = t->tid;
        TT_SIM_THREAD_FENCE();
    }
};

// The running thread reaches a chain on x whose shuffle loop is `probe`
// (`[&] { for (H) (void)(SHFL(x, ...)); }`): records its steps, as the
// coroutine form does, and its arrival (tt_sim_device.h, tt_sim_rg_chain).
// What a fused chain would not run exactly sends the launch back to
// coroutines.
template <class T, class P> inline void rg_arrive(const T &x, P probe)
{
    using V = chain_t<T>;
    if constexpr (!chain_ok<V>()) {
        tt_sim_rg_bail(nullptr, "a chain's value is not a plain number");
    } else {
        chain_probe p;
        probe();
        if (!p.complete() || !p.rec().fusable)
            tt_sim_rg_bail(p.rec().site, "a chain's steps could not all be recorded");
        tt_sim_thread *t = tt_sim_cur;
        if (p.rec().n > 0) {
            shfl_step s0 = p.step(0);
            if (s0.has_mask && !((s0.mask >> t->lane) & 1))
                tt_sim_rg_bail(s0.site, "a lane is not in its own shuffle mask");
        }
        tt_sim_blk->chain_wait[t->linear].key = chain_key(p.rec());
        tt_sim_blk->rg_vals[t->linear] = chain_enc<V>(x);
        t->wait_site = p.rec().site;
    }
}

// After the loop: fuses the chain of every warp that reached it (steps
// from src with stride, or NULL: the block's slots) and stores each arrived
// thread's result into the value's array.
template <class T, class F> inline void rg_chain_run(T *vals, F op, const int16_t *src, size_t stride)
{
    using V = chain_t<T>;
    if constexpr (chain_ok<V>()) {
        tt_sim_rg_chain(&chain_fuse<V, F>, &op, src, stride);
        tt_sim_chain_wait *cw = tt_sim_blk->chain_wait;
        const uint64_t *res = tt_sim_blk->co_res;
        for (uint32_t l = 0, n = tt_sim_blk->nthreads; l < n; l++)
            if (cw[l].key == 1) {
                vals[l] = chain_dec<V>(res[l]);
                cw[l].key = 0;
            }
    }
}

// Whether the runtime offers this block to the region form (it then takes
// it).  Only coroutine launches offer (tt_sim_co.c).
inline bool rg_enter()
{
    if (tt_sim_blk->rg != 1)
        return false;
    tt_sim_blk->rg = 2;
    return true;
}

template <class T, class F> inline void rg_chain(T *vals, F op)
{
    rg_chain_run(vals, op, nullptr, 0);
}

// ---- chains whose steps are the same everywhere -------------------------
// A chain whose loop header and shuffle arguments name only numbers,
// warpSize and the loop's own variables (tt_sim_chain_uniform) takes the
// same steps in lane l of every warp, block and launch: they are recorded
// once per process, and a thread's arrival then only books its value.
struct rg_steps {
    uint64_t key; // chain_key, the same for every lane
    const tt_sim_site *site;
    int16_t src[1]; // lane l's source at step k: src[k * TT_SIM_WARP + l]
};

// Per chain, process-wide: NULL until recorded; then the steps, or none()
// when some lane's cannot be fused (every thread then records its own, and
// the per-thread path reports what is wrong).
struct rg_steps_cache {
    std::atomic<const rg_steps *> p{nullptr};
    static const rg_steps *none()
    {
        static const rg_steps n{};
        return &n;
    }
    const rg_steps *usable() const
    {
        const rg_steps *s = p.load(std::memory_order_acquire);
        return s != none() ? s : nullptr;
    }
};

// Records the steps of every lane by running the probe as lane 0, 1, ...
// of a warp (the shims' lane rules read only tt_sim_cur->lane).  Called
// after the running thread's own probe succeeded, so nothing here fails
// that did not fail for it.  The result lives until the process exits.
template <class P> const rg_steps *rg_steps_record(P probe)
{
    constexpr uint32_t W = TT_SIM_WARP, N = TT_SIM_CHAIN_SLOTS;
    int16_t *src = static_cast<int16_t *>(std::malloc(sizeof(int16_t) * N * W));
    uint64_t *mask = static_cast<uint64_t *>(std::malloc(sizeof(uint64_t) * N * W));
    tt_sim_thread *t = tt_sim_cur, fake = *t;
    uint64_t key = 0;
    uint32_t n = 0;
    const tt_sim_site *site = nullptr;
    bool ok = src && mask;
    for (uint32_t l = 0; l < W && ok; l++) {
        fake.lane = l;
        tt_sim_cur = &fake;
        chain_probe pr(src + l, mask + l, W);
        probe();
        const tt_sim_chain_rec &r = pr.rec();
        ok = pr.complete() && r.fusable && r.n > 0 && (l == 0 || chain_key(r) == key) &&
             !(r.has_mask && !((mask[l] >> l) & 1));
        key = chain_key(r);
        n = r.n;
        site = r.site;
    }
    tt_sim_cur = t;
    rg_steps *s = ok ? static_cast<rg_steps *>(std::malloc(sizeof(rg_steps) + sizeof(int16_t) * n * W))
                     : nullptr;
    if (s) {
        s->key = key;
        s->site = site;
        std::memcpy(s->src, src, sizeof(int16_t) * n * W);
    }
    std::free(src);
    std::free(mask);
    return s ? s : rg_steps_cache::none();
}

template <class T, class P> inline void rg_arrive(const T &x, P probe, rg_steps_cache &c)
{
    using V = chain_t<T>;
    if constexpr (chain_ok<V>()) {
        if (const rg_steps *s = c.usable()) {
            tt_sim_thread *t = tt_sim_cur;
            tt_sim_blk->chain_wait[t->linear].key = s->key;
            tt_sim_blk->rg_vals[t->linear] = chain_enc<V>(x);
            t->wait_site = s->site;
            return;
        }
    }
    rg_arrive(x, probe); // its own steps, in the block's slots (they equal the recorded ones)
    if (c.p.load(std::memory_order_acquire) == nullptr) {
        const rg_steps *s = rg_steps_record(probe), *expect = nullptr;
        if (!c.p.compare_exchange_strong(expect, s, std::memory_order_acq_rel) &&
            s != rg_steps_cache::none())
            std::free(const_cast<rg_steps *>(s)); // another OS thread recorded them first
    }
}

template <class T, class F> inline void rg_chain(T *vals, F op, rg_steps_cache &c)
{
    const rg_steps *s = c.usable();
    rg_chain_run(vals, op, s ? s->src : nullptr, TT_SIM_WARP);
}

// The forms tt_xf_prepare_source() writes (see src/xform/prep.h).
#define TT_SIM_RG_ENTER() ::tt_sim::rg_enter()
// which threads returned (then skipped by every later loop), and how many
#define TT_SIM_RG_EXITS                                                                  \
    bool *const tt_sim_rg_x_ = ::tt_sim::rg_exits();                                     \
    uint32_t tt_sim_rg_nx_ = 0
#define TT_SIM_RG_FOR                                                                    \
    for (::tt_sim::rg_iter tt_sim_it_; tt_sim_it_.more(); tt_sim_it_.next())
// the loop of a region that writes no shared memory between two barriers
// (prep_ro.c decides, prep_rg.c writes it; rg_reads_only)
#define TT_SIM_RG_FOR_RO                                                                 \
    for (::tt_sim::rg_reads_only tt_sim_ro_; tt_sim_ro_.once; tt_sim_ro_.once = false)   \
    TT_SIM_RG_FOR
// a local of type T (its tokens) that lives across a barrier or chain
#define TT_SIM_RG_VAR(id, ...)                                                          \
    std::remove_cv_t<__VA_ARGS__> *const tt_sim_rg_##id##_ =                          \
        ::tt_sim::rg_alloc<std::remove_cv_t<__VA_ARGS__>>()
