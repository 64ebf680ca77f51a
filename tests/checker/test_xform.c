/* Unit tests of kernel extraction (src/xform): what is kept, what is dropped, the
 * #line directives around inlined headers, and the signature read from the tree. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "xform/items.h"
#include "xform/xform.h"

#define PROG TT_CHECK_TEST_DATA "/prog/program.cu"

static char *slurp(const char *path, size_t *len) {
  char *t = NULL, *err = NULL;
  cr_assert_eq(tt_fs_read(path, &t, len, &err), 0, "%s", err ? err : path);
  return t;
}

/* Extracts `kernel` from the test program with include folder data/prog. */
static int extract(const char *kernel, tt_xf_result *r, char **err) {
  size_t len;
  char *text = slurp(PROG, &len);
  const char *inc[] = {TT_CHECK_TEST_DATA "/prog"};
  tt_xf_options o = {.include_dirs = inc, .n_include_dirs = 1};
  const char *k[] = {kernel};
  int rc = tt_xf_extract(PROG, text, len, k, 1, &o, r, err);
  free(text);
  return rc;
}

static int line_of(const char *text, const char *needle) {
  const char *at = strstr(text, needle);
  cr_assert_not_null(at, "'%s' not in:\n%s", needle, text);
  int line = 1;
  for (const char *p = text; p < at; p++) line += *p == '\n';
  return line;
}

Test(xform, keeps_the_kernel_and_what_it_needs_and_drops_host_code) {
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(extract("scale_kernel<float, 128>", &r, &err), 0, "%s", err);
  const char *t = r.text;
  cr_assert(strstr(t, "__global__ void scale_kernel"), "%s", t);
  cr_assert(strstr(t, "__device__ real_t apply"), "device function it calls");
  cr_assert(strstr(t, "typedef float real_t;"), "typedef it uses");
  cr_assert(strstr(t, "struct Params"), "struct of a parameter");
  cr_assert(strstr(t, "enum Mode"), "enum of a parameter");
  cr_assert(strstr(t, "template <typename T> __device__ T twice"), "template from the header");
  cr_assert(strstr(t, "__shared__ float helper_buf[64];"), "__shared__ declared in the header");
  cr_assert(strstr(t, "#define SCALE 2.0f"), "macro from the header");
  cr_assert(strstr(t, "#define EXTRA 0.0f"), "macro from a nested header");
  cr_assert_null(strstr(t, "int main"), "main is dropped");
  cr_assert_null(strstr(t, "static int run"), "host function is dropped");
  cr_assert_null(strstr(t, "helper_host"), "host function of the header is dropped");
  cr_assert_null(strstr(t, "unused_device"), "device function nobody uses is dropped");
  cr_assert_null(strstr(t, "other_kernel"), "other kernel is dropped");
  cr_assert_null(strstr(t, "cublas_v2.h"), "host-library include is dropped");
  cr_assert_null(strstr(t, "#pragma once"), "a header's #pragma once is dropped");
  cr_assert(strstr(t, "#include <cstdio>"), "standard headers stay");
  int dropped = 0;
  for (size_t i = 0; i < r.nnotes; i++) dropped += strstr(r.notes[i], "cublas_v2.h") != NULL;
  cr_assert_eq(dropped, 2, "the program's and the header's cublas_v2.h are noted");
  cr_assert_eq(r.nfiles, 4, "program, helpers.cuh, inc/extra.cuh, other.cuh (angle include via -I)");
  tt_xf_result_free(&r);
}

Test(xform, lines_stay_those_of_the_user_files) {
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(extract("scale_kernel<float, 128>", &r, &err), 0, "%s", err);
  cr_assert(r.renumbered);
  /* After the inlined headers a #line names the program again, with the line after
   * the last include: everything below keeps its original line. */
  const char *marker = strstr(r.text, "#line 6 \"");
  cr_assert_not_null(marker, "%s", r.text);
  cr_assert(strstr(marker, "program.cu\""), "%s", marker);
  int at = line_of(r.text, "#line 6 \"");
  cr_assert_eq(line_of(r.text, "__global__ void scale_kernel") - at, 13 - 6 + 1, "kernel at its line 13");
  cr_assert(strstr(r.text, "#line 1 \"" TT_CHECK_TEST_DATA "/prog/helpers.cuh\"") ||
            strstr(r.text, "/prog/helpers.cuh\""), "%s", r.text);
  /* Extraction is a fixed point: extracting again from its own output keeps it. */
  tt_xf_result_free(&r);
}

