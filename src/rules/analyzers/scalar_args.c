/* julia-scalar-args — labels calls of the rule file's `calls` (max, min, ...) in Julia
 * by what their arguments are known to be (scalars, tiles, or unknown).
 *
 * Evidence of a scalar, all from the rule file's options: literals; parameters whose
 * type annotation matches `scalar_types`; calls of `scalar_calls` (ct.bid, size, ...);
 * calls of `calls` or `elementwise_calls` whose arguments are all scalars; arithmetic,
 * comparisons, parentheses and ternaries of scalars; loop variables over a range; and
 * locals every assignment of which (in one function) is a scalar. Locals are found in
 * two passes in source order (a kind only rises, so the second pass sees what the first
 * learnt; a use before the local's first assignment is "unknown" in the first).
 * Each function (either form) is its own scope; code outside functions is one more.
 *
 * Evidence of a tile: parameters whose annotation matches `tile_types`, calls of
 * `tile_calls` (ct.load, zeros, ...), and arithmetic or broadcasts with a tile operand.
 * Everything else is "unknown". A local's kind is the join (scalar < unknown < tile)
 * of its assignments.
 *
 * Fact (`fact:` option) on each labelled call, the join of its arguments: "scalar",
 * "unknown" or "tile"; the labels in `report` are reported. */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/opts.h"
#include "util/regex.h"
#include "util/util.h"
#include "util/yaml.h"

enum { MAX_DEPTH = 64 }; /* deeper expressions count as "may be a tile" */

typedef struct sa_opts {
  char *fact;
  tt_strmap calls, scalar_calls, elementwise_calls, tile_calls, reduction_calls, report;
  char *reduction_keyword; /* a reduction with this keyword argument gives a tile */
  pcre2_code *scalar_types, *tile_types;
} sa_opts;

static void free_opts(void *p) {
  sa_opts *o = p;
  free(o->fact);
  tt_strmap_free(&o->calls);
  tt_strmap_free(&o->scalar_calls);
  tt_strmap_free(&o->elementwise_calls);
  tt_strmap_free(&o->tile_calls);
  tt_strmap_free(&o->reduction_calls);
  free(o->reduction_keyword);
  tt_strmap_free(&o->report);
  if (o->scalar_types) pcre2_code_free(o->scalar_types);
  if (o->tile_types) pcre2_code_free(o->tile_types);
  free(o);
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

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"fact",         "calls",      "scalar_calls", "elementwise_calls", "tile_calls",
                                     "reduction_calls", "reduction_keyword", "scalar_types", "tile_types", "report", NULL};
  sa_opts *o = tt_xcalloc(1, sizeof *o);
  char *types = NULL, *ttypes = NULL;
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "fact", &o->fact, err, at) < 0 ||
      tt_opts_set(opts, "calls", &o->calls, err, at) < 0 || tt_opts_set(opts, "scalar_calls", &o->scalar_calls, err, at) < 0 ||
      tt_opts_set(opts, "elementwise_calls", &o->elementwise_calls, err, at) < 0 ||
      tt_opts_set(opts, "tile_calls", &o->tile_calls, err, at) < 0 ||
      tt_opts_set(opts, "reduction_calls", &o->reduction_calls, err, at) < 0 ||
      tt_opts_string(opts, "reduction_keyword", &o->reduction_keyword, err, at) < 0 || tt_opts_set(opts, "report", &o->report, err, at) < 0 ||
      tt_opts_string(opts, "scalar_types", &types, err, at) < 0 || tt_opts_string(opts, "tile_types", &ttypes, err, at) < 0)
    goto bad;
  if (!o->fact || !o->calls.n || !types || !ttypes || (o->reduction_calls.n && !o->reduction_keyword)) {
    *err = tt_xstrdup("needs `fact`, `calls`, `scalar_types` and `tile_types` (and `reduction_keyword` with "
                      "`reduction_calls`)");
    *at = opts;
    goto bad;
  }
  if (!(o->scalar_types = compile_re(opts, "scalar_types", types, err, at)) ||
      !(o->tile_types = compile_re(opts, "tile_types", ttypes, err, at)))
    goto bad;
  free(types);
  free(ttypes);
  return o;
