#include "rules/guard.h"

#include <stdlib.h>
#include <string.h>

#include "rules/predicate.h"
#include "util/fs.h"
#include "util/util.h"

/* --- three-valued evaluation of #if conditions ------------------------------------- */

typedef struct val {
  tt_tri known; /* TT_TRI_TRUE: v holds the value; TT_TRI_UNKNOWN: not known */
  int64_t v;
} val;

static const val UNKNOWN = {TT_TRI_UNKNOWN, 0};
static val known(int64_t v) { return (val){TT_TRI_TRUE, v}; }

/* Macros the code itself defines from known ones (`#if defined(__HIPCC__)` / `#define
 * BNB_HIP 1`): name -> value text, "" (defined, value not known) or UNSURE. */
#define UNSURE "\x01"

typedef struct eval_ctx {
  const tt_source *src;
  const tt_guard_env *env;
  const tt_strmap *derived;
} eval_ctx;

static const char *node_text(const eval_ctx *e, TSNode n, size_t *len) {
  uint32_t s = ts_node_start_byte(n), t = ts_node_end_byte(n);
  *len = t - s;
  return e->src->text + s;
}

static bool extra_defined(const tt_guard_env *env, const char *s, size_t n) {
  for (size_t i = 0; i < env->n_extra_defined; i++)
    if (strlen(env->extra_defined[i]) == n && !memcmp(env->extra_defined[i], s, n)) return true;
  return false;
}

/* Is the macro `s` defined on this side? */
static tt_tri is_defined(const tt_guard_env *env, const tt_strmap *derived, const char *s, size_t n) {
  const char *d = derived ? tt_strmap_get(derived, s, n) : NULL;
  if (d) return strcmp(d, UNSURE) ? TT_TRI_TRUE : TT_TRI_UNKNOWN;
  if ((env->defined && tt_strmap_get(env->defined, s, n)) || extra_defined(env, s, n)) return TT_TRI_TRUE;
  if (env->undefined && tt_strmap_get(env->undefined, s, n)) return TT_TRI_FALSE;
  return TT_TRI_UNKNOWN;
}

static val identifier_value(const eval_ctx *e, const char *s, size_t n) {
  if (n == 4 && !memcmp(s, "true", 4)) return known(1);
  if (n == 5 && !memcmp(s, "false", 5)) return known(0);
  const char *v = e->derived ? tt_strmap_get(e->derived, s, n) : NULL;
  if (v && !strcmp(v, UNSURE)) return UNKNOWN;
  if (v) {
    uint64_t x;
    return tt_parse_int_literal(v, strlen(v), &x) ? known((int64_t)x) : UNKNOWN;
  }
  v = e->env->defined ? tt_strmap_get(e->env->defined, s, n) : NULL;
  uint64_t x;
  if (v && tt_parse_int_literal(v, strlen(v), &x)) return known((int64_t)x);
  if (!v && !extra_defined(e->env, s, n) && e->env->undefined && tt_strmap_get(e->env->undefined, s, n))
    return known(0); /* an undefined name reads as 0 */
  return UNKNOWN;
}

static val eval(const eval_ctx *e, TSNode n);

static val eval_defined(const eval_ctx *e, TSNode n) {
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
    TSNode c = ts_node_named_child(n, i);
    if (strcmp(ts_node_type(c), "identifier")) continue;
    size_t len;
    const char *s = node_text(e, c, &len);
    tt_tri d = is_defined(e->env, e->derived, s, len);
    return d == TT_TRI_UNKNOWN ? UNKNOWN : known(d == TT_TRI_TRUE);
  }
  return UNKNOWN;
}

