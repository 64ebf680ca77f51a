/* test_rule_load.c — every loader error names file, line, column and key; a valid rule
 * loads with all its fields. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/rule_load.h"
#include "support.h"
#include "util/fs.h"
#include "util/util.h"

/* Eight lines: the rule's scalar keys. Line 9 is the first line after it. */
#define HEADER                    \
  "id: t-rule\n"                  \
  "target: hip\n"                 \
  "language: cuda\n"              \
  "category: mask-width\n"        \
  "severity: error\n"             \
  "summary: a summary\n"          \
  "message: \"found {{n}}\"\n"    \
  "explain: why\n"

#define QUERY_N "query: \"(number_literal) @n\"\n"
#define EXAMPLES "examples:\n  - match: \"int x = 1;\"\n"

/* Loads `yaml`, which must fail; the error must start with "test-rule.yaml:LINE:COL: "
 * and contain every NULL-terminated extra string. Returns nothing; frees everything. */
static void expect_error(const char *yaml, int line, int col, ...) {
  char *err = NULL;
  tt_rule *r = tts_rule(yaml, &err);
  if (r) tt_rule_free(r);
  cr_assert_null(r, "expected a load error for:\n%s", yaml);
  cr_assert_not_null(err);
  char prefix[64];
  snprintf(prefix, sizeof prefix, "test-rule.yaml:%d:%d: ", line, col);
  cr_expect(strncmp(err, prefix, strlen(prefix)) == 0, "error `%s` should start with `%s`", err, prefix);
  va_list ap;
  va_start(ap, col);
  for (const char *s; (s = va_arg(ap, const char *));)
    cr_expect(strstr(err, s) != NULL, "error `%s` should mention `%s`", err, s);
  va_end(ap);
  free(err);
}

Test(rule_load, valid_rule_loads_all_fields) {
  const char *yaml =
      "id: hip-test-rule-1\n"
      "target: hip\n"
      "language: cuda\n"
      "category: mask-width\n"
      "severity: warning\n"
      "summary: 32-bit mask\n"
      "message: \"`{{mask}}` is 32-bit\"\n"
      "explain: |\n"
      "  Line one.\n"
      "  Line two.\n"
      "query: |\n"
      "  (call_expression\n"
      "    function: (identifier) @fn\n"
      "    arguments: (argument_list . (number_literal) @mask)\n"
      "    (#match? @fn \"_sync$\"))\n"
      "range: mask\n"
      "fix:\n"
      "  description: \"widen {{mask}}\"\n"
      "  edits:\n"
      "    - capture: mask\n"
      "      replacement: \"0xffffffffffffffffull\"\n"
      "    - insert_before: fn\n"
      "      text: \"/*{{fn|trim_suffix:_sync}}*/\"\n"
      "examples:\n"
      "  - match: |\n"
      "      void k(float v) { __shfl_xor_sync(0xffffffff, v, 1); }\n"
      "    count: 1\n"
      "    fixed: |\n"
      "      void k(float v) { /*__shfl_xor*/__shfl_xor_sync(0xffffffffffffffffull, v, 1); }\n"
      "  - no_match: \"void k(float v) { __shfl_xor(v, 1); }\"\n"
      "references:\n"
      "  - https://example.com/a\n"
      "  - \"a book, p. 3\"\n";
  char *err = NULL;
  tt_rule *r = tts_rule(yaml, &err);
  cr_assert_not_null(r, "load failed: %s", err);
  cr_expect_str_eq(r->file, "test-rule.yaml");
  cr_expect_str_eq(r->id, "hip-test-rule-1");
  cr_expect_str_eq(r->target, "hip");
  cr_expect_eq(r->language, TT_LANG_CUDA);
  cr_expect_eq(r->category, TT_CAT_MASK_WIDTH);
  cr_expect_eq(r->severity, TT_SEV_WARNING);
  cr_expect_str_eq(r->summary, "32-bit mask");
  cr_expect_str_eq(r->message, "`{{mask}}` is 32-bit");
  cr_expect_str_eq(r->explain, "Line one.\nLine two.\n");
  cr_assert_not_null(r->query_text);
  cr_expect(strncmp(r->query_text, "(call_expression\n", 17) == 0);
  cr_expect_eq(r->query_line, 12u, "the query text starts on line 12, after `query: |` (got %u)", r->query_line);
  cr_expect(r->n_captures > 0, "the query's capture names are known");
  cr_expect_null(r->analyzer);
  cr_expect_str_eq(r->range_capture, "mask");
  cr_expect(r->has_fix);
  cr_expect_str_eq(r->fix_description, "widen {{mask}}");
  cr_assert_eq(r->n_edits, 2u);
  cr_expect_eq(r->edits[0].kind, TT_EDIT_REPLACE);
  cr_expect_str_eq(r->edits[0].capture, "mask");
  cr_expect_null(r->edits[0].until);
  cr_expect_str_eq(r->edits[0].tmpl, "0xffffffffffffffffull");
  cr_expect_eq(r->edits[1].kind, TT_EDIT_INSERT_BEFORE);
  cr_expect_str_eq(r->edits[1].capture, "fn");
  cr_expect_str_eq(r->edits[1].tmpl, "/*{{fn|trim_suffix:_sync}}*/");
  cr_assert_eq(r->n_examples, 2u);
  cr_expect(r->examples[0].must_match);
  cr_expect_eq(r->examples[0].count, 1);
  cr_expect_eq(r->examples[0].line, 25u);
  cr_expect_str_eq(r->examples[0].code, "void k(float v) { __shfl_xor_sync(0xffffffff, v, 1); }\n");
  cr_assert_not_null(r->examples[0].fixed);
  cr_expect(!r->examples[1].must_match);
  cr_expect_eq(r->examples[1].count, -1);
  cr_expect_null(r->examples[1].fixed);
  cr_expect_eq(r->examples[1].line, 30u);
  cr_assert_eq(r->n_references, 2u);
  cr_expect_str_eq(r->references[0], "https://example.com/a");
  cr_expect_str_eq(r->references[1], "a book, p. 3");
  tt_rule_free(r);
}

