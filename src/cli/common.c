#include "cli/common.h"

#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/match.h"
#include "rules/rewrite.h"
#include "rules/ruleset.h"
#include "sema/tt_sema.h"
#include "util/fs.h"
#include "util/relocate.h"
#include "util/util.h"

bool tt_cli_color(int mode, FILE *out) {
  if (mode >= 0) return mode == 1;
  const char *nc = getenv("NO_COLOR");
  const char *term = getenv("TERM");
  if (nc && *nc) return false;
  if (term && strcmp(term, "dumb") == 0) return false;
  return isatty(fileno(out));
}

int tt_cli_parse_jobs(const char *s, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 1 || v > 256) {
    fprintf(stderr, "tiletrans: -j expects a number of jobs from 1 to 256, not `%s`\n", s);
    return -1;
  }
  *out = (int)v;
  return 0;
}

int tt_cli_parse_target(const char *s) {
  if (tt_target_valid(s)) return 0;
  fprintf(stderr, "tiletrans: unknown target `%s` (expected one of: %s)\n", s, TT_TARGETS);
  return -1;
}

/* TILETRANS_RULES_DIR, else the installed rulebook found from the executable, else
 * the source tree's (util/relocate.h). Looked up once per process. */
const char *tt_cli_default_rules_dir(void) {
  static char *dir;
  if (!dir) dir = tt_relocate_rules_dir();
  return dir;
}

/* How load_rules loads: tt_rulebook_load, _load_uncompiled or _load_for. */
enum load_kind { LOAD_COMPILED, LOAD_UNCOMPILED, LOAD_FOR };

static tt_rulebook *load_rules(const char *const *dirs, size_t n, const char *const *extra, size_t n_extra,
                              enum load_kind kind, const bool *langs) {
  const char **all = tt_xcalloc(n + n_extra + 1, sizeof *all);
  size_t k = 0;
  if (n == 0) all[k++] = tt_cli_default_rules_dir();
  for (size_t i = 0; i < n; i++) all[k++] = dirs[i];
  for (size_t i = 0; i < n_extra; i++) all[k++] = extra[i];
  char *err = NULL;
  tt_rulebook *book = kind == LOAD_COMPILED     ? tt_rulebook_load(all, k, &err)
                     : kind == LOAD_UNCOMPILED ? tt_rulebook_load_uncompiled(all, k, &err)
                                               : tt_rulebook_load_for(all, k, langs, &err);
  if (book && tt_ruleset_check_facts(book, &err) < 0) {
    tt_rulebook_free(book);
    book = NULL;
  }
  if (book && book->n_rules == 0) {
    tt_buf b = {0};
    for (size_t i = 0; i < k; i++) tt_buf_printf(&b, "%s%s", i ? ", " : "", all[i]);
    err = tt_xasprintf("tiletrans: no rules in %s: nothing to check", b.data);
    tt_buf_free(&b);
    tt_rulebook_free(book);
    book = NULL;
  }
  free(all);
  if (!book) {
    fprintf(stderr, "%s\n", err);
    free(err);
  }
  return book;
}

tt_rulebook *tt_cli_load_rules(const char *const *dirs, size_t n, const char *const *extra, size_t n_extra) {
  return load_rules(dirs, n, extra, n_extra, LOAD_COMPILED, NULL);
}

tt_rulebook *tt_cli_load_rules_uncompiled(const char *const *dirs, size_t n) {
  return load_rules(dirs, n, NULL, 0, LOAD_UNCOMPILED, NULL);
}

/* The language process() reads file `path` as; TT_LANG_NONE: it refuses the file. */
static tt_lang file_lang(const tt_cli_opts *o, const char *path) {
  return o->language != TT_LANG_NONE ? o->language : tt_lang_from_path(path);
}

/* Compiles, in each profile's rulebook, the queries the inputs need, and only those:
 * compiling is most of the start-up. lint reads each named file here (processing takes
 * the text) and compiles the query patterns whose prefilter says they may match one of them;
 * rewrite, and lint of stdin, compile every rule of the inputs' languages (a rewrite
 * matches text its fixes made). Before the workers start: compiling writes to the
 * books they share. -1 after printing the rule files at fault. */