static val eval_unary(const eval_ctx *e, TSNode n) {
  TSNode op = ts_node_child_by_field_name(n, "operator", 8), arg = ts_node_child_by_field_name(n, "argument", 8);
  if (ts_node_is_null(op) || ts_node_is_null(arg)) return UNKNOWN;
  val a = eval(e, arg);
  if (a.known != TT_TRI_TRUE) return UNKNOWN;
  const char *t = ts_node_type(op);
  if (!strcmp(t, "!")) return known(!a.v);
  if (!strcmp(t, "-")) return known(-a.v);
  if (!strcmp(t, "~")) return known(~a.v);
  if (!strcmp(t, "+")) return a;
  return UNKNOWN;
}

static val eval_binary(const eval_ctx *e, TSNode n) {
  TSNode op = ts_node_child_by_field_name(n, "operator", 8);
  TSNode l = ts_node_child_by_field_name(n, "left", 4), r = ts_node_child_by_field_name(n, "right", 5);
  if (ts_node_is_null(op) || ts_node_is_null(l) || ts_node_is_null(r)) return UNKNOWN;
  const char *t = ts_node_type(op);
  val a = eval(e, l), b = eval(e, r);
  /* && and || settle with one known side: 0 && x is 0, 1 || x is 1. */
  if (!strcmp(t, "&&")) {
    if ((a.known == TT_TRI_TRUE && !a.v) || (b.known == TT_TRI_TRUE && !b.v)) return known(0);
    return a.known == TT_TRI_TRUE && b.known == TT_TRI_TRUE ? known(1) : UNKNOWN;
  }
  if (!strcmp(t, "||")) {
    if ((a.known == TT_TRI_TRUE && a.v) || (b.known == TT_TRI_TRUE && b.v)) return known(1);
    return a.known == TT_TRI_TRUE && b.known == TT_TRI_TRUE ? known(0) : UNKNOWN;
  }
  if (a.known != TT_TRI_TRUE || b.known != TT_TRI_TRUE) return UNKNOWN;
  int64_t x = a.v, y = b.v;
  static const struct { const char *op; int k; } ops[] = {
      {"==", 0}, {"!=", 1}, {"<", 2}, {"<=", 3}, {">", 4}, {">=", 5}, {"+", 6}, {"-", 7}, {"*", 8},
      {"/", 9}, {"%", 10}, {"&", 11}, {"|", 12}, {"^", 13}, {"<<", 14}, {">>", 15}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    if (strcmp(t, ops[i].op)) continue;
    switch (ops[i].k) {
    case 0: return known(x == y);
    case 1: return known(x != y);
    case 2: return known(x < y);
    case 3: return known(x <= y);
    case 4: return known(x > y);
    case 5: return known(x >= y);
    case 6: return known(x + y);
    case 7: return known(x - y);
    case 8: return known(x * y);
    case 9: return y ? known(x / y) : UNKNOWN;
    case 10: return y ? known(x % y) : UNKNOWN;
    case 11: return known(x & y);
    case 12: return known(x | y);
    case 13: return known(x ^ y);
    case 14: return y >= 0 && y < 63 ? known(x << y) : UNKNOWN;
    case 15: return y >= 0 && y < 63 ? known(x >> y) : UNKNOWN;
    }
  }
  return UNKNOWN;
}

static val eval(const eval_ctx *e, TSNode n) {
  const char *t = ts_node_type(n);
  size_t len;
  const char *s = node_text(e, n, &len);
  if (!strcmp(t, "number_literal")) {
    uint64_t v;
    return tt_parse_int_literal(s, len, &v) ? known((int64_t)v) : UNKNOWN;
  }
  if (!strcmp(t, "identifier") || !strcmp(t, "true") || !strcmp(t, "false")) return identifier_value(e, s, len);
  if (!strcmp(t, "preproc_defined")) return eval_defined(e, n);
  if (!strcmp(t, "parenthesized_expression"))
    return ts_node_named_child_count(n) == 1 ? eval(e, ts_node_named_child(n, 0)) : UNKNOWN;
  if (!strcmp(t, "unary_expression")) return eval_unary(e, n);
  if (!strcmp(t, "binary_expression")) return eval_binary(e, n);
  if (!strcmp(t, "conditional_expression")) {
    TSNode c = ts_node_child_by_field_name(n, "condition", 9);
    TSNode a = ts_node_child_by_field_name(n, "consequence", 11), b = ts_node_child_by_field_name(n, "alternative", 11);
    if (ts_node_is_null(c) || ts_node_is_null(a) || ts_node_is_null(b)) return UNKNOWN;
    val cv = eval(e, c);
    if (cv.known != TT_TRI_TRUE) return UNKNOWN;
    return eval(e, cv.v ? a : b);
  }
  return UNKNOWN; /* function-like macros, __has_include, characters: not known here */
}

