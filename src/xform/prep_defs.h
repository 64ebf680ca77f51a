/* prep_defs.h — internal to tt_xf_prepare_source(): what a source
 * defines and which of it blocks (prep_defs.c), read by the
 * coroutine-kernel rewrite (prep_co.c).
 *
 * Ownership: a tt_xf_defs borrows the toks and bracket pairs it was built
 * from and owns everything else (tt_xf_defs_free).  Token indices refer to
 * those toks.  "Nodes" are names: all definitions of one name are one node,
 * a macro name is another. */
#ifndef TT_XF_PREP_DEFS_H
#define TT_XF_PREP_DEFS_H

#include "prep_tok.h"

/* A function definition at namespace or class scope, or a namespace-scope
 * `NAME = [...](...) {...}` (then popen is TOK_NONE). */
typedef struct tt_xf_def {
    size_t head, name;  /* first token of the declaration; the name */
    size_t popen;       /* the parameters' `(` */
    size_t open, close; /* body braces */
    size_t vtok;        /* kernels: the `void` before the name, or TOK_NONE */
    int kernel;         /* __global__ */
    int host;           /* a function without __device__ or __global__ */
    int node;
} tt_xf_def;

/* A __global__ declaration that is not a definition (a prototype or an
 * explicit instantiation) whose `void` was found. */
typedef struct tt_xf_kdecl {
    size_t name, vtok;
} tt_xf_kdecl;

typedef struct tt_xf_defs {
    const toks *ts;
    const size_t *pair;
    tt_xf_def *fn; /* in text order */
    size_t nfn;
    tt_xf_kdecl *kd;
    size_t nkd;
    unsigned char *decl_name; /* per token: the name of a definition or kdecl */
    int nnodes;
    /* per node: a definition or macro of the name blocks, or names
     * something that does (transitively); a macro of the name expands,
     * through other macros, to `return` or a word of tt_xf_defs_never_name;
     * the name has a kernel definition; nothing in the file's declarations
     * rules the name out as a coroutine kernel (prep_co.c clears it
     * further) */
    unsigned char *blocking, *bad_macro, *has_kernel, *kernel_ok;
    int poison_all; /* a __global__ declaration that names nothing readable */
    int oom;
    /* private to prep_defs.c */
    struct tt_xf_macro *mac;
    struct tt_xf_name *ent;
    struct tt_xf_edge *ed;
    size_t cfn, ckd, nmac, cmac, nent, ned, ced;
} tt_xf_defs;

/* Fills *d (zeroed by the caller) from ts and its bracket pairs
 * (tt_xf_tok_pairs).  Returns 0, or -1 when out of memory. */
int tt_xf_defs_build(tt_xf_defs *d, const toks *ts, const size_t *pair);
void tt_xf_defs_free(tt_xf_defs *d);

/* The definition node named s[0, l), or -1. */
int tt_xf_defs_node(const tt_xf_defs *d, const char *s, size_t l);
/* Whether naming s[0, l) in a kernel keeps it off coroutines: a same-file
 * definition or macro of that name blocks, or such a macro expands to a
 * word a coroutine cannot hold. */
int tt_xf_defs_name_bad(const tt_xf_defs *d, const char *s, size_t l);

/* Names that block wherever they are written: warp collectives (including
 * __syncthreads*), cooperative groups, AMD wave barriers. */
int tt_xf_defs_blocks_name(const char *s, size_t l);
/* A blocking member call at token i: `.sync(`, `->shfl_down(`... */
int tt_xf_defs_blocking_member(const toks *ts, size_t i);
/* Words a coroutine kernel cannot hold (co_ keywords, setjmp/longjmp, asm,
 * alloca) or that mark text already prepared (TT_SIM_CO_...). */
int tt_xf_defs_never_name(const char *s, size_t l);

/* Whether the `[` at i is where a lambda may start (not a subscript). */
int tt_xf_defs_lambda_at(const toks *ts, size_t i);
/* For a `[` where a lambda may start: the index of the lambda's body `{`;
 * TOK_NONE when it is not a lambda; i itself when it looks like one that
 * cannot be read. */
size_t tt_xf_defs_lambda_body(const toks *ts, const size_t *pair, size_t i);

#endif