Test(rule_load, valid_analyzer_rule) {
  const char *yaml =
      "id: t-rename\n"
      "target: hip\n"
      "language: cuda\n"
      "category: api-mapping\n"
      "severity: note\n"
      "summary: s\n"
      "message: \"{{from}} -> {{to}}\"\n"
      "explain: e\n"
      "analyzer: rename\n"
      "options:\n"
      "  identifiers:\n"
      "    cudaMalloc: hipMalloc\n"
      "fix:\n"
      "  description: \"use {{to}}\"\n"
      "examples:\n"
      "  - match: \"void f() { cudaMalloc(0, 0); }\"\n";
  char *err = NULL;
  tt_rule *r = tts_rule(yaml, &err);
  cr_assert_not_null(r, "%s", err);
  cr_expect_eq(r->analyzer, tt_analyzer_find("rename"));
  cr_expect_not_null(r->analyzer_opts);
  cr_expect_null(r->query_text);
  cr_expect_eq(r->n_captures, 0);
  cr_expect(r->has_fix);
  cr_expect_eq(r->n_edits, 0u, "the analyzer computes the edits");
  cr_expect_eq(r->severity, TT_SEV_NOTE);
  cr_expect_eq(r->category, TT_CAT_API_MAPPING);
  tt_rule_free(r);
}

