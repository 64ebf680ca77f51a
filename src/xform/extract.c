/* extract.c — one kernel out of a whole program (see xform.h): the closure of the
 * kernel's items by names used, then the kept text with local headers inlined. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "xform/items.h"
#include "xform/sig.h"
#include "xform/xform.h"

/* ------------------------------------------------------------------ closure */

/* For each name id, the items that define it (CSR: first[id]..first[id+1]). */
typedef struct { size_t *first, *items; } def_index;

static void index_defs(const xf_prog *p, def_index *ix) {
  size_t n = p->names.n;
  ix->first = tt_xcalloc(n + 2, sizeof *ix->first);
  for (size_t i = 0; i < p->nitems; i++)
    for (size_t k = 0; k < p->items[i].ndefs; k++) ix->first[p->pool[p->items[i].defs + k] + 2]++;
  for (size_t id = 0; id < n; id++) ix->first[id + 2] += ix->first[id + 1];
  ix->items = tt_xmalloc((ix->first[n + 1] + 1) * sizeof *ix->items);
  for (size_t i = 0; i < p->nitems; i++)
    for (size_t k = 0; k < p->items[i].ndefs; k++) ix->items[ix->first[p->pool[p->items[i].defs + k] + 1]++] = i;
}

/* Marks the roots and everything they need. Macros stay in the text whatever
 * happens (they expand only where used), but their bodies' names count only once a
 * kept item uses the macro: `visited` tracks that apart from `kept`. */
static void close_over(xf_prog *p, const size_t *roots, size_t nroots) {
  def_index ix;
  index_defs(p, &ix);
  /* Scopes of the program's own: its namespaces and the names its code items define
   * (classes; a namespace alias does not count: it names a library's namespace). */
  char *own = tt_xcalloc(p->names.n + 1, 1);
  for (size_t i = 0; i < p->nns; i++) own[p->namespaces[i]] = 1;
  for (size_t i = 0; i < p->nitems; i++)
    if (p->items[i].kind == XF_CODE && strcmp(ts_node_type(p->items[i].node), "namespace_alias_definition"))
      for (size_t k = 0; k < p->items[i].ndefs; k++) own[p->pool[p->items[i].defs + k]] = 1;
  char *visited = tt_xcalloc(p->nitems + 1, 1);
  size_t *stack = tt_xmalloc((p->nitems + 1) * sizeof *stack), top = 0;
  for (size_t r = 0; r < nroots; r++)
    if (!visited[roots[r]]) { visited[roots[r]] = 1; stack[top++] = roots[r]; }
  while (top) {
    xf_item *it = &p->items[stack[--top]];
    if (it->kind == XF_CODE) it->kept = 1;
    for (size_t k = 0; k < it->nuses; k++) {
      int id = p->pool[it->uses + k];
      if (id == XF_QUALIFIED) {
        int scope = p->pool[it->uses + k + 1];
        id = p->pool[it->uses + k + 2];
        k += 2;
        if (!own[scope]) continue;
      }
      for (size_t j = ix.first[id]; j < ix.first[id + 1]; j++) {
        size_t d = ix.items[j];
        if (!visited[d]) { visited[d] = 1; stack[top++] = d; }
      }
    }
  }
  free(stack);
  free(visited);
  free(own);
  free(ix.first);
  free(ix.items);
}

/* ------------------------------------------------------------------ emission */

/* Appends text[start, end) with every byte but newlines turned into spaces, except
 * on the lines that must survive any blanking: conditional directives (and their
 * backslash continuations), so that #if/#endif stay balanced, and the braces of C
 * linkage wrappers, which the parser never saw. Lines are those of the whole text, so
 * a region that starts or ends inside a line classifies that line whole. Linear in
 * the region plus the lengths of the lines it touches. */
