#include "rules/consts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rules/predicate.h"
#include "util/fs.h"
#include "util/util.h"

/* The value recorded for a name defined more than once with different values. */
#define TT_CONSTS_AMBIGUOUS "\x01ambiguous"

/* --- collecting ---------------------------------------------------------------------- */

static void put_def(tt_consts *c, const tt_source *src, TSNode name, TSNode value) {
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  uint32_t vs = ts_node_start_byte(value), ve = ts_node_end_byte(value);
  /* A macro's value runs to the end of its line, a trailing comment included. */
  for (uint32_t i = vs; i + 1 < ve; i++)
    if (src->text[i] == '/' && (src->text[i + 1] == '/' || src->text[i + 1] == '*')) {
      ve = i;
      break;
    }
  while (ve > vs && strchr(" \t\r\n", src->text[ve - 1])) ve--;
  char *k = tt_xstrndup(src->text + ns, ne - ns), *v = tt_xstrndup(src->text + vs, ve - vs);
  const char *old = tt_strmap_get(&c->defs, k, strlen(k));
  /* Defined twice differently (per-platform #if branches): the value is not known. */
  if (!old) tt_strmap_put(&c->defs, k, v);
  else if (strcmp(old, v)) tt_strmap_put(&c->defs, k, TT_CONSTS_AMBIGUOUS);
  free(k);
  free(v);
}

static bool is_const_decl(const tt_source *src, TSNode decl) {
  uint32_t n = ts_node_child_count(decl);
  for (uint32_t i = 0; i < n; i++) {
    TSNode ch = ts_node_child(decl, i);
    if (strcmp(ts_node_type(ch), "type_qualifier")) continue;
    uint32_t s = ts_node_start_byte(ch), e = ts_node_end_byte(ch);
    if ((e - s == 5 && !memcmp(src->text + s, "const", 5)) || (e - s == 9 && !memcmp(src->text + s, "constexpr", 9)))
      return true;
  }
  return false;
}

typedef struct collect_ctx {
  tt_consts *c;
  const tt_source *src;
  char **includes;
  size_t n_includes, cap;
} collect_ctx;

static bool collect(TSNode n, void *vctx) {
  collect_ctx *x = vctx;
  const char *type = ts_node_type(n);
  if (!strcmp(type, "function_definition")) return false; /* file scope only */
  if (!strcmp(type, "preproc_def")) {
    TSNode name = ts_node_child_by_field_name(n, "name", 4), value = ts_node_child_by_field_name(n, "value", 5);
    if (!ts_node_is_null(name) && !ts_node_is_null(value)) put_def(x->c, x->src, name, value);
    return false;
  }
  if (!strcmp(type, "declaration") && is_const_decl(x->src, n)) {
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
      TSNode d = ts_node_named_child(n, i);
      if (strcmp(ts_node_type(d), "init_declarator")) continue;
      TSNode name = ts_node_child_by_field_name(d, "declarator", 10), value = ts_node_child_by_field_name(d, "value", 5);
      if (!ts_node_is_null(name) && !ts_node_is_null(value) && !strcmp(ts_node_type(name), "identifier"))
        put_def(x->c, x->src, name, value);
    }
    return false;
  }
  if (!strcmp(type, "enumerator")) { /* `enum { warp_size = 32 };` */
    TSNode name = ts_node_child_by_field_name(n, "name", 4), value = ts_node_child_by_field_name(n, "value", 5);
    if (!ts_node_is_null(name) && !ts_node_is_null(value)) put_def(x->c, x->src, name, value);
    return false;
  }
  if (!strcmp(type, "preproc_include")) {
    TSNode path = ts_node_child_by_field_name(n, "path", 4);
    if (!ts_node_is_null(path) && !strcmp(ts_node_type(path), "string_literal")) {
      uint32_t s = ts_node_start_byte(path) + 1, e = ts_node_end_byte(path) - 1;
      if (e > s) TT_PUSH(x->includes, x->n_includes, x->cap, tt_xstrndup(x->src->text + s, e - s));
    }
    return false;
  }
  return true;
}

static void collect_file(tt_consts *c, const tt_tree *tree, char ***includes, size_t *n_includes) {
  collect_ctx x = {c, tree->src, NULL, 0, 0};
  tt_tree_walk(ts_tree_root_node(tree->ts), collect, &x);
  *includes = x.includes;
  *n_includes = x.n_includes;
}

/* How deep local headers are followed for constants: four levels, since a library's
 * warp width often sits in a base header below a chain of its own (moderngpu:
 * cta_segscan.hxx -> cta_scan.hxx -> intrinsics.hxx -> operators.hxx -> meta.hxx). */
#define TT_CONSTS_HEADER_DEPTH 4

/* Collects the local headers of `tree` (`#include "…"` beside it), TT_CONSTS_HEADER_DEPTH
 * levels deep; `seen` keeps each header to one visit. */
