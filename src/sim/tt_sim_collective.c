/* tt_sim_collective.c — warp collectives: shuffles, votes, ballots, match and
 * reduce, __syncwarp; lane groups, inactive lanes, and the deadlocks of masks.
 * See tt_sim_sched.c for the execution model. */
#define _GNU_SOURCE 1
#include "tt_sim_sched.h"

#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------- collectives */

static inline uint64_t lanes_mask(uint32_t n)
{
    return n >= 64 ? ~0ull : ((1ull << n) - 1);
}

static uint64_t exited_lanes(tt_sim_worker *w, const tt_sim_warp *wp)
{
    uint64_t exited = 0;
    for (uint32_t l = 0; l < wp->nlanes; l++)
        if (eff_state(w, &w->threads[wp->first + l]) == TT_T_DONE)
            exited |= 1ull << l;
    return exited;
}

static __attribute__((noinline, cold, noreturn)) void
fail_mask_deadlock(tt_sim_worker *w, tt_sim_thread *t, tt_sim_thread *o)
{
    char msg[3500], b1[64], b2[64];
    const tt_sim_site *os = o->wait_site;
    int ost = eff_state(w, o);
    snprintf(msg, sizeof msg,
             "deadlock: %s at %s:%d by %s names lane %u in its mask 0x%llx, "
             "but that lane (%s) waits at %s %s:%d",
             t->wait_site->what, t->wait_site->file, t->wait_site->line,
             tt_sim_thread_str(t, b1, sizeof b1), o->lane, (unsigned long long)t->mask,
             tt_sim_thread_str(o, b2, sizeof b2), is_waiting(ost) && os ? os->what : "?",
             is_waiting(ost) && os ? os->file : "?", is_waiting(ost) && os ? os->line : 0);
    tt_sim_append_waiters(w, msg, sizeof msg);
    tt_sim_fail_thread(w, t, TT_SIM_ERR_DEADLOCK, t->wait_site, msg);
}

static __attribute__((noinline, cold)) uint64_t
inactive_read(tt_sim_worker *w, const tt_sim_warp *wp, uint32_t l)
{
    tt_sim_thread *t = &w->threads[wp->first + l];
    int32_t src = w->csrc[wp->first + l];
    uint64_t exited = exited_lanes(w, wp);
    char msg[1024], b1[64];
    const char *why = "is not executing this shuffle (divergent branch)";
    if (src < 0 || (uint32_t)src >= w->blk.warp)
        why = "is outside the warp";
    else if ((uint32_t)src >= wp->nlanes)
        why = "does not exist (partial warp: the block has fewer threads)";
    else if ((exited >> src) & 1)
        why = "has exited";
    snprintf(msg, sizeof msg,
             "inactive-lane read: %s at %s:%d by %s (lane %u of a %u-lane warp) "
             "reads lane %d, which %s",
             t->wait_site->what, t->wait_site->file, t->wait_site->line,
             tt_sim_thread_str(t, b1, sizeof b1), t->lane, w->blk.warp, src, why);
    if (w->L->cfg->inactive_read != TT_SIM_INACTIVE_ERROR) {
        /* the first poisoned read names the shuffle if the poison reaches a buffer */
        pthread_mutex_lock(&w->L->mu);
        if (!w->L->poison_msg[0])
            snprintf(w->L->poison_msg, sizeof w->L->poison_msg, "%.511s", msg);
        pthread_mutex_unlock(&w->L->mu);
        return w->L->poison;
    }
    tt_sim_fail_thread(w, t, TT_SIM_ERR_INACTIVE_LANE_READ, t->wait_site, msg);
}

/* Marks the lanes of g released. */
static inline void release_lanes(tt_sim_worker *w, tt_sim_warp *wp, uint64_t g)
{
    int whole = g == lanes_mask(wp->nlanes);
    /* (without -mpopcnt __builtin_popcountll is a library call) */
    uint32_t n = whole ? wp->nlanes : (uint32_t)__builtin_popcountll(g);
    if (wp->pos_first != UINT32_MAX && whole) {
        /* the warp's lanes sit at consecutive schedule positions */
        uint32_t p = wp->pos_first, sh = p & 63;
        w->ready[p >> 6] |= g << sh;
        if (sh + wp->nlanes > 64)
            w->ready[(p >> 6) + 1] |= g >> (64 - sh);
    } else {
        for (uint64_t x = g; x; x &= x - 1)
            set_ready(w, w->threads[wp->first + (uint32_t)__builtin_ctzll(x)].pos);
    }
    wp->blocked -= n;
    if ((wp->ncoll -= n) == 0)
        wp->coll_site = NULL; /* the fast paths test site == coll_site only */
    w->nready += n;
}