static int compile_for_inputs(const tt_cli_opts *o, tt_cli_run *run) {
  tt_needed **needed = tt_xcalloc(run->n_profiles, sizeof *needed);
  bool (*want)[TT_LANG_COUNT] = tt_xcalloc(run->n_profiles, sizeof *want);
  bool (*all)[TT_LANG_COUNT] = tt_xcalloc(run->n_profiles, sizeof *all);
  run->early_text = tt_xcalloc(run->n_files + 1, sizeof *run->early_text);
  run->early_len = tt_xcalloc(run->n_files + 1, sizeof *run->early_len);
  for (size_t i = 0; i < run->n_files; i++) {
    size_t p = run->file_profile[i];
    tt_lang lang = file_lang(o, run->files[i].path);
    if (lang == TT_LANG_NONE || run->files[i].error) continue;
    want[p][lang] = true;
    if (o->rewrite || strcmp(run->files[i].path, "<stdin>") == 0) {
      all[p][lang] = true;
      continue;
    }
    char *err = NULL;
    if (tt_fs_read(run->files[i].path, &run->early_text[i], &run->early_len[i], &err) < 0) {
      free(err); /* processing reads it again and reports the error */
      run->early_text[i] = NULL;
      continue;
    }
    const tt_rulebook *book = run->profiles[p].book;
    if (!needed[p]) needed[p] = tt_needed_new(book);
    tt_rulebook_mark_needed(book, &run->profiles[p].sel, lang, run->early_text[i], run->early_len[i], needed[p]);
  }
  int rc = 0;
  for (size_t p = 0; p < run->n_profiles; p++) {
    for (int lang = 1; lang < TT_LANG_COUNT; lang++) {
      char *err = NULL;
      if (!want[p][lang] || tt_rulebook_compile(run->profiles[p].book, (tt_lang)lang, all[p][lang] ? NULL : needed[p], &err) == 0)
        continue;
      fprintf(stderr, "%s\n", err);
      free(err);
      rc = -1;
    }
    tt_needed_free(needed[p]);
  }
  free(needed);
  free(want);
  free(all);
  return rc;
}

/* --- collecting files ---------------------------------------------------------------- */

typedef struct collect_ctx {
  tt_cli_run *run;
  size_t cap, root, profile;
  const tt_config *config;
} collect_ctx;

static bool wanted(const char *path, void *vctx) {
  collect_ctx *c = vctx;
  if (tt_lang_from_path(path) == TT_LANG_NONE) return false;
  return !c->config || tt_config_wants(c->config, path);
}

static void add_file(const char *path, void *vctx) {
  collect_ctx *c = vctx;
  tt_cli_run *r = c->run;
  TT_PUSH(r->files, r->n_files, c->cap, ((tt_file_result){0}));
  r->file_root = tt_xrealloc(r->file_root, c->cap * sizeof *r->file_root);
  r->file_profile = tt_xrealloc(r->file_profile, c->cap * sizeof *r->file_profile);
  r->files[r->n_files - 1].path = tt_xstrdup(strcmp(path, "-") == 0 ? "<stdin>" : path);
  r->file_root[r->n_files - 1] = c->root;
  r->file_profile[r->n_files - 1] = c->profile;
}

/* --- profiles ----------------------------------------------------------------------- */

/* Unknown rule ids in severity overrides are configuration errors, not silent no-ops. */
static int check_overrides(const tt_config *cfg, const tt_rulebook *book) {
  for (size_t i = 0; cfg && i < cfg->n_overrides; i++) {
    const char *id = cfg->overrides[i].rule_id;
    if (tt_rulebook_find(book, id)) continue;
    const char *near = tt_ruleset_suggest(book, id);
    fprintf(stderr, "%s: key `severity.%s`: no rule has this id%s%s%s\n", cfg->path, id, near ? " (did you mean `" : "",
            near ? near : "", near ? "`?)" : "");
    return -1;
  }
  return 0;
}

/* `--select` names rule `id` itself, not by a glob. */
static bool selected_by_id(const tt_cli_opts *o, const char *id) {
  for (size_t i = 0; i < o->n_select; i++)
    if (!strcmp(o->select[i], id)) return true;
  return false;
}

