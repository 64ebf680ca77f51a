// Coroutine kernels (src/sim/tt_sim_co.c, include/tt_sim_co.hpp): every
// kernel of kernels/co.hip is made a coroutine by tt_xf_prepare_source; each
// test runs it as one and on fibers (cfg.coroutines = 0), in every schedule,
// and requires the same status, source line and outputs, bit for bit.  The
// kernels that also got a region form (include/tt_sim_region.hpp) run a
// third time with cfg.regions = 1, as `tiletrans check` runs them (again as
// coroutines when the launch needs it), with the same requirement.
// Built for HIP wave64 and wave32, and once more with TT_SIM_NO_COROUTINES
// (the prepared kernels are then ordinary ones: both runs use fibers).
#include <criterion/criterion.h>

#include "tt_sim_hip.h"
#include "co.prep.hip"
#include "sim_test_util.h"

#include <vector>

// region forms run (TT_SIM_NO_REGIONS: the prepared text has none)
#if TT_SIM_COROUTINES && !defined(TT_SIM_NO_REGIONS)
#define RG 1
#else
#define RG 0
#endif

#if TT_SIM_COROUTINES
// the preparation made them coroutines (TT_SIM_NO_COROUTINES: ordinary ones)
static_assert(std::is_same<decltype(co_reduce(nullptr, nullptr, 0)), tt_sim::co_task>::value,
              "co_reduce is not a coroutine");
static_assert(std::is_same<decltype(co_calls_helper(nullptr)), tt_sim::co_task>::value,
              "co_calls_helper is not a coroutine");
#endif

// One buffer's bytes after a run, with the run's result.
struct outcome {
    tt_sim_result r;
    std::vector<unsigned char> bytes;
    bool fell_back = false;     // a REGIONS run that needed coroutines
    uint64_t region_blocks = 0; // of the REGIONS run (both())
};

enum mode { FIBERS, COROUTINES, REGIONS };

// Runs launch() (which fills `buf` of `size` bytes from zero) in the mode
// asked; REGIONS runs again as COROUTINES when the launch needs it, as
// `tiletrans check` does.
template <class L> static outcome run(void *buf, size_t size, tt_sim_config cfg, mode m, L launch)
{
    std::memset(buf, 0, size);
    cfg.coroutines = m != FIBERS;
    cfg.regions = m == REGIONS;
    outcome o;
    o.r = launch(cfg);
    if (m == REGIONS && o.r.status == TT_SIM_ERR_NEEDS_COROUTINES) {
        o = run(buf, size, cfg, COROUTINES, launch);
        o.fell_back = true;
        return o;
    }
    o.bytes.assign((unsigned char *)buf, (unsigned char *)buf + size);
    return o;
}

static void same(const outcome &a, const outcome &b, const char *an, const char *bn)
{
    cr_assert_eq(a.r.status, b.r.status, "%s: %s\n%s: %s", an, a.r.message, bn, b.r.message);
    cr_assert_eq(a.r.line, b.r.line, "%s: %s\n%s: %s", an, a.r.message, bn, b.r.message);
    cr_assert(std::memcmp(&a.r.thread_idx, &b.r.thread_idx, sizeof a.r.thread_idx) == 0 &&
                  std::memcmp(&a.r.block_idx, &b.r.block_idx, sizeof a.r.block_idx) == 0,
              "another thread: %s: %s\n%s: %s", an, a.r.message, bn, b.r.message);
    if (a.r.status == TT_SIM_OK)
        cr_assert(a.bytes == b.bytes, "outputs differ between %s and %s", an, bn);
}

// All three ways, every schedule: the same status, line and bytes.  Returns
// the coroutine run's outcome.
template <class L> static outcome both(void *buf, size_t size, tt_sim_config cfg, L launch)
{
    sim_all_schedules(&cfg);
    outcome co = run(buf, size, cfg, COROUTINES, launch);
    outcome fib = run(buf, size, cfg, FIBERS, launch);
    outcome rg = run(buf, size, cfg, REGIONS, launch);
    same(co, fib, "coroutines", "fibers");
    same(rg, co, "regions", "coroutines");
    co.fell_back = rg.fell_back;
    co.region_blocks = rg.r.region_blocks;
    return co;
}

