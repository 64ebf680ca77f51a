/* init.c — see init.h. */
#include "checker/init.h"
#include "checker/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void tt_check_rng_seed(tt_check_rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tt_check_rng_next(tt_check_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double tt_check_rng_unit(tt_check_rng *r) {
  return (double)(tt_check_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t tt_check_rng_below(tt_check_rng *r, uint64_t n) {
  /* Lemire's multiply-shift with rejection. */
  __uint128_t m = (__uint128_t)tt_check_rng_next(r) * n;
  uint64_t lo = (uint64_t)m;
  if (lo < n) {
    uint64_t threshold = (0 - n) % n;
    while (lo < threshold) {
      m = (__uint128_t)tt_check_rng_next(r) * n;
      lo = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

/* Splits "name(arg, arg)" and parses its numeric arguments. */
static int parse_args(const char *s, size_t len, size_t open, double *vals, int want,
                      const char *name, char *err, size_t errsz) {
  if (len == 0 || s[len - 1] != ')') {
    snprintf(err, errsz, "%s(...) is missing its closing ')'", name);
    return -1;
  }
  size_t pos = open + 1, end = len - 1;
  int n = 0;
  while (pos <= end) {
    size_t stop = pos;
    while (stop < end && s[stop] != ',') stop++;
    if (n == want) { n++; break; }
    int is_float;
    int64_t iv;
    tt_check_expr_err e;
    if (tt_check_expr_number(s + pos, stop - pos, NULL, &is_float, &iv, &vals[n], &e) != 0) {
      snprintf(err, errsz, "%s: argument %d ('%.*s') is not a number", name, n + 1,
               (int)(stop - pos), s + pos);
      return -1;
    }
    n++;
    pos = stop + 1;
    if (stop == end) break;
  }
  if (n != want) {
    snprintf(err, errsz, "%s takes %d argument%s", name, want, want == 1 ? "" : "s");
    return -1;
  }
  return 0;
}

int tt_check_init_parse(const char *text, size_t len, tt_check_init *out, char *err, size_t errsz) {
  while (len && isspace((unsigned char)*text)) { text++; len--; }
  while (len && isspace((unsigned char)text[len - 1])) len--;
  size_t open = 0;
  while (open < len && text[open] != '(') open++;
  size_t nlen = open;
  while (nlen && isspace((unsigned char)text[nlen - 1])) nlen--;
  char name[32];
  if (nlen == 0 || nlen >= sizeof name) goto unknown;
  memcpy(name, text, nlen);
  name[nlen] = 0;
  memset(out, 0, sizeof *out);
  static const struct { const char *name; tt_check_init_kind kind; int nargs; } k[] = {
    {"zeros", TT_CHECK_INIT_ZEROS, 0}, {"ones", TT_CHECK_INIT_ONES, 0},
    {"iota", TT_CHECK_INIT_IOTA, 0}, {"const", TT_CHECK_INIT_CONST, 1},
    {"uniform", TT_CHECK_INIT_UNIFORM, 2}, {"normal", TT_CHECK_INIT_NORMAL, 2},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    if (strcmp(name, k[i].name) != 0) continue;
    out->kind = k[i].kind;
    if (k[i].nargs == 0) {
      if (open != len) { snprintf(err, errsz, "%s takes no arguments", name); return -1; }
      return 0;
    }
    if (open == len) { snprintf(err, errsz, "%s needs arguments: %s(...)", name, name); return -1; }
    double v[2] = {0, 0};
    if (parse_args(text, len, open, v, k[i].nargs, name, err, errsz) != 0) return -1;
    out->a = v[0];
    out->b = v[1];
    if (out->kind == TT_CHECK_INIT_UNIFORM && !(v[0] < v[1])) {
      snprintf(err, errsz, "uniform(LO, HI) needs LO < HI");
      return -1;
    }
    if (out->kind == TT_CHECK_INIT_NORMAL && !(v[1] >= 0)) {
      snprintf(err, errsz, "normal(MEAN, STD) needs STD >= 0");
      return -1;
    }
    return 0;
  }
unknown:
  snprintf(err, errsz, "unknown init '%.*s' (known: zeros, ones, iota, const(V), uniform(LO, HI), normal(MEAN, STD))",
           (int)len, text);
  return -1;
}

void tt_check_init_fill(const tt_check_init *in, tt_check_dtype t, void *buf, size_t count,
                        uint64_t seed, uint64_t stream) {
  size_t esz = tt_check_dtype_size(t);
  unsigned char *p = buf;
  tt_check_rng r;
  tt_check_rng_seed(&r, seed, stream);
  int is_float = tt_check_dtype_is_float(t);
  /* Integer uniform draws from [ceil(LO), ceil(HI)): [LO, HI) over the integers. */
  int64_t ilo = (int64_t)ceil(in->a), ihi = (int64_t)ceil(in->b);
  for (size_t i = 0; i < count; i++) {
    double v = 0;
    switch (in->kind) {
    case TT_CHECK_INIT_ZEROS: v = 0; break;
    case TT_CHECK_INIT_ONES: v = 1; break;
    case TT_CHECK_INIT_IOTA: v = (double)i; break;
    case TT_CHECK_INIT_CONST: v = in->a; break;
    case TT_CHECK_INIT_UNIFORM:
      if (is_float) {
        v = in->a + (in->b - in->a) * tt_check_rng_unit(&r);
      } else {
        uint64_t span = ihi > ilo ? (uint64_t)(ihi - ilo) : 1;
        v = (double)(ilo + (int64_t)tt_check_rng_below(&r, span));
      }
      break;
    case TT_CHECK_INIT_NORMAL: {
      /* Box-Muller; one value per draw keeps element i independent of parity. */
      double u1 = 1.0 - tt_check_rng_unit(&r), u2 = tt_check_rng_unit(&r);
      v = in->a + in->b * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
      if (!is_float) v = nearbyint(v);
      break;
    }
    }
    tt_check_store(t, p + i * esz, v);
  }
}
