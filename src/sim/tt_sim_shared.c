/* tt_sim_shared.c — the per-block shared-memory arena and its race checker.
 *
 * Static __shared__ declarations are laid out once per process, in the order
 * they first execute (like a linker lays out a section): each declaration
 * site gets an offset that is the same for every block and every worker.
 * This registry is the one process-wide mutable table of the runtime; it is
 * append-only and guarded by a mutex.
 *
 * Race check: one shadow entry per 4 arena bytes records the last write and
 * a summary of the reads since it, as stamps of the threads' intervals
 * (below).  The interval count advances at every barrier and block start, so
 * entries from earlier intervals read as empty without clearing.  Two
 * accesses by different threads in one barrier interval race unless both are
 * reads, or both threads are in one warp and that warp passed a collective or
 * __syncwarp in between.
 */
#define _GNU_SOURCE 1
#include "tt_sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct shared_decl {
    char name[64];
    const char *file;
    int line;
    size_t off, size;
} shared_decl;

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static shared_decl *reg;
static size_t reg_n, reg_cap, reg_top;

size_t tt_sim_shared_register(const char *file, int line, const char *name, size_t size,
                              size_t align)
{
    if (align < 16)
        align = 16;
    pthread_mutex_lock(&reg_mu);
    size_t off = (reg_top + align - 1) & ~(align - 1);
    if (off + size > TT_SIM_STATIC_SHARED_MAX) {
        pthread_mutex_unlock(&reg_mu);
        tt_sim_fail(TT_SIM_ERR_CONFIG, file, line,
                    "static __shared__ memory exceeds %d bytes with '%s' (%zu bytes)",
                    TT_SIM_STATIC_SHARED_MAX, name, size);
    }
    if (reg_n == reg_cap) {
        size_t cap = reg_cap ? 2 * reg_cap : 32;
        shared_decl *r = realloc(reg, cap * sizeof *r);
        if (r) {
            reg = r;
            reg_cap = cap;
        }
    }
    if (reg_n < reg_cap) {
        shared_decl *d = &reg[reg_n++];
        snprintf(d->name, sizeof d->name, "%s", name);
        d->file = file;
        d->line = line;
        d->off = off;
        d->size = size;
    }
    reg_top = off + size;
    pthread_mutex_unlock(&reg_mu);
    return off;
}

const char *tt_sim_shared_name(tt_sim_worker *w, size_t off, char *buf, size_t n)
{
    if (off >= TT_SIM_STATIC_SHARED_MAX) {
        snprintf(buf, n, "extern __shared__ +%zu", off - TT_SIM_STATIC_SHARED_MAX);
        return buf;
    }
    pthread_mutex_lock(&reg_mu);
    snprintf(buf, n, "__shared__ +%zu", off);
    for (size_t i = 0; i < reg_n; i++)
        if (off >= reg[i].off && off < reg[i].off + reg[i].size) {
            snprintf(buf, n, "__shared__ %s (byte %zu)", reg[i].name, off - reg[i].off);
            break;
        }
    pthread_mutex_unlock(&reg_mu);
    (void)w;
    return buf;
}

void tt_sim_shared_oob(const tt_sim_site *site, const char *name, long long index,
                       long long extent)
{
    tt_sim_worker *w = tt_sim_self_worker;
    if (w && !w->L->failed)
        w->L->crash_ip = __builtin_return_address(0);
    tt_sim_fail(TT_SIM_ERR_OOB, site->file, site->line,
                "out-of-bounds access to __shared__ %s: index %lld, extent %lld", name, index,
                extent);
}

/* ---------------------------------------------------------------- race check
 * Stamps (tt_sim_device.h): an access in interval ival by thread x is
 * ordered after an earlier one by y in the same barrier interval only when
 * x == y, or both are lanes of one warp and that warp's ival changed in
 * between (a collective or __syncwarp completed).  Per word the shadow
 * keeps the last write's stamp and a summary of the reads since it: none,
 * one thread (its stamp), GROUP (several lanes of one warp in one ival) or
 * SAT (lanes of several warps: any write races with one of them).  Only the
 * reads of the latest ival of a warp are kept: the warp's earlier ones are
 * ordered before whatever that warp does next, and any other warp's access
 * races with the latest one as much as with them.  The shims decide the
 * common cases inline (tt_sim_common.hpp, race_read/race_write) and call
 * tt_sim_shared_access/_store for the rest; both give the same answers as
 * the code below. */
