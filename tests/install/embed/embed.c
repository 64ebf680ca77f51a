/* Embeds libtiletrans through tiletrans.h only: lints and rewrites a buffer with the
 * installed default rulebook and checks what comes back. Exit 0 when every check
 * holds; each failure is printed. */
#include <stdio.h>
#include <string.h>

#include <tiletrans.h>

static const char k_src[] =
    "__global__ void k(int *out, const int *in) {\n"
    "  unsigned m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);\n"
    "  if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = __popc(m);\n"
    "}\n";

static int failures;
#define EXPECT(cond, ...)                  \
  do {                                     \
    if (!(cond)) {                         \
      failures++;                          \
      fprintf(stderr, "FAIL: " __VA_ARGS__); \
      fputc('\n', stderr);                 \
    }                                      \
  } while (0)

static int has_rule(const tiletrans_result *r, const char *id, tiletrans_severity sev) {
  for (size_t i = 0; i < tiletrans_result_count(r); i++) {
    const tiletrans_finding *f = tiletrans_result_finding(r, i);
    if (!strcmp(f->rule_id, id) && f->severity == sev && f->line == 2) return 1;
  }
  return 0;
}

int main(void) {
  char *err = NULL;
  EXPECT(strlen(tiletrans_version()) > 0, "empty version");
  tiletrans_rulebook *book = tiletrans_rulebook_load(NULL, 0, &err);
  if (!book) {
    fprintf(stderr, "FAIL: default rulebook: %s\n", err ? err : "?");
    tiletrans_free(err);
    return 1;
  }
  tiletrans_result *lint = NULL;
  EXPECT(tiletrans_lint(book, "hip", "k.cu", TILETRANS_LANG_FROM_PATH, k_src, strlen(k_src), &lint, &err) == 0,
         "lint: %s", err ? err : "?");
  EXPECT(lint && has_rule(lint, "hip-ballot-32bit", TILETRANS_ERROR), "lint: no hip-ballot-32bit error on line 2");
  EXPECT(tiletrans_result_text(lint, NULL) == NULL, "lint result has a text");

  tiletrans_result *rw = NULL;
  EXPECT(tiletrans_rewrite(book, "hip", "k.cu", TILETRANS_LANG_CUDA, k_src, strlen(k_src), &rw, &err) == 0,
         "rewrite: %s", err ? err : "?");
  /* A result may outlive its rulebook (tiletrans.h). */
  tiletrans_rulebook_free(book);
  size_t len = 0;
  const char *text = tiletrans_result_text(rw, &len);
  EXPECT(rw && tiletrans_result_changed(rw), "rewrite changed nothing");
  EXPECT(text && len == strlen(text), "rewrite text length");
  EXPECT(text && !strstr(text, "__ballot_sync") && strstr(text, "__ballot(") && strstr(text, "hip/hip_runtime.h"),
         "rewrite text:\n%s", text ? text : "(null)");
  EXPECT(has_rule(rw, "hip-ballot-32bit", TILETRANS_ERROR), "rewrite: findings lost");

  /* Errors are reported, not crashes. */
  tiletrans_result *none = NULL;
  EXPECT(tiletrans_lint(NULL, NULL, "k.cu", 0, k_src, 1, &none, &err) == -1 && err && !none, "NULL book accepted");
  tiletrans_free(err);
  err = NULL;
  tiletrans_rulebook *missing = tiletrans_rulebook_load((const char *const[]){"/nonexistent/rules"}, 1, &err);
  EXPECT(!missing && err && strstr(err, "/nonexistent/rules"), "missing rule folder: %s", err ? err : "(no error)");
  tiletrans_free(err);

  tiletrans_result_free(lint);
  tiletrans_result_free(rw);
  if (!failures) printf("embed: lint and rewrite through libtiletrans OK\n");
  return failures ? 1 : 0;
}
