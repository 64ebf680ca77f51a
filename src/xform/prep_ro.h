/* prep_ro.h — internal to tt_xf_prepare_source(): whether a stretch of a
 * kernel surely writes no shared memory (prep_ro.c), for the reads-only
 * loops of the region form (prep_rg.c). */
#ifndef TT_XF_PREP_RO_H
#define TT_XF_PREP_RO_H

#include "prep_tok.h"
#include "util/strmap.h"

/* What the file's names are (prep_ro.c, file_kind): its __shared__ arrays
 * and macros, read once per file by the first kernel that asks.  The
 * caller zero-initialises it and frees it with tt_xf_rg_names_free. */
typedef struct tt_xf_rg_names {
    tt_strmap map;
    int made;
} tt_xf_rg_names;

void tt_xf_rg_names_free(tt_xf_rg_names *n);

/* One kernel: its tokens and bracket pairs (borrowed), its body's braces,
 * the file's names; params (owned, freed by tt_xf_ro_free) is filled on
 * first use. */
typedef struct tt_xf_ro {
    const toks *ts;
    const size_t *pair;
    size_t open, close;
    tt_xf_rg_names *names;
    tt_strmap params; /* its pointer parameters into global memory */
    int params_made;
} tt_xf_ro;

/* What the file's names say token i is: 's' a __shared__ array, 'w' a
 * macro that may write, 'p' one that surely does not, 0 none of them. */
char tt_xf_ro_file_kind(tt_xf_ro *r, size_t i);
/* Whether the kernel's tokens [a, z) surely write no shared memory. */
int tt_xf_ro_writes_nothing(tt_xf_ro *r, size_t a, size_t z);
void tt_xf_ro_free(tt_xf_ro *r);

#endif