/* tt_sim_chain::fuse's report of a lane read outside the warp. */
typedef struct fuse_ctx {
    tt_sim_worker *w;
    const tt_sim_warp *wp;
} fuse_ctx;

static uint64_t fuse_inactive(void *ctx, uint32_t l, int32_t s)
{
    fuse_ctx *c = ctx;
    c->w->csrc[c->wp->first + l] = s; /* what inactive_read reports */
    return inactive_read(c->w, c->wp, l);
}

/* A whole warp waits at step 0 of a shuffle chain (tt_sim_device.h).  If
 * every lane waits with the same fusable chain (equal keys: site and
 * length), run all its steps now, exactly as the loop would shuffle by
 * shuffle (same lane rules and order, inactive reads reported at the step
 * they happen), mark the lanes fused and return 1.  Otherwise return 0:
 * step 0 is resolved as an ordinary shuffle. */
static int fuse_chain(tt_sim_worker *w, tt_sim_warp *wp)
{
    uint32_t first = wp->first, nl = wp->nlanes;
    tt_sim_chain_wait *cw = w->blk.chain_wait + first;
    for (uint32_t l = 1; l < nl; l++)
        if (cw[l].key != cw[0].key)
            return 0;
    const tt_sim_chain *c0 = &cw[0].chain;
    fuse_ctx ctx = {w, wp};
    memcpy(w->cres + first, w->cval + first, nl * sizeof *w->cres);
    c0->fuse(c0->op, w->cres + first, w->blk.chain_src + first, w->blk.nthreads, c0->rec->n, nl,
             fuse_inactive, &ctx);
    for (uint32_t l = 0; l < nl; l++)
        cw[l].key = 1;
    return 1;
}

/* Computes the results of the group g (lanes at one collective) and
 * releases its lanes. */
static void resolve_group(tt_sim_worker *w, tt_sim_warp *wp, uint64_t gmask, int kind)
{
    uint32_t first = wp->first, nl = wp->nlanes;
    const uint64_t *val = w->cval + first;
    const int32_t *src = w->csrc + first;
    uint64_t *res = w->cres + first;
    tt_sim_thread *lanes = &w->threads[first];

    if (kind == TT_SIM_COLL_SHFL) {
        if (gmask == lanes_mask(nl)) { /* every lane takes part: the common case */
            if (UNLIKELY(w->blk.chain_wait[first].key > 1) && fuse_chain(w, wp)) {
                release_lanes(w, wp, gmask);
                return;
            }
            for (uint32_t l = 0; l < nl; l++) {
                int32_t s = src[l];
                if (s == TT_SIM_LANE_SELF)
                    res[l] = val[l];
                else if (LIKELY((uint32_t)s < nl))
                    res[l] = val[s];
                else
                    res[l] = inactive_read(w, wp, l);
            }
        } else {
            for (uint64_t g = gmask; g; g &= g - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(g);
                int32_t s = src[l];
                if (s == TT_SIM_LANE_SELF)
                    res[l] = val[l];
                else if ((uint32_t)s < 64 && ((gmask >> s) & 1))
                    res[l] = val[s];
                else
                    res[l] = inactive_read(w, wp, l);
            }
        }
        release_lanes(w, wp, gmask);
        return;
    }

    uint64_t ballot = 0;
    if (kind == TT_SIM_COLL_BALLOT)
        for (uint64_t g = gmask; g; g &= g - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(g);
            if (lanes[l].pred)
                ballot |= 1ull << l;
        }

    for (uint64_t g = gmask; g; g &= g - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(g);
        tt_sim_thread *t = &lanes[l];
        uint64_t scope = t->has_mask ? (t->mask & gmask) : gmask;
        switch (kind) {
        case TT_SIM_COLL_BALLOT:
            res[l] = ballot & scope;
            t->result_pred = (ballot & scope) == scope;
            break;
        case TT_SIM_COLL_ACTIVEMASK:
            res[l] = gmask;
            break;
        case TT_SIM_COLL_SYNCWARP:
            res[l] = 0;
            break;
        case TT_SIM_COLL_MATCH_ANY: {
            uint64_t m = 0;
            for (uint64_t s = scope; s; s &= s - 1) {
                uint32_t o = (uint32_t)__builtin_ctzll(s);
                if (val[o] == val[l])
                    m |= 1ull << o;
            }
            res[l] = m;
            break;
        }
        case TT_SIM_COLL_MATCH_ALL: {
            int same = 1;
            for (uint64_t s = scope; s; s &= s - 1)
                same &= val[__builtin_ctzll(s)] == val[l];
            res[l] = same ? scope : 0;
            t->result_pred = same;
            break;
        }
        default: { /* reductions over 32-bit values (sign handled by the shim) */
            uint32_t acc = kind == TT_SIM_COLL_REDUCE_AND ? ~0u
                         : kind == TT_SIM_COLL_REDUCE_MIN ? ~0u : 0u;
            for (uint64_t s = scope; s; s &= s - 1) {
                uint32_t v = (uint32_t)val[__builtin_ctzll(s)];
                switch (kind) {
                case TT_SIM_COLL_REDUCE_ADD: acc += v; break;
                case TT_SIM_COLL_REDUCE_MIN: acc = v < acc ? v : acc; break;
                case TT_SIM_COLL_REDUCE_MAX: acc = v > acc ? v : acc; break;
                case TT_SIM_COLL_REDUCE_AND: acc &= v; break;
                case TT_SIM_COLL_REDUCE_OR: acc |= v; break;
                case TT_SIM_COLL_REDUCE_XOR: acc ^= v; break;
                default: break;
                }
            }
            res[l] = acc;
            break;
        }
        }
    }
    release_lanes(w, wp, gmask);
}