bad:
  free(types);
  free(ttypes);
  free_opts(o);
  return NULL;
}

/* What an expression is known to be; the order is the join (a local assigned a scalar
 * and a tile is a tile). */
typedef enum { K_SCALAR, K_UNKNOWN, K_TILE } kind;
static const char kind_code[] = "sut";
static const char *const kind_label[] = {"scalar", "unknown", "tile"};

/* One scope's locals: name -> "s", "u" or "t" (kind_code). */
typedef struct scope {
  const sa_opts *o;
  const char *text;
  tt_strmap vars;
} scope;

static bool is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

static const char *node_text(const scope *s, TSNode n, size_t *len) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  *len = b - a;
  return s->text + a;
}

static bool in_set(const scope *s, const tt_strmap *set, TSNode n) {
  size_t len;
  const char *t = node_text(s, n, &len);
  return tt_strmap_get(set, t, len) != NULL;
}

static kind var_kind(const scope *s, const char *name, size_t len) {
  const char *v = tt_strmap_get(&s->vars, name, len);
  return !v ? K_UNKNOWN : *v == 's' ? K_SCALAR : *v == 't' ? K_TILE : K_UNKNOWN;
}

/* Joins `k` into the local's kind: an assignment never lowers it. */
static void set_var(scope *s, TSNode name, kind k) {
  size_t len;
  const char *t = node_text(s, name, &len);
  if (tt_strmap_get(&s->vars, t, len)) {
    kind now = var_kind(s, t, len);
    if (now >= k) return;
  }
  char *key = tt_xstrndup(t, len);
  char code[2] = {kind_code[k], 0};
  tt_strmap_put(&s->vars, key, code);
  free(key);
}

static kind expr_kind(const scope *s, TSNode n, int depth);

/* The join of the named children (operators and keyword arguments aside); an empty
 * list is unknown. */
static kind join_children(const scope *s, TSNode n, int depth) {
  uint32_t k = ts_node_named_child_count(n);
  kind r = K_SCALAR;
  bool any = false;
  for (uint32_t i = 0; i < k && r != K_TILE; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (is(c, "operator") || is(c, "named_argument") || is(c, "assignment")) continue;
    kind ck = expr_kind(s, c, depth + 1);
    r = ck > r ? ck : r, any = true;
  }
  return any ? r : K_UNKNOWN;
}

/* Whether argument list `args` passes keyword `kw` (`f(x; dims=2)`). */
static bool has_keyword(const scope *s, TSNode args, const char *kw) {
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    if (!is(a, "named_argument") && !is(a, "assignment")) continue;
    size_t len;
    const char *t = node_text(s, ts_node_named_child(a, 0), &len);
    if (len == strlen(kw) && !memcmp(t, kw, len)) return true;
  }
  return false;
}

static kind call_kind(const scope *s, TSNode n, int depth) {
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  if (in_set(s, &s->o->scalar_calls, callee)) return K_SCALAR;
  if (in_set(s, &s->o->tile_calls, callee)) return K_TILE;
  /* maximum(x; dims=2) is a tile; maximum(t) of a tuple is not known to be one */
  if (in_set(s, &s->o->reduction_calls, callee)) return has_keyword(s, args, s->o->reduction_keyword) ? K_TILE : K_UNKNOWN;
  if (!is(args, "argument_list") || !(in_set(s, &s->o->calls, callee) || in_set(s, &s->o->elementwise_calls, callee)))
    return K_UNKNOWN;
  return join_children(s, args, depth);
}

