/* Unit tests of child-process running (src/checker/proc.c), SHA-256 (hash.c) and
 * compiler-error extraction (build.c). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checker/build.h"
#include "checker/hash.h"
#include "checker/proc.h"

static char out_path[] = "/tmp/tt-proc-out-XXXXXX", err_path[] = "/tmp/tt-proc-err-XXXXXX";

static void setup(void) {
  close(mkstemp(out_path));
  close(mkstemp(err_path));
}

static void teardown(void) {
  unlink(out_path);
  unlink(err_path);
}

TestSuite(proc, .init = setup, .fini = teardown);

Test(proc, captures_output_and_exit_code) {
  char *argv[] = {"sh", "-c", "echo hello; echo oops >&2; exit 3", NULL};
  tt_check_proc p;
  cr_assert_eq(tt_check_proc_run(argv, NULL, out_path, err_path, 10, &p), 0);
  cr_assert(p.exited);
  cr_assert_eq(p.exit_code, 3);
  cr_assert_str_eq(p.out, "hello\n");
  cr_assert_str_eq(p.err, "oops\n");
  tt_check_proc_free(&p);
}

Test(proc, reports_signals) {
  char *argv[] = {"sh", "-c", "kill -SEGV $$", NULL};
  tt_check_proc p;
  cr_assert_eq(tt_check_proc_run(argv, NULL, out_path, err_path, 10, &p), 0);
  cr_assert(p.signaled);
  cr_assert_eq(p.sig, SIGSEGV);
  tt_check_proc_free(&p);
}

Test(proc, kills_after_the_time_limit) {
  char *argv[] = {"sh", "-c", "sleep 30 & sleep 30", NULL};
  tt_check_proc p;
  double t0 = tt_check_now();
  cr_assert_eq(tt_check_proc_run(argv, NULL, out_path, err_path, 0.3, &p), 0);
  cr_assert(p.timed_out);
  cr_assert_lt(tt_check_now() - t0, 5.0);
  tt_check_proc_free(&p);
}

Test(proc, missing_program_exits_127) {
  char *argv[] = {"/no/such/program", NULL};
  tt_check_proc p;
  cr_assert_eq(tt_check_proc_run(argv, NULL, out_path, err_path, 10, &p), 0);
  cr_assert(p.exited);
  cr_assert_eq(p.exit_code, 127);
  tt_check_proc_free(&p);
}

static void sha(const char *s, const char *want) {
  tt_check_sha256 h;
  char hex[65];
  tt_check_sha256_init(&h);
  tt_check_sha256_update(&h, s, strlen(s));
  tt_check_sha256_hex(&h, hex);
  cr_assert_str_eq(hex, want, "sha256(\"%s\")", s);
}

Test(hash, sha256_known_answers) {
  sha("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  sha("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(build, first_errors_lead_with_the_kernel_line) {
  const char *log =
    "In file included from /tmp/h.cpp:4:\n"
    "/sim/tt_sim_hip.h: In instantiation of 'x':\n"
    "/src/k.hip:30:22:   required from here\n"
    "/sim/tt_sim_hip.h:61:47: error: static assertion failed: The mask must be a 64-bit integer.\n"
    "   61 |     static_assert(...)\n";
  char *m = tt_check_first_errors(log, "/src/k.hip", 8);
  cr_assert(!strncmp(m, "/src/k.hip:30:22:   required from here\n/sim/tt_sim_hip.h:61:47: error:", 70), "%s", m);
  free(m);
  m = tt_check_first_errors("a\n/src/k.hip:3:1: error: bad\nmore\n", "/src/k.hip", 1);
  cr_assert_str_eq(m, "/src/k.hip:3:1: error: bad");
  free(m);
  m = tt_check_first_errors("no problems here\n", NULL, 3);
  cr_assert_str_eq(m, "no problems here");
  free(m);
}
