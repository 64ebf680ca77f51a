#include "rules/rulebook.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/analyzer.h"
#include "rules/prefilter.h"
#include "rules/qcheck.h"
#include "rules/rule_load.h"
#include "util/fs.h"
#include "util/util.h"

/* The rule files of a load, in walk order, and what loading each gave. */
typedef struct load_ctx {
  char **paths;
  size_t n, cap;
  tt_rule **rules; /* per path: the rule, or NULL with errs[i] */
  char **errs;
  size_t next;     /* the next path a loader thread takes (atomic) */
  const bool *langs; /* NULL: load every file whole; else stubs for the other languages */
} load_ctx;

/* A target's data/ folder holds data the tools read (the Julia port's API map), not rules. */
static bool is_rule_file(const char *path, void *ctx) {
  const char *slash = strrchr(path, '/');
  if (slash && slash - path >= 5 && !strncmp(slash - 5, "/data", 5)) return false;
  return tt_str_ends_with(path, ".yaml") || tt_str_ends_with(path, ".yml");
}

static void collect_path(const char *path, void *vctx) {
  load_ctx *ctx = vctx;
  TT_PUSH(ctx->paths, ctx->n, ctx->cap, tt_xstrdup(path));
}

static void load_path(load_ctx *ctx, size_t i) {
  /* Queries compile together, later. */
  tt_rule *r = ctx->langs ? tt_rule_load_for(ctx->paths[i], ctx->langs, &ctx->errs[i])
                          : tt_rule_load_deferred(ctx->paths[i], &ctx->errs[i]);
  if (r && r->query_text) r->prefilter = tt_prefilter_new(r->query_text);
  ctx->rules[i] = r;
}

static void *loader_thread(void *vctx) {
  load_ctx *ctx = vctx;
  for (size_t i; (i = __atomic_fetch_add(&ctx->next, 1, __ATOMIC_RELAXED)) < ctx->n;) load_path(ctx, i);
  return NULL;
}

/* Loads every collected file. Parsing the YAML of ~100 rule files is most of a run's
 * start-up once the queries are cheap, so up to 4 threads share them; the result does
 * not depend on which thread loaded which file. */
static void load_paths(load_ctx *ctx) {
  ctx->rules = tt_xcalloc(ctx->n + 1, sizeof *ctx->rules);
  ctx->errs = tt_xcalloc(ctx->n + 1, sizeof *ctx->errs);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t n_threads = cpus < 1 ? 1 : cpus > 4 ? 4 : (size_t)cpus;
  if (n_threads > ctx->n / 16 + 1) n_threads = ctx->n / 16 + 1;
  pthread_t th[4];
  size_t started = 0;
  for (size_t t = 1; t < n_threads; t++)
    if (pthread_create(&th[started], NULL, loader_thread, ctx) == 0) started++;
  loader_thread(ctx);
  for (size_t t = 0; t < started; t++) pthread_join(th[t], NULL);
}

static int cmp_rule(const void *a, const void *b) {
  return strcmp((*(tt_rule *const *)a)->id, (*(tt_rule *const *)b)->id);
}

void tt_queryset_free(tt_queryset *qs) {
  if (qs->query) ts_query_delete(qs->query);
  for (uint32_t i = 0; i < qs->n_patterns; i++) tt_preds_free(&qs->preds[i]);
  free(qs->preds);
  free(qs->pattern_rule);
  free(qs->range_capture);
  memset(qs, 0, sizeof *qs);
}

static int64_t capture_id(const TSQuery *q, const char *name) {
  uint32_t n = ts_query_capture_count(q);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t len;
    const char *s = ts_query_capture_name_for_id(q, i, &len);
    if (strlen(name) == len && memcmp(s, name, len) == 0) return i;
  }
  return -1;
}

/* The name of the capture that locates a rule's findings: `range:`, else `match`,
 * else the rule's first capture. */