/* The run's overrides: the config's, then `off` for every rule --select/--ignore drop
 * and its own severity for an opt-in rule --select names by id (later entries win).
 * Fails when the choice matches nothing, breaks a dependency, or leaves no rule for
 * the target. */
static int choose_rules(const tt_cli_opts *o, const tt_rulebook *book, const tt_config *cfg, const char *target,
                        tt_override **ov_out, size_t *n_out) {
  bool *keep;
  char *err = NULL;
  if (tt_ruleset_choose(book, target, o->select, o->n_select, o->ignore, o->n_ignore, &keep, &err) < 0) {
    fprintf(stderr, "%s\n", err);
    free(err);
    return -1;
  }
  size_t n_cfg = cfg ? cfg->n_overrides : 0, n = n_cfg, kept = 0;
  tt_override *ov = tt_xcalloc(n_cfg + book->n_rules + 1, sizeof *ov);
  for (size_t i = 0; i < n_cfg; i++) ov[i] = cfg->overrides[i]; /* ids borrowed from the config */
  for (size_t i = 0; i < book->n_rules; i++) {
    const tt_rule *r = book->rules[i];
    if (!keep[i]) ov[n++] = (tt_override){r->id, TT_SEV_OFF};
    else if (r->opt_in && selected_by_id(o, r->id)) ov[n++] = (tt_override){r->id, r->severity};
    if (keep[i]) kept += !target || strcmp(r->target, target) == 0;
  }
  free(keep);
  if (kept == 0) {
    fprintf(stderr, "tiletrans: no rule to run%s%s%s\n", target ? " for target `" : "", target ? target : "",
            target ? "`" : "");
    free(ov);
    return -1;
  }
  *ov_out = ov;
  *n_out = n;
  return 0;

}

/* Strings of the command line followed by the config's (borrowed), NULL-free. */
static const char **concat(const char **a, size_t na, char **b, size_t nb) {
  const char **out = tt_xcalloc(na + nb + 1, sizeof *out);
  for (size_t i = 0; i < na; i++) out[i] = a[i];
  for (size_t i = 0; i < nb; i++) out[na + i] = b[i];
  return out;
}

/* A semantic layer for a config that adds hip_defines, include_dirs or defines to the
 * command line's options; NULL when it adds none (the run's layer serves). */
static struct tt_sema *profile_sema(const tt_cli_opts *o, const tt_config *cfg) {
  if (!cfg->n_hip_defines && !cfg->n_sema_includes && !cfg->n_sema_defines) return NULL;
  const char **inc = concat(o->sema_includes, o->n_sema_includes, cfg->sema_includes, cfg->n_sema_includes);
  const char **def = concat(o->sema_defines, o->n_sema_defines, cfg->sema_defines, cfg->n_sema_defines);
  const char **hip = concat(o->sema_hip_defines, o->n_sema_hip_defines, cfg->hip_defines, cfg->n_hip_defines);
  tt_sema_options so = {inc, o->n_sema_includes + cfg->n_sema_includes, def, o->n_sema_defines + cfg->n_sema_defines,
                        hip, o->n_sema_hip_defines + cfg->n_hip_defines, o->compile_commands, NULL, o->no_sema};
  struct tt_sema *s = tt_sema_new(&so);
  free(inc);
  free(def);
  free(hip);
  return s;
}

static int profile_for(const tt_cli_opts *o, tt_cli_run *run, const char *path, size_t *out) {
  char *cfg_path = o->config ? tt_xstrdup(o->config) : (strcmp(path, "-") ? tt_config_find(path) : tt_config_find("."));
  for (size_t i = 0; i < run->n_profiles; i++) {
    const tt_config *c = run->profiles[i].config;
    if ((!c && !cfg_path) || (c && cfg_path && strcmp(c->path, cfg_path) == 0)) {
      free(cfg_path);
      *out = i;
      return 0;
    }
  }
  tt_config *cfg = NULL;
  if (cfg_path) {
    char *err = NULL;
    cfg = tt_config_load(cfg_path, &err);
    free(cfg_path);
    if (!cfg) {
      fprintf(stderr, "%s\n", err);
      free(err);
      return -1;
    }
  }
  run->profiles = tt_xrealloc(run->profiles, (run->n_profiles + 1) * sizeof *run->profiles);
  tt_cli_profile *p = &run->profiles[run->n_profiles];
  memset(p, 0, sizeof *p);
  p->config = cfg;
  *out = run->n_profiles++;
  return 0;
}