static void blank(tt_buf *b, const char *text, size_t len, size_t start, size_t end) {
  size_t ls = start;
  while (ls > 0 && text[ls - 1] != '\n') ls--;
  int continued = 0; /* the line before ls is a kept directive ending in a backslash */
  if (ls > 0) {
    size_t pe = ls - 1, ps = pe; /* the previous line, and the directive it continues */
    while (ps > 0 && text[ps - 1] != '\n') ps--;
    while (ps > 1 && text[ps - 2] == '\\') { /* walk up over continuation lines */
      ps--;
      while (ps > 0 && text[ps - 1] != '\n') ps--;
    }
    continued = pe > 0 && text[pe - 1] == '\\' && tt_xf_is_conditional_line(text + ps, text + pe);
  }
  while (ls < end) {
    const char *nl = memchr(text + ls, '\n', len - ls);
    size_t le = nl ? (size_t)(nl - text) : len;
    int keep = continued || tt_xf_is_conditional_line(text + ls, text + le) || tt_xf_is_linkage_line(text, len, ls, le);
    continued = keep && le > ls && text[le - 1] == '\\';
    size_t from = ls > start ? ls : start, to = le + 1 < end ? le + 1 : end;
    for (size_t i = from; i < to; i++) tt_buf_putc(b, keep || text[i] == '\n' ? text[i] : ' ');
    ls = le + 1;
  }
}

/* Appends text[start, end) of file f (blanked or as it is). Once f has inlined a
 * header, every conditional directive line is followed by a `#line` naming the line
 * after it: an inlined header's closing `#line` may sit in a branch the compiler skips
 * (ggml's `#if GGML_USE_HIP / vendors/hip.h / #elif ... / vendors/musa.h / #else /
 * vendors/cuda.h / #endif`), and a skipped `#line` is not obeyed, so every message
 * after the chain named a line off by the skipped headers' lengths. */
static void emit_gap(const xf_file *f, tt_buf *b, size_t start, size_t end, int blanked) {
  const char *text = f->src->text;
  size_t len = f->src->len;
  while (start < end) {
    const char *nl = memchr(text + start, '\n', end - start);
    size_t seg_end = nl ? (size_t)(nl - text) + 1 : end;
    if (blanked) blank(b, text, len, start, seg_end);
    else tt_buf_append(b, text + start, seg_end - start);
    if (f->inlined && nl) {
      size_t le = seg_end - 1, ls = le;
      while (ls > 0 && text[ls - 1] != '\n') ls--;
      if ((le == ls || text[le - 1] != '\\') && tt_xf_is_conditional_line(text + ls, text + le))
        tt_buf_printf(b, "#line %u \"%s\"\n", tt_source_pos(f->src, (uint32_t)seg_end).line, f->abs);
    }
    start = seg_end;
  }
}

static void emit_file(xf_prog *p, int fi, tt_buf *b, int *renumbered) {
  xf_file *f = &p->files[fi];
  f->emitted = 1;
  const char *text = f->src->text;
  uint32_t pos = 0;
  int prev_blanked = 0;
  for (size_t k = 0; k < f->nitems; k++) {
    const xf_item *it = &p->items[f->items[k]];
    if (it->start < pos) continue; /* inside an item already handled */
    const char *s = text + it->start;
    size_t n = it->end - it->start;
    int keep = it->kind == XF_MACRO || it->kind == XF_ALWAYS || it->kind == XF_INC_KEEP ||
               (it->kind == XF_CODE && it->kept) || (p->o->keep_all && it->kind != XF_DROP);
    int blanked = !keep && !(it->kind == XF_INC_LOCAL && it->target >= 0 && !p->files[it->target].emitted);
    /* Between items of a parse, the text is blanks and comments; inside a region the
     * parser could not read (an ERROR node's loose tokens: ggml's GGML_TABLE_BEGIN(type,
     * name, size) tables), it is the punctuation between them. Between two dropped
     * items it is dropped too, or `( , ,` would be left behind. */
    emit_gap(f, b, pos, it->start, prev_blanked && blanked);
    prev_blanked = blanked;
    if (it->kind == XF_INC_LOCAL && it->target >= 0 && !p->files[it->target].emitted) {
      tt_pos at = tt_source_pos(f->src, it->start);
      tt_buf_printf(b, "#line 1 \"%s\"\n", p->files[it->target].abs);
      emit_file(p, it->target, b, renumbered);
      f->inlined = 1;
      if (b->len && b->data[b->len - 1] != '\n') tt_buf_putc(b, '\n');
      tt_buf_printf(b, "#line %u \"%s\"%s", at.line + 1, f->abs, n && s[n - 1] == '\n' ? "\n" : "");
      *renumbered = 1;
    } else if (keep) {
      tt_buf_append(b, s, n);
    } else {
      blank(b, text, f->src->len, it->start, it->end);
    }
    pos = it->end;
  }
  /* The tail after a dropped last item is dropped with it: the loose tokens of an
   * unparsed region that ends the file (bitsandbytes' kernels.cu ends in macro calls
   * with no `;`, whose last `)` was left behind). */
  emit_gap(f, b, pos, f->src->len, prev_blanked);
}

