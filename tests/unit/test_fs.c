/* test_fs.c — atomic writes (content, mode, no leftovers, read-only files, missing
 * folders), walking trees in sorted order with build folders skipped, reading. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"
#include "util/fs.h"
#include "util/util.h"

/* Names in `dir` other than . and .., sorted and joined with ','. */
static char *listing(const char *dir) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d);
  char *names[64];
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 64)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) names[n++] = tt_xstrdup(e->d_name);
  closedir(d);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  tt_buf b = {0};
  for (size_t i = 0; i < n; i++) {
    tt_buf_printf(&b, "%s%s", i ? "," : "", names[i]);
    free(names[i]);
  }
  return tt_buf_steal(&b);
}

static mode_t mode_of(const char *path) {
  struct stat st;
  cr_assert_eq(stat(path, &st), 0);
  return st.st_mode & 07777;
}

typedef struct fx {
  char *dir, *file;
} fx;

static void setup(fx *x) {
  x->dir = tts_tmpdir();
  x->file = tt_fs_join(x->dir, "f.cu");
}

static void teardown(fx *x) {
  tts_rmrf(x->dir);
  free(x->dir);
  free(x->file);
}

static void expect_content(const char *path, const char *want) {
  size_t n;
  char *got = tts_slurp(path, &n);
  cr_assert_not_null(got, "%s unreadable", path);
  cr_expect_eq(n, strlen(want));
  cr_expect_str_eq(got, want, "%s: got `%s`, want `%s`", path, got, want);
  free(got);
}

Test(fs, write_atomic_creates_and_replaces) {
  fx x;
  setup(&x);
  char *err = NULL;
  cr_assert_eq(tt_fs_write_atomic(x.file, "first\n", 6, &err), 0, "%s", err);
  expect_content(x.file, "first\n");
  cr_expect_eq(mode_of(x.file), 0644u, "a new file is 0644");
  cr_assert_eq(tt_fs_write_atomic(x.file, "second, longer\n", 15, &err), 0, "%s", err);
  expect_content(x.file, "second, longer\n");
  cr_assert_eq(tt_fs_write_atomic(x.file, "", 0, &err), 0, "%s", err);
  expect_content(x.file, "");
  char *l = listing(x.dir);
  cr_expect_str_eq(l, "f.cu", "no temporary file left: %s", l);
  free(l);
  teardown(&x);
}

Test(fs, write_atomic_binary_content) {
  fx x;
  setup(&x);
  char *err = NULL;
  const char data[] = "a\0b\r\n\xff";
  cr_assert_eq(tt_fs_write_atomic(x.file, data, sizeof data - 1, &err), 0, "%s", err);
  size_t n;
  char *got = tts_slurp(x.file, &n);
  cr_expect_eq(n, sizeof data - 1);
  cr_expect(memcmp(got, data, n) == 0);
  free(got);
  teardown(&x);
}

Test(fs, write_atomic_keeps_mode) {
  static const mode_t modes[] = {0640, 0755, 0600, 0664};
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
    fx x;
    setup(&x);
    tts_write(x.file, "old\n");
    cr_assert_eq(chmod(x.file, modes[i]), 0);
    char *err = NULL;
    cr_assert_eq(tt_fs_write_atomic(x.file, "new\n", 4, &err), 0, "%s", err);
    expect_content(x.file, "new\n");
    cr_expect_eq(mode_of(x.file), modes[i], "mode %o became %o", modes[i], mode_of(x.file));
    char *l = listing(x.dir);
    cr_expect_str_eq(l, "f.cu");
    free(l);
    teardown(&x);
  }
}

Test(fs, write_atomic_refuses_read_only_file) {
  /* These tests may run as root, whom access(W_OK) lets write anything: the mode bits
   * must still be respected. */
  static const mode_t modes[] = {0444, 0400, 0555};
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
    fx x;
    setup(&x);
    tts_write(x.file, "keep me\n");
    cr_assert_eq(chmod(x.file, modes[i]), 0);
    char *err = NULL;
    int rc = tt_fs_write_atomic(x.file, "overwritten\n", 12, &err);
    cr_expect_eq(rc, -1, "mode %o: a read-only file must not be replaced (uid %d)", modes[i], (int)getuid());
    if (rc == -1) {
      cr_assert_not_null(err);
      cr_expect(strstr(err, x.file) != NULL, "the message names the file: %s", err);
      free(err);
    }
    expect_content(x.file, "keep me\n");
    cr_expect_eq(mode_of(x.file), modes[i]);
    char *l = listing(x.dir);
    cr_expect_str_eq(l, "f.cu", "no temporary file left: %s", l);
    free(l);
    teardown(&x);
  }
}

