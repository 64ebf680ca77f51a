/* tiletrans lint — report pitfalls; exit 1 when a finding reaches --fail-on. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "util/fs.h"
#include "util/util.h"

static void help(FILE *out) {
  fputs("usage: tiletrans lint [PATH...] [options]\n"
        "\n"
        "Reports the constructs that change meaning on the target. PATH is a file, a folder\n"
        "(searched recursively for .cu .cuh .hip .cpp .h .hpp .py .jl, skipping .git and build\n"
        "folders) or - for standard input. Default: the current folder.\n"
        "\n"
        "  --target hip|julia|triton   only rules for this target (default: .tiletrans.yaml, else all)\n"
        "  --format text|json|sarif|github\n"
        "  --fail-on error|warning|note|never   exit 1 at or above this severity (default error)\n"
        "  --rules DIR        use the rules in DIR instead of the built-in rulebook (repeatable)\n"
        "  --config FILE      use FILE instead of discovering .tiletrans.yaml\n"
        "  --select ID,...    run only these rules (ids or globs such as 'hip-shfl-*'; repeatable)\n"
        "  --ignore ID,...    do not run these rules (ids or globs; repeatable). A choice that\n"
        "                     drops a rule whose facts a kept rule reads is an error\n"
        "  --language cuda|python|julia   language of every input (needed for -)\n"
        "  -j N               process files with N threads (output order is unaffected)\n"
        "  --color auto|always|never   colour in text output (auto: a terminal, unless NO_COLOR)\n"
        "  -q, --quiet        text: only findings at or above --fail-on, no summary line\n"
        "  --srcroot DIR      sarif: artifact URIs relative to DIR (default: the git top-level\n"
        "                     folder above the current one, else the current folder)\n"
        "  --max-annotations N   github: at most N notes of each kind (error, warning, notice)\n"
        TT_CLI_SEMA_HELP
        "\n"
        "Suppress a finding with a comment on its line, `// tiletrans-ignore: ID[, ID]` (also\n"
        "`/* ... */`, `#`), alone on the line above, or `tiletrans-ignore-next-line: ID`.\n"
        "Suppressions that name no rule or suppress nothing are reported as warnings.\n"
        "Input errors (unreadable files) go to stderr.\n"
        "\n"
        "Exit: 0 clean, 1 findings at or above --fail-on, 2 usage/config/rule error (also an\n"
        "empty rulebook), 3 input error (also: no file to lint).\n",
        out);
}

typedef struct lint_flags {
  tt_format format;
  int fail_on; /* minimum severity that fails; 3 = never */
  const char *srcroot;
  size_t max_annotations;
} lint_flags;

static int lint_extra(int c, const char *arg, void *vctx) {
  lint_flags *f = vctx;
  if (c == 'f') {
    if (tt_format_parse(arg, &f->format) == 0) return 0;
    fprintf(stderr, "tiletrans: unknown format `%s` (expected text, json, sarif or github)\n", arg);
    return -1;
  }
  if (c == 'F') {
    tt_severity s;
    if (!strcmp(arg, "never")) f->fail_on = 3;
    else if (tt_severity_parse(arg, false, &s) == 0) f->fail_on = (int)s;
    else {
      fprintf(stderr, "tiletrans: --fail-on expects error, warning, note or never, not `%s`\n", arg);
      return -1;
    }
    return 0;
  }
  if (c == 'R') {
    if (tt_fs_is_dir(arg)) {
      f->srcroot = arg;
      return 0;
    }
    fprintf(stderr, "tiletrans: --srcroot expects a folder, not `%s`\n", arg);
    return -1;
  }
  if (c == 'M') {
    char *end;
    long v = strtol(arg, &end, 10);
    if (*arg && !*end && v >= 0) {
      f->max_annotations = (size_t)v;
      return 0;
    }
    fprintf(stderr, "tiletrans: --max-annotations expects a number (0: no cap), not `%s`\n", arg);
    return -1;
  }
  return -1;
}

int tt_cmd_lint(int argc, char **argv) {
  static const struct option longopts[] = {
      {"target", required_argument, 0, 't'}, {"format", required_argument, 0, 'f'},
      {"fail-on", required_argument, 0, 'F'}, {"rules", required_argument, 0, 'r'},
      {"config", required_argument, 0, 'c'}, {"language", required_argument, 0, 'L'},
      {"jobs", required_argument, 0, 'j'},    {"help", no_argument, 0, 'h'},
      {"select", required_argument, 0, 'S'},  {"ignore", required_argument, 0, 'G'},
      {"color", required_argument, 0, 'K'},   {"quiet", no_argument, 0, 'q'},
      {"srcroot", required_argument, 0, 'R'}, {"max-annotations", required_argument, 0, 'M'}, TT_CLI_SEMA_LONGOPTS,
      {0, 0, 0, 0}};
  tt_cli_opts o = {.jobs = 1};
  lint_flags f = {TT_FMT_TEXT, TT_SEV_ERROR, NULL, 0};
  int p = tt_cli_parse_common(argc, argv, &o, "j:hqI:D:", longopts, lint_extra, &f, help);
  if (p != 0) {
    tt_cli_opts_free(&o);
    return p > 0 ? TT_EXIT_OK : TT_EXIT_USAGE;
  }
  o.whole_rulebook = f.format == TT_FMT_SARIF; /* its rule table lists every rule */
  tt_cli_run run;
  int rc = tt_cli_execute(&o, &run);
  if (rc == TT_EXIT_OK) {
    bool input_error = tt_cli_report_input_errors(&run), failing = false;
    for (size_t i = 0; i < run.n_files; i++) {
      for (size_t k = 0; k < run.files[i].findings.n; k++)
        failing |= (int)run.files[i].findings.items[k].severity >= f.fail_on;
      failing |= run.files[i].sup_issues.n && (int)TT_SUPPRESS_ISSUE_SEVERITY >= f.fail_on;
    }
    rc = input_error ? TT_EXIT_INPUT : failing ? TT_EXIT_FINDINGS : TT_EXIT_OK;
    char *top = f.format == TT_FMT_SARIF && !f.srcroot ? tt_cli_git_toplevel(".") : NULL;
    tt_report rep = {run.files, run.n_files, run.n_profiles ? run.profiles[0].book : NULL,
                     run.n_profiles ? &run.profiles[0].sel : NULL, false, rc, tt_cli_color(o.color, stdout),
                     o.quiet, f.fail_on, f.srcroot ? f.srcroot : top, f.max_annotations};
    tt_report_write(stdout, f.format, &rep);
    free(top);
  }
  tt_cli_run_free(&run);
  tt_cli_opts_free(&o);
  return rc;
}
