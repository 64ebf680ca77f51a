/* port_tree.h — what a tree port needs beyond the rewrite of each file: the support
 * headers that rewritten files include (shipped in the rulebook's `support/` folders and
 * written next to the port), and `#include "x.cu"` lines that must follow the files that
 * `rewrite --out` renames (`x.cu` is written as `x.hip` for --target hip). */
#ifndef TT_PORT_TREE_H
#define TT_PORT_TREE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tt_port_support {
  char *name; /* file name, as the port's `#include "name"` spells it */
  char *path; /* where it was read */
  char *text;
  size_t len;
} tt_port_support;

/* The support files of a rulebook: every regular file in `D/support/` and
 * `D/<target>/support/` for each rules folder D, in that order; the first of a name
 * wins. Owns everything; free with tt_port_supports_free. */
typedef struct tt_port_supports {
  tt_port_support *items;
  size_t n;
} tt_port_supports;

void tt_port_supports_load(const char *const *rule_dirs, size_t n_dirs, const char *target, tt_port_supports *out);
void tt_port_supports_free(tt_port_supports *s);

/* What one rewritten file's includes ask of the tree port. */
typedef struct tt_port_includes {
  char *text;       /* the text with followed includes (malloc'd), or NULL when unchanged */
  size_t len;
  bool *needs;      /* per support file: included by the text (malloc'd, s->n entries) */
  size_t n_followed; /* includes renamed to follow a renamed file */
} tt_port_includes;

/* Reads the `#include "..."` lines of `text` (the rewritten text of source `src_path`,
 * found under PATH argument `root`), with the one C++ grammar. When `follow_cu` is set, a
 * quoted include that names an existing `.cu` file under `root` (relative to the
 * including file, or to `root`) is renamed to `.hip`, as --out writes that file.
 * Parses only when the text can contain such an include. Free with tt_port_includes_free. */
void tt_port_includes_scan(const tt_port_supports *s, const char *text, size_t len, const char *src_path,
                           const char *root, bool follow_cu, tt_port_includes *out);
void tt_port_includes_free(tt_port_includes *r);

#endif
