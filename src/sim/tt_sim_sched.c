/* tt_sim_sched.c — the scheduler core: runs the threads of a block as
 * fibers (scheduling, thread starts and exits, blocks, round mode's
 * bookkeeping) and the failure paths every layer uses (deadlock,
 * needs-fibers, region bail).  __syncthreads is in tt_sim_barrier.c, warp
 * collectives in tt_sim_collective.c, coroutine blocks in tt_sim_co.c, the
 * workers in tt_sim_worker.c: they all call this core, which calls none of
 * them (a thread's exit completes a barrier or collective through the
 * worker's tt_sim_sync_ops); what they share is in tt_sim_sched.h.
 *
 * Execution model (invariants):
 *  - A block runs wholly on one OS thread (its worker); nothing in here needs
 *    atomics.
 *  - Threads start in schedule order as plain calls on a "runner" fiber.  A
 *    thread that finishes without blocking hands its stack straight to the
 *    next thread, so barrier-free kernels make no context switch per thread.
 *    While no started thread is alive, the runner hands a whole range of
 *    threads to kernel->run (a loop the compiler can inline the kernel
 *    into); the exits of those threads are booked in bulk, or when one of
 *    them blocks (tt_sim_batch_sync).  A thread that blocks keeps its stack;
 *    the next thread then starts on a fresh runner fiber from the pool.
 *  - After a thread blocks or exits, the next thread to run is the first one
 *    after it (cyclically, in schedule order) that is released or unstarted.
 *    Released threads are bits in a bitmap indexed by schedule position, so
 *    finding the next one is a few word scans, and releasing a barrier is a
 *    few word stores: every step of a barrier is O(1) per thread.
 *  - A warp collective completes when every live lane of its warp is blocked
 *    (at a collective or a barrier).  Lanes waiting at the same call site and
 *    kind form one group: that group is the set of "active lanes" of the SIMT
 *    instruction.  So collectives wait only for the lanes of their warp.  The
 *    last lane to arrive computes every lane's result in one pass.
 *  - __syncthreads completes when every live thread of the block waits at a
 *    barrier; they must all wait at the same call site.
 *  - Thread states are updated lazily: a released thread's state still names
 *    where it waited until it runs (eff_state() gives the true state), and
 *    unstarted threads are those at positions >= next_unstarted.
 */
#define _GNU_SOURCE 1
#include "tt_sim_sched.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

__thread tt_sim_thread *tt_sim_cur;
__thread tt_sim_dim3 tt_sim_tid;
__thread tt_sim_block *tt_sim_blk;
__thread tt_sim_worker *tt_sim_self_worker;


/* ---------------------------------------------------------------- errors */

__attribute__((noreturn)) void tt_sim_escape(tt_sim_worker *w)
{
    siglongjmp(w->escape, 1);
}

__attribute__((noreturn)) void tt_sim_fail_thread(tt_sim_worker *w, const tt_sim_thread *t, tt_sim_status st,
                        const tt_sim_site *site, const char *msg)
{
    tt_sim_record_failure(w->L, st, site ? site->file : NULL, site ? site->line : 0,
                          &w->blk.block_idx, t ? &t->tid : NULL, msg);
    tt_sim_escape(w);
}

void tt_sim_fail(tt_sim_status status, const char *file, int line, const char *fmt, ...)
{
    tt_sim_worker *w = tt_sim_self_worker;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!w || !w->in_kernel) {
        fprintf(stderr, "tt_sim: %s:%d: %s (outside a kernel)\n", file ? file : "?", line, msg);
        abort();
    }
    if (w->batch && tt_sim_cur)
        tt_sim_batch_sync(w, tt_sim_cur);
    tt_sim_record_failure(w->L, status, file, line, &w->blk.block_idx,
                          tt_sim_cur ? &tt_sim_cur->tid : NULL, msg);
    tt_sim_escape(w);
}

void tt_sim_note_site(const tt_sim_site *site)
{
    if (tt_sim_cur)
        tt_sim_cur->wait_site = site;
}

const char *tt_sim_thread_str(const tt_sim_thread *t, char *buf, size_t n)
{
    snprintf(buf, n, "thread (%u,%u,%u)", t->tid.x, t->tid.y, t->tid.z);
    return buf;
}

/* Appends "  file:line: thread (x,y,z) waits at WHAT" for every waiting thread
 * (runs of consecutive threads at one site are merged). */