Test(fs, write_atomic_missing_folder_fails_cleanly) {
  fx x;
  setup(&x);
  char *path = tt_fs_join(x.dir, "no/such/dir/f.cu");
  char *err = NULL;
  cr_expect_eq(tt_fs_write_atomic(path, "x", 1, &err), -1);
  cr_assert_not_null(err);
  cr_expect(strstr(err, path) != NULL, "%s", err);
  free(err);
  char *l = listing(x.dir);
  cr_expect_str_eq(l, "", "nothing created: %s", l);
  free(l);
  free(path);
  teardown(&x);
}

Test(fs, write_atomic_over_a_directory_fails_and_cleans_up) {
  fx x;
  setup(&x);
  char *sub = tt_fs_join(x.dir, "sub");
  cr_assert_eq(mkdir(sub, 0755), 0);
  char *err = NULL;
  cr_expect_eq(tt_fs_write_atomic(sub, "x", 1, &err), -1);
  free(err);
  cr_expect(tt_fs_is_dir(sub));
  char *l = listing(x.dir);
  cr_expect_str_eq(l, "sub", "temporary file removed: %s", l);
  free(l);
  free(sub);
  teardown(&x);
}

Test(fs, write_atomic_relative_path_without_folder) {
  fx x;
  setup(&x);
  char cwd[4096];
  cr_assert_not_null(getcwd(cwd, sizeof cwd));
  cr_assert_eq(chdir(x.dir), 0);
  char *err = NULL;
  int rc = tt_fs_write_atomic("plain.txt", "hi", 2, &err);
  cr_assert_eq(chdir(cwd), 0);
  cr_expect_eq(rc, 0, "%s", err ? err : "");
  char *p = tt_fs_join(x.dir, "plain.txt");
  expect_content(p, "hi");
  free(p);
  char *l = listing(x.dir);
  cr_expect_str_eq(l, "plain.txt");
  free(l);
  teardown(&x);
}

Test(fs, write_atomic_through_a_symlink_edits_the_target) {
  fx x;
  setup(&x);
  tts_write(x.file, "old\n");
  char *link = tt_fs_join(x.dir, "link.cu");
  cr_assert_eq(symlink("f.cu", link), 0);
  char *err = NULL;
  cr_assert_eq(tt_fs_write_atomic(link, "new\n", 4, &err), 0, "%s", err);
  struct stat st;
  cr_assert_eq(lstat(link, &st), 0);
  cr_expect(S_ISLNK(st.st_mode), "the link is still a link");
  expect_content(x.file, "new\n");
  char *l = listing(x.dir);
  cr_expect_str_eq(l, "f.cu,link.cu", "no temporary file left: %s", l);
  free(l);
  /* A dangling link is refused, not replaced by a file. */
  char *dangling = tt_fs_join(x.dir, "dangling.cu");
  cr_assert_eq(symlink("nowhere.cu", dangling), 0);
  cr_expect_eq(tt_fs_write_atomic(dangling, "x", 1, &err), -1);
  cr_expect(err && strstr(err, "symbolic link to nothing"), "%s", err ? err : "");
  free(err);
  cr_assert_eq(lstat(dangling, &st), 0);
  cr_expect(S_ISLNK(st.st_mode));
  free(dangling);
  free(link);
  teardown(&x);
}

Test(fs, write_atomic_keeps_the_owner) {
  if (getuid() != 0) cr_skip_test("needs root to give the file another owner");
  fx x;
  setup(&x);
  tts_write(x.file, "old\n");
  cr_assert_eq(chown(x.file, 1234, 2345), 0);
  char *err = NULL;
  cr_assert_eq(tt_fs_write_atomic(x.file, "new\n", 4, &err), 0, "%s", err);
  struct stat st;
  cr_assert_eq(stat(x.file, &st), 0);
  cr_expect_eq(st.st_uid, 1234u);
  cr_expect_eq(st.st_gid, 2345u);
  teardown(&x);
}

