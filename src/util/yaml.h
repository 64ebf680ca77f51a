/* yaml.h — small conveniences over libfyaml for reading configuration-like documents
 * (rule files, .tiletrans.yaml) and reporting errors with file, line and column. */
#ifndef TT_YAML_H
#define TT_YAML_H

#include <libfyaml.h>
#include <stdbool.h>

/* Parses `path` (or `text` when not NULL, with `path` used in messages) into a document
 * (caller destroys with fy_document_destroy). On a syntax error returns NULL with *err
 * set (malloc'd) to "path:line:col: message". */
struct fy_document *tt_yaml_load(const char *path, const char *text, char **err);

/* Same for `len` bytes of `text`. Besides syntax errors, refuses with "path:line:col"
 * what the parser would pass over silently: a NUL byte, bytes that are not UTF-8 text
 * (a binary file), and a second document. An unreadable file (tt_yaml_load) is an
 * error too: "path: cannot open: …". */
struct fy_document *tt_yaml_load_text(const char *path, const char *text, size_t len, char **err);

/* The values of top-level scalar keys `keys[0..n)` of the one-mapping document in
 * `len` bytes of `text`, read as a stream that stops as soon as every key has been
 * seen: the head of a large file costs what its first lines cost. Sets values[i]
 * (malloc'd, caller frees) and returns 0 when each key is there with a plain scalar
 * value (no tag, anchor or alias); otherwise -1 with every values[i] NULL, and the
 * caller loads the whole file to say what is wrong. Checks nothing past the last key
 * it needs. */
int tt_yaml_head(const char *text, size_t len, const char *const *keys, size_t n, char **values);

/* 1-based line and column of a node: of its first token for scalars, of its first key
 * or item for collections (libfyaml keeps marks on tokens only). 0 when unknown. */
void tt_yaml_pos(struct fy_node *n, int *line, int *column);

/* "path:line:col: " + formatted message, for the node (malloc'd). */
char *tt_yaml_error(const char *path, struct fy_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The scalar's text as a new malloc'd string, or NULL when the node is not a scalar. */
char *tt_yaml_strdup(struct fy_node *n);
/* A scalar whose text is `true` or `false` (plain or quoted): 0 with *out set, else -1. */
int tt_yaml_bool(struct fy_node *n, bool *out);
/* "mapping", "sequence" or "scalar". */
const char *tt_yaml_kind(struct fy_node *n);
/* True for a block literal/folded scalar (its content starts on the next line). */
bool tt_yaml_is_block_scalar(struct fy_node *n);

#endif
