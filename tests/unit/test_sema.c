/* test_sema.c — the semantic layer (src/sema) over small files written by each test:
 * live branches per target, macros a header defines for HIP (through -I, --hip-define
 * and a compile database), expression types, instantiations, raw identifiers, the
 * unknown answers and their reasons; and the semantic predicates through the engine,
 * with findings marked unconfirmed when the layer is off.
 *
 * The typed view parses with the sim's shim headers (src/sim/include), never with an
 * installed CUDA toolkit, so these tests need none. A build without libclang runs the
 * last group only, which checks that every answer is then UNKNOWN with its reason. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rules/match.h"
#include "rules/rulebook.h"
#include "sema/tt_sema.h"
#include "support.h"
#include "util/util.h"

typedef struct fixture {
  char *dir, *path, *text;
  tt_sema *s;
  tt_sema_file *f;
} fixture;

/* Writes `text` as DIR/name (plus the extra files, name/text pairs, NULL-ended) and
 * opens it with options `o`. */
static fixture open_file(const tt_sema_options *o, const char *name, const char *text, ...) {
  fixture x = {0};
  x.dir = tts_tmpdir();
  va_list ap;
  va_start(ap, text);
  for (const char *n; (n = va_arg(ap, const char *));) {
    char *p = tt_xasprintf("%s/%s", x.dir, n);
    tts_write(p, va_arg(ap, const char *));
    free(p);
  }
  va_end(ap);
  x.path = tt_xasprintf("%s/%s", x.dir, name);
  tts_write(x.path, text);
  x.text = tt_xstrdup(text);
  x.s = tt_sema_new(o);
  x.f = tt_sema_file_new(x.s, x.path, x.text, strlen(x.text));
  return x;
}

static void close_file(fixture *x) {
  tt_sema_file_free(x->f);
  tt_sema_free(x->s);
  tts_rmrf(x->dir);
  free(x->dir);
  free(x->path);
  free(x->text);
}

/* Byte offset of the first `needle` in the fixture's text. */
static uint32_t at(const fixture *x, const char *needle) {
  const char *p = strstr(x->text, needle);
  cr_assert(p, "`%s` not in the test file", needle);
  return (uint32_t)(p - x->text);
}

#ifdef TT_HAVE_LIBCLANG

static const char *const hip_h =
    "#pragma once\n"
    "#if defined(GGML_USE_HIP)\n"
    "#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)\n"
    "#endif\n";

static const char *const common_cuh =
    "#if defined(GGML_USE_HIP)\n"
    "#include \"vendors/hip.h\"\n"
    "#endif\n"
    "__device__ float sum(float x) { return x + __shfl_xor_sync(0xffffffff, x, 1, 32); }\n";

Test(sema, live_branches_per_target) {
  fixture x = open_file(NULL, "k.cu",
                        "#ifdef __HIP_PLATFORM_AMD__\n"
                        "int amd_side;\n"
                        "#else\n"
                        "int cuda_side;\n"
                        "#endif\n"
                        "#if CUDA_VERSION >= 9000\n"
                        "int new_cuda;\n"
                        "#endif\n"
                        "int both;\n",
                        NULL);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "amd_side")), TT_SEMA_YES);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_CUDA, at(&x, "amd_side")), TT_SEMA_NO);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "cuda_side")), TT_SEMA_NO);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_CUDA, at(&x, "cuda_side")), TT_SEMA_YES);
  /* hipcc does not define CUDA_VERSION: a guard no tree-sitter list names. */
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "new_cuda")), TT_SEMA_NO);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_CUDA, at(&x, "new_cuda")), TT_SEMA_YES);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "both")), TT_SEMA_YES);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_CUDA, at(&x, "both")), TT_SEMA_YES);
  size_t n;
  const uint32_t *r = tt_sema_skipped(x.f, TT_SEMA_HIP, &n);
  cr_assert(r);
  cr_expect_eq(n, 2); /* the #else branch and the CUDA_VERSION one */
  cr_expect(r[0] < at(&x, "cuda_side") && r[1] > at(&x, "cuda_side"));
  close_file(&x);
}

