#!/usr/bin/env bash
# The hostile-kernel suite: a student's kernel file that aborts, exits, writes wild (in a simulated
# thread, or in its host code, which kills the worker), damages the C library's heap, recurses, divides by zero, forks, runs a
# shell command or writes a file runs in its worker process
# (core/worker/kernel_worker.h) and syncscope survives each: the run stops with exit 1 and one
# message naming what happened at the kernel's own line (`hostile_kernel.h:LINE`), nothing is
# created outside the cache, and the next good run still comes from the cache. Then the cache's
# own defences: a library planted by another user is refused, a cache folder, a library or a
# precompiled header others can write is refused, a kernel edited during its compile is compiled as it was read, a FIFO and a binary file
# are refused without blocking, and stale build folders are swept.
# Usage: hostile_kernels.sh path/to/syncscope source-dir
set -euo pipefail
APP=$(realpath "$1")
SRC=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SYNCSCOPE_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
KERNEL="$WORK/student/hostile_kernel.h"
mkdir -p "$WORK/student" "$WORK/cwd"
cp "$SRC/tests/faults/hostile_kernel.h" "$KERNEL"
line_of() { grep -n "// hostile: $1\$" "$KERNEL" | cut -d: -f1; }
cd "$WORK/cwd"  # where a kernel's relative "touch" would land
# A sanitizer build reports a wild write or a division by zero itself (and fails the sanitizer
# run), and its worker has no system call filter (core/worker/sandbox.cpp says why).
# (ldd's whole output first: grep -q leaving early would SIGPIPE ldd, and pipefail would count that.)
libraries=$(ldd "$APP" 2>/dev/null || true)
if grep -q 'libasan\|libubsan\|libtsan' <<<"$libraries"; then
  echo "skip: the hostile-kernel suite runs on the release build, not under a sanitizer ($APP)"
  exit 0
fi

"$APP" run --kernel "$KERNEL" >"$WORK/good.txt" 2>&1 || fail "the good kernel: exit $?: $(cat "$WORK/good.txt")"
grep -q "^match: yes" "$WORK/good.txt" || fail "the good kernel does not match: $(cat "$WORK/good.txt")"

