/* Unit tests of the spec expression language (src/checker/expr.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "checker/expr.h"

static char *names[] = {"n", "threads", "tile"};
static int64_t values[] = {100003, 256, 16};
static const tt_check_env env = {names, values, 3};

static int64_t ev(const char *s) {
  int64_t v = -999;
  tt_check_expr_err e;
  cr_assert_eq(tt_check_expr_eval(s, strlen(s), &env, &v, &e), 0, "'%s' failed: %s", s, e.msg);
  return v;
}

static tt_check_expr_err bad(const char *s) {
  int64_t v;
  tt_check_expr_err e;
  cr_assert_eq(tt_check_expr_eval(s, strlen(s), &env, &v, &e), -1, "'%s' should fail", s);
  return e;
}

Test(expr, arithmetic_and_precedence) {
  cr_assert_eq(ev("1 + 2 * 3"), 7);
  cr_assert_eq(ev("(1 + 2) * 3"), 9);
  cr_assert_eq(ev("-4 + 10"), 6);
  cr_assert_eq(ev("7 / 2"), 3);
  cr_assert_eq(ev("7 % 4"), 3);
  cr_assert_eq(ev("2 - 3 - 4"), -5);
  cr_assert_eq(ev("0x10"), 16);
}

Test(expr, names_and_functions) {
  cr_assert_eq(ev("cdiv(n, threads)"), 391);
  cr_assert_eq(ev("cdiv(256, threads)"), 1);
  cr_assert_eq(ev("min(n, threads, tile)"), 16);
  cr_assert_eq(ev("max(tile, threads)"), 256);
  cr_assert_eq(ev("tile * tile + cdiv(n, tile * tile)"), 256 + 391);
  cr_assert_eq(ev(" n "), 100003);
}

Test(expr, errors_say_what_and_where) {
  tt_check_expr_err e = bad("n + foo");
  cr_assert(strstr(e.msg, "foo"), "%s", e.msg);
  cr_assert_eq(e.offset, 4);
  e = bad("n / (tile - 16)");
  cr_assert(strstr(e.msg, "division by zero"), "%s", e.msg);
  e = bad("cdiv(n)");
  cr_assert(strstr(e.msg, "cdiv takes 2"), "%s", e.msg);
  e = bad("pow(2, 3)");
  cr_assert(strstr(e.msg, "unknown function"), "%s", e.msg);
  e = bad("(n + 1");
  cr_assert(strstr(e.msg, "')'"), "%s", e.msg);
  e = bad("n n");
  cr_assert(strstr(e.msg, "after the expression"), "%s", e.msg);
  e = bad("9223372036854775807 + 1");
  cr_assert(strstr(e.msg, "overflow"), "%s", e.msg);
  e = bad("");
  cr_assert(strstr(e.msg, "end of expression"), "%s", e.msg);
}

Test(expr, numbers_allow_float_literals) {
  int is_float;
  int64_t iv;
  double fv;
  tt_check_expr_err e;
  cr_assert_eq(tt_check_expr_number("1e-4", 4, &env, &is_float, &iv, &fv, &e), 0);
  cr_assert(is_float);
  cr_assert_float_eq(fv, 1e-4, 1e-12);
  cr_assert_eq(tt_check_expr_number("-0.5", 4, &env, &is_float, &iv, &fv, &e), 0);
  cr_assert_float_eq(fv, -0.5, 0);
  cr_assert_eq(tt_check_expr_number("tile*2", 6, &env, &is_float, &iv, &fv, &e), 0);
  cr_assert(!is_float);
  cr_assert_eq(iv, 32);
  cr_assert_eq(tt_check_expr_number("abc", 3, &env, &is_float, &iv, &fv, &e), -1);
  cr_assert_eq(tt_check_expr_number("1.5x", 4, &env, &is_float, &iv, &fv, &e), -1);
}
