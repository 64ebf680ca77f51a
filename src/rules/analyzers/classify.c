/* classify-functions — labels each function with a fact (a porting strategy, say) from
 * regexes in the rule file, and reports the label as a finding. Other rules read the
 * label with `(#tt-fact? @cap "FACT" "LABEL")`, so all fixes inside one function follow
 * the same decision. The engine runs classifiers before every other rule. */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/opts.h"
#include "util/fs.h"
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
  label_rule *launch_labels; /* run on a kernel's launches when it has no evidence of its own */
  size_t n_launch_labels;
  tt_strmap report;      /* labels reported as findings; empty: all */
  tt_strmap neutral;     /* labels that neither give nor block call-tree inheritance */
  tt_strmap skip;        /* fact -> label: code in such ranges is no evidence (dead branches) */
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
  for (size_t i = 0; i < o->n_launch_labels; i++) {
    free(o->launch_labels[i].label);
    free(o->launch_labels[i].reason);
    if (o->launch_labels[i].when) pcre2_code_free(o->launch_labels[i].when);
  }
  free(o->launch_labels);
  tt_strmap_free(&o->report);
  tt_strmap_free(&o->neutral);
  tt_strmap_free(&o->skip);
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

static int load_labels(struct fy_node *ls, label_rule **out, size_t *n, char **err, struct fy_node **at) {
  *out = tt_xcalloc((size_t)fy_node_sequence_item_count(ls) + 1, sizeof **out);
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(ls, &it)))
    if (load_label(e, &(*out)[(*n)++], err, at) < 0) return -1;
  return 0;
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"fact", "functions", "default", "labels", "report", "inherit_from_callers",
                                     "launch_labels", "neutral", "skip", NULL};
  cls_opts *o = tt_xcalloc(1, sizeof *o);
  char *functions = NULL;
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "fact", &o->fact, err, at) < 0 ||
      tt_opts_string(opts, "functions", &functions, err, at) < 0 ||
      tt_opts_string(opts, "default", &o->def, err, at) < 0 || tt_opts_set(opts, "report", &o->report, err, at) < 0 ||
      tt_opts_bool(opts, "inherit_from_callers", &o->inherit, err, at) < 0 ||
      tt_opts_set(opts, "neutral", &o->neutral, err, at) < 0 || tt_opts_map(opts, "skip", &o->skip, err, at) < 0)
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
  if (load_labels(ls, &o->labels, &o->n_labels, err, at) < 0) goto bad;
  struct fy_node *ll = opts ? fy_node_mapping_lookup_by_string(opts, "launch_labels", FY_NT) : NULL;
  if (ll && !fy_node_is_sequence(ll)) {
    *err = tt_xstrdup("`launch_labels` must be a sequence of {label, when, reason}");
    *at = ll;
    goto bad;
  }
  if (ll && load_labels(ll, &o->launch_labels, &o->n_launch_labels, err, at) < 0) goto bad;
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
  const char *name;  /* name_e - name_s bytes; in the file's or a header's code text */
  bool external;     /* defined in a local header: a call-tree neighbour, not labelled here */
  const char *label, *reason, *evidence;
  size_t evidence_len;
  bool is_default;
  char *own_reason; /* owned; set when the label came from the call tree or a launch */
  char *own_evidence; /* owned; set for a launch */
} labelled;

typedef struct walk {
  const cls_opts *o;
  const char *text; /* the file's code, comments and string literals blanked (code_text) */
  labelled *fns;
  size_t n, cap;
  bool external;    /* walking a local header */
  const tt_strmap *wanted; /* external: only functions the file calls are classified */
} walk;

/* A copy of the file in which comments and string/char literals are spaces (newlines
 * kept), so that evidence is code, never prose: byte offsets are the file's. */
static bool blank_prose(TSNode n, void *vbuf) {
  const char *t = ts_node_type(n);
  if (strcmp(t, "comment") && strcmp(t, "string_literal") && strcmp(t, "char_literal") &&
      strcmp(t, "raw_string_literal") && strcmp(t, "system_lib_string"))
    return true;
  char *buf = vbuf;
  for (uint32_t i = ts_node_start_byte(n); i < ts_node_end_byte(n); i++)
    if (buf[i] != '\n') buf[i] = ' ';
  return false;
}

static char *code_text(const tt_tree *tree) {
  char *buf = tt_xmalloc(tree->src->len + 1);
  memcpy(buf, tree->src->text, tree->src->len);
  buf[tree->src->len] = '\0';
  tt_tree_walk(ts_tree_root_node(tree->ts), blank_prose, buf);
  return buf;
}

