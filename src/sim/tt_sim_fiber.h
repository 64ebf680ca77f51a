/* tt_sim_fiber.h — fiber stacks and context switches (runtime-private).
 *
 * A tt_sim_stack is an mmap'd stack with a PROT_NONE guard page below it and
 * the saved context of the one fiber suspended on it.  The context lives with
 * the stack, not with the GPU thread, because a suspended fiber owns exactly
 * one stack and a stack holds at most one suspended fiber.
 *
 * Two implementations, chosen at compile time: a hand-written x86-64 switch
 * of the callee-saved registers (tt_sim_switch_x86_64.S, a few ns), and a
 * ucontext fallback for other targets or TT_SIM_FORCE_UCONTEXT (~100 ns:
 * swapcontext makes a sigprocmask system call).
 *
 * Under AddressSanitizer every switch is announced with
 * __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber.
 */
#ifndef TT_SIM_FIBER_H
#define TT_SIM_FIBER_H

#include <stddef.h>
#include <stdint.h>

#if !defined(TT_SIM_FORCE_UCONTEXT) && defined(__x86_64__)
#define TT_SIM_FIBER_ASM 1
#else
#define TT_SIM_FIBER_ASM 0
#include <ucontext.h>
#endif

typedef struct tt_sim_stack {
    /* context of the suspended fiber (asm switch): rsp, rbp, rbx, r12..r15,
     * rip -- one cache line, the only memory a switch touches per side */
    void *sp;
    uint64_t regs[6];
    void *ip;
#if !TT_SIM_FIBER_ASM
    ucontext_t uc;
#endif
    char *map;                /* mmap base (guard page first); NULL for an OS stack */
    size_t map_size;
    char *lo;                 /* usable range [lo, hi) */
    char *hi;
    void *asan_fake;          /* ASan fake-stack handle while suspended */
    size_t color;             /* bytes left unused at the top (see tt_sim_stack_map) */
    size_t size;              /* the usable size asked for (the pool's key) */
    struct tt_sim_stack *next_free;
} __attribute__((aligned(64))) tt_sim_stack;

/* Maps a stack of `size` usable bytes (rounded up to pages) plus a guard page.
 * Returns NULL on failure.  Free with tt_sim_stack_unmap(). */
tt_sim_stack *tt_sim_stack_map(size_t size);
void tt_sim_stack_unmap(tt_sim_stack *s);

/* Process-wide pool of unused stacks (thread-safe): get returns a pooled
 * stack of `size` usable bytes or maps a new one; put hands n stacks back
 * (unmapping those over the pool's limit). */
tt_sim_stack *tt_sim_stack_pool_get(size_t size);
void tt_sim_stack_pool_put(tt_sim_stack **s, size_t n, size_t size);

/* Describes the calling OS thread's own stack (for switching back to it). */
void tt_sim_stack_init_os(tt_sim_stack *s);

/* Prepares `s` so that switching to it calls entry(arg) on that stack.
 * entry must never return. */
void tt_sim_fiber_make(tt_sim_stack *s, void (*entry)(void *), void *arg);

#if defined(__SANITIZE_ADDRESS__)
#define TT_SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_SIM_ASAN 1
#endif
#endif
#ifndef TT_SIM_ASAN
#define TT_SIM_ASAN 0
#endif
#if TT_SIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if TT_SIM_FIBER_ASM
void tt_sim_switch_raw(tt_sim_stack *from, tt_sim_stack *to);
uint64_t tt_sim_switch_ret(tt_sim_stack *from, tt_sim_stack *to, uint64_t value);
int tt_sim_switch_ret_i(tt_sim_stack *from, tt_sim_stack *to, uint64_t value);
#endif
/* Switches that may be tail calls (no sanitizer bookkeeping around them). */
#if TT_SIM_FIBER_ASM && !TT_SIM_ASAN
#define TT_SIM_FAST_SWITCH 1
#else
#define TT_SIM_FAST_SWITCH 0
#endif

/* Suspends the running fiber into `from` and resumes `to`.  If from_dies,
 * the current fiber is never resumed (its stack may be reused at once by
 * whoever runs next).  Inline: it is on the hot path of every barrier. */
static inline void tt_sim_fiber_switch(tt_sim_stack *from, tt_sim_stack *to, int from_dies)
{
#if TT_SIM_ASAN
    __sanitizer_start_switch_fiber(from_dies ? NULL : &from->asan_fake, to->lo,
                                   (size_t)(to->hi - to->lo));
#else
    (void)from_dies;
#endif
#if TT_SIM_FIBER_ASM
    tt_sim_switch_raw(from, to);
#else
    swapcontext(&from->uc, &to->uc);
#endif
#if TT_SIM_ASAN
    __sanitizer_finish_switch_fiber(from->asan_fake, NULL, NULL);
#endif
}

/* Must be the first call of a new fiber's entry function (ASan bookkeeping). */
void tt_sim_fiber_on_start(void);

/* Is addr inside the guard page of s? */
int tt_sim_stack_is_guard(const tt_sim_stack *s, const void *addr);

#endif
