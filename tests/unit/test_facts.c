/* Constants (#tt-int-eq? through macros, consts and local includes), classifier facts
 * (#tt-fact?) and #tt-file-match?. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/consts.h"
#include "rules/match.h"
#include "rules/rule_load.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/fs.h"

static bool eval(const char *expr, int64_t *v) { return tt_consts_eval(NULL, expr, strlen(expr), v); }

Test(consts, evaluates_integer_expressions) {
  int64_t v;
  cr_assert(eval("16", &v) && v == 16);
  cr_assert(eval("32 / 2", &v) && v == 16);
  cr_assert(eval("(1 << 5) - 1", &v) && v == 31);
  cr_assert(eval("0xffffffffu & ~0xf", &v) && v == 0xfffffff0);
  cr_assert(eval("-(2 + 3) * 4 % 7", &v) && v == -6);
  cr_assert(eval("1 | 2 ^ 3", &v) && v == 1); /* ^ binds tighter than | */
  cr_expect_not(eval("1 / 0", &v), "division by zero is not a constant");
  cr_expect_not(eval("WARP / 2", &v), "unknown names are not constants");
  cr_expect_not(eval("a && b", &v));
  cr_expect_not(eval("2 +", &v));
}

static const char *INT_EQ_16 =
    "query: |\n  ((init_declarator value: (_) @v) (#tt-int-eq? @v 16))\n"
    "examples:\n  - match: \"int x = 16;\"\n";

Test(consts, int_eq_sees_through_macros_and_consts) {
  tt_rule *r = tts_rule_of("cuda", "`{{v}}`", INT_EQ_16);
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "#define WARP 32\nvoid f() { int o = WARP / 2; }\n", NULL), 1);
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "#define HALF (WARP >> 1)\n#define WARP 32\nvoid f() { int o = HALF; }\n", NULL), 1);
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "constexpr int kW = 32;\nvoid f() { int o = kW / 2; }\n", NULL), 1);
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "#define WARP 64\nvoid f() { int o = WARP / 2; }\n", NULL), 0);
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "#define A B\n#define B A\nvoid f() { int o = A; }\n", NULL), 0,
               "recursive macros terminate");
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "void f(int w) { int o = w / 2; }\n", NULL), 0);
  tt_rule_free(r);
}

Test(consts, int_eq_reads_local_includes) {
  char *dir = tts_tmpdir();
  char *hdr = tt_fs_join(dir, "warp.cuh"), *src = tt_fs_join(dir, "k.cu");
  tts_write(hdr, "#pragma once\n#define WARP_SZ 32\n");
  tts_write(src, "#include \"warp.cuh\"\nvoid f() { int o = WARP_SZ / 2; }\n");
  tt_rule *r = tts_rule_of("cuda", "`{{v}}`", INT_EQ_16);
  char *text;
  size_t len;
  cr_assert_eq(tt_fs_read(src, &text, &len, NULL), 0);
  tt_source *s = tt_source_new(src, text, len, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  tt_findings fs = {0};
  char *err = NULL;
  cr_assert_eq(tt_match_rule(r, NULL, t, &fs, &err), 0);
  cr_expect_eq(fs.n, 1, "the constant comes from the included header");
  tt_findings_free(&fs);
  tt_tree_free(t);
  tt_source_free(s);
  tt_rule_free(r);
  tts_rmrf(dir);
  free(hdr);
  free(src);
  free(dir);
}

Test(predicates, file_match) {
  tt_rule *r = tts_rule_of("cuda", "`{{n}}`",
                           "query: |\n  ((number_literal) @n (#tt-file-match? @n \"__global__\"))\n"
                           "examples:\n  - match: \"__global__ void k() { int x = 1; }\"\n");
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "__global__ void k() { int x = 1; }\n", NULL), 1);
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "void h() { int x = 1; }\n", NULL), 0);
  tt_rule_free(r);
}

