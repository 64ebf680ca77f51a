/* common.h — what lint and rewrite share: options, configs, rulebooks, the file list,
 * and running the engine over files in parallel with a deterministic result order. */
#ifndef TT_CLI_COMMON_H
#define TT_CLI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "parser/lang.h"
#include "report/report.h"
#include "rules/rulebook.h"

/* Exit codes (DESIGN.md). */
enum { TT_EXIT_OK = 0, TT_EXIT_FINDINGS = 1, TT_EXIT_USAGE = 2, TT_EXIT_INPUT = 3 };

typedef struct tt_cli_opts {
  char **paths;            /* PATH arguments; "." when none */
  size_t n_paths;
  const char *target;      /* --target, or NULL */
  tt_lang language;        /* --language, or TT_LANG_NONE */
  const char **rule_dirs;  /* --rules (repeatable); default rulebook when none */
  size_t n_rule_dirs;
  const char *config;      /* --config, or NULL to discover */
  int jobs;                /* -j */
  bool rewrite;            /* run fixes to a fixpoint instead of only matching */
  /* The semantic layer: -I, -D, --hip-define (repeatable), --compile-commands, --no-sema */
  const char **sema_includes, **sema_defines, **sema_hip_defines;
  size_t n_sema_includes, n_sema_defines, n_sema_hip_defines;
  size_t sema_caps[3];
  const char *compile_commands;
  bool no_sema;
} tt_cli_opts;

/* The long options of the semantic layer, for lint's and rewrite's tables (short forms
 * -I and -D go in short_opts as "I:D:"). */
#define TT_CLI_SEMA_LONGOPTS                                                                               \
  {"include-dir", required_argument, 0, 'I'}, {"define", required_argument, 0, 'D'},                       \
      {"hip-define", required_argument, 0, 'H'}, {"compile-commands", required_argument, 0, 'C'},          \
      {"no-sema", no_argument, 0, 'N'}
#define TT_CLI_SEMA_HELP                                                                                   \
  "  -I DIR, -D NAME[=V]  include folder / macro for the semantic layer (libclang; repeatable)\n"          \
  "  --compile-commands FILE   compile_commands.json (default: found upward from each file)\n"          \
  "  --hip-define NAME[=V]     a macro the HIP build defines (e.g. GGML_USE_HIP; repeatable)\n"         \
  "  --no-sema          do not parse with libclang; findings that need it are marked unconfirmed\n"
/* Frees what tt_cli_parse_common allocated in `o`. */
void tt_cli_opts_free(tt_cli_opts *o);

/* One rulebook per distinct configuration. */
typedef struct tt_cli_profile {
  tt_config *config;       /* NULL when none applies */
  tt_rulebook *book;
  tt_selection sel;
  struct tt_sema *sema;    /* owned when the config adds semantic options, else NULL (sel.sema is the run's) */
} tt_cli_profile;

typedef struct tt_cli_run {
  tt_file_result *files;   /* in walk order */
  size_t n_files;
  size_t *file_root;       /* per file: index of the PATH argument it came from */
  size_t *file_profile;    /* per file: index into profiles */
  tt_cli_profile *profiles;
  size_t n_profiles;
  struct tt_sema *sema;    /* the run's semantic layer, shared by every profile */
} tt_cli_run;

/* Loads configs and rulebooks, collects files and processes them. Returns TT_EXIT_OK,
 * or TT_EXIT_USAGE after printing the config or rule error to stderr. */
int tt_cli_execute(const tt_cli_opts *o, tt_cli_run *run);
void tt_cli_run_free(tt_cli_run *run);

/* Rulebook from --rules folders or the default one. Prints errors; NULL on failure. */
tt_rulebook *tt_cli_load_rules(const char *const *dirs, size_t n, const char *const *extra, size_t n_extra);
const char *tt_cli_default_rules_dir(void);

/* Parses the options lint and rewrite share (--target, --rules, --config, --language,
 * -j, --help as 't', 'r', 'c', 'L', 'j', 'h' in `longopts`); other options go to
 * `extra`. Returns -1 after a usage error (printed), 1 after --help, 0 otherwise. */
struct option;
int tt_cli_parse_common(int argc, char **argv, tt_cli_opts *o, const char *short_opts, const struct option *longopts,
                        int (*extra)(int c, const char *arg, void *ctx), void *ctx, void (*helpfn)(FILE *));

/* Colour when stdout is a terminal and NO_COLOR is unset or empty. */
bool tt_cli_color(void);

/* Parsers for shared flags; print a usage error and return -1 on bad values. */
int tt_cli_parse_jobs(const char *s, int *out);
int tt_cli_parse_target(const char *s);

#endif
