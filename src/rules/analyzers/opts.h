/* opts.h — reading analyzer `options:` mappings, with errors that name the key. */
#ifndef TT_ANALYZER_OPTS_H
#define TT_ANALYZER_OPTS_H

#include <libfyaml.h>
#include <stdbool.h>

#include "util/strmap.h"

/* Checks that every key of `opts` is in `allowed` (NULL-terminated). */
int tt_opts_check_keys(struct fy_node *opts, const char *const *allowed, char **err, struct fy_node **at);
/* Reads `key` (a mapping of strings to strings) into `map`. Absent: ok, empty map. */
int tt_opts_map(struct fy_node *opts, const char *key, tt_strmap *map, char **err, struct fy_node **at);
/* Reads `key` (a sequence of strings) into `map` with each value "". */
int tt_opts_set(struct fy_node *opts, const char *key, tt_strmap *set, char **err, struct fy_node **at);
/* Reads `key` (true or false) into *out; absent: *out = false. */
int tt_opts_bool(struct fy_node *opts, const char *key, bool *out, char **err, struct fy_node **at);
/* Reads `key` (a string) into *out (malloc'd); absent: *out = NULL. */
int tt_opts_string(struct fy_node *opts, const char *key, char **out, char **err, struct fy_node **at);

#endif
