/* hash.h — SHA-256 for the checker's build cache keys.
 *
 * Owned by the checker. A cache key must change whenever anything that goes into a
 * harness binary changes (harness text, kernel source, shim headers, flags); a
 * cryptographic hash makes an accidental collision a non-issue. */
#ifndef TT_CHECK_HASH_H
#define TT_CHECK_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_check_sha256 {
  uint32_t h[8];
  uint64_t bytes;
  unsigned char buf[64];
  size_t fill;
} tt_check_sha256;

void tt_check_sha256_init(tt_check_sha256 *s);
void tt_check_sha256_update(tt_check_sha256 *s, const void *data, size_t len);
/* Writes 64 lowercase hex digits and a NUL into hex[65]. */
void tt_check_sha256_hex(tt_check_sha256 *s, char hex[65]);
/* Hashes a length-prefixed string, so that ("ab","c") and ("a","bc") differ. */
void tt_check_sha256_field(tt_check_sha256 *s, const void *data, size_t len);

#endif
