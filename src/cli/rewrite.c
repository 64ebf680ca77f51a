/* tiletrans rewrite — apply the rulebook's fixes to a fixpoint and write the result. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/port_tree.h"
#include "cli/rewrite_jl.h"
#include "util/fs.h"
#include "util/util.h"

static void help(FILE *out) {
  fputs("usage: tiletrans rewrite [PATH...] --target hip|julia [--out DIR | --in-place | --diff] [options]\n"
        "\n"
        "Applies every fix of the target's rules, re-parsing and repeating until nothing changes.\n"
        "Edits inside code that failed to parse are refused and reported; overlapping fixes are\n"
        "reported and a deterministic one wins. Files are replaced atomically and keep their mode;\n"
        "unchanged files are not touched. Support headers that the port includes (from the\n"
        "rulebook's support/ folders, e.g. tiletrans_hip_compat.h) are written next to it, and\n"
        "with --out, `#include \"x.cu\"` follows x.cu to x.hip. A construct that no rule can port\n"
        "(category unsupported: inline PTX, wmma, cp.async, ...) stays as it was, marked by a\n"
        "`/* tiletrans-ignore: RULE -- left unported: ... */` comment: lint of the port lists it\n"
        "as suppressed, and rewrite exits 1 while any is left.\n"
        "\n"
        "  --target T        the port's target (default: .tiletrans.yaml's)\n"
        "  --in-place        rewrite the files where they are\n"
        "  --out DIR         write the rewritten tree under DIR (.cu becomes .hip for --target hip)\n"
        "  --diff            print a unified diff; write nothing\n"
        "                    (none of the three: print the rewritten text of the one input)\n"
        "  --format text|json  report of findings and fixes (json: to stdout, in place of diff/text)\n"
        "  --rules DIR, --config FILE, --language L, -j N, --select, --ignore, --color,\n"
        "  -q/--quiet        as for lint (--quiet: no report of findings, only errors)\n"
        "  --layout logical|flipped   cuTile Python -> cuTile.jl: keep Python's shapes (logical,\n"
        "                    the default) or its bytes (flipped: every shape reversed)\n"
        TT_CLI_SEMA_HELP
        "\n"
        "--target julia on cuTile Python (.py files, or folders of them) translates each file\n"
        "to cuTile.jl (x.py -> x.jl: beside it with --in-place, under DIR with --out); the API\n"
        "map is rules/julia/data/cutile-python.yaml. Constructs with no mapping are error\n"
        "findings [port-unsupported] and stay in the output as comments (exit 1).\n"
        "\n"
        "A symbolic link is followed: its target is rewritten and the link kept. A file with\n"
        "several hard links is rewritten through this name only (reported). Temporary files\n"
        "are named .tiletrans-tmp-PID-*; ones left by a killed run are removed on the next.\n"
        "\n"
        "Exit: 0 done (every error-severity finding fixed, by its own fix or another rule's),\n"
        "1 error-severity findings left in the result (unported constructs count, marked or\n"
        "not), 2 usage/config/rule error,\n"
        "3 input error (unreadable or unwritable file, or no file to rewrite).\n",
        out);
}

typedef enum { MODE_STDOUT, MODE_IN_PLACE, MODE_OUT, MODE_DIFF } out_mode;

typedef struct rw_flags {
  out_mode mode;
  int n_modes;
  const char *out_dir;
  tt_format format;
  char *cleaned;  /* the folder whose stale temporary files were removed last */
  tt_pj_layout layout;
  bool layout_set;
} rw_flags;

static void say_removed(const char *path, void *ctx) {
  fprintf(stderr, "tiletrans: removed %s, a temporary file left by a killed run\n", path);
}

/* Before writing into the folder of `dest`: remove what a killed run left there. Files
 * come in walk order, so remembering the last folder cleans each about once. */
static void clean_folder_of(rw_flags *f, const char *dest) {
  char *dir = tt_fs_dirname(dest);
  if (f->cleaned && strcmp(f->cleaned, dir) == 0) {
    free(dir);
    return;
  }
  free(f->cleaned);
  f->cleaned = dir;
  tt_fs_remove_stale_temps(dir, say_removed, NULL);
}

/* Replacing a file breaks its hard links: say so (the other names keep the old text). */
static void report_hard_links(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
    fprintf(stderr, "%s: warning: the file has %lu hard links; only this name gets the rewritten text\n", path,
            (unsigned long)st.st_nlink);
}

static int rw_extra(int c, const char *arg, void *vctx) {
  rw_flags *f = vctx;
  switch (c) {
  case 'i': f->mode = MODE_IN_PLACE, f->n_modes++; return 0;
  case 'o': f->mode = MODE_OUT, f->out_dir = arg, f->n_modes++; return 0;
  case 'd': f->mode = MODE_DIFF, f->n_modes++; return 0;
  case 'Y':
    f->layout_set = true;
    if (tt_pj_layout_parse(arg, &f->layout) == 0) return 0;
    fprintf(stderr, "tiletrans: rewrite --layout expects logical or flipped, not `%s`\n", arg);
    return -1;
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

/* Writes each support file that `inc` says the port at `dest` includes, next to it. */
static int write_supports(const tt_port_supports *sup, const tt_port_includes *inc, const char *dest, char **err) {
  char *dir = tt_fs_dirname(dest);
  int rc = 0;
  for (size_t k = 0; k < sup->n && rc == 0; k++) {
    if (!inc->needs[k]) continue;
    char *to = tt_fs_join(dir, sup->items[k].name);
    rc = write_if_changed(to, sup->items[k].text, sup->items[k].len, err);
    free(to);
  }
  free(dir);
  return rc;
}

/* Support files named by `inc` that stdout/--diff output cannot carry: said on stderr. */
static void tell_supports(const tt_port_supports *sup, const tt_port_includes *inc, const char *path) {
  for (size_t k = 0; k < sup->n; k++)
    if (inc->needs[k])
      fprintf(stderr, "%s: note: the port includes \"%s\"; --out or --in-place writes it next to the file (from %s)\n",
              path, sup->items[k].name, sup->items[k].path);
}

static int emit(const tt_cli_opts *o, rw_flags *f, tt_cli_run *run, const tt_port_supports *sup, size_t i) {
  tt_file_result *fr = &run->files[i];
  if (fr->error) return 0;
  const tt_cli_profile *p = &run->profiles[run->file_profile[i]];
  const char *root = o->paths[run->file_root[i]];
  bool renames = f->mode == MODE_OUT && p->sel.target && !strcmp(p->sel.target, "hip");
  tt_port_includes inc;
  tt_port_includes_scan(sup, fr->new_text, fr->new_len, fr->path, root, renames, &inc);
  const char *text = inc.text ? inc.text : fr->new_text;
  size_t len = inc.text ? inc.len : fr->new_len;
  char *err = NULL;
  int rc = 0;
  switch (f->mode) {
  case MODE_STDOUT:
    if (f->format == TT_FMT_TEXT) fwrite(text, 1, len, stdout);
    tell_supports(sup, &inc, fr->path);
    break;
  case MODE_DIFF:
    if (f->format == TT_FMT_TEXT && fr->changed) {
      char *droot, *name = strcmp(fr->path, "<stdin>") ? tt_cli_diff_path(fr->path, &droot) : (droot = NULL, tt_xstrdup("stdin"));
      char *a = tt_xasprintf("a/%s", name), *b = tt_xasprintf("b/%s", name);
      if (droot) fprintf(stderr, "%s: the diff names it `%s`, relative to %s: apply it there\n", fr->path, name, droot);
      tt_diff_unified(stdout, a, b, fr->src->text, fr->src->len, text, len);
      free(a);
      free(b);
      free(name);
      free(droot);
    }
    tell_supports(sup, &inc, fr->path);
    break;
  case MODE_IN_PLACE:
    if (fr->changed) {
      clean_folder_of(f, fr->path);
      report_hard_links(fr->path);
      rc = tt_fs_write_atomic(fr->path, text, len, &err);
    }
    if (rc == 0) rc = write_supports(sup, &inc, fr->path, &err);
    break;
  case MODE_OUT: {
    char *dest = out_path(f->out_dir, root, fr->path, p->sel.target);
    clean_folder_of(f, dest);
    rc = write_if_changed(dest, text, len, &err);
    if (rc == 0) rc = write_supports(sup, &inc, dest, &err);
    free(dest);
    break;
  }
  }
  tt_port_includes_free(&inc);
  if (rc < 0) fr->error = tt_cli_without_path(err, fr->path);
  return rc;
}

int tt_cmd_rewrite(int argc, char **argv) {
  static const struct option longopts[] = {
      {"target", required_argument, 0, 't'}, {"out", required_argument, 0, 'o'},
      {"in-place", no_argument, 0, 'i'},     {"diff", no_argument, 0, 'd'},
      {"format", required_argument, 0, 'f'}, {"rules", required_argument, 0, 'r'},
      {"config", required_argument, 0, 'c'}, {"language", required_argument, 0, 'L'},
      {"jobs", required_argument, 0, 'j'},   {"help", no_argument, 0, 'h'},
      {"select", required_argument, 0, 'S'}, {"ignore", required_argument, 0, 'G'},
      {"color", required_argument, 0, 'K'},  {"quiet", no_argument, 0, 'q'}, {"layout", required_argument, 0, 'Y'},
      TT_CLI_SEMA_LONGOPTS,
      {0, 0, 0, 0}};
  tt_cli_opts o = {.jobs = 1, .rewrite = true};
  rw_flags f = {MODE_STDOUT, 0, NULL, TT_FMT_TEXT, NULL, TT_PJ_LOGICAL, false};
  int p = tt_cli_parse_common(argc, argv, &o, "j:hqI:D:", longopts, rw_extra, &f, help);
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
  if (tt_cli_is_julia_port(&o)) {
    static const tt_pj_out modes[] = {[MODE_STDOUT] = TT_PJ_OUT_STDOUT, [MODE_IN_PLACE] = TT_PJ_OUT_IN_PLACE,
                                      [MODE_OUT] = TT_PJ_OUT_DIR, [MODE_DIFF] = TT_PJ_OUT_DIFF};
    rc = tt_cli_rewrite_julia(&o, modes[f.mode], f.out_dir, f.format == TT_FMT_JSON, f.layout);
    goto out_opts;
  }
  if (f.layout_set) {
    fprintf(stderr, "tiletrans: --layout applies to cuTile Python inputs with --target julia\n");
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
  /* The support files come from the same rules folders as the rulebook. */
  tt_port_supports sup;
  {
    const char *def = tt_cli_default_rules_dir();
    const tt_config *cfg = run.n_profiles ? run.profiles[0].config : NULL;
    size_t n = 0;
    const char **dirs = tt_xcalloc(o.n_rule_dirs + (cfg ? cfg->n_rule_dirs : 0) + 1, sizeof *dirs);
    if (o.n_rule_dirs == 0) dirs[n++] = def;
    for (size_t i = 0; i < o.n_rule_dirs; i++) dirs[n++] = o.rule_dirs[i];
    for (size_t i = 0; cfg && i < cfg->n_rule_dirs; i++) dirs[n++] = cfg->rule_dirs[i];
    tt_port_supports_load(dirs, n, run.n_profiles ? run.profiles[0].sel.target : NULL, &sup);
    free(dirs);
  }
  bool unfixed = false;
  for (size_t i = 0; i < run.n_files; i++) {
    emit(&o, &f, &run, &sup, i);
    tt_file_result *fr = &run.files[i];
    unfixed |= !fr->error && fr->errors_left > 0;
    if (!fr->error && !fr->converged)
      fprintf(stderr, "%s: warning: fixes still changing the file after the round limit; review the result\n",
              fr->path);
  }
  tt_port_supports_free(&sup);
  bool input_error = tt_cli_report_input_errors(&run);
  rc = input_error ? TT_EXIT_INPUT : unfixed ? TT_EXIT_FINDINGS : TT_EXIT_OK;
  tt_report rep = {.files = run.files, .n_files = run.n_files, .book = run.profiles[0].book,
                   .sel = &run.profiles[0].sel, .rewrite = true, .exit_code = rc};
  if (f.format == TT_FMT_JSON) {
    tt_report_json(stdout, &rep);
  } else if (!o.quiet) {
    /* The rewritten text or diff owns stdout in those modes; the report goes beside it. */
    FILE *rep_out = (f.mode == MODE_STDOUT || f.mode == MODE_DIFF) ? stderr : stdout;
    rep.color = tt_cli_color(o.color, rep_out);
    tt_report_text(rep_out, &rep);
  }
out_run:
  free(f.cleaned);
  tt_cli_run_free(&run);
out_opts:
  tt_cli_opts_free(&o);
  return rc;
}
