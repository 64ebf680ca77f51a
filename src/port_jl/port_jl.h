/* port_jl.h — cuTile Python -> cuTile.jl, a tree-to-tree translation of whole files.
 *
 * The translator walks the tree-sitter-python parse of a cuTile Python file and writes
 * cuTile.jl: kernels (`@ct.kernel def`), their helper functions, host functions and
 * their `ct.launch` calls. What each cuTile Python name becomes is data (the API map,
 * rules/julia/data/cutile-python.yaml, tt_pj_map); the code here knows forms (how a
 * call's arguments move, how a layout remaps a shape), not names.
 *
 * A construct with no mapping is a finding (category `unsupported`) and its Python
 * text stays in the output as comment lines; nothing is dropped. */
#ifndef TT_PORT_JL_H
#define TT_PORT_JL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parser/source.h"

typedef enum tt_pj_layout {
  TT_PJ_LOGICAL = 0, /* Julia arrays keep Python's shapes (the data is transposed in memory) */
  TT_PJ_FLIPPED,     /* Julia arrays keep Python's bytes: every shape reversed */
} tt_pj_layout;

/* "logical" / "flipped" -> layout; -1 when neither. */
int tt_pj_layout_parse(const char *s, tt_pj_layout *out);
const char *tt_pj_layout_name(tt_pj_layout l);

/* The API map (a libfyaml document). Opaque. */
typedef struct tt_pj_map tt_pj_map;

/* Loads the map from `path`. NULL with *err (malloc'd, "path:line:col: ...") on a
 * syntax error or a missing top-level key. Free with tt_pj_map_free. */
tt_pj_map *tt_pj_map_load(const char *path, char **err);
void tt_pj_map_free(tt_pj_map *m);
/* The map as JSON text (malloc'd), for `tiletrans rules --format json`. */
char *tt_pj_map_json(const tt_pj_map *m);
/* The map's file name inside a rules folder: <dir>/julia/data/cutile-python.yaml. */
#define TT_PJ_MAP_RELPATH "julia/data/cutile-python.yaml"

typedef struct tt_pj_finding {
  uint32_t line, column, end_line, end_column; /* 1-based, of the Python source */
  uint32_t start_byte, end_byte;
  const char *severity;                         /* "error" | "warning" | "note" (static) */
  char *message;                                /* owned */
} tt_pj_finding;

typedef struct tt_pj_result {
  char *text; /* the Julia file (owned), starting with its `# layout:` line */
  size_t len;
  tt_pj_finding *findings; /* owned; in source order */
  size_t n_findings;
} tt_pj_result;

/* Translates `src` (a cuTile Python source). Returns 0 with *out filled, or -1 with
 * *err (malloc'd) when the source does not parse (the file:line:col of the first
 * error): a file that failed to parse is not translated at all. */
int tt_pj_translate(const tt_pj_map *m, const tt_source *src, tt_pj_layout layout, tt_pj_result *out, char **err);
void tt_pj_result_free(tt_pj_result *r);
/* Findings at error or warning severity. */
size_t tt_pj_result_problems(const tt_pj_result *r);
/* The first error finding of `res` (the translation of `src`) in code that running
 * `kernel` reaches: its definition, the top-level definitions it names (transitively),
 * and module-level statements other than definitions and `if` blocks (a script's
 * main). Errors in host code beside the kernel do not count. Every error counts when
 * `src` has no top-level definition named `kernel`. NULL when none; points into res. */
const tt_pj_finding *tt_pj_first_error_for(const tt_source *src, const tt_pj_result *res, const char *kernel);

#endif
