/* Unit tests of output comparison (src/checker/compare.c). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "checker/compare.h"

Test(compare, within_tolerance) {
  float ref[4] = {1, 2, 3, 4}, cand[4] = {1, 2.001f, 3, 4};
  tt_check_cmp c;
  tt_check_compare(TT_CHECK_F32, ref, cand, 4, 1e-3, 1e-3, &c);
  cr_assert_eq(c.mismatches, 0);
  cr_assert_eq(c.count, 4);
  cr_assert_float_eq(c.max_abs_err, 0.001, 1e-6);
  cr_assert_float_eq(c.max_rel_err, 0.0005, 1e-6);
  cr_assert_eq(c.first_bad, -1);
}

Test(compare, beyond_tolerance_counts_and_locates) {
  float ref[5] = {1, 2, 3, 0, 5}, cand[5] = {1, 2, 3.5f, 0.01f, 5};
  tt_check_cmp c;
  tt_check_compare(TT_CHECK_F32, ref, cand, 5, 1e-3, 1e-3, &c);
  cr_assert_eq(c.mismatches, 2);
  cr_assert_eq(c.first_bad, 2);
  cr_assert_float_eq(c.first_ref, 3, 0);
  cr_assert_float_eq(c.first_cand, 3.5, 0);
  cr_assert_float_eq(c.max_abs_err, 0.5, 1e-6);
  /* ref == 0 contributes no relative error: it would be infinite. */
  cr_assert_float_eq(c.max_rel_err, 0.5 / 3, 1e-6);
}

Test(compare, nan_and_inf_only_match_themselves) {
  double ref[6] = {NAN, INFINITY, -INFINITY, 1, NAN, INFINITY};
  double cand[6] = {NAN, INFINITY, -INFINITY, NAN, 1, -INFINITY};
  tt_check_cmp c;
  tt_check_compare(TT_CHECK_F64, ref, cand, 6, 1, 1, &c);
  cr_assert_eq(c.mismatches, 3, "got %zu", c.mismatches);
  cr_assert_eq(c.first_bad, 3);
  cr_assert(isfinite(c.max_abs_err) && isfinite(c.max_rel_err), "max errors stay finite");
}

Test(compare, integers_exact_by_default) {
  int32_t ref[3] = {5, 6, 7}, cand[3] = {5, 7, 7};
  tt_check_cmp c;
  tt_check_compare(TT_CHECK_I32, ref, cand, 3, 0, 0, &c);
  cr_assert_eq(c.mismatches, 1);
  cr_assert_eq(c.first_bad, 1);
  cr_assert_float_eq(c.max_abs_err, 1, 0);
  uint64_t big_r[1] = {(1ull << 60) + 1}, big_c[1] = {(1ull << 60)};
  tt_check_compare(TT_CHECK_U64, big_r, big_c, 1, 0, 0, &c);
  cr_assert_eq(c.mismatches, 1, "64-bit integers are not rounded through double");
}

Test(compare, integer_with_spec_tolerance) {
  int32_t ref[2] = {100, 200}, cand[2] = {101, 200};
  tt_check_cmp c;
  tt_check_compare(TT_CHECK_I32, ref, cand, 2, 1, 0, &c);
  cr_assert_eq(c.mismatches, 0);
}

Test(compare, half_precision) {
  uint16_t ref[2] = {0x3c00, 0x4000}, cand[2] = {0x3c01, 0x4000}; /* 1.0 vs 1.000977 */
  tt_check_cmp c;
  tt_check_compare(TT_CHECK_F16, ref, cand, 2, 1e-2, 1e-2, &c);
  cr_assert_eq(c.mismatches, 0);
  tt_check_compare(TT_CHECK_F16, ref, cand, 2, 1e-4, 1e-4, &c);
  cr_assert_eq(c.mismatches, 1);
}
