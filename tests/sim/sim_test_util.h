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