void tt_sim_append_waiters(tt_sim_worker *w, char *msg, size_t cap)
{
    size_t len = strlen(msg);
    uint32_t n = w->blk.nthreads;
    for (uint32_t i = 0; i < n && len + 160 < cap;) {
        tt_sim_thread *t = &w->threads[i];
        int st = eff_state(w, t);
        if (!is_waiting(st)) {
            i++;
            continue;
        }
        uint32_t j = i + 1;
        while (j < n && eff_state(w, &w->threads[j]) == st &&
               site_eq(w->threads[j].wait_site, t->wait_site))
            j++;
        const tt_sim_site *s = t->wait_site;
        len += (size_t)snprintf(msg + len, cap - len,
                                "\n  %s:%d: threads %u..%u (linear) wait at %s",
                                s ? s->file : "?", s ? s->line : 0, i, j - 1,
                                s ? s->what : "?");
        i = j;
    }
    uint32_t exited = 0;
    for (uint32_t i = 0; i < n; i++)
        exited += eff_state(w, &w->threads[i]) == TT_T_DONE;
    if (exited && len + 80 < cap)
        snprintf(msg + len, cap - len, "\n  %u thread(s) of the block have exited", exited);
}

/* ---------------------------------------------------------------- stacks */

static __attribute__((noinline)) tt_sim_stack *stack_get_slow(tt_sim_worker *w)
{
    tt_sim_stack *s = tt_sim_stack_pool_get(w->L->cfg->stack_size);
    if (!s) {
        tt_sim_record_failure(w->L, TT_SIM_ERR_CONFIG, NULL, 0, &w->blk.block_idx, NULL,
                              "cannot map a fiber stack (out of memory?)");
        tt_sim_escape(w);
    }
    if (w->nstacks == w->cap_stacks) {
        size_t cap = w->cap_stacks ? 2 * w->cap_stacks : 64;
        tt_sim_stack **a = realloc(w->all_stacks, cap * sizeof *a);
        if (!a) {
            tt_sim_stack_pool_put(&s, 1, w->L->cfg->stack_size);
            tt_sim_record_failure(w->L, TT_SIM_ERR_CONFIG, NULL, 0, &w->blk.block_idx, NULL,
                                  "out of memory");
            tt_sim_escape(w);
        }
        w->all_stacks = a;
        w->cap_stacks = cap;
    }
    w->all_stacks[w->nstacks++] = s;
    return s;
}

static inline tt_sim_stack *stack_get(tt_sim_worker *w)
{
    tt_sim_stack *s = w->free_stacks;
    if (LIKELY(s != NULL)) {
        w->free_stacks = s->next_free;
        return s;
    }
    return stack_get_slow(w);
}

/* After an escape every fiber of the block is abandoned: all stacks are free. */
void tt_sim_stacks_reset(tt_sim_worker *w)
{
    w->free_stacks = NULL;
    for (size_t i = 0; i < w->nstacks; i++)
        stack_put(w, w->all_stacks[i]);
}

/* ------------------------------------------------------------- scheduling */

static void runner_entry(void *arg);

__attribute__((noinline, cold, noreturn)) void tt_sim_internal_deadlock(tt_sim_worker *w)
{
    char msg[3500];
    snprintf(msg, sizeof msg, "deadlock: no thread of block (%u,%u,%u) can run",
             w->blk.block_idx.x, w->blk.block_idx.y, w->blk.block_idx.z);
    tt_sim_append_waiters(w, msg, sizeof msg);
    tt_sim_thread *t = NULL;
    for (uint32_t i = 0; i < w->blk.nthreads && !t; i++)
        if (is_waiting(eff_state(w, &w->threads[i])))
            t = &w->threads[i];
    tt_sim_fail_thread(w, t, TT_SIM_ERR_DEADLOCK, t ? t->wait_site : NULL, msg);
}

__attribute__((noinline, cold, noreturn)) void tt_sim_co_needs_fibers(tt_sim_worker *w,
                                                                      const tt_sim_site *site)
{
    char msg[1024];
    snprintf(msg, sizeof msg,
             "kernel %s runs as coroutines, but this %s is in a function the kernel calls, not "
             "in its own body, so it cannot be awaited; run the launch again with "
             "cfg.coroutines = 0 (`tiletrans check` does so by itself)",
             w->L->k->name ? w->L->k->name : "?", site ? site->what : "barrier or collective");
    tt_sim_fail_thread(w, tt_sim_cur, TT_SIM_ERR_NEEDS_FIBERS, site, msg);
}

