/* Unit tests of child-process running (src/checker/proc.c), SHA-256 (hash.c) and
 * compiler-error extraction (build.c). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checker/build.h"
#include "checker/proc.h"
#include "util/sha256.h"

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
  tt_sha256 h;
  char hex[65];
  tt_sha256_init(&h);
  tt_sha256_update(&h, s, strlen(s));
  tt_sha256_hex(&h, hex);
  cr_assert_str_eq(hex, want, "sha256(\"%s\")", s);
}

/* --- keeping a program to itself (sandbox.c) ------------------------------------- */

static volatile sig_atomic_t usr1_seen;
static void on_usr1(int sig) { (void)sig; usr1_seen++; }

static int run_sh(const char *script, const char *cwd, double timeout, const tt_check_proc_limits *lim,
                  tt_check_proc *p) {
  char *argv[] = {"sh", "-c", (char *)script, NULL};
  return tt_check_proc_run_limited(argv, cwd, out_path, err_path, timeout, lim, p);
}

/* True when this machine lets an unprivileged process have user and network
 * namespaces (what the sandbox needs), asked independently of proc.c. */
static int namespaces_available(void) { return system("unshare -Urn true >/dev/null 2>&1") == 0; }

Test(proc, memory_limit_is_the_address_space_limit) {
  tt_check_proc_limits lim = {.memory_bytes = (size_t)64 << 20};
  tt_check_proc p;
  cr_assert_eq(run_sh("ulimit -v", NULL, 10, &lim, &p), 0);
  cr_assert_str_eq(p.out, "65536\n");
  tt_check_proc_free(&p);
}

/* The limit that ends GCC's endless loop on a bad precompiled header: CPU time, which
 * load does not stretch, for the program and each process it starts. */
Test(proc, cpu_limit_ends_a_spinning_descendant) {
  tt_check_proc_limits lim = {.cpu_s = 1};
  tt_check_proc p;
  cr_assert_eq(run_sh("ulimit -t; sh -c 'while :; do :; done'; echo after", NULL, 120, &lim, &p), 0);
  cr_assert_str_eq(p.out, "1\nafter\n", "got %s", p.out);
  cr_assert_not(p.timed_out);
  cr_assert_lt(p.wall_s, 100);
  tt_check_proc_free(&p);
}

Test(proc, parse_size) {
  size_t v;
  cr_assert_eq(tt_check_parse_size("4G", &v), 0);
  cr_assert_eq(v, (size_t)4 << 30);
  cr_assert_eq(tt_check_parse_size("512m", &v), 0);
  cr_assert_eq(v, (size_t)512 << 20);
  cr_assert_eq(tt_check_parse_size("1000", &v), 0);
  cr_assert_eq(v, 1000);
  cr_assert_eq(tt_check_parse_size("0", &v), -1);
  cr_assert_eq(tt_check_parse_size("4X", &v), -1);
  cr_assert_eq(tt_check_parse_size("-1G", &v), -1);
  cr_assert_eq(tt_check_parse_size("99999999999T", &v), -1);
}

/* Background children, and one that left the group with setsid, die with the program.
 * The script ends only once the setsid child is in its own session (it touches
 * `ready` after setsid): ended sooner, the group kill takes that child as well and
 * there is one leftover to count, not two. */
Test(proc, descendants_are_killed_when_the_program_ends) {
  tt_check_proc_limits lim = {.sandbox = TT_CHECK_SANDBOX_OFF};
  tt_check_proc p;
  char dir[] = "/tmp/tt-proc-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  double t0 = tt_check_now();
  cr_assert_eq(run_sh("sleep 30 & echo $!; setsid sh -c 'touch ready; exec sleep 30' & echo $!; "
                      "while [ ! -e ready ]; do sleep 0.01; done",
                      dir, 20, &lim, &p),
               0);
  char ready[64];
  snprintf(ready, sizeof ready, "%s/ready", dir);
  unlink(ready);
  rmdir(dir);
  cr_assert(p.exited && p.exit_code == 0);
  cr_assert_geq(p.leftovers, 2, "leftovers: %d", p.leftovers);
  int a = 0, b = 0;
  cr_assert_eq(sscanf(p.out, "%d %d", &a, &b), 2, "out: %s", p.out);
  cr_assert(kill(a, 0) != 0 && kill(b, 0) != 0, "a leftover sleep is still running");
  cr_assert_lt(tt_check_now() - t0, 10.0);
  tt_check_proc_free(&p);
}

