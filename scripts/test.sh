#!/usr/bin/env bash
# The test command (README.md; CI runs it through .ci/run): installs what is missing,
# builds, runs every test with ctest, then builds the suite again with AddressSanitizer
# and UndefinedBehaviorSanitizer and runs it once more (without the tests that only
# exercise other programs: hipcc's compiles, the install tests), then builds the
# libFuzzer target with clang and runs a short campaign. Prints how long each
# phase and the whole run took; on CI's 2-core machine the whole run should stay under
# 20 minutes (tests/CMakeLists.txt gives each test a timeout 3x what it took on a
# loaded 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
phase_start=$SECONDS
phase() { echo "test.sh: $1 took $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }
trap 'echo "test.sh: total $((SECONDS - start)) s ($(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s)"' EXIT

TT_WITH_HIP=1 TT_WITH_TORCH=1 scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
phase "build"
(cd build && ctest --output-on-failure -j"$jobs")
phase "tests"

if [ "${TT_SKIP_SANITIZERS:-0}" != 1 ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTT_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  phase "sanitizer build"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j"$jobs")
  phase "sanitizer tests"
fi

# libFuzzer (fuzz/): the lint-and-rewrite target built with clang, ASan and UBSan, and a
# 20-second campaign from the seeds and fuzz/regressions (ctest fuzz.rules-short). Only
# the libraries the target links are built.
if [ "${TT_SKIP_FUZZ:-0}" != 1 ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DTT_FUZZ=ON -DTT_SANITIZE=ON \
    -DTT_BUILD_TESTS=OFF -DTT_BUILD_CHECKER=OFF >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz_rules
  phase "fuzz build"
  (cd build-fuzz && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -R '^fuzz\.rules-short$')
  phase "fuzz campaign"
fi
