/* prep_own.h — renames a source's own overloads of the shims' macro
 * warp functions.
 *
 * The shims define __shfl, __shfl_xor, __ballot, ... (and their _sync
 * forms) as function-like macros, so that each call passes its site.  A
 * declaration `__device__ T __shfl_xor(T v, int m, int w = warpSize)` of an
 * overload for a type the vendor lacks (HIP 5.2 has no bf16 shuffles) would
 * then expand as a call.  Such a declaration is renamed
 * `tt_sim_own___shfl_xor`, which nothing calls: every call reaches the shim,
 * whose shuffle moves any trivially copyable value whole, as such overloads
 * do (they move the value's bits through an int shuffle).  Only names
 * change, so lines stay; prepared text has no such declaration left, so
 * preparing it again changes nothing. */
#ifndef TT_XF_PREP_OWN_H
#define TT_XF_PREP_OWN_H

#include "prep_tok.h"

#define TT_XF_PREP_OWN_PREFIX "tt_sim_own_"

/* Appends text[0, len) to *out with those declarations renamed.  Returns 0,
 * or -1 when out of memory. */
int tt_xf_prep_own(const char *text, size_t len, sbuf *out);

#endif
