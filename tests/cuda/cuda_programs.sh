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
# What the simulator does not have yet: refused with a message (none today: every program runs).
NOT_YET=""

while IFS= read -r line; do
  file=${line%%: *}
  expected=${line#*: }
  set +e
  out=$("$APP" run "$CORPUS/$file" 2>&1)
  rc=$?
  set -e
  if [[ " $NOT_YET " == *" $file "* ]]; then
    [[ $rc -eq 2 ]] || fail "$file: exit $rc, expected 2 (not simulated yet)"
    grep -qE "$file:[0-9]+:[0-9]+: error: .*not (simulated )?yet" <<<"$out" || fail "$file: no 'not yet' message at a line: $out"
    pass "$file refused at its line: $(grep -o 'error: .*' <<<"$out" | head -1 | cut -c1-90)"
    continue
  fi
  [[ $rc -eq 0 ]] || fail "$file: exit $rc: $(head -5 <<<"$out")"
  grep -qxF -- "$expected" <<<"$out" || fail "$file: the program did not print '$expected': $(head -8 <<<"$out")"
  grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "$file: main() did not return 0"
  pass "$file: $expected"
done <"$CORPUS/expected.txt"

# A program's library binds to what syncscope exports before its own copies: of the CUDA runtime's
# code (core/cuda_in/) syncscope may export only the two functions it compiles for every program,
# never an inline function of the headers (the Device, current_device, a program's __device__
# variables), which would then run syncscope's copy in place of the program's.
if command -v nm >/dev/null; then
  # The name of each (a function's return type may come first): in syncscope::cu, not merely a
  # standard container of one of its types.
  exported=$(nm -DC --defined-only "$APP" | cut -d' ' -f3- | grep -E '^([^<( ]+ )?syncscope::cu::' |
             grep -oE 'syncscope::cu::[A-Za-z_:]*' | sort -u || true)
  [[ $exported == $'syncscope::cu::program_info\nsyncscope::cu::program_outcome' ]] ||
    fail "syncscope exports CUDA runtime code a program's library would bind to: $exported"
  pass "syncscope exports of core/cuda_in only program_info and program_outcome"
fi
# The translator's precompiled shim: made once in the cache by the first translation; a
# translation with it, with a damaged one (Clang refuses it: the shim is parsed instead) and
# without one are the same bytes.
TRANSLATE="$(dirname "$APP")/syncscope-translate"
pchs=("$SYNCSCOPE_CACHE_DIR"/translate-*.pch)
[[ ${#pchs[@]} == 1 && -s ${pchs[0]} ]] || fail "the corpus's translations left no precompiled shim in the cache: ${pchs[*]}"
ks="$CORPUS/kogge_stone_scan.cu"
"$TRANSLATE" --file "$ks" <"$ks" >"$WORK/plain.txt" || fail "syncscope-translate without --pch failed"
"$TRANSLATE" --file "$ks" --pch "${pchs[0]}" <"$ks" >"$WORK/with.txt" 2>"$WORK/with.err" || fail "syncscope-translate --pch failed"
[[ ! -s "$WORK/with.err" ]] || fail "Clang did not take the cache's precompiled shim: $(cat "$WORK/with.err")"
echo "not a precompiled header" >"$WORK/damaged.pch"
"$TRANSLATE" --file "$ks" --pch "$WORK/damaged.pch" <"$ks" >"$WORK/damaged.txt" 2>/dev/null ||
  fail "syncscope-translate with a damaged --pch failed"
cmp -s "$WORK/plain.txt" "$WORK/with.txt" && cmp -s "$WORK/plain.txt" "$WORK/damaged.txt" ||
  fail "translations with the precompiled shim, a damaged one and none differ"
"$TRANSLATE" --file "$ks" -D BUG_NO_BARRIER <"$ks" >"$WORK/variant.txt" || fail "syncscope-translate -D failed"
"$TRANSLATE" --file "$ks" -D BUG_NO_BARRIER --pch "${pchs[0]}" <"$ks" >"$WORK/variant-pch.txt" || fail "-D with --pch failed"
cmp -s "$WORK/variant.txt" "$WORK/variant-pch.txt" && ! cmp -s "$WORK/variant.txt" "$WORK/plain.txt" ||
  fail "a bug variant's -D with the precompiled shim is not the variant's translation without it"
pass "the translator's precompiled shim ($(basename "${pchs[0]}")): the same translation with it, a damaged one or none"

# The program's own output is the CLI's stdout (its report follows it there); syncscope's notes are on stderr.
stdout_only=$("$APP" run "$CORPUS/printf_threads.cu" 2>/dev/null)
grep -qxF "$(grep '^printf_threads.cu: ' "$CORPUS/expected.txt" | sed 's/^printf_threads.cu: //')" <<<"$stdout_only" ||
  fail "printf_threads.cu: its last line is not on stdout: $stdout_only"
[[ $(grep -c '^block [01] thread' <<<"$stdout_only") -eq 32 ]] || fail "printf_threads.cu: its 32 device printf lines are not on stdout"
pass "a program's printf (host and device) is on stdout"

# Device printf per thread: --steps says under each step which thread printed what, at which line.
pf="$CORPUS/printf_threads.cu"
store_line=$(grep -n 'stored s\[%d\]' "$pf" | cut -d: -f1)
left_line=$(grep -n 'left neighbour holds %d' "$pf" | cut -d: -f1)
steps=$("$APP" run "$pf" --steps 2>/dev/null)
step0=$(awk '/^  step 0 /{on=1; next} /^  step 1 /{on=0} on' <<<"$steps")
step1=$(awk '/^  step 1 /{on=1; next} /^  step 2 /{on=0} on' <<<"$steps")
grep -qxF "      T3 printed at $pf:$store_line: block 1 thread 3: stored s[3] = 120" <<<"$step0" ||
  fail "printf_threads.cu --steps: step 0 does not say what T3 of block 1 printed: $step0"
grep -qxF "      T0 printed at $pf:$left_line: block 0 thread 0: left neighbour holds 80" <<<"$step1" ||
  fail "printf_threads.cu --steps: step 1 does not say what T0 of block 0 printed: $step1"
[[ $(grep -c "printed at $pf:$store_line: " <<<"$step0") -eq 16 && $(grep -c " printed at " <<<"$step1") -eq 16 ]] ||
  fail "printf_threads.cu --steps: not 16 printf lines in each of steps 0 and 1: $steps"
pass "--steps: each thread's printf under its step, with its line (T3 printed at printf_threads.cu:$store_line: ...)"
json=$("$APP" run "$pf" --steps --json 2>/dev/null)
python3 -c '
import json, sys
d = json.loads(sys.argv[1]); store, left = int(sys.argv[2]), int(sys.argv[3])
steps = d["steps"][0]["steps"]
for step, line, what in ((0, store, "stored s[{t}] = {v}"), (1, left, "left neighbour holds {v}")):
    for b in steps[step]["blocks"]:
        got = {(p["block"], p["thread"]): p for p in b["printed"]}
        assert len(got) == 8 and b["printed_dropped"] == 0, b["printed"]
        for t in range(8):
            p = got[(b["block"], t)]
            v = 10 * (8 * b["block"] + t + 1) if step == 0 else 10 * (8 * b["block"] + (t + 7) % 8 + 1)
            assert p["x"] == t and p["line"].endswith("printf_threads.cu:%d" % line), p
            assert p["text"] == "block %d thread %d: " % (b["block"], t) + what.format(t=t, v=v), p
assert all(not b["printed"] for b in steps[2]["blocks"]), steps[2]
' "$json" "$store_line" "$left_line" || fail "printf_threads.cu --steps --json: printed entries wrong: $(head -c 400 <<<"$json")"
pass "--json: per step and block, each printf's block, thread, line and text"

# A kernel that prints from every thread: the trace keeps a step's worth (1024 lines) and counts the
# rest; stdout keeps a GPU's 1 MiB printf buffer and says how many calls it left out.
mkdir -p "$WORK/printf"
cat >"$WORK/printf/flood.cu" <<'CU'
#include <cstdio>
__global__ void chatty(int reps)
{
    for (int k = 0; k < reps; ++k)
        printf("block %d thread %d says %d\n", blockIdx.x, threadIdx.x, k);
}
int main()
{
    chatty<<<1, 1024>>>(2);
    cudaDeviceSynchronize();
    chatty<<<64, 256>>>(4);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
CU
flood="$WORK/printf/flood.cu"
"$APP" run "$flood" --steps --json >"$WORK/printf/out.json" 2>"$WORK/printf/err.txt" || fail "flood.cu: $(tail -5 "$WORK/printf/err.txt")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
first = d["steps"][0]["steps"][0]["blocks"][0]
assert len(first["printed"]) == 1024 and first["printed_dropped"] == 1024, (len(first["printed"]), first["printed_dropped"])
' "$WORK/printf/out.json" || fail "flood.cu: the trace does not keep 1024 lines and count 1024"
grep -q "launch 'chatty' printed more than 1024 KiB with device printf; [0-9]* further printf calls were left out" "$WORK/printf/err.txt" ||
  fail "flood.cu: no word of the printf calls past 1 MiB: $(tail -3 "$WORK/printf/err.txt")"
out_bytes=$("$APP" run "$flood" 2>/dev/null | wc -c)
[[ $out_bytes -le $((2 * 1048576 + 200)) ]] || fail "flood.cu: $out_bytes bytes on stdout, more than two launches' 1 MiB"
pass "printf from every thread: the trace keeps 1024 lines a step (1024 more counted), stdout 1 MiB a launch (the rest said on stderr)"

# __syncthreads_count / _and / _or: its corpus program passes above; its bug variants go wrong at their lines.
sc="$CORPUS/syncthreads_count.cu"
racy_line=$(grep -n 'if (above) counter = counter + 1;' "$sc" | cut -d: -f1)
set +e; out=$("$APP" run "$sc" --bug racy-count 2>&1); set -e
grep -q "race ([A-Z]*) between [a-z]* at $sc:$racy_line and [a-z]* at $sc:$racy_line" <<<"$out" ||
  fail "syncthreads_count.cu --bug racy-count: no race at :$racy_line: $out"
grep -q "FAIL$" <<<"$out" || fail "syncthreads_count.cu --bug racy-count: the count came out right: $out"
exit_line=$(grep -n '__syncthreads();' "$sc" | tail -1 | cut -d: -f1)
return_line=$(grep -n '            return;' "$sc" | head -1 | cut -d: -f1)
# As on a GPU, the others are not held up by the finder that left: they search on to the end and
# write 'not found' (-1); the warning names the return and the barrier.
set +e; out=$("$APP" run "$sc" --bug own-exit 2>&1); rc=$?; set -e
[[ $rc -eq 0 ]] && grep -q "FAIL$" <<<"$out" &&
  grep -q "^warning: T[0-9]* returned at $sc:$return_line before the barrier at $sc:$exit_line" <<<"$out" ||
  fail "syncthreads_count.cu --bug own-exit: exit $rc, no warning at :$return_line and :$exit_line: $out"
pass "syncthreads_count.cu: racy-count races at :$racy_line and FAILs; own-exit FAILs, warned at its return :$return_line before the barrier :$exit_line"

# SIMT lockstep runs a program's kernels as a warp runs them (their SIMT twins, sim/simt.h): in
# warp_divergence_pairs.cu's BUG_NO_SYNCWARP the even lanes finish their branch before the warp
# reads its partners' cells, as where a GPU reconverges, so the sums come out right under lockstep
# (aligning lanes by their count of operations, odd lanes read a cell the branch was still changing);
# the lanes run apart under forward and reverse and read too early. The race is said in every case.
wd="$CORPUS/warp_divergence_pairs.cu"
read_line=$(grep -n 'out\[i\] = s\[t\] + s\[t ^ 1\];' "$wd" | cut -d: -f1)
set +e; out=$("$APP" run "$wd" --bug no-syncwarp --verbose 2>&1); set -e
grep -q "mismatches = 0 PASS$" <<<"$out" || fail "warp_divergence_pairs.cu --bug no-syncwarp under lockstep: the lanes did not reconverge: $out"
grep -q "race (RAW) between .* at $wd:[0-9]* and read at $wd:$read_line .* within one warp on s" <<<"$out" ||
  fail "warp_divergence_pairs.cu --bug no-syncwarp: no race within one warp at :$read_line: $(grep -i race <<<"$out" | head -3)"
for schedule in forward reverse; do
  set +e; out=$("$APP" run "$wd" --bug no-syncwarp --schedule $schedule 2>&1); set -e
  grep -q "FAIL$" <<<"$out" || fail "warp_divergence_pairs.cu --bug no-syncwarp --schedule $schedule: the sums came out right: $out"
done
json=$("$APP" run "$wd" --json 2>/dev/null)
python3 -c '
import json, sys
launches = json.loads(sys.argv[1])["counters"]["launches"]
assert launches and all(l["simt_twin"] for l in launches), launches
' "$json" || fail "warp_divergence_pairs.cu --json: its launch did not run a SIMT twin"
pass "SIMT lockstep in a program: warp_divergence_pairs.cu's no-syncwarp reconverges (PASS) under lockstep, FAILs under forward and reverse"

# A loop's test is a meeting place too: odd lanes `continue` and wait at it while the even lanes
# finish the iteration, so at the top of iteration k every lane reads its partner's count k (lanes
# that went round again at once would read k - 1); a __device__ function numbered after its
# caller's join still runs before the lanes waiting there; lanes that return from a call early wait
# past it for those still inside. (Each kernel, in a program of its own, passed on an H100.)
mkdir -p "$WORK/simt"
cat >"$WORK/simt/loops.cu" <<'CU'
#include <cstdio>
__device__ int bump(int* cells, int t);
__global__ void rounds(int* cells, int* out)
{
    int t = threadIdx.x;
    cells[t] = 0;
    for (int k = 0; k < 3; ++k) {
        out[k * 64 + t] = cells[t ^ 1];
        if (t % 2 == 1) continue;
        cells[t] = cells[t] + 1;
    }
    int v = 0;
    if (t % 2 == 0) v = bump(cells, t);
    out[192 + t] = cells[t ^ 1] + v;
}
__device__ int bump(int* cells, int t)
{
    if (t % 4 == 0) cells[t] += 10;
    return cells[t];
}
__device__ int settle(int* cells, int t)
{
    if (t % 2 == 1) return 0;
    cells[t] += 100;
    return 1;
}
__global__ void early(int* cells, int* out)
{
    int t = threadIdx.x;
    cells[t] = t;
    int r = settle(cells, t);
    out[t] = cells[t ^ 1] + r;
}
int main()
{
    int *cells, *out, h[256];
    cudaMalloc(&cells, 64 * sizeof(int));
    cudaMalloc(&out, 256 * sizeof(int));
    rounds<<<1, 64>>>(cells, out);
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 1; t < 64; t += 2)
        for (int k = 0; k < 3; ++k) bad += h[k * 64 + t] != k;
    for (int t = 0; t < 64; ++t) {
        int mine = t % 2 ? 0 : 3 + (t % 4 == 0 ? 10 : 0), partner = (t ^ 1) % 2 ? 0 : 3 + ((t ^ 1) % 4 == 0 ? 10 : 0);
        bad += h[192 + t] != partner + (t % 2 ? 0 : mine);
    }
    early<<<1, 64>>>(cells, out);
    cudaMemcpy(h, out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 1; t < 64; t += 2) bad += h[t] != (t ^ 1) + 100;
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
CU
out=$("$APP" run "$WORK/simt/loops.cu" 2>&1) || fail "loops.cu under lockstep: $out"
grep -qx "PASS" <<<"$out" || fail "loops.cu under lockstep: the lanes did not meet at the loop's test or at the call's site: $out"
pass "SIMT lockstep in a program: lanes that continue wait at the loop's test; a call's lanes run before the join's"

# Forward progress under lockstep (sim/scheduler.cpp): a spin lock taken by the lanes of one warp.
# The winner waits at the loop's exit while the others spin at its test; after a while it gets its
# turn and releases the lock, as on an H100 (independent thread scheduling), where this program
# passes; before, lockstep ran out of time here.
cat >"$WORK/simt/spin.cu" <<'CU'
#include <cstdio>
__global__ void add_under_lock(int *lock, int *sum)
{
    int t = threadIdx.x;
    while (atomicCAS(lock, 0, 1) != 0);
    *sum = *sum + t;
    __threadfence();
    atomicExch(lock, 0);
}
int main()
{
    int *lock, *sum, h = 0;
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&sum, sizeof(int));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(sum, 0, sizeof(int));
    add_under_lock<<<1, 64>>>(lock, sum);
    cudaMemcpy(&h, sum, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum = %d %s\n", h, h == 2016 ? "PASS" : "FAIL");
    return h != 2016;
}
CU
out=$("$APP" run "$WORK/simt/spin.cu" 2>&1) || fail "spin.cu under lockstep: $out"
grep -qx "sum = 2016 PASS" <<<"$out" || fail "spin.cu under lockstep: $out"
pass "SIMT lockstep: a spin lock among the lanes of a warp makes progress (sum = 2016 PASS)"

# --json says what a program is: main()'s return value and its launches, no n/tpb/input of a problem.
json=$("$APP" run "$CORPUS/two_kernel_scan.cu" --json 2>/dev/null)
python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["program"]["launches"] == 3 and d["program"]["main_returned"] == 0, d["program"]
assert "input" not in d and "expected" not in d and "n" not in d["config"] and "tpb" not in d["config"], d["config"]
' "$json" || fail "two_kernel_scan.cu --json: $(head -c 300 <<<"$json")"
pass "--json of a program: main_returned 0, 3 launches, no problem sizes"

# Its copies to the host (what --gpu compares): reduce_sequential.cu copies its block sums back at
# the line of its cudaMemcpy(..., cudaMemcpyDeviceToHost) and prints them; the copy's hash is the
# FNV-1a of those four ints as the host holds them.
rs="$CORPUS/reduce_sequential.cu"
copy_line=$(grep -n 'cudaMemcpyDeviceToHost' "$rs" | cut -d: -f1)
"$APP" run "$rs" --json >"$WORK/rs.json" 2>"$WORK/rs.stderr" || fail "reduce_sequential.cu --json failed"
python3 - "$WORK/rs.json" "$WORK/rs.stderr" "$copy_line" <<'EOF' || fail "reduce_sequential.cu: its copy to the host is not reported as it is"
import json, struct, sys
d = json.load(open(sys.argv[1]))
sums = [int(v) for v in next(l for l in open(sys.argv[2]) if l.startswith("block sums:")).split(":")[1].split()]
copies = d["program"]["host_copies"]
assert len(copies) == 1, copies
c = copies[0]
assert c["line"] == int(sys.argv[3]) and c["array"] == "d_out" and c["element_size"] == 4 and c["bytes"] == 16, c
h = 0xcbf29ce484222325
for b in struct.pack("<4i", *sums):
    h = ((h ^ b) * 0x100000001b3) % (1 << 64)
assert c["fnv1a64"] == format(h, "x"), (c, format(h, "x"), sums)
EOF
pass "reduce_sequential.cu: its copy to the host at line $copy_line, d_out, 16 bytes, hash of the printed block sums"

# The line map: kogge_stone_scan.cu's BUG_NO_BARRIER races between the line that reads XY[t - stride]
# and the line that writes XY[t], as the file numbers them.
ks="$CORPUS/kogge_stone_scan.cu"
read_line=$(grep -n 'temp = XY\[threadIdx.x\] + XY\[threadIdx.x - stride\]' "$ks" | cut -d: -f1)
write_line=$(grep -n 'XY\[threadIdx.x\] = temp;' "$ks" | cut -d: -f1)
out=$("$APP" run "$ks" --bug no-barrier 2>&1)
grep -q "race (WAR) between read at $ks:$read_line and write at $ks:$write_line" <<<"$out" ||
  fail "no race reported at kogge_stone_scan.cu:$read_line and :$write_line: $out"
pass "BUG_NO_BARRIER: race at kogge_stone_scan.cu:$read_line / :$write_line"
# A .cu's arithmetic is its own C++, which the simulator does not count: the report has no "adds".
grep -q "^per thread (max): global reads [0-9]*, .*, barriers [0-9]*$" <<<"$out" ||
  fail "kogge_stone_scan.cu: the per-thread line counts additions it did not see: $(grep 'per thread' <<<"$out")"
out=$("$APP" run "$ks" --bug NO_BARRIER 2>&1)
grep -q "race (WAR) between read at $ks:$read_line and write at $ks:$write_line" <<<"$out" ||
  fail "--bug NO_BARRIER (the macro's spelling) did not run the variant: $out"
pass "--bug NO_BARRIER names the same variant"

# References to shared memory: sorting_network_comparator.cu's Comparator(uint &keyA, ...) and
# swapValues(T &a, T &b) read and write the elements they were given, and a race is at the line that
# uses a reference (the compare, `T t = a;`), never at the call that bound it.
sn="$CORPUS/sorting_network_comparator.cu"
compare_line=$(grep -n 'if ((keyA > keyB) == dir)' "$sn" | cut -d: -f1)
swap_line=$(grep -n '    T t = a;' "$sn" | cut -d: -f1)
call_line=$(grep -n 'Comparator(s_key\[pos + 0\], s_val\[pos + 0\], s_key\[pos + stride\], s_val\[pos + stride\], ddd);' "$sn" | cut -d: -f1)
set +e; out=$("$APP" run "$sn" --bug no-barrier 2>&1); set -e
grep -qE "^error: race .* at $sn:$compare_line .* on s_key$" <<<"$out" || fail "sorting_network_comparator.cu --bug no-barrier: no race at :$compare_line: $out"
grep -qE "^error: race .* at $sn:$swap_line .* on s_" <<<"$out" || fail "sorting_network_comparator.cu --bug no-barrier: no race at :$swap_line: $out"
! grep "^error:" <<<"$out" | grep -q "$sn:$call_line\b" || fail "sorting_network_comparator.cu --bug no-barrier: a race at the call, line $call_line: $out"
grep -q "FAIL$" <<<"$out" || fail "sorting_network_comparator.cu --bug no-barrier: the keys came out sorted: $out"
pass "references: BUG_NO_BARRIER races at sorting_network_comparator.cu:$compare_line and :$swap_line, not at the call (:$call_line)"

# A 3D __shared__ array: box_blur_3d_shared.cu's BUG_NO_BARRIER races on tile between the line
# that loads a voxel and a line that reads a neighbour's, as the file numbers them.
bb="$CORPUS/box_blur_3d_shared.cu"
load_line=$(grep -n 'tile\[threadIdx.z\]\[threadIdx.y\]\[threadIdx.x\] = in\[at\];' "$bb" | cut -d: -f1)
out=$("$APP" run "$bb" --bug no-barrier --verbose 2>&1)
grep -qE "race \(RAW\) between write at $bb:$load_line and read at $bb:[0-9]+ .* on tile$" <<<"$out" ||
  fail "box_blur_3d_shared.cu --bug no-barrier: no race on tile at :$load_line: $(grep -i race <<<"$out" | head -3)"
pass "3D __shared__: BUG_NO_BARRIER races on tile from box_blur_3d_shared.cu:$load_line"

# The Programming Guide's atomicCAS loop: its first plain read is a guess the CAS checks, not a
# race (before, every thread's read was reported against the others' atomicCAS); the same maximum
# taken with plain code (BUG_PLAIN_MAX) races on blockMax at its line.
cas="$CORPUS/atomic_max_float_cas.cu"
out=$("$APP" run "$cas" 2>&1)
grep -qx "hazards: none" <<<"$out" || fail "atomic_max_float_cas.cu: the CAS loop is reported: $(grep -i race <<<"$out" | head -2)"
plain_line=$(grep -n 'if (val > \*address) \*address = val;' "$cas" | cut -d: -f1)
set +e; out=$("$APP" run "$cas" --bug plain-max 2>&1); set -e
grep -qE "race \(W[AR][WR]\) between .* at $cas:$plain_line and .* at $cas:$plain_line .* on blockMax$" <<<"$out" ||
  fail "atomic_max_float_cas.cu --bug plain-max: no race on blockMax at :$plain_line: $(grep -i race <<<"$out" | head -2)"
pass "the atomicCAS loop: no race; plain code instead races on blockMax at atomic_max_float_cas.cu:$plain_line"

# __reduce_min_sync compares an int signed and an unsigned unsigned, as CUDA's two overloads do:
# warp_min_max.cu's BUG_MIN_AS_UNSIGNED takes the ints' minimum over unsigned casts, and every warp
# holds a negative value, so main() finds all 32 minima wrong.
set +e; out=$("$APP" run "$CORPUS/warp_min_max.cu" --bug min-as-unsigned 2>&1); set -e
grep -q "mismatches = 32 FAIL$" <<<"$out" || fail "warp_min_max.cu --bug min-as-unsigned: the minima came out right: $out"
grep -q "^main() returned 1" <<<"$out" || fail "warp_min_max.cu --bug min-as-unsigned: main() did not return 1: $out"
pass "__reduce_min_sync over unsigned casts: 32 wrong minima, as main() says"

# A .cu with kernels and no main(), as a verifier's test case gives it: launched by --grid/--block.
mkdir -p "$WORK/alone"
cat >"$WORK/alone/reverse.cu" <<'CU'
#define N 64
__global__ void reverse(int *d, int n)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = d[blockIdx.x * blockDim.x + t];  // store
#ifndef BUG_NO_BARRIER
    __syncthreads();
#endif
    if (t < n) d[blockIdx.x * blockDim.x + t] = s[blockDim.x - t - 1];  // load
}
CU
alone="$WORK/alone/reverse.cu"
set +e; out=$("$APP" run "$alone" 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] || fail "no main, no --grid: exit $rc"
grep -q "has no main(): give --grid X\[,Y\[,Z\]\] --block X\[,Y\[,Z\]\] to launch its kernel reverse" <<<"$out" || fail "no main: $out"
out=$("$APP" run "$alone" --grid 2 --block 64 --arg n=64 2>&1) || fail "kernel alone: $out"
grep -q "^hazards: none" <<<"$out" || fail "kernel alone: hazards where none are: $out"
# The report says whose main() it was: syncscope's, which launched the kernel (no "its own check").
grep -q "(CUDA kernels: syncscope's main() launches one with --grid and --block)" <<<"$out" &&
  grep -qx "the launch succeeded" <<<"$out" && ! grep -q "its own check" <<<"$out" ||
  fail "kernel alone: the report speaks of the file's own main(): $out"
store=$(grep -n '// store' "$alone" | cut -d: -f1)
load=$(grep -n '// load' "$alone" | cut -d: -f1)
out=$("$APP" run "$alone" --grid 2 --block 64 --arg n=64 --bug no-barrier 2>&1)
grep -q "race (RAW) between write at $alone:$store and read at $alone:$load" <<<"$out" || fail "kernel alone, no barrier: $out"
pass "a kernel without main() runs with --grid 2 --block 64; its missing barrier is a race at :$store / :$load"
set +e; out=$("$APP" run "$alone" --grid 2 --block 64 --arg m=1 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] && grep -q -- "--arg m=1: reverse has no parameter m" <<<"$out" || fail "--arg m: exit $rc: $out"
pass "--arg naming no parameter is refused"
# A launch that reaches past its arrays did not succeed, though syncscope's main() has no check of its own.
mkdir -p "$WORK/alone"
cat >"$WORK/alone/past_end.cu" <<'CU'
__global__ void past_end(int n, float *y) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = 2.0f * i;
}
CU
out=$("$APP" run "$WORK/alone/past_end.cu" --grid 1 --block 32 --arg n=40 2>&1) || fail "past_end.cu: $out"
grep -qx "the launch ran, but reached past its arrays (the out-of-bounds errors below: .*" <<<"$out" &&
  grep -qx "match: no (out-of-bounds accesses)" <<<"$out" && grep -q "^error: out-of-bounds write of y\[32\]" <<<"$out" ||
  fail "a kernel alone writing past y is said to have succeeded: $out"
out=$("$APP" run "$WORK/alone/past_end.cu" --grid 1 --block 32 --arg n=32 2>&1) || fail "past_end.cu n=32: $out"
grep -qx "the launch succeeded" <<<"$out" && grep -qx "match: yes" <<<"$out" || fail "past_end.cu within bounds: $out"
pass "a kernel alone that writes past its array is not said to succeed (match: no, out-of-bounds accesses)"
# A pointer parameter's --arg is its array's element count (a kernel sized by a scalar of its own).
out=$("$APP" run "$WORK/alone/past_end.cu" --grid 1 --block 32 --arg n=40 --arg y=40 2>&1) || fail "past_end.cu y=40: $out"
grep -qx "the launch succeeded" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "past_end.cu with --arg y=40: $out"
set +e; out=$("$APP" run "$WORK/alone/past_end.cu" --grid 1 --block 32 --arg y=0 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] && grep -q -- "--arg y=0: y is a pointer: give its array's element count, 1..16777216" <<<"$out" ||
  fail "--arg y=0: exit $rc: $out"
pass "--arg NAME=COUNT sizes a pointer parameter's array (40 elements: no out-of-bounds); 0 is refused with the range"
# Parameters named as syncscope's main() names its own (grid, block, count, host) are the kernel's.
cat >"$WORK/alone/names.cu" <<'CU'
__global__ void stencil(float *grid, float *host, int count, int block) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) host[i] = grid[i] * 2.0f + block;
}
CU
out=$("$APP" run "$WORK/alone/names.cu" --grid 2 --block 32 --arg count=64 --arg block=1 2>&1) || fail "names.cu: $out"
grep -qx "the launch succeeded" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "names.cu: $out"
pass "a kernel alone whose parameters are named grid, host, count and block runs"
set +e; out=$("$APP" run "$CORPUS/dot_product.cu" --grid 2 --block 64 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] && grep -q "the file has its own main(), which chooses its launches: --grid and --block (in the app: File > Open's grid and block) are for a .cu without one" <<<"$out" ||
  fail "--grid for a program with main(): exit $rc: $out"
pass "--grid and --block for a program with its own main() are refused, naming the app's fields too"
# extern __shared__ in a kernel without main(): --shared-bytes is the launch's third <<<>>> argument.
dyn="$CORPUS/no_main/dynamic_reverse.cu"
out=$("$APP" run "$dyn" --grid 1 --block 64 --arg n=64 --shared-bytes 256 --steps 2>&1) || fail "dynamic_reverse.cu: $out"
grep -q "^hazards: none" <<<"$out" || fail "dynamic_reverse.cu with 256 bytes: $out"
# The launch filled d with 0..63; reversed, thread 0's element is 63 (--steps prints the array).
grep -q "T0 *reads s\[63\] = 63, writes d\[0\] = 63" <<<"$out" || fail "dynamic_reverse.cu: not reversed: $out"
out=$("$APP" run "$dyn" --grid 1 --block 64 --arg n=64 2>&1) || fail "dynamic_reverse.cu without bytes: $out"
grep -q "out-of-bounds write of s\[0\].* (s has 0 elements: the launch gave no dynamic shared memory; give its bytes as <<<grid, block, BYTES>>>, or --shared-bytes BYTES to a .cu without main())" <<<"$out" ||
  fail "dynamic_reverse.cu without --shared-bytes: $out"
out=$("$APP" run "$dyn" --grid 1 --block 64 --arg n=64 --shared-bytes 252 2>&1) || fail "dynamic_reverse.cu, 252 bytes: $out"
grep -q "out-of-bounds write of s\[63\] .*(s has 63 elements)" <<<"$out" || fail "dynamic_reverse.cu with 252 bytes: $out"
set +e; out=$("$APP" run "$dyn" --grid 1 --block 64 --shared-bytes 50000 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] && grep -q -- "--shared-bytes 50000: a block has at most 49152 bytes of shared memory" <<<"$out" || fail "--shared-bytes 50000: exit $rc: $out"
set +e; out=$("$APP" run "$dyn" --grid 1 --block 64 --shared-bytes 2k 2>&1); rc=$?; set -e
[[ $rc -eq 2 ]] && grep -q -- "--shared-bytes 2k: expected a number of bytes" <<<"$out" || fail "--shared-bytes 2k: exit $rc: $out"
pass "extern __shared__ without main(): --shared-bytes 256 sizes it; none is out of bounds at s[0] with what to give; 50000 and 2k refused"
# A lane returns before a full-mask shuffle: the error and its fix name the `return` it took.
cat >"$WORK/alone/early.cu" <<'CU'
__global__ void warp_sum(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;  // the early return
    int v = in[t];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);  // the shuffle
    if (t == 0) *out = v;
}
CU
early="$WORK/alone/early.cu"
ret=$(grep -n '// the early return' "$early" | cut -d: -f1)
shfl=$(grep -n '// the shuffle' "$early" | cut -d: -f1)
out=$("$APP" run "$early" --grid 1 --block 32 --arg n=20 2>&1) || true
grep -q "names T20, which already exited (it returned at $early:$ret)" <<<"$out" || fail "early return: the error names no return: $out"
grep -q "^fix: .*T20 returned at $early:$ret before reaching $early:$shfl" <<<"$out" || fail "early return: the fix names no return: $out"
pass "a lane that returned before a full-mask shuffle: the error and the fix name its return at :$ret"
printf '#include <cstdio>\n__global__ void k(int *d) { d[threadIdx.x] = 1; }\nint main()\n{\n    int *d;\n    cudaMalloc(&d, 4096 * sizeof(int));\n    k<<<1, 2048>>>(d);\n    cudaError_t e = cudaGetLastError();\n    printf("%%s\\n", cudaGetErrorString(e));\n    return e == cudaSuccess ? 0 : 1;\n}\n' >"$WORK/alone/big.cu"
out=$("$APP" run "$WORK/alone/big.cu" 2>&1) || true
grep -q "big.cu:7: the launch of k is refused (invalid configuration): a block of 2048x1x1 = 2048 threads; a block has 1 to 1024" <<<"$out" ||
  fail "a 2048-thread launch: $out"
