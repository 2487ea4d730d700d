#!/usr/bin/env bash
# Runs on the GPU machine, in one call: GPU fidelity tests, compute-sanitizer memcheck and racecheck
# over the correct kernels, and the simulator benchmark. Logs and summary.txt go to $OUT.
#   here:   scripts/device-pack.sh
#   device: bash .device/device-gpu-check.sh        (carry .device)
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/lib:${LD_LIBRARY_PATH:-}"
export SYNCSCOPE_EXE="$PWD/syncscope"  # the tests start it as the GPU child
export SYNCSCOPE_DATA_DIR="$PWD"     # the shipped scenarios the unit tests read
summary="$OUT/summary.txt"
say() { echo "$*" | tee -a "$summary"; }

say "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) on $(date -u +%F)"
say "   $(./syncscope run kogge-stone --gpu | grep -E '^gpu')"

say "== GPU fidelity tests (label gpu)"
start=$(date +%s)
# The lockstep-vs-GPU table (tests/test_simt_fidelity.cpp) comes back as Markdown.
SYNCSCOPE_SIMT_TABLE="$OUT/simt-table.md" ./syncscope_gpu_tests > "$OUT/gpu-tests.log" 2>&1
say "   exit $? in $(( $(date +%s) - start )) s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?' "$OUT/gpu-tests.log" | tr '\n' ' ')"
grep -E "Failure|error" -A3 "$OUT/gpu-tests.log" | head -40 >> "$summary"

say "== unit tests on the device"
./syncscope_tests --gtest_brief=1 > "$OUT/unit-tests.log" 2>&1
say "   exit $?: $(grep -E '^\[  (PASSED|FAILED) +\] [0-9]+ tests?' "$OUT/unit-tests.log" | tr '\n' ' ')"

sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
configs=(
  "kogge-stone" "kogge-stone --n 5000 --tpb 256" "kogge-stone --n 4096 --tpb 1024 --dtype int32"
  "two-phase-scan" "two-phase-scan --n 5000 --tpb 64 --dtype int32"
  "hierarchical-scan" "hierarchical-scan --n 100000 --tpb 128"
  "block-exclusive-sum" "block-exclusive-sum --n 5000 --tpb 1024" "block-exclusive-sum --n 999 --tpb 100 --dtype float32"
  "axis-sum" "axis-sum --n 500 --rows 20 --tpb 128"
  "block-reduce" "block-reduce --n 10000 --tpb 1024" "block-reduce --n 100 --tpb 32 --dtype float32"
)
for tool in memcheck racecheck; do
  say "== compute-sanitizer --tool $tool"
  for cfg in "${configs[@]}"; do
    extra=""
    [[ $tool == racecheck ]] && extra="--racecheck-report analysis"
    log="$OUT/sanitizer-$tool.log"
    echo "### $cfg" >> "$log"
    # shellcheck disable=SC2086
    "$sanitizer" --tool $tool $extra ./syncscope run $cfg --gpu > "$OUT/one.log" 2>&1
    cat "$OUT/one.log" >> "$log"
    line=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/one.log" | tail -1)
    match=$(grep -E "^gpu-vs-sim" "$OUT/one.log")
    say "   $cfg: ${line:-no summary} | ${match:-no gpu line}"
  done
done
rm -f "$OUT/one.log"

say "== why the seed's as-written axis sum fails on the GPU at TPB >= 32 (memcheck)"
for tpb in 8 64; do
  "$sanitizer" --tool memcheck ./syncscope run axis-sum --bug as-written --n $((tpb - 2)) --rows 4 --tpb $tpb --gpu \
    > "$OUT/as-written-memcheck-$tpb.log" 2>&1
  say "   TPB $tpb: $(grep -m1 -E 'Invalid|Error' "$OUT/as-written-memcheck-$tpb.log" | sed 's/=* *//') |" \
      "$(grep -m1 -E '^gpu' "$OUT/as-written-memcheck-$tpb.log") | $(grep -E 'ERROR SUMMARY' "$OUT/as-written-memcheck-$tpb.log")"
done

