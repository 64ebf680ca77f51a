/* check.h — `tiletrans check SPEC... [options]` (owned by the checker).
 *
 * Dispatched by main.c with argv[0] = "check". Returns the exit code: 0 every
 * kernel PASS, 1 any other verdict, 2 usage or spec error, 3 unreadable input. */
#ifndef TT_CLI_CHECK_H
#define TT_CLI_CHECK_H

int tt_cmd_check(int argc, char **argv);

#endif
