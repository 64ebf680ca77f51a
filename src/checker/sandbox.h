/* sandbox.h — the process that keeps a checked program to itself (internal to proc.c).
 *
 * Owned by the checker. proc.c forks; the child (the keeper) calls
 * tt_check_sandbox_keep, which never returns. The keeper
 *   - optionally enters new user, mount, network and PID namespaces (no network, no
 *     view of other processes, the file system read-only outside the program's
 *     working directory) when the kernel lets unprivileged users have them;
 *   - forks the program under an address-space limit (RLIMIT_AS), without core dumps,
 *     with no capabilities, and with a seccomp filter that refuses signals, ptrace and
 *     process_vm_writev aimed at any process but itself: it cannot kill tiletrans;
 *   - waits for it under the time limit, then kills every descendant it left behind
 *     (as the namespace's init, or as a child subreaper), and
 *   - writes one tt_check_keeper_report to `report_fd` before exiting.
 * Everything the keeper needs is prepared before the fork (tiletrans may run checks
 * on several threads): the strings below are complete, nothing is allocated. */
#ifndef TT_CHECK_SANDBOX_H
#define TT_CHECK_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>

typedef struct tt_check_launch {
  char *const *argv;
  const char *cwd;          /* NULL: inherit */
  int in_fd, out_fd, err_fd, report_fd;
  double timeout_s;         /* <= 0: none */
  size_t memory_bytes;      /* RLIMIT_AS; 0: none */
  unsigned cpu_s;           /* RLIMIT_CPU; 0: none */
  int sandbox;              /* 0 off, 1 when available, 2 required */
  char uid_map[64], gid_map[64]; /* "<uid> <uid> 1\n": the same ids inside */
} tt_check_launch;

typedef struct tt_check_keeper_report {
  int started;              /* 0: the sandbox could not be set up (mode 2), or fork failed */
  int setup_errno;
  int status;               /* wait status of the program */
  int timed_out;
  int sandbox_level;        /* 0 none, 1 namespaces, 2 namespaces and a read-only file system */
  int leftovers;            /* descendants still running when the program ended (killed) */
} tt_check_keeper_report;

/* Runs in the forked child; never returns. */
void tt_check_sandbox_keep(const tt_check_launch *l) __attribute__((noreturn));

#endif
