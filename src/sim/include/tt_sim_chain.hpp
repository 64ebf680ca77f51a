// tt_sim_chain.hpp — shuffle chains on the kernel side.  Included by
// tt_sim_common.hpp inside namespace tt_sim, after shfl_value; not usable on
// its own.
// ------------------------------------------------------------ shuffle chains
// tt_xf_prepare_source() rewrites a loop `for (H) x = op(x, shfl(x, ...));`
// (nothing but x changes in it; op uses only x and the shuffled value) into
//   if (chain_ok<decltype(x)>()) { chain_probe p; for (H) (void)shfl(x, ...);
//       if (p.complete()) { x = p.run(x, op); done } }  if (!done) <the loop>
// The probe loop runs the loop's header and the shims' lane rules without
// shuffling, recording each step's source lane and mask; run() hands the
// steps to the runtime, which runs them as one collective when the whole
// warp arrives with the same chain (tt_sim_chain_wait), or shuffle by
// shuffle otherwise.  The results are the loop's, bit for bit.  A probe
// that could not record the steps (more than TT_SIM_CHAIN_SLOTS, or a
// shuffle of another site) is incomplete and the original loop runs.
template <class T> using chain_t = std::remove_cv_t<std::remove_reference_t<T>>;

// Only values (not references into shared memory) of arithmetic type: a
// reference would make every step a store others could see.
template <class T> constexpr bool chain_ok()
{
    return !std::is_reference<T>::value && !std::is_volatile<T>::value &&
           std::is_arithmetic<T>::value && sizeof(T) <= 8;
}

template <class T> inline uint64_t chain_enc(T v)
{
    uint64_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    return u;
}
template <class T> inline T chain_dec(uint64_t u)
{
    T v;
    std::memcpy(&v, &u, sizeof(T));
    return v;
}

// tt_sim_chain::fuse: here, in the kernel's translation unit, so that op
// is inlined into the loop over the lanes.
template <class T, class F>
void chain_fuse(const void *opp, uint64_t *vals, const int16_t *src, size_t stride, uint32_t n,
                uint32_t nl, tt_sim_chain_inactive_fn inactive, void *ctx)
{
    const F &op = *static_cast<const F *>(opp);
    T buf[2][64], *a = buf[0], *b = buf[1];
    for (uint32_t l = 0; l < nl; l++)
        a[l] = chain_dec<T>(vals[l]);
    for (uint32_t k = 0; k < n; k++) {
        for (uint32_t l = 0; l < nl; l++) {
            int32_t s = src[k * stride + l];
            T r = __builtin_expect((uint32_t)s < nl, 1) ? a[s] : chain_dec<T>(inactive(ctx, l, s));
            b[l] = op(a[l], r);
        }
        std::swap(a, b);
    }
    for (uint32_t l = 0; l < nl; l++)
        vals[l] = chain_enc<T>(a[l]);
}

// What the runtime compares to fuse a warp's chains: site and length (one op
// per site, so equal keys mean equal ops); 0 for a chain it cannot fuse.
// The length is the top 16 bits (sites are static data, below 2^47, and
// chains at most TT_SIM_CHAIN_SLOTS long): tt_sim_rg_chain reads it there.
inline uint64_t chain_key(const tt_sim_chain_rec &r)
{
    return r.fusable ? (uint64_t)(uintptr_t)r.site ^ ((uint64_t)r.n << 48) : 0;
}

#if TT_SIM_COROUTINES
template <class T, class F> struct co_chain_step;
#endif

// One recorded shuffle: where, its _sync mask and its source lane.
struct shfl_step {
    const tt_sim_site *site;
    int has_mask;
    uint64_t mask;
    int32_t src;
};

// The shuffle s of the bits u, blocking (fibers).
inline uint64_t shfl_step_raw(const shfl_step &s, uint64_t u)
{
    return tt_sim_shfl(s.site, s.has_mask, s.mask, u, s.src);
}