/* Loads profile p's rulebook, once its files are known: whole for the languages of
 * its files (every language for a report that lists the rules), stubs for the rest
 * (tt_rulebook_load_for). -1 after printing the error. */
static int load_profile_book(const tt_cli_opts *o, tt_cli_run *run, size_t p_index) {
  tt_cli_profile *p = &run->profiles[p_index];
  const tt_config *cfg = p->config;
  bool langs[TT_LANG_COUNT] = {0};
  for (size_t i = 0; i < run->n_files; i++)
    if (run->file_profile[i] == p_index) langs[file_lang(o, run->files[i].path)] = true;
  if (o->whole_rulebook)
    for (int l = 0; l < TT_LANG_COUNT; l++) langs[l] = true;
  tt_rulebook *book = load_rules(o->rule_dirs, o->n_rule_dirs, cfg ? (const char *const *)cfg->rule_dirs : NULL,
                                 cfg ? cfg->n_rule_dirs : 0, LOAD_FOR, langs);
  if (!book) return -1;
  const char *target = o->target ? o->target : (cfg ? cfg->target : NULL);
  tt_override *ov = NULL;
  size_t n_ov = 0;
  if (check_overrides(cfg, book) < 0 || choose_rules(o, book, cfg, target, &ov, &n_ov) < 0) {
    tt_rulebook_free(book);
    return -1;
  }
  p->book = book;
  p->overrides = ov;
  p->sel = (tt_selection){.target = target, .overrides = ov, .n_overrides = n_ov};
  if (cfg && target && !strcmp(target, "hip"))
    p->sel.target_defines = (const char *const *)cfg->hip_defines, p->sel.n_target_defines = cfg->n_hip_defines;
  p->sema = cfg ? profile_sema(o, cfg) : NULL;
  p->sel.sema = p->sema ? p->sema : run->sema;
  return 0;
}

/* --- processing --------------------------------------------------------------------- */

typedef struct work {
  const tt_cli_opts *o;
  tt_cli_run *run;
  size_t next;
  pthread_mutex_t lock;
} work;

char *tt_cli_without_path(char *err, const char *path) {
  size_t n = strlen(path);
  if (strncmp(err, path, n) == 0 && err[n] == ':' && err[n + 1] == ' ') memmove(err, err + n + 2, strlen(err + n + 2) + 1);
  return err;
}

/* Said on stderr, beside the report (whose format other tools parse): matching gave up
 * somewhere in this file (rules/match.c's bound on in-progress matches). */
static void warn_if_incomplete(const tt_file_result *fr) {
  if (fr->findings.incomplete)
    fprintf(stderr, "%s: warning: code nested deeper than the matcher follows (over a thousand open matches at once); findings in it may be missing\n",
            fr->path);
}

