#!/usr/bin/env bash
# Builds the fuzz seed corpus: every source file of corpus/ and tests/cli/data, each
# prefixed with the byte that selects its language in fuzz_rules.c (0: CUDA, 6: Python,
# 7: Julia). Usage: fuzz/make-seeds.sh SOURCE_DIR OUT_DIR
set -euo pipefail
src=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
n=0
while IFS= read -r -d '' f; do
  case "$f" in
    *.py) b='\006' ;;
    *.jl) b='\007' ;;
    *) b='\000' ;;
  esac
  n=$((n + 1))
  { printf "$b"; cat "$f"; } >"$out/seed-$n"
done < <(find "$src/corpus" "$src/tests/cli/data" -type f \
           \( -name '*.cu' -o -name '*.cuh' -o -name '*.hip' -o -name '*.h' -o -name '*.cpp' \
              -o -name '*.py' -o -name '*.jl' \) -size -256k -print0 | sort -z)
echo "make-seeds: $n seeds in $out"
