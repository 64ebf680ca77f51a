/* util.h — memory helpers and a growable byte buffer.
 *
 * Allocation failure is not recoverable in a command-line tool: tt_x* functions abort
 * with a message instead of returning NULL, so callers never check. */
#ifndef TT_UTIL_H
#define TT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *tt_xmalloc(size_t n);
void *tt_xcalloc(size_t count, size_t size);
void *tt_xrealloc(void *p, size_t n);
char *tt_xstrdup(const char *s);
char *tt_xstrndup(const char *s, size_t n);
/* printf into a new malloc'd string; caller frees. */
char *tt_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *tt_xvasprintf(const char *fmt, va_list ap);

/* Grows a dynamic array `*items` of `*cap` elements of `size` bytes so that it holds at
 * least `need` elements. */
void tt_grow(void **items, size_t *cap, size_t need, size_t size);
#define TT_PUSH(arr, n, cap, value)                                      \
  do {                                                                   \
    tt_grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr)));           \
    (arr)[(n)++] = (value);                                              \
  } while (0)

/* A growable byte buffer. data is always NUL-terminated (when non-NULL) so it can be
 * used as a C string, but may hold NULs. */
typedef struct tt_buf {
  char *data;
  size_t len;
  size_t cap;
} tt_buf;

void tt_buf_append(tt_buf *b, const void *p, size_t n);
void tt_buf_puts(tt_buf *b, const char *s);
void tt_buf_putc(tt_buf *b, char c);
void tt_buf_printf(tt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the buffer's data (never NULL; caller frees) and resets the buffer. */
char *tt_buf_steal(tt_buf *b);
void tt_buf_free(tt_buf *b);

bool tt_str_ends_with(const char *s, const char *suffix);

#endif
