/* tt_sim_device.h — the runtime ABI the C++ shims call from kernel code.
 *
 * Not for harnesses: use tt_sim.h.  The structs are visible so that the shims
 * can read threadIdx, blockIdx, ... with plain loads; fields marked
 * "runtime-private" are written only by src/sim.
 *
 * Global state: tt_sim_cur is the per-OS-thread variable — the GPU thread
 * whose fiber is running on this OS thread (NULL outside kernels) — with
 * two caches of what kernel code reads most (tt_sim_tid, tt_sim_blk).  Fibers of
 * one block never leave the OS thread that started the block, so reading it
 * from kernel code is always consistent.
 */
#ifndef TT_SIM_DEVICE_H
#define TT_SIM_DEVICE_H

#include "tt_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A call site in kernel source (static storage, one per call site). */
typedef struct tt_sim_site {
    const char *file;
    int line;
    const char *what; /* "__syncthreads", "__shfl_xor_sync", ... */
} tt_sim_site;

/* Collective kinds (a warp groups lanes that wait at the same kind+site). */
enum {
    TT_SIM_COLL_SHFL = 1,
    TT_SIM_COLL_BALLOT,
    TT_SIM_COLL_MATCH_ANY,
    TT_SIM_COLL_MATCH_ALL,
    TT_SIM_COLL_SYNCWARP,
    TT_SIM_COLL_ACTIVEMASK,
    TT_SIM_COLL_REDUCE_ADD,
    TT_SIM_COLL_REDUCE_MIN,
    TT_SIM_COLL_REDUCE_MAX,
    TT_SIM_COLL_REDUCE_AND,
    TT_SIM_COLL_REDUCE_OR,
    TT_SIM_COLL_REDUCE_XOR
};

/* Barrier kinds (__syncthreads and its reductions). */
enum { TT_SIM_BAR_PLAIN = 0, TT_SIM_BAR_COUNT, TT_SIM_BAR_AND, TT_SIM_BAR_OR };

/* "no source lane": the shuffle returns the caller's own value. */
#define TT_SIM_LANE_SELF (-1)

struct tt_sim_block;

/* Runtime calls from kernel code never throw (a failure escapes by
 * longjmp): said to C++, so that kernel code around them needs no cleanup
 * paths (which would keep a region kernel's locals in memory). */
#if defined(__cplusplus) && defined(__GNUC__)
#define TT_SIM_NOTHROW __attribute__((nothrow))
#else
#define TT_SIM_NOTHROW
#endif

typedef struct tt_sim_thread {
    /* first cache line: everything the barrier / collective fast paths touch */
    tt_sim_dim3 tid;             /* threadIdx */
    uint32_t lane;               /* linear % warp */
    struct tt_sim_block *blk;
    uint32_t linear;             /* x + y*bx + z*bx*by */
    uint32_t warp_id;            /* linear / warp */
    /* runtime-private below */
    uint32_t pos;                /* position in the block's schedule */
    uint8_t state;
    uint8_t wait_kind;           /* TT_SIM_COLL_* or 100 + TT_SIM_BAR_* */
    uint8_t has_mask;
    uint8_t pred;
    union {
        void *stack;             /* fibers: the tt_sim_stack it runs on while started */
        void *co_frame;          /* coroutines: its frame while suspended */
    };
    const tt_sim_site *wait_site;/* where it waits (barrier or collective) */
    uint64_t mask;               /* _sync mask of the collective it waits at */
    /* second cache line (cold) */
    int result_pred;
    char reserved_[56];
} tt_sim_thread;

/* Race shadow of 4 bytes of shared memory: stamps of the last write and of
 * the reads since it, in the current barrier interval (below: what
 * a stamp is; the shims check the common cases inline). */
typedef struct tt_sim_rword {
    uint64_t w;
    uint64_t r;
} tt_sim_rword;

/* A stamp is (ival << 16) | code.  ival names a thread's interval: (count <<
 * TT_SIM_RACE_WARP_BITS) | warp, count growing at every block start, barrier
 * and (for one warp) completed collective, so that equal ivals mean one warp
 * between two of its syncs, and an ival below the block's race_base >> 16 an
 * earlier barrier interval (stale: no entry to clear).  code: the thread
 * (linear id + 1), or for reads GROUP (several lanes of the ival's warp in
 * that interval) or SAT (lanes of several warps since the barrier).  0 is no
 * access. */
