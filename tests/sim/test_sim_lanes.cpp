// Lane rules of every shuffle, end to end through the executor, against
// expected source lanes written here from the rule texts:
//  - PTX ISA shfl.sync (CUDA, warp 32): idx reads lane (lane/w)*w + (b mod w);
//    up reads lane-b when that stays in the lane's w-segment; down reads
//    lane+b when it stays in the segment; bfly reads lane^b when that is not
//    past the segment's last lane; otherwise the caller's own value.  Only
//    b's low 5 bits count.
//  - AMD amd_warp_functions.h (HIP): __shfl reads (b mod w) + (lane/w)*w;
//    up/down as above; xor reads lane^b unless it is at or past the end of
//    the lane's segment; lanes are taken modulo the wavefront.
// Built three times: CUDA (32), HIP wave64 and HIP wave32.
#include <criterion/criterion.h>

#if defined(SIM_TEST_CUDA)
#define TT_SIM_WARP 32
#include "tt_sim_cuda.h"
#include "lanes_cuda.prep.cu"
#else
#include "tt_sim_hip.h"
#include "lanes_hip.prep.hip"
#endif
#include "sim_test_util.h"

static int expected_ptx(int mode, int lane, int b, int w)
{
    int seg = lane / w * w, d = b & 31;
    switch (mode) {
    case 0: return seg + (b & 31) % w;
    case 1: return lane - d >= seg ? lane - d : lane;
    case 2: return lane + d < seg + w ? lane + d : lane;
    default: return (lane ^ d) < seg + w ? (lane ^ d) : lane;
    }
}

static int expected_amd(int mode, int lane, int b, int w, int wave)
{
    int seg = lane / w * w, r;
    switch (mode) {
    case 0: r = b % w + seg; break;
    case 1: r = lane - b >= seg ? lane - b : lane; break;
    case 2: r = lane % w + b < w ? lane + b : lane; break;
    default: r = (lane ^ b) < seg + w ? (lane ^ b) : lane; break;
    }
    return r % wave;
}

static void check_mode(int mode, int w)
{
    const int W = TT_SIM_WARP, nb = 2 * W; // b from 0 to 2*warp-1
    int *out = (int *)tt_sim_alloc(sizeof(int) * nb * W);
    tt_sim_config cfg = sim_cfg(nb, W, W);
#if defined(SIM_TEST_CUDA)
    tt_sim_result r = TT_SIM_LAUNCH(lanes_cuda, cfg, out, mode, w);
#else
    tt_sim_result r = TT_SIM_LAUNCH(lanes_hip, cfg, out, mode, w);
#endif
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    int bad = 0;
    for (int b = 0; b < nb; b++)
        for (int lane = 0; lane < W; lane++) {
#if defined(SIM_TEST_CUDA)
            int e = expected_ptx(mode, lane, b, w);
#else
            int e = expected_amd(mode == 4 ? 3 : mode, lane, b, w, W);
#endif
            int got = out[b * W + lane];
            if (got != e && bad++ < 5)
                cr_log_error("mode %d width %d b %d lane %d: got %d expected %d", mode, w, b, lane, got, e);
        }
    cr_expect_eq(bad, 0, "mode %d width %d: %d lanes wrong", mode, w, bad);
    tt_sim_free(out);
}

#define LANES_TEST(name, mode)                                   \
    Test(lanes, name)                                            \
    {                                                            \
        for (int w = 4; w <= TT_SIM_WARP; w *= 2)                \
            check_mode(mode, w);                                 \
    }
LANES_TEST(shfl_idx, 0)
LANES_TEST(shfl_up, 1)
LANES_TEST(shfl_down, 2)
LANES_TEST(shfl_xor, 3)
#if !defined(SIM_TEST_CUDA)
LANES_TEST(shfl_xor_sync, 4)

