#!/usr/bin/env bash
# Runs on the GPU machine: the plain CUDA corpus (tests/cuda) on the GPU. The translations and the
# simulator's libraries were made where the pack was (this machine has no Clang), for the files at
# /tmp/syncscope-cuda on both machines, so their cache keys match here.
#   here:   scripts/device-pack.sh
#   device: bash .device/device-cuda-check.sh [programs|race]     (carry .device)
# programs: every program and bug variant with --gpu (gpu-vs-sim), then memcheck and racecheck on
#           each correct program as nvcc builds it. race: racecheck's pairs on every bug variant
#           against the simulator's report, and R GPU runs of each (scripts/racecheck_compare.py).
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/lib:${LD_LIBRARY_PATH:-}"
export SYNCSCOPE_CACHE_DIR="$PWD/kernel-cache"
export SYNCSCOPE_NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
summary="$OUT/cuda-summary.txt"
say() { echo "$*" | tee -a "$summary"; }
corpus=/tmp/syncscope-cuda
rm -rf "$corpus" && mkdir -p "$corpus" && cp -r cuda/*.cu cuda/expected.txt cuda/no_main "$corpus/"
what=${1:-programs}

if [[ $what == programs ]]; then
  say "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) on $(date -u +%F), nvcc $($SYNCSCOPE_NVCC --version | tail -1)"
  # nvcc builds every program and variant first, side by side (each is then in the cache).
  start=$(date +%s)
  for f in "$corpus"/*.cu; do
    echo "$f"
    for macro in $(grep -o 'BUG_[A-Z0-9_]*' "$f" | sort -u); do echo "$f --bug $macro"; done
  done | xargs -P "$(nproc)" -L1 sh -c './syncscope run "$0" "$@" --gpu > /dev/null 2>&1'
  say "   nvcc built the corpus and its variants in $(( $(date +%s) - start )) s ($(nproc) at a time)"
  say "== every program and variant with --gpu (tests/cuda/cuda_programs_gpu.sh)"
  start=$(date +%s)
  bash cuda/cuda_programs_gpu.sh ./syncscope "$corpus" > "$OUT/cuda-gpu.log" 2>&1
  say "   exit $? in $(( $(date +%s) - start )) s: $(tail -1 "$OUT/cuda-gpu.log")"
  grep -E '^(FAIL|ok|not simulated)' "$OUT/cuda-gpu.log" | grep -c '^ok' | sed 's/^/   programs identical: /' | tee -a "$summary"
  grep -E '^FAIL' "$OUT/cuda-gpu.log" | head -20 >> "$summary"
  say "== the app's Run on GPU for a program (syncscope_gpu_tests, Gpu.TheAppRuns*)"
  SYNCSCOPE_CUDA_CORPUS="$corpus" SYNCSCOPE_EXE="$PWD/syncscope" ./syncscope_gpu_tests \
    --gtest_filter='Gpu.TheAppRunsAStudentsProgramOnTheGpuAndComparesItsCopies' 2>&1 | grep -E '^\[ +(program|PASSED|FAILED|SKIPPED) ' | tee -a "$summary"
  say "== a kernel file's --gpu and --gpu-runs (the student's host code in the GPU child, not in the CLI)"
  mkdir -p /tmp/syncscope-starters && cp starters/*.h /tmp/syncscope-starters/  # the paths the pack's cache keys name
  for starter in atomic_reduce brent_kung_scan warp_vote; do
    once=$(./syncscope run --kernel /tmp/syncscope-starters/$starter.h --n 5000 --tpb 256 --gpu 2>&1 | grep -E '^gpu(-vs-sim)?: ' | tail -1)
    runs=$(./syncscope run --kernel /tmp/syncscope-starters/$starter.h --n 5000 --tpb 256 --gpu-runs 5 2>&1 | grep '^gpu-runs:')
    say "   $starter: $once; $runs"
  done
  say "== compute-sanitizer memcheck and racecheck on every correct program (nvcc, untouched)"
  mkdir -p "$OUT/exe"
  clean=0; total=0
  for f in "$corpus"/*.cu; do
    exe="$OUT/exe/$(basename "$f" .cu)"
    "$SYNCSCOPE_NVCC" --fmad=false -lineinfo -arch=native -I "$corpus" "$f" -o "$exe" > "$OUT/one.log" 2>&1 ||
      { say "   $(basename "$f"): nvcc failed: $(head -2 "$OUT/one.log")"; continue; }
    line="   $(basename "$f"):"
    for tool in memcheck racecheck; do
      "$sanitizer" --tool $tool "$exe" > "$OUT/one.log" 2>&1
      result=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/one.log" | tail -1 | sed 's/=* *//')
      line="$line $tool: ${result:-no summary};"
      total=$((total + 1))
      [[ $result == *" 0 error"* || $result == *" 0 hazard"* ]] && clean=$((clean + 1))
    done
    echo "$line" >> "$summary"
  done
  say "   clean: $clean of $total sanitizer runs"
  rm -rf "$OUT/exe" "$OUT/one.log"
fi

if [[ $what == race ]]; then
  say "== racecheck vs the simulator on every bug variant; GPU runs of each"
  start=$(date +%s)
  python3 racecheck_compare.py --syncscope ./syncscope --out "$OUT/cuda-race" --cuda "$corpus" --runs "${RUNS:-10}" \
    > "$OUT/cuda-race.log" 2>&1
  say "   exit $? in $(( $(date +%s) - start )) s: $(tail -1 "$OUT/cuda-race.log")"
  cp "$OUT/cuda-race/racecheck-summary.md" "$OUT/cuda-racecheck-summary.md" 2>/dev/null
  cp "$OUT/cuda-race/gpu-histogram.md" "$OUT/cuda-gpu-histogram.md" 2>/dev/null
  rm -rf "$OUT/cuda-race"/*.exe
  tar czf "$OUT/cuda-race-logs.tar.gz" -C "$OUT" cuda-race && rm -rf "$OUT/cuda-race"
fi
