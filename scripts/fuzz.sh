#!/usr/bin/env bash
# The libFuzzer targets of tests/fuzz, built with clang, ASan and UBSan (the `fuzz` preset).
# Usage: scripts/fuzz.sh SECONDS [TARGET...]     each target for SECONDS (CI: 30)
#        scripts/fuzz.sh --runs N [TARGET...]   each target for N executions (make fuzz: 1000000)
# TARGETs: cli_options input_list scenario layout worker_answer (default: all five).
# Each starts from its seed corpus (tests/fuzz/corpus/TARGET, inputs that once failed included);
# what it learns stays in build-fuzz/corpus. A crash leaves its input in build-fuzz/crashes and
# fails the script: copy it into the seed corpus and fix the code.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=(-max_total_time="${1:-30}")
shift || true
if [[ ${limit[0]} == -max_total_time=--runs ]]; then
  limit=(-runs="$1")
  shift
fi
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(cli_options input_list scenario layout worker_answer)
[[ -f build-fuzz/build.ninja ]] || cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
mkdir -p build-fuzz/crashes
status=0
for target in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$target"
  log="build-fuzz/fuzz_$target.log"
  if build-fuzz/fuzz/fuzz_$target "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
       -artifact_prefix="build-fuzz/crashes/$target-" "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    secs=$(grep -m1 'Done [0-9]* runs in' "$log" | sed 's/.*in \([0-9]*\) second.*/\1/')
    echo "fuzz: $target: $runs executions in ${secs:-?} s, no crash ($(ls "build-fuzz/corpus/$target" | wc -l) inputs in its corpus)"
  else
    echo "fuzz: $target FAILED:" >&2
    grep -E -A12 "ERROR|runtime error|deadly signal|Timeout|out-of-memory" "$log" | head -40 >&2
    status=1
  fi
done
exit $status
