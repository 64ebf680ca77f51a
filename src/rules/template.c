#include "rules/template.h"

#include <stdbool.h>
#include <string.h>

#include "util/util.h"

const tt_binding *tt_binding_find(const tt_binding *b, size_t n, const char *name, size_t name_len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(b[i].name) == name_len && memcmp(b[i].name, name, name_len) == 0) return &b[i];
  return NULL;
}

// Finds the next placeholder at or after p. On success sets *name/*name_len and returns
// the position just past the closing braces; returns NULL when there is none. Four
// opening braces are an escape and yield an empty name.
static const char *next_placeholder(const char *p, const char **open, const char **name,
                                    size_t *name_len, int *unterminated) {
  const char *o = strstr(p, "{{");
  *unterminated = 0;
  if (!o) return NULL;
  *open = o;
  if (strncmp(o, "{{{{", 4) == 0) {
    *name = o;
    *name_len = 0;
    return o + 4;
  }
  const char *close = strstr(o + 2, "}}");
  if (!close) {
    *unterminated = 1;
    return NULL;
  }
  const char *s = o + 2, *e = close;
  while (s < e && *s == ' ') s++;
  while (e > s && e[-1] == ' ') e--;
  *name = s;
  *name_len = (size_t)(e - s);
  return close + 2;
}

/* Applies a filter to a value: `trim_suffix:S` / `trim_prefix:S` drop S when present.
 * Filters are validated at load time (tt_template_unknown). */
static void append_filtered(tt_buf *out, const char *v, size_t n, const char *f, size_t flen) {
  static const char ts[] = "trim_suffix:", tp[] = "trim_prefix:";
  if (f && flen >= sizeof ts - 1 && memcmp(f, ts, sizeof ts - 1) == 0) {
    size_t k = flen - (sizeof ts - 1);
    if (k <= n && memcmp(v + n - k, f + sizeof ts - 1, k) == 0) n -= k;
  } else if (f && flen >= sizeof tp - 1 && memcmp(f, tp, sizeof tp - 1) == 0) {
    size_t k = flen - (sizeof tp - 1);
    if (k <= n && memcmp(v, f + sizeof tp - 1, k) == 0) v += k, n -= k;
  }
  tt_buf_append(out, v, n);
}

static bool filter_valid(const char *f, size_t flen) {
  return (flen > 12 && (memcmp(f, "trim_suffix:", 12) == 0 || memcmp(f, "trim_prefix:", 12) == 0));
}

char *tt_template_render(const char *tmpl, const tt_binding *b, size_t n) {
  tt_buf out = {0};
  const char *p = tmpl, *open, *name, *next;
  size_t name_len;
  int unterminated;
  while ((next = next_placeholder(p, &open, &name, &name_len, &unterminated))) {
    tt_buf_append(&out, p, (size_t)(open - p));
    if (name_len == 0) {
      tt_buf_puts(&out, "{{");
    } else {
      const char *bar = memchr(name, '|', name_len);
      size_t base_len = bar ? (size_t)(bar - name) : name_len;
      const tt_binding *v = tt_binding_find(b, n, name, base_len);
      if (v) append_filtered(&out, v->text, v->len, bar ? bar + 1 : NULL, bar ? name_len - base_len - 1 : 0);
    }
    p = next;
  }
  tt_buf_puts(&out, p);
  return tt_buf_steal(&out);
}

char *tt_template_unknown(const char *tmpl, const char *const *names, size_t n) {
  const char *p = tmpl, *open, *name, *next;
  size_t name_len;
  int unterminated;
  while ((next = next_placeholder(p, &open, &name, &name_len, &unterminated))) {
    if (name_len == 0 && strncmp(open, "{{{{", 4) != 0) return tt_xstrdup("{{}}");
    if (name_len > 0) {
      const char *bar = memchr(name, '|', name_len);
      if (bar && !filter_valid(bar + 1, name_len - (size_t)(bar - name) - 1))
        return tt_xasprintf("%.*s (unknown filter; expected trim_suffix:TEXT or trim_prefix:TEXT)", (int)name_len,
                            name);
      if (bar) name_len = (size_t)(bar - name);
      bool found = false;
      for (size_t i = 0; n == (size_t)-1 ? names[i] != NULL : i < n; i++)
        if (strlen(names[i]) == name_len && memcmp(names[i], name, name_len) == 0) {
          found = true;
          break;
        }
      if (!found) return tt_xstrndup(name, name_len);
    }
    p = next;
  }
  return unterminated ? tt_xstrdup("{{") : NULL;
}