/* The first label whose `when` matches text[s, e), or NULL. */
static const label_rule *first_label(const label_rule *ls, size_t n, const char *text, uint32_t s, uint32_t e,
                                     size_t *ms, size_t *me) {
  for (size_t i = 0; i < n; i++)
    if (tt_regex_find(ls[i].when, text + s, e - s, ms, me)) return &ls[i];
  return NULL;
}

static bool on_function(TSNode n, void *vw) {
  walk *w = vw;
  if (strcmp(ts_node_type(n), "function_definition")) return true;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  TSNode body = ts_node_child_by_field_name(n, "body", 4);
  uint32_t head_end = ts_node_is_null(body) ? e : ts_node_start_byte(body);
  size_t ms, me;
  TSNode name = function_name(n);
  if (ts_node_is_null(name)) return true;
  if (w->wanted && !tt_strmap_get(w->wanted, w->text + ts_node_start_byte(name),
                                  ts_node_end_byte(name) - ts_node_start_byte(name)))
    return false; /* a header's function the file never calls: no neighbour of its tree */
  if (!tt_regex_find(w->o->functions, w->text + s, head_end - s, &ms, &me)) return true;
  labelled f = {s, e, ts_node_start_byte(name), ts_node_end_byte(name), w->text + ts_node_start_byte(name),
                w->external, w->o->def, "no rule matched", "", 0, true, NULL, NULL};
  const label_rule *l = first_label(w->o->labels, w->o->n_labels, w->text, s, e, &ms, &me);
  if (l) {
    f.label = l->label;
    f.reason = l->reason;
    f.evidence = w->text + s + ms;
    f.evidence_len = me - ms;
    f.is_default = false;
  }
  TT_PUSH(w->fns, w->n, w->cap, f);
  return true; /* nested functions (lambdas) get their own label */
}

