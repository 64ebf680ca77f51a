/* init.h — deterministic input generators for check specs.
 *
 * Owned by the checker. Both sides of a check read the very same bytes, so these run
 * once in tiletrans (not in the harness). The generator is xoshiro256** seeded
 * through splitmix64 from (seed, argument index): a spec's data depends only on its
 * seed and the argument's position, never on the machine, the libc or the order in
 * which checks run. */
#ifndef TT_CHECK_INIT_H
#define TT_CHECK_INIT_H

#include <stddef.h>
#include <stdint.h>
#include "checker/dtype.h"

typedef enum tt_check_init_kind {
  TT_CHECK_INIT_ZEROS, TT_CHECK_INIT_ONES, TT_CHECK_INIT_IOTA, TT_CHECK_INIT_CONST,
  TT_CHECK_INIT_UNIFORM, TT_CHECK_INIT_NORMAL
} tt_check_init_kind;

typedef struct tt_check_init {
  tt_check_init_kind kind;
  double a, b; /* const(a); uniform(a, b); normal(mean a, std b) */
} tt_check_init;

typedef struct tt_check_rng { uint64_t s[4]; } tt_check_rng;

void tt_check_rng_seed(tt_check_rng *r, uint64_t seed, uint64_t stream);
uint64_t tt_check_rng_next(tt_check_rng *r);
/* Uniform double in [0, 1) with 53 random bits. */
double tt_check_rng_unit(tt_check_rng *r);
/* Uniform integer in [0, n) without modulo bias; n > 0. */
uint64_t tt_check_rng_below(tt_check_rng *r, uint64_t n);

/* Parses "zeros", "ones", "iota", "const(V)", "uniform(LO, HI)", "normal(M, S)".
 * Returns 0, or -1 with a message in err (errsz bytes). */
int tt_check_init_parse(const char *text, size_t len, tt_check_init *out, char *err, size_t errsz);

/* Fills `count` elements of type t at buf. Integer types draw uniform from [LO, HI)
 * (an empty range is an error caught at parse time: LO must be < HI). */
void tt_check_init_fill(const tt_check_init *in, tt_check_dtype t, void *buf, size_t count,
                        uint64_t seed, uint64_t stream);

#endif
