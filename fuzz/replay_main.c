/* replay_main — runs fuzz inputs through LLVMFuzzerTestOneInput without libFuzzer, for
 * compilers that lack -fsanitize=fuzzer and for the regression corpus in ctest.
 * Usage: fuzz_rules_replay FILE-OR-FOLDER...; exits non-zero when an input cannot be
 * read (an invariant broken aborts). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0, got;
  uint8_t *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) return -1;
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path, size_t *count) {
  struct stat st;
  if (stat(path, &st) < 0) {
    perror(path);
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    (*count)++;
    return run_file(path);
  }
  DIR *d = opendir(path);
  if (!d) {
    perror(path);
    return -1;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    names = realloc(names, (n + 1) * sizeof *names);
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[n] = malloc(len);
    snprintf(names[n++], len, "%s/%s", path, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str); /* same order every run */
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    if (run_path(names[i], count) < 0) rc = -1;
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  int rc = 0;
  size_t count = 0;
  for (int i = 1; i < argc; i++)
    if (run_path(argv[i], &count) < 0) rc = 1;
  printf("fuzz_rules_replay: %zu inputs, %s\n", count, rc ? "some unreadable" : "all held");
  return rc;
}
