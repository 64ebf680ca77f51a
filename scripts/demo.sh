#!/usr/bin/env bash
# The main job on the bundled corpus (README.md): lint every CUDA kernel for the HIP
# target, then translate the corpus to HIP under build/corpus-hip/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target tiletrans
echo "== tiletrans lint corpus/cuda --target hip"
build/tiletrans lint corpus/cuda --target hip --fail-on never -j "$(nproc)"
echo "== tiletrans rewrite corpus/cuda --target hip --out build/corpus-hip"
build/tiletrans rewrite corpus/cuda --target hip --out build/corpus-hip -j "$(nproc)" >/dev/null || true
find build/corpus-hip -name '*.hip' | sort | sed 's/^/  wrote /'