__attribute__((noinline, cold, noreturn)) void tt_sim_rg_bail(const tt_sim_site *site,
                                                              const char *why)
{
    tt_sim_worker *w = tt_sim_self_worker;
    char msg[1024], where[512] = "";
    if (site)
        snprintf(where, sizeof where, " (%s at %s:%d)", site->what, site->file, site->line);
    snprintf(msg, sizeof msg,
             "kernel %s runs as a region kernel (loops over its threads between barriers and "
             "chains), but %s%s; run the launch again with cfg.regions = 0 (`tiletrans check` "
             "does so by itself)",
             w->L->k->name ? w->L->k->name : "?", why, where);
    tt_sim_fail_thread(w, tt_sim_cur, TT_SIM_ERR_NEEDS_COROUTINES, site, msg);
}

/* ---------------------------------------------------------------- rounds
 * Round mode: a plain __syncthreads that every thread reached in schedule
 * order (the last arrival at position n-1) was just released, so threads
 * resume in schedule order.  While each thread then arrives at one plain
 * barrier (the site the thread at position 0 arrives at), the one at
 * position p hands over to the one at p+1 (released from the previous
 * barrier) and position n-1 completes the barrier, handing over to 0: the
 * runtime keeps no per-thread state.  Invariant: every thread is live and
 * started, none waits at a collective; positions before the running one
 * wait at round_site, positions after it are released.  Anything else
 * (another site or kind, a collective, an exit) first calls
 * tt_sim_round_leave(), which rebuilds the bookkeeping from that invariant. */
void tt_sim_round_leave(tt_sim_worker *w, uint32_t cur)
{
    uint32_t n = w->blk.nthreads;
    w->round = 0;
    memset(w->ready, 0, sizeof w->ready);
    for (uint32_t i = 0; i < w->nwarps; i++)
        w->warps[i].blocked = 0;
    for (uint32_t q = 0; q < n; q++) {
        tt_sim_thread *t = &w->threads[w->order[q]];
        if (q == cur) {
            t->state = TT_T_RUNNING;
            continue;
        }
        set_wait(t, TT_T_BARRIER, BAR_KIND_BASE + TT_SIM_BAR_PLAIN, 0, 0);
        if (q < cur) {
            t->wait_site = w->round_site;
            w->warps[t->warp_id].blocked++;
        } else {
            set_ready(w, q); /* released: the state names where it waited */
        }
    }
    w->nready = n - 1 - cur;
    w->bar_waiting = cur;
    w->bar_site = w->round_site;
    w->bar_kind = TT_SIM_BAR_PLAIN;
    w->bar_mixed = 0;
    w->bar_acc_count = 0;
    w->bar_acc_and = 1;
    w->bar_acc_or = 0;
    w->bar_result = 0;
}

tt_sim_stack *tt_sim_spawn_runner(tt_sim_worker *w)
{
    tt_sim_stack *s = stack_get(w);
    tt_sim_fiber_make(s, runner_entry, w);
    w->cur_stack = s;
    return s;
}

tt_sim_stack *tt_sim_spawn_fiber(tt_sim_worker *w, void (*entry)(void *))
{
    tt_sim_stack *s = stack_get(w);
    tt_sim_fiber_make(s, entry ? entry : runner_entry, w);
    w->cur_stack = s;
    return s;
}

/* The running thread `self` has blocked (or its collective just completed).
 * Runs other threads until `self` is released, then returns in self.  The
 * general form, for every build; see block_fast for the usual one. */
void tt_sim_block_and_schedule(tt_sim_worker *w, tt_sim_thread *self)
{
    uint32_t q = pick_next(w, self->pos);
    if (UNLIKELY(q == UINT32_MAX))
        tt_sim_internal_deadlock(w);
    if (q == self->pos) { /* released already, and nobody comes before us */
        take_ready(w, q);
        self->state = TT_T_RUNNING;
        return;
    }
    tt_sim_stack *mine = self->stack;
    if (q >= w->next_unstarted) {
        switch_to(mine, tt_sim_spawn_runner(w), 0, 0);
    } else {
        tt_sim_thread *next = take_ready(w, q);
        uint64_t v = resume_value(w, next);
        switch_to(mine, prepare_resume(w, next), 0, v);
    }
    /* resumed: whoever switched to us made us the running thread
     * (prepare_resume_at, or round mode's barrier through it) */
}


/* t, just started or leaving batch mode, runs on stack s: the only place a
 * thread gets its stack, kept in step with the per-position array. */
static void run_on(tt_sim_worker *w, tt_sim_thread *t, tt_sim_stack *s)
{
    t->state = TT_T_RUNNING;
    t->stack = s;
    w->pos_stack[t->pos] = s;
    w->cur_pos = t->pos;
}

