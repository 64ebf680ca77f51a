/* classify-functions — labels each function with a fact (a porting strategy, say) from
 * regexes in the rule file, and reports the label as a finding. Other rules read the
 * label with `(#tt-fact? @cap "FACT" "LABEL")`, so all fixes inside one function follow
 * the same decision. The engine runs classifiers before every other rule. */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/opts.h"
#include "util/regex.h"
#include "util/util.h"
#include "util/yaml.h"

typedef struct label_rule {
  char *label, *reason;
  pcre2_code *when;
} label_rule;

typedef struct cls_opts {
  char *fact, *def;
  pcre2_code *functions;
  label_rule *labels;
  size_t n_labels;
} cls_opts;

static void free_opts(void *p) {
  cls_opts *o = p;
  free(o->fact);
  free(o->def);
  if (o->functions) pcre2_code_free(o->functions);
  for (size_t i = 0; i < o->n_labels; i++) {
    free(o->labels[i].label);
    free(o->labels[i].reason);
    if (o->labels[i].when) pcre2_code_free(o->labels[i].when);
  }
  free(o->labels);
  free(o);
}

/* Compiles option `key`'s regex; the message names the key. */
static pcre2_code *compile(const char *re, const char *key, char **err) {
  char *why = NULL;
  pcre2_code *c = tt_regex_compile(re, &why);
  if (!c) {
    *err = tt_xasprintf("`%s`: %s", key, why);
    free(why);
  }
  return c;
}

static int load_label(struct fy_node *n, label_rule *l, char **err, struct fy_node **at) {
  static const char *const keys[] = {"label", "when", "reason", NULL};
  char *when = NULL;
  *at = n;
  if (!fy_node_is_mapping(n)) return *err = tt_xstrdup("each of `labels` must be a mapping"), -1;
  if (tt_opts_check_keys(n, keys, err, at) < 0 || tt_opts_string(n, "label", &l->label, err, at) < 0 ||
      tt_opts_string(n, "when", &when, err, at) < 0 || tt_opts_string(n, "reason", &l->reason, err, at) < 0)
    return -1;
  *at = n;
  int rc = -1;
  if (!l->label || !when || !l->reason) *err = tt_xstrdup("each of `labels` needs `label`, `when` and `reason`");
  else if ((l->when = compile(when, "when", err))) rc = 0;
  free(when);
  return rc;
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"fact", "functions", "default", "labels", NULL};
  cls_opts *o = tt_xcalloc(1, sizeof *o);
  char *functions = NULL;
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "fact", &o->fact, err, at) < 0 ||
      tt_opts_string(opts, "functions", &functions, err, at) < 0 ||
      tt_opts_string(opts, "default", &o->def, err, at) < 0)
    goto bad;
  if (!o->fact || !functions || !o->def) {
    *err = tt_xstrdup("needs `fact`, `functions`, `default` and `labels`");
    goto bad;
  }
  if (!(o->functions = compile(functions, "functions", err))) goto bad;
  struct fy_node *ls = opts ? fy_node_mapping_lookup_by_string(opts, "labels", FY_NT) : NULL;
  if (!ls || !fy_node_is_sequence(ls)) {
    *err = tt_xstrdup("`labels` must be a sequence of {label, when, reason}");
    *at = ls;
    goto bad;
  }
  o->labels = tt_xcalloc((size_t)fy_node_sequence_item_count(ls) + 1, sizeof *o->labels);
  void *it = NULL;
  struct fy_node *n;
  while ((n = fy_node_sequence_iterate(ls, &it)))
    if (load_label(n, &o->labels[o->n_labels++], err, at) < 0) goto bad;
  free(functions);
  return o;
bad:
  free(functions);
  free_opts(o);
  return NULL;
}

static TSNode function_name(TSNode fn) {
  TSNode d = ts_node_child_by_field_name(fn, "declarator", 10);
  while (!ts_node_is_null(d) && strcmp(ts_node_type(d), "function_declarator"))
    d = ts_node_child_by_field_name(d, "declarator", 10); /* through pointer/reference declarators */
  if (ts_node_is_null(d)) return ts_node_child_by_field_name(fn, "name", 4); /* python, julia */
  return ts_node_child_by_field_name(d, "declarator", 10);
}

typedef struct walk {
  const cls_opts *o;
  tt_filectx *ctx;
  tt_analyzer_emit emit;
  void *ud;
} walk;

static bool on_node(TSNode n, void *vw) {
  walk *w = vw;
  if (strcmp(ts_node_type(n), "function_definition")) return true;
  const char *text = w->ctx->tree->src->text;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  TSNode body = ts_node_child_by_field_name(n, "body", 4);
  uint32_t head_end = ts_node_is_null(body) ? e : ts_node_start_byte(body);
  size_t ms, me;
  TSNode name = function_name(n);
  if (ts_node_is_null(name) || !tt_regex_find(w->o->functions, text + s, head_end - s, &ms, &me)) return true;
  const char *label = w->o->def, *reason = "no rule matched", *ev = "";
  size_t ev_len = 0;
  for (size_t i = 0; i < w->o->n_labels; i++)
    if (tt_regex_find(w->o->labels[i].when, text + s, e - s, &ms, &me)) {
      label = w->o->labels[i].label;
      reason = w->o->labels[i].reason;
      ev = text + s + ms;
      ev_len = me - ms;
      break;
    }
  tt_filectx_add_fact(w->ctx, w->o->fact, s, e, label);
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  tt_binding b[] = {{"function", text + ns, ne - ns, ns, ne},
                    {"label", label, strlen(label), ns, ne},
                    {"reason", reason, strlen(reason), ns, ne},
                    {"evidence", ev, ev_len, 0, 0}};
  tt_analyzer_hit h = {ns, ne, b, 4, NULL, 0, false};
  w->emit(w->ud, &h);
  return true; /* nested functions (lambdas) get their own label */
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  walk w = {opts, ctx, emit, ud};
  tt_tree_walk(ts_tree_root_node(ctx->tree->ts), on_node, &w);
}

static const char *const bindings[] = {"function", "label", "reason", "evidence", NULL};

const tt_analyzer tt_analyzer_classify = {"classify-functions", bindings, compile_opts, free_opts, run, true};