static const char *range_name(const tt_rule *r) {
  if (r->range_capture) return r->range_capture;
  for (size_t i = 0; i < r->n_captures; i++)
    if (strcmp(r->captures[i], "match") == 0) return "match";
  return r->captures[0];
}

static bool pattern_has_capture(const TSQuery *q, uint32_t pattern) {
  uint32_t n = ts_query_capture_count(q);
  for (uint32_t i = 0; i < n; i++)
    if (ts_query_capture_quantifier_for_id(q, pattern, i) != TSQuantifierZero) return true;
  return false;
}

/* Runs tree-sitter's analysis (rules/qcheck.h) over the whole queries of those of the
 * n `rules` that have not passed it before, all in one query (its cost is mostly per
 * query, not per pattern), and records their passes. -1 with *err when they fail it
 * together; the caller then loads the rules one by one to say which is at fault. */
static int analyse_new_queries(tt_lang lang, const tt_rule *const *rules, size_t n, char **err) {
  tt_qcheck *qc = tt_qcheck_new();
  tt_buf text = {0};
  const tt_rule **fresh = tt_xcalloc(n + 1, sizeof *fresh);
  size_t n_fresh = 0;
  for (size_t i = 0; i < n; i++) {
    if (tt_qcheck_passed(qc, lang, rules[i]->query_text)) continue;
    tt_buf_puts(&text, rules[i]->query_text);
    tt_buf_putc(&text, '\n');
    fresh[n_fresh++] = rules[i];
  }
  int rc = 0;
  if (n_fresh) {
    uint32_t off;
    TSQueryError qerr;
    TSQuery *q = ts_query_new(tt_lang_grammar(lang), text.data, (uint32_t)text.len, &off, &qerr);
    if (q) {
      ts_query_delete(q);
      for (size_t i = 0; i < n_fresh; i++) tt_qcheck_record(qc, lang, fresh[i]->query_text);
    } else {
      *err = tt_xasprintf("the %s rules do not compile together (byte %u)", tt_lang_name(lang), off);
      rc = -1;
    }
  }
  tt_buf_free(&text);
  free(fresh);
  tt_qcheck_free(qc);
  return rc;
}

/* Compiles `text`, the queries (or some patterns of the queries) of `rules`
 * concatenated, rule i's starting at byte starts[i], and maps each pattern to its rule
 * by where the pattern starts. Without tree-sitter's analysis, which each whole query
 * has passed first (analyse_new_queries). Fails on any query error, predicate error or
 * pattern without captures; the caller then loads the rules one by one to say which
 * is at fault. */
static int queryset_build(tt_queryset *qs, tt_lang lang, const char *text, const tt_rule *const *rules,
                          const uint32_t *starts, size_t n_rules, char **err) {
  uint32_t off;
  TSQueryError qerr;
  memset(qs, 0, sizeof *qs);
  if (analyse_new_queries(lang, rules, n_rules, err) < 0) return -1;
  qs->query = ts_query_new_trusted(tt_lang_grammar(lang), text, (uint32_t)strlen(text), &off, &qerr);
  if (!qs->query) {
    *err = tt_xasprintf("the %s rules do not compile together (byte %u)", tt_lang_name(lang), off);
    return -1;
  }
  qs->n_patterns = ts_query_pattern_count(qs->query);
  qs->pattern_rule = tt_xcalloc(qs->n_patterns, sizeof *qs->pattern_rule);
  qs->preds = tt_xcalloc(qs->n_patterns, sizeof *qs->preds);
  qs->range_capture = tt_xcalloc(qs->n_patterns, sizeof *qs->range_capture);
  size_t r = 0;
  for (uint32_t p = 0; p < qs->n_patterns; p++) {
    uint32_t at = ts_query_start_byte_for_pattern(qs->query, p);
    while (r + 1 < n_rules && starts[r + 1] <= at) r++;
    qs->pattern_rule[p] = rules[r];
    qs->range_capture[p] = capture_id(qs->query, range_name(rules[r]));
    if (!pattern_has_capture(qs->query, p)) {
      *err = tt_xasprintf("%s: a pattern captures nothing", rules[r]->file);
      return -1;
    }
    if (tt_preds_compile(qs->query, p, &qs->preds[p], err) < 0) return -1;
  }
  return 0;
}

