#include "rules/match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/ruleset.h"
#include "rules/template.h"
#include "util/util.h"

/* Turns a rule's edit templates into concrete edits over the nodes named by the
 * bindings. A capture that matched several nodes is edited at each. */
static void add_template_edits(const tt_rule *rule, const tt_binding *b, size_t nb, tt_finding *f) {
  size_t cap = 0;
  for (size_t e = 0; e < rule->n_edits; e++) {
    const tt_rule_edit *re = &rule->edits[e];
    char *text = tt_template_render(re->tmpl, b, nb);
    const tt_binding *until = re->until ? tt_binding_find(b, nb, re->until, strlen(re->until)) : NULL;
    for (size_t i = 0; i < nb; i++) {
      if (strcmp(b[i].name, re->capture) != 0) continue;
      tt_edit ed = {b[i].start, b[i].end, tt_xstrdup(text)};
      if (until && until->start >= ed.end) ed.end = until->start;
      if (re->kind == TT_EDIT_INSERT_BEFORE) ed.end = ed.start;
      if (re->kind == TT_EDIT_INSERT_AFTER) ed.start = ed.end;
      TT_PUSH(f->edits, f->n_edits, cap, ed);
    }
    free(text);
  }
}

static void finding_init(tt_finding *f, const tt_rule *rule, tt_severity sev, const tt_source *src,
                         uint32_t start, uint32_t end, const tt_binding *b, size_t nb) {
  memset(f, 0, sizeof *f);
  f->rule = rule;
  f->severity = sev;
  f->start = start;
  f->end = end;
  f->start_pos = tt_source_pos(src, start);
  f->end_pos = tt_source_pos(src, end);
  f->message = tt_template_render(rule->message, b, nb);
}

static void finish_fix(tt_finding *f, const tt_rule *rule, const tt_binding *b, size_t nb) {
  if (!rule->has_fix || f->n_edits == 0) return;
  f->has_fix = true;
  f->fix_description = tt_template_render(rule->fix_description, b, nb);
}

/* In-progress matches a query cursor keeps at once. Each enclosing node a pattern may
 * start at holds one while the cursor walks its subtree, so an n-deep nest (a 6,000-term
 * sum is a 6,000-deep left-nested binary_expression) costs n per node without a bound:
 * quadratic. Past the bound tree-sitter drops the oldest (outermost) one; the file's
 * findings are then marked incomplete and the CLI says so. */
static const uint32_t k_match_limit = 1024;

static void run_queryset(const tt_queryset *qs, const tt_selection *sel, tt_filectx *ctx, tt_findings *out) {
  const tt_tree *tree = ctx->tree;
  if (!qs->query) return;
  TSQueryCursor *cur = ts_query_cursor_new();
  ts_query_cursor_set_match_limit(cur, k_match_limit);
  ts_query_cursor_exec(cur, qs->query, ts_tree_root_node(tree->ts));
  TSQueryMatch m;
  tt_binding *b = NULL;
  size_t bcap = 0;
  while (ts_query_cursor_next_match(cur, &m)) {
    const tt_rule *rule = qs->pattern_rule[m.pattern_index];
    tt_severity sev = tt_selection_severity(sel, rule);
    if (sev == TT_SEV_OFF) continue;
    ctx->unconfirmed = NULL;
    if (!tt_preds_hold(&qs->preds[m.pattern_index], &m, ctx)) continue;
    tt_grow((void **)&b, &bcap, m.capture_count, sizeof *b);
    uint32_t start = UINT32_MAX, end = 0, wstart = UINT32_MAX, wend = 0;
    for (uint16_t i = 0; i < m.capture_count; i++) {
      TSNode n = m.captures[i].node;
      uint32_t len, s = ts_node_start_byte(n), e = ts_node_end_byte(n);
      b[i] = (tt_binding){ts_query_capture_name_for_id(qs->query, m.captures[i].index, &len),
                          tree->src->text + s, e - s, s, e};
      if (s < wstart) wstart = s;
      if (e > wend) wend = e;
      if ((int64_t)m.captures[i].index == qs->range_capture[m.pattern_index]) {
        if (s < start) start = s;
        if (e > end) end = e;
      }
    }
    if (start == UINT32_MAX) start = wstart, end = wend;
    TT_PUSH(out->items, out->n, out->cap, (tt_finding){0});
    tt_finding *f = &out->items[out->n - 1];
    finding_init(f, rule, sev, tree->src, start, end, b, m.capture_count);
    add_template_edits(rule, b, m.capture_count, f);
    finish_fix(f, rule, b, m.capture_count);
    if (ctx->unconfirmed) f->unconfirmed = tt_xstrdup(ctx->unconfirmed);
  }
  if (ts_query_cursor_did_exceed_match_limit(cur)) out->incomplete = true;
  free(b);
  ts_query_cursor_delete(cur);
}

