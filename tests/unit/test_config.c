/* test_config.c — .tiletrans.yaml discovery, loading and its errors, globs, and
 * include/exclude selection. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "support.h"
#include "util/fs.h"
#include "util/util.h"

typedef struct fx {
  char *dir;  /* realpath of a temporary folder */
} fx;

static void setup(fx *x) {
  char *d = tts_tmpdir();
  char buf[PATH_MAX];
  cr_assert_not_null(realpath(d, buf));
  x->dir = tt_xstrdup(buf);
  free(d);
}

static void teardown(fx *x) {
  tts_rmrf(x->dir);
  free(x->dir);
}

static char *put(fx *x, const char *rel, const char *text) {
  char *p = tt_fs_join(x->dir, rel);
  tts_write(p, text);
  return p;
}

Test(config, find_upward) {
  fx x;
  setup(&x);
  char *cfg = put(&x, "a/" TT_CONFIG_NAME, "target: hip\n");
  char *file = put(&x, "a/b/c/k.cu", "int x;\n");
  char *found = tt_config_find(file);
  cr_expect_str_eq(found ? found : "(null)", cfg, "from a file three folders below");
  free(found);
  char *folder = tt_fs_join(x.dir, "a/b");
  found = tt_config_find(folder);
  cr_expect_str_eq(found ? found : "(null)", cfg, "from a folder");
  free(found);
  /* From the config's own folder. */
  char *a = tt_fs_join(x.dir, "a");
  found = tt_config_find(a);
  cr_expect_str_eq(found ? found : "(null)", cfg);
  free(found);
  /* The nearest wins. */
  char *near = put(&x, "a/b/" TT_CONFIG_NAME, "target: julia\n");
  found = tt_config_find(file);
  cr_expect_str_eq(found ? found : "(null)", near);
  free(found);
  /* Outside the tree: none (assuming no config above the temporary folder). */
  char *other = put(&x, "z/k.cu", "");
  found = tt_config_find(other);
  cr_expect_null(found, "found %s", found);
  free(found);
  /* A path that does not exist. */
  char *missing = tt_fs_join(x.dir, "a/nope/k.cu");
  cr_expect_null(tt_config_find(missing));
  free(missing);
  free(other);
  free(near);
  free(a);
  free(folder);
  free(file);
  free(cfg);
  teardown(&x);
}

Test(config, load_valid) {
  fx x;
  setup(&x);
  char *cfg = put(&x, TT_CONFIG_NAME,
                  "target: hip\n"
                  "rules: [tools/rules, /abs/rules]\n"
                  "include: [\"src/\", \"*.cu\"]\n"
                  "exclude:\n"
                  "  - third_party/\n"
                  "severity:\n"
                  "  hip-api-runtime: note\n"
                  "  hip-x: off\n"
                  "  hip-y: error\n");
  char *err = NULL;
  tt_config *c = tt_config_load(cfg, &err);
  cr_assert_not_null(c, "%s", err);
  cr_expect_str_eq(c->path, cfg);
  cr_expect_str_eq(c->dir, x.dir);
  cr_expect_str_eq(c->target, "hip");
  cr_assert_eq(c->n_rule_dirs, 2u);
  char *rel = tt_fs_join(x.dir, "tools/rules");
  cr_expect_str_eq(c->rule_dirs[0], rel, "rule folders are relative to the config");
  free(rel);
  cr_expect_str_eq(c->rule_dirs[1], "/abs/rules");
  cr_assert_eq(c->n_include, 2u);
  cr_expect_str_eq(c->include[0], "src/");
  cr_expect_str_eq(c->include[1], "*.cu");
  cr_assert_eq(c->n_exclude, 1u);
  cr_expect_str_eq(c->exclude[0], "third_party/");
  cr_assert_eq(c->n_overrides, 3u);
  cr_expect_str_eq(c->overrides[0].rule_id, "hip-api-runtime");
  cr_expect_eq(c->overrides[0].severity, TT_SEV_NOTE);
  cr_expect_eq(c->overrides[1].severity, TT_SEV_OFF);
  cr_expect_eq(c->overrides[2].severity, TT_SEV_ERROR);
  tt_config_free(c);
  free(cfg);
  teardown(&x);
}

Test(config, load_empty_file) {
  /* config.c: "an empty file is an empty config"; a comment-only file is one too. */
  static const char *const texts[] = {"", "# nothing configured yet\n"};
  for (size_t i = 0; i < 2; i++) {
    fx x;
    setup(&x);
    char *cfg = put(&x, TT_CONFIG_NAME, texts[i]);
    char *err = NULL;
    tt_config *c = tt_config_load(cfg, &err);
    cr_expect_not_null(c, "config `%s` rejected: %s", texts[i], err ? err : "");
    if (c) {
      cr_expect_null(c->target);
      cr_expect_eq(c->n_include + c->n_exclude + c->n_rule_dirs + c->n_overrides, 0u);
    }
    tt_config_free(c);
    free(err);
    free(cfg);
    teardown(&x);
  }
}

