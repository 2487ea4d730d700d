#!/usr/bin/env bash
# Plain CUDA in (core/cuda_program.h): every program of tests/cuda runs unchanged as
# `syncscope run FILE.cu` (translated by syncscope-translate, simulated in the worker) and prints
# the last line expected.txt gives for it, with exit 0; a bug variant's race is reported at the
# .cu's own lines; what cannot be simulated yet, and what is not CUDA, gets one message at its line
# and exit 2.
# Usage: cuda_programs.sh path/to/syncscope source-dir
set -euo pipefail
APP=$(realpath "$1")
SRC=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SYNCSCOPE_CACHE_DIR="$WORK/cache"
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }
if [[ ! -x "$(dirname "$APP")/syncscope-translate" ]]; then
  echo "skip: this build has no syncscope-translate (Clang 14's libraries were not found)"
  exit 0
fi
libraries=$(ldd "$APP" 2>/dev/null || true)
if grep -q 'libasan\|libubsan\|libtsan' <<<"$libraries"; then
  echo "skip: the CUDA corpus runs on the release build, not under a sanitizer ($APP)"
  exit 0
fi
CORPUS="$SRC/tests/cuda"
# Element types the simulator does not hold yet (structs, 64-bit): refused with a message.
NOT_YET="atomics_mix.cu long_long_and_char.cu warp_vote.cu"

while IFS= read -r line; do
  file=${line%%: *}
  expected=${line#*: }
  set +e
  out=$("$APP" run "$CORPUS/$file" 2>&1)
  rc=$?
  set -e
  if [[ " $NOT_YET " == *" $file "* ]]; then
    [[ $rc -eq 2 ]] || fail "$file: exit $rc, expected 2 (not simulated yet)"
    grep -q "$file:[0-9]*:[0-9]*: error: .*not yet" <<<"$out" || fail "$file: no 'not yet' message at a line: $out"
    pass "$file refused at its line: $(grep -o 'error: .*' <<<"$out" | head -1 | cut -c1-90)"
    continue
  fi
  [[ $rc -eq 0 ]] || fail "$file: exit $rc: $(head -5 <<<"$out")"
  grep -qxF -- "$expected" <<<"$out" || fail "$file: the program did not print '$expected': $(head -8 <<<"$out")"
  grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "$file: main() did not return 0"
  pass "$file: $expected"
done <"$CORPUS/expected.txt"

# The line map: kogge_stone_scan.cu's BUG_NO_BARRIER races between the line that reads XY[t - stride]
# and the line that writes XY[t], as the file numbers them.
ks="$CORPUS/kogge_stone_scan.cu"
read_line=$(grep -n 'temp = XY\[threadIdx.x\] + XY\[threadIdx.x - stride\]' "$ks" | cut -d: -f1)
write_line=$(grep -n 'XY\[threadIdx.x\] = temp;' "$ks" | cut -d: -f1)
out=$("$APP" run "$ks" --bug no-barrier 2>&1)
grep -q "race (WAR) between read at $ks:$read_line and write at $ks:$write_line" <<<"$out" ||
  fail "no race reported at kogge_stone_scan.cu:$read_line and :$write_line: $out"
pass "BUG_NO_BARRIER: race at kogge_stone_scan.cu:$read_line / :$write_line"
out=$("$APP" run "$ks" --bug NO_BARRIER 2>&1)
grep -q "race (WAR) between read at $ks:$read_line and write at $ks:$write_line" <<<"$out" ||
  fail "--bug NO_BARRIER (the macro's spelling) did not run the variant: $out"
pass "--bug NO_BARRIER names the same variant"

# Bad input: one message at the file's line, exit 2.
mkdir -p "$WORK/bad"
printf '#include <cuda_runtime.h>\n__global__ void k(float *x)\n{\n    x[threadIdx.x] = 1.0f\n}\nint main() { return 0; }\n' >"$WORK/bad/syntax.cu"
set +e; out=$("$APP" run "$WORK/bad/syntax.cu" 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] || fail "syntax error: exit $rc"
grep -q "syntax.cu:4:[0-9]*: error: expected ';'" <<<"$out" || fail "syntax error not at line 4: $out"
pass "a syntax error is Clang's message at syntax.cu:4"
printf '#include <cuda_runtime.h>\n__global__ void k(float *x) { x[0] = 1.0f; }\nint main()\n{\n    float *x;\n    cudaMallocManaged(&x, 4);\n    k<<<1, 1>>>(x);\n    return 0;\n}\n' >"$WORK/bad/managed.cu"
set +e; out=$("$APP" run "$WORK/bad/managed.cu" 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] || fail "cudaMallocManaged: exit $rc"
grep -q "managed.cu:6:[0-9]*: error: cudaMallocManaged (unified memory) is not supported: use cudaMalloc + cudaMemcpy" <<<"$out" ||
  fail "cudaMallocManaged not refused at line 6: $out"
pass "cudaMallocManaged is refused at managed.cu:6 with what to do instead"
printf 'this is not CUDA\n' >"$WORK/bad/prose.cu"
set +e; out=$("$APP" run "$WORK/bad/prose.cu" 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] || fail "prose: exit $rc"
grep -q "prose.cu:1:[0-9]*: error:" <<<"$out" || fail "prose: no message at line 1: $out"
pass "a file that is not CUDA gets Clang's message at prose.cu:1"
echo "all CUDA corpus checks passed"
