/* tt_sim_launch.c — tt_sim_launch(): validates a launch, runs the grid on
 * worker OS threads once per schedule, catches faults and timeouts, and
 * compares the buffers that different schedules produce.
 *
 * Signals: while a launch runs, SIGSEGV/SIGBUS/SIGFPE/SIGILL handlers turn a
 * fault inside a kernel into a failure of the launch (out-of-bounds access
 * when the address is a buffer's guard page), and SIGUSR2 from the watchdog
 * stops a worker whose kernel does not reach a scheduling point (timeout).
 * Previous handlers are restored when the launch ends.  Faults outside
 * kernels are re-raised with the previous handler.
 */
#define _GNU_SOURCE 1
#include "tt_sim_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <dlfcn.h>
#include <sched.h>

#define TT_SIM_TIMEOUT_SIGNAL SIGUSR2

void tt_sim_config_init(tt_sim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->grid.x = cfg->grid.y = cfg->grid.z = 1;
    cfg->block.x = cfg->block.y = cfg->block.z = 1;
    cfg->warp = 32;
    cfg->schedules[0] = TT_SIM_SCHED_FORWARD;
    cfg->nschedules = 1;
    cfg->threads = 1;
    cfg->stack_size = 64 * 1024;
    cfg->timeout_s = 60;
    cfg->race_check = 1;
    cfg->inactive_read = TT_SIM_INACTIVE_ERROR;
    cfg->schedule_rtol = 1e-5;
    cfg->coroutines = 1;
}

static const char *sched_name(tt_sim_schedule s)
{
    return s == TT_SIM_SCHED_REVERSE ? "reverse" : s == TT_SIM_SCHED_RANDOM ? "random" : "forward";
}

/* ---------------------------------------------------------------- signals */

static struct sigaction old_segv, old_bus, old_fpe, old_ill, old_tmo;
static tt_sim_run *volatile cur_launch; /* the launch whose handlers are installed */

static void fault_handler(int sig, siginfo_t *si, void *uctx)
{
    tt_sim_worker *w = tt_sim_self_worker;
    tt_sim_run *L = cur_launch;
    if (!w || !L || !w->in_kernel) {
        /* not ours: restore the previous disposition and let it re-fault */
        struct sigaction *old = sig == SIGSEGV ? &old_segv : sig == SIGBUS ? &old_bus
                              : sig == SIGFPE ? &old_fpe : &old_ill;
        sigaction(sig, old, NULL);
        return;
    }
    void *ip = NULL;
#if defined(__x86_64__)
    ip = (void *)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#else
    (void)uctx;
#endif
    char msg[512];
    tt_sim_status st = TT_SIM_ERR_TRAP;
    tt_sim_buffer_info bi;
    const char *addr = si->si_addr;
    if (sig == SIGSEGV && tt_sim_mem_classify(addr, &bi)) {
        st = TT_SIM_ERR_OOB;
        if (bi.found == 1)
            snprintf(msg, sizeof msg,
                     "out-of-bounds access to %s (%zu bytes) at byte offset %zu (%zu bytes past the end)",
                     bi.name, bi.bytes, bi.offset, bi.offset - bi.bytes);
        else
            snprintf(msg, sizeof msg, "out-of-bounds access to %s (%zu bytes) before its start",
                     bi.name, bi.bytes);
    } else if (sig == SIGSEGV && addr >= w->arena_guard &&
               addr < w->arena_guard + (size_t)sysconf(_SC_PAGESIZE)) {
        st = TT_SIM_ERR_OOB;
        snprintf(msg, sizeof msg,
                 "out-of-bounds access past the end of dynamic shared memory (%zu bytes) at +%zu",
                 w->blk.dyn_shared_bytes, (size_t)(addr - w->blk.dyn_shared));
    } else if (sig == SIGSEGV && w->cur_stack && tt_sim_stack_is_guard(w->cur_stack, addr)) {
        snprintf(msg, sizeof msg, "stack overflow in a GPU thread (stack %zu bytes; raise "
                 "stack_size)", L->cfg->stack_size);
    } else {
        snprintf(msg, sizeof msg, "%s at address %p",
                 sig == SIGSEGV ? "invalid memory access" : sig == SIGBUS ? "bus error"
                 : sig == SIGFPE ? "arithmetic exception (integer division by zero?)"
                 : "illegal instruction", (void *)addr);
    }
    const tt_sim_site *s = tt_sim_cur ? tt_sim_cur->wait_site : NULL;
    if (tt_sim_record_failure(L, st, NULL, 0, &w->blk.block_idx,
                              tt_sim_cur ? &tt_sim_cur->tid : NULL, msg)) {
        L->crash_ip = ip;
        L->crash_ip_exact = 1;
        (void)s;
    }
    siglongjmp(w->escape, 1);
}

