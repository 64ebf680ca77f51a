#!/usr/bin/env bash
# The cuTile.jl examples themselves (JuliaGPU/cuTile.jl examples/*.jl) through the tile
# interpreter's Julia dialect, each kernel against a PyTorch reference on the bytes a
# Julia caller would hand it (`# layout: flipped`: a column-major Julia array of the
# reversed shape over the spec's row-major bytes). The examples are read from a checkout
# and copied, with the layout line put in front, into a temporary folder; nothing is
# fetched and nothing from the checkout is kept.
# Usage: run.sh PATH/TO/tiletrans PATH/TO/cuTile.jl-checkout
set -u
TT=$(realpath "$1")
SRC=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-jlreal.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for f in vadd matmul transpose batchmatmul softmax layernorm; do
  [ -f "$SRC/examples/$f.jl" ] || { echo "run.sh: $SRC/examples/$f.jl is missing" >&2; exit 2; }
  { echo "# layout: flipped"; cat "$SRC/examples/$f.jl"; } >"$tmp/$f.jl"
done
for y in "$HERE"/*.yaml; do sed "s|CHECKOUT/|$tmp/|" "$y" >"$tmp/$(basename "$y")"; done
echo "cuTile.jl checkout: $SRC ($(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
NO_COLOR=1 "$TT" check "$tmp"/*.yaml -j 2 </dev/null