/* Lanes a group's _sync masks name that live but are not in the group. */
static uint64_t group_missing(tt_sim_worker *w, tt_sim_warp *wp, uint64_t g)
{
    tt_sim_thread *lanes = &w->threads[wp->first];
    uint64_t exists = lanes_mask(wp->nlanes);
    uint64_t missing = 0;
    for (; g; g &= g - 1) {
        tt_sim_thread *t = &lanes[__builtin_ctzll(g)];
        if (t->has_mask)
            missing |= t->mask & exists;
    }
    for (uint64_t m = missing; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        int st = eff_state(w, &lanes[l]);
        if (st == TT_T_DONE || st == TT_T_COLL)
            missing &= ~(1ull << l);
    }
    return missing;
}

static __attribute__((noinline, cold, noreturn)) void
fail_group_deadlock(tt_sim_worker *w, tt_sim_warp *wp, uint64_t g, uint64_t missing)
{
    tt_sim_thread *lanes = &w->threads[wp->first];
    for (uint64_t x = g; x; x &= x - 1) {
        tt_sim_thread *t = &lanes[__builtin_ctzll(x)];
        uint64_t m = t->has_mask ? t->mask & missing : 0;
        if (m)
            fail_mask_deadlock(w, t, &lanes[__builtin_ctzll(m)]);
    }
    fail_mask_deadlock(w, &lanes[__builtin_ctzll(g)], &lanes[__builtin_ctzll(missing)]);
}

/* The general case of resolve_warp: exited lanes, lanes at a barrier, or
 * lanes at different collectives. */
