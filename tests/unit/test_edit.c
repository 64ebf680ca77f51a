/* test_edit.c — choosing and applying fixes: order, conflicts, agreement, insertions,
 * error regions, all-or-nothing. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rules/edit.h"
#include "support.h"
#include "util/util.h"

static tt_rule RA = {.id = "a-rule"}, RB = {.id = "b-rule"}, RC = {.id = "c-rule"};

/* Appends a finding of `rule` over [start, end) with n_edits edits given as
 * (start, end, replacement) triples. */
static tt_finding *add(tt_findings *fs, const tt_rule *rule, uint32_t start, uint32_t end, int n_edits, ...) {
  TT_PUSH(fs->items, fs->n, fs->cap, (tt_finding){0});
  tt_finding *f = &fs->items[fs->n - 1];
  f->rule = rule;
  f->severity = TT_SEV_WARNING;
  f->message = tt_xstrdup("m");
  f->start = start;
  f->end = end;
  f->has_fix = n_edits > 0;
  f->fix_description = n_edits > 0 ? tt_xstrdup("d") : NULL;
  f->edits = tt_xcalloc((size_t)(n_edits > 0 ? n_edits : 1), sizeof *f->edits);
  va_list ap;
  va_start(ap, n_edits);
  for (int i = 0; i < n_edits; i++) {
    uint32_t s = va_arg(ap, uint32_t), e = va_arg(ap, uint32_t);
    f->edits[i] = (tt_edit){s, e, tt_xstrdup(va_arg(ap, const char *))};
  }
  va_end(ap);
  f->n_edits = (size_t)n_edits;
  return f;
}

typedef struct fixture {
  tt_source *src;
  tt_tree *tree;
  tt_findings fs;
  char *out;
  size_t out_len;
} fixture;

static void setup(fixture *x, const char *text) {
  memset(x, 0, sizeof *x);
  x->src = tts_source("e.cu", text, TT_LANG_CUDA);
  x->tree = tt_tree_parse(x->src);
}

static void apply(fixture *x) { x->out = tt_edits_apply(x->tree, &x->fs, &x->out_len); }

static void teardown(fixture *x) {
  free(x->out);
  tt_findings_free(&x->fs);
  tt_tree_free(x->tree);
  tt_source_free(x->src);
}

static const tt_finding *of_rule(const fixture *x, const tt_rule *r) {
  for (size_t i = 0; i < x->fs.n; i++)
    if (x->fs.items[i].rule == r) return &x->fs.items[i];
  cr_assert_fail("no finding of %s", r->id);
  return NULL;
}

#define U(x) ((uint32_t)(x))

static const char *const TEXT = "int a = 1; int b = 2; int c = 3;\n";
/*                               0123456789012345678901234567890123 */

Test(edit, several_fixes_in_one_text) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RC, 30, 31, 1, U(30), U(31), "30");
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "10");
  add(&x.fs, &RB, 19, 20, 1, U(19), U(20), "20");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_assert_not_null(x.out);
  cr_expect_str_eq(x.out, "int a = 10; int b = 20; int c = 30;\n");
  cr_expect_eq(x.out_len, strlen(TEXT) + 3);
  for (size_t i = 0; i < x.fs.n; i++) cr_expect_eq(x.fs.items[i].fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

Test(edit, no_fix_returns_null) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RA, 8, 9, 0);
  apply(&x);
  cr_expect_null(x.out);
  cr_expect_eq(x.fs.items[0].fix_status, TT_FIX_NONE);
  teardown(&x);
}

Test(edit, overlap_earlier_position_wins) {
  fixture x;
  setup(&x, TEXT);
  /* c-rule starts earlier; a-rule sorts first by id but starts later. */
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "X");
  add(&x.fs, &RC, 4, 9, 1, U(4), U(9), "z = 0");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int z = 0; int b = 2; int c = 3;\n");
  cr_expect_eq(of_rule(&x, &RC)->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_CONFLICT);
  teardown(&x);
}

Test(edit, overlap_same_position_rule_id_wins) {
  for (int order = 0; order < 2; order++) {
    fixture x;
    setup(&x, TEXT);
    if (order == 0) {
      add(&x.fs, &RB, 8, 9, 1, U(8), U(9), "B");
      add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "A");
    } else {
      add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "A");
      add(&x.fs, &RB, 8, 9, 1, U(8), U(9), "B");
    }
    tt_findings_sort(&x.fs);
    apply(&x);
    cr_expect_str_eq(x.out, "int a = A; int b = 2; int c = 3;\n", "order %d", order);
    cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
    cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_CONFLICT);
    teardown(&x);
  }
}

