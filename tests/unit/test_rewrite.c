/* test_rewrite.c — tt_rewrite_text: fixpoint over rules that enable each other,
 * idempotence, convergence, refused edits in error regions, conflicts settled later. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rewrite.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/fs.h"
#include "util/util.h"

/* Writes rules/<id>.yaml under `dir`: a cuda query rule with one fix edit. */
static void write_rule(const char *dir, const char *id, const char *query, const char *capture,
                       const char *replacement) {
  char *name = tt_xasprintf("%s.yaml", id);
  char *path = tt_fs_join(dir, name);
  char *yaml = tt_xasprintf(
      "id: %s\n"
      "target: hip\n"
      "language: cuda\n"
      "category: api-mapping\n"
      "severity: warning\n"
      "summary: s\n"
      "message: m\n"
      "explain: e\n"
      "query: |\n"
      "  %s\n"
      "fix:\n"
      "  description: d\n"
      "  edits:\n"
      "    - capture: %s\n"
      "      replacement: \"%s\"\n"
      "examples:\n"
      "  - match: x\n",
      id, query, capture, replacement);
  tts_write(path, yaml);
  free(yaml);
  free(path);
  free(name);
}

typedef struct fx {
  char *dir;
  tt_rulebook *book;
  tt_rewrite_result r;
} fx;

static void load(fx *x) {
  char *err = NULL;
  const char *dirs[] = {x->dir};
  x->book = tt_rulebook_load(dirs, 1, &err);
  /* The rules are in memory now: remove the files at once, so that nothing is left
   * behind even when a later check aborts the test. */
  tts_rmrf(x->dir);
  cr_assert_not_null(x->book, "rulebook: %s", err ? err : "?");
}

static int rewrite(fx *x, const char *text) {
  char *err = NULL;
  int rc = tt_rewrite_text(x->book, NULL, "t.cu", TT_LANG_CUDA, text, strlen(text), &x->r, &err);
  cr_assert_eq(rc, 0, "rewrite: %s", err ? err : "?");
  return rc;
}

static void done(fx *x) {
  tt_rewrite_result_free(&x->r);
  tt_rulebook_free(x->book);
  tts_rmrf(x->dir);
  free(x->dir);
}

#define RENAME_FOO "((call_expression function: (identifier) @fn) (#eq? @fn \"foo\"))"
#define MASK_OF_BAR                                                                   \
  "((call_expression function: (identifier) @fn arguments: (argument_list . (number_literal) @mask)) " \
  "(#eq? @fn \"bar\") (#tt-int-eq? @mask 0xffffffff))"

static const tt_finding *of_rule(const tt_findings *fs, const char *id) {
  for (size_t i = 0; i < fs->n; i++)
    if (!strcmp(fs->items[i].rule->id, id)) return &fs->items[i];
  return NULL;
}

Test(rewrite, fixpoint_fix_enables_another_rule) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  write_rule(x.dir, "b-mask", MASK_OF_BAR, "mask", "0xffffffffffffffffull");
  load(&x);
  rewrite(&x, "void k(int v) { foo(0xffffffff, v); }\n");
  cr_expect_str_eq(x.r.text, "void k(int v) { bar(0xffffffffffffffffull, v); }\n", "got `%s`", x.r.text);
  cr_expect_eq(x.r.len, strlen(x.r.text));
  cr_expect_eq(x.r.changed, 1);
  cr_expect_eq(x.r.converged, 1);
  cr_expect_eq(x.r.rounds, 3, "rename, then mask, then a round that changes nothing (got %d)", x.r.rounds);
  /* Findings are those of the first round, in the input's coordinates. */
  const tt_finding *f = of_rule(&x.r.findings, "a-rename");
  cr_assert_not_null(f);
  cr_expect_eq(f->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(f->start, 16u);
  cr_expect_null(of_rule(&x.r.findings, "b-mask"));
  done(&x);
}