Test(sema, header_redefines_a_name_for_hip) {
  const char *hip[] = {"GGML_USE_HIP"};
  tt_sema_options o = {.hip_defines = hip, .n_hip_defines = 1};
  fixture x = open_file(&o, "common.cuh", common_cuh, "vendors/hip.h", hip_h, NULL);
  uint32_t call = at(&x, "__shfl_xor_sync");
  tt_sema_macro m;
  cr_assert_eq(tt_sema_macro_at(x.f, TT_SEMA_HIP, call, &m), TT_SEMA_YES);
  cr_expect_str_eq(m.name, "__shfl_xor_sync");
  cr_expect(tt_str_ends_with(m.def_file, "/vendors/hip.h"), "defined in %s", m.def_file);
  cr_expect_eq(m.def_line, 3);
  cr_expect_eq(tt_sema_macro_at(x.f, TT_SEMA_CUDA, call, &m), TT_SEMA_NO);
  cr_expect_eq(tt_sema_hip_redefined(x.f, call), TT_SEMA_YES);
  /* Another name on the same line is no macro. */
  cr_expect_eq(tt_sema_hip_redefined(x.f, at(&x, "sum")), TT_SEMA_NO);
  close_file(&x);
}

Test(sema, without_the_hip_side_define_the_header_says_nothing) {
  fixture x = open_file(NULL, "common.cuh", common_cuh, "vendors/hip.h", hip_h, NULL);
  cr_expect_eq(tt_sema_hip_redefined(x.f, at(&x, "__shfl_xor_sync")), TT_SEMA_NO);
  close_file(&x);
}

Test(sema, include_dirs_and_missing_includes) {
  static const char *const main_cu =
      "#include \"compat.h\"\n"
      "__device__ float f(float x) { return __shfl_xor_sync(0xffffffff, x, 1); }\n";
  static const char *const compat_h =
      "#ifdef __HIP_PLATFORM_AMD__\n"
      "#define __shfl_xor_sync(m, v, l) __shfl_xor(v, l)\n"
      "#endif\n";
  /* Not found: the answer is UNKNOWN, and the reason names the include and the fix. */
  fixture x = open_file(NULL, "src/main.cu", main_cu, "inc/compat.h", compat_h, NULL);
  cr_expect_eq(tt_sema_hip_redefined(x.f, at(&x, "__shfl_xor_sync")), TT_SEMA_UNKNOWN);
  cr_assert(tt_sema_why(x.f));
  cr_expect(strstr(tt_sema_why(x.f), "compat.h") && strstr(tt_sema_why(x.f), "-I"), "%s", tt_sema_why(x.f));
  char *inc = tt_xasprintf("%s/inc", x.dir);
  const char *incs[] = {inc};
  tt_sema_options o = {.includes = incs, .n_includes = 1};
  tt_sema *s2 = tt_sema_new(&o);
  tt_sema_file *f2 = tt_sema_file_new(s2, x.path, x.text, strlen(x.text));
  cr_expect_eq(tt_sema_hip_redefined(f2, at(&x, "__shfl_xor_sync")), TT_SEMA_YES);
  tt_sema_file_free(f2);
  tt_sema_free(s2);
  free(inc);
  close_file(&x);
}