say "== kernel files loaded at run time, on the GPU (the starter files; nvcc compiles each on its first GPU run)"
# The CPU libraries were compiled where the pack was made (this machine has no Boost headers);
# the files sit at the same absolute path here, so their cache keys match.
export SYNCSCOPE_CACHE_DIR="$PWD/kernel-cache"
export SYNCSCOPE_NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
mkdir -p /tmp/syncscope-starters && cp starters/*.h /tmp/syncscope-starters/
for f in atomic_reduce brent_kung_scan warp_vote warp_histogram warp_bitwise; do
  file=/tmp/syncscope-starters/$f.h
  start=$(date +%s%N)
  first=$(./syncscope run --kernel "$file" --gpu 2>&1 | grep -E "^gpu-(device|vs-sim)" | tr '\n' ' ')
  cold=$(( ($(date +%s%N) - start) / 1000000 ))
  start=$(date +%s%N)
  ./syncscope run --kernel "$file" --gpu > /dev/null 2>&1
  warm=$(( ($(date +%s%N) - start) / 1000000 ))
  same=0; total=0; bad=""
  for k in $(seq 0 49); do
    n=$(( (k * 7919 + 13) % 50000 + 1 ))
    if [[ $f == brent_kung_scan ]]; then tpb=$(( 1 << (k % 11) ))
    elif [[ $f == warp_bitwise ]]; then tpb=$(( 32 * (k % 32 + 1) ))  # whole warps
    else tpb=$(( (k * 131) % 1024 + 1 )); fi
    dtype=int32; (( k % 2 )) && dtype=float32
    line=$(./syncscope run --kernel "$file" --n $n --tpb $tpb --dtype $dtype --input random:$k --gpu 2>&1 |
           grep -E "^gpu-vs-sim|^gpu: (unavailable|failed)")
    total=$((total + 1))
    if [[ $line == "gpu-vs-sim: identical" ]]; then same=$((same + 1)); else bad="$bad [n=$n tpb=$tpb $dtype: $line]"; fi
  done
  say "   $f: first GPU run (nvcc cold) ${cold} ms, cached ${warm} ms | $first | identical on $same of $total random configurations$bad"
  for tool in memcheck racecheck; do
    extra=""; [[ $tool == racecheck ]] && extra="--racecheck-report analysis"
    # shellcheck disable=SC2086
    "$sanitizer" --tool $tool $extra ./syncscope run --kernel "$file" --n 5000 --tpb 256 --gpu > "$OUT/one.log" 2>&1
    say "   $f $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/one.log" | tail -1)"
  done
done
rm -f "$OUT/one.log"

say "== race-condition lab: racecheck vs the simulator, GPU outcomes"
mkdir -p "$OUT/logs"
python3 racecheck_compare.py --syncscope ./syncscope --out "$OUT/logs" --runs 200 > "$OUT/lab.log" 2>&1
say "   exit $?: $(tail -1 "$OUT/lab.log")"
cp "$OUT/logs/racecheck-summary.md" "$OUT/logs/gpu-histogram.md" "$OUT/" 2>/dev/null

say "== simulator benchmark ($(nproc) cores)"
./syncscope_bench --benchmark_min_time=1 > "$OUT/bench.log" 2>&1
grep -E "elements/s" "$OUT/bench.log" | sed 's/^/   /' | tee -a "$summary"
# A refactoring's before/after, in the same run: put the earlier build's bench binary next to this
# one as syncscope_bench_before (scripts/device-pack.sh BEFORE_BENCH=path); the two alternate.
if [[ -x ./syncscope_bench_before ]]; then
  say "== benchmark before/after (alternating, medians of 3)"
  for round in 1 2; do
    for which in before after; do
      exe=./syncscope_bench; [[ $which == before ]] && exe=./syncscope_bench_before
      "$exe" --benchmark_min_time=0.5 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 |
        grep median | awk -v w="$which" -v r="$round" '{print "   " r " " w " " $1 " " $NF}' | tee -a "$summary"
    done
  done
fi

# At most 8 files come back: the raw logs travel as one archive.
mv "$OUT"/sanitizer-*.log "$OUT"/as-written-memcheck-*.log "$OUT/unit-tests.log" "$OUT/lab.log" "$OUT/logs/" 2>/dev/null
tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$OUT/logs"
