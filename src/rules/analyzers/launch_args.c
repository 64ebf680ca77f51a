/* julia-launch-args — checks a launch call (`launch_calls`, e.g. `ct.launch(kernel,
 * grid, args...)`) against the kernel's signature when the kernel is defined once in
 * the same file: the number of arguments (`args_from` is the launch argument that is
 * the kernel's first; `kernel_at` the one that names the kernel) must fit the kernel's
 * positional parameters, and an argument known to be an array (jl_kinds.h: "tile")
 * must not go to a parameter annotated with a scalar type, nor a known scalar to a
 * parameter annotated with an array type. A splat on either side, a keyword argument
 * or a kernel defined more than once (methods) leaves the call unchecked. Evidence of
 * arrays and scalars is the rule file's (jl_kinds.h options).
 *
 * Reports bind `kernel`, `arg` (the argument, or the launch callee for a count),
 * `param` (the parameter, or "") and `problem` (what does not fit, in words). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/jl_kinds.h"
#include "rules/analyzers/opts.h"
#include "util/util.h"

enum { MAX_PARAMS = 256 }; /* kernels with more parameters are not checked */

typedef struct la_opts {
  tt_strmap launch_calls;
  long kernel_at, args_from; /* 1-based positions among the launch's positional arguments */
  tt_jlk_config kinds;
} la_opts;

static void free_opts(void *p) {
  la_opts *o = p;
  tt_strmap_free(&o->launch_calls);
  tt_jlk_config_free(&o->kinds);
  free(o);
}

static int read_position(struct fy_node *opts, const char *key, long *out, char **err, struct fy_node **at) {
  char *s = NULL, *end = NULL;
  if (tt_opts_string(opts, key, &s, err, at) < 0) return -1;
  *out = s ? strtol(s, &end, 10) : 0;
  bool ok = s && *s && !*end && *out >= 1 && *out <= 16;
  free(s);
  if (!ok) {
    *err = tt_xasprintf("`%s` must be a position from 1 to 16", key);
    *at = opts ? fy_node_mapping_lookup_by_string(opts, key, FY_NT) : NULL;
    if (!*at) *at = opts;
    return -1;
  }
  return 0;
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"launch_calls", "kernel_at", "args_from", NULL};
  la_opts *o = tt_xcalloc(1, sizeof *o);
  if (tt_jlk_check_keys(opts, keys, err, at) < 0 || tt_opts_set(opts, "launch_calls", &o->launch_calls, err, at) < 0 ||
      read_position(opts, "kernel_at", &o->kernel_at, err, at) < 0 ||
      read_position(opts, "args_from", &o->args_from, err, at) < 0 || tt_jlk_config_read(opts, &o->kinds, err, at) < 0)
    goto bad;
  if (!o->launch_calls.n) {
    *err = tt_xstrdup("needs `launch_calls`");
    *at = opts;
    goto bad;
  }
  return o;
bad:
  free_opts(o);
  return NULL;
}

/* The positional entries of an argument list: before a `;`, and not `k=v` in a call
 * (`is_call`) — in a signature, `x=1` before the `;` is an optional parameter. Returns
 * the count, or -1 when a splat makes it unknowable or there are too many. */
static int positional(TSNode al, bool is_call, TSNode *out, bool *optional) {
  int n = 0;
  uint32_t k = ts_node_child_count(al);
  for (uint32_t i = 0; i < k; i++) {
    TSNode c = ts_node_child(al, i);
    if (!ts_node_is_named(c)) {
      if (!strcmp(ts_node_type(c), ";")) break;
      continue;
    }
    const char *t = ts_node_type(c);
    if (!strcmp(t, "line_comment") || !strcmp(t, "block_comment")) continue;
    if (!strcmp(t, "splat_expression") || n == MAX_PARAMS) return -1;
    bool named = !strcmp(t, "named_argument") || !strcmp(t, "optional_parameter") || !strcmp(t, "assignment");
    if (named && is_call) continue;
    optional[n] = named;
    out[n++] = c;
  }
  return n;
}

/* The file's definitions by name: the index of the only `function_definition` of each
 * name in `defs`, or "-" for names defined more than once. */
typedef struct defs {
  tt_strmap by_name;
  TSNode *nodes;
  size_t n, cap;
} defs;

