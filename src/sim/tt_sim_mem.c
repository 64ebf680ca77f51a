/* tt_sim_mem.c — device buffers with guard pages, and their snapshots.
 *
 * Each buffer is its own mapping: [pad | data | guard page].  The data ends
 * exactly at the guard page (the start is aligned to the largest power of
 * two <= 16 dividing the size), so any access past the end faults; the fault
 * handler (tt_sim_launch.c) asks tt_sim_mem_classify() which buffer it was.
 *
 * The buffer table is process-wide (buffers outlive launches, like
 * cudaMalloc memory).  Writers take the mutex; the fault handler reads it
 * without locking (buffers are not created during a launch).
 */
#define _GNU_SOURCE 1
#include "tt_sim_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct buffer {
    char *map;
    size_t map_size;
    char *data;
    size_t bytes;
    char *guard;
    char name[64];
    tt_sim_elem elem;
} buffer;

static pthread_mutex_t mem_mu = PTHREAD_MUTEX_INITIALIZER;
static buffer *bufs;
static size_t nbufs, capbufs;

static size_t pagesz(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

void *tt_sim_alloc(size_t bytes)
{
    size_t ps = pagesz();
    size_t body = (bytes + 16 + ps - 1) & ~(ps - 1);
    size_t total = body + ps;
    char *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *guard = m + body;
    if (mprotect(guard, ps, PROT_NONE) != 0) {
        munmap(m, total);
        return NULL;
    }
    size_t align = 16;
    while (align > 1 && (bytes & (align - 1)))
        align >>= 1;
    char *data = (char *)(((uintptr_t)guard - bytes) & ~(uintptr_t)(align - 1));
    pthread_mutex_lock(&mem_mu);
    if (nbufs == capbufs) {
        size_t cap = capbufs ? 2 * capbufs : 16;
        buffer *b = realloc(bufs, cap * sizeof *b);
        if (!b) {
            pthread_mutex_unlock(&mem_mu);
            munmap(m, total);
            errno = ENOMEM;
            return NULL;
        }
        bufs = b;
        capbufs = cap;
    }
    buffer *b = &bufs[nbufs];
    memset(b, 0, sizeof *b);
    b->map = m;
    b->map_size = total;
    b->data = data;
    b->bytes = bytes;
    b->guard = guard;
    snprintf(b->name, sizeof b->name, "buffer#%zu", nbufs);
    nbufs++;
    pthread_mutex_unlock(&mem_mu);
    return data;
}

static buffer *find_locked(const void *p)
{
    const char *c = p;
    for (size_t i = 0; i < nbufs; i++)
        if (c >= bufs[i].data && c < bufs[i].data + (bufs[i].bytes ? bufs[i].bytes : 1))
            return &bufs[i];
    return NULL;
}

void tt_sim_free(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&mem_mu);
    for (size_t i = 0; i < nbufs; i++)
        if (bufs[i].data == p) {
            munmap(bufs[i].map, bufs[i].map_size);
            bufs[i] = bufs[nbufs - 1];
            nbufs--;
            break;
        }
    pthread_mutex_unlock(&mem_mu);
}

int tt_sim_buffer_describe(void *p, const char *name, tt_sim_elem elem)
{
    pthread_mutex_lock(&mem_mu);
    buffer *b = find_locked(p);
    if (b) {
        if (name)
            snprintf(b->name, sizeof b->name, "%s", name);
        b->elem = elem;
    }
    pthread_mutex_unlock(&mem_mu);
    return b ? 0 : -1;
}

size_t tt_sim_buffer_size(const void *p)
{
    pthread_mutex_lock(&mem_mu);
    buffer *b = find_locked(p);
    size_t n = b ? b->bytes : 0;
    pthread_mutex_unlock(&mem_mu);
    return n;
}

int tt_sim_mem_classify(const void *addr, tt_sim_buffer_info *out)
{
    const char *a = addr;
    size_t ps = pagesz();
    for (size_t i = 0; i < nbufs; i++) {
        buffer *b = &bufs[i];
        if (a >= b->guard && a < b->guard + ps) {
            out->name = b->name;
            out->bytes = b->bytes;
            out->offset = (size_t)(a - b->data);
            out->found = 1;
            return 1;
        }
        if (a >= b->map && a < b->data) { /* before the start, inside the mapping */
            out->name = b->name;
            out->bytes = b->bytes;
            out->offset = (size_t)(a - b->data); /* wraps: negative */
            out->found = 2;
            return 1;
        }
    }
    out->found = 0;
    return 0;
}