/* --- tri-state logic ------------------------------------------------------------------ */

static tt_tri tri_of(val v) { return v.known == TT_TRI_TRUE ? (v.v ? TT_TRI_TRUE : TT_TRI_FALSE) : TT_TRI_UNKNOWN; }
static tt_tri tri_not(tt_tri a) { return a == TT_TRI_UNKNOWN ? a : (a == TT_TRI_TRUE ? TT_TRI_FALSE : TT_TRI_TRUE); }
static tt_tri tri_and(tt_tri a, tt_tri b) {
  if (a == TT_TRI_FALSE || b == TT_TRI_FALSE) return TT_TRI_FALSE;
  return a == TT_TRI_TRUE && b == TT_TRI_TRUE ? TT_TRI_TRUE : TT_TRI_UNKNOWN;
}
static tt_tri tri_or(tt_tri a, tt_tri b) { return tri_not(tri_and(tri_not(a), tri_not(b))); }

/* --- branches ------------------------------------------------------------------------- */

typedef struct branch_walk {
  const tt_source *src;
  const tt_guard_env *env[2]; /* target, source */
  tt_strmap derived[2];       /* macros defined so far, per side (UNSURE in undecided branches) */
  tt_guard_branch *out;       /* NULL: defines only (a header) */
  size_t n, cap;
  bool record;
} branch_walk;

static void visit(branch_walk *w, TSNode n, tt_tri parent[2]);

/* The condition of one link of a chain, on side `k`: `#if E`, `#elif E`, `#ifdef X`,
 * `#ifndef X`, `#elifdef X`. */
static tt_tri link_condition(branch_walk *w, TSNode link, int k) {
  eval_ctx e = {w->src, w->env[k], &w->derived[k]};
  TSNode cond = ts_node_child_by_field_name(link, "condition", 9);
  if (!ts_node_is_null(cond)) return tri_of(eval(&e, cond));
  TSNode name = ts_node_child_by_field_name(link, "name", 4);
  if (ts_node_is_null(name) || ts_node_child_count(link) == 0) return TT_TRI_UNKNOWN;
  size_t len, dlen;
  const char *s = node_text(&e, name, &len);
  const char *d = node_text(&e, ts_node_child(link, 0), &dlen); /* the directive token */
  tt_tri def = is_defined(w->env[k], &w->derived[k], s, len);
  bool negated = dlen >= 4 && !memcmp(d + dlen - 4, "ndef", 4); /* #ifndef, #elifndef */
  return negated ? tri_not(def) : def;
}

/* Records the body of `link` (its children other than condition, name and the next
 * link) with `state`, and visits them. */
static void visit_body(branch_walk *w, TSNode link, TSNode next, tt_tri state[2]) {
  TSNode cond = ts_node_child_by_field_name(link, "condition", 9), name = ts_node_child_by_field_name(link, "name", 4);
  uint32_t start = ts_node_start_byte(link), end = ts_node_end_byte(link);
  if (!ts_node_is_null(cond)) start = ts_node_end_byte(cond);
  else if (!ts_node_is_null(name)) start = ts_node_end_byte(name);
  else if (ts_node_child_count(link)) start = ts_node_end_byte(ts_node_child(link, 0)); /* after `#else` */
  if (!ts_node_is_null(next)) end = ts_node_start_byte(next);
  if (w->record) TT_PUSH(w->out, w->n, w->cap, ((tt_guard_branch){ts_node_start_byte(link), start, end, state[0], state[1]}));
  uint32_t nc = ts_node_named_child_count(link);
  for (uint32_t i = 0; i < nc; i++) {
    TSNode c = ts_node_named_child(link, i);
    if (ts_node_eq(c, cond) || ts_node_eq(c, name) || ts_node_eq(c, next)) continue;
    visit(w, c, state);
  }
}