#define CODE(s) ((uint32_t)((s) & 0xFFFF))
#define IVAL(s) ((s) >> 16)
#define IVAL_WARP(iv) ((uint32_t)((iv) & ((1u << TT_SIM_RACE_WARP_BITS) - 1)))

_Static_assert(TT_SIM_MAX_WARPS <= (1 << TT_SIM_RACE_WARP_BITS), "warp ids fit an ival");
_Static_assert(TT_SIM_MAX_THREADS < TT_SIM_RACE_GROUP, "thread codes stay below GROUP");

static void report(tt_sim_worker *w, const tt_sim_thread *me, size_t off, int my_write,
                   const tt_sim_site *site, uint32_t other, int other_write, void *myip,
                   void *oip)
{
    pthread_mutex_lock(&w->L->mu);
    if (!w->L->failed) {
        w->L->crash_ip = myip;
        w->L->other_ip = oip;
    }
    pthread_mutex_unlock(&w->L->mu);
    const tt_sim_site *prev = me->wait_site;
    char what[128];
    tt_sim_shared_name(w, off, what, sizeof what);
    const tt_sim_thread *o = other < w->blk.nthreads ? &w->threads[other] : NULL;
    char otid[64] = "several threads";
    if (o)
        snprintf(otid, sizeof otid, "thread (%u,%u,%u)", o->tid.x, o->tid.y, o->tid.z);
    char since[300] = "since the block started";
    if (prev)
        snprintf(since, sizeof since, "since %s at %s:%d", prev->what, prev->file, prev->line);
    tt_sim_fail(TT_SIM_ERR_RACE, site->file, site->line,
                "data race on %s (declared at %s:%d): %s by thread (%u,%u,%u) and %s by %s with "
                "no barrier between them (%s; block (%u,%u,%u))",
                what, site->file, site->line, my_write ? "write" : "read", me->tid.x, me->tid.y,
                me->tid.z, other_write ? "write" : "read", otid, since, w->blk.block_idx.x,
                w->blk.block_idx.y, w->blk.block_idx.z);
}

/* A store of val (size bytes at addr) that meets the earlier store of thread
 * `other` with no barrier between: no race when both are lanes of one warp and
 * the bytes are the ones already there (that lane wrote them).  Notes it. */
static int same_value_store(tt_sim_worker *w, const tt_sim_thread *me, uint32_t other,
                            const void *addr, size_t size, const void *val, size_t off,
                            const tt_sim_site *site)
{
    if (!val || other / w->blk.warp != me->warp_id || memcmp(addr, val, size) != 0)
        return 0;
    char what[128], text[400];
    tt_sim_shared_name(w, off, what, sizeof what);
    char *byte = strstr(what, " (byte"); /* one note per array and site */
    if (byte)
        *byte = 0;
    snprintf(text, sizeof text,
             "lanes of a warp store the same value to %s (declared at %s:%d) with no "
             "barrier between them: not a race (each store writes what the others wrote)",
             what, site->file, site->line);
    tt_sim_note(w->L, "note", text);
    return 1;
}

/* Whether the earlier access with stamp s (a thread's, not a read summary) is
 * ordered before the access of thread `me` with stamp m. */
static int ordered(uint64_t s, uint64_t m, uint64_t base)
{
    if (s < base || CODE(s) == CODE(m))
        return 1;
    return IVAL_WARP(IVAL(s)) == IVAL_WARP(IVAL(m)) && IVAL(s) != IVAL(m);
}

/* The reads summarised by r are all ordered before an access with stamp m. */
static int reads_ordered(uint64_t r, uint64_t m, uint64_t base)
{
    if (r < base || r == m)
        return 1;
    if (CODE(r) == TT_SIM_RACE_SAT)
        return 0;
    if (IVAL(r) == IVAL(m)) /* one warp, one interval: only my own reads are */
        return CODE(r) == CODE(m);
    return IVAL_WARP(IVAL(r)) == IVAL_WARP(IVAL(m)); /* an earlier ival of my warp */
}

/* The reads summarised by r, and a read with stamp m. */
static uint64_t reads_add(uint64_t r, uint64_t m, uint64_t base, int *first)
{
    *first = 0;
    if (r < base || (IVAL(r) != IVAL(m) && IVAL_WARP(IVAL(r)) == IVAL_WARP(IVAL(m)))) {
        *first = 1; /* none, or only ones ordered before everything this warp does now */
        return m;
    }
    if (r == m || CODE(r) == TT_SIM_RACE_SAT)
        return r;
    if (IVAL(r) == IVAL(m))
        return (m & ~(uint64_t)0xFFFF) | TT_SIM_RACE_GROUP;
    return (base & ~(uint64_t)0xFFFF) | TT_SIM_RACE_SAT;
}