/* The innermost classified function containing byte `at`, or NULL. */
static labelled *function_at(walk *w, uint32_t at) {
  labelled *best = NULL;
  for (size_t i = 0; i < w->n; i++)
    if (!w->fns[i].external && at >= w->fns[i].start && at < w->fns[i].end && (!best || w->fns[i].end - w->fns[i].start < best->end - best->start))
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

/* The callee's name of a call: `f(…)`, `f<T>(…)`, `k<<<…>>>(…)`. */
static TSNode callee_name(TSNode call) {
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  if (!ts_node_is_null(fn) && !strcmp(ts_node_type(fn), "template_function"))
    fn = ts_node_child_by_field_name(fn, "name", 4);
  return !ts_node_is_null(fn) && !strcmp(ts_node_type(fn), "identifier") ? fn : (TSNode){0};
}

static bool on_call(TSNode n, void *vc) {
  call_scan *c = vc;
  if (strcmp(ts_node_type(n), "call_expression")) return true;
  TSNode fn = callee_name(n);
  if (ts_node_is_null(fn)) return true;
  uint32_t s = ts_node_start_byte(fn);
  const labelled *caller = function_at(c->w, s);
  if (caller) TT_PUSH(c->sites, c->n, c->cap, ((call_site){s, ts_node_end_byte(fn), caller}));
  return true;
}

/* A neighbour whose label counts in the call tree: labelled, and not neutral. */
static bool gives_label(const walk *w, const labelled *g) {
  return !g->is_default && !tt_strmap_get(&w->o->neutral, g->label, strlen(g->label));
}

static bool is_named(const walk *w, const labelled *f, const call_site *cs) {
  size_t len = f->name_e - f->name_s;
  return cs->name_e - cs->name_s == len && !memcmp(w->text + cs->name_s, f->name, len);
}

static void take_label(labelled *f, const char *label, const char *how, const walk *w, const labelled *by) {
  f->label = label;
  f->is_default = false;
  free(f->own_reason);
  f->own_reason = tt_xasprintf("%s `%.*s` (%s)", how, (int)(by->name_e - by->name_s), by->name, label);
  f->reason = f->own_reason;
}

/* One strategy per call tree. A function with no evidence of its own takes the label
 * its labelled callers agree on (a `warpSize`-only helper of a logical32 kernel), else
 * the label its labelled callees agree on (a kernel whose only 32-lane code is in its
 * `warpReduceSum`). Repeats until nothing changes (chains); disagreeing neighbours
 * leave the default. Call sites are collected in one walk of the tree. */
static bool inherit_round(walk *w, const call_scan *c, bool from_callers) {
  bool changed = false;
  for (size_t i = 0; i < w->n; i++) {
    labelled *f = &w->fns[i];
    /* A neutral function (no warp code of its own) follows the helpers it calls, so a
     * kernel whose warp code lives in its helpers is ported with them; it does not
     * follow its callers (a math helper of a kernel stays out of the warp tree). */
    bool neutral = !f->is_default && tt_strmap_get(&w->o->neutral, f->label, strlen(f->label));
    if ((!f->is_default && !(neutral && !from_callers)) || f->external) continue;
    const char *label = NULL;
    const labelled *by = NULL;
    bool conflict = false;
    for (size_t k = 0; k < c->n && !conflict; k++) {
      const call_site *cs = &c->sites[k];
      if (cs->caller == f) {
        if (from_callers) continue;
        for (size_t j = 0; j < w->n; j++) { /* f calls fns[j] */
          const labelled *g = &w->fns[j];
          if (g == f || !gives_label(w, g) || !is_named(w, g, cs)) continue;
          if (!label) label = g->label, by = g;
          else if (strcmp(label, g->label)) conflict = true;
        }
      } else if (from_callers && gives_label(w, cs->caller) && is_named(w, f, cs)) {
        if (!label) label = cs->caller->label, by = cs->caller;
        else if (strcmp(label, cs->caller->label)) conflict = true;
      }
    }
    if (!label || conflict) continue;
    take_label(f, label, from_callers ? "called from" : "calls", w, by);
    changed = true;
  }
  return changed;
}

/* A helper whose callers ended with different labels cannot follow both: say so. */
static void note_mixed_callers(walk *w, const call_scan *c) {
  for (size_t i = 0; i < w->n; i++) {
    labelled *f = &w->fns[i];
    if (f->external) continue;
    const labelled *a = NULL, *b = NULL;
    for (size_t k = 0; k < c->n && !b; k++) {
      const call_site *cs = &c->sites[k];
      if (cs->caller == f || !gives_label(w, cs->caller) || !is_named(w, f, cs)) continue;
      if (!a) a = cs->caller;
      else if (strcmp(a->label, cs->caller->label)) b = cs->caller;
    }
    if (!b) continue;
    char *r = tt_xasprintf("%s; called under two strategies (%s from `%.*s`, %s from `%.*s`): one function gets one "
                           "port and tiletrans does not clone it, so specialise it by hand or check at warp 64",
                           f->reason, a->label, (int)(a->name_e - a->name_s), a->name, b->label,
                           (int)(b->name_e - b->name_s), b->name);
    free(f->own_reason);
    f->own_reason = r;
    f->reason = r;
  }
}

/* --- launches: host code as evidence ------------------------------------------------- */

/* Appends to `buf` the declarations and assignments in `scope` of identifier `name`. */
typedef struct defs_scan {
  const char *text;
  uint32_t name_s, name_e;
  tt_buf *buf;
} defs_scan;

static bool on_def(TSNode n, void *vd) {
  defs_scan *d = vd;
  const char *t = ts_node_type(n);
  TSNode lhs = {0};
  if (!strcmp(t, "init_declarator")) lhs = ts_node_child_by_field_name(n, "declarator", 10);
  else if (!strcmp(t, "assignment_expression")) lhs = ts_node_child_by_field_name(n, "left", 4);
  else return true;
  if (ts_node_is_null(lhs) || strcmp(ts_node_type(lhs), "identifier")) return true;
  uint32_t s = ts_node_start_byte(lhs), e = ts_node_end_byte(lhs);
  if (e - s == d->name_e - d->name_s && !memcmp(d->text + s, d->text + d->name_s, e - s)) {
    tt_buf_append(d->buf, d->text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
    tt_buf_putc(d->buf, '\n');
  }
  return true;
}

typedef struct launch_scan {
  walk *w;
  TSNode scope; /* the function around the launch */
  tt_buf *buf;
} launch_scan;

static bool on_config_ident(TSNode n, void *vl) {
  launch_scan *l = vl;
  if (strcmp(ts_node_type(n), "identifier")) return true;
  defs_scan d = {l->w->text, ts_node_start_byte(n), ts_node_end_byte(n), l->buf};
  tt_tree_walk(l->scope, on_def, &d);
  return true;
}

/* The evidence text of a launch: its `<<<…>>>` and the definitions of the names in it. */
static void launch_text(walk *w, TSNode scope, TSNode config, tt_buf *buf) {
  tt_buf_append(buf, w->text + ts_node_start_byte(config), ts_node_end_byte(config) - ts_node_start_byte(config));
  tt_buf_putc(buf, '\n');
  launch_scan l = {w, scope, buf};
  tt_tree_walk(config, on_config_ident, &l);
}

typedef struct launch_walk {
  walk *w;
  TSNode scope;
} launch_walk;

static void label_launched(walk *w, TSNode call, TSNode scope) {
  TSNode fn = callee_name(call), config = {0};
  for (uint32_t i = 0; i < ts_node_named_child_count(call); i++)
    if (!strcmp(ts_node_type(ts_node_named_child(call, i)), "kernel_call_syntax")) config = ts_node_named_child(call, i);
  if (ts_node_is_null(fn) || ts_node_is_null(config)) return;
  tt_buf buf = {0};
  launch_text(w, scope, config, &buf);
  size_t ms, me;
  const label_rule *l = buf.len ? first_label(w->o->launch_labels, w->o->n_launch_labels, buf.data, 0, (uint32_t)buf.len, &ms, &me) : NULL;
  call_site cs = {ts_node_start_byte(fn), ts_node_end_byte(fn), NULL};
  for (size_t i = 0; l && i < w->n; i++) {
    labelled *f = &w->fns[i];
    if (!f->is_default || f->external || !is_named(w, f, &cs)) continue;
    f->label = l->label;
    f->is_default = false;
    free(f->own_reason);
    free(f->own_evidence);
    f->own_evidence = tt_xstrndup(buf.data + ms, me - ms);
    f->own_reason = tt_xasprintf("%s at its launch", l->reason);
    f->reason = f->own_reason;
    f->evidence = f->own_evidence;
    f->evidence_len = me - ms;
  }
  tt_buf_free(&buf);
}

static bool on_launch(TSNode n, void *vl) {
  launch_walk *lw = vl;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "function_definition")) {
    launch_walk inner = {lw->w, n};
    TSNode body = ts_node_child_by_field_name(n, "body", 4);
    if (!ts_node_is_null(body)) tt_tree_walk(body, on_launch, &inner);
    return false;
  }
  if (!strcmp(t, "call_expression") && !ts_node_is_null(lw->scope)) label_launched(lw->w, n, lw->scope);
  return true;
}