/* ------------------------------------------------------------------ entry */

static void copy_notes(xf_prog *p, tt_xf_result *out) {
  out->notes = p->notes;
  out->nnotes = p->nnotes;
  p->notes = NULL;
  p->nnotes = 0;
}

/* Adds the items that define `base` (a kernel's name: its declaration and
 * definition, overloads) and the items without definitions that mention it
 * (explicit instantiations) to the roots. */
static void add_roots(const xf_prog *p, const char *base, size_t **roots, size_t *nroots, size_t *cap) {
  int base_id = tt_xf_intern_find(&p->names, base, strlen(base));
  for (size_t i = 0; i < p->nitems; i++) {
    const xf_item *it = &p->items[i];
    if (it->kind != XF_CODE) continue;
    const size_t from = it->ndefs ? it->defs : it->uses, cnt = it->ndefs ? it->ndefs : it->nuses;
    for (size_t k = 0; k < cnt; k++)
      if (p->pool[from + k] == base_id && base_id >= 0) { TT_PUSH(*roots, *nroots, *cap, i); break; }
  }
}

/* Adds the items that define the names in a kernel's template arguments to the roots:
 * `norm_kernel2<floatX>` needs floatX's typedef, `kfunc<float, FILL>` the enum, even
 * where the kernel's own code names neither (the harness launches it by this name). */
static void add_targ_roots(const xf_prog *p, const tt_xf_signature *sig, size_t **roots, size_t *nroots,
                           size_t *cap) {
  for (size_t i = 0; i < sig->ntargs; i++) {
    const char *a = sig->targs[i];
    while (*a) {
      if (!isalpha((unsigned char)*a) && *a != '_') { a++; continue; }
      const char *s = a;
      while (isalnum((unsigned char)*a) || *a == '_') a++;
      char *name = tt_xasprintf("%.*s", (int)(a - s), s);
      add_roots(p, name, roots, nroots, cap);
      free(name);
    }
  }
}

/* Finds one kernel and reads its signature into sig. */
static int read_kernel(xf_prog *p, const char *kernel, tt_xf_signature *sig, char **err) {
  char *base = NULL, **targs = NULL;
  size_t ntargs = 0;
  if (tt_xf_split_template_id(kernel, &base, &targs, &ntargs) != 0) {
    *err = tt_xasprintf("kernel '%s': unbalanced '<' '>' in its template arguments", kernel);
    free(base);
    for (size_t i = 0; i < ntargs; i++) free(targs[i]);
    free(targs);
    return -1;
  }
  size_t item = 0;
  int rc = tt_xf_find_kernel(p, base, &item, err);
  if (rc == 0) {
    rc = tt_xf_signature_read(p, item, base, targs, ntargs, sig, err);
  } else {
    for (size_t i = 0; i < ntargs; i++) free(targs[i]);
    free(targs);
  }
  free(base);
  return rc;
}

