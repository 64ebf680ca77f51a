/* sandbox.c — see sandbox.h. Runs only in forked children: no allocation, no stdio. */
#define _GNU_SOURCE
#include "checker/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/mount.h>
#include <linux/securebits.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#define TT_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TT_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void put_report(const tt_check_launch *l, const tt_check_keeper_report *r) {
  ssize_t ignored = write(l->report_fd, r, sizeof *r);
  (void)ignored;
}

static int write_str(const char *path, const char *s) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, s, strlen(s));
  close(fd);
  return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* --- the program ------------------------------------------------------------------ */

/* Signals, ptrace and cross-process writes may aim only at the program itself: `self`
 * is its pid as its own namespace sees it (pid 0 and -self, its group, included).
 * Everything else the program may do. Unknown architectures get no filter. */
static int refuse_other_processes(pid_t self) {
#ifdef TT_AUDIT_ARCH
  const __u32 me = (__u32)self, my_group = (__u32)-self;
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TT_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 12, 0),        /* x32 calls -> refuse */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 7, 0),          /* -> kill check */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 12, 0),       /* -> own-tgid check */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigqueueinfo, 11, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_tgsigqueueinfo, 10, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tkill, 7, 0),         /* -> refuse */
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 6, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 5, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      /* kill(pid, sig): itself, its group, or 0 */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, me, 3, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, my_group, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      /* tgkill / rt_[tg]sigqueueinfo(tgid, ...): its own threads */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, me, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  /* Jump offsets count the instructions skipped: the x32, tkill, ptrace and
   * process_vm_writev jumps land on the kill check's EPERM (index 17), tgkill and
   * rt_[tg]sigqueueinfo on the own-tgid check (index 19). */
  struct sock_fprog prog = {.len = sizeof f / sizeof *f, .filter = f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
#else
  (void)self;
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
#endif
}

/* Inside the namespaces the keeper holds every capability; the program gets none, so
 * it cannot remount what the keeper made read-only. */
static void drop_capabilities(void) {
  prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                               SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED, 0, 0, 0);
  for (int cap = 0; cap <= 63; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct d[2];
  memset(d, 0, sizeof d);
  syscall(SYS_capset, &h, d);
}

static void exec_program(const tt_check_launch *l, int in_ns) __attribute__((noreturn));
static void exec_program(const tt_check_launch *l, int in_ns) {
  setpgid(0, 0); /* its own group: kill(0) reaches neither the keeper nor tiletrans */
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (l->memory_bytes) {
    struct rlimit as = {l->memory_bytes, l->memory_bytes};
    setrlimit(RLIMIT_AS, &as);
  }
  if (l->cpu_s) {
    struct rlimit cpu = {l->cpu_s, l->cpu_s};
    setrlimit(RLIMIT_CPU, &cpu);
  }
  struct rlimit core = {0, 0};
  setrlimit(RLIMIT_CORE, &core);
  dup2(l->in_fd, 0);
  dup2(l->out_fd, 1);
  dup2(l->err_fd, 2);
  if (l->cwd && chdir(l->cwd) != 0) _exit(126);
  if (in_ns) drop_capabilities();
  if (refuse_other_processes(getpid()) != 0) _exit(126);
  execvp(l->argv[0], l->argv);
  static const char msg[] = "tiletrans: cannot execute the program\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(127);
}

/* --- the keeper ------------------------------------------------------------------- */

/* Kills what is left after the program ended and reaps it. As a namespace's init,
 * kill(-1) reaches every other process in it; otherwise the program's group first,
 * then whatever was re-parented to the keeper (a child subreaper) — found in
 * /proc/self/task/<pid>/children — until nothing is left. Returns how many there were. */
