#include "rules/rule_load.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rules/analyzer.h"
#include "rules/predicate.h"
#include "rules/template.h"
#include "util/fs.h"
#include "util/util.h"
#include "util/yaml.h"

/* Loading state: the rule being built and where errors go. */
typedef struct loader {
  const char *path;
  bool compile;       /* compile the query alone to validate it (else: the rulebook does) */
  const char *text;   /* the rule file's text, to find the indentation of block scalars */
  tt_rule *rule;
  char **err;
  const char **names; /* capture or binding names templates may use */
  size_t n_names, names_cap;
} loader;

static int fail_at(loader *L, struct fy_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail_at(loader *L, struct fy_node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = tt_xvasprintf(fmt, ap);
  va_end(ap);
  *L->err = tt_yaml_error(L->path, n, "%s", msg);
  free(msg);
  return -1;
}

/* Reads a required or optional scalar key. `key_node` is used for errors about an
 * absent key (the mapping). */
static int get_string(loader *L, struct fy_node *map, const char *key, bool required, char **out) {
  struct fy_node *v = fy_node_mapping_lookup_by_string(map, key, FY_NT);
  *out = NULL;
  if (!v) {
    if (required) return fail_at(L, map, "missing required key `%s`", key);
    return 0;
  }
  if (!fy_node_is_scalar(v))
    return fail_at(L, v, "key `%s` must be a string, not a %s", key, tt_yaml_kind(v));
  *out = tt_yaml_strdup(v);
  if (required && (*out)[0] == '\0') return fail_at(L, v, "key `%s` must not be empty", key);
  return 0;
}

static int check_keys(loader *L, struct fy_node *map, const char *where, const char *const *allowed) {
  void *it = NULL;
  struct fy_node_pair *p;
  while ((p = fy_node_mapping_iterate(map, &it))) {
    struct fy_node *k = fy_node_pair_key(p);
    char *key = tt_yaml_strdup(k);
    bool ok = false;
    for (size_t i = 0; key && allowed[i]; i++)
      if (strcmp(key, allowed[i]) == 0) ok = true;
    if (!ok) {
      tt_buf list = {0};
      for (size_t i = 0; allowed[i]; i++) tt_buf_printf(&list, "%s%s", i ? ", " : "", allowed[i]);
      fail_at(L, k, "unknown key `%s` in %s (expected one of: %s)", key ? key : "?", where, list.data);
      tt_buf_free(&list);
      free(key);
      return -1;
    }
    free(key);
  }
  return 0;
}

static int check_template(loader *L, struct fy_node *n, const char *key, const char *tmpl) {
  char *bad = tt_template_unknown(tmpl, L->names, L->n_names);
  if (!bad) return 0;
  int rc;
  if (strcmp(bad, "{{") == 0)
    rc = fail_at(L, n, "key `%s`: unterminated `{{` in template", key);
  else if (strcmp(bad, "{{}}") == 0)
    rc = fail_at(L, n, "key `%s`: empty `{{}}` in template", key);
  else if (strstr(bad, "(unknown filter"))
    rc = fail_at(L, n, "key `%s`: template `{{%s", key, bad);
  else
    rc = fail_at(L, n, "key `%s`: template names `{{%s}}`, which this rule does not capture", key, bad);
  free(bad);
  return rc;
}

static const char *query_error_name(TSQueryError e) {
  switch (e) {
  case TSQueryErrorSyntax: return "syntax error";
  case TSQueryErrorNodeType: return "unknown node type";
  case TSQueryErrorField: return "unknown field";
  case TSQueryErrorCapture: return "unknown capture";
  case TSQueryErrorStructure: return "impossible pattern structure";
  case TSQueryErrorLanguage: return "grammar version mismatch";
  default: return "error";
  }
}

/* Number of spaces that start line `line` (1-based) of `text`. */
static int indentation(const char *text, int line) {
  if (!text) return 0;
  for (int l = 1; l < line && *text; text++)
    if (*text == '\n') l++;
  int n = 0;
  while (text[n] == ' ') n++;
  return n;
}

/* Position in the rule file of byte `off` of the query text. */
static void query_pos(const loader *L, struct fy_node *qn, const char *text, uint32_t off, int *line, int *col) {
  int l0, c0;
  tt_yaml_pos(qn, &l0, &c0);
  int l = 0, c = 0;
  for (uint32_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') l++, c = 0;
    else c++;
  }
  if (tt_yaml_is_block_scalar(qn)) {
    /* libfyaml positions a block scalar at its first content line and strips its
     * indentation, which the file's text gives back. */
    *line = l0 + l;
    *col = indentation(L->text, l0) + c + 1;
  } else {
    *line = l0 + l;
    *col = l ? c + 1 : c0 + c;
  }
}

static bool pattern_has_capture(const TSQuery *q, uint32_t pattern) {
  uint32_t n = ts_query_capture_count(q);
  for (uint32_t i = 0; i < n; i++)
    if (ts_query_capture_quantifier_for_id(q, pattern, i) != TSQuantifierZero) return true;
  return false;
}

static void add_capture(tt_rule *r, const char *name, size_t len) {
  for (size_t i = 0; i < r->n_captures; i++)
    if (strlen(r->captures[i]) == len && memcmp(r->captures[i], name, len) == 0) return;
  r->captures = tt_xrealloc(r->captures, (r->n_captures + 1) * sizeof *r->captures);
  r->captures[r->n_captures++] = tt_xstrndup(name, len);
}

/* Capture names of a query read from its text: `@name` outside strings and `;`
 * comments, in order of first appearance (the order tree-sitter numbers them in). */
static void scan_captures(tt_rule *r, const char *q) {
  for (const char *p = q; *p;) {
    if (*p == ';') {
      while (*p && *p != '\n') p++;
    } else if (*p == '"') {
      for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
      if (*p) p++;
    } else if (*p == '@') {
      const char *s = ++p;
      while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')) p++;
      if (p > s) add_capture(r, s, (size_t)(p - s));
    } else {
      p++;
    }
  }
}

/* The facts the query reads: `(#tt-fact? @cap "FACT" …)` and `#tt-not-fact?`, found
 * as scan_captures finds captures (outside strings and comments). */
static void scan_facts(loader *L, struct fy_node *qn) {
  tt_rule *r = L->rule;
  const char *q = r->query_text;
  size_t cap = 0;
  for (const char *p = q; *p;) {
    if (*p == ';') {
      while (*p && *p != '\n') p++;
    } else if (*p == '"') {
      for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
      if (*p) p++;
    } else if (strncmp(p, "#tt-fact?", 9) == 0 || strncmp(p, "#tt-not-fact?", 13) == 0) {
      p += p[4] == 'f' ? 9 : 13;
      while (isspace((unsigned char)*p)) p++;
      if (*p == '@')
        while (*p && !isspace((unsigned char)*p) && *p != ')') p++;
      while (isspace((unsigned char)*p)) p++;
      if (*p != '"') continue; /* tt_preds_compile reports the malformed predicate */
      const char *s = ++p;
      while (*p && *p != '"') p++;
      int line, col;
      query_pos(L, qn, q, (uint32_t)(s - 1 - q), &line, &col);
      TT_PUSH(r->facts_read, r->n_facts_read, cap,
              ((tt_rule_fact_ref){tt_xstrndup(s, (size_t)(p - s)), (uint32_t)line, (uint32_t)col}));
      if (*p) p++;
    } else {
      p++;
    }
  }
}

/* Checks every `field:` of the query against the grammar before tree-sitter sees it:
 * ts_query_new leaks the capture list it was building when it meets an unknown field
 * (tree-sitter 0.25, query.c), so that error is found here and never reaches it. */
static int check_fields(loader *L, struct fy_node *qn) {
  tt_rule *r = L->rule;
  const char *q = r->query_text;
  const TSLanguage *lang = tt_lang_grammar(r->language);
  for (const char *p = q; *p;) {
    if (*p == ';') {
      while (*p && *p != '\n') p++;
    } else if (*p == '"') {
      for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
      if (*p) p++;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
      const char *s = p;
      bool after_sigil = p > q && (p[-1] == '@' || p[-1] == '#' || p[-1] == '!' || p[-1] == '.' || p[-1] == '-');
      while (isalnum((unsigned char)*p) || *p == '_') p++;
      if (*p != ':' || after_sigil || !lang) continue;
      if (ts_language_field_id_for_name(lang, s, (uint32_t)(p - s)) != 0) continue;
      int line, col;
      query_pos(L, qn, q, (uint32_t)(s - q), &line, &col);
      *L->err = tt_xasprintf("%s:%d:%d: key `query`: unknown field at `%.*s:` (language %s)", L->path, line, col,
                             (int)(p - s), s, tt_lang_name(r->language));
      return -1;
    } else {
      p++;
    }
  }
  return 0;
}

/* Compiles the rule's query alone and checks every pattern, for precise errors. */
static int compile_query(loader *L, struct fy_node *qn) {
  tt_rule *r = L->rule;
  int line, col;
  uint32_t off;
  TSQueryError qerr;
  TSQuery *q = ts_query_new(tt_lang_grammar(r->language), r->query_text, (uint32_t)strlen(r->query_text), &off, &qerr);
  if (!q) {
    size_t len = strlen(r->query_text);
    /* An error at the very end (an unclosed `(`) is placed after the last character. */
    bool at_end = off >= len;
    if (at_end && len && r->query_text[len - 1] == '\n') off = (uint32_t)len - 1;
    query_pos(L, qn, r->query_text, off, &line, &col);
    size_t n = strcspn(r->query_text + off, " \t\n()");
    if (at_end)
      *L->err = tt_xasprintf("%s:%d:%d: key `query`: %s at the end of the query (a `(` not closed?) (language %s)",
                             L->path, line, col, query_error_name(qerr), tt_lang_name(r->language));
    else
      *L->err = tt_xasprintf("%s:%d:%d: key `query`: %s at `%.*s` (language %s)", L->path, line, col,
                             query_error_name(qerr), (int)(n ? n : 1), r->query_text + off,
                             tt_lang_name(r->language));
    return -1;
  }
  int rc = 0;
  uint32_t n_patterns = ts_query_pattern_count(q);
  if (n_patterns == 0) rc = fail_at(L, qn, "key `query` has no pattern");
  for (uint32_t p = 0; p < n_patterns && rc == 0; p++) {
    /* A predicate written after a pattern's closing parenthesis is a pattern of its own
     * that captures nothing and matches everywhere: the classic query mistake. */
    uint32_t n_steps;
    ts_query_predicates_for_pattern(q, p, &n_steps);
    if (!pattern_has_capture(q, p)) {
      query_pos(L, qn, r->query_text, ts_query_start_byte_for_pattern(q, p), &line, &col);
      *L->err = tt_xasprintf("%s:%d:%d: key `query`: pattern %u captures nothing%s", L->path, line, col, p + 1,
                             n_steps ? "; put predicates inside the pattern's parentheses: ((node) @cap (#eq? @cap \"x\"))"
                                     : "; capture the node to report");
      rc = -1;
      break;
    }
    tt_pred_list pl;
    char *perr = NULL;
    if (tt_preds_compile(q, p, &pl, &perr) < 0) {
      query_pos(L, qn, r->query_text, ts_query_start_byte_for_pattern(q, p), &line, &col);
      *L->err = tt_xasprintf("%s:%d:%d: key `query`: %s", L->path, line, col, perr);
      free(perr);
      rc = -1;
      break;
    }
    tt_preds_free(&pl);
  }
  ts_query_delete(q);
  return rc;
}

static int load_query(loader *L, struct fy_node *root) {
  tt_rule *r = L->rule;
  struct fy_node *qn = fy_node_mapping_lookup_by_string(root, "query", FY_NT);
  int line, col;
  tt_yaml_pos(qn, &line, &col);
  r->query_line = (uint32_t)line;
  if (check_fields(L, qn) < 0 || (L->compile && compile_query(L, qn) < 0)) return -1;
  scan_captures(r, r->query_text);
  scan_facts(L, qn);
  if (r->n_captures == 0) return fail_at(L, qn, "key `query` captures nothing; capture the node to report");
  for (size_t i = 0; i < r->n_captures; i++) TT_PUSH(L->names, L->n_names, L->names_cap, r->captures[i]);
  return 0;
}

static bool has_name(loader *L, const char *name) {
  for (size_t i = 0; i < L->n_names; i++)
    if (strcmp(L->names[i], name) == 0) return true;
  return false;
}

static int load_analyzer(loader *L, struct fy_node *root, const char *name) {
  tt_rule *r = L->rule;
  struct fy_node *an = fy_node_mapping_lookup_by_string(root, "analyzer", FY_NT);
  r->analyzer = tt_analyzer_find(name);
  if (!r->analyzer)
    return fail_at(L, an, "key `analyzer`: unknown analyzer `%s` (known: %s)", name, tt_analyzer_names());
  struct fy_node *opts = fy_node_mapping_lookup_by_string(root, "options", FY_NT);
  if (opts && !fy_node_is_mapping(opts))
    return fail_at(L, opts, "key `options` must be a mapping, not a %s", tt_yaml_kind(opts));
  char *aerr = NULL;
  struct fy_node *bad = NULL;
  r->analyzer_opts = r->analyzer->compile_options(opts, &aerr, &bad);
  if (!r->analyzer_opts) {
    fail_at(L, bad ? bad : (opts ? opts : an), "key `options`: %s", aerr ? aerr : "invalid");
    free(aerr);
    return -1;
  }
  for (const char *const *b = r->analyzer->bindings; *b; b++)
    TT_PUSH(L->names, L->n_names, L->names_cap, *b);
  /* A classifier names the fact it records in its `fact:` option (analyzer.h). */
  struct fy_node *fact = r->analyzer->classifier && opts ? fy_node_mapping_lookup_by_string(opts, "fact", FY_NT) : NULL;
  r->fact_defined = fact ? tt_yaml_strdup(fact) : NULL;
  return 0;
}

static int load_edit(loader *L, struct fy_node *en, tt_rule_edit *e) {
  static const char *const keys[] = {"capture", "until", "replacement", "insert_before", "insert_after", "text", NULL};
  if (!fy_node_is_mapping(en)) return fail_at(L, en, "each entry of `fix.edits` must be a mapping");
  if (check_keys(L, en, "a fix edit", keys) < 0) return -1;
  static const struct {
    const char *key, *text_key;
    tt_edit_kind kind;
  } forms[] = {{"capture", "replacement", TT_EDIT_REPLACE},
               {"insert_before", "text", TT_EDIT_INSERT_BEFORE},
               {"insert_after", "text", TT_EDIT_INSERT_AFTER}};
  int found = -1;
  for (int i = 0; i < 3; i++)
    if (fy_node_mapping_lookup_by_string(en, forms[i].key, FY_NT)) {
      if (found >= 0) return fail_at(L, en, "a fix edit takes one of `capture`, `insert_before`, `insert_after`");
      found = i;
    }
  if (found < 0) return fail_at(L, en, "a fix edit needs `capture`, `insert_before` or `insert_after`");
  e->kind = forms[found].kind;
  if (get_string(L, en, forms[found].key, true, &e->capture) < 0) return -1;
  if (!has_name(L, e->capture))
    return fail_at(L, fy_node_mapping_lookup_by_string(en, forms[found].key, FY_NT),
                   "key `%s`: `%s` is not a capture of this rule", forms[found].key, e->capture);
  if (get_string(L, en, "until", false, &e->until) < 0) return -1;
  if (e->until && (e->kind != TT_EDIT_REPLACE || !has_name(L, e->until)))
    return fail_at(L, fy_node_mapping_lookup_by_string(en, "until", FY_NT),
                   "key `until`: must name a capture of this rule, in a `capture` edit");
  struct fy_node *tn = fy_node_mapping_lookup_by_string(en, forms[found].text_key, FY_NT);
  if (!tn) return fail_at(L, en, "a `%s` edit needs `%s`", forms[found].key, forms[found].text_key);
  if (!fy_node_is_scalar(tn)) return fail_at(L, tn, "key `%s` must be a string", forms[found].text_key);
  e->tmpl = tt_yaml_strdup(tn);
  return check_template(L, tn, forms[found].text_key, e->tmpl);
}

static int load_fix(loader *L, struct fy_node *fix) {
  static const char *const keys[] = {"description", "edits", NULL};
  tt_rule *r = L->rule;
  if (!fy_node_is_mapping(fix)) return fail_at(L, fix, "key `fix` must be a mapping");
  if (check_keys(L, fix, "`fix`", keys) < 0) return -1;
  if (get_string(L, fix, "description", true, &r->fix_description) < 0) return -1;
  if (check_template(L, fy_node_mapping_lookup_by_string(fix, "description", FY_NT), "fix.description",
                     r->fix_description) < 0)
    return -1;
  r->has_fix = true;
  struct fy_node *edits = fy_node_mapping_lookup_by_string(fix, "edits", FY_NT);
  if (!edits) {
    if (r->analyzer) return 0; /* the analyzer computes the edits */
    return fail_at(L, fix, "missing required key `edits` in `fix`");
  }
  if (!fy_node_is_sequence(edits) || fy_node_sequence_item_count(edits) == 0)
    return fail_at(L, edits, "key `fix.edits` must be a non-empty sequence");
  r->edits = tt_xcalloc((size_t)fy_node_sequence_item_count(edits), sizeof *r->edits);
  void *it = NULL;
  struct fy_node *en;
  while ((en = fy_node_sequence_iterate(edits, &it)))
    if (load_edit(L, en, &r->edits[r->n_edits++]) < 0) return -1;
  return 0;
}

static int load_example(loader *L, struct fy_node *xn, tt_rule_example *x) {
  static const char *const keys[] = {"match", "no_match", "fixed", "count", "name", NULL};
  if (!fy_node_is_mapping(xn)) return fail_at(L, xn, "each entry of `examples` must be a mapping");
  if (check_keys(L, xn, "an example", keys) < 0) return -1;
  int line, col;
  tt_yaml_pos(xn, &line, &col);
  x->line = (uint32_t)line;
  x->count = -1;
  struct fy_node *m = fy_node_mapping_lookup_by_string(xn, "match", FY_NT);
  struct fy_node *nm = fy_node_mapping_lookup_by_string(xn, "no_match", FY_NT);
  if ((m != NULL) == (nm != NULL))
    return fail_at(L, xn, "an example takes exactly one of `match` and `no_match`");
  x->must_match = m != NULL;
  if (get_string(L, xn, m ? "match" : "no_match", true, &x->code) < 0) return -1;
  if (get_string(L, xn, "fixed", false, &x->fixed) < 0) return -1;
  struct fy_node *cn = fy_node_mapping_lookup_by_string(xn, "count", FY_NT);
  if (!x->must_match && (x->fixed || cn))
    return fail_at(L, xn, "`fixed` and `count` belong to `match` examples");
  if (x->fixed && !L->rule->has_fix)
    return fail_at(L, xn, "key `fixed`: this rule has no `fix`");
  if (cn) {
    char *s = tt_yaml_strdup(cn), *end = NULL;
    long v = s ? strtol(s, &end, 10) : -1;
    bool ok = s && *s && *end == '\0' && v >= 1;
    free(s);
    if (!ok) return fail_at(L, cn, "key `count` must be an integer >= 1");
    x->count = (int)v;
  }
  return 0;
}

static int load_examples(loader *L, struct fy_node *root) {
  tt_rule *r = L->rule;
  struct fy_node *xs = fy_node_mapping_lookup_by_string(root, "examples", FY_NT);
  if (!xs) return fail_at(L, root, "missing required key `examples` (test-rules runs them)");
  if (!fy_node_is_sequence(xs)) return fail_at(L, xs, "key `examples` must be a sequence");
  r->examples = tt_xcalloc((size_t)fy_node_sequence_item_count(xs) + 1, sizeof *r->examples);
  void *it = NULL;
  struct fy_node *xn;
  bool any_match = false;
  while ((xn = fy_node_sequence_iterate(xs, &it))) {
    if (load_example(L, xn, &r->examples[r->n_examples]) < 0) {
      r->n_examples++;
      return -1;
    }
    any_match |= r->examples[r->n_examples++].must_match;
  }
  if (!any_match) return fail_at(L, xs, "key `examples` needs at least one `match` example");
  return 0;
}

static int load_references(loader *L, struct fy_node *root) {
  tt_rule *r = L->rule;
  struct fy_node *rs = fy_node_mapping_lookup_by_string(root, "references", FY_NT);
  if (!rs) return 0;
  if (!fy_node_is_sequence(rs)) return fail_at(L, rs, "key `references` must be a sequence of strings");
  r->references = tt_xcalloc((size_t)fy_node_sequence_item_count(rs) + 1, sizeof *r->references);
  void *it = NULL;
  struct fy_node *n;
  while ((n = fy_node_sequence_iterate(rs, &it))) {
    if (!fy_node_is_scalar(n)) return fail_at(L, n, "key `references`: each entry must be a string");
    r->references[r->n_references++] = tt_yaml_strdup(n);
  }
  return 0;
}

static int load_scalars(loader *L, struct fy_node *root) {
  tt_rule *r = L->rule;
  char *target = NULL, *lang = NULL, *cat = NULL, *sev = NULL;
  int rc = -1;
  if (get_string(L, root, "id", true, &r->id) < 0 || get_string(L, root, "target", true, &target) < 0 ||
      get_string(L, root, "language", true, &lang) < 0 || get_string(L, root, "category", true, &cat) < 0 ||
      get_string(L, root, "severity", true, &sev) < 0 || get_string(L, root, "summary", true, &r->summary) < 0 ||
      get_string(L, root, "message", true, &r->message) < 0 ||
      get_string(L, root, "explain", true, &r->explain) < 0)
    goto out;
  struct fy_node *at;
  if (strspn(r->id, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(r->id)) {
    at = fy_node_mapping_lookup_by_string(root, "id", FY_NT);
    fail_at(L, at, "key `id`: `%s` must use only a-z, 0-9 and '-'", r->id);
    goto out;
  }
  if (!tt_target_valid(target)) {
    fail_at(L, fy_node_mapping_lookup_by_string(root, "target", FY_NT),
            "key `target`: unknown target `%s` (expected one of: %s)", target, TT_TARGETS);
    goto out;
  }
  r->target = target;
  target = NULL;
  r->language = tt_lang_from_name(lang);
  if (r->language == TT_LANG_NONE || strcmp(lang, tt_lang_name(r->language)) != 0) {
    fail_at(L, fy_node_mapping_lookup_by_string(root, "language", FY_NT),
            "key `language`: unknown language `%s` (expected cuda, python or julia)", lang);
    goto out;
  }
  if (tt_category_parse(cat, &r->category) < 0) {
    tt_buf list = {0};
    for (int i = 0; i < TT_CAT_COUNT; i++) tt_buf_printf(&list, "%s%s", i ? ", " : "", tt_category_name(i));
    fail_at(L, fy_node_mapping_lookup_by_string(root, "category", FY_NT),
            "key `category`: unknown category `%s` (expected one of: %s)", cat, list.data);
    tt_buf_free(&list);
    goto out;
  }
  if (tt_severity_parse(sev, false, &r->severity) < 0) {
    fail_at(L, fy_node_mapping_lookup_by_string(root, "severity", FY_NT),
            "key `severity`: unknown severity `%s` (expected error, warning or note)", sev);
    goto out;
  }
  struct fy_node *oi = fy_node_mapping_lookup_by_string(root, "opt_in", FY_NT);
  if (oi && tt_yaml_bool(oi, &r->opt_in) < 0) {
    char *v = tt_yaml_strdup(oi);
    if (v) fail_at(L, oi, "key `opt_in`: `%s` must be true or false", v);
    else fail_at(L, oi, "key `opt_in` must be true or false, not a %s", tt_yaml_kind(oi));
    free(v);
    goto out;
  }
  rc = 0;
out:
  free(target);
  free(lang);
  free(cat);
  free(sev);
  return rc;
}

static int load_matcher(loader *L, struct fy_node *root) {
  tt_rule *r = L->rule;
  char *analyzer = NULL;
  if (get_string(L, root, "query", false, &r->query_text) < 0) return -1;
  if (get_string(L, root, "analyzer", false, &analyzer) < 0) return -1;
  int rc;
  if ((r->query_text != NULL) == (analyzer != NULL)) {
    rc = fail_at(L, root, "a rule needs exactly one of `query` and `analyzer`");
  } else if (analyzer) {
    rc = load_analyzer(L, root, analyzer);
  } else {
    rc = fy_node_mapping_lookup_by_string(root, "options", FY_NT)
             ? fail_at(L, fy_node_mapping_lookup_by_string(root, "options", FY_NT),
                       "key `options` belongs to `analyzer` rules")
             : load_query(L, root);
  }
  free(analyzer);
  if (rc < 0) return -1;
  if (get_string(L, root, "range", false, &r->range_capture) < 0) return -1;
  if (r->range_capture && !has_name(L, r->range_capture))
    return fail_at(L, fy_node_mapping_lookup_by_string(root, "range", FY_NT),
                   "key `range`: `%s` is not a capture of this rule", r->range_capture);
  return check_template(L, fy_node_mapping_lookup_by_string(root, "message", FY_NT), "message", r->message);
}

static tt_rule *load_doc(const char *path, const char *text, struct fy_document *doc, bool compile, char **err) {
  static const char *const keys[] = {"id", "target", "language", "category", "severity", "summary",
                                     "message", "explain", "opt_in", "query", "range", "analyzer", "options",
                                     "fix", "examples", "references", NULL};
  loader L = {.path = path, .compile = compile, .text = text, .err = err};
  L.rule = tt_xcalloc(1, sizeof *L.rule);
  L.rule->file = tt_xstrdup(path);
  struct fy_node *root = fy_document_root(doc);
  int rc = -1;
  if (!root || !fy_node_is_mapping(root)) {
    *err = tt_xasprintf("%s: a rule file must be a YAML mapping", path);
    goto out;
  }
  if (check_keys(&L, root, "a rule", keys) < 0 || load_scalars(&L, root) < 0 || load_matcher(&L, root) < 0)
    goto out;
  struct fy_node *fix = fy_node_mapping_lookup_by_string(root, "fix", FY_NT);
  if (fix && load_fix(&L, fix) < 0) goto out;
  if (load_examples(&L, root) < 0 || load_references(&L, root) < 0) goto out;
  rc = 0;
out:
  free(L.names);
  if (rc < 0) {
    tt_rule_free(L.rule);
    return NULL;
  }
  return L.rule;
}

static tt_rule *load_text(const char *path, const char *text, size_t len, bool compile, char **err) {
  struct fy_document *doc = tt_yaml_load_text(path, text, len, err);
  if (!doc) return NULL;
  tt_rule *r = load_doc(path, text, doc, compile, err);
  fy_document_destroy(doc);
  return r;
}

static tt_rule *load_file(const char *path, bool compile, char **err) {
  char *text;
  size_t len;
  if (tt_fs_read(path, &text, &len, err) < 0) return NULL;
  tt_rule *r = load_text(path, text, len, compile, err);
  free(text);
  return r;
}

/* The stub of the rule file `path` when its head names a valid id, target and a
 * language `langs` leaves out; else NULL. */
static tt_rule *stub_of(const char *path, const char *text, size_t len, const bool *langs) {
  static const char *const keys[] = {"id", "target", "language"};
  char *v[3];
  if (tt_yaml_head(text, len, keys, 3, v) < 0) return NULL;
  tt_lang lang = tt_lang_from_name(v[2]);
  tt_rule *r = NULL;
  if (v[0][0] && strspn(v[0], "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v[0]) && tt_target_valid(v[1]) &&
      lang != TT_LANG_NONE && strcmp(v[2], tt_lang_name(lang)) == 0 && !langs[lang]) {
    r = tt_xcalloc(1, sizeof *r);
    r->file = tt_xstrdup(path);
    r->id = v[0], r->target = v[1], v[0] = v[1] = NULL;
    r->language = lang;
    r->stub = true;
  }
  for (int i = 0; i < 3; i++) free(v[i]);
  return r;
}

tt_rule *tt_rule_load_for(const char *path, const bool langs[TT_LANG_COUNT], char **err) {
  char *text;
  size_t len;
  if (tt_fs_read(path, &text, &len, err) < 0) return NULL;
  tt_rule *r = stub_of(path, text, len, langs);
  if (!r) r = load_text(path, text, len, false, err);
  free(text);
  return r;
}

tt_rule *tt_rule_load_text(const char *path, const char *text, char **err) { return load_text(path, text, strlen(text), true, err); }
tt_rule *tt_rule_load(const char *path, char **err) { return load_file(path, true, err); }
tt_rule *tt_rule_load_deferred(const char *path, char **err) { return load_file(path, false, err); }
