/* sig.h — finding a kernel among a program's items and reading its signature
 * (internal to src/xform; the signature itself is public, in xform.h). */
#ifndef TT_XF_SIG_H
#define TT_XF_SIG_H

#include "xform/items.h"

/* The item that defines the kernel `name` (a __global__ function definition, or a
 * template of one). Returns 0 with *item; or -1 with *err naming the kernels the
 * program has. */
int tt_xf_find_kernel(const xf_prog *p, const char *name, size_t *item, char **err);

/* Reads the kernel item's template parameters and parameters, substituting the given
 * template arguments and resolving typedefs among the program's items. Takes
 * ownership of targs (also on failure). Returns 0, or -1 with *err. */
int tt_xf_signature_read(const xf_prog *p, size_t item, const char *base, char **targs, size_t ntargs,
                         tt_xf_signature *sig, char **err);

void tt_xf_signature_free(tt_xf_signature *s);

#endif