Test(rule_load, from_file_uses_path) {
  char *dir = tts_tmpdir();
  char *path = tt_fs_join(dir, "r.yaml");
  tts_write(path, HEADER QUERY_N EXAMPLES);
  char *err = NULL;
  tt_rule *r = tt_rule_load(path, &err);
  cr_assert_not_null(r, "%s", err);
  cr_expect_str_eq(r->file, path);
  tt_rule_free(r);
  tts_write(path, HEADER QUERY_N "bogus: 1\n" EXAMPLES);
  r = tt_rule_load(path, &err);
  cr_assert_null(r);
  char *want = tt_xasprintf("%s:10:1: ", path);
  cr_expect(strncmp(err, want, strlen(want)) == 0, "`%s` should start with `%s`", err, want);
  free(want);
  free(err);
  err = NULL;
  char *missing = tt_fs_join(dir, "nope.yaml");
  r = tt_rule_load(missing, &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  cr_expect(strstr(err, missing) != NULL, "`%s` names the file", err);
  free(err);
  free(missing);
  free(path);
  tts_rmrf(dir);
  free(dir);
}

Test(rule_load, unknown_top_level_key) {
  expect_error(HEADER QUERY_N "severty: error\n" EXAMPLES, 10, 1, "unknown key `severty`", NULL);
}

Test(rule_load, yaml_syntax_error) {
  /* A YAML syntax error names the file with line and column, like every other error,
   * and nothing of libfyaml's internal naming. */
  char *err = NULL;
  tt_rule *r = tts_rule(HEADER "query: [unclosed\n" EXAMPLES, &err);
  cr_assert_null(r);
  cr_assert_not_null(err);
  int line = 0, col = 0;
  cr_expect_eq(sscanf(err, "test-rule.yaml:%d:%d:", &line, &col), 2, "`%s` should start with test-rule.yaml:LINE:COL:", err);
  cr_expect_geq(line, 9, "%s", err);
  cr_expect(strstr(err, "<memory") == NULL, "libfyaml's buffer name leaks into `%s`", err);
  cr_expect(strchr(err, '\n') == NULL, "one-line message expected: `%s`", err);
  free(err);
}

Test(rule_load, yaml_syntax_error_in_file) {
  char *dir = tts_tmpdir();
  char *path = tt_fs_join(dir, "bad.yaml");
  tts_write(path, HEADER "query: [unclosed\n" EXAMPLES);
  char *err = NULL;
  tt_rule *r = tt_rule_load(path, &err);
  cr_assert_null(r);
  cr_assert_not_null(err);
  char *want = tt_xasprintf("%s:", path);
  int line = 0, col = 0;
  cr_expect(strncmp(err, want, strlen(want)) == 0, "%s", err);
  cr_expect_eq(sscanf(err + strlen(want), "%d:%d:", &line, &col), 2, "`%s` should have LINE:COL after the path", err);
  cr_expect_geq(line, 9, "%s", err);
  free(want);
  free(err);
  free(path);
  tts_rmrf(dir);
  free(dir);
}

Test(rule_load, missing_id) {
  const char *yaml =
      "target: hip\n"
      "language: cuda\n"
      "category: mask-width\n"
      "severity: error\n"
      "summary: s\n"
      "message: m\n"
      "explain: e\n" QUERY_N EXAMPLES;
  expect_error(yaml, 1, 1, "missing required key `id`", NULL);
}

Test(rule_load, empty_required_key) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: \"\"\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               6, 11 /* quoted: first content byte */, "`summary`", "empty", NULL);
}

Test(rule_load, wrong_type_examples_scalar) {
  expect_error(HEADER QUERY_N "examples: 3\n", 10, 11, "`examples`", "sequence", NULL);
}

Test(rule_load, wrong_type_summary_sequence) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: [a, b]\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               6, 11, "`summary`", "must be a string", "sequence", NULL);
}

Test(rule_load, unknown_category) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: warpsize\nseverity: error\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               4, 11, "key `category`", "`warpsize`", "warp-size", NULL);
}

Test(rule_load, unknown_severity) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: fatal\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               5, 11, "key `severity`", "`fatal`", NULL);
  /* "off" is an override, not a rule severity. */
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: off\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               5, 11, "key `severity`", NULL);
}

