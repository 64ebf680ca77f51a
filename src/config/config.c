#include "config/config.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/util.h"
#include "util/yaml.h"

char *tt_config_find(const char *path) {
  char abs[PATH_MAX];
  if (!realpath(path, abs)) return NULL;
  char *dir = tt_fs_is_dir(abs) ? tt_xstrdup(abs) : tt_fs_dirname(abs);
  for (;;) {
    char *cand = tt_fs_join(dir, TT_CONFIG_NAME);
    /* Exists is enough: an unreadable one is an error when loaded, not passed over. */
    if (access(cand, F_OK) == 0) {
      free(dir);
      return cand;
    }
    free(cand);
    if (strcmp(dir, "/") == 0) break;
    char *up = tt_fs_dirname(dir);
    free(dir);
    dir = up;
  }
  free(dir);
  return NULL;
}

void tt_config_free(tt_config *c) {
  if (!c) return;
  free(c->path);
  free(c->dir);
  free(c->target);
  for (size_t i = 0; i < c->n_rule_dirs; i++) free(c->rule_dirs[i]);
  for (size_t i = 0; i < c->n_include; i++) free(c->include[i]);
  for (size_t i = 0; i < c->n_exclude; i++) free(c->exclude[i]);
  for (size_t i = 0; i < c->n_overrides; i++) free(c->overrides[i].rule_id);
  free(c->rule_dirs);
  free(c->include);
  free(c->exclude);
  free(c->overrides);
  for (size_t i = 0; i < c->n_hip_defines; i++) free(c->hip_defines[i]);
  for (size_t i = 0; i < c->n_sema_includes; i++) free(c->sema_includes[i]);
  for (size_t i = 0; i < c->n_sema_defines; i++) free(c->sema_defines[i]);
  free(c->hip_defines);
  free(c->sema_includes);
  free(c->sema_defines);
  free(c);
}

/* What is wrong with include/exclude glob `g`, or NULL: fnmatch would take an
 * unclosed `[` literally and `a**b` as `a*b`, neither of which the user meant. */
static const char *glob_problem(const char *g) {
  if (!*g) return "an empty pattern matches nothing";
  for (const char *p = g; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
    } else if (*p == '[') {
      const char *q = p + 1;
      if (*q == '!' || *q == '^') q++;
      if (*q == ']') q++;
      while (*q && *q != ']' && *q != '/') q++;
      if (*q != ']') return "`[` opens a character class that no `]` closes";
      p = q;
    } else if (p[0] == '*' && p[1] == '*') {
      bool starts = p == g || p[-1] == '/', ends = p[2] == '\0' || p[2] == '/';
      if (!starts || !ends || p[2] == '*') return "`**` must be a whole path component (`a/**/b`)";
      p++;
    }
  }
  return NULL;
}

static int read_list(const tt_config *c, struct fy_node *root, const char *key, char ***out, size_t *n,
                     bool relative_to_dir, char **err) {
  struct fy_node *s = fy_node_mapping_lookup_by_string(root, key, FY_NT);
  if (!s) return 0;
  if (!fy_node_is_sequence(s)) {
    *err = tt_yaml_error(c->path, s, "key `%s` must be a sequence of strings", key);
    return -1;
  }
  *out = tt_xcalloc((size_t)fy_node_sequence_item_count(s) + 1, sizeof **out);
  void *it = NULL;
  struct fy_node *e;
  while ((e = fy_node_sequence_iterate(s, &it))) {
    if (!fy_node_is_scalar(e)) {
      *err = tt_yaml_error(c->path, e, "key `%s`: each entry must be a string", key);
      return -1;
    }
    char *v = tt_yaml_strdup(e);
    const char *bad = relative_to_dir ? NULL : glob_problem(v);
    if (bad) {
      *err = tt_yaml_error(c->path, e, "key `%s`: glob `%s`: %s", key, v, bad);
      free(v);
      return -1;
    }
    if (relative_to_dir && v[0] != '/') {
      char *j = tt_fs_join(c->dir, v);
      free(v);
      v = j;
    }
    (*out)[(*n)++] = v;
  }
  return 0;
}

static int read_severity(tt_config *c, struct fy_node *root, char **err) {
  struct fy_node *m = fy_node_mapping_lookup_by_string(root, "severity", FY_NT);
  if (!m) return 0;
  if (!fy_node_is_mapping(m)) {
    *err = tt_yaml_error(c->path, m, "key `severity` must map rule ids to error, warning, note or off");
    return -1;
  }
  c->overrides = tt_xcalloc((size_t)fy_node_mapping_item_count(m) + 1, sizeof *c->overrides);
  void *it = NULL;
  struct fy_node_pair *p;
  while ((p = fy_node_mapping_iterate(m, &it))) {
    struct fy_node *v = fy_node_pair_value(p);
    char *id = tt_yaml_strdup(fy_node_pair_key(p)), *sev = tt_yaml_strdup(v);
    tt_severity s;
    if (!id || !sev || tt_severity_parse(sev, true, &s) < 0) {
      *err = tt_yaml_error(c->path, v ? v : fy_node_pair_key(p),
                           "key `severity.%s`: expected error, warning, note or off", id ? id : "?");
      free(id);
      free(sev);
      return -1;
    }
    free(sev);
    c->overrides[c->n_overrides++] = (tt_override){id, s};
  }
  return 0;
}

