/* tiletrans — port GPU kernels between programming models and prove each port.
 * main only dispatches: each subcommand lives in its own file. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/common.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"lint", tt_cmd_lint, "report pitfalls in CUDA, cuTile Python and Julia sources"},
    {"rewrite", tt_cmd_rewrite, "apply the rulebook's fixes (translate) to source trees"},
    {"check", tt_cmd_check, "build and run reference and translation, compare their numbers"},
    {"rules", tt_cmd_rules, "list the rulebook"},
    {"explain", tt_cmd_explain, "explain one rule in full"},
    {"test-rules", tt_cmd_test_rules, "run every rule's own examples"},
};

static void usage(FILE *out) {
  fprintf(out, "usage: tiletrans <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].help);
  fprintf(out, "\n`tiletrans <command> --help` describes a command's options.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return TT_EXIT_USAGE;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return TT_EXIT_OK;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("tiletrans %s\n", TT_VERSION);
    return TT_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "tiletrans: unknown command `%s`\n", argv[1]);
  usage(stderr);
  return TT_EXIT_USAGE;
}
