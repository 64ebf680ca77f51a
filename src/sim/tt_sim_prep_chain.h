/* tt_sim_prep_chain.h — internal to tt_sim_prepare_source(): the growable
 * output buffer both of its rewrites write into, and the shuffle-chain
 * rewrite (tt_sim_prep_chain.c). */
#ifndef TT_SIM_PREP_CHAIN_H
#define TT_SIM_PREP_CHAIN_H

#include <stdlib.h>
#include <string.h>

/* A NUL-terminated growing text.  After an allocation failure `oom` is set
 * and further appends are dropped, so callers check once at the end. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static inline void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static inline void sb_puts(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

/* Appends text[0, len) to *out with every recognised shuffle-chain loop
 * rewritten (see tt_sim_prepare_source in tt_sim.h); everything else is
 * copied byte for byte and no line moves.  Returns 0, or -1 when out of
 * memory (out->oom is then set as well). */
int tt_sim_prep_chains(const char *text, size_t len, sbuf *out);

#endif
