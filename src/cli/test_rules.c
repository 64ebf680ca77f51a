/* tiletrans test-rules [DIR] — run every rule's examples; CI runs it on the rulebook. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "rules/selftest.h"
#include "util/util.h"

int tt_cmd_test_rules(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: tiletrans test-rules [DIR]\n\nRuns the examples of every rule under DIR (default: the "
           "built-in rulebook).\nExit 1 when any example fails, 2 when a rule file is invalid.\n");
    return TT_EXIT_OK;
  }
  if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
    fprintf(stderr, "usage: tiletrans test-rules [DIR]\n");
    return TT_EXIT_USAGE;
  }
  const char *dir = argc == 2 ? argv[1] : NULL;
  tt_rulebook *book = tt_cli_load_rules(dir ? &dir : NULL, dir ? 1 : 0, NULL, 0);
  if (!book) return TT_EXIT_USAGE;
  size_t passed = 0, failed = 0, examples = 0;
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    tt_buf log = {0};
    int bad = tt_rule_selftest(r, book, &log);
    examples += r->n_examples;
    if (bad) {
      failed++;
      printf("FAIL %s (%d of %zu examples)\n%s", r->id, bad, r->n_examples, log.data ? log.data : "");
    } else {
      passed++;
      printf("PASS %s (%zu examples)\n", r->id, r->n_examples);
    }
    tt_buf_free(&log);
  }
  printf("test-rules: %zu passed, %zu failed (%zu examples)\n", passed, failed, examples);
  tt_rulebook_free(book);
  return failed ? TT_EXIT_FINDINGS : TT_EXIT_OK;
}
