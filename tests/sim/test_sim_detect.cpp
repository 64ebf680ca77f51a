// Detection (out of bounds, races, barrier divergence, deadlock, timeouts,
// traps), schedules, barriers with reductions, dynamic shared memory,
// atomics, cooperative groups and half types — CUDA dialect, warp 32.
#include <criterion/criterion.h>

#define TT_SIM_WARP 32
#include "tt_sim_cuda.h"
#include "detect.prep.cu"
#include "sim_test_util.h"

#ifndef DETECT_SRC
#error "DETECT_SRC must name kernels/detect.cu"
#endif

static void expect_line(const tt_sim_result &r, const char *tag)
{
    int want = tag_line(DETECT_SRC, tag);
    cr_expect_eq(r.line, want, "reported line %d, expected %d (%s): %s", r.line, want, tag, r.message);
    char pat[32];
    snprintf(pat, sizeof pat, ":%d:", want);
    cr_expect(strstr(r.message, pat) != NULL, "message lacks %s: %s", pat, r.message);
}

// A barrier-divergence failure naming both barriers' lines.
static void expect_divergence(const tt_sim_result &r, const char *tag_a, const char *tag_b)
{
    cr_assert_eq(r.status, TT_SIM_ERR_BARRIER_DIVERGENCE, "%s", r.message);
    char a[32], b[32];
    snprintf(a, sizeof a, ":%d:", tag_line(DETECT_SRC, tag_a));
    snprintf(b, sizeof b, ":%d:", tag_line(DETECT_SRC, tag_b));
    cr_expect(strstr(r.message, a) && strstr(r.message, b), "both sites expected: %s", r.message);
}

Test(detect, oob_global_names_buffer_and_line)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_buffer_describe(out, "out", TT_SIM_ELEM_F32);
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(oob_global, cfg, out, 64);
    cr_assert_eq(r.status, TT_SIM_ERR_OOB, "%s", r.message);
    cr_expect(strstr(r.message, "out (256 bytes)") != NULL, "%s", r.message);
    expect_line(r, "LINE_OOB_GLOBAL");
    tt_sim_free(out);
}

static void expect_thread(const tt_sim_result &r, tt_sim_dim3 thr, unsigned blk, const char *what)
{
    cr_expect(r.thread_idx.x == thr.x && r.thread_idx.y == thr.y && r.thread_idx.z == thr.z &&
                  r.block_idx.x == blk && r.block_idx.y == 0 && r.block_idx.z == 0,
              "%s: thread (%u,%u,%u) of block (%u,%u,%u) reported: %s", what, r.thread_idx.x,
              r.thread_idx.y, r.thread_idx.z, r.block_idx.x, r.block_idx.y, r.block_idx.z, r.message);
}

// A faulting thread is named exactly in every lane order and on 1 or 2 OS
// threads (threads of a barrier-free kernel run as a loop of plain calls,
// which the compiler optimises as one).
Test(detect, oob_names_the_faulting_thread)
{
    const int n = 3 * 32;
    float *in = (float *)tt_sim_alloc(n * sizeof(float));
    float *out = (float *)tt_sim_alloc(n * sizeof(float));
    tt_sim_buffer_describe(in, "in", TT_SIM_ELEM_F32);
    const tt_sim_schedule scheds[] = {TT_SIM_SCHED_FORWARD, TT_SIM_SCHED_REVERSE,
                                      TT_SIM_SCHED_RANDOM};
    for (tt_sim_schedule s : scheds) {
        for (int threads = 1; threads <= 2; threads++) {
            tt_sim_config cfg = sim_cfg(3, 8, 32);
            cfg.block.y = 4;
            cfg.threads = threads;
            cfg.schedules[0] = s;
            tt_sim_result r = TT_SIM_LAUNCH(oob_one_thread, cfg, in, out, n);
            cr_assert_eq(r.status, TT_SIM_ERR_OOB, "%s", r.message);
            cr_expect(strstr(r.message, "in (384 bytes)") != NULL, "%s", r.message);
            expect_line(r, "LINE_OOB_ONE");
            char what[64];
            snprintf(what, sizeof what, "schedule %d, %d OS threads", (int)s, threads);
            expect_thread(r, tt_sim_dim3{5, 2, 0}, 1, what);
            if (s == TT_SIM_SCHED_RANDOM)
                continue; // (which thread runs first is the seed's)
            cfg.block.x = 32; // one row: GCC -O2 hoisted the load out of the loop
            cfg.block.y = 1;
            r = TT_SIM_LAUNCH(oob_block_invariant, cfg, in, out, n);
            cr_assert_eq(r.status, TT_SIM_ERR_OOB, "%s", r.message);
            expect_line(r, "LINE_OOB_INV");
            tt_sim_dim3 first =
                s == TT_SIM_SCHED_FORWARD ? tt_sim_dim3{0, 0, 0} : tt_sim_dim3{31, 0, 0};
            expect_thread(r, first, 1, what);
        }
    }
    tt_sim_free(in);
    tt_sim_free(out);
}

