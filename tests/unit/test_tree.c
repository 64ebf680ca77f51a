/* test_tree.c — parsing the three grammars and the error regions edits must avoid. */
#include <criterion/criterion.h>
#include <string.h>

#include "parser/tree.h"
#include "support.h"
#include "util/util.h"

static uint32_t off(const char *text, const char *needle) {
  const char *p = strstr(text, needle);
  cr_assert_not_null(p, "`%s` not in text", needle);
  return (uint32_t)(p - text);
}

typedef struct { int n; const char *type; int found; } count_ctx;
static bool count_type(TSNode n, void *vctx) {
  count_ctx *c = vctx;
  c->n++;
  if (!strcmp(ts_node_type(n), c->type)) c->found++;
  return true;
}

static int count_nodes(const tt_tree *t, const char *type) {
  count_ctx c = {0, type, 0};
  tt_tree_walk(ts_tree_root_node(t->ts), count_type, &c);
  return c.found;
}

Test(tree, parses_cuda) {
  const char *code =
      "#include <cuda_runtime.h>\n"
      "__global__ void k(float *x, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) x[i] *= 2.0f;\n"
      "}\n"
      "void launch(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); }\n";
  tt_source *s = tts_source("k.cu", code, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  cr_expect_eq(t->src, s);
  cr_expect_eq(t->n_errors, 0u, "valid CUDA (with <<<>>>) has no error region");
  cr_expect_str_eq(ts_node_type(ts_tree_root_node(t->ts)), "translation_unit");
  cr_expect_eq(count_nodes(t, "function_definition"), 2);
  cr_expect_eq(count_nodes(t, "kernel_call_syntax"), 1);
  cr_expect(!tt_tree_in_error(t, 0, s->len));
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, parses_python) {
  const char *code =
      "import triton\n"
      "import triton.language as tl\n"
      "@triton.jit\n"
      "def add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
      "    pid = tl.program_id(0)\n"
      "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
      "    tl.store(x_ptr + offs, tl.load(y_ptr + offs), mask=offs < n)\n";
  tt_source *s = tts_source("k.py", code, TT_LANG_PYTHON);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  cr_expect_eq(t->n_errors, 0u);
  cr_expect_str_eq(ts_node_type(ts_tree_root_node(t->ts)), "module");
  cr_expect_eq(count_nodes(t, "function_definition"), 1);
  cr_expect_eq(count_nodes(t, "decorated_definition"), 1);
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, parses_julia) {
  const char *code =
      "using cuTile\n"
      "function vadd(a, b, c)\n"
      "    i = bid(1)\n"
      "    c[i] = a[i] + b[i]\n"
      "    return nothing\n"
      "end\n";
  tt_source *s = tts_source("k.jl", code, TT_LANG_JULIA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  cr_expect_eq(t->n_errors, 0u);
  cr_expect_str_eq(ts_node_type(ts_tree_root_node(t->ts)), "source_file");
  cr_expect_eq(count_nodes(t, "function_definition"), 1);
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, no_grammar_gives_null) {
  tt_source *s = tts_source("x.txt", "hello", TT_LANG_NONE);
  cr_expect_null(tt_tree_parse(s));
  tt_source_free(s);
}

Test(tree, error_region_cuda) {
  const char *code =
      "int good_before(int a) { return a + 1; }\n"
      "void broken() { foo(1, ]; }\n"
      "int good_after(int b) { return b * 2; }\n";
  tt_source *s = tts_source("e.cu", code, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  cr_assert_gt(t->n_errors, 0u);
  for (size_t i = 1; i < t->n_errors; i++)
    cr_expect_leq(t->errors[i - 1].start, t->errors[i].start, "errors sorted by start");
  uint32_t bl = off(code, "void broken"), ga = off(code, "int good_after");
  /* Inside the broken function. */
  uint32_t br = off(code, "]");
  cr_expect(tt_tree_in_error(t, bl, ga), "the broken line is in error");
  cr_expect(tt_tree_in_error(t, br, br + 1), "the stray `]` is in error");
  cr_expect(tt_tree_in_error(t, br, br), "an insertion at the stray `]`");
  uint32_t foo = off(code, "foo(");
  cr_expect(tt_tree_in_error(t, foo, foo + 3), "the whole broken statement is untrusted");
  /* The functions around it are not. */
  uint32_t a1 = off(code, "a + 1");
  cr_expect(!tt_tree_in_error(t, a1, a1 + 5), "good_before is not in error");
  cr_expect(!tt_tree_in_error(t, 0, 3), "`int` of good_before");
  uint32_t b2 = off(code, "b * 2");
  cr_expect(!tt_tree_in_error(t, b2, b2 + 5), "good_after is not in error");
  cr_expect(!tt_tree_in_error(t, b2, b2), "an insertion in good_after");
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, error_region_python) {
  const char *code =
      "def ok(a):\n"
      "    return a + 1\n"
      "\n"
      "def bad(:\n"
      "    pass\n"
      "\n"
      "z = ok(2)\n";
  tt_source *s = tts_source("e.py", code, TT_LANG_PYTHON);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_gt(t->n_errors, 0u);
  uint32_t bad = off(code, "def bad(:"), bad_end = bad + 9;
  cr_expect(tt_tree_in_error(t, bad, bad_end));
  uint32_t a1 = off(code, "a + 1");
  cr_expect(!tt_tree_in_error(t, a1, a1 + 5));
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, missing_token_region) {
  /* A missing ';' makes tree-sitter invent a zero-width MISSING token; the construct it
   * belongs to is reported as the error region. */
  const char *code = "void f() { int x = 1 }\nvoid g() { int y = 2; }\n";
  tt_source *s = tts_source("m.cu", code, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_gt(t->n_errors, 0u);
  uint32_t one = off(code, "1 }");
  cr_expect(tt_tree_in_error(t, one, one + 1), "the declaration missing its ';'");
  uint32_t two = off(code, "2;");
  cr_expect(!tt_tree_in_error(t, two, two + 1));
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, in_error_boundaries) {
  /* tt_tree_in_error over a hand-made region [10, 20). */
  tt_source *s = tts_source("x.cu", "int a;\n", TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_eq(t->n_errors, 0u);
  tt_span spans[2] = {{10, 20}, {30, 30}};
  tt_tree_set_errors(t, spans, 2);
  cr_expect(!tt_tree_in_error(t, 0, 10), "ends where the region starts");
  cr_expect(!tt_tree_in_error(t, 20, 25), "starts where the region ends");
  cr_expect(tt_tree_in_error(t, 9, 11));
  cr_expect(tt_tree_in_error(t, 19, 21));
  cr_expect(tt_tree_in_error(t, 12, 13));
  cr_expect(tt_tree_in_error(t, 0, 100));
  cr_expect(tt_tree_in_error(t, 10, 10), "an insertion at the region's start touches it");
  cr_expect(tt_tree_in_error(t, 20, 20), "an insertion at the region's end touches it");
  cr_expect(!tt_tree_in_error(t, 21, 21));
  cr_expect(tt_tree_in_error(t, 28, 32), "a range around a zero-width region");
  cr_expect(tt_tree_in_error(t, 30, 30));
  cr_expect(!tt_tree_in_error(t, 31, 40));
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, bom_parses_without_errors) {
  const char *cu = "\xEF\xBB\xBF#include <cstdio>\nint main() { return 0; }\n";
  tt_source *s = tts_source("b.cu", cu, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_expect_eq(t->n_errors, 0u, "CUDA with a BOM");
  TSNode root = ts_tree_root_node(t->ts);
  cr_expect(!ts_node_has_error(root));
  /* Node offsets are file offsets: the include starts after the BOM. */
  TSNode first = ts_node_named_child(root, 0);
  cr_expect_str_eq(ts_node_type(first), "preproc_include");
  cr_expect_eq(ts_node_start_byte(first), 3u);
  tt_tree_free(t);
  tt_source_free(s);

  const char *py = "\xEF\xBB\xBF" "def f():\n    return 1\n";
  s = tts_source("b.py", py, TT_LANG_PYTHON);
  t = tt_tree_parse(s);
  cr_expect_eq(t->n_errors, 0u, "Python with a BOM");
  tt_tree_free(t);
  tt_source_free(s);

  const char *jl = "\xEF\xBB\xBF" "f(x) = x + 1\n";
  s = tts_source("b.jl", jl, TT_LANG_JULIA);
  t = tt_tree_parse(s);
  cr_expect_eq(t->n_errors, 0u, "Julia with a BOM");
  tt_tree_free(t);
  tt_source_free(s);
}

static bool skip_functions(TSNode n, void *vctx) {
  count_ctx *c = vctx;
  if (!strcmp(ts_node_type(n), c->type)) c->found++;
  c->n++;
  return strcmp(ts_node_type(n), "function_definition") != 0;
}

Test(tree, walk_order_and_skip) {
  const char *code = "int a; void f() { int b; } int c;\n";
  tt_source *s = tts_source("w.cu", code, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  count_ctx all = {0, "identifier", 0}, skip = {0, "identifier", 0};
  tt_tree_walk(ts_tree_root_node(t->ts), count_type, &all);
  tt_tree_walk(ts_tree_root_node(t->ts), skip_functions, &skip);
  cr_expect_eq(all.found, 4, "a f b c");
  cr_expect_eq(skip.found, 2, "a c: the function's children are skipped");
  cr_expect_lt(skip.n, all.n);
  tt_tree_free(t);
  tt_source_free(s);
}

Test(tree, deep_nesting_does_not_crash) {
  /* 5000 nested parentheses: walking must be iterative. */
  tt_buf b = {0};
  tt_buf_puts(&b, "int x = ");
  for (int i = 0; i < 5000; i++) tt_buf_putc(&b, '(');
  tt_buf_putc(&b, '1');
  for (int i = 0; i < 5000; i++) tt_buf_putc(&b, ')');
  tt_buf_puts(&b, ";\n");
  tt_source *s = tts_source("d.cu", b.data, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  cr_assert_not_null(t);
  count_ctx c = {0, "parenthesized_expression", 0};
  tt_tree_walk(ts_tree_root_node(t->ts), count_type, &c);
  cr_expect_gt(c.found, 100);
  tt_tree_free(t);
  tt_source_free(s);
  tt_buf_free(&b);
}
