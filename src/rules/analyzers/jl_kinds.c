/* jl_kinds — see jl_kinds.h. */
#include "rules/analyzers/jl_kinds.h"

#include <stdlib.h>
#include <string.h>

#include "rules/analyzers/opts.h"
#include "util/util.h"
#include "util/yaml.h"

enum { MAX_DEPTH = 64 }; /* deeper expressions are unknown */

const char *const tt_jlk_kind_label[3] = {"scalar", "unknown", "tile"};
static const char *const option_keys[] = {"scalar_calls", "elementwise_calls", "tile_calls", "reduction_calls",
                                          "reduction_keyword", "scalar_types", "tile_types", "scalar_names", NULL};

int tt_jlk_check_keys(struct fy_node *opts, const char *const *own, char **err, struct fy_node **at) {
  size_t n_own = 0, n = 0;
  while (own[n_own]) n_own++;
  const char **keys = tt_xcalloc(n_own + sizeof option_keys / sizeof *option_keys, sizeof *keys);
  for (size_t i = 0; i < n_own; i++) keys[n++] = own[i];
  for (size_t i = 0; option_keys[i]; i++) keys[n++] = option_keys[i];
  int rc = tt_opts_check_keys(opts, keys, err, at);
  free(keys);
  return rc;
}
static const char kind_code[] = "sut"; /* a local's kind, as stored in tt_jlk_scope.vars */

void tt_jlk_config_free(tt_jlk_config *c) {
  tt_strmap_free(&c->scalar_calls);
  tt_strmap_free(&c->elementwise_calls);
  tt_strmap_free(&c->tile_calls);
  tt_strmap_free(&c->reduction_calls);
  tt_strmap_free(&c->scalar_names);
  free(c->reduction_keyword);
  if (c->scalar_types) pcre2_code_free(c->scalar_types);
  if (c->tile_types) pcre2_code_free(c->tile_types);
  memset(c, 0, sizeof *c);
}

static pcre2_code *compile_re(struct fy_node *opts, const char *key, const char *re, char **err, struct fy_node **at) {
  char *why = NULL;
  pcre2_code *c = tt_regex_compile(re, &why);
  if (!c) {
    *err = tt_xasprintf("`%s`: %s", key, why);
    *at = fy_node_mapping_lookup_by_string(opts, key, FY_NT);
    free(why);
  }
  return c;
}

int tt_jlk_config_read(struct fy_node *opts, tt_jlk_config *c, char **err, struct fy_node **at) {
  char *types = NULL, *ttypes = NULL;
  int rc = -1;
  if (tt_opts_set(opts, "scalar_calls", &c->scalar_calls, err, at) < 0 ||
      tt_opts_set(opts, "elementwise_calls", &c->elementwise_calls, err, at) < 0 ||
      tt_opts_set(opts, "tile_calls", &c->tile_calls, err, at) < 0 ||
      tt_opts_set(opts, "reduction_calls", &c->reduction_calls, err, at) < 0 ||
      tt_opts_set(opts, "scalar_names", &c->scalar_names, err, at) < 0 ||
      tt_opts_string(opts, "reduction_keyword", &c->reduction_keyword, err, at) < 0 ||
      tt_opts_string(opts, "scalar_types", &types, err, at) < 0 || tt_opts_string(opts, "tile_types", &ttypes, err, at) < 0)
    goto out;
  if (!types || !ttypes || (c->reduction_calls.n && !c->reduction_keyword)) {
    *err = tt_xstrdup("needs `scalar_types` and `tile_types` (and `reduction_keyword` with `reduction_calls`)");
    *at = opts;
    goto out;
  }
  if ((c->scalar_types = compile_re(opts, "scalar_types", types, err, at)) &&
      (c->tile_types = compile_re(opts, "tile_types", ttypes, err, at)))
    rc = 0;
out:
  free(types);
  free(ttypes);
  return rc;
}

bool tt_jlk_is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

const char *tt_jlk_text(const char *text, TSNode n, size_t *len) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  *len = b - a;
  return text + a;
}
static bool is(TSNode n, const char *type) { return tt_jlk_is(n, type); }
static const char *node_text(const tt_jlk_scope *s, TSNode n, size_t *len) { return tt_jlk_text(s->text, n, len); }

static bool in_set(const tt_jlk_scope *s, const tt_strmap *set, TSNode n) {
  size_t len;
  const char *t = node_text(s, n, &len);
  return tt_strmap_get(set, t, len) != NULL;
}

static tt_jlk_kind var_kind(const tt_jlk_scope *s, const char *name, size_t len) {
  const char *v = tt_strmap_get(&s->vars, name, len);
  if (!v && tt_strmap_get(&s->c->scalar_names, name, len)) return TT_JLK_SCALAR; /* Inf, pi */
  if (!v && s->outer) { /* a module constant: only its scalars count here */
    const char *o = tt_strmap_get(&s->outer->vars, name, len);
    return o && *o == 's' ? TT_JLK_SCALAR : TT_JLK_UNKNOWN;
  }
  return !v ? TT_JLK_UNKNOWN : *v == 's' ? TT_JLK_SCALAR : *v == 't' ? TT_JLK_TILE : TT_JLK_UNKNOWN;
}