#define TT_SIM_RACE_WARP_BITS 5
#define TT_SIM_RACE_MAX_WARPS 32
#define TT_SIM_RACE_GROUP 0x8000u
#define TT_SIM_RACE_SAT 0xFFFFu

typedef struct tt_sim_block {
    tt_sim_dim3 block_idx;
    tt_sim_dim3 block_dim;
    tt_sim_dim3 grid_dim;
    uint32_t warp;               /* lanes per warp (32 or 64) */
    uint32_t nthreads;
    char *shared;                /* static __shared__ arena (TT_SIM_SHARED) */
    char *dyn_shared;            /* extern __shared__ memory */
    size_t dyn_shared_bytes;
    int race_check;
    void *worker;                /* runtime-private: struct tt_sim_worker* */
    /* runtime-private: shuffle-chain slots per linear thread */
    int16_t *chain_src;          /* [TT_SIM_CHAIN_SLOTS][nthreads]: step-major, so */
    uint64_t *chain_mask;        /* that a warp's lanes of one step are adjacent */
    struct tt_sim_chain_wait *chain_wait; /* per thread: the chain it waits with */
    /* coroutine kernels (tt_sim_co.c): co is set while the launch runs them
     * as coroutines; their frames are bump-allocated from [co_next, co_end)
     * and all freed when the next block starts */
    int co;
    char *co_next, *co_end;
    const uint64_t *co_res;      /* collective results by linear thread id */
    /* region kernels (tt_sim_region.hpp): rg is 1 while the runtime offers
     * the block's first thread to run the whole block as a region kernel, 2
     * once that thread's kernel has taken it, else 0 */
    int rg;
    tt_sim_thread *rg_threads;   /* the block's threads by linear id */
    const uint32_t *rg_order;    /* linear id by schedule position; NULL:
                                    forward (the identity) */
    uint64_t *rg_vals;           /* chain values by linear id */
    /* race check (runtime-private): the shadow of the arena's words (when
     * off: a read-only table whose every read summary is SAT of base 0, the
     * base of such a launch), where each word's last access is recorded (2
     * per word: write, read; NULL when off), and the stamp of the current
     * barrier interval's start */
    tt_sim_rword *race_shadow;
    uintptr_t *race_ip;          /* (integers: stores of them clobber no pointer) */
    uint64_t race_base;
    /* each warp's current interval (a thread's stamp is
     * (race_ival[warp_id] << 16) | (linear + 1)): kept per warp, so that a
     * barrier renews 32 words at most, not a cache line per thread */
    uint64_t race_ival[TT_SIM_RACE_MAX_WARPS];
} tt_sim_block;

/* The GPU thread running on this OS thread, a copy of its threadIdx (so that
 * kernel code reads threadIdx with one load; set wherever tt_sim_cur is), and
 * the block this OS thread runs (its worker's, for the whole launch). */
extern __thread tt_sim_thread *tt_sim_cur;
extern __thread tt_sim_dim3 tt_sim_tid;
extern __thread tt_sim_block *tt_sim_blk;

/* Block-wide barrier.  Returns the reduction for COUNT/AND/OR, 0 for PLAIN. */
int tt_sim_syncthreads(const tt_sim_site *site, int kind, int pred);

/* Warp collective.  `kind` is TT_SIM_COLL_*.  has_mask/mask: the _sync mask
 * (bit i = lane i of the warp), validated as CUDA requires.  value/src/pred are
 * the caller's operands.  Returns the caller's result; *pred_out (may be NULL)
 * receives the match_all predicate. */
uint64_t tt_sim_collective(const tt_sim_site *site, int kind, int has_mask, uint64_t mask,
                           uint64_t value, int32_t src, int pred, int *pred_out);

/* The same for TT_SIM_COLL_SHFL (pred 0, no pred_out): every argument in a
 * register, the hot path of shuffle-heavy kernels. */
