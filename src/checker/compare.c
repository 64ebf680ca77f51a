/* compare.c — see compare.h. */
#include "checker/compare.h"

#include <math.h>
#include <string.h>

static void note_first(tt_check_cmp *o, size_t i, double r, double c) {
  if (o->first_bad >= 0) return;
  o->first_bad = (int64_t)i;
  o->first_ref = r;
  o->first_cand = c;
}

void tt_check_compare(tt_check_dtype t, const void *ref, const void *cand, size_t count,
                      double atol, double rtol, tt_check_cmp *out) {
  memset(out, 0, sizeof *out);
  out->count = count;
  out->first_bad = -1;
  size_t esz = tt_check_dtype_size(t);
  const unsigned char *rp = ref, *cp = cand;
  int exact = !tt_check_dtype_is_float(t) && atol == 0 && rtol == 0;
  int is_unsigned = t == TT_CHECK_U8 || t == TT_CHECK_U32 || t == TT_CHECK_U64 || t == TT_CHECK_BOOL;
  for (size_t i = 0; i < count; i++) {
    const void *re = rp + i * esz, *ce = cp + i * esz;
    if (exact) {
      /* Integers exactly, without rounding 64-bit values through a double. */
      if (memcmp(re, ce, esz) == 0) continue;
      double r = is_unsigned ? (double)tt_check_load_u64(t, re) : (double)tt_check_load_i64(t, re);
      double c = is_unsigned ? (double)tt_check_load_u64(t, ce) : (double)tt_check_load_i64(t, ce);
      double d = fabs(c - r);
      if (d > out->max_abs_err) out->max_abs_err = d;
      if (r != 0 && d / fabs(r) > out->max_rel_err) out->max_rel_err = d / fabs(r);
      out->mismatches++;
      note_first(out, i, r, c);
      continue;
    }
    double r = tt_check_load(t, re), c = tt_check_load(t, ce);
    if (!isfinite(r) || !isfinite(c)) {
      int same = (isnan(r) && isnan(c)) || (isinf(r) && isinf(c) && signbit(r) == signbit(c));
      if (!same) {
        out->mismatches++;
        note_first(out, i, r, c);
      }
      continue;
    }
    double d = fabs(c - r);
    if (d > out->max_abs_err) out->max_abs_err = d;
    if (r != 0 && d / fabs(r) > out->max_rel_err) out->max_rel_err = d / fabs(r);
    if (d > atol + rtol * fabs(r)) {
      out->mismatches++;
      note_first(out, i, r, c);
    }
  }
}