Test(rule_load, opt_in_is_a_boolean_and_off_by_default) {
  char *err = NULL;
  tt_rule *r = tts_rule(HEADER QUERY_N EXAMPLES, &err);
  cr_assert_not_null(r, "%s", err);
  cr_expect(!r->opt_in);
  tt_rule_free(r);
  r = tts_rule(HEADER "opt_in: true\n" QUERY_N EXAMPLES, &err);
  cr_assert_not_null(r, "%s", err);
  cr_expect(r->opt_in);
  cr_expect_eq(r->severity, TT_SEV_ERROR, "an opt-in rule keeps the severity it runs at");
  tt_rule_free(r);
  expect_error(HEADER "opt_in: maybe\n" QUERY_N EXAMPLES, 9, 9, "key `opt_in`", "`maybe`", "true or false", NULL);
  expect_error(HEADER "opt_in: [true]\n" QUERY_N EXAMPLES, 9, 10, "key `opt_in`", NULL);
}

Test(rule_load, unknown_target) {
  expect_error("id: t-rule\ntarget: rocm\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               2, 9, "key `target`", "`rocm`", NULL);
}

Test(rule_load, unknown_language) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: fortran\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               3, 11, "key `language`", "`fortran`", NULL);
  /* Aliases accepted on the command line are not rule-file language names. */
  expect_error("id: t-rule\ntarget: hip\nlanguage: c++\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               3, 11, "key `language`", NULL);
}

Test(rule_load, bad_id_characters) {
  expect_error("id: Hip_Rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               1, 5, "key `id`", "`Hip_Rule`", NULL);
  expect_error("id: \"a b\"\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: m\nexplain: e\n" QUERY_N EXAMPLES,
               1, 6 /* quoted: first content byte */, "key `id`", NULL);
}

Test(rule_load, query_syntax_error_points_into_the_query) {
  /* Line 9: `query: |`; the query text is lines 10-12; the error is on line 11. */
  expect_error(HEADER
               "query: |\n"
               "  (call_expression\n"
               "    function: (identifier) @n))) ]\n"
               "  )\n" EXAMPLES,
               11, 31, "key `query`", "syntax error", NULL);
}

Test(rule_load, query_syntax_error_line_and_column) {
  /* An unclosed string on query line 2 (file line 11); flow scalar on one line too. */
  char *err = NULL;
  tt_rule *r = tts_rule(HEADER
                        "query: |\n"
                        "  ((identifier) @n\n"
                        "   (#eq? @n \"x\") $$$)\n" EXAMPLES,
                        &err);
  cr_assert_null(r);
  int line = 0, col = 0;
  cr_assert_eq(sscanf(err, "test-rule.yaml:%d:%d:", &line, &col), 2, "%s", err);
  cr_expect_eq(line, 11, "the error is on file line 11: %s", err);
  cr_expect_eq(col, 18, "at the `$` (column 18): %s", err);
  cr_expect(strstr(err, "key `query`") != NULL, "%s", err);
  free(err);
}

Test(rule_load, unknown_node_type) {
  expect_error(HEADER
               "query: |\n"
               "  (call_expresion) @n\n" EXAMPLES,
               10, 4, "key `query`", "unknown node type", "call_expresion", NULL);
}

Test(rule_load, unknown_field) {
  expect_error(HEADER
               "query: |\n"
               "  ((call_expression\n"
               "    functoin: (identifier)) @n)\n" EXAMPLES,
               11, 5, "key `query`", "unknown field", "functoin", NULL);
  /* (The capture sits outside the broken pattern: with a capture inside it, the
   * vendored tree-sitter's ts_query_new leaks 8 bytes on this error path.) */
}

Test(rule_load, query_for_wrong_language) {
  /* `call` is Python's node; the rule says cuda. */
  /* The error is at `call`, byte 1 of the query: column 10 (quoted) / 9 (plain). */
  expect_error(HEADER "query: \"(call) @n\"\n" EXAMPLES, 9, 10, "key `query`", "unknown node type", "cuda", NULL);
  expect_error(HEADER "query: (call) @n\n" EXAMPLES, 9, 9, "key `query`", "unknown node type", NULL);
}

Test(rule_load, unknown_predicate) {
  expect_error(HEADER
               "query: |\n"
               "  ((identifier) @n\n"
               "   (#equal? @n \"x\"))\n" EXAMPLES,
               10, 3, "key `query`", "unknown predicate", "equal?", NULL);
}

Test(rule_load, bad_regex) {
  expect_error(HEADER
               "query: |\n"
               "  ((identifier) @n\n"
               "   (#match? @n \"^(foo\"))\n" EXAMPLES,
               10, 3, "key `query`", "bad regex", "^(foo", NULL);
}

Test(rule_load, bad_predicate_arguments) {
  /* Errors about a pattern's predicates point at the pattern's start: column 9 is the
   * first byte of the query (quoted scalars are marked at their first content byte). */
  expect_error(HEADER "query: '((number_literal) @n (#tt-int-eq? @n \"twelve\"))'\n" EXAMPLES, 9, 9, "key `query`",
               "twelve", NULL);
  expect_error(HEADER "query: '((identifier) @n (#match? @n))'\n" EXAMPLES, 9, 9, "key `query`",
               "wrong number of arguments", NULL);
  expect_error(HEADER "query: '((identifier) @n (#any-of? @n))'\n" EXAMPLES, 9, 9, "key `query`", NULL);
  /* Plain scalar: the query starts at column 8. */
  expect_error(HEADER "query: ((identifier) @n (#any-of? @n))\n" EXAMPLES, 9, 8, "key `query`", NULL);
}

Test(rule_load, predicate_outside_pattern) {
  /* The predicate after the pattern's closing parenthesis: a second pattern capturing
   * nothing. The error points at it (line 12) and says how to fix it. */
  expect_error(HEADER
               "query: |\n"
               "  (call_expression\n"
               "    function: (identifier) @n)\n"
               "  (#eq? @n \"foo\")\n" EXAMPLES,
               12, 3, "key `query`", "captures nothing", "inside the pattern", NULL);
}

Test(rule_load, pattern_without_capture) {
  expect_error(HEADER "query: |\n  (number_literal)\n" EXAMPLES, 10, 3, "key `query`", "captures nothing", NULL);
}

Test(rule_load, message_template_unknown_capture) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: \"bad {{mask}}\"\nexplain: e\n" QUERY_N EXAMPLES,
               7, 11, "key `message`", "{{mask}}", NULL);
}

