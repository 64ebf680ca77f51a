/* items.c — collecting the top-level items of a program and its local headers (see
 * items.h). One pass over each file's tree; each item's names are gathered by one
 * walk of its subtree, so the whole is linear in the size of the files. */
#include "xform/items.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/util.h"

/* ------------------------------------------------------------------ interning */

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static int slot_find(const xf_intern *in, const char *s, size_t n, size_t *slot) {
  if (!in->nslots) return -1;
  size_t mask = in->nslots - 1, i = (size_t)hash_bytes(s, n) & mask;
  for (;; i = (i + 1) & mask) {
    int id = in->slots[i] - 1;
    if (id < 0) { *slot = i; return -1; }
    const char *name = in->names[id];
    if (strlen(name) == n && memcmp(name, s, n) == 0) { *slot = i; return id; }
  }
}

static void rehash(xf_intern *in) {
  size_t ns = in->nslots ? in->nslots * 2 : 256;
  free(in->slots);
  in->slots = tt_xcalloc(ns, sizeof *in->slots);
  in->nslots = ns;
  for (size_t id = 0; id < in->n; id++) {
    size_t slot = 0;
    slot_find(in, in->names[id], strlen(in->names[id]), &slot);
    in->slots[slot] = (int)id + 1;
  }
}

int tt_xf_intern(xf_intern *in, const char *s, size_t n) {
  size_t slot = 0;
  int id = slot_find(in, s, n, &slot);
  if (id >= 0) return id;
  if ((in->n + 1) * 2 > in->nslots) {
    rehash(in);
    slot_find(in, s, n, &slot);
  }
  TT_PUSH(in->names, in->n, in->cap, tt_xstrndup(s, n));
  in->slots[slot] = (int)in->n;
  return (int)in->n - 1;
}

int tt_xf_intern_find(const xf_intern *in, const char *s, size_t n) {
  size_t slot = 0;
  return slot_find(in, s, n, &slot);
}

/* ------------------------------------------------------------------ helpers */

void tt_xf_note(xf_prog *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = tt_xvasprintf(fmt, ap);
  va_end(ap);
  TT_PUSH(p->notes, p->nnotes, p->ncap, s);
}

const char *tt_xf_node_text(const xf_prog *p, int file, TSNode node, size_t *n) {
  uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
  *n = b - a;
  return p->files[file].src->text + a;
}

static int is_type(TSNode n, const char *t) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), t) == 0; }

static void push_name(xf_prog *p, int file, TSNode node) {
  size_t n;
  const char *s = tt_xf_node_text(p, file, node, &n);
  TT_PUSH(p->pool, p->npool, p->pcap, tt_xf_intern(&p->names, s, n));
}

static void push_text_names(xf_prog *p, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    if (isalpha((unsigned char)s[i]) || s[i] == '_') {
      size_t j = i + 1;
      while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_')) j++;
      TT_PUSH(p->pool, p->npool, p->pcap, tt_xf_intern(&p->names, s + i, j - i));
      i = j;
    } else if (isdigit((unsigned char)s[i])) {
      while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.')) i++;
    } else {
      i++;
    }
  }
}

TSNode tt_xf_declarator_name(TSNode d) {
  while (!ts_node_is_null(d)) {
    const char *t = ts_node_type(d);
    if (!strcmp(t, "identifier") || !strcmp(t, "field_identifier") || !strcmp(t, "type_identifier"))
      return d;
    if (!strcmp(t, "qualified_identifier") || !strcmp(t, "template_function") || !strcmp(t, "template_type")) {
      d = ts_node_child_by_field_name(d, "name", 4);
      continue;
    }
    TSNode inner = ts_node_child_by_field_name(d, "declarator", 10);
    if (ts_node_is_null(inner)) {
      /* parenthesized_declarator, attributed_declarator: the first named child */
      inner = ts_node_named_child_count(d) ? ts_node_named_child(d, 0) : inner;
      if (!ts_node_is_null(inner) && ts_node_eq(inner, d)) break;
    }
    d = inner;
  }
  TSNode none = {{0}, NULL, NULL};
  return none;
}

/* The names a qualified declarator's scopes give (`Foo` of `Foo::bar`): an
 * out-of-class member definition is needed whenever its class is. */