/* What expression `n` is known to be in scope `s`. */
static kind expr_kind(const scope *s, TSNode n, int depth) {
  if (ts_node_is_null(n) || depth > MAX_DEPTH) return K_UNKNOWN;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "integer_literal") || !strcmp(t, "float_literal") || !strcmp(t, "boolean_literal")) return K_SCALAR;
  if (!strcmp(t, "identifier")) {
    size_t len;
    const char *name = node_text(s, n, &len);
    return var_kind(s, name, len);
  }
  if (!strcmp(t, "call_expression")) return call_kind(s, n, depth);
  if (!strcmp(t, "broadcast_call_expression")) {
    /* f.(x, y): a tile when an argument is one */
    kind k = join_children(s, ts_node_named_child(n, 1), depth);
    return k == K_TILE ? K_TILE : K_UNKNOWN;
  }
  if (!strcmp(t, "binary_expression") || !strcmp(t, "unary_expression") || !strcmp(t, "parenthesized_expression") ||
      !strcmp(t, "ternary_expression"))
    return join_children(s, n, depth);
  return K_UNKNOWN;
}

/* The call node of a function's signature (through `where` and return types); the
 * names of its `where` clauses (compile-time values, never tiles) become scalars. */
static TSNode signature_call(scope *s, TSNode def) {
  TSNode sig = ts_node_named_child(def, 0);
  if (is(sig, "signature")) sig = ts_node_named_child(sig, 0);
  while (is(sig, "where_expression") || is(sig, "typed_expression")) {
    TSNode w = is(sig, "where_expression") ? ts_node_named_child(sig, 1) : (TSNode){0};
    if (is(w, "identifier")) set_var(s, w, K_SCALAR);
    for (uint32_t i = 0; is(w, "curly_expression") && i < ts_node_named_child_count(w); i++) {
      TSNode c = ts_node_named_child(w, i);
      if (!is(c, "identifier")) c = ts_node_named_child(c, 0); /* T<:Real */
      if (is(c, "identifier")) set_var(s, c, K_SCALAR);
    }
    sig = ts_node_named_child(sig, 0);
  }
  return sig;
}

/* A function definition: `function f(...) ... end`, or the short form `f(x) = ...`. */
static bool is_definition(TSNode n) {
  if (is(n, "function_definition")) return true;
  if (!is(n, "assignment")) return false;
  TSNode lhs = ts_node_named_child(n, 0);
  while (is(lhs, "where_expression") || is(lhs, "typed_expression")) lhs = ts_node_named_child(lhs, 0);
  return is(lhs, "call_expression");
}

/* Parameters `x::T` with T matching `scalar_types` are scalars; the others may be tiles. */
static void add_params(scope *s, TSNode def) {
  TSNode call = signature_call(s, def), al = ts_node_named_child(call, 1);
  if (!is(call, "call_expression") || !is(al, "argument_list")) return;
  for (TSNode p = ts_node_named_child(al, 0); !ts_node_is_null(p); p = ts_node_next_named_sibling(p)) {
    if (is(p, "optional_parameter") || is(p, "named_argument")) p = ts_node_named_child(p, 0);
    if (!is(p, "typed_expression")) continue;
    TSNode name = ts_node_named_child(p, 0), ty = ts_node_named_child(p, 1);
    if (!is(name, "identifier") || ts_node_is_null(ty)) continue;
    size_t len;
    const char *tt = node_text(s, ty, &len);
    set_var(s, name, tt_regex_find(s->o->scalar_types, tt, len, NULL, NULL) ? K_SCALAR
                     : tt_regex_find(s->o->tile_types, tt, len, NULL, NULL)  ? K_TILE
                                                                              : K_UNKNOWN);
  }
}

/* Records what one statement-level node says about locals. */
static void learn(scope *s, TSNode n) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "assignment") || !strcmp(t, "compound_assignment_expression")) {
    uint32_t k = ts_node_named_child_count(n);
    TSNode lhs = ts_node_named_child(n, 0), rhs = ts_node_named_child(n, k - 1);
    if (k < 2 || !is(lhs, "identifier") || is(ts_node_parent(n), "argument_list")) return; /* f(; key=v) */
    kind rk = expr_kind(s, rhs, 0);
    if (t[0] != 'a') { /* x op= y */
      kind l = expr_kind(s, lhs, 0);
      rk = l > rk ? l : rk;
    }
    set_var(s, lhs, rk);
  } else if (!strcmp(t, "for_binding")) {
    uint32_t k = ts_node_named_child_count(n);
    TSNode var = ts_node_named_child(n, 0), it = ts_node_named_child(n, k - 1);
    if (k >= 2 && is(var, "identifier")) set_var(s, var, is(it, "range_expression") ? K_SCALAR : K_UNKNOWN);
  }
}

