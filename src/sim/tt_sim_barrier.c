/* tt_sim_barrier.c — __syncthreads (and its _count/_and/_or forms): arrival,
 * release, barrier divergence, and round mode, the cheap path for barriers
 * every thread reaches in schedule order.  See tt_sim_sched.c for the
 * execution model. */
#define _GNU_SOURCE 1
#include "tt_sim_sched.h"

#include <stdio.h>
#include <string.h>

static __attribute__((noinline, cold, noreturn)) void fail_barrier_divergence(tt_sim_worker *w)
{
    uint32_t n = w->blk.nthreads;
    char msg[3500];
    tt_sim_thread *t = NULL;
    for (uint32_t i = 0; i < n && !t; i++)
        if (eff_state(w, &w->threads[i]) == TT_T_BARRIER)
            t = &w->threads[i];
    snprintf(msg, sizeof msg,
             w->bar_mixed ? "barrier divergence: threads of block (%u,%u,%u) wait at different barriers"
                          : "barrier divergence: threads of block (%u,%u,%u) wait at a barrier "
                            "that exited threads never reach",
             w->blk.block_idx.x, w->blk.block_idx.y, w->blk.block_idx.z);
    tt_sim_append_waiters(w, msg, sizeof msg);
    tt_sim_fail_thread(w, t, TT_SIM_ERR_BARRIER_DIVERGENCE, t ? t->wait_site : NULL, msg);
}

/* Every live thread waits at the barrier: release them all. */
void tt_sim_release_barrier(tt_sim_worker *w)
{
    uint32_t n = w->blk.nthreads;
    if (UNLIKELY(w->bar_mixed || (w->L->cfg->strict_barriers && w->live < n)))
        fail_barrier_divergence(w);
    if (UNLIKELY(atomic_load_explicit(&w->L->abort, memory_order_relaxed)))
        tt_sim_escape(w);
    switch (w->bar_kind) {
    case TT_SIM_BAR_COUNT: w->bar_result = w->bar_acc_count; break;
    case TT_SIM_BAR_AND: w->bar_result = w->bar_acc_and; break;
    case TT_SIM_BAR_OR: w->bar_result = w->bar_acc_or; break;
    default: w->bar_result = 0; break;
    }
    /* nobody is released yet (everyone waits here), so ready is all zero */
    if (LIKELY(w->live == n)) {
        uint32_t i = 0;
        for (; i < n / 64; i++)
            w->ready[i] = ~0ull;
        if (n & 63)
            w->ready[i] = (1ull << (n & 63)) - 1;
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (w->threads[i].state != TT_T_DONE)
                set_ready(w, w->threads[i].pos);
    }
    for (uint32_t i = 0; i < w->nwarps; i++)
        w->warps[i].blocked = 0; /* no lane waits at a collective */
    w->nready = w->live;
    w->bar_waiting = 0;
    w->bar_mixed = 0;
    tt_sim_race_block(w); /* a new race-check interval begins */
    /* every thread arrived in schedule order: the next rounds can be cheap
     * (fibers with the fast switch, or coroutines) */
    if (w->live == n && n > 1 && w->next_unstarted == n && !w->batch &&
        (TT_SIM_FAST_SWITCH || w->blk.co) && w->bar_kind == TT_SIM_BAR_PLAIN && tt_sim_cur &&
        tt_sim_cur->pos == n - 1) {
        w->round = 1; /* the releasing thread resumes position 0 next */
    }
}

/* ---------------------------------------------------------------- rounds
 * (round mode and tt_sim_round_leave: tt_sim_sched.c) */

/* A round-mode arrival of the running thread at a plain barrier: the
 * position to run next, or UINT32_MAX when this arrival leaves round mode.
 * Reads only worker fields (not the running thread's record): the chain of
 * dependent loads up to a fiber switch is short. */
static inline __attribute__((always_inline)) uint32_t round_arrive(tt_sim_worker *w,
                                                                   const tt_sim_site *site)
{
    uint32_t p = w->cur_pos, n = w->blk.nthreads;
    if (p == 0)
        w->round_site = site;
    else if (UNLIKELY(site != w->round_site))
        return UINT32_MAX;
    uint32_t q = p + 1;
    if (UNLIKELY(q == n)) { /* the last arrival completes the barrier */
        if (UNLIKELY(atomic_load_explicit(&w->L->abort, memory_order_relaxed)))
            tt_sim_escape(w);
        tt_sim_race_block(w); /* a new race-check interval begins */
        q = 0;
    }
    return q;
}

#if TT_SIM_FAST_SWITCH
/* The same on fibers: the stack to switch to, its thread made the running
 * one, or NULL. */
static inline __attribute__((always_inline)) tt_sim_stack *
round_barrier(tt_sim_worker *w, const tt_sim_site *site)
{
    uint32_t q = round_arrive(w, site), n = w->blk.nthreads;
    if (UNLIKELY(q == UINT32_MAX))
        return NULL;
    __builtin_prefetch(w->pos_stack[q + 1 < n ? q + 1 : 0]); /* the context after it */
    return prepare_resume_at(w, q, &w->threads[w->order[q]]);
}
#endif

static __attribute__((noinline)) void bar_note_site(tt_sim_worker *w, const tt_sim_site *site, int kind)
{
    if (kind != w->bar_kind || !site_eq(site, w->bar_site))
        w->bar_mixed = 1;
}

