/* expr.h — the integer expression language of check specs.
 *
 * Owned by the checker. `len`, `shape` entries, `value`, `constant`, launch
 * dimensions and `sizes` entries are expressions: + - * / % ( ), unary minus,
 * cdiv(a, b), min(a, b, ...), max(a, b, ...), decimal or 0x integer literals, and the
 * names defined under `sizes`. Arithmetic is 64-bit signed and checked: overflow and
 * division by zero are errors, not wrap-arounds, because a silently wrong length
 * would make a check compare the wrong number of elements. */
#ifndef TT_CHECK_EXPR_H
#define TT_CHECK_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* The names an expression may use (the spec's `sizes`, in order). */
typedef struct tt_check_env {
  char **names;
  int64_t *values;
  size_t count;
} tt_check_env;

/* Error details: message and byte offset into the expression text. */
typedef struct tt_check_expr_err {
  char msg[160];
  size_t offset;
} tt_check_expr_err;

/* Evaluates `text` (len bytes, need not be NUL-terminated). Returns 0 and sets *out,
 * or -1 and fills *err. */
int tt_check_expr_eval(const char *text, size_t len, const tt_check_env *env,
                       int64_t *out, tt_check_expr_err *err);

/* A number where floats are allowed (`value`, `constant`, init arguments): an integer
 * expression, else a float literal such as 1e-4, -0.5 or 2.0. *is_float says which. */
int tt_check_expr_number(const char *text, size_t len, const tt_check_env *env,
                         int *is_float, int64_t *ival, double *fval,
                         tt_check_expr_err *err);

/* Looks a name up in env; returns 0 and sets *out when found. */
int tt_check_env_get(const tt_check_env *env, const char *name, size_t len, int64_t *out);

#endif