static __attribute__((noinline)) void resolve_warp_slow(tt_sim_worker *w, tt_sim_warp *wp)
{
    tt_sim_thread *lanes = &w->threads[wp->first];
    uint64_t pending = 0;
    for (uint32_t l = 0; l < wp->nlanes; l++)
        if (eff_state(w, &lanes[l]) == TT_T_COLL)
            pending |= 1ull << l;
    if (!wp->coll_mixed) {
        uint64_t miss = group_missing(w, wp, pending);
        /* every live lane is blocked and not at this collective: at a barrier */
        if (miss)
            fail_group_deadlock(w, wp, pending, miss);
        resolve_group(w, wp, pending, wp->coll_kind);
        tt_sim_race_warp(w, wp);
        return;
    }
    uint64_t groups[64], todo = pending;
    int ng = 0;
    while (todo) {
        tt_sim_thread *lead = &lanes[__builtin_ctzll(todo)];
        uint64_t g = 0;
        for (uint64_t p = todo; p; p &= p - 1) {
            tt_sim_thread *t = &lanes[__builtin_ctzll(p)];
            if (t->wait_kind == lead->wait_kind &&
                (lead->wait_kind == TT_SIM_COLL_SYNCWARP || site_eq(t->wait_site, lead->wait_site)))
                g |= 1ull << t->lane;
        }
        todo &= ~g;
        groups[ng++] = g;
    }
    int done = 0;
    uint64_t barrier_lanes = 0;
    for (uint32_t l = 0; l < wp->nlanes; l++)
        if (eff_state(w, &lanes[l]) == TT_T_BARRIER)
            barrier_lanes |= 1ull << l;
    for (int i = 0; i < ng; i++) {
        uint64_t miss = group_missing(w, wp, groups[i]);
        if (miss & barrier_lanes)
            fail_group_deadlock(w, wp, groups[i], miss & barrier_lanes);
        /* lanes at other collectives: only a problem if they are not pending */
        uint64_t coll_miss = 0;
        for (uint64_t x = groups[i]; x; x &= x - 1) {
            tt_sim_thread *t = &lanes[__builtin_ctzll(x)];
            if (t->has_mask)
                coll_miss |= t->mask & pending & ~groups[i];
        }
        if (coll_miss)
            continue; /* wait until those lanes arrive here */
        resolve_group(w, wp, groups[i], lanes[__builtin_ctzll(groups[i])].wait_kind);
        done++;
    }
    if (!done) {
        uint64_t miss = 0;
        for (uint64_t x = groups[0]; x; x &= x - 1) {
            tt_sim_thread *t = &lanes[__builtin_ctzll(x)];
            if (t->has_mask)
                miss |= t->mask & pending & ~groups[0];
        }
        fail_group_deadlock(w, wp, groups[0], miss ? miss : groups[0]);
    }
    wp->coll_mixed = wp->ncoll > 0;
    tt_sim_race_warp(w, wp);
}

/* Every live lane of the warp is blocked: complete the collectives that can
 * complete.  Lanes at the same kind and call site form one group (the
 * active lanes of that SIMT instruction; __syncwarp groups by kind only, as
 * sm_70+ lets different __syncwarp sites with one mask meet).  A group
 * whose _sync mask names a lane waiting at another collective waits for
 * that lane to come; one whose mask names a lane at a block barrier (or
 * where every group waits for another) can never complete: deadlock. */
void tt_sim_resolve_warp(tt_sim_worker *w, tt_sim_warp *wp)
{
    if (UNLIKELY(atomic_load_explicit(&w->L->abort, memory_order_relaxed)))
        tt_sim_escape(w);
    if (LIKELY(!wp->coll_mixed && wp->ncoll == wp->nlanes)) {
        /* every lane of the warp waits at this one collective: no mask can
         * name a missing lane */
        resolve_group(w, wp, lanes_mask(wp->nlanes), wp->coll_kind);
        tt_sim_race_warp(w, wp);
        return;
    }
    resolve_warp_slow(w, wp);
}

/* Error paths live in separate cold functions: their message buffers must
 * not enlarge the frames of the hot path, which sit on every fiber stack. */
static __attribute__((noinline, cold, noreturn)) void
fail_not_in_mask(tt_sim_worker *w, tt_sim_thread *t, const tt_sim_site *site, uint64_t mask)
{
    char msg[512], b[64];
    snprintf(msg, sizeof msg, "%s at %s:%d: calling %s (lane %u) is not in its own mask 0x%llx",
             site->what, site->file, site->line, tt_sim_thread_str(t, b, sizeof b), t->lane,
             (unsigned long long)mask);
    tt_sim_fail_thread(w, t, TT_SIM_ERR_TRAP, site, msg);
}

static __attribute__((noinline)) void coll_note_site(tt_sim_warp *wp, const tt_sim_site *site, int kind)
{
    if (kind != wp->coll_kind || !site_eq(site, wp->coll_site))
        wp->coll_mixed = 1;
}

/* Books the running thread t's arrival at a collective; the last live lane
 * of its warp to block completes it.  The caller then blocks t (fibers) or
 * suspends it (coroutines). */
