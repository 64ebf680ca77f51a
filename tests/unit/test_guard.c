/* guard: #if conditions evaluated per side with three-valued logic, derived macros,
 * local headers that redefine names for the target. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "parser/tree.h"
#include "rules/guard.h"
#include "support.h"
#include "util/util.h"

typedef struct sides {
  tt_strmap tdef, tundef, sdef, sundef;
  tt_guard_env target, source;
} sides;

static void sides_init(sides *s, const char *const *extra, size_t n_extra) {
  memset(s, 0, sizeof *s);
  tt_strmap_put(&s->tdef, "__HIP_PLATFORM_AMD__", "1");
  tt_strmap_put(&s->tdef, "USE_ROCM", "");
  tt_strmap_put(&s->tundef, "__CUDA_ARCH__", "");
  tt_strmap_put(&s->tundef, "CUDA_VERSION", "");
  tt_strmap_put(&s->sdef, "__CUDACC__", "");
  tt_strmap_put(&s->sundef, "__HIP_PLATFORM_AMD__", "");
  tt_strmap_put(&s->sundef, "USE_ROCM", "");
  s->target = (tt_guard_env){&s->tdef, &s->tundef, extra, n_extra};
  s->source = (tt_guard_env){&s->sdef, &s->sundef, NULL, 0};
}

static void sides_free(sides *s) {
  tt_strmap_free(&s->tdef);
  tt_strmap_free(&s->tundef);
  tt_strmap_free(&s->sdef);
  tt_strmap_free(&s->sundef);
}

/* The target state of the innermost branch holding the first occurrence of `marker`. */
static tt_tri target_at(const char *code, const char *marker, const char *const *extra, size_t n_extra,
                        tt_tri *source) {
  sides s;
  sides_init(&s, extra, n_extra);
  tt_source *src = tts_source("t.cu", code, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(src);
  tt_guard_branch *b;
  size_t n;
  tt_guard_branches(t, &s.target, &s.source, &b, &n);
  uint32_t at = (uint32_t)(strstr(code, marker) - code);
  tt_tri r = TT_TRI_TRUE, rs = TT_TRI_TRUE;
  for (size_t i = 0; i < n; i++)
    if (at >= b[i].start && at < b[i].end) r = b[i].target, rs = b[i].source;
  if (source) *source = rs;
  free(b);
  tt_tree_free(t);
  tt_source_free(src);
  sides_free(&s);
  return r;
}

Test(guard, ifdef_else_and_ifndef) {
  const char *code = "#ifdef USE_ROCM\nint hip_side;\n#else\nint cuda_side;\n#endif\n"
                     "#ifndef __HIP_PLATFORM_AMD__\nint not_hip;\n#endif\n";
  tt_tri src;
  cr_expect_eq(target_at(code, "hip_side", NULL, 0, &src), TT_TRI_TRUE);
  cr_expect_eq(src, TT_TRI_FALSE, "the HIP branch is target-only");
  cr_expect_eq(target_at(code, "cuda_side", NULL, 0, &src), TT_TRI_FALSE);
  cr_expect_eq(src, TT_TRI_TRUE);
  cr_expect_eq(target_at(code, "not_hip", NULL, 0, NULL), TT_TRI_FALSE);
}

Test(guard, undefined_names_read_as_zero_and_logic_settles_unknowns) {
  const char *code = "#if CUDA_VERSION >= 9000\nint a;\n#endif\n"
                     "#if !defined(GGML_X) && __CUDA_ARCH__ >= 800\nint b;\n#endif\n"
                     "#if defined(MYSTERY)\nint c;\n#elif defined(USE_ROCM)\nint d;\n#else\nint e;\n#endif\n"
                     "#if defined(USE_ROCM) || MYSTERY\nint f;\n#endif\n";
  cr_expect_eq(target_at(code, "int a", NULL, 0, NULL), TT_TRI_FALSE, "CUDA_VERSION is 0 for HIP");
  cr_expect_eq(target_at(code, "int b", NULL, 0, NULL), TT_TRI_FALSE, "x && 0 is 0 whatever x is");
  cr_expect_eq(target_at(code, "int c", NULL, 0, NULL), TT_TRI_UNKNOWN);
  cr_expect_eq(target_at(code, "int d", NULL, 0, NULL), TT_TRI_UNKNOWN, "the #if before it is not decided");
  cr_expect_eq(target_at(code, "int e", NULL, 0, NULL), TT_TRI_FALSE, "an earlier branch surely taken");
  cr_expect_eq(target_at(code, "int f", NULL, 0, NULL), TT_TRI_TRUE, "1 || x is 1");
}

Test(guard, nesting_and_arithmetic) {
  const char *code = "#if defined(USE_ROCM)\n#if (2 * 3 + 1) % 4 == 3 && !(1 << 2 == 5)\nint in;\n#endif\n#else\n"
                     "#if 1\nint dead;\n#endif\n#endif\n";
  cr_expect_eq(target_at(code, "int in", NULL, 0, NULL), TT_TRI_TRUE);
  cr_expect_eq(target_at(code, "int dead", NULL, 0, NULL), TT_TRI_FALSE, "inside a dead branch");
}

Test(guard, derived_macros_and_config_defines) {
  const char *code = "#if defined(__HIP_PLATFORM_AMD__)\n#define MY_HIP 1\n#else\n#define MY_HIP 0\n#endif\n"
                     "#if MY_HIP\nint hip;\n#else\nint cuda;\n#endif\n"
                     "#ifdef PROJECT_USE_HIP\nint proj;\n#endif\n";
  tt_tri src;
  cr_expect_eq(target_at(code, "int hip", NULL, 0, &src), TT_TRI_TRUE);
  cr_expect_eq(src, TT_TRI_FALSE, "MY_HIP is 0 on the CUDA side");
  cr_expect_eq(target_at(code, "int cuda", NULL, 0, NULL), TT_TRI_FALSE);
  cr_expect_eq(target_at(code, "int proj", NULL, 0, NULL), TT_TRI_UNKNOWN);
  const char *extra[] = {"PROJECT_USE_HIP"};
  cr_expect_eq(target_at(code, "int proj", extra, 1, NULL), TT_TRI_TRUE, "a hip_defines entry");
}

Test(guard, a_local_header_redefines_names_for_the_target) {
  char *dir = tts_tmpdir();
  char *h = tt_xasprintf("%s/vendors/hip.h", dir), *c = tt_xasprintf("%s/common.cuh", dir), *k = tt_xasprintf("%s/k.cu", dir);
  tts_write(h, "#define __shfl_xor_sync(m, v, o, w) __shfl_xor(v, o, w)\n");
  tts_write(c, "#if defined(USE_ROCM)\n#include \"vendors/hip.h\"\n#endif\n#define ALWAYS 1\n");
  tts_write(k, "#include \"common.cuh\"\n#define MINE 2\n");
  sides s;
  sides_init(&s, NULL, 0);
  size_t len;
  char *text = tts_slurp(k, &len);
  tt_source *src = tt_source_new(k, text, len, TT_LANG_CUDA);
  tt_tree *t = tt_tree_parse(src);
  tt_strmap names = {0};
  tt_guard_target_redefines(t, &s.target, &s.source, &names);
  cr_expect(tt_strmap_get(&names, "__shfl_xor_sync", 15) != NULL, "defined by a header included for HIP only");
  cr_expect(tt_strmap_get(&names, "ALWAYS", 6) == NULL, "defined for both sides");
  cr_expect(tt_strmap_get(&names, "MINE", 4) == NULL, "the file's own define is its code");
  tt_strmap_free(&names);
  tt_tree_free(t);
  tt_source_free(src);
  sides_free(&s);
  tts_rmrf(dir);
  free(h), free(c), free(k), free(dir);
}