static void process(const tt_cli_opts *o, tt_cli_run *run, size_t i) {
  tt_file_result *fr = &run->files[i];
  if (fr->error) return; /* could not even be walked */
  const tt_cli_profile *p = &run->profiles[run->file_profile[i]];
  const char *path = strcmp(fr->path, "<stdin>") == 0 ? "-" : fr->path;
  tt_lang lang = file_lang(o, fr->path);
  if (lang == TT_LANG_NONE) {
    fr->error = tt_xstrdup("cannot tell the language; pass --language cuda|python|julia");
    return;
  }
  char *text = run->early_text ? run->early_text[i] : NULL, *err = NULL;
  size_t len = text ? run->early_len[i] : 0;
  if (text) run->early_text[i] = NULL; /* taken */
  else if (tt_fs_read(path, &text, &len, &err) < 0) {
    fr->error = tt_cli_without_path(err, path);
    return;
  }
  fr->src = tt_source_new(fr->path, text, len, lang);
  if (!fr->src) {
    free(text);
    fr->error = tt_xstrdup("file too large (over 4 GiB)");
    return;
  }
  if (tt_source_is_data(fr->src)) {
    /* Generated byte arrays: said, not parsed; a rewrite keeps them as they are. */
    fprintf(stderr, "%s: note: generated data (numeric literal lines make up 90%% of its %u bytes): not linted or rewritten\n",
            fr->path, fr->src->len);
    if (o->rewrite) {
      fr->new_text = tt_xmalloc(fr->src->len + 1);
      memcpy(fr->new_text, fr->src->text, fr->src->len + 1);
      fr->new_len = fr->src->len;
      fr->converged = true;
    }
    return;
  }
  if (!o->rewrite) {
    tt_tree *tree = tt_tree_parse(fr->src);
    tt_match_extra extra = {0};
    tt_match_tree_ex(p->book, &p->sel, tree, &fr->findings, &extra);
    fr->suppressed = extra.suppressed;
    fr->sup_issues = extra.issues;
    tt_tree_free(tree);
    warn_if_incomplete(fr);
    return;
  }
  tt_rewrite_result rr;
  if (tt_rewrite_text(p->book, &p->sel, fr->path, lang, fr->src->text, fr->src->len, &rr, &err) < 0) {
    fr->error = tt_cli_without_path(err, fr->path);
    return;
  }
  fr->findings = rr.findings;
  fr->new_text = rr.text;
  fr->new_len = rr.len;
  fr->changed = rr.changed;
  fr->converged = rr.converged;
  fr->errors_left = rr.errors_left;
  fr->suppressed = rr.suppressed;
  warn_if_incomplete(fr);
}

static void *worker(void *arg) {
  work *w = arg;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    size_t i = w->next++;
    pthread_mutex_unlock(&w->lock);
    if (i >= w->run->n_files) return NULL;
    process(w->o, w->run, i);
  }
}

int tt_cli_execute(const tt_cli_opts *o, tt_cli_run *run) {
  memset(run, 0, sizeof *run);
  if (o->compile_commands && !tt_str_ends_with(o->compile_commands, "compile_commands.json")) {
    fprintf(stderr, "tiletrans: --compile-commands `%s`: the file must be named compile_commands.json "
                    "(libclang reads it from its folder)\n", o->compile_commands);
    return TT_EXIT_USAGE;
  }
  if (o->compile_commands && access(o->compile_commands, R_OK) != 0) {
    fprintf(stderr, "tiletrans: --compile-commands `%s`: no such file\n", o->compile_commands);
    return TT_EXIT_USAGE;
  }
  tt_sema_options so = {o->sema_includes, o->n_sema_includes, o->sema_defines, o->n_sema_defines,
                        o->sema_hip_defines, o->n_sema_hip_defines, o->compile_commands, NULL, o->no_sema};
  run->sema = tt_sema_new(&so);
  static char *const dot[] = {"."};
  char *const *paths = o->n_paths ? o->paths : dot;
  size_t n_paths = o->n_paths ? o->n_paths : 1, n_excluded = 0;
  collect_ctx c = {.run = run};
  for (size_t i = 0; i < n_paths; i++) {
    size_t prof;
    if (profile_for(o, run, paths[i], &prof) < 0) return TT_EXIT_USAGE;
    c.root = i;
    c.profile = prof;
    c.config = run->profiles[prof].config;
    if (strcmp(paths[i], "-") == 0) {
      add_file("-", &c);
      continue;
    }
    /* A file named explicitly is read whatever its name (process() asks for
     * --language when the name does not tell), unless its config excludes it: a
     * pre-commit hook names every staged file, and `exclude` must hold for them too. */
    if (c.config && !tt_fs_is_dir(paths[i]) && tt_config_excludes(c.config, paths[i])) {
      n_excluded++;
      continue;
    }
    char *err = NULL;
    size_t before = run->n_files;
    if (tt_fs_walk(paths[i], wanted, add_file, &c, &err) < 0) {
      add_file(paths[i], &c);
      run->files[run->n_files - 1].error = tt_cli_without_path(err, paths[i]);
    } else if (run->n_files == before && tt_fs_is_dir(paths[i])) {
      /* Not an error by itself when another path has files; said either way. */
      fprintf(stderr, "tiletrans: %s: no .cu .cuh .hip .cpp .h .hpp .py or .jl file to %s%s\n", paths[i],
              o->rewrite ? "rewrite" : "lint", c.config ? " (after the config's include/exclude)" : "");
    }
  }
  for (size_t p = 0; p < run->n_profiles; p++)
    if (load_profile_book(o, run, p) < 0) return TT_EXIT_USAGE;
  /* Every file named was excluded by its config (a pre-commit hook on vendored files):
   * nothing to do, which is not an input error. */
  if (run->n_files == 0 && n_excluded > 0 && n_excluded == n_paths) return TT_EXIT_OK;
  if (run->n_files == 0) {
    fprintf(stderr, "tiletrans: no input files\n");
    return TT_EXIT_INPUT;
  }
  if (compile_for_inputs(o, run) < 0) return TT_EXIT_USAGE;
  int jobs = o->jobs > 0 ? o->jobs : 1;
  if ((size_t)jobs > run->n_files) jobs = (int)(run->n_files ? run->n_files : 1);
  work w = {.o = o, .run = run};
  pthread_mutex_init(&w.lock, NULL);
  pthread_t *th = tt_xcalloc((size_t)jobs, sizeof *th);
  for (int t = 1; t < jobs; t++) pthread_create(&th[t], NULL, worker, &w);
  worker(&w);
  for (int t = 1; t < jobs; t++) pthread_join(th[t], NULL);
  free(th);
  pthread_mutex_destroy(&w.lock);
  return TT_EXIT_OK;
}