/* ------------------------------------------------------------ snapshots */

typedef struct snap_entry {
    char *data;
    size_t bytes;
    char *copy;
    char name[64];
    tt_sim_elem elem;
} snap_entry;

typedef struct snapshot {
    size_t n;
    snap_entry e[];
} snapshot;

void *tt_sim_mem_snapshot(void)
{
    pthread_mutex_lock(&mem_mu);
    snapshot *s = malloc(sizeof *s + nbufs * sizeof(snap_entry));
    if (s) {
        s->n = 0;
        for (size_t i = 0; i < nbufs; i++) {
            snap_entry *e = &s->e[s->n];
            e->data = bufs[i].data;
            e->bytes = bufs[i].bytes;
            e->elem = bufs[i].elem;
            memcpy(e->name, bufs[i].name, sizeof e->name);
            e->copy = malloc(e->bytes ? e->bytes : 1);
            if (!e->copy)
                continue;
            memcpy(e->copy, e->data, e->bytes);
            s->n++;
        }
    }
    pthread_mutex_unlock(&mem_mu);
    return s;
}

void tt_sim_mem_restore(void *snap)
{
    snapshot *s = snap;
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        memcpy(s->e[i].data, s->e[i].copy, s->e[i].bytes);
}

void tt_sim_mem_snapshot_free(void *snap)
{
    snapshot *s = snap;
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->e[i].copy);
    free(s);
}

static double half_to_double(uint16_t h, int bf16)
{
    if (bf16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static int close_enough(double a, double b, double rtol)
{
    if (a == b || (isnan(a) && isnan(b)))
        return 1;
    double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
    return d <= rtol * m || d <= 1e-30;
}

int tt_sim_mem_compare(void *snap_a, void *snap_b, double rtol, char *msg, size_t msglen)
{
    snapshot *a = snap_a, *b = snap_b;
    if (!a || !b)
        return 0;
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        snap_entry *x = &a->e[i], *y = &b->e[i];
        if (x->bytes != y->bytes || memcmp(x->copy, y->copy, x->bytes) == 0)
            continue;
        size_t es = x->elem == TT_SIM_ELEM_F64 ? 8 : x->elem == TT_SIM_ELEM_F32 ? 4
                  : x->elem == TT_SIM_ELEM_BYTES ? 1 : 2;
        for (size_t k = 0; k + es <= x->bytes; k += es) {
            if (memcmp(x->copy + k, y->copy + k, es) == 0)
                continue;
            double u = 0, v = 0;
            int exact = 0;
            switch (x->elem) {
            case TT_SIM_ELEM_F32: {
                float f, g;
                memcpy(&f, x->copy + k, 4);
                memcpy(&g, y->copy + k, 4);
                u = f, v = g;
                break;
            }
            case TT_SIM_ELEM_F64:
                memcpy(&u, x->copy + k, 8);
                memcpy(&v, y->copy + k, 8);
                break;
            case TT_SIM_ELEM_F16:
            case TT_SIM_ELEM_BF16: {
                uint16_t h, g;
                memcpy(&h, x->copy + k, 2);
                memcpy(&g, y->copy + k, 2);
                u = half_to_double(h, x->elem == TT_SIM_ELEM_BF16);
                v = half_to_double(g, x->elem == TT_SIM_ELEM_BF16);
                rtol = rtol < 1e-2 ? 1e-2 : rtol;
                break;
            }
            default:
                exact = 1;
            }
            if (exact || !close_enough(u, v, rtol)) {
                if (exact)
                    snprintf(msg, msglen, "%s differs at byte %zu (0x%02x vs 0x%02x)", x->name, k,
                             (unsigned char)x->copy[k], (unsigned char)y->copy[k]);
                else
                    snprintf(msg, msglen, "%s differs at element %zu (%.9g vs %.9g)", x->name,
                             k / es, u, v);
                return 1;
            }
        }
    }
    return 0;
}