uint64_t tt_sim_shfl(const tt_sim_site *site, int has_mask, uint64_t mask, uint64_t value,
                     int32_t src);

/* Shuffle chains: the K shuffles of a loop `for (...) x = op(x, shfl(x, ...))`
 * that tt_xf_prepare_source() recognised (nothing but x changes in the loop;
 * op depends only on x and the shuffled value).  A lane first replays the
 * loop with the shims' shuffles recording each step's source lane and mask
 * (tt_sim_chain_probe_rec non-NULL), into its slots of the block's
 * chain_src/chain_mask, then runs step 0 (see tt_sim_chain_wait). */
#define TT_SIM_CHAIN_SLOTS 256

typedef struct tt_sim_chain_rec {
    const tt_sim_site *site;
    uint32_t n;
    int16_t *src;                /* the lane's step 0 in the block's slots; */
    uint64_t *mask;              /* step k is k * stride further */
    uint32_t stride;
    int has_mask;
    int fusable;                 /* no later step's mask leaves this lane out */
    int bad;                     /* incomplete: too many steps, another site or
                                    a source lane past int16; the loop runs as
                                    written */
} tt_sim_chain_rec;

/* A lane read outside the warp or group during a fused chain: the runtime
 * reports it (or returns the poison value; see tt_sim_config.inactive_read). */
typedef uint64_t (*tt_sim_chain_inactive_fn)(void *ctx, uint32_t lane, int32_t src);

typedef struct tt_sim_chain {
    const tt_sim_chain_rec *rec;
    /* Runs the chain's n steps for the nl lanes of a warp at once, each
     * step from the values the previous one left: lane l's value vals[l]
     * becomes op(vals[l], vals[s]) with s = src[k * stride + l], or with
     * inactive(ctx, l, s) when s >= nl.  op is captureless. */
    void (*fuse)(const void *op, uint64_t *vals, const int16_t *src, size_t stride, uint32_t n,
                 uint32_t nl, tt_sim_chain_inactive_fn inactive, void *ctx);
    const void *op;
} tt_sim_chain;

/* Per thread: key 0 (no chain), the chain's key (site and length) while it
 * waits with one, or 1 once the runtime fused it; and that chain (in the
 * block's memory: a coroutine's frame stays small). */
typedef struct tt_sim_chain_wait {
    uint64_t key;
    tt_sim_chain chain;
} tt_sim_chain_wait;

/* Non-NULL while a lane's probe loop runs: the shims' shuffles record into
 * it (inline, tt_sim_common.hpp) instead of shuffling. */
extern __thread tt_sim_chain_rec *tt_sim_chain_probe_rec;

/* A lane runs step 0 of its chain as an ordinary shuffle at the chain's site
 * with its tt_sim_chain_wait set (key and chain).  When every lane of the
 * warp arrives with the same key, the runtime runs all steps at once, leaves
 * the final value as the shuffle's result and sets the key to 1; otherwise
 * the result is step 0's and the lane goes on shuffle by shuffle.  Either
 * way the result is what the loop computes shuffle by shuffle. */

/* Coroutine kernels (tt_sim_co.c; the kernel side is tt_sim_co.hpp).  A
 * kernel that tt_xf_prepare_source() made a coroutine awaits its barriers
 * and chain steps.  While tt_sim_blk->co is set, an awaiter books the
 * arrival with these calls, stores its frame in tt_sim_cur->co_frame and
 * suspends; the runtime resumes the frame once the barrier or collective has
 * completed, and tt_sim_co_value() then gives the result.  (With co unset
 * the awaiters call tt_sim_syncthreads/tt_sim_shfl, which block the fiber.) */
void tt_sim_co_barrier(const tt_sim_site *site, int kind, int pred);
void tt_sim_co_shfl(const tt_sim_site *site, int has_mask, uint64_t mask, uint64_t value,
                    int32_t src);
uint64_t tt_sim_co_value(void);
/* Frame memory when [co_next, co_end) is too small: never NULL (fails the
 * launch when out of memory).  Owned by the runtime. */
void *tt_sim_co_alloc_slow(size_t n);

