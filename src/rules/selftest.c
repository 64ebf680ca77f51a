#include "rules/selftest.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "rules/match.h"
#include "rules/rewrite.h"

static size_t count_findings(const tt_rule *rule, const tt_rulebook *book, const char *code, tt_buf *log,
                             uint32_t line) {
  tt_source *src = tt_source_new(rule->file, tt_xstrdup(code), strlen(code), rule->language);
  tt_tree *tree = tt_tree_parse(src);
  tt_findings fs = {0};
  char *err = NULL;
  if (tt_match_rule(rule, book, tree, &fs, &err) < 0) {
    tt_buf_printf(log, "  %s:%u: %s\n", rule->file, line, err);
    free(err);
  }
  size_t n = fs.n;
  tt_findings_free(&fs);
  tt_tree_free(tree);
  tt_source_free(src);
  return n;
}

/* Applies the rule's fixes alone; returns the text (malloc'd) or NULL. */
static char *fix_alone(const tt_rulebook *one, const tt_rule *rule, const char *code, size_t *len) {
  tt_rewrite_result r;
  char *err = NULL;
  if (tt_rewrite_text(one, NULL, rule->file, rule->language, code, strlen(code), &r, &err) < 0) {
    free(err);
    return NULL;
  }
  char *text = r.text;
  *len = r.len;
  r.text = NULL;
  tt_rewrite_result_free(&r);
  return text;
}

static int check_fixed(const tt_rule *rule, const tt_rulebook *book, const tt_rule_example *x, tt_buf *log) {
  char *err = NULL;
  tt_rulebook *one = tt_rulebook_of_rule(rule, book, &err);
  if (!one) {
    tt_buf_printf(log, "  %s:%u: %s\n", rule->file, x->line, err);
    free(err);
    return 1;
  }
  int failed = 0;
  size_t len = 0, len2 = 0;
  char *got = fix_alone(one, rule, x->code, &len);
  if (!got || len != strlen(x->fixed) || memcmp(got, x->fixed, len) != 0) {
    tt_buf_printf(log, "  %s:%u: the fix does not give `fixed`:\n", rule->file, x->line);
    FILE *mem = open_memstream(&err, &len2);
    tt_diff_unified(mem, "expected", "got", x->fixed, strlen(x->fixed), got ? got : "", got ? len : 0);
    fclose(mem);
    tt_buf_puts(log, err);
    free(err);
    failed = 1;
  } else {
    char *again = fix_alone(one, rule, got, &len2);
    if (!again || len2 != len || memcmp(again, got, len) != 0) {
      tt_buf_printf(log, "  %s:%u: rewriting `fixed` again changes it (the fix is not idempotent)\n", rule->file,
                    x->line);
      failed = 1;
    }
    free(again);
  }
  free(got);
  tt_rulebook_free(one);
  return failed;
}

int tt_rule_selftest(const tt_rule *rule, const tt_rulebook *book, tt_buf *log) {
  int failed = 0;
  for (size_t i = 0; i < rule->n_examples; i++) {
    const tt_rule_example *x = &rule->examples[i];
    size_t n = count_findings(rule, book, x->code, log, x->line);
    if (x->must_match && (n == 0 || (x->count >= 0 && n != (size_t)x->count))) {
      if (x->count >= 0)
        tt_buf_printf(log, "  %s:%u: expected %d finding%s, got %zu\n", rule->file, x->line, x->count,
                      x->count == 1 ? "" : "s", n);
      else
        tt_buf_printf(log, "  %s:%u: expected a finding, got none\n", rule->file, x->line);
      failed++;
      continue;
    }
    if (!x->must_match && n != 0) {
      tt_buf_printf(log, "  %s:%u: expected no finding, got %zu\n", rule->file, x->line, n);
      failed++;
      continue;
    }
    if (x->fixed) failed += check_fixed(rule, book, x, log);
  }
  return failed;
}
