/* tiletrans rewrite — apply the rulebook's fixes to a fixpoint and write the result. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "util/fs.h"
#include "util/util.h"

static void help(FILE *out) {
  fputs("usage: tiletrans rewrite [PATH...] --target hip|julia [--out DIR | --in-place | --diff] [options]\n"
        "\n"
        "Applies every fix of the target's rules, re-parsing and repeating until nothing changes.\n"
        "Edits inside code that failed to parse are refused and reported; overlapping fixes are\n"
        "reported and a deterministic one wins. Files are replaced atomically and keep their mode;\n"
        "unchanged files are not touched.\n"
        "\n"
        "  --target T        the port's target (default: .tiletrans.yaml's)\n"
        "  --in-place        rewrite the files where they are\n"
        "  --out DIR         write the rewritten tree under DIR (.cu becomes .hip for --target hip)\n"
        "  --diff            print a unified diff; write nothing\n"
        "                    (none of the three: print the rewritten text of the one input)\n"
        "  --format text|json  report of findings and fixes (json: to stdout, in place of diff/text)\n"
        "  --rules DIR, --config FILE, --language L, -j N   as for lint\n"
        TT_CLI_SEMA_HELP
        "\n"
        "Exit: 0 done, 1 error-severity findings left unfixed, 2 usage/config/rule error,\n"
        "3 input error (unreadable or unwritable file).\n",
        out);
}

typedef enum { MODE_STDOUT, MODE_IN_PLACE, MODE_OUT, MODE_DIFF } out_mode;

typedef struct rw_flags {
  out_mode mode;
  int n_modes;
  const char *out_dir;
  tt_format format;
} rw_flags;

static int rw_extra(int c, const char *arg, void *vctx) {
  rw_flags *f = vctx;
  switch (c) {
  case 'i': f->mode = MODE_IN_PLACE, f->n_modes++; return 0;
  case 'o': f->mode = MODE_OUT, f->out_dir = arg, f->n_modes++; return 0;
  case 'd': f->mode = MODE_DIFF, f->n_modes++; return 0;
  case 'f':
    if (tt_format_parse(arg, &f->format) == 0 && (f->format == TT_FMT_TEXT || f->format == TT_FMT_JSON)) return 0;
    fprintf(stderr, "tiletrans: rewrite --format expects text or json, not `%s`\n", arg);
    return -1;
  }
  return -1;
}

/* Where --out writes `path`, found under PATH argument `root`. Caller frees. */
static char *out_path(const char *out_dir, const char *root, const char *path, const char *target) {
  const char *rel = path;
  size_t n = strlen(root);
  if (tt_fs_is_dir(root)) {
    if (strncmp(path, root, n) == 0) rel = path + n;
    while (*rel == '/') rel++;
  } else {
    const char *slash = strrchr(path, '/');
    rel = slash ? slash + 1 : path;
  }
  char *dest = tt_fs_join(out_dir, rel);
  if (target && !strcmp(target, "hip") && tt_str_ends_with(dest, ".cu")) {
    char *hip = tt_xasprintf("%.*s.hip", (int)(strlen(dest) - 3), dest);
    free(dest);
    dest = hip;
  }
  return dest;
}

/* Writes `text` to `dest` unless it already holds exactly that (keeping its mtime). */
static int write_if_changed(const char *dest, const char *text, size_t len, char **err) {
  char *old = NULL;
  size_t old_len = 0;
  if (tt_fs_read(dest, &old, &old_len, NULL) == 0) {
    bool same = old_len == len && memcmp(old, text, len) == 0;
    free(old);
    if (same) return 0;
  }
  if (tt_fs_mkdirs_for(dest, err) < 0) return -1;
  return tt_fs_write_atomic(dest, text, len, err);
}

static int emit(const tt_cli_opts *o, const rw_flags *f, tt_cli_run *run, size_t i) {
  tt_file_result *fr = &run->files[i];
  if (fr->error) return 0;
  char *err = NULL;
  int rc = 0;
  switch (f->mode) {
  case MODE_STDOUT:
    if (f->format == TT_FMT_TEXT) fwrite(fr->new_text, 1, fr->new_len, stdout);
    break;
  case MODE_DIFF:
    if (f->format == TT_FMT_TEXT && fr->changed) {
      char *a = tt_xasprintf("a/%s", fr->path), *b = tt_xasprintf("b/%s", fr->path);
      tt_diff_unified(stdout, a, b, fr->src->text, fr->src->len, fr->new_text, fr->new_len);
      free(a);
      free(b);
    }
    break;
  case MODE_IN_PLACE:
    if (fr->changed) rc = tt_fs_write_atomic(fr->path, fr->new_text, fr->new_len, &err);
    break;
  case MODE_OUT: {
    const tt_cli_profile *p = &run->profiles[run->file_profile[i]];
    char *dest = out_path(f->out_dir, o->paths[run->file_root[i]], fr->path, p->sel.target);
    rc = write_if_changed(dest, fr->new_text, fr->new_len, &err);
    free(dest);
    break;
  }
  }
  if (rc < 0) fr->error = err;
  return rc;
}

