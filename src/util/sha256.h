/* sha256.h — SHA-256 for cache keys: the checker's builds, the rulebook's checked
 * queries. A cache key must change whenever anything that goes into what is cached
 * changes (harness text, kernel source, shim headers, flags; a query's text and its
 * grammar); a cryptographic hash makes an accidental collision a non-issue. */
#ifndef TT_SHA256_H
#define TT_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_sha256 {
  uint32_t h[8];
  uint64_t bytes;
  unsigned char buf[64];
  size_t fill;
} tt_sha256;

void tt_sha256_init(tt_sha256 *s);
void tt_sha256_update(tt_sha256 *s, const void *data, size_t len);
/* Writes 64 lowercase hex digits and a NUL into hex[65]. */
void tt_sha256_hex(tt_sha256 *s, char hex[65]);
/* Hashes a length-prefixed string, so that ("ab","c") and ("a","bc") differ. */
void tt_sha256_field(tt_sha256 *s, const void *data, size_t len);

#endif