static void collect_defs(defs *d, const char *text, TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (tt_jlk_is(n, "function_definition")) {
      TSNode where, call = tt_jlk_signature_call(n, &where), name = ts_node_named_child(call, 0);
      if (tt_jlk_is(call, "call_expression") && tt_jlk_is(name, "identifier")) {
        size_t len;
        const char *s = tt_jlk_text(text, name, &len);
        char *key = tt_xstrndup(s, len), idx[24];
        snprintf(idx, sizeof idx, "%zu", d->n);
        tt_strmap_put(&d->by_name, key, tt_strmap_get(&d->by_name, s, len) ? "-" : idx);
        free(key);
        TT_PUSH(d->nodes, d->n, d->cap, n);
      }
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
}

typedef struct run_ctx {
  const la_opts *o;
  defs d;
  tt_analyzer_emit emit;
  void *ud;
} run_ctx;

static void report(run_ctx *w, const char *text, TSNode kernel, TSNode at, TSNode param, const char *problem) {
  size_t kl, al, pl = 0;
  const char *kt = tt_jlk_text(text, kernel, &kl), *at_t = tt_jlk_text(text, at, &al);
  const char *pt = ts_node_is_null(param) ? "" : tt_jlk_text(text, param, &pl);
  uint32_t ks = ts_node_start_byte(kernel), as = ts_node_start_byte(at);
  uint32_t ps = ts_node_is_null(param) ? as : ts_node_start_byte(param);
  tt_binding bd[] = {{"kernel", kt, kl, ks, ks + (uint32_t)kl},
                     {"arg", at_t, al, as, as + (uint32_t)al},
                     {"param", pt, pl, ps, ps + (uint32_t)pl},
                     {"problem", problem, strlen(problem), as, as + (uint32_t)al}};
  tt_analyzer_hit h = {as, as + (uint32_t)al, bd, 4, NULL, 0, false};
  w->emit(w->ud, &h);
}

/* The annotation of parameter `p` (`x::T`, `x::T=v`), or a null node. */
static TSNode param_type(TSNode p) {
  if (tt_jlk_is(p, "named_argument") || tt_jlk_is(p, "optional_parameter") || tt_jlk_is(p, "assignment"))
    p = ts_node_named_child(p, 0);
  return tt_jlk_is(p, "typed_expression") ? ts_node_named_child(p, 1) : (TSNode){0};
}

static void check_launch(const tt_jlk_scope *s, TSNode n, void *ud) {
  run_ctx *w = ud;
  if (!tt_jlk_is(n, "call_expression")) return;
  TSNode callee = ts_node_named_child(n, 0), al = ts_node_named_child(n, 1);
  size_t len;
  const char *ct = tt_jlk_text(s->text, callee, &len);
  if (!tt_jlk_is(al, "argument_list") || !tt_strmap_get(&w->o->launch_calls, ct, len)) return;
  TSNode args[MAX_PARAMS], params[MAX_PARAMS];
  bool opt_a[MAX_PARAMS], opt_p[MAX_PARAMS];
  int na = positional(al, true, args, opt_a);
  if (na < w->o->kernel_at || na < w->o->args_from - 1) return;
  TSNode kernel = args[w->o->kernel_at - 1];
  const char *kt = tt_jlk_is(kernel, "identifier") ? tt_jlk_text(s->text, kernel, &len) : NULL;
  const char *idx = kt ? tt_strmap_get(&w->d.by_name, kt, len) : NULL;
  if (!idx || *idx == '-') return;
  TSNode where, sig = tt_jlk_signature_call(w->d.nodes[strtoul(idx, NULL, 10)], &where);
  int np = positional(ts_node_named_child(sig, 1), false, params, opt_p);
  if (np < 0) return;
  int required = 0;
  for (int i = 0; i < np; i++) required += !opt_p[i];
  int given = na - (int)(w->o->args_from - 1);
  if (given < required || given > np) {
    char problem[160];
    snprintf(problem, sizeof problem, "passes %d argument%s to `%.*s`, whose signature takes %s%d", given,
             given == 1 ? "" : "s", (int)len, kt, required == np ? "" : "at least ", required);
    report(w, s->text, kernel, callee, (TSNode){0}, problem);
    return;
  }
  for (int i = 0; i < given; i++) {
    TSNode a = args[w->o->args_from - 1 + i], ty = param_type(params[i]);
    if (ts_node_is_null(ty)) continue;
    tt_jlk_kind pk = tt_jlk_type_kind(&w->o->kinds, s->text, ty), ak = tt_jlk_expr_kind(s, a);
    const char *what = pk == TT_JLK_SCALAR && ak == TT_JLK_TILE   ? "an array goes to the scalar parameter"
                       : pk == TT_JLK_TILE && ak == TT_JLK_SCALAR ? "a scalar goes to the array parameter"
                                                                  : NULL;
    if (!what) continue;
    size_t xl, pl;
    const char *xt = tt_jlk_text(s->text, a, &xl), *pt = tt_jlk_text(s->text, params[i], &pl);
    char *problem = tt_xasprintf("argument %d `%.*s`: %s `%.*s`", i + 1, (int)xl, xt, what, (int)pl, pt);
    report(w, s->text, kernel, a, params[i], problem);
    free(problem);
  }
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const la_opts *o = opts;
  run_ctx w = {o, {{0}, NULL, 0, 0}, emit, ud};
  TSNode root = ts_tree_root_node(ctx->tree->ts);
  collect_defs(&w.d, ctx->tree->src->text, root);
  if (w.d.n) tt_jlk_each_scope(&o->kinds, ctx->tree->src->text, root, check_launch, &w);
  tt_strmap_free(&w.d.by_name);
  free(w.d.nodes);
}

static const char *const bindings[] = {"kernel", "arg", "param", "problem", NULL};

const tt_analyzer tt_analyzer_launch_args = {"julia-launch-args", bindings, compile_opts, free_opts, run, false, NULL};
