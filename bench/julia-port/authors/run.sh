#!/usr/bin/env bash
# Real-code acceptance of `rewrite --target julia` (issue 14): the cuTile Python kernels
# of NVIDIA/TileGym (src/tilegym/ops/cutile) and NVIDIA/cutile-python (samples) are
# translated to cuTile.jl in both layouts and each is checked against its Python source
# in the tile interpreter; where the authors wrote a cuTile.jl version (TileGym julia/,
# JuliaGPU/cuTile.jl examples/), the Python, tiletrans's translation and the authors'
# Julia are each compared with one PyTorch reference on the same sizes and seed.
# The specs (specs/*.yaml) are ours; the kernels are read from the checkouts, nothing
# is fetched and nothing from them is kept.
# Usage: run.sh PATH/TO/tiletrans PATH/TO/REALCODE (holding TileGym/, cutile-python/, cuTile.jl/)
set -u
[ $# = 2 ] || { echo "usage: run.sh TILETRANS REALCODE" >&2; exit 2; }
TT=$(realpath "$1")
REAL=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
exec python3 "$HERE/run.py" "$TT" "$REAL" "$HERE"
