#!/usr/bin/env bash
# Kernel files loaded at run time (`syncscope run --kernel FILE`), through the command line as a
# student uses it: the first load compiles, the second comes from the cache (a compiler that
# always fails is set then, so a compiler run would show); every starter file matches its CPU
# reference under every schedule at several sizes and both types; lockstep runs its SIMT twin; a
# bug variant gives wrong outputs under some schedules; a syntax error names the file and line; a
# kernel that crashes fails its run (exit 1, the line named) and the program goes on; a file without SYNCSCOPE_KERNEL_FILE,
# a missing file and a taken name are refused (exit 2).
# Usage: kernel_files_tests.sh path/to/syncscope source-dir
set -euo pipefail
APP=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SYNCSCOPE_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
# stopped WHAT ARGS...: a run that stops (a crash, a runaway, a divergence) exits 1; its output in $out.
stopped() {
  local what=$1 code
  shift
  set +e
  out=$("$APP" "$@" 2>&1)
  code=$?
  set -e
  (( code == 1 )) || fail "$what: exit $code (a stopped run exits 1): $out"
}
# A first load with the build's compiler copies the precompiled headers the build made
# (kernel-pch/ beside the executable) instead of compiling them.
APP_DIR=$(cd "$(dirname "$APP")" && pwd -P)
if [[ -d "$APP_DIR/kernel-pch" ]]; then
  env -u SYNCSCOPE_CXX SYNCSCOPE_CACHE_DIR="$WORK/first-cache" "$APP" run --kernel "$SRC/assets/kernels/brent_kung_scan.h" \
    --n 64 --tpb 64 >/dev/null 2>"$WORK/first.err" || fail "a first load: $(cat "$WORK/first.err")"
  made=$(cat "$WORK"/first-cache/pch-*/made-by 2>/dev/null | sort | uniq -c || true)
  [[ $(grep -c "copied from $APP_DIR/kernel-pch/pch-" <<<"$made") == 2 && $made != *compiled* ]] ||
    fail "a first load should copy its two precompiled headers from the build's kernel-pch/: $made"
  pass "a first load copies the build's precompiled headers (kernel-pch/): $(grep -o 'compiled in [0-9.]* s' "$WORK/first.err")"
else
  echo "note: no kernel-pch/ beside $APP (the build makes it after linking): a first load compiles its headers"
