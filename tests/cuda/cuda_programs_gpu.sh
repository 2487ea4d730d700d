#!/usr/bin/env bash
# The same .cu on the GPU (core/cuda_program_gpu.h): every program of tests/cuda runs with --gpu,
# compiled by nvcc as it stands; on the GPU its main() prints the line expected.txt gives and
# returns 0, and its copies to the host equal the simulator's byte for byte. Each BUG_ variant runs
# too: its line tells whether the GPU's copies differed this time (a race need not show every run).
# Skipped (exit 77) where no GPU is usable, with the driver's reason.
# Usage: cuda_programs_gpu.sh path/to/syncscope corpus-dir
set -uo pipefail
APP=$(realpath "$1")
CORPUS=$(realpath "$2")
probe=$("$APP" run "$CORPUS/reduce_sequential.cu" --gpu 2>&1)
if grep -q '^gpu: unavailable' <<<"$probe"; then
  echo "skip: $(grep '^gpu: unavailable' <<<"$probe")"
  exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Programs whose copies to the host legitimately depend on the order in which blocks reach an
# atomic (each warp reserves its place in the output with one atomicAdd): the GPU's order is its own,
# the simulator's the schedule's. For them the program's own check (main() returning 0 on both) is
# the comparison, and the difference is printed, not failed.
ORDER_DEPENDENT="stream_compaction_ballot.cu"

while IFS= read -r line; do
  file=${line%%: *}
  expected=${line#*: }
  out=$("$APP" run "$CORPUS/$file" --gpu 2>&1)
  rc=$?
  if [[ $rc -eq 2 ]] && grep -q "error: .*not yet" <<<"$out"; then
    echo "not simulated yet: $file"
    continue
  fi
  [[ $rc -eq 0 ]] || { fail "$file: exit $rc: $(head -5 <<<"$out")"; continue; }
  grep -q '^gpu: main() returned 0 ' <<<"$out" || { fail "$file: on the GPU: $(grep '^gpu' <<<"$out" | head -3)"; continue; }
  grep -qxF -- "  $expected" <<<"$out" || fail "$file: the GPU's run did not print '$expected': $(sed -n '/^gpu-output:/,/^gpu-vs-sim/p' <<<"$out" | head -8)"
  verdict=$(grep '^gpu-vs-sim: ' <<<"$out")
  if [[ " $ORDER_DEPENDENT " == *" $file "* ]]; then
    echo "order-dependent $file: $verdict"
  else
    [[ $verdict == "gpu-vs-sim: identical"* ]] || fail "$file: $verdict"
  fi
  echo "ok $file: ${verdict#gpu-vs-sim: }; $(grep -o '[0-9.]* s for the whole program' <<<"$out")"
  # The file's bug variants (each BUG_ macro it tests), on the GPU once each.
  for macro in $(grep -o 'BUG_[A-Z0-9_]*' "$CORPUS/$file" | sort -u); do
    bug_out=$("$APP" run "$CORPUS/$file" --bug "$macro" --gpu 2>&1)
    bug_rc=$?
    [[ $bug_rc -le 1 ]] || { fail "$file --bug $macro: exit $bug_rc: $(head -3 <<<"$bug_out")"; continue; }
    echo "   --bug $macro: sim $(grep -o '^main() returned [0-9-]*' <<<"$bug_out" | head -1 | cut -d' ' -f3), hazards: $(grep -c '^race\|^fix:' <<<"$bug_out"), $(grep '^gpu: ' <<<"$bug_out" | head -1), $(grep '^gpu-vs-sim: ' <<<"$bug_out" | cut -c1-90)"
  done
done <"$CORPUS/expected.txt"

# A file without main(): the generated main() launches the kernel on both sides and copies every
# array back, so the comparison has what it needs.
kernel_only=$CORPUS/no_main/scale.cu
out=$("$APP" run "$kernel_only" --grid 4 --block 64 --arg factor=0.5 --gpu 2>&1)
grep -q '^gpu-vs-sim: identical (1 copy' <<<"$out" || fail "kernel-only file: $(grep '^gpu' <<<"$out")"
echo "ok kernel-only file with --grid 4 --block 64: $(grep '^gpu-vs-sim' <<<"$out")"
dyn=$CORPUS/no_main/dynamic_reverse.cu
out=$("$APP" run "$dyn" --grid 1 --block 64 --arg n=64 --shared-bytes 256 --gpu 2>&1)
grep -q '^gpu-vs-sim: identical (1 copy' <<<"$out" || fail "kernel-only file with --shared-bytes: $(grep '^gpu' <<<"$out")"
echo "ok kernel-only file with --shared-bytes 256 (extern __shared__): $(grep '^gpu-vs-sim' <<<"$out")"

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all corpus programs: the GPU's copies to the host equal the simulator's"