typedef struct hit_ctx {
  const tt_rule *rule;
  tt_severity sev;
  const tt_tree *tree;
  tt_findings *out;   /* NULL: facts only, findings dropped */
} hit_ctx;

static void on_hit(void *ud, const tt_analyzer_hit *h) {
  hit_ctx *c = ud;
  if (!c->out) return;
  TT_PUSH(c->out->items, c->out->n, c->out->cap, (tt_finding){0});
  tt_finding *f = &c->out->items[c->out->n - 1];
  finding_init(f, c->rule, c->sev, c->tree->src, h->start, h->end, h->bindings, h->n_bindings);
  if (!h->fixable) return;
  if (c->rule->n_edits) {
    add_template_edits(c->rule, h->bindings, h->n_bindings, f);
  } else {
    f->edits = tt_xcalloc(h->n_edits, sizeof *f->edits);
    for (size_t i = 0; i < h->n_edits; i++)
      f->edits[i] = (tt_edit){h->edits[i].start, h->edits[i].end, tt_xstrdup(h->edits[i].replacement)};
    f->n_edits = h->n_edits;
  }
  finish_fix(f, c->rule, h->bindings, h->n_bindings);
}

static void run_analyzer(const tt_rule *rule, tt_severity sev, tt_filectx *ctx, tt_findings *out) {
  hit_ctx c = {rule, sev, ctx->tree, out};
  rule->analyzer->run(rule->analyzer_opts, ctx, on_hit, &c);
}

/* Classifiers first (their facts feed `#tt-fact?`), then the other analyzers. A
 * classifier that is switched off still records its facts: other rules depend on them. */
static void run_analyzers(const tt_rulebook *book, const tt_selection *sel, tt_filectx *ctx, tt_findings *out,
                          bool classifiers) {
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (!r->analyzer || r->language != ctx->tree->src->lang || r->analyzer->classifier != classifiers) continue;
    tt_severity sev = tt_selection_severity(sel, r);
    if (sev != TT_SEV_OFF) run_analyzer(r, sev, ctx, out);
    else if (classifiers) run_analyzer(r, r->severity, ctx, NULL);
  }
}

/* --- suppressions -------------------------------------------------------------------- */

/* True when rule `r` ran over a file of language `lang` in this selection. */
static bool rule_ran(const tt_rule *r, const tt_selection *sel, tt_lang lang) {
  return r->language == lang && tt_selection_severity(sel, r) != TT_SEV_OFF;
}

static void add_issue(tt_suppress_issues *is, uint32_t line, uint32_t column, char *message) {
  TT_PUSH(is->items, is->n, is->cap, ((tt_suppress_issue){line, column, message}));
}

static int cmp_issue(const void *a, const void *b) {
  const tt_suppress_issue *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->column < y->column ? -1 : x->column > y->column;
}

/* Suppressions that do no work: an id that is no rule of the book, or a rule that ran
 * and found nothing to silence on the lines the comment covers. A rule that did not
 * run (other language, target or selection) is not reported: its suppression may be
 * needed in another run. */
static void report_unused(const tt_rulebook *book, const tt_selection *sel, tt_lang lang,
                          const tt_suppressions *sup, tt_suppress_issues *is) {
  for (size_t i = 0; i < sup->n_bad; i++)
    add_issue(is, sup->bad[i].line, sup->bad[i].column,
              tt_xstrdup("`tiletrans-ignore` names no rule (write `tiletrans-ignore: RULE_ID`)"));
  for (size_t i = 0; i < sup->n; i++) {
    const tt_suppression *e = &sup->items[i];
    const tt_rule *r = tt_rulebook_find(book, e->id);
    if (!r) {
      const char *near = tt_ruleset_suggest(book, e->id);
      add_issue(is, e->line, e->column,
                near ? tt_xasprintf("`tiletrans-ignore` names `%s`, which is no rule (did you mean `%s`?)", e->id, near)
                     : tt_xasprintf("`tiletrans-ignore` names `%s`, which is no rule", e->id));
    } else if (!e->used && rule_ran(r, sel, lang)) {
      add_issue(is, e->line, e->column,
                tt_xasprintf("`tiletrans-ignore: %s` suppresses nothing: the rule finds nothing here", e->id));
    }
  }
  if (is->n > 1) qsort(is->items, is->n, sizeof *is->items, cmp_issue);
}

