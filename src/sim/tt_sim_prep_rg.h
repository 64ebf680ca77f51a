/* tt_sim_prep_rg.h — internal to tt_sim_prepare_source(): the region form
 * of a coroutine kernel (tt_sim_prep_rg.c; the kernel side is
 * tt_sim_region.hpp).  The driver that decides which kernels are coroutines
 * is tt_sim_prep_co.c. */
#ifndef TT_SIM_PREP_RG_H
#define TT_SIM_PREP_RG_H

#include "tt_sim_prep_chain.h"

/* The body of a kernel that tt_sim_prep_co.c makes a coroutine: its braces
 * (token indices into ts) and its chain loops, in text order. */
typedef struct tt_sim_rg_kernel {
    const toks *ts;
    const size_t *pair;
    size_t open, close;
    const tt_sim_chain_loop *ch;
    size_t nch;
    const char *const *rep; /* per token: the coroutine rewrite's replacement
                               (its `return`s: the kernel's own) */
} tt_sim_rg_kernel;

/* Appends to b the kernel's region form, to be inserted right after token
 * *at (set here: the body's `{`, or the `;` of the last __shared__
 * declaration it starts with), and returns 1; the text keeps every line
 * after it where it was (#line).  Returns 0, b unchanged, when the kernel
 * has none (see tt_sim_prep_rg.c for which kernels do); -1 when out of
 * memory. */
int tt_sim_rg_put(sbuf *b, const tt_sim_rg_kernel *k, size_t *at);

#endif