Test(xform, signature_substitutes_template_arguments_and_typedefs) {
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(extract("scale_kernel<float, 128>", &r, &err), 0, "%s", err);
  const tt_xf_signature *s = &r.sigs[0];
  cr_assert_str_eq(s->launch_name, "(scale_kernel<float, 128>)");
  cr_assert_eq(s->line, 13);
  cr_assert_eq(s->ntparams, 3);
  cr_assert_str_eq(s->tparams[2].deflt, "false");
  cr_assert_eq(s->nparams, 6);
  cr_assert_str_eq(s->params[0].base, "float");
  cr_assert_eq(s->params[0].pointers, 1);
  cr_assert_str_eq(s->params[1].base, "float", "real_t resolved");
  cr_assert_str_eq(s->params[2].base, "unsigned int");
  cr_assert(s->params[3].is_struct);
  cr_assert_eq(s->params[3].nfields, 2);
  cr_assert_str_eq(s->params[3].fields[1], "scale");
  cr_assert(s->params[4].is_enum);
  cr_assert_str_eq(s->params[5].base, "bool");
  tt_xf_result_free(&r);
}

Test(xform, errors_name_the_file_and_what_is_there) {
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(extract("nope", &r, &err), -1);
  cr_assert(strstr(err, "program.cu") && strstr(err, "no __global__ function 'nope'"), "%s", err);
  cr_assert(strstr(err, "scale_kernel") && strstr(err, "other_kernel"), "lists the kernels: %s", err);
  free(err);
  cr_assert_eq(extract("scale_kernel", &r, &err), -1);
  cr_assert(strstr(err, "program.cu:13") && strstr(err, "is a template") && strstr(err, "needs at least 2"), "%s", err);
  free(err);
  cr_assert_eq(extract("scale_kernel<float, 1, true, 4>", &r, &err), -1);
  cr_assert(strstr(err, "at most 3"), "%s", err);
  free(err);
  cr_assert_eq(extract("other_kernel<float>", &r, &err), -1);
  cr_assert(strstr(err, "is not a template"), "%s", err);
  free(err);
}

Test(xform, defines_and_provided_headers) {
  const char text[] = "#include <cuda_fp16.h>\n#include <mpi.h>\n__global__ void k(float *y) { y[0] = V; }\n";
  const char *defs[] = {"V=3", "FLAG"};
  const char *prov[] = {TT_CHECK_TEST_DATA "/prog"};  /* holds other.cuh, not cuda_fp16.h */
  tt_xf_options o = {.defines = defs, .n_defines = 2, .provided_dirs = prov, .n_provided_dirs = 1};
  const char *k[] = {"k"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract("/nonexistent/t.cu", text, sizeof text - 1, k, 1, &o, &r, &err), 0, "%s", err);
  cr_assert(!strncmp(r.text, "#define V 3\n#define FLAG 1\n#line 1 \"/nonexistent/t.cu\"\n", 52), "%s", r.text);
  cr_assert_null(strstr(r.text, "cuda_fp16.h"), "not provided: dropped");
  cr_assert_null(strstr(r.text, "mpi.h"));
  cr_assert_eq(r.nnotes, 2);
  tt_xf_result_free(&r);
  const char *prov2[] = {TT_CHECK_SIM_INCLUDE};
  o.provided_dirs = prov2;
  cr_assert_eq(tt_xf_extract("/nonexistent/t.cu", text, sizeof text - 1, k, 1, &o, &r, &err), 0, "%s", err);
  cr_assert(strstr(r.text, "#include <cuda_fp16.h>"), "the sim shim provides it: kept");
  cr_assert_eq(r.nnotes, 1);
  tt_xf_result_free(&r);
}