// x = op(x, the shuffle s of x), blocking (fibers).
template <class T, class F> T shfl_step_run(T x, const shfl_step &s, F op)
{
    if constexpr (chain_ok<T>())
        return op(x, chain_dec<T>(shfl_step_raw(s, chain_enc<T>(x))));
    else
        return x; // never runs: the prepared code tests chain_ok first
}

class chain_probe {
    tt_sim_chain_rec rec_;
#if TT_SIM_COROUTINES
    bool fused_ = false; // a fused step 0 ran the whole chain
    template <class T, class F> friend struct co_chain_step;
#endif

public:
    // Records into the running thread's slots of the block.
    chain_probe()
        : chain_probe(tt_sim_blk->chain_src + tt_sim_cur->linear,
                      tt_sim_blk->chain_mask + tt_sim_cur->linear, tt_sim_blk->nthreads)
    {
    }
    // Records into src[k * stride] and mask[k * stride] instead of the
    // running thread's slots (region kernels' steps recorded once).
    chain_probe(int16_t *src, uint64_t *mask, uint32_t stride)
    {
        rec_.site = nullptr;
        rec_.n = 0;
        rec_.src = src;
        rec_.mask = mask;
        rec_.stride = stride;
        rec_.has_mask = 0;
        rec_.fusable = 1;
        rec_.bad = 0;
        tt_sim_chain_probe_rec = &rec_;
    }
    ~chain_probe() { tt_sim_chain_probe_rec = nullptr; }
    const tt_sim_chain_rec &rec() const { return rec_; }
    // recorded step k (its _sync mask is recorded only with one)
    shfl_step step(uint32_t k) const
    {
        return shfl_step{rec_.site, rec_.has_mask, rec_.has_mask ? rec_.mask[k * rec_.stride] : 0,
                         rec_.src[k * rec_.stride]};
    }
    // every step recorded: run() may go on
    bool complete()
    {
        tt_sim_chain_probe_rec = nullptr;
        return !rec_.bad;
    }
#if TT_SIM_COROUTINES
    // coroutine kernels (tt_sim_co.hpp, TT_SIM_CO_CHAIN): step k awaited
    bool co_more(uint32_t k) const { return k < rec_.n && !fused_; }
    template <class T, class F> co_chain_step<T, F> co_step(T x, F op, uint32_t k);
#endif
    // The one shuffle `call` makes, recorded (TT_SIM_CO_STEP: a step of a
    // chain too long to record whole).
    template <class C> static shfl_step one(C call)
    {
        chain_probe p;
        call();
        if (!p.complete() || p.rec_.n != 1)
            tt_sim_fail(TT_SIM_ERR_TRAP, __FILE__, __LINE__, "internal: a chain step did not record one shuffle");
        return p.step(0);
    }
    chain_probe(const chain_probe &) = delete;
    chain_probe &operator=(const chain_probe &) = delete;

    // `op` is captureless (the prep makes it so): the runtime may apply one
    // lane's copy to every lane.
    template <class T, class F> T run(T x, F op)
    {
        if constexpr (chain_ok<T>()) {
            const tt_sim_chain_rec &r = rec_;
            if (r.n == 0)
                return x;
            // step 0 is an ordinary shuffle whose lane is marked with the
            // chain (tt_sim_chain_wait); called from here, inlined into the
            // kernel, so that the resume lands in the kernel's code (a
            // runtime frame in between would cost a return the predictor
            // cannot know)
            tt_sim_chain_wait *cw = &tt_sim_blk->chain_wait[tt_sim_cur->linear];
            cw->key = chain_key(r);
            cw->chain = tt_sim_chain{&rec_, &chain_fuse<T, F>, &op};
            uint64_t u = shfl_step_raw(step(0), chain_enc<T>(x));
            bool fused = cw->key == 1; // tt_sim_cur is this lane again
            cw->key = 0;
            if (fused)
                return chain_dec<T>(u);
            x = op(x, chain_dec<T>(u));
            for (uint32_t k = 1; k < r.n; k++)
                x = op(x, chain_dec<T>(shfl_step_raw(step(k), chain_enc<T>(x))));
        }
        return x;
    }
};
