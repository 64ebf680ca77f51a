/* proc.h — running a child program with a time limit and captured output.
 *
 * Owned by the checker. Every kernel run and every compile happens in a child
 * process: a kernel that crashes, loops or corrupts memory takes down only its
 * harness, and tiletrans reports it. The child gets its own process group so a
 * timeout kills everything it started (a compiler's cc1plus, say). */
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
} tt_check_proc;

/* Runs argv[0] (a path, or a name looked up in PATH) with argv, in `cwd` (NULL: the
 * current one), stdout and stderr going to the given files (which are then read back
 * into res). timeout_s <= 0 means no limit. Returns 0 when the child ran (whatever
 * its outcome), -1 when it could not be started (errno-style message in res->err). */
int tt_check_proc_run(char *const argv[], const char *cwd, const char *out_path,
                      const char *err_path, double timeout_s, tt_check_proc *res);

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
