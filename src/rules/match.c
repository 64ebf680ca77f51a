#include "rules/match.h"

#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
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

static void run_queryset(const tt_queryset *qs, const tt_selection *sel, tt_filectx *ctx, tt_findings *out) {
  const tt_tree *tree = ctx->tree;
  if (!qs->query) return;
  TSQueryCursor *cur = ts_query_cursor_new();
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

static bool is_id_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || (c >= 'A' && c <= 'Z') || c == '_'; }

/* Looks for "<comment> tiletrans-ignore: a, b" in the line; when `alone`, the comment
 * must be the only thing on the line. */
static bool line_names(const tt_source *src, uint32_t line, const char *id, bool alone) {
  uint32_t n;
  const char *s = tt_source_line(src, line, &n);
  const char *marker = tt_lang_comment(src->lang);
  size_t mlen = strlen(marker);
  static const char key[] = "tiletrans-ignore:";
  for (uint32_t i = 0; i + mlen <= n; i++) {
    if (memcmp(s + i, marker, mlen) != 0) continue;
    if (alone) {
      for (uint32_t k = 0; k < i; k++)
        if (s[k] != ' ' && s[k] != '\t') return false;
    }
    uint32_t j = i + (uint32_t)mlen;
    while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '/' || s[j] == '*')) j++;
    if (j + sizeof key - 1 > n || memcmp(s + j, key, sizeof key - 1) != 0) {
      if (alone) return false;
      continue;
    }
    j += sizeof key - 1;
    size_t idlen = strlen(id);
    while (j < n) {
      while (j < n && (s[j] == ' ' || s[j] == ',' || s[j] == '\t')) j++;
      uint32_t k = j;
      while (k < n && is_id_char(s[k])) k++;
      if (k == j) break;
      if (k - j == idlen && memcmp(s + j, id, idlen) == 0) return true;
      j = k;
    }
    return false;
  }
  return false;
}

bool tt_suppressed(const tt_source *src, uint32_t line, const char *rule_id) {
  if (line_names(src, line, rule_id, false)) return true;
  return line > 1 && line_names(src, line - 1, rule_id, true);
}

/* Drops the suppressed findings of `local`, sorts the rest and moves them to `out`. */
static void deliver(const tt_source *src, tt_findings *local, tt_findings *out) {
  size_t w = 0;
  for (size_t r = 0; r < local->n; r++) {
    if (tt_suppressed(src, local->items[r].start_pos.line, local->items[r].rule->id)) {
      tt_finding_clear(&local->items[r]);
      continue;
    }
    local->items[w++] = local->items[r];
  }
  local->n = w;
  tt_findings_sort(local);
  tt_findings_move(out, local);
}

void tt_match_tree(const tt_rulebook *book, const tt_selection *sel, const tt_tree *tree, tt_findings *out) {
  tt_findings local = {0};
  tt_filectx ctx;
  tt_filectx_init(&ctx, tree);
  ctx.sema = sel ? sel->sema : NULL;
  run_analyzers(book, sel, &ctx, &local, true);
  run_queryset(&book->by_lang[tree->src->lang], sel, &ctx, &local);
  run_analyzers(book, sel, &ctx, &local, false);
  tt_filectx_free(&ctx);
  deliver(tree->src, &local, out);
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
  tt_filectx_free(&ctx);
  if (rc < 0) return -1;
  deliver(tree->src, &local, out);
  return 0;
}
