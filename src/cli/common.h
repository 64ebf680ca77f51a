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
  const char **select;     /* --select ID-or-glob (repeatable, comma-separated) */
  size_t n_select;
  const char **ignore;     /* --ignore ID-or-glob */
  size_t n_ignore;
  int color;               /* --color: -1 auto, 0 never, 1 always */
  bool quiet;              /* --quiet */
  /* The semantic layer: -I, -D, --hip-define (repeatable), --compile-commands, --no-sema */
  const char **sema_includes, **sema_defines, **sema_hip_defines;
  size_t n_sema_includes, n_sema_defines, n_sema_hip_defines;
  size_t sema_caps[3];
  const char *compile_commands;
  bool no_sema;
  bool whole_rulebook;     /* load every rule whole, whatever the inputs' languages (SARIF lists them all) */
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
/* Frees what tt_cli_parse_common allocated in `o` (not the strings: they are argv's). */
void tt_cli_opts_free(tt_cli_opts *o);

/* One rulebook per distinct configuration. */
typedef struct tt_cli_profile {
  tt_config *config;       /* NULL when none applies */
  tt_rulebook *book;
  tt_selection sel;
  tt_override *overrides;  /* owned: the config's, then `off` for rules --select/--ignore drop */
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
  char **early_text;       /* per file: its text when read before processing (to choose the
                              queries to compile), taken by the processing; else NULL */
  size_t *early_len;
} tt_cli_run;

/* Loads configs and rulebooks, collects files and processes them. Returns TT_EXIT_OK;
 * TT_EXIT_USAGE after printing the config or rule error (or an empty rulebook) to
 * stderr; TT_EXIT_INPUT when the paths hold no file to process. */
int tt_cli_execute(const tt_cli_opts *o, tt_cli_run *run);

/* `err` without the "path: " that the file-system layer puts in front: reports name
 * the path once, themselves. Takes and returns `err`. */
char *tt_cli_without_path(char *err, const char *path);

/* The folder holding `.git` at or above folder `start` (a work tree's top level), or
 * NULL. Caller frees. */
char *tt_cli_git_toplevel(const char *start);

/* The name of `path` in a unified diff (after "a/" and "b/"), such that `git apply`
 * and `patch -p1` find it: relative to the current folder, without "./" or "..".
 * A file outside the current folder is named relative to its git top level, else to
 * "/", and *root (malloc'd) says which folder that is; *root is NULL for the current
 * folder. Caller frees the result. */
char *tt_cli_diff_path(const char *path, char **root);

/* Prints each file's input error on stderr, "path: error: message", once. Returns
 * true when there was one. */
bool tt_cli_report_input_errors(const tt_cli_run *run);
void tt_cli_run_free(tt_cli_run *run);

/* Rulebook from --rules folders or the default one. Prints errors; NULL on failure. */
tt_rulebook *tt_cli_load_rules(const char *const *dirs, size_t n, const char *const *extra, size_t n_extra);
/* The same, with no query compiled (tt_rulebook_load_uncompiled): for a run that
 * compiles a language only when it needs it. */
tt_rulebook *tt_cli_load_rules_uncompiled(const char *const *dirs, size_t n);
const char *tt_cli_default_rules_dir(void);

/* Parses the options lint and rewrite share (--target, --rules, --config, --language,
 * -j, --help, --select, --ignore, --color, --quiet as 't', 'r', 'c', 'L', 'j', 'h',
 * 'S', 'I', 'C', 'q' in `longopts`); other options go to `extra`. Long options must be
 * spelled out (no getopt abbreviations). Returns -1 after a usage error (printed), 1
 * after --help, 0 otherwise. */
struct option;
int tt_cli_parse_common(int argc, char **argv, tt_cli_opts *o, const char *short_opts, const struct option *longopts,
                        int (*extra)(int c, const char *arg, void *ctx), void *ctx, void (*helpfn)(FILE *));

/* Rejects a long option of argv that is not spelled exactly as one of `longopts`
 * (getopt_long would take `--tar` for `--target`). Prints a usage error and returns
 * -1; 0 when all are exact. */
int tt_cli_check_longopts(int argc, char **argv, const struct option *longopts);

/* Colour for `mode` (-1 auto: when `out` is a terminal, NO_COLOR is unset or empty and
 * TERM is not dumb; 0 never; 1 always). */
bool tt_cli_color(int mode, FILE *out);

/* A rule as `tiletrans rules --format json` lists it (also `explain --format json`).
 * New reference. */
struct json_t;
struct json_t *tt_cli_rule_json(const tt_rule *r);

/* Parsers for shared flags; print a usage error and return -1 on bad values. */
int tt_cli_parse_jobs(const char *s, int *out);
int tt_cli_parse_target(const char *s);

#endif
