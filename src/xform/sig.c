/* sig.c — the kernel's definition among the items, and its signature (see sig.h). */
#include "xform/sig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int is_type(TSNode n, const char *t) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), t) == 0; }

static TSNode null_node(void) {
  TSNode n = {{0}, NULL, NULL};
  return n;
}

/* The function definition an item holds (directly, under template<...>, or in an
 * extern "C" without braces); null when none. *tmpl receives the template. */
static TSNode function_of(TSNode n, TSNode *tmpl) {
  if (is_type(n, "function_definition")) return n;
  if (is_type(n, "template_declaration")) {
    *tmpl = n;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
      TSNode c = ts_node_named_child(n, i);
      if (is_type(c, "function_definition")) return c;
    }
  }
  if (is_type(n, "linkage_specification")) return function_of(ts_node_child_by_field_name(n, "body", 4), tmpl);
  return null_node();
}

static TSNode fn_declarator(TSNode fn) {
  TSNode d = ts_node_child_by_field_name(fn, "declarator", 10);
  while (!ts_node_is_null(d) && !is_type(d, "function_declarator"))
    d = ts_node_child_by_field_name(d, "declarator", 10);
  return d;
}

/* Whether `__global__` is written before the function's declarator. */
static int is_global(const xf_prog *p, int file, TSNode item, TSNode fn) {
  const char *text = p->files[file].src->text;
  uint32_t a = ts_node_start_byte(item), b = ts_node_start_byte(fn_declarator(fn));
  for (uint32_t i = a; i + 10 <= b; i++)
    if (!memcmp(text + i, "__global__", 10)) return 1;
  return 0;
}

static int name_is(const xf_prog *p, int file, TSNode fn, const char *name) {
  TSNode n = tt_xf_declarator_name(fn_declarator(fn));
  if (ts_node_is_null(n)) return 0;
  size_t len;
  const char *s = tt_xf_node_text(p, file, n, &len);
  return len == strlen(name) && !memcmp(s, name, len);
}

typedef struct { const xf_prog *p; int file; const char *name; TSNode found; } nested_ctx;

static bool nested_enter(TSNode n, void *vctx) {
  nested_ctx *c = vctx;
  if (!ts_node_is_null(c->found)) return false;
  if (is_type(n, "function_definition") && name_is(c->p, c->file, n, c->name)) {
    c->found = n;
    return false;
  }
  return true;
}

/* A kernel that is there but not at the top level: error recovery put it inside
 * another definition whose text did not parse (an unbalanced brace above it). Says
 * where, so the user can fix that spot. Returns 0 when there is no such kernel. */
static int nested_kernel(const xf_prog *p, const char *name, char **err) {
  for (size_t f = 0; f < p->nfiles; f++) {
    nested_ctx c = {p, (int)f, name, null_node()};
    tt_tree_walk(ts_tree_root_node(p->files[f].tree->ts), nested_enter, &c);
    if (ts_node_is_null(c.found)) continue;
    TSNode outer = c.found;
    while (!ts_node_is_null(ts_node_parent(outer)) && !is_type(ts_node_parent(outer), "translation_unit"))
      outer = ts_node_parent(outer);
    tt_pos at = tt_source_pos(p->files[f].src, ts_node_start_byte(c.found));
    tt_pos in = tt_source_pos(p->files[f].src, ts_node_start_byte(outer));
    *err = tt_xasprintf("%s:%u: kernel '%s' is inside the code that starts at line %u, which does not parse "
                        "(a brace or parenthesis not closed before the kernel?); edit the code between lines "
                        "%u and %u so that it parses",
                        p->files[f].abs, at.line, name, in.line, in.line, at.line);
    return 1;
  }
  return 0;
}

int tt_xf_find_kernel(const xf_prog *p, const char *name, size_t *item, char **err) {
  tt_buf seen = {0};
  size_t nseen = 0;
  for (size_t i = 0; i < p->nitems; i++) {
    const xf_item *it = &p->items[i];
    if (it->kind != XF_CODE) continue;
    TSNode tmpl = null_node(), fn = function_of(it->node, &tmpl);
    if (ts_node_is_null(fn) || !is_global(p, it->file, it->node, fn)) continue;
    if (name_is(p, it->file, fn, name)) {
      *item = i;
      tt_buf_free(&seen);
      return 0;
    }
    TSNode n = tt_xf_declarator_name(fn_declarator(fn));
    size_t len;
    const char *s = tt_xf_node_text(p, it->file, n, &len);
    if (nseen++ < 12) tt_buf_printf(&seen, "%s%.*s", nseen > 1 ? ", " : "", (int)len, s);
  }
  if (nested_kernel(p, name, err)) {
    tt_buf_free(&seen);
    return -1;
  }
  *err = tt_xasprintf("%s: no __global__ function '%s' in this file or the local headers it includes "
                      "(kernels defined: %s)%s",
                      p->files[0].abs, name, nseen ? seen.data : "none",
                      p->nparse_errors ? "; parts of the files could not be parsed: if the kernel is there, that part needs an edit" : "");
  tt_buf_free(&seen);
  return -1;
}