void tt_sim_batch_sync(tt_sim_worker *w, tt_sim_thread *t)
{
    uint32_t p0 = w->batch_start, p = t->pos;
    for (uint32_t q = p0; q < p; q++) {
        tt_sim_thread *u = &w->threads[w->order[q]];
        u->state = TT_T_DONE;
        w->warps[u->warp_id].live--;
    }
    w->live -= p - p0;
    run_on(w, t, w->cur_stack);
    w->next_unstarted = p + 1;
    w->batch = 0;
    w->batch_end = p + 1; /* kernel->run stops once t returns */
}

/* Body of every runner fiber: starts unstarted threads as plain calls, one
 * after the other, on this fiber's stack; when the block is done, goes on
 * with the worker's next block on the same fiber (no switch per block).
 * Never returns. */
static void runner_entry(void *arg)
{
    tt_sim_worker *w = arg;
    tt_sim_fiber_on_start();
    tt_sim_stack *mine = w->cur_stack;
    const tt_sim_kernel *k = w->L->k;
    uint32_t n = w->blk.nthreads;
    do {
        for (;;) {
            uint32_t pos = w->next_unstarted;
            tt_sim_thread *t;
            if (w->run && w->live + pos == n) {
                /* no started thread is alive: run the rest as one batch */
                w->batch = 1;
                w->batch_start = pos;
                /* forward schedule: order[] is the identity (tt_sim_worker_init) */
                const uint32_t *ord = w->L->sched == TT_SIM_SCHED_FORWARD ? NULL : w->order;
                w->batch_end = n;
                uint32_t r = w->run(w->args, w->threads, ord, pos, &w->batch_end);
                if (w->batch) { /* all of them ran to completion: the block is done */
                    w->batch = 0;
                    w->next_unstarted = n;
                    w->live = 0;
                    break;
                }
                /* the thread at r - 1 blocked (tt_sim_batch_sync booked the
                 * ones before it), was resumed here later and has now returned */
                t = &w->threads[w->order[r - 1]];
            } else {
                w->next_unstarted = pos + 1;
                t = &w->threads[w->order[pos]];
                run_on(w, t, mine);
                tt_sim_cur = t;
                tt_sim_tid = t->tid;
                k->invoke(w->args);
            }
            /* t returned, possibly after having blocked and been resumed here */
            thread_exit(w, t);
            uint32_t q = pick_next(w, t->pos);
            if (q != UINT32_MAX && q >= w->next_unstarted)
                continue;
            if (q == UINT32_MAX) {
                if (w->live)
                    tt_sim_internal_deadlock(w);
                break;
            }
            /* this fiber dies: its stack is free as soon as we are off it (no
             * stack is taken before the switch) */
            stack_put(w, mine);
            tt_sim_thread *next = take_ready(w, q);
            uint64_t v = resume_value(w, next);
            switch_to(mine, prepare_resume(w, next), 1, v);
            abort(); /* a dead fiber is never resumed */
        }
        w->blocks_run++;
    } while (tt_sim_take_block(w));
    stack_put(w, mine);
    tt_sim_cur = NULL;
    w->cur_stack = &w->os_stack;
    switch_to(mine, &w->os_stack, 1, 0);
    abort();
}

/* ---------------------------------------------------------------- blocks */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* blockIdx of linear block b.  `follows`: b is the block after the
 * worker's previous one (the next of its chunk), so a carry does instead of
 * three 64-bit divisions, which the block's first thread waits for (a 1M
 * vector add in 64-thread blocks: 1-2%; in 256-thread blocks: within noise). */
static void set_block_idx(tt_sim_worker *w, uint64_t b, int follows)
{
    const tt_sim_config *cfg = w->L->cfg;
    tt_sim_dim3 *ix = &w->blk.block_idx;
    if (follows) {
        if (++ix->x < cfg->grid.x)
            return;
        ix->x = 0;
        if (++ix->y < cfg->grid.y)
            return;
        ix->y = 0;
        ix->z++;
        return;
    }
    ix->x = (uint32_t)(b % cfg->grid.x);
    ix->y = (uint32_t)((b / cfg->grid.x) % cfg->grid.y);
    ix->z = (uint32_t)(b / ((uint64_t)cfg->grid.x * cfg->grid.y));
}

