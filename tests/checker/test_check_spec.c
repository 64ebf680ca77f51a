/* Unit tests of check spec parsing and validation (src/checker/spec.c). Every error
 * must name the file, the line, the column and the key. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker/spec.h"

#define SPEC_PATH TT_CHECK_TEST_DATA "/inline.yaml"

static const char k_good[] =
  "name: vadd\n"                        /* 1 */
  "source: vecadd.cu\n"                 /* 2 */
  "kernel: vecadd\n"                    /* 3 */
  "seed: 9\n"                           /* 4 */
  "sizes:\n"                            /* 5 */
  "  n: 1000\n"                         /* 6 */
  "  threads: 128\n"                    /* 7 */
  "  blocks: cdiv(n, threads)\n"        /* 8 */
  "launch:\n"                           /* 9 */
  "  grid: [blocks]\n"                  /* 10 */
  "  block: [threads]\n"                /* 11 */
  "  shared_bytes: threads * 4\n"       /* 12 */
  "args:\n"                             /* 13 */
  "  - name: a\n"                       /* 14 */
  "    type: f32*\n"                    /* 15 */
  "    len: n\n"                        /* 16 */
  "    init: uniform(-1, 1)\n"          /* 17 */
  "  - name: c\n"                       /* 18 */
  "    type: f16*\n"                    /* 19 */
  "    len: n + 1\n"                    /* 20 */
  "    output: true\n"                  /* 21 */
  "  - name: n\n"                       /* 22 */
  "    type: i32\n"                     /* 23 */
  "    value: n\n"                      /* 24 */
  "  - name: alpha\n"                   /* 25 */
  "    type: f32\n"                     /* 26 */
  "    value: 1.0e-4\n"                 /* 27 */
  "tolerance:\n"                        /* 28 */
  "  atol: 1e-4\n";                     /* 29 */

/* Parses text, expecting failure; returns the message (caller frees). */
static char *parse_err(const char *text, int want_code) {
  tt_check_spec s;
  char *err = NULL;
  int rc = tt_check_spec_parse(SPEC_PATH, text, strlen(text), &s, &err);
  cr_assert_eq(rc, want_code, "rc %d (want %d), err: %s", rc, want_code, err ? err : "(none)");
  cr_assert_not_null(err);
  tt_check_spec_free(&s);
  return err;
}

/* Replaces the first occurrence of `from` in k_good by `to`. */
static char *variant(const char *from, const char *to) {
  const char *at = strstr(k_good, from);
  cr_assert_not_null(at, "'%s' is not in the good spec", from);
  size_t n = strlen(k_good) - strlen(from) + strlen(to) + 1;
  char *out = malloc(n);
  snprintf(out, n, "%.*s%s%s", (int)(at - k_good), k_good, to, at + strlen(from));
  return out;
}

static void expect(const char *from, const char *to, int code, const char *where, const char *what) {
  char *text = variant(from, to);
  char *err = parse_err(text, code);
  cr_assert(strstr(err, where), "error '%s' lacks '%s'", err, where);
  cr_assert(strstr(err, what), "error '%s' lacks '%s'", err, what);
  free(err);
  free(text);
}

Test(spec, good_spec_values) {
  tt_check_spec s;
  char *err = NULL;
  int rc = tt_check_spec_parse(SPEC_PATH, k_good, strlen(k_good), &s, &err);
  cr_assert_eq(rc, 0, "%s", err ? err : "");
  cr_assert_str_eq(s.name, "vadd");
  cr_assert_str_eq(s.kernel, "vecadd");
  cr_assert_str_eq(s.source, TT_CHECK_TEST_DATA "/vecadd.cu");
  cr_assert_null(s.candidate);
  cr_assert_eq(s.seed, 9);
  cr_assert_eq(s.grid[0], 8);
  cr_assert_eq(s.grid[1], 1);
  cr_assert_eq(s.block[0], 128);
  cr_assert_eq(s.shared_bytes, 512);
  cr_assert_eq(s.nargs, 4);
  cr_assert(s.args[0].is_buffer);
  cr_assert_eq(s.args[0].dtype, TT_CHECK_F32);
  cr_assert_eq(s.args[0].len, 1000);
  cr_assert_eq(s.args[0].init.kind, TT_CHECK_INIT_UNIFORM);
  cr_assert(!s.args[0].output);
  cr_assert_eq(s.args[1].dtype, TT_CHECK_F16);
  cr_assert_eq(s.args[1].len, 1001);
  cr_assert(s.args[1].output);
  cr_assert(!s.args[1].has_init, "no init means zeros");
  cr_assert(!s.args[2].is_buffer);
  cr_assert_eq(s.args[2].ivalue, 1000);
  cr_assert(s.args[3].value_is_float);
  cr_assert_float_eq(s.args[3].fvalue, 1e-4, 1e-12);
  double a, r;
  tt_check_spec_tolerance(&s, TT_CHECK_F16, &a, &r);
  cr_assert_float_eq(a, 1e-4, 1e-12, "spec atol");
  cr_assert_float_eq(r, 1e-2, 1e-12, "f16 default rtol");
  tt_check_spec_free(&s);
}

