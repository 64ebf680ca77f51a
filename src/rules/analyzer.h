/* analyzer.h — built-in C analyzers, for rules a tree-sitter pattern cannot express.
 *
 * An analyzer is generic machinery configured by the rule file's `options:` (a rename
 * table, a set of types); it never names a rule. It reports ranges with named bindings
 * that the rule's message and fix templates use. */
#ifndef TT_ANALYZER_H
#define TT_ANALYZER_H

#include <libfyaml.h>
#include <stdbool.h>

#include "parser/tree.h"
#include "rules/filectx.h"
#include "rules/finding.h"
#include "rules/template.h"

/* One report from an analyzer: the range, its bindings, and (optionally) edits the
 * analyzer computed itself (used when the rule's fix lists no edits). */
typedef struct tt_analyzer_hit {
  uint32_t start, end;
  const tt_binding *bindings;
  size_t n_bindings;
  const tt_edit *edits; /* borrowed; copied by the engine */
  size_t n_edits;
  bool fixable;         /* false: report without a fix even if the rule has one */
} tt_analyzer_hit;

typedef void (*tt_analyzer_emit)(void *ud, const tt_analyzer_hit *hit);

typedef struct tt_analyzer {
  const char *name;
  const char *const *bindings; /* NULL-terminated: names templates may use */
  /* Validates and compiles `options` (may be NULL when the key is absent). On error
   * returns NULL and sets *err (malloc'd) to a message naming the offending key and
   * *err_node to the node at fault (for its line and column). */
  void *(*compile_options)(struct fy_node *options, char **err, struct fy_node **err_node);
  void (*free_options)(void *opts);
  /* Reports hits for the file of `ctx`; a classifier also records facts in `ctx`. */
  void (*run)(const void *opts, tt_filectx *ctx, tt_analyzer_emit emit, void *ud);
  /* Classifiers run before every other rule so that `#tt-fact?` sees their facts. A
   * classifier names the fact it records in its `fact:` option: the rule loader reads
   * it there to check the rules that depend on it (rules/ruleset.h). */
  bool classifier;
  /* Optional: calls put(ud, name, value) for each macro the analyzer's options assume
   * the target's build defines (a check builds the port with them; NULL: none). */
  void (*target_defines)(const void *opts, void (*put)(void *ud, const char *name, const char *value), void *ud);
} tt_analyzer;

/* The analyzer named `name`, or NULL. The table is static and immutable. */
const tt_analyzer *tt_analyzer_find(const char *name);
/* Comma-separated list of analyzer names, for error messages (static string). */
const char *tt_analyzer_names(void);

#endif
