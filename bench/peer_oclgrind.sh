#!/usr/bin/env bash
# syncscope's simulator against Oclgrind with data-race detection, on the same Kogge-Stone scan
# (bench/oclgrind/kogge_stone.cl is the OpenCL twin of kernels/kogge_stone.h), measured in the
# same run on the same machine. Both detect races while they simulate.
#   bench/peer_oclgrind.sh [build-dir]     (N=262144 TPB=1024 by default)
set -euo pipefail
BUILD=${1:-build}
N=${N:-262144}
TPB=${TPB:-1024}
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
[[ -x "$BUILD/bench/oclgrind_scan_host" ]] || { cmake -S . -B "$BUILD" >/dev/null; cmake --build "$BUILD" --target oclgrind_scan_host syncscope_scan_rate; }
peer=$(oclgrind --data-races "$BUILD/bench/oclgrind_scan_host" bench/oclgrind/kogge_stone.cl "$N" "$TPB")
ours=$("$BUILD/bench/syncscope_scan_rate" kogge-stone "$N" "$TPB" 3)
# The same scan as a kernel file, simulated in this process and in `syncscope worker` in turn,
# PAIRS times, in one process (issue 25's cost of the worker: each run's request and outcome cross
# the pipe; the compile and the worker's start are not timed).
worker_cost=$("$BUILD/bench/syncscope_scan_rate" --worker-cost bench/kernel_files/kogge_stone_file.h "$N" "$TPB" "${PAIRS:-41}")
rate() { sed -E 's/.* ([0-9]+) elements\/s.*/\1/' <<<"$1"; }
printf "%-44s %s\n" "Oclgrind $(oclgrind --version | grep -o '[0-9.]*' | head -1) --data-races:" "$peer"
printf "%-44s %s\n" "syncscope (lockstep, detail for one block):" "$ours"
printf "%-44s %s\n" "the same as a kernel file, in this process:" "$(sed -n 's/^in this process: //p' <<<"$worker_cost")"
printf "%-44s %s\n" "the same as a kernel file, in the worker:" "$(sed -n 's/^in the worker: *//p' <<<"$worker_cost")"
awk -v a="$(rate "$ours")" -v b="$(rate "$peer")" 'BEGIN { printf "ratio: %.0fx Oclgrind\n", a / b }'
grep '^the worker:' <<<"$worker_cost"
