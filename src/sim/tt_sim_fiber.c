/* tt_sim_fiber.c — see tt_sim_fiber.h. */
#define _GNU_SOURCE 1
#include "tt_sim_fiber.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if TT_SIM_FIBER_ASM
void tt_sim_fiber_entry(void);
#endif

static size_t page_size(void)
{
    static size_t ps; /* benign race: every thread computes the same value */
    if (!ps)
        ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

tt_sim_stack *tt_sim_stack_map(size_t size)
{
    size_t ps = page_size();
    size = (size + ps - 1) & ~(ps - 1);
    size_t total = size + ps;
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m, ps, PROT_NONE) != 0) {
        munmap(m, total);
        return NULL;
    }
    /* Cache colouring: the hot top of every stack would otherwise sit at the
     * same page offset, i.e. in the same L1 set, and hundreds of fibers
     * would evict each other at every switch.  Shift each top by a
     * different multiple of 64 bytes (stacks are page-aligned). */
    static atomic_uint counter;
    unsigned k = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    size_t color = (size_t)((k * 5u) % 64u) * 64u;
    /* The descriptor lives at the top of its own stack, above the stack's
     * top: a resumed fiber's context line is next to its hot frames, and no
     * two fibers' descriptors share a line or a prefetch pair (descriptors
     * on the heap, interleaved between the OS threads that took them from
     * the pool, slowed a 2-thread run by a quarter). */
    tt_sim_stack *s = (tt_sim_stack *)((char *)m + total - color - sizeof *s);
    memset(s, 0, sizeof *s);
    s->color = color;
    s->size = size;
    s->map = m;
    s->map_size = total;
    s->lo = (char *)m + ps;
    s->hi = (char *)s;
    return s;
}

void tt_sim_stack_unmap(tt_sim_stack *s)
{
    if (s && s->map)
        munmap(s->map, s->map_size); /* (s itself is in there) */
}

void tt_sim_stack_init_os(tt_sim_stack *s)
{
    memset(s, 0, sizeof *s);
#if TT_SIM_ASAN
    /* only ASan's fiber annotations need the bounds (on the main thread
     * glibc reads them from /proc/self/maps: ~0.1 ms a launch) */
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        void *addr;
        size_t sz;
        if (pthread_attr_getstack(&a, &addr, &sz) == 0) {
            s->lo = addr;
            s->hi = (char *)addr + sz;
        }
        pthread_attr_destroy(&a);
    }
#endif
}

int tt_sim_stack_is_guard(const tt_sim_stack *s, const void *addr)
{
    const char *p = addr;
    return s->map && p >= s->map && p < s->lo;
}

#if TT_SIM_FIBER_ASM
void tt_sim_fiber_make(tt_sim_stack *s, void (*entry)(void *), void *arg)
{
#if TT_SIM_ASAN
    /* a stack reused after its fiber died may keep that fiber's poisoned
     * redzones */
    __asan_unpoison_memory_region(s->lo, (size_t)(s->hi - s->lo));
#endif
    /* The context (tt_sim_fiber.h) a switch loads: rsp = the top, 16-byte
     * aligned, so that the `call` in tt_sim_fiber_entry enters `entry` with
     * rsp % 16 == 8; nothing is written to the stack itself. */
    uintptr_t top = (uintptr_t)s->hi & ~(uintptr_t)15;
    s->sp = (void *)top;                          /* as after a `ret`: 16-aligned */
    s->regs[0] = 0;                               /* rbp */
    s->regs[1] = 0;                               /* rbx */
    s->regs[2] = (uint64_t)(uintptr_t)entry;      /* r12 */
    s->regs[3] = (uint64_t)(uintptr_t)arg;        /* r13 */
    s->regs[4] = 0;                               /* r14 */
    s->regs[5] = 0;                               /* r15 */
    s->ip = (void *)(uintptr_t)tt_sim_fiber_entry;
}
#else
void tt_sim_fiber_make(tt_sim_stack *s, void (*entry)(void *), void *arg)
{
#if TT_SIM_ASAN
    __asan_unpoison_memory_region(s->lo, (size_t)(s->hi - s->lo));
#endif
    getcontext(&s->uc);
    s->uc.uc_stack.ss_sp = s->lo;
    s->uc.uc_stack.ss_size = (size_t)(s->hi - s->lo);
    s->uc.uc_link = NULL;
    /* makecontext passes int arguments; split the pointer in two halves. */
    uintptr_t a = (uintptr_t)arg;
    makecontext(&s->uc, (void (*)(void))entry, 1, arg);
    (void)a;
}
#endif

void tt_sim_fiber_on_start(void)
{
#if TT_SIM_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
}

/* Process-wide pool of unused stacks, so that launches do not map (and
 * page-fault in) hundreds of stacks each time.  Guarded by a mutex; touched
 * once per stack per launch.  Keeps at most POOL_MAX stacks. */
#define POOL_MAX 4096
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static tt_sim_stack *pool_head;
static size_t pool_n;

tt_sim_stack *tt_sim_stack_pool_get(size_t size)
{
    size_t ps = page_size();
    size = (size + ps - 1) & ~(ps - 1);
    pthread_mutex_lock(&pool_mu);
    tt_sim_stack **pp = &pool_head;
    while (*pp && (*pp)->size != size)
        pp = &(*pp)->next_free;
    tt_sim_stack *s = *pp;
    if (s) {
        *pp = s->next_free;
        pool_n--;
    }
    pthread_mutex_unlock(&pool_mu);
    if (s) {
        s->next_free = NULL;
        return s;
    }
    return tt_sim_stack_map(size);
}

void tt_sim_stack_pool_put(tt_sim_stack **s, size_t n, size_t size)
{
    (void)size;
    size_t i = 0;
    pthread_mutex_lock(&pool_mu);
    for (; i < n && pool_n < POOL_MAX; i++) {
        s[i]->next_free = pool_head;
        pool_head = s[i];
        pool_n++;
    }
    pthread_mutex_unlock(&pool_mu);
    for (; i < n; i++)
        tt_sim_stack_unmap(s[i]);
}
