/* The literal prefilter (rules/prefilter.h) that decides which rules' queries a lint
 * run compiles: it must never rule out a text a rule matches (every `match:` example
 * of the rulebook passes it, and each one the rule finds something in is also found
 * with a rulebook compiled for that example only), and it must rule out texts without
 * the literals a query requires. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/match.h"
#include "rules/prefilter.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/util.h"

static bool may(const char *query, const char *text) {
  tt_prefilter *p = tt_prefilter_new(query);
  tt_prefilter_text t;
  tt_prefilter_text_init(&t, text, strlen(text));
  bool r = tt_prefilter_may_match(p, &t);
  tt_prefilter_text_free(&t);
  tt_prefilter_free(p);
  return r;
}

static size_t groups(const char *query) {
  tt_prefilter *p = tt_prefilter_new(query);
  size_t n = tt_prefilter_n_groups(p);
  tt_prefilter_free(p);
  return n;
}

Test(prefilter, eq_and_any_of_on_a_certain_capture) {
  const char *q = "((call_expression function: (identifier) @f) @c (#eq? @f \"__shfl_sync\"))";
  cr_expect(may(q, "x = __shfl_sync(m, v, 0);"));
  cr_expect_not(may(q, "x = __shfl(v, 0);"));
  q = "((identifier) @f (#any-of? @f \"warpSize\" \"WARP_SIZE\"))";
  cr_expect(may(q, "int n = WARP_SIZE;"));
  cr_expect_not(may(q, "int n = 32;"));
}

Test(prefilter, optional_or_alternative_captures_require_nothing) {
  /* A predicate on a capture absent from a match holds: no literal is required. */
  cr_expect_null(tt_prefilter_new("((call_expression function: (identifier)? @f) @c (#eq? @f \"g\"))"));
  cr_expect_null(tt_prefilter_new("([(identifier) @f (number_literal) @n] @x (#eq? @f \"g\"))"));
  cr_expect_null(tt_prefilter_new("((call_expression arguments: (argument_list (identifier)* @a)) @c (#eq? @a \"g\"))"));
  /* Negated predicates and predicates tiletrans evaluates itself require nothing. */
  cr_expect_null(tt_prefilter_new("((identifier) @f (#not-eq? @f \"g\"))"));
  cr_expect_null(tt_prefilter_new("((number_literal) @n (#tt-int-eq? @n 32))"));
}

Test(prefilter, every_pattern_must_require_something) {
  const char *q = "((identifier) @a (#eq? @a \"foo\"))\n((number_literal) @n)";
  cr_expect_null(tt_prefilter_new(q));
  q = "((identifier) @a (#eq? @a \"foo\"))\n((identifier) @b (#eq? @b \"bar\"))";
  cr_expect(may(q, "bar + 1"));
  cr_expect_not(may(q, "baz + 1"));
}

Test(prefilter, regex_literals) {
  const char *q = "((identifier) @a (#match? @a \"^(threadIdx\\\\.[xyz]|tid|lane_?id)$\"))";
  cr_expect_eq(groups(q), 1);
  cr_expect(may(q, "int t = tid;"));
  cr_expect(may(q, "int t = threadIdx.x;"));
  cr_expect(may(q, "int t = laneid;")); /* `_?` is optional: "lane" is what is required */
  cr_expect_not(may(q, "int t = blockIdx.x;"));
  /* A group that is always there gives its alternatives. */
  q = "((preproc_include path: (_) @p) (#match? @p \"^[<\\\"](cuda_bf16\\\\.h|math_constants\\\\.h)[>\\\"]$\"))";
  cr_expect(may(q, "#include <math_constants.h>"));
  cr_expect_not(may(q, "#include <cuda_runtime.h>"));
  /* Caseless regexes search the lowered text. */
  q = "((identifier) @a (#match? @a \"(?i)mask\"))";
  cr_expect(may(q, "unsigned FULL_MASK = 1;"));
  cr_expect_not(may(q, "unsigned full = 1;"));
  /* Classes only, or an escape the reader does not know: nothing required. */
  cr_expect_null(tt_prefilter_new("((identifier) @a (#match? @a \"^[a-z]+$\"))"));
  cr_expect_null(tt_prefilter_new("((identifier) @a (#match? @a \"\\\\x41bc\"))"));
  /* `x+` requires one x; `x*` and `x{0,2}` none. */
  cr_expect(may("((identifier) @a (#match? @a \"ab+c\"))", "abbbc"));
  cr_expect(may("((identifier) @a (#match? @a \"abz*c\"))", "abc"));
  cr_expect(may("((identifier) @a (#match? @a \"abz{0,2}c\"))", "abc"));
}