// Blocks of a 3-D grid see their own blockIdx, however the OS threads split
// the grid (workers take chunks of consecutive blocks).
Test(detect, grid_3d_block_indices)
{
    const unsigned gx = 5, gy = 7, gz = 3, nb = gx * gy * gz;
    unsigned *out = (unsigned *)tt_sim_alloc(3 * nb * sizeof(unsigned));
    for (int threads = 1; threads <= 3; threads++) {
        memset(out, 0xff, 3 * nb * sizeof(unsigned));
        tt_sim_config cfg = sim_cfg(gx, 32, 32);
        cfg.grid.y = gy;
        cfg.grid.z = gz;
        cfg.threads = threads;
        tt_sim_result r = TT_SIM_LAUNCH(block_ids, cfg, out);
        cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
        for (unsigned b = 0; b < nb; b++)
            cr_assert(out[3 * b] == b % gx && out[3 * b + 1] == b / gx % gy &&
                          out[3 * b + 2] == b / (gx * gy),
                      "%d OS threads: block %u saw (%u,%u,%u)", threads, b, out[3 * b],
                      out[3 * b + 1], out[3 * b + 2]);
    }
    tt_sim_free(out);
}

// The runtime keeps workers' memory from launch to launch: shared memory
// a launch wrote must read as zeros in the next one (on every worker).
Test(detect, shared_memory_starts_zeroed)
{
    int *out = (int *)tt_sim_alloc(2 * 4 * 64 * sizeof(int));
    for (int threads = 1; threads <= 2; threads++) {
        tt_sim_config cfg = sim_cfg(4, 64, 32);
        cfg.shared_bytes = 64 * sizeof(int);
        cfg.threads = threads;
        tt_sim_result r = TT_SIM_LAUNCH(shared_leftover, cfg, out, 1);
        cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
        memset(out, 0xff, 2 * 4 * 64 * sizeof(int));
        r = TT_SIM_LAUNCH(shared_leftover, cfg, out, 0);
        cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
        for (int i = 0; i < 2 * 4 * 64; i++)
            cr_assert_eq(out[i], 0, "%d OS threads: word %d reads %d", threads, i, out[i]);
    }
    tt_sim_free(out);
}

Test(detect, oob_shared_index)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(oob_shared, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_OOB, "%s", r.message);
    cr_expect(strstr(r.message, "__shared__ s") != NULL, "%s", r.message);
    expect_line(r, "LINE_OOB_SHARED");
    tt_sim_free(out);
}

Test(detect, oob_dynamic_shared_hits_guard)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    cfg.shared_bytes = 64 * sizeof(float);
    tt_sim_result r = TT_SIM_LAUNCH(dyn_shared_oob, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_OOB, "%s", r.message);
    expect_line(r, "LINE_DYN_OOB");
    tt_sim_free(out);
}

