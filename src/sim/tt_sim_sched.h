/* tt_sim_sched.h — what the scheduler (tt_sim_sched.c), the barrier
 * (tt_sim_barrier.c) and the warp collectives (tt_sim_collective.c) share:
 * thread states, the ready bitmap, picking and resuming the next thread, and
 * the blocking fast path. Internal to the runtime.
 *
 * The helpers are static inline on purpose: they are the hot path of every barrier
 * and collective, and each caller must get its own inlined copy. */
#ifndef TT_SIM_SCHED_H
#define TT_SIM_SCHED_H

#include "tt_sim_internal.h"

#include <stddef.h>
#include <string.h>

#define BAR_KIND_BASE 100
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---------------------------------------------------------------- states */

static inline int is_ready(const tt_sim_worker *w, uint32_t pos)
{
    return (int)((w->ready[pos >> 6] >> (pos & 63)) & 1);
}

static inline void set_ready(tt_sim_worker *w, uint32_t pos)
{
    w->ready[pos >> 6] |= 1ull << (pos & 63);
}

/* state, wait_kind, has_mask and pred of t in one store (they are adjacent
 * bytes of the record: the hot paths write all four). */
_Static_assert(offsetof(tt_sim_thread, wait_kind) == offsetof(tt_sim_thread, state) + 1 &&
               offsetof(tt_sim_thread, has_mask) == offsetof(tt_sim_thread, state) + 2 &&
               offsetof(tt_sim_thread, pred) == offsetof(tt_sim_thread, state) + 3,
               "state bytes must be adjacent");
static inline void set_wait(tt_sim_thread *t, uint32_t state, uint32_t kind, uint32_t has_mask,
                            uint32_t pred)
{
    uint32_t v = state | kind << 8 | has_mask << 16 | pred << 24;
    __builtin_memcpy((char *)t + offsetof(tt_sim_thread, state), &v, 4);
}

/* The true state of t (see the lazy-state invariant above). */
static inline int eff_state(const tt_sim_worker *w, const tt_sim_thread *t)
{
    if (t->pos >= w->next_unstarted)
        return TT_T_UNSTARTED;
    if (is_ready(w, t->pos))
        return TT_T_RUNNABLE;
    return t->state;
}

static inline int site_eq(const tt_sim_site *a, const tt_sim_site *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->line != b->line)
        return 0;
    return a->file == b->file || strcmp(a->file, b->file) == 0;
}

static inline int is_waiting(int st)
{
    return st == TT_T_BARRIER || st == TT_T_COLL;
}

/* Failure paths (tt_sim_sched.c): they leave the kernel through the worker's escape. */
__attribute__((noreturn)) void tt_sim_escape(tt_sim_worker *w);
__attribute__((noreturn)) void tt_sim_fail_thread(tt_sim_worker *w, const tt_sim_thread *t, tt_sim_status st,
                                                  const tt_sim_site *site, const char *msg);
__attribute__((noinline, cold, noreturn)) void tt_sim_internal_deadlock(tt_sim_worker *w);
const char *tt_sim_thread_str(const tt_sim_thread *t, char *buf, size_t n);
void tt_sim_append_waiters(tt_sim_worker *w, char *msg, size_t cap);

/* A kernel running as coroutines reached a blocking call its preparation
 * did not turn into an await (tt_sim_sched.c): fails the launch with
 * TT_SIM_ERR_NEEDS_FIBERS. */
__attribute__((noinline, cold, noreturn)) void tt_sim_co_needs_fibers(tt_sim_worker *w,
                                                                      const tt_sim_site *site);

/* Every live thread waits at the barrier: releases them all (tt_sim_barrier.c;
 * the core reaches it through w->sync). */
void tt_sim_release_barrier(tt_sim_worker *w);

/* Leaves round mode (tt_sim_sched.c), the thread at schedule position `cur`
 * running: rebuilds the state round mode does not keep.  Every path other
 * than round mode's barrier calls it before it looks at thread states. */
void tt_sim_round_leave(tt_sim_worker *w, uint32_t cur);

/* A new runner fiber, made the running fiber, to start the next unstarted
 * thread on (tt_sim_sched.c); the caller switches to its stack. */
