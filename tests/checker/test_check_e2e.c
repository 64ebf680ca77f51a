/* End-to-end tests: run the real `tiletrans check` on the specs under data/ and read
 * its JSON. They need the SIMT executor (src/sim) and compile C++ harnesses, so the
 * first run takes a while; the build cache (a dir in the build tree, never the
 * user's) makes later runs quick. */
#include <criterion/criterion.h>
#include <sys/stat.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

typedef struct {
  int code;
  char *out;
  json_t *json;
} run_t;

static run_t tiletrans(const char *args) {
  setenv("TILETRANS_CACHE_DIR", TT_CHECK_TEST_CACHE, 1);
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' check %s 2>&1", TT_CHECK_TEST_DATA, TT_CHECK_TILETRANS, args);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  size_t cap = 1 << 16, len = 0, n;
  char *buf = malloc(cap);
  while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
    len += n;
    if (len + 1 == cap) buf = realloc(buf, cap *= 2);
  }
  buf[len] = 0;
  int st = pclose(p);
  run_t r = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, buf, NULL};
  if (strstr(args, "--format json")) {
    /* stderr is merged: the JSON document starts at the first '{' at a line start. */
    const char *start = buf[0] == '{' ? buf : strstr(buf, "\n{");
    json_error_t e;
    r.json = start ? json_loads(start, JSON_DISABLE_EOF_CHECK, &e) : NULL;
    cr_assert_not_null(r.json, "no JSON in output of `check %s`:\n%s", args, buf);
  }
  return r;
}

static void run_free(run_t *r) {
  free(r->out);
  json_decref(r->json);
}

static json_t *check0(const run_t *r) {
  json_t *checks = json_object_get(r->json, "checks");
  cr_assert(json_is_array(checks) && json_array_size(checks) >= 1, "%s", r->out);
  return json_array_get(checks, 0);
}

static const char *str(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : "";
}