int tt_queryset_init_rule(tt_queryset *qs, const tt_rule *rule, char **err) {
  const uint32_t start = 0;
  int rc = queryset_build(qs, rule->language, rule->query_text, &rule, &start, 1, err);
  if (rc < 0) tt_queryset_free(qs);
  return rc;
}

struct tt_needed {
  size_t *base;  /* per rule: its first mark */
  bool *marks;   /* per pattern of a rule with a prefilter, else one per rule */
};

static size_t n_marks(const tt_rule *r) { return r->prefilter ? tt_prefilter_n_patterns(r->prefilter) : 1; }

tt_needed *tt_needed_new(const tt_rulebook *book) {
  tt_needed *n = tt_xcalloc(1, sizeof *n);
  n->base = tt_xcalloc(book->n_rules + 1, sizeof *n->base);
  for (size_t i = 0; i < book->n_rules; i++) n->base[i + 1] = n->base[i] + n_marks(book->rules[i]);
  n->marks = tt_xcalloc(n->base[book->n_rules] + 1, sizeof *n->marks);
  return n;
}

void tt_needed_free(tt_needed *n) {
  if (!n) return;
  free(n->base);
  free(n->marks);
  free(n);
}

/* Appends to `text` the part of rule `i`'s query that `needed` marks: all of it when
 * every pattern is marked (or `needed` is NULL), else the marked patterns' spans.
 * False when nothing is marked. */
static bool put_needed_query(tt_buf *text, const tt_rule *r, size_t i, const tt_needed *needed) {
  size_t k0 = needed ? needed->base[i] : 0, k1 = needed ? needed->base[i + 1] : 0, marked = 0;
  for (size_t k = k0; k < k1; k++) marked += needed->marks[k];
  if (needed && marked == 0) return false;
  if (!needed || !r->prefilter || marked == k1 - k0) {
    tt_buf_puts(text, r->query_text);
  } else {
    for (size_t k = k0; k < k1; k++) {
      uint32_t start, end;
      if (!needed->marks[k]) continue;
      tt_prefilter_pattern_span(r->prefilter, k - k0, &start, &end);
      tt_buf_append(text, r->query_text + start, end - start);
      tt_buf_putc(text, '\n');
    }
  }
  tt_buf_putc(text, '\n');
  return true;
}

/* Builds the combined query of `lang` from the patterns `needed` marks (NULL: all). */
static int build_lang(tt_rulebook *book, tt_lang lang, const tt_needed *needed, char **err) {
  tt_buf text = {0};
  const tt_rule **rules = NULL;
  uint32_t *starts = NULL;
  size_t n = 0, cap = 0, scap = 0, ns = 0;
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (r->language != lang || !r->query_text) continue;
    uint32_t at = (uint32_t)text.len;
    if (!put_needed_query(&text, r, i, needed)) continue;
    TT_PUSH(starts, ns, scap, at);
    TT_PUSH(rules, n, cap, r);
  }
  int rc = 0;
  if (n) rc = queryset_build(&book->by_lang[lang], lang, text.data, rules, starts, n, err);
  tt_buf_free(&text);
  free(rules);
  free(starts);
  return rc;
}

/* After the rules of `lang` failed to compile together: load each one alone, which
 * names the file, line, column and key at fault. */