Test(rule_load, fix_template_unknown_capture) {
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      replacement: \"{{m}}u\"\n" EXAMPLES,
               14, 21, "`replacement`", "{{m}}", NULL);
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"use {{x}}\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      replacement: \"1\"\n" EXAMPLES,
               11, 17, "description", "{{x}}", NULL);
}

Test(rule_load, unterminated_template) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
               "summary: s\nmessage: \"bad {{n\"\nexplain: e\n" QUERY_N EXAMPLES,
               7, 11, "key `message`", "unterminated", NULL);
}

Test(rule_load, unknown_template_filter) {
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      replacement: \"{{n|upper}}\"\n" EXAMPLES,
               14, 21, "`replacement`", "unknown filter", NULL);
  /* The capture exists: the message must not claim it is not captured. */
  char *err = NULL;
  tt_rule *r = tts_rule(HEADER QUERY_N
                        "fix:\n"
                        "  description: \"d\"\n"
                        "  edits:\n"
                        "    - capture: n\n"
                        "      replacement: \"{{n|upper}}\"\n" EXAMPLES,
                        &err);
  cr_assert_null(r);
  cr_expect(strstr(err, "does not capture") == NULL, "misleading message for a bad filter: %s", err);
  cr_expect(strstr(err, "upper") != NULL, "%s", err);
  free(err);
  /* A filter with no argument text is not valid either. */
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      replacement: \"{{n|trim_suffix:}}\"\n" EXAMPLES,
               14, 21, "unknown filter", NULL);
}

