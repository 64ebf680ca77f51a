#include "support.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rules/match.h"
#include "rules/rule_load.h"
#include "rules/rulebook.h"
#include "util/fs.h"
#include "util/util.h"

tt_source *tts_source(const char *path, const char *text, tt_lang lang) {
  return tt_source_new(path, tt_xstrdup(text), strlen(text), lang);
}

tt_rule *tts_rule(const char *yaml, char **err) {
  *err = NULL;
  return tt_rule_load_text("test-rule.yaml", yaml, err);
}

tt_rule *tts_rule_of(const char *lang, const char *message, const char *body) {
  tt_buf b = {0};
  tt_buf_printf(&b,
                "id: t-rule\n"
                "target: hip\n"
                "language: %s\n"
                "category: numeric\n"
                "severity: warning\n"
                "summary: a test rule\n"
                "message: \"%s\"\n"
                "explain: test\n"
                "%s",
                lang, message, body);
  if (b.len && b.data[b.len - 1] != '\n') tt_buf_putc(&b, '\n');
  if (!strstr(body, "examples:")) tt_buf_puts(&b, "examples:\n  - match: \"x\"\n");
  char *err = NULL;
  tt_rule *r = tts_rule(b.data, &err);
  if (!r) cr_log_error("rule did not load: %s\n---\n%s", err ? err : "?", b.data);
  cr_assert_not_null(r, "test rule failed to load: %s", err ? err : "?");
  free(err);
  tt_buf_free(&b);
  return r;
}

size_t tts_match(const tt_rule *rule, tt_lang lang, const char *code, tt_findings *out) {
  tt_source *src = tts_source("test.cu", code, lang);
  tt_tree *tree = tt_tree_parse(src);
  cr_assert_not_null(tree);
  tt_findings fs = {0};
  char *err = NULL;
  int rc = tt_match_rule(rule, NULL, tree, &fs, &err);
  cr_assert_eq(rc, 0, "tt_match_rule: %s", err ? err : "?");
  size_t n = fs.n;
  if (out) tt_findings_move(out, &fs);
  else tt_findings_free(&fs);
  tt_tree_free(tree);
  tt_source_free(src);
  return n;
}

char *tts_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  char *tmpl = tt_xasprintf("%s/tt-unit-XXXXXX", base && *base ? base : "/tmp");
  cr_assert_not_null(mkdtemp(tmpl), "mkdtemp: %s", strerror(errno));
  return tmpl;
}

void tts_rmrf(const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0) return;
  if (S_ISDIR(st.st_mode)) {
    chmod(path, 0755);
    DIR *d = opendir(path);
    if (d) {
      struct dirent *e;
      while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char *p = tt_fs_join(path, e->d_name);
        tts_rmrf(p);
        free(p);
      }
      closedir(d);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

void tts_write(const char *path, const char *text) {
  char *err = NULL;
  cr_assert_eq(tt_fs_mkdirs_for(path, &err), 0, "mkdirs %s: %s", path, err ? err : "?");
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "fopen %s: %s", path, strerror(errno));
  fwrite(text, 1, strlen(text), f);
  fclose(f);
}

char *tts_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  tt_buf b = {0};
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) tt_buf_append(&b, chunk, n);
  fclose(f);
  if (len) *len = b.len;
  return tt_buf_steal(&b);
}

char *tts_capture(void (*fn)(FILE *out, void *ctx), void *ctx, size_t *len) {
  char *data = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&data, &n);
  cr_assert_not_null(f);
  fn(f, ctx);
  fclose(f);
  if (len) *len = n;
  return data;
}

size_t tts_count_substr(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p++) n++;
  return n;
}

tt_rulebook *tts_rulebook(bool compiled) {
  const char *dir = TT_SOURCE_DIR "/rules";
  char *err = NULL;
  tt_rulebook *book = compiled ? tt_rulebook_load(&dir, 1, &err) : tt_rulebook_load_uncompiled(&dir, 1, &err);
  cr_assert_not_null(book, "rulebook %s: %s", dir, err ? err : "");
  return book;
}
