#include "parser/source.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

tt_source *tt_source_new(const char *path, char *text, size_t len, tt_lang lang) {
  if (len > TT_SOURCE_MAX_BYTES) return NULL;
  tt_source *s = tt_xcalloc(1, sizeof *s);
  s->path = tt_xstrdup(path);
  s->text = text;
  s->len = (uint32_t)len;
  s->lang = lang;
  s->bom = (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) ? 3 : 0;
  size_t cap = 0, n = 0;
  TT_PUSH(s->line_starts, n, cap, 0u);
  for (const char *p = text, *end = text + len; (p = memchr(p, '\n', (size_t)(end - p)));) {
    p++;
    if (p < end) TT_PUSH(s->line_starts, n, cap, (uint32_t)(p - text));
  }
  s->n_lines = (uint32_t)n;
  return s;
}

void tt_source_free(tt_source *src) {
  if (!src) return;
  free(src->path);
  free(src->text);
  free(src->line_starts);
  free(src);
}

tt_pos tt_source_pos(const tt_source *src, uint32_t byte) {
  if (byte > src->len) byte = src->len;
  /* Binary search for the last line starting at or before `byte`. */
  uint32_t lo = 0, hi = src->n_lines;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (src->line_starts[mid] <= byte) lo = mid;
    else hi = mid;
  }
  return (tt_pos){lo + 1, byte - src->line_starts[lo] + 1};
}

uint32_t tt_source_line_start(const tt_source *src, uint32_t line) {
  if (line == 0) return 0;
  if (line > src->n_lines) return src->len;
  return src->line_starts[line - 1];
}

const char *tt_source_line(const tt_source *src, uint32_t line, uint32_t *n) {
  uint32_t start = tt_source_line_start(src, line);
  uint32_t end = line < src->n_lines ? src->line_starts[line] : src->len;
  if (end > start && src->text[end - 1] == '\n') end--;
  if (end > start && src->text[end - 1] == '\r') end--;
  *n = end - start;
  return src->text + start;
}

/* A line of array data: hex or decimal literals (with suffixes), signs, points, commas and
 * blanks only, and at least one digit. */
static bool data_line(const char *p, uint32_t n) {
  bool digit = false;
  for (uint32_t i = 0; i < n; i++) {
    char c = p[i];
    if (c >= '0' && c <= '9') digit = true;
    else if (!(c == ',' || c == ' ' || c == '\t' || c == '\r' || c == 'x' || c == 'X' || c == '-' || c == '+' ||
               c == '.' || ((c | 32) >= 'a' && (c | 32) <= 'f') || (c | 32) == 'u' || (c | 32) == 'l'))
      return false;
  }
  return digit;
}

bool tt_source_is_data(const tt_source *src) {
  if (src->len < TT_SOURCE_DATA_MIN_BYTES) return false;
  uint64_t data = 0;
  for (uint32_t l = 1; l <= src->n_lines; l++) {
    uint32_t n;
    const char *p = tt_source_line(src, l, &n);
    if (data_line(p, n)) data += n + 1;
  }
  return data * 10 >= (uint64_t)src->len * 9;
}