static void push_scopes(xf_prog *p, int file, TSNode d) {
  for (; !ts_node_is_null(d); d = ts_node_child_by_field_name(d, "declarator", 10)) {
    if (is_type(d, "qualified_identifier")) {
      for (TSNode q = d; is_type(q, "qualified_identifier"); q = ts_node_child_by_field_name(q, "name", 4)) {
        TSNode scope = ts_node_child_by_field_name(q, "scope", 5);
        if (!ts_node_is_null(scope)) push_name(p, file, is_type(scope, "template_type")
                                                         ? ts_node_child_by_field_name(scope, "name", 4) : scope);
      }
      return;
    }
  }
}

/* Type names a struct/class/union/enum specifier with a body defines (its name and,
 * for an enum, its enumerators). */
static void push_type_defs(xf_prog *p, int file, TSNode spec) {
  const char *t = ts_node_type(spec);
  if (strcmp(t, "struct_specifier") && strcmp(t, "class_specifier") && strcmp(t, "union_specifier") &&
      strcmp(t, "enum_specifier"))
    return;
  TSNode name = ts_node_child_by_field_name(spec, "name", 4);
  if (!ts_node_is_null(name)) {
    TSNode last = tt_xf_declarator_name(name);
    push_name(p, file, ts_node_is_null(last) ? name : last);
  }
  TSNode body = ts_node_child_by_field_name(spec, "body", 4);
  if (!ts_node_is_null(body) && is_type(body, "enumerator_list")) {
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
      TSNode e = ts_node_named_child(body, i);
      TSNode en = ts_node_child_by_field_name(e, "name", 4);
      if (!ts_node_is_null(en)) push_name(p, file, en);
    }
  }
}

/* Every child of `n` under field `field` (declarations have several declarators). */
static void push_field_declarators(xf_prog *p, int file, TSNode n, const char *field) {
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      const char *f = ts_tree_cursor_current_field_name(&c);
      if (f && !strcmp(f, field)) {
        TSNode d = ts_tree_cursor_current_node(&c);
        TSNode name = tt_xf_declarator_name(d);
        if (!ts_node_is_null(name)) push_name(p, file, name);
        push_scopes(p, file, d);
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

/* The names a code item defines. */
static void push_defs(xf_prog *p, int file, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "template_declaration")) {
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
      TSNode c = ts_node_named_child(n, i);
      if (!is_type(c, "template_parameter_list") && !is_type(c, "requires_clause")) push_defs(p, file, c);
    }
  } else if (!strcmp(t, "function_definition") || !strcmp(t, "declaration") || !strcmp(t, "type_definition") ||
             !strcmp(t, "field_declaration")) {
    push_field_declarators(p, file, n, "declarator");
    TSNode ty = ts_node_child_by_field_name(n, "type", 4);
    if (!ts_node_is_null(ty)) push_type_defs(p, file, ty);
  } else if (!strcmp(t, "alias_declaration") || !strcmp(t, "namespace_alias_definition") ||
             !strcmp(t, "concept_definition")) {
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    if (!ts_node_is_null(name)) push_name(p, file, name);
  } else if (!strcmp(t, "linkage_specification")) {
    TSNode body = ts_node_child_by_field_name(n, "body", 4);
    if (!ts_node_is_null(body)) push_defs(p, file, body);
  } else {
    push_type_defs(p, file, n);
  }
}

typedef struct {
  xf_prog *p;
  int file;
  uint32_t qualified_name; /* start byte of the name part of the last `scope::name` seen */
} walk_ctx;

/* `scope::name`: the scope as a use, the name as a qualified use (XF_QUALIFIED). */
static void push_qualified(walk_ctx *w, TSNode q) {
  TSNode scope = ts_node_child_by_field_name(q, "scope", 5), name = ts_node_child_by_field_name(q, "name", 4);
  if (!ts_node_is_null(name) && !strcmp(ts_node_type(name), "template_function"))
    name = ts_node_child_by_field_name(name, "name", 4);
  if (ts_node_is_null(scope) || ts_node_is_null(name)) return;
  const char *nt = ts_node_type(name);
  if (strcmp(nt, "identifier") && strcmp(nt, "type_identifier")) return;
  if (!strcmp(ts_node_type(scope), "template_type")) scope = ts_node_child_by_field_name(scope, "name", 4);
  size_t sl, nl;
  const char *ss = tt_xf_node_text(w->p, w->file, scope, &sl), *ns = tt_xf_node_text(w->p, w->file, name, &nl);
  TT_PUSH(w->p->pool, w->p->npool, w->p->pcap, XF_QUALIFIED);
  TT_PUSH(w->p->pool, w->p->npool, w->p->pcap, tt_xf_intern(&w->p->names, ss, sl));
  TT_PUSH(w->p->pool, w->p->npool, w->p->pcap, tt_xf_intern(&w->p->names, ns, nl));
  w->qualified_name = ts_node_start_byte(name);
}

