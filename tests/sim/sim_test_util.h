// sim_test_util.h — shared helpers of the sim tests (included after a shim).
#ifndef SIM_TEST_UTIL_H
#define SIM_TEST_UTIL_H

#include <cstring>

static inline tt_sim_config sim_cfg(unsigned grid, unsigned block, int warp)
{
    tt_sim_config c;
    tt_sim_config_init(&c);
    c.grid.x = grid;
    c.block.x = block;
    c.warp = warp;
    c.timeout_s = 20;
    return c;
}

// The three lane orders (forward, reverse, seeded random), outputs compared.
static inline void sim_all_schedules(tt_sim_config *c)
{
    c->schedules[0] = TT_SIM_SCHED_FORWARD;
    c->schedules[1] = TT_SIM_SCHED_REVERSE;
    c->schedules[2] = TT_SIM_SCHED_RANDOM;
    c->nschedules = 3;
}

// Line of the first source line containing `tag` in the kernel file.
static inline int tag_line(const char *path, const char *tag)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[512];
    int ln = 0, found = -1;
    while (fgets(buf, sizeof buf, f)) {
        ln++;
        if (strstr(buf, tag)) {
            found = ln;
            break;
        }
    }
    fclose(f);
    return found;
}

#endif
