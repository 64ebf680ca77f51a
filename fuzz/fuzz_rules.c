/* fuzz_rules — libFuzzer entry point that lints and rewrites one input with the whole
 * rulebook.
 *
 * The input is a source text; its first byte picks the language (mostly CUDA, where
 * the rules are). Each run parses it, matches every rule, applies the fixes to a
 * fixpoint (tt_rewrite_text) and checks what must hold whatever the input: findings
 * lie inside the text, a rewrite that converged is idempotent when run again, and a
 * run that fixed nothing returns the input unchanged. A violation aborts, so libFuzzer
 * keeps the input. Hangs and super-linear inputs show up as libFuzzer timeouts.
 *
 * The rulebook is loaded once, from TILETRANS_RULES_DIR or the source tree's rules/. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/tree.h"
#include "rules/match.h"
#include "rules/rewrite.h"
#include "rules/rulebook.h"
#include "util/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static tt_rulebook *book; /* loaded once, read-only afterwards */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  const char *dir = getenv("TILETRANS_RULES_DIR");
  if (!dir || !*dir) dir = TT_DEFAULT_RULES_DIR;
  char *err = NULL;
  book = tt_rulebook_load(&dir, 1, &err);
  if (!book) {
    fprintf(stderr, "fuzz_rules: cannot load the rulebook: %s\n", err);
    abort();
  }
  return 0;
}

static tt_lang pick_lang(uint8_t b) {
  switch (b % 8) {
  case 6: return TT_LANG_PYTHON;
  case 7: return TT_LANG_JULIA;
  default: return TT_LANG_CUDA;
  }
}

static void check(bool ok, const char *what) {
  if (ok) return;
  fprintf(stderr, "fuzz_rules: invariant broken: %s\n", what);
  abort();
}

static void lint_once(tt_lang lang, const char *text, size_t len) {
  tt_source *src = tt_source_new("fuzz.in", tt_xstrndup(text, len), len, lang);
  tt_tree *tree = tt_tree_parse(src);
  tt_findings fs = {0};
  tt_match_tree(book, NULL, tree, &fs);
  for (size_t i = 0; i < fs.n; i++) {
    const tt_finding *f = &fs.items[i];
    check(f->start <= f->end && f->end <= len, "a finding's range lies inside the text");
    for (size_t k = 0; k < f->n_edits; k++)
      check(f->edits[k].start <= f->edits[k].end && f->edits[k].end <= len, "an edit lies inside the text");
  }
  tt_findings_free(&fs);
  tt_tree_free(tree);
  tt_source_free(src);
}

/* `out` is `in` with zero or more `/+ tiletrans-ignore: ... -- left unported: ... +/ `
 * markers (+ for *) inserted, and nothing else changed (rewrite.h). Linear: each marker
 * is skipped once. */
static bool same_but_markers(const char *in, size_t n, const char *out, size_t m) {
  static const char open[] = "/* tiletrans-ignore: ", close[] = " */ ";
  size_t i = 0, j = 0;
  while (j < m) {
    if (i < n && in[i] == out[j]) { /* prefer the original's byte; a marker never starts a match of it */
      size_t k = sizeof open - 1;
      if (!(m - j >= k && !memcmp(out + j, open, k) && (n - i < k || memcmp(in + i, open, k)))) {
        i++, j++;
        continue;
      }
    }
    size_t k = sizeof open - 1;
    if (m - j < k || memcmp(out + j, open, k)) return false;
    const char *end = memmem(out + j + k, m - j - k, close, sizeof close - 1);
    if (!end) return false;
    j = (size_t)(end - out) + sizeof close - 1;
  }
  return i == n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  tt_lang lang = pick_lang(data[0]);
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  lint_once(lang, text, len);

  tt_rewrite_result r;
  char *err = NULL;
  check(tt_rewrite_text(book, NULL, "fuzz.in", lang, text, len, &r, &err) == 0, "rewrite accepts any text");
  bool applied = false;
  for (size_t i = 0; i < r.findings.n; i++) applied |= r.findings.items[i].fix_status == TT_FIX_APPLIED;
  if (!applied && r.changed)
    check(same_but_markers(text, len, r.text, r.len),
          "a rewrite that applied no fix leaves the text as it was, but for its unported-construct markers");
  if (r.converged && r.changed && getenv("TT_FUZZ_IDEMPOTENT")) {
    tt_rewrite_result again;
    check(tt_rewrite_text(book, NULL, "fuzz.in", lang, r.text, r.len, &again, &err) == 0, "rewrite of a rewrite");
    check(!again.changed, "a converged rewrite is idempotent");
    tt_rewrite_result_free(&again);
  }
  tt_rewrite_result_free(&r);
  return 0;
}
