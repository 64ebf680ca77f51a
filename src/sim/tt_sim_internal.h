/* tt_sim_internal.h — runtime-private structures of the SIMT executor.
 *
 * Ownership and lifetime:
 *   tt_sim_launch   one per tt_sim_launch() call and schedule, on the caller's stack.
 *   tt_sim_worker   one per OS thread of a launch, owned by the launch; holds the
 *                   block being run (one block at a time), its threads, warps,
 *                   shared arena, race shadow and fiber stack pool.
 * Per-OS-thread globals (unavoidable: signal handlers and kernel code must find
 * their state without arguments): tt_sim_cur (tt_sim_device.h) and
 * tt_sim_self_worker below.
 */
#ifndef TT_SIM_INTERNAL_H
#define TT_SIM_INTERNAL_H

#include "tt_sim_device.h"
#include "tt_sim_fiber.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>

#define TT_SIM_MAX_THREADS 1024
#define TT_SIM_MAX_WARPS (TT_SIM_MAX_THREADS / 32)
/* Static __shared__ capacity of the arena: AMD LDS and CUDA opt-in both
 * allow 64 KiB per block; CUDA's 48 KiB static limit is checked by nvcc. */
#define TT_SIM_STATIC_SHARED_MAX (64 * 1024)

/* Thread states. */
enum {
    TT_T_UNSTARTED = 0,
    TT_T_RUNNING,
    TT_T_RUNNABLE, /* was blocked, released, waiting to be resumed */
    TT_T_BARRIER,  /* waiting at __syncthreads */
    TT_T_COLL,     /* waiting at a warp collective */
    TT_T_DONE
};

typedef struct tt_sim_warp {
    uint32_t first;        /* linear index of lane 0 */
    uint32_t nlanes;       /* lanes that exist (a partial warp has fewer than warp) */
    uint32_t live;         /* lanes not exited */
    uint32_t blocked;      /* live lanes waiting at a barrier or collective */
    uint32_t ncoll;        /* of those, lanes waiting at a collective */
    int coll_mixed;        /* lanes wait at different collective sites/kinds */
    const tt_sim_site *coll_site;
    int coll_kind;
    uint32_t pos_first;    /* schedule position of lane 0 when the warp's lanes
                              occupy consecutive positions, else UINT32_MAX */
} tt_sim_warp;

struct tt_sim_run;

/* A worker's arrays and mappings, kept from launch to launch in a
 * process-wide cache by worker index (tt_sim_worker.c). */
typedef struct tt_sim_worker_mem {
    uint32_t cap;                  /* threads the arrays hold; 0: none */
    tt_sim_thread *threads;
    uint32_t *order;               /* cap + PREFETCH_AHEAD */
    tt_sim_stack **pos_stack;      /* cap + 1 */
    uint64_t *cval, *cres;
    int32_t *csrc;
    int16_t *chain_src;            /* cap * TT_SIM_CHAIN_SLOTS */
    uint64_t *chain_mask;          /* cap * TT_SIM_CHAIN_SLOTS */
    struct tt_sim_chain_wait *chain_wait;
    char *arena_map;               /* the shared arena, its last page the guard */
    size_t arena_map_size;
    tt_sim_rword *shadow;          /* the race shadow of the arena's words, then
                                      their access addresses (2 per word) */
    size_t shadow_bytes;
} tt_sim_worker_mem;

/* What the scheduler core (tt_sim_sched.c) calls when a thread exits and the
 * others of its warp or block are all waiting: the completions of
 * tt_sim_collective.c and tt_sim_barrier.c, which call the core themselves.
 * Given by tt_sim_worker.c (the layer above both), so that no file calls
 * back into one that calls it. */
struct tt_sim_worker;
struct tt_sim_warp;
typedef struct tt_sim_sync_ops {
    void (*release_barrier)(struct tt_sim_worker *w);
    void (*resolve_warp)(struct tt_sim_worker *w, struct tt_sim_warp *wp);
} tt_sim_sync_ops;

