/* proc.h — running a child program with a time limit and captured output.
 *
 * Owned by the checker. Every kernel run and every compile happens in a child
 * process: a kernel that crashes, loops or corrupts memory takes down only its
 * harness, and tiletrans reports it. Each program runs under a keeper process
 * (sandbox.h) that gives it its own process group, kills everything it left behind
 * (a compiler's cc1plus, a forked helper) when it ends or times out, refuses its
 * signals to other processes, and, for harnesses, limits its memory and can put it in
 * a sandbox. */
#ifndef TT_CHECK_PROC_H
#define TT_CHECK_PROC_H

#include <stddef.h>

typedef struct tt_check_proc {
  int exited;          /* exited normally; exit_code holds its status */
  int exit_code;
  int signaled;        /* killed by signal `sig` */
  int sig;
  int timed_out;       /* killed by us after the time limit */
  char *out;           /* captured stdout and stderr (malloc'd, NUL-terminated,
                          at most the last 256 KiB of each) */
  char *err;
  double wall_s;
  int sandbox_level;   /* 0: none; 1: own user, PID and network namespaces (no network,
                          no other processes in sight); 2: also a read-only file system
                          outside the working directory */
  int leftovers;       /* descendants still running when the program ended (killed) */
} tt_check_proc;

/* How a program is kept to itself (beyond what every run gets: its own process group,
 * no core dumps, descendants killed at the end, no signals to other processes). */
typedef enum tt_check_sandbox {
  TT_CHECK_SANDBOX_OFF = 0,
  TT_CHECK_SANDBOX_AUTO = 1, /* namespaces where unprivileged users may have them */
  TT_CHECK_SANDBOX_ON = 2,   /* namespaces and a read-only file system, or do not run */
} tt_check_sandbox;

typedef struct tt_check_proc_limits {
  size_t memory_bytes;       /* RLIMIT_AS of the program; 0: no limit */
  unsigned cpu_s;            /* RLIMIT_CPU of each of its processes (load-independent); 0: none */
  tt_check_sandbox sandbox;
} tt_check_proc_limits;

/* Runs argv[0] (a path, or a name looked up in PATH) with argv, in `cwd` (NULL: the
 * current one), stdout and stderr going to the given files (which are then read back
 * into res). timeout_s <= 0 means no limit. Returns 0 when the child ran (whatever
 * its outcome), -1 when it could not be started (errno-style message in res->err). */
int tt_check_proc_run(char *const argv[], const char *cwd, const char *out_path,
                      const char *err_path, double timeout_s, tt_check_proc *res);

/* The same under `lim` (NULL: no memory limit, no sandbox). With
 * TT_CHECK_SANDBOX_ON, returns -1 (and says why in res->err) when the namespaces or
 * the read-only mounts cannot be had. */
int tt_check_proc_run_limited(char *const argv[], const char *cwd, const char *out_path,
                              const char *err_path, double timeout_s, const tt_check_proc_limits *lim,
                              tt_check_proc *res);

/* Parses a size: a number of bytes with an optional K, M, G or T suffix (powers of
 * 1024). Returns 0, or -1 when it is not one or is 0. */
int tt_check_parse_size(const char *s, size_t *out);

void tt_check_proc_free(tt_check_proc *res);

/* Reads a whole file (malloc'd, NUL-terminated). Returns NULL on error. When max > 0
 * and the file is larger, only its last `max` bytes are returned. */
char *tt_check_read_file(const char *path, size_t *len, size_t max);

/* Writes len bytes to path through a temporary file and rename(), so a concurrent
 * reader never sees half a file. Returns 0 or -1 (errno set). */
int tt_check_write_file(const char *path, const void *data, size_t len);

/* Monotonic seconds. */
double tt_check_now(void);

#endif
