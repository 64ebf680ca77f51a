/* tt_sim_worker.c — a launch's workers: their memory (cached from launch to
 * launch by worker index), setup and teardown, and the loop that runs their
 * blocks.  The top of the scheduler's layers: it picks the block loop
 * (fibers, tt_sim_sched.c, or coroutines, tt_sim_co.c) and gives the core the
 * barrier and collective completions it calls when a thread exits
 * (tt_sim_sync_ops). */
#define _GNU_SOURCE 1
#include "tt_sim_sched.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const tt_sim_sync_ops sync_ops = {tt_sim_release_barrier, tt_sim_resolve_warp};

/* ------------------------------------------------------------ worker memory
 * A worker's memory outlives its launch: a process-wide cache keeps one
 * entry per worker index, as the pool keeps the OS threads that run the
 * workers (tt_sim_launch.c) and the fiber stacks (tt_sim_fiber.c).
 * Allocated and freed per launch, the per-thread arrays (~0.7 MB a worker)
 * went back to the system every time (malloc trims the heap's top) and were
 * faulted in again by the next launch, and taking back pages that another
 * CPU touched interrupts that CPU to flush its TLB: 30-60 us a 2-thread
 * launch on the 2-core VM, a tenth of a 1M-thread vector add.  A launch
 * takes the entry of its worker index and gives it back at the end.  Arrays
 * holding fewer threads than the launch's blocks, and mappings of another
 * size, are made anew.  Given back, the shared arena's and the race shadow's
 * pages are discarded (MADV_DONTNEED: one call instead of mapping,
 * protecting and unmapping), so that every launch starts on zero pages as in
 * a new mapping: a kernel may read shared memory before writing it, and the
 * shadow's entries of old epochs must not count. */
#define MEM_CACHED 1025 /* worker 0 runs on the caller's thread, 1.. on pool threads */
static pthread_mutex_t mem_mu = PTHREAD_MUTEX_INITIALIZER;
static tt_sim_worker_mem mem_cache[MEM_CACHED];

static void arrays_free(tt_sim_worker_mem *m)
{
    free(m->threads);
    free(m->order);
    free(m->pos_stack);
    free(m->cval);
    free(m->cres);
    free(m->csrc);
    free(m->chain_src);
    free(m->chain_mask);
    free(m->chain_wait);
    m->cap = 0;
    m->threads = NULL;
    m->order = NULL;
    m->pos_stack = NULL;
    m->cval = m->cres = NULL;
    m->csrc = NULL;
    m->chain_src = NULL;
    m->chain_mask = NULL;
    m->chain_wait = NULL;
}

/* (a probe writes a step's chain slots before anything reads them: they are
 * never zeroed, which for these sizes would cost more than a small launch) */
static int arrays_alloc(tt_sim_worker_mem *m, uint32_t n)
{
    m->cap = n;
    m->threads = aligned_alloc(64, (size_t)n * sizeof *m->threads);
    m->order = malloc((n + PREFETCH_AHEAD) * sizeof *m->order);
    m->pos_stack = malloc((n + 1) * sizeof *m->pos_stack);
    m->cval = malloc(n * sizeof *m->cval);
    m->cres = malloc(n * sizeof *m->cres);
    m->csrc = malloc(n * sizeof *m->csrc);
    m->chain_src = malloc((size_t)n * TT_SIM_CHAIN_SLOTS * sizeof *m->chain_src);
    m->chain_mask = malloc((size_t)n * TT_SIM_CHAIN_SLOTS * sizeof *m->chain_mask);
    m->chain_wait = malloc(n * sizeof *m->chain_wait);
    if (m->threads && m->order && m->pos_stack && m->cval && m->cres && m->csrc && m->chain_src &&
        m->chain_mask && m->chain_wait)
        return 0;
    arrays_free(m);
    return -1;
}

/* Arrays for n threads, zeroed where a launch reads before it writes, as
 * if new: records, the zeros after order[n) that prefetch_ahead reads,
 * stacks by position ([n] stays NULL), collective operands, chain waits. */
static int arrays_ready(tt_sim_worker_mem *m, uint32_t n)
{
    if (m->cap < n) {
        arrays_free(m);
        if (arrays_alloc(m, n) != 0)
            return -1;
    }
    memset(m->threads, 0, n * sizeof *m->threads);
    memset(m->order, 0, (n + PREFETCH_AHEAD) * sizeof *m->order);
    memset(m->pos_stack, 0, (n + 1) * sizeof *m->pos_stack);
    memset(m->cval, 0, n * sizeof *m->cval);
    memset(m->cres, 0, n * sizeof *m->cres);
    memset(m->csrc, 0, n * sizeof *m->csrc);
    memset(m->chain_wait, 0, n * sizeof *m->chain_wait);
    return 0;
}