tt_sim_stack *tt_sim_spawn_runner(tt_sim_worker *w);
/* A fresh fiber running entry(w) (NULL: the fiber block loop) as the worker's
 * current stack (tt_sim_worker.c starts a launch's first block on it). */
tt_sim_stack *tt_sim_spawn_fiber(tt_sim_worker *w, void (*entry)(void *));
/* After an escape every fiber of the block is abandoned: all stacks are free. */
void tt_sim_stacks_reset(tt_sim_worker *w);

/* Runs other threads until `self` is released (tt_sim_sched.c). */
void tt_sim_block_and_schedule(tt_sim_worker *w, tt_sim_thread *self);
/* Completes what the lanes of warp `wp` wait for, when they all wait (tt_sim_collective.c). */
void tt_sim_resolve_warp(tt_sim_worker *w, tt_sim_warp *wp);

/* ------------------------------------------------------------- scheduling */

static inline void stack_put(tt_sim_worker *w, tt_sim_stack *s)
{
    s->next_free = w->free_stacks;
    w->free_stacks = s;
}

/* Sets up the worker's next block (tt_sim_sched.c).  Returns 0 when none is
 * left or the launch aborted. */
int tt_sim_take_block(tt_sim_worker *w);

/* The running thread t has returned from the kernel: books its exit, which
 * may complete its warp's collective or the block's barrier. */
static inline void thread_exit(tt_sim_worker *w, tt_sim_thread *t)
{
    if (w->round)
        tt_sim_round_leave(w, t->pos);
    tt_sim_warp *wp = &w->warps[t->warp_id];
    t->state = TT_T_DONE;
    w->live--;
    wp->live--;
    if (wp->live && wp->blocked == wp->live && wp->ncoll)
        w->sync->resolve_warp(w, wp);
    if (w->bar_waiting && w->bar_waiting == w->live)
        w->sync->release_barrier(w);
}

/* First released position in [from, to), or `to`. */
static inline uint32_t find_ready(const tt_sim_worker *w, uint32_t from, uint32_t to)
{
    while (from < to) {
        uint64_t word = w->ready[from >> 6] >> (from & 63);
        if (word) {
            uint32_t q = from + (uint32_t)__builtin_ctzll(word);
            return q < to ? q : to;
        }
        from = (from | 63) + 1;
    }
    return to;
}

/* Position to run after the thread at `cur` blocked or exited: the first
 * released or unstarted one after it in schedule order, cyclically;
 * UINT32_MAX when there is none. */
static inline uint32_t pick_next(const tt_sim_worker *w, uint32_t cur)
{
    uint32_t nu = w->next_unstarted;
    if (w->nready) {
        uint32_t q = find_ready(w, cur + 1, nu);
        if (q < nu)
            return q;
    }
    if (nu < w->blk.nthreads)
        return nu;
    if (w->nready) {
        uint32_t q = find_ready(w, 0, cur + 1);
        if (q <= cur)
            return q;
    }
    return UINT32_MAX;
}

static inline tt_sim_thread *take_ready(tt_sim_worker *w, uint32_t q)
{
    w->ready[q >> 6] &= ~(1ull << (q & 63));
    w->nready--;
    return &w->threads[w->order[q]];
}

/* The value a blocked thread's call returns: its barrier's or its
 * collective's result. */
static inline uint64_t resume_value(const tt_sim_worker *w, const tt_sim_thread *t)
{
    return t->wait_kind >= BAR_KIND_BASE ? (uint64_t)(int64_t)w->bar_result : w->cres[t->linear];
}

/* Software prefetch of what the threads after position q will touch when
 * they are resumed in turn (the fast paths resume q + 1 next): a pipeline
 * over three steps, each reading only lines the previous steps fetched, so
 * that the record, the saved context and the stack top of every resumed
 * thread are in L1 by the time it runs.  order[] has PREFETCH_AHEAD
 * padding entries, so q + 3 may pass the end of the block. */
