/* prep_co.h — internal to tt_xf_prepare_source(): its token-based
 * rewrites, shuffle-chain loops and coroutine kernels (prep_co.c,
 * which owns the walk over the file; the chain forms are
 * prep_chain.c's). */
#ifndef TT_XF_PREP_CO_H
#define TT_XF_PREP_CO_H

#include "prep_tok.h"

/* Appends text[0, len) to *out with every recognised shuffle-chain loop
 * rewritten and every eligible __global__ kernel made a coroutine (see
 * tt_xf_prepare_source in tt_sim.h); everything else is copied byte for
 * byte and no line moves.  Returns 0, or -1 when out of memory (out->oom is
 * then set as well). */
int tt_xf_prep_co(const char *text, size_t len, sbuf *out);

#endif
