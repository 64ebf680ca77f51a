/* Unit tests of a spec bound to its kernel (src/checker/bind.c) and of the spec keys
 * for whole programs, sequences and given data (src/checker/spec.c). Every error
 * names the spec file, line, column and key, and the kernel's parameter. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "checker/bind.h"
#include "checker/spec.h"

#define SPEC TT_CHECK_TEST_DATA "/program.check.yaml"

static char *good_text(void) {
  FILE *f = fopen(SPEC, "rb");
  cr_assert_not_null(f);
  static char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

static char *variant(const char *from, const char *to) {
  const char *good = good_text(), *at = strstr(good, from);
  cr_assert_not_null(at, "'%s' is not in the spec", from);
  size_t n = strlen(good) - strlen(from) + strlen(to) + 1;
  char *out = malloc(n);
  snprintf(out, n, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
  return out;
}

/* Parses and binds; returns the bind error (NULL when it binds). */
static char *bind_err(const char *text, tt_check_spec *s) {
  char *err = NULL;
  int rc = tt_check_spec_parse(SPEC, text, strlen(text), s, &err);
  cr_assert_eq(rc, 0, "parse: %s", err ? err : "");
  rc = tt_check_spec_bind(s, NULL, &err);
  cr_assert_eq(rc != 0, err != NULL);
  return err;
}

static void expect_bind_error(const char *from, const char *to, const char *want1, const char *want2) {
  char *text = variant(from, to);
  tt_check_spec s;
  char *err = bind_err(text, &s);
  cr_assert_not_null(err, "bound, but should not: %s", text);
  cr_assert(strstr(err, want1) && strstr(err, want2), "got: %s", err);
  cr_assert(!strncmp(err, SPEC ":", strlen(SPEC) + 1), "names the spec: %s", err);
  free(err);
  tt_check_spec_free(&s);
  free(text);
}

Test(bind, the_good_spec_binds_and_names_the_struct_type) {
  tt_check_spec s;
  char *err = bind_err(good_text(), &s);
  cr_assert_null(err, "%s", err);
  cr_assert_str_eq(s.args[3].struct_type, "Params");
  cr_assert_eq(s.nlaunches, 1);
  cr_assert_eq(s.launches[0].nargs, 6);
  cr_assert_eq(s.args[5].dtype, TT_CHECK_BOOL);
  cr_assert_eq(s.args[5].ivalue, 1);
  tt_check_spec_free(&s);
}

Test(bind, wrong_pointer_element_type) {
  expect_bind_error("{name: y, type: f32*", "{name: y, type: f64*", ":9:6: args[1] (y).type: f64* does not match float",
                    "`real_t *y` (");
}

Test(bind, wrong_scalar_type_and_scalar_for_pointer) {
  expect_bind_error("{name: n, type: u32", "{name: n, type: f32", "args[2] (n).type: f32 does not match unsigned int",
                    "program.cu:13");
  expect_bind_error("{name: x, type: f32*, len: n, init: \"uniform(-1, 1)\"}", "{name: x, type: f32, value: 1}",
                    "args[0] (x).type: f32 is a value, but the kernel takes a pointer", "__restrict__ x");
}

Test(bind, argument_count) {
  expect_bind_error("  - {name: f, type: bool, value: true}\n", "", "args: the spec gives 5 arguments, kernel "
                    "'scale_kernel' takes 6", "program.cu:13: __global__ void scale_kernel(");
}

Test(bind, struct_fields_and_enum) {
  expect_bind_error("fields: {n: n, scale: 0.5}", "fields: {n: n}", "args[3] (p).type: fields: lacks Params's field 'scale'", "Params p");
  expect_bind_error("fields: {n: n, scale: 0.5}", "fields: {n: n, scale: 0.5, z: 1}", "Params has no field 'z'", "Params p");
  expect_bind_error("{name: m, type: i32, value: 1}", "{name: m, type: f32, value: 1.5}", "the enum Mode", "Mode m");
  expect_bind_error("{name: n, type: u32, value: n}", "{name: n, type: struct, fields: {a: 1}}", "type: struct, but the kernel takes unsigned int", "n");
}

