/* The rulebook compiles each language's queries together; errors still name the rule
 * file, line, column and key; patterns map back to their rules. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/match.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/fs.h"
#include "util/util.h"

static const char *RULE_FMT = "id: %s\ntarget: hip\nlanguage: cuda\ncategory: numeric\nseverity: note\n"
                              "summary: s\nmessage: \"{{%s}}\"\nexplain: e\nquery: |\n  %s\n"
                              "examples:\n  - match: \"int x = f(1);\"\n";

static void write_rule(const char *dir, const char *id, const char *cap, const char *query) {
  char *path = tt_xasprintf("%s/%s.yaml", dir, id);
  char *text = tt_xasprintf(RULE_FMT, id, cap, query);
  tts_write(path, text);
  free(path);
  free(text);
}

static tt_rulebook *load(const char *dir, char **err) {
  *err = NULL;
  return tt_rulebook_load(&dir, 1, err);
}

Test(rulebook, patterns_map_to_their_rules) {
  char *dir = tts_tmpdir();
  write_rule(dir, "a-numbers", "n", "((number_literal) @n (#eq? @n \"1\"))");
  write_rule(dir, "b-calls", "c", "((call_expression function: (identifier) @c))\n  ((identifier) @c (#eq? @c \"g\"))");
  write_rule(dir, "c-names", "x", "((identifier) @x (#eq? @x \"x\"))");
  char *err;
  tt_rulebook *book = load(dir, &err);
  cr_assert_not_null(book, "%s", err);
  cr_expect_eq(book->by_lang[TT_LANG_CUDA].n_patterns, 4);
  tt_source *s = tts_source("k.cu", "int x = f(1); int y = g;\n", TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  tt_findings fs = {0};
  tt_match_tree(book, NULL, t, &fs);
  const char *want[][2] = {{"c-names", "x"}, {"b-calls", "f"}, {"a-numbers", "1"}, {"b-calls", "g"}};
  cr_assert_eq(fs.n, 4);
  for (size_t i = 0; i < 4; i++) {
    cr_expect_str_eq(fs.items[i].rule->id, want[i][0]);
    cr_expect_str_eq(fs.items[i].message, want[i][1]);
  }
  tt_findings_free(&fs);
  tt_tree_free(t);
  tt_source_free(s);
  tt_rulebook_free(book);
  tts_rmrf(dir);
  free(dir);
}

Test(rulebook, query_errors_name_the_rule_file) {
  char *dir = tts_tmpdir();
  write_rule(dir, "good", "n", "((number_literal) @n)");
  write_rule(dir, "typo", "n", "((number_litteral) @n)");
  write_rule(dir, "loose", "n", "((number_literal) @n)\n  (#eq? @n \"1\")");
  char *err;
  cr_assert_null(load(dir, &err));
  cr_assert_not_null(err);
  cr_expect(strstr(err, "/typo.yaml:10:5: key `query`: unknown node type at `number_litteral`"), "%s", err);
  cr_expect(strstr(err, "/loose.yaml:11:3: key `query`: pattern 2 captures nothing"), "%s", err);
  cr_expect(strstr(err, "good.yaml") == NULL, "%s", err);
  free(err);
  tts_rmrf(dir);
  free(dir);
}

Test(rulebook, templates_are_checked_without_compiling) {
  char *dir = tts_tmpdir();
  write_rule(dir, "bad-template", "nope", "((number_literal) @n)");
  char *err;
  cr_assert_null(load(dir, &err));
  cr_expect(strstr(err, "template names `{{nope}}`"), "%s", err);
  free(err);
  tts_rmrf(dir);
  free(dir);
}

static void collect_define(void *ud, const char *name, const char *value) {
  char **acc = ud;
  char *next = tt_xasprintf("%s%s=%s;", *acc ? *acc : "", name, value ? value : "");
  free(*acc);
  *acc = next;
}

Test(rulebook, target_defines_come_from_the_analyzers_options) {
  /* What a build of the port must define: the macros under which the branches
   * analyzer read the target's side of each #if, from the rule file only. */
  char *dir = tts_tmpdir();
  char *path = tt_xasprintf("%s/branches.yaml", dir);
  tts_write(path, "id: branches\ntarget: hip\nlanguage: cuda\ncategory: warp-size\nseverity: note\n"
                  "summary: s\nmessage: m\nexplain: e\nanalyzer: preprocessor-branches\n"
                  "options:\n  fact: hip-branch\n  target_defines: {MY_HIP_BUILD: \"\", MY_LEVEL: \"2\"}\n"
                  "examples:\n  - match: \"#ifdef MY_HIP_BUILD\\nint x;\\n#else\\nint y;\\n#endif\\n\"\n    count: 1\n");
  write_rule(dir, "a-numbers", "n", "((number_literal) @n (#eq? @n \"1\"))");
  char *err;
  tt_rulebook *book = load(dir, &err);
  cr_assert_not_null(book, "%s", err);
  char *hip = NULL, *julia = NULL;
  tt_rulebook_target_defines(book, "hip", collect_define, &hip);
  tt_rulebook_target_defines(book, "julia", collect_define, &julia);
  cr_assert_not_null(hip);
  cr_expect(strstr(hip, "MY_HIP_BUILD=;"), "%s", hip);
  cr_expect(strstr(hip, "MY_LEVEL=2;"), "%s", hip);
  cr_expect_null(julia, "no rule of that target defines anything: %s", julia);
  free(hip);
  tt_rulebook_free(book);
  free(path);
  free(dir);
}