fi
# A compiler that counts its runs, so a cache hit shows as no new run.
printf '#!/bin/sh\necho run >>"%s"\nexec c++ "$@"\n' "$WORK/compiler-runs" >"$WORK/cxx"
chmod +x "$WORK/cxx"
export SYNCSCOPE_CXX="$WORK/cxx"
runs() { [[ -f "$WORK/compiler-runs" ]] && wc -l <"$WORK/compiler-runs" || echo 0; }
STARTERS=("$SRC"/assets/kernels/*.h)
(( ${#STARTERS[@]} >= 1 )) || fail "no starter kernel files in assets/kernels"

for file in "${STARTERS[@]}"; do
  name=$(basename "$file")
  "$APP" run --kernel "$file" --json >"$WORK/cold.json" 2>"$WORK/cold.err" || fail "$name: $(cat "$WORK/cold.err")"
  grep -q "compiled in" "$WORK/cold.err" || fail "$name: the first load did not compile: $(cat "$WORK/cold.err")"
  before=$(runs)
  "$APP" run --kernel "$file" --json >"$WORK/warm.json" 2>"$WORK/warm.err" || fail "$name: $(cat "$WORK/warm.err")"
  grep -q "from the cache" "$WORK/warm.err" || fail "$name: not from the cache: $(cat "$WORK/warm.err")"
  (( $(runs) == before )) || fail "$name: the second load ran the compiler"
  (( before > 0 )) || fail "$name: the first load did not run the compiler it was given"
  python3 - "$WORK/cold.json" "$WORK/warm.json" <<'PY' || fail "$name: cold and warm runs differ, or lockstep ran without the SIMT twin"
import json, sys
cold, warm = (json.load(open(f)) for f in sys.argv[1:])
assert cold['match'] and cold['output'] == warm['output'], 'outputs'
assert all(l['simt_twin'] for l in cold['counters']['launches']), 'twin'
PY
  pass "$name: compiled once, loaded from the cache the second time (no compiler run), SIMT twin in lockstep"

  # Every schedule against the CPU reference, at sizes its check() accepts.
  for config in "--n 16 --tpb 16 --dtype int32" "--n 200 --tpb 64 --dtype int32" "--n 1000 --tpb 256 --dtype float32" \
                "--n 5 --tpb 8 --dtype float32" "--n 1024 --tpb 1024 --dtype int32"; do
    # shellcheck disable=SC2086
    out=$("$APP" run --kernel "$file" $config --schedule all 2>/dev/null) || fail "$name $config: exit $?"
    grep -q "^schedules: 1 distinct output in 19 runs" <<<"$out" || fail "$name $config: schedules disagree: $out"
    grep -q "output = expected" <<<"$out" || fail "$name $config: wrong output: $out"
  done
  pass "$name: every schedule gives the CPU reference's output at 5 configurations"
done

# The bitwise warp reductions (__reduce_and/or/xor_sync) against a CPU fold, under every schedule,
# with partial warps (the lanes past n give the fold's identity) and both types.
for config in "--n 64 --tpb 64 --dtype int32" "--n 200 --tpb 96 --dtype int32" "--n 1000 --tpb 256 --dtype float32" \
              "--n 5 --tpb 32 --dtype int32 --input random:3"; do
  # shellcheck disable=SC2086
  out=$("$APP" run --kernel "$SRC/tests/kernel_files/warp_bitwise.h" $config --schedule all 2>/dev/null) ||
    fail "warp_bitwise.h $config: exit $?"
  grep -q "^schedules: 1 distinct output in 19 runs" <<<"$out" || fail "warp_bitwise.h $config: schedules disagree: $out"
  grep -q "output = expected" <<<"$out" || fail "warp_bitwise.h $config: wrong output: $out"
done
pass "warp_bitwise.h: __reduce_and/or/xor_sync give the CPU fold under every schedule at 4 configurations"

# A bug variant of the work-efficient scan goes wrong under some schedule.
out=$("$APP" run --kernel "$SRC/assets/kernels/brent_kung_scan.h" --bug no-down-sweep-barrier --schedule all 2>/dev/null)
distinct=$(sed -n 's/^schedules: \([0-9]*\) distinct.*/\1/p' <<<"$out")
(( distinct > 1 )) || fail "the bug variant changed nothing: $out"
pass "brent_kung_scan.h --bug no-down-sweep-barrier: $distinct distinct outputs over the schedules"

# The atomics starter's bug is a race the detector names; the vote starter's a mask naming lanes
# that never arrive.
out=$("$APP" run --kernel "$SRC/assets/kernels/atomic_reduce.h" --n 256 --tpb 128 --bug plain-add 2>/dev/null)
grep -q "^error: race (W[AR][RW])" <<<"$out" || fail "atomic_reduce.h --bug plain-add: no race reported: $out"
pass "atomic_reduce.h --bug plain-add: $(grep -m1 '^error: race' <<<"$out" | cut -c1-60)..."
stopped "warp_vote.h --bug full-mask-in-branch" run --kernel "$SRC/assets/kernels/warp_vote.h" --n 64 --tpb 64 --bug full-mask-in-branch
grep -q "^error: mask 0xffffffff at .*warp_vote.h:[0-9]* (T[0-9]*) names T" <<<"$out" ||
  fail "warp_vote.h --bug full-mask-in-branch: no mask report: $out"
pass "warp_vote.h --bug full-mask-in-branch: $(grep -m1 '^error: mask' <<<"$out" | sed 's|/[^ ]*/||' | cut -c1-70)..."

# A syntax error: exit 2, the compiler's message at the file's line.
sed 's/s\[k\] += s\[k - d\];/s[k] += s[k - dd];/' "$SRC/assets/kernels/brent_kung_scan.h" >"$WORK/broken.h"
line=$(grep -n 'k - dd' "$WORK/broken.h" | cut -d: -f1)
set +e
"$APP" run --kernel "$WORK/broken.h" >/dev/null 2>"$WORK/broken.err"
code=$?
set -e
(( code == 2 )) || fail "a syntax error exited $code"
head -1 "$WORK/broken.err" | grep -q "^syncscope: $WORK/broken.h:$line: error: .*dd" ||
  fail "the first line should name broken.h:$line: $(head -3 "$WORK/broken.err")"
pass "a syntax error: exit 2, $(head -1 "$WORK/broken.err" | cut -c1-90)"

# A launch one argument short of its kernel: headlined at the file's launch line, in words, not in
# the simulator's headers with its internal types.
sed 's/rt.input(), total, p.n, kAtomicReduceBugs.of(p));/rt.input(), total, p.n);/' "$SRC/assets/kernels/atomic_reduce.h" >"$WORK/short_launch.h"
launch_line=$(grep -n 'rt.launch("atomic_reduce"' "$WORK/short_launch.h" | cut -d: -f1)
set +e
"$APP" run --kernel "$WORK/short_launch.h" >/dev/null 2>"$WORK/short_launch.err"
code=$?
set -e
(( code == 2 )) || fail "a launch that does not fit its kernel exited $code"
head -1 "$WORK/short_launch.err" |
  grep -q "^syncscope: $WORK/short_launch.h:$launch_line: error: the kernel cannot be called with this launch's arguments" ||
  fail "a launch that does not fit its kernel: $(head -3 "$WORK/short_launch.err")"
pass "a launch one argument short: $(head -1 "$WORK/short_launch.err" | sed 's|/[^ ]*/||' | cut -c1-100)..."

# A kernel that crashes (a null pointer outside the API) fails its run, under every schedule, and
# the program goes on to report it.
stopped "a crashing kernel" run --kernel "$SRC/tests/kernel_files/crashing_kernel.h" --schedule all
crash_line=$(grep -n "the student's mistake" "$SRC/tests/kernel_files/crashing_kernel.h" | cut -d: -f1)
grep -q "^error: thread 3 of block 0 crashed: invalid memory access at 0x0 (a null pointer) at crashing_kernel.h:$crash_line (SIGSEGV" <<<"$out" ||
  fail "no crash report at crashing_kernel.h:$crash_line: $out"
grep -q "^schedules: " <<<"$out" || fail "the schedules were not all run: $out"
pass "a crashing kernel: $(grep -m1 '^error:' <<<"$out" | cut -c1-80)..., every schedule run"

# A kernel that never ends, each way a loop can (no memory access, accesses, shuffles, one thread
# of the block): the run stops within its time budget, naming the thread and the loop's line, and
# the program goes on. 0.5 s budgets, and one run at the default 2 s.
RUNAWAY="$SRC/tests/kernel_files/runaway_kernel.h"
loop_line() { grep -n "the endless loop" "$RUNAWAY" | grep "$1" | cut -d: -f1; }
declare -A LINE=([spin]=$(loop_line "spins") [accesses]=$(loop_line "s\[t\]") [shuffles]=$(loop_line "shfl") [one-thread]=$(loop_line "spins"))
"$APP" run --kernel "$RUNAWAY" >/dev/null 2>&1 || fail "the runaway kernel without a bug: exit $?"  # compiled here, not timed below
for bug in spin accesses shuffles one-thread; do
  for tpb in 8 64 1024; do
    for schedule in lockstep forward; do
      start=$(date +%s%N)
      stopped "runaway $bug tpb $tpb $schedule" run --kernel "$RUNAWAY" --bug "$bug" --tpb "$tpb" --n "$tpb" --schedule "$schedule" --time-limit 0.5
      took=$(( ($(date +%s%N) - start) / 1000000 ))
      (( took < 500 + 3000 )) || fail "runaway $bug tpb $tpb $schedule: took $took ms"
      error=$(grep -m1 '^error:' <<<"$out") || fail "runaway $bug tpb $tpb $schedule: no error: $out"
      # The seconds are those measured when it stopped: on a loaded machine (CI's two cores) the
      # watchdog's scan comes late; the bound promised is the wall clock's above.
      grep -Eq "^error: T[0-9]+ of block 0 is still running after (0\.[5-9][0-9]*|[1-3](\.[0-9]+)?) s without reaching its next barrier \(it passed 1 barrier\); last line executed: (.*/)?runaway_kernel\.h:${LINE[$bug]} \(the time budget is 0\.5 s a block; --time-limit raises it\)$" <<<"$error" ||
        fail "runaway $bug tpb $tpb $schedule: $error"
      if [[ $bug == one-thread ]]; then grep -q "^error: T$((tpb - 1)) " <<<"$error" || fail "runaway $bug: not the last thread: $error"; fi
    done
  done
done
pass "runaway kernels (spin, accesses, shuffles, one thread) at TPB 8, 64, 1024 under lockstep and forward stop within 0.5 s + 3 s of grace (the worker process starts and loads the kernel), naming the thread and the loop's line"
start=$(date +%s%N)
stopped "runaway at the default budget" run --kernel "$RUNAWAY" --bug one-thread --tpb 1024 --n 1024
took=$(( ($(date +%s%N) - start) / 1000000 ))
(( took < 2000 + 3000 )) || fail "runaway at the default budget: took $took ms"
grep -Eq "^error: T1023 of block 0 is still running after [2-4]" <<<"$out" || fail "runaway at the default budget: $out"
pass "a runaway thread of 1024 at the default budget: stopped in $took ms: $(grep -m1 '^error:' <<<"$out" | cut -c1-110)..."

refused() {  # refused WHAT EXPECTED-TEXT -- ARGS...
  local what=$1 expected=$2; shift 3
  set +e
  "$APP" "$@" >/dev/null 2>"$WORK/refused.err"
  local code=$?
  set -e
  (( code == 2 )) || fail "$what: exit $code"
  grep -q -- "$expected" "$WORK/refused.err" || fail "$what: $(cat "$WORK/refused.err")"
}
printf '#include "kernels/algorithm.h"\n' >"$WORK/unnamed.h"
refused "a file without SYNCSCOPE_KERNEL_FILE" "SYNCSCOPE_KERNEL_FILE(YourAlgorithm)" -- run --kernel "$WORK/unnamed.h"
refused "a missing file" "missing.h: cannot open (No such file or directory)" -- run --kernel "$WORK/missing.h"
sed 's/"brent-kung-scan"/"kogge-stone"/' "$SRC/assets/kernels/brent_kung_scan.h" >"$WORK/taken.h"
refused "a taken name" "already an algorithm's" -- run --kernel "$WORK/taken.h"
refused "run without an algorithm" "name an algorithm" -- run
pass "refused with exit 2: no SYNCSCOPE_KERNEL_FILE, a missing file, a taken name, no algorithm"

# Long work on a terminal (script(1) gives it one) shows the progress line, fed by the counters the
# worker sends over its pipe (every 100 ms: runs of 512 blocks, a third of a second each, so that
# some snapshot lands inside a launch), and erases it at the end.
if command -v script >/dev/null; then
  script -qec "'$APP' run --kernel '$SRC/assets/kernels/brent_kung_scan.h' --n 524288 --tpb 1024 --schedule all >/dev/null" \
    /dev/null >"$WORK/pty.out" 2>&1 || fail "the run on a terminal failed: $(tr '\r' '\n' <"$WORK/pty.out" | tail -3)"
  # Into a file first: under pipefail, grep -m1 leaving early kills a tr still writing a long
  # transcript (SIGPIPE), and the match would read as a failure.
  tr '\r' '\n' <"$WORK/pty.out" >"$WORK/pty.lines"
  line=$(grep -a -m1 "simulating [0-9]*%, run [0-9]* of 20 (.*), launch 1: block [0-9]* of 512, .* left" "$WORK/pty.lines") ||
    fail "no progress line with the worker's counts: $(tail -3 "$WORK/pty.lines" | cat -v)"
  [[ $(tail -c 4 "$WORK/pty.out" | od -An -c | tr -d ' ') == '\r033[K' ]] || fail "the line was not erased at the end"
  pass "a kernel file's long run on a terminal: ${line%$'\e[K'}"
fi
