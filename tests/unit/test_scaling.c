/* Regression tests for inputs that were super-linear (issue 12): each runs an input of
 * size n and of size 4n in the same process and asserts the work grew by less than 10x
 * (linear: 4x; quadratic: 16x). Work is the best of three CPU-time measurements, so a
 * loaded machine slows both sizes alike; no absolute time is asserted. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/edit.h"
#include "rules/match.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/util.h"

static tt_rulebook *book;

static void load_book(void) {
  book = tts_rulebook(true);
}
static void free_book(void) { tt_rulebook_free(book); }

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Lints `text` with the whole rulebook and, when `fix`, applies the fixes. */
static void lint_and_fix(const char *text, bool fix) {
  tt_source *src = tts_source("scale.cu", text, TT_LANG_CUDA);
  tt_tree *tree = tt_tree_parse(src);
  tt_findings fs = {0};
  tt_match_tree(book, NULL, tree, &fs);
  cr_assert_gt(fs.n, 0u, "the input has findings");
  if (fix) {
    size_t len;
    free(tt_edits_apply(tree, &fs, &len));
  }
  tt_findings_free(&fs);
  tt_tree_free(tree);
  tt_source_free(src);
}

typedef char *(*make_input)(size_t n);

static double best_cpu(make_input make, size_t n, bool fix) {
  char *text = make(n);
  double best = 1e30;
  for (int i = 0; i < 3; i++) {
    double t0 = cpu_now();
    lint_and_fix(text, fix);
    double t = cpu_now() - t0;
    if (t < best) best = t;
  }
  free(text);
  return best;
}

static void expect_linear(make_input make, size_t n, bool fix, const char *what) {
  double small = best_cpu(make, n, fix), large = best_cpu(make, 4 * n, fix);
  if (small < 1e-4) small = 1e-4; /* clock granularity */
  cr_expect_lt(large / small, 10.0, "%s: n=%zu took %.4f s, 4n took %.4f s (ratio %.1f; linear is 4)", what, n,
               small, large, large / small);
}

static char *repeat(const char *head, const char *unit, size_t n, const char *mid, const char *close, const char *tail) {
  tt_buf b = {0};
  tt_buf_puts(&b, head);
  for (size_t i = 0; i < n; i++) tt_buf_puts(&b, unit);
  tt_buf_puts(&b, mid);
  for (size_t i = 0; i < n; i++) tt_buf_puts(&b, close);
  tt_buf_puts(&b, tail);
  return tt_buf_steal(&b);
}

/* A shuffle at every level of an `if` nested n deep: predicates asked for ancestors
 * walked ts_node_parent (O(depth^2) per match). */
static char *nested_ifs(size_t n) {
  return repeat("__global__ void k(float *x, int a) {\n", "if (a) { x[0] = __shfl_sync(0xffffffff, x[0], 0);\n", n,
                "", "}\n", "}\n");
}

/* The same with a syntax error at every level: error regions walked up with
 * ts_node_parent. */
static char *nested_errors(size_t n) {
  return repeat("__global__ void k(float *x, int a) {\n", "if (a) { x[0] = __shfl_sync(0xffffffff, x[0], 0) +;\n",
                n, "", "}\n", "}\n");
}

/* n fixable findings: each fix was checked against every fix chosen before it. */
static char *many_fixes(size_t n) {
  return repeat("__global__ void k(float *x) {\n", "  x[0] = __shfl_down_sync(0xffffffff, x[0], 1);\n", n, "", "",
                "}\n");
}

/* n findings on one line with a suppression comment: the line was scanned per finding. */
static char *one_line(size_t n) {
  return repeat("__global__ void k(float *x) { ", "x[0] = __shfl_sync(0xffffffff, x[0], 0); ", n,
                "} // tiletrans-ignore: some-other-rule\n", "", "");
}

/* n small kernels: the size of the file alone (18 s for 10 MB once). */
static char *many_kernels(size_t n) {
  tt_buf b = {0};
  for (size_t i = 0; i < n; i++)
    tt_buf_printf(&b,
                  "__global__ void k%zu(float *x) {\n  int lane = threadIdx.x %% 32;\n"
                  "  float v = __shfl_down_sync(0xffffffff, x[lane], 16);\n  if (lane < 16) x[lane] = v;\n}\n",
                  i);
  return tt_buf_steal(&b);
}

/* n findings on one line whose comment names n rule ids: each finding's lookup scanned
 * every id of its line. */
static char *one_line_many_ids(size_t n) {
  tt_buf b = {0};
  tt_buf_puts(&b, "__global__ void k(float *x) { ");
  for (size_t i = 0; i < n; i++) tt_buf_puts(&b, "x[0] = __shfl_sync(0xffffffff, x[0], 0); ");
  tt_buf_puts(&b, "} // tiletrans-ignore: ");
  for (size_t i = 0; i < n; i++) tt_buf_printf(&b, "%srule-%zu", i ? ", " : "", i);
  tt_buf_puts(&b, "\n");
  return tt_buf_steal(&b);
}

/* A sum of n terms is a left-nested binary_expression n deep: every enclosing node
 * held an in-progress match of each binary_expression pattern while the cursor walked
 * its left operand (8 s for 6,000 terms). */
static char *long_sum(size_t n) {
  tt_buf b = {0};
  tt_buf_puts(&b, "__global__ void k(float *x, int lane) {\n  x[0] = x[0]");
  for (size_t i = 1; i < n; i++) tt_buf_printf(&b, " + x[%zu] * (lane %% 32)", i);
  tt_buf_puts(&b, ";\n}\n");
  return tt_buf_steal(&b);
}

TestSuite(scaling, .init = load_book, .fini = free_book, .timeout = 600);

Test(scaling, nested_ifs) { expect_linear(nested_ifs, 400, false, "if nested n deep"); }
Test(scaling, nested_syntax_errors) { expect_linear(nested_errors, 400, false, "errors nested n deep"); }
Test(scaling, many_fixes) { expect_linear(many_fixes, 1000, true, "n fixes"); }
Test(scaling, many_findings_on_one_line) { expect_linear(one_line, 1000, false, "n findings on one line"); }
Test(scaling, big_file) { expect_linear(many_kernels, 200, true, "n kernels in one file"); }
Test(scaling, many_ids_on_one_line) { expect_linear(one_line_many_ids, 1000, false, "n findings and n ids on one line"); }
Test(scaling, long_sum) { expect_linear(long_sum, 1500, false, "a sum of n terms"); }

/* The bound that makes the sum linear drops only the outermost in-progress matches,
 * which here match nothing: every term's `lane % 32` is still found, and the findings
 * say they may be incomplete (the CLI warns). */
Test(scaling, long_sum_keeps_its_findings) {
  const size_t n = 3000;
  char *text = long_sum(n);
  tt_source *src = tts_source("scale.cu", text, TT_LANG_CUDA);
  tt_tree *tree = tt_tree_parse(src);
  tt_findings fs = {0};
  tt_match_tree(book, NULL, tree, &fs);
  size_t lane = 0;
  for (size_t i = 0; i < fs.n; i++) lane += strcmp(fs.items[i].rule->id, "hip-lane-id-32") == 0;
  cr_expect_eq(lane, n - 1, "one hip-lane-id-32 finding per term: %zu of %zu", lane, n - 1);
  cr_expect(fs.incomplete, "past the match bound the findings are marked incomplete");
  tt_findings_free(&fs);
  tt_tree_free(tree);
  tt_source_free(src);
  free(text);
}