Test(prefilter, file_match_regex_is_required_of_the_file) {
  const char *q = "((translation_unit . (_) @first) (#tt-file-match? @first \"__global__|__device__\"))";
  cr_expect(may(q, "__device__ int f();"));
  cr_expect_not(may(q, "int f();"));
}

/* Every `match:` example of every query rule of the rulebook passes its rule's
 * prefilter, and a book compiled for that example alone finds what the full book
 * finds in it (the prefilter is sound on the rulebook's own examples). */
Test(prefilter, rulebook_examples_pass, .timeout = 600) {
  const char *dir = TT_SOURCE_DIR "/rules";
  char *err = NULL;
  tt_rulebook *full = tt_rulebook_load(&dir, 1, &err);
  cr_assert(full, "%s", err ? err : "");
  size_t checked = 0;
  for (size_t i = 0; i < full->n_rules; i++) {
    const tt_rule *r = full->rules[i];
    if (!r->query_text) continue;
    for (size_t e = 0; e < r->n_examples; e++) {
      const tt_rule_example *ex = &r->examples[e];
      if (!ex->must_match) continue;
      tt_prefilter_text t;
      tt_prefilter_text_init(&t, ex->code, strlen(ex->code));
      cr_expect(tt_prefilter_may_match(r->prefilter, &t), "%s: example at line %u is ruled out by the prefilter", r->id,
                ex->line);
      tt_prefilter_text_free(&t);
      checked++;
    }
  }
  cr_expect_gt(checked, 50u, "the rulebook's query rules have match examples");
  tt_rulebook_free(full);
}

/* On every example of the rulebook (match and no_match), each query rule the whole
 * book finds something with is one the prefilter marks as needed for the example's
 * text: a lint compiled for that text alone finds the same. */
Test(prefilter, needed_rules_cover_every_finding, .timeout = 600) {
  const char *dir = TT_SOURCE_DIR "/rules";
  char *err = NULL;
  tt_rulebook *full = tt_rulebook_load(&dir, 1, &err);
  cr_assert(full, "%s", err ? err : "");
  size_t compared = 0;
  bool *needed = tt_xcalloc(full->n_rules + 1, sizeof *needed);
  for (size_t i = 0; i < full->n_rules; i++) {
    const tt_rule *r = full->rules[i];
    for (size_t e = 0; r->query_text && e < r->n_examples; e++) {
      const char *code = r->examples[e].code;
      memset(needed, 0, full->n_rules * sizeof *needed);
      tt_rulebook_mark_needed(full, NULL, r->language, code, strlen(code), needed);
      tt_source *src = tts_source(r->language == TT_LANG_JULIA ? "x.jl" : "x.cu", code, r->language);
      tt_tree *tree = tt_tree_parse(src);
      tt_findings fs = {0};
      tt_match_tree(full, NULL, tree, &fs);
      for (size_t k = 0; k < fs.n; k++) {
        const tt_rule *hit = fs.items[k].rule;
        if (!hit->query_text) continue;
        size_t at = 0;
        while (at < full->n_rules && full->rules[at] != hit) at++;
        cr_expect(at < full->n_rules && needed[at], "%s example at line %u: %s finds something but is ruled out",
                  r->id, r->examples[e].line, hit->id);
        compared++;
      }
      tt_findings_free(&fs);
      tt_tree_free(tree);
      tt_source_free(src);
    }
  }
  free(needed);
  cr_expect_gt(compared, 50u, "the examples have findings to compare");
  tt_rulebook_free(full);
}
