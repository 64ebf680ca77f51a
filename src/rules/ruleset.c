#include "rules/ruleset.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Levenshtein distance with one row of memory; ids are short. */
static size_t distance(const char *a, const char *b) {
  size_t n = strlen(b);
  size_t *row = tt_xmalloc((n + 1) * sizeof *row);
  for (size_t j = 0; j <= n; j++) row[j] = j;
  for (size_t i = 1; a[i - 1]; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= n; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  size_t d = row[n];
  free(row);
  return d;
}

const char *tt_ruleset_suggest(const tt_rulebook *book, const char *id) {
  size_t limit = strlen(id) / 3;
  if (limit < 1) limit = 1;
  const char *best = NULL;
  size_t best_d = limit + 1;
  for (size_t i = 0; i < book->n_rules; i++) {
    const char *cand = book->rules[i]->id;
    /* A prefix of an id (`hip-ballot` for `hip-ballot-32bit`) is near whatever the
     * distance: it is what people type. */
    size_t d = strncmp(cand, id, strlen(id)) == 0 ? 1 : distance(id, cand);
    if (d < best_d) best = cand, best_d = d;
  }
  return best;
}

static bool defined_by(const tt_rulebook *book, const char *fact, const bool *keep, const char *target) {
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (r->fact_defined && strcmp(r->fact_defined, fact) == 0 && (!keep || keep[i]) &&
        (!target || strcmp(r->target, target) == 0))
      return true;
  }
  return false;
}

int tt_ruleset_check_facts(const tt_rulebook *book, char **err) {
  tt_buf b = {0};
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    for (size_t k = 0; k < r->n_facts_read; k++)
      if (!defined_by(book, r->facts_read[k].name, NULL, NULL))
        tt_buf_printf(&b, "%s%s:%u:%u: key `query`: `#tt-fact?` names fact `%s`, which no rule of the rulebook "
                          "records (a classifier's `fact:` option)",
                      b.len ? "\n" : "", r->file, r->facts_read[k].line, r->facts_read[k].column, r->facts_read[k].name);
  }
  if (!b.len) return 0;
  *err = tt_buf_steal(&b);
  return -1;
}

static bool matches(const char *pattern, const char *id) { return fnmatch(pattern, id, 0) == 0; }

/* Marks in `hit` the rules matching `pattern`; -1 with *err when none does. */
static int apply(const tt_rulebook *book, const char *flag, const char *pattern, bool *keep, bool value, char **err) {
  bool any = false;
  for (size_t i = 0; i < book->n_rules; i++)
    if (matches(pattern, book->rules[i]->id)) {
      keep[i] = value;
      any = true;
    }
  if (any) return 0;
  const char *near = strpbrk(pattern, "*?[") ? NULL : tt_ruleset_suggest(book, pattern);
  *err = near ? tt_xasprintf("tiletrans: %s `%s` matches no rule (did you mean `%s`?)", flag, pattern, near)
              : tt_xasprintf("tiletrans: %s `%s` matches no rule (`tiletrans rules` lists them)", flag, pattern);
  return -1;
}

/* A kept rule of `target` that reads a fact only removed rules record: an error, for
 * a silently different fix is worse than none. */
static int check_kept(const tt_rulebook *book, const char *target, const bool *keep, char **err) {
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (!keep[i] || (target && strcmp(r->target, target) != 0)) continue;
    for (size_t k = 0; k < r->n_facts_read; k++) {
      const char *fact = r->facts_read[k].name;
      if (defined_by(book, fact, keep, target)) continue;
      for (size_t j = 0; j < book->n_rules; j++) {
        const tt_rule *d = book->rules[j];
        if (!d->fact_defined || strcmp(d->fact_defined, fact) != 0) continue;
        *err = tt_xasprintf("tiletrans: the selection removes `%s`, which records the fact `%s` that `%s` reads; "
                            "select `%s` too, or leave `%s` out",
                            d->id, fact, r->id, d->id, r->id);
        return -1;
      }
    }
  }
  return 0;
}

int tt_ruleset_choose(const tt_rulebook *book, const char *target, const char *const *select, size_t n_select,
                      const char *const *ignore, size_t n_ignore, bool **keep_out, char **err) {
  bool *keep = tt_xcalloc(book->n_rules + 1, sizeof *keep);
  for (size_t i = 0; i < book->n_rules; i++) keep[i] = n_select == 0;
  int rc = 0;
  for (size_t i = 0; i < n_select && rc == 0; i++) rc = apply(book, "--select", select[i], keep, true, err);
  for (size_t i = 0; i < n_ignore && rc == 0; i++) rc = apply(book, "--ignore", ignore[i], keep, false, err);
  if (rc == 0) rc = check_kept(book, target, keep, err);
  if (rc < 0) {
    free(keep);
    return -1;
  }
  *keep_out = keep;
  return 0;
}