static inline __attribute__((always_inline)) void
coll_arrive(tt_sim_worker *w, tt_sim_thread *t, const tt_sim_site *site, int kind, int has_mask,
            uint64_t mask, uint64_t value, int32_t src, int pred)
{
    if (UNLIKELY(has_mask && !((mask >> t->lane) & 1)))
        fail_not_in_mask(w, t, site, mask);
    tt_sim_warp *wp = &w->warps[t->warp_id];
    uint32_t me = t->linear;
    t->state = TT_T_COLL;
    t->wait_kind = (uint8_t)kind;
    t->has_mask = (uint8_t)(has_mask != 0);
    t->pred = (uint8_t)(pred != 0);
    t->wait_site = site;
    t->mask = mask;
    w->cval[me] = value;
    w->csrc[me] = src;
    if (wp->ncoll++ == 0) {
        wp->coll_site = site;
        wp->coll_kind = kind;
    } else if (UNLIKELY(site != wp->coll_site || kind != wp->coll_kind)) {
        coll_note_site(wp, site, kind);
    }
    if (++wp->blocked == wp->live)
        tt_sim_resolve_warp(w, wp);
}

/* Inlined into its two callers so that each ends in block_fast's tail-called
 * switch: the resumed lane lands in the kernel, not in a runtime frame whose
 * return the predictor cannot know. */
static inline __attribute__((always_inline)) uint64_t
collective_block(const tt_sim_site *site, int kind, int has_mask, uint64_t mask, uint64_t value,
                int32_t src, int pred, int *pred_out)
{
    tt_sim_thread *t = tt_sim_cur;
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    if (UNLIKELY(w->blk.co))
        tt_sim_co_needs_fibers(w, site);
    if (UNLIKELY(w->round))
        tt_sim_round_leave(w, t->pos);
    if (UNLIKELY(w->batch))
        tt_sim_batch_sync(w, t);
    uint32_t me = t->linear;
    coll_arrive(w, t, site, kind, has_mask, mask, value, src, pred);
#if TT_SIM_FAST_SWITCH
    if (LIKELY(pred_out == NULL))
        return block_fast(w, t);
#endif
    tt_sim_block_and_schedule(w, t);
    if (pred_out)
        *pred_out = t->result_pred;
    return w->cres[me];
}

static __attribute__((noinline)) uint64_t
collective_slow(const tt_sim_site *site, int kind, int has_mask, uint64_t mask, uint64_t value,
                int32_t src, int pred, int *pred_out)
{
    return collective_block(site, kind, has_mask, mask, value, src, pred, pred_out);
}

/* Warp collectives.  The fast path covers a lane that is neither the first
 * nor the last of its warp to arrive, at the same site as the others, and
 * whose successor in the schedule is already released: it books itself and
 * switches with a tail call, using only scratch registers.  Everything else
 * goes through collective_slow. */
uint64_t tt_sim_collective(const tt_sim_site *site, int kind, int has_mask, uint64_t mask,
                           uint64_t value, int32_t src, int pred, int *pred_out)
{
#if TT_SIM_FAST_SWITCH
    tt_sim_thread *t = tt_sim_cur;
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    tt_sim_warp *wp = &w->warps[t->warp_id];
    uint32_t q = w->cur_pos + 1, nc = wp->ncoll;
    /* site == coll_site implies a lane waits (so not in batch mode), and a
     * released position has started (is_ready(q) implies q < next_unstarted);
     * a coroutine thread has no fiber to switch from */
    if (LIKELY(!pred_out && site == wp->coll_site && kind == wp->coll_kind && !w->blk.co &&
               wp->blocked + 1 < wp->live && is_ready(w, q) &&
               (!has_mask || ((mask >> t->lane) & 1)))) {
        uint32_t me = t->linear;
        set_wait(t, TT_T_COLL, (uint32_t)kind, has_mask != 0, pred != 0);
        t->wait_site = site;
        t->mask = mask;
        w->cval[me] = value;
        w->csrc[me] = src;
        wp->ncoll = nc + 1;
        wp->blocked++;
        tt_sim_stack *mine = w->cur_stack, *ns;
        uint64_t v;
        ns = hand_over(w, q, &v);
        return tt_sim_switch_ret(mine, ns, v);
    }
#endif
    return collective_slow(site, kind, has_mask, mask, value, src, pred, pred_out);
}

#if TT_SIM_FAST_SWITCH
/* shfl_slow: tt_sim_shfl's operands are already in t's record and in
 * cval/csrc (see below). */
static __attribute__((noinline)) uint64_t shfl_slow(tt_sim_thread *t, int has_mask)
{
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    uint32_t me = t->linear;
    return collective_block(t->wait_site, TT_SIM_COLL_SHFL, has_mask, t->mask, w->cval[me],
                            w->csrc[me], 0, NULL);
}
#endif