static void setup_block(tt_sim_worker *w, uint64_t b)
{
    const tt_sim_config *cfg = w->L->cfg;
    tt_sim_block *blk = &w->blk;
    uint32_t n = blk->nthreads;
    for (uint32_t i = 0; i < w->nwarps; i++) {
        tt_sim_warp *wp = &w->warps[i];
        wp->live = wp->nlanes;
        wp->blocked = 0;
        wp->ncoll = 0;
        wp->coll_site = NULL;
        wp->coll_mixed = 0;
    }
    if (w->L->sched == TT_SIM_SCHED_RANDOM) {
        /* seeded per block so the order does not depend on the worker */
        uint64_t s = cfg->seed * 0x9e3779b97f4a7c15ull + b + 1;
        for (uint32_t i = 0; i < n; i++)
            w->order[i] = i;
        for (uint32_t i = n - 1; i > 0; i--) {
            uint32_t j = (uint32_t)(splitmix64(&s) % (i + 1));
            uint32_t tmp = w->order[i];
            w->order[i] = w->order[j];
            w->order[j] = tmp;
        }
        for (uint32_t i = 0; i < n; i++)
            w->threads[w->order[i]].pos = i;
    }
    /* thread states need no reset: positions >= next_unstarted are unstarted */
    /* the words in use and the zero one after them (is_ready(n)); a loop:
     * a memset of the whole array compiles to rep stos, which costs more
     * than a small block's whole run */
    for (uint32_t i = 0; i <= n >> 6; i++)
        w->ready[i] = 0;
    w->live = n;
    w->nready = 0;
    w->next_unstarted = 0;
    w->batch = 0;
    w->round = 0;
    w->bar_waiting = 0;
    w->bar_mixed = 0;
    tt_sim_race_block(w);
    w->blk.co_next = w->blk.co_end = NULL; /* the block's frames: tt_sim_co_alloc_slow */
}

/* Sets up the worker's next block: the next of its chunk of consecutive
 * blocks, or of a new chunk (guided: a fraction of what is left), so that
 * the workers rarely touch the shared counter and each streams through its
 * own part of the buffers.  Returns 0 when none is left or the launch
 * aborted. */
int tt_sim_take_block(tt_sim_worker *w)
{
    tt_sim_run *L = w->L;
    if (atomic_load_explicit(&L->abort, memory_order_relaxed))
        return 0;
    int follows = w->blk_next != w->blk_end;
    if (!follows) {
        uint64_t nb = L->nblocks, div = 4 * (uint64_t)L->nworkers;
        uint64_t taken = atomic_load_explicit(&L->next_block, memory_order_relaxed);
        uint64_t chunk = taken < nb ? (nb - taken) / div : 1;
        if (chunk < 1)
            chunk = 1;
        else if (chunk > 256)
            chunk = 256;
        uint64_t b = atomic_fetch_add(&L->next_block, chunk);
        if (b >= nb)
            return 0;
        w->blk_next = b;
        w->blk_end = b + chunk < nb ? b + chunk : nb;
    }
    set_block_idx(w, w->blk_next, follows);
    setup_block(w, w->blk_next++);
    return 1;
}

/* ------------------------------------------------------------ site interning
 * Call sites known only at run time (cooperative-groups methods get
 * __builtin_FILE/__builtin_LINE from default arguments) are interned so that
 * every GPU thread can keep a pointer to them.  A small per-OS-thread cache
 * avoids the lock on the hot path.  Interned sites live until exit. */
typedef struct site_node {
    tt_sim_site s;
    struct site_node *next;
} site_node;
static pthread_mutex_t site_mu = PTHREAD_MUTEX_INITIALIZER;
static site_node *site_list;
static __thread const tt_sim_site *site_cache[256];

const tt_sim_site *tt_sim_site_intern(const char *file, int line, const char *what)
{
    unsigned h = ((unsigned)line * 2654435761u ^ (unsigned)((uintptr_t)file >> 4) ^
                  (unsigned)((uintptr_t)what >> 3)) & 255u;
    const tt_sim_site *c = site_cache[h];
    if (c && c->line == line && c->file == file && c->what == what)
        return c;
    pthread_mutex_lock(&site_mu);
    site_node *n = site_list;
    while (n && !(n->s.line == line && n->s.file == file && n->s.what == what))
        n = n->next;
    if (!n) {
        n = malloc(sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&site_mu);
            static const tt_sim_site unknown = {"?", 0, "?"};
            return &unknown;
        }
        n->s.file = file;
        n->s.line = line;
        n->s.what = what;
        n->next = site_list;
        site_list = n;
    }
    pthread_mutex_unlock(&site_mu);
    site_cache[h] = &n->s;
    return &n->s;
}