static bool use_enter(TSNode node, void *vctx) {
  walk_ctx *w = vctx;
  const char *t = ts_node_type(node);
  if (!strcmp(t, "qualified_identifier")) push_qualified(w, node);
  else if (!strcmp(t, "identifier") || !strcmp(t, "type_identifier") || !strcmp(t, "namespace_identifier")) {
    if (ts_node_start_byte(node) != w->qualified_name) push_name(w->p, w->file, node);
  }
  else if (!strcmp(t, "preproc_arg")) {
    size_t n;
    const char *s = tt_xf_node_text(w->p, w->file, node, &n);
    push_text_names(w->p, s, n);
  }
  return true;
}

static size_t new_item(xf_prog *p, xf_item_kind kind, int file, TSNode node) {
  xf_item it = {.kind = kind, .file = file, .node = node, .target = -1,
                .start = ts_node_start_byte(node), .end = ts_node_end_byte(node)};
  TT_PUSH(p->items, p->nitems, p->icap, it);
  size_t idx = p->nitems - 1;
  xf_file *f = &p->files[file];
  TT_PUSH(f->items, f->nitems, f->cap, idx);
  return idx;
}

static void collect_names(xf_prog *p, size_t idx, int with_defs) {
  xf_item *it = &p->items[idx];
  int file = it->file;
  TSNode node = it->node;
  it->defs = p->npool;
  if (with_defs) {
    if (it->kind == XF_MACRO) push_name(p, file, ts_node_child_by_field_name(node, "name", 4));
    else push_defs(p, file, node);
  }
  p->items[idx].ndefs = p->npool - p->items[idx].defs;
  p->items[idx].uses = p->npool;
  walk_ctx w = {p, file, UINT32_MAX};
  if (p->items[idx].kind == XF_MACRO) {
    TSNode v = ts_node_child_by_field_name(node, "value", 5);
    if (!ts_node_is_null(v)) use_enter(v, &w);
  } else {
    tt_tree_walk(node, use_enter, &w);
  }
  p->items[idx].nuses = p->npool - p->items[idx].uses;
}

/* ------------------------------------------------------------------ includes */

static int file_exists(const char *path) { return access(path, R_OK) == 0 && !tt_fs_is_dir(path); }

/* C and C++ standard headers, which every host compiler provides. A C++ header has
 * no extension; these are the C ones. */
static int standard_header(const char *name) {
  static const char *c_headers[] = {
    "assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h", "stdarg.h",
    "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h", "wchar.h",
    "complex.h", "fenv.h", "iso646.h", "locale.h", "setjmp.h", "signal.h", "uchar.h", NULL};
  if (!strchr(name, '.') && !strchr(name, '/')) return 1;
  for (int i = 0; c_headers[i]; i++)
    if (!strcmp(name, c_headers[i])) return 1;
  return 0;
}

static int in_dirs(const char *const *dirs, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++) {
    char *path = tt_fs_join(dirs[i], name);
    int ok = file_exists(path);
    free(path);
    if (ok) return 1;
  }
  return 0;
}

static int provided_header(const xf_prog *p, const char *name) {
  return standard_header(name) || in_dirs(p->o->provided_dirs, p->o->n_provided_dirs, name);
}

/* A "..." include's file: the including file's folder first, then the include
 * folders (the compiler's order). NULL when none has it. */
static char *resolve_local(const xf_prog *p, int file, const char *name) {
  if (name[0] == '/') return file_exists(name) ? tt_xstrdup(name) : NULL;
  char *dir = tt_fs_dirname(p->files[file].abs);
  char *path = tt_fs_join(dir, name);
  free(dir);
  if (file_exists(path)) return path;
  free(path);
  for (size_t i = 0; i < p->o->n_include_dirs; i++) {
    path = tt_fs_join(p->o->include_dirs[i], name);
    if (file_exists(path)) return path;
    free(path);
  }
  return NULL;
}