Test(edit, winner_does_not_depend_on_input_order) {
  /* edit.h: fixes are considered by position then rule id "so the outcome never
   * depends on thread timing or rule load order" — also when the caller hands the
   * findings over in another order. */
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RB, 8, 9, 1, U(8), U(9), "B");
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "A");
  apply(&x);
  cr_expect_str_eq(x.out, "int a = A; int b = 2; int c = 3;\n", "got `%s`", x.out);
  cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_CONFLICT);
  teardown(&x);
}

Test(edit, identical_edits_agree_and_apply_once) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RB, 8, 9, 1, U(8), U(9), "1u");
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "1u");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int a = 1u; int b = 2; int c = 3;\n");
  cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

Test(edit, identical_insertions_apply_once) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RA, 0, 3, 1, U(0), U(0), "static ");
  add(&x.fs, &RB, 0, 3, 1, U(0), U(0), "static ");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "static int a = 1; int b = 2; int c = 3;\n");
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

Test(edit, partly_shared_edits) {
  /* Two fixes agree on one edit and the second adds another: both apply, the shared
   * edit once. */
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "7");
  add(&x.fs, &RB, 8, 9, 2, U(8), U(9), "7", U(19), U(20), "8");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int a = 7; int b = 8; int c = 3;\n");
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

Test(edit, insertions_at_the_same_point) {
  /* edit.h: two different insertions at one point conflict (their order would be a
   * guess); the first fix by position then rule id wins, whatever the input order. */
  for (int order = 0; order < 2; order++) {
    fixture x;
    setup(&x, TEXT);
    if (order == 0) {
      add(&x.fs, &RA, 0, 3, 1, U(0), U(0), "A ");
      add(&x.fs, &RB, 0, 3, 1, U(0), U(0), "B ");
    } else {
      add(&x.fs, &RB, 0, 3, 1, U(0), U(0), "B ");
      add(&x.fs, &RA, 0, 3, 1, U(0), U(0), "A ");
    }
    apply(&x);
    cr_expect_str_eq(x.out, "A int a = 1; int b = 2; int c = 3;\n", "order %d: got `%s`", order, x.out);
    cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
    cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_CONFLICT);
    teardown(&x);
  }
}

Test(edit, insertion_and_replacement_of_an_empty_range_elsewhere) {
  /* Insertions at different points both apply, in position order. */
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RB, 11, 14, 1, U(11), U(11), "static ");
  add(&x.fs, &RA, 0, 3, 1, U(0), U(0), "static ");
  apply(&x);
  cr_expect_str_eq(x.out, "static int a = 1; static int b = 2; int c = 3;\n", "got `%s`", x.out);
  teardown(&x);
}

Test(edit, insertion_next_to_replacement) {
  fixture x;
  setup(&x, TEXT);
  /* Insert before the replaced range, after it, and replace it. */
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "one");
  add(&x.fs, &RB, 8, 9, 1, U(8), U(8), "(");
  add(&x.fs, &RC, 8, 9, 1, U(9), U(9), ")");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int a = (one); int b = 2; int c = 3;\n", "got `%s`", x.out);
  for (size_t i = 0; i < x.fs.n; i++) cr_expect_eq(x.fs.items[i].fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

Test(edit, insertion_inside_replacement_conflicts) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RA, 4, 9, 1, U(4), U(9), "q = 5");
  add(&x.fs, &RB, 6, 7, 1, U(6), U(6), "!");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int q = 5; int b = 2; int c = 3;\n");
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_CONFLICT);
  teardown(&x);
}

Test(edit, multi_edit_fix_is_all_or_nothing) {
  fixture x;
  setup(&x, TEXT);
  /* a-rule (first) takes `2`; b-rule wants `1` and `2`: refused entirely, so `1` stays. */
  add(&x.fs, &RA, 19, 20, 1, U(19), U(20), "two");
  add(&x.fs, &RB, 19, 20, 2, U(8), U(9), "ONE", U(19), U(20), "TWO");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int a = 1; int b = two; int c = 3;\n", "got `%s`", x.out);
  cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_CONFLICT);
  teardown(&x);
}