static void explain_build_failure(const tt_rulebook *book, tt_lang lang, const char *combined_err, tt_buf *errors) {
  size_t before = errors->len;
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (r->language != lang || !r->query_text) continue;
    char *err = NULL;
    tt_rule *alone = tt_rule_load(r->file, &err);
    if (alone) tt_rule_free(alone);
    else tt_buf_printf(errors, "%s\n", err);
    free(err);
  }
  if (errors->len == before) tt_buf_printf(errors, "%s\n", combined_err);
}

/* Compiles the combined query of `lang` once; a failure is explained in `errors`. */
static void compile_lang(tt_rulebook *book, tt_lang lang, const tt_needed *needed, tt_buf *errors) {
  if (book->compiled[lang]) return;
  book->compiled[lang] = true;
  char *berr = NULL;
  int rc = build_lang(book, lang, needed, &berr);
  if (rc < 0 && needed) {
    /* The patterns cut out of their queries did not compile: the prefilter's reader
     * split a query where tree-sitter does not. Every rule whole is still right. */
    tt_queryset_free(&book->by_lang[lang]);
    free(berr);
    berr = NULL;
    rc = build_lang(book, lang, NULL, &berr);
  }
  if (rc < 0) {
    tt_queryset_free(&book->by_lang[lang]);
    explain_build_failure(book, lang, berr, errors);
    free(berr);
  }
}

int tt_rulebook_compile(tt_rulebook *book, tt_lang lang, const tt_needed *needed, char **err) {
  if (book->stubbed[lang]) {
    fprintf(stderr, "tiletrans: internal error: the %s rules of the rulebook are stubs\n", tt_lang_name(lang));
    abort();
  }
  tt_buf errors = {0};
  compile_lang(book, lang, needed, &errors);
  if (!errors.len) return 0;
  errors.data[--errors.len] = '\0'; /* drop the last newline */
  *err = tt_buf_steal(&errors);
  return -1;
}

static tt_rulebook *load(const char *const *dirs, size_t n_dirs, bool compile, const bool *langs, char **err) {
  load_ctx ctx = {.langs = langs};
  tt_buf errors = {0};
  for (size_t i = 0; i < n_dirs; i++) {
    char *werr = NULL;
    if (!tt_fs_is_dir(dirs[i])) {
      tt_buf_printf(&errors, "%s: not a rules folder\n", dirs[i]);
      continue;
    }
    if (tt_fs_walk(dirs[i], is_rule_file, collect_path, &ctx, &werr) < 0) {
      tt_buf_printf(&errors, "%s\n", werr);
      free(werr);
    }
  }
  load_paths(&ctx);
  tt_rulebook *book = tt_xcalloc(1, sizeof(tt_rulebook));
  size_t cap = 0;
  for (size_t i = 0; i < ctx.n; i++) {
    if (ctx.rules[i]) {
      TT_PUSH(book->rules, book->n_rules, cap, ctx.rules[i]);
      if (ctx.rules[i]->stub) book->stubbed[ctx.rules[i]->language] = true;
    }
    else tt_buf_printf(&errors, "%s\n", ctx.errs[i]);
    free(ctx.errs[i]);
    free(ctx.paths[i]);
  }
  free(ctx.paths);
  free(ctx.rules);
  free(ctx.errs);
  book->compiled[TT_LANG_NONE] = true; /* no file is of no language */
  if (book->n_rules > 1) qsort(book->rules, book->n_rules, sizeof *book->rules, cmp_rule);
  for (size_t i = 1; i < book->n_rules; i++)
    if (strcmp(book->rules[i]->id, book->rules[i - 1]->id) == 0)
      tt_buf_printf(&errors, "%s: duplicate rule id `%s` (also in %s)\n", book->rules[i]->file,
                    book->rules[i]->id, book->rules[i - 1]->file);
  for (int lang = 1; compile && lang < TT_LANG_COUNT && errors.len == 0; lang++) compile_lang(book, (tt_lang)lang, NULL, &errors);
  if (errors.len) {
    errors.data[--errors.len] = '\0'; /* drop the last newline */
    *err = tt_buf_steal(&errors);
    tt_rulebook_free(book);
    return NULL;
  }
  return book;
}

