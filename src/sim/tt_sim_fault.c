/* tt_sim_fault.c — a launch's failure record: the first failure wins, and
 * every worker then stops.  The bottom of the runtime's layers (tt_sim_sched.c
 * says which): it calls nothing of the others. */
#define _GNU_SOURCE 1
#include "tt_sim_internal.h"

#include <stdio.h>

const char *tt_sim_status_name(tt_sim_status s)
{
    switch (s) {
    case TT_SIM_OK: return "ok";
    case TT_SIM_ERR_OOB: return "oob";
    case TT_SIM_ERR_RACE: return "race";
    case TT_SIM_ERR_BARRIER_DIVERGENCE: return "barrier-divergence";
    case TT_SIM_ERR_DEADLOCK: return "deadlock";
    case TT_SIM_ERR_INACTIVE_LANE_READ: return "inactive-lane-read";
    case TT_SIM_ERR_TIMEOUT: return "timeout";
    case TT_SIM_ERR_TRAP: return "trap";
    case TT_SIM_ERR_SCHEDULE_DEPENDENT: return "schedule-dependent";
    case TT_SIM_ERR_CONFIG: return "config";
    case TT_SIM_ERR_NEEDS_FIBERS: return "needs-fibers";
    case TT_SIM_ERR_NEEDS_COROUTINES: return "needs-coroutines";
    }
    return "unknown";
}

int tt_sim_record_failure(tt_sim_run *L, tt_sim_status st, const char *file, int line,
                          const tt_sim_dim3 *blk, const tt_sim_dim3 *thr, const char *msg)
{
    int first = 0;
    pthread_mutex_lock(&L->mu);
    if (!L->failed) {
        first = 1;
        L->failed = 1;
        tt_sim_result *r = &L->result;
        r->status = st;
        r->schedule = L->sched;
        snprintf(r->file, sizeof r->file, "%s", file ? file : "");
        r->line = line;
        if (blk)
            r->block_idx = *blk;
        if (thr)
            r->thread_idx = *thr;
        if (file && line)
            snprintf(r->message, sizeof r->message, "%s:%d: %s: %s", file, line,
                     tt_sim_status_name(st), msg);
        else
            snprintf(r->message, sizeof r->message, "%s: %s", tt_sim_status_name(st), msg);
    }
    pthread_mutex_unlock(&L->mu);
    atomic_store(&L->abort, 1);
    return first;
}