Test(bind, value_out_of_range) {
  expect_bind_error("{name: n, type: u32, value: n}", "{name: n, type: i32, value: -1}", "args[2] (n).value: -1 does not fit unsigned int", "program.cu:13");
}

Test(bind, template_arguments_are_checked) {
  expect_bind_error("kernel: \"scale_kernel<float, 128>\"", "kernel: scale_kernel", "kernel: ", "is a template");
  /* The template argument decides the pointer type: double for T. */
  expect_bind_error("kernel: \"scale_kernel<float, 128>\"", "kernel: \"scale_kernel<double, 128>\"",
                    "f32* does not match double", "x");
}

static char *parse_err(const char *text) {
  tt_check_spec s;
  char *err = NULL;
  int rc = tt_check_spec_parse(SPEC, text, strlen(text), &s, &err);
  cr_assert_eq(rc, 2, "rc %d: %s", rc, err ? err : "(none)");
  tt_check_spec_free(&s);
  return err;
}

static void expect_parse_error(const char *from, const char *to, const char *want) {
  char *text = variant(from, to);
  char *err = parse_err(text);
  cr_assert(strstr(err, want), "got: %s", err);
  free(err);
  free(text);
}

Test(spec_keys, defines_includes_data_expect) {
  expect_parse_error("includes: [prog]", "includes: [prog]\ndefines: [\"1X\"]", "defines[0]: '1X' is not NAME or NAME=VALUE");
  expect_parse_error("includes: [prog]", "includes: prog", ":4:11: includes: expected a list");
  expect_parse_error("init: zeros, output: true}", "init: zeros, output: true, data: [1, 2]}", "give either init: or data:");
  expect_parse_error("{name: x, type: f32*, len: n, init: \"uniform(-1, 1)\"}", "{name: x, type: f32*, len: n, data: [1, 2]}",
                     "args[0] (x).data: the list has 2 numbers, the buffer 256 elements");
  expect_parse_error("{name: x, type: f32*, len: n, init: \"uniform(-1, 1)\"}", "{name: x, type: f32*, len: n, expect: a.npy}",
                     "only an output (output: true) is compared against a file");
  expect_parse_error("init: zeros, output: true}", "init: zeros, output: true, expect: prog/program.cu}",
                     "args[1] (y).expect: ");
  expect_parse_error("{name: m, type: i32, value: 1}", "{name: m, type: i32, value: 1, fields: {a: 1}}", "only type: struct takes fields:");
}