Test(lanes, ballot_partial_wave_upper_bits_zero)
{
    // 40 threads on a 64-lane wavefront: lanes 40..63 do not exist
    unsigned long long *out = (unsigned long long *)tt_sim_alloc(8 * 40);
    tt_sim_config cfg = sim_cfg(1, 40, TT_SIM_WARP);
    tt_sim_result r = TT_SIM_LAUNCH(ballot_hip, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    unsigned long long e = 0;
    for (int l = 0; l < 40; l++)
        if ((l % TT_SIM_WARP) % 3 == 0 && l / TT_SIM_WARP == 0)
            e |= 1ull << l;
    cr_expect_eq(out[0], e, "ballot %llx expected %llx", out[0], e);
    tt_sim_free(out);
}

#if TT_SIM_WARP == 64
Test(lanes, partial_wavefront_inactive_read_is_reported)
{
    float *out = (float *)tt_sim_alloc(4 * 32);
    tt_sim_config cfg = sim_cfg(1, 32, 64);
    tt_sim_result r = TT_SIM_LAUNCH(partial_read_hip, cfg, out);
    cr_assert_eq(r.status, TT_SIM_ERR_INACTIVE_LANE_READ, "%s", r.message);
    cr_expect(strstr(r.message, "partial warp") != NULL, "%s", r.message);
    cr_expect(strstr(r.message, "lanes_hip") != NULL, "%s", r.message);
    // with the poison policy it runs, and the lanes that read garbage show it
    cfg.inactive_read = TT_SIM_INACTIVE_POISON;
    r = TT_SIM_LAUNCH(partial_read_hip, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect(out[0] != out[0], "lane 0 should see poison (NaN), got %f", out[0]);
    tt_sim_free(out);
}

Test(lanes, partial_wavefront_width32_is_clean)
{
    float *out = (float *)tt_sim_alloc(4 * 32);
    tt_sim_config cfg = sim_cfg(1, 32, 64);
    tt_sim_result r = TT_SIM_LAUNCH(partial_ok_hip, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(out[0], 31 * 32 / 2);
    tt_sim_free(out);
}
#endif
#else
Test(lanes, votes_and_matches)
{
    unsigned *out = (unsigned *)tt_sim_alloc(4 * 8 * 32);
    tt_sim_config cfg = sim_cfg(1, 32, 32);
    tt_sim_result r = TT_SIM_LAUNCH(vote_cuda, cfg, out, 4);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    unsigned every4 = 0x11111111u;
    cr_expect_eq(out[0 * 8 + 0], every4, "activemask in branch %x", out[0]);
    cr_expect_eq(out[1 * 8 + 0], 0u);
    cr_expect_eq(out[3 * 8 + 1], every4);
    cr_expect_eq(out[3 * 8 + 2], 1u);
    cr_expect_eq(out[3 * 8 + 3], 1u);
    unsigned m0 = 0;
    for (int l = 0; l < 32; l += 3)
        m0 |= 1u << l;
    cr_expect_eq(out[0 * 8 + 4], m0);
    cr_expect_eq(out[2 * 8 + 5], 0xffffffffu + 1u);
    cr_expect_eq(out[9 * 8 + 6], 31u * 32u / 2u);
    cr_expect_eq((int)out[0 * 8 + 7], 10 - 31);
    tt_sim_free(out);
}
#endif

#if defined(SIM_TEST_CUDA)
Test(lanes, labeled_and_binary_partitions)
{
    unsigned *out = (unsigned *)tt_sim_alloc(4 * 3 * 32);
    tt_sim_config cfg = sim_cfg(1, 32, 32);
    tt_sim_result r = TT_SIM_LAUNCH(partitions_cuda, cfg, out);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    for (unsigned l = 0; l < 32; l++) {
        cr_expect_eq(out[l * 3 + 0], l % 3 == 2 ? 10u : 11u, "lane %u: size of its label's group", l);
        cr_expect_eq(out[l * 3 + 1], l / 3, "lane %u: rank among its label", l);
        cr_expect_eq(out[l * 3 + 2], 800u + (l % 16) / 2, "lane %u: its half of its 16-lane tile", l);
    }
    tt_sim_free(out);
}
#endif

// A chain run as one collective gives what the loop gives shuffle by shuffle,// A chain run as one collective gives what the loop gives shuffle by shuffle,
// in every schedule (lane order).
Test(lanes, shuffle_chains_equal_stepwise)
{
    const int nt = 3 * TT_SIM_WARP;
    float *fa = (float *)tt_sim_alloc(8 * nt), *fb = (float *)tt_sim_alloc(8 * nt);
    int *ia = (int *)tt_sim_alloc(8 * nt), *ib = (int *)tt_sim_alloc(8 * nt);
    tt_sim_config cfg = sim_cfg(2, nt, TT_SIM_WARP);
    sim_all_schedules(&cfg);
    tt_sim_result r = TT_SIM_LAUNCH(chains_fused, cfg, fa, ia);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    r = TT_SIM_LAUNCH(chains_stepwise, cfg, fb, ib);
    cr_assert_eq(r.status, TT_SIM_OK, "%s", r.message);
    cr_expect_eq(memcmp(fa, fb, 8 * nt), 0, "float chains differ");
    cr_expect_eq(memcmp(ia, ib, 8 * nt), 0, "int chains differ");
    // lane 0's butterfly sum is the warp's sum: the values did move
    float sum = 0;
    for (int l = 0; l < TT_SIM_WARP; l++)
        sum += l * 0.37f;
    cr_expect(fa[0] > 0.9f * sum && fa[0] < 1.1f * sum, "lane 0: %f vs about %f", fa[0], sum);
    tt_sim_free(fa);
    tt_sim_free(fb);
    tt_sim_free(ia);
    tt_sim_free(ib);
}

// The pure lane functions agree with the expectations for every operand,
// including negative and out-of-range ones.
Test(lanes, pure_functions_all_operands)
{
    for (int w = 1; w <= TT_SIM_WARP; w *= 2)
        for (int mode = 0; mode < 4; mode++)
            for (int lane = 0; lane < TT_SIM_WARP; lane++)
                for (int b = 0; b < 3 * TT_SIM_WARP; b++) {
#if defined(SIM_TEST_CUDA)
                    int e = expected_ptx(mode, lane, b, w);
                    int g = tt_sim::ptx_src_lane((tt_sim::shfl_mode)mode, lane, b, w);
#else
                    int e = expected_amd(mode, lane, b, w, TT_SIM_WARP);
                    int g = tt_sim::amd_src_lane((tt_sim::shfl_mode)mode, lane, b, w, TT_SIM_WARP);
#endif
                    if (g == TT_SIM_LANE_SELF)
                        g = lane;
                    cr_assert_eq(g, e, "mode %d w %d lane %d b %d: %d vs %d", mode, w, lane, b, g, e);
                }
}
