#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n) {
  fprintf(stderr, "tiletrans: out of memory (%zu bytes)\n", n);
  abort();
}

void *tt_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom(n);
  return p;
}

void *tt_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) oom(count * size);
  return p;
}

void *tt_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) oom(n);
  return q;
}

char *tt_xstrdup(const char *s) { return tt_xstrndup(s, strlen(s)); }

char *tt_xstrndup(const char *s, size_t n) {
  char *p = tt_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *tt_xvasprintf(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *p = tt_xmalloc((size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

char *tt_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = tt_xvasprintf(fmt, ap);
  va_end(ap);
  return p;
}

void tt_grow(void **items, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return;
  size_t c = *cap ? *cap * 2 : 8;
  while (c < need) c *= 2;
  *items = tt_xrealloc(*items, c * size);
  *cap = c;
}

void tt_buf_append(tt_buf *b, const void *p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap : 64;
    while (c < b->len + n + 1) c *= 2;
    b->data = tt_xrealloc(b->data, c);
    b->cap = c;
  }
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void tt_buf_puts(tt_buf *b, const char *s) { tt_buf_append(b, s, strlen(s)); }
void tt_buf_putc(tt_buf *b, char c) { tt_buf_append(b, &c, 1); }

void tt_buf_printf(tt_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = tt_xvasprintf(fmt, ap);
  va_end(ap);
  tt_buf_puts(b, s);
  free(s);
}

char *tt_buf_steal(tt_buf *b) {
  if (!b->data) tt_buf_append(b, "", 0);
  char *p = b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return p;
}

void tt_buf_free(tt_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

bool tt_str_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && memcmp(s + n - m, suffix, m) == 0;
}
