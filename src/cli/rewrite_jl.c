/* rewrite_jl.c — `tiletrans rewrite --target julia` for cuTile Python inputs. */
#include "cli/rewrite_jl.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "report/json_util.h"
#include "report/report.h"
#include "util/fs.h"
#include "util/util.h"

static bool want_py(const char *path, void *ctx) { return tt_str_ends_with(path, ".py"); }
static void count_one(const char *path, void *ctx) { ++*(size_t *)ctx; }

/* A folder is translated when it holds cuTile Python (.py) files; one of Julia only is
 * fixed by the Julia rules as any rewrite. */
static bool folder_has_py(const char *dir) {
  size_t n = 0;
  char *err = NULL;
  if (tt_fs_walk(dir, want_py, count_one, &n, &err) < 0) free(err);
  return n > 0;
}

bool tt_cli_is_julia_port(const tt_cli_opts *o) {
  if (!o->target || strcmp(o->target, "julia")) return false;
  for (size_t i = 0; i < o->n_paths; i++) {
    const char *p = o->paths[i];
    if (!strcmp(p, "-")) {
      if (o->language != TT_LANG_PYTHON) return false;
    } else if (tt_fs_is_dir(p) ? !folder_has_py(p) : !tt_str_ends_with(p, ".py")) {
      return false;
    }
  }
  return o->n_paths > 0;
}

static tt_pj_map *try_map(const char *dir, const char *rel) {
  char *path = tt_fs_join(dir, rel);
  tt_pj_map *m = NULL;
  if (access(path, R_OK) == 0) {
    char *err = NULL;
    m = tt_pj_map_load(path, &err);
    if (!m) fprintf(stderr, "%s\n", err);
    free(err);
    if (!m) m = (tt_pj_map *)-1;
  }
  free(path);
  return m;
}

tt_pj_map *tt_cli_load_pj_map(const char *const *dirs, size_t n) {
  for (size_t i = 0; i <= n; i++) {
    const char *d = i < n ? dirs[i] : tt_cli_default_rules_dir();
    tt_pj_map *m = try_map(d, TT_PJ_MAP_RELPATH);
    if (!m) m = try_map(d, "data/cutile-python.yaml");
    if (m == (tt_pj_map *)-1) return NULL;
    if (m) return m;
  }
  fprintf(stderr, "tiletrans: no API map (%s) in the rules folders\n", TT_PJ_MAP_RELPATH);
  return NULL;
}

typedef struct jl_run {
  const tt_cli_opts *o;
  const tt_pj_map *map;
  tt_pj_layout layout;
  tt_pj_out mode;
  const char *out_dir, *root;
  bool json;
  json_t *findings;
  size_t n_files, n_errors, n_warnings, n_notes;
  bool input_error;
} jl_run;

static char *jl_name(const char *py) {
  size_t n = strlen(py);
  return tt_str_ends_with(py, ".py") ? tt_xasprintf("%.*s.jl", (int)(n - 3), py) : tt_xasprintf("%s.jl", py);
}

static char *dest_of(jl_run *r, const char *path) {
  char *jl = jl_name(path);
  if (r->mode != TT_PJ_OUT_DIR) return jl;
  const char *rel = jl;
  if (tt_fs_is_dir(r->root) && !strncmp(jl, r->root, strlen(r->root))) rel = jl + strlen(r->root);
  else if (strrchr(jl, '/')) rel = strrchr(jl, '/') + 1;
  while (*rel == '/') rel++;
  char *d = tt_fs_join(r->out_dir, rel);
  free(jl);
  return d;
}

static void report_findings(jl_run *r, const char *path, const tt_pj_result *res) {
  for (size_t i = 0; i < res->n_findings; i++) {
    const tt_pj_finding *f = &res->findings[i];
    if (!strcmp(f->severity, "error")) r->n_errors++;
    else if (!strcmp(f->severity, "warning")) r->n_warnings++;
    else r->n_notes++;
    if (r->json) {
      json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:s, s:{s:{s:i, s:i}, s:{s:i, s:i}}, s:n}", "rule_id",
                            "port-unsupported", "category", "unsupported", "severity", f->severity, "message",
                            tt_json_cstr(f->message), "path", path, "range", "start", "line", (int)f->line,
                            "column", (int)f->column, "end", "line", (int)f->end_line, "column", (int)f->end_column,
                            "fix");
      json_array_append_new(r->findings, j);
    } else if (!r->o->quiet || !strcmp(f->severity, "error")) {
      fprintf(stderr, "%s:%u:%u: %s: %s [port-unsupported]\n", path, f->line, f->column, f->severity, f->message);
    }
  }
}

