/* tile_jl.h — the Julia front end (tile_jl.c) and the module ids it shares with the
 * cuTile.jl library (tile_lib_jl.c), internal to src/tile. */
#ifndef TT_TILE_JL_H
#define TT_TILE_JL_H

#include "tile/tile_eval.h"

/* Module ids of the cuTile.jl library: names a kernel uses unqualified (Base's sum,
 * zeros, Float32 ...) come from TT_JL_MOD_BASE; f.(x) and ct.f.(x) look f up in
 * TT_JL_MOD_DOT (the elementwise functions). */
enum { TT_JL_MOD_BASE = 100, TT_JL_MOD_DOT = 101 };
/* A bare `:` (Julia's Colon(), as in sum(x; dims=:)) evaluates to this TV_ENUM type. */
enum { TT_JL_ENUM_COLON = 100 };

extern const tt_front tt_front_julia;

#endif