Test(xform, several_kernels_and_code_that_does_not_parse) {
  /* Host code the grammar cannot parse is left out with a note; a kernel after it is
   * unaffected when the damage is closed... */
  const char text[] =
    "__device__ int one() { return 1; }\n"
    "__global__ void a(int *y) { y[0] = one(); }\n"
    "int host() { return 1 +; }\n"
    "__global__ void b(int *y) { y[1] = 2; }\n";
  const char *k[] = {"a", "b"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract("t.cu", text, sizeof text - 1, k, 2, NULL, &r, &err), 0, "%s", err);
  cr_assert_eq(r.nsigs, 2);
  cr_assert(strstr(r.text, "int one()") && strstr(r.text, "void a(") && strstr(r.text, "void b("), "%s", r.text);
  cr_assert_null(strstr(r.text, "host"), "%s", r.text);
  cr_assert_eq(line_of(r.text, "void b("), 4, "lines kept");
  tt_xf_result_free(&r);
  /* ...and when recovery swallows the kernel (an unclosed brace), the error says which
   * lines need an edit. */
  const char broken[] =
    "__global__ void a(int *y) { y[0] = 1; }\n"
    "void host() { auto x = [&]( { ; }\n"
    "__global__ void b(int *y) { y[1] = 2; }\n";
  const char *kb[] = {"b"};
  cr_assert_eq(tt_xf_extract("t.cu", broken, sizeof broken - 1, kb, 1, NULL, &r, &err), -1);
  cr_assert(strstr(err, "t.cu:3: kernel 'b' is inside the code that starts at line 2") &&
            strstr(err, "between lines 2 and 3"), "%s", err);
  free(err);
}

/* Writes `text` to DIR/name. */
static void write_file(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

static int count_of(const char *text, const char *needle) {
  int n = 0;
  for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle)) n++;
  return n;
}