Test(rewrite, idempotent) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  write_rule(x.dir, "b-mask", MASK_OF_BAR, "mask", "0xffffffffffffffffull");
  load(&x);
  rewrite(&x, "void k(int v) { foo(0xffffffff, v); foo(1, v); bar(0xffffffff, 2); }\n");
  char *once = tt_xstrndup(x.r.text, x.r.len);
  size_t once_len = x.r.len;
  tt_rewrite_result_free(&x.r);
  rewrite(&x, once);
  cr_expect_eq(x.r.len, once_len);
  cr_expect_str_eq(x.r.text, once);
  cr_expect_eq(x.r.changed, 0);
  cr_expect_eq(x.r.converged, 1);
  cr_expect_eq(x.r.rounds, 1);
  cr_expect_eq(x.r.findings.n, 0u);
  free(once);
  done(&x);
}

Test(rewrite, nothing_to_do) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  load(&x);
  const char *text = "int main() { return 0; }\n";
  rewrite(&x, text);
  cr_expect_str_eq(x.r.text, text);
  cr_expect_eq(x.r.changed, 0);
  cr_expect_eq(x.r.converged, 1);
  cr_expect_eq(x.r.rounds, 1);
  done(&x);
}

Test(rewrite, fixes_that_undo_each_other_do_not_converge) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-to-bar", RENAME_FOO, "fn", "bar");
  write_rule(x.dir, "b-to-foo", "((call_expression function: (identifier) @fn) (#eq? @fn \"bar\"))", "fn", "foo");
  load(&x);
  rewrite(&x, "void k() { foo(); }\n");
  cr_expect_eq(x.r.converged, 0);
  cr_expect_gt(x.r.rounds, 1);
  cr_expect_leq(x.r.rounds, 16);
  cr_expect(strstr(x.r.text, "foo()") || strstr(x.r.text, "bar()"));
  done(&x);
}

/* In b, `foo(2)` parses, but its statement is broken (a MISSING operand). A rename of the
 * one identifier token goes through there too (edit.c), so no line is left half-renamed;
 * other edits in such regions are refused (test_edit.c). */
Test(rewrite, renames_identifier_tokens_in_error_regions) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  load(&x);
  const char *text = "void a() { foo(1); }\nvoid b() { int x = foo(2) +* ; }\nvoid c() { foo(3); }\n";
  rewrite(&x, text);
  cr_expect_str_eq(x.r.text, "void a() { bar(1); }\nvoid b() { int x = bar(2) +* ; }\nvoid c() { bar(3); }\n", "got `%s`",
                   x.r.text);
  cr_expect_eq(x.r.converged, 1);
  size_t applied = 0;
  for (size_t i = 0; i < x.r.findings.n; i++) applied += x.r.findings.items[i].fix_status == TT_FIX_APPLIED;
  cr_expect_eq(applied, 3u);
  done(&x);
}