static void inherit_labels(walk *w, TSNode root) {
  call_scan c = {w, NULL, 0, 0};
  tt_tree_walk(root, on_call, &c);
  for (int round = 0; round < 16; round++) {
    bool changed = inherit_round(w, &c, true);
    if (!changed) changed = inherit_round(w, &c, false);
    if (!changed) break;
  }
  note_mixed_callers(w, &c);
  free(c.sites);
}

/* --- local headers: their functions are call-tree neighbours ------------------------ */

typedef struct headers {
  char **codes; /* the headers' code texts, alive while their functions are */
  size_t n, cap;
} headers;

static bool on_include(TSNode n, void *vp) {
  char ***paths = ((void **)vp)[0];
  size_t *np = ((void **)vp)[1], *cap = ((void **)vp)[2];
  const char *text = ((void **)vp)[3];
  if (strcmp(ts_node_type(n), "preproc_include")) return true;
  TSNode path = ts_node_child_by_field_name(n, "path", 4);
  if (!ts_node_is_null(path) && !strcmp(ts_node_type(path), "string_literal")) {
    uint32_t s = ts_node_start_byte(path) + 1, e = ts_node_end_byte(path) - 1;
    if (e > s) TT_PUSH(*paths, *np, *cap, tt_xstrndup(text + s, e - s));
  }
  return false;
}

/* Classifies the functions of the local headers the file includes (one level), so that
 * a kernel whose 32-lane code is in a header's helper follows that helper. */
/* The names the file's classified functions call. */
static bool on_called_name(TSNode n, void *vm) {
  void **a = vm;
  tt_strmap *names = a[0];
  const char *text = a[1];
  if (strcmp(ts_node_type(n), "call_expression")) return true;
  TSNode fn = callee_name(n);
  if (!ts_node_is_null(fn)) {
    char *k = tt_xstrndup(text + ts_node_start_byte(fn), ts_node_end_byte(fn) - ts_node_start_byte(fn));
    tt_strmap_put(names, k, "");
    free(k);
  }
  return true;
}