typedef struct tt_sim_worker {
    struct tt_sim_run *L;
    const tt_sim_sync_ops *sync;
    int index;
    pthread_t os_thread;
    void *args;                    /* this worker's copy of the kernel arguments */
    uint32_t (*run)(void *, tt_sim_thread *, const uint32_t *, uint32_t,
                    const uint64_t *); /* kernel->run, or NULL */

    tt_sim_block blk;              /* the block being run */
    tt_sim_thread *threads;        /* [nthreads] (in mem, as the arrays below) */
    uint32_t *order;               /* schedule: order[pos] = linear thread id */
    tt_sim_warp warps[TT_SIM_MAX_WARPS];
    uint32_t nwarps;

    /* scheduler state of the block.  A thread is unstarted iff its
     * position is >= next_unstarted (thread states are not reset between
     * blocks); released threads (barrier or collective completed, not yet
     * resumed) have their position's bit set in `ready`, their state still
     * says where they waited. */
    uint32_t live;                 /* threads not exited */
    uint32_t nready;               /* bits set in ready */
    uint32_t next_unstarted;       /* positions < this have started */
    uint64_t ready[TT_SIM_MAX_THREADS / 64 + 1]; /* + a zero word: is_ready(nthreads)
                                                    is valid (and false) */
    /* batch mode: kernel->run is running threads from position batch_start
     * on as plain calls; their exits are booked only when one blocks
     * (batch_sync) or the batch ends */
    int batch;
    uint32_t batch_start;
    uint64_t batch_end;            /* kernel->run runs positions below this */
    uint32_t bar_waiting;
    const tt_sim_site *bar_site;
    int bar_kind;
    int bar_mixed;
    int bar_acc_count, bar_acc_and, bar_acc_or;
    int bar_result;
    /* round mode (tt_sim_barrier.c, "rounds"): while set, the ready bitmap,
     * nready, bar_waiting, warps' blocked counts and thread states are
     * stale; tt_sim_round_leave() rebuilds them */
    int round;
    const tt_sim_site *round_site;
    /* the running thread's position (not kept up to date in batch mode, where
     * no fast path runs), and the stack of the started thread at each
     * position ([n] is NULL): the fast paths read these worker fields, not
     * the running thread's record, so that the dependent loads before a
     * switch are few */
    uint32_t cur_pos;
    tt_sim_stack **pos_stack;
    /* collective operands and results, indexed by linear thread id */
    uint64_t *cval;
    uint64_t *cres;
    int32_t *csrc;

    /* coroutine frames (tt_sim_co.c): chunks chained through their first
     * word; blk.co_next/co_end point into co_cur */
    char *co_chunks, *co_cur;
    /* region kernels: offer each block to its first thread's region form
     * (cleared once a kernel turns out to have none) */
    int rg_try;

    /* fibers */
    tt_sim_stack os_stack;         /* the OS thread's own stack */
    tt_sim_stack *cur_stack;       /* stack of the running fiber */
    tt_sim_stack *free_stacks;
    tt_sim_stack **all_stacks;
    size_t nstacks, cap_stacks;

    /* shared memory: [static arena | dynamic | guard page] (in mem) */
    char *arena_guard;             /* first byte of the guard page */
    size_t arena_bytes;            /* static + dynamic */

    /* race detection */
    tt_sim_rword *shadow;          /* mem.shadow while race checking, else NULL */
    uint64_t race_count;           /* intervals so far (tt_sim_race_*) */

    /* errors and escapes */
    sigjmp_buf escape;
    volatile sig_atomic_t in_kernel;
    uint64_t blk_next, blk_end;    /* this worker's current chunk of blocks */
    stack_t altstack;
    uint64_t blocks_run;
    uint64_t rg_blocks;            /* of which its region form ran */
    tt_sim_worker_mem mem;
} __attribute__((aligned(128))) tt_sim_worker;

