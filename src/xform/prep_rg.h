/* prep_rg.h — internal to tt_xf_prepare_source(): the region form
 * of a coroutine kernel (prep_rg.c; the kernel side is
 * tt_sim_region.hpp).  The driver that decides which kernels are coroutines
 * is prep_co.c. */
#ifndef TT_XF_PREP_RG_H
#define TT_XF_PREP_RG_H

#include "prep_chain.h"
#include "prep_ro.h"

/* The body of a kernel that prep_co.c makes a coroutine: its braces
 * (token indices into ts) and its chain loops, in text order. */
typedef struct tt_xf_rg_kernel {
    const toks *ts;
    const size_t *pair;
    size_t open, close;
    const tt_xf_chain_loop *ch;
    size_t nch;
    const char **rep;       /* per token: the coroutine rewrite's replacement
                               (its `return`s: the kernel's own); where it
                               makes a form, tt_xf_rg_put writes "" over the
                               tokens of the __shared__ declarations it moves
                               in front of it */
    tt_xf_rg_names *names;  /* the file's, shared by its kernels */
} tt_xf_rg_kernel;

/* Appends to b the kernel's region form, to be inserted right after token
 * *at (set here: the body's `{`, or the `;` of the last __shared__
 * declaration it starts with), and returns 1; the text keeps every line
 * after it where it was (#line).  A __shared__ declaration of a split scope
 * further down goes in front of the form, for both forms (k->rep blanks it
 * where it was).  Returns 0, b unchanged, when the kernel
 * has none (see prep_rg.c for which kernels do); -1 when out of
 * memory. */
int tt_xf_rg_put(sbuf *b, const tt_xf_rg_kernel *k, size_t *at);

#endif