Test(detect, race_between_barriers)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(racy, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
    // forward order: thread 1's write meets thread 0's earlier read
    expect_line(r, "LINE_RACE_W");
    char other[64];
    snprintf(other, sizeof other, "other access at %s:%d", DETECT_SRC, tag_line(DETECT_SRC, "LINE_RACE_R"));
    cr_expect(strstr(r.message, other) != NULL, "%s", r.message);
    r = TT_SIM_LAUNCH(race_free, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(out[0], 1.0f);
    // the race shadow outlives launches (its entries count only in their
    // epoch): neither launch's entries may count in the next one's
    for (int i = 0; i < 3; i++) {
        r = TT_SIM_LAUNCH(racy, cfg, out);
        cr_assert_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
        expect_line(r, "LINE_RACE_W");
        r = TT_SIM_LAUNCH(race_free, cfg, out);
        cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    }
    tt_sim_free(out);
}

Test(detect, missing_barrier_changes_result_between_schedules)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_buffer_describe(out, "out", TT_SIM_ELEM_F32);
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    cfg.race_check = 0;
    cfg.schedules[0] = TT_SIM_SCHED_FORWARD;
    cfg.schedules[1] = TT_SIM_SCHED_REVERSE;
    cfg.nschedules = 2;
    tt_sim_result r = TT_SIM_LAUNCH(missing_barrier, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_SCHEDULE_DEPENDENT, "%s", r.message);
    cr_expect(strstr(r.message, "out differs") != NULL, "%s", r.message);
    tt_sim_free(out);
}

Test(detect, barrier_divergence_different_sites)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    expect_divergence(TT_SIM_LAUNCH(divergent_barrier, cfg, out), "LINE_DIV_A", "LINE_DIV_B");
    tt_sim_free(out);
}

// After barriers every thread reached in schedule order (round mode), a
// divergent barrier, a barrier reduction, a shuffle and an early exit behave
// as they do on the first barrier, in every schedule.
Test(detect, rounds_divergence_and_mixed_barriers)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    expect_divergence(TT_SIM_LAUNCH(rounds_divergent, cfg, out), "LINE_RDIV_A", "LINE_RDIV_B");
    tt_sim_free(out);

    int *iout = (int *)tt_sim_alloc(64 * sizeof(int));
    sim_all_schedules(&cfg);
    tt_sim_result r = TT_SIM_LAUNCH(rounds_mixed, cfg, iout, 7);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    for (int t = 0; t < 64; t++) {
        int acc = t + 3, other = (t ^ 1) + 3;
        if (t != 7)
            cr_expect_eq(iout[t], acc + other + 32, "thread %d: %d", t, iout[t]);
    }
    cr_expect_eq(iout[7], 0, "thread 7 returned early");
    cfg.nschedules = 1;
    cfg.strict_barriers = 1;
    r = TT_SIM_LAUNCH(rounds_mixed, cfg, iout, 7);
    cr_assert_eq(r.status, TT_SIM_ERR_BARRIER_DIVERGENCE, "%s", r.message);
    tt_sim_free(iout);
}

Test(detect, early_exit_strict_and_lenient)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(early_exit, cfg, out, 40);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cfg.strict_barriers = 1;
    r = TT_SIM_LAUNCH(early_exit, cfg, out, 40);
    cr_assert_eq(r.status, TT_SIM_ERR_BARRIER_DIVERGENCE, "%s", r.message);
    cr_expect(strstr(r.message, "exited") != NULL, "%s", r.message);
    tt_sim_free(out);
}

Test(detect, deadlock_lists_waiting_lines)
{
    float *out = (float *)tt_sim_alloc(32 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 32, 32);
    tt_sim_result r = TT_SIM_LAUNCH(mask_deadlock, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_DEADLOCK, "%s", r.message);
    char a[32], b[32];
    snprintf(a, sizeof a, ":%d", tag_line(DETECT_SRC, "LINE_DL_BAR"));
    snprintf(b, sizeof b, ":%d", tag_line(DETECT_SRC, "LINE_DL_SHFL"));
    cr_expect(strstr(r.message, a) && strstr(r.message, b), "both lines expected: %s", r.message);
    tt_sim_free(out);
}