/* Joins `k` into the local's kind: an assignment never lowers it. */
static void set_var(tt_jlk_scope *s, TSNode name, tt_jlk_kind k) {
  size_t len;
  const char *t = node_text(s, name, &len);
  if (tt_strmap_get(&s->vars, t, len)) {
    tt_jlk_kind now = var_kind(s, t, len);
    if (now >= k) return;
  }
  char *key = tt_xstrndup(t, len);
  char code[2] = {kind_code[k], 0};
  tt_strmap_put(&s->vars, key, code);
  free(key);
}

static tt_jlk_kind expr_kind(const tt_jlk_scope *s, TSNode n, int depth);

/* The join of the named children (operators and keyword arguments aside); an empty
 * list is unknown. */
static tt_jlk_kind join_children(const tt_jlk_scope *s, TSNode n, int depth) {
  uint32_t k = ts_node_named_child_count(n);
  tt_jlk_kind r = TT_JLK_SCALAR;
  bool any = false;
  for (uint32_t i = 0; i < k && r != TT_JLK_TILE; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (is(c, "operator") || is(c, "named_argument") || is(c, "assignment")) continue;
    tt_jlk_kind ck = expr_kind(s, c, depth + 1);
    r = ck > r ? ck : r, any = true;
  }
  return any ? r : TT_JLK_UNKNOWN;
}

/* Whether argument list `args` passes keyword `kw` (`f(x; dims=2)`). */
static bool has_keyword(const tt_jlk_scope *s, TSNode args, const char *kw) {
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    if (!is(a, "named_argument") && !is(a, "assignment")) continue;
    size_t len;
    const char *t = node_text(s, ts_node_named_child(a, 0), &len);
    if (len == strlen(kw) && !memcmp(t, kw, len)) return true;
  }
  return false;
}

static tt_jlk_kind call_kind(const tt_jlk_scope *s, TSNode n, int depth) {
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  if (in_set(s, &s->c->scalar_calls, callee)) return TT_JLK_SCALAR;
  if (in_set(s, &s->c->tile_calls, callee)) return TT_JLK_TILE;
  /* maximum(x; dims=2) is a tile; maximum(t) of a tuple is not known to be one */
  if (in_set(s, &s->c->reduction_calls, callee)) return has_keyword(s, args, s->c->reduction_keyword) ? TT_JLK_TILE : TT_JLK_UNKNOWN;
  if (!is(args, "argument_list") || !in_set(s, &s->c->elementwise_calls, callee))
    return TT_JLK_UNKNOWN;
  return join_children(s, args, depth);
}

/* What expression `n` is known to be in scope `s`. */
static tt_jlk_kind expr_kind(const tt_jlk_scope *s, TSNode n, int depth) {
  if (ts_node_is_null(n) || depth > MAX_DEPTH) return TT_JLK_UNKNOWN;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "integer_literal") || !strcmp(t, "float_literal") || !strcmp(t, "boolean_literal")) return TT_JLK_SCALAR;
  if (!strcmp(t, "identifier")) {
    size_t len;
    const char *name = node_text(s, n, &len);
    return var_kind(s, name, len);
  }
  if (!strcmp(t, "call_expression")) return call_kind(s, n, depth);
  if (!strcmp(t, "broadcast_call_expression")) {
    /* f.(x, y): a tile when an argument is one */
    tt_jlk_kind k = join_children(s, ts_node_named_child(n, 1), depth);
    return k == TT_JLK_TILE ? TT_JLK_TILE : TT_JLK_UNKNOWN;
  }
  if (!strcmp(t, "binary_expression") || !strcmp(t, "unary_expression") || !strcmp(t, "parenthesized_expression") ||
      !strcmp(t, "ternary_expression"))
    return join_children(s, n, depth);
  return TT_JLK_UNKNOWN;
}

TSNode tt_jlk_signature_call(TSNode def, TSNode *where) {
  *where = (TSNode){0};
  TSNode sig = ts_node_named_child(def, 0);
  if (is(sig, "signature")) sig = ts_node_named_child(sig, 0);
  while (is(sig, "where_expression") || is(sig, "typed_expression")) {
    if (is(sig, "where_expression")) *where = ts_node_named_child(sig, 1);
    sig = ts_node_named_child(sig, 0);
  }
  return sig;
}

/* The names of a `where` clause (compile-time values, never tiles) are scalars. */
static void add_where(tt_jlk_scope *s, TSNode w) {
  if (is(w, "identifier")) set_var(s, w, TT_JLK_SCALAR);
  for (uint32_t i = 0; is(w, "curly_expression") && i < ts_node_named_child_count(w); i++) {
    TSNode c = ts_node_named_child(w, i);
    if (!is(c, "identifier")) c = ts_node_named_child(c, 0); /* T<:Real */
    if (is(c, "identifier")) set_var(s, c, TT_JLK_SCALAR);
  }
}

