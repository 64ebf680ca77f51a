#include "report/json_util.h"

#include <string.h>

#include "util/util.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  if (s[0] < 0x80) return 1;
  size_t len = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (!len || len > n || (len == 2 && s[0] < 0xC2)) return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  return len;
}

json_t *tt_json_str(const char *s, size_t n) {
  json_t *j = json_stringn(s, n);
  if (j) return j;
  tt_buf b = {0};
  for (size_t i = 0; i < n;) {
    size_t k = utf8_len((const unsigned char *)s + i, n - i);
    if (k) {
      tt_buf_append(&b, s + i, k);
      i += k;
    } else {
      tt_buf_puts(&b, "\xEF\xBF\xBD");
      i++;
    }
  }
  j = json_stringn(b.data ? b.data : "", b.len);
  tt_buf_free(&b);
  return j ? j : json_string("");
}

json_t *tt_json_cstr(const char *s) { return tt_json_str(s, strlen(s)); }

void tt_json_dump(FILE *out, json_t *v) {
  json_dumpf(v, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', out);
  json_decref(v);
}