static void expect_config_error(const char *text, int line, int col, const char *key) {
  fx x;
  setup(&x);
  char *cfg = put(&x, TT_CONFIG_NAME, text);
  char *err = NULL;
  tt_config *c = tt_config_load(cfg, &err);
  cr_expect_null(c);
  tt_config_free(c);
  cr_assert_not_null(err);
  char *prefix = tt_xasprintf("%s:%d:%d: ", cfg, line, col);
  cr_expect(strncmp(err, prefix, strlen(prefix)) == 0, "`%s` should start with `%s`", err, prefix);
  cr_expect(strstr(err, key) != NULL, "`%s` should name `%s`", err, key);
  free(prefix);
  free(err);
  free(cfg);
  teardown(&x);
}

Test(config, unknown_key) {
  expect_config_error("target: hip\nexcludes: [a]\n", 2, 1, "`excludes`");
}

Test(config, bad_target) {
  expect_config_error("include: [src/]\ntarget: cuda\n", 2, 9, "`target`");
  expect_config_error("target: [hip]\n", 1, 10, "`target`");
}

Test(config, bad_severity_value) {
  expect_config_error("severity:\n  hip-a: note\n  hip-b: fatal\n", 3, 10, "severity.hip-b");
  expect_config_error("severity: [a]\n", 1, 12, "`severity`");
}

Test(config, bad_list) {
  expect_config_error("target: hip\ninclude: src/\n", 2, 10, "`include`");
  expect_config_error("exclude:\n  - [a]\n", 2, 6, "`exclude`");
}

Test(config, bad_globs) {
  expect_config_error("exclude: [\"src/[ab\"]\n", 1, 12, "glob `src/[ab`");
  expect_config_error("include:\n  - ok/\n  - \"a**b\"\n", 3, 6, "`include`");
  expect_config_error("exclude: [\"\"]\n", 1, 12, "empty pattern");
}

Test(config, not_one_text_document) {
  expect_config_error("target: hip\n---\nexclude: [a]\n", 3, 1, "second YAML document");
  expect_config_error("target: hip\n# \x01 control\n", 2, 3, "not UTF-8 text");
  expect_config_error("target: \xff\xfe\n", 1, 9, "byte 0xff");
}

Test(config, nul_byte_and_missing_or_folder) {
  fx x;
  setup(&x);
  char *cfg = tt_fs_join(x.dir, TT_CONFIG_NAME);
  FILE *f = fopen(cfg, "wb");
  fwrite("target: hip\nexclude: [a]\0\n", 1, 27, f);
  fclose(f);
  char *err = NULL;
  cr_expect_null(tt_config_load(cfg, &err));
  char *want = tt_xasprintf("%s:2:13: a NUL byte", cfg);
  cr_expect(err && strncmp(err, want, strlen(want)) == 0, "%s", err ? err : "");
  free(want);
  free(err);
  err = NULL;
  cr_expect_null(tt_config_load(x.dir, &err), "a folder");
  cr_expect(err && strstr(err, "Is a directory"), "%s", err ? err : "");
  free(err);
  err = NULL;
  char *none = tt_fs_join(x.dir, "none.yaml");
  cr_expect_null(tt_config_load(none, &err));
  cr_expect(err && strstr(err, "cannot open"), "%s", err ? err : "");
  free(err);
  free(none);
  free(cfg);
  teardown(&x);
}

Test(config, not_a_mapping) {
  fx x;
  setup(&x);
  char *cfg = put(&x, TT_CONFIG_NAME, "- a\n");
  char *err = NULL;
  cr_expect_null(tt_config_load(cfg, &err));
  cr_assert_not_null(err);
  cr_expect(strstr(err, cfg) == err, "%s", err);
  free(err);
  free(cfg);
  teardown(&x);
}