static uint32_t code_thread(uint64_t s)
{
    uint32_t c = CODE(s);
    return c && c < TT_SIM_RACE_GROUP ? c - 1 : 0xFFFFFFFFu;
}

static void shadow_access(const void *addr, size_t size, int is_write, const void *val,
                          const tt_sim_site *site, void *ip)
{
    tt_sim_thread *t = tt_sim_cur;
    if (!t)
        return;
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    if (!w->shadow)
        return;
    if (w->blk.race_shadow != w->shadow) { /* a reads-only region (tt_sim_region.hpp) */
        if (is_write)
            tt_sim_rg_bail(site, "a region found to write no shared memory between two barriers "
                                 "wrote it");
        return; /* its interval holds no write: no read races */
    }
    size_t off = (size_t)((const char *)addr - w->blk.shared);
    if (off >= w->arena_bytes || size == 0)
        return;
    uint64_t m = (w->blk.race_ival[t->warp_id] << 16) | (t->linear + 1), base = w->blk.race_base;
    size_t last = (off + size - 1) / 4;
    if (last >= w->arena_bytes / 4)
        last = w->arena_bytes / 4 - 1;
    for (size_t i = off / 4; i <= last; i++) {
        tt_sim_rword *e = &w->shadow[i];
        uintptr_t *eip = &w->blk.race_ip[2 * i];
        if (!ordered(e->w, m, base) &&
            !(is_write && same_value_store(w, t, code_thread(e->w), addr, size, val, i * 4, site)))
            report(w, t, i * 4, is_write, site, code_thread(e->w), 1, ip, (void *)eip[0]);
        if (is_write) {
            if (!reads_ordered(e->r, m, base))
                report(w, t, i * 4, 1, site, code_thread(e->r), 0, ip, (void *)eip[1]);
            e->w = m;
            e->r = 0;
            eip[0] = (uintptr_t)ip;
        } else {
            int first;
            e->r = reads_add(e->r, m, base, &first);
            if (first)
                eip[1] = (uintptr_t)ip;
        }
    }
}

void tt_sim_shared_access(const void *addr, size_t size, int is_write, const tt_sim_site *site)
{
    shadow_access(addr, size, is_write, NULL, site, __builtin_return_address(0));
}

void tt_sim_shared_store(const void *addr, size_t size, const void *val, const tt_sim_site *site)
{
    shadow_access(addr, size, 1, val, site, __builtin_return_address(0));
}

void tt_sim_race_slow(const void *addr, size_t size, int is_write, const void *val,
                      const tt_sim_site *site, void *ip)
{
    shadow_access(addr, size, is_write, val, site, ip);
}

/* The pass table: the shadow a launch without the race check points its
 * blocks at (tt_sim_worker.c), so that the shims' read check needs no test of
 * whether the check is on (tt_sim_common.hpp, race_read): every entry's read
 * summary is SAT of base 0, the base of every block of such a launch (no
 * interval is ever started), so every read returns at its first compare and
 * nothing writes the table (the shims' writes and the runtime test whether
 * the check is on).  It covers the static arena, the only memory the checked
 * views reach.  Read-only after it is made, once per process. */
static pthread_once_t pass_once = PTHREAD_ONCE_INIT;
static tt_sim_rword *pass_table;

static void pass_make(void)
{
    size_t words = TT_SIM_STATIC_SHARED_MAX / 4, bytes = words * sizeof(tt_sim_rword);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    tt_sim_rword *t = p;
    for (size_t i = 0; i < words; i++)
        t[i].r = TT_SIM_RACE_SAT; /* (base 0) | SAT */
    mprotect(p, bytes, PROT_READ);
    pass_table = t;
}

const tt_sim_rword *tt_sim_race_pass_table(void)
{
    pthread_once(&pass_once, pass_make);
    return pass_table;
}

void tt_sim_note(tt_sim_run *L, const char *kind, const char *text)
{
    char line[600];
    int n = snprintf(line, sizeof line, "tt_sim: %s: %s\n", kind, text);
    pthread_mutex_lock(&L->mu);
    size_t have = strlen(L->notes);
    if (n > 0 && !strstr(L->notes, line) && have + (size_t)n < sizeof L->notes)
        memcpy(L->notes + have, line, (size_t)n + 1);
    pthread_mutex_unlock(&L->mu);
}