/* tt_sim_collective for shuffles: the same fast path with fewer tests.  The
 * operands are stored first, so that few values stay live and the fast path
 * needs no callee-saved register: no push to this fiber's stack, whose line
 * below the kernel's frame is usually not in L1. */
uint64_t tt_sim_shfl(const tt_sim_site *site, int has_mask, uint64_t mask, uint64_t value,
                     int32_t src)
{
#if TT_SIM_FAST_SWITCH
    tt_sim_thread *t = tt_sim_cur;
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    {
        uint32_t me = t->linear;
        t->wait_site = site;
        t->mask = mask;
        w->cval[me] = value;
        w->csrc[me] = src;
    }
    tt_sim_warp *wp = &w->warps[t->warp_id];
    uint32_t q = w->cur_pos + 1;
    if (LIKELY(site == wp->coll_site && wp->coll_kind == TT_SIM_COLL_SHFL && !w->blk.co &&
               wp->blocked + 1 < wp->live && is_ready(w, q) &&
               (!has_mask || ((t->mask >> t->lane) & 1)))) {
        set_wait(t, TT_T_COLL, TT_SIM_COLL_SHFL, has_mask != 0, 0);
        wp->ncoll++;
        wp->blocked++;
        tt_sim_stack *mine = w->cur_stack, *ns;
        uint64_t v;
        ns = hand_over(w, q, &v);
        return tt_sim_switch_ret(mine, ns, v);
    }
    return shfl_slow(t, has_mask);
#else
    return collective_slow(site, TT_SIM_COLL_SHFL, has_mask, mask, value, src, 0, NULL);
#endif
}


/* A coroutine kernel's shuffle (a chain step, tt_sim_co.hpp): the arrival
 * only; the thread then suspends. */
void tt_sim_co_shfl(const tt_sim_site *site, int has_mask, uint64_t mask, uint64_t value,
                    int32_t src)
{
    tt_sim_worker *w = tt_sim_self_worker;
    if (UNLIKELY(w->round))
        tt_sim_round_leave(w, w->cur_pos);
    coll_arrive(w, tt_sim_cur, site, TT_SIM_COLL_SHFL, has_mask, mask, value, src, 0);
}

/* ------------------------------------------------------------ shuffle chains */

__thread tt_sim_chain_rec *tt_sim_chain_probe_rec;

/* ---------------------------------------------------------------- regions */

/* A region kernel's chain (tt_sim_device.h): per warp, what fuse_chain does
 * when the warp's last lane arrives, with every lane's arrival (key, value,
 * site) already written by the loop before. */
void tt_sim_rg_chain(void (*fuse)(const void *op, uint64_t *vals, const int16_t *src, size_t stride,
                                  uint32_t n, uint32_t nl, tt_sim_chain_inactive_fn inactive,
                                  void *ctx),
                     const void *op, const int16_t *src, size_t stride)
{
    tt_sim_worker *w = tt_sim_self_worker;
    if (UNLIKELY(atomic_load_explicit(&w->L->abort, memory_order_relaxed)))
        tt_sim_escape(w);
    tt_sim_chain_wait *cw = w->blk.chain_wait;
    for (uint32_t i = 0; i < w->nwarps; i++) {
        tt_sim_warp *wp = &w->warps[i];
        uint32_t first = wp->first, nl = wp->nlanes;
        uint64_t key = cw[first].key;
        uint32_t l = 1;
        while (l < nl && cw[first + l].key == key)
            l++;
        if (UNLIKELY(l < nl)) {
            tt_sim_cur = &w->threads[first + (key ? l : 0)];
            tt_sim_rg_bail(w->threads[first + (key ? 0 : l)].wait_site,
                           "only some lanes of a warp reached this chain, or took different "
                           "steps in it");
        }
        if (!key)
            continue; /* the warp did not reach the chain */
        fuse_ctx ctx = {w, wp};
        memcpy(w->cres + first, w->cval + first, nl * sizeof *w->cres);
        /* (a key holds the chain's length in its top 16 bits: chain_key) */
        fuse(op, w->cres + first, src ? src : w->blk.chain_src + first,
             src ? stride : w->blk.nthreads, (uint32_t)(key >> 48), nl, fuse_inactive, &ctx);
        for (l = 0; l < nl; l++)
            cw[first + l].key = 1;
        tt_sim_race_warp(w, wp);
    }
}
