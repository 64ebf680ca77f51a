/* data.c — see data.h. The .npy header is a Python dict literal of three keys
 * ('descr', 'fortran_order', 'shape'); only what NumPy itself writes is read. */
#define _GNU_SOURCE /* memmem */
#include "checker/data.h"
#include "checker/proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char *npy_descr(tt_check_dtype t) {
  switch (t) {
  case TT_CHECK_F16: return "<f2";
  case TT_CHECK_F32: return "<f4";
  case TT_CHECK_F64: return "<f8";
  case TT_CHECK_I8: return "|i1";
  case TT_CHECK_I16: return "<i2";
  case TT_CHECK_I32: return "<i4";
  case TT_CHECK_I64: return "<i8";
  case TT_CHECK_U8: return "|u1";
  case TT_CHECK_U32: return "<u4";
  case TT_CHECK_U64: return "<u8";
  case TT_CHECK_BOOL: return "|b1";
  default: return "<u2"; /* bf16: raw bits */
  }
}

/* The quoted value after 'key': in the header, or NULL. */
static const char *dict_value(const char *h, size_t n, const char *key, size_t *vlen) {
  char pat[32];
  snprintf(pat, sizeof pat, "'%s':", key);
  const char *p = memmem(h, n, pat, strlen(pat));
  if (!p) return NULL;
  p += strlen(pat);
  while (p < h + n && *p == ' ') p++;
  const char *e = p;
  if (*p == '\'') {
    e = memchr(p + 1, '\'', (size_t)(h + n - p - 1));
    if (!e) return NULL;
    *vlen = (size_t)(e - p - 1);
    return p + 1;
  }
  if (*p == '(') {
    e = memchr(p, ')', (size_t)(h + n - p));
    if (!e) return NULL;
    *vlen = (size_t)(e - p - 1);
    return p + 1;
  }
  while (e < h + n && *e != ',' && *e != '}') e++;
  *vlen = (size_t)(e - p);
  return p;
}

static int npy_header(const unsigned char *b, size_t n, tt_check_dtype t, int64_t *elems, size_t *off, char **err) {
  if (n < 10 || memcmp(b, "\x93NUMPY", 6) != 0) { *err = tt_xstrdup("not a .npy file (no \\x93NUMPY magic)"); return -1; }
  size_t hlen, hoff;
  if (b[6] == 1) { hlen = (size_t)b[8] | (size_t)b[9] << 8; hoff = 10; }
  else if (n >= 12) { hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24; hoff = 12; }
  else { *err = tt_xstrdup("truncated .npy header"); return -1; }
  if (hoff + hlen > n) { *err = tt_xstrdup("truncated .npy header"); return -1; }
  const char *h = (const char *)b + hoff;
  size_t dl = 0, fl = 0, sl = 0;
  const char *d = dict_value(h, hlen, "descr", &dl), *f = dict_value(h, hlen, "fortran_order", &fl),
             *s = dict_value(h, hlen, "shape", &sl);
  if (!d || !f || !s) { *err = tt_xstrdup("the .npy header lacks descr, fortran_order or shape"); return -1; }
  const char *want = npy_descr(t);
  int ok = dl == strlen(want) && !memcmp(d, want, dl);
  if (!ok && (t == TT_CHECK_F16 || t == TT_CHECK_BF16)) ok = dl == 3 && (!memcmp(d, "<u2", 3) || !memcmp(d, "<i2", 3));
  if (!ok && tt_check_dtype_size(t) == 1 && dl == 3) ok = !memcmp(d + 1, want + 1, 2);
  if (!ok) {
    *err = tt_xasprintf("the .npy file holds '%.*s' elements, the argument is %s ('%s')", (int)dl, d,
                        tt_check_dtype_name(t), want);
    return -1;
  }
  if (fl >= 4 && !memcmp(f, "True", 4)) { *err = tt_xstrdup("Fortran-order .npy files are not read; save with C order"); return -1; }
  int64_t count = 1;
  for (const char *q = s; q < s + sl;) {
    while (q < s + sl && (*q == ' ' || *q == ',')) q++;
    if (q >= s + sl) break;
    char *end;
    long long v = strtoll(q, &end, 10);
    if (end == q || v < 0) { *err = tt_xasprintf("bad .npy shape '(%.*s)'", (int)sl, s); return -1; }
    count *= v;
    q = end;
  }
  *elems = count;
  *off = hoff + hlen;
  return 0;
}

unsigned char *tt_check_data_read(const char *path, tt_check_dtype t, int64_t count, size_t *got, char **err) {
  *err = NULL;
  size_t n = 0;
  unsigned char *b = (unsigned char *)tt_check_read_file(path, &n, 0);
  if (!b) { *err = tt_xasprintf("cannot read %s: %s", path, strerror(errno)); return NULL; }
  size_t es = tt_check_dtype_size(t), off = 0;
  int64_t elems;
  if (tt_str_ends_with(path, ".npy")) {
    char *why = NULL;
    if (npy_header(b, n, t, &elems, &off, &why) != 0) {
      *err = tt_xasprintf("%s: %s", path, why);
      free(why);
      free(b);
      return NULL;
    }
    if ((size_t)elems * es > n - off) {
      *err = tt_xasprintf("%s: the header promises %lld elements, the file holds fewer", path, (long long)elems);
      free(b);
      return NULL;
    }
  } else {
    if (n % es) {
      *err = tt_xasprintf("%s: %zu bytes is not a whole number of %s elements (%zu bytes each)", path, n,
                          tt_check_dtype_name(t), es);
      free(b);
      return NULL;
    }
    elems = (int64_t)(n / es);
  }
  if (count >= 0 && elems != count) {
    *err = tt_xasprintf("%s holds %lld elements, the argument has %lld", path, (long long)elems, (long long)count);
    free(b);
    return NULL;
  }
  unsigned char *out = tt_xmalloc((size_t)elems * es + 1);
  memcpy(out, b + off, (size_t)elems * es);
  free(b);
  if (got) *got = (size_t)elems;
  return out;
}
