/* proc.c — see proc.h. */
#define _GNU_SOURCE /* pipe2 */
#include "checker/proc.h"
#include "checker/sandbox.h"

#include <stdint.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

double tt_check_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *tt_check_read_file(const char *path, size_t *len, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
  long size = ftell(f);
  if (size < 0) { fclose(f); return NULL; }
  size_t want = (size_t)size, skip = 0;
  if (max > 0 && want > max) { skip = want - max; want = max; }
  char *buf = malloc(want + 1);
  if (!buf || fseek(f, (long)skip, SEEK_SET) != 0 || fread(buf, 1, want, f) != want) {
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  buf[want] = 0;
  if (len) *len = want;
  return buf;
}

int tt_check_write_file(const char *path, const void *data, size_t len) {
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp) return -1;
  snprintf(tmp, n, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) { free(tmp); return -1; }
  const char *p = data;
  size_t left = len;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      close(fd); unlink(tmp); free(tmp);
      return -1;
    }
    p += w;
    left -= (size_t)w;
  }
  fchmod(fd, 0644);
  if (close(fd) != 0 || rename(tmp, path) != 0) { unlink(tmp); free(tmp); return -1; }
  free(tmp);
  return 0;
}

int tt_check_proc_run(char *const argv[], const char *cwd, const char *out_path,
                      const char *err_path, double timeout_s, tt_check_proc *res) {
  return tt_check_proc_run_limited(argv, cwd, out_path, err_path, timeout_s, NULL, res);
}

int tt_check_parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  if (!s || *s < '0' || *s > '9') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = 0;
  switch (*end) {
  case 'K': case 'k': shift = 10; end++; break;
  case 'M': case 'm': shift = 20; end++; break;
  case 'G': case 'g': shift = 30; end++; break;
  case 'T': case 't': shift = 40; end++; break;
  default: break;
  }
  if (*end || errno || v == 0 || v > (SIZE_MAX >> shift)) return -1;
  *out = (size_t)v << shift;
  return 0;
}

static void fill_status(tt_check_proc *res, int status) {
  if (WIFEXITED(status)) {
    res->exited = 1;
    res->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res->signaled = 1;
    res->sig = WTERMSIG(status);
  }
}

static void close_all(int *fds, int n) {
  for (int i = 0; i < n; i++)
    if (fds[i] >= 0) close(fds[i]);
}

int tt_check_proc_run_limited(char *const argv[], const char *cwd, const char *out_path,
                              const char *err_path, double timeout_s, const tt_check_proc_limits *lim,
                              tt_check_proc *res) {
  memset(res, 0, sizeof *res);
  double t0 = tt_check_now();
  /* Everything the keeper needs is prepared before fork: only async-signal-safe calls
   * happen in it (tiletrans may run checks on several threads). */
  tt_check_launch l = {.argv = argv, .cwd = cwd, .timeout_s = timeout_s,
                       .memory_bytes = lim ? lim->memory_bytes : 0, .cpu_s = lim ? lim->cpu_s : 0, .sandbox = lim ? (int)lim->sandbox : 0};
  snprintf(l.uid_map, sizeof l.uid_map, "%u %u 1\n", (unsigned)getuid(), (unsigned)getuid());
  snprintf(l.gid_map, sizeof l.gid_map, "%u %u 1\n", (unsigned)getgid(), (unsigned)getgid());
  int pipefd[2] = {-1, -1};
  int fds[5] = {open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644),
                open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644),
                open("/dev/null", O_RDONLY | O_CLOEXEC), -1, -1};
  if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0 || pipe2(pipefd, O_CLOEXEC) != 0) {
    int e = errno;
    close_all(fds, 3);
    res->err = strdup(strerror(e));
    return -1;
  }
  fds[3] = pipefd[0];
  fds[4] = pipefd[1];
  l.out_fd = fds[0];
  l.err_fd = fds[1];
  l.in_fd = fds[2];
  l.report_fd = pipefd[1];
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close_all(fds, 5);
    res->err = strdup(strerror(e));
    return -1;
  }
  if (pid == 0) tt_check_sandbox_keep(&l);
  setpgid(pid, pid); /* also here: whichever of parent and child runs first */
  close_all(fds, 3);
  close(pipefd[1]);
  /* The keeper enforces the time limit; this is the backstop for a keeper that hangs. */
  int status = 0, backstop = 0;
  struct timespec nap = {0, 1000000};
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (timeout_s > 0 && tt_check_now() - t0 > timeout_s + 10) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      backstop = 1;
      break;
    }
    nanosleep(&nap, NULL);
    if (nap.tv_nsec < 20000000) nap.tv_nsec += 1000000;
  }
  tt_check_keeper_report rep;
  ssize_t got = read(pipefd[0], &rep, sizeof rep);
  close(pipefd[0]);
  res->wall_s = tt_check_now() - t0;
  if (got != (ssize_t)sizeof rep || backstop) {
    res->timed_out = backstop;
    if (!backstop) fill_status(res, status); /* the keeper itself died */
  } else if (!rep.started) {
    res->err = tt_xasprintf("cannot set up the %s: %s", lim && lim->sandbox == TT_CHECK_SANDBOX_ON ? "sandbox" : "child process",
                            strerror(rep.setup_errno));
    return -1;
  } else {
    res->timed_out = rep.timed_out;
    if (!rep.timed_out) fill_status(res, rep.status);
    res->sandbox_level = rep.sandbox_level;
    res->leftovers = rep.leftovers;
  }
  res->out = tt_check_read_file(out_path, NULL, 256 * 1024);
  res->err = tt_check_read_file(err_path, NULL, 256 * 1024);
  if (!res->out) res->out = strdup("");
  if (!res->err) res->err = strdup("");
  return 0;
}

void tt_check_proc_free(tt_check_proc *res) {
  free(res->out);
  free(res->err);
  res->out = res->err = NULL;
}