static bool is_link(const char *t) {
  return !strcmp(t, "preproc_if") || !strcmp(t, "preproc_ifdef") || !strcmp(t, "preproc_elif") ||
         !strcmp(t, "preproc_elifdef") || !strcmp(t, "preproc_else");
}

static void visit_chain(branch_walk *w, TSNode first, tt_tri parent[2]) {
  tt_tri taken_before[2] = {TT_TRI_FALSE, TT_TRI_FALSE};
  for (TSNode link = first; !ts_node_is_null(link);) {
    TSNode next = ts_node_child_by_field_name(link, "alternative", 11);
    bool is_else = !strcmp(ts_node_type(link), "preproc_else");
    tt_tri state[2];
    for (int k = 0; k < 2; k++) {
      tt_tri cond = is_else ? TT_TRI_TRUE : link_condition(w, link, k);
      state[k] = tri_and(parent[k], tri_and(tri_not(taken_before[k]), cond));
      taken_before[k] = tri_or(taken_before[k], cond);
    }
    visit_body(w, link, next, state);
    link = !ts_node_is_null(next) && is_link(ts_node_type(next)) ? next : (TSNode){0};
  }
}

/* `#define NAME VALUE` where side k compiles it: NAME has VALUE (its text, when it is a
 * literal) from here on; where it is undecided, NAME's state is not known. */
static void record_define(branch_walk *w, TSNode def, tt_tri parent[2]) {
  TSNode name = ts_node_child_by_field_name(def, "name", 4), value = ts_node_child_by_field_name(def, "value", 5);
  if (ts_node_is_null(name)) return;
  uint32_t ns = ts_node_start_byte(name), ne = ts_node_end_byte(name);
  char *k = tt_xstrndup(w->src->text + ns, ne - ns), *v = NULL;
  if (!ts_node_is_null(value)) {
    uint32_t vs = ts_node_start_byte(value), ve = ts_node_end_byte(value);
    while (vs < ve && (w->src->text[vs] == ' ' || w->src->text[vs] == '\t')) vs++;
    while (ve > vs && strchr(" \t\r\n", w->src->text[ve - 1])) ve--;
    v = tt_xstrndup(w->src->text + vs, ve - vs);
  }
  bool function_like = !strcmp(ts_node_type(def), "preproc_function_def");
  for (int side = 0; side < 2; side++) {
    if (parent[side] == TT_TRI_FALSE) continue;
    const char *text = parent[side] == TT_TRI_UNKNOWN || function_like ? UNSURE : v ? v : "";
    tt_strmap_put(&w->derived[side], k, text);
  }
  free(k);
  free(v);
}

static void visit(branch_walk *w, TSNode n, tt_tri parent[2]) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "preproc_if") || !strcmp(t, "preproc_ifdef")) {
    visit_chain(w, n, parent);
    return;
  }
  if (!strcmp(t, "preproc_def") || !strcmp(t, "preproc_function_def")) {
    record_define(w, n, parent);
    return;
  }
  uint32_t nc = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < nc; i++) visit(w, ts_node_named_child(n, i), parent);
}

/* The local headers of `tree` (`#include "…"`, three levels), walked for their
 * defines only, before the file itself: a project's `compat.h` that derives its own
 * platform macro (`#define BNB_HIP 1` under `__HIPCC__`) makes that macro known. */