static void classify_headers(walk *w, const tt_tree *tree, headers *h) {
  tt_strmap called = {0};
  void *ca[] = {&called, (void *)w->text};
  for (size_t i = 0; i < w->n; i++) {
    TSNode fn = ts_node_descendant_for_byte_range(ts_tree_root_node(tree->ts), w->fns[i].name_s, w->fns[i].name_e);
    for (; !ts_node_is_null(fn) && strcmp(ts_node_type(fn), "function_definition"); fn = ts_node_parent(fn)) {}
    if (!ts_node_is_null(fn)) tt_tree_walk(fn, on_called_name, ca);
  }
  if (!called.n) { /* nothing calls out: no header function is a neighbour */
    tt_strmap_free(&called);
    return;
  }
  char **paths = NULL;
  size_t n = 0, cap = 0;
  void *args[] = {&paths, &n, &cap, (void *)tree->src->text};
  tt_tree_walk(ts_tree_root_node(tree->ts), on_include, args);
  char *dir = tt_fs_dirname(tree->src->path);
  for (size_t i = 0; i < n; i++) {
    char *path = tt_fs_join(dir, paths[i]), *text;
    size_t len;
    if (tt_fs_read(path, &text, &len, NULL) == 0) {
      tt_source *src = tt_source_new(path, text, len, tree->src->lang);
      tt_tree *t = src ? tt_tree_parse(src) : NULL;
      if (t) {
        char *code = code_text(t);
        TT_PUSH(h->codes, h->n, h->cap, code);
        walk hw = {w->o, code, w->fns, w->n, w->cap, true, &called};
        tt_tree_walk(ts_tree_root_node(t->ts), on_function, &hw);
        w->fns = hw.fns, w->n = hw.n, w->cap = hw.cap;
      }
      tt_tree_free(t);
      if (src) tt_source_free(src);
      else free(text);
    }
    free(path);
    free(paths[i]);
  }
  free(paths);
  free(dir);
  tt_strmap_free(&called);
}

/* Blanks the ranges that an earlier classifier labelled as `skip` says (code a HIP
 * build does not compile is no evidence for its port). */
static void blank_skipped(const cls_opts *o, const tt_filectx *ctx, char *code) {
  for (size_t i = 0; o->skip.n && i < ctx->n_facts; i++) {
    const tt_fact *f = &ctx->facts[i];
    const char *want = tt_strmap_get(&o->skip, f->name, strlen(f->name));
    if (!want || strcmp(want, f->label)) continue;
    for (uint32_t b = f->start; b < f->end && b < ctx->tree->src->len; b++)
      if (code[b] != '\n') code[b] = ' ';
  }
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const cls_opts *o = opts;
  char *code = code_text(ctx->tree);
  blank_skipped(o, ctx, code);
  walk w = {o, code, NULL, 0, 0, false, NULL};
  headers hs = {0};
  TSNode root = ts_tree_root_node(ctx->tree->ts);
  tt_tree_walk(root, on_function, &w);
  if (o->inherit) classify_headers(&w, ctx->tree, &hs);
  if (o->n_launch_labels) {
    launch_walk lw = {&w, {{0}, 0, 0}};
    tt_tree_walk(root, on_launch, &lw);
  }
  if (o->inherit) inherit_labels(&w, root);
  for (size_t i = 0; i < w.n; i++) {
    const labelled *f = &w.fns[i];
    if (f->external) continue;
    tt_filectx_add_fact(ctx, o->fact, f->start, f->end, f->label);
    if (o->report.n && !tt_strmap_get(&o->report, f->label, strlen(f->label))) continue;
    tt_binding b[] = {{"function", f->name, f->name_e - f->name_s, f->name_s, f->name_e},
                      {"label", f->label, strlen(f->label), f->name_s, f->name_e},
                      {"reason", f->reason, strlen(f->reason), f->name_s, f->name_e},
                      {"evidence", f->evidence, f->evidence_len, 0, 0}};
    tt_analyzer_hit h = {f->name_s, f->name_e, b, 4, NULL, 0, false};
    emit(ud, &h);
  }
  for (size_t i = 0; i < w.n; i++) free(w.fns[i].own_reason), free(w.fns[i].own_evidence);
  free(w.fns);
  free(code);
  for (size_t i = 0; i < hs.n; i++) free(hs.codes[i]);
  free(hs.codes);
}

static const char *const bindings[] = {"function", "label", "reason", "evidence", NULL};

const tt_analyzer tt_analyzer_classify = {"classify-functions", bindings, compile_opts, free_opts, run, true, NULL};
