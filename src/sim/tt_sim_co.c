/* tt_sim_co.c — running coroutine kernels: the scheduler of a block whose
 * threads are coroutines, and their frame memory.  The kernel side (the
 * awaiters, the coroutine type) is tt_sim_co.hpp; the arrivals it books are
 * tt_sim_co_barrier (tt_sim_barrier.c) and tt_sim_co_shfl
 * (tt_sim_collective.c).
 *
 * Why: a GPU thread on a fiber costs a context switch at every barrier and
 * collective, with a return the branch predictor cannot know, and a stack
 * of its own that the cache must hold.  A kernel that tt_xf_prepare_source
 * made a coroutine (every barrier and chain step in its own body, awaited)
 * suspends into this loop instead: a return to a known place, and a frame of
 * a few hundred bytes.  The bookkeeping (warps, barrier, ready bitmap,
 * deadlock and divergence checks, schedules) is the fiber scheduler's own;
 * only how a thread is left and re-entered differs.
 *
 * Invariants: the loop runs on a runner fiber of cfg.stack_size bytes (stack
 * use and overflow reports are those of fiber mode).  A thread is started by
 * kernel->invoke and resumed by kernel->co_resume; when either returns, the
 * thread has suspended (an awaiter set its state to a waiting one and stored
 * its frame) or finished (its state is still TT_T_RUNNING).  No thread ever
 * blocks a fiber: the blocking entry points fail with
 * TT_SIM_ERR_NEEDS_FIBERS while blk.co is set.
 */
#define _GNU_SOURCE 1
#include "tt_sim_sched.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- frames
 * Frames are bump-allocated from chunks that live as long as the worker;
 * every frame of a block is dead when the block is done, so setup_block
 * simply empties the arena (co_next = co_end = NULL: the next allocation
 * restarts at the first chunk).  A chunk's first word links the next. */

#define CO_CHUNK (256 * 1024)
#define CO_ALIGN 16

static char *chunk_data(char *c)
{
    return c + CO_ALIGN;
}

static size_t chunk_size(char *c)
{
    return ((size_t *)c)[1];
}

void *tt_sim_co_alloc_slow(size_t n)
{
    tt_sim_worker *w = tt_sim_self_worker;
    tt_sim_block *b = &w->blk;
    n = (n + CO_ALIGN - 1) & ~(size_t)(CO_ALIGN - 1);
    /* the chunk after the current one (the first when the block has none),
     * skipping any too small for an outsized frame; a new one at the end */
    char **link = b->co_next ? (char **)w->co_cur : &w->co_chunks;
    while (*link && chunk_size(*link) < n)
        link = (char **)*link;
    if (!*link) {
        size_t size = n > CO_CHUNK ? n : CO_CHUNK;
        char *c = malloc(CO_ALIGN + size);
        if (!c) {
            tt_sim_record_failure(w->L, TT_SIM_ERR_CONFIG, NULL, 0, &b->block_idx,
                                  tt_sim_cur ? &tt_sim_cur->tid : NULL,
                                  "out of memory for coroutine frames");
            tt_sim_escape(w);
        }
        *(char **)c = NULL;
        ((size_t *)c)[1] = size;
        *link = c;
    }
    char *c = *link;
    w->co_cur = c;
    b->co_next = chunk_data(c) + n;
    b->co_end = chunk_data(c) + chunk_size(c);
    return chunk_data(c);
}

void tt_sim_co_fini(tt_sim_worker *w)
{
    for (char *c = w->co_chunks, *next; c; c = next) {
        next = *(char **)c;
        free(c);
    }
    w->co_chunks = w->co_cur = NULL;
}

/* ---------------------------------------------------------------- awaiting */

uint64_t tt_sim_co_value(void)
{
    return resume_value(tt_sim_self_worker, tt_sim_cur);
}

/* ---------------------------------------------------------------- blocks */

/* Offers the block to the region form of the kernel: starts the thread at
 * position 0, whose kernel (when tt_xf_prepare_source gave it a region
 * form) runs the whole block and returns with blk.rg = 2.  Returns 1 then;
 * otherwise the thread ran as a coroutine (and no later block is offered):
 * returns 0 with that thread started, finished or suspended. */
static int run_region(tt_sim_worker *w, const tt_sim_kernel *k)
{
    tt_sim_thread *t = &w->threads[w->order[0]];
    w->blk.rg = 1;
    w->next_unstarted = 1;
    make_running(w, 0, t);
    k->invoke(w->args);
    int taken = w->blk.rg == 2;
    w->blk.rg = 0;
    if (taken) {
        w->rg_blocks++;
        w->live = 0;
        w->next_unstarted = w->blk.nthreads;
        return 1;
    }
    w->rg_try = 0;
    if (t->state == TT_T_RUNNING) /* it returned: finished */
        thread_exit(w, t);
    return 0;
}

/* Runs the block set up in w until every thread has finished. */
static void run_block(tt_sim_worker *w, const tt_sim_kernel *k, void (*resume)(void *))
{
    uint32_t n = w->blk.nthreads, cur = n - 1; /* pick_next(cur) starts at position 0 */
    if (w->rg_try) {
        if (run_region(w, k))
            return;
        cur = 0;
    }
    for (;;) {
        uint32_t q;
        tt_sim_thread *t;
        if (w->round) {
            /* round mode (tt_sim_barrier.c): the position after the one that
             * arrived is released; after the last one, the first */
            q = cur + 1 < n ? cur + 1 : 0;
            t = &w->threads[w->order[q]];
            make_running(w, q, t);
            resume(t->co_frame);
        } else {
            q = cur + 1;
            if (!is_ready(w, q)) /* (is_ready(n) is false) */
                q = pick_next(w, cur);
            if (UNLIKELY(q == UINT32_MAX)) {
                if (w->live)
                    tt_sim_internal_deadlock(w);
                return;
            }
            if (q >= w->next_unstarted) {
                w->next_unstarted = q + 1;
                t = &w->threads[w->order[q]];
                make_running(w, q, t);
                k->invoke(w->args);
            } else {
                t = take_ready(w, q);
                make_running(w, q, t);
                resume(t->co_frame);
            }
        }
        if (t->state == TT_T_RUNNING) /* it returned: finished */
            thread_exit(w, t);
        cur = q;
    }
}

void tt_sim_co_runner(void *arg)
{
    tt_sim_worker *w = arg;
    tt_sim_fiber_on_start();
    tt_sim_stack *mine = w->cur_stack;
    const tt_sim_kernel *k = w->L->k;
    void (*resume)(void *) = w->L->co_resume;
    do {
        run_block(w, k, resume);
        w->blocks_run++;
    } while (tt_sim_take_block(w));
    stack_put(w, mine);
    tt_sim_cur = NULL;
    w->cur_stack = &w->os_stack;
    tt_sim_fiber_switch(mine, &w->os_stack, 1);
    abort(); /* a dead fiber is never resumed */
}