static void expect_cannot_signal_us(tt_check_sandbox mode) {
  struct sigaction sa = {.sa_handler = on_usr1}, old;
  sigaction(SIGUSR1, &sa, &old);
  usr1_seen = 0;
  char script[128];
  /* Only this process is aimed at: a broken filter must not let a test signal
   * everything the user may signal (kill -1). */
  snprintf(script, sizeof script, "kill -USR1 %d; echo rc=$?", (int)getpid());
  tt_check_proc_limits lim = {.sandbox = mode};
  tt_check_proc p;
  cr_assert_eq(run_sh(script, NULL, 10, &lim, &p), 0);
  usleep(100000);
  cr_assert_eq(usr1_seen, 0, "the program signalled tiletrans");
  cr_assert_str_eq(p.out, "rc=1\n");
  sigaction(SIGUSR1, &old, NULL);
  tt_check_proc_free(&p);
}

Test(proc, the_program_cannot_signal_tiletrans) { expect_cannot_signal_us(TT_CHECK_SANDBOX_OFF); }
Test(proc, the_program_cannot_signal_tiletrans_from_the_sandbox) { expect_cannot_signal_us(TT_CHECK_SANDBOX_AUTO); }

/* It can still signal itself (the sim's timeouts and crash reports rely on that). */
Test(proc, the_program_can_signal_itself) {
  tt_check_proc_limits lim = {.sandbox = TT_CHECK_SANDBOX_AUTO};
  tt_check_proc p;
  cr_assert_eq(run_sh("kill -TERM $$", NULL, 10, &lim, &p), 0);
  cr_assert(p.signaled && p.sig == SIGTERM);
  tt_check_proc_free(&p);
}

Test(proc, sandbox_isolates_where_namespaces_exist) {
  char dir[] = "/tmp/tt-sbx-XXXXXX", outside[64];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(outside, sizeof outside, "/tmp/tt-sbx-outside-%d", (int)getpid());
  unlink(outside);
  char script[512];
  snprintf(script, sizeof script,
           "echo pid=$$; echo net=$(tail -n +3 /proc/net/dev | wc -l); "
           "(echo x > %s) 2>/dev/null && echo wrote-outside; echo y > inside && echo wrote-inside",
           outside);
  tt_check_proc_limits on = {.sandbox = TT_CHECK_SANDBOX_ON};
  tt_check_proc p;
  if (!namespaces_available()) {
    cr_assert_eq(run_sh(script, dir, 10, &on, &p), -1, "sandbox=on ran without namespaces");
    cr_assert(p.err && strstr(p.err, "sandbox"));
    tt_check_proc_free(&p);
    tt_check_proc_limits au = {.sandbox = TT_CHECK_SANDBOX_AUTO};
    cr_assert_eq(run_sh("true", dir, 10, &au, &p), 0);
    cr_assert_eq(p.sandbox_level, 0);
  } else {
    cr_assert_eq(run_sh(script, dir, 10, &on, &p), 0, "%s", p.err ? p.err : "");
    cr_assert_eq(p.sandbox_level, 2);
    cr_assert(strstr(p.out, "pid=2\n"), "not in its own PID namespace: %s", p.out);
    cr_assert(strstr(p.out, "net=1\n"), "network devices besides lo: %s", p.out);
    cr_assert(!strstr(p.out, "wrote-outside") && access(outside, F_OK) != 0, "wrote outside its work dir");
    cr_assert(strstr(p.out, "wrote-inside"), "could not write its work dir: %s %s", p.out, p.err);
    char inside[64];
    snprintf(inside, sizeof inside, "%s/inside", dir);
    cr_assert_eq(access(inside, F_OK), 0);
    unlink(inside);
  }
  tt_check_proc_free(&p);
  unlink(outside);
  rmdir(dir);
}

Test(proc, sandboxed_timeout_kills_everything) {
  tt_check_proc_limits lim = {.sandbox = TT_CHECK_SANDBOX_AUTO};
  tt_check_proc p;
  double t0 = tt_check_now();
  cr_assert_eq(run_sh("sleep 30 & sleep 30", "/tmp", 0.3, &lim, &p), 0);
  cr_assert(p.timed_out);
  cr_assert_lt(tt_check_now() - t0, 5.0);
  tt_check_proc_free(&p);
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
  /* ggml's vendors/hip.h: a warning quoting `hipGetErrorString` comes before the error */
  m = tt_check_first_errors("/h/hip.h:72: warning: \"hipGetErrorString\" redefined\n"
                            "   72 | #define hipGetErrorString(e) rt_error_string(e)\n"
                            "/src/c.cuh:851:18: error: '__hmax' was not declared in this scope\n",
                            NULL, 1);
  cr_assert_str_eq(m, "/src/c.cuh:851:18: error: '__hmax' was not declared in this scope");
  free(m);
  m = tt_check_first_errors("/s/k.cu(12): error: identifier \"x\" is undefined\n", NULL, 1);
  cr_assert_str_eq(m, "/s/k.cu(12): error: identifier \"x\" is undefined", "nvcc's form");
  free(m);
  m = tt_check_first_errors("no problems here\n", NULL, 3);
  cr_assert_str_eq(m, "no problems here");
  free(m);
}