void tt_cli_run_free(tt_cli_run *run) {
  for (size_t i = 0; run->early_text && i < run->n_files; i++) free(run->early_text[i]);
  free(run->early_text);
  free(run->early_len);
  for (size_t i = 0; i < run->n_files; i++) tt_file_result_free(&run->files[i]);
  free(run->files);
  free(run->file_root);
  free(run->file_profile);
  for (size_t i = 0; i < run->n_profiles; i++) {
    tt_rulebook_free(run->profiles[i].book);
    tt_config_free(run->profiles[i].config);
    free(run->profiles[i].overrides);
    tt_sema_free(run->profiles[i].sema);
  }
  free(run->profiles);
  tt_sema_free(run->sema);
  memset(run, 0, sizeof *run);
}

bool tt_cli_report_input_errors(const tt_cli_run *run) {
  bool any = false;
  for (size_t i = 0; i < run->n_files; i++)
    if (run->files[i].error) {
      fprintf(stderr, "%s: error: %s\n", run->files[i].path, run->files[i].error);
      any = true;
    }
  return any;
}

char *tt_cli_git_toplevel(const char *start) {
  char *dir = realpath(start, NULL);
  while (dir) {
    char *git = tt_fs_join(dir, ".git");
    bool found = access(git, F_OK) == 0;
    free(git);
    if (found) return dir;
    if (strcmp(dir, "/") == 0) break;
    char *up = tt_fs_dirname(dir);
    free(dir);
    dir = up;
  }
  free(dir);
  return NULL;
}

/* `abs` relative to folder `root` (both absolute), or NULL when it is not inside. */
static char *relative_to(const char *abs, const char *root) {
  size_t n = strlen(root);
  if (n == 1) return tt_xstrdup(abs + 1);
  if (strncmp(abs, root, n) == 0 && abs[n] == '/') return tt_xstrdup(abs + n + 1);
  return NULL;
}

char *tt_cli_diff_path(const char *path, char **root) {
  *root = NULL;
  char *dir = tt_fs_dirname(path), *rdir = realpath(dir, NULL);
  free(dir);
  if (!rdir) return tt_xstrdup(path);
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char *abs = tt_fs_join(rdir, base), *cwd = realpath(".", NULL);
  char *rel = cwd ? relative_to(abs, cwd) : NULL;
  if (!rel) {
    char *top = tt_cli_git_toplevel(rdir);
    rel = top ? relative_to(abs, top) : NULL;
    *root = top;
    if (!rel) {
      free(top);
      *root = tt_xstrdup("/");
      rel = tt_xstrdup(abs + 1);
    }
  }
  free(rdir);
  free(abs);
  free(cwd);
  return rel;
}