Test(sema, compile_database_found_upward_with_its_target) {
  fixture x = open_file(NULL, "src/ggml-cuda/common.cuh", common_cuh, "src/ggml-cuda/vendors/hip.h", hip_h, NULL);
  /* A HIP build's database: its -DGGML_USE_HIP belongs to the HIP view only. */
  char *db = tt_xasprintf("%s/build/compile_commands.json", x.dir);
  char *json = tt_xasprintf("[{\"directory\": \"%s/build\", \"file\": \"%s/src/ggml-cuda/other.cu\", "
                            "\"command\": \"/usr/bin/hipcc -DGGML_USE_HIP -I../src -x hip -c %s/src/ggml-cuda/other.cu\"}]",
                            x.dir, x.dir, x.dir);
  tts_write(db, json);
  /* A fresh session finds it (the fixture's was made before it existed; no cache). */
  tt_sema *s2 = tt_sema_new(NULL);
  tt_sema_file *f2 = tt_sema_file_new(s2, x.path, x.text, strlen(x.text));
  cr_expect_eq(tt_sema_hip_redefined(f2, at(&x, "__shfl_xor_sync")), TT_SEMA_YES);
  tt_sema_file_free(f2);
  tt_sema_free(s2);
  /* Given explicitly too. */
  tt_sema_options o = {.compile_commands = db};
  tt_sema *s3 = tt_sema_new(&o);
  tt_sema_file *f3 = tt_sema_file_new(s3, x.path, x.text, strlen(x.text));
  cr_expect_eq(tt_sema_hip_redefined(f3, at(&x, "__shfl_xor_sync")), TT_SEMA_YES);
  tt_sema_file_free(f3);
  tt_sema_free(s3);
  free(db);
  free(json);
  close_file(&x);
}

Test(sema, expression_types_through_typedef_auto_and_wrappers) {
  fixture x = open_file(NULL, "t.cu",
                        "#include <cstdint>\n"
                        "#include <cuda_runtime.h>\n"
                        "typedef unsigned mask_t;\n"
                        "__device__ mask_t vote(bool p) { return __ballot_sync(0xffffffffu, p); }\n"
                        "__global__ void k(float *y) {\n"
                        "  auto viaauto = vote(y[threadIdx.x] > 0);\n"
                        "  uint32_t direct = __ballot_sync(0xffffffffu, y[0] > 1);\n"
                        "  y[0] = (float)(viaauto + direct);\n"
                        "}\n",
                        NULL);
  const char *sp, *cn;
  uint32_t a = at(&x, "viaauto");
  cr_assert_eq(tt_sema_type_at(x.f, a, a + 7, &sp, &cn), TT_SEMA_YES, "%s", tt_sema_why(x.f));
  cr_expect_str_eq(sp, "mask_t");
  cr_expect_str_eq(cn, "unsigned int");
  uint32_t d = at(&x, "direct");
  cr_assert_eq(tt_sema_type_at(x.f, d, d + 6, &sp, &cn), TT_SEMA_YES);
  cr_expect_str_eq(sp, "uint32_t");
  cr_expect_str_eq(cn, "unsigned int");
  uint32_t call = at(&x, "vote(y");
  cr_assert_eq(tt_sema_type_at(x.f, call, call + strlen("vote(y[threadIdx.x] > 0)"), &sp, &cn), TT_SEMA_YES);
  cr_expect_str_eq(cn, "unsigned int");
  /* The shim's __ballot_sync (a macro) answers with the expansion's type. */
  uint32_t b = at(&x, "__ballot_sync(0xffffffffu, y");
  cr_assert_eq(tt_sema_type_at(x.f, b, b + strlen("__ballot_sync(0xffffffffu, y[0] > 1)"), &sp, &cn), TT_SEMA_YES);
  cr_expect_str_eq(cn, "unsigned int");
  close_file(&x);
}