static int find_file(const xf_prog *p, const char *abs) {
  for (size_t i = 0; i < p->nfiles; i++)
    if (!strcmp(p->files[i].abs, abs)) return (int)i;
  return -1;
}

static void include_item(xf_prog *p, int file, TSNode node) {
  TSNode pathn = ts_node_child_by_field_name(node, "path", 4);
  size_t n = 0;
  const char *s = ts_node_is_null(pathn) ? "" : tt_xf_node_text(p, file, pathn, &n);
  tt_pos pos = tt_source_pos(p->files[file].src, ts_node_start_byte(node));
  char *name = n >= 2 ? tt_xstrndup(s + 1, n - 2) : tt_xstrdup("");
  int quoted = n >= 2 && s[0] == '"';
  int support = in_dirs(p->o->support_dirs, p->o->n_support_dirs, name);
  char *local = quoted && !support ? resolve_local(p, file, name) : NULL;
  if (!local && !quoted) {
    /* <...> names a local header too when an include folder holds it (-I). */
    for (size_t i = 0; i < p->o->n_include_dirs && !local; i++) {
      char *c = tt_fs_join(p->o->include_dirs[i], name);
      if (file_exists(c)) local = c;
      else free(c);
    }
  }
  if (local) {
    size_t idx = new_item(p, XF_INC_LOCAL, file, node);
    int target = tt_xf_items_load(p, local, NULL, 0);
    p->items[idx].target = target;
    if (target < 0) p->items[idx].kind = XF_INC_DROP;
    free(local);
  } else if (support || provided_header(p, name)) {
    new_item(p, XF_INC_KEEP, file, node);
  } else {
    new_item(p, XF_INC_DROP, file, node);
    tt_xf_note(p, "%s:%u: dropped #include %.*s: the check's build does not provide it (a host "
                  "library or a header outside the include folders); add its folder to `includes:` "
                  "if the kernel needs it",
               p->files[file].abs, pos.line, (int)n, s);
  }
  free(name);
}

/* ------------------------------------------------------------------ items */

static void collect_children(xf_prog *p, int file, TSNode parent, int is_header);

static int is_pragma_once(const xf_prog *p, int file, TSNode node) {
  size_t n;
  const char *s = tt_xf_node_text(p, file, node, &n);
  const char *e = s + n;
  s++; /* '#' */
  while (s < e && isspace((unsigned char)*s)) s++;
  if (e - s < 6 || memcmp(s, "pragma", 6)) return 0;
  s += 6;
  while (s < e && isspace((unsigned char)*s)) s++;
  return e - s >= 4 && !memcmp(s, "once", 4);
}

static void collect_node(xf_prog *p, int file, TSNode node, int is_header) {
  const char *t = ts_node_type(node);
  if (!strcmp(t, "comment")) return;
  if (!strcmp(t, "preproc_include")) { include_item(p, file, node); return; }
  if (!strcmp(t, "preproc_if") || !strcmp(t, "preproc_ifdef") || !strcmp(t, "preproc_elif") ||
      !strcmp(t, "preproc_else") || !strcmp(t, "preproc_elifdef")) {
    collect_children(p, file, node, is_header);
    return;
  }
  if (!strcmp(t, "namespace_definition")) {
    TSNode name = ts_node_child_by_field_name(node, "name", 4);
    size_t n;
    if (!ts_node_is_null(name)) {
      const char *ns = tt_xf_node_text(p, file, name, &n);
      TT_PUSH(p->namespaces, p->nns, p->nscap, tt_xf_intern(&p->names, ns, n));
    }
  }
  if (!strcmp(t, "namespace_definition") ||
      (!strcmp(t, "linkage_specification") && is_type(ts_node_child_by_field_name(node, "body", 4), "declaration_list"))) {
    TSNode body = ts_node_child_by_field_name(node, "body", 4);
    if (ts_node_is_null(body)) return;
    /* The container's own text (`namespace X {` and its `}`) is an item that is always
     * kept: the text between dropped items is dropped with them, and these braces
     * must stay balanced whatever their contents keep. */
    uint32_t open = ts_node_start_byte(body) + 1, close = ts_node_end_byte(body);
    size_t head = new_item(p, XF_ALWAYS, file, node);
    p->items[head].end = open;
    collect_children(p, file, body, is_header);
    if (close > open && p->files[file].src->text[close - 1] == '}') {
      size_t tail = new_item(p, XF_ALWAYS, file, node);
      p->items[tail].start = close - 1;
      p->items[tail].end = close;
    }
    return;
  }
  if (!strcmp(t, "preproc_def") || !strcmp(t, "preproc_function_def")) {
    collect_names(p, new_item(p, XF_MACRO, file, node), 1);
    return;
  }
  if (!strcmp(t, "preproc_call") || !strcmp(t, "preproc_directive")) {
    new_item(p, is_header && is_pragma_once(p, file, node) ? XF_DROP : XF_ALWAYS, file, node);
    return;
  }
  if (!strcmp(t, "using_declaration")) { new_item(p, XF_ALWAYS, file, node); return; }
  if (!strcmp(t, "ERROR")) {
    tt_pos a = tt_source_pos(p->files[file].src, ts_node_start_byte(node));
    tt_pos b = tt_source_pos(p->files[file].src, ts_node_end_byte(node));
    tt_xf_note(p, "%s:%u: lines %u-%u could not be parsed and were left out", p->files[file].abs, a.line,
               a.line, b.line);
    p->nparse_errors++;
    new_item(p, XF_DROP, file, node);
    return;
  }
  if (!ts_node_is_named(node)) return; /* `;` after a struct, `{` `}` of a body, #endif */
  collect_names(p, new_item(p, XF_CODE, file, node), 1);
}

