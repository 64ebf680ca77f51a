#!/usr/bin/env bash
# Fixture for the install tests (tests/CMakeLists.txt, install.*): builds tiletrans from
# a copy of the source tree the way a user installs it, then deletes that copy and its
# build tree, so the tests that follow run an install that nothing else backs.
#   1. copies the source (git's tracked and untracked-not-ignored files) to WORK/src and
#      one corpus kernel to WORK/kernel;
#   2. configures WORK/build with tests off (a test-free build), builds, and
#      `cmake --install`s it into WORK/stage; `cpack` makes the .deb and .tar.gz in WORK/pkg;
#   3. moves WORK/stage to WORK/prefix (the install is relocated) and deletes WORK/src
#      and WORK/build.
# Usage: build-install.sh SOURCE_DIR NPM_TARBALL_DIR WORK      Env: JOBS (default 2)
set -euo pipefail
src=$(realpath "$1"); npm=$(realpath "$2"); work=$3
rm -rf "$work"
mkdir -p "$work/src" "$work/build/_deps/npm" "$work/pkg" "$work/kernel"
work=$(realpath "$work")
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$src" ls-files -co --exclude-standard -z |
    tar -C "$src" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$work/src" -xf -
else
  tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf -
fi
cp "$npm"/*.tgz "$work/build/_deps/npm/"
cp -r "$src/corpus/cuda/vector_add" "$work/kernel/"

cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DTT_BUILD_TESTS=OFF >"$work/configure.log"
cmake --build "$work/build" -j"${JOBS:-2}" >"$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
cmake --install "$work/build" --prefix "$work/stage" >"$work/install.log"
(cd "$work/build" && cpack -B "$work/pkg" >"$work/cpack.log") || { tail -20 "$work/cpack.log"; exit 1; }
rm -rf "$work/pkg/_CPack_Packages"
mv "$work/stage" "$work/prefix"
rm -rf "$work/src" "$work/build"
echo "installed into $work/prefix (moved from $work/stage); source and build trees deleted"
ls "$work/pkg"
