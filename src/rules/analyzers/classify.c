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
  tt_strmap report;      /* labels reported as findings; empty: all */
  bool inherit;          /* default-labelled callees take their callers' label */
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
  tt_strmap_free(&o->report);
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
  static const char *const keys[] = {"fact", "functions", "default", "labels", "report", "inherit_from_callers", NULL};
  cls_opts *o = tt_xcalloc(1, sizeof *o);
  char *functions = NULL, *inherit = NULL;
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "fact", &o->fact, err, at) < 0 ||
      tt_opts_string(opts, "functions", &functions, err, at) < 0 ||
      tt_opts_string(opts, "default", &o->def, err, at) < 0 || tt_opts_set(opts, "report", &o->report, err, at) < 0 ||
      tt_opts_string(opts, "inherit_from_callers", &inherit, err, at) < 0)
    goto bad;
  if (inherit && strcmp(inherit, "true") && strcmp(inherit, "false")) {
    *err = tt_xstrdup("`inherit_from_callers` must be true or false");
    free(inherit);
    goto bad;
  }
  o->inherit = inherit && !strcmp(inherit, "true");
  free(inherit);
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

/* One classified function. Labels and reasons point into the options or the text. */
typedef struct labelled {
  uint32_t start, end, name_s, name_e;
  const char *label, *reason, *evidence;
  size_t evidence_len;
  bool is_default;
  char *inherited_reason; /* owned; set when the label came from callers */
} labelled;

typedef struct walk {
  const cls_opts *o;
  const char *text;
  labelled *fns;
  size_t n, cap;
} walk;

static bool on_function(TSNode n, void *vw) {
  walk *w = vw;
  if (strcmp(ts_node_type(n), "function_definition")) return true;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  TSNode body = ts_node_child_by_field_name(n, "body", 4);
  uint32_t head_end = ts_node_is_null(body) ? e : ts_node_start_byte(body);
  size_t ms, me;
  TSNode name = function_name(n);
  if (ts_node_is_null(name) || !tt_regex_find(w->o->functions, w->text + s, head_end - s, &ms, &me)) return true;
  labelled f = {s, e, ts_node_start_byte(name), ts_node_end_byte(name), w->o->def, "no rule matched", "", 0, true, NULL};
  for (size_t i = 0; i < w->o->n_labels; i++)
    if (tt_regex_find(w->o->labels[i].when, w->text + s, e - s, &ms, &me)) {
      f.label = w->o->labels[i].label;
      f.reason = w->o->labels[i].reason;
      f.evidence = w->text + s + ms;
      f.evidence_len = me - ms;
      f.is_default = false;
      break;
    }
  TT_PUSH(w->fns, w->n, w->cap, f);
  return true; /* nested functions (lambdas) get their own label */
}

/* The innermost classified function containing byte `at`, or NULL. */
static labelled *function_at(walk *w, uint32_t at) {
  labelled *best = NULL;
  for (size_t i = 0; i < w->n; i++)
    if (at >= w->fns[i].start && at < w->fns[i].end && (!best || w->fns[i].end - w->fns[i].start < best->end - best->start))
      best = &w->fns[i];
  return best;
}

/* A call of a named function inside a classified function. */
typedef struct call_site {
  uint32_t name_s, name_e;  /* the callee's name */
  const labelled *caller;
} call_site;

typedef struct call_scan {
  walk *w;
  call_site *sites;
  size_t n, cap;
} call_scan;

static bool on_call(TSNode n, void *vc) {
  call_scan *c = vc;
  if (strcmp(ts_node_type(n), "call_expression")) return true;
  TSNode fn = ts_node_child_by_field_name(n, "function", 8);
  if (ts_node_is_null(fn) || strcmp(ts_node_type(fn), "identifier")) return true;
  uint32_t s = ts_node_start_byte(fn);
  const labelled *caller = function_at(c->w, s);
  if (caller) TT_PUSH(c->sites, c->n, c->cap, ((call_site){s, ts_node_end_byte(fn), caller}));
  return true;
}

/* A helper with no evidence of its own follows the functions that call it, so that a
 * `warpSize`-only helper of a logical32 kernel is ported as logical32 too. Repeats
 * until nothing changes (chains of helpers); callers that disagree leave the default.
 * Call sites are collected in one walk of the tree. */
static void inherit_labels(walk *w, TSNode root) {
  call_scan c = {w, NULL, 0, 0};
  tt_tree_walk(root, on_call, &c);
  for (int round = 0; round < 8; round++) {
    bool changed = false;
    for (size_t i = 0; i < w->n; i++) {
      labelled *f = &w->fns[i];
      if (!f->is_default) continue;
      const char *label = NULL;
      const labelled *by = NULL;
      bool conflict = false;
      size_t len = f->name_e - f->name_s;
      for (size_t k = 0; k < c.n; k++) {
        const call_site *cs = &c.sites[k];
        if (cs->caller == f || cs->caller->is_default || cs->name_e - cs->name_s != len ||
            memcmp(w->text + cs->name_s, w->text + f->name_s, len))
          continue;
        if (!label) label = cs->caller->label, by = cs->caller;
        else if (strcmp(label, cs->caller->label)) conflict = true;
      }
      if (!label || conflict) continue;
      f->label = label;
      f->is_default = false;
      f->inherited_reason = tt_xasprintf("called from `%.*s` (%s)", (int)(by->name_e - by->name_s),
                                         w->text + by->name_s, label);
      f->reason = f->inherited_reason;
      changed = true;
    }
    if (!changed) break;
  }
  free(c.sites);
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const cls_opts *o = opts;
  walk w = {o, ctx->tree->src->text, NULL, 0, 0};
  TSNode root = ts_tree_root_node(ctx->tree->ts);
  tt_tree_walk(root, on_function, &w);
  if (o->inherit) inherit_labels(&w, root);
  for (size_t i = 0; i < w.n; i++) {
    const labelled *f = &w.fns[i];
    tt_filectx_add_fact(ctx, o->fact, f->start, f->end, f->label);
    if (o->report.n && !tt_strmap_get(&o->report, f->label, strlen(f->label))) continue;
    tt_binding b[] = {{"function", w.text + f->name_s, f->name_e - f->name_s, f->name_s, f->name_e},
                      {"label", f->label, strlen(f->label), f->name_s, f->name_e},
                      {"reason", f->reason, strlen(f->reason), f->name_s, f->name_e},
                      {"evidence", f->evidence, f->evidence_len, 0, 0}};
    tt_analyzer_hit h = {f->name_s, f->name_e, b, 4, NULL, 0, false};
    emit(ud, &h);
  }
  for (size_t i = 0; i < w.n; i++) free(w.fns[i].inherited_reason);
  free(w.fns);
}

static const char *const bindings[] = {"function", "label", "reason", "evidence", NULL};

const tt_analyzer tt_analyzer_classify = {"classify-functions", bindings, compile_opts, free_opts, run, true};