/* ------------------------------------------------------------------ types */

static int dropped_word(const char *w, size_t n) {
  static const char *words[] = {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct",
                                "class", "enum", "union", "typename", NULL};
  for (int i = 0; words[i]; i++)
    if (strlen(words[i]) == n && !memcmp(words[i], w, n)) return 1;
  return 0;
}

/* A type as written, normalised: qualifiers and elaborated-type keywords dropped,
 * one space between words, pointer levels counted into *ptrs (a trailing '&' into
 * *ref). "const float * __restrict__" -> "float", ptrs 1. */
static char *norm_type(const char *s, size_t n, int *ptrs, int *ref) {
  tt_buf b = {0};
  int angle = 0;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    if (isalpha(c) || c == '_') {
      size_t j = i + 1;
      while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_')) j++;
      if (!dropped_word(s + i, j - i)) {
        if (b.len && (isalnum((unsigned char)b.data[b.len - 1]) || b.data[b.len - 1] == '_')) tt_buf_putc(&b, ' ');
        tt_buf_append(&b, s + i, j - i);
      }
      i = j;
    } else if (c == '*' && !angle) { (*ptrs)++; i++; }
    else if (c == '&' && !angle) { *ref = 1; i++; }
    else if (isspace(c)) i++;
    else {
      if (c == '<') angle++;
      if (c == '>') angle--;
      if (c == ',' ) { tt_buf_puts(&b, ", "); i++; continue; }
      tt_buf_putc(&b, (char)c);
      i++;
    }
  }
  return tt_buf_steal(&b);
}

static char *node_norm(const xf_prog *p, int file, TSNode n, int *ptrs, int *ref) {
  size_t len;
  const char *s = tt_xf_node_text(p, file, n, &len);
  return norm_type(s, len, ptrs, ref);
}

/* Pointer levels and reference of a declarator chain, and its name. */
static TSNode walk_declarator(TSNode d, int *ptrs, int *ref) {
  while (!ts_node_is_null(d)) {
    const char *t = ts_node_type(d);
    if (strstr(t, "pointer_declarator")) (*ptrs)++;
    else if (strstr(t, "array_declarator")) (*ptrs)++;
    else if (strstr(t, "reference_declarator")) *ref = 1;
    else if (!strcmp(t, "identifier")) return d;
    TSNode inner = ts_node_child_by_field_name(d, "declarator", 10);
    if (ts_node_is_null(inner) && strstr(t, "reference_declarator") && ts_node_named_child_count(d))
      inner = ts_node_named_child(d, 0);
    d = inner;
  }
  return null_node();
}

/* What a typedef, alias or object-like macro named `name` stands for, when the
 * program defines it exactly one way. Returns the replacement (malloc'd) with its
 * pointer levels, NULL when the name is not an alias; *ambiguous when it is one in
 * several different ways (e.g. under #if/#else). */
