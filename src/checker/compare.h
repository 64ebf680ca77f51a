/* compare.h — element-wise comparison of one output buffer, reference vs candidate.
 *
 * Owned by the checker. An element mismatches when |cand - ref| > atol + rtol*|ref|
 * (numpy.allclose's rule, the reference on the right). NaN and Inf are mismatches
 * unless both sides hold the same class (NaN and NaN, +Inf and +Inf); they never feed
 * the max errors, so those stay finite numbers a report can print and JSON can hold.
 * Integer types compare exactly unless the spec set a tolerance. */
#ifndef TT_CHECK_COMPARE_H
#define TT_CHECK_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "checker/dtype.h"

typedef struct tt_check_cmp {
  size_t count;        /* elements compared */
  size_t mismatches;
  double max_abs_err;  /* over finite pairs */
  double max_rel_err;  /* |cand - ref| / |ref| over finite pairs with ref != 0 */
  int64_t first_bad;   /* index of the first mismatch, -1 when none */
  double first_ref, first_cand;
} tt_check_cmp;

void tt_check_compare(tt_check_dtype t, const void *ref, const void *cand, size_t count,
                      double atol, double rtol, tt_check_cmp *out);

#endif
