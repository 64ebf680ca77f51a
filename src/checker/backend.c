/* backend.c — whether the cuda and hip backends can run on this machine.
 *
 * Owned by the checker. Asked once per `tiletrans check` run, before any build, so
 * that a missing GPU is one clear error instead of a BUILD-FAIL per spec. */
#include "checker/check.h"
#include "checker/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Looks a program up in PATH. */
static int in_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char buf[4096];
  for (const char *p = path; *p;) {
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
    if (n && access(buf, X_OK) == 0) return 1;
    if (!colon) break;
    p = colon + 1;
  }
  return 0;
}

/* `nvidia-smi -L` prints one "GPU n: ..." line per device. */
static int cuda_devices(void) {
  char out[] = "/tmp/tiletrans-smi-XXXXXX";
  int fd = mkstemp(out);
  if (fd < 0) return 0;
  close(fd);
  char err[sizeof out + 4];
  snprintf(err, sizeof err, "%s.err", out);
  char *argv[] = {"nvidia-smi", "-L", NULL};
  tt_check_proc pr;
  int n = 0;
  if (tt_check_proc_run(argv, NULL, out, err, 30, &pr) == 0 && pr.exited && pr.exit_code == 0)
    for (const char *p = pr.out; (p = strstr(p, "GPU ")); p += 4) n++;
  tt_check_proc_free(&pr);
  unlink(out);
  unlink(err);
  return n;
}

int tt_check_backend_available(tt_check_backend b, char **why) {
  *why = NULL;
  switch (b) {
  case TT_CHECK_BACKEND_SIM:
    return 1;
  case TT_CHECK_BACKEND_CUDA:
    if (!in_path("nvidia-smi") || cuda_devices() == 0) {
      *why = strdup("no CUDA device: nvidia-smi found no NVIDIA GPU on this machine (use --backend sim)");
      return 0;
    }
    if (!in_path("nvcc")) {
      *why = strdup("no CUDA compiler: nvcc is not in PATH (use --backend sim)");
      return 0;
    }
    return 1;
  case TT_CHECK_BACKEND_HIP:
    if (!in_path("hipcc")) {
      *why = strdup("the hip backend is not available on this machine: hipcc is not in PATH (use --backend sim)");
      return 0;
    }
    if (access("/dev/kfd", R_OK | W_OK) != 0) {
      *why = strdup("the hip backend is not available on this machine: no AMD GPU (/dev/kfd) (use --backend sim)");
      return 0;
    }
    *why = strdup("the hip backend (running on an AMD GPU) is not implemented by this build yet (use --backend sim)");
    return 0;
  }
  return 0;
}