static char *alias_of(const xf_prog *p, const char *name, int *ptrs, int *ambiguous) {
  int id = tt_xf_intern_find(&p->names, name, strlen(name));
  char *found = NULL;
  int found_ptrs = 0;
  if (id < 0) return NULL;
  for (size_t i = 0; i < p->nitems; i++) {
    const xf_item *it = &p->items[i];
    int defines = 0;
    for (size_t k = 0; k < it->ndefs && !defines; k++) defines = p->pool[it->defs + k] == id;
    if (!defines) continue;
    int np = 0, ref = 0;
    char *rep = NULL;
    TSNode n = it->node;
    if (is_type(n, "type_definition")) {
      TSNode ty = ts_node_child_by_field_name(n, "type", 4);
      if (is_type(ty, "struct_specifier") || is_type(ty, "enum_specifier") || is_type(ty, "union_specifier")) {
        TSNode tn = ts_node_child_by_field_name(ty, "name", 4);
        if (ts_node_is_null(tn)) continue; /* typedef struct {...} X: X is the struct */
      }
      rep = node_norm(p, it->file, ty, &np, &ref);
      TSNode d = ts_node_child_by_field_name(n, "declarator", 10);
      walk_declarator(d, &np, &ref);
    } else if (is_type(n, "alias_declaration")) {
      rep = node_norm(p, it->file, ts_node_child_by_field_name(n, "type", 4), &np, &ref);
    } else if (it->kind == XF_MACRO && is_type(n, "preproc_def")) {
      TSNode v = ts_node_child_by_field_name(n, "value", 5);
      if (ts_node_is_null(v)) continue;
      rep = node_norm(p, it->file, v, &np, &ref);
    } else {
      continue;
    }
    if (!strcmp(rep, name)) { free(rep); continue; }
    if (found && (strcmp(found, rep) || found_ptrs != np)) *ambiguous = 1;
    if (!found) { found = rep; found_ptrs = np; }
    else free(rep);
  }
  *ptrs += found_ptrs;
  return found;
}

/* The struct (or enum) body named `name` among the items, when there is one. */
static TSNode record_of(const xf_prog *p, const char *name, int *file, int *is_enum) {
  int id = tt_xf_intern_find(&p->names, name, strlen(name));
  for (size_t i = 0; id >= 0 && i < p->nitems; i++) {
    const xf_item *it = &p->items[i];
    int defines = 0;
    for (size_t k = 0; k < it->ndefs && !defines; k++) defines = p->pool[it->defs + k] == id;
    if (!defines) continue;
    TSNode n = it->node, spec = n;
    if (is_type(n, "type_definition") || is_type(n, "declaration")) spec = ts_node_child_by_field_name(n, "type", 4);
    const char *t = ts_node_is_null(spec) ? "" : ts_node_type(spec);
    if (strcmp(t, "struct_specifier") && strcmp(t, "class_specifier") && strcmp(t, "enum_specifier")) continue;
    TSNode body = ts_node_child_by_field_name(spec, "body", 4);
    if (ts_node_is_null(body)) continue;
    *file = it->file;
    *is_enum = !strcmp(t, "enum_specifier");
    return body;
  }
  return null_node();
}

static void read_fields(const xf_prog *p, int file, TSNode body, tt_xf_param *prm) {
  size_t cap = 0, tcap = 0, nt = 0;
  uint32_t k = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < k; i++) {
    TSNode fd = ts_node_named_child(body, i);
    if (!is_type(fd, "field_declaration")) continue;
    TSNode ty = ts_node_child_by_field_name(fd, "type", 4);
    TSTreeCursor c = ts_tree_cursor_new(fd);
    if (ts_tree_cursor_goto_first_child(&c)) {
      do {
        const char *f = ts_tree_cursor_current_field_name(&c);
        if (!f || strcmp(f, "declarator")) continue;
        int ptrs = 0, ref = 0;
        TSNode d = ts_tree_cursor_current_node(&c);
        TSNode nm = tt_xf_declarator_name(d);
        if (ts_node_is_null(nm)) continue;
        size_t len;
        const char *s = tt_xf_node_text(p, file, nm, &len);
        TT_PUSH(prm->fields, prm->nfields, cap, tt_xstrndup(s, len));
        char *bt = ts_node_is_null(ty) ? tt_xstrdup("?") : node_norm(p, file, ty, &ptrs, &ref);
        walk_declarator(d, &ptrs, &ref);
        if (ptrs) {
          char *withp = tt_xasprintf("%s*", bt);
          free(bt);
          bt = withp;
        }
        TT_PUSH(prm->field_types, nt, tcap, bt);
      } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
  }
}

/* Substitutes template arguments and aliases into a parameter's base type until it
 * is a name the program does not alias (at most 16 steps: aliases can loop). */
