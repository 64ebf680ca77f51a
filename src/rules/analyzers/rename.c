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

extern const tt_analyzer tt_analyzer_rename;

/* Node kinds the walk reacts to, as symbol ids of the C/C++ (CUDA) grammar: comparing
 * ids instead of type names keeps the walk cheap. */
enum { K_IDENT, K_TYPE_IDENT, K_NS_IDENT, K_PREPROC_ARG, K_INCLUDE, K_COMMENT, K_STRING, K_RAW_STRING, K_CHAR, K_COUNT };
static const char *const kind_names[K_COUNT] = {
    "identifier", "type_identifier", "namespace_identifier", "preproc_arg", "preproc_include",
    "comment",    "string_literal",  "raw_string_literal",   "char_literal"};

typedef struct rename_opts {
  tt_strmap identifiers, includes, unsupported;
  TSSymbol sym[K_COUNT];
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
  const TSLanguage *cuda = tt_lang_grammar(TT_LANG_CUDA);
  for (int k = 0; k < K_COUNT; k++)
    o->sym[k] = ts_language_symbol_for_name(cuda, kind_names[k], (uint32_t)strlen(kind_names[k]), true);
  if (!o->identifiers.n && !o->includes.n && !o->unsupported.n) {
    *err = tt_xstrdup("needs at least one of `identifiers`, `includes`, `unsupported`");
    free_opts(o);
    return NULL;
  }
  return o;
}

/* Every place a name can be renamed, found by one walk per file and shared by all
 * rename rules (the walk, not the table lookups, is what costs). */
typedef enum { OCC_NAME, OCC_MACRO_TEXT, OCC_INCLUDE_PATH } occ_kind;
typedef struct occurrence {
  uint32_t start, end;
  occ_kind kind;
} occurrence;
typedef struct occurrences {
  occurrence *items;
  size_t n, cap;
  const TSSymbol *sym;
} occurrences;

static void add_occ(occurrences *o, uint32_t s, uint32_t e, occ_kind k) {
  TT_PUSH(o->items, o->n, o->cap, ((occurrence){s, e, k}));
}

static bool index_node(TSNode n, void *ctx) {
  occurrences *o = ctx;
  const TSSymbol *sym = o->sym, t = ts_node_symbol(n);
  if (t == sym[K_IDENT] || t == sym[K_TYPE_IDENT] || t == sym[K_NS_IDENT]) {
    add_occ(o, ts_node_start_byte(n), ts_node_end_byte(n), OCC_NAME);
    return false;
  }
  if (t == sym[K_PREPROC_ARG]) {
    add_occ(o, ts_node_start_byte(n), ts_node_end_byte(n), OCC_MACRO_TEXT);
    return false;
  }
  if (t == sym[K_INCLUDE]) {
    TSNode path = ts_node_child_by_field_name(n, "path", 4);
    if (!ts_node_is_null(path) && ts_node_end_byte(path) - ts_node_start_byte(path) >= 2)
      add_occ(o, ts_node_start_byte(path) + 1, ts_node_end_byte(path) - 1, OCC_INCLUDE_PATH);
    return false;
  }
  return t != sym[K_COMMENT] && t != sym[K_STRING] && t != sym[K_RAW_STRING] && t != sym[K_CHAR];
}

static void *build_index(tt_filectx *ctx, const void *sym) {
  occurrences *o = tt_xcalloc(1, sizeof *o);
  o->sym = sym;
  tt_tree_walk(ts_tree_root_node(ctx->tree->ts), index_node, o);
  return o;
}

static void free_index(void *p) {
  occurrences *o = p;
  free(o->items);
  free(o);
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

static void run(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud) {
  const rename_opts *o = opts;
  walk w = {o, ctx->tree, emit, ud};
  const occurrences *occ = tt_filectx_cached(ctx, &tt_analyzer_rename, build_index, o->sym, free_index);
  for (size_t i = 0; i < occ->n; i++) {
    const occurrence *x = &occ->items[i];
    if (x->kind == OCC_NAME) {
      check_name(&w, x->start, x->end);
    } else if (x->kind == OCC_MACRO_TEXT) {
      scan_macro_text(&w, x->start, x->end);
    } else {
      const char *to = tt_strmap_get(&o->includes, w.tree->src->text + x->start, x->end - x->start);
      if (to) report(&w, x->start, x->end, to, true);
    }
  }
}

static const char *const bindings[] = {"from", "to", NULL};

const tt_analyzer tt_analyzer_rename = {"rename", bindings, compile_opts, free_opts, run, false, NULL};