/* Region kernels (tt_sim_region.hpp; the runtime side is in tt_sim_co.c,
 * tt_sim_barrier.c and tt_sim_collective.c).  The region form of a kernel
 * runs the whole block: each stretch of the body between two barriers or
 * chains is a loop over the block's threads in schedule order, and these
 * calls stand between the loops.
 *
 * tt_sim_rg_barrier: every thread that has not returned (`exited` have)
 * reached the __syncthreads() (the form only has barriers that all threads
 * reach but by returning); a new race-check interval.  With
 * cfg.strict_barriers, threads that returned make it a barrier divergence:
 * the launch is left to coroutines, which report it.
 * tt_sim_rg_chain: the loop before it left, for every thread that reached
 * the chain, chain_wait[linear].key = the chain's key, rg_vals[linear] = its
 * value and wait_site = the chain's site.  Fuses every warp whose lanes all
 * arrived with one key (results in co_res, keys set to 1; keys of warps that
 * did not arrive stay 0), as the runtime fuses a coroutine warp's chain;
 * the steps are the block's slots (src NULL), or src[k * stride + lane] for
 * every warp (steps recorded once: rg_steps).  A
 * warp that arrived in part, or with different keys, cannot be run exactly
 * here: the launch fails with TT_SIM_ERR_NEEDS_COROUTINES (tt_sim_rg_bail),
 * and is run again as coroutines by `tiletrans check`. */
void tt_sim_rg_barrier(uint32_t exited);
void tt_sim_rg_chain(void (*fuse)(const void *op, uint64_t *vals, const int16_t *src, size_t stride,
                                  uint32_t n, uint32_t nl, tt_sim_chain_inactive_fn inactive,
                                  void *ctx),
                     const void *op, const int16_t *src, size_t stride);
/* The race check's pass table (tt_sim_shared.c): a read-only shadow whose
 * every read summary is SAT of base 0; NULL when it could not be made. */
const tt_sim_rword *tt_sim_race_pass_table(void);
void tt_sim_rg_bail(const tt_sim_site *site, const char *why)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* Offset of a static __shared__ declaration in the per-block arena; registers
 * it on first use (thread-safe).  Fails the launch if the arena overflows. */
size_t tt_sim_shared_register(const char *file, int line, const char *name,
                              size_t size, size_t align);

/* Shadow check of one instrumented shared access (race detection). */
void tt_sim_shared_access(const void *addr, size_t size, int is_write,
                          const tt_sim_site *site) TT_SIM_NOTHROW;

/* The same for a plain store of the size bytes at val: a store that conflicts only
 * with a store of the same bytes by a lane of the same warp is no race (CUDA's
 * memory model: such lanes write one value) and becomes a note of the launch. */
void tt_sim_shared_store(const void *addr, size_t size, const void *val,
                         const tt_sim_site *site) TT_SIM_NOTHROW;

/* The same check for kernel code whose access is at code address ip, with
 * val NULL or the stored bytes.  On x86-64 the shims reach it through
 * tt_sim_race_call (tt_sim_race_x86_64.S), which keeps every register. */
void tt_sim_race_slow(const void *addr, size_t size, int is_write, const void *val,
                      const tt_sim_site *site, void *ip) TT_SIM_NOTHROW;

/* Index check of an instrumented __shared__ array (OOB): fails the launch,
 * never returns (so kernel code keeps its values in registers across it). */
void tt_sim_shared_oob(const tt_sim_site *site, const char *name, long long index,
                       long long extent) TT_SIM_NOTHROW
#if defined(__GNUC__)
    __attribute__((noreturn, cold))
#endif
    ;

/* Fails the launch from kernel code (__trap, assert, invalid mask, PTX, ...). */
void tt_sim_fail(tt_sim_status status, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 4, 5)))
#endif
    ;

/* A stable site for (file, line, what) known only at run time (strings must
 * be static).  Thread-safe; the result lives until the process exits. */
const tt_sim_site *tt_sim_site_intern(const char *file, int line, const char *what);

/* Records the current source position of the calling GPU thread (printed with
 * timeouts and crashes). */
void tt_sim_note_site(const tt_sim_site *site);

#ifdef __cplusplus
}
#endif

#endif /* TT_SIM_DEVICE_H */