/* The items among a container's children: a conditional's condition and name are
 * not items, its alternative (#elif/#else) is a container in turn. */
static void collect_children(xf_prog *p, int file, TSNode parent, int is_header) {
  TSTreeCursor c = ts_tree_cursor_new(parent);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      const char *f = ts_tree_cursor_current_field_name(&c);
      TSNode n = ts_tree_cursor_current_node(&c);
      if (f && (!strcmp(f, "condition") || !strcmp(f, "name"))) continue;
      collect_node(p, file, n, is_header);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

/* ---------------------------------------------------------- linkage wrappers */

/* The end of the line that starts at s (the '\n' or e). */
static const char *line_end(const char *s, const char *e) {
  const char *nl = memchr(s, '\n', (size_t)(e - s));
  return nl ? nl : e;
}

/* [s, e) with leading blanks skipped. */
static const char *skip_blanks(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
  return s;
}

/* Whether the line [s, e) is `#ifdef __cplusplus` or `#if defined(__cplusplus)` (the
 * opener of a C header's linkage wrapper), or `#endif` when want_endif. */
static int is_cplusplus_guard(const char *s, const char *e, int want_endif) {
  s = skip_blanks(s, e);
  if (s == e || *s != '#') return 0;
  s = skip_blanks(s + 1, e);
  if (want_endif) return e - s >= 5 && !memcmp(s, "endif", 5);
  static const char *const opens[] = {"ifdef", "if defined(", "if defined"};
  for (size_t i = 0; i < sizeof opens / sizeof *opens; i++) {
    size_t n = strlen(opens[i]);
    if ((size_t)(e - s) < n || memcmp(s, opens[i], n)) continue;
    const char *q = skip_blanks(s + n, e);
    return e - q >= 11 && !memcmp(q, "__cplusplus", 11);
  }
  return 0;
}

/* Whether the line [s, e) is `extern "C" {` or `}`, with an optional // comment. */
static int is_linkage_brace(const char *s, const char *e) {
  s = skip_blanks(s, e);
  if (e - s >= 6 && !memcmp(s, "extern", 6)) {
    s = skip_blanks(s + 6, e);
    if (e - s < 3 || memcmp(s, "\"C\"", 3)) return 0;
    s = skip_blanks(s + 3, e);
    if (s == e || *s != '{') return 0;
  } else if (s == e || *s != '}') {
    return 0;
  }
  s = skip_blanks(s + 1, e);
  return s == e || (e - s >= 2 && s[0] == '/' && s[1] == '/');
}

int tt_xf_is_linkage_line(const char *text, size_t len, size_t ls, size_t le) {
  const char *e = text + len, *a = text + ls, *ae = text + le;
  if (ls == 0 || le >= len || !is_linkage_brace(a, ae)) return 0;
  const char *prev = a - 1; /* the '\n' ending the previous line */
  while (prev > text && prev[-1] != '\n') prev--;
  return is_cplusplus_guard(prev, a - 1, 0) && is_cplusplus_guard(ae + 1, line_end(ae + 1, e), 1);
}

int tt_xf_is_conditional_line(const char *s, const char *e) {
  s = skip_blanks(s, e);
  if (s == e || *s != '#') return 0;
  s = skip_blanks(s + 1, e);
  return (e - s >= 2 && !memcmp(s, "if", 2)) || (e - s >= 4 && (!memcmp(s, "elif", 4) || !memcmp(s, "else", 4))) ||
         (e - s >= 5 && !memcmp(s, "endif", 5));
}

/* A copy of text for the parser with the middle line of every C header linkage
 * wrapper blanked (`#ifdef __cplusplus` / `extern "C" {` / `#endif`, and its closing
 * `#ifdef __cplusplus` / `}` / `#endif`); NULL when there is none. tree-sitter cannot
 * parse a brace opened in one conditional and closed in another: the whole header
 * becomes one ERROR node whose loose tokens would then be blanked one by one
 * (`#ifdef __cplusplus` lost its name). Only spaces replace bytes, so every offset
 * and line of the tree is that of the text; the emitted text is the original, where
 * these lines lie between items and are copied as they are. Linear in len. */
static char *mask_linkage_wrappers(const char *text, size_t len) {
  char *copy = NULL;
  const char *e = text + len;
  for (const char *a = text; a < e;) {
    const char *ae = line_end(a, e);
    if (ae < e && is_cplusplus_guard(a, ae, 0)) {
      const char *b = ae + 1, *be = line_end(b, e);
      if (be < e && is_linkage_brace(b, be) && is_cplusplus_guard(be + 1, line_end(be + 1, e), 1)) {
        if (!copy) {
          copy = tt_xmalloc(len + 1);
          memcpy(copy, text, len);
          copy[len] = 0;
        }
        memset(copy + (b - text), ' ', (size_t)(be - b));
        a = be + 1;
        continue;
      }
    }
    a = ae + 1;
  }
  return copy;
}

int tt_xf_items_load(xf_prog *p, const char *path, const char *text, size_t len) {
  char *abs = realpath(path, NULL);
  if (!abs) abs = tt_xstrdup(path);
  int existing = find_file(p, abs);
  if (existing >= 0) { free(abs); return existing; }
  char *buf = NULL;
  for (size_t i = 0; !text && p->o && i < p->o->n_overlay; i++)
    if (!strcmp(p->o->overlay[i].path, abs)) text = p->o->overlay[i].text, len = p->o->overlay[i].len;
  if (text) {
    buf = tt_xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = 0;
  } else {
    char *ferr = NULL;
    if (tt_fs_read(path, &buf, &len, &ferr) != 0) {
      if (!p->err) p->err = tt_xasprintf("cannot read %s: %s", path, ferr ? ferr : strerror(errno));
      free(ferr);
      free(abs);
      return -1;
    }
  }
  tt_source *src = tt_source_new(abs, buf, len, TT_LANG_CUDA);
  if (!src) {
    free(buf);
    if (!p->err) p->err = tt_xasprintf("%s: too large to parse", path);
    free(abs);
    return -1;
  }
  xf_file f = {.abs = abs, .src = src};
  TT_PUSH(p->files, p->nfiles, p->fcap, f);
  int idx = (int)p->nfiles - 1;
  char *masked = mask_linkage_wrappers(src->text, src->len);
  char *text_as_is = src->text;
  if (masked) src->text = masked;
  p->files[idx].tree = tt_tree_parse(src);
  src->text = text_as_is;
  free(masked);
  collect_children(p, idx, ts_tree_root_node(p->files[idx].tree->ts), idx > 0);
  return idx;
}

void tt_xf_items_free(xf_prog *p) {
  for (size_t i = 0; i < p->nfiles; i++) {
    tt_tree_free(p->files[i].tree);
    tt_source_free(p->files[i].src);
    free(p->files[i].abs);
    free(p->files[i].items);
  }
  free(p->files);
  free(p->items);
  free(p->pool);
  free(p->namespaces);
  for (size_t i = 0; i < p->names.n; i++) free(p->names.names[i]);
  free(p->names.names);
  free(p->names.slots);
  for (size_t i = 0; i < p->nnotes; i++) free(p->notes[i]);
  free(p->notes);
  free(p->err);
  memset(p, 0, sizeof *p);
}
