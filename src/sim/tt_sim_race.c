/* tt_sim_race.c — the race check's intervals: a new one for every warp at a
 * block start or barrier, for one warp when its collective completes
 * (tt_sim_device.h says what a stamp is; tt_sim_shared.c checks accesses
 * against them).  Calls nothing: the scheduler, barrier and collective
 * layers all use it. */
#include "tt_sim_internal.h"

_Static_assert(TT_SIM_MAX_WARPS <= TT_SIM_RACE_MAX_WARPS, "a block's warps fit race_ival");

void tt_sim_race_block_slow(tt_sim_worker *w)
{
    uint64_t base = ++w->race_count << TT_SIM_RACE_WARP_BITS;
    w->blk.race_base = base << 16;
    for (uint32_t i = 0; i < w->nwarps; i++)
        w->blk.race_ival[i] = base | i;
}

void tt_sim_race_warp_slow(tt_sim_worker *w, tt_sim_warp *wp)
{
    size_t i = (size_t)(wp - w->warps);
    w->blk.race_ival[i] = (++w->race_count << TT_SIM_RACE_WARP_BITS) | i;
}