static void timeout_handler(int sig, siginfo_t *si, void *uctx)
{
    (void)sig;
    (void)si;
    (void)uctx;
    tt_sim_worker *w = tt_sim_self_worker;
    if (w && w->in_kernel)
        siglongjmp(w->escape, 1);
}

static void install_handlers(tt_sim_run *L)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    cur_launch = L;
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    sigaction(SIGFPE, &sa, &old_fpe);
    sigaction(SIGILL, &sa, &old_ill);
    sa.sa_sigaction = timeout_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(TT_SIM_TIMEOUT_SIGNAL, &sa, &old_tmo);
}

static void restore_handlers(void)
{
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    sigaction(SIGFPE, &old_fpe, NULL);
    sigaction(SIGILL, &old_ill, NULL);
    sigaction(TT_SIM_TIMEOUT_SIGNAL, &old_tmo, NULL);
    cur_launch = NULL;
}

/* Code address -> "file:line" of the innermost frame that is kernel code
 * (not a tt_sim_* shim header), via addr2line on our own executable (needs
 * -g in the harness).  Runs after the escape, outside signal handlers.
 * Returns the line, 0 if unknown. */
static int addr_to_line(void *ip, int exact, char *file, size_t flen)
{
    Dl_info di;
    uintptr_t off = (uintptr_t)ip;
    if (dladdr(ip, &di) && di.dli_fbase)
        off -= (uintptr_t)di.dli_fbase;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = 0;
    /* a call's return address is one past the call: look up the call itself
     * (a faulting instruction's address is exact) */
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%" PRIxPTR " 2>/dev/null", exe,
             off && !exact ? off - 1 : off);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        char *colon = strrchr(line, ':');
        if (!colon || line[0] == '?')
            continue;
        *colon = 0;
        int ln = atoi(colon + 1);
        const char *base = strrchr(line, '/');
        base = base ? base + 1 : line;
        if (ln <= 0 || strncmp(base, "tt_sim_", 7) == 0)
            continue;
        if (snprintf(file, flen, "%s", line) >= (int)flen) file[flen - 1] = 0; /* cut: fixed-size */
        found = ln;
    }
    while (fgets(line, sizeof line, p))
        ;
    pclose(p);
    return found;
}

static void symbolize(tt_sim_run *L)
{
    tt_sim_result *r = &L->result;
    char file[512];
    if (L->crash_ip) {
        int ln = addr_to_line(L->crash_ip, L->crash_ip_exact, file, sizeof file);
        if (ln) {
            /* drop a "file:line: " prefix recorded earlier (declaration site) */
            char prefix[600];
            snprintf(prefix, sizeof prefix, "%s:%d: ", r->file, r->line);
            const char *rest = r->message;
            if (r->file[0] && strncmp(rest, prefix, strlen(prefix)) == 0)
                rest += strlen(prefix);
            char old[sizeof r->message];
            snprintf(old, sizeof old, "%s", rest);
            /* Both fields are fixed-size parts of the result; a long path or message
             * is cut, deliberately (the return values say by how much). */
            if (snprintf(r->file, sizeof r->file, "%s", file) >= (int)sizeof r->file) r->file[sizeof r->file - 1] = 0;
            r->line = ln;
            if (snprintf(r->message, sizeof r->message, "%s:%d: %s", file, ln, old) >= (int)sizeof r->message)
                r->message[sizeof r->message - 1] = 0;
        }
    }
    if (L->other_ip) {
        int ln = addr_to_line(L->other_ip, 0, file, sizeof file);
        size_t len = strlen(r->message);
        if (ln)
            snprintf(r->message + len, sizeof r->message - len, "\n  other access at %s:%d",
                     file, ln);
    }
}

/* ---------------------------------------------------------------- workers */

/* Every worker runs with an alternate signal stack so that a fault on a
 * fiber stack (overflow into its guard page) can still be handled.  Pool
 * threads set theirs up once (pool_main); the launching thread's is set up
 * around each launch (it is the caller's thread). */
