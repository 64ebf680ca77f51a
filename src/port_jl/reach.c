/* reach.c — which of a translation's errors matter for running one kernel.
 *
 * A real cuTile Python file holds host code around its kernels (argument checks that
 * raise, torch allocations, autotuning classes, a script's `if __name__ == ...` main).
 * Those stay in the Julia output as comments with an `unsupported` finding, and the
 * tile interpreter never runs them: only the kernel and what it calls does. So a check
 * of one kernel fails on the errors inside the code the kernel reaches, not on the
 * host code beside it. */
#include <stdlib.h>
#include <string.h>

#include "parser/tree.h"
#include "port_jl/port_jl.h"

typedef struct top_def {
  const char *name; /* into the source text, not NUL-terminated */
  uint32_t name_len;
  TSNode node;  /* the top-level statement (a decorated definition as a whole) */
  bool reached; /* the kernel runs it (the kernel itself, or a name the kernel uses) */
} top_def;

typedef struct reach {
  const tt_source *src;
  top_def *defs; /* sorted by name */
  size_t n_defs;
  size_t *work; /* defs reached whose bodies are not scanned yet */
  size_t n_work;
} reach;

static int def_cmp(const void *a, const void *b) {
  const top_def *x = a, *y = b;
  uint32_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
  int c = memcmp(x->name, y->name, n);
  return c ? c : (int)x->name_len - (int)y->name_len;
}

static top_def *find_def(reach *r, const char *name, uint32_t len) {
  top_def key = {.name = name, .name_len = len};
  return r->n_defs ? bsearch(&key, r->defs, r->n_defs, sizeof *r->defs, def_cmp) : NULL;
}

/* The name a top-level statement defines: a function, a class, or one variable
 * (`x = ...`, `x: T = ...`); else a null node. */
static TSNode defined_name(TSNode n) {
  TSNode none = {0};
  if (!strcmp(ts_node_type(n), "decorated_definition")) n = ts_node_child_by_field_name(n, "definition", 10);
  if (ts_node_is_null(n)) return none;
  const char *t = ts_node_type(n);
  if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")) return ts_node_child_by_field_name(n, "name", 4);
  if (!strcmp(t, "expression_statement") && ts_node_named_child_count(n) == 1) {
    TSNode a = ts_node_named_child(n, 0);
    if (strcmp(ts_node_type(a), "assignment")) return none;
    TSNode left = ts_node_child_by_field_name(a, "left", 4);
    if (!ts_node_is_null(left) && !strcmp(ts_node_type(left), "identifier")) return left;
  }
  return none;
}

static void mark_one(reach *r, top_def *d) {
  if (d->reached) return;
  d->reached = true;
  r->work[r->n_work++] = (size_t)(d - r->defs);
}

/* Marks every statement that defines d's name (a name bound twice has two entries,
 * adjacent in the sorted array). */
static void mark(reach *r, top_def *d) {
  if (!d || d->reached) return;
  top_def *lo = d, *hi = d, *end = r->defs + r->n_defs;
  while (lo > r->defs && !def_cmp(lo - 1, d)) lo--;
  while (hi + 1 < end && !def_cmp(hi + 1, d)) hi++;
  for (top_def *x = lo; x <= hi; x++) mark_one(r, x);
}

/* Every identifier in a reached definition that names a top-level definition reaches
 * it (a call, or a function passed on); a name that shadows one only over-approximates. */
static bool scan_enter(TSNode n, void *ctx) {
  reach *r = ctx;
  if (!strcmp(ts_node_type(n), "identifier")) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    mark(r, find_def(r, r->src->text + a, b - a));
  }
  return true;
}

/* The top-level statement holding byte `at`, or a null node. */
static TSNode top_statement_at(TSNode root, uint32_t at) {
  uint32_t n = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < n; i++) {
    TSNode c = ts_node_named_child(root, i);
    if (ts_node_start_byte(c) <= at && at < ts_node_end_byte(c)) return c;
  }
  TSNode none = {0};
  return none;
}

/* Whether an error at byte `at` is in code the kernel runs: a reached definition, or a
 * module-level statement that defines no name (other than an `if` block: a script's
 * main). A module-level variable counts where the kernel reads it, as a function does. */
static bool blocks(reach *r, TSNode root, uint32_t at) {
  TSNode top = top_statement_at(root, at);
  if (ts_node_is_null(top)) return true;
  if (!strcmp(ts_node_type(top), "if_statement")) return false;
  TSNode name = defined_name(top);
  if (ts_node_is_null(name)) return true;
  uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
  top_def *d = find_def(r, r->src->text + a, b - a);
  return !d || d->reached;
}

static const tt_pj_finding *first_error(const tt_pj_result *res) {
  for (size_t i = 0; i < res->n_findings; i++)
    if (!strcmp(res->findings[i].severity, "error")) return &res->findings[i];
  return NULL;
}

const tt_pj_finding *tt_pj_first_error_for(const tt_source *src, const tt_pj_result *res, const char *kernel) {
  tt_tree *tree = tt_tree_parse(src);
  if (!tree) return first_error(res);
  TSNode root = ts_tree_root_node(tree->ts);
  uint32_t n = ts_node_named_child_count(root);
  reach r = {.src = src, .defs = calloc(n ? n : 1, sizeof *r.defs), .work = calloc(n ? n : 1, sizeof(size_t))};
  for (uint32_t i = 0; i < n; i++) {
    TSNode top = ts_node_named_child(root, i), name = defined_name(top);
    if (ts_node_is_null(name)) continue;
    uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
    r.defs[r.n_defs++] = (top_def){src->text + a, b - a, top, false};
  }
  if (r.n_defs) qsort(r.defs, r.n_defs, sizeof *r.defs, def_cmp);
  const tt_pj_finding *bad = NULL;
  top_def *k = kernel ? find_def(&r, kernel, (uint32_t)strlen(kernel)) : NULL;
  if (!k) {
    bad = first_error(res); /* no such kernel: every error counts */
  } else {
    mark(&r, k);
    while (r.n_work) tt_tree_walk(r.defs[r.work[--r.n_work]].node, scan_enter, &r);
    for (size_t i = 0; i < res->n_findings && !bad; i++)
      if (!strcmp(res->findings[i].severity, "error") && blocks(&r, root, res->findings[i].start_byte))
        bad = &res->findings[i];
  }
  free(r.defs);
  free(r.work);
  tt_tree_free(tree);
  return bad;
}
