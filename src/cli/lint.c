/* tiletrans lint — report pitfalls; exit 1 when a finding reaches --fail-on. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"
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
        "  --language cuda|python|julia   language of every input (needed for -)\n"
        "  -j N               process files with N threads (output order is unaffected)\n"
        TT_CLI_SEMA_HELP
        "\n"
        "Exit: 0 clean, 1 findings at or above --fail-on, 2 usage/config/rule error, 3 input error.\n",
        out);
}

typedef struct lint_flags {
  tt_format format;
  int fail_on; /* minimum severity that fails; 3 = never */
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
  return -1;
}

int tt_cmd_lint(int argc, char **argv) {
  static const struct option longopts[] = {
      {"target", required_argument, 0, 't'}, {"format", required_argument, 0, 'f'},
      {"fail-on", required_argument, 0, 'F'}, {"rules", required_argument, 0, 'r'},
      {"config", required_argument, 0, 'c'}, {"language", required_argument, 0, 'L'},
      {"jobs", required_argument, 0, 'j'},    {"help", no_argument, 0, 'h'}, TT_CLI_SEMA_LONGOPTS,
      {0, 0, 0, 0}};
  tt_cli_opts o = {.jobs = 1};
  lint_flags f = {TT_FMT_TEXT, TT_SEV_ERROR};
  int p = tt_cli_parse_common(argc, argv, &o, "j:hI:D:", longopts, lint_extra, &f, help);
  if (p != 0) {
    tt_cli_opts_free(&o);
    return p > 0 ? TT_EXIT_OK : TT_EXIT_USAGE;
  }
  tt_cli_run run;
  int rc = tt_cli_execute(&o, &run);
  if (rc == TT_EXIT_OK) {
    bool input_error = false, failing = false;
    for (size_t i = 0; i < run.n_files; i++) {
      input_error |= run.files[i].error != NULL;
      for (size_t k = 0; k < run.files[i].findings.n; k++)
        failing |= (int)run.files[i].findings.items[k].severity >= f.fail_on;
    }
    rc = input_error ? TT_EXIT_INPUT : failing ? TT_EXIT_FINDINGS : TT_EXIT_OK;
    tt_report rep = {run.files, run.n_files, run.n_profiles ? run.profiles[0].book : NULL,
                     run.n_profiles ? &run.profiles[0].sel : NULL, false, rc, tt_cli_color()};
    tt_report_write(stdout, f.format, &rep);
  }
  tt_cli_run_free(&run);
  tt_cli_opts_free(&o);
  return rc;
}