Test(edit, overlapping_edits_within_one_fix) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RA, 4, 9, 2, U(4), U(9), "x", U(8), U(9), "y");
  apply(&x);
  cr_expect_null(x.out);
  cr_expect_eq(x.fs.items[0].fix_status, TT_FIX_CONFLICT);
  teardown(&x);
}

static const char *const BROKEN = "int a = 1;\nvoid f() { g(1, ]; }\nint c = 3;\n";
/*                                 0123456789 0123456789012345678901 */

Test(edit, fix_in_error_region_refused) {
  fixture x;
  setup(&x, BROKEN);
  cr_assert_gt(x.tree->n_errors, 0u);
  uint32_t g = (uint32_t)(strstr(BROKEN, "g(1") - BROKEN), c3 = (uint32_t)(strstr(BROKEN, "3;") - BROKEN);
  add(&x.fs, &RA, 8, 9, 1, U(8), U(9), "10");
  /* more than one token: refused */
  add(&x.fs, &RB, g, g + 3, 1, g, g + 3, "h(2");
  add(&x.fs, &RC, c3, c3 + 1, 1, c3, c3 + 1, "30");
  tt_findings_sort(&x.fs);
  apply(&x);
  cr_expect_str_eq(x.out, "int a = 10;\nvoid f() { g(1, ]; }\nint c = 30;\n", "got `%s`", x.out);
  cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_SYNTAX_ERROR);
  cr_expect_eq(of_rule(&x, &RC)->fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

/* A rename of exactly one identifier token is safe even where the parse failed: the
 * bytes are a name whatever the construct means. Other text there is still refused. */
Test(edit, identifier_token_rename_in_error_region_applies) {
  fixture x;
  setup(&x, BROKEN);
  cr_assert(tt_tree_in_error(x.tree, 0, x.src->len));
  uint32_t g = (uint32_t)(strstr(BROKEN, "g(1") - BROKEN), one = g + 2;
  add(&x.fs, &RA, g, g + 1, 1, g, g + 1, "tiletrans::h");
  add(&x.fs, &RB, one, one + 1, 1, one, one + 1, "2");       /* a number, not a name */
  add(&x.fs, &RC, g, g + 1, 1, g, g + 1, "h(0)");             /* not a name */
  apply(&x);
  cr_expect_str_eq(x.out, "int a = 1;\nvoid f() { tiletrans::h(1, ]; }\nint c = 3;\n", "got `%s`", x.out);
  cr_expect_eq(of_rule(&x, &RA)->fix_status, TT_FIX_APPLIED);
  cr_expect_eq(of_rule(&x, &RB)->fix_status, TT_FIX_SYNTAX_ERROR);
  cr_expect_neq(of_rule(&x, &RC)->fix_status, TT_FIX_APPLIED);
  teardown(&x);
}

Test(edit, multi_edit_fix_touching_error_region_refused_entirely) {
  fixture x;
  setup(&x, BROKEN);
  uint32_t g = (uint32_t)(strstr(BROKEN, "g(1") - BROKEN);
  add(&x.fs, &RA, 8, 9, 2, U(8), U(9), "10", g, g + 3, "h(2");
  apply(&x);
  cr_expect_null(x.out, "nothing applies: got `%s`", x.out ? x.out : "");
  cr_expect_eq(x.fs.items[0].fix_status, TT_FIX_SYNTAX_ERROR);
  teardown(&x);
}

Test(edit, insertion_at_error_boundary_refused) {
  fixture x;
  setup(&x, BROKEN);
  cr_assert_gt(x.tree->n_errors, 0u);
  uint32_t at = x.tree->errors[0].start;
  add(&x.fs, &RA, at, at, 1, at, at, "/*x*/");
  apply(&x);
  cr_expect_null(x.out);
  cr_expect_eq(x.fs.items[0].fix_status, TT_FIX_SYNTAX_ERROR);
  teardown(&x);
}

Test(edit, replacement_with_nul_free_text_and_deletion) {
  fixture x;
  setup(&x, TEXT);
  add(&x.fs, &RA, 0, 11, 1, U(0), U(11), ""); /* delete "int a = 1; " */
  apply(&x);
  cr_expect_str_eq(x.out, "int b = 2; int c = 3;\n");
  cr_expect_eq(x.out_len, strlen(TEXT) - 11);
  teardown(&x);
}
