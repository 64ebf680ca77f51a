/* expr.c — recursive-descent evaluator for spec expressions (see expr.h). */
#include "checker/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *s;
  size_t len, pos;
  const tt_check_env *env;
  tt_check_expr_err *err;
  int failed;
} parser;

static void fail(parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(parser *p, size_t at, const char *fmt, ...) {
  if (p->failed) return; /* keep the first, most precise error */
  p->failed = 1;
  p->err->offset = at;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
  va_end(ap);
}

static void skip_ws(parser *p) {
  while (p->pos < p->len && isspace((unsigned char)p->s[p->pos])) p->pos++;
}

static int peek(parser *p) {
  skip_ws(p);
  return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

int tt_check_env_get(const tt_check_env *env, const char *name, size_t len, int64_t *out) {
  if (!env) return -1;
  for (size_t i = 0; i < env->count; i++) {
    if (strlen(env->names[i]) == len && memcmp(env->names[i], name, len) == 0) {
      *out = env->values[i];
      return 0;
    }
  }
  return -1;
}

static int64_t parse_expr(parser *p);

static int64_t overflowed(parser *p, size_t at) {
  fail(p, at, "integer overflow");
  return 0;
}

/* cdiv/min/max take a comma-separated argument list. */
static int64_t parse_call(parser *p, const char *name, size_t nlen, size_t at) {
  int64_t args[16];
  int n = 0;
  p->pos++; /* '(' */
  if (peek(p) != ')') {
    for (;;) {
      int64_t v = parse_expr(p);
      if (p->failed) return 0;
      if (n == 16) { fail(p, p->pos, "too many arguments"); return 0; }
      args[n++] = v;
      int c = peek(p);
      if (c == ',') { p->pos++; continue; }
      if (c == ')') break;
      fail(p, p->pos, "expected ',' or ')' in the arguments of %.*s", (int)nlen, name);
      return 0;
    }
  }
  p->pos++; /* ')' */
  if (nlen == 4 && memcmp(name, "cdiv", 4) == 0) {
    if (n != 2) { fail(p, at, "cdiv takes 2 arguments, got %d", n); return 0; }
    if (args[1] == 0) { fail(p, at, "cdiv by zero"); return 0; }
    int64_t q = args[0] / args[1], r = args[0] % args[1];
    /* round toward +infinity whatever the signs */
    if (r != 0 && ((r > 0) == (args[1] > 0))) q++;
    return q;
  }
  int is_min = nlen == 3 && memcmp(name, "min", 3) == 0;
  int is_max = nlen == 3 && memcmp(name, "max", 3) == 0;
  if (!is_min && !is_max) {
    fail(p, at, "unknown function '%.*s' (known: cdiv, min, max)", (int)nlen, name);
    return 0;
  }
  if (n < 1) { fail(p, at, "%.*s needs at least one argument", (int)nlen, name); return 0; }
  int64_t v = args[0];
  for (int i = 1; i < n; i++) v = is_min ? (args[i] < v ? args[i] : v) : (args[i] > v ? args[i] : v);
  return v;
}

static int64_t parse_primary(parser *p) {
  int c = peek(p);
  size_t at = p->pos;
  if (c == '(') {
    p->pos++;
    int64_t v = parse_expr(p);
    if (peek(p) != ')') { fail(p, p->pos, "expected ')'"); return 0; }
    p->pos++;
    return v;
  }
  if (c >= 0 && isdigit(c)) {
    char buf[64];
    size_t n = 0;
    while (p->pos < p->len && (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '.') && n < sizeof buf - 1)
      buf[n++] = p->s[p->pos++];
    buf[n] = 0;
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 0);
    if (*end) { fail(p, at, "'%s' is not an integer", buf); return 0; }
    if (errno == ERANGE) { fail(p, at, "'%s' does not fit in 64 bits", buf); return 0; }
    return v;
  }
  if (c >= 0 && (isalpha(c) || c == '_')) {
    size_t start = p->pos;
    while (p->pos < p->len && (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')) p->pos++;
    const char *name = p->s + start;
    size_t nlen = p->pos - start;
    if (peek(p) == '(') return parse_call(p, name, nlen, at);
    int64_t v;
    if (tt_check_env_get(p->env, name, nlen, &v) != 0) {
      fail(p, at, "unknown name '%.*s' (not defined under sizes)", (int)nlen, name);
      return 0;
    }
    return v;
  }
  if (c < 0) fail(p, at, "unexpected end of expression");
  else fail(p, at, "unexpected '%c'", c);
  return 0;
}

static int64_t parse_unary(parser *p) {
  int c = peek(p);
  if (c == '-' || c == '+') {
    size_t at = p->pos++;
    int64_t v = parse_unary(p);
    if (c == '+') return v;
    int64_t r;
    if (__builtin_sub_overflow((int64_t)0, v, &r)) return overflowed(p, at);
    return r;
  }
  return parse_primary(p);
}

static int64_t parse_term(parser *p) {
  int64_t v = parse_unary(p);
  for (;;) {
    int c = peek(p);
    if (p->failed || (c != '*' && c != '/' && c != '%')) return v;
    size_t at = p->pos++;
    int64_t r = parse_unary(p), out;
    if (p->failed) return 0;
    if (c == '*') {
      if (__builtin_mul_overflow(v, r, &out)) return overflowed(p, at);
      v = out;
    } else {
      if (r == 0) { fail(p, at, "division by zero"); return 0; }
      if (v == INT64_MIN && r == -1) { fail(p, at, "integer overflow"); return 0; }
      v = c == '/' ? v / r : v % r;
    }
  }
}

static int64_t parse_expr(parser *p) {
  int64_t v = parse_term(p);
  for (;;) {
    int c = peek(p);
    if (p->failed || (c != '+' && c != '-')) return v;
    size_t at = p->pos++;
    int64_t r = parse_term(p), out;
    if (p->failed) return 0;
    int ovf = c == '+' ? __builtin_add_overflow(v, r, &out) : __builtin_sub_overflow(v, r, &out);
    if (ovf) return overflowed(p, at);
    v = out;
  }
}

int tt_check_expr_eval(const char *text, size_t len, const tt_check_env *env,
                       int64_t *out, tt_check_expr_err *err) {
  parser p = {text, len, 0, env, err, 0};
  err->msg[0] = 0;
  err->offset = 0;
  int64_t v = parse_expr(&p);
  if (!p.failed && peek(&p) >= 0) fail(&p, p.pos, "unexpected '%c' after the expression", p.s[p.pos]);
  if (p.failed) return -1;
  *out = v;
  return 0;
}

int tt_check_expr_number(const char *text, size_t len, const tt_check_env *env,
                         int *is_float, int64_t *ival, double *fval,
                         tt_check_expr_err *err) {
  if (tt_check_expr_eval(text, len, env, ival, err) == 0) {
    *is_float = 0;
    *fval = (double)*ival;
    return 0;
  }
  /* Not an integer expression: a float literal then (strtod wants a NUL). */
  char buf[128];
  size_t b = 0, e = len;
  while (b < e && isspace((unsigned char)text[b])) b++;
  while (e > b && isspace((unsigned char)text[e - 1])) e--;
  if (e - b == 0 || e - b >= sizeof buf) return -1;
  memcpy(buf, text + b, e - b);
  buf[e - b] = 0;
  int has_digit = 0;
  for (char *q = buf; *q; q++) has_digit |= isdigit((unsigned char)*q) != 0;
  char *end;
  errno = 0;
  double d = strtod(buf, &end);
  if (!has_digit || *end || errno == ERANGE) return -1; /* keep the integer error */
  *is_float = 1;
  *fval = d;
  *ival = (int64_t)d;
  return 0;
}
