/* The query-check cache (rules/qcheck.h) and ts_query_new_trusted
 * (cmake/patches/tree-sitter-0.25.1-query-trusted.patch): a pass is remembered by
 * content only, a query that fails tree-sitter's analysis is reported on every run,
 * and the query compiled without the analysis finds exactly the matches of the one
 * compiled with it, on every example of the rulebook and every corpus file. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "rules/qcheck.h"
#include "rules/rulebook.h"
#include "support.h"
#include "util/fs.h"
#include "util/util.h"

static char *cache;

static void use_fresh_cache(void) {
  cache = tts_tmpdir();
  setenv("TILETRANS_CACHE_DIR", cache, 1);
}

static void drop_cache(void) {
  tts_rmrf(cache);
  free(cache);
}

TestSuite(qcheck, .init = use_fresh_cache, .fini = drop_cache);

Test(qcheck, a_pass_is_remembered_by_language_and_text) {
  tt_qcheck *qc = tt_qcheck_new();
  const char *q = "((identifier) @a (#eq? @a \"x\"))";
  cr_expect_not(tt_qcheck_passed(qc, TT_LANG_CUDA, q));
  tt_qcheck_record(qc, TT_LANG_CUDA, q);
  cr_expect(tt_qcheck_passed(qc, TT_LANG_CUDA, q));
  cr_expect_not(tt_qcheck_passed(qc, TT_LANG_PYTHON, q), "another grammar is another key");
  cr_expect_not(tt_qcheck_passed(qc, TT_LANG_CUDA, "((identifier) @a (#eq? @a \"y\"))"));
  tt_qcheck_free(qc);
  /* Another handle (another run) reads the same record. */
  qc = tt_qcheck_new();
  cr_expect(tt_qcheck_passed(qc, TT_LANG_CUDA, q));
  tt_qcheck_free(qc);
}

static const char *k_impossible_rule =
    "id: t-impossible\n"
    "target: hip\n"
    "language: cuda\n"
    "category: numeric\n"
    "severity: warning\n"
    "summary: s\n"
    "message: m\n"
    "explain: e\n"
    "query: |\n"
    "  ((identifier) @ok (#eq? @ok \"fine\"))\n"
    "  (if_statement (identifier) @x)\n"
    "examples:\n"
    "  - match: \"int fine;\"\n";

/* No if_statement has an identifier child: tree-sitter's analysis rejects the second
 * pattern. It is never recorded as passed, so every load says so, at its line. */
Test(qcheck, a_query_that_fails_the_analysis_is_reported_every_time) {
  char *dir = tts_tmpdir();
  char *file = tt_fs_join(dir, "t-impossible.yaml");
  tts_write(file, k_impossible_rule);
  const char *dirs[] = {dir};
  for (int run = 0; run < 2; run++) {
    char *err = NULL;
    tt_rulebook *book = tt_rulebook_load(dirs, 1, &err);
    cr_expect_null(book, "run %d: the rulebook loads", run);
    cr_expect(err && strstr(err, "t-impossible.yaml:11:"), "run %d: %s", run, err ? err : "(no error)");
    tt_rulebook_free(book);
    free(err);
  }
  char *queries = tt_fs_join(cache, "queries");
  size_t n = 0;
  char **names = tt_fs_list(queries, &n);
  cr_expect_eq(n, 0, "nothing recorded as passed");
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  free(queries);
  free(file);
  tts_rmrf(dir);
  free(dir);
}

/* --- the same matches without the analysis ------------------------------------------ */

