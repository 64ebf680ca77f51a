/* strmap.h — an open-addressing hash map from strings to strings, for lookup tables
 * built once (rename tables) and read by many threads. Keys and values are copied. */
#ifndef TT_STRMAP_H
#define TT_STRMAP_H

#include <stddef.h>

typedef struct tt_strmap {
  char **keys;
  char **values;
  size_t cap;   /* power of two, or 0 */
  size_t n;
} tt_strmap;

/* Inserts or replaces. */
void tt_strmap_put(tt_strmap *m, const char *key, const char *value);
/* The value for the first `len` bytes of `key`, or NULL. */
const char *tt_strmap_get(const tt_strmap *m, const char *key, size_t len);
void tt_strmap_free(tt_strmap *m);

#endif
