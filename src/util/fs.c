#include "util/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static int fail(char **err, const char *what, const char *path) {
  if (err) *err = tt_xasprintf("%s: %s: %s", path, what, strerror(errno));
  return -1;
}

static int read_fd(int fd, char **out, size_t *len) {
  tt_buf b = {0};
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      tt_buf_free(&b);
      return -1;
    }
    if (n == 0) break;
    tt_buf_append(&b, chunk, (size_t)n);
  }
  *len = b.len;
  *out = tt_buf_steal(&b);
  return 0;
}

int tt_fs_read(const char *path, char **out, size_t *len, char **err) {
  if (strcmp(path, "-") == 0) {
    if (read_fd(0, out, len) < 0) return fail(err, "cannot read", "<stdin>");
    return 0;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(err, "cannot open", path);
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    errno = EISDIR;
    return fail(err, "cannot read", path);
  }
  int rc = read_fd(fd, out, len);
  int saved = errno;
  close(fd);
  errno = saved;
  if (rc < 0) return fail(err, "cannot read", path);
  return 0;
}

char *tt_fs_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return tt_xstrdup(".");
  if (slash == path) return tt_xstrdup("/");
  return tt_xstrndup(path, (size_t)(slash - path));
}

char *tt_fs_join(const char *dir, const char *rel) {
  size_t n = strlen(dir);
  if (n == 0 || strcmp(dir, ".") == 0) return tt_xstrdup(rel);
  return tt_xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", rel);
}

static int write_all(int fd, const char *data, size_t len) {
  while (len) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

/* Refuses a file the user made read-only: a rename over it would succeed, and root
 * passes access(2) for anything, so the mode bits are looked at too. */
static int check_writable(const char *path, const struct stat *st, char **err) {
  if (access(path, W_OK) != 0 || (st->st_mode & 0222) == 0) {
    errno = EACCES;
    return fail(err, "not writable, left unchanged", path);
  }
  return 0;
}

int tt_fs_write_atomic(const char *path_in, const char *data, size_t len, char **err) {
  /* A symbolic link stays a link: its target is what gets rewritten. */
  char *path = NULL;
  struct stat lst, st;
  if (lstat(path_in, &lst) == 0 && S_ISLNK(lst.st_mode)) {
    path = realpath(path_in, NULL);
    if (!path) return fail(err, "symbolic link to nothing, left unchanged", path_in);
  } else {
    path = tt_xstrdup(path_in);
  }
  mode_t mode = 0644;
  bool existed = stat(path, &st) == 0;
  if (existed) {
    mode = st.st_mode & 07777;
    if (check_writable(path, &st, err) < 0) {
      free(path);
      return -1;
    }
  }
  char *dir = tt_fs_dirname(path);
  char *name = tt_xasprintf(TT_FS_TEMP_PREFIX "%ld-XXXXXX", (long)getpid());
  char *tmpl = tt_fs_join(dir, name);
  free(dir);
  free(name);
  int fd = mkstemp(tmpl);
  if (fd < 0) {
    int rc = fail(err, "cannot create a temporary file beside", path);
    free(tmpl);
    free(path);
    return rc;
  }
  int rc = 0;
  if (write_all(fd, data, len) < 0 || fchmod(fd, mode) < 0) rc = fail(err, "cannot write", path);
  /* Keep the owner too; when that is not allowed (another user's file), leave the file
   * alone rather than hand it to us. */
  if (rc == 0 && existed && fchown(fd, st.st_uid, st.st_gid) < 0) {
    struct stat tst;
    if (fstat(fd, &tst) < 0 || tst.st_uid != st.st_uid || tst.st_gid != st.st_gid)
      rc = fail(err, "cannot keep the file's owner, left unchanged", path);
  }
  if (rc == 0 && fsync(fd) < 0) rc = fail(err, "cannot write", path);
  if (close(fd) < 0 && rc == 0) rc = fail(err, "cannot write", path);
  if (rc == 0 && rename(tmpl, path) < 0) rc = fail(err, "cannot replace", path);
  if (rc != 0) unlink(tmpl);
  free(tmpl);
  free(path);
  return rc;
}

size_t tt_fs_remove_stale_temps(const char *dir, void (*removed)(const char *path, void *ctx), void *ctx) {
  size_t n, count = 0;
  char **names = tt_fs_list(dir, &n);
  const size_t plen = strlen(TT_FS_TEMP_PREFIX);
  for (size_t i = 0; i < n; i++) {
    const char *nm = names[i];
    char *end;
    long pid = strncmp(nm, TT_FS_TEMP_PREFIX, plen) == 0 ? strtol(nm + plen, &end, 10) : 0;
    /* Only names mkstemp made from our template, of a process that is gone. */
    if (pid > 0 && *end == '-' && strlen(end + 1) == 6 && kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
      char *p = tt_fs_join(dir, nm);
      struct stat st;
      if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && unlink(p) == 0) {
        count++;
        if (removed) removed(p, ctx);
      }
      free(p);
    }
    free(names[i]);
  }
  free(names);
  return count;
}

