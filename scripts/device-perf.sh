#!/usr/bin/env bash
# Runs on the GPU machine (after scripts/device-pack.sh, carry .device): the performance lab.
#   1. every rung of both ladders under compute-sanitizer memcheck and racecheck at small sizes,
#      each also compared with the simulator (the gpu-vs-sim line);
#   2. `syncscope perf` over n = 2^16 .. 2^28, int32 and float32, saved as JSON.
# Logs, perf.json and summary.txt go to $OUT.
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/lib:${LD_LIBRARY_PATH:-}"
summary="$OUT/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
say "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) on $(date -u +%F)"

sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
rungs=(reduce-1-interleaved reduce-2-strided-index reduce-3-sequential reduce-4-add-on-load reduce-5-unroll-last-warp
       reduce-6-complete-unroll reduce-7-grid-stride reduce-8-shuffle-vec4 reduce-9-single-pass hierarchical-scan
       scan-2-brent-kung scan-3-reduce-then-scan scan-4-decoupled-lookback)
if [[ "${SKIP_SANITIZER:-}" != 1 ]]; then
  for tool in memcheck racecheck; do
    say "== compute-sanitizer --tool $tool (each rung at two sizes, int32)"
    for rung in "${rungs[@]}"; do
      for cfg in "--n 100000 --tpb 256" "--n 5003 --tpb 64"; do
        extra=""
        [[ $tool == racecheck ]] && extra="--racecheck-report analysis"
        # shellcheck disable=SC2086
        "$sanitizer" --tool $tool $extra ./syncscope run $rung $cfg --dtype int32 --input random:7 --gpu > "$OUT/one.log" 2>&1
        cat "$OUT/one.log" >> "$OUT/sanitizer-$tool.log"
        line=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/one.log" | tail -1)
        match=$(grep -E "^gpu-vs-sim" "$OUT/one.log")
        say "   $rung $cfg: ${line:-no summary} | ${match:-no gpu line}"
      done
    done
  done
  rm -f "$OUT/one.log"
fi

# The look-back's large tile (n >= 2^22; the simulator's largest n is 2^24), against the simulator.
say "== the large tile against the simulator"
for cfg in "scan-4-decoupled-lookback --n 4194304 --tpb 512" "scan-4-decoupled-lookback --n 16777213 --tpb 512" \
           "reduce-9-single-pass --n 16777213 --tpb 512"; do
  # shellcheck disable=SC2086
  say "   $cfg: $(./syncscope run $cfg --input random:7 --gpu 2>&1 | grep -E '^gpu-vs-sim|match' | tr '\n' ' ')"
done

say "== syncscope perf ${PERF_ARGS:-}"
start=$(date +%s)
# shellcheck disable=SC2086
./syncscope perf ${PERF_ARGS:-} --save "$OUT/perf.json" > "$OUT/perf.txt" 2> "$OUT/perf-progress.log"
say "   exit $? in $(( $(date +%s) - start )) s"
cat "$OUT/perf.txt" >> "$summary"
