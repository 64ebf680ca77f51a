/* split.c — an inlined program back into its files (see xform.h, tt_xf_split_inlined). */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "xform/xform.h"

/* `#line N "PATH"` (the inliner's form exactly): N in *n, the span of PATH in *p and *plen. */
static int line_marker(const char *s, size_t len, unsigned long *n, const char **p, size_t *plen) {
  if (len < 10 || memcmp(s, "#line ", 6)) return 0;
  char *end;
  *n = strtoul(s + 6, &end, 10);
  if (end == s + 6 || (size_t)(end - s) + 3 > len || end[0] != ' ' || end[1] != '"' || s[len - 1] != '"') return 0;
  *p = end + 2;
  *plen = (size_t)(s + len - 1 - *p);
  return *plen > 0 && !memchr(*p, '"', *plen);
}

typedef struct open_file {
  size_t index; /* into the result */
  tt_buf buf;
} open_file;

static size_t find_path(const tt_xf_text *files, size_t n, const char *p, size_t plen) {
  for (size_t i = 0; i < n; i++)
    if (strlen(files[i].path) == plen && !memcmp(files[i].path, p, plen)) return i;
  return n;
}

size_t tt_xf_split_inlined(const char *main_path, const char *text, size_t len, tt_xf_text **files) {
  size_t n = 1, cap = 4, depth = 1, dcap = 4;
  tt_xf_text *out = tt_xcalloc(cap, sizeof *out);
  open_file *stack = tt_xcalloc(dcap, sizeof *stack);
  out[0].path = tt_xstrdup(main_path);
  for (size_t ls = 0; ls < len;) {
    const char *nl = memchr(text + ls, '\n', len - ls);
    size_t le = nl ? (size_t)(nl - text) : len, next = nl ? le + 1 : len;
    unsigned long lno;
    const char *p;
    size_t plen;
    open_file *top = &stack[depth - 1];
    int marker = line_marker(text + ls, le - ls, &lno, &p, &plen);
    if (marker && lno == 1 && depth == 1 && top->index == 0 && find_path(out, 1, p, plen) == 0) {
      top->buf.len = 0; /* the defines before the main file's first line */
    } else if (marker && lno == 1 && find_path(out, n, p, plen) == n) {
      tt_buf_printf(&top->buf, "#include \"%.*s\"", (int)plen, p);
      if (n == cap) out = tt_xrealloc(out, (cap *= 2) * sizeof *out);
      out[n] = (tt_xf_text){tt_xstrndup(p, plen), NULL, 0};
      if (depth == dcap) stack = tt_xrealloc(stack, (dcap *= 2) * sizeof *stack);
      stack[depth++] = (open_file){n++, {0}};
    } else if (marker && depth > 1 && find_path(out, n, p, plen) == stack[depth - 2].index) {
      tt_xf_text *done = &out[top->index];
      done->len = top->buf.len;
      done->text = top->buf.len ? tt_buf_steal(&top->buf) : tt_xstrdup("");
      tt_buf_free(&top->buf);
      depth--;
      if (nl) tt_buf_putc(&stack[depth - 1].buf, '\n'); /* the include line's own end */
    } else {
      tt_buf_append(&top->buf, text + ls, next - ls);
    }
    ls = next;
  }
  /* Files still open (a text cut short) end where the text ends. */
  while (depth > 0) {
    open_file *top = &stack[--depth];
    out[top->index].len = top->buf.len;
    out[top->index].text = top->buf.len ? tt_buf_steal(&top->buf) : tt_xstrdup("");
    tt_buf_free(&top->buf);
  }
  free(stack);
  *files = out;
  return n;
}

void tt_xf_texts_free(tt_xf_text *files, size_t n) {
  for (size_t i = 0; files && i < n; i++) {
    free(files[i].path);
    free(files[i].text);
  }
  free(files);
}