/* A classifier and a rule reading its fact, loaded together as a rulebook. */
static tt_rulebook *strategy_book(char **dir_out) {
  char *dir = tts_tmpdir();
  char *a = tt_fs_join(dir, "classify.yaml"), *b = tt_fs_join(dir, "use.yaml");
  tts_write(a, "id: t-strategy\ntarget: hip\nlanguage: cuda\ncategory: warp-size\nseverity: note\n"
               "summary: s\nmessage: \"`{{function}}`: {{label}} ({{reason}}; `{{evidence}}`)\"\nexplain: e\n"
               "analyzer: classify-functions\noptions:\n  fact: strategy\n  functions: \"__global__|__device__\"\n"
               "  default: native\n  labels:\n    - label: logical32\n      when: \"&\\\\s*31\\\\b\"\n"
               "      reason: lane ids from 32\n"
               "examples:\n  - match: \"__global__ void k() { int l = threadIdx.x & 31; }\"\n");
  tts_write(b, "id: t-use\ntarget: hip\nlanguage: cuda\ncategory: warp-size\nseverity: warning\n"
               "summary: s\nmessage: m\nexplain: e\n"
               "query: |\n  ((identifier) @w (#eq? @w \"warpSize\") (#tt-fact? @w \"strategy\" \"logical32\"))\n"
               "fix:\n  description: d\n  edits:\n    - capture: w\n      replacement: \"32\"\n"
               "examples:\n  - match: \"__global__ void k() { int l = threadIdx.x & 31; int w = warpSize; }\"\n"
               "    fixed: \"__global__ void k() { int l = threadIdx.x & 31; int w = 32; }\"\n"
               "  - no_match: \"__global__ void k() { int w = warpSize; }\"\n");
  char *err = NULL;
  const char *dirs[] = {dir};
  tt_rulebook *book = tt_rulebook_load(dirs, 1, &err);
  cr_assert_not_null(book, "%s", err ? err : "");
  free(a);
  free(b);
  *dir_out = dir;
  return book;
}

Test(facts, classifier_labels_functions_and_rules_follow_them) {
  char *dir;
  tt_rulebook *book = strategy_book(&dir);
  const char *code =
      "__device__ int lane() { return threadIdx.x & 31; }\n"
      "__global__ void a(int *o) { o[0] = warpSize + lane(); }\n"
      "__global__ void b(int *o) { int l = threadIdx.x & 31; o[l] = warpSize; }\n"
      "void host() { int w = warpSize; }\n";
  tt_source *s = tts_source("k.cu", code, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(s);
  tt_findings fs = {0};
  tt_match_tree(book, NULL, t, &fs);
  size_t notes = 0, uses = 0;
  for (size_t i = 0; i < fs.n; i++) {
    if (!strcmp(fs.items[i].rule->id, "t-strategy")) {
      notes++;
      if (strstr(fs.items[i].message, "`a`")) cr_expect(strstr(fs.items[i].message, "native"), "%s", fs.items[i].message);
      if (strstr(fs.items[i].message, "`b`"))
        cr_expect(strstr(fs.items[i].message, "logical32 (lane ids from 32; `& 31`)"), "%s", fs.items[i].message);
    } else {
      uses++;
      cr_expect_eq(fs.items[i].start_pos.line, 3, "only warpSize inside the logical32 kernel b");
    }
  }
  cr_expect_eq(notes, 3, "lane, a and b are classified; the host function is not");
  cr_expect_eq(uses, 1);
  tt_findings_free(&fs);
  tt_tree_free(t);
  tt_source_free(s);
  tt_rulebook_free(book);
  tts_rmrf(dir);
  free(dir);
}

Test(facts, classifier_options_are_validated) {
  char *err = NULL;
  tt_rule *r = tts_rule("id: t\ntarget: hip\nlanguage: cuda\ncategory: warp-size\nseverity: note\nsummary: s\n"
                        "message: m\nexplain: e\nanalyzer: classify-functions\noptions:\n  fact: f\n"
                        "  functions: \"(\"\n  default: d\n  labels: []\nexamples:\n  - match: x\n",
                        &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  cr_expect(strstr(err, "`functions`: bad regex") != NULL, "%s", err);
  free(err);
}

Test(consts, ambiguous_definitions_have_no_value) {
  tt_rule *r = tts_rule_of("cuda", "`{{v}}`", INT_EQ_16);
  const char *code = "#ifdef __HIP_PLATFORM_AMD__\n#define HALF 32\n#else\n#define HALF 16\n#endif\n"
                     "void f() { int o = HALF; }\n";
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, code, NULL), 0, "HALF is 16 or 32 depending on the platform");
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "#define H 16\n#define H 16\nvoid f() { int o = H; }\n", NULL), 1,
               "the same value twice is still known");
  tt_rule_free(r);
}

Test(predicates, not_int_eq) {
  tt_rule *r = tts_rule_of("cuda", "`{{v}}`",
                           "query: |\n  ((init_declarator value: (number_literal) @v) (#tt-not-int-eq? @v 16 0x10))\n"
                           "examples:\n  - match: \"int x = 15;\"\n");
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, "void f() { int a = 15, b = 0x10, c = 16, d = 17; }\n", NULL), 2);
  tt_rule_free(r);
}

/* A classifier that reports only logical32 and lets helpers inherit from callers. */
static tt_rule *inheriting_classifier(void) {
  return tts_rule_of("cuda", "`{{function}}` {{label}}: {{reason}}",
                     "analyzer: classify-functions\noptions:\n  fact: s\n  functions: \"__global__|__device__\"\n"
                     "  default: native\n  report: [logical32]\n  inherit_from_callers: \"true\"\n"
                     "  labels:\n    - label: logical32\n      when: \"&\\\\s*31\"\n      reason: lane ids from 32\n"
                     "    - label: native\n      when: \"0x[fF]{16}\"\n      reason: 64-bit masks\n"
                     "examples:\n  - match: \"__global__ void k() { int l = threadIdx.x & 31; }\"\n");
}

