#include "util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static uint64_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static size_t slot(const tt_strmap *m, const char *key, size_t len) {
  size_t i = (size_t)hash(key, len) & (m->cap - 1);
  while (m->keys[i] && !(strlen(m->keys[i]) == len && memcmp(m->keys[i], key, len) == 0))
    i = (i + 1) & (m->cap - 1);
  return i;
}

static void rehash(tt_strmap *m, size_t cap) {
  tt_strmap old = *m;
  m->keys = tt_xcalloc(cap, sizeof *m->keys);
  m->values = tt_xcalloc(cap, sizeof *m->values);
  m->cap = cap;
  for (size_t i = 0; i < old.cap; i++) {
    if (!old.keys[i]) continue;
    size_t j = slot(m, old.keys[i], strlen(old.keys[i]));
    m->keys[j] = old.keys[i];
    m->values[j] = old.values[i];
  }
  free(old.keys);
  free(old.values);
}

void tt_strmap_put(tt_strmap *m, const char *key, const char *value) {
  if ((m->n + 1) * 2 > m->cap) rehash(m, m->cap ? m->cap * 2 : 16);
  size_t i = slot(m, key, strlen(key));
  if (m->keys[i]) {
    free(m->values[i]);
  } else {
    m->keys[i] = tt_xstrdup(key);
    m->n++;
  }
  m->values[i] = tt_xstrdup(value);
}

const char *tt_strmap_get(const tt_strmap *m, const char *key, size_t len) {
  if (!m->cap) return NULL;
  size_t i = slot(m, key, len);
  return m->keys[i] ? m->values[i] : NULL;
}

void tt_strmap_free(tt_strmap *m) {
  for (size_t i = 0; i < m->cap; i++) {
    free(m->keys[i]);
    free(m->values[i]);
  }
  free(m->keys);
  free(m->values);
  memset(m, 0, sizeof *m);
}