static void walk_headers(branch_walk *w, const tt_tree *tree, int depth, tt_strmap *seen);

static bool on_local_include(TSNode n, void *vctx) {
  void **a = vctx;
  branch_walk *w = a[0];
  const tt_tree *tree = a[1];
  int depth = *(int *)a[2];
  tt_strmap *seen = a[3];
  if (strcmp(ts_node_type(n), "preproc_include")) return true;
  TSNode path = ts_node_child_by_field_name(n, "path", 4);
  if (ts_node_is_null(path) || strcmp(ts_node_type(path), "string_literal")) return false;
  uint32_t s = ts_node_start_byte(path) + 1, e = ts_node_end_byte(path) - 1;
  char *dir = tt_fs_dirname(tree->src->path), *rel = tt_xstrndup(tree->src->text + s, e > s ? e - s : 0);
  char *full = tt_fs_join(dir, rel), *text;
  size_t len;
  if (e > s && !tt_strmap_get(seen, full, strlen(full)) && tt_fs_read(full, &text, &len, NULL) == 0) {
    tt_strmap_put(seen, full, "");
    tt_source *src = tt_source_new(full, text, len, tree->src->lang);
    tt_tree *t = src ? tt_tree_parse(src) : NULL;
    if (t) {
      walk_headers(w, t, depth + 1, seen);
      const tt_source *keep = w->src;
      bool rec = w->record;
      w->src = t->src, w->record = false;
      tt_tri top[2] = {TT_TRI_TRUE, TT_TRI_TRUE};
      visit(w, ts_tree_root_node(t->ts), top);
      w->src = keep, w->record = rec;
    }
    tt_tree_free(t);
    if (src) tt_source_free(src);
    else free(text);
  }
  free(full);
  free(rel);
  free(dir);
  return false;
}

static void walk_headers(branch_walk *w, const tt_tree *tree, int depth, tt_strmap *seen) {
  if (depth >= 3 || !tree->src->path) return;
  void *a[] = {w, (void *)tree, &depth, seen};
  tt_tree_walk(ts_tree_root_node(tree->ts), on_local_include, a);
}

/* Headers only matter to a file that has #if/#ifdef of its own. */
static bool find_conditional(TSNode n, void *vfound) {
  const char *t = ts_node_type(n);
  if (!strcmp(t, "preproc_if") || !strcmp(t, "preproc_ifdef")) *(bool *)vfound = true;
  return !*(bool *)vfound;
}

static bool has_conditionals(TSNode root) {
  bool found = false;
  tt_tree_walk(root, find_conditional, &found);
  return found;
}

static void branches_of(const tt_tree *tree, const tt_guard_env *target, const tt_guard_env *source, bool headers,
                        tt_guard_branch **out, size_t *n_out) {
  branch_walk w = {tree->src, {target, source}, {{0}, {0}}, NULL, 0, 0, true};
  if (headers && has_conditionals(ts_tree_root_node(tree->ts))) {
    tt_strmap seen = {0};
    walk_headers(&w, tree, 0, &seen);
    tt_strmap_free(&seen);
  }
  tt_tri top[2] = {TT_TRI_TRUE, TT_TRI_TRUE};
  visit(&w, ts_tree_root_node(tree->ts), top);
  tt_strmap_free(&w.derived[0]);
  tt_strmap_free(&w.derived[1]);
  *out = w.out;
  *n_out = w.n;
}

void tt_guard_branches(const tt_tree *tree, const tt_guard_env *target, const tt_guard_env *source,
                       tt_guard_branch **out, size_t *n_out) {
  branches_of(tree, target, source, true, out, n_out);
}

/* --- names local headers redefine for the target ------------------------------------- */