int tt_xf_extract(const char *path, const char *text, size_t len, const char *const *kernels,
                  size_t nkernels, const tt_xf_options *o, tt_xf_result *out, char **err) {
  static const tt_xf_options none = {0};
  memset(out, 0, sizeof *out);
  *err = NULL;
  xf_prog p = {.o = o ? o : &none};
  int rc = -1;
  if (tt_xf_items_load(&p, path, text, len) < 0) {
    *err = p.err;
    p.err = NULL;
    goto done;
  }
  out->sigs = tt_xcalloc(nkernels + 1, sizeof *out->sigs);
  size_t *roots = NULL, nroots = 0, rcap = 0;
  for (size_t k = 0; k < nkernels; k++) {
    out->nsigs = k + 1;
    if (read_kernel(&p, kernels[k], &out->sigs[k], err) != 0) {
      free(roots);
      goto done;
    }
    add_roots(&p, out->sigs[k].base_name, &roots, &nroots, &rcap);
    add_targ_roots(&p, &out->sigs[k], &roots, &nroots, &rcap);
  }
  close_over(&p, roots, nroots);
  free(roots);

  tt_buf b = {0};
  for (size_t i = 0; o && i < o->n_defines; i++) {
    const char *d = o->defines[i], *eq = strchr(d, '=');
    if (eq) tt_buf_printf(&b, "#define %.*s %s\n", (int)(eq - d), d, eq + 1);
    else tt_buf_printf(&b, "#define %s 1\n", d);
  }
  if (b.len) {
    tt_buf_printf(&b, "#line 1 \"%s\"\n", p.files[0].abs);
    out->renumbered = 1;
  }
  emit_file(&p, 0, &b, &out->renumbered);
  out->len = b.len;
  out->text = tt_buf_steal(&b);
  out->files = tt_xcalloc(p.nfiles + 1, sizeof *out->files);
  for (size_t i = 0; i < p.nfiles; i++) out->files[i] = tt_xstrdup(p.files[i].abs);
  out->nfiles = p.nfiles;
  rc = 0;
done:
  copy_notes(&p, out);
  tt_xf_items_free(&p);
  if (rc != 0) tt_xf_result_free(out);
  return rc;
}

void tt_xf_result_free(tt_xf_result *r) {
  free(r->text);
  for (size_t i = 0; i < r->nnotes; i++) free(r->notes[i]);
  free(r->notes);
  for (size_t i = 0; i < r->nfiles; i++) free(r->files[i]);
  free(r->files);
  for (size_t i = 0; i < r->nsigs; i++) tt_xf_signature_free(&r->sigs[i]);
  free(r->sigs);
  memset(r, 0, sizeof *r);
}

int tt_xf_split_template_id(const char *s, char **name, char ***args, size_t *nargs) {
  *name = NULL;
  *args = NULL;
  *nargs = 0;
  while (*s == ' ' || *s == '\t') s++;
  const char *lt = strchr(s, '<');
  size_t nlen = lt ? (size_t)(lt - s) : strlen(s);
  while (nlen && (s[nlen - 1] == ' ' || s[nlen - 1] == '\t')) nlen--;
  *name = tt_xstrndup(s, nlen);
  if (!lt) return 0;
  size_t cap = 0;
  int depth = 0;
  const char *start = lt + 1, *q = lt + 1;
  for (; *q; q++) {
    if (*q == '<' || *q == '(' || *q == '[') depth++;
    else if ((*q == ')' || *q == ']') && depth > 0) depth--;
    else if (*q == '>' && depth > 0) depth--;
    else if ((*q == ',' || *q == '>') && depth == 0) {
      const char *a = start, *e = q;
      while (a < e && (*a == ' ' || *a == '\t')) a++;
      while (e > a && (e[-1] == ' ' || e[-1] == '\t')) e--;
      if (e > a || *q == ',') TT_PUSH(*args, *nargs, cap, tt_xstrndup(a, (size_t)(e - a)));
      start = q + 1;
      if (*q == '>') break;
    }
  }
  int ok = *q == '>';
  if (ok) {
    for (q++; *q == ' ' || *q == '\t'; q++) {}
    ok = *q == 0;
  }
  return ok ? 0 : -1;
}
