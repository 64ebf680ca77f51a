/* rename — renames identifiers and #include paths from tables in the rule file.
 *
 * Identifiers are matched as whole tree-sitter identifier/type nodes, so comments and
 * string literals are never touched; macro bodies (preproc_arg, unparsed text) are
 * scanned token by token, skipping their literals and comments. */
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/analyzers/opts.h"
#include "util/util.h"

typedef struct rename_opts {
  tt_strmap identifiers, includes, unsupported;
} rename_opts;

static void free_opts(void *p) {
  rename_opts *o = p;
  tt_strmap_free(&o->identifiers);
  tt_strmap_free(&o->includes);
  tt_strmap_free(&o->unsupported);
  free(o);
}

static void *compile_opts(struct fy_node *opts, char **err, struct fy_node **at) {
  static const char *const keys[] = {"identifiers", "includes", "unsupported", NULL};
  rename_opts *o = tt_xcalloc(1, sizeof *o);
  if (tt_opts_check_keys(opts, keys, err, at) < 0 || tt_opts_map(opts, "identifiers", &o->identifiers, err, at) < 0 ||
      tt_opts_map(opts, "includes", &o->includes, err, at) < 0 ||
      tt_opts_map(opts, "unsupported", &o->unsupported, err, at) < 0) {
    free_opts(o);
    return NULL;
  }
  if (!o->identifiers.n && !o->includes.n && !o->unsupported.n) {
    *err = tt_xstrdup("needs at least one of `identifiers`, `includes`, `unsupported`");
    free_opts(o);
    return NULL;
  }
  return o;
}

typedef struct walk {
  const rename_opts *o;
  const tt_tree *tree;
  tt_analyzer_emit emit;
  void *ud;
} walk;

static void report(walk *w, uint32_t s, uint32_t e, const char *to, bool fixable) {
  const char *text = w->tree->src->text;
  tt_binding b[2] = {{"from", text + s, e - s, s, e}, {"to", to, strlen(to), s, e}};
  tt_edit edit = {s, e, (char *)to};
  tt_analyzer_hit h = {.start = s, .end = e, .bindings = b, .n_bindings = 2, .edits = &edit,
                       .n_edits = fixable ? 1 : 0, .fixable = fixable};
  w->emit(w->ud, &h);
}

static void check_name(walk *w, uint32_t s, uint32_t e) {
  const char *name = w->tree->src->text + s;
  const char *to = tt_strmap_get(&w->o->identifiers, name, e - s);
  if (to) {
    report(w, s, e, to, true);
    return;
  }
  const char *why = tt_strmap_get(&w->o->unsupported, name, e - s);
  if (why) report(w, s, e, why, false);
}

static bool ident_start(char c) { return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z'); }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* Scans unparsed macro text for identifiers, skipping literals and comments. */
static void scan_macro_text(walk *w, uint32_t s, uint32_t e) {
  const char *t = w->tree->src->text;
  for (uint32_t i = s; i < e;) {
    char c = t[i];
    if (c == '"' || c == '\'') {
      for (i++; i < e && t[i] != c; i++)
        if (t[i] == '\\') i++;
      i++;
    } else if (c == '/' && i + 1 < e && t[i + 1] == '/') {
      while (i < e && t[i] != '\n') i++;
    } else if (c == '/' && i + 1 < e && t[i + 1] == '*') {
      for (i += 2; i + 1 < e && !(t[i] == '*' && t[i + 1] == '/'); i++) {}
      i += 2;
    } else if (ident_start(c)) {
      uint32_t j = i;
      while (j < e && ident_char(t[j])) j++;
      check_name(w, i, j);
      i = j;
    } else if (c >= '0' && c <= '9') {
      while (i < e && ident_char(t[i])) i++;
    } else {
      i++;
    }
  }
}

static void check_include(walk *w, TSNode path) {
  uint32_t s = ts_node_start_byte(path), e = ts_node_end_byte(path);
  if (e - s < 2) return;
  const char *to = tt_strmap_get(&w->o->includes, w->tree->src->text + s + 1, e - s - 2);
  if (to) report(w, s + 1, e - 1, to, true);
}

static bool enter(TSNode n, void *ctx) {
  walk *w = ctx;
  const char *type = ts_node_type(n);
  if (!strcmp(type, "identifier") || !strcmp(type, "type_identifier") ||
      !strcmp(type, "namespace_identifier")) {
    check_name(w, ts_node_start_byte(n), ts_node_end_byte(n));
    return false;
  }
  if (!strcmp(type, "preproc_arg")) {
    scan_macro_text(w, ts_node_start_byte(n), ts_node_end_byte(n));
    return false;
  }
  if (!strcmp(type, "preproc_include")) {
    TSNode path = ts_node_child_by_field_name(n, "path", 4);
    if (!ts_node_is_null(path)) check_include(w, path);
    return false;
  }
  return strcmp(type, "comment") && strcmp(type, "string_literal") && strcmp(type, "raw_string_literal") &&
         strcmp(type, "char_literal");
}

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const tt_tree *tree = ctx->tree;
  walk w = {opts, tree, emit, ud};
  tt_tree_walk(ts_tree_root_node(tree->ts), enter, &w);
}

static const char *const bindings[] = {"from", "to", NULL};

const tt_analyzer tt_analyzer_rename = {"rename", bindings, compile_opts, free_opts, run, false};
