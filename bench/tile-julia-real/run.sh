#!/usr/bin/env bash
# Real cuTile.jl kernels through the tile interpreter's Julia dialect, each against a
# PyTorch reference: cuTile.jl's own examples/ (JuliaGPU/cuTile.jl) and TileGym's
# julia/kernels/ (NVIDIA/TileGym). The files are read from the checkouts and copied,
# with a layout line put in front, into a temporary folder: `flipped` for cuTile.jl's
# examples (their arrays are column-major Julia arrays of the reversed shape), `logical`
# for TileGym's (rows first, the PyTorch shapes). Nothing is fetched and nothing from
# the checkouts is kept.
# Usage: run.sh PATH/TO/tiletrans PATH/TO/REALCODE (a folder holding cuTile.jl/ and TileGym/)
set -u
TT=$(realpath "$1")
REAL=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-jlreal.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
copy() { # checkout-relative file, layout, name in $tmp
  [ -f "$REAL/$1" ] || { echo "run.sh: $REAL/$1 is missing" >&2; exit 2; }
  { echo "# layout: $2"; cat "$REAL/$1"; } >"$tmp/$3.jl"
}
for f in vadd matmul transpose batchmatmul softmax layernorm; do copy "cuTile.jl/examples/$f.jl" flipped "cutilejl-$f"; done
for f in add matmul softmax; do copy "TileGym/julia/kernels/$f.jl" logical "tilegym-$f"; done
for y in "$HERE"/*.yaml; do sed "s|CHECKOUT/|$tmp/|" "$y" >"$tmp/$(basename "$y")"; done
for r in cuTile.jl TileGym; do echo "$r: $(git -C "$REAL/$r" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')"; done
NO_COLOR=1 "$TT" check "$tmp"/*.yaml -j 2 </dev/null
