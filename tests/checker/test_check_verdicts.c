/* End-to-end tests of what a verdict means (issue 10, points 4 and 5): a PASS also
 * means the candidate builds with hipcc (and the reference with nvcc) where installed;
 * same-value stores by one warp are a note, not a race; an undefined shuffle read is
 * RUN-FAIL only when it reaches an output (else a warning); a waiver is printed. The
 * specs are under data/verdicts/. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  char *out;
  json_t *check;
  json_t *doc;
} run_t;

static run_t check(const char *spec) {
  setenv("TILETRANS_CACHE_DIR", TT_CHECK_TEST_CACHE, 1);
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd '%s/verdicts' && '%s' check %s --format json 2>/dev/null", TT_CHECK_TEST_DATA,
           TT_CHECK_TILETRANS, spec);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  size_t cap = 1 << 16, len = 0, n;
  char *buf = malloc(cap);
  while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
    len += n;
    if (len + 1 == cap) buf = realloc(buf, cap *= 2);
  }
  buf[len] = 0;
  pclose(p);
  json_error_t e;
  run_t r = {buf, NULL, json_loads(buf, 0, &e)};
  cr_assert_not_null(r.doc, "no JSON from `check %s`: %s", spec, buf);
  r.check = json_array_get(json_object_get(r.doc, "checks"), 0);
  cr_assert_not_null(r.check, "%s", buf);
  return r;
}

static const char *status(const run_t *r) { return json_string_value(json_object_get(r->check, "status")); }
static const char *message(const run_t *r) {
  const char *m = json_string_value(json_object_get(r->check, "message"));
  return m ? m : "";
}
static void done(run_t *r) {
  json_decref(r->doc);
  free(r->out);
}

static int have(const char *prog) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
  return system(cmd) == 0;
}

Test(verdicts, the_real_compilers_get_the_specs_includes_and_defines) {
  /* scaled.cu includes <tt_scale.h> from incdir/ (`includes:`) and uses TT_OFFSET
   * (`defines:`); nvcc and hipcc got neither, and every such PASS was BUILD-FAIL
   * ("tt_scale.h: No such file"), as cuda-samples' helper_cuda.h under -I Common was. */
  if (!have("hipcc") && !have("nvcc") && access("/usr/local/cuda/bin/nvcc", X_OK) != 0)
    cr_skip_test("neither hipcc nor nvcc is installed");
  run_t r = check("includes_realcc.check.yaml");
  cr_expect_str_eq(status(&r), "PASS", "%s", message(&r));
  done(&r);
}

Test(verdicts, a_name_hip_5_2_lacks_is_build_fail_quoting_hipcc) {
  if (!have("hipcc")) cr_skip_test("hipcc is not installed");
  run_t r = check("hipcc_sync.check.yaml");
  cr_assert_str_eq(status(&r), "BUILD-FAIL", "%s", r.out);
  cr_expect(strstr(message(&r), "candidate (hipcc --offload-arch=gfx90a) does not build: "), "%s", message(&r));
  cr_expect(strstr(message(&r), "rowsum_sync.hip:8:40: error: use of undeclared identifier '__shfl_xor_sync'"),
            "quotes hipcc's first error at file:line: %s", message(&r));
  done(&r);
}

Test(verdicts, same_value_stores_of_a_warp_are_a_note) {
  run_t r = check("same_value.check.yaml");
  cr_assert_str_eq(status(&r), "PASS", "%s", r.out);
  cr_expect(strstr(message(&r), "reference: tt_sim: note: lanes of a warp store the same value to __shared__ part"),
            "%s", message(&r));
  cr_expect(strstr(message(&r), "candidate: tt_sim: note: "), "%s", message(&r));
  done(&r);
}

Test(verdicts, stores_of_one_value_by_two_warps_are_still_a_race) {
  run_t r = check("race_raw.check.yaml");
  cr_assert_str_eq(status(&r), "RUN-FAIL", "%s", r.out);
  cr_expect(strstr(message(&r), "data race on __shared__ seen"), "%s", message(&r));
  done(&r);
}

Test(verdicts, a_poisoned_read_that_reaches_an_output_is_run_fail_naming_the_shuffle) {
  run_t r = check("poison_used.check.yaml");
  cr_assert_str_eq(status(&r), "RUN-FAIL", "%s", r.out);
  cr_expect(strstr(message(&r), "__shfl_down_sync at ") && strstr(message(&r), "partial.cu:6"), "%s", message(&r));
  cr_expect(strstr(message(&r), "reaches the outputs"), "%s", message(&r));
  done(&r);
}

Test(verdicts, a_poisoned_read_that_reaches_no_output_is_pass_with_a_warning) {
  run_t r = check("poison_unused.check.yaml");
  cr_assert_str_eq(status(&r), "PASS", "%s", r.out);
  cr_expect(strstr(message(&r), "reference: tt_sim: warning: inactive-lane read: __shfl_down_sync at ") &&
                strstr(message(&r), "partial.cu:12"), "%s", message(&r));
  cr_expect(strstr(message(&r), "candidate: tt_sim: warning: inactive-lane read: __shfl_down at "), "%s", message(&r));
  done(&r);
}

Test(verdicts, a_waived_detector_is_printed_with_its_reason) {
  run_t r = check("race_waived.check.yaml");
  cr_assert_str_eq(status(&r), "PASS", "%s", r.out);
  cr_expect(strstr(message(&r), "waived: the race detector for kernel flag: every thread stores the same constant"),
            "%s", message(&r));
  done(&r);
}