/* Moves the suppressed findings of `local` to `suppressed` (dropped when NULL), sorts
 * the rest and moves them to `out`. */
static void deliver(const tt_tree *tree, tt_findings *local, tt_findings *out, tt_suppressions *sup,
                    tt_findings *suppressed) {
  size_t w = 0;
  for (size_t r = 0; r < local->n; r++) {
    tt_suppression *e = tt_suppressions_find(sup, local->items[r].start_pos.line, local->items[r].rule->id);
    if (e) {
      e->used = true;
      if (suppressed) TT_PUSH(suppressed->items, suppressed->n, suppressed->cap, local->items[r]);
      else tt_finding_clear(&local->items[r]);
      continue;
    }
    local->items[w++] = local->items[r];
  }
  local->n = w;
  tt_findings_sort(local);
  tt_findings_move(out, local);
  if (suppressed) tt_findings_sort(suppressed);
}

/* Lowers findings in ranges a classifier capped (code the target does not compile). */
static void apply_caps(const tt_filectx *ctx, tt_findings *local) {
  for (size_t i = 0; i < local->n && ctx->n_caps; i++)
    local->items[i].severity = tt_filectx_capped(ctx, local->items[i].start, local->items[i].severity);
}

void tt_match_tree_ex(const tt_rulebook *book, const tt_selection *sel, const tt_tree *tree, tt_findings *out,
                      tt_match_extra *extra) {
  tt_findings local = {0};
  tt_filectx ctx;
  tt_filectx_init(&ctx, tree);
  if (sel) ctx.target_defines = sel->target_defines, ctx.n_target_defines = sel->n_target_defines;
  ctx.sema = sel ? sel->sema : NULL;
  if (!book->compiled[tree->src->lang]) {
    fprintf(stderr, "tiletrans: internal error: the %s queries of the rulebook were not compiled\n",
            tt_lang_name(tree->src->lang));
    abort();
  }
  run_analyzers(book, sel, &ctx, &local, true);
  run_queryset(&book->by_lang[tree->src->lang], sel, &ctx, &local);
  run_analyzers(book, sel, &ctx, &local, false);
  apply_caps(&ctx, &local);
  tt_filectx_free(&ctx);
  tt_suppressions sup;
  tt_suppressions_scan(tree, &sup);
  deliver(tree, &local, out, &sup, extra ? &extra->suppressed : NULL);
  if (extra) report_unused(book, sel, tree->src->lang, &sup, &extra->issues);
  tt_suppressions_free(&sup);
}

void tt_match_extra_free(tt_match_extra *x) {
  tt_findings_free(&x->suppressed);
  tt_suppress_issues_free(&x->issues);
}

void tt_match_tree(const tt_rulebook *book, const tt_selection *sel, const tt_tree *tree, tt_findings *out) {
  tt_match_tree_ex(book, sel, tree, out, NULL);
}

int tt_match_rule(const tt_rule *rule, const tt_rulebook *facts_from, const tt_tree *tree, tt_findings *out,
                  char **err) {
  tt_findings local = {0};
  tt_filectx ctx;
  tt_filectx_init(&ctx, tree);
  if (facts_from) run_analyzers(facts_from, NULL, &ctx, NULL, true);
  int rc = 0;
  if (rule->analyzer) {
    run_analyzer(rule, rule->severity, &ctx, &local);
  } else {
    tt_queryset qs;
    if (tt_queryset_init_rule(&qs, rule, err) == 0) {
      run_queryset(&qs, NULL, &ctx, &local);
      tt_queryset_free(&qs);
    } else {
      rc = -1;
    }
  }
  apply_caps(&ctx, &local);
  tt_filectx_free(&ctx);
  if (rc < 0) return -1;
  tt_suppressions sup;
  tt_suppressions_scan(tree, &sup);
  deliver(tree, &local, out, &sup, NULL);
  tt_suppressions_free(&sup);
  return 0;
}
