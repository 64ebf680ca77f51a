/* proc.c — see proc.h. */
#include "checker/proc.h"

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
  memset(res, 0, sizeof *res);
  double t0 = tt_check_now();
  /* Everything the child needs is prepared before fork: only async-signal-safe calls
   * happen between fork and exec (tiletrans may run checks on several threads). */
  int ofd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int efd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (ofd < 0 || efd < 0 || nullfd < 0) {
    int e = errno;
    if (ofd >= 0) close(ofd);
    if (efd >= 0) close(efd);
    if (nullfd >= 0) close(nullfd);
    res->err = strdup(strerror(e));
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(ofd); close(efd); close(nullfd);
    res->err = strdup(strerror(e));
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(nullfd, 0);
    dup2(ofd, 1);
    dup2(efd, 2);
    if (cwd && chdir(cwd) != 0) _exit(126);
    execvp(argv[0], argv);
    static const char msg[] = "tiletrans: cannot execute the program\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(127);
  }
  setpgid(pid, pid); /* also here: whichever of parent and child runs first */
  close(ofd);
  close(efd);
  close(nullfd);
  int status = 0;
  struct timespec nap = {0, 1000000}; /* 1 ms, growing to 20 ms: quick runs stay quick */
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (timeout_s > 0 && tt_check_now() - t0 > timeout_s) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      res->timed_out = 1;
      break;
    }
    nanosleep(&nap, NULL);
    if (nap.tv_nsec < 20000000) nap.tv_nsec += 1000000;
  }
  res->wall_s = tt_check_now() - t0;
  if (!res->timed_out) {
    if (WIFEXITED(status)) {
      res->exited = 1;
      res->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      res->signaled = 1;
      res->sig = WTERMSIG(status);
    }
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