// The REGIONS run of both() ran all `blocks` blocks of its three schedules
// as a region form, without falling back (none where forms do not run).
static void ran_as_regions(const outcome &o, uint64_t blocks)
{
    cr_assert(!o.fell_back, "the region form asked for coroutines");
    cr_assert_eq(o.region_blocks, RG ? 3 * blocks : 0, "%llu blocks ran as regions",
                 (unsigned long long)o.region_blocks);
}

static int co_line(const char *tag)
{
    return tag_line(CO_SRC, tag);
}

Test(co, reduction_equals_fibers_and_the_sum)
{
    const int n = 5000, W = TT_SIM_WARP;
    float *in = (float *)tt_sim_alloc(n * sizeof(float)), *out = (float *)tt_sim_alloc(sizeof(float));
    float want = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (float)(i % 7); // integer sums: exact in any order
        want += in[i];
    }
    tt_sim_config cfg = sim_cfg((n + 255) / 256, 256, W);
    cfg.threads = 2;
    outcome o = both(out, sizeof(float), cfg,
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_reduce, c, in, out, n); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, (n + 255) / 256);
    float got;
    std::memcpy(&got, o.bytes.data(), sizeof got);
    cr_assert_eq(got, want, "sum %g, expected %g", got, want);
    tt_sim_free(in);
    tt_sim_free(out);
}

Test(co, scan_with_barriers_in_a_loop_and_early_return)
{
    const int n = 1000, B = 200; // partial warps, a partial last block
    int *in = (int *)tt_sim_alloc(n * sizeof(int)), *out = (int *)tt_sim_alloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        in[i] = i % 5 + 1;
    outcome o = both(out, n * sizeof(int), sim_cfg((n + B - 1) / B, B, TT_SIM_WARP),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_scan, c, in, out, n); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, (n + B - 1) / B);
    const int *got = (const int *)o.bytes.data();
    for (int b = 0; b * B < n; b++)
        for (int t = 0, acc = 0; t < B && b * B + t < n; t++) {
            acc += in[b * B + t];
            cr_assert_eq(got[b * B + t], acc, "scan[%d] = %d, expected %d", b * B + t, got[b * B + t], acc);
        }
    tt_sim_free(in);
    tt_sim_free(out);
}

Test(co, barrier_forms_return_their_reductions)
{
    const int B = 100;
    int *out = (int *)tt_sim_alloc(2 * B * sizeof(int));
    outcome o = both(out, 2 * B * sizeof(int), sim_cfg(2, B, TT_SIM_WARP),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_counts, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    cr_assert_eq(o.region_blocks, 0, "_count/_and/_or: no region form");
    const int *got = (const int *)o.bytes.data();
    int count = (B + 2) / 3; // t % 3 == 0 for t < B
    for (int i = 0; i < 2 * B; i++)
        cr_assert_eq(got[i], count * 1000 + 100 + 10 + 0, "thread %d: %d", i, got[i]);
    tt_sim_free(out);
}

Test(co, early_exit_lenient_and_strict)
{
    const int B = 128, k = 70;
    int *out = (int *)tt_sim_alloc(B * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, B, TT_SIM_WARP);
    outcome o = both(out, B * sizeof(int), cfg,
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_early_exit, c, out, k); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 1);
    const int *got = (const int *)o.bytes.data();
    for (int t = 0; t < k; t++)
        cr_assert_eq(got[t], (k - 1 - t) * 2);
    cfg.strict_barriers = 1;
    o = both(out, B * sizeof(int), cfg,
             [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_early_exit, c, out, k); });
    cr_assert_eq(o.r.status, TT_SIM_ERR_BARRIER_DIVERGENCE, "%s", o.r.message);
    cr_assert_eq(o.fell_back, (bool)RG, "strict barriers after returns: coroutines report");
    tt_sim_free(out);
}