Test(config, glob_table) {
  static const struct {
    const char *pattern, *rel;
    bool want;
  } cases[] = {
      {"*.cu", "a.cu", true},
      {"*.cu", "src/deep/a.cu", true},
      {"*.cu", "a.cuh", false},
      {"*.cu", "a.cu.bak", false},
      {"?.cu", "a.cu", true},
      {"?.cu", "ab.cu", false},
      {"src/*.cu", "src/a.cu", true},
      {"src/*.cu", "src/x/a.cu", false},
      {"src/**/*.cu", "src/a.cu", true},
      {"src/**/*.cu", "src/x/a.cu", true},
      {"src/**/*.cu", "src/x/y/z/a.cu", true},
      {"src/**/*.cu", "lib/src/a.cu", false},
      {"src/**/*.cu", "src/x/a.h", false},
      {"src/**", "src/x/a.cu", true},
      {"src/**", "srcx/a.cu", false},
      {"third_party/", "third_party/x.cu", true},
      {"third_party/", "src/third_party/x/y.cu", true},
      {"third_party/", "third_party_x/a.cu", false},
      {"third_party/", "my_third_party/a.cu", false},
      {"third_party/", "third_party", false},
      {"src/gen/", "src/gen/a.cu", true},
      {"src/gen/", "x/src/gen/a.cu", false},
      {"src/gen/", "src/generated/a.cu", false},
      {"gen", "gen/a.cu", true},
      {"gen", "src/gen/a.cu", true},
      {"gen", "generated/a.cu", false},
      {"gen", "src/gen.cu", false},
      {"**/test_*.cu", "test_a.cu", true},
      {"**/test_*.cu", "src/test_a.cu", true},
      {"**/test_*.cu", "src/x/test_a.cu", true},
      {"**/test_*.cu", "src/mytest_a.cu", false},
      {"**/test_*.cu", "src/test_a.cuh", false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    cr_expect_eq(tt_glob_match(cases[i].pattern, cases[i].rel), cases[i].want, "glob `%s` vs `%s`: expected %s",
                 cases[i].pattern, cases[i].rel, cases[i].want ? "match" : "no match");
}

Test(config, glob_star_stays_within_a_component) {
  /* config.h: `*` and `?` match within a path component; only `**` crosses folders. */
  cr_expect(!tt_glob_match("**/test_*.cu", "src/test_dir/foo.cu"), "`test_*.cu` must not span `test_dir/foo.cu`");
  cr_expect(!tt_glob_match("src/**/k*.cu", "src/x/kernels/a.cu"), "`k*.cu` must not span `kernels/a.cu`");
}

Test(config, wants_include_and_exclude) {
  fx x;
  setup(&x);
  char *cfg = put(&x, TT_CONFIG_NAME,
                  "include: [\"src/\", \"tools/*.cu\"]\n"
                  "exclude: [\"third_party/\", \"**/test_*.cu\", \"gen\"]\n");
  static const struct {
    const char *rel;
    bool want;
  } files[] = {
      {"src/a.cu", true},
      {"src/k/b.cu", true},
      {"src/third_party/c.cu", false},
      {"src/test_d.cu", false},
      {"src/k/test_e.cu", false},
      {"src/gen/f.cu", false},
      {"src/gen.cu", true},
      {"lib/g.cu", false},
      {"tools/h.cu", true},
      {"tools/sub/i.cu", false},
  };
  char *err = NULL;
  tt_config *c = tt_config_load(cfg, &err);
  cr_assert_not_null(c, "%s", err);
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char *p = put(&x, files[i].rel, "");
    cr_expect_eq(tt_config_wants(c, p), files[i].want, "%s: expected %s", files[i].rel,
                 files[i].want ? "wanted" : "not wanted");
    free(p);
  }
  tt_config_free(c);
  /* Without include: everything not excluded. */
  free(cfg);
  cfg = put(&x, TT_CONFIG_NAME, "exclude: [third_party/]\n");
  c = tt_config_load(cfg, &err);
  cr_assert_not_null(c, "%s", err);
  char *p = tt_fs_join(x.dir, "lib/g.cu");
  cr_expect(tt_config_wants(c, p));
  free(p);
  p = tt_fs_join(x.dir, "src/third_party/c.cu");
  cr_expect(!tt_config_wants(c, p));
  free(p);
  tt_config_free(c);
  free(cfg);
  teardown(&x);
}

Test(config, hip_defines) {
  fx x;
  setup(&x);
  char *cfg = put(&x, TT_CONFIG_NAME, "target: hip\nhip_defines: [MY_USE_HIP, PROJECT_ROCM]\n");
  char *err = NULL;
  tt_config *c = tt_config_load(cfg, &err);
  cr_assert_not_null(c, "%s", err);
  cr_assert_eq(c->n_hip_defines, 2u);
  cr_expect_str_eq(c->hip_defines[0], "MY_USE_HIP", "macro names are not paths: kept as written");
  cr_expect_str_eq(c->hip_defines[1], "PROJECT_ROCM");
  tt_config_free(c);
  free(cfg);
  teardown(&x);
  expect_config_error("hip_defines: MY_USE_HIP\n", 1, 14, "`hip_defines`");
}