grep -qx "invalid configuration argument" <<<"$out" || fail "the program did not see cudaErrorInvalidConfiguration: $out"
pass "a launch of 2048 threads is refused at big.cu:7, and the program's cudaGetLastError() says so"

# 8-byte elements and structs in device memory: binned_stats_double.cu's BUG_NON_ATOMIC (a plain += on a
# double field of a __shared__ struct array) is a race at that line; long_long_and_char.cu's 64-bit
# atomics leave no race.
bs="$CORPUS/binned_stats_double.cu"
plain_add=$(grep -n '^ *s_bins\[bin\].sum += x;' "$bs" | cut -d: -f1)
[[ $plain_add =~ ^[0-9]+$ ]] || fail "binned_stats_double.cu: its plain += line is not one line: $plain_add"
out=$("$APP" run "$bs" --bug non-atomic 2>&1) || true
grep -q "race ([A-Z]*) between .* at $bs:$plain_add and .* at $bs:$plain_add" <<<"$out" ||
  fail "binned_stats_double.cu --bug non-atomic: no race at :$plain_add: $(grep -m3 -i 'race\|hazard' <<<"$out")"
pass "a plain += on a double field of a shared struct array races at binned_stats_double.cu:$plain_add"
out=$("$APP" run "$CORPUS/long_long_and_char.cu" 2>&1)
grep -q "^hazards: none" <<<"$out" || fail "long_long_and_char.cu: hazards in the correct program: $(grep -m3 -i 'race\|hazard' <<<"$out")"
pass "long_long_and_char.cu: 64-bit atomics and a __shared__ long long reduction, no hazard"
# A long long is one element in the reports, at the program's index with its 64-bit value (never
# two whole-number halves): cache[1] of block 0 after the first halving is 164000492 + 8450025350.
out=$("$APP" run "$CORPUS/long_long_and_char.cu" --steps 2>&1)
grep -q "T1    reads cache\[1\] = 164000492, reads cache\[129\] = 8450025350, writes cache\[1\] = 8614025842$" <<<"$out" ||
  fail "long_long_and_char.cu --steps: a long long is not one element: $(grep -m1 'T1    reads cache' <<<"$out")"