Test(rewrite, conflict_resolved_in_a_later_round) {
  /* a-call rewrites the whole call (wins: it starts first); b-arg wants the argument of
   * the same call. Round 2 matches b-arg on the new call, so in the end both applied. */
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-call", "((call_expression function: (identifier) @fn) @call (#eq? @fn \"foo\"))", "call",
             "bar(1)");
  write_rule(x.dir, "b-arg",
             "((call_expression arguments: (argument_list . (number_literal) @n)) (#tt-int-eq? @n 1))", "n", "2");
  load(&x);
  rewrite(&x, "void k() { foo(1); }\n");
  cr_expect_str_eq(x.r.text, "void k() { bar(2); }\n", "got `%s`", x.r.text);
  cr_expect_eq(x.r.converged, 1);
  const tt_finding *a = of_rule(&x.r.findings, "a-call"), *b = of_rule(&x.r.findings, "b-arg");
  cr_assert_not_null(a);
  cr_assert_not_null(b);
  cr_expect_eq(a->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(b->fix_status, TT_FIX_APPLIED, "its edit went in during round 2");
  done(&x);
}

Test(rewrite, selection_filters_rules) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  load(&x);
  const char *text = "void k() { foo(); }\n";
  char *err = NULL;
  tt_override off = {"a-rename", TT_SEV_OFF};
  tt_selection sel = {.overrides = &off, .n_overrides = 1};
  cr_assert_eq(tt_rewrite_text(x.book, &sel, "t.cu", TT_LANG_CUDA, text, strlen(text), &x.r, &err), 0);
  cr_expect_str_eq(x.r.text, text, "a rule turned off does not rewrite");
  tt_rewrite_result_free(&x.r);
  tt_selection julia = {.target = "julia"};
  cr_assert_eq(tt_rewrite_text(x.book, &julia, "t.cu", TT_LANG_CUDA, text, strlen(text), &x.r, &err), 0);
  cr_expect_str_eq(x.r.text, text, "a hip rule does not run for target julia");
  done(&x);
}

Test(rewrite, no_parser_is_an_error) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  load(&x);
  char *err = NULL;
  cr_expect_eq(tt_rewrite_text(x.book, NULL, "t.txt", TT_LANG_NONE, "foo()", 5, &x.r, &err), -1);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "t.txt") != NULL, "%s", err);
  free(err);
  done(&x);
}

Test(rewrite, text_with_nul_and_bom) {
  fx x = {.dir = tts_tmpdir()};
  write_rule(x.dir, "a-rename", RENAME_FOO, "fn", "bar");
  load(&x);
  const char text[] = "\xEF\xBB\xBFvoid k() { foo(); }\n";
  char *err = NULL;
  cr_assert_eq(tt_rewrite_text(x.book, NULL, "t.cu", TT_LANG_CUDA, text, sizeof text - 1, &x.r, &err), 0);
  cr_expect_eq(x.r.len, sizeof text - 1);
  cr_expect(memcmp(x.r.text, "\xEF\xBB\xBFvoid k() { bar(); }\n", x.r.len) == 0, "BOM kept, call renamed");
  done(&x);
}

/* An unsupported construct (no fix) stays, behind a tiletrans-ignore marker that names
 * its rule; the marked text is a fixpoint, and its finding, now suppressed, still counts
 * as an error left. */
Test(rewrite, unsupported_construct_is_marked_once) {
  fx x = {.dir = tts_tmpdir()};
  char *path = tt_fs_join(x.dir, "u-asm.yaml");
  tts_write(path,
            "id: u-asm\ntarget: hip\nlanguage: cuda\ncategory: unsupported\nseverity: error\n"
            "summary: inline asm (no HIP equivalent)\nmessage: m\nexplain: e\n"
            "query: |\n  ((gnu_asm_expression) @asm)\nexamples:\n  - match: x\n");
  free(path);
  load(&x);
  rewrite(&x, "__device__ void f() {\n  asm volatile(\"exit;\");\n}\n");
  cr_expect_str_eq(x.r.text,
                   "__device__ void f() {\n  /* tiletrans-ignore: u-asm -- left unported: inline asm (no HIP equivalent) */ "
                   "asm volatile(\"exit;\");\n}\n", "got `%s`", x.r.text);
  cr_expect_eq(x.r.errors_left, 1u);
  cr_expect_eq(x.r.converged, 1);
  cr_expect_not_null(of_rule(&x.r.findings, "u-asm"));
  char *once = tt_xstrndup(x.r.text, x.r.len);
  tt_rewrite_result_free(&x.r);
  rewrite(&x, once);
  cr_expect_str_eq(x.r.text, once);
  cr_expect_eq(x.r.changed, 0);
  cr_expect_eq(x.r.findings.n, 0u);
  cr_expect_eq(x.r.suppressed.n, 1u);
  cr_expect_eq(x.r.errors_left, 1u, "a marked construct is still not ported");
  free(once);
  done(&x);
}