Test(xform, c_linkage_wrappers_and_conditionals_survive_unparsed_code) {
  /* A C header's `#ifdef __cplusplus / extern "C" { / #endif` wrapper (ggml.h,
   * ggml-impl.h): its braces are never parsed and always emitted, and code the grammar
   * cannot parse is blanked without taking a conditional directive with it, so the
   * #ifdef/#endif pairs stay balanced (they were blanked with the unparsed region, and
   * the compiler met an #endif without #if). */
  char dir[] = "/tmp/tt-xform-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  write_file(dir, "api.h",
             "#ifdef __cplusplus\n"
             "extern \"C\" {\n"
             "#endif\n"
             "struct S { ` \n"
             "#ifdef  __cplusplus\n"
             "}\n"
             "#endif\n");
  const char main_text[] = "#include \"api.h\"\n__global__ void k(float *y) { y[0] = 1; }\n";
  char path[512];
  snprintf(path, sizeof path, "%s/main.cu", dir);
  write_file(dir, "main.cu", main_text);
  const char *k[] = {"k"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract(path, main_text, sizeof main_text - 1, k, 1, NULL, &r, &err), 0, "%s", err);
  cr_assert(strstr(r.text, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"), "%s", r.text);
  cr_assert(strstr(r.text, "#ifdef  __cplusplus\n}\n#endif\n"), "%s", r.text);
  cr_assert_eq(count_of(r.text, "#endif"), 2, "%s", r.text);
  cr_assert_null(strstr(r.text, "struct S"), "the unparsed line is blanked: %s", r.text);
  cr_assert(strstr(r.text, "__global__ void k("), "%s", r.text);
  int noted = 0;
  for (size_t i = 0; i < r.nnotes; i++) noted |= strstr(r.notes[i], "could not be parsed") != NULL;
  cr_assert(noted, "the unparsed region is reported");
  tt_xf_result_free(&r);
  /* The line classifiers the blanking uses. */
  const char w[] = "#if defined(__cplusplus)\n  extern \"C\" {  // C API\n# endif\n}\n";
  cr_assert(tt_xf_is_linkage_line(w, sizeof w - 1, 25, 49), "extern \"C\" { between the guards");
  cr_assert_not(tt_xf_is_linkage_line(w, sizeof w - 1, 58, 59), "a } after #endif is not a wrapper's");
  cr_assert(tt_xf_is_conditional_line(w + 50, w + 57), "# endif");
  cr_assert_not(tt_xf_is_conditional_line(w + 58, w + 59), "}");
  for (const char *f = "api.h\0main.cu\0"; *f; f += strlen(f) + 1) {
    snprintf(path, sizeof path, "%s/%s", dir, f);
    unlink(path);
  }
  rmdir(dir);
}

Test(xform, loose_tokens_of_dropped_macro_calls_go_with_them) {
  /* A file that ends in macro calls with no `;` (bitsandbytes' kernels.cu: explicit
   * instantiations through MAKE_...(...) lines) is an unparsed region; dropping the
   * calls must not leave their last `)` behind, or the kept text does not compile. */
  const char text[] = "__global__ void k(float *y) { y[0] = 1; }\n"
                      "INST(SGD, float, 128, 4)\n"
                      "INST(SGD, half, 128, 4)\n"
                      "INST(SGD, my_bf16, 128, 4)\n"
                      "INST(ADAM, float, 128, 4)\n"
                      "INST(ADAM, half, 128, 4)\n"
                      "INST(ADAM, my_bf16, 128, 4)\n";
  const char *k[] = {"k"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract("/tmp/tail.cu", text, sizeof text - 1, k, 1, NULL, &r, &err), 0, "%s", err);
  cr_assert(strstr(r.text, "__global__ void k("), "%s", r.text);
  const char *after = strstr(r.text, "y[0] = 1; }");
  cr_assert_not_null(after, "%s", r.text);
  for (const char *p = after + strlen("y[0] = 1; }"); *p; p++)
    cr_assert(*p == ' ' || *p == '\n', "only blanks after the kernel, found '%c' in:\n%s", *p, r.text);
  tt_xf_result_free(&r);
}

Test(xform, a_namespace_keeps_its_braces_between_dropped_items) {
  /* cuda-samples' helper_image.h: a namespace opened between two dropped items and
   * closed between two more; dropping the text between dropped items must not take
   * `namespace X {` with it and leave the `}`. */
  const char text[] = "#include <no_such_host_library.h>\n"
                      "namespace util {\n"
                      "int host_only(int x) { return x; }\n"
                      "}  // namespace util\n"
                      "static int other_host(int y) { return y; }\n"
                      "__global__ void k(float *y) { y[0] = 1; }\n";
  const char *k[] = {"k"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract("/tmp/ns.cu", text, sizeof text - 1, k, 1, NULL, &r, &err), 0, "%s", err);
  cr_assert(strstr(r.text, "namespace util {"), "%s", r.text);
  cr_assert(strstr(r.text, "}  // namespace util"), "%s", r.text);
  cr_assert_null(strstr(r.text, "host_only"), "%s", r.text);
  tt_xf_result_free(&r);
}

Test(xform, an_inlined_program_splits_back_into_its_files) {
  /* What tt_xf_extract (keep_all) writes for main.cu including a.h (which includes b.h)
   * and later c.h, after a define: each file gets its own text and lines back. */
  const char text[] = "#define X 1\n"
                      "#line 1 \"/p/main.cu\"\n"
                      "#line 1 \"/p/a.h\"\n"
                      "int a;\n"
                      "#line 1 \"/p/b.h\"\n"
                      "int b;\n"
                      "#line 3 \"/p/a.h\"\n"
                      "int a2;\n"
                      "#line 2 \"/p/main.cu\"\n"
                      "int m;\n"
                      "#line 1 \"/p/c.h\"\n"
                      "int c;\n"
                      "#line 4 \"/p/main.cu\"\n"
                      "__global__ void k() {}\n";
  tt_xf_text *f;
  size_t n = tt_xf_split_inlined("/p/main.cu", text, sizeof text - 1, &f);
  cr_assert_eq(n, 4);
  cr_assert_str_eq(f[0].path, "/p/main.cu");
  cr_assert_str_eq(f[0].text, "#include \"/p/a.h\"\nint m;\n#include \"/p/c.h\"\n__global__ void k() {}\n");
  cr_assert_str_eq(f[1].path, "/p/a.h");
  cr_assert_str_eq(f[1].text, "int a;\n#include \"/p/b.h\"\nint a2;\n");
  cr_assert_str_eq(f[2].path, "/p/b.h");
  cr_assert_str_eq(f[2].text, "int b;\n");
  cr_assert_str_eq(f[3].path, "/p/c.h");
  cr_assert_str_eq(f[3].text, "int c;\n");
  cr_assert_eq(f[0].len, strlen(f[0].text));
  tt_xf_texts_free(f, n);
  /* A text with no markers is the main file as it is. */
  n = tt_xf_split_inlined("/p/main.cu", "int x;\n#line 7 \"/q.h\"\n", 22, &f);
  cr_assert_eq(n, 1);
  cr_assert_str_eq(f[0].text, "int x;\n#line 7 \"/q.h\"\n");
  tt_xf_texts_free(f, n);
}

Test(xform, lines_stay_right_after_a_chain_of_inlined_headers) {
  /* ggml's common.cuh: `#if X / #include "hip.h" / #else / #include "cuda.h" / #endif`.
   * The `#line` that ends an inlined header sits in its branch; a compiler skipping the
   * branch skips it too, so the line after `#endif` must be named again. */
  char dir[] = "/tmp/tt-xform-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  write_file(dir, "a.h", "#define A_ONE 1\n#define A_TWO 2\n");
  write_file(dir, "b.h", "#define B_ONE 1\n#define B_TWO 2\n#define B_THREE 3\n");
  const char main_text[] = "#if defined(USE_A)\n#include \"a.h\"\n#else\n#include \"b.h\"\n#endif\n"
                           "__global__ void k(float *y) { y[0] = 1; }\n";
  char path[512], *real;
  snprintf(path, sizeof path, "%s/main.cu", dir);
  write_file(dir, "main.cu", main_text);
  cr_assert_not_null(real = realpath(path, NULL));
  const char *k[] = {"k"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract(path, main_text, sizeof main_text - 1, k, 1, NULL, &r, &err), 0, "%s", err);
  char want[600];
  snprintf(want, sizeof want, "#endif\n#line 6 \"%s\"\n__global__ void k(", real);
  cr_assert(strstr(r.text, want), "no `#line 6` after the chain:\n%s", r.text);
  snprintf(want, sizeof want, "#else\n#line 4 \"%s\"\n", real);
  cr_assert(strstr(r.text, want), "nor after #else:\n%s", r.text);
  tt_xf_result_free(&r);
  free(real);
  for (const char *f = "a.h\0b.h\0main.cu\0"; *f; f += strlen(f) + 1) {
    snprintf(path, sizeof path, "%s/%s", dir, f);
    unlink(path);
  }
  rmdir(dir);
}

Test(xform, names_in_the_template_arguments_are_kept) {
  /* llm.c's global_norm.cu launches norm_kernel2<<<...>>>(out, values, count) with
   * values a floatX*: the spec says "norm_kernel2<floatX>", and the kernel's code never
   * names floatX; the typedef (and an enum value given as an argument) must come along. */
  const char text[] =
    "typedef float floatX;\n"
    "enum Funcs { FILL = 0, ARANGE = 1 };\n"
    "typedef double unused_t;\n"
    "template <class T, int F> __global__ void k(T *y) { y[0] = F; }\n";
  const char *k[] = {"k<floatX, FILL>"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract("t.cu", text, sizeof text - 1, k, 1, NULL, &r, &err), 0, "%s", err);
  cr_assert(strstr(r.text, "typedef float floatX;"), "%s", r.text);
  cr_assert(strstr(r.text, "enum Funcs"), "%s", r.text);
  cr_assert_null(strstr(r.text, "unused_t"), "%s", r.text);
  tt_xf_result_free(&r);
}

Test(xform, qualified_names_follow_only_the_programs_own_scopes) {
  /* cg::reduce is the library's: the host dispatcher `reduce` of the same name stays
   * out (cuda-samples' reduction_kernel.cu); detail::twice is the program's own. */
  const char text[] =
    "namespace cg = cooperative_groups;\n"
    "namespace detail { __device__ float twice(float v) { return 2 * v; } }\n"
    "__global__ void k(float *y) { y[0] = cg::reduce(cg::this_thread_block(), detail::twice(y[0]), 0); }\n"
    "template <class T> void reduce(T *y) { k<<<1, 32>>>(y); }\n";
  const char *k[] = {"k"};
  tt_xf_result r;
  char *err = NULL;
  cr_assert_eq(tt_xf_extract("t.cu", text, sizeof text - 1, k, 1, NULL, &r, &err), 0, "%s", err);
  cr_assert_null(strstr(r.text, "void reduce("), "%s", r.text);
  cr_assert(strstr(r.text, "__device__ float twice"), "%s", r.text);
  cr_assert(strstr(r.text, "namespace cg = cooperative_groups;"), "%s", r.text);
  tt_xf_result_free(&r);
}

Test(xform, split_template_id) {
  char *name, **args;
  size_t n;
  cr_assert_eq(tt_xf_split_template_id(" k< float, Pair<int, 2>, (3 > 2) >", &name, &args, &n), 0);
  cr_assert_str_eq(name, "k");
  cr_assert_eq(n, 3);
  cr_assert_str_eq(args[1], "Pair<int, 2>");
  cr_assert_str_eq(args[2], "(3 > 2)");
  for (size_t i = 0; i < n; i++) free(args[i]);
  free(args);
  free(name);
  cr_assert_eq(tt_xf_split_template_id("k<float", &name, &args, &n), -1);
  for (size_t i = 0; i < n; i++) free(args[i]);
  free(args);
  free(name);
}