tt_config *tt_config_load(const char *path, char **err) {
  struct fy_document *doc = tt_yaml_load(path, NULL, err);
  if (!doc) return NULL;
  tt_config *c = tt_xcalloc(1, sizeof *c);
  c->path = tt_xstrdup(path);
  /* Resolved once: every file's path is made relative to it (tt_config_wants). */
  char *dir = tt_fs_dirname(path), abs[PATH_MAX];
  c->dir = realpath(dir, abs) ? tt_xstrdup(abs) : tt_xstrdup(dir);
  free(dir);
  struct fy_node *root = fy_document_root(doc);
  int rc = -1;
  if (!root) { /* an empty file is an empty config */
    rc = 0;
    goto out;
  }
  if (!fy_node_is_mapping(root)) {
    *err = tt_xasprintf("%s: the config must be a YAML mapping", path);
    goto out;
  }
  static const char *const keys[] = {"target",     "rules",        "include", "exclude",
                                     "severity",   "hip_defines",  "include_dirs", "defines", NULL};
  void *it = NULL;
  struct fy_node_pair *p;
  while ((p = fy_node_mapping_iterate(root, &it))) {
    char *k = tt_yaml_strdup(fy_node_pair_key(p));
    bool ok = false;
    for (size_t i = 0; k && keys[i]; i++) ok |= strcmp(k, keys[i]) == 0;
    if (!ok) {
      *err = tt_yaml_error(path, fy_node_pair_key(p),
                           "unknown key `%s` (expected target, rules, include, exclude, severity, hip_defines, "
                           "include_dirs, defines)", k ? k : "?");
      free(k);
      goto out;
    }
    free(k);
  }
  struct fy_node *t = fy_node_mapping_lookup_by_string(root, "target", FY_NT);
  if (t) {
    c->target = tt_yaml_strdup(t);
    if (!c->target || !tt_target_valid(c->target)) {
      *err = tt_yaml_error(path, t, "key `target`: expected one of %s", TT_TARGETS);
      goto out;
    }
  }
  if (read_list(c, root, "rules", &c->rule_dirs, &c->n_rule_dirs, true, err) < 0 ||
      read_list(c, root, "include", &c->include, &c->n_include, false, err) < 0 ||
      read_list(c, root, "exclude", &c->exclude, &c->n_exclude, false, err) < 0 || read_severity(c, root, err) < 0 ||
      read_list(c, root, "hip_defines", &c->hip_defines, &c->n_hip_defines, false, err) < 0 ||
      read_list(c, root, "include_dirs", &c->sema_includes, &c->n_sema_includes, true, err) < 0 ||
      read_list(c, root, "defines", &c->sema_defines, &c->n_sema_defines, false, err) < 0)
    goto out;
  rc = 0;
out:
  fy_document_destroy(doc);
  if (rc < 0) {
    tt_config_free(c);
    return NULL;
  }
  return c;
}

/* Matches path segments: `**` stands for zero or more whole folders, every other
 * segment is an fnmatch pattern for exactly one component (its `*` never crosses '/'). */
static bool match_segments(const char *pat, const char *path) {
  if (*pat == '\0') return *path == '\0';
  const char *pslash = strchr(pat, '/');
  size_t plen = pslash ? (size_t)(pslash - pat) : strlen(pat);
  const char *pnext = pslash ? pslash + 1 : pat + plen;
  if (plen == 2 && pat[0] == '*' && pat[1] == '*') {
    for (const char *p = path;;) { /* try ** as 0, 1, 2... folders */
      if (match_segments(pnext, p)) return true;
      const char *slash = strchr(p, '/');
      if (!slash) return *pnext == '\0';
      p = slash + 1;
    }
  }
  if (*path == '\0') return false;
  const char *slash = strchr(path, '/');
  size_t len = slash ? (size_t)(slash - path) : strlen(path);
  char *seg_pat = tt_xstrndup(pat, plen), *seg = tt_xstrndup(path, len);
  bool m = fnmatch(seg_pat, seg, 0) == 0;
  free(seg_pat);
  free(seg);
  if (!m) return false;
  if (!pslash) return slash == NULL;
  return slash ? match_segments(pnext, slash + 1) : false;
}

bool tt_glob_match(const char *pattern, const char *rel) {
  size_t n = strlen(pattern);
  if (n && pattern[n - 1] == '/') {
    /* A folder and everything in it; a bare folder name matches at any depth. */
    char *p = tt_xasprintf("%s%s**", strchr(pattern, '/') == pattern + n - 1 ? "**/" : "", pattern);
    bool m = match_segments(p, rel);
    free(p);
    return m;
  }
  if (!strchr(pattern, '/')) {
    char *p = tt_xasprintf("**/%s", pattern); /* any single component... */
    bool m = match_segments(p, rel);
    free(p);
    if (m) return true;
    char *q = tt_xasprintf("**/%s/**", pattern); /* ...file or folder */
    m = match_segments(q, rel);
    free(q);
    return m;
  }
  return match_segments(pattern, rel);
}

/* `file` relative to the config's folder (into buf), or absolute when outside it. */
static const char *config_relative(const tt_config *c, const char *file, char *buf) {
  if (!realpath(file, buf)) return NULL;
  size_t n = strlen(c->dir);
  return strncmp(buf, c->dir, n) == 0 && buf[n] == '/' ? buf + n + 1 : buf;
}

static bool excluded(const tt_config *c, const char *rel) {
  for (size_t i = 0; i < c->n_exclude; i++)
    if (tt_glob_match(c->exclude[i], rel)) return true;
  return false;
}

bool tt_config_wants(const tt_config *c, const char *file) {
  char abs_file[PATH_MAX];
  const char *rel = config_relative(c, file, abs_file);
  if (!rel) return true;
  bool in = c->n_include == 0;
  for (size_t i = 0; i < c->n_include && !in; i++) in = tt_glob_match(c->include[i], rel);
  return in && !excluded(c, rel);
}

bool tt_config_excludes(const tt_config *c, const char *file) {
  char abs_file[PATH_MAX];
  const char *rel = config_relative(c, file, abs_file);
  return rel && excluded(c, rel);
}
