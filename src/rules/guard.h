/* guard.h — which preprocessor branches a target compiles.
 *
 * A branch's condition is evaluated twice with three-valued logic (true, false,
 * unknown): once with the target's defines (HIP: `__HIP_PLATFORM_AMD__`, `USE_ROCM`, …)
 * and once with the source's (CUDA: `__CUDACC__`, …). A name that neither list knows
 * makes the result unknown, unless the logic settles it (`0 && x`, `1 || x`). Names
 * that a list marks undefined read as 0, as the preprocessor reads them.
 *
 * This is the one place that answers "is this range live for the target"; a semantic
 * layer (libclang, real defines) can replace tt_guard_branches without touching rules. */
#ifndef TT_GUARD_H
#define TT_GUARD_H

#include <stdbool.h>
#include <stdint.h>

#include "parser/tree.h"
#include "util/strmap.h"

/* A side's defines: `defined` maps a name to its value text ("" when the value is not
 * known); `undefined` is a set of names that side never defines. Both borrowed. */
typedef struct tt_guard_env {
  const tt_strmap *defined, *undefined;
  const char *const *extra_defined; /* more defined names (value unknown), e.g. from the config */
  size_t n_extra_defined;
} tt_guard_env;

typedef enum { TT_TRI_FALSE = 0, TT_TRI_TRUE = 1, TT_TRI_UNKNOWN = 2 } tt_tri;

/* One branch body of an #if/#ifdef/#elif/#else chain, and whether each side compiles
 * it (nesting included: a branch inside a dead branch is dead). */
typedef struct tt_guard_branch {
  uint32_t dir_start;      /* the directive (`#if …`, `#else`) runs from here to `start` */
  uint32_t start, end;     /* bytes of the branch body */
  tt_tri target, source;   /* compiled by the target / by the source */
} tt_guard_branch;

/* Every branch body of `tree`, outermost first. Caller frees *out. */
void tt_guard_branches(const tt_tree *tree, const tt_guard_env *target, const tt_guard_env *source,
                       tt_guard_branch **out, size_t *n_out);

/* The names that local headers (`#include "…"` beside the file, three levels deep)
 * `#define` where only the target compiles them (a target-only branch, or a header
 * included from one): such a name is the header's business on the target. Adds them
 * to `names` (values ""). */
void tt_guard_target_redefines(const tt_tree *tree, const tt_guard_env *target, const tt_guard_env *source,
                               tt_strmap *names);

#endif
