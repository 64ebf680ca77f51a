/* preprocessor-branches — labels the preprocessor branches of a file by which side
 * compiles them (tt_guard_branches), caps the severity of every finding in them, and
 * records the names local headers redefine for the target (`#tt-not-redefined?`).
 * The defines of each side come from the rule file's options (and, for the target,
 * the config's `hip_defines`); this analyzer knows no macro by name. */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/opts.h"
#include "rules/guard.h"
#include "util/util.h"

typedef struct br_opts {
  char *fact;
  tt_strmap report; /* labels reported as findings (at the directive) */
  tt_strmap target_defined, target_undefined, source_defined, source_undefined;
  bool cap_dead, cap_target_only;
  tt_severity dead_max, target_only_max;
} br_opts;

static void free_opts(void *p) {
  br_opts *o = p;
  free(o->fact);
  tt_strmap_free(&o->report);
  tt_strmap_free(&o->target_defined);
  tt_strmap_free(&o->target_undefined);
  tt_strmap_free(&o->source_defined);
  tt_strmap_free(&o->source_undefined);
  free(o);
}

static int read_caps(struct fy_node *opts, br_opts *o, char **err, struct fy_node **at) {
  tt_strmap caps = {0};
  static const char *const keys[] = {"dead", "target-only", NULL};
  struct fy_node *n = opts ? fy_node_mapping_lookup_by_string(opts, "caps", FY_NT) : NULL;
  if (n && fy_node_is_mapping(n) && tt_opts_check_keys(n, keys, err, at) < 0) return -1;
  if (tt_opts_map(opts, "caps", &caps, err, at) < 0) return -1;
  int rc = 0;
  const char *d = tt_strmap_get(&caps, "dead", 4), *t = tt_strmap_get(&caps, "target-only", 11);
  if (d && !(o->cap_dead = tt_severity_parse(d, false, &o->dead_max) == 0)) rc = -1;
  if (t && !(o->cap_target_only = tt_severity_parse(t, false, &o->target_only_max) == 0)) rc = -1;
  if (rc < 0) *err = tt_xstrdup("`caps` values must be error, warning or note"), *at = n;
  tt_strmap_free(&caps);
  return rc;
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"fact", "target_defines", "target_undefined", "source_defines",
                                     "source_undefined", "caps", "report", NULL};
  br_opts *o = tt_xcalloc(1, sizeof *o);
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_string(opts, "fact", &o->fact, err, at) < 0 ||
      tt_opts_map(opts, "target_defines", &o->target_defined, err, at) < 0 ||
      tt_opts_set(opts, "target_undefined", &o->target_undefined, err, at) < 0 ||
      tt_opts_map(opts, "source_defines", &o->source_defined, err, at) < 0 ||
      tt_opts_set(opts, "source_undefined", &o->source_undefined, err, at) < 0 ||
      tt_opts_set(opts, "report", &o->report, err, at) < 0 || read_caps(opts, o, err, at) < 0)
    goto bad;
  if (!o->fact || !o->target_defined.n) {
    *err = tt_xstrdup("needs `fact` and `target_defines`");
    goto bad;
  }
  return o;
bad:
  free_opts(o);
  return NULL;
}

/* Reports a labelled branch at its directive, binding `directive` (its text, trimmed)
 * and `label`. */
static void report_branch(const tt_filectx *ctx, const tt_guard_branch *b, const char *label, tt_analyzer_emit emit,
                          void *ud) {
  const char *text = ctx->tree->src->text;
  uint32_t s = b->dir_start, e = b->start;
  while (e > s && (text[e - 1] == '\n' || text[e - 1] == '\r' || text[e - 1] == ' ' || text[e - 1] == '\t')) e--;
  tt_binding bd[] = {{"directive", text + s, e - s, s, e}, {"label", label, strlen(label), s, e}};
  tt_analyzer_hit h = {s, e, bd, 2, NULL, 0, false};
  emit(ud, &h);
}

static void build_redefined(tt_filectx *ctx, const void *opts) {
  const br_opts *o = opts;
  tt_guard_env target = {&o->target_defined, &o->target_undefined, ctx->target_defines, ctx->n_target_defines};
  tt_guard_env source = {&o->source_defined, &o->source_undefined, NULL, 0};
  tt_guard_target_redefines(ctx->tree, &target, &source, &ctx->redefined);
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const br_opts *o = opts;
  tt_guard_env target = {&o->target_defined, &o->target_undefined, ctx->target_defines, ctx->n_target_defines};
  tt_guard_env source = {&o->source_defined, &o->source_undefined, NULL, 0};
  tt_guard_branch *b;
  size_t n;
  tt_guard_branches(ctx->tree, &target, &source, &b, &n);
  for (size_t i = 0; i < n; i++) {
    bool dead = b[i].target == TT_TRI_FALSE;
    bool target_only = b[i].target == TT_TRI_TRUE && b[i].source == TT_TRI_FALSE;
    const char *label = dead ? "dead" : target_only ? "target-only" : "live";
    tt_filectx_add_fact(ctx, o->fact, b[i].start, b[i].end, label);
    if (dead && o->cap_dead) tt_filectx_add_cap(ctx, b[i].start, b[i].end, o->dead_max);
    if (target_only && o->cap_target_only) tt_filectx_add_cap(ctx, b[i].start, b[i].end, o->target_only_max);
    if (tt_strmap_get(&o->report, label, strlen(label))) report_branch(ctx, &b[i], label, emit, ud);
  }
  free(b);
  ctx->redefined_build = build_redefined, ctx->redefined_arg = o;
}

static const char *const bindings[] = {"directive", "label", NULL};

/* The branch labels were computed with these macros defined on the target: a build of
 * the port must define them too, or it compiles the branches labelled dead. */
static void target_defines(const void *opts, void (*put)(void *ud, const char *name, const char *value), void *ud) {
  const br_opts *o = opts;
  for (size_t i = 0; i < o->target_defined.cap; i++)
    if (o->target_defined.keys[i]) put(ud, o->target_defined.keys[i], o->target_defined.values[i]);
}

const tt_analyzer tt_analyzer_branches = {"preprocessor-branches", bindings, compile_opts, free_opts, run, true,
                                          target_defines};
