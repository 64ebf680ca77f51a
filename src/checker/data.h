/* data.h — buffer contents given as files: NumPy .npy (version 1-3, C order) or raw
 * little-endian elements (any other extension).
 *
 * Owned by the checker. Used by spec validation (the file fits the argument: dtype
 * and element count) and by input generation (the bytes). */
#ifndef TT_CHECK_DATA_H
#define TT_CHECK_DATA_H

#include <stddef.h>
#include <stdint.h>
#include "checker/dtype.h"

/* Reads the elements of `path` as `count` elements of type t. For .npy the header's
 * dtype must be t's (f16 and bf16 also accept '<u2'/'<i2': NumPy has no bfloat16)
 * and its shape must hold `count` elements; a raw file must be exactly count *
 * size bytes. Returns a malloc'd buffer of count * size bytes, or NULL with *err
 * (malloc'd) saying what does not fit. count < 0: any count, returned in *got. */
unsigned char *tt_check_data_read(const char *path, tt_check_dtype t, int64_t count, size_t *got, char **err);

#endif
