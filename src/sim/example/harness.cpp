// Example harness for src/sim/README.md.  Build (KERNEL = the prepared
// kernel source, see tt_xf_prepare_source):
//   c++ -O1 -g -std=gnu++20 -I<TT_SIM_INCLUDE_DIR> -DKERNEL='"block_sum.prep.hip"' \
//       harness.cpp <libtt_sim_rt.a> -lpthread
#define TT_SIM_WARP 64
#include "tt_sim_hip.h"
#include KERNEL

int main(void)
{
    const int n = 100000;
    float *in = (float *)tt_sim_alloc(n * sizeof(float));   // device buffers:
    float *out = (float *)tt_sim_alloc(sizeof(float));      // guarded, zeroed
    tt_sim_buffer_describe(in, "in", TT_SIM_ELEM_F32);
    tt_sim_buffer_describe(out, "out", TT_SIM_ELEM_F32);
    for (int i = 0; i < n; i++)
        in[i] = 1.0f;

    tt_sim_config cfg;
    tt_sim_config_init(&cfg);
    cfg.grid.x = (n + 255) / 256;
    cfg.block.x = 256;
    cfg.warp = TT_SIM_WARP;
    cfg.schedules[0] = TT_SIM_SCHED_FORWARD;   // run three lane orders and
    cfg.schedules[1] = TT_SIM_SCHED_REVERSE;   // compare their outputs
    cfg.schedules[2] = TT_SIM_SCHED_RANDOM;
    cfg.nschedules = 3;
    cfg.threads = 2;

    tt_sim_result r = TT_SIM_LAUNCH(block_sum, cfg, in, out, n);
    if (r.status != TT_SIM_OK) {
        fprintf(stderr, "RUN-FAIL (%s) %s\n", tt_sim_status_name(r.status), r.message);
        return 1;
    }
    printf("sum = %.1f (expected %d)\n", *out, n);
    int ok = *out == (float)n;
    tt_sim_free(in);
    tt_sim_free(out);
    return ok ? 0 : 1;
}