Test(co, chain_longer_than_a_probe_runs_step_by_step)
{
    const int B = 2 * TT_SIM_WARP;
    unsigned *out = (unsigned *)tt_sim_alloc(B * sizeof(unsigned));
    outcome o = both(out, B * sizeof(unsigned), sim_cfg(1, B, TT_SIM_WARP),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_long_chain, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 1);
    // the same loop, lane by lane, here
    std::vector<unsigned> v(B);
    for (int t = 0; t < B; t++)
        v[t] = t * 7 + 1;
    for (int s = 0; s < 20; s++) {
        std::vector<unsigned> nv(B);
        for (int t = 0; t < B; t++)
            nv[t] = v[t] * 3 + v[t ^ (1 + (s & 3))];
        v = nv;
    }
    cr_assert(std::memcmp(o.bytes.data(), v.data(), B * sizeof(unsigned)) == 0);
    tt_sim_free(out);
}

Test(co, barrier_in_a_called_function_needs_fibers)
{
    const int B = 64;
    int *out = (int *)tt_sim_alloc(B * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, B, TT_SIM_WARP);
    auto launch = [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_calls_helper, c, out); };
    outcome co = run(out, B * sizeof(int), cfg, COROUTINES, launch);
    outcome fib = run(out, B * sizeof(int), cfg, FIBERS, launch);
    same(run(out, B * sizeof(int), cfg, REGIONS, launch), co, "regions", "coroutines");
    cr_assert_eq(fib.r.status, TT_SIM_OK, "%s", fib.r.message);
    const int *got = (const int *)fib.bytes.data();
    for (int t = 0; t < B; t++) {
        int g = t & ~3, want = 4 * g + 6 + 1; // sum of the 4-lane group, + 1
        cr_assert_eq(got[t], want, "thread %d: %d, expected %d", t, got[t], want);
    }
#if TT_SIM_COROUTINES
    cr_assert_eq(co.r.status, TT_SIM_ERR_NEEDS_FIBERS, "%s", co.r.message);
    cr_assert(std::strstr(co.r.message, "cfg.coroutines = 0"), "%s", co.r.message);
    cr_assert_eq(co.r.line, tag_line(CO_HELPER, "__syncthreads"), "%s", co.r.message);
#else
    cr_assert(co.bytes == fib.bytes);
#endif
    tt_sim_free(out);
}