static int write_changed(const char *dest, const char *text, size_t len, char **err) {
  char *old = NULL;
  size_t old_len = 0;
  if (tt_fs_read(dest, &old, &old_len, NULL) == 0) {
    bool same = old_len == len && !memcmp(old, text, len);
    free(old);
    if (same) return 0;
  }
  if (tt_fs_mkdirs_for(dest, err) < 0) return -1;
  return tt_fs_write_atomic(dest, text, len, err);
}

static void port_one(const char *path, void *vctx) {
  jl_run *r = vctx;
  char *text = NULL, *err = NULL;
  size_t len = 0;
  if (tt_fs_read(path, &text, &len, &err) < 0) {
    fprintf(stderr, "%s\n", err);
    free(err);
    r->input_error = true;
    return;
  }
  tt_source *src = tt_source_new(path, text, len, TT_LANG_PYTHON);
  if (!src) {
    fprintf(stderr, "%s: too large\n", path);
    free(text);
    r->input_error = true;
    return;
  }
  tt_pj_result res;
  r->n_files++;
  if (tt_pj_translate(r->map, src, r->layout, &res, &err) < 0) {
    fprintf(stderr, "%s\n", err);
    free(err);
    r->input_error = true;
    tt_source_free(src);
    return;
  }
  report_findings(r, path, &res);
  char *dest = dest_of(r, path);
  int rc = 0;
  if (r->mode == TT_PJ_OUT_STDOUT) {
    if (!r->json) fwrite(res.text, 1, res.len, stdout);
  } else if (r->mode == TT_PJ_OUT_DIFF) {
    char *old = NULL;
    size_t old_len = 0;
    if (tt_fs_read(dest, &old, &old_len, NULL) < 0) old = tt_xstrdup(""), old_len = 0;
    char *a = tt_xasprintf("a/%s", dest), *b = tt_xasprintf("b/%s", dest);
    if (!r->json) tt_diff_unified(stdout, a, b, old, old_len, res.text, res.len);
    free(a), free(b), free(old);
  } else {
    rc = write_changed(dest, res.text, res.len, &err);
  }
  if (rc < 0) {
    fprintf(stderr, "%s\n", err);
    free(err);
    r->input_error = true;
  }
  free(dest);
  tt_pj_result_free(&res);
  tt_source_free(src);
}

int tt_cli_rewrite_julia(const tt_cli_opts *o, tt_pj_out mode, const char *out_dir, bool json, tt_pj_layout layout) {
  tt_pj_map *map = tt_cli_load_pj_map(o->rule_dirs, o->n_rule_dirs);
  if (!map) return TT_EXIT_USAGE;
  jl_run r = {.o = o, .map = map, .layout = layout, .mode = mode, .out_dir = out_dir, .json = json,
              .findings = json_array()};
  for (size_t i = 0; i < o->n_paths; i++) {
    r.root = o->paths[i];
    char *err = NULL;
    if (!strcmp(o->paths[i], "-")) {
      port_one("-", &r);
    } else if (tt_fs_walk(o->paths[i], want_py, port_one, &r, &err) < 0) {
      fprintf(stderr, "%s\n", err);
      free(err);
      r.input_error = true;
    }
  }
  if (mode == TT_PJ_OUT_STDOUT && r.n_files > 1)
    fprintf(stderr, "tiletrans: warning: %zu files translated to standard output; use --out DIR\n", r.n_files);
  int rc = r.input_error ? TT_EXIT_INPUT : r.n_files == 0 ? TT_EXIT_INPUT : r.n_errors ? TT_EXIT_FINDINGS : TT_EXIT_OK;
  if (r.n_files == 0 && !r.input_error) fprintf(stderr, "tiletrans: no .py file to translate\n");
  if (json) {
    tt_json_dump(stdout, json_pack("{s:{s:s, s:s}, s:s, s:o, s:{s:i, s:i, s:i, s:i, s:i}}", "tool", "name",
                                   "tiletrans", "version", TT_VERSION, "layout", tt_pj_layout_name(layout),
                                   "findings", r.findings, "summary", "files", (int)r.n_files, "findings",
                                   (int)(r.n_errors + r.n_warnings + r.n_notes), "error", (int)r.n_errors,
                                   "warning", (int)r.n_warnings, "note", (int)r.n_notes));
  } else {
    json_decref(r.findings);
  }
  tt_pj_map_free(map);
  return rc;
}