Test(e2e, vecadd_passes_and_json_has_the_contract_shape) {
  run_t r = tiletrans("vecadd.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "PASS", "%s", r.out);
  cr_assert_eq(r.code, 0);
  cr_assert_str_eq(str(json_object_get(r.json, "tool"), "name"), "tiletrans");
  cr_assert_str_eq(str(json_object_get(r.json, "tool"), "version"), "0.1.0");
  cr_assert_str_eq(str(c, "name"), "vecadd");
  cr_assert_str_eq(str(c, "spec"), "vecadd.check.yaml");
  cr_assert_str_eq(str(c, "backend"), "sim");
  cr_assert_str_eq(str(json_object_get(c, "reference"), "semantics"), "cuda/warp32");
  cr_assert_str_eq(str(json_object_get(c, "candidate"), "semantics"), "hip/warp64");
  cr_assert(json_is_null(json_object_get(c, "message")));
  cr_assert(json_is_number(json_object_get(c, "time_s")));
  json_t *o = json_array_get(json_object_get(c, "outputs"), 0);
  cr_assert_str_eq(str(o, "name"), "c");
  cr_assert_eq(json_integer_value(json_object_get(o, "count")), 10007);
  cr_assert_eq(json_integer_value(json_object_get(o, "mismatches")), 0);
  cr_assert(json_is_number(json_object_get(o, "max_abs_err")));
  cr_assert(json_is_number(json_object_get(o, "max_rel_err")));
  cr_assert_eq(json_integer_value(json_object_get(json_object_get(r.json, "summary"), "pass")), 1);
  run_free(&r);
}

Test(e2e, renamed_ballot_mismatches_on_wave64_and_passes_on_wave32) {
  run_t r = tiletrans("ballot_count.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "MISMATCH", "%s", r.out);
  cr_assert_eq(r.code, 1);
  cr_assert(strstr(str(c, "message"), "counts"), "%s", str(c, "message"));
  json_t *o = json_array_get(json_object_get(c, "outputs"), 0);
  cr_assert_gt(json_integer_value(json_object_get(o, "mismatches")), 0);
  run_free(&r);
  r = tiletrans("ballot_count.check.yaml --warp 32 --format json");
  c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "PASS", "%s", r.out);
  cr_assert_str_eq(str(json_object_get(c, "candidate"), "semantics"), "hip/warp32");
  run_free(&r);
}

Test(e2e, out_of_bounds_write_is_run_fail_with_the_line) {
  run_t r = tiletrans("oob_write.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "RUN-FAIL", "%s", r.out);
  cr_assert_eq(r.code, 1);
  const char *m = str(c, "message");
  cr_assert(strstr(m, "oob"), "%s", m);
  cr_assert(strstr(m, "oob_write.cu"), "the message names the kernel file: %s", m);
  run_free(&r);
}

Test(e2e, missing_syncthreads_is_caught) {
  run_t r = tiletrans("matmul_nosync.check.yaml --format json");
  json_t *c = check0(&r);
  const char *s = str(c, "status");
  cr_assert(!strcmp(s, "RUN-FAIL") || !strcmp(s, "MISMATCH"), "%s", r.out);
  if (!strcmp(s, "RUN-FAIL"))
    cr_assert(strstr(str(c, "message"), "race") || strstr(str(c, "message"), "lane schedule"),
              "a missing barrier is reported as such: %s", str(c, "message"));
  cr_assert_eq(r.code, 1);
  run_free(&r);
  r = tiletrans("matmul_ok.check.yaml --format json");
  cr_assert_str_eq(str(check0(&r), "status"), "PASS", "%s", r.out);
  run_free(&r);
}

/* Prepared kernels run as coroutines; a barrier they cannot await (in another
 * file's helper) makes the harness run them again on fibers, and a file C++20
 * rejects is built again as C++17.  Either way the check passes. */
Test(e2e, coroutine_fallbacks_pass) {
  run_t r = tiletrans("co_helper.check.yaml co_keyword.check.yaml --format json");
  json_t *checks = json_object_get(r.json, "checks");
  cr_assert_eq(json_array_size(checks), 2, "%s", r.out);
  for (size_t i = 0; i < 2; i++)
    cr_assert_str_eq(str(json_array_get(checks, i), "status"), "PASS", "%s", r.out);
  cr_assert_eq(r.code, 0);
  run_free(&r);
}

Test(e2e, schedule_dependent_outputs_are_a_race) {
  run_t r = tiletrans("last_writer.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "RUN-FAIL", "%s", r.out);
  cr_assert(strstr(str(c, "message"), "depend on the lane schedule"), "%s", str(c, "message"));
  run_free(&r);
  /* One schedule alone cannot see it: that is why several run. */
  r = tiletrans("last_writer.check.yaml --schedules forward --format json");
  cr_assert_str_eq(str(check0(&r), "status"), "PASS", "%s", r.out);
  run_free(&r);
}

Test(e2e, seeds_repeat) {
  run_t a = tiletrans("ballot_count.check.yaml --seed 11 --format json");
  run_t b = tiletrans("ballot_count.check.yaml --seed 11 --format json");
  json_t *oa = json_array_get(json_object_get(check0(&a), "outputs"), 0);
  json_t *ob = json_array_get(json_object_get(check0(&b), "outputs"), 0);
  cr_assert(json_equal(oa, ob), "same seed, same figures");
  /* (that another seed gives other data is a unit test: test_check_init.c) */
  run_free(&a);
  run_free(&b);
}

Test(e2e, translated_candidate_passes) {
  run_t r = tiletrans("vecadd_translate.check.yaml --format json");
  cr_assert_str_eq(str(check0(&r), "status"), "PASS", "%s", r.out);
  run_free(&r);
}

/* A cuTile Python spec without a candidate is translated to cuTile.jl by tiletrans
 * (rewrite --target julia). Until the tile interpreter runs cuTile.jl the translation
 * is a BUILD-FAIL that says so; once it does, it must PASS. */
Test(e2e, tile_kernels_without_a_candidate_are_translated_to_julia) {
  run_t r = tiletrans("tile_add.check.yaml --format json");
  json_t *c = check0(&r);
  const char *st = str(c, "status");
  if (strcmp(st, "PASS")) {
    cr_assert_str_eq(st, "BUILD-FAIL", "%s", r.out);
    cr_assert(strstr(str(c, "message"), "translated by tiletrans (logical) to "), "%s", r.out);
    cr_assert(strstr(str(c, "message"), "add.jl: cuTile.jl candidates are not run"), "%s", r.out);
    cr_assert_eq(r.code, 1);
  }
  run_free(&r);
  r = tiletrans("tile_add.check.yaml --layout flipped --format json");
  c = check0(&r);
  if (strcmp(str(c, "status"), "PASS"))
    cr_assert(strstr(str(c, "message"), "translated by tiletrans (flipped)"), "%s", r.out);
  run_free(&r);
}

/* A construct with no cuTile.jl mapping: TRANSLATE-FAIL naming its line. */
Test(e2e, tile_kernels_that_do_not_translate_say_where) {
  run_t r = tiletrans("tile_unsupported.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "TRANSLATE-FAIL", "%s", r.out);
  cr_assert(strstr(str(c, "message"), "tile_unsupported.py:7:"), "%s", r.out);
  cr_assert(strstr(str(c, "message"), "pack_to_bytes"), "%s", r.out);
  cr_assert_eq(r.code, 1);
  run_free(&r);
}

/* The tile interpreter against a torch reference (python3-torch: scripts/test.sh
 * installs it; without it the verdict is BUILD-FAIL naming the package, which fails
 * this test rather than skipping it). */
Test(e2e, tile_kernel_against_torch_passes) {
  run_t r = tiletrans("tile_add_torch.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "PASS", "%s", r.out);
  cr_assert_str_eq(str(json_object_get(c, "reference"), "semantics"), "torch/cpu", "%s", r.out);
  run_free(&r);
}

/* A CUDA spec against a torch reference: the source and then the candidate are each
 * compared with it (the reference side is torch/cpu); a source that disagrees is a
 * MISMATCH naming the source. */
Test(e2e, cuda_kernel_against_torch) {
  run_t r = tiletrans("vecadd_torch.check.yaml vecadd_torch_wrong.check.yaml --format json");
  json_t *checks = json_object_get(r.json, "checks");
  cr_assert_eq(json_array_size(checks), 2, "%s", r.out);
  json_t *ok = json_array_get(checks, 0), *bad = json_array_get(checks, 1);
  cr_assert_str_eq(str(ok, "status"), "PASS", "%s", r.out);
  cr_assert_str_eq(str(json_object_get(ok, "reference"), "semantics"), "torch/cpu", "%s", r.out);
  cr_assert_str_eq(str(bad, "status"), "MISMATCH", "%s", r.out);
  cr_assert(strstr(str(bad, "message"), "vecadd.cu does not match the torch reference"), "%s", r.out);
  run_free(&r);
}

/* A cuTile.jl candidate runs under its layout line; without one it is BUILD-FAIL at
 * the file's line; a cuTile.jl source (language: cutile-julia) runs against torch. */
Test(e2e, cutile_julia_candidate_and_its_layout_line) {
  run_t r = tiletrans("tile_add_jl.check.yaml tile_add_nolayout.check.yaml tile_add_jl_torch.check.yaml --format json");
  json_t *checks = json_object_get(r.json, "checks");
  cr_assert_eq(json_array_size(checks), 3, "%s", r.out);
  json_t *ok = json_array_get(checks, 0), *bad = json_array_get(checks, 1), *src = json_array_get(checks, 2);
  cr_assert_str_eq(str(src, "status"), "PASS", "a cuTile.jl source (language: cutile-julia) against torch: %s", r.out);
  cr_assert_str_eq(str(json_object_get(src, "candidate"), "semantics"), "cutile-julia (flipped)", "%s", r.out);
  cr_assert_str_eq(str(ok, "status"), "PASS", "%s", r.out);
  cr_assert_str_eq(str(json_object_get(ok, "candidate"), "semantics"), "cutile-julia (flipped)", "%s", r.out);
  cr_assert_str_eq(str(bad, "status"), "BUILD-FAIL", "%s", r.out);
  cr_assert(strstr(str(bad, "message"), "tile_add_nolayout.jl:3:1: a cuTile.jl candidate needs a '# layout: logical'"), "%s", r.out);
  run_free(&r);
}

Test(e2e, text_table_and_parallel_runs) {
  run_t r = tiletrans("-j 2 vecadd.check.yaml ballot_count.check.yaml");
  cr_assert_eq(r.code, 1, "%s", r.out);
  cr_assert(strstr(r.out, "NAME"), "%s", r.out);
  cr_assert(strstr(r.out, "VERDICT"), "%s", r.out);
  cr_assert(strstr(r.out, "cuda/warp32"), "%s", r.out);
  cr_assert(strstr(r.out, "hip/warp64"), "%s", r.out);
  cr_assert(strstr(r.out, "PASS"), "%s", r.out);
  cr_assert(strstr(r.out, "MISMATCH"), "%s", r.out);
  cr_assert(strstr(r.out, "2 checks: 1 passed, 1 mismatched"), "%s", r.out);
  /* each verdict as it finished (stderr, merged here), not a terminal: no live line */
  cr_assert(strstr(r.out, "[1/2] ") && strstr(r.out, "[2/2] "), "%s", r.out);
  cr_assert_null(strstr(r.out, "checks done"), "%s", r.out);
  run_free(&r);
}

Test(e2e, whole_program_as_it_stands_passes) {
  /* main, launches, a cuBLAS include, a local header with __shared__, a template
   * kernel with struct, enum and bool arguments; translated by tiletrans. */
  run_t r = tiletrans("program.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "PASS", "%s", r.out);
  cr_assert_eq(r.code, 0);
  run_free(&r);
}

Test(e2e, a_cuda_type_in_the_kernels_template_arguments_is_ported) {
  /* `kernel: scale<__nv_bfloat16>`: the HIP side has no __nv_bfloat16 (it failed to
   * build there); the candidate launches the kernel as the port names it. */
  run_t r = tiletrans("bf16_template.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "PASS", "%s", r.out);
  run_free(&r);
}

/* A stand-in for nvcc that answers as gcc (nvcc's host compiler) does: `message` on
 * stderr, exit 1. Returns its path (static buffer). */
static const char *fake_nvcc(const char *name, const char *message) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", TT_CHECK_TEST_CACHE, name);
  mkdir(TT_CHECK_TEST_CACHE, 0755);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  fprintf(f, "#!/bin/sh\necho '%s' >&2\nexit 1\n", message);
  fclose(f);
  chmod(path, 0755);
  return path;
}

Test(e2e, a_host_library_nvcc_cannot_find_is_a_note_not_a_failure) {
  /* The reference is the user's whole file: nvcc stopping at a host library that is
   * not installed says nothing about the kernel (apex's <ATen/ATen.h>). */
  setenv("TILETRANS_HIPCC", "", 1);
  setenv("TILETRANS_NVCC",
         fake_nvcc("nvcc-missing", "host_lib.cu:3:10: fatal error: tt_test_absent_host_lib/api.h: No such file or directory"), 1);
  run_t r = tiletrans("host_lib.check.yaml --format json");
  json_t *c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "PASS", "%s", r.out);
  cr_assert(strstr(str(c, "message"), "reference not compiled with nvcc: the file includes <tt_test_absent_host_lib/api.h>"),
            "%s", r.out);
  run_free(&r);
  /* Any other nvcc error is the reference's BUILD-FAIL. */
  setenv("TILETRANS_NVCC", fake_nvcc("nvcc-error", "host_lib.cu:6:3: error: expected a declaration"), 1);
  r = tiletrans("host_lib.check.yaml --format json");
  c = check0(&r);
  cr_assert_str_eq(str(c, "status"), "BUILD-FAIL", "%s", r.out);
  cr_assert(strstr(str(c, "message"), "reference (nvcc -arch=sm_90) does not build: host_lib.cu:6:3: error: expected a declaration"),
            "%s", r.out);
  run_free(&r);
  unsetenv("TILETRANS_NVCC");
  unsetenv("TILETRANS_HIPCC");
}

Test(e2e, sequence_with_given_data_and_expected_file) {
  run_t r = tiletrans("vecadd_seq.check.yaml vecadd_seq_wrong.check.yaml --format json");
  json_t *checks = json_object_get(r.json, "checks");
  cr_assert_str_eq(str(json_array_get(checks, 0), "status"), "PASS", "%s", r.out);
  json_t *w = json_array_get(checks, 1);
  cr_assert_str_eq(str(w, "status"), "MISMATCH", "%s", r.out);
  cr_assert(strstr(str(w, "message"), "differs from expect: ") && strstr(str(w, "message"), "[5]: expected 3, reference 2"),
            "%s", str(w, "message"));
  cr_assert_null(strstr(r.out, "[1/2]"), "no progress lines with --format json: %s", r.out);
  run_free(&r);
}

Test(e2e, spec_that_does_not_fit_the_kernel_is_refused_before_building) {
  run_t r = tiletrans("bad_sig.check.yaml");
  cr_assert_eq(r.code, 2, "%s", r.out);
  cr_assert(strstr(r.out, "bad_sig.check.yaml:") && strstr(r.out, "f64* does not match float"), "%s", r.out);
  run_free(&r);
}

Test(e2e, timeout_and_build_errors) {
  run_t r = tiletrans("spin.check.yaml broken.check.yaml --timeout 2 --format json");
  json_t *checks = json_object_get(r.json, "checks");
  json_t *spin = json_array_get(checks, 0), *broken = json_array_get(checks, 1);
  cr_assert_str_eq(str(spin, "status"), "RUN-FAIL", "%s", r.out);
  cr_assert(strstr(str(spin, "message"), "timeout"), "%s", str(spin, "message"));
  cr_assert_str_eq(str(broken, "status"), "BUILD-FAIL", "%s", r.out);
  cr_assert(strstr(str(broken, "message"), "broken.hip:6:"), "the message names the line: %s",
            str(broken, "message"));
  cr_assert(strstr(str(broken, "message"), "undefined_helper"), "%s", str(broken, "message"));
  cr_assert_eq(r.code, 1);
  run_free(&r);
}

Test(e2e, build_cache_is_reused) {
  char dir[] = "/tmp/tt-check-cache-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char args[512];
  snprintf(args, sizeof args, "vecadd.check.yaml --format json --seed 3");
  /* A fresh cache builds both sides; the second run finds them. */
  for (int round = 0; round < 2; round++) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && TILETRANS_CACHE_DIR='%s' '%s' check %s", TT_CHECK_TEST_DATA, dir,
             TT_CHECK_TILETRANS, args);
    FILE *p = popen(cmd, "r");
    json_error_t e;
    json_t *doc = json_loadf(p, JSON_DISABLE_EOF_CHECK, &e);
    pclose(p);
    cr_assert_not_null(doc, "%s", e.text);
    json_t *c = json_array_get(json_object_get(doc, "checks"), 0);
    const char *want = round == 0 ? "built" : "cached";
    cr_assert_str_eq(str(json_object_get(c, "reference"), "build"), want);
    cr_assert_str_eq(str(json_object_get(c, "candidate"), "build"), want);
    cr_assert_str_eq(str(c, "status"), "PASS");
    json_decref(doc);
  }
  char rm[600];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  cr_assert_eq(system(rm), 0);
}

Test(e2e, usage_and_input_errors) {
  run_t r = tiletrans("--frobnicate vecadd.check.yaml");
  cr_assert_eq(r.code, 2, "%s", r.out);
  run_free(&r);
  r = tiletrans("");
  cr_assert_eq(r.code, 2, "%s", r.out);
  run_free(&r);
  r = tiletrans("--warp 48 vecadd.check.yaml");
  cr_assert_eq(r.code, 2, "%s", r.out);
  run_free(&r);
  r = tiletrans("no-such-spec.yaml");
  cr_assert_eq(r.code, 3, "%s", r.out);
  run_free(&r);
  r = tiletrans("vecadd.cu");  /* not YAML mapping: a spec error */
  cr_assert_eq(r.code, 2, "%s", r.out);
  run_free(&r);
  r = tiletrans("--help");
  cr_assert_eq(r.code, 0, "%s", r.out);
  cr_assert(strstr(r.out, "--backend"), "%s", r.out);
  run_free(&r);
}
