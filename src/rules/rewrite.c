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
  tt_findings_free(&r->suppressed);
  memset(r, 0, sizeof *r);
}

/* Whether `f` is a construct no rule can port: category `unsupported`, no fix. */
static bool unported(const tt_finding *f) {
  return f->rule->category == TT_CAT_UNSUPPORTED && !f->has_fix;
}

/* The marker of an unported construct: a block comment that names its rule, so that lint
 * of the port reports the finding as suppressed (counted and listed) instead of failing
 * a pre-commit hook on every port, and that anyone can grep for. The rule's summary says
 * why; a `*` `/` pair in it would end the comment early, so it is broken up. */
static void put_marker(tt_buf *b, const tt_rule *r) {
  tt_buf_puts(b, "/* tiletrans-ignore: ");
  tt_buf_puts(b, r->id);
  tt_buf_puts(b, " -- left unported: ");
  for (const char *c = r->summary ? r->summary : ""; *c; c++) {
    if (*c == '\n') break;
    tt_buf_putc(b, *c);
    if (c[0] == '*' && c[1] == '/') tt_buf_putc(b, ' ');
  }
  tt_buf_puts(b, " */ ");
}

/* `text` with a marker before each unported finding of `fs` (sorted, in the coordinates
 * of `text`): one per rule and line, since a suppression covers its whole line. Returns
 * NULL when there is none. Linear in the text plus the findings. */
static char *mark_unported(const char *text, size_t len, const tt_findings *fs, size_t *new_len) {
  tt_buf b = {0};
  size_t at = 0, marked = 0;
  for (size_t i = 0; i < fs->n; i++) {
    const tt_finding *f = &fs->items[i];
    if (!unported(f) || f->start > len) continue;
    bool seen = false;
    for (size_t k = i; k-- > 0 && fs->items[k].start_pos.line == f->start_pos.line;)
      seen |= unported(&fs->items[k]) && fs->items[k].rule == f->rule;
    if (seen) continue;
    tt_buf_append(&b, text + at, f->start - at);
    put_marker(&b, f->rule);
    at = f->start;
    marked++;
  }
  if (!marked) {
    tt_buf_free(&b);
    return NULL;
  }
  tt_buf_append(&b, text + at, len - at);
  *new_len = b.len;
  return b.data;
}

/* Error findings that tiletrans-ignore comments silence but no fix can remove
 * (unsupported constructs, marked by an earlier rewrite or by hand): the port is not
 * complete, so they keep rewrite's exit status at 1. */
static size_t unported_errors(const tt_findings *suppressed) {
  size_t n = 0;
  for (size_t k = 0; k < suppressed->n; k++)
    n += unported(&suppressed->items[k]) && suppressed->items[k].severity == TT_SEV_ERROR;
  return n;
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
    tt_match_extra extra = {0};
    tt_match_tree_ex(book, sel, tree, &fs, &extra);
    size_t new_len = 0, errors = 0;
    for (size_t k = 0; k < fs.n; k++) errors += fs.items[k].severity == TT_SEV_ERROR;
    char *next = tt_edits_apply(tree, &fs, &new_len);
    /* Findings are reported in the coordinates of the input, so the first round's are
     * kept; later rounds only tell which of its refused fixes went through after all. */
    if (round == 0) tt_findings_move(&out->findings, &fs), tt_findings_move(&out->suppressed, &extra.suppressed);
    else settle_statuses(&out->findings, &fs), out->findings.incomplete |= fs.incomplete;
    size_t silenced = unported_errors(round == 0 ? &out->suppressed : &extra.suppressed);
    bool changed = next && (new_len != cur_len || memcmp(next, src->text, new_len) != 0), marked = false;
    if (!changed) {
      /* The fixpoint: what is left unported gets its marker (these findings are of this
       * very text). A second rewrite finds them suppressed and adds nothing. */
      size_t marked_len = 0;
      char *with = mark_unported(src->text, cur_len, round == 0 ? &out->findings : &fs, &marked_len);
      if (with) free(next), next = with, new_len = marked_len, changed = marked = true;
    }
    tt_findings_free(&fs);
    tt_match_extra_free(&extra);
    tt_tree_free(tree);
    if (!changed || marked || round + 1 == TT_REWRITE_MAX_ROUNDS) {
      out->converged = !changed || marked;
      out->rounds = round + 1;
      out->errors_left = errors + silenced;
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