int tt_cmd_rewrite(int argc, char **argv) {
  static const struct option longopts[] = {
      {"target", required_argument, 0, 't'}, {"out", required_argument, 0, 'o'},
      {"in-place", no_argument, 0, 'i'},     {"diff", no_argument, 0, 'd'},
      {"format", required_argument, 0, 'f'}, {"rules", required_argument, 0, 'r'},
      {"config", required_argument, 0, 'c'}, {"language", required_argument, 0, 'L'},
      {"jobs", required_argument, 0, 'j'},   {"help", no_argument, 0, 'h'}, TT_CLI_SEMA_LONGOPTS,
      {0, 0, 0, 0}};
  tt_cli_opts o = {.jobs = 1, .rewrite = true};
  rw_flags f = {MODE_STDOUT, 0, NULL, TT_FMT_TEXT};
  int p = tt_cli_parse_common(argc, argv, &o, "j:hI:D:", longopts, rw_extra, &f, help);
  int rc = TT_EXIT_USAGE;
  if (p != 0) {
    tt_cli_opts_free(&o);
    return p > 0 ? TT_EXIT_OK : TT_EXIT_USAGE;
  }
  if (f.n_modes > 1) {
    fprintf(stderr, "tiletrans: rewrite takes one of --out, --in-place and --diff\n");
    goto out_opts;
  }
  for (size_t i = 0; i < o.n_paths; i++)
    if (!strcmp(o.paths[i], "-") && (f.mode == MODE_IN_PLACE || f.mode == MODE_OUT)) {
      fprintf(stderr, "tiletrans: standard input can only be rewritten to standard output or --diff\n");
      goto out_opts;
    }
  tt_cli_run run;
  rc = tt_cli_execute(&o, &run);
  if (rc != TT_EXIT_OK) goto out_run;
  if (f.mode == MODE_STDOUT && run.n_files != 1) {
    fprintf(stderr, "tiletrans: %zu files to rewrite: choose --in-place, --out DIR or --diff\n", run.n_files);
    rc = TT_EXIT_USAGE;
    goto out_run;
  }
  for (size_t i = 0; i < run.n_profiles; i++)
    if (!run.profiles[i].sel.target) {
      fprintf(stderr, "tiletrans: rewrite needs --target (or `target:` in .tiletrans.yaml)\n");
      rc = TT_EXIT_USAGE;
      goto out_run;
    }
  bool input_error = false, unfixed = false;
  for (size_t i = 0; i < run.n_files; i++) {
    emit(&o, &f, &run, i);
    tt_file_result *fr = &run.files[i];
    input_error |= fr->error != NULL;
    for (size_t k = 0; k < fr->findings.n; k++)
      unfixed |= fr->findings.items[k].severity == TT_SEV_ERROR && fr->findings.items[k].fix_status != TT_FIX_APPLIED;
    if (!fr->error && !fr->converged)
      fprintf(stderr, "%s: warning: fixes still changing the file after the round limit; review the result\n",
              fr->path);
  }
  rc = input_error ? TT_EXIT_INPUT : unfixed ? TT_EXIT_FINDINGS : TT_EXIT_OK;
  tt_report rep = {run.files, run.n_files, run.profiles[0].book, &run.profiles[0].sel, true, rc, false};
  if (f.format == TT_FMT_JSON) {
    tt_report_json(stdout, &rep);
  } else {
    /* The rewritten text or diff owns stdout in those modes; the report goes beside it. */
    FILE *rep_out = (f.mode == MODE_STDOUT || f.mode == MODE_DIFF) ? stderr : stdout;
    rep.color = rep_out == stdout && tt_cli_color();
    tt_report_text(rep_out, &rep);
  }
out_run:
  tt_cli_run_free(&run);
out_opts:
  tt_cli_opts_free(&o);
  return rc;
}