void tt_rulebook_mark_needed(const tt_rulebook *book, const tt_selection *sel, tt_lang lang, const char *text,
                             size_t len, tt_needed *needed) {
  tt_prefilter_text t;
  tt_prefilter_text_init(&t, text, len);
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (r->language != lang || !r->query_text || tt_selection_severity(sel, r) == TT_SEV_OFF) continue;
    bool *marks = needed->marks + needed->base[i];
    if (!r->prefilter) {
      marks[0] = true;
      continue;
    }
    for (size_t k = 0; k < tt_prefilter_n_patterns(r->prefilter); k++)
      if (!marks[k]) marks[k] = tt_prefilter_pattern_may_match(r->prefilter, k, &t);
  }
  tt_prefilter_text_free(&t);
}

tt_rulebook *tt_rulebook_load(const char *const *dirs, size_t n_dirs, char **err) {
  return load(dirs, n_dirs, true, NULL, err);
}

tt_rulebook *tt_rulebook_load_uncompiled(const char *const *dirs, size_t n_dirs, char **err) {
  return load(dirs, n_dirs, false, NULL, err);
}

tt_rulebook *tt_rulebook_load_for(const char *const *dirs, size_t n_dirs, const bool langs[TT_LANG_COUNT], char **err) {
  return load(dirs, n_dirs, false, langs, err);
}

void tt_rulebook_free(tt_rulebook *book) {
  if (!book) return;
  for (int l = 0; l < TT_LANG_COUNT; l++) tt_queryset_free(&book->by_lang[l]);
  for (size_t i = 0; i < book->n_rules && !book->borrowed; i++) tt_rule_free(book->rules[i]);
  free(book->rules);
  free(book);
}

tt_rulebook *tt_rulebook_of_rule(const tt_rule *rule, const tt_rulebook *facts_from, char **err) {
  tt_rulebook *book = tt_xcalloc(1, sizeof *book);
  book->borrowed = true;
  size_t n_from = facts_from ? facts_from->n_rules : 0;
  book->rules = tt_xcalloc(1 + n_from, sizeof *book->rules);
  book->rules[book->n_rules++] = (tt_rule *)rule;
  for (size_t i = 0; i < n_from; i++) {
    tt_rule *c = facts_from->rules[i];
    if (c != rule && c->analyzer && c->analyzer->classifier) book->rules[book->n_rules++] = c;
  }
  for (int l = 0; l < TT_LANG_COUNT; l++) book->compiled[l] = true;
  if (rule->query_text && tt_queryset_init_rule(&book->by_lang[rule->language], rule, err) < 0) {
    tt_rulebook_free(book);
    return NULL;
  }
  return book;
}

const tt_rule *tt_rulebook_find(const tt_rulebook *book, const char *id) {
  size_t lo = 0, hi = book->n_rules;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(book->rules[mid]->id, id);
    if (c == 0) return book->rules[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

void tt_rulebook_target_defines(const tt_rulebook *book, const char *target,
                                void (*put)(void *ud, const char *name, const char *value), void *ud) {
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (r->analyzer && r->analyzer->target_defines && r->analyzer_opts && !strcmp(r->target, target))
      r->analyzer->target_defines(r->analyzer_opts, put, ud);
  }
}

tt_severity tt_selection_severity(const tt_selection *sel, const tt_rule *rule) {
  if (!sel) return rule->severity;
  if (sel->target && strcmp(sel->target, rule->target) != 0) return TT_SEV_OFF;
  tt_severity s = rule->opt_in ? TT_SEV_OFF : rule->severity;
  for (size_t i = 0; i < sel->n_overrides; i++)
    if (strcmp(sel->overrides[i].rule_id, rule->id) == 0) s = sel->overrides[i].severity;
  return s;
}
