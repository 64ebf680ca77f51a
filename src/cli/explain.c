/* tiletrans explain RULE_ID [--format text|json] — one rule in full: what breaks, where,
 * and how to fix it. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/json_util.h"
#include "rules/ruleset.h"

static void help(FILE *out) {
  fputs("usage: tiletrans explain RULE_ID [--format text|json] [--rules DIR]\n\n"
        "Prints a rule's explanation, examples and references (json: the rule as\n"
        "`tiletrans rules --format json` gives it).\n",
        out);
}

static void print_text(const tt_rule *r) {
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
}

int tt_cmd_explain(int argc, char **argv) {
  static const struct option longopts[] = {{"format", required_argument, 0, 'f'},
                                           {"rules", required_argument, 0, 'r'},
                                           {"help", no_argument, 0, 'h'},
                                           {0, 0, 0, 0}};
  const char *format = "text", *dir = NULL;
  if (tt_cli_check_longopts(argc, argv, longopts) < 0) return TT_EXIT_USAGE;
  optind = 1;
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    if (c == 'h') {
      help(stdout);
      return TT_EXIT_OK;
    }
    if (c == 'f') format = optarg;
    else if (c == 'r') dir = optarg;
    else return TT_EXIT_USAGE;
  }
  if (optind + 1 != argc) {
    help(stderr);
    return TT_EXIT_USAGE;
  }
  if (strcmp(format, "text") && strcmp(format, "json")) {
    fprintf(stderr, "tiletrans: explain --format expects text or json, not `%s`\n", format);
    return TT_EXIT_USAGE;
  }
  const char *id = argv[optind];
  tt_rulebook *book = tt_cli_load_rules(dir ? &dir : NULL, dir ? 1 : 0, NULL, 0);
  if (!book) return TT_EXIT_USAGE;
  const tt_rule *r = tt_rulebook_find(book, id);
  if (!r) {
    const char *near = tt_ruleset_suggest(book, id);
    if (near) fprintf(stderr, "tiletrans: unknown rule `%s` (did you mean `%s`?)\n", id, near);
    else fprintf(stderr, "tiletrans: unknown rule `%s` (`tiletrans rules` lists them)\n", id);
    tt_rulebook_free(book);
    return TT_EXIT_USAGE;
  }
  if (!strcmp(format, "json"))
    tt_json_dump(stdout, json_pack("{s:{s:s, s:s}, s:o}", "tool", "name", "tiletrans", "version", TT_VERSION, "rule",
                                   tt_cli_rule_json(r)));
  else
    print_text(r);
  tt_rulebook_free(book);
  return TT_EXIT_OK;
}