typedef struct tt_sim_run {
    const tt_sim_kernel *k;
    uint32_t (*run)(void *, tt_sim_thread *, const uint32_t *, uint32_t,
                    const uint64_t *); /* k->run when launched batched, else NULL */
    void (*co_resume)(void *);     /* k->co_resume when launched batched with
                                      cfg->coroutines, else NULL (fibers) */
    const tt_sim_config *cfg;
    tt_sim_schedule sched;
    uint64_t nblocks;
    atomic_uint_fast64_t next_block;
    atomic_int abort;
    pthread_mutex_t mu;            /* guards result */
    int failed;
    tt_sim_result result;
    tt_sim_worker *workers;
    int nworkers;
    int nrunning;                  /* workers[0..nrunning) run on OS threads */
    /* code addresses of the failure (fault, racing accesses), symbolised
     * with addr2line after the run: crash_ip first, other_ip second */
    void *crash_ip;
    void *other_ip;
    int crash_ip_exact;            /* crash_ip is the faulting instruction, not a
                                      return address */
    uint64_t poison;               /* what an inactive-lane read returns (cfg->inactive_read
                                      POISON or COMPARE) */
    char poison_msg[512];          /* the first such read, as ERROR would report it (mu) */
    char notes[1024];              /* result.notes of this run (mu; tt_sim_note) */
} tt_sim_run;

/* Adds the line "tt_sim: <kind>: <text>" to L->notes unless it holds that line
 * already or is full (thread-safe). */
void tt_sim_note(tt_sim_run *L, const char *kind, const char *text);

extern __thread tt_sim_worker *tt_sim_self_worker;

/* workers (tt_sim_worker.c) */
int tt_sim_worker_init(tt_sim_worker *w, tt_sim_run *L, int index);
void tt_sim_worker_fini(tt_sim_worker *w);
/* Runs blocks until none are left or the launch aborts.  Never fails: errors
 * are recorded in L. */
void tt_sim_worker_run(tt_sim_worker *w);

/* fault (tt_sim_fault.c): records the first failure of a launch (thread-safe).  Returns 1 if
 * this call recorded it. */
int tt_sim_record_failure(tt_sim_run *L, tt_sim_status st, const char *file, int line,
                          const tt_sim_dim3 *blk, const tt_sim_dim3 *thr, const char *msg);

/* mem */
typedef struct tt_sim_buffer_info {
    const char *name;
    size_t bytes;
    size_t offset;     /* of the faulting address from the start */
    int found;
} tt_sim_buffer_info;
/* Async-signal-tolerant lookup of the guard page hit by addr. */
int tt_sim_mem_classify(const void *addr, tt_sim_buffer_info *out);
void *tt_sim_mem_snapshot(void);             /* opaque; NULL when no buffers */
void tt_sim_mem_restore(void *snap);
/* Compares current buffers against *snap_result*; writes a message and
 * returns nonzero when a buffer differs beyond rtol. */
int tt_sim_mem_compare(void *snap_a, void *snap_b, double rtol, char *msg, size_t msglen);
void tt_sim_mem_snapshot_free(void *snap);

/* co (tt_sim_co.c): the body of the runner fiber of a coroutine launch
 * (arg: the worker); runs its blocks like runner_entry.  Never returns. */
void tt_sim_co_runner(void *arg);
/* Frees the frame chunks (worker teardown). */
void tt_sim_co_fini(tt_sim_worker *w);

/* Books the threads a batch finished, when the running thread t (started
 * by the batch) is about to block or fail. */
void tt_sim_batch_sync(tt_sim_worker *w, tt_sim_thread *t);

/* race check (tt_sim_shared.c): a new interval for every warp (block start,
 * barrier) or for one warp (a completed collective); only while checking. */
void tt_sim_race_block_slow(tt_sim_worker *w);
/* The shadow of a launch without the race check (tt_sim_shared.c): every
 * read summary SAT of base 0, read-only; NULL if it could not be mapped. */
void tt_sim_race_warp_slow(tt_sim_worker *w, tt_sim_warp *wp);
static inline void tt_sim_race_block(tt_sim_worker *w)
{
    if (w->shadow)
        tt_sim_race_block_slow(w);
}
static inline void tt_sim_race_warp(tt_sim_worker *w, tt_sim_warp *wp)
{
    if (w->shadow)
        tt_sim_race_warp_slow(w, wp);
}

/* shared registry: name of the declaration holding arena offset `off`
 * ("extern __shared__" for the dynamic part); writes into buf. */
const char *tt_sim_shared_name(tt_sim_worker *w, size_t off, char *buf, size_t n);

#endif