Test(co, divergence_race_and_inactive_reads_are_reported_alike)
{
    const int B = 2 * TT_SIM_WARP;
    int *out = (int *)tt_sim_alloc(B * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, B, TT_SIM_WARP);
    outcome o = both(out, B * sizeof(int), cfg, [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_divergent, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_ERR_BARRIER_DIVERGENCE, "%s", o.r.message);
    cr_assert(std::strstr(o.r.message, "different barriers"), "%s", o.r.message);
    o = both(out, B * sizeof(int), cfg, [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_racy, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_ERR_RACE, "%s", o.r.message);
    cr_assert_eq(o.r.line, co_line("co: race"), "%s", o.r.message);
    float *f = (float *)tt_sim_alloc(B * sizeof(float));
    o = both(f, B * sizeof(float), cfg, [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_inactive, c, f); });
    cr_assert_eq(o.r.status, TT_SIM_ERR_INACTIVE_LANE_READ, "%s", o.r.message);
    cr_assert_eq(o.r.line, co_line("co: inactive read"), "%s", o.r.message);
    tt_sim_free(f);
    tt_sim_free(out);
}

// A region form runs by itself when every warp takes its chains whole, and
// leaves a launch whose warps do not to coroutines (the harness's fallback).
Test(co, region_forms_run_or_ask_for_coroutines)
{
    const int B = 2 * TT_SIM_WARP;
    tt_sim_config cfg = sim_cfg(2, B, TT_SIM_WARP);
    sim_all_schedules(&cfg);
    cfg.regions = 1;
    float *f = (float *)tt_sim_alloc(B * sizeof(float)), *in = (float *)tt_sim_alloc(B * sizeof(float));
    for (int i = 0; i < B; i++)
        in[i] = 1.0f;
    tt_sim_result r = TT_SIM_LAUNCH(co_reduce, cfg, in, f, B);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    r = TT_SIM_LAUNCH(co_inactive, cfg, f);
#if RG
    cr_assert_eq(r.status, TT_SIM_ERR_NEEDS_COROUTINES, "%s", r.message);
    cr_assert(std::strstr(r.message, "cfg.regions = 0"), "%s", r.message);
    cr_assert_eq(r.line, co_line("co: inactive read"), "%s", r.message);
#else
    cr_assert_eq(r.status, TT_SIM_ERR_INACTIVE_LANE_READ, "%s", r.message);
#endif
    tt_sim_free(f);
    tt_sim_free(in);
}

// A partial last warp: its lanes read lanes the block does not have, in the
// fused chain of every mode, at the same line.
Test(co, partial_warps_read_absent_lanes_alike)
{
    const int W = TT_SIM_WARP, B = W + W / 2;
    float *in = (float *)tt_sim_alloc(B * sizeof(float)), *out = (float *)tt_sim_alloc(sizeof(float));
    outcome o = both(out, sizeof(float), sim_cfg(1, B, W),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_reduce, c, in, out, B); });
    cr_assert_eq(o.r.status, TT_SIM_ERR_INACTIVE_LANE_READ, "%s", o.r.message);
    cr_assert(std::strstr(o.r.message, "does not exist"), "%s", o.r.message);
    tt_sim_free(in);
    tt_sim_free(out);
}

// The kinds of locals a region form keeps per thread compile and keep
// their values across a barrier.
Test(co, region_locals_of_each_kind)
{
    const int B = 160;
    float *out = (float *)tt_sim_alloc(2 * B * sizeof(float));
    outcome o = both(out, 2 * B * sizeof(float), sim_cfg(2, B, TT_SIM_WARP),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_types, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 2);
    const float *got = (const float *)o.bytes.data();
    for (int i = 0; i < 2 * B; i++) {
        int t = i % B;
        float want = t + 3.0f + (float)(t * 0.5) + (float)t + 1.0f + (float)t + (float)(uint8_t)t + 7.0f;
        cr_assert_eq(got[i], want, "thread %d: %g, expected %g", i, got[i], want);
    }
    tt_sim_free(out);
}

// Threads that return skip the rest of the region form, their warps'
// chains included.
Test(co, returns_before_a_chain)
{
    const int W = TT_SIM_WARP, rows = 5;
    float *in = (float *)tt_sim_alloc(rows * W * sizeof(float)), *out = (float *)tt_sim_alloc(rows * sizeof(float));
    for (int i = 0; i < rows * W; i++)
        in[i] = (float)(i % 3);
    outcome o = both(out, rows * sizeof(float), sim_cfg(3, 2 * W, W),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_rows, c, in, out, rows); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 3);
    const float *got = (const float *)o.bytes.data();
    for (int r = 0; r < rows; r++) {
        float want = 0;
        for (int l = 0; l < W; l++)
            want += in[r * W + l];
        cr_assert_eq(got[r], want, "row %d: %g, expected %g", r, got[r], want);
    }
    tt_sim_free(in);
    tt_sim_free(out);
}

// A __shared__ tile declared in a loop body, and a stretch that only reads
// it: the same in all three ways, and as a region form.
Test(co, shared_declared_in_a_loop)
{
    const int W = TT_SIM_WARP, B = 2 * W, rounds = 3;
    int *in = (int *)tt_sim_alloc(rounds * B * sizeof(int)), *out = (int *)tt_sim_alloc(2 * B * sizeof(int));
    for (int i = 0; i < rounds * B; i++)
        in[i] = 3 * i + 1;
    outcome o = both(out, 2 * B * sizeof(int), sim_cfg(2, B, W),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_tiles, c, in, out, rounds); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 2);
    const int *got = (const int *)o.bytes.data();
    for (int i = 0; i < 2 * B; i++) {
        int t = i % B, want = 0;
        for (int r = 0; r < rounds; r++)
            for (int k = 0; k < 4; k++)
                want += in[r * B + (t + k) % B];
        cr_assert_eq(got[i], want, "thread %d: %d, expected %d", i, got[i], want);
    }
    tt_sim_free(in);
    tt_sim_free(out);
}