Test(detect, timeout_stops_a_spinning_kernel)
{
    int *flag = (int *)tt_sim_alloc(sizeof(int));
    tt_sim_config cfg = sim_cfg(2, 32, 32);
    cfg.timeout_s = 0.3;
    cfg.threads = 2;
    tt_sim_result r = TT_SIM_LAUNCH(spin, cfg, flag);
    cr_assert_eq(r.status, TT_SIM_ERR_TIMEOUT, "%s", r.message);
    // the OS threads and the watchdog outlive launches: after a timeout the
    // next launches run normally, and a late poke of the watchdog reaches
    // no one (a default SIGUSR2 would end the process)
    int *out = (int *)tt_sim_alloc(64 * 32 * sizeof(int));
    cfg = sim_cfg(64, 32, 32);
    cfg.threads = 3;
    cfg.timeout_s = 5;
    for (int i = 0; i < 20; i++) {
        r = TT_SIM_LAUNCH(trapper, cfg, out);
        cr_assert_eq(r.status, TT_SIM_ERR_TRAP, "launch %d: %s", i, r.message);
    }
    tt_sim_free(out);
    tt_sim_free(flag);
}

Test(detect, trap_and_assert_report_line)
{
    int *out = (int *)tt_sim_alloc(32 * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, 32, 32);
    tt_sim_result r = TT_SIM_LAUNCH(trapper, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_TRAP, "%s", r.message);
    expect_line(r, "LINE_TRAP");
    cr_expect_eq(r.thread_idx.x, 3u);
    r = TT_SIM_LAUNCH(asserter, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_TRAP, "%s", r.message);
    expect_line(r, "LINE_ASSERT");
    tt_sim_free(out);
}

Test(detect, warp_mismatch_is_config_error)
{
    int *out = (int *)tt_sim_alloc(32 * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, 32, 64);
    tt_sim_result r = TT_SIM_LAUNCH(trapper, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_CONFIG, "%s", r.message);
    tt_sim_free(out);
}