static void collect_includes(tt_consts *c, const tt_tree *tree, char **inc, size_t n_inc, int depth, tt_strmap *seen) {
  char *dir = tt_fs_dirname(tree->src->path);
  for (size_t i = 0; i < n_inc; i++) {
    char *path = tt_fs_join(dir, inc[i]), *text;
    size_t len;
    if (depth < TT_CONSTS_HEADER_DEPTH && !tt_strmap_get(seen, path, strlen(path)) && tt_fs_read(path, &text, &len, NULL) == 0) {
      tt_strmap_put(seen, path, "");
      tt_source *src = tt_source_new(path, text, len, tree->src->lang);
      tt_tree *t = src ? tt_tree_parse(src) : NULL;
      if (t) {
        char **inner;
        size_t n_inner;
        collect_file(c, t, &inner, &n_inner);
        collect_includes(c, t, inner, n_inner, depth + 1, seen);
      }
      tt_tree_free(t);
      if (src) tt_source_free(src);
      else free(text);
    }
    free(path);
    free(inc[i]);
  }
  free(inc);
  free(dir);
}

tt_consts *tt_consts_build(const tt_tree *tree) {
  tt_consts *c = tt_xcalloc(1, sizeof *c);
  char **inc;
  size_t n_inc;
  collect_file(c, tree, &inc, &n_inc);
  tt_strmap seen = {0};
  collect_includes(c, tree, inc, n_inc, 0, &seen);
  tt_strmap_free(&seen);
  return c;
}

void tt_consts_free(tt_consts *c) {
  if (!c) return;
  tt_strmap_free(&c->defs);
  free(c);
}

/* --- evaluating ---------------------------------------------------------------------- */

typedef struct parser {
  const tt_consts *c;
  const char *p, *end;
  int depth;   /* name expansions in progress: guards against recursive macros */
  bool ok;
} parser;

static void skip_ws(parser *P) {
  while (P->p < P->end && isspace((unsigned char)*P->p)) P->p++;
}

static bool eat(parser *P, const char *op) {
  skip_ws(P);
  size_t n = strlen(op);
  if ((size_t)(P->end - P->p) < n || memcmp(P->p, op, n)) return false;
  /* `<` must not eat the first half of `<<`, nor `&` of `&&`. */
  if (n == 1 && P->p + 1 < P->end && P->p[1] == op[0] && strchr("<>&|", op[0])) return false;
  P->p += n;
  return true;
}

static int64_t parse_or(parser *P);

static int64_t parse_primary(parser *P) {
  skip_ws(P);
  if (P->p >= P->end) return P->ok = false, 0;
  if (eat(P, "(")) {
    int64_t v = parse_or(P);
    if (!eat(P, ")")) P->ok = false;
    return v;
  }
  const char *s = P->p;
  if (isdigit((unsigned char)*s)) {
    while (P->p < P->end && (isalnum((unsigned char)*P->p) || *P->p == '\'')) P->p++;
    uint64_t v;
    if (!tt_parse_int_literal(s, (size_t)(P->p - s), &v)) P->ok = false;
    return (int64_t)v;
  }
  if (isalpha((unsigned char)*s) || *s == '_') {
    while (P->p < P->end && (isalnum((unsigned char)*P->p) || *P->p == '_')) P->p++;
    const char *def = P->c ? tt_strmap_get(&P->c->defs, s, (size_t)(P->p - s)) : NULL;
    if (!def || !strcmp(def, TT_CONSTS_AMBIGUOUS) || P->depth >= 16) return P->ok = false, 0;
    parser sub = {P->c, def, def + strlen(def), P->depth + 1, true};
    int64_t v = parse_or(&sub);
    skip_ws(&sub);
    if (!sub.ok || sub.p != sub.end) P->ok = false;
    return v;
  }
  return P->ok = false, 0;
}

static int64_t parse_unary(parser *P) {
  if (eat(P, "-")) return -parse_unary(P);
  if (eat(P, "+")) return parse_unary(P);
  if (eat(P, "~")) return ~parse_unary(P);
  if (eat(P, "!")) return !parse_unary(P);
  return parse_primary(P);
}

static int64_t parse_mul(parser *P) {
  int64_t v = parse_unary(P);
  for (;;) {
    if (eat(P, "*")) v *= parse_unary(P);
    else if (eat(P, "/") || eat(P, "%")) {
      char op = P->p[-1];
      int64_t r = parse_unary(P);
      if (r == 0) return P->ok = false, 0;
      v = op == '/' ? v / r : v % r;
    } else return v;
  }
}

static int64_t parse_add(parser *P) {
  int64_t v = parse_mul(P);
  for (;;) {
    if (eat(P, "+")) v += parse_mul(P);
    else if (eat(P, "-")) v -= parse_mul(P);
    else return v;
  }
}

static int64_t parse_shift(parser *P) {
  int64_t v = parse_add(P);
  for (;;) {
    if (eat(P, "<<")) v = (int64_t)((uint64_t)v << (parse_add(P) & 63));
    else if (eat(P, ">>")) v >>= parse_add(P) & 63;
    else return v;
  }
}

static int64_t parse_and(parser *P) {
  int64_t v = parse_shift(P);
  while (eat(P, "&")) v &= parse_shift(P);
  return v;
}

static int64_t parse_xor(parser *P) {
  int64_t v = parse_and(P);
  while (eat(P, "^")) v ^= parse_and(P);
  return v;
}

static int64_t parse_or(parser *P) {
  int64_t v = parse_xor(P);
  while (eat(P, "|")) v |= parse_xor(P);
  return v;
}

bool tt_consts_eval(const tt_consts *c, const char *text, size_t n, int64_t *out) {
  parser P = {c, text, text + n, 0, true};
  int64_t v = parse_or(&P);
  skip_ws(&P);
  if (!P.ok || P.p != P.end) return false;
  *out = v;
  return true;
}