// Loops that hold barriers and chains: as a loop around the region form's
// loops when every thread agrees on the condition, else on coroutines.
Test(co, loops_with_barriers_and_chains)
{
    const int W = TT_SIM_WARP, B = 2 * W;
    int *out = (int *)tt_sim_alloc(2 * B * sizeof(int));
    outcome o = both(out, 2 * B * sizeof(int), sim_cfg(2, B, W),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_loops, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 2);
    const int *got = (const int *)o.bytes.data();
    for (int i = 0; i < 2 * B; i++) {
        int t = i % B, acc = 0;
        for (int k = 0; k < 3; k++)
            acc += (t + 1) % B + k;
        unsigned v = 0; // two rounds of a butterfly sum over the warp
        for (int l = 0; l < W; l++)
            v += (unsigned)((t / W) * W + l);
        v *= (unsigned)W;
        cr_assert_eq(got[i], acc + (int)v, "thread %d: %d, expected %d", i, got[i], acc + (int)v);
    }
    o = both(out, B * sizeof(int), sim_cfg(1, B, W),
             [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_uneven, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    cr_assert_eq(o.fell_back, (bool)RG, "threads disagree on the loop: coroutines");
    got = (const int *)o.bytes.data();
    for (int t = 0; t < B; t++)
        cr_assert_eq(got[t], t % 3 + 1, "thread %d: %d", t, got[t]);
    tt_sim_config cfg = sim_cfg(1, B, W);
    cfg.regions = 1;
    tt_sim_result r = TT_SIM_LAUNCH(co_uneven, cfg, out);
#if RG
    cr_assert_eq(r.status, TT_SIM_ERR_NEEDS_COROUTINES, "%s", r.message);
#else
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
#endif
    tt_sim_free(out);
}

// Ifs in a loop, a chain under two of them, taken by whole warps.
Test(co, nested_ifs_in_a_loop)
{
    const int W = TT_SIM_WARP, B = 4 * W;
    int *out = (int *)tt_sim_alloc(B * sizeof(int));
    outcome o = both(out, B * sizeof(int), sim_cfg(1, B, W),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_nested, c, out); });
    cr_assert_eq(o.r.status, TT_SIM_OK, "%s", o.r.message);
    ran_as_regions(o, 1);
    const int *got = (const int *)o.bytes.data();
    for (int t = 0; t < B; t++) {
        int w = t / W, want = t;
        if (w % 2 == 0) {
            want = 0;
            for (int l = 0; l < W; l++)
                want += w * W + l;
        }
        cr_assert_eq(got[t], want + t % W, "thread %d: %d, expected %d", t, got[t], want + t % W);
    }
    tt_sim_free(out);
}

// A fault in a region form's loop names its thread and line, as the other
// modes do.
Test(co, a_fault_names_its_thread)
{
    const int B = 2 * TT_SIM_WARP, n = 2 * B, bad = 5;
    int *out = (int *)tt_sim_alloc(n * sizeof(int));
    outcome o = both(out, n * sizeof(int), sim_cfg(2, B, TT_SIM_WARP),
                     [&](tt_sim_config c) { return TT_SIM_LAUNCH(co_oob, c, out, n, bad); });
    cr_assert_eq(o.r.status, TT_SIM_ERR_OOB, "%s", o.r.message);
    cr_assert_eq(o.r.line, co_line("co: oob"), "%s", o.r.message);
    cr_assert(o.r.block_idx.x == 1 && o.r.thread_idx.x == bad, "%s", o.r.message);
    tt_sim_free(out);
}