Test(sema, explicit_instantiations_and_raw_identifiers) {
  fixture x = open_file(NULL, "i.cu",
                        "#include <cuda_runtime.h>\n"
                        "template <int W, typename T> __device__ T warp_sum(T x) { return x; }\n"
                        "template __device__ float warp_sum<32, float>(float);\n"
                        "extern template void launch_f<float>(float *, cudaStream_t);\n",
                        NULL);
  size_t n;
  const char *const *insts = tt_sema_instantiations(x.f, &n);
  cr_assert(insts);
  cr_assert_eq(n, 1);
  cr_expect_str_eq(insts[0], "warp_sum<32, float>");
  /* The line tree-sitter-cuda cannot parse: clang's lexer still finds its names. */
  uint32_t s = at(&x, "extern template"), e = (uint32_t)strlen(x.text);
  const uint32_t *ids = tt_sema_identifiers(x.f, s, e, &n);
  cr_assert(ids);
  tt_buf b = {0};
  for (size_t i = 0; i < n; i++) {
    tt_buf_append(&b, x.text + ids[2 * i], ids[2 * i + 1] - ids[2 * i]);
    tt_buf_putc(&b, ' ');
  }
  cr_expect_str_eq(b.data, "launch_f cudaStream_t ");
  tt_buf_free(&b);
  close_file(&x);
}

Test(sema, a_file_without_conditionals_needs_no_parse) {
  fixture x = open_file(NULL, "plain.cu", "#include <cuda_runtime.h>\n#define W 32\nint a = W;\n", NULL);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "a =")), TT_SEMA_YES);
  cr_expect_eq(tt_sema_hip_redefined(x.f, at(&x, "W;")), TT_SEMA_NO);
  /* A macro question still parses: W is a macro on both sides. */
  cr_expect_eq(tt_sema_macro_at(x.f, TT_SEMA_HIP, at(&x, "W;"), NULL), TT_SEMA_YES);
  cr_expect_eq(tt_sema_macro_at(x.f, TT_SEMA_CUDA, at(&x, "W;"), NULL), TT_SEMA_YES);
  close_file(&x);
}

/* The engine: a rule with the semantic predicates, over files on disk. */
static size_t lint_count(const char *rule_yaml, const char *path, const char *text, tt_sema *s, char **unconfirmed) {
  char *err = NULL;
  tt_rule *r = tts_rule(rule_yaml, &err);
  cr_assert(r, "%s", err);
  tt_rulebook *book = tt_rulebook_of_rule(r, NULL, &err);
  cr_assert(book, "%s", err);
  tt_source *src = tts_source(path, text, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(src);
  tt_findings fs = {0};
  tt_selection sel = {.sema = s};
  tt_match_tree(book, &sel, t, &fs);
  size_t n = fs.n;
  if (unconfirmed) *unconfirmed = n && fs.items[0].unconfirmed ? tt_xstrdup(fs.items[0].unconfirmed) : NULL;
  tt_findings_free(&fs);
  tt_tree_free(t);
  tt_source_free(src);
  tt_rulebook_free(book);
  tt_rule_free(r);
  return n;
}

static const char *const mask_rule =
    "id: t-mask\ntarget: hip\nlanguage: cuda\ncategory: mask-width\nseverity: error\n"
    "summary: s\nmessage: m\nexplain: e\n"
    "query: |\n"
    "  ((call_expression function: (identifier) @fn arguments: (argument_list . (_) @mask))\n"
    "   (#eq? @fn \"__shfl_xor_sync\")\n"
    "   (#tt-live-for-target? @fn)\n"
    "   (#tt-not-redefined-for-target? @fn))\n"
    "examples:\n  - match: \"void f() { __shfl_xor_sync(0xffffffff, v, 1); }\"\n";

Test(sema, predicates_through_the_engine) {
  const char *hip[] = {"GGML_USE_HIP"};
  tt_sema_options o = {.hip_defines = hip, .n_hip_defines = 1};
  fixture x = open_file(&o, "common.cuh", common_cuh, "vendors/hip.h", hip_h, NULL);
  char *why = NULL;
  cr_expect_eq(lint_count(mask_rule, x.path, x.text, x.s, &why), 0);
  /* Without the HIP-side define the call is CUDA's own: the finding stays, confirmed. */
  tt_sema *plain = tt_sema_new(NULL);
  cr_expect_eq(lint_count(mask_rule, x.path, x.text, plain, &why), 1);
  cr_expect_null(why);
  tt_sema_free(plain);
  /* Dead for HIP through a macro no list names. */
  cr_expect_eq(lint_count(mask_rule, x.path,
                          "#if CUDA_VERSION >= 9000\n__device__ float f(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n#endif\n",
                          x.s, NULL),
               0);
  close_file(&x);
}

Test(sema, type_predicate_through_the_engine) {
  static const char *const rule =
      "id: t-type\ntarget: hip\nlanguage: cuda\ncategory: ballot-width\nseverity: error\n"
      "summary: s\nmessage: m\nexplain: e\n"
      "query: |\n"
      "  ((init_declarator declarator: (identifier) @v)\n"
      "   (#tt-sema-type-match? @v \"^unsigned int$\"))\n"
      "examples:\n  - match: \"unsigned v = 1;\"\n";
  fixture x = open_file(NULL, "t.cu", "typedef unsigned mask_t;\nmask_t m = 1u;\nfloat g = 1.f;\nauto a = m;\n", NULL);
  cr_expect_eq(lint_count(rule, x.path, x.text, x.s, NULL), 2); /* m through the typedef, a through auto */
  close_file(&x);
}

#endif /* TT_HAVE_LIBCLANG */

/* Both builds: an unanswerable question is UNKNOWN with a reason, and the engine keeps
 * the finding and marks it unconfirmed. */
Test(sema, off_means_unknown_with_a_reason) {
  tt_sema_options o = {.off = true};
  fixture x = open_file(&o, "k.cu", "#ifdef X\nint a;\n#endif\n", NULL);
  cr_expect(tt_sema_unavailable(x.s));
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "int a")), TT_SEMA_UNKNOWN);
  cr_assert(tt_sema_why(x.f));