static void resolve_param(const xf_prog *p, const tt_xf_signature *sig, tt_xf_param *prm) {
  prm->resolved = 1;
  for (int step = 0; step < 16; step++) {
    const char *rep = NULL;
    for (size_t i = 0; i < sig->ntparams && !rep; i++)
      if (sig->tparams[i].kind == TT_XF_TPARAM_TYPE && !strcmp(sig->tparams[i].name, prm->base))
        rep = i < sig->ntargs ? sig->targs[i] : sig->tparams[i].deflt;
    char *next = NULL;
    if (rep) {
      next = norm_type(rep, strlen(rep), &prm->pointers, &prm->reference);
    } else {
      int ambiguous = 0;
      next = alias_of(p, prm->base, &prm->pointers, &ambiguous);
      if (ambiguous) prm->resolved = 0;
      if (!next || ambiguous) { free(next); break; }
    }
    free(prm->base);
    prm->base = next;
  }
  int file = 0, is_enum = 0;
  TSNode body = record_of(p, prm->base, &file, &is_enum);
  if (!ts_node_is_null(body)) {
    prm->is_enum = is_enum;
    prm->is_struct = !is_enum;
    if (!is_enum) read_fields(p, file, body, prm);
  }
}

static char *collapse(const char *s, size_t n) {
  tt_buf b = {0};
  int space = 0;
  for (size_t i = 0; i < n; i++) {
    if (isspace((unsigned char)s[i])) { space = 1; continue; }
    if (space && b.len) tt_buf_putc(&b, ' ');
    space = 0;
    tt_buf_putc(&b, s[i]);
  }
  return tt_buf_steal(&b);
}

static void read_tparams(const xf_prog *p, int file, TSNode tmpl, tt_xf_signature *sig) {
  TSNode list = ts_node_child_by_field_name(tmpl, "parameters", 10);
  size_t cap = 0, len;
  uint32_t k = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < k; i++) {
    TSNode c = ts_node_named_child(list, i);
    const char *t = ts_node_type(c);
    tt_xf_tparam tp = {0};
    TSNode name = ts_node_child_by_field_name(c, "name", 4), dflt = null_node();
    if (!strcmp(t, "type_parameter_declaration") || !strcmp(t, "variadic_type_parameter_declaration")) {
      tp.kind = TT_XF_TPARAM_TYPE;
      if (ts_node_is_null(name) && ts_node_named_child_count(c)) name = ts_node_named_child(c, ts_node_named_child_count(c) - 1);
    } else if (!strcmp(t, "optional_type_parameter_declaration")) {
      tp.kind = TT_XF_TPARAM_TYPE;
      dflt = ts_node_child_by_field_name(c, "default_type", 12);
    } else if (!strcmp(t, "parameter_declaration") || !strcmp(t, "optional_parameter_declaration")) {
      tp.kind = TT_XF_TPARAM_VALUE;
      int ptrs = 0, ref = 0;
      name = walk_declarator(ts_node_child_by_field_name(c, "declarator", 10), &ptrs, &ref);
      tp.value_type = node_norm(p, file, ts_node_child_by_field_name(c, "type", 4), &ptrs, &ref);
      dflt = ts_node_child_by_field_name(c, "default_value", 13);
    } else {
      continue;
    }
    const char *s = ts_node_is_null(name) ? "" : tt_xf_node_text(p, file, name, &len);
    tp.name = tt_xstrndup(s, ts_node_is_null(name) ? 0 : len);
    if (!ts_node_is_null(dflt)) {
      s = tt_xf_node_text(p, file, dflt, &len);
      tp.deflt = collapse(s, len);
    }
    TT_PUSH(sig->tparams, sig->ntparams, cap, tp);
  }
}

static char *template_text(const xf_prog *p, int file, TSNode tmpl) {
  size_t len;
  const char *s = tt_xf_node_text(p, file, ts_node_child_by_field_name(tmpl, "parameters", 10), &len);
  char *c = collapse(s, len);
  char *r = tt_xasprintf("template %s", c);
  free(c);
  return r;
}

/* Template arguments against parameters: not more than there are, and every
 * parameter without a default given. */
static int check_targs(const xf_prog *p, int file, TSNode tmpl, tt_xf_signature *sig, char **err) {
  size_t needed = 0;
  for (size_t i = 0; i < sig->ntparams; i++)
    if (!sig->tparams[i].deflt) needed = i + 1;
  if (ts_node_is_null(tmpl) && sig->ntargs) {
    *err = tt_xasprintf("%s:%d: kernel '%s' is not a template, but the spec gives it template arguments",
                        sig->file, sig->line, sig->base_name);
    return -1;
  }
  if (ts_node_is_null(tmpl)) return 0;
  if (sig->ntargs > sig->ntparams || sig->ntargs < needed) {
    char *tt = template_text(p, file, tmpl);
    *err = tt_xasprintf("%s:%d: kernel '%s' is a template (%s): the spec gives %zu template argument%s, it "
                        "needs %s%zu; write them in `kernel:`, e.g. kernel: \"%s<...>\"",
                        sig->file, sig->line, sig->base_name, tt, sig->ntargs, sig->ntargs == 1 ? "" : "s",
                        sig->ntargs > sig->ntparams ? "at most " : (needed < sig->ntparams ? "at least " : ""),
                        sig->ntargs > sig->ntparams ? sig->ntparams : needed, sig->base_name);
    free(tt);
    return -1;
  }
  return 0;
}