Test(fs, stale_temporaries_removed_live_ones_kept) {
  fx x;
  setup(&x);
  char *stale = tt_fs_join(x.dir, TT_FS_TEMP_PREFIX "999999999-abcdef");
  char *live = tt_xasprintf("%s/" TT_FS_TEMP_PREFIX "%ld-ghijkl", x.dir, (long)getpid());
  char *other = tt_fs_join(x.dir, TT_FS_TEMP_PREFIX "999999999-toolongname");
  tts_write(stale, "");
  tts_write(live, "");
  tts_write(other, "");
  cr_expect_eq(tt_fs_remove_stale_temps(x.dir, NULL, NULL), 1u);
  cr_expect_eq(access(stale, F_OK), -1, "a dead process's temporary is removed");
  cr_expect_eq(access(live, F_OK), 0, "a running process's is kept");
  cr_expect_eq(access(other, F_OK), 0, "a name mkstemp did not make is kept");
  free(stale);
  free(live);
  free(other);
  teardown(&x);
}

/* --- walking ----------------------------------------------------------------------- */

typedef struct walk_log {
  const char *root;
  tt_buf b;
} walk_log;

static bool want_all(const char *path, void *ctx) { return true; }
static bool want_cu(const char *path, void *ctx) { return tt_str_ends_with(path, ".cu"); }
static void record(const char *path, void *ctx) {
  walk_log *w = ctx;
  size_t n = strlen(w->root);
  const char *rel = strncmp(path, w->root, n) == 0 && path[n] == '/' ? path + n + 1 : path;
  tt_buf_printf(&w->b, "%s%s", w->b.len ? "," : "", rel);
}

Test(fs, walk_sorted_and_skips_build_folders) {
  fx x;
  setup(&x);
  static const char *const files[] = {
      "b.cu", "a.cu", "Z.cu", "src/k.cu", "src/a/x.cu", "src/b.txt",
      ".git/config.cu", "node_modules/m.cu", "build/gen.cu", "build-asan/gen.cu", "cmake-build-debug/g.cu",
      "_deps/d.cu", "out/CMakeCache.txt", "out/o.cu", "src/build/nested.cu",
      "builder/kept.cu", "my-build/kept.cu", ".hidden/h.cu",
  };
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char *p = tt_fs_join(x.dir, files[i]);
    tts_write(p, "x");
    free(p);
  }
  walk_log w = {x.dir, {0}};
  char *err = NULL;
  cr_assert_eq(tt_fs_walk(x.dir, want_all, record, &w, &err), 0);
  cr_expect_str_eq(w.b.data, ".hidden/h.cu,Z.cu,a.cu,b.cu,builder/kept.cu,my-build/kept.cu,src/a/x.cu,src/b.txt,src/k.cu",
                   "got %s", w.b.data);
  tt_buf_free(&w.b);
  /* The filter. */
  w = (walk_log){x.dir, {0}};
  cr_assert_eq(tt_fs_walk(x.dir, want_cu, record, &w, &err), 0);
  cr_expect_str_eq(w.b.data, ".hidden/h.cu,Z.cu,a.cu,b.cu,builder/kept.cu,my-build/kept.cu,src/a/x.cu,src/k.cu",
                   "got %s", w.b.data);
  tt_buf_free(&w.b);
  teardown(&x);
}

Test(fs, walk_root_file_and_missing_root) {
  fx x;
  setup(&x);
  char *p = tt_fs_join(x.dir, "build-x.txt");
  tts_write(p, "x");
  walk_log w = {"&none", {0}};
  char *err = NULL;
  /* A root that is a file is visited as is, whatever its name or the filter. */
  cr_assert_eq(tt_fs_walk(p, want_cu, record, &w, &err), 0);
  cr_expect_str_eq(w.b.data, p);
  tt_buf_free(&w.b);
  free(p);
  p = tt_fs_join(x.dir, "missing");
  w = (walk_log){"&none", {0}};
  cr_expect_eq(tt_fs_walk(p, want_all, record, &w, &err), -1);
  cr_assert_not_null(err);
  cr_expect(strstr(err, p) != NULL, "%s", err);
  cr_expect_eq(w.b.len, 0u);
  free(err);
  free(p);
  tt_buf_free(&w.b);
  teardown(&x);
}