bool tt_jlk_is_definition(TSNode n) {
  if (is(n, "function_definition")) return true;
  if (!is(n, "assignment")) return false;
  TSNode lhs = ts_node_named_child(n, 0);
  while (is(lhs, "where_expression") || is(lhs, "typed_expression")) lhs = ts_node_named_child(lhs, 0);
  return is(lhs, "call_expression");
}

tt_jlk_kind tt_jlk_type_kind(const tt_jlk_config *c, const char *text, TSNode ty) {
  size_t len;
  const char *t = tt_jlk_text(text, ty, &len);
  return tt_regex_find(c->scalar_types, t, len, NULL, NULL) ? TT_JLK_SCALAR
         : tt_regex_find(c->tile_types, t, len, NULL, NULL) ? TT_JLK_TILE
                                                            : TT_JLK_UNKNOWN;
}

/* Parameters `x::T` with T matching `scalar_types` are scalars; the others may be tiles. */
static void add_params(tt_jlk_scope *s, TSNode def) {
  TSNode where, call = tt_jlk_signature_call(def, &where), al = ts_node_named_child(call, 1);
  add_where(s, where);
  if (!is(call, "call_expression") || !is(al, "argument_list")) return;
  for (TSNode p = ts_node_named_child(al, 0); !ts_node_is_null(p); p = ts_node_next_named_sibling(p)) {
    if (is(p, "optional_parameter") || is(p, "named_argument")) p = ts_node_named_child(p, 0);
    if (!is(p, "typed_expression")) continue;
    TSNode name = ts_node_named_child(p, 0), ty = ts_node_named_child(p, 1);
    if (!is(name, "identifier") || ts_node_is_null(ty)) continue;
    set_var(s, name, tt_jlk_type_kind(s->c, s->text, ty));
  }
}

/* Records what one statement-level node says about locals. */
static void learn(tt_jlk_scope *s, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "assignment") || !strcmp(t, "compound_assignment_expression")) {
    uint32_t k = ts_node_named_child_count(n);
    TSNode lhs = ts_node_named_child(n, 0), rhs = ts_node_named_child(n, k - 1);
    if (k < 2 || !is(lhs, "identifier") || is(ts_node_parent(n), "argument_list")) return; /* f(; key=v) */
    tt_jlk_kind rk = expr_kind(s, rhs, 0);
    if (t[0] != 'a') { /* x op= y */
      tt_jlk_kind l = expr_kind(s, lhs, 0);
      rk = l > rk ? l : rk;
    }
    set_var(s, lhs, rk);
  } else if (!strcmp(t, "for_binding")) {
    uint32_t k = ts_node_named_child_count(n);
    TSNode var = ts_node_named_child(n, 0), it = ts_node_named_child(n, k - 1);
    if (k >= 2 && is(var, "identifier")) set_var(s, var, is(it, "range_expression") ? TT_JLK_SCALAR : TT_JLK_UNKNOWN);
  }
}


tt_jlk_kind tt_jlk_expr_kind(const tt_jlk_scope *s, TSNode n) { return expr_kind(s, n, 0); }

/* Preorder over the scope, in source order; nested definitions are skipped (they are
 * scopes of their own). visit NULL: learn the locals. */
static void walk_scope(tt_jlk_scope *s, tt_jlk_visit visit, void *ud) {
  TSTreeCursor c = ts_tree_cursor_new(s->root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool nested = tt_jlk_is_definition(n) && !ts_node_eq(n, s->root);
    if (!nested) {
      if (visit) visit(s, n, ud);
      else learn(s, n);
    }
    if (!nested && ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
}

/* Learns the scope's locals, then visits it; the caller frees s->vars. */
static void run_scope(tt_jlk_scope *s, tt_jlk_visit visit, void *ud) {
  if (tt_jlk_is_definition(s->root)) add_params(s, s->root);
  walk_scope(s, NULL, NULL); /* pass 1 */
  walk_scope(s, NULL, NULL); /* pass 2: uses before a later assignment of pass 1 */
  walk_scope(s, visit, ud);
}

void tt_jlk_each_scope(const tt_jlk_config *c, const char *text, TSNode root, tt_jlk_visit visit, void *ud) {
  tt_jlk_scope module = {c, text, root, {0}, NULL};
  run_scope(&module, visit, ud);
  TSTreeCursor cur = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    if (tt_jlk_is_definition(n)) {
      tt_jlk_scope f = {c, text, n, {0}, &module};
      run_scope(&f, visit, ud);
      tt_strmap_free(&f.vars);
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur))
      if (!ts_tree_cursor_goto_parent(&cur)) goto done;
  }
done:
  ts_tree_cursor_delete(&cur);
  tt_strmap_free(&module.vars);
}