Test(rule_load, fix_edit_unknown_capture) {
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: mask\n"
               "      replacement: \"1\"\n" EXAMPLES,
               13, 16, "key `capture`", "`mask`", NULL);
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - insert_after: nope\n"
               "      text: \";\"\n" EXAMPLES,
               13, 21, "key `insert_after`", "`nope`", NULL);
}

Test(rule_load, until_unknown_capture) {
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      until: later\n"
               "      replacement: \"1\"\n" EXAMPLES,
               14, 14, "key `until`", NULL);
}

Test(rule_load, until_on_insert_edit) {
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - insert_before: n\n"
               "      until: n\n"
               "      text: \"x\"\n" EXAMPLES,
               14, 14, "key `until`", NULL);
}

Test(rule_load, fix_edit_form_errors) {
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      text: \"1\"\n" EXAMPLES,
               13, 7, "replacement", NULL);
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      insert_before: n\n"
               "      replacement: \"1\"\n" EXAMPLES,
               13, 7, "one of", NULL);
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits:\n"
               "    - capture: n\n"
               "      replacment: \"1\"\n" EXAMPLES,
               14, 7, "unknown key `replacment`", NULL);
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n"
               "  edits: []\n" EXAMPLES,
               12, 3 /* the key: an empty sequence has no token of its own */, "fix.edits", NULL);
  expect_error(HEADER QUERY_N
               "fix:\n"
               "  description: \"d\"\n" EXAMPLES,
               11, 3, "`edits`", NULL);
}

Test(rule_load, examples_without_match) {
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - no_match: \"int x;\"\n"
               "  - no_match: \"int y;\"\n",
               11, 5, "key `examples`", "`match`", NULL);
}

Test(rule_load, example_errors) {
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "    no_match: \"int y;\"\n",
               11, 5, "exactly one", NULL);
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "    expected: \"int y;\"\n",
               12, 5, "unknown key `expected`", NULL);
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "  - no_match: \"int y;\"\n"
               "    count: 2\n",
               12, 5, "`count`", NULL);
}

Test(rule_load, fixed_without_fix) {
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "    fixed: \"int x = 2;\"\n",
               11, 5, "key `fixed`", "no `fix`", NULL);
}

Test(rule_load, count_zero_and_junk) {
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "    count: 0\n",
               12, 12, "key `count`", NULL);
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "    count: 2x\n",
               12, 12, "key `count`", NULL);
  expect_error(HEADER QUERY_N
               "examples:\n"
               "  - match: \"int x = 1;\"\n"
               "    count: -1\n",
               12, 12, "key `count`", NULL);
}

#define AN_HEADER                 \
  "id: t-rule\n"                  \
  "target: hip\n"                 \
  "language: cuda\n"              \
  "category: api-mapping\n"       \
  "severity: error\n"             \
  "summary: a summary\n"          \
  "message: \"found {{from}}\"\n" \
  "explain: why\n"

Test(rule_load, unknown_analyzer) {
  expect_error(AN_HEADER "analyzer: renamer\n" EXAMPLES, 9, 11, "key `analyzer`", "`renamer`", "rename", NULL);
}

Test(rule_load, analyzer_unknown_option_key) {
  expect_error(AN_HEADER
               "analyzer: rename\n"
               "options:\n"
               "  identifiers:\n"
               "    cudaMalloc: hipMalloc\n"
               "  identifers:\n"
               "    cudaFree: hipFree\n" EXAMPLES,
               13, 3, "key `options`", "unknown option `identifers`", NULL);
}

Test(rule_load, analyzer_option_wrong_types) {
  expect_error(AN_HEADER
               "analyzer: rename\n"
               "options:\n"
               "  identifiers: [cudaMalloc, hipMalloc]\n" EXAMPLES,
               11, 17, "key `options`", "`identifiers`", "mapping", NULL);
  expect_error(AN_HEADER
               "analyzer: rename\n"
               "options:\n"
               "  identifiers:\n"
               "    cudaMalloc: [hipMalloc]\n" EXAMPLES,
               12, 5, "key `options`", "`identifiers`", NULL);
  expect_error(AN_HEADER
               "analyzer: rename\n"
               "options: [identifiers]\n" EXAMPLES,
               10, 11, "key `options`", "mapping", NULL);
}