#define ALT_STACK_SIZE (256 * 1024)

/* Gives the calling thread a new alternate signal stack (the previous one
 * in *old when old is not NULL); returns its memory, or NULL (none set). */
static void *alt_stack_on(stack_t *old)
{
    stack_t alt;
    alt.ss_size = ALT_STACK_SIZE;
    alt.ss_sp = malloc(alt.ss_size);
    alt.ss_flags = 0;
    if (alt.ss_sp && sigaltstack(&alt, old) != 0) {
        free(alt.ss_sp);
        return NULL;
    }
    return alt.ss_sp;
}

static void worker_main(tt_sim_worker *w)
{
    stack_t old;
    void *alt = alt_stack_on(&old);
    tt_sim_worker_run(w);
    if (alt)
        sigaltstack(&old, NULL);
    free(alt);
}

/* ---------------------------------------------------------------- OS threads
 * Workers 1.. and the watchdog run on OS threads that outlive launches:
 * creating them cost ~0.1 ms a launch, a fifth of a 1M-thread vector add.
 * Process-wide, like the signal handlers above (tt_sim_launch runs one
 * launch at a time, so one pool serves every launch); threads are created on
 * first need and never exit: idle, they wait on a condition variable.
 *
 * Hand-overs poll before they sleep: waking a sleeping thread (a futex call,
 * on a VM an interrupt to a halted virtual CPU) took ~15-25 us each way on
 * the 2-core VM, a tenth of a 2-thread 1M-thread vector add.  So an idle
 * pool thread polls its job slot, and the launching thread the count of busy
 * pool threads, for up to POOL_SPIN_NS before waiting on the condition
 * variable; launches in a row then hand over without sleeping.  Only while
 * the launch has no more OS threads than CPUs (pool_spin): a polling thread
 * must not take a CPU from a working one. */
#define POOL_MAX 1024
#define POOL_SPIN_NS 200000
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_work = PTHREAD_COND_INITIALIZER; /* a job was handed out */
static pthread_cond_t pool_done = PTHREAD_COND_INITIALIZER; /* pool_busy reached 0 */
static pthread_t pool_th[POOL_MAX];
/* pool thread i's worker; NULL: idle.  Set under pool_mu by pool_start,
 * cleared by thread i before it leaves pool_busy. */
static _Atomic(tt_sim_worker *) pool_job[POOL_MAX];
static void *pool_alt[POOL_MAX];      /* pool thread i's alternate signal stack */
static int pool_size;                 /* under pool_mu */
static atomic_int pool_busy;          /* pool threads with a job; 0 -> signalled under pool_mu */
static atomic_int pool_spin;          /* the current launch allows polling */

static uint64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* What a poll waits for (acquire loads: what the other thread wrote before
 * is visible): pool thread i has a job; no pool thread has one. */
static int job_given(int i)
{
    return atomic_load_explicit(&pool_job[i], memory_order_acquire) != NULL;
}

static int pool_idle(int i)
{
    (void)i;
    return atomic_load_explicit(&pool_busy, memory_order_acquire) == 0;
}

/* Polls ready(i) for up to POOL_SPIN_NS while polling is allowed; returns
 * whether it became true.  Each round yields the CPU: the thread polled for
 * may be queued on this very CPU (another process busy on the other one),
 * and a pause loop would then keep it off for the whole budget (measured:
 * every hand-over took the 0.2 ms). */
static int poll_for(int (*ready)(int), int i)
{
    if (!atomic_load_explicit(&pool_spin, memory_order_relaxed))
        return 0;
    uint64_t until = mono_ns() + POOL_SPIN_NS;
    for (unsigned k = 1;; k++) {
        if (ready(i))
            return 1;
        sched_yield();
        if ((k & 15) == 0 && mono_ns() > until)
            return 0;
    }
}

/* Pool thread i's next job: polled for a while, then waited for. */
static tt_sim_worker *pool_next_job(int i)
{
    if (!poll_for(job_given, i)) {
        pthread_mutex_lock(&pool_mu);
        while (!job_given(i))
            pthread_cond_wait(&pool_work, &pool_mu);
        pthread_mutex_unlock(&pool_mu);
    }
    return atomic_load_explicit(&pool_job[i], memory_order_acquire);
}

