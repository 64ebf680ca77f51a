/* config.h — `.tiletrans.yaml`, the per-project settings, discovered upward from each
 * input path.
 *
 *   target: hip                 # default --target
 *   rules: [tools/rules]        # extra rule folders, relative to this file
 *   include: ["src/"]           # globs relative to this file; default: everything
 *   exclude: ["third_party/"]
 *   hip_defines: [GGML_USE_HIP] # the semantic layer: macros of the project's HIP build,
 *   include_dirs: [include]     #   include folders (relative to this file), and defines
 *   defines: ["NDEBUG"]         #   for both targets (beside -I/-D/--compile-commands)
 *   severity:                   # per-rule overrides: error | warning | note | off
 *     hip-api-runtime: note
 *   hip_defines: [MY_USE_HIP]   # macros the HIP build defines: branches under them are
 *                               # live for HIP, their #else branches dead
 */
#ifndef TT_CONFIG_H
#define TT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/rulebook.h"

typedef struct tt_config {
  char *path;             /* the file */
  char *dir;              /* its folder, resolved (realpath): globs and rule folders are relative to it */
  char *target;           /* NULL when not set */
  char **rule_dirs;       /* resolved against dir */
  size_t n_rule_dirs;
  char **include, **exclude;
  size_t n_include, n_exclude;
  tt_override *overrides;
  size_t n_overrides;
  /* The semantic layer (src/sema), added to the command line's: */
  char **hip_defines;     /* macros the project's HIP build defines (GGML_USE_HIP) */
  char **sema_includes;   /* include_dirs, resolved against dir */
  char **sema_defines;    /* defines for both targets */
  size_t n_hip_defines, n_sema_includes, n_sema_defines;
} tt_config;

#define TT_CONFIG_NAME ".tiletrans.yaml"

/* The nearest .tiletrans.yaml in the folder of `path` (or `path` itself when it is a
 * folder) or any folder above it; NULL when none. Caller frees. */
char *tt_config_find(const char *path);

/* Loads and validates a config file. Returns NULL with *err (malloc'd, naming file,
 * line, column and key) on error. Free with tt_config_free. */
tt_config *tt_config_load(const char *path, char **err);
void tt_config_free(tt_config *c);

/* True when `file` passes the include/exclude globs. */
bool tt_config_wants(const tt_config *c, const char *file);
/* True when `file` matches an exclude glob (include globs are not consulted). */
bool tt_config_excludes(const tt_config *c, const char *file);

/* Glob matching used for include/exclude: `*` and `?` within a path component, `**`
 * across components, a trailing `/` matches a folder and everything in it, and a
 * pattern without `/` matches any single component. `rel` is relative to the config. */
bool tt_glob_match(const char *pattern, const char *rel);

#endif
