/* commands.h — one entry point per subcommand; argv[0] is the subcommand's name. */
#ifndef TT_CLI_COMMANDS_H
#define TT_CLI_COMMANDS_H

int tt_cmd_lint(int argc, char **argv);
int tt_cmd_rewrite(int argc, char **argv);
int tt_cmd_check(int argc, char **argv);
int tt_cmd_rules(int argc, char **argv);
int tt_cmd_explain(int argc, char **argv);
int tt_cmd_test_rules(int argc, char **argv);

#endif