/* A private anonymous mapping of `bytes` (zero pages) in *map, unless the
 * one there has that size already (its pages were discarded).  Returns 1
 * (new), 0 (reused) or -1 (out of memory). */
static int map_ready(void **map, size_t *size, size_t bytes)
{
    if (*map && *size == bytes)
        return 0;
    if (*map)
        munmap(*map, *size);
    *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
    *size = bytes;
    if (*map != MAP_FAILED)
        return 1;
    *map = NULL;
    return -1;
}

/* Discards the pages of [p, p + bytes): they read as zeros again.  Returns
 * 0 when that worked (else the mapping must not be reused). */
static int map_discard(void *p, size_t bytes)
{
    return p ? madvise(p, bytes, MADV_DONTNEED) : 0;
}

static void mem_free(tt_sim_worker_mem *m)
{
    arrays_free(m);
    if (m->arena_map)
        munmap(m->arena_map, m->arena_map_size);
    if (m->shadow)
        munmap(m->shadow, m->shadow_bytes);
    memset(m, 0, sizeof *m);
}

/* Worker `index`'s cached memory (or none) */
static void mem_take(tt_sim_worker_mem *m, int index)
{
    memset(m, 0, sizeof *m);
    if (index >= MEM_CACHED)
        return;
    pthread_mutex_lock(&mem_mu);
    *m = mem_cache[index];
    memset(&mem_cache[index], 0, sizeof *m);
    pthread_mutex_unlock(&mem_mu);
}

/* Gives worker `index`'s memory back (freed if the cache has an entry for
 * the index already: launches from two threads at once). */
static void mem_put(tt_sim_worker_mem *m, int index)
{
    if (index < MEM_CACHED) {
        pthread_mutex_lock(&mem_mu);
        tt_sim_worker_mem *c = &mem_cache[index];
        if (!c->cap && !c->arena_map && !c->shadow) {
            *c = *m;
            memset(m, 0, sizeof *m);
        }
        pthread_mutex_unlock(&mem_mu);
    }
    mem_free(m);
}

/* The shared arena, [static | dynamic | guard page]: the dynamic part ends
 * at the guard page so `extern __shared__` overflows fault; and the race
 * shadow of its words (only the words a kernel's arrays cover are ever
 * touched: a calloc would clear all of it, every launch). */
static int worker_maps(tt_sim_worker *w)
{
    const tt_sim_config *cfg = w->L->cfg;
    tt_sim_worker_mem *m = &w->mem;
    tt_sim_block *blk = &w->blk;
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    size_t dyn = (cfg->shared_bytes + 15) & ~(size_t)15;
    size_t used = TT_SIM_STATIC_SHARED_MAX + dyn;
    size_t body = (used + ps - 1) & ~(ps - 1);
    int fresh = map_ready((void **)&m->arena_map, &m->arena_map_size, body + ps);
    if (fresh < 0)
        return -1;
    w->arena_guard = m->arena_map + body;
    if (fresh)
        mprotect(w->arena_guard, ps, PROT_NONE);
    blk->dyn_shared = w->arena_guard - dyn;
    blk->dyn_shared_bytes = cfg->shared_bytes;
    blk->shared = blk->dyn_shared - TT_SIM_STATIC_SHARED_MAX;
    w->arena_bytes = TT_SIM_STATIC_SHARED_MAX + dyn;
    if (cfg->race_check) {
        size_t words = w->arena_bytes / 4;
        size_t bytes = words * (sizeof *m->shadow + 2 * sizeof(void *));
        if (map_ready((void **)&m->shadow, &m->shadow_bytes, bytes) < 0)
            return -1;
        w->shadow = m->shadow;
        blk->race_shadow = m->shadow;
        blk->race_ip = (uintptr_t *)(m->shadow + words);
    } else {
        /* the shims' reads find the pass table's SAT (base 0: no interval
         * starts) and look no further; race_ip NULL tells their writes */
        const tt_sim_rword *pass = tt_sim_race_pass_table();
        if (!pass)
            return -1;
        blk->race_shadow = (tt_sim_rword *)pass;
        blk->race_ip = NULL;
        blk->race_base = 0;
    }
    return 0;
}

