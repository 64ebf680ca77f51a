/* julia-scalar-args — labels each call of the rule file's `calls` (max, min, ...) with
 * the join of what its arguments are known to be (jl_kinds.h: "scalar", "unknown" or
 * "tile") as the fact named by `fact:`, and reports the calls whose label is in
 * `report`. The evidence is the rule file's (jl_kinds.h options). */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/jl_kinds.h"
#include "rules/analyzers/opts.h"
#include "util/util.h"

typedef struct sa_opts {
  char *fact;
  tt_strmap calls, report;
  tt_jlk_config kinds;
} sa_opts;

static void free_opts(void *p) {
  sa_opts *o = p;
  free(o->fact);
  tt_strmap_free(&o->calls);
  tt_strmap_free(&o->report);
  tt_jlk_config_free(&o->kinds);
  free(o);
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"fact", "calls", "report", NULL};
  sa_opts *o = tt_xcalloc(1, sizeof *o);
  if (tt_jlk_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "fact", &o->fact, err, at) < 0 ||
      tt_opts_set(opts, "calls", &o->calls, err, at) < 0 || tt_opts_set(opts, "report", &o->report, err, at) < 0 ||
      tt_jlk_config_read(opts, &o->kinds, err, at) < 0)
    goto bad;
  if (!o->fact || !o->calls.n) {
    *err = tt_xstrdup("needs `fact` and `calls`");
    *at = opts;
    goto bad;
  }
  return o;
bad:
  free_opts(o);
  return NULL;
}

typedef struct run_ctx {
  const sa_opts *o;
  tt_filectx *ctx;
  tt_analyzer_emit emit;
  void *ud;
} run_ctx;

static void label_call(const tt_jlk_scope *s, TSNode n, void *ud) {
  run_ctx *w = ud;
  if (!tt_jlk_is(n, "call_expression")) return;
  TSNode callee = ts_node_named_child(n, 0), args = ts_node_named_child(n, 1);
  size_t fl, al, ol = 0;
  const char *ft = tt_jlk_text(s->text, callee, &fl);
  if (!tt_jlk_is(callee, "identifier") || !tt_jlk_is(args, "argument_list") || !tt_strmap_get(&w->o->calls, ft, fl))
    return;
  /* the call's kind is its arguments' join; `odd` is the first argument of that kind */
  TSNode odd = {0};
  tt_jlk_kind k = TT_JLK_SCALAR;
  for (TSNode a = ts_node_named_child(args, 0); !ts_node_is_null(a); a = ts_node_next_named_sibling(a)) {
    tt_jlk_kind ak = tt_jlk_expr_kind(s, a);
    if (ts_node_is_null(odd) || ak > k) odd = a, k = ak;
  }
  if (ts_node_is_null(odd)) return;
  const char *label = tt_jlk_kind_label[k];
  uint32_t st = ts_node_start_byte(n), en = ts_node_end_byte(n);
  tt_filectx_add_fact(w->ctx, w->o->fact, st, en, label);
  if (!tt_strmap_get(&w->o->report, label, strlen(label))) return;
  TSNode first = ts_node_named_child(args, 0);
  const char *at = tt_jlk_text(s->text, first, &al), *ot = tt_jlk_text(s->text, odd, &ol);
  uint32_t fs = ts_node_start_byte(callee), as = ts_node_start_byte(first), os = ts_node_start_byte(odd);
  tt_binding bd[] = {{"fn", ft, fl, fs, fs + (uint32_t)fl},
                     {"a", at, al, as, as + (uint32_t)al},
                     {"arg", ot, ol, os, os + (uint32_t)ol},
                     {"label", label, strlen(label), st, en}};
  tt_analyzer_hit h = {fs, fs + (uint32_t)fl, bd, 4, NULL, 0, false};
  w->emit(w->ud, &h);
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const sa_opts *o = opts;
  run_ctx w = {o, ctx, emit, ud};
  tt_jlk_each_scope(&o->kinds, ctx->tree->src->text, ts_tree_root_node(ctx->tree->ts), label_call, &w);
}

static const char *const bindings[] = {"fn", "a", "arg", "label", NULL};

const tt_analyzer tt_analyzer_scalar_args = {"julia-scalar-args", bindings, compile_opts, free_opts, run, true, NULL};