Test(facts, helpers_inherit_their_callers_label) {
  tt_rule *r = inheriting_classifier();
  tt_findings fs = {0};
  const char *code = "__device__ float leaf(float v) { return v * warpSize; }\n"
                     "__device__ float mid(float v) { return leaf(v); }\n"
                     "__global__ void k(float *o) { int l = threadIdx.x & 31; o[l] = mid(o[l]); }\n"
                     "__global__ void other(float *o) { o[0] = 1.f; }\n";
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 3, "k, and mid and leaf through the call chain");
  cr_expect(strstr(fs.items[0].message, "`leaf` logical32: called from `mid` (logical32)"), "%s", fs.items[0].message);
  cr_expect(strstr(fs.items[1].message, "`mid` logical32: called from `k` (logical32)"), "%s", fs.items[1].message);
  cr_expect(strstr(fs.items[2].message, "`k` logical32: lane ids from 32"), "%s", fs.items[2].message);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(facts, callers_that_disagree_leave_the_default) {
  tt_rule *r = inheriting_classifier();
  const char *code = "__device__ float h(float v) { return v * warpSize; }\n"
                     "__global__ void a(float *o) { int l = threadIdx.x & 31; o[l] = h(o[l]); }\n"
                     "__global__ void b(float *o) { o[0] = h(o[0]) + (0xffffffffffffffffull & 1); }\n"
                     "__global__ void c(float *o) { o[0] = h(o[0]); }\n";
  cr_expect_eq(tts_match(r, TT_LANG_CUDA, code, NULL), 1,
               "only a: b has native evidence, so h keeps the default (c, with no evidence, has no say)");
  tt_rule_free(r);
}

/* The shipped strategy classifier, loaded from rules/: evidence is code, launches and
 * callees count, one strategy per call tree. */
static tt_rule *shipped_strategy(void) {
  char *err = NULL;
  tt_rule *r = tt_rule_load(TT_SOURCE_DIR "/rules/hip/warp/hip-warp-strategy.yaml", &err);
  cr_assert_not_null(r, "%s", err ? err : "");
  return r;
}

Test(facts, comments_and_strings_are_no_evidence) {
  tt_rule *r = shipped_strategy();
  tt_findings fs = {0};
  const char *code = "// each warp of 32 lanes: tid / 32\n"
                     "__global__ void k(float *o) { /* & 31 */ const char *s = \"/ 32\"; o[threadIdx.x % warpSize] = s[0]; }\n";
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 1);
  cr_expect(strstr(fs.items[0].message, "strategy native"), "%s", fs.items[0].message);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(facts, a_kernel_follows_its_callee_and_its_launch) {
  tt_rule *r = shipped_strategy();
  tt_findings fs = {0};
  const char *code =
      "__device__ float wsum(float v) { for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o); return v; }\n"
      "__global__ void uses(float *o) { o[threadIdx.x / warpSize] = wsum(o[threadIdx.x]); }\n"
      "__global__ void cols(float *o) { o[blockIdx.x * warpSize + threadIdx.x % warpSize] += 1.f; }\n"
      "void host(float *o, int OC) { const int grid = OC / 32; cols<<<grid, 128>>>(o); }\n";
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 3);
  cr_expect(strstr(fs.items[1].message, "`uses`: porting strategy logical32 (calls `wsum` (logical32)"), "%s",
            fs.items[1].message);
  cr_expect(strstr(fs.items[2].message, "`cols`: porting strategy logical32 (the host counts 32-lane warps at its launch; evidence `/ 32`"),
            "%s", fs.items[2].message);
  tt_findings_free(&fs);
  tt_rule_free(r);
}

Test(facts, a_helper_under_two_strategies_says_why_it_is_not_specialised) {
  tt_rule *r = shipped_strategy();
  tt_findings fs = {0};
  const char *code = "__device__ float h(float v) { return __shfl_xor(v, 1) * warpSize; }\n"
                     "__global__ void a(float *o) { o[threadIdx.x & 31] = h(__shfl_xor_sync(0xffffffff, o[0], 1)); }\n"
                     "__global__ void b(float *o) { o[0] = h(o[0]) + (float)(__ballot(1) & 0xffffffffffffffffull); }\n";
  cr_assert_eq(tts_match(r, TT_LANG_CUDA, code, &fs), 3);
  cr_expect(strstr(fs.items[0].message, "called under two strategies (logical32 from `a`, native from `b`)"), "%s",
            fs.items[0].message);
  tt_findings_free(&fs);
  tt_rule_free(r);
}