declare -A WORDS=(
  [abort]="the kernel called abort() (a failed assert?) at hostile_kernel.h:LINE"
  [exit]="the kernel called exit(3) at hostile_kernel.h:LINE"
  [wild-write]="thread 3 of block 0 crashed: invalid memory access at 0x[0-9a-f]* at hostile_kernel.h:LINE (SIGSEGV"
  [null-write]="thread 3 of block 0 crashed: invalid memory access at 0x0 (a null pointer) at hostile_kernel.h:LINE (SIGSEGV"
  [recursion]="thread 3 of block 0 crashed: stack overflow in T3 (recursion at hostile_kernel.h:RECURSE?)"
  [divide-by-zero]="thread 3 of block 0 crashed: integer division by zero at hostile_kernel.h:LINE (SIGFPE)"
  [fork]="the kernel tried to start another process (fork, system, popen) at hostile_kernel.h:LINE: not allowed"
  [system]="the kernel tried to start another process (fork, system, popen) at hostile_kernel.h:LINE: not allowed"
  [write-file]="the kernel tried to open a file for writing at hostile_kernel.h:LINE: not allowed"
  [host-wild-write]="the kernel wrote outside its memory and the simulation died; last line executed: hostile_kernel.h:LINE"
  [heap-damage]="the kernel wrote outside its memory and the simulation died (the C library found its heap damaged); last line executed: hostile_kernel.h:LINE"
)
recurse_line=$(grep -n "return recurse(depth + 1)" "$KERNEL" | cut -d: -f1)
for bug in abort exit wild-write null-write recursion divide-by-zero fork system write-file host-wild-write heap-damage; do
  expected=${WORDS[$bug]//LINE/$(line_of "$bug")}
  expected=${expected//RECURSE/$recurse_line}
  for schedule in lockstep forward; do
    set +e
    out=$("$APP" run --kernel "$KERNEL" --bug "$bug" --schedule "$schedule" 2>&1)
    code=$?
    set -e
    (( code == 1 )) || fail "$bug ($schedule): exit $code, not 1: $out"
    error=$(grep -m1 '^error:' <<<"$out") || fail "$bug ($schedule): no error line: $out"
    # The message's characters are literal, but for the address's [0-9a-f]*.
    pattern=$(sed -e 's/0x\[0-9a-f\]\*/ADDRESS/' -e 's/[][().?*]/\\&/g' -e 's/ADDRESS/0x[0-9a-f]*/' <<<"$expected")
    grep -Eq "^error: $pattern" <<<"$error" || fail "$bug ($schedule): expected \"$expected\", got \"$error\""
  done
  pass "$bug: exit 1, $(cut -c8-120 <<<"$error")"
done

# A thread of the kernel's own is allowed (the worker's pool is made of them too).
"$APP" run --kernel "$KERNEL" --bug thread >"$WORK/thread.txt" 2>&1 || fail "a std::thread: exit $?: $(cat "$WORK/thread.txt")"
grep -q "^match: yes" "$WORK/thread.txt" || fail "a std::thread: $(cat "$WORK/thread.txt")"
pass "thread: a kernel's own std::thread runs and joins"

[[ -z $(ls -A "$WORK/cwd") ]] || fail "the kernels created $(ls -A "$WORK/cwd") in the working folder"
[[ ! -e /tmp/hostile-was-here ]] || fail "the kernel wrote /tmp/hostile-was-here"
leftover=$(find "$WORK/cache" -maxdepth 1 -name 'build-*')
[[ -z $leftover ]] || fail "build folders left in the cache: $leftover"
out=$("$APP" run --kernel "$KERNEL" 2>&1) || fail "the good kernel after the hostile ones: exit $?: $out"
grep -q "from the cache" <<<"$out" && grep -q "^match: yes" <<<"$out" || fail "the good kernel after the hostile ones: $out"
pass "nothing created outside the cache; the good kernel still runs from the cache"

# The cache is the user's alone. A folder others can write is refused, and so is a library that
# is not the user's (planted by another user: only root can make one here).
refused() {  # refused WHAT EXPECTED-TEXT ARGS...
  local what=$1 expected=$2 code
  shift 2
  set +e
  "$APP" "$@" >/dev/null 2>"$WORK/refused.err"
  code=$?
  set -e
  (( code == 2 )) || fail "$what: exit $code, not 2: $(cat "$WORK/refused.err")"
  grep -q -- "$expected" "$WORK/refused.err" || fail "$what: expected \"$expected\", got: $(cat "$WORK/refused.err")"
  pass "$what: exit 2, $(head -1 "$WORK/refused.err" | cut -c1-110)"
}
chmod 777 "$WORK/cache"
refused "a cache folder others can write" "is writable by others (mode 777)" run --kernel "$KERNEL"
chmod 700 "$WORK/cache"
library=$(ls "$WORK/cache"/kernel-*.so | head -1)
if [[ $(id -u) == 0 ]]; then
  chown nobody "$library"
  refused "a library planted by another user" "belongs to user $(id -u nobody), not to you" run --kernel "$KERNEL"
  chown root "$library"
else
  echo "skip: a library planted by another user (chown needs root here)"
fi
chmod 666 "$library"
refused "a library others can write" "is writable by others (mode 666)" run --kernel "$KERNEL"
chmod 700 "$library"
# What the compiler reads into every kernel is held to the same rule: a precompiled header others
# can write is refused by the next compile (an edited kernel: not in the cache).
pch=$(ls "$WORK/cache"/pch-*/syncscope_kernel_file.h.gch | head -1)
cp "$KERNEL" "$WORK/student/pch_edit.h"
echo "// edited: compiled again" >>"$WORK/student/pch_edit.h"
chmod 666 "$pch"
refused "a precompiled header others can write" "precompiled header in the kernel cache cannot be trusted: .*is writable by others (mode 666)" run --kernel "$WORK/student/pch_edit.h"
chmod 600 "$pch"

# Read once: an edit made while the compiler runs is the next load's, not this one's. The
# compiler here edits the file before compiling; the run must still be the version it read.
sed 's/"hostile-sum"/"hostile-sum-a"/' "$KERNEL" >"$WORK/student/edited.h"
printf '#!/bin/sh\nsed -i "s/hostile-sum-a/hostile-sum-b/" "%s"\nexec c++ "$@"\n' "$WORK/student/edited.h" >"$WORK/editing-cxx"
chmod +x "$WORK/editing-cxx"
SYNCSCOPE_CXX="$WORK/editing-cxx" "$APP" run --kernel "$WORK/student/edited.h" >"$WORK/edited.txt" 2>&1 ||
  fail "the kernel edited during its compile: exit $?: $(cat "$WORK/edited.txt")"
grep -q "^hostile-sum-a " "$WORK/edited.txt" || fail "the edit made during the compile was compiled: $(head -3 "$WORK/edited.txt")"
out=$("$APP" run --kernel "$WORK/student/edited.h" 2>&1) || fail "the edited kernel: exit $?: $out"
grep -q "^hostile-sum-b " <<<"$out" || fail "the edited kernel's next load is not the new version: $(head -3 <<<"$out")"
pass "a kernel edited during its compile: that run is the version read, the next load the edit"

# Files that are not kernels are refused without blocking or reading them whole.
mkfifo "$WORK/fifo.h"
refused "a FIFO" "fifo.h: is a FIFO, not a file" run --kernel "$WORK/fifo.h"
head -c 3000000 /dev/urandom >"$WORK/big.h"
refused "a 3 MB file" "big.h: is 2.9 MB; at most 1.0 MB is read" run --kernel "$WORK/big.h"
printf 'SYNCSCOPE_KERNEL_FILE(X)\n\0\n' >"$WORK/binary.h"
refused "a file with a NUL byte" "binary.h:2: a NUL byte" run --kernel "$WORK/binary.h"

# Build folders of a compile that was killed are swept by the next load.
mkdir -p "$WORK/cache/build-kernel-0-999999999"
"$APP" run --kernel "$KERNEL" >/dev/null 2>&1 || fail "a load after a killed compile: exit $?"
[[ ! -e "$WORK/cache/build-kernel-0-999999999" ]] || fail "a dead compile's build folder was not swept"
pass "a dead compile's build folder is swept by the next load"