/* Books the running thread t's arrival at a barrier; the last arrival
 * releases it (and may complete t's warp's collective).  The caller then
 * blocks t (fibers) or suspends it (coroutines). */
static inline __attribute__((always_inline)) void
bar_arrive(tt_sim_worker *w, tt_sim_thread *t, const tt_sim_site *site, int kind, int pred)
{
    t->state = TT_T_BARRIER;
    t->wait_kind = (uint8_t)(BAR_KIND_BASE + kind);
    t->wait_site = site;
    if (w->bar_waiting == 0) {
        w->bar_site = site;
        w->bar_kind = kind;
        w->bar_acc_count = 0;
        w->bar_acc_and = 1;
        w->bar_acc_or = 0;
    } else if (UNLIKELY(site != w->bar_site || kind != w->bar_kind)) {
        bar_note_site(w, site, kind);
    }
    if (UNLIKELY(kind != TT_SIM_BAR_PLAIN)) {
        w->bar_acc_count += pred != 0;
        w->bar_acc_and &= pred != 0;
        w->bar_acc_or |= pred != 0;
    }
    tt_sim_warp *wp = &w->warps[t->warp_id];
    if (++wp->blocked == wp->live && wp->ncoll)
        tt_sim_resolve_warp(w, wp);
    if (++w->bar_waiting == w->live)
        tt_sim_release_barrier(w);
}

static __attribute__((noinline)) int syncthreads_slow(const tt_sim_site *site, int kind, int pred)
{
    tt_sim_thread *t = tt_sim_cur;
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    if (UNLIKELY(w->blk.co))
        tt_sim_co_needs_fibers(w, site);
    if (UNLIKELY(w->batch))
        tt_sim_batch_sync(w, t);
    bar_arrive(w, t, site, kind, pred);
#if TT_SIM_FAST_SWITCH
    return block_fast_i(w, t);
#else
    tt_sim_block_and_schedule(w, t);
    return w->bar_result;
#endif
}

/* __syncthreads.  Fast path: a thread that is neither the first nor the
 * last to arrive (nor the last of its warp while lanes of that warp wait at
 * a collective), at the barrier the others wait at, whose successor in the
 * schedule is already released.  Everything else: syncthreads_slow. */
int tt_sim_syncthreads(const tt_sim_site *site, int kind, int pred)
{
#if TT_SIM_FAST_SWITCH
    tt_sim_worker *w = tt_sim_self_worker;
    if (UNLIKELY(w->blk.co)) /* no fast path: the thread has no fiber */
        return syncthreads_slow(site, kind, pred);
    if (w->round) {
        tt_sim_stack *mine = w->cur_stack, *ns;
        if (LIKELY(kind == TT_SIM_BAR_PLAIN) && (ns = round_barrier(w, site)) != NULL)
            return tt_sim_switch_ret_i(mine, ns, 0); /* a plain barrier returns 0 */
        tt_sim_round_leave(w, w->cur_pos);
        return syncthreads_slow(site, kind, pred);
    }
    tt_sim_thread *t = tt_sim_cur;
    tt_sim_warp *wp = &w->warps[t->warp_id];
    uint32_t q = w->cur_pos + 1, bw = w->bar_waiting;
    /* is_ready(q) implies q < next_unstarted and not batch mode */
    if (LIKELY(kind == TT_SIM_BAR_PLAIN && bw && site == w->bar_site &&
               bw + 1 < w->live && (wp->blocked + 1 < wp->live || !wp->ncoll) &&
               is_ready(w, q))) {
        set_wait(t, TT_T_BARRIER, BAR_KIND_BASE + TT_SIM_BAR_PLAIN, 0, 0);
        t->wait_site = site;
        wp->blocked++;
        w->bar_waiting = bw + 1;
        tt_sim_stack *mine = w->cur_stack, *ns;
        uint64_t v;
        ns = hand_over(w, q, &v);
        return tt_sim_switch_ret_i(mine, ns, v);
    }
#endif
    return syncthreads_slow(site, kind, pred);
}

/* A coroutine kernel's barrier (tt_sim_co.hpp): the arrival only; the
 * thread then suspends. */
void tt_sim_co_barrier(const tt_sim_site *site, int kind, int pred)
{
    tt_sim_worker *w = tt_sim_self_worker;
    if (w->round) { /* the runner resumes the next position (tt_sim_co.c) */
        if (LIKELY(kind == TT_SIM_BAR_PLAIN) && round_arrive(w, site) != UINT32_MAX) {
            tt_sim_cur->state = TT_T_BARRIER; /* (it suspends: not finished) */
            return;
        }
        tt_sim_round_leave(w, w->cur_pos);
    }
    bar_arrive(w, tt_sim_cur, site, kind, pred);
}

/* ---------------------------------------------------------------- regions */

/* A region kernel's __syncthreads(): every thread of the block has run the
 * loop before it (tt_sim_device.h). */
void tt_sim_rg_barrier(uint32_t exited)
{
    tt_sim_worker *w = tt_sim_self_worker;
    if (UNLIKELY(atomic_load_explicit(&w->L->abort, memory_order_relaxed)))
        tt_sim_escape(w);
    if (UNLIKELY(exited && w->L->cfg->strict_barriers))
        tt_sim_rg_bail(NULL, "threads returned before a barrier the others reach (strict barriers)");
    tt_sim_race_block(w); /* a new race-check interval begins */
}