Test(spec, unknown_top_level_key) {
  expect("seed: 9\n", "seed: 9\ncolour: red\n", 2, "inline.yaml:5:1: colour:", "unknown key");
}

Test(spec, unknown_arg_key) {
  expect("    len: n\n", "    lenght: n\n", 2, "inline.yaml:16:5: args[0]", "lenght: unknown key");
}

Test(spec, wrong_type_for_block) {
  expect("  block: [threads]\n", "  block: {x: 1}\n", 2, "inline.yaml:11:3: launch.block:", "expected a list");
}

Test(spec, bad_expression_points_into_it) {
  expect("    len: n + 1\n", "    len: n + nn\n", 2, "inline.yaml:20:14: args[1] (c).len:", "unknown name 'nn'");
  expect("  grid: [blocks]\n", "  grid: [\"blocks / 0\"]\n", 2, "inline.yaml:10:", "division by zero");
}

Test(spec, unknown_dtype) {
  expect("    type: f16*\n", "    type: f33*\n", 2, "inline.yaml:19:11: args[1] (c).type:", "unknown type 'f33*'");
}

Test(spec, bad_init) {
  expect("    init: uniform(-1, 1)\n", "    init: uniform(-1)\n", 2, "inline.yaml:17:11: args[0] (a).init:",
         "takes 2 arguments");
  expect("    init: uniform(-1, 1)\n", "    init: gaussian\n", 2, "inline.yaml:17:11:", "unknown init");
}

Test(spec, yaml_1_1_booleans_are_not_booleans) {
  expect("    output: true\n", "    output: yes\n", 2, "inline.yaml:21:13: args[1] (c).output:", "true or false");
}

Test(spec, scalar_needs_value_and_no_len) {
  expect("    value: n\n", "    len: n\n", 2, "args[2] (n).len:", "only buffers");
  expect("    value: n\n", "", 2, "args[2] (n).value:", "missing");
  expect("    value: 1.0e-4\n", "    value: abc\n", 2, "inline.yaml:27:12: args[3] (alpha).value:", "bad expression");
}

Test(spec, integer_scalar_rejects_float) {
  expect("    value: n\n", "    value: 2.5\n", 2, "args[2] (n).value:", "not an integer");
}

Test(spec, buffer_needs_len) {
  expect("    len: n\n", "", 2, "args[0] (a).len:", "missing");
}

Test(spec, nothing_to_compare) {
  expect("    output: true\n", "    output: false\n", 2, "args:", "output: true");
}

Test(spec, duplicate_names) {
  expect("  - name: c\n", "  - name: a\n", 2, "inline.yaml:18:", "already the name of args[0]");
}

Test(spec, tolerance_checks) {
  expect("  atol: 1e-4\n", "  atol: -1\n", 2, "inline.yaml:29:9: tolerance.atol:", ">= 0");
  expect("  atol: 1e-4\n", "  atl: 1\n", 2, "inline.yaml:29:3: tolerance.atl:", "unknown key");
  expect("  atol: 1e-4\n", "  atol: [1]\n", 2, "inline.yaml:29:3: tolerance.atol:", "got a list");
}

Test(spec, missing_required_keys) {
  expect("kernel: vecadd\n", "", 2, "inline.yaml:1:1: kernel:", "missing");
  expect("launch:\n  grid: [blocks]\n", "launch:\n", 2, "launch.grid:", "missing");
}

