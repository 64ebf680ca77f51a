#define _GNU_SOURCE /* memmem, realpath */
#include "cli/port_tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parser/tree.h"
#include "util/fs.h"
#include "util/util.h"

/* --- support files --------------------------------------------------------------------- */

static bool have_name(const tt_port_supports *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->items[i].name, name)) return true;
  return false;
}

static void load_folder(const char *dir, tt_port_supports *out) {
  size_t n = 0;
  char **names = tt_fs_list(dir, &n);
  for (size_t i = 0; i < n; i++) {
    char *path = tt_fs_join(dir, names[i]);
    struct stat st;
    char *text = NULL;
    size_t len = 0;
    if (!have_name(out, names[i]) && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        tt_fs_read(path, &text, &len, NULL) == 0) {
      out->items = tt_xrealloc(out->items, (out->n + 1) * sizeof *out->items);
      out->items[out->n++] = (tt_port_support){tt_xstrdup(names[i]), path, text, len};
      path = NULL;
    }
    free(path);
    free(names[i]);
  }
  free(names);
}

void tt_port_supports_load(const char *const *rule_dirs, size_t n_dirs, const char *target, tt_port_supports *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n_dirs; i++) {
    char *d = tt_fs_join(rule_dirs[i], "support");
    load_folder(d, out);
    free(d);
    if (target) {
      char *t = tt_fs_join(rule_dirs[i], target), *td = tt_fs_join(t, "support");
      load_folder(td, out);
      free(t);
      free(td);
    }
  }
}

void tt_port_supports_free(tt_port_supports *s) {
  for (size_t i = 0; i < s->n; i++) {
    free(s->items[i].name);
    free(s->items[i].path);
    free(s->items[i].text);
  }
  free(s->items);
  memset(s, 0, sizeof *s);
}

/* --- includes -------------------------------------------------------------------------- */

typedef struct scan {
  const tt_port_supports *s;
  const char *text;
  const char *src_dir, *root_real, *root;
  bool follow_cu;
  tt_port_includes *out;
  tt_buf buf;      /* the followed text, built as includes are renamed */
  uint32_t copied; /* bytes of `text` already in buf */
} scan;

/* True when `path` is an existing regular file inside the folder whose real path is
 * `root_real` (or is that file itself). */
static bool inside_root(const char *path, const char *root_real) {
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(path, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  size_t n = strlen(root_real);
  return strncmp(real, root_real, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

/* A quoted include of a `.cu` file that --out writes as `.hip`. */
static bool follows_renamed(const scan *sc, const char *inc, size_t n) {
  if (n < 4 || memcmp(inc + n - 3, ".cu", 3) != 0 || !sc->root_real) return false;
  char *rel = tt_xstrndup(inc, n);
  char *here = tt_fs_join(sc->src_dir, rel);
  bool ok = inside_root(here, sc->root_real);
  if (!ok && sc->root) {
    char *at_root = tt_fs_join(sc->root, rel);
    ok = inside_root(at_root, sc->root_real);
    free(at_root);
  }
  free(here);
  free(rel);
  return ok;
}

static void on_include(scan *sc, TSNode path) {
  uint32_t s = ts_node_start_byte(path), e = ts_node_end_byte(path);
  if (e - s < 2 || sc->text[s] != '"' || sc->text[e - 1] != '"') return;
  const char *inc = sc->text + s + 1;
  size_t n = e - s - 2;
  for (size_t i = 0; i < sc->s->n; i++)
    if (strlen(sc->s->items[i].name) == n && memcmp(sc->s->items[i].name, inc, n) == 0) sc->out->needs[i] = true;
  if (sc->follow_cu && follows_renamed(sc, inc, n)) {
    tt_buf_append(&sc->buf, sc->text + sc->copied, s + 1 + n - 3 - sc->copied);
    tt_buf_puts(&sc->buf, ".hip");
    sc->copied = s + 1 + (uint32_t)n;
    sc->out->n_followed++;
  }
}

static bool visit(TSNode node, void *ctx) {
  scan *sc = ctx;
  const char *type = ts_node_type(node);
  if (!strcmp(type, "preproc_include")) {
    TSNode path = ts_node_child_by_field_name(node, "path", 4);
    if (!ts_node_is_null(path)) on_include(sc, path);
    return false;
  }
  /* Includes sit at file level, in preprocessor branches, namespaces, linkage blocks
   * and (rarely) bodies; never inside expressions or literals. */
  return strcmp(type, "comment") && strcmp(type, "string_literal") && strcmp(type, "expression_statement");
}

/* Whether the text can hold an include this scan acts on: the parse is skipped otherwise. */
static bool worth_parsing(const tt_port_supports *s, const char *text, size_t len, bool follow_cu) {
  if (follow_cu && memmem(text, len, ".cu\"", 4)) return true;
  for (size_t i = 0; i < s->n; i++)
    if (memmem(text, len, s->items[i].name, strlen(s->items[i].name))) return true;
  return false;
}

void tt_port_includes_scan(const tt_port_supports *s, const char *text, size_t len, const char *src_path,
                           const char *root, bool follow_cu, tt_port_includes *out) {
  memset(out, 0, sizeof *out);
  out->needs = tt_xcalloc(s->n ? s->n : 1, sizeof *out->needs);
  if (!worth_parsing(s, text, len, follow_cu)) return;
  char root_real[PATH_MAX];
  bool have_root = root && tt_fs_is_dir(root) && realpath(root, root_real);
  char *src_dir = tt_fs_dirname(src_path);
  char *copy = tt_xmalloc(len + 1);
  memcpy(copy, text, len);
  copy[len] = '\0';
  tt_source *src = tt_source_new(src_path, copy, len, TT_LANG_CUDA);
  if (!src) free(copy);
  tt_tree *tree = src ? tt_tree_parse(src) : NULL;
  if (tree) {
    scan sc = {s, src->text, src_dir, have_root ? root_real : NULL, have_root ? root : NULL, follow_cu, out, {0}, 0};
    tt_tree_walk(ts_tree_root_node(tree->ts), visit, &sc);
    if (out->n_followed) {
      tt_buf_append(&sc.buf, text + sc.copied, len - sc.copied);
      out->len = sc.buf.len;
      out->text = tt_buf_steal(&sc.buf);
    }
    tt_buf_free(&sc.buf);
    tt_tree_free(tree);
  }
  if (src) tt_source_free(src);
  free(src_dir);
}

void tt_port_includes_free(tt_port_includes *r) {
  free(r->text);
  free(r->needs);
  memset(r, 0, sizeof *r);
}