#ifdef TT_HAVE_LIBCLANG
  cr_expect_str_eq(tt_sema_why(x.f), "the semantic layer is off (--no-sema)");
  char *why = NULL;
  cr_expect_eq(lint_count(mask_rule, x.path, "#if CUDA_VERSION >= 9000\nvoid f() { __shfl_xor_sync(0xffffffff, v, 1); }\n#endif\n",
                          x.s, &why),
               1);
  cr_assert(why);
  cr_expect_str_eq(why, "the semantic layer is off (--no-sema)");
  free(why);
#endif
  close_file(&x);
}

#ifdef TT_HAVE_LIBCLANG
/* libclang is loaded on the first parse, not linked: a library that does not load is
 * a reason the layer gives, never a crash. Criterion runs each test in its own
 * process, so this one loads (or fails to load) afresh. */
Test(sema, a_libclang_that_does_not_load_is_a_reason) {
  setenv("TILETRANS_LIBCLANG", "/nonexistent/libclang.so", 1);
  fixture x = open_file(NULL, "k.cu", "#ifdef X\nint a;\n#endif\n", NULL);
  cr_expect_eq(tt_sema_live(x.f, TT_SEMA_HIP, at(&x, "int a")), TT_SEMA_UNKNOWN);
  cr_assert(tt_sema_why(x.f));
  cr_expect(strstr(tt_sema_why(x.f), "libclang could not be loaded (/nonexistent/libclang.so"), "%s", tt_sema_why(x.f));
  cr_expect_str_eq(tt_sema_unavailable(x.s), tt_sema_why(x.f));
  close_file(&x);
  unsetenv("TILETRANS_LIBCLANG");
}
#endif

#ifndef TT_HAVE_LIBCLANG
Test(sema, built_without_libclang_says_so) {
  fixture x = open_file(NULL, "k.cu", "int a;\n", NULL);
  cr_expect_str_eq(tt_sema_unavailable(x.s), "tiletrans was built without libclang");
  cr_expect_eq(tt_sema_hip_redefined(x.f, 0), TT_SEMA_UNKNOWN);
  close_file(&x);
}
#endif
