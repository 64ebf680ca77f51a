/* consts.h — integer constants a file defines, so rules see through `#define WARP 32`.
 *
 * Collected from `#define NAME value` and `const`/`constexpr` integer declarations at
 * file scope, in the file itself and in the local headers it includes with quotes
 * (one level deep, next to the file). Values are evaluated on demand as C constant
 * expressions over integers. A name defined twice with different values (in per-platform
 * `#if` branches, say) has no known value. */
#ifndef TT_CONSTS_H
#define TT_CONSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parser/tree.h"
#include "util/strmap.h"

typedef struct tt_consts {
  tt_strmap defs; /* name → expression text */
} tt_consts;

/* Collects the constants of `tree` (and its local includes). Caller frees with
 * tt_consts_free. */
tt_consts *tt_consts_build(const tt_tree *tree);
void tt_consts_free(tt_consts *c);

/* Evaluates `text` (n bytes) as an integer constant expression: literals, names from
 * `c` (may be NULL), parentheses, unary - ~ !, and binary * / % + - << >> & ^ |.
 * Returns false when it is not one (unknown name, division by zero, other syntax). */
bool tt_consts_eval(const tt_consts *c, const char *text, size_t n, int64_t *out);

#endif