static void read_params(const xf_prog *p, int file, TSNode fn, tt_xf_signature *sig) {
  TSNode list = ts_node_child_by_field_name(fn_declarator(fn), "parameters", 10);
  size_t cap = 0;
  uint32_t k = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < k; i++) {
    TSNode c = ts_node_named_child(list, i);
    const char *t = ts_node_type(c);
    if (strcmp(t, "parameter_declaration") && strcmp(t, "optional_parameter_declaration") &&
        strcmp(t, "variadic_parameter_declaration"))
      continue;
    tt_xf_param prm = {0};
    size_t len;
    const char *s = tt_xf_node_text(p, file, c, &len);
    prm.decl = collapse(s, len);
    tt_pos pos = tt_source_pos(p->files[file].src, ts_node_start_byte(c));
    prm.line = (int)pos.line;
    prm.column = (int)pos.column;
    TSNode name = walk_declarator(ts_node_child_by_field_name(c, "declarator", 10), &prm.pointers, &prm.reference);
    if (!ts_node_is_null(name)) {
      s = tt_xf_node_text(p, file, name, &len);
      prm.name = tt_xstrndup(s, len);
    }
    prm.base = node_norm(p, file, ts_node_child_by_field_name(c, "type", 4), &prm.pointers, &prm.reference);
    resolve_param(p, sig, &prm);
    TT_PUSH(sig->params, sig->nparams, cap, prm);
  }
}

int tt_xf_signature_read(const xf_prog *p, size_t item, const char *base, char **targs, size_t ntargs,
                         tt_xf_signature *sig, char **err) {
  memset(sig, 0, sizeof *sig);
  const xf_item *it = &p->items[item];
  TSNode tmpl = null_node(), fn = function_of(it->node, &tmpl);
  const tt_source *src = p->files[it->file].src;
  tt_pos pos = tt_source_pos(src, ts_node_start_byte(tt_xf_declarator_name(fn_declarator(fn))));
  uint32_t ll;
  const char *lt = tt_source_line(src, pos.line, &ll);
  sig->file = tt_xstrdup(p->files[it->file].abs);
  sig->line = (int)pos.line;
  sig->line_text = tt_xstrndup(lt, ll);
  sig->base_name = tt_xstrdup(base);
  sig->targs = targs;
  sig->ntargs = ntargs;
  if (!ts_node_is_null(tmpl)) read_tparams(p, it->file, tmpl, sig);
  if (check_targs(p, it->file, tmpl, sig, err) != 0) return -1;
  if (ts_node_is_null(tmpl)) {
    sig->launch_name = tt_xstrdup(base);
  } else {
    tt_buf b = {0};
    tt_buf_printf(&b, "(%s<", base);
    for (size_t i = 0; i < ntargs; i++) tt_buf_printf(&b, "%s%s", i ? ", " : "", targs[i]);
    tt_buf_puts(&b, ">)");
    sig->launch_name = tt_buf_steal(&b);
  }
  read_params(p, it->file, fn, sig);
  return 0;
}

void tt_xf_signature_free(tt_xf_signature *s) {
  free(s->file);
  free(s->line_text);
  free(s->base_name);
  free(s->launch_name);
  for (size_t i = 0; i < s->ntparams; i++) {
    free(s->tparams[i].name);
    free(s->tparams[i].value_type);
    free(s->tparams[i].deflt);
  }
  free(s->tparams);
  for (size_t i = 0; i < s->ntargs; i++) free(s->targs[i]);
  free(s->targs);
  for (size_t i = 0; i < s->nparams; i++) {
    tt_xf_param *q = &s->params[i];
    free(q->decl);
    free(q->name);
    free(q->base);
    for (size_t k = 0; k < q->nfields; k++) {
      free(q->fields[k]);
      free(q->field_types[k]);
    }
    free(q->fields);
    free(q->field_types);
  }
  free(s->params);
  memset(s, 0, sizeof *s);
}