/* An idle pool thread blocks the watchdog's signal: a poke that arrives
 * after its launch (the handlers restored) must not reach the default
 * action; one still pending is dropped before the next job. */
static void *pool_main(void *arg)
{
    int i = (int)(intptr_t)arg;
    sigset_t tmo;
    sigemptyset(&tmo);
    sigaddset(&tmo, TT_SIM_TIMEOUT_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &tmo, NULL);
    /* the thread's alternate signal stack, for its whole life (held in
     * pool_alt: memory in use, not a leak) */
    pool_alt[i] = alt_stack_on(NULL);
    for (;;) {
        tt_sim_worker *w = pool_next_job(i);
        const struct timespec now = {0, 0};
        while (sigtimedwait(&tmo, NULL, &now) > 0)
            ;
        pthread_sigmask(SIG_UNBLOCK, &tmo, NULL);
        if (pool_alt[i])
            tt_sim_worker_run(w);
        else
            worker_main(w); /* (no stack of its own: one per launch) */
        pthread_sigmask(SIG_BLOCK, &tmo, NULL);
        atomic_store_explicit(&pool_job[i], NULL, memory_order_relaxed);
        if (atomic_fetch_sub_explicit(&pool_busy, 1, memory_order_release) == 1) {
            pthread_mutex_lock(&pool_mu);
            pthread_cond_signal(&pool_done);
            pthread_mutex_unlock(&pool_mu);
        }
    }
    return NULL;
}

/* Runs ws[0..n) on pool threads (creating what is missing) and returns how
 * many run; the others take no blocks (blocks are taken, not assigned).
 * `spin`: the launch has no more OS threads than CPUs. */
static int pool_start(tt_sim_worker *ws, int n, int spin)
{
    atomic_store_explicit(&pool_spin, spin, memory_order_relaxed);
    pthread_mutex_lock(&pool_mu);
    int i = 0;
    for (; i < n; i++) {
        if (i == pool_size) {
            if (i == POOL_MAX || pthread_create(&pool_th[i], NULL, pool_main, (void *)(intptr_t)i) != 0)
                break;
            pool_size++;
        }
        ws[i].os_thread = pool_th[i];
    }
    atomic_store_explicit(&pool_busy, i, memory_order_relaxed);
    for (int j = 0; j < i; j++)
        atomic_store_explicit(&pool_job[j], &ws[j], memory_order_release);
    pthread_cond_broadcast(&pool_work); /* (no system call while no one sleeps) */
    pthread_mutex_unlock(&pool_mu);
    return i;
}

/* Returns once every pool thread of the launch is done with its worker. */
static void pool_wait(void)
{
    if (poll_for(pool_idle, 0))
        return;
    pthread_mutex_lock(&pool_mu);
    while (!pool_idle(0))
        pthread_cond_wait(&pool_done, &pool_mu);
    pthread_mutex_unlock(&pool_mu);
}

/* The watchdog: while a launch is armed and past its deadline, records the
 * timeout and pokes every running worker every 50 ms until it is disarmed
 * (disarming under wd_mu: afterwards it touches the launch no more).
 * Arming and disarming wake it only when they must: a wake-up (a futex call,
 * and a CPU taken from a worker for a moment) cost 5-25 us a launch on the
 * 2-core VM.  Disarmed, it sleeps on until the deadline it waits for, finds
 * no launch and then waits without one; armed again with a deadline no
 * earlier than the one it waits for, it needs no wake-up either. */
static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cv;      /* CLOCK_MONOTONIC: made with the thread */
static int wd_started;
static tt_sim_run *wd_launch;     /* armed launch, or NULL */
static struct timespec wd_deadline;
static int wd_untimed;            /* the watchdog waits with no deadline */
static struct timespec wd_wake;   /* else: when its wait ends at the latest */

