/* test_predicate.c — every predicate of docs/rule-format.md, through rules loaded from
 * YAML and matched with tt_match_rule, plus tt_parse_int_literal. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/predicate.h"
#include "support.h"
#include "util/util.h"

/* A cuda (or `lang`) rule whose query is `query` (a block scalar). */
static tt_rule *qrule(const char *lang, const char *query) {
  tt_buf b = {0};
  tt_buf_puts(&b, "query: |\n");
  for (const char *p = query; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    tt_buf_puts(&b, "  ");
    tt_buf_append(&b, p, n);
    tt_buf_putc(&b, '\n');
    p += n + (nl ? 1 : 0);
  }
  tt_rule *r = tts_rule_of(lang, "hit", b.data);
  tt_buf_free(&b);
  return r;
}

/* Texts of the findings of `query` over `code`, joined with ','. */
static char *hits(const char *lang, const char *query, const char *code) {
  tt_rule *r = qrule(lang, query);
  tt_findings fs = {0};
  tt_lang l = tt_lang_from_name(lang);
  tts_match(r, l, code, &fs);
  tt_buf b = {0};
  for (size_t i = 0; i < fs.n; i++) {
    if (i) tt_buf_putc(&b, ',');
    tt_buf_append(&b, code + fs.items[i].start, fs.items[i].end - fs.items[i].start);
  }
  tt_findings_free(&fs);
  tt_rule_free(r);
  return tt_buf_steal(&b);
}

#define EXPECT_HITS(lang, query, code, want)                                 \
  do {                                                                       \
    char *got_ = hits(lang, query, code);                                    \
    cr_expect_str_eq(got_, want, "query %s\non: %s\ngot `%s`, want `%s`", query, code, got_, want);           \
    free(got_);                                                              \
  } while (0)

static const char *const CALLS = "void f() { foo(1); bar(2); food(3); Foo(4); }\n";

Test(predicate, eq_string) {
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#eq? @fn \"foo\"))", CALLS, "foo");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#not-eq? @fn \"foo\"))", CALLS, "bar,food,Foo");
  /* No partial or case-insensitive match. */
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#eq? @fn \"fo\"))", CALLS, "");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#eq? @fn \"FOO\"))", CALLS, "");
}

Test(predicate, eq_capture) {
  const char *code = "void f() { x = x; y = z; a = a + 1; }\n";
  EXPECT_HITS("cuda",
              "((assignment_expression left: (identifier) @l right: (identifier) @r) @match (#eq? @l @r))",
              code, "x = x");
  EXPECT_HITS("cuda",
              "((assignment_expression left: (identifier) @l right: (identifier) @r) @match (#not-eq? @l @r))",
              code, "y = z");
}

Test(predicate, match_regex) {
  /* Unanchored by default. */
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#match? @fn \"oo\"))", CALLS, "foo,food,Foo");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#match? @fn \"^foo$\"))", CALLS, "foo");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#match? @fn \"^(?i)foo$\"))", CALLS, "foo,Foo");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#not-match? @fn \"^f\"))", CALLS, "bar,Foo");
}

Test(predicate, any_of) {
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#any-of? @fn \"bar\" \"Foo\" \"baz\"))", CALLS,
              "bar,Foo");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#not-any-of? @fn \"bar\" \"Foo\"))", CALLS,
              "foo,food");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#any-of? @fn \"fo\"))", CALLS, "");
}

Test(predicate, python_and_julia) {
  EXPECT_HITS("python", "((call function: (identifier) @fn) (#eq? @fn \"print\"))", "print(1)\nlen(x)\nprint(2)\n",
              "print,print");
  EXPECT_HITS("julia", "((call_expression (identifier) @fn) (#match? @fn \"^sync\"))",
              "sync_threads()\nfoo(1)\nsync_warp()\n", "sync_threads,sync_warp");
}