grep -q "atomic_max d_max\[0\]: 0 -> 32000096, writes cache\[0\] = 32000096$" <<<"$out" ||
  fail "long_long_and_char.cu --steps: a 64-bit atomicMax is not one access: $(grep -m1 'T0    reads d_out' <<<"$out")"
json_line=$("$APP" run "$CORPUS/long_long_and_char.cu" --json --steps 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
b = d["steps"][1]["steps"][1]["blocks"][0]
t1 = [t for t in b["threads"] if t["thread"] == 1][0]["events"]
print(*[(e["op"], e["index"], e["value"]) for e in t1], b["shared"]["cache"][1])')
[[ "$json_line" == "('read', 1, 164000492) ('read', 129, 8450025350) ('write', 1, 8614025842) 8614025842" ]] ||
  fail "long_long_and_char.cu --json --steps: a long long is not one event of its element: $json_line"
pass "a long long is one element in --steps and --json (cache[1] = 8614025842, its 64-bit atomicMax one access)"

# __device__ variables at file scope are global memory: device_variable_histogram.cu's BUG_NON_ATOMIC
# (a plain ++ on a __device__ array's bin) races at that line, on the variable's own name.
dv="$CORPUS/device_variable_histogram.cu"
plain_count=$(grep -n '^ *bins\[bin\]++;' "$dv" | cut -d: -f1)
[[ $plain_count =~ ^[0-9]+$ ]] || fail "device_variable_histogram.cu: its plain ++ line is not one line: $plain_count"
out=$("$APP" run "$dv" --bug non-atomic 2>&1) || true
grep -q "race ([A-Z]*) between .* at $dv:$plain_count and .* at $dv:$plain_count .* on bins$" <<<"$out" ||
  fail "device_variable_histogram.cu --bug non-atomic: no race at :$plain_count on bins: $(grep -m3 -i 'race\|hazard' <<<"$out")"
grep -q "FAIL$" <<<"$out" || fail "device_variable_histogram.cu --bug non-atomic: the counts came out right: $out"
out=$("$APP" run "$dv" 2>&1)
grep -q "^hazards: none" <<<"$out" || fail "device_variable_histogram.cu: hazards in the correct program: $(grep -m3 -i 'race\|hazard' <<<"$out")"
pass "a plain ++ on a __device__ array races at device_variable_histogram.cu:$plain_count on 'bins'; atomicAdd on it does not"

# The Programming Guide's Matrix struct, passed by value with its device pointer inside, read through
# __device__ accessors; its __shared__ tiles are declared inside the loop, which on a GPU is one array
# for every iteration: without the loop's second barrier the next iteration's loads race with this
# one's reads of As and Bs.
mg="$CORPUS/matmul_guide_struct.cu"
out=$("$APP" run "$mg" --bug no-second-barrier 2>&1) || true
grep -q "race (WAR) on As, Bs, all for want of one barrier" <<<"$out" ||
  fail "matmul_guide_struct.cu --bug no-second-barrier: no race across iterations on As, Bs: $(grep -m3 -i 'race\|hazard' <<<"$out")"
pass "a __shared__ array declared inside a loop is one array: matmul_guide_struct.cu's missing second barrier races on As, Bs"

# Streams, pinned memory, float4 and an index read from memory (src[idx[i]]): the program runs, its
# launches on streams said once on stderr; its off-by-one guard reads and writes past the arrays at
# the guard's lines.
gf="$CORPUS/gather_float4_streams.cu"
notes=$("$APP" run "$gf" 2>&1 >/dev/null)
grep -q "gather_float4_streams.cu:[0-9]*: note: streams run one after another in the simulator" <<<"$notes" ||
  fail "gather_float4_streams.cu: no note about streams on stderr: $notes"
out=$("$APP" run "$gf" --bug off-by-one 2>&1) || true
for what in "read of d_idx\[2048\]" "write of d_out\[2048\]"; do
  grep -q "out-of-bounds $what at $gf:[0-9]*" <<<"$out" || fail "gather_float4_streams.cu --bug off-by-one: no out-of-bounds $what: $out"
done
pass "gather_float4_streams.cu: streams said on stderr; the off-by-one guard reads d_idx[2048] and writes d_out[2048]"

# A kernel that uses a null pointer fails at that line, and every CUDA call after it fails, as on a
# GPU: the program's copy back does nothing, and the report does not call the run a success.
mkdir -p "$WORK/null"
printf '%s\n' '#include <cstdio>' '__device__ int twice(int v) { return 2 * v; }' \
  '__global__ void k(int *out, int *nothing) {' \
  '  out[threadIdx.x] = twice(threadIdx.x);' '  if (threadIdx.x == 3) nothing[0] = 5;' '}' \
  'int main() {' '  int h[32] = {0}; int *d; cudaMalloc(&d, sizeof h);' '  k<<<1, 32>>>(d, nullptr);' \
  '  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);' \
  '  printf("%s %s\n", cudaGetErrorString(e), h[31] == 62 ? "PASS" : "FAIL");' '  return 0;' '}' >"$WORK/null/null.cu"
set +e; out=$("$APP" run "$WORK/null/null.cu" 2>&1); rc=$?; set -e
[[ $rc -eq 1 ]] || fail "a null pointer in a kernel: exit $rc: $out"
grep -q "thread 3 of block 0 used a null pointer at $WORK/null/null.cu:5" <<<"$out" || fail "the null pointer is not named at null.cu:5: $out"
grep -qx "unspecified launch failure FAIL" <<<"$out" || fail "cudaMemcpy after the failed launch did not fail: $out"
grep -q "^match: no" <<<"$out" || fail "a run with a failed launch is called a match: $out"
pass "a null pointer fails its launch at null.cu:5; the copy after it fails as on a GPU; match: no"

# A device pointer stored into a struct in device code (&v.data[k]) is the address of that array's
# cell even when the array was allocated after a launch with shared memory (the trace numbers
# arrays otherwise than the device does).
mkdir -p "$WORK/late"
printf '%s\n' '#include <cstdio>' 'struct View { int n; float* data; };' \
  '__global__ void warm(float* x) { __shared__ float s[32]; s[threadIdx.x] = x[threadIdx.x]; __syncthreads(); x[threadIdx.x] = s[31 - threadIdx.x]; }' \
  '__device__ View shift(View v, int k) { View w; w.n = v.n - k; w.data = &v.data[k]; return w; }' \
  '__global__ void take(View v, float* out) { View w = shift(v, 4); out[threadIdx.x] = w.data[threadIdx.x]; }' \
  'int main() {' '  float h[32], r[28]; for (int i = 0; i < 32; ++i) h[i] = i;' \
  '  float *a, *b, *out; cudaMalloc(&a, sizeof h); cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);' \
  '  warm<<<1, 32>>>(a);' '  cudaMalloc(&b, sizeof h); cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice); cudaMalloc(&out, sizeof r);' \
  '  View v{32, b};' '  take<<<1, 28>>>(v, out);' '  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);' \
  '  int bad = 0; for (int i = 0; i < 28; ++i) bad += r[i] != i + 4;' '  printf("%s %g\n", bad ? "FAIL" : "PASS", r[0]);' \
  '  return bad != 0;' '}' >"$WORK/late/late.cu"
out=$("$APP" run "$WORK/late/late.cu" 2>&1) || fail "a struct's device pointer set in device code after a launch: $out"
grep -qx "PASS 4" <<<"$out" || fail "&v.data[4] in device code did not point into v's array: $out"
grep -q "^hazards: none" <<<"$out" || fail "&v.data[4] in device code: hazards: $(grep -m3 -i 'race\|hazard\|bounds' <<<"$out")"
pass "&v.data[k] stored in device code points into v's own array after an earlier launch's shared memory"

# Pitched memory, as the Programming Guide writes it: cudaMallocPitch, cudaMemcpy2D and a row found
# through a char pointer. Counting the pitch in floats writes past the image from row height / 4; a
# char pointer cast back at a byte that is not a whole float fails as a misaligned address; reading
# a float's bytes through one is said to be not simulated.
pr="$CORPUS/pitched_rows.cu"
pitch_line=$(grep -n '^    row\[c\] = ' "$pr" | cut -d: -f1)
out=$("$APP" run "$pr" --bug pitch-in-elements 2>&1) || true
grep -q "out-of-bounds write of d_img\[3072\], .* at $pr:$pitch_line (d_img has 3072 elements)" <<<"$out" ||
  fail "pitched_rows.cu --bug pitch-in-elements: no out-of-bounds write at :$pitch_line: $(grep -m3 'error\|FAIL' <<<"$out")"
mkdir -p "$WORK/pitch"
printf '%s\n' '__global__ void k(float* img, int shift) {' \
  '  float* row = (float*)((char*)img + shift);' '  row[threadIdx.x] = 1.0f;' \
  '  if (shift == 0) img[0] = ((char*)img)[1];' '}' >"$WORK/pitch/k.cu"
set +e; out=$("$APP" run "$WORK/pitch/k.cu" --grid 1 --block 32 --arg shift=2 2>&1); rc=$?; set -e
[[ $rc -eq 1 ]] || fail "a misaligned float pointer: exit $rc: $out"
grep -q "thread 0 of block 0 made a pointer to 4-byte elements at byte 2 of img at $WORK/pitch/k.cu:2 (a misaligned address on a GPU)" <<<"$out" ||
  fail "a misaligned float pointer is not named at k.cu:2: $out"
set +e; out=$("$APP" run "$WORK/pitch/k.cu" --grid 1 --block 32 2>&1); rc=$?; set -e
grep -q "read the bytes of img through a char pointer at $WORK/pitch/k.cu:4 (not simulated: " <<<"$out" ||
  fail "a float's bytes read through a char pointer are not refused at k.cu:4 (exit $rc): $out"
pass "pitched memory: pitched_rows.cu runs; its pitch counted in floats writes past d_img at :$pitch_line; a misaligned (float *) fails at its line; a float's bytes through a char pointer are refused"

# Arrays of CUDA's float4 and of a student's struct are named and shown field by field as the program
# indexes them (d[1].x = 1.5, not d (Particle, 2 cells each)[2] or the float's bits 1069547520); a
# struct that mixes doubles, floats and ints shows each field as its own type.
mkdir -p "$WORK/floats"
printf '%s\n' '#include <cstdio>' 'struct Particle { float x, y; };' \
  '__global__ void drift(Particle* p, float4* q) { int i = threadIdx.x; p[i].x += 0.5f; q[i].y = p[i].x; }' \
  'int main() {' '  Particle h[4]; for (int i = 0; i < 4; ++i) h[i] = {1.5f * i, 0.25f};' \
  '  Particle* d; float4* f; cudaMalloc(&d, sizeof h); cudaMalloc(&f, 4 * sizeof(float4));' \
  '  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);' '  drift<<<1, 4>>>(d, f);' \
  '  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);' '  printf("%g PASS\n", h[1].x);' '  return 0;' '}' >"$WORK/floats/p.cu"
out=$("$APP" run "$WORK/floats/p.cu" --steps 2>&1) || fail "structs of floats: $out"
grep -q "reads d\[1\].x = 1.5, writes d\[1\].x = 2," <<<"$out" ||
  fail "a struct of floats is not shown field by field as floats: $(grep -m2 'T1 ' <<<"$out")"
grep -q "writes f\[1\].y = 2$" <<<"$out" || fail "a float4 is not shown field by field: $(grep -m2 'T1 ' <<<"$out")"
bs="$CORPUS/binned_stats_double.cu"
out=$("$APP" run "$bs" --steps 2>&1) || fail "binned_stats_double.cu --steps: $(tail -3 <<<"$out")"
grep -q "T0    writes s_bins\[0\].sum = 0, writes s_bins\[0\].sumSquares = 0, writes s_bins\[0\].count = 0, writes s_bins\[0\].minValue = 2147483647," <<<"$out" ||
  fail "BinStats (double, double, unsigned long long, int, int) is not shown field by field: $(grep -m1 'T0 ' <<<"$out")"
grep -Eq "atomic_add s_bins\[[0-7]\]\.sum: 0 -> [0-9.]+, atomic_add s_bins\[[0-7]\]\.sumSquares" <<<"$out" ||
  fail "a double field's atomicAdd is not one access of the field: $(grep -m1 'atomic_add' <<<"$out")"
pass "structs are shown field by field as their types (d[1].x = 1.5, f[1].y = 2, s_bins[0].minValue = 2147483647, s_bins[4].sum's atomicAdd)"

# Bank conflicts of 8- and 16-byte accesses are counted by half and quarter warps, as the H100's
# counters count them (tests/cuda/no_main/bank_widths.cu says what ncu measured): 32 consecutive
# doubles or float4s have none; doubles at stride 2 take one extra pass per half warp.
bw="$CORPUS/no_main/bank_widths.cu"
for expected in "double_contiguous:no bank conflict" "double_stride2:2 with a bank conflict (worst 2-way, 4 extra passes)" \
                "double_stride16:2 with a bank conflict (worst 16-way, 60 extra passes)" "float4_contiguous:no bank conflict" \
                "float_stride2:2 with a bank conflict (worst 2-way, 2 extra passes)"; do
  kernel=${expected%%:*}
  line=$("$APP" run "$bw" --kernel-name "$kernel" --grid 1 --block 32 2>&1 | grep '^warps')
  [[ $line == "warps (shown blocks): 3 warp instructions, 0 divergent; 2 shared-memory, ${expected#*:}" ]] ||
    fail "bank_widths.cu $kernel: $line"
done
pass "8- and 16-byte shared accesses: bank conflicts by half and quarter warps, as ncu counts them on an H100"

# Unified memory: the host fills and reads cudaMallocManaged arrays in place; the one-block stride of
# BUG_BLOCK_STRIDE makes every block add into all of y, a race between blocks on 'y' at the loop's line.
um="$CORPUS/unified_memory_add.cu"
add_line=$(grep -n '^ *y\[i\] = x\[i\] + y\[i\];' "$um" | cut -d: -f1)
out=$("$APP" run "$um" --bug block-stride 2>&1) || true
grep -q "cross-block race ([A-Z]*) between .* at $um:$add_line and .* at $um:$add_line .* on y$" <<<"$out" ||
  fail "unified_memory_add.cu --bug block-stride: no race between blocks at :$add_line on y: $(grep -m3 -i 'race\|hazard' <<<"$out")"
grep -q "FAIL$" <<<"$out" || fail "unified_memory_add.cu --bug block-stride: the sums came out right: $out"
pass "cudaMallocManaged arrays are the kernel's global arrays: the one-block stride races between blocks on 'y' at :$add_line"

# Bad input: one message at the file's line, exit 2.
mkdir -p "$WORK/bad"
# refused NAME.cu LINE MESSAGE WHAT SOURCE: the file is refused (exit 2) with MESSAGE (a grep
# pattern) at NAME.cu:LINE.
refused() {
  local name=$1 line=$2 message=$3 what=$4 source=$5 out rc
  printf '%b' "$source" >"$WORK/bad/$name"
  set +e; out=$("$APP" run "$WORK/bad/$name" 2>&1); rc=$?; set -e
  [[ $rc -eq 2 ]] || fail "$what: exit $rc: $out"
  grep -q "$name:$line:[0-9]*: error: $message" <<<"$out" || fail "$what is not refused at $name:$line: $out"
  pass "$what is refused at $name:$line: $(grep -o 'error: .*' <<<"$out" | head -1 | cut -c8-100)"
}
refused syntax.cu 4 "expected ';'" "a syntax error (Clang's message)" \
  '#include <cuda_runtime.h>\n__global__ void k(float *x)\n{\n    x[threadIdx.x] = 1.0f\n}\nint main() { return 0; }\n'
# CUDA's math functions and intrinsics run as on the GPU (exact results compared by main());
# a library syncscope does not simulate is said at the #include.
mkdir -p "$WORK/math"
cat >"$WORK/math/intrinsics.cu" <<'CU'
#include <cstdio>
#include <cstring>
__global__ void k(const float *in, int *out)
{
    int t = threadIdx.x;
    out[t] = __float_as_int(rsqrtf(4.0f)) + __mul24(t, 3) + (int)__umulhi(0x80000000u, 4u) + (int)umin(t, 5u) +
             (int)fmaf(2.0f, 3.0f, 1.0f) + (int)__ldg(&in[t]) + __float2int_rn(2.5f) + (int)__sad(1, 4, 0u) +
             (int)truncf(-1.5f) + (int)copysignf(2.0f, -1.0f) + __popc(t) + (int)(__saturatef(3.0f) * 10.0f);
}
int main()
{
    float h_in[32]; int h_out[32];
    for (int t = 0; t < 32; ++t) h_in[t] = (float)(t * 2);
    float *d_in; int *d_out;
    cudaMalloc(&d_in, sizeof h_in); cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    float half = 0.5f; int half_bits; memcpy(&half_bits, &half, sizeof half_bits);
    int bad = 0;
    for (int t = 0; t < 32; ++t) {
        int expect = half_bits + 3 * t + 2 + (t < 5 ? t : 5) + 7 + 2 * t + 2 + 3 - 1 - 2 + __builtin_popcount(t) + 10;
        if (h_out[t] != expect) ++bad;
    }
    printf("out[31] = %d, wrong = %d %s\n", h_out[31], bad, bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
CU
out=$("$APP" run "$WORK/math/intrinsics.cu" 2>&1) || fail "math intrinsics: $out"
grep -q "wrong = 0 PASS" <<<"$out" || fail "math intrinsics: wrong results: $out"
pass "rsqrtf, __float_as_int, __mul24, __umulhi, umin, fmaf, __ldg, __float2int_rn, __sad, truncf, copysignf, __saturatef as on a GPU"
refused coop.cu 2 '"cooperative groups are not simulated yet: use __syncthreads() for a block' "cooperative groups" \
  '#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n__global__ void k(int *x) { x[0] = 1; }\nint main() { return 0; }\n'
refused tagged.cu 3 "'t' points to Tagged, whose field 'tag' is a char (1 byte): syncscope lays out structs .*; make it an int, or keep pixels of bytes in CUDA's uchar4 or uchar3 (the same bytes)" \
  "a struct with a char field" \
  '#include <cuda_runtime.h>\nstruct Tagged { char tag; int value; };\n__global__ void k(Tagged *t) { t[threadIdx.x].value = 1; }\nint main() { return 0; }\n'
refused prose.cu 1 "" "a file that is not CUDA (Clang's message)" 'this is not CUDA\n'
# __constant__ memory: read by device code, set by the host; a kernel that writes it is told so at its line.
refused constant.cu 5 "__constant__ 'scale' is read-only in device code: the host sets it with cudaMemcpyToSymbol" \
  "a kernel's write to __constant__ memory" \
  '#include <cuda_runtime.h>\n__constant__ float scale[2];\n__global__ void k(float *x)\n{\n    scale[0] = x[0];\n}\nint main() { float *x; cudaMalloc(&x, 4); k<<<1, 1>>>(x); return 0; }\n'
refused device_extern.cu 2 "__device__ 'total' is declared without its size or its definition" \
  "an extern __device__ variable" \
  '#include <cuda_runtime.h>\nextern __device__ int total;\n__global__ void k(int *x) { x[0] = total; }\nint main() { return 0; }\n'
refused device_3d.cu 2 "__device__ 'cube' has 3 dimensions" "a 3D __device__ array" \
  '#include <cuda_runtime.h>\n__device__ int cube[2][2][2];\n__global__ void k(int *x) { x[0] = cube[0][0][0]; }\nint main() { return 0; }\n'
# A struct in __constant__ memory (the CUDA samples' SimParams), set with cudaMemcpyToSymbol, plain or in an array.
printf '#include <cstdio>\nstruct P { float a; int n; };\n__constant__ P params;\n__constant__ P table[2];\n__global__ void k(float *x) { x[threadIdx.x] = params.a * params.n + table[threadIdx.x %% 2].a; }\nint main() {\n  P p = {1.5f, 2}, t[2] = {{10.0f, 0}, {20.0f, 0}};\n  cudaMemcpyToSymbol(params, &p, sizeof p);\n  cudaMemcpyToSymbol(table, t, sizeof t);\n  float *d, h[4];\n  cudaMalloc(&d, sizeof h);\n  k<<<1, 4>>>(d);\n  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  printf("%%g %%g\\n", h[0], h[3]);\n  return h[0] == 13.0f && h[3] == 23.0f ? 0 : 1;\n}\n' >"$WORK/constant_struct.cu"
out=$("$APP" run "$WORK/constant_struct.cu" 2>&1) || fail "constant_struct.cu: $out"
grep -qx "13 23" <<<"$out" && grep -q "its own check passed" <<<"$out" || fail "a struct in __constant__ memory: $out"
pass "a struct in __constant__ memory (plain and in an array) is read field by field"
# The device heap and cudaLaunchKernel are said to be not simulated, with what to write instead (the
# malloc's cast is not refused on its own).
refused device_malloc.cu 3 "'malloc' in device code (the device heap) is not simulated: allocate with cudaMalloc" \
  "malloc in a kernel" \
  '#include <cuda_runtime.h>\n__global__ void k(float *x) {\n  float *scratch = (float *)malloc(4 * sizeof(float));\n  x[0] = 1.0f;\n  free(scratch);\n}\nint main() { return 0; }\n'
grep -q "device_malloc.cu:3:[0-9]*: error: a pointer cast" <<<"$("$APP" run "$WORK/bad/device_malloc.cu" 2>&1)" &&
  fail "the cast of a device malloc is refused besides the malloc"
refused thread_sync.cu 3 "cudaThreadSynchronize was removed in CUDA 12 (nvcc no longer knows it): write cudaDeviceSynchronize()" \
  "cudaThreadSynchronize" \
  '#include <cuda_runtime.h>\nint main() {\n  cudaThreadSynchronize();\n  return 0;\n}\n'
refused launch_kernel.cu 5 "cudaLaunchKernel (the arguments as an array of pointers) is not simulated: launch with kernel<<<" \
  "cudaLaunchKernel" \
  '#include <cuda_runtime.h>\n__global__ void k(int *x) { x[0] = 1; }\nint main() {\n  int *d; cudaMalloc(&d, 4); void *args[] = {&d};\n  cudaLaunchKernel((const void *)k, dim3(1), dim3(1), args, 0, 0);\n  return 0;\n}\n'
echo "all CUDA corpus checks passed"