void tt_cli_opts_free(tt_cli_opts *o) {
  free(o->rule_dirs);
  free(o->select);
  free(o->ignore);
  free(o->sema_includes);
  free(o->sema_defines);
  free(o->sema_hip_defines);
}

int tt_cli_check_longopts(int argc, char **argv, const struct option *longopts) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) break;
    if (strncmp(a, "--", 2) != 0 || !a[2]) continue;
    size_t n = strcspn(a + 2, "=");
    const struct option *hit = NULL;
    for (const struct option *lo = longopts; lo->name; lo++)
      if (strlen(lo->name) == n && strncmp(lo->name, a + 2, n) == 0) hit = lo;
    if (!hit) {
      const struct option *pre = NULL;
      for (const struct option *lo = longopts; lo->name && !pre; lo++)
        if (strncmp(lo->name, a + 2, n) == 0) pre = lo;
      fprintf(stderr, "tiletrans: unknown option `%.*s`%s%s%s\n", (int)n + 2, a, pre ? " (did you mean `--" : "",
              pre ? pre->name : "", pre ? "`?)" : "");
      return -1;
    }
    if (hit->has_arg == required_argument && !a[2 + n]) i++; /* its value may start with -- */
  }
  return 0;
}

/* Adds the comma-separated patterns of `arg` (written into, as argv is ours). */
static void add_patterns(char *arg, const char ***list, size_t *n, size_t *cap) {
  for (char *save = NULL, *tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ') tok++;
    if (*tok) TT_PUSH(*list, *n, *cap, tok);
  }
}

static int parse_color(const char *arg, int *out) {
  static const char *const names[] = {"never", "always", "auto"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(arg, names[i])) {
      *out = i == 2 ? -1 : i;
      return 0;
    }
  fprintf(stderr, "tiletrans: --color expects auto, always or never, not `%s`\n", arg);
  return -1;
}

int tt_cli_parse_common(int argc, char **argv, tt_cli_opts *o, const char *short_opts, const struct option *longopts,
                        int (*extra)(int c, const char *arg, void *ctx), void *ctx, void (*helpfn)(FILE *)) {
  size_t cap = 0, scap = 0, icap = 0;
  o->color = -1;
  if (tt_cli_check_longopts(argc, argv, longopts) < 0) return -1;
  optind = 1;
  opterr = 1;
  int c;
  while ((c = getopt_long(argc, argv, short_opts, longopts, NULL)) != -1) {
    switch (c) {
    case 'h': helpfn(stdout); return 1;
    case 't':
      if (tt_cli_parse_target(optarg) < 0) return -1;
      o->target = optarg;
      break;
    case 'r': TT_PUSH(o->rule_dirs, o->n_rule_dirs, cap, optarg); break;
    case 'c': o->config = optarg; break;
    case 'S': add_patterns(optarg, &o->select, &o->n_select, &scap); break;
    case 'G': add_patterns(optarg, &o->ignore, &o->n_ignore, &icap); break;
    case 'q': o->quiet = true; break;
    case 'K':
      if (parse_color(optarg, &o->color) < 0) return -1;
      break;
    case 'j':
      if (tt_cli_parse_jobs(optarg, &o->jobs) < 0) return -1;
      break;
    case 'L':
      o->language = tt_lang_from_name(optarg);
      if (o->language == TT_LANG_NONE) {
        fprintf(stderr, "tiletrans: unknown language `%s` (expected cuda, python or julia)\n", optarg);
        return -1;
      }
      break;
    case 'I': TT_PUSH(o->sema_includes, o->n_sema_includes, o->sema_caps[0], optarg); break;
    case 'D': TT_PUSH(o->sema_defines, o->n_sema_defines, o->sema_caps[1], optarg); break;
    case 'H': TT_PUSH(o->sema_hip_defines, o->n_sema_hip_defines, o->sema_caps[2], optarg); break;
    case 'C': o->compile_commands = optarg; break;
    case 'N': o->no_sema = true; break;
    case '?': return -1;
    default:
      if (extra(c, optarg, ctx) < 0) return -1;
    }
  }
  o->paths = argv + optind;
  o->n_paths = (size_t)(argc - optind);
  return 0;
}