Test(predicate, int_eq_spellings) {
  const char *code =
      "int a = 0xffffffff;\n"
      "int b = 0xFFFFFFFFu;\n"
      "int c = 4294967295;\n"
      "int d = 037777777777;\n"
      "int e = 0b11111111111111111111111111111111;\n"
      "int f = 4'294'967'295;\n"
      "int g = 0xFFFF'FFFFUL;\n"
      "int h = 0xfffffffe;\n"
      "int i = 0xffffffffffffffffull;\n"
      "int j = 4294967295.0;\n"
      "int k = 0x1ffffffff;\n";
  tt_rule *r = qrule("cuda", "((number_literal) @n (#tt-int-eq? @n 0xffffffff))");
  tt_findings fs = {0};
  tts_match(r, TT_LANG_CUDA, code, &fs);
  const char *want[] = {"0xffffffff", "0xFFFFFFFFu", "4294967295", "037777777777",
                        "0b11111111111111111111111111111111", "4'294'967'295", "0xFFFF'FFFFUL"};
  cr_expect_eq(fs.n, 7u, "got %zu findings", fs.n);
  for (size_t i = 0; i < fs.n && i < 7; i++) {
    size_t n = fs.items[i].end - fs.items[i].start;
    cr_expect(n == strlen(want[i]) && memcmp(code + fs.items[i].start, want[i], n) == 0, "finding %zu: `%.*s`", i,
              (int)n, code + fs.items[i].start);
  }
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(predicate, int_eq_several_values_and_spelled_values) {
  const char *code = "int a = 1000; int b = 0x3e8; int c = 64; int d = 65; int e = 1'000u;\n";
  EXPECT_HITS("cuda", "((number_literal) @n (#tt-int-eq? @n \"1'000\" 0b1000000))", code, "1000,0x3e8,64,1'000u");
  EXPECT_HITS("cuda", "((number_literal) @n (#tt-int-eq? @n 65))", code, "65");
}

Test(predicate, int_eq_rejects_bad_value_at_load) {
  char *err = NULL;
  tt_rule *r = tts_rule("id: t\ntarget: hip\nlanguage: cuda\ncategory: numeric\nseverity: note\nsummary: s\n"
                        "message: m\nexplain: e\nquery: '((number_literal) @n (#tt-int-eq? @n 0xZZ))'\n"
                        "examples:\n  - match: x\n",
                        &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "0xZZ") != NULL, "%s", err);
  free(err);
  tt_rule_free(r);
}

Test(predicate, inside_and_not_inside) {
  const char *code =
      "void f(int n) {\n"
      "  for (int i = 0; i < n; i++) { g(i); }\n"
      "  while (n--) { w(n); }\n"
      "  h(n);\n"
      "}\n";
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#tt-inside? @fn \"for_statement\"))", code, "g");
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#tt-inside? @fn \"for_statement\" \"while_statement\"))",
              code, "g,w");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#tt-not-inside? @fn \"for_statement\"))", code,
              "w,h");
  /* The node's own type is not an ancestor. */
  EXPECT_HITS("cuda", "((call_expression) @c (#tt-inside? @c \"call_expression\"))", code, "");
  EXPECT_HITS("cuda", "((call_expression function: (identifier) @fn) (#tt-inside? @fn \"function_definition\"))", code,
              "g,w,h");
}

Test(predicate, in_function_match) {
  const char *code =
      "__global__ void kern(float *x) { a(); }\n"
      "__device__ float dev(float y) { return b(); }\n"
      "int top = c();\n";
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#tt-in-function-match? @fn \"^__global__\"))", code, "a");
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#tt-in-function-match? @fn \"float y\"))", code, "b");
  /* Not inside a matching function: `b` and the top-level `c` (no function at all). */
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#tt-not-in-function-match? @fn \"^__global__\"))", code,
              "b,c");
}

Test(predicate, not_guarded) {
  const char *code =
      "#ifdef __HIP_PLATFORM_AMD__\n"
      "void a() { x1(); }\n"
      "#else\n"
      "void b() { x2(); }\n"
      "#endif\n"
      "#if defined(__HIP_PLATFORM_AMD__) && FOO\n"
      "void c() { x3(); }\n"
      "#endif\n"
      "#if BAR\n"
      "void d0() { u1(); }\n"
      "#ifndef __HIP_PLATFORM_AMD__\n"
      "void d() { x4(); }\n"
      "#endif\n"
      "#endif\n"
      "#if X\n"
      "void e0() { u2(); }\n"
      "#elif defined(__HIP_PLATFORM_AMD__)\n"
      "void e() { x5(); }\n"
      "#endif\n"
      "#ifdef __HIP_PLATFORM_AMD___X\n"
      "void g() { u3(); }\n"
      "#endif\n"
      "void h() {\n"
      "#if __HIP_PLATFORM_AMD__\n"
      "  x6();\n"
      "#endif\n"
      "  u4();\n"
      "}\n"
      "// __HIP_PLATFORM_AMD__\n"
      "void k() { u5(); }\n";
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#tt-not-guarded? @fn \"__HIP_PLATFORM_AMD__\"))", code,
              "u1,u2,u3,u4,u5");
  /* Several names: any of them guards. */
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#tt-not-guarded? @fn \"__HIP_PLATFORM_AMD__\" \"BAR\" \"X\"))",
              code, "u3,u4,u5");
}

Test(predicate, file_not_match) {
  const char *q = "((identifier) @id (#eq? @id \"x\") (#tt-file-not-match? @id \"hip_runtime\\\\.h\"))";
  EXPECT_HITS("cuda", q, "int x;\n", "x");
  EXPECT_HITS("cuda", q, "#include <hip/hip_runtime.h>\nint x;\n", "");
  EXPECT_HITS("cuda", q, "// hip_runtimeXh\nint x;\n", "x");
}

Test(predicate, several_predicates_all_must_hold) {
  EXPECT_HITS("cuda",
              "((call_expression function: (identifier) @fn) (#match? @fn \"^f\") (#not-eq? @fn \"food\"))", CALLS,
              "foo");
}