Test(schedule, forward_reverse_random)
{
    int *ticket = (int *)tt_sim_alloc(sizeof(int));
    int *out = (int *)tt_sim_alloc(64 * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(order, cfg, ticket, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect(out[0] == 0 && out[63] == 63);
    *ticket = 0;
    cfg.schedules[0] = TT_SIM_SCHED_REVERSE;
    r = TT_SIM_LAUNCH(order, cfg, ticket, out);
    cr_expect(out[63] == 0 && out[0] == 63);
    int first[64];
    cfg.schedules[0] = TT_SIM_SCHED_RANDOM;
    cfg.seed = 7;
    *ticket = 0;
    r = TT_SIM_LAUNCH(order, cfg, ticket, out);
    memcpy(first, out, sizeof first);
    *ticket = 0;
    r = TT_SIM_LAUNCH(order, cfg, ticket, out);
    cr_expect(memcmp(first, out, sizeof first) == 0, "same seed, same order");
    int inorder = 1;
    for (int i = 0; i < 64; i++)
        inorder &= out[i] == i;
    cr_expect(!inorder, "a random schedule should not be the identity");
    tt_sim_free(ticket);
    tt_sim_free(out);
}

Test(run, block_sum_all_schedules_and_threads)
{
    int n = 100003;
    float *in = (float *)tt_sim_alloc(n * sizeof(float)), *out = (float *)tt_sim_alloc(sizeof(float));
    tt_sim_buffer_describe(out, "out", TT_SIM_ELEM_F32);
    double ref = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (float)(i % 13) - 6.0f;
        ref += in[i];
    }
    tt_sim_config cfg = sim_cfg((n + 255) / 256, 256, 32);
    sim_all_schedules(&cfg);
    cfg.threads = 2;
    tt_sim_result r = TT_SIM_LAUNCH(block_sum, cfg, in, out, n);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_float_eq(*out, (float)ref, 1e-3, "%f vs %f", *out, ref);
    tt_sim_free(in);
    tt_sim_free(out);
}

Test(run, barrier_reductions_and_dynamic_shared)
{
    int *o = (int *)tt_sim_alloc(64 * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(count_barrier, cfg, o);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(o[5], 32 * 100 + 10 + 1);
    float *f = (float *)tt_sim_alloc(64 * sizeof(float));
    cfg.shared_bytes = 64 * sizeof(float);
    r = TT_SIM_LAUNCH(dyn_shared, cfg, f);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(f[0], 126.0f);
    tt_sim_free(o);
    tt_sim_free(f);
}

Test(run, atomics)
{
    int *i = (int *)tt_sim_alloc(4 * sizeof(int));
    unsigned *u = (unsigned *)tt_sim_alloc(3 * sizeof(unsigned));
    float *f = (float *)tt_sim_alloc(sizeof(float));
    double *d = (double *)tt_sim_alloc(sizeof(double));
    unsigned long long *ull = (unsigned long long *)tt_sim_alloc(8);
    tt_sim_config cfg = sim_cfg(4, 64, 32);
    cfg.threads = 2;
    tt_sim_result r = TT_SIM_LAUNCH(atomics, cfg, i, u, f, d, ull);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(i[0], 256);
    cr_expect_eq(i[1], 63);
    cr_expect_eq(i[2], -63);
    cr_expect_eq(i[3], 7);
    cr_expect_eq(u[0], 256u % 10u);
    cr_expect_eq(u[2], 0xffffffffu);
    cr_expect_eq(*f, 128.0f);
    cr_expect_eq(*d, 64.0);
    cr_expect_eq(*ull, 42ull);
    tt_sim_free(i);
    tt_sim_free(u);
    tt_sim_free(f);
    tt_sim_free(d);
    tt_sim_free(ull);
}

Test(run, cooperative_groups_tiles)
{
    int *o = (int *)tt_sim_alloc(64 * 3 * sizeof(int));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(cg_tiles, cfg, o);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    for (int t = 0; t < 64; t++) {
        cr_expect_eq(o[t * 3 + 0], t / 8 * 8 + 2, "shfl thread %d", t);
        cr_expect_eq(o[t * 3 + 1], 28, "reduce thread %d", t);
        cr_expect_eq(o[t * 3 + 2], 0x55, "ballot thread %d", t);
    }
    tt_sim_free(o);
}

Test(run, half_and_math)
{
    float *o = (float *)tt_sim_alloc(4 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 1, 32);
    tt_sim_result r = TT_SIM_LAUNCH(halves, cfg, o);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(o[0], 0.333251953125f);   // nearest half to 1/3
    cr_expect_eq(o[1], 0.333984375f);      // nearest bfloat16 to 1/3
    cr_expect_eq(o[2], 0.66650390625f);
    cr_expect_float_eq(o[3], 4.0f + 1.0f + 0.5f + 0.25f, 1e-6);
    tt_sim_free(o);
}

Test(detect, same_value_stores_by_one_warp_are_a_note)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    sim_all_schedules(&cfg);
    tt_sim_result r = TT_SIM_LAUNCH(same_value_store, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(out[63], 7.0f);
    char pat[512];
    snprintf(pat, sizeof pat, "to __shared__ s (declared at %s:%d)", DETECT_SRC, tag_line(DETECT_SRC, "LINE_SAME_VALUE_DECL"));
    cr_expect(strstr(r.notes, "tt_sim: note: ") && strstr(r.notes, pat), "notes: %s", r.notes);
    r = TT_SIM_LAUNCH(different_value_store, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
    expect_line(r, "LINE_DIFF_VALUE");
    r = TT_SIM_LAUNCH(cross_warp_same_value, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
    expect_line(r, "LINE_CROSS_WARP");
    r = TT_SIM_LAUNCH(race_free, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_str_eq(r.notes, "", "a launch without such stores has no notes: %s", r.notes);
    tt_sim_free(out);
}

// The summaries of reads and the warp intervals that the inline checks and
// the runtime share (tt_sim_shared.c): several readers of one warp, readers
// of two warps, a write ordered by __syncwarp; in every schedule.
Test(detect, race_summaries_of_reads_and_warp_syncs)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_schedule order[] = {TT_SIM_SCHED_FORWARD, TT_SIM_SCHED_REVERSE, TT_SIM_SCHED_RANDOM};
    for (tt_sim_schedule o : order) {
        cfg.schedules[0] = o;
        cfg.nschedules = 1;
        tt_sim_result r = TT_SIM_LAUNCH(warp_reads_then_write, cfg, out, 0);
        // forward: lane 5's write meets lanes 0-4's reads; otherwise lanes
        // may read after it (the race is then at their read)
        if (o == TT_SIM_SCHED_FORWARD) {
            cr_assert_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
            expect_line(r, "LINE_GROUP_W");
            cr_expect(strstr(r.message, "by several threads") != NULL, "%s", r.message);
        } else {
            cr_assert_eq(r.status, TT_SIM_ERR_RACE, "sched %d: %s", (int)o, r.message);
        }
        r = TT_SIM_LAUNCH(warp_reads_then_write, cfg, out, 1);
        cr_assert_eq(r.status, TT_SIM_OK, "sched %d: %s", (int)o, r.message);
        cr_expect_eq(out[0], 2.0f);
        r = TT_SIM_LAUNCH(two_warps_read_then_write, cfg, out);
        cr_assert_eq(r.status, TT_SIM_ERR_RACE, "sched %d: %s", (int)o, r.message);
        r = TT_SIM_LAUNCH(write_sync_then_other_lane, cfg, out, 1);
        cr_assert_eq(r.status, TT_SIM_OK, "sched %d: %s", (int)o, r.message);
        cr_expect_eq(out[0], 6.0f);
        r = TT_SIM_LAUNCH(write_sync_then_other_lane, cfg, out, 0);
        cr_assert_eq(r.status, TT_SIM_ERR_RACE, "sched %d: %s", (int)o, r.message);
        if (o == TT_SIM_SCHED_FORWARD) // (reversed, lane 3's store meets lane 9's)
            expect_line(r, "LINE_SYNCWARP_RW");
    }
    cfg.schedules[0] = TT_SIM_SCHED_FORWARD;
    tt_sim_result r = TT_SIM_LAUNCH(two_warps_read_then_write, cfg, out);
    expect_line(r, "LINE_SAT_W");
    cr_expect(strstr(r.message, "by several threads") != NULL, "%s", r.message);
    tt_sim_free(out);
}

// A reads-only region loop, as prep_rg.c writes one for a region it finds
// free of shared writes between two barriers, written here by hand with a
// write in it (`write`): the write sends the launch to coroutines, which
// check every access.  `race_after`: a race in the next interval, which the
// block's own shadow (back after the loop) still sees.
__global__ TT_SIM_CO_KERNEL ro_region(float *out, int write, int race_after)
{
    TT_SIM_SHARED(s, 0, ([64]), float);
#ifndef TT_SIM_NO_REGIONS
    if (TT_SIM_RG_ENTER()) { [&] {
        TT_SIM_RG_FOR { s[threadIdx.x] = 1.0f; }
        ::tt_sim_rg_barrier(0);
        TT_SIM_RG_FOR_RO {
            out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
            if (write && threadIdx.x == 7)
                s[7] = 3.0f;
        }
        ::tt_sim_rg_barrier(0);
        TT_SIM_RG_FOR {
            out[threadIdx.x] += s[threadIdx.x];
            if (race_after && threadIdx.x < 2)
                s[9] = 2.0f;
        }
    }(); TT_SIM_CO_RETURN; }
#endif
    s[threadIdx.x] = 1.0f;
    TT_SIM_CO_SYNCTHREADS();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
    if (write && threadIdx.x == 7)
        s[7] = 3.0f; // thread 6 reads s[7] in this interval
    TT_SIM_CO_SYNCTHREADS();
    out[threadIdx.x] += s[threadIdx.x];
    if (race_after && threadIdx.x < 2)
        s[9] = 2.0f;
}

Test(detect, reads_only_region)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    for (int regions = 0; regions < 2; regions++) {
        cfg.regions = regions;
        tt_sim_result r = TT_SIM_LAUNCH(ro_region, cfg, out, 0, 0);
        cr_assert_eq(r.status, TT_SIM_OK, "regions %d: %s", regions, r.message);
        cr_expect(out[0] == 2.0f && out[63] == 2.0f);
        r = TT_SIM_LAUNCH(ro_region, cfg, out, 0, 1);
        cr_expect_eq(r.status, TT_SIM_ERR_RACE, "regions %d, race after the loop: %s", regions, r.message);
        r = TT_SIM_LAUNCH(ro_region, cfg, out, 1, 0);
#if defined(TT_SIM_NO_REGIONS) || defined(TT_SIM_NO_COROUTINES)
        cr_expect_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
#else
        if (regions) {
            cr_expect_eq(r.status, TT_SIM_ERR_NEEDS_COROUTINES, "%s", r.message);
            cr_expect(strstr(r.message, "write no shared memory between two barriers wrote it"), "%s", r.message);
        } else {
            cr_expect_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
        }
#endif
        // the read-only table stays so: a race-free launch afterwards, with and without the check
        cfg.race_check = 0;
        r = TT_SIM_LAUNCH(ro_region, cfg, out, 0, 1);
        cr_expect_eq(r.status, TT_SIM_OK, "%s", r.message);
        cfg.race_check = 1;
    }
    tt_sim_free(out);
}

// A shared element bound to a non-const reference counts as read there: the
// helper's swaps come out right, a conditional with an lvalue operand is a
// read (no false race between the 60 readers), and another thread's store to
// a bound element in the same interval races.
Test(detect, shared_element_by_reference)
{
    unsigned *out = (unsigned *)tt_sim_alloc(64 * sizeof(unsigned));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_result r = TT_SIM_LAUNCH(shared_by_reference, cfg, out, 0);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    for (unsigned t = 0; t < 64; t++)
        cr_expect_eq(out[t], t < 60 ? (t % 2 ? 65 : 63) - t : 100, "out[%u] = %u", t, out[t]);
    r = TT_SIM_LAUNCH(shared_by_reference, cfg, out, 1);
    cr_expect_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
    tt_sim_free(out);
}

// The inline read check's shortcut and its summaries' widening (what a read
// that it wrongly took for one already summarised would miss), in every
// schedule; the barrier-only kernel also as a coroutine and as a region
// kernel (C++20 builds).
Test(detect, race_read_summaries_inline)
{
    float *out = (float *)tt_sim_alloc(64 * sizeof(float));
    tt_sim_config cfg = sim_cfg(1, 64, 32);
    tt_sim_schedule order[] = {TT_SIM_SCHED_FORWARD, TT_SIM_SCHED_REVERSE, TT_SIM_SCHED_RANDOM};
    for (tt_sim_schedule o : order) {
        cfg.schedules[0] = o;
        cfg.nschedules = 1;
        tt_sim_result r = TT_SIM_LAUNCH(group_then_other_warp_then_write, cfg, out);
        cr_assert_eq(r.status, TT_SIM_ERR_RACE, "sched %d: %s", (int)o, r.message);
        expect_line(r, "LINE_WIDEN_W");
        for (int regions = 0; regions < 2; regions++) {
            cfg.regions = regions;
            r = TT_SIM_LAUNCH(stale_summary_then_race, cfg, out, 1);
            cr_assert_eq(r.status, TT_SIM_ERR_RACE, "sched %d, regions %d: %s", (int)o, regions,
                         r.message);
            if (o != TT_SIM_SCHED_RANDOM)
                expect_line(r, o == TT_SIM_SCHED_FORWARD ? "LINE_STALE_W" : "LINE_STALE_R");
            r = TT_SIM_LAUNCH(stale_summary_then_race, cfg, out, 0);
            cr_assert_eq(r.status, TT_SIM_OK, "sched %d, regions %d: %s", (int)o, regions, r.message);
            cr_expect_eq(out[0], 10.0f);
            cr_expect_eq(out[5], 9.0f);
        }
        cfg.regions = 0;
    }
    // without the check, reads meet the runtime's read-only pass table (a
    // write to it would crash): no race, the same outputs; with it again,
    // the race is back (nothing of the unchecked launch counts)
    cfg.schedules[0] = TT_SIM_SCHED_FORWARD;
    cfg.race_check = 0;
    tt_sim_result r = TT_SIM_LAUNCH(stale_summary_then_race, cfg, out, 1);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(out[0], 10.0f);
    cr_expect_eq(out[3], 10.0f); // 8 + the 2.0f thread 5 stored
    r = TT_SIM_LAUNCH(group_then_other_warp_then_write, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cfg.race_check = 1;
    r = TT_SIM_LAUNCH(stale_summary_then_race, cfg, out, 1);
    cr_assert_eq(r.status, TT_SIM_ERR_RACE, "%s", r.message);
    expect_line(r, "LINE_STALE_W");
    tt_sim_free(out);
}

Test(detect, poisoned_shuffle_that_reaches_an_output_fails)
{
    float *in = (float *)tt_sim_alloc(48 * sizeof(float));
    float *out = (float *)tt_sim_alloc(48 * sizeof(float));
    tt_sim_buffer_describe(out, "out", TT_SIM_ELEM_F32);
    for (int i = 0; i < 48; i++)
        in[i] = (float)i;
    tt_sim_config cfg = sim_cfg(1, 48, 32);
    tt_sim_result r = TT_SIM_LAUNCH(poison_reaches_output, cfg, in, out);
    cr_assert_eq(r.status, TT_SIM_ERR_INACTIVE_LANE_READ, "the default stays an error: %s", r.message);
    cfg.inactive_read = TT_SIM_INACTIVE_COMPARE;
    r = TT_SIM_LAUNCH(poison_reaches_output, cfg, in, out);
    cr_assert_eq(r.status, TT_SIM_ERR_INACTIVE_LANE_READ, "%s", r.message);
    char pat[512];
    snprintf(pat, sizeof pat, "__shfl_down_sync at %s:%d", DETECT_SRC, tag_line(DETECT_SRC, "LINE_POISON_USED"));
    cr_expect(strstr(r.message, pat) != NULL, "names the shuffle: %s", r.message);
    cr_expect(strstr(r.message, "reaches the outputs") && strstr(r.message, "out"), "%s", r.message);
    tt_sim_free(in);
    tt_sim_free(out);
}

Test(detect, poisoned_shuffle_that_reaches_no_output_is_a_warning)
{
    float *in = (float *)tt_sim_alloc(48 * sizeof(float));
    float *out = (float *)tt_sim_alloc(48 * sizeof(float));
    for (int i = 0; i < 48; i++)
        in[i] = (float)i;
    tt_sim_config cfg = sim_cfg(1, 48, 32);
    cfg.inactive_read = TT_SIM_INACTIVE_COMPARE;
    sim_all_schedules(&cfg);
    tt_sim_result r = TT_SIM_LAUNCH(poison_unused, cfg, in, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(out[0], 16.0f);
    cr_expect_eq(out[40], 40.0f);
    char pat[512];
    snprintf(pat, sizeof pat, "__shfl_down_sync at %s:%d", DETECT_SRC, tag_line(DETECT_SRC, "LINE_POISON_UNUSED"));
    cr_expect(strstr(r.notes, "tt_sim: warning: ") && strstr(r.notes, pat), "notes: %s", r.notes);
    tt_sim_free(in);
    tt_sim_free(out);
}
