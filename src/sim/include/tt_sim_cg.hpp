// tt_sim_cg.hpp — cooperative groups (this_thread_block, tiled_partition<N>,
// coalesced_threads, reduce, scans) on the CPU executor.  Under the HIP shim only
// what HIP 5.2's amd_hip_cooperative_groups.h declares (tests/sim/hip_names.py).  Tile shuffles use
// the dialect's lane rules (tt_sim::tile_src_lane: PTX for CUDA, AMD for HIP)
// with width N, as each vendor's header does.  Call sites come from
// __builtin_FILE/__builtin_LINE default arguments.
#ifndef TT_SIM_CG_HPP
#define TT_SIM_CG_HPP

#define TT_SIM_CG_SITE_ARGS const char *tt_file_ = __builtin_FILE(), int tt_line_ = __builtin_LINE()
#define TT_SIM_CG_SITE(what) tt_sim_site_intern(tt_file_, tt_line_, what)

namespace cooperative_groups {

struct thread_block {
    void sync(TT_SIM_CG_SITE_ARGS) const { tt_sim_syncthreads(TT_SIM_CG_SITE("thread_block::sync"), TT_SIM_BAR_PLAIN, 0); }
    unsigned thread_rank() const { return tt_sim_cur->linear; }
    unsigned size() const { return tt_sim_blk->nthreads; }
    dim3 group_index() const { return dim3(tt_sim_blk->block_idx); }
    dim3 thread_index() const { return dim3(tt_sim_cur->tid); }
#ifndef TT_SIM_DIALECT_HIP // CUDA 12 names HIP 5.2 lacks
    unsigned num_threads() const { return size(); }
    dim3 group_dim() const { return dim3(tt_sim_blk->block_dim); }
    dim3 dim_threads() const { return group_dim(); }
#endif
};
inline thread_block this_thread_block() { return thread_block(); }

struct grid_group {
    template <class T = void> void sync() const
    {
        static_assert(tt_sim::always_false<T>::value,
                      "tt_sim: grid_group::sync() (grid-wide barrier) cannot run on the CPU executor");
    }
    unsigned long long thread_rank() const
    {
        const tt_sim_block *b = tt_sim_blk;
        unsigned long long blk = b->block_idx.x + (unsigned long long)b->grid_dim.x * (b->block_idx.y + (unsigned long long)b->grid_dim.y * b->block_idx.z);
        return blk * b->nthreads + tt_sim_cur->linear;
    }
    unsigned long long size() const
    {
        const tt_sim_block *b = tt_sim_blk;
        return (unsigned long long)b->grid_dim.x * b->grid_dim.y * b->grid_dim.z * b->nthreads;
    }
#ifndef TT_SIM_DIALECT_HIP
    unsigned long long num_threads() const { return size(); }
#endif
};
inline grid_group this_grid() { return grid_group(); }

template <unsigned N> struct thread_block_tile {
    static_assert(N >= 1 && N <= TT_SIM_WARP && (N & (N - 1)) == 0,
                  "tt_sim: tiled_partition<N> needs a power of two no larger than the warp");
    static uint64_t tt_sim_mask()
    {
        unsigned base = tt_sim_cur->lane & ~(N - 1);
        uint64_t bits = N == 64 ? ~0ull : ((1ull << N) - 1ull);
        return bits << base;
    }
    unsigned thread_rank() const { return tt_sim_cur->lane & (N - 1); }
    static constexpr unsigned size() { return N; }
#ifndef TT_SIM_DIALECT_HIP
    static constexpr unsigned num_threads() { return N; }
    unsigned meta_group_rank() const { return tt_sim_cur->linear / N; }
    unsigned meta_group_size() const { return (tt_sim_blk->nthreads + N - 1) / N; }
#endif
    void sync(TT_SIM_CG_SITE_ARGS) const
    {
        tt_sim_collective(TT_SIM_CG_SITE("thread_block_tile::sync"), TT_SIM_COLL_SYNCWARP, 1, tt_sim_mask(), 0, 0, 0, nullptr);
    }
    template <class T> T tt_sim_shfl_(tt_sim::shfl_mode m, const char *what, T v, int b, const char *f, int l) const
    {
        int src = tt_sim::tile_src_lane(m, (int)tt_sim_cur->lane, b, (int)N);
        return tt_sim::shfl_value<T>(tt_sim_site_intern(f, l, what), 1, tt_sim_mask(), v, src);
    }
    template <class T> T shfl(T v, int src, TT_SIM_CG_SITE_ARGS) const { return tt_sim_shfl_(tt_sim::SHFL_IDX, "thread_block_tile::shfl", v, src, tt_file_, tt_line_); }
    template <class T> T shfl_down(T v, unsigned d, TT_SIM_CG_SITE_ARGS) const { return tt_sim_shfl_(tt_sim::SHFL_DOWN, "thread_block_tile::shfl_down", v, (int)d, tt_file_, tt_line_); }
    template <class T> T shfl_up(T v, unsigned d, TT_SIM_CG_SITE_ARGS) const { return tt_sim_shfl_(tt_sim::SHFL_UP, "thread_block_tile::shfl_up", v, (int)d, tt_file_, tt_line_); }
    template <class T> T shfl_xor(T v, unsigned m, TT_SIM_CG_SITE_ARGS) const { return tt_sim_shfl_(tt_sim::SHFL_BFLY, "thread_block_tile::shfl_xor", v, (int)m, tt_file_, tt_line_); }
#ifndef TT_SIM_DIALECT_HIP // HIP 5.2's tiles have no votes or matches
    unsigned long long ballot(int p, TT_SIM_CG_SITE_ARGS) const
    {
        uint64_t b = tt_sim::ballot(TT_SIM_CG_SITE("thread_block_tile::ballot"), 1, tt_sim_mask(), p != 0, nullptr);
        return (b & tt_sim_mask()) >> (tt_sim_cur->lane & ~(N - 1));
    }
    int any(int p, TT_SIM_CG_SITE_ARGS) const
    {
        return tt_sim::ballot(TT_SIM_CG_SITE("thread_block_tile::any"), 1, tt_sim_mask(), p != 0, nullptr) != 0;
    }
    int all(int p, TT_SIM_CG_SITE_ARGS) const
    {
        int a = 0;
        tt_sim::ballot(TT_SIM_CG_SITE("thread_block_tile::all"), 1, tt_sim_mask(), p != 0, &a);
        return a;
    }
    template <class T> unsigned long long match_any(T v, TT_SIM_CG_SITE_ARGS) const
    {
        uint64_t m = tt_sim_collective(TT_SIM_CG_SITE("thread_block_tile::match_any"), TT_SIM_COLL_MATCH_ANY, 1, tt_sim_mask(), tt_sim::match_key(v), 0, 0, nullptr);
        return m >> (tt_sim_cur->lane & ~(N - 1));
    }
#endif
};

template <unsigned N> inline thread_block_tile<N> tiled_partition(const thread_block &) { return {}; }
template <unsigned N, unsigned M> inline thread_block_tile<N> tiled_partition(const thread_block_tile<M> &)
{
    static_assert(N <= M, "tt_sim: a tile can only be split into smaller tiles");
    return {};
}

// Threads of the warp that are active here (same call site).
struct coalesced_group {
    uint64_t m;
    unsigned thread_rank() const { return (unsigned)__builtin_popcountll(m & ((1ull << tt_sim_cur->lane) - 1ull)); }
    unsigned size() const { return (unsigned)__builtin_popcountll(m); }
#ifndef TT_SIM_DIALECT_HIP
    unsigned num_threads() const { return size(); }
#endif
    void sync(TT_SIM_CG_SITE_ARGS) const { tt_sim_collective(TT_SIM_CG_SITE("coalesced_group::sync"), TT_SIM_COLL_SYNCWARP, 1, m, 0, 0, 0, nullptr); }
    template <class T> T shfl(T v, unsigned rank, TT_SIM_CG_SITE_ARGS) const
    {
        uint64_t x = m;
        for (unsigned i = 0; i < rank % (size() ? size() : 1); i++)
            x &= x - 1;
        int src = x ? __builtin_ctzll(x) : (int)tt_sim_cur->lane;
        return tt_sim::shfl_value<T>(TT_SIM_CG_SITE("coalesced_group::shfl"), 1, m, v, src);
    }
    // the member `d` ranks above / below (HIP 5.2: the caller's own value past the ends)
    template <class T> T shfl_down(T v, unsigned d, TT_SIM_CG_SITE_ARGS) const
    {
        unsigned r = thread_rank() + d;
        return tt_sim::shfl_value<T>(TT_SIM_CG_SITE("coalesced_group::shfl_down"), 1, m, v, r < size() ? tt_sim_rank_lane(r) : (int)tt_sim_cur->lane);
    }
    template <class T> T shfl_up(T v, unsigned d, TT_SIM_CG_SITE_ARGS) const
    {
        unsigned r = thread_rank();
        return tt_sim::shfl_value<T>(TT_SIM_CG_SITE("coalesced_group::shfl_up"), 1, m, v, d <= r ? tt_sim_rank_lane(r - d) : (int)tt_sim_cur->lane);
    }
    int tt_sim_rank_lane(unsigned rank) const
    {
        uint64_t x = m;
        for (unsigned i = 0; i < rank; i++)
            x &= x - 1;
        return x ? __builtin_ctzll(x) : (int)tt_sim_cur->lane;
    }
#ifndef TT_SIM_DIALECT_HIP // HIP 5.2's coalesced groups have no votes
    unsigned long long ballot(int p, TT_SIM_CG_SITE_ARGS) const
    {
        uint64_t b = tt_sim::ballot(TT_SIM_CG_SITE("coalesced_group::ballot"), 1, m, p != 0, nullptr);
        unsigned long long r = 0; // compact to rank order
        unsigned k = 0;
        for (uint64_t x = m; x; x &= x - 1, k++)
            if ((b >> __builtin_ctzll(x)) & 1)
                r |= 1ull << k;
        return r;
    }
    int any(int p, TT_SIM_CG_SITE_ARGS) const { return tt_sim::ballot(TT_SIM_CG_SITE("coalesced_group::any"), 1, m, p != 0, nullptr) != 0; }
    int all(int p, TT_SIM_CG_SITE_ARGS) const
    {
        int a = 0;
        tt_sim::ballot(TT_SIM_CG_SITE("coalesced_group::all"), 1, m, p != 0, &a);
        return a;
    }
#endif
};
inline coalesced_group coalesced_threads(TT_SIM_CG_SITE_ARGS)
{
    return coalesced_group{tt_sim_collective(TT_SIM_CG_SITE("coalesced_threads"), TT_SIM_COLL_ACTIVEMASK, 0, 0, 0, 0, 0, nullptr)};
}

#ifndef TT_SIM_DIALECT_HIP // CUDA 11's partitions; HIP 5.2 has neither
// The members of g whose label (predicate) equals the caller's, as a coalesced group:
// a match over g's lanes, so every member of g must arrive (as in CUDA).
inline coalesced_group labeled_partition(const coalesced_group &g, unsigned label, TT_SIM_CG_SITE_ARGS)
{
    return coalesced_group{tt_sim_collective(TT_SIM_CG_SITE("labeled_partition"), TT_SIM_COLL_MATCH_ANY, 1, g.m, label, 0, 0, nullptr)};
}
template <unsigned N> inline coalesced_group labeled_partition(const thread_block_tile<N> &, unsigned label, TT_SIM_CG_SITE_ARGS)
{
    return coalesced_group{tt_sim_collective(TT_SIM_CG_SITE("labeled_partition"), TT_SIM_COLL_MATCH_ANY, 1,
                                             thread_block_tile<N>::tt_sim_mask(), label, 0, 0, nullptr)};
}
inline coalesced_group binary_partition(const coalesced_group &g, bool pred, TT_SIM_CG_SITE_ARGS)
{
    return labeled_partition(g, pred ? 1u : 0u, tt_file_, tt_line_);
}
template <unsigned N> inline coalesced_group binary_partition(const thread_block_tile<N> &g, bool pred, TT_SIM_CG_SITE_ARGS)
{
    return labeled_partition(g, pred ? 1u : 0u, tt_file_, tt_line_);
}
#endif

template <class G> inline void sync(const G &g, TT_SIM_CG_SITE_ARGS) { g.sync(tt_file_, tt_line_); }
template <class G> inline auto thread_rank(const G &g) { return g.thread_rank(); }
template <class G> inline auto group_size(const G &g) { return g.size(); }

#ifndef TT_SIM_DIALECT_HIP // cg reduce and scans (CUDA 11+); HIP 5.2 has neither
template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };

// Butterfly over the tile: every lane gets the full reduction.
template <unsigned N, class T, class Op>
inline T reduce(const thread_block_tile<N> &g, T v, Op op, TT_SIM_CG_SITE_ARGS)
{
    for (unsigned o = N / 2; o > 0; o /= 2)
        v = op(v, g.shfl_xor(v, o, tt_file_, tt_line_));
    return v;
}
template <unsigned N, class T, class Op>
inline T inclusive_scan(const thread_block_tile<N> &g, T v, Op op, TT_SIM_CG_SITE_ARGS)
{
    for (unsigned o = 1; o < N; o *= 2) {
        T u = g.shfl_up(v, o, tt_file_, tt_line_);
        if (g.thread_rank() >= o)
            v = op(v, u);
    }
    return v;
}
template <unsigned N, class T>
inline T inclusive_scan(const thread_block_tile<N> &g, T v, TT_SIM_CG_SITE_ARGS)
{
    return inclusive_scan(g, v, plus<T>(), tt_file_, tt_line_);
}
template <unsigned N, class T, class Op>
inline T exclusive_scan(const thread_block_tile<N> &g, T v, Op op, TT_SIM_CG_SITE_ARGS)
{
    T inc = inclusive_scan(g, v, op, tt_file_, tt_line_);
    T prev = g.shfl_up(inc, 1, tt_file_, tt_line_);
    return g.thread_rank() == 0 ? T() : prev;
}
template <unsigned N, class T>
inline T exclusive_scan(const thread_block_tile<N> &g, T v, TT_SIM_CG_SITE_ARGS)
{
    return exclusive_scan(g, v, plus<T>(), tt_file_, tt_line_);
}

#endif // !TT_SIM_DIALECT_HIP

} // namespace cooperative_groups

#endif
