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

/* A pattern that requires no literal may match any text. */
static bool requires_nothing(const char *query) {
  tt_prefilter *p = tt_prefilter_new(query);
  bool r = p && tt_prefilter_n_patterns(p) == 1 && tt_prefilter_n_groups(p) == 0 && may(query, "");
  tt_prefilter_free(p);
  return r;
}

Test(prefilter, optional_or_alternative_captures_require_nothing) {
  /* A predicate on a capture absent from a match holds: no literal is required. */
  cr_expect(requires_nothing("((call_expression function: (identifier)? @f) @c (#eq? @f \"g\"))"));
  cr_expect(requires_nothing("([(identifier) @f (number_literal) @n] @x (#eq? @f \"g\"))"));
  cr_expect(requires_nothing("((call_expression arguments: (argument_list (identifier)* @a)) @c (#eq? @a \"g\"))"));
  /* Negated predicates and predicates tiletrans evaluates itself require nothing. */
  cr_expect(requires_nothing("((identifier) @f (#not-eq? @f \"g\"))"));
  cr_expect(requires_nothing("((number_literal) @n (#tt-int-eq? @n 32))"));
  /* A query the reader cannot split has no prefilter: it may match anything. */
  cr_expect_null(tt_prefilter_new("((identifier) @f"));
  cr_expect(may("((identifier) @f", ""));
}

Test(prefilter, each_pattern_on_its_own) {
  const char *q = "((identifier) @a (#eq? @a \"foo\"))\n; between\n((number_literal) @n)";
  tt_prefilter *p = tt_prefilter_new(q);
  cr_assert_not_null(p);
  cr_assert_eq(tt_prefilter_n_patterns(p), 2);
  tt_prefilter_text t;
  tt_prefilter_text_init(&t, "bar + 1", 7);
  cr_expect_not(tt_prefilter_pattern_may_match(p, 0, &t));
  cr_expect(tt_prefilter_pattern_may_match(p, 1, &t));
  cr_expect(tt_prefilter_may_match(p, &t));
  tt_prefilter_text_free(&t);
  uint32_t s, e;
  tt_prefilter_pattern_span(p, 0, &s, &e);
  /* As tree-sitter's pattern extents: the space and comments after a pattern are its. */
  cr_expect_eq(e - s, strlen("((identifier) @a (#eq? @a \"foo\"))\n; between\n"));
  cr_expect_eq(strncmp(q + s, "((identifier) @a (#eq? @a \"foo\"))", strlen("((identifier) @a (#eq? @a \"foo\"))")), 0);
  tt_prefilter_pattern_span(p, 1, &s, &e);
  cr_expect_eq(e, strlen(q));
  cr_expect_str_eq(q + s, "((number_literal) @n)");
  tt_prefilter_free(p);
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
  cr_expect(requires_nothing("((identifier) @a (#match? @a \"^[a-z]+$\"))"));
  cr_expect(requires_nothing("((identifier) @a (#match? @a \"\\\\x41bc\"))"));
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
  tt_rulebook *full = tts_rulebook(true);
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

/* What a book finds in `code`, one "rule-id start end" line per finding. */
static char *findings_of(const tt_rulebook *book, tt_lang lang, const char *code) {
  tt_source *src = tts_source(lang == TT_LANG_JULIA ? "x.jl" : lang == TT_LANG_PYTHON ? "x.py" : "x.cu", code, lang);
  tt_tree *tree = tt_tree_parse(src);
  tt_findings fs = {0};
  tt_match_tree(book, NULL, tree, &fs);
  tt_buf b = {0};
  for (size_t k = 0; k < fs.n; k++)
    if (fs.items[k].rule->query_text)
      tt_buf_printf(&b, "%s %u %u\n", fs.items[k].rule->id, fs.items[k].start, fs.items[k].end);
  tt_findings_free(&fs);
  tt_tree_free(tree);
  tt_source_free(src);
  return tt_buf_steal(&b);
}

/* On every example of the rulebook (match and no_match), a book that compiled only the
 * patterns the prefilter marks for the example's text finds exactly what the whole
 * book finds in it. */
Test(prefilter, needed_patterns_find_what_the_whole_book_finds, .timeout = 900) {
  tt_rulebook *full = tts_rulebook(true);
  size_t compared = 0, fewer = 0;
  for (size_t i = 0; i < full->n_rules; i++) {
    const tt_rule *r = full->rules[i];
    for (size_t e = 0; r->query_text && e < r->n_examples; e++) {
      const char *code = r->examples[e].code;
      tt_rulebook *part = tts_rulebook(false);
      char *err = NULL;
      tt_needed *needed = tt_needed_new(part);
      tt_rulebook_mark_needed(part, NULL, r->language, code, strlen(code), needed);
      cr_assert_eq(tt_rulebook_compile(part, r->language, needed, &err), 0, "%s", err ? err : "");
      fewer += part->by_lang[r->language].n_patterns < full->by_lang[r->language].n_patterns;
      char *want = findings_of(full, r->language, code), *got = findings_of(part, r->language, code);
      cr_expect_str_eq(got, want, "%s example at line %u: the prefiltered book finds\n%s\nthe whole book\n%s", r->id,
                       r->examples[e].line, got, want);
      compared += *want != 0;
      free(want);
      free(got);
      tt_needed_free(needed);
      tt_rulebook_free(part);
    }
  }
  cr_expect_gt(compared, 50u, "the examples have findings to compare");
  cr_expect_gt(fewer, 50u, "the prefilter leaves patterns out");
  tt_rulebook_free(full);
}

/* The reader splits every query of the rulebook where tree-sitter does: as many
 * patterns, each starting where tree-sitter's starts (a span cut out compiles as that
 * pattern). */
Test(prefilter, patterns_are_tree_sitters_patterns, .timeout = 600) {
  tt_rulebook *book = tts_rulebook(false);
  char *err = NULL;
  size_t split = 0;
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (!r->query_text) continue;
    cr_expect_not_null(r->prefilter, "%s: the prefilter reader could not split its query", r->id);
    if (!r->prefilter) continue;
    tt_queryset qs;
    cr_assert_eq(tt_queryset_init_rule(&qs, r, &err), 0, "%s", err ? err : "");
    cr_expect_eq(tt_prefilter_n_patterns(r->prefilter), qs.n_patterns, "%s: %zu patterns read, tree-sitter has %u", r->id,
                 tt_prefilter_n_patterns(r->prefilter), qs.n_patterns);
    for (uint32_t k = 0; k < qs.n_patterns && k < tt_prefilter_n_patterns(r->prefilter); k++) {
      uint32_t start, end;
      tt_prefilter_pattern_span(r->prefilter, k, &start, &end);
      cr_expect_eq(start, ts_query_start_byte_for_pattern(qs.query, k), "%s: pattern %u", r->id, k);
      cr_expect_eq(end, ts_query_end_byte_for_pattern(qs.query, k), "%s: pattern %u", r->id, k);
    }
    tt_queryset_free(&qs);
    split++;
  }
  cr_expect_gt(split, 50u);
  tt_rulebook_free(book);
}