/* True when byte `at` lies in a branch only the target compiles (innermost decides). */
static bool target_only_at(const tt_guard_branch *b, size_t n, uint32_t at) {
  const tt_guard_branch *best = NULL;
  for (size_t i = 0; i < n; i++)
    if (at >= b[i].start && at < b[i].end) best = &b[i]; /* outermost first: the last hit is innermost */
  return best && best->target == TT_TRI_TRUE && best->source == TT_TRI_FALSE;
}

typedef struct redef_walk {
  const tt_tree *tree;
  const tt_guard_branch *branches;
  size_t n_branches;
  bool all_target_only; /* the file was included from a target-only branch */
  bool defs;            /* collect its defines (a header's; the linted file's own are its code) */
  tt_strmap *names;
  char **includes; /* local includes, each with a leading '1' (target-only) or '0' */
  size_t n_inc, cap_inc;
} redef_walk;

static bool on_redef_node(TSNode n, void *vw) {
  redef_walk *w = vw;
  const char *t = ts_node_type(n);
  const char *text = w->tree->src->text;
  if (!strcmp(t, "function_definition")) return false;
  bool only = w->all_target_only || target_only_at(w->branches, w->n_branches, ts_node_start_byte(n));
  if (!strcmp(t, "preproc_def") || !strcmp(t, "preproc_function_def")) {
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    if (w->defs && only && !ts_node_is_null(name)) {
      uint32_t s = ts_node_start_byte(name), e = ts_node_end_byte(name);
      char *k = tt_xstrndup(text + s, e - s);
      tt_strmap_put(w->names, k, "");
      free(k);
    }
    return false;
  }
  if (!strcmp(t, "preproc_include")) {
    TSNode path = ts_node_child_by_field_name(n, "path", 4);
    if (!ts_node_is_null(path) && !strcmp(ts_node_type(path), "string_literal")) {
      uint32_t s = ts_node_start_byte(path) + 1, e = ts_node_end_byte(path) - 1;
      if (e > s) TT_PUSH(w->includes, w->n_inc, w->cap_inc, tt_xasprintf("%c%.*s", only ? '1' : '0', (int)(e - s), text + s));
    }
    return false;
  }
  return true;
}

static void redefines_of(const tt_tree *tree, const tt_guard_env *target, const tt_guard_env *source,
                         bool target_only, int depth, tt_strmap *seen, tt_strmap *names) {
  tt_guard_branch *branches;
  size_t n_branches;
  /* A header's own branches: its defines from the macros known so far (its own headers
   * are visited by this walk anyway). */
  branches_of(tree, target, source, false, &branches, &n_branches);
  redef_walk w = {tree, branches, n_branches, target_only, depth > 0, names, NULL, 0, 0};
  tt_tree_walk(ts_tree_root_node(tree->ts), on_redef_node, &w);
  char *dir = tt_fs_dirname(tree->src->path);
  for (size_t i = 0; i < w.n_inc; i++) {
    char *path = tt_fs_join(dir, w.includes[i] + 1), *text;
    size_t len;
    bool only = w.includes[i][0] == '1';
    char *key = tt_xasprintf("%c%s", only ? '1' : '0', path);
    if (depth < 3 && !tt_strmap_get(seen, key, strlen(key)) && tt_fs_read(path, &text, &len, NULL) == 0) {
      tt_strmap_put(seen, key, "");
      tt_source *src = tt_source_new(path, text, len, tree->src->lang);
      tt_tree *t = src ? tt_tree_parse(src) : NULL;
      if (t) redefines_of(t, target, source, only, depth + 1, seen, names);
      tt_tree_free(t);
      if (src) tt_source_free(src);
      else free(text);
    }
    free(key);
    free(path);
    free(w.includes[i]);
  }
  free(w.includes);
  free(dir);
  free(branches);
}

void tt_guard_target_redefines(const tt_tree *tree, const tt_guard_env *target, const tt_guard_env *source,
                               tt_strmap *names) {
  tt_strmap seen = {0};
  redefines_of(tree, target, source, false, 0, &seen, names);
  tt_strmap_free(&seen);
}