static void add_ns(struct timespec *t, long ns)
{
    t->tv_nsec += ns % 1000000000L;
    t->tv_sec += ns / 1000000000L;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

static int ts_before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd_mu);
    for (;;) {
        if (!wd_launch) {
            wd_untimed = 1;
            pthread_cond_wait(&wd_cv, &wd_mu);
            wd_untimed = 0;
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (ts_before(&now, &wd_deadline)) {
            wd_wake = wd_deadline; /* (a copy: arming may move the deadline) */
            pthread_cond_timedwait(&wd_cv, &wd_mu, &wd_wake);
            continue;
        }
        tt_sim_run *L = wd_launch;
        char msg[256];
        snprintf(msg, sizeof msg, "the launch ran longer than %.3g s (infinite loop, or a "
                 "spin-wait on another block?)", L->cfg->timeout_s);
        tt_sim_record_failure(L, TT_SIM_ERR_TIMEOUT, NULL, 0, NULL, NULL, msg);
        for (int i = 0; i < L->nrunning; i++)
            pthread_kill(L->workers[i].os_thread, TT_SIM_TIMEOUT_SIGNAL);
        /* keep poking until everyone has left its kernel */
        add_ns(&wd_deadline, 50 * 1000000L);
    }
    return NULL;
}

/* Arms the watchdog for L (timeout_s > 0); returns 0 when it could not. */
static int watchdog_arm(tt_sim_run *L)
{
    pthread_mutex_lock(&wd_mu);
    if (!wd_started) {
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&wd_cv, &ca);
        pthread_condattr_destroy(&ca);
        pthread_t t;
        wd_started = pthread_create(&t, NULL, watchdog_main, NULL) == 0;
        if (!wd_started)
            pthread_cond_destroy(&wd_cv);
    }
    if (wd_started) {
        clock_gettime(CLOCK_MONOTONIC, &wd_deadline);
        double t = L->cfg->timeout_s;
        add_ns(&wd_deadline, (long)((t - (double)(time_t)t) * 1e9));
        wd_deadline.tv_sec += (time_t)t;
        wd_launch = L;
        /* (a new thread reads the launch before it first waits) */
        if (wd_untimed || ts_before(&wd_deadline, &wd_wake))
            pthread_cond_signal(&wd_cv);
    }
    int armed = wd_started;
    pthread_mutex_unlock(&wd_mu);
    return armed;
}

static void watchdog_disarm(void)
{
    pthread_mutex_lock(&wd_mu);
    wd_launch = NULL;
    pthread_mutex_unlock(&wd_mu);
}

/* The CPUs this process may run on (its affinity mask; online CPUs where
 * the mask cannot be read).  sysconf(_SC_NPROCESSORS_ONLN) reads a file:
 * ~14 us a launch on the 2-core VM, 3% of a 1M-thread vector add. */
static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void config_error(tt_sim_result *r, const char *fmt, const char *a, long v)
{
    memset(r, 0, sizeof *r);
    r->status = TT_SIM_ERR_CONFIG;
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, v);
    snprintf(r->message, sizeof r->message, "config: %s", msg);
}

/* The poison patterns of TT_SIM_INACTIVE_POISON / _COMPARE (NaN or -1 in every
 * type; then a large finite value). */
#define POISON_A (~0ull)
#define POISON_B 0x5A5A5A5A5A5A5A5Aull

/* One schedule's run.  *poison_msg (512 bytes, may be NULL) gets the first
 * poisoned inactive-lane read, "" when none. */