Test(rulebook, load_for_reads_only_the_head_of_other_languages_rules) {
  /* A run over .cu files needs every rule's id (--select, overrides, suppressions) but
   * only the cuda rules whole; a julia rule broken past its head is not its concern. */
  char *dir = tts_tmpdir();
  write_rule(dir, "a-numbers", "n", "((number_literal) @n (#eq? @n \"1\"))");
  char *jl = tt_xasprintf("%s/jl.yaml", dir);
  tts_write(jl, "id: jl-broken\ntarget: julia\nlanguage: julia\ncategory: numeric\nseverity: nonsense\n");
  bool cuda_only[TT_LANG_COUNT] = {[TT_LANG_CUDA] = true};
  char *err = NULL;
  tt_rulebook *book = tt_rulebook_load_for((const char *const *)&dir, 1, cuda_only, &err);
  cr_assert_not_null(book, "%s", err);
  cr_assert_eq(book->n_rules, 2);
  const tt_rule *stub = tt_rulebook_find(book, "jl-broken"), *whole = tt_rulebook_find(book, "a-numbers");
  cr_assert(stub && stub->stub && stub->language == TT_LANG_JULIA && !strcmp(stub->target, "julia"));
  cr_expect_null(stub->message);
  cr_assert(whole && !whole->stub && whole->query_text);
  cr_expect(book->stubbed[TT_LANG_JULIA] && !book->stubbed[TT_LANG_CUDA]);
  cr_assert_eq(tt_rulebook_compile(book, TT_LANG_CUDA, NULL, &err), 0, "%s", err);
  tt_rulebook_free(book);

  /* The same rule when the run has julia files: loaded whole, so its error is said. */
  bool both[TT_LANG_COUNT] = {[TT_LANG_CUDA] = true, [TT_LANG_JULIA] = true};
  book = tt_rulebook_load_for((const char *const *)&dir, 1, both, &err);
  cr_assert_null(book);
  cr_expect(strstr(err, "jl.yaml:1:1: missing required key `summary`"), "%s", err);
  free(err);
  free(jl);
  free(dir);
}

Test(rulebook, load_for_loads_a_file_whole_when_its_head_is_not_plain) {
  /* No id, a sequence for a language, a tag: the head cannot say the rule's language,
   * so the file is loaded and its error reported, whatever the run's languages. */
  static const char *const heads[] = {
      "target: julia\nlanguage: julia\n",
      "id: x\ntarget: julia\nlanguage: [julia]\n",
      "id: x\ntarget: julia\nlanguage: !!str julia\n",
      "id: x\nid: y\ntarget: julia\nlanguage: julia\n",
      "- id: x\n",
  };
  bool cuda_only[TT_LANG_COUNT] = {[TT_LANG_CUDA] = true};
  for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
    char *dir = tts_tmpdir();
    char *path = tt_xasprintf("%s/r.yaml", dir);
    tts_write(path, heads[i]);
    char *err = NULL;
    tt_rulebook *book = tt_rulebook_load_for((const char *const *)&dir, 1, cuda_only, &err);
    cr_expect_null(book, "head %zu was taken for a stub", i);
    cr_expect(err && strstr(err, "r.yaml"), "head %zu: %s", i, err ? err : "(no error)");
    tt_rulebook_free(book);
    free(err);
    free(path);
    free(dir);
  }
}

/* An opt-in rule runs only where an override names it; the later override wins. */
Test(rulebook, an_opt_in_rule_runs_only_where_an_override_names_it) {
  char *err = NULL;
  tt_rule *r = tts_rule("id: t-opt\ntarget: julia\nlanguage: julia\ncategory: layout-flip\nseverity: warning\n"
                        "opt_in: true\nsummary: s\nmessage: m\nexplain: e\nquery: \"(identifier) @x\"\n"
                        "examples:\n  - match: \"x\"\n",
                        &err);
  cr_assert_not_null(r, "%s", err);
  cr_expect_eq(tt_selection_severity(NULL, r), TT_SEV_WARNING, "no selection (test-rules): every rule runs");
  tt_selection sel = {0};
  cr_expect_eq(tt_selection_severity(&sel, r), TT_SEV_OFF);
  tt_override on[] = {{"t-opt", TT_SEV_ERROR}}, other[] = {{"t-other", TT_SEV_ERROR}},
              on_off[] = {{"t-opt", TT_SEV_NOTE}, {"t-opt", TT_SEV_OFF}};
  sel.overrides = other, sel.n_overrides = 1;
  cr_expect_eq(tt_selection_severity(&sel, r), TT_SEV_OFF, "another rule's override does not turn it on");
  sel.overrides = on;
  cr_expect_eq(tt_selection_severity(&sel, r), TT_SEV_ERROR);
  sel.overrides = on_off, sel.n_overrides = 2;
  cr_expect_eq(tt_selection_severity(&sel, r), TT_SEV_OFF);
  sel.target = "hip", sel.overrides = on, sel.n_overrides = 1;
  cr_expect_eq(tt_selection_severity(&sel, r), TT_SEV_OFF, "another target's run does not run it");
  tt_rule_free(r);
}