Test(spec_keys, launches) {
  const char *from = "kernel: \"scale_kernel<float, 128>\"\n";
  char *t = variant(from, "");
  char *t2 = NULL;
  /* launch: and kernel: go; a launches: list names each kernel and its arguments */
  const char *at = strstr(t, "launch: {grid: [2], block: [128]}\n");
  cr_assert_not_null(at);
  size_t n = strlen(t) + 512;
  t2 = malloc(n);
  snprintf(t2, n, "%.*s%s", (int)(at - t), t,
           "args:\n"
           "  - {name: x, type: f32*, len: n, init: zeros}\n"
           "  - {name: y, type: f32*, len: n, init: zeros, output: true}\n"
           "launches:\n"
           "  - {kernel: other_kernel, grid: [1], block: [32], args: [y]}\n"
           "  - {kernel: other_kernel, grid: [1], block: [32], args: [q]}\n");
  char *err = parse_err(t2);
  cr_assert(strstr(err, "launches[1].args[0]: 'q' is not the name of an entry of args:"), "%s", err);
  free(err);
  char *t3 = strdup(t2);
  char *q = strstr(t3, "args: [q]");
  memcpy(q, "args: [x]", 9);
  tt_check_spec s;
  cr_assert_eq(tt_check_spec_parse(SPEC, t3, strlen(t3), &s, &err), 0, "%s", err);
  cr_assert_eq(s.nlaunches, 2);
  cr_assert_str_eq(s.name, "program");
  cr_assert_eq(s.launches[1].args[0], 0);
  cr_assert_eq(tt_check_spec_bind(&s, NULL, &err), 0, "%s", err);
  tt_check_spec_free(&s);
  /* offsets into a buffer, and null for a pointer */
  const char *forms[][2] = {{"args: [x + 8]", NULL}, {"args: [null]", NULL},
                            {"args: [x + 999]", "offset 999 is outside x (256 elements)"},
                            {"args: [n + 1]", "'n' is not the name of an entry"}};
  for (int f = 0; f < 4; f++) {
    size_t m = strlen(t2) + 32;
    char *tf = malloc(m);
    const char *qq = strstr(t2, "args: [q]");
    snprintf(tf, m, "%.*s%s%s", (int)(qq - t2), t2, forms[f][0], qq + 9);
    err = NULL;
    int prc = tt_check_spec_parse(SPEC, tf, strlen(tf), &s, &err);
    if (forms[f][1]) {
      cr_assert_eq(prc, 2, "%s", tf);
      cr_assert(strstr(err, forms[f][1]), "%s", err);
      free(err);
    } else {
      cr_assert_eq(prc, 0, "%s", err);
      cr_assert_eq(tt_check_spec_bind(&s, NULL, &err), 0, "%s", err);
      if (f == 0) cr_assert_eq(s.launches[1].offsets[0], 8);
      if (f == 1) cr_assert_eq(s.launches[1].args[0], TT_CHECK_NULL_ARG);
    }
    tt_check_spec_free(&s);
    free(tf);
  }
  /* a launches: spec may not also have kernel: */
  char *t4 = malloc(strlen(t3) + 64);
  sprintf(t4, "kernel: other_kernel\n%s", t3);
  err = parse_err(t4);
  cr_assert(strstr(err, "kernel: a spec with launches: names each launch's kernel"), "%s", err);
  free(err);
  free(t4);
  free(t3);
  free(t2);
  free(t);
}

Test(spec_keys, compile_commands_found_upward_gives_includes_and_defines) {
  char dir[] = "/tmp/tt-ccdb-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char p[512];
  snprintf(p, sizeof p, "%s/inc", dir);
  cr_assert_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "mkdir -p %s/src && printf '#define FROM_HDR 1\\n' > %s/inc/hdr.cuh && "
                        "printf '#include \"hdr.cuh\"\\n__global__ void k(float *y) { y[0] = FROM_HDR + SCALE; }\\n' > %s/src/k.cu && "
                        "printf '[{\"directory\": \"%s\", \"file\": \"src/k.cu\", \"command\": \"nvcc -I inc -DSCALE=3 -c src/k.cu\"}]' "
                        "> %s/compile_commands.json", dir, dir, dir, dir, dir);
  cr_assert_eq(system(p), 0);
  char spec_text[1024];
  snprintf(spec_text, sizeof spec_text,
           "source: %s/src/k.cu\nkernel: k\nlaunch: {grid: [1], block: [1]}\n"
           "args:\n  - {name: y, type: f32*, len: 1, output: true}\n", dir);
  tt_check_spec s;
  char *err = NULL;
  char sp[600];
  snprintf(sp, sizeof sp, "%s/src/k.check.yaml", dir);
  cr_assert_eq(tt_check_spec_parse(sp, spec_text, strlen(spec_text), &s, &err), 0, "%s", err);
  tt_xf_result x;
  cr_assert_eq(tt_check_extract(&s, s.source, NULL, 0, NULL, &x, &err), 0, "%s", err);
  cr_assert(strstr(x.text, "#define SCALE 3\n"), "-D from the database: %s", x.text);
  cr_assert(strstr(x.text, "#define FROM_HDR 1"), "header found through -I: %s", x.text);
  tt_xf_result_free(&x);
  tt_check_spec_free(&s);
  snprintf(p, sizeof p, "rm -rf %s", dir);
  cr_assert_eq(system(p), 0);
}