typedef struct walk_ctx {
  scope *s;
  tt_filectx *ctx;
  tt_analyzer_emit emit;
  void *ud;
  bool label; /* false: learn locals; true: label the calls */
} walk_ctx;

static void label_call(walk_ctx *w, TSNode n) {
  const scope *s = w->s;
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  if (!is(callee, "identifier") || !is(args, "argument_list") || !in_set(s, &s->o->calls, callee)) return;
  /* the call's kind is its arguments' join; `odd` is the first argument of that kind */
  TSNode odd = {0};
  kind k = K_SCALAR;
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    kind ak = expr_kind(s, a, 0);
    if (ts_node_is_null(odd) || ak > k) odd = a, k = ak;
  }
  if (ts_node_is_null(odd)) return;
  const char *label = kind_label[k];
  uint32_t st = ts_node_start_byte(n), en = ts_node_end_byte(n);
  tt_filectx_add_fact(w->ctx, s->o->fact, st, en, label);
  if (!tt_strmap_get(&s->o->report, label, strlen(label))) return;
  size_t fl, al, ol = 0;
  const char *ft = node_text(s, callee, &fl), *at = node_text(s, ts_node_named_child(args, 0), &al);
  const char *ot = ts_node_is_null(odd) ? "" : node_text(s, odd, &ol);
  uint32_t fs = ts_node_start_byte(callee);
  tt_binding bd[] = {{"fn", ft, fl, fs, fs + (uint32_t)fl},
                     {"a", at, al, ts_node_start_byte(ts_node_named_child(args, 0)), 0},
                     {"arg", ot, ol, ts_node_is_null(odd) ? st : ts_node_start_byte(odd), 0},
                     {"label", label, strlen(label), st, en}};
  bd[1].end = bd[1].start + (uint32_t)al;
  bd[2].end = bd[2].start + (uint32_t)ol;
  tt_analyzer_hit h = {fs, fs + (uint32_t)fl, bd, 4, NULL, 0, false};
  w->emit(w->ud, &h);
}

/* Preorder over the scope rooted at `root`, in source order; nested function
 * definitions are skipped (they are scopes of their own). */
static void walk_scope(walk_ctx *w, TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    bool nested = is_definition(n) && !ts_node_eq(n, root);
    if (!nested) {
      if (w->label) {
        if (is(n, "call_expression")) label_call(w, n);
      } else
        learn(w->s, n);
    }
    if (!nested && ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
}

static void run_scope(const sa_opts *o, tt_filectx *ctx, TSNode root, tt_analyzer_emit emit, void *ud) {
  scope s = {o, ctx->tree->src->text, {0}};
  if (is_definition(root)) add_params(&s, root);
  walk_ctx w = {&s, ctx, emit, ud, false};
  walk_scope(&w, root); /* pass 1 */
  walk_scope(&w, root); /* pass 2: uses of locals demoted later in pass 1 */
  w.label = true;
  walk_scope(&w, root);
  tt_strmap_free(&s.vars);
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  TSNode root = ts_tree_root_node(ctx->tree->ts);
  run_scope(opts, ctx, root, emit, ud);
  /* every function definition, at any depth, is one more scope */
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (is_definition(n)) run_scope(opts, ctx, n, emit, ud);
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
}

static const char *const bindings[] = {"fn", "a", "arg", "label", NULL};

const tt_analyzer tt_analyzer_scalar_args = {"julia-scalar-args", bindings, compile_opts, free_opts, run, true};
