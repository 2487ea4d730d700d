#!/usr/bin/env bash
# Peak resident memory per element of the largest runs (issue 27: at most 64 bytes an element at
# n = 2^24; README "Memory" has the budget cell by cell). Built-in algorithms run in syncscope's
# own process, so the whole process is what is measured.
#   bench/peak_memory.sh [build-dir]              n = 2^24, exits 1 over the budget
#   bench/peak_memory.sh [build-dir] --smallest   n = 4096, only that it runs (CI)
set -euo pipefail
BUILD=${1:-build}
N=16777216
BUDGET=(--budget 64)
if [[ "${2:-}" == --smallest ]]; then
  N=4096
  BUDGET=()  # the executable's own ~20 MB is most of a small run
fi
cd "$(dirname "$0")/.."
[[ -x "$BUILD/bench/syncscope_peak_memory" && -x "$BUILD/syncscope" ]] ||
  cmake --build "$BUILD" --target syncscope syncscope_peak_memory
status=0
for run in "kogge-stone --n $N --tpb 1024" "hierarchical-scan --n $N"; do
  # shellcheck disable=SC2086  # the words of $run are the command's
  "$BUILD/bench/syncscope_peak_memory" "$N" "${BUDGET[@]}" -- "$BUILD/syncscope" run $run || status=1
done
exit $status