static tt_sim_result run_schedule(const tt_sim_kernel *k, int batched, const tt_sim_config *cfg,
                                  tt_sim_schedule sched, uint64_t poison, char *poison_msg)
{
    tt_sim_run L;
    memset(&L, 0, sizeof L);
    L.poison = poison;
    L.k = k;
    L.co_resume = batched && cfg->coroutines ? k->co_resume : NULL;
    L.run = batched && !L.co_resume ? k->run : NULL;
    L.cfg = cfg;
    L.sched = sched;
    L.nblocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    atomic_init(&L.next_block, 0);
    atomic_init(&L.abort, 0);
    pthread_mutex_init(&L.mu, NULL);
    int ncpu = usable_cpus();
    int nw = cfg->threads > 0 ? cfg->threads : ncpu;
    if ((uint64_t)nw > L.nblocks)
        nw = (int)L.nblocks;
    L.nworkers = nw;
    /* workers on cache lines of their own (each writes its own fields on
     * every block and every switch) */
    L.workers = aligned_alloc(128, (size_t)nw * sizeof *L.workers);
    if (L.workers)
        memset(L.workers, 0, (size_t)nw * sizeof *L.workers);
    int ok = L.workers != NULL;
    for (int i = 0; ok && i < nw; i++)
        ok = tt_sim_worker_init(&L.workers[i], &L, i) == 0;
    if (!ok) {
        tt_sim_result r;
        config_error(&r, "%s (%ld)", "cannot allocate the workers' memory", 0);
        for (int i = 0; L.workers && i < nw; i++)
            tt_sim_worker_fini(&L.workers[i]);
        free(L.workers);
        return r;
    }

    install_handlers(&L);
    /* worker 0 runs on the calling thread; the others on pool threads */
    L.workers[0].os_thread = pthread_self();
    L.nrunning = 1 + pool_start(L.workers + 1, nw - 1, nw <= ncpu);
    int armed = cfg->timeout_s > 0 && watchdog_arm(&L);

    worker_main(&L.workers[0]);

    pool_wait();
    if (armed)
        watchdog_disarm();
    restore_handlers();
    if (L.failed)
        symbolize(&L);
    uint64_t rg_blocks = 0;
    for (int i = 0; i < nw; i++) {
        rg_blocks += L.workers[i].rg_blocks;
        tt_sim_worker_fini(&L.workers[i]);
    }
    free(L.workers);
    pthread_mutex_destroy(&L.mu);
    if (poison_msg)
        snprintf(poison_msg, 512, "%s", L.poison_msg);
    if (!L.failed) {
        memset(&L.result, 0, sizeof L.result);
        L.result.status = TT_SIM_OK;
        L.result.schedule = sched;
        snprintf(L.result.notes, sizeof L.result.notes, "%s", L.notes);
    } else {
        size_t len = strlen(L.result.message);
        snprintf(L.result.message + len, sizeof L.result.message - len,
                 "\n  (kernel %s, schedule %s, warp %d)", k->name ? k->name : "?",
                 sched_name(sched), cfg->warp);
    }
    L.result.region_blocks = rg_blocks;
    return L.result;
}

/* The cfg's ns schedules, buffers restored between them and compared after each;
 * the first schedule's results stay in the buffers.  *poison_msg as run_schedule's
 * (the first schedule's that poisoned). */
static tt_sim_result run_schedules(const tt_sim_kernel *k, int batched, const tt_sim_config *cfg,
                                   int ns, uint64_t poison, char *poison_msg)
{
    const tt_sim_config c = *cfg;
    tt_sim_result r;
    char pm[512] = "";
    if (poison_msg)
        poison_msg[0] = 0;
    if (ns == 1)
        return run_schedule(k, batched, &c, c.nschedules < 1 ? TT_SIM_SCHED_FORWARD : c.schedules[0],
                            poison, poison_msg);

    void *before = tt_sim_mem_snapshot();
    void *first = NULL;
    uint64_t rg_blocks = 0;
    for (int i = 0; i < ns; i++) {
        if (i > 0)
            tt_sim_mem_restore(before);
        r = run_schedule(k, batched, &c, c.schedules[i], poison, pm);
        if (poison_msg && !poison_msg[0])
            memcpy(poison_msg, pm, sizeof pm);
        r.region_blocks = rg_blocks += r.region_blocks;
        if (r.status != TT_SIM_OK)
            break;
        void *after = tt_sim_mem_snapshot();
        if (i == 0) {
            first = after;
            continue;
        }
        char diff[512];
        int d = tt_sim_mem_compare(first, after, c.schedule_rtol, diff, sizeof diff);
        tt_sim_mem_snapshot_free(after);
        if (d) {
            r.status = TT_SIM_ERR_SCHEDULE_DEPENDENT;
            r.schedule = c.schedules[i];
            snprintf(r.message, sizeof r.message,
                     "schedule-dependent: outputs of the %s and %s lane schedules differ: %s "
                     "(a missing barrier or a race between threads)\n  (kernel %s, warp %d)",
                     sched_name(c.schedules[0]), sched_name(c.schedules[i]), diff,
                     k->name ? k->name : "?", c.warp);
            break;
        }
    }
    /* leave the first schedule's results in the buffers */
    if (first)
        tt_sim_mem_restore(first);
    tt_sim_mem_snapshot_free(first);
    tt_sim_mem_snapshot_free(before);
    return r;
}


/* TT_SIM_INACTIVE_COMPARE: a run with POISON_A; when it poisoned a read, a second
 * run from the same buffers with POISON_B.  Buffers that differ mean the undefined
 * read reaches the results: the launch fails naming the read.  Else it succeeds
 * with a warning.  The first run's results stay in the buffers. */
