/* prep_chain.h — internal to tt_xf_prepare_source(): recognising
 * and emitting shuffle-chain loops (prep_chain.c).  The driver that
 * decides where each recognised loop goes, and in which form, is
 * prep_co.c. */
#ifndef TT_XF_PREP_CHAIN_H
#define TT_XF_PREP_CHAIN_H

#include "prep_tok.h"

/* The shuffle call of a chain loop. */
typedef struct tt_xf_chain_call {
    size_t s, e;  /* tokens [s, e) */
    size_t name;  /* NAME or M: the shuffle's line */
    size_t open;  /* its `(`; e - 1 is the `)` */
    int value;    /* index of the value argument */
} tt_xf_chain_call;

/* A recognised loop `for (H) x op= SHFL(x, ...);` or `for (H) x = EXPR;`
 * (token indices into the toks it was recognised in). */
typedef struct tt_xf_chain_loop {
    size_t kw;     /* the `for` */
    size_t hs, he; /* header [hs, he) */
    size_t bs, be; /* body [bs, be); be - 1 is the loop's last token */
    size_t x;      /* the value, a single identifier */
    size_t op;     /* its `+=`... or `=` */
    size_t es, ee; /* EXPR [es, ee) of `X = EXPR;`; empty for `X op= CALL;` */
    tt_xf_chain_call c;
} tt_xf_chain_loop;

/* Names that shuffle, vote or synchronise (prefixes): a chain's probe loop
 * must not run them, and a coroutine kernel may name no others than
 * __syncthreads[_count|_and|_or]. */
extern const char *const tt_xf_chain_collectives[];

/* Whether the `for` token k starts a chain loop; fills *ch if so.  The
 * fallback loop of an emitted chain (`if (!tt_sim_cd_) for ...`) is not
 * one, so that preparing prepared text changes nothing. */
int tt_xf_chain_match(const toks *ts, size_t k, tt_xf_chain_loop *ch);

/* Appends the rewrite of the loop: on one line, on the line of its shuffle,
 * with the loop's other newlines before and after it.  co = 0: the fiber
 * form; co = 1: the form for coroutine kernels (TT_SIM_CO_CHAIN).  Both are
 * in tt_sim.h. */
void tt_xf_chain_put(sbuf *b, const toks *ts, const tt_xf_chain_loop *ch, int co);

/* Appends a half of the loop's region form (tt_sim_region.hpp), on one
 * line: var < 0, a thread's arrival (::tt_sim::rg_arrive); else the fused run
 * after the loop over the threads, on the value's per-thread array
 * tt_sim_rg_<var>_ (::tt_sim::rg_chain).  steps >= 0: both name the steps
 * recorded once, tt_sim_rs_<steps>_ (see tt_xf_chain_uniform). */
void tt_xf_chain_put_rg(sbuf *b, const toks *ts, const tt_xf_chain_loop *ch, int var,
                         int steps);

/* Whether the loop's steps are the same for every block and launch: its
 * header and the shuffle's other arguments name nothing but numbers,
 * operators, warpSize, sizeof, int/unsigned/long and the variables its init
 * assigns (a lane's steps then depend on its lane alone). */
int tt_xf_chain_uniform(const toks *ts, const tt_xf_chain_loop *ch);

#endif
