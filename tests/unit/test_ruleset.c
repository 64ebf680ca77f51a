/* rules/ruleset.h: suggestions, fact checks and --select/--ignore with dependencies. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/ruleset.h"

static tt_rule_fact_ref reads[] = {{"strategy", 3, 5}};
static tt_rule CLASSIFIER = {.id = "hip-strategy", .target = "hip", .file = "c.yaml", .fact_defined = "strategy"};
static tt_rule READER = {.id = "hip-shfl", .target = "hip", .file = "r.yaml", .facts_read = reads, .n_facts_read = 1};
static tt_rule OTHER = {.id = "hip-ballot-32bit", .target = "hip", .file = "o.yaml"};
static tt_rule JULIA = {.id = "julia-index", .target = "julia", .file = "j.yaml", .facts_read = reads, .n_facts_read = 1};
static tt_rule *RULES[] = {&OTHER, &READER, &CLASSIFIER, &JULIA};
static tt_rulebook BOOK = {.rules = RULES, .n_rules = 4};

Test(ruleset, suggests_near_ids_only) {
  cr_expect_str_eq(tt_ruleset_suggest(&BOOK, "hip-balot-32bit"), "hip-ballot-32bit");
  cr_expect_str_eq(tt_ruleset_suggest(&BOOK, "hip-ballot"), "hip-ballot-32bit", "a prefix");
  cr_expect_null(tt_ruleset_suggest(&BOOK, "cuda-everything"));
}

Test(ruleset, an_unrecorded_fact_is_an_error) {
  char *err = NULL;
  cr_expect_eq(tt_ruleset_check_facts(&BOOK, &err), 0);
  tt_rule *alone[] = {&READER};
  tt_rulebook b = {.rules = alone, .n_rules = 1};
  cr_assert_eq(tt_ruleset_check_facts(&b, &err), -1);
  cr_expect(strstr(err, "r.yaml:3:5: key `query`: `#tt-fact?` names fact `strategy`") == err, "%s", err);
  free(err);
}

Test(ruleset, select_and_ignore_keep_dependencies) {
  bool *keep;
  char *err = NULL;
  const char *sel[] = {"hip-*"}, *ign[] = {"hip-strategy"}, *only[] = {"hip-shfl"}, *both[] = {"hip-shfl", "hip-strategy"};
  cr_assert_eq(tt_ruleset_choose(&BOOK, "hip", sel, 1, NULL, 0, &keep, &err), 0, "%s", err);
  cr_expect(keep[0] && keep[1] && keep[2] && !keep[3]);
  free(keep);
  cr_expect_eq(tt_ruleset_choose(&BOOK, "hip", sel, 1, ign, 1, &keep, &err), -1, "removing the classifier");
  cr_expect(strstr(err, "removes `hip-strategy`, which records the fact `strategy` that `hip-shfl` reads") != NULL, "%s", err);
  free(err);
  cr_expect_eq(tt_ruleset_choose(&BOOK, "hip", only, 1, NULL, 0, &keep, &err), -1, "a reader alone");
  free(err);
  cr_assert_eq(tt_ruleset_choose(&BOOK, "hip", both, 2, NULL, 0, &keep, &err), 0, "%s", err);
  cr_expect(!keep[0] && keep[1] && keep[2]);
  free(keep);
  /* The julia rule reads a fact only a hip rule records: out of the hip run, not checked. */
  cr_expect_eq(tt_ruleset_choose(&BOOK, "hip", NULL, 0, ign, 1, &keep, &err), -1);
  free(err);
  const char *typo[] = {"hip-shfll"};
  cr_expect_eq(tt_ruleset_choose(&BOOK, NULL, typo, 1, NULL, 0, &keep, &err), -1);
  cr_expect(strstr(err, "--select `hip-shfll` matches no rule (did you mean `hip-shfl`?)") != NULL, "%s", err);
  free(err);
}
