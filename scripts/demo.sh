#!/usr/bin/env bash
# The main job on the bundled corpus (README.md): lint every CUDA kernel for the HIP
# target, translate the corpus to HIP under build/corpus-hip/, then prove each
# translation on the SIMT CPU executor (CUDA at warp 32 against HIP at warp 64); then
# translate the cuTile Python corpus to cuTile.jl in both layouts under
# build/corpus-julia-{logical,flipped}/ and prove it with the tile interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target tiletrans tt_sim_rt
echo "== tiletrans lint corpus/cuda --target hip"
build/tiletrans lint corpus/cuda --target hip --fail-on never -j "$(nproc)"
echo "== tiletrans rewrite corpus/cuda --target hip --out build/corpus-hip"
build/tiletrans rewrite corpus/cuda --target hip --out build/corpus-hip -j "$(nproc)" >/dev/null || [ $? = 1 ]  # 1: the unsupported kernels need a person
find build/corpus-hip -name '*.hip' | sort | sed 's/^/  wrote /'
echo "== tiletrans check corpus/cuda (reference: CUDA, warp 32; candidate: tiletrans's HIP, warp 64)"
build/tiletrans check corpus/cuda -j "$(nproc)"
for layout in logical flipped; do
  echo "== tiletrans rewrite corpus/cutile --target julia --layout $layout --out build/corpus-julia-$layout"
  build/tiletrans rewrite corpus/cutile --target julia --layout "$layout" --out "build/corpus-julia-$layout" >/dev/null || [ $? = 1 ]  # 1: host-side Triton files have unmapped constructs
done
echo "== tiletrans check: each cuTile Python kernel against its cuTile.jl translation, both layouts"
tests/julia/prove.sh build/tiletrans .
