/* tt_sim_shared.c — the per-block shared-memory arena and its race checker.
 *
 * Static __shared__ declarations are laid out once per process, in the order
 * they first execute (like a linker lays out a section): each declaration
 * site gets an offset that is the same for every block and every worker.
 * This registry is the one process-wide mutable table of the runtime; it is
 * append-only and guarded by a mutex.
 *
 * Race check: one shadow entry per 4 arena bytes records the last writer and
 * reader(s) in the current epoch.  The worker's epoch advances at every
 * barrier and block start, so entries from earlier intervals read as empty
 * without clearing.  Two accesses by different threads in one interval race
 * unless both are reads, or both threads are in one warp and that warp passed
 * a collective or __syncwarp in between.
 */
#define _GNU_SOURCE 1
#include "tt_sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int synced(const tt_sim_worker *w, uint32_t other_warp, uint32_t recorded,
                  const tt_sim_thread *me)
{
    return other_warp == me->warp_id && w->warps[me->warp_id].epoch != recorded;
}

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
    (void)me;
    tt_sim_note(w->L, "note", text);
    return 1;
}

static inline __attribute__((always_inline)) void shadow_access(const void *addr, size_t size, int is_write, const void *val,
                   const tt_sim_site *site, void *ip)
{
    tt_sim_thread *t = tt_sim_cur;
    if (!t)
        return;
    tt_sim_worker *w = tt_sim_self_worker; /* = t->blk->worker, without the dependent loads */
    if (!w->shadow)
        return;
    size_t off = (size_t)((const char *)addr - w->blk.shared);
    if (off >= w->arena_bytes || size == 0)
        return;
    uint16_t me = (uint16_t)(t->linear + 1);
    uint32_t wep = w->warps[t->warp_id].epoch;
    size_t last = (off + size - 1) / 4;
    if (last >= w->arena_bytes / 4)
        last = w->arena_bytes / 4 - 1;
    for (size_t i = off / 4; i <= last; i++) {
        tt_sim_shadow *e = &w->shadow[i];
        if (e->epoch != w->epoch) {
            memset(e, 0, sizeof *e);
            e->epoch = w->epoch;
        }
        if (e->writer && e->writer != me &&
            !synced(w, (uint32_t)(e->writer - 1) / w->blk.warp, e->wwepoch, t) &&
            !(is_write && same_value_store(w, t, e->writer - 1u, addr, size, val, i * 4, site)))
            report(w, t, i * 4, is_write, site, e->writer - 1u, 1, ip, e->wip);
        if (is_write) {
            if (e->reader && e->reader != me &&
                (e->rwarp == 0xFFFF || !synced(w, e->rwarp, e->rwepoch, t)))
                report(w, t, i * 4, 1, site, e->reader == 0xFFFF ? 0xFFFFFFFFu : e->reader - 1u,
                       0, ip, e->rip);
            e->writer = me;
            e->wwepoch = wep;
            e->wip = ip;
            e->reader = 0;
        } else if (!e->reader || e->reader == me) {
            e->reader = me;
            e->rwarp = (uint16_t)t->warp_id;
            e->rwepoch = wep;
            e->rip = ip;
        } else {
            e->reader = 0xFFFF;
            if (e->rwarp != t->warp_id)
                e->rwarp = 0xFFFF;
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