Test(predicate, several_nodes_of_one_capture_all_must_hold) {
  /* Two nodes captured under one name: the predicate must hold for both. */
  const char *code = "void f() { g(a + a); h(a + b); k(b + a); m(b + b); }\n";
  EXPECT_HITS("cuda", "((binary_expression left: (identifier) @x right: (identifier) @x) @match (#eq? @x \"a\"))", code,
              "a + a");
  EXPECT_HITS("cuda", "((binary_expression left: (identifier) @x right: (identifier) @x) @match (#not-eq? @x \"a\"))",
              code, "b + b");
  EXPECT_HITS("cuda",
              "((binary_expression left: (identifier) @x right: (identifier) @x) @match (#any-of? @x \"a\" \"b\"))", code,
              "a + a,a + b,b + a,b + b");
}

Test(predicate, parse_int_literal_direct) {
  static const struct {
    const char *s;
    bool ok;
    uint64_t v;
  } cases[] = {
      {"0", true, 0},
      {"00", true, 0},
      {"0u", true, 0},
      {"7", true, 7},
      {"42ull", true, 42},
      {"42LLU", true, 42},
      {"42uz", true, 42},
      {"0x1F", true, 31},
      {"0X1f", true, 31},
      {"0xffffffff", true, 0xffffffffu},
      {"0xFFFFFFFFu", true, 0xffffffffu},
      {"4294967295", true, 4294967295u},
      {"037777777777", true, 0xffffffffu},
      {"017", true, 15},
      {"0b101", true, 5},
      {"0B1", true, 1},
      {"1'000", true, 1000},
      {"0x7fff'ffff", true, 0x7fffffff},
      {"0b1111'0000", true, 0xf0},
      {"0xFFFFFFFFFFFFFFFF", true, UINT64_MAX},
      {"18446744073709551615", true, UINT64_MAX},
      {"", false, 0},
      {"u", false, 0},
      {"0x", false, 0},
      {"0b", false, 0},
      {"08", false, 0},
      {"0b102", false, 0},
      {"abc", false, 0},
      {"1.5", false, 0},
      {"1e5", false, 0},
      {"-1", false, 0},
      {"0x1g", false, 0},
      {"12 ", false, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint64_t v = 12345;
    bool ok = tt_parse_int_literal(cases[i].s, strlen(cases[i].s), &v);
    cr_expect_eq(ok, cases[i].ok, "`%s`: ok=%d", cases[i].s, ok);
    if (ok && cases[i].ok) cr_expect_eq(v, cases[i].v, "`%s`: %llu", cases[i].s, (unsigned long long)v);
  }
  /* Only the first n bytes count. */
  uint64_t v = 0;
  cr_expect(tt_parse_int_literal("1234", 2, &v));
  cr_expect_eq(v, 12u);
}

Test(predicate, parse_int_literal_overflow_is_not_a_value) {
  /* 2^64 + 0xffffffff does not fit 64 bits: it must not read as 0xffffffff (which would
   * make #tt-int-eq? 0xffffffff match it). */
  uint64_t v = 0;
  bool ok = tt_parse_int_literal("0x100000000ffffffff", 19, &v);
  cr_expect(!ok || v != 0xffffffffu, "overflowing literal parsed as %#llx", (unsigned long long)v);
  ok = tt_parse_int_literal("18446744073709551616", 20, &v); /* 2^64 */
  cr_expect(!ok, "2^64 parsed as %llu", (unsigned long long)v);
}

Test(predicate, int_eq_overflowing_literal_does_not_match) {
  EXPECT_HITS("cuda", "((number_literal) @n (#tt-int-eq? @n 0xffffffff))", "unsigned __int128 x = 0x100000000ffffffff;\n",
              "");
}

/* Fills the stack below the caller with a pattern, so that uninitialised locals of the
 * next calls are not accidentally zero. */
static __attribute__((noinline)) void dirty_stack(void) {
  volatile unsigned char junk[1 << 16];
  memset((void *)junk, 0xA5, sizeof junk);
  junk[0] = junk[sizeof junk - 1];
}

Test(predicate, unknown_predicate_error_path_is_safe) {
  /* An unknown predicate name is rejected before the predicate being compiled is
   * initialised; the error path must not free whatever the stack held. */
  for (int i = 0; i < 3; i++) {
    dirty_stack();
    char *err = NULL;
    tt_rule *r = tts_rule("id: t\ntarget: hip\nlanguage: cuda\ncategory: numeric\nseverity: note\nsummary: s\n"
                          "message: m\nexplain: e\nquery: '((identifier) @n (#no-such-pred? @n \"x\"))'\n"
                          "examples:\n  - match: x\n",
                          &err);
    cr_expect_null(r);
    cr_assert_not_null(err);
    cr_expect(strstr(err, "no-such-pred?") != NULL, "%s", err);
    free(err);
    tt_rule_free(r);
  }
}
