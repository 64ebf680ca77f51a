/* template.h — `{{name}}` substitution in messages and fixes. */
#ifndef TT_TEMPLATE_H
#define TT_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

/* A named piece of source text: a query capture or an analyzer binding. `text` is
 * borrowed (usually points into the source); start/end locate it in the file. */
typedef struct tt_binding {
  const char *name;
  const char *text;
  size_t len;
  uint32_t start, end;
} tt_binding;

/* Renders `tmpl`, replacing each `{{name}}` with the binding's text and `{{{{` with a
 * literal `{{`. `{{name|trim_suffix:S}}` and `{{name|trim_prefix:S}}` drop S from the
 * value's end or start when present. A name with no binding renders as empty (validation rules that out at
 * load time). Returns a malloc'd string; caller frees. */
char *tt_template_render(const char *tmpl, const tt_binding *b, size_t n);

/* Checks that every `{{name}}` in `tmpl` is one of `names` (n entries, or NULL-terminated
 * when n is (size_t)-1). Returns NULL, or the first unknown name (malloc'd; caller frees).
 * An unterminated `{{` is reported as "{{", an empty placeholder as "{{}}", and an
 * unknown filter as "name|filter (unknown filter; …)". */
char *tt_template_unknown(const char *tmpl, const char *const *names, size_t n);

const tt_binding *tt_binding_find(const tt_binding *b, size_t n, const char *name, size_t name_len);

#endif
