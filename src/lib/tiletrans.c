/* tiletrans.c — libtiletrans, the embedding API (see tiletrans.h), implemented over
 * tt_core: the same rulebook loading, matching and rewriting as the command line.
 * Results copy what they expose, so they own everything they point to. */
#include "tiletrans.h"

#include <stdlib.h>
#include <string.h>

#include "parser/source.h"
#include "parser/tree.h"
#include "rules/match.h"
#include "rules/rewrite.h"
#include "rules/rulebook.h"
#include "util/relocate.h"
#include "util/util.h"

struct tiletrans_rulebook {
  tt_rulebook *book;
};

struct tiletrans_result {
  tiletrans_finding *findings; /* rule_id and message owned */
  size_t n;
  char *text;                  /* rewrite only */
  size_t len;
  int changed;
};

static void set_err(char **err, char *msg) {
  if (err) *err = msg;
  else free(msg);
}

const char *tiletrans_version(void) { return TT_VERSION; }

void tiletrans_free(void *p) { free(p); }

tiletrans_rulebook *tiletrans_rulebook_load(const char *const *dirs, size_t n_dirs, char **err) {
  if (err) *err = NULL;
  char *deflt = n_dirs == 0 ? tt_relocate_rules_dir() : NULL;
  const char *one[1] = {deflt};
  char *e = NULL;
  tt_rulebook *book = tt_rulebook_load(n_dirs ? dirs : one, n_dirs ? n_dirs : 1, &e);
  free(deflt);
  if (!book) {
    set_err(err, e);
    return NULL;
  }
  tiletrans_rulebook *b = tt_xcalloc(1, sizeof *b);
  b->book = book;
  return b;
}

void tiletrans_rulebook_free(tiletrans_rulebook *b) {
  if (!b) return;
  tt_rulebook_free(b->book);
  free(b);
}

/* Checks the arguments both entry points share; resolves the language. */
static int prepare(const tiletrans_rulebook *b, const char *target, const char *path, tiletrans_lang lang,
                   const char *text, tiletrans_result **out, tt_lang *tl, char **err) {
  if (err) *err = NULL;
  if (out) *out = NULL;
  if (!b || !path || !text || !out) {
    set_err(err, tt_xstrdup("tiletrans: book, path, text and out must not be NULL"));
    return -1;
  }
  if (target && !tt_target_valid(target)) {
    set_err(err, tt_xasprintf("tiletrans: unknown target `%s` (expected one of: %s)", target, TT_TARGETS));
    return -1;
  }
  switch (lang) {
  case TILETRANS_LANG_CUDA: *tl = TT_LANG_CUDA; break;
  case TILETRANS_LANG_PYTHON: *tl = TT_LANG_PYTHON; break;
  case TILETRANS_LANG_JULIA: *tl = TT_LANG_JULIA; break;
  default: *tl = tt_lang_from_path(path);
  }
  if (*tl == TT_LANG_NONE) {
    set_err(err, tt_xasprintf("%s: cannot tell the language; pass TILETRANS_LANG_CUDA, _PYTHON or _JULIA", path));
    return -1;
  }
  return 0;
}

static tiletrans_result *result_of(const tt_findings *fs) {
  tiletrans_result *r = tt_xcalloc(1, sizeof *r);
  r->findings = tt_xcalloc(fs->n ? fs->n : 1, sizeof *r->findings);
  r->n = fs->n;
  for (size_t i = 0; i < fs->n; i++) {
    const tt_finding *f = &fs->items[i];
    r->findings[i] = (tiletrans_finding){
        .rule_id = tt_xstrdup(f->rule->id),
        .severity = (tiletrans_severity)f->severity,
        .message = tt_xstrdup(f->message ? f->message : ""),
        .start_byte = f->start,
        .end_byte = f->end,
        .line = f->start_pos.line,
        .column = f->start_pos.column,
        .end_line = f->end_pos.line,
        .end_column = f->end_pos.column,
        .has_fix = f->has_fix,
    };
  }
  return r;
}

int tiletrans_lint(const tiletrans_rulebook *b, const char *target, const char *path, tiletrans_lang lang,
                   const char *text, size_t len, tiletrans_result **out, char **err) {
  tt_lang tl;
  if (prepare(b, target, path, lang, text, out, &tl, err) < 0) return -1;
  char *copy = tt_xcalloc(len + 1, 1);
  memcpy(copy, text, len);
  tt_source *src = tt_source_new(path, copy, len, tl); /* owns copy from here */
  if (!src) {
    free(copy);
    set_err(err, tt_xasprintf("%s: file too large", path));
    return -1;
  }
  tt_selection sel = {.target = target};
  tt_findings fs = {0};
  tt_tree *tree = tt_tree_parse(src);
  tt_match_tree(b->book, &sel, tree, &fs);
  tt_tree_free(tree);
  *out = result_of(&fs);
  tt_findings_free(&fs);
  tt_source_free(src);
  return 0;
}

int tiletrans_rewrite(const tiletrans_rulebook *b, const char *target, const char *path, tiletrans_lang lang,
                      const char *text, size_t len, tiletrans_result **out, char **err) {
  tt_lang tl;
  if (prepare(b, target, path, lang, text, out, &tl, err) < 0) return -1;
  tt_selection sel = {.target = target};
  tt_rewrite_result rr;
  char *e = NULL;
  if (tt_rewrite_text(b->book, &sel, path, tl, text, len, &rr, &e) < 0) {
    set_err(err, e);
    return -1;
  }
  tiletrans_result *r = result_of(&rr.findings);
  r->text = rr.text;
  r->len = rr.len;
  r->changed = rr.changed;
  rr.text = NULL;
  tt_rewrite_result_free(&rr);
  *out = r;
  return 0;
}

size_t tiletrans_result_count(const tiletrans_result *r) { return r ? r->n : 0; }

const tiletrans_finding *tiletrans_result_finding(const tiletrans_result *r, size_t i) {
  return r && i < r->n ? &r->findings[i] : NULL;
}

const char *tiletrans_result_text(const tiletrans_result *r, size_t *len) {
  if (len) *len = r && r->text ? r->len : 0;
  return r ? r->text : NULL;
}

int tiletrans_result_changed(const tiletrans_result *r) { return r ? r->changed : 0; }

void tiletrans_result_free(tiletrans_result *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n; i++) {
    free((char *)r->findings[i].rule_id);
    free((char *)r->findings[i].message);
  }
  free(r->findings);
  free(r->text);
  free(r);
}