int tt_sim_worker_init(tt_sim_worker *w, tt_sim_run *L, int index)
{
    const tt_sim_config *cfg = L->cfg;
    const tt_sim_kernel *k = L->k;
    memset(w, 0, sizeof *w);
    w->L = L;
    w->sync = &sync_ops;
    w->index = index;
    w->run = L->run;
    uint32_t n = cfg->block.x * cfg->block.y * cfg->block.z;
    tt_sim_worker_mem *m = &w->mem;
    mem_take(m, index);
    if (arrays_ready(m, n) != 0 || worker_maps(w) != 0)
        return -1;
    w->threads = m->threads;
    w->order = m->order;
    w->pos_stack = m->pos_stack;
    w->cval = m->cval;
    w->cres = m->cres;
    w->csrc = m->csrc;
    w->blk.chain_src = m->chain_src;
    w->blk.chain_mask = m->chain_mask;
    w->blk.chain_wait = m->chain_wait;
    size_t al = k->args_align < 64 ? 64 : k->args_align;
    size_t asz = (k->args_size + al - 1) / al * al;
    w->args = aligned_alloc(al, asz ? asz : al);
    if (!w->args)
        return -1;
    if (k->args_copy)
        k->args_copy(w->args, k->args);
    else
        memcpy(w->args, k->args, k->args_size);

    tt_sim_block *blk = &w->blk;
    blk->block_dim = cfg->block;
    blk->grid_dim = cfg->grid;
    blk->warp = (uint32_t)cfg->warp;
    blk->nthreads = n;
    blk->worker = w;
    blk->race_check = cfg->race_check;
    blk->co = L->co_resume != NULL;
    blk->co_res = w->cres;
    blk->rg_threads = w->threads;
    blk->rg_order = L->sched == TT_SIM_SCHED_FORWARD ? NULL : w->order;
    blk->rg_vals = w->cval;
    w->rg_try = blk->co && cfg->regions;
    uint32_t W = blk->warp;
    w->nwarps = (n + W - 1) / W;
    uint32_t bx = cfg->block.x, by = cfg->block.y;
    uint32_t x = 0, y = 0, z = 0;
    for (uint32_t i = 0; i < n; i++) {
        tt_sim_thread *t = &w->threads[i];
        t->tid.x = x;
        t->tid.y = y;
        t->tid.z = z;
        t->blk = blk;
        t->linear = i;
        t->lane = i % W;
        t->warp_id = i / W;
        t->state = TT_T_UNSTARTED;
        if (++x == bx) {
            x = 0;
            if (++y == by) {
                y = 0;
                z++;
            }
        }
    }
    /* schedule positions (random ones are redrawn per block) */
    int rev = L->sched == TT_SIM_SCHED_REVERSE, rnd = L->sched == TT_SIM_SCHED_RANDOM;
    for (uint32_t i = 0; i < n; i++)
        w->order[i] = rev ? n - 1 - i : i;
    for (uint32_t i = 0; i < n; i++)
        w->threads[w->order[i]].pos = i;
    for (uint32_t i = 0; i < w->nwarps; i++) {
        tt_sim_warp *wp = &w->warps[i];
        wp->first = i * W;
        wp->nlanes = n - i * W < W ? n - i * W : W;
        wp->pos_first = rnd ? UINT32_MAX : rev ? n - wp->first - wp->nlanes : wp->first;
    }
    return 0;
}

void tt_sim_worker_fini(tt_sim_worker *w)
{
    if (!w->L)
        return; /* never initialised (an earlier worker's init failed) */
    if (w->args && w->L->k->args_destroy)
        w->L->k->args_destroy(w->args);
    free(w->args);
    tt_sim_co_fini(w);
    tt_sim_stack_pool_put(w->all_stacks, w->nstacks, w->L->cfg->stack_size);
    free(w->all_stacks);
    tt_sim_worker_mem *m = &w->mem;
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    if (map_discard(m->arena_map, m->arena_map_size - ps) != 0 ||
        map_discard(w->shadow, m->shadow_bytes) != 0)
        mem_free(m);
    mem_put(m, w->index);
}

void tt_sim_worker_run(tt_sim_worker *w)
{
    tt_sim_run *L = w->L;
    tt_sim_stack_init_os(&w->os_stack);
    tt_sim_self_worker = w;
    tt_sim_blk = &w->blk;
    tt_sim_chain_probe_rec = NULL;
    if (sigsetjmp(w->escape, 1)) {
        /* an error escaped from a fiber or a signal handler */
        w->in_kernel = 0;
        w->batch = 0;
        tt_sim_cur = NULL;
        tt_sim_chain_probe_rec = NULL; /* a lane may have failed while probing */
        tt_sim_stacks_reset(w);
        atomic_store(&L->abort, 1);
        tt_sim_self_worker = NULL;
        return;
    }
    /* the blocks run on runner fibers, one after the other (tt_sim_take_block);
     * the OS stack is back here when none is left */
    w->in_kernel = 1;
    if (tt_sim_take_block(w)) {
        tt_sim_stack *s = tt_sim_spawn_fiber(w, w->blk.co ? tt_sim_co_runner : NULL);
        tt_sim_fiber_switch(&w->os_stack, s, 0);
    }
    w->in_kernel = 0;
    tt_sim_self_worker = NULL;
}