Test(spec, unreadable_source_is_input_error) {
  expect("source: vecadd.cu\n", "source: nope.cu\n", 3, "inline.yaml:2:9: source:", "cannot read");
}

Test(spec, yaml_syntax_error_has_position) {
  expect("  block: [threads]\n", "  block: [threads\n", 2, "inline.yaml:", "yaml:");
}

Test(spec, duplicate_yaml_key) {
  expect("seed: 9\n", "seed: 9\nseed: 10\n", 2, "inline.yaml:5:1:", "duplicate key");
}

Test(spec, language_unknown) {
  expect("seed: 9\n", "language: fortran\n", 2, "inline.yaml:4:11: language:", "unknown language");
}

Test(spec, constant_only_for_tile) {
  expect("    value: n\n", "    constant: 4\n", 2, "args[2] (n).constant:", "only tile kernels");
}

Test(spec, sizes_use_earlier_sizes_only) {
  expect("  n: 1000\n", "  n: threads\n", 2, "inline.yaml:6:6: sizes.n:", "unknown name 'threads'");
}

Test(spec, tile_spec_is_stored) {
  tt_check_spec s;
  char *err = NULL;
  int rc = tt_check_spec_load(TT_CHECK_TEST_DATA "/tile_add.check.yaml", &s, &err);
  cr_assert_eq(rc, 0, "%s", err ? err : "");
  cr_assert_eq(s.lang, TT_CHECK_LANG_CUTILE_PYTHON);
  cr_assert_eq(s.grid[0], 8);
  cr_assert_eq(s.args[0].ndim, 1);
  cr_assert_eq(s.args[0].shape[0], 1024);
  cr_assert_eq(s.args[0].len, 1024);
  cr_assert(s.args[3].is_constant);
  cr_assert_eq(s.args[3].ivalue, 128);
  cr_assert_eq(s.args[3].dtype, TT_CHECK_I64);
  tt_check_spec_free(&s);
}

Test(spec, tile_spec_rejects_block) {
  static const char t[] =
    "language: cutile-python\nsource: tile_add.py\nkernel: add\n"
    "launch: {grid: [1], block: [32]}\nargs:\n  - {name: c, type: f32*, shape: [4], output: true}\n";
  char *err = parse_err(t, 2);
  cr_assert(strstr(err, "inline.yaml:4:21: launch.block:"), "%s", err);
  free(err);
}

Test(spec, every_data_spec_parses) {
  const char *names[] = {"vecadd", "vecadd_translate", "ballot_count", "oob_write", "matmul_nosync", "matmul_ok"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.check.yaml", TT_CHECK_TEST_DATA, names[i]);
    tt_check_spec s;
    char *err = NULL;
    cr_assert_eq(tt_check_spec_load(path, &s, &err), 0, "%s: %s", names[i], err ? err : "");
    tt_check_spec_free(&s);
  }
}

Test(spec, missing_file_is_input_error) {
  tt_check_spec s;
  char *err = NULL;
  cr_assert_eq(tt_check_spec_load(TT_CHECK_TEST_DATA "/no-such.yaml", &s, &err), 3);
  cr_assert(strstr(err, "no-such.yaml"), "%s", err);
  free(err);
}

/* A block's shared memory beyond any GPU's (1 MiB ceiling) is refused, naming the key;
 * the largest real one (H100's 228 KiB) is not. */
Test(spec, absurd_shared_bytes) {
  expect("  shared_bytes: threads * 4\n", "  shared_bytes: 1 << 40\n", 2, "inline.yaml:12:", "launch.shared_bytes");
  expect("  shared_bytes: threads * 4\n", "  shared_bytes: 4194304\n", 2, "launch.shared_bytes", "more than any GPU");
  char *text = variant("  shared_bytes: threads * 4\n", "  shared_bytes: 233472\n");
  tt_check_spec s;
  char *err = NULL;
  cr_assert_eq(tt_check_spec_parse(SPEC_PATH, text, strlen(text), &s, &err), 0, "%s", err ? err : "");
  cr_assert_eq(s.shared_bytes, 233472);
  tt_check_spec_free(&s);
  free(text);
}