static bool same_matches(TSQuery *a, TSQuery *b, const tt_tree *tree, size_t *n_matches) {
  TSQueryCursor *ca = ts_query_cursor_new(), *cb = ts_query_cursor_new();
  ts_query_cursor_exec(ca, a, ts_tree_root_node(tree->ts));
  ts_query_cursor_exec(cb, b, ts_tree_root_node(tree->ts));
  TSQueryMatch ma, mb;
  bool same = true;
  for (;;) {
    bool ha = ts_query_cursor_next_match(ca, &ma), hb = ts_query_cursor_next_match(cb, &mb);
    if (ha != hb) same = false;
    if (!ha || !hb) break;
    (*n_matches)++;
    if (ma.pattern_index != mb.pattern_index || ma.capture_count != mb.capture_count) {
      same = false;
      break;
    }
    for (uint16_t i = 0; i < ma.capture_count && same; i++)
      same = ma.captures[i].index == mb.captures[i].index &&
             ts_node_start_byte(ma.captures[i].node) == ts_node_start_byte(mb.captures[i].node) &&
             ts_node_end_byte(ma.captures[i].node) == ts_node_end_byte(mb.captures[i].node);
    if (!same) break;
  }
  ts_query_cursor_delete(ca);
  ts_query_cursor_delete(cb);
  return same;
}

typedef struct corpus_ctx {
  TSQuery *analysed, *trusted;
  tt_lang lang;
  size_t files, matches;
} corpus_ctx;

static bool is_lang_file(const char *path, void *vctx) {
  const corpus_ctx *c = vctx;
  return tt_lang_from_path(path) == c->lang;
}

static void compare_file(const char *path, void *vctx) {
  corpus_ctx *c = vctx;
  size_t len;
  char *text = tts_slurp(path, &len);
  cr_assert_not_null(text, "%s", path);
  tt_source *src = tts_source(path, text, c->lang);
  tt_tree *tree = tt_tree_parse(src);
  cr_expect(same_matches(c->analysed, c->trusted, tree, &c->matches), "%s: the matches differ", path);
  c->files++;
  tt_tree_free(tree);
  tt_source_free(src);
  free(text);
}

Test(qcheck, trusted_queries_match_as_analysed_ones, .timeout = 600) {
  tt_rulebook *book = tts_rulebook(false);
  char *err = NULL;
  size_t compared = 0;
  for (int lang = 1; lang < TT_LANG_COUNT; lang++) {
    tt_buf text = {0};
    for (size_t i = 0; i < book->n_rules; i++)
      if (book->rules[i]->language == (tt_lang)lang && book->rules[i]->query_text) {
        tt_buf_puts(&text, book->rules[i]->query_text);
        tt_buf_putc(&text, '\n');
      }
    if (!text.len) continue;
    uint32_t off;
    TSQueryError qerr;
    corpus_ctx c = {.lang = (tt_lang)lang};
    c.analysed = ts_query_new(tt_lang_grammar(lang), text.data, (uint32_t)text.len, &off, &qerr);
    c.trusted = ts_query_new_trusted(tt_lang_grammar(lang), text.data, (uint32_t)text.len, &off, &qerr);
    cr_assert(c.analysed && c.trusted, "%s rules compile", tt_lang_name(lang));
    for (size_t i = 0; i < book->n_rules; i++) {
      const tt_rule *r = book->rules[i];
      for (size_t e = 0; r->language == (tt_lang)lang && e < r->n_examples; e++) {
        tt_source *src = tts_source("x", r->examples[e].code, r->language);
        tt_tree *tree = tt_tree_parse(src);
        cr_expect(same_matches(c.analysed, c.trusted, tree, &c.matches), "%s example at line %u: the matches differ",
                  r->id, r->examples[e].line);
        tt_tree_free(tree);
        tt_source_free(src);
      }
    }
    cr_assert_eq(tt_fs_walk(TT_SOURCE_DIR "/corpus", is_lang_file, compare_file, &c, &err), 0, "%s", err ? err : "");
    cr_expect_gt(c.files, 0, "%s: corpus files compared", tt_lang_name(lang));
    compared += c.matches;
    ts_query_delete(c.analysed);
    ts_query_delete(c.trusted);
    tt_buf_free(&text);
  }
  cr_expect_gt(compared, 1000u, "matches compared");
  tt_rulebook_free(book);
}