#define NS_HEADER                 \
  "id: t-rule\n"                  \
  "target: hip\n"                 \
  "language: cuda\n"              \
  "category: ballot-width\n"      \
  "severity: error\n"             \
  "summary: a summary\n"          \
  "message: \"{{var}}\"\n"        \
  "explain: why\n"

Test(rule_load, narrow_store_option_wrong_types) {
  expect_error(NS_HEADER
               "analyzer: narrow-store\n"
               "options:\n"
               "  sources: __ballot_sync\n"
               "  narrow_types: [unsigned]\n"
               "  wide_type: unsigned long long\n" EXAMPLES,
               11, 12, "key `options`", "`sources`", "sequence", NULL);
  expect_error(NS_HEADER
               "analyzer: narrow-store\n"
               "options:\n"
               "  sources: [__ballot_sync]\n"
               "  narrow_types: [unsigned]\n"
               "  wide_type: [unsigned long long]\n" EXAMPLES,
               13, 15 /* a sequence: its first item */, "key `options`", "`wide_type`", "string", NULL);
  expect_error(NS_HEADER
               "analyzer: narrow-store\n"
               "options:\n"
               "  sources: [[__ballot_sync]]\n"
               "  narrow_types: [unsigned]\n"
               "  wide_type: long\n" EXAMPLES,
               11, 14, "key `options`", "`sources`", NULL);
  /* Missing a required option: names the options. */
  expect_error(NS_HEADER
               "analyzer: narrow-store\n"
               "options:\n"
               "  sources: [__ballot_sync]\n" EXAMPLES,
               11, 3, "key `options`", "wide_type", NULL);  /* A boolean option that is neither true nor false: at its value. */
  expect_error(NS_HEADER
               "analyzer: narrow-store\n"
               "options:\n"
               "  sources: [__ballot_sync]\n"
               "  narrow_types: [unsigned]\n"
               "  wide_type: long\n"
               "  wrappers: sometimes\n" EXAMPLES,
               14, 13, "key `options`", "`wrappers` must be true or false", NULL);
}

Test(rule_load, analyzer_template_uses_unbound_name) {
  expect_error("id: t-rule\ntarget: hip\nlanguage: cuda\ncategory: api-mapping\nseverity: error\n"
               "summary: s\nmessage: \"{{var}}\"\nexplain: e\n"
               "analyzer: rename\n"
               "options:\n"
               "  identifiers: {a: b}\n" EXAMPLES,
               7, 11, "key `message`", "{{var}}", NULL);
}

Test(rule_load, query_and_analyzer_both) {
  expect_error(AN_HEADER QUERY_N
               "analyzer: rename\n"
               "options:\n"
               "  identifiers: {a: b}\n" EXAMPLES,
               1, 1, "exactly one of `query` and `analyzer`", NULL);
}

Test(rule_load, neither_query_nor_analyzer) {
  expect_error(HEADER EXAMPLES, 1, 1, "exactly one of `query` and `analyzer`", NULL);
}

Test(rule_load, options_on_query_rule) {
  expect_error(HEADER QUERY_N
               "options:\n"
               "  identifiers: {a: b}\n" EXAMPLES,
               11, 3, "key `options`", "analyzer", NULL);
}

Test(rule_load, range_unknown_capture) {
  expect_error(HEADER QUERY_N "range: mask\n" EXAMPLES, 10, 8, "key `range`", "`mask`", NULL);
}

Test(rule_load, references_wrong_type) {
  expect_error(HEADER QUERY_N EXAMPLES "references: https://x\n", 12, 13, "`references`", NULL);
}

Test(rule_load, not_a_mapping) {
  char *err = NULL;
  tt_rule *r = tts_rule("- a\n- b\n", &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "test-rule.yaml") == err, "%s", err);
  free(err);
  r = tts_rule("", &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  free(err);
}