Test(fs, walk_root_named_build_is_walked) {
  /* Skipping applies below the root: a root the user names explicitly is walked. */
  fx x;
  setup(&x);
  char *root = tt_fs_join(x.dir, "build");
  char *p = tt_fs_join(root, "k.cu");
  tts_write(p, "x");
  walk_log w = {root, {0}};
  char *err = NULL;
  cr_assert_eq(tt_fs_walk(root, want_all, record, &w, &err), 0);
  cr_expect_str_eq(w.b.data ? w.b.data : "", "k.cu");
  tt_buf_free(&w.b);
  free(p);
  free(root);
  teardown(&x);
}

/* --- reading ----------------------------------------------------------------------- */

Test(fs, read_file_and_errors) {
  fx x;
  setup(&x);
  char *err = NULL, *data = NULL;
  size_t len = 0;
  FILE *f = fopen(x.file, "wb");
  fwrite("ab\0cd", 1, 5, f);
  fclose(f);
  cr_assert_eq(tt_fs_read(x.file, &data, &len, &err), 0);
  cr_expect_eq(len, 5u);
  cr_expect(memcmp(data, "ab\0cd", 6) == 0, "content plus a terminating NUL");
  free(data);

  /* A directory. */
  data = NULL;
  cr_expect_eq(tt_fs_read(x.dir, &data, &len, &err), -1);
  cr_assert_not_null(err);
  cr_expect(strstr(err, x.dir) != NULL, "%s", err);
  cr_expect(strstr(err, strerror(EISDIR)) != NULL, "%s", err);
  free(err);
  err = NULL;

  /* A missing file. */
  char *missing = tt_fs_join(x.dir, "nope.cu");
  cr_expect_eq(tt_fs_read(missing, &data, &len, &err), -1);
  cr_assert_not_null(err);
  cr_expect(strstr(err, missing) != NULL, "%s", err);
  cr_expect(strstr(err, strerror(ENOENT)) != NULL, "%s", err);
  free(err);
  free(missing);

  /* Empty file. */
  tts_write(x.file, "");
  cr_assert_eq(tt_fs_read(x.file, &data, &len, &err), 0);
  cr_expect_eq(len, 0u);
  cr_expect_not_null(data);
  free(data);
  teardown(&x);
}

Test(fs, dirname_join_mkdirs) {
  static const struct { const char *in, *out; } dn[] = {
      {"a/b/c.cu", "a/b"}, {"c.cu", "."}, {"/c.cu", "/"}, {"/x/y", "/x"}, {"a/", "a"},
  };
  for (size_t i = 0; i < sizeof dn / sizeof *dn; i++) {
    char *d = tt_fs_dirname(dn[i].in);
    cr_expect_str_eq(d, dn[i].out, "dirname(%s)", dn[i].in);
    free(d);
  }
  char *j = tt_fs_join("a", "b");
  cr_expect_str_eq(j, "a/b");
  free(j);
  j = tt_fs_join("a/", "b");
  cr_expect_str_eq(j, "a/b");
  free(j);
  j = tt_fs_join(".", "b");
  cr_expect_str_eq(j, "b");
  free(j);
  j = tt_fs_join("", "b");
  cr_expect_str_eq(j, "b");
  free(j);

  fx x;
  setup(&x);
  char *deep = tt_fs_join(x.dir, "p/q/r/file.txt");
  char *err = NULL;
  cr_expect_eq(tt_fs_mkdirs_for(deep, &err), 0);
  char *pq = tt_fs_join(x.dir, "p/q/r");
  cr_expect(tt_fs_is_dir(pq));
  cr_expect_eq(tt_fs_mkdirs_for(deep, &err), 0, "existing folders are fine");
  free(pq);
  free(deep);
  teardown(&x);
}
