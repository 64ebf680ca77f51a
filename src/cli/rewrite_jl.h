/* rewrite_jl.h — `rewrite --target julia` of cuTile Python files: the CLI side of
 * src/port_jl (finding the API map, walking inputs, writing .jl files, reporting). */
#ifndef TT_CLI_REWRITE_JL_H
#define TT_CLI_REWRITE_JL_H

#include <stdbool.h>

#include "cli/common.h"
#include "port_jl/port_jl.h"

typedef enum { TT_PJ_OUT_STDOUT, TT_PJ_OUT_IN_PLACE, TT_PJ_OUT_DIR, TT_PJ_OUT_DIFF } tt_pj_out;

/* True when rewrite should translate: target julia and every PATH a .py file or a
 * folder holding .py files (which are translated; its .jl files are left alone). */
bool tt_cli_is_julia_port(const tt_cli_opts *o);

/* The API map from the first of `o`'s rules folders that has one (a rulebook root
 * holding julia/data/, or a julia/ folder holding data/), else the default rulebook's.
 * NULL with a message on stderr. */
tt_pj_map *tt_cli_load_pj_map(const char *const *dirs, size_t n);

/* Translates every input; writes per `mode` (in place: x.py -> x.jl beside it; --out:
 * under out_dir). json: the findings as lint's JSON on stdout. Returns an exit code:
 * 0 done, 1 unsupported constructs left (error findings), 2 usage, 3 input error. */
int tt_cli_rewrite_julia(const tt_cli_opts *o, tt_pj_out mode, const char *out_dir, bool json, tt_pj_layout layout);

#endif