static int kill_leftovers(pid_t program, int in_ns) {
  int left = 0;
  if (in_ns) {
    if (kill(-1, SIGKILL) == 0) left = 1;
  } else if (kill(-program, SIGKILL) == 0) {
    left = 1;
  }
  char path[64] = "/proc/self/task/";
  {
    char num[24];
    int n = 0;
    for (pid_t p = getpid(); p; p /= 10) num[n++] = (char)('0' + p % 10);
    size_t k = strlen(path);
    while (n) path[k++] = num[--n];
    memcpy(path + k, "/children", 10);
  }
  for (int round = 0; round < 10000; round++) {
    int status;
    while (waitpid(-1, &status, WNOHANG) > 0) {}
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    char buf[4096];
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
    if (fd >= 0) close(fd);
    if (n <= 0) {
      if (waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD) break;
      struct timespec nap = {0, 1000000};
      nanosleep(&nap, NULL);
      continue;
    }
    buf[n] = 0;
    for (char *p = buf; *p;) {
      while (*p == ' ' || *p == '\n') p++;
      pid_t pid = 0;
      while (*p >= '0' && *p <= '9') pid = pid * 10 + (*p++ - '0');
      if (pid > 0 && kill(pid, SIGKILL) == 0) left++;
      if (*p && *p != ' ' && *p != '\n') break;
    }
  }
  return left;
}

static void keep(const tt_check_launch *l, int in_ns, int level) __attribute__((noreturn));
static void keep(const tt_check_launch *l, int in_ns, int level) {
  tt_check_keeper_report r = {.sandbox_level = level};
  if (!in_ns) prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  double t0 = now();
  pid_t c = fork();
  if (c < 0) {
    r.setup_errno = errno;
    put_report(l, &r);
    _exit(0);
  }
  if (c == 0) exec_program(l, in_ns);
  r.started = 1;
  struct timespec nap = {0, 1000000}; /* 1 ms, growing to 20 ms: quick runs stay quick */
  for (;;) {
    pid_t w = waitpid(c, &r.status, WNOHANG);
    if (w == c || (w < 0 && errno != EINTR)) break;
    if (l->timeout_s > 0 && now() - t0 > l->timeout_s) {
      kill(c, SIGKILL);
      waitpid(c, &r.status, 0);
      r.timed_out = 1;
      break;
    }
    nanosleep(&nap, NULL);
    if (nap.tv_nsec < 20000000) nap.tv_nsec += 1000000;
  }
  r.leftovers = kill_leftovers(c, in_ns);
  put_report(l, &r);
  _exit(0);
}

/* The mount namespace's view: everything read-only but the program's working folder
 * (bound onto itself first so that it is a mount of its own). Returns 0 or -1. */
static int read_only_outside(const char *cwd) {
  if (!cwd) return -1;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
  if (mount(cwd, cwd, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
  struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
  if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof ro) != 0) return -1;
  struct mount_attr rw = {.attr_clr = MOUNT_ATTR_RDONLY};
  return syscall(SYS_mount_setattr, AT_FDCWD, cwd, 0, &rw, sizeof rw) == 0 ? 0 : -1;
}

void tt_check_sandbox_keep(const tt_check_launch *l) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); /* tiletrans gone: so is the run */
  if (l->sandbox == 0) keep(l, 0, 0);
  tt_check_keeper_report r = {0};
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) != 0 ||
      write_str("/proc/self/setgroups", "deny") != 0 || write_str("/proc/self/uid_map", l->uid_map) != 0 ||
      write_str("/proc/self/gid_map", l->gid_map) != 0 || unshare(CLONE_NEWPID) != 0) {
    if (l->sandbox == 1) keep(l, 0, 0); /* not available here: the plain keeper */
    r.setup_errno = errno;
    put_report(l, &r);
    _exit(0);
  }
  /* The next child is the new PID namespace's init: it keeps the program. */
  pid_t init = fork();
  if (init < 0) {
    r.setup_errno = errno;
    put_report(l, &r);
    _exit(0);
  }
  if (init == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    int level = read_only_outside(l->cwd) == 0 ? 2 : 1;
    if (level < 2 && l->sandbox == 2) {
      r.setup_errno = errno;
      put_report(l, &r);
      _exit(0);
    }
    keep(l, 1, level);
  }
  int status;
  while (waitpid(init, &status, 0) < 0 && errno == EINTR) {}
  _exit(0);
}
