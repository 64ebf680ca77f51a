/* tile_lib.h — the dialect libraries the evaluator core can run, internal to src/tile. */
#ifndef TT_TILE_LIB_H
#define TT_TILE_LIB_H

#include "tile/tile_eval.h"

extern const tt_lib tt_lib_cutile_python; /* tile_lib_ct.c */
extern const tt_lib tt_lib_triton;        /* tile_lib_tl.c */
extern const tt_lib tt_lib_cutile_julia;  /* tile_lib_jl.c, read by the Julia front end tile_jl.c */

#endif
