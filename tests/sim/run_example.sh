#!/bin/bash
# Builds and runs src/sim/example exactly as a checker would: prepare the
# kernel source, compile the harness with the system C++ compiler against
# libtt_sim_rt.a, run it.  Args: PREP_TOOL INCLUDE_DIR RT_LIB EXAMPLE_DIR WORK_DIR
set -euo pipefail
prep=$1 inc=$2 lib=$3 ex=$4 work=$5
mkdir -p "$work"
"$prep" "$ex/block_sum.hip" "$work/block_sum.prep.hip"
c++ -O1 -g -std=gnu++20 -I"$inc" -I"$work" -DKERNEL='"block_sum.prep.hip"' \
    "$ex/harness.cpp" "$lib" -lpthread -o "$work/harness"
out=$("$work/harness")
echo "$out"
[ "$out" = "sum = 100000.0 (expected 100000)" ]
