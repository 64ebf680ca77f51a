/* tiletrans explain RULE_ID — one rule in full: what breaks, where, and how to fix it. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"

int tt_cmd_explain(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: tiletrans explain RULE_ID\n\nPrints a rule's explanation, examples and references.\n");
    return TT_EXIT_OK;
  }
  if (argc != 2 || argv[1][0] == '-') {
    fprintf(stderr, "usage: tiletrans explain RULE_ID\n");
    return TT_EXIT_USAGE;
  }
  tt_rulebook *book = tt_cli_load_rules(NULL, 0, NULL, 0);
  if (!book) return TT_EXIT_USAGE;
  const tt_rule *r = tt_rulebook_find(book, argv[1]);
  if (!r) {
    fprintf(stderr, "tiletrans: unknown rule `%s` (`tiletrans rules` lists them)\n", argv[1]);
    tt_rulebook_free(book);
    return TT_EXIT_USAGE;
  }
  printf("%s: %s\n\ntarget %s, language %s, category %s, severity %s%s\n\n%s", r->id, r->summary, r->target,
         tt_lang_name(r->language), tt_category_name(r->category), tt_severity_name(r->severity),
         r->has_fix ? ", automatic fix" : ", no automatic fix", r->explain);
  for (size_t i = 0; i < r->n_examples; i++) {
    const tt_rule_example *x = &r->examples[i];
    printf("\n%s:\n%s", x->must_match ? "Flagged" : "Not flagged", x->code);
    if (x->fixed) printf("After the fix:\n%s", x->fixed);
  }
  if (r->n_references) printf("\nReferences:\n");
  for (size_t i = 0; i < r->n_references; i++) printf("  %s\n", r->references[i]);
  tt_rulebook_free(book);
  return TT_EXIT_OK;
}