#define PREFETCH_AHEAD 4
static inline void prefetch_ahead(const tt_sim_worker *w, uint32_t q)
{
    const tt_sim_thread *th = w->threads;
    const uint32_t *ord = w->order;
    __builtin_prefetch(&th[ord[q + 3]]);
    const tt_sim_stack *s2 = th[ord[q + 2]].stack;
    if (s2)
        __builtin_prefetch(s2);
    const tt_sim_thread *t1 = &th[ord[q + 1]];
    const tt_sim_stack *s1 = t1->stack;
    if (s1)
        __builtin_prefetch(s1->sp);
    __builtin_prefetch(&w->cres[t1->linear]);
}

/* Makes t, at schedule position q, the running thread (fibers and
 * coroutines alike; a fiber also needs its stack, below). */
static inline void make_running(tt_sim_worker *w, uint32_t q, tt_sim_thread *t)
{
    t->state = TT_T_RUNNING;
    tt_sim_cur = t;
    tt_sim_tid = t->tid;
    w->cur_pos = q;
}

/* Makes `next` (released, at schedule position q) the running thread and
 * returns its stack, which the caller then switches to, passing
 * resume_value().  The stack comes from the worker's per-position array:
 * the switch does not wait for next's record. */
static inline tt_sim_stack *prepare_resume_at(tt_sim_worker *w, uint32_t q, tt_sim_thread *next)
{
    tt_sim_stack *ns = w->pos_stack[q];
    make_running(w, q, next);
    w->cur_stack = ns;
    return ns;
}

/* The fast paths' hand-over to the released thread at position q, the
 * running one's successor: takes it, prefetches the threads after it and
 * makes it the running thread; returns its stack, its resume value in *v. */
static inline __attribute__((always_inline)) tt_sim_stack *hand_over(tt_sim_worker *w, uint32_t q,
                                                                     uint64_t *v)
{
    tt_sim_thread *next = take_ready(w, q);
    prefetch_ahead(w, q);
    *v = resume_value(w, next);
    return prepare_resume_at(w, q, next);
}

static inline tt_sim_stack *prepare_resume(tt_sim_worker *w, tt_sim_thread *next)
{
    return prepare_resume_at(w, next->pos, next);
}

/* Switches from the fiber on `mine` to `to`, passing `value` as the return
 * value of the call that suspended `to` (fast switch only). */
static inline void switch_to(tt_sim_stack *mine, tt_sim_stack *to, int dies, uint64_t value)
{
#if TT_SIM_FAST_SWITCH
    (void)dies;
    tt_sim_switch_ret(mine, to, value);
#else
    (void)value;
    tt_sim_fiber_switch(mine, to, dies);
#endif
}

#if TT_SIM_FAST_SWITCH
/* The end of a blocking call: switches to whoever runs next with a tail
 * call, so that no frame of the runtime stays on the suspended fiber; the
 * thread that later resumes `self` passes its result, which is returned.
 * One copy per return type, so that the switch is a sibling call. */
#define DEFINE_BLOCK_FAST(NAME, TYPE, SWITCH)                                             \
    static inline __attribute__((always_inline)) TYPE NAME(tt_sim_worker *w, tt_sim_thread *self) \
    {                                                                                     \
        uint32_t q = pick_next(w, self->pos);                                             \
        if (UNLIKELY(q == UINT32_MAX))                                                    \
            tt_sim_internal_deadlock(w);                                                         \
        tt_sim_stack *mine = self->stack;                                                 \
        if (UNLIKELY(q == self->pos)) {                                                   \
            tt_sim_block_and_schedule(w, self);                                           \
            return (TYPE)resume_value(w, self);                                           \
        }                                                                                 \
        if (q >= w->next_unstarted) /* start the next thread on a new fiber */            \
            return SWITCH(mine, tt_sim_spawn_runner(w), 0);                               \
        tt_sim_thread *next = take_ready(w, q);                                           \
        uint64_t v = resume_value(w, next);                                               \
        return SWITCH(mine, prepare_resume(w, next), v);                                 \
    }
DEFINE_BLOCK_FAST(block_fast, uint64_t, tt_sim_switch_ret)
DEFINE_BLOCK_FAST(block_fast_i, int, tt_sim_switch_ret_i)
#endif

#endif