static tt_sim_result run_poisoned_twice(const tt_sim_kernel *k, int batched, const tt_sim_config *c,
                                        int ns)
{
    char pm[512];
    void *before = tt_sim_mem_snapshot();
    tt_sim_result r = run_schedules(k, batched, c, ns, POISON_A, pm);
    if (r.status != TT_SIM_OK || !pm[0]) {
        tt_sim_mem_snapshot_free(before);
        return r;
    }
    void *first = tt_sim_mem_snapshot();
    tt_sim_mem_restore(before);
    char pm2[512];
    tt_sim_result r2 = run_schedules(k, batched, c, ns, POISON_B, pm2);
    if (r2.status == TT_SIM_OK) {
        void *second = tt_sim_mem_snapshot();
        char diff[512];
        int d = tt_sim_mem_compare(first, second, 0.0, diff, sizeof diff);
        tt_sim_mem_snapshot_free(second);
        if (d) {
            r.status = TT_SIM_ERR_INACTIVE_LANE_READ;
            snprintf(r.message, sizeof r.message,
                     "%s\n  the value read is undefined and reaches the outputs: with two poison "
                     "values the outputs differ: %s\n  (kernel %s, warp %d)",
                     pm, diff, k->name ? k->name : "?", c->warp);
        } else {
            char text[700];
            snprintf(text, sizeof text, "%s (undefined, but no output depends on it: two poison "
                     "values gave the same outputs)", pm);
            char note[800];
            snprintf(note, sizeof note, "tt_sim: warning: %s\n", text);
            size_t have = strlen(r.notes);
            if (have + strlen(note) < sizeof r.notes)
                memcpy(r.notes + have, note, strlen(note) + 1);
        }
    } else {
        r = r2; /* the second poison made it fail otherwise (an index, a loop bound) */
    }
    tt_sim_mem_restore(first);
    tt_sim_mem_snapshot_free(first);
    tt_sim_mem_snapshot_free(before);
    return r;
}

static tt_sim_result launch(const tt_sim_kernel *k, int batched, const tt_sim_config *cfg)
{
    tt_sim_result r;
    memset(&r, 0, sizeof r);
    if (cfg->warp != 32 && cfg->warp != 64) {
        config_error(&r, "%swarp must be 32 or 64, not %ld", "", cfg->warp);
        return r;
    }
    if (k->warp != cfg->warp) {
        config_error(&r, "kernel %s was compiled with TT_SIM_WARP %ld but launched with a "
                     "different warp width", k->name ? k->name : "?", k->warp);
        return r;
    }
    uint64_t nt = (uint64_t)cfg->block.x * cfg->block.y * cfg->block.z;
    if (nt == 0 || nt > TT_SIM_MAX_THREADS || !cfg->grid.x || !cfg->grid.y || !cfg->grid.z) {
        config_error(&r, "%sblock must have 1..1024 threads and grid >= 1 (block has %ld)", "",
                     (long)nt);
        return r;
    }
    int ns = cfg->nschedules < 1 ? 1 : cfg->nschedules > TT_SIM_MAX_SCHEDULES ? TT_SIM_MAX_SCHEDULES
                                                                             : cfg->nschedules;
    tt_sim_config c = *cfg;
    if (c.stack_size < 16 * 1024)
        c.stack_size = 16 * 1024;
    if (c.inactive_read == TT_SIM_INACTIVE_COMPARE)
        return run_poisoned_twice(k, batched, &c, ns);
    return run_schedules(k, batched, &c, ns, POISON_A, NULL);
}

tt_sim_result tt_sim_launch(const tt_sim_kernel *k, const tt_sim_config *cfg)
{
    return launch(k, 0, cfg);
}

tt_sim_result tt_sim_launch_batched(const tt_sim_kernel *k, const tt_sim_config *cfg)
{
    return launch(k, 1, cfg);
}

/* glibc's assert() in kernel code lands here (this definition takes
 * precedence over libc's when the runtime is linked statically): inside a
 * kernel it fails the launch with the assertion's file and line. */
void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func)
{
    tt_sim_worker *w = tt_sim_self_worker;
    if (w && w->in_kernel)
        tt_sim_fail(TT_SIM_ERR_TRAP, file, (int)line, "assertion failed: %s (in %s)", expr,
                    func ? func : "?");
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, func ? func : "?", expr);
    abort();
}