int tt_fs_mkdirs(const char *dir_in, char **err) {
  char *dir = tt_xstrdup(dir_in);
  int rc = 0;
  for (char *p = dir + 1; *p && rc == 0; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) rc = fail(err, "cannot create folder", dir);
    *p = '/';
  }
  if (rc == 0 && mkdir(dir, 0755) < 0 && errno != EEXIST) rc = fail(err, "cannot create folder", dir);
  free(dir);
  return rc;
}

int tt_fs_mkdirs_for(const char *path, char **err) {
  char *dir = tt_fs_dirname(path);
  int rc = tt_fs_mkdirs(dir, err);
  free(dir);
  return rc;
}

bool tt_fs_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_skipped_dir(const char *dirpath, const char *name) {
  if (strcmp(name, ".git") == 0 || strcmp(name, "node_modules") == 0 ||
      strcmp(name, "_deps") == 0 || strcmp(name, "build") == 0 ||
      strncmp(name, "build-", 6) == 0 || strncmp(name, "cmake-build-", 12) == 0)
    return true;
  char *cache = tt_fs_join(dirpath, "CMakeCache.txt");
  bool is_build = access(cache, F_OK) == 0;
  free(cache);
  return is_build;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char **tt_fs_list(const char *dir, size_t *n_out) {
  DIR *d = opendir(dir);
  *n_out = 0;
  if (!d) return NULL;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    TT_PUSH(names, n, cap, tt_xstrdup(e->d_name));
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, cmp_names);
  *n_out = n;
  return names;
}

static void walk_dir(const char *dir, tt_fs_filter want, tt_fs_visit visit, void *ctx) {
  size_t n;
  char **names = tt_fs_list(dir, &n);
  for (size_t i = 0; i < n; i++) {
    char *path = tt_fs_join(dir, names[i]);
    struct stat st;
    if (lstat(path, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        if (!is_skipped_dir(path, names[i])) walk_dir(path, want, visit, ctx);
      } else if (S_ISREG(st.st_mode) && want(path, ctx)) {
        visit(path, ctx);
      }
    }
    free(path);
    free(names[i]);
  }
  free(names);
}

int tt_fs_walk(const char *root, tt_fs_filter want, tt_fs_visit visit, void *ctx, char **err) {
  struct stat st;
  if (stat(root, &st) < 0) return fail(err, "cannot open", root);
  if (!S_ISDIR(st.st_mode)) {
    visit(root, ctx);
    return 0;
  }
  walk_dir(root, want, visit, ctx);
  return 0;
}

char *tt_fs_cache_dir(void) {
  const char *env;
  if ((env = getenv("TILETRANS_CACHE_DIR")) && *env) return tt_xstrdup(env);
  if ((env = getenv("XDG_CACHE_HOME")) && *env) return tt_xasprintf("%s/tiletrans", env);
  if ((env = getenv("HOME")) && *env) return tt_xasprintf("%s/.cache/tiletrans", env);
  return tt_xstrdup("/tmp/tiletrans-cache");
}
