#include "rules/rewrite.h"

#include <stdlib.h>
#include <string.h>

#include "parser/tree.h"
#include "rules/edit.h"
#include "rules/match.h"
#include "util/util.h"

/* Fixes can enable further fixes (a renamed call now matches a mask rule); rounds stop
 * when nothing changes. The bound catches rules whose fixes undo each other. */
#define TT_REWRITE_MAX_ROUNDS 8

/* A first-round fix refused for a conflict may apply in a later round, once the winner's
 * edit is in. Per rule, the fixable findings still unapplied in `later` are the ones
 * left; the other first-round refusals of that rule are marked applied. */
static void settle_statuses(tt_findings *first, const tt_findings *later) {
  for (size_t i = 0; i < first->n; i++) {
    tt_finding *f = &first->items[i];
    if (!f->has_fix || f->fix_status == TT_FIX_APPLIED) continue;
    size_t left = 0, earlier = 0;
    for (size_t k = 0; k < later->n; k++)
      left += later->items[k].rule == f->rule && later->items[k].has_fix &&
              later->items[k].fix_status != TT_FIX_APPLIED;
    for (size_t k = 0; k < i; k++)
      earlier += first->items[k].rule == f->rule && first->items[k].has_fix &&
                 first->items[k].fix_status != TT_FIX_APPLIED;
    if (earlier >= left) f->fix_status = TT_FIX_APPLIED;
  }
}

void tt_rewrite_result_free(tt_rewrite_result *r) {
  free(r->text);
  tt_findings_free(&r->findings);
  memset(r, 0, sizeof *r);
}

int tt_rewrite_text(const tt_rulebook *book, const tt_selection *sel, const char *path, tt_lang lang,
                    const char *text, size_t len, tt_rewrite_result *out, char **err) {
  memset(out, 0, sizeof *out);
  if (!tt_lang_grammar(lang)) {
    *err = tt_xasprintf("%s: no parser for this file's language", path);
    return -1;
  }
  char *cur = tt_xstrndup(text, len);
  size_t cur_len = len;
  out->converged = 1;
  for (int round = 0;; round++) {
    tt_source *src = tt_source_new(path, cur, cur_len, lang);
    if (!src) {
      free(cur);
      *err = tt_xasprintf("%s: file too large", path);
      return -1;
    }
    tt_tree *tree = tt_tree_parse(src);
    tt_findings fs = {0};
    tt_match_tree(book, sel, tree, &fs);
    size_t new_len = 0, errors = 0;
    for (size_t k = 0; k < fs.n; k++) errors += fs.items[k].severity == TT_SEV_ERROR;
    char *next = tt_edits_apply(tree, &fs, &new_len);
    /* Findings are reported in the coordinates of the input, so the first round's are
     * kept; later rounds only tell which of its refused fixes went through after all. */
    if (round == 0) tt_findings_move(&out->findings, &fs);
    else settle_statuses(&out->findings, &fs);
    tt_findings_free(&fs);
    tt_tree_free(tree);
    bool changed = next && (new_len != cur_len || memcmp(next, src->text, new_len) != 0);
    if (!changed || round + 1 == TT_REWRITE_MAX_ROUNDS) {
      out->converged = !changed;
      out->rounds = round + 1;
      out->errors_left = errors;
      if (changed) {
        tt_source_free(src);
        cur = next;
        cur_len = new_len;
      } else {
        free(next);
        src->text = NULL; /* keep cur: it is the result */
        tt_source_free(src);
      }
      break;
    }
    src->text = NULL;
    tt_source_free(src);
    free(cur);
    cur = next;
    cur_len = new_len;
  }
  out->text = cur;
  out->len = cur_len;
  out->changed = cur_len != len || memcmp(cur, text, len) != 0;
  return 0;
}
